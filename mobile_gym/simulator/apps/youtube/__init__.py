"""YouTube (com.google.android.youtube), signed in as Agentian (@agentian): Home with its
chips, Explore (Trending, Live, Podcasts, ...) and a Shorts shelf; the Shorts player;
Subscriptions with the channel row; You (your channel, History, Time watched, Help &
feedback); search with suggestions and results; channel pages (Subscribe / Subscribed,
tabs, the About sheet with "More info"); the player; Notifications; Settings; the Help
Center and its search.

Modules: `model` (state and content), `screens` (activities and dialogs).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.prompts import NotificationPermission
from mobile_gym.simulator.apps.youtube.model import (
    CHANNELS, FEED_CHANNELS, FEED_POOL, NOTIFICATION_AGES, NOTIFICATION_POOL, SHORTS, VIDEOS, Notification,
    YouTubeState,
)
from mobile_gym.simulator.apps.youtube.screens import PKG, Main, PremiumPromo, SignInNudge, allow_notifications

__all__ = ["YouTube", "YouTubeState"]

#: Channels the seeded subscriptions are drawn from (never the ones tasks subscribe to).
SUBSCRIBABLE = tuple(c for c in FEED_CHANNELS if c not in ("Lofi Girl", "NPR Music", "The Washington Post",
                                                               "Wall Street Journal"))


class YouTube(App):
    package = PKG
    label = "YouTube"
    key = "youtube"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "play"
    color = (255, 0, 0)
    State = YouTubeState
    stream = 8  # added after the first apps: a random stream of its own

    def main(self) -> Activity:
        return Main(self)

    def vary(self, rng: np.random.Generator) -> None:
        """The feed's videos and order, view counts, Shorts order, subscriptions, watch
        history, notifications and the week's watch time."""
        s = self.state
        feed = [FEED_POOL[int(i)] for i in rng.permutation(len(FEED_POOL))]
        s.feed = feed[:int(rng.integers(10, len(feed) + 1))]
        s.views = {vid: max(1, int(v.views * rng.uniform(0.8, 1.3))) for vid, v in VIDEOS.items()}
        s.shorts = [list(SHORTS)[int(i)] for i in rng.permutation(len(SHORTS))]
        subs = rng.choice(len(SUBSCRIBABLE), size=int(rng.integers(3, 6)), replace=False)
        s.subscriptions = [SUBSCRIBABLE[int(i)] for i in subs]
        hist = rng.choice(len(FEED_POOL), size=int(rng.integers(2, 7)), replace=False)
        s.history = [FEED_POOL[int(i)] for i in hist]
        picks = sorted(rng.choice(len(NOTIFICATION_POOL), size=int(rng.integers(3, 8)), replace=False))
        ages = sorted(rng.choice(len(NOTIFICATION_AGES), size=len(picks), replace=False))
        s.notifications = [Notification(NOTIFICATION_POOL[int(i)][0], NOTIFICATION_AGES[int(a)],
                                        NOTIFICATION_POOL[int(i)][1], unread=bool(rng.random() < 0.4))
                           for i, a in zip(picks, ages)]
        s.watch_minutes = [int(m) for m in rng.integers(5, 120, size=7)]

    def popups(self, activity: Activity) -> list[Dialog]:
        if isinstance(activity, Main):
            return [NotificationPermission("YouTube", partial(allow_notifications, activity.app)), PremiumPromo(),
                    SignInNudge()]
        return []

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: any state field; ``subscriptions`` name channels, ``feed`` / ``history``
        video ids, ``shorts`` short ids, ``notifications`` mappings {text, age, channel,
        unread}."""
        values = dict(values)
        notes = values.pop("notifications", None)
        super().configure(values)
        s = self.state
        if notes is not None:
            if not isinstance(notes, (list, tuple)):
                raise SimulatorError(f"youtube 'notifications' must be a list, got {notes!r}")
            s.notifications = [_notification(n) for n in notes]
        for name, known in (("subscriptions", CHANNELS), ("feed", VIDEOS), ("history", VIDEOS),
                            ("shorts", SHORTS)):
            for item in getattr(s, name):
                if item not in known:
                    raise SimulatorError(f"youtube {name} item {item!r} is not one of: {', '.join(known)}")
        if len(set(s.subscriptions)) != len(s.subscriptions):
            raise SimulatorError(f"youtube subscriptions repeat a channel: {s.subscriptions}")
        for vid, n in s.views.items():
            if vid not in VIDEOS or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise SimulatorError(f"youtube views must map video ids ({', '.join(VIDEOS)}) to counts, "
                                     f"got {vid!r}: {n!r}")
        if len(s.watch_minutes) != 7 or not all(isinstance(m, int) and not isinstance(m, bool) and m >= 0
                                                for m in s.watch_minutes):
            raise SimulatorError(f"youtube watch_minutes must be 7 counts of minutes, got {s.watch_minutes!r}")


def _notification(value: Any) -> Notification:
    if isinstance(value, Notification):
        return value
    if not isinstance(value, Mapping) or not isinstance(value.get("text"), str):
        raise SimulatorError(f"youtube notification must be a mapping with 'text', got {value!r}")
    unknown = set(value) - {"text", "age", "channel", "unread"}
    if unknown:
        raise SimulatorError(f"youtube notification has no field(s) {sorted(unknown)}")
    n = Notification(value["text"], value.get("age", "1 hour ago"), value.get("channel", "YouTube"),
                     value.get("unread", True))
    if not isinstance(n.age, str) or not isinstance(n.channel, str) or not isinstance(n.unread, bool):
        raise SimulatorError(f"youtube notification fields have the wrong types: {value!r}")
    return n
