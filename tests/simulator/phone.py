"""Driving a simulated phone from tests through its public interface: find a node in the
dump by its attributes and tap the middle of it, like an agent would."""

from __future__ import annotations

from mobile_gym.actions import Action
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.ui.hierarchy import Node


def node(phone: SimulatedDevice, **attrs) -> Node:
    """The first node on screen with these attributes (``text=``, ``resource_id=``,
    ``content_desc=``, ``class_name=``); fails the test with the screen's texts if none."""
    found = phone.observe(screenshot=False).hierarchy.find(**attrs)
    if found is None:
        texts = [n.text or n.content_desc for n in phone.observe(screenshot=False).hierarchy.find_all() if n.text or n.content_desc]
        raise AssertionError(f"no node with {attrs} on {phone.foreground_activity()}; texts: {texts}")
    return found


def tap(phone: SimulatedDevice, **attrs) -> Node:
    """Tap the centre of the node with these attributes (see `node`)."""
    n = node(phone, **attrs)
    W, H = phone.screen_size
    b = n.bounds
    phone.perform(Action.click((b.left + b.right) / 2 / W, (b.top + b.bottom) / 2 / H))
    return n


def texts(phone: SimulatedDevice) -> list[str]:
    """Every text on screen, in dump order."""
    return [n.text for n in phone.observe(screenshot=False).hierarchy.find_all() if n.text]


def swipe_up(phone: SimulatedDevice, fraction: float = 0.4) -> None:
    """Scroll the content down by ``fraction`` of the screen (finger moves up)."""
    phone.perform(Action.swipe(0.5, 0.7, 0.5, 0.7 - fraction))
