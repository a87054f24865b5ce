"""The one small interface every agent implements, so runners and benchmarks can drive
random, scripted, LLM and learned agents alike."""

from __future__ import annotations

import abc
from typing import Any, Mapping

from mobile_gym.actions import Action


class Agent(abc.ABC):
    """Chooses one action per step from the env's observation and info."""

    #: shown in reports
    name: str = "agent"

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode; agents with randomness reseed here."""

    @abc.abstractmethod
    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        """The next action for ``observation`` (``screenshot``, ``view_hierarchy``,
        ``instruction``) and the env's ``info``."""
