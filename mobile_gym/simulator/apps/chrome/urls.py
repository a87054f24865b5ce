"""What the omnibox makes of typed text, and how a URL is shown in it."""

from __future__ import annotations

from urllib.parse import quote_plus

from mobile_gym.simulator.apps.chrome.state import NTP_URL, Engine

_INTERNAL = ("chrome:", "chrome-native:", "about:")


def is_internal(url: str) -> bool:
    """Chrome's own pages (New Tab Page, Recent tabs): never in history."""
    return url.startswith(_INTERNAL)


def looks_like_url(text: str) -> bool:
    """True for what Chrome would load rather than search: "bestbuy.com",
    "www.newegg.com/p/1", "https://...", "localhost", IP addresses."""
    t = text.strip()
    if not t or " " in t:
        return False
    if "://" in t or t.startswith(_INTERNAL):
        return True
    host = t.split("/", 1)[0].split("?", 1)[0].rsplit(":", 1)[0].lower()
    if host == "localhost":
        return True
    labels = host.split(".")
    if len(labels) == 4 and all(p.isdigit() for p in labels):
        return True
    return len(labels) >= 2 and all(labels) and labels[-1].isalpha() and len(labels[-1]) >= 2


def with_scheme(text: str) -> str:
    t = text.strip()
    return t if "://" in t or t.startswith(_INTERNAL) else "https://" + t


def display(url: str) -> str:
    """The URL bar's text for a page: no scheme, no lone trailing slash; empty on the
    New Tab Page (the bar shows its hint)."""
    if url == NTP_URL:
        return ""
    for scheme in ("https://", "http://"):
        if url.startswith(scheme):
            url = url[len(scheme):]
            break
    if url.endswith("/") and url.count("/") == 1:
        url = url[:-1]
    return url


def search_url(engine: Engine, query: str) -> str:
    return f"https://{engine.host}{engine.path}?{engine.param}={quote_plus(query.strip())}"
