"""A screen's actionable elements: what a policy's action slots, an LLM's element ids and
the report all point at (DESIGN §4b), so "element 6" is the same node everywhere.

An element is an enabled node that is clickable, long-clickable, checkable, editable or
scrollable, in an app's window (the status and navigation bars and the keyboard are left
out: keys are typed, bars are BACK and HOME). Elements come window by window from the
top one down (a dialog's buttons first: they are what the screen is asking for, and
they keep their slots when a policy's space cuts the list short), in dump order within
a window; the order is stable for a screen. Each carries a tap point inside the part of
it that shows: its bounds clipped by its ancestors (a list cuts off a half-scrolled row)
and by the screen, minus the windows drawn above it (a dialog, a sheet, the keyboard, the
system bars). An element with nothing showing is not actionable and is not listed.
"""

from __future__ import annotations

from dataclasses import dataclass

from mobile_gym.actions import Action
from mobile_gym.ui.hierarchy import Bounds, Node, ViewHierarchy, is_system_window

#: Texts of a node's descendants merged into its label (a row reads as its title and
#: summary), and the longest label kept.
MAX_LABEL_TEXTS = 4
MAX_LABEL = 120


@dataclass(frozen=True)
class Element:
    """One actionable element of a screen."""

    index: int  # position in the screen's element list: the id every interface uses
    node: Node  # the dump node
    visible: Bounds  # the part that shows, in screen pixels (never empty)
    point: tuple[float, float]  # where a tap lands: normalised [0, 1] screen coordinates
    label: str  # what a person reads on it: its text or description, else its children's texts

    @property
    def editable(self) -> bool:
        return is_editable(self.node)

    @property
    def scrollable(self) -> bool:
        return self.node.flags["scrollable"]


def is_editable(node: Node) -> bool:
    return "EditText" in node.class_name or "AutoCompleteTextView" in node.class_name


def is_actionable(node: Node) -> bool:
    f = node.flags
    return f["enabled"] and (f["clickable"] or f["long-clickable"] or f["checkable"] or f["scrollable"]
                             or is_editable(node))


def actionable_elements(hierarchy: ViewHierarchy) -> list[Element]:
    """The actionable elements of a screen, in their stable order (worked out once per
    parsed screen: the list is shared, do not change it)."""
    elements = hierarchy.derived.get(__name__)
    if elements is None:
        elements = hierarchy.derived[__name__] = _elements(hierarchy)
    return elements


def _elements(hierarchy: ViewHierarchy) -> list[Element]:
    screen = hierarchy.screen_bounds
    roots, nodes = hierarchy.roots, hierarchy.nodes
    # a window's nodes are a run of the document order, each after its parent: one pass
    # works out what of each node its ancestors and the screen leave showing
    ends = [r.order for r in roots[1:]] + [len(nodes)]
    clips: list[Rect | None] = [None] * len(nodes)
    elements: list[Element] = []
    for w in reversed(range(len(roots))):
        root = roots[w]
        if is_system_window(root):
            continue
        above = [r.bounds for r in roots[w + 1:] if r.bounds.area]
        for node in nodes[root.order:ends[w]]:
            b = node.bounds
            if node is root:
                pl, pt, pr, pb = screen.left, screen.top, screen.right, screen.bottom
            else:
                parent = clips[node.parent.order]  # type: ignore[union-attr]
                if parent is None:
                    continue  # nothing of the parent shows, nor of its children
                pl, pt, pr, pb = parent
            left, top = (b.left if b.left > pl else pl), (b.top if b.top > pt else pt)
            right, bottom = (b.right if b.right < pr else pr), (b.bottom if b.bottom < pb else pb)
            if left >= right or top >= bottom:
                continue
            clips[node.order] = (left, top, right, bottom)
            if is_actionable(node):
                visible = _largest_uncovered(Bounds(left, top, right, bottom), above)
                if visible is not None:
                    x, y = visible.center
                    elements.append(Element(len(elements), node, visible,
                                            (x / screen.right, y / screen.bottom), _label(node)))
    return elements


#: A scroll moves a third of the list's visible height (width, sideways): the golden
#: paths' own scroll distance.
SCROLL_FRACTION = 1 / 3
DIRECTIONS = ("up", "down", "left", "right")


def main_list(elements: list[Element], screen: tuple[int, int]) -> Element | None:
    """The list a scroll that names none moves: the one under the screen's centre, else
    the largest that shows; None when the screen has none."""
    lists = [e for e in elements if e.scrollable]
    if not lists:
        return None
    w, h = screen
    under = [e for e in lists if e.visible.contains(w / 2, h / 2)]
    return under[0] if under else max(lists, key=lambda e: e.visible.area)


def scroll_action(target: Element | None, direction: str, screen: tuple[int, int]) -> Action:
    """The swipe that moves ``target``'s content (None: the middle of the screen) so more
    of what is ``direction`` comes into view: the finger goes the other way, over
    `SCROLL_FRACTION` of the list's visible height (width, sideways)."""
    if target is None:
        (x, y), dx, dy = (0.5, 0.5), SCROLL_FRACTION / 2, SCROLL_FRACTION / 2
    else:
        v, (w, h) = target.visible, screen
        (x, y), dx, dy = target.point, v.width / w * SCROLL_FRACTION / 2, v.height / h * SCROLL_FRACTION / 2
    top, bottom = max(0.0, y - dy), min(1.0, y + dy)
    left, right = max(0.0, x - dx), min(1.0, x + dx)
    return {"down": Action.swipe(x, bottom, x, top), "up": Action.swipe(x, top, x, bottom),
            "right": Action.swipe(right, y, left, y), "left": Action.swipe(left, y, right, y)}[direction]


def focused_field(elements: list[Element]) -> Element | None:
    """The text field that has input focus, if one is on screen."""
    return next((e for e in elements if e.editable and e.node.flags["focused"]), None)


Rect = tuple[int, int, int, int]  # left, top, right, bottom


def _largest_uncovered(rect: Bounds, covers: list[Bounds]) -> Bounds | None:
    """The largest rectangle of ``rect`` outside every cover (pieces of the standard
    rectangle subtraction), or None when the covers hide it all."""
    pieces = [rect]
    for c in covers:
        if not pieces:
            return None
        rest: list[Bounds] = []
        for p in pieces:
            if c.right <= p.left or c.left >= p.right or c.bottom <= p.top or c.top >= p.bottom:
                rest.append(p)
                continue
            if c.top > p.top:
                rest.append(Bounds(p.left, p.top, p.right, c.top))
            if c.bottom < p.bottom:
                rest.append(Bounds(p.left, c.bottom, p.right, p.bottom))
            top, bottom = max(p.top, c.top), min(p.bottom, c.bottom)
            if c.left > p.left:
                rest.append(Bounds(p.left, top, c.left, bottom))
            if c.right < p.right:
                rest.append(Bounds(c.right, top, p.right, bottom))
        pieces = rest
    return max(pieces, key=lambda p: p.area, default=None)


def _label(node: Node) -> str:
    return " ".join(label_texts(node))[:MAX_LABEL]


def label_texts(node: Node) -> list[str]:
    """What a person reads on an element: its text or description, else its children's
    texts (up to `MAX_LABEL_TEXTS`, each once), whitespace collapsed."""
    own = node.text or node.content_desc
    if own:
        return [" ".join(own.split())]
    texts: list[str] = []
    for n in node.iter():
        text = n.text or (n.content_desc if not n.children else "")
        if text and text not in texts:
            texts.append(" ".join(text.split()))
            if len(texts) == MAX_LABEL_TEXTS:
                break
    return texts
