"""Bring your AndroidWorld agent: AndroidWorld's harness and agents on our tasks.

- `AndroidWorldEnv`: AndroidWorld's ``AsyncEnv`` over our envs (``get_state``,
  ``execute_action``, a ``controller`` answering android_env's adb requests);
- `task_registry`: our tasks as AndroidWorld ``TaskEval`` classes, for
  ``suite_utils.create_suite`` and ``suite_utils.run``;
- `OracleLLM`: replies with each task's golden path, to check an agent's loop end to end.

Needs ``pip install 'mobile-gym[androidworld]'`` (android-env, for its protos). With
AndroidWorld itself on the path (it is not on PyPI), its own classes are used
(`interface.ANDROID_WORLD`); without it, stand-ins of the same shape.
"""

from __future__ import annotations

from mobile_gym.compat.androidworld.env import AndroidWorldController, AndroidWorldEnv, ui_elements
from mobile_gym.compat.androidworld.interface import (
    ANDROID_WORLD,
    AsyncEnv,
    BoundingBox,
    JSONAction,
    State,
    TaskEval,
    UIElement,
)
from mobile_gym.compat.androidworld.oracle import OracleLLM
from mobile_gym.compat.androidworld.tasks import LlamaTouchTask, task_class, task_registry

__all__ = ["ANDROID_WORLD", "AndroidWorldController", "AndroidWorldEnv", "AsyncEnv", "BoundingBox", "JSONAction",
           "LlamaTouchTask", "OracleLLM", "State", "TaskEval", "UIElement", "task_class", "task_registry",
           "ui_elements"]
