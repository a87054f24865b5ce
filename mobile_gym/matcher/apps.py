"""App names to package names, for ``check_install<app>`` / ``check_uninstall<app>``.

LlamaTouch annotates apps by their display name ("Microsoft Excel", "Booking.com:
Hotels and more") while devices report package names. The bundled table covers the
names LlamaTouch's tasks use; `AppRegistry.add` (or a CSV of your own) extends it.
Names compare case-insensitively, and a Play Store title "Name: tagline" also matches
by the part before the colon.
"""

from __future__ import annotations

import csv
import re
from importlib import resources
from pathlib import Path
from typing import Iterable

from mobile_gym.errors import AnnotationError, FormatError

_PACKAGE = re.compile(r"[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+")


def _key(name: str) -> str:
    return " ".join(name.casefold().split())


class AppRegistry:
    """Display name (or package) -> set of package names."""

    def __init__(self, table: Iterable[tuple[str, str]] = ()):
        self._packages: dict[str, set[str]] = {}
        for name, package in table:
            self.add(name, package)

    @classmethod
    def bundled(cls) -> AppRegistry:
        text = resources.files("mobile_gym.matcher").joinpath("app_packages.csv").read_text("utf-8")
        return cls((row["name"], row["package"]) for row in csv.DictReader(text.splitlines()))

    @classmethod
    def from_csv(cls, path: str | Path, base: AppRegistry | None = None) -> AppRegistry:
        """A registry from a ``name,package`` CSV, on top of `base` if given."""
        registry = cls(base.items() if base else ())
        try:
            with open(path, newline="", encoding="utf-8") as f:
                for line, row in enumerate(csv.DictReader(f), start=2):
                    if not row.get("name") or not row.get("package"):
                        raise FormatError(path, f"line {line}: needs 'name' and 'package'")
                    registry.add(row["name"], row["package"])
        except OSError as exc:
            raise FormatError(path, f"cannot read app table ({exc.strerror or exc})") from exc
        return registry

    def add(self, name: str, package: str) -> None:
        self._packages.setdefault(_key(name), set()).add(package.strip())

    def items(self) -> list[tuple[str, str]]:
        return [(n, p) for n, ps in self._packages.items() for p in sorted(ps)]

    def packages(self, app: str) -> frozenset[str]:
        """Packages an annotated app name stands for; a package name stands for itself."""
        app = app.strip()
        found = self._packages.get(_key(app))
        if found is None and ":" in app:
            found = self._packages.get(_key(app.split(":", 1)[0]))
        if found is not None:
            return frozenset(found)
        if _PACKAGE.fullmatch(app):
            return frozenset({app})
        raise AnnotationError(
            None,
            f"unknown app {app!r}: give its package name, or add it to the app table "
            "(AppRegistry.add or a name,package CSV)",
        )
