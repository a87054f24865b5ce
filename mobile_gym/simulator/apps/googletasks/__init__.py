"""Google Tasks (com.google.android.apps.tasks): the task lists screen with list tabs
(Starred, My Tasks, the user's lists, "New list"), task rows with a "Mark as complete"
checkbox and a star, a collapsible "Completed (N)" section, the "Create new task" sheet,
the "Create new list" screen, the list options sheet (Sort by, Rename list, Delete list),
the account menu (the personal profile) and Settings.

Modules: `model` (state), `screens` (activities and dialogs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.prompts import NotificationPermission, WhatsNew
from mobile_gym.simulator.apps.googletasks.model import (
    DEFAULT_LIST, SORTS, STARRED, Task, TaskList, TasksState,
)
from mobile_gym.simulator.apps.googletasks.screens import (
    PKG, PRIMARY, TaskListsActivity,
)

__all__ = ["GoogleTasks", "Task", "TaskList", "TasksState"]

# Content the "default" dynamics draws from: (title, due date or "").
TASK_POOL = (("Buy milk", "Tue, Nov 22"), ("Call the dentist", ""), ("Pay electricity bill", "Fri, Nov 25"),
             ("Renew passport", "Dec 2"), ("Book flights", ""), ("Water the plants", "Today"),
             ("Email Sam about the trip", ""), ("Return library books", "Mon, Nov 28"),
             ("Pick up dry cleaning", ""), ("Plan weekend hike", "Sat, Nov 26"))
LIST_POOL = ("Work", "Groceries", "Errands")
GROCERIES = (("Eggs", ""), ("Bread", ""), ("Apples", ""), ("Coffee", ""))


class GoogleTasks(App):
    package = PKG
    label = "Tasks"
    key = "googletasks"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "check"
    color = (26, 115, 232)
    State = TasksState
    stream = 2  # added after the first apps: a random stream of its own

    def main(self) -> Activity:
        return TaskListsActivity(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Other tasks in My Tasks (some starred, some done, some with dates) and maybe
        one more list."""
        picks = sorted(rng.choice(len(TASK_POOL), size=int(rng.integers(1, 5)), replace=False))
        tasks = []
        for i in picks:
            title, due = TASK_POOL[int(i)]
            tasks.append(Task(title, due=due, starred=bool(rng.random() < 0.3),
                              completed=bool(rng.random() < 0.25)))
        self.state.lists = [TaskList(DEFAULT_LIST, tasks)]
        if rng.random() < 0.5:
            name = LIST_POOL[int(rng.integers(len(LIST_POOL)))]
            pool = GROCERIES if name == "Groceries" else TASK_POOL[5:]
            n = int(rng.integers(0, 3))
            self.state.lists.append(TaskList(name, [Task(t, due=d) for t, d in pool[:n]]))

    def popups(self, activity: Activity) -> list[Dialog]:
        if isinstance(activity, TaskListsActivity):
            return [NotificationPermission("Tasks", activity.allow_notifications, PRIMARY), WhatsNew(
                PKG, "What's new in Tasks", "Star your most important tasks and find them all in one place: the "
                "new Starred tab.", icon="star", color=PRIMARY)]
        return []

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: ``lists`` as mappings {name, tasks: [{title, starred, completed, due}],
        sort} are added to the lists there are (a list of the same name gets the tasks it
        lacks); the other fields as they are."""
        values = dict(values)
        lists = values.pop("lists", None)
        super().configure(values)
        if lists is not None:
            if not isinstance(lists, (list, tuple)):
                raise SimulatorError(f"googletasks 'lists' must be a list, got {lists!r}")
            for given in lists:
                self._add_list(given)
        s = self.state
        names = [lst.name for lst in s.lists]
        if DEFAULT_LIST not in names:
            raise SimulatorError(f"googletasks needs the list {DEFAULT_LIST!r}")
        if s.current != STARRED and s.current not in names:
            raise SimulatorError(f"googletasks current list {s.current!r} is not a list: {names}")

    def _add_list(self, given: Any) -> None:
        if not isinstance(given, Mapping) or not isinstance(given.get("name"), str):
            raise SimulatorError(f"googletasks list must be a mapping with a 'name', got {given!r}")
        unknown = set(given) - {"name", "tasks", "sort"}
        if unknown:
            raise SimulatorError(f"googletasks list has no field(s) {sorted(unknown)}")
        sort = given.get("sort", "My order")
        if sort not in SORTS:
            raise SimulatorError(f"googletasks sort must be one of {list(SORTS)}, got {sort!r}")
        lst = self.state.list(given["name"])
        if lst is None:
            lst = TaskList(given["name"], [])
            self.state.lists.append(lst)
        lst.sort = sort
        tasks = given.get("tasks", [])
        if not isinstance(tasks, (list, tuple)):
            raise SimulatorError(f"googletasks list 'tasks' must be a list, got {tasks!r}")
        new = [task for task in map(_task, tasks) if all(x.title != task.title for x in lst.tasks)]
        lst.tasks[:0] = new  # in the order given, above the seeded tasks


def _task(value: Any) -> Task:
    if isinstance(value, str):
        return Task(value)
    if not isinstance(value, Mapping) or not isinstance(value.get("title"), str):
        raise SimulatorError(f"googletasks task must be a title or a mapping with 'title', got {value!r}")
    task = Task(value["title"])
    for name, given in value.items():
        if name == "title":
            continue
        if name not in ("starred", "completed", "due"):
            raise SimulatorError(f"googletasks task has no field {name!r}")
        if type(given) is not type(getattr(task, name)):
            raise SimulatorError(f"googletasks task field {name!r} got {given!r}")
        setattr(task, name, given)
    return task
