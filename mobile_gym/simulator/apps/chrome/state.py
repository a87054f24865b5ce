"""Chrome's persistent state: tabs, history, bookmarks and settings (what oracles read),
and the fixed choices its settings offer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from mobile_gym.errors import SimulatorError

NTP_URL = "chrome://newtab/"  # the New Tab Page
RECENT_TABS_URL = "chrome-native://recent-tabs/"


class Engine(NamedTuple):
    """A search engine: where its results live and the query parameter."""

    name: str
    host: str
    path: str
    param: str


ENGINES = {e.name: e for e in (
    Engine("Google", "www.google.com", "/search", "q"),
    Engine("Bing", "www.bing.com", "/search", "q"),
    Engine("Yahoo!", "search.yahoo.com", "/search", "p"),
    Engine("DuckDuckGo", "duckduckgo.com", "/", "q"),
    Engine("Ecosia", "www.ecosia.org", "/search", "q"),
)}
FOLDERS = ("Mobile bookmarks", "Bookmarks bar", "Other bookmarks")
CLEAR_RANGES = {"Last hour": 3600, "Last 24 hours": 86400, "Last 7 days": 7 * 86400,
                "Last 4 weeks": 28 * 86400, "All time": None}  # seconds back; None: all
CLEAR_TYPES = ("Browsing history", "Cookies and site data", "Cached images and files")
SYNC_TYPES = ("Autofill", "Bookmarks", "History and tabs", "Passwords", "Payment methods",
              "Reading list", "Settings")
THEMES = ("System default", "Light", "Dark")
# Site settings categories other than JavaScript: (name, allowed summary, blocked summary).
PERMISSIONS = (
    ("Cookies", "Allowed", "Blocked"),
    ("Location", "Ask first", "Blocked"),
    ("Camera", "Ask first", "Blocked"),
    ("Microphone", "Ask first", "Blocked"),
    ("Notifications", "Ask first", "Blocked"),
    ("Pop-ups and redirects", "Allowed", "Blocked"),
    ("Sound", "Allowed", "Muted"),
    ("Automatic downloads", "Ask first", "Blocked"),
)
GOOGLE_SERVICES = ("Autocomplete searches and URLs", "Help improve Chrome's features and performance",
                   "Make searches and browsing better")


@dataclass
class Tab:
    """One tab: its back/forward list of URLs and the position in it."""

    history: list[str] = field(default_factory=lambda: [NTP_URL])
    index: int = 0
    incognito: bool = False

    @property
    def url(self) -> str:
        return self.history[self.index]


@dataclass
class Visit:
    """A history (or downloads) entry; ``time`` is the virtual clock (s since midnight)."""

    url: str
    title: str
    time: int = 0


@dataclass
class Bookmark:
    title: str
    url: str
    folder: str = "Mobile bookmarks"


@dataclass
class Credential:
    """A saved password (Settings > Passwords)."""

    site: str
    username: str


@dataclass
class ChromeState:
    tabs: list[Tab] = field(default_factory=lambda: [Tab()])
    current_tab: int = 0
    history: list[Visit] = field(default_factory=list)  # oldest first
    bookmarks: list[Bookmark] = field(default_factory=list)  # filled from the sites at start
    recently_closed: list[str] = field(default_factory=list)  # URLs, newest last
    downloads: list[Visit] = field(default_factory=list)
    most_visited: list[str] = field(default_factory=list)  # New Tab Page tiles (URLs)
    feed: list[str] = field(default_factory=list)  # Discover article URLs, in order
    discover_enabled: bool = True
    reloads: int = 0  # times Refresh was used
    reloaded: list[str] = field(default_factory=list)  # URLs refreshed, oldest first
    cleared_history: int = 0  # times "Clear data" removed browsing history
    last_cleared: list[str] = field(default_factory=list)  # data types of the last "Clear data"
    clear_range: str = "Last hour"
    clear_types: list[str] = field(default_factory=lambda: list(CLEAR_TYPES))
    desktop_site: bool = False
    search_engine: str = "Google"
    sync_enabled: bool = False
    sync_everything: bool = True
    sync_types: list[str] = field(default_factory=lambda: list(SYNC_TYPES))
    google_services: dict[str, bool] = field(
        default_factory=lambda: {name: True for name in GOOGLE_SERVICES})
    javascript_enabled: bool = True
    site_permissions: dict[str, bool] = field(
        default_factory=lambda: {name: name != "Pop-ups and redirects" for name, _, _ in PERMISSIONS})
    translate_enabled: bool = True
    homepage_enabled: bool = True
    homepage_url: str = ""  # "" is Chrome's homepage (the New Tab Page)
    theme: str = "System default"
    notifications_enabled: bool = True
    save_passwords: bool = True
    auto_sign_in: bool = True
    passwords: list[Credential] = field(default_factory=list)
    save_payment_methods: bool = True
    cards: list[str] = field(default_factory=list)  # e.g. "Visa ••••1234"
    save_addresses: bool = True
    secure_connections: bool = False  # "Always use secure connections"
    do_not_track: bool = False
    text_scale: int = 100  # percent
    force_zoom: bool = False

    def validate(self) -> None:
        """Raise `SimulatorError` for values no Chrome could be in."""
        _choice("search_engine", self.search_engine, ENGINES)
        _choice("theme", self.theme, THEMES)
        _choice("clear_range", self.clear_range, CLEAR_RANGES)
        _subset("clear_types", self.clear_types, CLEAR_TYPES)
        _subset("sync_types", self.sync_types, SYNC_TYPES)
        for name, options in (("site_permissions", [p[0] for p in PERMISSIONS]),
                              ("google_services", GOOGLE_SERVICES)):
            switches = getattr(self, name)
            _subset(name, switches, options)
            if not all(isinstance(v, bool) for v in switches.values()):
                raise SimulatorError(f"chrome {name} values must be booleans, got {switches!r}")
        for b in self.bookmarks:
            _choice("bookmark folder", b.folder, FOLDERS)
        for t in self.tabs:
            if (not isinstance(t.history, list) or not all(isinstance(u, str) for u in t.history)
                    or not t.history or not 0 <= t.index < len(t.history)):
                raise SimulatorError(f"chrome tab {t!r} needs a history and an index into it")
        if self.tabs and not 0 <= self.current_tab < len(self.tabs):
            raise SimulatorError(f"chrome current_tab {self.current_tab} is not one of the "
                                 f"{len(self.tabs)} tabs")
        if not 50 <= self.text_scale <= 200:
            raise SimulatorError(f"chrome text_scale must be 50..200, got {self.text_scale}")


def _choice(name: str, value, options) -> None:
    if value not in options:
        raise SimulatorError(f"chrome {name} {value!r} is not one of: {', '.join(options)}")


def _subset(name: str, values, options) -> None:
    unknown = [v for v in values if v not in options]
    if unknown:
        raise SimulatorError(f"chrome {name} has unknown entries {unknown}; known: {', '.join(options)}")
