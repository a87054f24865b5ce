"""Pieces the Clock app's screens share: preference rows, radio rows, the floating
action button, and the choice / overflow-menu dialogs (which keep only picklable
handlers: bound methods and partials)."""

from __future__ import annotations

from typing import Any, Callable

from mobile_gym.simulator.app import Dialog
from mobile_gym.simulator.views import (
    Button, Column, Icon, Row, Scroll, Spacer, Stack, Switch, Text, View, FRAME, LINEAR,
)

PKG = "com.google.android.deskclock"
ID = PKG + ":id/"
PRIMARY = (26, 115, 232)
TONAL = (211, 227, 253)
ON_TONAL = (4, 30, 73)
MUTED = (95, 95, 105)


def section_header(text: str) -> View:
    return Row(Text(text, size=14, bold=True, fg=PRIMARY, rid="android:id/title"), h=48,
               pad=(16, 16, 16, 0))


def pref_row(title: str, summary: str, on_click: Callable[[], None] | None, *,
             trailing: View | None = None, lines: int = 1) -> View:
    """A preference: title over a grey summary, optionally a widget at the end."""
    title_view = Text(title, size=16, rid="android:id/title")
    summary_view = Text(summary, size=14, style="muted", lines=lines,
                        rid="android:id/summary") if summary else None
    content = title_view.h + (summary_view.h if summary_view else 0)
    height = 56 if not summary else 72 + 20 * (lines - 1)
    text = Column(title_view, summary_view, pad=((0, (height - content) // 2, 0, 0)))
    return Row(text, trailing, h=height, pad=(16, 0, 16, 0), on_click=on_click, cls=LINEAR)


def switch_row(title: str, summary: str, checked: bool, toggle: Callable[[], None], *,
               lines: int = 1) -> View:
    return pref_row(title, summary, toggle, lines=lines,
                    trailing=Switch(checked, toggle, rid="android:id/switch_widget"))


def radio(checked: bool) -> View:
    """A radio button's look: a ring, with a dot when checked."""
    return Stack(
        Icon("circle", h=48, w=48, fg=PRIMARY if checked else MUTED),
        Icon("nav_home", h=48, w=48, fg=PRIMARY) if checked else None,
        w=48, h=48,
    )


def radio_row(label: str, checked: bool, on_click: Callable[[], None], *, rid: str = "") -> View:
    return Row(radio(checked),
               Text(label, size=16, checkable=True, checked=checked, rid=rid or "android:id/text1"),
               h=52, gap=8, on_click=on_click, pad=(8, 0, 8, 0))


def fab(icon: str, desc: str, on_click: Callable[[], None]) -> View:
    """The large floating action button (Add alarm, Start, Pause, ...)."""
    return Icon(icon, desc=desc, rid=ID + "fab", on_click=on_click, h=72, w=96, bg=TONAL,
                fg=ON_TONAL, radius=28)


def controls(left: View | None, center: View | None, right: View | None) -> View:
    """The row of buttons above the tabs: an optional button each side of the FAB."""
    return Row(Spacer(), left or Spacer(w=56), Spacer(), center or Spacer(w=96), Spacer(),
               right or Spacer(w=56), Spacer(), h=104, pad=(0, 16, 0, 16))


def side_button(icon: str, desc: str, on_click: Callable[[], None], rid: str) -> View:
    return Icon(icon, desc=desc, rid=ID + rid, on_click=on_click, h=56, w=56, bg=(232, 234, 240),
                radius=28)


class ChoiceDialog(Dialog):
    """A list preference's dialog: a radio list; choosing sets ``target.<attr>``."""

    def __init__(self, title: str, options: tuple[tuple[str, Any], ...], target: Any,
                 attr: str) -> None:
        super().__init__(title, buttons=(("Cancel", None),))
        self.options, self.target, self.attr = options, target, attr

    def choose(self, value: Any) -> None:
        setattr(self.target, self.attr, value)
        self.close()

    def build(self) -> View:
        current = getattr(self.target, self.attr)
        rows = [radio_row(label, value == current, lambda v=value: self.choose(v))
                for label, value in self.options]
        height = min(52 * len(rows), 416)
        return Column(
            Text(self.title, size=22, rid="android:id/alertTitle", h=40),
            Scroll(*rows, key="choices", rid="android:id/select_dialog_listview", h=height, fill=False),
            Row(Spacer(), Button("Cancel", self.close, style="text", w=96, rid="android:id/button2"),
                h=52, rid="android:id/buttonPanel"),
            cls=FRAME, pad=(16, 20, 16, 8), gap=8, w=328, style="dialog", radius=28,
            rid="android:id/parentPanel",
        )


class MenuDialog(Dialog):
    """The overflow ("More options") popup menu at the top right."""

    def __init__(self, items: tuple[tuple[str, Callable[[], None]], ...]) -> None:
        super().__init__(kind="menu", modal=False)
        self.items = items

    def pick(self, handler: Callable[[], None]) -> None:
        self.close()
        handler()

    def build(self) -> View:
        return Column(
            *[Row(Text(label, size=16, rid=ID + "title"), h=48, pad=(16, 0, 16, 0),
                  on_click=lambda h=handler: self.pick(h)) for label, handler in self.items],
            w=200, style="card", radius=8, pad=(0, 8, 0, 8), cls="android.widget.ListView",
        )
