"""`TaskSampler`: one env that plays a different task (or device profile, or dynamics) each
episode, so one policy trains on all of them.

Each variant is its own env, made up front (envs are cheap: a few ms each) and wrapped
the same way, so their spaces are equal; ``reset`` draws one from ``np_random`` and every
call until the next reset goes to it. ``info["task"]`` names the variant playing.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np

from mobile_gym.errors import ConfigError


class TaskSampler(gym.Env):
    """Plays ``envs[i]`` for an ``i`` drawn uniformly at each reset.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.multitask import TaskSampler
    >>> env = TaskSampler([gym.make("LlamaTouch/settings-open-v0"),
    ...                    gym.make("LlamaTouch/settings-turn-airplane-mode-v0")])
    >>> sorted({env.reset(seed=s)[1]["task"] for s in range(6)})
    ['settings-open', 'settings-turn-airplane-mode']
    """

    def __init__(self, envs: Sequence[gym.Env], names: Sequence[str] | None = None):
        if not envs:
            raise ConfigError("TaskSampler needs at least one env")
        first = envs[0]
        for env in envs[1:]:
            if env.observation_space != first.observation_space or env.action_space != first.action_space:
                raise ConfigError("every env of a TaskSampler needs the same observation and action spaces "
                                  "(wrap them alike, and give them one observation_size)")
        self.envs = list(envs)
        self.names = list(names) if names is not None else [_name(env) for env in envs]
        if len(self.names) != len(self.envs):
            raise ConfigError(f"{len(self.names)} names for {len(self.envs)} envs")
        self.observation_space = first.observation_space
        self.action_space = first.action_space
        self.metadata = first.metadata
        self.render_mode = first.render_mode
        self.current = 0  # index of the env playing this episode

    @property
    def env(self) -> gym.Env:
        """The env playing this episode."""
        return self.envs[self.current]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.current = int(self.np_random.integers(len(self.envs)))
        obs, info = self.env.reset(seed=int(self.np_random.integers(2**31 - 1)), options=options)
        info["task"] = self.names[self.current]
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        info["task"] = self.names[self.current]
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The playing env's mask (sb3-contrib's `MaskablePPO` asks the outermost env)."""
        return self.env.get_wrapper_attr("action_masks")()

    def render(self):
        return self.env.render()

    def close(self) -> None:
        for env in self.envs:
            env.close()


def _name(env: gym.Env) -> str:
    task = getattr(env.unwrapped, "task", None)
    return getattr(task, "id", None) or (env.spec.id if env.spec else type(env.unwrapped).__name__)
