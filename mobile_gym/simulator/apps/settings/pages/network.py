"""Network & internet: Internet (Wi‑Fi and its networks), SIMs and data usage,
hotspot & tethering, airplane mode and Data Saver."""

from __future__ import annotations

from functools import partial

from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.dialogs import InputDialog
from mobile_gym.simulator.apps.settings.pages.apps import usage_row
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.state import CARRIER, WIFI, SettingsState, WifiNetwork
from mobile_gym.simulator.apps.settings.widgets import (
    action_button, big_header, buttons, category, entity_header, footer, pref, size_text,
)

SIGNAL = ("No signal", "Weak", "Fair", "Good", "Excellent")
CYCLE = "Nov 1 \u2013 30"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def internet_summary(s: SettingsState) -> str:
    if s.connected_network:
        return s.connected_network
    if s.airplane_mode:
        return "Airplane mode is on"
    return CARRIER if s.mobile_data else "Not connected"


@page("network", "Network & internet",
      keywords=("Airplane mode", "Hotspot & tethering", "VPN", "Private DNS", "Calls & SMS"))
def network(p: SubSettings) -> list:
    s = p.state
    return [
        p.link("Internet", "internet", internet_summary(s), icon="wifi"),
        pref("Calls & SMS", CARRIER, icon="person"),
        p.link("SIMs", "sim", CARRIER, icon="menu", page_title=CARRIER),
        p.switch("Airplane mode", "airplane_mode", icon="airplane"),
        p.link("Hotspot & tethering", "hotspot", "Hotspot on" if s.hotspot_enabled else "Off",
               icon="wifi"),
        p.link("Data Saver", "data_saver", "On" if s.data_saver else "Off", icon="refresh"),
        pref("VPN", "None", icon="lock"),
        pref("Private DNS", "Automatic", icon="lock"),
        pref("Adaptive connectivity", icon="star"),
    ]


def _network_row(p: SubSettings, net: WifiNetwork) -> object:
    s = p.state
    if net.name == s.connected_network:
        summary = "Connected"
    elif net.name == s.wifi_auth_error:
        summary = "Check password and try again"
    else:
        summary = "Saved" if net.saved else ""
    return pref(net.name, summary, icon="wifi", on_click=lambda: tap_network(p, net.name))


def tap_network(p: SubSettings, name: str) -> None:
    """Connected: details. Saved or open: join. New secured one: ask for its password."""
    s = p.state
    net = s.network(name)
    if net is None:
        return
    if name == s.connected_network:
        p.open("wifi_details", arg=name, title=name)
    elif net.saved or not net.secured:
        s.connect(name)
    else:
        p.sys.show(InputDialog(name, "Password", partial(_join, s, name), positive="Connect",
                               password=True, min_len=8))
        p.sys.keyboard = True


def _join(state: SettingsState, name: str, password: str) -> None:
    state.connect(name, password)


@page("internet", "Internet", "network",
      keywords=(WIFI, "Add network", "Saved networks", "Network preferences"))
def internet(p: SubSettings) -> list:
    s = p.state
    mobile = ("Unavailable" if s.airplane_mode else "Mobile data off" if not s.mobile_data
              else "Connected / 5G" if not s.connected_network else "5G")
    rows = [
        p.link(CARRIER, "sim", mobile, icon="menu", page_title=CARRIER),
        p.switch(WIFI, "wifi_enabled"),
    ]
    if s.wifi_enabled:
        nets = sorted(s.wifi_networks, key=lambda n: n.name != s.connected_network)
        rows += [_network_row(p, n) for n in nets]
        rows.append(pref("Add network", icon="add"))
    else:
        rows.append(footer(f"To see available networks, turn {WIFI} on"))
    rows += [
        pref("Saved networks", _count(sum(n.saved for n in s.wifi_networks), "network")),
        pref("Network preferences", f"{WIFI} turns back on automatically"),
    ]
    return rows


@page("wifi_details", "Network details", "internet", searchable=False)
def wifi_details(p: SubSettings) -> list:
    s = p.state
    net = s.network(p.arg)
    if net is None:
        return [footer("This network is no longer available")]
    connected = net.name == s.connected_network
    return [
        entity_header(net.name, "wifi", (26, 115, 232),
                      "Connected" if connected else "Saved" if net.saved else "Not connected"),
        buttons(
            action_button("Forget", lambda: _leave(p, forget=True), "button1", enabled=net.saved),
            action_button("Disconnect", lambda: _leave(p, forget=False), "button2",
                          enabled=connected),
        ),
        pref("Signal strength", SIGNAL[net.signal]),
        pref("Frequency", "5 GHz" if net.signal > 2 else "2.4 GHz"),
        pref("Security", "WPA2-Personal" if net.secured else "None"),
        pref("Privacy", "Use randomized MAC"),
        category("Network details"),
        pref("IP address", "192.168.1.23" if connected else "Unavailable"),
    ]


def _leave(p: SubSettings, *, forget: bool) -> None:
    """Forget (unsave) or just disconnect the page's network, then close the page."""
    if forget:
        p.state.forget(p.arg)
    elif p.state.wifi_network == p.arg:
        p.state.wifi_network = ""
    p.finish()


@page("sim", "SIMs", "network",
      keywords=("Mobile network", "Mobile data", "Roaming", "App data usage", "Data usage",
                "Data warning & limit", "Preferred network type"))
def sim(p: SubSettings) -> list:
    s = p.state
    off = s.airplane_mode
    return [
        p.switch("Mobile data", "mobile_data", "Access data using mobile network", enabled=not off),
        p.switch("Roaming", "roaming", "Connect to data services when roaming", enabled=not off),
        p.link("App data usage", "app_data_usage", f"{size_text(s.data_used_mb)} used {CYCLE}"),
        pref("Data warning & limit", "2.00 GB data warning"),
        category("Calls & SMS"),
        pref("Calls preference", CARRIER),
        pref("SMS preference", CARRIER),
        category("Network"),
        pref("Preferred network type", "5G (recommended)"),
        pref(f"{WIFI} calling", "Off"),
        pref("Access Point Names"),
    ]


@page("app_data_usage", "App data usage", "sim", keywords=("Mobile data usage",))
def app_data_usage(p: SubSettings) -> list:
    s = p.state
    usage = sorted(s.data_usage_mb.items(), key=lambda kv: -kv[1])
    total = s.data_used_mb
    return [
        big_header(f"{size_text(total)} used", f"{CYCLE} · Mobile data usage",
                   rid="data_usage_summary", progress=min(1.0, total / 5000)),
        pref("Data warning & limit", "2.00 GB data warning"),
        category("App usage"),
        *(usage_row(p, app, size_text(mb)) for app, mb in usage if mb > 0),
    ]


@page("hotspot", "Hotspot & tethering", "network",
      keywords=(f"{WIFI} hotspot", "USB tethering", "Bluetooth tethering", "Ethernet tethering"))
def hotspot(p: SubSettings) -> list:
    s = p.state
    return [
        p.link(f"{WIFI} hotspot", "wifi_hotspot",
               "On" if s.hotspot_enabled else "Not sharing internet or content with other devices"),
        pref("USB tethering", "Share phone's internet connection via USB", enabled=False),
        p.switch("Bluetooth tethering", "bluetooth_tethering",
                 "Share phone's internet connection via Bluetooth"),
        pref("Ethernet tethering", "Share phone's internet connection via Ethernet", enabled=False),
        footer("Use hotspot and tethering to provide internet to other devices through your "
               "mobile data connection."),
    ]


@page("wifi_hotspot", f"{WIFI} hotspot", "hotspot",
      keywords=(f"Use {WIFI} hotspot", "Hotspot name", "Hotspot password"))
def wifi_hotspot(p: SubSettings) -> list:
    s = p.state
    return [
        p.main_switch(f"Use {WIFI} hotspot", "hotspot_enabled", enabled=not s.airplane_mode),
        pref("Hotspot name", s.hotspot_name),
        pref("Security", "WPA2-Personal"),
        pref("Hotspot password", "••••••••"),
        pref("Turn off hotspot automatically", "When no devices are connected"),
        pref("Extend compatibility", "Helps other devices find this hotspot"),
    ]


@page("data_saver", "Data Saver", "network", keywords=("Use Data Saver", "Unrestricted data"))
def data_saver(p: SubSettings) -> list:
    return [
        p.main_switch("Use Data Saver", "data_saver"),
        pref("Unrestricted data", "0 apps allowed to use unrestricted data when Data Saver is on"),
        footer("To help reduce data usage, Data Saver prevents some apps from sending or receiving "
               "data in the background."),
    ]

