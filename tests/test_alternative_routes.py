"""A task with alternative routes: dark theme, turned on from Display > Dark theme (the
golden path) or from Wallpaper & style. Either route solves it, in the env and offline,
from the task itself and from the dataset ``export-dataset`` writes; the near miss on the
second route (the switch beside it, Themed icons) does not."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.agents import OracleAgent
from mobile_gym.env import shared_matcher
from mobile_gym.errors import AnnotationError, ConfigError, FormatError
from mobile_gym.evaluation.ground_truth import SimulatorTruth
from mobile_gym.formats.llamatouch import ALTERNATIVES_DIR, INSTRUCTION_FILE, GroundTruthDataset
from mobile_gym.matcher import Annotation, Tracker, evaluate_trace
from mobile_gym.simulator import PROFILES
from mobile_gym.tasks.definition import Step
from mobile_gym.tasks.export import dataset_path, export_dataset
from mobile_gym.tasks.selectors import Selector
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.wrappers import RecordTrace

TASK = "settings-set-system-dark"


def play(agent: OracleAgent, *, seed: int, profile: str = "pixel-6") -> tuple[dict, RecordTrace]:
    env = RecordTrace(gym.make(simulator_tasks()[TASK].env_id, profile=profile, dynamics="default"))
    obs, info = env.reset(seed=seed)
    agent.reset(seed)
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        if terminated or truncated:
            return {**info, "reward": reward}, env


def near_miss() -> OracleAgent:
    """The second route with its last tap on the other switch of the page."""
    task = simulator_tasks()[TASK]
    path = task.alternatives[0].golden_path[:-1] + (
        Step("tap", Selector(class_name="android.widget.Switch", row="Themed icons")),)
    return OracleAgent(task, path=path)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_either_route_solves_the_task_and_says_which(profile: str) -> None:
    for route in (0, 1):
        info, _ = play(OracleAgent(TASK, route=route), seed=5, profile=profile)
        assert info["success"] and info["oracle_success"] and info["reward"] == 1.0, info
        assert info["route"] == route and info["terminated_by"] == "success"


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_other_switch_on_the_same_page_is_not_credited(profile: str) -> None:
    info, env = play(near_miss(), seed=5, profile=profile)
    assert not info["success"] and not info["oracle_success"] and info["terminated_by"] == "complete"
    # the second route's first checkpoint held (Settings opened): it leads, half done
    assert info["route"] == 1 and info["progress"] == 0.5 and info["matched"] == {0: 1}
    verdict = evaluate_trace(simulator_tasks()[TASK].annotation, env.trace, shared_matcher())
    assert not verdict.success and verdict.route == 1
    first, *rest = verdict.explanations
    assert first.startswith("alternative route 1: checkpoint 1 ") and "looks different" in first
    assert any(line.startswith("main route: checkpoint 1 ") for line in rest)


def test_an_unknown_route_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="routes 0 .* to 1; got route=2"):
        OracleAgent(TASK, route=2)
    with pytest.raises(ConfigError, match="routes 0 .* to 0; got route=1"):
        OracleAgent("settings-turn-off-wifi", route=1)


def test_an_alternative_cannot_have_alternatives() -> None:
    annotation = simulator_tasks()[TASK].annotation
    with pytest.raises(AnnotationError, match="alternatives of its own"):
        Annotation(annotation.checkpoints, alternatives=[annotation])


def test_the_tracker_follows_every_route_and_stops_at_the_first_success() -> None:
    task = simulator_tasks()[TASK]
    annotation = task.annotation
    second = annotation.alternatives[0].ground_truth
    tracker = Tracker(annotation, shared_matcher())
    for i, state in enumerate(second):
        tracker.observe(state)
        if state.action is not None:
            tracker.act(state.action)
        # both routes match their first checkpoint (Settings) at step 1: the second,
        # with one of two matched to one of three, leads from then on; before, the first
        assert tracker.route == (0 if i == 0 else 1)
        assert tracker.progress == (0.0 if i == 0 else 0.5 if i < len(second) - 1 else 1.0)
    assert tracker.success and tracker.progress == 1.0 and tracker.matched == {0: 1, 1: 4}
    assert tracker.explain() == []
    assert not tracker.observe(second[-1])  # nothing more is judged after success


def test_exported_dataset_keeps_the_second_route_beside_the_first(tmp_path) -> None:
    task = simulator_tasks()[TASK]
    export_dataset(tmp_path, [task])
    folder = tmp_path / dataset_path(task)
    second = folder / ALTERNATIVES_DIR / "1"
    # LlamaTouch's loader lists the trace folder's own .png files: the first route alone
    assert len(list(folder.glob("*.png"))) == task.steps + 1
    assert {p.name for p in second.glob("*.ess")} == {"1.ess", "4.ess"}

    annotation = GroundTruthDataset(tmp_path).load(task.episode)
    assert [[str(c) for c in r] for r in annotation.routes] == [
        [str(c) for c in r] for r in task.annotation.routes]
    info, env = play(OracleAgent(TASK, route=1), seed=2)
    verdict = evaluate_trace(annotation, env.trace, shared_matcher())
    assert verdict.success and verdict.route == 1

    (second / INSTRUCTION_FILE).write_text("12345\nSomething else")
    with pytest.raises(FormatError, match="names episode 12345, but its main route is episode"):
        GroundTruthDataset(tmp_path).load(task.episode)
    second.rename(second.with_name("2"))
    with pytest.raises(FormatError, match="folders 1, 2, ... in order; expected 1"):
        GroundTruthDataset(tmp_path).load(task.episode)


def test_simulator_truth_judges_either_route() -> None:
    annotation = SimulatorTruth().annotation(TASK)
    assert len(annotation.alternatives) == 1 and annotation.alternatives[0].ground_truth is not None
    for route in (0, 1):
        _, env = play(OracleAgent(TASK, route=route), seed=7)
        verdict = evaluate_trace(annotation, env.trace, shared_matcher())
        assert verdict.success and verdict.route == route


class SecondRouteAgent(OracleAgent):
    """Plays the task's alternative route 1 (for ``mobile-gym run --agent``)."""

    def __init__(self, task):
        super().__init__(task, route=1)


def test_a_run_on_the_second_route_is_rejudged_on_it(tmp_path, capsys) -> None:
    import csv

    from mobile_gym.cli import main

    run, out = tmp_path / "run", tmp_path / "judged"
    assert main(["run", "--agent", f"{__name__}:SecondRouteAgent", "--tasks", TASK, "--seeds", "2",
                 "--save-traces", "--out", str(run)]) == 0
    records = [json.loads(line) for line in (run / "episodes.jsonl").read_text().splitlines()]
    assert [(r["success"], r["route"]) for r in records] == [(True, 1), (True, 1)]
    assert main(["evaluate", "--run", str(run), "--evaluator", "essential", "--out", str(out)]) == 0
    with (out / "episodes.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["success"] for r in rows] == ["True", "True"]
    assert all(r["matched"].startswith("route 1: 0:1 1:") for r in rows)
