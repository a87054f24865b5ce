"""uiautomator view hierarchies: parsing, the node model, xpaths and hit-testing.

Real dumps are messy (text before the XML declaration, truncated files, stray control
characters); lxml's recovering parser reads what can be read and only a dump with no
node at all is an error. Dumps are data from elsewhere, so entities are never expanded
nor fetched (no file or network access), and a dump over `MAX_DUMP_BYTES`, nested
deeper than `MAX_DEPTH` or with a rotation that is no number is a `ViewHierarchyError`.

XPaths are spelled the way uiautomator2 and LlamaTouch spell them: element names are
the Android class names (``//*[@resource-id="x"]/android.widget.TextView[2]``), not
the ``node`` tags of the raw dump. Both spellings are accepted by `ViewHierarchy.xpath`.

A screen's hierarchy is made once and shared by whoever is handed its dump, the env and
the agents alike (`ViewHierarchy.of`).
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import attrgetter
from pathlib import Path
from typing import Any, Callable, Hashable, Iterator

from lxml import etree

from mobile_gym.errors import FormatError, ViewHierarchyError
from mobile_gym.formats.files import MAX_DUMP_BYTES, read_bytes, size_text

#: Boolean attributes of a dump node, in the order uiautomator writes them.
FLAG_NAMES = (
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
)

#: A dump node's attributes in the order uiautomator writes them (the flags are
#: FLAG_NAMES in another order).
_DUMP_ATTRIBUTES = ["index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
                    "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
                    "selected", "bounds"]
_FLAG_ORDER = tuple(_DUMP_ATTRIBUTES[6:-1])

#: Packages whose windows are never the app on screen: the status bar, notification
#: shade and navigation bar, and the keyboards (any package with "inputmethod" in its
#: name is one too; uiautomator2's input method lives in com.github.uiautomator).
SYSTEM_WINDOW_PACKAGES = frozenset({
    "com.android.systemui",
    "com.github.uiautomator",
    "com.samsung.android.honeyboard",
    "com.touchtype.swiftkey",
    "com.baidu.input",
})


def is_system_window(node: Node) -> bool:
    """Whether the node is in a window of the status bar, navigation bar or a keyboard,
    never the app's (every node carries its window's package)."""
    return node.package in SYSTEM_WINDOW_PACKAGES or "inputmethod" in node.package


#: Deepest nesting of nodes read (libxml2's own default limit); real dumps stay far
#: below, and the node model is walked recursively.
MAX_DEPTH = 256

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_NOT_NAME_CHAR = re.compile(r"[^A-Za-z0-9_.\-]")


@dataclass(frozen=True, order=True)
class Bounds:
    """Pixel rectangle ``[left,top][right,bottom]``; edges count as inside."""

    left: int
    top: int
    right: int
    bottom: int

    @classmethod
    def parse(cls, text: str) -> Bounds:
        if not isinstance(text, str):
            raise ValueError(f"bounds must look like '[l,t][r,b]', got {text!r}")
        return _parsed_bounds(text)

    def __str__(self) -> str:
        return f"[{self.left},{self.top}][{self.right},{self.bottom}]"

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top

    @property
    def area(self) -> int:
        return max(0, self.width) * max(0, self.height)

    @property
    def center(self) -> tuple[float, float]:
        return ((self.left + self.right) / 2, (self.top + self.bottom) / 2)

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x <= self.right and self.top <= y <= self.bottom

    def scaled(self, sx: float, sy: float) -> Bounds:
        return Bounds(
            round(self.left * sx), round(self.top * sy), round(self.right * sx), round(self.bottom * sy)
        )


@lru_cache(maxsize=16_384)
def _parsed_bounds(text: str) -> Bounds:
    """Bounds are immutable and a screen's recur from dump to dump: parse each text once."""
    m = _BOUNDS.fullmatch(text.strip())
    if not m:
        raise ValueError(f"bounds must look like '[l,t][r,b]', got {text!r}")
    return Bounds(*(int(g) for g in m.groups()))


_EMPTY = Bounds(0, 0, 0, 0)


class Node:
    """One view of the hierarchy. Attribute names follow the dump (`resource_id` for
    ``resource-id``); the boolean flags are in `flags` under their dump names."""

    __slots__ = (
        "index",
        "text",
        "resource_id",
        "class_name",
        "package",
        "content_desc",
        "flags",
        "bounds",
        "parent",
        "children",
        "order",
        "_element",
        "_hierarchy",
    )

    def __init__(self, index: str, text: str, resource_id: str, class_name: str, package: str, content_desc: str,
                 flags: dict[str, bool], bounds: Bounds, parent: Node | None, order: int, hierarchy: ViewHierarchy,
                 element: etree._Element | None = None):
        self.index = index
        self.text = text
        self.resource_id = resource_id
        self.class_name = class_name
        self.package = package
        self.content_desc = content_desc
        self.flags = flags
        self.bounds = bounds
        self.parent = parent
        self.children: list[Node] = []
        self.order = order  # position in document (drawing) order
        self._element = element  # the parsed XML element; None for a tree built without XML
        self._hierarchy = hierarchy

    @classmethod
    def read(cls, element: etree._Element, parent: Node | None, order: int, hierarchy: ViewHierarchy) -> Node:
        """The node of a parsed dump element."""
        values = element.values()
        if len(values) == len(_DUMP_ATTRIBUTES) and element.keys() == _DUMP_ATTRIBUTES:
            # uiautomator's own attribute order (the simulator's too): read by position
            index, text, resource_id, class_name, package, content_desc, *flag_values, bounds = values
            flags = dict(zip(_FLAG_ORDER, [v == "true" for v in flag_values]))
        else:
            get = element.get
            index = get("index", "")
            text = get("text", "") or ""
            resource_id = get("resource-id", "") or ""
            class_name = get("class", "") or ""
            package = get("package", "") or ""
            content_desc = get("content-desc", "") or ""
            flags = {name: get(name) == "true" for name in FLAG_NAMES}
            bounds = get("bounds", "")
        try:
            box = Bounds.parse(bounds)
        except ValueError:
            box = _EMPTY
        return cls(index, text, resource_id, class_name, package, content_desc, flags, box, parent, order,
                   hierarchy, element)

    def attributes(self) -> dict[str, str]:
        """The node's attributes as the dump spells them."""
        if self._element is not None:
            return dict(self._element.attrib)
        flags = self.flags
        return {"index": self.index, "text": self.text, "resource-id": self.resource_id, "class": self.class_name,
                "package": self.package, "content-desc": self.content_desc,
                **{name: "true" if flags[name] else "false" for name in _FLAG_ORDER}, "bounds": str(self.bounds)}

    def __repr__(self) -> str:
        label = self.text or self.content_desc or self.resource_id
        return f"<Node {self.class_name} {label!r} {self.bounds}>"

    @property
    def clickable(self) -> bool:
        return self.flags["clickable"]

    @property
    def checked(self) -> bool:
        return self.flags["checked"]

    @property
    def label(self) -> str:
        """What a person reads on the node: its text, else its content description."""
        return self.text or self.content_desc

    @property
    def window(self) -> Node:
        """The root of this node's window (a dump has one top-level node per window)."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def iter(self) -> Iterator[Node]:
        """This node and its descendants, in document order."""
        yield self
        for child in self.children:
            yield from child.iter()

    @property
    def clickable_target(self) -> Node | None:
        """The node a tap on this one goes to: itself or its nearest clickable ancestor."""
        if self.clickable:
            return self
        return next((a for a in self.ancestors() if a.clickable), None)

    @property
    def absolute_xpath(self) -> str:
        """``/hierarchy/android.widget.FrameLayout/...[2]`` in uiautomator2's spelling."""
        return self._hierarchy._class_tree_path(self)

    @property
    def xpath(self) -> str:
        """A short xpath that locates this node, anchored at the nearest ancestor-or-self
        whose resource-id is unique in the dump (the LlamaTouch annotation style)."""
        return self._hierarchy._anchored_xpath(self)


class ViewHierarchy:
    """A parsed uiautomator dump (or one built from a simulator's own views with
    `ViewHierarchy.built`: the same nodes without parsing)."""

    def __init__(self, xml: str | bytes, *, source: str | Path | None = None):
        self.source = source
        #: Views of this screen other modules work out once and keep with it, by the
        #: module's own key (its actionable elements).
        self.derived: dict[Any, Any] = {}
        #: Like `derived`, for plain values (no nodes) that follow from the app windows
        #: and where the other windows are, such as a policy's features and masks: a
        #: built hierarchy shares them with the screens whose app windows are the same.
        self.shared: dict[Any, Any] = self.derived
        name = source or "view hierarchy"
        self._xml: str | None = None
        root = _parse(xml, name)
        self._root: etree._Element | None = root
        rotation = root.get("rotation", "0") if root.tag == "hierarchy" else "0"
        try:
            self.rotation = int(rotation or 0)
        except ValueError:
            raise ViewHierarchyError(f"{name}: rotation must be a number, got {rotation!r}") from None
        self._nodes: list[Node] = []
        self._pending: Callable[[ViewHierarchy], list[Node]] | None = None
        tops = [root] if root.tag == "node" else [e for e in root if e.tag == "node"]
        self._roots: list[Node] = [self._build(e, None, 1) for e in tops]
        if not any(n.class_name for n in self.nodes):  # recovery can leave bare <node/> stubs
            raise ViewHierarchyError(f"{name}: the dump holds no usable nodes")

    @classmethod
    def built(cls, xml: str, build_roots: Callable[[ViewHierarchy], list[Node]],
              same_apps: Hashable = None) -> ViewHierarchy:
        """The hierarchy of the dump ``xml``, its nodes made by ``build_roots(hierarchy)``
        from the views the dump was written from, not by parsing it: a simulator's frame
        knows its nodes, and a parse costs more than the frame. The nodes are made when
        first read, and the XML is parsed only if an xpath or ``to_xml`` asks for it. The
        builder must make exactly the nodes a parse would (in document order, appended to
        ``hierarchy.nodes``).

        ``same_apps`` is equal for screens whose app windows are the same, nodes and
        their order in the dump, and whose other windows are where they are (a clock
        tick in the status bar is no new screen for them): they share `shared` (kept
        for the last `SHARED_PARSES` such keys)."""
        self = cls.__new__(cls)
        self.source = None
        self.derived = {}
        self.shared = self.derived if same_apps is None else _shared_values(same_apps)
        self._xml = xml
        self._root = None
        self.rotation = 0
        self._nodes = []
        self._roots = []
        self._pending = build_roots
        PARSES.put(xml, self)  # `of` finds it: whoever is handed the dump shares these nodes
        return self

    @classmethod
    def of(cls, xml: str | bytes) -> ViewHierarchy:
        """The hierarchy of the dump ``xml``, shared by everyone handed that dump: the one
        made or promised for an equal string (by `built`, an earlier `of` or a simulated
        screen's `UIState`; the last few are kept in `PARSES`), else a new parse, kept.
        An env's observation carries the very string its own hierarchy is made for, so
        an agent reading it does not parse it again (a parse costs about a millisecond).
        What it returns is shared: read it, never change it (`derived` is for caches).
        Bytes are parsed afresh and not kept; a dump that fails to parse raises, not kept."""
        if not isinstance(xml, str):
            return cls(xml)
        hierarchy = PARSES.get(xml)
        if hierarchy is None:
            hierarchy = cls(xml)  # a parse error raises here: nothing is kept
            PARSES.put(xml, hierarchy)
        return hierarchy

    @property
    def nodes(self) -> list[Node]:
        """Every node, in document order."""
        if self._pending is not None:
            self._make_nodes()
        return self._nodes

    @property
    def roots(self) -> list[Node]:
        """The top nodes: one per window."""
        if self._pending is not None:
            self._make_nodes()
        return self._roots

    def _make_nodes(self) -> None:
        build, self._pending = self._pending, None
        self._roots = build(self)  # type: ignore[misc]

    @property
    def root_element(self) -> etree._Element:
        """The dump's XML tree (for a built hierarchy, parsed on first use)."""
        if self._root is None:
            self._root = _parse(self._xml, "view hierarchy")  # type: ignore[arg-type]
        return self._root

    def __reduce__(self):
        """Pickle as the XML it was parsed from (lxml trees do not pickle)."""
        xml = self._xml.encode("utf-8") if self._xml is not None else etree.tostring(self.root_element)
        return (_unpickle_hierarchy, (xml, self.source))

    def _build(self, element: etree._Element, parent: Node | None, depth: int) -> Node:
        if depth > MAX_DEPTH:
            name = self.source or "view hierarchy"
            raise ViewHierarchyError(f"{name}: nodes are nested deeper than {MAX_DEPTH} levels")
        node = Node.read(element, parent, len(self._nodes), self)
        self._nodes.append(node)
        node.children = [self._build(child, node, depth + 1) for child in element if child.tag == "node"]
        return node

    @classmethod
    def from_file(cls, path: str | Path) -> ViewHierarchy:
        data = read_bytes(path, "view hierarchy", MAX_DUMP_BYTES)
        try:
            return cls(data, source=path)
        except ViewHierarchyError as exc:
            raise FormatError(path, str(exc).split(": ", 1)[-1]) from exc

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def to_xml(self) -> str:
        return etree.tostring(self.root_element, encoding="unicode")

    @cached_property
    def screen_bounds(self) -> Bounds:
        """The bounds of the screen the dump covers (the union of the top nodes)."""
        boxes = [n.bounds for n in self.roots]
        return Bounds(
            min(b.left for b in boxes), min(b.top for b in boxes),
            max(b.right for b in boxes), max(b.bottom for b in boxes),
        )

    @cached_property
    def app_package(self) -> str | None:
        """The package of the app on screen, for activity names recorded without theirs.

        A dump has one top-level node per window. Real dumps list the window with input
        focus first and the simulator lists windows bottom to top, so in both the app's
        window is the first one that is not system UI or a keyboard (an app's dialogs
        carry its package anyway). None when every window is a system one.
        """
        for root in self.roots:
            if root.package and not is_system_window(root):
                return root.package
        return None

    @cached_property
    def dialog_windows(self) -> tuple[Node, ...]:
        """The windows over the app's own: dialogs, sheets and menus, i.e. every window but
        system UI, keyboards and the largest app window. Android's are modal: while one
        shows, a tap outside it dismisses it or does nothing, and never reaches the app
        window below (in either dump order, real or simulated)."""
        apps = [r for r in self.roots if not is_system_window(r)]
        if len(apps) < 2:
            return ()
        main = max(apps, key=lambda r: r.bounds.area)
        return tuple(r for r in apps if r is not main)

    # -- lookup -------------------------------------------------------------------------
    def find_all(
        self,
        *,
        text: str | None = None,
        resource_id: str | None = None,
        class_name: str | None = None,
        content_desc: str | None = None,
        package: str | None = None,
        ignore_case: bool = False,
        **flags: bool,
    ) -> list[Node]:
        """Nodes whose attributes equal every given value (flags by dump name with
        ``_`` for ``-``, e.g. ``long_clickable=True``)."""
        wanted = {
            k: v
            for k, v in (
                ("text", text),
                ("resource_id", resource_id),
                ("class_name", class_name),
                ("content_desc", content_desc),
                ("package", package),
            )
            if v is not None
        }
        wanted_flags = {k.replace("_", "-"): bool(v) for k, v in flags.items()}
        unknown = set(wanted_flags) - set(FLAG_NAMES)
        if unknown:
            raise TypeError(f"unknown node attribute(s): {', '.join(sorted(unknown))}")
        found = self.nodes
        for name, value in wanted.items():  # one pass per condition: agents ask on every step
            if ignore_case:
                value = value.lower()
                found = [n for n in found if getattr(n, name).lower() == value]
            else:
                found = [n for n in found if getattr(n, name) == value]
        for name, flag in wanted_flags.items():
            found = [n for n in found if n.flags[name] == flag]
        return list(found) if found is self.nodes else found

    def find(self, **attributes) -> Node | None:
        found = self.find_all(**attributes)
        return found[0] if found else None

    def xpath(self, expression: str) -> list[Node]:
        """Nodes an xpath selects, in either spelling (class names or ``node`` tags)."""
        by_attribute = _BY_ATTRIBUTE.fullmatch(expression)
        if by_attribute is not None:  # the nodes themselves answer it: no XML tree to make
            name, value = by_attribute[1], by_attribute[2] or by_attribute[3]
            field = _NODE_FIELDS[name]
            return [n for n in self.nodes if field(n) == value]
        for tree, nodes in ((self._class_tree, self._class_nodes), (self.root_element, None)):
            try:
                found = tree.xpath(expression)
            except etree.XPathError as exc:
                raise ViewHierarchyError(f"invalid xpath {expression!r}: {exc}") from exc
            if not isinstance(found, list):
                continue
            elements = [e for e in found if isinstance(e, etree._Element)]
            if not elements:
                continue
            if nodes is not None:
                return [nodes[e] for e in elements if e in nodes]
            by_element = self._nodes_by_element
            return [by_element[e] for e in elements if e in by_element]
        return []

    @cached_property
    def _nodes_by_element(self) -> dict[etree._Element, Node]:
        if self._xml is None:
            return {n._element: n for n in self.nodes}
        # built from views: the dump's node elements are the nodes, in document order
        return dict(zip(self.root_element.iter("node"), self.nodes))

    # -- hit testing ------------------------------------------------------------------
    def nodes_at(self, x: float, y: float) -> list[Node]:
        """Nodes whose bounds contain the pixel (x, y), topmost first (later in the dump
        is drawn on top; a child is on top of its parent)."""
        return list(self._hits(x, y))

    def _hits(self, x: float, y: float) -> Iterator[Node]:
        for n in reversed(self.nodes):
            b = n.bounds
            if b.left <= x <= b.right and b.top <= y <= b.bottom and b.right > b.left and b.bottom > b.top:
                yield n

    def node_at(self, x: float, y: float) -> Node | None:
        return next(self._hits(x, y), None)

    def clickable_at(self, x: float, y: float) -> Node | None:
        """The node a tap at pixel (x, y) goes to on Android: the topmost node there,
        routed to its nearest clickable ancestor-or-self."""
        for node in self._hits(x, y):
            target = node.clickable_target
            if target is not None:
                return target
        return None

    # -- xpaths -------------------------------------------------------------------------
    @cached_property
    def _class_tree_parts(self) -> tuple[etree._Element, dict[etree._Element, Node], dict[int, etree._Element]]:
        """A copy of the dump whose element names are the class names, for xpaths."""
        root = etree.Element("hierarchy", rotation=str(self.rotation))
        nodes: dict[etree._Element, Node] = {}
        elements: dict[int, etree._Element] = {}

        def add(node: Node, parent: etree._Element) -> None:
            tag = _NOT_NAME_CHAR.sub("_", node.class_name) or "node"
            if not (tag[0].isalpha() or tag[0] == "_"):
                tag = "_" + tag
            element = etree.SubElement(parent, tag, node.attributes())
            nodes[element] = node
            elements[node.order] = element
            for child in node.children:
                add(child, element)

        for top in self.roots:
            add(top, root)
        return root, nodes, elements

    @property
    def _class_tree(self) -> etree._Element:
        return self._class_tree_parts[0]

    @property
    def _class_nodes(self) -> dict[etree._Element, Node]:
        return self._class_tree_parts[1]

    def _class_tree_path(self, node: Node) -> str:
        element = self._class_tree_parts[2][node.order]
        return element.getroottree().getpath(element)

    @cached_property
    def _resource_id_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for n in self.nodes:
            if n.resource_id:
                counts[n.resource_id] = counts.get(n.resource_id, 0) + 1
        return counts

    def _anchored_xpath(self, node: Node) -> str:
        absolute = self._class_tree_path(node)
        for anchor in [node, *node.ancestors()]:
            rid = anchor.resource_id
            if rid and self._resource_id_counts[rid] == 1 and '"' not in rid:
                anchor_path = self._class_tree_path(anchor)
                return f'//*[@resource-id="{rid}"]' + absolute[len(anchor_path) :]
        return absolute


#: ``//*[@name="value"]``: the nodes with one attribute's value, the commonest xpath of a
#: checkpoint (a component anchored on its resource-id). A node's field holds its
#: attribute's value ("" when missing, so an empty value is left to lxml).
_BY_ATTRIBUTE = re.compile(r"""//\*\[@(resource-id|text|content-desc|class|package)=(?:"([^"]+)"|'([^']+)')\]""")
_NODE_FIELDS = {name: attrgetter(field) for name, field in (
    ("resource-id", "resource_id"), ("text", "text"), ("content-desc", "content_desc"), ("class", "class_name"),
    ("package", "package"))}


def _parse(xml: str | bytes, name: str | Path) -> etree._Element:
    data = xml.encode("utf-8", errors="replace") if isinstance(xml, str) else bytes(xml)
    if len(data) > MAX_DUMP_BYTES:
        raise ViewHierarchyError(f"{name}: the dump is larger than the limit of {size_text(MAX_DUMP_BYTES)}")
    start = data.find(b"<")
    if start < 0:
        raise ViewHierarchyError(f"{name}: no XML content")
    # huge_tree lifts libxml2's own depth limit, which recovery applies by silently
    # cutting the tree; MAX_DEPTH and MAX_DUMP_BYTES bound the dump instead.
    parser = etree.XMLParser(
        recover=True, huge_tree=True, remove_blank_text=True,
        resolve_entities=False, no_network=True, load_dtd=False,
    )
    try:
        root = etree.fromstring(data[start:], parser)
    except etree.XMLSyntaxError as exc:  # raised only when nothing is recoverable
        raise ViewHierarchyError(f"{name}: unparseable XML ({exc})") from exc
    if root is None:
        raise ViewHierarchyError(f"{name}: unparseable XML")
    return root


def parsed_screen(xml: str, build: Callable[[], ViewHierarchy] | None = None) -> ViewHierarchy:
    """`ViewHierarchy.of` the dump, with ``build`` making the hierarchy of a screen not
    seen lately without parsing it (a simulator's frame builds it from its views,
    `ViewHierarchy.built`)."""
    if build is None:
        return ViewHierarchy.of(xml)
    hierarchy = PARSES.get(xml)  # made, or promised (a simulated screen's `UIState` promises its own)
    if hierarchy is None:
        hierarchy = build()
        PARSES.put(xml, hierarchy)
    return hierarchy


class ParseMemo:
    """The hierarchies of the last ``max_entries`` distinct dumps, by the dump's text,
    holding dumps of at most ``max_chars`` characters in all: a dump can be hundreds of
    KB and its nodes take a few times that, so a count alone bounds no memory. An entry
    may be a promise, the function that makes the hierarchy when first asked for.

    Entries are found by the very string first: hashing a dump costs as much as a
    tenth of a simulated step, and the string an env's observation carries is the one
    its hierarchy was kept for. An equal string from elsewhere is found by comparing
    the few kept dumps of its length."""

    def __init__(self, max_entries: int, max_chars: int):
        self.max_entries, self.max_chars = max_entries, max_chars
        #: id of the kept dump -> (the dump, its hierarchy or a promise), least recent first
        self.entries: OrderedDict[int, tuple[str, ViewHierarchy | Callable[[], ViewHierarchy]]] = OrderedDict()
        self.chars = 0  # the kept dumps' total length
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.entries)

    def _find(self, xml: str) -> int | None:
        """The key of the entry kept for a dump equal to ``xml``, or None."""
        key = id(xml)
        if key in self.entries:  # the entry holds its string: no other string has its id
            return key
        n = len(xml)
        for key, (kept, _) in self.entries.items():
            if len(kept) == n and kept == xml:
                return key
        return None

    def get(self, xml: str) -> ViewHierarchy | None:
        """The hierarchy kept for ``xml`` (made now if promised), or None."""
        with self._lock:
            key = self._find(xml)
            if key is None:
                return None
            kept, entry = self.entries[key]
            if isinstance(entry, ViewHierarchy):
                self.entries.move_to_end(key)
                return entry
            # a promise is taken out while it runs: one that reads another state's
            # hierarchy of the same dump (a replay's) finds no entry instead of itself
            del self.entries[key]
            self.chars -= len(kept)
        hierarchy = entry()  # made once, then kept in the promise's place
        if hierarchy is not None:  # None: a weak promise whose maker is gone
            self.put(xml, hierarchy)
        return hierarchy

    def put(self, xml: str, hierarchy: ViewHierarchy) -> None:
        """Keep ``hierarchy`` for ``xml``, in place of what was kept for an equal string."""
        self._keep(xml, hierarchy, replace=True)

    def promise(self, xml: str, build: Callable[[], ViewHierarchy]) -> None:
        """Keep ``build`` to make the hierarchy of ``xml`` when first asked for, unless one
        is kept already: a simulator's screen is worth building only if someone reads it.
        A bound method is held weakly: a promise must not keep a screen's views (and with
        them a whole phone, through their handlers) alive once nobody else does."""
        if hasattr(build, "__self__"):
            build = _WeakPromise(build)
        self._keep(xml, build, replace=False)

    def _keep(self, xml: str, entry: ViewHierarchy | Callable[[], ViewHierarchy], replace: bool) -> None:
        if not isinstance(xml, str) or len(xml) > self.max_chars:
            return
        with self._lock:
            key = self._find(xml)
            if key is not None:  # re-keyed by this very string: its lookups compare no text
                kept_xml, kept = self.entries.pop(key)
                self.chars -= len(kept_xml)
                if not replace and not isinstance(kept, _WeakPromise):  # a fresh promise lives longer
                    entry = kept
            self.entries[id(xml)] = (xml, entry)
            self.chars += len(xml)
            while len(self.entries) > self.max_entries or self.chars > self.max_chars:
                self.chars -= len(self.entries.popitem(last=False)[1][0])

    def clear(self) -> None:
        with self._lock:
            self.entries.clear()
            self.chars = 0


class _WeakPromise:
    """A bound method held by a weak reference: called, None once its object is gone."""

    __slots__ = ("method",)

    def __init__(self, method: Callable[[], ViewHierarchy]):
        self.method = weakref.WeakMethod(method)  # type: ignore[arg-type]

    def __call__(self) -> ViewHierarchy | None:
        method = self.method()
        return None if method is None else method()


def _shared_values(same_apps: Hashable) -> dict[Any, Any]:
    values = _SHARED.get(same_apps)
    if values is None:
        values = _SHARED[same_apps] = {}
        if len(_SHARED) > SHARED_PARSES:
            _SHARED.popitem(last=False)
    else:
        _SHARED.move_to_end(same_apps)
    return values


SHARED_PARSES = 64
#: The process's shared hierarchies (`ViewHierarchy.of`): an agent needs the screen it
#: is handed, a trace replay the few screens an episode revisits.
PARSES = ParseMemo(max_entries=16, max_chars=2_000_000)
_SHARED: OrderedDict[Hashable, dict[Any, Any]] = OrderedDict()


def _unpickle_hierarchy(xml: bytes, source: str | Path | None) -> ViewHierarchy:
    return ViewHierarchy(xml, source=source)
