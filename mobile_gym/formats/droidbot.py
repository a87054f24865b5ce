"""Droidbot-style JSON view hierarchies: LlamaTouch's ``.vh`` files.

LlamaTouch keeps, beside each screen's uiautomator dump, the same hierarchy as droidbot
writes it: a JSON array of views in document order, each view a flat object whose
``children`` and ``parent`` are indices into the array (``temp_id`` is its own). Its
whole-screen check (``fuzzy<-1>``) reads only this file, through AutoDroid's
``simplify_views``; a missing one is a failed evaluation (ground truth) or a silent
match (execution traces). Where it lives: ``i.vh`` in a dataset trace folder (format A);
``vh/i.vh`` in an AgentEnv trace (what AgentEnv writes) and ``view_hierarchy/i.json``
(what LlamaTouch's evaluator reads for execution traces), both written by
`mobile_gym.formats.agentenv.write_trace`.

The views are made from our `ViewHierarchy`, so every file says what the dump says:

- ``temp_id`` 0 is the dump's ``<hierarchy>`` (``class`` null, the screen's bounds) and
  the dump's nodes follow in document order (node k of the dump is view k + 1). A dump
  holds a node per window (status bar, app, keyboard, ...); one root above them keeps it
  one tree, as AgentEnv's converter does, and never makes a real view's ``temp_id`` 0,
  which AutoDroid's ``simplify_views`` would take for "no clickable ancestor".
- Strings as droidbot writes them: an empty ``text``, ``content_description`` or
  ``resource_id`` is null. ``bounds`` is ``[[left, top], [right, bottom]]`` and ``size``
  ``"<width>*<height>"`` of the view itself.
- Flags under droidbot's names (``long_clickable``, ``is_password``, ...); ``visible`` is
  whether the view covers any pixel (a dump holds what is on screen; a zero-area view
  shows nothing) and ``editable`` whether it is a text field (uiautomator dumps do not
  say; droidbot takes it from the accessibility node).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mobile_gym.errors import FormatError
from mobile_gym.formats.files import MAX_JSON_BYTES, read_bytes
from mobile_gym.ui.elements import is_editable
from mobile_gym.ui.hierarchy import Bounds, Node, ViewHierarchy

#: Droidbot's flag names for the dump's boolean attributes.
FLAG_FIELDS = {
    "checkable": "checkable",
    "checked": "checked",
    "clickable": "clickable",
    "enabled": "enabled",
    "focusable": "focusable",
    "focused": "focused",
    "scrollable": "scrollable",
    "long_clickable": "long-clickable",
    "is_password": "password",
    "selected": "selected",
}

#: The fields of every view, as droidbot and LlamaTouch's readers name them.
VIEW_FIELDS = (
    "temp_id", "parent", "children", "child_count", "class", "package", "resource_id", "text",
    "content_description", "bounds", "size", "visible", "editable", *FLAG_FIELDS,
)

#: Suffix of the file beside a dataset screen (``i.vh``).
VH_SUFFIX = ".vh"


def _bounds(b: Bounds) -> list[list[int]]:
    return [[b.left, b.top], [b.right, b.bottom]]


def _view(node: Node, temp_id: int, parent: int, children: list[int]) -> dict[str, Any]:
    b = node.bounds
    view: dict[str, Any] = {
        "temp_id": temp_id,
        "parent": parent,
        "children": children,
        "child_count": len(children),
        "class": node.class_name or None,
        "package": node.package or None,
        "resource_id": node.resource_id or None,
        "text": node.text or None,
        "content_description": node.content_desc or None,
        "bounds": _bounds(b),
        "size": f"{b.width}*{b.height}",
        "visible": b.area > 0,
        "editable": is_editable(node),
    }
    flags = node.flags
    view.update({name: bool(flags.get(attribute, False)) for name, attribute in FLAG_FIELDS.items()})
    return view


def droidbot_views(hierarchy: ViewHierarchy) -> list[dict[str, Any]]:
    """The hierarchy as droidbot's list of views: the ``<hierarchy>`` root, then every
    node of the dump in document order (view k + 1 is node k)."""
    nodes = hierarchy.nodes
    ids = {id(node): k + 1 for k, node in enumerate(nodes)}
    screen = hierarchy.screen_bounds
    tops = [ids[id(node)] for node in hierarchy.roots]
    root: dict[str, Any] = {
        "temp_id": 0, "parent": -1, "children": tops, "child_count": len(tops), "class": None, "package": None,
        "resource_id": None, "text": None, "content_description": None, "bounds": _bounds(screen),
        "size": f"{screen.width}*{screen.height}", "visible": True, "editable": False,
        **{name: name == "enabled" for name in FLAG_FIELDS},
    }
    views = [root]
    for node in nodes:
        parent = 0 if node.parent is None else ids[id(node.parent)]
        views.append(_view(node, ids[id(node)], parent, [ids[id(child)] for child in node.children]))
    return views


def dumps_views(views: list[dict[str, Any]]) -> str:
    """The ``.vh`` text: one JSON array, UTF-8 as written; compact, since programs read
    it (about half the bytes of AgentEnv's indented files, which parse the same)."""
    return json.dumps(views, ensure_ascii=False, separators=(",", ":"))


def view_hierarchy_json(hierarchy: ViewHierarchy) -> str:
    """`droidbot_views` of a hierarchy as the ``.vh`` file's text."""
    return dumps_views(droidbot_views(hierarchy))


def load_views(path: str | Path) -> list[dict[str, Any]]:
    """Read a ``.vh`` file (ours, AgentEnv's or droidbot's) and check what readers rely
    on: an array of objects whose ``temp_id`` is their position, ``parent`` -1 or a view,
    ``children`` views, ``bounds`` two points. Anything else is a `FormatError` naming
    the file."""
    raw = read_bytes(path, "view hierarchy (JSON)", MAX_JSON_BYTES)
    try:
        views = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise FormatError(path, f"view hierarchy is not valid JSON ({type(exc).__name__}: {exc})") from exc
    if not isinstance(views, list) or not views:
        raise FormatError(path, "view hierarchy must be a non-empty JSON array of views")
    n = len(views)

    def index(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n

    for k, view in enumerate(views):
        where = f"view {k}"
        if not isinstance(view, dict):
            raise FormatError(path, f"{where} is not an object")
        if view.get("temp_id") != k:
            raise FormatError(path, f"{where} has temp_id {view.get('temp_id')!r}; views must be listed by temp_id")
        parent = view.get("parent")
        if parent != -1 and not index(parent):
            raise FormatError(path, f"{where} has parent {parent!r}, which is no view")
        children = view.get("children")
        if not isinstance(children, list) or not all(index(c) for c in children):
            raise FormatError(path, f"{where} has children {children!r}; expected a list of view ids")
        bounds = view.get("bounds")
        if not (isinstance(bounds, list) and len(bounds) == 2 and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
                for p in bounds)):
            raise FormatError(path, f"{where} has bounds {bounds!r}; expected [[left, top], [right, bottom]]")
    return views


__all__ = ["FLAG_FIELDS", "VH_SUFFIX", "VIEW_FIELDS", "droidbot_views", "dumps_views", "load_views",
           "view_hierarchy_json"]
