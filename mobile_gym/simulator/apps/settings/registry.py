"""The pages of Settings, by key, and the search index built from them.

Each sub-page registers itself with `page`: a key (what ``state.visited`` records and
search results open), its title, the page it sits under (for search breadcrumbs such as
"Network & internet > Internet") and the titles of the preferences on it that search
should find. A page's ``build`` turns the open `SubSettings` activity into its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.views import View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.settings.activities import SubSettings
    from mobile_gym.simulator.apps.settings.state import SettingsState

Build = Callable[["SubSettings"], "list[View | None]"]


@dataclass(frozen=True)
class Page:
    key: str
    title: str
    parent: str  # key of the page it is under; "main" for the home list
    build: Build
    keywords: tuple[str, ...] = ()  # preference titles on the page, for search
    requires: str = ""  # a state field that must be on for search to offer the page
    searchable: bool = True  # False for pages about one app or network


PAGES: dict[str, Page] = {}


def page(key: str, title: str, parent: str = "main", *, keywords: tuple[str, ...] = (),
         requires: str = "", searchable: bool = True) -> Callable[[Build], Build]:
    """Register the decorated function as the builder of page ``key``."""
    def register(build: Build) -> Build:
        PAGES[key] = Page(key, title, parent, build, keywords, requires, searchable)
        return build
    return register


def trail(key: str) -> list[str]:
    """Titles from the home list down to page ``key``, inclusive."""
    titles = []
    while key in PAGES:
        titles.append(PAGES[key].title)
        key = PAGES[key].parent
    return titles[::-1]


@lru_cache(maxsize=2048)  # titles and their word suffixes: the search page asks every frame
def _norm(text: str) -> str:
    """Case, hyphens (Wi‑Fi's U+2011 too) and spaces do not matter to search."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _rank(query: str, title: str) -> int | None:
    """0 if the title starts with the query, 1 if a later word does, None if no word
    does ("wi" finds "Wi‑Fi" and "Wireless", not "Switch")."""
    if _norm(title).startswith(query):
        return 0
    starts = (i for i in range(1, len(title)) if title[i - 1] in " (/&" and title[i].isalnum())
    return 1 if any(_norm(title[i:]).startswith(query) for i in starts) else None


def search(query: str, state: SettingsState, limit: int = 12) -> list[tuple[str, str, str]]:
    """(title, breadcrumb, page key) of pages and preferences matching ``query``:
    title prefixes first, then word prefixes, each in registry order."""
    q = _norm(query)
    if not q:
        return []
    hits: list[tuple[int, str, str, str]] = []
    seen = set()
    for p in PAGES.values():
        if not p.searchable or (p.requires and not getattr(state, p.requires)):
            continue
        path = trail(p.key)
        for title, crumbs in ((p.title, path[:-1]), *((k, path) for k in p.keywords)):
            crumb = " > ".join(crumbs) or "Settings"
            rank = _rank(q, title)
            if rank is not None and (title, crumb) not in seen:
                seen.add((title, crumb))
                hits.append((rank, title, crumb, p.key))
    hits.sort(key=lambda h: h[0])
    return [(t, crumb, key) for _, t, crumb, key in hits[:limit]]
