"""The contract between Chrome and the web sites it shows.

A `Site` is a small web app: it owns its persistent state (a cart, a signed-in user)
and turns a URL into the content of Chrome's WebView. Chrome owns tabs, history and the
toolbar; it gives each page a `Browser` to navigate, read form fields and show toasts.
Web content is made of the classes Chrome exposes to uiautomator (``android.view.View``,
``TextView``, ``Button``, ``EditText``, ``CheckBox``, ``Image``), and an element's HTML id
is reported as its resource-id, as Chrome does.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Hashable, Mapping, Protocol
from urllib.parse import SplitResult, parse_qs, urlsplit

import numpy as np

from mobile_gym.simulator.app import configure_fields
from mobile_gym.simulator.views import View


class Browser(Protocol):
    """What a page may ask of the tab that shows it."""

    rng: np.random.Generator  # the device's seeded generator

    def navigate(self, url: str) -> None:
        """Load ``url`` in this tab (pushes tab history)."""

    def field(self, key: str) -> str:
        """Current text of the form field ``key`` (an EditText built with that field)."""

    def set_field(self, key: str, text: str) -> None:
        ...

    def toast(self, text: str) -> None:
        ...


class Url:
    """A parsed URL with the pieces pages route on."""

    def __init__(self, url: str) -> None:
        self.text = url
        self.parts: SplitResult = urlsplit(url if "://" in url else "https://" + url)
        self.host = self.parts.hostname or ""
        self.path = self.parts.path or "/"
        self.query = {k: v[-1] for k, v in parse_qs(self.parts.query).items()}

    def __repr__(self) -> str:
        return f"Url({self.text!r})"


@functools.lru_cache(maxsize=256)
def parse(url: str) -> Url:
    """``Url(url)``, parsed once: shared, so read only."""
    return Url(url)


class Site:
    """A web site Chrome can load. Subclasses set the class attributes and fill in
    `title` and `page`; `vary` draws seeded content variation (dynamics ``default``)."""

    key: ClassVar[str] = ""  # short name used in setup and oracles, e.g. "bestbuy"
    host: ClassVar[str] = ""  # canonical host, e.g. "www.bestbuy.com"
    aliases: ClassVar[tuple[str, ...]] = ()  # other hosts / words that reach it ("bestbuy.com")
    name: ClassVar[str] = ""  # display name, e.g. "Best Buy"
    description: ClassVar[str] = ""  # snippet under the site's search result
    State: ClassVar[type] = type(None)

    def __init__(self) -> None:
        self.state = self.State() if self.State is not type(None) else None

    def vary(self, rng: np.random.Generator, popup_rate: float) -> None:
        """Seeded variation: shuffle lists, vary prices, decide on a cookie banner."""

    def configure(self, values: Mapping[str, Any]) -> None:
        """Apply a task's setup (``{"sites": {key: {field: value}}}``) to `state`,
        type-checked like an app's; override for nested state."""
        configure_fields(self.state, values, f"site {self.key!r}")

    def clear_site_data(self) -> None:
        """Chrome cleared cookies and site data: forget sign-ins, guest carts."""

    def title(self, url: Url) -> str:
        raise NotImplementedError

    def page(self, url: Url, browser: Browser) -> list[View]:
        """The WebView's children for ``url``."""
        raise NotImplementedError

    def prepare(self, url: Url, browser: Browser) -> None:
        """What showing ``url`` changes before it is drawn (a new page loads); Chrome
        calls it each time it may draw the page, before `inputs` (a site that has
        something to do here calls it from `page` too)."""

    def inputs(self, url: Url) -> Hashable | None:
        """What `page` and `title` read for ``url`` besides the URL, the browser's form
        fields and the clock, as a hashable value (see `Surface.inputs`), after `prepare`:
        while it stays equal, Chrome shows the page drawn last, handlers included (so it
        also changes when an object they hold is replaced). None: drawn every time."""
        return None
