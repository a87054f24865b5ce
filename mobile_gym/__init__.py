"""mobile_gym: Gymnasium environments for mobile UI task automation.

Importing the package registers every task as ``LlamaTouch/<id>-v0`` and stays cheap:
the simulator loads when an env is made, and heavy dependencies (torch,
sentence-transformers) only when a fuzzy match actually runs.
"""

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import MobileGymError
from mobile_gym.registration import register_envs
from mobile_gym.trace import Trace, UIState

__version__ = "0.1.0"

register_envs()

__all__ = ["Action", "ActionType", "MobileGymError", "Trace", "UIState", "__version__"]
