"""The pixel preset's wrappers: `ScreenPixels` (the screenshot at a CNN's size) and
`GridTaps` (taps on a grid plus the extras), alone and as SB3 sees them."""

from __future__ import annotations

import doctest
import pickle

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

import mobile_gym
from mobile_gym.actions import Action
from mobile_gym.errors import ConfigError, InvalidActionError, ResetNeededError
from mobile_gym.wrappers import GridTaps, ScreenPixels, grid_taps, screen_pixels
from mobile_gym.wrappers.discrete import DEFAULT_EXTRAS
from mobile_gym.wrappers.screen_pixels import drawing_size

TASK = "LlamaTouch/settings-open-v0"
#: gymnasium's check_env warns whenever it is given a wrapped env; checking the wrappers is the point.
WRAPPED_ENV_WARNING = "ignore:.*is different from the unwrapped version:UserWarning"


def pixels_env(task: str = TASK, make_kwargs: dict | None = None, **kwargs) -> GridTaps:
    grid = {k: kwargs.pop(k) for k in ("rows", "cols", "extras") if k in kwargs}
    return GridTaps(ScreenPixels(gym.make(task, **(make_kwargs or {})), **kwargs), **grid)


def element(env: gym.Env, label: str):
    return next(e for e in env.unwrapped.elements if e.label == label)


def test_doctests_run() -> None:
    """The wrappers live outside the ``mobile_gym`` folder that tests/test_doctests.py walks."""
    for module in (screen_pixels, grid_taps):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# ---------------------------------------------------------------------- ScreenPixels
@pytest.mark.parametrize("size", [(84, 84), (1, 1), (64, 48), (17, 300), (1000, 700),
                                  (np.int64(32), np.int32(20)), [16, 24]])
@pytest.mark.parametrize("grayscale", [False, True])
@pytest.mark.parametrize("channels_first", [False, True])
def test_observation_space_and_layout(size, grayscale: bool, channels_first: bool) -> None:
    env = ScreenPixels(gym.make(TASK), size=size, grayscale=grayscale, channels_first=channels_first)
    w, h, c = int(size[0]), int(size[1]), 1 if grayscale else 3
    shape = (c, h, w) if channels_first else (h, w, c)
    space = env.observation_space
    assert isinstance(space, gym.spaces.Box) and space.shape == shape and space.dtype == np.uint8
    assert (space.low == 0).all() and (space.high == 255).all()
    obs, _ = env.reset(seed=0)
    step_obs = env.step(Action.back())[0]
    for o in (obs, step_obs):
        assert o.shape == shape and o.dtype == np.uint8 and o in space
        assert o.flags.writeable and o.flags.c_contiguous
    # the whole screen, shrunk or grown: its mean colour stays, nothing is cropped
    raw = env.unwrapped.reset(seed=0)[0]["screenshot"]
    recorded = env.spec.additional_wrappers[-1].kwargs["size"]
    assert recorded == (w, h) and all(type(v) is int for v in recorded)  # plain ints: the spec stays JSON
    grey = np.asarray(Image.fromarray(raw).convert("L"), dtype=float)
    mean = env.observation({"screenshot": raw}).astype(float).mean()
    assert abs(mean - (grey.mean() if grayscale else raw.mean())) < 3


def test_channels_first_is_a_transpose_and_grayscale_is_pillows_L() -> None:
    raw = gym.make(TASK).reset(seed=0)[0]
    rgb = ScreenPixels(gym.make(TASK), size=(84, 84)).observation(raw)
    gray = ScreenPixels(gym.make(TASK), size=(84, 84), grayscale=True).observation(raw)
    first = ScreenPixels(gym.make(TASK), size=(84, 84), channels_first=True).observation(raw)
    np.testing.assert_array_equal(gray[..., 0], np.asarray(Image.fromarray(rgb).convert("L")))
    np.testing.assert_array_equal(first, rgb.transpose(2, 0, 1))
    assert not np.array_equal(rgb[..., 0], rgb[..., 2])  # the launcher has colour: the test can tell


def test_frame_drawn_at_size_is_passed_through() -> None:
    """``gym.make(..., observation_size=size)``: the simulator draws it, nothing is resampled."""
    env = ScreenPixels(gym.make(TASK, observation_size=(84, 84)), size=(84, 84))
    raw = gym.make(TASK, observation_size=(84, 84)).reset(seed=0)[0]["screenshot"]
    np.testing.assert_array_equal(env.reset(seed=0)[0], raw)


def test_a_drawing_of_whole_blocks_is_averaged_as_resampling_would() -> None:
    """A screenshot drawn at a whole multiple of the size is averaged block by block
    (Pillow's reduce), the same image as area resampling gives, to a level in 255."""
    drawn = drawing_size((84, 84), (1080, 2400))
    assert drawn == (168, 336)
    raw = gym.make(TASK, observation_size=drawn).reset(seed=0)[0]
    env = ScreenPixels(gym.make(TASK, observation_size=drawn), size=(84, 84))
    expected = np.asarray(Image.fromarray(raw["screenshot"]).resize((84, 84), Image.Resampling.BOX), dtype=int)
    got = env.observation(raw).astype(int)
    assert got.shape == (84, 84, 3) and np.abs(got - expected).max() <= 1


@pytest.mark.parametrize("size, screen, drawn", [
    ((84, 84), (720, 1600), (168, 252)),   # the first multiples of each side from half the default
    ((64, 48), (1080, 2400), (192, 336)),
    ((300, 600), (1080, 2400), (300, 600)),  # the default or more already: drawn at size
    ((1080, 2400), (1080, 2400), (1080, 2400)),
    ((1081, 84), (1080, 2400), None),  # wider than the screen: the default, scaled up
])
def test_drawing_size(size, screen, drawn) -> None:
    assert drawing_size(size, screen) == drawn
    if drawn is not None:
        assert drawn[0] % size[0] == 0 and drawn[1] % size[1] == 0


def test_the_pixel_preset_draws_at_a_multiple_on_every_profile() -> None:
    env = mobile_gym.policy_env("settings-open", "pixels", profiles=["pixel-6", "pixel-3", "budget-720p"])
    for variant in env.get_wrapper_attr("envs"):  # one per profile
        base = variant.unwrapped
        assert base.observation_size == drawing_size((84, 84), base.device.screen_size)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (84, 84, 3)
    # the user's own choice wins
    own = mobile_gym.policy_env("settings-open", "pixels", observation_size=(270, 600))
    assert own.unwrapped.observation_size == (270, 600) and own.reset(seed=0)[0].shape == (84, 84, 3)


@pytest.mark.parametrize("kwargs", [
    {"size": (0, 84)}, {"size": (84, -1)}, {"size": (4097, 84)}, {"size": (84, 10**30)},
    {"size": (84,)}, {"size": (84, 84, 3)}, {"size": 84}, {"size": "84"}, {"size": None},
    {"size": (84.0, 84)}, {"size": (True, 84)}, {"size": ("84", "84")},
    {"grayscale": "yes"}, {"channels_first": 1},
])
def test_bad_arguments_are_config_errors(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        ScreenPixels(gym.make(TASK), **kwargs)


def test_needs_a_screenshot_to_observe() -> None:
    with pytest.raises(ConfigError, match="screenshot"):
        ScreenPixels(ScreenPixels(gym.make(TASK)))


# ---------------------------------------------------------------------- GridTaps
def test_action_space_and_names() -> None:
    env = pixels_env(rows=5, cols=3, extras=("home", "impossible"))
    names = env.action_names()
    assert env.action_space == gym.spaces.Discrete(5 * 3 + 2)
    assert len(names) == len(set(names)) == env.action_space.n
    assert names[:2] == ["tap r0c0", "tap r0c1"] and names[3 * 3 + 1] == "tap r3c1"
    assert names[-2:] == ["home", "impossible"]


@pytest.mark.parametrize("kwargs", [
    {"rows": 0}, {"cols": -2}, {"rows": 257}, {"rows": 2.0}, {"cols": True}, {"rows": "8"},
    {"extras": ("back", "back")}, {"extras": ("jump",)},
])
def test_bad_grid_arguments_are_config_errors(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        GridTaps(gym.make(TASK), **kwargs)


@pytest.mark.parametrize("rows, cols", [(8, 4), (20, 9)])
def test_tapping_the_cell_of_the_settings_icon_opens_settings(rows: int, cols: int) -> None:
    env = pixels_env(rows=rows, cols=cols)
    env.reset(seed=0)
    icon = element(env, "Settings")
    index = env.index_of(Action.click(*icon.point))
    assert index is not None and index < rows * cols
    r, c = divmod(index, cols)  # the cell holds the icon's point, and its centre is on the icon
    assert r / rows <= icon.point[1] < (r + 1) / rows and c / cols <= icon.point[0] < (c + 1) / cols
    screen = env.unwrapped.hierarchy.screen_bounds
    x, y = env.action(index).touch
    assert icon.visible.contains(x * screen.right, y * screen.bottom)
    obs, reward, terminated, _, info = env.step(index)
    assert (reward, terminated, info["success"]) == (1.0, True, True)
    assert info["activity"].startswith("com.android.settings/")
    assert obs.shape == (84, 84, 3)


def test_a_cell_whose_centre_misses_the_icon() -> None:
    """One cell for the whole screen: its centre is not on the Settings icon, so no index
    does what the tap on the icon does, and stepping it does not open Settings."""
    env = pixels_env(rows=1, cols=1, make_kwargs={"terminate_on_success": False})
    env.reset(seed=0)
    assert env.index_of(Action.click(*element(env, "Settings").point)) is None
    assert env.index_of(Action.click(0.5, 0.5)) == 0
    assert not env.step(0)[4]["activity"].startswith("com.android.settings/")


def test_extras_back_home_scroll_complete() -> None:
    env = pixels_env(make_kwargs={"terminate_on_success": False})
    names = env.action_names()
    launcher, info = env.reset(seed=0)
    home_activity = info["activity"]
    settings = env.index_of(Action.click(*element(env, "Settings").point))
    top, *_, info = env.step(settings)
    assert info["activity"] != home_activity
    down, *_, info = env.step(names.index("scroll_down"))
    assert not np.array_equal(down, top)  # the settings list moved
    up, *_, info = env.step(names.index("scroll_up"))
    np.testing.assert_array_equal(up, top)  # and came back
    back, *_, info = env.step(names.index("back"))
    assert info["activity"] == home_activity
    np.testing.assert_array_equal(back, launcher)
    env.step(settings)
    *_, info = env.step(names.index("home"))
    assert info["activity"] == home_activity
    *_, terminated, _, info = env.step(names.index("complete"))
    assert terminated and info["terminated_by"] == "complete"


@pytest.mark.parametrize("bad", [-1, 38, 2**70, 1.0, 1.5, "1", None, True, np.bool_(False), [1],
                                 np.array([1]), np.array(1.0), np.float32(3), Action.back(),
                                 {"action_type": 3}])
def test_invalid_actions_raise_and_change_nothing(bad) -> None:
    env = pixels_env()
    assert env.action_space.n == 38
    env.reset(seed=0)
    screen = env.unwrapped.hierarchy
    with pytest.raises(InvalidActionError):
        env.step(bad)
    assert env.unwrapped.hierarchy is screen  # nothing was performed, nothing observed
    info = env.step(np.array(env.action_names().index("back")))[4]  # 0-d arrays are fine
    assert info["steps"] == 1


@pytest.mark.parametrize("index", [np.int64(3), np.int32(3), np.uint8(3), np.array(3, dtype=np.int16), 3])
def test_integer_kinds_are_accepted(index) -> None:
    env = pixels_env()
    assert env.action(index) == env.action(3)


@pytest.mark.parametrize("extras", [DEFAULT_EXTRAS, ("impossible", "scroll_up", "back")])
def test_index_of_round_trips(extras) -> None:
    env = pixels_env(rows=6, cols=5, extras=extras)
    env.reset(seed=0)
    n = env.action_space.n
    assert [env.index_of(env.action(i)) for i in range(n)] == list(range(n))
    extra = {name: 30 + k for k, name in enumerate(extras)}
    assert env.index_of(Action.swipe(0.3, 0.8, 0.35, 0.2)) == extra.get("scroll_down")  # finger up
    assert env.index_of(Action.swipe(0.3, 0.2, 0.3, 0.5)) == extra.get("scroll_up")
    assert env.index_of(Action.swipe(0.1, 0.5, 0.9, 0.45)) is None  # sideways
    assert env.index_of(Action.type_text("wifi")) is None
    for name in ("back", "home", "enter", "complete", "impossible"):
        assert env.index_of(getattr(Action, name)()) == extra.get(name)
    short = Action.swipe(0.5, 0.5, 0.51, 0.5)  # a tap to Android
    assert env.index_of(short) == env.index_of(Action.click(0.5, 0.5)) is not None
    with pytest.raises(InvalidActionError):
        env.index_of(3)


def test_index_of_a_tap_needs_a_screen() -> None:
    env = pixels_env()
    with pytest.raises(ResetNeededError):
        env.index_of(Action.click(0.5, 0.5))


def test_pickled_env_steps_as_the_original() -> None:
    env = pixels_env(make_kwargs={"terminate_on_success": False}, grayscale=True)
    env.reset(seed=3)
    env.step(env.action_names().index("home"))
    copy = pickle.loads(pickle.dumps(env))
    assert copy.action_names() == env.action_names() and copy.observation_space == env.observation_space
    for index in (9, env.action_names().index("scroll_down"), 5):
        a, b = env.step(index), copy.step(index)
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:4] == b[1:4] and a[4]["activity"] == b[4]["activity"]


def test_spec_rebuilds_the_wrapped_env() -> None:
    """The spec (as Minari stores it, JSON) names both wrappers and their arguments."""
    env = pixels_env(size=(np.int64(40), 30), grayscale=True, rows=4, cols=np.int64(2))
    spec = gym.envs.registration.EnvSpec.from_json(env.spec.to_json())
    again = gym.make(spec)
    assert again.observation_space == env.observation_space and again.action_space == env.action_space
    assert again.action_names() == env.action_names()


# ---------------------------------------------------------------------- as SB3 sees it
@pytest.mark.filterwarnings(WRAPPED_ENV_WARNING)
@pytest.mark.parametrize("kwargs", [{}, {"grayscale": True, "channels_first": True}])
def test_gymnasium_and_sb3_env_checkers_pass(kwargs: dict) -> None:
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env
    from stable_baselines3.common.preprocessing import is_image_space

    env = pixels_env(**kwargs)
    check_env(env)
    sb3_check_env(env)
    assert is_image_space(env.observation_space)


@pytest.mark.slow
def test_ppo_cnn_policy_learns_a_few_steps() -> None:
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a smoke test: do not take the machine
    try:
        venv = DummyVecEnv([lambda: pixels_env("LlamaTouch/settings-turn-off-wifi-v0")])
        model = PPO("CnnPolicy", venv, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu")
        model.learn(512)
        assert model.num_timesteps == 512
        action, _ = model.predict(venv.reset(), deterministic=True)
        assert venv.action_space.contains(int(action[0]))
        venv.close()
    finally:
        torch.set_num_threads(threads)
