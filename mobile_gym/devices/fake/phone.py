"""`FakePhone`: one simulated phone as adb sees it.

Around a `SimulatedDevice` it keeps what a phone has besides its screen: system
properties, settings, a file system, a clipboard, process ids and the uiautomator2
servers ``app_process`` started. Every server thread reaches the simulator through
this object and its lock (the simulator is not thread-safe).
"""

from __future__ import annotations

import copy
import logging
import math
import threading
import time
import zlib
from typing import TYPE_CHECKING, Callable

from mobile_gym.actions import MAX_TEXT_LENGTH, Action
from mobile_gym.devices.fake.faults import Faults
from mobile_gym.devices.fake.fs import FakeFileSystem
from mobile_gym.devices.fake.stats import Stats
from mobile_gym.errors import ConfigError, DeviceError

if TYPE_CHECKING:
    from PIL import Image

    from mobile_gym.devices.fake.console import FakeConsole
    from mobile_gym.devices.fake.u2_server import U2Server
    from mobile_gym.simulator import SimulatedDevice

logger = logging.getLogger(__name__)

#: What uiautomator returns while no window can be read (an app starting, a crash).
EMPTY_HIERARCHY = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy rotation=\"0\" />"

#: profile name -> (model, product/device codename)
_MODELS = {"pixel-6": ("Pixel 6", "oriole"), "pixel-3": ("Pixel 3", "blueline"),
           "budget-720p": ("moto g play", "guamna")}

#: Android's touch timings (``ViewConfiguration``) that the fake's gestures follow: a
#: second tap whose finger comes down 40 to 300 ms after the first lifted, within 100 dp
#: of it, makes a double tap; a finger held still for ``long_press_timeout`` (a secure
#: setting, 400 ms by default since Android 12) makes a long press.
DOUBLE_TAP_TIMEOUT = 0.3
DOUBLE_TAP_MIN_TIME = 0.04
DOUBLE_TAP_SLOP_DP = 100
LONG_PRESS_TIMEOUT_MS = "400"

LATIN_IME = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
ADB_KEYBOARD = "com.github.uiautomator/.AdbKeyboard"


def default_props(serial: str, profile) -> dict[str, str]:
    model, codename = _MODELS.get(profile.name, (profile.name, profile.name.replace("-", "")))
    brand = "google" if profile.name.startswith("pixel") else "motorola"
    build = "TQ3A.230805.001"
    return {
        "ro.build.version.sdk": "33",
        "ro.build.version.release": "13",
        "ro.build.version.release_or_codename": "13",
        "ro.build.version.codename": "REL",
        "ro.build.version.security_patch": "2023-08-05",
        "ro.build.id": build,
        "ro.build.type": "user",
        "ro.build.tags": "release-keys",
        "ro.build.fingerprint": f"{brand}/{codename}/{codename}:13/{build}/10316531:user/release-keys",
        "ro.product.brand": brand,
        "ro.product.manufacturer": brand.capitalize() if brand == "google" else "motorola",
        "ro.product.model": model,
        "ro.product.name": codename,
        "ro.product.device": codename,
        "ro.product.board": codename,
        "ro.product.cpu.abi": "arm64-v8a",
        "ro.product.cpu.abilist": "arm64-v8a,armeabi-v7a,armeabi",
        "ro.serialno": serial,
        "ro.sf.lcd_density": str(profile.dpi),
        "ro.debuggable": "0",
        "ro.secure": "1",
        "ro.adb.secure": "1",
        "sys.boot_completed": "1",
        "dev.bootcomplete": "1",
        "init.svc.adbd": "running",
        "persist.sys.locale": "en-US",
        "persist.sys.timezone": "Etc/UTC",
        "gsm.operator.alpha": "",
        "net.hostname": f"{codename}-{serial}",
    }


def pixel_point(x: float, y: float, size: tuple[int, int]) -> tuple[float, float] | None:
    """The normalised point of the screen pixel that holds (x, y) (its centre, so the
    simulator maps it back to that very pixel); None outside the screen."""
    W, H = size
    if not (math.isfinite(x) and math.isfinite(y) and 0 <= x < W and 0 <= y < H):
        return None
    return ((math.floor(x) + 0.5) / W, (math.floor(y) + 0.5) / H)


class FakePhone:
    """One phone behind the fake adb server."""

    def __init__(self, serial: str, device: SimulatedDevice, transport_id: int,
                 alive: Callable[[], bool] = lambda: True) -> None:
        self.serial = serial
        self.device = device
        self.transport_id = transport_id
        self.server_alive = alive
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)  # notified after every input
        self.boot_time = int(time.time())
        self.fs = FakeFileSystem(self.boot_time)
        self.props = default_props(serial, device.profile)
        self.settings: dict[str, dict[str, str]] = {
            "system": {"screen_brightness": "102", "screen_brightness_mode": "1",
                       "screen_off_timeout": "600000", "pointer_location": "0", "show_touches": "0"},
            "secure": {"default_input_method": LATIN_IME, "enabled_input_methods": LATIN_IME,
                       "long_press_timeout": LONG_PRESS_TIMEOUT_MS},
            "global": {"airplane_mode_on": "0", "wifi_on": "1", "adb_enabled": "1",
                       "stay_on_while_plugged_in": "0"},
        }
        self.clipboard: str | None = None
        self.adb_keyboard = False  # uiautomator2's AdbKeyboard IME is installed
        self.faults = Faults(kill_u2=self.kill_u2)
        self.stats = Stats()  # round trips and simulation time, for benchmarks
        self.u2_servers: dict[int, U2Server] = {}  # device port -> running server
        self.model = self.props["ro.product.model"]
        self._last_pid = 5000
        self._snapshots: dict[str, dict] = {}  # emulator snapshots: name -> the simulator's state
        self._console: FakeConsole | None = None

    # ------------------------------------------------------------------ screen
    @property
    def size(self) -> tuple[int, int]:
        return self.device.screen_size

    def perform(self, action: Action) -> None:
        lag = float(self.faults.input_lag or 0)
        if lag > 0:  # the screen answers later (the fault): answered now, done on a timer
            timer = threading.Timer(lag, self._perform, (action,))
            timer.daemon = True
            timer.start()
            return
        self._perform(action)

    def _perform(self, action: Action) -> None:
        with self.changed:
            with self.stats.simulating():
                self.device.perform(action)
            self.changed.notify_all()

    def tap(self, x: float, y: float) -> bool:
        return self._at(x, y, Action.click)

    def swipe(self, x1: float, y1: float, x2: float, y2: float) -> bool:
        """A finger moved from (x1, y1) to (x2, y2). An end on the screen's far edge (x =
        width, y = height: AndroidWorld swipes edge to edge) is its last pixel, as a
        finger sliding in from the edge is; beyond it, off the screen, nothing happens."""
        w, h = self.size
        x1, x2 = (w - 1 if x == w else x for x in (x1, x2))
        y1, y2 = (h - 1 if y == h else y for y in (y1, y2))
        start, end = pixel_point(x1, y1, self.size), pixel_point(x2, y2, self.size)
        if start is None or end is None:
            return False
        self.perform(Action.click(*start) if start == end else Action.swipe(*start, *end))
        return True

    def long_press(self, x: float, y: float) -> bool:
        """A finger held still at (x, y) past the long-press timeout."""
        return self._at(x, y, Action.long_press)

    def double_tap(self, x: float, y: float) -> bool:
        """Two taps at (x, y) close enough in time and place to make one double tap."""
        return self._at(x, y, Action.double_tap)

    def _at(self, x: float, y: float, gesture) -> bool:
        """``gesture`` (an `Action` constructor of a point) at pixel (x, y); False, and
        nothing done, for a point off the screen."""
        point = pixel_point(x, y, self.size)
        if point is None:
            return False
        self.perform(gesture(*point))
        return True

    def press(self, x: float, y: float, seconds: float) -> bool:
        """A finger down at (x, y) for ``seconds``: a long press once that reaches the
        long-press timeout, a tap before."""
        if seconds >= self.long_press_timeout():
            return self.long_press(x, y)
        return self.tap(x, y)

    def long_press_timeout(self) -> float:
        """How long a finger must stay down for a long press, in seconds: Android's
        ``Settings.Secure.LONG_PRESS_TIMEOUT`` (milliseconds; ``settings put secure
        long_press_timeout`` changes it, as accessibility settings do)."""
        try:
            return int(self.settings["secure"].get("long_press_timeout", LONG_PRESS_TIMEOUT_MS)) / 1000
        except ValueError:
            return int(LONG_PRESS_TIMEOUT_MS) / 1000

    def double_tap_slop(self) -> float:
        """How far apart (pixels) a double tap's two taps may be."""
        return DOUBLE_TAP_SLOP_DP * self.device.profile.density

    def type_text(self, text: str) -> None:
        """Type into the focused field; a long text goes in pieces (an action holds at
        most `MAX_TEXT_LENGTH` characters, a keyboard has no such limit)."""
        for start in range(0, max(1, len(text)), MAX_TEXT_LENGTH):
            self.perform(Action.type_text(text[start:start + MAX_TEXT_LENGTH]))

    def hide_keyboard(self) -> None:
        with self.changed:
            self.runtime.keyboard = False
            self.runtime.invalidate()
            self.changed.notify_all()

    def xml(self) -> str:
        with self.lock, self.stats.simulating():
            return self.device.observe(screenshot=False).xml

    def dump(self, alive: Callable[[], bool]) -> str:
        """A hierarchy dump as uiautomator gives it, faults applied."""
        self.faults.wait(float(self.faults.dump_delay or 0), alive)
        xml = self.xml()
        if self.faults.take("empty_dumps"):
            return EMPTY_HIERARCHY
        if self.faults.take("truncated_dumps"):
            return xml[: len(xml) // 2]
        return xml

    def screenshot(self) -> Image.Image:
        with self.lock, self.stats.simulating():
            return self.device.render()

    def foreground(self) -> tuple[str, str]:
        """(package, fully qualified activity class) in front."""
        with self.lock, self.stats.simulating():
            package, _, activity = self.device.foreground_activity().partition("/")
        if activity.startswith("."):
            activity = package + activity
        return package, activity

    def installed(self) -> frozenset[str]:
        with self.lock, self.stats.simulating():
            return self.device.installed_packages()

    @property
    def runtime(self):
        return self.device.runtime

    # ------------------------------------------------------------------ apps
    def launch(self, package: str) -> None:
        """``monkey`` / ``am start``: the app in front, ready. Not the simulator's
        OPEN_APP: that is a step (the clock moves) and may show a cold start's loading
        screen, which on the simulator only steps end; a launch over adb is how a phone
        is set up for a task (`AndroidDevice.reset`), which the simulator hands over
        ready. A loading screen shown anyway (a launcher tap) ends with the time a
        client waits (``waitForIdle``)."""
        with self.changed:
            self.runtime.launch(package, splash=False)
            self.changed.notify_all()

    def force_stop(self, package: str) -> None:
        """The app's activities and dialogs go; its saved state stays (a killed process)."""
        with self.changed:
            rt = self.runtime
            app = rt.apps.get(package)
            if app is None:
                return
            app.stack.clear()
            app.dialogs.clear()
            rt.callers.pop(package, None)
            if rt.foreground == package:
                rt.home()
            rt.invalidate()
            self.changed.notify_all()

    def clear_data(self, package: str) -> None:
        """``pm clear``: the app restarts from a fresh state."""
        with self.changed:
            rt = self.runtime
            self.force_stop(package)
            rt.apps.pop(package, None)
            rt.app(package)
            rt.invalidate()
            self.changed.notify_all()

    def uninstall(self, package: str) -> None:
        with self.changed:
            self.runtime.uninstall(package)
            self.changed.notify_all()

    def open_url(self, url: str) -> bool:
        """A VIEW intent for a web address: Chrome opens it. False without Chrome."""
        chrome = "com.android.chrome"
        with self.changed:
            if chrome not in self.runtime.installed:
                return False
            self.runtime.launch(chrome)
            self.runtime.app(chrome).load(url)
            self.runtime.invalidate()
            self.changed.notify_all()
            return True

    def set_focused_text(self, text: str) -> bool:
        """Replace the focused field's text (uiautomator's setText / clear); False if no
        field has the focus."""
        with self.changed:
            surface = self.runtime.surface
            if surface.focus is None:
                return False
            surface.select_all = True
            with self.stats.simulating():
                self.device.perform(Action.type_text(text))
            self.changed.notify_all()
            return True

    def select_all(self) -> None:
        """Ctrl+A: the focused field's text selected, so the next key replaces it all."""
        with self.changed:
            surface = self.runtime.surface
            if surface.focus is not None:
                surface.select_all = True
                self.changed.notify_all()

    def delete_char(self) -> None:
        """KEYCODE_DEL: the focused field loses its last character."""
        with self.changed:
            surface = self.runtime.surface
            if surface.focus is None:
                return
            text = "" if surface.select_all else surface.fields.get(surface.focus, "")
            surface.fields[surface.focus] = text[:-1]
            surface.select_all = False
            self.runtime.invalidate()
            self.changed.notify_all()

    def running_packages(self) -> list[str]:
        with self.lock:
            rt = self.runtime
            return sorted(p for p, app in rt.apps.items() if app.stack or p == rt.foreground)

    def pid_of(self, package: str) -> int:
        """A stable process id for a package (the same on every run)."""
        return 10000 + zlib.crc32(package.encode()) % 20000

    def new_pid(self) -> int:
        with self.lock:
            self._last_pid += 1
            return self._last_pid

    def keyboard_shown(self) -> bool:
        with self.lock:
            return bool(self.runtime.keyboard)

    def toast(self) -> str | None:
        with self.lock:
            return self.runtime.toast_text

    # ------------------------------------------------------------------ uiautomator2
    def start_u2(self, port: int) -> U2Server:
        """What ``app_process ... com.wetest.uia2.Main -p PORT`` starts; `DeviceError`
        if the port is taken or the launch is made to crash."""
        from mobile_gym.devices.fake.u2_server import U2Server

        if self.faults.u2_launch_fails:
            raise DeviceError("java.lang.IllegalStateException: UiAutomation crashed on start (injected fault)")
        with self.lock:
            old = self.u2_servers.get(port)
            if old is not None and not old.stopped:
                raise DeviceError(f"java.net.BindException: Address already in use (port {port})")
            server = U2Server(self, port, pid=self.new_pid())
            self.u2_servers[port] = server
        self.faults.u2_dead = False
        logger.debug("%s: uiautomator2 server started on device port %d", self.serial, port)
        return server

    def u2_at(self, port: int) -> U2Server | None:
        with self.lock:
            server = self.u2_servers.get(port)
            return server if server is not None and not server.stopped else None

    def forget_u2(self, server: U2Server) -> None:
        with self.lock:
            if self.u2_servers.get(server.port) is server:
                del self.u2_servers[server.port]

    def kill_u2(self) -> None:
        """Every uiautomator2 server on the phone dies (the ``u2_dead`` fault)."""
        with self.lock:
            servers = list(self.u2_servers.values())
        for server in servers:
            server.stop("killed")

    def wake(self) -> None:
        """Re-check every waiting thread's condition (closing, a link dropped)."""
        self.faults.wake()
        with self.changed:
            self.changed.notify_all()

    def wait_changed(self, timeout: float, alive: Callable[[], bool]) -> None:
        """Wait until the screen may have changed, ``timeout`` passed or ``alive`` is False."""
        with self.changed:
            if alive():
                self.changed.wait(timeout)

    def close(self) -> None:
        self.kill_u2()
        self.wake()
        if self._console is not None:
            self._console.close()

    # ------------------------------------------------------------------ emulator snapshots
    def console_port(self, token: str | None = None, port: int = 0) -> int:
        """The loopback port of this phone's emulator console, started on first call on
        ``port`` (0: a free one; a real emulator's is its serial's, ``emulator-5554`` ->
        5554); ``token``: the ``auth`` token it asks for, None for none."""
        from mobile_gym.devices.fake.console import FakeConsole

        with self.lock:
            if self._console is None:
                self._console = FakeConsole(self, token, port)
            elif port not in (0, self._console.port):
                raise ConfigError(f"{self.serial}'s emulator console already listens on port "
                                  f"{self._console.port}, not {port}")
            return self._console.port

    def save_snapshot(self, name: str) -> None:
        """``avd snapshot save``: the simulated phone's whole state, copied."""
        with self.lock:
            self._snapshots[name] = copy.deepcopy(self.device.__dict__)

    def load_snapshot(self, name: str) -> bool:
        """``avd snapshot load``: the phone as it was saved, its uiautomator2 servers gone
        (a snapshot holds none); False if there is no such snapshot."""
        with self.changed:
            saved = self._snapshots.get(name)
            if saved is None:
                return False
            self.device.__dict__.update(copy.deepcopy(saved))
            self.changed.notify_all()
        self.kill_u2()
        return True

    def delete_snapshot(self, name: str) -> bool:
        with self.lock:
            return self._snapshots.pop(name, None) is not None

    def snapshot_names(self) -> list[str]:
        with self.lock:
            return sorted(self._snapshots)
