"""The fake phone driven end to end by the real adbutils and uiautomator2.

Each test starts its own `FakePhoneServer` on a free loopback port and closes it; no
real adb server, device or network is involved. Every test body runs under a time
limit (`_within`): a protocol bug shows as a failure, not a hung suite; no real adb
server is ever started (``tests/conftest.py``).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import gc
import hashlib
import http.client
import io
import re
import socket
import threading
import time
import warnings

import adbutils
import numpy as np
import pytest
import uiautomator2 as u2
from PIL import Image

from mobile_gym.actions import Action
from mobile_gym.cli import main
from mobile_gym.devices.fake import pixel_point
from mobile_gym.devices.fake.adb_server import FakePhoneServer
from mobile_gym.devices.fake.shell import ShellSyntaxError, parse, tokenize
from mobile_gym.devices.fake.stats import COUNTERS, Stats
from mobile_gym.errors import ConfigError
from mobile_gym.simulator import SimulatedDevice
from fake_phones import fake_device, free_port

SERIAL = "emulator-5554"
LIMIT = 20.0  # seconds any one test may take

#: adbutils leaves its socket open when it cannot reach the server at all (a real adb
#: server gone provokes the same leak): the tests that take the server away let that
#: ResourceWarning pass.
LIBRARY_LEAKS = pytest.mark.filterwarnings("ignore::ResourceWarning")


def _within(seconds: float = LIMIT):
    """Run the test body in a thread and fail if it is not done in ``seconds``."""

    def wrap(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            box: dict = {}

            def body():
                try:
                    box["result"] = fn(*args, **kwargs)
                except BaseException as exc:  # re-raised in the test's own thread
                    box["error"] = exc

            t = threading.Thread(target=body, daemon=True, name=f"test-{fn.__name__}")
            t.start()
            t.join(seconds)
            if t.is_alive():
                pytest.fail(f"{fn.__name__} still running after {seconds} s (a hang)")
            if "error" in box:
                raise box["error"]
            return box.get("result")

        return run

    return wrap


def _call_in_thread(fn):
    """Start ``fn`` in a thread; returns (thread, box) where box gets result/error."""
    box: dict = {}

    def body():
        try:
            box["result"] = fn()
        except BaseException as exc:
            box["error"] = exc

    t = threading.Thread(target=body, daemon=True)
    t.start()
    return t, box


@contextlib.contextmanager
def _serving(**kwargs):
    """A server for one test. adbutils does not close its socket when a transport is
    refused (an unknown or offline serial), as with a real server: client sockets to
    this server's port may be collected unclosed, server-side ones may not."""
    with FakePhoneServer(**kwargs) as s:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=ResourceWarning,
                                    message=rf"unclosed <socket\.socket .*raddr=\('127\.0\.0\.1', {s.port}\)")
            try:
                yield s
            finally:
                gc.collect()  # the library's reference cycles go now, not in another test
    assert not [t for t in threading.enumerate() if t.name.startswith("fake-adb")], "server threads left"


@pytest.fixture
def server():
    with _serving(seed=0) as s:
        yield s


@pytest.fixture
def adb(server):
    return adbutils.AdbClient(host="127.0.0.1", port=server.port)


@pytest.fixture
def dev(adb):
    return adb.device(SERIAL)


@pytest.fixture
def ud(server, monkeypatch):
    """uiautomator2 connected by serial: it finds devices through the module-level
    ``adbutils.adb`` client (made at import time from ANDROID_ADB_SERVER_PORT), so that
    is the one pointed at the fake."""
    monkeypatch.setattr(adbutils, "adb", server.client())
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(server.port))
    d = _within()(u2.connect)(SERIAL)
    yield d
    d.stop_uiautomator(wait=False)


def _twin(**kwargs) -> SimulatedDevice:
    """A simulator in the state the fake phone starts in, to replay the same actions on."""
    return SimulatedDevice(seed=0, **kwargs)


def _xml(device: SimulatedDevice) -> str:
    return device.observe(screenshot=False).xml


# ============================================================================ adbutils
@_within()
def test_adbutils_server_version_and_device_list(server, adb):
    assert adb.server_version() == 41
    assert [(i.serial, i.state) for i in adb.list()] == [(SERIAL, "device")]
    info = adb.list(extended=True)[0]
    assert info.tags["model"] == "Pixel_6" and info.tags["transport_id"] == "1"
    assert [d.serial for d in adb.device_list()] == [SERIAL]


@_within()
def test_several_phones_each_with_its_own_simulator():
    with _serving(serials=("emulator-5554", "emulator-5556"), seed=0) as server:
        adb = adbutils.AdbClient(port=server.port)
        assert sorted(d.serial for d in adb.device_list()) == ["emulator-5554", "emulator-5556"]
        adb.device("emulator-5556").shell("am start -n com.android.settings/.Settings")
        assert server.device("emulator-5556").foreground_activity().startswith("com.android.settings/")
        assert "nexuslauncher" in server.device("emulator-5554").foreground_activity()
        with pytest.raises(adbutils.AdbError, match="not found"):
            adb.device("nope").shell("true")


@_within()
def test_track_devices_sees_phones_plugged_and_unplugged(server, adb):
    events = adb.track_devices()
    try:
        first = next(events)
        assert (first.present, first.serial, first.status) == (True, SERIAL, "device")
        server.add_device("emulator-5556")
        plugged = next(events)
        assert (plugged.present, plugged.serial) == (True, "emulator-5556")
        server.remove_device("emulator-5556")
        unplugged = next(events)
        assert (unplugged.present, unplugged.serial) == (False, "emulator-5556")
    finally:
        events.close()


@_within()
def test_adbutils_shell_exit_codes_v1_and_v2(dev):
    for v2 in (False, True):
        r = dev.shell2("echo hello", v2=v2)
        assert (r.returncode, r.output) == (0, "hello\n")
        assert dev.shell2("false", v2=v2).returncode == 1
        assert dev.shell2("sh -c 'exit 3'", v2=v2).returncode == 3
        r = dev.shell2("frobnicate --now", v2=v2)
        assert r.returncode == 127
        assert "/system/bin/sh: frobnicate: inaccessible or not found" in r.output
    with pytest.raises(adbutils.AdbError):  # as on a phone: exit ends before "; echo X4EXIT:$?"
        dev.shell2("exit 3")
    assert dev.shell2("exit 3", v2=True).returncode == 3
    r = dev.shell2("echo out; echo err >&2; exit 5", v2=True)
    assert (r.stdout, r.stderr, r.returncode) == ("out\n", "err\n", 5)
    assert dev.shell("getprop ro.build.version.sdk") == "33"
    assert dev.getprop("ro.product.model") == "Pixel 6"
    assert dev.shell(["echo", "a b;c", "$HOME"]) == "a b;c $HOME"  # quoted by adbutils, kept by sh


@_within()
def test_shell_language(dev):
    assert dev.shell("false || echo or; true && echo and; false && echo never") == "or\nand"
    assert dev.shell("false; echo $?; X=1; echo \"x=$X\" '$X'") == "1\nx=1 $X"
    assert dev.shell("echo one > /data/local/tmp/f; echo two >> /data/local/tmp/f; cat /data/local/tmp/f") == "one\ntwo"
    assert dev.shell("ls /nope 2>&1 | grep -c 'No such'") == "1"
    assert dev.shell("ls /nope 2>/dev/null; echo $?") == "1"
    assert dev.shell("dumpsys window | grep mCurrentFocus").strip().startswith("mCurrentFocus=Window{")
    assert dev.shell2("echo 'unterminated", v2=True).returncode == 2
    with pytest.raises(ShellSyntaxError):
        parse("a && ")
    words = [t for t in tokenize(r"""CLASSPATH=/x app_process "a b" 'c d' e\ f""") if not isinstance(t, str)]
    assert words[0].assign == "CLASSPATH" and [w.expand({}) for w in words[1:]] == ["app_process", "a b", "c d", "e f"]


@_within()
def test_adbutils_sync_push_pull_stat_list(dev, tmp_path):
    payload = bytes(range(256)) * 1000  # several DATA chunks
    src = tmp_path / "payload.bin"
    src.write_bytes(payload)
    assert dev.sync.push(src, "/data/local/tmp/payload.bin", check=True) == len(payload)
    info = dev.sync.stat("/data/local/tmp/payload.bin")
    assert info.size == len(payload) and info.mode & 0o100000
    assert dev.sync.stat("/data/local/tmp/missing").mtime is None
    assert "payload.bin" in [f.path for f in dev.sync.list("/data/local/tmp")]
    dst = tmp_path / "back.bin"
    assert dev.sync.pull("/data/local/tmp/payload.bin", dst) == len(payload)
    assert dst.read_bytes() == payload
    assert dev.sync.read_text("/sdcard/../emulated/0/../../../data/local/tmp/payload.bin", "latin-1").encode("latin-1") == payload
    assert dev.shell("md5sum /data/local/tmp/payload.bin").split()[0] == hashlib.md5(payload).hexdigest()
    dev.sync.push(b"into a new folder", "/sdcard/Download/new/dir/file.txt")  # adbd makes the folders
    assert dev.shell("cat /sdcard/Download/new/dir/file.txt") == "into a new folder"
    with pytest.raises(adbutils.AdbError):  # the system partition is not the shell user's
        dev.sync.push(b"x", "/system/bin/evil")
    with pytest.raises(adbutils.AdbError, match="No such file"):
        dev.sync.read_bytes("/data/local/tmp/missing")
    dev.shell("rm /data/local/tmp/payload.bin")
    assert "payload.bin" not in dev.shell("ls /data/local/tmp")


@_within()
def test_adbutils_window_app_packages(server, dev):
    assert tuple(dev.window_size()) == (1080, 2400)
    assert dev.shell("wm density") == "Physical density: 420"
    package, activity = server.device(SERIAL).foreground_activity().split("/")
    current = dev.app_current()  # as on Android 13: from `dumpsys activity top`, in its short form
    assert (current.package, current.package + current.activity) == (package, activity)
    assert "mCurrentFocus" not in dev.shell("dumpsys window windows")  # Android 13 moved it
    assert "mCurrentFocus=Window{" in dev.shell("dumpsys window displays")
    packages = dev.list_packages()
    assert packages == sorted(server.device(SERIAL).installed_packages())
    assert "com.android.settings" in packages
    dev.app_start("com.android.settings")  # monkey -p ... LAUNCHER 1
    assert dev.app_current().package == "com.android.settings"
    dev.app_stop("com.android.settings")
    assert dev.app_current().package == package
    dev.open_browser("https://www.google.com/")
    assert dev.app_current().package == "com.android.chrome"
    assert "www.google.com" in server.device(SERIAL).app_state("chrome").url
    assert dev.app_info("com.android.chrome").version_name == "1.0"


@_within()
def test_adbutils_screenshot_is_the_simulator_render(server, dev):
    shot = dev.screenshot()
    assert shot.size == (1080, 2400)
    want = np.asarray(server.device(SERIAL).render().convert("RGB"))
    assert np.array_equal(np.asarray(shot), want)
    raw = dev.shell("screencap", encoding=None)  # the raw format: a 16-byte header, RGBA
    assert len(raw) == 16 + 1080 * 2400 * 4
    dev.shell("screencap -p /sdcard/s.png")
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(dev.sync.read_bytes("/sdcard/s.png"))).convert("RGB")), want)


@_within()
def test_adbutils_input_commands_act_on_the_simulator(server, dev):
    twin = _twin()
    dev.swipe(540, 1900, 540, 700, 0.1)  # the app drawer, as a swipe up
    twin.perform(Action.swipe(*pixel_point(540, 1900, (1080, 2400)), *pixel_point(540, 700, (1080, 2400))))
    assert _xml(server.device(SERIAL)) == _xml(twin)
    dev.shell("input keyevent KEYCODE_BACK")
    twin.perform(Action.back())
    assert _xml(server.device(SERIAL)) == _xml(twin)
    dev.shell("am start -n com.android.chrome/org.chromium.chrome.browser.ChromeTabbedActivity")
    dev.click(534, 136)  # the omnibox
    dev.shell(["input", "text", "it's a%stest; really"])  # quoted by adbutils, %s is a space
    url_bar = server.device(SERIAL).observe(screenshot=False)
    assert 'text="it\'s a test; really"' in url_bar.xml.replace("&apos;", "'")
    dev.shell("input keyevent 66")  # ENTER: the search runs
    assert "it's a test" in server.device(SERIAL).app_state("chrome").url.replace("%27", "'").replace("+", " ")
    dev.shell("input keyevent HOME")
    assert "nexuslauncher" in dev.app_current().package
    assert dev.shell2("input keyevent KEYCODE_NOT_A_KEY").returncode == 1


@_within()
def test_adbutils_create_connection_and_forward_reach_the_u2_server(server, dev):
    with pytest.raises(adbutils.AdbError, match="closed"):  # nothing listens on 9008 yet
        dev.create_connection(adbutils.Network.TCP, 9008)
    server.phone(SERIAL).start_u2(9008)
    sock = dev.create_connection(adbutils.Network.TCP, 9008)
    try:
        sock.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        reply = b""
        while chunk := sock.recv(4096):
            reply += chunk
    finally:
        sock.close()
    assert reply.startswith(b"HTTP/1.1 200 OK") and reply.endswith(b"pong")
    port = dev.forward_port(9008)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("POST", "/jsonrpc/0", '{"jsonrpc": "2.0", "id": 7, "method": "deviceInfo", "params": []}')
        body = conn.getresponse().read()
    finally:
        conn.close()
    assert b'"displayWidth": 1080' in body and b'"id": 7' in body
    assert [f.remote for f in dev.forward_list()] == ["tcp:9008"]
    dev.forward_remove_all()
    assert dev.forward_list() == []


# ============================================================================ uiautomator2
@_within()
def test_u2_connect_by_device_object_and_info(server):
    d = u2.connect(server.client().device(SERIAL))
    try:
        info = d.info
        assert (info["displayWidth"], info["displayHeight"], info["sdkInt"]) == (1080, 2400, 33)
        assert info["currentPackageName"] == server.device(SERIAL).foreground_activity().split("/")[0]
        assert d.window_size() == (1080, 2400)
        assert d.device_info["model"] == "Pixel 6"
    finally:
        d.stop_uiautomator(wait=False)


@_within()
def test_u2_dump_and_screenshot(server, ud):
    assert ud.dump_hierarchy() == _xml(server.device(SERIAL))
    shot = ud.screenshot()
    assert shot.size == (1080, 2400)
    want = np.asarray(server.device(SERIAL).render().convert("RGB"), dtype=np.int16)
    assert np.abs(np.asarray(shot.convert("RGB"), dtype=np.int16) - want).mean() < 3  # JPEG, as the real one


@_within()
def test_u2_click_swipe_press(server, ud):
    twin = _twin()
    size = (1080, 2400)
    ud.swipe(540, 1900, 540, 700)
    twin.perform(Action.swipe(*pixel_point(540, 1900, size), *pixel_point(540, 700, size)))
    assert _xml(server.device(SERIAL)) == _xml(twin)
    x, y = ud(text="Settings").center()
    ud.click(x, y)
    twin.perform(Action.click(*pixel_point(x, y, size)))
    assert _xml(server.device(SERIAL)) == _xml(twin)
    assert ud.app_current()["package"] == "com.android.settings"
    ud.press("back")
    twin.perform(Action.back())
    assert _xml(server.device(SERIAL)) == _xml(twin)
    ud.app_start("com.android.settings")
    ud.press("home")
    assert "nexuslauncher" in ud.app_current()["package"]
    ud.press(4)  # a key code
    assert ud(text="Chrome").exists


@_within()
def test_u2_send_keys_types_into_the_focused_field(server, ud):
    ud.app_start("com.android.chrome")
    ud(resourceId="com.android.chrome:id/url_bar").click()
    ud.send_keys("hello fake phone")
    assert server.phone(SERIAL).clipboard == "hello fake phone"
    field = ud(resourceId="com.android.chrome:id/url_bar")
    assert field.get_text() == "hello fake phone"
    assert field.info["focused"] is True
    ud.press("enter")
    assert "hello" in server.device(SERIAL).app_state("chrome").url


@_within()
def test_u2_send_keys_through_the_adb_keyboard_ime(server, ud):
    """With uiautomator2's AdbKeyboard installed, send_keys selects that IME and types
    through ``am broadcast -a ADB_KEYBOARD_INPUT_TEXT --es text <base64>``."""
    server.phone(SERIAL).adb_keyboard = True
    ud.app_start("com.android.chrome")
    ud(resourceId="com.android.chrome:id/url_bar").click()
    long_text = "ünïcode " + "x" * 600  # longer than one TYPE action holds
    ud.send_keys(long_text)
    assert server.phone(SERIAL).clipboard is None  # not the clipboard path
    assert ud.shell("settings get secure default_input_method").output.strip() == "com.github.uiautomator/.AdbKeyboard"
    assert ud(resourceId="com.android.chrome:id/url_bar").get_text() == long_text
    ud.clear_text()
    assert ud(resourceId="com.android.chrome:id/url_bar").get_text() != long_text


@_within()
def test_u2_selectors(server, ud):
    assert ud(text="Chrome").exists and not ud(text="No such app").exists
    assert ud(textContains="hrom", className="android.widget.TextView").count >= 1
    assert ud(text="No such app").wait(timeout=0.2) is False
    with pytest.raises(u2.UiObjectNotFoundError):
        ud(text="No such app").get_text(timeout=0.1)


@_within()
def test_u2_screenshot_is_the_whole_screen_whatever_the_scale(server, ud):
    """The Java server ignores ``scale``; a client must not come to count on it here."""
    data = base64.b64decode(ud.jsonrpc.takeScreenshot(0.25, 80))
    assert Image.open(io.BytesIO(data)).size == (1080, 2400)


# ============================================================================ counters
def _grew(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in after if after[k] != before[k]}


@_within()
def test_counters_count_round_trips_and_simulator_time(server, dev, ud):
    before = server.stats()
    dev.shell("echo hi")
    grew = _grew(before, server.stats())
    assert grew["shell_commands"] == 1 and grew["adb_connections"] >= 1
    assert not {"u2_requests", "u2_connections", "sim_calls", "sim_seconds"} & set(grew)  # echo asks no simulator

    before = server.stats()
    ud.jsonrpc.dumpWindowHierarchy(False, 50)
    grew = _grew(before, server.stats())
    assert grew["u2_requests"] == grew["u2_connections"] == grew["sim_calls"] == 1
    assert grew["sim_seconds"] > 0 and "shell_commands" not in grew and "encode_seconds" not in grew

    before = server.stats()
    ud.jsonrpc.takeScreenshot(1, 80)
    grew = _grew(before, server.stats())
    assert grew["u2_requests"] == 1 and grew["sim_seconds"] > 0 and grew["encode_seconds"] > 0


def test_stats_refuse_unknown_counters_and_start_at_zero():
    stats = Stats()
    assert set(stats.snapshot()) == {*COUNTERS, "sim_seconds", "encode_seconds"}
    assert not any(stats.snapshot().values())
    with pytest.raises(KeyError, match="no counter 'u2_request'"):
        stats.count("u2_request")
    with stats.simulating():
        pass
    assert stats.snapshot()["sim_calls"] == 1


# ============================================================================ faults
@_within()
def test_fault_u2_dies_and_the_client_restarts_it(server, ud):
    phone = server.phone(SERIAL)
    first = phone.u2_at(9008)
    server.faults(SERIAL).u2_dead = True
    assert phone.u2_at(9008) is None and server.faults(SERIAL).u2_dead
    started = time.monotonic()
    assert ud.info["displayWidth"] == 1080  # HTTPError -> stop -> app_process again -> retry
    assert time.monotonic() - started < 5
    second = phone.u2_at(9008)
    assert second is not None and second is not first and not server.faults(SERIAL).u2_dead


@_within()
def test_fault_u2_cannot_restart_fails_fast(server, ud):
    faults = server.faults(SERIAL)
    faults.u2_launch_fails = True
    faults.u2_dead = True
    started = time.monotonic()
    with pytest.raises(u2.exceptions.LaunchUiAutomationError):
        _ = ud.info
    assert time.monotonic() - started < 5
    faults.u2_launch_fails = False
    assert ud.info["sdkInt"] == 33


@_within()
def test_fault_connection_dropped_mid_response(server, ud, dev):
    faults = server.faults(SERIAL)
    faults.drop_u2_responses = 1
    with pytest.raises(ValueError):  # http.client returns the short body; its JSON is cut off
        ud.dump_hierarchy()
    assert ud.dump_hierarchy() == _xml(server.device(SERIAL))  # the next one is whole
    faults.drop_adb_responses = 1
    with pytest.raises((adbutils.AdbError, EOFError)):
        dev.shell2("getprop", v2=True)
    faults.drop_adb_responses = 1
    with pytest.raises(adbutils.AdbError):  # shell v1: the exit-code marker never came
        dev.shell2("getprop")
    faults.drop_adb_responses = 1
    with pytest.raises(adbutils.AdbError):
        dev.sync.read_bytes("/data/local/tmp/u2.jar")
    assert dev.shell2("echo ok").output == "ok\n"


@_within()
def test_fault_adb_stall_times_out_then_recovers(server, dev):
    faults = server.faults(SERIAL)
    faults.stall = True
    started = time.monotonic()
    with pytest.raises(adbutils.AdbTimeout):  # shell v2 applies its timeout to the OKAY too
        dev.shell2("echo hi", timeout=0.5, v2=True)
    assert time.monotonic() - started < 3
    # a legacy shell waits for the OKAY without a timeout: it waits out the stall, then fails
    t, box = _call_in_thread(lambda: dev.shell("echo hi"))
    t.join(0.3)
    assert t.is_alive()
    faults.stall = False
    t.join(5)
    assert not t.is_alive() and isinstance(box.get("error"), adbutils.AdbError)
    assert dev.shell("echo hi") == "hi"


@_within()
def test_fault_u2_stall_released_or_closed_fails_fast(server, ud):
    faults = server.faults(SERIAL)
    faults.stall_u2 = True
    t, box = _call_in_thread(lambda: ud.info)
    t.join(0.5)
    assert t.is_alive(), "the stalled call should still be waiting"
    faults.stall_u2 = False  # the stall ends with the connection dropped, unanswered
    t.join(5)
    assert not t.is_alive() and isinstance(box.get("error"), (ConnectionError, http.client.HTTPException))
    assert ud.info["sdkInt"] == 33
    faults.stall_u2 = True  # stalled again, then the whole server closes under it
    t, box = _call_in_thread(lambda: ud.dump_hierarchy())
    t.join(0.3)
    assert t.is_alive()
    started = time.monotonic()
    server.close()
    t.join(5)
    assert not t.is_alive() and "error" in box
    assert time.monotonic() - started < 5


@_within()
def test_fault_empty_truncated_and_slow_dumps(server, ud, dev):
    faults = server.faults(SERIAL)
    full = _xml(server.device(SERIAL))
    faults.truncated_dumps = 1
    cut = ud.dump_hierarchy()
    assert full.startswith(cut) and len(cut) < len(full)
    faults.empty_dumps = 1
    with pytest.raises(adbutils.AdbError, match="dump failed"):  # adbutils' uiautomator dump
        dev.dump_hierarchy()
    assert dev.dump_hierarchy() == full
    faults.dump_delay = 0.3
    started = time.monotonic()
    assert ud.dump_hierarchy() == full
    assert time.monotonic() - started >= 0.3
    faults.dump_delay = 60  # a dump that would take a minute: closing cuts it short
    t, box = _call_in_thread(lambda: dev.shell("uiautomator dump /sdcard/d.xml"))
    t.join(0.3)
    started = time.monotonic()
    server.close()
    t.join(5)
    assert not t.is_alive() and time.monotonic() - started < 5


@_within()
def test_fault_empty_u2_dump_is_retried_by_the_client(server, ud):
    server.faults(SERIAL).empty_dumps = 1
    assert ud.dump_hierarchy() == _xml(server.device(SERIAL))  # uiautomator2 retries after 1 s


@LIBRARY_LEAKS
@_within()
def test_fault_adb_server_gone_and_back(server, dev, ud):
    server.kill_adb()
    assert not server.listening
    started = time.monotonic()
    with pytest.raises(adbutils.AdbError):  # AdbConnectionError: refused, no real adb started
        dev.shell("echo hi")
    with pytest.raises(adbutils.AdbError):  # the relaunch of the u2 server cannot reach adb either
        _ = ud.info
    assert time.monotonic() - started < 5
    server.revive_adb()
    assert dev.shell("echo hi") == "hi"
    assert ud.info["sdkInt"] == 33  # the u2 server died with adb; the client relaunched it


@_within()
def test_fault_offline_device(server, adb, dev):
    server.faults(SERIAL).offline = True
    assert [(i.serial, i.state) for i in adb.list()] == [(SERIAL, "offline")]
    with pytest.raises(adbutils.AdbError, match="offline"):
        dev.shell("echo hi")
    server.faults(SERIAL).reset()
    assert dev.shell("echo hi") == "hi"


@LIBRARY_LEAKS
@_within()
def test_close_is_clean_with_open_streams(server, dev):
    stream = dev.shell("logcat", stream=True)  # holds until the client or the server ends it
    assert b"beginning of main" in stream.conn.recv(4096)
    started = time.monotonic()
    server.close()
    assert time.monotonic() - started < 5
    assert stream.read_until_close() == ""
    stream.close()
    with pytest.raises(adbutils.AdbError):
        dev.shell("echo hi")


def test_a_console_listens_on_the_port_asked_for_once(server):
    port = free_port()
    assert server.console_port(SERIAL, port=port) == port == server.console_port(SERIAL)
    assert server.console_port(SERIAL, port=port) == port
    with pytest.raises(ConfigError, match=f"{SERIAL}'s emulator console already listens on port {port}, not 1"):
        server.console_port(SERIAL, port=1)
    server.add_device("emulator-5556")
    with pytest.raises(ConfigError, match="from 0 .* to 65535; got 70000"):
        server.console_port("emulator-5556", port=70000)


# ============================================================================ CLI
@_within()
def test_cli_fake_device_serves_until_ctrl_c():
    from mobile_gym.devices.emulator_console import EmulatorConsole

    emulator = f"emulator-{free_port()}"
    with fake_device(emulator, "abc") as (port, lines):
        adb = adbutils.AdbClient(port=port)
        assert [d.serial for d in adb.device_list()] == [emulator, "abc"]
        assert adb.device("abc").shell("wm size") == "Physical size: 1080x2400"
        consoles = {line.split("'s emulator console")[0].strip(): int(re.search(r"127\.0\.0\.1:(\d+)", line)[1])
                    for line in lines if "'s emulator console" in line}
        assert consoles[emulator] == int(emulator.split("-")[1])  # where an emulator's console is
        for serial, console in consoles.items():
            with EmulatorConsole("127.0.0.1", console, timeout=5) as session:
                session.command(f"avd snapshot save {serial}")
                assert session.command("avd snapshot list")[1:] == [serial]


@_within()
def test_cli_fake_device_refuses_an_emulator_serial_whose_console_port_is_taken(capsys):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["fake-device", "--serial", f"emulator-{port}"]) == 2
    assert (f"cannot listen on 127.0.0.1:{port} for emulator-{port}'s emulator console: Address already in use "
            "(an emulator running? give the fake phone another emulator-PORT serial)") in capsys.readouterr().err
