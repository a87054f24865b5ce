"""AndroidWorld's verbs on a phone: `AndroidDevice` (the real uiautomator2 and adbutils)
against the loopback fake phone. A long press and a double tap reach the phone as the
gestures uiautomator2 makes them (a click held, a touch tap and a click close behind)
and the phone's simulator as one LONG_PRESS / DOUBLE_TAP at the pixel; OPEN_APP finds
the package by the launcher's name among the installed ones and starts it with monkey,
and refuses an app the phone lacks before sending anything; WAIT lets time pass and
touches nothing; ANSWER and INVALID do nothing. The fake's side is checked through the
other clients' paths too (u2's own ``long_click``/``double_click``, ``input swipe``,
``monkey``, ``am start``)."""

from __future__ import annotations

import re
import time

import gymnasium as gym
import pytest

from mobile_gym.actions import Action, ActionType
from mobile_gym.devices.android import LAUNCHER_CATEGORY, AndroidConfig, AndroidDevice
from mobile_gym.app_names import resolve_app
from mobile_gym.devices.fake import FakePhoneServer, pixel_point
from mobile_gym.errors import AppNotInstalledError, ConfigError
from mobile_gym.simulator import SimulatedDevice
from fake_phones import guarded, record_actions, record_rpcs, record_shell

pytestmark = [pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]

SERIAL = "emulator-5554"
GMAIL = "com.google.android.gm"
#: Short deadlines; a long press just past the fake's 400 ms timeout, a short WAIT.
FAST = AndroidConfig(call_timeout=2.0, connect_timeout=15.0, settle_timeout=1.0, poll_interval=0.01,
                     change_timeout=0.05, long_press_seconds=0.45, wait_seconds=0.3)
ROW = re.compile(r'<node [^>]*resource-id="[^"]*viewified_conversation_item_view"[^>]*>')
@pytest.fixture
def phone():
    """A fake phone on 127.0.0.1, the backend on it (connected and observed), and a twin
    simulator with the same seed; the fake is stopped after the test."""
    with FakePhoneServer(serials=(SERIAL,), seed=3) as server:
        device = AndroidDevice(SERIAL, adb_port=server.port, config=FAST)
        guarded(device.observe, screenshot=False)
        try:
            yield server, device, SimulatedDevice(seed=3)
        finally:
            device.close()


def both(device: AndroidDevice, twin: SimulatedDevice, action: Action) -> None:
    guarded(device.perform, action)
    twin.perform(action)


def same_screen(device: AndroidDevice, twin: SimulatedDevice) -> str:
    xml = guarded(device.observe, screenshot=False).xml
    assert xml == twin.observe(screenshot=False).xml
    return xml


def centre(node: str, size: tuple[int, int]) -> tuple[float, float]:
    """The centre of a dumped node, as fractions of the screen."""
    x1, y1, x2, y2 = map(int, re.search(r'bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', node).groups())
    return (x1 + x2) / 2 / size[0], (y1 + y2) / 2 / size[1]


def at_pixel(kind: ActionType, x: float, y: float, size: tuple[int, int]) -> Action:
    """The action the phone hands its simulator for a gesture at fractions (x, y): at the
    centre of the pixel the backend touched."""
    return Action(kind, touch=pixel_point(x * size[0], y * size[1], size))


# -- long press ---------------------------------------------------------------------------

def test_a_long_press_is_u2_s_long_click_held_at_its_pixel(phone, monkeypatch) -> None:
    server, device, _ = phone
    rpcs, performed = record_rpcs(monkeypatch), record_actions(server, SERIAL)
    start = time.monotonic()
    guarded(device.perform, Action.long_press(0.3, 0.4))
    assert time.monotonic() - start >= FAST.long_press_seconds  # the fake holds the finger that long
    size = device.screen_size
    inputs = [(m, p) for m, p in rpcs if m != "dumpWindowHierarchy"]
    assert inputs == [("click", [0.3 * size[0], 0.4 * size[1], 450])]  # long_click's RPC, in pixels
    assert performed == [at_pixel(ActionType.LONG_PRESS, 0.3, 0.4, size)]


def test_a_long_press_on_a_gmail_row_selects_it_as_on_the_simulator(phone) -> None:
    server, device, twin = phone
    guarded(device.perform, Action.open_app("Gmail"))
    twin.runtime.launch(GMAIL)  # what the phone's monkey does
    twin.runtime.tick()
    xml = same_screen(device, twin)
    row = ROW.search(xml).group()
    assert 'selected="false"' in row
    both(device, twin, Action.long_press(*centre(row, device.screen_size)))
    xml = same_screen(device, twin)
    assert device.foreground_activity().startswith(f"{GMAIL}/")  # still the list: no message opened
    assert 'selected="true"' in ROW.search(xml).group()


def test_a_plain_tap_still_acts_after_a_long_press(phone) -> None:
    server, device, twin = phone
    both(device, twin, Action.long_press(0.5, 0.5))
    performed = record_actions(server, SERIAL)
    both(device, twin, Action.click(0.5, 0.93))  # the launcher's search field
    assert performed == [at_pixel(ActionType.CLICK, 0.5, 0.93, device.screen_size)]
    same_screen(device, twin)


@pytest.mark.parametrize("how", ["u2 long_click", "u2 selector long_click", "u2 swipe in place",
                                 "u2 touch held", "input swipe in place"])
def test_every_client_s_long_press_reaches_the_simulator_as_one(phone, how) -> None:
    server, device, _ = phone
    u2, adb = device._u2_device(), device._device()
    x, y = 300, 700
    performed = record_actions(server, SERIAL)
    if how == "u2 long_click":
        u2.long_click(x, y, 0.5)
    elif how == "u2 selector long_click":
        node = re.search(r'<node [^>]*text="Chrome"[^>]*>', u2.dump_hierarchy()).group()
        fx, fy = centre(node, device.screen_size)
        x, y = fx * device.screen_size[0], fy * device.screen_size[1]
        u2(text="Chrome").long_click()
    elif how == "u2 swipe in place":
        u2.swipe(x, y, x, y, steps=100)  # 100 steps of 5 ms
    elif how == "u2 touch held":
        u2.touch.down(x, y).sleep(0.45).up(x, y)
    else:
        adb.shell(f"input swipe {x} {y} {x} {y} 600")
    assert [a.action_type for a in performed] == [ActionType.LONG_PRESS]
    assert abs(performed[0].touch[0] * device.screen_size[0] - x) <= 1
    assert abs(performed[0].touch[1] * device.screen_size[1] - y) <= 1


def test_a_press_shorter_than_the_phone_s_long_press_timeout_is_a_tap(phone) -> None:
    server, device, _ = phone
    performed = record_actions(server, SERIAL)
    device._device().shell("input swipe 300 700 300 700 100")
    device._u2_device().long_click(300, 700, 0.2)
    assert [a.action_type for a in performed] == [ActionType.CLICK, ActionType.CLICK]
    device._device().shell("settings put secure long_press_timeout 150")  # a phone set to be quick
    device._u2_device().long_click(300, 700, 0.2)
    assert performed[-1].action_type is ActionType.LONG_PRESS


# -- double tap ---------------------------------------------------------------------------

def test_a_double_tap_is_two_taps_the_phone_takes_for_one_double_tap(phone, monkeypatch) -> None:
    server, device, twin = phone
    rpcs, performed = record_rpcs(monkeypatch), record_actions(server, SERIAL)
    both(device, twin, Action.double_tap(0.4, 0.6))
    size = device.screen_size
    x, y = 0.4 * size[0], 0.6 * size[1]
    assert [(m, p) for m, p in rpcs if m != "dumpWindowHierarchy"] == [
        ("injectInputEvent", [0, x, y, 0]), ("injectInputEvent", [1, x, y, 0]), ("click", [x, y])]
    assert performed == [at_pixel(ActionType.DOUBLE_TAP, 0.4, 0.6, size)]  # one gesture, not two clicks
    same_screen(device, twin)


def test_u2_s_own_double_click_is_one_double_tap_and_two_clicks_are_two(phone) -> None:
    server, device, _ = phone
    u2 = device._u2_device()
    performed = record_actions(server, SERIAL)
    u2.double_click(300, 700)
    assert [a.action_type for a in performed] == [ActionType.DOUBLE_TAP]
    performed.clear()
    u2.click(300, 700)
    u2.click(300, 700)  # uiautomator's click is a tap of its own
    assert [a.action_type for a in performed] == [ActionType.CLICK, ActionType.CLICK]


def test_a_touch_tap_no_second_tap_follows_is_a_tap(phone) -> None:
    """Held for a second tap, it is performed by the next request (a dump reads it) or
    when the double-tap timeout passes."""
    server, device, _ = phone
    u2 = device._u2_device()
    performed = record_actions(server, SERIAL)
    u2.touch.down(300, 700).up(300, 700)
    u2.dump_hierarchy()
    assert [a.action_type for a in performed] == [ActionType.CLICK]
    u2.touch.down(300, 700).up(300, 700)
    phone = server.phone(SERIAL)
    with phone.changed:
        assert phone.changed.wait_for(lambda: len(performed) == 2, timeout=5)
    u2.touch.down(300, 700).up(300, 700).sleep(0.35)
    u2.click(300, 700)  # too late for a double tap
    assert [a.action_type for a in performed] == [ActionType.CLICK] * 4


# -- open app ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, package", [
    ("Gmail", GMAIL), (" you TUBE ", "com.google.android.youtube"), ("Play Store", "com.android.vending"),
    ("Google Play Store", "com.android.vending"), ("com.android.chrome", "com.android.chrome"),
    ("Tasks", "com.google.android.apps.tasks"),
])
def test_open_app_by_its_name_starts_its_package_with_monkey(phone, monkeypatch, name, package) -> None:
    server, device, twin = phone
    runs = record_shell(monkeypatch, "monkey", "am")
    before = device.foreground_activity()
    guarded(device.perform, Action.open_app(name))
    after = guarded(device.observe, screenshot=False).activity
    assert after.startswith(f"{package}/") and after != before
    assert runs == [["monkey", "-p", package, "-c", LAUNCHER_CATEGORY, "1"]]
    twin.runtime.launch(package)
    twin.runtime.tick()  # as the phone's own settle leaves it
    assert device.foreground_activity() == twin.foreground_activity()


@pytest.mark.parametrize("name, message", [
    ("Gmial", r"'Gmial': no app of that name is installed on emulator-5554; the nearest installed: "
              r"Gmail \(com\.google\.android\.gm\)"),
    ("Booking.com", r"Booking\.com \(com\.booking\) is not installed on emulator-5554; the nearest installed: \w"),
    ("com.example.nothing", r"no app of that name is installed"),
])
def test_open_app_of_an_app_the_phone_lacks_raises_and_sends_nothing(phone, monkeypatch, name, message) -> None:
    server, device, _ = phone
    rpcs, performed = record_rpcs(monkeypatch), record_actions(server, SERIAL)
    runs = record_shell(monkeypatch, "monkey", "am", "input", "pm")
    stats = server.stats()
    with pytest.raises(AppNotInstalledError, match=message):
        guarded(device.perform, Action.open_app(name))
    # the packages came with the observation: not a request more
    assert (rpcs, performed, runs) == ([], [], [])
    assert {k: server.stats()[k] for k in ("shell_commands", "u2_requests")} == \
           {k: stats[k] for k in ("shell_commands", "u2_requests")}
    assert guarded(device.observe, screenshot=False).activity.startswith("com.google.android.apps.nexuslauncher/")


def test_an_app_uninstalled_since_is_refused_by_the_packages_read_now(phone, monkeypatch) -> None:
    server, device, _ = phone
    guarded(device.perform, Action.home())  # the packages the last observation read are gone with it
    server.phone(SERIAL).uninstall(GMAIL)
    runs = record_shell(monkeypatch, "monkey", "am", "input")
    with pytest.raises(AppNotInstalledError, match=r"Gmail \(com\.google\.android\.gm\) is not installed"):
        guarded(device.perform, Action.open_app("Gmail"))
    assert runs == []


def test_names_resolve_without_case_or_spaces_and_by_a_store_title() -> None:
    installed = {GMAIL, "com.trello", "com.android.vending"}
    assert resolve_app("G MAIL", installed) == GMAIL
    assert resolve_app("Trello: Manage Team Projects", installed) == "com.trello"
    assert resolve_app("trello: anything after the colon", installed) == "com.trello"
    with pytest.raises(AppNotInstalledError, match=r"nearest installed: Gmail \(com\.google\.android\.gm\), "):
        resolve_app("gmai", installed)


def test_the_fake_shell_starts_apps_as_android_does(phone) -> None:
    server, device, _ = phone
    adb = device._device()
    reply = adb.shell2(["monkey", "-p", "com.example.nothing", "-c", LAUNCHER_CATEGORY, "1"])
    assert "** No activities found to run, monkey aborted." in reply.output and reply.returncode != 0
    assert adb.shell2(["monkey", "-p", GMAIL, "-c", LAUNCHER_CATEGORY, "1"]).returncode == 0
    assert server.phone(SERIAL).foreground()[0] == GMAIL
    adb.shell("am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER -p com.android.chrome")
    assert server.phone(SERIAL).foreground()[0] == "com.android.chrome"
    package, activity = server.device(SERIAL).foreground_activity().split("/")  # Chrome's, by name
    adb.shell(["am", "start", "-n", f"{GMAIL}/{activity.replace('com.android.chrome', GMAIL)}"])
    assert server.phone(SERIAL).foreground()[0] == GMAIL
    reply = adb.shell2(["am", "start", "-n", "com.example.nothing/.Main"])
    assert reply.returncode != 0 and "does not exist" in reply.output


# -- wait, answer, invalid -----------------------------------------------------------------

def test_wait_lets_time_pass_and_touches_nothing(phone, monkeypatch) -> None:
    server, device, _ = phone
    rpcs, performed = record_rpcs(monkeypatch), record_actions(server, SERIAL)
    runs = record_shell(monkeypatch, "input", "monkey", "am")
    before = guarded(device.observe, screenshot=False).xml
    start = time.monotonic()
    guarded(device.perform, Action.wait())
    assert time.monotonic() - start >= FAST.wait_seconds
    assert rpcs[0] == ("waitForIdle", [300])
    assert {m for m, _ in rpcs[1:]} == {"dumpWindowHierarchy"}  # then the screen read, nothing sent
    assert performed == [] and runs == []  # a third of a second moves no simulated clock
    assert guarded(device.observe, screenshot=False).xml == before


def test_a_second_s_wait_moves_the_phone_s_clock_as_the_simulator_s_wait(phone) -> None:
    """A cold start's loading screen ends with the steps the simulator's clock takes;
    the fake phone's clock takes the WAIT's second too, so the two stay alike."""
    server, device, twin = phone
    waiting = AndroidDevice(SERIAL, adb_port=server.port, config=AndroidConfig(
        call_timeout=2.0, connect_timeout=15.0, settle_timeout=1.0, poll_interval=0.01, change_timeout=0.05))
    try:
        performed = record_actions(server, SERIAL)
        both(waiting, twin, Action.wait())
        assert performed == [Action.wait()]
        same_screen(waiting, twin)
        assert server.device(SERIAL).runtime.steps == twin.runtime.steps
    finally:
        waiting.close()


@pytest.mark.parametrize("action", [Action.answer("42"), Action.invalid("I think I should tap")], ids=str)
def test_answer_and_invalid_send_nothing(phone, action) -> None:
    server, device, _ = phone
    stats = server.stats()
    guarded(device.perform, action)
    assert server.stats()["u2_requests"] == stats["u2_requests"]
    assert server.stats()["shell_commands"] == stats["shell_commands"]


@pytest.mark.parametrize("kwargs, message", [
    ({"long_press_seconds": 2.0, "call_timeout": 2.0}, "shorter than call_timeout"),
    ({"long_press_seconds": 0}, "long_press_seconds must be a positive"),
    ({"double_tap_gap": 0.3}, "under 0.3 s"),
    ({"double_tap_gap": 0.01}, "from 0.04 s"),
    ({"wait_seconds": -1}, "wait_seconds must be >= 0"),
    ({"wait_seconds": 3.0, "call_timeout": 2.0}, "wait_seconds .* shorter than call_timeout"),
])
def test_gesture_settings_that_cannot_work_are_refused(kwargs, message) -> None:
    with pytest.raises(ConfigError, match=message):
        AndroidConfig(**kwargs)


# -- through the env -----------------------------------------------------------------------

def test_the_env_opens_an_app_long_presses_and_waits_on_a_phone(phone) -> None:
    server, _, _ = phone
    performed = record_actions(server, SERIAL)
    env = gym.make("LlamaTouch/settings-turn-off-wifi-v0", backend="device", serial=SERIAL, adb_port=server.port,
                   device_config=FAST, actions="all")
    try:
        _, info = env.reset(seed=0)
        assert info["activity"].startswith("com.google.android.apps.nexuslauncher/")
        obs, reward, terminated, truncated, info = env.step(Action.open_app("Gmail"))
        assert info["activity"].startswith(f"{GMAIL}/") and not (terminated or truncated)
        row = ROW.search(obs["view_hierarchy"]).group()
        obs, *_, info = env.step(Action.long_press(*centre(row, env.unwrapped.device.screen_size)))
        assert info["activity"].startswith(f"{GMAIL}/")
        assert 'selected="true"' in ROW.search(obs["view_hierarchy"]).group()
        assert performed[-1].action_type is ActionType.LONG_PRESS
        count = len(performed)
        start = time.monotonic()
        obs, reward, terminated, truncated, info = env.step(Action.wait())
        assert time.monotonic() - start >= FAST.wait_seconds and len(performed) == count
        obs, reward, terminated, truncated, info = env.step(Action.answer("none"))
        assert info["answer"] == "none" and info["steps"] == 4 and not terminated
        # refused before the phone is touched: the step did nothing, and says why
        count = len(performed)
        obs, reward, terminated, truncated, info = env.step(Action.open_app("Gmial"))
        assert re.search(r"'Gmial'.*nearest installed: Gmail \(com\.google\.android\.gm\)", info["action_error"])
        assert len(performed) == count and info["activity"].startswith(f"{GMAIL}/")
    finally:
        env.close()
