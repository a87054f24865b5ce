"""Gmail's state: conversations (folder, category, star, read), labels, settings, and
the log of folders and searches shown (what oracles read)."""

from __future__ import annotations

from dataclasses import dataclass, field

ACCOUNT = "alex.morgan.mobilegym@gmail.com"
ACCOUNT_NAME = "Alex Morgan"
CATEGORIES = ("primary", "social", "promotions", "updates", "forums")
CATEGORY_LABELS = {"primary": "Primary", "social": "Social", "promotions": "Promotions",
                   "updates": "Updates", "forums": "Forums"}
FOLDERS = ("inbox", "starred", "snoozed", "important", "sent", "scheduled", "drafts", "all",
           "spam", "trash")
FOLDER_LABELS = {"inbox": "Primary", "starred": "Starred", "snoozed": "Snoozed",
                 "important": "Important", "sent": "Sent", "scheduled": "Scheduled",
                 "drafts": "Drafts", "all": "All mail", "spam": "Spam", "trash": "Trash"}
NOTIFICATIONS = ("all", "high_priority", "none")
NOTIFICATION_LABELS = {"all": "All", "high_priority": "High priority only", "none": "None"}
# Gmail's search operator for starred mail; a bare "starred" is a word searched for, as
# in the real app.
STARRED_QUERIES = ("is:starred",)


@dataclass
class Message:
    id: int = 0
    sender: str = ""
    subject: str = ""
    snippet: str = ""
    time: str = ""  # as the list shows it: "9:41 AM", "Nov 3"
    folder: str = "inbox"  # inbox, sent, drafts, spam, trash
    category: str = "primary"
    starred: bool = False
    unread: bool = True
    labels: list[str] = field(default_factory=list)


# (sender, subject, snippet, category)
POOL = (
    ("Google", "Security alert", "A new sign-in on Android. We noticed a new sign-in to your Google Account", "updates"),
    ("Jamie Chen", "Lunch on Friday?", "Hey! Are you free for lunch this Friday? I found a new ramen place", "primary"),
    ("Priya Patel", "Project update: Q4 roadmap", "Hi all, attached is the latest draft of the roadmap for review", "primary"),
    ("Amazon.com", "Your order has shipped", "Your package with 2 items is on the way and will arrive Thursday", "updates"),
    ("LinkedIn", "You appeared in 9 searches this week", "See who's looking at your profile and grow your network", "social"),
    ("Sam Rivera", "Photos from the weekend", "Here are the pictures from the hike. The view from the top was", "primary"),
    ("Spotify", "Your Daily Mix is ready", "New music picked for you, based on what you've been listening to", "promotions"),
    ("Google Calendar", "Invitation: Team sync @ Tue 10am", "You have been invited to the following event: Team sync", "updates"),
    ("Mom", "Dinner on Sunday", "Don't forget dinner at our place on Sunday at 6. Bring dessert!", "primary"),
    ("GitHub", "[mobile-gym] New issue opened", "A new issue was opened in the repository you are watching", "updates"),
    ("Target", "Weekend sale: up to 40% off", "Shop the deals on home, kitchen and more this weekend only", "promotions"),
    ("Reddit", "Trending on r/android", "Top posts from communities you follow this week", "forums"),
    ("Alex Kim", "Re: Apartment viewing", "Thanks for getting back to me, Saturday at 11 works for me", "primary"),
    ("Medium Daily Digest", "Stories picked for you", "Why every developer should learn to write well, and more", "promotions"),
    ("Facebook", "You have 3 new notifications", "Jordan commented on your photo and 2 others reacted", "social"),
)
SPAM_POOL = (
    ("Prize Center", "Congratulations! You have won", "Claim your $1,000 gift card now before it expires today"),
    ("Crypto Profits", "Double your Bitcoin in 24 hours", "Our guaranteed trading bot made members rich this month"),
    ("Pharmacy Deals", "Cheap meds, no prescription", "Limited time offer on all products, order now and save"),
    ("Bank Security Team", "Urgent: verify your account", "Your account has been suspended, click the link to verify"),
)
TIMES = ("9:41 AM", "8:15 AM", "7:02 AM", "Yesterday", "Nov 22", "Nov 21", "Nov 19", "Nov 18",
         "Nov 15", "Nov 12", "Nov 10", "Nov 7", "Nov 3", "Oct 30", "Oct 28", "Oct 25", "Oct 20")


def default_messages() -> list[Message]:
    """The canonical mailbox (dynamics ``none``): eight inbox conversations, two starred,
    two spam."""
    inbox = [POOL[i] for i in (1, 0, 2, 3, 5, 8, 6, 4)]
    out = [Message(i + 1, s, subj, snip, TIMES[i], "inbox", cat, starred=i in (2, 5), unread=i < 3)
           for i, (s, subj, snip, cat) in enumerate(inbox)]
    out += [Message(len(out) + j + 1, s, subj, snip, TIMES[len(out) + j], "spam", "primary", unread=True)
            for j, (s, subj, snip) in enumerate(SPAM_POOL[:2])]
    return out


@dataclass
class GmailState:
    account: str = ACCOUNT
    messages: list[Message] = field(default_factory=default_messages)
    labels: list[str] = field(default_factory=lambda: ["Receipts", "Travel", "Work"])
    notifications: str = "all"  # "all", "high_priority" or "none"
    conversation_view: bool = True
    visited: list[str] = field(default_factory=list)  # folders / screens shown: "inbox", "all", "settings", "search"
    # (results of a query), "search:starred" (of the is:starred operator)
    searches: list[str] = field(default_factory=list)
    opened: list[int] = field(default_factory=list)  # conversations opened
    deleted: list[int] = field(default_factory=list)  # conversations moved to Trash by the user
    starred_by_user: list[int] = field(default_factory=list)
    moved: list[tuple[int, str, str]] = field(default_factory=list)  # (id, from category, to)
    spam_emptied: int = 0  # conversations deleted forever from Spam

    def in_folder(self, folder: str) -> list[Message]:
        m = self.messages
        if folder == "inbox":
            return [x for x in m if x.folder == "inbox" and x.category == "primary"]
        if folder in CATEGORIES:
            return [x for x in m if x.folder == "inbox" and x.category == folder]
        if folder == "starred":
            return [x for x in m if x.starred and x.folder not in ("spam", "trash")]
        if folder == "all":
            return [x for x in m if x.folder not in ("spam", "trash")]
        if folder in ("spam", "trash", "sent", "drafts"):
            return [x for x in m if x.folder == folder]
        if folder.startswith("label:"):
            return [x for x in m if folder[6:] in x.labels and x.folder not in ("spam", "trash")]
        return []

    def search(self, query: str) -> list[Message]:
        q = query.strip().lower()
        if q in STARRED_QUERIES:
            return self.in_folder("starred")
        return [x for x in self.in_folder("all")
                if q and any(q in t.lower() for t in (x.sender, x.subject, x.snippet))]

    def message(self, mid: int) -> Message | None:
        return next((x for x in self.messages if x.id == mid), None)
