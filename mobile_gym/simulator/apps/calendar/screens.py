"""Google Calendar's main screen, `AllInOneActivity`: the toolbar (navigation drawer, the
month with its date-picker arrow, Search, "Jump to Today"), one of the five views
(Schedule, Day, 3 days, Week, Month), the "Create new event" button and its speed dial,
the navigation drawer (views, Refresh, the account's calendars, Settings) and the month
dropdown the toolbar's month opens.

Views move as in the real app: the Schedule scrolls by whole rows, Day / 3 days / Week
swipe sideways (their hours scroll up and down), Month swipes up and down, the dropdown
swipes to other months. Every handler that changes what the view shows ends in
`settle`, which records the dates on screen in the state (`CalendarState.showing`,
`shown`): the oracles' account of what the user has seen. Dialogs keep only picklable
handlers."""

from __future__ import annotations

import pickle
from datetime import date, timedelta
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.calendar.model import (
    ACCOUNT, BANNER, BIRTHDAYS, BOOT_DATE, CALENDARS, HOLIDAYS, TASKS, VIEW_LABELS, VIEWS, WEEK, Event,
    add_months, clamp, day_of, first_row_at, iso, long_date, month_end, month_grid, month_start,
    month_title, rows_before, rows_from, schedule_page, schedule_span, week_range, week_start,
)
from mobile_gym.simulator.apps.calendar.model import Row as ScheduleRow
from mobile_gym.simulator.views import (
    FRAME, VIEW, Button, CheckBox, Column, Divider, Icon, Row, Scroll, Spacer, Stack, Text, View,
)

PKG = "com.google.android.calendar"
ID = PKG + ":id/"
MAIN = "com.android.calendar.AllInOneActivity"
BLUE = (26, 115, 232)
TONAL = (211, 227, 253)
MUTED = (95, 99, 104)
WHITE = (255, 255, 255)
#: Event colours by calendar (Peacock, Basil, Tangerine, Blueberry, as the app's palette).
COLOURS = {HOLIDAYS: (11, 128, 67), BIRTHDAYS: (244, 81, 30), TASKS: (63, 81, 181)}
EVENT_COLOUR = (3, 155, 229)
TOOLBAR_DP = 64
DROPDOWN_DP = 248  # the month dropdown: weekday letters and six weeks
HOUR_DP = 48  # an hour of the Day / 3 days / Week timeline
GUTTER_DP = 48  # the timeline's hour labels
SCROLL_HOUR = 8  # the timeline opens at 8 AM
DRAWER_ICONS = {"schedule": "menu", "day": "app", "3day": "apps", "week": "tabs", "month": "apps"}
WEEKDAY_LETTERS = ("S", "M", "T", "W", "T", "F", "S")
#: Days a swipe sideways moves each timeline view by.
STRIDE = {"day": 1, "3day": 3, "week": 7}


def today_of(sys) -> date:
    """The calendar's today: the launcher's date (see `BOOT_DATE`)."""
    return BOOT_DATE + timedelta(days=sys.day)


def colour(e: Event) -> tuple[int, int, int]:
    return COLOURS.get(e.calendar, EVENT_COLOUR)


def chip_desc(e: Event) -> str:
    """An event chip's content-desc, as TalkBack reads it: the title and when."""
    return f"{e.title}, {e.when()}" + (", completed" if e.kind == "task" and e.done else "")


class AllInOneActivity(Activity):
    """The main screen: toolbar, the current view, the create button; the drawer and the
    month dropdown are its own state (not the app's: the real app forgets them too)."""

    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        s = app.state
        today = today_of(self.sys)
        s.opened = True
        s.anchor = iso(today)  # the app opens on today, in the view used last
        s.schedule_top = first_row_at(s, today, today)
        self.drawer = False
        self.dropdown = False  # the month dropdown under the toolbar
        self.dropdown_month = iso(month_start(today))
        self.settle()

    # ------------------------------------------------------------ what is shown
    @property
    def state(self):
        return self.app.state

    def today(self) -> date:
        return today_of(self.sys)

    def list_height(self) -> float:
        """dp the Schedule's rows may fill: the screen less the bars, the toolbar, the
        dropdown if open and a margin for rounding to pixels."""
        p = self.sys.profile
        return (p.height / p.density - p.status_bar_dp - p.nav_bar_dp - TOOLBAR_DP
                - (DROPDOWN_DP if self.dropdown else 0) - 8)

    def page(self) -> list[ScheduleRow]:
        return schedule_page(self.state, tuple(self.state.schedule_top), self.today(), self.list_height())

    def span(self) -> tuple[date, date]:
        """The first and last day the view shows."""
        s = self.state
        a = day_of(s.anchor)
        if s.view == "schedule":
            return schedule_span(self.page())
        if s.view == "month":
            return month_start(a), month_end(a)
        first = week_start(a) if s.view == "week" else a
        return first, first + timedelta(days=STRIDE.get(s.view, 7) - 1)

    def settle(self) -> None:
        """Record what the view shows now (not while the drawer hides it: closing the
        drawer settles); a timeline that moved to other days opens at 8 AM again."""
        if self.drawer:
            return
        s = self.state
        first, last = self.span()
        showing = (s.view, iso(first), iso(last))
        if showing == tuple(s.showing):
            return
        if s.view in STRIDE and (tuple(s.showing)[:2] != showing[:2]):
            self.scroll["timeline"] = round(SCROLL_HOUR * HOUR_DP * self.sys.profile.density)
        s.showing = showing
        s.shown.append(showing)

    # ------------------------------------------------------------ handlers
    def go_to(self, d: date) -> None:
        """Put ``d`` on screen in the current view (the Schedule's top moves to it)."""
        s, today = self.state, self.today()
        d = clamp(d)
        s.anchor = iso(d)
        s.schedule_top = first_row_at(s, d, today)
        self.dropdown_month = iso(month_start(d))
        self.settle()

    def jump_to_today(self) -> None:
        self.dropdown = False
        self.go_to(self.today())

    def set_view(self, view: str) -> None:
        s = self.state
        self.drawer = False
        self.dropdown = False
        s.view = view
        s.visited.append(view)
        if view == "schedule":
            s.schedule_top = first_row_at(s, day_of(s.anchor), self.today())
        self.settle()

    def open_day(self, d: date) -> None:
        """A day tapped in the Schedule, a header or the month grid: that day's Day view."""
        self.state.anchor = iso(d)
        self.set_view("day")

    def open_drawer(self) -> None:
        self.drawer = True
        self.dropdown = False
        self.state.visited.append("drawer")

    def close_drawer(self) -> None:
        self.drawer = False
        self.settle()

    def toggle_calendar(self, name: str) -> None:
        hidden = self.state.hidden_calendars
        if name in hidden:
            hidden.remove(name)
        else:
            hidden.append(name)

    def refresh(self) -> None:
        self.drawer = False
        self.sys.toast("Syncing…")
        self.settle()

    def toggle_dropdown(self) -> None:
        if self.state.view == "month":
            return
        self.dropdown = not self.dropdown
        self.dropdown_month = iso(month_start(day_of(self.state.anchor)))
        self.settle()

    def pick_date(self, d: date) -> None:
        self.dropdown = False
        self.go_to(d)

    def on_swipe(self, dx: float, dy: float) -> bool:
        s = self.state
        sideways = abs(dx) > abs(dy)
        forward = (dx if sideways else dy) < 0  # the finger moves left / up: later dates
        if self.drawer:
            return False
        if self.dropdown:
            month = add_months(day_of(self.dropdown_month), 1 if forward else -1)
            self.dropdown_month = iso(clamp(month))
            return True
        if s.view == "month":
            self.go_to(add_months(day_of(s.anchor), 1 if forward else -1))
            return True
        if s.view == "schedule":
            if sideways:
                return False
            return self.scroll_schedule(abs(dy) / self.sys.profile.density, forward)
        if not sideways:
            return False
        self.go_to(day_of(s.anchor) + timedelta(days=STRIDE[s.view] * (1 if forward else -1)))
        return True

    def scroll_schedule(self, dp: float, forward: bool) -> bool:
        """Move the Schedule by the whole rows ``dp`` covers (at least one row)."""
        s, today = self.state, self.today()
        top = tuple(s.schedule_top)
        moved, new = 0.0, None
        if forward:  # rows pass out at the top; the first one left becomes the top
            for n, row in enumerate(rows_from(s, top, today)):
                if n and moved + row.height > dp:
                    new = row
                    break
                moved += row.height
        else:  # rows come in at the top, nearest first
            for row in rows_before(s, top, today):
                if new is not None and moved + row.height > dp:
                    break
                moved += row.height
                new = row
        if new is None:
            return False
        s.schedule_top = new.key
        s.anchor = new.key[0]
        self.settle()
        return True

    def on_back(self) -> bool:
        if self.drawer:
            self.close_drawer()
            return True
        if self.dropdown:
            self.dropdown = False
            self.settle()
            return True
        return False

    def create(self) -> None:
        self.sys.show(SpeedDial(self))

    def new_item(self, kind: str, d: date | None = None) -> None:
        from mobile_gym.simulator.apps.calendar.editor import EventEditor

        self.dropdown = False
        editor = EventEditor(self.app, kind=kind, day=d or day_of(self.state.anchor))
        self.start(editor)
        self.sys.keyboard = True  # the title has focus (starting an activity hides the keyboard)

    def open_event(self, event_id: int, d: date) -> None:
        from mobile_gym.simulator.apps.calendar.editor import EventInfo

        self.start(EventInfo(self.app, event_id, d))

    def open_search(self) -> None:
        from mobile_gym.simulator.apps.calendar.editor import SearchActivity

        self.dropdown = False
        self.state.visited.append("search")
        self.start(SearchActivity(self.app))
        self.sys.keyboard = True  # on the query field

    def open_settings(self) -> None:
        from mobile_gym.simulator.apps.calendar.editor import SettingsActivity

        self.drawer = False
        self.state.visited.append("settings")
        self.start(SettingsActivity(self.app))

    def allow_notifications(self, allowed: bool) -> None:
        self.state.notifications_allowed = allowed

    def welcome_done(self) -> None:
        self.state.welcomed = True

    # ------------------------------------------------------------ views
    def inputs(self) -> bytes:
        return pickle.dumps((self.state, self.drawer, self.dropdown, self.dropdown_month),
                            pickle.HIGHEST_PROTOCOL)

    def build(self) -> View:
        if self.drawer:
            return Row(self.drawer_view(),
                       View(VIEW, (), on_click=self.close_drawer, bg=(120, 120, 120),
                            desc="Close navigation drawer"),
                       rid=ID + "drawer_layout")
        s = self.state
        body = {"schedule": self.schedule, "month": self.month}.get(s.view, self.timeline)()
        fab = Row(Icon("add", desc="Create new event", on_click=self.create, h=56, w=56, bg=TONAL, radius=16,
                       rid=ID + "floating_action_button"),
                  h=88, w=88, pad=(16, 16, 16, 16), align="bottom_right")
        return Column(
            self.toolbar(),
            self.dropdown_view() if self.dropdown else None,
            Stack(body, fab, fill=True, rid=ID + "main_pane"),
        )

    def toolbar(self) -> View:
        s, today = self.state, self.today()
        shown = day_of(s.schedule_top[0]) if s.view == "schedule" else day_of(s.anchor)
        if s.view == "week":
            shown = week_start(shown)
        title = month_title(shown, today)
        month_view = s.view == "month"
        header = Row(Text(title, size=22, w=min(220, 13 * len(title) + 8), rid=ID + "date_picker_text_view"),
                     None if month_view else Icon("expand", w=24, h=48, rid=ID + "date_picker_arrow"),
                     Spacer(), h=64, desc=title, rid=ID + "date_picker_button",
                     on_click=None if month_view else self.toggle_dropdown)
        return Row(Icon("menu", desc="Show Calendar List and Settings drawer", on_click=self.open_drawer, w=56),
                   header,
                   Icon("search", desc="Search", on_click=self.open_search, rid=ID + "action_search"),
                   Button(str(today.day), self.jump_to_today, style="outlined", w=40, h=40, radius=8,
                          desc="Jump to Today", rid=ID + "action_today"),
                   Spacer(w=8),
                   h=TOOLBAR_DP, pad=(0, 0, 4, 0), rid=ID + "toolbar", style="appbar")

    def dropdown_view(self) -> View:
        """The month dropdown: a month's days (today ringed, the view's day selected);
        swipe for other months, tap a day to go to it."""
        month = day_of(self.dropdown_month)
        today, anchor = self.today(), day_of(self.state.anchor)
        weeks = [month_grid(month)[i:i + 7] for i in range(0, 42, 7)]
        rows = []
        for w in range(6):
            week = weeks[w] if w < len(weeks) else []
            cells = []
            for d in week:
                if d.month != month.month:
                    cells.append(Spacer(h=36))
                    continue
                on = d == anchor
                cells.append(Text(str(d.day), size=13, h=36, align="center", desc=long_date(d), selected=on,
                                  bold=d == today, fg=WHITE if on else BLUE if d == today else None,
                                  bg=BLUE if on else None, radius=18, rid=ID + "mini_month_day",
                                  on_click=partial(self.pick_date, d)))
            rows.append(Row(*cells, h=36) if cells else Spacer(h=36))
        return Column(
            Row(*[Text(x, size=12, align="center", style="muted", h=24) for x in WEEKDAY_LETTERS], h=24),
            *rows,
            h=DROPDOWN_DP, pad=(8, 0, 8, 8), scrollable=True, rid=ID + "date_picker", style="card", radius=0,
        )

    # Schedule ----------------------------------------------------------------
    def schedule(self) -> View:
        today = self.today()
        views = [self.schedule_row(row, today) for row in self.page()]
        return Column(*views, fill=True, scrollable=True, rid=ID + "alternate_timeline_fragment_container")

    def schedule_row(self, row: ScheduleRow, today: date) -> View:
        d = row.day
        if row.rank == BANNER:
            return View(FRAME, [Text(month_title(d, today), size=22, bold=True, fg=WHITE, h=40,
                                     pad=(72, 0, 0, 0), rid=ID + "month_header")],
                        h=row.height, bg=(66, 133, 244), pad=(0, 56, 0, 16), rid=ID + "month_banner")
        if row.rank == WEEK:
            return Row(Spacer(w=72), Text(week_range(d), size=12, style="muted", h=24, rid=ID + "week_header"),
                       h=row.height)
        is_today = d == today
        date_col = Column(Text(f"{d:%a}", size=11, align="center", fg=BLUE if is_today else MUTED, h=18),
                          Text(str(d.day), size=20, align="center", bold=is_today, h=30,
                               fg=WHITE if is_today else None, bg=BLUE if is_today else None, radius=15),
                          w=56, pad=(0, 4, 0, 0), desc=long_date(d), rid=ID + "date_header",
                          on_click=partial(self.open_day, d))
        if row.events:
            items = [self.chip(e, d, h=48) for e in row.events]
        else:
            items = [Text("Nothing planned. Tap to create.", size=14, style="muted", h=48,
                          on_click=partial(self.new_item, "event", d), rid=ID + "empty_day")]
        return Row(date_col, Column(*items, gap=4, pad=(0, 4, 12, 0)), h=row.height, pad=(8, 4, 0, 0),
                   rid=ID + "day_row")

    def chip(self, e: Event, d: date, h: float, *, small: bool = False) -> View:
        """An event's chip: its title and (when there is room) its time, in its colour."""
        done = e.kind == "task" and e.done
        title = Text(e.title, size=10 if small else 14, bold=not done, fg=WHITE, h=16 if small else 20,
                     rid=ID + "chip_title")
        when = Text(e.when(), size=10 if small else 12, fg=WHITE, h=14 if small else 18, rid=ID + "chip_time") \
            if h >= (34 if small else 44) else None
        return Column(title, when, h=h, pad=(6 if not small else 2, 3, 4, 0), bg=(150, 150, 150) if done else colour(e),
                      radius=4, desc=chip_desc(e), rid=ID + "event_chip",
                      on_click=partial(self.open_event, e.id, d))

    # Day / 3 days / Week -------------------------------------------------------
    def timeline(self) -> View:
        s, today = self.state, self.today()
        first, last = self.span()
        days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        small = len(days) > 1
        headers = [Column(Text(f"{d:%a}", size=11, align="center", fg=BLUE if d == today else MUTED, h=18),
                          Text(str(d.day), size=18 if small else 24, align="center", bold=d == today,
                               fg=WHITE if d == today else None, bg=BLUE if d == today else None, radius=16,
                               h=32),
                          desc=long_date(d), rid=ID + "day_header", on_click=partial(self.open_day, d), h=56)
                   for d in days]
        header = Row(Spacer(w=GUTTER_DP), *headers, h=60, scrollable=True, rid=ID + "timeline_header")
        all_day = [[e for e in s.on(d) if e.all_day] for d in days]
        strip = None
        if any(all_day):
            n = max(len(x) for x in all_day)
            strip = Row(Spacer(w=GUTTER_DP),
                        *[Column(*[self.chip(e, d, 22, small=True) for e, d in zip(x, [day] * len(x))],
                                 gap=2) for x, day in zip(all_day, days)],
                        h=4 + 24 * n, pad=(0, 0, 0, 4), rid=ID + "all_day_events")
        hours = Column(*[Text(_hour_label(h), size=10, style="muted", h=HOUR_DP, align="right", pad=(0, 0, 6, 0))
                         for h in range(24)], w=GUTTER_DP)
        columns = [self.day_column(d, small) for d in days]
        return Column(header, strip, Divider(),
                      Scroll(Row(hours, *columns, h=24 * HOUR_DP), key="timeline", rid=ID + "timeline"),
                      fill=True)

    def day_column(self, d: date, small: bool) -> View:
        """A day's timed events, each at its time (one under another where they overlap),
        in whole dp that end short of midnight, so that rounding to pixels never overflows."""
        items: list[View] = []
        y, bottom = 0, 24 * HOUR_DP - 8
        for e in (e for e in self.state.on(d) if not e.all_day):
            top = max(y, e.start * HOUR_DP // 60)
            minutes = max(e.end, e.start + 30) - e.start if e.kind == "event" else 30
            length = min(max(24, minutes * HOUR_DP // 60), bottom - top)
            if length < 16:
                break
            if top > y:
                items.append(Spacer(h=top - y))
            items.append(self.chip(e, d, length, small=small))
            y = top + length
        return Column(*items, pad=(1, 0, 1, 0), rid=ID + "day_column")

    # Month ---------------------------------------------------------------------
    def month(self) -> View:
        s, today = self.state, self.today()
        first = month_start(day_of(s.anchor))
        grid = month_grid(first)
        rows = []
        for i in range(0, len(grid), 7):
            cells = []
            for d in grid[i:i + 7]:
                events = s.on(d)
                label = ""
                if events:
                    label = events[0].title + (f" +{len(events) - 1}" if len(events) > 1 else "")
                inside = d.month == first.month
                cells.append(Column(
                    Text(str(d.day), size=12, align="center", h=22, bold=d == today,
                         fg=WHITE if d == today else (None if inside else (160, 160, 165)),
                         bg=BLUE if d == today else None, radius=11),
                    Text(label, size=9, fg=WHITE, bg=colour(events[0]), radius=3, h=16,
                         rid=ID + "month_events") if events else None,
                    desc=long_date(d), rid=ID + "month_day", on_click=partial(self.open_day, d), pad=(1, 2, 1, 0)))
            rows.append(Row(*cells, fill=True))
        return Column(
            Row(*[Text(x, size=11, align="center", style="muted", h=24) for x in WEEKDAY_LETTERS], h=24),
            Column(*rows, fill=True, scrollable=True, rid=ID + "month_grid"),
            fill=True,
        )

    # Drawer -------------------------------------------------------------------------
    def drawer_view(self) -> View:
        s = self.state
        items = []
        for view in VIEWS:
            on = s.view == view
            items.append(Row(Icon(DRAWER_ICONS[view], h=40, w=40, fg=BLUE if on else MUTED),
                             Text(VIEW_LABELS[view], size=14, bold=on, rid=ID + "drawer_item_title"),
                             h=48, pad=(16, 0, 16, 0), gap=12, selected=on, radius=24, bg=TONAL if on else None,
                             desc=VIEW_LABELS[view] + " view", on_click=partial(self.set_view, view)))
        calendars = [Row(CheckBox(name not in s.hidden_calendars, partial(self.toggle_calendar, name),
                                  rid=ID + "calendar_checkbox"),
                         Text(name, size=14, rid=ID + "calendar_name"),
                         h=48, pad=(16, 0, 16, 0), gap=8, on_click=partial(self.toggle_calendar, name))
                     for name in CALENDARS]
        return Column(
            Text("Google Calendar", size=22, h=64, pad=(28, 16, 0, 0), rid=ID + "drawer_title"),
            Scroll(
                *items,
                Row(Icon("refresh", h=40, w=40, fg=MUTED), Text("Refresh", size=14, rid=ID + "drawer_item_title"),
                    h=48, pad=(16, 0, 16, 0), gap=12, on_click=self.refresh),
                Divider(),
                Text(ACCOUNT, size=12, style="muted", h=36, pad=(28, 10, 0, 0), rid=ID + "account_name"),
                *calendars,
                Divider(),
                Row(Icon("settings", h=40, w=40, fg=MUTED), Text("Settings", size=14, rid=ID + "drawer_item_title"),
                    h=48, pad=(16, 0, 16, 0), gap=12, on_click=self.open_settings),
                Row(Icon("info", h=40, w=40, fg=MUTED), Text("Help & feedback", size=14,
                                                             rid=ID + "drawer_item_title"),
                    h=48, pad=(16, 0, 16, 0), gap=12),
                key="drawer", rid=ID + "drawer_list",
            ),
            w=312, bg=WHITE, rid=ID + "drawer_container",
        )


def _hour_label(h: int) -> str:
    return "" if h == 0 else f"{(h + 11) % 12 + 1} {'AM' if h < 12 else 'PM'}"


class SpeedDial(Dialog):
    """The create button's speed dial: "Task" and "Event" over a dimmed screen, the
    button turned into a close button."""

    def __init__(self, act: AllInOneActivity) -> None:
        super().__init__(kind="sheet", package=PKG)
        self.act = act

    def pick(self, kind: str) -> None:
        self.close()
        self.act.new_item(kind)

    def build(self) -> View:
        def item(label: str, icon: str, kind: str) -> View:
            return Row(Spacer(), Text(label, size=14, w=96, h=36, align="center", bg=WHITE, radius=8,
                                      rid=ID + "speed_dial_label"),
                       Icon(icon, h=48, w=48, bg=TONAL, radius=16, fg=BLUE),
                       h=56, gap=12, desc=label, rid=ID + f"speed_dial_{kind}_container",
                       on_click=partial(self.pick, kind))

        return Column(
            item("Task", "check", "task"),
            item("Event", "app", "event"),
            Row(Spacer(), Icon("close", desc="Close", on_click=self.close, h=56, w=56, bg=TONAL, radius=16,
                               rid=ID + "floating_action_button"), h=72),
            pad=(16, 8, 16, 16), gap=8, rid=ID + "speed_dial",
        )


class Welcome(Dialog):
    """The first-run card: what Calendar shows, and "Got it"."""

    def __init__(self, act: AllInOneActivity) -> None:
        super().__init__("Google Calendar", "Your events, tasks and holidays in one place. Switch between "
                         "Schedule, Day, Week and Month from the menu.", (("Got it", None),), package=PKG)
        self.act = act

    def done(self) -> None:
        self.close()
        self.act.welcome_done()

    def build(self) -> View:
        return Column(
            Icon("app", h=64, w=64, align="center", fg=BLUE),
            Text(self.title, size=24, align="center", rid=ID + "oobe_title"),
            Text(self.message, size=14, lines=3, align="center", style="muted", rid=ID + "oobe_body"),
            Row(Spacer(), Button("Got it", self.done, style="filled", w=112, rid=ID + "oobe_done_button"), Spacer(),
                h=56),
            cls=FRAME, pad=(24, 24, 24, 16), gap=12, w=320, align="center", style="dialog", radius=28,
            rid=ID + "oobe_container",
        )

