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
    #: apps show the long-press UIs of the real ones (launcher icon menus, the action
    #: sheets of Tasks rows, Trello cards, Discord messages); without, a long press on
    #: those views is a click, as on a view that takes no long click
    long_presses: bool = False


DYNAMICS: dict[str, Dynamics] = {
    d.name: d
    for d in (
        Dynamics("none", vary_content=False, popup_rate=0.0, vary_clock=False),
        Dynamics("default", vary_content=True, popup_rate=0.35, vary_clock=True),
    )
}

#: How often an app started cold shows its loading screen where dynamics vary, once an
#: agent can wait (`for_android_world`).
LOADING_RATE = 0.3


def for_android_world(dynamics: Dynamics) -> Dynamics:
    """``dynamics`` for a phone driven with AndroidWorld's verbs (``actions="all"``): the
    apps' long-press UIs, and loading screens to WAIT out at `LOADING_RATE` where the
    dynamics vary at all (``none``, the canonical phone, has none). Kept apart from the
    presets so that a phone driven with LlamaTouch's actions (no long press, no WAIT) is
    exactly as it was first released: its dumps, and the policies trained on them."""
    loading = dynamics.loading_rate or (LOADING_RATE if dynamics.vary_content else 0.0)
    return replace(dynamics, loading_rate=loading, long_presses=True)


def get_dynamics(dynamics: str | Dynamics) -> Dynamics:
    if isinstance(dynamics, Dynamics):
        return dynamics
    try:
        return DYNAMICS[dynamics]
    except KeyError:
        raise SimulatorError(
            f"unknown dynamics {dynamics!r}; known: {', '.join(DYNAMICS)}") from None
