"""Oracles of Gmail tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


@oracle("gmail.inbox_shown")
def _inbox_shown(phone: SimulatedDevice) -> bool:
    """The inbox has been shown (Gmail opens to it)."""
    return "inbox" in phone.app_state("gmail").visited


@oracle("gmail.spam_emptied")
def _spam_emptied(phone: SimulatedDevice) -> bool:
    """No conversation is left in Spam (deleted forever)."""
    s = phone.app_state("gmail")
    return s.spam_emptied > 0 and not any(m.folder == "spam" for m in s.messages)


@oracle("gmail.one_deleted")
def _one_deleted(phone: SimulatedDevice) -> bool:
    """Exactly one conversation has been moved to Trash."""
    return len(set(phone.app_state("gmail").deleted)) == 1


@oracle("gmail.all_mail_shown")
def _all_mail_shown(phone: SimulatedDevice) -> bool:
    """The All mail folder has been opened."""
    return "all" in phone.app_state("gmail").visited


@oracle("gmail.moved_to_category")
def _moved_to_category(phone: SimulatedDevice) -> bool:
    """A conversation has been moved to another inbox category."""
    s = phone.app_state("gmail")
    return any(s.message(mid) is not None and s.message(mid).category == to for mid, _, to in s.moved)


@oracle("gmail.starred_search_shown")
def _starred_search_shown(phone: SimulatedDevice) -> bool:
    """A search for starred mail ("is:starred") has been made."""
    return "search:starred" in phone.app_state("gmail").visited


@oracle("gmail.notifications_off")
def _notifications_off(phone: SimulatedDevice) -> bool:
    return phone.app_state("gmail").notifications == "none"


@oracle("gmail.one_starred")
def _one_starred(phone: SimulatedDevice) -> bool:
    """A conversation the user starred is starred."""
    s = phone.app_state("gmail")
    return any(s.message(mid) is not None and s.message(mid).starred for mid in s.starred_by_user)
