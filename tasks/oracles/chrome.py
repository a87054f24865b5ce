"""Oracles of Chrome and web-shopping tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice


@oracle("bestbuy.cart_empty")
def _bestbuy_cart_empty(phone: SimulatedDevice) -> bool:
    return not phone.app_state("chrome").site("bestbuy").cart
