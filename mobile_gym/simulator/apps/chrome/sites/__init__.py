"""The web sites Chrome can load besides its built-in pages: the three shops."""

from mobile_gym.simulator.apps.chrome.sites.amazon import Amazon
from mobile_gym.simulator.apps.chrome.sites.bestbuy import BestBuy
from mobile_gym.simulator.apps.chrome.sites.newegg import Newegg

SITES = (BestBuy, Amazon, Newegg)

__all__ = ["SITES", "Amazon", "BestBuy", "Newegg"]
