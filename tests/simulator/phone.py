"""Driving a simulated phone from tests through its public interface: open an app as a
task's setup does, find a node in the dump by its attributes and tap the middle of it,
like an agent would."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from mobile_gym.actions import Action
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator.profiles import PROFILES
from mobile_gym.simulator.views import View
from mobile_gym.ui.hierarchy import Node, ViewHierarchy

#: Every device profile as a test parameter: the default phone in the quick subset, the
#: others marked slow.
EVERY_PROFILE = [p if p == "pixel-6" else pytest.param(p, marks=pytest.mark.slow) for p in sorted(PROFILES)]


def launch(key: str, seed: int = 0, dynamics: str = "none", profile: str = "pixel-6", **state) -> SimulatedDevice:
    """A fresh phone with the app ``key`` opened, its state set from ``state`` as a task's
    setup does (``apps: {key: state}``)."""
    setup = {"launch": key, "apps": {key: state}} if state else {"launch": key}
    return SimulatedDevice(profile, seed=seed, dynamics=dynamics, setup=setup)


def find(phone: SimulatedDevice, **attrs) -> list[Node]:
    """Every node on screen with these attributes (see `node`)."""
    return phone.observe(screenshot=False).hierarchy.find_all(**attrs)


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
    phone.perform(Action.click_center(n.bounds, phone.screen_size))
    return n


def texts(phone: SimulatedDevice) -> list[str]:
    """Every text on screen, in dump order."""
    return [n.text for n in phone.observe(screenshot=False).hierarchy.find_all() if n.text]


def swipe_up(phone: SimulatedDevice, fraction: float = 0.4) -> None:
    """Scroll the content down by ``fraction`` of the screen (finger moves up)."""
    phone.perform(Action.swipe(0.5, 0.7, 0.5, 0.7 - fraction))


def popup_texts(phone: SimulatedDevice, titles: tuple[str, ...]) -> list[str]:
    """The texts among ``titles`` in the windows over the app's own (its popups)."""
    roots = phone.observe(screenshot=False).hierarchy.roots
    return [n.text for r in roots[1:] for n in r.iter() if n.text in titles]


def frames(phone: SimulatedDevice, actions: Iterable[Action]) -> list[tuple[str, bytes]]:
    """The dump and a small screenshot after each action: two runs compared show whether
    the screens are deterministic."""
    out = []
    for action in actions:
        phone.perform(action)
        state = phone.observe(screenshot_size=(90, 200))
        out.append((state.xml, state.screenshot.tobytes()))
    return out


def assert_same_nodes(built: ViewHierarchy, parsed: ViewHierarchy) -> None:
    """``built`` holds the nodes of ``parsed``: every attribute, in the same tree, in order."""
    assert len(built.nodes) == len(parsed.nodes)
    assert [r.order for r in built.roots] == [r.order for r in parsed.roots]
    assert built.rotation == parsed.rotation
    for b, p in zip(built.nodes, parsed.nodes):
        for name in ("index", "text", "resource_id", "class_name", "package", "content_desc", "bounds", "order"):
            assert getattr(b, name) == getattr(p, name), (name, b, p)
        assert b.flags == p.flags and all(type(v) is bool for v in b.flags.values()), (b, b.flags, p.flags)
        assert [c.order for c in b.children] == [c.order for c in p.children], b
        assert (b.parent and b.parent.order) == (p.parent and p.parent.order), b


def check_dump(phone: SimulatedDevice, xml: str | None = None, max_nodes: int = 180) -> ViewHierarchy:
    """The screen's dump (or ``xml`` taken from it) is valid: it parses, every node has
    a class, a package and non-empty bounds on screen inside its parent's, sibling
    ``index`` values count 0..n-1, and the screen stays a reasonable size."""
    h = ViewHierarchy(xml if xml is not None else phone.observe(screenshot=False).xml)
    frame = phone.runtime.frame()
    if xml in (None, frame.xml):
        assert_same_nodes(frame.hierarchy(), h)  # the frame's own tree is what its dump parses to
    W, H = phone.screen_size
    nodes = h.find_all()
    assert len(nodes) < max_nodes, (phone.foreground_activity(), len(nodes))
    for n in nodes:
        b = n.bounds
        assert n.class_name and n.package, n
        assert 0 <= b.left < b.right <= W and 0 <= b.top < b.bottom <= H, n
        if n.parent is not None:
            p = n.parent.bounds
            assert p.left <= b.left and b.right <= p.right and p.top <= b.top and b.bottom <= p.bottom, n
        assert [int(c.index) for c in n.children] == list(range(len(n.children))), n
    return h


class ReadingView(View):
    """A view that notes which of its attributes are read (a tree's views are switched to
    it and back with ``__class__``, to see what a pass over them reads)."""

    __slots__ = ()
    reads: set[str] = set()

    def __getattribute__(self, name: str):
        ReadingView.reads.add(name)
        return object.__getattribute__(self, name)
