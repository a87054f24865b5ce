"""Helpers for tests that drive loopback fake phones (`FakePhoneServer`, ``mobile-gym fake-device``)."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
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
