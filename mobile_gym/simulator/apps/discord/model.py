"""Discord's state: the servers the user ("agentian") is in, their channels and messages,
the voice channel joined, the notifications inbox, the device's photos (for icons and
avatars), the profile (avatar, custom status) and user settings; plus what the user
opened, for the oracles of "go to ..." tasks."""

from __future__ import annotations

from dataclasses import dataclass, field

USERNAME = "agentian"
MY_SERVER = "agentian's server"
TEXT, VOICE = "text", "voice"
KINDS = (TEXT, VOICE)
DM_SPAM = ("Filter all direct messages", "Filter direct messages from non-friends",
           "Do not filter direct messages")
CLEAR_AFTER = ("Today", "4 hours", "1 hour", "30 minutes", "Don't clear")
PURPOSES = ("club", "friends", "")  # "For a club or community", "For me and my friends", skipped
STATUSES = ("Online", "Idle", "Do Not Disturb", "Invisible")
#: The templates of "Create Your Server" and the channels each makes: (text, voice).
TEMPLATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "": (("general",), ("General",)),
    "Gaming": (("general", "clips-and-highlights"), ("Lobby", "Gaming")),
    "School Club": (("welcome-and-rules", "announcements", "resources", "general", "meeting-plans"),
                    ("Lounge", "Meeting Room")),
    "Study Group": (("welcome-and-rules", "notes-resources", "homework-help", "session-planning",
                     "off-topic"), ("Lounge", "Study Room 1", "Study Room 2")),
    "Friends": (("general", "games", "music"), ("Lounge", "Stream Room")),
    "Artists & Creators": (("welcome-and-rules", "announcements", "showcase", "general"), ("Lounge",)),
    "Local Community": (("welcome-and-rules", "announcements", "resources", "general", "events"),
                        ("Lounge", "Meeting Room")),
}


@dataclass
class Message:
    author: str
    text: str
    time: str = "Today at 9:00 AM"


@dataclass
class Channel:
    name: str
    kind: str = TEXT  # "text" or "voice"
    private: bool = False
    messages: list[Message] = field(default_factory=list)


def new_channels(text: tuple[str, ...], voice: tuple[str, ...]) -> list[Channel]:
    """Empty text channels named ``text``, then voice channels named ``voice`` (a template's)."""
    return [Channel(c, TEXT) for c in text] + [Channel(c, VOICE) for c in voice]


@dataclass
class Server:
    name: str
    channels: list[Channel] = field(default_factory=list)
    owner: bool = True  # the user owns it (server settings, channels)
    icon: str = ""  # the photo uploaded as its icon, "" for the initials
    template: str = ""  # the template it was created from ("" for "Create My Own")
    purpose: str = ""  # "club", "friends" or "" (the question skipped)
    allow_dms: bool = True  # the user's "Allow Direct Messages" in this server
    created: bool = False  # created in this run

    def channel(self, name: str, kind: str | None = None) -> Channel | None:
        return next((c for c in self.channels if c.name == name and kind in (None, c.kind)), None)

    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels if c.kind == TEXT]

    def voice_channels(self) -> list[Channel]:
        return [c for c in self.channels if c.kind == VOICE]


@dataclass
class Notice:
    """A notifications-tab item: who, what, where (server, channel) it points to."""

    id: int
    author: str
    text: str
    server: str
    channel: str
    time: str = "2h"


@dataclass
class DirectMessage:
    friend: str
    last: str
    time: str = "1d"


def my_server() -> Server:
    return Server(MY_SERVER, [
        Channel("general", TEXT, messages=[Message("Discord", "Welcome to your server, agentian!",
                                                   "Yesterday at 6:12 PM")]),
        Channel("Gaming", VOICE), Channel("Lobby", VOICE)])


@dataclass
class DiscordState:
    servers: list[Server] = field(default_factory=lambda: [my_server()])
    selected: str = ""  # the server shown on the Servers tab; "" for the first in the rail
    voice: list[str] = field(default_factory=list)  # [server, channel] of the voice channel joined
    notifications: list[Notice] = field(default_factory=list)
    dms: list[DirectMessage] = field(default_factory=list)
    photos: list[str] = field(default_factory=lambda: ["IMG_20261124_091532.jpg", "IMG_20261122_174210.jpg",
                                                      "IMG_20261118_120301.jpg"])  # newest first
    avatar: str = ""  # the photo uploaded as avatar, "" for the default
    status: str = "Online"
    custom_status: str = ""
    clear_after: str = ""  # the custom status's "Clear after" when set
    dm_spam_filter: str = DM_SPAM[1]
    allow_server_dms: bool = True  # Privacy & Safety: "Allow direct messages from server members"
    improve_discord: bool = True  # "Use data to improve Discord"
    customize_experience: bool = True  # "Use data to customize my Discord experience"
    friend_requests_everyone: bool = True
    friend_requests_friends_of_friends: bool = True
    friend_requests_server_members: bool = True
    in_app_notifications: bool = True  # "Get notifications within Discord"
    push_notifications: bool = True
    invite_copied: bool = False  # "Copy Link" on Add Friends
    clipboard: str = ""
    opened_notification: int = 0  # id of the notification opened last (0: none)
    deleted_channels: list[str] = field(default_factory=list)  # "server/channel"
    visited: list[str] = field(default_factory=list)  # "settings", "notification_settings", ...
    notifications_allowed: bool = False  # the Android permission prompt

    def server(self, name: str) -> Server | None:
        return next((s for s in self.servers if s.name == name), None)

    def current(self) -> Server | None:
        return self.server(self.selected) or (self.servers[0] if self.servers else None)
