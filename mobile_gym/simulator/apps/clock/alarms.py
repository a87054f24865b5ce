"""The Alarm tab: alarm cards (time, on/off switch, repeat summary) that expand to
show the label, repeat days, sound, vibrate and delete, and the "Add alarm" button.
Cards are listed by time of day, as the real app sorts them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.simulator.apps.clock.model import (
    Alarm, alarm_set_toast, days_summary, fmt_time, seconds_until, week_order,
)
from mobile_gym.simulator.apps.clock.picker import LabelDialog, TimePicker
from mobile_gym.simulator.apps.clock.settings import RingtonePicker
from mobile_gym.simulator.apps.clock.widgets import ID, ON_TONAL, PRIMARY, controls, fab
from mobile_gym.simulator.views import (
    Button, CheckBox, Column, Icon, Row, Scroll, Spacer, Switch, Text, View,
)

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.clock.main import DeskClock


def page(act: DeskClock) -> tuple[View, View]:
    alarms = sorted(act.app.state.alarms, key=lambda a: (a.hour, a.minute))
    if alarms:
        body = Scroll(*[card(act, a) for a in alarms], Spacer(h=8), key="alarms",
                      rid=ID + "alarm_recycler_view", pad=(16, 8, 16, 0), gap=12)
    else:
        body = Column(Spacer(h=160), Icon("alarm", h=64, w=64, align="center"),
                      Text("No alarms", size=16, align="center", style="muted",
                           rid=ID + "alarms_empty_view"), fill=True)
    return body, controls(None, fab("add", "Add alarm", lambda: add(act)), None)


def card(act: DeskClock, alarm: Alarm) -> View:
    s = act.app.state
    time = fmt_time(alarm.hour, alarm.minute, s.use_24_hour)
    expanded = act.expanded is alarm
    toggle_open = lambda: setattr(act, "expanded", None if expanded else alarm)  # noqa: E731
    if expanded:
        label = Row(Icon("edit", h=32, w=24, fg=(95, 95, 105)),
                    Text(alarm.label or "Add label", size=14, rid=ID + "edit_label",
                         style=None if alarm.label else "muted", on_click=lambda: edit_label(act, alarm)),
                    h=32, gap=8)
    else:
        label = Text(alarm.label, size=14, rid=ID + "label") if alarm.label else Spacer()
    head = Row(label,
               Icon("expand", desc="Collapse alarm" if expanded else "Expand alarm", rid=ID + "arrow",
                    on_click=toggle_open, h=32, w=40),
               h=32)
    main = Row(
        Text(time, size=44, h=64, w=220, rid=ID + "digital_clock", on_click=lambda: edit_time(act, alarm),
             fg=None if alarm.enabled else (95, 95, 105)),
        Spacer(),
        # the switch names its alarm, so that "the 9:00 AM alarm is on" is one node
        Switch(alarm.enabled, lambda: set_enabled(act, alarm, not alarm.enabled), rid=ID + "onoff",
               desc=f"{time} Alarm"),
        h=64,
    )
    summary = Text(days_summary(alarm, act.sys.minute * 60, s.start_week_on), size=14, style="muted",
                   rid=ID + "days_of_week")
    details = details_rows(act, alarm) if expanded else ()
    return Column(head, main, summary, *details, style="card", radius=24, pad=(16, 8, 8, 12),
                  on_click=toggle_open, desc=f"{time} Alarm", rid=ID + "alarm_card_layout")


def details_rows(act: DeskClock, alarm: Alarm) -> tuple[View, ...]:
    """What an expanded card adds: repeat days, sound, vibrate, delete."""
    days = [
        Button(day[0], lambda d=day: toggle_day(alarm, d), style="filled" if day in alarm.days else "outlined",
               w=36, h=36, radius=18, desc=day, checkable=True, checked=day in alarm.days,
               rid=ID + f"day_button_{i}", fg=None if day in alarm.days else ON_TONAL)
        for i, day in enumerate(week_order(act.app.state.start_week_on))
    ]
    return (
        Row(*days, h=48, gap=8),
        Row(Icon("bell", h=48, w=32, fg=PRIMARY), Text(alarm.ringtone, size=14, rid=ID + "choose_ringtone"),
            h=48, gap=8, on_click=lambda: act.start(RingtonePicker(act.app, alarm))),
        Row(CheckBox(alarm.vibrate, lambda: setattr(alarm, "vibrate", not alarm.vibrate), text="Vibrate",
                     rid=ID + "vibrate_onoff"), h=48),
        Row(Icon("trash", h=48, w=32), Text("Delete", size=14), h=48, gap=8, rid=ID + "delete",
            on_click=lambda: delete(act, alarm)),
    )


# ------------------------------------------------------------------ actions

def add(act: DeskClock) -> None:
    now = act.sys.time
    act.sys.show(TimePicker(act, None, now // 3600, now // 60 % 60))


def edit_time(act: DeskClock, alarm: Alarm) -> None:
    act.sys.show(TimePicker(act, alarm, alarm.hour, alarm.minute))


def set_time(act: DeskClock, alarm: Alarm | None, hour: int, minute: int) -> None:
    """The picker's OK: a new alarm (on, expanded) or a changed one (turned on)."""
    if alarm is None:
        alarm = Alarm(hour, minute, enabled=True)
        act.app.state.alarms.append(alarm)
        act.expanded = alarm
    alarm.hour, alarm.minute = hour, minute
    set_enabled(act, alarm, True)


def set_enabled(act: DeskClock, alarm: Alarm, on: bool) -> None:
    alarm.enabled = on
    if on:
        act.sys.toast(alarm_set_toast(seconds_until(alarm, act.sys.time)))


def toggle_day(alarm: Alarm, day: str) -> None:
    if day in alarm.days:
        alarm.days.remove(day)
    else:
        alarm.days.append(day)
        alarm.days.sort(key=week_order("Monday").index)


def edit_label(act: DeskClock, alarm: Alarm) -> None:
    act.sys.show(LabelDialog(alarm))
    act.sys.keyboard = True


def delete(act: DeskClock, alarm: Alarm) -> None:
    alarms = act.app.state.alarms
    alarms[:] = [a for a in alarms if a is not alarm]  # by identity: two alarms may be equal
    act.expanded = None
    act.sys.toast("Alarm deleted")
