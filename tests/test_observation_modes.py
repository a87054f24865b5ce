"""Observation modes (``gym.make(id, observation="both"|"xml"|"screenshot", grayscale=...)``):
the keys, shapes and checks each mode promises, that a screenshot not observed is never
drawn, that modes observe the same episode, that ``render()`` gives the RGB screen in
every mode, and that wrappers needing a key the mode lacks say so when wrapped."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image

import mobile_gym
from mobile_gym.actions import Action
from mobile_gym.agents import RandomAgent
from mobile_gym.compat import AgentEnv
from mobile_gym.env import OBSERVATIONS, observation_keys
from mobile_gym.errors import ConfigError
from mobile_gym.simulator.render import Renderer
from mobile_gym.wrappers import (DiscreteElementActions, ElementFeatures, GridTaps, RecordTrace, ScreenPixels, TextActions,
                                 TextObservation)

TASK = "LlamaTouch/settings-turn-off-wifi-v0"
PIXEL_JUDGED = "LlamaTouch/settings-set-system-dark-v0"  # its checks compare full-size pixels
#: Every mode with every grayscale that goes with it.
MODES = [("both", False), ("both", True), ("xml", False), ("screenshot", False), ("screenshot", True)]
WRAPPED_ENV_WARNING = "ignore:.*is different from the unwrapped version:UserWarning"


def mode_id(mode: tuple[str, bool]) -> str:
    return f"{mode[0]}{'-grey' if mode[1] else ''}"


def recorded_actions(task: str = TASK, steps: int = 12, seed: int = 3) -> list[Action]:
    """A seeded random agent's actions on the default env (no COMPLETE/IMPOSSIBLE), to replay in any mode."""
    env = gym.make(task, terminate_on_success=False)
    agent = RandomAgent(seed)
    obs, info = env.reset(seed=seed)
    actions: list[Action] = []
    while len(actions) < steps:
        action = agent.act(obs, info)
        if action.ends_episode:
            continue
        actions.append(action)
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return actions


def replay(env: gym.Env, actions: list[Action], seed: int = 3) -> list[tuple]:
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, False, info)]
    for action in actions:
        out.append(env.step(action))
    return out


@pytest.fixture
def render_spy(monkeypatch):
    """The output size of every screenshot the simulator draws (its `Renderer`)."""
    drawn: list[tuple[int, int]] = []
    render = Renderer.render

    def counting(self, frame):
        drawn.append(tuple(self.size))
        return render(self, frame)

    monkeypatch.setattr(Renderer, "render", counting)
    return drawn


# ---------------------------------------------------------------------- spaces and checks
@pytest.mark.parametrize("mode", MODES, ids=mode_id)
@pytest.mark.parametrize("task", [TASK, PIXEL_JUDGED])
def test_every_mode_passes_gymnasiums_env_checker(task: str, mode: tuple[str, bool]) -> None:
    observation, grayscale = mode
    env = gym.make(task, observation=observation, grayscale=grayscale, render_mode="rgb_array")
    check_env(env.unwrapped)  # rendering included: the spec is made again in each render mode
    env.close()


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_keys_shapes_and_dtypes_follow_the_mode(mode: tuple[str, bool]) -> None:
    observation, grayscale = mode
    env = gym.make(TASK, observation=observation, grayscale=grayscale, observation_size=(180, 400))
    space = env.observation_space
    expected = {"both": {"screenshot", "view_hierarchy", "instruction"}, "xml": {"view_hierarchy", "instruction"},
                "screenshot": {"screenshot", "instruction"}}[observation]
    assert set(space.spaces) == expected == set(observation_keys(observation))
    if "screenshot" in expected:
        shot = space["screenshot"]
        assert shot.shape == (400, 180, 1 if grayscale else 3) and shot.dtype == np.uint8
        assert (shot.low == 0).all() and (shot.high == 255).all()
    for obs, *_ in replay(env, recorded_actions(steps=4)):
        assert set(obs) == expected and obs in space
        if "screenshot" in obs:
            assert obs["screenshot"].shape == space["screenshot"].shape and obs["screenshot"].dtype == np.uint8
            assert obs["screenshot"].flags.writeable and obs["screenshot"].flags.c_contiguous
        if "view_hierarchy" in obs:
            assert obs["view_hierarchy"].startswith("<?xml")


def test_the_default_is_both_in_colour() -> None:
    env = gym.make(TASK)
    assert env.unwrapped.observation == "both" and not env.unwrapped.grayscale
    assert env.observation_space == gym.make(TASK, observation="both", grayscale=False).observation_space
    assert OBSERVATIONS == ("both", "xml", "screenshot")


def test_a_grey_screenshot_is_an_image_to_sb3() -> None:
    from stable_baselines3.common.preprocessing import is_image_space, is_image_space_channels_first

    space = gym.make(TASK, observation="screenshot", grayscale=True, observation_size=(84, 84)).observation_space
    assert is_image_space(space["screenshot"], check_channels=True)
    assert not is_image_space_channels_first(space["screenshot"])


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"observation": "pixels"}, r"observation must be one of both, xml, screenshot; got 'pixels'"),
    ({"observation": None}, r"observation must be one of both, xml, screenshot; got None"),
    ({"observation": "XML"}, r"observation must be one of both, xml, screenshot; got 'XML'"),
    ({"grayscale": "yes"}, r"grayscale must be True or False, got 'yes'"),
    ({"grayscale": 1}, r"grayscale must be True or False, got 1"),
    ({"grayscale": None}, r"grayscale must be True or False, got None"),
    ({"observation": "xml", "grayscale": True}, r"grayscale=True .* goes with observation='both' or 'screenshot'"),
])
def test_bad_mode_arguments_are_config_errors_at_make(kwargs: dict, message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning first: the error is the whole answer
        with pytest.raises(ConfigError, match=message):
            gym.make(TASK, **kwargs)


# ---------------------------------------------------------------------- what is drawn
def observe_spy(env: gym.Env) -> list[dict]:
    """The arguments of every ``observe`` the env asks of its device (the `Device` contract)."""
    asked: list[dict] = []
    device = env.unwrapped.device
    observe = device.observe

    def spy(**kwargs):
        asked.append(kwargs)
        return observe(**kwargs)

    device.observe = spy
    return asked


def asked_pixels(asked: list[dict]) -> list[tuple[int, int] | None]:
    return [kwargs.get("screenshot_size") for kwargs in asked if kwargs.get("screenshot", True)]


@pytest.mark.parametrize("render_mode", [None, "rgb_array"])
def test_the_xml_mode_draws_no_screenshot(render_spy, render_mode) -> None:
    actions = recorded_actions()
    render_spy.clear()
    env = gym.make(TASK, observation="xml", render_mode=render_mode, terminate_on_success=False)
    asked = observe_spy(env)
    steps = replay(env, actions)
    assert len(steps) > 5 and len(asked) >= len(steps)
    assert asked_pixels(asked) == []  # never asks the device for pixels
    assert render_spy == []  # and the simulator drew none
    # the default mode asks for one screenshot a step, at the observed size
    both = gym.make(TASK, terminate_on_success=False)
    asked = observe_spy(both)
    replay(both, actions)
    assert asked_pixels(asked) == [(270, 600)] * len(steps)


def test_a_task_judged_on_pixels_draws_only_what_its_checks_read_in_xml_mode(render_spy) -> None:
    actions = recorded_actions(PIXEL_JUDGED)
    render_spy.clear()
    env = gym.make(PIXEL_JUDGED, observation="xml", terminate_on_success=False)
    asked = observe_spy(env)
    replay(env, actions)
    assert asked_pixels(asked) == []
    assert all(kwargs.get("deferred_screenshot") for kwargs in asked)  # full size, drawn if a check reads it
    assert set(render_spy) <= {(1080, 2400)}


# ---------------------------------------------------------------------- one episode, every mode
@pytest.mark.parametrize("task", [TASK, PIXEL_JUDGED])
def test_modes_observe_the_same_episode(task: str) -> None:
    actions = recorded_actions(task)
    runs = {mode: replay(gym.make(task, observation=mode[0], grayscale=mode[1], terminate_on_success=False), actions)
            for mode in MODES}
    both = runs[("both", False)]
    for mode, run in runs.items():
        assert len(run) == len(both)
        for (obs, *rest), (full, *full_rest) in zip(run, both):
            assert gym.utils.env_checker.data_equivalence(rest, full_rest), mode  # rewards, ends, infos
            assert obs["instruction"] == full["instruction"]
            if "view_hierarchy" in obs:
                assert obs["view_hierarchy"] == full["view_hierarchy"]
            if mode[1]:  # drawn at size, then Pillow's "L" (ITU-R 601-2 luma)
                grey = np.asarray(Image.fromarray(full["screenshot"]).convert("L"))
                np.testing.assert_array_equal(obs["screenshot"][..., 0], grey)
            elif "screenshot" in obs:
                np.testing.assert_array_equal(obs["screenshot"], full["screenshot"])
    assert any(not np.array_equal(a[0]["screenshot"], b[0]["screenshot"]) for a, b in zip(both, both[1:]))


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_render_gives_the_rgb_screen_in_every_mode(render_spy, mode: tuple[str, bool]) -> None:
    observation, grayscale = mode
    env = gym.make(TASK, observation=observation, grayscale=grayscale, render_mode="rgb_array",
                   observation_size=(180, 400))
    reference = gym.make(TASK, observation_size=(180, 400))
    assert env.unwrapped.render() is None  # nothing to show before a reset
    for action in [None, *recorded_actions(steps=3)]:
        obs = env.reset(seed=3)[0] if action is None else env.step(action)[0]
        expected = reference.reset(seed=3)[0] if action is None else reference.step(action)[0]
        drawn = len(render_spy)
        frame = env.render()
        assert frame.shape == (400, 180, 3) and frame.dtype == np.uint8 and frame.flags.writeable
        np.testing.assert_array_equal(frame, expected["screenshot"])
        if "screenshot" in obs and not grayscale:
            np.testing.assert_array_equal(obs["screenshot"], frame)
        frame[:] = 0  # the caller's own
        np.testing.assert_array_equal(env.render(), expected["screenshot"])
        # drawn on request (at most once per screen), only when the observation held none
        assert len(render_spy) - drawn <= (1 if observation == "xml" else 0)
        assert set(render_spy[drawn:]) <= {(180, 400)}


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_without_a_render_mode_render_is_none_and_keeps_nothing(render_spy, mode: tuple[str, bool]) -> None:
    env = gym.make(TASK, observation=mode[0], grayscale=mode[1])
    env.reset(seed=0)
    drawn = len(render_spy)
    assert env.render() is None and len(render_spy) == drawn
    assert env.unwrapped._screen is None


# ---------------------------------------------------------------------- wrappers
@pytest.mark.parametrize(("make_kwargs", "wrap", "message"), [
    ({"observation": "xml"}, lambda env: ScreenPixels(env), r"ScreenPixels needs .*'screenshot'"),
    ({"grayscale": True}, lambda env: ScreenPixels(env), r"grey screenshots.*grayscale=True here too"),
    ({"observation": "screenshot"}, lambda env: TextObservation(TextActions(env)),
     r"TextObservation reads view_hierarchy, instruction .* has no view_hierarchy .*'both' or 'xml'"),
    ({"observation": "xml"}, lambda env: TextObservation(TextActions(env), screenshot=True),
     r"has no screenshot \(gym.make\(..., observation='both'\)\)"),
    ({"observation": "xml"}, lambda env: RecordTrace(env, "observation"), r"screenshots='observation'.*in colour"),
    ({"grayscale": True}, lambda env: RecordTrace(env, "observation"), r"screenshots='observation'.*in colour"),
    ({"observation": "screenshot"}, lambda env: AgentEnv(env), r"AgentEnv serves the screen's dump"),
])
def test_a_wrapper_needing_a_key_the_mode_lacks_refuses_it_when_wrapped(make_kwargs, wrap, message) -> None:
    env = gym.make(TASK, **make_kwargs)
    with pytest.raises(ConfigError, match=message):
        wrap(env)


@pytest.mark.filterwarnings(WRAPPED_ENV_WARNING)
@pytest.mark.parametrize("drawn", [(84, 84), (168, 336), (270, 600)])
@pytest.mark.parametrize("channels_first", [False, True])
def test_screen_pixels_over_a_grey_env(drawn, channels_first: bool) -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = ScreenPixels(gym.make(TASK, observation="screenshot", grayscale=True, observation_size=drawn),
                       grayscale=True, channels_first=channels_first)
    assert env.observation_space.shape == ((1, 84, 84) if channels_first else (84, 84, 1))
    obs, _ = env.reset(seed=0)
    raw = gym.make(TASK, observation="screenshot", grayscale=True, observation_size=drawn).reset(seed=0)[0]
    grey = Image.fromarray(raw["screenshot"][..., 0])
    expected = np.asarray(grey if drawn == (84, 84) else grey.resize((84, 84), Image.Resampling.BOX), dtype=int)
    got = obs[0] if channels_first else obs[..., 0]
    assert np.abs(got.astype(int) - expected).max() <= 1  # block averages round as resampling does, to a level
    check_env(env)
    sb3_check_env(GridTaps(env))  # SB3 takes the pixels with the grid's discrete actions


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_record_trace_records_the_dump_in_every_mode(mode: tuple[str, bool]) -> None:
    actions = recorded_actions(steps=3)
    traces = []
    for observation, grayscale in [("both", False), mode]:
        env = RecordTrace(gym.make(TASK, observation=observation, grayscale=grayscale, terminate_on_success=False))
        replay(env, actions)
        traces.append(env.trace)
    assert [s.xml for s in traces[1]] == [s.xml for s in traces[0]]
    assert traces[1][-1].image.size == (1080, 2400)


@pytest.mark.parametrize("observation", ["both", "xml"])
def test_text_observation_over_the_modes_with_a_dump(observation: str) -> None:
    env = TextObservation(TextActions(gym.make("LlamaTouch/settings-open-v0", observation=observation)))
    text, _ = env.reset(seed=0)
    assert "<button id=5>Settings</button>" in text


def test_text_observation_sends_a_grey_screenshot_as_a_png() -> None:
    import base64
    import io

    env = TextObservation(TextActions(gym.make(TASK, grayscale=True)), screenshot=True)
    obs, _ = env.reset(seed=0)
    image = Image.open(io.BytesIO(base64.b64decode(obs["screenshot"])))
    assert image.mode == "L" and image.size == (270, 600)


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_element_wrappers_work_in_every_mode(mode: tuple[str, bool]) -> None:
    env = ElementFeatures(DiscreteElementActions(gym.make("LlamaTouch/settings-open-v0", observation=mode[0],
                                                          grayscale=mode[1])))
    reference = ElementFeatures(DiscreteElementActions(gym.make("LlamaTouch/settings-open-v0")))
    for e in (env, reference):
        e.reset(seed=0)
    assert gym.utils.env_checker.data_equivalence(env.step(5), reference.step(5))


# ---------------------------------------------------------------------- policy presets
def test_the_element_preset_observes_xml_and_draws_nothing(render_spy) -> None:
    env = mobile_gym.policy_env("settings-turn-off-wifi", "elements")
    assert env.unwrapped.observation == "xml"
    colour = mobile_gym.policy_env("settings-turn-off-wifi", "elements", observation="both")  # as before
    assert colour.unwrapped.observation == "both" and env.observation_space == colour.observation_space
    asked, asked_colour = observe_spy(env), observe_spy(colour)
    rng = np.random.default_rng(0)
    for e in (env, colour):
        e.reset(seed=4)
    for _ in range(15):
        action = int(rng.choice(np.flatnonzero(env.get_wrapper_attr("action_masks")())))
        before = len(render_spy)
        step = env.step(action)
        assert len(render_spy) == before  # the xml env drew nothing
        assert gym.utils.env_checker.data_equivalence(step, colour.step(action))  # the same observation
        if step[2] or step[3]:
            for e in (env, colour):
                e.reset()
    assert asked and asked_pixels(asked) == []
    assert len(asked_pixels(asked_colour)) >= 15  # the spy sees a colour env's screenshots


@pytest.mark.filterwarnings(WRAPPED_ENV_WARNING)
def test_the_pixel_preset_in_grey_passes_the_checkers() -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = mobile_gym.policy_env("settings-turn-off-wifi", "pixels", wrapper_kwargs={"ScreenPixels": {"grayscale": True}})
    assert env.observation_space.shape == (84, 84, 1)
    check_env(env)
    sb3_check_env(env)


# ---------------------------------------------------------------------- vector envs
@pytest.mark.parametrize("mode", [("xml", False), ("screenshot", True)], ids=mode_id)
def test_modes_run_in_vector_envs(mode: tuple[str, bool]) -> None:
    envs = gym.make_vec(TASK, num_envs=2, vectorization_mode="sync", observation=mode[0], grayscale=mode[1])
    obs, _ = envs.reset(seed=0)
    assert set(obs) == set(observation_keys(mode[0]))
    if mode[1]:
        assert obs["screenshot"].shape == (2, 600, 270, 1)
    envs.step(envs.action_space.sample())
    envs.close()


# ---------------------------------------------------------------------- on a phone
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_phone_takes_no_screenshot_in_xml_mode_and_greys_it_in_screenshot_mode(monkeypatch) -> None:
    """``backend="device"`` over the fake phone (the simulator behind adb): the modes
    observe the screen the default mode does; the XML mode never asks the phone for a
    screenshot (uiautomator2's RPC, or adb's screencap)."""
    from gymnasium.utils import seeding

    from mobile_gym.devices.android import AndroidConfig, AndroidDevice
    from mobile_gym.devices.fake import FakePhoneServer
    from mobile_gym.env import device_seed
    from mobile_gym.tasks.suite import simulator_tasks

    serial = "emulator-5554"
    config = AndroidConfig(call_timeout=2.0, connect_timeout=15.0, settle_timeout=1.0, poll_interval=0.01,
                           change_timeout=0.05)
    shots = []
    take = AndroidDevice._screenshot
    monkeypatch.setattr(AndroidDevice, "_screenshot", lambda self: shots.append(1) or take(self))
    actions = recorded_actions(steps=4)
    task = simulator_tasks()["settings-turn-off-wifi"]
    with FakePhoneServer(serials=(serial,), dynamics="default") as server:
        rng, _ = seeding.np_random(3)  # the state reset(seed=3) starts the simulator in, as a snapshot
        server.device(serial).reset(device_seed(rng), {k: v for k, v in task.setup.items() if k != "launch"})
        server.phone(serial).save_snapshot("start")
        runs = {}
        for mode in [("both", False), ("xml", False), ("screenshot", True)]:
            env = gym.make(TASK, backend="device", serial=serial, adb_port=server.port, snapshot="start",
                           console_port=server.console_port(serial), device_config=config,
                           observation=mode[0], grayscale=mode[1], terminate_on_success=False)
            try:
                shots.clear()
                runs[mode] = replay(env, actions)
                taken = len(shots)
                assert set(runs[mode][-1][0]) == set(observation_keys(mode[0]))
                assert (taken == 0) == (mode[0] == "xml")
            finally:
                env.close()
    both = runs[("both", False)]
    for (xml_obs, *_), (grey_obs, *_), (full, *_) in zip(runs[("xml", False)], runs[("screenshot", True)], both):
        assert xml_obs["view_hierarchy"] == full["view_hierarchy"]
        assert grey_obs["screenshot"].shape == (600, 270, 1)
        np.testing.assert_array_equal(grey_obs["screenshot"][..., 0],
                                      np.asarray(Image.fromarray(full["screenshot"]).convert("L")))
