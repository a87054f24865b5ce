"""`PlayStore`, the app: catalogue queries, installing and uninstalling, navigation
between pages, setup validation, and the seeded variation and popups of dynamics."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Mapping

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import Activity, App, Dialog
from mobile_gym.simulator.apps.playstore.account import Library, ManageApps
from mobile_gym.simulator.apps.playstore.home import Home, PromoSheet
from mobile_gym.simulator.apps.playstore.model import (
    BOOKS, CHOICES, INFO, LISTED, LISTINGS, OFFERS, PKG, Book, PlayStoreState, downloads, score,
)
from mobile_gym.simulator.apps.playstore.pages import AboutPage, BookPage, Details, InfoPage, ListPage
from mobile_gym.simulator.apps.playstore.search import SearchPage
from mobile_gym.simulator.apps.playstore.settings import SettingsPage
from mobile_gym.simulator.catalogue import CATALOGUE, CatalogueEntry

LIST_FIELDS = ("searches", "viewed", "installs", "uninstalls", "wishlist", "book_samples")


class PlayStore(App):
    package = PKG
    label = "Play Store"
    key = "playstore"
    loading_screen = True  # a cold launch may show its loading screen first (dynamics)
    icon = "play"
    color = (52, 168, 83)
    State = PlayStoreState

    def __init__(self, sys) -> None:
        super().__init__(sys)
        self.order = [e.package for e in CATALOGUE]  # feed order; `vary` shuffles it
        self.offers = list(OFFERS)
        self.books = list(BOOKS)

    def main(self) -> Activity:
        return Home(self)

    def vary(self, rng: np.random.Generator) -> None:
        """Recommendations, chart ties, search-result ties, offers and books come in a
        seeded order."""
        self.order = [self.order[i] for i in rng.permutation(len(self.order))]
        self.offers = [self.offers[i] for i in rng.permutation(len(self.offers))]
        self.books = [self.books[i] for i in rng.permutation(len(self.books))]

    def popups(self, activity: Activity) -> list[Dialog]:
        if isinstance(activity, Home):
            return [PromoSheet(self)]
        if isinstance(activity, Details):
            return [Dialog("Complete account setup",
                           "Add a payment method to your Google Account. You won't be charged "
                           "unless you make a purchase.",
                           (("Skip", None),
                            ("Continue", partial(self.open_info, "Payments & subscriptions"))))]
        return []

    def configure(self, values: Mapping[str, Any]) -> None:
        """Setup values are type-checked; settings must be one of their options."""
        for name, (_, options) in CHOICES.items():
            if name in values and values[name] not in options:
                raise SimulatorError(f"app 'playstore' field {name!r} must be one of {options}, "
                                     f"got {values[name]!r}")
        for name in LIST_FIELDS:
            items = values.get(name, [])
            if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) for v in items):
                raise SimulatorError(f"app 'playstore' field {name!r} must be a list of strings")
        super().configure(values)

    # catalogue ----------------------------------------------------------------
    def feed(self, game: bool) -> list[CatalogueEntry]:
        """Store apps (or games) in recommendation order."""
        return [LISTED[p] for p in self.order if LISTED[p].game == game]

    def rank(self, package: str) -> int:
        return self.order.index(package) if package in self.order else len(self.order)

    def search(self, query: str) -> list[CatalogueEntry]:
        """Listings matching a query, best match first."""
        scored = [(s, self.rank(e.package), e) for e in LISTINGS if (s := score(e, query)) is not None]
        return [e for _, _, e in sorted(scored, key=lambda t: t[:2])]

    def chart(self, name: str, game: bool) -> list[CatalogueEntry]:
        keys: dict[str, Callable[[CatalogueEntry], tuple]] = {
            "Top free": lambda e: (-downloads(e), self.rank(e.package)),
            "Top grossing": lambda e: (not e.purchases, -downloads(e), -e.rating, self.rank(e.package)),
            "Trending": lambda e: (-e.rating, self.rank(e.package)),
        }
        return sorted(self.feed(game), key=keys[name])

    def similar(self, e: CatalogueEntry) -> list[CatalogueEntry]:
        """Other apps of the same category, in feed order."""
        return [x for x in self.feed(e.game) if x.category == e.category and x is not e]

    def installed(self, package: str) -> bool:
        return package in self.sys.installed

    # actions --------------------------------------------------------------------
    def install(self, package: str) -> None:
        """Immediate install (the real store downloads first; here it is one step)."""
        if not self.installed(package):
            self.sys.install(package)
            self.state.installs.append(package)

    def uninstall(self, package: str) -> None:
        if self.installed(package):
            self.sys.uninstall(package)
            self.state.uninstalls.append(package)

    def launch(self, package: str) -> None:
        self.sys.launch(package)

    def confirm_uninstall(self, package: str) -> None:
        self.sys.show(Dialog(LISTED[package].label, "Do you want to uninstall this app?",
                             (("Cancel", None), ("Uninstall", partial(self.uninstall, package)))), self)

    def toggle_wishlist(self, package: str) -> None:
        wishlist = self.state.wishlist
        if package in wishlist:
            wishlist.remove(package)
            self.sys.toast("Removed from wishlist")
        else:
            wishlist.append(package)
            self.sys.toast("Added to wishlist")

    def accept_promo(self) -> None:
        self.state.promo_accepted = True
        self.sys.toast("Offer added to your account")

    # navigation -------------------------------------------------------------------
    def show_details(self, package: str) -> None:
        self.sys.start(Details(self, package))

    def open_about(self, package: str) -> None:
        self.sys.start(AboutPage(self, package))

    def open_search(self) -> None:
        """The search page opens with the field focused and the keyboard up."""
        self.sys.start(SearchPage(self))
        self.sys.keyboard = True

    def open_list(self, title: str, packages: list[str]) -> None:
        self.sys.start(ListPage(self, title, packages))

    def open_book(self, book: Book) -> None:
        self.sys.start(BookPage(self, book))

    def open_info(self, title: str) -> None:
        intro, rows = INFO[title]
        self.sys.start(InfoPage(self, title, intro, rows))

    def open_account_page(self, title: str) -> None:
        """Where an account-menu item leads."""
        pages = {"Manage apps & device": ManageApps, "Settings": SettingsPage, "Library": Library}
        if title in pages:
            self.sys.start(pages[title](self))
        elif title == "Manage your Google Account":
            s = self.state
            self.sys.start(InfoPage(self, "Google Account", "",
                                    (("Name", s.account_name), ("Email", s.account_email))))
        else:
            self.open_info(title)
