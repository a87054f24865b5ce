"""Trello's state: the signed-in member's workspaces and boards (lists of cards, with due
dates and comments), notifications, settings (theme, accessibility) and what the user
opened, searched, copied or pinned; plus the seeded content pools `vary` draws from."""

from __future__ import annotations

from dataclasses import dataclass, field

USERNAME = "agentian"
FULL_NAME = "Agent Ian"
EMAIL = "agentian.mobilegym@gmail.com"
WORKSPACE = "agentian's workspace"
THEMES = ("Light", "Dark", "System default")
VISIBILITIES = ("Private", "Workspace", "Public")
TODAY = "Nov 25"  # the virtual clock's date (due dates are relative to it)
#: Templates in the gallery: name -> its lists.
TEMPLATES = {
    "Basic Board": ("To Do", "Doing", "Done"),
    "Kanban Template": ("Backlog", "Design", "To Do", "Doing", "Code Review", "Testing", "Done"),
    "Project Management": ("Project Resources", "Questions For Next Meeting", "To Do", "Pending", "Done"),
    "Weekly Planning": ("Goals", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
}
COLOURS = ((0, 121, 191), (210, 144, 52), (81, 152, 57), (176, 70, 50), (137, 96, 158), (205, 90, 145),
           (75, 191, 107), (0, 174, 204), (131, 140, 145))


@dataclass
class Card:
    title: str
    due: str = ""  # "Nov 26, 9:00 AM"; "" for none
    comments: list[str] = field(default_factory=list)  # the member's comments, oldest first
    labels: list[str] = field(default_factory=list)  # label names ("Priority")


@dataclass
class BoardList:
    name: str
    cards: list[Card] = field(default_factory=list)
    archived: bool = False


@dataclass
class Board:
    name: str
    workspace: str = WORKSPACE
    visibility: str = "Workspace"  # one of VISIBILITIES
    lists: list[BoardList] = field(default_factory=list)
    starred: bool = False
    template: str = ""  # the template it was made from, "" for a blank board
    offline: bool = False  # "Make available offline"
    pinned: bool = False  # pinned to the home screen
    colour: int = 0  # index into COLOURS

    def open_lists(self) -> list[BoardList]:
        return [lst for lst in self.lists if not lst.archived]

    def cards(self) -> list[Card]:
        return [c for lst in self.lists if not lst.archived for c in lst.cards]


@dataclass
class Notification:
    who: str
    text: str
    board: str
    when: str  # "2h ago"
    unread: bool = True


def _default_boards() -> list[Board]:
    return [Board("Website Redesign", lists=[
                BoardList("To Do", [Card("Update hero image", labels=["Design"]), Card("Fix footer links")]),
                BoardList("Doing", [Card("New pricing page", due="Nov 28, 5:00 PM")]),
                BoardList("Done", [Card("Pick the fonts")])], starred=True, colour=0),
            Board("Weekly Planning", lists=[
                BoardList("Goals", [Card("Run 3 times")]), BoardList("Monday", [Card("Team sync")])],
                colour=2)]


def _default_notifications() -> list[Notification]:
    return [Notification("Sam Lee", "added you to the board", "Website Redesign", "2h ago"),
            Notification("Priya Shah", "commented on the card New pricing page", "Website Redesign", "yesterday",
                         unread=False)]


@dataclass
class TrelloState:
    boards: list[Board] = field(default_factory=_default_boards)
    workspaces: list[str] = field(default_factory=lambda: [WORKSPACE])
    notifications: list[Notification] = field(default_factory=_default_notifications)
    signed_in: bool = True
    theme: str = "System default"  # one of THEMES
    color_blind: bool = False  # "Color blind friendly mode"
    show_label_names: bool = False  # "Show label names on card front"
    animations: bool = True  # "Enable animations"
    notifications_allowed: bool = False
    opened: bool = False  # the app was opened (signed in, on the boards home)
    visited: list[str] = field(default_factory=list)  # "notifications", "settings", "workspace_menu", ...
    searches: list[str] = field(default_factory=list)  # queries submitted
    copied_links: list[str] = field(default_factory=list)  # boards whose link was copied
    archived_lists: list[tuple[str, str]] = field(default_factory=list)  # (board, list)
    logged_out: int = 0  # times the member logged out

    def board(self, name: str) -> Board | None:
        return next((b for b in self.boards if b.name == name), None)


# ------------------------------------------------------------------ dynamics pools
#: (board name, {list: [card titles]}); none is "School", "Team Goals" or a template's name.
BOARD_POOL = (
    ("Website Redesign", {"To Do": ["Update hero image", "Fix footer links"], "Doing": ["New pricing page"],
                          "Done": ["Pick the fonts"]}),
    ("Product Roadmap", {"Q1": ["Offline mode", "Dark theme polish"], "Q2": ["Calendar view"]}),
    ("Marketing Plan", {"Ideas": ["Spring campaign", "Newsletter"], "In progress": ["Blog post: tips"]}),
    ("Weekly Planning", {"Goals": ["Run 3 times"], "Monday": ["Team sync"]}),
    ("Home Renovation", {"To buy": ["Paint", "Tiles"], "Done": ["Measure the kitchen"]}),
    ("Reading List", {"Want to read": ["Dune", "The Hobbit"], "Reading": ["Project Hail Mary"]}),
    ("Trip to Lisbon", {"Plan": ["Book hotel", "Museum tickets"], "Packing": ["Adapter"]}),
)
WORKSPACE_POOL = ("Marketing Team", "Side Projects")
DUE_POOL = ("Nov 26, 9:00 AM", "Nov 28, 5:00 PM", "Dec 1, 12:00 PM", "Dec 5, 9:00 AM", "")
PEOPLE = ("Sam Lee", "Priya Shah", "Jordan Kim", "Alex Morgan", "Maria Garcia")
NOTE_TEXTS = ("added you to the board", "moved the card Fix footer links to Done on",
              "mentioned you on the card New pricing page in", "changed the due date of a card on",
              "commented on a card on")
WHEN_POOL = ("just now", "5m ago", "1h ago", "2h ago", "yesterday", "Nov 22", "Nov 20")
COMMENT_POOL = ("Looks good to me", "Can we move this to next week?", "Done, see the attachment")
