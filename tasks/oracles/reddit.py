"""Oracles of Reddit tasks: predicates on `phone.app_state("reddit")`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


def _state(phone: SimulatedDevice):
    return phone.app_state("reddit")


def _visited(screen: str):
    def check(phone: SimulatedDevice) -> bool:
        return screen in _state(phone).visited
    check.__doc__ = f"The {screen!r} screen has been shown."
    return check


for _name, _screen in (("communities_shown", "communities"), ("inbox_shown", "inbox"), ("chat_shown", "chat"),
                       ("channels_explored", "explore_channels"), ("profile_shown", "profile"),
                       ("settings_shown", "settings"), ("notification_settings_shown", "notification_settings"),
                       ("history_shown", "history"), ("create_community_shown", "create_community"),
                       ("technology_opened", "community:technology")):
    oracle("reddit." + _name)(_visited(_screen))


@oracle("reddit.latest_feed")
def _latest_feed(phone: SimulatedDevice) -> bool:
    """The Latest feed is selected."""
    return _state(phone).feed == "Latest"


@oracle("reddit.popular_top_week")
def _popular_top_week(phone: SimulatedDevice) -> bool:
    """The Popular feed (all of Reddit) shows its top posts of this week."""
    s = _state(phone)
    return s.feed == "Popular" and s.feed_sort == "Top" and s.feed_time == "This week"


@oracle("reddit.science_frequent")
def _science_frequent(phone: SimulatedDevice) -> bool:
    """r/science is joined with community notifications set to Frequent."""
    c = _state(phone).community("science")
    return c is not None and c.joined and c.alerts == "Frequent"


@oracle("reddit.openai_joined")
def _openai_joined(phone: SimulatedDevice) -> bool:
    """The Communities tab was opened and r/OpenAI is joined."""
    s = _state(phone)
    c = s.community("OpenAI")
    return "communities" in s.visited and c is not None and c.joined


@oracle("reddit.worldnews_hottest_opened")
def _worldnews_hottest_opened(phone: SimulatedDevice) -> bool:
    """The hottest post of r/worldnews (the first under Hot) has been opened."""
    s = _state(phone)
    hottest = s.hottest("worldnews")
    return hottest is not None and hottest.id in s.opened


def _searched(phone: SimulatedDevice, tab: str) -> bool:
    return any(q.strip().lower() == "technology" and not scope and t == tab
               for q, scope, t, _ in _state(phone).searches)


@oracle("reddit.technology_communities")
def _technology_communities(phone: SimulatedDevice) -> bool:
    """The search for "technology" shows its Communities tab."""
    return _searched(phone, "Communities")


@oracle("reddit.technology_media")
def _technology_media(phone: SimulatedDevice) -> bool:
    """The search for "technology" shows its Media tab."""
    return _searched(phone, "Media")


@oracle("reddit.spacex_last_month")
def _spacex_last_month(phone: SimulatedDevice) -> bool:
    """Posts about SpaceX were searched in r/space, limited to the past month."""
    return any(scope.lower() == "space" and "spacex" in q.lower().replace(" ", "") and time == "Past month"
               for q, scope, _, time in _state(phone).searches)
