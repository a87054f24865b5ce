"""Agents through their public interface, on the simulated phone."""

from __future__ import annotations

import pytest

from mobile_gym.actions import Action, ActionType
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
    assert set(mixed) == set(ActionType)  # every kind shows up in a long run


@pytest.mark.parametrize("weights", [{}, {ActionType.CLICK: -1.0}, {ActionType.BACK: 0.0}])
def test_bad_weights_are_rejected(weights) -> None:
    with pytest.raises(ValueError):
        RandomAgent(weights=weights)
