"""Agents (importable as ``mobile_gym.agents``) behind one interface, `Agent`:
``reset(seed)`` and ``act(observation, info) -> Action``."""

from mobile_gym.agents.base import Agent
from mobile_gym.agents.llm import AutoDroidAgent, LLMAgent, LLMConfig
from mobile_gym.agents.oracle import OracleAgent
from mobile_gym.agents.perturbed import (BreakAfterAgent, DetourAgent, ElementCentreAgent, RouteAgent,
                                         SiblingTaskAgent, StopShortAgent, UndoLastAgent)
from mobile_gym.agents.random_agent import RandomAgent

#: Agents by the name the runner knows them by (``mobile-gym run --agent NAME``).
AGENTS: dict[str, type[Agent]] = {cls.name: cls for cls in (
    OracleAgent, RandomAgent, DetourAgent, StopShortAgent, UndoLastAgent, BreakAfterAgent, SiblingTaskAgent,
    ElementCentreAgent, LLMAgent, AutoDroidAgent)}

__all__ = ["AGENTS", "Agent", "AutoDroidAgent", "BreakAfterAgent", "DetourAgent", "ElementCentreAgent", "LLMAgent",
           "LLMConfig",
           "OracleAgent", "RandomAgent", "RouteAgent", "SiblingTaskAgent", "StopShortAgent", "UndoLastAgent"]
