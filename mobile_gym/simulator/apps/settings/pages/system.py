"""System (languages, gestures, date & time, backup, reset, developer options) and
About phone (device name, Android version, build number taps)."""

from __future__ import annotations

from functools import partial

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.dialogs import InputDialog
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.state import CARRIER, LANGUAGES, WIFI, SettingsState
from mobile_gym.simulator.apps.settings.widgets import category, footer, pref

BUILD = "TQ3A.230805.001"
TAPS_TO_DEVELOPER = 7


def clock_12h(seconds: int) -> str:
    h, m = seconds // 3600 % 24, seconds // 60 % 60
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


@page("system", "System",
      keywords=("Languages & input", "Gestures", "Date & time", "Backup", "System update",
                "Multiple users", "Reset options"))
def system(p: SubSettings) -> list:
    s = p.state
    return [
        p.link("Languages & input", "languages_input", "Gboard", icon="globe"),
        p.link("Gestures", "gestures", icon="menu"),
        p.link("Date & time", "date_time", "GMT-08:00 Pacific Standard Time", icon="clock"),
        p.link("Backup", "backup", "On" if s.backup_enabled else "Off", icon="refresh"),
        pref("System update", "Updated to Android 13", icon="download"),
        pref("Multiple users", "Signed in as Owner", icon="person"),
        p.link("Developer options", "developer_options", icon="settings")
        if s.developer_options else None,
        p.link("Reset options", "reset_options", icon="history"),
    ]


@page("languages_input", "Languages & input", "system",
      keywords=("On-screen keyboard", "Spell checker", "Text-to-speech output", "Pointer speed"))
def languages_input(p: SubSettings) -> list:
    return [
        p.link("Languages", "languages", p.state.languages[0]),
        category("Keyboards"),
        pref("On-screen keyboard", "Gboard"),
        pref("Physical keyboard", "Not connected"),
        category("Tools"),
        pref("Spell checker", "Gboard spell checker"),
        pref("Autofill service", "Google"),
        pref("Personal dictionary"),
        pref("Pointer speed"),
        pref("Text-to-speech output"),
    ]


@page("languages", "Languages", "languages_input", keywords=("Add a language", "System languages"))
def languages(p: SubSettings) -> list:
    return [
        *(pref(f"{i}. {lang}", "System language" if i == 1 else "")
          for i, lang in enumerate(p.state.languages, 1)),
        p.link("Add a language", "add_language", icon="add"),
        footer("Apps use the first supported language on this list."),
    ]


def _add_language(p: SubSettings, lang: str) -> None:
    p.state.languages.append(lang)
    p.finish()


@page("add_language", "Add a language", "languages", searchable=False)
def add_language(p: SubSettings) -> list:
    return [pref(lang, on_click=lambda lang=lang: _add_language(p, lang))
            for lang in LANGUAGES if lang not in p.state.languages]


@page("gestures", "Gestures", "system",
      keywords=("Quick Tap", "Quickly open camera", "System navigation", "One-handed mode"))
def gestures(p: SubSettings) -> list:
    return [
        pref("Quick Tap", "Off"),
        p.switch("Quickly open camera", "quick_open_camera", "Press power button twice"),
        pref("Flip camera for selfie", "On"),
        pref("System navigation", "3-button navigation"),
        pref("One-handed mode", "Off"),
        pref("Press & hold power button", "Digital assistant"),
    ]


@page("date_time", "Date & time", "system",
      keywords=("Set time automatically", "Set time zone automatically", "Time zone",
                "Use 24-hour format"))
def date_time(p: SubSettings) -> list:
    s = p.state
    return [
        p.switch("Set time automatically", "auto_time", "Use network-provided time"),
        pref("Date", "November 21, 2023", enabled=not s.auto_time),
        pref("Time", clock_12h(p.sys.minute * 60), enabled=not s.auto_time),
        category("Time zone"),
        p.switch("Set time zone automatically", "auto_time_zone"),
        pref("Time zone", "GMT-08:00 Pacific Standard Time", enabled=not s.auto_time_zone),
        category("Time format"),
        p.switch("Use 24-hour format", "use_24_hour_format", "13:00" if s.use_24_hour_format
                 else "1:00 PM"),
    ]


@page("backup", "Backup", "system", keywords=("Backup by Google One",))
def backup(p: SubSettings) -> list:
    s = p.state
    return [
        p.main_switch("Backup by Google One", "backup_enabled"),
        pref("Google Account", s.account),
        pref("Backup details", "Apps, Photos & videos, SMS & MMS, Device settings"),
        footer("Back up your phone's data to your Google Account."),
    ]


@page("reset_options", "Reset options", "system",
      keywords=(f"Reset {WIFI}, mobile & Bluetooth", "Reset app preferences",
                "Erase all data (factory reset)"))
def reset_options(p: SubSettings) -> list:
    return [
        pref(f"Reset {WIFI}, mobile & Bluetooth", on_click=lambda: p.sys.show(Dialog(
            "Reset network settings?",
            f"This will reset all network settings, including {WIFI}, mobile data and Bluetooth.",
            (("Cancel", None), ("Reset settings", partial(_reset_network, p)))))),
        pref("Reset app preferences", on_click=lambda: p.sys.show(Dialog(
            "Reset app preferences?",
            "This will reset all preferences for notifications, app restrictions and permissions.",
            (("Cancel", None), ("Reset apps", partial(_reset_apps, p)))))),
        pref("Erase all data (factory reset)", enabled=False),
    ]


def _reset_network(p: SubSettings) -> None:
    p.state.reset_network()
    p.sys.toast("Network settings have been reset")


def _reset_apps(p: SubSettings) -> None:
    p.state.blocked_notifications.clear()
    p.sys.toast("App preferences reset")


@page("developer_options", "Developer options", "system", requires="developer_options",
      keywords=("Use developer options", "USB debugging", "Stay awake"))
def developer_options(p: SubSettings) -> list:
    on = p.state.developer_options
    return [
        p.main_switch("Use developer options", "developer_options"),
        pref("Memory", "Avg 2.1 GB of 7.6 GB memory used", enabled=on),
        p.switch("Stay awake", "stay_awake", "Screen will never sleep while charging", enabled=on),
        category("Debugging"),
        p.switch("USB debugging", "usb_debugging", "Debug mode when USB is connected", enabled=on),
    ]


# ---------------------------------------------------------------------- about phone

def _rename(state: SettingsState, name: str) -> None:
    state.device_name = name


def _build_tap(p: SubSettings) -> None:
    """Seven taps on "Build number" turn on Developer options, counting down in toasts."""
    s = p.state
    if s.developer_options:
        p.sys.toast("No need, you are already a developer.")
        return
    p.taps += 1
    left = TAPS_TO_DEVELOPER - p.taps
    if left <= 0:
        s.developer_options = True
        p.sys.toast("You are now a developer!")
    elif left < TAPS_TO_DEVELOPER - 2:
        p.sys.toast(f"You are now {left} step{'s' if left > 1 else ''} away from being a developer.")


def _ask_name(p: SubSettings) -> None:
    p.sys.show(InputDialog("Device name", "Device name", partial(_rename, p.state),
                           initial=p.state.device_name))
    p.sys.keyboard = True


@page("about", "About phone",
      keywords=("Device name", "Phone number", "Model", "Android version", "IP address",
                "Build number", "IMEI", "SIM status"))
def about(p: SubSettings) -> list:
    s = p.state
    up = p.sys.steps * 5 + 3600
    return [
        pref("Device name", s.device_name, on_click=lambda: _ask_name(p)),
        category("Basic info"),
        pref("Phone number", "(650) 555-1212"),
        pref("Emergency information"),
        pref("Legal information"),
        category("Device details"),
        pref("SIM status", CARRIER),
        pref("Model", "Pixel 6"),
        pref("IMEI", "358240051111110"),
        p.link("Android version", "android_version", "13"),
        category("Device identifiers"),
        pref("IP address", "192.168.1.23" if s.connected_network else "Unavailable"),
        pref(f"{WIFI} MAC address", "Use randomized MAC"),
        pref("Bluetooth address", "3C:28:6D:4A:91:0F" if s.bluetooth_enabled else "Unavailable"),
        pref("Up time", f"{up // 3600}:{up // 60 % 60:02d}:{up % 60:02d}"),
        pref("Build number", BUILD, on_click=lambda: _build_tap(p)),
    ]


@page("android_version", "Android version", "about",
      keywords=("Android security update", "Kernel version", "Baseband version"))
def android_version(p: SubSettings) -> list:
    return [
        pref("Android version", "13"),
        pref("Android security update", "August 5, 2023"),
        pref("Google Play system update", "July 1, 2023"),
        pref("Baseband version", "g5123b-116954-230511-B-10112789"),
        pref("Kernel version", "5.10.157-android13-4-00001-g5c1ba4fb1b2c-ab10360016"),
        pref("Build number", BUILD),
    ]
