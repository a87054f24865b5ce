"""The emulator console of a fake phone: snapshots for ``adb emu avd snapshot ...``.

A real emulator listens on its console port (5554 for ``emulator-5554``) for a line
protocol: a banner ending in ``OK``, ``auth <token>`` when the emulator asks for it,
then commands each answered by ``OK`` or ``KO: reason``. The fake listens on the
loopback port it is given (`FakePhone.console_port`: a free one unless asked for the
serial's, as ``mobile-gym fake-device`` does), and knows the ``avd snapshot``
commands: ``save``, ``load``, ``delete``, ``list``. A snapshot holds the simulated
phone's whole state (screens, apps, their random generator), so loading one makes the
phone exactly what it was when saved; the uiautomator2 server and the phone's
properties are left as they are.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from typing import TYPE_CHECKING

from mobile_gym.errors import ConfigError, DeviceError

if TYPE_CHECKING:
    from mobile_gym.devices.fake.phone import FakePhone

logger = logging.getLogger(__name__)

BANNER = "Android Console: type 'help' for a list of commands"
AUTH_BANNER = ("Android Console: Authentication required\r\n"
               "Android Console: type 'auth <auth_token>' to authenticate\r\n"
               "Android Console: you can find your <auth_token> in \r\n"
               "'~/.emulator_console_auth_token'")
HELP = "Android console commands:\r\n    help\r\n    auth\r\n    avd snapshot save|load|delete|list\r\n    quit"


class FakeConsole:
    """A console listening on 127.0.0.1:``port`` (0: a free port) for one phone;
    ``token`` None asks for no auth."""

    def __init__(self, phone: FakePhone, token: str | None = None, port: int = 0) -> None:
        if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
            raise ConfigError(f"an emulator console's port is from 0 (a free one) to 65535; got {port!r}")
        self.phone = phone
        self.token = token
        try:
            self._listener = socket.create_server(("127.0.0.1", port))
        except OSError as exc:
            raise DeviceError(f"cannot listen on 127.0.0.1:{port} for {phone.serial}'s emulator console: "
                              f"{os.strerror(exc.errno) if exc.errno else exc}") from None
        self.port: int = self._listener.getsockname()[1]
        self._closing = threading.Event()
        self._sessions: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name=f"console-{phone.serial}", daemon=True).start()

    def close(self) -> None:
        self._closing.set()
        self._listener.close()
        with self._lock:
            for conn in self._sessions:
                conn.close()

    def _accept(self) -> None:
        while not self._closing.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self._sessions.add(conn)
            threading.Thread(target=self._session, args=(conn,), name=f"console-{self.phone.serial}-session",
                             daemon=True).start()

    def _session(self, conn: socket.socket) -> None:
        authenticated = self.token is None
        try:
            with conn, conn.makefile("rb") as lines:
                conn.sendall(f"{BANNER if authenticated else AUTH_BANNER}\r\nOK\r\n".encode())
                for raw in lines:
                    line = raw.decode(errors="replace").strip()
                    if line in ("quit", "exit"):
                        return
                    words = line.split()
                    if words[:1] == ["auth"]:
                        authenticated = self.token is None or (len(words) == 2 and words[1] == self.token)
                        reply = f"{BANNER}\r\nOK" if authenticated else "KO: authentication token does not match"
                    elif not authenticated:
                        reply = "KO: authentication required"
                    else:
                        reply = self._command(words)
                    conn.sendall(reply.encode() + b"\r\n")
        except OSError:
            pass
        finally:
            with self._lock:
                self._sessions.discard(conn)

    def _command(self, words: list[str]) -> str:
        if words[:1] == ["help"] or not words:
            return f"{HELP}\r\nOK"
        if words[:2] != ["avd", "snapshot"] or len(words) < 3:
            return "KO: unknown command, try 'help'"
        verb, names = words[2], words[3:]
        if verb == "list":
            listed = "".join(f"{name}\r\n" for name in self.phone.snapshot_names())
            return f"List of snapshots present on all disks:\r\n{listed}OK"
        if verb not in ("save", "load", "delete") or len(names) != 1:
            return f"KO: bad syntax for 'avd snapshot {verb}': give one snapshot name"
        name = names[0]
        if verb == "save":
            self.phone.save_snapshot(name)
        elif not (self.phone.load_snapshot(name) if verb == "load" else self.phone.delete_snapshot(name)):
            return f"KO: snapshot '{name}' does not exist"
        logger.debug("%s: avd snapshot %s %s", self.phone.serial, verb, name)
        return "OK"
