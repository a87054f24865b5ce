"""Oracles of Pinterest tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice

PROFILE_LINK = "https://pin.it/agentian"


def _state(phone: SimulatedDevice):
    return phone.app_state("pinterest")


def _visited(phone: SimulatedDevice, page: str) -> bool:
    return page in _state(phone).visited


@oracle("pinterest.opened")
def _opened(phone: SimulatedDevice) -> bool:
    """The app was opened (signed in, it shows the home feed)."""
    return _state(phone).opened


@oracle("pinterest.searched_interior_design_ideas")
def _searched_interior(phone: SimulatedDevice) -> bool:
    return any(q.casefold() == "interior design ideas" for q in _state(phone).searches)


@oracle("pinterest.following_wendys_lookbook")
def _following_wendy(phone: SimulatedDevice) -> bool:
    """Wendy's Lookbook, found through Search, is followed."""
    s = _state(phone)
    user = s.user("Wendy's Lookbook")
    return user is not None and user.following and user.name in s.found_users


@oracle("pinterest.settings_opened")
def _settings_opened(phone: SimulatedDevice) -> bool:
    return _visited(phone, "settings")


@oracle("pinterest.board_diy_crafts_created")
def _board_diy_crafts(phone: SimulatedDevice) -> bool:
    return any(b.name.casefold() == "diy crafts" for b in _state(phone).boards)


@oracle("pinterest.pin_link_copied")
def _pin_link_copied(phone: SimulatedDevice) -> bool:
    """The link of a pin (not of a profile) was copied."""
    s = _state(phone)
    pins = {f"https://pin.it/{p.id}" for p in s.pins} | {f"https://pin.it/{p.id}" for p in s.own_pins}
    return any(link in pins for link in s.copied)


@oracle("pinterest.pin_saved")
def _pin_saved(phone: SimulatedDevice) -> bool:
    """A pin of the feed is saved to the profile."""
    return any(p.saved for p in _state(phone).pins)


@oracle("pinterest.comments_viewed")
def _comments_viewed(phone: SimulatedDevice) -> bool:
    return bool(_state(phone).comments_viewed)


@oracle("pinterest.own_pins_viewed")
def _own_pins_viewed(phone: SimulatedDevice) -> bool:
    """The Saved page's "Pins" tab (your pins) was opened."""
    return _visited(phone, "saved_pins")


@oracle("pinterest.profile_opened")
def _profile_opened(phone: SimulatedDevice) -> bool:
    return _visited(phone, "profile")


@oracle("pinterest.profile_link_copied")
def _profile_link_copied(phone: SimulatedDevice) -> bool:
    return PROFILE_LINK in _state(phone).copied


@oracle("pinterest.following_list_viewed")
def _following_viewed(phone: SimulatedDevice) -> bool:
    return _visited(phone, "following")


@oracle("pinterest.home_refreshed")
def _home_refreshed(phone: SimulatedDevice) -> bool:
    return _state(phone).refreshes > 0


@oracle("pinterest.board_opened")
def _board_opened(phone: SimulatedDevice) -> bool:
    """One of your boards was opened."""
    s = _state(phone)
    return any(s.board(name) is not None for name in s.opened_boards)


@oracle("pinterest.updates_viewed")
def _updates_viewed(phone: SimulatedDevice) -> bool:
    return _visited(phone, "updates")


@oracle("pinterest.inbox_viewed")
def _inbox_viewed(phone: SimulatedDevice) -> bool:
    return _visited(phone, "inbox")


@oracle("pinterest.updates_filtered_by_comments")
def _filtered_by_comments(phone: SimulatedDevice) -> bool:
    return _state(phone).updates_filter == "Comments"


@oracle("pinterest.profile_private")
def _profile_private(phone: SimulatedDevice) -> bool:
    return _state(phone).private_profile


@oracle("pinterest.diy_board_searched_and_opened")
def _diy_board(phone: SimulatedDevice) -> bool:
    """A board was opened from "Search your Pins" with "DIY" typed, and it is a DIY board."""
    s = _state(phone)
    return any("diy" in q.casefold() for q in s.board_searches)  # the list shows only boards named so


@oracle("pinterest.logged_out")
def _logged_out(phone: SimulatedDevice) -> bool:
    return not _state(phone).logged_in


@oracle("pinterest.boards_sorted_a_to_z")
def _sorted_a_to_z(phone: SimulatedDevice) -> bool:
    return _state(phone).board_sort == "A to Z"


@oracle("pinterest.privacy_and_data_viewed")
def _privacy_viewed(phone: SimulatedDevice) -> bool:
    return _visited(phone, "Privacy and data")


@oracle("pinterest.home_feed_tuner_viewed")
def _tuner_viewed(phone: SimulatedDevice) -> bool:
    return _visited(phone, "Home feed tuner")


@oracle("pinterest.social_permissions_viewed")
def _social_viewed(phone: SimulatedDevice) -> bool:
    return _visited(phone, "Social permissions")


@oracle("pinterest.filter_comments_on")
def _filter_comments_on(phone: SimulatedDevice) -> bool:
    return _state(phone).filter_comments


@oracle("pinterest.account_management_viewed")
def _account_viewed(phone: SimulatedDevice) -> bool:
    return _visited(phone, "Account management")
