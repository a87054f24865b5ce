"""Security & privacy, Location (with Location services and Google Location
Accuracy), Safety & emergency, Passwords & accounts and Google."""

from __future__ import annotations

from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.pages.apps import lock_screen_pref
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.state import WIFI
from mobile_gym.simulator.apps.settings.widgets import category, footer, pref

MAPS = "com.google.android.apps.maps"
PERMISSIONS = (("Body sensors", 0), ("Calendar", 2), ("Call logs", 1), ("Camera", 3),
               ("Contacts", 3), ("Files and media", 4), ("Location", 4), ("Microphone", 3),
               ("Music and audio", 2), ("Nearby devices", 2), ("Notifications", 9),
               ("Phone", 3), ("Photos and videos", 4), ("Physical activity", 1), ("SMS", 1))


@page("security_privacy", "Security & privacy",
      keywords=("Screen lock", "Find My Device", "Security update", "Privacy",
                "Privacy dashboard", "Permission manager", "Camera access", "Microphone access",
                "Show passwords", "Google Play Protect"))
def security_privacy(p: SubSettings) -> list:
    return [
        category("Security"),
        pref("App security", "Google Play Protect", icon="lock"),
        pref("Find My Device", "On", icon="location"),
        pref("Security update", "August 5, 2023", icon="refresh"),
        pref("Google Play system update", "July 1, 2023", icon="download"),
        pref("Screen lock", "Swipe", icon="lock"),
        pref("Face & Fingerprint Unlock", "Set up", icon="person"),
        category("Privacy"),
        pref("Privacy dashboard", "Show which apps recently used permissions", icon="history"),
        p.link("Permission manager", "permission_manager", "Control app access to your data",
               icon="apps"),
        p.switch("Camera access", "camera_access", "For apps and services"),
        p.switch("Microphone access", "microphone_access", "For apps and services"),
        p.switch("Show passwords", "show_passwords", "Display characters briefly as you type"),
        lock_screen_pref(p),
        pref("Android System Intelligence", "Get suggestions based on the people, apps, and "
             "content you interact with"),
    ]


@page("permission_manager", "Permission manager", "security_privacy")
def permission_manager(p: SubSettings) -> list:
    total = len(p.sys.installed)
    return [pref(name, f"{allowed} of {total} apps allowed") for name, allowed in PERMISSIONS]


@page("location", "Location",
      keywords=("Use location", "App location permissions", "Location services"))
def location(p: SubSettings) -> list:
    s = p.state
    recent = s.location_enabled and MAPS in p.sys.installed
    return [
        p.main_switch("Use location", "location_enabled"),
        category("Recent access") if recent else None,
        pref("Maps", "2 min. ago", icon="location") if recent else None,
        pref("App location permissions",
             f"4 of {len(p.sys.installed)} apps have access to location" if s.location_enabled
             else "Location is off"),
        p.link("Location services", "location_services"),
        footer(f"Location may use sources like GPS, {WIFI}, mobile networks, and sensors to help "
               "estimate your device's location."),
    ]


@page("location_services", "Location services", "location",
      keywords=("Google Location Accuracy", "Google Location History",
                "Emergency Location Service", "Earthquake alerts"))
def location_services(p: SubSettings) -> list:
    s = p.state
    return [
        pref("Earthquake alerts", "On"),
        pref("Emergency Location Service", "On"),
        p.link("Google Location Accuracy", "location_accuracy",
               "On" if s.improve_location_accuracy else "Off"),
        pref("Google Location History", "Off"),
        pref("Google Location Sharing", "0 people"),
        p.link(f"{WIFI} scanning", "wifi_scanning", "On" if s.wifi_scanning else "Off"),
        p.link("Bluetooth scanning", "bluetooth_scanning", "On" if s.bluetooth_scanning else "Off"),
    ]


# As on Android 13, each scanning setting has its own page with a main switch.
@page("wifi_scanning", f"{WIFI} scanning", "location_services")
def wifi_scanning(p: SubSettings) -> list:
    return [
        p.main_switch(f"{WIFI} scanning", "wifi_scanning"),
        footer(f"Allow apps and services to scan for {WIFI} networks at any time, even when "
               f"{WIFI} is off. This can be used, for example, to improve location-based "
               "features and services."),
    ]


@page("bluetooth_scanning", "Bluetooth scanning", "location_services")
def bluetooth_scanning(p: SubSettings) -> list:
    return [
        p.main_switch("Bluetooth scanning", "bluetooth_scanning"),
        footer("Allow apps and services to scan for nearby devices at any time, even when "
               "Bluetooth is off. This can be used, for example, to improve location-based "
               "features and services."),
    ]


@page("location_accuracy", "Google Location Accuracy", "location_services",
      keywords=("Improve Location Accuracy",))
def location_accuracy(p: SubSettings) -> list:
    return [
        p.switch("Improve Location Accuracy", "improve_location_accuracy",
                 f"Uses {WIFI}, mobile networks, and sensors to get a more accurate location"),
        footer("Location Accuracy provides a more accurate location for apps and services. To do "
               "this, Google periodically processes information about device sensors and "
               "wireless signals from your device to crowdsource wireless signal locations."),
    ]


@page("safety", "Safety & emergency",
      keywords=("Medical information", "Emergency contacts", "Emergency SOS", "Crisis alerts",
                "Wireless emergency alerts"))
def safety(p: SubSettings) -> list:
    return [
        pref("Medical information", "Add your blood type, allergies, and other info"),
        pref("Emergency contacts", "Add contacts to share your info with in an emergency"),
        pref("Emergency SOS", "Off"),
        pref("Car crash detection", "Off"),
        pref("Crisis alerts", "On"),
        pref("Emergency Location Service", "On"),
        pref("Earthquake alerts", "On"),
        pref("Wireless emergency alerts"),
    ]


@page("accounts", "Passwords & accounts",
      keywords=("Passwords", "Autofill service", "Add account", "Automatically sync app data"))
def accounts(p: SubSettings) -> list:
    s = p.state
    return [
        category("Passwords"),
        pref("Google", "6 passwords", icon="lock"),
        pref("Autofill service", "Google"),
        category("Accounts for owner"),
        pref(s.account, "Google", icon="person"),
        pref("Add account", icon="add"),
        p.switch("Automatically sync app data", "auto_sync", "Let apps refresh data automatically"),
    ]


@page("google", "Google", keywords=("Manage your Google Account",))
def google(p: SubSettings) -> list:
    return [
        pref("Manage your Google Account", p.state.account, icon="person"),
        category("Services on this device"),
        *(pref(name) for name in (
            "Ads", "Autofill", "Backup", "Devices & sharing", "Find My Device",
            "Mobile data & messaging", "Parental controls", "Personalize using shared data",
            "Set up & restore", "Settings for Google apps")),
    ]
