"""Display (brightness, dark theme, timeout, font size), Wallpaper & style, and
Sound & vibration with Do Not Disturb."""

from __future__ import annotations

from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.dialogs import LevelDialog
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.state import FONT_SIZES, TIMEOUTS
from mobile_gym.simulator.apps.settings.widgets import (
    action_button, buttons, category, footer, pref, radio_pref, slider,
)
from mobile_gym.simulator.views import Column, Icon, Row, Text, View

FONT_SP = {"Small": 14, "Default": 16, "Large": 19, "Largest": 22}


@page("display", "Display",
      keywords=("Brightness level", "Adaptive brightness", "Lock screen", "Screen timeout",
                "Font size", "Display size", "Night Light", "Auto-rotate screen",
                "Smooth Display", "Screen saver"))
def display(p: SubSettings) -> list:
    s = p.state
    timeout = dict(TIMEOUTS)[s.screen_timeout]
    return [
        category("Brightness"),
        pref("Brightness level", f"{s.brightness}%", on_click=lambda: p.sys.show(
            LevelDialog(p.app, "brightness", "Brightness level"))),
        p.switch("Adaptive brightness", "adaptive_brightness",
                 "Automatically adjust screen brightness to your environment"),
        category("Lock display"),
        pref("Lock screen", "Show all notification content"),
        p.link("Screen timeout", "screen_timeout", f"After {timeout} of inactivity"),
        category("Appearance"),
        dark_theme_link(p),
        p.link("Font size", "font_size", s.font_size),
        pref("Display size", "Default"),
        category("Color"),
        p.link("Night Light", "night_light",
               "On / Will never turn off automatically" if s.night_light else "Off"),
        pref("Colors", "Adaptive"),
        category("Other display controls"),
        p.switch("Auto-rotate screen", "auto_rotate"),
        pref("Smooth Display", "Automatically raises the refresh rate up to 90 Hz for some content"),
        pref("Screen saver", "Clock"),
    ]


def dark_theme_link(p: SubSettings) -> View:
    """The "Dark theme" row of Display (and of Accessibility > Color and motion): as on
    Android 13 it opens the Dark theme page, whose main switch turns it on."""
    state = "On / Will never turn off automatically" if p.state.dark_theme else \
        "Off / Will never turn on automatically"
    return p.link("Dark theme", "dark_theme", state)


@page("dark_theme", "Dark theme", "display", keywords=("Use Dark theme",))
def dark_theme(p: SubSettings) -> list:
    return [
        p.main_switch("Use Dark theme", "dark_theme"),
        pref("Schedule", "None"),
        footer("Dark theme uses a black background to help keep battery alive longer on some "
               "screens. Dark theme schedules wait to turn on until your screen is off."),
    ]


@page("screen_timeout", "Screen timeout", "display")
def screen_timeout(p: SubSettings) -> list:
    s = p.state
    return [
        *(radio_pref(label, secs == s.screen_timeout,
                     lambda secs=secs: s.set("screen_timeout", secs))
          for secs, label in TIMEOUTS),
        footer("Screen turns off after this much time without use"),
    ]


def _font_step(p: SubSettings, delta: int) -> None:
    i = FONT_SIZES.index(p.state.font_size) + delta
    p.state.set("font_size", FONT_SIZES[max(0, min(len(FONT_SIZES) - 1, i))])


@page("font_size", "Font size", "display", keywords=("Text size",))
def font_size(p: SubSettings) -> list:
    s = p.state
    sp = FONT_SP[s.font_size]
    return [
        Column(Column(
            Text("Preview", size=14, style="muted", h=24),
            Text("Sample text", size=sp + 6, bold=True),
            Text("The Wonderful Wizard of Oz", size=sp, lines=2),
            pad=(24, 16, 24, 16), style="card", radius=16,
        ), pad=(16, 8, 16, 8)),
        Row(
            Icon("remove", desc="Smaller font", on_click=lambda: _font_step(p, -1)),
            Text(s.font_size, size=18, align="center", rid="com.android.settings:id/font_size_label",
                 h=28),
            Icon("add", desc="Larger font", on_click=lambda: _font_step(p, 1)),
            h=64, pad=(16, 8, 16, 8),
        ),
        footer("Make the text on your screen smaller or larger."),
    ]


@page("night_light", "Night Light", "display", keywords=("Use Night Light",))
def night_light(p: SubSettings) -> list:
    return [
        p.main_switch("Use Night Light", "night_light"),
        pref("Schedule", "None"),
        footer("Night Light tints your screen amber. This makes it easier to look at your screen "
               "or read in dim light, and may help you fall asleep more easily."),
    ]


@page("wallpaper", "Wallpaper & style", keywords=("Themed icons", "Wallpaper colors", "App grid"))
def wallpaper(p: SubSettings) -> list:
    return [
        pref("Change wallpaper", icon="edit"),
        pref("Wallpaper colors", "Color palette from your wallpaper", icon="star"),
        p.switch("Themed icons", "themed_icons", "Match app icons to your wallpaper colors"),
        p.switch("Dark theme", "dark_theme"),
        pref("App grid", "4x5"),
    ]


# ---------------------------------------------------------------------- sound

def _volume(p: SubSettings, title: str, field: str, icon: str) -> Column:
    def change(delta: int) -> None:
        p.state.set(field, max(0, min(100, getattr(p.state, field) + delta)))
    return slider(title, getattr(p.state, field), change, icon=icon)


@page("sound", "Sound & vibration",
      keywords=("Media volume", "Call volume", "Ring & notification volume", "Alarm volume",
                "Vibrate for calls", "Phone ringtone", "Default notification sound",
                "Default alarm sound", "Live Caption", "Vibration & haptics"))
def sound(p: SubSettings) -> list:
    s = p.state
    return [
        _volume(p, "Media volume", "media_volume", "play"),
        _volume(p, "Call volume", "call_volume", "person"),
        _volume(p, "Ring & notification volume", "ring_volume", "bell"),
        _volume(p, "Alarm volume", "alarm_volume", "alarm"),
        p.link("Do Not Disturb", "dnd", "On" if s.do_not_disturb else "Off"),
        pref("Live Caption", "Automatically caption media"),
        pref("Vibration & haptics", "On"),
        p.switch("Vibrate for calls", "vibrate_for_calls"),
        pref("Phone ringtone", "The Big Adventure"),
        pref("Default notification sound", "Popcorn"),
        pref("Default alarm sound", "Bright Morning"),
    ]


@page("dnd", "Do Not Disturb", "sound",
      keywords=("Turn on now", "People", "Alarms & other interruptions", "Schedules"))
def dnd(p: SubSettings) -> list:
    s = p.state
    on = s.do_not_disturb
    return [
        buttons(action_button("Turn off now" if on else "Turn on now", p.flip("do_not_disturb"),
                              "zen_mode_settings_turn_off_button" if on else
                              "zen_mode_settings_turn_on_button", style="filled", w=160)),
        footer("Do Not Disturb is on") if on else None,
        category("What can interrupt Do Not Disturb"),
        pref("People", "Calls, messages, conversations"),
        pref("Apps", "No apps can interrupt"),
        pref("Alarms & other interruptions", "Alarms, media"),
        category("General"),
        pref("Schedules", "1 schedule can turn on automatically"),
        pref("Duration for Quick Settings", "Until you turn off"),
        pref("Display options for hidden notifications", "No sound from notifications"),
    ]
