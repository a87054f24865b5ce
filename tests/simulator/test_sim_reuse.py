"""Retained mode's build reuse: an activity whose `Surface.inputs`, fields, focus and
clock readings are unchanged shows the window built last, without building (laid out
again if it scrolled); any change to what it shows builds it again (the retained-vs-reference walks in
test_sim_retained.py check the pixels and dumps; these check when building happens)."""

from __future__ import annotations

import pytest

from mobile_gym.actions import Action
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps.clock.main import DeskClock
from mobile_gym.simulator.apps.launcher import Home
from mobile_gym.simulator.apps.settings import Main, SubSettings

from mobile_gym.ui.hierarchy import ViewHierarchy

from phone import assert_same_nodes, swipe_up, tap


def count_builds(monkeypatch, *classes) -> dict[str, int]:
    """How many times each of ``classes`` builds its screen (by class name)."""
    counts = dict.fromkeys((cls.__name__ for cls in classes), 0)
    for cls in classes:
        def counted(self, build=cls.build, name=cls.__name__):
            counts[name] += 1
            return build(self)
        monkeypatch.setattr(cls, "build", counted)
    return counts


@pytest.fixture
def builds(monkeypatch) -> dict[str, int]:
    return count_builds(monkeypatch, Home, Main, SubSettings, DeskClock)


def test_returning_to_a_screen_shows_it_without_building(builds):
    phone = SimulatedDevice(seed=0)
    phone.observe()
    tap(phone, text="Settings")
    phone.observe()
    assert (builds["Home"], builds["Main"]) == (1, 1)
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


def test_scrolling_lays_the_built_views_out_again_without_building(builds):
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    first = phone.observe(screenshot=False).xml
    swipe_up(phone)
    assert phone.observe(screenshot=False).xml != first and builds["Main"] == 1
    tap(phone, text="Safety & emergency")  # the scrolled window's handlers, where it shows them
    assert phone.foreground_activity().endswith(".SubSettings")


def test_frames_shown_before_a_scroll_still_show_what_they_showed(builds):
    """An activity's views are laid out again when it scrolls; a frame shown before
    (a deferred screenshot, a hierarchy read later) still draws and dumps its own layout."""
    steps = [None, swipe_up, swipe_up, lambda phone: phone.perform(Action.swipe(0.5, 0.3, 0.5, 0.8)), swipe_up]
    shots = []
    for retained in (True, False):
        phone = SimulatedDevice(seed=0, setup={"launch": "settings"}, retained=retained)
        observations = []
        for step in steps:
            if step is not None:
                step(phone)
            observations.append(phone.observe(screenshot=False, deferred_screenshot=True))
        observations.reverse()  # read last first: the views carry the last layout
        for o in observations:  # each frame's nodes against a parse of its dump (not a memo's)
            assert_same_nodes(o.hierarchy, ViewHierarchy(o.xml))
        shots.append([o.screenshot.tobytes() for o in observations])
    assert builds["Main"] == 1 + len(steps)  # built once retained, at every step on the reference path
    assert len(set(shots[0])) == len(steps)  # every swipe moved the list
    assert shots[0] == shots[1]


def test_typing_builds_again(builds):
    phone = SimulatedDevice(seed=0)
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


def _same_steps(setup: dict, steps) -> list[SimulatedDevice]:
    """A retained phone and the reference after each of ``steps`` (a function of the
    phone), their dumps compared at every step."""
    phones = [SimulatedDevice(seed=0, setup=setup), SimulatedDevice(seed=0, setup=setup, retained=False)]
    for step in (None, *steps):
        if step is not None:
            for phone in phones:
                step(phone)
        kept, reference = (phone.observe(screenshot=False).xml for phone in phones)
        assert kept == reference
    return phones


def test_play_store_details_are_kept_until_what_they_show_changes(monkeypatch):
    from mobile_gym.simulator.apps.playstore.pages import AboutPage, Details

    def open_details(phone: SimulatedDevice) -> None:
        phone.runtime.app("com.android.vending").show_details("com.ebay.mobile")

    builds = count_builds(monkeypatch, Details, AboutPage)
    store, _ = _same_steps({"launch": "playstore"}, [open_details])
    assert builds == {"Details": 2, "AboutPage": 0}  # once on each phone
    builds["Details"] = 0
    tap(store, text="About this app")
    store.observe()
    store.perform(Action.back())
    store.observe()
    assert builds == {"Details": 0, "AboutPage": 1}  # back on the details page: shown as before
    tap(store, text="Install")
    assert 'text="Uninstall"' in store.observe(screenshot=False).xml  # installed: built again
    assert builds["Details"] == 1


def test_chrome_pages_are_kept_until_what_they_show_changes(monkeypatch):
    from mobile_gym.simulator.apps.chrome.browser import Main

    builds = count_builds(monkeypatch, Main)
    setup = {"launch": "chrome", "apps": {"chrome": {"url": "https://www.bestbuy.com/cart"}}}
    chrome = SimulatedDevice(seed=0, setup=setup)
    chrome.observe()
    assert builds["Main"] == 1
    tap(chrome, resource_id="com.android.chrome:id/menu_button")
    chrome.observe()
    tap(chrome, text="Settings")
    chrome.observe()
    chrome.perform(Action.back())
    chrome.observe()
    assert builds["Main"] == 1  # under the menu, and back from Settings: the cart as shown before
    steps = [lambda phone: tap(phone, content_desc="Increase quantity"),
             lambda phone: tap(phone, content_desc="Best Buy Logo"),
             lambda phone: phone.perform(Action.back())]
    kept, _ = _same_steps(setup, steps)
    assert "Quantity 2" in kept.observe(screenshot=False).xml
