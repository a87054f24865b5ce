"""Screenshots of the modelled apps: not blank, different per screen, widget state
visible. A copy of each goes to the artifacts folder for people to look at."""

from __future__ import annotations

import numpy as np
import pytest

from mobile_gym.simulator import SimulatedDevice
from phone import node, tap

APPS = ("launcher", "settings", "clock", "playstore", "chrome")
SIZE = (360, 800)


def shot(phone: SimulatedDevice) -> np.ndarray:
    return phone.observe(screenshot_size=SIZE).screenshot


def test_every_app_draws_a_distinct_non_trivial_screen(artifacts) -> None:
    screens = {}
    for app in APPS:
        phone = SimulatedDevice(seed=0, setup={"launch": app} if app != "launcher" else None)
        image = shot(phone)
        phone.observe(screenshot_size=SIZE).image.save(artifacts / f"{app}_main.png")
        assert image.std() > 15, app  # not a blank page
        assert len(np.unique(image.reshape(-1, 3), axis=0)) > 30, app  # text, icons, widgets
        screens[app] = image
    for a in APPS:
        for b in APPS:
            if a < b:
                assert (screens[a] != screens[b]).any(axis=2).mean() > 0.05, (a, b)


def _crop(phone: SimulatedDevice, bounds) -> np.ndarray:
    W, H = phone.screen_size
    sx, sy = SIZE[0] / W, SIZE[1] / H
    return shot(phone)[int(bounds.top * sy):int(bounds.bottom * sy), int(bounds.left * sx):int(bounds.right * sx)]


def _switch(phone: SimulatedDevice, title: str):
    row = node(phone, text=title).clickable_target
    return next(n for n in row.iter() if n.class_name == "android.widget.Switch")


def test_a_switch_shows_its_state(artifacts) -> None:
    phone = SimulatedDevice(seed=0, setup={"launch": "settings"})
    tap(phone, text="Network & internet")
    widget = _switch(phone, "Airplane mode")
    off = _crop(phone, widget.bounds)
    tap(phone, text="Airplane mode")
    widget_on = _switch(phone, "Airplane mode")
    assert widget_on.flags["checked"] and not widget.flags["checked"]
    on = _crop(phone, widget_on.bounds)
    phone.observe(screenshot_size=SIZE).image.save(artifacts / "settings_airplane_on.png")
    assert (on != off).any(axis=2).mean() > 0.2
    blue = lambda a: ((a[..., 2] > 180) & (a[..., 0] < 100)).mean()  # noqa: E731 - the accent colour
    assert blue(on) > blue(off) + 0.1


@pytest.mark.parametrize("theme", [False, True])
def test_dark_theme_darkens_every_app(theme: bool) -> None:
    for app in ("settings", "clock", "launcher"):
        phone = SimulatedDevice(seed=0, setup={"apps": {"settings": {"dark_theme": theme}},
                                               **({"launch": app} if app != "launcher" else {})})
        mean = shot(phone).mean()
        assert (mean < 100) if theme else (mean > 150), (app, mean)
