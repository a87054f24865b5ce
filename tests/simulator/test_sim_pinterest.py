"""The simulated Pinterest, driven like an agent would: taps on dump nodes, typing,
BACK; oracles read `app_state("pinterest")`. Also the crawler and retained-mode checks
the shared suites run for the other modelled apps."""

from __future__ import annotations

from functools import partial

import pytest
from phone import EVERY_PROFILE, find, frames, launch, node, popup_texts, swipe_up, tap
from test_sim_screens import crawl

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, FACTORIES, resolve_package
from mobile_gym.simulator.apps.pinterest import Pinterest

PKG = "com.pinterest"
ID = PKG + ":id/"
MAIN = f"{PKG}/{PKG}.activity.task.activity.MainActivity"
UNAUTH = f"{PKG}/{PKG}.activity.unauth.UnauthActivity"


pinterest = partial(launch, "pinterest")


def state(phone: SimulatedDevice):
    return phone.app_state("pinterest")


def test_installed_on_a_fresh_phone_in_place_of_the_store_listing() -> None:
    assert PKG in DEFAULT_INSTALLED and FACTORIES[PKG] is Pinterest and resolve_package("Pinterest") == PKG
    phone = SimulatedDevice(seed=0, dynamics="none")
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Pinterest", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity() == MAIN and state(phone).opened
    assert node(phone, content_desc="Home", resource_id=ID + "bottom_nav_home").flags["selected"]
    assert len(find(phone, resource_id=ID + "pin_cell")) >= 3


def test_a_pin_closeup_saves_copies_its_link_and_shows_comments() -> None:
    phone = pinterest()
    first = state(phone).pins[0]
    tap(phone, resource_id=ID + "pin_cell")
    assert node(phone, resource_id=ID + "closeup_title").text == first.title
    assert state(phone).viewed_pins == (first.id,)
    tap(phone, content_desc="Send")
    tap(phone, text="Copy link")
    assert state(phone).copied == (first.link,)
    assert node(phone, resource_id=ID + "toast_text").text == "Link copied"
    tap(phone, text="Save", resource_id=ID + "closeup_save_button")
    assert state(phone).pin(first.id).saved and node(phone, resource_id=ID + "closeup_save_button").text == "Saved"
    assert not find(phone, text="Link copied")  # the in-app toast lasts until the next tap
    tap(phone, resource_id=ID + "closeup_comments")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Comments"
    assert [n.text for n in find(phone, resource_id=ID + "comment_text")] == [c.text for c in first.comments]
    assert state(phone).comments_viewed == (first.id,)
    tap(phone, resource_id=ID + "comment_composer")
    phone.perform(Action.type_text("Lovely"))
    phone.perform(Action.enter())
    assert state(phone).pin(first.id).comments[-1].text == "Lovely"


def test_home_again_refreshes_the_feed() -> None:
    phone = pinterest()
    before = [p.id for p in state(phone).pins]
    tap(phone, content_desc="Search")
    tap(phone, content_desc="Home")  # from another tab: back to the feed, no refresh
    assert state(phone).refreshes == 0 and not find(phone, content_desc="Refreshing")
    tap(phone, content_desc="Home")
    assert state(phone).refreshes == 1 and node(phone, content_desc="Refreshing")
    assert [p.id for p in state(phone).pins] != before and sorted(p.id for p in state(phone).pins) == sorted(before)


def test_search_suggestions_results_and_follow() -> None:
    phone = pinterest()
    tap(phone, content_desc="Search")
    tap(phone, resource_id=ID + "search_bar")
    phone.perform(Action.type_text("Wendy's Lookbook"))
    suggested = [n.text for n in find(phone, resource_id=ID + "typeahead_text")]
    assert suggested[:2] == ["Wendy's Lookbook", "Wendy's Lookbook ideas"] and suggested[-1] == "Wendy's Lookbook"
    assert len(find(phone, resource_id=ID + "typeahead_user")) == 1  # the profile, suggested too
    phone.perform(Action.enter())
    assert state(phone).searches == ("Wendy's Lookbook",)
    assert node(phone, resource_id=ID + "search_query").text == "Wendy's Lookbook"
    tap(phone, text="Profiles")
    assert [n.text for n in find(phone, resource_id=ID + "user_name")] == ["Wendy's Lookbook"]
    tap(phone, text="Wendy's Lookbook", resource_id=ID + "user_name")
    tap(phone, text="Follow")
    wendy = state(phone).user("Wendy's Lookbook")
    assert wendy.following and state(phone).found_users == ("Wendy's Lookbook",)
    assert node(phone, resource_id=ID + "profile_follow_button").text == "Following"
    tap(phone, text="Following")
    assert not state(phone).user("Wendy's Lookbook").following


def test_notifications_updates_filter_and_inbox() -> None:
    phone = pinterest()
    tap(phone, content_desc="Notifications")
    assert node(phone, text="Updates", resource_id=ID + "notifications_tab").flags["selected"]
    kinds = {n.content_desc for n in find(phone, resource_id=ID + "update_type_icon")}
    assert {"Comment", "Save", "Follow"} <= kinds
    tap(phone, resource_id=ID + "updates_filter_button")
    tap(phone, text="Comments")
    assert state(phone).updates_filter == "Comments"
    assert {n.content_desc for n in find(phone, resource_id=ID + "update_type_icon")} == {"Comment"}
    tap(phone, text="Inbox")
    assert node(phone, resource_id=ID + "section_title").text == "Messages"
    assert list(state(phone).visited) == ["home", "updates", "inbox"]


def test_saved_boards_sort_search_and_create() -> None:
    phone = pinterest()
    tap(phone, content_desc="Saved")
    names = [n.text for n in find(phone, resource_id=ID + "board_name")]
    assert names[0] == "Home decor" and "DIY projects" in names
    tap(phone, resource_id=ID + "board_sort_button")
    tap(phone, text="A to Z")
    assert state(phone).board_sort == "A to Z"
    assert [n.text for n in find(phone, resource_id=ID + "board_name")][:2] == ["DIY projects", "Gift ideas"]
    tap(phone, resource_id=ID + "saved_search_bar")
    phone.perform(Action.type_text("diy"))
    assert [n.text for n in find(phone, resource_id=ID + "board_name")] == ["DIY projects"]
    tap(phone, text="DIY projects")
    assert node(phone, resource_id=ID + "board_title").text == "DIY projects"
    assert state(phone).board_searches == ("diy",) and state(phone).opened_boards == ("DIY projects",)
    phone.perform(Action.back())
    phone.perform(Action.back())  # closes the search
    tap(phone, content_desc="Create", resource_id=ID + "saved_create_button")
    tap(phone, content_desc="Board")
    assert node(phone, resource_id=ID + "create_board_button").flags["enabled"] is False
    phone.perform(Action.type_text("DIY Crafts"))
    tap(phone, text="Create")
    assert node(phone, resource_id=ID + "board_title").text == "DIY Crafts"
    assert state(phone).board("DIY Crafts").created


def test_pins_tab_and_own_pin_closeup() -> None:
    phone = pinterest()
    tap(phone, content_desc="Saved")
    tap(phone, text="Pins", resource_id=ID + "saved_tab")
    assert "saved_pins" in state(phone).visited
    tap(phone, resource_id=ID + "pin_cell")
    assert node(phone, resource_id=ID + "closeup_board_name").text.startswith("Saved to ")
    assert not find(phone, resource_id=ID + "closeup_save_button")


def test_profile_following_and_share_link() -> None:
    phone = pinterest(follow=["Crafty Corner"])
    tap(phone, content_desc="Saved")
    tap(phone, content_desc="Your profile")
    assert node(phone, resource_id=ID + "profile_username").text == "@agentian"
    n = len(state(phone).following())
    assert node(phone, resource_id=ID + "profile_following").text == f"{n} following"
    tap(phone, resource_id=ID + "profile_following")
    assert "Crafty Corner" in [x.text for x in find(phone, resource_id=ID + "user_name")]
    phone.perform(Action.back())
    tap(phone, text="Share")
    tap(phone, text="Copy link")
    assert state(phone).copied == ("https://pin.it/agentian",)


def test_settings_pages_switches_and_log_out() -> None:
    phone = pinterest()
    tap(phone, content_desc="Saved")
    tap(phone, content_desc="Settings")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Your account"
    tap(phone, text="Profile visibility")
    tap(phone, content_desc="Private profile")
    assert state(phone).private_profile and not state(phone).search_privacy
    assert node(phone, content_desc="Private profile").flags["checked"]
    phone.perform(Action.back())
    tap(phone, text="Social permissions")
    tap(phone, text="Filter comments on my Pins")  # the row toggles its switch too
    assert state(phone).filter_comments
    phone.perform(Action.back())
    for _ in range(4):
        swipe_up(phone)
    tap(phone, text="Log out")
    assert phone.foreground_activity() == UNAUTH and not state(phone).logged_in
    phone.perform(Action.back())  # leaves the app; it opens signed out again
    phone.runtime.launch(PKG)
    assert phone.foreground_activity() == UNAUTH
    tap(phone, text="Log in")
    phone.perform(Action.type_text("hunter22"))
    tap(phone, text="Log in", resource_id=ID + "login_button")
    assert state(phone).logged_in and phone.foreground_activity() == MAIN


def test_default_dynamics_vary_content_and_keep_what_tasks_need() -> None:
    seen = set()
    for seed in range(6):
        s = state(pinterest(seed=seed, dynamics="default"))
        seen.add((tuple(p.id for p in s.pins), tuple(b.name for b in s.sorted_boards()), s.followers))
        assert s.board("DIY projects") is not None and s.board("DIY Crafts") is None
        assert not s.user("Wendy's Lookbook").following and not any(p.saved for p in s.pins)
        assert any(u.kind == "comment" for u in s.updates) and s.board_sort == "Last saved to"
    assert len(seen) == 6


POPUP_TITLES = ("Allow Pinterest to send you notifications?", "Tune your home feed", "Add your birthday")


def test_default_dynamics_show_popups_that_back_closes() -> None:
    popups = {}
    for seed in range(16):
        phone = pinterest(seed=seed, dynamics="default")
        for _ in range(6):
            shown = popup_texts(phone, POPUP_TITLES)
            if shown:
                popups.setdefault(shown[0], seed)
                phone.perform(Action.back())  # BACK closes the popup, not the app
                assert phone.foreground_activity() == MAIN
            phone.perform(Action.back())  # leaves the app: the tabs open again next time
            phone.runtime.launch(PKG)
        if len(popups) == len(POPUP_TITLES):
            break
    assert set(popups) == set(POPUP_TITLES), popups


def test_setup_is_checked() -> None:
    with pytest.raises(SimulatorError, match="board_sort must be one of"):
        pinterest(board_sort="Size")
    with pytest.raises(SimulatorError, match="updates_filter must be one of"):
        pinterest(updates_filter="Likes")
    with pytest.raises(SimulatorError, match="no field"):
        pinterest(boards=[{"name": "School", "colour": "red"}])
    with pytest.raises(SimulatorError, match="no user"):
        pinterest(follow=["Nobody"])
    with pytest.raises(SimulatorError, match="expects bool"):
        pinterest(private_profile="yes")
    with pytest.raises(SimulatorError, match="seeded content"):
        pinterest(pins=[])
    phone = pinterest(seed=3, dynamics="default", boards=["School", {"name": "Secret stash", "secret": True}])
    assert state(phone).board("School") is not None and state(phone).board("Secret stash").secret
    phone = pinterest(logged_in=False)
    assert phone.foreground_activity() == UNAUTH


def test_every_reachable_screen_has_a_valid_dump() -> None:
    assert len(crawl("pinterest", limit=40)) >= 20


@pytest.mark.slow
@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_on_every_profile(profile: str) -> None:
    assert len(crawl("pinterest", dynamics="default", seed=5, profile=profile, limit=60)) == 60


def test_screens_are_deterministic() -> None:
    def run() -> list:
        return frames(pinterest(seed=2, dynamics="default", profile="budget-720p"),
                      (Action.back(), Action.click(0.5, 0.3), Action.back(), Action.click(0.9, 0.95),
                       Action.click(0.5, 0.5), Action.type_text("x"), Action.back()))
    assert run() == run()
