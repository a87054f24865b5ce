"""Helpers for tests that drive loopback fake phones (`FakePhoneServer`, ``mobile-gym fake-device``)."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from typing import Iterable, Iterator

from mobile_gym.devices.fake import FakePhoneServer


def count_actions(fake: FakePhoneServer, serials: Iterable[str]) -> dict[str, int]:
    """Actions each phone performs from now on, by serial (the dict counts as they come):
    which phones a run's workers really drove."""
    counts = dict.fromkeys(serials, 0)
    for serial in counts:
        phone = fake.phone(serial)
        perform = phone.perform

        def counted(action, serial=serial, perform=perform):
            counts[serial] += 1
            return perform(action)
        phone.perform = counted
    return counts


def free_port() -> int:
    """A loopback port nothing listens on now: an ``emulator-PORT`` serial for a fake
    phone whose console listens where an emulator's would, clashing with nothing."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


@contextmanager
def fake_device(*serials: str) -> Iterator[tuple[int, list[str]]]:
    """``mobile-gym fake-device --serial SERIALS`` in a process of its own: the adb
    server's port and the lines it printed, until the test is done; then Ctrl-C, which
    must end it with exit code 0."""
    proc = subprocess.Popen([sys.executable, "-m", "mobile_gym", "fake-device", "--serial", *serials],
                            stdout=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        lines = [proc.stdout.readline()]
        while not lines[-1].startswith("Ctrl-C"):
            assert lines[-1], f"fake-device ended: {lines}"
            lines.append(proc.stdout.readline())
        yield int(re.search(r"127\.0\.0\.1:(\d+)", lines[0]).group(1)), lines
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def record_actions(fake: FakePhoneServer, serial: str) -> list:
    """The `Action`s the phone hands its simulator from now on, in order (the list grows
    as they come): what a client's gestures became on the phone."""
    performed: list = []
    phone = fake.phone(serial)
    perform = phone.perform

    def recorded(action, perform=perform):
        performed.append(action)
        return perform(action)
    phone.perform = recorded
    return performed


def record_rpcs(monkeypatch) -> list[tuple[str, list]]:
    """The uiautomator2 JSON-RPC calls every fake phone's server answers from now on, as
    (method, params), until the test ends (``monkeypatch`` undoes it)."""
    from mobile_gym.devices.fake.u2_server import U2Server

    calls: list[tuple[str, list]] = []
    call = U2Server.call

    def recorded(self, method, params, *args, **kwargs):
        calls.append((method, list(params) if isinstance(params, (list, tuple)) else params))
        return call(self, method, params, *args, **kwargs)
    monkeypatch.setattr(U2Server, "call", recorded)
    return calls


def record_shell(monkeypatch, *names: str) -> list[list[str]]:
    """The command lines (argv) of the fake shells' commands ``names`` run from now on."""
    from mobile_gym.devices.fake.services import COMMANDS

    runs: list[list[str]] = []
    for name in names:
        def recorded(ctx, argv, command=COMMANDS[name]):
            runs.append(list(argv))
            return command(ctx, argv)
        monkeypatch.setitem(COMMANDS, name, recorded)
    return runs


#: A test guard well above every deadline: a hang fails the test instead of the suite.
GUARD = 30.0


def guarded(fn, *args, **kwargs):
    """``fn`` in a thread; a call that has not returned after `GUARD` seconds fails."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(GUARD)
    assert not thread.is_alive(), f"{fn.__name__} hung for {GUARD} s"
    if "error" in box:
        raise box["error"]
    return box.get("value")
