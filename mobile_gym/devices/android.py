"""`AndroidDevice`: a phone or emulator over adb (`adbutils`) and uiautomator2.

What the libraries leave to us, and a phone needs:

- **Deadlines.** uiautomator2's HTTP timeout does not reach the adb socket under it, so a
  stalled phone blocks a call for minutes. The adb client is made with a socket timeout,
  and every call runs under a watchdog thread: a call that does not return within
  ``call_timeout`` fails the step with a `DeviceError`, and the next call starts afresh.
- **Retries.** A dropped connection (each call opens its own) or a dead uiautomator2
  server (relaunched by the library when a request fails) gets the call tried once more;
  a second failure is a `DeviceError` naming the phone and what was being done.
- **Settling, not sleeping.** After an action the hierarchy is read until two reads in
  a row agree (bounded by ``settle_timeout``), so a step costs what the phone needs; the
  last read is the next observation's dump. An empty or cut-short dump (a window in
  transition) is read again, never passed on.
  A WAIT is the one action that is time passing: ``wait_seconds`` (uiautomator's
  ``waitForIdle``, then the rest of it), then settling.
- **Apps by name.** An OPEN_APP names the app as a launcher shows it; the package is found
  among the installed ones (`mobile_gym.app_names`) before anything is sent, and
  started as its launcher icon starts it (``monkey -c LAUNCHER``).
- **One reading per screen.** What an observation reads (the dump, the foreground
  activity and packages in one shell command, a screenshot) is read once between two
  actions and shared by every observation until the next one.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import re
import shlex
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from functools import partial
from http.client import HTTPException
from typing import Any, Callable, Mapping, TypeVar

import adbutils
from adbutils.errors import AdbConnectionError
from PIL import Image

from mobile_gym.actions import Action, ActionType
from mobile_gym.devices.base import Device
from mobile_gym.app_names import resolve_app
from mobile_gym.errors import AppNotInstalledError, ConfigError, DeviceError, InvalidActionError
from mobile_gym.trace import UIState

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: The adb server's port when neither the caller nor ANDROID_ADB_SERVER_PORT names one.
DEFAULT_ADB_PORT = 5037
#: uiautomator2's key names for our key actions.
KEYS = {ActionType.BACK: "back", ActionType.HOME: "home", ActionType.ENTER: "enter"}
#: How deep uiautomator2 walks the view tree (its own default).
MAX_DEPTH = 50
#: How long a swipe's finger takes to travel (our actions carry no speed), seconds.
SWIPE_SECONDS = 0.3
#: uiautomator2 swipes in steps of 5 ms.
SWIPE_STEPS = max(2, int(SWIPE_SECONDS / 0.005))
#: What a launcher sends to start an app: monkey finds the package's launcher activity
#: itself (adbutils' ``app_start`` does the same), where ``am start -n`` needs its name.
LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"
#: Action types that do nothing on the phone: the episode's end, an answer (the env
#: keeps it), a reply that named no action.
NOTHING_TO_DO = (ActionType.COMPLETE, ActionType.IMPOSSIBLE, ActionType.ANSWER, ActionType.INVALID)
#: The JPEG quality uiautomator2 asks screenshots in (its own default).
SCREENSHOT_QUALITY = 80
#: One shell command for what adbutils reads in several (``app_current``, then ``pm list
#: packages``): the activity in front, then the packages, each part after a marker line,
#: so that a reply cut short is seen as such. The activity manager's resumed activity
#: first, then the window manager's focused app and window (Android 13 and later no longer
#: print ``mCurrentFocus`` in ``dumpsys window windows``, where adbutils looks first).
_FOCUS_MARK, _PACKAGES_MARK, _END_MARK = "MOBILE_GYM_FOCUS", "MOBILE_GYM_PACKAGES", "MOBILE_GYM_END"
FRONT_AND_PACKAGES = (f"echo {_FOCUS_MARK}; dumpsys activity activities | grep -E 'ResumedActivity'; "
                      "dumpsys window displays | grep -E 'mFocusedApp|mCurrentFocus'; "
                      f"echo {_PACKAGES_MARK}; pm list packages; echo {_END_MARK}")
#: An activity as the activity manager writes it (``ActivityRecord{hash u0 pkg/.Act t12}``)
#: and as the window manager names a window (``Window{hash u0 pkg/pkg.Act}``).
_RECORD = re.compile(r"ActivityRecord\{\S+ u\d+ (?P<package>[^\s/{}]+)/(?P<activity>[^\s/{}]+)")
_WINDOW = re.compile(r"mCurrentFocus=Window\{\S+ u\d+ (?P<package>[^\s/{}]+)/(?P<activity>[^\s/{}]+)\}")
_PACKAGE = re.compile(r"^package:(\S+)\r?$", re.M)
#: Setup keys a phone can carry out: packages to force-stop, a package to launch, a URL to
#: open. The simulator's others (install, apps) only an emulator snapshot can hold.
SETUP_KEYS = ("stop", "launch", "url")


@dataclass(frozen=True)
class AndroidConfig:
    """How patient to be with a phone. Times in seconds."""

    #: the longest one call to the phone (an adb command, a uiautomator2 request) may take
    call_timeout: float = 10.0
    #: the longest connecting may take (the first connect pushes and starts uiautomator2)
    connect_timeout: float = 45.0
    #: the longest an emulator snapshot may take to load and the phone to answer again
    snapshot_timeout: float = 60.0
    #: the longest wait for the screen to settle after an action (then it is read as is)
    settle_timeout: float = 3.0
    #: how long a screen that still shows what it showed before the action is watched for
    #: the action's effect (an action that changes nothing costs this much)
    change_timeout: float = 0.5
    #: pause before each further read of the hierarchy while settling a screen seen
    #: changing (two reads that differ), or re-reading an empty one
    poll_interval: float = 0.05
    #: reads of an empty or cut-short hierarchy before the step fails
    dump_retries: int = 5
    #: uiautomator2's server port on the device
    u2_port: int = 9008
    #: how long a LONG_PRESS holds the finger down: past Android's long-press timeout
    #: (400 ms since Android 12, 500 ms before; accessibility settings may make it longer)
    long_press_seconds: float = 0.6
    #: the pause between a DOUBLE_TAP's two taps: Android takes two taps for a double tap
    #: when the second comes 40 to 300 ms after the first (uiautomator2 waits 0.1 s)
    double_tap_gap: float = 0.1
    #: how long a WAIT lets pass before the screen is read (AndroidWorld's wait is 1 s)
    wait_seconds: float = 1.0

    def __post_init__(self) -> None:
        for name in ("call_timeout", "connect_timeout", "snapshot_timeout", "settle_timeout",
                     "long_press_seconds"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise ConfigError(f"AndroidConfig.{name} must be a positive number of seconds; got {value!r}")
        for name in ("poll_interval", "change_timeout", "double_tap_gap", "wait_seconds"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value >= 0:
                raise ConfigError(f"AndroidConfig.{name} must be >= 0 seconds; got {value!r}")
        if not isinstance(self.dump_retries, int) or isinstance(self.dump_retries, bool) or self.dump_retries < 0:
            raise ConfigError(f"AndroidConfig.dump_retries must be a whole number >= 0; got {self.dump_retries!r}")
        # the RPC holding the finger down answers when it lifts, the one waiting for the
        # screen to go idle by the wait's end: each within one call's deadline
        for name in ("long_press_seconds", "wait_seconds"):
            if getattr(self, name) >= self.call_timeout:
                raise ConfigError(f"AndroidConfig.{name} ({getattr(self, name):g}) must be shorter than "
                                  f"call_timeout ({self.call_timeout:g}): it is one call to the phone")
        if not 0.04 <= self.double_tap_gap < 0.3:
            raise ConfigError(f"AndroidConfig.double_tap_gap must be from 0.04 s to under 0.3 s (Android's "
                              f"double-tap window: a second tap sooner or later is a tap of its own); "
                              f"got {self.double_tap_gap!r}")


class _Client(adbutils.AdbClient):
    """adbutils' client, three costs of every call taken away:

    - Nagle's algorithm is off: a request written in two parts (an HTTP request's
      headers, then its body) otherwise waits ~40 ms for the phone's delayed
      acknowledgement.
    - The server's version is asked once, not before every transport (adbutils opens a
      connection for ``host:version`` ahead of each shell command and uiautomator2
      request); `forget_version` drops it when a call fails, in case the server changed.
    - A connection whose other end has already closed is closed at once (`_Connection`).
    """

    def __init__(self, host: str, port: int | None, socket_timeout: float) -> None:
        super().__init__(host=host, port=port, socket_timeout=socket_timeout)
        self._timeout = socket_timeout
        self._version: int | None = None

    def make_connection(self, timeout: float | None = None) -> adbutils.AdbConnection:
        """As the library makes it, ours (which starts no adb server: `_Connection`)."""
        try:
            connection = _Connection(self.host, self.port)
        except TimeoutError:
            raise adbutils.AdbTimeout("connect to adb server timeout") from None
        connection.conn.settimeout(timeout or self._timeout)
        connection.conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection

    def server_version(self) -> int:
        if self._version is None:
            self._version = super().server_version()
        return self._version

    def forget_version(self) -> None:
        self._version = None


class _Connection(adbutils.AdbConnection):
    """adbutils' connection, two of its habits undone:

    - When no server answers, the library runs ``adb start-server``: that starts a server
      on the default port (``ANDROID_ADB_SERVER_PORT`` or 5037, not the one configured),
      which then runs on after us. The server is the user's to start; one that does not
      answer is an error (`AdbConnectionError`, a `DeviceError` once retried).
    - It half-closes every connection and sleeps 10 ms before closing it, so that a
      stream still running on the phone (uiautomator2's launch shell) sees the hang-up.
      A reply read to its end (a shell command's output) has nothing left running:
      closed without the pause, which was half of what a shell command cost.
    """

    def __init__(self, host: str, port: int) -> None:
        self._where = f"{host}:{port}"
        super().__init__(host, port)

    def _safe_connect(self) -> socket.socket:
        """The library's connect (`_create_socket`) without its ``adb start-server``."""
        try:
            return self._create_socket()
        except AdbConnectionError as exc:
            raise AdbConnectionError(f"no adb server answers at {self._where} ({exc}): start it "
                                     "(adb start-server), or name the one running (adb_port=)") from None

    def close(self) -> None:
        if not self.closed and _peer_closed(self.conn):
            self.conn.close()  # the library's close then skips its half-close and pause
        super().close()


def _peer_closed(sock: socket.socket) -> bool:
    """Whether the other end closed (the stream is at its end), without waiting: a
    socket with a timeout waits for data even when asked not to, so it is made
    non-blocking for the look."""
    timeout = sock.gettimeout()
    try:
        sock.setblocking(False)
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True
    finally:
        try:
            sock.settimeout(timeout)
        except OSError:
            pass


def _hang_up(u2: Any) -> None:
    """Shut uiautomator2's launch stream (the shell its server runs in) down, both ways.
    The library only closes it, which neither wakes its thread blocked reading the
    stream nor ends the stream until that read returns: its ``stop_uiautomator`` then
    waits 3 s for nothing. Shut down, the phone sees the hang-up and the server ends."""
    sock = getattr(getattr(getattr(u2, "_process", None), "_conn", None), "conn", None)
    if isinstance(sock, socket.socket):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:  # already closed by the other end
            pass


class _Stalled(Exception):
    """A call that outlived its deadline (its thread is left to the socket timeout)."""


class AndroidDevice(Device):
    """One phone or emulator that an adb server (``adb_host``:``adb_port``) sees.

    ``serial`` picks the phone (default: the only one attached). Connecting is lazy: the
    first call connects, and a failed connection is a `DeviceError` saying what to check
    (the adb server is the user's: none is ever started here, see `_Connection`).
    With ``snapshot`` (an emulator's), every reset loads it through the emulator console
    (``console_port``, default the serial's: ``emulator-5554`` -> 5554; ``console_token``,
    default read from ``~/.emulator_console_auth_token`` when the console asks).
    """

    def __init__(self, serial: str | None = None, adb_host: str = "127.0.0.1", adb_port: int | None = None,
                 config: AndroidConfig | None = None, *, snapshot: str | None = None,
                 console_port: int | None = None, console_token: str | None = None):
        from mobile_gym.devices.emulator_console import check_snapshot_name

        for name, port in (("adb_port", adb_port), ("console_port", console_port)):
            if port is not None and (not isinstance(port, int) or isinstance(port, bool) or not 0 < port <= 65535):
                raise ConfigError(f"{name} must be a port number from 1 to 65535; got {port!r}")
        self.config = config or AndroidConfig()
        self.snapshot = None if snapshot is None else check_snapshot_name(snapshot)
        self.console_port = console_port
        self.console_token = console_token
        self.adb_host = adb_host
        self.adb_port = adb_port
        self._client = _Client(host=adb_host, port=adb_port, socket_timeout=self.config.call_timeout)
        self.serial = serial
        self._adb: adbutils.AdbDevice | None = None
        self._u2: Any = None
        self._size: tuple[int, int] | None = None
        self._settled: str | None = None  # the dump settling ended on: the next observation's
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def __repr__(self) -> str:
        return f"AndroidDevice({self.serial or '?'} via {self.adb_host}:{self._client.port})"

    def __getstate__(self) -> dict:
        raise TypeError(f"{self!r} is a connection to a phone: it cannot be pickled or copied "
                        "(make the env in the process that uses it)")

    # ------------------------------------------------------------------ Device interface
    @property
    def screen_size(self) -> tuple[int, int]:
        if self._size is None:
            width, height = self._call("read the screen size", lambda: self._device().window_size())
            self._size = (int(width), int(height))
        return self._size

    def reset(self, seed: int | None = None, setup: Mapping[str, Any] | None = None) -> None:
        """The emulator snapshot loaded (when configured), else the home screen with the
        ``stop`` packages force-stopped; then the ``launch`` package started or the ``url``
        opened. ``seed`` means nothing to a phone: its content is what it is."""
        setup = dict(setup or {})
        unknown = set(setup) - set(SETUP_KEYS)
        if unknown:
            raise ConfigError(f"a phone carries out setup keys {', '.join(SETUP_KEYS)}; not {sorted(unknown)}")
        self._settled = None
        if self.snapshot is not None:
            self._load_snapshot()
        else:
            self._press("home")
            for package in setup.get("stop", ()):
                self._call(f"stop {package}", lambda p=package: self._device().app_stop(p))
        package = setup.get("launch")
        if package:
            self._call(f"start {package}", lambda: self._device().app_start(package))
        if setup.get("url"):
            url = str(setup["url"])
            self._call(f"open {url}", lambda: self._device().shell(
                ["am", "start", "-a", "android.intent.action.VIEW", "-d", url]))
        self._settle()

    def _load_snapshot(self) -> None:
        from mobile_gym.devices.emulator_console import console_port, load_snapshot

        self._device()  # the serial, when adb names the only phone
        port = self.console_port or console_port(self.serial)
        if port is None:
            raise ConfigError(f"{self.serial} is not an emulator (emulator-PORT): it has no snapshots to load; "
                              "give console_port= (--console-port) for an emulator adb knows by another name")
        end = time.monotonic() + self.config.snapshot_timeout
        load_snapshot(self.adb_host, port, self.snapshot, timeout=self.config.snapshot_timeout,  # type: ignore[arg-type]
                      token=self.console_token)
        # the phone is the snapshot's now: the uiautomator2 server this client started is
        # gone with the rest (the next call starts one, given the time to connect)
        if self._u2 is not None:
            _hang_up(self._u2)
            self._u2 = None
        self._await_boot(end)

    def _await_boot(self, end: float) -> None:
        """Wait until adb sees the phone again and it says it has booted (a loaded snapshot
        may drop the emulator from adb for a moment), until ``end``."""
        problem = "not asked"
        while time.monotonic() < end:
            try:
                phone = self._client.device(self.serial)
                state = phone.get_state()
                if state == "device" and phone.getprop("sys.boot_completed") == "1":
                    return
                problem = f"adb says {state!r}" if state != "device" else "sys.boot_completed is not 1"
            except (adbutils.AdbError, OSError) as exc:
                problem = f"{type(exc).__name__}: {exc}"
            time.sleep(max(self.config.poll_interval, 0.1))
        raise DeviceError(f"{self.serial} did not come back within {self.config.snapshot_timeout:g} s of loading "
                          f"snapshot {self.snapshot!r} ({problem})")

    def observe(self, *, screenshot: bool = True, screenshot_size: tuple[int, int] | None = None,
                deferred_screenshot: bool = False) -> UIState:
        """The screen as the last action (or reset) left it: the dump settling ended on,
        the foreground activity and packages, a screenshot, each read from the phone once.
        Observing again before the next action shows that same screen (an env observes
        twice a step, for the agent and for its judge: both must see one screen); a
        picture at another size is decoded from the same screenshot. A deferred
        screenshot is taken now (a phone's screen is not a snapshot) and decoded when read."""
        screen = self._screen_now()
        if screen.activity is None or screen.packages is None:
            screen.activity, screen.packages = self._front_and_packages()
        image = source = None
        if screenshot:
            image = self._picture(screen, screenshot_size)
        elif deferred_screenshot:
            self._shoot(screen)
            source = partial(self._picture, screen, None)
        return UIState(xml=screen.xml, screenshot=image, screenshot_source=source, activity=screen.activity,
                       installed_packages=screen.packages, screen_size=self.screen_size)

    def perform(self, action: Action) -> None:
        if not isinstance(action, Action):
            raise InvalidActionError(f"expected an Action, got {type(action).__name__}")
        kind = action.action_type
        if kind in NOTHING_TO_DO:
            return
        # an app the phone does not have is refused before anything is sent (the screen
        # read before stays the observation: nothing happened)
        package = self._app_package(action.text or "") if kind is ActionType.OPEN_APP else None
        before = self._settled or (self._screen.xml if self._screen is not None else None)
        self._settled = None  # whatever was read before is gone, even if the action fails
        width, height = self.screen_size
        x = y = 0.0
        if action.touch is not None:
            x, y = action.touch[0] * width, action.touch[1] * height
        # the RPCs themselves: the library's click and swipe read coordinates below 1 as
        # fractions of the screen, so a tap on the first row or column of pixels went astray
        if kind is ActionType.CLICK or (kind is ActionType.SWIPE and action.is_tap):
            self._call("tap", lambda: self._u2_device().jsonrpc.click(x, y), u2=True)
        elif kind is ActionType.LONG_PRESS:
            # uiautomator2's long_click: a click held for its duration (milliseconds)
            held = int(self.config.long_press_seconds * 1000)
            self._call("long press", lambda: self._u2_device().jsonrpc.click(x, y, held), u2=True)
        elif kind is ActionType.DOUBLE_TAP:
            self._call("double tap", lambda: self._double_tap(x, y), u2=True)
        elif kind is ActionType.OPEN_APP:
            self._open_app(package)  # type: ignore[arg-type]
        elif kind is ActionType.WAIT:
            self._wait()
            before = None  # a screen that stays as it was is a wait's outcome, not a lag
        elif kind is ActionType.SWIPE:
            (x1, y1), (x2, y2) = action.touch, action.lift  # type: ignore[misc]
            self._call("swipe", lambda: self._u2_device().jsonrpc.swipe(x1 * width, y1 * height, x2 * width,
                                                                       y2 * height, SWIPE_STEPS), u2=True)
        elif kind is ActionType.TYPE:
            self._type(action.text or "")
        else:
            self._press(KEYS[kind])
        self._settle(before)

    def installed_packages(self) -> frozenset[str]:
        """The packages installed now (read afresh, unlike an observation's)."""
        return self._front_and_packages()[1]

    def foreground_activity(self) -> str:
        """The activity in front now (read afresh, unlike an observation's)."""
        return self._front_and_packages()[0]

    def shell(self, command: str, timeout: float | None = None) -> tuple[int, bytes]:
        """``adb shell COMMAND``: its exit status and output (stderr merged), for adapters
        that pass adb requests through (`mobile_gym.compat.adb`). What it changes on the
        phone the next observation reads: the cached screen is dropped."""
        result = self._call(f"run {command[:60]!r}",
                            lambda: self._device().shell2(command, timeout=timeout or self.config.call_timeout,
                                                          encoding=None))
        self._screen = self._settled = None
        return result.returncode, result.output

    def close(self) -> None:
        """Stop the uiautomator2 server this client started (closing its shell) and
        refuse further calls."""
        if self._closed:
            return
        self._closed = True
        if self._u2 is not None:
            _hang_up(self._u2)
            try:
                self._within(self.config.call_timeout, lambda: self._u2.stop_uiautomator(wait=False))
            except Exception as exc:  # noqa: BLE001 - a phone already gone has nothing to stop
                logger.debug("%s: stopping uiautomator2: %s", self.serial, exc)
            self._u2 = None
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    # ------------------------------------------------------------------ connecting
    def _device(self) -> adbutils.AdbDevice:
        if self._adb is None:
            if self.serial is None:
                devices = [d for d in self._client.device_list() if d.serial]
                if len(devices) != 1:
                    found = ", ".join(d.serial for d in devices) or "none"
                    raise DeviceError(f"adb at {self.adb_host}:{self._client.port} sees {len(devices)} devices "
                                      f"({found}); name one with serial=")
                self.serial = devices[0].serial
            self._adb = self._client.device(self.serial)
        return self._adb

    def _u2_device(self) -> Any:
        if self._u2 is None:
            import uiautomator2

            self._u2 = uiautomator2.connect(self._device(), port=self.config.u2_port)
        return self._u2

    # ------------------------------------------------------------------ calls with deadlines
    def _call(self, what: str, fn: Callable[[], T], *, u2: bool = False) -> T:
        """``fn`` within the deadline; a broken connection is remade and ``fn`` tried
        once more. Any failure left is a `DeviceError` saying what failed. A ``u2``
        call made before uiautomator2 is connected gets the time to connect (which may
        push and start its server)."""
        if self._closed:
            raise DeviceError(f"{self!r} is closed")
        for attempt in (1, 2):
            deadline = self.config.connect_timeout if u2 and self._u2 is None else self.config.call_timeout
            try:
                return self._within(deadline, fn)
            except _Stalled:
                raise DeviceError(f"{self.serial or 'the phone'} did not answer within {deadline:g} s "
                                  f"while trying to {what}") from None
            except DeviceError:
                raise
            except Exception as exc:  # noqa: BLE001 - the libraries raise many kinds; all are the phone's
                self._client.forget_version()
                if attempt == 2 or not _retryable(exc):
                    raise DeviceError(f"{self.serial or 'the phone'}: could not {what}: "
                                      f"{type(exc).__name__}: {exc}") from exc
                logger.info("%s: %s failed (%s: %s); reconnecting and trying once more",
                            self.serial, what, type(exc).__name__, exc)
        raise AssertionError("unreachable")  # pragma: no cover

    def _within(self, seconds: float, fn: Callable[[], T]) -> T:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"adb-{self.serial}")
            future = self._pool.submit(fn)
        try:
            return future.result(timeout=seconds)
        except FutureTimeout:
            with self._lock:  # the stuck thread keeps its pool; the next call gets a new one
                if self._pool is not None:
                    self._pool.shutdown(wait=False)
                self._pool = None
            raise _Stalled() from None

    # ------------------------------------------------------------------ screens and actions
    #: What was read of the screen since the last action (see `_screen_now`).
    _screen: _Screen | None = None

    def _screen_now(self) -> _Screen:
        """The screen since the last action: read once (the dump settling ended on, else a
        new dump). It lasts while `_settled` is its dump: an action or a reset replaces or
        clears that, and with it everything read of the old screen."""
        if self._closed:
            raise DeviceError(f"{self!r} is closed")
        if self._settled is None:
            self._settled = self._dump()
        if self._screen is None or self._screen.xml is not self._settled:
            self._screen = _Screen(self._settled)
        return self._screen

    def _front_and_packages(self) -> tuple[str, frozenset[str]]:
        """The foreground activity and the installed packages, in one shell command
        (`FRONT_AND_PACKAGES`); adbutils' ``app_current`` (three more) only when no
        window has the focus."""
        activity, packages = self._call("read the foreground activity and installed packages",
                                        lambda: _front_and_packages(self._device().shell(FRONT_AND_PACKAGES)))
        if activity is None:
            current = self._call("read the foreground activity", lambda: self._device().app_current())
            activity = _qualified(current.package, current.activity)
        return activity, packages

    def _shoot(self, screen: _Screen) -> None:
        """The screen's screenshot as the phone sends it (a JPEG), taken once."""
        if screen.shot is None:
            screen.shot = self._call("take a screenshot", self._screenshot, u2=True)

    def _screenshot(self) -> bytes | Image.Image:
        """uiautomator2's screenshot RPC, kept encoded; adb's screencap when it sends none
        (as the library does)."""
        data = self._u2_device().jsonrpc.takeScreenshot(1, SCREENSHOT_QUALITY)
        return base64.b64decode(data) if data else self._device().screenshot()

    def _picture(self, screen: _Screen, size: tuple[int, int] | None) -> Image.Image:
        """The screenshot at ``size`` (None: the phone's own), decoded once per size."""
        self._shoot(screen)
        key = None if size is None or tuple(size) == self.screen_size else (int(size[0]), int(size[1]))
        if key not in screen.pictures:
            screen.pictures[key] = _decode(screen.shot, key)  # type: ignore[arg-type]
        return screen.pictures[key]

    def _dump(self) -> str:
        """The hierarchy, read again while it is empty or cut short."""
        for attempt in range(self.config.dump_retries + 1):
            # the RPC itself: the library's dump_hierarchy re-reads an empty one after 1 s sleeps
            xml = self._call("dump the view hierarchy",
                             lambda: self._u2_device().jsonrpc.dumpWindowHierarchy(False, MAX_DEPTH), u2=True)
            problem = _dump_problem(xml)
            if problem is None:
                return xml
            logger.debug("%s: %s (read %d)", self.serial, problem, attempt + 1)
            time.sleep(self.config.poll_interval)
        raise DeviceError(f"{self.serial or 'the phone'}: the view hierarchy was {problem} on "
                          f"{self.config.dump_retries + 1} reads in a row")

    def _settle(self, before: str | None = None) -> None:
        """Read the hierarchy until two reads in a row agree, or ``settle_timeout`` passes.
        The second read follows the first at once: a read takes a phone tens of
        milliseconds, and a screen still moving (an animation moves its nodes every
        frame) reads differently that far apart. Only a screen seen changing is read again
        after ``poll_interval`` pauses; a still one costs two reads and no sleep. A still
        screen that is still the one from ``before`` the action may not have answered the
        action yet (an app takes a moment to open): it is watched ``change_timeout`` longer."""
        start = time.monotonic()
        previous, current = self._dump(), self._dump()
        while time.monotonic() - start < self.config.settle_timeout:
            if current == previous and (current != before or
                                        time.monotonic() - start >= self.config.change_timeout):
                break
            time.sleep(self.config.poll_interval)
            previous, current = current, self._dump()
        self._settled = current

    def _press(self, key: str) -> None:
        self._call(f"press {key}", lambda: self._u2_device().press(key), u2=True)

    def _double_tap(self, x: float, y: float) -> None:
        """Two taps at one point as uiautomator2's ``double_click`` makes them (a touch
        down and up, a pause, a click), through the RPCs themselves (the library's reads
        coordinates below 1 as fractions). The pause is part of the gesture, not a wait
        for something: Android's gesture detector takes a second tap closer than 40 ms
        to the first for a tap of its own."""
        rpc = self._u2_device().jsonrpc
        rpc.injectInputEvent(0, x, y, 0)  # ACTION_DOWN
        rpc.injectInputEvent(1, x, y, 0)  # ACTION_UP
        time.sleep(self.config.double_tap_gap)
        rpc.click(x, y)

    def _app_package(self, name: str) -> str:
        """The installed package an OPEN_APP of ``name`` means (`resolve_app`), from the
        packages the current observation read, else read now; `AppNotInstalledError`
        naming the nearest installed apps when there is none."""
        screen = self._screen
        packages = None
        if screen is not None and self._settled is not None and screen.xml is self._settled:
            packages = screen.packages
        if packages is None:
            packages = self._front_and_packages()[1]
        return resolve_app(name, packages, where=self.serial or "the phone")

    def _open_app(self, package: str) -> None:
        """Start ``package`` as its launcher icon does (monkey picks its launcher activity);
        one installed without a launcher activity (a service, a library) cannot be opened."""
        reply = self._call(f"open {package}", lambda: self._device().shell2(
            ["monkey", "-p", package, "-c", LAUNCHER_CATEGORY, "1"]))
        if reply.returncode != 0 or "monkey aborted" in reply.output:
            raise AppNotInstalledError(f"cannot open {package} on {self.serial}: it has no activity the "
                                       f"launcher starts (monkey: {reply.output.strip()[-200:]!r})")

    def _wait(self) -> None:
        """WAIT: time passes on the phone, the one action that is nothing but time (an
        agent waits out a loading screen, a page, a download: nothing it could name to
        await). uiautomator's ``waitForIdle`` is asked for the whole wait (it returns
        once the screen has gone still, at most then); the rest of ``wait_seconds`` is
        let pass, and the screen is then read, settled as after any action. Nothing is
        touched."""
        end = time.monotonic() + self.config.wait_seconds
        ms = int(self.config.wait_seconds * 1000)
        if ms > 0:
            self._call("wait for the screen to go idle", lambda: self._u2_device().jsonrpc.waitForIdle(ms), u2=True)
        left = end - time.monotonic()
        if left > 0:
            time.sleep(left)

    def _type(self, text: str) -> None:
        """uiautomator2's input (its IME, or the clipboard); ASCII text that way fails
        goes through ``input text``, every character shell-quoted: no text runs a command."""
        try:
            self._call("type", lambda: self._u2_device().send_keys(text), u2=True)
        except DeviceError:
            if not text.isascii() or not text.isprintable():
                raise
            logger.info("%s: typing through uiautomator2 failed; using adb input text", self.serial)
            quoted = shlex.quote(text.replace("%", "\\%").replace(" ", "%s"))
            self._call("type", lambda: self._device().shell(f"input text {quoted}"))


@dataclass
class _Screen:
    """One screen of the phone and what has been read of it."""

    xml: str
    activity: str | None = None
    packages: frozenset[str] | None = None
    shot: bytes | Image.Image | None = None  # the screenshot as the phone sent it
    pictures: dict[tuple[int, int] | None, Image.Image] = field(default_factory=dict)  # decoded, by size


def _front_and_packages(output: str) -> tuple[str | None, frozenset[str]]:
    """`FRONT_AND_PACKAGES`'s output read: the resumed activity, else the focused app's
    or window's (None when none is named: a transition) and the packages. An output
    without its markers was cut short, and one without packages is a package manager not
    ready (as after a boot or a snapshot load): an `EOFError` either way, so the call is
    retried."""
    if not output.startswith(_FOCUS_MARK) or not output.rstrip().endswith(_END_MARK) or _PACKAGES_MARK not in output:
        raise EOFError(f"the phone's reply to {FRONT_AND_PACKAGES!r} was cut short or garbled: {output[-200:]!r}")
    focus, _, listing = output.partition(_PACKAGES_MARK)
    match = _RECORD.search(focus) or _WINDOW.search(focus)  # the resumed activity's line comes first
    activity = None if match is None else _qualified(match["package"], match["activity"])
    packages = frozenset(_PACKAGE.findall(listing))
    if not packages:
        raise EOFError(f"the phone listed no packages: {listing.strip()[:200]!r}")
    return activity, packages


def _qualified(package: str, activity: str) -> str:
    """``package/activity`` with the activity's class in full (dumpsys may write ``.Main``)."""
    if activity.startswith("."):
        activity = package + activity
    return f"{package}/{activity}"


def _decode(shot: bytes | Image.Image, size: tuple[int, int] | None) -> Image.Image:
    """A screenshot as an RGB picture at ``size`` (None: as sent). A JPEG is decoded
    straight at the nearest larger scale libjpeg can (1/2, 1/4, 1/8: a quarter-size
    observation costs 2 ms instead of 18 ms for decoding the whole screen and
    shrinking it), then shrunk the rest of the way."""
    if isinstance(shot, Image.Image):
        image = shot
    else:
        image = Image.open(io.BytesIO(shot))
        if size is not None:
            image.draft("RGB", size)
        image.load()
    if image.mode != "RGB":
        image = image.convert("RGB")
    if size is not None and image.size != size:
        image = image.resize(size, Image.Resampling.BILINEAR)
    return image


def _dump_problem(xml: Any) -> str | None:
    """Why a dump cannot be used (None when it can): no windows (an app starting), or a
    document cut short. Anything else malformed is the reader's to report."""
    if not isinstance(xml, str) or "<node" not in xml:
        return "empty"
    if not xml.rstrip().endswith("</hierarchy>"):
        return "cut short"
    return None


def _retryable(exc: Exception) -> bool:
    """A dropped or refused connection (a reply cut short), or a uiautomator2 server
    that is not there."""
    if isinstance(exc, (ConnectionError, HTTPException, adbutils.AdbError, EOFError, json.JSONDecodeError)):
        return True
    try:
        from uiautomator2.exceptions import BaseException as U2Error
    except ImportError:  # pragma: no cover - the library is a dependency
        return False
    return isinstance(exc, U2Error)


__all__ = ["AndroidConfig", "AndroidDevice"]
