"""Google Tasks' state: lists of tasks, the list shown, each list's sort order, the
account, and what the user opened (account menu, settings)."""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_LIST = "My Tasks"
STARRED = "Starred"  # the tab of starred tasks from every list
SORTS = ("My order", "Date", "Starred recently")
ACCOUNT_NAME = "Alex Morgan"
ACCOUNT_EMAIL = "alex.morgan.mobilegym@gmail.com"


@dataclass
class Task:
    title: str
    starred: bool = False
    completed: bool = False
    due: str = ""  # the date chip's text ("Fri, Nov 25"), "" for none


@dataclass
class TaskList:
    name: str
    tasks: list[Task] = field(default_factory=list)
    sort: str = "My order"  # one of SORTS

    def active(self) -> list[Task]:
        tasks = [t for t in self.tasks if not t.completed]
        if self.sort == "Date":  # dated tasks first, in date order (by text: the pool's are comparable)
            return sorted(tasks, key=lambda t: (not t.due, _date_key(t.due)))
        if self.sort == "Starred recently":
            return [t for t in tasks if t.starred] + [t for t in tasks if not t.starred]
        return tasks

    def completed(self) -> list[Task]:
        return [t for t in self.tasks if t.completed]


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _date_key(due: str) -> tuple[int, int]:
    """("Fri, Nov 25" | "Dec 2" | "Today") -> (month, day); Today is Nov 21."""
    if due == "Today":
        return (11, 21)
    parts = due.replace(",", " ").split()
    for i, p in enumerate(parts):
        if p in MONTHS and i + 1 < len(parts) and parts[i + 1].isdigit():
            return (MONTHS.index(p) + 1, int(parts[i + 1]))
    return (13, 0)


@dataclass
class TasksState:
    lists: list[TaskList] = field(default_factory=lambda: [TaskList(DEFAULT_LIST)])
    current: str = DEFAULT_LIST  # the tab shown: a list's name or "Starred"
    signed_in: bool = True
    opened: bool = False  # the app was opened
    visited: list[str] = field(default_factory=list)  # "account", "settings", "starred", ...
    deleted_lists: list[str] = field(default_factory=list)
    notifications_allowed: bool = False
    new_at_bottom: bool = False  # settings: "Add new items to the bottom"
    show_completed_count: bool = True

    def list(self, name: str) -> TaskList | None:
        return next((lst for lst in self.lists if lst.name == name), None)

    def find(self, title: str) -> list[Task]:
        return [t for lst in self.lists for t in lst.tasks if t.title == title]

    def starred(self) -> list[Task]:
        return [t for lst in self.lists for t in lst.tasks if t.starred and not t.completed]
