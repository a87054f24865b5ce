"""Pages under the front page: an app's detail page and its "About this app", a book,
lists of apps (categories, "more" of a section) and information-only pages."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.apps.generic import app_bar
from mobile_gym.simulator.apps.playstore.model import ID, LISTED, Book, updated_on
from mobile_gym.simulator.apps.playstore.widgets import (
    GREEN, Page, app_icon, chip, info_row, para, section_header,
)
from mobile_gym.simulator.views import Button, Column, Icon, Row, Scroll, Spacer, Text, View, FRAME

if TYPE_CHECKING:
    from mobile_gym.simulator.apps.playstore.store import PlayStore

BOOK_COVER = (95, 99, 104)


class Details(Page):
    """An app's store page; opening it is recorded in ``viewed``."""

    def __init__(self, app: PlayStore, package: str) -> None:
        super().__init__(app)
        self.package = package
        app.state.viewed.append(package)

    def inputs(self) -> tuple:
        """The app, the feed order its similar apps follow and what is installed."""
        return self.package, id(self.app.order), self.sys.packages()

    def more(self) -> None:
        app = self.app
        listed = self.package in app.state.wishlist
        self.sys.show(Menu((("Remove from wishlist" if listed else "Add to wishlist",
                             partial(app.toggle_wishlist, self.package)),
                            ("Share", partial(self.sys.toast, "Link copied to clipboard")))), app)

    def build(self) -> View:
        e = LISTED[self.package]
        similar = self.app.similar(e)[:3]
        return Column(
            Row(Icon("back", desc="Navigate up", on_click=self.finish), Spacer(),
                Icon("search", desc="Search Google Play", on_click=self.open_search),
                Icon("more", desc="More options", on_click=self.more), h=56, rid=ID + "toolbar"),
            Scroll(
                self.header(e),
                self.stats(e),
                self.actions(e),
                section_header("About this app", partial(self.app.open_about, e.package)),
                para(e.description, lines=2, rid=ID + "description"),
                Row(chip(e.category, False, None), h=52, pad=(16, 8, 16, 8)),
                section_header("Data safety"),
                para("Safety starts with understanding how developers collect and share your data.",
                     style="muted", lines=2),
                section_header("Ratings and reviews"),
                Row(Text(str(e.rating), size=40, w=96, align="center", h=64),
                    Column(Row(*(Icon("star", w=18, h=18, fg=GREEN) for _ in range(5)), h=24,
                               desc=f"Rated {e.rating} stars out of five stars"),
                           Text(f"{e.reviews} reviews", size=13, style="muted")),
                    h=72, pad=(16, 0, 16, 0)),
                section_header("Similar apps") if similar else None,
                *(self.app_row(x) for x in similar),
                key="details", pad=(0, 0, 0, 16),
            ),
        )


class AboutPage(Page):
    """"About this app": description and the app-info table."""

    def __init__(self, app: PlayStore, package: str) -> None:
        super().__init__(app)
        self.package = package

    def inputs(self) -> tuple:
        return (self.package,)  # fixed text

    def build(self) -> View:
        e = LISTED[self.package]
        rows = (("Version", "Varies with device"), ("Updated on", updated_on(e)),
                ("Downloads", f"{e.downloads} downloads"), ("Download size", e.size),
                ("Offered by", e.developer), ("Content rating", e.content_rating))
        return Column(
            app_bar(self, "About this app"),
            Scroll(Row(app_icon(e, 40), Text(e.title, size=16, bold=True), h=56, gap=12, pad=(16, 0, 16, 0)),
                   para(e.description, size=16, lines=3),
                   section_header("App info"), *(info_row(t, v) for t, v in rows), key="about"),
        )


class Menu(Dialog):
    """An overflow menu at the top right; each item closes it and runs its handler."""

    def __init__(self, items: tuple[tuple[str, Callable[[], None]], ...]) -> None:
        super().__init__(buttons=items, kind="menu", modal=False)

    def build(self) -> View:
        return Column(*(Row(Text(label, size=16, rid=ID + "menu_item"), h=48, pad=(16, 0, 16, 0),
                            on_click=partial(self._press, handler)) for label, handler in self.buttons),
                      cls=FRAME, w=220, pad=(0, 8, 0, 8), style="dialog", radius=8)


class BookPage(Page):
    """An ebook: "Free sample" records it in ``book_samples``; buying needs a payment method."""

    def __init__(self, app: PlayStore, book: Book) -> None:
        super().__init__(app)
        self.book = book

    def inputs(self) -> tuple:
        return (self.book,)  # fixed text

    def sample(self) -> None:
        samples = self.app.state.book_samples
        if self.book.title not in samples:
            samples.append(self.book.title)
        self.sys.toast("Sample added to your library")

    def build(self) -> View:
        b = self.book
        return Column(
            app_bar(self, ""),
            Row(Icon("bookmark", desc=b.title, w=96, h=128, style="appicon", bg=BOOK_COVER),
                Column(Text(b.title, size=20, bold=True, lines=2, rid=ID + "title_title"),
                       Text(b.author, size=14, fg=GREEN, rid=ID + "title_creator"),
                       Text(f"Ebook · {b.rating} ★", size=13, style="muted")),
                h=144, gap=16, pad=(16, 8, 16, 8)),
            Row(Button("Free sample", self.sample, style="outlined", fg=GREEN, rid=ID + "left_button"),
                Button(f"Buy ebook {b.price}",
                       partial(self.sys.toast, "Add a payment method to buy this ebook"),
                       bg=GREEN, rid=ID + "right_button"),
                h=64, gap=12, pad=(16, 8, 16, 8)),
            section_header("About this ebook"),
            para(b.blurb, lines=2, rid=ID + "description"),
        )


class ListPage(Page):
    """A titled list of apps: a category, or "more" of a home section."""

    def __init__(self, app: PlayStore, title: str, packages: list[str]) -> None:
        super().__init__(app)
        self.title, self.packages = title, list(packages)

    def inputs(self) -> tuple:
        return self.title, tuple(self.packages), self.sys.packages()

    def build(self) -> View:
        return Column(app_bar(self, self.title),
                      Scroll(*(self.app_row(LISTED[p], button=True) for p in self.packages), key="list"))


class InfoPage(Page):
    """A page that only shows information (payments, Play Protect, help, ...)."""

    def __init__(self, app: PlayStore, title: str, intro: str, rows: tuple[tuple[str, str], ...]) -> None:
        super().__init__(app)
        self.title, self.intro, self.rows = title, intro, rows

    def inputs(self) -> tuple:
        return self.title, self.intro, self.rows

    def build(self) -> View:
        return Column(app_bar(self, self.title),
                      Scroll(para(self.intro, size=16, lines=2) if self.intro else None,
                             *(info_row(t, s) for t, s in self.rows), key="list"))
