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
#: per view more for windows whose look that memo has dropped. Once its hierarchy's nodes
#: are read it also holds their records (`dump.node_records`): about 140 bytes per view
#: more, said here and not counted (a larger estimate keeps fewer windows: see
#: benchmarks/RESULTS.md).
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

    def __init__(self, geometry: tuple, scroll: dict[str, int]):
        self.look = None  # a `render.Look` once drawn
        self.geometry = geometry  # each view's (bounds, clip): all tuples, the GC stops tracking them
        self.scroll = scroll
        self.fragments: dict[tuple[int, str], str] = {}  # (index, package) -> dump
        self.records: dict[tuple[int, str], tuple] = {}  # (index, package) -> `dump.node_records`

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


class Tree:
    """A built tree of views, laid out once per scroll offsets it is shown at (a scroll
    moves views, it changes none: the activity keeps the tree): its `structure`, its views
    in walk order, and ``placed``, the layout whose geometry they carry now."""

    __slots__ = ("shape", "views", "placed")

    def __init__(self, root: View):
        shape, self.views = structure(root)
        self.shape = Key(shape)
        self.placed: Placed | None = None

    def carry(self, placed: Placed) -> None:
        """Give the views ``placed``'s geometry (a frame shown before, drawn or dumped
        after its tree was laid out again at other offsets)."""
        if self.placed is not placed:
            _give(self.views, placed.geometry)
            self.placed = placed


_LAYOUTS = BoundedMemo(None, 48 << 20, lambda key, placed: BYTES_PER_VIEW * len(placed.geometry), "_LAYOUTS")


def place(tree: Tree, box: Box, clip: Box, density: float, scroll: MutableMapping[str, int]) -> Placed:
    """Lay ``tree`` out in ``box`` (as `Layout.place`), or take the layout of an equal
    window laid out before."""
    scrolled = tuple(sorted(scroll.items()))
    key = Key((tree.shape, box, clip, density, scrolled))
    placed = _LAYOUTS.lookup(key)
    if placed is None:
        placed = Placed(*_geometry(tree.views, box, clip, density, scroll, scrolled))
        _LAYOUTS.store(key, placed)
        tree.placed = placed
    else:  # a tree equal to one laid out before: its geometry, and the scroll as it clamped it
        tree.carry(placed)
        scroll.update(placed.scroll)
    return placed


#: Every field of a view that layout reads (besides its children): what a window shows
#: (texts, colours, states) never moves anything, so windows that differ only in that (a
#: seeded episode's prices, names and times) share their geometry.
LAYOUT_FIELDS = ("orient", "h", "w", "weight", "pad", "gap", "fill", "scroll_key", "align")
_laid_out = attrgetter(*LAYOUT_FIELDS)
_children = attrgetter("children")
#: Bytes a geometry holds per view: its layout fields in the key, bounds and clip.
GEOMETRY_BYTES_PER_VIEW = 400
_GEOMETRIES = BoundedMemo(None, 16 << 20, lambda key, kept: GEOMETRY_BYTES_PER_VIEW * len(kept[0]), "_GEOMETRIES")


def _geometry(views: list[View], box: Box, clip: Box, density: float,
              scroll: MutableMapping[str, int], scrolled: tuple) -> tuple[tuple, dict[str, int]]:
    """Lay out a window not laid out before: each view's (bounds, clip) and the scroll
    clamped, taken from a window whose views agree on `LAYOUT_FIELDS` when there was one."""
    key = Key((tuple(map(_laid_out, views)), tuple(map(len, map(_children, views))), box, clip, density, scrolled))
    kept = _GEOMETRIES.lookup(key)
    if kept is None:
        Layout(density, scroll).place(views[0], box, clip)
        kept = (tuple([(v.bounds, v.clip) for v in views]), dict(scroll))
        _GEOMETRIES.store(key, kept)
    else:
        _give(views, kept[0])
        scroll.update(kept[1])
    return kept


def _give(views: list[View], geometry: tuple) -> None:
    """Give ``views`` (in walk order) a laid-out window's geometry."""
    for v, (bounds, clip) in zip(views, geometry):
        v.bounds, v.clip = bounds, clip
