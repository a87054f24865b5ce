"""Byte-level helpers for the fake adb server's sockets.

The adb host protocol frames requests as four hex digits of length and the payload;
replies start with ``OKAY`` or ``FAIL`` (the latter followed by a hex-length message).
A peer that goes away mid-exchange raises `Disconnected`, so handlers unwind with one
``except`` rather than checking every ``recv``.
"""

from __future__ import annotations

import socket

OKAY = b"OKAY"
FAIL = b"FAIL"


class Disconnected(Exception):
    """The peer closed the connection, or the server shut the socket down."""


def recv_exact(sock: socket.socket, n: int) -> bytes:
    """Exactly ``n`` bytes; `Disconnected` if the stream ends first."""
    chunks, left = [], n
    while left:
        try:
            chunk = sock.recv(min(left, 1 << 16))
        except OSError as exc:
            raise Disconnected(str(exc)) from exc
        if not chunk:
            raise Disconnected(f"stream ended {left} bytes short")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_request(sock: socket.socket) -> str | None:
    """One smart-socket request (``0012host:version`` → ``"host:version"``); None when
    the client closes cleanly before sending one."""
    try:
        head = sock.recv(4)
    except OSError:
        return None
    if not head:
        return None
    if len(head) < 4:
        head += recv_exact(sock, 4 - len(head))
    try:
        size = int(head.decode("ascii"), 16)
    except ValueError as exc:
        raise Disconnected(f"bad request header {head!r}") from exc
    return recv_exact(sock, size).decode("utf-8", errors="replace")


def send(sock: socket.socket, data: bytes) -> None:
    try:
        sock.sendall(data)
    except OSError as exc:
        raise Disconnected(str(exc)) from exc


def no_delay(sock: socket.socket) -> None:
    """Nagle's algorithm off: a reply written in pieces (a status, then a shell
    command's output line by line) must not wait for the client's delayed
    acknowledgement of the first piece. Never raises."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass


def block(text: str | bytes) -> bytes:
    """A hex-length-prefixed string, as host services reply."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return b"%04x" % len(data) + data


def okay(sock: socket.socket, payload: str | bytes | None = None) -> None:
    send(sock, OKAY + (block(payload) if payload is not None else b""))


def fail(sock: socket.socket, message: str) -> None:
    send(sock, FAIL + block(message))


def finish(sock: socket.socket, drain_timeout: float = 2.0) -> None:
    """Close gracefully: end our side, read what the client still sends until it closes
    (closing with unread input would reset the connection and could lose our last
    bytes), then close. Never raises."""
    try:
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(drain_timeout)
        while sock.recv(1 << 16):
            pass
    except OSError:
        pass
    close(sock)


def abort(sock: socket.socket) -> None:
    """Drop the connection at once (a crash, a dropped link). Never raises."""
    shutdown(sock)
    close(sock)


def shutdown(sock: socket.socket, how: int = socket.SHUT_RDWR) -> None:
    """Wake a thread blocked on ``sock`` (its ``recv`` returns b""). Never raises."""
    try:
        sock.shutdown(how)
    except OSError:
        pass


def close(sock: socket.socket) -> None:
    try:
        sock.close()
    except OSError:
        pass
