"""`TrimInfo`: keep only the info keys a training loop reads.

A vector env sends every sub-env's ``info`` through a pipe each step, and SB3 keeps the
last ones per env; the env's ``info`` carries the matched-checkpoint map and, with
policy wrappers, a mask per step. Trimming to a few scalars keeps that traffic small.
``is_success`` — the name SB3's ``Monitor``, callbacks and ``evaluate_policy`` read
success from — is kept as an alias of ``success``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium as gym

from mobile_gym.errors import ConfigError

#: What a training loop and its logs need: the verdicts, the progress, the step count,
#: whether the action was a masked one, and the task (for multi-task envs).
DEFAULT_KEYS = ("success", "progress", "oracle_success", "steps", "invalid_action", "task")
DEFAULT_ALIASES = {"is_success": "success"}


class TrimInfo(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """``info`` reduced to ``keys`` (those present), plus ``aliases`` (new name → key).

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.wrappers import TrimInfo
    >>> env = TrimInfo(gym.make("LlamaTouch/settings-open-v0"))
    >>> obs, info = env.reset(seed=0)
    >>> sorted(info)
    ['is_success', 'oracle_success', 'progress', 'steps', 'success']
    """

    def __init__(self, env: gym.Env, keys: Sequence[str] = DEFAULT_KEYS,
                 aliases: Mapping[str, str] = DEFAULT_ALIASES):
        gym.utils.RecordConstructorArgs.__init__(self, keys=keys, aliases=aliases)
        gym.Wrapper.__init__(self, env)
        if isinstance(keys, str) or not all(isinstance(k, str) for k in keys):
            raise ConfigError(f"keys must be a list of info key names; got {keys!r}")
        self.keys = tuple(keys)
        self.aliases = dict(aliases)

    def _trim(self, info: dict[str, Any]) -> dict[str, Any]:
        kept = {k: info[k] for k in self.keys if k in info}
        kept.update((alias, info[k]) for alias, k in self.aliases.items() if k in info)
        return kept

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        return obs, self._trim(info)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, self._trim(info)
