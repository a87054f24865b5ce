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


def _task_table(capsys, *args: str) -> list[dict[str, str]]:
    """`mobile-gym tasks` rows as dicts keyed by the header (columns are 2+ spaces apart)."""
    import re

    assert main(["tasks", *args]) == 0
    header, *lines = capsys.readouterr().out.strip().splitlines()
    names = re.split(r"\s{2,}", header.strip())
    return [dict(zip(names, re.split(r"\s{2,}", line.strip(), maxsplit=len(names) - 1))) for line in lines]


def test_tasks_shows_the_simulator_golden_path_and_the_registered_step_limit(capsys) -> None:
    import gymnasium as gym

    from mobile_gym.tasks.suite import simulator_tasks

    rows = {r["id"]: r for r in _task_table(capsys)}
    assert len(rows) == 495
    assert rows["LlamaTouch/settings-open-v0"]["steps"] == "1"  # LlamaTouch's catalogue says 4
    for task in simulator_tasks().values():
        assert rows[task.env_id]["steps"] == str(task.steps)
    for env_id, row in rows.items():
        assert row["limit"] == str(gym.spec(env_id).max_episode_steps), env_id


def test_tasks_names_each_app_once_and_in_full(capsys) -> None:
    rows = {r["id"]: r for r in _task_table(capsys)}
    assert rows["LlamaTouch/chrome-clear-history-v0"]["app"] == "Google Chrome"
    assert rows["LlamaTouch/bestbuy-empty-cart-v0"]["app"] == "Google Chrome"  # LlamaTouch wrote "chrome"
    assert rows["LlamaTouch/playstore-install-ebay-v0"]["app"] == "Google Play Store"
    assert rows["LlamaTouch/playstore-firefox-browser-v0"]["app"] == "Google Play Store, Firefox"
    names = {name for r in rows.values() for name in r["app"].split(", ")}
    assert len({n.lower() for n in names}) == len(names), "an app shown under two spellings"


def test_tasks_lists_the_backends_that_run_each_task(capsys) -> None:
    from mobile_gym.tasks.suite import simulator_tasks

    rows = _task_table(capsys)
    sim = {t.env_id for t in simulator_tasks().values()}
    assert all(r["backends"] == ("sim,device" if r["id"] in sim else "device") for r in rows)
    on_sim = _task_table(capsys, "--backend", "sim")
    assert len(on_sim) == len(sim) >= 130
    assert len({app for r in on_sim for app in r["app"].split(", ")}) >= 13
    assert len(_task_table(capsys, "--backend", "device")) == 495  # with LlamaTouch's dataset, every task
    with pytest.raises(SystemExit) as exit_:
        main(["tasks", "--backend", "cloud"])
    assert exit_.value.code == 2 and "invalid choice: 'cloud'" in capsys.readouterr().err


# -- run and play: bad agents stop early, errors are named and retried, agents from the cwd --

class Quitter:
    """Duck-typed agent (no Agent base class): gives up at once."""

    def reset(self, seed=None):
        pass

    def act(self, observation, info):
        return Action.impossible()


class NoAct:
    def reset(self, seed=None):
        pass


class NeedsKey(Quitter):
    def __init__(self):
        raise KeyError("OPENAI_API_KEY")


class Flaky(Quitter):
    """Every move fails while ``down`` (a model server that is down)."""

    down = True

    def act(self, observation, info):
        if Flaky.down:
            raise TimeoutError("model took too long")
        return Action.complete()


@pytest.mark.parametrize("command", ["run", "play"])
@pytest.mark.parametrize("agent, message", [
    ("no_such_module:Agent", "cannot load agent 'no_such_module:Agent': ModuleNotFoundError"),
    (f"{__name__}:NoAct", r"has no act\(\)"),
    (f"{__name__}:NeedsKey", r"cannot build agent .*KeyError: 'OPENAI_API_KEY'"),
])
def test_a_bad_agent_exits_2_before_any_episode(tmp_path, capsys, command, agent, message) -> None:
    import re

    args = [command, "--agent", agent, "--tasks", "settings-turn-off-wifi", "settings-open"]
    assert main(args + (["--out", str(tmp_path / "run")] if command == "run" else [])) == 2
    printed = capsys.readouterr()
    assert printed.err.startswith(f"mobile-gym {command}: ") and re.search(message, printed.err), printed.err
    assert printed.out == "" and not (tmp_path / "run").exists()


def test_run_names_error_kinds_exits_1_when_all_fail_and_resume_retries_them(tmp_path, capsys, monkeypatch) -> None:
    out = tmp_path / "run"
    args = ["run", "--agent", f"{__name__}:Flaky", "--tasks", "settings-turn-off-wifi", "--seeds", "2",
            "--out", str(out)]
    assert main(args) == 1
    printed = capsys.readouterr()
    assert "2 of 2 episode(s) ended in an error:\n  2 x TimeoutError: model took too long" in printed.out
    assert "every episode ended in an error" in printed.err
    monkeypatch.setattr(Flaky, "down", False)
    assert main(args + ["--resume", "--keep-errors"]) == 1  # kept, not rerun
    assert "2 x TimeoutError" in capsys.readouterr().out
    assert main(args + ["--resume"]) == 0
    printed = capsys.readouterr().out
    assert "| all | 2 | 0 |" in printed and "ended in an error" not in printed
    assert len((out / "episodes.jsonl").read_text().splitlines()) == 2
    with open(out / "episodes.csv", newline="") as f:
        assert [r["error_kind"] for r in csv.DictReader(f)] == ["", ""]


def test_play_takes_module_class_agents_env_ids_and_patterns(capsys) -> None:
    from mobile_gym.tasks.suite import simulator_tasks

    tasks = ["LlamaTouch/settings-turn-off-wifi-v0", "settings-turn-air*", "LlamaTouch/clock-*-v0"]
    assert main(["play", "--agent", f"{__name__}:Quitter", "--tasks", *tasks]) == 0
    out = capsys.readouterr().out
    played = [line.split()[0] for line in out.splitlines() if line.startswith("LlamaTouch/")]
    clock = [t.env_id for t in simulator_tasks().values() if t.app == "clock"]
    assert played == ["LlamaTouch/settings-turn-off-wifi-v0", "LlamaTouch/settings-turn-airplane-mode-v0", *clock]
    assert f"{__name__}:Quitter agent: 0/{len(played)} episodes succeeded" in out


def test_a_task_name_that_matches_nothing_suggests_close_ones(tmp_path, capsys) -> None:
    assert main(["play", "--tasks", "settings-turn-off-wifi", "settings-turn-of-wifi"]) == 2
    assert "no simulator task settings-turn-of-wifi; close matches: settings-turn-off-wifi" in capsys.readouterr().err
    run = ["run", "--agent", "oracle", "--out", str(tmp_path / "run"), "--tasks"]
    assert main(run + ["setings-*"]) == 2
    assert "close matches: settings-*" in capsys.readouterr().err
    assert main(run + ["LlamaTouch/settings-turn-of-wifi-v0"]) == 2
    assert "close matches: LlamaTouch/settings-turn-off-wifi-v0" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_module_class_agents_load_from_the_current_directory(tmp_path) -> None:
    """The console script does not put the cwd on sys.path; `--agent my_agent:MyAgent` still works."""
    import os

    (tmp_path / "my_agent.py").write_text(
        "from mobile_gym.actions import Action\n\n\n"
        "class MyAgent:\n"
        "    def reset(self, seed=None):\n        pass\n\n"
        "    def act(self, observation, info):\n        return {'action_type': 6}  # COMPLETE, as a gym dict\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(Path(sys.executable).parent / "mobile-gym"), "run", "--agent", "my_agent:MyAgent",
                           "--tasks", "settings-turn-off-wifi", "--out", "out"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record, = [json.loads(line) for line in (tmp_path / "out" / "episodes.jsonl").read_text().splitlines()]
    assert record["error"] is None and record["terminated_by"] == "complete"


@pytest.mark.slow
def test_play_draws_no_progress_bars_while_the_embedding_model_loads(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "mobile_gym", "play", "--tasks", "settings-go-network"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "1/1 episodes succeeded" in done.stdout, done.stderr
    assert "it/s" not in done.stdout + done.stderr and "Loading" not in done.stdout + done.stderr
