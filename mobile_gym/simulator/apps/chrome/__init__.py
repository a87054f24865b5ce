"""Chrome (com.android.chrome): tabs, omnibox, New Tab Page, menu, tab switcher,
history, bookmarks and settings around a WebView that shows the web sites in ``sites/``
(and a few built-in pages: search engines, Discover articles, Chrome Help).

Chrome owns one object per site for the whole run, so carts and sign-ins survive tabs
and navigation; oracles read them through ``app_state("chrome").site("bestbuy")``.
"""

from __future__ import annotations

import types
from typing import Any, ClassVar, Mapping
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog, ReadOnly
from mobile_gym.simulator.apps.chrome.browser import Main
from mobile_gym.simulator.apps.chrome.builtin import ARTICLES, builtin_sites
from mobile_gym.simulator.apps.chrome.sites import SITES
from mobile_gym.simulator.apps.chrome.state import (
    ENGINES, NTP_URL, RECENT_TABS_URL, Bookmark, ChromeState, Credential, Tab, Visit,
)
from mobile_gym.simulator.apps.chrome.urls import (
    is_internal, looks_like_url, search_url, with_scheme,
)
from mobile_gym.simulator.apps.chrome.web import Site, Url, parse

MOST_VISITED = 8
# State fields that hold dataclasses, revived from mappings in setup.
_ITEMS = {"tabs": Tab, "history": Visit, "bookmarks": Bookmark, "downloads": Visit,
          "passwords": Credential}


class Chrome(App):
    package = "com.android.chrome"
    label = "Chrome"
    key = "chrome"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "globe"
    color = (66, 133, 244)
    State = ChromeState
    site_classes: ClassVar[tuple[type[Site], ...]] = SITES

    def __init__(self, sys) -> None:
        super().__init__(sys)
        self.sites: dict[str, Site] = {cls.key: cls() for cls in self.site_classes}
        self.routes: dict[str, Site] = {}
        for site in [*self.sites.values(), *builtin_sites(self)]:
            for host in (site.host, *site.aliases):
                host = host.lower()
                for h in (host, host.removeprefix("www.") if host.startswith("www.") else "www." + host):
                    self.routes.setdefault(h, site)
        s = self.state
        google = f"https://{ENGINES['Google'].host}/"
        roots = [f"https://{site.host}/" for site in self.sites.values()]
        s.most_visited = [*roots, google][:MOST_VISITED]
        s.feed = [a.url for a in ARTICLES]
        s.bookmarks = [Bookmark("Google", google),
                       *(Bookmark(site.name, url) for site, url in zip(self.sites.values(), roots[:3]))]

    # ------------------------------------------------------------------ pages
    @property
    def tab(self) -> Tab | None:
        s = self.state
        return s.tabs[s.current_tab] if s.tabs else None

    def resolve(self, url: str) -> tuple[Site | None, Url]:
        """The site that serves ``url`` (None: no such host) and the parsed URL."""
        u = parse(url)
        return self.routes.get(u.host.lower()), u

    def canonical(self, text: str) -> str:
        """A URL as Chrome keeps it: with a scheme and a path, known sites on their
        canonical host over https (as their redirects would do)."""
        url = with_scheme(text)
        if is_internal(url):
            return url
        parts = urlsplit(url)
        site = self.routes.get((parts.hostname or "").lower())
        netloc = site.host if site is not None else parts.netloc.lower()
        scheme = "https" if site is not None else parts.scheme
        return urlunsplit((scheme, netloc, parts.path or "/", parts.query, parts.fragment))

    def title(self, url: str) -> str:
        if url == NTP_URL:
            return "New tab"
        if url == RECENT_TABS_URL:
            return "Recent tabs"
        site, u = self.resolve(url)
        return site.title(u) if site is not None else u.host

    def go(self, text: str) -> None:
        """What ENTER in the omnibox does: load an address or search for the text."""
        if looks_like_url(text):
            self.load(text)
        else:
            self.load(search_url(ENGINES[self.state.search_engine], text))

    def load(self, url: str) -> None:
        """Navigate the current tab (a new one if none is open); loading the page it
        already shows is a reload, as in Chrome, and adds no history."""
        tab = self.tab
        if tab is None:
            self.open_tab(url)
            return
        url = self.canonical(url)
        if url == tab.url:
            return
        del tab.history[tab.index + 1:]
        tab.history.append(url)
        tab.index += 1
        self.record(url, tab)

    def open_tab(self, url: str = NTP_URL, *, incognito: bool = False) -> None:
        tab = Tab([self.canonical(url)], 0, incognito)
        self.state.tabs.append(tab)
        self.state.current_tab = len(self.state.tabs) - 1
        self.record(tab.url, tab)

    def close_tab(self, index: int) -> None:
        s = self.state
        tab = s.tabs.pop(index)
        if not tab.incognito and not is_internal(tab.url):
            s.recently_closed.append(tab.url)
        if s.current_tab > index or s.current_tab >= len(s.tabs):
            s.current_tab = max(0, s.current_tab - 1)

    def close_all_tabs(self) -> None:
        while self.state.tabs:
            self.close_tab(len(self.state.tabs) - 1)

    def record(self, url: str, tab: Tab) -> None:
        if not tab.incognito and not is_internal(url):
            self.state.history.append(Visit(url, self.title(url), self.sys.time))

    def bookmark_index(self, url: str) -> int | None:
        return next((i for i, b in enumerate(self.state.bookmarks) if b.url == url), None)

    def add_bookmark(self, url: str) -> None:
        self.state.bookmarks.append(Bookmark(self.title(url), url))

    # ------------------------------------------------------------------ app hooks
    def main(self) -> Activity:
        if not self.state.tabs:
            self.open_tab()
        return Main(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Seeded Most visited order and Discover feed; each site varies itself."""
        s = self.state
        s.most_visited = [s.most_visited[i] for i in rng.permutation(len(s.most_visited))]
        s.feed = [s.feed[i] for i in rng.permutation(len(s.feed))]
        for site in self.sites.values():
            site.vary(rng, self.sys.dynamics.popup_rate)

    def popups(self, activity: Activity) -> list[Dialog]:
        if not isinstance(activity, Main):
            return []
        return [
            Dialog("Turn on sync?", "Get your bookmarks, passwords, history and more on all "
                   "your devices.", (("No thanks", None), ("Yes, I'm in", self.turn_on_sync)),
                   kind="sheet"),
            Dialog("Make Chrome your own", "Choose a theme and customize your New Tab page in "
                   "Settings.", (("Got it", None),), kind="sheet"),
        ]

    def turn_on_sync(self) -> None:
        self.state.sync_enabled = True

    # ------------------------------------------------------------------ setup and oracles
    def configure(self, values: Mapping[str, Any]) -> None:
        """State fields, plus ``url`` (open it in the first tab) and ``sites``
        ({site key: {field: value}})."""
        values = dict(values)
        url = values.pop("url", None)
        sites = values.pop("sites", None)
        for name, cls in _ITEMS.items():
            if name in values:
                values[name] = _items(name, values[name], cls)
        super().configure(values)
        self.state.validate()
        if sites is not None:
            self._configure_sites(sites)
        if url is not None:
            if not isinstance(url, str) or not url.strip():
                raise SimulatorError(f"chrome setup 'url' must be a non-empty string, got {url!r}")
            tab = Tab([self.canonical(url)])
            self.state.tabs[:1] = [tab]
            self.state.current_tab = 0
            self.record(tab.url, tab)

    def _configure_sites(self, sites: Any) -> None:
        if not isinstance(sites, Mapping):
            raise SimulatorError("chrome setup 'sites' must map site keys to {field: value}")
        for key, values in sites.items():
            site = self.sites.get(key)
            if site is None:
                raise SimulatorError(f"chrome has no site {key!r}; known: {', '.join(sorted(self.sites))}")
            if not isinstance(values, Mapping):
                raise SimulatorError(f"setup for site {key!r} must be a mapping of state fields")
            site.configure(values)

    def view(self) -> ChromeView:
        return ChromeView(self.state, self.sites)


def _items(name: str, value: Any, cls: type) -> list:
    """Setup list items given as mappings become ``cls`` instances."""
    if not isinstance(value, (list, tuple)):
        raise SimulatorError(f"chrome field {name!r} expects a list, got {value!r}")
    out = []
    for item in value:
        if isinstance(item, Mapping):
            try:
                item = cls(**item)
            except TypeError as exc:
                raise SimulatorError(f"chrome field {name!r}: bad entry {item!r} ({exc})") from None
        if not isinstance(item, cls):
            raise SimulatorError(f"chrome field {name!r} expects {cls.__name__} entries, got {item!r}")
        out.append(item)
    return out


class ChromeView(ReadOnly):
    """Chrome's read-only state for oracles, plus the sites' states (``sites["bestbuy"]``
    or ``site("bestbuy")``) and the current tab's ``url``."""

    __slots__ = ("_sites",)

    def __init__(self, state: ChromeState, sites: dict[str, Site]) -> None:
        super().__init__(state)
        object.__setattr__(self, "_sites", sites)

    @property
    def sites(self) -> Mapping[str, Any]:
        return types.MappingProxyType({k: ReadOnly(s.state) for k, s in self._sites.items()})

    def site(self, key: str) -> Any:
        if key not in self._sites:
            raise SimulatorError(f"chrome has no site {key!r}; known: {', '.join(sorted(self._sites))}")
        return ReadOnly(self._sites[key].state)

    @property
    def url(self) -> str:
        """The URL of the current tab ("" with no tab open)."""
        state = self._target
        return state.tabs[state.current_tab].url if state.tabs else ""
