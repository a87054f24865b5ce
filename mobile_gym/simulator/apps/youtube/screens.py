"""YouTube's screens. The real app shows nearly everything in one activity,
WatchWhileActivity: the tabs (Home with its chips and Shorts shelf, Shorts, Subscriptions,
You) under the pivot bar, and, stacked over them, search, results, channel pages, the
player, Explore's destinations (Trending, Live, Podcasts, ...), Notifications, History and
Time watched. Settings and the Help Center are activities of their own.

A channel's name next to its Subscribe button is always the pair `channel_bar` builds
(same row, same height), so the name is on screen exactly when the button is: a task can
tell "subscribed" from the name being there without "Subscribe to X."."""

from __future__ import annotations

import pickle
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.apps.youtube.model import (
    ACCOUNT_EMAIL, ACCOUNT_HANDLE, ACCOUNT_NAME, ALIASES, CHANNEL_POOL, CHANNELS, DESTINATIONS,
    HELP_ARTICLES, HOME_CHIPS, OWN_CHANNEL, SEARCH_SUGGESTIONS, SHORTS, UPLOAD_ARTICLES, VIDEOS, Channel,
    Video,
)
from mobile_gym.simulator.views import (
    FRAME, Button, Column, Divider, EditText, Icon, Row, Scroll, Spacer, Stack, Switch, Text, View,
)

PKG = "com.google.android.youtube"
ID = PKG + ":id/"
WATCH = "com.google.android.apps.youtube.app.watchwhile.WatchWhileActivity"
SETTINGS = "com.google.android.apps.youtube.app.settings.SettingsActivity"
HELP = "com.google.android.gms.googlehelp.helpactivities.HelpActivity"
RED = (255, 0, 0)
DARK = (15, 15, 15)
WHITE = (255, 255, 255)
CHIP = (242, 242, 242)
THUMB = (60, 60, 66)
TABS = (("home", "Home", "home"), ("shorts", "Shorts", "play"), ("create", "", "add"),
        ("subscriptions", "Subscriptions", "tabs"), ("you", "You", "person"))
CHANNEL_TABS = ("Home", "Videos", "Shorts", "Playlists")
SORTS = ("Latest", "Popular", "Oldest")
DAYS = ("M", "T", "W", "T", "F", "S", "S")


def views_text(n: int, live: bool = False) -> str:
    if n >= 1_000_000:
        s = f"{n / 1_000_000:.1f}".rstrip("0").rstrip(".") + "M"
    elif n >= 1_000:
        s = f"{n // 1000}K"
    else:
        s = str(n)
    return f"{s} watching" if live else f"{s} views"


def meta(v: Video, with_channel: bool = True) -> str:
    parts = [v.channel] if with_channel else []
    parts.append(views_text(v.views, v.live))
    if v.age:
        parts.append(v.age)
    return " · ".join(parts)


def compress(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def matching_channels(query: str) -> list[Channel]:
    q = compress(query)
    if len(q) < 3:
        return []
    found = []
    for c in CHANNEL_POOL:
        keys = {compress(c.name), compress(c.handle), *ALIASES.get(c.name, ())}
        if any(q == k or (len(q) >= 4 and q in k) or (len(k) >= 4 and k in q) for k in keys):
            found.append(c)
    return found


def matching_videos(query: str) -> list[str]:
    words = [w for w in query.lower().replace("-", " ").split() if len(w) >= 3]
    found: list[str] = []
    for c in matching_channels(query):
        found += [vid for vid in c.uploads if vid not in found]
    for vid, v in VIDEOS.items():
        if vid not in found and any(w in v.title.lower() for w in words):
            found.append(vid)
    return found[:8]


# ------------------------------------------------------------------ shared views

def avatar(name: str, size: int = 40, on_click=None) -> View:
    return Icon("person", desc=name, on_click=on_click, h=size, w=size, radius=size / 2, style="appicon",
                bg=(204, 0, 0) if name == ACCOUNT_NAME else (96, 125, 139), rid=ID + "channel_avatar")


def subscribe_button(page: Page, channel: str) -> View:
    if channel in page.app.state.subscriptions:
        return Button("Subscribed", partial(page.manage_subscription, channel), style="tonal", w=116, h=48,
                      desc=f"Unsubscribe from {channel}.", rid=ID + "subscribe_button", bg=CHIP, fg=DARK)
    return Button("Subscribe", partial(page.subscribe, channel), style="filled", w=108, h=48,
                  desc=f"Subscribe to {channel}.", rid=ID + "subscribe_button", bg=DARK, fg=WHITE)


def channel_bar(page: Page, channel: str, fg=None) -> View:
    """The channel's name and its Subscribe / Subscribed button, in one row of one height."""
    return Row(Text(channel, size=16, bold=True, h=48, pad=(0, 12, 0, 0), rid=ID + "channel_title", fg=fg),
               subscribe_button(page, channel), h=48, gap=8)


def thumbnail(v: Video, h: float, w: float | None = None) -> View:
    badge = Text("LIVE" if v.live else v.duration, size=11, h=18, w=44 if not v.live else 36, align="center",
                 bg=RED if v.live else DARK, fg=WHITE, radius=4, rid=ID + "time_status")
    return Stack(View(FRAME, (), bg=THUMB, radius=8), Column(Spacer(fill=True), Row(Spacer(), badge, h=18),
                                                           pad=(0, 0, 6, 6)),
                 h=h, w=w, rid=ID + "thumbnail", desc="")


def video_card(page: Page, v: Video) -> View:
    """A home feed item: the thumbnail over the avatar, title and byline."""
    return Column(
        thumbnail(v, 196),
        Row(avatar(v.channel, 36, partial(page.open_channel, v.channel)),
            Column(Text(v.title, size=15, lines=2, rid=ID + "title"),
                   Text(meta(v), size=12, style="muted", rid=ID + "details")),
            Icon("more", desc="Action menu", h=36, w=32), h=80, gap=10, pad=(12, 8, 4, 0)),
        h=276, on_click=partial(page.play, v.id), desc=f"{v.title} - {meta(v)} - play video",
        rid=ID + "video_card",
    )


def compact_row(page: Page, v: Video, with_channel: bool = True) -> View:
    return Row(thumbnail(v, 90, 160),
               Column(Text(v.title, size=14, lines=2, rid=ID + "title"),
                      Text(meta(v, with_channel), size=12, lines=2, style="muted", rid=ID + "details")),
               Icon("more", desc="Action menu", h=36, w=28),
               h=106, gap=10, pad=(12, 8, 4, 8), on_click=partial(page.play, v.id),
               desc=f"{v.title} - {meta(v)} - play video", rid=ID + "compact_video")


def short_player(page: Page, sid: str) -> View:
    """The Shorts player: the clip, its title and channel, and the action column."""
    s = SHORTS[sid]

    def action(icon: str, label: str, rid: str, desc: str) -> View:
        return Column(Icon(icon, desc=desc, h=44, w=48, fg=WHITE, rid=ID + rid),
                      Text(label, size=12, align="center", fg=WHITE, rid=ID + rid + "_text"), h=68, w=56)

    return Row(
        Column(Spacer(fill=True),
               Row(avatar(s.channel, 32, partial(page.open_channel, s.channel)),
                   Text("@" + compress(s.channel), size=14, fg=WHITE, rid=ID + "reel_channel_name", h=32),
                   h=40, gap=8),
               Text(s.title, size=14, lines=2, fg=WHITE, rid=ID + "reel_multi_format_title"),
               pad=(12, 0, 8, 12), gap=6),
        Column(Spacer(fill=True),
               action("star", s.likes, "reel_like_button", f"like this video along with {s.likes} other people"),
               action("remove", "Dislike", "reel_dislike_button", "Dislike this video"),
               action("menu", "Comments", "reel_comment_button", "View comments"),
               action("share", "Share", "reel_share_button", "Share this video"),
               action("refresh", "Remix", "reel_dyn_remix", "Remix"),
               w=64, pad=(0, 0, 4, 12)),
        bg=DARK, fill=True, rid=ID + "reel_player_page_container", desc=s.title,
    )


# ------------------------------------------------------------------ pages

#: What every surface has that its `inputs` leaves out (the runtime adds fields and focus).
SURFACE_FIELDS = frozenset({"app", "fields", "scroll", "focus", "select_all"})


def page_inputs(activity: Activity) -> bytes:
    """Everything a page's build reads: the app's state and the page's own attributes."""
    own = {k: v for k, v in vars(activity).items() if k not in SURFACE_FIELDS}
    return pickle.dumps((activity.app.state, own), pickle.HIGHEST_PROTOCOL)


class Page(Activity):
    """A screen of WatchWhileActivity, with the handlers every page shares."""

    name = WATCH
    inputs = page_inputs

    @property
    def state(self):
        return self.app.state

    def play(self, vid: str) -> None:
        self.start(Watch(self.app, vid))

    def open_channel(self, name: str) -> None:
        if name in CHANNELS or name == ACCOUNT_NAME:
            self.start(ChannelPage(self.app, name))

    def open_search(self) -> None:
        self.start(SearchPage(self.app))
        self.sys.keyboard = True

    def open_notifications(self) -> None:
        self.start(NotificationsPage(self.app))

    def subscribe(self, channel: str) -> None:
        s = self.state
        if channel not in s.subscriptions:
            s.subscriptions.insert(0, channel)
            s.subscribed.append(channel)
            self.sys.toast("Subscription added")

    def manage_subscription(self, channel: str) -> None:
        self.sys.show(SubscriptionSheet(self.app, channel))

    def top_bar(self) -> View:
        return Row(Icon("play", h=32, w=40, fg=RED, desc=""),
                   Text("YouTube", size=20, bold=True, h=48, pad=(0, 12, 0, 0), desc="YouTube",
                        rid=ID + "youtube_logo"),
                   Icon("tabs", desc="Cast. Disconnected", rid=ID + "media_route_button"),
                   Icon("bell", desc="Notifications", on_click=self.open_notifications, rid=ID + "menu_item_0"),
                   Icon("search", desc="Search", on_click=self.open_search, rid=ID + "menu_item_1"),
                   h=56, pad=(8, 4, 4, 4), rid=ID + "toolbar")


def unsubscribe(app, channel: str) -> None:
    s = app.state
    if channel in s.subscriptions:
        s.subscriptions.remove(channel)
        s.unsubscribed.append(channel)
        app.sys.toast("Subscription removed")


class SubscriptionSheet(Dialog):
    """"Subscribed" tapped: notification choices and Unsubscribe."""

    def __init__(self, app, channel: str) -> None:
        super().__init__(kind="sheet", package=PKG)
        self.app, self.channel = app, channel

    def confirm(self) -> None:
        self.close()
        self.app.sys.show(Dialog(f"Unsubscribe from {self.channel}?", "",
                                 (("Cancel", None), ("Unsubscribe", partial(unsubscribe, self.app, self.channel))),
                                 package=PKG))

    def build(self) -> View:
        def row(icon: str, label: str, click=None) -> View:
            return Row(Icon(icon, w=40), Text(label, size=16, rid=ID + "list_item_text"),
                       h=52, gap=12, pad=(16, 0, 16, 0), on_click=click or self.close)

        return Column(
            Text("Notifications", size=14, bold=True, h=40, pad=(16, 12, 0, 0)),
            row("bell", "All"), row("notifications", "Personalized"), row("remove", "None"),
            row("person", "Unsubscribe", self.confirm),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "bottom_sheet_list",
        )


class Main(Page):
    """The tabs under the pivot bar: Home, Shorts, Subscriptions, You."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.tab = "home"
        self.chip = "All"
        self.channel: str | None = None  # Subscriptions: the channel picked in the avatar row
        self.short = 0  # Shorts: index of the short shown
        app.state.visited.append("home")

    # handlers ---------------------------------------------------------------
    def go(self, tab: str) -> None:
        s = self.state
        self.tab, self.channel = tab, None
        self.scroll.clear()
        s.visited.append(tab)
        if tab == "shorts":
            self.short = 0
            if s.shorts:
                s.shorts_played.append(s.shorts[0])

    def pick_chip(self, chip: str) -> None:
        self.chip = chip
        self.scroll.clear()

    def pick_channel(self, channel: str | None) -> None:
        self.channel = channel
        self.scroll.clear()
        if channel is not None:
            self.state.visited.append("subscriptions:" + channel)

    def explore(self) -> None:
        self.sys.show(ExploreSheet(self))

    def create(self) -> None:
        self.sys.show(CreateSheet())

    def open_destination(self, name: str) -> None:
        self.start(Destination(self.app, name))

    def history(self) -> None:
        self.start(HistoryPage(self.app))

    def time_watched(self) -> None:
        self.start(TimeWatchedPage(self.app))

    def help(self) -> None:
        self.start(HelpPage(self.app))

    def settings(self) -> None:
        self.start(SettingsPage(self.app))

    def my_channel(self) -> None:
        self.start(ChannelPage(self.app, ACCOUNT_NAME))

    def all_subscriptions(self) -> None:
        self.start(SubscriptionsList(self.app))

    def on_swipe(self, dx: float, dy: float) -> bool:
        if self.tab != "shorts" or abs(dy) < abs(dx) or not self.state.shorts:
            return False
        n = len(self.state.shorts)
        self.short = (self.short + (1 if dy < 0 else -1)) % n
        self.state.shorts_played.append(self.state.shorts[self.short])
        return True

    def on_back(self) -> bool:
        if self.tab == "subscriptions" and self.channel is not None:
            self.pick_channel(None)
            return True
        if self.tab != "home":
            self.go("home")
            return True
        if self.chip != "All":
            self.pick_chip("All")
            return True
        return False

    # views ------------------------------------------------------------------
    def pivot_bar(self) -> View:
        items = []
        for key, label, icon in TABS:
            on = key == self.tab
            if key == "create":
                items.append(Column(Icon("add", desc="Create", on_click=self.create, h=40, w=40, radius=20,
                                         bg=CHIP, rid=ID + "image"), h=56, pad=(0, 8, 0, 0), weight=1,
                                    align="center"))
                continue
            items.append(Column(Icon(icon, h=28, w=None, fg=WHITE if self.tab == "shorts" else DARK),
                                Text(label, size=10, align="center", bold=on, selected=on, rid=ID + "text",
                                     fg=WHITE if self.tab == "shorts" else None),
                                h=56, pad=(0, 6, 0, 0), weight=1, desc=label, selected=on,
                                on_click=partial(self.go, key), rid=ID + "pivot_" + key))
        return Row(*items, h=56, rid=ID + "pivot_bar", bg=DARK if self.tab == "shorts" else WHITE)

    def home(self) -> list[View]:
        s = self.state
        chips = [Icon("globe", desc="Explore", on_click=self.explore, h=36, w=44, bg=CHIP, radius=8,
                      rid=ID + "explore_button")]
        for chip in HOME_CHIPS:
            on = chip == self.chip
            chips.append(Text(chip, size=13, h=36, w=10 * len(chip) + 26, align="center", radius=8,
                              bg=DARK if on else CHIP, fg=WHITE if on else DARK, selected=on, desc=chip,
                              on_click=partial(self.pick_chip, chip), rid=ID + "chip_cloud_chip_text"))
        videos = [VIDEOS[vid] for vid in s.feed]
        if self.chip != "All":
            videos = [v for v in videos if v.topic == self.chip.lower()]
        cards: list[View] = [video_card(self, s.video(v.id)) for v in videos]
        if self.chip == "All" and s.shorts:
            shelf = Column(
                Row(Icon("play", h=32, w=32, fg=RED), Text("Shorts", size=18, bold=True, rid=ID + "shelf_title"),
                    h=40, gap=6, pad=(12, 4, 0, 0)),
                Row(*[Column(View(FRAME, (), bg=THUMB, radius=10, h=150),
                             Text(SHORTS[sid].title, size=13, lines=2, rid=ID + "reel_item_title"),
                             weight=1, h=196, desc=SHORTS[sid].title, on_click=partial(self.open_short, sid),
                             rid=ID + "reel_item")
                      for sid in s.shorts[:2]], h=196, gap=8, pad=(12, 0, 12, 0)),
                h=248, rid=ID + "reel_shelf")
            cards.insert(min(1, len(cards)), shelf)
        if not cards:
            cards.append(Text("No videos here yet", size=14, style="muted", align="center", h=64))
        return [self.top_bar(), Row(*chips, Spacer(), h=48, gap=8, pad=(8, 6, 8, 6), rid=ID + "chip_cloud"),
                Scroll(*cards, key="home", rid=ID + "results")]

    def open_short(self, sid: str) -> None:
        self.start(ShortsPlayer(self.app, sid))

    def shorts(self) -> list[View]:
        s = self.state
        if not s.shorts:
            return [Spacer(fill=True)]
        sid = s.shorts[self.short % len(s.shorts)]
        return [Row(Spacer(), Icon("search", desc="Search", on_click=self.open_search, fg=WHITE),
                    Icon("more", desc="More options", fg=WHITE), h=52, bg=DARK),
                short_player(self, sid)]

    def subscriptions(self) -> list[View]:
        s = self.state
        avatars = [Column(avatar(name, 44), Text(name, size=11, align="center", rid=ID + "channel_name"),
                          w=66, h=72, desc=name, selected=name == self.channel,
                          on_click=partial(self.pick_channel, name), rid=ID + "channel_avatar_item")
                   for name in s.subscriptions[:4]]
        row = Row(*avatars, Spacer(),
                  Text("All", size=14, bold=True, w=44, h=72, pad=(0, 26, 0, 0), fg=(6, 95, 212),
                       on_click=self.all_subscriptions, rid=ID + "all_subscriptions_button"),
                  h=80, pad=(8, 4, 8, 4), rid=ID + "channel_list")
        if self.channel is not None:
            ch = CHANNELS[self.channel]
            header = Row(Text(ch.name, size=18, bold=True, h=48, pad=(0, 12, 0, 0),
                              rid=ID + "subscriptions_channel_title"),
                         Button("View channel", partial(self.open_channel, ch.name), style="text", w=120, h=48,
                                rid=ID + "view_channel_button"),
                         h=52, pad=(12, 0, 8, 0))
            vids = list(ch.uploads)
        else:
            header = Row(*[Text(c, size=13, h=32, w=10 * len(c) + 24, align="center", radius=8,
                                bg=DARK if c == "All" else CHIP, fg=WHITE if c == "All" else DARK,
                                selected=c == "All", rid=ID + "chip_cloud_chip_text")
                           for c in ("All", "Today", "Videos", "Live")], Spacer(), h=44, gap=8, pad=(8, 6, 8, 6))
            vids = []
            for depth in range(3):
                for name in s.subscriptions:
                    up = CHANNELS[name].uploads
                    if depth < len(up):
                        vids.append(up[depth])
        rows = [video_card(self, s.video(vid)) for vid in vids] or [
            Text("Subscribe to channels to see their latest videos here", size=14, lines=2, style="muted",
                 align="center", h=64)]
        return [self.top_bar(), row, header, Scroll(*rows, key="subscriptions", rid=ID + "results")]

    def you(self) -> list[View]:
        s = self.state

        def item(icon: str, label: str, click=None) -> View:
            return Row(Icon(icon, w=40), Text(label, size=15, rid=ID + "title"), h=52, gap=16,
                       pad=(12, 0, 12, 0), on_click=click, desc=label, rid=ID + "you_list_item")

        def shelf(title: str, click) -> View:
            return Row(Text(title, size=18, bold=True, h=44, pad=(0, 10, 0, 0), on_click=click,
                            rid=ID + "shelf_header_title"),
                       Button("View all", click, style="outlined", w=88, h=36, rid=ID + "view_all_button"),
                       h=48, pad=(12, 6, 12, 6))

        history = [Column(thumbnail(s.video(vid), 84), Text(VIDEOS[vid].title, size=12, lines=2),
                          weight=1, h=124, on_click=partial(self.play, vid), desc=VIDEOS[vid].title,
                          rid=ID + "history_item") for vid in s.history[:2]]
        return [
            Row(Spacer(), Icon("tabs", desc="Cast. Disconnected"),
                Icon("search", desc="Search", on_click=self.open_search, rid=ID + "menu_item_1"),
                Icon("settings", desc="Settings", on_click=self.settings, rid=ID + "menu_item_2"),
                h=56, pad=(8, 4, 4, 4), rid=ID + "toolbar"),
            Scroll(
                Row(Icon("person", desc=ACCOUNT_NAME, h=64, w=64, radius=32, style="appicon", bg=(204, 0, 0),
                         rid=ID + "channel_avatar"),
                    Column(Text(ACCOUNT_NAME, size=22, bold=True, rid=ID + "account_name"),
                           Row(Text(ACCOUNT_HANDLE + " · ", size=12, style="muted", w=80, h=32, pad=(0, 8, 0, 0)),
                               Text("View channel", size=12, h=32, pad=(0, 8, 0, 0), on_click=self.my_channel,
                                    rid=ID + "view_channel"), h=32)),
                    h=88, gap=12, pad=(12, 8, 12, 8), rid=ID + "account_header"),
                shelf("History", self.history),
                Row(*history, Spacer() if not history else None, h=124, gap=8, pad=(12, 0, 12, 0)),
                shelf("Playlists", None),
                Row(*[Column(View(FRAME, (), bg=THUMB, radius=8, h=84), Text(name, size=12, bold=True),
                             weight=1, h=108, desc=name, rid=ID + "playlist_item")
                      for name in ("Watch later", "Liked videos")], h=108, gap=8, pad=(12, 0, 12, 0)),
                Divider(),
                item("play", "Your videos"),
                item("download", "Downloads"),
                item("tabs", "Your movies & TV"),
                item("star", "Get YouTube Premium"),
                item("history", "Time watched", self.time_watched),
                item("info", "Help & feedback", self.help),
                key="you", rid=ID + "results"),
        ]

    def build(self) -> View:
        parts = {"home": self.home, "shorts": self.shorts, "subscriptions": self.subscriptions,
                 "you": self.you}[self.tab]()
        return Column(*parts, self.pivot_bar(), bg=DARK if self.tab == "shorts" else None)


class ExploreSheet(Dialog):
    """Explore (the compass before the chips): YouTube's destinations."""

    def __init__(self, act: Main) -> None:
        super().__init__(kind="sheet", package=PKG)
        self.act = act

    def pick(self, name: str) -> None:
        self.close()
        self.act.open_destination(name)

    def build(self) -> View:
        icons = {"Trending": "flag", "Music": "sound", "Movies & TV": "tabs", "Live": "circle",
                 "Gaming": "apps", "News": "info", "Sports": "star", "Learning": "bookmark",
                 "Fashion & beauty": "star", "Podcasts": "mic"}
        return Column(
            Text("Explore", size=20, bold=True, h=48, pad=(16, 12, 0, 0), rid=ID + "explore_title"),
            Scroll(*[Row(Icon(icons[d], w=40), Text(d, size=16, rid=ID + "explore_item_title"), h=48, gap=16,
                         pad=(16, 0, 16, 0), desc=d, on_click=partial(self.pick, d), rid=ID + "explore_item")
                     for d in DESTINATIONS], key="explore", rid=ID + "explore_list"),
            h=540, pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "explore_sheet",
        )


class CreateSheet(Dialog):
    """The pivot bar's "+": Create a Short, Upload a video, Go live, Create a post."""

    def __init__(self) -> None:
        super().__init__(kind="sheet", package=PKG)

    def build(self) -> View:
        return Column(
            Text("Create", size=20, bold=True, h=48, pad=(16, 12, 0, 0)),
            *[Row(Icon(icon, w=40), Text(label, size=16, rid=ID + "list_item_text"), h=52, gap=16,
                  pad=(16, 0, 16, 0), on_click=self.close)
              for icon, label in (("play", "Create a Short"), ("download", "Upload a video"),
                                  ("circle", "Go live"), ("edit", "Create a post"))],
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "bottom_sheet_list",
        )


class ShortsPlayer(Page):
    """A short opened from the Home shelf; swipes move to the next one."""

    def __init__(self, app, sid: str) -> None:
        super().__init__(app)
        shorts = app.state.shorts
        self.index = shorts.index(sid) if sid in shorts else 0
        self.sid = sid
        app.state.shorts_played.append(sid)

    def on_swipe(self, dx: float, dy: float) -> bool:
        shorts = self.state.shorts
        if abs(dy) < abs(dx) or not shorts:
            return False
        self.index = (self.index + (1 if dy < 0 else -1)) % len(shorts)
        self.sid = shorts[self.index]
        self.state.shorts_played.append(self.sid)
        return True

    def build(self) -> View:
        return Column(Row(Icon("back", desc="Navigate up", on_click=self.finish, fg=WHITE), Spacer(),
                          Icon("search", desc="Search", on_click=self.open_search, fg=WHITE),
                          Icon("more", desc="More options", fg=WHITE), h=52),
                      short_player(self, self.sid), bg=DARK)


class Watch(Page):
    """The player and the video's page: title, views, channel, actions, comments, up next."""

    def __init__(self, app, vid: str) -> None:
        super().__init__(app)
        self.vid = vid
        self.paused = False
        self.liked = False
        s = app.state
        s.played.append(vid)
        if vid in s.history:
            s.history.remove(vid)
        s.history.insert(0, vid)

    def toggle(self) -> None:
        self.paused = not self.paused

    def like(self) -> None:
        self.liked = not self.liked

    def play(self, vid: str) -> None:
        self.finish()
        self.start(Watch(self.app, vid))

    def build(self) -> View:
        s = self.state
        v = s.video(self.vid)
        up_next = [vid for vid in s.feed if vid != self.vid][:4]
        if v.channel in CHANNELS:
            up_next = [vid for vid in CHANNELS[v.channel].uploads if vid != self.vid][:2] + \
                      [vid for vid in up_next if VIDEOS[vid].channel != v.channel][:3]
        return Column(
            Stack(View(FRAME, (), bg=(0, 0, 0)),
                  Column(Spacer(fill=True),
                         Row(Spacer(), Icon("play" if self.paused else "pause",
                                            desc="Play video" if self.paused else "Pause video",
                                            on_click=self.toggle, fg=WHITE, h=56, w=56, rid=ID + "player_control_play_pause_replay_button"),
                             Spacer(), h=56),
                         Spacer(fill=True)),
                  Column(Row(Icon("expand", desc="Minimize", on_click=self.finish, fg=WHITE, h=40, w=40), Spacer(),
                             h=40), Spacer(fill=True)),
                  h=210, rid=ID + "watch_player"),
            Scroll(
                Text(v.title, size=18, bold=True, lines=2, pad=(12, 8, 12, 0), rid=ID + "video_title"),
                Text(meta(v, with_channel=False), size=12, style="muted", pad=(12, 0, 12, 0), rid=ID + "video_info"),
                Row(avatar(v.channel, 40, partial(self.open_channel, v.channel)),
                    channel_bar(self, v.channel), h=56, gap=10, pad=(12, 4, 12, 4), rid=ID + "owner"),
                Row(Button("Liked" if self.liked else "Like", self.like, style="tonal", w=84, h=36, bg=CHIP, fg=DARK,
                           desc="like this video", rid=ID + "like_button", selected=self.liked),
                    Button("Share", None, style="tonal", w=84, h=36, bg=CHIP, fg=DARK, rid=ID + "share_button"),
                    Button("Save", None, style="tonal", w=76, h=36, bg=CHIP, fg=DARK, rid=ID + "save_button"),
                    h=48, gap=8, pad=(12, 6, 12, 6)),
                Column(Text("Comments", size=14, bold=True), Text("Add a comment...", size=12, style="muted"),
                       h=64, pad=(12, 8, 12, 8), bg=CHIP, radius=12, rid=ID + "comments_entry_point"),
                *[compact_row(self, s.video(vid)) for vid in up_next],
                key="watch", rid=ID + "watch_list"),
        )


class ChannelPage(Page):
    """A channel: header (name, Subscribe, handle, subscribers, "more" about it), tabs
    Home / Videos / Shorts / Playlists, Videos sorted Latest / Popular / Oldest."""

    def __init__(self, app, channel: str) -> None:
        super().__init__(app)
        self.channel = channel
        self.tab = "Home"
        self.sort = "Latest"
        app.state.visited.append("channel:" + channel)

    @property
    def info(self) -> Channel:
        return OWN_CHANNEL if self.channel == ACCOUNT_NAME else CHANNELS[self.channel]

    def pick_tab(self, tab: str) -> None:
        self.tab = tab
        self.scroll.clear()

    def pick_sort(self, sort: str) -> None:
        self.sort = sort

    def about(self) -> None:
        self.state.visited.append("about:" + self.info.handle)
        self.sys.show(AboutSheet(self.app, self.info))

    def uploads(self) -> list[Video]:
        s = self.state
        videos = [s.video(vid) for vid in self.info.uploads]
        if self.tab == "Videos" and self.sort == "Popular":
            return sorted(videos, key=lambda v: -v.views)
        if self.tab == "Videos" and self.sort == "Oldest":
            return videos[::-1]
        return videos

    def build(self) -> View:
        c = self.info
        own = self.channel == ACCOUNT_NAME
        tabs = Row(*[Text(t, size=14, bold=t == self.tab, selected=t == self.tab, h=44, w=10 * len(t) + 28,
                          align="center", on_click=partial(self.pick_tab, t), desc=t, rid=ID + "tab_title")
                     for t in CHANNEL_TABS], Spacer(), h=44, pad=(4, 0, 4, 0), rid=ID + "tabs_bar")
        content: list[View] = []
        if self.tab in ("Home", "Videos"):
            if self.tab == "Videos":
                content.append(Row(*[Text(o, size=13, h=32, w=10 * len(o) + 24, align="center", radius=8,
                                          bg=DARK if o == self.sort else CHIP, fg=WHITE if o == self.sort else DARK,
                                          selected=o == self.sort, on_click=partial(self.pick_sort, o),
                                          rid=ID + "chip_cloud_chip_text") for o in SORTS],
                                   Spacer(), h=44, gap=8, pad=(12, 6, 12, 6)))
            else:
                content.append(Text("Videos", size=16, bold=True, h=36, pad=(12, 8, 0, 0), rid=ID + "shelf_title"))
            content += [compact_row(self, v, with_channel=False) for v in self.uploads()]
            if not c.uploads:
                content.append(Text("Upload a video to get started" if own else "This channel has no videos",
                                    size=14, style="muted", align="center", h=64, rid=ID + "empty_message"))
        else:
            content.append(Text(f"This channel has no {self.tab.lower()}", size=14, style="muted", align="center",
                                h=64, rid=ID + "empty_message"))
        if own:
            name_row = Text(c.name, size=16, bold=True, h=48, pad=(0, 12, 0, 0), rid=ID + "channel_title")
            buttons = Row(Button("Manage videos", None, style="tonal", h=36, bg=CHIP, fg=DARK),
                          Button("Edit channel", None, style="tonal", h=36, w=120, bg=CHIP, fg=DARK),
                          h=44, gap=8, pad=(12, 4, 12, 4))
        else:
            name_row = channel_bar(self, c.name)
            buttons = None
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish),
                Text(c.name, size=18, h=48, pad=(0, 12, 0, 0), rid=ID + "toolbar_title"),
                Icon("search", desc="Search", on_click=self.open_search), Icon("more", desc="More options"),
                h=56, pad=(4, 4, 4, 4), rid=ID + "toolbar"),
            Scroll(
                Row(avatar(c.name, 64), Column(name_row,
                                               Text(f"{c.handle} · {c.subscribers}", size=12, style="muted",
                                                    rid=ID + "channel_subtitle")),
                    h=92, gap=12, pad=(12, 8, 12, 8), rid=ID + "channel_header"),
                Row(Text(c.description, size=13, style="muted", rid=ID + "channel_description"),
                    Text("...more", size=13, bold=True, w=60, rid=ID + "more_text"),
                    h=40, pad=(12, 0, 12, 0), on_click=self.about, desc="More about this channel",
                    rid=ID + "channel_tagline"),
                buttons,
                tabs, Divider(),
                *content,
                key="channel", rid=ID + "results"),
        )


class AboutSheet(Dialog):
    """The channel's About: its description and "More info" (link, subscribers, videos,
    views, joined, location)."""

    def __init__(self, app, channel: Channel) -> None:
        super().__init__(kind="sheet", package=PKG)
        self.app, self.channel = app, channel

    def build(self) -> View:
        c = self.channel

        def row(icon: str, text: str) -> View:
            return Row(Icon(icon, w=40, h=40), Text(text, size=14, rid=ID + "about_row_text"),
                       h=44, gap=12, pad=(16, 0, 16, 0))

        return Column(
            Row(Text("About", size=20, bold=True, h=48, pad=(0, 12, 0, 0), rid=ID + "about_title"),
                Icon("close", desc="Close", on_click=self.close, rid=ID + "close_button"), h=52, pad=(16, 0, 4, 0)),
            Text("Description", size=16, bold=True, h=32, pad=(16, 6, 0, 0), rid=ID + "about_section_header"),
            Text(c.description, size=14, lines=2, pad=(16, 0, 16, 0), rid=ID + "about_description"),
            Text("More info", size=16, bold=True, h=32, pad=(16, 6, 0, 0), rid=ID + "about_section_header"),
            row("globe", "www.youtube.com/" + c.handle),
            row("person", c.subscribers),
            row("play", f"{len(c.uploads)} videos"),
            row("info", c.total_views),
            row("info", c.joined),
            row("location", c.location),
            Row(Button("Share channel", None, style="tonal", h=40, bg=CHIP, fg=DARK),
                Button("Report user", None, style="tonal", h=40, bg=CHIP, fg=DARK), h=52, gap=8, pad=(16, 6, 16, 6)),
            pad=(0, 4, 0, 8), style="dialog", radius=16, rid=ID + "about_sheet",
        )


class SearchPage(Page):
    """The search box with suggestions (recent searches first)."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.fields["query"] = ""
        self.focus = "query"

    def submit(self, text: str) -> None:
        q = text.strip()
        if not q:
            return
        self.state.searches.append(q)
        self.finish()
        self.start(Results(self.app, q))

    def build(self) -> View:
        typed = self.fields.get("query", "").strip().lower()
        if typed:
            suggestions = [(s, "search") for s in SEARCH_SUGGESTIONS if s.startswith(typed)][:8]
            if typed not in [s for s, _ in suggestions]:
                suggestions.insert(0, (typed, "search"))
        else:
            recent = list(dict.fromkeys(reversed(self.state.searches)))[:3]
            suggestions = [(s, "history") for s in recent] + \
                          [(s, "search") for s in SEARCH_SUGGESTIONS[:6] if s not in recent]
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish),
                EditText("query", hint="Search YouTube", on_submit=self.submit, rid=ID + "search_edit_text",
                         style="search", h=44),
                Icon("mic", desc="Voice search", rid=ID + "voice_search"),
                h=56, pad=(4, 6, 4, 6), rid=ID + "search_bar"),
            Scroll(*[Row(Icon(icon, w=40), Text(s, size=15, rid=ID + "text"), Icon("forward", w=36, h=40),
                         h=48, gap=12, pad=(12, 0, 8, 0), on_click=partial(self.submit, s), desc=s,
                         rid=ID + "search_suggestion")
                     for s, icon in suggestions], key="suggestions", rid=ID + "results"),
        )


class Results(Page):
    """Search results: a channel card (with Subscribe) for a channel the query names,
    then videos."""

    def __init__(self, app, query: str) -> None:
        super().__init__(app)
        self.query = query

    def edit(self) -> None:
        page = SearchPage(self.app)
        page.fields["query"] = self.query
        self.finish()
        self.start(page)
        self.sys.keyboard = True

    def build(self) -> View:
        s = self.state
        cards: list[View] = []
        for c in matching_channels(self.query)[:2]:
            cards.append(Column(
                Row(avatar(c.name, 48, partial(self.open_channel, c.name)), channel_bar(self, c.name),
                    h=56, gap=12, pad=(12, 4, 12, 4)),
                Text(f"{c.handle} · {c.subscribers}", size=12, style="muted", pad=(72, 0, 12, 0),
                     on_click=partial(self.open_channel, c.name), rid=ID + "channel_subtitle"),
                h=84, desc=c.name, rid=ID + "channel_card"))
        vids = matching_videos(self.query)
        cards += [compact_row(self, s.video(vid)) for vid in vids]
        if not cards:
            cards.append(Text(f"No results for \u201c{self.query}\u201d", size=14, style="muted", align="center",
                              h=64, rid=ID + "empty_message"))
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish),
                Text(self.query, size=16, h=44, pad=(12, 10, 0, 0), on_click=self.edit, radius=22, bg=CHIP,
                     rid=ID + "search_query"),
                Icon("mic", desc="Voice search"), h=56, pad=(4, 6, 4, 6), rid=ID + "search_bar"),
            Scroll(*cards, key="results", rid=ID + "results"),
        )


class Destination(Page):
    """An Explore destination: Trending, Live, Podcasts, Music, ..."""

    def __init__(self, app, name: str) -> None:
        super().__init__(app)
        self.dest = name
        self.tab = "Now"
        app.state.visited.append(name.lower())

    def pick_tab(self, tab: str) -> None:
        self.tab = tab
        self.scroll.clear()

    def videos(self) -> list[str]:
        s = self.state
        pool = list(dict.fromkeys(s.feed + [v.id for v in VIDEOS.values() if v.channel not in
                                            ("OpenAI", "Hung-yi Lee")]))
        if self.dest == "Live":
            return [vid for vid in pool if VIDEOS[vid].live]
        if self.dest == "Podcasts":
            return ["lf1", "hu1", "ted1", "oa2"]
        topic = {"Music": "music", "Gaming": "gaming", "News": "news"}.get(self.dest)
        if self.dest == "Trending" and self.tab != "Now":
            topic = self.tab.lower()
        if topic:
            return [vid for vid in pool if VIDEOS[vid].topic == topic]
        vids = [vid for vid in pool if not VIDEOS[vid].live]
        return sorted(vids, key=lambda vid: -s.video(vid).views)[:10]

    def build(self) -> View:
        s = self.state
        extra: list[View] = []
        if self.dest == "Trending":
            extra.append(Row(*[Text(t, size=14, bold=t == self.tab, selected=t == self.tab, h=44,
                                    w=10 * len(t) + 28, align="center", on_click=partial(self.pick_tab, t),
                                    rid=ID + "tab_title") for t in ("Now", "Music", "Gaming")],
                             Spacer(), h=44, pad=(4, 0, 4, 0), rid=ID + "tabs_bar"))
        rows = [compact_row(self, s.video(vid)) for vid in self.videos()]
        if self.dest == "Live":
            rows.insert(0, Text("Live now", size=16, bold=True, h=36, pad=(12, 8, 0, 0), rid=ID + "shelf_title"))
        if not rows:
            rows.append(Text("Nothing here right now", size=14, style="muted", align="center", h=64,
                             rid=ID + "empty_message"))
        return Column(
            app_bar(self, self.dest, actions=(Icon("search", desc="Search", on_click=self.open_search),)),
            *extra,
            Scroll(*rows, key="list", rid=ID + "results"),
        )


class NotificationsPage(Page):
    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("notifications")

    def read(self, i: int) -> None:
        self.state.notifications[i].unread = False

    def build(self) -> View:
        s = self.state
        rows = [Row(Icon("circle", w=12, h=12, fg=(6, 95, 212)) if n.unread else Spacer(w=12),
                    avatar(n.channel, 40),
                    Column(Text(n.text, size=14, lines=3, rid=ID + "notification_text"),
                           Text(n.age, size=12, style="muted", rid=ID + "notification_age")),
                    h=104, gap=10, pad=(8, 8, 12, 8), on_click=partial(self.read, i),
                    desc=n.text + ", " + n.age, rid=ID + "notification_item")
                for i, n in enumerate(s.notifications)]
        if not rows:
            rows.append(Text("Your notifications live here", size=14, style="muted", align="center", h=64,
                             rid=ID + "empty_message"))
        return Column(
            app_bar(self, "Notifications", actions=(Icon("tabs", desc="Cast. Disconnected"),
                                                    Icon("search", desc="Search", on_click=self.open_search),
                                                    Icon("more", desc="More options"))),
            Scroll(*rows, key="list", rid=ID + "results"),
        )


class HistoryPage(Page):
    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("history")

    def build(self) -> View:
        s = self.state
        rows: list[View] = [Row(*[Text(c, size=13, h=32, w=10 * len(c) + 24, align="center", radius=8,
                                       bg=DARK if c == "All" else CHIP, fg=WHITE if c == "All" else DARK,
                                       selected=c == "All", rid=ID + "chip_cloud_chip_text")
                                  for c in ("All", "Videos", "Shorts")], Spacer(), h=44, gap=8, pad=(12, 6, 12, 6)),
                            Text("Today", size=16, bold=True, h=36, pad=(12, 8, 0, 0), rid=ID + "section_title")]
        rows += [compact_row(self, s.video(vid)) for vid in s.history]
        if not s.history:
            rows.append(Text("Videos you watch will show up here", size=14, style="muted", align="center", h=64,
                             rid=ID + "empty_message"))
        return Column(
            app_bar(self, "History", actions=(Icon("search", desc="Search watch history"),
                                              Icon("more", desc="More options"))),
            Scroll(*rows, key="list", rid=ID + "results"),
        )


class TimeWatchedPage(Page):
    """Time watched: daily average, the week's bars, and the tools to manage your time."""

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("time_watched")

    def flip(self, name: str) -> None:
        setattr(self.state, name, not getattr(self.state, name))

    def build(self) -> View:
        s = self.state
        minutes = s.watch_minutes or [0]
        avg = round(sum(minutes) / len(minutes))
        top = max(max(minutes), 1)
        bars = Row(*[Column(Spacer(fill=True), View(FRAME, (), h=max(2, round(90 * m / top)), bg=(6, 95, 212),
                                                    radius=3),
                            Text(day, size=11, align="center", style="muted"), weight=1, h=120)
                     for m, day in zip(minutes, DAYS)], h=120, gap=10, pad=(16, 0, 16, 0), rid=ID + "chart")

        def line(label: str, value: str) -> View:
            return Row(Text(label, size=15, rid=ID + "stat_label"), Text(value, size=15, w=110, align="right",
                                                                        rid=ID + "stat_value"),
                       h=48, pad=(16, 0, 16, 0))

        def tool(label: str, name: str) -> View:
            on = getattr(s, name)
            return Row(Text(label, size=15, lines=2, rid=ID + "tool_title"),
                       Switch(on, partial(self.flip, name), rid=ID + "tool_switch"),
                       h=60, pad=(16, 0, 8, 0), on_click=partial(self.flip, name))

        def fmt(m: int) -> str:
            return f"{m} min" if m < 60 else f"{m / 60:.1f} hours".replace(".0 hours", " hours")

        return Column(
            app_bar(self, "Time watched"),
            Scroll(
                Text("Daily average", size=14, style="muted", h=28, pad=(16, 8, 0, 0), rid=ID + "daily_average_label"),
                Text(f"{avg} minutes", size=26, bold=True, h=44, pad=(16, 0, 0, 0), rid=ID + "daily_average"),
                bars,
                line("Today", fmt(minutes[-1])),
                line("Yesterday", fmt(minutes[-2] if len(minutes) > 1 else 0)),
                line("Last 7 days", fmt(sum(minutes))),
                Text("Data from watch history, includes YouTube Music", size=12, style="muted", lines=2,
                     pad=(16, 4, 16, 4)),
                Divider(),
                Text("Tools to manage your time", size=16, bold=True, h=40, pad=(16, 10, 0, 0),
                     rid=ID + "section_title"),
                tool("Remind me to take a break", "take_a_break"),
                tool("Remind me when it's bedtime", "bedtime"),
                tool("Scheduled digest", "digest"),
                key="list", rid=ID + "results"),
        )


class SubscriptionsList(Page):
    """Subscriptions > All: every subscribed channel."""

    def build(self) -> View:
        rows = [Row(avatar(name, 40), Text(name, size=16, rid=ID + "channel_name"), h=64, gap=12,
                    pad=(16, 0, 16, 0), on_click=partial(self.open_channel, name), desc=name,
                    rid=ID + "channel_list_item") for name in self.state.subscriptions]
        return Column(app_bar(self, "All subscriptions"), Scroll(*rows, key="list", rid=ID + "results"))


class SettingsPage(Activity):
    name = SETTINGS
    inputs = page_inputs

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("settings")

    def build(self) -> View:
        items = ("General", "Account", "Data saving", "Autoplay", "Video quality preferences", "Downloads",
                 "Watch on TV", "Manage all history", "Your data in YouTube", "Privacy", "Notifications",
                 "Connected apps", "Captions", "Accessibility", "About")
        return Column(app_bar(self, "Settings"),
                      Scroll(*[Row(Text(t, size=16, rid="android:id/title"), h=56, pad=(16, 0, 16, 0), on_click=None)
                               for t in items], key="list", rid="android:id/list"))


class HelpPage(Activity):
    """The Help Center: "Search help", popular help resources, "Send feedback"; a search
    lists the matching articles."""

    name = HELP
    inputs = page_inputs

    def __init__(self, app) -> None:
        super().__init__(app)
        self.query: str | None = None
        app.state.visited.append("help")

    def submit(self, text: str) -> None:
        q = text.strip()
        if not q:
            return
        self.app.state.help_searches.append(q)
        self.query = q
        self.focus = None
        self.scroll.clear()

    def on_back(self) -> bool:
        if self.query is not None:
            self.query = None
            self.fields["query"] = ""
            return True
        return False

    def article(self, title: str) -> None:
        self.start(HelpArticle(self.app, title))

    def results(self) -> list[str]:
        q = (self.query or "").lower()
        if "upload" in q:
            return list(UPLOAD_ARTICLES)
        words = [w for w in q.split() if len(w) > 3]
        return [a for a in HELP_ARTICLES + UPLOAD_ARTICLES if any(w in a.lower() for w in words)]

    def build(self) -> View:
        rows: list[View]
        if self.query is not None:
            found = list(dict.fromkeys(self.results()))
            rows = [Text(f"Results for \u201c{self.query}\u201d", size=14, style="muted", h=36, pad=(16, 10, 0, 0),
                         rid=ID + "gh_search_results_header")]
            rows += [Row(Icon("info", w=40), Text(a, size=16, rid=ID + "gh_search_result_title"), h=56, gap=12,
                         pad=(16, 0, 16, 0), on_click=partial(self.article, a), rid=ID + "gh_search_result")
                     for a in found]
            if not found:
                rows.append(Text("No results. Try other words.", size=14, style="muted", align="center", h=64,
                                 rid=ID + "gh_no_results"))
        else:
            rows = [Text("Popular help resources", size=16, bold=True, h=40, pad=(16, 10, 0, 0),
                         rid=ID + "gh_section_title")]
            rows += [Row(Icon("info", w=40), Text(a, size=15, rid=ID + "gh_help_content_title"), h=52, gap=12,
                         pad=(16, 0, 16, 0), on_click=partial(self.article, a), rid=ID + "gh_help_content")
                     for a in HELP_ARTICLES]
            rows += [Text("Need more help?", size=16, bold=True, h=40, pad=(16, 10, 0, 0), rid=ID + "gh_section_title"),
                     Row(Icon("person", w=40), Text("Ask the Help Community", size=15), h=52, gap=12,
                         pad=(16, 0, 16, 0), rid=ID + "gh_community"),
                     Row(Icon("flag", w=40), Text("Send feedback", size=15), h=52, gap=12, pad=(16, 0, 16, 0),
                         rid=ID + "gh_send_feedback")]
        return Column(
            app_bar(self, "Help", actions=(Icon("more", desc="More options"),)),
            Row(EditText("query", hint="Search help", on_submit=self.submit, rid=ID + "gh_search_box", style="search",
                         h=48), h=60, pad=(12, 6, 12, 6)),
            Scroll(*rows, key="help", rid=ID + "gh_help_list"),
        )


class HelpArticle(Activity):
    name = HELP
    inputs = page_inputs

    def __init__(self, app, title: str) -> None:
        super().__init__(app)
        self.title = title

    def build(self) -> View:
        return Column(app_bar(self, "Help"),
                      Scroll(Text(self.title, size=22, bold=True, lines=2, pad=(16, 8, 16, 8), rid=ID + "gh_article_title"),
                             Text("Follow these steps on your Android phone or tablet. Open the YouTube app, "
                                  "tap Create, then follow the prompts.", size=15, lines=5, pad=(16, 0, 16, 0),
                                  rid=ID + "gh_article_body"),
                             key="article", rid=ID + "gh_article"))


# ------------------------------------------------------------------ popups

def allow_notifications(app, allowed: bool) -> None:
    app.state.notifications_allowed = allowed


class PremiumPromo(Dialog):
    """The "Try YouTube Premium" sheet ("No thanks" / "Try it free")."""

    def __init__(self) -> None:
        super().__init__("YouTube Premium", "Ad-free videos, downloads and background play. Try it free for 1 month.",
                         (("No thanks", None), ("Try it free", None)), kind="sheet", package=PKG)

    def build(self) -> View:
        return Column(
            Text("Try YouTube Premium", size=20, bold=True, align="center", rid=ID + "promo_title"),
            Text(self.message, size=14, lines=3, align="center", style="muted", rid=ID + "promo_body"),
            Button("Try it free", self.close, style="filled", bg=DARK, fg=WHITE, rid=ID + "promo_accept"),
            Button("No thanks", self.close, style="text", rid=ID + "promo_dismiss"),
            pad=(24, 24, 24, 16), gap=10, style="dialog", radius=16, rid=ID + "promo_sheet",
        )


class SignInNudge(Dialog):
    """"Signed in as ..." card after an update."""

    def __init__(self) -> None:
        super().__init__("Welcome back", f"You're signed in as {ACCOUNT_EMAIL}.", (("Continue", None),),
                         package=PKG)
