"""A loopback OpenAI-compatible chat server for tests: real HTTP on 127.0.0.1, each
reply chosen by a script from the request, so the real ``openai`` client runs against it.

A script is a function of the request's JSON body returning a reply spec:

- ``{"content": "tap(3)"}``: an assistant message (``"tool_calls": [(name, args)]`` too);
- ``{"status": 429}`` / ``{"status": 500}``: an error answer (429 says retry after 10 ms);
- ``{"delay": 5}``: answer only after that many seconds (a stall; released on `stop`);
- ``{"raw": "not json"}``: a body that is not JSON;
- ``"usage": False`` in a spec: no usage in the answer.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

Script = Callable[[dict[str, Any]], dict[str, Any]]


class ChatServer:
    """Start with ``with ChatServer(script) as server:``; ``server.url`` is the base URL
    (``.../v1``) and ``server.requests`` the request bodies received, in order."""

    def __init__(self, script: Script):
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self._released = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                server.requests.append(body)
                spec = server.script(body)
                if spec.get("delay"):
                    server._released.wait(spec["delay"])
                if "status" in spec:
                    payload = json.dumps({"error": {"message": f"scripted {spec['status']}", "type": "test"}})
                    self._send(spec["status"], payload.encode(), {"retry-after-ms": "10"})
                    return
                if "raw" in spec:
                    self._send(200, spec["raw"].encode())
                    return
                self._send(200, json.dumps(completion(body, spec)).encode())

            def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout)
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
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
    message: dict[str, Any] = {"role": "assistant", "content": spec.get("content")}
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
    if spec.get("usage", True):
        body["usage"] = {"prompt_tokens": prompt, "completion_tokens": answer, "total_tokens": prompt + answer}
    return body
