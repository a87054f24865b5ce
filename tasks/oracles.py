"""Task oracles: predicates on the simulator's app state that say whether a task is
done. They are ground truth for testing the matcher, never the default reward.

Task files name them (``oracle: settings.wifi_off``); each takes the device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice

Oracle = Callable[["SimulatedDevice"], bool]
ORACLES: dict[str, Oracle] = {}


def oracle(name: str) -> Callable[[Oracle], Oracle]:
    def register(fn: Oracle) -> Oracle:
        if name in ORACLES:
            raise ValueError(f"oracle {name!r} is defined twice")
        ORACLES[name] = fn
        return fn
    return register


@oracle("settings.wifi_off")
def _wifi_off(phone: SimulatedDevice) -> bool:
    return not phone.app_state("settings").wifi_enabled


@oracle("settings.airplane_on")
def _airplane_on(phone: SimulatedDevice) -> bool:
    return phone.app_state("settings").airplane_mode


@oracle("bestbuy.cart_empty")
def _bestbuy_cart_empty(phone: SimulatedDevice) -> bool:
    return not phone.app_state("chrome").site("bestbuy").cart
