"""Pages of the account menu that act on apps: "Manage apps & device" and Library."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.apps.playstore.model import ID, LISTED, plural, updated_on
from mobile_gym.simulator.apps.playstore.widgets import (
    Handler, Page, app_icon, chip_row, para, section_header, tab_row,
)
from mobile_gym.simulator.catalogue import CATALOGUE, CatalogueEntry
from mobile_gym.simulator.views import CheckBox, Column, Divider, Icon, Row, Scroll, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.playstore.store import PlayStore


class ManageApps(Page):
    """"Manage apps & device": an Overview tab, and a Manage tab listing the installed
    store apps with checkboxes; the trash action uninstalls the checked ones."""

    def __init__(self, app: PlayStore) -> None:
        super().__init__(app)
        self.tab = "Overview"
        self.filter = "Installed"
        self.selected: list[str] = []  # packages checked on the Manage tab

    def pick_tab(self, tab: str) -> None:
        self.tab = tab
        self.selected.clear()

    def pick_filter(self, name: str) -> None:
        self.filter = name
        self.selected.clear()

    def on_back(self) -> bool:
        """BACK first clears the selection, as the store's selection mode does."""
        if self.selected:
            self.selected.clear()
            return True
        return False

    def toggle(self, package: str) -> None:
        if package in self.selected:
            self.selected.remove(package)
        else:
            self.selected.append(package)

    def ask_uninstall(self) -> None:
        n = len(self.selected)
        message = "Do you want to uninstall this app?" if n == 1 else f"Do you want to uninstall these {n} apps?"
        self.sys.show(Dialog("Uninstall apps", message,
                             (("Cancel", None), ("Uninstall", self.uninstall_selected))), self.app)

    def uninstall_selected(self) -> None:
        for package in sorted(self.selected, key=lambda p: LISTED[p].title.lower()):
            self.app.uninstall(package)
        self.sys.toast(f"{plural(len(self.selected), 'app')} uninstalled")
        self.selected.clear()

    def installed(self) -> list[CatalogueEntry]:
        return sorted((e for e in CATALOGUE if self.app.installed(e.package)), key=lambda e: e.title.lower())

    def inputs(self) -> tuple:
        return self.tab, self.filter, tuple(self.selected), self.sys.packages()

    def build(self) -> View:
        actions = (Icon("trash", desc="Uninstall selected apps", on_click=self.ask_uninstall,
                        rid=ID + "uninstall_button"),) if self.selected else ()
        body = self.overview() if self.tab == "Overview" else self.manage()
        return Column(app_bar(self, "Manage apps & device", actions=actions),
                      tab_row(("Overview", "Manage"), self.tab, self.pick_tab),
                      Divider(), Scroll(*body, key=self.tab))

    def overview(self) -> list[View | None]:
        def card(title: str, text: str, on_click: Handler | None = None) -> View:
            return Column(Text(title, size=16, bold=True), Text(text, size=14, style="muted"),
                          style="card", radius=16, pad=(16, 12, 16, 12), on_click=on_click)

        n = len(self.installed())
        return [Column(
            card("All apps up to date", f"Last checked at {self.sys.clock_text()}"),
            card("Play Protect", "No harmful apps found", partial(self.app.open_info, "Play Protect")),
            card(plural(n, "app") + " installed", "See details", partial(self.pick_tab, "Manage")),
            card("Ratings & reviews", "Rate recent apps and share your experience"),
            pad=(16, 12, 16, 12), gap=12)]

    def manage(self) -> list[View | None]:
        views: list[View | None] = [chip_row(("Installed", "Updates available"), self.filter, self.pick_filter)]
        apps = self.installed() if self.filter == "Installed" else []
        if not apps:
            text = "No apps installed from Google Play" if self.filter == "Installed" else "No updates available"
            return views + [Text(text, size=16, style="muted", align="center", h=64)]
        views.append(para(f"Apps ({len(apps)})", style="muted"))
        views += [Row(
            app_icon(e, 40),
            Column(Text(e.title, size=15, rid=ID + "title"),
                   Text(f"{e.size} · Updated {updated_on(e)}", size=13, style="muted")),
            CheckBox(e.package in self.selected, partial(self.toggle, e.package), desc=e.title,
                     rid=ID + "checkbox"),
            h=72, pad=(16, 0, 8, 0), gap=12, on_click=partial(self.toggle, e.package),
        ) for e in apps]
        return views


class Library(Page):
    """Apps once installed from this account but not on the device, and the wishlist."""

    def inputs(self) -> tuple:
        s = self.app.state
        return tuple(s.installs), tuple(s.uninstalls), tuple(s.wishlist), self.sys.packages()

    def build(self) -> View:
        state = self.app.state
        gone = [p for p in dict.fromkeys(state.installs + state.uninstalls)
                if p in LISTED and not self.app.installed(p)]
        wished = [p for p in state.wishlist if p in LISTED]
        views: list[View | None] = [
            section_header("Not installed"),
            *([self.app_row(LISTED[p], button=True) for p in gone]
              or [para("All your apps are installed", style="muted")]),
            section_header("Wishlist"),
            *([self.app_row(LISTED[p], button=True) for p in wished]
              or [para("Your wishlist is empty", style="muted")]),
        ]
        return Column(app_bar(self, "Library"), Scroll(*views, key="list"))
