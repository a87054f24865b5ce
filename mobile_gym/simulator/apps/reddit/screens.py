"""Reddit's screens. The real app is one activity (com.reddit.launch.main.MainActivity)
whose screens are views pushed on it, so every screen here reports that activity:

- `Main`: the bottom navigation (Home, Communities, Create, Chat, Inbox), the feed
  selector (Home / Popular / Watch / Latest / News) and sort bar on Home, the community
  drawer (left: your communities, "Create a community") and the user drawer (right:
  Profile, Create a community, Saved, History, Settings);
- `SearchScreen`: search with suggestions, then results with tabs (Posts, Communities,
  Comments, Media, People), or a search inside one community with a time filter;
- `CommunityScreen`: a subreddit (Join, the community notifications bell: Off / Low /
  Frequent, sort Hot / New / Top with a time range, its posts);
- `PostScreen`, `ProfileScreen`, `SettingsScreen`, `NotificationSettings`,
  `HistoryScreen`, `CreateCommunity`, `ExploreChannels`, `CreatePost`;
- dialogs: the feed menu, sort and time sheets, the notification level sheet, popups.
"""

from __future__ import annotations

import pickle
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.reddit.model import (
    ALERTS, CHANNELS, COMMUNITY_SORTS, FEED_SORTS, FEEDS, NOTIFICATION_SETTINGS, SEARCH_HOURS, SEARCH_TABS,
    SEARCH_TIMES, TOP_TIMES, UNLISTED, Community, Post, age, count, matches,
)
from mobile_gym.simulator.views import (
    VIEW, Button, Column, Divider, EditText, Icon, Row, Scroll, Spacer, Switch, Text, View,
)

PKG = "com.reddit.frontpage"
ID = PKG + ":id/"
MAIN = "com.reddit.launch.main.MainActivity"
ORANGE = (255, 69, 0)
BLUE = (0, 121, 211)
TONAL = (234, 237, 239)
MUTED = (87, 111, 118)
TABS = (("home", "Home", "home"), ("communities", "Communities", "person"), ("create", "Create", "add"),
        ("chat", "Chat", "tabs"), ("inbox", "Inbox", "notifications"))
TRENDING = ("Starship launch", "Nolan trailer", "Android 15", "Climate deal", "Skyrim")


def _dump(*values) -> bytes:
    return pickle.dumps(values, pickle.HIGHEST_PROTOCOL)


def top_bar(act: Activity, title: str, *actions: View) -> View:
    return Row(Icon("back", desc="Back", on_click=act.finish, rid=ID + "back_button"),
               Text(title, size=20, bold=True, rid=ID + "toolbar_title"), *actions,
               h=56, pad=(4, 0, 4, 0), rid=ID + "toolbar", style="appbar")


def sort_text(sort: str, time: str) -> str:
    return f"Top posts \u00b7 {time}" if sort == "Top" else f"{sort} posts"


def post_card(post: Post, on_click, show_community: bool = True) -> View:
    head = f"r/{post.community}" if show_community else f"u/{post.author}"
    return Column(
        Row(Icon("person", h=24, w=24, radius=12, bg=ORANGE if show_community else BLUE, fg=(255, 255, 255)),
            Text(head, size=13, bold=True, rid=ID + ("subreddit_name" if show_community else "post_author")),
            Text(f"\u2022 {age(post.hours)}", size=13, style="muted", w=56, rid=ID + "post_age"),
            h=28, gap=6),
        Text(post.title, size=16, bold=True, lines=2, rid=ID + "post_title"),
        Row(Text(f"{count(post.score)} votes", size=13, w=110, rid=ID + "vote_count",
                 fg=ORANGE if post.upvoted else None),
            Text(f"{count(post.comments)} comments", size=13, w=130, rid=ID + "comment_count"),
            Text("Share", size=13, w=70, style="muted"),
            h=32, gap=8),
        pad=(16, 8, 16, 8), gap=4, on_click=on_click, rid=ID + "post_card",
        desc=f"{post.title}, r/{post.community}, {count(post.score)} upvotes, {count(post.comments)} comments",
    )


def community_row(c: Community, on_click, join=None) -> View:
    return Row(
        Icon("person", h=40, w=40, radius=20, bg=ORANGE, fg=(255, 255, 255)),
        Column(Text(f"r/{c.name}", size=15, bold=True, rid=ID + "community_name"),
               Text(f"{count(c.members)} members", size=12, style="muted", rid=ID + "community_members")),
        Button("Joined" if c.joined else "Join", join, style="outlined" if c.joined else "filled", w=88, h=36,
               rid=ID + "join_button", bg=None if c.joined else BLUE) if join is not None else None,
        h=64, pad=(16, 8, 16, 8), gap=12, on_click=on_click, rid=ID + "community_item",
    )


# ======================================================================== Main

class Main(Activity):
    """The launch screen: a tab of the bottom navigation under its top bar."""

    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.tab = "home"
        self.drawer = ""  # "", "community" (left) or "user" (right)
        self.inbox_tab = "Notifications"
        app.state.visited.append("home")

    @property
    def state(self):
        return self.app.state

    def inputs(self) -> bytes:
        return _dump(self.state, self.tab, self.drawer, self.inbox_tab)

    # handlers ----------------------------------------------------------------
    def go(self, tab: str) -> None:
        self.drawer = ""
        if tab == "create":
            self.start(CreatePost(self.app))
            return
        self.tab = tab
        self.scroll.clear()
        self.state.visited.append(tab)

    def on_back(self) -> bool:
        if self.drawer:
            self.drawer = ""
            return True
        if self.tab != "home":
            self.go("home")
            return True
        return False

    def open_drawer(self, which: str) -> None:
        self.drawer = which

    def close_drawer(self) -> None:
        self.drawer = ""

    def feed_menu(self) -> None:
        self.sys.show(FeedMenu(self))

    def set_feed(self, feed: str) -> None:
        s = self.state
        if feed != s.feed:
            s.feed, s.feed_sort, s.feed_time = feed, "Best" if feed == "Home" else "Hot", "Today"
            self.scroll.clear()

    def sort_menu(self) -> None:
        options = FEED_SORTS if self.state.feed == "Home" else FEED_SORTS[1:]
        self.sys.show(SortSheet(options, self.state.feed_sort, self.set_sort))

    def set_sort(self, sort: str) -> None:
        if sort == "Top":
            self.sys.show(TimeSheet(self.state.feed_time if self.state.feed_sort == "Top" else "",
                                    self.set_top))
            return
        self.state.feed_sort = sort
        self.scroll.clear()

    def set_top(self, time: str) -> None:
        self.state.feed_sort, self.state.feed_time = "Top", time
        self.scroll.clear()

    def search(self, hint: str = "Search Reddit") -> None:
        self.drawer = ""
        self.start(SearchScreen(self.app, None, hint))
        self.sys.keyboard = True

    def open_post(self, pid: int) -> None:
        self.drawer = ""
        self.start(PostScreen(self.app, pid))

    def open_community(self, name: str) -> None:
        self.drawer = ""
        self.start(CommunityScreen(self.app, name))

    def toggle_join(self, name: str) -> None:
        toggle_join(self.state, name)

    def open(self, screen: str) -> None:
        self.drawer = ""
        cls = {"profile": ProfileScreen, "settings": SettingsScreen, "history": HistoryScreen,
               "create_community": CreateCommunity, "explore_channels": ExploreChannels,
               "saved": SavedScreen}[screen]
        self.start(cls(self.app))

    def allow_notifications(self, allowed: bool) -> None:
        self.state.notifications_allowed = allowed

    def set_inbox_tab(self, tab: str) -> None:
        self.inbox_tab = tab
        self.scroll.clear()

    # views -------------------------------------------------------------------
    def bar(self) -> View:
        s = self.state
        if self.tab == "home":
            middle = Row(Text(s.feed, size=18, bold=True, rid=ID + "feed_switcher_title"),
                         Icon("expand", h=32, w=28), on_click=self.feed_menu, rid=ID + "feed_switcher",
                         desc=f"Feed selector, {s.feed}", h=48, w=150, gap=2)
        else:
            middle = Text({k: t for k, t, _ in TABS}[self.tab], size=18, bold=True,
                          rid=ID + "toolbar_title", w=150)
        return Row(
            Icon("menu", desc="Community menu", on_click=partial(self.open_drawer, "community"),
                 rid=ID + "nav_icon"),
            middle, Spacer(),
            Icon("search", desc="Search", on_click=self.search, rid=ID + "search_icon"),
            Icon("person", desc="Expand user drawer", on_click=partial(self.open_drawer, "user"), h=40, w=40,
                 radius=20, bg=ORANGE, fg=(255, 255, 255), rid=ID + "nav_icon_avatar"),
            h=56, pad=(4, 0, 12, 0), gap=4, rid=ID + "toolbar", style="appbar",
        )

    def nav(self) -> View:
        items = []
        for key, label, icon in TABS:
            on = key == self.tab
            items.append(Column(
                Icon(icon, h=28, w=28, align="center", fg=(28, 28, 28) if on else MUTED),
                Text(label, size=11, align="center", bold=on, selected=on, rid=ID + "bottom_nav_label"),
                on_click=partial(self.go, key), selected=on, desc=label, weight=1, h=60,
                rid=ID + "bottom_nav_" + key))
        return Row(*items, h=60, rid=ID + "bottom_nav", style="appbar")

    def home(self) -> View:
        s = self.state
        posts = s.feed_posts()
        rows: list[View | None] = []
        for p in posts:
            rows += [post_card(p, partial(self.open_post, p.id)), Divider()]
        if not rows:
            rows = [Text("No posts yet", size=16, align="center", style="muted", h=96, rid=ID + "empty_text")]
        sort = None
        if s.feed in ("Home", "Popular", "News"):
            sort = Row(Text(sort_text(s.feed_sort, s.feed_time).upper(), size=12, bold=True, style="muted",
                            rid=ID + "sort_label"),
                       Icon("expand", h=28, w=28),
                       on_click=self.sort_menu, desc="Sort posts", rid=ID + "sort_bar", h=40, pad=(16, 0, 16, 0),
                       gap=4)
        return Column(sort, Scroll(*rows, key="feed", rid=ID + "link_list"), fill=True)

    def communities(self) -> View:
        s = self.state
        recommended = [c for c in s.communities if not c.joined and c.name not in UNLISTED]
        return Column(
            Row(Icon("search", h=36, w=36), Text("Search communities", size=15, style="muted",
                                                 rid=ID + "communities_search_text"),
                on_click=partial(self.search, "Search communities"), h=44, gap=8, pad=(12, 0, 12, 0),
                radius=22, bg=TONAL, rid=ID + "communities_search", desc="Search communities"),
            Scroll(
                Text("Recommended for you", size=14, bold=True, h=36, pad=(16, 10, 16, 0),
                     rid=ID + "section_title"),
                *[community_row(c, partial(self.open_community, c.name), partial(self.toggle_join, c.name))
                  for c in recommended],
                Text("Your communities", size=14, bold=True, h=36, pad=(16, 10, 16, 0), rid=ID + "section_title"),
                *[community_row(c, partial(self.open_community, c.name)) for c in s.joined()],
                Row(Icon("add", h=36, w=36), Text("Create a community", size=15, rid=ID + "create_community_text"),
                    h=52, gap=8, pad=(16, 0, 16, 0), on_click=partial(self.open, "create_community"),
                    rid=ID + "create_community_row"),
                key="communities", rid=ID + "communities_list"),
            pad=(0, 8, 0, 0), gap=4, fill=True,
        )

    def chat(self) -> View:
        s = self.state
        rows = [Row(Icon("person", h=44, w=44, radius=22, bg=BLUE, fg=(255, 255, 255)),
                    Column(Text(n.title, size=15, bold=True, rid=ID + "chat_title"),
                           Text(n.body, size=13, style="muted", rid=ID + "chat_last_message")),
                    Text(n.age, size=12, style="muted", w=40, rid=ID + "chat_time"),
                    h=68, pad=(16, 8, 16, 8), gap=12, rid=ID + "chat_item") for n in s.chats]
        return Column(
            Row(Column(Text("Discover channels", size=15, bold=True, rid=ID + "discover_title"),
                       Text("Chat with people who share your interests", size=12, style="muted")),
                Button("Explore channels", partial(self.open, "explore_channels"), style="tonal", w=150, h=40,
                       rid=ID + "explore_channels_button"),
                h=72, pad=(16, 8, 16, 8), gap=8, style="card", rid=ID + "discover_banner"),
            Scroll(*rows, key="chats", rid=ID + "chat_list"),
            fill=True,
        )

    def inbox(self) -> View:
        s = self.state
        tabs = Row(*[Text(t, size=14, bold=t == self.inbox_tab, align="center", selected=t == self.inbox_tab,
                          on_click=partial(self.set_inbox_tab, t), weight=1, h=44, rid=ID + "inbox_tab")
                     for t in ("Notifications", "Messages")], h=44, rid=ID + "inbox_tabs")
        if self.inbox_tab == "Notifications":
            rows = [Row(Icon("notifications", h=40, w=40, radius=20, bg=TONAL),
                        Column(Text(n.title, size=14, bold=True, lines=2, rid=ID + "notification_title"),
                               Text(n.body, size=13, style="muted", rid=ID + "notification_body")),
                        Text(n.age, size=12, style="muted", w=36, rid=ID + "notification_age"),
                        h=84, pad=(16, 8, 16, 8), gap=12, rid=ID + "notification_item") for n in s.notices]
        else:
            rows = [Column(Spacer(h=40), Text("No messages", size=16, align="center", rid=ID + "empty_title"),
                           Text("Messages from other redditors will show up here", size=13, align="center",
                                style="muted", rid=ID + "empty_body"), gap=8)]
        return Column(tabs, Divider(), Scroll(*rows, key="inbox", rid=ID + "inbox_list"), fill=True)

    def community_drawer(self) -> View:
        s = self.state

        def item(text: str, handler) -> View:
            return Row(Icon("person", h=32, w=32, radius=16, bg=ORANGE, fg=(255, 255, 255)),
                       Text(text, size=15, rid=ID + "drawer_item_title"), h=48, gap=12, pad=(16, 0, 16, 0),
                       on_click=handler)

        return Column(
            Scroll(
                Text("Recently visited", size=13, bold=True, style="muted", h=40, pad=(16, 14, 16, 0)),
                item("r/worldnews", partial(self.open_community, "worldnews")),
                Text("Your communities", size=13, bold=True, style="muted", h=40, pad=(16, 14, 16, 0)),
                Row(Icon("add", h=32, w=32), Text("Create a community", size=15, rid=ID + "create_community_text"),
                    h=48, gap=12, pad=(16, 0, 16, 0), on_click=partial(self.open, "create_community"),
                    rid=ID + "create_community_row"),
                *[item(f"r/{c.name}", partial(self.open_community, c.name)) for c in s.joined()],
                Text("Feeds", size=13, bold=True, style="muted", h=40, pad=(16, 14, 16, 0)),
                item("Popular", partial(self.pick_feed, "Popular")),
                item("All", partial(self.pick_feed, "Latest")),
                key="community_drawer", rid=ID + "community_drawer_list"),
            w=300, bg=(255, 255, 255), rid=ID + "community_drawer", pad=(0, 8, 0, 0),
        )

    def pick_feed(self, feed: str) -> None:
        self.drawer = ""
        self.tab = "home"
        self.set_feed(feed)

    def user_drawer(self) -> View:
        s = self.state
        rows = (("Profile", "person", "profile"), ("Create a community", "add", "create_community"),
                ("Reddit Premium", "star", None), ("Saved", "bookmark", "saved"), ("History", "history", "history"),
                ("Settings", "settings", "settings"))
        return Column(
            Icon("person", h=88, w=88, radius=44, bg=ORANGE, fg=(255, 255, 255), align="center"),
            Text(f"u/{s.username}", size=18, bold=True, align="center", rid=ID + "drawer_username"),
            Row(Column(Text(count(s.karma), size=15, bold=True, align="center", rid=ID + "karma_count"),
                       Text("Karma", size=12, align="center", style="muted"), weight=1),
                Column(Text("3y", size=15, bold=True, align="center"),
                       Text("Reddit age", size=12, align="center", style="muted"), weight=1), h=52),
            Divider(),
            Scroll(*[Row(Icon(icon, h=36, w=36), Text(text, size=15, rid=ID + "drawer_nav_item_title"),
                         h=48, gap=12, pad=(16, 0, 16, 0), rid=ID + "drawer_nav_item",
                         on_click=partial(self.open, key) if key else None)
                     for text, icon, key in rows], key="user_drawer", rid=ID + "drawer_nav_items_container"),
            w=300, bg=(255, 255, 255), rid=ID + "user_drawer", pad=(0, 24, 0, 0), gap=6,
        )

    def build(self) -> View:
        body = {"home": self.home, "communities": self.communities, "chat": self.chat, "inbox": self.inbox}[self.tab]()
        main = Column(self.bar(), body, self.nav())
        if not self.drawer:
            return main
        scrim = View(VIEW, (), on_click=self.close_drawer, bg=(120, 120, 120), desc="Close drawer")
        if self.drawer == "community":
            return Row(self.community_drawer(), scrim, rid=ID + "drawer_layout")
        return Row(scrim, self.user_drawer(), rid=ID + "drawer_layout")


def toggle_join(state, name: str) -> None:
    c = state.community(name)
    if c is None:
        return
    c.joined = not c.joined
    c.alerts = "Low" if c.joined else "Off"


# ======================================================================== dialogs

class FeedMenu(Dialog):
    """The feed selector's dropdown: Home, Popular, Watch, Latest, News."""

    def __init__(self, act: Main) -> None:
        super().__init__(kind="menu", modal=False, package=PKG)
        self.act = act

    def pick(self, feed: str) -> None:
        self.close()
        self.act.set_feed(feed)

    def build(self) -> View:
        cur = self.act.state.feed
        return Column(
            *[Row(Text(f, size=16, bold=f == cur, rid=ID + "feed_option", checkable=True, checked=f == cur),
                  h=48, pad=(16, 0, 16, 0), on_click=partial(self.pick, f)) for f in FEEDS],
            w=220, style="card", radius=12, pad=(0, 8, 0, 8), rid=ID + "feed_menu",
        )


class Options(Dialog):
    """A bottom sheet of single-choice options (sort, time range, notification level)."""

    rid = "option"

    def __init__(self, title: str, options: tuple[str, ...], current: str, then) -> None:
        super().__init__(title, "", (), kind="sheet", package=PKG)
        self.options, self.current, self.then = options, current, then

    def pick(self, value: str) -> None:
        self.close()
        self.then(value)

    def build(self) -> View:
        return Column(
            Text(self.title, size=16, bold=True, h=40, pad=(16, 8, 16, 0), rid=ID + "sheet_title"),
            Divider(),
            *[Row(Text(o, size=16, rid=ID + self.rid), Spacer(),
                  Icon("radio_on" if o == self.current else "radio_off", h=32, w=32,
                       fg=BLUE if o == self.current else MUTED),
                  h=48, pad=(16, 0, 16, 0), on_click=partial(self.pick, o), checkable=True,
                  checked=o == self.current, rid=ID + self.rid + "_item") for o in self.options],
            Button("Close", self.close, style="text", h=44, rid=ID + "sheet_close"),
            pad=(0, 8, 0, 8), style="dialog", radius=16, rid=ID + "bottom_sheet",
        )


class SortSheet(Options):
    rid = "sort_option"

    def __init__(self, options, current, then) -> None:
        super().__init__("Sort posts by", tuple(options), current, then)


class TimeSheet(Options):
    rid = "time_option"

    def __init__(self, current, then) -> None:
        super().__init__("Top posts from", TOP_TIMES, current, then)


class SearchTimeSheet(Options):
    rid = "time_option"

    def __init__(self, current, then) -> None:
        super().__init__("Time", SEARCH_TIMES, current, then)


class AlertSheet(Options):
    rid = "notification_level"

    def __init__(self, current: str, then) -> None:
        super().__init__("Community notifications", ALERTS, current, then)


# ======================================================================== search

class SearchScreen(Activity):
    """Search: the query field with suggestions while typing; after ENTER the results
    (tabs Posts, Communities, Comments, Media, People), or inside one community (``scope``)
    its matching posts with a time filter."""

    name = MAIN

    def __init__(self, app, scope: str | None, hint: str = "Search Reddit") -> None:
        super().__init__(app)
        self.scope = scope
        self.hint = hint if scope is None else f"Search r/{scope}"
        self.query: str | None = None  # results of this query are shown
        self.tab = "Posts"
        self.time = "All time"
        self.fields["query"] = ""
        self.focus = "query"

    def inputs(self) -> bytes:
        return _dump(self.app.state, self.scope, self.query, self.tab, self.time)

    def _log(self) -> None:
        self.app.state.searches.append((self.query, self.scope or "", self.tab if self.scope is None else "Posts",
                                        self.time))

    def submit(self, text: str = "") -> None:
        q = self.fields.get("query", "").strip()
        if not q:
            return
        self.query, self.tab, self.time = q, "Posts", "All time"
        self.focus = None
        self.sys.keyboard = False
        self.scroll.clear()
        self._log()

    def edit(self) -> None:
        self.fields["query"] = self.query or ""
        self.query = None
        self.focus = "query"
        self.sys.keyboard = True

    def set_tab(self, tab: str) -> None:
        if tab != self.tab:
            self.tab = tab
            self.scroll.clear()
            self._log()

    def time_menu(self) -> None:
        self.sys.show(SearchTimeSheet(self.time, self.set_time))

    def set_time(self, time: str) -> None:
        self.time = time
        self.scroll.clear()
        self._log()

    def open_community(self, name: str) -> None:
        self.start(CommunityScreen(self.app, name))

    def open_post(self, pid: int) -> None:
        self.start(PostScreen(self.app, pid))

    def toggle_join(self, name: str) -> None:
        toggle_join(self.app.state, name)

    # views
    def suggestions(self) -> list[View]:
        text = self.fields.get("query", "").strip()
        s = self.app.state
        if self.scope is not None:
            if not text:
                return [Text(f"Search posts in r/{self.scope}", size=14, style="muted", h=48, pad=(16, 14, 16, 0),
                             rid=ID + "search_hint")]
            return [Row(Icon("search", h=36, w=36), Text(f"Search for \u201c{text}\u201d in r/{self.scope}", size=15,
                                                         rid=ID + "search_for_query"),
                        h=52, gap=12, pad=(16, 0, 16, 0), on_click=self.submit)]
        if not text:
            return [Text("Trending today", size=14, bold=True, h=40, pad=(16, 12, 16, 0), rid=ID + "section_title"),
                    *[Row(Icon("history", h=32, w=32), Text(t, size=15, rid=ID + "trending_query"), h=48, gap=12,
                          pad=(16, 0, 16, 0)) for t in TRENDING]]
        low = text.lower()
        found = [c for c in s.communities if low in c.name.lower()][:5]
        rows: list[View] = [Row(Icon("person", h=36, w=36, radius=18, bg=ORANGE, fg=(255, 255, 255)),
                                Column(Text(f"r/{c.name}", size=15, bold=True, rid=ID + "suggestion_community_name"),
                                       Text(f"Community \u2022 {count(c.members)} members", size=12, style="muted")),
                                h=56, gap=12, pad=(16, 4, 16, 4), on_click=partial(self.open_community, c.name),
                                rid=ID + "suggestion_community")
                            for c in found]
        rows.append(Row(Icon("search", h=36, w=36), Text(f"Search for \u201c{text}\u201d", size=15,
                                                         rid=ID + "search_for_query"),
                        h=52, gap=12, pad=(16, 0, 16, 0), on_click=self.submit))
        return rows

    def results(self) -> list[View]:
        s = self.app.state
        q = self.query or ""
        limit = SEARCH_HOURS[self.time]
        posts = [p for p in s.posts if matches(p, q) and p.hours <= limit
                 and (self.scope is None or p.community.lower() == self.scope.lower())]
        tab = "Posts" if self.scope is not None else self.tab
        if tab == "Posts":
            out: list[View] = []
            for p in posts:
                out += [post_card(p, partial(self.open_post, p.id)), Divider()]
            return out or [self.empty()]
        if tab == "Communities":
            low = q.lower()
            found = [c for c in s.communities if low in c.name.lower() or low in c.description.lower()]
            return [community_row(c, partial(self.open_community, c.name), partial(self.toggle_join, c.name))
                    for c in found] or [self.empty()]
        if tab == "Comments":
            return [Column(Text(f"r/{p.community} \u2022 {p.title}", size=12, style="muted", rid=ID + "comment_post"),
                           Text(f"Great point about {q}, I had not thought of it that way.", size=14, lines=2,
                                rid=ID + "comment_body"),
                           pad=(16, 8, 16, 8), gap=4, h=80, rid=ID + "comment_item") for p in posts[:4]] or [self.empty()]
        if tab == "Media":
            media = [p for p in posts if p.media] or [p for p in s.posts if p.media and matches(p, q)]
            if not media:
                return [self.empty()]
            cells = [Column(View(VIEW, (), h=150, bg=(60, 70, 80), radius=8, rid=ID + "media_thumbnail"),
                            Text(p.title, size=12, lines=2, rid=ID + "media_title"), weight=1, gap=4,
                            on_click=partial(self.open_post, p.id))
                     for p in media]
            grid = [Row(*cells[i:i + 2], gap=8, pad=(12, 8, 12, 0), h=200) for i in range(0, len(cells), 2)]
            return [Column(*grid, rid=ID + "search_media_grid", desc="Media results")]
        people = [p.author for p in s.posts if q.lower().replace(" ", "") in p.author.lower()][:5]
        return [Row(Icon("person", h=40, w=40, radius=20, bg=BLUE, fg=(255, 255, 255)),
                    Text(f"u/{a}", size=15, rid=ID + "user_name"), h=60, gap=12, pad=(16, 0, 16, 0))
                for a in people] or [self.empty()]

    def empty(self) -> View:
        return Column(Spacer(h=32), Text("No results", size=18, bold=True, align="center", rid=ID + "empty_title"),
                      Text("Try a different search or check the spelling", size=13, align="center", style="muted"),
                      gap=6, rid=ID + "empty_results")

    def build(self) -> View:
        if self.query is None:
            return Column(
                Row(Icon("back", desc="Back", on_click=self.finish, rid=ID + "back_button"),
                    EditText("query", hint=self.hint, on_submit=self.submit, rid=ID + "search_query_edit",
                             style="search", h=44),
                    h=56, pad=(4, 6, 12, 6), gap=4, rid=ID + "search_toolbar", style="appbar"),
                Scroll(*self.suggestions(), key="suggestions", rid=ID + "search_suggestions"),
            )
        chips = None
        tabs = None
        if self.scope is not None or self.tab == "Posts":
            chips = Row(
                Text(f"r/{self.scope}", size=13, h=32, w=120, align="center", radius=16, bg=TONAL,
                     rid=ID + "search_scope_chip") if self.scope else None,
                Text("Sort: Relevance", size=13, h=32, w=130, align="center", radius=16, bg=TONAL,
                     rid=ID + "sort_filter"),
                Row(Text(self.time, size=13, rid=ID + "time_filter"), Icon("expand", h=24, w=24),
                    h=32, w=130, pad=(12, 0, 4, 0), radius=16, bg=TONAL, on_click=self.time_menu,
                    desc=f"Time filter, {self.time}", rid=ID + "time_filter_chip"),
                h=48, gap=8, pad=(12, 8, 12, 8), rid=ID + "search_filters")
        if self.scope is None:
            tabs = Row(*[Text(t, size=13, bold=t == self.tab, selected=t == self.tab, align="center", weight=1,
                              h=44, on_click=partial(self.set_tab, t), rid=ID + "search_tab")
                         for t in SEARCH_TABS], h=44, rid=ID + "search_tabs")
        return Column(
            Row(Icon("back", desc="Back", on_click=self.finish, rid=ID + "back_button"),
                Text(self.query, size=16, h=44, radius=22, bg=TONAL, pad=(16, 0, 16, 0), on_click=self.edit,
                     rid=ID + "search_query"),
                h=56, pad=(4, 6, 12, 6), gap=4, rid=ID + "search_toolbar", style="appbar"),
            tabs, Divider() if tabs else None, chips,
            Scroll(*self.results(), key="results_" + self.tab, rid=ID + "search_results"),
        )


# ======================================================================== community

class CommunityScreen(Activity):
    name = MAIN

    def __init__(self, app, name: str) -> None:
        super().__init__(app)
        c = app.state.community(name)
        self.community = c.name if c is not None else name
        app.state.visited.append("community:" + self.community.lower())

    def inputs(self) -> bytes:
        return _dump(self.app.state, self.community)

    def c(self) -> Community | None:
        return self.app.state.community(self.community)

    def join(self) -> None:
        toggle_join(self.app.state, self.community)
        c = self.c()
        if c is not None and c.joined:
            self.sys.toast(f"Joined r/{c.name}")

    def bell(self) -> None:
        c = self.c()
        self.sys.show(AlertSheet(c.alerts, self.set_alerts))

    def set_alerts(self, level: str) -> None:
        c = self.c()
        c.alerts = level

    def sort_menu(self) -> None:
        c = self.c()
        self.sys.show(SortSheet(COMMUNITY_SORTS, c.sort, self.set_sort))

    def set_sort(self, sort: str) -> None:
        c = self.c()
        if sort == "Top":
            self.sys.show(TimeSheet(c.time if c.sort == "Top" else "", self.set_top))
            return
        c.sort = sort
        self.scroll.clear()

    def set_top(self, time: str) -> None:
        c = self.c()
        c.sort, c.time = "Top", time
        self.scroll.clear()

    def search(self) -> None:
        self.start(SearchScreen(self.app, self.community))
        self.sys.keyboard = True

    def open_post(self, pid: int) -> None:
        self.start(PostScreen(self.app, pid))

    def build(self) -> View:
        c = self.c()
        if c is None:
            return Column(top_bar(self, f"r/{self.community}"),
                          Text("This community does not exist", size=16, align="center", h=96))
        posts = self.app.state.in_community(c.name, c.sort, c.time)
        rows: list[View] = []
        for p in posts:
            rows += [post_card(p, partial(self.open_post, p.id), show_community=False), Divider()]
        if not posts:
            rows = [Text("No posts in this time range", size=15, align="center", style="muted", h=80,
                         rid=ID + "empty_text")]
        return Column(
            Row(Icon("back", desc="Back", on_click=self.finish, rid=ID + "back_button"), Spacer(),
                Icon("search", desc=f"Search r/{c.name}", on_click=self.search, rid=ID + "community_search"),
                Icon("share", desc="Share"), Icon("more", desc="More options"),
                h=56, pad=(4, 0, 4, 0), rid=ID + "toolbar", style="appbar", bg=(0, 90, 160)),
            Scroll(
                Row(Icon("person", h=56, w=56, radius=28, bg=ORANGE, fg=(255, 255, 255)),
                    Column(Text(f"r/{c.name}", size=20, bold=True, rid=ID + "subreddit_title"),
                           Text(f"{count(c.members)} members \u2022 {count(c.online)} online", size=12,
                                style="muted", rid=ID + "community_members")),
                    Button("Joined" if c.joined else "Join", self.join, style="outlined" if c.joined else "filled",
                           w=88, h=36, rid=ID + "join_button"),
                    Icon("bell" if c.alerts != "Off" else "notifications", desc=f"Community notifications, {c.alerts}",
                         on_click=self.bell, h=40, w=40, rid=ID + "notification_bell") if c.joined else None,
                    h=80, pad=(16, 12, 12, 12), gap=10, rid=ID + "community_header"),
                Text(c.description, size=13, lines=3, pad=(16, 0, 16, 8), rid=ID + "community_description"),
                Row(Text(sort_text(c.sort, c.time).upper(), size=12, bold=True, style="muted", rid=ID + "sort_label"),
                    Icon("expand", h=28, w=28), on_click=self.sort_menu, desc="Sort posts", rid=ID + "sort_bar",
                    h=40, pad=(16, 0, 16, 0), gap=4),
                Divider(),
                *rows,
                key="community", rid=ID + "community_list"),
        )


# ======================================================================== post

class PostScreen(Activity):
    name = MAIN

    COMMENTS = (("thoughtful_tom", "This is the most interesting thing I've read all week."),
                ("skeptic_sara", "Source? I'd love to read more about this."),
                ("lurker_lee", "Finally some good news."))

    def __init__(self, app, pid: int) -> None:
        super().__init__(app)
        self.pid = pid
        s = app.state
        s.opened.append(pid)
        s.history[:] = [pid] + [h for h in s.history if h != pid]

    def inputs(self) -> bytes:
        return _dump(self.app.state.post(self.pid))

    def upvote(self) -> None:
        p = self.app.state.post(self.pid)
        p.upvoted = not p.upvoted
        p.score += 1 if p.upvoted else -1

    def open_community(self) -> None:
        p = self.app.state.post(self.pid)
        self.start(CommunityScreen(self.app, p.community))

    def build(self) -> View:
        p = self.app.state.post(self.pid)
        if p is None:
            return Column(top_bar(self, ""))
        return Column(
            Row(Icon("back", desc="Back", on_click=self.finish, rid=ID + "back_button"),
                Text(f"r/{p.community}", size=16, bold=True, on_click=self.open_community, rid=ID + "toolbar_title"),
                Spacer(), Icon("more", desc="More options"), h=56, pad=(4, 0, 4, 0), rid=ID + "toolbar",
                style="appbar"),
            Scroll(
                Row(Text(f"u/{p.author}", size=13, style="muted", rid=ID + "post_author"),
                    Text(f"\u2022 {age(p.hours)}", size=13, style="muted", w=56, rid=ID + "post_age"),
                    h=28, pad=(16, 4, 16, 0), gap=6),
                Text(p.title, size=20, bold=True, lines=3, pad=(16, 0, 16, 0), rid=ID + "post_detail_title"),
                View(VIEW, (), h=180, bg=(60, 70, 80), radius=8, rid=ID + "post_media") if p.media else
                Text(p.body or "Discussion in the comments.", size=14, lines=2, pad=(16, 0, 16, 0),
                     rid=ID + "post_body"),
                Row(Icon("expand", desc="Upvote", on_click=self.upvote, h=40, w=40, rid=ID + "upvote_button",
                         fg=ORANGE if p.upvoted else None, selected=p.upvoted),
                    Text(count(p.score), size=14, w=64, rid=ID + "vote_count"),
                    Text(f"{count(p.comments)} comments", size=14, w=140, rid=ID + "comment_count"),
                    Text("Share", size=14, w=60, style="muted"), h=48, pad=(8, 0, 16, 0), gap=8),
                Divider(),
                *[Column(Text(f"u/{who}", size=12, bold=True, rid=ID + "comment_author"),
                         Text(what, size=14, lines=2, rid=ID + "comment_body"), pad=(16, 8, 16, 8), gap=2)
                  for who, what in self.COMMENTS],
                key="post", rid=ID + "post_detail"),
            Row(Text("Join the conversation", size=14, style="muted", h=40, pad=(16, 10, 16, 0), radius=20, bg=TONAL),
                h=56, pad=(12, 8, 12, 8), rid=ID + "reply_bar"),
        )


# ======================================================================== drawer pages

class ProfileScreen(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.tab = "Posts"
        app.state.visited.append("profile")

    def inputs(self) -> bytes:
        s = self.app.state
        return _dump(s.username, s.karma, self.tab)

    def set_tab(self, tab: str) -> None:
        self.tab = tab

    def build(self) -> View:
        s = self.app.state
        empty = {"Posts": "You don't have any posts yet", "Comments": "You don't have any comments yet",
                 "About": "No trophies yet"}[self.tab]
        return Column(
            top_bar(self, "", Icon("share", desc="Share"), Icon("more", desc="More options")),
            Column(Icon("person", h=80, w=80, radius=40, bg=ORANGE, fg=(255, 255, 255)),
                   Text(f"u/{s.username}", size=22, bold=True, rid=ID + "profile_username"),
                   Text(f"{count(s.karma)} karma \u2022 3y \u2022 Nov 21, 2020", size=13, style="muted",
                        rid=ID + "profile_stats"),
                   Button("Edit", None, style="outlined", w=96, h=36, rid=ID + "profile_edit"),
                   pad=(16, 8, 16, 8), gap=6, rid=ID + "profile_header"),
            Row(*[Text(t, size=14, bold=t == self.tab, selected=t == self.tab, align="center", weight=1, h=44,
                       on_click=partial(self.set_tab, t), rid=ID + "profile_tab") for t in ("Posts", "Comments", "About")],
                h=44, rid=ID + "profile_tabs"),
            Divider(),
            Column(Spacer(h=32), Text(empty, size=15, align="center", style="muted", rid=ID + "empty_title"),
                   fill=True),
        )


class SavedScreen(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("saved")

    def build(self) -> View:
        return Column(top_bar(self, "Saved"),
                      Text("Nothing saved yet", size=16, align="center", style="muted", h=96, rid=ID + "empty_title"))


class HistoryScreen(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("history")

    def inputs(self) -> bytes:
        s = self.app.state
        return _dump([s.post(i) for i in s.history])

    def open_post(self, pid: int) -> None:
        self.start(PostScreen(self.app, pid))

    def clear(self) -> None:
        self.app.state.history.clear()
        self.sys.toast("History cleared")

    def build(self) -> View:
        s = self.app.state
        rows: list[View] = []
        for pid in s.history:
            p = s.post(pid)
            if p is not None:
                rows += [post_card(p, partial(self.open_post, pid)), Divider()]
        return Column(
            top_bar(self, "History", Icon("trash", desc="Clear history", on_click=self.clear, rid=ID + "clear_history")),
            Row(Text("RECENT", size=12, bold=True, style="muted", rid=ID + "history_sort"), h=36, pad=(16, 0, 16, 0)),
            Scroll(*rows, key="history", rid=ID + "history_list") if rows else
            Text("No history yet", size=16, align="center", style="muted", h=96, rid=ID + "empty_title"),
        )


class SettingsScreen(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("settings")

    def inputs(self) -> bytes:
        s = self.app.state
        return _dump(s.username, s.dark_mode)

    def notifications(self) -> None:
        self.start(NotificationSettings(self.app))

    def toggle_dark(self) -> None:
        self.app.state.dark_mode = not self.app.state.dark_mode

    def build(self) -> View:
        s = self.app.state

        def header(title: str) -> View:
            return Text(title, size=13, bold=True, style="muted", h=40, pad=(16, 16, 16, 0),
                        rid=ID + "settings_header")

        def row(title: str, icon: str, click=None) -> View:
            return Row(Icon(icon, h=36, w=36), Text(title, size=15, rid=ID + "setting_title"),
                       h=52, gap=12, pad=(16, 0, 16, 0), on_click=click, rid=ID + "setting_item")

        return Column(
            top_bar(self, "Settings"),
            Scroll(
                header("General"),
                row(f"Account settings for u/{s.username}", "person"),
                row("Notifications", "notifications", self.notifications),
                row("Email", "app"),
                row("Safety & privacy", "lock"),
                row("Chat & messaging permissions", "tabs"),
                header("View options"),
                Row(Icon("dark", h=36, w=36), Text("Dark mode", size=15, rid=ID + "setting_title"),
                    Switch(s.dark_mode, self.toggle_dark, rid=ID + "setting_switch"),
                    h=52, gap=12, pad=(16, 0, 16, 0), on_click=self.toggle_dark),
                row("Default view", "display"),
                row("Autoplay", "play"),
                header("About"),
                row("Content policy", "info"),
                row("Privacy policy", "info"),
                row("Log out", "forward"),
                key="settings", rid=ID + "settings_list"),
        )


class NotificationSettings(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("notification_settings")

    def inputs(self) -> bytes:
        return _dump(self.app.state.notify)

    def toggle(self, key: str) -> None:
        n = self.app.state.notify
        n[key] = not n.get(key, True)

    def build(self) -> View:
        n = self.app.state.notify
        return Column(
            top_bar(self, "Notifications"),
            Scroll(
                Text("Messages", size=13, bold=True, style="muted", h=40, pad=(16, 16, 16, 0),
                     rid=ID + "settings_header"),
                *[Row(Text(k, size=15, rid=ID + "setting_title"),
                      Switch(n.get(k, True), partial(self.toggle, k), rid=ID + "setting_switch"),
                      h=52, pad=(16, 0, 16, 0), on_click=partial(self.toggle, k), rid=ID + "setting_item")
                  for k in NOTIFICATION_SETTINGS],
                key="notifications", rid=ID + "settings_list"),
        )


class CreateCommunity(Activity):
    name = MAIN
    TYPES = (("Public", "Anyone can view, post, and comment to this community"),
             ("Restricted", "Anyone can view, but only approved users can post"),
             ("Private", "Only approved users can view and submit to this community"))

    def __init__(self, app) -> None:
        super().__init__(app)
        self.kind = "Public"
        self.mature = False
        app.state.visited.append("create_community")

    def inputs(self) -> tuple:
        return self.kind, self.mature

    def set_kind(self, kind: str) -> None:
        self.kind = kind

    def toggle_mature(self) -> None:
        self.mature = not self.mature

    def create(self, _text: str = "") -> None:
        name = self.fields.get("name", "").strip().removeprefix("r/")
        s = self.app.state
        if len(name) < 3 or s.community(name) is not None:
            return
        s.communities.append(Community(name, "", 1, 1, joined=True, alerts="Frequent"))
        s.created.append(name)
        self.finish()
        self.start(CommunityScreen(self.app, name))

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Close", on_click=self.finish, rid=ID + "back_button"),
                Text("Create a community", size=20, bold=True, rid=ID + "toolbar_title"),
                h=56, pad=(4, 0, 4, 0), rid=ID + "toolbar", style="appbar"),
            Scroll(
                Text("Community name", size=14, bold=True, h=32, pad=(16, 12, 16, 0)),
                EditText("name", hint="r/community_name", on_submit=self.create, rid=ID + "community_name_input",
                         pad=(16, 0, 16, 0)),
                Text("Community names including capitalization cannot be changed.", size=12, style="muted", lines=2,
                     pad=(16, 0, 16, 0)),
                Text("Community type", size=14, bold=True, h=32, pad=(16, 12, 16, 0)),
                *[Row(Column(Text(k, size=15, rid=ID + "community_type_title"),
                             Text(d, size=12, style="muted", lines=2)),
                      Icon("radio_on" if k == self.kind else "radio_off", h=32, w=32),
                      h=84, pad=(16, 4, 16, 4), on_click=partial(self.set_kind, k), checkable=True,
                      checked=k == self.kind, rid=ID + "community_type") for k, d in self.TYPES],
                Row(Text("18+ community", size=15), Switch(self.mature, self.toggle_mature, rid=ID + "nsfw_switch"),
                    h=52, pad=(16, 0, 16, 0), on_click=self.toggle_mature),
                key="form", rid=ID + "create_community_form", gap=4),
            Button("Create community", self.create, style="filled", h=48, bg=BLUE, rid=ID + "create_button"),
            pad=(0, 0, 0, 12), gap=4,
        )


class ExploreChannels(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.joined: list[str] = []
        app.state.visited.append("explore_channels")

    def inputs(self) -> tuple:
        return tuple(self.joined)

    def join(self, name: str) -> None:
        if name not in self.joined:
            self.joined.append(name)
            self.sys.toast(f"Joined {name}")

    def build(self) -> View:
        return Column(
            top_bar(self, "Discover channels"),
            Text("Channels picked for you", size=13, bold=True, style="muted", h=36, pad=(16, 10, 16, 0),
                 rid=ID + "section_title"),
            Scroll(*[Row(Icon("tabs", h=40, w=40, radius=20, bg=TONAL),
                         Column(Text(name, size=15, bold=True, rid=ID + "channel_name"),
                                Text(f"{about} \u2022 {count(n)} members", size=12, style="muted",
                                     rid=ID + "channel_description")),
                         Button("Joined" if name in self.joined else "Join", partial(self.join, name),
                                style="outlined" if name in self.joined else "filled", w=80, h=36,
                                rid=ID + "channel_join_button"),
                         h=64, pad=(16, 8, 16, 8), gap=12, rid=ID + "channel_item")
                     for name, about, n in CHANNELS], key="channels", rid=ID + "channel_list"),
        )


class CreatePost(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("create_post")

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Close", on_click=self.finish, rid=ID + "back_button"), Spacer(),
                Button("Post", None, style="filled", w=80, h=36, enabled=False, rid=ID + "post_button"),
                h=56, pad=(4, 0, 12, 0), rid=ID + "toolbar", style="appbar"),
            Row(Text("Select a community", size=15, bold=True, rid=ID + "community_picker"), Icon("expand", h=28, w=28),
                h=48, pad=(16, 0, 16, 0)),
            EditText("title", hint="Title", rid=ID + "submit_title", size=20),
            EditText("body", hint="body text (optional)", rid=ID + "submit_text", h=120),
        )


# ======================================================================== popups

class ChatPromo(Dialog):
    """A "what's new" sheet about chat channels."""

    def __init__(self) -> None:
        super().__init__("Chat channels are here", "Join live conversations with people in your communities "
                         "from the Chat tab.", (("Got it", None),), kind="sheet", package=PKG)

    def build(self) -> View:
        return Column(
            Icon("tabs", h=56, w=56, align="center", fg=ORANGE),
            Text(self.title, size=20, bold=True, align="center", rid=ID + "promo_title"),
            Text(self.message, size=14, lines=3, align="center", style="muted", rid=ID + "promo_body"),
            Row(Spacer(), Button("Got it", self.close, style="filled", w=112, bg=BLUE, rid=ID + "promo_dismiss"),
                Spacer(), h=56),
            pad=(24, 24, 24, 16), gap=12, style="dialog", radius=24,
        )


class PremiumNudge(Dialog):
    """An upsell sheet for Reddit Premium."""

    def __init__(self) -> None:
        super().__init__("Try Reddit Premium", "Ad-free browsing, a monthly Coins allowance and exclusive avatar "
                         "gear.", (("Not now", None), ("Try it free", None)), kind="sheet", package=PKG)

    def build(self) -> View:
        return Column(
            Icon("star", h=56, w=56, align="center", fg=ORANGE),
            Text(self.title, size=20, bold=True, align="center", rid=ID + "premium_title"),
            Text(self.message, size=14, lines=3, align="center", style="muted", rid=ID + "premium_body"),
            Row(Button("Not now", self.close, style="text", w=120, rid=ID + "premium_dismiss"), Spacer(),
                Button("Try it free", self.close, style="filled", w=120, bg=ORANGE, rid=ID + "premium_cta"), h=56),
            pad=(24, 24, 24, 16), gap=12, style="dialog", radius=24,
        )
