"""uiautomator XML of laid-out windows, attribute for attribute like a real dump, and
the `ViewHierarchy` that XML parses to, made straight from the views (no parse).

Only nodes with a visible part are written, with bounds clipped to the screen, and
``index`` counts the written siblings, as uiautomator does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Hashable

from mobile_gym.simulator.text import dumpable
from mobile_gym.simulator.views import View
from mobile_gym.ui.hierarchy import Bounds, Node, ViewHierarchy

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


def hierarchy_of_windows(windows: list[View], xml: str, same_apps: Hashable = None) -> ViewHierarchy:
    """The hierarchy that ``xml``, the dump of ``windows``, parses to, node for node,
    made from the views themselves; ``same_apps`` as `ViewHierarchy.built` takes it."""
    def roots(hierarchy: ViewHierarchy) -> list[Node]:
        shown = [w for w in windows if w.clip is not None]
        return [_built(w, i, w.package, None, hierarchy) for i, w in enumerate(shown)]
    return ViewHierarchy.built(xml, roots, same_apps)


def _built(v: View, index: int, package: str, parent: Node | None, hierarchy: ViewHierarchy) -> Node:
    flags = {"checkable": v.checkable, "checked": v.checked, "clickable": v.clickable, "enabled": v.enabled,
             "focusable": v.focusable, "focused": v.focused, "scrollable": v.scrollable,
             "long-clickable": v.long_clickable, "password": v.password, "selected": v.selected}
    nodes = hierarchy.nodes
    node = Node(_INDEX[index] if index < len(_INDEX) else str(index), dumpable(_shown_text(v)), v.rid, v.cls,
                package, dumpable(v.desc), flags, _bounds(v.clip), parent, len(nodes), hierarchy)
    nodes.append(node)
    children = node.children
    for c in v.children:
        if c.clip is not None:
            children.append(_built(c, len(children), package, node, hierarchy))
    return node


_INDEX = tuple(str(i) for i in range(64))


@lru_cache(maxsize=16_384)
def _bounds(clip: tuple[int, int, int, int]) -> Bounds:
    """A screen's boxes recur from frame to frame: make each once."""
    return Bounds(*clip)
