"""`RecordTrace`: keeps the episode as a `Trace` (screens, dumps, activities, actions,
installed packages), ready to write as an AgentEnv trace and judge offline."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from mobile_gym.actions import Action
from mobile_gym.trace import Trace, UIState


class RecordTrace(gym.Wrapper):
    """Record each observed screen and the action taken from it.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.actions import Action
    >>> env = RecordTrace(gym.make("LlamaTouch/settings-turn-airplane-mode-v0"))
    >>> obs, info = env.reset(seed=0)
    >>> _ = env.step(Action.back())
    >>> len(env.trace), [str(a) for a in env.trace.actions]
    (2, ['BACK', 'None'])
    """

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self._states: list[UIState] = []

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._states = [self._state(obs, info)]
        return obs, info

    def step(self, action: Any):
        act = action if isinstance(action, Action) else Action.from_gym(action)
        self._states[-1].action = act
        obs, reward, terminated, truncated, info = self.env.step(act)
        self._states.append(self._state(obs, info))
        return obs, reward, terminated, truncated, info

    @property
    def trace(self) -> Trace:
        """The episode so far; installed packages are the device's now."""
        task = self.env.unwrapped.task
        return Trace.from_states(list(self._states), episode=task.episode or task.id,
                                 instruction=task.instruction,
                                 installed_packages=self.env.unwrapped.device.installed_packages())

    def _state(self, obs: dict, info: dict) -> UIState:
        return UIState(xml=obs["view_hierarchy"], screenshot=obs["screenshot"],
                       activity=info["activity"], screen_size=self.env.unwrapped.device.screen_size)
