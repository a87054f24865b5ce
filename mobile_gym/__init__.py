"""mobile_gym: Gymnasium environments for mobile UI task automation.

Importing the package registers every task as ``LlamaTouch/<id>-v0`` and stays cheap:
the simulator loads when an env is made, and heavy dependencies (torch,
sentence-transformers) only when an env of a task with fuzzy checks is made or a fuzzy
match runs.
"""

from __future__ import annotations

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import MobileGymError
from mobile_gym.policy_envs import make_vec_env, policy_env
from mobile_gym.registration import register_envs
from mobile_gym.trace import Trace, UIState

__version__ = "0.1.0"

register_envs()


def warm_up(embedding_model: str | None = None) -> None:
    """Load the sentence-embedding model now (5-10 s, once per process), e.g. before
    timing anything; otherwise the first ``make`` of a task with fuzzy checks does."""
    from mobile_gym.env import warm_up as load

    load(embedding_model)


__all__ = ["Action", "ActionType", "MobileGymError", "Trace", "UIState", "__version__", "make_vec_env", "policy_env",
           "warm_up"]
