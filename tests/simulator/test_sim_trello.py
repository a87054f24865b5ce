"""The simulated Trello, driven like an agent would: taps on dump nodes, typing, BACK;
oracles read `app_state("trello")`. Also the crawler and retained-mode checks the shared
suites run for the other modelled apps."""

from __future__ import annotations

from functools import partial

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, resolve_package
from phone import EVERY_PROFILE, find, frames, launch, node, popup_texts, swipe_up, tap, texts
from test_sim_screens import crawl

PKG = "com.trello"
ID = PKG + ":id/"
HOME = f"{PKG}/{PKG}.feature.home.HomeActivity"
BOARD = f"{PKG}/{PKG}.feature.board.BoardActivity"
CARD = f"{PKG}/{PKG}.feature.card.back.CardBackActivity"
SETTINGS = f"{PKG}/{PKG}.feature.settings.SettingsActivity"
WELCOME = f"{PKG}/{PKG}.feature.authentication.WelcomeActivity"
SCHOOL = {"name": "School", "lists": [{"name": "To Do", "cards": ["Task 1"]}, {"name": "Doing"}]}


trello = partial(launch, "trello")


def state(phone: SimulatedDevice):
    return phone.app_state("trello")


def board(phone: SimulatedDevice, name: str):
    return next(b for b in state(phone).boards if b.name == name)


def test_installed_on_a_fresh_phone_and_opens_from_the_drawer() -> None:
    assert PKG in DEFAULT_INSTALLED and resolve_package("Trello") == PKG
    phone = SimulatedDevice(seed=0, dynamics="none")
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Trello", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity() == HOME and state(phone).opened
    assert node(phone, resource_id=ID + "toolbar_title").text == "Boards"
    assert node(phone, resource_id=ID + "workspace_name").text == "agentian's workspace"


def test_create_a_board_then_a_list_and_a_card() -> None:
    phone = trello()
    tap(phone, content_desc="Create")
    tap(phone, text="Create board")
    assert phone.runtime.keyboard and node(phone, resource_id=ID + "board_name_input").flags["focused"]
    tap(phone, text="Create")  # no name yet: nothing happens
    assert board_names(phone) == ["Website Redesign", "Weekly Planning"]
    phone.perform(Action.type_text("School"))
    tap(phone, text="Create")
    assert phone.foreground_activity() == BOARD and node(phone, resource_id=ID + "board_name").text == "School"
    assert node(phone, resource_id=ID + "empty_board")
    tap(phone, content_desc="Add list")
    phone.perform(Action.type_text("To Do"))
    tap(phone, content_desc="Save")
    assert [lst.name for lst in board(phone, "School").lists] == ["To Do"]
    tap(phone, content_desc="Add card")
    phone.perform(Action.type_text("Task 1"))
    phone.perform(Action.enter())
    assert [c.title for c in board(phone, "School").lists[0].cards] == ["Task 1"]
    assert node(phone, text="Task 1", resource_id=ID + "card_name")
    assert not find(phone, resource_id=ID + "add_card_edit_text") and not phone.runtime.keyboard
    phone.perform(Action.back())
    assert phone.foreground_activity() == HOME and "School" in texts(phone)


def board_names(phone: SimulatedDevice) -> list[str]:
    return [b.name for b in state(phone).boards]


def test_cancel_adding_a_card_keeps_the_board() -> None:
    phone = trello(boards=[SCHOOL])
    tap(phone, text="School", resource_id=ID + "board_name")
    second = find(phone, content_desc="Add card")[1]  # the "Doing" list's
    phone.perform(Action.click_center(second.bounds, phone.screen_size))
    phone.perform(Action.type_text("draft"))
    tap(phone, content_desc="Cancel")
    assert [len(lst.cards) for lst in board(phone, "School").lists] == [1, 0]
    assert phone.foreground_activity() == BOARD


def test_archive_a_list_from_its_actions() -> None:
    phone = trello(boards=[SCHOOL])
    tap(phone, text="School", resource_id=ID + "board_name")
    tap(phone, content_desc="List actions")
    assert node(phone, resource_id=ID + "list_actions_title").text == "To Do"
    tap(phone, text="Archive list")
    assert [n.text for n in find(phone, resource_id=ID + "list_name")] == ["Doing"]
    assert board(phone, "School").lists[0].archived and list(state(phone).archived_lists) == [("School", "To Do")]
    assert node(phone, resource_id=ID + "snackbar_text").text == "List archived"


def test_templates_make_a_board_with_their_lists() -> None:
    phone = trello()
    tap(phone, content_desc="Create")
    tap(phone, text="Browse templates", resource_id=ID + "browse_templates")
    tap(phone, text="Basic Board")
    assert node(phone, resource_id=ID + "board_name_input").text == "Basic Board"
    tap(phone, text="Create")
    b = board(phone, "Basic Board")
    assert b.template == "Basic Board" and [lst.name for lst in b.lists] == ["To Do", "Doing", "Done"]
    assert [n.text for n in find(phone, resource_id=ID + "list_name")] == ["To Do", "Doing", "Done"]


def test_visibility_and_workspace_pickers() -> None:
    phone = trello(workspaces=["agentian's workspace", "Side Projects"])
    tap(phone, content_desc="Create")
    tap(phone, text="Create board")
    phone.perform(Action.type_text("Trip"))
    tap(phone, resource_id=ID + "visibility_spinner")
    tap(phone, text="Private")
    tap(phone, resource_id=ID + "workspace_spinner")
    tap(phone, text="Side Projects")
    tap(phone, text="Create")
    b = board(phone, "Trip")
    assert (b.visibility, b.workspace) == ("Private", "Side Projects")


def test_due_date_and_comment_on_a_card() -> None:
    phone = trello(boards=[SCHOOL])
    tap(phone, text="School", resource_id=ID + "board_name")
    tap(phone, text="Task 1")
    assert phone.foreground_activity() == CARD
    assert node(phone, resource_id=ID + "card_location").text == "School in list To Do"
    tap(phone, content_desc="Due date")
    tap(phone, content_desc="Next day")
    tap(phone, text="Done")
    assert board(phone, "School").lists[0].cards[0].due == "Nov 27, 9:00 AM"
    assert node(phone, resource_id=ID + "due_date_text").text == "Due Nov 27, 9:00 AM"
    tap(phone, resource_id=ID + "comment_edit_text")
    phone.perform(Action.type_text("Hello"))
    tap(phone, content_desc="Send comment")
    assert list(board(phone, "School").lists[0].cards[0].comments) == ["Hello"]
    assert node(phone, resource_id=ID + "comment_text").text == "Hello"
    phone.perform(Action.back())
    assert node(phone, resource_id=ID + "badge_comments").text == "1 comment"
    assert node(phone, resource_id=ID + "card_due_date").text == "Due Nov 27, 9:00 AM"


def test_board_menu_copy_link_pin_and_offline() -> None:
    phone = trello(boards=[SCHOOL])
    tap(phone, text="School", resource_id=ID + "board_name")
    tap(phone, content_desc="Board menu")
    tap(phone, text="Share")
    tap(phone, text="Copy link")
    assert list(state(phone).copied_links) == ["School"]
    assert node(phone, resource_id=ID + "snackbar_text").text == "Link copied to clipboard"
    tap(phone, content_desc="Board menu")
    tap(phone, text="Pin to home screen")
    tap(phone, text="Cancel")
    assert not board(phone, "School").pinned
    tap(phone, content_desc="Board menu")
    tap(phone, text="Pin to home screen")
    tap(phone, text="Add to home screen")
    assert board(phone, "School").pinned
    tap(phone, content_desc="Board menu")
    tap(phone, text="Make available offline")
    assert board(phone, "School").offline and node(phone, resource_id=ID + "offline_switch").flags["checked"]
    phone.perform(Action.back())  # closes the menu
    phone.perform(Action.back())
    tap(phone, content_desc="Open navigation drawer")
    tap(phone, text="Offline boards")
    assert [n.text for n in find(phone, resource_id=ID + "offline_board_name")] == ["School"]


def test_search_shows_results_for_the_query_searched() -> None:
    phone = trello(boards=[{"name": "Team Goals"}])
    tap(phone, content_desc="Search")
    phone.perform(Action.type_text("Team Goals"))
    assert not find(phone, resource_id=ID + "section_header")  # not searched yet
    phone.perform(Action.enter())
    assert list(state(phone).searches) == ["Team Goals"]
    assert [n.text for n in find(phone, resource_id=ID + "board_name")] == ["Team Goals"]
    tap(phone, resource_id=ID + "search_src_text")
    phone.perform(Action.type_text("x"))  # the field no longer holds the query searched
    assert not find(phone, resource_id=ID + "board_name")
    tap(phone, content_desc="Clear query")
    phone.perform(Action.type_text("website"))
    phone.perform(Action.enter())
    assert [n.text for n in find(phone, resource_id=ID + "board_name")] == ["Website Redesign"]


def test_notifications_and_workspace_menu() -> None:
    phone = trello()
    tap(phone, content_desc="Workspace menu")
    assert node(phone, resource_id=ID + "workspace_menu_title").text == "agentian's workspace"
    phone.perform(Action.back())
    tap(phone, content_desc="Notifications")
    assert list(state(phone).visited) == ["workspace_menu", "notifications"]
    assert len(find(phone, resource_id=ID + "notification_row")) == 2
    tap(phone, text="Unread")
    assert len(find(phone, resource_id=ID + "notification_row")) == 1
    tap(phone, content_desc="Mark all as read")
    assert node(phone, resource_id=ID + "empty_notifications")


def test_settings_theme_switches_and_sync_pages() -> None:
    phone = trello()
    tap(phone, content_desc="Open navigation drawer")
    tap(phone, text="Settings")
    assert phone.foreground_activity() == SETTINGS
    tap(phone, text="Theme")
    tap(phone, text="Dark")
    assert state(phone).theme == "Dark" and "Dark" in texts(phone)
    tap(phone, text="Color blind friendly mode")
    tap(phone, text="Show label names on card front")
    assert state(phone).color_blind and state(phone).show_label_names
    swipe_up(phone)
    tap(phone, text="Sync queue")
    assert node(phone, resource_id=ID + "sync_queue_empty_title")
    phone.perform(Action.back())
    assert phone.foreground_activity() == SETTINGS
    assert list(state(phone).visited) == ["settings", "sync_queue"]


def test_log_out_asks_first_and_the_app_then_opens_logged_out() -> None:
    phone = trello()
    tap(phone, content_desc="Open navigation drawer")
    tap(phone, text="Settings")
    for _ in range(3):
        swipe_up(phone)
    tap(phone, text="Log out")
    tap(phone, text="Cancel")
    assert state(phone).signed_in
    tap(phone, text="Log out")
    tap(phone, text="Log out", resource_id="android:id/button1")
    assert not state(phone).signed_in and phone.foreground_activity() == WELCOME
    phone.perform(Action.back())  # leaves the app: nothing of the signed-in app is left
    assert phone.foreground_activity().startswith("com.google.android.apps.nexuslauncher")
    phone.runtime.launch(PKG)
    assert phone.foreground_activity() == WELCOME
    tap(phone, text="Log in")
    tap(phone, text="Continue")
    assert state(phone).signed_in and phone.foreground_activity() == HOME


def test_back_closes_the_drawer_first() -> None:
    phone = trello()
    tap(phone, content_desc="Open navigation drawer")
    assert node(phone, resource_id=ID + "username").text == "@agentian"
    phone.perform(Action.back())
    assert phone.foreground_activity() == HOME and node(phone, resource_id=ID + "fab")


def test_default_dynamics_seed_content_and_popups() -> None:
    seen = set()
    for seed in range(6):
        s = state(trello(seed=seed, dynamics="default"))
        seen.add(tuple((b.name, b.starred, tuple(c.due for c in b.cards())) for b in s.boards))
        assert not {"School", "Team Goals", "Basic Board"} & {b.name for b in s.boards}
        assert not any("Hello" in c.comments for b in s.boards for c in b.cards())
    assert len(seen) > 3
    popups = {}
    for seed in range(12):
        phone = trello(seed=seed, dynamics="default")
        shown = popup_texts(phone, POPUP_TITLES)
        if shown:
            popups.setdefault(shown[0], seed)
            phone.perform(Action.back())  # BACK closes the popup, not the app
            assert phone.foreground_activity() == HOME and not popup_texts(phone, POPUP_TITLES)
            for _ in range(3):  # the app opened again may show the next one
                phone.perform(Action.back())
                phone.runtime.launch(PKG)
                shown = popup_texts(phone, POPUP_TITLES)
                if shown:
                    popups.setdefault(shown[0], seed)
    assert set(popups) == set(POPUP_TITLES), popups


POPUP_TITLES = ("Allow Trello to send you notifications?", "What's new in Trello")


def test_setup_is_checked() -> None:
    with pytest.raises(SimulatorError, match="theme"):
        trello(theme="Pink")
    with pytest.raises(SimulatorError, match="no field"):
        trello(boards=[{"name": "X", "colour_name": "red"}])
    with pytest.raises(SimulatorError, match="visibility"):
        trello(boards=[{"name": "X", "visibility": "Secret"}])
    with pytest.raises(SimulatorError, match="expects"):
        trello(boards=[{"name": "X", "lists": [{"name": "L", "cards": [{"title": "c", "due": 3}]}]}])
    with pytest.raises(SimulatorError, match="workspace"):
        trello(boards=[{"name": "X", "workspace": "Nope"}])
    with pytest.raises(SimulatorError, match="has no state field"):
        trello(dark=True)
    phone = trello(seed=3, dynamics="default", boards=[SCHOOL])
    assert state(phone).boards[0].name == "School" and len(state(phone).boards) > 1  # above the seeded ones


def test_every_reachable_screen_has_a_valid_dump() -> None:
    assert len(crawl("trello", seed=5, limit=20)) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_on_every_profile(profile: str) -> None:
    screens = crawl("trello", dynamics="default", seed=5, profile=profile, limit=50)
    assert len(screens) >= 40
    assert crawl("trello", dynamics="default", seed=5, profile=profile, limit=12) == dict(
        list(screens.items())[:12])  # deterministic: the same screens, in the same order


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_screens_are_deterministic_on_every_profile(profile: str) -> None:
    def run() -> list:
        return frames(trello(seed=2, dynamics="default", profile=profile, boards=[SCHOOL]),
                      (Action.back(), Action.back(), Action.click(0.5, 0.25), Action.click(0.5, 0.2),
                       Action.back(), Action.click(0.9, 0.9), Action.type_text("x"), Action.back()))
    assert run() == run()
