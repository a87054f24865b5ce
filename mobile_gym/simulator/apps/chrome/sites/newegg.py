"""newegg.com: dark header with the orange search button ("header-search"), results
(/p/pl?d=...&Order=...), product pages (/<slug>/p/<item number>) and the cart on
secure.newegg.com/shop/cart."""

from __future__ import annotations

import re
from typing import Any

from mobile_gym.simulator.apps.chrome.sites.shop import Product, ShopSite, Sort, money
from mobile_gym.simulator.apps.chrome.sites.widgets import (
    GREEN, INK, MUTED, WHITE, Look, button, cart_link, cart_row, category_chips,
    cookie_banner, footer, heading, link, para, price, product_row, product_tile, rating,
    rule, search_box, section, sort_control, summary_line, thumb,
)
from mobile_gym.simulator.apps.chrome.web import Browser, Url
from mobile_gym.simulator.views import VIEW, Text, View

ORANGE = (247, 140, 0)
LOOK = Look(header=(26, 26, 26), accent=ORANGE, link=(0, 84, 166), button=ORANGE,
            button_fg=WHITE)
CATEGORIES = ("Graphics Cards", "Processors", "SSDs", "Memory", "Motherboards", "Monitors",
              "Gaming Laptops", "Power Supplies")

P = Product
CATALOGUE = (
    P("N82E16814126675", "ASUS TUF Gaming GeForce RTX 4070 Ti SUPER 16GB GDDR6X PCI Express "
      "4.0 Video Card TUF-RTX4070TIS-O16G-GAMING", 799.99, 4.7, 231, "Graphics Cards",
      "gpu video card nvidia"),
    P("N82E16814137771", "MSI Gaming GeForce RTX 4060 8GB GDDR6 PCI Express 4.0 Video Card "
      "RTX 4060 VENTUS 2X BLACK 8G OC", 289.99, 4.6, 512, "Graphics Cards",
      "gpu video card nvidia", was=309.99),
    P("N82E16814932653", "GIGABYTE Radeon RX 7800 XT GAMING OC 16GB GDDR6 PCI Express 4.0 ATX "
      "Video Card GV-R78XTGAMING OC-16GD", 499.99, 4.6, 187, "Graphics Cards",
      "gpu video card amd"),
    P("N82E16814202429", "SAPPHIRE PULSE Radeon RX 7600 8GB GDDR6 PCI Express 4.0 Video Card "
      "11324-01-20G", 249.99, 4.5, 143, "Graphics Cards", "gpu video card amd", was=269.99),
    P("N82E16819113793", "AMD Ryzen 7 7800X3D - Ryzen 7 7000 Series 8-Core Socket AM5 120W "
      "Desktop Processor - 100-100000910WOF", 449.00, 4.9, 1432, "Processors", "cpu amd"),
    P("N82E16819113770", "AMD Ryzen 5 7600X - Ryzen 5 7000 Series 6-Core Socket AM5 105W "
      "Desktop Processor - 100-100000593WOF", 199.00, 4.8, 987, "Processors", "cpu amd",
      was=229.00),
    P("N82E16819118462", "Intel Core i9-14900K - Core i9 14th Gen Raptor Lake 24-Core LGA 1700 "
      "125W Desktop Processor - BX8071514900K", 549.99, 4.6, 421, "Processors", "cpu intel"),
    P("N82E16819118415", "Intel Core i5-13600K - Core i5 13th Gen Raptor Lake 14-Core LGA 1700 "
      "125W Desktop Processor - BX8071513600K", 289.99, 4.8, 1105, "Processors", "cpu intel"),
    P("N82E16820147861", "SAMSUNG 990 PRO 2TB PCIe Gen 4.0 x4 M.2 Internal Solid State Drive "
      "MZ-V9P2T0B/AM", 169.99, 4.8, 865, "SSDs", "ssd nvme storage", was=189.99),
    P("N82E16820250243", "WD_BLACK SN850X NVMe M.2 2280 1TB PCI-Express 4.0 x4 Internal Solid "
      "State Drive (SSD) WDS100T2X0E", 89.99, 4.8, 1523, "SSDs", "ssd nvme storage"),
    P("N82E16820156298", "Crucial P3 Plus 2TB PCIe Gen4 NVMe M.2 SSD CT2000P3PSSD8", 119.99,
      4.6, 644, "SSDs", "ssd nvme storage"),
    P("N82E16820236827", "CORSAIR Vengeance 32GB (2 x 16GB) 288-Pin PC RAM DDR5 6000 Desktop "
      "Memory Model CMK32GX5M2B6000C36", 104.99, 4.8, 2011, "Memory", "ram ddr5"),
    P("N82E16820374351", "G.SKILL Trident Z5 RGB Series 32GB (2 x 16GB) 288-Pin PC RAM DDR5 "
      "6400 Desktop Memory Model F5-6400J3239G16GX2-TZ5RK", 119.99, 4.8, 1288, "Memory",
      "ram ddr5"),
    P("N82E16813119597", "ASUS ROG STRIX B650-A GAMING WIFI AM5 AMD B650 SATA 6Gb/s DDR5 ATX "
      "Motherboard", 229.99, 4.7, 632, "Motherboards", "mobo amd"),
    P("N82E16813144556", "MSI PRO Z790-P WIFI LGA 1700 Intel Z790 SATA 6Gb/s DDR5 ATX "
      "Motherboard", 189.99, 4.5, 407, "Motherboards", "mobo intel", was=219.99),
    P("N82E16824026075", "LG UltraGear 27GR75Q-B 27\" QHD 2560 x 1440 165Hz IPS 1ms HDR10 "
      "G-SYNC Compatible Gaming Monitor", 249.99, 4.7, 389, "Monitors", "display screen"),
    P("N82E16824027143", "Samsung Odyssey G5 32\" QHD 165Hz 1ms Curved Gaming Monitor "
      "LC32G55TQBNXZA", 279.99, 4.6, 974, "Monitors", "display screen"),
    P("N82E16817139272", "CORSAIR RM850x Fully Modular 850W 80 PLUS Gold ATX Power Supply "
      "CP-9020270-NA", 134.99, 4.8, 1733, "Power Supplies", "psu"),
    P("N82E16811146375", "NZXT H5 Flow Compact ATX Mid-Tower PC Gaming Case CC-H51FB-01 Black",
      94.99, 4.7, 512, "Computer Cases", "chassis"),
    P("N82E16835608074", "Noctua NH-D15 chromax.black Dual-Tower CPU Cooler", 119.95, 4.9, 843,
      "CPU Cooling", "fan heatsink"),
    P("N82E16826197336", "Logitech G502 HERO Wired Gaming Mouse, 25,600 DPI", 44.99, 4.8, 3120,
      "Gaming Mice", "mouse"),
    P("N82E16823126582", "Razer BlackWidow V4 Mechanical Gaming Keyboard, Green Switches",
      169.99, 4.6, 211, "Gaming Keyboards", "keyboard"),
    P("N82E16834235972", "ASUS TUF Gaming A15 15.6\" FHD 144Hz Gaming Laptop AMD Ryzen 7 "
      "7735HS 16GB DDR5 512GB SSD GeForce RTX 4050", 849.99, 4.5, 276, "Gaming Laptops",
      "laptop notebook", was=999.99),
    P("N82E16834360289", "Acer Nitro 5 15.6\" Gaming Laptop Intel Core i5-12500H 16GB DDR4 "
      "512GB SSD GeForce RTX 4050", 749.99, 4.4, 198, "Gaming Laptops", "laptop notebook"),
)


def _slug(name: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", name.lower())[:8])


class Newegg(ShopSite):
    key = "newegg"
    host = "www.newegg.com"
    aliases = ("newegg.com", "secure.newegg.com", "newegg")
    name = "Newegg"
    description = ("Shop Newegg for fast & FREE shipping on computer parts, laptops, PC "
                   "components, gaming desktops, monitors and more.")
    catalogue = CATALOGUE
    starter_cart = ("N82E16814137771", "N82E16820236827")
    featured = ("N82E16819113793", "N82E16820147861", "N82E16824026075", "N82E16814126675")
    sorts = (
        Sort("Featured Items", "", "match"),
        Sort("Lowest Price", "1", "price"),
        Sort("Highest Price", "2", "-price"),
        Sort("Best Rating", "4", "rating"),
        Sort("Most Reviews", "5", "reviews"),
    )
    search_path = "/p/pl"
    query_param = "d"
    sort_param = "Order"
    cart_url = "https://secure.newegg.com/shop/cart"
    cart_paths = ("/shop/cart",)
    product_path = r"(?:/[^/]+)?/p/([A-Z0-9]+)"
    added_text = "Item added to cart"

    def product_url(self, p: Product) -> str:
        return f"https://{self.host}/{_slug(p.name)}/p/{p.sku}"

    def route(self, url: Url) -> tuple[str, Any]:
        """secure.newegg.com serves only the cart."""
        if url.host == "secure.newegg.com" and (url.path.rstrip("/") or "/") not in self.cart_paths:
            return "missing", None
        return super().route(url)

    def titles(self, kind: str, arg: Any) -> str:
        if kind == "product":
            return f"{arg.name} - Newegg.com"
        return {
            "home": "Computer Parts, PC Components, Laptop Computers, LED LCD TV, Digital "
                    "Cameras and more - Newegg.com",
            "results": f"{arg} | Newegg.com",
            "cart": "Shopping Cart - Newegg.com",
        }.get(kind, "Page Not Found - Newegg.com")

    # ------------------------------------------------------------------ frame
    def header(self, browser: Browser) -> View:
        n = self.count
        return View(VIEW, [
            View(VIEW, [
                View(VIEW, [
                    View(VIEW, w=22, h=28, radius=11, bg=ORANGE),
                    Text("newegg", size=22, bold=True, fg=WHITE, h=40),
                ], orient="h", w=120, h=40, gap=6, on_click=self.go_home(browser),
                    desc="Newegg", rid="header-logo"),
                View(VIEW, h=40),
                cart_link(self, browser, LOOK, label="", rid="header-cart",
                          desc=f"Shopping Cart, {n} item{'s' if n != 1 else ''}"),
            ], orient="h", h=40),
            search_box(self, browser, LOOK, hint="Search", rid="header-search",
                       button_rid="header-search-button", button_desc="Search"),
        ], bg=LOOK.header, pad=(12, 8, 12, 12), gap=10, rid="header")

    def footer(self) -> View:
        return footer("© 2000-2024 Newegg Inc. All rights reserved.   Terms & Conditions   "
                      "Privacy Policy")

    def banner(self) -> View:
        return cookie_banner(
            self, LOOK, title="Newegg uses cookies",
            message="We use cookies to provide the best shopping experience, analyze site "
                    "traffic and show personalized ads.",
            rid="cookie-banner", accept_rid="cookie-banner-accept",
            close_rid="cookie-banner-close")

    # ------------------------------------------------------------------ pages
    def home_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        return [
            section(heading("BLACK NOVEMBER", 22, fg=WHITE),
                    Text("Doorbusters on PC components all month", size=14, fg=WHITE),
                    bg=(33, 64, 154), pad=(16, 16, 16, 16), gap=4),
            section(heading("Today's Best Deals"), pad=(12, 12, 12, 0)),
            *[product_tile(self, p, browser, LOOK, was="Was: {}") for p in self.deals(3)],
            rule(),
            section(heading("Shop by Category"),
                    *category_chips(self, browser, CATEGORIES, bg=(238, 238, 238), radius=4)),
            rule(),
            section(heading("Trending Now"), pad=(12, 12, 12, 0)),
            *[product_tile(self, self.products[s], browser, LOOK, was="Was: {}")
              for s in self.picks],
        ]

    def results_page(self, query: str, url: Url, browser: Browser) -> list[View | None]:
        hits = self.search(query, self.sort_of(url))
        found = section(para(f'We have found {len(hits)} items that match "{query}".', 15, INK),
                        pad=(12, 12, 12, 0 if hits else 24))
        if not hits:
            return [found, section(
                para("Please try a different search term or browse the categories.", 14, MUTED),
                pad=(12, 0, 12, 24))]
        return [
            found,
            sort_control(self, url, browser, LOOK, label="Sort By:", rid="sort-by"),
            *[v for p in hits for v in (rule(), product_row(
                self, p, browser, LOOK, detail=f"Item #: {p.sku}   Free Shipping",
                was="Was: {}"))],
            rule(),
        ]

    def product_page(self, p: Product, url: Url, browser: Browser) -> list[View | None]:
        return [section(
            para(p.name, 18, INK, rid="product-title"),
            rating(p),
            Text(f"Item #: {p.sku}", size=13, fg=MUTED),
            thumb(p, 240, align="center"),
            Text("In stock.", size=16, bold=True, fg=GREEN),
            price(p, size=28, was="Was: {}", rid="product-price"),
            Text("FREE SHIPPING   Sold and Shipped by Newegg", size=13, fg=MUTED),
            button("Add to Cart", lambda: self.add(p.sku, browser), ORANGE, WHITE, h=48,
                   rid="add-to-cart"),
            pad=(16, 12, 16, 16), gap=10)]

    def cart_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        cart = self.state.cart
        if not cart:
            return [section(
                heading("Shopping Cart", 26),
                heading("Your shopping cart is empty", 18),
                link("Continue Shopping", self.go_home(browser), LOOK.link, size=15),
                pad=(12, 16, 12, 24))]
        n = self.count
        total = money(self.subtotal)
        return [
            section(View(VIEW, [heading("Shopping Cart", 26, w=200),
                                Text(f"({n} Item{'s' if n != 1 else ''})", size=15, fg=MUTED)],
                         orient="h", h=42), pad=(12, 16, 12, 4)),
            *[v for item in cart for v in (rule(), cart_row(self, item, browser, LOOK))],
            rule(),
            section(
                heading("Summary", 18),
                summary_line("Item(s):", total),
                summary_line("Est. Total:", total, bold=True),
                button("Secure Checkout", lambda: browser.toast("Sign in to check out"),
                       ORANGE, WHITE, h=48, rid="secure-checkout"),
                pad=(12, 12, 12, 16)),
        ]

    def missing_page(self, arg: Any, url: Url, browser: Browser) -> list[View | None]:
        return [section(
            heading("Page Not Found", 20),
            para("Sorry, the page you requested could not be found.", 14, MUTED),
            link("Go to Newegg home", self.go_home(browser), LOOK.link, size=15),
            pad=(12, 24, 12, 24))]

