"""The simulated Discord, driven like an agent would: taps on dump nodes, typing, BACK;
oracles read `app_state("discord")`. Also the crawler and retained-mode checks the shared
suites run for the other modelled apps."""

from __future__ import annotations

from functools import partial

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import DEFAULT_INSTALLED, resolve_package
from phone import EVERY_PROFILE, find, frames, launch, node, popup_texts, tap, texts
from test_sim_screens import crawl

PKG = "com.discord"
ID = PKG + ":id/"
MAIN = f"{PKG}/com.discord.main.MainActivity"
MINE = "agentian's server"


discord = partial(launch, "discord")


def state(phone: SimulatedDevice):
    return phone.app_state("discord")


def server(phone: SimulatedDevice, name: str = MINE):
    return next(s for s in state(phone).servers if s.name == name)


def open_server(phone: SimulatedDevice, name: str = MINE) -> None:
    tap(phone, content_desc=name, resource_id=ID + "guilds_item_icon")


def test_installed_on_a_fresh_phone_and_opens_from_the_drawer() -> None:
    assert PKG in DEFAULT_INSTALLED and resolve_package("Discord") == PKG
    phone = SimulatedDevice(seed=0, dynamics="none")
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Discord", resource_id="com.google.android.apps.nexuslauncher:id/icon")
    assert phone.foreground_activity() == MAIN
    assert node(phone, content_desc=MINE, resource_id=ID + "guilds_item_icon")
    assert node(phone, text="Servers", resource_id=ID + "tab_label")


def test_send_a_message_in_general() -> None:
    phone = discord()
    open_server(phone)
    assert node(phone, resource_id=ID + "guild_header_name").text == MINE
    tap(phone, text="general", resource_id=ID + "channels_item_name")
    tap(phone, content_desc="Send")  # empty: nothing sent
    assert len(server(phone).channels[0].messages) == 1
    tap(phone, resource_id=ID + "chat_input_edit_text")
    assert phone.runtime.keyboard
    phone.perform(Action.type_text("Hello World"))
    tap(phone, content_desc="Send")
    last = server(phone).channels[0].messages[-1]
    assert (last.author, last.text) == ("agentian", "Hello World")
    assert node(phone, text="Hello World", resource_id=ID + "chat_list_item_text")
    assert node(phone, resource_id=ID + "chat_input_edit_text").text == "Message #general"


def test_join_and_leave_a_voice_channel() -> None:
    phone = discord()
    open_server(phone)
    tap(phone, text="Gaming", resource_id=ID + "channels_item_name")
    assert node(phone, resource_id=ID + "voice_channel_name").text == "Gaming"
    tap(phone, text="Join Voice")
    assert list(state(phone).voice) == [MINE, "Gaming"]
    assert node(phone, text="Voice Connected", resource_id=ID + "voice_connected_status")
    phone.perform(Action.back())  # closes the sheet; the panel stays
    assert node(phone, resource_id=ID + "voice_connected_channel").text == f"Gaming / {MINE}"
    tap(phone, text="Lobby", resource_id=ID + "channels_item_name")
    assert not find(phone, resource_id=ID + "voice_connected_status")  # connected elsewhere
    tap(phone, text="Close")  if find(phone, text="Close") else phone.perform(Action.back())
    tap(phone, text="Gaming", resource_id=ID + "channels_item_name")
    tap(phone, text="Disconnect")
    assert list(state(phone).voice) == []


def test_create_a_private_text_channel() -> None:
    phone = discord()
    open_server(phone)
    tap(phone, resource_id=ID + "guild_header")
    tap(phone, text="Create Channel")
    tap(phone, resource_id=ID + "create_channel_name")
    phone.perform(Action.type_text("Test Bed"))
    tap(phone, resource_id=ID + "create_channel_private_switch")
    tap(phone, text="Create")
    ch = server(phone).channel("test-bed")
    assert ch is not None and ch.private and ch.kind == "text"
    assert node(phone, resource_id=ID + "chat_empty_subtitle").text == "This is the start of the private #test-bed channel."
    phone.perform(Action.back())
    assert node(phone, text="test-bed", resource_id=ID + "channels_item_name")


def test_delete_a_channel_asks_first() -> None:
    phone = discord()
    open_server(phone)
    tap(phone, resource_id=ID + "guild_header")
    tap(phone, text="Settings", resource_id=ID + "guild_action_label")
    assert node(phone, resource_id=ID + "server_settings_name").text == MINE
    assert list(state(phone).visited) == [f"server_settings:{MINE}"]
    tap(phone, text="Channels")
    tap(phone, text="Lobby")
    tap(phone, text="Delete Channel")
    assert node(phone, resource_id="android:id/alertTitle").text == "Delete Channel"
    tap(phone, text="Cancel")
    assert server(phone).channel("Lobby") is not None
    tap(phone, text="Delete Channel")
    tap(phone, text="Delete")
    assert server(phone).channel("Lobby") is None and list(state(phone).deleted_channels) == [f"{MINE}/Lobby"]
    assert node(phone, resource_id=ID + "toolbar_title").text == "Channels" and "Lobby" not in texts(phone)


def test_server_icon_from_the_latest_photo() -> None:
    phone = discord()
    open_server(phone)
    tap(phone, resource_id=ID + "guild_header")
    tap(phone, text="Settings", resource_id=ID + "guild_action_label")
    tap(phone, text="Overview")
    assert node(phone, resource_id=ID + "server_settings_overview_icon").content_desc == "No server icon"
    tap(phone, text="Upload Image")
    tap(phone, resource_id=ID + "media_picker_item")
    assert server(phone).icon == state(phone).photos[0]
    assert node(phone, resource_id=ID + "server_settings_overview_icon").content_desc == "Server Icon"
    tap(phone, text="Remove Icon")
    assert server(phone).icon == ""


def test_create_servers_own_and_from_a_template() -> None:
    phone = discord()
    tap(phone, content_desc="Add a Server")
    tap(phone, text="Study Group")
    tap(phone, text="For me and my friends")
    tap(phone, text="Create Server")  # no name: nothing
    tap(phone, resource_id=ID + "guild_create_name")
    phone.perform(Action.type_text("homework"))
    tap(phone, text="Create Server")
    s = state(phone)
    assert s.servers[0].name == "homework" and s.servers[0].template == "Study Group"
    assert s.servers[0].purpose == "friends" and s.servers[0].created
    assert phone.foreground_activity() == MAIN and len(phone.runtime.app(PKG).stack) == 1
    assert node(phone, resource_id=ID + "guild_header_name").text == "homework"
    assert node(phone, text="homework-help", resource_id=ID + "channels_item_name")
    tap(phone, content_desc="Add a Server")
    tap(phone, text="Create My Own")
    tap(phone, text="Skip this question")
    tap(phone, resource_id=ID + "guild_create_name")
    phone.perform(Action.type_text("Agent Env"))
    tap(phone, text="Create Server")
    assert [x.name for x in state(phone).servers[:2]] == ["Agent Env", "homework"]
    assert state(phone).servers[0].purpose == ""


def test_server_sheet_allow_direct_messages() -> None:
    phone = discord(servers=[{"name": "homework", "template": "Study Group", "allow_dms": False}])
    open_server(phone, "homework")
    tap(phone, resource_id=ID + "guild_header")
    assert node(phone, resource_id=ID + "guild_sheet_name").text == "homework"
    assert not node(phone, resource_id=ID + "guild_allow_dms_switch").flags["checked"]
    tap(phone, resource_id=ID + "guild_allow_dms_switch")
    assert server(phone, "homework").allow_dms
    assert node(phone, resource_id=ID + "guild_allow_dms_switch").flags["checked"]


def test_community_servers_have_no_settings() -> None:
    phone = discord()
    tap(phone, resource_id=ID + "guild_header")
    assert node(phone, resource_id=ID + "guild_sheet_name").text == "Pixel Art Club"
    tap(phone, text="Settings", resource_id=ID + "guild_action_label")
    assert phone.foreground_activity() == MAIN and not find(phone, resource_id=ID + "server_settings_name")
    tap(phone, text="Leave Server")
    assert "Pixel Art Club" not in [x.name for x in state(phone).servers]


def test_copy_the_invite_link() -> None:
    phone = discord()
    tap(phone, text="Messages", resource_id=ID + "tab_label")
    tap(phone, text="Add Friends")
    tap(phone, text="Copy Link")
    assert state(phone).invite_copied and state(phone).clipboard.startswith("https://discord.gg/")
    assert node(phone, resource_id=ID + "invite_copy_link").text == "Copied"


def test_notifications_open_the_message() -> None:
    phone = discord()
    tap(phone, text="Notifications", resource_id=ID + "tab_label")
    first = state(phone).notifications[0]
    tap(phone, resource_id=ID + "notification_item")
    assert state(phone).opened_notification == first.id
    assert node(phone, resource_id=ID + "channel_title").text == first.channel
    assert node(phone, resource_id=ID + "chat_list_item_highlighted")
    tap(phone, text="Jump To Present")
    assert not find(phone, resource_id=ID + "chat_jump_to_present")


def test_user_settings_privacy_and_pages() -> None:
    phone = discord()
    tap(phone, text="You", resource_id=ID + "tab_label")
    tap(phone, content_desc="Settings")
    tap(phone, text="Privacy & Safety")
    tap(phone, content_desc="Do not filter direct messages")
    assert state(phone).dm_spam_filter == "Do not filter direct messages"
    assert node(phone, content_desc="Do not filter direct messages").flags["checked"]
    tap(phone, resource_id=ID + "privacy_allow_server_dms_switch")
    assert not state(phone).allow_server_dms
    for _ in range(3):
        if find(phone, resource_id=ID + "privacy_customize_experience_switch"):
            break
        phone.perform(Action.swipe(0.5, 0.75, 0.5, 0.35))
    tap(phone, resource_id=ID + "privacy_customize_experience_switch")
    assert not state(phone).customize_experience and state(phone).improve_discord
    phone.perform(Action.back())
    tap(phone, text="Friend Requests")
    assert node(phone, resource_id=ID + "toolbar_title").text == "Friend Requests"
    phone.perform(Action.back())
    for _ in range(4):
        if find(phone, text="Notifications", resource_id=ID + "settings_item_label"):
            break
        phone.perform(Action.swipe(0.5, 0.75, 0.5, 0.35))
    tap(phone, text="Notifications", resource_id=ID + "settings_item_label")
    assert list(state(phone).visited) == ["settings", "privacy", "friend_requests", "notification_settings"]


def test_custom_status_and_avatar() -> None:
    phone = discord()
    tap(phone, text="You", resource_id=ID + "tab_label")
    tap(phone, text="Set Custom Status")
    tap(phone, resource_id=ID + "custom_status_text")
    phone.perform(Action.type_text("working"))
    tap(phone, resource_id=ID + "custom_status_clear_after_row")
    tap(phone, content_desc="1 hour")
    assert node(phone, resource_id=ID + "custom_status_clear_after").text == "1 hour"
    tap(phone, text="Save")
    assert (state(phone).custom_status, state(phone).clear_after) == ("working", "1 hour")
    assert node(phone, resource_id=ID + "user_custom_status").text == "working"
    tap(phone, text="Edit Profile")
    tap(phone, content_desc="Change Avatar")
    tap(phone, resource_id=ID + "media_picker_item")
    assert state(phone).avatar == ""  # not saved yet
    tap(phone, text="Save")
    assert state(phone).avatar == state(phone).photos[0]
    assert node(phone, resource_id=ID + "user_avatar").content_desc == "Avatar"


def test_default_dynamics_seed_content_and_popups() -> None:
    seen = set()
    for seed in range(6):
        s = state(discord(seed=seed, dynamics="default"))
        seen.add((tuple(x.name for x in s.servers), tuple(n.text for n in s.notifications), tuple(s.photos)))
        assert s.servers[-1].name == MINE and s.notifications
        assert [c.name for c in s.servers[-1].channels] == ["general", "Gaming", "Lobby"]
    assert len(seen) > 3
    popups = {}
    for seed in range(12):
        phone = discord(seed=seed, dynamics="default")
        for _ in range(4):
            shown = popup_texts(phone, POPUP_TITLES)
            if shown:
                popups.setdefault(shown[0], seed)
                phone.perform(Action.back())  # BACK closes the popup, not the app
                assert phone.foreground_activity() == MAIN
            phone.perform(Action.back())  # leaves the app: its activity finishes
            phone.runtime.launch(PKG)
    assert set(popups) == set(POPUP_TITLES), popups


POPUP_TITLES = ("Allow Discord to send you notifications?", "Unleash more fun with Nitro", "What's New")


def test_setup_is_checked() -> None:
    with pytest.raises(SimulatorError, match="template"):
        discord(servers=[{"name": "X", "template": "Chess"}])
    with pytest.raises(SimulatorError, match="no field"):
        discord(servers=[{"name": "X", "colour": "red"}])
    with pytest.raises(SimulatorError, match="kind"):
        discord(servers=[{"name": "X", "channels": [{"name": "a", "kind": "video"}]}])
    with pytest.raises(SimulatorError, match="dm_spam_filter"):
        discord(dm_spam_filter="Nope")
    with pytest.raises(SimulatorError, match="selected"):
        discord(selected="Nowhere")
    with pytest.raises(SimulatorError, match="expects bool"):
        discord(allow_server_dms="yes")
    phone = discord(seed=3, dynamics="default", servers=[{"name": "Agent Env"}])
    assert state(phone).servers[-1].name == "Agent Env" and server(phone, MINE)


def test_every_reachable_screen_has_a_valid_dump() -> None:
    assert len(crawl("discord", limit=16)) == 16


@pytest.mark.slow
@pytest.mark.parametrize("profile", EVERY_PROFILE)
def test_every_reachable_screen_has_a_valid_dump_on_every_profile(profile: str) -> None:
    first = crawl("discord", dynamics="default", seed=5, profile=profile, limit=50)
    assert len(first) >= 40
    assert crawl("discord", dynamics="default", seed=5, profile=profile, limit=12) == dict(list(first.items())[:12])


@pytest.mark.parametrize("profile", ["pixel-6", "budget-720p"])
def test_screens_are_deterministic_on_every_profile(profile: str) -> None:
    def run() -> list:
        return frames(discord(seed=2, dynamics="default", profile=profile),
                      (Action.back(), Action.click(0.1, 0.2), Action.click(0.5, 0.2), Action.back(),
                       Action.click(0.9, 0.95), Action.click(0.5, 0.3), Action.type_text("x"), Action.back()))
    assert run() == run()
