"""uiautomator ``UiSelector`` matching against a hierarchy dump, for the fake
uiautomator2 server's ``exist``/``objInfo``/``setText``... calls (``d(text="Wi-Fi")``).

A selector is the dict uiautomator2's `Selector` sends: fields (``text``,
``resourceId``, ``className``, ...) plus ``instance`` and a chain of ``child`` /
``sibling`` sub-selectors. Nodes are matched in document order, as UiAutomator does.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from lxml import etree


class NotFound(Exception):
    """No node matches the selector (UiObjectNotFoundException)."""


def _regex(pattern: str) -> Callable[[str], bool]:
    rx = re.compile(pattern, re.S)
    return lambda value: rx.fullmatch(value) is not None


def _bool(attr: str) -> Callable[[Any], Callable[[etree._Element], bool]]:
    return lambda want: (lambda node: (node.get(attr) == "true") == bool(want))


def _text(attr: str, test: Callable[[str, Any], bool]) -> Callable[[Any], Callable[[etree._Element], bool]]:
    return lambda want: (lambda node: test(node.get(attr, ""), want))


_FIELDS: dict[str, Callable[[Any], Callable[[etree._Element], bool]]] = {
    "text": _text("text", lambda v, w: v == w),
    "textContains": _text("text", lambda v, w: str(w) in v),
    "textMatches": _text("text", lambda v, w: _regex(w)(v)),
    "textStartsWith": _text("text", lambda v, w: v.startswith(str(w))),
    "className": _text("class", lambda v, w: v == w),
    "classNameMatches": _text("class", lambda v, w: _regex(w)(v)),
    "description": _text("content-desc", lambda v, w: v == w),
    "descriptionContains": _text("content-desc", lambda v, w: str(w) in v),
    "descriptionMatches": _text("content-desc", lambda v, w: _regex(w)(v)),
    "descriptionStartsWith": _text("content-desc", lambda v, w: v.startswith(str(w))),
    "packageName": _text("package", lambda v, w: v == w),
    "packageNameMatches": _text("package", lambda v, w: _regex(w)(v)),
    "resourceId": _text("resource-id", lambda v, w: v == w),
    "resourceIdMatches": _text("resource-id", lambda v, w: _regex(w)(v)),
    "index": _text("index", lambda v, w: v == str(w)),
    "checkable": _bool("checkable"),
    "checked": _bool("checked"),
    "clickable": _bool("clickable"),
    "longClickable": _bool("long-clickable"),
    "scrollable": _bool("scrollable"),
    "enabled": _bool("enabled"),
    "focusable": _bool("focusable"),
    "focused": _bool("focused"),
    "selected": _bool("selected"),
}
_IGNORED = ("mask", "childOrSibling", "childOrSiblingSelector", "instance")


def _matches(node: etree._Element, selector: dict) -> bool:
    for key, want in selector.items():
        if key in _IGNORED:
            continue
        test = _FIELDS.get(key)
        if test is None:
            raise ValueError(f"unknown selector field {key!r}")
        if not test(want)(node):
            return False
    return True


def _select(candidates: list[etree._Element], selector: dict) -> list[etree._Element]:
    found = [n for n in candidates if _matches(n, selector)]
    if "instance" in selector:
        k = int(selector["instance"])
        return found[k:k + 1]
    return found


def find(xml: str, selector: dict) -> list[etree._Element]:
    """The nodes of the dump ``xml`` that ``selector`` picks, in document order."""
    if not isinstance(selector, dict):
        raise TypeError("a selector is an object")
    try:
        root = etree.fromstring(xml.encode("utf-8"))
    except etree.XMLSyntaxError:
        return []
    nodes = _select(list(root.iter("node")), selector)
    for kind, sub in zip(selector.get("childOrSibling") or [], selector.get("childOrSiblingSelector") or []):
        pool: list[etree._Element] = []
        for node in nodes:
            if kind == "child":
                pool.extend(node.iterdescendants("node"))
            else:  # sibling: the other children of the parent, and what they hold
                parent = node.getparent()
                for sib in (parent if parent is not None else []):
                    if sib is not node:
                        pool.extend(sib.iter("node"))
        nodes = _select(list(dict.fromkeys(pool)), sub)
    return nodes


def bounds(node: etree._Element) -> tuple[int, int, int, int]:
    m = re.fullmatch(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]", node.get("bounds", ""))
    if m is None:
        return (0, 0, 0, 0)
    left, top, right, bottom = (int(g) for g in m.groups())
    return left, top, right, bottom


def center(node: etree._Element) -> tuple[float, float]:
    left, top, right, bottom = bounds(node)
    return (left + right) / 2, (top + bottom) / 2


def info(node: etree._Element) -> dict:
    """``objInfo`` as the Java server reports it."""
    left, top, right, bottom = bounds(node)
    box = {"left": left, "top": top, "right": right, "bottom": bottom}
    flag = lambda a: node.get(a) == "true"  # noqa: E731
    return {
        "bounds": box, "visibleBounds": dict(box), "childCount": len(node.findall("node")),
        "className": node.get("class", ""), "contentDescription": node.get("content-desc") or None,
        "packageName": node.get("package", ""), "resourceName": node.get("resource-id") or None,
        "text": node.get("text", ""), "checkable": flag("checkable"), "checked": flag("checked"),
        "clickable": flag("clickable"), "enabled": flag("enabled"), "focusable": flag("focusable"),
        "focused": flag("focused"), "longClickable": flag("long-clickable"),
        "scrollable": flag("scrollable"), "selected": flag("selected"),
    }


def describe(selector: dict) -> str:
    parts = [f"{k.upper()}={v}" for k, v in selector.items() if k not in _IGNORED[:3]]
    return f"UiSelector[{', '.join(parts)}]"
