"""Evernote's state: the account (signed in as "agentian"), notes (with text, headings
and checkboxes), tasks, tags, the Home widgets and background, settings (theme, camera,
create button, sync) and what the user opened, created and moved to Trash."""

from __future__ import annotations

from dataclasses import dataclass, field

ACCOUNT_NAME = "agentian"
ACCOUNT_EMAIL = "agentian.mobilegym@gmail.com"
DEFAULT_NOTEBOOK = "First Notebook"
NOTEBOOKS = ("First Notebook", "Work", "Travel", "Recipes")

#: Every Home widget, in the order "Add widgets" lists them.
WIDGETS = ("Notes", "Recently Captured", "Scratch Pad", "Pinned Note", "My Tasks", "Calendar",
           "Notebooks", "Tags", "Shortcuts")
DEFAULT_WIDGETS = ("Notes", "Recently Captured", "Scratch Pad", "Pinned Note")
BACKGROUNDS = ("Default", "Mountains", "Ocean", "Forest", "Desert", "Night sky")
THEMES = ("System default", "Light", "Dark")
CREATE_BUTTONS = ("Standard", "Orbs")
TEMPLATES = (("To-Do List", "Track what needs to get done, by priority"),
             ("Meeting Notes", "Agenda, attendees, action items"),
             ("Weekly Planner", "Plan your week at a glance"),
             ("Project Plan", "Goals, milestones and owners"),
             ("Daily Reflection", "A few minutes to look back on the day"))
#: The blocks a template adds: (kind, text).
TEMPLATE_BLOCKS = {
    "To-Do List": (("heading", "Priority"), ("check", "Most important task"), ("check", "Next task"),
                   ("heading", "Later"), ("check", "Something for later")),
    "Meeting Notes": (("heading", "Agenda"), ("text", "Topics to cover"), ("heading", "Action items"),
                      ("check", "Follow up")),
    "Weekly Planner": (("heading", "Monday"), ("text", ""), ("heading", "Tuesday"), ("text", "")),
    "Project Plan": (("heading", "Goals"), ("text", "What success looks like"), ("heading", "Milestones")),
    "Daily Reflection": (("heading", "Today I learned"), ("text", ""), ("heading", "Grateful for")),
}
BLOCK_KINDS = ("text", "heading", "check")


@dataclass
class Block:
    kind: str = "text"  # one of BLOCK_KINDS
    text: str = ""
    checked: bool = False


@dataclass
class Note:
    id: int = 0
    title: str = ""
    blocks: list[Block] = field(default_factory=list)
    notebook: str = DEFAULT_NOTEBOOK
    tags: list[str] = field(default_factory=list)
    updated: str = "Nov 20"
    offline: bool = False  # "Available offline"
    trashed: bool = False
    template: str = ""  # the template applied last ("To-Do List"), "" for none

    def snippet(self) -> str:
        return " ".join(b.text for b in self.blocks if b.text)[:80]

    def checkboxes(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "check"]


@dataclass
class TaskItem:
    title: str
    due: str = ""
    done: bool = False


# The canonical account (dynamics none); `vary` draws another from the pools.
NOTE_POOL = (
    ("Grocery list", "Milk, eggs, spinach, coffee beans and bread", "First Notebook", ("shopping",)),
    ("Trip to Lisbon", "Flights booked for May 12. Look up the tram 28 route and Belém", "Travel",
     ("travel",)),
    ("Team meeting notes", "Discussed the Q3 roadmap; Dana owns the launch checklist", "Work", ("work",)),
    ("Book recommendations", "The Overstory, Piranesi, Project Hail Mary", "First Notebook", ("reading",)),
    ("Banana bread recipe", "3 ripe bananas, 1/3 cup melted butter, 1 tsp baking soda", "Recipes",
     ("recipes",)),
    ("Workout plan", "Mon: run 5k. Wed: strength. Fri: yoga", "First Notebook", ()),
    ("Project ideas", "A habit tracker that works offline; a plant watering reminder", "Work",
     ("work", "ideas")),
    ("Gift ideas", "Mom: scarf. Sam: board game. Alex: headphones", "First Notebook", ("shopping",)),
    ("Reading notes", "Chapter 4: deliberate practice needs feedback", "First Notebook", ("reading",)),
    ("Apartment checklist", "Check the water pressure and ask about the parking", "First Notebook", ()),
)
DATES = ("Nov 20", "Nov 19", "Nov 18", "Nov 15", "Nov 12", "Nov 9", "Nov 3", "Oct 28", "Oct 21", "Oct 14",
         "Oct 2", "Sep 30")
TASK_POOL = (("Renew gym membership", "Nov 24"), ("Send the invoice", "Today"), ("Call the plumber", ""),
             ("Prepare slides for Monday", "Nov 27"), ("Water the plants", ""), ("Book dentist appointment",
                                                                                "Dec 1"),
             ("Pay rent", "Dec 1"), ("Reply to Jordan", ""))
SYNC_TIMES = ("5 minutes ago", "1 hour ago", "2 hours ago", "Yesterday")


def seed_notes(picks: list[int] | None = None, dates: tuple[str, ...] = DATES) -> list[Note]:
    picks = list(range(5)) if picks is None else picks
    notes = []
    for n, i in enumerate(picks):
        title, body, notebook, tags = NOTE_POOL[i]
        notes.append(Note(n + 1, title, [Block("text", body)], notebook, list(tags), dates[n]))
    return notes


def seed_tasks(picks: list[int] | None = None) -> list[TaskItem]:
    picks = [0, 1, 2] if picks is None else picks
    return [TaskItem(*TASK_POOL[i]) for i in picks]


@dataclass
class EvernoteState:
    notes: list[Note] = field(default_factory=seed_notes)
    tasks: list[TaskItem] = field(default_factory=seed_tasks)
    widgets: list[str] = field(default_factory=lambda: list(DEFAULT_WIDGETS))  # Home, in order
    background: str = "Default"  # one of BACKGROUNDS
    theme: str = "System default"  # one of THEMES
    create_button: str = "Standard"  # one of CREATE_BUTTONS
    save_photos: bool = False  # Camera: "Save photos in photo gallery"
    scan_documents: bool = True  # Camera: "Automatically detect documents"
    wifi_only_sync: bool = False  # Sync: "Sync on Wi-Fi only"
    last_sync: str = "2 hours ago"
    syncs: int = 0  # "Sync now" taps
    signed_in: bool = True
    notifications_allowed: bool = False
    opened: bool = False  # the app was opened
    visited: list[str] = field(default_factory=list)  # "notes", "tasks", "tags", "customize", "settings", ...
    created: list[int] = field(default_factory=list)  # ids of notes the user created
    trashed: list[int] = field(default_factory=list)  # ids the user moved to Trash (and did not restore)

    def note(self, nid: int) -> Note | None:
        return next((n for n in self.notes if n.id == nid), None)

    def live_notes(self) -> list[Note]:
        return [n for n in self.notes if not n.trashed]

    def tag_counts(self) -> list[tuple[str, int]]:
        counts: dict[str, int] = {}
        for n in self.live_notes():
            for t in n.tags:
                counts[t] = counts.get(t, 0) + 1
        return sorted(counts.items())
