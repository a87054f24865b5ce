"""amazon.com: the dark header with the search bar ("nav-search-keywords") and the cart
("nav-cart", count "nav-cart-count"), results (/s?k=...&s=...), product pages
(/<slug>/dp/<ASIN>) and the cart (/gp/cart/view.html)."""

from __future__ import annotations

import re
from typing import Any

from mobile_gym.simulator.apps.chrome.sites.shop import Product, ShopSite, Sort, money
from mobile_gym.simulator.apps.chrome.sites.widgets import (
    GREEN, INK, MUTED, SALE, WHITE, Look, button, cart_link, cart_row, category_chips,
    cookie_banner, footer, heading, link, para, product_row, product_tile, rating,
    rule, search_box, section, sort_control, thumb,
)
from mobile_gym.simulator.apps.chrome.web import Browser, Url
from mobile_gym.simulator.views import VIEW, Icon, Text, View

NAVY = (19, 25, 33)
YELLOW = (255, 216, 20)
LOOK = Look(header=NAVY, accent=(254, 189, 105), link=(0, 113, 133), button=YELLOW,
            radius=20)
CATEGORIES = ("Video Games", "Electronics", "Headphones", "Books", "Home & Kitchen",
              "Amazon Devices")

P = Product
CATALOGUE = (
    P("B0C8VY6D8J", "Super Mario Bros. Wonder - Nintendo Switch", 57.99, 4.8, 18452,
      "Video Games", was=59.99),
    P("B097B2YWFX", "The Legend of Zelda: Tears of the Kingdom - Nintendo Switch", 59.99, 4.8,
      21744, "Video Games"),
    P("B0CBS4Q4HY", "Marvel's Spider-Man 2 - PlayStation 5", 49.99, 4.7, 9813, "Video Games",
      "ps5", was=69.99),
    P("B01N1037CV", "Mario Kart 8 Deluxe - Nintendo Switch", 49.99, 4.8, 79310, "Video Games",
      was=59.99),
    P("B0CL5KNB9M", "PlayStation 5 Console (Slim)", 499.99, 4.8, 6912, "Video Games",
      "ps5 console"),
    P("B098RKWHHZ", "Nintendo Switch - OLED Model w/ White Joy-Con", 349.99, 4.8, 64120,
      "Video Games", "console"),
    P("B09B8V1LZ3", "Echo Dot (5th Gen, 2022 release) | With bigger vibrant sound, helpful "
      "routines and Alexa | Charcoal", 22.99, 4.7, 153201, "Amazon Devices",
      "alexa smart speaker", was=49.99),
    P("B0BP9SNVH9", "Amazon Fire TV Stick 4K, brilliant 4K streaming quality, TV and free & "
      "live TV", 49.99, 4.7, 82140, "Amazon Devices", "streaming"),
    P("B0CFPJYX7P", "Amazon Kindle Paperwhite (16 GB) - Now with a 7\" display and faster page "
      "turns - Black", 159.99, 4.6, 12407, "Amazon Devices", "e-reader ebook"),
    P("B0BDHWDR12", "Apple AirPods Pro (2nd Generation) Wireless Ear Buds with USB-C "
      "Charging", 189.99, 4.7, 92874, "Headphones", "earbuds apple", was=249.00),
    P("B09XS7JWHH", "Sony WH-1000XM5 The Best Wireless Noise Canceling Headphones, Black",
      328.00, 4.5, 18920, "Headphones", "sony"),
    P("B08PZHYWJS", "Soundcore by Anker Q20i Hybrid Active Noise Cancelling Headphones, "
      "Wireless Over-Ear Bluetooth", 39.99, 4.5, 45310, "Headphones"),
    P("B09V3KXJPB", "Apple iPad (10th Generation): with A14 Bionic chip, 10.9-inch Liquid "
      "Retina Display, 64GB, Wi-Fi 6, Blue", 349.00, 4.8, 15621, "Electronics", "tablet"),
    P("B09HMV6K1W", "Logitech MX Master 3S - Wireless Performance Mouse, Ergo, 8K DPI, Quiet "
      "Clicks, USB-C - Graphite", 99.99, 4.7, 11243, "Electronics", "computer mouse"),
    P("B0BHJJ9Y77", "SAMSUNG 990 PRO SSD 2TB PCIe 4.0 M.2 2280 Internal Solid State Hard "
      "Drive", 169.99, 4.8, 20451, "Electronics", "ssd storage"),
    P("B07Q6ZWMLR", "Anker Portable Charger, 313 Power Bank (PowerCore Slim 10K) 10000mAh",
      21.99, 4.5, 101234, "Electronics", "battery phone"),
    P("B00LH3DMUO", "Amazon Basics AA 1.5 Volt Performance Alkaline Batteries, 48 Count",
      16.99, 4.7, 412530, "Electronics", "batteries"),
    P("B07FDF9B46", "Ninja AF101 Air Fryer that Crisps, Roasts, Reheats, & Dehydrates, 4 "
      "Quart, Black/Gray", 89.99, 4.8, 58231, "Home & Kitchen", "kitchen", was=129.99),
    P("B00FLYWNYQ", "Instant Pot Duo 7-in-1 Electric Pressure Cooker, 6 Quart", 79.99, 4.7,
      167432, "Home & Kitchen", "kitchen"),
    P("B0CJZMP7L1", "Stanley Quencher H2.0 FlowState Stainless Steel Vacuum Insulated Tumbler "
      "with Lid and Straw, 40 oz", 45.00, 4.7, 35120, "Home & Kitchen", "cup bottle"),
    P("B0012YJQWQ", "Crocs Unisex-Adult Classic Clogs", 49.99, 4.8, 432110,
      "Clothing, Shoes & Jewelry", "shoes"),
    P("0735211299", "Atomic Habits: An Easy & Proven Way to Build Good Habits & Break Bad "
      "Ones", 13.79, 4.8, 121340, "Books", "hardcover"),
    P("0593135202", "Project Hail Mary: A Novel", 16.20, 4.7, 89321, "Books", "hardcover"),
    P("B08HVXMQ87", "LEGO Star Wars The Mandalorian's N-1 Starfighter 75325 Building Toy Set",
      39.99, 4.8, 8923, "Toys & Games", "lego"),
    P("B00TTD9BRC", "COSRX Snail Mucin 96% Power Repairing Essence 3.38 fl.oz", 17.00, 4.6,
      98231, "Beauty & Personal Care", "skincare"),
)


def _slug(name: str) -> str:
    return "-".join(re.findall(r"[A-Za-z0-9]+", name)[:8])


class Amazon(ShopSite):
    key = "amazon"
    host = "www.amazon.com"
    aliases = ("amazon.com", "amazon", "smile.amazon.com")
    name = "Amazon"
    description = ("Free shipping on millions of items. Get the best of Shopping and "
                   "Entertainment with Prime. Enjoy low prices and great deals.")
    catalogue = CATALOGUE
    starter_cart = ("B09B8V1LZ3", "0735211299", "B07FDF9B46")
    featured = ("B097B2YWFX", "B0BDHWDR12", "B0CFPJYX7P", "B00FLYWNYQ")
    sorts = (
        Sort("Featured", "", "match"),
        Sort("Price: Low to High", "price-asc-rank", "price"),
        Sort("Price: High to Low", "price-desc-rank", "-price"),
        Sort("Avg. Customer Review", "review-rank", "rating"),
        Sort("Best Sellers", "exact-aware-popularity-rank", "reviews"),
    )
    search_path = "/s"
    query_param = "k"
    sort_param = "s"
    cart_url = "https://www.amazon.com/gp/cart/view.html"
    cart_paths = ("/gp/cart/view.html", "/cart")
    product_path = r"(?:/[^/]+)?/(?:dp|gp/product)/([A-Z0-9]{10})(?:/.*)?"
    added_text = "Added to Cart"

    def product_url(self, p: Product) -> str:
        return f"https://{self.host}/{_slug(p.name)}/dp/{p.sku}"

    def titles(self, kind: str, arg: Any) -> str:
        if kind == "product":
            return f"Amazon.com: {arg.name}"
        return {
            "home": "Amazon.com. Spend less. Smile more.",
            "results": f"Amazon.com : {arg}",
            "cart": "Amazon.com Shopping Cart",
        }.get(kind, "Page Not Found")

    # ------------------------------------------------------------------ frame
    def header(self, browser: Browser) -> View:
        n = self.count
        return View(VIEW, [
            View(VIEW, [
                View(VIEW, [Text("amazon", size=24, bold=True, fg=WHITE, h=40)], w=110, h=40,
                     on_click=self.go_home(browser), desc="Amazon", rid="nav-logo-sprites"),
                View(VIEW, h=40),
                cart_link(self, browser, LOOK, label="", rid="nav-cart", count_rid="nav-cart-count",
                          desc=f"{n} item{'s' if n != 1 else ''} in cart", show_zero=True),
            ], orient="h", h=40, pad=(12, 0, 12, 0)),
            View(VIEW, [search_box(self, browser, LOOK, hint="Search Amazon",
                                   rid="nav-search-keywords", button_rid="nav-search-submit-button",
                                   button_desc="Go")], pad=(12, 0, 12, 0)),
            View(VIEW, [
                Icon("location", w=24, h=36, fg=WHITE),
                Text("Deliver to New York 10001", size=13, fg=WHITE, h=36),
            ], orient="h", h=36, gap=6, bg=(35, 47, 62), pad=(12, 0, 12, 0),
                rid="glow-ingress-block"),
        ], bg=NAVY, pad=(0, 8, 0, 0), gap=10, rid="nav-main")

    def footer(self) -> View:
        return footer("Conditions of Use   Privacy Notice   © 1996-2024, Amazon.com, Inc. or "
                      "its affiliates")

    def banner(self) -> View:
        return cookie_banner(
            self, LOOK, title="Select your cookie preferences",
            message="We use cookies and similar tools that are necessary to enable you to make "
                    "purchases, to enhance your shopping experiences and to provide our services.",
            rid="sp-cc", accept_rid="sp-cc-accept", close_rid="sp-cc-rejectall-link")

    # ------------------------------------------------------------------ pages
    def home_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        return [
            section(heading("Shop Black Friday Week deals", 20, fg=INK),
                    Text("Up to 40% off top brands", size=14, fg=MUTED),
                    bg=(254, 249, 225), pad=(16, 16, 16, 16), gap=4),
            section(heading("Today's Deals"), pad=(12, 12, 12, 0)),
            *[product_tile(self, p, browser, LOOK, was="List: {}") for p in self.deals(3)],
            rule(),
            section(heading("Shop by category"),
                    *category_chips(self, browser, CATEGORIES, bg=(234, 237, 237), radius=18)),
            rule(),
            section(heading("Keep shopping for"), pad=(12, 12, 12, 0)),
            *[product_tile(self, self.products[s], browser, LOOK, was="List: {}")
              for s in self.picks],
        ]

    def results_page(self, query: str, url: Url, browser: Browser) -> list[View | None]:
        hits = self.search(query, self.sort_of(url))
        if not hits:
            return [section(
                heading(f"No results for {query}.", 18, lines=2),
                para("Try checking your spelling or use more general terms", 14, MUTED),
                pad=(12, 16, 12, 24))]
        return [
            section(para(f'{len(hits)} results for "{query}"', 15, INK), pad=(12, 12, 12, 0)),
            sort_control(self, url, browser, LOOK, label="Sort by:", rid="s-result-sort-select"),
            *[v for p in hits for v in (rule(), product_row(
                self, p, browser, LOOK, detail="FREE delivery on eligible orders",
                was="List: {}"))],
            rule(),
        ]

    def product_page(self, p: Product, url: Url, browser: Browser) -> list[View | None]:
        off = round(100 * (1 - p.price / p.was)) if p.was else 0
        return [section(
            rating(p, rid="averageCustomerReviews"),
            para(p.name, 16, INK, rid="productTitle"),
            thumb(p, 240, align="center"),
            View(VIEW, [
                Text(f"-{off}%", size=22, fg=SALE, w=64) if off else None,
                Text(money(p.price), size=26, bold=True, fg=INK),
            ], orient="h", h=40, rid="corePrice_feature_div"),
            Text(f"List Price: {money(p.was)}", size=13, fg=MUTED) if p.was else None,
            Text("FREE delivery on orders over $35 shipped by Amazon", size=14, fg=INK),
            Text("In Stock", size=18, fg=GREEN),
            button("Add to Cart", lambda: self.add(p.sku, browser), YELLOW, INK, h=48,
                   radius=24, rid="add-to-cart-button"),
            button("Buy Now", lambda: browser.toast("Sign in to continue"), (255, 164, 28), INK,
                   h=48, radius=24, rid="buy-now-button"),
            Text("Ships from Amazon.com   Sold by Amazon.com", size=13, fg=MUTED),
            pad=(16, 12, 16, 16), gap=10)]

    def cart_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        cart = self.state.cart
        if not cart:
            return [section(
                heading("Your Amazon Cart is empty", 22, lines=2),
                link("Shop today's deals", self.go_home(browser), LOOK.link, size=15),
                pad=(12, 20, 12, 24), rid="sc-active-cart")]
        n = self.count
        items = f"{n} item{'s' if n != 1 else ''}"
        return [
            section(
                heading("Shopping Cart", 26),
                View(VIEW, [
                    Text(f"Subtotal ({items}):", size=17, fg=INK, w=160,
                         rid="sc-subtotal-label-activecart"),
                    Text(money(self.subtotal), size=17, bold=True, fg=INK,
                         rid="sc-subtotal-amount-activecart"),
                ], orient="h", h=28),
                button(f"Proceed to checkout ({items})", lambda: browser.toast("Sign in to "
                       "continue"), YELLOW, INK, h=48, radius=24, rid="sc-buy-box-ptc-button"),
                pad=(12, 16, 12, 12)),
            View(VIEW, [v for item in cart for v in (
                rule(), cart_row(self, item, browser, LOOK, remove="Delete"))],
                rid="sc-active-cart"),
            rule(),
        ]

    def missing_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        return [section(
            heading("Sorry! We couldn't find that page.", 20, lines=2),
            para("Try searching or go to Amazon's home page.", 14, MUTED),
            link("Go to Amazon's home page", self.go_home(browser), LOOK.link, size=15),
            pad=(12, 24, 12, 24))]
