"""Chrome's native pages shown in a tab: the New Tab Page (Google logo, fake search box,
Most visited tiles, Discover feed), its Incognito variant, and Recent tabs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.simulator.apps.chrome.builtin import ARTICLES, FEED_SIZE
from mobile_gym.simulator.apps.chrome.ui import (
    ID, INCOGNITO_BG, WHITE, empty, favicon, header, note, site_row,
)
from mobile_gym.simulator.apps.chrome.web import Url
from mobile_gym.simulator.views import (
    Column, Icon, Row, Scroll, Spacer, Text, View, FRAME,
)

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome.browser import Main

TILES = 8  # two rows of four
RECENTLY_CLOSED = 10  # pages Recent tabs lists


def new_tab_page(main: Main) -> View:
    s = main.app.state
    return Scroll(
        Spacer(h=40),
        Text("Google", size=44, bold=True, align="center", h=72, rid=ID + "search_provider_logo",
             desc="Google"),
        Row(
            Icon("search", w=48),
            Text("Search or type web address", size=16, style="muted", rid=ID + "search_box_text",
                 weight=1),
            Icon("mic", desc="Start voice search", rid=ID + "voice_search_button",
                 on_click=lambda: main.sys.toast("Voice search is not available")),
            h=52, radius=26, style="searchbar", rid=ID + "search_box", pad=(8, 0, 8, 0),
            on_click=main.focus_omnibox,
        ),
        Spacer(h=16),
        tiles(main),
        discover(main) if s.discover_enabled else Row(
            Text("Discover – off", size=16, bold=True, weight=1),
            Icon("settings", desc="Options for Discover", rid=ID + "header_menu",
                 on_click=main.toggle_discover), h=48, pad=(16, 0, 0, 0)),
        key="ntp", rid=ID + "ntp_content", pad=(16, 0, 16, 16), gap=8,
    )


def tiles(main: Main) -> View:
    app = main.app
    cells = []
    for url in app.state.most_visited[:TILES]:
        title = tile_title(main, url)
        cells.append(Column(
            favicon(Url(url).host, size=48, rid=ID + "tile_view_icon", align="center"),
            Text(title, size=12, align="center", rid=ID + "tile_view_title"),
            desc=title, h=88, pad=(0, 8, 0, 0), gap=6, on_click=lambda u=url: app.load(u),
            cls=FRAME,
        ))
    rows = [Row(*cells[i:i + 4], *(Spacer() for _ in range(4 - len(cells[i:i + 4]))), h=88)
            for i in range(0, len(cells), 4)]
    return Column(*rows, rid=ID + "mv_tiles_layout")


def tile_title(main: Main, url: str) -> str:
    site, u = main.app.resolve(url)
    return site.name if site is not None else u.host


def discover(main: Main) -> View:
    by_url = {a.url: a for a in ARTICLES}
    cards = [by_url[u] for u in main.app.state.feed if u in by_url][:FEED_SIZE]
    return Column(
        Row(Text("Discover", size=16, bold=True, weight=1),
            Icon("settings", desc="Options for Discover", rid=ID + "header_menu",
                 on_click=main.toggle_discover), h=48, pad=(0, 0, 0, 0)),
        *(Column(
            Text(a.title, size=16, lines=2, bold=True),
            Row(Text(a.publisher, size=13, style="muted", weight=1),
                Text(a.age, size=13, style="muted", w=48, align="right"), h=24),
            style="card", radius=16, pad=(16, 12, 16, 12), gap=4,
            on_click=lambda u=a.url: main.app.load(u),
        ) for a in cards),
        gap=12, rid=ID + "feed_stream_recycler_view",
    )


def incognito_page() -> View:
    return Scroll(
        Spacer(h=48),
        Icon("person", h=72, w=72, align="center", fg=WHITE),
        Text("You've gone Incognito", size=22, bold=True, align="center", fg=WHITE),
        Text("Others who use this device won't see your activity, so you can browse more "
             "privately.", size=14, lines=3, fg=WHITE),
        Text("Chrome won't save your browsing history, cookies and site data, or information "
             "entered in forms.", size=14, lines=3, fg=WHITE),
        key="ntp", rid=ID + "new_tab_incognito_container", pad=(24, 0, 24, 16), gap=12,
        bg=INCOGNITO_BG,
    )


def recent_tabs(main: Main) -> View:
    app = main.app
    closed = list(reversed(app.state.recently_closed))[:RECENTLY_CLOSED]
    rows = [site_row(app.title(u), Url(u).host, lambda u=u: app.load(u)) for u in closed]
    return Scroll(
        header("Recently closed"),
        *(rows or [empty("No recently closed tabs")]),
        header("Other devices"),
        note("Turn on sync to see tabs from your other devices"),
        key="ntp", rid=ID + "recent_tabs_root",
    )

