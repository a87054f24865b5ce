"""Reddit's state: communities (joined, community alerts), posts, the feed shown and its
sort, notification settings, the inbox and chats, and the log of what the user opened
and searched (what oracles read). Also the seeded content pools."""

from __future__ import annotations

from dataclasses import dataclass, field

USERNAME = "agentian"
FEEDS = ("Home", "Popular", "Watch", "Latest", "News")
FEED_SORTS = ("Best", "Hot", "New", "Top", "Rising")
COMMUNITY_SORTS = ("Hot", "New", "Top", "Rising")
TOP_TIMES = ("Now", "Today", "This week", "This month", "This year", "All time")
TOP_HOURS = {"Now": 1, "Today": 24, "This week": 168, "This month": 720, "This year": 8760, "All time": 10**9}
SEARCH_TIMES = ("All time", "Past hour", "Past 24 hours", "Past week", "Past month", "Past year")
SEARCH_HOURS = {"All time": 10**9, "Past hour": 1, "Past 24 hours": 24, "Past week": 168,
                "Past month": 720, "Past year": 8760}
SEARCH_TABS = ("Posts", "Communities", "Comments", "Media", "People")
ALERTS = ("Off", "Low", "Frequent")
NOTIFICATION_SETTINGS = ("Chat messages", "Chat requests", "Mentions of u/" + USERNAME, "Comments on your posts",
                         "Upvotes on your posts", "Replies to your comments", "New followers",
                         "Trending posts", "Community recommendations", "Reddit announcements")


@dataclass
class Community:
    name: str  # without "r/": "technology"
    description: str = ""
    members: int = 0
    online: int = 0
    joined: bool = False
    alerts: str = "Off"  # community notifications: one of ALERTS
    sort: str = "Hot"  # the community feed's sort (COMMUNITY_SORTS)
    time: str = "Today"  # its time range when sorted by Top (TOP_TIMES)


@dataclass
class Post:
    id: int
    community: str
    title: str
    author: str = ""
    hours: int = 1  # age in hours
    score: int = 1
    comments: int = 0
    media: bool = False  # an image / video post (the Media tab, the Watch feed)
    body: str = ""
    upvoted: bool = False


@dataclass
class Notice:
    """An inbox notification (or a chat's last message)."""
    title: str
    body: str = ""
    age: str = "1h"


# (name, description, members, online)
COMMUNITIES = (
    ("AskReddit", "r/AskReddit is the place to ask and answer thought-provoking questions.", 47_000_000, 21_000),
    ("worldnews", "A place for major news from around the world, excluding US-internal news.", 39_000_000, 9_800),
    ("technology", "Subreddit dedicated to the news and discussions about the creation and use of technology.",
     16_000_000, 2_300),
    ("science", "This community is a place to share and discuss new scientific research.", 33_000_000, 3_100),
    ("space", "Share & discuss informative content on astrophysics, cosmology, space exploration.",
     26_000_000, 1_900),
    ("OpenAI", "OpenAI is an AI research and deployment company. Discussion of its models and products.",
     2_400_000, 640),
    ("pics", "A place for photographs, pictures, and other images.", 31_000_000, 7_500),
    ("gaming", "The number one gaming forum on the Internet.", 42_000_000, 6_200),
    ("Android", "Android news, reviews, tips, and discussions about rooting, tutorials, and apps.",
     3_600_000, 900),
    ("news", "The place for news articles about current events in the United States and the rest of the world.",
     29_000_000, 5_400),
    ("todayilearned", "You learn something new every day; what did you learn today?", 36_000_000, 4_100),
    ("movies", "The goal of /r/Movies is to provide an inclusive place for discussions and news about films.",
     33_000_000, 2_800),
    ("SpaceX", "Unofficial community for news and discussion about SpaceX and its launches.", 2_700_000, 520),
    ("aww", "Things that make you go AWW! Like puppies, bunnies, babies, and so on.", 37_000_000, 3_300),
)
JOINED = ("AskReddit", "pics", "gaming", "Android", "todayilearned", "movies")
# Not shown among the Communities tab's recommendations (found by search only).
UNLISTED = ("OpenAI", "science", "worldnews", "technology", "space")

# (community, title, author, hours, score, comments, media); each community's first post
# is its hottest.
POSTS = (
    ("worldnews", "UN climate summit reaches last-minute deal on a global fund for loss and damage",
     "Dr_Wanderlust", 5, 48_200, 3_912, False),
    ("worldnews", "Iceland declares state of emergency as volcano eruption nears coastal town", "ReykjaNews", 9,
     21_400, 1_208, True),
    ("worldnews", "Japan's population falls for the 14th straight year, government data shows", "tokyo_drift22",
     14, 15_900, 2_044, False),
    ("worldnews", "EU agrees on the world's first comprehensive rules for artificial intelligence",
     "brussels_watch", 20, 12_300, 987, False),
    ("technology", "New battery chemistry promises EV charging in under ten minutes", "voltage_vic", 3, 22_100,
     1_530, False),
    ("technology", "Major browser makers agree to phase out third-party cookies next year", "webdev_wendy", 11,
     9_800, 842, False),
    ("technology", "Researchers demo a chip that runs large language models on a phone", "siliconsam", 30, 7_400,
     611, True),
    ("science", "Scientists observe a black hole flickering in real time for the first time", "astro_ana", 6,
     31_700, 1_120, True),
    ("science", "Daily walking of 4,000 steps linked to a lower risk of death, study finds", "healthnut_42", 18,
     18_900, 2_310, False),
    ("science", "New antibiotic discovered with the help of AI kills drug-resistant bacteria", "labcoat_lou", 40,
     14_200, 703, False),
    ("space", "SpaceX Starship completes its first full orbital test flight", "orbit_olivia", 60, 41_000, 2_950,
     True),
    ("space", "Falcon 9 launches 23 Starlink satellites, booster lands for the 19th time", "launch_larry", 200,
     12_800, 640, True),
    ("space", "SpaceX launches crew to the ISS on a night launch from Florida", "kennedy_kate", 420, 19_300,
     1_012, True),
    ("space", "James Webb spots the most distant galaxy ever seen", "deepfield_dan", 30, 27_500, 890, True),
    ("space", "SpaceX launches its 100th mission of the year", "tminus10", 2_400, 16_100, 1_400, False),
    ("SpaceX", "Launch thread: Starlink Group 6-32 from Cape Canaveral", "SpaceXMod", 8, 2_100, 880, False),
    ("SpaceX", "Photo of the booster landing at sunset", "rocketgirl", 36, 5_600, 140, True),
    ("OpenAI", "OpenAI announces new features for custom GPTs", "gpt_guru", 7, 3_400, 612, False),
    ("OpenAI", "What's the most useful thing you've built with the API?", "devdan", 22, 1_250, 388, False),
    ("AskReddit", "What's a skill everyone should learn before they turn 30?", "curious_cat", 4, 28_400, 11_200,
     False),
    ("AskReddit", "What's the best advice you've ever received?", "wise_owl88", 12, 19_800, 8_700, False),
    ("pics", "My grandfather's workshop, untouched since 1972", "dusty_frames", 5, 36_700, 1_020, True),
    ("pics", "First snow of the season in the Alps this morning", "alpine_al", 15, 22_000, 430, True),
    ("gaming", "After 12 years I finally finished my Skyrim playthrough", "dovahkiin_dave", 8, 25_300, 1_700,
     True),
    ("gaming", "Which game surprised you the most this year?", "pixel_pat", 19, 6_900, 2_900, False),
    ("Android", "Android 15 beta brings satellite messaging to more phones", "droid_dana", 6, 4_200, 530,
     False),
    ("Android", "What launcher are you using in 2023?", "homescreen_hank", 27, 1_800, 760, False),
    ("news", "City council approves plan for free public transit on weekends", "metro_mike", 3, 17_500, 2_100,
     False),
    ("todayilearned", "TIL octopuses have three hearts and blue blood", "fact_finder", 10, 39_800, 1_400,
     False),
    ("movies", "Official trailer for the new Christopher Nolan film", "cinephile_sue", 13, 21_900, 3_300, True),
    ("aww", "My cat learned to open the fridge and now we have a problem", "whiskers_mom", 4, 44_100, 980,
     True),
)

NOTICES = (
    ("u/droid_dana replied to your comment in r/Android", "Totally agree, the battery life is much better now.",
     "2h"),
    ("Trending in r/science", "Scientists observe a black hole flickering in real time", "4h"),
    ("Your post in r/pics is getting upvotes", "Sunset over the harbour got 120 upvotes", "6h"),
    ("u/pixel_pat mentioned you in r/gaming", "@agentian you have to try this one", "1d"),
    ("Happy cake day!", "You've been a redditor for 3 years", "2d"),
    ("Popular in r/todayilearned", "TIL octopuses have three hearts and blue blood", "3d"),
)
CHATS = (
    ("r/gaming chat", "pixel_pat: anyone up for a match tonight?", "1h"),
    ("r/Android community chat", "droid_dana: the beta is out!", "3h"),
    ("u/curious_cat", "Thanks for the answer on my thread", "1d"),
    ("r/movies watch party", "cinephile_sue: trailer drops at noon", "2d"),
)
CHANNELS = (
    ("r/technology chat", "Talk tech news in real time", 12_400),
    ("r/space launch watch", "Live chat for every launch", 8_900),
    ("r/AskReddit hangout", "Ask anything, chat with anyone", 25_300),
    ("r/gaming LFG", "Find people to play with", 17_800),
    ("r/science discussion", "Chat about the latest research", 6_100),
    ("r/movies watch party", "Watch along and chat", 9_700),
)
HISTORY = (21, 28, 5, 25, 0)  # post ids recently viewed (the canonical history)


def default_communities() -> list[Community]:
    return [Community(n, d, m, o, joined=n in JOINED, alerts="Low" if n in JOINED else "Off")
            for n, d, m, o in COMMUNITIES]


def default_posts() -> list[Post]:
    return [Post(i, c, t, a, h, s, n, m) for i, (c, t, a, h, s, n, m) in enumerate(POSTS)]


def default_notices() -> list[Notice]:
    return [Notice(*n) for n in NOTICES[:4]]


def default_chats() -> list[Notice]:
    return [Notice(*c) for c in CHATS[:3]]


def age(hours: int) -> str:
    if hours < 24:
        return f"{hours}h"
    if hours < 24 * 30:
        return f"{hours // 24}d"
    if hours < 24 * 365:
        return f"{hours // (24 * 30)}mo"
    return f"{hours // (24 * 365)}y"


def count(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M".replace(".0M", "M")
    if n >= 1_000:
        return f"{n / 1_000:.1f}k".replace(".0k", "k")
    return str(n)


@dataclass
class RedditState:
    username: str = USERNAME
    karma: int = 1_284
    communities: list[Community] = field(default_factory=default_communities)
    posts: list[Post] = field(default_factory=default_posts)  # in "hot" order
    notices: list[Notice] = field(default_factory=default_notices)
    chats: list[Notice] = field(default_factory=default_chats)
    history: list[int] = field(default_factory=lambda: list(HISTORY))  # post ids, latest first
    feed: str = "Home"  # the feed shown: one of FEEDS
    feed_sort: str = "Best"  # its sort: one of FEED_SORTS
    feed_time: str = "Today"  # its time range when sorted by Top: one of TOP_TIMES
    notify: dict = field(default_factory=lambda: {k: True for k in NOTIFICATION_SETTINGS})
    dark_mode: bool = False
    notifications_allowed: bool = False  # the system permission
    visited: list[str] = field(default_factory=list)  # "communities", "inbox", "chat", "community:science", ...
    searches: list[tuple] = field(default_factory=list)  # (query, community or "", tab, time) shown
    opened: list[int] = field(default_factory=list)  # post ids opened
    created: list[str] = field(default_factory=list)  # communities created

    def community(self, name: str) -> Community | None:
        key = name.lower().removeprefix("r/")
        return next((c for c in self.communities if c.name.lower() == key), None)

    def post(self, pid: int) -> Post | None:
        return next((p for p in self.posts if p.id == pid), None)

    def in_community(self, name: str, sort: str = "Hot", time: str = "Today") -> list[Post]:
        posts = [p for p in self.posts if p.community.lower() == name.lower()]
        return ordered(posts, sort, time)

    def hottest(self, name: str) -> Post | None:
        posts = self.in_community(name)
        return posts[0] if posts else None

    def feed_posts(self) -> list[Post]:
        posts = self.posts
        if self.feed == "Home":
            joined = {c.name for c in self.communities if c.joined}
            posts = [p for p in posts if p.community in joined]
        elif self.feed == "Watch":
            posts = [p for p in posts if p.media]
        elif self.feed == "News":
            posts = [p for p in posts if p.community in ("worldnews", "news", "technology", "science")]
        elif self.feed == "Latest":
            return sorted(posts, key=lambda p: p.hours)
        return ordered(posts, self.feed_sort, self.feed_time)

    def joined(self) -> list[Community]:
        return [c for c in self.communities if c.joined]


def ordered(posts: list[Post], sort: str, time: str) -> list[Post]:
    if sort == "New":
        return sorted(posts, key=lambda p: p.hours)
    if sort == "Top":
        limit = TOP_HOURS.get(time, 24)
        return sorted((p for p in posts if p.hours <= limit), key=lambda p: -p.score)
    if sort == "Rising":
        return sorted(posts, key=lambda p: (p.hours > 12, -p.comments))
    return list(posts)  # Best / Hot: the state's order


def matches(post: Post, query: str) -> bool:
    """A word of the query (past two letters) is in the post's title or community, also
    without a plural ending ("recipes" finds "recipe")."""
    words = [w for w in query.lower().replace("'", " ").split() if len(w) > 2]
    text = (post.title + " " + post.community).lower()
    return any(w in text or _singular(w) in text for w in words)


def _singular(word: str) -> str:
    for ending in ("es", "s"):
        if word.endswith(ending) and len(word) - len(ending) > 2:
            return word[: -len(ending)]
    return word
