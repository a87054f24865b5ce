"""AndroidWorld's types: its own when ``android_world`` is importable, else ours.

AndroidWorld (google-research/android_world) is not on PyPI. When a user has it on the
path, the adapter hands out its very classes (`State`, `UIElement`, `BoundingBox`,
`JSONAction`) and derives from its `AsyncEnv` and `TaskEval`, so its agents, episode
runner and suite code take our objects as their own (``isinstance`` included). Without
it, these stand-ins of the same shape (fields, defaults, properties, the checks a
`JSONAction` makes) let code written against AndroidWorld's interface run, and let our
tests exercise the calls its harness makes. `ANDROID_WORLD` says which is in use.
"""

from __future__ import annotations

import abc
import dataclasses
import json
from typing import Any, ClassVar

from mobile_gym.compat.adb import require_android_env

require_android_env()  # AndroidWorld's code and ours speak android_env's protos

try:
    from android_world.env.interface import AsyncEnv, State
    from android_world.env.json_action import JSONAction
    from android_world.env.representation_utils import BoundingBox, UIElement
    from android_world.task_evals.task_eval import TaskEval

    ANDROID_WORLD = True
except ImportError:
    ANDROID_WORLD = False

    @dataclasses.dataclass
    class BoundingBox:  # type: ignore[no-redef]
        """A box in pixels (or fractions): AndroidWorld's field order, x before y."""

        x_min: float | int
        x_max: float | int
        y_min: float | int
        y_max: float | int

        @property
        def center(self) -> tuple[float, float]:
            return (self.x_min + self.x_max) / 2.0, (self.y_min + self.y_max) / 2.0

        @property
        def width(self) -> float | int:
            return self.x_max - self.x_min

        @property
        def height(self) -> float | int:
            return self.y_max - self.y_min

        @property
        def area(self) -> float | int:
            return self.width * self.height

    @dataclasses.dataclass
    class UIElement:  # type: ignore[no-redef]
        """One node of the screen, as AndroidWorld's agents list them."""

        text: str | None = None
        content_description: str | None = None
        class_name: str | None = None
        bbox: BoundingBox | None = None
        bbox_pixels: BoundingBox | None = None
        hint_text: str | None = None
        is_checked: bool | None = None
        is_checkable: bool | None = None
        is_clickable: bool | None = None
        is_editable: bool | None = None
        is_enabled: bool | None = None
        is_focused: bool | None = None
        is_focusable: bool | None = None
        is_long_clickable: bool | None = None
        is_scrollable: bool | None = None
        is_selected: bool | None = None
        is_visible: bool | None = None
        package_name: str | None = None
        resource_name: str | None = None
        tooltip: str | None = None
        resource_id: str | None = None
        metadata: dict[str, Any] | None = None

    @dataclasses.dataclass(frozen=True)
    class State:  # type: ignore[no-redef]
        """What ``get_state`` returns: the screen's pixels, the accessibility forest
        (None: the uiautomator dump is read instead) and the UI elements."""

        pixels: Any
        forest: Any
        ui_elements: list[UIElement]
        auxiliaries: dict[str, Any] | None = None

    #: The verbs of AndroidWorld's JSON actions.
    ACTION_TYPES = ("click", "double_tap", "scroll", "swipe", "input_text", "navigate_home", "navigate_back",
                    "keyboard_enter", "open_app", "status", "wait", "long_press", "answer", "unknown")
    SCROLL_DIRECTIONS = ("left", "right", "down", "up")

    @dataclasses.dataclass()
    class JSONAction:  # type: ignore[no-redef]
        """An agent's action as AndroidWorld's JSON spells it, e.g.
        ``JSONAction(**{"action_type": "click", "index": 3})``; refuses what AndroidWorld
        refuses (an unknown verb or direction, an index together with a point)."""

        action_type: str | None = None
        index: str | int | None = None
        x: int | None = None
        y: int | None = None
        text: str | None = None
        direction: str | None = None
        goal_status: str | None = None
        app_name: str | None = None
        keycode: str | None = None
        clear_text: bool | None = None

        def __post_init__(self) -> None:
            if self.action_type not in ACTION_TYPES:
                raise ValueError(f"Invalid action type: {self.action_type}")
            if self.index is not None:
                self.index = int(self.index)
                if self.x is not None or self.y is not None:
                    raise ValueError("Either an index or a <x, y> should be provided.")
            if self.direction and self.direction not in SCROLL_DIRECTIONS:
                raise ValueError(f"Invalid scroll direction: {self.direction}")
            if self.text is not None and not isinstance(self.text, str):
                self.text = str(self.text)
            if self.keycode is not None and not self.keycode.startswith("KEYCODE_"):
                raise ValueError(f"Invalid keycode: {self.keycode}")

        def as_dict(self, skip_none: bool = True) -> dict[str, Any]:
            return {k: v for k, v in self.__dict__.items() if v is not None or not skip_none}

        def json_str(self) -> str:
            return json.dumps(self.as_dict(), separators=(",", ":"))

    class AsyncEnv(abc.ABC):  # type: ignore[no-redef]
        """AndroidWorld's environment interface (``android_world.env.interface``)."""

    class TaskEval(abc.ABC):  # type: ignore[no-redef]
        """AndroidWorld's task interface (``android_world.task_evals.task_eval``): a
        goal from ``template`` and ``params``, set up by `initialize_task`, judged by
        `is_successful`, undone by `tear_down`."""

        template: ClassVar[str] = ""
        start_on_home_screen: ClassVar[bool] = True

        def __init__(self, params: dict[str, Any]):
            self.initialized = False
            self._params = params

        @property
        def name(self) -> str:
            return type(self).__name__

        @property
        def params(self) -> dict[str, Any]:
            return self._params

        @property
        def goal(self) -> str:
            return self.template.format(**self.params)

        @classmethod
        def set_device_time(cls, env: Any) -> None:
            """The device time a suite sets before making a task (the simulator keeps its own)."""

        def _check_is_initialized(self) -> None:
            if not self.initialized:
                raise RuntimeError(f"{self.name}.initialize_task() must be called before "
                                   f"{self.name}.is_successful().")

__all__ = ["ANDROID_WORLD", "AsyncEnv", "BoundingBox", "JSONAction", "State", "TaskEval", "UIElement"]
