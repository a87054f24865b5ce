"""The action sets of ``gym.make(..., actions=...)``: the ``-v0`` envs keep LlamaTouch's
eight types (their spaces, and so every trained policy, unchanged); ``actions="all"``
adds AndroidWorld's long press, double tap, open app, wait and answer, and the policy
presets offer long presses and waiting exactly then."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mobile_gym
from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import ConfigError
from mobile_gym.wrappers import DiscreteElementActions, GridTaps, ScreenPixels

TASK = "LlamaTouch/settings-open-v0"


def test_v0_spaces_are_as_they_were() -> None:
    env = gym.make(TASK)
    assert env.action_space["action_type"] == gym.spaces.Discrete(8)
    assert DiscreteElementActions(gym.make(TASK)).action_space == gym.spaces.Discrete(70)
    assert GridTaps(ScreenPixels(gym.make(TASK))).action_space == gym.spaces.Discrete(8 * 4 + 6)
    assert mobile_gym.policy_env("settings-open").action_space == gym.spaces.Discrete(70)


def test_all_actions_pass_check_env_and_random_samples_never_raise() -> None:
    env = gym.make(TASK, actions="all")
    assert env.action_space["action_type"] == gym.spaces.Discrete(13)
    check_env(env.unwrapped)
    env.action_space.seed(3)
    env.reset(seed=0)
    kinds = set()
    for _ in range(60):  # random app names to open, answers, waits: steps, never exceptions
        sample = env.action_space.sample()
        kinds.add(int(sample["action_type"]))
        *_, terminated, truncated, info = env.step(sample)
        if terminated or truncated:
            env.reset()
    assert {8, 9, 10, 11, 12} <= kinds


def test_bad_action_set_is_named_at_make() -> None:
    with pytest.raises(ConfigError, match="actions must be one of 'basic', 'all'"):
        gym.make(TASK, actions="androidworld")


def test_answer_is_in_info_and_does_not_end_the_episode() -> None:
    env = gym.make(TASK, actions="all")
    _, info = env.reset(seed=0)
    assert info["answer"] is None and info["action_error"] is None
    _, _, terminated, _, info = env.step({"action_type": int(ActionType.ANSWER), "text": "Android 14"})
    assert info["answer"] == "Android 14" and not terminated and info["steps"] == 1
    assert env.step(Action.back())[-1]["answer"] == "Android 14"  # the last answer stands
    _, info = env.reset(seed=0)
    assert info["answer"] is None


def test_an_app_that_is_not_installed_is_a_step_that_did_nothing() -> None:
    env = gym.make(TASK, actions="all")
    obs, _ = env.reset(seed=0)
    obs2, reward, terminated, _, info = env.step(Action.open_app("Gmial"))
    assert "Gmail" in info["action_error"] and "Gmial" in info["action_error"]
    assert obs2["view_hierarchy"] == obs["view_hierarchy"] and info["steps"] == 1 and not terminated
    for blank in ("", "  "):  # in the space too (texts may be empty): refused, never raised
        info = env.step({"action_type": int(ActionType.OPEN_APP), "text": blank})[-1]
        assert info["action_error"].startswith(f"cannot open app {blank!r}")
    _, _, _, _, info = env.step(Action.open_app("settings"))
    assert info["action_error"] is None and info["activity"].startswith("com.android.settings/")


def test_element_preset_offers_long_presses_and_wait_when_the_env_does() -> None:
    env = DiscreteElementActions(gym.make(TASK, actions="all"))
    _, info = env.reset(seed=0)
    k, extras = env.max_elements, env.extras
    assert extras[-1] == "wait" and env.action_space.n == 2 * k + len(extras) + env.max_phrases
    first = k + len(extras) + env.max_phrases  # the first long-press slot
    mask = info["action_mask"]
    elements = env.elements
    assert mask[first:first + len(elements)].all() and not mask[first + len(elements):].any()
    settings = next(e.index for e in elements if e.label == "Settings")
    assert env.describe(first + settings) == f"long press {settings} Settings"
    sent = env.action(first + settings)
    assert sent == Action.long_press(*elements[settings].point)
    assert env.index_of(sent) == first + settings and env.index_of(Action.wait()) == k + len(extras) - 1
    assert env.index_of(Action.click(*elements[settings].point)) == settings
    # a -v0 env's preset has no such slot, and says so
    assert DiscreteElementActions(gym.make(TASK)).index_of(sent) is None


def test_element_preset_over_all_actions_passes_sb3s_checker() -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    from mobile_gym.wrappers import ElementFeatures, TrimInfo

    env = TrimInfo(ElementFeatures(DiscreteElementActions(gym.make(TASK, actions="all", observation="xml"))))
    sb3_check_env(env, warn=False)
    obs, _ = env.reset(seed=0)
    assert np.asarray(env.get_wrapper_attr("action_masks")()).shape == (env.action_space.n,)


def test_the_matchers_click_is_a_tap_never_a_long_press() -> None:
    """LlamaTouch's ``click`` checkpoint is a tap: a long press (or a double tap) at the
    very point the golden path taps leaves it unmatched."""
    import copy

    from mobile_gym.agents import OracleAgent

    env = gym.make("LlamaTouch/settings-set-disturb-v0", dynamics="none")
    obs, info = env.reset(seed=0)
    agent = OracleAgent("settings-set-disturb")
    while not info["success"]:  # its last checkpoint is click<Turn on now>
        before, matched = copy.deepcopy(env), info["matched"]
        action = agent.act(obs, info)
        obs, _, _, _, info = env.step(action)
    assert action.action_type is ActionType.CLICK
    for other in (Action.long_press(*action.touch), Action.double_tap(*action.touch)):
        pressed = copy.deepcopy(before).step(other)[-1]
        assert not pressed["success"] and pressed["matched"] == matched != info["matched"], other
    assert copy.deepcopy(before).step(action)[-1]["success"]  # the tap itself, on the copy


def test_essential_states_are_recorded_on_a_phone_like_the_envs() -> None:
    """The long-press UIs of ``actions="all"`` make Google Tasks' rows long-clickable, a
    flag ``exact`` compares: the task's essential state is recorded on such a phone too,
    so the oracle solves it there as on the ``-v0`` phone."""
    from mobile_gym.agents import OracleAgent
    from mobile_gym.env import make_env

    task = "tasks-star-task2"
    for actions in ("basic", "all"):
        env = make_env(task, actions=actions)
        obs, info = env.reset(seed=1)
        oracle = OracleAgent(task)
        for _ in range(12):
            obs, _, terminated, _, info = env.step(oracle.act(obs, info))
            if terminated:
                break
        assert info["success"], actions
    plain, pressed = env.task.annotation, env.task.annotation_for(True)
    assert plain is env.task.annotation_for(False) and pressed is not plain
    assert env.annotation is pressed
