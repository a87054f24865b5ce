"""The offline evaluator on corrupt and hostile data: every kind of damage to one
episode's files becomes that episode's error row naming the file (or, where the data
is still readable, an ordinary verdict), the other episode is judged as usual, the
batch writes its CSV and nothing is read outside the dataset and traces folders.

The data: two identical episodes, ``ok`` and ``bad``, whose golden path taps "Shop",
types "shoes" and reaches an order screen checked by its activity, its title and a
text-less badge (compared by its screenshot patch), so that every file of the last
step is read. Each case damages one file of ``bad`` (or of the dataset) and runs
``mobile-gym evaluate``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from screens import HEIGHT, WIDTH, N, button, dump

from mobile_gym.actions import Action
from mobile_gym.cli import main
from mobile_gym.errors import FormatError
from mobile_gym.evaluation.report import (
    EpisodeResult,
    format_table,
    summarize,
    write_episodes_csv,
    write_summary_json,
)
from mobile_gym.evaluation.runner import evaluate_dataset
from mobile_gym.formats import files
from mobile_gym.formats.agentenv import write_trace
from mobile_gym.formats.llamatouch import GroundTruthDataset, write_ground_truth
from mobile_gym.formats.metadata import TaskMetadata, write_metadata
from mobile_gym.matcher import Matcher
from mobile_gym.matcher.annotation import Keyword, Primitive
from mobile_gym.trace import Trace, UIState
from mobile_gym.ui.components import component_list
from mobile_gym.ui.hierarchy import MAX_DEPTH, ViewHierarchy

PKG = "com.example.shop"
HOME_XML = dump(N(text="Welcome", bounds=(100, 50, 980, 150)), button("Shop", (100, 200, 500, 300), f"{PKG}:id/shop"))
SEARCH_XML = dump(N("android.widget.EditText", "Search", f"{PKG}:id/q", bounds=(50, 100, 1030, 220),
                    flags={"clickable": True}))
GOAL_XML = dump(N(text="Order placed", bounds=(100, 50, 980, 150)),
                N("android.widget.ImageView", rid=f"{PKG}:id/badge", bounds=(100, 300, 300, 500)))
EPISODES = {"ok": "general/trace_0", "bad": "general/trace_1"}
GOAL = 2  # the last screen


def goal_image() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), (250, 250, 250))
    ImageDraw.Draw(image).ellipse((120, 320, 280, 480), fill=(200, 30, 30))
    return image


def golden_path() -> Trace:
    steps = [
        (HOME_XML, Image.new("RGB", (WIDTH, HEIGHT), (200, 200, 200)), ".Home", Action.click(0.28, 0.104)),
        (SEARCH_XML, Image.new("RGB", (WIDTH, HEIGHT), (240, 240, 240)), ".Search", Action.type_text("shoes")),
        (GOAL_XML, goal_image(), ".Order", Action.complete()),
    ]
    return Trace.from_states([
        UIState(xml=xml, screenshot=image, activity=PKG + "/" + activity, action=action, screen_size=(WIDTH, HEIGHT))
        for xml, image, activity, action in steps
    ])


def index_of(xml: str, **attrs) -> int:
    return next(c.id for c in component_list(ViewHierarchy(xml)) if all(getattr(c, k) == v for k, v in attrs.items()))


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """``dataset/`` (with its metadata TSV), ``traces/`` and an empty ``outside/``."""
    base = tmp_path_factory.mktemp("hostile")
    annotations = {
        0: [Primitive(Keyword.CLICK, str(index_of(HOME_XML, text="Shop")))],
        1: [Primitive(Keyword.TYPE, "shoes")],
        GOAL: [
            Primitive(Keyword.ACTIVITY, "1"),
            Primitive(Keyword.EXACT, str(index_of(GOAL_XML, text="Order placed"))),
            Primitive(Keyword.EXACT, str(index_of(GOAL_XML, resource_id=f"{PKG}:id/badge"))),
        ],
    }
    rows = []
    for episode, folder in EPISODES.items():
        write_ground_truth(base / "dataset" / folder, golden_path(), annotations, episode=episode,
                           instruction="Buy shoes")
        write_trace(base / "traces" / episode, golden_path())
        rows.append(TaskMetadata(episode, "general", folder, "Buy shoes", 3, "Shop"))
    write_metadata(base / "dataset" / "llamatouch_task_metadata.tsv", rows)
    (base / "outside").mkdir()
    return base


@pytest.fixture
def world(template, tmp_path) -> Path:
    shutil.copytree(template, tmp_path, dirs_exist_ok=True, symlinks=True)
    return tmp_path


@pytest.fixture
def watchdog():
    """Turns a hang (a FIFO read without a writer) into a failure instead of a stuck suite."""
    def hung(signum, frame):
        raise TimeoutError("the evaluator hung")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def evaluate(base: Path, *extra: str) -> tuple[dict[str, dict], dict]:
    out = base / "out"
    code = main(["evaluate", "--dataset", str(base / "dataset"), "--traces", str(base / "traces"),
                 "--out", str(out), *extra])
    assert code == 0
    with (out / "episodes.csv").open(encoding="utf-8", newline="") as f:
        rows = {r["episode"]: r for r in csv.DictReader(f)}
    return rows, json.loads((out / "summary.json").read_text(encoding="utf-8"))


# -- the damage ---------------------------------------------------------------------------
def png_header(width: int, height: int) -> bytes:
    """A PNG that claims `width` x `height` pixels (its one IDAT holds almost nothing)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\0" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


def encoded(image: Image.Image, **save) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, **save)
    return buffer.getvalue()


def write(data: bytes | str):
    def damage(path: Path, base: Path) -> None:
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return damage


def edit(old: str | bytes, new: str | bytes):
    def damage(path: Path, base: Path) -> None:
        data = path.read_bytes()
        old_, new_ = (s.encode("utf-8") if isinstance(s, str) else s for s in (old, new))
        assert old_ in data
        path.write_bytes(data.replace(old_, new_))
    return damage


def set_xpaths(value):
    """Every xpath of a component list set to `value`."""
    def damage(path: Path, base: Path) -> None:
        components = json.loads(path.read_text(encoding="utf-8"))
        for component in components:
            if "xpath" in component:
                component["xpath"] = value
        path.write_text(json.dumps(components), encoding="utf-8")
    return damage


def truncate(fraction: float):
    def damage(path: Path, base: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: int(len(data) * fraction)])
    return damage


def grow_to(size: int):
    """A sparse file of `size` bytes: too big, yet costs no disk or time."""
    def damage(path: Path, base: Path) -> None:
        with path.open("r+b") as f:
            f.truncate(size)
    return damage


def fifo(path: Path, base: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def unix_socket(path: Path, base: Path) -> None:
    path.unlink()
    cwd = os.getcwd()
    os.chdir(path.parent)  # a socket's address is limited to 108 bytes: bind its name alone
    try:
        with socket.socket(socket.AF_UNIX) as listener:
            listener.bind(path.name)  # the socket file stays after close
    finally:
        os.chdir(cwd)


def directory(path: Path, base: Path) -> None:
    path.unlink()
    path.mkdir()


def link_out(path: Path, base: Path) -> None:
    """A symlink to an intact copy outside the roots: read, it would be judged a success."""
    copy = base / "outside" / path.name
    shutil.copyfile(path, copy)
    path.unlink()
    path.symlink_to(copy)


def dangling(path: Path, base: Path) -> None:
    path.unlink()
    path.symlink_to(path.parent / "nowhere")


def loop(path: Path, base: Path) -> None:
    path.unlink()
    path.symlink_to(path)


def deep_xml(levels: int) -> str:
    node = '<node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">'
    return f'<hierarchy rotation="0">{node * levels}{"</node>" * levels}</hierarchy>'


def goal_image_as(**save) -> bytes:
    return encoded(goal_image().convert(save.pop("mode", "RGB")), **save)


TRACE = "traces/bad/captured_data"
GT = "dataset/general/trace_1"
XML, PNG, ACT = f"{TRACE}/xml/2.xml", f"{TRACE}/screenshot/2.png", f"{TRACE}/activity/2.activity"
BILLION_LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE h [<!ENTITY a "aaaaaaaaaa">'
    + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">' for p, c in zip("abcdefgh", "bcdefghi"))
    + ']><hierarchy rotation="0"><node class="android.widget.TextView" text="&i;" bounds="[0,0][1,1]">&i;</node>'
    + "</hierarchy>"
)

#: (file damaged, damage, outcome): a regex its error must match, or "success" /
#: "failure" for data that is still readable and judged.
CASES = {
    # the four that aborted a batch
    "rotation-sideways": (XML, edit('rotation="0"', 'rotation="sideways"'), "rotation must be a number"),
    "nesting-1500-deep": (XML, write(deep_xml(1500)), f"nested deeper than {MAX_DEPTH} levels"),
    "png-claims-60000x60000": (PNG, write(png_header(60000, 60000)), "3600000000 pixels"),
    "xml-is-a-fifo": (XML, fifo, r"named pipe \(FIFO\), not a regular file"),
    # kinds of file
    "png-is-a-fifo": (PNG, fifo, "named pipe"),
    "action-is-a-fifo": (f"{TRACE}/action/0.action", fifo, "named pipe"),
    "activity-is-a-fifo": (ACT, fifo, "named pipe"),
    "ess-is-a-fifo": (f"{GT}/2.ess", fifo, "named pipe"),
    "reference-xml-is-a-fifo": (f"{GT}/2.xml", fifo, "success"),  # never read: its .json is
    "reference-png-claims-60000x60000": (f"{GT}/2.png", write(png_header(60000, 60000)), "3600000000 pixels"),
    "json-is-a-fifo": (f"{GT}/2.json", fifo, "named pipe"),
    "instruction-is-a-fifo": (f"{GT}/instruction.txt", fifo, "named pipe"),
    "xml-is-a-socket": (XML, unix_socket, "is a socket, not a regular file"),
    "xml-is-a-directory": (XML, directory, "is a directory"),
    "png-is-a-directory": (PNG, directory, "is a directory"),
    "events-is-a-directory": (f"{GT}/eventStructs.txt", directory, "is a directory"),
    "xml-dangling-symlink": (XML, dangling, "view hierarchy is missing"),
    "xml-symlink-loop": (XML, loop, "cannot resolve symlink"),
    # size limits, checked before reading
    "xml-over-the-limit": (XML, grow_to(files.MAX_DUMP_BYTES + 1), "view hierarchy is 8,388,609 bytes; the limit is 8 MiB"),
    "png-over-the-limit": (PNG, grow_to(files.MAX_IMAGE_BYTES + 1), "the limit is 64 MiB"),
    "json-over-the-limit": (f"{GT}/2.json", grow_to(files.MAX_JSON_BYTES + 1), "the limit is 8 MiB"),
    "ess-over-the-limit": (f"{GT}/2.ess", grow_to(files.MAX_TEXT_BYTES + 1), "annotation is .*the limit"),
    "activity-over-the-limit": (ACT, grow_to(files.MAX_TEXT_BYTES + 1), "activity file is .*the limit"),
    "png-too-many-pixels": (PNG, write(png_header(5000, 5000)), "claims 5000x5000 pixels"),
    # truncated, empty, binary
    "xml-empty": (XML, write(b""), "no XML content"),
    "xml-binary": (XML, write(bytes(range(256)) * 8), "no XML content|unparseable|no usable nodes"),
    "xml-truncated-in-the-header": (XML, truncate(0.1), "no usable nodes|unparseable"),
    "png-empty": (PNG, write(b""), "not a readable"),
    "png-truncated": (PNG, truncate(0.5), "not a readable"),
    "png-random-bytes": (PNG, write(random.Random(0).randbytes(4096)), "not a readable"),
    "png-is-a-bmp": (PNG, write(goal_image_as(format="BMP")), "not a readable PNG or JPEG"),
    "json-truncated": (f"{GT}/2.json", truncate(0.5), "component list is not valid JSON"),
    "json-nested-100000-deep": (f"{GT}/2.json", write("[" * 100_000 + "]" * 100_000), "RecursionError"),
    "json-5000-digit-number": (f"{GT}/2.json", write("[" + "9" * 5000 + "]"), "not valid JSON.*digits"),
    "json-invalid-utf8": (f"{GT}/2.json", write(b'[{"id": 0, "text": "\xff"}]'), "not valid JSON.*utf-8"),
    "json-bounds-not-numbers": (f"{GT}/2.json", edit("[100,300][300,500]", "[a,b][c,d]"), "bad component list"),
    "json-xpath-not-a-string": (f"{GT}/0.json", set_xpaths([1, 2]), "entry 1: xpath must be a string, got list"),
    "events-binary": (f"{GT}/eventStructs.txt", write(b"\x00\xff\xfe" * 100), "not UTF-8"),
    "action-empty": (f"{TRACE}/action/0.action", write(b""), "corrupt action line"),
    "action-nan": (f"{TRACE}/action/0.action", write("CLICK|[nan, 0.5]|NULL|1080|2400"), "corrupt action line"),
    # encodings
    "ess-invalid-utf8": (f"{GT}/2.ess", write(b"exact<\xff\xfe>"), "annotation is not UTF-8"),
    "activity-invalid-utf8": (ACT, write(b"com.example.shop/.Or\xffder"), "activity file is not UTF-8"),
    "instruction-latin1": (f"{GT}/instruction.txt", write("bad\nAchète".encode("latin-1")), "not UTF-8"),
    "xml-invalid-utf8-in-text": (XML, edit("Order placed", b"Order \xff placed"), "failure"),
    "xml-utf16": (XML, lambda p, _: p.write_bytes(p.read_text().replace("UTF-8", "UTF-16").encode("utf-16")), "success"),
    "xml-utf8-bom": (XML, lambda p, _: p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes()), "success"),
    "xml-nul-bytes": (XML, edit("Order placed", "Order\x00placed"), "failure"),
    # entities: never expanded, never fetched
    "xml-billion-laughs": (XML, write(BILLION_LAUGHS), "no usable nodes"),
    # odd values inside a readable dump
    "bounds-huge": (XML, edit("[100,300][300,500]", "[100,300][99999999999999999999999,500]"), "failure"),
    "bounds-5000-digits": (XML, edit("[100,300][300,500]", f"[100,300][{'9' * 5000},500]"), "failure"),
    "bounds-negative": (XML, edit("[100,300][300,500]", "[-300,-500][-100,-300]"), "failure"),
    "bounds-not-numbers": (XML, edit("[100,300][300,500]", "[a,b][c,d]"), "failure"),
    "attributes-missing": (XML, edit(f'resource-id="{PKG}:id/badge"', ""), "failure"),
    "flags-not-booleans": (XML, edit('enabled="true"', 'enabled="maybe"'), "failure"),
    "png-one-pixel": (PNG, write(encoded(Image.new("RGB", (1, 1)), format="PNG")), "failure"),
    "png-palette": (PNG, write(goal_image_as(mode="P", format="PNG")), "success"),
    "png-16-bit-grey": (PNG, write(goal_image_as(mode="I;16", format="PNG")), "failure"),
    "png-as-jpeg": (PNG, write(goal_image_as(format="JPEG", quality=95)), "success"),
    # symlinks and paths leading out of the roots (the copy outside is intact)
    "xml-symlink-out-of-traces": (XML, link_out, "outside"),
    "png-symlink-out-of-traces": (PNG, link_out, "outside"),
    "ess-symlink-out-of-dataset": (f"{GT}/2.ess", link_out, "outside"),
}


@pytest.mark.parametrize("target, damage, outcome", CASES.values(), ids=CASES.keys())
def test_one_damaged_episode_is_one_error_row_and_the_batch_goes_on(world, watchdog, target, damage, outcome):
    damage(world / target, world)
    rows, summary = evaluate(world)
    assert rows["ok"]["success"] == "True" and rows["ok"]["error"] == ""
    bad = rows["bad"]
    if outcome in ("success", "failure"):
        assert bad["error"] == "" and bad["success"] == str(outcome == "success"), bad
        return
    assert bad["success"] == "False" and re.search(outcome, bad["error"]), bad["error"]
    assert target in bad["error"], "the error names the file"
    assert (summary["essential"]["errors"], summary["essential"]["completed"]) == (1, 1)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_an_unreadable_file_is_an_error_row(world):
    (world / XML).chmod(0)
    rows, _ = evaluate(world)
    assert "cannot read view hierarchy (Permission denied)" in rows["bad"]["error"]


@pytest.mark.parametrize("table", ["dataset/llamatouch_task_metadata.tsv", "labels.csv"])
def test_a_metadata_or_labels_fifo_stops_the_command_with_one_line(world, watchdog, capsys, table):
    os.mkfifo(world / table) if table == "labels.csv" else fifo(world / table, world)
    extra = ["--labels", str(world / table)] if table == "labels.csv" else []
    code = main(["evaluate", "--dataset", str(world / "dataset"), "--traces", str(world / "traces"),
                 "--out", str(world / "out"), *extra])
    err = capsys.readouterr().err
    assert code == 2 and f"{Path(table).name}: " in err and "named pipe" in err and len(err.splitlines()) == 1


def test_scanning_a_dataset_takes_any_trace_folder_number(world):
    """``trace_²`` passes str.isdigit() but not int()."""
    (world / "dataset" / "llamatouch_task_metadata.tsv").unlink()
    (world / GT).rename(world / "dataset" / "general" / "trace_\u00b2")
    assert GroundTruthDataset(world / "dataset").episodes() == ["bad", "ok"]  # not a number: first


# -- nothing is read outside the roots ------------------------------------------------------
def set_metadata(base: Path, episode: str, path: str) -> None:
    write_metadata(base / "dataset" / "llamatouch_task_metadata.tsv", [
        TaskMetadata("ok", "general", EPISODES["ok"], "Buy shoes", 3, "Shop"),
        TaskMetadata(episode, "general", path, "Buy shoes", 3, "Shop"),
    ])


def move_out(base: Path, folder: str) -> Path:
    """Move a folder of the dataset outside it, intact; returns where it went."""
    target = base / "outside" / "trace"
    shutil.move(base / folder, target)
    return target


@pytest.mark.parametrize("where", ["relative", "absolute", "symlink"])
def test_a_metadata_path_out_of_the_dataset_is_refused(world, where):
    outside = move_out(world, GT)
    if where == "relative":
        set_metadata(world, "bad", "../outside/trace")
    elif where == "absolute":
        set_metadata(world, "bad", str(outside))
    else:
        (world / GT).symlink_to(outside, target_is_directory=True)
    rows, _ = evaluate(world)
    assert rows["bad"]["success"] == "False"
    assert re.search("trace folder of episode bad leads to .*outside.*; refusing to read it", rows["bad"]["error"])
    assert rows["ok"]["success"] == "True"


def test_an_episode_id_that_is_a_path_is_refused(world):
    """The id names the trace folder: ``../victim`` would judge a trace outside --traces."""
    victim = world / "victim"
    shutil.move(world / "traces" / "bad", victim)
    instruction = world / GT / "instruction.txt"
    instruction.write_text(instruction.read_text(encoding="utf-8").replace("bad", "../victim", 1), encoding="utf-8")
    set_metadata(world, "../victim", EPISODES["bad"])
    rows, _ = evaluate(world)
    assert rows["../victim"]["success"] == "False"
    assert "episode id '../victim' is not a folder name" in rows["../victim"]["error"]


def test_a_trace_folder_linked_out_of_the_traces_root_is_refused(world):
    shutil.move(world / "traces" / "bad", world / "outside" / "bad")
    (world / "traces" / "bad").symlink_to(world / "outside" / "bad", target_is_directory=True)
    rows, _ = evaluate(world)
    assert re.search("trace folder leads to .*outside", rows["bad"]["error"])


def test_scanning_a_dataset_refuses_a_category_linked_out_of_it(world, capsys):
    (world / "dataset" / "llamatouch_task_metadata.tsv").unlink()
    move_out(world, "dataset/general")
    (world / "dataset" / "general").symlink_to(world / "outside" / "trace", target_is_directory=True)
    code = main(["evaluate", "--dataset", str(world / "dataset"), "--traces", str(world / "traces"),
                 "--out", str(world / "out")])
    assert code == 2 and "instruction file leads to" in capsys.readouterr().err


def test_dump_entities_are_never_expanded_nor_fetched(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    with socket.socket() as server:  # an external DTD or entity must not be fetched from here
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.setblocking(False)
        url = f"http://127.0.0.1:{server.getsockname()[1]}/x"
        xml = (
            f'<?xml version="1.0"?><!DOCTYPE hierarchy SYSTEM "{url}.dtd" [<!ENTITY file SYSTEM "{secret.as_uri()}">'
            f'<!ENTITY web SYSTEM "{url}">]><hierarchy rotation="0">'
            '<node class="android.widget.TextView" text="a" bounds="[0,0][10,10]">&file;&web;</node></hierarchy>'
        )
        hierarchy = ViewHierarchy(xml)
        with pytest.raises(BlockingIOError):
            server.accept()
    assert len(hierarchy) == 1 and "TOP-SECRET" not in hierarchy.to_xml()
    assert hierarchy.xpath("//*[contains(., 'TOP')]") == []


def test_a_device_is_never_opened():
    with pytest.raises(FormatError, match="view hierarchy is a character device, not a regular file"):
        ViewHierarchy.from_file("/dev/zero")


def test_a_file_that_reports_no_size_is_read_only_up_to_the_limit():
    """``/proc`` files say they are empty; ``pagemap`` holds gigabytes."""
    pagemap = Path("/proc/self/pagemap")
    if not pagemap.exists():
        pytest.skip("needs Linux /proc")
    with pytest.raises(FormatError, match="larger than the limit of 8 MiB"):
        ViewHierarchy.from_file(pagemap)


# -- unforeseen errors ----------------------------------------------------------------------
class BuggyMatcher(Matcher):
    """A matcher with a bug that shows on one episode only (or a user interrupting)."""

    def __init__(self, error: BaseException):
        super().__init__()
        self.error = error

    def check(self, checkpoint, state, **kwargs):
        if state.xml_path is not None and "bad" in state.xml_path.parts:
            raise self.error
        return super().check(checkpoint, state, **kwargs)


def test_an_unexpected_exception_is_that_episodes_error_row(template):
    rows = evaluate_dataset(GroundTruthDataset(template / "dataset"), template / "traces",
                            evaluators=("essential", "lcs"), matcher=BuggyMatcher(ZeroDivisionError("oops")))
    verdicts = {(r.episode, r.evaluator): r for r in rows}
    assert verdicts["bad", "essential"].error == "unexpected ZeroDivisionError: oops"
    assert not verdicts["bad", "essential"].predicted
    assert verdicts["bad", "lcs"].error is None and verdicts["bad", "lcs"].success
    assert verdicts["ok", "essential"].success and verdicts["ok", "essential"].error is None


def test_keyboard_interrupt_stops_the_batch(template):
    with pytest.raises(KeyboardInterrupt):
        evaluate_dataset(GroundTruthDataset(template / "dataset"), template / "traces",
                         matcher=BuggyMatcher(KeyboardInterrupt()))


# -- the writers take any text --------------------------------------------------------------
def test_reports_survive_undecodable_names_and_control_characters(world, capsys, caplog):
    """An argument with bytes that are not UTF-8 (a lone surrogate in Python) and a
    category with a NUL and a terminal escape reach the CSV, the JSON, the table and the
    log."""
    odd = os.fsdecode(b"caf\xe9")
    write_metadata(world / "dataset" / "llamatouch_task_metadata.tsv", [
        TaskMetadata("ok", "gen\x00\x1b[31meral", EPISODES["ok"], "Buy shoes", 3, "Shop"),
        TaskMetadata("bad", "general", EPISODES["bad"], "Buy shoes", 3, "Shop"),
    ])
    rows, summary = evaluate(world, "--episodes", "ok", odd)
    assert rows["caf\\udce9"]["success"] == "False" and "'caf\\udce9' is not in" in rows["caf\\udce9"]["error"]
    assert rows["ok"]["category"] == "gen\\x00\\x1b[31meral" and rows["ok"]["success"] == "True"
    assert set(summary["essential"]["per_category"]) == {"gen\x00\x1b[31meral", "(none)"}
    printed = capsys.readouterr().out
    assert "  gen\\x00\\x1b[31meral" in printed and "\x1b" not in printed
    assert "episode caf\\udce9" in caplog.text
    caplog.text.encode("utf-8")  # a UTF-8 log file takes it


def test_writers_escape_lone_surrogates_and_nul(tmp_path):
    text = "a\udcff\x00b\x1b[2J"
    rows = [EpisodeResult(text, "essential", False, error=text, category=text, explanation=text)]
    write_episodes_csv(tmp_path / "episodes.csv", rows)
    write_summary_json(tmp_path / "summary.json", summarize(rows))
    with (tmp_path / "episodes.csv").open(encoding="utf-8", newline="") as f:
        row = next(csv.DictReader(f))
    assert row["error"] == row["episode"] == "a\\udcff\\x00b\\x1b[2J"
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert list(summary["essential"]["per_category"]) == [text]
    table = format_table(summarize(rows))
    assert "a\\udcff\\x00b\\x1b[2J" in table
    table.encode("utf-8")  # printable on any UTF-8 terminal
