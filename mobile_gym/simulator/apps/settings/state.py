"""What the Settings app remembers: every toggle and value a task may set up or check.

`SettingsState`'s field names are the oracle API (``phone.app_state("settings").wifi_enabled``).
The few settings that change others (airplane mode, Wi‑Fi, connecting to a network) go
through its methods, so every screen that flips them agrees.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any, Mapping

from mobile_gym.errors import SimulatorError

WIFI = "Wi\u2011Fi"  # Android writes Wi‑Fi with a non-breaking hyphen (U+2011)
CARRIER = "T-Mobile"

LOCK_SCREEN = (
    ("all", "Show conversations, default, and silent"),
    ("no_silent", "Hide silent conversations and notifications"),
    ("none", "Don't show any notifications"),
)
TIMEOUTS = ((15, "15 seconds"), (30, "30 seconds"), (60, "1 minute"), (120, "2 minutes"),
            (300, "5 minutes"), (600, "10 minutes"), (1800, "30 minutes"))
FONT_SIZES = ("Small", "Default", "Large", "Largest")
LANGUAGES = ("English (United States)", "English (United Kingdom)", "Deutsch (Deutschland)",
             "Español (España)", "Español (Estados Unidos)", "Français (France)",
             "Italiano (Italia)", "Nederlands (Nederland)", "Polski (Polska)",
             "Português (Brasil)", "Svenska (Sverige)", "Türkçe (Türkiye)")
LEVELS = ("brightness", "media_volume", "call_volume", "ring_volume", "alarm_volume",
          "battery_level")  # percentages 0-100


@dataclass
class WifiNetwork:
    """A network in range. ``password`` is the one that works ("" accepts any of 8+
    characters); ``signal`` is 0 (weak) to 4 (full)."""

    name: str
    secured: bool = True
    saved: bool = False
    signal: int = 3
    password: str = ""


def _networks() -> list[WifiNetwork]:
    return [
        WifiNetwork("AndroidWifi", secured=False, saved=True, signal=4),
        WifiNetwork("HomeNet-5G", signal=3),
        WifiNetwork("NETGEAR42", signal=2),
        WifiNetwork("xfinitywifi", secured=False, signal=2),
        WifiNetwork("Linksys_2.4G", signal=1),
    ]


def _data_usage() -> dict[str, float]:
    return {"YouTube": 1240.0, "Chrome": 612.0, "Google Play Store": 318.0, "Maps": 146.0,
            "Gmail": 58.0, "Photos": 36.0}


def _battery_usage() -> dict[str, int]:
    return {"YouTube": 18, "Chrome": 12, "Google Play services": 7, "Android System": 6,
            "Settings": 4, "Maps": 3}


def _storage() -> dict[str, float]:
    return {"Apps": 14.2, "Images": 3.6, "Videos": 5.1, "Audio": 0.8,
            "Documents & other": 1.9, "Trash": 0.1, "System": 12.9}


@dataclass
class SettingsState:
    # Network & internet
    wifi_enabled: bool = True
    wifi_network: str = "AndroidWifi"  # network Wi‑Fi connects to ("" none); see connected_network
    wifi_networks: list[WifiNetwork] = field(default_factory=_networks)  # in range, list order
    wifi_auth_error: str = ""  # network whose last password was wrong
    airplane_mode: bool = False  # on: Wi‑Fi, Bluetooth and hotspot off; off: radios restored
    radios_before_airplane: list[str] = field(default_factory=list)  # "wifi"/"bluetooth" to restore
    mobile_data: bool = True
    roaming: bool = False
    data_saver: bool = False
    hotspot_enabled: bool = False
    hotspot_name: str = "Pixel_6049"
    bluetooth_tethering: bool = False
    data_usage_mb: dict[str, float] = field(default_factory=_data_usage)  # app -> MB this cycle
    # Connected devices
    bluetooth_enabled: bool = False
    paired_devices: list[str] = field(default_factory=list)
    nearby_devices: list[str] = field(default_factory=lambda: [
        "Pixel Buds Pro", "JBL Flip 5", "Galaxy Watch4 (5C1A)", "Bose QC35 II"])
    nfc_enabled: bool = True
    # Apps and notifications
    blocked_notifications: list[str] = field(default_factory=list)  # packages
    force_stopped: list[str] = field(default_factory=list)  # packages, in order
    notification_dots: bool = True
    lock_screen_notifications: str = "all"  # "all" / "no_silent" / "none"
    notification_history: bool = False
    notification_snoozing: bool = False
    # Battery and storage
    battery_level: int = 82
    battery_saver: bool = False
    battery_percentage: bool = False  # show the percentage in the status bar
    adaptive_battery: bool = True
    battery_usage: dict[str, int] = field(default_factory=_battery_usage)  # app -> % since charge
    storage_gb: dict[str, float] = field(default_factory=_storage)  # category -> GB used
    storage_total_gb: float = 128.0
    # Sound and display
    do_not_disturb: bool = False
    media_volume: int = 60
    call_volume: int = 70
    ring_volume: int = 80
    alarm_volume: int = 80
    vibrate_for_calls: bool = True
    dark_theme: bool = False
    brightness: int = 60
    adaptive_brightness: bool = True
    screen_timeout: int = 30  # seconds, one of TIMEOUTS
    font_size: str = "Default"  # one of FONT_SIZES
    auto_rotate: bool = False
    night_light: bool = False
    themed_icons: bool = False
    # Accessibility
    talkback: bool = False
    select_to_speak: bool = False
    color_inversion: bool = False
    remove_animations: bool = False
    bold_text: bool = False
    high_contrast_text: bool = False
    # Security, privacy, location
    show_passwords: bool = True
    camera_access: bool = True
    microphone_access: bool = True
    location_enabled: bool = True
    improve_location_accuracy: bool = True
    wifi_scanning: bool = True
    bluetooth_scanning: bool = False
    # Accounts and system
    account: str = "pixel.user@gmail.com"
    auto_sync: bool = True
    backup_enabled: bool = True
    quick_open_camera: bool = True
    auto_time: bool = True
    auto_time_zone: bool = True
    use_24_hour_format: bool = False
    languages: list[str] = field(default_factory=lambda: ["English (United States)"])
    device_name: str = "Pixel 6"
    developer_options: bool = False
    usb_debugging: bool = False
    stay_awake: bool = False
    # Navigation
    visited: list[str] = field(default_factory=list)  # page keys opened, in order
    recent_searches: list[str] = field(default_factory=list)  # newest first

    # ------------------------------------------------------------------ derived
    def shown(self) -> bytes:
        """Every field but the log of pages opened, as one value (the pages' `inputs`):
        equal for states that look alike."""
        return pickle.dumps({k: v for k, v in vars(self).items() if k != "visited"}, pickle.HIGHEST_PROTOCOL)

    @property
    def connected_network(self) -> str:
        """The network the phone is on right now ("" if none)."""
        return self.wifi_network if self.wifi_enabled else ""

    @property
    def data_used_mb(self) -> float:
        return sum(self.data_usage_mb.values())

    def network(self, name: str) -> WifiNetwork | None:
        return next((n for n in self.wifi_networks if n.name == name), None)

    # ------------------------------------------------------------------ changes
    def set(self, name: str, value: Any) -> None:
        """Change a setting with its side effects (what the toggles call)."""
        if name == "airplane_mode":
            self._airplane(bool(value))
        elif name == "wifi_enabled":
            self.wifi_enabled = bool(value)
            if value and not self.network(self.wifi_network):
                best = sorted((n for n in self.wifi_networks if n.saved), key=lambda n: -n.signal)
                self.wifi_network = best[0].name if best else ""
        else:
            setattr(self, name, value)

    def _airplane(self, on: bool) -> None:
        """Android's rule: airplane mode turns Wi‑Fi, Bluetooth and the hotspot off and
        turns back on, when it ends, the radios that were on before."""
        if on == self.airplane_mode:
            return
        self.airplane_mode = on
        if on:
            self.radios_before_airplane = [name for name, enabled in (
                ("wifi", self.wifi_enabled), ("bluetooth", self.bluetooth_enabled)) if enabled]
            self.wifi_enabled = self.bluetooth_enabled = self.hotspot_enabled = False
        else:
            if "wifi" in self.radios_before_airplane:
                self.set("wifi_enabled", True)
            if "bluetooth" in self.radios_before_airplane:
                self.bluetooth_enabled = True
            self.radios_before_airplane = []

    def connect(self, name: str, password: str | None = None) -> bool:
        """Join a network (with a password for a new secured one); False if refused."""
        net = self.network(name)
        if net is None:
            return False
        if net.secured and not net.saved:
            if password is None or len(password) < 8 or (net.password and password != net.password):
                self.wifi_auth_error = name
                return False
        net.saved = True  # Android remembers every network it joined
        self.wifi_auth_error = ""
        self.wifi_network = name
        return True

    def forget(self, name: str) -> None:
        net = self.network(name)
        if net is not None:
            net.saved = False
        if self.wifi_network == name:
            self.wifi_network = ""

    def reset_network(self) -> None:
        """"Reset Wi‑Fi, mobile & Bluetooth": radios back to a fresh phone's defaults."""
        fresh = SettingsState()
        for name in ("wifi_enabled", "airplane_mode", "radios_before_airplane", "mobile_data",
                     "roaming", "data_saver", "hotspot_enabled", "bluetooth_tethering",
                     "bluetooth_enabled", "paired_devices"):
            setattr(self, name, getattr(fresh, name))
        for net in self.wifi_networks:
            net.saved = False
        self.wifi_network = self.wifi_auth_error = ""


def validate(values: Mapping[str, Any]) -> None:
    """Setup checks the generic type check cannot make (ranges, choices, nested items)."""
    def fail(name: str, why: str) -> None:
        raise SimulatorError(f"app 'settings' field {name!r}: {why}, got {values[name]!r}")

    for name in LEVELS:
        if name in values and not (isinstance(values[name], int) and not isinstance(values[name], bool)
                                   and 0 <= values[name] <= 100):
            fail(name, "expects an int percentage 0-100")
    choices = {"lock_screen_notifications": [k for k, _ in LOCK_SCREEN],
               "screen_timeout": [s for s, _ in TIMEOUTS], "font_size": list(FONT_SIZES)}
    for name, allowed in choices.items():
        if name in values and (isinstance(values[name], bool) or values[name] not in allowed):
            fail(name, f"expects one of {allowed}")
    if "languages" in values and (not values["languages"] or not all(
            isinstance(x, str) for x in values["languages"])):
        fail("languages", "expects a non-empty list of language names")
    for name in ("paired_devices", "nearby_devices", "blocked_notifications", "force_stopped",
                 "visited", "recent_searches", "radios_before_airplane"):
        if name in values and not (isinstance(values[name], (list, tuple))
                                   and all(isinstance(x, str) for x in values[name])):
            fail(name, "expects a list of strings")
    for name in ("data_usage_mb", "storage_gb", "battery_usage"):
        if name in values and not (isinstance(values[name], Mapping) and all(
                isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
                and v >= 0 for k, v in values[name].items())):
            fail(name, "expects a mapping of names to non-negative numbers")
    if "wifi_networks" in values:
        nets = values["wifi_networks"]
        if not isinstance(nets, (list, tuple)) or not nets:
            fail("wifi_networks", "expects a non-empty list of networks")
        for net in nets:
            if isinstance(net, WifiNetwork):
                continue
            if not isinstance(net, Mapping) or not isinstance(net.get("name"), str) or set(net) - {
                    "name", "secured", "saved", "signal", "password"}:
                fail("wifi_networks", "expects items {name, secured, saved, signal, password}")
            if not 0 <= net.get("signal", 3) <= 4:
                fail("wifi_networks", "expects signal 0-4")


def check(state: SettingsState) -> None:
    """Cross-field checks after setup."""
    if state.wifi_network and state.network(state.wifi_network) is None:
        raise SimulatorError(f"app 'settings' field 'wifi_network': {state.wifi_network!r} is "
                             f"not in wifi_networks ({[n.name for n in state.wifi_networks]})")
