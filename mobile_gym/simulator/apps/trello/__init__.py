"""Trello (com.trello), signed in as "agentian": the boards home (navigation drawer,
starred boards, workspaces and their boards, templates, "Create"), create board (name,
workspace, visibility; from a template such as "Basic Board"), a board (lists and
cards, "Add list", "Add card", list actions: "Archive list"; board menu: share / copy
link, pin to home screen, make available offline), the card back (due date, comments),
search, notifications, the workspace menu and settings (theme, color blind friendly
mode, label names on card fronts, offline boards, sync queue, log out).

Modules: `model` (state, content pools), `screens` (activities and dialogs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.prompts import NotificationPermission, WhatsNew
from mobile_gym.simulator.apps.trello.model import (
    BOARD_POOL, COMMENT_POOL, DUE_POOL, NOTE_TEXTS, PEOPLE, TEMPLATES, THEMES, VISIBILITIES, WHEN_POOL,
    WORKSPACE, WORKSPACE_POOL, Board, BoardList, Card, Notification, TrelloState,
)
from mobile_gym.simulator.apps.trello.screens import (
    BLUE, PKG, HomeActivity, WelcomeActivity,
)

__all__ = ["Board", "BoardList", "Card", "Notification", "Trello", "TrelloState"]

BOARD_FIELDS = {"name", "workspace", "visibility", "lists", "starred", "template", "offline", "pinned", "colour"}
LIST_FIELDS = {"name", "cards", "archived"}
CARD_FIELDS = {"title", "due", "comments", "labels"}


class Trello(App):
    package = PKG
    label = "Trello"
    key = "trello"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "app"
    color = (0, 121, 191)
    State = TrelloState
    stream = 4  # added after the first apps: a random stream of its own

    def main(self) -> Activity:
        return HomeActivity(self) if self.state.signed_in else WelcomeActivity(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Other boards (which, their order, starred ones, due dates, comments), maybe a
        second workspace, and the notifications (who, what, when)."""
        picks = [int(i) for i in rng.choice(len(BOARD_POOL), size=int(rng.integers(2, 5)), replace=False)]
        second = WORKSPACE_POOL[int(rng.integers(len(WORKSPACE_POOL)))] if rng.random() < 0.5 else ""
        boards = []
        for n, i in enumerate(picks):
            name, lists = BOARD_POOL[i]
            board_lists = []
            for list_name, titles in lists.items():
                cards = []
                for title in titles:
                    card = Card(title, due=DUE_POOL[int(rng.integers(len(DUE_POOL)))])
                    if rng.random() < 0.3:
                        card.comments.append(COMMENT_POOL[int(rng.integers(len(COMMENT_POOL)))])
                    if rng.random() < 0.3:
                        card.labels.append(("Priority", "Design", "Bug")[int(rng.integers(3))])
                    cards.append(card)
                board_lists.append(BoardList(list_name, cards))
            workspace = second if second and n == len(picks) - 1 else WORKSPACE
            boards.append(Board(name, workspace=workspace, lists=board_lists, starred=bool(rng.random() < 0.3),
                                colour=int(rng.integers(9))))
        self.state.boards = boards
        self.state.workspaces = [WORKSPACE] + ([second] if second else [])
        k = int(rng.integers(0, 6))
        whens = sorted(int(i) for i in rng.choice(len(WHEN_POOL), size=k, replace=False))
        self.state.notifications = [
            Notification(PEOPLE[int(rng.integers(len(PEOPLE)))], NOTE_TEXTS[int(rng.integers(len(NOTE_TEXTS)))],
                         boards[int(rng.integers(len(boards)))].name, WHEN_POOL[w], unread=bool(rng.random() < 0.5))
            for w in whens]

    def popups(self, activity: Activity) -> list[Dialog]:
        """The notification-permission prompt and a "what's new" sheet on the home."""
        if isinstance(activity, HomeActivity):
            return [NotificationPermission("Trello", activity.allow_notifications, BLUE), WhatsNew(
                PKG, "What's new in Trello", "Add cards faster with the new quick-add bar, and find any board "
                "from the redesigned search.", icon="star", color=BLUE)]
        return []

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: ``boards`` as mappings {name, workspace, visibility, starred, template,
        offline, pinned, colour, lists: [{name, archived, cards: [title | {title, due,
        comments, labels}]}]} go above the boards there are (a board of the same name is
        replaced); the other fields as they are, ``theme`` one of THEMES."""
        values = dict(values)
        boards = values.pop("boards", None)
        super().configure(values)
        s = self.state
        if boards is not None:
            if not isinstance(boards, (list, tuple)):
                raise SimulatorError(f"trello 'boards' must be a list, got {boards!r}")
            given = [_board(b) for b in boards]
            names = {b.name for b in given}
            s.boards = given + [b for b in s.boards if b.name not in names]
        if s.theme not in THEMES:
            raise SimulatorError(f"trello theme must be one of {list(THEMES)}, got {s.theme!r}")
        if not s.workspaces or not all(isinstance(w, str) for w in s.workspaces):
            raise SimulatorError(f"trello workspaces must be a non-empty list of names, got {s.workspaces!r}")
        for b in s.boards:
            if b.workspace not in s.workspaces:
                raise SimulatorError(f"trello board {b.name!r} is in workspace {b.workspace!r}, "
                                     f"not one of {list(s.workspaces)}")


def _check(value: Any, fields: set[str], what: str, key: str) -> dict:
    if isinstance(value, str):
        return {key: value}
    if not isinstance(value, Mapping) or not isinstance(value.get(key), str):
        raise SimulatorError(f"trello {what} must be a mapping with a '{key}', got {value!r}")
    unknown = set(value) - fields
    if unknown:
        raise SimulatorError(f"trello {what} has no field(s) {sorted(unknown)}; known: {sorted(fields)}")
    return dict(value)


def _typed(obj: Any, name: str, given: Any, what: str) -> None:
    default = getattr(obj, name)
    if isinstance(default, list):
        if not isinstance(given, (list, tuple)) or not all(isinstance(x, str) for x in given):
            raise SimulatorError(f"trello {what} field {name!r} expects a list of texts, got {given!r}")
        given = list(given)
    elif isinstance(given, bool) != isinstance(default, bool) or not isinstance(given, type(default)):
        raise SimulatorError(f"trello {what} field {name!r} expects {type(default).__name__}, got {given!r}")
    setattr(obj, name, given)


def _made(cls: type, value: Any, fields: set[str], what: str, key: str, part: str = "",
          make_part: Callable[[Any], Any] | None = None) -> Any:
    """A ``cls`` from a setup mapping (or its ``key`` alone, as text): the items of its list
    ``part`` made by ``make_part``, its other fields type-checked."""
    value = _check(value, fields, what, key)
    made = cls(value.pop(key))
    if part:
        items = value.pop(part, [])
        if not isinstance(items, (list, tuple)):
            raise SimulatorError(f"trello {what} '{part}' must be a list, got {items!r}")
        setattr(made, part, [make_part(x) for x in items])
    for name, given in value.items():
        _typed(made, name, given, what)
    return made


def _card(value: Any) -> Card:
    return _made(Card, value, CARD_FIELDS, "card", "title")


def _list(value: Any) -> BoardList:
    return _made(BoardList, value, LIST_FIELDS, "list", "name", "cards", _card)


def _board(value: Any) -> Board:
    board = _made(Board, value, BOARD_FIELDS, "board", "name", "lists", _list)
    if board.visibility not in VISIBILITIES:
        raise SimulatorError(f"trello board visibility must be one of {list(VISIBILITIES)}, got {board.visibility!r}")
    if board.template and board.template not in TEMPLATES:
        raise SimulatorError(f"trello board template must be one of {list(TEMPLATES)}, got {board.template!r}")
    return board
