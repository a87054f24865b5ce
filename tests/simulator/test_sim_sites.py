"""The shopping sites Chrome shows (bestbuy.com, amazon.com, newegg.com), rendered
through the real simulator inside a test-only browser app, and through Chrome."""

from __future__ import annotations

import pickle
import re

import pytest

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.app import Activity, App
from mobile_gym.simulator.apps import FACTORIES
from mobile_gym.simulator.apps.chrome.sites import SITES
from mobile_gym.simulator.apps.chrome.web import Url
from mobile_gym.simulator.views import WEBVIEW, Column, EditText, Scroll, View
from mobile_gym.ui.hierarchy import ViewHierarchy
from phone import check_dump, node, swipe_up, tap, texts

WEB_PKG = "org.example.web"


# ---------------------------------------------------------------- a test-only browser


class TabBrowser:
    """The `Browser` a page gets: navigation, form fields and toasts of one tab."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.rng = tab.sys.rng

    def navigate(self, url: str) -> None:
        self.tab.go(url)

    def field(self, key: str) -> str:
        return self.tab.fields.get(key, "")

    def set_field(self, key: str, text: str) -> None:
        self.tab.fields[key] = text

    def toast(self, text: str) -> None:
        self.tab.sys.toast(text)


class WebApp(App):
    """Shows one site page at a time in a WebView, like Chrome's content area; its
    state view maps site keys to the sites' states, its setup site keys to theirs."""

    package = WEB_PKG
    label = "Web"
    key = "web"

    def __init__(self, sys) -> None:
        super().__init__(sys)
        self.sites = {cls.key: cls() for cls in SITES}

    def vary(self, rng) -> None:
        for site in self.sites.values():
            site.vary(rng, self.sys.dynamics.popup_rate)

    def configure(self, values) -> None:
        for key, site_values in values.items():
            self.sites[key].configure(site_values)

    def view(self) -> dict:
        return {key: site.view() for key, site in self.sites.items()}

    def site_for(self, host: str):
        return next(s for s in self.sites.values() if host == s.host or host in s.aliases)

    def main(self) -> Activity:
        return Tab(self)


class Tab(Activity):
    name = ".WebActivity"

    def __init__(self, app: WebApp) -> None:
        super().__init__(app)
        self.history = ["https://www.bestbuy.com/"]

    def go(self, url: str) -> None:
        """Load a page: like Chrome, a new page starts at the top with empty forms."""
        self.history.append(url if "://" in url else "https://" + url)
        self.scroll.clear()
        self.fields.clear()
        self.focus = None

    def on_focus(self, field: str) -> None:
        self.select_all = field == "url"

    def on_back(self) -> bool:
        if len(self.history) > 1:
            self.history.pop()
            self.scroll.clear()
            self.fields.clear()
            return True
        return False

    def build(self) -> View:
        url = Url(self.history[-1])
        site = self.app.site_for(url.host)
        self.fields["url"] = self.history[-1] if self.focus != "url" else self.fields.get("url", "")
        return Column(
            EditText("url", on_submit=self.go, rid=f"{WEB_PKG}:id/url_bar", h=48),
            Scroll(*site.page(url, TabBrowser(self)), key="web", cls=WEBVIEW,
                   text=site.title(url)),
        )


@pytest.fixture(autouse=True)
def web_app(monkeypatch) -> None:
    """The test browser can be installed while a test of this module runs."""
    monkeypatch.setitem(FACTORIES, WEB_PKG, WebApp)


def open_web(url: str = "", *, seed: int = 0, dynamics: str = "none",
             sites: dict | None = None) -> SimulatedDevice:
    phone = SimulatedDevice(seed=seed, dynamics=dynamics, setup={
        "install": [WEB_PKG], "apps": {WEB_PKG: sites or {}}, "launch": WEB_PKG})
    if url:
        visit(phone, url)
    return phone


def visit(phone: SimulatedDevice, url: str) -> None:
    """Type ``url`` in the address bar and press ENTER."""
    tap(phone, resource_id=f"{WEB_PKG}:id/url_bar")
    phone.perform(Action.type_text(url))
    phone.perform(Action.enter())


def url_of(phone: SimulatedDevice) -> str:
    return node(phone, resource_id=f"{WEB_PKG}:id/url_bar").text


def state(phone: SimulatedDevice, key: str):
    return phone.app_state(WEB_PKG)[key]


def cart_count(phone: SimulatedDevice, key: str) -> int:
    """The number in the header's cart badge (none: 0)."""
    link = node(phone, resource_id=SHOPS[key]["cart_id"])
    return int(next((c.text for c in link.children if c.text.isdigit()), "0"))


def product_names(phone: SimulatedDevice) -> list[str]:
    """Names of the products on screen, in page order (the photos' alt texts)."""
    return [n.content_desc for n in phone.observe(screenshot=False).hierarchy.find_all(
        class_name="android.widget.ImageView", package=WEB_PKG) if n.content_desc]


def skus(phone: SimulatedDevice, key: str) -> list[tuple[str, int]]:
    return [(i.sku, i.quantity) for i in state(phone, key).cart]


def sku_of(key: str, name: str) -> str:
    return next(p.sku for p in CLASSES[key].catalogue if p.name == name)


def search(phone: SimulatedDevice, key: str, query: str) -> None:
    tap(phone, resource_id=SHOPS[key]["search"])
    phone.perform(Action.type_text(query))
    phone.perform(Action.enter())


CLASSES = {cls.key: cls for cls in SITES}
SHOPS = {
    "bestbuy": dict(
        home="bestbuy.com", search="gh-search-input", button="submit search",
        query="video games", cart_id="cart-link", remove="Remove", cart_title="Cart",
        results="https://www.bestbuy.com/site/searchpage.jsp?st=video+games",
        cart="bestbuy.com/cart", empty="Your cart is empty",
        title='video games - Best Buy', nothing="Hmm, we didn't find anything for \"zzqx\".",
        missing="Sorry, something went wrong.", found='16 results for "video games"',
        first="Super Mario Bros. Wonder - Nintendo Switch", again="headphones",
        sort_id="sort-by-select",
        product=("bestbuy.com/site/6505727.p?skuId=6505727",
                 "Sony - WH-1000XM5 Wireless Noise-Canceling Over-the-Ear Headphones - Black - "
                 "Best Buy")),
    "amazon": dict(
        home="amazon.com", search="nav-search-keywords", button="Go",
        query="nintendo switch", cart_id="nav-cart", remove="Delete", cart_title="Shopping Cart",
        results="https://www.amazon.com/s?k=nintendo+switch",
        cart="amazon.com/gp/cart/view.html", empty="Your Amazon Cart is empty",
        title="Amazon.com : nintendo switch", nothing="No results for zzqx.",
        missing="Sorry! We couldn't find that page.", found='4 results for "nintendo switch"',
        first="Super Mario Bros. Wonder - Nintendo Switch", again="air fryer",
        sort_id="s-result-sort-select",
        product=("amazon.com/gp/product/B01N1037CV",
                 "Amazon.com: Mario Kart 8 Deluxe - Nintendo Switch")),
    "newegg": dict(
        home="newegg.com", search="header-search", button="Search",
        query="graphics card", cart_id="header-cart", remove="Remove", cart_title="Shopping Cart",
        results="https://www.newegg.com/p/pl?d=graphics+card",
        cart="secure.newegg.com/shop/cart", empty="Your shopping cart is empty",
        title="graphics card | Newegg.com",
        nothing='We have found 0 items that match "zzqx".', missing="Page Not Found",
        found='We have found 4 items that match "graphics card".', again="ssd", sort_id="sort-by",
        first="ASUS TUF Gaming GeForce RTX 4070 Ti SUPER 16GB GDDR6X PCI Express 4.0 Video Card "
              "TUF-RTX4070TIS-O16G-GAMING",
        product=("newegg.com/p/N82E16826197336",
                 "Logitech G502 HERO Wired Gaming Mouse, 25,600 DPI - Newegg.com")),
}
RATING = re.compile(r"(\d\.\d) \([\d,]+ reviews\)")


# ---------------------------------------------------------------- search


@pytest.mark.parametrize("key", SHOPS)
def test_header_search_loads_results_and_is_recorded(key) -> None:
    shop = SHOPS[key]
    phone = open_web(shop["home"])
    search(phone, key, shop["query"])
    assert url_of(phone) == shop["results"]
    assert node(phone, class_name=WEBVIEW).text == shop["title"]
    assert node(phone, resource_id=shop["search"]).text == shop["query"]  # the box keeps it
    assert state(phone, key).searches == (shop["query"],)
    assert shop["found"] in texts(phone)
    assert product_names(phone)[0] == shop["first"]
    assert node(phone, text="Add to Cart").flags["clickable"]
    assert any(RATING.fullmatch(t) for t in texts(phone))


@pytest.mark.parametrize("key", SHOPS)
def test_search_button_and_clear_button(key) -> None:
    shop = SHOPS[key]
    phone = open_web(shop["results"])
    tap(phone, content_desc="Clear search")
    assert node(phone, resource_id=shop["search"]).text != shop["query"]  # the hint again
    tap(phone, resource_id=shop["search"])
    phone.perform(Action.type_text(shop["again"]))
    tap(phone, content_desc=shop["button"])
    assert state(phone, key).searches == (shop["query"], shop["again"])
    assert node(phone, resource_id=shop["search"]).text == shop["again"]
    assert product_names(phone)


@pytest.mark.parametrize("key", SHOPS)
def test_product_urls_in_other_forms_reach_the_product(key) -> None:
    url, title = SHOPS[key]["product"]
    phone = open_web(url)
    assert node(phone, class_name=WEBVIEW).text == title
    assert "Add to Cart" in texts(phone)


@pytest.mark.parametrize("key", SHOPS)
def test_no_results_and_missing_pages(key) -> None:
    shop = SHOPS[key]
    phone = open_web(shop["home"])
    search(phone, key, "zzqx")
    assert shop["nothing"] in texts(phone) and not product_names(phone)
    visit(phone, shop["home"] + "/no/such/page")
    assert shop["missing"] in texts(phone)


def test_bestbuy_sort_by_reorders_results_and_goes_in_the_url() -> None:
    phone = open_web(SHOPS["bestbuy"]["results"])
    assert node(phone, resource_id="sort-by-select").content_desc == "Sort By Best Match"
    assert "Price Low to High" not in texts(phone)
    tap(phone, resource_id="sort-by-select")
    assert [t for t in texts(phone) if t in ("Best Match", "Price Low to High",
            "Price High to Low", "Best Rated")] == ["Best Match", "Best Match", "Price Low to High",
                                                    "Price High to Low", "Best Rated"]
    tap(phone, text="Best Rated")
    assert url_of(phone) == SHOPS["bestbuy"]["results"] + "&sp=-customerrating"
    assert state(phone, "bestbuy").sort == "Best Rated"
    assert product_names(phone)[:2] == ["Mario Kart 8 Deluxe - Nintendo Switch",
                                        "Nintendo Switch - OLED Model with White Joy-Con - White"]
    ratings = [float(m.group(1)) for m in map(RATING.fullmatch, texts(phone)) if m]
    assert len(ratings) >= 3 and ratings == sorted(ratings, reverse=True)
    tap(phone, resource_id="sort-by-select")
    tap(phone, text="Price Low to High")
    assert url_of(phone).endswith("&sp=%2Bcurrentprice")
    assert state(phone, "bestbuy").sort == "Price Low to High"
    assert product_names(phone)[0] == "EA SPORTS FC 24 Standard Edition - PlayStation 5"
    prices = [float(t[1:]) for t in texts(phone) if re.fullmatch(r"\$\d+\.\d\d", t)]
    assert prices == sorted(prices)
    assert state(phone, "bestbuy").searches == ("video games",)  # same query, one search


@pytest.mark.parametrize("key", ["amazon", "newegg"])
def test_other_shops_sort_too(key) -> None:
    site = CLASSES[key]
    phone = open_web(SHOPS[key]["results"])
    tap(phone, resource_id=SHOPS[key]["sort_id"])
    assert [t for t in texts(phone) if t in {s.label for s in site.sorts[1:]}] == [
        s.label for s in site.sorts[1:]]
    label = site.sorts[2].label  # price high to low
    tap(phone, text=label)
    assert state(phone, key).sort == label
    assert f"{site.sort_param}={site.sorts[2].param}" in url_of(phone)
    prices = [float(t[1:].replace(",", "")) for t in texts(phone)
              if re.fullmatch(r"\$[\d,]+\.\d\d", t)]
    assert len(prices) >= 2 and prices == sorted(prices, reverse=True)


# ---------------------------------------------------------------- product and cart


@pytest.mark.parametrize("key", SHOPS)
def test_add_to_cart_from_results_and_product_page(key) -> None:
    shop = SHOPS[key]
    phone = open_web(shop["results"])
    start = skus(phone, key)
    first = product_names(phone)[0]
    sku = sku_of(key, first)
    def added(n: int) -> list[tuple[str, int]]:
        """The starting cart plus ``n`` of the product (a line of its own if new)."""
        if sku in dict(start):
            return [(s, q + n if s == sku else q) for s, q in start]
        return start + [(sku, n)]

    tap(phone, text="Add to Cart")
    assert skus(phone, key) == added(1)
    assert cart_count(phone, key) == len(start) + 1
    phone = pickle.loads(pickle.dumps(phone))
    tap(phone, text=first)
    assert sku in url_of(phone)
    assert node(phone, class_name=WEBVIEW).text.startswith(("Amazon.com: " + first, first))
    assert state(phone, key).viewed == (sku,)
    tap(phone, text="Add to Cart")
    assert skus(phone, key) == added(2)
    assert cart_count(phone, key) == len(start) + 2
    phone.perform(Action.back())  # back to the results: the query is in the box again
    assert url_of(phone) == shop["results"]
    assert node(phone, resource_id=shop["search"]).text == shop["query"]
    assert state(phone, key).searches == (shop["query"],)


@pytest.mark.parametrize("key", SHOPS)
def test_cart_page_quantity_remove_and_empty(key) -> None:
    shop = SHOPS[key]
    phone = open_web(shop["home"])
    tap(phone, resource_id=shop["cart_id"])
    assert shop["cart_title"] in texts(phone)
    items = skus(phone, key)
    assert 2 <= len(items) <= 3 and all(q == 1 for _, q in items)
    assert not node(phone, content_desc="Decrease quantity").flags["enabled"]
    tap(phone, content_desc="Increase quantity")
    assert skus(phone, key)[0] == (items[0][0], 2)
    assert node(phone, content_desc="Quantity 2").text == "2"
    tap(phone, content_desc="Decrease quantity")
    assert skus(phone, key)[0] == (items[0][0], 1)
    for left in range(len(items) - 1, -1, -1):
        tap(phone, text=shop["remove"])
        assert len(skus(phone, key)) == left
    assert shop["empty"] in texts(phone)
    assert cart_count(phone, key) == 0
    badge = [c.text for c in node(phone, resource_id=shop["cart_id"]).children if c.text]
    assert badge == (["0"] if key == "amazon" else ["Cart"] if key == "bestbuy" else [])


def test_cart_pages_show_totals() -> None:
    phone = open_web("amazon.com/gp/cart/view.html")
    assert {"Subtotal (3 items):", "$126.77", "Proceed to checkout (3 items)"} <= set(texts(phone))
    assert node(phone, resource_id="nav-cart").content_desc == "3 items in cart"
    visit(phone, "bestbuy.com/cart")
    assert {"Order Summary", "Total", "$389.98", "Checkout"} <= set(texts(phone))
    assert node(phone, resource_id="cart-link").content_desc == "Cart, 2 items"
    visit(phone, "www.newegg.com/shop/cart")  # the cart answers on www too
    assert {"(2 Items)", "Est. Total:", "$394.98", "Secure Checkout"} <= set(texts(phone))


# ---------------------------------------------------------------- setup and dynamics


def test_setup_sets_carts_by_sku_or_item() -> None:
    phone = open_web("bestbuy.com/cart", sites={
        "bestbuy": {"cart": ["5723304", {"sku": "6546996", "quantity": 3}], "sort": "Best Rated"},
        "amazon": {"cart": []}})
    cart = state(phone, "bestbuy").cart
    assert [(i.sku, i.name, i.price, i.quantity) for i in cart] == [
        ("5723304", "Mario Kart 8 Deluxe - Nintendo Switch", 59.99, 1),
        ("6546996", "Super Mario Bros. Wonder - Nintendo Switch", 59.99, 3)]
    assert node(phone, resource_id="cart-link").content_desc == "Cart, 4 items"
    assert state(phone, "bestbuy").sort == "Best Rated"
    visit(phone, "amazon.com/gp/cart/view.html")
    assert "Your Amazon Cart is empty" in texts(phone)


@pytest.mark.parametrize("values", [
    {"cart": ["0000000"]}, {"cart": [{"sku": "5723304", "quantity": 0}]}, {"cart": "5723304"},
    {"cart": [{"sku": "5723304", "colour": "red"}]}, {"cookie_banner": "yes"},
    {"sort": "Cheapest"}, {"wishlist": []}, {"viewed": ["nope"]}, {"searches": [1]},
])
def test_bad_setup_raises(values) -> None:
    with pytest.raises(SimulatorError):
        open_web(sites={"bestbuy": values})


def test_none_dynamics_is_canonical_and_default_varies() -> None:
    for key, cls in CLASSES.items():
        canonical = [(s, 1) for s in cls.starter_cart]
        assert skus(open_web(seed=1), key) == skus(open_web(seed=2), key) == canonical
    carts, banners, deals = set(), set(), set()
    for seed in range(12):
        phone = open_web(dynamics="default", seed=seed)
        cart = tuple(skus(phone, "bestbuy"))
        assert len(cart) in (2, 3)
        carts.add(cart)
        banners.add(state(phone, "bestbuy").cookie_banner)
        deals.add(tuple(product_names(phone)[:3]))
    assert len(carts) > 6 and banners == {True, False} and len(deals) > 6
    assert not any(state(open_web(seed=s), "amazon").cookie_banner for s in range(4))


def test_cookie_banner_covers_the_page_until_dismissed() -> None:
    phone = open_web("bestbuy.com/no-such-page", sites={"bestbuy": {"cookie_banner": True},
                                                        "amazon": {"cookie_banner": True}})
    banner = node(phone, resource_id="cookie-consent")
    home = node(phone, text="Go to Best Buy home")
    assert banner.bounds.contains(*home.bounds.center)
    tap(phone, text="Go to Best Buy home")  # lands on the banner
    assert url_of(phone) == "https://bestbuy.com/no-such-page"
    tap(phone, text="Accept")
    assert not state(phone, "bestbuy").cookie_banner
    assert node(phone, text="Go to Best Buy home") and "We value your privacy" not in texts(phone)
    tap(phone, text="Go to Best Buy home")
    assert url_of(phone) == "https://www.bestbuy.com/"
    visit(phone, "amazon.com/gp/cart/view.html")
    assert node(phone, resource_id="sp-cc") is not None
    tap(phone, resource_id="sp-cc-rejectall-link")  # "Close"
    assert not state(phone, "amazon").cookie_banner
    assert phone.observe(screenshot=False).hierarchy.find(resource_id="sp-cc") is None


# ---------------------------------------------------------------- dumps and determinism


@pytest.mark.parametrize("key", SHOPS)
def test_every_page_dumps_cleanly(key, artifacts) -> None:
    shop = SHOPS[key]
    phone = open_web(shop["home"], sites={key: {"cookie_banner": True}})
    check_dump(phone)
    phone.observe(screenshot_size=(360, 800)).image.save(artifacts / f"site_{key}_home.png")
    tap(phone, text="Accept")
    for url in (shop["home"], shop["results"], shop["cart"], shop["home"] + "/nope"):
        visit(phone, url)
        for _ in range(3):
            check_dump(phone)
            swipe_up(phone, 0.6)
    visit(phone, shop["results"])
    tap(phone, content_desc=next(n.content_desc for n in phone.observe(
        screenshot=False).hierarchy.find_all(package=WEB_PKG) if n.content_desc.startswith("Sort")))
    check_dump(phone)
    phone.observe(screenshot_size=(360, 800)).image.save(artifacts / f"site_{key}_sort.png")
    tap(phone, text=product_names(phone)[0])
    check_dump(phone)
    phone.observe(screenshot_size=(360, 800)).image.save(artifacts / f"site_{key}_product.png")
    search(phone, key, "zzqx")
    check_dump(phone)
    visit(phone, shop["cart"])
    while phone.observe(screenshot=False).hierarchy.find(text=shop["remove"]):
        tap(phone, text=shop["remove"])
    check_dump(phone)


def test_same_seed_same_screens() -> None:
    def run(seed: int) -> list[str]:
        phone = open_web(dynamics="default", seed=seed)
        out = []
        for key, shop in SHOPS.items():
            for url in (shop["home"], shop["results"], shop["cart"]):
                visit(phone, url)
                out.append(phone.observe(screenshot=False).xml)
        return out

    def web_texts(xml: str) -> list[str]:
        return [n.text for n in ViewHierarchy(xml).find_all(package=WEB_PKG)]

    assert run(4) == run(4)
    assert [web_texts(x) for x in run(4)] != [web_texts(x) for x in run(5)]


# ---------------------------------------------------------------- through Chrome

CHROME_URL_BAR = "com.android.chrome:id/url_bar"


def chrome(setup_sites: dict | None = None, **kw) -> SimulatedDevice:
    apps = {"chrome": {"sites": setup_sites}} if setup_sites else {}
    return SimulatedDevice(seed=kw.pop("seed", 2), setup={"launch": "chrome", "apps": apps}, **kw)


def omnibox(phone: SimulatedDevice, text: str) -> None:
    tap(phone, resource_id=CHROME_URL_BAR)
    phone.perform(Action.type_text(text))
    phone.perform(Action.enter())


def test_chrome_bestbuy_search_sort_add_and_cart() -> None:
    phone = chrome()
    omnibox(phone, "bestbuy.com")
    assert phone.app_state("chrome").url == "https://www.bestbuy.com/"
    search(phone, "bestbuy", "video games")
    tab = phone.app_state("chrome")
    assert tab.url == SHOPS["bestbuy"]["results"]
    assert tab.site("bestbuy").searches == ("video games",)
    tap(phone, resource_id="sort-by-select")
    tap(phone, text="Best Rated")
    assert phone.app_state("chrome").url == SHOPS["bestbuy"]["results"] + "&sp=-customerrating"
    assert phone.app_state("chrome").site("bestbuy").sort == "Best Rated"
    phone = pickle.loads(pickle.dumps(phone))
    tap(phone, text="Add to Cart")  # Mario Kart, the best rated
    cart = phone.app_state("chrome").site("bestbuy").cart
    assert [(i.sku, i.quantity) for i in cart] == [("6546996", 1), ("6505727", 1), ("5723304", 1)]
    assert node(phone, resource_id="cart-link").content_desc == "Cart, 3 items"
    tap(phone, text="Cart")
    assert phone.app_state("chrome").url == "https://www.bestbuy.com/cart"
    assert "Mario Kart 8 Deluxe - Nintendo Switch" in texts(phone)
    phone.perform(Action.back())  # Chrome's history: the sorted results, query in the box
    assert phone.app_state("chrome").url.endswith("&sp=-customerrating")
    assert node(phone, resource_id="gh-search-input").text == "video games"
    check_dump(phone)


def test_chrome_amazon_and_newegg_carts_from_setup() -> None:
    phone = chrome({"amazon": {"cart": []}, "newegg": {"cart": [{"sku": "N82E16826197336",
                                                                  "quantity": 2}]}})
    omnibox(phone, "amazon.com/gp/cart/view.html")
    assert "Your Amazon Cart is empty" in texts(phone)
    search(phone, "amazon", "air fryer")
    tap(phone, text="Add to Cart")
    tap(phone, resource_id="nav-cart")
    assert {"Shopping Cart", "Subtotal (1 item):", "Delete"} <= set(texts(phone))
    omnibox(phone, "newegg.com")
    tap(phone, resource_id="header-cart")
    # Chrome keeps every URL of a site on its canonical host (www.newegg.com)
    assert phone.app_state("chrome").url.endswith("newegg.com/shop/cart")
    assert {"(2 Items)", "$89.98"} <= set(texts(phone))
    tap(phone, text="Remove")
    assert "Your shopping cart is empty" in texts(phone)
    state = phone.app_state("chrome")
    assert [i.name for i in state.site("amazon").cart] == [
        "Ninja AF101 Air Fryer that Crisps, Roasts, Reheats, & Dehydrates, 4 Quart, Black/Gray"]
    assert state.site("newegg").cart == ()


def test_chrome_clearing_cookies_empties_guest_carts_and_asks_consent_again() -> None:
    phone = chrome({"bestbuy": {"cookie_banner": True}})
    omnibox(phone, "bestbuy.com")
    tap(phone, text="Accept")  # on the first screen, no scrolling needed
    assert not phone.app_state("chrome").site("bestbuy").cookie_banner
    tap(phone, resource_id="com.android.chrome:id/menu_button")
    tap(phone, text="History")
    tap(phone, text="Clear browsing data…")
    tap(phone, text="Clear data")
    state = phone.app_state("chrome")
    assert state.site("bestbuy").cart == () and state.site("amazon").cart == ()
    assert not state.site("bestbuy").cookie_banner  # dynamics "none": no banners at all
    phone = next(p for p in (chrome(dynamics="default", seed=s) for s in range(20))
                 if p.app_state("chrome").site("bestbuy").cookie_banner)
    for label in ("No thanks", "Got it"):  # Chrome's own promo sheet, if it shows
        if phone.observe(screenshot=False).hierarchy.find(text=label):
            tap(phone, text=label)
    omnibox(phone, "bestbuy.com")
    tap(phone, text="Close")
    tap(phone, resource_id="com.android.chrome:id/menu_button")
    tap(phone, text="History")
    tap(phone, text="Clear browsing data…")
    tap(phone, text="Clear data")
    assert phone.app_state("chrome").site("bestbuy").cookie_banner  # a site that asks, asks again


def test_chrome_search_engine_lists_the_shops() -> None:
    phone = chrome()
    omnibox(phone, "best buy")
    assert CLASSES["bestbuy"].description in texts(phone)
    tap(phone, text="Best Buy | Official Online Store | Shop Now & Save")
    assert phone.app_state("chrome").url == "https://www.bestbuy.com/"


def test_dynamics_place_a_sponsored_ad_that_leads_to_its_product() -> None:
    def shop(seed: int, dynamics: str) -> SimulatedDevice:
        return SimulatedDevice(seed=seed, dynamics=dynamics,
                               setup={"launch": "chrome", "apps": {"chrome": {"url": "bestbuy.com"}}})

    assert all(shop(s, "none").observe(screenshot=False).hierarchy.find(resource_id="sponsored-ad") is None
               for s in range(4))
    phones = [shop(s, "default") for s in range(8)]
    with_ad = [p for p in phones if p.observe(screenshot=False).hierarchy.find(resource_id="sponsored-ad")]
    assert 0 < len(with_ad) < len(phones)  # seeded: some runs have one, some do not
    phone = with_ad[0]
    name = node(phone, resource_id="sponsored-ad").content_desc.removeprefix("Sponsored: ")
    tap(phone, resource_id="sponsored-ad")
    assert "/site/" in phone.app_state("chrome").url and name in texts(phone)
