"""The simulated Reddit, driven like an agent would: taps on dump nodes, typing, ENTER,
BACK; oracles read `app_state("reddit")`. Also the crawler and retained-mode checks the
shared suites run for the other modelled apps."""

from __future__ import annotations

from functools import partial

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, resolve_package
from phone import EVERY_PROFILE, find, frames, launch, node, popup_texts, tap, texts
from test_sim_screens import crawl

PKG = "com.reddit.frontpage"
ID = PKG + ":id/"
MAIN = f"{PKG}/com.reddit.launch.main.MainActivity"
POPUP_TITLES = ("Allow Reddit to send you notifications?", "Chat channels are here", "Try Reddit Premium")


reddit = partial(launch, "reddit")


def state(phone: SimulatedDevice):
    return phone.app_state("reddit")


def search(phone: SimulatedDevice, text: str) -> None:
    tap(phone, resource_id=ID + "search_icon")
    assert phone.runtime.keyboard
    phone.perform(Action.type_text(text))


def test_installed_on_a_fresh_phone_and_opens_from_the_drawer() -> None:
    assert PKG in DEFAULT_INSTALLED and resolve_package("Reddit") == PKG
    phone = SimulatedDevice(seed=0, dynamics="none")
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Reddit", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity() == MAIN
    assert node(phone, resource_id=ID + "feed_switcher_title").text == "Home"
    assert node(phone, content_desc="Home", resource_id=ID + "bottom_nav_home").flags["selected"]
    # the Home feed holds posts of joined communities only
    joined = {f"r/{c.name}" for c in state(phone).communities if c.joined}
    assert {n.text for n in find(phone, resource_id=ID + "subreddit_name")} <= joined


def test_feed_selector_and_top_of_the_week() -> None:
    phone = reddit()
    tap(phone, resource_id=ID + "feed_switcher")
    assert [n.text for n in find(phone, resource_id=ID + "feed_option")] == ["Home", "Popular", "Watch", "Latest",
                                                                             "News"]
    tap(phone, text="Popular", resource_id=ID + "feed_option")
    assert state(phone).feed == "Popular" and node(phone, resource_id=ID + "sort_label").text == "HOT POSTS"
    tap(phone, resource_id=ID + "sort_bar")
    tap(phone, text="Top", resource_id=ID + "sort_option")
    assert node(phone, resource_id=ID + "sheet_title").text == "Top posts from"
    tap(phone, text="This week", resource_id=ID + "time_option")
    s = state(phone)
    assert (s.feed, s.feed_sort, s.feed_time) == ("Popular", "Top", "This week")
    assert node(phone, resource_id=ID + "sort_label").text == "TOP POSTS \u00b7 THIS WEEK"
    shown = [p for p in s.feed_posts()]
    assert all(p.hours <= 168 for p in shown) and [p.score for p in shown] == sorted((p.score for p in shown),
                                                                                      reverse=True)
    tap(phone, resource_id=ID + "feed_switcher")
    tap(phone, text="Latest", resource_id=ID + "feed_option")
    assert state(phone).feed == "Latest" and state(phone).feed_sort == "Hot"  # a new feed starts over
    assert not find(phone, resource_id=ID + "sort_bar")


def test_bottom_tabs_and_back() -> None:
    phone = reddit()
    for label, key in (("Communities", "communities"), ("Chat", "chat"), ("Inbox", "inbox")):
        tap(phone, text=label, resource_id=ID + "bottom_nav_label")
        assert node(phone, resource_id=ID + "bottom_nav_" + key).flags["selected"]
        assert node(phone, resource_id=ID + "toolbar_title").text == label
    assert list(state(phone).visited) == ["home", "communities", "chat", "inbox"]
    tap(phone, text="Messages", resource_id=ID + "inbox_tab")
    assert "No messages" in texts(phone)
    phone.perform(Action.back())  # back to Home first
    assert node(phone, resource_id=ID + "feed_switcher_title").text == "Home"
    tap(phone, text="Create", resource_id=ID + "bottom_nav_label")
    assert node(phone, resource_id=ID + "submit_title").text == "Title"
    phone.perform(Action.back())
    phone.perform(Action.back())
    assert phone.foreground_activity() != MAIN  # left the app


def test_search_suggestions_then_results_tabs() -> None:
    phone = reddit()
    search(phone, "technology")
    assert [n.text for n in find(phone, resource_id=ID + "suggestion_community_name")] == ["r/technology"]
    phone.perform(Action.enter())
    assert node(phone, resource_id=ID + "search_query").text == "technology"
    assert node(phone, text="Posts", resource_id=ID + "search_tab").flags["selected"]
    tap(phone, text="Communities", resource_id=ID + "search_tab")
    assert node(phone, text="r/technology", resource_id=ID + "community_name")
    tap(phone, text="Media", resource_id=ID + "search_tab")
    assert node(phone, content_desc="Media results")
    assert [x[:3] for x in state(phone).searches] == [("technology", "", "Posts"), ("technology", "", "Communities"),
                                                      ("technology", "", "Media")]
    tap(phone, resource_id=ID + "search_query")  # edit the query again
    assert phone.runtime.keyboard and node(phone, resource_id=ID + "search_query_edit").text == "technology"


def test_join_a_community_and_set_alerts() -> None:
    phone = reddit()
    search(phone, "science")
    tap(phone, text="r/science", resource_id=ID + "suggestion_community_name")
    assert node(phone, resource_id=ID + "subreddit_title").text == "r/science"
    assert not find(phone, resource_id=ID + "notification_bell")  # not joined: no bell
    tap(phone, text="Join", resource_id=ID + "join_button")
    c = state(phone).community("science")
    assert c.joined and c.alerts == "Low" and phone.runtime.toast_text == "Joined r/science"
    tap(phone, resource_id=ID + "notification_bell")
    assert [n.text for n in find(phone, resource_id=ID + "notification_level")] == ["Off", "Low", "Frequent"]
    tap(phone, text="Frequent", resource_id=ID + "notification_level")
    assert state(phone).community("science").alerts == "Frequent"
    assert node(phone, resource_id=ID + "notification_bell").content_desc == "Community notifications, Frequent"
    tap(phone, text="Joined", resource_id=ID + "join_button")  # leave again
    assert not state(phone).community("science").joined and not find(phone, resource_id=ID + "notification_bell")


def test_hottest_post_and_community_sorts() -> None:
    phone = reddit()
    search(phone, "worldnews")
    tap(phone, text="r/worldnews", resource_id=ID + "suggestion_community_name")
    hottest = state(phone).hottest("worldnews")
    assert find(phone, resource_id=ID + "post_title")[0].text == hottest.title
    tap(phone, resource_id=ID + "sort_bar")
    tap(phone, text="New", resource_id=ID + "sort_option")
    newest = min(state(phone).in_community("worldnews"), key=lambda p: p.hours)
    assert find(phone, resource_id=ID + "post_title")[0].text == newest.title
    tap(phone, resource_id=ID + "post_title")
    assert node(phone, resource_id=ID + "post_detail_title").text == newest.title
    assert list(state(phone).opened) == [newest.id] and state(phone).history[0] == newest.id
    tap(phone, content_desc="Upvote")
    assert state(phone).post(newest.id).upvoted


def test_search_inside_a_community_with_a_time_filter() -> None:
    phone = reddit()
    search(phone, "space")
    assert [n.text for n in find(phone, resource_id=ID + "suggestion_community_name")] == ["r/space", "r/SpaceX"]
    tap(phone, text="r/space", resource_id=ID + "suggestion_community_name")
    tap(phone, content_desc="Search r/space")
    phone.perform(Action.type_text("SpaceX launches"))
    phone.perform(Action.enter())
    assert node(phone, resource_id=ID + "search_scope_chip").text == "r/space"
    every = {n.text for n in find(phone, resource_id=ID + "post_title")}
    tap(phone, resource_id=ID + "time_filter_chip")
    tap(phone, text="Past month", resource_id=ID + "time_option")
    month = {n.text for n in find(phone, resource_id=ID + "post_title")}
    assert month and month < every
    assert state(phone).searches[-1] == ("SpaceX launches", "space", "Posts", "Past month")


def test_drawers_lead_to_profile_settings_history_and_create_community() -> None:
    phone = reddit()
    tap(phone, content_desc="Expand user drawer")
    assert node(phone, resource_id=ID + "drawer_username").text == "u/agentian"
    tap(phone, text="Profile", resource_id=ID + "drawer_nav_item_title")
    assert node(phone, resource_id=ID + "profile_username").text == "u/agentian"
    phone.perform(Action.back())
    tap(phone, content_desc="Expand user drawer")
    tap(phone, text="Settings", resource_id=ID + "drawer_nav_item_title")
    tap(phone, text="Notifications", resource_id=ID + "setting_title")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Notifications"
    tap(phone, text="Trending posts")
    assert state(phone).notify["Trending posts"] is False
    phone.perform(Action.back())
    phone.perform(Action.back())
    tap(phone, content_desc="Expand user drawer")
    tap(phone, text="History", resource_id=ID + "drawer_nav_item_title")
    assert len(find(phone, resource_id=ID + "post_card")) >= 2
    phone.perform(Action.back())
    tap(phone, content_desc="Community menu")
    tap(phone, text="Create a community", resource_id=ID + "create_community_text")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Create a community"
    tap(phone, resource_id=ID + "community_name_input")
    phone.perform(Action.type_text("agentian_lab"))
    phone.perform(Action.back())  # the keyboard covers the button
    tap(phone, text="Create community")
    assert list(state(phone).created) == ["agentian_lab"]
    assert node(phone, resource_id=ID + "subreddit_title").text == "r/agentian_lab"
    assert list(state(phone).visited)[1:] == ["profile", "settings", "notification_settings", "history",
                                              "create_community", "community:agentian_lab"]


def test_chat_and_explore_channels() -> None:
    phone = reddit()
    tap(phone, text="Chat", resource_id=ID + "bottom_nav_label")
    tap(phone, text="Explore channels")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Discover channels"
    tap(phone, resource_id=ID + "channel_join_button")
    assert node(phone, text="Joined", resource_id=ID + "channel_join_button")
    assert "explore_channels" in state(phone).visited


def test_communities_tab_joins_and_searches() -> None:
    phone = reddit()
    tap(phone, text="Communities", resource_id=ID + "bottom_nav_label")
    shown = {n.text for n in find(phone, resource_id=ID + "community_name")}
    assert "r/OpenAI" not in shown and "r/news" in shown
    tap(phone, text="Join", resource_id=ID + "join_button")
    assert sum(c.joined for c in state(phone).communities) == 7
    tap(phone, resource_id=ID + "communities_search")
    assert node(phone, resource_id=ID + "search_query_edit").text == "Search communities"
    phone.perform(Action.type_text("openai"))
    tap(phone, text="r/OpenAI", resource_id=ID + "suggestion_community_name")
    tap(phone, text="Join", resource_id=ID + "join_button")
    assert state(phone).community("OpenAI").joined


def test_default_dynamics_vary_content_and_show_popups() -> None:
    seen = set()
    for seed in range(5):
        s = state(reddit(seed=seed, dynamics="default"))
        seen.add((tuple(p.id for p in s.posts), s.karma, tuple(n.title for n in s.notices)))
        hottest = s.hottest("worldnews")
        assert hottest.id == 0 and hottest.score == max(p.score for p in s.in_community("worldnews"))
    assert len(seen) == 5
    popups = {}
    for seed in range(12):
        phone = reddit(seed=seed, dynamics="default")
        for _ in range(6):  # the app opened again may show the next one
            shown = popup_texts(phone, POPUP_TITLES)
            if shown:
                popups.setdefault(shown[0], seed)
                phone.perform(Action.back())  # BACK closes the popup, not the app
                assert phone.foreground_activity() == MAIN
            phone.perform(Action.back())  # leaves the app: its activity finishes
            phone.runtime.launch(PKG)
    assert set(popups) == set(POPUP_TITLES), popups


def test_setup_is_checked() -> None:
    with pytest.raises(SimulatorError, match="feed must be one of"):
        reddit(feed="Everything")
    with pytest.raises(SimulatorError, match="alerts must be one of"):
        reddit(communities=[{"name": "science", "alerts": "Loud"}])
    with pytest.raises(SimulatorError, match="no field"):
        reddit(communities=[{"name": "science", "colour": "red"}])
    with pytest.raises(SimulatorError, match="expects bool"):
        reddit(communities=[{"name": "science", "joined": "yes"}])
    with pytest.raises(SimulatorError, match="notify"):
        reddit(notify={"Loud noises": True})
    phone = reddit(communities=[{"name": "science", "joined": True}, {"name": "rust", "members": 10}])
    assert state(phone).community("science").alerts == "Low" and state(phone).community("rust").members == 10


def test_state_is_read_only_for_oracles() -> None:
    with pytest.raises(AttributeError):
        state(reddit()).feed = "Popular"


def test_every_reachable_screen_has_a_valid_dump() -> None:
    assert len(crawl("reddit", limit=15)) == 15


@pytest.mark.slow
@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_on_every_profile(profile: str) -> None:
    crawl("reddit", dynamics="default", seed=5, profile=profile, limit=45)


def test_screens_are_deterministic() -> None:
    def run() -> list:
        return frames(reddit(seed=2, dynamics="default", profile="budget-720p"),
                      (Action.back(), Action.click(0.5, 0.3), Action.back(), Action.click(0.9, 0.05),
                       Action.click(0.5, 0.97), Action.type_text("x"), Action.back()))
    assert run() == run()
