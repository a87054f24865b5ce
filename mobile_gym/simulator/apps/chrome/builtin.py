"""Web pages Chrome can load besides the shopping sites: the search engines' home and
results pages, the Discover feed's articles, Chrome Help, and the network error page.
They follow the same `Site` contract as the sites in ``sites/``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, NamedTuple

from mobile_gym.simulator.apps.chrome.state import ENGINES, Engine
from mobile_gym.simulator.apps.chrome.ui import BLUE
from mobile_gym.simulator.apps.chrome.urls import search_url
from mobile_gym.simulator.apps.chrome.web import Browser, Site, Url, parse
from mobile_gym.simulator.views import Button, Column, EditText, Icon, Spacer, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.chrome import Chrome

GREEN = (24, 128, 56)


class Article(NamedTuple):
    host: str
    path: str
    publisher: str
    title: str
    summary: str
    age: str

    @property
    def url(self) -> str:
        return f"https://{self.host}{self.path}"


ARTICLES = (
    Article("www.theverge.com", "/2024/pixel-camera-tips", "The Verge",
            "Ten camera tricks every Pixel owner should know",
            "Night Sight, Magic Eraser and a few settings most people never touch.", "2h"),
    Article("www.bbc.com", "/news/science-sea-turtles", "BBC News",
            "Sea turtles return to nest on restored beaches",
            "Conservation teams counted record numbers of nests this season.", "5h"),
    Article("www.cnn.com", "/travel/national-parks-autumn", "CNN",
            "The best national parks to visit this autumn",
            "Fewer crowds, cooler trails and spectacular colours.", "1d"),
    Article("www.allrecipes.com", "/recipe/chicken-stir-fry", "Allrecipes",
            "A 20-minute chicken stir-fry for busy weeknights",
            "One pan, a handful of vegetables and a three-ingredient sauce.", "3h"),
    Article("www.espn.com", "/soccer/story/transfer-roundup", "ESPN",
            "Transfer window roundup: the deals that mattered",
            "Who strengthened, who stood still and who overpaid.", "7h"),
    Article("www.wired.com", "/story/best-budget-headphones", "WIRED",
            "The best budget headphones you can buy right now",
            "Good sound no longer costs a fortune; these are our picks.", "9h"),
    Article("www.nationalgeographic.com", "/animals/octopus-sleep", "National Geographic",
            "Do octopuses dream? Scientists take a closer look",
            "Skin patterns during sleep hint at something like dreaming.", "1d"),
    Article("www.cnet.com", "/tech/tv-buying-guide", "CNET",
            "TV buying guide: what to look for before Black Friday",
            "Panel types, refresh rates and the specs that do not matter.", "4h"),
    Article("www.healthline.com", "/nutrition/morning-habits", "Healthline",
            "Seven small morning habits backed by research",
            "Light, water and a short walk go a long way.", "6h"),
    Article("www.nytimes.com", "/technology/phone-assistants", "The New York Times",
            "How AI assistants are changing the way we use phones",
            "From summaries to screen automation, a look at what works.", "12h"),
)
FEED_SIZE = 6  # cards shown on the New Tab Page


def _words(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def mentions(query: str, site: Site) -> bool:
    """The query names the site (its key, name, alias or host's main label)."""
    q = _words(query)
    host_label = site.host.split(".")[-2] if "." in site.host else site.host
    names = (site.key, site.name, host_label, *site.aliases)
    return any(len(_words(n)) >= 3 and _words(n) in q for n in names)


def root_url(site: Site) -> str:
    return f"https://{site.host}/"


def result(site_name: str, title: str, url: str, snippet: str, go: Callable[[], None]) -> View:
    """One organic search result: a link with the site, URL and snippet."""
    return Column(
        Text(site_name, size=13),
        Text(url, size=12, style="muted"),
        Text(title, size=18, fg=BLUE, lines=2),
        Text(snippet, size=14, lines=2, style="muted"),
        pad=(16, 12, 16, 12), gap=2, on_click=go, cls="android.view.View",
    )


class SearchEngine(Site):
    """A search engine's home page and results (built in; the results list the known
    sites, those the query names first, then matching Discover articles)."""

    def __init__(self, engine: Engine, chrome: Chrome) -> None:
        super().__init__()
        self.engine = engine
        self.chrome = chrome
        self.key = engine.name.lower()
        self.host = engine.host
        self.aliases = (engine.host.removeprefix("www."),)
        self.name = engine.name

    def query(self, url: Url) -> str | None:
        if url.path == self.engine.path and self.engine.param in url.query:
            return url.query[self.engine.param]
        return None

    def title(self, url: Url) -> str:
        q = self.query(url)
        return f"{q} - {self.name} Search" if q else self.name

    def page(self, url: Url, browser: Browser) -> list[View]:
        q = self.query(url)
        box = EditText("q", hint=q or f"Search {self.name}", style="search", radius=24, h=48,
                       on_submit=lambda text: self.search(text, browser))
        if q is None:
            return [Spacer(h=96), Text(self.name, size=44, bold=True, align="center", h=72),
                    Column(box, pad=(24, 16, 24, 8)),
                    Button(f"{self.name} Search", lambda: self.search(browser.field("q"), browser),
                           style="tonal", w=160, align="center")]
        hits = self.results(q)
        return [
            Text(self.name, size=26, bold=True, align="center", h=52),
            Column(box, pad=(16, 0, 16, 8)),
            Text(f"About {len(hits)} results" if hits else
                 f"Your search - {q} - did not match any documents.",
                 size=13, style="muted", h=32, lines=2),
            *(result(name, title, link, snippet, lambda u=link: browser.navigate(u))
              for name, title, link, snippet in hits),
        ]

    def inputs(self, url: Url) -> tuple:
        """Results list the sites with the titles of their home pages."""
        if self.query(url) is None:
            return ()
        return tuple([s.title(parse(root_url(s))) for s in self.chrome.sites.values()])

    def search(self, text: str, browser: Browser) -> None:
        if text.strip():
            browser.navigate(search_url(self.engine, text))

    def results(self, query: str) -> list[tuple[str, str, str, str]]:
        """(site name, title, url, snippet) for the query, best first."""
        sites = list(self.chrome.sites.values())
        named = [s for s in sites if mentions(query, s)]
        out = [(s.name, s.title(Url(root_url(s))), root_url(s),
                s.description or f"Shop online at {s.name}.")
               for s in named + [s for s in sites if s not in named]]
        words = {w for w in re.findall(r"[a-z]{4,}", query.lower())}
        out += [(a.publisher, a.title, a.url, a.summary) for a in ARTICLES
                if words & set(re.findall(r"[a-z]{4,}", a.title.lower()))]
        return out


class ArticleSite(Site):
    """A news publisher serving the Discover feed's articles."""

    def __init__(self, host: str, publisher: str) -> None:
        super().__init__()
        self.host = host
        self.key = host
        self.name = publisher

    def article(self, url: Url) -> Article | None:
        return next((a for a in ARTICLES if a.host == self.host and a.path == url.path), None)

    def title(self, url: Url) -> str:
        a = self.article(url)
        return f"{a.title} - {a.publisher}" if a else self.name

    def inputs(self, url: Url) -> tuple:
        return ()  # fixed text

    def page(self, url: Url, browser: Browser) -> list[View]:
        a = self.article(url)
        if a is None:
            return [Text(self.name, size=28, bold=True, h=64),
                    Text("Top stories", size=18, h=32),
                    *(Text(x.title, size=16, fg=BLUE, lines=2,
                           on_click=lambda u=x.url: browser.navigate(u))
                      for x in ARTICLES if x.host == self.host)]
        body = (f"{a.summary} Readers have been asking about this for a while, so we took "
                "a closer look at what the evidence says and what it means for you.")
        return [Column(
            Text(a.publisher, size=14, bold=True),
            Text(a.title, size=24, bold=True, lines=3),
            Text(f"Updated {a.age} ago", size=13, style="muted"),
            Text(body, size=16, lines=6),
            Text("Share this story", size=14, fg=BLUE),
            pad=(16, 16, 16, 16), gap=12)]


class HelpSite(Site):
    """Chrome Help (Help & feedback in the menu)."""

    key = "help"
    host = "support.google.com"
    name = "Google Chrome Help"
    TOPICS = ("Get started with Chrome", "Manage tabs, bookmarks and history",
              "Sync and personalize Chrome across devices", "Privacy and security",
              "Fix problems with Chrome")

    def title(self, url: Url) -> str:
        return self.name

    def inputs(self, url: Url) -> tuple:
        return ()  # fixed text

    def page(self, url: Url, browser: Browser) -> list[View]:
        return [Column(
            Text(self.name, size=24, bold=True, h=48),
            EditText("q", hint="Describe your issue", style="search", radius=24, h=48,
                     on_submit=lambda text: browser.toast("No results found")),
            *(Text(t, size=16, fg=BLUE, h=40) for t in self.TOPICS),
            pad=(16, 16, 16, 16), gap=8)]


def builtin_sites(chrome: Chrome) -> list[Site]:
    publishers = {a.host: a.publisher for a in ARTICLES}
    return [*(SearchEngine(e, chrome) for e in ENGINES.values()),
            *(ArticleSite(h, p) for h, p in publishers.items()),
            HelpSite()]


def error_page(url: Url, reload: Callable[[], None]) -> list[View]:
    """"This site can't be reached" for hosts no site answers."""
    return [Column(
        Spacer(h=48),
        Icon("info", desc="", h=56, w=56),
        Text("This site can't be reached", size=22, bold=True, lines=2),
        Text(f"Check if there is a typo in {url.host}.", size=15, lines=2),
        Text("If spelling is correct, try running Connectivity Diagnostics.", size=15, lines=2),
        Text("DNS_PROBE_FINISHED_NXDOMAIN", size=12, style="muted"),
        Button("Reload", reload, w=120),
        pad=(24, 16, 24, 16), gap=12)]
