"""ChromeTabbedActivity: the toolbar (home, omnibox, tab switcher, menu), the page of
the current tab (New Tab Page or a WebView) and, on the same activity as in Chrome, the
tab switcher, omnibox suggestions and the find-in-page bar."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING
from urllib.parse import urljoin

import numpy as np

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.chrome.builtin import error_page
from mobile_gym.simulator.apps.chrome.menu import MainMenu, page_info
from mobile_gym.simulator.apps.chrome.ntp import RECENTLY_CLOSED, TILES, incognito_page, new_tab_page, recent_tabs
from mobile_gym.simulator.apps.chrome.settings import SettingsMain
from mobile_gym.simulator.apps.chrome.state import NTP_URL, RECENT_TABS_URL, Tab
from mobile_gym.simulator.apps.chrome.switcher import tab_switcher
from mobile_gym.simulator.apps.chrome.ui import ID, INCOGNITO_BG, WHITE
from mobile_gym.simulator.apps.chrome.urls import display, looks_like_url
from mobile_gym.simulator.views import (
    Column, EditText, Icon, Row, Scroll, Spacer, Text, View, FRAME, IMAGE_BUTTON, WEBVIEW,
)

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome import Chrome

WEB = "web."  # prefix of web form fields in the activity's fields
SUGGESTIONS = 6


class TabBrowser:
    """The `Browser` a page gets: navigation in the current tab, its form fields (kept in
    the activity's fields under ``web.<key>``) and toasts."""

    def __init__(self, main: Main) -> None:
        self.main = main

    @property
    def rng(self) -> np.random.Generator:
        return self.main.sys.rng

    def navigate(self, url: str) -> None:
        """Load ``url``; a path ("/cart") or query ("?page=2") is relative to the page."""
        app = self.main.app
        if url.startswith(("/", "?")) and app.tab is not None:
            url = urljoin(app.tab.url, url)
        app.load(url)

    def field(self, key: str) -> str:
        return self.main.fields.get(WEB + key, "")

    def set_field(self, key: str, text: str) -> None:
        self.main.fields[WEB + key] = text

    def toast(self, text: str) -> None:
        self.main.sys.toast(text)


class Main(Activity):
    name = "org.chromium.chrome.browser.ChromeTabbedActivity"
    app: Chrome

    def __init__(self, app: Chrome) -> None:
        super().__init__(app)
        self.switcher = False  # the tab switcher is showing
        self.finding = False  # the find-in-page bar replaces the toolbar
        self.find_index = 0  # highlighted match and number of matches of the find bar
        self.find_count = 0
        self.shown: tuple = ()  # the page the web fields and scroll belong to

    # ------------------------------------------------------------------ screen
    def build(self) -> View:
        tab = self._settle()
        if tab is None or self.switcher:
            return tab_switcher(self)
        if self.focus == "url":
            return Column(self.toolbar(tab, editing=True), self.suggestions())
        page = self.page(tab)
        return Column(self.find_bar(page) if self.finding else self.toolbar(tab), page)

    def _settle(self) -> Tab | None:
        """What showing the current tab changes before anything is drawn (also done by
        `inputs`, so that it describes the screen as it will be): a new page starts
        with empty forms, the omnibox shows its URL and the site loads the page."""
        tab = self.app.tab
        if tab is None or self.switcher:
            return tab
        self._follow(tab)
        if self.focus != "url":
            self.fields["url"] = display(tab.url)
            if tab.url != NTP_URL and tab.url != RECENT_TABS_URL:
                site, url = self.app.resolve(tab.url)
                if site is not None:
                    site.prepare(url, TabBrowser(self))
        return tab

    def inputs(self) -> tuple | None:
        """The tabs (switcher); the typed text's suggestions (omnibox); else the tab's
        URL, the toolbar's facts and what the page reads: the New Tab Page's tiles and
        feed, Recent tabs, or the site's own `Site.inputs`. None while finding in the
        page (the match count is counted while drawing) or for a site that can't say."""
        tab = self._settle()
        s = self.app.state
        if tab is None or self.switcher:
            title = self.app.title
            return "tabs", s.current_tab, tuple([(t.url, t.incognito, title(t.url)) for t in s.tabs])
        if self.focus == "url":
            return "omnibox", tab.incognito, tuple(self.suggestion_rows())
        if self.finding:
            return None
        head = (tab.url, tab.incognito, s.homepage_enabled, len(s.tabs))
        if tab.url == NTP_URL:
            if tab.incognito:
                return head
            return head, tuple(s.most_visited[:TILES]), s.discover_enabled and tuple(s.feed)
        if tab.url == RECENT_TABS_URL:
            return head, tuple([(u, self.app.title(u)) for u in s.recently_closed[-RECENTLY_CLOSED:]])
        site, url = self.app.resolve(tab.url)
        if site is None:
            return head  # the error page
        page = site.inputs(url)
        return None if page is None else (head, id(site), page)

    def _follow(self, tab: Tab) -> None:
        """A new page (navigation, back, tab switch) starts with empty forms, at the top."""
        key = (self.app.state.current_tab, tab.index, len(tab.history), tab.url)
        if key == self.shown:
            return
        self.shown = key
        for name in [f for f in self.fields if f.startswith(WEB) or f == "find"]:
            del self.fields[name]
        if self.focus is not None and self.focus != "url":
            self.focus = None
        self.finding = False
        self.scroll.clear()

    def toolbar(self, tab: Tab, *, editing: bool = False) -> View:
        s = self.app.state
        fg = WHITE if tab.incognito else None
        n = len(s.tabs)
        if editing:
            return Row(self.location_bar(tab, editing=True), h=56, pad=(8, 4, 8, 4),
                       rid=ID + "toolbar", bg=INCOGNITO_BG if tab.incognito else None)
        return Row(
            Icon("home", desc="Open the home page", rid=ID + "home_button", fg=fg,
                 on_click=self.go_home) if s.homepage_enabled else Spacer(w=8),
            self.location_bar(tab),
            View(IMAGE_BUTTON, [Text(str(n) if n < 100 else ":D", size=11, bold=True,
                                     align="center", fg=fg)],
                 icon="tabs", fg=fg, orient="z", w=48, h=48, rid=ID + "tab_switcher_button",
                 desc=f"{n} open tab{'s' if n != 1 else ''}, tap to switch tabs",
                 on_click=self.open_switcher),
            Icon("more", desc="Customize and control Google Chrome", rid=ID + "menu_button",
                 fg=fg, on_click=self.open_menu),
            h=56, pad=(4, 4, 0, 4), rid=ID + "toolbar", bg=INCOGNITO_BG if tab.incognito else None,
        )

    def location_bar(self, tab: Tab, *, editing: bool = False) -> View:
        secure = tab.url.startswith("https://") and self.app.resolve(tab.url)[0] is not None
        if editing or tab.url == NTP_URL:
            status = Icon("search", w=40, h=40, rid=ID + "location_bar_status_icon")
        else:
            status = Icon("lock" if secure else "info", w=40, h=40,
                          desc="Connection is secure" if secure else "Site information",
                          rid=ID + "location_bar_status_icon",
                          on_click=self.page_info)
        clear = Icon("close", desc="Clear input", rid=ID + "delete_button", w=40, h=40,
                     on_click=self.clear_url) if editing and self.fields.get("url") else None
        return Row(
            status,
            EditText("url", hint="Search or type web address", rid=ID + "url_bar", h=44,
                     style="search", size=15, on_submit=self.submit, weight=1),
            clear,
            h=44, radius=22, style="searchbar", rid=ID + "location_bar", pad=(4, 0, 4, 0), weight=1,
        )

    def page(self, tab: Tab) -> View:
        if tab.url == NTP_URL:
            return incognito_page() if tab.incognito else new_tab_page(self)
        if tab.url == RECENT_TABS_URL:
            return recent_tabs(self)
        site, url = self.app.resolve(tab.url)
        if site is None:
            content = error_page(url, self.reload)
        else:
            content = site.page(url, TabBrowser(self))
        web = View(WEBVIEW, content, text=self.app.title(tab.url), focusable=True)
        for v in web.walk():
            if v.field is not None and not v.field.startswith(WEB):
                v.field = WEB + v.field
        return Scroll(web, key="web", cls=FRAME, rid=ID + "compositor_view_holder")

    def suggestion_rows(self) -> list[tuple[str, str, str]]:
        """Omnibox suggestions for the typed text, (line 1, line 2, what to load), at
        most `SUGGESTIONS`: what was typed, then known sites, bookmarks and history that
        match (recent history before anything is typed)."""
        text = self.fields.get("url", "").strip()
        rows: list[tuple[str, str, str]] = []
        if text:
            rows.append((text, "" if looks_like_url(text) else f"{self.app.state.search_engine} Search", text))
        low = text.lower()
        for site in self.app.sites.values():
            if low and (low in site.name.lower() or low in site.host):
                rows.append((site.name, site.host, f"https://{site.host}/"))
        seen = {r[2] for r in rows}
        s = self.app.state
        visited = ((v.title, v.url) for v in reversed(s.history))
        candidates = itertools.chain(((b.title, b.url) for b in s.bookmarks), visited) if low else visited
        missed: set[tuple[str, str]] = set()  # pages seen not to match (history repeats them)
        for title, url in candidates:
            if len(rows) >= SUGGESTIONS:
                break
            if url in seen or (title, url) in missed:
                continue
            if low in title.lower() or low in url.lower():
                seen.add(url)
                rows.append((title, display(url), url))
            else:
                missed.add((title, url))
        return rows[:SUGGESTIONS]

    def suggestions(self) -> View:
        rows = self.suggestion_rows()
        return Scroll(
            *(Row(Icon("search" if r[1].endswith(" Search") else "globe", w=48),
                  Column(Text(r[0], size=16, rid=ID + "line_1"),
                         Text(r[1], size=13, style="muted", rid=ID + "line_2") if r[1] else None,
                         h=51 if r[1] else 27, weight=1),
                  h=64, pad=(8, 0, 16, 0), on_click=lambda t=r[2]: self.submit(t))
              for r in rows),
            key="suggest", rid=ID + "omnibox_results_container",
        )

    def find_bar(self, page: View) -> View:
        query = self.fields.get("find", "").lower()
        self.find_count = sum(v.text.lower().count(query) for v in page.walk()
                              if v.text and v.cls != WEBVIEW) if query else 0
        self.find_index = min(self.find_index, max(0, self.find_count - 1))
        status = f"{self.find_index + 1 if self.find_count else 0}/{self.find_count}"
        return Row(
            EditText("find", hint="Find in page", rid=ID + "find_query", h=48, weight=1,
                     on_submit=lambda _: self.find_step(1)),
            Text(status, size=14, style="muted", rid=ID + "find_status", w=48, align="center"),
            Icon("back", desc="Previous result", rid=ID + "find_prev_button", w=44,
                 on_click=lambda: self.find_step(-1)),
            Icon("forward", desc="Next result", rid=ID + "find_next_button", w=44,
                 on_click=lambda: self.find_step(1)),
            Icon("close", desc="Close find in page", rid=ID + "close_find_button", w=44,
                 on_click=self.close_find),
            h=56, pad=(8, 4, 4, 4), rid=ID + "find_toolbar",
        )

    # ------------------------------------------------------------------ input
    def on_focus(self, field: str) -> None:
        if field == "url":
            url = self.app.tab.url if self.app.tab else NTP_URL
            self.fields["url"] = "" if url == NTP_URL else url
            self.select_all = bool(self.fields["url"])

    def focus_omnibox(self) -> None:
        """The New Tab Page's search box hands the typing to the omnibox."""
        self.focus = "url"
        self.on_focus("url")
        self.sys.keyboard = True

    def clear_url(self) -> None:
        self.fields["url"] = ""
        self.select_all = False

    def submit(self, text: str) -> None:
        if not text.strip():
            return
        self.focus = None
        self.sys.keyboard = False
        self.app.go(text)

    def on_back(self) -> bool:
        tab = self.app.tab
        if self.focus == "url":
            self.focus = None
        elif self.finding:
            self.close_find()
        elif self.switcher or tab is None:
            if tab is None:
                return False
            self.switcher = False
        elif tab.index > 0:
            tab.index -= 1
        else:
            return False  # nothing to go back to: Chrome goes to the background
        return True

    # ------------------------------------------------------------------ actions
    def go_home(self) -> None:
        s = self.app.state
        self.app.load(s.homepage_url or NTP_URL)

    def open_menu(self) -> None:
        self.sys.show(MainMenu(self))

    def open_switcher(self) -> None:
        self.focus = None
        self.switcher = True

    def select_tab(self, index: int) -> None:
        self.app.state.current_tab = index
        self.switcher = False

    def close_tab(self, index: int) -> None:
        self.app.close_tab(index)

    def close_all(self) -> None:
        self.app.close_all_tabs()

    def open_settings(self) -> None:
        self.start(SettingsMain(self.app))

    def new_tab(self, incognito: bool = False) -> None:
        self.app.open_tab(NTP_URL, incognito=incognito)
        self.switcher = False

    def reload(self) -> None:
        s = self.app.state
        s.reloads += 1
        if self.app.tab is not None:
            s.reloaded.append(self.app.tab.url)

    def find_in_page(self) -> None:
        self.finding = True
        self.find_index = 0
        self.fields["find"] = ""
        self.focus = "find"
        self.sys.keyboard = True

    def find_step(self, step: int) -> None:
        """Move the highlighted match (wrapping), as the arrows and ENTER do."""
        self.find_index = (self.find_index + step) % self.find_count if self.find_count else 0

    def close_find(self) -> None:
        self.finding = False
        self.fields.pop("find", None)
        if self.focus == "find":
            self.focus = None
        self.sys.keyboard = False

    def toggle_discover(self) -> None:
        s = self.app.state
        s.discover_enabled = not s.discover_enabled

    def page_info(self) -> None:
        self.sys.show(page_info(self))

