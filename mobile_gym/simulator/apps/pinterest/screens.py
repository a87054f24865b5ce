"""Pinterest's screens. The real app is one activity (MainActivity) whose fragments are
the tabs (Home, Search, Create, Notifications, Saved), a pin's close-up, comments,
profiles, boards, "Create board" and the settings pages; each is an `Activity` here,
all named MainActivity. Signed out, the app shows UnauthActivity (welcome and log in).
Dialogs (share sheet, create sheet, sort and filter sheets, popups) keep only picklable
handlers."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.prompts import NotificationPermission
from mobile_gym.simulator.apps.pinterest.model import (
    BOARD_SORTS,
    PROFILE_LINK,
    SETTINGS_PAGES,
    TOPICS,
    UPDATE_FILTERS,
    Board,
    Comment,
    OwnPin,
    Pin,
    User,
)
from mobile_gym.simulator.views import (
    IMAGE,
    Button,
    Column,
    Divider,
    EditText,
    Icon,
    Row,
    Scroll,
    Spacer,
    Switch,
    Text,
    View,
)

PKG = "com.pinterest"
ID = PKG + ":id/"
MAIN = "com.pinterest.activity.task.activity.MainActivity"
UNAUTH = "com.pinterest.activity.unauth.UnauthActivity"
RED = (230, 0, 35)
GREY = (233, 233, 233)
MUTED = (118, 118, 118)
WHITE = (255, 255, 255)
PALETTE = ((214, 196, 176), (176, 196, 214), (196, 214, 176), (230, 190, 190), (200, 185, 225),
           (240, 215, 160), (170, 210, 205), (225, 200, 215))
TABS = (("home", "Home", "home"), ("search", "Search", "search"), ("create", "Create", "add"),
        ("notifications", "Notifications", "notifications"), ("saved", "Saved", "person"))
KIND_ICONS = {"comment": ("edit", "Comment"), "save": ("bookmark", "Save"), "follow": ("person", "Follow"),
              "idea": ("star", "Idea")}


def colour(key: str) -> tuple[int, int, int]:
    return PALETTE[sum(map(ord, key)) % len(PALETTE)]


def count(n: int) -> str:
    """Pinterest's short counts: 948, 9.2k, 412k, 2.1m."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}".rstrip("0").rstrip(".") + "m"
    if n >= 10_000:
        return f"{n // 1000}k"
    if n >= 1000:
        return f"{n / 1000:.1f}".rstrip("0").rstrip(".") + "k"
    return str(n)


def back_bar(act: Activity, title: str = "", *actions: View | None, rid: str = "toolbar_title") -> View:
    return Row(Icon("back", desc="Back", on_click=act.finish, rid=ID + "bar_back"),
               Text(title, size=20, bold=True, align="center", rid=ID + rid) if title else Spacer(),
               *actions, Spacer(w=48) if not any(actions) else None,
               h=56, pad=(4, 0, 4, 0), rid=ID + "toolbar")


def avatar(name: str, size: int = 40, desc: str = "", on_click=None, rid: str = "avatar") -> View:
    return Icon("app", desc=desc or name, on_click=on_click, h=size, w=size, radius=size / 2,
                style="appicon", bg=colour(name), rid=ID + rid)


def pin_cell(pin: Pin | OwnPin, on_click) -> View:
    """A grid cell: the pin's image, its title and the "..." menu."""
    return Column(
        View(IMAGE, (), desc=pin.title, h=pin.height, bg=colour(pin.id), radius=16, rid=ID + "pin_image"),
        Row(Text(pin.title, size=12, rid=ID + "pin_title"), Icon("more", desc="More options", h=28, w=28),
            h=32, pad=(4, 0, 0, 0)),
        pad=(4, 4, 4, 8), on_click=on_click, rid=ID + "pin_cell",
    )


def masonry(cells: list[tuple[int, View]]) -> View:
    """Two columns; each cell goes under the shorter one (Pinterest's staggered grid)."""
    cols: list[list[View]] = [[], []]
    heights = [0, 0]
    for h, cell in cells:
        k = 0 if heights[0] <= heights[1] else 1
        cols[k].append(cell)
        heights[k] += h + 44
    return Row(Column(*cols[0], weight=1), Column(*cols[1], weight=1), pad=(8, 0, 8, 0),
               rid=ID + "grid")


def pin_grid(pins: list[Pin] | list[OwnPin], open_pin: Callable[[Pin | OwnPin], None]) -> View:
    """The pins in the staggered grid; a tap on one calls ``open_pin(pin)``."""
    return masonry([(p.height, pin_cell(p, partial(open_pin, p))) for p in pins])


class Notice:
    """An in-app toast ("Link copied") shown at the bottom of a screen until the next tap."""

    notice = ""

    def note(self, text: str = "") -> None:
        self.notice = text

    def copy_link(self, link: str) -> None:
        """"Copy link" in the share sheet: the link is copied, the toast says so."""
        self.app.state.copied.append(link)
        self.note("Link copied")

    def notice_view(self) -> View | None:
        if not self.notice:
            return None
        return Row(Text(self.notice, size=14, fg=WHITE, align="center", rid=ID + "toast_text"),
                   h=48, pad=(16, 0, 16, 0), bg=(51, 51, 51), radius=24, rid=ID + "toast_container")


# ------------------------------------------------------------------ the tabs

class Main(Notice, Activity):
    """The bottom-navigation tabs: Home (the feed), Search, Notifications (Updates,
    Inbox) and Saved (your boards and pins)."""

    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.tab = "home"
        self.searching = False  # the search field is open (suggestions)
        self.results: str | None = None  # the query whose results show
        self.results_tab = "Pins"
        self.notif_tab = "Updates"
        self.saved_tab = "Boards"
        self.saved_searching = False  # "Search your Pins" is open
        self.refreshing = False  # Home was tapped on the feed: new pins are loading
        app.state.opened = True
        app.state.visited.append("home")

    @property
    def state(self):
        return self.app.state

    # handlers --------------------------------------------------------------
    def note(self, text: str = "") -> None:
        self.notice = text
        self.refreshing = False

    def go(self, tab: str) -> None:
        self.note()
        s = self.state
        if tab == "create":
            self.sys.show(CreateSheet(self))
            return
        if tab == "home" and self.tab == "home":
            s.pins[:] = s.pins[3:] + s.pins[:3]  # new pins on top
            s.refreshes += 1
            self.scroll.pop("feed", None)
            self.refreshing = True  # the spinner shows until the next tap
            return
        if tab != self.tab:
            self.scroll.clear()
        self.tab = tab
        self.searching = self.saved_searching = False
        self.focus = None
        s.visited.append({"notifications": self.notif_tab.lower()}.get(tab, tab))

    def on_back(self) -> bool:
        self.note()
        if self.searching:
            self.searching = False
            self.focus = None
        elif self.results is not None and self.tab == "search":
            self.results = None
            self.scroll.pop("results", None)
        elif self.saved_searching:
            self.saved_searching = False
            self.focus = None
            self.fields.pop("board_query", None)
        elif self.tab != "home":
            self.tab = "home"
            self.scroll.clear()
        else:
            return False
        return True

    def open_pin(self, pin: Pin) -> None:
        self.note()
        self.start(Closeup(self.app, pin))

    def open_search(self) -> None:
        self.note()
        self.searching = True
        self.fields["query"] = ""
        self.focus = "query"
        self.sys.keyboard = True

    def submit(self, text: str) -> None:
        q = " ".join(text.split())
        if not q:
            return
        self.state.searches.append(q)
        self.results, self.results_tab = q, "Pins"
        self.searching = False
        self.focus = None
        self.sys.keyboard = False
        self.scroll.pop("results", None)

    def results_to(self, tab: str) -> None:
        self.results_tab = tab
        self.scroll.pop("results", None)

    def open_user(self, user: User) -> None:
        self.note()
        self.state.found_users.append(user.name)
        self.start(UserProfile(self.app, user.name))

    def notifications_to(self, tab: str) -> None:
        self.notif_tab = tab
        self.state.visited.append(tab.lower())
        self.scroll.pop("notifications", None)

    def open_filter(self) -> None:
        self.sys.show(OptionsSheet("Filter by", UPDATE_FILTERS, self.state.updates_filter, self.set_filter,
                                   rid="updates_filter_option"))

    def set_filter(self, value: str) -> None:
        self.state.updates_filter = value

    def saved_to(self, tab: str) -> None:
        self.saved_tab = tab
        if tab == "Pins":
            self.state.visited.append("saved_pins")
        self.scroll.pop("saved", None)

    def open_sort(self) -> None:
        self.sys.show(OptionsSheet("Sort by", BOARD_SORTS, self.state.board_sort, self.set_sort,
                                   rid="board_sort_option"))

    def set_sort(self, value: str) -> None:
        self.state.board_sort = value

    def open_saved_search(self) -> None:
        self.saved_searching = True
        self.fields["board_query"] = ""
        self.focus = "board_query"
        self.sys.keyboard = True

    def saved_submit(self, _text: str) -> None:
        self.focus = None
        self.sys.keyboard = False

    def open_board(self, board: Board) -> None:
        self.note()
        if self.saved_searching:
            self.state.board_searches.append(self.fields.get("board_query", ""))
        self.start(BoardPage(self.app, board.name))

    def open_profile(self) -> None:
        self.note()
        self.start(OwnProfile(self.app))

    def open_settings(self) -> None:
        self.note()
        self.start(SettingsMenu(self.app))

    def open_own_pin(self, pin: OwnPin) -> None:
        self.note()
        self.start(Closeup(self.app, pin))

    def create_board(self) -> None:
        self.note()
        self.start(CreateBoard(self.app))
        self.sys.keyboard = True

    def allow_notifications(self, allowed: bool) -> None:
        self.state.notifications_allowed = allowed

    # views -----------------------------------------------------------------
    def nav(self) -> View:
        items = []
        for key, label, glyph in TABS:
            on = self.tab == key
            items.append(Icon(glyph, desc=label, on_click=partial(self.go, key), selected=on, h=56, w=None,
                              weight=1, fg=(17, 17, 17) if on else MUTED, rid=ID + "bottom_nav_" + key))
        return Row(*items, h=56, rid=ID + "bottom_nav_bar", bg=WHITE)

    def build(self) -> View:
        page = {"home": self.home, "search": self.search, "notifications": self.notifications,
                "saved": self.saved}[self.tab]()
        page.fill = True  # the tab's page takes the height above the navigation bar
        return Column(page, self.notice_view(), None if self.sys.keyboard else self.nav())

    def home(self) -> View:
        s = self.state
        return Column(
            Row(Text("All", size=16, bold=True, align="center", selected=True, style="tab", w=64, h=48,
                     rid=ID + "home_tab_title"), Spacer(), h=48, pad=(8, 0, 8, 0), rid=ID + "home_tabs"),
            Row(Spacer(), View("android.widget.ProgressBar", (), desc="Refreshing", h=40, w=40, icon="refresh",
                               rid=ID + "refresh_indicator"), Spacer(), h=48) if self.refreshing else None,
            Scroll(pin_grid(s.pins, self.open_pin), Spacer(h=24), key="feed", rid=ID + "home_feed"),
        )

    # search ------------------------------------------------------------------
    def search(self) -> View:
        if self.searching:
            return self.typeahead()
        if self.results is not None:
            return self.result_page()
        tiles = [Column(View(IMAGE, (), desc=label, h=96, bg=colour(label), radius=16),
                        Text(label, size=14, bold=True, align="center", rid=ID + "topic_title"),
                        pad=(4, 4, 4, 4), on_click=partial(self.submit, label), weight=1, rid=ID + "topic_cell")
                 for label, _ in TOPICS]
        rows = [Row(*tiles[i:i + 2], Spacer(weight=1) if i + 1 == len(tiles) else None, pad=(8, 0, 8, 0))
                for i in range(0, len(tiles), 2)]
        return Column(
            Column(Row(Icon("search", h=40, w=40), Text("Search for ideas", size=16, style="muted", h=48,
                                                        rid=ID + "search_hint"),
                       h=56, pad=(12, 4, 12, 4), style="searchbar", radius=24, on_click=self.open_search,
                       rid=ID + "search_bar"), pad=(12, 0, 12, 4)),
            Scroll(Text("Ideas for you", size=18, bold=True, h=40, pad=(16, 8, 0, 0), rid=ID + "section_title"),
                   *rows, key="explore", rid=ID + "explore_list"),
            pad=(0, 8, 0, 0),
        )

    def typeahead(self) -> View:
        q = " ".join(self.fields.get("query", "").split())
        rows: list[View] = []
        if q:
            for text in (q, q + " ideas", q + " aesthetic", q + " diy"):
                rows.append(Row(Icon("search", w=40, fg=MUTED), Text(text, size=16, rid=ID + "typeahead_text"),
                                h=52, pad=(12, 0, 12, 0), on_click=partial(self.submit, text),
                                rid=ID + "typeahead_item"))
            for user in matching_users(self.state.users, q)[:3]:
                rows.append(Row(avatar(user.name, 36), Column(Text(user.name, size=16, rid=ID + "typeahead_text"),
                                                              Text("@" + user.handle, size=12, style="muted")),
                                h=60, pad=(12, 4, 12, 4), gap=12, on_click=partial(self.open_user, user),
                                rid=ID + "typeahead_user"))
        else:
            rows.append(Text("Recent searches", size=16, bold=True, h=40, pad=(16, 8, 0, 0)))
            for text in reversed(self.state.searches[-4:]):
                rows.append(Row(Icon("history", w=40, fg=MUTED), Text(text, size=16, rid=ID + "typeahead_text"),
                                h=52, pad=(12, 0, 12, 0), on_click=partial(self.submit, text),
                                rid=ID + "typeahead_item"))
        return Column(
            Row(Icon("back", desc="Back", on_click=self.on_back),
                EditText("query", hint="Search for ideas", on_submit=self.submit, rid=ID + "search_edit_text",
                         style="search"),
                h=64, pad=(4, 4, 12, 4), rid=ID + "search_bar"),
            Scroll(*rows, key="typeahead", rid=ID + "typeahead_list"),
        )

    def result_page(self) -> View:
        q = self.results or ""
        tabs = Row(*[Text(t, size=16, bold=t == self.results_tab, align="center", style="tab", h=44, w=100,
                          selected=t == self.results_tab, on_click=partial(self.results_to, t),
                          rid=ID + "search_tab") for t in ("Pins", "Profiles")], Spacer(), h=44,
                   pad=(8, 0, 8, 0), rid=ID + "search_tabs")
        if self.results_tab == "Pins":
            pins = matching_pins(self.state.pins, q)
            body: list[View | None] = [pin_grid(pins, self.open_pin)]
        else:
            users = matching_users(self.state.users, q)
            body = [Row(avatar(u.name, 48), Column(Text(u.name, size=16, bold=True, rid=ID + "user_name"),
                                                   Text(f"@{u.handle} \u00b7 {count(u.followers)} followers",
                                                        size=12, style="muted", rid=ID + "user_details")),
                        h=72, pad=(16, 8, 16, 8), gap=12, on_click=partial(self.open_user, u), rid=ID + "user_item")
                    for u in users]
            if not users:
                body = [Text(f"No profiles found for \u201c{q}\u201d", size=16, align="center", lines=2,
                             style="muted", h=72, pad=(16, 24, 16, 0), rid=ID + "empty_text")]
        return Column(
            Row(Icon("back", desc="Back", on_click=self.on_back),
                Text(q, size=16, h=48, on_click=self.open_search, rid=ID + "search_query"),
                h=64, pad=(4, 8, 12, 8), style="searchbar", radius=24, rid=ID + "search_bar"),
            tabs,
            Scroll(*body, Spacer(h=24), key="results", rid=ID + "search_results"),
        )

    # notifications -------------------------------------------------------------
    def notifications(self) -> View:
        s = self.state
        tabs = Row(Spacer(), *[Text(t, size=16, bold=True, align="center", style="tab", h=48, w=96,
                                    selected=t == self.notif_tab, on_click=partial(self.notifications_to, t),
                                    rid=ID + "notifications_tab") for t in ("Updates", "Inbox")],
                   Spacer(), h=56, rid=ID + "notifications_tabs")
        if self.notif_tab == "Updates":
            shown = s.shown_updates()
            rows: list[View] = [Row(
                Icon(KIND_ICONS[u.kind][0], desc=KIND_ICONS[u.kind][1], h=48, w=48, radius=24, bg=GREY,
                     rid=ID + "update_type_icon"),
                Column(Text(u.text, size=14, lines=2, rid=ID + "update_text"),
                       Text(u.time, size=12, style="muted", rid=ID + "update_time")),
                pad=(16, 8, 16, 8), gap=12, rid=ID + "update_item") for u in shown]
            if not shown:
                rows = [Text("No updates yet", size=16, align="center", style="muted", h=72, pad=(16, 24, 16, 0),
                             rid=ID + "empty_text")]
            head = Row(Text("Updates", size=20, bold=True, h=48, rid=ID + "section_title"),
                       Button(s.updates_filter, self.open_filter, style="outlined", w=128, h=40, desc="Filter",
                              rid=ID + "updates_filter_button"),
                       h=56, pad=(16, 4, 16, 4))
        else:
            rows = [Row(avatar(c.sender, 48), Column(Row(Text(c.sender, size=16, bold=True, rid=ID + "conversation_name"),
                                                         Text(c.time, size=12, w=40, align="right", style="muted")),
                                                     Text(c.text, size=14, style="muted", rid=ID + "conversation_text")),
                        h=72, pad=(16, 8, 16, 8), gap=12, rid=ID + "conversation_item") for c in s.inbox]
            head = Row(Text("Messages", size=20, bold=True, h=48, rid=ID + "section_title"),
                       Button("New message", None, style="filled", bg=RED, fg=WHITE, w=148, h=40,
                              rid=ID + "new_message_button"), h=56, pad=(16, 4, 16, 4))
        return Column(tabs, head, Scroll(*rows, Spacer(h=24), key="notifications", rid=ID + "notifications_list"))

    # saved -----------------------------------------------------------------------
    def saved(self) -> View:
        s = self.state
        if self.saved_searching:
            bar = Row(Icon("back", desc="Back", on_click=self.on_back),
                      EditText("board_query", hint="Search your Pins", on_submit=self.saved_submit,
                               rid=ID + "saved_search_edit_text", style="search"),
                      h=64, pad=(4, 4, 12, 4), rid=ID + "saved_search_bar")
        else:
            bar = Row(avatar(s.full_name, 40, desc="Your profile", on_click=self.open_profile, rid="profile_avatar"),
                      Row(Icon("search", h=40, w=36), Text("Search your Pins", size=14, style="muted", h=40,
                                                          rid=ID + "saved_search_hint"),
                          h=48, pad=(8, 4, 8, 4), style="searchbar", radius=24, on_click=self.open_saved_search,
                          rid=ID + "saved_search_bar"),
                      Icon("add", desc="Create", on_click=self.open_create, rid=ID + "saved_create_button"),
                      Icon("settings", desc="Settings", on_click=self.open_settings, rid=ID + "saved_settings_button"),
                      h=64, pad=(12, 8, 4, 8), gap=8, rid=ID + "saved_header")
        tabs = Row(*[Text(t, size=16, bold=True, align="center", style="tab", h=44, w=88,
                          selected=t == self.saved_tab, on_click=partial(self.saved_to, t), rid=ID + "saved_tab")
                     for t in ("Pins", "Boards")], Spacer(), h=48, pad=(8, 0, 8, 0), rid=ID + "saved_tabs")
        query = " ".join(self.fields.get("board_query", "").split()).casefold() if self.saved_searching else ""
        if self.saved_tab == "Pins" and not self.saved_searching:
            pins = s.own_pins
            body: list[View | None] = [pin_grid(pins, self.open_own_pin)]
            if not pins:
                body = [Text("Save ideas you like to see them here", size=16, align="center", style="muted",
                             h=72, pad=(16, 24, 16, 0), rid=ID + "empty_text")]
            tools = None
        else:
            boards = [b for b in s.sorted_boards() if query in b.name.casefold()]
            cells = [self.board_cell(b) for b in boards]
            body = [Row(*cells[i:i + 2], Spacer(weight=1) if i + 1 == len(cells) else None, pad=(8, 0, 8, 0))
                    for i in range(0, len(cells), 2)]
            if self.saved_searching and not boards:
                body = [Text("No boards match your search", size=16, align="center", style="muted", h=72,
                             pad=(16, 24, 16, 0), rid=ID + "empty_text")]
            tools = None if self.saved_searching else Row(
                Button(s.board_sort, self.open_sort, style="outlined", w=148, h=40, desc="Sort boards",
                       rid=ID + "board_sort_button"), Spacer(), h=48, pad=(16, 4, 16, 4))
        return Column(bar, None if self.saved_searching else tabs, tools,
                      Scroll(*body, Spacer(h=24), key="saved", rid=ID + "saved_list"))

    def board_cell(self, b: Board) -> View:
        return Column(
            View(IMAGE, (), desc=b.name, h=120, bg=colour(b.name), radius=16, rid=ID + "board_cover"),
            Row(Text(b.name, size=16, bold=True, rid=ID + "board_name"),
                Icon("lock", desc="Secret board", h=24, w=24) if b.secret else None, h=28),
            Text(f"{b.pins} Pins", size=12, style="muted", rid=ID + "board_pin_count"),
            pad=(4, 4, 4, 8), weight=1, on_click=partial(self.open_board, b), rid=ID + "board_cell",
        )

    def open_create(self) -> None:
        self.sys.show(CreateSheet(self))


def matching_users(users: list[User], q: str) -> list[User]:
    key = q.casefold().replace("\u2019", "'").lstrip("@")
    return [u for u in users if key and (key in u.name.casefold() or key in u.handle)]


def matching_pins(pins: list[Pin], q: str) -> list[Pin]:
    words = [w for w in q.casefold().split() if len(w) > 2]
    scored = [(sum(w in (p.title + " " + p.topic + " " + p.author).casefold() for w in words), k, p)
              for k, p in enumerate(pins)]
    hits = [p for n, _, p in sorted(scored, key=lambda t: (-t[0], t[1])) if n]
    return hits + [p for p in pins if p not in hits][:max(0, 8 - len(hits))]


# ------------------------------------------------------------------ dialogs

class CreateSheet(Dialog):
    """"Start creating now": Pin, Collage, Board."""

    def __init__(self, main: Main) -> None:
        super().__init__(kind="sheet", package=PKG)
        self.main = main

    def build(self) -> View:
        def item(label: str, glyph: str, handler) -> View:
            return Column(Icon(glyph, h=64, w=64, radius=16, bg=GREY, align="center"),
                          Text(label, size=14, align="center", rid=ID + "create_option_title"),
                          weight=1, on_click=handler, desc=label, rid=ID + "create_option")
        return Column(
            Row(Icon("close", desc="Close", on_click=self.close, rid=ID + "create_close"),
                Text("Start creating now", size=18, bold=True, align="center", rid=ID + "create_title"),
                Spacer(w=48), h=56),
            Row(item("Pin", "edit", None), item("Collage", "tabs", None),
                item("Board", "bookmark", partial(self._press, self.main.create_board)), h=104, pad=(16, 0, 16, 0)),
            pad=(8, 8, 8, 24), gap=8, style="dialog", radius=24, rid=ID + "create_sheet",
        )


class OptionsSheet(Dialog):
    """A bottom sheet of choices (board "Sort by", updates "Filter by")."""

    def __init__(self, title: str, options: tuple[str, ...], current: str, pick: Callable[[str], None],
                 rid: str) -> None:
        super().__init__(title, kind="sheet", package=PKG)
        self.options, self.current, self.on_pick, self.rid = options, current, pick, rid

    def pick(self, value: str) -> None:
        self.close()
        self.on_pick(value)

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Close", on_click=self.close), Text(self.title, size=18, bold=True,
                                                                     align="center", rid=ID + "sheet_title"),
                Spacer(w=48), h=56),
            *[Row(Text(o, size=16, bold=o == self.current, rid=ID + self.rid),
                  Icon("check", h=40, w=40) if o == self.current else None,
                  h=52, pad=(24, 0, 16, 0), checkable=True, checked=o == self.current,
                  on_click=partial(self.pick, o)) for o in self.options],
            pad=(8, 8, 8, 16), style="dialog", radius=24, rid=ID + "options_sheet",
        )


class ShareSheet(Dialog):
    """Share: "Copy link" and the apps to send to."""

    def __init__(self, copy: Callable[[], None]) -> None:
        super().__init__("Share", kind="sheet", package=PKG)
        self.copy = copy

    def build(self) -> View:
        def app(label: str, glyph: str, handler=None) -> View:
            return Column(Icon(glyph, h=56, w=56, radius=28, bg=GREY, align="center"),
                          Text(label, size=12, align="center", rid=ID + "share_app_name"),
                          weight=1, on_click=handler, desc=label, rid=ID + "share_app")
        return Column(
            Row(Icon("close", desc="Close", on_click=self.close, rid=ID + "share_close"),
                Text("Share", size=18, bold=True, align="center", rid=ID + "share_title"), Spacer(w=48), h=56),
            Row(app("Copy link", "copy", partial(self._press, self.copy)), app("WhatsApp", "app"),
                app("Messages", "app"), app("Gmail", "app"), app("More", "more"), h=96, pad=(8, 0, 8, 0)),
            Divider(),
            Text("Send on Pinterest", size=14, bold=True, h=36, pad=(16, 8, 0, 0)),
            Row(Icon("search", w=40, fg=MUTED), Text("Search by name or email", size=14, style="muted"),
                h=48, pad=(16, 0, 16, 0), style="searchbar", radius=24),
            pad=(8, 8, 8, 16), gap=4, style="dialog", radius=24, rid=ID + "share_sheet",
        )


# ------------------------------------------------------------------ pin close-up and comments

class Closeup(Notice, Activity):
    """A pin's close-up: the image, Send (share), Save, its title and author, comments
    and "More to explore". A pin of your own shows its board instead of Save."""

    name = MAIN

    def __init__(self, app, pin: Pin | OwnPin) -> None:
        super().__init__(app)
        self.pin = pin
        app.state.viewed_pins.append(pin.id)

    @property
    def own(self) -> bool:
        return isinstance(self.pin, OwnPin)

    def toggle_save(self) -> None:
        pin = self.pin
        pin.saved = not pin.saved
        self.note("Saved to your profile" if pin.saved else "Removed from your profile")

    def share(self) -> None:
        self.note()
        self.sys.show(ShareSheet(partial(self.copy_link, f"https://pin.it/{self.pin.id}")))

    def comments(self) -> None:
        self.note()
        self.start(CommentsPage(self.app, self.pin))

    def author(self) -> None:
        self.note()
        if not self.own and self.app.state.user(self.pin.author) is not None:
            self.start(UserProfile(self.app, self.pin.author))

    def other(self, pin: Pin) -> None:
        self.note()
        self.start(Closeup(self.app, pin))

    def build(self) -> View:
        s = self.app.state
        pin = self.pin
        if self.own:
            action = Text(f"Saved to {pin.board}", size=14, bold=True, w=168, h=48, align="right",
                          rid=ID + "closeup_board_name")
            author = s.full_name
            comments: list = []
        else:
            action = Button("Saved" if pin.saved else "Save", self.toggle_save, style="filled" if not pin.saved
                            else "tonal", bg=RED if not pin.saved else (17, 17, 17), fg=WHITE, w=96,
                            rid=ID + "closeup_save_button")
            author = pin.author
            comments = pin.comments
        n = len(comments)
        more = [p for p in s.pins if p is not pin][:4]
        preview = Row(avatar(comments[0].author, 32), Text(f"{comments[0].author} {comments[0].text}", size=14,
                                                           rid=ID + "comment_preview"),
                      h=44, gap=8, pad=(16, 0, 16, 0)) if comments else None
        return Column(
            back_bar(self, "", Icon("more", desc="More options", rid=ID + "closeup_more")),
            Scroll(
                View(IMAGE, (), desc=pin.title, h=min(440, int(pin.height * 1.5)), bg=colour(pin.id), radius=24,
                     rid=ID + "closeup_image"),
                Row(Icon("share", desc="Send", on_click=self.share, rid=ID + "closeup_share_button"),
                    Spacer(), action, h=64, pad=(8, 8, 16, 8), rid=ID + "closeup_action_bar"),
                Text(pin.title, size=20, bold=True, lines=2, pad=(16, 0, 16, 0), rid=ID + "closeup_title"),
                Row(avatar(author, 40), Text(author, size=16, bold=True, rid=ID + "closeup_author_name"),
                    Text(f"{count(pin.saves)} saves" if not self.own else "", size=12, style="muted", w=96,
                         align="right", rid=ID + "closeup_saves"),
                    h=56, pad=(16, 8, 16, 8), gap=12, on_click=self.author, rid=ID + "closeup_author"),
                Row(Text(f"{n} comment{'s' if n != 1 else ''}" if n else "Comments", size=16, bold=True,
                         rid=ID + "closeup_comments_header"),
                    Icon("chevron", w=40), h=52, pad=(16, 0, 8, 0), on_click=self.comments,
                    rid=ID + "closeup_comments"),
                preview,
                Row(Text("Add a comment" if n else "No comments yet! Add one to start the conversation.", size=14,
                         style="muted", lines=2, rid=ID + "comment_composer_hint"),
                    h=52, pad=(16, 4, 16, 4), on_click=self.comments),
                Divider(),
                Text("More to explore", size=18, bold=True, h=44, pad=(16, 12, 0, 0), rid=ID + "section_title"),
                pin_grid(more, self.other),
                Spacer(h=24),
                key="closeup", rid=ID + "closeup_scroll",
            ),
            self.notice_view(),
        )


class CommentsPage(Activity):
    """A pin's comments: the list and the "Add a comment" field."""

    name = MAIN

    def __init__(self, app, pin: Pin | OwnPin) -> None:
        super().__init__(app)
        self.pin = pin
        app.state.comments_viewed.append(pin.id)
        app.state.visited.append("comments")

    def post(self, text: str) -> None:
        text = text.strip()
        if text and isinstance(self.pin, Pin):
            self.pin.comments.append(Comment(self.app.state.full_name, text, "now"))
            self.fields["comment"] = ""
            self.focus = None
            self.sys.keyboard = False

    def build(self) -> View:
        comments = self.pin.comments if isinstance(self.pin, Pin) else []
        n = len(comments)
        rows: list[View] = [Row(avatar(c.author, 36), Column(
            Text(c.author, size=14, bold=True, rid=ID + "comment_author"),
            Text(c.text, size=14, lines=2, rid=ID + "comment_text"),
            Text(c.time, size=12, style="muted", rid=ID + "comment_time")),
            pad=(16, 8, 16, 8), gap=12, rid=ID + "comment_item") for c in comments]
        if not rows:
            rows = [Text("No comments yet! Add one to start the conversation.", size=16, lines=2, align="center",
                         style="muted", h=72, pad=(16, 24, 16, 0), rid=ID + "empty_text")]
        return Column(
            back_bar(self, "Comments"),
            Text(f"{n} comment{'s' if n != 1 else ''}", size=14, style="muted", h=28, pad=(16, 0, 16, 0),
                 rid=ID + "comments_count"),
            Scroll(*rows, key="comments", rid=ID + "comments_list"),
            Row(avatar(self.app.state.full_name, 36),
                EditText("comment", hint="Add a comment", on_submit=self.post, rid=ID + "comment_composer",
                         style="search"), h=64, pad=(16, 8, 16, 8), gap=8),
        )


# ------------------------------------------------------------------ profiles

class UserProfile(Notice, Activity):
    """Someone's profile: name, handle, followers, Follow / Following, their pins."""

    name = MAIN

    def __init__(self, app, user: str) -> None:
        super().__init__(app)
        self.user = user
        app.state.visited.append("user:" + user)

    def follow(self) -> None:
        s = self.app.state
        u = s.user(self.user)
        u.following = not u.following
        u.followers += 1 if u.following else -1
        if u.following:
            s.followed.append(u.name)
        elif u.name in s.followed:
            s.followed.remove(u.name)

    def share(self) -> None:
        handle = self.app.state.user(self.user).handle
        self.sys.show(ShareSheet(partial(self.copy_link, f"https://pin.it/{handle}")))

    def open_pin(self, pin: Pin) -> None:
        self.note()
        self.start(Closeup(self.app, pin))

    def build(self) -> View:
        s = self.app.state
        u = s.user(self.user)
        pins = [p for p in s.pins if p.author == u.name][:4]
        grid = pin_grid(pins, self.open_pin) if pins else Text("Nothing to show yet", size=16, align="center",
                                                               style="muted", h=64, rid=ID + "empty_text")
        return Column(
            back_bar(self, "", Icon("share", desc="Share profile", on_click=self.share,
                                    rid=ID + "profile_share_button")),
            Scroll(
                Row(Spacer(), avatar(u.name, 96), Spacer(), h=104),
                Text(u.name, size=24, bold=True, align="center", rid=ID + "profile_name"),
                Text("@" + u.handle, size=14, style="muted", align="center", rid=ID + "profile_username"),
                Text(u.bio, size=14, align="center", lines=2, rid=ID + "profile_about"),
                Text(f"{count(u.followers)} followers", size=14, bold=True, align="center",
                     rid=ID + "profile_followers"),
                Row(Spacer(), Button("Following" if u.following else "Follow", self.follow,
                                     style="tonal" if u.following else "filled",
                                     bg=(17, 17, 17) if u.following else RED, fg=WHITE, w=128,
                                     rid=ID + "profile_follow_button"), Spacer(), h=56),
                Row(Text("Created", size=16, bold=True, align="center", style="tab", selected=True, w=96, h=44,
                         rid=ID + "profile_tab"), Spacer(), h=44, pad=(8, 0, 8, 0)),
                grid,
                Spacer(h=24),
                key="profile", rid=ID + "profile_scroll", gap=4,
            ),
            self.notice_view(),
        )


class OwnProfile(Notice, Activity):
    """Your profile page: avatar, name, @agentian, followers and following, Share and
    Edit profile."""

    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("profile")

    def share(self) -> None:
        self.note()
        self.sys.show(ShareSheet(partial(self.copy_link, PROFILE_LINK)))

    def following(self) -> None:
        self.note()
        self.start(FollowingPage(self.app))

    def open_board(self, board: Board) -> None:
        self.note()
        self.start(BoardPage(self.app, board.name))

    def build(self) -> View:
        s = self.app.state
        boards = [b for b in s.sorted_boards() if not b.secret][:4]
        return Column(
            back_bar(self, ""),
            Scroll(
                Row(Spacer(), avatar(s.full_name, 96), Spacer(), h=104),
                Text(s.full_name, size=24, bold=True, align="center", rid=ID + "profile_name"),
                Text("@" + s.username, size=14, style="muted", align="center", rid=ID + "profile_username"),
                Row(Spacer(), Text(f"{s.followers} followers", size=14, bold=True, w=112, align="right",
                                   rid=ID + "profile_followers"),
                    Text("\u00b7", size=14, w=16, align="center"),
                    Text(f"{len(s.following())} following", size=14, bold=True, w=112, on_click=self.following,
                         rid=ID + "profile_following"), Spacer(), h=36),
                Row(Spacer(), Button("Share", self.share, style="tonal", w=112, rid=ID + "profile_share_button"),
                    Button("Edit profile", None, style="tonal", w=136, rid=ID + "profile_edit_button"),
                    Spacer(), h=56, gap=8),
                Row(Text("Created", size=16, bold=True, align="center", style="tab", w=96, h=44,
                         rid=ID + "profile_tab"),
                    Text("Saved", size=16, bold=True, align="center", style="tab", selected=True, w=96, h=44,
                         rid=ID + "profile_tab"), Spacer(), h=44, pad=(8, 0, 8, 0)),
                *[Row(View(IMAGE, (), desc=b.name, h=56, w=56, bg=colour(b.name), radius=12),
                      Column(Text(b.name, size=16, bold=True, rid=ID + "board_name"),
                             Text(f"{b.pins} Pins", size=12, style="muted", rid=ID + "board_pin_count")),
                      h=72, pad=(16, 8, 16, 8), gap=12, on_click=partial(self.open_board, b), rid=ID + "board_row")
                  for b in boards],
                Spacer(h=24),
                key="profile", rid=ID + "profile_scroll", gap=4,
            ),
            self.notice_view(),
        )


class FollowingPage(Activity):
    """The people you follow, each with a Following button (tap: unfollow)."""

    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.shown = [u.name for u in app.state.following()]  # unfollowed rows stay until the page closes
        app.state.visited.append("following")

    def toggle(self, name: str) -> None:
        u = self.app.state.user(name)
        u.following = not u.following

    def open_user(self, name: str) -> None:
        self.start(UserProfile(self.app, name))

    def build(self) -> View:
        s = self.app.state
        rows: list[View] = []
        for name in self.shown:
            u = s.user(name)
            rows.append(Row(avatar(u.name, 48), Column(Text(u.name, size=16, bold=True, rid=ID + "user_name"),
                                                       Text("@" + u.handle, size=12, style="muted",
                                                            rid=ID + "user_details")),
                            Button("Following" if u.following else "Follow", partial(self.toggle, name),
                                   style="tonal" if u.following else "filled", w=112, h=40,
                                   rid=ID + "user_follow_button"),
                            h=72, pad=(16, 8, 16, 8), gap=12, on_click=partial(self.open_user, name),
                            rid=ID + "user_item"))
        if not rows:
            rows = [Text("You aren't following anyone yet", size=16, align="center", style="muted", h=72,
                         pad=(16, 24, 16, 0), rid=ID + "empty_text")]
        return Column(back_bar(self, "Following"), Scroll(*rows, key="following", rid=ID + "following_list"))


# ------------------------------------------------------------------ boards

class BoardPage(Activity):
    """One of your boards: its name, pin count, and its pins (or "Find ideas")."""

    name = MAIN

    def __init__(self, app, board: str) -> None:
        super().__init__(app)
        self.board = board
        app.state.opened_boards.append(board)

    def open_pin(self, pin: OwnPin) -> None:
        self.start(Closeup(self.app, pin))

    def build(self) -> View:
        s = self.app.state
        b = s.board(self.board)
        pins = [p for p in s.own_pins if p.board == self.board]
        body: list[View | None]
        if pins:
            body = [pin_grid(pins, self.open_pin)]
        else:
            body = [Text("Find some ideas for this board", size=16, align="center", style="muted", h=56,
                         pad=(16, 16, 16, 0), rid=ID + "empty_text")]
        return Column(
            back_bar(self, "", Icon("share", desc="Share board", rid=ID + "board_share_button"),
                     Icon("more", desc="Board options", rid=ID + "board_more")),
            Scroll(
                Text(b.name if b else self.board, size=26, bold=True, align="center", lines=2,
                     rid=ID + "board_title"),
                Row(Spacer(), Icon("lock", desc="Secret board", h=24, w=24) if b and b.secret else None,
                    Text(f"{b.pins if b else 0} Pins", size=14, style="muted", w=96, align="center",
                         rid=ID + "board_pin_count"), Spacer(), h=28),
                Row(Spacer(), Button("More ideas", None, style="tonal", w=124, rid=ID + "board_more_ideas"),
                    Button("Organize", None, style="tonal", w=112, rid=ID + "board_organize"), Spacer(),
                    h=56, gap=8),
                *body,
                Spacer(h=24),
                key="board", rid=ID + "board_scroll", gap=4,
            ),
        )


class CreateBoard(Notice, Activity):
    """"Create board": the name, "Make this board secret", and "Create"."""

    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.secret = False
        self.fields["name"] = ""
        self.focus = "name"

    def toggle_secret(self) -> None:
        self.secret = not self.secret

    def create(self, _text: str = "") -> None:
        name = " ".join(self.fields.get("name", "").split())
        if not name:
            return
        s = self.app.state
        if s.board(name) is not None:
            self.note("You already have a board with this name")
            return
        top = max((b.updated for b in s.boards), default=0)
        s.boards.append(Board(name, 0, self.secret, updated=top + 1, created=True))
        self.sys.keyboard = False
        self.finish()
        self.app.sys.start(BoardPage(self.app, name))

    def build(self) -> View:
        name = " ".join(self.fields.get("name", "").split())
        return Column(
            Row(Icon("close", desc="Close", on_click=self.finish, rid=ID + "create_board_close"),
                Text("Create board", size=20, bold=True, align="center", rid=ID + "toolbar_title"),
                Button("Create", self.create if name else None, style="filled", bg=RED if name else GREY,
                       fg=WHITE if name else MUTED, enabled=bool(name), w=96, rid=ID + "create_board_button"),
                h=64, pad=(4, 8, 12, 8), rid=ID + "toolbar"),
            Text("Board name", size=14, h=28, pad=(16, 8, 16, 0), rid=ID + "board_name_label"),
            EditText("name", hint="Like \u201cPlaces to go\u201d or \u201cRecipes to make\u201d",
                     on_submit=self.create, rid=ID + "board_name_edit", style="search"),
            Row(Column(Text("Make this board secret", size=16, rid=ID + "secret_title"),
                       Text("Only you and collaborators will see this board", size=12, style="muted", lines=2)),
                Switch(self.secret, self.toggle_secret, desc="Make this board secret", rid=ID + "secret_switch"),
                pad=(16, 8, 16, 8), on_click=self.toggle_secret),
            Row(Text("Collaborators", size=16), Icon("add", desc="Add collaborators", w=40), h=56,
                pad=(16, 0, 8, 0)),
            Spacer(fill=True),
            self.notice_view(),
        )


# ------------------------------------------------------------------ settings

class SettingsMenu(Activity):
    """"Your account": the settings list and "Log out"."""

    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        app.state.visited.append("settings")

    def page(self, title: str) -> None:
        self.start(SettingsPage(self.app, title))

    def log_out(self) -> None:
        app = self.app
        app.state.logged_in = False
        old = list(app.stack)
        self.sys.start(Unauth(app))
        for act in old:
            self.sys.finish(act)

    def build(self) -> View:
        def row(title: str, handler=None) -> View:
            return Row(Text(title, size=16, rid=ID + "settings_item_title"),
                       Icon("chevron", w=32, fg=MUTED) if handler else None,
                       h=56, pad=(16, 0, 12, 0), on_click=handler, rid=ID + "settings_item")

        def header(title: str) -> View:
            return Text(title, size=14, style="muted", h=40, pad=(16, 16, 16, 0), rid=ID + "settings_header")

        return Column(
            back_bar(self, "Your account"),
            Scroll(
                header("Settings"),
                *[row(t, partial(self.page, t)) for t in SETTINGS_PAGES],
                row("Claimed external accounts"),
                row("Reports and violations center"),
                header("Login"),
                row("Add account"),
                row("Security"),
                header("Support"),
                row("Help Center"),
                row("Terms of Service"),
                row("Privacy Policy"),
                row("About"),
                Row(Text("Log out", size=16, bold=True, rid=ID + "settings_log_out"), h=56, pad=(16, 0, 12, 0),
                    on_click=self.log_out, rid=ID + "settings_item"),
                Spacer(h=24),
                key="settings", rid=ID + "settings_list",
            ),
        )


class SettingsPage(Activity):
    """One settings page: Account management, Profile visibility, Home feed tuner, Social
    permissions, Notifications, Privacy and data."""

    name = MAIN

    def __init__(self, app, title: str) -> None:
        super().__init__(app)
        self.title = title
        app.state.visited.append(title)

    def toggle(self, attr: str) -> None:
        setattr(self.app.state, attr, not getattr(self.app.state, attr))

    def switch(self, title: str, summary: str, attr: str | None) -> View:
        on = getattr(self.app.state, attr) if attr else True
        handler = partial(self.toggle, attr) if attr else None
        lines = 1 if len(title) < 30 else 2 if len(title) < 60 else 3
        return Row(Column(Text(title, size=16, lines=lines, rid=ID + "settings_item_title"),
                          Text(summary, size=12, style="muted", lines=1 + len(summary) // 48,
                               rid=ID + "settings_item_summary")
                          if summary else None),
                   Switch(on, handler, desc=title, rid=ID + "settings_switch"),
                   pad=(16, 8, 16, 8), gap=8, on_click=handler, rid=ID + "settings_item")

    def item(self, title: str, value: str = "") -> View:
        return Row(Text(title, size=16, rid=ID + "settings_item_title"),
                   Text(value, size=14, style="muted", w=176, align="right", rid=ID + "settings_item_value")
                   if value else None, h=56, pad=(16, 0, 16, 0), rid=ID + "settings_item")

    def header(self, title: str) -> View:
        return Text(title, size=14, bold=True, h=40, pad=(16, 16, 16, 0), rid=ID + "settings_header")

    def description(self, text: str, lines: int = 2) -> View:
        return Text(text, size=13, style="muted", lines=lines, pad=(16, 4, 16, 4), rid=ID + "settings_description")

    def content(self) -> list[View]:
        s = self.app.state
        t = self.title
        if t == "Account management":
            return [self.header("Your account"), self.item("Email", s.email), self.item("Password", "Change"),
                    self.item("Convert to a business account"),
                    self.header("Personal information"), self.item("Birthdate", "Mar 14, 1996"),
                    self.item("Gender", "Prefer not to say"), self.item("Country/region", "United States"),
                    self.item("Language", "English (US)"),
                    self.header("Account changes"), self.item("Deactivate account"),
                    self.item("Delete your data and account")]
        if t == "Profile visibility":
            return [self.description("Manage how your profile can be viewed on and off of Pinterest", 2),
                    self.switch("Private profile", "When your profile is private, only people you approve can "
                                "see your profile, Pins, boards, followers and following lists", "private_profile"),
                    self.switch("Search privacy", "Hide your profile from search engines (ex. Google)",
                                "search_privacy")]
        if t == "Home feed tuner":
            return [self.description("Tune your home feed: turn off what you don't want to see more of", 2),
                    Row(*[Text(x, size=14, bold=True, align="center", style="tab", selected=x == "Topics", h=40,
                               weight=1, rid=ID + "tuner_tab") for x in ("Activity", "Boards", "Topics", "Profiles")],
                        h=44, pad=(8, 0, 8, 0)),
                    *[self.switch(label, "", None) for label, _ in TOPICS[:5]]]
        if t == "Social permissions":
            return [self.header("Mentions"),
                    self.description("Allow people to @mention you", 1),
                    *[Row(Icon("radio_on" if k == 0 else "radio_off", w=40),
                          Text(x, size=16, rid=ID + "settings_item_title"), h=48, pad=(16, 0, 16, 0),
                          checkable=True, checked=k == 0, rid=ID + "settings_radio")
                      for k, x in enumerate(("Anyone on Pinterest", "Only people you follow", "Turn off mentions"))],
                    self.header("Comments"),
                    self.switch("Allow comments on your Pins", "", "allow_comments"),
                    self.switch("Filter comments on my Pins", "Hide comments that contain words you list",
                                "filter_comments")]
        if t == "Notifications":
            return [self.item("On Pinterest", "On"), self.item("By email", "On"),
                    self.item("By push notification", "On")]
        # Privacy and data
        return [self.header("Personalization"),
                self.switch("Use sites you visit to improve which recommendations and ads you see", "",
                            "personalization"),
                self.switch("Use information from our partners to improve which recommendations and ads you see",
                            "", None),
                self.header("Data"),
                self.item("Request your data"),
                self.item("Delete your data and account")]

    def build(self) -> View:
        return Column(back_bar(self, self.title),
                      Scroll(*self.content(), Spacer(h=24), key="page", rid=ID + "settings_page_list"))


# ------------------------------------------------------------------ signed out

class Unauth(Activity):
    """Signed out: "Welcome to Pinterest" with "Log in" (email and password)."""

    name = UNAUTH

    def __init__(self, app) -> None:
        super().__init__(app)
        self.logging_in = False

    def log_in_form(self) -> None:
        self.logging_in = True
        self.fields.setdefault("email", self.app.state.email)
        self.focus = "password"

    def on_back(self) -> bool:
        if self.logging_in:
            self.logging_in = False
            self.focus = None
            return True
        return False

    def log_in(self, _text: str = "") -> None:
        if not self.fields.get("email", "").strip() or not self.fields.get("password", ""):
            return
        app = self.app
        app.state.logged_in = True
        self.sys.keyboard = False
        self.sys.start(Main(app))
        self.sys.finish(self)

    def build(self) -> View:
        if self.logging_in:
            return Column(
                Row(Icon("back", desc="Back", on_click=self.on_back),
                    Text("Log in", size=20, bold=True, align="center", rid=ID + "toolbar_title"), Spacer(w=48), h=56),
                EditText("email", hint="Email address", rid=ID + "email_address", style="search"),
                EditText("password", hint="Password", rid=ID + "password", style="search", password=True,
                         on_submit=self.log_in),
                Button("Log in", self.log_in, style="filled", bg=RED, fg=WHITE, rid=ID + "login_button"),
                Text("Forgotten password?", size=14, bold=True, align="center", rid=ID + "forgot_password"),
                Spacer(fill=True),
                pad=(16, 8, 16, 16), gap=12,
            )
        return Column(
            Spacer(h=96),
            Row(Spacer(), Icon("app", desc="Pinterest", h=80, w=80, radius=40, style="appicon", bg=RED),
                Spacer(), h=88),
            Text("Welcome to Pinterest", size=28, bold=True, align="center", lines=2, rid=ID + "welcome_title"),
            Spacer(fill=True),
            Button("Continue with email", None, style="filled", bg=RED, fg=WHITE, rid=ID + "continue_email"),
            Button("Continue with Google", None, style="outlined", rid=ID + "continue_google"),
            Button("Log in", self.log_in_form, style="tonal", rid=ID + "login_button"),
            Text("By continuing, you agree to Pinterest's Terms of Service and acknowledge you've read our "
                 "Privacy Policy", size=12, lines=3, align="center", style="muted"),
            pad=(24, 0, 24, 24), gap=12,
        )


# ------------------------------------------------------------------ popups

class Nudge(Dialog):
    """A bottom sheet the app shows once: a "what's new" card or a sign-in nudge."""

    def __init__(self, title: str, message: str, action: str, dismiss: str = "Not now") -> None:
        super().__init__(title, message, ((dismiss, None), (action, None)), kind="sheet", package=PKG)

    def build(self) -> View:
        (dismiss, _), (action, _) = self.buttons
        return Column(
            Row(Spacer(), Icon("star", h=56, w=56, radius=28, bg=GREY, fg=RED), Spacer(), h=64),
            Text(self.title, size=20, bold=True, lines=2, align="center", rid=ID + "nudge_title"),
            Text(self.message, size=14, lines=3, align="center", style="muted", rid=ID + "nudge_message"),
            Button(action, self.close, style="filled", bg=RED, fg=WHITE, rid=ID + "nudge_action"),
            Button(dismiss, self.close, style="text", rid=ID + "nudge_dismiss"),
            pad=(24, 24, 24, 16), gap=12, style="dialog", radius=24, rid=ID + "nudge_sheet",
        )


def popups(main: Main) -> list[Dialog]:
    return [NotificationPermission("Pinterest", main.allow_notifications, RED),
            Nudge("Tune your home feed", "Pick the topics, boards and profiles you want to see more of "
                  "with the new Home feed tuner.", "Try it", "Got it"),
            Nudge("Add your birthday", "We use your birthday to personalize your experience. It won't be "
                  "part of your public profile.", "Add birthday", "Not now")]
