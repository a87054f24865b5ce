"""Which installed package an OPEN_APP means, on a phone or on the simulated one.

An agent names an app as the launcher shows it ("Gmail", "Play Store") or as LlamaTouch's
tasks do ("Booking.com: Hotels and more"); a phone knows only its packages (``pm list
packages``). The names come from the tables this project already has: the simulator's
apps and Play Store catalogue (launcher labels and store titles) and LlamaTouch's
``app_packages.csv``. Names compare without case or spaces ("you tube" is YouTube); a
package name stands for itself. A name that matches no installed package is an
`AppNotInstalledError` naming the installed apps nearest to it, so an agent (or its
author) sees what it could have asked for, and the phone is left alone.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Iterable

from mobile_gym.errors import AppNotInstalledError

#: How many near names an `AppNotInstalledError` offers.
NEAREST = 3


def name_key(name: str) -> str:
    """A name as names compare: without case or whitespace."""
    return "".join(name.casefold().split())


@lru_cache(maxsize=1)
def known_names() -> dict[str, tuple[str, frozenset[str]]]:
    """Name key -> (the name as written, the packages it stands for). Launcher labels
    come first, so a name shown in a message is the one a launcher shows; made once
    (the tables are the package's own)."""
    from mobile_gym.matcher.apps import AppRegistry
    from mobile_gym.simulator.apps import MODELLED
    from mobile_gym.simulator.catalogue import CATALOGUE, PREINSTALLED

    pairs: list[tuple[str, str]] = [(cls.label, cls.package) for cls in MODELLED]
    pairs += [(p.label, p.package) for p in PREINSTALLED]
    pairs += [(e.label, e.package) for e in CATALOGUE]
    pairs += [(e.title, e.package) for e in CATALOGUE]
    pairs += [(e.title.split(":", 1)[0], e.package) for e in CATALOGUE if ":" in e.title]
    pairs += [(cls.key, cls.package) for cls in MODELLED]
    pairs += AppRegistry.bundled().items()
    table: dict[str, tuple[str, set[str]]] = {}
    for name, package in pairs:
        key = name_key(name)
        if key:
            table.setdefault(key, (name, set()))[1].add(package)
    return {key: (name, frozenset(packages)) for key, (name, packages) in table.items()}


def launcher_label(package: str) -> str | None:
    """The name the launcher shows under ``package``'s icon, if a table has it (the first
    names `known_names` holds are launcher labels)."""
    for name, packages in known_names().values():
        if package in packages:
            return name
    return None


def resolve_app(name: str, installed: Iterable[str], where: str = "the phone") -> str:
    """The installed package ``name`` means: a package name as is, else a known app name
    (case and spaces aside; a store title also by its part before a colon) whose package
    is installed (the first in sorted order if several are). `AppNotInstalledError`
    otherwise, naming the nearest installed apps (``where`` names the phone)."""
    packages = frozenset(installed)
    text = name.strip()
    if text in packages:
        return text
    by_case = {p.casefold(): p for p in packages}
    if text.casefold() in by_case:
        return by_case[text.casefold()]
    names = known_names()
    entry = names.get(name_key(text))
    if entry is None and ":" in text:
        entry = names.get(name_key(text.split(":", 1)[0]))
    if entry is not None:
        found = sorted(entry[1] & packages)
        if found:
            return found[0]
        shown = launcher_label(min(entry[1])) or entry[0]
        what = f"{shown} ({', '.join(sorted(entry[1]))}) is not installed"
    else:
        what = "no app of that name is installed"
    raise AppNotInstalledError(f"cannot open app {name!r}: {what} on {where}; "
                               f"the nearest installed: {', '.join(nearest(text, packages)) or 'none'}")


def nearest(name: str, installed: Iterable[str], n: int = NEAREST) -> list[str]:
    """The ``n`` installed apps whose names come nearest to ``name`` (difflib's ratio),
    as ``Label (package)``; an installed package no table names is offered by its name."""
    labels: dict[str, tuple[str, str]] = {}  # candidate key -> (how it is shown, its package)
    packages = set(installed)
    named: set[str] = set()
    for key, (label, known) in known_names().items():
        for package in sorted(known & packages):
            labels.setdefault(key, (f"{launcher_label(package) or label} ({package})", package))
            named.add(package)
    for package in packages - named:
        labels.setdefault(name_key(package), (package, package))
    close = difflib.get_close_matches(name_key(name), list(labels), n=len(labels), cutoff=0.0)
    shown: list[str] = []
    seen: set[str] = set()
    for key in close:  # best first; each app once (an app has several names)
        label, package = labels[key]
        if package not in seen:
            seen.add(package)
            shown.append(label)
        if len(shown) == n:
            break
    return shown


__all__ = ["known_names", "launcher_label", "name_key", "nearest", "resolve_app"]
