"""What the Play Store knows: its listings, option lists, static pages and the state
task oracles read. No views here."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from mobile_gym.simulator.catalogue import CATALOGUE, SYSTEM_LISTINGS, CatalogueEntry

PKG = "com.android.vending"
ID = PKG + ":id/"
MAIN = "com.google.android.finsky.activities.MainActivity"
VERSION = "39.6.20-31 [0] [PR] 608214466"

LISTINGS: tuple[CatalogueEntry, ...] = CATALOGUE + SYSTEM_LISTINGS
LISTED = {e.package: e for e in LISTINGS}
REMOVABLE = frozenset(e.package for e in CATALOGUE)  # stock Google apps can't be removed

DOWNLOAD_OPTIONS = ("Ask me every time", "Over any network", "Over Wi-Fi only")
AUTO_UPDATE_OPTIONS = ("Over any network", "Over Wi-Fi only", "Don't auto-update apps")
AUTO_PLAY_OPTIONS = ("Auto-play videos over any network", "Auto-play videos over Wi-Fi only",
                     "Don't auto-play videos")
THEME_OPTIONS = ("Light", "Dark", "System default")
CHOICES = {  # state field -> (dialog title, options)
    "download_preference": ("App download preference", DOWNLOAD_OPTIONS),
    "auto_update": ("Auto-update apps", AUTO_UPDATE_OPTIONS),
    "auto_play_videos": ("Auto-play videos", AUTO_PLAY_OPTIONS),
    "theme": ("Theme", THEME_OPTIONS),
}

OFFERS = (  # (package, offer)
    ("com.spotify.music", "Try Premium free for 1 month"),
    ("com.duolingo", "Get 2 weeks of Super Duolingo free"),
    ("com.mcdonalds.app", "Free medium fries with a $1 purchase"),
    ("com.booking", "Save 10% or more on your next stay"),
    ("com.kiloo.subwaysurf", "Limited-time Surfers bundle"),
)


@dataclass(frozen=True)
class Book:
    title: str
    author: str
    price: str
    rating: float
    blurb: str


BOOKS = (
    Book("Atomic Habits", "James Clear", "$13.99", 4.8,
         "An easy and proven way to build good habits and break bad ones."),
    Book("Fourth Wing", "Rebecca Yarros", "$9.99", 4.6,
         "Enter the brutal and elite world of a war college for dragon riders."),
    Book("Project Hail Mary", "Andy Weir", "$9.99", 4.7,
         "A lone astronaut must save the earth from disaster."),
    Book("The Housemaid", "Freida McFadden", "$4.99", 4.6,
         "Welcome to the family. Millie can't believe her luck."),
    Book("Lessons in Chemistry", "Bonnie Garmus", "$14.99", 4.5,
         "Chemist Elizabeth Zott is not your average woman."),
    Book("Iron Flame", "Rebecca Yarros", "$14.99", 4.5,
         "The next chapter of the Empyrean series."),
)

# Pages the store has but that only show information: title -> (intro, rows).
INFO: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "Payments & subscriptions": ("", (
        ("Payment methods", "Add a payment method"), ("Subscriptions", "No subscriptions"),
        ("Budget & history", "See purchases, set a budget"),
        ("Redeem code", "Redeem gift cards and promo codes"))),
    "Play Protect": ("No harmful apps found", (
        ("Scan apps with Play Protect", "On"),
        ("Improve harmful app detection", "Send unknown apps to Google for better detection"))),
    "Play Pass": ("Hundreds of games and apps without ads or in-app purchases", (
        ("Try it free for 1 month", "Then $4.99/month. Cancel anytime."),)),
    "Offers & notifications": ("", (
        ("Offers", "No offers right now"), ("Notifications", "No new notifications"))),
    "Help & feedback": ("", (
        ("Popular help resources", "Find, install and update apps"),
        ("Send feedback", "Tell us how we can improve"))),
    "Account and device preferences": ("", (
        ("Country and profiles", "United States"),
        ("Sign-in", "Require authentication for purchases"),
        ("Google Play Instant", "Use apps without installation"))),
    "Notifications": ("", (
        ("Updates", "Notify me about app updates"),
        ("Update completion", "Notify me when apps are updated"),
        ("Offers & promotions", "Notify me about promotions"))),
    "Parental controls": ("Parental controls are off", (
        ("Set content restrictions", "Apps & games, Books"),)),
    "Open source licenses": ("License details for open source software", ()),
}


@dataclass
class PlayStoreState:
    """What task oracles read (``phone.app_state("playstore")``)."""

    account_name: str = "Alex Miller"
    account_email: str = "alex.miller@gmail.com"
    searches: list[str] = field(default_factory=list)  # submitted queries, in order
    last_query: str = ""
    viewed: list[str] = field(default_factory=list)  # packages whose detail page opened
    installs: list[str] = field(default_factory=list)  # packages installed from the store
    uninstalls: list[str] = field(default_factory=list)  # packages uninstalled from the store
    wishlist: list[str] = field(default_factory=list)  # packages
    download_preference: str = "Over any network"
    auto_update: str = "Over Wi-Fi only"
    auto_play_videos: str = "Auto-play videos over Wi-Fi only"
    theme: str = "System default"
    book_samples: list[str] = field(default_factory=list)  # titles of books sampled
    promo_accepted: bool = False  # "Get offer" on the Google One promo sheet


def downloads(e: CatalogueEntry) -> float:
    """"500M+" -> 5e8, for chart order."""
    n = e.downloads.rstrip("+")
    scale = {"K": 1e3, "M": 1e6, "B": 1e9}.get(n[-1:], 1.0)
    return float(n.rstrip("KMB")) * scale


def names(e: CatalogueEntry) -> set[str]:
    """What people call an app: title, launcher label, and the title before its tagline
    ("Microsoft Excel" of "Microsoft Excel: Spreadsheets")."""
    title = e.title.lower()
    return {title, e.label.lower(), title.split(":")[0], title.split(" - ")[0]}


def score(e: CatalogueEntry, query: str) -> int | None:
    """How well a listing matches a query (0 one of its names, 1 a name's prefix, 2 in
    a name, 3 every word somewhere in title, label, developer or category); None: no match."""
    q = " ".join(query.lower().split())
    words = q.split()
    hay = f"{e.title} {e.label} {e.developer} {e.category}".lower()
    if not words or not all(w in hay for w in words):
        return None
    called = names(e)
    if q in called:
        return 0
    if any(n.startswith(q) for n in called):
        return 1
    return 2 if any(q in n for n in called) else 3


def updated_on(e: CatalogueEntry) -> str:
    """A fixed "Updated on" date per app (no clock, no randomness)."""
    return f"Nov {zlib.crc32(e.package.encode()) % 28 + 1}, 2023"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
