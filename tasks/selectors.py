"""Selectors: how task files name an element, so golden paths and annotations survive
layout, content and profile changes ("the node with text 'Internet'", "the switch in the
row that says 'Airplane mode'")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from mobile_gym.formats.llamatouch import xpath_literal
from mobile_gym.ui.hierarchy import Node, ViewHierarchy

ATTRIBUTES = ("text", "resource_id", "content_desc", "class_name")
#: The dump attribute each selector attribute names.
_DUMP_NAMES = {"text": "text", "resource_id": "resource-id", "content_desc": "content-desc", "class_name": "class"}


@dataclass(frozen=True)
class Selector:
    text: str | None = None
    resource_id: str | None = None
    content_desc: str | None = None
    class_name: str | None = None
    row: str | None = None  # only inside the clickable row that holds this text
    nth: int = 0  # which match, in dump order

    @classmethod
    def parse(cls, value: Any) -> Selector:
        """A bare string is a text; a mapping names attributes (``text``, ``resource_id``,
        ``content_desc``, ``class_name``, ``row``, ``nth``). Raises ValueError."""
        if isinstance(value, str):
            return cls(text=value)
        if not isinstance(value, Mapping) or not value:
            raise ValueError(f"a selector is a text or a mapping of attributes, got {value!r}")
        unknown = set(value) - {*ATTRIBUTES, "row", "nth"}
        if unknown:
            raise ValueError(f"unknown selector attribute(s) {', '.join(sorted(unknown))}")
        if not any(value.get(a) is not None for a in ATTRIBUTES):
            raise ValueError(f"a selector needs one of {', '.join(ATTRIBUTES)}")
        for name, v in value.items():
            if name == "nth":
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise ValueError(f"selector 'nth' must be a non-negative integer, got {v!r}")
            elif not isinstance(v, str):
                raise ValueError(f"selector {name!r} must be a string, got {v!r}")
        return cls(**value)

    def find(self, hierarchy: ViewHierarchy) -> Node | None:
        attrs = {a: getattr(self, a) for a in ATTRIBUTES if getattr(self, a) is not None}
        found = hierarchy.find_all(**attrs)
        if self.row is not None:
            rows = [n.clickable_target for n in hierarchy.find_all(text=self.row)]
            rows = [r for r in rows if r is not None]
            found = [n for n in found if any(r is n or r in n.ancestors() for r in rows)]
        return found[self.nth] if len(found) > self.nth else None

    def row_xpath(self) -> str | None:
        """For a selector with ``row``, an xpath that says what `find` does (the nodes
        so named inside the clickable row holding that text), so that a ``click`` on it
        is judged on the row wherever the row stands, not on the position the annotated
        screen's xpath would pin. None without ``row``."""
        if self.row is None:
            return None
        attrs = "".join(f"[@{_DUMP_NAMES[a]}={xpath_literal(getattr(self, a))}]"
                        for a in ATTRIBUTES if getattr(self, a) is not None)
        return (f"//*[@text={xpath_literal(self.row)}]/ancestor-or-self::*[@clickable='true'][1]"
                f"/descendant-or-self::*{attrs}")

    def __str__(self) -> str:
        parts = [f"{a}={getattr(self, a)!r}" for a in (*ATTRIBUTES, "row") if getattr(self, a) is not None]
        if self.nth:
            parts.append(f"nth={self.nth}")
        return " ".join(parts)
