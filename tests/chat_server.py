"""A loopback OpenAI-compatible chat server for tests: real HTTP on 127.0.0.1, each
reply chosen by a script from the request, so the real ``openai`` client runs against it.

A script is a function of the request's JSON body returning a reply spec:

- ``{"content": "tap(3)"}``: an assistant message (``"tool_calls": [(name, args)]`` too);
  ``{"message": {...}}``: that message as it is (content as parts, odd tool calls);
- ``{"status": 429}`` / ``{"status": 500}``: an error answer (saying retry after 10 ms,
  unless its ``"headers"`` say otherwise);
- ``{"delay": 5}``: answer only after that many seconds (a stall; released on `stop`);
- ``{"raw": "not json"}``: a body that is not JSON (str or bytes); ``{"body": obj}``: ``obj``
  as the JSON body (a completion that is not one);
- ``"usage": False`` in a spec: no usage in the answer; ``"usage": {...}``: that usage;
- ``"headers": {...}`` in a spec: headers sent too, or instead of the server's own
  (``Retry-After``, ``Content-Encoding``, ``Content-Length``);
- ``"trickle": "head"`` or ``"body"``: that part of the answer sent a byte every
  ``"every"`` seconds (0.2 unless said; released on `stop`).

`gzip_bomb(n)` is a gzip body that expands to ``n`` zero bytes. With ``tls=True`` the server
speaks HTTPS, with the self-signed certificate `TLS_CERT` (for 127.0.0.1: a client trusts it
through ``SSL_CERT_FILE``).
"""

from __future__ import annotations

import json
import ssl
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

Script = Callable[[dict[str, Any]], dict[str, Any]]
TLS_CERT = Path(__file__).parent / "data" / "loopback_tls_cert.pem"
TLS_KEY = Path(__file__).parent / "data" / "loopback_tls_key.pem"


class ChatServer:
    """Start with ``with ChatServer(script) as server:``; ``server.url`` is the base URL
    (``.../v1``), ``server.requests`` the request bodies received, in order, and
    ``server.headers`` their headers."""

    def __init__(self, script: Script, tls: bool = False):
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._released = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                spec = server.script(body)
                if spec.get("delay"):
                    server._released.wait(spec["delay"])
                if "status" in spec:
                    payload = json.dumps({"error": {"message": f"scripted {spec['status']}", "type": "test"}})
                    self._send(spec["status"], payload.encode(), spec.get("headers", {"Retry-After-Ms": "10"}))
                    return
                if "raw" in spec:
                    raw = spec["raw"]
                    payload = raw if isinstance(raw, bytes) else raw.encode()
                elif "body" in spec:
                    payload = json.dumps(spec["body"]).encode()
                else:
                    payload = json.dumps(completion(body, spec)).encode()
                self._send(200, payload, spec.get("headers"), spec.get("trickle"), spec.get("every", 0.2))

            def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None,
                      trickle: str | None = None, every: float = 0.2) -> None:
                headers = {"Content-Type": "application/json", "Content-Length": str(len(payload)), **(headers or {})}
                head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
                head = f"HTTP/1.0 {status} {'OK' if status == 200 else 'Error'}\r\n{head}\r\n".encode("latin-1")
                try:
                    self._write(head, every if trickle == "head" else None)
                    self._write(payload, every if trickle == "body" else None)
                except (BrokenPipeError, ConnectionResetError, ssl.SSLError):  # the client gave up (a timeout)
                    pass

            def _write(self, data: bytes, every: float | None) -> None:
                if every is None:
                    self.wfile.write(data)
                    return
                for i in range(len(data)):
                    if server._released.wait(every):
                        return
                    self.wfile.write(data[i:i + 1])

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(TLS_CERT, TLS_KEY)
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def stop(self) -> None:
        self._released.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def completion(request: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = spec.get("message") or {"role": "assistant", "content": spec.get("content")}
    if spec.get("tool_calls"):
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": name, "arguments": json.dumps(args)}}
                                 for i, (name, args) in enumerate(spec["tool_calls"])]
    prompt = sum(len(json.dumps(m.get("content"))) for m in request.get("messages", [])) // 4
    answer = len(json.dumps(message)) // 4
    body: dict[str, Any] = {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": request.get("model", "?"),
        "choices": [{"index": 0, "message": message,
                     "finish_reason": "tool_calls" if spec.get("tool_calls") else "stop"}],
    }
    usage = spec.get("usage", True)
    if usage is True:
        body["usage"] = {"prompt_tokens": prompt, "completion_tokens": answer, "total_tokens": prompt + answer}
    elif usage is not False:
        body["usage"] = usage
    return body


def gzip_bomb(size: int) -> bytes:
    """A gzip body that expands to ``size`` zero bytes (about a thousandth of that)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = bytes(1 << 20)
    parts = [packer.compress(chunk) for _ in range(size >> 20)]
    return b"".join(parts) + packer.flush()
