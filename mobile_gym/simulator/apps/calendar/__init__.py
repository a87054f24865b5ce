"""Google Calendar (com.google.android.calendar), signed in: the main screen in Schedule,
Day, 3 days, Week or Month view with the navigation drawer (views, calendars, Settings),
the toolbar's month dropdown, "Jump to Today" and Search; "Create new event" and its
speed dial (Task, Event); the editor (title, all-day, start and end with a date picker
and a list of times, repeat choices); an event's details (edit, delete one or all of a
series, a task's "Mark completed"); Settings. Today is the launcher's date, Saturday,
November 21, 2026; weeks start on Sunday.

Modules: `model` (state, dates, the Schedule's rows), `screens` (the main activity),
`editor` (editor, details, search, settings).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.calendar.model import (
    BIRTHDAYS, BOOT_DATE, CALENDARS, DURATIONS, HOLIDAYS, KINDS, REPEATS, TASKS, VIEWS, CalendarState,
    Event, iso,
)
from mobile_gym.simulator.apps.calendar.screens import BLUE, PKG, AllInOneActivity, Welcome
from mobile_gym.simulator.apps.prompts import NotificationPermission

__all__ = ["CalendarState", "Event", "GoogleCalendar"]

EVENT_FIELDS = tuple(Event.__dataclass_fields__)
_D = BOOT_DATE  # today in any episode of realistic length


def _on(offset: int) -> str:
    return iso(_D + timedelta(days=offset))


def _hm(h: int, m: int = 0) -> int:
    return h * 60 + m


#: The US holidays of the season (the "Holidays in United States" calendar).
HOLIDAY_EVENTS = (("Veterans Day", "2026-11-11"), ("Thanksgiving Day", "2026-11-26"),
                  ("Christmas Eve", "2026-12-24"), ("Christmas Day", "2026-12-25"),
                  ("New Year's Eve", "2026-12-31"), ("New Year's Day", "2027-01-01"))

#: The calendar with dynamics none: (title, day offset from today, start, end, options).
CANONICAL = (
    ("Team sync", -80, _hm(10), _hm(10, 30), {"repeat": "weekly"}),  # Wednesdays
    ("Yoga class", -79, _hm(18, 30), _hm(19, 30), {"repeat": "weekly"}),  # Thursdays
    ("Family dinner", -76, _hm(18), _hm(20), {"repeat": "weekly"}),  # Sundays
    ("Brunch with Priya", -6, _hm(11), _hm(12, 30), {}),
    ("Project kickoff", -5, _hm(13), _hm(14), {}),
    ("Dentist appointment", -4, _hm(8, 30), _hm(9, 30), {"location": "Bright Smile Dental"}),
    ("Book club", -1, _hm(19), _hm(21), {}),
    ("Farmers market", 0, _hm(9), _hm(10), {}),
    ("Coffee with Sam", 0, _hm(15), _hm(16), {"location": "Blue Bottle Coffee"}),
    ("Car service", 2, _hm(8), _hm(9), {}),
    ("Quarterly review", 3, _hm(14), _hm(15, 30), {}),
    ("Thanksgiving dinner at Mom's", 5, _hm(16), _hm(20), {}),
    ("Hike at Bear Mountain", 7, _hm(8), _hm(13), {}),
    ("Flight to Chicago", 9, _hm(7, 15), _hm(9, 45), {}),
    ("Chicago conference", 10, 0, 0, {"all_day": True, "end_date": "2026-12-02"}),
    ("Office holiday party", 13, _hm(18), _hm(22), {}),
    ("Doctor's appointment", 17, _hm(10), _hm(10, 45), {}),
    ("Sam's birthday", 21, 0, 0, {"all_day": True, "repeat": "yearly", "calendar": BIRTHDAYS}),
    ("Piano recital", 24, _hm(17), _hm(18), {}),
    ("Team holiday lunch", 27, _hm(12), _hm(13, 30), {}),
    ("Pay rent", 10, _hm(9), _hm(9), {"kind": "task", "calendar": TASKS}),
)

# What the "default" dynamics draws from.
WEEKLY_POOL = (("Team sync", _hm(10), _hm(10, 30)), ("Yoga class", _hm(18, 30), _hm(19, 30)),
               ("Spin class", _hm(7), _hm(7, 45)), ("1:1 with Jordan", _hm(15), _hm(15, 30)),
               ("Piano lesson", _hm(17), _hm(18)), ("Running club", _hm(6, 30), _hm(7, 30)))
SUNDAY_POOL = (("Family dinner", _hm(18), _hm(20)), ("Call Mom", _hm(11), _hm(11, 30)),
               ("Meal prep", _hm(16), _hm(17, 30)), ("Long run", _hm(8), _hm(9, 30)))
EVENT_POOL = ("Brunch with Priya", "Project kickoff", "Dentist appointment", "Book club", "Farmers market",
              "Coffee with Sam", "Car service", "Quarterly review", "Hike at Bear Mountain", "Flight to Chicago",
              "Office holiday party", "Doctor's appointment", "Piano recital", "Team holiday lunch",
              "Parent-teacher conference", "Vet appointment for Max", "Movie night", "Volunteer at food bank",
              "Date night", "Plumber visit", "Budget review", "Lunch with Alex", "Pick up dry cleaning",
              "Soccer practice", "Design review", "Oil change", "Museum visit", "Concert: The Lumineers")
BIRTHDAY_POOL = ("Sam's birthday", "Priya's birthday", "Jordan's birthday", "Grandma's birthday")
TASK_POOL = ("Pay rent", "Renew car registration", "Order groceries", "Send holiday cards")
STARTS = tuple(_hm(h, m) for h in range(7, 21) for m in (0, 30))
LENGTHS = (30, 45, 60, 60, 90, 120)


class GoogleCalendar(App):
    package = PKG
    label = "Calendar"
    key = "calendar"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "app"
    color = BLUE
    State = CalendarState
    stream = 9  # added after the first apps: a random stream of its own

    def __init__(self, sys) -> None:
        super().__init__(sys)
        self.state.events = []
        for title, offset, start, end, options in CANONICAL:
            self.state.add(Event(title, _on(offset), start, end, **options))
        self._add_holidays()

    def _add_holidays(self) -> None:
        for title, day in HOLIDAY_EVENTS:
            self.state.add(Event(title, day, all_day=True, calendar=HOLIDAYS))

    def main(self) -> Activity:
        return AllInOneActivity(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Another calendar: two weekly series on weekdays and one on Sundays (so tomorrow
        always has something), 14-22 one-off events from Nov 8 to Dec 31 (at most three
        today, one more tomorrow), a birthday or two, a task; the holidays stay."""
        s = self.state
        s.events, s.next_id = [], 1
        for i, day in zip(rng.choice(len(WEEKLY_POOL), size=2, replace=False), rng.choice(5, size=2, replace=False)):
            title, start, end = WEEKLY_POOL[int(i)]
            first = _D - timedelta(days=84) + timedelta(days=(int(day) - (_D - timedelta(days=84)).weekday()) % 7)
            s.add(Event(title, iso(first), start, end, repeat="weekly"))
        title, start, end = SUNDAY_POOL[int(rng.integers(len(SUNDAY_POOL)))]
        s.add(Event(title, _on(-76), start, end, repeat="weekly"))  # Sundays
        per_day: dict[int, int] = {}
        limits = {0: 3, 1: 1}
        for i in rng.choice(len(EVENT_POOL), size=int(rng.integers(14, 23)), replace=False):
            offset = int(rng.integers(-13, 41))
            if per_day.get(offset, 0) >= limits.get(offset, 2):
                continue
            per_day[offset] = per_day.get(offset, 0) + 1
            if rng.random() < 0.1:
                s.add(Event(EVENT_POOL[int(i)], _on(offset), all_day=True))
                continue
            start = int(STARTS[int(rng.integers(len(STARTS)))])
            s.add(Event(EVENT_POOL[int(i)], _on(offset), start, min(start + int(rng.choice(LENGTHS)), 23 * 60)))
        for i in rng.choice(len(BIRTHDAY_POOL), size=int(rng.integers(1, 3)), replace=False):
            s.add(Event(BIRTHDAY_POOL[int(i)], _on(int(rng.integers(2, 41))), all_day=True, repeat="yearly",
                        calendar=BIRTHDAYS))
        s.add(Event(TASK_POOL[int(rng.integers(len(TASK_POOL)))], _on(int(rng.integers(2, 20))), _hm(9), _hm(9),
                    kind="task", calendar=TASKS))
        self._add_holidays()

    def popups(self, activity: Activity) -> list[Dialog]:
        """The first-run card and the notification-permission prompt, over the main screen."""
        if not isinstance(activity, AllInOneActivity):
            return []
        return [Welcome(activity), NotificationPermission("Calendar", activity.allow_notifications, BLUE)]

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: ``events`` (mappings of `Event` fields; they replace the calendar's,
        holidays included) and the other fields as they are, checked."""
        values = dict(values)
        events = values.pop("events", None)
        super().configure(values)
        s = self.state
        if events is not None:
            if not isinstance(events, (list, tuple)):
                raise SimulatorError(f"calendar 'events' must be a list, got {events!r}")
            s.events, s.next_id = [], 1
            for value in events:
                s.add(_event(value))
        if s.view not in VIEWS:
            raise SimulatorError(f"calendar view must be one of {list(VIEWS)}, got {s.view!r}")
        if s.anchor:
            _date(s.anchor, "anchor")
        unknown = [c for c in s.hidden_calendars if c not in CALENDARS]
        if unknown:
            raise SimulatorError(f"calendar hidden_calendars must be among {list(CALENDARS)}, got {unknown}")
        if s.default_duration not in DURATIONS:
            raise SimulatorError(f"calendar default_duration must be one of {list(DURATIONS)}, "
                                 f"got {s.default_duration!r}")


def _date(text: Any, name: str) -> date:
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise SimulatorError(f"calendar {name} must be a date like '2026-11-27', got {text!r}") from None


def _event(value: Any) -> Event:
    if not isinstance(value, Mapping) or not isinstance(value.get("title"), str) or "date" not in value:
        raise SimulatorError(f"calendar event must be a mapping with 'title' and 'date', got {value!r}")
    e = Event(value["title"], value["date"])
    for name, given in value.items():
        if name not in EVENT_FIELDS or name == "id":
            raise SimulatorError(f"calendar event has no field {name!r}; known: "
                                 f"{', '.join(f for f in EVENT_FIELDS if f != 'id')}")
        default = getattr(e, name)
        if isinstance(given, bool) != isinstance(default, bool) or not isinstance(given, type(default)):
            raise SimulatorError(f"calendar event field {name!r} expects {type(default).__name__}, got {given!r}")
        setattr(e, name, list(given) if isinstance(given, list) else given)
    _date(e.date, "event date")
    for name in ("end_date", "until"):
        if getattr(e, name):
            _date(getattr(e, name), f"event {name}")
    for d in e.exceptions:
        _date(d, "event exception")
    if e.repeat not in REPEATS:
        raise SimulatorError(f"calendar event repeat must be one of {list(REPEATS)}, got {e.repeat!r}")
    if e.kind not in KINDS:
        raise SimulatorError(f"calendar event kind must be one of {list(KINDS)}, got {e.kind!r}")
    if e.calendar not in CALENDARS:
        raise SimulatorError(f"calendar event calendar must be one of {list(CALENDARS)}, got {e.calendar!r}")
    if not (0 <= e.start < 24 * 60 and 0 <= e.end < 24 * 60):
        raise SimulatorError(f"calendar event times are minutes of the day (0-1439), got {e.start}, {e.end}")
    return e

