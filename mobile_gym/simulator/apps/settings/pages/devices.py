"""Connected devices: pairing, saved devices, connection preferences and Bluetooth."""

from __future__ import annotations

from functools import partial

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.settings.activities import SubSettings
from mobile_gym.simulator.apps.settings.registry import page
from mobile_gym.simulator.apps.settings.state import SettingsState
from mobile_gym.simulator.apps.settings.widgets import action_button, buttons, category, footer, pref


@page("connected_devices", "Connected devices",
      keywords=("Pair new device", "Saved devices", "Connection preferences"))
def connected_devices(p: SubSettings) -> list:
    s = p.state
    rows = [pair_link(p)]
    if s.paired_devices:
        rows.append(category("Saved devices"))
        rows += [p.link(name, "bt_device", "Saved", icon="bluetooth", arg=name, page_title=name)
                 for name in s.paired_devices]
    rows.append(p.link("Connection preferences", "connection_preferences",
                       "Bluetooth, NFC" if s.nfc_enabled else "Bluetooth", icon="bluetooth"))
    if s.bluetooth_enabled:
        rows.append(footer(f"Visible as \u201c{s.device_name}\u201d to other devices"))
    return rows


@page("connection_preferences", "Connection preferences", "connected_devices",
      keywords=("Cast", "Printing", "Files received via Bluetooth", "Nearby Share", "NFC",
                "Use NFC"))
def connection_preferences(p: SubSettings) -> list:
    s = p.state
    return [
        p.link("Bluetooth", "bluetooth", "On" if s.bluetooth_enabled else "Off", icon="bluetooth"),
        pref("Cast", "Not connected", icon="tabs"),
        pref("Printing", "1 print service on", icon="menu"),
        pref("Files received via Bluetooth", icon="download"),
        pref("Nearby Share", "Off", icon="share"),
        pref("Android Auto", "Use apps on your car screen", icon="location"),
        p.switch("NFC", "nfc_enabled", "Allow data exchange when the phone touches an NFC device",
                 icon="info"),
    ]


@page("bluetooth", "Bluetooth", "connection_preferences",
      keywords=("Use Bluetooth", "Device name"))
def bluetooth(p: SubSettings) -> list:
    s = p.state
    return [
        p.main_switch("Use Bluetooth", "bluetooth_enabled"),
        pref("Device name", s.device_name),
        pair_link(p) if s.bluetooth_enabled else None,
        footer("When Bluetooth is turned on, your device can communicate with other nearby "
               "Bluetooth devices."),
    ]


def pair_link(p: SubSettings) -> object:
    """"Pair new device": like on a Pixel, opening it turns Bluetooth on."""
    def open_pairing() -> None:
        p.state.set("bluetooth_enabled", True)
        p.open("pair_device")
    return pref("Pair new device", icon="add", on_click=open_pairing)


@page("pair_device", "Pair new device", "connected_devices", searchable=False)
def pair_device(p: SubSettings) -> list:
    s = p.state
    available = [n for n in s.nearby_devices if n not in s.paired_devices]
    return [
        pref("Device name", s.device_name),
        category("Available devices"),
        *(pref(name, icon="bluetooth", on_click=lambda n=name: ask_pair(p, n)) for name in available),
        footer("Phone's Bluetooth address: 3C:28:6D:4A:91:0F"),
    ]


def ask_pair(p: SubSettings, name: str) -> None:
    p.sys.show(Dialog(f"Pair with {name}?", "Bluetooth pairing code: 482913",
                      (("Cancel", None), ("Pair", partial(_pair, p, name)))))


def _pair(p: SubSettings, name: str) -> None:
    """A pairing confirmed: the device is saved and the pairing page closes."""
    if name not in p.state.paired_devices:
        p.state.paired_devices.append(name)
    p.finish()


@page("bt_device", "Device details", "connected_devices", searchable=False)
def bt_device(p: SubSettings) -> list:
    return [
        pref(p.arg, "Saved", icon="bluetooth"),
        buttons(action_button("Forget", partial(_forget, p.state, p), "button1")),
        footer("Phone's Bluetooth address: 3C:28:6D:4A:91:0F"),
    ]


def _forget(state: SettingsState, p: SubSettings) -> None:
    if p.arg in state.paired_devices:
        state.paired_devices.remove(p.arg)
    p.finish()
