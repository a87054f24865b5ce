"""The fake uiautomator2 server: JSON-RPC 2.0 over HTTP/1.1 on a device port.

uiautomator2 3.x pushes ``u2.jar``, starts it with ``app_process`` over an adb shell
stream, then reaches it through adb ``tcp:9008`` connections (no real TCP port): it
probes ``GET /ping`` for ``pong`` and sends every call as ``POST /jsonrpc/0``. A
`U2Server` is that process: it lives while its launch stream is open (or until the
``u2_dead`` fault kills it) and serves HTTP on whatever sockets the adb server hands it.

Gestures reach the simulator as the `Action` they make on a phone: a click held past
the long-press timeout (uiautomator2's ``long_click`` is ``click(x, y, ms)``), a
``longClick`` of a selector, or a touch held still that long, is a long press; a touch
tap (``injectInputEvent`` down and up, as ``double_click`` starts) followed within
Android's double-tap timeout by a second tap near it is a double tap. Such a tap is
held until that is known, as an app's gesture detector holds it, for at most the
timeout and never past the next other request; a ``click`` tap is performed at once.
A ``waitForIdle`` is time passing (`U2Server.rpc_waitForIdle`).
"""

from __future__ import annotations

import base64
import email.utils
import io
import json
import logging
import math
import socket
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from mobile_gym.actions import Action
from mobile_gym.devices.fake import selectors
from mobile_gym.devices.fake.phone import DOUBLE_TAP_MIN_TIME, DOUBLE_TAP_TIMEOUT, pixel_point
from mobile_gym.devices.fake.wire import Disconnected, abort, finish, send, shutdown
from mobile_gym.simulator.runtime import SECONDS_PER_WAIT

if TYPE_CHECKING:
    from mobile_gym.devices.fake.phone import FakePhone

logger = logging.getLogger(__name__)

MAX_HEAD = 64 * 1024
MAX_BODY = 64 * 1024 * 1024
BANNER = "[server] INFO: [UiAutomator2Server] Starting Server\n"

#: uiautomator2 key names -> the action each is on the simulator (None: accepted, no effect).
KEY_NAMES: dict[str, Action | None] = {
    "home": Action.home(), "back": Action.back(), "enter": Action.enter(),
    **{k: None for k in ("left", "right", "up", "down", "center", "menu", "search", "delete",
                         "del", "recent", "volume_up", "volume_down", "volume_mute", "camera",
                         "power")},
}
#: The most of the simulator's time one ``waitForIdle`` lets pass, seconds (a client's
#: timeout of an hour is not an hour of steps).
MAX_IDLE_WAIT = 60.0
#: Android key codes -> action (the rest are accepted and do nothing).
KEY_CODES: dict[int, Action] = {3: Action.home(), 4: Action.back(), 66: Action.enter(),
                                160: Action.enter()}


class RpcError(Exception):
    """A JSON-RPC error reply (code, message, data) as the Java server sends it."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


class U2Server:
    """One running uiautomator2 server process on a fake phone."""

    def __init__(self, phone: FakePhone, port: int, pid: int) -> None:
        self.phone = phone
        self.port = port
        self.pid = pid
        self._lock = threading.Lock()
        self._stopped = False
        self.stop_reason: str | None = None
        self._conns: set[socket.socket] = set()
        self._wakers: list[Callable[[], None]] = []
        self._touch: tuple[float, float, float] | None = None  # injectInputEvent's down: (x, y, when)
        self._gesture = threading.Lock()  # orders a held tap's performing with the next input
        self._held: _HeldTap | None = None  # a touch tap that may become a double tap

    # ------------------------------------------------------------------ life
    @property
    def stopped(self) -> bool:
        return self._stopped

    def subscribe(self, waker: Callable[[], None]) -> None:
        """Call ``waker`` when the server stops (at once if it already has)."""
        with self._lock:
            if not self._stopped:
                self._wakers.append(waker)
                return
        waker()

    def stop(self, reason: str = "stopped") -> None:
        """The process ends: its launch stream and open HTTP connections drop."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
            self.stop_reason = reason
            wakers, self._wakers = self._wakers, []
            conns = list(self._conns)
        with self._gesture:  # a tap still held goes with the process that injected it
            held, self._held = self._held, None
        if held is not None:
            held.timer.cancel()
        logger.debug("%s: uiautomator2 server on port %d %s", self.phone.serial, self.port, reason)
        self.phone.forget_u2(self)
        for waker in wakers:
            waker()
        for sock in conns:
            shutdown(sock)
        self.phone.wake()

    # ------------------------------------------------------------------ HTTP
    def serve(self, sock: socket.socket, alive: Callable[[], bool]) -> None:
        """Serve HTTP requests on one connection until either side closes it."""
        with self._lock:
            if self._stopped:
                abort(sock)
                return
            self._conns.add(sock)
        live = lambda: alive() and not self._stopped  # noqa: E731
        faults = self.phone.faults
        reader = _Reader(sock)
        try:
            while True:
                request = reader.request()
                if request is None or not live():
                    break
                method, path, headers, body = request
                self.phone.stats.count("u2_requests")
                if faults.hold_while_stalled(u2=True, alive=live):
                    break  # the stall ended (or the server went): the request stays unanswered
                status, ctype, payload = self._route(method, path, body, live)
                keep = headers.get("connection", "").lower() != "close"
                response = _response(status, ctype, payload, keep)
                if faults.take("drop_u2_responses"):
                    send(sock, response[: len(response) - max(1, len(payload) // 2)])
                    break
                send(sock, response)
                if not keep or path == "/stop":
                    finish(sock)
                    return
        except Disconnected:
            pass
        finally:
            with self._lock:
                self._conns.discard(sock)
        abort(sock)

    def _route(self, method: str, path: str, body: bytes, alive: Callable[[], bool]) -> tuple[int, str, bytes]:
        path = path.split("?", 1)[0]
        if path == "/ping":
            return 200, "text/plain", b"pong"
        if path == "/stop":
            threading.Thread(target=self.stop, args=("stopped by /stop",), daemon=True).start()
            return 200, "text/plain", b"Server stopped!!!"
        if path == "/screenshot/0" and method == "GET":
            return 200, "image/jpeg", self._jpeg(80)
        if path == "/jsonrpc/0" and method == "POST":
            return 200, "application/json", json.dumps(self._jsonrpc(body, alive)).encode("utf-8")
        return 404, "text/plain", b"Not Found"

    # ------------------------------------------------------------------ JSON-RPC
    def _jsonrpc(self, body: bytes, alive: Callable[[], bool]) -> dict:
        try:
            request = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        rid = request.get("id") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict) or not isinstance(request.get("method"), str):
                raise RpcError(-32600, "Invalid Request")
            result = self.call(request["method"], request.get("params"), alive)
            return {"jsonrpc": "2.0", "id": rid, "result": result}
        except RpcError as exc:
            error: dict[str, Any] = {"code": exc.code, "message": exc.message}
            if exc.data is not None:
                error["data"] = exc.data
            return {"jsonrpc": "2.0", "id": rid, "error": error}

    def call(self, method: str, params: Any, alive: Callable[[], bool] = lambda: True) -> Any:
        """Run one RPC method; `RpcError` for an unknown method or bad parameters."""
        fn = getattr(self, "rpc_" + method, None)
        if fn is None:
            raise RpcError(-32601, f"Method not found: {method}")
        if method not in ("click", "injectInputEvent"):  # no second tap: a held tap is a tap
            self._confirm_tap()
        args: list = list(params) if isinstance(params, list) else []
        kwargs: dict = params if isinstance(params, dict) else {}
        try:
            return fn(alive, *args, **kwargs)
        except selectors.NotFound as exc:
            raise RpcError(-32002, f"androidx.test.uiautomator.UiObjectNotFoundException: {exc}",
                           {"exceptionTypeName": "androidx.test.uiautomator.UiObjectNotFoundException",
                            "message": str(exc)}) from None
        except (TypeError, ValueError, KeyError) as exc:
            raise RpcError(-32602, f"Invalid params: {exc}") from None
        except RpcError:
            raise
        except Exception as exc:  # what the Java server reports for an exception in a method
            logger.warning("fake u2 server: %s%r failed", method, params, exc_info=True)
            raise RpcError(-32001, f"java.lang.RuntimeException: {exc}",
                           {"exceptionTypeName": "java.lang.RuntimeException", "message": str(exc)}) from None

    # Each rpc_* method takes ``alive`` (False once the caller is gone) then the params.
    def rpc_deviceInfo(self, alive) -> dict:
        phone = self.phone
        w, h = phone.size
        density = phone.device.profile.density
        package, _ = phone.foreground()
        return {"currentPackageName": package, "displayHeight": h, "displayRotation": 0,
                "displaySizeDpX": round(w / density), "displaySizeDpY": round(h / density),
                "displayWidth": w, "productName": phone.props["ro.product.name"],
                "screenOn": True, "sdkInt": int(phone.props["ro.build.version.sdk"]),
                "naturalOrientation": True}

    def rpc_dumpWindowHierarchy(self, alive, compressed=False, maxDepth=50, rootInActive=None) -> str:
        return self.phone.dump(alive)

    def rpc_takeScreenshot(self, alive, scale=1.0, quality=100) -> str:
        """The whole screen whatever ``scale`` says: the Java server ignores it too (its
        ``takeScreenshot(float scale, int quality)`` compresses the full bitmap), so a
        client must not count on a smaller picture."""
        return base64.b64encode(self._jpeg(int(quality))).decode("ascii")

    def _jpeg(self, quality: int) -> bytes:
        """The screen as a JPEG, the encoding timed apart from the simulator's render."""
        image = self.phone.screenshot()
        with self.phone.stats.encoding():
            buf = io.BytesIO()
            (image if image.mode == "RGB" else image.convert("RGB")).save(buf, "JPEG", quality=max(1, min(100, quality)))
            return buf.getvalue()

    def rpc_click(self, alive, x, y=None, duration=None) -> bool:
        if isinstance(x, dict):  # click(selector[, corner])
            self._confirm_tap()
            return self._click_selector(x)
        x, y = float(x), float(y)
        if duration is not None and float(duration) > 0:  # click(x, y, ms): the finger held
            self._confirm_tap()
            held = float(duration) / 1000
            self.phone.faults.wait(held, alive)  # answered when the finger lifts, as the Java server does
            return self.phone.press(x, y, held)
        if self._double_tapped(x, y, time.monotonic()):
            return True
        return self.phone.tap(x, y)

    def rpc_longClick(self, alive, selector, duration=None) -> bool:
        return self.phone.long_press(*selectors.center(self._one(selector)))

    def rpc_swipe(self, alive, fx, fy=None, tx=None, ty=None, steps=None) -> bool:
        if isinstance(fx, dict):  # swipe(selector, direction[, percent], steps)
            return self._swipe_selector(fx, fy, tx)
        fx, fy, tx, ty = float(fx), float(fy), float(tx), float(ty)
        if steps is not None and self._still(fx, fy, tx, ty):  # a swipe that stays: a press of its steps' time
            return self.phone.press(fx, fy, int(steps) * 0.005)
        return self.phone.swipe(fx, fy, tx, ty)

    def rpc_drag(self, alive, sx, sy, ex, ey, steps=None) -> bool:
        return self.phone.swipe(float(sx), float(sy), float(ex), float(ey))

    def rpc_swipePoints(self, alive, points, steps=None) -> bool:
        pts = [float(v) for v in points]
        if len(pts) < 2 or len(pts) % 2:
            raise ValueError("points must hold x, y pairs")
        return self.phone.swipe(pts[0], pts[1], pts[-2], pts[-1])

    def rpc_injectInputEvent(self, alive, action, x, y, metaState=0) -> bool:
        action, x, y = int(action), float(x), float(y)
        if action == 0:  # ACTION_DOWN
            self._touch = (x, y, time.monotonic())
        elif action == 1 and self._touch is not None:  # ACTION_UP
            x0, y0, down = self._touch
            self._touch = None
            if not self._still(x0, y0, x, y):
                self._confirm_tap()
                return self.phone.swipe(x0, y0, x, y)
            if time.monotonic() - down >= self.phone.long_press_timeout():
                self._confirm_tap()
                return self.phone.long_press(x0, y0)
            if not self._double_tapped(x0, y0, down):
                self._hold_tap(x0, y0)
        return True

    # -- taps that may be double taps -------------------------------------------------
    def _still(self, x1: float, y1: float, x2: float, y2: float) -> bool:
        """Whether a touch went down and up on one pixel (the fake's taps are exact)."""
        size = self.phone.size
        start = pixel_point(x1, y1, size)
        return start is not None and start == pixel_point(x2, y2, size)

    def _hold_tap(self, x: float, y: float) -> None:
        """Keep a touch tap until a second tap makes it a double tap, another request
        comes, or the double-tap timeout passes (then it is the tap it was)."""
        with self._gesture:
            if self._stopped:
                return
            held = _HeldTap(x, y, time.monotonic(), threading.Timer(DOUBLE_TAP_TIMEOUT, lambda: self._timed_out(held)))
            held.timer.daemon = True
            self._held = held
            held.timer.start()

    def _timed_out(self, held: _HeldTap) -> None:
        """The timer's end of a held tap: no second tap came. On its own thread, so a
        phone closed meanwhile is logged, not raised into nowhere."""
        try:
            self._confirm_tap(held)
        except Exception as exc:  # noqa: BLE001 - the phone went away under the timer
            logger.debug("%s: a held tap could not be performed: %s", self.phone.serial, exc)

    def _confirm_tap(self, which: _HeldTap | None = None) -> None:
        """The held tap (``which``, if it is still the one held) performed as a single tap."""
        with self._gesture:
            held = self._held
            if held is None or (which is not None and held is not which):
                return
            self._held = None
            held.timer.cancel()
            self.phone.tap(held.x, held.y)

    def _double_tapped(self, x: float, y: float, down: float) -> bool:
        """Whether a tap whose finger came down at ``down`` (monotonic) at (x, y) is the
        second of a double tap with the held one: then the double tap is performed (at the
        first tap's point, as Android reports it). Otherwise a held tap is performed as
        the tap it was, and the caller performs this one."""
        with self._gesture:
            held = self._held
            if held is None:
                return False
            self._held = None
            held.timer.cancel()
            gap = down - held.up
            if (DOUBLE_TAP_MIN_TIME <= gap <= DOUBLE_TAP_TIMEOUT
                    and math.dist((x, y), (held.x, held.y)) <= self.phone.double_tap_slop()):
                self.phone.double_tap(held.x, held.y)
                return True
            self.phone.tap(held.x, held.y)
            return False

    def rpc_pressKey(self, alive, key) -> bool:
        key = str(key).lower()
        if key not in KEY_NAMES:
            return False
        action = KEY_NAMES[key]
        if action is not None:
            self.phone.perform(action)
        return True

    def rpc_pressKeyCode(self, alive, keyCode, metaState=0) -> bool:
        action = KEY_CODES.get(int(keyCode))
        if action is not None:
            self.phone.perform(action)
        return True

    def rpc_setClipboard(self, alive, label, text=None) -> None:
        self.phone.clipboard = None if text is None else str(text)

    def rpc_getClipboard(self, alive) -> str | None:
        return self.phone.clipboard

    def rpc_pasteClipboard(self, alive) -> None:
        if self.phone.clipboard:
            self.phone.type_text(self.phone.clipboard)

    def rpc_clearInputText(self, alive) -> None:
        self.phone.set_focused_text("")

    def rpc_waitForIdle(self, alive, timeout=None) -> bool:
        """The phone's time passes while the client waits: the simulator's clock (which
        moves only with actions) gets a WAIT (`SECONDS_PER_WAIT`, a second) for each
        whole second of ``timeout`` (milliseconds), so a loading screen ends as on a
        phone and as a WAIT ends it on the simulator. Answered at once: the simulated
        screen is idle as soon as it is drawn."""
        seconds = min(float(timeout or 0) / 1000, MAX_IDLE_WAIT)
        for _ in range(int(seconds // SECONDS_PER_WAIT)):
            if not alive():
                break
            self.phone.perform(Action.wait())
        return True

    def rpc_wakeUp(self, alive) -> None:
        return None

    def rpc_sleep(self, alive) -> None:
        return None

    def rpc_freezeRotation(self, alive, freeze=True) -> None:
        return None

    def rpc_setOrientation(self, alive, orientation) -> None:
        if str(orientation) not in ("n", "natural", "0"):
            raise RpcError(-32001, "java.lang.UnsupportedOperationException: the fake phone stays upright")

    def rpc_getLastToast(self, alive) -> str | None:
        return self.phone.toast()

    def rpc_clearLastToast(self, alive) -> None:
        with self.phone.lock:
            self.phone.runtime.clear_toast()

    def rpc_makeToast(self, alive, text, duration=1000) -> bool:
        with self.phone.changed:
            self.phone.runtime.toast(str(text))
            self.phone.changed.notify_all()
        return True

    def rpc_openNotification(self, alive) -> bool:
        return False  # the simulator has no notification shade

    def rpc_openQuickSettings(self, alive) -> bool:
        return False

    def rpc_getLastTraversedText(self, alive) -> None:
        return None

    def rpc_clearLastTraversedText(self, alive) -> None:
        return None

    # -- selectors (UiObject) ---------------------------------------------------------
    def _find(self, selector: dict) -> list:
        return selectors.find(self.phone.xml(), selector)

    def _one(self, selector: dict):
        found = self._find(selector)
        if not found:
            raise selectors.NotFound(selectors.describe(selector))
        return found[0]

    def rpc_exist(self, alive, selector) -> bool:
        return bool(self._find(selector))

    def rpc_count(self, alive, selector) -> int:
        return len(self._find(selector))

    def rpc_objInfo(self, alive, selector) -> dict:
        return selectors.info(self._one(selector))

    def rpc_objInfoOfAllInstances(self, alive, selector) -> list[dict]:
        return [selectors.info(node) for node in self._find(selector)]

    def rpc_waitForExists(self, alive, selector, timeout=0) -> bool:
        return self._wait(selector, float(timeout) / 1000, alive, gone=False)

    def rpc_waitUntilGone(self, alive, selector, timeout=0) -> bool:
        return self._wait(selector, float(timeout) / 1000, alive, gone=True)

    def _wait(self, selector: dict, timeout: float, alive, gone: bool) -> bool:
        """Wait on the screen changing (inputs notify it), not on a timer."""
        deadline = time.monotonic() + timeout
        while True:
            if bool(self._find(selector)) != gone:
                return True
            left = deadline - time.monotonic()
            if left <= 0 or not alive():
                return False
            self.phone.wait_changed(left, alive)

    def rpc_getText(self, alive, selector) -> str:
        return self._one(selector).get("text", "")

    def rpc_setText(self, alive, selector, text) -> bool:
        node = self._one(selector)
        x, y = selectors.center(node)
        self.phone.tap(x, y)
        return self.phone.set_focused_text(str(text))

    def rpc_clearTextField(self, alive, selector) -> None:
        self.rpc_setText(alive, selector, "")

    def _click_selector(self, selector: dict) -> bool:
        node = self._one(selector)
        return self.phone.tap(*selectors.center(node))

    def _swipe_selector(self, selector: dict, direction, steps) -> bool:
        left, top, right, bottom = selectors.bounds(self._one(selector))
        cx, cy = (left + right) / 2, (top + bottom) / 2
        dx, dy = (right - left) * 0.4, (bottom - top) * 0.4
        x1, y1, x2, y2 = {"up": (cx, cy + dy, cx, cy - dy), "down": (cx, cy - dy, cx, cy + dy),
                          "left": (cx + dx, cy, cx - dx, cy), "right": (cx - dx, cy, cx + dx, cy)}[str(direction)]
        return self.phone.swipe(x1, y1, x2, y2)


@dataclass
class _HeldTap:
    """A touch tap waiting to be known for a tap or a double tap's first."""

    x: float
    y: float
    up: float  # when the finger lifted (monotonic)
    timer: threading.Timer  # performs it as a tap when the double-tap timeout passes


# ---------------------------------------------------------------------------- HTTP bits
class _Reader:
    """Buffered reading of HTTP/1.1 requests from a socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = bytearray()

    def _fill(self) -> bool:
        try:
            chunk = self.sock.recv(1 << 16)
        except OSError:
            return False
        self.buf.extend(chunk)
        return bool(chunk)

    def request(self) -> tuple[str, str, dict[str, str], bytes] | None:
        while b"\r\n\r\n" not in self.buf:
            if len(self.buf) > MAX_HEAD or not self._fill():
                return None
        head, _, rest = bytes(self.buf).partition(b"\r\n\r\n")
        lines = head.decode("iso-8859-1").split("\r\n")
        try:
            method, path, _version = lines[0].split(" ", 2)
        except ValueError:
            return None
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        size = int(headers.get("content-length", "0") or 0)
        if size < 0 or size > MAX_BODY:
            return None
        self.buf = bytearray(rest)
        while len(self.buf) < size:
            if not self._fill():
                return None
        body, self.buf = bytes(self.buf[:size]), self.buf[size:]
        return method, path, headers, body


_REASONS = {200: "OK", 404: "Not Found", 500: "Internal Server Error"}


def _response(status: int, ctype: str, payload: bytes, keep_alive: bool) -> bytes:
    head = (f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n"
            f"Content-Type: {ctype}{'; charset=UTF-8' if ctype.startswith(('text', 'application/json')) else ''}\r\n"
            f"Date: {email.utils.formatdate(usegmt=True)}\r\n"
            f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n")
    return head.encode("ascii") + payload
