"""Dynamics: the seeded variation that keeps agents and the matcher honest."""

from __future__ import annotations

from dataclasses import dataclass, replace

from mobile_gym.errors import SimulatorError


@dataclass(frozen=True)
class Dynamics:
    name: str  # registry key
    vary_content: bool  # apps shuffle lists, vary prices, recommendations and ad banners
    popup_rate: float  # chance that an opening screen shows one of its app's popups
    vary_clock: bool  # the device clock starts at a seeded time instead of 10:00
    #: chance that an app launched cold shows its loading screen first (for 1-2 steps,
    #: input swallowed): agents must cope with a screen that is not ready yet; 0 for never
    loading_rate: float = 0.0


DYNAMICS: dict[str, Dynamics] = {
    d.name: d
    for d in (
        Dynamics("none", vary_content=False, popup_rate=0.0, vary_clock=False),
        Dynamics("default", vary_content=True, popup_rate=0.35, vary_clock=True),
    )
}

#: How often an app started cold shows its loading screen where dynamics vary, once an
#: agent can wait (`with_loading`).
LOADING_RATE = 0.3


def with_loading(dynamics: Dynamics) -> Dynamics:
    """``dynamics`` with loading screens, for a phone driven with AndroidWorld's verbs
    (WAIT among them): at `LOADING_RATE` where the dynamics vary at all (``none``, the
    canonical phone, stays as it is). Kept apart from the presets so that a phone driven
    with LlamaTouch's actions, which have no WAIT, is exactly as it was."""
    if dynamics.loading_rate or not dynamics.vary_content:
        return dynamics
    return replace(dynamics, loading_rate=LOADING_RATE)


def get_dynamics(dynamics: str | Dynamics) -> Dynamics:
    if isinstance(dynamics, Dynamics):
        return dynamics
    try:
        return DYNAMICS[dynamics]
    except KeyError:
        raise SimulatorError(
            f"unknown dynamics {dynamics!r}; known: {', '.join(DYNAMICS)}") from None
