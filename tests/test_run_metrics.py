"""Run metrics on hand-made episode records: rates, efficiency, breakdown buckets,
errors as failures and counted apart, and the reports written from them."""

from __future__ import annotations

import csv
import json

import pytest

import numpy as np
from PIL import Image, ImageFont

from mobile_gym.runner.metrics import aggregate, difficulty, markdown_table, summarize, write_reports
from mobile_gym.runner.plots import BAR, bar_chart


def rec(**kw):
    base = dict(task="LlamaTouch/t-v0", agent="a", seed=0, app="clock", category="general", golden_steps=4,
                success=False, oracle_success=False, progress=0.0, steps=10, success_step=None,
                terminated_by="step_limit", false_finish=False, over_execution=False, error=None,
                wall_time=1.0, step_latency=0.01, act_latency=0.5)
    return {**base, **kw}


RECORDS = [
    rec(success=True, oracle_success=True, progress=1.0, steps=4, success_step=4, terminated_by="success"),
    rec(success=True, oracle_success=True, progress=1.0, steps=8, success_step=6, over_execution=True,
        golden_steps=4, tokens=100, cost=0.5),
    rec(progress=0.5, steps=3, terminated_by="complete", false_finish=True, golden_steps=6, app="chrome",
        tokens=50, cost=0.25),
    rec(success=True, oracle_success=False, progress=1.0, steps=12, success_step=12, golden_steps=12,
        app="chrome", category="webshopping"),
    rec(error={"kind": "DeviceError", "message": "died"}, wall_time=3.0, step_latency=None, act_latency=None),
]


def test_difficulty_buckets() -> None:
    assert [difficulty(n) for n in (1, 4, 5, 8, 9)] == ["easy", "easy", "medium", "medium", "hard"]


def test_aggregate_counts_errors_as_failures_and_apart() -> None:
    m = aggregate(RECORDS)
    assert m["episodes"] == 5 and m["errors"] == 1
    assert m["success_rate"] == pytest.approx(3 / 5)  # the error is a failure, as offline
    assert m["oracle_success_rate"] == pytest.approx(2 / 5)
    assert m["agreement"] == pytest.approx(3 / 4)  # an error has no verdict to agree with
    assert m["progress"] == pytest.approx((1 + 1 + 0.5 + 1 + 0) / 5)
    assert m["steps"] == pytest.approx((4 + 8 + 3 + 12) / 4)
    assert m["step_efficiency"] == pytest.approx((4 / 4 + 8 / 4 + 12 / 12) / 3)  # successes only
    assert m["false_finish_rate"] == pytest.approx(1 / 4)
    assert m["over_execution_rate"] == pytest.approx(1 / 3)
    assert m["wall_time"] == pytest.approx(7 / 5)
    assert m["tokens"] == 150 and m["cost"] == pytest.approx(0.75)
    assert m["act_latency"] == pytest.approx(0.5) and m["step_latency"] == pytest.approx(0.01)
    assert m["error_kinds"] == {"DeviceError": 1}
    assert aggregate([])["success_rate"] is None


def test_breakdowns_by_app_category_and_difficulty() -> None:
    s = summarize(RECORDS)
    assert set(s["by_app"]) == {"clock", "chrome"} and s["by_app"]["chrome"]["episodes"] == 2
    assert s["by_category"]["webshopping"]["success_rate"] == 1.0
    assert {k: v["episodes"] for k, v in s["by_difficulty"].items()} == {"easy": 3, "medium": 1, "hard": 1}
    assert "| all | 5 | 1 | 0.60 |" in markdown_table(s)


def test_reports_are_written(tmp_path) -> None:
    summary = write_reports(tmp_path, RECORDS)
    assert json.loads((tmp_path / "summary.json").read_text()) == json.loads(json.dumps(summary))
    with open(tmp_path / "episodes.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 5 and rows[-1]["error_kind"] == "DeviceError" and rows[3]["difficulty"] == "hard"
    assert rows[0]["act_latency"] == "0.5" and rows[-1]["act_latency"] == ""
    with Image.open(tmp_path / "completion_by_app.png") as png:
        by_app = png.convert("RGB")
    bars = blue_rows(by_app)  # a bar per app, top to bottom: chrome (1/2 succeeded), clock (2/2)
    assert len(bars) == 2 and bars[0][1] < bars[1][1]  # the lower rate is the shorter bar
    # easy 2/3, medium 0/1 (no bar), hard 1/1; progress 1 (3 episodes), (.25, .5] (1), error (1)
    for name, bars in (("completion_by_difficulty.png", 2), ("progress.png", 3)):
        with Image.open(tmp_path / name) as png:
            assert png.width == 640 and len(blue_rows(png.convert("RGB"))) == bars


def blue_rows(image: Image.Image) -> list[tuple[int, int]]:
    """The bars of a chart, top to bottom: (first row, right end) of each run of rows with bar colour."""
    pixels = np.asarray(image)
    blue = np.all(pixels == BAR, axis=2)
    rows = np.flatnonzero(blue.any(axis=1))
    bars = []
    for y in rows:
        if not bars or y > bars[-1][2] + 1:
            bars.append([y, 0, y])
        bars[-1][1] = max(bars[-1][1], int(np.flatnonzero(blue[y]).max()))
        bars[-1][2] = y
    return [(int(top), right) for top, right, _ in bars]


APPS = [f"App number {n} with a long name" if n % 5 == 0 else f"App {n}" for n in range(25)]


def test_completion_by_app_stays_readable_with_25_apps(tmp_path) -> None:
    """Each app's label is drawn whole, apart from every other: erasing one label (drawing
    the chart without it) changes a region of the picture that no other label's covers."""
    values = [(n % 7) / 6 for n in range(25)]
    full = np.asarray(bar_chart("Completion rate by app", APPS, values))
    boxes = []
    for n in range(25):
        without = np.asarray(bar_chart("Completion rate by app", APPS[:n] + [""] + APPS[n + 1:], values))
        ys, xs = np.nonzero(np.any(full != without, axis=2))
        boxes.append((xs.min(), ys.min(), xs.max(), ys.max()))
    width = ImageFont.load_default(size=12).getlength
    for n, (x0, y0, x1, y1) in enumerate(boxes):
        assert x1 - x0 + 1 >= width(APPS[n]) - 2, APPS[n]  # the whole name, not a cut
        for m in range(n):
            a0, b0, a1, b1 = boxes[m]
            assert x1 < a0 or a1 < x0 or y1 < b0 or b1 < y0, (APPS[n], APPS[m])  # apart
    records = [rec(app=app, success=n % 2 == 0) for n, app in enumerate(APPS)]
    write_reports(tmp_path, records)
    with Image.open(tmp_path / "completion_by_app.png") as png:
        assert len(blue_rows(png.convert("RGB"))) == 13  # the apps that succeeded have a bar; 0% has none


def test_error_kinds_are_counted_most_frequent_first() -> None:
    died = {"kind": "DeviceError", "message": "died"}
    timeout = {"kind": "TimeoutError", "message": "model took too long"}
    m = aggregate([rec(error=timeout), rec(error=died), rec(error=timeout), rec()])
    assert list(m["error_kinds"].items()) == [("TimeoutError", 2), ("DeviceError", 1)]
    assert aggregate([rec()])["error_kinds"] == {}


def test_an_error_row_is_never_a_success_even_if_it_says_so() -> None:
    """Records written before errors reset the verdicts could hold both."""
    legacy = rec(success=True, oracle_success=True, progress=1.0, error={"kind": "OSError", "message": "disk full"})
    m = aggregate([legacy, rec(success=True, oracle_success=True, progress=1.0)])
    assert (m["success_rate"], m["oracle_success_rate"], m["progress"], m["errors"]) == (0.5, 0.5, 0.5, 1)


HOSTILE = "lone \ud800 surrogate, NUL \x00, escape \x1b[2J, CR \r" + "x" * 50_000


def test_reports_survive_any_text(tmp_path) -> None:
    records = [rec(error={"kind": "Weird\udcff", "message": HOSTILE}, app="app \ud800\x00", agent="a\x07"),
               rec(success=True, progress=1.0, app="\x00" * 20)]
    summary = write_reports(tmp_path, records)
    assert summary["overall"]["error_kinds"] == {"Weird\udcff": 1}
    assert json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["overall"]["errors"] == 1
    with open(tmp_path / "episodes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["success"] for r in rows] == ["False", "True"]
    assert rows[0]["error_kind"] == "Weird\\udcff"
    assert rows[0]["error"].startswith("lone \\ud800 surrogate, NUL \\x00, escape \\x1b[2J, CR \\x0d")
    assert "\x00" not in (tmp_path / "episodes.csv").read_text(encoding="utf-8")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "lone \\ud800 surrogate, NUL \\x00" in html and "\x00" not in html and "\x1b" not in html
    assert "a\\x07" in markdown_table(summary)


def test_the_terminal_table_says_what_each_figure_is() -> None:
    """Rates, means per episode, milliseconds per step and run totals, named as such (as
    the report's summary groups them), latencies in ms as in the report."""
    header, _, *rows = markdown_table(summarize(RECORDS)).splitlines()
    names = [c.strip() for c in header.strip("|").split("|")]
    assert names[:4] == ["agent", "episodes", "errors", "matcher success rate"]
    assert {"steps mean", "agent act ms/step", "env step ms/step", "tokens in total", "cost ($) total"} <= set(names)
    total = dict(zip(names, (c.strip() for c in rows[-1].strip("|").split("|"))))
    assert (total["agent"], total["agent act ms/step"], total["env step ms/step"], total["cost ($) total"]) == (
        "all", "500.0", "10.0", "0.75")
    unpaid = [{k: v for k, v in r.items() if k not in ("tokens", "cost")} for r in RECORDS]
    assert "ms/step" not in markdown_table(summarize(unpaid))  # no model asked: no latency or usage columns
