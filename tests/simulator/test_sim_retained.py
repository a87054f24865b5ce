"""Retained mode shows exactly what the full rebuild shows.

Seeded walks through every simulated app are recorded on the reference path
(`SimulatedDevice(retained=False)`: every frame made from scratch) and replayed on a
retained phone: dumps, activities and screenshots must be equal byte for byte at every
step. Then the retained frame's own rules: kept while nothing changes, the status bar
alone remade when the clock moves, windows that show the clock remade at every tick.
"""

from __future__ import annotations

import numpy as np
import pytest

from mobile_gym.actions import Action
from mobile_gym.authoring.explorer import state_key
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator import retained
from mobile_gym.simulator.layout import Layout
from mobile_gym.simulator.views import Column, Text, View
from mobile_gym.simulator.apps import FACTORIES
from mobile_gym.simulator.apps import MODELLED as APPS
from mobile_gym.simulator.runtime import LAUNCHER_PACKAGE

from phone import ReadingView, tap

MODELLED = tuple(cls.package for cls in APPS)  # the launcher and every app with its own screens
WORDS = ("wifi", "tokyo", "bestbuy.com", "alarm", "a very long line of typed text that wraps", "9")
SIZES = ((270, 600), (84, 84), (135, 301))


def record_walk(package: str, steps: int, seed: int, profile: str) -> list[Action]:
    """A seeded walk on the reference phone, chosen from each screen's clickable nodes."""
    rng = np.random.default_rng(seed)
    phone = SimulatedDevice(profile=profile, dynamics="default", seed=seed, setup=_setup(package), retained=False)
    W, H = phone.screen_size
    actions = []
    for _ in range(steps):
        targets = [n for n in phone.observe(screenshot=False).hierarchy.find_all(clickable=True)
                   if n.bounds.right > n.bounds.left]
        r = rng.random()
        if r < 0.06:
            action = Action.back()
        elif r < 0.08:
            action = Action.home()
        elif r < 0.2:
            up = rng.random() < 0.7
            action = Action.swipe(0.5, 0.75 if up else 0.35, 0.5, 0.35 if up else 0.75)
        elif r < 0.27:
            action = Action.type_text(str(rng.choice(WORDS)))
        elif r < 0.3:
            action = Action.enter()
        elif r < 0.33:
            action = Action.click(float(rng.random()), float(rng.random()))  # anywhere: often nothing
        elif targets:
            action = Action.click_center(targets[int(rng.integers(len(targets)))].bounds, (W, H))
        else:
            action = Action.back()
        phone.perform(action)
        actions.append(action)
    return actions


def _setup(package: str) -> dict:
    if package == LAUNCHER_PACKAGE:
        return {}
    return {"install": [package], "launch": package}


def assert_same_walk(package: str, steps: int, seed: int = 0, profile: str = "pixel-6") -> None:
    actions = record_walk(package, steps, seed, profile)
    phones = [SimulatedDevice(profile=profile, dynamics="default", seed=seed, setup=_setup(package), retained=mode)
              for mode in (False, True)]
    full = phones[0].screen_size
    for i, action in enumerate([None, *actions]):
        size = full if i % 10 == 9 else SIZES[i % len(SIZES)]
        if action is not None:
            for phone in phones:
                phone.perform(action)
        reference, kept = (phone.observe(screenshot_size=size) for phone in phones)
        where = f"{package} step {i} after {action}"
        assert kept.xml == reference.xml, where
        assert kept.activity == reference.activity, where
        assert np.array_equal(kept.screenshot, reference.screenshot), f"{where}: pixels at {size}"


@pytest.mark.parametrize("package", sorted(FACTORIES))
def test_every_app_shows_what_the_full_rebuild_shows(package):
    assert_same_walk(package, 120 if package in MODELLED else 25)


@pytest.mark.slow
@pytest.mark.parametrize("profile, seed", [("pixel-6", 1), ("pixel-3", 2), ("budget-720p", 3)])
@pytest.mark.parametrize("package", MODELLED)
def test_long_walks_on_every_profile_show_what_the_full_rebuild_shows(package, profile, seed):
    assert_same_walk(package, 400, seed, profile)


def test_a_frame_is_kept_until_something_changes():
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    runtime = phone.runtime
    frame = runtime.frame()
    phone.perform(Action.click(0.5, 0.03))  # the status bar: nothing to touch there
    same = runtime.frame()
    assert [w.root for w in same.windows if w.kind != "status"] == [w.root for w in frame.windows
                                                                  if w.kind != "status"]
    tap(phone, text="Network & internet")
    assert runtime.frame().windows[0].root is not frame.windows[0].root
    assert phone.foreground_activity().endswith("SubSettings")


def test_a_tick_remakes_the_status_bar_alone_unless_the_app_shows_the_clock():
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    runtime = phone.runtime
    runtime.time = 10 * 3600 + 59 * 60 + 55  # a step later the status bar shows 11:00
    before = runtime.frame()
    phone.perform(Action.click(0.5, 0.03))
    after = runtime.frame()
    status = [w for w in after.windows if w.kind == "status"][0]
    assert status.root.children[0].children[0].text == "11:00"
    assert after.windows[0] is before.windows[0]  # the app's window is the one laid out before


def test_a_window_is_remade_when_a_clock_reading_it_shows_changes():
    setup = {"launch": "clock", "apps": {"clock": {"selected_tab": "clock"}}}  # hours and minutes
    clock, reference = SimulatedDevice(seed=0, setup=setup), SimulatedDevice(seed=0, setup=setup, retained=False)
    runtime = clock.runtime
    for device in (clock, reference):
        device.runtime.time = 8 * 3600 + 30  # then 8:00:35, ..., 8:00:55, 8:01:00
    shown = runtime.frame()
    for n in range(6):
        for device in (clock, reference):
            device.perform(Action.click(0.5, 0.03))  # the status bar: nothing to touch there
        assert (runtime.frame() is shown) == (n < 5)  # remade when the minute changes
        assert clock.observe(screenshot=False).xml == reference.observe(screenshot=False).xml
    assert "8:01" in runtime.frame().xml
    stopwatch = SimulatedDevice(seed=0, setup={"launch": "clock", "apps": {"clock": {
        "selected_tab": "stopwatch", "stopwatch_running": True, "stopwatch_started_at": 0}}})
    shown = stopwatch.runtime.frame()
    stopwatch.perform(Action.click(0.5, 0.03))
    assert stopwatch.runtime.frame().windows[0] is not shown.windows[0]  # a running stopwatch shows seconds
    with pytest.raises(AttributeError, match="follows from the time"):
        runtime.minute = 3


def test_setting_the_clock_shows_at_once():
    phone = SimulatedDevice(seed=0, setup={"launch": "clock"})
    reference = SimulatedDevice(seed=0, setup={"launch": "clock"}, retained=False)
    phone.observe()
    for device in (phone, reference):
        device.runtime.time = 3 * 3600 + 25 * 60
    assert phone.observe(screenshot=False).xml == reference.observe(screenshot=False).xml
    assert "3:25" in phone.observe(screenshot=False).xml


def test_retained_caches_do_not_change_the_phone_state():
    """The route explorer keys states by pickle: what a phone has drawn is no state."""
    a, b = SimulatedDevice(seed=3), SimulatedDevice(seed=3)
    for _ in range(3):
        a.observe()
    a.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    b.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    a.observe(screenshot_size=(84, 84))
    assert state_key(a) == state_key(b)


def test_the_layout_memos_hold_at_most_their_budget():
    for seed in range(3):
        phone = SimulatedDevice(seed=seed, dynamics="default", setup={"launch": "chrome"})
        for action in record_walk("com.android.chrome", 30, seed, "pixel-6"):
            phone.perform(action)
            phone.observe(screenshot=False)
    for memo in (retained._LAYOUTS, retained._GEOMETRIES):
        assert memo.entries and memo.nbytes <= memo.max_bytes
        assert memo.nbytes == sum(cost for _, cost in memo.entries.values())


def test_layout_reads_only_the_fields_a_geometry_is_keyed_by(monkeypatch):
    # a field layout reads but `LAYOUT_FIELDS` lacks would let two windows that lay out
    # differently share their geometry
    read: set[str] = set()

    class Reading(Layout):
        def place(self, v, box, clip):
            if type(v) is not ReadingView:  # the window's root: the whole pass
                views = list(v.walk())
                for view in views:
                    view.__class__ = ReadingView
                ReadingView.reads.clear()
                super().place(v, box, clip)
                read.update(ReadingView.reads)
                for view in views:
                    view.__class__ = View
                return
            super().place(v, box, clip)

    monkeypatch.setattr(retained, "Layout", Reading)
    # lay out each window: none from the memos earlier tests filled
    monkeypatch.setattr(retained, "_LAYOUTS", retained.BoundedMemo(None, 0, lambda k, v: 0))
    monkeypatch.setattr(retained, "_GEOMETRIES", retained.BoundedMemo(None, 0, lambda k, v: 0))
    for package in MODELLED:
        phone = SimulatedDevice(seed=1, dynamics="default", setup=_setup(package))
        for action in record_walk(package, 40, 1, "pixel-6"):
            phone.perform(action)
            phone.observe(screenshot=False)
    assert {"children", "h", "orient", "pad"} <= read
    assert read - {"children", "bounds", "clip"} <= set(retained.LAYOUT_FIELDS)


def test_windows_that_differ_only_in_what_they_show_share_their_geometry():
    box = (0, 0, 1080, 2400)
    first = retained.place(retained.Tree(Column(Text("Alarm 7:00"), Text("On"))), box, box, 2.625, {})
    other = retained.place(retained.Tree(Column(Text("Alarm 9:30", bold=True), Text("Off"))), box, box, 2.625, {})
    taller = retained.place(retained.Tree(Column(Text("Alarm 9:30", lines=2), Text("Off"))), box, box, 2.625, {})
    assert other is not first and other.geometry is first.geometry
    assert taller.geometry is not first.geometry and taller.geometry[1] != first.geometry[1]


def test_only_the_current_screen_keeps_its_pixels():
    """A trace holds its frames to draw them when saved: they must not keep what they drew."""
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    first = phone.runtime.frame()
    shot = phone.observe(screenshot_size=(270, 600)).screenshot
    assert phone.observe(screenshot_size=(270, 600)).screenshot is shot  # shared while the screen stays
    tap(phone, text="Network & internet")
    phone.observe(screenshot_size=(270, 600))
    drawn = phone.render(first)  # the old screen, drawn on request
    assert phone.runtime.screenshots(first) == {}
    phone.close()
    assert np.array_equal(np.asarray(phone.render(first, (270, 600))), shot)
    assert drawn.size == phone.screen_size



@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4, 5])
@pytest.mark.parametrize("package", ["com.android.chrome", "com.android.vending"])
def test_long_chrome_and_play_store_walks_show_what_the_full_rebuild_shows(package, seed):
    """Their screens are kept while their `inputs` stay equal: a key that misses a change
    shows an old screen here."""
    assert_same_walk(package, 600, seed)
