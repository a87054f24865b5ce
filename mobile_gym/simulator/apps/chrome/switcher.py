"""The tab switcher: a grid of tab cards (title, close button), "New tab" and a menu
with "Close all tabs"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.simulator.apps.chrome.state import NTP_URL, Tab
from mobile_gym.simulator.apps.chrome.ui import ID, INCOGNITO_BG, WHITE, PopupMenu, empty, favicon
from mobile_gym.simulator.apps.chrome.web import Url
from mobile_gym.simulator.views import Column, Icon, Row, Scroll, Spacer, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome.browser import Main

SELECTED = (211, 227, 253)


def tab_switcher(main: Main) -> View:
    tabs = main.app.state.tabs
    cards = [card(main, i, t) for i, t in enumerate(tabs)]
    rows = [Row(*cards[i:i + 2], *([Spacer()] if len(cards[i:i + 2]) == 1 else []), h=200, gap=12)
            for i in range(0, len(cards), 2)]
    n = len(tabs)
    return Column(
        Row(
            Text(f"{n} open tab{'s' if n != 1 else ''}" if n else "No open tabs", size=18,
                 bold=True, weight=1),
            Icon("add", desc="New tab", rid=ID + "new_tab_view_button", on_click=main.new_tab),
            Icon("more", desc="Customize and control Google Chrome", rid=ID + "menu_button",
                 on_click=lambda: main.sys.show(PopupMenu((("Close all tabs", main.close_all),
                                                           ("Settings", main.open_settings))))),
            h=56, pad=(16, 0, 0, 0), rid=ID + "tab_switcher_toolbar",
        ),
        Scroll(*(rows or [empty("Tabs you open appear here")]), key="tabs", gap=12,
               pad=(12, 8, 12, 12), rid=ID + "tab_list_recycler_view"),
    )


def card(main: Main, index: int, tab: Tab) -> View:
    app = main.app
    title = "Incognito tab" if tab.incognito and tab.url == NTP_URL else app.title(tab.url)
    host = Url(tab.url).host if tab.url != NTP_URL else ""
    current = index == app.state.current_tab
    return Column(
        Row(favicon(host or "newtab", size=20), Spacer(w=6),
            Text(title, size=13, rid=ID + "tab_title", weight=1),
            Icon("close", desc=f"Close {title} tab", rid=ID + "action_button", w=36, h=36,
                 on_click=lambda: main.close_tab(index)),
            h=40, pad=(8, 0, 0, 0)),
        Column(Text(host or ("Incognito" if tab.incognito else "New tab"), size=13,
                    style="muted", align="center", fg=WHITE if tab.incognito else None),
               fill=True, pad=(0, 56, 0, 0), bg=INCOGNITO_BG if tab.incognito else (255, 255, 255),
               rid=ID + "tab_thumbnail", radius=12),
        style="card", radius=16, pad=(4, 0, 4, 4), bg=SELECTED if current else None,
        selected=current, rid=ID + "content_view", on_click=lambda: main.select_tab(index),
    )
