"""uiautomator XML of laid-out windows, attribute for attribute like a real dump.

Only nodes with a visible part are written, with bounds clipped to the screen, and
``index`` counts the written siblings, as uiautomator does.
"""

from __future__ import annotations

from mobile_gym.simulator.text import dumpable
from mobile_gym.simulator.views import View

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

_ESCAPES = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\t": "&#9;",
})
_BOOL = ("false", "true")


def _attribute(text: str) -> str:
    return dumpable(text).translate(_ESCAPES)


def _node(v: View, index: int, package: str, out: list[str]) -> None:
    l, t, r, b = v.clip  # type: ignore[misc]
    text = v.text
    if v.password and text and text != v.hint:  # a hint is not masked
        text = "•" * len(text)
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


def dump_windows(windows: list[View]) -> str:
    """The dump of several windows (app, dialog, system bars), bottom to top; each
    window's root carries its package in ``package``."""
    out = [HEADER, '<hierarchy rotation="0">']
    shown = [w for w in windows if w.clip is not None]
    for i, w in enumerate(shown):
        _node(w, i, w.package, out)
    out.append("</hierarchy>")
    return "".join(out)
