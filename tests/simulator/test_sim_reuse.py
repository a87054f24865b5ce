"""Retained mode's build reuse: an activity whose `Surface.inputs`, fields, scroll, focus
and clock readings are unchanged shows the window built last, without building; any
change to what it shows builds it again (the retained-vs-reference walks in
test_sim_retained.py check the pixels and dumps; these check when building happens)."""

from __future__ import annotations

from collections import Counter

import pytest

from mobile_gym.actions import Action
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps.clock.main import DeskClock
from mobile_gym.simulator.apps.launcher import Home
from mobile_gym.simulator.apps.settings import Main, SubSettings

from phone import swipe_up, tap


@pytest.fixture
def builds(monkeypatch) -> Counter:
    """How many times each activity class built its screen."""
    counts: Counter = Counter()
    for cls in (Home, Main, SubSettings, DeskClock):
        def counted(self, build=cls.build, name=cls.__name__):
            counts[name] += 1
            return build(self)
        monkeypatch.setattr(cls, "build", counted)
    return counts


def test_returning_to_a_screen_shows_it_without_building(builds):
    phone = SimulatedDevice(seed=0)
    phone.observe()
    tap(phone, text="Settings")
    phone.observe()
    assert builds == {"Home": 1, "Main": 1}
    tap(phone, text="Network & internet")
    phone.observe()
    phone.perform(Action.back())
    phone.observe()
    assert builds["Main"] == 1 and builds["SubSettings"] == 1
    phone.perform(Action.home())
    phone.observe()
    assert builds["Home"] == 1
    tap(phone, text="Settings")  # a kept window's handlers still work
    tap(phone, text="Display")
    phone.observe()
    assert phone.foreground_activity().endswith(".SubSettings") and builds["SubSettings"] == 2


def test_a_change_to_what_a_screen_shows_builds_it_again(builds):
    dumps = []
    for retained in (True, False):
        phone = SimulatedDevice(seed=0, setup={"launch": "settings"}, retained=retained)
        tap(phone, text="Network & internet")
        tap(phone, text="Internet")
        tap(phone, text="ON")  # Wi-Fi off
        phone.perform(Action.back())  # Network & internet, which shows it
        dumps.append(phone.observe(screenshot=False).xml)
        if retained:
            assert builds["SubSettings"] == 3  # Network & internet twice (Wi-Fi changed), Internet once
    assert not phone.app_state("settings").wifi_enabled
    assert dumps[0] == dumps[1]


def test_typing_and_scrolling_build_again(builds):
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    first = phone.observe(screenshot=False).xml
    swipe_up(phone)
    assert phone.observe(screenshot=False).xml != first and builds["Main"] == 2
    phone.perform(Action.home())
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))  # the launcher's app drawer
    tap(phone, text="Search your phone and more")
    start = builds["Home"]
    phone.perform(Action.type_text("set"))
    assert "Settings" in phone.observe(screenshot=False).xml and builds["Home"] == start + 1
    phone.perform(Action.back())  # the keyboard goes: the drawer itself is unchanged
    phone.observe()
    assert builds["Home"] == start + 1


def test_a_dialog_over_a_screen_does_not_build_the_screen(builds):
    phone = SimulatedDevice(seed=0, setup={"launch": "clock"})
    phone.observe()
    tap(phone, content_desc="More options")
    assert phone.runtime.frame().windows[1].kind != "status"  # the menu is up
    phone.perform(Action.back())
    phone.observe()
    assert builds["DeskClock"] == 1


def test_the_reference_path_builds_every_frame(builds):
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"}, retained=False)
    for _ in range(3):
        phone.perform(Action.click(0.5, 0.03))
        phone.observe()
    assert builds["Main"] == 4
