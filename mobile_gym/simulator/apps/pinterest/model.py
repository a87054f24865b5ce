"""Pinterest's state: the signed-in account ("agentian"), the home feed's pins, the
user's boards and saved pins, people to find and follow, notifications (Updates and
Inbox), settings (profile visibility, social permissions), and the log of what the user
opened, searched, saved and copied (what oracles read). Content pools the "default"
dynamics draws from live here too."""

from __future__ import annotations

from dataclasses import dataclass, field

USERNAME = "agentian"
FULL_NAME = "Agent Ian"
EMAIL = "agentian.mobilegym@gmail.com"
PROFILE_LINK = "https://pin.it/agentian"
BOARD_SORTS = ("A to Z", "Custom", "Last saved to")
UPDATE_FILTERS = ("All", "Comments", "Saves", "Follows")
KINDS = {"Comments": "comment", "Saves": "save", "Follows": "follow"}
SETTINGS_PAGES = ("Account management", "Profile visibility", "Home feed tuner", "Social permissions",
                  "Notifications", "Privacy and data")


@dataclass
class Comment:
    author: str
    text: str
    time: str = "2w"


@dataclass
class Pin:
    id: str
    title: str
    author: str
    height: int = 200  # dp of its image in the grid (the masonry's varied heights)
    saves: int = 0
    comments: list[Comment] = field(default_factory=list)
    saved: bool = False  # saved by the user in this run (feed pins start unsaved)
    topic: str = ""

    @property
    def link(self) -> str:
        return f"https://pin.it/{self.id}"


@dataclass
class OwnPin:
    """A pin on the user's own profile (the Saved page's "Pins" tab)."""

    id: str
    title: str
    board: str = "Profile"
    height: int = 200


@dataclass
class Board:
    name: str
    pins: int = 0
    secret: bool = False
    updated: int = 0  # larger is more recent ("Last saved to")
    created: bool = False  # made in this run


@dataclass
class User:
    name: str
    handle: str
    followers: int = 0
    following: bool = False
    bio: str = ""


@dataclass
class Update:
    kind: str  # "comment", "save", "follow", "idea"
    text: str
    time: str = "1d"


@dataclass
class Conversation:
    sender: str
    text: str
    time: str = "1w"


# ------------------------------------------------------------------ pools
# (title, author, topic, image height, saves, comments)
PIN_POOL = (
    ("Cozy Scandinavian living room", "Nordic Nest", "interior", 260, 1843,
     (("Lena M.", "Love the neutral tones!"), ("Chris P.", "Where is the rug from?"))),
    ("Easy weeknight pasta", "Half Baked Harvest", "food", 200, 5120,
     (("Maya", "Made this tonight, so good"),)),
    ("DIY macrame wall hanging", "Crafty Corner", "diy", 300, 922,
     (("Jo", "Great tutorial, thank you"), ("Ana R.", "What cord size did you use?"),
      ("Pat", "Saving for the weekend"))),
    ("Small balcony garden ideas", "Urban Jungle", "garden", 220, 2301, ()),
    ("Minimalist bedroom decor", "Wendy's Lookbook", "interior", 280, 3310,
     (("Kim", "So calming"),)),
    ("Fall outfit inspiration", "Wendy's Lookbook", "fashion", 320, 7420,
     (("Tess", "Need that coat"), ("Nora", "Perfect for October"))),
    ("Healthy breakfast bowls", "Minimalist Baker", "food", 180, 2988,
     (("Sam", "The berry one is my favourite"),)),
    ("Watercolor painting for beginners", "Art Studio Daily", "art", 240, 1502, ()),
    ("Kitchen organization hacks", "The Home Edit", "interior", 200, 6410,
     (("Rae", "The lazy susan tip changed my life"),)),
    ("Hiking trails in Colorado", "Trail Tales", "travel", 260, 884,
     (("Ben", "Hanging Lake is a must"),)),
    ("Mid-century modern dining room", "Nordic Nest", "interior", 240, 1277, ()),
    ("Upcycled mason jar crafts", "Crafty Corner", "diy", 220, 1980,
     (("Lou", "Cute gift idea"), ("Val", "Did this with my kids"))),
    ("Boho bathroom makeover", "Studio McGee", "interior", 300, 2765,
     (("Ivy", "Those tiles!"),)),
    ("Sourdough bread starter guide", "King Arthur Baking", "food", 260, 4410, ()),
    ("Capsule wardrobe essentials", "Wendy's Lookbook", "fashion", 280, 3904,
     (("Mia", "Very helpful list"),)),
    ("Weekend trip to Kyoto", "Wander Often", "travel", 240, 2210,
     (("Ken", "Go early to Fushimi Inari"),)),
    ("Home office setup ideas", "Studio McGee", "interior", 220, 3655, ()),
    ("Paper flower tutorial", "Art Studio Daily", "diy", 200, 1145,
     (("Ruth", "So pretty for a wedding"),)),
)
# (name, handle, followers, bio)
USER_POOL = (
    ("Wendy's Lookbook", "wendyslookbook", 412000, "Style, beauty and everyday outfits"),
    ("Nordic Nest", "nordicnest", 88200, "Scandinavian homes and calm interiors"),
    ("Crafty Corner", "craftycorner", 45100, "Easy DIY projects for every weekend"),
    ("Half Baked Harvest", "halfbakedharvest", 2100000, "Recipes from the mountains"),
    ("Urban Jungle", "urbanjungle", 67400, "Plants and small-space gardens"),
    ("Studio McGee", "studiomcgee", 1400000, "Design studio and home inspiration"),
    ("Minimalist Baker", "minimalistbaker", 960000, "Simple recipes, 10 ingredients or less"),
    ("Art Studio Daily", "artstudiodaily", 23800, "Painting and drawing for everyone"),
    ("The Home Edit", "thehomeedit", 1200000, "Organize your home"),
    ("Trail Tales", "trailtales", 15600, "Hikes and road trips"),
    ("Wander Often", "wanderoften", 30900, "Travel guides"),
    ("King Arthur Baking", "kingarthurbaking", 540000, "Baking is better together"),
    ("Wendy Lou", "wendylou", 320, "Cakes and cookies"),
)
FOLLOWED = ("Nordic Nest", "Half Baked Harvest", "Studio McGee", "The Home Edit")
# (name, pins, secret)
BOARD_POOL = (("Home decor", 34, False), ("Recipes to try", 21, False), ("DIY projects", 17, False),
              ("Travel bucket list", 12, False), ("Outfits", 9, False), ("Gift ideas", 6, True))
OWN_PIN_POOL = (("Reading nook with built-in shelves", "Home decor", 240),
                ("One-pot lemon orzo", "Recipes to try", 200),
                ("Painted terracotta pots", "DIY projects", 260),
                ("Santorini sunset", "Travel bucket list", 220),
                ("Linen shirt and loafers", "Outfits", 280),
                ("Rustic farmhouse table", "Home decor", 200))
UPDATE_POOL = (
    ("comment", "Lena M. commented on your Pin: \u201cLove this nook!\u201d"),
    ("save", "Chris P. saved your Pin to Cozy corners"),
    ("follow", "Maya started following you"),
    ("idea", "Ideas for you: Fall table settings"),
    ("comment", "Jo commented on your Pin: \u201cWhat paint did you use?\u201d"),
    ("save", "3 people saved your Pin \u201cPainted terracotta pots\u201d"),
    ("follow", "Ben and 2 others started following you"),
    ("idea", "Still searching? Explore more home office ideas"),
    ("comment", "Ana R. replied to your comment: \u201cThank you!\u201d"),
)
INBOX_POOL = (("Maya", "Sent a Pin: Cozy Scandinavian living room"),
              ("Chris P.", "haha I need this kitchen"),
              ("Lena M.", "Thanks for the recipe!"),
              ("Pinterest", "Welcome to messages on Pinterest"))
TIMES = ("2h", "5h", "9h", "1d", "2d", "3d", "5d", "1w", "2w", "3w", "4w")
TOPICS = (("Home decor", "interior"), ("Recipes", "food"), ("DIY and crafts", "diy"),
          ("Fashion", "fashion"), ("Travel", "travel"), ("Art", "art"), ("Gardening", "garden"))


def make_pin(i: int, saves: int | None = None) -> Pin:
    title, author, topic, height, n, comments = PIN_POOL[i]
    return Pin(f"{904 + i * 37}517", title, author, height, n if saves is None else saves,
               [Comment(a, t, TIMES[(k * 3 + i) % len(TIMES)]) for k, (a, t) in enumerate(comments)],
               topic=topic)


def _pins() -> list[Pin]:
    return [make_pin(i) for i in range(len(PIN_POOL))]


def _boards() -> list[Board]:
    return [Board(name, n, secret, updated=len(BOARD_POOL) - k) for k, (name, n, secret) in enumerate(BOARD_POOL)]


def own_pins() -> list[OwnPin]:
    """Your pins, every one of the pool (`vary` keeps those whose board there is)."""
    return [OwnPin(f"{771 + k * 13}230", t, b, h) for k, (t, b, h) in enumerate(OWN_PIN_POOL)]


def _users() -> list[User]:
    return [User(n, h, f, n in FOLLOWED, bio) for n, h, f, bio in USER_POOL]


def _updates() -> list[Update]:
    return [Update(kind, text, TIMES[k]) for k, (kind, text) in enumerate(UPDATE_POOL)]


def _inbox() -> list[Conversation]:
    return [Conversation(s, t, TIMES[3 + 2 * k]) for k, (s, t) in enumerate(INBOX_POOL)]


@dataclass
class PinterestState:
    logged_in: bool = True
    username: str = USERNAME
    full_name: str = FULL_NAME
    email: str = EMAIL
    followers: int = 48
    pins: list[Pin] = field(default_factory=_pins)  # the home feed, in order
    boards: list[Board] = field(default_factory=_boards)
    own_pins: list[OwnPin] = field(default_factory=own_pins)
    users: list[User] = field(default_factory=_users)
    updates: list[Update] = field(default_factory=_updates)
    inbox: list[Conversation] = field(default_factory=_inbox)
    board_sort: str = "Last saved to"  # one of BOARD_SORTS
    updates_filter: str = "All"  # one of UPDATE_FILTERS
    private_profile: bool = False
    search_privacy: bool = False
    allow_comments: bool = True
    filter_comments: bool = False  # Social permissions > "Filter comments on my Pins"
    personalization: bool = True
    notifications_allowed: bool = False
    # what the user did (oracles read these)
    opened: bool = False
    visited: list[str] = field(default_factory=list)  # "home", "search", "updates", "inbox", "saved",
    #   "saved_pins", "profile", "following", "settings", the settings pages' titles, "comments"
    searches: list[str] = field(default_factory=list)  # queries submitted in Search
    board_searches: list[str] = field(default_factory=list)  # text typed in "Search your Pins" when a board was opened
    viewed_pins: list[str] = field(default_factory=list)  # pin ids whose close-up opened
    comments_viewed: list[str] = field(default_factory=list)  # pin ids whose comments opened
    opened_boards: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)  # links copied ("Copy link")
    refreshes: int = 0  # Home tapped on the home feed
    followed: list[str] = field(default_factory=list)  # users followed in this run
    found_users: list[str] = field(default_factory=list)  # profiles opened from Search (suggestions, results)

    def pin(self, pid: str) -> Pin | None:
        return next((p for p in self.pins if p.id == pid), None)

    def board(self, name: str) -> Board | None:
        return next((b for b in self.boards if b.name == name), None)

    def user(self, name: str) -> User | None:
        return next((u for u in self.users if u.name == name), None)

    def following(self) -> list[User]:
        return [u for u in self.users if u.following]

    def sorted_boards(self) -> list[Board]:
        if self.board_sort == "A to Z":
            return sorted(self.boards, key=lambda b: b.name.casefold())
        if self.board_sort == "Last saved to":
            return sorted(self.boards, key=lambda b: -b.updated)
        return list(self.boards)

    def shown_updates(self) -> list[Update]:
        kind = KINDS.get(self.updates_filter)
        return [u for u in self.updates if kind is None or u.kind == kind]
