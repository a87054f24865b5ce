"""`AndroidDevice` — the real adbutils and uiautomator2 clients — against the loopback
fake phone: the same screens as the simulator behind it, every action type, text typed
verbatim, and each fault recovered or reported as a `DeviceError` within its deadline."""

from __future__ import annotations

import gc
import time

import numpy as np
import pytest

from mobile_gym.actions import Action
from mobile_gym.devices import android
from mobile_gym.devices.android import (
    _END_MARK,
    _FOCUS_MARK,
    _PACKAGES_MARK,
    AndroidConfig,
    AndroidDevice,
    _front_and_packages,
)
from mobile_gym.devices.fake.adb_server import FakePhoneServer
from mobile_gym.errors import ConfigError, DeviceError
from mobile_gym.simulator import SimulatedDevice
from fake_phones import guarded

#: adbutils and uiautomator2 leave the sockets of connections that failed (the faults
#: below) to the garbage collector, which warns; ours are closed.
pytestmark = [pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]

SERIAL = "emulator-5554"
#: Short deadlines, so a fault test takes a second; settling on the fake needs little.
FAST = AndroidConfig(call_timeout=1.5, connect_timeout=10.0, settle_timeout=1.0, poll_interval=0.01,
                    change_timeout=0.05)  # the fake shows every action at once
@pytest.fixture
def phone():
    """A fake phone, the backend on it (connected), and a twin simulator with the same seed."""
    with FakePhoneServer(serials=(SERIAL,), seed=3) as server:
        device = AndroidDevice(SERIAL, adb_port=server.port, config=FAST)
        guarded(device.observe, screenshot=False)
        yield server, device, SimulatedDevice(seed=3)
        device.close()


def test_it_shows_the_screen_of_the_simulator_behind_it(phone) -> None:
    server, device, twin = phone
    state = guarded(device.observe)
    expected = twin.observe()
    assert state.xml == expected.xml and state.activity == expected.activity
    assert state.installed_packages == expected.installed_packages
    assert device.screen_size == twin.screen_size == state.image.size
    # uiautomator2 sends its screenshots as JPEG, as on a phone: the same picture, nearly
    assert np.abs(np.asarray(state.image, float) - np.asarray(expected.image, float)).mean() < 2
    small = guarded(device.observe, screenshot_size=(270, 600))
    assert small.image.size == (270, 600)


@pytest.mark.parametrize("action", [
    Action.swipe(0.5, 0.8, 0.5, 0.3),  # the app drawer
    Action.click(0.5, 0.93),
    Action.back(),
    Action.home(),
    Action.enter(),
], ids=str)
def test_each_action_does_what_it_does_on_the_simulator(phone, action) -> None:
    server, device, twin = phone
    guarded(device.perform, action)
    twin.perform(action)
    assert guarded(device.observe, screenshot=False).xml == twin.observe(screenshot=False).xml


@pytest.mark.parametrize("text", ["tokyo", "a b  c", "'; rm -rf / #", '$(reboot) `id` "q" \\ & | > <', "ünïcödé 東京 🙂"])
def test_text_is_typed_verbatim_and_runs_nothing(phone, text) -> None:
    server, device, twin = phone
    open_search = Action.click(0.5, 0.93)  # the launcher's search field
    for d in (device, twin):
        guarded(d.perform, open_search) if d is device else d.perform(open_search)
    guarded(device.perform, Action.type_text(text))
    twin.perform(Action.type_text(text))
    xml = guarded(device.observe, screenshot=False).xml
    assert xml == twin.observe(screenshot=False).xml
    assert server.device(SERIAL).foreground_activity() == twin.foreground_activity()


def test_a_screen_slow_to_answer_an_action_is_waited_for_not_taken_as_settled(phone) -> None:
    """The phone takes 0.2 s to show a tap (an app opening): two quick reads that agree
    still show the screen from before the action, which is not the action's outcome."""
    server, device, twin = phone
    before = guarded(device.observe, screenshot=False).xml
    server.faults(SERIAL).input_lag = 0.2
    patient = AndroidDevice(SERIAL, adb_port=server.port, config=AndroidConfig(
        call_timeout=1.5, connect_timeout=10.0, settle_timeout=2.0, poll_interval=0.02, change_timeout=1.0))
    try:
        guarded(patient.observe, screenshot=False)
        guarded(patient.perform, Action.swipe(0.5, 0.8, 0.5, 0.3))  # opens the app drawer, 0.2 s late
        after = guarded(patient.observe, screenshot=False)
        twin.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
        assert after.xml != before and after.xml == twin.observe(screenshot=False).xml
        # an action that changes nothing costs change_timeout, then the screen is taken as it is
        guarded(patient.perform, Action.click(0.5, 0.0002))
        assert guarded(patient.observe, screenshot=False).xml == after.xml
    finally:
        server.faults(SERIAL).input_lag = 0.0
        patient.close()


def test_a_stalled_phone_fails_the_call_within_its_deadline_and_recovers(phone) -> None:
    server, device, twin = phone
    server.faults(SERIAL).stall = True
    start = time.monotonic()
    with pytest.raises(DeviceError, match="did not answer within 1.5 s"):
        guarded(device.perform, Action.back())
    assert time.monotonic() - start < 3 * FAST.call_timeout
    server.faults(SERIAL).stall = False
    guarded(device.perform, Action.back())
    twin.perform(Action.back())
    assert guarded(device.observe, screenshot=False).xml == twin.observe(screenshot=False).xml


def test_a_dead_uiautomator_server_is_restarted_and_the_call_goes_on(phone) -> None:
    server, device, twin = phone
    server.faults(SERIAL).u2_dead = True
    guarded(device.perform, Action.swipe(0.5, 0.8, 0.5, 0.3))
    twin.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    assert guarded(device.observe, screenshot=False).xml == twin.observe(screenshot=False).xml


@pytest.mark.parametrize("fault", ["drop_u2_responses", "drop_adb_responses"])
def test_a_dropped_connection_is_made_again_and_the_call_retried(phone, fault) -> None:
    server, device, twin = phone
    setattr(server.faults(SERIAL), fault, 1)
    state = guarded(device.observe, screenshot=False)
    assert state.xml == twin.observe(screenshot=False).xml
    assert state.activity == twin.foreground_activity()


@pytest.mark.parametrize("fault", ["empty_dumps", "truncated_dumps"])
def test_an_empty_or_cut_short_dump_is_read_again(phone, fault) -> None:
    server, device, twin = phone
    setattr(server.faults(SERIAL), fault, 3)
    guarded(device.perform, Action.back())
    twin.perform(Action.back())
    assert guarded(device.observe, screenshot=False).xml == twin.observe(screenshot=False).xml


def test_a_dump_that_stays_empty_is_an_error_not_a_screen(phone) -> None:
    server, device, _ = phone
    server.faults(SERIAL).empty_dumps = 100
    with pytest.raises(DeviceError, match="view hierarchy was empty .* 6 reads in a row"):
        guarded(device.perform, Action.back())


def test_an_adb_server_that_is_gone_is_a_device_error() -> None:
    server = FakePhoneServer(serials=(SERIAL,), seed=0)
    device = AndroidDevice(SERIAL, adb_port=server.port, config=FAST)
    guarded(device.observe, screenshot=False)
    server.close()
    with pytest.raises(DeviceError, match=SERIAL):
        guarded(device.perform, Action.back())
    device.close()
    with pytest.raises(DeviceError, match="closed"):
        device.foreground_activity()
    with pytest.raises(DeviceError, match="closed"):
        device.observe(screenshot=False)
    gc.collect()  # the sockets the libraries leave behind a refused connection go here, not later


def test_no_serial_picks_the_only_phone_and_refuses_to_guess_among_several() -> None:
    with FakePhoneServer(serials=(SERIAL,), seed=0) as server:
        device = AndroidDevice(adb_port=server.port, config=FAST)
        assert guarded(lambda: device.screen_size) == (1080, 2400) and device.serial == SERIAL
        device.close()
    with FakePhoneServer(serials=(SERIAL, "emulator-5556"), seed=0) as server:
        device = AndroidDevice(adb_port=server.port, config=FAST)
        with pytest.raises(DeviceError, match="sees 2 devices .* name one with serial="):
            guarded(device.foreground_activity)
        device.close()


def test_reset_goes_home_and_launches_the_tasks_app(phone) -> None:
    server, device, _ = phone
    guarded(device.reset, 0, {"launch": "com.android.settings"})
    assert guarded(device.foreground_activity).startswith("com.android.settings/")
    guarded(device.reset, 0, {})
    assert "nexuslauncher" in guarded(device.foreground_activity)
    with pytest.raises(ConfigError, match="install"):
        device.reset(0, {"install": ["x"]})


def _grew(server: FakePhoneServer, before: dict) -> dict:
    """The fake's counters that moved since ``before`` (`FakePhoneServer.stats`)."""
    after = server.stats()
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


def test_a_step_costs_four_uiautomator2_requests_and_one_shell_command(phone) -> None:
    """An env's step: the action, then the observation for the agent and the one judged."""
    server, device, _ = phone
    guarded(device.perform, Action.back())  # the screen size is read once, here
    before = server.stats()
    guarded(device.perform, Action.swipe(0.5, 0.8, 0.5, 0.3))  # the app drawer: the screen answers at once
    guarded(device.observe, screenshot_size=(270, 600))
    guarded(device.observe, screenshot=False)
    grew = _grew(server, before)
    assert grew["u2_requests"] == 4  # the action, two dumps that agree, the screenshot
    assert grew["shell_commands"] == 1  # the foreground activity and the packages, at once
    assert grew["adb_connections"] == 5  # one each: the adb server's version is not asked again


def test_observing_again_before_an_action_shows_the_screen_read_once(phone) -> None:
    server, device, _ = phone
    first = guarded(device.observe, screenshot_size=(270, 600))
    before = server.stats()
    again = guarded(device.observe, screenshot=False, deferred_screenshot=True)
    assert (again.xml, again.activity, again.installed_packages) == (first.xml, first.activity,
                                                                     first.installed_packages)
    assert again.image.size == (1080, 2400)  # the same screenshot, decoded whole when read
    assert _grew(server, before) == {}
    # the phone changes by itself: observations keep the screen read, reads of "now" do not
    server.phone(SERIAL).launch("com.android.settings")
    assert guarded(device.observe, screenshot=False).activity == first.activity
    now = server.device(SERIAL).foreground_activity()
    assert guarded(device.foreground_activity) == now != first.activity
    # an action: everything is read afresh
    guarded(device.perform, Action.back())
    state = guarded(device.observe, screenshot=False)
    assert (state.xml, state.activity) == (server.device(SERIAL).observe(screenshot=False).xml,
                                           server.device(SERIAL).foreground_activity())


def test_activity_and_packages_are_read_from_one_command_whose_reply_is_checked() -> None:
    def reply(focus: str) -> str:
        return (f"{_FOCUS_MARK}\n{focus}\n{_PACKAGES_MARK}\npackage:com.example.notes\r\n"
                f"package:com.android.settings\n{_END_MARK}")

    packages = frozenset({"com.example.notes", "com.android.settings"})
    short = "  mCurrentFocus=Window{3c8a7e1 u0 com.example.notes/.Main}"  # dumpsys's short form
    assert _front_and_packages(reply(short)) == ("com.example.notes/com.example.notes.Main", packages)
    full = "  mCurrentFocus=Window{3c8a7e1 u0 com.android.settings/com.android.settings.Settings}"
    assert _front_and_packages(reply(full))[0] == "com.android.settings/com.android.settings.Settings"
    assert _front_and_packages(reply("  mCurrentFocus=null")) == (None, packages)  # no app window focused
    # Android 13: the activity manager's resumed activity first, whatever window has the focus
    android13 = ("    topResumedActivity=ActivityRecord{b4b3a9d u0 com.android.settings/.SubSettings t12}\n"
                 "  ResumedActivity: ActivityRecord{b4b3a9d u0 com.android.settings/.SubSettings t12}\n"
                 "  mCurrentFocus=Window{5e1 u0 PopupWindow:8d2f3c1}\n"
                 "  mFocusedApp=ActivityRecord{b4b3a9d u0 com.android.settings/.SubSettings t12}")
    assert _front_and_packages(reply(android13))[0] == "com.android.settings/com.android.settings.SubSettings"
    with pytest.raises(EOFError, match="cut short"):
        _front_and_packages(reply(full)[:60])
    with pytest.raises(EOFError, match="listed no packages"):  # the package manager not up yet
        _front_and_packages(reply(full).replace("package:", "Error: Could not access the Package Manager "))


def test_with_no_window_focused_the_activity_comes_from_the_activity_manager(phone, monkeypatch) -> None:
    server, device, _ = phone
    command = android.FRONT_AND_PACKAGES.replace("'ResumedActivity'", "NoSuchActivity")
    command = command.replace("'mFocusedApp|mCurrentFocus'", "NoSuchWindow")
    assert command.count("NoSuch") == 2
    monkeypatch.setattr(android, "FRONT_AND_PACKAGES", command)
    assert guarded(device.foreground_activity) == server.device(SERIAL).foreground_activity()


def test_a_tap_on_the_first_row_of_pixels_lands_there() -> None:
    """uiautomator2's own click reads a coordinate below 1 as a fraction of the screen."""
    with FakePhoneServer(serials=(SERIAL,), seed=3, setup={"launch": "settings"}) as server:
        device = AndroidDevice(SERIAL, adb_port=server.port, config=FAST)
        twin = SimulatedDevice(seed=3, setup={"launch": "settings"})
        guarded(device.perform, Action.click(0.5, 0.0002))  # pixel row 0, not 48% down
        twin.perform(Action.click(0.5, 0.0002))
        assert guarded(device.observe, screenshot=False).xml == twin.observe(screenshot=False).xml
        device.close()


@pytest.mark.parametrize("field, value", [("call_timeout", 0), ("settle_timeout", -1), ("dump_retries", -1),
                                          ("poll_interval", -0.1), ("call_timeout", True),
                                          ("change_timeout", -1), ("snapshot_timeout", 0)])
def test_bad_config_is_refused(field, value) -> None:
    with pytest.raises(ConfigError, match=field):
        AndroidConfig(**{field: value})


@pytest.mark.parametrize("field, value", [("adb_port", 0), ("adb_port", 70000), ("console_port", "5554"),
                                          ("console_port", True)])
def test_a_port_that_is_no_port_is_refused(field, value) -> None:
    with pytest.raises(ConfigError, match=f"{field} must be a port number from 1 to 65535"):
        AndroidDevice(SERIAL, **{field: value})
