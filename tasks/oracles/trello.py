"""Oracles of Trello tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


def _state(phone: SimulatedDevice):
    return phone.app_state("trello")


def _board(phone: SimulatedDevice, name: str):
    return next((b for b in _state(phone).boards if b.name == name), None)


@oracle("trello.opened")
def _opened(phone: SimulatedDevice) -> bool:
    """The app was opened on the boards home, signed in."""
    return _state(phone).opened


@oracle("trello.school_board_created")
def _school_board_created(phone: SimulatedDevice) -> bool:
    return _board(phone, "School") is not None


@oracle("trello.school_todo_list_added")
def _school_todo_list_added(phone: SimulatedDevice) -> bool:
    b = _board(phone, "School")
    return b is not None and any(lst.name == "To Do" and not lst.archived for lst in b.lists)


@oracle("trello.school_todo_task1_added")
def _school_todo_task1_added(phone: SimulatedDevice) -> bool:
    """The School board's open "To Do" list holds a card "Task 1"."""
    b = _board(phone, "School")
    return b is not None and any(lst.name == "To Do" and not lst.archived and any(c.title == "Task 1" for c in lst.cards)
                                 for lst in b.lists)


@oracle("trello.school_todo_archived")
def _school_todo_archived(phone: SimulatedDevice) -> bool:
    """School's "To Do" list is archived; the board and its other lists are still there."""
    b = _board(phone, "School")
    return (b is not None and any(lst.name == "To Do" for lst in b.lists)
            and all(lst.archived for lst in b.lists if lst.name == "To Do")
            and any(not lst.archived for lst in b.lists if lst.name != "To Do"))


def _searched(phone: SimulatedDevice, query: str) -> bool:
    return any(q.strip().lower() == query.lower() for q in _state(phone).searches)


@oracle("trello.searched_website")
def _searched_website(phone: SimulatedDevice) -> bool:
    return _searched(phone, "Website")


@oracle("trello.searched_team_goals")
def _searched_team_goals(phone: SimulatedDevice) -> bool:
    return _searched(phone, "Team Goals")


@oracle("trello.school_card_due_set")
def _school_card_due_set(phone: SimulatedDevice) -> bool:
    """A card of the School board has a due date."""
    b = _board(phone, "School")
    return b is not None and any(c.due for lst in b.lists for c in lst.cards)


@oracle("trello.hello_commented")
def _hello_commented(phone: SimulatedDevice) -> bool:
    """Some card has the comment "Hello"."""
    return any(text.strip() == "Hello" for b in _state(phone).boards for lst in b.lists for c in lst.cards
               for text in c.comments)


@oracle("trello.link_copied")
def _link_copied(phone: SimulatedDevice) -> bool:
    return bool(_state(phone).copied_links)


@oracle("trello.notifications_viewed")
def _notifications_viewed(phone: SimulatedDevice) -> bool:
    return "notifications" in _state(phone).visited


@oracle("trello.settings_opened")
def _settings_opened(phone: SimulatedDevice) -> bool:
    return "settings" in _state(phone).visited


@oracle("trello.dark_theme")
def _dark_theme(phone: SimulatedDevice) -> bool:
    return _state(phone).theme == "Dark"


@oracle("trello.basic_board_created")
def _basic_board_created(phone: SimulatedDevice) -> bool:
    """A board made from the "Basic Board" template exists."""
    return any(b.template == "Basic Board" for b in _state(phone).boards)


@oracle("trello.board_pinned")
def _board_pinned(phone: SimulatedDevice) -> bool:
    return any(b.pinned for b in _state(phone).boards)


@oracle("trello.workspace_menu_opened")
def _workspace_menu_opened(phone: SimulatedDevice) -> bool:
    return "workspace_menu" in _state(phone).visited


@oracle("trello.color_blind_on")
def _color_blind_on(phone: SimulatedDevice) -> bool:
    return _state(phone).color_blind


@oracle("trello.offline_boards_viewed")
def _offline_boards_viewed(phone: SimulatedDevice) -> bool:
    return "offline_boards" in _state(phone).visited


@oracle("trello.logged_out")
def _logged_out(phone: SimulatedDevice) -> bool:
    return not _state(phone).signed_in


@oracle("trello.sync_queue_viewed")
def _sync_queue_viewed(phone: SimulatedDevice) -> bool:
    return "sync_queue" in _state(phone).visited


@oracle("trello.show_label_names_on")
def _show_label_names_on(phone: SimulatedDevice) -> bool:
    return _state(phone).show_label_names
