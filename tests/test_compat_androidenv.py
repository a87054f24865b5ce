"""`mobile_gym.compat.androidenv`: our tasks as DeepMind AndroidEnv environments. Code
written for AndroidEnv (its random agent, its wrappers) runs on them unchanged, the
finger's TOUCH/LIFT/REPEAT stream makes the gestures a phone would read from it, and the
oracle's golden paths sent that way solve the tasks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("android_env", reason="the androidworld extra: pip install 'mobile-gym[androidworld]'")

import dm_env  # noqa: E402
from android_env.components import specs as android_specs
from android_env.wrappers.discrete_action_wrapper import DiscreteActionWrapper
from android_env.wrappers.float_pixels_wrapper import FloatPixelsWrapper
from android_env.wrappers.image_rescale_wrapper import ImageRescaleWrapper

from mobile_gym.actions import TAP_DISTANCE, Action
from mobile_gym.compat import androidenv
from mobile_gym.compat.androidenv import MobileAndroidEnv, load, parse_action, touch_actions
from mobile_gym.errors import ConfigError, InvalidActionError, MissingExtraError

ROOT = Path(__file__).resolve().parents[1]
WIFI = "settings-turn-off-wifi"  # taps, and at seed 2 a loading screen the oracle waits out
STARRED = "tasks-view-starred"  # a swipe, taps, BACK (the navigation bar's button)
SEARCH = "gmail-search-starred-emails"  # typed text: execute_adb_call
SMALL = (54, 120)  # pixels drawn small: the tests look at shapes, not at what they show
TOUCH, LIFT, REPEAT = 0, 1, 2


def _check_module():
    spec = importlib.util.spec_from_file_location("androidenv_check", ROOT / "benchmarks" / "androidenv_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _check_module()


def act(kind: int, x: float = 0.0, y: float = 0.0) -> dict[str, np.ndarray]:
    return {"action_type": np.array(kind, np.int32), "touch_position": np.array([x, y], np.float32)}


def assert_valid(timestep: dm_env.TimeStep, env) -> None:
    """The timestep conforms to the env's specs, with android_env's FIRST (reward 0.0,
    discount 0.0: not dm_env's None)."""
    assert isinstance(timestep, dm_env.TimeStep) and isinstance(timestep.step_type, dm_env.StepType)
    observation_spec = env.observation_spec()
    assert set(timestep.observation) == set(observation_spec)
    for key, spec in observation_spec.items():
        spec.validate(timestep.observation[key])
    if timestep.first():
        assert timestep.reward == 0.0 and timestep.discount == 0.0
    else:
        env.reward_spec().validate(np.asarray(timestep.reward, float))
        env.discount_spec().validate(np.asarray(timestep.discount, float))


# ---------------------------------------------------------------------- specs and loops
def test_specs_are_android_envs_base_specs() -> None:
    with load(WIFI, seed=0) as env:
        action_spec, base = env.action_spec(), android_specs.base_action_spec()
        assert action_spec.keys() == base.keys() and action_spec["action_type"].num_values == 3
        assert action_spec["touch_position"] == base["touch_position"]
        assert env.observation_spec() == android_specs.base_observation_spec(height=2400, width=1080)
        assert env.observation_spec() is not env.observation_spec()  # FloatPixelsWrapper writes into it
        timestep = env.reset()
        assert_valid(timestep, env)
        pixels = timestep.observation["pixels"]
        assert pixels.shape == (2400, 1080, 3) and pixels.dtype == np.uint8
        assert timestep.observation["timedelta"] == 0 and list(timestep.observation["orientation"]) == [1, 0, 0, 0]
    with load(WIFI, pixels_size=SMALL) as env:  # drawn at that size, not rescaled
        assert env.observation_spec()["pixels"].shape == (120, 54, 3)
        assert env.reset().observation["pixels"].shape == (120, 54, 3)


def test_androids_wrappers_stack_on_it_and_run() -> None:
    """DiscreteActionWrapper, ImageRescaleWrapper and FloatPixelsWrapper, as on AndroidEnv."""
    np.random.seed(0)  # DiscreteActionWrapper's noise is numpy's global generator
    env = FloatPixelsWrapper(ImageRescaleWrapper(DiscreteActionWrapper(load(STARRED, seed=1, pixels_size=(108, 240)),
                                                                       action_grid=(6, 4)), zoom_factors=(0.5, 0.5)))
    pixels_spec = env.observation_spec()["pixels"]
    assert pixels_spec.shape == (120, 54, 3) and pixels_spec.dtype == np.float32
    num_actions = env.action_spec()["action_id"].num_values
    assert num_actions == 6 * 4 * 3
    timestep = env.reset()
    kinds = []
    for _ in range(300):
        assert_valid(timestep, env)
        kinds.append(timestep.step_type)
        timestep = env.step({"action_id": np.random.randint(num_actions)})
    assert dm_env.StepType.LAST in kinds and kinds.count(dm_env.StepType.FIRST) >= 2  # ended and restarted
    assert float(timestep.observation["pixels"].max()) <= 1.0
    assert env.stats()["episodes"] == kinds.count(dm_env.StepType.FIRST) + timestep.first()
    env.close()


def test_android_envs_random_agent_runs_for_thousands_of_steps() -> None:
    """examples/run_random_agent.py's loop: a random action per action spec each step."""
    result = check.random_agent([WIFI, STARRED], 3000, seed=0, pixels_size=SMALL)
    assert result["steps"] == 3000 and result["exceptions"] == 0, result["errors"]
    assert result["episodes"] >= 20


def test_every_timestep_of_random_episodes_is_valid_and_episodes_restart() -> None:
    rng = np.random.default_rng(1)
    with load(WIFI, seed=1, pixels_size=SMALL) as env:
        spec = env.action_spec()
        previous = env.reset()
        for _ in range(600):
            timestep = env.step(check.random_action(spec, rng))
            assert_valid(timestep, env)
            # FIRST comes after LAST and only then (android_env's auto-reset)
            assert timestep.first() == previous.last()
            if timestep.last():
                assert timestep.discount == (0.0 if env.gym_info["success"] else 1.0)
            previous = timestep


# ---------------------------------------------------------------------- the oracle
@pytest.mark.parametrize("task, seed", [(WIFI, 2), (STARRED, 0)])
def test_the_oracles_touches_and_lifts_solve_the_task(task: str, seed: int) -> None:
    with load(task, seed=seed, pixels_size=SMALL) as env:
        result = check.oracle_episode(env, task)
        assert result["solved"] and not result["adb"], result
        assert env.task_extras()["success"] and env.task_extras()["progress"] == 1.0
        assert env.stats()["reset_count_episode_end"] == 1
        if task == WIFI:  # its loading screen, waited out with LIFTs
            assert env.stats()["waits"] >= 1
        else:
            assert env.stats()["swipes"] >= 1


def test_typed_text_goes_over_execute_adb_call_and_its_reward_comes_with_the_next_timestep() -> None:
    with load(SEARCH, seed=0, pixels_size=SMALL) as env:
        result = check.oracle_episode(env, SEARCH)
        assert result["solved"] and "TYPE" in result["adb"], result
        assert env.stats()["adb_inputs"] >= 1


def test_an_adb_input_that_succeeds_ends_the_episode_at_the_next_step_whatever_it_is() -> None:
    from android_env.proto import adb_pb2

    with load(WIFI, seed=0, pixels_size=SMALL) as env:
        env.reset()
        agent = check.OracleAgent(WIFI)
        while True:
            action = agent.act(env.gym_observation, env.gym_info)
            if agent.done:  # the last tap, sent as adb's
                break
            for raw in check.oracle_raw_actions(env, action):
                assert not env.step(raw).last()
        w, h = env.gym_env.device.screen_size
        x, y = round(action.touch[0] * w), round(action.touch[1] * h)
        response = env.execute_adb_call(adb_pb2.AdbRequest(tap=adb_pb2.AdbRequest.Tap(x=x, y=y)))
        assert response.status == adb_pb2.AdbResponse.Status.OK
        assert env.gym_info["success"]
        steps = env.stats()["episode_gym_steps"]
        timestep = env.step(act(TOUCH, 0.5, 0.5))  # not carried out: the episode is over
        assert timestep.last() and timestep.discount == 0.0 and timestep.reward == 1.0
        assert env.stats()["episode_gym_steps"] == steps
        assert env.step(act(LIFT)).first()  # and the next one starts a new episode


def test_adb_calls_before_the_first_reset_boot_the_phone_without_moving_the_seeds() -> None:
    from android_env.proto import adb_pb2

    with load(WIFI, seed=5, pixels_size=SMALL) as env, load(WIFI, seed=5, pixels_size=SMALL) as twin:
        request = adb_pb2.AdbRequest(get_current_activity=adb_pb2.AdbRequest.GetCurrentActivity())
        response = env.execute_adb_call(request)
        assert response.status == adb_pb2.AdbResponse.Status.OK and response.get_current_activity.full_activity
        assert np.array_equal(env.reset().observation["pixels"], twin.reset().observation["pixels"])


# ---------------------------------------------------------------------- gestures
def gestures(env: MobileAndroidEnv, raws: list[dict]) -> list[dm_env.TimeStep]:
    return [env.step(raw) for raw in raws]


def test_the_finger_stream_makes_taps_long_presses_and_swipes() -> None:
    with load(STARRED, seed=0, pixels_size=SMALL, max_episode_steps=100) as env:
        env.reset()
        gym_steps = env.stats()["episode_gym_steps"]

        def gesture(raws) -> str:
            nonlocal gym_steps
            timesteps = gestures(env, raws)
            assert all(t.mid() and t.reward == 0.0 for t in timesteps)
            assert env.stats()["episode_gym_steps"] == gym_steps + 1  # one gym step, on the LIFT
            gym_steps += 1
            return str(env.task_extras()["gesture"])

        assert gesture([act(TOUCH, 0.5, 0.5), act(LIFT, 0.9, 0.9)]) == "CLICK(0.500, 0.500)"  # LIFT's point ignored
        assert gesture([act(TOUCH, 0.5, 0.5)] * 2 + [act(LIFT)]) == "CLICK(0.500, 0.500)"
        assert gesture([act(TOUCH, 0.5, 0.5)] * 3 + [act(LIFT)]) == "LONG_PRESS(0.500, 0.500)"
        assert gesture([act(TOUCH, 0.5, 0.5), act(REPEAT, 0.1, 0.1), act(REPEAT), act(LIFT)]) \
            == "LONG_PRESS(0.500, 0.500)"  # REPEAT holds the finger where it is
        wiggle = 0.5 + TAP_DISTANCE / 2  # moved less than a tap's slack: still a tap
        assert gesture([act(TOUCH, 0.5, 0.5), act(TOUCH, wiggle, 0.5), act(LIFT)]) == "CLICK(0.500, 0.500)"
        assert gesture([act(TOUCH, 0.5, 0.8), act(TOUCH, 0.5, 0.6), act(TOUCH, 0.5, 0.3), act(LIFT)]) \
            == "SWIPE(0.500, 0.800 -> 0.500, 0.300)"  # first and last points
        assert gesture([act(LIFT)]) == "WAIT"  # the finger up: the phone's clock moves on
        assert gesture([act(REPEAT)]) == "WAIT"  # the LIFT again
        assert env.stats()["taps"] == 3 and env.stats()["long_presses"] == 2 and env.stats()["swipes"] == 1
        assert env.stats()["waits"] == 2


def open_at_a_long_clickable_row(env: MobileAndroidEnv):
    """Plays the oracle of STARRED until a long-clickable task row can be touched (the app
    open, its loading screen and popups gone); returns the row's centre."""
    from mobile_gym.ui.hierarchy import ViewHierarchy

    env.reset()
    agent = check.OracleAgent(STARRED)
    for _ in range(20):
        h = ViewHierarchy.of(env.gym_observation["view_hierarchy"])
        for row in h.find_all(resource_id="com.google.android.apps.tasks:id/task_item"):
            b = row.bounds
            x, y = (b.left + b.right) / 2, (b.top + b.bottom) / 2
            if row.flags["long-clickable"] and h.clickable_at(x, y) is row:
                w, h_ = env.gym_env.device.screen_size
                return x / w, y / h_
        for raw in check.oracle_raw_actions(env, agent.act(env.gym_observation, env.gym_info)):
            env.step(raw)
    raise AssertionError("no long-clickable task row came up")


def test_a_held_touch_is_the_gym_envs_long_press_and_not_a_tap() -> None:
    """On a long-clickable row (AndroidWorld's dynamics), a touch held for long_press_steps
    does what a LONG_PRESS does, which is not what a tap does."""
    screens = []
    for held in (3, 1):
        with load(STARRED, seed=4, pixels_size=SMALL) as env:
            x, y = open_at_a_long_clickable_row(env)
            gestures(env, [act(TOUCH, x, y)] * held + [act(LIFT)])
            assert str(env.task_extras()["gesture"]).startswith("LONG_PRESS" if held == 3 else "CLICK")
            screens.append(env.gym_observation["view_hierarchy"])
    assert screens[0] != screens[1]


def test_idle_lifts_do_nothing_with_wait_on_idle_false() -> None:
    with load(WIFI, seed=0, pixels_size=SMALL, wait_on_idle=False) as env:
        env.reset()
        for raw in (act(LIFT), act(REPEAT), act(LIFT)):
            timestep = env.step(raw)
            assert timestep.mid() and timestep.reward == 0.0
        assert env.stats()["episode_gym_steps"] == 0 and env.stats()["episode_steps"] == 3


def test_timedelta_is_the_simulated_step_and_zero_after_a_reset() -> None:
    with load(WIFI, seed=0, pixels_size=SMALL, step_seconds=0.05) as env:
        assert env.reset().observation["timedelta"] == 0
        timestep = env.step(act(TOUCH, 0.5, 0.5))
        assert timestep.observation["timedelta"] == 50_000 and timestep.observation["timedelta"].dtype == np.int64


# ---------------------------------------------------------------------- episodes
def test_step_on_a_fresh_env_and_after_last_resets_and_ignores_the_action() -> None:
    with load(WIFI, seed=0, pixels_size=SMALL, max_steps=3) as env:
        timestep = env.step(act(TOUCH, 0.5, 0.5))
        assert timestep.first() and env.stats()["episode_steps"] == 0 and env.raw_action == {}
        kinds = [env.step(act(TOUCH, 0.5, 0.5)).step_type for _ in range(3)]
        assert kinds == [dm_env.StepType.MID, dm_env.StepType.MID, dm_env.StepType.LAST]  # max_steps: 3 raw steps
        after = env.step(act(TOUCH, 0.5, 0.5))  # after LAST: a reset, the action ignored
        assert after.first() and env.stats()["episodes"] == 2 and env.stats()["episode_gym_steps"] == 0


def test_max_steps_truncates_with_discount_one() -> None:
    with load(WIFI, seed=0, pixels_size=SMALL, max_steps=2) as env:
        env.reset()
        assert env.step(act(TOUCH, 0.5, 0.5)).mid()
        timestep = env.step(act(TOUCH, 0.5, 0.5))
        assert timestep.last() and timestep.discount == 1.0 and timestep.reward == 0.0
        assert env.stats()["reset_count_max_duration_reached"] == 1


def test_the_gym_step_limit_counts_gym_steps() -> None:
    with load(WIFI, seed=0, pixels_size=SMALL) as env:
        assert env.max_episode_steps == 3 * 4 + 5  # the registered env's (gym.make's TimeLimit)
    with load(WIFI, seed=0, pixels_size=SMALL, max_episode_steps=2) as env:
        env.reset()
        assert env.step(act(LIFT)).mid()  # a WAIT: one gym step
        assert env.step(act(TOUCH, 0.5, 0.5)).mid()  # no gym step yet
        timestep = env.step(act(LIFT))
        assert timestep.last() and timestep.discount == 1.0


def test_a_seeded_env_is_deterministic() -> None:
    rng = np.random.default_rng(7)
    runs = []
    for _ in range(2):
        with load(STARRED, seed=11, pixels_size=SMALL) as env:
            spec = env.action_spec()
            actions = runs[0][0] if runs else [check.random_action(spec, rng) for _ in range(150)]
            timesteps = [env.reset()] + [env.step(a) for a in actions]
            runs.append((actions, [(t.step_type, t.reward, t.observation["pixels"].copy()) for t in timesteps]))
    (_, first), (_, second) = runs
    assert [t[:2] for t in first] == [t[:2] for t in second]
    assert all(np.array_equal(a[2], b[2]) for a, b in zip(first, second))
    assert len({a[2].tobytes() for a in first}) > 1  # the screens did change


def test_resets_draw_new_seeds_from_the_envs_seed() -> None:
    with load(STARRED, seed=3, pixels_size=SMALL) as a, load(STARRED, seed=3, pixels_size=SMALL) as b:
        xml_a = [a.reset() and a.gym_observation["view_hierarchy"] for _ in range(3)]
        xml_b = [b.reset() and b.gym_observation["view_hierarchy"] for _ in range(3)]
        assert xml_a == xml_b


# ---------------------------------------------------------------------- extensions
def test_task_extras_stats_raw_action_and_raw_observation() -> None:
    with load(WIFI, seed=0, pixels_size=SMALL) as env:
        timestep = env.reset()
        extras = env.task_extras()
        assert set(extras) == set(androidenv.EXTRAS)
        assert extras["progress"] == 0.0 and extras["success"] == np.False_ and extras["gesture"] == ""
        assert env.task_extras(latest_only=False)["progress"].shape == (1,)
        raw = act(TOUCH, 0.25, 0.5)
        env.step(raw)
        assert env.raw_action.keys() == raw.keys() and env.raw_action is not env.raw_action
        assert env.raw_observation.keys() == timestep.observation.keys()
        observation = env.step(act(LIFT)).observation
        observation["pixels"] = None  # what FloatPixelsWrapper does to the dict it gets
        assert env.raw_observation["pixels"] is not None
        assert env.stats()["episode_steps"] == 2 and env.stats()["taps"] == 1


def test_pixels_are_read_only_as_android_envs_emulator_pixels() -> None:
    with load(WIFI, seed=0, pixels_size=SMALL) as env:
        pixels = env.reset().observation["pixels"]
        with pytest.raises(ValueError):
            pixels[0, 0, 0] = 1


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize("action, words", [
    ([0, 0.5, 0.5], "a dict"),
    ({"touch_position": np.array([0.5, 0.5])}, "no 'action_type'"),
    ({"action_type": 0}, "TOUCH needs"),
    ({"action_type": 0, "touch_position": np.array([0.5, 0.5, 0.5])}, "shape (2,)"),
    ({"action_type": 0, "touch_position": np.array([np.nan, 0.5])}, "in [0, 1]"),
    ({"action_type": 0, "touch_position": np.array([1.5, 0.5])}, "in [0, 1]"),
    ({"action_type": 0, "touch_position": "middle"}, "shape (2,)"),
    ({"action_type": 3, "touch_position": np.array([0.5, 0.5])}, "key events"),
    ({"action_type": -1, "touch_position": np.array([0.5, 0.5])}, "TOUCH (0), LIFT (1) or REPEAT (2)"),
    ({"action_type": 0.5, "touch_position": np.array([0.5, 0.5])}, "TOUCH (0), LIFT (1) or REPEAT (2)"),
    ({"action_type": True, "touch_position": np.array([0.5, 0.5])}, "TOUCH (0), LIFT (1) or REPEAT (2)"),
    ({"action_type": np.array([0]), "touch_position": np.array([0.5, 0.5])}, "TOUCH (0), LIFT (1) or REPEAT (2)"),
    ({"action_type": 0, "touch_position": np.array([0.5, 0.5]), "keycode": 4}, "not in the action spec"),
])
def test_a_malformed_action_is_an_invalid_action_error_that_changes_nothing(action, words) -> None:
    with load(WIFI, seed=0, pixels_size=SMALL) as env:
        env.reset()
        with pytest.raises(InvalidActionError, match=None) as caught:
            env.step(action)
        assert words in str(caught.value)
        assert env.stats()["episode_steps"] == 0
        assert env.step(act(LIFT)).mid()  # the env goes on


def test_actions_android_env_sends_are_accepted() -> None:
    assert parse_action({"action_type": np.int32(1), "touch_position": np.array([0, 0])}) == (LIFT, (0.0, 0.0))
    assert parse_action({"action_type": np.array(2, np.uint8)}) == (REPEAT, None)  # RateLimitWrapper's REPEAT
    assert parse_action({"action_type": 0, "touch_position": [1.0, 0.0]}) == (TOUCH, (1.0, 0.0))


def test_touch_actions_refuse_what_no_finger_makes() -> None:
    with pytest.raises(InvalidActionError, match="no finger gesture"):
        touch_actions(Action.type_text("hello"))
    assert len(touch_actions(Action.long_press(0.5, 0.5), 4)) == 5


@pytest.mark.parametrize("kwargs, words", [
    ({"actions": "basic"}, "actions='all'"),
    ({"observation": "both"}, "observation='xml'"),
    ({"long_press_steps": 0}, "long_press_steps"),
    ({"step_seconds": 0}, "step_seconds"),
    ({"step_seconds": float("nan")}, "step_seconds"),
    ({"max_steps": 0}, "max_steps"),
    ({"max_episode_steps": -1}, "max_episode_steps"),
    ({"pixels_size": (2000, 100)}, "pixels_size"),
    ({"seed": -1}, "seed"),
    ({"wait_on_idle": "yes"}, "wait_on_idle"),
])
def test_bad_arguments_are_config_errors(kwargs, words) -> None:
    with pytest.raises(ConfigError, match=None) as caught:
        load(WIFI, **kwargs)
    assert words in str(caught.value)


def test_a_wrapped_gym_env_is_refused() -> None:
    import gymnasium as gym

    wrapped = gym.make(f"LlamaTouch/{WIFI}-v0")
    with pytest.raises(ConfigError, match="unwrapped"):
        MobileAndroidEnv(wrapped)
    wrapped.close()


def test_without_android_env_the_error_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "android_env", None)  # import android_env fails
    spec = importlib.util.spec_from_file_location("androidenv_without", androidenv.__file__)
    with pytest.raises(MissingExtraError, match=r"pip install 'mobile-gym\[androidworld\]'"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
