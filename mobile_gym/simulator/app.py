"""What a simulated app is made of: `App` (package, persistent state, back stack),
`Activity` (one screen) and `Dialog` (a window over it).

Apps fill in small hooks: `App.main` gives the launch activity, `App.vary` draws the
seeded content variation, `App.popups` the popups dynamics may show; an activity's
`build` returns the screen as a tree of views. Everything an app keeps between frames
lives in plain picklable objects (dataclasses, activities, dialogs); handlers in a built
tree may be closures, because trees are rebuilt every frame and never stored. Handlers a
dialog keeps must be bound methods or `functools.partial`s, so devices pickle.
"""

from __future__ import annotations

import dataclasses
import types
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Hashable, Mapping

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.trace import normalize_activity
from mobile_gym.simulator.views import (
    Button, Column, Row, Spacer, Text, View, FRAME, LINEAR,
)

if TYPE_CHECKING:
    from mobile_gym.simulator.runtime import Runtime


class Surface:
    """Something that shows views and keeps per-screen UI state: text-field contents,
    scroll offsets (px) and which field has focus."""

    def __init__(self) -> None:
        self.fields: dict[str, str] = {}
        self.scroll: dict[str, int] = {}
        self.focus: str | None = None
        self.select_all = False  # the focused field's text is selected: typing replaces it

    def build(self) -> View:
        raise NotImplementedError

    def inputs(self) -> Hashable | None:
        """What `build` reads besides the surface's fields and focus and the clock, as a
        hashable value, where the app can say it cheaply (`build` never reads `scroll`).
        In retained mode, while it stays equal the runtime shows the window built last
        instead of building again (laid out again if scrolled), handlers included: so it
        must also change when an object a handler closes over is replaced by another. It
        may first make the changes `build` makes before drawing (Chrome's `Main` settles a
        new page), nothing else. None (the default): built every time the screen may
        change."""
        return None

    def on_back(self) -> bool:
        """Handle BACK before the system does (close a search, go back in a web view)."""
        return False

    def on_swipe(self, dx: float, dy: float) -> bool:
        """A swipe (px, finger movement) that no scroller took; True if handled."""
        return False

    def on_focus(self, field: str) -> None:
        """A text field got focus."""


class Activity(Surface):
    """One screen of an app. ``name`` is the class name (``.Foo`` is relative to the
    package), reported as the foreground activity."""

    name: ClassVar[str] = ".MainActivity"

    def __init__(self, app: App) -> None:
        super().__init__()
        self.app = app

    @property
    def sys(self) -> Runtime:
        return self.app.sys

    @property
    def component(self) -> str:
        return normalize_activity(f"{self.app.package}/{self.name}")

    def on_home(self) -> None:
        """HOME was pressed while this activity was on top (the launcher resets)."""

    def start(self, activity: Activity) -> None:
        self.app.sys.start(activity)

    def finish(self) -> None:
        self.app.sys.finish(self)


class Dialog(Surface):
    """A window over the current activity: an alert with buttons by default, or any
    views (``build`` overridden). ``modal`` dims the screen; a tap on the dim area
    cancels a ``cancelable`` dialog, as does BACK."""

    def __init__(
        self,
        title: str = "",
        message: str = "",
        buttons: tuple[tuple[str, Callable[[], None] | None], ...] = (("OK", None),),
        *,
        cancelable: bool = True,
        modal: bool = True,
        package: str = "",
        kind: str = "alert",
    ) -> None:
        super().__init__()
        self.title = title
        self.message = message
        self.buttons = buttons
        self.cancelable = cancelable
        self.modal = modal
        self.package = package
        self.kind = kind  # "alert", "sheet" (bottom sheet) or "menu" (popup at top right)
        self.sys: Runtime | None = None  # set when shown
        #: The px bounds of the view a popup hangs from (a long-pressed launcher icon):
        #: the runtime shows it under (or over) that view instead of by ``kind``.
        self.anchor: tuple[int, int, int, int] | None = None

    def close(self) -> None:
        assert self.sys is not None
        self.sys.dismiss(self)

    def _press(self, handler: Callable[[], None] | None) -> None:
        self.close()
        if handler is not None:
            handler()

    def build(self) -> View:
        """Material alert: title, message, buttons in a row at the bottom right."""
        buttons = [
            Button(label, _Press(self, handler), style="text", w=max(64, 10 * len(label) + 24),
                   rid="android:id/button" + str(i + 1))
            for i, (label, handler) in enumerate(reversed(self.buttons))
        ]
        return Column(
            Text(self.title, size=22, rid="android:id/alertTitle", lines=1) if self.title else None,
            Text(self.message, size=14, lines=max(1, len(self.message) // 34 + 1),
                 rid="android:id/message") if self.message else None,
            Row(Spacer(), *reversed(buttons), h=52, cls=LINEAR, rid="android:id/buttonPanel"),
            cls=FRAME, pad=(24, 20, 16, 8), gap=12, w=312, align="center", style="dialog",
            radius=28, rid="android:id/parentPanel",
        )


class _Press:
    """A dialog button's click: close the dialog, then run the handler (picklable)."""

    def __init__(self, dialog: Dialog, handler: Callable[[], None] | None):
        self.dialog, self.handler = dialog, handler

    def __call__(self) -> None:
        self.dialog._press(self.handler)


class App:
    """A package: its label and icon in the launcher, persistent ``state`` (an instance
    of the dataclass ``State``) and its back stack of activities."""

    package: ClassVar[str] = ""
    label: ClassVar[str] = ""
    key: ClassVar[str] = ""  # short name used in task setup, e.g. "settings"
    icon: ClassVar[str] = "app"  # glyph drawn in the launcher
    color: ClassVar[tuple[int, int, int]] = (66, 133, 244)  # icon background
    State: ClassVar[type] = type(None)
    #: Which random stream `vary` draws from: 0 the phone's own, shared in the order apps
    #: are made; an app added to the simulator later takes a stream of its own (the
    #: phone's generator jumped that many times), so that adding it leaves every other
    #: app's seeded content as it was.
    stream: ClassVar[int] = 0
    #: Whether a cold launch may show the app's loading screen first (dynamics'
    #: ``loading_rate``): real apps take a moment to start, and an agent must wait for
    #: them. Apps opt in; the launcher and the stand-in apps never load.
    loading_screen: ClassVar[bool] = False

    def __init__(self, sys: Runtime) -> None:
        self.sys = sys
        self.state = self.State() if self.State is not type(None) else None
        self.stack: list[Activity] = []
        self.dialogs: list[Dialog] = []  # open over the top activity

    # hooks -----------------------------------------------------------------
    def main(self) -> Activity:
        """The activity the launcher starts."""
        raise NotImplementedError

    def vary(self, rng: np.random.Generator) -> None:
        """Draw seeded content variation (dynamics ``default``)."""

    def popups(self, activity: Activity) -> list[Dialog]:
        """Popups dynamics may show when ``activity`` opens (each kind once a run)."""
        return []

    def on_package_changed(self, package: str, installed: bool) -> None:
        """Another package was installed or uninstalled (the launcher adds its icon)."""

    def shortcuts(self) -> list[tuple[str, Callable[[], None]]]:
        """The app's launcher shortcuts (label, what choosing it does), listed in the menu a
        long press on its launcher icon opens, as Android's static shortcuts are."""
        return []

    @property
    def loading_text(self) -> str:
        """What the app's loading screen says under its icon: its name, as splash screens do."""
        return self.label

    def system_ui(self) -> dict:
        """Hints for the system UI: ``dark`` theme, status-bar ``icons`` [(glyph, desc)]."""
        return {}

    # task setup and oracles ---------------------------------------------------
    def configure(self, values: Mapping[str, Any]) -> None:
        """Set state fields from a task's setup; unknown fields or wrong types raise."""
        configure_fields(self.state, values, f"app {self.key!r}")

    def view(self) -> Any:
        """A read-only view of the state for oracles."""
        return ReadOnly(self.state)


def configure_fields(state: Any, values: Mapping[str, Any], owner: str) -> None:
    """Set fields of a state dataclass from setup values, type-checked against their
    current values; unknown fields or wrong types raise (``owner`` names it in errors).
    Shared by apps and by the web sites Chrome hosts."""
    if state is None:
        if values:
            raise SimulatorError(f"{owner} has no configurable state")
        return
    known = {f.name: f for f in dataclasses.fields(state)}
    for name, value in values.items():
        if name not in known:
            raise SimulatorError(
                f"{owner} has no state field {name!r}; known: {', '.join(sorted(known))}")
        current = getattr(state, name)
        if current is not None and not _compatible(current, value):
            raise SimulatorError(
                f"{owner} field {name!r} expects {type(current).__name__}, got {value!r}")
        setattr(state, name, _coerce(current, value))


def _compatible(current: Any, value: Any) -> bool:
    if isinstance(current, bool):
        return isinstance(value, bool)
    if isinstance(current, (int, float)) and not isinstance(current, bool):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(current, (list, tuple)):
        return isinstance(value, (list, tuple))
    if isinstance(current, dict):
        return isinstance(value, Mapping)
    return isinstance(value, type(current))


def _coerce(current: Any, value: Any) -> Any:
    if isinstance(current, list):
        return [_revive(current, v) for v in value]
    if isinstance(current, float):
        return float(value)
    if isinstance(current, dict):
        return dict(value)
    return value


def _revive(current: list, value: Any) -> Any:
    """List items given as mappings become the dataclass the list already holds."""
    if current and dataclasses.is_dataclass(current[0]) and isinstance(value, Mapping):
        return type(current[0])(**value)
    return value


def frozen(value: Any) -> Any:
    """A read-only copy-free view: lists become tuples, dicts mapping proxies, sets
    frozensets and dataclasses `ReadOnly` views."""
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    if isinstance(value, dict):
        return types.MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, set):
        return frozenset(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return ReadOnly(value)
    return value


class ReadOnly:
    """Attribute access to a dataclass's fields, with containers frozen; no writes."""

    __slots__ = ("_target",)

    def __init__(self, target: Any) -> None:
        object.__setattr__(self, "_target", target)

    def __getattr__(self, name: str) -> Any:
        return frozen(getattr(self._target, name))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"app state is read-only; cannot set {name!r}")

    def __repr__(self) -> str:
        return f"ReadOnly({self._target!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ReadOnly) and self._target == other._target

    def __hash__(self) -> int:
        return id(self._target)
