"""``mobile-gym evaluate`` end to end on a tiny dataset written with the project's writers.

Three episodes share one golden path (launcher -> tap "Maps" -> type "maps" -> the real
Google Maps dialog dump, COMPLETE), annotated with click/type/activity/exact only, so no
embedding model is involved:

- ``ep_ok``: reaches the goal with a detour (essential and LCS accept, step-wise rejects);
- ``ep_fail``: taps the wrong app and gives up;
- ``ep_corrupt``: the goal screen's hierarchy file is missing from the execution trace.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from screens import DIALOG_XML

from mobile_gym.actions import Action
from mobile_gym.cli import main
from mobile_gym.formats.agentenv import write_trace
from mobile_gym.formats.llamatouch import write_ground_truth
from mobile_gym.matcher.annotation import Keyword, Primitive
from mobile_gym.trace import Trace, UIState
from mobile_gym.ui.components import component_list
from mobile_gym.ui.hierarchy import ViewHierarchy

DIALOG = DIALOG_XML.parent
SIZE = (1080, 1918)

LAUNCHER_ACTIVITY = "com.example.launcher/.Home"
SEARCH_ACTIVITY = "com.example.launcher/.Search"
MAPS_ACTIVITY = "com.google.android.apps.maps/com.google.android.maps.MapsActivity"

FLAGS = "checkable checked clickable enabled focusable focused scrollable long-clickable password selected"


def node(cls: str, bounds: str, text: str = "", rid: str = "", clickable: bool = False, children: str = "") -> str:
    values = {name: "false" for name in FLAGS.split()}
    values["enabled"] = "true"
    values["clickable"] = values["focusable"] = "true" if clickable else "false"
    flags = " ".join(f'{k}="{v}"' for k, v in values.items())
    return (
        f'<node index="0" text="{text}" resource-id="{rid}" class="{cls}" package="com.example.launcher" '
        f'content-desc="" {flags} bounds="{bounds}">{children}</node>'
    )


def dump(children: str) -> str:
    root = node("android.widget.FrameLayout", "[0,0][1080,1918]", children=children)
    return f"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">{root}</hierarchy>"


LAUNCHER_XML = dump(
    node("android.widget.TextView", "[100,50][980,150]", "Welcome")
    + node("android.widget.Button", "[100,200][500,300]", "Maps", "com.example.launcher:id/maps", True)
    + node("android.widget.Button", "[600,200][1000,300]", "Other", "com.example.launcher:id/other", True)
)
SEARCH_XML = dump(node("android.widget.EditText", "[50,100][1030,220]", "Search", "com.example.launcher:id/q", True))
MAPS_BUTTON = 1  # component index of "Maps" on the launcher


def screens() -> dict[str, UIState]:
    """Fresh states (a UIState is one step of one trace)."""
    grey = Image.new("RGB", SIZE, (200, 200, 200))
    white = Image.new("RGB", SIZE, (250, 250, 250))
    return {
        "launcher": UIState(xml=LAUNCHER_XML, screenshot=grey, activity=LAUNCHER_ACTIVITY),
        "search": UIState(xml=SEARCH_XML, screenshot=white, activity=SEARCH_ACTIVITY),
        "maps": UIState(
            xml_path=DIALOG / "10.xml", screenshot_path=DIALOG / "10.png", activity=MAPS_ACTIVITY
        ),
    }


def make_trace(*steps: tuple[str, Action | None], **kwargs) -> Trace:
    states = []
    for name, action in steps:
        state = screens()[name]
        state.action = action
        states.append(state)
    return Trace.from_states(states, **kwargs)


TAP_MAPS = Action.click(0.27, 0.13)
TAP_OTHER = Action.click(0.74, 0.13)


def write_dataset(root: Path) -> None:
    title = next(
        c.id
        for c in component_list(ViewHierarchy.from_file(DIALOG / "10.xml"))
        if c.text == "Timeline data deleted"
    )
    annotations = {
        0: [Primitive(Keyword.CLICK, str(MAPS_BUTTON))],
        1: [Primitive(Keyword.TYPE, "maps")],
        2: [Primitive(Keyword.ACTIVITY, "1"), Primitive(Keyword.EXACT, str(title))],
    }
    folders = {"ep_ok": "general/trace_0", "ep_fail": "general/trace_1", "ep_corrupt": "googleapps/trace_0"}
    for episode, folder in folders.items():
        gt = make_trace(
            ("launcher", Action.click(0.28, 0.13)),
            ("search", Action.type_text("maps")),
            ("maps", Action.complete()),
        )
        write_ground_truth(root / folder, gt, annotations, episode=episode, instruction="Open Maps")


def write_traces(root: Path) -> None:
    write_trace(
        root / "ep_ok",
        make_trace(
            ("launcher", TAP_MAPS),
            ("search", Action.swipe(0.5, 0.8, 0.5, 0.3)),  # a detour: scrolls before typing
            ("search", Action.type_text("maps")),
            ("maps", Action.complete()),
        ),
    )
    write_trace(
        root / "ep_fail",
        make_trace(("launcher", TAP_OTHER), ("launcher", Action.back()), ("launcher", Action.complete())),
    )
    write_trace(
        root / "ep_corrupt",
        make_trace(("launcher", TAP_MAPS), ("search", Action.type_text("maps")), ("maps", Action.complete())),
    )
    (root / "ep_corrupt" / "captured_data" / "xml" / "2.xml").unlink()


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("cli")
    write_dataset(base / "dataset")
    write_traces(base / "traces")
    return base / "dataset", base / "traces"


def run(data, tmp_path, *extra: str) -> tuple[int, list[dict], dict]:
    dataset, traces = data
    out = tmp_path / "out"
    code = main(["evaluate", "--dataset", str(dataset), "--traces", str(traces), "--out", str(out), *extra])
    rows, summary = [], {}
    if (out / "episodes.csv").exists():
        with (out / "episodes.csv").open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return code, rows, summary


def by_key(rows: list[dict]) -> dict[tuple[str, str], dict]:
    return {(r["episode"], r["evaluator"]): r for r in rows}


def test_evaluate_essential(data, tmp_path, capsys):
    labels = tmp_path / "labels.csv"
    labels.write_text("episode,human\nep_ok,True\nep_fail,False\nep_corrupt,True\n", encoding="utf-8")
    code, rows, summary = run(data, tmp_path, "--labels", str(labels))
    assert code == 0
    assert len(rows) == 3 and {r["evaluator"] for r in rows} == {"essential"}
    got = by_key(rows)

    ok = got["ep_ok", "essential"]
    assert ok["success"] == "True" and ok["error"] == "" and float(ok["progress"]) == 1.0
    assert ok["matched"] == "0:0 1:2 2:3" and ok["steps"] == "4" and ok["category"] == "general"

    fail = got["ep_fail", "essential"]
    assert fail["success"] == "False" and fail["error"] == "" and float(fail["progress"]) == 0.0
    assert "checkpoint 0" in fail["explanation"]

    corrupt = got["ep_corrupt", "essential"]
    assert corrupt["success"] == "False"
    assert str(Path("captured_data") / "xml" / "2.xml") in corrupt["error"]
    assert corrupt["category"] == "googleapps"

    s = summary["essential"]
    assert (s["episodes"], s["completed"], s["errors"]) == (3, 1, 1)
    assert s["completion_rate"] == pytest.approx(1 / 3)
    assert s["per_category"]["general"] == {"episodes": 2, "completed": 1, "completion_rate": 0.5}
    assert (s["tp"], s["fp"], s["tn"], s["fn"]) == (1, 0, 1, 1)
    assert s["accuracy"] == pytest.approx(2 / 3) and s["precision"] == 1.0 and s["recall"] == 0.5

    printed = capsys.readouterr().out
    assert "essential" in printed and "TCR" in printed and "accuracy" in printed
    assert "33.3%" in printed and "  googleapps" in printed
    assert "episodes.csv" in printed


def test_evaluate_all_evaluators(data, tmp_path, capsys):
    code, rows, summary = run(data, tmp_path, "--evaluator", "all")
    assert code == 0
    assert len(rows) == 9  # 3 episodes x 3 evaluators
    assert [r["evaluator"] for r in rows[:3]] == ["essential", "action", "lcs"]
    got = by_key(rows)
    # The detour: the essential states and the LCS accept it, step-wise matching does not.
    assert got["ep_ok", "essential"]["success"] == "True"
    assert got["ep_ok", "lcs"]["success"] == "True"
    assert got["ep_ok", "lcs"]["matched"] == "0:0 1:2 2:3"
    assert got["ep_ok", "action"]["success"] == "False"
    assert "step 1" in got["ep_ok", "action"]["explanation"]
    # Wrong app: only the final COMPLETE matches.
    assert got["ep_fail", "action"]["success"] == "False"
    assert float(got["ep_fail", "lcs"]["progress"]) == pytest.approx(1 / 3, abs=1e-3)
    # The baselines never read the missing hierarchy, so they judge that trace normally.
    assert got["ep_corrupt", "essential"]["error"] != ""
    assert got["ep_corrupt", "action"]["error"] == "" and got["ep_corrupt", "action"]["success"] == "True"
    assert set(summary) == {"essential", "action", "lcs"}
    assert summary["action"]["completed"] == 1 and summary["lcs"]["completed"] == 2
    assert summary["essential"]["completed"] == 1
    assert "accuracy" not in summary["lcs"]
    printed = capsys.readouterr().out
    assert all(name in printed for name in ("essential", "action", "lcs"))


def test_corrupt_and_missing_traces_are_error_rows(data, tmp_path):
    dataset, traces = data
    mine = tmp_path / "traces"
    shutil.copytree(traces / "ep_ok", mine / "ep_ok")
    bad_action = mine / "ep_ok" / "captured_data" / "action" / "1.action"
    bad_action.write_text("SWIPE|[0.5, 0.8]|garbage|1080|1918", encoding="utf-8")
    out = tmp_path / "out"
    code = main(
        ["evaluate", "--dataset", str(dataset), "--traces", str(mine), "--out", str(out),
         "--evaluator", "essential", "--evaluator", "lcs",
         "--episodes", "ep_ok", "ep_fail", "no_such_episode"]
    )
    assert code == 0
    with (out / "episodes.csv").open(encoding="utf-8", newline="") as f:
        got = by_key(list(csv.DictReader(f)))
    assert len(got) == 6
    for evaluator in ("essential", "lcs"):
        assert str(bad_action) in got["ep_ok", evaluator]["error"]
        assert "no execution trace at" in got["ep_fail", evaluator]["error"]
        assert "no_such_episode" in got["no_such_episode", evaluator]["error"]
        assert all(got[ep, evaluator]["success"] == "False" for ep in ("ep_ok", "ep_fail", "no_such_episode"))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["lcs"]["errors"] == 3 and summary["lcs"]["completion_rate"] == 0.0


def test_metadata_option_selects_and_categorizes_episodes(data, tmp_path):
    from mobile_gym.formats.metadata import TaskMetadata, write_metadata

    dataset, traces = data
    tsv = tmp_path / "meta.tsv"
    write_metadata(tsv, [TaskMetadata("ep_ok", "custom", "general/trace_0", "Open Maps", 3, "Maps")])
    code, rows, summary = run(data, tmp_path, "--metadata", str(tsv), "--evaluator", "action")
    assert code == 0
    assert [(r["episode"], r["category"]) for r in rows] == [("ep_ok", "custom")]


def test_unusable_inputs_exit_2_with_one_line(data, tmp_path, capsys):
    dataset, traces = data
    assert main(["evaluate", "--dataset", str(tmp_path / "nope"), "--traces", str(traces)]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and len(err.strip().splitlines()) == 1

    labels = tmp_path / "labels.csv"
    labels.write_text("episode,human\nep_ok,perhaps\n", encoding="utf-8")
    code = main(
        ["evaluate", "--dataset", str(dataset), "--traces", str(traces), "--labels", str(labels),
         "--out", str(tmp_path / "out")]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "labels.csv" in err and "line 2" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out" / "episodes.csv").exists()

    assert main([]) == 2


def test_python_dash_m_and_a_light_import():
    help_run = subprocess.run(
        [sys.executable, "-m", "mobile_gym", "evaluate", "--help"], capture_output=True, text=True, timeout=60
    )
    assert help_run.returncode == 0 and "--dataset" in help_run.stdout
    probe = subprocess.run(
        [sys.executable, "-c", "import sys, mobile_gym.cli; print('torch' in sys.modules or 'sentence_transformers' in sys.modules)"],
        capture_output=True, text=True, timeout=60,
    )
    assert probe.stdout.strip() == "False"


def test_tasks_lists_every_task_and_filters(capsys) -> None:
    from mobile_gym.cli import main
    from mobile_gym.tasks.suite import simulator_tasks

    assert main(["tasks"]) == 0
    out = capsys.readouterr()
    lines = out.out.strip().splitlines()
    assert len(lines) == 1 + 495 and "495 task(s)" in out.err
    assert main(["tasks", "--backend", "sim"]) == 0
    sim = capsys.readouterr().out.strip().splitlines()[1:]
    assert sorted(line.split()[0] for line in sim) == sorted(t.env_id for t in simulator_tasks().values())
    assert all("sim,device" in line for line in sim)
    assert main(["tasks", "--app", "clock", "--category", "googleapps"]) == 0
    rows = capsys.readouterr().out.strip().splitlines()[1:]
    assert rows and all("Clock" in r for r in rows)


def test_play_runs_agents_and_reports_both_verdicts(capsys) -> None:
    from mobile_gym.cli import main

    assert main(["play", "--tasks", "settings-turn-airplane-mode", "--seeds", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("matcher success  oracle success") == 2
    assert "oracle agent: 2/2 episodes succeeded; matcher and oracle agree on 2/2" in out
    assert main(["play", "--agent", "random", "--tasks", "settings-turn-airplane-mode"]) == 0
    assert "random agent:" in capsys.readouterr().out
    assert main(["play", "--tasks", "nope"]) == 2
