"""`AndroidDevice`: a phone or emulator over adb (`adbutils`) and uiautomator2.

Three things the libraries leave to us, and a phone needs:

- **Deadlines.** uiautomator2's HTTP timeout does not reach the adb socket under it, so a
  stalled phone blocks a call for minutes. The adb client is made with a socket timeout,
  and every call runs under a watchdog thread: a call that does not return within
  ``call_timeout`` fails the step with a `DeviceError`, and the next call starts afresh.
- **Retries.** A dropped connection (each call opens its own) or a dead uiautomator2
  server (relaunched by the library when a request fails) gets the call tried once more;
  a second failure is a `DeviceError` naming the phone and what was being done.
- **Settling, not sleeping.** After an action the hierarchy is read until two reads
  agree (bounded by ``settle_timeout``), so a step costs what the phone needs; the last
  read is the next observation's dump. An empty or cut-short dump (a window in
  transition) is read again, never passed on.
"""

from __future__ import annotations

import json
import logging
import shlex
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from http.client import HTTPException
from typing import Any, Callable, Mapping, TypeVar

import adbutils
from PIL import Image

from mobile_gym.actions import Action, ActionType
from mobile_gym.devices.base import Device
from mobile_gym.errors import ConfigError, DeviceError, InvalidActionError
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
#: Setup keys a phone can carry out; the simulator's others (install, apps) are its own.
SETUP_KEYS = ("launch", "url")


@dataclass(frozen=True)
class AndroidConfig:
    """How patient to be with a phone. Times in seconds."""

    #: the longest one call to the phone (an adb command, a uiautomator2 request) may take
    call_timeout: float = 10.0
    #: the longest connecting may take (the first connect pushes and starts uiautomator2)
    connect_timeout: float = 45.0
    #: the longest wait for the screen to settle after an action (then it is read as is)
    settle_timeout: float = 3.0
    #: pause between two reads of the hierarchy while settling or re-reading an empty one
    poll_interval: float = 0.05
    #: reads of an empty or cut-short hierarchy before the step fails
    dump_retries: int = 5
    #: uiautomator2's server port on the device
    u2_port: int = 9008

    def __post_init__(self) -> None:
        for name in ("call_timeout", "connect_timeout", "settle_timeout"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise ConfigError(f"AndroidConfig.{name} must be a positive number of seconds; got {value!r}")
        if not isinstance(self.poll_interval, (int, float)) or not self.poll_interval >= 0:
            raise ConfigError(f"AndroidConfig.poll_interval must be >= 0; got {self.poll_interval!r}")
        if not isinstance(self.dump_retries, int) or isinstance(self.dump_retries, bool) or self.dump_retries < 0:
            raise ConfigError(f"AndroidConfig.dump_retries must be a whole number >= 0; got {self.dump_retries!r}")


class _Client(adbutils.AdbClient):
    """adbutils' client with Nagle's algorithm off: a request written in two parts (an
    HTTP request's headers, then its body) otherwise waits ~40 ms for the phone's
    delayed acknowledgement, on every call."""

    def make_connection(self, timeout: float | None = None) -> adbutils.AdbConnection:
        connection = super().make_connection(timeout)
        connection.conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection


class _Stalled(Exception):
    """A call that outlived its deadline (its thread is left to the socket timeout)."""


class AndroidDevice(Device):
    """One phone or emulator that an adb server (``adb_host``:``adb_port``) sees.

    ``serial`` picks the phone (default: the only one attached). Connecting is lazy: the
    first call connects, and a failed connection is a `DeviceError` saying what to check.
    """

    def __init__(self, serial: str | None = None, adb_host: str = "127.0.0.1", adb_port: int | None = None,
                 config: AndroidConfig | None = None):
        self.config = config or AndroidConfig()
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

    # ------------------------------------------------------------------ Device interface
    @property
    def screen_size(self) -> tuple[int, int]:
        if self._size is None:
            width, height = self._call("read the screen size", lambda: self._device().window_size())
            self._size = (int(width), int(height))
        return self._size

    def reset(self, seed: int | None = None, setup: Mapping[str, Any] | None = None) -> None:
        """Home screen, the task's app stopped and started afresh, or its URL opened.
        ``seed`` means nothing to a phone: its content is what it is."""
        setup = dict(setup or {})
        unknown = set(setup) - set(SETUP_KEYS)
        if unknown:
            raise ConfigError(f"a phone carries out setup keys {', '.join(SETUP_KEYS)}; not {sorted(unknown)}")
        self._settled = None
        self._press("home")
        package = setup.get("launch")
        if package:
            self._call(f"stop {package}", lambda: self._device().app_stop(package))
            self._call(f"start {package}", lambda: self._device().app_start(package))
        if setup.get("url"):
            url = str(setup["url"])
            self._call(f"open {url}", lambda: self._device().shell(
                ["am", "start", "-a", "android.intent.action.VIEW", "-d", url]))
        self._settle()

    def observe(self, *, screenshot: bool = True, screenshot_size: tuple[int, int] | None = None,
                deferred_screenshot: bool = False) -> UIState:
        """The screen now (or as the last action's settling left it). A phone's screen is
        not a snapshot: a deferred screenshot is taken now."""
        xml, self._settled = self._settled or self._dump(), None
        activity = self.foreground_activity()
        installed = self.installed_packages()
        image = None
        if screenshot or deferred_screenshot:
            image = self._call("take a screenshot", lambda: self._u2_device().screenshot(), u2=True).convert("RGB")
            if screenshot and screenshot_size is not None and image.size != tuple(screenshot_size):
                image = image.resize(tuple(screenshot_size), Image.Resampling.BILINEAR)
        return UIState(xml=xml, screenshot=image, activity=activity, installed_packages=installed,
                       screen_size=self.screen_size)

    def perform(self, action: Action) -> None:
        if not isinstance(action, Action):
            raise InvalidActionError(f"expected an Action, got {type(action).__name__}")
        kind = action.action_type
        if kind in (ActionType.COMPLETE, ActionType.IMPOSSIBLE):
            return
        width, height = self.screen_size
        if kind is ActionType.CLICK or (kind is ActionType.SWIPE and action.is_tap):
            x, y = action.touch[0] * width, action.touch[1] * height  # type: ignore[index]
            self._call("tap", lambda: self._u2_device().click(x, y), u2=True)
        elif kind is ActionType.SWIPE:
            (x1, y1), (x2, y2) = action.touch, action.lift  # type: ignore[misc]
            self._call("swipe", lambda: self._u2_device().swipe(x1 * width, y1 * height, x2 * width, y2 * height,
                                                               duration=SWIPE_SECONDS), u2=True)
        elif kind is ActionType.TYPE:
            self._type(action.text or "")
        else:
            self._press(KEYS[kind])
        self._settle()

    def installed_packages(self) -> frozenset[str]:
        return frozenset(self._call("list the installed packages", lambda: self._device().list_packages()))

    def foreground_activity(self) -> str:
        current = self._call("read the foreground activity", lambda: self._device().app_current())
        activity = current.activity
        if activity.startswith("."):  # dumpsys's short form
            activity = current.package + activity
        return f"{current.package}/{activity}"

    def close(self) -> None:
        """Stop the uiautomator2 server this client started (closing its shell) and
        refuse further calls."""
        if self._closed:
            return
        self._closed = True
        if self._u2 is not None:
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

    def _settle(self) -> None:
        """Read the hierarchy until two reads agree or ``settle_timeout`` passes."""
        end = time.monotonic() + self.config.settle_timeout
        previous = self._dump()
        while time.monotonic() < end:
            time.sleep(self.config.poll_interval)
            current = self._dump()
            if current == previous:
                break
            previous = current
        self._settled = previous

    def _press(self, key: str) -> None:
        self._call(f"press {key}", lambda: self._u2_device().press(key), u2=True)

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
