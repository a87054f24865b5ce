"""The hierarchy a simulated frame builds from its own views (no XML parse): the same
nodes as the parse of its dump, the same xpaths, pickles and XML; and the values shared
by screens whose app windows are the same (a policy's masks, taps and features) equal
those worked out from a fresh parse of each screen."""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest

import mobile_gym
from mobile_gym.actions import Action
from mobile_gym.tasks.suite import select_simulator_tasks
from mobile_gym.ui.elements import actionable_elements, focused_field
from mobile_gym.ui.hierarchy import ViewHierarchy
from mobile_gym.wrappers.element_features import words
from phone import assert_same_nodes

HOSTILE_TEXT = "héllo\tw\x00<&\"' ✓ \U0001F600"


def walk(env: gym.Env, steps: int, seed: int):
    """Random raw actions (taps, scrolls, BACK, typing hostile text), yielding after each."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(steps):
        r = rng.random()
        action = (Action.back() if r < 0.1 else Action.swipe(0.5, 0.7, 0.5, 0.4) if r < 0.2
                  else Action.type_text(HOSTILE_TEXT) if r < 0.25
                  else Action.click(float(rng.uniform(0.02, 0.98)), float(rng.uniform(0.02, 0.98))))
        _, _, terminated, truncated, _ = env.step(action)
        yield
        if terminated or truncated:
            env.reset()


@pytest.mark.parametrize("profile", ["pixel-6", "pixel-3", "budget-720p"])
def test_every_task_walk_builds_the_nodes_its_dump_parses_to(profile: str) -> None:
    """Each screen's nodes are made one action later, as a wrapper may read an older
    screen: the views they come from are the frame's own, untouched by later frames."""
    screens = 0
    for task in select_simulator_tasks("*"):
        env = gym.make(task.env_id, profile=profile, dynamics="default").unwrapped
        previous = None
        for _ in walk(env, 25, seed=3):
            if previous is not None:
                assert_same_nodes(*previous)
                screens += 1
            frame = env.device.runtime.frame()
            previous = (frame.hierarchy(), ViewHierarchy(frame.xml))
    assert screens >= 24 * 30


def test_a_built_hierarchy_answers_xpaths_pickles_and_writes_xml_as_the_parse() -> None:
    env = gym.make("LlamaTouch/settings-turn-off-wifi-v0").unwrapped
    env.reset(seed=0)
    frame = env.device.runtime.frame()
    built, parsed = frame.hierarchy(), ViewHierarchy(frame.xml)
    assert built.to_xml() == parsed.to_xml()
    for expression in ('//*[@text="Settings"]', "//node[@clickable='true']", "//android.widget.TextView",
                       '//*[@resource-id="com.google.android.apps.nexuslauncher:id/workspace"]/*'):
        found, expected = built.xpath(expression), parsed.xpath(expression)
        assert found and [n.order for n in found] == [n.order for n in expected]
        assert all(n in built.nodes for n in found)  # nodes of this hierarchy, not of a parse
    for b, p in zip(built.nodes, parsed.nodes):
        assert (b.xpath, b.absolute_xpath) == (p.xpath, p.absolute_xpath)
    assert_same_nodes(pickle.loads(pickle.dumps(built)), parsed)
    assert env.hierarchy.nodes  # the env's screen is the frame's own hierarchy
    assert_same_nodes(env.hierarchy, parsed)


def test_screens_differing_only_in_the_status_bar_share_their_values() -> None:
    """The clock ticks every twelve actions; the launcher stays the same for the app:
    its shared values are one dict, while each screen keeps its own nodes."""
    env = gym.make("LlamaTouch/settings-turn-off-wifi-v0", dynamics="default").unwrapped
    env.reset(seed=0)
    first = env.hierarchy
    clock = first.find(resource_id="com.android.systemui:id/clock").text
    for _ in range(13):  # taps on the empty status bar change nothing but time
        env.step(Action.click(0.5, 0.005))
    later = env.hierarchy
    assert later.find(resource_id="com.android.systemui:id/clock").text != clock
    assert later is not first and later.shared is first.shared
    assert later.derived is not first.derived
    assert actionable_elements(later)[0].node in later.nodes
    env.step(Action.swipe(0.5, 0.8, 0.5, 0.3))  # the app drawer: another screen for the app
    assert env.hierarchy.shared is not first.shared


@pytest.mark.parametrize("task", ["settings-turn-off-wifi", "clock-set-alarm-9am", "bestbuy-empty-cart"])
def test_shared_masks_taps_and_features_equal_a_fresh_parse(task: str) -> None:
    env = mobile_gym.policy_env(task, "elements", dynamics="default", trim_info=False)
    actions = env.env  # DiscreteElementActions, under ElementFeatures
    instruction = env.unwrapped.task.instruction
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    screens_by_shared: dict[int, set[int]] = {}
    for _ in range(150):
        current = env.unwrapped.hierarchy
        screens_by_shared.setdefault(id(current.shared), set()).add(id(current))
        fresh = ViewHierarchy(current.to_xml())  # parsed: nothing shared
        elements = actionable_elements(fresh)[:actions.max_elements]
        mask = np.zeros(actions.action_space.n, dtype=bool)
        mask[:len(elements)] = True
        mask[actions.max_elements:actions.max_elements + len(actions.extras)] = True
        if focused_field(elements) is not None:
            start = actions.max_elements + len(actions.extras)
            mask[start:start + len(actions.phrases)] = True
        np.testing.assert_array_equal(info["action_mask"], mask)
        np.testing.assert_array_equal(actions.action_masks(), mask)
        for k, e in enumerate(elements):
            assert actions.action(k) == Action.click(*e.point)
        rows = env._rows(fresh, instruction, frozenset(words(instruction)))
        np.testing.assert_array_equal(obs["elements"], rows.reshape(-1))
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, info = env.reset()
    assert max(map(len, screens_by_shared.values())) > 1  # some values served several screens
