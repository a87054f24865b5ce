"""The Clock, Timer, Stopwatch and Bedtime tabs. Each page returns its body and the
row of buttons shown above the tabs; times come from the virtual clock: ``sys.minute`` where
only the minute shows (the page is remade once a minute), ``sys.time`` for the seconds of a
timer or stopwatch."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.simulator.apps.clock.model import (
    CITIES, DATE_TEXT, ZONE_OFFSETS, LOCAL_OFFSET, city_time, fmt_clock, fmt_duration,
    fmt_stopwatch, next_alarm_text, offset_text,
)
from mobile_gym.simulator.apps.clock.widgets import (
    ID, ON_TONAL, PRIMARY, TONAL, controls, fab, side_button,
)
from mobile_gym.simulator.views import Button, Column, Icon, Row, Scroll, Spacer, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.clock.main import DeskClock

KEYS = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("00", "0", None))


# ------------------------------------------------------------------ Clock

def clock_page(act: DeskClock) -> tuple[View, View]:
    s = act.app.state
    now = act.sys.time if s.show_seconds else act.sys.minute * 60  # the page changes once a minute
    h24 = s.use_24_hour
    time = fmt_clock(now, h24, s.show_seconds)
    if s.clock_style == "analog":
        face = Icon("clock", desc=time, style="appicon", h=208, w=208, align="center", bg=TONAL,
                    fg=ON_TONAL, rid=ID + "analog_clock")
    else:
        face = Text(time, size=44 if s.show_seconds else 60, h=104, align="center", rid=ID + "digital_clock")
    upcoming = next_alarm_text(s.alarms, now, h24)
    cities = [(c, CITIES[c]) for c in s.cities if c in CITIES]
    home = ZONE_OFFSETS.get(s.home_time_zone, LOCAL_OFFSET)
    if s.auto_home_clock and home != LOCAL_OFFSET:
        cities.insert(0, ("Home", home))
    body = Scroll(
        Spacer(h=24), face,
        Text(DATE_TEXT, size=16, align="center", rid=ID + "date"),
        Row(Icon("alarm", h=24, w=24, fg=PRIMARY), Text(upcoming, size=14, w=120, rid=ID + "nextAlarm"),
            h=28, w=152, align="center", desc=f"Next alarm {upcoming}") if upcoming else None,
        Spacer(h=16),
        *[city_card(name, offset, now, h24) for name, offset in cities],
        key="clock", rid=ID + "cities", pad=(16, 0, 16, 0), gap=12,
    )
    return body, controls(None, fab("globe", "Cities", lambda: act.open_cities()), None)


def city_card(name: str, offset: int, now: int, h24: bool) -> View:
    seconds, _ = city_time(offset, now)
    return Row(
        Column(Text(name, size=18, rid=ID + "city_name"),
               Text(offset_text(offset, now), size=13, style="muted", rid=ID + "hours_ahead"),
               pad=(0, 17, 0, 0)),
        Text(fmt_clock(seconds, h24), size=26, w=150, h=88, align="right", rid=ID + "digital_clock"),
        h=88, pad=(20, 0, 20, 0), style="card", radius=24, rid=ID + "city_card",
    )


# ------------------------------------------------------------------ Timer

def timer_page(act: DeskClock) -> tuple[View, View]:
    return running_timer(act) if act.app.state.timer_active else timer_setup(act)


def timer_setup(act: DeskClock) -> tuple[View, View]:
    d = act.timer_digits.rjust(6, "0")
    entered = bool(act.timer_digits)

    def key(label: str | None) -> View:
        if label is None:
            return Icon("back", desc="Delete", rid=ID + "timer_setup_delete", on_click=act.timer_delete,
                        w=80, h=64, bg=(232, 234, 240), radius=32, enabled=entered)
        return Button(label, lambda: act.timer_type(label), style="tonal", w=80, h=64, radius=32,
                      rid=ID + f"timer_setup_digit_{label}")

    return Column(
        Spacer(h=32),
        Text(f"{d[:2]}h {d[2:4]}m {d[4:]}s", size=44, h=80, align="center", rid=ID + "timer_setup_time",
             fg=PRIMARY if entered else None),
        Spacer(h=24),
        *[Row(*[key(k) for k in row], w=272, h=64, gap=16, align="center") for row in KEYS],
        gap=12, fill=True,
    ), controls(None, fab("play", "Start", act.timer_start) if entered else None, None)


def running_timer(act: DeskClock) -> tuple[View, View]:
    s = act.app.state
    left = s.timer_left(act.sys.time)
    expired = left <= 0
    buttons = [Button("+1:00", act.timer_add_minute, style="tonal", w=120, rid=ID + "timer_add_time")]
    if not s.timer_running:
        buttons.insert(0, Button("Reset", act.timer_reset, style="tonal", w=120, rid=ID + "reset"))
    card = Column(
        Row(Text("Timer", size=16, rid=ID + "timer_label"),
            Icon("close", desc="Delete", rid=ID + "delete", on_click=act.timer_remove), h=48),
        Spacer(h=24),
        Text(fmt_duration(left), size=56, h=88, align="center", rid=ID + "timer_text",
             fg=(179, 38, 30) if expired else None),
        Text("Time's up", size=16, align="center", style="muted", rid=ID + "timer_status")
        if expired else Spacer(h=27),
        Spacer(h=24),
        Row(*buttons, h=48, gap=16, w=120 * len(buttons) + 16 * (len(buttons) - 1), align="center"),
        style="card", radius=28, pad=(24, 8, 8, 24), rid=ID + "timer_item",
    )
    if expired and s.timer_running:
        action = fab("close", "Stop", act.timer_stop)
    elif s.timer_running:
        action = fab("nav_recents", "Pause", act.timer_pause)
    else:
        action = fab("play", "Start", act.timer_resume)
    return Column(Spacer(h=16), card, pad=(16, 0, 16, 0), fill=True), controls(None, action, None)


# ------------------------------------------------------------------ Stopwatch

def stopwatch_page(act: DeskClock) -> tuple[View, View]:
    s = act.app.state
    total = s.stopwatch_total(act.sys.time)
    laps = s.stopwatch_laps
    rows = []
    for n in range(len(laps), 0, -1):  # newest first
        lap = laps[n - 1] - (laps[n - 2] if n > 1 else 0)
        rows.append(Row(Text(f"# {n}", size=16, w=72, rid=ID + "lap_number"),
                        Text(fmt_stopwatch(lap) + ".00", size=16, rid=ID + "lap_time"),
                        Text(fmt_stopwatch(laps[n - 1]) + ".00", size=16, align="right", rid=ID + "lap_total"),
                        h=48, pad=(24, 0, 24, 0)))
    body = Column(
        Spacer(h=48),
        Text(fmt_stopwatch(total), size=64, h=96, align="center", rid=ID + "stopwatch_time_text"),
        Text("00", size=24, align="center", style="muted", rid=ID + "stopwatch_hundredths_text"),
        Spacer(h=16),
        Scroll(*rows, key="laps", rid=ID + "laps_list") if rows else Spacer(fill=True),
        fill=True,
    )
    if s.stopwatch_running:
        left = side_button("add", "Lap", act.stopwatch_lap, "stopwatch_lap")
        center = fab("nav_recents", "Pause", act.stopwatch_toggle)
    else:
        left = side_button("refresh", "Reset", act.stopwatch_reset, "stopwatch_reset") if total else None
        center = fab("play", "Start", act.stopwatch_toggle)
    return body, controls(left, center, None)


# ------------------------------------------------------------------ Bedtime

def bedtime_page(act: DeskClock) -> tuple[View, None]:
    s = act.app.state
    if not s.bedtime_enabled:
        return Column(
            Spacer(h=64),
            Icon("dark", h=120, w=120, style="appicon", bg=TONAL, fg=ON_TONAL, align="center"),
            Spacer(h=16),
            Text("Bedtime", size=28, bold=True, align="center"),
            Text("Get consistent sleep with a regular bedtime and wake-up schedule", size=14,
                 lines=2, align="center", style="muted"),
            Spacer(fill=True),
            Button("Get started", act.bedtime_toggle, w=200, align="center", rid=ID + "get_started"),
            Spacer(h=24),
            pad=(32, 0, 32, 0), fill=True,
        ), None

    def card(title: str, time: int) -> View:
        return Column(Text(title, size=14, style="muted"),
                      Text(fmt_clock(time, s.use_24_hour), size=32, h=48),
                      style="card", radius=24, pad=(20, 12, 20, 12))

    return Column(
        Spacer(h=16),
        card("Bedtime", 23 * 3600),
        card("Wake-up", 7 * 3600),
        Spacer(fill=True),
        Button("Turn off schedule", act.bedtime_toggle, style="outlined", w=200, align="center",
               rid=ID + "bedtime_off"),
        Spacer(h=24),
        pad=(16, 0, 16, 0), gap=12, fill=True,
    ), None
