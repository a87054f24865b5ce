"""The Android emulator's console: what ``adb emu avd snapshot load NAME`` talks to.

``adb emu`` does not go through the adb server: it connects to the emulator's console,
a line protocol on the console port of the emulator's serial (``emulator-5554`` listens
on 127.0.0.1:5554), authenticates with the token in ``~/.emulator_console_auth_token``
when the console asks for one, sends the command and reads ``OK`` or ``KO: reason``.
We do the same, under a deadline, so a snapshot load can neither hang nor pass
silently when it failed.
"""

from __future__ import annotations

import re
import socket
import time
from pathlib import Path

from mobile_gym.errors import ConfigError, DeviceError

#: Where the emulator writes the token its console asks for (and adb reads it).
TOKEN_FILE = Path("~/.emulator_console_auth_token")
_SERIAL = re.compile(r"emulator-(\d{1,5})")
_NAME = re.compile(r"[\w.-]+")


def console_port(serial: str | None) -> int | None:
    """The console port an emulator's serial names (``emulator-5554`` -> 5554); None for a
    phone (or a serial whose number is no port)."""
    match = _SERIAL.fullmatch(serial or "")
    port = int(match.group(1)) if match else 0
    return port if 0 < port <= 65535 else None


def check_snapshot_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"snapshot={name!r} is not a snapshot name (letters, digits, '_', '.', '-')")
    return name


class EmulatorConsole:
    """One console session: ``command`` sends a line and returns the reply's lines before
    ``OK``; a ``KO`` reply is a `DeviceError`."""

    def __init__(self, host: str, port: int, *, timeout: float, token: str | None = None):
        self.where = f"the emulator console at {host}:{port}"
        self._deadline = time.monotonic() + timeout
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise DeviceError(f"cannot reach {self.where} ({exc}): is the emulator running "
                              "(snapshots need an emulator, not a phone)?") from None
        self._buffer = b""
        try:
            banner = self._reply("connect")
            if any("Authentication required" in line for line in banner):
                self.command(f"auth {self._token(token)}")
        except BaseException:
            self._sock.close()
            raise

    def _token(self, token: str | None) -> str:
        if token is not None:
            return token
        path = TOKEN_FILE.expanduser()
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError:
            raise DeviceError(f"{self.where} asks for the token in {path}, which cannot be read") from None

    def command(self, line: str) -> list[str]:
        if "\n" in line or "\r" in line:
            raise ConfigError(f"an emulator console command is one line; got {line!r}")
        self._send(line)
        return self._reply(line)

    def _send(self, line: str) -> None:
        try:
            self._sock.sendall(line.encode() + b"\r\n")
        except OSError as exc:
            raise DeviceError(f"{self.where} closed the connection ({exc})") from None

    def _reply(self, what: str) -> list[str]:
        lines: list[str] = []
        while True:
            while b"\n" not in self._buffer:
                left = self._deadline - time.monotonic()
                if left <= 0:
                    raise DeviceError(f"{self.where} did not answer {what!r} in time")
                self._sock.settimeout(left)
                try:
                    chunk = self._sock.recv(4096)
                except socket.timeout:
                    continue
                except OSError as exc:
                    raise DeviceError(f"{self.where} closed the connection ({exc})") from None
                if not chunk:
                    raise DeviceError(f"{self.where} closed the connection while answering {what!r}")
                self._buffer += chunk
            raw, _, self._buffer = self._buffer.partition(b"\n")
            line = raw.decode(errors="replace").rstrip("\r")
            if line == "OK":
                return lines
            if line.startswith("KO"):
                shown = "auth" if what.startswith("auth ") else what  # never the token
                raise DeviceError(f"{self.where} refused {shown!r}: {line[2:].lstrip(': ')}")
            lines.append(line)

    def close(self) -> None:
        try:
            self._sock.sendall(b"quit\r\n")
        except OSError:
            pass
        self._sock.close()

    def __enter__(self) -> EmulatorConsole:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def load_snapshot(host: str, port: int, name: str, *, timeout: float, token: str | None = None) -> None:
    """``adb emu avd snapshot load NAME``: the emulator returns to the snapshot's state."""
    with EmulatorConsole(host, port, timeout=timeout, token=token) as console:
        console.command(f"avd snapshot load {check_snapshot_name(name)}")
