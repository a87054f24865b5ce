"""Oracles of Settings tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


@oracle("settings.wifi_off")
def _wifi_off(phone: SimulatedDevice) -> bool:
    """Wi-Fi off by its own setting: airplane mode also turns Wi-Fi off, but it cuts calls
    and mobile data too, more than the task asks (and than LlamaTouch's annotation of it,
    the Wi-Fi switch, accepts)."""
    settings = phone.app_state("settings")
    return not settings.wifi_enabled and not settings.airplane_mode


@oracle("settings.airplane_on")
def _airplane_on(phone: SimulatedDevice) -> bool:
    return phone.app_state("settings").airplane_mode


@oracle("settings.opened")
def _opened(phone: SimulatedDevice) -> bool:
    """Settings has been opened (its home list is where it always starts)."""
    return "main" in phone.app_state("settings").visited


@oracle("settings.network_page_opened")
def _network_page_opened(phone: SimulatedDevice) -> bool:
    return "network" in phone.app_state("settings").visited


@oracle("settings.android_version_opened")
def _android_version_opened(phone: SimulatedDevice) -> bool:
    """The Android version page (About phone > Android version) has been shown."""
    return "android_version" in phone.app_state("settings").visited


@oracle("settings.dark_theme_on")
def _dark_theme_on(phone: SimulatedDevice) -> bool:
    return phone.app_state("settings").dark_theme


@oracle("settings.bluetooth_scanning_on")
def _bluetooth_scanning_on(phone: SimulatedDevice) -> bool:
    return phone.app_state("settings").bluetooth_scanning


@oracle("settings.do_not_disturb_on")
def _do_not_disturb_on(phone: SimulatedDevice) -> bool:
    return phone.app_state("settings").do_not_disturb


@oracle("settings.improve_location_accuracy_off")
def _improve_location_accuracy_off(phone: SimulatedDevice) -> bool:
    return not phone.app_state("settings").improve_location_accuracy
