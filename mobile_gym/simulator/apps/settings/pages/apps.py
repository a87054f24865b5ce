"""Apps (all apps, App info with Uninstall / Force stop) and Notifications (per-app
notifications, lock screen, notification dots)."""

from __future__ import annotations

import zlib
from functools import partial

from mobile_gym.simulator.app import App, Dialog
from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.dialogs import ChoiceDialog
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.state import LOCK_SCREEN
from mobile_gym.simulator.apps.settings.widgets import (
    PKG, SWITCH_ID, action_button, buttons, category, entity_header, footer, main_switch, pref,
    size_text,
)
from mobile_gym.simulator.catalogue import BY_PACKAGE
from mobile_gym.simulator.views import Switch, View

LAUNCHER = "com.google.android.apps.nexuslauncher"


def app_size_mb(package: str) -> float:
    """A stable made-up install size (the simulator has no APKs)."""
    return 12.0 + zlib.crc32(package.encode()) % 180


def app_version(package: str) -> str:
    crc = zlib.crc32(package.encode())
    return f"version {1 + crc % 9}.{crc // 9 % 40}.0"


def installed_apps(p: SubSettings) -> list[App]:
    return sorted((p.sys.app(pkg) for pkg in p.sys.installed), key=lambda a: a.label.lower())


def app_row(app: App, summary: str, on_click, widget: View | None = None) -> View:
    return pref(app.label, summary, icon=app.icon, disc=app.color, icon_desc=app.label,
                on_click=on_click, widget=widget)


def usage_row(p: SubSettings, label: str, amount: str) -> View:
    """A usage line (data, battery) with the app's icon when an app has that label."""
    app = next((a for a in installed_apps(p) if a.label == label), None)
    if app is None:
        return pref(label, amount, icon="apps")
    return app_row(app, amount, None)


@page("apps", "Apps", keywords=("See all apps", "All apps", "Default apps", "Screen time",
                                "Unused apps", "Special app access"))
def apps(p: SubSettings) -> list:
    running = [a for a in installed_apps(p) if a.stack and a.package not in (PKG, LAUNCHER)]
    rows: list = []
    if running:
        rows.append(category("Recently opened apps"))
        rows += [app_row(a, "0 min. ago", lambda a=a: p.open("app_info", arg=a.package))
                 for a in running[:3]]
    rows += [
        p.link(f"See all {len(p.sys.installed)} apps", "all_apps", icon="apps"),
        category("General"),
        pref("Default apps", "Chrome, Phone, and Messages"),
        pref("Screen time", "0 minutes today"),
        pref("Unused apps", "0 unused apps"),
        pref("App battery usage"),
        pref("Special app access", "0 apps can use unrestricted data"),
    ]
    return rows


@page("all_apps", "All apps", "apps")
def all_apps(p: SubSettings) -> list:
    return [app_row(a, size_text(app_size_mb(a.package)),
                    lambda a=a: p.open("app_info", arg=a.package))
            for a in installed_apps(p)]


def _system(package: str) -> bool:
    """Apps a Pixel ships with can be disabled, not uninstalled."""
    return package not in BY_PACKAGE


@page("app_info", "App info", "all_apps", searchable=False)
def app_info(p: SubSettings) -> list:
    pkg, s = p.arg, p.state
    if pkg not in p.sys.installed:
        return [footer("App not installed")]
    app = p.sys.app(pkg)
    own = pkg == PKG
    running = bool(app.stack) or pkg not in s.force_stopped
    remove = (action_button("Disable", None, "button2", enabled=False) if _system(pkg) else
              action_button("Uninstall", lambda: ask_uninstall(p), "button2"))
    blocked = pkg in s.blocked_notifications
    return [
        entity_header(app.label, app.icon, app.color),
        buttons(
            action_button("Open", lambda: p.sys.launch(pkg), "button1", enabled=not own),
            remove,
            action_button("Force stop", lambda: ask_force_stop(p), "button3",
                          enabled=running and not own),
        ),
        p.link("Notifications", "app_notification", "Off" if blocked else "~0 notifications per week",
               arg=pkg),
        pref("Permissions", "No permissions requested"),
        pref("Storage & cache", f"{size_text(app_size_mb(pkg))} used in internal storage"),
        pref("Mobile data & Wi\u2011Fi", "No data used"),
        pref("Screen time", "0 minutes today"),
        pref("App battery usage", "No battery use since last full charge"),
        pref("Open by default", "Allow app to open supported links"),
        category("Advanced"),
        pref("Version", app_version(pkg)),
    ]


def ask_uninstall(p: SubSettings) -> None:
    p.sys.show(Dialog(p.sys.app(p.arg).label, "Do you want to uninstall this app?",
                      (("Cancel", None), ("OK", partial(_uninstall, p)))))


def _uninstall(p: SubSettings) -> None:
    """The system removes the package; Settings drops its pages about it (see
    `Settings.on_package_changed`)."""
    p.sys.uninstall(p.arg)


def ask_force_stop(p: SubSettings) -> None:
    p.sys.show(Dialog("Force stop?", "If you force stop an app, it may misbehave.",
                      (("Cancel", None), ("OK", partial(_force_stop, p)))))


def _force_stop(p: SubSettings) -> None:
    """The app's tasks go away: its next launch starts from its main screen."""
    target = p.sys.app(p.arg)
    target.stack.clear()
    target.dialogs.clear()
    p.state.force_stopped.append(p.arg)


# ---------------------------------------------------------------------- notifications

def lock_screen_pref(p: SubSettings) -> View:
    """"Notifications on lock screen": its choice dialog sets lock_screen_notifications."""
    title = "Notifications on lock screen"
    return pref(title, dict(LOCK_SCREEN)[p.state.lock_screen_notifications],
                on_click=lambda: p.sys.show(ChoiceDialog(p.app, "lock_screen_notifications",
                                                         title, LOCK_SCREEN)))


@page("notifications", "Notifications",
      keywords=("App notifications", "Notification history", "Conversations", "Bubbles",
                "Notifications on lock screen", "Lock screen", "Notification dot on app icon",
                "Allow notification snoozing", "Do Not Disturb"))
def notifications(p: SubSettings) -> list:
    s = p.state
    return [
        p.link("App notifications", "app_notifications", "Control notifications from individual apps"),
        p.link("Notification history", "notification_history",
               "Show recent and snoozed notifications" if s.notification_history else "Off"),
        category("Conversation"),
        pref("Conversations", "No priority conversations"),
        pref("Bubbles", "On / Conversations can appear as floating icons"),
        category("Privacy"),
        pref("Device & app notifications", "Control which apps and devices can read notifications"),
        lock_screen_pref(p),
        category("General"),
        p.link("Do Not Disturb", "dnd", "On" if s.do_not_disturb else "Off"),
        pref("Wireless emergency alerts"),
        p.switch("Allow notification snoozing", "notification_snoozing"),
        p.switch("Notification dot on app icon", "notification_dots"),
    ]


@page("notification_history", "Notification history", "notifications",
      keywords=("Use notification history",))
def notification_history(p: SubSettings) -> list:
    return [
        p.main_switch("Use notification history", "notification_history"),
        footer("Recent and snoozed notifications will show up here"
               if p.state.notification_history else
               "Turn on notification history to see recent notifications and snoozed notifications"),
    ]


def _toggle_block(p: SubSettings, pkg: str) -> None:
    blocked = p.state.blocked_notifications
    if pkg in blocked:
        blocked.remove(pkg)
    else:
        blocked.append(pkg)


@page("app_notifications", "App notifications", "notifications")
def app_notifications(p: SubSettings) -> list:
    blocked = p.state.blocked_notifications
    return [app_row(a, "", lambda a=a: p.open("app_notification", arg=a.package),
                    widget=Switch(a.package not in blocked,
                                  lambda a=a: _toggle_block(p, a.package), rid=SWITCH_ID))
            for a in installed_apps(p) if a.package != LAUNCHER]


@page("app_notification", "Notifications", "app_notifications", searchable=False)
def app_notification(p: SubSettings) -> list:
    if p.arg not in p.sys.installed:
        return [footer("App not installed")]
    app = p.sys.app(p.arg)
    on = p.arg not in p.state.blocked_notifications
    return [
        entity_header(app.label, app.icon, app.color),
        main_switch(f"All {app.label} notifications", on, lambda: _toggle_block(p, p.arg)),
        footer(f"{app.label} notifications are shown" if on else
               "Android is blocking this app's notifications from appearing on this device"),
    ]
