"""Oracles of Evernote tasks: predicates on `app_state("evernote")`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


def _state(phone: SimulatedDevice):
    return phone.app_state("evernote")


@oracle("evernote.opened")
def _opened(phone: SimulatedDevice) -> bool:
    """Evernote has been opened (it opens to Home)."""
    return _state(phone).opened


@oracle("evernote.note_created")
def _note_created(phone: SimulatedDevice) -> bool:
    """The user created a new note."""
    return bool(_state(phone).created)


@oracle("evernote.customize_opened")
def _customize_opened(phone: SimulatedDevice) -> bool:
    return "customize" in _state(phone).visited


@oracle("evernote.my_tasks_widget_added")
def _my_tasks_widget_added(phone: SimulatedDevice) -> bool:
    """'My Tasks' is among Home's saved widgets."""
    return "My Tasks" in _state(phone).widgets


@oracle("evernote.checkbox_inserted")
def _checkbox_inserted(phone: SimulatedDevice) -> bool:
    """A note (not in Trash) holds a checkbox."""
    return any(n.checkboxes() for n in _state(phone).notes if not n.trashed)


@oracle("evernote.todo_template_used")
def _todo_template_used(phone: SimulatedDevice) -> bool:
    """A note (not in Trash) has had the To-Do List template applied."""
    return any(n.template == "To-Do List" for n in _state(phone).notes if not n.trashed)


@oracle("evernote.note_offline")
def _note_offline(phone: SimulatedDevice) -> bool:
    """A note is available offline."""
    return any(n.offline for n in _state(phone).notes if not n.trashed)


@oracle("evernote.tasks_viewed")
def _tasks_viewed(phone: SimulatedDevice) -> bool:
    return "tasks" in _state(phone).visited


@oracle("evernote.note_trashed")
def _note_trashed(phone: SimulatedDevice) -> bool:
    """A note has been moved to Trash (and not restored)."""
    return bool(_state(phone).trashed)


@oracle("evernote.settings_opened")
def _settings_opened(phone: SimulatedDevice) -> bool:
    return "settings" in _state(phone).visited


@oracle("evernote.dark_theme")
def _dark_theme(phone: SimulatedDevice) -> bool:
    return _state(phone).theme == "Dark"


@oracle("evernote.tags_viewed")
def _tags_viewed(phone: SimulatedDevice) -> bool:
    return "tags" in _state(phone).visited


@oracle("evernote.logged_out")
def _logged_out(phone: SimulatedDevice) -> bool:
    return not _state(phone).signed_in


@oracle("evernote.background_changed")
def _background_changed(phone: SimulatedDevice) -> bool:
    """Home's saved background is no longer the default one."""
    return _state(phone).background != "Default"


@oracle("evernote.notes_widget_removed")
def _notes_widget_removed(phone: SimulatedDevice) -> bool:
    return "Notes" not in _state(phone).widgets


@oracle("evernote.recently_captured_first")
def _recently_captured_first(phone: SimulatedDevice) -> bool:
    """'Recently Captured' is Home's first saved widget."""
    return _state(phone).widgets[0] == "Recently Captured"


@oracle("evernote.save_photos_on")
def _save_photos_on(phone: SimulatedDevice) -> bool:
    return _state(phone).save_photos


@oracle("evernote.orbs_create_button")
def _orbs_create_button(phone: SimulatedDevice) -> bool:
    return _state(phone).create_button == "Orbs"


@oracle("evernote.synced")
def _synced(phone: SimulatedDevice) -> bool:
    """"Sync now" has been tapped."""
    return _state(phone).syncs > 0
