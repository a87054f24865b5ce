"""Oracles of Settings tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


@oracle("settings.wifi_off")
def _wifi_off(phone: SimulatedDevice) -> bool:
    return not phone.app_state("settings").wifi_enabled


@oracle("settings.airplane_on")
def _airplane_on(phone: SimulatedDevice) -> bool:
    return phone.app_state("settings").airplane_mode
