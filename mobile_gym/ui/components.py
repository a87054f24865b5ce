"""The simplified component list of a screen (LlamaTouch's ``i.json``).

Annotations refer to components by their index in this list, so the selection rule is
LlamaTouch's own: a node with children is kept when it carries text or a content
description; a leaf is kept when it carries either or is a widget (switch, image,
button, ...), but never a bare layout container or a menu. Zero-area nodes are not
visible and are dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from mobile_gym.errors import FormatError
from mobile_gym.formats.files import MAX_JSON_BYTES, read_bytes
from mobile_gym.ui.hierarchy import Bounds, Node, ViewHierarchy

WIDGET_CLASSES = frozenset(
    {
        "android.widget.Switch",
        "android.widget.CheckBox",
        "android.widget.RadioButton",
        "android.widget.ToggleButton",
        "android.widget.Button",
        "android.widget.ImageButton",
        "android.widget.ImageView",
        "android.widget.TextView",
        "android.widget.EditText",
        "android.widget.ProgressBar",
        "android.widget.SeekBar",
        "android.widget.Spinner",
    }
)
CONTAINER_CLASSES = frozenset(
    {
        "android.view.ViewGroup",
        "android.widget.FrameLayout",
        "android.widget.LinearLayout",
        "android.widget.RelativeLayout",
        "android.widget.HorizontalScrollView",
    }
)

#: State flags of a component, in the order LlamaTouch writes them.
COMPONENT_FLAGS = (
    "enabled",
    "checked",
    "checkable",
    "visible",
    "selected",
    "focused",
    "focusable",
    "clickable",
    "long-clickable",
    "password",
    "scrollable",
)


@dataclass(frozen=True)
class Component:
    """One entry of a component list. `flags` maps COMPONENT_FLAGS to booleans."""

    id: int
    class_name: str
    text: str
    resource_id: str
    content_desc: str
    bounds: Bounds
    flags: dict[str, bool] = field(default_factory=dict, compare=False, hash=False)
    xpath: str | None = None

    @property
    def has_label(self) -> bool:
        """Whether the component is identified by text (else it is an icon/switch)."""
        return bool(self.text.strip() or self.content_desc.strip())

    def flag(self, name: str) -> bool:
        return bool(self.flags.get(name, False))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "class": self.class_name,
            "text": self.text,
            "resource-id": self.resource_id,
            "content-desc": self.content_desc,
            "bounds": str(self.bounds),
        }
        out.update({name: self.flag(name) for name in COMPONENT_FLAGS})
        if self.xpath is not None:
            out["xpath"] = self.xpath
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], position: int) -> Component:
        if not isinstance(data, dict):
            raise ValueError(f"entry {position} is not an object")
        try:
            bounds = Bounds.parse(data.get("bounds", ""))
        except ValueError as exc:
            raise ValueError(f"entry {position}: {exc}") from exc
        ident = data.get("id", position)
        if not isinstance(ident, int) or ident != position:
            raise ValueError(f"entry {position} has id {ident!r}; ids must be 0..n-1 in order")
        xpath = data.get("xpath") or None
        if xpath is not None and not isinstance(xpath, str):
            raise ValueError(f"entry {position}: xpath must be a string, got {type(xpath).__name__}")
        flags = {}
        for name in COMPONENT_FLAGS:
            value = data.get(name, False)
            flags[name] = value is True or (isinstance(value, str) and value.lower() == "true")
        return cls(
            id=ident,
            class_name=_string(data.get("class")),
            text=_string(data.get("text")),
            resource_id=_string(data.get("resource-id")),
            content_desc=_string(data.get("content-desc")),
            bounds=bounds,
            flags=flags,
            xpath=xpath,
        )


def _string(value: Any) -> str:
    """LlamaTouch writes missing strings as '', None or 'null'."""
    if value is None or value in ("null", "None"):
        return ""
    return str(value)


def is_component(node: Node) -> bool:
    """LlamaTouch's rule for which nodes the component list keeps."""
    if not node.bounds.area:
        return False
    if node.children:
        return bool(node.text or node.content_desc)
    return (
        bool(node.text or node.content_desc or node.class_name in WIDGET_CLASSES)
        and "Menu" not in node.class_name
        and node.class_name not in CONTAINER_CLASSES
    )


def component_list(hierarchy: ViewHierarchy) -> list[Component]:
    """The components of a screen in document order, ids 0..n-1; click targets
    (clickable components) carry an xpath."""
    out: list[Component] = []
    for node in hierarchy:
        if not is_component(node):
            continue
        flags = {name: node.flags.get(name, False) for name in COMPONENT_FLAGS}
        flags["visible"] = True
        out.append(
            Component(
                id=len(out),
                class_name=node.class_name,
                text=node.text,
                resource_id=node.resource_id,
                content_desc=node.content_desc,
                bounds=node.bounds,
                flags=flags,
                xpath=node.xpath if node.clickable else None,
            )
        )
    return out


def dumps_components(components: Iterable[Component]) -> str:
    """The ``i.json`` text, formatted as LlamaTouch writes it (4-space indent, UTF-8)."""
    return json.dumps([c.to_dict() for c in components], ensure_ascii=False, indent=4)


def load_components(path: str | Path) -> list[Component]:
    """Read an ``i.json`` component list; a corrupt file is a FormatError naming it."""
    raw = read_bytes(path, "component list", MAX_JSON_BYTES)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # bad JSON or UTF-8, a 5000-digit number, deep nesting
        raise FormatError(path, f"component list is not valid JSON ({type(exc).__name__}: {exc})") from exc
    if not isinstance(data, list):
        raise FormatError(path, "component list must be a JSON array")
    try:
        return [Component.from_dict(item, i) for i, item in enumerate(data)]
    except ValueError as exc:
        raise FormatError(path, f"bad component list: {exc}") from exc


__all__ = [
    "Component",
    "component_list",
    "dumps_components",
    "load_components",
    "is_component",
    "COMPONENT_FLAGS",
]
