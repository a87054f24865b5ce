"""Google Calendar's state: the events (with their repeat rules), the view on screen and
the dates it shows, what the user opened and searched, and the calendar arithmetic the
screens and the oracles share (weeks start on Sunday, as in the US locale).

Dates are ISO strings ("2026-11-27") in the state, so that a task's setup can give them
and the state pickles small; times are minutes since midnight.
"""

from __future__ import annotations

import calendar as _calendar
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

#: The phone's date on the day it booted (the launcher shows "Saturday, Nov 21"); the
#: calendar's today is this plus `Runtime.day`.
BOOT_DATE = date(2026, 11, 21)
VIEWS = ("schedule", "day", "3day", "week", "month")
VIEW_LABELS = {"schedule": "Schedule", "day": "Day", "3day": "3 days", "week": "Week", "month": "Month"}
REPEATS = ("none", "daily", "weekly", "monthly", "yearly", "weekdays")
KINDS = ("event", "task")
OWNER = "Alex Morgan"
ACCOUNT = "alex.morgan.mobilegym@gmail.com"
HOLIDAYS = "Holidays in United States"
BIRTHDAYS = "Birthdays"
TASKS = "Tasks"
CALENDARS = (OWNER, BIRTHDAYS, HOLIDAYS, TASKS)
DURATIONS = (15, 30, 60, 90, 120)  # Settings > General > Default event duration (minutes)
#: The dates the schedule and the pickers reach: a bound, so that walking the list ends.
FIRST_DATE, LAST_DATE = date(2025, 1, 1), date(2028, 12, 31)

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
ORDINALS = ("first", "second", "third", "fourth", "last")


def iso(d: date) -> str:
    return d.isoformat()


def day_of(text: str) -> date:
    return date.fromisoformat(text)


def week_start(d: date) -> date:
    """The Sunday that starts ``d``'s week."""
    return d - timedelta(days=(d.weekday() + 1) % 7)


def month_start(d: date) -> date:
    return d.replace(day=1)


def month_end(d: date) -> date:
    return d.replace(day=_calendar.monthrange(d.year, d.month)[1])


def add_months(d: date, n: int) -> date:
    """The first of the month ``n`` months after ``d``'s."""
    m = d.year * 12 + d.month - 1 + n
    return date(m // 12, m % 12 + 1, 1)


def clamp(d: date) -> date:
    return min(max(d, FIRST_DATE), LAST_DATE)


def month_grid(first: date) -> list[date]:
    """The dates a month view shows for the month of ``first``: whole weeks, Sunday first."""
    start, end = week_start(month_start(first)), month_end(first)
    days = (end - start).days + 1
    return [start + timedelta(days=i) for i in range(-(-days // 7) * 7)]


# ------------------------------------------------------------------ texts

def long_date(d: date) -> str:
    """"Sunday, November 22": a day's content-desc in every view."""
    return f"{WEEKDAYS[d.weekday()]}, {d:%B} {d.day}"


def short_date(d: date) -> str:
    """"Fri, Nov 27, 2026": the editor's date rows."""
    return f"{d:%a}, {d:%b} {d.day}, {d.year}"


def month_title(d: date, today: date) -> str:
    """The toolbar's month: "November", with the year when it is not this year's."""
    return f"{d:%B}" if d.year == today.year else f"{d:%B} {d.year}"


def week_range(start: date) -> str:
    """A schedule week separator: "Nov 22 – 28", "Nov 29 – Dec 5"."""
    end = start + timedelta(days=6)
    tail = str(end.day) if end.month == start.month else f"{end:%b} {end.day}"
    return f"{start:%b} {start.day} – {tail}"


def clock(minute: int) -> str:
    """"9:30 AM", "12:00 PM"."""
    h, m = divmod(minute % 1440, 60)
    return f"{(h + 11) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


def repeat_label(rule: str, d: date) -> str:
    """What the editor's repeat row and the event's details say for ``rule`` starting on ``d``."""
    if rule == "daily":
        return "Every day"
    if rule == "weekly":
        return f"Every week on {WEEKDAYS[d.weekday()]}"
    if rule == "monthly":
        return f"Every month on the {ORDINALS[nth_weekday(d)]} {WEEKDAYS[d.weekday()]}"
    if rule == "yearly":
        return f"Every year on {d:%B} {d.day}"
    if rule == "weekdays":
        return "Every weekday (Monday to Friday)"
    return "Does not repeat"


def nth_weekday(d: date) -> int:
    """Which of the month's ``d.weekday()``s ``d`` is: 0 first .. 3 fourth, 4 the last one."""
    return 4 if d + timedelta(days=7) > month_end(d) else (d.day - 1) // 7


# ------------------------------------------------------------------ events

@dataclass
class Event:
    """An event or a task. ``date`` is the (first) day, ``end_date`` the last one of an
    event over several days ("" for one day); ``start``/``end`` are minutes since
    midnight (unused when ``all_day``). A series repeats by ``repeat`` from ``date`` on,
    until ``until`` ("" forever), but for the dates in ``exceptions``."""

    title: str
    date: str
    start: int = 9 * 60
    end: int = 10 * 60
    all_day: bool = False
    end_date: str = ""
    repeat: str = "none"
    kind: str = "event"  # "event" or "task"
    calendar: str = OWNER
    location: str = ""
    description: str = ""
    done: bool = False  # a task marked complete
    created_by_user: bool = False
    exceptions: list[str] = field(default_factory=list)
    until: str = ""
    id: int = 0

    def occurs_on(self, d: date) -> bool:
        first = day_of(self.date)
        if d < first or iso(d) in self.exceptions or (self.until and d > day_of(self.until)):
            return False
        rule = self.repeat
        if rule == "none":
            return d <= (day_of(self.end_date) if self.end_date else first)
        if rule == "daily":
            return True
        if rule == "weekly":
            return d.weekday() == first.weekday()
        if rule == "weekdays":
            return d.weekday() < 5
        if rule == "monthly":
            return d.weekday() == first.weekday() and nth_weekday(d) == nth_weekday(first)
        if rule == "yearly":
            return (d.month, d.day) == (first.month, first.day)
        return False

    def when(self) -> str:
        """"All day" or "10:00 – 11:00 AM" (both ends spelt when they differ in AM/PM)."""
        if self.all_day:
            return "All day"
        if self.kind == "task":
            return clock(self.start)
        a, b = clock(self.start), clock(self.end)
        if a[-2:] == b[-2:]:
            a = a[:-3]
        return f"{a} – {b}"

    def sort_key(self) -> tuple:
        return (not self.all_day, self.start, self.title)


@dataclass
class CalendarState:
    events: list[Event] = field(default_factory=list)
    view: str = "schedule"  # one of VIEWS; kept across launches, as the real app does
    anchor: str = ""  # the day the view is on (ISO); set to today when the app opens
    schedule_top: tuple[str, int] = ("", 0)  # Schedule: (date, rank) of its first row
    #: What the main screen shows now: (view, first date, last date), ISO; and every such
    #: range it has shown, in order (oracles read this).
    showing: tuple[str, str, str] = ("", "", "")
    shown: list[tuple[str, str, str]] = field(default_factory=list)
    hidden_calendars: list[str] = field(default_factory=list)  # unticked in the drawer
    default_duration: int = 60  # minutes, Settings > General
    show_completed_tasks: bool = True
    opened: bool = False
    visited: list[str] = field(default_factory=list)  # "drawer", "search", "settings", "event", ...
    searches: list[str] = field(default_factory=list)
    viewed: list[int] = field(default_factory=list)  # ids of events whose details were opened
    deleted: list[str] = field(default_factory=list)  # titles of deleted events
    welcomed: bool = False  # the first-run card was dismissed
    notifications_allowed: bool = False
    next_id: int = 1

    # oracles and screens ------------------------------------------------------------
    def event(self, event_id: int) -> Event | None:
        return next((e for e in self.events if e.id == event_id), None)

    def find(self, title: str) -> list[Event]:
        return [e for e in self.events if e.title == title]

    def created(self) -> list[Event]:
        return [e for e in self.events if e.created_by_user]

    def visible(self, e: Event) -> bool:
        return e.calendar not in self.hidden_calendars and not (e.kind == "task" and e.done
                                                                 and not self.show_completed_tasks)

    def on(self, d: date) -> list[Event]:
        """The events the views show on ``d``, all-day ones first, then by time."""
        return sorted((e for e in self.events if self.visible(e) and e.occurs_on(d)), key=Event.sort_key)

    def add(self, event: Event) -> Event:
        event.id = self.next_id
        self.next_id += 1
        self.events.append(event)
        return event

    def was_shown(self, view: str | tuple[str, ...], first: date, last: date) -> bool:
        """Some screen of ``view`` showed every day from ``first`` to ``last``."""
        views = (view,) if isinstance(view, str) else view
        return any(v in views and day_of(a) <= first and last <= day_of(b) for v, a, b in self.shown if a)


# ------------------------------------------------------------------ the schedule's rows

#: A schedule row's rank among rows of the same date: a month's banner, then the week's
#: separator, then the day's events.
BANNER, WEEK, DAY = 0, 1, 2
BANNER_DP, WEEK_DP, ROW_DP, CHIP_DP = 112, 36, 56, 52


@dataclass(frozen=True)
class Row:
    """One row of the Schedule: a month banner, a week separator or a day's events."""

    day: date
    rank: int
    events: tuple[Event, ...] = ()

    @property
    def key(self) -> tuple[str, int]:
        return (iso(self.day), self.rank)

    @property
    def height(self) -> int:
        """dp: the screens lay the rows out at these heights."""
        if self.rank == BANNER:
            return BANNER_DP
        if self.rank == WEEK:
            return WEEK_DP
        return max(ROW_DP, 8 + CHIP_DP * len(self.events))


def rows_on(state: CalendarState, d: date, today: date) -> list[Row]:
    """The Schedule's rows dated ``d``: a banner on the 1st, a separator on Sundays, and
    the day's events (today's row shows even without any)."""
    rows = []
    if d.day == 1:
        rows.append(Row(d, BANNER))
    if d.weekday() == 6:
        rows.append(Row(d, WEEK))
    events = state.on(d)
    if events or d == today:
        rows.append(Row(d, DAY, tuple(events)))
    return rows


def rows_from(state: CalendarState, key: tuple[str, int], today: date) -> Iterator[Row]:
    """The rows at and after ``key``, in order."""
    d = day_of(key[0])
    for row in rows_on(state, d, today):
        if row.rank >= key[1]:
            yield row
    while d < LAST_DATE:
        d += timedelta(days=1)
        yield from rows_on(state, d, today)


def rows_before(state: CalendarState, key: tuple[str, int], today: date) -> Iterator[Row]:
    """The rows before ``key``, nearest first."""
    d = day_of(key[0])
    for row in reversed(rows_on(state, d, today)):
        if row.rank < key[1]:
            yield row
    while d > FIRST_DATE:
        d -= timedelta(days=1)
        yield from reversed(rows_on(state, d, today))


def first_row_at(state: CalendarState, d: date, today: date) -> tuple[str, int]:
    """The key of the first row on or after the start of ``d`` (where a jump to ``d`` puts
    the top of the Schedule)."""
    return next(rows_from(state, (iso(d), BANNER), today)).key


def schedule_page(state: CalendarState, top: tuple[str, int], today: date, height: float) -> list[Row]:
    """The rows the Schedule shows from ``top`` in ``height`` dp: only whole rows (the list
    moves by rows, so a row is either on screen or not)."""
    page, used = [], 0
    for row in rows_from(state, top, today):
        if page and used + row.height > height:
            break
        page.append(row)
        used += row.height
    return page


def schedule_span(page: list[Row]) -> tuple[date, date]:
    """The days a page of the Schedule answers for: from its first row's day (a banner or
    a separator opens its day) to its last one's, less a day unless that row holds the
    day's events (a separator alone says nothing about its Sunday)."""
    first, last = page[0], page[-1]
    start = first.day
    end = last.day if last.rank == DAY else last.day - timedelta(days=1)
    return start, end
