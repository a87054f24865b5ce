"""`EndOfEpisodeEnforcing`: a step after the episode ended is an error, not a quiet no-op.

The env itself refuses to step after it terminated, but truncation happens in
Gymnasium's `TimeLimit`, outside it, which keeps stepping and returning ``truncated``
forever. Every registered id gets this wrapper outermost (it is in the env spec's
``additional_wrappers``), like Gymnasium's own `OrderEnforcing` for reset-before-step.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from mobile_gym.errors import ResetNeededError


class EndOfEpisodeEnforcing(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Raise `ResetNeededError` on ``step`` once an episode terminated or was truncated.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.actions import Action
    >>> env = gym.make("LlamaTouch/settings-open-v0", max_episode_steps=1)
    >>> _ = env.reset(seed=0)
    >>> env.step(Action.back())[3]   # truncated
    True
    >>> env.step(Action.back())
    Traceback (most recent call last):
    mobile_gym.errors.ResetNeededError: the episode was truncated: call reset() before step()
    """

    def __init__(self, env: gym.Env):
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        self._ended: str | None = None  # how the last episode ended, until reset

    def reset(self, **kwargs: Any):
        self._ended = None
        return self.env.reset(**kwargs)

    def step(self, action: Any):
        if self._ended is not None:
            raise ResetNeededError(f"the episode was {self._ended}: call reset() before step()")
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            self._ended = "terminated" if terminated else "truncated"
        return obs, reward, terminated, truncated, info
