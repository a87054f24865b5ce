"""uiautomator XML of laid-out windows, attribute for attribute like a real dump, and
the `ViewHierarchy` that XML parses to, made straight from the views (no parse).

Only nodes with a visible part are written, with bounds clipped to the screen, and
``index`` counts the written siblings, as uiautomator does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Hashable

from mobile_gym.simulator.text import dumpable
from mobile_gym.simulator.views import View
from mobile_gym.ui.hierarchy import FLAG_NAMES, Bounds, Node, ViewHierarchy

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

_ESCAPES = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\t": "&#9;",
})
_BOOL = ("false", "true")


def _attribute(text: str) -> str:
    return dumpable(text).translate(_ESCAPES)


def _shown_text(v: View) -> str:
    text = v.text
    if v.password and text and text != v.hint:  # a hint is not masked
        return "•" * len(text)
    return text


def _node(v: View, index: int, package: str, out: list[str]) -> None:
    l, t, r, b = v.clip  # type: ignore[misc]
    text = _shown_text(v)
    out.append(
        f'<node index="{index}" text="{_attribute(text)}" '
        f'resource-id="{v.rid}" class="{v.cls}" package="{package}" '
        f'content-desc="{_attribute(v.desc)}" '
        f'checkable="{_BOOL[v.checkable]}" checked="{_BOOL[v.checked]}" '
        f'clickable="{_BOOL[v.clickable]}" enabled="{_BOOL[v.enabled]}" '
        f'focusable="{_BOOL[v.focusable]}" focused="{_BOOL[v.focused]}" '
        f'scrollable="{_BOOL[v.scrollable]}" long-clickable="{_BOOL[v.long_clickable]}" '
        f'password="{_BOOL[v.password]}" selected="{_BOOL[v.selected]}" '
        f'bounds="[{l},{t}][{r},{b}]"'
    )
    kids = [c for c in v.children if c.clip is not None]
    if not kids:
        out.append(" />")
        return
    out.append(">")
    for i, c in enumerate(kids):
        _node(c, i, package, out)
    out.append("</node>")


def window_dump(root: View, index: int, package: str) -> str:
    """The part of a dump that the window ``root``, shown ``index``-th, writes."""
    out: list[str] = []
    _node(root, index, package, out)
    return "".join(out)


def joined_dump(parts: list[str]) -> str:
    """The dump of the windows whose parts `window_dump` wrote (bottom to top)."""
    return "".join([HEADER, '<hierarchy rotation="0">', *parts, "</hierarchy>"])


def hierarchy_of_windows(windows: list[Callable[[], tuple]], xml: str, same_apps: Hashable = None) -> ViewHierarchy:
    """The hierarchy that ``xml``, the dump of the shown windows, parses to, node for
    node, made from each window's `node_records` (``windows``: a function for each that
    gives them, called when the nodes are first read); ``same_apps`` as
    `ViewHierarchy.built` takes it."""
    def roots(hierarchy: ViewHierarchy) -> list[Node]:
        return [_nodes(records(), hierarchy) for records in windows]
    return ViewHierarchy.built(xml, roots, same_apps)


def node_records(root: View, index: int, package: str) -> tuple[tuple, ...]:
    """What a parse of the window ``root``'s dump (shown ``index``-th) reads of each of
    its nodes, in document order: (index, text, resource-id, class, package,
    content-desc, flags, bounds, the position of its parent's record or -1). A window
    laid out alike gives equal records (`retained.Placed` keeps them)."""
    out: list[tuple] = []

    def add(v: View, index: int, parent: int) -> None:
        me = len(out)
        out.append((_INDEX[index] if index < len(_INDEX) else str(index), dumpable(_shown_text(v)), v.rid, v.cls,
                    package, dumpable(v.desc), _flags(v.checkable, v.checked, v.clickable, v.enabled, v.focusable,
                                                      v.focused, v.scrollable, v.long_clickable, v.password,
                                                      v.selected), _bounds(v.clip), parent))
        n = 0
        for c in v.children:
            if c.clip is not None:
                add(c, n, me)
                n += 1

    add(root, index, -1)
    return tuple(out)


def _nodes(records: tuple[tuple, ...], hierarchy: ViewHierarchy) -> Node:
    """A window's nodes made from its records, appended to ``hierarchy.nodes``; its top node."""
    nodes = hierarchy.nodes
    made: list[Node] = []
    for index, text, rid, cls, package, desc, flags, bounds, parent in records:
        above = made[parent] if parent >= 0 else None
        node = Node(index, text, rid, cls, package, desc, flags, bounds, above, len(nodes), hierarchy)
        nodes.append(node)
        made.append(node)
        if above is not None:
            above.children.append(node)
    return made[0]


@lru_cache(maxsize=1024)
def _flags(*values: bool) -> dict[str, bool]:
    """A node's flags by name, one dict for each combination (nodes share it: a node is
    read, never changed)."""
    return dict(zip(FLAG_NAMES, values))  # the order a parse gives them


_INDEX = tuple(str(i) for i in range(64))


@lru_cache(maxsize=16_384)
def _bounds(clip: tuple[int, int, int, int]) -> Bounds:
    """A screen's boxes recur from frame to frame: make each once."""
    return Bounds(*clip)
