"""Every app the simulator knows, by package: the modelled apps, the Google apps a Pixel
ships with (placeholders) and the Play Store catalogue (login apps)."""

from __future__ import annotations

from functools import partial

from mobile_gym.errors import AnnotationError, SimulatorError
from mobile_gym.matcher.apps import AppRegistry
from mobile_gym.simulator.catalogue import CATALOGUE, PREINSTALLED
from mobile_gym.simulator.apps.calendar import GoogleCalendar
from mobile_gym.simulator.apps.chrome import Chrome
from mobile_gym.simulator.apps.clock import Clock
from mobile_gym.simulator.apps.discord import Discord
from mobile_gym.simulator.apps.evernote import Evernote
from mobile_gym.simulator.apps.generic import LoginApp, PlaceholderApp
from mobile_gym.simulator.apps.gmail import Gmail
from mobile_gym.simulator.apps.googletasks import GoogleTasks
from mobile_gym.simulator.apps.launcher import Launcher
from mobile_gym.simulator.apps.pinterest import Pinterest
from mobile_gym.simulator.apps.playstore import PlayStore
from mobile_gym.simulator.apps.reddit import Reddit
from mobile_gym.simulator.apps.settings import Settings
from mobile_gym.simulator.apps.trello import Trello
from mobile_gym.simulator.apps.youtube import YouTube

MODELLED = (Launcher, Settings, Clock, PlayStore, Chrome, GoogleTasks, Gmail,
            Pinterest, Trello, Evernote, Reddit, Discord, YouTube, GoogleCalendar)

# A modelled app wins over its store listing's login app or a stock placeholder.
FACTORIES = {
    **{e.package: partial(LoginApp, entry=e) for e in CATALOGUE},
    **{p.package: partial(PlaceholderApp, entry=p) for p in PREINSTALLED},
    **{cls.package: cls for cls in MODELLED},
}

# What a fresh device has: the modelled apps and the stock Google apps.
DEFAULT_INSTALLED = frozenset(cls.package for cls in MODELLED) | {p.package for p in PREINSTALLED}

_NAMES = {
    **{cls.key: cls.package for cls in MODELLED},
    **{cls.label.lower(): cls.package for cls in MODELLED},
    **{p.label.lower(): p.package for p in PREINSTALLED},
    **{e.label.lower(): e.package for e in CATALOGUE},
    **{e.title.lower(): e.package for e in CATALOGUE},
}


def resolve_package(name: str) -> str:
    """Package of an app named by package, setup key ("settings") or label."""
    if name in FACTORIES:
        return name
    if name.lower() in _NAMES:
        return _NAMES[name.lower()]
    # the names LlamaTouch's tasks use ("Microsoft Excel", "Firefox Browser")
    try:
        known = sorted(p for p in AppRegistry.bundled().packages(name) if p in FACTORIES)
    except AnnotationError:
        known = []
    if known:
        return known[0]
    raise SimulatorError(f"unknown app {name!r}; use a package name or one of: "
                         f"{', '.join(sorted(cls.key for cls in MODELLED))}")
