"""mobile_gym: Gymnasium environments for mobile UI task automation.

Importing the package registers every task as ``LlamaTouch/<id>-v0`` and stays cheap:
the simulator loads when an env is made, and heavy dependencies (torch,
sentence-transformers) only when an env of a task with fuzzy checks is made or a fuzzy
match runs.
"""

from __future__ import annotations

import importlib
from typing import Any

from mobile_gym.errors import MobileGymError
from mobile_gym.registration import register_envs

#: Names imported when first used (PEP 562), so that ``import mobile_gym`` (and the
#: ``mobile-gym`` command's start) costs the registration alone: the policy presets pull
#: in SB3's wrappers, the traces NumPy's arrays.
_LAZY = {"Action": "mobile_gym.actions", "ActionType": "mobile_gym.actions", "Trace": "mobile_gym.trace",
         "UIState": "mobile_gym.trace", "make_vec_env": "mobile_gym.policy_envs",
         "policy_env": "mobile_gym.policy_envs", "ppo_kwargs": "mobile_gym.training"}

__version__ = "0.1.0"

register_envs()


def warm_up(embedding_model: str | None = None) -> None:
    """Load the sentence-embedding model now (5-10 s, once per process), e.g. before
    timing anything; otherwise the first ``make`` of a task with fuzzy checks does."""
    from mobile_gym.env import warm_up as load

    load(embedding_model)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mobile_gym' has no attribute {name!r}")


__all__ = ["Action", "ActionType", "MobileGymError", "Trace", "UIState", "__version__", "make_vec_env", "policy_env",
           "ppo_kwargs", "warm_up"]
