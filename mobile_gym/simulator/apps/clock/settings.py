"""Clock settings (from the overflow menu) and the sound picker.

The real app follows the system's "Use 24-hour format"; so that tasks such as "turn on
the 12-hour format for clock" can be done inside the app, the Clock section here has a
"Use 24-hour format" switch (state ``use_24_hour``) that every time in the app follows.
"""

from __future__ import annotations

import pickle
from functools import partial

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.clock.model import (
    MAX_VOLUME, RAMP_CHOICES, RINGTONES, SILENCE_CHOICES, SNOOZE_CHOICES, TIME_ZONES,
    TIMER_SOUNDS, VOLUME_BUTTONS, WEEK_STARTS, Alarm, zone_label,
)
from mobile_gym.simulator.apps.clock.widgets import (
    ID, PRIMARY, ChoiceDialog, pref_row, radio_row, section_header, switch_row,
)
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.views import Column, Icon, Row, Scroll, Spacer, Text, View, VIEW

SEEKBAR = "android.widget.SeekBar"


def minutes_text(n: int) -> str:
    return "Never" if n == 0 else f"{n} minute{'' if n == 1 else 's'}"


def ramp_text(n: int) -> str:
    return "Never" if n == 0 else f"{n} seconds"


class SettingsActivity(Activity):
    name = "com.android.deskclock.settings.SettingsActivity"

    def choose(self, title: str, attr: str, options: tuple) -> None:
        self.sys.show(ChoiceDialog(title, options, self.app.state, attr))

    def flip(self, attr: str) -> None:
        setattr(self.app.state, attr, not getattr(self.app.state, attr))

    def set_volume(self, level: int) -> None:
        self.app.state.alarm_volume = level

    def choice_row(self, title: str, attr: str, options: tuple) -> View:
        current = getattr(self.app.state, attr)
        summary = next((label for label, value in options if value == current), str(current))
        return pref_row(title, summary, partial(self.choose, title, attr, options))

    def volume_row(self) -> View:
        """"Alarm volume": a seek bar; tapping a segment sets the level."""
        level = self.app.state.alarm_volume
        segments = [
            View(VIEW, [View(VIEW, h=6, radius=3, bg=PRIMARY if i <= level else (200, 200, 208))],
                 h=32, pad=(1, 13, 1, 13), on_click=partial(self.set_volume, i), desc=f"{i}")
            for i in range(1, MAX_VOLUME + 1)
        ]
        return Column(
            Row(Text("Alarm volume", size=16, rid="android:id/title"), h=32),
            Row(Icon("sound", h=40, w=32),
                Row(*segments, cls=SEEKBAR, rid=ID + "alarm_volume_seekbar", h=32,
                    desc=f"Alarm volume {level * 10}%"), h=40, gap=8),
            pad=(16, 8, 16, 8),
        )

    def inputs(self) -> bytes:
        return pickle.dumps(self.app.state, pickle.HIGHEST_PROTOCOL)  # handlers close over self alone

    def build(self) -> View:
        s = self.app.state
        minutes = lambda choices: tuple((minutes_text(n), n) for n in choices)  # noqa: E731
        seconds = tuple((ramp_text(n), n) for n in RAMP_CHOICES)
        return Column(
            app_bar(self, "Settings"),
            Scroll(
                section_header("Clock"),
                self.choice_row("Style", "clock_style", (("Analog", "analog"), ("Digital", "digital"))),
                switch_row("Display time with seconds", "", s.show_seconds,
                           partial(self.flip, "show_seconds")),
                switch_row("Use 24-hour format", "13:00" if s.use_24_hour else "1:00 PM", s.use_24_hour,
                           partial(self.flip, "use_24_hour")),
                switch_row("Automatic home clock",
                           "While traveling in an area where the time is different, add a clock for home",
                           s.auto_home_clock, partial(self.flip, "auto_home_clock"), lines=2),
                self.choice_row("Home time zone", "home_time_zone",
                                tuple((zone_label(n), n) for n, _ in TIME_ZONES)),
                section_header("Alarms"),
                self.choice_row("Silence after", "silence_after_minutes", minutes(SILENCE_CHOICES)),
                self.choice_row("Snooze length", "snooze_minutes", minutes(SNOOZE_CHOICES)),
                self.volume_row(),
                self.choice_row("Gradually increase volume", "alarm_ramp_seconds", seconds),
                self.choice_row("Volume buttons", "volume_buttons", tuple((v, v) for v in VOLUME_BUTTONS)),
                self.choice_row("Start week on", "start_week_on", tuple((d, d) for d in WEEK_STARTS)),
                section_header("Timers"),
                pref_row("Timer sound", s.timer_sound, lambda: self.start(RingtonePicker(self.app, None))),
                self.choice_row("Gradually increase volume", "timer_ramp_seconds", seconds),
                switch_row("Timer vibrate", "", s.timer_vibrate, partial(self.flip, "timer_vibrate")),
                Spacer(h=16),
                key="settings", rid=ID + "recycler_view",
            ),
        )


class RingtonePicker(Activity):
    """"Alarm sound" / "Timer sound": pick a sound for an alarm, or the timers' sound
    when ``alarm`` is None; the choice applies at once, BACK returns."""

    name = "com.android.deskclock.ringtone.RingtonePickerActivity"

    def __init__(self, app, alarm: Alarm | None) -> None:
        super().__init__(app)
        self.alarm = alarm

    def current(self) -> str:
        return self.alarm.ringtone if self.alarm is not None else self.app.state.timer_sound

    def pick(self, sound: str) -> None:
        if self.alarm is not None:
            self.alarm.ringtone = sound
        else:
            self.app.state.timer_sound = sound

    def build(self) -> View:
        sounds = RINGTONES if self.alarm is not None else TIMER_SOUNDS
        current = self.current()
        return Column(
            app_bar(self, "Alarm sound" if self.alarm is not None else "Timer sound"),
            Scroll(
                section_header("Device sounds"),
                *[radio_row(name, name == current, partial(self.pick, name), rid=ID + "ringtone_primary_text")
                  for name in sounds],
                key="sounds", rid=ID + "ringtone_content", pad=(8, 0, 8, 0),
            ),
        )
