"""Dynamics: the seeded variation that keeps agents and the matcher honest."""

from __future__ import annotations

from dataclasses import dataclass

from mobile_gym.errors import SimulatorError


@dataclass(frozen=True)
class Dynamics:
    name: str  # registry key
    vary_content: bool  # apps shuffle lists, vary prices, recommendations and ad banners
    popup_rate: float  # chance that an opening screen shows one of its app's popups
    vary_clock: bool  # the device clock starts at a seeded time instead of 10:00


DYNAMICS: dict[str, Dynamics] = {
    d.name: d
    for d in (
        Dynamics("none", vary_content=False, popup_rate=0.0, vary_clock=False),
        Dynamics("default", vary_content=True, popup_rate=0.35, vary_clock=True),
    )
}


def get_dynamics(dynamics: str | Dynamics) -> Dynamics:
    if isinstance(dynamics, Dynamics):
        return dynamics
    try:
        return DYNAMICS[dynamics]
    except KeyError:
        raise SimulatorError(
            f"unknown dynamics {dynamics!r}; known: {', '.join(DYNAMICS)}") from None
