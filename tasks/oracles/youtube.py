"""Oracles of YouTube tasks: predicates on `app_state("youtube")` (pages opened, videos
and shorts played, subscriptions, Help Center searches)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


def _yt(phone: SimulatedDevice):
    return phone.app_state("youtube")


def _visited(phone: SimulatedDevice, page: str) -> bool:
    return page in _yt(phone).visited


@oracle("youtube.latest_washington_post_played")
def _latest_wapo(phone: SimulatedDevice) -> bool:
    """The Washington Post's newest upload was opened in the player."""
    s = _yt(phone)
    return s.latest("The Washington Post") in s.played


@oracle("youtube.latest_wsj_played")
def _latest_wsj(phone: SimulatedDevice) -> bool:
    """The Wall Street Journal's newest upload was opened in the player."""
    s = _yt(phone)
    return s.latest("Wall Street Journal") in s.played


@oracle("youtube.popular_shown")
def _popular(phone: SimulatedDevice) -> bool:
    """Explore > Trending (YouTube's popular videos) was opened."""
    return _visited(phone, "trending")


@oracle("youtube.trending_shown")
def _trending(phone: SimulatedDevice) -> bool:
    return _visited(phone, "trending")


@oracle("youtube.live_shown")
def _live(phone: SimulatedDevice) -> bool:
    return _visited(phone, "live")


@oracle("youtube.podcasts_shown")
def _podcasts(phone: SimulatedDevice) -> bool:
    return _visited(phone, "podcasts")


@oracle("youtube.subscribed_hung_yi_lee")
def _hung_yi(phone: SimulatedDevice) -> bool:
    return "Hung-yi Lee" in _yt(phone).subscriptions


@oracle("youtube.subscribed_openai")
def _openai(phone: SimulatedDevice) -> bool:
    return "OpenAI" in _yt(phone).subscriptions


@oracle("youtube.subscriptions_shown")
def _subscriptions(phone: SimulatedDevice) -> bool:
    """The Subscriptions tab was opened."""
    return _visited(phone, "subscriptions")


@oracle("youtube.openai_in_subscriptions_shown")
def _subs_openai(phone: SimulatedDevice) -> bool:
    """In the Subscriptions tab, OpenAI was picked in the channel row."""
    return _visited(phone, "subscriptions:OpenAI")


@oracle("youtube.short_played")
def _short_played(phone: SimulatedDevice) -> bool:
    return bool(_yt(phone).shorts_played)


@oracle("youtube.shorts_tab_played")
def _shorts_tab(phone: SimulatedDevice) -> bool:
    """The Shorts tab was opened (it plays a short at once)."""
    s = _yt(phone)
    return "shorts" in s.visited and bool(s.shorts_played)


@oracle("youtube.history_shown")
def _history(phone: SimulatedDevice) -> bool:
    return _visited(phone, "history")


@oracle("youtube.notifications_shown")
def _notifications(phone: SimulatedDevice) -> bool:
    return _visited(phone, "notifications")


@oracle("youtube.own_channel_more_info_shown")
def _more_info(phone: SimulatedDevice) -> bool:
    """The About sheet ("More info") of the user's own channel was opened."""
    return _visited(phone, "about:@agentian")


@oracle("youtube.time_watched_shown")
def _time_watched(phone: SimulatedDevice) -> bool:
    return _visited(phone, "time_watched")


@oracle("youtube.help_shown")
def _help(phone: SimulatedDevice) -> bool:
    return _visited(phone, "help")


@oracle("youtube.help_searched_upload")
def _help_search(phone: SimulatedDevice) -> bool:
    """The Help Center was searched for 'how to upload a video'."""
    return "how to upload a video" in _yt(phone).help_searches
