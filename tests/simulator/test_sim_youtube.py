"""The simulated YouTube, driven like an agent would: taps on dump nodes, typing, swipes,
BACK; oracles read `app_state("youtube")`. Also setup validation, seeded content and
popups, a crawl of every reachable screen at every profile and the retained walk."""

from __future__ import annotations

from functools import partial

import pytest
from phone import EVERY_PROFILE, find, launch, node, swipe_up, tap, texts
from test_sim_screens import crawl

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, FACTORIES, resolve_package
from mobile_gym.simulator.apps.youtube import YouTube

PKG = "com.google.android.youtube"
ID = PKG + ":id/"
WATCH = PKG + "/com.google.android.apps.youtube.app.watchwhile.WatchWhileActivity"
HELP = PKG + "/com.google.android.gms.googlehelp.helpactivities.HelpActivity"
LAUNCHER_ICON = "com.google.android.apps.nexuslauncher:id/icon"


youtube = partial(launch, "youtube")


def title(phone: SimulatedDevice) -> str:
    return node(phone, resource_id=ID + "toolbar_title").text


def search(phone: SimulatedDevice, query: str) -> None:
    tap(phone, content_desc="Search", resource_id=ID + "menu_item_1")
    phone.perform(Action.type_text(query))
    phone.perform(Action.enter())


def test_fresh_phone_opens_youtube_from_the_home_row_signed_in() -> None:
    assert PKG in DEFAULT_INSTALLED and FACTORIES[PKG] is YouTube and resolve_package("YouTube") == PKG
    phone = SimulatedDevice("pixel-6", seed=0, dynamics="none")
    tap(phone, text="YouTube", resource_id=LAUNCHER_ICON)
    assert phone.foreground_activity() == WATCH
    assert node(phone, resource_id=ID + "text", text="Home").flags["selected"]
    tap(phone, content_desc="You", resource_id=ID + "pivot_you")
    assert node(phone, resource_id=ID + "account_name").text == "Agentian"
    s = phone.app_state("youtube")
    assert list(s.visited) == ["home", "you"] and s.account.startswith("agentian")
    with pytest.raises(AttributeError):
        s.signed_in = False  # read-only for oracles


def test_search_a_channel_and_subscribe_then_unsubscribe() -> None:
    phone = youtube()
    search(phone, "openai")
    assert node(phone, resource_id=ID + "search_query").text == "openai"
    assert node(phone, resource_id=ID + "channel_title").text == "OpenAI"
    tap(phone, content_desc="Subscribe to OpenAI.")
    assert phone.runtime.toast_text == "Subscription added"
    assert node(phone, resource_id=ID + "subscribe_button").text == "Subscribed"
    assert not find(phone, content_desc="Subscribe to OpenAI.")
    s = phone.app_state("youtube")
    assert s.subscriptions[0] == "OpenAI" and list(s.subscribed) == ["OpenAI"]
    tap(phone, content_desc="Unsubscribe from OpenAI.")
    tap(phone, text="Unsubscribe", resource_id=ID + "list_item_text")
    tap(phone, text="Unsubscribe", resource_id="android:id/button1")
    assert "OpenAI" not in phone.app_state("youtube").subscriptions
    assert node(phone, content_desc="Subscribe to OpenAI.").text == "Subscribe"


def test_search_suggestions_follow_the_typing() -> None:
    phone = youtube()
    tap(phone, content_desc="Search", resource_id=ID + "menu_item_1")
    phone.perform(Action.type_text("hung"))
    suggestions = [n.text for n in find(phone, resource_id=ID + "text")]
    assert suggestions[:3] == ["hung", "hung-yi lee", "hung-yi lee machine learning"]
    tap(phone, text="hung-yi lee", resource_id=ID + "text")
    tap(phone, content_desc="Hung-yi Lee", resource_id=ID + "channel_avatar")
    assert title(phone) == "Hung-yi Lee" and "252K subscribers" in node(phone, resource_id=ID + "channel_subtitle").text
    tap(phone, content_desc="Subscribe to Hung-yi Lee.")
    assert "Hung-yi Lee" in phone.app_state("youtube").subscriptions
    assert list(phone.app_state("youtube").searches) == ["hung-yi lee"]


def test_the_latest_video_of_a_channel_plays() -> None:
    phone = youtube()
    search(phone, "Wall Street Journal")
    tap(phone, content_desc="Wall Street Journal", resource_id=ID + "channel_avatar")
    tap(phone, text="Videos", resource_id=ID + "tab_title")
    first = find(phone, resource_id=ID + "title")[0].text
    tap(phone, text="Popular", resource_id=ID + "chip_cloud_chip_text")
    assert find(phone, resource_id=ID + "title")[0].text != first  # the most viewed is an older one
    tap(phone, text="Latest", resource_id=ID + "chip_cloud_chip_text")
    tap(phone, text=first, resource_id=ID + "title")
    assert node(phone, resource_id=ID + "video_title").text == first
    s = phone.app_state("youtube")
    assert s.played[-1] == s.latest("Wall Street Journal") and s.history[0] == s.played[-1]
    tap(phone, content_desc="Pause video")
    assert node(phone, content_desc="Play video")


def test_explore_destinations_and_home_chips() -> None:
    phone = youtube()
    tap(phone, text="Music", resource_id=ID + "chip_cloud_chip_text")
    assert node(phone, text="Music", resource_id=ID + "chip_cloud_chip_text").flags["selected"]
    assert all("Tiny Desk" in n.text for n in find(phone, resource_id=ID + "title"))
    for name in ("Trending", "Live", "Podcasts"):
        tap(phone, content_desc="Explore")
        tap(phone, text=name, resource_id=ID + "explore_item_title")
        assert title(phone) == name and find(phone, resource_id=ID + "compact_video")
        phone.perform(Action.back())
    assert [v for v in phone.app_state("youtube").visited if v != "home"] == ["trending", "live", "podcasts"]


def test_shorts_tab_plays_and_swipes_to_the_next() -> None:
    phone = youtube()
    tap(phone, content_desc="Shorts", resource_id=ID + "pivot_shorts")
    first = node(phone, resource_id=ID + "reel_multi_format_title").text
    assert node(phone, resource_id=ID + "reel_dyn_remix_text").text == "Remix"
    swipe_up(phone)
    assert node(phone, resource_id=ID + "reel_multi_format_title").text != first
    assert list(phone.app_state("youtube").shorts_played) == ["s1", "s2"]
    phone.perform(Action.back())
    assert node(phone, resource_id=ID + "text", text="Home").flags["selected"]


def test_a_short_from_the_home_shelf() -> None:
    phone = youtube()
    tap(phone, resource_id=ID + "reel_item")
    assert node(phone, resource_id=ID + "reel_dyn_remix_text")
    assert list(phone.app_state("youtube").shorts_played) == ["s1"]
    assert "shorts" not in phone.app_state("youtube").visited


def test_subscriptions_channel_row_filters_the_feed() -> None:
    phone = youtube(subscriptions=["OpenAI", "Veritasium"])
    tap(phone, content_desc="Subscriptions", resource_id=ID + "pivot_subscriptions")
    assert {n.text.split(" · ")[0] for n in find(phone, resource_id=ID + "details")} <= {"OpenAI", "Veritasium"}
    tap(phone, content_desc="OpenAI", resource_id=ID + "channel_avatar_item")
    assert node(phone, resource_id=ID + "subscriptions_channel_title").text == "OpenAI"
    assert node(phone, content_desc="OpenAI", resource_id=ID + "channel_avatar_item").flags["selected"]
    assert {n.text.split(" · ")[0] for n in find(phone, resource_id=ID + "details")} == {"OpenAI"}
    tap(phone, text="View channel")
    assert title(phone) == "OpenAI"
    assert "subscriptions:OpenAI" in phone.app_state("youtube").visited


def test_you_pages_history_time_watched_help_and_own_channel() -> None:
    phone = youtube()
    tap(phone, content_desc="You", resource_id=ID + "pivot_you")
    tap(phone, text="History", resource_id=ID + "shelf_header_title")
    assert title(phone) == "History" and len(find(phone, resource_id=ID + "compact_video")) >= 3
    phone.perform(Action.back())
    tap(phone, text="Time watched", resource_id=ID + "title")
    assert title(phone) == "Time watched" and node(phone, resource_id=ID + "daily_average").text == "40 minutes"
    tap(phone, text="Remind me to take a break")
    assert phone.app_state("youtube").take_a_break
    phone.perform(Action.back())
    tap(phone, text="View channel", resource_id=ID + "view_channel")
    assert node(phone, resource_id=ID + "channel_title").text == "Agentian"
    tap(phone, content_desc="More about this channel")
    assert "www.youtube.com/@agentian" in texts(phone) and "More info" in texts(phone)
    tap(phone, content_desc="Close")
    phone.perform(Action.back())
    for _ in range(4):
        if find(phone, text="Help & feedback"):
            break
        swipe_up(phone)
    tap(phone, text="Help & feedback")
    assert phone.foreground_activity() == HELP and title(phone) == "Help"
    assert list(phone.app_state("youtube").visited) == ["home", "you", "history", "time_watched",
                                                          "channel:Agentian", "about:@agentian", "help"]


def test_help_search_lists_articles_and_back_clears_it() -> None:
    phone = youtube()
    tap(phone, content_desc="You", resource_id=ID + "pivot_you")
    for _ in range(4):
        if find(phone, text="Help & feedback"):
            break
        swipe_up(phone)
    tap(phone, text="Help & feedback")
    tap(phone, resource_id=ID + "gh_search_box")
    phone.perform(Action.type_text("how to upload a video"))
    phone.perform(Action.enter())
    found = [n.text for n in find(phone, resource_id=ID + "gh_search_result_title")]
    assert found[0] == "Upload YouTube videos"
    assert list(phone.app_state("youtube").help_searches) == ["how to upload a video"]
    tap(phone, text="Upload YouTube videos")
    assert node(phone, resource_id=ID + "gh_article_title").text == "Upload YouTube videos"
    phone.perform(Action.back())
    phone.perform(Action.back())
    assert "Popular help resources" in texts(phone)


def test_notifications_page() -> None:
    phone = youtube()
    tap(phone, content_desc="Notifications", resource_id=ID + "menu_item_0")
    assert title(phone) == "Notifications"
    rows = find(phone, resource_id=ID + "notification_text")
    assert len(rows) == 5 and rows[0].text.startswith("Marques Brownlee uploaded")
    tap(phone, resource_id=ID + "notification_item")
    assert not phone.app_state("youtube").notifications[0].unread


def test_setup_and_validation() -> None:
    phone = youtube(subscriptions=["OpenAI"], feed=["oa1", "wp1"], watch_minutes=[1, 2, 3, 4, 5, 6, 7],
                    notifications=[{"text": "Hello from OpenAI", "channel": "OpenAI"}])
    s = phone.app_state("youtube")
    assert list(s.subscriptions) == ["OpenAI"] and s.notifications[0].age == "1 hour ago"
    assert "Introducing GPT-4o" in texts(phone)
    for bad in ({"subscriptions": ["Nobody"]}, {"feed": ["zz"]}, {"subscriptions": "OpenAI"},
                {"watch_minutes": [1, 2]}, {"notifications": [{"text": "x", "color": "red"}]},
                {"views": {"oa1": -3}}, {"nonsense": True}, {"subscriptions": ["OpenAI", "OpenAI"]}):
        with pytest.raises(SimulatorError):
            youtube(**bad)
    with pytest.raises(SimulatorError, match="OpenAI"):
        youtube(subscriptions=["Nobody"])  # the error names the choices


def test_dynamics_vary_the_content_and_show_a_popup() -> None:
    feeds, popups = set(), 0
    for seed in range(8):
        phone = youtube(seed=seed, dynamics="default")
        s = phone.app_state("youtube")
        feeds.add((tuple(s.feed), tuple(s.subscriptions), tuple(s.watch_minutes)))
        assert "OpenAI" not in s.subscriptions and "Hung-yi Lee" not in s.subscriptions
        assert s.latest("The Washington Post") == "wp1"  # uploads keep their order
        popups += bool(phone.runtime.app(PKG).dialogs)
    assert len(feeds) == 8 and popups >= 1
    assert youtube(seed=3, dynamics="default").observe(screenshot=False).xml == \
        youtube(seed=3, dynamics="default").observe(screenshot=False).xml


def test_the_permission_popup_is_dismissed_and_remembered() -> None:
    for seed in range(20):
        phone = youtube(seed=seed, dynamics="default")
        if find(phone, resource_id="com.android.permissioncontroller:id/permission_allow_button"):
            tap(phone, text="Allow")
            assert phone.app_state("youtube").notifications_allowed
            assert not phone.runtime.app(PKG).dialogs
            return
    pytest.fail("no seed showed the notification permission prompt")


@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_at_every_profile(profile: str) -> None:
    screens = crawl("youtube", seed=5, profile=profile, limit=21)
    assert len(screens) >= 20
    assert crawl("youtube", seed=5, profile=profile, limit=6) == dict(list(screens.items())[:6])  # deterministic


@pytest.mark.slow
def test_every_reachable_screen_has_a_valid_dump_with_dynamics() -> None:
    crawl("youtube", dynamics="default", seed=5, limit=60)
