"""The route explorer and the route check, through their public interfaces."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from mobile_gym.actions import Action, ActionType
from mobile_gym.authoring.explorer import (Exploration, ExploreConfig, explore, moves, start_device,
                                           state_key)
from mobile_gym.authoring.validate import judge_routes, score
from mobile_gym.cli import main
from mobile_gym.errors import ConfigError, FormatError
from mobile_gym.tasks.suite import simulator_tasks

#: A few seconds, bounded by states (not time) so that runs repeat exactly; TINY for repeats.
SMALL = ExploreConfig(max_states=200, time_budget=600, max_routes=8, max_failures=8)
TINY = ExploreConfig(max_states=40, time_budget=600, max_routes=8, max_failures=8)


@pytest.fixture(scope="module")
def airplane() -> Exploration:
    return explore("settings-turn-airplane-mode", seed=3, config=SMALL)


def env_outcomes(found: Exploration, actions: tuple[Action, ...]) -> list[bool]:
    """The env's oracle after each action of a route, replayed through gym.make."""
    env = gym.make(simulator_tasks()[found.task].env_id, profile=found.profile, dynamics=found.dynamics,
                   terminate_on_success=False)
    env.reset(seed=found.seed)
    outcomes = [env.step(a)[4]["oracle_success"] for a in actions]
    env.close()
    return outcomes


def test_routes_are_distinct_and_replay_as_found_through_the_env(airplane: Exploration) -> None:
    assert airplane.golden.success and airplane.successes[0].actions == airplane.golden.actions
    assert len(airplane.successes) >= 5
    assert len({r.actions for r in airplane.successes}) == len(airplane.successes)
    for route in airplane.successes:
        assert len(route) <= airplane.depth and len(route.steps) == len(route)
        assert env_outcomes(airplane, route.actions) == [False] * (len(route) - 1) + [True]
    assert airplane.failures and not any(r.success for r in airplane.failures)
    for route in airplane.failures:
        assert not any(env_outcomes(airplane, route.actions))


def test_routes_include_other_ways_than_the_golden_one(airplane: Exploration) -> None:
    """Tapping the Airplane mode row instead of its switch, or a detour first, are routes."""
    steps = [" | ".join(r.steps) for r in airplane.successes]
    assert airplane.golden.steps[-1] == "tap 'OFF' of 'Airplane mode'"
    assert any(s.endswith("tap 'Airplane mode OFF'") for s in steps), steps
    assert any(len(r) > len(airplane.golden) for r in airplane.successes)


def test_exploring_twice_gives_the_same_routes(airplane: Exploration) -> None:
    again = explore("settings-turn-airplane-mode", seed=3, config=SMALL)
    first = airplane
    assert [r.actions for r in first.successes] == [r.actions for r in again.successes]
    assert [r.actions for r in first.failures] == [r.actions for r in again.failures]
    assert first.states == again.states and first.transitions == again.transitions
    other_seed = explore("settings-turn-airplane-mode", seed=4, config=TINY)
    assert other_seed.seed == 4 and other_seed.golden.success


def test_budget_is_reported(airplane: Exploration) -> None:
    assert not airplane.exhausted and airplane.expanded <= SMALL.max_states
    tiny = explore("settings-open", seed=0, config=ExploreConfig(margin=0, time_budget=600))
    assert tiny.exhausted and tiny.depth == len(tiny.golden) == 1
    assert tiny.routes_exact and tiny.routes_found == len(tiny.successes) >= 1


def test_exploration_round_trips_through_json(airplane: Exploration) -> None:
    data = json.loads(json.dumps(airplane.to_json()))
    assert Exploration.from_json(data) == airplane
    for broken in ({**data, "golden": None}, {k: v for k, v in data.items() if k != "successes"},
                   {**data, "failures": [{"actions": [{"type": "FLY"}], "steps": ["x"], "success": False}]},
                   {**data, "surprise": 1}):
        with pytest.raises(FormatError, match="not an exploration"):
            Exploration.from_json(broken)


def test_state_key_ignores_the_clock_and_overscroll() -> None:
    task = simulator_tasks()["settings-turn-airplane-mode"]
    phone = start_device(task, 0, "pixel-6", "none")
    key = state_key(phone)
    phone.runtime.tick()  # a minute later, same state
    assert state_key(phone) == key
    phone.perform(Action.swipe(0.5, 0.4, 0.5, 0.7))  # scroll up at the top of the list: nothing moves
    assert state_key(phone) == key
    phone.perform(Action.swipe(0.5, 0.7, 0.5, 0.4))  # scroll down: another state
    assert state_key(phone) != key


def test_moves_type_only_into_a_focused_field() -> None:
    task = simulator_tasks()["settings-turn-airplane-mode"]
    phone = start_device(task, 0, "pixel-6", "none")
    kinds = {m.action.action_type for m in moves(phone.observe(screenshot=False).hierarchy, ("wifi",))}
    assert ActionType.TYPE not in kinds and ActionType.ENTER not in kinds
    assert {ActionType.CLICK, ActionType.SWIPE, ActionType.BACK, ActionType.HOME} <= kinds
    search = next(m for m in moves(phone.observe(screenshot=False).hierarchy, ()) if m.label.startswith("tap 'Search settings"))
    phone.perform(search.action)
    typed = [m for m in moves(phone.observe(screenshot=False).hierarchy, ("wifi",)) if m.action.text == "wifi"]
    assert typed and any(m.action.action_type is ActionType.ENTER
                         for m in moves(phone.observe(screenshot=False).hierarchy, ()))


def test_bad_config_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="margin"):
        ExploreConfig(margin=-1)
    with pytest.raises(ConfigError, match="time_budget"):
        ExploreConfig(time_budget=0)


def test_the_task_annotation_credits_its_routes_and_another_task_does_not(airplane: Exploration) -> None:
    verdicts = judge_routes(airplane)
    s = score(verdicts)
    assert s.successes == len(airplane.successes) and s.failures == len(airplane.failures)
    assert s.recall == 1.0 and s.false_credits == 0 and s.early == 0 and s.precision == 1.0
    assert all(v.right for v in verdicts)
    wrong = score(judge_routes(airplane, simulator_tasks()["settings-turn-off-wifi"].annotation))
    assert wrong.credited == 0 and wrong.recall == 0.0


def test_wifi_row_route_is_credited() -> None:
    """The issue's example: tapping the Wi-Fi row (not its switch) turns Wi-Fi off, and the
    annotation describes that state, so the matcher credits it."""
    found = explore("settings-turn-off-wifi", seed=0, config=ExploreConfig(max_states=120, time_budget=600,
                                                                            max_routes=40, max_failures=10))
    rows = [r for r in found.successes if r.steps[-1].startswith("tap 'Wi‑Fi")]
    assert rows, [r.steps for r in found.successes]
    verdicts = judge_routes(found)
    assert all(v.right for v in verdicts), [(v.route.steps, v.credited_at) for v in verdicts if not v.right]


def test_cli_explore(tmp_path, capsys) -> None:
    out = tmp_path / "routes.json"
    code = main(["explore", "LlamaTouch/settings-turn-airplane-mode-v0", "--max-states", "40", "--routes", "2",
                 "--failures", "2", "--check", "--out", str(out), "--seed", "1"])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "recall 100.0%, precision 100.0%" in text and "successful routes:" in text and "[credited]" in text
    found = Exploration.from_json(json.loads(out.read_text(encoding="utf-8")))
    assert found.task == "settings-turn-airplane-mode" and found.seed == 1 and len(found.successes) == 2


@pytest.mark.parametrize("argv, message", [
    (["explore", "no-such-task"], "no-such-task"),
    (["explore", "settings-*"], "name one"),
])
def test_cli_explore_rejects_bad_tasks(argv, message, capsys) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_explore_rejects_bad_budgets(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["explore", "settings-open", "--time-budget", "0"])
    assert exit_.value.code == 2
    assert "expected seconds" in capsys.readouterr().err


def test_many_routes_are_sampled_uniformly_not_listed() -> None:
    """Past the enumeration limit, routes are drawn by path counts; each still replays as found."""
    found = explore("settings-turn-airplane-mode", seed=3,
                    config=ExploreConfig(max_states=200, time_budget=600, max_routes=6, max_failures=2,
                                         enumeration_limit=3))
    assert not found.routes_exact and found.routes_found == 3
    assert len(found.successes) >= 4 and len({r.actions for r in found.successes}) == len(found.successes)
    for route in found.successes:
        assert env_outcomes(found, route.actions) == [False] * (len(route) - 1) + [True]
