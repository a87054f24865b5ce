"""The simulated Settings app, driven like an agent would: taps on texts, typing, swipes,
BACK and HOME, with state read through `app_state` as task oracles do."""

from __future__ import annotations

import pickle

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.apps.settings.registry import PAGES  # to check the walk covers them

from phone import check_dump, node, swipe_up, tap, texts

WIFI = "Wi\u2011Fi"  # Android's non-breaking hyphen
SETTINGS = "com.android.settings"
MAIN = f"{SETTINGS}/{SETTINGS}.Settings"
SUB = f"{SETTINGS}/{SETTINGS}.SubSettings"
SWITCH = f"{SETTINGS}:id/switch_widget"


def settings_phone(seed: int = 0, dynamics: str = "none", **state) -> SimulatedDevice:
    setup = {"launch": "settings", "apps": {"settings": state}} if state else {"launch": "settings"}
    return SimulatedDevice(profile="budget-720p", dynamics=dynamics, seed=seed, setup=setup)


def state(phone: SimulatedDevice):
    return phone.app_state("settings")


def visible(phone: SimulatedDevice, **attrs) -> bool:
    return phone.observe(screenshot=False).hierarchy.find(**attrs) is not None


def reach(phone: SimulatedDevice, text: str) -> None:
    """Scroll the list until ``text`` is on screen, then tap it."""
    for dy in [-1] * 8 + [1] * 16:
        if visible(phone, text=text):
            tap(phone, text=text)
            return
        if dy < 0:
            swipe_up(phone)
        else:
            phone.perform(Action.swipe(0.5, 0.3, 0.5, 0.7))
    raise AssertionError(f"{text!r} not found on {phone.foreground_activity()}: {texts(phone)}")


def go(phone: SimulatedDevice, *path: str) -> None:
    for text in path:
        reach(phone, text)


def back(phone: SimulatedDevice, times: int = 1) -> None:
    for _ in range(times):
        phone.perform(Action.back())


def summary(phone: SimulatedDevice, title: str) -> str:
    """The summary line under the preference titled ``title``."""
    block = node(phone, text=title, resource_id="android:id/title").parent
    return next(n.text for n in block.children if n.resource_id == "android:id/summary")


def switch_in_row(phone: SimulatedDevice, title: str):
    """The Switch of the preference row titled ``title``."""
    row = node(phone, text=title).clickable_target
    return next(n for n in row.iter() if n.class_name == "android.widget.Switch")


def status_icons(phone: SimulatedDevice) -> set[str]:
    h = phone.observe(screenshot=False).hierarchy
    bar = h.find(resource_id="com.android.systemui:id/system_icons")
    return {n.content_desc for n in bar.iter() if n.content_desc}


def relaunch(phone: SimulatedDevice) -> None:
    """HOME, then the Settings icon on the home screen."""
    phone.perform(Action.home())
    tap(phone, text="Settings", resource_id="com.google.android.apps.nexuslauncher:id/icon")


# ---------------------------------------------------------------------- home list

def test_main_list_has_the_pixel_entries_and_scrolls():
    phone = settings_phone()
    assert phone.foreground_activity() == MAIN
    assert node(phone, resource_id=f"{SETTINGS}:id/search_action_bar_title").text == "Search settings"
    shown = texts(phone)
    assert "Network & internet" in shown and f"Mobile, {WIFI}, hotspot" in shown
    assert "About phone" not in shown  # below the fold on a 720x1600 screen
    seen = set(shown)
    for _ in range(6):
        swipe_up(phone)
        seen |= set(texts(phone))
    for title in ("Connected devices", "Apps", "Notifications", "Battery", "Storage",
                  "Sound & vibration", "Display", "Wallpaper & style", "Accessibility",
                  "Security & privacy", "Location", "Safety & emergency", "Passwords & accounts",
                  "Google", "System", "About phone"):
        assert title in seen, title
    assert "Pixel 6" in seen  # About phone's summary
    assert state(phone).visited == ("main",)


def test_rows_use_android_preference_ids():
    phone = settings_phone()
    go(phone, "Network & internet")
    h = phone.observe(screenshot=False).hierarchy
    title = h.find(text="Airplane mode")
    assert title.resource_id == "android:id/title"
    assert h.find(text="AndroidWifi").resource_id == "android:id/summary"
    assert h.find(resource_id=f"{SETTINGS}:id/recycler_view").flags["scrollable"]
    assert h.find(resource_id=f"{SETTINGS}:id/collapsing_toolbar").content_desc == "Network & internet"
    assert switch_in_row(phone, "Airplane mode").resource_id == SWITCH


# ---------------------------------------------------------------------- network

def test_wifi_toggle_survives_back_home_and_relaunch():
    phone = settings_phone()
    go(phone, "Network & internet", "Internet")
    assert phone.foreground_activity() == SUB
    assert visible(phone, text="AndroidWifi") and visible(phone, text="Connected")
    assert "Wifi signal full." in status_icons(phone)
    tap(phone, text=WIFI)
    assert state(phone).wifi_enabled is False
    assert not switch_in_row(phone, WIFI).checked
    assert not visible(phone, text="AndroidWifi")
    assert "Wifi signal full." not in status_icons(phone)
    back(phone)
    assert summary(phone, "Internet") == "T-Mobile"  # on mobile data now
    relaunch(phone)
    assert phone.foreground_activity() == SUB  # Settings resumes where it was
    tap(phone, text="Internet")
    assert not switch_in_row(phone, WIFI).checked
    tap(phone, text=WIFI)
    s = state(phone)
    assert s.wifi_enabled and s.connected_network == "AndroidWifi"
    assert switch_in_row(phone, WIFI).checked


def test_joining_a_secured_network_asks_for_its_password():
    networks = [{"name": "AndroidWifi", "secured": False, "saved": True, "signal": 4},
                {"name": "HomeNet-5G", "signal": 3, "password": "correct horse"}]
    phone = settings_phone(wifi_networks=networks)
    go(phone, "Network & internet", "Internet", "HomeNet-5G")
    assert node(phone, resource_id="android:id/alertTitle").text == "HomeNet-5G"
    phone.perform(Action.type_text("short"))
    assert not node(phone, text="Connect").flags["enabled"]  # 8 characters at least
    phone.perform(Action.type_text(" wrong"))
    tap(phone, text="Connect")
    assert state(phone).wifi_network == "AndroidWifi"
    assert visible(phone, text="Check password and try again")
    tap(phone, text="HomeNet-5G")
    phone.perform(Action.type_text("correct horse"))
    phone.perform(Action.enter())
    s = state(phone)
    assert s.connected_network == "HomeNet-5G"
    assert [n.saved for n in s.wifi_networks] == [True, True]
    tap(phone, text="HomeNet-5G")  # connected: its details page
    assert node(phone, resource_id=f"{SETTINGS}:id/collapsing_toolbar").content_desc == "HomeNet-5G"
    tap(phone, text="Disconnect")
    assert state(phone).connected_network == ""
    assert visible(phone, text=WIFI)  # back on Internet


def test_airplane_mode_turns_radios_off_and_restores_them():
    phone = settings_phone(bluetooth_enabled=True)
    go(phone, "Network & internet")
    tap(phone, text="Airplane mode")
    s = state(phone)
    assert s.airplane_mode and not s.wifi_enabled and not s.bluetooth_enabled
    assert status_icons(phone) >= {"Airplane mode."}
    assert "Bluetooth on." not in status_icons(phone)
    assert visible(phone, text="Airplane mode is on")  # Internet's summary
    tap(phone, text="Airplane mode")
    s = state(phone)
    assert not s.airplane_mode and s.wifi_enabled and s.bluetooth_enabled
    assert s.connected_network == "AndroidWifi"


def test_mobile_data_usage_page():
    phone = settings_phone()
    go(phone, "Network & internet", "SIMs")
    assert node(phone, resource_id=f"{SETTINGS}:id/collapsing_toolbar").content_desc == "T-Mobile"
    tap(phone, text="Mobile data")
    assert state(phone).mobile_data is False
    go(phone, "App data usage")
    assert visible(phone, text="2.41 GB used")
    assert visible(phone, text="YouTube") and visible(phone, text="1.24 GB")
    varied = {settings_phone(seed, "default").app_state("settings").data_used_mb for seed in range(4)}
    assert len(varied) > 1


def test_hotspot_and_data_saver():
    phone = settings_phone()
    go(phone, "Network & internet", "Hotspot & tethering", f"{WIFI} hotspot")
    tap(phone, text=f"Use {WIFI} hotspot")
    assert state(phone).hotspot_enabled
    back(phone, 2)
    assert visible(phone, text="Hotspot on")
    go(phone, "Data Saver", "Use Data Saver")
    assert state(phone).data_saver
    back(phone)
    assert summary(phone, "Data Saver") == "On"


# ---------------------------------------------------------------------- devices and location

def test_bluetooth_toggle_and_scanning_toggles():
    phone = settings_phone()
    go(phone, "Connected devices", "Connection preferences", "Bluetooth")
    tap(phone, text="Use Bluetooth")
    assert state(phone).bluetooth_enabled
    assert "Bluetooth on." in status_icons(phone)
    back(phone, 3)
    go(phone, "Location", "Location services", "Bluetooth scanning")  # its own page (Android 13)
    assert not node(phone, resource_id=SWITCH).checked  # the page's only switch
    tap(phone, text="Bluetooth scanning", resource_id=f"{SETTINGS}:id/switch_text")
    assert node(phone, resource_id=SWITCH).checked
    back(phone)
    assert summary(phone, "Bluetooth scanning") == "On"
    go(phone, f"{WIFI} scanning")
    tap(phone, text=f"{WIFI} scanning", resource_id=f"{SETTINGS}:id/switch_text")
    s = state(phone)
    assert s.bluetooth_scanning is True and s.wifi_scanning is False
    back(phone)
    assert summary(phone, f"{WIFI} scanning") == "Off"


def test_pairing_a_device():
    phone = settings_phone()
    go(phone, "Connected devices", "Pair new device")
    assert state(phone).bluetooth_enabled  # opening the pairing page turns Bluetooth on
    tap(phone, text="JBL Flip 5")
    assert node(phone, resource_id="android:id/alertTitle").text == "Pair with JBL Flip 5?"
    tap(phone, text="Pair")
    assert state(phone).paired_devices == ("JBL Flip 5",)
    assert visible(phone, text="Saved devices")  # back on Connected devices
    tap(phone, text="JBL Flip 5")
    tap(phone, text="Forget")
    assert state(phone).paired_devices == ()


def test_location_and_location_accuracy():
    phone = settings_phone()
    go(phone, "Location")
    tap(phone, text="Use location")
    assert state(phone).location_enabled is False
    assert not visible(phone, text="Recent access")
    go(phone, "Location services", "Google Location Accuracy")
    tap(phone, text="Improve Location Accuracy")
    assert state(phone).improve_location_accuracy is False
    back(phone)
    assert summary(phone, "Google Location Accuracy") == "Off"


# ---------------------------------------------------------------------- display and sound

def _background(phone: SimulatedDevice) -> tuple[int, int, int]:
    return phone.observe(screenshot_size=(90, 200)).image.getpixel((85, 120))


def test_dark_theme_darkens_the_whole_phone():
    phone = settings_phone()
    assert sum(_background(phone)) > 600
    go(phone, "Display", "Dark theme")  # the row opens the Dark theme page (Android 13)
    assert not state(phone).dark_theme
    tap(phone, text="Use Dark theme")
    assert state(phone).dark_theme
    assert sum(_background(phone)) < 150
    phone.perform(Action.home())
    assert sum(_background(phone)) < 150  # the launcher too


def test_display_brightness_timeout_and_font_size():
    phone = settings_phone()
    go(phone, "Display")
    tap(phone, text="Adaptive brightness")
    assert state(phone).adaptive_brightness is False
    tap(phone, text="Brightness level")
    tap(phone, content_desc="Increase brightness level")
    tap(phone, content_desc="Increase brightness level")
    assert state(phone).brightness == 80
    tap(phone, text="Done")
    assert visible(phone, text="80%")
    go(phone, "Screen timeout", "5 minutes")
    assert state(phone).screen_timeout == 300
    radio = node(phone, text="5 minutes").clickable_target
    assert any(n.class_name == "android.widget.RadioButton" and n.checked for n in radio.iter())
    back(phone)
    go(phone, "Font size")
    tap(phone, content_desc="Larger font")
    assert state(phone).font_size == "Large"
    back(phone)
    assert visible(phone, text="Large")


def test_do_not_disturb_and_volumes():
    phone = settings_phone()
    go(phone, "Sound & vibration")
    tap(phone, content_desc="Decrease media volume")
    assert state(phone).media_volume == 50
    go(phone, "Do Not Disturb")
    tap(phone, text="Turn on now")
    assert state(phone).do_not_disturb
    assert node(phone, resource_id=f"{SETTINGS}:id/zen_mode_settings_turn_off_button").text == "Turn off now"
    assert "Do Not Disturb on." in status_icons(phone)
    tap(phone, text="Turn off now")
    assert not state(phone).do_not_disturb


# ---------------------------------------------------------------------- notifications and apps

def test_notifications_lock_screen_dots_and_per_app():
    phone = settings_phone()
    go(phone, "Notifications", "Notifications on lock screen")
    options = [n.text for n in phone.observe(screenshot=False).hierarchy.find_all(
        resource_id="android:id/title") if n.text.startswith(("Show", "Hide", "Don't"))]
    assert options == ["Show conversations, default, and silent",
                       "Hide silent conversations and notifications", "Don't show any notifications"]
    tap(phone, text="Don't show any notifications")
    assert state(phone).lock_screen_notifications == "none"
    assert visible(phone, text="Don't show any notifications")  # now the row's summary
    reach(phone, "Notification dot on app icon")
    assert state(phone).notification_dots is False
    go(phone, "App notifications")
    assert switch_in_row(phone, "Calendar").clickable  # its own target: the row opens a page
    tap(phone, class_name="android.widget.Switch", checked=True)  # Calendar's, the first
    assert state(phone).blocked_notifications == ("com.google.android.calendar",)
    assert not switch_in_row(phone, "Calendar").checked
    tap(phone, text="Calendar")
    assert visible(phone, text="All Calendar notifications")
    tap(phone, text="All Calendar notifications")
    assert state(phone).blocked_notifications == ()


def test_uninstalling_a_user_app_and_force_stopping_a_system_app():
    phone = SimulatedDevice(profile="budget-720p", seed=0,
                            setup={"install": ["com.duolingo"], "launch": "settings"})
    count = len(phone.installed_packages())
    go(phone, "Apps", f"See all {count} apps", "Duolingo")
    assert node(phone, resource_id=f"{SETTINGS}:id/entity_header_title").text == "Duolingo"
    tap(phone, text="Uninstall")
    assert node(phone, resource_id="android:id/message").text == "Do you want to uninstall this app?"
    tap(phone, text="OK")
    assert "com.duolingo" not in phone.installed_packages()
    assert not visible(phone, text="Duolingo") and visible(phone, text="Chrome")  # back on All apps
    tap(phone, text="Chrome")
    assert not node(phone, text="Disable").flags["enabled"]  # system apps cannot be uninstalled
    tap(phone, text="Open")
    assert phone.foreground_activity().startswith("com.android.chrome/")
    relaunch(phone)
    tap(phone, text="Force stop")
    tap(phone, text="OK")
    assert state(phone).force_stopped == ("com.android.chrome",)
    assert not node(phone, text="Force stop").flags["enabled"]


# ---------------------------------------------------------------------- battery, system, about

def test_battery_page():
    phone = settings_phone()
    go(phone, "Battery")
    assert node(phone, resource_id=f"{SETTINGS}:id/battery_percent").text == "82%"
    tap(phone, text="Battery percentage")
    assert state(phone).battery_percentage
    go(phone, "Battery Saver", "Use Battery Saver")
    assert state(phone).battery_saver
    levels = {settings_phone(seed, "default").app_state("settings").battery_level for seed in range(4)}
    assert len(levels) > 1


def test_about_phone_android_version_and_developer_options():
    phone = settings_phone()
    go(phone, "About phone")
    assert summary(phone, "Device name") == "Pixel 6"
    go(phone, "Android version")
    assert visible(phone, text="13") and visible(phone, text="TQ3A.230805.001")
    back(phone)
    for _ in range(7):
        reach(phone, "Build number")
    assert state(phone).developer_options
    back(phone)
    go(phone, "System", "Developer options", "USB debugging")
    assert state(phone).usb_debugging


def test_renaming_the_device():
    phone = settings_phone()
    go(phone, "About phone", "Device name")
    phone.perform(Action.type_text("Alex's phone"))  # the old name is selected: typing replaces it
    phone.perform(Action.enter())
    assert state(phone).device_name == "Alex's phone"
    assert visible(phone, text="Alex's phone")


def test_languages_and_date_time():
    phone = settings_phone()
    go(phone, "System", "Languages & input", "Languages", "Add a language", "Français (France)")
    assert state(phone).languages == ("English (United States)", "Français (France)")
    assert visible(phone, text="2. Français (France)")
    back(phone, 2)
    go(phone, "Date & time", "Use 24-hour format")
    assert state(phone).use_24_hour_format


# ---------------------------------------------------------------------- search

def test_search_filters_as_you_type_and_opens_the_page():
    phone = settings_phone()
    tap(phone, text="Search settings")
    assert node(phone, class_name="android.widget.EditText").flags["focused"]
    phone.perform(Action.type_text("blue"))
    results = texts(phone)
    assert "Bluetooth" in results and "Bluetooth scanning" in results
    assert "Display" not in results
    phone.perform(Action.type_text("tooth scan"))
    assert visible(phone, text="Location > Location services")
    tap(phone, text="Bluetooth scanning")
    assert node(phone, resource_id=f"{SETTINGS}:id/collapsing_toolbar").content_desc == "Bluetooth scanning"
    assert state(phone).visited == ("main", "search", "bluetooth_scanning")
    back(phone)
    tap(phone, content_desc="Clear query")
    assert visible(phone, text="Recent searches") and visible(phone, text="bluetooth scan")
    phone.perform(Action.type_text("zzz"))
    assert visible(phone, text="No results")


# ---------------------------------------------------------------------- BACK

def test_back_closes_keyboard_dialog_pages_then_leaves():
    phone = settings_phone()
    tap(phone, text="Search settings")
    back(phone)  # hides the keyboard
    assert visible(phone, text="Search settings", class_name="android.widget.EditText")
    back(phone)
    assert phone.foreground_activity() == MAIN
    go(phone, "Notifications", "Notifications on lock screen")
    back(phone)  # cancels the dialog
    assert phone.foreground_activity() == SUB and state(phone).lock_screen_notifications == "all"
    tap(phone, content_desc="Navigate up")
    assert phone.foreground_activity() == MAIN
    back(phone)
    assert phone.foreground_activity().startswith("com.google.android.apps.nexuslauncher/")


def test_pickles_in_the_middle_of_a_flow():
    phone = settings_phone()
    go(phone, "Network & internet", "Internet", "HomeNet-5G")  # password dialog open
    phone.perform(Action.type_text("hunter22"))
    copy = pickle.loads(pickle.dumps(phone))
    assert copy.observe(screenshot=False).xml == phone.observe(screenshot=False).xml
    tap(copy, text="Connect")
    assert copy.app_state("settings").connected_network == "HomeNet-5G"
    assert state(phone).connected_network == "AndroidWifi"


# ---------------------------------------------------------------------- every screen

# A golden path (texts tapped from the home list) to every page; the walk checks that
# together they visit every page key Settings has.
PATHS = (
    ("Network & internet", "Internet", "AndroidWifi"),
    ("Network & internet", "SIMs", "App data usage"),
    ("Network & internet", "Hotspot & tethering", f"{WIFI} hotspot"),
    ("Network & internet", "Data Saver"),
    ("Connected devices", "Connection preferences", "Bluetooth"),
    ("Connected devices", "Pair new device"),
    ("Apps", "See all {apps} apps", "Chrome"),
    ("Notifications", "App notifications", "Chrome"),
    ("Notifications", "Notification history"),
    ("Battery", "Battery Saver"),
    ("Battery", "Battery usage"),
    ("Storage",),
    ("Sound & vibration", "Do Not Disturb"),
    ("Display", "Dark theme"),
    ("Display", "Screen timeout"),
    ("Display", "Font size"),
    ("Display", "Night Light"),
    ("Wallpaper & style",),
    ("Accessibility", "TalkBack"),
    ("Accessibility", "Select to Speak"),
    ("Accessibility", "Text and display"),
    ("Accessibility", "Color and motion"),
    ("Security & privacy", "Permission manager"),
    ("Location", "Location services", "Google Location Accuracy"),
    ("Location", "Location services", "Bluetooth scanning"),
    ("Location", "Location services", f"{WIFI} scanning"),
    ("Safety & emergency",),
    ("Passwords & accounts",),
    ("Google",),
    ("System", "Languages & input", "Languages", "Add a language"),
    ("System", "Gestures"),
    ("System", "Date & time"),
    ("System", "Backup"),
    ("System", "Reset options"),
    ("System", "Developer options"),
    ("About phone", "Android version"),
)


@pytest.mark.parametrize("profile", ["budget-720p", "pixel-6"])
def test_every_page_is_reachable_and_dumps_validly(profile):
    phone = SimulatedDevice(profile=profile, seed=0, setup={
        "launch": "settings",
        "apps": {"settings": {"developer_options": True, "paired_devices": ["JBL Flip 5"]}}})
    check_dump(phone)
    for path in PATHS:
        for text in path:
            reach(phone, text.format(apps=len(phone.installed_packages())))
            check_dump(phone)
            for _ in range(3):  # scrolled to the end too
                swipe_up(phone, 0.5)
            check_dump(phone)
        while phone.foreground_activity() != MAIN:
            back(phone)
    go(phone, "Connected devices", "JBL Flip 5")  # a saved device's page
    tap(phone, content_desc="Navigate up")
    tap(phone, content_desc="Navigate up")
    reach(phone, "Search settings")
    check_dump(phone)
    assert set(PAGES) <= set(state(phone).visited)


def test_same_seed_same_screens():
    def run(seed: int) -> list[str]:
        phone = settings_phone(seed, "default")
        dumps = [phone.observe(screenshot=False).xml]
        for text in ("Network & internet", "Internet"):
            reach(phone, text)
            dumps.append(phone.observe(screenshot=False).xml)
        back(phone, 2)
        reach(phone, "Battery")
        dumps.append(phone.observe(screenshot=False).xml)
        return dumps

    assert run(5) == run(5)
    assert run(5) != run(6)


# ---------------------------------------------------------------------- setup

@pytest.mark.parametrize("values", [
    {"lock_screen_notifications": "some"},
    {"brightness": 150},
    {"media_volume": 5.5},
    {"screen_timeout": 45},
    {"font_size": "Huge"},
    {"wifi_network": "Nowhere"},
    {"wifi_networks": [{"name": "X", "bars": 3}]},
    {"wifi_networks": []},
    {"data_usage_mb": {"YouTube": -1}},
    {"languages": []},
    {"paired_devices": [1, 2]},
    {"wifi_enabled": "yes"},
    {"no_such_setting": True},
])
def test_bad_setup_raises(values):
    with pytest.raises(SimulatorError):
        settings_phone(**values)


def test_setup_applies_nested_state():
    phone = settings_phone(wifi_networks=[{"name": "Office", "saved": True, "signal": 2}],
                           wifi_network="Office", lock_screen_notifications="no_silent")
    s = state(phone)
    assert s.connected_network == "Office" and s.wifi_networks[0].secured
    assert "Wifi two bars." in status_icons(phone)
