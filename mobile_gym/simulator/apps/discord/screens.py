"""Discord's screens. The app is one Android activity (``com.discord.main.MainActivity``,
the React Native shell): its pages are `Activity` objects of that name on the back stack.

- `Main`: the bottom tabs Servers (server rail + the selected server's channels), Messages
  (direct messages, "Add Friends"), Notifications and You (profile, custom status, "Edit
  Profile", the settings gear);
- a channel's chat (`ChannelPage`; a long press on a message opens its actions,
  `MessageActions`: Reply, Copy Text, Delete Message), the voice channel sheet
  (`VoiceSheet`), the server sheet (`GuildSheet`: Settings, Create Channel, "Allow
  Direct Messages");
- server settings (`ServerSettings`, `Overview` with the icon upload, `ChannelsSettings`,
  `EditChannel` with "Delete Channel"), `CreateChannel`;
- add a server (`AddServer` -> `ServerPurpose` -> `CustomizeServer`);
- `AddFriends` (copy the invite link), user settings (`UserSettings`, `PrivacySafety`,
  `FriendRequests`, `NotificationSettings`), `EditProfile`, `CustomStatus`, the photo
  picker (`PhotoPicker`) and the first-run popups.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from mobile_gym.simulator.app import Activity, Dialog
from mobile_gym.simulator.apps.discord.model import (
    CLEAR_AFTER, DM_SPAM, TEMPLATES, TEXT, USERNAME, VOICE, Channel, Message, Server, new_channels,
)
from mobile_gym.simulator.runtime import KEYBOARD_DP
from mobile_gym.simulator.views import (
    Button, Column, Divider, EditText, Icon, Row, Scroll, Spacer, Stack, Switch, Text, View,
)

PKG = "com.discord"
ID = PKG + ":id/"
MAIN = "com.discord.main.MainActivity"
BLURPLE = (88, 101, 242)
RED = (218, 55, 60)
GREEN = (35, 165, 89)
MUTED = (92, 94, 102)
RAIL_BG = (227, 229, 232)
RADIO = "android.widget.RadioButton"
TABS = (("servers", "Servers", "home"), ("messages", "Messages", "person"),
        ("notifications", "Notifications", "notifications"), ("you", "You", "person"))
NOW = "Today at 9:41 AM"
BOTTOM = 10 ** 7  # a scroll offset past the end: the layout clamps it to the last item


def initials(name: str) -> str:
    return "".join(w[0] for w in name.replace("'", "").split() if w)[:3] or "?"


def channel_name(typed: str) -> str:
    """Discord's text channel names: lower case, spaces become dashes."""
    return "-".join(typed.strip().lower().split())


def toolbar(act: Activity, title: str, subtitle: str = "", action: View | None = None) -> View:
    return Row(
        Icon("back", desc="Back", on_click=act.finish, rid=ID + "toolbar_back"),
        Column(Text(title, size=18, bold=True, rid=ID + "toolbar_title"),
               Text(subtitle, size=12, style="muted", rid=ID + "toolbar_subtitle") if subtitle else None,
               pad=(4, 10 if subtitle else 16, 0, 0)),
        action,
        h=64, pad=(4, 0, 8, 0), rid=ID + "toolbar", style="appbar",
    )


def section(text: str) -> View:
    return Row(Text(text.upper(), size=12, bold=True, style="muted", rid=ID + "settings_section_header"),
               h=36, pad=(16, 14, 16, 0))


def padded(view: View, pad: tuple[float, float, float, float], h: float | None = None) -> View:
    """A leaf inset by ``pad`` (leaves draw their text at their own edge)."""
    return Row(view, h=h, pad=pad)


def nav_row(label: str, on_click: Callable[[], None] | None, icon: str = "chevron", value: str = "") -> View:
    return Row(Text(label, size=16, rid=ID + "settings_item_label"),
               Text(value, size=14, style="muted", w=120, align="right", rid=ID + "settings_item_value") if value
               else None,
               Icon(icon, w=32, fg=MUTED), h=56, pad=(16, 0, 12, 0), on_click=on_click)


def switch_row(label: str, summary: str, on: bool, handler: Callable[[], None], rid: str) -> View:
    return Row(Column(Text(label, size=16, lines=2 if len(label) > 30 else 1, rid=ID + "settings_item_label"),
                      Text(summary, size=13, style="muted", lines=2, rid=ID + "settings_item_subtext")
                      if summary else None),
               Switch(on, handler, rid=ID + rid),
               pad=(16, 8, 16, 8), gap=8, on_click=handler)


def radio_row(label: str, selected: bool, handler: Callable[[], None], rid: str = "radio_option") -> View:
    """A RadioButton row; the button carries the option as its content-desc and ``checked``."""
    mark = Icon("radio_on" if selected else "radio_off", w=48, fg=BLURPLE if selected else MUTED)
    return Row(Text(label, size=16, lines=2, rid=ID + rid + "_label"), mark, cls=RADIO, checkable=True,
               checked=selected, desc=label, h=56, pad=(16, 0, 8, 0), on_click=handler, rid=ID + rid)


def photo_grid(photos: list[str], pick: Callable[[str], None]) -> list[View]:
    rows = []
    for i in range(0, len(photos), 3):
        cells = [Stack(Icon("display", w=None, h=112, bg=(200, 204, 214), align="center"),
                       desc=f"Photo {name}", on_click=partial(pick, name), rid=ID + "media_picker_item",
                       h=116, weight=1, pad=2)
                 for name in photos[i:i + 3]]
        cells += [Spacer(weight=1, h=116) for _ in range(3 - len(cells))]
        rows.append(Row(*cells, h=116))
    return rows


# ---------------------------------------------------------------------- the tabs

class Main(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.tab = "servers"

    @property
    def state(self):
        return self.app.state

    def select_tab(self, tab: str) -> None:
        self.tab = tab
        if tab == "notifications":
            self.state.visited.append("notifications")

    def select_server(self, name: str) -> None:
        self.state.selected = name
        self.tab = "servers"

    def open_channel(self, server: str, channel: str) -> None:
        self.start(ChannelPage(self.app, server, channel))

    def open_voice(self, server: str, channel: str) -> None:
        self.sys.show(VoiceSheet(self, server, channel))

    def open_guild_sheet(self, server: str) -> None:
        self.sys.show(GuildSheet(self, server))

    def open_notification(self, notice_id: int) -> None:
        s = self.state
        n = next((x for x in s.notifications if x.id == notice_id), None)
        if n is None:
            return
        s.opened_notification = notice_id
        s.visited.append(f"notification:{notice_id}")
        server = s.server(n.server)
        if server is not None and server.channel(n.channel, TEXT) is not None:
            self.start(ChannelPage(self.app, n.server, n.channel, highlight=n.text))

    def join_voice(self, server: str, channel: str) -> None:
        self.state.voice = [server, channel]

    def leave_voice(self) -> None:
        self.state.voice = []

    def set_allow_dms(self, server: str) -> None:
        srv = self.state.server(server)
        if srv is not None:
            srv.allow_dms = not srv.allow_dms

    def allow_notifications(self, allowed: bool) -> None:
        self.state.notifications_allowed = allowed

    def on_back(self) -> bool:
        if self.tab != "servers":
            self.tab = "servers"
            return True
        return False

    # ------------------------------------------------------------ views
    def build(self) -> View:
        page = {"servers": self.servers_page, "messages": self.messages_page,
                "notifications": self.notifications_page, "you": self.you_page}[self.tab]()
        return Column(page, self.tab_bar())

    def tab_bar(self) -> View:
        items = []
        for key, label, icon in TABS:
            on = key == self.tab
            items.append(Column(Icon(icon, h=32, w=None, fg=BLURPLE if on else MUTED),
                                Text(label, size=11, align="center", fg=BLURPLE if on else MUTED,
                                     rid=ID + "tab_label"),
                                weight=1, h=64, pad=(0, 6, 0, 0), desc=label, selected=on,
                                on_click=partial(self.select_tab, key), rid=ID + f"tab_{key}"))
        return Row(*items, h=64, rid=ID + "tabs", style="appbar")

    def rail(self) -> View:
        s = self.state
        current = s.current()
        icons = [Icon("person", desc="Direct Messages", on_click=partial(self.select_tab, "messages"), h=56, w=56,
                      radius=28, bg=BLURPLE, fg=(255, 255, 255), rid=ID + "guilds_item_dms"), Divider()]
        for srv in s.servers:
            on = srv is current
            icons.append(Stack(
                Text(initials(srv.name) if not srv.icon else "", size=14, bold=True, align="center", h=56),
                Icon("display", h=56, w=56, radius=16, bg=(190, 196, 210)) if srv.icon else None,
                desc=srv.name, on_click=partial(self.select_server, srv.name), selected=on, h=56, w=56,
                radius=16 if on else 28, bg=BLURPLE if on else (255, 255, 255), rid=ID + "guilds_item_icon"))
        icons.append(Icon("add", desc="Add a Server", on_click=self.add_server, h=56, w=56, radius=28,
                          fg=GREEN, bg=(255, 255, 255), rid=ID + "guilds_item_add"))
        icons.append(Icon("search", desc="Explore Discoverable Servers", h=56, w=56, radius=28, fg=GREEN,
                          bg=(255, 255, 255), rid=ID + "guilds_item_explore"))
        return Scroll(*icons, key="rail", w=72, pad=(8, 8, 8, 8), gap=8, bg=RAIL_BG, rid=ID + "guild_list")

    def add_server(self) -> None:
        self.start(AddServer(self.app))

    def servers_page(self) -> View:
        srv = self.state.current()
        return Row(self.rail(), self.channels_panel(srv) if srv is not None else
                   Column(Text("No servers yet", size=16, align="center", h=64), fill=True), fill=True)

    def channel_row(self, srv: Server, ch: Channel) -> View:
        voice = ch.kind == VOICE
        connected = list(self.state.voice) == [srv.name, ch.name]
        icon = "lock" if ch.private else "sound" if voice else "menu"
        return Row(Icon(icon, w=32, fg=MUTED),
                   Text(ch.name, size=16, rid=ID + "channels_item_name", fg=GREEN if connected else None),
                   h=44, pad=(12, 0, 8, 0), gap=4,
                   on_click=partial(self.open_voice if voice else self.open_channel, srv.name, ch.name))

    def channels_panel(self, srv: Server) -> View:
        rows: list[View | None] = [padded(Text("TEXT CHANNELS", size=12, bold=True, style="muted",
                                               rid=ID + "channels_category_name"), (12, 10, 0, 0), 32)]
        rows += [self.channel_row(srv, ch) for ch in srv.text_channels()]
        rows.append(padded(Text("VOICE CHANNELS", size=12, bold=True, style="muted",
                                rid=ID + "channels_category_name"), (12, 10, 0, 0), 32))
        rows += [self.channel_row(srv, ch) for ch in srv.voice_channels()]
        voice = list(self.state.voice)
        return Column(
            Row(Text(srv.name, size=18, bold=True, rid=ID + "guild_header_name"), Icon("expand", w=32),
                h=56, pad=(12, 0, 8, 0), on_click=partial(self.open_guild_sheet, srv.name),
                rid=ID + "guild_header"),
            Row(Button("Invite", None, style="tonal", h=36, rid=ID + "guild_header_invite"),
                Icon("search", desc="Search", h=36, w=48), h=44, pad=(12, 0, 12, 8), gap=8),
            Divider(),
            Scroll(*rows, Spacer(h=16), key="channels", rid=ID + "channels_list"),
            Column(Text("Voice Connected", size=14, bold=True, fg=GREEN, rid=ID + "voice_connected_panel_title"),
                   Text(f"{voice[1]} / {voice[0]}", size=12, style="muted", rid=ID + "voice_connected_channel"),
                   h=56, pad=(12, 6, 12, 0), style="card", rid=ID + "voice_connected_panel") if voice else None,
            fill=True, weight=1,
        )

    def messages_page(self) -> View:
        s = self.state
        rows = [Row(Icon("person", h=40, w=40, radius=20, bg=(220, 222, 240)),
                    Column(Row(Text(dm.friend, size=16, bold=True, rid=ID + "dm_name"),
                               Text(dm.time, size=12, style="muted", w=48, align="right", rid=ID + "dm_time"),
                               h=24),
                           Text(dm.last, size=14, style="muted", rid=ID + "dm_last_message")),
                    h=68, pad=(16, 6, 16, 6), gap=12, rid=ID + "dm_item")
                for dm in s.dms]
        if not rows:
            rows = [Text("No messages yet", size=16, align="center", style="muted", h=96, pad=(0, 32, 0, 0))]
        return Column(
            Row(Text("Messages", size=22, bold=True, rid=ID + "tab_title"),
                Button("Add Friends", self.add_friends, style="tonal", w=132, h=40, icon="person",
                       desc="Add Friends", rid=ID + "add_friends_button"),
                h=64, pad=(16, 12, 12, 0), style="appbar"),
            Row(Text("Search", size=14, style="muted"), h=40, pad=(16, 10, 16, 0), radius=20, style="searchbar",
                rid=ID + "dms_search"),
            Scroll(*rows, key="dms", rid=ID + "dms_list"),
            fill=True,
        )

    def add_friends(self) -> None:
        self.start(AddFriends(self.app))

    def notifications_page(self) -> View:
        s = self.state
        rows = [Row(Icon("person", h=40, w=40, radius=20, bg=(220, 222, 240)),
                    Column(Text(f"{n.author} mentioned you in #{n.channel} ({n.server})", size=14, lines=2,
                                rid=ID + "notification_title"),
                           Text(n.text, size=13, style="muted", rid=ID + "notification_body")),
                    Text(n.time, size=12, style="muted", w=36, align="right", rid=ID + "notification_time"),
                    pad=(16, 6, 16, 6), gap=12, on_click=partial(self.open_notification, n.id),
                    desc=f"{n.author} mentioned you in #{n.channel}, {n.time}", rid=ID + "notification_item")
                for n in s.notifications]
        if not rows:
            rows = [Text("Nothing here yet", size=16, align="center", style="muted", h=96, pad=(0, 32, 0, 0),
                         rid=ID + "notifications_empty")]
        return Column(
            Row(Text("Notifications", size=22, bold=True, rid=ID + "tab_title"),
                Icon("more", desc="Notification options", w=48), h=64, pad=(16, 12, 8, 0), style="appbar"),
            Scroll(*rows, key="notifications", rid=ID + "notifications_list"),
            fill=True,
        )

    def you_page(self) -> View:
        s = self.state
        status = s.custom_status or "Set Custom Status"
        return Column(
            Row(Spacer(), Icon("settings", desc="Settings", on_click=self.open_settings, rid=ID + "user_settings"),
                h=56, pad=(0, 0, 8, 0), bg=BLURPLE),
            Row(Icon("person", h=80, w=80, radius=40, bg=(200, 204, 214) if s.avatar else (220, 222, 240),
                     desc="Avatar" if s.avatar else "Default avatar", rid=ID + "user_avatar"), h=88, pad=(16, 0, 0, 0)),
            padded(Text(USERNAME, size=22, bold=True, rid=ID + "user_display_name"), (16, 4, 16, 0)),
            padded(Text(f"{USERNAME} · {s.status}", size=14, style="muted", rid=ID + "user_status"), (16, 0, 16, 0)),
            Row(Icon("edit", w=32, fg=MUTED),
                Text(status, size=15, style=None if s.custom_status else "muted", rid=ID + "user_custom_status"),
                h=48, pad=(16, 0, 16, 0), gap=8, on_click=self.custom_status, style="card", radius=12),
            Row(Button("Edit Profile", self.edit_profile, style="filled", bg=BLURPLE, rid=ID + "edit_profile_button"),
                h=64, pad=(16, 8, 16, 8)),
            Scroll(padded(Text("Member Since", size=12, bold=True, style="muted"), (16, 6, 16, 0)),
                   padded(Text("Nov 3, 2021", size=14), (16, 0, 16, 0)),
                   padded(Text("Friends", size=12, bold=True, style="muted"), (16, 6, 16, 0)),
                   padded(Text(f"{len(s.dms)} friends", size=14, rid=ID + "user_friends_count"), (16, 0, 16, 0)),
                   key="you", rid=ID + "user_profile_list"),
            fill=True,
        )

    def open_settings(self) -> None:
        self.state.visited.append("settings")
        self.start(UserSettings(self.app))

    def edit_profile(self) -> None:
        self.start(EditProfile(self.app))

    def custom_status(self) -> None:
        self.start(CustomStatus(self.app))


class VoiceSheet(Dialog):
    """A voice channel's sheet: who is in it, "Join Voice" (or "Disconnect")."""

    def __init__(self, act: Main, server: str, channel: str) -> None:
        super().__init__(kind="sheet")
        self.act, self.server, self.channel = act, server, channel

    def join(self) -> None:
        self.act.join_voice(self.server, self.channel)

    def leave(self) -> None:
        self.act.leave_voice()

    def build(self) -> View:
        here = list(self.act.state.voice) == [self.server, self.channel]
        return Column(
            Row(Icon("sound", w=40), Text(self.channel, size=20, bold=True, rid=ID + "voice_channel_name"),
                Icon("close", desc="Close", on_click=self.close), h=56, gap=8),
            Text("Voice Connected" if here else "No one is here yet", size=14, fg=GREEN if here else None,
                 style=None if here else "muted", h=32, rid=ID + "voice_connected_status" if here else
                 ID + "voice_channel_empty"),
            Text(USERNAME if here else "Hop in when you're ready.", size=14, h=28, style="muted",
                 rid=ID + "voice_participants"),
            Button("Disconnect", self.leave, style="filled", bg=RED, rid=ID + "voice_disconnect") if here else
            Button("Join Voice", self.join, style="filled", bg=GREEN, rid=ID + "voice_join"),
            pad=(16, 8, 16, 16), gap=8, style="dialog", radius=16, rid=ID + "voice_sheet",
        )


class GuildSheet(Dialog):
    """The server's sheet (tap on its name): Invite, Notifications, Settings; Create
    Channel, Create Category; "Allow Direct Messages"; Leave Server (not the owner)."""

    def __init__(self, act: Main, server: str) -> None:
        super().__init__(kind="sheet")
        self.act, self.server = act, server

    def settings(self) -> None:
        self.act.state.visited.append(f"server_settings:{self.server}")
        self.act.start(ServerSettings(self.act.app, self.server))

    def create_channel(self) -> None:
        self.act.start(CreateChannel(self.act.app, self.server))

    def leave(self) -> None:
        s = self.act.state
        s.servers = [x for x in s.servers if x.name != self.server]
        if list(s.voice)[:1] == [self.server]:
            s.voice = []

    def build(self) -> View:
        srv = self.act.state.server(self.server)
        if srv is None:
            return Column(Text("Server not found", size=16, h=48), style="dialog")

        def action(icon: str, label: str, handler) -> View:
            return Column(Icon(icon, w=None, h=32), Text(label, size=12, align="center", rid=ID + "guild_action_label"),
                          weight=1, h=64, desc=label, on_click=handler, style="card", radius=12)
        return Column(
            Text(srv.name, size=20, bold=True, h=40, rid=ID + "guild_sheet_name"),
            Row(action("person", "Invite", None),
                action("notifications", "Notifications", None),
                action("settings", "Settings", partial(self._press, self.settings) if srv.owner else None),
                h=64, gap=8),
            Row(Text("Create Channel", size=16, rid=ID + "guild_sheet_item"), h=48,
                on_click=partial(self._press, self.create_channel) if srv.owner else None, enabled=srv.owner),
            Row(Text("Create Category", size=16, rid=ID + "guild_sheet_item"), h=48, enabled=srv.owner),
            Divider(),
            Row(Text("Allow Direct Messages", size=16, rid=ID + "guild_sheet_item"),
                Switch(srv.allow_dms, partial(self.act.set_allow_dms, srv.name), rid=ID + "guild_allow_dms_switch"),
                h=56, on_click=partial(self.act.set_allow_dms, srv.name)),
            None if srv.owner else Row(Text("Leave Server", size=16, fg=RED, rid=ID + "guild_sheet_item"), h=48,
                                       on_click=partial(self._press, self.leave)),
            pad=(16, 12, 16, 16), gap=4, style="dialog", radius=16, rid=ID + "guild_sheet",
        )


# ---------------------------------------------------------------------- chat

class ChannelPage(Activity):
    name = MAIN

    def __init__(self, app, server: str, channel: str, highlight: str = "") -> None:
        super().__init__(app)
        self.server, self.channel, self.highlight = server, channel, highlight
        self.scroll["chat"] = BOTTOM  # the newest messages (layout clamps the offset)

    def ch(self) -> Channel | None:
        srv = self.app.state.server(self.server)
        return srv.channel(self.channel, TEXT) if srv is not None else None

    def jump(self) -> None:
        self.highlight = ""

    def message_actions(self, message: Message) -> None:
        """A long press on a message: its actions sheet."""
        self.sys.show(MessageActions(self, message))

    def reply(self) -> None:
        self.focus = "message"
        self.sys.keyboard = True

    def copy_text(self, message: Message) -> None:
        self.sys.clipboard = message.text
        self.sys.toast("Copied to clipboard")

    def delete_message(self, message: Message) -> None:
        ch = self.ch()
        if ch is not None:
            ch.messages = [m for m in ch.messages if m is not message]

    def send(self, _text: str = "") -> None:
        text = self.fields.get("message", "").strip()
        ch = self.ch()
        if text and ch is not None:
            ch.messages.append(Message(USERNAME, text, NOW))
            self.highlight = ""
            self.scroll["chat"] = BOTTOM
            self.fields["message"] = ""

    def build(self) -> View:
        ch = self.ch()
        if ch is None:
            return Column(toolbar(self, "Channel not found"), Spacer(fill=True))
        private = "private " if ch.private else ""
        rows: list[View] = [Column(
            Icon("lock" if ch.private else "menu", h=56, w=56, radius=28, bg=(220, 222, 240)),
            Text(f"Welcome to #{ch.name}!", size=20, bold=True, rid=ID + "chat_empty_title"),
            Text(f"This is the start of the {private}#{ch.name} channel.", size=14, lines=2, style="muted",
                 rid=ID + "chat_empty_subtitle"),
            pad=(16, 16, 16, 8), gap=4)]
        for m in ch.messages:
            hl = bool(self.highlight) and m.text == self.highlight
            rows.append(Row(
                Icon("person", h=40, w=40, radius=20, bg=(220, 222, 240)),
                Column(Row(Text(m.author, size=15, bold=True, rid=ID + "chat_list_item_name"),
                           Text(m.time, size=11, style="muted", rid=ID + "chat_list_item_timestamp"), h=24, gap=8),
                       Text(m.text, size=15, lines=2, rid=ID + "chat_list_item_text")),
                pad=(12, 6, 12, 6), gap=10, bg=(250, 243, 220) if hl else None,
                on_long_click=self.sys.long_click(partial(self.message_actions, m)),
                rid=ID + "chat_list_item_highlighted" if hl else ID + "chat_list_item"))
        keyboard = self.sys.keyboard and self.focus == "message"
        return Column(
            Row(Icon("back", desc="Back", on_click=self.finish, rid=ID + "toolbar_back"),
                Icon("lock" if ch.private else "menu", w=28, fg=MUTED),
                Text(ch.name, size=18, bold=True, rid=ID + "channel_title"),
                Icon("search", desc="Search", w=44), Icon("person", desc="Members", w=44),
                h=56, pad=(4, 0, 4, 0), style="appbar", rid=ID + "toolbar"),
            Scroll(*rows, key="chat", rid=ID + "chat_list"),
            Row(Text("You're viewing older messages", size=13, rid=ID + "chat_jump_text"),
                Button("Jump To Present", self.jump, style="text", w=150, h=36, rid=ID + "chat_jump_to_present"),
                h=40, pad=(12, 0, 8, 0), bg=(235, 237, 250), rid=ID + "chat_jump_bar") if self.highlight else None,
            Row(Icon("add", desc="Add Media", w=44, h=44, radius=22, bg=(235, 237, 240)),
                EditText("message", hint=f"Message #{ch.name}", on_submit=self.send, h=44, radius=22,
                         style="search", rid=ID + "chat_input_edit_text"),
                Icon("forward", desc="Send", on_click=self.send, w=44, h=44, radius=22, bg=BLURPLE,
                     fg=(255, 255, 255), rid=ID + "chat_input_send"),
                h=60, pad=(8, 8, 8, 8), gap=6, rid=ID + "chat_input"),
            Spacer(h=KEYBOARD_DP) if keyboard else None,
        )


class MessageActions(Dialog):
    """A message's long-press sheet: Reply, Copy Text and, for the user's own, Delete Message."""

    def __init__(self, act: ChannelPage, message: Message) -> None:
        super().__init__(kind="sheet")
        self.act, self.message = act, message

    def build(self) -> View:
        m = self.message

        def action(icon: str, label: str, handler, rid: str, **kw) -> View:
            return Row(Icon(icon, w=40), Text(label, size=16, rid=ID + rid, **kw), h=52, gap=12, desc=label,
                       on_click=partial(self._press, handler))
        return Column(
            Text(f"{m.author}: {m.text}", size=14, style="muted", h=36, rid=ID + "message_actions_preview"),
            action("forward", "Reply", self.act.reply, "message_action_reply"),
            action("copy", "Copy Text", partial(self.act.copy_text, m), "message_action_copy"),
            action("trash", "Delete Message", partial(self.act.delete_message, m), "message_action_delete", fg=RED)
            if m.author == USERNAME else None,
            pad=(16, 12, 16, 16), gap=4, style="dialog", radius=16, rid=ID + "message_actions_sheet",
        )


# ---------------------------------------------------------------------- server settings

class ServerPage(Activity):
    """A page about one of the user's servers (``server``: its name)."""

    name = MAIN

    def __init__(self, app, server: str) -> None:
        super().__init__(app)
        self.server = server

    def srv(self) -> Server | None:
        return self.app.state.server(self.server)


class ServerSettings(ServerPage):
    def open(self, page: str) -> None:
        self.app.state.visited.append(f"server_{page}:{self.server}")
        self.start(Overview(self.app, self.server) if page == "overview" else ChannelsSettings(self.app, self.server))

    def build(self) -> View:
        return Column(
            toolbar(self, "Server Settings", self.server),
            Scroll(
                Row(Text(initials(self.server), size=16, bold=True, align="center", w=56, h=56, radius=28,
                         bg=(220, 222, 240)),
                    Text(self.server, size=18, bold=True, rid=ID + "server_settings_name"),
                    h=80, pad=(16, 12, 16, 12), gap=12),
                section("Settings"),
                nav_row("Overview", partial(self.open, "overview")),
                nav_row("Moderation", None), nav_row("Audit Log", None),
                nav_row("Channels", partial(self.open, "channels")),
                nav_row("Integrations", None), nav_row("Emoji", None), nav_row("Stickers", None),
                section("User Management"),
                nav_row("Members", None), nav_row("Roles", None), nav_row("Invites", None), nav_row("Bans", None),
                key="settings", rid=ID + "server_settings_list"),
        )


class Overview(ServerPage):
    def upload(self) -> None:
        self.start(PhotoPicker(self.app, "icon", self.server))

    def remove(self) -> None:
        srv = self.srv()
        if srv is not None:
            srv.icon = ""

    def build(self) -> View:
        srv = self.srv()
        icon = srv.icon if srv is not None else ""
        return Column(
            toolbar(self, "Overview", self.server),
            Scroll(
                Row(Stack(Text("" if icon else initials(self.server), size=22, bold=True, align="center", h=96),
                          Icon("display", h=96, w=96, radius=48, bg=(190, 196, 210)) if icon else None,
                          h=96, w=96, radius=48, bg=(220, 222, 240), desc="Server Icon" if icon else "No server icon",
                          rid=ID + "server_settings_overview_icon"),
                    Column(Text("We recommend an image of at least 512x512 for the server.", size=13, lines=3,
                                style="muted"),
                           Button("Upload Image", self.upload, style="outlined", h=40,
                                  rid=ID + "server_settings_overview_icon_upload"),
                           Button("Remove Icon", self.remove, style="text", h=36, fg=RED,
                                  rid=ID + "server_settings_overview_icon_remove") if icon else None,
                           gap=6, weight=1),
                    h=150, pad=(16, 16, 16, 0), gap=16),
                section("Server Name"),
                Text(self.server, size=16, h=48, pad=(16, 12, 16, 0), style="card", rid=ID + "server_settings_overview_name"),
                section("Inactive Channel"),
                nav_row("Inactive Channel", None, value="No Inactive Channel"),
                nav_row("Inactive Timeout", None, value="5 minutes"),
                key="overview", rid=ID + "server_settings_overview"),
        )


class ChannelsSettings(ServerPage):
    def edit(self, channel: str, kind: str) -> None:
        self.start(EditChannel(self.app, self.server, channel, kind))

    def create(self) -> None:
        self.start(CreateChannel(self.app, self.server))

    def build(self) -> View:
        srv = self.srv()
        rows: list[View] = []
        if srv is not None:
            for title, chans in (("Text Channels", srv.text_channels()), ("Voice Channels", srv.voice_channels())):
                rows.append(section(title))
                rows += [Row(Icon("lock" if c.private else "sound" if c.kind == VOICE else "menu", w=32, fg=MUTED),
                             Text(c.name, size=16, rid=ID + "channel_settings_name"), Icon("chevron", w=32, fg=MUTED),
                             h=52, pad=(16, 0, 12, 0), gap=8, on_click=partial(self.edit, c.name, c.kind))
                         for c in chans]
        return Column(
            toolbar(self, "Channels", self.server,
                    Icon("add", desc="Create Channel", on_click=self.create, rid=ID + "channels_create")),
            Scroll(*rows, key="channels", rid=ID + "channel_settings_list"),
        )


class EditChannel(ServerPage):
    def __init__(self, app, server: str, channel: str, kind: str) -> None:
        super().__init__(app, server)
        self.channel, self.kind = channel, kind

    def confirm(self) -> None:
        self.sys.show(Dialog("Delete Channel", f"Are you sure you want to delete {self.channel}? "
                             "This cannot be undone.", (("Cancel", None), ("Delete", self.delete))))

    def delete(self) -> None:
        s = self.app.state
        srv = self.srv()
        if srv is None:
            return
        before = len(srv.channels)
        srv.channels = [c for c in srv.channels if not (c.name == self.channel and c.kind == self.kind)]
        if len(srv.channels) < before:
            s.deleted_channels.append(f"{self.server}/{self.channel}")
            if list(s.voice) == [self.server, self.channel]:
                s.voice = []
        self.sys.toast("Channel deleted")
        self.finish()

    def build(self) -> View:
        return Column(
            toolbar(self, "Edit Channel", self.channel),
            Scroll(
                section("Channel Name"),
                Text(self.channel, size=16, h=48, pad=(16, 12, 16, 0), style="card", rid=ID + "channel_settings_edit_name"),
                section("Channel Type"),
                Text("Voice" if self.kind == VOICE else "Text", size=16, h=40, pad=(16, 8, 16, 0)),
                section("Permissions"),
                nav_row("Permissions", None),
                nav_row("Invites", None),
                Spacer(h=16),
                Row(Button("Delete Channel", self.confirm, style="filled", bg=RED,
                           rid=ID + "channel_settings_delete"), h=64, pad=(16, 8, 16, 8)),
                key="edit", rid=ID + "channel_settings_edit"),
        )


class CreateChannel(ServerPage):
    def __init__(self, app, server: str) -> None:
        super().__init__(app, server)
        self.kind = TEXT
        self.private = False

    def set_kind(self, kind: str) -> None:
        self.kind = kind

    def toggle_private(self) -> None:
        self.private = not self.private

    def create(self, _text: str = "") -> None:
        typed = self.fields.get("name", "").strip()
        srv = self.srv()
        if not typed or srv is None:
            return
        name = channel_name(typed) if self.kind == TEXT else typed
        srv.channels.append(Channel(name, self.kind, self.private))
        self.sys.keyboard = False
        self.finish()
        if self.kind == TEXT:
            self.sys.start(ChannelPage(self.app, self.server, name))

    def build(self) -> View:
        keyboard = self.sys.keyboard and self.focus == "name"
        return Column(
            toolbar(self, "Create Channel", self.server,
                    Button("Create", self.create, style="text", w=88, rid=ID + "create_channel_create")),
            Scroll(
                section("Channel Name"),
                Row(EditText("name", hint="new-channel", on_submit=self.create, rid=ID + "create_channel_name"),
                    pad=(16, 0, 16, 0), h=56),
                section("Channel Type"),
                radio_row("Text", self.kind == TEXT, partial(self.set_kind, TEXT), "create_channel_type"),
                radio_row("Voice", self.kind == VOICE, partial(self.set_kind, VOICE), "create_channel_type"),
                switch_row("Private Channel", "Only selected members and roles will be able to view this channel.",
                           self.private, self.toggle_private, "create_channel_private_switch"),
                key="create", rid=ID + "create_channel"),
            Spacer(h=KEYBOARD_DP) if keyboard else None,
        )


# ---------------------------------------------------------------------- add a server

class AddServer(Activity):
    name = MAIN

    def pick(self, template: str) -> None:
        self.start(ServerPurpose(self.app, template))

    def build(self) -> View:
        templates = [Row(Icon("app", w=40, fg=BLURPLE), Text(t, size=16, rid=ID + "guild_template_name"),
                         Icon("chevron", w=32, fg=MUTED), h=56, pad=(16, 0, 12, 0), gap=8, style="card", radius=12,
                         on_click=partial(self.pick, t)) for t in TEMPLATES if t]
        return Column(
            Row(Icon("close", desc="Close", on_click=self.finish, rid=ID + "toolbar_back"), h=56, pad=(4, 0, 0, 0)),
            Scroll(
                Text("Create Your Server", size=24, bold=True, align="center", h=40, rid=ID + "guild_create_title"),
                Text("Your server is where you and your friends hang out. Make yours and start talking.",
                     size=14, lines=2, align="center", style="muted", pad=(16, 0, 16, 0)),
                Row(Icon("add", w=40, fg=BLURPLE), Text("Create My Own", size=16, bold=True,
                                                         rid=ID + "guild_template_name"),
                    Icon("chevron", w=32, fg=MUTED), h=56, pad=(16, 0, 12, 0), gap=8, style="card", radius=12,
                    on_click=partial(self.pick, "")),
                Text("START FROM A TEMPLATE", size=12, bold=True, style="muted", h=32, pad=(16, 12, 0, 0)),
                *templates,
                Text("Have an invite already?", size=16, bold=True, align="center", h=40, pad=(0, 12, 0, 0)),
                Row(Button("Join a Server", None, style="tonal", rid=ID + "guild_join"), h=56, pad=(16, 0, 16, 8)),
                key="create", rid=ID + "guild_create", gap=8, pad=(12, 0, 12, 0)),
        )


class ServerPurpose(Activity):
    name = MAIN

    def __init__(self, app, template: str) -> None:
        super().__init__(app)
        self.template = template

    def pick(self, purpose: str) -> None:
        self.start(CustomizeServer(self.app, self.template, purpose))

    def build(self) -> View:
        def option(label: str, purpose: str) -> View:
            return Row(Icon("person", w=40, fg=BLURPLE), Text(label, size=16, rid=ID + "guild_purpose_option"),
                       Icon("chevron", w=32, fg=MUTED), h=60, pad=(16, 0, 12, 0), gap=8, style="card", radius=12,
                       on_click=partial(self.pick, purpose))
        return Column(
            Row(Icon("back", desc="Back", on_click=self.finish, rid=ID + "toolbar_back"), h=56, pad=(4, 0, 0, 0)),
            Text("Tell us more about your server", size=22, bold=True, align="center", lines=2, h=64,
                 rid=ID + "guild_create_title"),
            Text("In order to help you with your setup, is your new server for just a few friends or a larger "
                 "community?", size=14, lines=3, align="center", style="muted", pad=(16, 0, 16, 0)),
            option("For a club or community", "club"),
            option("For me and my friends", "friends"),
            Text("Not sure? You can skip this question for now.", size=13, align="center", style="muted", h=28),
            Row(Button("Skip this question", partial(self.pick, ""), style="text", rid=ID + "guild_purpose_skip"),
                h=48),
            Spacer(fill=True),
            pad=(12, 0, 12, 0), gap=10,
        )


class CustomizeServer(Activity):
    name = MAIN

    def __init__(self, app, template: str, purpose: str) -> None:
        super().__init__(app)
        self.template, self.purpose = template, purpose

    def create(self, _text: str = "") -> None:
        name = self.fields.get("name", "").strip()
        s = self.app.state
        if not name:
            return
        s.servers.insert(0, Server(name, new_channels(*TEMPLATES[self.template]),
                                   owner=True, template=self.template, purpose=self.purpose, created=True))
        s.selected = name
        self.sys.keyboard = False
        while len(self.app.stack) > 1 and not isinstance(self.app.stack[-1], Main):
            self.sys.finish(self.app.stack[-1])
        if isinstance(self.app.stack[-1], Main):
            self.app.stack[-1].tab = "servers"

    def build(self) -> View:
        keyboard = self.sys.keyboard and self.focus == "name"
        return Column(
            Row(Icon("back", desc="Back", on_click=self.finish, rid=ID + "toolbar_back"), h=56, pad=(4, 0, 0, 0)),
            Scroll(
                Text("Customize your server", size=22, bold=True, align="center", h=40, rid=ID + "guild_create_title"),
                Text("Give your new server a personality with a name and an icon. You can always change it later.",
                     size=14, lines=2, align="center", style="muted", pad=(16, 0, 16, 0)),
                Row(Spacer(), Icon("add", desc="Upload", h=80, w=80, radius=40, bg=(220, 222, 240),
                                   rid=ID + "guild_create_icon"), Spacer(), h=88),
                Text("SERVER NAME", size=12, bold=True, style="muted", h=28, pad=(16, 8, 0, 0)),
                Row(EditText("name", hint="Server name", on_submit=self.create, rid=ID + "guild_create_name"),
                    pad=(16, 0, 16, 0), h=56),
                Text("By creating a server, you agree to Discord's Community Guidelines.", size=12, lines=2,
                     style="muted", pad=(16, 0, 16, 0)),
                key="form", gap=6, rid=ID + "guild_create"),
            Row(Button("Create Server", self.create, style="filled", bg=BLURPLE, rid=ID + "guild_create_button"),
                h=64, pad=(16, 8, 16, 8)),
            Spacer(h=KEYBOARD_DP) if keyboard else None,
        )


class AddFriends(Activity):
    name = MAIN

    def copy(self) -> None:
        s = self.app.state
        s.invite_copied = True
        s.clipboard = "https://discord.gg/agentian"
        self.sys.toast("Copied to clipboard")

    def build(self) -> View:
        copied = self.app.state.invite_copied

        def share(icon: str, label: str, handler, rid: str) -> View:
            return Column(Icon(icon, h=48, w=None, radius=24, bg=(235, 237, 240)),
                          Text(label, size=12, align="center", rid=ID + rid), weight=1, h=80, desc=label,
                          on_click=handler)
        return Column(
            toolbar(self, "Add Friends"),
            Scroll(
                Text("Share your invite link", size=14, bold=True, style="muted", h=32, pad=(16, 12, 16, 0)),
                Row(share("share", "Share Invite", None, "invite_share"),
                    share("check" if copied else "copy", "Copied" if copied else "Copy Link", self.copy,
                          "invite_copy_link"),
                    share("globe", "Messages", None, "invite_sms"),
                    share("info", "Email", None, "invite_email"), h=88, pad=(8, 0, 8, 0)),
                Divider(),
                Text("Add by username", size=14, bold=True, style="muted", h=32, pad=(16, 12, 16, 0)),
                Row(EditText("username", hint="Enter a username", rid=ID + "friends_add_username"),
                    pad=(16, 0, 16, 0), h=56),
                Text(f"Your username is {USERNAME}", size=13, style="muted", h=28, pad=(16, 4, 16, 0)),
                key="add", rid=ID + "friends_add"),
        )


class EditProfile(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        self.pending = ""  # a photo picked, not saved yet

    def change(self) -> None:
        self.start(PhotoPicker(self.app, "avatar", ""))

    def picked(self, photo: str) -> None:
        self.pending = photo

    def save(self) -> None:
        if self.pending:
            self.app.state.avatar = self.pending
        self.sys.toast("Profile updated")
        self.finish()

    def build(self) -> View:
        shown = self.pending or self.app.state.avatar
        return Column(
            toolbar(self, "Edit Profile", "", Button("Save", self.save, style="text", w=80,
                                                    rid=ID + "edit_profile_save")),
            Scroll(
                Row(Stack(Icon("person", h=96, w=96, radius=48, bg=(200, 204, 214) if shown else (220, 222, 240)),
                          desc="Change Avatar", on_click=self.change, h=96, w=96, rid=ID + "edit_profile_avatar"),
                    Column(Text("Avatar", size=14, bold=True), Text(shown or "Default avatar", size=13,
                                                                     style="muted", rid=ID + "edit_profile_avatar_name"),
                           pad=(0, 24, 0, 0), weight=1),
                    h=120, pad=(16, 12, 16, 12), gap=16),
                section("Display Name"),
                Text(USERNAME, size=16, h=48, pad=(16, 12, 16, 0), style="card"),
                section("About Me"),
                Text("", size=16, h=48, pad=(16, 12, 16, 0), style="card"),
                key="profile", rid=ID + "edit_profile"),
        )


class PhotoPicker(Activity):
    """The media picker: the device's photos, newest first."""

    name = MAIN

    def __init__(self, app, target: str, server: str) -> None:
        super().__init__(app)
        self.target, self.server = target, server

    def pick(self, photo: str) -> None:
        s = self.app.state
        self.finish()
        if self.target == "icon":
            srv = s.server(self.server)
            if srv is not None:
                srv.icon = photo
                self.sys.toast("Server icon updated")
        else:
            caller = self.app.stack[-1] if self.app.stack else None
            if isinstance(caller, EditProfile):
                caller.picked(photo)

    def build(self) -> View:
        return Column(
            Row(Icon("close", desc="Close", on_click=self.finish, rid=ID + "toolbar_back"),
                Text("Select a photo", size=18, bold=True, rid=ID + "toolbar_title", pad=(4, 16, 0, 0)),
                h=56, pad=(4, 0, 0, 0), style="appbar"),
            Text("Recents", size=14, bold=True, style="muted", h=32, pad=(16, 8, 0, 0)),
            Scroll(*photo_grid(list(self.app.state.photos), self.pick), key="photos", rid=ID + "media_picker"),
        )


class CustomStatus(Activity):
    name = MAIN

    def __init__(self, app) -> None:
        super().__init__(app)
        s = app.state
        self.fields["status"] = s.custom_status
        self.clear_after = s.clear_after or "Today"

    def set_clear_after(self, value: str) -> None:
        self.clear_after = value

    def choose(self) -> None:
        self.sys.show(ClearAfterDialog(self))

    def save(self, _text: str = "") -> None:
        s = self.app.state
        s.custom_status = self.fields.get("status", "").strip()
        s.clear_after = self.clear_after if s.custom_status else ""
        self.sys.keyboard = False
        self.finish()

    def build(self) -> View:
        return Column(
            toolbar(self, "Edit Custom Status", "", Button("Save", self.save, style="text", w=80,
                                                          rid=ID + "custom_status_save")),
            Row(Icon("edit", w=40, fg=MUTED),
                EditText("status", hint=f"What's cookin', {USERNAME}?", on_submit=self.save,
                         rid=ID + "custom_status_text"),
                h=64, pad=(12, 4, 16, 4), gap=8),
            Divider(),
            Row(Text("Clear After", size=16), Text(self.clear_after, size=15, style="muted", w=140, align="right",
                                                 rid=ID + "custom_status_clear_after"),
                Icon("chevron", w=32, fg=MUTED), h=56, pad=(16, 0, 12, 0), on_click=self.choose,
                rid=ID + "custom_status_clear_after_row"),
            Spacer(fill=True),
        )


class ClearAfterDialog(Dialog):
    def __init__(self, act: CustomStatus) -> None:
        super().__init__(kind="sheet")
        self.act = act

    def pick(self, value: str) -> None:
        self.close()
        self.act.set_clear_after(value)

    def build(self) -> View:
        return Column(
            Text("Clear After", size=20, bold=True, h=40, rid=ID + "clear_after_title"),
            *[radio_row(v, v == self.act.clear_after, partial(self.pick, v), "clear_after_option")
              for v in CLEAR_AFTER],
            pad=(8, 12, 8, 12), style="dialog", radius=16, rid=ID + "clear_after_sheet",
        )


# ---------------------------------------------------------------------- user settings

class UserSettings(Activity):
    name = MAIN

    def open(self, page: str) -> None:
        self.app.state.visited.append(page)
        cls = {"privacy": PrivacySafety, "friend_requests": FriendRequests,
               "notification_settings": NotificationSettings}[page]
        self.start(cls(self.app))

    def build(self) -> View:
        return Column(
            toolbar(self, "Settings"),
            Scroll(
                section("Account Settings"),
                nav_row("Get Nitro", None), nav_row("Account", None),
                nav_row("Privacy & Safety", partial(self.open, "privacy")),
                nav_row("Family Center", None), nav_row("Authorized Apps", None), nav_row("Devices", None),
                nav_row("Connections", None), nav_row("Clips", None),
                nav_row("Friend Requests", partial(self.open, "friend_requests")),
                nav_row("Scan QR Code", None),
                section("App Settings"),
                nav_row("Voice", None), nav_row("Appearance", None), nav_row("Accessibility", None),
                nav_row("Language", None), nav_row("Chat", None), nav_row("Web Browser", None),
                nav_row("Notifications", partial(self.open, "notification_settings")),
                nav_row("App Icon", None), nav_row("Advanced", None),
                section("Support"),
                nav_row("Support", None), nav_row("Upload debug logs to Discord Support", None),
                nav_row("Acknowledgements", None),
                Row(Button("Log Out", None, style="text", fg=RED, rid=ID + "settings_log_out"), h=56),
                key="settings", rid=ID + "settings_list"),
        )


class _Toggles(Activity):
    name = MAIN

    def toggle(self, attr: str) -> None:
        setattr(self.app.state, attr, not getattr(self.app.state, attr))

    def switch(self, label: str, summary: str, attr: str, rid: str) -> View:
        return switch_row(label, summary, getattr(self.app.state, attr), partial(self.toggle, attr), rid)


class PrivacySafety(_Toggles):
    def set_filter(self, value: str) -> None:
        self.app.state.dm_spam_filter = value

    def build(self) -> View:
        s = self.app.state
        return Column(
            toolbar(self, "Privacy & Safety"),
            Scroll(
                section("DM Spam Filter"),
                Text("Automatically send DMs that may contain spam into a separate spam inbox.", size=13,
                     lines=2, style="muted", pad=(16, 0, 16, 0)),
                *[radio_row(v, s.dm_spam_filter == v, partial(self.set_filter, v), "dm_spam_filter_option")
                  for v in DM_SPAM],
                section("Server Privacy Defaults"),
                self.switch("Allow direct messages from server members",
                            "This setting is applied when you join a new server.", "allow_server_dms",
                            "privacy_allow_server_dms_switch"),
                section("How We Use Your Data"),
                self.switch("Use data to improve Discord",
                            "This setting allows us to use and process information about how you navigate and "
                            "use Discord for analytical purposes.", "improve_discord",
                            "privacy_improve_discord_switch"),
                self.switch("Use data to customize my Discord experience",
                            "This setting allows us to use information, such as who you talk to and what games "
                            "you play, to customize Discord for you.", "customize_experience",
                            "privacy_customize_experience_switch"),
                nav_row("Request all of my Data", None),
                key="privacy", rid=ID + "privacy_settings_list"),
        )


class FriendRequests(_Toggles):
    def build(self) -> View:
        return Column(
            toolbar(self, "Friend Requests"),
            Scroll(
                section("Who can send you a friend request"),
                self.switch("Everyone", "", "friend_requests_everyone", "friend_requests_everyone_switch"),
                self.switch("Friends of Friends", "", "friend_requests_friends_of_friends",
                            "friend_requests_friends_of_friends_switch"),
                self.switch("Server Members", "", "friend_requests_server_members",
                            "friend_requests_server_members_switch"),
                key="friend_requests", rid=ID + "friend_requests_list"),
        )


class NotificationSettings(_Toggles):
    def build(self) -> View:
        return Column(
            toolbar(self, "Notifications"),
            Scroll(
                self.switch("Get notifications within Discord", "", "in_app_notifications",
                            "notifications_in_app_switch"),
                self.switch("Get notifications outside of Discord", "Push notifications on this device.",
                            "push_notifications", "notifications_push_switch"),
                nav_row("Server Notification Settings", None),
                nav_row("Email Notifications", None),
                key="notifications", rid=ID + "notification_settings_list"),
        )


# ---------------------------------------------------------------------- popups

class NitroUpsell(Dialog):
    """A Nitro promotion sheet."""

    def __init__(self) -> None:
        super().__init__("Unleash more fun with Nitro", "Bigger uploads, custom emoji everywhere, HD streaming "
                         "and more.", (("Maybe later", None),), kind="sheet")

    def build(self) -> View:
        return Column(
            Icon("star", h=56, w=56, align="center", fg=BLURPLE),
            Text(self.title, size=22, align="center", rid=ID + "premium_upsell_title"),
            Text(self.message, size=14, lines=3, align="center", style="muted", rid=ID + "premium_upsell_body"),
            Button("Get Nitro", None, style="filled", bg=BLURPLE, rid=ID + "premium_upsell_cta"),
            Button("Maybe later", self.close, style="text", rid=ID + "premium_upsell_dismiss"),
            pad=(24, 24, 24, 16), gap=10, style="dialog", radius=28,
        )

