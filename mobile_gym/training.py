"""PPO settings for the policy presets, in one place: the README's training snippet,
``benchmarks/train_ppo.py`` and `mobile_gym.rllib.ppo_config` all take them from `ppo_kwargs`.

They are tuned for short (1-30 step) episodes with a sparse reward at the end, and SB3's own
defaults are not: with ``n_steps=256, batch_size=128, gamma=0.97`` and nothing else, MaskablePPO
solved settings-turn-off-wifi but none of 20 unseen seeds of settings-set-disturb after 30k
steps; with these, the README's snippet solves six tasks of 2-4 steps (benchmarks/RESULTS.md,
"The README's training snippet").
"""

from __future__ import annotations

import copy
from typing import Any

from mobile_gym.errors import ConfigError

#: Envs stepped side by side in training (`mobile_gym.make_vec_env`'s default): a rollout is
#: ``n_steps`` of each, so RLlib's batch of the same size is ``n_steps * N_ENVS``.
N_ENVS = 2
#: SB3's keyword arguments per preset. Rollouts of 256 steps per env hold tens of episodes, so
#: each update sees successes once there are any; a discount of 0.97 still credits the first tap
#: of a 10-step path (0.97^10 ≈ 0.74) while preferring short paths; a little entropy keeps the
#: policy trying slots before the first success (without it, it settles on a wrong path of
#: settings-set-disturb first). The elements preset keeps SB3's 64×64 MLP: a 256×256 one found no
#: success on settings-turn-off-wifi in 30k steps, where 64×64 solved it at 10k. The pixels preset's
#: CNN features get one 256 layer per head, and fewer, smaller updates (as SB3's settings for Atari).
PPO_KWARGS: dict[str, dict[str, Any]] = {
    "elements": {"n_steps": 256, "batch_size": 128, "n_epochs": 10, "gamma": 0.97, "gae_lambda": 0.95,
                 "ent_coef": 0.01, "learning_rate": 3e-4, "clip_range": 0.2,
                 "policy_kwargs": {"net_arch": [64, 64]}},
    "pixels": {"n_steps": 256, "batch_size": 128, "n_epochs": 4, "gamma": 0.97, "gae_lambda": 0.95,
               "ent_coef": 0.01, "learning_rate": 2.5e-4, "clip_range": 0.1,
               "policy_kwargs": {"net_arch": [256]}},
}


def ppo_kwargs(preset: str = "elements") -> dict[str, Any]:
    """The keyword arguments for SB3's ``PPO`` or sb3-contrib's ``MaskablePPO`` on ``preset``'s
    envs (a fresh copy: change what you like), e.g.
    ``MaskablePPO("MultiInputPolicy", venv, **mobile_gym.ppo_kwargs(), seed=0)``.

    >>> import mobile_gym
    >>> kwargs = mobile_gym.ppo_kwargs("elements")
    >>> kwargs["n_steps"], kwargs["ent_coef"], kwargs["policy_kwargs"]
    (256, 0.01, {'net_arch': [64, 64]})
    """
    if preset not in PPO_KWARGS:
        raise ConfigError(f"preset must be one of {', '.join(PPO_KWARGS)}; got {preset!r}")
    return copy.deepcopy(PPO_KWARGS[preset])


__all__ = ["N_ENVS", "PPO_KWARGS", "ppo_kwargs"]
