"""Device services: what a connection becomes once adb has picked a phone.

``shell:`` (the legacy raw stream: stdout and stderr mixed, no exit code),
``shell,v2:`` (packets: id byte, little-endian uint32 length, data; id 1 stdout,
2 stderr, 3 exit code; 0 stdin and 4 close-stdin from the client), ``exec:``,
``sync:``, ``tcp:PORT`` (a device port: the uiautomator2 server), ``framebuffer:`` and
``root:``. The same code serves a forwarded local port, with ``smart=False`` (no
OKAY/FAIL status on the stream).
"""

from __future__ import annotations

import logging
import socket
import struct
import threading
from typing import TYPE_CHECKING, Callable

from mobile_gym.devices.fake import wire
from mobile_gym.devices.fake.android_commands import ANDROID
from mobile_gym.devices.fake.shell import ShellSession, Streams, Subscribe
from mobile_gym.devices.fake.sync import serve_sync
from mobile_gym.devices.fake.toolbox import TOOLBOX
from mobile_gym.devices.fake.wire import Disconnected

if TYPE_CHECKING:
    from mobile_gym.devices.fake.phone import FakePhone

logger = logging.getLogger(__name__)

COMMANDS = {**TOOLBOX, **ANDROID}

#: What the fake phone's adbd says it supports (``host-serial:S:features``).
FEATURES = "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,fixed_push_symlink_timestamp"

# shell v2 packet ids
STDIN, STDOUT, STDERR, EXIT, CLOSE_STDIN, WINDOW_SIZE = range(6)


class Link:
    """One client connection: its socket, whether it speaks the smart-socket protocol
    (a forwarded port does not) and whether the server dropped it."""

    def __init__(self, sock: socket.socket, smart: bool, server_alive: Callable[[], bool]) -> None:
        self.sock = sock
        self.smart = smart
        self.dropped = False
        self._server_alive = server_alive
        self._replied = False

    def alive(self) -> bool:
        return not self.dropped and self._server_alive()

    def okay(self, payload: str | bytes | None = None) -> None:
        """OKAY (and a hex-length payload); nothing on a forwarded port."""
        if self.smart:
            wire.okay(self.sock, payload)
        self._replied = True

    def reset_status(self) -> None:
        """After a transport switch the device service sends its own status."""
        self._replied = False

    def okay_once(self) -> None:
        """OKAY unless already sent: a shell's status goes out with its first output."""
        if not self._replied:
            self.okay()

    def fail(self, message: str) -> None:
        if self.smart and not self._replied:
            wire.fail(self.sock, message)
        self._replied = True

    def drop(self) -> None:
        self.dropped = True
        wire.shutdown(self.sock)


def _packet(kind: int, data: bytes) -> bytes:
    return bytes([kind]) + struct.pack("<I", len(data)) + data


def serve_device(link: Link, phone: FakePhone, service: str) -> None:
    """Run one device service on ``link`` (its reply status included); returns when the
    exchange is over. The caller closes the socket."""
    sock = link.sock
    if phone.faults.hold_while_stalled(u2=False, alive=link.alive):
        return  # stalled: never answered
    if service.startswith("shell") and service[5:6] in (":", ","):
        options, _, command = service[len("shell"):].partition(":")
        _shell(link, phone, command, v2="v2" in options.split(","))
    elif service.startswith("exec:"):
        _shell(link, phone, service[len("exec:"):], v2=False)
    elif service == "sync:":
        link.okay()
        serve_sync(sock, phone, link.alive)
    elif service.startswith("tcp:"):
        port_text = service[len("tcp:"):].split(":", 1)[0]
        server = phone.u2_at(int(port_text)) if port_text.isdigit() else None
        if server is None:
            link.fail("closed")  # adbd could not connect: adb says only "closed"
            return
        link.okay()
        phone.stats.count("u2_connections")
        server.serve(sock, link.alive)
    elif service == "framebuffer:":
        link.okay()
        image = phone.screenshot().convert("RGBA")
        w, h = image.size
        # version 1: bpp, size, width, height, then offset/length of red, blue, green, alpha
        head = struct.pack("<13I", 1, 32, w * h * 4, w, h, 0, 8, 16, 8, 8, 8, 24, 8)
        wire.send(sock, head + image.tobytes())
        wire.finish(sock)
    elif service in ("root:", "unroot:"):
        link.okay()
        wire.send(sock, b"adbd cannot run as root in production builds\n" if service == "root:"
                  else b"adbd not running as root\n")
        wire.finish(sock)
    else:  # localabstract:, reverse:, remount:, ... : adbd refuses
        link.fail("closed")


# ------------------------------------------------------------------------------ shell
def _shell(link: Link, phone: FakePhone, command: str, v2: bool) -> None:
    sock = link.sock
    phone.stats.count("shell_commands")
    faults = phone.faults
    drop = faults.take("drop_adb_responses")
    buffered = bytearray()
    write_lock = threading.Lock()

    def write(kind: int, data: bytes) -> None:
        if not data:
            return
        framed = _packet(kind, data) if v2 else data
        if drop:
            buffered.extend(framed)
            return
        with write_lock:
            link.okay_once()  # the status goes out with the first bytes (or at the end)
            wire.send(sock, framed)

    def hold(subscribe: Subscribe) -> bool:
        """Keep the stream open until the client hangs up (True) or the process is
        woken (False); input from the client is read and ignored."""
        woke = threading.Event()

        def waker() -> None:
            woke.set()
            wire.shutdown(sock, socket.SHUT_RD)

        link.okay_once()
        subscribe(waker)
        try:
            while not woke.is_set() and sock.recv(1 << 16):
                pass
        except OSError:
            pass
        return not woke.is_set()

    session = ShellSession(phone, COMMANDS, alive=link.alive, pid=phone.new_pid())
    streams = Streams(lambda b: write(STDOUT, b), lambda b: write(STDERR, b),
                      hold=None if drop else hold)
    if command.strip():
        code = session.run(command, streams)
    else:
        code = _interactive(link, session, streams, v2)
    if drop:  # the drop_adb_responses fault: half the output, then the link goes
        link.okay_once()
        wire.send(sock, bytes(buffered[: max(1, len(buffered) // 2)]))
        wire.abort(sock)
        return
    link.okay_once()
    if v2:
        wire.send(sock, _packet(EXIT, bytes([code & 0xFF])))
    wire.finish(sock)


def _interactive(link: Link, session: ShellSession, streams: Streams, v2: bool) -> int:
    """``adb shell`` without a command: run each line the client sends, until it closes
    its input or runs ``exit``. (No terminal: no prompt, no echo.)"""
    link.okay_once()
    pending = bytearray()
    status = 0
    reader = _PacketReader(link.sock) if v2 else None
    while link.alive():
        if reader is not None:
            kind, data = reader.next()
            if kind is None or kind == CLOSE_STDIN:
                break
            if kind != STDIN:
                continue
        else:
            try:
                data = link.sock.recv(1 << 16)
            except OSError:
                break
            if not data:
                break
        pending += data
        while b"\n" in pending:
            line, _, rest = bytes(pending).partition(b"\n")
            pending = bytearray(rest)
            status = session.run(line.decode("utf-8", "replace"), streams)
            session.env["?"] = str(status)
            if session.exited:
                return status
    return status


class _PacketReader:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def next(self) -> tuple[int | None, bytes]:
        try:
            head = wire.recv_exact(self.sock, 5)
            size = struct.unpack("<I", head[1:])[0]
            return head[0], wire.recv_exact(self.sock, size)
        except Disconnected:
            return None, b""
