"""Battery (level, Battery Saver, usage, percentage in the status bar) and Storage."""

from __future__ import annotations

from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.pages.apps import usage_row
from mobile_gym.simulator.apps.settings.pages.system import clock_12h
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.widgets import (
    action_button, big_header, buttons, category, footer, pref, size_text,
)

HOURS_PER_PERCENT = 0.25  # a full battery lasts about a day
STORAGE_ICONS = {"Apps": "apps", "Images": "star", "Videos": "play", "Audio": "sound",
                 "Trash": "trash", "System": "settings"}


@page("battery", "Battery",
      keywords=("Battery usage", "Battery Saver", "Adaptive Battery", "Battery percentage"))
def battery(p: SubSettings) -> list:
    s = p.state
    until = (p.sys.time + int(s.battery_level * HOURS_PER_PERCENT * 3600)) // 900 * 900
    return [
        big_header(f"{s.battery_level}%", f"Should last until about {clock_12h(until)}",
                   rid="battery_percent", progress=s.battery_level / 100),
        p.link("Battery usage", "battery_usage", "View usage since last full charge"),
        p.link("Battery Saver", "battery_saver", "On" if s.battery_saver else "Off"),
        p.switch("Adaptive Battery", "adaptive_battery",
                 "Extend battery life based on your phone usage"),
        p.switch("Battery percentage", "battery_percentage", "Show battery percentage in status bar"),
    ]


@page("battery_saver", "Battery Saver", "battery", keywords=("Use Battery Saver",))
def battery_saver(p: SubSettings) -> list:
    return [
        p.main_switch("Use Battery Saver", "battery_saver"),
        pref("Set a schedule", "No schedule"),
        footer("Battery Saver extends battery life by limiting or turning off background "
               "activity, some visual effects, and other high-power features."),
    ]


@page("battery_usage", "Battery usage", "battery")
def battery_usage(p: SubSettings) -> list:
    usage = sorted(p.state.battery_usage.items(), key=lambda kv: -kv[1])
    return [
        category("Battery usage since last full charge"),
        *(usage_row(p, app, f"{pct}%") for app, pct in usage),
        footer("Usage is shown for apps that used battery since the last full charge."),
    ]


@page("storage", "Storage", keywords=("Free up space", "Trash"))
def storage(p: SubSettings) -> list:
    s = p.state
    used = sum(s.storage_gb.values())
    return [
        big_header(f"{used:.1f} GB", f"used of {s.storage_total_gb:.0f} GB",
                   rid="storage_summary", progress=used / s.storage_total_gb),
        buttons(action_button("Free up space", lambda: p.sys.toast("Nothing to clean up"),
                              "free_up_space", style="filled", w=160)),
        *(pref(name, size_text(gb * 1000), icon=STORAGE_ICONS.get(name, "menu"))
          for name, gb in s.storage_gb.items()),
    ]
