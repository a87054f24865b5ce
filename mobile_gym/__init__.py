"""mobile_gym: Gymnasium environments for mobile UI task automation.

Importing the package is cheap: heavy dependencies (torch, sentence-transformers) load
only when a fuzzy match actually runs.
"""

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import MobileGymError
from mobile_gym.trace import Trace, UIState

__version__ = "0.1.0"

__all__ = ["Action", "ActionType", "MobileGymError", "Trace", "UIState", "__version__"]
