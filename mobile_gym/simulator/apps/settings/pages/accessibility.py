"""Accessibility: the list of services and display options, TalkBack and Select to
Speak (turning them on asks for full control, as Android does), Text and display,
Color and motion."""

from __future__ import annotations

from functools import partial

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.pages.display import dark_theme_link
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.state import SettingsState
from mobile_gym.simulator.apps.settings.widgets import category, footer, main_switch, pref


def _on_off(on: bool) -> str:
    return "On" if on else "Off"


@page("accessibility", "Accessibility",
      keywords=("TalkBack", "Select to Speak", "Text and display", "Color and motion",
                "Magnification", "Live Caption", "Switch Access", "Accessibility Menu"))
def accessibility(p: SubSettings) -> list:
    s = p.state
    return [
        category("Screen readers"),
        p.link("Select to Speak", "select_to_speak", _on_off(s.select_to_speak)),
        p.link("TalkBack", "talkback", _on_off(s.talkback)),
        category("Display"),
        p.link("Text and display", "text_display"),
        p.link("Color and motion", "color_motion"),
        pref("Extra dim", "Dim screen beyond your phone's minimum brightness"),
        pref("Magnification", "Off"),
        category("Interaction controls"),
        pref("Accessibility Menu", "Off"),
        pref("Switch Access", "Off"),
        pref("Timing controls"),
        pref("System controls"),
        category("Audio"),
        pref("Live Caption", "Automatically caption speech"),
        pref("Sound Amplifier", "Off"),
        pref("Sound Notifications", "Off"),
        pref("Hearing aids", "No hearing aids connected"),
        category("Captions"),
        pref("Caption preferences", "Off"),
    ]


def _service_page(p: SubSettings, name: str, field: str, about: str) -> list:
    """TalkBack / Select to Speak: the switch asks before the service takes control."""
    on = getattr(p.state, field)
    return [
        main_switch(f"Use {name}", on, lambda: _ask(p, name, field, not on)),
        pref(f"{name} shortcut", "Off"),
        pref("Settings"),
        footer(about),
    ]


def _ask(p: SubSettings, name: str, field: str, turn_on: bool) -> None:
    confirm = partial(_set, p.state, field, turn_on)
    if turn_on:
        p.sys.show(Dialog(f"Allow {name} to have full control of your device?",
                          "It can read all content on the screen and act on your behalf.",
                          (("Deny", None), ("Allow", confirm))))
    else:
        p.sys.show(Dialog(f"Stop {name}?", f"Tapping Stop will turn off {name}.",
                          (("Cancel", None), ("Stop", confirm))))


def _set(state: SettingsState, field: str, value: bool) -> None:
    state.set(field, value)


@page("talkback", "TalkBack", "accessibility", keywords=("Use TalkBack",))
def talkback(p: SubSettings) -> list:
    return _service_page(p, "TalkBack", "talkback",
                         "TalkBack screen reader gives you spoken feedback so that you can use "
                         "your device without looking at the screen.")


@page("select_to_speak", "Select to Speak", "accessibility", keywords=("Use Select to Speak",))
def select_to_speak(p: SubSettings) -> list:
    return _service_page(p, "Select to Speak", "select_to_speak",
                         "Select items on your screen to hear them read aloud.")


@page("text_display", "Text and display", "accessibility",
      keywords=("Bold text", "High contrast text", "Color inversion", "Color correction"))
def text_display(p: SubSettings) -> list:
    s = p.state
    return [
        p.link("Font size", "font_size", s.font_size),
        pref("Display size", "Default"),
        p.switch("Bold text", "bold_text"),
        p.switch("High contrast text", "high_contrast_text",
                 "Change text color to black or white. Maximizes contrast with the background."),
        pref("Color correction", "Off"),
        p.switch("Color inversion", "color_inversion"),
    ]


@page("color_motion", "Color and motion", "accessibility",
      keywords=("Remove animations", "Dark theme", "Color inversion"))
def color_motion(p: SubSettings) -> list:
    return [
        pref("Color correction", "Off"),
        p.switch("Color inversion", "color_inversion"),
        dark_theme_link(p),
        p.switch("Remove animations", "remove_animations"),
    ]
