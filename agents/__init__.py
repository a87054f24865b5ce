"""Agents (importable as ``mobile_gym.agents``) behind one interface, `Agent`:
``reset(seed)`` and ``act(observation, info) -> Action``."""

from mobile_gym.agents.base import Agent
from mobile_gym.agents.oracle import OracleAgent
from mobile_gym.agents.random_agent import RandomAgent

__all__ = ["Agent", "OracleAgent", "RandomAgent"]
