"""Synthetic LlamaTouch-style episodes for the evaluator benchmark.

Each episode is a shopping task in one of several apps: home -> search -> results ->
product -> cart. The ground truth (format A) is annotated on three or four of its
screens; the execution trace (format B) has 10 steps with a detour, re-ordered and
re-priced content (dynamics) and, for about a third of the episodes, a wrong turn that
makes it fail. Screens are real-looking uiautomator dumps (~110 nodes) with 1080x2400
screenshots; each distinct screen's PNG is encoded once and copied into the traces.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from lxml import etree
from PIL import Image, ImageDraw

from mobile_gym.actions import Action
from mobile_gym.formats.agentenv import write_trace
from mobile_gym.formats.llamatouch import write_ground_truth
from mobile_gym.matcher.annotation import parse_ess
from mobile_gym.trace import Trace, UIState
from mobile_gym.ui.components import component_list
from mobile_gym.ui.hierarchy import ViewHierarchy

W, H = 1080, 2400
APPS = ["bestbuy", "amazon", "newegg", "walmart", "ebay", "target", "etsy", "costco"]
PRODUCTS = [
    "Sony WH-1000XM5 Headphones", "Apple AirPods Pro", "JBL Flip 6 Speaker", "Samsung 55in QLED TV",
    "Logitech MX Master 3S", "Nintendo Switch OLED", "Kindle Paperwhite", "Anker Power Bank",
    "Dell UltraSharp Monitor", "Bose SoundLink Flex", "Canon EOS R50", "Fitbit Charge 6",
    "Razer BlackWidow Keyboard", "SanDisk 1TB SSD", "GoPro HERO12", "Instant Pot Duo",
]
# (annotated query, the execution's paraphrase of it)
QUERIES = [("headphones", "wireless headphones"), ("microsoft excel", "excel"), ("laptop", "laptops"),
           ("tv", "tvs"), ("bluetooth speaker", "speaker bluetooth"), ("camera", "cameras")]
SCREENS = ("home", "search", "results", "product", "cart")


@dataclass(frozen=True)
class Screen:
    app: str
    kind: str
    variant: int  # dynamics: order and prices of the list
    query: str = ""

    @property
    def package(self) -> str:
        return f"com.{self.app}.android"

    @property
    def activity(self) -> str:
        return f"{self.package}/.{self.kind.capitalize()}Activity"


def _node(parent, cls, bounds, *, text="", rid="", desc="", package="", **flags):
    attrs = {
        "index": str(len(parent)), "text": text, "resource-id": rid, "class": cls, "package": package,
        "content-desc": desc, "checkable": "false", "checked": "false", "clickable": "false", "enabled": "true",
        "focusable": "false", "focused": "false", "scrollable": "false", "long-clickable": "false",
        "password": "false", "selected": "false", "bounds": "[{},{}][{},{}]".format(*bounds),
    }
    attrs.update({k.replace("_", "-"): "true" if v else "false" for k, v in flags.items()})
    return etree.SubElement(parent, "node", attrs)


def render(screen: Screen) -> tuple[str, Image.Image]:
    """The dump and screenshot of a screen."""
    rng = random.Random(f"{screen.app}/{screen.kind}/{screen.variant}")
    # a product page keeps its items across visits; only their prices change
    items_rng = random.Random(f"{screen.app}/{screen.kind}" if screen.kind == "product" else rng.random())
    pkg, rid = screen.package, (lambda name: f"{screen.package}:id/{name}")
    image = Image.new("RGB", (W, H), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    root = etree.Element("hierarchy", rotation="0")
    frame = _node(root, "android.widget.FrameLayout", (0, 0, W, H), package=pkg)
    _node(frame, "android.view.View", (0, 0, W, 63), rid="android:id/statusBarBackground", package=pkg)
    bar = _node(frame, "android.widget.LinearLayout", (0, 63, W, 250), rid=rid("toolbar"), package=pkg)
    _node(bar, "android.widget.ImageButton", (0, 63, 160, 250), desc="Navigate up", package=pkg, clickable=True)
    title = {"home": screen.app.capitalize(), "search": "Search", "results": f"Results for {screen.query}",
             "product": PRODUCTS[APPS.index(screen.app) % len(PRODUCTS)], "cart": "Cart"}[screen.kind]
    _node(bar, "android.widget.TextView", (180, 100, 900, 210), text=title, rid=rid("title"), package=pkg)
    draw.rectangle((0, 63, W, 250), fill=(20, 60, 140))
    draw.text((200, 140), title, fill=(255, 255, 255))
    query = "" if screen.kind == "product" else screen.query
    _node(frame, "android.widget.EditText", (40, 270, 1040, 390), text=query or "Search", rid=rid("search"),
          package=pkg, clickable=True, focusable=True, focused=screen.kind == "search")
    draw.rectangle((40, 270, 1040, 390), outline=(120, 120, 120), width=3)
    draw.text((70, 320), query or "Search", fill=(60, 60, 60))
    items = list(PRODUCTS)
    items_rng.shuffle(items)
    count = {"home": 8, "search": 6, "results": 12, "product": 4, "cart": 2}[screen.kind]
    lst = _node(frame, "androidx.recyclerview.widget.RecyclerView", (0, 410, W, 2100), rid=rid("list"),
                package=pkg, scrollable=True)
    for i, name in enumerate(items[:count]):
        top = 410 + i * 140
        if top + 130 > 2100:
            break
        row = _node(lst, "android.widget.LinearLayout", (0, top, W, top + 130), rid=rid("item"), package=pkg,
                    clickable=True, focusable=True)
        _node(row, "android.widget.ImageView", (30, top + 10, 140, top + 120), rid=rid("thumb"), package=pkg)
        colour = tuple(rng.randrange(40, 220) for _ in range(3))
        draw.ellipse((30, top + 10, 140, top + 120), fill=colour)
        _node(row, "android.widget.TextView", (160, top + 10, 800, top + 60), text=name, rid=rid("name"), package=pkg)
        price = f"${rng.randrange(20, 900)}.99"
        _node(row, "android.widget.TextView", (160, top + 70, 400, top + 120), text=price, rid=rid("price"), package=pkg)
        _node(row, "android.widget.ImageButton", (960, top + 30, 1040, top + 110), rid=rid("favorite"), package=pkg,
              clickable=True)
        draw.text((160, top + 20), name, fill=(0, 0, 0))
        draw.text((160, top + 80), price, fill=(0, 120, 0))
        draw.polygon([(1000, top + 30), (1040, top + 110), (960, top + 110)], fill=(200, 40, 40))
    if screen.kind == "product":
        _node(frame, "android.widget.Button", (40, 1950, 1040, 2080), text="Add to Cart", rid=rid("add"), package=pkg,
              clickable=True)
        draw.rectangle((40, 1950, 1040, 2080), fill=(255, 200, 0))
    nav = _node(frame, "android.widget.LinearLayout", (0, 2120, W, 2400), rid=rid("nav"), package=pkg)
    for i, tab in enumerate(("Home", "Search", "Account", "Cart")):
        left = i * 270
        cell = _node(nav, "android.widget.FrameLayout", (left, 2120, left + 270, 2400), desc=tab, package=pkg,
                     clickable=True, selected=tab.lower() == screen.kind)
        _node(cell, "android.widget.ImageView", (left + 95, 2150, left + 175, 2230), rid=rid("icon"), package=pkg)
        _node(cell, "android.widget.TextView", (left + 60, 2250, left + 210, 2300), text=tab, package=pkg)
        draw.rectangle((left + 95, 2150, left + 175, 2230), fill=(30 + 50 * i, 90, 200 - 40 * i))
    return etree.tostring(root, encoding="unicode", xml_declaration=False), image


class ScreenPool:
    """Renders each distinct screen once and keeps its PNG on disk."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._cache: dict[Screen, tuple[str, Path]] = {}

    def state(self, screen: Screen, action: Action | None) -> UIState:
        if screen not in self._cache:
            xml, image = render(screen)
            path = self.folder / f"{len(self._cache)}.png"
            image.save(path)
            self._cache[screen] = (xml, path)
        xml, path = self._cache[screen]
        return UIState(xml=xml, screenshot_path=path, activity=screen.activity, action=action, screen_size=(W, H))


def _component(state: UIState, **attrs) -> int:
    for c in component_list(ViewHierarchy(state.xml)):
        if all(getattr(c, k) == v for k, v in attrs.items()):
            return c.id
    raise LookupError(attrs)


def make_episode(pool: ScreenPool, dataset: Path, traces: Path, episode: int, *, fuzzy: bool) -> bool:
    """Write one episode in both formats; returns whether its execution should succeed."""
    rng = random.Random(episode)
    app = APPS[episode % len(APPS)]
    query, alternative = QUERIES[episode % len(QUERIES)]
    tap_search = Action.click(0.5, 330 / H)
    tap_item = Action.click(0.4, (410 + 65) / H)
    tap_add = Action.click(0.5, 2010 / H)
    tap_cart = Action.click((810 + 135) / W, 2260 / H)

    def screen(kind, variant=0, q=""):
        return Screen(app, kind, variant, q)

    gt = [
        pool.state(screen("home"), tap_search),
        pool.state(screen("search"), Action.type_text(query)),
        pool.state(screen("results", 0, query), tap_item),
        pool.state(screen("product", 0, query), tap_add),
        pool.state(screen("cart", 1), None),
    ]
    name_on_product = _component(gt[3], resource_id=f"com.{app}.android:id/title")
    search_box = _component(gt[2], resource_id=f"com.{app}.android:id/search")
    first_item = ViewHierarchy(gt[2].xml).find(resource_id=f"com.{app}.android:id/item").xpath
    cart_title = _component(gt[4], text="Cart")
    icon = _component(gt[4], resource_id=f"com.{app}.android:id/icon")
    if fuzzy:
        annotations = {2: f"activity<0>|fuzzy<{search_box}>", 3: "fuzzy<-1>", 4: f"activity<0>|fuzzy<{cart_title}>"}
    else:
        annotations = {1: "activity<0>|type<%s>" % query, 2: f"activity<0>|click<{first_item}>",
                       3: f"activity<0>|exact<{name_on_product}>", 4: f"activity<0>|exact<{cart_title}>"}
        if episode % 5 == 0:  # a text-less icon: judged by its screenshot patch
            annotations[4] += f"|exact<{icon}>"
    write_ground_truth(
        dataset / "webshopping" / f"trace_{episode}", Trace.from_states(gt),
        {i: parse_ess(text) for i, text in annotations.items()},
        episode=f"ep{episode:04d}", instruction=f"Add a {query} to the cart on {app}.",
    )

    succeed = rng.random() < 0.65
    typed = (alternative if fuzzy else query) if succeed else "gift card"
    detour_app = APPS[(episode + 3) % len(APPS)]
    v = 2 + 2 * episode  # this run's dynamics: its own prices and list order
    steps = [
        (Screen(detour_app, "home", 0), Action.back()),
        (screen("home", 2), tap_search),
        (screen("search", 2), Action.type_text(typed)),
        (screen("results", v, typed), Action.swipe(0.5, 0.8, 0.5, 0.3)),
        (screen("results", v, typed), tap_item),
        (screen("product", v, typed), Action.back()),
        (screen("results", v + 1, typed), tap_item),
        (screen("product", v + 1, typed), tap_add if succeed else Action.back()),
        (screen("cart", v) if succeed else screen("home", 1), tap_cart if succeed else Action.home()),
        (screen("cart", v) if succeed else Screen(detour_app, "home", 1), Action.complete()),
    ]
    states = [pool.state(s, a) for s, a in steps]
    write_trace(traces / f"ep{episode:04d}", Trace.from_states(states, installed_packages=frozenset({f"com.{app}.android"})))
    return succeed
