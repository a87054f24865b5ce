"""Screens: the view-hierarchy model, component lists and the compact HTML form."""

from mobile_gym.ui.components import Component, component_list, dumps_components, load_components
from mobile_gym.ui.hierarchy import Bounds, Node, ViewHierarchy
from mobile_gym.ui.html import screen_html

__all__ = [
    "Bounds",
    "Component",
    "Node",
    "ViewHierarchy",
    "component_list",
    "dumps_components",
    "load_components",
    "screen_html",
]
