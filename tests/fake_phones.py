"""Helpers for tests that drive loopback fake phones (`FakePhoneServer`)."""

from __future__ import annotations

from typing import Iterable

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
