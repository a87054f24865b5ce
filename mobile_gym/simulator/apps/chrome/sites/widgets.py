"""Web widgets the shopping sites share, as Chrome exposes them to uiautomator.

Containers and links are ``android.view.View``, text ``TextView``, buttons ``Button``
(an icon button is a Button holding an image), inputs ``EditText``, images
``ImageView`` with their alt text as content-desc. Pages are always light, whatever the
system theme, so every colour is given explicitly. A site passes its `Look`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mobile_gym.simulator.apps.chrome.web import Browser, Url
from mobile_gym.simulator.apps.chrome.sites.shop import WHITE, CartItem, Product, ShopSite, money
from mobile_gym.simulator.views import (
    BUTTON, IMAGE, VIEW, Button, EditText, Icon, Text, View,
)

Colour = tuple[int, int, int]
Go = Callable[[], None]

INK = (17, 24, 32)
MUTED = (96, 104, 112)
LINE = (221, 221, 221)
STAR = (255, 164, 28)
GREEN = (0, 118, 0)
SALE = (187, 0, 0)
CONTENT_DP = 340  # width text is wrapped to: the narrowest profile's page minus padding


@dataclass(frozen=True)
class Look:
    """A site's colours."""

    header: Colour  # header background
    accent: Colour  # search button, cart badge
    link: Colour  # link text
    button: Colour  # "Add to Cart" background
    button_fg: Colour = INK
    header_fg: Colour = WHITE
    radius: float = 4  # corner radius of the site's buttons


# ---------------------------------------------------------------- text


def lines(text: str, size: float, width: float = CONTENT_DP, most: int = 3) -> int:
    """How many lines ``text`` wraps to (an estimate from the average glyph width)."""
    per_line = max(1, int(width / (size * 0.5)))
    return max(1, min(most, -(-len(text) // per_line)))


def para(text: str, size: float = 14, fg: Colour = INK, *, width: float = CONTENT_DP,
         most: int = 3, **kw) -> View:
    """A paragraph as tall as its wrapped text."""
    return Text(text, size=size, lines=lines(text, size, width, most), fg=fg, **kw)


def link(label: str, go: Go, fg: Colour, *, size: float = 14, width: float = CONTENT_DP,
         most: int = 3, bold: bool = False, desc: str = "", rid: str = "") -> View:
    """An ``<a>``: a clickable View around its text."""
    return View(VIEW, [para(label, size, fg, width=width, most=most, bold=bold)],
                on_click=go, desc=desc, rid=rid)


def section(*views: View | None, pad: tuple[float, float, float, float] = (12, 12, 12, 12),
            gap: float = 8, **kw) -> View:
    """A padded block of the page."""
    return View(VIEW, views, pad=pad, gap=gap, **kw)


def rule() -> View:
    return View(VIEW, h=1, bg=LINE)


def heading(text: str, size: float = 20, fg: Colour = INK, **kw) -> View:
    return Text(text, size=size, bold=True, fg=fg, **kw)


# ---------------------------------------------------------------- controls


def button(label: str, go: Go | None, bg: Colour, fg: Colour = INK, *, h: float = 44,
           radius: float = 4, **kw) -> View:
    return Button(label, go, bg=bg, fg=fg, h=h, radius=radius, **kw)


def icon_button(glyph: str, desc: str, go: Go | None, bg: Colour | None, fg: Colour, *,
                w: float = 48, h: float = 44, rid: str = "", enabled: bool = True,
                radius: float = 0) -> View:
    """A ``<button>`` holding an icon."""
    return View(BUTTON, [Icon(glyph, w=w, h=h, fg=fg if enabled else LINE)], on_click=go,
                desc=desc, bg=bg, w=w, h=h, rid=rid, enabled=enabled, radius=radius,
                style="none")


def badge(count: int, bg: Colour, fg: Colour = INK, rid: str = "") -> View:
    return Text(str(count), size=12, bold=True, bg=bg, fg=fg, w=22, h=22, align="center",
                radius=11, rid=rid)


def search_box(site: ShopSite, browser: Browser, look: Look, *, hint: str, rid: str,
               button_rid: str = "", button_desc: str = "Search") -> View:
    """The header search: input (ENTER searches), a clear button once there is text,
    and the search button."""
    key = site.field
    typed = browser.field(key)
    return View(VIEW, [
        EditText(key, hint=hint, rid=rid, on_submit=lambda text: site.submit(text, browser),
                 style="search", bg=WHITE, fg=INK, radius=4, h=44),
        icon_button("close", "Clear search", lambda: browser.set_field(key, ""), WHITE, MUTED,
                    w=40) if typed else None,
        icon_button("search", button_desc, lambda: site.submit(browser.field(key), browser),
                    look.accent, INK, rid=button_rid),
    ], orient="h", h=44)


def cart_link(site: ShopSite, browser: Browser, look: Look, *, label: str, desc: str,
              rid: str = "", count_rid: str = "", show_zero: bool = False) -> View:
    """The header's cart: icon, label and a badge with the number of items (hidden
    while the cart is empty unless ``show_zero``, as on Amazon)."""
    n = site.count
    width = 8 * len(label) + 4 if label else 0
    return View(VIEW, [
        Icon("cart", w=32, h=40, fg=look.header_fg),
        Text(label, size=13, bold=True, fg=look.header_fg, w=width) if label else None,
        badge(n, look.accent, rid=count_rid) if n or show_zero else None,
    ], orient="h", h=40, w=width + 58, on_click=site.link_to(site.cart_url, browser),
        desc=desc, rid=rid)


# ---------------------------------------------------------------- products

_ART = (  # category words -> (glyph, tint) of the stand-in product photo
    (("game", "console"), "play", (222, 232, 250)),
    (("headphone", "earbud", "audio", "speaker"), "sound", (232, 228, 245)),
    (("laptop", "tablet", "tv", "monitor"), "tabs", (226, 238, 240)),
    (("device", "electronic"), "wifi", (228, 240, 236)),
    (("graphics", "processor", "memory", "ssd", "motherboard", "power", "case", "cooling"),
     "settings", (236, 236, 228)),
    (("book",), "bookmark", (245, 236, 224)),
    (("kitchen", "home"), "home", (240, 232, 226)),
)


def thumb(p: Product, size: float, **kw) -> View:
    """The product photo: a tinted tile with an icon, alt text = product name."""
    category = p.category.lower()
    glyph, tint = next(((g, t) for words, g, t in _ART if any(w in category for w in words)),
                       ("star", (238, 238, 238)))
    return View(IMAGE, icon=glyph, desc=p.name, bg=tint, fg=(120, 128, 140), w=size, h=size,
                radius=6, **kw)


def rating(p: Product, rid: str = "") -> View:
    """"4.7 (1,234 reviews)" after a star, read out in full as the content-desc."""
    text = f"{p.rating:.1f} ({p.reviews:,} reviews)"
    return View(VIEW, [Icon("star", w=18, h=20, fg=STAR), Text(text, size=13, fg=MUTED, h=20)],
                orient="h", h=20, gap=4, rid=rid,
                desc=f"Rating {p.rating:.1f} out of 5 stars with {p.reviews:,} reviews")


def price(p: Product, *, size: float = 20, was: str = "Was {}", rid: str = "") -> View:
    """The price, and the regular price while on sale."""
    return View(VIEW, [
        Text(money(p.price), size=size, bold=True, fg=INK, w=size * 5.2, rid=rid),
        Text(was.format(money(p.was)), size=13, fg=MUTED)
        if p.was else None,
    ], orient="h", h=round(size * 1.45 + 4))


def product_row(site: ShopSite, p: Product, browser: Browser, look: Look, *,
                detail: str = "", was: str = "Was {}", add: str = "Add to Cart") -> View:
    """A search result: photo, linked name, rating, price, a detail line, Add to Cart."""
    open_page = site.link_to(site.product_url(p), browser)
    return View(VIEW, [
        View(VIEW, [thumb(p, 96)], w=96, on_click=open_page),
        View(VIEW, [
            link(p.name, open_page, look.link, width=CONTENT_DP - 110),
            rating(p),
            price(p, was=was),
            Text(detail, size=12, fg=MUTED) if detail else None,
            button(add, lambda: site.add(p.sku, browser), look.button, look.button_fg, h=40,
                   radius=look.radius),
        ], gap=6),
    ], orient="h", gap=12, pad=(12, 12, 12, 12))


def product_tile(site: ShopSite, p: Product, browser: Browser, look: Look, *,
                 was: str = "Was {}") -> View:
    """A compact product card for home-page shelves: photo, name, rating, price."""
    open_page = site.link_to(site.product_url(p), browser)
    return View(VIEW, [
        thumb(p, 72),
        View(VIEW, [
            para(p.name, 14, look.link, width=CONTENT_DP - 90, most=2),
            rating(p),
            price(p, size=16, was=was),
        ], gap=4),
    ], orient="h", gap=12, pad=(12, 8, 12, 8), on_click=open_page)


def sort_control(site: ShopSite, url: Url, browser: Browser, look: Look, *, label: str,
                 rid: str = "") -> View:
    """A "Sort By" select; tapped, it lists the orders in the page (the open list
    lives on the site until a new page loads)."""
    current = site.sort_of(url)
    query = url.query.get(site.query_param, "")
    options = [
        View(VIEW, [
            Text(s.label, size=15, fg=INK, bold=s == current, h=44),
            Icon("check", w=24, h=44, fg=look.link) if s == current else None,
        ], orient="h", h=44, pad=(16, 0, 12, 0), selected=s == current,
            on_click=lambda s=s: site.pick_sort(query, s, browser))
        for s in site.sorts
    ] if site.sort_open else []
    return View(VIEW, [
        View(VIEW, [
            Text(label, size=14, bold=True, fg=INK, w=8 * len(label) + 8, h=44),
            View(VIEW, [
                Text(current.label, size=14, fg=INK, h=44),
                Icon("expand", w=24, h=44, fg=INK),
            ], orient="h", h=44, pad=(12, 0, 8, 0), radius=4, bg=(244, 245, 246),
                on_click=site.toggle_sort, rid=rid, desc=f"{label} {current.label}"),
        ], orient="h", h=44, gap=8, pad=(12, 0, 12, 0)),
        View(VIEW, options, bg=WHITE) if options else None,
    ], gap=4)


# ---------------------------------------------------------------- cart


def stepper(site: ShopSite, item: CartItem) -> View:
    """Quantity: minus (not below 1), the number, plus."""
    return View(VIEW, [
        icon_button("remove", "Decrease quantity", lambda: site.change(item.sku, -1), None,
                    INK, w=40, h=36, enabled=item.quantity > 1),
        Text(str(item.quantity), size=15, bold=True, fg=INK, w=32, h=36, align="center",
             desc=f"Quantity {item.quantity}"),
        icon_button("add", "Increase quantity", lambda: site.change(item.sku, 1), None, INK,
                    w=40, h=36),
    ], orient="h", h=36, w=112, radius=18, bg=(240, 242, 242))


def cart_row(site: ShopSite, item: CartItem, browser: Browser, look: Look, *,
             remove: str = "Remove", remove_rid: str = "") -> View:
    """A cart line: photo, linked name, unit price, quantity stepper, remove link."""
    p = site.products[item.sku]
    open_page = site.link_to(site.product_url(p), browser)
    return View(VIEW, [
        View(VIEW, [thumb(p, 80)], w=80, on_click=open_page),
        View(VIEW, [
            link(item.name, open_page, look.link, width=CONTENT_DP - 100, most=2),
            Text(money(item.price), size=17, bold=True, fg=INK),
            View(VIEW, [
                stepper(site, item),
                View(VIEW, [Text(remove, size=14, fg=look.link, align="center", h=36)],
                     w=8 * len(remove) + 24, h=36, on_click=lambda: site.remove(item.sku),
                     rid=remove_rid, desc=f"{remove} {item.name}"),
            ], orient="h", h=36, gap=12),
        ], gap=6),
    ], orient="h", gap=12, pad=(12, 12, 12, 12))


def category_chips(site: ShopSite, browser: Browser, categories: tuple[str, ...], *,
                   bg: Colour, radius: float) -> list[View]:
    """Category links (each searches for its name), two to a row."""
    chips = [View(VIEW, [Text(c, size=14, fg=INK, align="center", h=36)], h=36, radius=radius,
                  bg=bg, on_click=site.link_to(site.results_url(c), browser)) for c in categories]
    return [View(VIEW, chips[i:i + 2], orient="h", h=36, gap=8) for i in range(0, len(chips), 2)]


def summary_line(label: str, value: str, *, bold: bool = False) -> View:
    """An order-summary line: label left, amount right."""
    return View(VIEW, [Text(label, size=15, bold=bold, fg=INK),
                       Text(value, size=15, bold=bold, fg=INK, align="right")], orient="h", h=26)


# ---------------------------------------------------------------- page frame


def cookie_banner(site: ShopSite, look: Look, *, title: str, message: str,
                  rid: str = "", accept_rid: str = "", close_rid: str = "") -> View:
    """The consent banner over the bottom of the page; Accept or Close dismiss it."""
    return View(VIEW, [
        View(VIEW, h=4, bg=look.header),
        View(VIEW, [
            Text(title, size=16, bold=True, fg=INK),
            para(message, 13, MUTED, width=CONTENT_DP - 40, most=4),
            View(VIEW, [
                button("Accept", site.dismiss_banner, look.header, look.header_fg,
                       rid=accept_rid),
                button("Close", site.dismiss_banner, WHITE, look.link, rid=close_rid),
            ], orient="h", h=44, gap=12),
        ], pad=(16, 8, 16, 12), gap=8),
    ], align="bottom", bg=WHITE, rid=rid, on_click=_absorb)


def _absorb() -> None:
    """Taps on the banner stop there (an HTML overlay takes the click), never reaching
    the page below."""


def footer(text: str) -> View:
    return View(VIEW, [para(text, 12, MUTED, align="center")], bg=(240, 242, 245), pad=16)
