"""Google Calendar's other screens: the event (or task) editor with its date picker, time
list and repeat choices; an event's details (edit, delete, a task's "Mark completed");
search; Settings. The editor and the details open inside the main activity, as in the
real app; search and Settings are activities of their own."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.calendar.model import (
    ACCOUNT, DURATIONS, OWNER, TASKS, Event, add_months, clamp, clock, day_of, iso, long_date, month_grid,
    month_start, repeat_label, short_date,
)
from mobile_gym.simulator.apps.calendar.screens import (
    BLUE, ID, MAIN, MUTED, PKG, WEEKDAY_LETTERS, WHITE, AllInOneActivity, colour, today_of,
)
from mobile_gym.simulator.views import (
    FRAME, Button, Column, Divider, EditText, Icon, Row, Scroll, Spacer, Switch, Text, View,
)

SEARCH = "com.google.android.calendar.SearchActivity"
SETTINGS = "com.google.android.calendar.settings.SettingsActivity"
TIME_STEP = 30  # minutes between the times the time list offers
TIME_ROW_DP = 48
MAX_RESULTS = 20


def main_screen(app) -> AllInOneActivity | None:
    return next((a for a in app.stack if isinstance(a, AllInOneActivity)), None)


def back_to_main(activity: Activity) -> AllInOneActivity | None:
    """Finish ``activity``; the main screen under it, shown again, records what it shows
    (events or settings may have changed it)."""
    activity.finish()
    main = main_screen(activity.app)
    if main is not None:
        main.settle()
    return main


def radio_row(label: str, on: bool, handler: Callable[[], None], lines: int = 1) -> View:
    """A choice of a single-choice list: a radio button and its label."""
    return Row(Icon("radio_on" if on else "radio_off", w=40, h=48, fg=BLUE if on else MUTED),
               Text(label, size=16, lines=lines, checkable=True, checked=on, rid="android:id/text1"),
               h=48 + 4 * (lines > 1), gap=8, pad=(16, 0, 16, 0), on_click=handler)


def next_hour(minute: int) -> int:
    """The start a new event gets: the next whole hour (the last one of the day at most)."""
    return min(23 * 60, (minute // 60 + 1) * 60)


class _Menu(Dialog):
    """A dialog that runs one of its choices and closes (choices are picklable handlers)."""

    def pick(self, handler: Callable[[], None]) -> None:
        self.close()
        handler()


# ------------------------------------------------------------------ the editor

class EventEditor(Activity):
    """A new event or task (``kind``), or an existing one (``event_id``): title, all-day
    switch, start and end (the date picker and the time list), repeat choices, location
    and description, "Save"."""

    name = MAIN

    def __init__(self, app, *, kind: str = "event", day: date | None = None, event_id: int | None = None) -> None:
        super().__init__(app)
        s = app.state
        self.event_id = event_id
        e = s.event(event_id) if event_id is not None else None
        if e is not None:
            self.kind, self.all_day, self.repeat = e.kind, e.all_day, e.repeat
            self.day, self.end_day = e.date, e.end_date or e.date
            self.start_min, self.end_min = e.start, e.end
            self.fields.update(title=e.title, location=e.location, description=e.description)
        else:
            self.kind, self.all_day, self.repeat = kind, False, "none"
            self.day = self.end_day = iso(day or today_of(self.sys))
            self.start_min = next_hour(self.sys.minute)
            self.end_min = min(self.start_min + s.default_duration, 24 * 60 - 1)
            self.fields.update(title="", location="", description="")
            self.focus = "title"  # a new item opens with the keyboard on its title
        self.initial = self.draft()
        s.visited.append("edit" if e is not None else "create:" + self.kind)

    def draft(self) -> tuple:
        return (self.kind, self.all_day, self.repeat, self.day, self.end_day, self.start_min, self.end_min,
                self.fields.get("title", ""), self.fields.get("location", ""), self.fields.get("description", ""))

    def inputs(self) -> tuple:
        return self.draft() + (self.event_id,)

    # handlers ----------------------------------------------------------------
    def done_typing(self, _text: str = "") -> None:
        """ENTER on a field: the keyboard goes, nothing is saved (only "Save" saves)."""
        self.focus = None

    def toggle_all_day(self) -> None:
        self.all_day = not self.all_day

    def pick_date(self, which: str) -> None:
        current = day_of(self.day if which == "start" else self.end_day)
        self.sys.show(DatePicker(current, partial(self.set_date, which)))

    def set_date(self, which: str, value: str) -> None:
        """A new start moves the end with it; an end before the start moves the start."""
        d = day_of(value)
        start, end = day_of(self.day), day_of(self.end_day)
        if which == "start":
            self.end_day = iso(d + (end - start))
            self.day = value
        else:
            self.end_day = value
            if d < start:
                self.day = value
        self._order()

    def pick_time(self, which: str) -> None:
        current = self.start_min if which == "start" else self.end_min
        self.sys.show(TimeList(current, partial(self.set_time, which), self.sys.profile.density))

    def set_time(self, which: str, minute: int) -> None:
        """A new start keeps the event's length; an end before the start moves it."""
        if which == "start":
            length = self.end_min - self.start_min
            self.start_min = minute
            self.end_min = min(minute + max(length, 0), 24 * 60 - 1) if self.day == self.end_day else self.end_min
        else:
            self.end_min = minute
        self._order()

    def _order(self) -> None:
        if self.day == self.end_day and self.end_min < self.start_min:
            self.end_min = min(self.start_min + self.app.state.default_duration, 24 * 60 - 1)

    def pick_repeat(self) -> None:
        self.sys.show(RepeatChoice(self.repeat, day_of(self.day), self.set_repeat))

    def set_repeat(self, rule: str) -> None:
        self.repeat = rule

    def save(self) -> None:
        s = self.app.state
        title = self.fields.get("title", "").strip() or "(No title)"
        e = s.event(self.event_id) if self.event_id is not None else None
        if e is None:
            e = s.add(Event(title, self.day, kind=self.kind, calendar=TASKS if self.kind == "task" else OWNER,
                            created_by_user=True))
        e.title, e.date, e.all_day, e.repeat = title, self.day, self.all_day, self.repeat
        e.start, e.end = self.start_min, self.end_min
        e.end_date = "" if self.end_day == self.day or self.kind == "task" else self.end_day
        e.location = self.fields.get("location", "").strip()
        e.description = self.fields.get("description", "").strip()
        self.sys.keyboard = False
        main = back_to_main(self)
        if main is not None:
            main.go_to(day_of(self.day))

    def cancel(self) -> None:
        if self.draft() != self.initial:
            self.sys.show(Dialog("Discard this event?" if self.kind == "event" else "Discard this task?", "",
                                 (("Keep editing", None), ("Discard", self.finish)), package=PKG))
        else:
            self.finish()

    def on_back(self) -> bool:
        if self.draft() != self.initial:
            self.cancel()
            return True
        return False

    def edit_field(self, name: str, label: str) -> None:
        self.focus = None
        self.start(FieldEditor(self.app, self, name, label))
        self.sys.keyboard = True

    def set_field(self, name: str, value: str) -> None:
        self.fields[name] = value.strip()

    # views -------------------------------------------------------------------
    def field_row(self, name: str, icon: str, label: str) -> View:
        """Location and description show here; a tap opens their own screen to type in."""
        value = self.fields.get(name, "")
        return Row(Icon(icon, w=40, fg=MUTED),
                   Text(value or label, size=16, style=None if value else "muted", rid=ID + name),
                   h=56, pad=(8, 0, 16, 0), gap=8, on_click=partial(self.edit_field, name, label))

    def build(self) -> View:
        event = self.kind == "event"
        start, end = day_of(self.day), day_of(self.end_day)
        times = not self.all_day
        return Column(
            Row(Icon("close", desc="Close", on_click=self.cancel, rid=ID + "cancel"), Spacer(),
                Button("Save", self.save, style="filled", w=88, h=40, rid=ID + "save"),
                h=64, pad=(4, 0, 12, 0), rid=ID + "toolbar"),
            Scroll(
                EditText("title", hint="Add title", size=22, h=64, rid=ID + "title", on_submit=self.done_typing),
                Row(Spacer(w=56), Text("Event" if event else "Task", size=12, style="muted", rid=ID + "type_label"),
                    h=24),
                Divider(),
                Row(Icon("clock", w=40, fg=MUTED), Text("All-day", size=16),
                    Switch(self.all_day, self.toggle_all_day, rid=ID + "all_day_switch"),
                    h=56, pad=(8, 0, 16, 0), gap=8, on_click=self.toggle_all_day, rid=ID + "all_day"),
                Row(Spacer(w=48), Text(short_date(start), size=16, h=48, rid=ID + "start_date",
                                       on_click=partial(self.pick_date, "start")),
                    Text(clock(self.start_min), size=16, h=48, w=96, align="right", rid=ID + "start_time",
                         on_click=partial(self.pick_time, "start")) if times else None,
                    h=48, pad=(8, 0, 16, 0)),
                Row(Spacer(w=48), Text(short_date(end), size=16, h=48, rid=ID + "end_date",
                                       on_click=partial(self.pick_date, "end")),
                    Text(clock(self.end_min), size=16, h=48, w=96, align="right", rid=ID + "end_time",
                         on_click=partial(self.pick_time, "end")) if times else None,
                    h=48, pad=(8, 0, 16, 0)) if event else None,
                Row(Icon("refresh", w=40, fg=MUTED), Text(repeat_label(self.repeat, start), size=16,
                                                          rid=ID + "recurrence"),
                    h=56, pad=(8, 0, 16, 0), gap=8, on_click=self.pick_repeat, rid=ID + "recurrence_row"),
                Divider(),
                self.field_row("location", "location", "Add location") if event else None,
                Row(Icon("notifications", w=40, fg=MUTED), Text("30 minutes before", size=16,
                                                                rid=ID + "notification"),
                    h=56, pad=(8, 0, 16, 0), gap=8) if event else None,
                self.field_row("description", "menu", "Add description" if event else "Add details"),
                Row(Icon("person", w=40, fg=MUTED), Text(ACCOUNT if event else "My Tasks", size=14,
                                                         style="muted", rid=ID + "calendar"),
                    h=56, pad=(8, 0, 16, 0), gap=8),
                key="editor", rid=ID + "edit_scroll",
            ),
        )


class FieldEditor(Activity):
    """A location or description being typed, on a screen of its own ("Done" or BACK keeps
    it)."""

    name = MAIN

    def __init__(self, app, editor: EventEditor, field: str, label: str) -> None:
        super().__init__(app)
        self.editor, self.field, self.label = editor, field, label
        self.fields["value"] = editor.fields.get(field, "")
        self.focus = "value"

    def inputs(self) -> tuple:
        return self.field, self.label, id(self.editor)

    def done(self, _text: str = "") -> None:
        self.editor.set_field(self.field, self.fields.get("value", ""))
        self.finish()

    def on_back(self) -> bool:
        self.done()
        return True

    def build(self) -> View:
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.done), Text(self.label[4:].capitalize(), size=20),
                Button("Done", self.done, style="text", w=80, rid=ID + "done"),
                h=64, pad=(4, 0, 8, 0), rid=ID + "toolbar"),
            EditText("value", hint=self.label, rid=ID + "input", on_submit=self.done),
        )


class DatePicker(Dialog):
    """Material's date picker: the chosen day in the header, a month of days with the
    previous / next month buttons, "Cancel" and "OK"."""

    def __init__(self, selected: date, on_ok: Callable[[str], None]) -> None:
        super().__init__("Select date", package=PKG)
        self.selected = iso(selected)
        self.month = iso(month_start(selected))
        self.on_ok = on_ok

    def select(self, d: date) -> None:
        self.selected = iso(d)

    def turn(self, months: int) -> None:
        self.month = iso(clamp(add_months(day_of(self.month), months)))

    def ok(self) -> None:
        self.close()
        self.on_ok(self.selected)

    def on_swipe(self, dx: float, dy: float) -> bool:
        self.turn(1 if (dx if abs(dx) > abs(dy) else dy) < 0 else -1)
        return True

    def build(self) -> View:
        month, chosen = day_of(self.month), day_of(self.selected)
        grid = month_grid(month)
        rows = []
        for i in range(0, len(grid), 7):
            cells = [Text(str(d.day), size=14, h=40, align="center", radius=20, desc=long_date(d),
                          selected=d == chosen, bg=BLUE if d == chosen else None, fg=WHITE if d == chosen else None,
                          rid=ID + "date_picker_day", on_click=partial(self.select, d))
                     if d.month == month.month else Spacer(h=40) for d in grid[i:i + 7]]
            rows.append(Row(*cells, h=40))
        return Column(
            Text("Select date", size=12, style="muted", h=24, rid=ID + "mtrl_picker_header_title_text"),
            Text(f"{chosen:%a}, {chosen:%b} {chosen.day}", size=28, h=44, rid=ID + "mtrl_picker_header_selection_text"),
            Divider(),
            Row(Text(f"{month:%B} {month.year}", size=14, bold=True, h=48, rid=ID + "month_navigation_fragment_toggle"),
                Icon("back", desc="Change to previous month", on_click=partial(self.turn, -1), w=44,
                     rid=ID + "month_navigation_previous"),
                Icon("forward", desc="Change to next month", on_click=partial(self.turn, 1), w=44,
                     rid=ID + "month_navigation_next"),
                h=48),
            Row(*[Text(x, size=12, style="muted", align="center", h=24) for x in WEEKDAY_LETTERS], h=24),
            *rows,
            Row(Spacer(), Button("Cancel", self.close, style="text", w=88, rid=ID + "cancel_button"),
                Button("OK", self.ok, style="text", w=64, rid=ID + "confirm_button"), h=52),
            cls=FRAME, pad=(20, 16, 12, 8), w=328, align="center", style="dialog", radius=28,
            rid=ID + "mtrl_calendar_frame",
        )


class TimeList(Dialog):
    """The times of the day, every half hour, the current one checked; a tap picks one."""

    def __init__(self, current: int, on_pick: Callable[[int], None], density: float) -> None:
        super().__init__("Select time", package=PKG)
        self.current = current
        self.on_pick = on_pick
        self.scroll["times"] = round(max(0, current // TIME_STEP - 2) * TIME_ROW_DP * density)

    def pick(self, minute: int) -> None:
        self.close()
        self.on_pick(minute)

    def build(self) -> View:
        rows = [Text(clock(m), size=16, h=TIME_ROW_DP, pad=(24, 0, 0, 0), checkable=True, checked=m == self.current,
                     fg=BLUE if m == self.current else None, rid="android:id/text1", on_click=partial(self.pick, m))
                for m in range(0, 24 * 60, TIME_STEP)]
        return Column(
            Text("Select time", size=20, h=48, pad=(24, 8, 0, 0), rid="android:id/alertTitle"),
            Scroll(*rows, key="times", h=336, fill=False, rid="android:id/select_dialog_listview"),
            Row(Spacer(), Button("Cancel", self.close, style="text", w=88, rid="android:id/button2"), h=52),
            cls=FRAME, pad=(0, 8, 8, 8), w=300, align="center", style="dialog", radius=28,
        )


class RepeatChoice(_Menu):
    """How an event repeats: the choices the real app offers for its start day."""

    def __init__(self, rule: str, day: date, on_pick: Callable[[str], None]) -> None:
        super().__init__(package=PKG)
        self.rule, self.day, self.on_pick = rule, day.isoformat(), on_pick

    def build(self) -> View:
        d = day_of(self.day)
        order = ("none", "daily", "weekly", "monthly", "yearly", "weekdays")
        rows = [radio_row(repeat_label(r, d), r == self.rule, partial(self.pick, partial(self.on_pick, r)), lines=2)
                for r in order]
        return Column(*rows, cls=FRAME, pad=(0, 12, 0, 12), w=320, align="center", style="dialog", radius=28,
                      rid=ID + "recurrence_options")


# ------------------------------------------------------------------ details

class EventInfo(Activity):
    """An event's (or task's) details, for the occurrence tapped: title, when, how it
    repeats, where, the calendar; edit, delete (for a series: this event, this and the
    following ones, or all), and a task's "Mark completed"."""

    name = MAIN

    def __init__(self, app, event_id: int, day: date) -> None:
        super().__init__(app)
        self.event_id = event_id
        self.day = iso(day)
        app.state.viewed.append(event_id)
        app.state.visited.append("event")

    def event(self) -> Event | None:
        return self.app.state.event(self.event_id)

    def inputs(self) -> tuple:
        e = self.event()
        return (self.event_id, self.day, None if e is None else repr(e))

    def edit(self) -> None:
        self.finish()
        main = main_screen(self.app)
        (main or self).start(EventEditor(self.app, event_id=self.event_id))

    def menu(self) -> None:
        self.sys.show(OptionsMenu(self))

    def ask_delete(self) -> None:
        e = self.event()
        if e is None:
            return
        if e.repeat == "none":
            what = "event" if e.kind == "event" else "task"
            self.sys.show(Dialog(f"Delete this {what}?", "", (("Cancel", None), ("Delete", partial(self.delete, "all"))),
                                 package=PKG))
        else:
            self.sys.show(DeleteSeries(self))

    def delete(self, which: str) -> None:
        """``which``: "this" occurrence, "following" (this and later ones) or "all"."""
        s = self.app.state
        e = self.event()
        if e is None:
            return
        d = day_of(self.day)
        if which == "this" and e.repeat != "none":
            e.exceptions.append(self.day)
        elif which == "following" and d > day_of(e.date):
            e.until = iso(d - timedelta(days=1))
        else:
            s.events.remove(e)
        s.deleted.append(e.title)
        self.sys.toast("Event deleted" if e.kind == "event" else "Task deleted")
        self.close()

    def toggle_done(self) -> None:
        e = self.event()
        if e is not None:
            e.done = not e.done
        self.close()

    def close(self) -> None:
        back_to_main(self)

    def build(self) -> View:
        e = self.event()
        if e is None:
            return Column(Row(Icon("close", desc="Close", on_click=self.close), h=64),
                          Text("This event was deleted", size=16, style="muted", h=48, pad=(16, 0, 0, 0)))
        d = day_of(self.day)
        when = long_date(d) if e.all_day else f"{long_date(d)} · {e.when()}"
        task = e.kind == "task"
        return Column(
            Row(Icon("close", desc="Close", on_click=self.close, rid=ID + "info_action_close"), Spacer(),
                Icon("edit", desc="Edit event" if not task else "Edit task", on_click=self.edit,
                     rid=ID + "info_action_edit"),
                Icon("more", desc="More options", on_click=self.menu, rid=ID + "info_action_overflow"),
                h=64, rid=ID + "toolbar"),
            Row(Spacer(w=16), View(FRAME, (), w=16, h=16, bg=colour(e), radius=4),
                Text(e.title, size=22, lines=2, rid=ID + "title"), h=72, gap=16),
            Row(Spacer(w=48), Text(when, size=14, rid=ID + "when_datetime"), h=24),
            Row(Spacer(w=48), Text(repeat_label(e.repeat, day_of(e.date)), size=14, rid=ID + "when_repeat"),
                h=24) if e.repeat != "none" else None,
            Divider(),
            Row(Icon("location", w=40, fg=MUTED), Text(e.location, size=14, rid=ID + "location_text"),
                h=48, pad=(8, 0, 16, 0), gap=8) if e.location else None,
            Row(Icon("menu", w=40, fg=MUTED), Text(e.description, size=14, lines=2, rid=ID + "description_text"),
                h=56, pad=(8, 0, 16, 0), gap=8) if e.description else None,
            Row(Icon("notifications", w=40, fg=MUTED), Text("30 minutes before", size=14),
                h=48, pad=(8, 0, 16, 0), gap=8) if not e.all_day and not task else None,
            Row(Icon("person", w=40, fg=MUTED), Text(e.calendar if e.calendar != OWNER else ACCOUNT, size=14,
                                                     rid=ID + "calendar_name"),
                h=48, pad=(8, 0, 16, 0), gap=8),
            Spacer(fill=True),
            Row(Spacer(), Button("Mark uncompleted" if e.done else "Mark completed", self.toggle_done,
                                 style="tonal", w=190, rid=ID + "task_complete_button"), h=72,
                pad=(0, 0, 16, 16)) if task else None,
        )


class OptionsMenu(_Menu):
    """The details' overflow menu."""

    def __init__(self, info: EventInfo) -> None:
        super().__init__(kind="menu", modal=False, package=PKG)
        self.info = info

    def build(self) -> View:
        return Column(Text("Delete", size=16, h=48, pad=(16, 0, 16, 0), rid=ID + "menu_item_title",
                           on_click=partial(self.pick, self.info.ask_delete)),
                      w=200, style="dialog", radius=8, pad=(0, 8, 0, 8), rid=ID + "overflow_menu")


class DeleteSeries(Dialog):
    """"Delete recurring event": this event, this and following events, or all events."""

    CHOICES = (("this", "This event"), ("following", "This and following events"), ("all", "All events"))

    def __init__(self, info: EventInfo) -> None:
        super().__init__("Delete recurring event", package=PKG)
        self.info = info
        self.choice = "this"

    def choose(self, which: str) -> None:
        self.choice = which

    def ok(self) -> None:
        self.close()
        self.info.delete(self.choice)

    def build(self) -> View:
        rows = [radio_row(label, key == self.choice, partial(self.choose, key)) for key, label in self.CHOICES]
        return Column(
            Text(self.title, size=20, h=40, rid="android:id/alertTitle"),
            *rows,
            Row(Spacer(), Button("Cancel", self.close, style="text", w=88, rid="android:id/button2"),
                Button("OK", self.ok, style="text", w=64, rid="android:id/button1"), h=52),
            cls=FRAME, pad=(24, 20, 16, 8), gap=4, w=320, align="center", style="dialog", radius=28,
        )


# ------------------------------------------------------------------ search

class SearchActivity(Activity):
    """Search: a query field; ENTER lists the matching events by date (a series at its
    next occurrence), each opening its details."""

    name = SEARCH

    def __init__(self, app) -> None:
        super().__init__(app)
        self.query: str | None = None
        self.fields["query"] = ""
        self.focus = "query"

    def submit(self, text: str) -> None:
        """ENTER: the results for the query (an empty one does nothing)."""
        if text.strip():
            self.query = text.strip()
            self.app.state.searches.append(self.query)
            self.focus = None
            self.scroll.clear()

    def results(self) -> list[tuple[date, Event]]:
        s, today = self.app.state, today_of(self.sys)
        q = (self.query or "").lower()
        found = []
        for e in s.events:
            if not s.visible(e) or q not in (e.title + " " + e.location + " " + e.description).lower():
                continue
            d = day_of(e.date)
            if e.repeat != "none" and d < today:
                d = next((today + timedelta(days=i) for i in range(400) if e.occurs_on(today + timedelta(days=i))), d)
            found.append((d, e))
        return sorted(found, key=lambda x: (x[0], x[1].sort_key()))[:MAX_RESULTS]

    def open(self, event_id: int, d: date) -> None:
        self.start(EventInfo(self.app, event_id, d))

    def inputs(self) -> tuple:
        s = self.app.state
        return self.query, repr(s.events), tuple(s.hidden_calendars), s.show_completed_tasks

    def build(self) -> View:
        rows: list[View] = []
        if self.query is not None:
            found = self.results()
            for d, e in found:
                rows.append(Row(Text(f"{d:%a}, {d:%b} {d.day}", size=12, style="muted", w=88, h=48),
                                Column(Text(e.title, size=14, bold=True, fg=WHITE, h=20, rid=ID + "chip_title"),
                                       Text(e.when(), size=12, fg=WHITE, h=18, rid=ID + "chip_time"),
                                       h=48, pad=(6, 3, 4, 0), radius=4, bg=colour(e)),
                                h=56, pad=(16, 4, 16, 4), gap=8, desc=f"{e.title}, {long_date(d)}, {e.when()}",
                                rid=ID + "search_result", on_click=partial(self.open, e.id, d)))
            if not found:
                rows.append(Text("No results", size=16, style="muted", align="center", h=96, rid=ID + "no_results"))
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish),
                EditText("query", hint="Search", rid=ID + "search_edit_text", on_submit=self.submit, h=56),
                h=64, pad=(4, 4, 12, 4), rid=ID + "search_toolbar", style="appbar"),
            Scroll(*rows, key="results", rid=ID + "search_results"),
        )


# ------------------------------------------------------------------ settings

class SettingsActivity(Activity):
    """Settings > General: the default event duration and whether completed tasks show."""

    name = SETTINGS

    def inputs(self) -> tuple:
        s = self.app.state
        return s.default_duration, s.show_completed_tasks

    def leave(self) -> None:
        back_to_main(self)

    def on_back(self) -> bool:
        self.leave()
        return True

    def toggle_completed(self) -> None:
        self.app.state.show_completed_tasks = not self.app.state.show_completed_tasks

    def set_duration(self, minutes: int) -> None:
        self.app.state.default_duration = minutes

    def pick_duration(self) -> None:
        self.sys.show(DurationChoice(self))

    def build(self) -> View:
        s = self.app.state
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.leave), Text("Settings", size=22, h=64),
                h=64, rid=ID + "toolbar", style="appbar"),
            Scroll(
                Text("General", size=14, bold=True, fg=BLUE, h=48, pad=(16, 16, 0, 0), rid=ID + "settings_header"),
                Row(Column(Text("Default event duration", size=16, rid="android:id/title"),
                           Text(f"{s.default_duration} minutes", size=14, style="muted", rid="android:id/summary")),
                    h=72, pad=(16, 8, 16, 0), on_click=self.pick_duration),
                Row(Column(Text("Show completed tasks", size=16, rid="android:id/title"),
                           Text("Completed tasks stay on the calendar", size=14, style="muted",
                                rid="android:id/summary")),
                    Switch(s.show_completed_tasks, self.toggle_completed, rid="android:id/switch_widget"),
                    h=72, pad=(16, 8, 16, 0), on_click=self.toggle_completed),
                Divider(),
                Text(ACCOUNT, size=14, bold=True, fg=BLUE, h=48, pad=(16, 16, 0, 0), rid=ID + "settings_account"),
                Row(Text("Events from Gmail", size=16, rid="android:id/title"), h=56, pad=(16, 0, 16, 0)),
                key="settings", rid=ID + "settings_list"),
        )


class DurationChoice(_Menu):
    def __init__(self, settings: SettingsActivity) -> None:
        super().__init__("Default event duration", package=PKG)
        self.settings = settings

    def build(self) -> View:
        current = self.settings.app.state.default_duration
        rows = [radio_row(f"{m} minutes", m == current, partial(self.pick, partial(self.settings.set_duration, m)))
                for m in DURATIONS]
        return Column(Text(self.title, size=20, h=40, rid="android:id/alertTitle"), *rows,
                      cls=FRAME, pad=(24, 20, 16, 16), gap=4, w=320, align="center", style="dialog", radius=28)

