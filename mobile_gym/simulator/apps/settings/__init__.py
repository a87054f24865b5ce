"""Android Settings as on a Pixel with Android 13.

The home list (``.Settings``) opens sub-pages (all ``.SubSettings``, like on a real
Pixel) registered in `pages`; "Search settings" filters their titles and preferences.
Everything a task can set up or check is in `SettingsState` (see ``state.py``).

Rules worth knowing when writing tasks: texts say "Wi‑Fi" with Android's non-breaking
hyphen (U+2011, `state.WIFI`); airplane mode turns Wi‑Fi, Bluetooth and the hotspot off
and turns the radios that were on back on when it ends; Wi‑Fi is "connected" when
``wifi_enabled`` and ``wifi_network`` (``connected_network``).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.settings import pages  # noqa: F401  (registers the pages)
from mobile_gym.simulator.apps.settings.activities import Main, SearchActivity, SubSettings
from mobile_gym.simulator.apps.settings.state import (
    WIFI, SettingsState, WifiNetwork, check, validate,
)

__all__ = ["Settings", "SettingsState", "WifiNetwork", "WIFI", "Main", "SubSettings",
           "SearchActivity"]

WIFI_BARS = ("No wifi.", "Wifi one bar.", "Wifi two bars.", "Wifi three bars.", "Wifi signal full.")
NEARBY_NETWORKS = ("HomeNet-5G", "NETGEAR42", "xfinitywifi", "Linksys_2.4G", "TP-Link_7F3A",
                   "ATT-WIFI-2231", "CoffeeShop Guest", "DIRECT-4B-HP OfficeJet", "Verizon_9QX7K4")
NEARBY_DEVICES = ("Pixel Buds Pro", "JBL Flip 5", "Galaxy Watch4 (5C1A)", "Bose QC35 II",
                  "Mi Smart Band 6", "LE-Bose Frames", "Sony WH-1000XM4", "Fitbit Charge 5")


class Settings(App):
    package = "com.android.settings"
    label = "Settings"
    key = "settings"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "settings"
    color = (84, 110, 122)
    State = SettingsState

    def main(self) -> Activity:
        self.state.visited.append("main")
        return Main(self)

    def open(self, key: str, arg: str = "", title: str = "") -> None:
        """Open sub-page ``key`` (recorded in ``state.visited``)."""
        self.state.visited.append(key)
        self.sys.start(SubSettings(self, key, arg, title))

    def show_app_info(self, package: str) -> None:
        """Another app asks for the App info page of ``package`` (the launcher's icon
        menu): Settings comes to the front with that page on top."""
        self.sys.launch(self.package)
        self.open("app_info", arg=package)

    # dynamics ----------------------------------------------------------------------
    def vary(self, rng: np.random.Generator) -> None:
        """Seeded battery level, data and battery usage, storage, nearby networks and
        Bluetooth devices. The phone stays on AndroidWifi."""
        s = self.state
        s.battery_level = int(rng.integers(15, 100))
        s.data_usage_mb = {k: float(round(v * rng.uniform(0.3, 1.9))) for k, v in s.data_usage_mb.items()}
        shares = rng.permutation(list(s.battery_usage.values()))
        s.battery_usage = {k: int(v) + int(rng.integers(0, 6)) for k, v in zip(s.battery_usage, shares)}
        s.storage_gb = {k: round(v * rng.uniform(0.6, 1.6), 1) for k, v in s.storage_gb.items()}
        names = rng.choice(NEARBY_NETWORKS, size=int(rng.integers(3, 7)), replace=False)
        others = [WifiNetwork(str(n), secured=bool(rng.random() < 0.75), signal=int(rng.integers(0, 5)))
                  for n in names]
        s.wifi_networks = s.wifi_networks[:1] + sorted(others, key=lambda n: -n.signal)
        s.nearby_devices = [str(d) for d in rng.choice(NEARBY_DEVICES, size=int(rng.integers(2, 6)),
                                                       replace=False)]

    def popups(self, activity: Activity) -> list[Dialog]:
        """None: the real Settings app shows no rating prompts or promos."""
        return []

    # system UI and packages ---------------------------------------------------------
    def system_ui(self) -> dict:
        """Dark theme for the whole phone, and the status-bar icons of the radios and DND."""
        s = self.state
        icons = []
        if s.do_not_disturb:
            icons.append(("remove", "Do Not Disturb on."))
        if s.bluetooth_enabled:
            icons.append(("bluetooth", "Bluetooth on."))
        if s.airplane_mode:
            icons.append(("airplane", "Airplane mode."))
        net = s.network(s.connected_network)
        if net is not None:
            icons.append(("wifi", WIFI_BARS[net.signal]))
        return {"dark": s.dark_theme, "icons": icons}

    def on_package_changed(self, package: str, installed: bool) -> None:
        """An uninstalled app's App info and notification pages close."""
        if not installed:
            self.stack = [a for a in self.stack if getattr(a, "arg", "") != package]

    def configure(self, values: Mapping[str, Any]) -> None:
        validate(values)
        super().configure(values)
        check(self.state)
