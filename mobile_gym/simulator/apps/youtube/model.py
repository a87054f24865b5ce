"""YouTube's state and content: the signed-in account ("Agentian", @agentian), the
channels and their uploads (newest first; fixed, so "the latest video" of a channel is
the same under every seed), the home feed, Shorts, subscriptions, watch history,
notifications, the week's watch time, and what the user opened, played and searched."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

ACCOUNT_NAME = "Agentian"
ACCOUNT_HANDLE = "@agentian"
ACCOUNT_EMAIL = "agentian.mobilegym@gmail.com"


@dataclass(frozen=True)
class Channel:
    name: str
    handle: str
    subscribers: str  # as the channel header shows it ("3.1M subscribers")
    description: str
    joined: str
    location: str
    total_views: str
    uploads: tuple[str, ...]  # video ids, newest first


@dataclass
class Video:
    id: str
    title: str
    channel: str
    views: int
    age: str  # "2 hours ago"
    duration: str  # "12:04"; "" for a live stream
    topic: str = "all"  # a home chip: music, gaming, news, or all
    live: bool = False


@dataclass
class Short:
    id: str
    title: str
    channel: str
    likes: str


@dataclass
class Notification:
    text: str
    age: str
    channel: str
    unread: bool = True


# Every video, by id. Each channel's uploads are listed newest first in CHANNELS.
VIDEO_POOL: tuple[Video, ...] = (
    Video("wp1", "How the Fed's rate cut could change your mortgage", "The Washington Post", 48210, "3 hours ago", "6:12", "news"),
    Video("wp2", "Inside the race to rebuild after Hurricane Helene", "The Washington Post", 153004, "1 day ago", "9:47", "news"),
    Video("wp3", "Why Americans are moving to the Sun Belt", "The Washington Post", 402117, "4 days ago", "11:05", "news"),
    Video("wp4", "The new climate bill, explained in 5 minutes", "The Washington Post", 96320, "1 week ago", "5:02", "news"),
    Video("wsj1", "Why Boeing's Starliner Got Stuck in Space", "Wall Street Journal", 210554, "5 hours ago", "8:31", "news"),
    Video("wsj2", "How Nvidia Became the World's Most Valuable Company", "Wall Street Journal", 1204332, "2 days ago", "10:18", "news"),
    Video("wsj3", "The Economics of Costco's $1.50 Hot Dog", "Wall Street Journal", 3021877, "6 days ago", "7:44", "news"),
    Video("wsj4", "Inside the Factory Making America's Chips", "Wall Street Journal", 860245, "2 weeks ago", "13:26", "news"),
    Video("oa1", "Introducing GPT-4o", "OpenAI", 5120443, "2 weeks ago", "26:13"),
    Video("oa2", "OpenAI DevDay: Opening Keynote", "OpenAI", 3407812, "1 month ago", "45:36"),
    Video("oa3", "Sora: first impressions from artists", "OpenAI", 1822034, "2 months ago", "4:58"),
    Video("hl1", "Generative AI 2024, Lecture 1: What is generative AI?", "Hung-yi Lee", 182340, "3 weeks ago", "1:12:40"),
    Video("hl2", "Machine Learning 2023: Self-attention explained", "Hung-yi Lee", 402981, "1 month ago", "58:21"),
    Video("hl3", "Diffusion models, from scratch", "Hung-yi Lee", 220754, "2 months ago", "49:05"),
    Video("mk1", "iPhone 16 Pro Review: Two Steps Forward", "Marques Brownlee", 6804112, "2 days ago", "17:43"),
    Video("mk2", "The Best Smartphones of the Year", "Marques Brownlee", 4203388, "1 week ago", "21:09"),
    Video("ve1", "The Most Misunderstood Concept in Physics", "Veritasium", 9120554, "3 days ago", "27:15"),
    Video("ve2", "Why No One Has Measured The Speed Of Light", "Veritasium", 24002113, "2 weeks ago", "19:04"),
    Video("ku1", "What If You Fell Into a Black Hole?", "Kurzgesagt", 7203419, "5 days ago", "10:44"),
    Video("ku2", "The Immune System Explained", "Kurzgesagt", 15022847, "3 weeks ago", "6:48"),
    Video("go1", "Pixel 9 Pro: Made by Google", "Google", 2103399, "1 week ago", "2:31"),
    Video("ted1", "How to speak so that people want to listen", "TED", 52003112, "4 years ago", "9:58"),
    Video("ta1", "5 Easy Weeknight Dinners", "Tasty", 3402117, "6 days ago", "12:30"),
    Video("ga1", "Minecraft, but every block is random", "GameGrumps", 1203948, "4 days ago", "24:11", "gaming"),
    Video("ga2", "Speedrunning Zelda in under 30 minutes", "GameGrumps", 845120, "2 weeks ago", "31:02", "gaming"),
    Video("mu1", "lofi hip hop radio - beats to relax/study to", "Lofi Girl", 38210, "", "", "music", True),
    Video("mu2", "Tiny Desk Concert: Billie Eilish", "NPR Music", 28034112, "2 years ago", "16:31", "music"),
    Video("na1", "NASA Live: Official Stream of NASA TV", "NASA", 12044, "", "", "all", True),
    Video("lf1", "Lex Fridman Podcast #420: The future of AI", "Lex Fridman", 2403882, "5 days ago", "2:48:12"),
    Video("hu1", "Huberman Lab: Master your sleep", "Huberman Lab", 3910442, "1 week ago", "1:52:31"),
)

VIDEOS = {v.id: v for v in VIDEO_POOL}


def _c(name: str, handle: str, subs: str, description: str, joined: str, location: str, views: str) -> Channel:
    uploads = tuple(v.id for v in VIDEO_POOL if v.channel == name)
    return Channel(name, handle, subs, description, joined, location, views, uploads)


CHANNEL_POOL: tuple[Channel, ...] = (
    _c("The Washington Post", "@washingtonpost", "3.1M subscribers",
       "The Washington Post's video team tells the stories behind the news.", "Joined Jan 31, 2006",
       "United States", "1,841,204,398 views"),
    _c("Wall Street Journal", "@wsj", "4.6M subscribers",
       "The Wall Street Journal's video explainers on business, markets and tech.", "Joined Apr 25, 2006",
       "United States", "2,304,118,902 views"),
    _c("OpenAI", "@OpenAI", "1.5M subscribers", "OpenAI's mission is to ensure that artificial general "
       "intelligence benefits all of humanity.", "Joined Oct 13, 2016", "United States", "98,203,114 views"),
    _c("Hung-yi Lee", "@HungyiLeeNTU", "252K subscribers", "Machine learning courses from National Taiwan "
       "University.", "Joined Sep 3, 2011", "Taiwan", "40,321,004 views"),
    _c("Marques Brownlee", "@mkbhd", "19.6M subscribers", "MKBHD: quality tech videos.", "Joined Mar 21, 2008",
       "United States", "4,803,331,229 views"),
    _c("Veritasium", "@veritasium", "16.4M subscribers", "An element of truth: videos about science, education "
       "and anything else.", "Joined Jul 21, 2010", "Australia", "3,104,229,114 views"),
    _c("Kurzgesagt", "@kurzgesagt", "22.8M subscribers", "Videos explaining things with optimistic nihilism.",
       "Joined Jul 9, 2013", "Germany", "2,944,102,883 views"),
    _c("Google", "@Google", "12.1M subscribers", "Experience the world of Google on our official channel.",
       "Joined Sep 18, 2005", "United States", "4,102,339,044 views"),
    _c("TED", "@TED", "25.2M subscribers", "Ideas worth spreading.", "Joined Dec 6, 2006", "United States",
       "2,602,331,008 views"),
    _c("Tasty", "@buzzfeedtasty", "21.4M subscribers", "Food that's fun to make.", "Joined Jul 2, 2015",
       "United States", "6,202,118,554 views"),
    _c("GameGrumps", "@GameGrumps", "5.4M subscribers", "Two guys play video games.", "Joined Jul 10, 2012",
       "United States", "7,203,882,004 views"),
    _c("Lofi Girl", "@LofiGirl", "14.2M subscribers", "Music to relax and study to.", "Joined Mar 18, 2015",
       "France", "2,402,331,229 views"),
    _c("NPR Music", "@nprmusic", "10.1M subscribers", "Tiny Desk concerts and more.", "Joined Apr 1, 2008",
       "United States", "3,302,118,774 views"),
    _c("NASA", "@NASA", "11.8M subscribers", "Explore the universe with NASA.", "Joined Feb 8, 2006",
       "United States", "1,202,331,994 views"),
    _c("Lex Fridman", "@lexfridman", "4.3M subscribers", "Conversations about science, technology and the "
       "human condition.", "Joined Oct 4, 2006", "United States", "802,114,339 views"),
    _c("Huberman Lab", "@hubermanlab", "6.2M subscribers", "Science and science-based tools for everyday life.",
       "Joined Dec 11, 2020", "United States", "902,443,118 views"),
)

CHANNELS = {c.name: c for c in CHANNEL_POOL}
OWN_CHANNEL = Channel(ACCOUNT_NAME, ACCOUNT_HANDLE, "No subscribers", "Videos from Agentian.",
                      "Joined Mar 3, 2021", "United States", "0 views", ())
#: Search aliases of a channel (what a query may say instead of its name).
ALIASES = {"Wall Street Journal": ("wsj", "wallstreetjournal", "thewallstreetjournal"),
           "The Washington Post": ("washingtonpost", "wapo", "thewashingtonpost"),
           "Hung-yi Lee": ("hungyilee", "hungyi", "leehungyi"),
           "Marques Brownlee": ("mkbhd",)}

#: Channels the feed may recommend (not the ones tasks search for).
FEED_CHANNELS = ("The Washington Post", "Wall Street Journal", "Marques Brownlee", "Veritasium", "Kurzgesagt", "Google", "TED", "Tasty", "GameGrumps",
                 "Lofi Girl", "NPR Music", "Lex Fridman", "Huberman Lab")
FEED_POOL = tuple(v.id for v in VIDEO_POOL if v.channel in FEED_CHANNELS and not v.live)
DEFAULT_FEED = ("mk1", "ve1", "ku1", "wsj2", "ta1", "go1", "ga1", "mu2", "wp3", "lf1", "ve2", "ted1", "hu1",
                "mk2", "ku2", "ga2")
DEFAULT_SUBSCRIPTIONS = ("Marques Brownlee", "Veritasium", "Kurzgesagt", "Google", "TED")

SHORT_POOL: tuple[Short, ...] = (
    Short("s1", "This one trick makes perfect rice every time", "Tasty", "182K"),
    Short("s2", "Light is weirder than you think", "Veritasium", "420K"),
    Short("s3", "Unboxing the tiniest phone ever", "Marques Brownlee", "1.1M"),
    Short("s4", "How big is a black hole, really?", "Kurzgesagt", "640K"),
    Short("s5", "When the speedrun goes perfectly", "GameGrumps", "98K"),
    Short("s6", "Pixel camera: night sight in 20 seconds", "Google", "54K"),
)
SHORTS = {s.id: s for s in SHORT_POOL}

NOTIFICATION_POOL: tuple[tuple[str, str], ...] = (
    ("Marques Brownlee uploaded: iPhone 16 Pro Review: Two Steps Forward", "Marques Brownlee"),
    ("Veritasium uploaded: The Most Misunderstood Concept in Physics", "Veritasium"),
    ("Recommended: What If You Fell Into a Black Hole?", "Kurzgesagt"),
    ("Google uploaded: Pixel 9 Pro: Made by Google", "Google"),
    ("TED is live: Ideas worth spreading, live from Vancouver", "TED"),
    ("Tasty uploaded: 5 Easy Weeknight Dinners", "Tasty"),
    ("Lex Fridman uploaded: Lex Fridman Podcast #420: The future of AI", "Lex Fridman"),
    ("Your Premium free trial: try YouTube Premium for 1 month", "YouTube"),
)
NOTIFICATION_AGES = ("12 minutes ago", "1 hour ago", "3 hours ago", "8 hours ago", "1 day ago", "2 days ago",
                     "3 days ago", "5 days ago", "1 week ago")

#: Explore's destinations, in the menu's order.
DESTINATIONS = ("Trending", "Music", "Movies & TV", "Live", "Gaming", "News", "Sports", "Learning",
                "Fashion & beauty", "Podcasts")
HOME_CHIPS = ("All", "Music", "Gaming", "News")

#: Help Center: popular articles, and what a search finds.
HELP_ARTICLES = ("Fix YouTube upload problems", "Manage your YouTube account settings",
                 "Get started with YouTube Premium", "Change video privacy settings",
                 "Find your watch history", "Troubleshoot YouTube video errors")
UPLOAD_ARTICLES = ("Upload YouTube videos", "Upload videos longer than 15 minutes",
                   "Fix YouTube upload problems", "Edit videos in YouTube Studio",
                   "Add subtitles & captions to your videos")
SEARCH_SUGGESTIONS = ("openai", "openai sora", "hung-yi lee", "hung-yi lee machine learning",
                      "washington post", "wall street journal", "wsj news", "mkbhd", "veritasium",
                      "kurzgesagt", "lofi hip hop", "minecraft", "news today", "podcasts")


@dataclass
class YouTubeState:
    signed_in: bool = True
    account: str = ACCOUNT_EMAIL
    subscriptions: list[str] = field(default_factory=lambda: list(DEFAULT_SUBSCRIPTIONS))
    feed: list[str] = field(default_factory=lambda: list(DEFAULT_FEED))  # home feed, video ids in order
    shorts: list[str] = field(default_factory=lambda: [s.id for s in SHORT_POOL])
    history: list[str] = field(default_factory=lambda: ["ve2", "ku1", "mk1", "ta1"])  # watched, newest first
    notifications: list[Notification] = field(default_factory=lambda: [
        Notification(text, NOTIFICATION_AGES[i], ch, unread=i < 2)
        for i, (text, ch) in enumerate(NOTIFICATION_POOL[:5])])
    views: dict[str, int] = field(default_factory=dict)  # seeded view counts, by video id
    watch_minutes: list[int] = field(default_factory=lambda: [34, 52, 18, 41, 66, 27, 45])  # last 7 days
    take_a_break: bool = False  # Time watched: "Remind me to take a break"
    bedtime: bool = False  # "Remind me when it's bedtime"
    digest: bool = False  # "Scheduled digest"
    notifications_allowed: bool = False
    visited: list[str] = field(default_factory=list)  # page keys opened, in order
    played: list[str] = field(default_factory=list)  # video ids opened in the player
    shorts_played: list[str] = field(default_factory=list)  # short ids shown in the Shorts player
    searches: list[str] = field(default_factory=list)
    help_searches: list[str] = field(default_factory=list)
    subscribed: list[str] = field(default_factory=list)  # channels the user subscribed to, in order
    unsubscribed: list[str] = field(default_factory=list)

    def video(self, vid: str) -> Video:
        """The video, with its seeded view count if it has one."""
        v = VIDEOS[vid]
        return replace(v, views=self.views[vid]) if vid in self.views else v

    def latest(self, channel: str) -> str:
        """The id of a channel's newest upload."""
        return CHANNELS[channel].uploads[0]
