"""The simulator's widget tree.

Apps describe each screen as a fresh tree of `View`s, built from their state on every
frame (like a declarative UI toolkit). A tree is transient: it holds the handlers
(closures) for one frame and is never pickled; app and activity state hold the truth.

Sizes are in dp and turned into pixels by the layout pass for a device profile. A view is
either a container (`orient` "v" column, "h" row or "z" stack) or a leaf whose height
its builder sets. The builders below (`Text`, `Button`, `Switch`, ...) give each widget
its Android class name and default size, so app code reads like a layout file.
"""

from __future__ import annotations

from typing import Callable, Iterable

Handler = Callable[[], None]
TextHandler = Callable[[str], None]

# Android class names used by the builders.
FRAME = "android.widget.FrameLayout"
LINEAR = "android.widget.LinearLayout"
RELATIVE = "android.widget.RelativeLayout"
VIEW = "android.view.View"
VIEWGROUP = "android.view.ViewGroup"
TEXT = "android.widget.TextView"
BUTTON = "android.widget.Button"
IMAGE = "android.widget.ImageView"
IMAGE_BUTTON = "android.widget.ImageButton"
EDIT = "android.widget.EditText"
CHECKBOX = "android.widget.CheckBox"
SWITCH = "android.widget.Switch"
RECYCLER = "androidx.recyclerview.widget.RecyclerView"
WEBVIEW = "android.webkit.WebView"
PROGRESS = "android.widget.ProgressBar"


_LEAF: tuple = ()  # a leaf's children (no list to allocate)
_NO_PAD = (0.0, 0.0, 0.0, 0.0)  # the default padding, made once
#: Marks the end of `View`'s positional parameters. The rest are meant as keywords, but
#: written after a bare ``*`` CPython fills each missing one from a dict (over a quarter of the
#: cost of a view, of which a frame builds hundreds); a third positional argument lands
#: here instead and is refused.
_KEYWORDS = object()


class View:
    """One node: what uiautomator reports about it, how to lay it out and draw it, and
    what it does when touched.

    Layout fields (dp): ``h`` height (None: from the children), ``w`` width in a row or
    a stack (None: fill / share by ``weight``), ``pad`` inner padding, ``gap`` between
    children, ``fill`` takes the column's leftover height. ``scroll_key`` makes a
    container a vertical scroller whose offset the activity keeps under that key.

    Drawing fields: ``style`` picks the renderer's drawing routine (default from the
    class), ``bg``/``fg`` colours (``None``: theme), ``size`` text size in sp, ``bold``,
    ``align`` of text ("left", "center", "right"), ``icon`` a glyph name, ``radius`` of a
    rounded background, ``lines`` of text shown.
    """

    __slots__ = (
        "cls", "rid", "text", "desc", "package", "children",
        "checkable", "checked", "clickable", "enabled", "focusable", "focused",
        "scrollable", "long_clickable", "password", "selected",
        "on_click", "on_long_click", "on_submit", "field",
        "orient", "h", "w", "weight", "pad", "gap", "fill", "scroll_key",
        "style", "bg", "fg", "size", "bold", "align", "icon", "radius", "lines", "hint",
        "bounds", "clip",
    )

    def __init__(
        self,
        cls: str = VIEW,
        children: Iterable[View | None] = (),
        _keywords: object = _KEYWORDS,
        rid: str = "",
        text: str = "",
        desc: str = "",
        checkable: bool = False,
        checked: bool = False,
        clickable: bool = False,
        enabled: bool = True,
        focusable: bool | None = None,
        focused: bool = False,
        scrollable: bool = False,
        long_clickable: bool = False,
        password: bool = False,
        selected: bool = False,
        on_click: Handler | None = None,
        on_long_click: Handler | None = None,
        on_submit: TextHandler | None = None,
        field: str | None = None,
        orient: str = "v",
        h: float | None = None,
        w: float | None = None,
        weight: float = 0.0,
        pad: float | tuple[float, float, float, float] = 0.0,
        gap: float = 0.0,
        fill: bool = False,
        scroll_key: str | None = None,
        style: str | None = None,
        bg: tuple[int, int, int] | None = None,
        fg: tuple[int, int, int] | None = None,
        size: float = 14.0,
        bold: bool = False,
        align: str = "left",
        icon: str | None = None,
        radius: float = 0.0,
        lines: int = 1,
        hint: str = "",
    ):
        if _keywords is not _KEYWORDS:
            raise TypeError("View takes cls and children as positional arguments, the rest as keywords")
        self.cls = cls
        self.rid = rid
        self.text = text
        self.desc = desc
        self.package = ""  # set by the runtime to the owning window's package
        self.children = [c for c in children if c is not None] if children else _LEAF
        self.checkable = checkable
        self.checked = checked
        self.clickable = clickable or on_click is not None
        self.enabled = enabled
        self.focusable = self.clickable if focusable is None else focusable
        self.focused = focused
        self.scrollable = scrollable or scroll_key is not None
        self.long_clickable = long_clickable or on_long_click is not None
        self.password = password
        self.selected = selected
        self.on_click = on_click
        self.on_long_click = on_long_click
        self.on_submit = on_submit
        self.field = field
        self.orient = orient
        self.h = h
        self.w = w
        self.weight = weight
        self.pad = pad if isinstance(pad, tuple) else _NO_PAD if pad == 0.0 and type(pad) is float else (
            pad, pad, pad, pad)
        self.gap = gap
        self.fill = fill
        self.scroll_key = scroll_key
        self.style = style
        self.bg = bg
        self.fg = fg
        self.size = size
        self.bold = bold
        self.align = align
        self.icon = icon
        self.radius = radius
        self.lines = lines
        self.hint = hint
        self.bounds: tuple[int, int, int, int] = (0, 0, 0, 0)  # px, set by layout
        self.clip: tuple[int, int, int, int] | None = None  # visible part; None: hidden

    def __repr__(self) -> str:
        label = self.text or self.desc or self.rid
        return f"<{self.cls.rsplit('.', 1)[-1]} {label!r} {self.bounds}>"

    def walk(self):
        """This view and its descendants, depth first in drawing order."""
        stack = [self]
        while stack:
            v = stack.pop()
            yield v
            stack.extend(reversed(v.children))


# ---------------------------------------------------------------- containers

def Column(*children: View | None, cls: str = LINEAR, **kw) -> View:
    return View(cls, children, orient="v", **kw)


def Row(*children: View | None, cls: str = LINEAR, **kw) -> View:
    return View(cls, children, orient="h", **kw)


def Stack(*children: View | None, cls: str = FRAME, **kw) -> View:
    """Children drawn on top of each other (FrameLayout); each fills the stack unless it
    has its own ``h``/``w``, in which case ``align`` of the child places it."""
    return View(cls, children, orient="z", **kw)


def Scroll(*children: View | None, key: str, cls: str = RECYCLER, **kw) -> View:
    """A vertical scroller that fills the rest of its column; swipes move it."""
    kw.setdefault("fill", True)
    return View(cls, children, orient="v", scroll_key=key, **kw)


def Spacer(h: float = 0.0, **kw) -> View:
    return View(VIEW, (), h=h, style="none", **kw)


def Divider(**kw) -> View:
    return View(VIEW, (), h=1, style="divider", **kw)


# ---------------------------------------------------------------- leaves

def Text(text: str, *, size: float = 14.0, lines: int = 1, h: float | None = None,
         **kw) -> View:
    """A TextView; its height follows from the text size and the number of lines."""
    height = h if h is not None else round(size * 1.45 * lines + 4)
    return View(TEXT, (), text=text, size=size, lines=lines, h=height, **kw)


def Button(text: str, on_click: Handler | None, *, style: str = "filled", h: float = 48,
           **kw) -> View:
    """A Button; ``style`` is "filled", "tonal", "outlined" or "text"."""
    kw.setdefault("align", "center")
    kw.setdefault("radius", 20)
    return View(BUTTON, (), text=text, on_click=on_click, style=style, h=h, **kw)


def Icon(icon: str, *, desc: str = "", on_click: Handler | None = None, h: float = 48,
         w: float | None = 48, **kw) -> View:
    """An ImageButton when it has a handler, else an ImageView, drawn as a glyph."""
    cls = IMAGE_BUTTON if on_click is not None else IMAGE
    return View(cls, (), icon=icon, desc=desc, on_click=on_click, h=h, w=w, **kw)


def Switch(checked: bool, on_click: Handler | None, *, text: str = "", **kw) -> View:
    """A Switch; ``text`` is "ON"/"OFF" like Android's own switch label when empty."""
    kw.setdefault("w", 64)
    return View(SWITCH, (), text=text or ("ON" if checked else "OFF"), checkable=True,
                checked=checked, on_click=on_click, h=48, **kw)


def CheckBox(checked: bool, on_click: Handler | None, *, text: str = "", **kw) -> View:
    kw.setdefault("w", None if text else 48)
    return View(CHECKBOX, (), text=text, checkable=True, checked=checked,
                on_click=on_click, h=48, **kw)


def EditText(field: str, *, hint: str = "", on_submit: TextHandler | None = None,
             h: float = 56, **kw) -> View:
    """A text field whose contents the activity keeps under ``field``; the runtime fills
    in its text and focus, a tap focuses it and ENTER calls ``on_submit(text)``."""
    return View(EDIT, (), field=field, hint=hint, on_submit=on_submit, clickable=True,
                focusable=True, long_clickable=True, h=h, **kw)
