"""HTTP for model endpoints that cannot hold a call hostage.

httpx's timeouts bound each socket operation, not the exchange: a server that sends a
byte a second, well within the read timeout, holds a call as long as it likes, and a
compressed body expands in memory without limit (3 MB of gzip can be 3 GB). Through
`BoundedTransport` a request's timeout is a deadline for the whole exchange: connecting,
sending, the headers and the body, every socket read and write getting what is left of
it (a `ReadTimeout` once it has passed, which the ``openai`` client reports as a timeout);
and a body longer than `MAX_RESPONSE_BYTES` once decoded is an `AgentError`, read no
further. `bounded_client` is the ``httpx2.Client`` the ``openai`` client is given; it
follows no redirect (each would start a new deadline).
"""

from __future__ import annotations

import re
import threading
import time
import urllib.parse
import urllib.request
import zlib
from contextlib import contextmanager
from typing import Any, Iterator

import httpcore2
import httpx2

from mobile_gym.errors import AgentError, ConfigError

#: Longest response body, once decoded: a chat completion carrying a reply of
#: `mobile_gym.llm.grammar.MAX_REPLY` characters, escaped as JSON, is a few hundred kB.
MAX_RESPONSE_BYTES = 4 * 1024 * 1024
#: The encodings asked for and decoded here (zlib's window bits for each).
_DECODERS = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
#: A write is sent in pieces of this size, each with what is left of the deadline.
_WRITE_PIECE = 16 * 1024


class _Deadline(threading.local):
    """When the request under way on this thread must be done by (`time.monotonic`)."""

    at: float | None = None

    def left(self, timeout: float | None, error: type[Exception]) -> float | None:
        """``timeout`` cut to what is left of the deadline; ``error`` once it has passed."""
        if self.at is None:
            return timeout
        left = self.at - time.monotonic()
        if left <= 0:
            raise error("the request's deadline has passed")
        return left if timeout is None else min(timeout, left)


class _Stream(httpcore2.NetworkStream):
    """A connection whose every read and write ends by the deadline."""

    def __init__(self, inner: httpcore2.NetworkStream, deadline: _Deadline):
        self._inner, self._deadline = inner, deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._deadline.left(timeout, httpcore2.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        for i in range(0, len(buffer), _WRITE_PIECE):
            self._inner.write(buffer[i:i + _WRITE_PIECE], self._deadline.left(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore2.NetworkStream:
        timeout = self._deadline.left(timeout, httpcore2.ConnectTimeout)
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, timeout), self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore2.NetworkBackend):
    """httpcore's sockets, connected by the deadline and bound to it."""

    def __init__(self, deadline: _Deadline):
        self._inner, self._deadline = httpcore2.SyncBackend(), deadline

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Any = None) -> httpcore2.NetworkStream:
        stream = self._inner.connect_tcp(host, port, self._deadline.left(timeout, httpcore2.ConnectTimeout),
                                         local_address, socket_options)
        return _Stream(stream, self._deadline)


class BoundedTransport(httpx2.BaseTransport):
    """An httpx transport for which a request's timeout (the longest of its connect,
    read, write and pool timeouts) is a deadline for the whole exchange, and whose
    response bodies are decoded here (gzip, deflate) and cut off past ``max_bytes``."""

    def __init__(self, max_bytes: int = MAX_RESPONSE_BYTES, proxy: str | None = None):
        self.max_bytes = max_bytes
        self._deadline = _Deadline()
        options: dict[str, Any] = dict(ssl_context=httpx2.create_ssl_context(),
                                       network_backend=_Backend(self._deadline), keepalive_expiry=5.0)
        self._pool = _proxy_pool(proxy, options) if proxy is not None else httpcore2.ConnectionPool(**options)

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        timeouts = [t for t in request.extensions.get("timeout", {}).values() if t is not None]
        self._deadline.at = time.monotonic() + max(timeouts) if timeouts else None
        request.headers["Accept-Encoding"] = ", ".join(_DECODERS)
        url = request.url
        core = httpcore2.Request(method=request.method, url=httpcore2.URL(scheme=url.raw_scheme, host=url.raw_host,
                                                                          port=url.port, target=url.raw_path),
                                 headers=request.headers.raw, content=request.stream, extensions=request.extensions)
        with _mapped(request):
            response = self._pool.handle_request(core)
        headers = httpx2.Headers(response.headers)
        encoding = headers.pop("content-encoding", "identity").strip().lower()
        problem = _refusal(encoding, headers.get("content-length", "").strip(), self.max_bytes)
        if problem is not None:
            response.close()
            raise AgentError(f"the model endpoint's answer {problem}")
        if encoding != "identity":
            headers.pop("content-length", None)  # the decoded body's length differs
        return httpx2.Response(status_code=response.status, headers=headers, extensions=response.extensions,
                               stream=_Body(response, request, encoding, self.max_bytes))

    def close(self) -> None:
        self._pool.close()


def _proxy_pool(proxy: str, options: dict[str, Any]) -> httpcore2.HTTPProxy:
    """A pool through the HTTP(S) proxy at ``proxy``, its credentials (``user:password@``)
    sent as ``Proxy-Authorization``, as httpx's own transport does: httpcore would drop them."""
    parsed = httpx2.Proxy(proxy)
    url = parsed.url
    return httpcore2.HTTPProxy(proxy_url=httpcore2.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port,
                                                       target=url.raw_path),
                               proxy_auth=parsed.raw_auth, proxy_headers=parsed.headers.raw, **options)


def _refusal(encoding: str, declared: str, limit: int) -> str | None:
    """Why a response is refused before its body is read (an encoding not asked for, a
    declared length past the limit), or None."""
    if encoding not in ("identity", *_DECODERS):
        return f"is encoded as {encoding[:40]!r}, not as asked ({', '.join(_DECODERS)})"
    if declared and (not re.fullmatch(r"\d{1,15}", declared) or int(declared) > limit):
        return f"says it is {declared[:40]} bytes long; the limit is {limit}"
    return None


class _Body(httpx2.SyncByteStream):
    """A response's body, decoded, read up to a limit (an `AgentError` past it)."""

    def __init__(self, response: httpcore2.Response, request: httpx2.Request, encoding: str, limit: int):
        self._response, self._request, self._encoding, self._limit = response, request, encoding, limit

    def __iter__(self) -> Iterator[bytes]:
        decoder = zlib.decompressobj(_DECODERS[self._encoding]) if self._encoding in _DECODERS else None
        received = decoded = 0
        with _mapped(self._request):
            for chunk in self._response.stream:  # type: ignore[union-attr]
                received += len(chunk)
                if decoder is not None:
                    chunk = self._decoded(decoder, chunk, self._limit - decoded + 1)
                decoded += len(chunk)
                if max(received, decoded) > self._limit:
                    raise AgentError(f"the model endpoint's answer is longer than {self._limit} bytes"
                                     + (f" once decoded ({self._encoding})" if decoder is not None else ""))
                yield chunk

    def _decoded(self, decoder: Any, chunk: bytes, most: int) -> bytes:
        try:
            return decoder.decompress(chunk, most)  # never more than ``most`` bytes in memory
        except zlib.error as e:
            raise AgentError(f"the model endpoint's answer is not valid {self._encoding} ({e})") from None

    def close(self) -> None:
        self._response.close()


@contextmanager
def _mapped(request: httpx2.Request) -> Iterator[None]:
    """httpcore's errors as httpx's of the same name, as httpx's own transport raises
    them (the ``openai`` client retries and reports those)."""
    try:
        yield
    except (httpcore2.TimeoutException, httpcore2.NetworkError, httpcore2.ProtocolError, httpcore2.ProxyError,
            httpcore2.UnsupportedProtocol, httpcore2.ConnectionNotAvailable) as e:
        kind = getattr(httpx2, type(e).__name__, None)
        if not (isinstance(kind, type) and issubclass(kind, httpx2.TransportError)):
            kind = httpx2.TransportError
        raise kind(str(e), request=request) from e


class _ClosingClient(httpx2.Client):
    """Closes its connections when collected, as the ``openai`` client's own does (an
    agent has no ``close``)."""

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at collection, nothing to report to
            pass


def bounded_client(base_url: str | None, timeout: float, max_bytes: int = MAX_RESPONSE_BYTES) -> httpx2.Client:
    """The ``httpx2.Client`` for an ``openai.OpenAI(http_client=...)`` that talks to
    ``base_url`` (None: OpenAI's): a `BoundedTransport`, through the HTTP(S) proxy the
    environment names for that URL (``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY``,
    less ``NO_PROXY``)."""
    transport = BoundedTransport(max_bytes, proxy=environment_proxy(base_url or "https://api.openai.com/v1"))
    return _ClosingClient(transport=transport, timeout=timeout, follow_redirects=False)


def environment_proxy(url: str) -> str | None:
    """The proxy the environment names for ``url``, None for none; a `ConfigError` for
    a proxy that is not HTTP(S)."""
    parts = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies_environment()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy or urllib.request.proxy_bypass_environment(parts.hostname or "", proxies):
        return None
    proxy = proxy if "://" in proxy else f"http://{proxy}"
    if urllib.parse.urlsplit(proxy).scheme not in ("http", "https"):
        raise ConfigError(f"the proxy {proxy} the environment names for {url} is not an HTTP(S) proxy; "
                          "the LLM agent goes through HTTP(S) proxies only")
    return proxy
