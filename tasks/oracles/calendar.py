"""Oracles of Google Calendar tasks.

A question ("What's on my calendar tomorrow?") is answered when a screen of the calendar
has shown the days asked about, in a view that answers at that scale (the app records
each range its main screen shows, `CalendarState.shown`): a day is answered by the
Schedule, Day, 3 days or Week view showing it (a month's cells cut titles short), a week
by its Week view, the rest of the month by the Month view.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice

#: The views that list a day's events in full.
DAY_VIEWS = ("schedule", "day", "3day", "week")


def _state(phone: SimulatedDevice):
    return phone.app_state("calendar")


def _today(phone: SimulatedDevice) -> date:
    from mobile_gym.simulator.apps.calendar.screens import today_of

    return today_of(phone.runtime)


@oracle("calendar.this_week_shown")
def _this_week_shown(phone: SimulatedDevice) -> bool:
    """The Week view has shown the week of today (Sunday to Saturday)."""
    from mobile_gym.simulator.apps.calendar.model import week_start

    first = week_start(_today(phone))
    return _state(phone).was_shown("week", first, first + timedelta(days=6))


@oracle("calendar.rest_of_month_shown")
def _rest_of_month_shown(phone: SimulatedDevice) -> bool:
    """The Month view has shown this month (today to its last day)."""
    from mobile_gym.simulator.apps.calendar.model import month_end

    today = _today(phone)
    return _state(phone).was_shown("month", today, month_end(today))


@oracle("calendar.tomorrow_shown")
def _tomorrow_shown(phone: SimulatedDevice) -> bool:
    """A view listing events has shown tomorrow."""
    tomorrow = _today(phone) + timedelta(days=1)
    return _state(phone).was_shown(DAY_VIEWS, tomorrow, tomorrow)


@oracle("calendar.today_shown")
def _today_shown(phone: SimulatedDevice) -> bool:
    """A view listing events has shown today (the app opens on it)."""
    today = _today(phone)
    return _state(phone).was_shown(DAY_VIEWS, today, today)


@oracle("calendar.third_week_next_month_shown")
def _third_week_next_month_shown(phone: SimulatedDevice) -> bool:
    """The Week view has shown the third week of next month: the third row of its month
    grid (weeks start on Sunday)."""
    from mobile_gym.simulator.apps.calendar.model import add_months, week_start

    first = week_start(add_months(_today(phone), 1)) + timedelta(days=14)
    return _state(phone).was_shown("week", first, first + timedelta(days=6))


@oracle("calendar.haircut_on_friday")
def _haircut_on_friday(phone: SimulatedDevice) -> bool:
    """An event the user made, about a haircut ("Haircut", "Hair cut appointment", ...), on
    the coming Friday."""
    today = _today(phone)
    friday = today + timedelta(days=(4 - today.weekday()) % 7 or 7)
    return any(e.kind == "event" and "haircut" in e.title.lower().replace(" ", "").replace("-", "")
               and e.date == friday.isoformat() for e in _state(phone).created())


@oracle("calendar.daily_water_reminder")
def _daily_water_reminder(phone: SimulatedDevice) -> bool:
    """An event or task the user made, about water, repeating every day."""
    return any("water" in e.title.lower() and e.repeat == "daily" for e in _state(phone).created())
