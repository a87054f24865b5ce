"""The simulated Android system: packages, per-app back stacks, windows, input.

`Runtime` owns everything that is not an app: which app is in front, dialogs, the soft
keyboard, the status and navigation bars, the virtual clock and the package manager. It
turns the foreground screen into a `Frame` (laid-out windows) and routes taps, swipes,
typed text and keys to the views and surfaces under them, with Android's rules:
a tap goes to the topmost clickable node under the finger (a non-clickable child passes
it to its clickable ancestor); BACK hides the keyboard, then cancels a dialog, then lets
the screen handle it, then pops the activity, then returns to the launcher.

Gestures beyond taps follow the framework too: a long press goes to the topmost clickable
or long-clickable view under the finger; its long-click handler runs if it has one, a text
field selects its text and shows the floating "Cut / Copy / Paste / Select all" toolbar,
and anything else takes it as a click (the framework clicks once the long press ends
unhandled). An app launched cold may first show its loading screen (dynamics'
``loading_rate``), which swallows input until a step or two have passed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Hashable, Iterator, NamedTuple, TypeVar

import numpy as np

from mobile_gym.app_names import resolve_app
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog, Surface
from mobile_gym.simulator.dump import hierarchy_of_windows, joined_dump, node_records, window_dump
from mobile_gym.simulator.dynamics import Dynamics
from mobile_gym.simulator.layout import Box, Layout
from mobile_gym.simulator.profiles import DeviceProfile
from mobile_gym.simulator.retained import Placed, Tree, place
from mobile_gym.simulator.text import MAX_FIELD_LENGTH, typed
from mobile_gym.simulator.views import (
    BUTTON, FRAME, IMAGE, IMAGE_BUTTON, LINEAR, PROGRESS, TEXT, VIEW, View,
)
from mobile_gym.ui.hierarchy import ViewHierarchy

SYSTEMUI = "com.android.systemui"
KEYBOARD_PACKAGE = "com.google.android.inputmethod.latin"
LAUNCHER_PACKAGE = "com.google.android.apps.nexuslauncher"
#: The keyboard's Enter (IME action) key, by Gboard's id.
ENTER_KEY = f"{KEYBOARD_PACKAGE}:id/key_pos_ime_action"
SECONDS_PER_ACTION = 5  # virtual time an action takes (agents are not instant)
SECONDS_PER_WAIT = 1  # virtual time a WAIT lets pass: a second, as AndroidWorld's wait
#: The random stream loading screens draw from (the phone's generator jumped this many
#: times at boot): whether an app loads slowly never moves the phone's own stream, so the
#: popups and content a seed gave stay as they were.
LOADING_STREAM = 64
#: Android's floating text toolbar (the selection's action mode), by its ids.
TOOLBAR_ID = "android:id/floating_toolbar_menu_item_text"
KEYBOARD_DP = 264


@dataclass
class Window:
    """One laid-out window of a frame."""

    root: View
    package: str
    surface: Surface | None = None  # who handles its input; None for system windows
    kind: str = "app"  # app, alert, sheet, menu, toolbar, keyboard, status, nav, toast
    placed: Placed | None = None  # its layout in retained mode (None: the reference path)
    tree: Tree | None = None  # ... and its views (an activity lays them out again when scrolled)

    def __post_init__(self) -> None:
        self.root.package = self.package  # the dump writes it on every node

    def in_place(self) -> Window:
        """This window, its views carrying its layout (a later frame may have laid them
        out at other scroll offsets)."""
        if self.tree is not None:
            self.tree.carry(self.placed)
        return self


@dataclass
class Frame:
    """What the screen shows after layout; kept until something it shows may change."""

    windows: list[Window]
    activity: str
    dark: bool
    scale_dp: float  # px per dp
    ui: dict = field(default_factory=dict)  # the system UI hints it was built with (`Runtime.system_ui`)
    clock: tuple[int, int] = (0, 0)  # the runtime's (time, steps) when it was last shown
    clock_reads: dict | None = None  # the clock values its apps' windows showed (`Runtime.read_clock`)
    ui_clock_reads: dict | None = None  # ... and the system UI hints did (an alarm's icon says when it rings)
    _xml: str | None = field(default=None, repr=False)
    _same_apps: tuple | None = field(default=None, repr=False)
    _hierarchy: ViewHierarchy | None = field(default=None, repr=False)

    @property
    def xml(self) -> str:
        if self._xml is None:
            shown = self._shown()
            parts = [(w.root, w.in_place().placed.fragment(w.root, i, w.package) if w.placed is not None
                      else window_dump(w.root, i, w.package)) for i, w in enumerate(shown)]
            self._xml = joined_dump([text for _, text in parts])
            # what the status and navigation bars show (the clock ticks) is no new screen
            # for the app windows: only where the bars are
            self._same_apps = tuple(root.clip if root.package == SYSTEMUI else text for root, text in parts)
        return self._xml

    def hierarchy(self) -> ViewHierarchy:
        """The parse of `xml`, made from the views instead of parsing it."""
        if self._hierarchy is None:
            xml = self.xml  # writes the dump, and with it `_same_apps`
            records = [partial(_records, w, i) for i, w in enumerate(self._shown())]
            self._hierarchy = hierarchy_of_windows(records, xml, self._same_apps)
        return self._hierarchy

    def in_place(self) -> Frame:
        """This frame, the views of its windows carrying its layout (`Window.in_place`)."""
        for w in self.windows:
            w.in_place()
        return self

    def _shown(self) -> list[Window]:
        """The windows the dump writes: a toast is not in it, nor a window off screen."""
        return [w for w in self.windows if w.kind != "toast" and w.root.clip is not None]

    @property
    def retained(self) -> bool:
        """Made in retained mode: every window laid out through `retained.place`."""
        return all(w.placed is not None for w in self.windows)

    def with_window(self, window: Window, clock: tuple[int, int]) -> Frame:
        """This frame with its window of ``window.kind`` replaced (the status bar at a tick)."""
        windows = [window if w.kind == window.kind else w for w in self.windows]
        return Frame(windows, self.activity, self.dark, self.scale_dp, self.ui, clock, self.clock_reads,
                     self.ui_clock_reads)

    def nodes(self) -> Iterator[View]:
        for w in self.in_place().windows:
            for v in w.root.walk():
                if v.clip is not None:
                    yield v


def _records(window: Window, index: int) -> tuple[tuple, ...]:
    """The `dump.node_records` of ``window`` shown ``index``-th (read when a hierarchy's
    nodes are first read)."""
    if window.placed is None:
        return node_records(window.root, index, window.package)
    return window.in_place().placed.node_records(window.root, index, window.package)


AppFactory = Callable[["Runtime"], App]
T = TypeVar("T")


class _Built(NamedTuple):
    """An activity's window as built last (retained mode)."""

    inputs: Hashable  # its `Surface.inputs`, fields and focus then
    scroll: tuple  # its scroll offsets as laid out
    clock: dict[str, int]  # the clock readings it shows
    window: Window


#: Actions in a day of the launcher's date (it shows a weekday).
STEPS_PER_DAY = 100_000


class _ClockValue:
    """A reading of the virtual clock, recorded when read (`Runtime.read_clock`): a window
    built from it is remade when that reading changes, not at every tick. ``slot`` is
    where a settable reading is kept; the others are worked out by ``of``."""

    def __init__(self, slot: str = "", of: Callable[[Runtime], int] | None = None):
        self.slot = slot
        self.of = of or (lambda runtime: getattr(runtime, slot))

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, runtime: Runtime | None, owner: type | None = None):
        if runtime is None:
            return self
        value = runtime._clock_read[self.name] = self.of(runtime)
        return value

    def __set__(self, runtime: Runtime, value: int) -> None:
        if not self.slot:
            raise AttributeError(f"{self.name} follows from the time and step count; set those")
        setattr(runtime, self.slot, value)


class Runtime:
    """A booted device: set ``apps`` (package -> factory) and ``installed`` first.

    In retained mode (the default) a frame is kept until something may have changed it:
    a state change calls `invalidate` (input that reached a handler, apps started,
    dialogs shown, ...); a tick of the clock remakes only the status bar unless the apps'
    windows show a clock reading that changed (`read_clock`); a remade frame shows the
    foreground activity's last window again while its `Surface.inputs` are unchanged, and
    windows equal to ones laid out before take their layout, dump and pixels from memos
    (`mobile_gym.simulator.retained`). ``retained=False`` is
    the reference path: every frame made from scratch after every action."""

    def __init__(
        self,
        profile: DeviceProfile,
        dynamics: Dynamics,
        rng: np.random.Generator,
        factories: dict[str, AppFactory],
        installed: set[str],
        retained: bool = True,
    ) -> None:
        self.profile = profile
        self.dynamics = dynamics
        self.rng = rng
        self.factories = dict(factories)  # this phone's own: an app added to one phone is on no other
        self.installed = set(installed)
        self.apps: dict[str, App] = {}
        self.foreground = LAUNCHER_PACKAGE
        self.callers: dict[str, str] = {}  # app -> the app that opened it (BACK returns there)
        self.keyboard = False
        self.toast_text: str | None = None
        self.popups_shown: set[str] = set()
        self.retained = retained
        start = int(rng.integers(7 * 3600, 20 * 3600)) if dynamics.vary_clock else 10 * 3600
        self._time = start  # seconds since midnight, virtual
        self._steps = 0
        self._clock_read: dict[str, int] = {}  # clock readings taken while building (`read_clock`)
        self._frame: Frame | None = None
        self._hinting: list[str] | None = None  # `system_ui`'s apps, until packages change
        self._packages: frozenset[str] | None = None  # `packages`, until packages change
        self._built: dict[Surface, _Built] = {}  # retained mode: activities' last windows
        self._system_windows: dict[tuple, Window] = {}  # retained mode's laid-out bars, by what they show
        self._screenshots: dict[tuple[int, int], np.ndarray] = {}  # the current frame's, by size
        self.clipboard = ""  # what Cut / Copy (or an app's "Copy") put there; Paste puts it in a field
        self.text_toolbar: tuple[Surface, str] | None = None  # (surface, field) a long press selected
        self.press_bounds: tuple[int, int, int, int] | None = None  # the view long-pressed last (px)
        self._loading: tuple[str, int] | None = None  # (package, step at which its loading screen ends)
        self._loading_rng = (np.random.Generator(copy.deepcopy(rng.bit_generator).jumped(LOADING_STREAM))
                             if dynamics.loading_rate > 0 else None)
        for package in sorted(self.installed):
            self.app(package)
        self.home()

    def shut_down(self) -> None:
        """Let go of the apps, their back stacks and dialogs, the frame and the caches
        (the device was reset or closed). They reference each other in circles (an app
        and its activities), which Python's cycle collector would otherwise have to find,
        at a cost that grows with everything alive; cut, they are freed at once. Frames
        already handed out stay drawable."""
        for app in self.apps.values():
            app.stack.clear()
            app.dialogs.clear()
        self.apps.clear()
        self._frame, self._built, self._system_windows, self._screenshots = None, {}, {}, {}

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        # views hold closures; frames are rebuilt on demand
        state.update(_frame=None, _hinting=None, _packages=None, _built={}, _system_windows={}, _screenshots={}, _clock_read={})
        # sets as sorted lists: equal phones pickle alike (a set's order follows string hashes,
        # which differ between processes), so the route explorer can key states by pickle
        state["installed"], state["popups_shown"] = sorted(self.installed), sorted(self.popups_shown)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.installed, self.popups_shown = set(state["installed"]), set(state["popups_shown"])

    # ------------------------------------------------------------------ clock
    time = _ClockValue("_time")  # virtual seconds since midnight (`SECONDS_PER_ACTION` a step)
    steps = _ClockValue("_steps")  # actions performed since boot
    minute = _ClockValue(of=lambda runtime: runtime._time // 60)  # minutes since midnight: what a clock face shows
    day = _ClockValue(of=lambda runtime: runtime._steps // STEPS_PER_DAY)  # days since boot, for a date

    def read_clock(self, build: Callable[[], T]) -> tuple[T, dict[str, int]]:
        """What ``build`` returns, and the clock readings it took (name -> value)."""
        outer, self._clock_read = self._clock_read, {}
        try:
            return build(), self._clock_read
        finally:
            outer.update(self._clock_read)
            self._clock_read = outer

    def clock_moved(self, reads: dict[str, int] | None) -> bool:
        """Whether any of the clock readings ``reads`` (None: unknown) would differ now."""
        return reads is None or any(getattr(type(self), name).of(self) != value for name, value in reads.items())

    # ------------------------------------------------------------------ packages
    def app(self, package: str) -> App:
        """The app of an installed package (created on first use)."""
        if package not in self.installed:
            raise SimulatorError(f"package {package!r} is not installed")
        app = self.apps.get(package)
        if app is None:
            factory = self.factories.get(package)
            if factory is None:
                raise SimulatorError(f"no simulated app for package {package!r}")
            app = self.apps[package] = factory(self)
            if self.dynamics.vary_content:
                app.vary(self.rng if not app.stream else
                         np.random.Generator(copy.deepcopy(self.rng.bit_generator).jumped(app.stream)))
        return app

    def install(self, package: str) -> None:
        if package not in self.factories:
            raise SimulatorError(f"no simulated app for package {package!r}")
        self.installed.add(package)
        self.app(package)
        self._announce(package, True)

    def uninstall(self, package: str) -> None:
        self.installed.discard(package)
        self.apps.pop(package, None)
        if self.foreground == package:
            self.home()
        self._announce(package, False)

    def packages(self) -> frozenset[str]:
        """The installed packages as a value (screens' `inputs`, observations), made once
        until packages change."""
        if self._packages is None:
            self._packages = frozenset(self.installed)
        return self._packages

    def _announce(self, package: str, installed: bool) -> None:
        self._hinting = self._packages = None
        for app in list(self.apps.values()):
            app.on_package_changed(package, installed)
        self.invalidate()

    # ------------------------------------------------------------------ activities
    @property
    def activity(self) -> Activity:
        return self.app(self.foreground).stack[-1]

    @property
    def surface(self) -> Surface:
        """Where input goes: the top dialog, else the foreground activity."""
        dialogs = self.app(self.foreground).dialogs
        return dialogs[-1] if dialogs else self.activity

    def launch(self, package: str, *, splash: bool = True) -> None:
        """Bring an app to the front, resuming its back stack like the launcher does.
        Opened from another app (Play Store's "Open"), BACK from its first screen
        returns to that app, as Android returns to the previous task. Started cold, it
        may show its loading screen first (`loading`); ``splash=False`` never does (a
        task's setup hands over a phone already settled)."""
        app = self.app(package)
        self.keyboard = False
        self.text_toolbar = None
        if self._loading is not None and self._loading[0] != package:
            self._loading = None  # another app to the front: the one loading is done by its return
        if self.foreground not in (LAUNCHER_PACKAGE, package):
            self.callers[package] = self.foreground
        elif self.foreground == LAUNCHER_PACKAGE:
            self.callers.pop(package, None)
        self.foreground = package
        if not app.stack:
            self.start(app.main())
            if splash:
                self._maybe_load(app)
        self.invalidate()

    def _maybe_load(self, app: App) -> None:
        """A cold start: with the dynamics' ``loading_rate`` (drawn from the loading
        stream, only for apps that have a loading screen) the app shows it for the next
        one or two steps."""
        rng = self._loading_rng
        if rng is None or not app.loading_screen:
            return
        if rng.random() < self.dynamics.loading_rate:
            self._loading = (app.package, self._steps + 1 + int(rng.integers(1, 3)))

    @property
    def loading(self) -> bool:
        """The foreground app shows its loading screen: input to it is swallowed (HOME and
        OPEN_APP, the system's, still work) until the steps it takes have passed."""
        return (self._loading is not None and self._loading[0] == self.foreground
                and self._steps < self._loading[1])

    def long_click(self, handler: Callable[[], None]) -> Callable[[], None] | None:
        """``handler`` as a view's long click where this phone's apps show their long-press
        UIs (`Dynamics.long_presses`), else None: the view takes a long press as a click."""
        return handler if self.dynamics.long_presses else None

    def find_app(self, name: str) -> str:
        """The installed package an OPEN_APP's ``name`` means (`mobile_gym.app_names`: the
        launcher's label, case and spaces aside, or a store title, a package, the names
        task setups use). Raises `AppNotInstalledError`, naming the installed apps whose
        names come nearest, and changes nothing, when none does."""
        return resolve_app(name, self.installed, "the simulated phone")

    def open_app(self, package: str) -> None:
        """OPEN_APP of an installed ``package`` (`find_app` resolves a name to it): launched
        as a tap on its launcher icon does; the launcher itself goes home."""
        if package == LAUNCHER_PACKAGE:
            self.home()
        else:
            self.launch(package)

    def start(self, activity: Activity) -> None:
        app = activity.app
        app.stack.append(activity)
        self.foreground = app.package
        self.keyboard = False
        self.invalidate()
        if self.rng.random() < self.dynamics.popup_rate:
            for popup in app.popups(activity):
                key = f"{app.package}:{popup.title or popup.kind}:{type(popup).__name__}"
                if key not in self.popups_shown:
                    self.popups_shown.add(key)
                    self.show(popup, app)
                    break

    def finish(self, activity: Activity) -> None:
        app = activity.app
        if activity in app.stack:
            app.stack.remove(activity)
        self._built.pop(activity, None)
        self.keyboard = False
        if not app.stack and self.foreground == app.package:
            caller = self.callers.pop(app.package, None)
            if caller in self.installed and self.app(caller).stack:
                self.foreground = caller
            else:
                self.home()
        self.invalidate()

    def home(self) -> None:
        self.keyboard = False
        self.text_toolbar = None
        self._loading = None  # the app loads on in the background: ready when it returns
        launcher = self.app(LAUNCHER_PACKAGE)
        self.foreground = LAUNCHER_PACKAGE
        if not launcher.stack:
            launcher.stack.append(launcher.main())
        launcher.dialogs.clear()
        launcher.stack[-1].on_home()
        self.invalidate()

    def show(self, dialog: Dialog, app: App | None = None) -> None:
        app = app or self.app(self.foreground)
        dialog.sys = self
        dialog.package = dialog.package or app.package
        app.dialogs.append(dialog)
        self.keyboard = False
        self.invalidate()

    def dismiss(self, dialog: Dialog) -> None:
        for app in self.apps.values():
            if dialog in app.dialogs:
                app.dialogs.remove(dialog)
        self.invalidate()

    def toast(self, text: str) -> None:
        self.toast_text = text
        self.invalidate()

    def clear_toast(self) -> None:
        """A toast shows until the next action."""
        if self.toast_text is not None:
            self.toast_text = None
            self.invalidate()

    def invalidate(self) -> None:
        """Something the screen shows may have changed: the next frame is made anew."""
        self._frame = None

    # ------------------------------------------------------------------ input
    def tap(self, x: int, y: int) -> None:
        self._touch(x, y, self._tap_in)

    def _touch(self, x: int, y: int, act: Callable[[Window, int, int], None]) -> None:
        """Deliver a touch at (x, y) to the window that takes it, with ``act``: the
        topmost one under it; a popup takes every touch (one outside cancels it, if it
        may be cancelled); one outside the text toolbar closes it and goes on below."""
        frame = self.frame()
        for window in reversed(frame.windows):
            if window.kind == "toast":
                continue
            inside = _contains(window.root.clip, x, y)
            if window.kind == "toolbar":
                if inside:
                    self._tap_in(window, x, y)  # its buttons click, however long the press
                    return
                self._drop_selection()
                continue
            if window.kind in ("alert", "sheet", "menu"):
                if inside:
                    act(window, x, y)
                elif window.surface.cancelable:  # type: ignore[union-attr]
                    self.dismiss(window.surface)  # type: ignore[arg-type]
                return  # modal: nothing below gets the tap
            if inside:
                act(window, x, y)
                return

    def long_press(self, x: int, y: int) -> None:
        """A touch held past the long-press timeout at (x, y), px (see the module's notes);
        nothing while the foreground app is loading."""
        if self.loading:
            return
        self._touch(x, y, self._long_press_in)

    def _long_press_in(self, window: Window, x: int, y: int) -> None:
        v = _touch_target(window.root, x, y, long=True)
        if v is None or not v.enabled:
            return
        surface = window.surface
        if v.on_long_click is not None:
            self.press_bounds = v.clip or v.bounds  # where a popup it opens hangs from
            v.on_long_click()
            self.invalidate()
        elif v.field is not None and surface is not None:
            if surface.focus != v.field:
                surface.focus = v.field
                surface.on_focus(v.field)
            surface.select_all = True  # the word under the finger, here all its text
            self.text_toolbar = (surface, v.field)
            self.keyboard = True
            self.invalidate()
        else:
            self._tap_in(window, x, y)  # not handled: the framework clicks when it ends

    def double_tap(self, x: int, y: int) -> None:
        """Two taps at (x, y), px: the simulated apps have no double-tap gestures, so a
        view takes it as two clicks (the second lands on whatever the first showed)."""
        self.tap(x, y)
        self.tap(x, y)

    def _tap_in(self, window: Window, x: int, y: int) -> None:
        v = _touch_target(window.root, x, y)
        if v is None or not v.enabled:
            return
        surface = window.surface
        if v.field is not None and surface is not None:
            if surface.focus != v.field:
                surface.select_all = False
                surface.focus = v.field
                surface.on_focus(v.field)
            self.keyboard = True
            self.invalidate()
        if v.on_click is not None:
            v.on_click()
            self.invalidate()

    def swipe(self, x0: int, y0: int, x1: int, y1: int) -> None:
        if self.loading:
            return
        self._drop_selection()  # scrolling ends the selection
        frame = self.frame()
        dx, dy = x1 - x0, y1 - y0
        window = next(w for w in reversed(frame.windows) if w.surface is not None)
        surface = window.surface
        if abs(dy) >= abs(dx):
            for v in reversed(_path_at(window.root, x0, y0)):
                if v.scroll_key is not None:
                    surface.scroll[v.scroll_key] = surface.scroll.get(v.scroll_key, 0) - dy
                    self.invalidate()
                    return
        if surface.on_swipe(dx, dy):
            self.invalidate()

    def type_text(self, text: str) -> None:
        """Type at the end of the focused field (replacing its text if selected), as
        `typed` keys it, up to `MAX_FIELD_LENGTH` characters."""
        if self.loading:
            return
        surface = self.surface
        if surface.focus is None:
            return  # no focused field: the keystrokes go nowhere, as on a phone
        old = "" if surface.select_all else surface.fields.get(surface.focus, "")
        surface.fields[surface.focus] = (old + typed(text))[:MAX_FIELD_LENGTH]
        surface.select_all = False
        self.invalidate()

    def enter(self) -> None:
        if self.loading:
            return
        surface = self.surface
        if surface.focus is None:
            return
        field_name = surface.focus
        view = next((v for v in self.frame().nodes() if v.field == field_name), None)
        if view is not None and view.on_submit is not None:
            self.keyboard = False
            view.on_submit(surface.fields.get(field_name, ""))
        self.invalidate()

    def back(self) -> None:
        if self.loading:
            return  # the app is not drawn yet: BACK waits with the rest
        self._drop_selection()  # BACK ends the selection's action mode (and hides the keyboard)
        self.invalidate()
        if self.keyboard:
            self.keyboard = False
            return
        app = self.app(self.foreground)
        if app.dialogs:
            if app.dialogs[-1].cancelable:
                app.dialogs.pop()
            return
        activity = self.activity
        if activity.on_back():
            return
        if app.package == LAUNCHER_PACKAGE:
            return
        self.finish(activity)

    def tick(self, seconds: int = SECONDS_PER_ACTION) -> None:
        """An action's step: the step count and the clock move on; a loading screen whose
        steps have passed gives way to the app."""
        self._steps += 1
        self._time = (self._time + seconds) % 86400
        if self._loading is not None and self._steps >= self._loading[1]:
            self._loading = None
            self.invalidate()
        if not self.retained:
            self.invalidate()

    def wait(self) -> None:
        """WAIT: a step in which nothing is touched and about a second passes (what
        settles a loading screen)."""
        self.tick(SECONDS_PER_WAIT)

    # ------------------------------------------------------------------ text selection
    def _toolbar_shows(self) -> bool:
        """The floating text toolbar shows while the field a long press selected keeps
        the focus with its text selected, on the surface that takes input."""
        t = self.text_toolbar
        if t is None or self.loading:
            return False
        surface, field_name = t
        return surface is self.surface and surface.focus == field_name and surface.select_all

    def _selection(self) -> tuple[Surface, str] | None:
        return self.text_toolbar if self._toolbar_shows() else None

    def cut(self) -> None:
        selected = self._selection()
        if selected is not None:
            surface, name = selected
            self.clipboard = surface.fields.get(name, "")
            surface.fields[name] = ""
            self._end_selection(surface)

    def copy(self) -> None:
        selected = self._selection()
        if selected is not None:
            surface, name = selected
            self.clipboard = surface.fields.get(name, "")
            self._end_selection(surface)

    def paste(self) -> None:
        """The clipboard replaces the selection (pasted, not typed: no keys are pressed)."""
        selected = self._selection()
        if selected is not None:
            surface, name = selected
            surface.fields[name] = self.clipboard[:MAX_FIELD_LENGTH]
            self._end_selection(surface)

    def select_all_text(self) -> None:
        selected = self._selection()
        if selected is not None:
            selected[0].select_all = True
            self.invalidate()

    def _drop_selection(self) -> None:
        """A touch elsewhere, a scroll or BACK: the long-pressed field's selection ends."""
        if self.text_toolbar is not None:
            self._end_selection(self.text_toolbar[0])

    def _end_selection(self, surface: Surface) -> None:
        surface.select_all = False
        self.text_toolbar = None
        self.invalidate()

    # ------------------------------------------------------------------ frames
    def frame(self) -> Frame:
        frame = self._frame
        now = (self._time, self._steps)
        if frame is not None and frame.clock != now:
            if self.clock_moved(frame.clock_reads) or (self.clock_moved(frame.ui_clock_reads)
                                                        and self.system_ui() != frame.ui):
                frame = None
            else:  # only the status bar's clock may have moved
                status = self._status_window(frame.ui)
                if any(w is status for w in frame.windows):
                    frame.clock = now  # the same minute: the same frame
                else:
                    frame = frame.with_window(status, now)
        if frame is None:
            frame = self._build()
        if frame is not self._frame:
            self._frame, self._screenshots = frame, {}
        return frame.in_place()  # input finds its views where they are shown

    def screenshots(self, frame: Frame) -> dict[tuple[int, int], np.ndarray]:
        """Where the screenshots of ``frame`` are kept by size: the current frame's are
        kept until the screen changes (its observations share them); another frame's
        (a trace's, drawn when saved) are not kept, so a trace holds no pixels."""
        return self._screenshots if frame is self._frame else {}

    def _build(self) -> Frame:
        W, H = self.profile.size
        density = self.profile.density
        ui, ui_reads = self.read_clock(self.system_ui)
        app = self.app(self.foreground)
        activity = self.activity
        top, bottom = self._bars_px()
        if self.loading:
            windows, reads = [self._splash_window(app)], {}
        else:
            windows, reads = self.read_clock(lambda: self._app_windows(app, activity))
            surface = app.dialogs[-1] if app.dialogs else activity
            if self.keyboard and surface.focus is not None:
                windows.append(self.keyboard_window())
            if self._toolbar_shows():
                windows.append(self._toolbar_window(windows, app.package))
        if self.toast_text:
            box = (0, bottom - int(120 * density), W, bottom - int(72 * density))
            windows.append(self._system_window("toast", self.toast_text, app.package, self._toast, box,
                                               floating=True))
        windows.append(self._status_window(ui))
        windows.append(self._system_window("nav", None, SYSTEMUI, self._nav_bar, (0, bottom, W, H)))
        return Frame(windows, activity.component, bool(ui.get("dark")), density, ui,
                     (self._time, self._steps), reads, ui_reads)

    def _app_windows(self, app: App, activity: Activity) -> list[Window]:
        """The foreground activity's window and its app's dialogs over it, laid out."""
        W, H = self.profile.size
        windows = [self._activity_window(app, activity)]
        top, bottom = self._bars_px()
        for dialog in app.dialogs:
            box = _fill_fields(dialog.build(), dialog)
            box.align = _DIALOG_PLACEMENT.get(dialog.kind, "center")
            area = (0, top, W, bottom)
            if dialog.anchor is not None:
                box.align, area = "top_left", self._anchored(box, dialog.anchor)
            holder = View(FRAME, [box], orient="z")
            placed = self._place(holder, area, dialog.scroll)
            windows.append(Window(box, dialog.package, dialog, dialog.kind, placed))
        return windows

    def _activity_window(self, app: App, activity: Activity) -> Window:
        """The activity's window: in retained mode the one built last while the activity's
        `inputs`, fields, focus and the clock readings it showed are unchanged (its views
        laid out again if only its scroll offsets changed)."""
        inputs = activity.inputs() if self.retained else None
        screen = (0, 0, *self.profile.size)
        if inputs is not None:
            inputs = (inputs, tuple(activity.fields.items()), activity.focus)
            kept = self._built.get(activity)
            if kept is not None and kept.inputs == inputs and not self.clock_moved(kept.clock):
                self._clock_read.update(kept.clock)  # what the frame shows
                if kept.scroll != tuple(activity.scroll.items()):  # scrolled: the same views laid out again
                    old = kept.window
                    window = Window(old.root, app.package, activity, "app",
                                    self._place(old.root, screen, activity.scroll, old.tree), old.tree)
                    kept = self._built[activity] = kept._replace(scroll=tuple(activity.scroll.items()), window=window)
                return kept.window

        def build() -> Window:
            content = _fill_fields(activity.build(), activity)
            root = View(FRAME, [View(LINEAR, [View(FRAME, [content], rid="android:id/content", fill=True,
                                                   orient="z")],
                                     pad=(0, self.profile.status_bar_dp, 0, self.profile.nav_bar_dp))],
                        orient="z")
            tree = Tree(root) if self.retained else None
            return Window(root, app.package, activity, "app", self._place(root, screen, activity.scroll, tree), tree)

        window, reads = self.read_clock(build)
        if inputs is not None:
            if len(self._built) >= 64:
                self._built.clear()
            self._built[activity] = _Built(inputs, tuple(activity.scroll.items()), reads, window)  # as laid out
        return window

    def _anchored(self, box: View, anchor: tuple[int, int, int, int]) -> Box:
        """Where a popup hanging from the view at ``anchor`` (px) goes: under it, or over
        it when there is no room below, its left edge at the view's, kept on screen."""
        W = self.profile.size[0]
        top, bottom = self._bars_px()
        density = self.profile.density
        h = Layout(density, {}).measure(box)
        w = int(round((box.w or 200) * density))
        x = max(0, min(anchor[0], W - w))
        y = anchor[3] if anchor[3] + h <= bottom else max(top, anchor[1] - h)
        return (x, y, W, bottom)

    def _splash_window(self, app: App) -> Window:
        """The loading screen of ``app``: its icon and name over a spinning progress bar;
        nothing on it takes a touch."""
        def build() -> View:
            p = app.package
            content = View(LINEAR, [
                View(VIEW, h=0, fill=True, style="none"),
                View(IMAGE, desc=app.label, icon=app.icon, style="appicon", bg=app.color, h=96, w=96,
                     align="center", rid=f"{p}:id/splash_screen_icon"),
                View(TEXT, text=app.loading_text, size=22, align="center", h=40, rid=f"{p}:id/splash_screen_title"),
                View(PROGRESS, desc="Loading", icon="refresh", h=48, w=48, align="center",
                     rid=f"{p}:id/loading_progress"),
                View(VIEW, h=0, fill=True, style="none"),
            ], gap=16, rid=f"{p}:id/splash_screen_view")
            return View(FRAME, [View(LINEAR, [View(FRAME, [content], rid="android:id/content", fill=True,
                                                   orient="z")],
                                     pad=(0, self.profile.status_bar_dp, 0, self.profile.nav_bar_dp))],
                        orient="z")

        return self._system_window("app", ("splash", app.icon, app.label, app.loading_text), app.package,
                                   build, (0, 0, *self.profile.size))

    def _toolbar_window(self, windows: list[Window], package: str) -> Window:
        """The floating text toolbar over the selected field (above it, or below when it
        is at the top): Cut and Copy when it holds text, Paste when the clipboard does,
        Select all."""
        surface, name = self.text_toolbar  # type: ignore[misc]
        field_view = next((v for w in windows if w.surface is surface for v in w.in_place().root.walk()
                           if v.field == name and v.clip is not None), None)
        text = surface.fields.get(name, "")
        items = [("Cut", self.cut) if text else None, ("Copy", self.copy) if text else None,
                 ("Paste", self.paste) if self.clipboard else None, ("Select all", self.select_all_text)]
        buttons = [View(BUTTON, text=label, desc=label, on_click=handler, style="text", h=48,
                        w=12 + 9 * len(label), align="center", rid=TOOLBAR_ID)
                   for label, handler in filter(None, items)]
        root = View(LINEAR, buttons, orient="h", style="card", radius=8, pad=(4, 0, 4, 0),
                    rid="android:id/floating_toolbar_menu", desc="Text selection toolbar")
        density = self.profile.density
        w = int(round((8 + sum(b.w for b in buttons)) * density))
        h = int(round(48 * density))
        W = self.profile.size[0]
        top, bottom = self._bars_px()
        l, t, _, b = field_view.clip if field_view is not None else (0, top, W, top)
        x = max(0, min(l, W - w))
        y = t - h if t - h >= top else min(b, bottom - h)
        return Window(root, package, None, "toolbar", self._place(root, (x, y, x + w, y + h), {}))

    def _bars_px(self) -> tuple[int, int]:
        """Where the status bar ends and the navigation bar starts, px from the top."""
        density = self.profile.density
        return (int(round(self.profile.status_bar_dp * density)),
                self.profile.size[1] - int(round(self.profile.nav_bar_dp * density)))

    def _place(self, root: View, box: Box, scroll: dict[str, int], tree: Tree | None = None) -> Placed | None:
        """Lay ``root`` out in ``box``: in retained mode through `retained.place` (``tree``:
        its views, if already known)."""
        screen = (0, 0, *self.profile.size)
        if self.retained:
            return place(tree or Tree(root), box, screen, self.profile.density, scroll)
        Layout(self.profile.density, scroll).place(root, box, screen)
        return None

    def _status_window(self, ui: dict) -> Window:
        icons = tuple(tuple(icon) for icon in ui["icons"])
        return self._system_window("status", (self.clock_text(), icons), SYSTEMUI,
                                   lambda: self._status_bar(icons), (0, 0, self.profile.size[0], self._bars_px()[0]))

    def _system_window(self, kind: str, shows: Hashable, package: str, build: Callable[[], View],
                       box: Box, floating: bool = False) -> Window:
        """A window of the system (bars, keyboard, toast) laid out in ``box`` (filling it,
        or placed in it by its own size and alignment if ``floating``); in retained mode
        made once per thing it ``shows``."""
        key = (kind, shows, package)
        window = self._system_windows.get(key)
        if window is None:
            view = build()
            holder = View(FRAME, [view], orient="z") if floating else view
            window = Window(view, package, None, kind, self._place(holder, box, {}))
            if self.retained:
                if len(self._system_windows) >= 64:  # a long run's clock shows many minutes
                    self._system_windows.clear()
                self._system_windows[key] = window
        return window

    def system_ui(self) -> dict:
        """Merged hints apps give the system UI (dark theme, status-bar icons)."""
        merged: dict = {"icons": []}
        if self._hinting is None:  # the installed apps that give hints, in package order
            self._hinting = [p for p in sorted(self.installed) if type(self.app(p)).system_ui is not App.system_ui]
        for package in self._hinting:
            hints = self.apps[package].system_ui()
            merged["icons"] += hints.get("icons", [])
            merged.update({k: v for k, v in hints.items() if k != "icons"})
        return merged

    def clock_text(self) -> str:
        minute = self.minute
        return f"{minute // 60}:{minute % 60:02d}"

    def _status_bar(self, shown: tuple) -> View:
        icons = [View(IMAGE, desc=desc, icon=icon, w=20, h=24) for icon, desc in shown]
        return View(FRAME, [
            View(LINEAR, [
                View(TEXT, text=self.clock_text(), rid=f"{SYSTEMUI}:id/clock", w=56, h=24, size=14),
                View(LINEAR, [], weight=1, h=24),
                View(LINEAR, [*icons, View(IMAGE, desc="Battery 100 percent.", icon="battery", w=20, h=24)],
                     orient="h", rid=f"{SYSTEMUI}:id/system_icons", w=24 * (len(icons) + 1), h=24),
            ], orient="h", pad=(16, 0, 16, 0)),
        ], rid=f"{SYSTEMUI}:id/status_bar", style="statusbar")

    def _nav_bar(self) -> View:
        def button(rid: str, desc: str, icon: str, handler) -> View:
            return View(IMAGE_BUTTON, rid=f"{SYSTEMUI}:id/{rid}", desc=desc, icon=icon,
                        on_click=handler, w=80, h=48)

        return View(FRAME, [
            View(LINEAR, [
                View(LINEAR, [], weight=1),
                button("back", "Back", "nav_back", self.back),
                View(LINEAR, [], weight=1),
                button("home", "Home", "nav_home", self.home),
                View(LINEAR, [], weight=1),
                button("recent_apps", "Overview", "nav_recents", None),
                View(LINEAR, [], weight=1),
            ], orient="h", rid=f"{SYSTEMUI}:id/nav_buttons"),
        ], rid=f"{SYSTEMUI}:id/navigation_bar_frame", style="navbar")

    def _toast(self) -> View:
        text = self.toast_text or ""
        return View(FRAME, [View(TEXT, text=text, h=48, align="center", size=14, fg=(240, 240, 240),
                                 rid="android:id/message")],
                    style="toast", w=min(320, 8 * len(text) + 48), h=48, pad=(0, 0, 0, 0), radius=24, align="center")

    def keyboard_window(self) -> Window:
        """The soft keyboard's window, above the navigation bar: what shows while a field
        has the focus (made whether it shows now or not)."""
        bottom = self._bars_px()[1]
        return self._system_window("keyboard", None, KEYBOARD_PACKAGE, self._keyboard,
                                   (0, bottom - kb_px(self.profile.density), self.profile.size[0], bottom))

    def _keyboard(self) -> View:
        return View(FRAME, [
            View(IMAGE_BUTTON, rid=ENTER_KEY, desc="Enter",
                 icon="enter", on_click=self.enter, w=72, h=56, align="bottom_right"),
        ], orient="z", rid=f"{KEYBOARD_PACKAGE}:id/keyboard_holder", style="keyboard",
            pad=(0, 0, 8, 8))


_DIALOG_PLACEMENT = {"alert": "center", "sheet": "bottom", "menu": "top_right"}


def kb_px(density: float) -> int:
    return int(round(KEYBOARD_DP * density))


def _contains(box, x: int, y: int) -> bool:
    return box is not None and box[0] <= x < box[2] and box[1] <= y < box[3]


def _path_at(root: View, x: int, y: int) -> list[View]:
    """Root-to-leaf path of the topmost visible nodes containing (x, y)."""
    if not _contains(root.clip, x, y):
        return []
    path = [root]
    node = root
    while True:
        for child in reversed(node.children):
            if _contains(child.clip, x, y):
                node = child
                path.append(node)
                break
        else:
            return path


def _touch_target(view: View, x: int, y: int, long: bool = False) -> View | None:
    """Android's touch dispatch: children on top first; a child subtree that does not
    take the touch lets it fall through to the ones below, then to the view itself. A
    ``long`` press is also taken by a view that is only long-clickable."""
    if not _contains(view.clip, x, y):
        return None
    for child in reversed(view.children):
        target = _touch_target(child, x, y, long)
        if target is not None:
            return target
    takes = view.clickable or (long and view.long_clickable)
    return view if takes else None  # a disabled view still takes the touch


def _fill_fields(root: View, surface: Surface) -> View:
    """Give each text field its contents and focus from the surface; an empty field
    reports its hint as text, as Android does."""
    stack = [root]
    while stack:  # any order: each field on its own
        v = stack.pop()
        stack.extend(v.children)
        if v.field is not None:
            value = surface.fields.get(v.field, "")
            v.focused = surface.focus == v.field
            if value:
                v.text, v.hint = value, ""
            else:
                v.text = v.hint
    return root
