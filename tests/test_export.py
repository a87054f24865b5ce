"""`mobile-gym export-dataset`: simulator tasks written in LlamaTouch's format A read
back with the dataset reader and judge their own golden paths as successes; the files
LlamaTouch's own evaluator reads are there and usable: a droidbot ``.vh`` per screen, an
xpath for every clicked component, in the spelling a raw dump answers, action lines its
loader knows and app names its app table knows."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from lxml import etree

from test_droidbot import assert_views_follow_the_dump

from mobile_gym.actions import Action
from mobile_gym.cli import main
from mobile_gym.env import shared_matcher
from mobile_gym.formats.droidbot import load_views
from mobile_gym.formats.llamatouch import GroundTruthDataset, llamatouch_app_name
from mobile_gym.matcher import evaluate_trace
from mobile_gym.matcher.annotation import Keyword, Primitive
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.profiles import PROFILES
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.ui.hierarchy import ViewHierarchy


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, str]:
    """Every simulator task exported once: (dataset folder, what the command printed)."""
    root = tmp_path_factory.mktemp("dataset")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["export-dataset", str(root)]) == 0
    return root, printed.getvalue()


def trace_folders(root: Path) -> list[Path]:
    return sorted(p.parent for p in root.glob("*/*/instruction.txt"))


def as_written(p: Primitive) -> str:
    """A primitive as the dataset spells it: apps by the names LlamaTouch's table knows."""
    if p.keyword in (Keyword.CHECK_INSTALL, Keyword.CHECK_UNINSTALL):
        return f"{p.keyword.value}<{llamatouch_app_name(p.content)}>"
    return str(p)


def raw_dump(path: Path) -> etree._ElementTree:
    """A dump read as LlamaTouch's evaluator reads it: plain lxml, elements named ``node``."""
    return etree.parse(str(path), etree.XMLParser(recover=True, encoding="utf-8"))


def test_exported_tasks_load_as_a_llamatouch_dataset_and_match_their_golden_paths(exported) -> None:
    root, printed = exported
    tasks = simulator_tasks()
    assert f"wrote {len(tasks)} task(s)" in printed
    dataset = GroundTruthDataset(root)
    assert sorted(dataset.episodes()) == sorted(t.episode or t.id for t in tasks.values())
    for task in tasks.values():
        loaded = dataset.load(task.episode or task.id)
        assert loaded.instruction == task.instruction
        assert [(c.screen.index, [str(p) for p in c.primitives]) for c in loaded.checkpoints] == \
            [(c.screen.index, [as_written(p) for p in c.primitives]) for c in task.annotation.checkpoints]
        golden = task.ground_truth[0]
        assert len(loaded.ground_truth) == len(golden)
        for ours, theirs in zip(golden.actions, loaded.ground_truth.actions):
            assert (ours is None) == (theirs is None) or theirs.action_type.name == "COMPLETE"
            if ours is not None:
                assert ours.action_type is theirs.action_type  # ENTER too: written as a click, read back
            if ours is not None and ours.touch is not None:
                assert abs(ours.touch[0] - theirs.touch[0]) < 0.01
        result = evaluate_trace(loaded, golden, shared_matcher())
        assert result.success, "\n".join(result.explanations)


def test_every_exported_screen_has_a_droidbot_vh_that_follows_its_dump(exported) -> None:
    """LlamaTouch's whole-screen check (fuzzy<-1>) reads i.vh beside i.png and i.xml."""
    root, _ = exported
    folders = trace_folders(root)
    assert len(folders) == len(simulator_tasks())
    screens = 0
    for folder in folders:
        for png in folder.glob("*.png"):
            i = png.stem
            views = load_views(folder / f"{i}.vh")
            assert_views_follow_the_dump(views, (folder / f"{i}.xml").read_bytes())
            screens += 1
    assert screens > 100


def test_every_clicked_component_has_an_xpath_that_finds_it_in_the_raw_dump(exported) -> None:
    """LlamaTouch reads ``xpath`` of the component a click<n> names (a KeyError without one)
    and runs it with lxml on the dump; it must find the component there. Labels inside a
    clickable row (not clickable themselves) are clicked components too."""
    root, _ = exported
    clicked = 0
    for ess in sorted(root.glob("*/*/*.ess")):
        components = json.loads(ess.with_suffix(".json").read_text(encoding="utf-8"))
        for n in re.findall(r"click<(\d+)>", ess.read_text(encoding="utf-8")):
            component = components[int(n)]
            assert component.get("xpath"), f"{ess}: click<{n}> names a component without an xpath"
            found = raw_dump(ess.with_suffix(".xml")).xpath(component["xpath"])
            assert component["bounds"] in [node.get("bounds") for node in found], (ess, component)
            clicked += 1
    assert clicked > 0  # labels among them today: chrome History, Best Rated, Tokyo (write_ground_truth tests the rule)


def test_component_xpaths_find_the_same_nodes_in_the_raw_dump_as_in_ours(exported) -> None:
    """Written in the dump's spelling (class predicates), an xpath means the same to
    LlamaTouch's lxml on the raw dump and to `ViewHierarchy.xpath`."""
    root, _ = exported
    checked = 0
    for listing in sorted(root.glob("*/*/*.json")):
        with_xpath = [c for c in json.loads(listing.read_text(encoding="utf-8")) if c.get("xpath")]
        if not with_xpath:
            continue
        xml = listing.with_suffix(".xml")
        raw, ours = raw_dump(xml), ViewHierarchy.from_file(xml)
        for c in with_xpath:
            theirs = [node.get("bounds") for node in raw.xpath(c["xpath"])]
            assert theirs == [str(node.bounds) for node in ours.xpath(c["xpath"])], (listing, c["xpath"])
            assert c["bounds"] in theirs, (listing, c)
            checked += 1
    assert checked > 500


def test_export_refuses_unknown_tasks_and_overwrites(tmp_path, capsys) -> None:
    assert main(["export-dataset", str(tmp_path), "--tasks", "no-such-task"]) == 2
    assert "no simulator task no-such-task" in capsys.readouterr().err
    first = sorted(simulator_tasks())[0]
    assert main(["export-dataset", str(tmp_path), "--tasks", first]) == 0
    assert main(["export-dataset", str(tmp_path), "--tasks", first]) == 2
    assert "already holds a trace" in capsys.readouterr().err


def test_every_line_is_one_llamatouch_s_loader_knows_and_an_enter_is_a_tap_on_the_keyboard_key(exported) -> None:
    """LlamaTouch's loader knows Home, Back, Click, Swipe and Input lines only and raises on
    any other, failing every task of the category it loads with it: an ENTER is the tap
    on the keyboard's Enter key, where the simulated phone draws it, whether the screen
    shows the keyboard (Trello's and Gmail's searches do not) or not."""
    root, _ = exported
    x, y = SimulatedDevice().enter_key()
    enter = Action.enter().to_event_line(1080, 2400, enter_key=(x, y))
    assert enter == "[Click] Screen Resolution (1080, 2400), Click Position (964, 2180) (Enter)"
    enters = set()
    for events in root.glob("*/*/eventStructs.txt"):
        for line in events.read_text(encoding="utf-8").splitlines():
            assert re.search(r"\[(?P<kind>.+)\]", line).group("kind") in ("Home", "Back", "Click", "Swipe", "Input")
            if line.endswith(" (Enter)"):
                enters.add((events.parent.name, line))
    assert {line for _, line in enters} == {enter}
    assert {"trace_1086", "trace_1089", "trace_54"} <= {folder for folder, _ in enters}  # no keyboard shown


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_a_phone_tells_where_its_keyboard_draws_the_enter_key_shown_or_not(profile) -> None:
    """Where the export taps for an ENTER: where the dump shows the key once a field has
    the focus, and a tap there does what ENTER does."""
    phones = [SimulatedDevice(profile=profile, setup={"launch": "chrome"}) for _ in range(2)]
    hidden = phones[0].enter_key()
    (width, height), hierarchy = phones[0].screen_size, phones[0].observe(screenshot=False).hierarchy
    x, y = next(n for n in hierarchy if n.class_name == "android.widget.EditText").bounds.center
    for phone in phones:
        phone.perform(Action.click(x / width, y / height))
        phone.perform(Action.type_text("bestbuy.com"))
    key = next(n for n in phones[0].observe(screenshot=False).hierarchy
               if n.resource_id.endswith(":id/key_pos_ime_action"))
    assert hidden == phones[0].enter_key() == (key.bounds.center[0] / width, key.bounds.center[1] / height)
    phones[0].perform(Action.click(*hidden))
    phones[1].perform(Action.enter())
    assert phones[0].observe(screenshot=False).xml == phones[1].observe(screenshot=False).xml


def test_apps_are_named_as_llamatouch_s_app_table_names_them(exported) -> None:
    """LlamaTouch's evaluator looks check_install<app> up in a table of its own (eBay is
    ``ebay`` there, Firefox Browser ``firefox``): any other name is a KeyError."""
    root, _ = exported
    names = {m for ess in root.glob("*/*/*.ess")
             for m in re.findall(r"check_(?:un)?install<([^>]*)>", ess.read_text(encoding="utf-8"))}
    assert {"ebay", "firefox", "Duolingo", "Microsoft Excel"} <= names
    assert not names & {"eBay", "Firefox Browser", "Duolingo: language lessons"}
