"""Agents through their public interface, on the simulated phone."""

from __future__ import annotations

import pytest

from mobile_gym.actions import ACTION_SETS, Action, ActionType
from mobile_gym.agents import Agent, RandomAgent
from mobile_gym.simulator import SimulatedDevice


def observation(phone: SimulatedDevice) -> dict:
    state = phone.observe(screenshot=False)
    return {"view_hierarchy": state.xml, "instruction": "Turn off wifi"}


def rollout(agent: Agent, seed: int, steps: int = 40) -> list[Action]:
    phone = SimulatedDevice(seed=seed, dynamics="default")
    agent.reset(seed)
    actions = []
    for _ in range(steps):
        action = agent.act(observation(phone), {})
        actions.append(action)
        if not action.ends_episode:
            phone.perform(action)
    return actions


def test_random_agent_is_seeded() -> None:
    agent = RandomAgent()
    assert rollout(agent, 1) == rollout(agent, 1)
    assert rollout(agent, 1) != rollout(agent, 2)


def test_random_agent_is_seeded_per_task_and_seed() -> None:
    from mobile_gym.env import resolve_task
    from mobile_gym.runner import load_agent

    wifi = RandomAgent(seed=0, task="settings-turn-off-wifi")
    first = rollout(wifi, 0)
    assert rollout(wifi, 0) == first  # reset(seed) keeps the task
    assert rollout(RandomAgent(task="LlamaTouch/settings-turn-off-wifi-v0"), 0) == first  # env id = task id
    assert rollout(RandomAgent(task=resolve_task("settings-turn-off-wifi")), 0) == first  # or the SimTask
    assert rollout(RandomAgent(task="settings-turn-airplane-mode"), 0) != first  # same seed, other task
    assert rollout(wifi, 1) != first
    # the runner hands the agent its task, so seed 0 is not one action stream for every task
    streams = {t: rollout(load_agent("random", resolve_task(t), 0), 0, 60)
               for t in ("settings-turn-off-wifi", "settings-turn-airplane-mode", "clock-set-timer")}
    assert len({tuple(a) for a in streams.values()}) == 3 and streams["settings-turn-off-wifi"] == rollout(wifi, 0, 60)


def test_element_aware_taps_land_on_clickable_nodes() -> None:
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    agent = RandomAgent(seed=4, weights={ActionType.CLICK: 1.0})
    obs = observation(phone)
    W, H = phone.screen_size
    hierarchy = phone.observe(screenshot=False).hierarchy
    for _ in range(50):
        action = agent.act(obs, {})
        x, y = action.touch
        assert hierarchy.clickable_at(int(x * W), int(y * H)) is not None, action


def test_blind_taps_go_anywhere_and_weights_choose_the_kinds() -> None:
    phone = SimulatedDevice(seed=0)
    blind = RandomAgent(seed=0, element_aware=False, weights={ActionType.CLICK: 1.0})
    points = {blind.act(observation(phone), {}).touch for _ in range(30)}
    assert len(points) == 30
    only_back = RandomAgent(seed=0, weights={ActionType.BACK: 1.0})
    assert {only_back.act({}, {}).action_type for _ in range(20)} == {ActionType.BACK}
    mixed = [a.action_type for a in rollout(RandomAgent(), 0, 300)]
    assert set(mixed) == set(ACTION_SETS["basic"])  # every kind of LlamaTouch's set shows up in a long run


@pytest.mark.parametrize("weights", [{}, {ActionType.CLICK: -1.0}, {ActionType.BACK: 0.0}])
def test_bad_weights_are_rejected(weights) -> None:
    with pytest.raises(ValueError):
        RandomAgent(weights=weights)


# -- the near-oracle agents the faithfulness benchmark uses ----------------------------------
def play(name: str, task: str, seed: int, dynamics: str = "none") -> tuple[list[Action], list[bool]]:
    """An episode of agent ``name`` (loaded as the runner loads it): its actions and the
    oracle's verdict after each."""
    import gymnasium as gym

    from mobile_gym.env import resolve_task
    from mobile_gym.runner import load_agent

    sim_task = resolve_task(task)
    env = gym.make(sim_task.env_id, dynamics=dynamics, terminate_on_success=False)
    agent = load_agent(name, sim_task, seed)
    obs, info = env.reset(seed=seed)
    agent.reset(seed)
    actions, oracle = [], []
    while True:
        action = agent.act(obs, info)
        obs, _, terminated, truncated, info = env.step(action)
        actions.append(action)
        oracle.append(info["oracle_success"])
        if terminated or truncated:
            return actions, oracle


def test_stop_short_never_finishes_the_task() -> None:
    actions, oracle = play("stop-short", "settings-turn-off-wifi", 0)
    assert actions[-1] == Action.complete() and len(actions) == 4  # 3 of the 4 golden taps
    assert not any(oracle)


def test_undo_last_taps_the_switch_again() -> None:
    actions, oracle = play("undo-last", "settings-turn-off-wifi", 0)
    assert actions[-1] == Action.complete() and actions[-2] == actions[-3]  # the switch, twice
    assert oracle[-3] and not oracle[-1]  # done, then undone


def test_break_after_taps_around_after_the_task() -> None:
    actions, oracle = play("break-after", "settings-turn-airplane-mode", 1)
    assert oracle.index(True) == 1 and len(actions) == 2 + 3 + 1
    assert all(a.action_type is ActionType.CLICK for a in actions[2:5]) and actions[-1] == Action.complete()


def test_sibling_does_another_task_of_the_same_app() -> None:
    from mobile_gym.agents import SiblingTaskAgent

    agent = SiblingTaskAgent("clock-set-timer", seed=3)
    assert agent.sibling.app == "clock" and agent.sibling.id != "clock-set-timer"
    assert agent.oracle.path == agent.sibling.golden_path
    assert {SiblingTaskAgent("clock-set-timer", seed=s).sibling.id for s in range(12)} != {agent.sibling.id}


def test_detours_are_seeded_undone_and_still_succeed() -> None:
    oracle_actions, _ = play("oracle", "clock-trace-tokyo-time", 0, dynamics="default")
    runs = {seed: play("detour", "clock-trace-tokyo-time", seed, dynamics="default") for seed in (0, 1, 3, 4, 18)}
    assert play("detour", "clock-trace-tokyo-time", 3, dynamics="default") == runs[3]
    assert all(actions != oracle_actions for actions, _ in runs.values())
    assert all(any(oracle) for _, oracle in runs.values())
    assert any(Action.back() in actions for actions, _ in runs.values())
    typed = [a.text for a in runs[18][0] if a.action_type is ActionType.TYPE]
    assert typed[0] != "Tokyo" and typed[-1] == "Tokyo"  # a wrong query, cleared and retyped


def test_element_centre_taps_the_row_not_the_switch_and_the_matcher_credits_it() -> None:
    """The Wi‑Fi row's centre turns Wi‑Fi off as its switch does: another valid route,
    which the task's checkpoints (states, not a click on the switch) credit."""
    from mobile_gym.env import resolve_task
    from mobile_gym.runner import run_episode

    actions, oracle = play("element-centre", "settings-turn-off-wifi", 0)
    golden, _ = play("oracle", "settings-turn-off-wifi", 0)
    assert actions[3] != golden[3] and actions[3].touch[0] < 0.8 < golden[3].touch[0]  # the row, left of the switch
    assert oracle[3]
    record = run_episode(resolve_task("settings-turn-off-wifi"), "element-centre", 0)
    assert record["success"] and record["oracle_success"]


@pytest.mark.slow
def test_every_simulator_task_credits_the_element_centre_route() -> None:
    from mobile_gym.env import resolve_task
    from mobile_gym.runner import run_episode
    from mobile_gym.tasks.suite import select_simulator_tasks

    for task in select_simulator_tasks("*"):
        record = run_episode(resolve_task(task.id), "element-centre", 1, env_kwargs={"profile": "budget-720p"})
        assert record["oracle_success"] and record["success"], (task.id, record["error"])


def test_route_agent_plays_its_route_then_completes() -> None:
    from mobile_gym.agents import RouteAgent

    route = (Action.click(0.5, 0.5), Action.back())
    agent = RouteAgent(route=route)
    played = [agent.act({}, {}) for _ in range(4)]
    assert played[:2] == list(route) and all(a.action_type is ActionType.COMPLETE for a in played[2:])
    agent.reset(1)
    assert agent.act({}, {}) == route[0]
