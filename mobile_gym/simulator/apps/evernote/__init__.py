"""Evernote (com.evernote), signed in as "agentian": Home with widgets and "Customize"
(background, add / remove / reorder widgets), the Notes, Tasks and Tags pages, the
sidebar, the note editor (formatting toolbar with Checkbox and Insert > Template, the
options sheet with "Available offline" and "Move to Trash"), the template gallery,
settings (Theme, Create button, Camera, Sync, Log out) and the signed-out landing page.

Modules: `model` (state, the seeded account), `screens` (activities and dialogs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.prompts import NotificationPermission, WhatsNew
from mobile_gym.simulator.apps.evernote.model import (
    BACKGROUNDS,
    CREATE_BUTTONS,
    DATES,
    NOTE_POOL,
    NOTEBOOKS,
    SYNC_TIMES,
    TASK_POOL,
    THEMES,
    WIDGETS,
    Block,
    EvernoteState,
    Note,
    TaskItem,
    seed_notes,
    seed_tasks,
)
from mobile_gym.simulator.apps.evernote.screens import (
    GREEN,
    PKG,
    HomeActivity,
    LandingActivity,
    UpgradeNudge,
)

__all__ = ["Block", "Evernote", "EvernoteState", "Note", "TaskItem"]

CHOICES = {"background": BACKGROUNDS, "theme": THEMES, "create_button": CREATE_BUTTONS}


class Evernote(App):
    package = PKG
    label = "Evernote"
    key = "evernote"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "edit"
    color = (0, 168, 45)
    State = EvernoteState
    stream = 5  # added after the first apps: a random stream of its own

    def main(self) -> Activity:
        return HomeActivity(self) if self.state.signed_in else LandingActivity(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Another account: which notes (3-7, in a seeded order, with dates), which tasks,
        when it last synced."""
        picks = [int(i) for i in rng.choice(len(NOTE_POOL), size=int(rng.integers(3, 8)), replace=False)]
        start = int(rng.integers(0, 3))
        self.state.notes = seed_notes(picks, DATES[start:])
        tasks = [int(i) for i in rng.choice(len(TASK_POOL), size=int(rng.integers(1, 6)), replace=False)]
        self.state.tasks = seed_tasks(tasks)
        for t in self.state.tasks:
            t.done = bool(rng.random() < 0.2)
        self.state.last_sync = SYNC_TIMES[int(rng.integers(len(SYNC_TIMES)))]

    def popups(self, activity: Activity) -> list[Dialog]:
        """The notification-permission prompt, a "what's new" sheet and the upgrade
        nudge, on Home."""
        if not isinstance(activity, HomeActivity):
            return []
        return [NotificationPermission("Evernote", activity.allow_notifications, GREEN), WhatsNew(
            PKG, "What's new in Evernote", "Make Home yours: add, remove and reorder widgets with Customize."),
            UpgradeNudge()]

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: ``notes`` as mappings {title, body (text or a list of lines; "[ ] x" is
        a checkbox, "# x" a heading), notebook, tags, offline} put above the seeded ones;
        ``tasks`` as titles or {title, due, done}; ``widgets`` among `WIDGETS`;
        background, theme and create_button among their choices; the rest as they are."""
        values = dict(values)
        notes = values.pop("notes", None)
        tasks = values.pop("tasks", None)
        super().configure(values)
        s = self.state
        if notes is not None:
            if not isinstance(notes, (list, tuple)):
                raise SimulatorError(f"evernote 'notes' must be a list, got {notes!r}")
            first = max((n.id for n in s.notes), default=0) + 1
            s.notes[:0] = [_note(given, first + i) for i, given in enumerate(notes)]
        if tasks is not None:
            if not isinstance(tasks, (list, tuple)):
                raise SimulatorError(f"evernote 'tasks' must be a list, got {tasks!r}")
            s.tasks[:0] = [_task(t) for t in tasks]
        for attr, choices in CHOICES.items():
            if getattr(s, attr) not in choices:
                raise SimulatorError(f"evernote {attr} must be one of {list(choices)}, got {getattr(s, attr)!r}")
        bad = [w for w in s.widgets if w not in WIDGETS]
        if bad or len(set(s.widgets)) != len(s.widgets) or not s.widgets:
            raise SimulatorError(f"evernote widgets must be distinct names among {list(WIDGETS)}, got {s.widgets!r}")


def _note(value: Any, nid: int) -> Note:
    if not isinstance(value, Mapping) or not isinstance(value.get("title"), str):
        raise SimulatorError(f"evernote note must be a mapping with a 'title', got {value!r}")
    unknown = set(value) - {"title", "body", "notebook", "tags", "offline"}
    if unknown:
        raise SimulatorError(f"evernote note has no field(s) {sorted(unknown)}; known: body, notebook, offline, "
                             "tags, title")
    body = value.get("body", [])
    lines = [body] if isinstance(body, str) else body
    if not isinstance(lines, (list, tuple)) or not all(isinstance(x, str) for x in lines):
        raise SimulatorError(f"evernote note body must be text or a list of lines, got {body!r}")
    notebook = value.get("notebook", NOTEBOOKS[0])
    if notebook not in NOTEBOOKS:
        raise SimulatorError(f"evernote notebook must be one of {list(NOTEBOOKS)}, got {notebook!r}")
    tags = value.get("tags", [])
    if not isinstance(tags, (list, tuple)) or not all(isinstance(t, str) for t in tags):
        raise SimulatorError(f"evernote note tags must be a list of names, got {tags!r}")
    offline = value.get("offline", False)
    if not isinstance(offline, bool):
        raise SimulatorError(f"evernote note 'offline' must be true or false, got {offline!r}")
    blocks = []
    for line in lines:
        if line.startswith(("[ ] ", "[x] ")):
            blocks.append(Block("check", line[4:], line[1] == "x"))
        elif line.startswith("# "):
            blocks.append(Block("heading", line[2:]))
        else:
            blocks.append(Block("text", line))
    return Note(nid, value["title"], blocks, notebook, list(tags), "Nov 21", offline)


def _task(value: Any) -> TaskItem:
    if isinstance(value, str):
        return TaskItem(value)
    if not isinstance(value, Mapping) or not isinstance(value.get("title"), str):
        raise SimulatorError(f"evernote task must be a title or a mapping with 'title', got {value!r}")
    task = TaskItem(value["title"])
    for name, given in value.items():
        if name == "title":
            continue
        if name not in ("due", "done"):
            raise SimulatorError(f"evernote task has no field {name!r}; known: done, due, title")
        if type(given) is not type(getattr(task, name)):
            raise SimulatorError(f"evernote task field {name!r} got {given!r}")
        setattr(task, name, given)
    return task
