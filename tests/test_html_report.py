"""The run's HTML report, from real runs: one self-contained file, a section per episode
with a thumbnail per trace step, the step each checkpoint matched, escaped text, and a
useful page when no traces were saved."""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
from pathlib import Path

import lxml.html
import pytest
from PIL import Image

from mobile_gym.agents import Agent, OracleAgent
from mobile_gym.env import resolve_task
from mobile_gym.formats.agentenv import read_trace
from mobile_gym.runner import Job, run_batch
from mobile_gym.runner.batch import TRACES_DIR, trace_dir_name
from mobile_gym.runner.html_report import REPORT_FILE, write_html_report
from mobile_gym.runner.thumbnails import THUMB_WIDTH, THUMBNAILS_DIR
from mobile_gym.runner.metrics import write_reports

HOSTILE = "<script>alert('pwned')</script> & </details><img src=http://example.com/x.png>"


class HostileAgent(Agent):
    """Crashes on its first move with a message full of markup."""

    def act(self, observation, info):
        raise RuntimeError(HOSTILE)


class SecondRouteAgent(OracleAgent):
    """Plays the task's alternative route 1."""

    def __init__(self, task):
        super().__init__(task, route=1)


JOBS = [Job("settings-turn-off-wifi", "oracle", 0), Job("settings-open", "oracle", 0),
        Job("settings-turn-off-wifi", "random", 0), Job("settings-open", f"{__name__}:HostileAgent", 0),
        Job("settings-set-system-dark", f"{__name__}:SecondRouteAgent", 0)]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[Path, list[dict]]:
    out = tmp_path_factory.mktemp("run")
    records = run_batch(JOBS, out, save_traces=True)
    write_reports(out, records)
    return out, records


def parse(path: Path):
    return lxml.html.fromstring(path.read_text(encoding="utf-8"))


def episodes(doc) -> dict[tuple[str, str, int], object]:
    sections = doc.xpath("//section[contains(concat(' ', @class, ' '), ' episode ')]")
    found = {(s.get("data-task"), s.get("data-agent"), int(s.get("data-seed"))): s for s in sections}
    assert len(found) == len(sections)
    return found


def key(record: dict) -> tuple[str, str, int]:
    return (record["task"], record["agent"], record["seed"])


def shots(element) -> list:
    """The step thumbnails under ``element``."""
    return element.xpath(".//div[contains(concat(' ', @class, ' '), ' shot ')]")


def shown(doc, shot) -> bytes:
    """The JPEG a step thumbnail shows: its class's background in the page's style."""
    style = "".join(doc.xpath("//style/text()"))
    pictures = dict(re.findall(r"\.(t\d+)\{background-image:url\(data:image/jpeg;base64,([^)]*)\)\}", style))
    (name,) = [c for c in shot.get("class").split() if c in pictures]
    return base64.b64decode(pictures[name])


def test_the_report_is_one_file_with_no_outside_references(run) -> None:
    out, _ = run
    path = out / REPORT_FILE
    doc = parse(path)
    assert doc.xpath("//link") == [] and doc.xpath("//iframe") == [] and doc.xpath("//script[@src]") == []
    for element in doc.iter():
        src, href = element.get("src"), element.get("href")
        assert src is None or src.startswith("data:image/"), src
        assert href is None or href.startswith("#"), href
    style = "".join(doc.xpath("//style/text()"))
    assert "@import" not in style and all(url.startswith("data:image/") for url in re.findall(r"url\(([^)]*)\)", style))
    # internal links lead somewhere
    ids = set(doc.xpath("//@id"))
    assert all(h[1:] in ids for h in doc.xpath("//@href"))


def test_one_section_per_episode_with_a_thumbnail_per_trace_step(run) -> None:
    out, records = run
    sections = episodes(parse(out / REPORT_FILE))
    assert set(sections) == {key(r) for r in records}
    for r in records:
        folder = out / TRACES_DIR / trace_dir_name(r["task"], r["agent"], r["seed"])
        assert folder.is_dir() == (r["error"] is None)  # the runner and the report agree on the name
        images = shots(sections[key(r)])
        assert len(images) == (len(read_trace(folder)) if folder.is_dir() else 0)
        if folder.is_dir():  # a dot on the thumbnail where each tap or swipe began
            for state, figure in zip(read_trace(folder), sections[key(r)].xpath(".//figure")):
                dots = figure.xpath(".//span[@class='touch']/@style")
                touch = state.action.touch if state.action is not None else None
                assert dots == ([] if touch is None else [f"left:{touch[0] * 100:.1f}%;top:{touch[1] * 100:.1f}%"])
    doc = parse(out / REPORT_FILE)
    with Image.open(io.BytesIO(shown(doc, shots(doc)[0]))) as thumb:
        assert thumb.format == "JPEG" and thumb.width == THUMB_WIDTH


def test_each_distinct_thumbnail_is_in_the_page_once(run) -> None:
    """Steps showing the same screen share one copy of its picture."""
    out, records = run
    doc = parse(out / REPORT_FILE)
    pictures = [shown(doc, shot) for shot in shots(doc)]
    style = "".join(doc.xpath("//style/text()"))
    assert style.count("data:image/jpeg") == len(set(pictures)) < len(pictures)
    made = {p.read_bytes() for p in (out / TRACES_DIR).glob(f"*/{THUMBNAILS_DIR}/*.jpg")}
    assert set(pictures) == made


def test_each_checkpoint_shows_the_step_it_matched(run) -> None:
    out, records = run
    sections = episodes(parse(out / REPORT_FILE))
    assert any(r["success"] for r in records) and any(not r["success"] and r["error"] is None for r in records)
    for r in records:
        section = sections[key(r)]
        checkpoints = resolve_task(r["task"]).annotation.routes[r["route"]]
        items = section.xpath(".//ol[@class='checkpoints']/li")
        if r["agent"].endswith("SecondRouteAgent"):  # solved by its second route, which is shown
            assert r["success"] and r["route"] == 1 and "Checkpoints of alternative route 1 of 1, the route that solved" in section.text_content()
        assert len(items) == len(checkpoints)
        for k, (item, checkpoint) in enumerate(zip(items, checkpoints)):
            text = item.text_content()
            assert str(checkpoint) in text
            step = r["matched"].get(str(k))
            assert (f"matched at step {step}" if step is not None else "not matched") in text
            if step is not None:  # the badge sits on that step's thumbnail
                figure = section.xpath(".//figure")[step]
                assert f"step {step}" in figure.text_content() and f"C{k + 1}" in figure.text_content()
                assert "hit" in figure.get("class")


def test_text_from_records_is_escaped(run) -> None:
    out, records = run
    doc = parse(out / REPORT_FILE)
    broken = next(r for r in records if r["error"] is not None)
    assert broken["error"]["message"] == HOSTILE
    section = episodes(doc)[key(broken)]
    assert HOSTILE in section.text_content()  # shown as text ...
    assert len(doc.xpath("//script")) == 1 and doc.xpath("//img[starts-with(@src, 'http')]") == []  # ... not markup
    assert section.xpath(".//details")[0].get("open") is not None  # errors start open


def test_without_traces_every_episode_is_listed_with_its_matches(tmp_path) -> None:
    records = run_batch(JOBS[:3], tmp_path)
    # a disagreement between matcher and oracle, and a task this version does not know
    flipped = {**records[0], "seed": 7, "oracle_success": False}
    unknown = {**records[1], "task": "LlamaTouch/no-such-<task>-v0", "matched": {"0": 2}}
    path = write_html_report(tmp_path, records + [flipped, unknown])
    doc = parse(path)
    sections = episodes(doc)
    assert len(sections) == 5 and doc.xpath("//section//img") == shots(doc) == []
    assert "--save-traces" in doc.text_content()
    for r in records:
        text = sections[key(r)].text_content()
        assert "--save-traces" in text
        for k, step in r["matched"].items():
            assert f"C{int(k) + 1}" in text and f"matched at step {step}" in text
    disagree = sections[key(flipped)]
    assert "disagree" in disagree.get("class") and "matcher ≠ oracle" in disagree.text_content()
    assert "unknown task" in sections[key(unknown)].xpath("ancestor::section")[0].text_content()
    assert "matched at step 2" in sections[key(unknown)].text_content()
    assert json.loads(json.dumps(records)) == records  # the report does not touch the records


def summary_columns(doc) -> dict[tuple[str, str], str]:
    """(group, column) -> the total row's cell of the summary by agent."""
    table = doc.xpath("//table[contains(@class, 'summary')]")[0]
    groups, labels = table.xpath(".//tr")[:2]
    agent, *rest = groups.xpath("th")
    assert agent.get("rowspan") == "2"  # the agent column spans both header rows
    under = [""]
    for th in rest:
        under += [th.text_content()] * int(th.get("colspan", 1))
    total = [td.text_content() for td in table.xpath(".//tr[@class='total']/td")]
    names = ["agent"] + [th.text_content() for th in labels.xpath("th")]
    assert len(under) == len(names) == len(total)
    return {(group, name): cell for group, name, cell in zip(under, names, total)}


def test_the_summary_labels_totals_and_means_and_times_in_ms(tmp_path) -> None:
    record, = run_batch(JOBS[:1], tmp_path)
    model = {**record, "act_latency": 0.25, "step_latency": 0.004, "tokens": 300, "tokens_in": 200, "tokens_out": 100,
             "cost": 0.002}
    doc = parse(write_html_report(tmp_path, [model, {**model, "seed": 1, "steps": record["steps"] + 2}]))
    columns = summary_columns(doc)
    assert columns[("mean per step, ms", "agent act")] == "250.0" and columns[("mean per step, ms", "env step")] == "4.0"
    assert columns[("total", "tokens in")] == "400" and columns[("total", "cost ($)")] == "0.0040"
    assert float(columns[("mean per episode", "steps")]) == record["steps"] + 1
    assert columns[("episodes", "all")] == "2"
    # each episode's line says the same, in the same unit
    usage = doc.xpath("string(//span[contains(@class, 'usage')])")
    assert "model 250.0 ms/step" in usage and "env 4.0 ms/step" in usage and " s/step" not in usage


def test_errors_count_as_failures_in_the_task_index_and_sections(run) -> None:
    out, _ = run
    doc = parse(out / REPORT_FILE)
    row = doc.xpath("//a[text()='LlamaTouch/settings-open-v0']/ancestor::tr")[0]
    # episodes, matcher success, oracle success, disagreements, errors: the oracle's success and the hostile error
    assert [td.text_content() for td in row.xpath("td")][1:] == ["2", "1/2", "1/2", "0", "1"]
    section = doc.xpath("//section[@class='task'][.//h2[text()='LlamaTouch/settings-open-v0']]")[0]
    assert "2 episodes, matcher success 1/2" in section.xpath("p[@class='meta']")[0].text_content()


def test_the_charts_are_inline(run) -> None:
    out, _ = run
    doc = parse(out / REPORT_FILE)
    charts = doc.xpath("//div[@class='charts']/img")
    assert [img.get("alt") for img in charts] == ["completion_by_app.png", "completion_by_difficulty.png", "progress.png"]
    for img in charts:  # the same pictures as the PNG files beside the report
        with Image.open(io.BytesIO(base64.b64decode(img.get("src").split(",", 1)[1]))) as inline, \
                Image.open(out / img.get("alt")) as png:
            assert inline.format == "PNG" and inline.convert("RGB").tobytes() == png.convert("RGB").tobytes()


def test_the_summary_tables_scroll_sideways_when_the_window_is_narrow(run) -> None:
    out, _ = run
    doc = parse(out / REPORT_FILE)
    tables = doc.xpath("//table[contains(@class, 'summary')]")
    assert len(tables) == 2 and all(t.getparent().get("class") == "wide" for t in tables)
    style = "".join(doc.xpath("//style/text()"))
    assert ".wide{max-width:100%;overflow-x:auto}" in style


def test_writing_the_report_reports_progress_per_episode(run) -> None:
    out, records = run
    calls = []
    write_html_report(out, records, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(k, len(records)) for k in range(1, len(records) + 1)]


def test_thumbnails_made_by_the_worker_are_used_without_the_screenshots(run, tmp_path) -> None:
    """The worker writes each step's thumbnail beside the trace; the report embeds those
    files as they are and never needs a screenshot (here: all of them corrupted)."""
    out, records = run
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    record = records[0]
    folder = copy / TRACES_DIR / trace_dir_name(record["task"], record["agent"], record["seed"])
    made = sorted((folder / THUMBNAILS_DIR).glob("*.jpg"), key=lambda p: int(p.stem))
    assert len(made) == len(read_trace(folder)) > 1
    for shot in (folder / "captured_data" / "screenshot").glob("*.png"):
        shot.write_bytes(b"not a png")
    doc = parse(write_html_report(copy, records))
    assert [shown(doc, shot) for shot in shots(episodes(doc)[key(record)])] == [p.read_bytes() for p in made]


def test_a_trace_without_thumbnails_gets_them_made_from_its_screenshots(run, tmp_path) -> None:
    out, records = run
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    for made in (copy / TRACES_DIR).glob(f"*/{THUMBNAILS_DIR}"):  # as a run of an older version left it
        shutil.rmtree(made)
    (copy / TRACES_DIR / trace_dir_name(records[0]["task"], records[0]["agent"], records[0]["seed"])
     / "captured_data" / "screenshot" / "1.png").write_bytes(b"not a png")
    doc = parse(write_html_report(copy, records))
    sections = episodes(doc)
    for r in records:
        if r["error"] is None:
            folder = copy / TRACES_DIR / trace_dir_name(r["task"], r["agent"], r["seed"])
            figures = sections[key(r)].xpath(".//figure")
            assert len(figures) == len(read_trace(folder))
            for i, figure in enumerate(figures):
                if r is records[0] and i == 1:  # the one broken screenshot is its step's problem alone
                    assert not shots(figure) and "not a readable PNG or JPEG image" in figure.text_content()
                    continue
                with Image.open(io.BytesIO(shown(doc, shots(figure)[0]))) as thumb:
                    assert thumb.format == "JPEG" and thumb.width == THUMB_WIDTH


def test_a_reply_that_could_not_be_used_shows_as_no_action_with_its_error(tmp_path) -> None:
    """The env was given a no-op (an empty TYPE); the report says what happened instead."""
    from chat_server import ChatServer

    replies = iter(["Maybe tap(1) or tap(2)?", "Action: tap(5)"])
    with ChatServer(lambda request: {"content": next(replies)}) as server:
        records = run_batch([Job("settings-open", "llm", 0)], tmp_path, save_traces=True,
                            agent_options={"base_url": server.url, "timeout": 5.0, "retries": 0})
    error = records[0]["agent_steps"][0]["parse_error"]
    assert error and records[0]["success"]
    first, second = parse(write_html_report(tmp_path, records)).xpath("//figure[contains(@class, 'step')]")[:2]
    assert "no action: the reply could not be used" in first.text_content() and error in first.text_content()
    assert "TYPE" not in first.text_content()
    assert "CLICK(" in second.xpath("string(figcaption/code)")


def test_the_run_command_shows_the_report_being_written(tmp_path, capsys) -> None:
    from mobile_gym.cli import main

    assert main(["run", "--agent", "oracle", "--tasks", "settings-open", "--seeds", "2", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("  ")[0] for line in lines if line.startswith("report.html")] == ["report.html: episodes 1/2",
                                                                                          "report.html: episodes 2/2"]
