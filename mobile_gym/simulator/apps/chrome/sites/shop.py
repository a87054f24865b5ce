"""What the shopping sites share: products, the cart, search, sorting and page routing.

`ShopSite` is a `Site` whose catalogue is data (a tuple of `Product`) and whose state
(`ShopState`) is what task oracles read: the cart, the queries searched, the last sort
used, the products viewed and whether the cookie banner shows. Subclasses give the
site's URLs, texts and look; `page` routes a URL to one of their page builders.

A page "loads" when Chrome first asks for a URL different from the last one shown;
loading records searches and views and fills the search box with the query, as the
real sites do.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping
from urllib.parse import quote_plus

import numpy as np

from mobile_gym.errors import SimulatorError
from mobile_gym.simulator.app import ReadOnly
from mobile_gym.simulator.apps.chrome.web import Browser, Site, Url
from mobile_gym.simulator.layout import Layout
from mobile_gym.simulator.views import TEXT, VIEW, View

WHITE = (255, 255, 255)
FIRST_SCREEN_DP = 600  # page height a phone shows below Chrome's toolbar, about


@dataclass(frozen=True)
class Product:
    sku: str  # the site's item id (Best Buy SKU, Amazon ASIN, Newegg item number)
    name: str
    price: float  # current price
    rating: float  # out of 5
    reviews: int
    category: str
    keywords: str = ""  # extra search words ("ps5", "gpu")
    was: float = 0.0  # regular price while on sale, else 0

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(_words(f"{self.name} {self.category} {self.keywords}"))


@dataclass
class CartItem:
    sku: str
    name: str = ""
    price: float = 0.0  # unit price when added
    quantity: int = 1


@dataclass
class ShopState:
    cart: list[CartItem] = field(default_factory=list)
    searches: list[str] = field(default_factory=list)  # queries of results pages loaded
    sort: str = ""  # sort label of the last results page loaded ("" before any)
    viewed: list[str] = field(default_factory=list)  # skus of product pages loaded
    cookie_banner: bool = False  # the cookie consent banner shows now


@dataclass(frozen=True)
class Sort:
    label: str  # what the sort control shows ("Best Rated")
    param: str  # its value in the results URL ("" for the default order)
    order: str  # "match", "price", "-price", "rating" or "reviews"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _matches(words: tuple[str, ...], term: str) -> bool:
    """A query word matches a product word it starts, also in the singular."""
    stem = term[:-1] if len(term) > 3 and term.endswith("s") else term
    return any(w.startswith(term) or w.startswith(stem) for w in words)


def money(amount: float) -> str:
    return f"${amount:,.2f}"


class ShopSite(Site):
    """A shop: catalogue, cart, search results with a sort control, product pages."""

    State = ShopState
    catalogue: ClassVar[tuple[Product, ...]] = ()
    starter_cart: ClassVar[tuple[str, ...]] = ()  # canonical cart (dynamics "none")
    featured: ClassVar[tuple[str, ...]] = ()  # canonical home-page recommendations
    sorts: ClassVar[tuple[Sort, ...]] = ()  # the first one is the default
    search_path: ClassVar[str] = "/"
    query_param: ClassVar[str] = "q"
    sort_param: ClassVar[str] = "sort"
    cart_url: ClassVar[str] = ""
    cart_paths: ClassVar[tuple[str, ...]] = ("/cart",)  # paths of the cart page
    product_path: ClassVar[str] = ""  # regex a product page's path matches; group 1 is the sku
    added_text: ClassVar[str] = "Added to cart"  # toast after "Add to Cart"

    def __init__(self) -> None:
        super().__init__()
        self.products = {p.sku: p for p in self.catalogue}
        self.rank = {p.sku: i for i, p in enumerate(self.catalogue)}  # "best match" order
        self.picks = list(self.featured)
        self.loaded = ""  # URL of the page shown last (a new one "loads")
        self.sort_open = False  # the sort dropdown of the shown results page is open
        self.asks_consent = False  # the site shows its cookie banner until dismissed
        self.ad: str | None = None  # sku of the sponsored product on home and results pages
        self.state.cart = [self.item(sku) for sku in self.starter_cart]

    @property
    def field(self) -> str:
        """Form-field key of the header search box."""
        return f"{self.key}:q"

    # ------------------------------------------------------------------ dynamics
    def vary(self, rng: np.random.Generator, popup_rate: float) -> None:
        """Shuffle the relevance order, put other products on sale, pick other
        recommendations and another starting cart, maybe show the cookie banner."""
        skus = list(self.products)

        def pick(n: int) -> list[str]:
            return [skus[int(i)] for i in rng.choice(len(skus), n, replace=False)]

        self.rank = {skus[int(i)]: n for n, i in enumerate(rng.permutation(len(skus)))}
        self.products = {s: _reprice(p, rng) for s, p in self.products.items()}
        self.picks = pick(len(self.featured))
        self.state.cart = [self.item(sku) for sku in pick(int(rng.integers(2, 4)))]
        self.asks_consent = self.state.cookie_banner = bool(rng.random() < popup_rate)
        self.ad = pick(1)[0] if rng.random() < 0.5 else None

    def clear_site_data(self) -> None:
        """Cookies cleared: the guest cart is gone and consent is asked again."""
        self.state.cart = []
        self.state.cookie_banner = self.asks_consent

    # ------------------------------------------------------------------ task setup
    def configure(self, values: Mapping[str, Any]) -> None:
        """Apply a task's setup, e.g. ``{"cart": [{"sku": "6546996", "quantity": 2}]}``
        or ``{"cart": []}``; cart items may also be given as bare skus."""
        if not isinstance(values, Mapping):
            raise SimulatorError(f"setup for site {self.key!r} must be a mapping")
        setters: dict[str, Callable[[Any], None]] = {
            "cart": self._set_cart, "searches": self._set_searches, "sort": self._set_sort,
            "viewed": self._set_viewed, "cookie_banner": self._set_banner,
        }
        for name, value in values.items():
            if name not in setters:
                raise SimulatorError(f"site {self.key!r} has no state field {name!r}; "
                                     f"known: {', '.join(sorted(setters))}")
            setters[name](value)

    def view(self) -> ReadOnly:
        """Read-only state for oracles."""
        return ReadOnly(self.state)

    def _set_cart(self, value: Any) -> None:
        if not isinstance(value, (list, tuple)):
            raise SimulatorError(f"{self.key} cart must be a list, got {value!r}")
        self.state.cart = [self._cart_item(v) for v in value]

    def _cart_item(self, value: Any) -> CartItem:
        if isinstance(value, str):
            value = {"sku": value}
        if not isinstance(value, Mapping):
            raise SimulatorError(f"{self.key} cart items are skus or mappings, got {value!r}")
        unknown = set(value) - {f.name for f in dataclasses.fields(CartItem)}
        if unknown:
            raise SimulatorError(f"{self.key} cart item has unknown fields {sorted(unknown)}")
        item = self.item(self._sku(value.get("sku")))
        quantity = value.get("quantity", 1)
        if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 1:
            raise SimulatorError(
                f"{self.key} cart quantity must be a positive int, got {quantity!r}")
        price = value.get("price", item.price)
        if isinstance(price, bool) or not isinstance(price, (int, float)) or price < 0:
            raise SimulatorError(f"{self.key} cart price must be a number, got {price!r}")
        name = value.get("name", item.name)
        if not isinstance(name, str):
            raise SimulatorError(f"{self.key} cart item name must be a string, got {name!r}")
        return CartItem(item.sku, name, float(price), quantity)

    def _sku(self, sku: Any) -> str:
        if sku not in self.products:
            raise SimulatorError(f"{self.key} has no product with sku {sku!r}")
        return sku

    def _set_searches(self, value: Any) -> None:
        if not isinstance(value, (list, tuple)) or not all(isinstance(q, str) for q in value):
            raise SimulatorError(f"{self.key} searches must be a list of strings, got {value!r}")
        self.state.searches = list(value)

    def _set_sort(self, value: Any) -> None:
        labels = [s.label for s in self.sorts]
        if value != "" and value not in labels:
            raise SimulatorError(f"{self.key} sort must be one of {labels}, got {value!r}")
        self.state.sort = value

    def _set_viewed(self, value: Any) -> None:
        if not isinstance(value, (list, tuple)):
            raise SimulatorError(f"{self.key} viewed must be a list of skus, got {value!r}")
        self.state.viewed = [self._sku(s) for s in value]

    def _set_banner(self, value: Any) -> None:
        if not isinstance(value, bool):
            raise SimulatorError(f"{self.key} cookie_banner must be a bool, got {value!r}")
        self.state.cookie_banner = value

    # ------------------------------------------------------------------ catalogue
    def item(self, sku: str) -> CartItem:
        p = self.products[sku]
        return CartItem(p.sku, p.name, p.price)

    def search(self, query: str, sort: Sort | None = None) -> list[Product]:
        """Products matching every word of ``query``, in ``sort`` order."""
        terms = _words(query)
        hits = [p for p in self.products.values()
                if terms and all(_matches(p.words, t) for t in terms)]
        return sorted(hits, key=self._sort_key((sort or self.sorts[0]).order))

    def _sort_key(self, order: str) -> Callable[[Product], tuple]:
        rank = self.rank
        return {
            "match": lambda p: (rank[p.sku],),
            "price": lambda p: (p.price, rank[p.sku]),
            "-price": lambda p: (-p.price, rank[p.sku]),
            "rating": lambda p: (-p.rating, -p.reviews, rank[p.sku]),
            "reviews": lambda p: (-p.reviews, rank[p.sku]),
        }[order]

    def ranked(self, skus) -> list[Product]:
        return sorted((self.products[s] for s in skus), key=lambda p: self.rank[p.sku])

    def deals(self, n: int) -> list[Product]:
        """Products on sale, most relevant first."""
        return self.ranked(s for s, p in self.products.items() if p.was)[:n]

    # ------------------------------------------------------------------ urls
    def results_url(self, query: str, sort: Sort | None = None) -> str:
        url = f"https://{self.host}{self.search_path}?{self.query_param}={quote_plus(query)}"
        if sort is not None and sort.param:
            url += f"&{self.sort_param}={quote_plus(sort.param)}"
        return url

    def sort_of(self, url: Url) -> Sort:
        param = url.query.get(self.sort_param, "")
        return next((s for s in self.sorts if s.param == param), self.sorts[0])

    def product_url(self, p: Product) -> str:
        raise NotImplementedError

    def route(self, url: Url) -> tuple[str, Any]:
        """("home" | "results" | "product" | "cart" | "missing", argument)."""
        path = url.path.rstrip("/") or "/"
        if path in self.cart_paths:
            return "cart", None
        if path == "/":
            return "home", None
        if path == self.search_path:
            return "results", url.query.get(self.query_param, "").strip()
        m = re.fullmatch(self.product_path, path)
        if m and m.group(1) in self.products:
            return "product", self.products[m.group(1)]
        return "missing", None

    # ------------------------------------------------------------------ cart
    @property
    def count(self) -> int:
        return sum(i.quantity for i in self.state.cart)

    @property
    def subtotal(self) -> float:
        return round(sum(i.price * i.quantity for i in self.state.cart), 2)

    def add(self, sku: str, browser: Browser) -> None:
        for item in self.state.cart:
            if item.sku == sku:
                item.quantity += 1
                break
        else:
            self.state.cart.append(self.item(sku))
        browser.toast(self.added_text)

    def remove(self, sku: str) -> None:
        self.state.cart = [i for i in self.state.cart if i.sku != sku]

    def change(self, sku: str, delta: int) -> None:
        for item in self.state.cart:
            if item.sku == sku:
                item.quantity = max(1, item.quantity + delta)

    # ------------------------------------------------------------------ actions
    def open(self, url: str, browser: Browser) -> None:
        """Follow a link or submit a form. What the page records (a search, a view) is
        recorded now, as oracles may read the state before the page is drawn."""
        u = Url(url)
        self._record(*self.route(u), u)
        browser.navigate(url)

    def link_to(self, url: str, browser: Browser) -> Callable[[], None]:
        return lambda: self.open(url, browser)

    def submit(self, text: str, browser: Browser) -> None:
        """ENTER in the search box or the search button: a new search, default order."""
        if text.strip():
            self.open(self.results_url(text.strip()), browser)

    def pick_sort(self, query: str, sort: Sort, browser: Browser) -> None:
        self.sort_open = False
        self.open(self.results_url(query, sort), browser)

    def toggle_sort(self) -> None:
        self.sort_open = not self.sort_open

    def go_home(self, browser: Browser) -> Callable[[], None]:
        return self.link_to(f"https://{self.host}/", browser)

    def dismiss_banner(self) -> None:
        self.state.cookie_banner = False

    # ------------------------------------------------------------------ pages
    def title(self, url: Url) -> str:
        kind, arg = self.route(url)
        return self.titles(kind, arg)

    def titles(self, kind: str, arg: Any) -> str:
        raise NotImplementedError

    def page(self, url: Url, browser: Browser) -> list[View]:
        self.prepare(url, browser)
        kind, arg = self.route(url)
        return [self.layout(kind, arg, url, browser)]

    def prepare(self, url: Url, browser: Browser) -> None:
        """A URL other than the one shown last loads."""
        if url.text != self.loaded:
            self.loaded = url.text
            self._load(*self.route(url), url, browser)

    def inputs(self, url: Url) -> tuple:
        """The catalogue and relevance order by identity (only `vary` replaces them),
        the recommendations, the ad, the sort list, the banner and the cart."""
        return (id(self.products), id(self.rank), tuple(self.picks), self.ad, self.sort_open,
                self.state.cookie_banner,
                tuple([(i.sku, i.name, i.price, i.quantity) for i in self.state.cart]))

    def _load(self, kind: str, arg: Any, url: Url, browser: Browser) -> None:
        """A page loads: record it (again, if a link already did) and fill the search
        box of a results page with its query."""
        self.sort_open = False
        self._record(kind, arg, url)
        if kind == "results":
            browser.set_field(self.field, arg)

    def _record(self, kind: str, arg: Any, url: Url) -> None:
        """Searches, sort and views; a page shown twice in a row counts once."""
        s = self.state
        if kind == "results":
            if arg and (not s.searches or s.searches[-1] != arg):
                s.searches.append(arg)
            s.sort = self.sort_of(url).label
        elif kind == "product" and (not s.viewed or s.viewed[-1] != arg.sku):
            s.viewed.append(arg.sku)

    def layout(self, kind: str, arg: Any, url: Url, browser: Browser) -> View:
        """The document: header, the body for the route and footer, on white. The cookie
        banner stands for a bar fixed to the bottom of the window: it covers the bottom
        of the first screenful of the page (or of the whole page, if shorter)."""
        ad = self.sponsored(browser) if kind in ("home", "results") else None
        parts = [self.header(browser), *(v for v in (ad, *getattr(self, f"{kind}_page")(arg, url, browser))
                                          if v is not None), self.footer()]
        if not self.state.cookie_banner:
            return View(VIEW, parts, bg=WHITE)
        sizer, first, height = Layout(1.0, {}), 0, 0
        for v in parts:
            height += sizer.measure(v)
            if first and height > FIRST_SCREEN_DP:
                break
            first += 1
        under = View(VIEW, [View(VIEW, parts[:first]), self.banner()], orient="z")
        return View(VIEW, [under, *parts[first:]], bg=WHITE)

    def sponsored(self, browser: Browser) -> View | None:
        """The ad banner dynamics may place under the header: a sponsored product."""
        p = self.products.get(self.ad or "")
        if p is None:
            return None
        return View(VIEW, [
            View(TEXT, text="Sponsored", size=11, h=18, style="muted"),
            View(TEXT, text=p.name, size=14, bold=True, h=22),
            View(TEXT, text=money(p.price), size=14, h=22),
        ], rid="sponsored-ad", desc=f"Sponsored: {p.name}", bg=(255, 246, 214), pad=(12, 8, 12, 8),
            on_click=lambda: browser.navigate(self.product_url(p)))

    # The site's look: header, footer, cookie banner and one builder per route
    # (``home_page``, ``results_page``, ``product_page``, ``cart_page``, ``missing_page``),
    # each taking (argument, url, browser) and returning the body's views.
    def header(self, browser: Browser) -> View:
        raise NotImplementedError

    def footer(self) -> View:
        raise NotImplementedError

    def banner(self) -> View:
        raise NotImplementedError


_DISCOUNTS = (0.10, 0.15, 0.20, 0.25)


def _reprice(p: Product, rng: np.random.Generator) -> Product:
    """About a third of the products on sale at 10-25% off their regular price (a reset
    reprices every product of three shops: the discount is drawn as ``rng.choice`` draws
    it, without its array, and a product at its regular price is kept)."""
    regular = p.was or p.price
    if rng.random() >= 0.3:
        return p if not p.was else Product(p.sku, p.name, regular, p.rating, p.reviews, p.category, p.keywords)
    off = _DISCOUNTS[int(rng.integers(len(_DISCOUNTS)))]
    return Product(p.sku, p.name, max(0.99, round(regular * (1 - off)) - 0.01), p.rating, p.reviews,
                   p.category, p.keywords, regular)
