"""The adb ``sync:`` service: file transfer to and from the fake phone's file system.

Requests are a four-letter id and a little-endian uint32 length (``STAT``, ``STA2``,
``LST2``, ``LIST``, ``LIS2``, ``SEND``, ``RECV``, ``QUIT``), followed by a path; file
data moves in ``DATA`` chunks of at most 64 KiB ended by ``DONE``. Several requests may
share one connection, as ``adb push`` of a folder does.
"""

from __future__ import annotations

import errno
import logging
import posixpath
import socket
import struct
from typing import TYPE_CHECKING, Callable

from mobile_gym.devices.fake.fs import Entry, FsError
from mobile_gym.devices.fake.wire import Disconnected, abort, recv_exact, send

if TYPE_CHECKING:
    from mobile_gym.devices.fake.phone import FakePhone

logger = logging.getLogger(__name__)

MAX_PATH = 1024
MAX_CHUNK = 64 * 1024
_V2 = struct.Struct("<4sIQQIIIIQqqq")  # id, error, dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime


def _stat_v2(tag: bytes, entry: Entry | None, ino: int) -> bytes:
    if entry is None:
        return _V2.pack(tag, errno.ENOENT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return _V2.pack(tag, 0, 0xFD00, ino, entry.mode, 1, 2000, 2000, entry.size, entry.mtime,
                    entry.mtime, entry.mtime)


def _fail(sock: socket.socket, message: str) -> None:
    data = message.encode("utf-8")
    send(sock, b"FAIL" + struct.pack("<I", len(data)) + data)


def serve_sync(sock: socket.socket, phone: FakePhone, alive: Callable[[], bool]) -> None:
    """Answer sync requests until the client quits or goes away."""
    fs = phone.fs
    faults = phone.faults
    while alive():
        try:
            head = sock.recv(8)
        except OSError:
            return
        if not head:
            return
        if len(head) < 8:
            head += recv_exact(sock, 8 - len(head))
        tag, length = head[:4], struct.unpack("<I", head[4:])[0]
        if tag == b"QUIT":
            return
        if length > MAX_PATH:
            _fail(sock, f"path too long: {length}")
            return
        path = recv_exact(sock, length).decode("utf-8", errors="replace")
        drop = faults.take("drop_adb_responses")
        if tag == b"STAT":
            entry = fs.stat(path)
            reply = b"STAT" + (struct.pack("<III", entry.mode, entry.size, entry.mtime) if entry else bytes(12))
            _send(sock, reply, drop)
        elif tag in (b"STA2", b"LST2"):
            _send(sock, _stat_v2(tag, fs.stat(path), hash(fs.normalize(path)) & 0xFFFFFFFF), drop)
        elif tag in (b"LIST", b"LIS2"):
            _send(sock, _listing(phone, path, v2=tag == b"LIS2"), drop)
        elif tag == b"SEND":
            _receive_file(sock, phone, path, drop)
        elif tag == b"RECV":
            try:
                data = fs.read(path)
            except FsError as exc:
                _fail(sock, str(exc).split(": ", 1)[-1])
                continue
            chunks = b"".join(b"DATA" + struct.pack("<I", len(data[i:i + MAX_CHUNK])) + data[i:i + MAX_CHUNK]
                              for i in range(0, len(data), MAX_CHUNK))
            _send(sock, chunks + b"DONE" + bytes(4), drop)
        else:
            _fail(sock, f"unknown sync command {tag!r}")
            return


def _send(sock: socket.socket, reply: bytes, drop: bool) -> None:
    if drop:  # the drop_adb_responses fault: half the reply, then the link goes
        send(sock, reply[: max(1, len(reply) // 2)])
        abort(sock)
        raise Disconnected("dropped by fault")
    send(sock, reply)


def _listing(phone: FakePhone, path: str, v2: bool) -> bytes:
    fs = phone.fs
    out = bytearray()
    try:
        names = [".", "..", *fs.listdir(path)]
    except FsError:
        names = []
    base = fs.normalize(path)
    for name in names:
        entry = fs.stat(posixpath.join(base, name)) if name not in (".", "..") else \
            fs.stat(base if name == "." else posixpath.dirname(base))
        if entry is None:
            continue
        raw = name.encode("utf-8")
        if v2:
            out += _stat_v2(b"DNT2", entry, 0) + struct.pack("<I", len(raw)) + raw
        else:
            out += b"DENT" + struct.pack("<IIII", entry.mode, entry.size, entry.mtime, len(raw)) + raw
    out += (_V2.pack(b"DONE", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) + bytes(4)) if v2 else b"DONE" + bytes(16)
    return bytes(out)


def _receive_file(sock: socket.socket, phone: FakePhone, spec: str, drop: bool) -> None:
    """``SEND path,mode``: DATA chunks then ``DONE mtime``; OKAY once the file is written."""
    path, _, mode_text = spec.rpartition(",")
    if not path:
        path, mode_text = spec, "33188"
    try:
        mode = int(mode_text)
    except ValueError:
        mode = 0o100644
    data = bytearray()
    while True:
        head = recv_exact(sock, 8)
        tag, size = head[:4], struct.unpack("<I", head[4:])[0]
        if tag == b"DATA":
            if size > MAX_CHUNK:
                _fail(sock, "oversize DATA chunk")
                raise Disconnected("oversize chunk")
            data += recv_exact(sock, size)
        elif tag == b"DONE":
            mtime = size
            break
        else:
            _fail(sock, f"invalid data message {tag!r}")
            raise Disconnected("bad SEND stream")
    try:
        phone.fs.write(path, bytes(data), mode=mode, mtime=mtime or None, make_parents=True)
    except FsError as exc:
        _fail(sock, f"couldn't create file: {str(exc).split(': ', 1)[-1]}")
        return
    logger.debug("%s: pushed %d bytes to %s", phone.serial, len(data), path)
    _send(sock, b"OKAY" + bytes(4), drop)
