"""Retained mode: a window's layout, dump and pixels are worked out once per distinct
window, not once per frame.

Apps still describe each screen as a fresh tree of views (its handlers are closures of
that frame), but most frames repeat a window seen before: the screen an agent returns
to, a list row toggled back, the navigation bar. A window whose tree equals one laid out
before (same views in the same box, same scroll offsets) takes that window's geometry
from `place`, its part of the dump from `Placed.fragment` and its pixels from the
renderer's memos (keyed by how the window draws, `Placed.look`), instead of computing
them again. What a frame looks like is a function of these inputs alone, so the output
is byte for byte the full rebuild's (`Runtime(retained=False)` keeps that path as the
reference).
"""

from __future__ import annotations

from operator import attrgetter
from typing import MutableMapping

from mobile_gym.simulator.dump import node_records, window_dump
from mobile_gym.simulator.layout import Box, Layout
from mobile_gym.simulator.memo import BoundedMemo
from mobile_gym.simulator.views import View

#: Every field of a view that layout, the dump or drawing reads (handlers, the text
#: field's name and the computed geometry are not: they do not change how it looks).
SHOWN_FIELDS = (
    "cls", "rid", "text", "desc", "checkable", "checked", "clickable", "enabled", "focusable",
    "focused", "scrollable", "long_clickable", "password", "selected", "orient", "h", "w", "weight",
    "pad", "gap", "fill", "scroll_key", "style", "bg", "fg", "size", "bold", "align", "icon",
    "radius", "lines", "hint",
)
_shown = attrgetter(*SHOWN_FIELDS)

#: Bytes a laid-out window holds per view (key, geometry, its share of the dump). Once
#: drawn it also holds its `render.Look` (shared by the windows that draw alike, counted by
#: `render`'s memo of looks while that keeps it): at most `render.BYTES_PER_DRAWN_VIEW`
#: per view more for windows whose look that memo has dropped.
BYTES_PER_VIEW = 700


def structure(root: View) -> tuple[tuple, list[View]]:
    """What ``root`` and its subtree look like, as a hashable value equal for trees that
    lay out, dump and draw alike; and the subtree's views in `View.walk` order."""
    views: list[View] = []
    # in walk order, each view's fields and number of children: a preorder with child counts
    # spells one tree, and flat it is one tuple of tuples the garbage collector stops
    # tracking (nested pairs stayed tracked, and its passes over the memo's keys cost more
    # than building them)
    shape: list = []
    seen, add, stack = views.append, shape.append, [root]
    pop, push = stack.pop, stack.extend
    while stack:
        v = pop()
        seen(v)
        kids = v.children
        add(_shown(v))
        add(len(kids))
        if kids:
            push(reversed(kids))
    return tuple(shape), views


class Key:
    """A memo key hashed once: a window's structure is a deep tuple, which Python would
    hash again at every dict operation."""

    __slots__ = ("value", "hash")

    def __init__(self, value: tuple):
        self.value, self.hash = value, hash(value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Key) and self.hash == other.hash and self.value == other.value


class Placed:
    """One laid-out window: the geometry of its views (in `View.walk` order), the scroll
    offsets layout clamped, and its parts of dumps. ``look`` is the renderer's name for
    what it draws (set when first drawn: windows that draw alike share it)."""

    __slots__ = ("look", "geometry", "scroll", "fragments", "records")

    def __init__(self, views: list[View], scroll: MutableMapping[str, int]):
        self.look = None  # a `render.Look` once drawn
        self.geometry = tuple([(v.bounds, v.clip) for v in views])  # all tuples: the GC stops tracking them
        self.scroll = dict(scroll)
        self.fragments: dict[tuple[int, str], str] = {}  # (index, package) -> dump
        self.records: dict[tuple[int, str], tuple] = {}  # (index, package) -> `dump.node_records`

    def apply(self, views: list[View], scroll: MutableMapping[str, int]) -> None:
        """Give the views of a tree equal to the one laid out their geometry, and the
        scroll its clamping."""
        for v, (bounds, clip) in zip(views, self.geometry):
            v.bounds, v.clip = bounds, clip
        scroll.update(self.scroll)

    def fragment(self, root: View, index: int, package: str) -> str:
        """The dump of the window shown at ``index`` (``root`` the view dumped as the
        window, within the tree laid out)."""
        key = (index, package)
        text = self.fragments.get(key)
        if text is None:
            text = self.fragments[key] = window_dump(root, index, package)
        return text

    def node_records(self, root: View, index: int, package: str) -> tuple[tuple, ...]:
        """The `dump.node_records` of the window shown at ``index`` (as `fragment`)."""
        key = (index, package)
        records = self.records.get(key)
        if records is None:
            records = self.records[key] = node_records(root, index, package)
        return records


_LAYOUTS = BoundedMemo(None, 48 << 20, lambda key, placed: BYTES_PER_VIEW * len(placed.geometry), "_LAYOUTS")


def place(root: View, box: Box, clip: Box, density: float, scroll: MutableMapping[str, int]) -> Placed:
    """Lay ``root`` out in ``box`` (as `Layout.place`), or take the layout of an equal
    window laid out before."""
    shape, views = structure(root)
    key = Key((shape, box, clip, density, tuple(sorted(scroll.items()))))
    placed = _LAYOUTS.lookup(key)
    if placed is None:
        Layout(density, scroll).place(root, box, clip)
        placed = Placed(views, scroll)
        _LAYOUTS.store(key, placed)
    else:
        placed.apply(views, scroll)
    return placed
