"""A screen as text for a language model, and the model's choice back as actions.

`ScreenElements` writes a screen's actionable elements (`mobile_gym.ui.elements`) as
AutoDroid's compact HTML — ``<button>``, ``<checkbox>``, ``<input>``, ``<scroller>`` with
the element's index as ``id``, and the texts between them as ``<p>`` — or as a plain
numbered list; element 6 of the HTML is slot 6 of `DiscreteElementActions` and element 6
of the report. `ScreenElements.actions_for` turns "tap 6", "type 'x' into 3" or "scroll 2
down" into the actions that do it, at a point of the element that shows and is not
under another window (a long press is no action of the env's action model, as in
LlamaTouch's):

    <p>Settings</p>
    <input id=0 label='Search settings'></input>
    <button id=1>Network &amp; internet<br>Mobile, Wi‑Fi, hotspot</button>
    <checkbox id=2 checked=false>Use Wi‑Fi</checkbox>
    <scroller id=3 more='below'></scroller>

A button's texts are its own and its children's, joined by ``<br>`` as AutoDroid merges
a row's title and summary. The focused field carries ``focused``, checkable elements
(or rows holding a switch or a checkbox) ``checked=true|false``, selected ones (tabs)
``selected``, and a list whose content is cut by its bottom edge ``more='below'`` (a
dump holds only what shows, so this is read from a child ending at that edge; what is
above a scrolled list leaves no such mark).
"""

from __future__ import annotations

from html import escape

from mobile_gym.actions import Action
from mobile_gym.errors import InvalidActionError
from mobile_gym.ui.elements import DIRECTIONS, Element, actionable_elements, label_texts, scroll_action
from mobile_gym.ui.hierarchy import Node, ViewHierarchy, is_system_window

#: Longest text of one element or paragraph kept (AutoDroid cuts the same way).
MAX_TEXT = 80

#: The verbs `ScreenElements.actions_for` takes for an element.
ELEMENT_VERBS = ("tap", "type", "scroll")


class ScreenElements:
    """The elements of one screen, as text and back.

    >>> import gymnasium as gym, mobile_gym
    >>> env = gym.make("LlamaTouch/settings-open-v0"); _ = env.reset(seed=0)
    >>> screen = ScreenElements(env.unwrapped.hierarchy)
    >>> print(screen.html().splitlines()[7])
    <button id=5>Settings</button>
    >>> screen.actions_for(5, "tap") == [Action.click(*screen.elements[5].point)]
    True
    """

    def __init__(self, hierarchy: ViewHierarchy):
        self.hierarchy = hierarchy
        self.elements: list[Element] = actionable_elements(hierarchy)
        screen = hierarchy.screen_bounds
        self.size = (screen.right or 1, screen.bottom or 1)
        self._by_node = {id(e.node): e for e in self.elements}

    @classmethod
    def of(cls, hierarchy: ViewHierarchy) -> ScreenElements:
        """The screen's `ScreenElements`, made once per parsed screen (the text wrappers
        and the agent all read it)."""
        screen = hierarchy.derived.get(__name__)
        if screen is None:
            screen = hierarchy.derived[__name__] = cls(hierarchy)
        return screen

    def __len__(self) -> int:
        return len(self.elements)

    # ------------------------------------------------------------------ text
    def html(self) -> str:
        """AutoDroid's compact HTML: one element or text per line, the top window first."""
        return "\n".join(self._lines(self._tag))

    def listing(self) -> str:
        """The same as a plain numbered list (``5. button: Settings``, ``2. checkbox: Wi‑Fi
        [checked false]``), other texts indented."""
        return "\n".join(self._lines(self._item))

    def _lines(self, write) -> list[str]:
        lines: list[str] = []
        roots = self.hierarchy.roots
        for w in reversed(range(len(roots))):  # the top window first, as the element ids go
            if not is_system_window(roots[w]):
                self._visit(roots[w], lines, write)
        return lines

    def _visit(self, node: Node, lines: list[str], write) -> None:
        element = self._by_node.get(id(node))
        if element is not None:
            lines.append(write(element))  # its texts are in its line; elements inside it follow
        elif node.text or (node.content_desc and not node.children):
            if node.bounds.area and not _inside_element(node, self._by_node):
                lines.append(write(None, _short(node.text or node.content_desc)))
        for child in node.children:
            self._visit(child, lines, write)

    def _tag(self, e: Element | None, text: str = "") -> str:
        if e is None:
            return f"<p>{escape(text, quote=False)}</p>"
        kind, states, label, texts = self._describe(e)
        attrs = "".join(f" {k}" if v is True else f" {k}={v}" for k, v in states.items())
        if label:
            attrs += f" label='{escape(label, quote=True)}'"
        body = "<br>".join(escape(t, quote=False) for t in texts)
        return f"<{kind} id={e.index}{attrs}>{body}</{kind}>"

    def _item(self, e: Element | None, text: str = "") -> str:
        if e is None:
            return f"    {text}"
        kind, states, label, texts = self._describe(e)
        words = " | ".join(texts + ([f"({label})"] if label else [])) or "(no text)"
        shown = ", ".join(k if v is True else f"{k} {str(v).strip(chr(39))}" for k, v in states.items())
        return f"{e.index}. {kind}: {words}" + (f" [{shown}]" if shown else "")

    def _describe(self, e: Element) -> tuple[str, dict[str, object], str, list[str]]:
        """The element's tag, states, label (its description) and texts."""
        node = e.node
        states: dict[str, object] = {}
        label = _short(node.content_desc)
        if e.editable:
            kind, texts = "input", [_short(node.text)] if node.text else []
            if node.flags["focused"]:
                states["focused"] = True
        elif e.scrollable and not (node.flags["clickable"] or node.flags["checkable"]):
            kind, texts = "scroller", []
            if _cut_below(node):
                states["more"] = "'below'"
        else:
            toggle = next((n for n in node.iter() if n.flags["checkable"]), None)
            kind = "checkbox" if toggle is not None else "button"
            if toggle is not None:
                states["checked"] = "true" if toggle.flags["checked"] else "false"
            texts = _texts(node)
            if label in texts:
                label = ""
        if node.flags["selected"]:
            states["selected"] = True
        return kind, states, label, texts

    # ------------------------------------------------------------------ actions
    def element(self, index: object) -> Element:
        """Element ``index`` (an int, or a string of one); an `InvalidActionError` that
        says what ids there are for anything else."""
        if isinstance(index, str) and index.strip().lstrip("-").isdigit():
            index = int(index.strip())
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.elements):
            ids = f"0 to {len(self.elements) - 1}" if self.elements else "none: the screen has no elements"
            raise InvalidActionError(f"no element {index!r} on this screen (ids: {ids})")
        return self.elements[index]

    def actions_for(self, index: object, verb: str, text: str | None = None,
                    direction: str | None = None) -> list[Action]:
        """The actions that do ``verb`` to element ``index``: one, or for typing into a
        field without focus a tap on it first, as a person does. ``scroll`` moves the
        content of the list (the element, or the list it is in) so more of what is
        ``direction`` (default ``down``) comes into view."""
        e = self.element(index)
        if verb == "tap":
            return [Action.click(*e.point)]
        if verb == "type":
            if text is None:
                raise InvalidActionError("type needs the text to type")
            if not e.editable:
                raise InvalidActionError(f"element {e.index} is a {self._describe(e)[0]}, not a text field")
            typing = Action.type_text(text)
            return [typing] if e.node.flags["focused"] else [Action.click(*e.point), typing]
        if verb == "scroll":
            if not e.scrollable:  # an item of a list: the list it is in
                holder = next((self._by_node[id(a)] for a in e.node.ancestors()
                               if id(a) in self._by_node and self._by_node[id(a)].scrollable), None)
                if holder is None:
                    raise InvalidActionError(f"element {e.index} is not in a list that scrolls")
                e = holder
            return [self._scroll(e, direction or "down")]
        raise InvalidActionError(f"unknown verb {verb!r} for an element: use {', '.join(ELEMENT_VERBS)}")

    def _scroll(self, e: Element, direction: str) -> Action:
        if direction not in DIRECTIONS:
            raise InvalidActionError(f"scroll direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
        return scroll_action(e, direction, self.size)


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


def _inside_element(node: Node, elements: dict[int, Element]) -> bool:
    """Whether a text belongs to an element's label (a non-scrolling ancestor element)."""
    return any(id(a) in elements and not elements[id(a)].scrollable for a in node.ancestors())


def _cut_below(node: Node) -> bool:
    """Whether a list's content goes on below it: a child ends at its bottom edge (dumps
    clip bounds to what shows)."""
    bottom = node.bounds.bottom
    return any(c.bounds.bottom == bottom and c.bounds.area for c in node.children)


def _texts(node: Node) -> list[str]:
    return list(dict.fromkeys(_short(t) for t in label_texts(node)))
