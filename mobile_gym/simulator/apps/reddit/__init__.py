"""Reddit (com.reddit.frontpage), signed in as u/agentian: the Home feed with its feed
selector (Home, Popular, Watch, Latest, News) and sort (Best, Hot, New, Top + time range),
posts, search (suggestions, then results tabs Posts / Communities / Comments / Media /
People, or a search inside a community with a time filter), subreddits (Join, community
notifications Off / Low / Frequent, sort Hot / New / Top), the Communities tab, "Create a
community", Inbox, Chat ("Explore channels"), the user drawer (Profile, History,
Settings > Notifications).

Modules: `model` (state, content pools), `screens` (the screens and dialogs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.prompts import NotificationPermission
from mobile_gym.simulator.apps.reddit.model import (
    ALERTS, CHATS, COMMUNITY_SORTS, FEED_SORTS, FEEDS, NOTICES, NOTIFICATION_SETTINGS, TOP_TIMES, Community,
    Notice, Post, RedditState,
)
from mobile_gym.simulator.apps.reddit.screens import ORANGE, PKG, ChatPromo, Main, PremiumNudge

__all__ = ["Community", "Post", "Reddit", "RedditState"]

COMMUNITY_FIELDS = tuple(Community.__dataclass_fields__)


class Reddit(App):
    package = PKG
    label = "Reddit"
    key = "reddit"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "person"
    color = (255, 69, 0)
    State = RedditState
    stream = 6  # added after the first apps: a random stream of its own

    def main(self) -> Activity:
        return Main(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Another day on Reddit: post order (each community's hottest post stays its
        first), scores, comment counts and ages; member counts; which notifications,
        chats and history entries there are; karma."""
        s = self.state
        posts = [s.posts[int(i)] for i in rng.permutation(len(s.posts))]
        leaders: dict[str, Post] = {}
        for p in s.posts:
            leaders.setdefault(p.community, p)
        for name, lead in leaders.items():  # the leader takes the first slot of its community
            first = next(i for i, p in enumerate(posts) if p.community == name)
            at = posts.index(lead)
            posts[first], posts[at] = posts[at], posts[first]
        for p in posts:
            p.score = max(1, int(p.score * rng.uniform(0.7, 1.3)))
            p.comments = max(0, int(p.comments * rng.uniform(0.7, 1.3)))
            p.hours = max(1, int(p.hours * rng.uniform(0.8, 1.2)))
        for c in s.communities:
            c.members = int(c.members * rng.uniform(0.95, 1.05))
            c.online = int(c.online * rng.uniform(0.5, 1.5))
        for name, lead in leaders.items():  # hottest: also the highest score of its community
            top = max(p.score for p in posts if p.community == name)
            lead.score = max(lead.score, top + int(rng.integers(1, 500)))
        s.posts = posts
        picks = rng.choice(len(NOTICES), size=int(rng.integers(3, len(NOTICES) + 1)), replace=False)
        s.notices = [Notice(*NOTICES[int(i)]) for i in picks]
        picks = rng.choice(len(CHATS), size=int(rng.integers(2, len(CHATS) + 1)), replace=False)
        s.chats = [Notice(*CHATS[int(i)]) for i in picks]
        picks = rng.choice(len(posts), size=int(rng.integers(3, 7)), replace=False)
        s.history = [posts[int(i)].id for i in picks]
        s.karma = int(rng.integers(200, 25_000))

    def popups(self, activity: Activity) -> list[Dialog]:
        """On the launch screen: the notification permission prompt, a "Chat channels are
        here" sheet and a Reddit Premium nudge."""
        if isinstance(activity, Main):
            return [NotificationPermission("Reddit", activity.allow_notifications, ORANGE), ChatPromo(), PremiumNudge()]
        return []

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: ``communities`` as mappings of `Community` fields, merged by name into
        the communities there are (a new name adds one); ``feed``, ``feed_sort``,
        ``feed_time`` among their choices; ``notify`` maps notification settings to
        booleans; the other fields as they are."""
        values = dict(values)
        communities = values.pop("communities", None)
        notify = values.pop("notify", None)
        super().configure(values)
        s = self.state
        if communities is not None:
            if not isinstance(communities, (list, tuple)):
                raise SimulatorError(f"reddit 'communities' must be a list, got {communities!r}")
            for given in communities:
                self._community(given)
        if notify is not None:
            if not isinstance(notify, Mapping):
                raise SimulatorError(f"reddit 'notify' must be a mapping, got {notify!r}")
            for k, v in notify.items():
                if k not in NOTIFICATION_SETTINGS or not isinstance(v, bool):
                    raise SimulatorError(f"reddit notify takes booleans for {list(NOTIFICATION_SETTINGS)}, "
                                         f"got {k!r}: {v!r}")
                s.notify[k] = v
        for name, value, choices in (("feed", s.feed, FEEDS), ("feed_sort", s.feed_sort, FEED_SORTS),
                                     ("feed_time", s.feed_time, TOP_TIMES)):
            if value not in choices:
                raise SimulatorError(f"reddit {name} must be one of {list(choices)}, got {value!r}")

    def _community(self, given: Any) -> None:
        if not isinstance(given, Mapping) or not isinstance(given.get("name"), str):
            raise SimulatorError(f"reddit community must be a mapping with a 'name', got {given!r}")
        unknown = set(given) - set(COMMUNITY_FIELDS)
        if unknown:
            raise SimulatorError(f"reddit community has no field(s) {sorted(unknown)}; known: "
                                 f"{', '.join(COMMUNITY_FIELDS)}")
        c = self.state.community(given["name"])
        if c is None:
            c = Community(given["name"])
            self.state.communities.append(c)
        for name, value in given.items():
            default = getattr(c, name)
            if isinstance(value, bool) != isinstance(default, bool) or not isinstance(value, type(default)):
                raise SimulatorError(f"reddit community field {name!r} expects {type(default).__name__}, "
                                     f"got {value!r}")
            setattr(c, name, value)
        for name, choices in (("alerts", ALERTS), ("sort", COMMUNITY_SORTS), ("time", TOP_TIMES)):
            if getattr(c, name) not in choices:
                raise SimulatorError(f"reddit community {name} must be one of {list(choices)}, "
                                     f"got {getattr(c, name)!r}")
        if c.joined and c.alerts == "Off" and "alerts" not in given:
            c.alerts = "Low"
