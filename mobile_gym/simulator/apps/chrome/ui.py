"""Widgets Chrome's screens share: preference rows in the androidx style the real
settings use (``android:id/title`` / ``android:id/summary``, a ``switchWidget``),
radio rows, favicons and a popup menu."""

from __future__ import annotations

from typing import Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.views import (
    Column, Icon, Row, Spacer, Switch, Text, View, CHECKBOX, LINEAR,
)

PKG = "com.android.chrome"
ID = PKG + ":id/"
RADIO = "android.widget.RadioButton"
BLUE = (26, 115, 232)
INCOGNITO_BG = (53, 54, 58)
WHITE = (255, 255, 255)
_PALETTE = ((219, 68, 55), (15, 157, 88), (66, 133, 244), (244, 160, 0), (171, 71, 188),
            (0, 137, 123), (255, 112, 67), (92, 107, 192))


def colour_for(text: str) -> tuple[int, int, int]:
    """A stable favicon colour for a host or title (no `hash`: it is salted per run)."""
    return _PALETTE[sum(map(ord, text)) % len(_PALETTE)]


def favicon(host: str, *, size: float = 40, **kw) -> View:
    """A round coloured site icon (ImageView without a description, like Chrome's)."""
    return Icon("globe", h=size, w=size, style="appicon", bg=colour_for(host), **kw)


def site_row(title: str, host: str, on_click: Callable[[], None], trailing: View | None = None,
             *, sub_rid: str = ID + "domain") -> View:
    """A page in a list (history, bookmarks, recent tabs): favicon, title over host."""
    return Row(
        favicon(host, size=32), Spacer(w=16),
        Column(Text(title, size=16, rid=ID + "title"),
               Text(host, size=13, style="muted", rid=sub_rid), h=51, weight=1),
        trailing,
        h=64, pad=(16, 0, 4 if trailing else 16, 0), on_click=on_click,
    )


def _texts(title: str, summary: str, enabled: bool = True) -> View:
    """Title over summary, centred vertically in its row."""
    t = Text(title, size=16, rid="android:id/title", enabled=enabled)
    if not summary:
        return Column(t, h=27, weight=1)
    lines = 2 if len(summary) > 44 else 1
    s = Text(summary, size=14, lines=lines, style="muted", rid="android:id/summary", enabled=enabled)
    return Column(t, s, h=27 + s.h, weight=1)


def pref(title: str, summary: str = "", on_click: Callable[[], None] | None = None, *,
         icon: str | None = None, enabled: bool = True) -> View:
    """A preference row that opens a page or runs ``on_click``."""
    return Row(
        Icon(icon, w=56, rid="android:id/icon") if icon else Spacer(w=16),
        _texts(title, summary, enabled),
        h=72 if summary else 56, pad=(0, 0, 16, 0), on_click=on_click if enabled else None,
        enabled=enabled, cls=LINEAR,
    )


def switch_pref(title: str, summary: str, checked: bool, on_toggle: Callable[[], None], *,
                enabled: bool = True) -> View:
    """A switch preference: the row takes the tap, the switch shows the state."""
    return Row(
        Spacer(w=16),
        _texts(title, summary, enabled),
        Switch(checked, None, rid=ID + "switchWidget", enabled=enabled, focusable=False),
        h=72 if summary else 56, pad=(0, 0, 8, 0), on_click=on_toggle if enabled else None,
        enabled=enabled,
    )


def check_pref(title: str, summary: str, checked: bool, on_toggle: Callable[[], None], *,
               enabled: bool = True) -> View:
    """A checkbox preference (Clear browsing data, Manage what you sync)."""
    return Row(
        Spacer(w=8),
        View(CHECKBOX, (), checkable=True, checked=checked, rid=ID + "checkbox", w=48, h=48,
             focusable=False, enabled=enabled),
        _texts(title, summary, enabled),
        h=72 if summary else 56, pad=(0, 0, 16, 0), on_click=on_toggle if enabled else None,
        enabled=enabled,
    )


def radio(label: str, summary: str, selected: bool, on_click: Callable[[], None]) -> View:
    """A radio choice; the RadioButton carries ``checked`` (its ring and dot are drawn by
    child images, as the renderer has no radio style)."""
    marks = (Icon("circle", h=48, w=48, fg=BLUE if selected else None),
             Icon("nav_home", h=48, w=48, fg=BLUE) if selected else None)
    return Row(
        Spacer(w=8),
        View(RADIO, marks, checkable=True, checked=selected, rid=ID + "radio_button",
             w=48, h=48, orient="z"),
        _texts(label, summary),
        h=72 if summary else 56, pad=(0, 0, 16, 0), on_click=on_click,
    )


def header(text: str) -> View:
    """A preference category title."""
    return Row(Spacer(w=16), Text(text, size=14, bold=True, fg=BLUE, rid="android:id/title"),
               h=48)


def note(text: str, lines: int = 2) -> View:
    """Explanatory text in a settings list."""
    return Row(Spacer(w=16), Text(text, size=14, lines=lines, style="muted", weight=1),
               Spacer(w=16), h=round(14 * 1.45 * lines + 12))


def empty(text: str, rid: str = ID + "empty_view") -> View:
    return Text(text, size=16, style="muted", align="center", h=120, rid=rid)


class PopupMenu(Dialog):
    """A popup list of ``(label, handler)`` items at the top right; handlers must pickle
    (bound methods or partials)."""

    def __init__(self, items: tuple[tuple[str, Callable[[], None]], ...], *, width: float = 220):
        super().__init__(kind="menu", modal=False)
        self.items = items
        self.width = width

    def build(self) -> View:
        return Column(
            *(Row(Text(label, size=16, rid=ID + "menu_item_text"), h=48, pad=(16, 0, 16, 0),
                  on_click=lambda h=handler: self._press(h))
              for label, handler in self.items),
            cls="android.widget.ListView", pad=(0, 8, 0, 8), w=self.width, style="dialog",
            radius=8, rid=ID + "app_menu_list",
        )
