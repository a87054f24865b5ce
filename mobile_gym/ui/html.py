"""The compact HTML form of a screen (AutoDroid style) that the matcher's screen-level
fuzzy check (``fuzzy<-1>``) embeds: its form is part of the matcher's verdicts, so it
stays as LlamaTouch's comparison needs it. What LLM agents read is
`mobile_gym.ui.screen_text` (ids of the actionable elements, states, hints). One element
a line, types kept, layout dropped:

    <input id=0 text='Search'>excel</input>
    <button id=1 text='Navigate up'></button>
    <checkbox id=2 checked=True>Wi-Fi</checkbox>
    <scroller id=3></scroller>
    <p id=4>Your cart is empty</p>

Containers without text vanish; text leaves under a clickable or checkable ancestor are
merged into that ancestor's element (joined by ``<br>``), as a person reads a button.
The system bars are left out.
"""

from __future__ import annotations

from html import escape

from mobile_gym.ui.elements import is_editable
from mobile_gym.ui.hierarchy import Node, ViewHierarchy

#: Longest text kept per node (AutoDroid truncates the same way).
MAX_TEXT = 50
_SYSTEM_BARS = {"android:id/statusBarBackground", "android:id/navigationBarBackground"}


def _interactive(node: Node) -> bool:
    f = node.flags
    return f["clickable"] or f["long-clickable"] or f["checkable"] or is_editable(node)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text[:MAX_TEXT]


def screen_html(hierarchy: ViewHierarchy, *, with_ids: bool = True) -> str:
    """The compact HTML of a screen, one element per line."""
    lines: list[str] = []

    def visit(node: Node, owner: list[str] | None) -> None:
        if node.resource_id in _SYSTEM_BARS or not node.bounds.area:
            return
        if owner is None and _interactive(node):
            texts: list[str] = [t for t in (_clip(node.text),) if t]
            for child in node.children:
                visit(child, texts)
            lines.append(_element(node, texts, len(lines), with_ids))
            return
        if owner is not None:
            # inside an interactive element: merge its text, nested controls included
            if node.text:
                owner.append(_clip(node.text))
            elif node.content_desc and not node.children:
                owner.append(_clip(node.content_desc))
            for child in node.children:
                visit(child, owner)
            return
        if node.flags["scrollable"]:
            lines.append(_tag("scroller", len(lines), with_ids, node.content_desc, "", ""))
        elif node.text or node.content_desc:
            text = escape(_clip(node.text), quote=False)
            lines.append(_tag("p", len(lines), with_ids, node.content_desc, "", text))
        for child in node.children:
            visit(child, None)

    for top in hierarchy.roots:
        visit(top, None)
    return "\n".join(lines)


def _element(node: Node, texts: list[str], position: int, with_ids: bool) -> str:
    body = "<br>".join(escape(t, quote=False) for t in dict.fromkeys(texts))  # no repeats
    if is_editable(node):
        return _tag("input", position, with_ids, node.content_desc, "", escape(_clip(node.text)))
    # a row whose switch or checkbox is a child reads as that control (e.g. a Wi-Fi row)
    toggle = next((n for n in node.iter() if n.flags["checkable"]), None)
    if toggle is not None:
        checked = f" checked={toggle.flags['checked'] or toggle.flags['selected']}"
        return _tag("checkbox", position, with_ids, node.content_desc, checked, body)
    return _tag("button", position, with_ids, node.content_desc, "", body)


def _tag(name: str, position: int, with_ids: bool, desc: str, extra: str, body: str) -> str:
    """`body` is already escaped."""
    ident = f" id={position}" if with_ids else ""
    label = f" text='{escape(_clip(desc), quote=True)}'" if desc else ""
    return f"<{name}{ident}{extra}{label}>{body}</{name}>"
