"""The three kinds of screen: the home list (``.Settings``), every sub-page
(``.SubSettings``, one activity class showing any registered page) and search."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.apps.settings.registry import PAGES, search
from mobile_gym.simulator.apps.settings.state import WIFI, SettingsState
from mobile_gym.simulator.apps.settings.widgets import (
    ID, category, collapsing_toolbar, empty, main_switch, pref, scaffold, switch_pref,
)
from mobile_gym.simulator.views import (
    Column, EditText, Icon, Row, Scroll, Text, View, RECYCLER,
)

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.settings import Settings

NESTED_SCROLL = "androidx.core.widget.NestedScrollView"


def _storage_summary(s: SettingsState) -> str:
    used = sum(s.storage_gb.values())
    return f"{used / s.storage_total_gb:.0%} used - {s.storage_total_gb - used:.2f} GB free"


# The home list: page key, icon, icon colour, summary (as on a Pixel with Android 13).
HOME: tuple[tuple[str, str, tuple[int, int, int], Callable[[SettingsState], str]], ...] = (
    ("network", "wifi", (26, 115, 232), lambda s: f"Mobile, {WIFI}, hotspot"),
    ("connected_devices", "bluetooth", (0, 137, 123), lambda s: "Bluetooth, pairing"),
    ("apps", "apps", (234, 134, 0), lambda s: "Assistant, recent apps, default apps"),
    ("notifications", "notifications", (229, 57, 53), lambda s: "Notification history, conversations"),
    ("battery", "battery", (67, 160, 71), lambda s: f"{s.battery_level}%"),
    ("storage", "menu", (142, 36, 170), _storage_summary),
    ("sound", "sound", (0, 131, 143), lambda s: "Volume, haptics, Do Not Disturb"),
    ("display", "display", (251, 140, 0), lambda s: "Dark theme, font size, brightness"),
    ("wallpaper", "star", (216, 27, 96), lambda s: "Colors, themed icons, app grid"),
    ("accessibility", "person", (57, 73, 171), lambda s: "Display, interaction, audio"),
    ("security_privacy", "lock", (30, 136, 229), lambda s: "App security, device lock, permissions"),
    ("location", "location", (0, 150, 136),
     lambda s: "On - 4 apps have access to location" if s.location_enabled else "Off"),
    ("safety", "star", (211, 47, 47), lambda s: "Emergency SOS, medical info, alerts"),
    ("accounts", "person", (0, 121, 107), lambda s: "Saved passwords, autofill, synced accounts"),
    ("google", "globe", (66, 133, 244), lambda s: "Services & preferences"),
    ("system", "info", (117, 117, 117), lambda s: "Languages, gestures, time, backup"),
    ("about", "info", (84, 110, 122), lambda s: s.device_name),
)


class Main(Activity):
    """The home list: big title, "Search settings" bar, the top-level entries."""

    name = ".Settings"

    def inputs(self) -> tuple:
        s = self.app.state
        return tuple(summary(s) for _, _, _, summary in HOME)

    def build(self) -> View:
        app: Settings = self.app  # type: ignore[assignment]
        s = app.state
        rows = [pref(PAGES[key].title, summary(s), icon=icon, disc=colour,
                     on_click=lambda key=key: app.open(key))
                for key, icon, colour, summary in HOME]
        return Column(Scroll(
            Column(Text("Settings", size=36, rid=ID + "homepage_title", h=56), pad=(24, 40, 24, 20)),
            Column(Row(
                Icon("search", h=48, w=48),
                Text("Search settings", size=16, style="muted", rid=ID + "search_action_bar_title"),
                Icon("person", rid=ID + "account_avatar", desc="Account", h=36, w=36, style="appicon",
                     bg=(26, 115, 232)),
                rid=ID + "search_action_bar", h=56, pad=(8, 0, 12, 0), gap=4, style="searchbar",
                radius=28, on_click=self.open_search,
            ), pad=(16, 0, 16, 12)),
            Column(*rows, cls=RECYCLER, rid=ID + "recycler_view"),
            key="list", cls=NESTED_SCROLL, rid=ID + "main_content_scrollable_container",
        ))

    def open_search(self) -> None:
        self.app.state.visited.append("search")  # type: ignore[union-attr]
        self.start(SearchActivity(self.app))
        self.sys.keyboard = True  # the search field opens focused, keyboard up


class SubSettings(Activity):
    """Any sub-page: ``key`` picks the registered page, ``arg`` says which app or network
    a per-item page is about, ``title`` overrides the page's title."""

    name = ".SubSettings"

    def __init__(self, app: Settings, key: str, arg: str = "", title: str = "") -> None:
        super().__init__(app)
        if key not in PAGES:
            raise KeyError(f"no settings page {key!r}")
        self.key, self.arg = key, arg
        self.title = title or PAGES[key].title
        self.taps = 0  # About phone counts "Build number" taps here

    @property
    def state(self) -> SettingsState:
        return self.app.state  # type: ignore[return-value]

    def inputs(self) -> tuple:
        """Pages show the state, the installed apps and which of them run (App info);
        handlers close over this activity and the state, never replaced."""
        sys = self.sys
        return (self.key, self.arg, self.title, self.taps, self.state.shown(), sys.packages(),
                frozenset(p for p, app in sys.apps.items() if app.stack))

    def build(self) -> View:
        rows = PAGES[self.key].build(self)
        return scaffold(collapsing_toolbar(app_bar(self, self.title), self.title), rows)

    # shorthands the page builders use --------------------------------------------
    def open(self, key: str, arg: str = "", title: str = "") -> None:
        self.app.open(key, arg, title)  # type: ignore[attr-defined]

    def flip(self, name: str) -> Callable[[], None]:
        return lambda: self.state.set(name, not getattr(self.state, name))

    def switch(self, title: str, name: str, summary: str = "", *, icon: str | None = None,
               enabled: bool = True) -> View:
        """A toggle row bound to the state field ``name``."""
        return switch_pref(title, getattr(self.state, name), self.flip(name), summary,
                           icon=icon, enabled=enabled)

    def main_switch(self, title: str, name: str, *, enabled: bool = True) -> View:
        return main_switch(title, getattr(self.state, name), self.flip(name), enabled=enabled)

    def link(self, title: str, key: str, summary: str = "", *, icon: str | None = None,
             arg: str = "", page_title: str = "") -> View:
        """A row that opens page ``key``."""
        return pref(title, summary, icon=icon, on_click=lambda: self.open(key, arg, page_title))


class SearchActivity(Activity):
    """Settings search: results filter as you type; empty, it lists recent searches."""

    name = "com.google.android.settings.intelligence.modules.search.activity.SearchActivity"

    def __init__(self, app: Settings) -> None:
        super().__init__(app)
        self.focus = "query"

    def inputs(self) -> bytes:
        return self.app.state.shown()  # type: ignore[union-attr]  (results and recent searches)

    def build(self) -> View:
        s: SettingsState = self.app.state  # type: ignore[assignment]
        query = self.fields.get("query", "")
        bar = Row(
            Icon("back", desc="Navigate up", on_click=self.finish),
            EditText("query", hint="Search settings", rid=ID + "search_src_text", style="search",
                     on_submit=self.remember, h=48),
            Icon("close", desc="Clear query", rid=ID + "search_close_btn", on_click=self.clear)
            if query else None,
            rid=ID + "search_bar", h=64, pad=(4, 8, 8, 8), gap=4,
        )
        if query:
            hits = search(query, s)
            rows: list[View | None] = [
                pref(title, crumb, icon="settings", on_click=lambda t=title, k=key: self.pick(t, k))
                for title, crumb, key in hits] or [empty("No results")]
        else:
            rows = [category("Recent searches"),
                    *(pref(q, icon="history", on_click=lambda q=q: self.fill(q))
                      for q in s.recent_searches)] if s.recent_searches else []
        return Column(bar, Scroll(*rows, key="results", rid=ID + "list_results"))

    def remember(self, query: str) -> None:
        """ENTER (or opening a result) keeps the query among the recent searches."""
        query = query.strip()
        if query:
            s: SettingsState = self.app.state  # type: ignore[assignment]
            s.recent_searches = [query] + [q for q in s.recent_searches if q != query][:4]

    def pick(self, title: str, key: str) -> None:
        self.remember(self.fields.get("query", ""))
        self.app.open(key)  # type: ignore[attr-defined]

    def fill(self, query: str) -> None:
        self.fields["query"] = query

    def clear(self) -> None:
        self.fields["query"] = ""
        self.focus = "query"
        self.sys.keyboard = True

