"""Adapters that let agents written for other harnesses drive our envs unchanged."""

from __future__ import annotations

from mobile_gym.compat.agentenv import AgentEnv

__all__ = ["AgentEnv"]
