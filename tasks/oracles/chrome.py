"""Oracles of Chrome and web-shopping tasks."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice

#: Paths of Amazon's cart page (the site routes both to it).
AMAZON_CART_PATHS = ("/gp/cart/view.html", "/cart")
#: The page open in Chrome's tab in chrome-refresh-tabs (its setup).
REFRESH_PAGE = "https://www.theverge.com/2024/pixel-camera-tips"


@oracle("bestbuy.cart_empty")
def _bestbuy_cart_empty(phone: SimulatedDevice) -> bool:
    return not phone.app_state("chrome").site("bestbuy").cart


@oracle("bestbuy.best_rated_video_games")
def _bestbuy_best_rated_video_games(phone: SimulatedDevice) -> bool:
    """The last results page loaded is the search typed as "video games" (as LlamaTouch's
    annotation types it; the "Video Games" category link is browsing, not this search),
    sorted by "Best Rated"."""
    site = phone.app_state("chrome").site("bestbuy")
    return site.sort == "Best Rated" and bool(site.searches) and site.searches[-1] == "video games"


@oracle("amazon.cart_viewed")
def _amazon_cart_viewed(phone: SimulatedDevice) -> bool:
    """Chrome's current tab shows Amazon's cart."""
    url = urlsplit(phone.app_state("chrome").url)
    return url.hostname == "www.amazon.com" and (url.path.rstrip("/") or "/") in AMAZON_CART_PATHS


@oracle("newegg.cart_empty")
def _newegg_cart_empty(phone: SimulatedDevice) -> bool:
    return not phone.app_state("chrome").site("newegg").cart


@oracle("chrome.tab_refreshed")
def _chrome_tab_refreshed(phone: SimulatedDevice) -> bool:
    """The page chrome-refresh-tabs opens in Chrome's tab was refreshed (not some other
    page the agent went to: the annotation compares the screen Refresh is tapped on)."""
    return REFRESH_PAGE in phone.app_state("chrome").reloaded


@oracle("chrome.history_cleared")
def _chrome_history_cleared(phone: SimulatedDevice) -> bool:
    """No browsing history is left (the setup's visits go back weeks, so "Clear data"
    clears them all only over "All time"; removing each visit also does)."""
    return not phone.app_state("chrome").history
