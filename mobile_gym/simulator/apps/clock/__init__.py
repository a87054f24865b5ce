"""Google Clock (com.google.android.deskclock): alarms with Material's time picker,
world clock with city search, timer, stopwatch, a Bedtime placeholder and settings.

Modules: `model` (state and time arithmetic), `main` (the tabbed DeskClock screen),
`alarms` (Alarm tab), `pages` (the other tabs), `picker` (time picker, label dialog),
`cities` (city search), `settings` (settings, sound picker), `widgets` (shared rows
and dialogs).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.clock.main import TABS, DeskClock
from mobile_gym.simulator.apps.clock.model import (
    CITIES, RAMP_CHOICES, RINGTONES, SILENCE_CHOICES, SNOOZE_CHOICES, STYLES, TIMER_SOUNDS,
    VOLUME_BUTTONS, WEEK_STARTS, WEEKDAYS, WEEKDAYS_SET, WEEKEND, ZONE_OFFSETS, MAX_VOLUME,
    Alarm, ClockState, next_alarm_text,
)
from mobile_gym.simulator.apps.clock.widgets import ID, TONAL, ON_TONAL
from mobile_gym.simulator.views import Button, Column, Icon, Row, Spacer, Text, View

__all__ = ["Alarm", "Clock", "ClockState"]

# Allowed values of the settings a task may set.
CHOICES = {
    "selected_tab": tuple(key for key, _, _ in TABS),
    "clock_style": STYLES, "snooze_minutes": SNOOZE_CHOICES,
    "silence_after_minutes": SILENCE_CHOICES, "alarm_ramp_seconds": RAMP_CHOICES,
    "timer_ramp_seconds": RAMP_CHOICES, "volume_buttons": VOLUME_BUTTONS,
    "start_week_on": WEEK_STARTS, "home_time_zone": tuple(ZONE_OFFSETS),
    "timer_sound": TIMER_SOUNDS, "alarm_volume": tuple(range(MAX_VOLUME + 1)),
}
ALARM_FIELDS = tuple(f.name for f in dataclasses.fields(Alarm))
# Alarms the "default" dynamics draws from: (hour, minute, days).
ALARM_POOL = ((6, 0, WEEKDAYS_SET), (6, 30, WEEKDAYS_SET), (7, 0, ()), (7, 15, WEEKDAYS_SET),
              (7, 45, ()), (8, 0, WEEKEND), (8, 30, WEEKDAYS_SET), (9, 0, WEEKEND),
              (9, 30, WEEKEND), (10, 0, ()), (13, 0, ()), (22, 30, WEEKDAYS))


class Clock(App):
    package = "com.google.android.deskclock"
    label = "Clock"
    key = "clock"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "alarm"
    color = (26, 115, 232)
    State = ClockState

    def main(self) -> Activity:
        return DeskClock(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Other default alarms (a few on) and a few world clocks."""
        picks = sorted(rng.choice(len(ALARM_POOL), size=int(rng.integers(2, 5)), replace=False))
        self.state.alarms = [Alarm(h, m, enabled=bool(rng.random() < 0.25), days=list(days))
                             for h, m, days in (ALARM_POOL[int(i)] for i in picks)]
        names = sorted(CITIES)
        self.state.cities = [names[int(i)] for i in rng.choice(len(names), size=int(rng.integers(0, 4)),
                                                               replace=False)]

    def popups(self, activity: Activity) -> list[Dialog]:
        return [BedtimePromo(activity)] if isinstance(activity, DeskClock) else []

    def system_ui(self) -> dict:
        """The status bar shows an alarm icon while an alarm is on."""
        upcoming = next_alarm_text(self.state.alarms, self.sys.minute * 60, self.state.use_24_hour)
        return {"icons": [("alarm", f"Alarm set for {upcoming}.")]} if upcoming else {}

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup values, checked: alarms as mappings of `Alarm` fields, known city names,
        settings among their choices."""
        values = dict(values)
        alarms = values.pop("alarms", None)
        super().configure(values)
        if alarms is not None:
            if not isinstance(alarms, (list, tuple)):
                raise SimulatorError(f"clock 'alarms' must be a list of alarms, got {alarms!r}")
            self.state.alarms = [_alarm(a) for a in alarms]
        unknown = [c for c in self.state.cities if c not in CITIES]
        if unknown:
            raise SimulatorError(f"clock: unknown cities {unknown}; known: {', '.join(sorted(CITIES))}")
        s = self.state
        for what, running, started in (("timer", s.timer_running, s.timer_started_at),
                                       ("stopwatch", s.stopwatch_running, s.stopwatch_started_at)):
            if started is not None and (isinstance(started, bool) or not isinstance(started, int)):
                raise SimulatorError(f"clock {what}_started_at must be a time in seconds, got {started!r}")
            if running and started is None:
                raise SimulatorError(f"clock: a running {what} needs {what}_started_at")
        if s.timer_running and not s.timer_active:
            raise SimulatorError("clock: a running timer needs timer_active")
        for name, allowed in CHOICES.items():
            if getattr(self.state, name) not in allowed:
                raise SimulatorError(f"clock {name!r} must be one of {list(allowed)}, "
                                     f"got {getattr(self.state, name)!r}")


def _alarm(value: Any) -> Alarm:
    """An `Alarm` from setup (a mapping of its fields), validated."""
    if isinstance(value, Alarm):
        value = vars(value)
    if not isinstance(value, Mapping):
        raise SimulatorError(f"clock alarm must be a mapping of Alarm fields, got {value!r}")
    alarm = Alarm()
    for name, given in value.items():
        if name == "days":
            continue
        if name not in ALARM_FIELDS:
            raise SimulatorError(f"clock alarm has no field {name!r}; known: {', '.join(ALARM_FIELDS)}")
        default = getattr(alarm, name)
        if isinstance(given, bool) != isinstance(default, bool) or not isinstance(given, type(default)):
            raise SimulatorError(f"clock alarm field {name!r} expects {type(default).__name__}, got {given!r}")
        setattr(alarm, name, given)
    if not (0 <= alarm.hour <= 23 and 0 <= alarm.minute <= 59):
        raise SimulatorError(f"clock alarm time {alarm.hour}:{alarm.minute:02d} is out of range")
    if alarm.ringtone not in RINGTONES:
        raise SimulatorError(f"clock alarm ringtone must be one of {list(RINGTONES)}")
    days = value.get("days", [])
    if isinstance(days, str) or not isinstance(days, (list, tuple)):
        raise SimulatorError(f"clock alarm days must be a list of weekday names, got {days!r}")
    alarm.days = sorted({_weekday(d) for d in days}, key=WEEKDAYS.index)
    return alarm


def _weekday(name: Any) -> str:
    """"Monday", "monday" or "Mon" -> "Monday"."""
    for day in WEEKDAYS:
        if isinstance(name, str) and name.strip().lower() in (day.lower(), day[:3].lower()):
            return day
    raise SimulatorError(f"clock alarm day {name!r} is not a weekday name")


class BedtimePromo(Dialog):
    """A one-time bottom sheet inviting the user to try Bedtime."""

    def __init__(self, activity: DeskClock) -> None:
        super().__init__("Try Bedtime", "Set a regular sleep schedule, and wind down with a "
                         "quieter phone before bed.", (("Not now", None),
                                                       ("Try it", partial(activity.select_tab, "bedtime"))),
                         kind="sheet")

    def press(self, handler) -> None:
        self.close()
        if handler is not None:
            handler()

    def build(self) -> View:
        return Column(
            Icon("dark", h=72, w=72, style="appicon", bg=TONAL, fg=ON_TONAL, align="center"),
            Text(self.title, size=22, align="center", rid=ID + "promo_title"),
            Text(self.message, size=14, lines=2, align="center", style="muted", rid=ID + "promo_message"),
            Row(Spacer(), *[Button(label, lambda h=handler: self.press(h),
                                   style="filled" if handler else "text", w=112,
                                   rid=ID + ("promo_accept" if handler else "promo_dismiss"))
                            for label, handler in self.buttons], Spacer(), h=56, gap=16),
            pad=(24, 24, 24, 16), gap=12, style="dialog", radius=28,
        )
