"""The Clock app's main screen (DeskClock): a top bar with the overflow menu, the
current tab's page, the page's buttons and the bottom tabs Alarm, Clock, Timer,
Stopwatch and Bedtime. The expanded alarm and the timer keypad entry live on the
activity; the selected tab (the app reopens on it), alarms, timers and settings in the
app's state."""

from __future__ import annotations

import pickle
from functools import partial

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.clock import alarms, pages
from mobile_gym.simulator.apps.clock.cities import CitySelection
from mobile_gym.simulator.apps.clock.model import DATE_TEXT, Alarm, fmt_clock
from mobile_gym.simulator.apps.clock.settings import SettingsActivity
from mobile_gym.simulator.apps.clock.widgets import ID, MenuDialog, TONAL
from mobile_gym.simulator.views import Column, Icon, Row, Spacer, Text, View, FRAME

TABS = (("alarm", "Alarm", "alarm"), ("clock", "Clock", "clock"), ("timer", "Timer", "timer"),
        ("stopwatch", "Stopwatch", "stopwatch"), ("bedtime", "Bedtime", "dark"))
PAGES = {"alarm": alarms.page, "clock": pages.clock_page, "timer": pages.timer_page,
         "stopwatch": pages.stopwatch_page, "bedtime": pages.bedtime_page}


class DeskClock(Activity):
    name = "com.android.deskclock.DeskClock"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.expanded: Alarm | None = None  # the alarm card shown open
        self.timer_digits = ""  # the timer keypad's entry, up to six digits

    # ------------------------------------------------------------ navigation
    @property
    def tab(self) -> str:
        return self.app.state.selected_tab

    def select_tab(self, tab: str) -> None:
        self.app.state.selected_tab = tab

    def open_menu(self) -> None:
        self.sys.show(MenuDialog((("Screensaver", self.open_screensaver),
                                  ("Settings", self.open_settings))))

    def open_settings(self) -> None:
        self.start(SettingsActivity(self.app))

    def open_screensaver(self) -> None:
        self.start(Screensaver(self.app))

    def open_cities(self) -> None:
        self.start(CitySelection(self.app))

    def alarm_time_set(self, alarm: Alarm | None, hour: int, minute: int) -> None:
        """The time picker's OK."""
        alarms.set_time(self, alarm, hour, minute)

    # ------------------------------------------------------------ timer
    def timer_type(self, digits: str) -> None:
        if self.timer_digits or digits.strip("0"):  # leading zeros are not entered
            self.timer_digits = (self.timer_digits + digits)[:6]

    def timer_delete(self) -> None:
        self.timer_digits = self.timer_digits[:-1]

    def timer_start(self) -> None:
        d = self.timer_digits.rjust(6, "0")
        total = int(d[:2]) * 3600 + int(d[2:4]) * 60 + int(d[4:])
        if not total:
            return
        s = self.app.state
        s.timer_active, s.timer_seconds, s.timer_remaining = True, total, total
        self.timer_resume()
        self.timer_digits = ""

    def timer_resume(self) -> None:
        s = self.app.state
        s.timer_running, s.timer_started_at = True, self.sys.time

    def timer_pause(self) -> None:
        s = self.app.state
        s.timer_remaining = s.timer_left(self.sys.time)
        s.timer_running, s.timer_started_at = False, None

    def timer_reset(self) -> None:
        s = self.app.state
        self.timer_pause()
        s.timer_remaining = s.timer_seconds

    timer_stop = timer_reset  # "Stop" on a timer that went off resets it

    def timer_add_minute(self) -> None:
        s = self.app.state
        if s.timer_left(self.sys.time) <= 0:  # gone off: one more minute from now
            s.timer_remaining, s.timer_started_at = 60, self.sys.time
        else:
            s.timer_remaining += 60
        s.timer_seconds += 60

    def timer_remove(self) -> None:
        s = self.app.state
        s.timer_active = s.timer_running = False
        s.timer_seconds = s.timer_remaining = 0
        s.timer_started_at = None

    # ------------------------------------------------------------ stopwatch
    def stopwatch_toggle(self) -> None:
        s = self.app.state
        if s.stopwatch_running:
            s.stopwatch_elapsed = s.stopwatch_total(self.sys.time)
            s.stopwatch_running, s.stopwatch_started_at = False, None
        else:
            s.stopwatch_running, s.stopwatch_started_at = True, self.sys.time

    def stopwatch_lap(self) -> None:
        s = self.app.state
        s.stopwatch_laps.append(s.stopwatch_total(self.sys.time))

    def stopwatch_reset(self) -> None:
        s = self.app.state
        s.stopwatch_running, s.stopwatch_started_at, s.stopwatch_elapsed = False, None, 0
        s.stopwatch_laps.clear()

    def bedtime_toggle(self) -> None:
        self.app.state.bedtime_enabled = not self.app.state.bedtime_enabled

    # ------------------------------------------------------------ views
    def tab_view(self, key: str, label: str, icon: str) -> View:
        selected = self.tab == key
        return Column(
            Spacer(h=12),
            Icon(icon, h=32, w=64, align="center", bg=TONAL if selected else None, radius=16),
            Text(label, size=12, align="center", bold=selected, h=24),
            cls=FRAME, desc=label, selected=selected, on_click=partial(self.select_tab, key),
            rid=ID + f"tab_menu_{key}",
        )

    def inputs(self) -> tuple:
        """The state (handlers close over it and its alarms: their identities too), the
        open alarm card and the timer keypad's entry."""
        s = self.app.state
        return (pickle.dumps(s, pickle.HIGHEST_PROTOCOL), id(s), tuple(map(id, s.alarms)), id(s.stopwatch_laps),
                id(self.expanded), self.timer_digits)

    def build(self) -> View:
        body, buttons = PAGES[self.tab](self)
        title = next(label for key, label, _ in TABS if key == self.tab)
        return Column(
            Row(Spacer(w=16), Text(title, size=22, rid=ID + "action_bar_title"),
                Icon("more", desc="More options", on_click=self.open_menu), h=64, pad=(0, 0, 4, 0),
                rid=ID + "toolbar"),
            body,
            buttons,
            Row(*[self.tab_view(*tab) for tab in TABS], h=80, rid=ID + "tabs", bg=(240, 240, 244)),
        )


class Screensaver(Activity):
    """The screensaver from the overflow menu: a dim clock; a tap or BACK leaves it."""

    name = "com.android.deskclock.ScreensaverActivity"

    def inputs(self) -> tuple:
        return self.app.state.show_seconds, self.app.state.use_24_hour

    def build(self) -> View:
        s = self.app.state
        grey = (150, 150, 156)
        now = self.sys.time if s.show_seconds else self.sys.minute * 60  # remade once a minute
        return Column(
            Spacer(fill=True),
            Text(fmt_clock(now, s.use_24_hour, s.show_seconds), size=56, h=88, align="center",
                 fg=grey, rid=ID + "digital_clock"),
            Text(DATE_TEXT, size=16, align="center", fg=grey, rid=ID + "date"),
            Spacer(fill=True),
            bg=(0, 0, 0), on_click=self.finish, rid=ID + "main_clock",
        )
