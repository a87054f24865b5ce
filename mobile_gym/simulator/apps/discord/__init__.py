"""Discord (com.discord), signed in as "agentian": the Servers tab (server rail, the
selected server's text and voice channels, the server sheet), channel chat, voice
channels, server settings (Overview with the icon upload, Channels: edit / delete,
Create Channel with "Private Channel"), "Create Your Server" (own or from a template),
Messages (Add Friends: copy the invite link), Notifications, You (Edit Profile avatar,
custom status with "Clear After") and user settings (Privacy & Safety, Friend Requests,
Notifications).

Modules: `model` (state), `screens` (the pages of its one activity, and dialogs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.prompts import NotificationPermission, WhatsNew
from mobile_gym.simulator.apps.discord.model import (
    CLEAR_AFTER, DM_SPAM, KINDS, MY_SERVER, PURPOSES, STATUSES, TEMPLATES, TEXT, Channel,
    DirectMessage, DiscordState, Message, Notice, Server, new_channels,
)
from mobile_gym.simulator.apps.discord.screens import BLURPLE, PKG, Main, NitroUpsell

__all__ = ["Channel", "Discord", "DiscordState", "Message", "Notice", "Server"]

FRIENDS = ("nova_dev", "pixelpanda", "kaito", "marisol", "quietfox", "dr.byte", "lumen", "oakley")
CHAT = ("anyone up for a game tonight?", "lol that clip was wild", "pushed the fix, can you check?",
        "good morning everyone", "who's joining voice later?", "brb grabbing coffee",
        "new patch notes are out", "that meme is 10/10", "see you all at 8", "gg everyone")
TIMES = ("Today at 7:02 AM", "Today at 7:48 AM", "Today at 8:15 AM", "Today at 8:31 AM", "Today at 8:57 AM",
         "Today at 9:05 AM", "Today at 9:12 AM", "Today at 9:20 AM")
#: Community servers the user is in (not the owner): name, text channels, voice channels.
COMMUNITIES = (("Pixel Art Club", ("welcome", "showcase", "feedback"), ("Studio",)),
               ("Lo-fi Lounge", ("rules", "now-playing", "chill-chat"), ("Listening Room",)),
               ("Python Devs", ("announcements", "help", "off-topic"), ("Pair Programming",)),
               ("Book Nook", ("welcome", "current-read", "recommendations"), ("Reading Room",)))
PHOTO_DAYS = ("20261124_091532", "20261123_184407", "20261122_174210", "20261121_080955", "20261120_132018",
              "20261118_120301", "20261115_193344", "20261112_071205", "20261109_160040")


def default_communities() -> list[Server]:
    return [community(*COMMUNITIES[0]), community(*COMMUNITIES[2])]


def community(name: str, text: tuple[str, ...], voice: tuple[str, ...]) -> Server:
    return Server(name, new_channels(text, voice), owner=False)


def default_notices() -> list[Notice]:
    return [Notice(1, "nova_dev", "@agentian are you joining the jam?", "Pixel Art Club", "showcase", "2h"),
            Notice(2, "kaito", "@agentian thanks for the help!", "Python Devs", "help", "1d")]


class Discord(App):
    package = PKG
    label = "Discord"
    key = "discord"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "app"
    color = (88, 101, 242)
    State = DiscordState
    stream = 7

    def __init__(self, sys) -> None:
        super().__init__(sys)
        s = self.state
        s.servers = default_communities() + s.servers  # the user's own server below the communities
        for srv in s.servers:
            for notice in default_notices():
                if notice.server == srv.name:
                    srv.channel(notice.channel, TEXT).messages.append(Message(notice.author, notice.text,
                                                                              "Today at 7:40 AM"))
        s.notifications = default_notices()
        s.dms = [DirectMessage("nova_dev", "see you at 8", "2h"), DirectMessage("kaito", "thanks!", "1d")]

    def main(self) -> Activity:
        return Main(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Which community servers (1-3) and in what order, chatter in the channels,
        the notifications (1-4) and DMs, and the phone's photos (3-6, newest first)."""
        s = self.state
        mine = [srv for srv in s.servers if srv.owner]
        picks = rng.choice(len(COMMUNITIES), size=int(rng.integers(1, 4)), replace=False)
        communities = [community(*COMMUNITIES[int(i)]) for i in picks]
        for srv in communities + mine:
            for ch in srv.text_channels():
                n = int(rng.integers(0, 4))
                start = int(rng.integers(0, len(TIMES) - n + 1))
                ch.messages = [m for m in ch.messages if srv.owner] + [
                    Message(FRIENDS[int(rng.integers(len(FRIENDS)))], CHAT[int(rng.integers(len(CHAT)))],
                            TIMES[start + k]) for k in range(n)]
        notices = []
        for k in range(int(rng.integers(1, 5))):
            srv = communities[int(rng.integers(len(communities)))]
            ch = srv.text_channels()[int(rng.integers(len(srv.text_channels())))]
            author = FRIENDS[int(rng.integers(len(FRIENDS)))]
            text = f"@agentian {CHAT[int(rng.integers(len(CHAT)))]}"
            ch.messages.append(Message(author, text, TIMES[-1]))
            notices.append(Notice(k + 1, author, text, srv.name, ch.name, ("5m", "1h", "3h", "1d", "2d")[k]))
        s.notifications = notices
        friends = rng.choice(len(FRIENDS), size=int(rng.integers(1, 5)), replace=False)
        s.dms = [DirectMessage(FRIENDS[int(i)], CHAT[int(rng.integers(len(CHAT)))], ("1h", "5h", "1d", "3d")[k])
                 for k, i in enumerate(friends)]
        s.servers = communities + mine
        days = sorted(rng.choice(len(PHOTO_DAYS), size=int(rng.integers(3, 7)), replace=False))
        s.photos = [f"IMG_{PHOTO_DAYS[int(i)]}.jpg" for i in days]

    def popups(self, activity: Activity) -> list[Dialog]:
        if isinstance(activity, Main):
            return [NotificationPermission("Discord", activity.allow_notifications, BLURPLE), NitroUpsell(),
                    WhatsNew(PKG, "What's New", "Voice messages, a fresh look for your servers and faster search.")]
        return []

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup: ``servers`` as mappings {name, channels: [{name, kind, private}],
        template, owner, allow_dms, icon} are added to the rail (below the ones there
        are; a server of the same name is updated); the other fields as they are."""
        values = dict(values)
        servers = values.pop("servers", None)
        super().configure(values)
        if servers is not None:
            if not isinstance(servers, (list, tuple)):
                raise SimulatorError(f"discord 'servers' must be a list, got {servers!r}")
            for given in servers:
                self._add_server(given)
        s = self.state
        checks = (("dm_spam_filter", DM_SPAM), ("status", STATUSES), ("clear_after", ("",) + CLEAR_AFTER))
        for name, choices in checks:
            if getattr(s, name) not in choices:
                raise SimulatorError(f"discord {name} must be one of {list(choices)}, got {getattr(s, name)!r}")
        if s.selected and s.server(s.selected) is None:
            raise SimulatorError(f"discord selected server {s.selected!r} is not one of "
                                 f"{[x.name for x in s.servers]}")
        if s.server(MY_SERVER) is None:
            raise SimulatorError(f"discord needs the server {MY_SERVER!r}")

    def _add_server(self, given: Any) -> None:
        if not isinstance(given, Mapping) or not isinstance(given.get("name"), str):
            raise SimulatorError(f"discord server must be a mapping with a 'name', got {given!r}")
        unknown = set(given) - {"name", "channels", "template", "owner", "allow_dms", "icon", "purpose"}
        if unknown:
            raise SimulatorError(f"discord server has no field(s) {sorted(unknown)}")
        template = given.get("template", "")
        if template not in TEMPLATES:
            raise SimulatorError(f"discord template must be one of {[t for t in TEMPLATES if t]}, got {template!r}")
        purpose = given.get("purpose", "")
        if purpose not in PURPOSES:
            raise SimulatorError(f"discord purpose must be one of {list(PURPOSES)}, got {purpose!r}")
        srv = self.state.server(given["name"])
        if srv is None:
            srv = Server(given["name"], new_channels(*TEMPLATES[template]))
            self.state.servers.append(srv)
        srv.template, srv.purpose = template, purpose
        for name in ("owner", "allow_dms"):
            if name in given:
                if not isinstance(given[name], bool):
                    raise SimulatorError(f"discord server field {name!r} expects a bool, got {given[name]!r}")
                setattr(srv, name, given[name])
        if "icon" in given:
            if not isinstance(given["icon"], str):
                raise SimulatorError(f"discord server icon must be a photo name, got {given['icon']!r}")
            srv.icon = given["icon"]
        channels = given.get("channels")
        if channels is not None:
            if not isinstance(channels, (list, tuple)):
                raise SimulatorError(f"discord server 'channels' must be a list, got {channels!r}")
            srv.channels = [_channel(c) for c in channels]


def _channel(value: Any) -> Channel:
    if isinstance(value, str):
        return Channel(value)
    if not isinstance(value, Mapping) or not isinstance(value.get("name"), str):
        raise SimulatorError(f"discord channel must be a name or a mapping with 'name', got {value!r}")
    unknown = set(value) - {"name", "kind", "private"}
    if unknown:
        raise SimulatorError(f"discord channel has no field(s) {sorted(unknown)}")
    kind = value.get("kind", TEXT)
    if kind not in KINDS:
        raise SimulatorError(f"discord channel kind must be one of {list(KINDS)}, got {kind!r}")
    private = value.get("private", False)
    if not isinstance(private, bool):
        raise SimulatorError(f"discord channel 'private' expects a bool, got {private!r}")
    return Channel(value["name"], kind, private)
