"""Adapters that let agents written for other harnesses drive our envs unchanged.

`AgentEnv` (LlamaTouch's AgentEnv) is here; ``mobile_gym.compat.androidworld``
(AndroidWorld's AsyncEnv, TaskEval registry) and ``mobile_gym.compat.androidenv``
(DeepMind's AndroidEnv, dm_env) are imported by name: they need the ``androidworld``
extra (android-env).
"""

from __future__ import annotations

from mobile_gym.compat.agentenv import AgentEnv

__all__ = ["AgentEnv"]
