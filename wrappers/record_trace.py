"""`RecordTrace`: keeps the episode as a `Trace` (screens, dumps, activities, actions,
installed packages), ready to write as an AgentEnv trace and judge offline."""

from __future__ import annotations

from functools import partial
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

from mobile_gym.actions import Action
from mobile_gym.errors import ConfigError
from mobile_gym.trace import Trace, UIState

#: The screenshots a trace holds: ``device``, the device's resolution (1080x2400 on
#: pixel-6), as AgentEnv's traces hold, as LlamaTouch's evaluator needs (it places a tap
#: by the screenshot's size) and as a check that compares pixels needs; ``observation``,
#: the env's observation (a quarter of that), a lighter trace that serves the HTML report
#: but not those. Either way a state's ``screen_size`` is the device's.
TRACE_SCREENSHOTS = ("device", "observation")


def check_trace_screenshots(value: str) -> str:
    if value not in TRACE_SCREENSHOTS:
        raise ConfigError(f"screenshots must be one of {', '.join(TRACE_SCREENSHOTS)}; got {value!r}")
    return value


class RecordTrace(gym.Wrapper):
    """Record each observed screen and the action taken from it.

    With ``screenshots="device"`` (the default) a simulator keeps each screen's frame (a
    snapshot) and draws it at the device's resolution only when the picture is read
    (10-40 ms at 1080x2400); another device gives its full screenshot at once. Any
    observation mode records (the dump is the device's when the env does not observe
    it); ``screenshots="observation"`` needs the env to observe the screenshot in colour.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.actions import Action
    >>> env = RecordTrace(gym.make("LlamaTouch/settings-turn-airplane-mode-v0"))
    >>> obs, info = env.reset(seed=0)
    >>> _ = env.step(Action.back())
    >>> len(env.trace), [str(a) for a in env.trace.actions], env.trace[0].image.size
    (2, ['BACK', 'None'], (1080, 2400))
    """

    def __init__(self, env: gym.Env, screenshots: str = "device"):
        super().__init__(env)
        self.screenshots = check_trace_screenshots(screenshots)
        observed = getattr(env.observation_space, "spaces", {})
        shape = getattr(observed.get("screenshot"), "shape", None)
        self._colour = shape is not None and len(shape) == 3 and shape[2] == 3
        if screenshots == "observation" and not self._colour:
            raise ConfigError("screenshots='observation' keeps the observed screenshot: the env must observe it "
                              "in colour (gym.make(..., observation='both' or 'screenshot', grayscale=False)); "
                              "screenshots='device' draws the device's own")
        self._states: list[UIState] = []
        self._observed: list[np.ndarray] = []  # each state's observed screenshot, if in colour

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._states, self._observed = [], []
        self._record(obs, info)
        return obs, info

    def step(self, action: Any):
        act = action if isinstance(action, Action) else Action.from_gym(action)
        self._states[-1].action = act
        obs, reward, terminated, truncated, info = self.env.step(act)
        self._record(obs, info)
        return obs, reward, terminated, truncated, info

    @property
    def observed_screens(self) -> list[np.ndarray] | None:
        """Each state's screenshot as the env observed it, or None if the env does not
        observe one in colour: small and at hand, it makes a state's thumbnail without
        drawing the device's screen again (`mobile_gym.runner.thumbnails.write_thumbnails`)."""
        return list(self._observed) if self._colour else None

    @property
    def trace(self) -> Trace:
        """The episode so far; installed packages are the device's now."""
        task = self.env.unwrapped.task
        return Trace.from_states(list(self._states), episode=task.episode or task.id,
                                 instruction=task.instruction,
                                 installed_packages=self.env.unwrapped.device.installed_packages())

    def _record(self, obs: dict, info: dict) -> None:
        self._states.append(self._state(obs, info))
        if self._colour:
            self._observed.append(obs["screenshot"])

    def _state(self, obs: dict, info: dict) -> UIState:
        device = self.env.unwrapped.device
        if self.screenshots == "observation":
            pixels: dict[str, Any] = {"screenshot": obs["screenshot"]}
        else:
            pixels = {"screenshot_source": partial(_image_of, device.observe(screenshot=False,
                                                                            deferred_screenshot=True))}
        # an env observing the screenshot alone has no dump in its observation: the device shows the same screen
        xml = obs["view_hierarchy"] if "view_hierarchy" in obs else device.observe(screenshot=False).xml
        return UIState(xml=xml, activity=info["activity"], screen_size=device.screen_size, **pixels)


def _image_of(state: UIState) -> Image.Image:
    return state.image
