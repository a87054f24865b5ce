"""The gestures beyond taps (long press, double tap), OPEN_APP, WAIT and the loading
screens of the default dynamics, driven through the public device interface
(`SimulatedDevice.perform`, the dump) and through an env's steps."""

from __future__ import annotations

import gymnasium as gym
import pytest

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import Action
from mobile_gym.errors import AppNotInstalledError, InvalidActionError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps import MODELLED
from mobile_gym.simulator.dynamics import Dynamics, for_android_world, get_dynamics
from tests.simulator.phone import find, launch, node, tap, texts

LAUNCHER = "com.google.android.apps.nexuslauncher"
ICON = LAUNCHER + ":id/icon"
GMAIL = "com.google.android.gm"
TASKS = "com.google.android.apps.tasks"
TRELLO = "com.trello"
DISCORD = "com.discord"
PROGRESS = "android.widget.ProgressBar"
TOOLBAR = ("Cut", "Copy", "Paste", "Select all")
#: The phones of an env with AndroidWorld's verbs (``actions="all"``): the apps' long-press UIs,
#: and with the default dynamics, loading screens.
WORLD = for_android_world(get_dynamics("none"))
LOADING = for_android_world(get_dynamics("default"))


def centre(phone: SimulatedDevice, n) -> tuple[float, float]:
    W, H = phone.screen_size
    b = n.bounds
    return (b.left + b.right) / 2 / W, (b.top + b.bottom) / 2 / H


def long_press(phone: SimulatedDevice, **attrs):
    n = node(phone, **attrs)
    phone.perform(Action.long_press(*centre(phone, n)))
    return n


def open_gmail_from_home(seed: int, dynamics: str | Dynamics) -> SimulatedDevice:
    phone = SimulatedDevice(seed=seed, dynamics=dynamics)
    tap(phone, text="Gmail", resource_id=ICON)
    return phone


def loading(phone: SimulatedDevice) -> bool:
    return bool(find(phone, class_name=PROGRESS))


# ---------------------------------------------------------------------- long press

def test_a_phone_of_llamatouchs_actions_is_as_released_and_takes_a_long_press_as_a_click() -> None:
    """The long-press UIs are the phone's of ``actions="all"``: a -v0 env's dumps (and the
    element spaces policies were trained in) keep every view's flags as they were."""
    for plain in ("none", "default"):
        phone = SimulatedDevice(seed=0, dynamics=plain)
        assert not node(phone, text="Gmail", resource_id=ICON).flags["long-clickable"]
        long_press(phone, text="Gmail", resource_id=ICON)
        assert phone.foreground_activity().startswith(GMAIL + "/")  # the click the framework makes
    rows = launch("googletasks", lists=[{"name": "My Tasks", "tasks": ["Walk the dog"]}])
    assert not [n for n in rows.observe(screenshot=False).hierarchy.roots[0].iter()
                if n.flags["long-clickable"] and "task_item" in n.resource_id]


def test_long_press_on_a_launcher_icon_opens_its_menu_which_back_or_a_tap_outside_closes() -> None:
    phone = SimulatedDevice(seed=0, dynamics=WORLD)
    icon = node(phone, text="Gmail", resource_id=ICON)
    assert icon.flags["long-clickable"] and icon.flags["clickable"]
    long_press(phone, text="Gmail", resource_id=ICON)
    assert phone.foreground_activity().startswith(LAUNCHER + "/")  # not launched
    info = node(phone, text="App info")
    assert node(phone, text="Compose")  # Gmail's shortcut
    assert info.bounds.top >= icon.bounds.bottom or info.bounds.bottom <= icon.bounds.top  # hangs from the icon
    phone.perform(Action.back())
    assert not find(phone, text="App info")
    long_press(phone, text="Gmail", resource_id=ICON)
    phone.perform(Action.click(0.9, 0.6))  # outside the menu: it closes, nothing launches
    assert not find(phone, text="App info")
    assert phone.foreground_activity().startswith(LAUNCHER + "/")


def test_app_info_in_the_drawer_icon_menu_opens_settings_app_info() -> None:
    phone = SimulatedDevice(seed=0, dynamics=WORLD)
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))  # the drawer
    long_press(phone, text="Tasks", resource_id=ICON)
    assert texts(phone).count("Compose") == 0  # Tasks has no shortcuts here
    tap(phone, text="App info")
    assert phone.foreground_activity() == "com.android.settings/com.android.settings.SubSettings"
    assert {"App info", "Tasks", "Force stop"} <= set(texts(phone))


def test_the_compose_shortcut_opens_gmail_compose() -> None:
    phone = SimulatedDevice(seed=0, dynamics=WORLD)
    long_press(phone, text="Gmail", resource_id=ICON)
    tap(phone, text="Compose")
    assert phone.foreground_activity() == f"{GMAIL}/{GMAIL}.ComposeActivityGmail"


def test_long_press_on_a_gmail_row_selects_it() -> None:
    phone = launch("gmail", dynamics=WORLD)
    row = node(phone, resource_id=GMAIL + ":id/viewified_conversation_item_view")
    assert row.flags["long-clickable"] and not row.flags["selected"]
    phone.perform(Action.long_press(*centre(phone, row)))
    assert node(phone, resource_id=GMAIL + ":id/action_mode_bar")
    assert node(phone, resource_id=GMAIL + ":id/action_bar_title").text == "1"
    assert find(phone, resource_id=GMAIL + ":id/viewified_conversation_item_view")[0].flags["selected"]
    assert phone.foreground_activity().endswith("ConversationListActivityGmail")  # not opened


def test_long_press_on_a_task_opens_its_actions() -> None:
    phone = launch("googletasks", dynamics=WORLD, lists=[{"name": "My Tasks", "tasks": ["Walk the dog"]}])
    row = node(phone, content_desc="Walk the dog", resource_id=TASKS + ":id/task_item")
    assert row.flags["long-clickable"]
    phone.perform(Action.long_press(*centre(phone, row)))
    assert node(phone, resource_id=TASKS + ":id/task_actions_title").text == "Walk the dog"
    tap(phone, text="Add star")
    task = next(t for t in phone.app_state("googletasks").lists[0].tasks if t.title == "Walk the dog")
    assert task.starred
    long_press(phone, content_desc="Walk the dog, starred", resource_id=TASKS + ":id/task_item")
    tap(phone, text="Delete")
    assert all(t.title != "Walk the dog" for t in phone.app_state("googletasks").lists[0].tasks)


def test_long_press_on_a_trello_card_moves_it() -> None:
    phone = launch("trello", dynamics=WORLD)
    tap(phone, text="Website Redesign", resource_id=TRELLO + ":id/board_name")
    card = node(phone, content_desc="Fix footer links", resource_id=TRELLO + ":id/card_view")
    assert card.flags["long-clickable"]
    phone.perform(Action.long_press(*centre(phone, card)))
    tap(phone, text="Move card")
    tap(phone, text="Done", resource_id=TRELLO + ":id/choice")
    lists = {lst.name: [c.title for c in lst.cards]
             for lst in phone.app_state("trello").boards[0].lists}
    assert lists["Done"][-1] == "Fix footer links" and "Fix footer links" not in lists["To Do"]
    assert node(phone, resource_id=TRELLO + ":id/snackbar_text").text == "Card moved to Done"


def test_long_press_on_a_discord_message_opens_its_actions() -> None:
    phone = launch("discord", dynamics=WORLD)
    tap(phone, content_desc="agentian's server", resource_id=DISCORD + ":id/guilds_item_icon")
    tap(phone, text="general", resource_id=DISCORD + ":id/channels_item_name")
    tap(phone, resource_id=DISCORD + ":id/chat_input_edit_text")
    phone.perform(Action.type_text("Hello World"))
    tap(phone, content_desc="Send")
    rows = find(phone, resource_id=DISCORD + ":id/chat_list_item")
    assert rows and all(r.flags["long-clickable"] and not r.flags["clickable"] for r in rows)
    phone.perform(Action.long_press(*centre(phone, rows[-1])))
    assert {"Reply", "Copy Text", "Delete Message"} <= set(texts(phone))
    tap(phone, text="Copy Text")
    assert phone.runtime.clipboard == "Hello World"
    phone.perform(Action.long_press(*centre(phone, find(phone, resource_id=DISCORD + ":id/chat_list_item")[-1])))
    tap(phone, text="Delete Message")
    channel = phone.app_state("discord").servers[0].channels[0]
    assert [m.text for m in channel.messages if m.author == "agentian"] == []


def test_long_press_on_a_text_field_selects_its_text_and_typing_replaces_it() -> None:
    phone = SimulatedDevice(seed=0, dynamics=WORLD)
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Search your phone and more")
    phone.perform(Action.type_text("Gma"))
    field = node(phone, text="Gma")
    assert field.flags["long-clickable"]
    phone.perform(Action.long_press(*centre(phone, field)))
    shown = [t for t in texts(phone) if t in TOOLBAR]
    assert shown == ["Cut", "Copy", "Select all"]  # nothing to paste yet
    bar = node(phone, text="Cut")
    assert bar.package == LAUNCHER  # floats by the field: over it, or under it at the top of the screen
    assert bar.bounds.bottom <= field.bounds.top or bar.bounds.top >= field.bounds.bottom
    phone.perform(Action.type_text("Chr"))
    assert node(phone, resource_id=LAUNCHER + ":id/input").text == "Chr"  # replaced, not appended
    assert not find(phone, text="Cut")  # typing ends the selection
    phone.perform(Action.type_text("ome"))
    assert node(phone, resource_id=LAUNCHER + ":id/input").text == "Chrome"
    # copy, then paste over a new selection
    long_press(phone, resource_id=LAUNCHER + ":id/input")
    tap(phone, text="Copy")
    assert phone.runtime.clipboard == "Chrome" and not find(phone, text="Copy")
    long_press(phone, resource_id=LAUNCHER + ":id/input")
    assert "Paste" in texts(phone)
    tap(phone, text="Cut")
    assert node(phone, resource_id=LAUNCHER + ":id/input").text == "Search your phone and more"


def test_long_press_on_a_plain_button_is_a_tap() -> None:
    tapped, pressed = launch("settings", dynamics=WORLD), launch("settings", dynamics=WORLD)
    row = node(tapped, text="Network & internet")
    assert not row.flags["long-clickable"]
    tapped.perform(Action.click(*centre(tapped, row)))
    pressed.perform(Action.long_press(*centre(pressed, row)))
    assert pressed.foreground_activity() == tapped.foreground_activity() == \
        "com.android.settings/com.android.settings.SubSettings"
    assert pressed.observe(screenshot=False).xml == tapped.observe(screenshot=False).xml


def test_double_tap_taps_twice() -> None:
    phone = launch("googletasks", dynamics=WORLD, lists=[{"name": "My Tasks", "tasks": ["Walk the dog"]}])
    star = find(phone, content_desc="Add star", resource_id=TASKS + ":id/task_star")[0]
    phone.perform(Action.click(*centre(phone, star)))
    assert phone.app_state("googletasks").lists[0].tasks[0].starred
    phone.perform(Action.double_tap(*centre(phone, star)))  # off, then on again
    assert phone.app_state("googletasks").lists[0].tasks[0].starred
    before = phone.runtime.steps
    phone.perform(Action.double_tap(*centre(phone, star)))
    assert phone.app_state("googletasks").lists[0].tasks[0].starred  # twice more: as it was
    assert phone.runtime.steps == before + 1  # one action, one step


# ---------------------------------------------------------------------- open app

@pytest.mark.parametrize("name", ["Gmail", "  gMAIL ", "G mail", "gmail", GMAIL])
def test_open_app_by_label_in_any_case_and_spacing(name: str) -> None:
    phone = SimulatedDevice(seed=0, dynamics=WORLD)
    phone.perform(Action.open_app(name))
    assert phone.foreground_activity() == f"{GMAIL}/{GMAIL}.ConversationListActivityGmail"


def test_open_app_by_setup_key_and_store_title() -> None:
    phone = SimulatedDevice(seed=0, dynamics=WORLD, setup={"install": ["com.spotify.music"]})
    phone.perform(Action.open_app("googletasks"))
    assert phone.foreground_activity().startswith(TASKS + "/")
    phone.perform(Action.open_app("spotify: music and podcasts"))  # the store listing's title
    assert phone.foreground_activity().startswith("com.spotify.music/")
    phone.perform(Action.open_app("Pixel Launcher"))
    assert phone.foreground_activity().startswith(LAUNCHER + "/")


@pytest.mark.parametrize("name, nearest", [("Gmial", "Gmail"), ("Spotify", None), ("Trelo", "Trello")])
def test_open_app_of_an_app_not_installed_raises_and_changes_nothing(name: str, nearest: str | None) -> None:
    phone = launch("settings", dynamics=WORLD)
    phone.runtime.toast("Saved")
    before = (phone.observe(screenshot=False).xml, phone.runtime.steps, phone.runtime.time)
    with pytest.raises(AppNotInstalledError, match=f"cannot open app '{name}': .* the nearest installed: ") as caught:
        phone.perform(Action.open_app(name))
    assert isinstance(caught.value, InvalidActionError)
    if nearest is not None:
        assert caught.value.args[0].split("nearest installed: ")[1].startswith(nearest + " (")
    assert (phone.observe(screenshot=False).xml, phone.runtime.steps, phone.runtime.time) == before


# ---------------------------------------------------------------------- wait, answer

def test_wait_moves_the_clock_a_second_and_counts_a_step() -> None:
    phone = launch("settings", dynamics=WORLD)
    rt = phone.runtime
    time, steps, xml = rt.time, rt.steps, phone.observe(screenshot=False).xml
    phone.perform(Action.wait())
    assert (rt.time - time, rt.steps - steps) == (1, 1)
    assert phone.observe(screenshot=False).xml == xml  # nothing touched (10:00 is still 10:00)
    phone.perform(Action.answer("42"))
    phone.perform(Action.invalid("no idea"))
    assert rt.steps - steps == 3 and rt.time - time == 11
    assert phone.observe(screenshot=False).xml == xml


# ---------------------------------------------------------------------- loading screens

def test_loading_screens_show_for_some_seeds_of_default_dynamics_with_loading_only() -> None:
    shown = [loading(open_gmail_from_home(seed, LOADING)) for seed in range(12)]
    assert any(shown) and not all(shown)
    assert shown == [loading(open_gmail_from_home(seed, LOADING)) for seed in range(12)]  # by seed
    assert WORLD.loading_rate == 0  # the canonical phone never loads
    for plain in ("none", "default"):  # the presets as they were: a phone without WAIT never loads
        assert not any(loading(open_gmail_from_home(seed, plain)) for seed in range(12))


def test_a_loading_screen_swallows_input_and_waiting_settles_it() -> None:
    seed = next(s for s in range(40) if loading(open_gmail_from_home(s, LOADING)))
    phone = open_gmail_from_home(seed, LOADING)
    assert phone.foreground_activity() == f"{GMAIL}/{GMAIL}.ConversationListActivityGmail"
    assert node(phone, class_name=PROGRESS)
    assert node(phone, text="Gmail", resource_id=GMAIL + ":id/splash_screen_title")
    assert not [n for n in phone.observe(screenshot=False).hierarchy.roots[0].iter() if n.flags["clickable"]]
    unread = [m.unread for m in phone.app_state("gmail").messages]
    phone.perform(Action.click(0.5, 0.3))  # swallowed
    phone.perform(Action.long_press(0.5, 0.3))
    phone.perform(Action.type_text("x"))
    assert [m.unread for m in phone.app_state("gmail").messages] == unread
    for _ in range(2):
        phone.perform(Action.wait())
    assert not loading(phone)
    assert node(phone, resource_id=GMAIL + ":id/thread_list_view")


def test_setup_launch_and_a_warm_return_never_load() -> None:
    for seed in range(12):
        phone = launch("gmail", seed=seed, dynamics=LOADING)
        assert not loading(phone)
    seed = next(s for s in range(40) if loading(open_gmail_from_home(s, LOADING)))
    phone = open_gmail_from_home(seed, LOADING)
    phone.perform(Action.wait())
    phone.perform(Action.wait())
    phone.perform(Action.home())
    tap(phone, text="Gmail", resource_id=ICON)
    assert not loading(phone)  # its task was kept: a warm start


def test_oracle_waits_out_loading_screens_in_an_env() -> None:
    """Over seeds of the default dynamics a task's golden path meets loading screens; the
    oracle answers them with WAIT and still solves it."""
    from mobile_gym.agents import OracleAgent

    waited = 0
    for seed in range(6):
        env = gym.make("LlamaTouch/gmail-check-v0", dynamics="default", actions="all")
        obs, info = env.reset(seed=seed)
        agent = OracleAgent("gmail-check")
        for _ in range(40):
            action = agent.act(obs, info)
            waited += action == Action.wait()
            obs, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        assert info["success"] and info["oracle_success"], seed
        env.close()
    assert waited
    for seed in range(6):  # an env of LlamaTouch's actions has no WAIT: no app opens on a loading screen
        env = gym.make("LlamaTouch/gmail-check-v0", dynamics="default")
        obs, info = env.reset(seed=seed)
        agent = OracleAgent("gmail-check")
        while not info["success"]:
            action = agent.act(obs, info)
            assert action != Action.wait(), seed
            obs, *_, info = env.step(action)


def test_env_steps_take_the_new_actions() -> None:
    env = gym.make("LlamaTouch/settings-turn-airplane-mode-v0", dynamics="none")
    obs, info = env.reset(seed=0)
    obs, *_ = env.step(Action.open_app("gmail"))
    assert f'package="{GMAIL}"' in obs["view_hierarchy"]
    obs, *_ = env.step(Action.wait())
    assert "ConversationListActivityGmail" in env.unwrapped.device.foreground_activity()
    row = env.unwrapped.hierarchy.find(resource_id=GMAIL + ":id/viewified_conversation_item_view")
    W, H = env.unwrapped.device.screen_size
    b = row.bounds
    obs, *_ = env.step(Action.long_press((b.left + b.right) / 2 / W, (b.top + b.bottom) / 2 / H))
    assert GMAIL + ":id/action_mode_bar" in obs["view_hierarchy"]
    before = env.unwrapped.device.runtime.steps
    after, *_ = env.step(Action.open_app("Gmial"))  # the device refuses it: the step does nothing
    assert after["view_hierarchy"] == obs["view_hierarchy"] and env.unwrapped.device.runtime.steps == before
    env.close()


@pytest.mark.parametrize("app", [cls for cls in MODELLED if cls.package != LAUNCHER], ids=lambda cls: cls.key)
def test_every_app_family_has_a_loading_screen_to_wait_out(app) -> None:
    """Opened cold under the default dynamics with AndroidWorld's verbs, each modelled app
    loads on some seeds (its name and a progress bar), and WAIT settles it within two steps."""
    for seed in range(60):
        phone = SimulatedDevice(seed=seed, dynamics=LOADING)
        phone.perform(Action.open_app(app.label))
        if loading(phone):
            break
    else:
        raise AssertionError(f"{app.key}: no loading screen in 60 seeds")
    assert node(phone, text=phone.runtime.app(app.package).loading_text)
    for _ in range(2):
        phone.perform(Action.wait())
    assert not loading(phone) and phone.foreground_activity().startswith(app.package + "/")
