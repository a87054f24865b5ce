"""The apps the simulated Play Store offers, and the apps a fresh device has.

Names, packages and developers follow the real store listings that LlamaTouch's tasks
name; ``label`` is what the launcher shows under the icon. The store-page fields (size,
review count, content rating, ads / in-app purchases, game, kids) are what the Play
Store shows on cards and detail pages.
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
    size: str = "30 MB"  # download size shown on cards
    reviews: str = "100K"  # number of reviews, as the store abbreviates it
    content_rating: str = "Everyone"  # "Everyone", "Everyone 10+", "Teen", "Mature 17+"
    ads: bool = False  # "Contains ads"
    purchases: bool = False  # "In-app purchases"
    game: bool = False  # listed under Games instead of Apps
    kids: bool = False  # shown on the Kids tab


_E = CatalogueEntry  # short, for the tables below

CATALOGUE: tuple[CatalogueEntry, ...] = (
    _E("com.ebay.mobile", "eBay: The shopping marketplace", "eBay", "eBay Mobile",
      "Shopping", 4.7, "100M+", (229, 50, 56), "Buy and sell almost anything.",
      size="48 MB", reviews="3.1M", content_rating="Teen"),
    _E("com.facebook.katana", "Facebook", "Facebook", "Meta Platforms, Inc.",
      "Social", 4.1, "5B+", (24, 119, 242), "Connect with friends and family.",
      size="74 MB", reviews="150M", content_rating="Teen", ads=True, purchases=True),
    _E("com.spotify.music", "Spotify: Music and Podcasts", "Spotify", "Spotify AB",
      "Music & Audio", 4.3, "1B+", (30, 215, 96), "Music and podcasts for every moment.",
      size="32 MB", reviews="32M", content_rating="Teen", ads=True, purchases=True),
    _E("com.google.android.calculator", "Calculator", "Calculator", "Google LLC",
      "Tools", 4.4, "1B+", (66, 133, 244), "A simple and beautiful calculator.",
      size="3 MB", reviews="1.4M"),
    _E("com.google.android.apps.youtube.kids", "YouTube Kids", "YouTube Kids",
      "Google LLC", "Entertainment", 4.1, "500M+", (255, 0, 0),
      "A safer video app for kids.", size="26 MB", reviews="2.8M", kids=True),
    _E("com.booking", "Booking.com: Hotels and more", "Booking.com", "Booking.com",
      "Travel & Local", 4.7, "500M+", (0, 53, 128), "Hotels, homes and flights.",
      size="40 MB", reviews="5.2M"),
    _E("org.mozilla.firefox", "Firefox Fast & Private Browser", "Firefox",
      "Mozilla", "Communication", 4.5, "100M+", (255, 113, 57),
      "Fast, private and safe web browser.", size="90 MB", reviews="5.6M"),
    _E("com.microsoft.office.excel", "Microsoft Excel: Spreadsheets", "Excel",
      "Microsoft Corporation", "Productivity", 4.6, "1B+", (16, 124, 65),
      "View, edit and create spreadsheets.", size="95 MB", reviews="3.3M", purchases=True),
    _E("com.azure.authenticator", "Microsoft Authenticator", "Authenticator",
      "Microsoft Corporation", "Productivity", 4.7, "100M+", (0, 120, 212),
      "Secure sign-in with multi-factor authentication.", size="60 MB", reviews="1.1M"),
    _E("com.duolingo", "Duolingo: language lessons", "Duolingo", "Duolingo",
      "Education", 4.7, "500M+", (88, 204, 2), "Learn languages for free.",
      size="55 MB", reviews="17M", ads=True, purchases=True, kids=True),
    _E("com.mcdonalds.app", "McDonald's", "McDonald's", "McDonald's USA, LLC",
      "Food & Drink", 4.5, "100M+", (218, 41, 28), "Deals and rewards at McDonald's.",
      size="45 MB", reviews="2.1M"),
    _E("com.google.android.apps.messaging", "Messages", "Messages", "Google LLC",
      "Communication", 4.3, "5B+", (26, 115, 232), "Simple, helpful messaging by Google.",
      size="38 MB", reviews="9.6M"),
    _E("org.videolan.vlc", "VLC for Android", "VLC", "Videolabs",
      "Video Players & Editors", 4.4, "100M+", (255, 136, 0),
      "Free and open source multimedia player.", size="35 MB", reviews="1.6M"),
    _E("com.teslacoilsw.launcher", "Nova Launcher", "Nova Launcher",
      "TeslaCoil Software", "Personalization", 4.4, "50M+", (230, 81, 0),
      "A powerful, customizable home screen.", size="11 MB", reviews="1.9M", purchases=True),
    _E("com.hbo.hbonow", "HBO Max: Stream TV & Movies", "HBO Max",
      "WarnerMedia Direct, LLC", "Entertainment", 4.0, "50M+", (91, 33, 182),
      "Stream iconic series and movies.", size="28 MB", reviews="1.2M",
      content_rating="Teen", purchases=True),
    _E("com.particlenews.newsbreak", "NewsBreak: Local News & Alerts", "NewsBreak",
      "Particle Media Inc.", "News & Magazines", 4.6, "50M+", (228, 32, 38),
      "Local news and alerts.", size="30 MB", reviews="1.3M", content_rating="Teen", ads=True),
    _E("com.expedia.bookings", "Expedia: Hotels, Flights & Car", "Expedia",
      "Expedia", "Travel & Local", 4.8, "10M+", (254, 204, 0),
      "Plan and book your trip.", size="42 MB", reviews="1.5M"),
    _E("com.amazon.mShop.android.shopping", "Amazon Shopping", "Amazon Shopping",
      "Amazon Mobile LLC", "Shopping", 4.5, "500M+", (255, 153, 0),
      "Shop millions of products.", size="60 MB", reviews="6.1M", content_rating="Teen"),
    _E("com.instagram.android", "Instagram", "Instagram", "Instagram",
      "Social", 4.2, "1B+", (225, 48, 108), "Share photos and videos.",
      size="58 MB", reviews="140M", content_rating="Teen", ads=True, purchases=True),
    _E("com.pinterest", "Pinterest", "Pinterest", "Pinterest", "Lifestyle", 4.6,
      "500M+", (230, 0, 35), "Find ideas to try.", size="36 MB", reviews="7.8M",
      content_rating="Teen", ads=True),
    _E("com.reddit.frontpage", "Reddit", "Reddit", "reddit Inc.", "Social", 4.1,
      "100M+", (255, 69, 0), "Communities for every interest.", size="50 MB",
      reviews="2.9M", content_rating="Mature 17+", ads=True, purchases=True),
    _E("us.zoom.videomeetings", "Zoom - One Platform to Connect", "Zoom",
      "zoom.us", "Business", 4.2, "500M+", (45, 140, 255), "Meetings and chat.",
      size="110 MB", reviews="3.9M"),
    _E("com.google.android.keep", "Google Keep - Notes and Lists", "Keep Notes",
      "Google LLC", "Productivity", 4.4, "1B+", (251, 188, 4),
      "Capture what's on your mind.", size="20 MB", reviews="1.7M"),
    _E("com.trello", "Trello: Manage Team Projects", "Trello", "Atlassian",
      "Productivity", 4.5, "10M+", (0, 121, 191), "Organize anything.",
      size="25 MB", reviews="120K", purchases=True),
    _E("com.evernote", "Evernote - Note Organizer", "Evernote", "Evernote Corporation",
      "Productivity", 4.4, "100M+", (0, 168, 45), "Notes, tasks and schedules in one place.",
      size="70 MB", reviews="1.9M", purchases=True),
    _E("com.lemon.lvoverseas", "CapCut - Video Editor", "CapCut", "Bytedance Pte. Ltd.",
      "Video Players & Editors", 4.4, "500M+", (20, 20, 20), "Easy and powerful video editing.",
      size="150 MB", reviews="9.5M", content_rating="Teen", ads=True, purchases=True),
    _E("com.discord", "Discord: Talk, Chat & Hang Out", "Discord", "Discord Inc.",
      "Communication", 4.2, "100M+", (88, 101, 242), "Group chat for your communities.",
      size="120 MB", reviews="5.1M", content_rating="Teen", purchases=True),
    _E("com.dd.doordash", "DoorDash - Food Delivery", "DoorDash", "DoorDash",
      "Food & Drink", 4.6, "50M+", (255, 48, 8), "Restaurant and grocery delivery.",
      size="65 MB", reviews="2.4M"),
    _E("com.snapchat.android", "Snapchat", "Snapchat", "Snap Inc",
      "Communication", 4.2, "1B+", (255, 252, 0), "Share the moment with friends.",
      size="85 MB", reviews="33M", content_rating="Teen", ads=True, purchases=True),
    _E("com.quora.android", "Quora", "Quora", "Quora, Inc.", "Social", 4.3, "50M+",
      (185, 43, 39), "Ask questions, get great answers.", size="25 MB", reviews="820K",
      content_rating="Teen", ads=True),
    _E("com.walmart.android", "Walmart: Shopping & Savings", "Walmart", "Walmart",
      "Shopping", 4.7, "50M+", (0, 113, 206), "Save money on groceries and more.",
      size="70 MB", reviews="3.4M"),
    _E("com.espn.score_center", "ESPN", "ESPN", "Disney", "Sports", 4.3, "50M+",
      (204, 0, 0), "Live sports, scores and news.", size="55 MB", reviews="1.6M",
      ads=True, purchases=True),
    _E("com.crunchyroll.crunchyroid", "Crunchyroll", "Crunchyroll", "Crunchyroll, LLC",
      "Entertainment", 4.5, "50M+", (244, 117, 33), "Stream the world's largest anime library.",
      size="30 MB", reviews="1.8M", content_rating="Teen", purchases=True),
    _E("com.twitter.android", "X", "X", "X Corp.", "News & Magazines", 4.0, "1B+",
      (15, 20, 25), "What's happening around the world.", size="60 MB", reviews="25M",
      content_rating="Mature 17+", ads=True, purchases=True),
    _E("com.yelp.android", "Yelp: Food, Delivery & Reviews", "Yelp", "Yelp Inc",
      "Food & Drink", 4.3, "50M+", (211, 35, 35), "Find great local businesses.",
      size="45 MB", reviews="610K", content_rating="Teen", ads=True),
    _E("com.naver.linewebtoon", "WEBTOON", "Webtoon", "WEBTOON ENTERTAINMENT",
      "Comics", 4.6, "100M+", (0, 220, 100), "Read free comics every day.",
      size="40 MB", reviews="5.0M", content_rating="Teen", ads=True, purchases=True),
    _E("org.coursera.android", "Coursera: Learn career skills", "Coursera", "Coursera",
      "Education", 4.7, "10M+", (0, 86, 210), "Online courses from top universities.",
      size="35 MB", reviews="250K", purchases=True),
    _E("com.cnn.mobile.android.phone", "CNN Breaking US & World News", "CNN", "CNN",
      "News & Magazines", 4.5, "10M+", (204, 0, 0), "Breaking news and live video.",
      size="30 MB", reviews="380K", content_rating="Teen", ads=True),
    _E("bbc.mobile.news.ww", "BBC: World News & Stories", "BBC News",
      "BBC Media App Technologies", "News & Magazines", 4.5, "10M+", (187, 25, 25),
      "Trusted news from around the world.", size="20 MB", reviews="510K",
      content_rating="Teen", ads=True),
    _E("com.emn8.mobilem8.nativeapp.bk", "Burger King App", "Burger King",
      "Burger King Corporation", "Food & Drink", 4.5, "10M+", (214, 35, 0),
      "Order ahead and get exclusive deals.", size="50 MB", reviews="300K"),
    _E("com.ubercab", "Uber - Request a ride", "Uber", "Uber Technologies, Inc.",
      "Maps & Navigation", 4.5, "500M+", (0, 0, 0), "Request a ride, hop in and go.",
      size="100 MB", reviews="16M"),
    _E("com.realbyteapps.moneymanagerfree", "Money Manager Expense & Budget", "Money Manager",
      "Realbyte Inc.", "Finance", 4.6, "10M+", (240, 90, 80), "Track expenses and budgets.",
      size="20 MB", reviews="610K", ads=True, purchases=True),
    _E("org.khankids.android", "Khan Academy Kids", "Khan Kids", "Khan Academy",
      "Education", 4.6, "10M+", (20, 191, 150), "Free learning for kids ages 2-8.",
      size="120 MB", reviews="110K", kids=True),
    # Games
    _E("com.king.candycrushsaga", "Candy Crush Saga", "Candy Crush Saga", "King",
      "Casual", 4.6, "1B+", (234, 86, 164), "Match candies in this sweet puzzle game.",
      size="95 MB", reviews="36M", purchases=True, game=True),
    _E("com.kiloo.subwaysurf", "Subway Surfers", "Subway Surfers", "SYBO Games",
      "Arcade", 4.5, "1B+", (255, 196, 0), "Dash as fast as you can!",
      size="180 MB", reviews="40M", content_rating="Everyone 10+", ads=True,
      purchases=True, game=True),
    _E("com.roblox.client", "Roblox", "Roblox", "Roblox Corporation", "Adventure", 4.4,
      "500M+", (57, 59, 61), "Explore millions of immersive experiences.",
      size="170 MB", reviews="33M", content_rating="Teen", purchases=True, game=True),
    _E("com.nianticlabs.pokemongo", "Pokémon GO", "Pokémon GO", "Niantic, Inc.",
      "Adventure", 4.1, "100M+", (0, 140, 220), "Catch Pokémon in the real world.",
      size="390 MB", reviews="15M", purchases=True, game=True),
    _E("com.supercell.clashofclans", "Clash of Clans", "Clash of Clans", "Supercell",
      "Strategy", 4.5, "500M+", (246, 176, 40), "Build your village and raid your enemies.",
      size="330 MB", reviews="60M", content_rating="Everyone 10+", purchases=True, game=True),
    _E("com.chess", "Chess - Play and Learn", "Chess", "Chess.com", "Board", 4.7,
      "100M+", (118, 150, 86), "Play chess online with friends.",
      size="90 MB", reviews="1.4M", ads=True, purchases=True, game=True, kids=True),
)

BY_PACKAGE = {e.package: e for e in CATALOGUE}

# Store listings of Google apps a Pixel ships with. They are not in CATALOGUE (that would
# make them login apps); the Play Store shows them as installed apps it can open.
SYSTEM_LISTINGS: tuple[CatalogueEntry, ...] = (
    _E("com.android.chrome", "Google Chrome: Fast & Secure", "Chrome", "Google LLC",
      "Communication", 4.1, "10B+", (66, 133, 244), "Fast, simple and secure web browser.",
      size="85 MB", reviews="44M"),
    _E("com.google.android.gm", "Gmail", "Gmail", "Google LLC", "Communication", 4.2,
      "10B+", (234, 67, 53), "Secure email from Google.", size="55 MB", reviews="11M"),
    _E("com.google.android.youtube", "YouTube", "YouTube", "Google LLC",
      "Video Players & Editors", 4.1, "10B+", (255, 0, 0), "Watch videos, music and live streams.",
      size="40 MB", reviews="150M", content_rating="Teen", ads=True, purchases=True),
    _E("com.google.android.apps.maps", "Google Maps", "Maps", "Google LLC",
      "Travel & Local", 4.1, "10B+", (52, 168, 83), "Real-time GPS navigation and local info.",
      size="45 MB", reviews="18M"),
    _E("com.google.android.apps.photos", "Google Photos", "Photos", "Google LLC",
      "Photography", 4.5, "10B+", (251, 188, 4), "Back up, edit and share your photos.",
      size="50 MB", reviews="36M", purchases=True),
    _E("com.google.android.deskclock", "Clock", "Clock", "Google LLC", "Tools", 4.1,
      "1B+", (66, 133, 244), "Alarms, timers, stopwatch and world clock.",
      size="10 MB", reviews="650K"),
    _E("com.google.android.calendar", "Google Calendar", "Calendar", "Google LLC",
      "Productivity", 4.2, "5B+", (66, 133, 244), "Plan your day with Google Calendar.",
      size="30 MB", reviews="3.6M"),
    _E("com.google.android.contacts", "Contacts", "Contacts", "Google LLC",
      "Communication", 4.3, "1B+", (66, 133, 244), "Back up and organize your contacts.",
      size="15 MB", reviews="780K"),
    _E("com.google.android.dialer", "Phone by Google", "Phone", "Google LLC",
      "Communication", 4.2, "1B+", (26, 115, 232), "Caller ID and spam protection.",
      size="25 MB", reviews="1.8M"),
)


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
    Preinstalled("com.google.android.apps.photos", "Photos", "star", (251, 188, 4)),
    Preinstalled("com.google.android.apps.maps", "Maps", "location", (52, 168, 83)),
    Preinstalled("com.google.android.contacts", "Contacts", "person", (66, 133, 244)),
    Preinstalled("com.google.android.documentsui", "Files", "app", (26, 115, 232)),
)
