"""Screenshots at any size a user may ask for: every kind of window the simulator shows
(app screens, status and navigation bars, the keyboard, dialogs, bottom sheets, menus,
toasts, dynamics' popups) drawn at random sizes down to the smallest allowed; sizes
outside the range are refused with a message, never a crash inside the renderer."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mobile_gym.agents import OracleAgent
from mobile_gym.env import MobileEnv
from mobile_gym.errors import ConfigError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.render import MIN_SCREENSHOT_SIDE
from mobile_gym.tasks.suite import simulator_tasks

KINDS = ("app", "status", "nav", "keyboard", "alert", "sheet", "menu", "toast")


def _scenes() -> dict[str, bytes]:
    """A pickled phone per window kind (and the dark theme), found by following every
    task's golden path under dynamics (which brings popups) for a few seeds."""
    found: dict[str, bytes] = {}
    for seed in range(3):
        for task in simulator_tasks().values():
            phone = task.device(dynamics="default", seed=seed)
            agent = OracleAgent(task)
            for _ in range(3 * task.steps + 5):
                frame = phone.runtime.frame()
                for kind in {w.kind for w in frame.windows} | ({"dark"} if frame.dark else set()):
                    found.setdefault(kind, pickle.dumps(phone))
                if found.keys() >= {*KINDS, "dark"}:
                    return found
                action = agent.act({"view_hierarchy": frame.xml}, {})
                if action.ends_episode:
                    break
                phone.perform(action)
    return found


@pytest.fixture(scope="module")
def scenes() -> dict[str, bytes]:
    return _scenes()


def test_the_golden_paths_show_every_kind_of_window(scenes) -> None:
    assert set(scenes) >= {*KINDS, "dark"}, sorted(scenes)


@pytest.mark.parametrize("kind", [*KINDS, "dark"])
def test_every_kind_of_window_draws_at_random_sizes(scenes, kind: str) -> None:
    phone: SimulatedDevice = pickle.loads(scenes[kind])
    W, H = phone.screen_size
    full = np.asarray(phone.render())

    def side(full: int):  # mostly the small sizes policies use, sometimes up to the screen
        return st.one_of(st.integers(MIN_SCREENSHOT_SIDE, 128), st.integers(MIN_SCREENSHOT_SIDE, full))

    @settings(max_examples=12, derandomize=True)
    @given(side(W), side(H))
    def draws(w: int, h: int) -> None:
        shot = np.asarray(phone.observe(screenshot_size=(w, h)).image)
        assert shot.shape == (h, w, 3) and shot.dtype == np.uint8
        if min(w, h) >= 64:  # the same screen, smaller: its colours, not a blank
            assert np.unique(shot.reshape(-1, 3), axis=0).shape[0] > 1
            assert abs(float(shot.mean()) - float(full.mean())) < 40

    draws()


@pytest.mark.parametrize("size", [(84, 84), (64, 64), (96, 96), (54, 120), (MIN_SCREENSHOT_SIDE,) * 2])
def test_small_observations_show_the_keyboard(size) -> None:
    env = MobileEnv("settings-turn-bluetooth-scan", observation_size=size)
    obs, info = env.reset(seed=0)
    agent = OracleAgent(env.task)
    for _ in range(env.task.steps):
        obs, *_ = env.step(agent.act(obs, info))
        assert obs["screenshot"].shape == (size[1], size[0], 3)
        assert obs in env.observation_space


@pytest.mark.parametrize("size", [(MIN_SCREENSHOT_SIDE - 1, 100), (100, 0), (1081, 600), (270, 2401), (-5, 60),
                                  (270.5, 600), ("270", 600), (270,), None.__class__, (True, 600)])
def test_sizes_that_cannot_be_drawn_are_refused_at_make(size) -> None:
    with pytest.raises(ConfigError, match="observation_size"):
        MobileEnv("settings-open", observation_size=size)
