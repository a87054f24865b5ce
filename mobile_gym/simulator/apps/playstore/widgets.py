"""Views the store's pages share: app icons, list rows and cards, the detail header,
tabs, chips, settings rows, radio buttons, and `Page`, the base of every page."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Activity
from mobile_gym.simulator.catalogue import CatalogueEntry
from mobile_gym.simulator.apps.playstore.model import ID, MAIN, REMOVABLE
from mobile_gym.simulator.views import Button, Column, Icon, Row, Spacer, Stack, Text, View

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.playstore.store import PlayStore

GREEN = (1, 135, 95)  # the store's install-button green
PALE_GREEN = (196, 232, 214)  # selected chips and navigation items
AVATAR = (121, 85, 72)
RADIO = "android.widget.RadioButton"
Handler = Callable[[], None]


def app_icon(e: CatalogueEntry, size: float = 48, **kw) -> View:
    return Icon("app", desc=e.label, h=size, w=size, style="appicon", bg=e.color, **kw)


def stars(e: CatalogueEntry) -> str:
    return f"{e.rating} ★"


def badges(e: CatalogueEntry) -> str:
    return " · ".join(t for t, on in (("Contains ads", e.ads), ("In-app purchases", e.purchases)) if on)


def section_header(title: str, on_click: Handler | None = None) -> View:
    """A bold section title; with a handler, an arrow opens the whole list."""
    return Row(
        Text(title, size=18, bold=True, h=48),
        Icon("forward", desc=f"More results for {title}", w=40) if on_click else None,
        h=48, pad=(16, 0, 8, 0), on_click=on_click,
    )


def tab_row(labels: tuple[str, ...], current: str, pick: Callable[[str], None]) -> View:
    return Row(*(Text(t, size=14, align="center", style="tab", selected=t == current, h=48,
                      bold=t == current, on_click=partial(pick, t)) for t in labels),
               h=48, pad=(8, 0, 8, 0), rid=ID + "tab_layout")


def chip(label: str, selected: bool, on_click: Handler | None) -> View:
    return Text(label, size=14, align="center", style="chip", radius=8, h=36,
                w=len(label) * 8 + 32, selected=selected, on_click=on_click,
                bg=PALE_GREEN if selected else None)


def chip_row(labels: tuple[str, ...], current: str, pick: Callable[[str], None]) -> View:
    return Row(*(chip(t, t == current, partial(pick, t)) for t in labels), h=52, gap=8,
               pad=(16, 8, 16, 8))


def para(text: str, *, size: float = 14, lines: int = 1, **kw) -> View:
    """A paragraph indented like the list rows around it."""
    return Column(Text(text, size=size, lines=lines, **kw), pad=(16, 0, 16, 0))


def info_row(title: str, subtitle: str = "", on_click: Handler | None = None,
             indent: float = 16) -> View:
    """A settings-style row: title and summary (wrapping to two lines when long)."""
    return Column(
        Text(title, size=16, rid="android:id/title"),
        Text(subtitle, size=14, style="muted", rid="android:id/summary",
             lines=2 if len(subtitle) > 46 else 1) if subtitle else None,
        pad=(indent, 12, 16, 12), on_click=on_click,
    )


def radio(label: str, selected: bool, on_click: Handler) -> View:
    """A RadioButton row: ring (and dot when chosen) and the option's text."""
    mark = Stack(Icon("circle", w=48, fg=GREEN if selected else None),
                 Icon("dot", w=48, fg=GREEN) if selected else None, w=48, h=48)
    return Row(mark, Text(label, size=16), cls=RADIO, checkable=True, checked=selected, h=48,
               on_click=on_click)


class Page(Activity):
    """A page of the store's single activity, with the app rows and buttons pages share."""

    name = MAIN
    app: PlayStore

    def details(self, package: str) -> None:
        self.app.show_details(package)

    def open_search(self) -> None:
        self.app.open_search()

    def install_button(self, e: CatalogueEntry) -> View:
        """The small button at the end of a list row: Install, or Open once installed."""
        app, pkg = self.app, e.package
        if app.installed(pkg):
            return Button("Open", lambda: app.launch(pkg), style="outlined", w=84, h=36, fg=GREEN,
                          rid=ID + "open_button")
        return Button("Install", lambda: app.install(pkg), w=84, h=36, bg=GREEN,
                      rid=ID + "install_button")

    def app_row(self, e: CatalogueEntry, *, rank: int | None = None, button: bool = False) -> View:
        """An app in a list: icon, title, developer, rating and size; opens its page."""
        installed = self.app.installed(e.package)
        meta = "Installed" if installed and not button else f"{stars(e)}   {e.size}"
        return Row(
            Text(str(rank), size=14, align="center", w=24) if rank else None,
            app_icon(e, 56),
            Column(
                Text(e.title, size=15, rid=ID + "title"),
                Text(e.developer, size=13, style="muted", rid=ID + "developer"),
                Text(meta, size=13, style="muted"),
            ),
            self.install_button(e) if button else None,
            h=88, pad=(16, 8, 16, 8), gap=12, on_click=partial(self.details, e.package),
        )

    def card_row(self, entries: list[CatalogueEntry]) -> View:
        """Up to three app cards side by side: icon, two lines of title, rating."""
        cards = [Column(
            app_icon(e, 88, align="center"),
            Text(e.title, size=13, lines=2),
            Text("Installed" if self.app.installed(e.package) else stars(e), size=12, style="muted"),
            pad=(4, 4, 4, 4), gap=4, on_click=partial(self.details, e.package),
        ) for e in entries]
        cards += [Spacer() for _ in range(3 - len(cards))]
        return Row(*cards, h=176, pad=(12, 0, 12, 0), gap=8)

    def header(self, e: CatalogueEntry) -> View:
        """Icon, title, developer and badges, as on the top of a detail page."""
        return Row(
            app_icon(e, 72),
            Column(
                Text(e.title, size=20, bold=True, lines=2 if len(e.title) > 22 else 1,
                     rid=ID + "title_title"),
                Text(e.developer, size=14, fg=GREEN, rid=ID + "title_creator"),
                Text(badges(e), size=12, style="muted") if badges(e) else None,
            ),
            gap=16, pad=(16, 8, 16, 8),
        )

    def stats(self, e: CatalogueEntry) -> View:
        """Rating and reviews, downloads, content rating ("E", "T", "E10+", "M")."""
        badge = e.content_rating[0] + ("10+" if "10+" in e.content_rating else "")
        cells = ((stars(e), f"{e.reviews} reviews"), (e.downloads, "Downloads"),
                 (badge, e.content_rating))
        return Row(*(Column(Text(top, size=14, bold=True, align="center"),
                            Text(bottom, size=12, style="muted", align="center"))
                     for top, bottom in cells), h=56, pad=(16, 4, 16, 4))

    def actions(self, e: CatalogueEntry) -> View:
        """Install; or Uninstall and Open once installed (only Open for stock apps)."""
        app, pkg = self.app, e.package
        if not app.installed(pkg):
            return Row(Button("Install", lambda: app.install(pkg), bg=GREEN, rid=ID + "right_button"),
                       h=64, pad=(16, 8, 16, 8))
        open_button = Button("Open", lambda: app.launch(pkg), bg=GREEN, rid=ID + "right_button")
        if pkg not in REMOVABLE:
            return Row(open_button, h=64, pad=(16, 8, 16, 8))
        return Row(Button("Uninstall", lambda: app.confirm_uninstall(pkg), style="outlined", fg=GREEN,
                          rid=ID + "left_button"),
                   open_button, h=64, gap=12, pad=(16, 8, 16, 8))
