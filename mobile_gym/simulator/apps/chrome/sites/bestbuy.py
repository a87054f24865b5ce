"""bestbuy.com: blue header with the yellow tag logo, search ("gh-search-input"), a
sortable results page (/site/searchpage.jsp?st=...&sp=...), product pages
(/site/<slug>/<sku>.p?skuId=<sku>) and the cart (/cart)."""

from __future__ import annotations

import re
from typing import Any

from mobile_gym.simulator.apps.chrome.sites.shop import Product, ShopSite, Sort, money
from mobile_gym.simulator.apps.chrome.sites.widgets import (
    INK, MUTED, SALE, WHITE, Look, button, cart_link, cart_row, category_chips, cookie_banner,
    footer, heading, link, para, price, product_row, product_tile, rating, rule, search_box,
    section, sort_control, summary_line, thumb,
)
from mobile_gym.simulator.apps.chrome.web import Browser, Url
from mobile_gym.simulator.views import VIEW, Text, View

YELLOW = (255, 224, 0)
LOOK = Look(header=(0, 70, 190), accent=YELLOW, link=(0, 70, 190), button=YELLOW)
CATEGORIES = ("Video Games", "Laptops", "TVs", "Headphones", "Tablets", "Video Game Consoles")

P = Product
CATALOGUE = (
    # video games
    P("6546996", "Super Mario Bros. Wonder - Nintendo Switch", 59.99, 4.8, 2614, "Video Games"),
    P("6531795", "The Legend of Zelda: Tears of the Kingdom - Nintendo Switch", 69.99, 4.8, 5120,
      "Video Games"),
    P("6539990", "Marvel's Spider-Man 2 - PlayStation 5", 49.99, 4.7, 3402, "Video Games",
      "ps5", was=69.99),
    P("5723304", "Mario Kart 8 Deluxe - Nintendo Switch", 59.99, 4.9, 12873, "Video Games"),
    P("6403418", "Animal Crossing: New Horizons - Nintendo Switch", 59.99, 4.8, 9341,
      "Video Games"),
    P("6553245", "EA SPORTS FC 24 Standard Edition - PlayStation 5", 29.99, 4.3, 1187,
      "Video Games", "ps5 soccer fifa", was=69.99),
    P("6554394", "Call of Duty: Modern Warfare III - Xbox Series X", 49.99, 4.1, 1455,
      "Video Games", "cod"),
    P("6509684", "Hogwarts Legacy Standard Edition - PlayStation 5", 39.99, 4.7, 4210,
      "Video Games", "ps5 harry potter"),
    P("6493548", "Elden Ring Standard Edition - Xbox Series X", 39.99, 4.6, 2034, "Video Games"),
    P("6476917", "Minecraft - Nintendo Switch", 29.99, 4.8, 8765, "Video Games"),
    P("6548270", "Madden NFL 24 - Xbox Series X", 39.99, 4.0, 902, "Video Games", "football"),
    P("6529701", "Starfield Standard Edition - Xbox Series X", 49.99, 3.9, 1288, "Video Games"),
    P("6507813", "Pokémon Scarlet - Nintendo Switch", 59.99, 4.6, 3877, "Video Games", "pokemon"),
    # consoles
    P("6470923", "Nintendo Switch - OLED Model with White Joy-Con - White", 349.99, 4.9, 9876,
      "Video Game Consoles", "console"),
    P("6566039", "Sony - PlayStation 5 Slim Console - White", 449.99, 4.8, 3112,
      "Video Game Consoles", "ps5 console", was=499.99),
    P("6428324", "Microsoft - Xbox Series X 1TB Console - Black", 499.99, 4.8, 7654,
      "Video Game Consoles", "console"),
    # laptops
    P("6509650", "Apple - MacBook Air 13-inch Laptop - M2 chip - 8GB Memory - 256GB SSD - "
      "Midnight", 799.00, 4.8, 4532, "Laptops", "mac computer", was=999.00),
    P("6534641", "Apple - MacBook Pro 14-inch Laptop - M3 chip - 8GB Memory - 512GB SSD - "
      "Space Gray", 1599.00, 4.8, 1203, "Laptops", "mac computer"),
    P("6540660", "HP - 15.6\" Touch-Screen Laptop - Intel Core i5 - 8GB Memory - 512GB SSD - "
      "Natural Silver", 479.99, 4.4, 1876, "Laptops", "computer", was=629.99),
    P("6536972", "Dell - Inspiron 14 2-in-1 Touch Laptop - AMD Ryzen 5 - 8GB Memory - 512GB "
      "SSD - Platinum Silver", 549.99, 4.3, 654, "Laptops", "computer"),
    P("6542112", "Lenovo - IdeaPad Slim 3 15.6\" Laptop - AMD Ryzen 7 - 16GB Memory - 512GB "
      "SSD - Arctic Grey", 529.99, 4.5, 987, "Laptops", "computer"),
    P("6535498", "ASUS - ROG Strix G16 16\" Gaming Laptop - Intel Core i7 - 16GB Memory - "
      "NVIDIA GeForce RTX 4060 - 1TB SSD - Eclipse Gray", 1299.99, 4.6, 412, "Laptops",
      "computer"),
    P("6548374", "Microsoft - Surface Laptop Go 3 - 12.4\" Touch-Screen - Intel Core i5 - "
      "8GB Memory - 256GB SSD - Platinum", 599.99, 4.5, 321, "Laptops", "computer"),
    P("6555961", "Acer - Chromebook Plus 514 - 14\" Full HD Laptop - Intel Core i3 - 8GB "
      "Memory - 128GB SSD - Iron", 399.00, 4.4, 278, "Laptops", "computer"),
    # TVs
    P("6537363", "Samsung - 65\" Class CU7000 Crystal UHD 4K Smart Tizen TV", 449.99, 4.6,
      6543, "TVs", "television"),
    P("6535932", "LG - 55\" Class C3 Series OLED 4K UHD Smart webOS TV", 1299.99, 4.8, 1987,
      "TVs", "television", was=1499.99),
    P("6532154", "Sony - 65\" Class BRAVIA XR X90L 4K HDR Full Array LED Google TV", 999.99,
      4.7, 1321, "TVs", "television"),
    P("6538107", "TCL - 50\" Class S4 S-Class 4K UHD HDR LED Smart Google TV", 249.99, 4.5,
      2345, "TVs", "television"),
    P("6518313", "Insignia - 43\" Class F30 Series LED 4K UHD Smart Fire TV", 199.99, 4.6,
      14567, "TVs", "television", was=269.99),
    P("6532166", "Hisense - 75\" Class U8 Series Mini-LED QLED 4K UHD Google TV", 1199.99, 4.6,
      876, "TVs", "television"),
    P("6535710", "Samsung - 55\" Class S90C OLED 4K UHD Smart Tizen TV", 1399.99, 4.7, 1100,
      "TVs", "television"),
    # headphones
    P("6505727", "Sony - WH-1000XM5 Wireless Noise-Canceling Over-the-Ear Headphones - Black",
      329.99, 4.6, 5432, "Headphones", "wireless", was=399.99),
    P("6447382", "Apple - AirPods Pro (2nd generation) with MagSafe Case (USB-C) - White",
      249.99, 4.7, 21345, "Headphones", "earbuds"),
    P("6554459", "Bose - QuietComfort Ultra Wireless Noise Cancelling Over-the-Ear Headphones "
      "- Black", 429.00, 4.5, 1876, "Headphones", "wireless"),
    P("6501022", "Beats - Studio Pro Wireless Noise Cancelling Over-the-Ear Headphones - Black",
      349.99, 4.5, 2222, "Headphones", "wireless"),
    P("6455000", "JBL - Tune 510BT Wireless On-Ear Headphones - Black", 49.99, 4.5, 6789,
      "Headphones", "wireless"),
    P("6512604", "Samsung - Galaxy Buds2 Pro True Wireless Noise Cancelling Earbuds - Graphite",
      229.99, 4.4, 3456, "Headphones", "earbuds"),
    P("6553604", "Sony - WF-1000XM5 True Wireless Noise Cancelling Earbuds - Black", 299.99,
      4.5, 1234, "Headphones", "earbuds"),
    # tablets
    P("5200900", "Apple - 10.9-Inch iPad (Latest Model) with Wi-Fi - 64GB - Blue", 349.99, 4.8,
      8321, "Tablets", "ipad"),
    P("6409170", "Samsung - Galaxy Tab S9 FE - 10.9\" 128GB - Wi-Fi - Gray", 449.99, 4.6, 612,
      "Tablets", "android"),
)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class BestBuy(ShopSite):
    key = "bestbuy"
    host = "www.bestbuy.com"
    aliases = ("bestbuy.com", "m.bestbuy.com", "bestbuy")
    name = "Best Buy"
    description = ("Shop Best Buy for electronics, computers, appliances, cell phones, video "
                   "games & more new tech. In-store pickup & free shipping.")
    catalogue = CATALOGUE
    starter_cart = ("6546996", "6505727")
    featured = ("6531795", "6470923", "6509650", "6537363")
    sorts = (
        Sort("Best Match", "", "match"),
        Sort("Price Low to High", "+currentprice", "price"),
        Sort("Price High to Low", "-currentprice", "-price"),
        Sort("Best Rated", "-customerrating", "rating"),
    )
    search_path = "/site/searchpage.jsp"
    query_param = "st"
    sort_param = "sp"
    cart_url = "https://www.bestbuy.com/cart"
    product_path = r"/site/(?:[^/]+/)?(\d+)\.p"
    added_text = "Added to cart"

    def product_url(self, p: Product) -> str:
        return f"https://{self.host}/site/{_slug(p.name)}/{p.sku}.p?skuId={p.sku}"

    def titles(self, kind: str, arg: Any) -> str:
        if kind == "product":
            return f"{arg.name} - Best Buy"
        return {
            "home": "Best Buy | Official Online Store | Shop Now & Save",
            "results": f"{arg} - Best Buy",
            "cart": "Cart - Best Buy",
        }.get(kind, "Page Not Found - Best Buy")

    # ------------------------------------------------------------------ frame
    def header(self, browser: Browser) -> View:
        n = self.count
        return View(VIEW, [
            View(VIEW, [
                View(VIEW, [Text("BEST BUY", size=16, bold=True, fg=INK, align="center", h=40)],
                     bg=YELLOW, w=104, h=40, on_click=self.go_home(browser),
                     desc="Best Buy Logo", rid="logo"),
                View(VIEW, h=40),
                cart_link(self, browser, LOOK, label="Cart", rid="cart-link",
                          desc=f"Cart, {n} item{'s' if n != 1 else ''}"),
            ], orient="h", h=40),
            search_box(self, browser, LOOK, hint="What can we help you find today?",
                       rid="gh-search-input", button_rid="gh-search-button",
                       button_desc="submit search"),
        ], bg=LOOK.header, pad=(12, 8, 12, 12), gap=10, rid="shop-header")

    def footer(self) -> View:
        return footer("© 2024 Best Buy. All rights reserved. Prices and offers are subject "
                      "to change.")

    def banner(self) -> View:
        return cookie_banner(
            self, LOOK, title="We value your privacy",
            message="Best Buy uses cookies and similar technologies to improve your "
                    "experience, personalize ads and analyze traffic.",
            rid="cookie-consent", accept_rid="cookie-consent-accept",
            close_rid="cookie-consent-close")

    # ------------------------------------------------------------------ pages
    def home_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        return [
            section(heading("Black Friday Deals", 22, fg=WHITE),
                    Text("Save on tech you'll love. New deals every day.", size=14, fg=WHITE),
                    bg=(0, 46, 126), pad=(16, 16, 16, 16), gap=4),
            section(heading("Top Deals"), pad=(12, 12, 12, 0)),
            *[product_tile(self, p, browser, LOOK) for p in self.deals(3)],
            rule(),
            section(heading("Shop by Category"),
                    *category_chips(self, browser, CATEGORIES, bg=(240, 242, 245), radius=18)),
            rule(),
            section(heading("Recommended for You"), pad=(12, 12, 12, 0)),
            *[product_tile(self, self.products[s], browser, LOOK) for s in self.picks],
        ]

    def results_page(self, query: str, url: Url, browser: Browser) -> list[View | None]:
        hits = self.search(query, self.sort_of(url))
        if not hits:
            return [section(
                heading(f'Hmm, we didn\'t find anything for "{query}".', 18, lines=2),
                para("Try a different search, check the spelling or browse our categories.",
                     14, MUTED), pad=(12, 16, 12, 24))]
        return [
            section(para(f'{len(hits)} results for "{query}"', 16, INK), pad=(12, 12, 12, 0)),
            sort_control(self, url, browser, LOOK, label="Sort By", rid="sort-by-select"),
            *[v for p in hits for v in (rule(), product_row(
                self, p, browser, LOOK, detail=f"SKU: {p.sku}", was="Was {}"))],
            rule(),
        ]

    def product_page(self, p: Product, url: Url, browser: Browser) -> list[View | None]:
        return [section(
            para(p.name, 20, INK),
            Text(f"SKU: {p.sku}", size=13, fg=MUTED),
            rating(p),
            thumb(p, 240, align="center"),
            price(p, size=28, was="Was {}"),
            Text(f"Save {money(p.was - p.price)}", size=14, bold=True, fg=SALE)
            if p.was else None,
            button("Add to Cart", lambda: self.add(p.sku, browser), YELLOW, INK, h=48),
            Text("FREE Shipping on orders $35 and up", size=14, fg=INK),
            Text("Pickup: Ready within 1 hour", size=14, fg=MUTED),
            pad=(16, 12, 16, 16), gap=10)]

    def cart_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        cart = self.state.cart
        title = section(heading("Cart", 26), pad=(12, 16, 12, 4))
        if not cart:
            return [title, section(
                heading("Your cart is empty", 18),
                para("Sign in to see items you may have added previously.", 14, MUTED),
                link("Continue shopping", self.go_home(browser), LOOK.link, size=15),
                pad=(12, 4, 12, 24))]
        total = money(self.subtotal)
        return [
            title,
            *[v for item in cart for v in (rule(), cart_row(self, item, browser, LOOK))],
            rule(),
            section(
                heading("Order Summary", 18),
                summary_line("Original Price", total),
                summary_line("Total", total, bold=True),
                button("Checkout", lambda: browser.toast("Sign in to check out"), YELLOW, INK,
                       h=48, rid="checkout-button"),
                pad=(12, 12, 12, 16)),
        ]

    def missing_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        return [section(
            heading("Sorry, something went wrong.", 20),
            para("The page you're looking for can't be found.", 14, MUTED),
            link("Go to Best Buy home", self.go_home(browser), LOOK.link, size=15),
            pad=(12, 24, 12, 24))]

