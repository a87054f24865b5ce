"""The simulator's system behaviour, independent of any one modelled app: input routing,
keyboard, back/home, scrolling, dialogs, packages, determinism, profiles, dumps, pixels."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import DeviceError, InvalidActionError, SimulatorError
from mobile_gym.simulator import PROFILES, SimulatedDevice
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.views import Button, Column, EditText, Row, Scroll, Text, View
from mobile_gym.ui.hierarchy import ViewHierarchy
from phone import check_dump, node, swipe_up, tap, texts

LAUNCHER = "com.google.android.apps.nexuslauncher"
TEST_PKG = "org.example.probe"


class Probe(App):
    """A test app: a long list, a row whose label is not clickable, a text field."""

    package = TEST_PKG
    label = "Probe"
    key = "probe"

    def __init__(self, sys):
        super().__init__(sys)
        self.taps: list[str] = []
        self.submitted: list[str] = []

    def main(self) -> Activity:
        return ProbeList(self)


class ProbeList(Activity):
    name = ".ListActivity"

    def build(self) -> View:
        app: Probe = self.app
        rows = [Row(Text(f"Item {i}", rid=f"{TEST_PKG}:id/label"), h=72,
                    on_click=lambda i=i: app.taps.append(f"Item {i}"),
                    rid=f"{TEST_PKG}:id/row")
                for i in range(40)]
        return Column(
            EditText("q", hint="Search items", rid=f"{TEST_PKG}:id/query",
                     on_submit=app.submitted.append),
            Button("Open details", lambda: self.start(ProbeDetail(app)), rid=f"{TEST_PKG}:id/open"),
            Button("Ask", lambda: self.sys.show(Dialog("Delete?", "Really?", (("Cancel", None), ("Delete", app.delete)))),
                   rid=f"{TEST_PKG}:id/ask"),
            Scroll(*rows, key="list", rid=f"{TEST_PKG}:id/list"),
        )


class ProbeDetail(Activity):
    name = ".DetailActivity"

    def build(self) -> View:
        return Column(Text("Details", size=22))


def _delete(self) -> None:
    self.taps.append("deleted")


Probe.delete = _delete


@pytest.fixture
def probe() -> SimulatedDevice:
    phone = SimulatedDevice(seed=0)
    phone.runtime.factories[TEST_PKG] = Probe
    phone.runtime.install(TEST_PKG)
    phone.runtime.launch(TEST_PKG)
    return phone


def test_a_view_takes_only_its_class_and_children_by_position() -> None:
    """`View` keeps its keyword parameters positional for speed: a third positional
    argument (meant as a keyword) is refused, not taken as the resource-id."""
    with pytest.raises(TypeError, match="as keywords"):
        View("android.widget.TextView", (), "Settings")
    assert View("android.widget.TextView", (), text="Settings").rid == ""


def test_fresh_phone_is_on_the_launcher_home() -> None:
    phone = SimulatedDevice(seed=0)
    assert phone.foreground_activity() == f"{LAUNCHER}/{LAUNCHER}.NexusLauncherActivity"
    assert {"com.android.settings", "com.android.chrome", "com.android.vending",
            "com.google.android.deskclock"} <= phone.installed_packages()
    assert "Chrome" in texts(phone)


def test_tap_on_a_non_clickable_child_goes_to_its_clickable_ancestor(probe) -> None:
    label = node(probe, text="Item 2")
    assert not label.flags["clickable"] and label.clickable_target is not label
    tap(probe, text="Item 2")
    assert probe.runtime.app(TEST_PKG).taps == ["Item 2"]


def test_tap_on_empty_space_does_nothing(probe) -> None:
    before = probe.observe(screenshot=False).xml
    probe.perform(Action.click(0.5, 0.012))  # the status bar
    assert probe.runtime.app(TEST_PKG).taps == []
    assert probe.observe(screenshot=False).xml.replace("10:00", "x") == before.replace("10:00", "x")


def test_focus_typing_and_enter(probe) -> None:
    probe.perform(Action.type_text("ignored"))  # nothing focused: keystrokes go nowhere
    assert node(probe, resource_id=f"{TEST_PKG}:id/query").text == "Search items"
    tap(probe, resource_id=f"{TEST_PKG}:id/query")
    field = node(probe, resource_id=f"{TEST_PKG}:id/query")
    assert field.flags["focused"] and field.text == "Search items"
    assert node(probe, package="com.google.android.inputmethod.latin") is not None  # keyboard up
    probe.perform(Action.type_text("wid"))
    probe.perform(Action.type_text("get"))
    assert node(probe, resource_id=f"{TEST_PKG}:id/query").text == "widget"
    probe.perform(Action.enter())
    assert probe.runtime.app(TEST_PKG).submitted == ["widget"]
    assert probe.observe(screenshot=False).hierarchy.find(package="com.google.android.inputmethod.latin") is None


def test_back_closes_keyboard_then_dialog_then_activity_then_returns_home(probe) -> None:
    tap(probe, text="Open details")
    assert probe.foreground_activity().endswith(".DetailActivity")
    probe.perform(Action.back())
    assert probe.foreground_activity().endswith(".ListActivity")
    tap(probe, text="Ask")
    tap(probe, resource_id=f"{TEST_PKG}:id/query")  # a tap outside the dialog cancels it
    assert probe.observe(screenshot=False).hierarchy.find(text="Delete?") is None
    tap(probe, resource_id=f"{TEST_PKG}:id/query")
    tap(probe, text="Ask")  # showing a dialog hides the keyboard
    assert probe.observe(screenshot=False).hierarchy.find(package="com.google.android.inputmethod.latin") is None
    probe.perform(Action.back())  # cancels the dialog
    assert probe.observe(screenshot=False).hierarchy.find(text="Delete?") is None
    tap(probe, resource_id=f"{TEST_PKG}:id/query")
    probe.perform(Action.back())  # hides the keyboard only
    assert probe.foreground_activity().endswith(".ListActivity")
    probe.perform(Action.back())  # pops the last activity: launcher
    assert probe.foreground_activity().startswith(LAUNCHER)


def test_dialog_buttons_run_their_handler_and_close(probe) -> None:
    tap(probe, text="Ask")
    xml = probe.observe(screenshot=False).xml
    assert 'resource-id="android:id/alertTitle"' in xml and f'package="{TEST_PKG}"' in xml
    tap(probe, text="Delete")
    assert probe.runtime.app(TEST_PKG).taps == ["deleted"]
    assert node(probe, text="Open details") is not None


def test_home_keeps_the_back_stack_and_relaunch_resumes_it(probe) -> None:
    tap(probe, text="Open details")
    probe.perform(Action.home())
    assert probe.foreground_activity().startswith(LAUNCHER)
    probe.runtime.launch(TEST_PKG)
    assert probe.foreground_activity().endswith(".DetailActivity")


def test_navigation_bar_buttons_are_back_and_home(probe) -> None:
    tap(probe, text="Open details")
    tap(probe, content_desc="Back")
    assert probe.foreground_activity().endswith(".ListActivity")
    tap(probe, content_desc="Home")
    assert probe.foreground_activity().startswith(LAUNCHER)


def test_swipes_scroll_lists_and_reveal_off_screen_items(probe) -> None:
    shown = lambda: [t for t in texts(probe) if t.startswith("Item ")]  # noqa: E731
    first = shown()
    assert "Item 0" in first and "Item 39" not in first
    swipe_up(probe, 0.4)
    moved = shown()
    assert "Item 0" not in moved and int(moved[-1].split()[1]) > int(first[-1].split()[1])
    for _ in range(10):
        swipe_up(probe, 0.5)
    assert "Item 39" in shown()
    probe.perform(Action.swipe(0.5, 0.4, 0.5, 0.9))  # finger down: back towards the top
    assert "Item 39" not in shown()


def test_scroll_distance_follows_the_gesture(probe) -> None:
    top = lambda: node(probe, text="Item 5").bounds.top  # noqa: E731
    y0 = top()
    probe.perform(Action.swipe(0.5, 0.8, 0.5, 0.7))
    y1 = top()
    probe.perform(Action.swipe(0.5, 0.8, 0.5, 0.6))
    y2 = top()
    H = probe.screen_size[1]
    assert y0 - y1 == pytest.approx(0.1 * H, abs=2)
    assert y1 - y2 == pytest.approx(0.2 * H, abs=2)


def test_partially_visible_rows_have_clipped_bounds(probe) -> None:
    probe.perform(Action.swipe(0.5, 0.8, 0.5, 0.75))  # 120 px: less than a row
    h = probe.observe(screenshot=False).hierarchy
    lst = h.find(resource_id=f"{TEST_PKG}:id/list").bounds
    rows = h.find_all(resource_id=f"{TEST_PKG}:id/row")
    assert all(lst.top <= r.bounds.top and r.bounds.bottom <= lst.bottom for r in rows)
    assert rows[0].bounds.bottom - rows[0].bounds.top < rows[1].bounds.bottom - rows[1].bounds.top


def test_launcher_drawer_opens_with_a_swipe_up_and_lists_apps() -> None:
    phone = SimulatedDevice(seed=0)
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    labels = [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(
        resource_id=f"{LAUNCHER}:id/icon")]
    assert labels == sorted(labels, key=str.lower) and "Settings" in labels
    assert node(phone, text="Search your phone and more").class_name == "android.widget.EditText"
    phone.perform(Action.back())
    assert phone.observe(screenshot=False).hierarchy.find(text="Search your phone and more") is None


def test_launcher_search_filters_and_enter_opens_the_first_match() -> None:
    phone = SimulatedDevice(seed=0)
    phone.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    tap(phone, text="Search your phone and more")
    phone.perform(Action.type_text("sett"))
    labels = [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(
        resource_id=f"{LAUNCHER}:id/icon")]
    assert labels == ["Settings"]
    phone.perform(Action.enter())
    assert phone.foreground_activity().startswith("com.android.settings/")


def test_install_and_uninstall_change_packages_and_launcher() -> None:
    phone = SimulatedDevice(seed=0)
    assert "com.ebay.mobile" not in phone.installed_packages()
    phone.runtime.install("com.ebay.mobile")
    assert "com.ebay.mobile" in phone.installed_packages()
    assert node(phone, text="eBay").resource_id == f"{LAUNCHER}:id/icon"  # on the home screen
    tap(phone, text="eBay")
    assert phone.foreground_activity().startswith("com.ebay.mobile/")
    tap(phone, text="Log in")
    assert {"Email or username", "Password", "Forgot password?"} <= set(texts(phone))
    phone.runtime.uninstall("com.ebay.mobile")
    assert "com.ebay.mobile" not in phone.installed_packages()
    assert phone.foreground_activity().startswith(LAUNCHER)
    assert "eBay" not in texts(phone)


def test_setup_installs_configures_and_launches() -> None:
    phone = SimulatedDevice(seed=0, setup={"install": ["Microsoft Excel"], "uninstall": ["YouTube"],
                                           "launch": "Excel"})
    assert "com.microsoft.office.excel" in phone.installed_packages()
    assert "com.google.android.youtube" not in phone.installed_packages()
    assert phone.foreground_activity().startswith("com.microsoft.office.excel/")


@pytest.mark.parametrize("setup, message", [
    ({"lunch": "settings"}, "unknown setup keys"),
    ({"launch": "Nonexistent App"}, "unknown app"),
    ({"apps": {"launcher": {"no_such_field": 1}}}, "no state field"),
    ({"apps": {"launcher": {"home_icons": 3}}}, "expects list"),
    ({"apps": {"launcher": []}}, "mapping"),
])
def test_bad_setup_raises_a_typed_error(setup, message) -> None:
    with pytest.raises(SimulatorError, match=message):
        SimulatedDevice(seed=0, setup=setup)


def test_unknown_profile_and_dynamics_are_typed_errors() -> None:
    with pytest.raises(SimulatorError, match="profile"):
        SimulatedDevice(profile="iphone")
    with pytest.raises(SimulatorError, match="dynamics"):
        SimulatedDevice(dynamics="chaos")


def test_invalid_actions_and_closed_devices() -> None:
    phone = SimulatedDevice(seed=0)
    with pytest.raises(InvalidActionError):
        phone.perform({"action_type": 0})  # type: ignore[arg-type]
    phone.close()
    with pytest.raises(DeviceError):
        phone.observe()


def test_app_state_is_read_only() -> None:
    phone = SimulatedDevice(seed=0)
    view = phone.app_state("launcher")
    assert "com.android.settings" in view.home_icons
    with pytest.raises(AttributeError):
        view.home_icons = []
    with pytest.raises(AttributeError):
        view.home_icons.append("x")


def _walk(phone: SimulatedDevice, rng: np.random.Generator, steps: int) -> list[str]:
    """A seeded random walk tapping clickable nodes; returns every dump."""
    dumps = []
    W, H = phone.screen_size
    for _ in range(steps):
        state = phone.observe(screenshot=False)
        dumps.append(state.xml)
        targets = state.hierarchy.find_all(clickable=True)
        r = rng.random()
        if r < 0.1:
            phone.perform(Action.back())
        elif r < 0.15:
            phone.perform(Action.home())
        elif r < 0.25:
            phone.perform(Action.swipe(0.5, 0.75, 0.5, 0.35))
        elif r < 0.3:
            phone.perform(Action.type_text("abc"))
        else:
            b = targets[int(rng.integers(len(targets)))].bounds
            phone.perform(Action.click((b.left + b.right) / 2 / W, (b.top + b.bottom) / 2 / H))
    return dumps


def test_same_seed_same_actions_give_identical_dumps_and_screenshots() -> None:
    runs = []
    for _ in range(2):
        phone = SimulatedDevice(seed=7, dynamics="default")
        dumps = _walk(phone, np.random.default_rng(3), 60)
        runs.append((dumps, phone.observe(screenshot_size=(270, 600)).image.tobytes()))
    assert runs[0] == runs[1]


def test_pickled_device_continues_identically() -> None:
    phone = SimulatedDevice(seed=5, dynamics="default")
    _walk(phone, np.random.default_rng(1), 20)
    clone = pickle.loads(pickle.dumps(phone))
    assert _walk(clone, np.random.default_rng(2), 30) == _walk(phone, np.random.default_rng(2), 30)


def test_dynamics_none_is_canonical_and_default_varies_with_the_seed() -> None:
    none = {SimulatedDevice(seed=s, dynamics="none").observe(screenshot=False).xml for s in range(4)}
    assert len(none) == 1
    varied = {SimulatedDevice(seed=s, dynamics="default").observe(screenshot=False).xml for s in range(4)}
    assert len(varied) > 1  # at least the clock differs


def test_profiles_give_different_but_consistent_bounds() -> None:
    found = {}
    for name, profile in PROFILES.items():
        phone = SimulatedDevice(profile=name, seed=0)
        state = phone.observe(screenshot=False)
        assert state.screen_size == (profile.width, profile.height)
        n = state.hierarchy.find(text="Settings", resource_id=f"{LAUNCHER}:id/icon")
        b = n.bounds
        found[name] = (b.left, b.top, b.right, b.bottom)
        # the same place relative to the screen, give or take rounding
        assert 0.25 < b.left / profile.width < 0.3 and b.right <= profile.width
    assert len(set(found.values())) == len(PROFILES)


def test_dumps_look_like_real_uiautomator_dumps(probe) -> None:
    xml = probe.observe(screenshot=False).xml
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">")
    first = xml.split("<node ", 2)[1]
    names = [part.split("=")[0] for part in first.split('" ')]
    assert names == ["index", "text", "resource-id", "class", "package", "content-desc", "checkable",
                     "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
                     "long-clickable", "password", "selected", "bounds"]
    check_dump(probe, xml)
    tap(probe, resource_id=f"{TEST_PKG}:id/query")
    swipe_up(probe)
    check_dump(probe)
    content = ViewHierarchy(xml).find(resource_id="android:id/content").bounds
    assert content.top == 63 and content.bottom == 2400 - 126  # status and navigation bars


def test_screenshots_look_like_a_phone_and_follow_the_screen(probe, artifacts) -> None:
    shot = probe.observe(screenshot_size=(270, 600)).screenshot
    assert shot.shape == (600, 270, 3) and shot.dtype == np.uint8
    assert len(np.unique(shot.reshape(-1, 3), axis=0)) > 20  # text, widgets, bars
    assert shot.std() > 10
    tap(probe, resource_id=f"{TEST_PKG}:id/query")
    with_keyboard = probe.observe(screenshot_size=(270, 600)).screenshot
    assert (with_keyboard != shot).mean() > 0.05
    full = probe.observe().image
    assert full.size == probe.screen_size
    probe.observe(screenshot_size=(360, 800)).image.save(artifacts / "probe_keyboard.png")
    home = SimulatedDevice(seed=0)
    home.observe(screenshot_size=(360, 800)).image.save(artifacts / "launcher_home.png")
    home.perform(Action.swipe(0.5, 0.8, 0.5, 0.3))
    home.observe(screenshot_size=(360, 800)).image.save(artifacts / "launcher_drawer.png")


def test_installed_apps_may_ask_for_a_rating_with_dynamics_default_only() -> None:
    def open_ebay(seed: int, dynamics: str) -> SimulatedDevice:
        return SimulatedDevice(seed=seed, dynamics=dynamics, setup={"install": ["eBay"], "launch": "eBay"})

    assert not any("Enjoying eBay?" in texts(open_ebay(s, "none")) for s in range(6))
    asked = [p for p in (open_ebay(s, "default") for s in range(12)) if "Enjoying eBay?" in texts(p)]
    assert asked, "no seed showed the rating prompt"
    phone = asked[0]
    tap(phone, text="Log in")  # covered by the dialog: the tap outside cancels it
    assert "Enjoying eBay?" not in texts(phone) and "Log in" in texts(phone)
    tap(phone, text="Log in")
    assert node(phone, text="Forgot password?") is not None


def test_back_from_an_app_opened_by_another_returns_to_it(probe) -> None:
    probe.runtime.install("com.ebay.mobile")
    probe.runtime.launch("com.ebay.mobile")  # opened from the probe app
    probe.perform(Action.back())
    assert probe.foreground_activity().endswith(".ListActivity")
    probe.perform(Action.home())
    tap(probe, text="eBay")  # opened from the launcher this time
    probe.perform(Action.back())
    assert probe.foreground_activity().startswith(LAUNCHER)
