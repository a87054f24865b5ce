"""Gymnasium wrappers (importable as ``mobile_gym.wrappers``), each named by what it does."""

from mobile_gym.wrappers.element_actions import DiscreteElementActions
from mobile_gym.wrappers.element_features import ElementFeatures
from mobile_gym.wrappers.end_of_episode import EndOfEpisodeEnforcing
from mobile_gym.wrappers.grid_taps import GridTaps
from mobile_gym.wrappers.record_trace import RecordTrace
from mobile_gym.wrappers.screen_pixels import ScreenPixels
from mobile_gym.wrappers.text_actions import TextActions
from mobile_gym.wrappers.text_observation import TextObservation
from mobile_gym.wrappers.trim_info import TrimInfo

__all__ = ["DiscreteElementActions", "ElementFeatures", "EndOfEpisodeEnforcing", "GridTaps", "RecordTrace",
           "ScreenPixels", "TextActions", "TextObservation", "TrimInfo"]
