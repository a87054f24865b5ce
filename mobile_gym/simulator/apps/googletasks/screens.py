"""Google Tasks' screens: the task lists screen (TaskListsActivity) with its tabs, rows,
"Completed (N)" section and "Create new task" button; the create / rename list screen;
Settings; and the dialogs: new task sheet, list options sheet, a task's long-press
actions, delete confirmation, account menu and the first-run popups. Dialogs keep only picklable handlers."""

from __future__ import annotations

import pickle
from functools import partial
from typing import Callable

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.runtime import KEYBOARD_DP
from mobile_gym.simulator.apps.googletasks.model import (
    ACCOUNT_EMAIL, ACCOUNT_NAME, DEFAULT_LIST, SORTS, STARRED, Task, TaskList,
)
from mobile_gym.simulator.views import (
    Button, CheckBox, Column, Divider, EditText, Icon, Row, Scroll, Spacer, Switch, Text, View,
    FRAME, LINEAR,
)

PKG = "com.google.android.apps.tasks"
ID = PKG + ":id/"
PRIMARY = (11, 87, 208)
TONAL = (211, 227, 253)
MUTED = (95, 95, 105)
STAR = (11, 87, 208)
TAB_ROW_DP = 340  # tabs wrap onto another row beyond this width
AVATAR_DESC = f"Signed in as {ACCOUNT_NAME} {ACCOUNT_EMAIL}. Account and settings."


def _tab_width(label: str) -> int:
    return max(56, 9 * len(label) + 32)


def row_desc(task: Task) -> str:
    """A task row's content-desc, as TalkBack reads it: the title and its state."""
    return task.title + (", completed" if task.completed else ", starred" if task.starred else "")


class TaskListsActivity(Activity):
    name = "com.google.android.apps.tasks.ui.TaskListsActivity"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.completed_open = False  # the "Completed (N)" section expanded
        self.adding = False  # the "New task" sheet is open
        self.sheet_starred = False  # its star button is on
        app.state.opened = True

    # ------------------------------------------------------------ handlers
    @property
    def state(self):
        return self.app.state

    def select(self, name: str) -> None:
        self.close_sheet()
        if name == STARRED:
            self.state.visited.append("starred")
        self.state.current = name
        self.completed_open = False
        self.scroll.clear()

    def current_list(self) -> TaskList | None:
        return self.state.list(self.state.current)

    def new_task(self) -> None:
        """Open the "New task" sheet, its field focused, over the keyboard."""
        self.adding = True
        self.sheet_starred = self.state.current == STARRED
        self.fields["new_task"] = ""
        self.focus = "new_task"
        self.sys.keyboard = True

    def close_sheet(self) -> None:
        if self.adding:
            self.adding = False
            self.fields.pop("new_task", None)
            self.focus = None
            self.sys.keyboard = False

    def toggle_sheet_star(self) -> None:
        self.sheet_starred = not self.sheet_starred

    def save_task(self, _text: str = "") -> None:
        """The sheet's "Save" (nothing while the title is empty)."""
        title = self.fields.get("new_task", "").strip()
        if title:
            self.add_task(title, self.sheet_starred)
            self.close_sheet()

    def on_back(self) -> bool:
        if self.adding:
            self.close_sheet()
            return True
        return False

    def add_task(self, title: str, starred: bool) -> None:
        lst = self.current_list() or self.state.list(DEFAULT_LIST)
        task = Task(title, starred=starred or self.state.current == STARRED)
        if self.state.new_at_bottom:
            lst.tasks.append(task)
        else:
            lst.tasks.insert(0, task)

    def new_list(self) -> None:
        self.start(EditListActivity(self.app, None))
        self.sys.keyboard = True

    def rename_list(self, name: str) -> None:
        self.start(EditListActivity(self.app, name))
        self.sys.keyboard = True

    def list_options(self) -> None:
        self.sys.show(ListOptionsSheet(self))

    def set_sort(self, sort: str) -> None:
        lst = self.current_list()
        if lst is not None:
            lst.sort = sort

    def confirm_delete(self, name: str) -> None:
        self.sys.show(Dialog("Delete this list?", f"\u201c{name}\u201d and all its tasks will be permanently deleted.",
                             (("Cancel", None), ("Delete", partial(self.delete_list, name)))))

    def delete_list(self, name: str) -> None:
        s = self.state
        if name == DEFAULT_LIST or s.list(name) is None:
            return
        s.lists = [lst for lst in s.lists if lst.name != name]
        s.deleted_lists.append(name)
        s.current = DEFAULT_LIST
        self.completed_open = False
        self.sys.toast("List deleted")

    def delete_completed(self) -> None:
        lst = self.current_list()
        if lst is not None:
            lst.tasks = [t for t in lst.tasks if not t.completed]

    def set_completed(self, task: Task, done: bool) -> None:
        task.completed = done
        if done:
            self.sys.toast("1 completed")

    def toggle_star(self, task: Task) -> None:
        task.starred = not task.starred

    def open_task(self, task: Task) -> None:
        self.start(TaskDetails(self.app, task))

    def task_actions(self, task: Task) -> None:
        """A long press on a task: its actions sheet."""
        self.close_sheet()
        self.sys.show(TaskActionsSheet(self, task))

    def delete_task(self, task: Task) -> None:
        for lst in self.state.lists:
            lst.tasks = [t for t in lst.tasks if t is not task]
        self.sys.toast("1 task deleted")

    def toggle_completed_section(self) -> None:
        self.completed_open = not self.completed_open

    def open_account(self) -> None:
        self.state.visited.append("account")
        self.sys.show(AccountMenu(self))

    def open_settings(self) -> None:
        self.state.visited.append("settings")
        self.start(SettingsActivity(self.app))

    def manage_account(self) -> None:
        self.state.visited.append("manage_account")
        self.sys.toast("Google Account is not available offline")

    def allow_notifications(self, allowed: bool) -> None:
        self.state.notifications_allowed = allowed

    # ------------------------------------------------------------ views
    def inputs(self) -> tuple:
        s = self.state
        return (pickle.dumps(s, pickle.HIGHEST_PROTOCOL), id(s), tuple(map(id, s.lists)),
                tuple(id(t) for lst in s.lists for t in lst.tasks), self.completed_open, self.adding,
                self.sheet_starred, self.sys.keyboard)

    def tabs(self) -> View:
        s = self.state
        tabs: list[tuple[int, View]] = [(56, Icon(
            "star", desc="Starred", on_click=partial(self.select, STARRED), selected=s.current == STARRED,
            fg=PRIMARY if s.current == STARRED else MUTED, rid=ID + "starred_tab", h=48, w=56))]
        for lst in s.lists:
            on = s.current == lst.name
            w = _tab_width(lst.name)
            tabs.append((w, Text(lst.name, size=14, bold=on, fg=PRIMARY if on else None, h=48, w=w,
                                 align="center", selected=on, desc=lst.name, rid=ID + "tab_title",
                                 on_click=partial(self.select, lst.name))))
        tabs.append((120, Row(Icon("add", h=48, w=32), Text("New list", size=14, h=48), w=120, h=48,
                              desc="New list", on_click=self.new_list, rid=ID + "new_list_tab")))
        rows: list[list[View]] = [[]]
        used = 0
        for w, view in tabs:
            if used + w > TAB_ROW_DP and rows[-1]:
                rows.append([])
                used = 0
            rows[-1].append(view)
            used += w
        return Column(*[Row(*r, Spacer(), h=48, pad=(8, 0, 8, 0)) for r in rows], rid=ID + "tab_layout")

    def task_row(self, task: Task, *, list_name: str = "") -> View:
        name = Text(task.title, size=16, rid=ID + "task_name",
                    style="muted" if task.completed else None)
        due = Text(task.due, size=12, fg=PRIMARY, rid=ID + "task_due_date", radius=8) if task.due else None
        sub = Text(list_name, size=12, style="muted", rid=ID + "task_list_name") if list_name else None
        check = CheckBox(task.completed, partial(self.set_completed, task, not task.completed),
                         desc="Mark as incomplete" if task.completed else "Mark as complete",
                         rid=ID + "task_checkbox")
        star = None if task.completed else Icon(
            "star", desc="Remove star" if task.starred else "Add star", rid=ID + "task_star",
            fg=STAR if task.starred else (160, 160, 168), on_click=partial(self.toggle_star, task))
        lines = 1 + (due is not None) + (sub is not None)
        return Row(check, Column(name, sub, due, pad=(0, 8, 0, 0)), star, h=40 + 20 * lines,
                   pad=(8, 0, 4, 0), gap=8, rid=ID + "task_item", cls=LINEAR, desc=row_desc(task),
                   on_click=partial(self.open_task, task),
                   on_long_click=self.sys.long_click(partial(self.task_actions, task)))

    def list_page(self, lst: TaskList) -> View:
        active = lst.active()
        done = lst.completed()
        rows: list[View | None] = [self.task_row(t) for t in active]
        if not active:
            rows.append(Column(Spacer(h=48), Icon("check", h=64, w=64, align="center", fg=PRIMARY),
                               Text("All tasks complete" if done else "No tasks yet", size=18,
                                    align="center", rid=ID + "empty_state_title"),
                               Text("Nice work!" if done else "Add your to-dos and keep track of them "
                                    "across Google Workspace", size=14, lines=2, align="center",
                                    style="muted", rid=ID + "empty_state_body"), gap=8))
        if done:
            rows.append(Divider())
            label = f"Completed ({len(done)})" if self.state.show_completed_count else "Completed"
            rows.append(Row(Text(label, size=16, rid=ID + "completed_tasks_header"),
                            Icon("expand", desc="Collapse" if self.completed_open else "Expand", w=40),
                            h=56, pad=(16, 0, 8, 0), on_click=self.toggle_completed_section,
                            rid=ID + "completed_header"))
            if self.completed_open:
                rows += [self.task_row(t) for t in done]
        return Column(
            Row(Text(lst.name, size=22, rid=ID + "tasks_list_title", h=56),
                Text(f"Sorted by {lst.sort.lower()}" if lst.sort != "My order" else "", size=12,
                     style="muted", w=132, h=56, rid=ID + "sort_label"),
                Icon("more", desc="List options", on_click=self.list_options, rid=ID + "list_options"),
                h=56, pad=(16, 0, 4, 0)),
            Scroll(*rows, Spacer(h=96), key="tasks", rid=ID + "tasks_list"),
            fill=True,
        )

    def starred_page(self) -> View:
        s = self.state
        rows = [self.task_row(t, list_name=lst.name) for lst in s.lists for t in lst.tasks
                if t.starred and not t.completed]
        if not rows:
            rows = [Column(Spacer(h=48), Icon("star", h=64, w=64, align="center", fg=PRIMARY),
                           Text("No starred tasks", size=18, align="center", rid=ID + "empty_state_title"),
                           Text("Mark important tasks with a star so that you can easily find them here",
                                size=14, lines=2, align="center", style="muted",
                                rid=ID + "empty_state_body"), gap=8)]
        return Column(
            Row(Text("Starred", size=22, rid=ID + "tasks_list_title", h=56), h=56, pad=(16, 0, 4, 0)),
            Scroll(*rows, Spacer(h=96), key="starred", rid=ID + "tasks_list"),
            fill=True,
        )

    def build(self) -> View:
        s = self.state
        lst = self.current_list()
        page = self.starred_page() if s.current == STARRED or lst is None else self.list_page(lst)
        return Column(
            Row(Spacer(w=56), Text("Tasks", size=22, align="center", rid=ID + "toolbar_title"),
                Icon("person", desc=AVATAR_DESC, on_click=self.open_account, radius=24, bg=TONAL,
                     rid=ID + "og_apd_internal_image_view"),
                h=64, pad=(0, 0, 8, 0), rid=ID + "toolbar"),
            self.tabs(),
            Divider(),
            page,
            self.sheet() if self.adding else
            Row(Spacer(), Icon("add", desc="Create new task", on_click=self.new_task, h=56, w=56,
                               bg=TONAL, radius=16, rid=ID + "tasks_fab"),
                h=80, pad=(0, 8, 16, 16)),
            Spacer(h=KEYBOARD_DP) if self.adding and self.sys.keyboard else None,
        )

    def sheet(self) -> View:
        """The "New task" bottom sheet (above the keyboard): title field, details / date /
        star buttons and "Save"."""
        return Column(
            EditText("new_task", hint="New task", rid=ID + "add_task_title", on_submit=self.save_task),
            Row(Icon("menu", desc="Add details", rid=ID + "add_task_details"),
                Icon("clock", desc="Set date/time", rid=ID + "add_task_date"),
                Icon("star", desc="Remove star" if self.sheet_starred else "Add star",
                     on_click=self.toggle_sheet_star, fg=STAR if self.sheet_starred else MUTED,
                     rid=ID + "add_task_star"),
                Spacer(),
                Button("Save", self.save_task, style="text", w=80, rid=ID + "add_task_done"),
                h=52),
            pad=(16, 16, 16, 8), gap=8, style="card", radius=16, rid=ID + "add_task_sheet",
        )


class ListOptionsSheet(Dialog):
    """The list's options: "Sort by" (My order, Date, Starred recently), "Rename list",
    "Delete list" (not for the default list), "Delete all completed tasks"."""

    def __init__(self, act: TaskListsActivity) -> None:
        super().__init__(kind="sheet")
        self.act = act

    def pick(self, handler: Callable[[], None]) -> None:
        self.close()
        handler()

    def build(self) -> View:
        lst = self.act.current_list()
        name = lst.name if lst else DEFAULT_LIST
        current = lst.sort if lst else "My order"
        sorts = [Row(Icon("check" if sort == current else "circle", w=40, fg=PRIMARY if sort == current else MUTED),
                     Text(sort, size=16, checkable=True, checked=sort == current,
                          rid=ID + "sort_option"),
                     h=48, gap=8, pad=(16, 0, 16, 0), selected=sort == current,
                     on_click=partial(self.pick, partial(self.act.set_sort, sort)))
                 for sort in SORTS]
        if name == DEFAULT_LIST:
            delete = Row(Text("Delete list", size=16, style="muted", rid=ID + "delete_list"),
                         Text("Default list can't be deleted", size=12, style="muted"), h=48,
                         pad=(16, 0, 16, 0), enabled=False)
        else:
            delete = Row(Text("Delete list", size=16, rid=ID + "delete_list"), h=48, pad=(16, 0, 16, 0),
                         on_click=partial(self.pick, partial(self.act.confirm_delete, name)))
        has_done = bool(lst and lst.completed())
        return Column(
            Text("Sort by", size=14, bold=True, h=40, pad=(16, 8, 16, 0), rid=ID + "sort_header"),
            *sorts,
            Divider(),
            Row(Text("Rename list", size=16, rid=ID + "rename_list"), h=48, pad=(16, 0, 16, 0),
                on_click=partial(self.pick, partial(self.act.rename_list, name))),
            delete,
            Row(Text("Delete all completed tasks", size=16, style=None if has_done else "muted",
                     rid=ID + "delete_completed_tasks"), h=48, pad=(16, 0, 16, 0), enabled=has_done,
                on_click=partial(self.pick, self.act.delete_completed) if has_done else None),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "list_options_sheet",
        )


class TaskActionsSheet(Dialog):
    """A task's long-press sheet: its title, then "Mark completed" (or "Mark
    uncompleted"), "Add star" (or "Remove star") and "Delete"."""

    def __init__(self, act: TaskListsActivity, task: Task) -> None:
        super().__init__(kind="sheet")
        self.act, self.task = act, task

    def pick(self, handler: Callable[[], None]) -> None:
        self.close()
        handler()

    def build(self) -> View:
        t, act = self.task, self.act

        def row(icon: str, label: str, handler: Callable[[], None], rid: str) -> View:
            return Row(Icon(icon, w=40, fg=MUTED), Text(label, size=16, rid=ID + rid), h=52, gap=8,
                       pad=(16, 0, 16, 0), desc=label, on_click=partial(self.pick, handler))

        return Column(
            Text(t.title, size=16, bold=True, h=44, pad=(16, 12, 16, 0), rid=ID + "task_actions_title"),
            row("check", "Mark uncompleted" if t.completed else "Mark completed",
                partial(act.set_completed, t, not t.completed), "task_action_complete"),
            row("star", "Remove star" if t.starred else "Add star", partial(act.toggle_star, t), "task_action_star"),
            row("trash", "Delete", partial(act.delete_task, t), "task_action_delete"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "task_actions_sheet",
        )


class AccountMenu(Dialog):
    """The account menu from the avatar (the personal profile card): name, email,
    "Manage your Google Account", "Settings", "Help & feedback"."""

    def __init__(self, act: TaskListsActivity) -> None:
        super().__init__()
        self.act = act

    def pick(self, handler: Callable[[], None]) -> None:
        self.close()
        handler()

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Close", on_click=self.close, rid=ID + "og_apd_close_button"),
                Text("Google", size=18, align="center", h=48), Spacer(w=48), h=48),
            Row(Icon("person", h=48, w=48, radius=24, bg=TONAL),
                Column(Text(ACCOUNT_NAME, size=16, bold=True, rid=ID + "og_primary_account_name"),
                       Text(ACCOUNT_EMAIL, size=14, style="muted", rid=ID + "og_primary_account_email")),
                h=64, gap=12, pad=(8, 8, 8, 0), rid=ID + "og_selected_account"),
            Button("Manage your Google Account", partial(self.pick, self.act.manage_account), style="outlined",
                   rid=ID + "og_manage_account_button"),
            Divider(),
            Row(Icon("settings", w=40), Text("Settings", size=16, rid=ID + "og_text_settings"), h=48, gap=8,
                on_click=partial(self.pick, self.act.open_settings), desc="Settings"),
            Row(Icon("info", w=40), Text("Help & feedback", size=16), h=48, gap=8),
            Text("Privacy Policy · Terms of Service", size=12, align="center", style="muted"),
            cls=FRAME, pad=(16, 8, 16, 16), gap=8, w=340, style="dialog", radius=28,
            rid=ID + "og_dialog_fragment_account_menu",
        )


class EditListActivity(Activity):
    """"Create new list" (or "Rename list"): a title field and "Done"."""

    name = "com.google.android.apps.tasks.ui.TaskListsActivity"

    def __init__(self, app, old: str | None) -> None:
        super().__init__(app)
        self.old = old
        self.fields["title"] = old or ""
        self.focus = "title"

    def done(self, _text: str = "") -> None:
        title = self.fields.get("title", "").strip()
        if not title:
            return
        s = self.app.state
        if self.old is None:
            s.lists.append(TaskList(title))
        else:
            lst = s.list(self.old)
            if lst is not None:
                if self.old == DEFAULT_LIST:
                    return
                lst.name = title
        s.current = title
        self.sys.keyboard = False
        self.finish()

    def inputs(self) -> tuple:
        return (self.old,)

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Navigate up", on_click=self.finish),
                Text("Create new list" if self.old is None else "Rename list", size=20, h=56),
                Button("Done", self.done, style="text", w=80, rid=ID + "done_button"),
                h=64, pad=(4, 0, 8, 0), rid=ID + "toolbar"),
            EditText("title", hint="Enter list title", rid=ID + "list_title_edit", on_submit=self.done),
            Spacer(fill=True),
            pad=(0, 0, 0, 0),
        )


class TaskDetails(Activity):
    """A task's details: its title, list, star, "Mark completed" and delete."""

    name = "com.google.android.apps.tasks.ui.TaskListsActivity"

    def __init__(self, app, task: Task) -> None:
        super().__init__(app)
        self.task = task
        self.fields["title"] = task.title

    def inputs(self) -> tuple:
        t = self.task
        return id(t), t.title, t.starred, t.completed, t.due

    def on_back(self) -> bool:
        self.save()
        return False

    def save(self, _text: str = "") -> None:
        title = self.fields.get("title", "").strip()
        if title:
            self.task.title = title

    def close(self) -> None:
        self.save()
        self.finish()

    def toggle_star(self) -> None:
        self.task.starred = not self.task.starred

    def toggle_done(self) -> None:
        self.task.completed = not self.task.completed
        self.save()
        self.finish()

    def delete(self) -> None:
        for lst in self.app.state.lists:
            lst.tasks = [t for t in lst.tasks if t is not self.task]
        self.sys.toast("1 task deleted")
        self.finish()

    def build(self) -> View:
        t = self.task
        owner = next((lst.name for lst in self.app.state.lists if any(x is t for x in lst.tasks)), "")
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.close), Spacer(),
                Icon("star", desc="Remove star" if t.starred else "Add star", on_click=self.toggle_star,
                     fg=STAR if t.starred else MUTED, rid=ID + "task_details_star"),
                Icon("trash", desc="Delete", on_click=self.delete, rid=ID + "delete_task"),
                h=64, rid=ID + "toolbar"),
            Text(owner, size=14, fg=PRIMARY, h=32, pad=(16, 0, 16, 0), rid=ID + "task_list_name"),
            EditText("title", hint="Enter title", rid=ID + "task_title", on_submit=self.save, size=22, h=64),
            Row(Icon("menu", w=40), Text("Add details", size=16, style="muted", rid=ID + "task_description"),
                h=56, gap=8, pad=(8, 0, 16, 0)),
            Row(Icon("clock", w=40), Text(t.due or "Add date/time", size=16, style=None if t.due else "muted",
                                          rid=ID + "task_date"), h=56, gap=8, pad=(8, 0, 16, 0)),
            Spacer(fill=True),
            Row(Spacer(), Button("Mark uncompleted" if t.completed else "Mark completed", self.toggle_done,
                                 style="text", w=180, rid=ID + "task_complete_button"), h=64, pad=(0, 0, 16, 8)),
        )


class SettingsActivity(Activity):
    name = "com.google.android.apps.tasks.ui.settings.SettingsActivity"

    def inputs(self) -> tuple:
        s = self.app.state
        return s.new_at_bottom, s.show_completed_count, s.notifications_allowed

    def toggle(self, attr: str) -> None:
        setattr(self.app.state, attr, not getattr(self.app.state, attr))

    def row(self, title: str, summary: str, attr: str) -> View:
        on = getattr(self.app.state, attr)
        return Row(Column(Text(title, size=16, rid="android:id/title"),
                          Text(summary, size=14, style="muted", rid="android:id/summary", lines=2)),
                   Switch(on, partial(self.toggle, attr), rid="android:id/switch_widget"),
                   h=88, pad=(16, 8, 16, 0), on_click=partial(self.toggle, attr))

    def build(self) -> View:
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish), Text("Settings", size=22, h=64),
                h=64, rid=ID + "toolbar"),
            Scroll(
                Row(Text(ACCOUNT_EMAIL, size=14, bold=True, fg=PRIMARY, rid=ID + "settings_account"),
                    h=48, pad=(16, 16, 16, 0)),
                self.row("Add new items to the bottom", "New tasks are added to the bottom of the list",
                         "new_at_bottom"),
                self.row("Show completed tasks count", "The Completed section shows how many tasks are done",
                         "show_completed_count"),
                self.row("Notifications", "Get notified when tasks are due", "notifications_allowed"),
                Row(Text("Open source licenses", size=16, rid="android:id/title"), h=56, pad=(16, 0, 16, 0)),
                key="settings", rid=ID + "recycler_view"),
        )


# ------------------------------------------------------------------ popups
