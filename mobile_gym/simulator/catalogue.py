"""The apps the simulated Play Store offers, and the apps a fresh device has.

Names, packages and developers follow the real store listings that LlamaTouch's tasks
name; ``label`` is what the launcher shows under the icon.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CatalogueEntry:
    package: str  # Android package name
    title: str  # store listing title
    label: str  # launcher label
    developer: str
    category: str
    rating: float  # stars, 1-5
    downloads: str  # e.g. "100M+"
    color: tuple[int, int, int]  # icon background
    description: str


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry("com.ebay.mobile", "eBay: The shopping marketplace", "eBay", "eBay Mobile",
                   "Shopping", 4.7, "100M+", (229, 50, 56), "Buy and sell almost anything."),
    CatalogueEntry("com.facebook.katana", "Facebook", "Facebook", "Meta Platforms, Inc.",
                   "Social", 4.1, "5B+", (24, 119, 242), "Connect with friends and family."),
    CatalogueEntry("com.spotify.music", "Spotify: Music and Podcasts", "Spotify", "Spotify AB",
                   "Music & Audio", 4.3, "1B+", (30, 215, 96), "Music and podcasts for every moment."),
    CatalogueEntry("com.google.android.calculator", "Calculator", "Calculator", "Google LLC",
                   "Tools", 4.4, "1B+", (66, 133, 244), "A simple and beautiful calculator."),
    CatalogueEntry("com.google.android.apps.youtube.kids", "YouTube Kids", "YouTube Kids",
                   "Google LLC", "Entertainment", 4.1, "500M+", (255, 0, 0),
                   "A safer video app for kids."),
    CatalogueEntry("com.booking", "Booking.com: Hotels and more", "Booking.com", "Booking.com",
                   "Travel & Local", 4.7, "500M+", (0, 53, 128), "Hotels, homes and flights."),
    CatalogueEntry("org.mozilla.firefox", "Firefox Fast & Private Browser", "Firefox",
                   "Mozilla", "Communication", 4.5, "100M+", (255, 113, 57),
                   "Fast, private and safe web browser."),
    CatalogueEntry("com.microsoft.office.excel", "Microsoft Excel: Spreadsheets", "Excel",
                   "Microsoft Corporation", "Productivity", 4.6, "1B+", (16, 124, 65),
                   "View, edit and create spreadsheets."),
    CatalogueEntry("com.azure.authenticator", "Microsoft Authenticator", "Authenticator",
                   "Microsoft Corporation", "Productivity", 4.7, "100M+", (0, 120, 212),
                   "Secure sign-in with multi-factor authentication."),
    CatalogueEntry("com.duolingo", "Duolingo: language lessons", "Duolingo", "Duolingo",
                   "Education", 4.7, "500M+", (88, 204, 2), "Learn languages for free."),
    CatalogueEntry("com.mcdonalds.app", "McDonald's", "McDonald's", "McDonald's USA, LLC",
                   "Food & Drink", 4.5, "100M+", (218, 41, 28), "Deals and rewards at McDonald's."),
    CatalogueEntry("com.google.android.apps.messaging", "Messages", "Messages", "Google LLC",
                   "Communication", 4.3, "5B+", (26, 115, 232), "Simple, helpful messaging by Google."),
    CatalogueEntry("org.videolan.vlc", "VLC for Android", "VLC", "Videolabs",
                   "Video Players & Editors", 4.4, "100M+", (255, 136, 0),
                   "Free and open source multimedia player."),
    CatalogueEntry("com.teslacoilsw.launcher", "Nova Launcher", "Nova Launcher",
                   "TeslaCoil Software", "Personalization", 4.4, "50M+", (230, 81, 0),
                   "A powerful, customizable home screen."),
    CatalogueEntry("com.hbo.hbonow", "HBO Max: Stream TV & Movies", "HBO Max",
                   "WarnerMedia Direct, LLC", "Entertainment", 4.0, "50M+", (91, 33, 182),
                   "Stream iconic series and movies."),
    CatalogueEntry("com.particlenews.newsbreak", "NewsBreak: Local News & Alerts", "NewsBreak",
                   "Particle Media Inc.", "News & Magazines", 4.6, "50M+", (228, 32, 38),
                   "Local news and alerts."),
    CatalogueEntry("com.expedia.bookings", "Expedia: Hotels, Flights & Car", "Expedia",
                   "Expedia", "Travel & Local", 4.8, "10M+", (254, 204, 0),
                   "Plan and book your trip."),
    CatalogueEntry("com.amazon.mShop.android.shopping", "Amazon Shopping", "Amazon Shopping",
                   "Amazon Mobile LLC", "Shopping", 4.5, "500M+", (255, 153, 0),
                   "Shop millions of products."),
    CatalogueEntry("com.instagram.android", "Instagram", "Instagram", "Instagram",
                   "Social", 4.2, "1B+", (225, 48, 108), "Share photos and videos."),
    CatalogueEntry("com.pinterest", "Pinterest", "Pinterest", "Pinterest", "Lifestyle", 4.6,
                   "500M+", (230, 0, 35), "Find ideas to try."),
    CatalogueEntry("com.reddit.frontpage", "Reddit", "Reddit", "reddit Inc.", "Social", 4.1,
                   "100M+", (255, 69, 0), "Communities for every interest."),
    CatalogueEntry("us.zoom.videomeetings", "Zoom - One Platform to Connect", "Zoom",
                   "zoom.us", "Business", 4.2, "500M+", (45, 140, 255), "Meetings and chat."),
    CatalogueEntry("com.google.android.keep", "Google Keep - Notes and Lists", "Keep Notes",
                   "Google LLC", "Productivity", 4.4, "1B+", (251, 188, 4), "Capture what's on your mind."),
    CatalogueEntry("com.trello", "Trello: Manage Team Projects", "Trello", "Atlassian",
                   "Productivity", 4.5, "10M+", (0, 121, 191), "Organize anything."),
)

BY_PACKAGE = {e.package: e for e in CATALOGUE}


@dataclass(frozen=True)
class Preinstalled:
    """A Google app every Pixel has; it opens to a placeholder screen."""

    package: str
    label: str
    icon: str  # glyph
    color: tuple[int, int, int]


PREINSTALLED: tuple[Preinstalled, ...] = (
    Preinstalled("com.google.android.dialer", "Phone", "person", (26, 115, 232)),
    Preinstalled("com.android.camera2", "Camera", "circle", (95, 99, 104)),
    Preinstalled("com.google.android.gm", "Gmail", "app", (234, 67, 53)),
    Preinstalled("com.google.android.apps.photos", "Photos", "star", (251, 188, 4)),
    Preinstalled("com.google.android.apps.maps", "Maps", "location", (52, 168, 83)),
    Preinstalled("com.google.android.youtube", "YouTube", "play", (255, 0, 0)),
    Preinstalled("com.google.android.contacts", "Contacts", "person", (66, 133, 244)),
    Preinstalled("com.google.android.calendar", "Calendar", "app", (66, 133, 244)),
    Preinstalled("com.google.android.documentsui", "Files", "app", (26, 115, 232)),
)
