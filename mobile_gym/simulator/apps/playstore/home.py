"""The store's front page: search bar with the account avatar, the Games / Apps / Offers
/ Books navigation, the tabs, and the dialogs it opens (account menu, promo sheet)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.playstore.model import ID, LISTED
from mobile_gym.simulator.apps.playstore.widgets import (
    AVATAR, GREEN, PALE_GREEN, Page, app_icon, chip_row, para, section_header, tab_row,
)
from mobile_gym.simulator.views import (
    Button, Column, Divider, Icon, Row, Scroll, Spacer, Text, View, FRAME,
)

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.playstore.store import PlayStore

SECTIONS = (("games", "Games", "play"), ("apps", "Apps", "apps"), ("offers", "Offers", "cart"),
            ("books", "Books", "bookmark"))
TABS = ("For you", "Top charts", "Kids", "Categories")
CHARTS = ("Top free", "Top grossing", "Trending")
ACCOUNT_ITEMS = (("Manage apps & device", "apps"), ("Payments & subscriptions", "cart"),
                 ("Play Protect", "lock"), ("Library", "bookmark"), ("Play Pass", "play"),
                 ("Offers & notifications", "bell"), ("Settings", "settings"),
                 ("Help & feedback", "info"))


class Home(Page):
    """Bottom navigation (Games, Apps, Offers, Books) and, for games and apps, the tabs."""

    def __init__(self, app: PlayStore) -> None:
        super().__init__(app)
        self.section = "apps"
        self.tab = "For you"
        self.chart = "Top free"

    def pick_section(self, section: str) -> None:
        self.section, self.tab = section, "For you"
        self.scroll.clear()

    def pick_tab(self, tab: str) -> None:
        self.tab = tab
        self.scroll.clear()

    def pick_chart(self, chart: str) -> None:
        self.chart = chart
        self.scroll.clear()

    def on_back(self) -> bool:
        """BACK returns to "For you", then to Apps, then leaves the store."""
        if self.tab != "For you":
            self.pick_tab("For you")
            return True
        if self.section != "apps":
            self.pick_section("apps")
            return True
        return False

    def open_account(self) -> None:
        self.sys.show(AccountMenu(self.app), self.app)

    def inputs(self) -> tuple:
        """The section, tab and chart, the account, the store's orders (replaced only by
        `vary`) and what is installed."""
        app, s = self.app, self.app.state
        return (self.section, self.tab, self.chart, s.account_name, s.account_email,
                id(app.order), id(app.offers), id(app.books), self.sys.packages())

    def build(self) -> View:
        s = self.app.state
        search = Row(
            Icon("search", w=40),
            Text("Search for apps & games", size=16, style="muted", rid=ID + "search_bar_hint"),
            Icon("mic", desc="Voice search", w=40),
            Icon("person", desc=f"Signed in as {s.account_name} {s.account_email}. Account and settings.",
                 on_click=self.open_account, w=40, h=40, style="appicon", bg=AVATAR,
                 rid=ID + "selected_account_disc"),
            h=56, pad=(8, 0, 8, 0), style="searchbar", radius=28, rid=ID + "search_bar",
            on_click=self.open_search,
        )
        return Column(
            Column(search, pad=(16, 8, 16, 8), h=72),
            tab_row(TABS, self.tab, self.pick_tab) if self.section in ("apps", "games") else None,
            Scroll(*self.content(), key="feed", rid=ID + "nested_parent_recycler_view"),
            Divider(),
            Row(*(self.nav_item(key, label, icon) for key, label, icon in SECTIONS),
                h=80, rid=ID + "navigation_bar"),
        )

    def nav_item(self, key: str, label: str, icon: str) -> View:
        on = key == self.section
        return Column(
            Icon(icon, w=64, h=32, align="center", radius=16, bg=PALE_GREEN if on else None),
            Text(label, size=12, align="center", bold=on, rid=ID + "navigation_bar_item_small_label_view"),
            desc=label, selected=on, pad=(0, 12, 0, 8), gap=4, rid=ID + "navigation_bar_item",
            on_click=partial(self.pick_section, key),
        )

    def content(self) -> list[View | None]:
        if self.section == "offers":
            return self.offers()
        if self.section == "books":
            return self.books()
        pages: dict[str, Callable[[bool], list[View | None]]] = {
            "For you": self.for_you, "Top charts": self.top_charts, "Kids": self.kids,
            "Categories": self.categories}
        return pages[self.tab](self.section == "games")

    def for_you(self, game: bool) -> list[View | None]:
        feed = self.app.feed(game)
        kind = "games" if game else "apps"

        def section(title: str, start: int, views: list[View]) -> list[View | None]:
            """A titled cluster; its arrow lists the whole feed from the cluster's apps on."""
            packages = [e.package for e in feed[start:] + feed[:start]]
            return [section_header(title, partial(self.app.open_list, title, packages)), *views] if views else []

        return [
            *section("Recommended for you", 0, [self.card_row(feed[:3])]),
            *section("Suggested for you", 3, [self.app_row(e) for e in feed[3:7]]),
            *section(f"New & updated {kind}", 7, [self.card_row(feed[7:10])] if feed[7:10] else []),
            *section(f"Popular {kind}", 10, [self.app_row(e) for e in feed[10:14]]),
        ]

    def top_charts(self, game: bool) -> list[View | None]:
        chart = self.app.chart(self.chart, game)
        return [chip_row(CHARTS, self.chart, self.pick_chart),
                *(self.app_row(e, rank=i + 1) for i, e in enumerate(chart[:15]))]

    def kids(self, game: bool) -> list[View | None]:
        picks = [e for e in self.app.feed(game) if e.kids]
        return [section_header("Teacher approved for kids"),
                para("Fun, enriching apps for kids ages 2-12", style="muted"),
                *(self.app_row(e) for e in picks)]

    def categories(self, game: bool) -> list[View | None]:
        feed = self.app.feed(game)
        names = sorted({e.category for e in feed})
        return [Row(Icon("apps", w=56), Text(name, size=16), h=56, pad=(8, 0, 16, 0),
                    on_click=partial(self.app.open_list, name,
                                     [e.package for e in feed if e.category == name]))
                for name in names]

    def offers(self) -> list[View | None]:
        cards = []
        for package, offer in self.app.offers:
            e = LISTED[package]
            cards.append(Column(
                Text("Limited-time offer", size=12, style="muted"),
                Text(offer, size=16, bold=True),
                Row(app_icon(e, 40), Text(e.title, size=14), h=48, gap=12),
                style="card", radius=16, pad=(16, 12, 16, 12), gap=4,
                on_click=partial(self.details, package),
            ))
        return [section_header("Offers for you"), Column(*cards, pad=(16, 0, 16, 16), gap=12)]

    def books(self) -> list[View | None]:
        return [section_header("Top-selling ebooks"),
                *(Row(Icon("bookmark", desc=b.title, w=56, h=72, style="appicon", bg=(95, 99, 104)),
                      Column(Text(b.title, size=15), Text(b.author, size=13, style="muted"),
                             Text(f"{b.rating} ★   {b.price}", size=13, style="muted")),
                      h=88, pad=(16, 8, 16, 8), gap=12, on_click=partial(self.app.open_book, b))
                  for b in self.app.books)]


class PromoSheet(Dialog):
    """Dynamics' promo bottom sheet; "No thanks" dismisses it."""

    def __init__(self, app: PlayStore) -> None:
        super().__init__("Get 3 months of Google One",
                         "Get 100 GB of cloud storage for your photos, files and backups, and more "
                         "Google benefits. Cancel anytime.",
                         (("No thanks", None), ("Get offer", app.accept_promo)), kind="sheet")

    def build(self) -> View:
        (no, _), (yes, handler) = self.buttons
        return Column(
            Icon("star", w=56, h=56, align="center", style="appicon", bg=(66, 133, 244)),
            Text(self.title, size=22, bold=True, align="center", rid=ID + "promo_title"),
            Text(self.message, size=14, align="center", style="muted", lines=3),
            Button(yes, partial(self._press, handler), bg=GREEN, rid=ID + "primary_button"),
            Button(no, partial(self._press, None), style="text", fg=GREEN, rid=ID + "secondary_button"),
            style="dialog", radius=28, pad=(24, 24, 24, 16), gap=12, rid=ID + "bottom_sheet",
        )


class AccountMenu(Dialog):
    """The account card the avatar opens: account, "Manage apps & device", Settings, ..."""

    def __init__(self, app: PlayStore) -> None:
        super().__init__("Google")
        self.app = app

    def go(self, title: str) -> None:
        self.close()
        self.app.open_account_page(title)

    def build(self) -> View:
        s = self.app.state
        items = [Row(Icon(icon, w=56), Text(label, size=16), h=48, on_click=partial(self.go, label))
                 for label, icon in ACCOUNT_ITEMS]
        return Column(
            Row(Icon("close", desc="Close", on_click=self.close, w=48),
                Text("Google", size=20, align="center"), Spacer(w=48), h=48),
            Row(Icon("person", w=48, h=48, style="appicon", bg=AVATAR),
                Column(Text(s.account_name, size=16, bold=True), Text(s.account_email, size=14, style="muted")),
                h=56, gap=12, pad=(16, 0, 16, 0)),
            Button("Manage your Google Account", partial(self.go, "Manage your Google Account"),
                   style="outlined", w=260, h=40, align="center"),
            Divider(),
            *items,
            Divider(),
            Text("Privacy Policy · Terms of Service", size=12, style="muted", align="center"),
            cls=FRAME, w=360, pad=(8, 8, 8, 12), gap=4, style="dialog", radius=28,
            rid=ID + "account_menu",
        )
