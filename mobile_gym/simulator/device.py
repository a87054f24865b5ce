"""`SimulatedDevice`: the `Device` backend that runs the simulator in process."""

from __future__ import annotations

from functools import partial
from typing import Any, Mapping

import numpy as np
from PIL import Image

from mobile_gym.actions import Action, ActionType
from mobile_gym.devices.base import Device
from mobile_gym.errors import DeviceError, InvalidActionError, SimulatorError
from mobile_gym.simulator.app import ReadOnly
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, FACTORIES, resolve_package
from mobile_gym.simulator.dynamics import Dynamics, get_dynamics
from mobile_gym.simulator.profiles import DEFAULT_PROFILE, DeviceProfile, get_profile
from mobile_gym.simulator.render import Renderer, check_screenshot_size
from mobile_gym.simulator.runtime import ENTER_KEY, Frame, Runtime
from mobile_gym.trace import UIState

SETUP_KEYS = ("launch", "install", "uninstall", "apps")


class SimulatedDevice(Device):
    """A seeded, deterministic Android-like phone in pure Python.

    ``setup`` (a task's initial state) may hold ``install`` / ``uninstall`` (lists of
    apps), ``apps`` (app -> {state field: value}) and ``launch`` (app to bring to the
    front); apps are named by package, setup key or label.

    >>> from mobile_gym.actions import Action
    >>> phone = SimulatedDevice(seed=0)
    >>> phone.foreground_activity()
    'com.google.android.apps.nexuslauncher/com.google.android.apps.nexuslauncher.NexusLauncherActivity'
    >>> phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))  # swipe up: the app drawer
    >>> 'Search your phone and more' in phone.observe(screenshot=False).xml
    True
    """

    def __init__(self, profile: str | DeviceProfile = DEFAULT_PROFILE,
                 dynamics: str | Dynamics = "none", seed: int | None = None,
                 setup: Mapping[str, Any] | None = None, *, retained: bool = True):
        self.profile = get_profile(profile)
        self.dynamics = get_dynamics(dynamics)
        self.retained = retained  # False: every frame made from scratch (the reference path, `Runtime`)
        self._runtime: Runtime | None = None
        self.reset(seed, setup)

    # ------------------------------------------------------------------ Device
    @property
    def screen_size(self) -> tuple[int, int]:
        return self.profile.size

    def reset(self, seed: int | None = None, setup: Mapping[str, Any] | None = None) -> None:
        setup = dict(setup or {})
        unknown = set(setup) - set(SETUP_KEYS)
        if unknown:
            raise SimulatorError(f"unknown setup keys {sorted(unknown)}; known: {', '.join(SETUP_KEYS)}")
        install = {resolve_package(a) for a in setup.get("install", ())}
        uninstall = {resolve_package(a) for a in setup.get("uninstall", ())}
        runtime = Runtime(self.profile, self.dynamics, np.random.default_rng(seed), FACTORIES,
                          (DEFAULT_INSTALLED | install) - uninstall, self.retained)
        for name, values in (setup.get("apps") or {}).items():
            if not isinstance(values, Mapping):
                raise SimulatorError(f"setup for app {name!r} must be a mapping of state fields")
            runtime.app(resolve_package(name)).configure(values)
        if setup.get("launch"):  # the task starts with the app ready: no loading screen
            runtime.launch(resolve_package(setup["launch"]), splash=False)
        self.close()
        self._runtime = runtime

    def observe(self, *, screenshot: bool = True, screenshot_size: tuple[int, int] | None = None,
                deferred_screenshot: bool = False) -> UIState:
        runtime = self._live()
        frame = runtime.frame()
        image = self._screenshot(frame, screenshot_size) if screenshot else None
        later = partial(self.render, frame) if deferred_screenshot and not screenshot else None
        return UIState(xml=frame.xml, screenshot=image, screenshot_source=later, activity=frame.activity,
                       installed_packages=runtime.packages(), screen_size=self.profile.size,
                       tree=frame.hierarchy)

    def perform(self, action: Action) -> None:
        runtime = self._live()
        if not isinstance(action, Action):
            raise InvalidActionError(f"expected an Action, got {type(action).__name__}")
        W, H = self.profile.size
        kind = action.action_type
        # an app not installed raises here, before anything changes
        package = runtime.find_app(action.text or "") if kind == ActionType.OPEN_APP else None
        runtime.clear_toast()
        if kind == ActionType.CLICK or (kind == ActionType.SWIPE and action.is_tap):
            runtime.tap(*_px(action.touch, W, H))
        elif kind == ActionType.LONG_PRESS:
            runtime.long_press(*_px(action.touch, W, H))
        elif kind == ActionType.DOUBLE_TAP:
            runtime.double_tap(*_px(action.touch, W, H))
        elif kind == ActionType.OPEN_APP:
            runtime.open_app(package)  # type: ignore[arg-type]
        elif kind == ActionType.WAIT:
            runtime.wait()  # its own step: about a second passes
            return
        elif kind == ActionType.SWIPE:
            runtime.swipe(*_px(action.touch, W, H), *_px(action.lift, W, H))
        elif kind == ActionType.TYPE:
            runtime.type_text(action.text)
        elif kind == ActionType.BACK:
            runtime.back()
        elif kind == ActionType.HOME:
            runtime.home()
        elif kind == ActionType.ENTER:
            runtime.enter()
        # COMPLETE, IMPOSSIBLE, ANSWER and INVALID touch nothing: only the clock moves on
        runtime.tick()

    def installed_packages(self) -> frozenset[str]:
        return self._live().packages()

    def foreground_activity(self) -> str:
        return self._live().frame().activity

    def close(self) -> None:
        if self._runtime is not None:
            self._runtime.shut_down()
        self._runtime = None

    # ------------------------------------------------------------------ extras
    def render(self, frame: Frame | None = None, size: tuple[int, int] | None = None) -> Image.Image:
        """A PIL screenshot of the current frame at ``size`` (default full size)."""
        shot = self._screenshot(frame or self._live().frame(), size)
        return Image.fromarray(shot) if isinstance(shot, np.ndarray) else shot

    def _screenshot(self, frame: Frame, size: tuple[int, int] | None = None) -> np.ndarray | Image.Image:
        """The frame's screenshot at ``size``: in retained mode a read-only array drawn
        once per frame and size (the frame's observations share it), else an image."""
        size = self.profile.size if size is None else check_screenshot_size(size, self.profile.size)
        renderer = Renderer(self.profile.size, size)
        if not frame.retained:
            return renderer.render(frame)
        runtime = self._runtime  # a trace may draw its frames after the phone is closed
        kept = runtime.screenshots(frame) if runtime is not None else {}
        pixels = kept.get(size)
        if pixels is None:
            pixels = kept[size] = renderer.pixels(frame)
        return pixels

    def app_state(self, app: str) -> ReadOnly:
        """Read-only view of an installed app's state, for task oracles
        (e.g. ``app_state("settings").wifi_enabled``)."""
        return self._live().app(resolve_package(app)).view()

    def enter_key(self) -> tuple[float, float]:
        """Where the keyboard draws its Enter key (its centre, normalised), whether the
        keyboard shows now or not: a record that writes an ENTER as the tap on that key,
        as LlamaTouch's does, needs it for screens without the keyboard."""
        window = self._live().keyboard_window().in_place()
        left, top, right, bottom = next(v.clip for v in window.root.walk() if v.rid == ENTER_KEY)
        W, H = self.profile.size
        return (left + right) / 2 / W, (top + bottom) / 2 / H

    @property
    def runtime(self) -> Runtime:
        """The running system (for tests and task authoring tools)."""
        return self._live()

    def _live(self) -> Runtime:
        if self._runtime is None:
            raise DeviceError("the simulated device is closed")
        return self._runtime


def _px(point: tuple[float, float] | None, W: int, H: int) -> tuple[int, int]:
    assert point is not None
    return min(W - 1, int(point[0] * W)), min(H - 1, int(point[1] * H))
