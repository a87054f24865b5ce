"""The fake uiautomator2 server: JSON-RPC 2.0 over HTTP/1.1 on a device port.

uiautomator2 3.x pushes ``u2.jar``, starts it with ``app_process`` over an adb shell
stream, then reaches it through adb ``tcp:9008`` connections (no real TCP port): it
probes ``GET /ping`` for ``pong`` and sends every call as ``POST /jsonrpc/0``. A
`U2Server` is that process: it lives while its launch stream is open (or until the
``u2_dead`` fault kills it) and serves HTTP on whatever sockets the adb server hands it.
"""

from __future__ import annotations

import base64
import email.utils
import io
import json
import logging
import socket
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from mobile_gym.actions import Action
from mobile_gym.devices.fake import selectors
from mobile_gym.devices.fake.wire import Disconnected, abort, finish, send, shutdown

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
        self._touch: tuple[int, float, float] | None = None  # injectInputEvent: (action, x, y) of the down

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
            return self._click_selector(x)
        return self.phone.tap(float(x), float(y))

    def rpc_longClick(self, alive, selector, duration=None) -> bool:
        return self._click_selector(selector)

    def rpc_swipe(self, alive, fx, fy=None, tx=None, ty=None, steps=None) -> bool:
        if isinstance(fx, dict):  # swipe(selector, direction[, percent], steps)
            return self._swipe_selector(fx, fy, tx)
        return self.phone.swipe(float(fx), float(fy), float(tx), float(ty))

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
            self._touch = (action, x, y)
        elif action == 1 and self._touch is not None:  # ACTION_UP
            _, x0, y0 = self._touch
            self._touch = None
            return self.phone.swipe(x0, y0, x, y)
        return True

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
