"""On-disk formats: the task metadata TSV, LlamaTouch ground truth (A), AgentEnv traces (B)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from screens import DIALOG_XML, FIXTURES, METADATA_TSV, N, button, dump, screenshot_file

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import AnnotationError, FormatError, MobileGymError, UnknownEpisodeError
from mobile_gym.formats.agentenv import iter_traces, read_trace, write_trace
from mobile_gym.formats.droidbot import droidbot_views, load_views
from mobile_gym.formats.llamatouch import (
    GroundTruthDataset,
    llamatouch_app_name,
    load_ground_truth,
    short_activity,
    write_ground_truth,
    xpath_literal,
)
from mobile_gym.formats.metadata import TaskMetadata, read_metadata, write_metadata
from mobile_gym.matcher import Matcher, evaluate_trace
from mobile_gym.matcher.annotation import Keyword, parse_ess
from mobile_gym.matcher.apps import AppRegistry
from mobile_gym.trace import Trace, UIState, normalize_activity
from mobile_gym.ui.components import component_list
from mobile_gym.ui.hierarchy import FLAG_NAMES, ViewHierarchy

W, H = 1080, 1918  # the device the real dump was taken on
ACTIVITY = "com.google.android.apps.maps/com.google.android.maps.MapsActivity"
DONE_XPATH = '//*[@resource-id="com.google.android.apps.maps:id/dialog_positive_button"]'


def px(x: int, y: int) -> tuple[float, float]:
    """Normalized coordinates of a device pixel (what eventStructs.txt can represent)."""
    return (x / W, y / H)


def image(seed: int) -> np.ndarray:
    """A small screenshot (AgentEnv traces may keep observation-size ones)."""
    return np.random.default_rng(seed).integers(0, 256, size=(48, 27, 3), dtype=np.uint8)


def screen(seed: int, size: tuple[int, int] = (W, H)) -> Path:
    """A screenshot at the screen's resolution, as a LlamaTouch dataset keeps them."""
    return screenshot_file(size, seed * 37 % 256)


def make_trace(actions: list[Action | None], *, installed: frozenset[str] | None = None, shot=image) -> Trace:
    xml = DIALOG_XML.read_text(encoding="utf-8")
    states = [
        UIState(
            xml=xml,
            **({"screenshot_path": shot(i)} if shot is screen else {"screenshot": shot(i)}),
            activity=ACTIVITY if i % 2 == 0 else "com.android.vending/.AssetBrowserActivity",
            action=action,
            screen_size=(W, H),
        )
        for i, action in enumerate(actions)
    ]
    return Trace.from_states(states, installed_packages=installed)


# -- metadata --------------------------------------------------------------------------
def test_real_metadata_round_trips_byte_for_byte(tmp_path):
    rows = read_metadata(METADATA_TSV)
    assert len(rows) == 495
    assert {r.category for r in rows.values()} == {"general", "generated", "googleapps", "install", "webshopping"}
    first = next(iter(rows.values()))
    assert first == TaskMetadata("84143002711104077", "general", "general/trace_11", "Open the settings", 4, "Settings")
    assert all(isinstance(e, str) for e in rows)
    out = write_metadata(tmp_path / "copy.tsv", rows.values())
    assert out.read_bytes() == METADATA_TSV.read_bytes()


HEADER = "episode\tcategory\tpath\tdescription\tnsteps\tapp\n"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("1\tgeneral\tgeneral/trace_1\tOpen it\t4\n", "line 2: expected 6"),
        ("1\tgeneral\tgeneral/trace_1\tOpen it\tfour\tSettings\n", "line 2: nsteps"),
        (
            "1\tgeneral\tg/trace_1\tA\t4\tS\n2\tgeneral\tg/trace_2\tB\t3\tS\n1\tgeneral\tg/trace_3\tC\t2\tS",
            "line 4: duplicate episode 1 (first on line 2)",
        ),
    ],
)
def test_bad_metadata_rows_name_file_and_line(tmp_path, body, problem):
    path = tmp_path / "meta.tsv"
    path.write_text(HEADER + body, encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape(problem)) as info:
        read_metadata(path)
    assert info.value.path == path


def test_metadata_header_and_missing_file(tmp_path):
    path = tmp_path / "meta.tsv"
    path.write_text("id\tcategory\n", encoding="utf-8")
    with pytest.raises(FormatError, match="line 1: header"):
        read_metadata(path)
    with pytest.raises(FormatError, match="missing") as info:
        read_metadata(tmp_path / "nope.tsv")
    assert info.value.path == tmp_path / "nope.tsv"


def test_metadata_writer_rejects_tabs(tmp_path):
    row = TaskMetadata("1", "general", "general/trace_1", "a\tb", 1, "App")
    with pytest.raises(FormatError, match="description"):
        write_metadata(tmp_path / "m.tsv", [row])


# -- format B: AgentEnv traces ------------------------------------------------------------
ALL_ACTIONS = [
    Action.click(0.1234567891, 1 / 3),
    Action.swipe(0.5, 0.9, 0.5, 0.1),
    Action.type_text("a|b|c ünïcode 日本語 [1, 2]|NULL"),
    Action.back(),
    Action.home(),
    Action.enter(),
    Action.impossible(),
    Action.type_text(""),
    Action.long_press(0.25, 0.75),
    Action.double_tap(1 / 7, 0.5),
    Action.open_app("Booking.com: Hotels | more"),
    Action.wait(),
    Action.answer("it's \"42\" | so"),
    Action.invalid("tap(the gear)"),
    Action.complete(),
]


def test_agentenv_round_trip(tmp_path):
    installed = frozenset({"com.android.vending", "com.google.android.apps.maps"})
    trace = make_trace(ALL_ACTIONS, installed=installed)
    episode_dir = write_trace(tmp_path / "traces" / "84143002711104077", trace)
    loaded = read_trace(episode_dir)
    assert loaded.episode == "84143002711104077"
    assert loaded.actions == ALL_ACTIONS
    assert {a.action_type for a in loaded.actions} == set(ActionType)
    assert loaded.installed_packages == installed
    for original, state in zip(trace, loaded):
        assert state.activity == normalize_activity(original.activity)
        assert state.xml == original.xml
        assert np.array_equal(state.screenshot, original.screenshot)
        assert state.screen_size == (W, H)
    assert read_trace(episode_dir / "captured_data").actions == ALL_ACTIONS
    assert list(iter_traces(tmp_path / "traces")) == [("84143002711104077", episode_dir)]


def test_agentenv_optional_files(tmp_path):
    trace = make_trace([Action.home(), None])
    episode_dir = write_trace(tmp_path / "ep", trace)
    captured = episode_dir / "captured_data"
    (captured / "action" / "-1.action").write_text("None|None|None", encoding="utf-8")
    (captured / "activity" / "1.activity").unlink()
    (captured / "vh" / "0.vh").write_text("{}", encoding="utf-8")  # our reader does not need the JSON views
    (captured / "view_hierarchy" / "1.json").unlink()
    loaded = read_trace(episode_dir)
    assert loaded.actions == [Action.home(), None]
    assert loaded.states[1].activity is None
    assert loaded.installed_packages is None


def test_agentenv_reads_dumpsys_activity_lines(tmp_path):
    episode_dir = write_trace(tmp_path / "ep", make_trace([None]))
    (episode_dir / "captured_data" / "activity" / "0.activity").write_text(
        "  mCurrentFocus=Window{2f1e0c3 u0 com.android.settings/.Settings}\n", encoding="utf-8"
    )
    assert read_trace(episode_dir).states[0].activity == "com.android.settings/com.android.settings.Settings"


def test_agentenv_corrupt_action_line_names_the_file(tmp_path):
    episode_dir = write_trace(tmp_path / "ep", make_trace([Action.home(), Action.back(), None]))
    bad = episode_dir / "captured_data" / "action" / "1.action"
    bad.write_text("CLICK|[0.5]|NULL|1080|2400\n", encoding="utf-8")
    with pytest.raises(FormatError, match="corrupt action line") as info:
        read_trace(episode_dir)
    assert info.value.path == bad


def test_agentenv_missing_action_before_the_last_screen(tmp_path):
    episode_dir = write_trace(tmp_path / "ep", make_trace([Action.home(), Action.back(), None]))
    missing = episode_dir / "captured_data" / "action" / "0.action"
    missing.unlink()
    with pytest.raises(FormatError, match="action file is missing") as info:
        read_trace(episode_dir)
    assert info.value.path == missing


def test_agentenv_gap_in_screenshot_numbering(tmp_path):
    episode_dir = write_trace(tmp_path / "ep", make_trace([Action.home()] * 3 + [None]))
    gap = episode_dir / "captured_data" / "screenshot" / "2.png"
    gap.unlink()
    with pytest.raises(FormatError, match="screenshot is missing") as info:
        read_trace(episode_dir)
    assert info.value.path == gap


def test_agentenv_missing_last_screenshot_is_noticed(tmp_path):
    episode_dir = write_trace(tmp_path / "ep", make_trace([Action.home(), None]))
    last = episode_dir / "captured_data" / "screenshot" / "1.png"
    last.unlink()
    with pytest.raises(FormatError) as info:
        read_trace(episode_dir)
    assert info.value.path == last


def test_agentenv_not_an_episode_folder(tmp_path):
    with pytest.raises(FormatError, match="captured_data"):
        read_trace(tmp_path)
    with pytest.raises(FormatError, match="does not exist"):
        iter_traces(tmp_path / "nope")


def test_agentenv_refuses_to_write_over_a_trace(tmp_path):
    trace = make_trace([None])
    write_trace(tmp_path / "ep", trace)
    with pytest.raises(FormatError, match="already holds a trace"):
        write_trace(tmp_path / "ep", trace)


# -- format A: LlamaTouch ground truth -------------------------------------------------
GT_ACTIONS = [
    Action.click(*px(540, 1200)),
    Action.swipe(*px(540, 1500), *px(540, 300)),
    Action.type_text("best|buy ü 日本"),
    Action.back(),
    Action.home(),
    Action.enter(),
    Action.complete(),
]
ANNOTATIONS = {
    1: parse_ess("activity<1>|exact<0>|exclude<1>|fuzzy<0>|click<2>"),
    2: parse_ess("fuzzy<-1>|type<best|buy ü 日本>"),
    4: parse_ess(f"click<{DONE_XPATH}>|exact<3>"),
    6: parse_ess("check_install<Microsoft Excel>|fuzzy<-2>|check_uninstall<eBay>"),
}
#: Where the phone draws its keyboard's Enter key: the dialog's dump shows no keyboard.
ENTER_KEY = (0.9, 0.95)


def write_gt(trace_dir: Path, *, episode: str = "84143002711104077", **kwargs) -> Path:
    kwargs.setdefault("enter_key", ENTER_KEY)
    return write_ground_truth(
        trace_dir,
        make_trace(GT_ACTIONS, shot=screen),
        ANNOTATIONS,
        episode=episode,
        instruction="Open the settings",
        **kwargs,
    )


def test_ground_truth_round_trip_with_every_keyword(tmp_path):
    trace_dir = write_gt(tmp_path / "general" / "trace_11")
    annotation = load_ground_truth(trace_dir)
    assert annotation.episode == "84143002711104077"
    assert annotation.instruction == "Open the settings"
    assert annotation.keywords == set(Keyword)
    gt = annotation.ground_truth
    assert gt is not None and len(gt) == len(GT_ACTIONS)
    assert gt.actions == GT_ACTIONS
    assert [c.screen.index for c in annotation.checkpoints] == sorted(ANNOTATIONS)
    expected_components = [c.to_dict() for c in component_list(ViewHierarchy.from_file(DIALOG_XML))]
    for checkpoint in annotation.checkpoints:
        i = checkpoint.screen.index
        assert checkpoint.primitives == (ANNOTATIONS[i] if i != 6 else  # eBay as LlamaTouch's app table names it
                                         parse_ess("check_install<Microsoft Excel>|fuzzy<-2>|check_uninstall<ebay>"))
        assert checkpoint.screen.source == trace_dir / f"{i}.ess"
        assert checkpoint.screen.state is gt[i]
        assert [c.to_dict() for c in checkpoint.screen.components] == expected_components
    assert gt[1].activity == "com.android.vending/com.android.vending.AssetBrowserActivity"
    assert (trace_dir / "1.activity").read_text(encoding="utf-8") == "com.android.vending/.AssetBrowserActivity\n"
    assert (trace_dir / "0.activity").read_text(encoding="utf-8").strip() == ACTIVITY
    assert gt[0].screen_size == (W, H)
    assert (trace_dir / "3.png").read_bytes() == screen(3).read_bytes()
    assert (trace_dir / "6.ess").read_text(encoding="utf-8") == \
        "check_install<Microsoft Excel>|fuzzy<-2>|check_uninstall<ebay>\n"
    assert gt[5].xml == DIALOG_XML.read_text(encoding="utf-8")
    events = (trace_dir / "eventStructs.txt").read_text(encoding="utf-8")
    assert events.splitlines()[0] == "[Click] Screen Resolution (1080, 1918), Click Position (540, 1200)"
    assert not events.endswith("\n")


def test_an_enter_is_written_as_the_tap_on_the_key_where_the_phone_draws_it(tmp_path):
    """LlamaTouch's loader knows no [Enter] line (it fails the whole category): an ENTER on
    a screen without the keyboard is the tap on the key where the phone draws it."""
    lines = (write_gt(tmp_path / "t") / "eventStructs.txt").read_text(encoding="utf-8").splitlines()
    assert GT_ACTIONS[5] == Action.enter() and not any(line.startswith("[Enter]") for line in lines)
    assert lines[5] == "[Click] Screen Resolution (1080, 1918), Click Position (972, 1822) (Enter)"
    with pytest.raises(FormatError, match="screen 5: .*Enter key") as info:
        write_gt(tmp_path / "u", enter_key=None)
    assert info.value.path == tmp_path / "u" / "eventStructs.txt"
    assert not (tmp_path / "u").exists()


def test_screenshots_are_written_at_the_screen_s_resolution_or_not_at_all(tmp_path):
    """A screen's size is read back from its screenshot: a smaller one would be a smaller
    screen, its taps and crops misplaced (LlamaTouch crops by the dump's bounds too)."""
    with pytest.raises(FormatError, match="27x48 pixels for a screen of 1080x1918") as info:
        write_ground_truth(tmp_path / "t", make_trace(GT_ACTIONS), ANNOTATIONS, episode="1", instruction="x",
                           enter_key=ENTER_KEY)
    assert info.value.path == tmp_path / "t" / "0.png"
    assert list((tmp_path / "t").iterdir()) == []


@pytest.mark.parametrize(("app", "name"), [
    ("eBay", "ebay"), ("eBay: The shopping marketplace", "ebay"), ("com.ebay.mobile", "ebay"),
    ("Firefox Browser", "firefox"), ("Duolingo: language lessons", "Duolingo"), ("Excel", "Microsoft Excel"),
    ("Microsoft Excel", "Microsoft Excel"), ("Calculator", "Calculator"),  # LlamaTouch's names already
    ("NewsBreak: Local News & Alerts", "NewsBreak: Local News & Alerts"),  # no name there: as it is
    ("com.example.unknown", "com.example.unknown"), ("No Such App", "No Such App"),
])
def test_apps_are_named_as_llamatouch_s_evaluator_looks_them_up(app, name):
    assert llamatouch_app_name(app) == name
    if name != "No Such App":  # our matcher reads the name written as the app given
        assert AppRegistry.bundled().packages(name) == AppRegistry.bundled().packages(app)


def test_ground_truth_with_given_component_lists(tmp_path):
    components = component_list(ViewHierarchy.from_file(DIALOG_XML))
    trimmed = [dataclasses.replace(c, xpath=None) for c in components]
    trace_dir = write_gt(tmp_path / "t", components={4: trimmed})
    checkpoint = load_ground_truth(trace_dir).checkpoints[2]
    assert checkpoint.screen.index == 4
    assert [c.to_dict() for c in checkpoint.screen.components] == [c.to_dict() for c in trimmed]


def test_ground_truth_reads_the_original_chinese_event_lines(tmp_path):
    trace_dir = write_gt(tmp_path / "t")
    (trace_dir / "eventStructs.txt").write_text(
        "【点击事件】屏幕大小：（w1080，h2400），触摸位置：（x540，y1200）\n"
        "【滑动事件】屏幕大小：（w1080，h2400），起始位置：（x540，y1800），结束位置：（x540，y600）\n"
        "【键盘输入】bestbuy\n"
        "【Back键】\n"
        "【Home键】\n"
        "[Enter]\n",
        encoding="utf-8",
    )
    gt = load_ground_truth(trace_dir).ground_truth
    assert gt is not None
    assert gt.actions == [
        Action.click(0.5, 0.5),
        Action.swipe(0.5, 0.75, 0.5, 0.25),
        Action.type_text("bestbuy"),
        Action.back(),
        Action.home(),
        Action.enter(),
        Action.complete(),
    ]
    assert gt[0].screen_size == (W, H)  # the screenshot's: a line's resolution scales its own coordinates


def real_screen_trace(trace_dir: Path, ess: str) -> Path:
    """A trace folder as LlamaTouch's recorder left it on a real phone: the Duolingo home
    screen (1080x2400, its component list as LlamaTouch annotated it, a dump of those
    components) whose eventStructs.txt speaks the recorder's 320x720; the tap is on the
    START button, (541, 847) on the phone."""
    case = FIXTURES / "img_test_case" / "case1"
    listed = json.loads((case / "2.json").read_text(encoding="utf-8"))
    nodes = [N(c["class"], c["text"], c["resource-id"], c["content-desc"],
               tuple(int(v) for v in re.findall(r"\d+", c["bounds"])),
               flags={f: c[f] for f in FLAG_NAMES if f in c}) for c in listed]
    xml = dump(*nodes, package="com.duolingo")
    trace_dir.mkdir(parents=True)
    for i, png in enumerate(("2.png", "3.png")):
        shutil.copyfile(case / png, trace_dir / f"{i}.png")
        (trace_dir / f"{i}.xml").write_text(xml, encoding="utf-8")
        (trace_dir / f"{i}.activity").write_text("com.duolingo/.home.HomeActivity", encoding="utf-8")
    shutil.copyfile(case / "2.json", trace_dir / "0.json")
    (trace_dir / "0.ess").write_text(ess, encoding="utf-8")
    (trace_dir / "eventStructs.txt").write_text(
        "[Click] Screen Resolution (320, 720), Click Position (160, 254)\n", encoding="utf-8")
    (trace_dir / "instruction.txt").write_text("1\nStart the first lesson", encoding="utf-8")
    return trace_dir


@pytest.mark.parametrize("ess", ["exact<14>", "click<14>"])
def test_a_real_phone_s_screen_is_its_screenshot_s_size_whatever_its_event_lines_say(tmp_path, ess):
    """Screen and dump are the phone's 1080x2400; the START button (component 14, an
    icon: judged by its picture) is cropped and tapped where the phone shows it, so the
    ground truth matches itself."""
    annotation = load_ground_truth(real_screen_trace(tmp_path / "t", ess))
    gt = annotation.ground_truth
    assert gt[0].screen_size == (1080, 2400)
    assert gt.actions[0] == Action.click(160 / 320, 254 / 720)
    result = evaluate_trace(annotation, gt, Matcher())
    assert result.success, result.explanations


def test_short_activity():
    assert short_activity("com.a.b/com.a.b.ui.Main") == "com.a.b/.ui.Main"
    assert short_activity("com.a.b/.Main") == "com.a.b/.Main"
    assert short_activity("com.a.b/org.other.Main") == "com.a.b/org.other.Main"


@pytest.fixture
def gt_dir(tmp_path) -> Path:
    return write_gt(tmp_path / "general" / "trace_11")


def test_missing_screenshot_names_it(gt_dir):
    (gt_dir / "3.png").unlink()
    with pytest.raises(FormatError, match="screenshot is missing") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == gt_dir / "3.png"


def test_missing_last_screenshot_names_it(gt_dir):
    (gt_dir / "6.png").unlink()
    with pytest.raises(FormatError) as info:
        load_ground_truth(gt_dir)
    assert info.value.path == gt_dir / "6.png"


def test_drawed_screenshots_are_not_screens(gt_dir):
    (gt_dir / "0_drawed.png").write_bytes((gt_dir / "0.png").read_bytes())
    assert len(load_ground_truth(gt_dir).ground_truth) == len(GT_ACTIONS)


def test_missing_xml_of_an_annotated_screen(gt_dir):
    (gt_dir / "4.xml").unlink()
    with pytest.raises(AnnotationError, match="view hierarchy") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == gt_dir / "4.xml"


def test_missing_xml_of_a_plain_screen_is_reported_only_when_read(gt_dir):
    (gt_dir / "3.xml").unlink()
    gt = load_ground_truth(gt_dir).ground_truth
    with pytest.raises(FormatError) as info:
        gt[3].xml
    assert info.value.path == gt_dir / "3.xml"


@pytest.mark.parametrize(
    ("name", "error"),
    [("4.json", AnnotationError), ("instruction.txt", FormatError), ("eventStructs.txt", FormatError)],
)
def test_missing_required_files(gt_dir, name, error):
    (gt_dir / name).unlink()
    with pytest.raises(error, match="missing") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == gt_dir / name


def test_missing_activity_of_a_screen_annotated_with_activity(gt_dir):
    (gt_dir / "1.activity").unlink()
    with pytest.raises(AnnotationError, match="activity") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == gt_dir / "1.activity"


def test_unknown_keyword_in_ess(gt_dir):
    (gt_dir / "2.ess").write_text("exact<1>|tap<3>\n", encoding="utf-8")
    with pytest.raises(AnnotationError, match="unknown keyword 'tap'") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == gt_dir / "2.ess"


def test_component_index_out_of_range(gt_dir):
    (gt_dir / "4.ess").write_text("exact<99>", encoding="utf-8")
    with pytest.raises(AnnotationError, match="out of range") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == gt_dir / "4.ess"


@pytest.mark.parametrize("extra", [0, 2])
def test_event_line_count_mismatch(gt_dir, extra):
    path = gt_dir / "eventStructs.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines = lines[:-1] if extra == 0 else lines + ["[Back]"]
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(FormatError, match="action line") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == path


def test_corrupt_event_line(gt_dir):
    path = gt_dir / "eventStructs.txt"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[2] = "[Pinch] 2 fingers"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(FormatError, match="line 3") as info:
        load_ground_truth(gt_dir)
    assert info.value.path == path


def test_unannotated_trace_is_an_error(gt_dir):
    for ess in gt_dir.glob("*.ess"):
        ess.unlink()
    with pytest.raises(AnnotationError, match="no screen is annotated"):
        load_ground_truth(gt_dir)


def test_writer_validates_before_writing(tmp_path):
    target = tmp_path / "t"
    with pytest.raises(AnnotationError, match="out of range"):
        write_ground_truth(target, make_trace(GT_ACTIONS, shot=screen), {1: parse_ess("exact<42>")}, episode="1",
                           instruction="x", enter_key=ENTER_KEY)
    with pytest.raises(FormatError, match="no action"):
        write_ground_truth(target, make_trace([None, None], shot=screen), {1: parse_ess("exact<0>")}, episode="1",
                           instruction="x")
    assert not target.exists()
    write_gt(target)
    with pytest.raises(FormatError, match="already holds a trace"):
        write_gt(target)


# -- the dataset -------------------------------------------------------------------------
def build_dataset(root: Path) -> dict[str, TaskMetadata]:
    rows = {}
    for episode, category, n in [("900", "install", 2), ("0042", "general", 10), ("7", "general", 9)]:
        path = f"{category}/trace_{n}"
        write_gt(root / path, episode=episode)
        rows[episode] = TaskMetadata(episode, category, path, f"Task {episode}", 6, "Maps")
    return rows


def test_dataset_without_metadata_scans_trace_folders(tmp_path):
    build_dataset(tmp_path)
    dataset = GroundTruthDataset(tmp_path)
    assert dataset.episodes() == ["7", "0042", "900"]  # general/trace_9, general/trace_10, install/trace_2
    assert dataset.category("900") == "install"
    assert dataset.description("0042") == "Open the settings"
    assert dataset.trace_dir("0042") == tmp_path / "general" / "trace_10"
    annotation = dataset.load("0042")
    assert (annotation.episode, annotation.category) == ("0042", "general")
    assert len(annotation) == len(ANNOTATIONS)


def test_dataset_with_metadata_tsv_in_root(tmp_path):
    rows = build_dataset(tmp_path)
    write_metadata(tmp_path / "llamatouch_task_metadata.tsv", rows.values())
    (tmp_path / "general" / "trace_9" / "0.png").unlink()  # loading is lazy per episode
    dataset = GroundTruthDataset(tmp_path)
    assert dataset.episodes() == ["900", "0042", "7"]  # metadata order
    assert dataset.description("900") == "Task 900"
    assert dataset.load("900").category == "install"
    with pytest.raises(FormatError):
        dataset.load("7")


def test_dataset_with_explicit_metadata(tmp_path):
    rows = build_dataset(tmp_path / "data")
    del rows["7"]
    write_metadata(tmp_path / "meta.tsv", rows.values())
    for metadata in (tmp_path / "meta.tsv", str(tmp_path / "meta.tsv"), rows):
        dataset = GroundTruthDataset(tmp_path / "data", metadata)
        assert dataset.episodes() == ["900", "0042"]
        assert dataset.load("0042").category == "general"


def test_dataset_metadata_pointing_at_another_episode(tmp_path):
    rows = build_dataset(tmp_path)
    rows["900"] = dataclasses.replace(rows["900"], path="general/trace_9")
    dataset = GroundTruthDataset(tmp_path, rows)
    with pytest.raises(FormatError, match="names episode 7") as info:
        dataset.load("900")
    assert info.value.path == tmp_path / "general" / "trace_9" / "instruction.txt"


def test_unknown_episode(tmp_path):
    build_dataset(tmp_path)
    dataset = GroundTruthDataset(tmp_path)
    with pytest.raises(UnknownEpisodeError, match=str(tmp_path)) as info:
        dataset.load("123")
    assert isinstance(info.value, MobileGymError) and isinstance(info.value, KeyError)
    with pytest.raises(UnknownEpisodeError, match="'123'"):
        dataset.category("123")
    assert "123" not in dataset and "900" in dataset


def test_dataset_root_must_exist(tmp_path):
    with pytest.raises(FormatError, match="does not exist"):
        GroundTruthDataset(tmp_path / "nope")


def test_dataset_of_the_real_metadata_knows_all_episodes(tmp_path):
    dataset = GroundTruthDataset(tmp_path, METADATA_TSV)
    assert len(dataset.episodes()) == 495
    assert dataset.category("84143002711104077") == "general"
    assert dataset.trace_dir("84143002711104077") == tmp_path / "general" / "trace_11"
    with pytest.raises(FormatError) as info:
        dataset.load("84143002711104077")
    assert info.value.path == tmp_path / "general" / "trace_11"


def test_dataset_scan_rejects_duplicate_episode_ids(tmp_path):
    write_gt(tmp_path / "general" / "trace_1", episode="5")
    write_gt(tmp_path / "install" / "trace_1", episode="5")
    with pytest.raises(FormatError, match="must be unique") as info:
        GroundTruthDataset(tmp_path).episodes()
    assert info.value.path == tmp_path / "install" / "trace_1" / "instruction.txt"


def test_a_state_read_from_a_png_is_copied_not_re_encoded(tmp_path):
    png = tmp_path / "screen.png"
    Image.new("RGB", (64, 128), (10, 200, 30)).save(png, compress_level=1)  # not PIL's default level
    xml = DIALOG_XML.read_text()
    states = [UIState(xml=xml, screenshot_path=png, activity="a.b/.C", action=Action.complete())]
    write_trace(tmp_path / "ep", Trace.from_states(states, installed_packages=frozenset()))
    assert (tmp_path / "ep" / "captured_data" / "screenshot" / "0.png").read_bytes() == png.read_bytes()


# -- what LlamaTouch's own evaluator reads ----------------------------------------------
def raw_xpath(xml_path: Path, xpath: str) -> list[str]:
    """Bounds of the nodes an xpath finds the way LlamaTouch runs it: lxml on the raw dump."""
    from lxml import etree

    tree = etree.parse(str(xml_path), etree.XMLParser(recover=True, encoding="utf-8"))
    return [node.get("bounds") for node in tree.xpath(xpath)]


def test_agentenv_trace_holds_droidbot_views_where_agentenv_and_llamatouch_look(tmp_path):
    """vh/i.vh is AgentEnv's place for them, view_hierarchy/i.json the one LlamaTouch's
    evaluator reads; both hold the screen's views."""
    trace = make_trace([Action.home(), Action.back(), None])
    captured = write_trace(tmp_path / "ep", trace) / "captured_data"
    expected = droidbot_views(ViewHierarchy.from_file(DIALOG_XML))
    for i in range(3):
        vh, evaluator = captured / "vh" / f"{i}.vh", captured / "view_hierarchy" / f"{i}.json"
        assert vh.read_bytes() == evaluator.read_bytes()
        assert load_views(vh) == expected
    assert read_trace(captured).actions == trace.actions


def test_a_trace_whose_dump_cannot_be_parsed_is_refused_before_writing(tmp_path):
    trace = make_trace([Action.home(), None])
    trace.states[1] = UIState(xml="not a dump", screenshot=image(1), activity=ACTIVITY, screen_size=(W, H))
    with pytest.raises(FormatError, match="no XML content") as info:
        write_trace(tmp_path / "ep", trace)
    assert info.value.path == tmp_path / "ep" / "captured_data" / "xml" / "1.xml"
    assert not (tmp_path / "ep").exists()


def test_ground_truth_has_a_vh_per_screen(tmp_path):
    trace_dir = write_gt(tmp_path / "t")
    expected = droidbot_views(ViewHierarchy.from_file(DIALOG_XML))
    assert [load_views(trace_dir / f"{i}.vh") for i in range(len(GT_ACTIONS))] == [expected] * len(GT_ACTIONS)


def test_a_clicked_label_gets_the_xpath_of_its_identity(tmp_path):
    """The dialog's "Done" is a label inside the clickable button: a click<n> on it needs an
    xpath too (LlamaTouch reads one for every clicked component), one that finds the
    label wherever it is, as our matcher's identity rule does."""
    components = component_list(ViewHierarchy.from_file(DIALOG_XML))
    label = next(c for c in components if c.text == "Done")
    assert label.xpath is None and not label.flag("clickable")
    other = next(c for c in components if c.xpath is None and c.id != label.id)  # not clicked: left alone
    trace_dir = write_ground_truth(tmp_path / "t", make_trace([Action.click(0.5, 0.55), None], shot=screen),
                                   {0: parse_ess(f"click<{label.id}>")}, episode="1", instruction="Done")
    written = load_ground_truth(trace_dir).checkpoints[0].screen.components
    xpath = written[label.id].xpath
    assert xpath == '//*[@class="android.view.View"][@resource-id=""][@text="Done"][@content-desc="Done"]'
    assert raw_xpath(trace_dir / "0.xml", xpath) == [str(label.bounds)]
    assert written[other.id].xpath is None


def test_xpaths_are_written_in_the_spelling_a_raw_dump_answers(tmp_path):
    """Our xpaths name elements by class (uiautomator2's spelling); LlamaTouch runs them on
    the raw dump, where every element is ``node``. Written with class predicates, they
    find the same nodes in both."""
    xml = dump(N("android.widget.LinearLayout", rid="com.example.shop:id/list", bounds=(0, 200, 1080, 800), children=[
        button("Apples", (0, 200, 1080, 400)), N("android.widget.TextView", "Header", bounds=(0, 400, 1080, 500)),
        button("Pears", (0, 500, 1080, 700)),
    ]))
    state = UIState(xml=xml, screenshot_path=screen(0, (1080, 2400)), activity=ACTIVITY, action=Action.click(0.5, 0.25),
                    screen_size=(1080, 2400))
    components = component_list(state.hierarchy)
    pears = next(c for c in components if c.text == "Pears")
    assert pears.xpath == '//*[@resource-id="com.example.shop:id/list"]/android.widget.Button[2]'
    trace = Trace.from_states([state, UIState(xml=xml, screenshot_path=screen(1, (1080, 2400)), activity=ACTIVITY,
                                              screen_size=(1080, 2400))])
    trace_dir = write_ground_truth(tmp_path / "t", trace, {0: parse_ess(f"click<{pears.id}>")}, episode="1",
                                   instruction="Pears")
    written = load_ground_truth(trace_dir).checkpoints[0].screen.components
    xpath = written[pears.id].xpath
    assert xpath == '//*[@resource-id="com.example.shop:id/list"]/*[@class="android.widget.Button"][2]'
    assert raw_xpath(trace_dir / "0.xml", xpath) == [str(pears.bounds)]
    assert [n.bounds for n in state.hierarchy.xpath(xpath)] == [pears.bounds]
    assert raw_xpath(trace_dir / "0.xml", pears.xpath) == []  # what LlamaTouch made of the old spelling


@pytest.mark.parametrize("text", ["plain", 'say "hi"', "it's", 'it\'s "quoted"', ""])
def test_xpath_literals_hold_any_text(text):
    from lxml import etree

    root = etree.fromstring("<hierarchy><node/></hierarchy>")
    root[0].set("text", text)
    assert root.xpath(f"//node[@text={xpath_literal(text)}]") == [root[0]]
