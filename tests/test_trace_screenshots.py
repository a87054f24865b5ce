"""Traces saved by the runner are what AgentEnv saves: screenshots at the device's
resolution (LlamaTouch's evaluator places a tap by the screenshot's size), action lines
with the device's size, and each screen's droidbot JSON where AgentEnv and LlamaTouch
look for it. ``trace_screenshots="observation"`` keeps the small ones instead."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from test_droidbot import assert_views_follow_the_dump
from test_html_report import shots, shown

from mobile_gym.cli import main
from mobile_gym.env import resolve_task, shared_matcher
from mobile_gym.errors import ConfigError
from mobile_gym.formats.agentenv import read_trace
from mobile_gym.formats.droidbot import load_views
from mobile_gym.matcher import evaluate_trace
from mobile_gym.runner import Job, run_batch
from mobile_gym.runner.batch import TRACES_DIR, trace_dir_name
from mobile_gym.wrappers.record_trace import TRACE_SCREENSHOTS
from mobile_gym.runner.html_report import REPORT_FILE, write_html_report
from mobile_gym.runner.thumbnails import THUMB_WIDTH, THUMBNAILS_DIR
from mobile_gym.trace import UIState, encode_png

TASK = "settings-turn-off-wifi"  # its last checkpoint is a switch: judged by its looks too
DEVICE, OBSERVATION = (1080, 2400), (270, 600)  # pixel-6 and the env's default observation


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """The oracle's episode, seed 0, with each kind of trace screenshots: mode -> trace."""
    folders = {}
    for mode in TRACE_SCREENSHOTS:
        out = tmp_path_factory.mktemp(mode)
        (record,) = run_batch([Job(TASK, "oracle", 0)], out, save_traces=True, trace_screenshots=mode)
        assert record["error"] is None and record["success"]
        write_html_report(out, [record])
        folders[mode] = out / TRACES_DIR / trace_dir_name(TASK, "oracle", 0) / "captured_data"
    return folders


def screenshots(captured: Path) -> list[Image.Image]:
    shots = sorted((captured / "screenshot").glob("*.png"), key=lambda p: int(p.stem))
    return [Image.open(p).convert("RGB") for p in shots]


def test_runner_traces_hold_device_resolution_screenshots_of_each_step(runs) -> None:
    device, small = screenshots(runs["device"]), screenshots(runs["observation"])
    assert len(device) == len(small) > 2
    assert {im.size for im in device} == {DEVICE} and {im.size for im in small} == {OBSERVATION}
    # the same screens, step by step: shrunk, each device screenshot is closest to its own
    # step's observation (text drawn at another size differs a little; other screens more)
    observed = [np.asarray(im, dtype=float) for im in small]
    for i, big in enumerate(device):
        shrunk = np.asarray(big.resize(OBSERVATION, Image.Resampling.BOX), dtype=float)
        distances = [np.abs(shrunk - o).mean() for o in observed]
        assert int(np.argmin(distances)) == i and distances[i] < 8, distances


def test_action_lines_carry_the_device_size_with_either_screenshots(runs) -> None:
    for captured in runs.values():
        lines = [p.read_text(encoding="utf-8") for p in sorted((captured / "action").glob("*.action"))]
        assert lines and all(line.endswith(f"|{DEVICE[0]}|{DEVICE[1]}") for line in lines)
        # read back, every screen (the last too, which has no action) is the device's size
        assert {state.screen_size for state in read_trace(captured)} == {DEVICE}


def test_runner_traces_hold_droidbot_views_for_agentenv_and_llamatouch(runs) -> None:
    captured = runs["device"]
    screens = len(list((captured / "screenshot").glob("*.png")))
    for i in range(screens):
        vh, evaluator = captured / "vh" / f"{i}.vh", captured / "view_hierarchy" / f"{i}.json"
        assert vh.read_bytes() == evaluator.read_bytes()
        assert_views_follow_the_dump(load_views(vh), (captured / "xml" / f"{i}.xml").read_bytes())


def test_our_evaluator_judges_either_trace_as_the_run_did(runs) -> None:
    annotation = resolve_task(TASK).annotation
    for captured in runs.values():
        result = evaluate_trace(annotation, read_trace(captured), shared_matcher())
        assert result.success, "\n".join(result.explanations)


def test_the_report_shows_the_same_thumbnails_from_either_trace(runs) -> None:
    import lxml.html

    pages = {mode: lxml.html.fromstring((captured.parents[2] / REPORT_FILE).read_text(encoding="utf-8"))
             for mode, captured in runs.items()}
    counts = {mode: len(shots(page)) for mode, page in pages.items()}
    assert counts["device"] == counts["observation"] == len(list((runs["device"] / "screenshot").glob("*.png")))
    for page in pages.values():
        for shot in shots(page):
            with Image.open(io.BytesIO(shown(page, shot))) as thumb:
                assert thumb.width == THUMB_WIDTH and f"width:{THUMB_WIDTH}px" in shot.get("style")


def test_the_worker_writes_a_thumbnail_per_step_beside_either_trace(runs) -> None:
    for captured in runs.values():
        made = sorted((captured.parent / THUMBNAILS_DIR).iterdir(), key=lambda p: int(p.stem))
        assert [p.name for p in made] == [f"{i}.jpg" for i in range(len(read_trace(captured)))]
        for path in made:
            with Image.open(path) as thumb:
                assert thumb.format == "JPEG" and thumb.size == (THUMB_WIDTH, 300)
        assert THUMBNAILS_DIR not in {p.name for p in captured.iterdir()}  # outside what AgentEnv readers read


def test_without_an_observed_screenshot_the_report_makes_the_thumbnails(tmp_path) -> None:
    (record,) = run_batch([Job(TASK, "oracle", 0)], tmp_path, save_traces=True, env_kwargs={"observation": "xml"})
    folder = tmp_path / TRACES_DIR / trace_dir_name(TASK, "oracle", 0)
    assert record["success"] and not (folder / THUMBNAILS_DIR).exists()
    import lxml.html

    page = lxml.html.fromstring(write_html_report(tmp_path, [record]).read_text(encoding="utf-8"))
    assert len(shots(page)) == len(read_trace(folder))


def test_a_runs_identical_trace_files_are_stored_once(tmp_path) -> None:
    """Both seeds' traces (and each trace's own repeats) share one file per content, as
    hard links: every reader sees ordinary files, and the run judges the same."""
    jobs = [Job(TASK, "oracle", 0), Job(TASK, "oracle", 1), Job("settings-open", "random", 0)]
    records = run_batch(jobs, tmp_path, save_traces=True, trace_screenshots="observation", workers=2)
    files = [p for p in (tmp_path / TRACES_DIR).rglob("*") if p.is_file()]
    inodes: dict[bytes, set[int]] = {}
    for path in files:
        inodes.setdefault(path.read_bytes(), set()).add(path.stat().st_ino)
    assert all(len(kept) == 1 for kept in inodes.values())  # one file per content
    assert len({p.stat().st_ino for p in files}) == len(inodes) < len(files) * 0.6  # repeats are common
    assert [p.name for p in (tmp_path / TRACES_DIR).iterdir()] and not (tmp_path / TRACES_DIR / ".partial").exists()
    for record in records:
        captured = tmp_path / TRACES_DIR / trace_dir_name(record["task"], record["agent"], record["seed"])
        result = evaluate_trace(resolve_task(record["task"]).annotation, read_trace(captured), shared_matcher())
        assert result.success == record["success"] and result.progress == record["progress"]


def test_a_bad_trace_screenshots_value_stops_the_run_before_it_starts(tmp_path) -> None:
    with pytest.raises(ConfigError, match="screenshots must be one of device, observation"):
        run_batch([Job(TASK, "oracle", 0)], tmp_path, save_traces=True, trace_screenshots="full")
    assert not (tmp_path / "episodes.jsonl").exists()


def test_the_run_command_takes_trace_screenshots(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    args = ["run", "--agent", "oracle", "--tasks", "settings-open", "--save-traces", "--out", str(out)]
    assert main(args + ["--trace-screenshots", "observation"]) == 0
    (folder,) = (out / TRACES_DIR).iterdir()
    assert {im.size for im in screenshots(folder / "captured_data")} == {OBSERVATION}
    with pytest.raises(SystemExit) as info:
        main(args + ["--trace-screenshots", "huge"])
    assert info.value.code == 2 and "invalid choice: 'huge'" in capsys.readouterr().err


# -- UIState's drawn-on-demand screenshots -----------------------------------------------
class Painter:
    """Draws a screenshot and counts how often it was asked to."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> Image.Image:
        self.calls += 1
        return Image.new("RGB", (40, 80), (200, 10, 10))


def test_a_drawn_screenshot_is_drawn_for_each_write_and_kept_once_read(tmp_path) -> None:
    painter = Painter()
    state = UIState(xml="<hierarchy/>", screenshot_source=painter, screen_size=(40, 80))
    assert painter.calls == 0  # nothing drawn until needed
    state.save_screenshot(tmp_path / "a.png", compress_level=1)
    state.save_screenshot(tmp_path / "b.png")
    assert painter.calls == 2  # a write does not keep the picture (a trace of them would fill memory)
    with Image.open(tmp_path / "a.png") as a, Image.open(tmp_path / "b.png") as b:
        assert a.size == b.size == (40, 80) and a.tobytes() == b.tobytes()
    assert state.image.getpixel((0, 0)) == (200, 10, 10) and state.screenshot.shape == (80, 40, 3)
    state.image  # noqa: B018 - read again: kept
    assert painter.calls == 3


def test_a_state_with_a_drawn_screenshot_pickles_with_its_picture() -> None:
    painter = Painter()
    state = UIState(xml="<hierarchy/>", screenshot_source=painter)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.image.tobytes() == painter().tobytes() and painter.calls == 2


@pytest.mark.parametrize("level", [0, 1, 6, 9])
@pytest.mark.parametrize("shape", [(1, 1, 3), (7, 5, 3), (61, 33, 3)])
def test_encode_png_writes_what_a_png_reader_reads_back(shape, level) -> None:
    pixels = np.random.default_rng(sum(shape) + level).integers(0, 256, size=shape, dtype=np.uint8)
    with Image.open(io.BytesIO(encode_png(pixels, level))) as image:
        assert image.format == "PNG" and image.mode == "RGB" and image.size == (shape[1], shape[0])
        assert np.array_equal(np.asarray(image), pixels)


@pytest.mark.parametrize(("pixels", "level", "problem"), [
    (np.zeros((4, 4, 3), np.uint8), 10, "compress_level must be a zlib level"),
    (np.zeros((4, 4, 3), np.uint8), True, "compress_level must be a zlib level"),
    (np.zeros((4, 4, 4), np.uint8), 1, r"uint8 \(H, W, 3\) array; got uint8 \(4, 4, 4\)"),
    (np.zeros((4, 4, 3), np.float32), 1, "got float32"),
    (np.zeros((0, 4, 3), np.uint8), 1, r"\(0, 4, 3\)"),
])
def test_encode_png_refuses_what_is_no_rgb_image(pixels, level, problem) -> None:
    with pytest.raises(ConfigError, match=problem):
        encode_png(pixels, level)
