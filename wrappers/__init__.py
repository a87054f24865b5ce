"""Gymnasium wrappers (importable as ``mobile_gym.wrappers``), each named by what it does."""

from mobile_gym.wrappers.end_of_episode import EndOfEpisodeEnforcing
from mobile_gym.wrappers.record_trace import RecordTrace

__all__ = ["EndOfEpisodeEnforcing", "RecordTrace"]
