"""Preference rows as the real Settings app lays them out, so dumps read like a Pixel's.

A preference is a clickable LinearLayout holding ``android:id/icon_frame`` (icon),
a RelativeLayout with ``android:id/title`` / ``android:id/summary`` and
``android:id/widget_frame`` (a ``switch_widget`` Switch for toggles). Heights are
computed from the text so rows never overflow their bounds.
"""

from __future__ import annotations

from typing import Callable

from mobile_gym.simulator.views import (
    Button, Column, Icon, Row, Scroll, Spacer, Switch, Text, View, FRAME, LINEAR, RELATIVE, VIEW,
)

PKG = "com.android.settings"
ID = PKG + ":id/"
SWITCH_ID = ID + "switch_widget"
ACCENT = (66, 133, 244)  # reads on both the light and the dark theme
GREY = (150, 150, 158)
RADIO = "android.widget.RadioButton"
SEEKBAR = "android.widget.SeekBar"
TITLE_SP, SUMMARY_SP = 18, 14
CHAR_DP = 6.8  # average width of a summary character, to guess line wraps
SCREEN_DP = 360  # the narrowest profile's width; wraps are guessed for it


def _lines(text: str, width_dp: float, most: int = 3) -> int:
    """How many lines ``text`` wraps to in ``width_dp`` (a guess; at most ``most``)."""
    return max(1, min(most, int(-(-len(text) * CHAR_DP // width_dp))))


def text_block(title: str, summary: str = "", *, width_dp: float = 300,
               enabled: bool = True) -> tuple[View, int]:
    """Title over summary (the RelativeLayout of a preference) and its height in dp."""
    lines = _lines(summary, width_dp) if summary else 0
    title_view = Text(title, size=TITLE_SP, rid="android:id/title",
                      style=None if enabled else "muted", enabled=enabled)
    summary_view = Text(summary, size=SUMMARY_SP, lines=lines, rid="android:id/summary",
                        style="muted", enabled=enabled) if summary else None
    height = title_view.h + (summary_view.h if summary_view else 0) + 1  # 1: px rounding
    return Column(title_view, summary_view, cls=RELATIVE, h=height), height


def pref(title: str, summary: str = "", *, icon: str | None = None, disc: tuple | None = None,
         on_click: Callable[[], None] | None = None, widget: View | None = None,
         enabled: bool = True, icon_desc: str = "") -> View:
    """A preference row: optional icon (``disc``: drawn in a coloured circle, as on the
    home list; ``icon_desc`` names an app icon's letter), title, summary, optional widget
    at the end."""
    width = SCREEN_DP - 32 - (56 if icon else 0) - (72 if widget is not None else 0)
    block, height = text_block(title, summary, width_dp=width, enabled=enabled)
    icon_frame = None
    if icon:
        glyph = Icon(icon, rid="android:id/icon", h=40, w=40, style="appicon" if disc else None,
                     bg=disc, enabled=enabled, desc=icon_desc)
        icon_frame = Row(glyph, rid="android:id/icon_frame", w=56, h=40)
    frame = Row(widget, rid="android:id/widget_frame", w=72, h=48) if widget is not None else None
    return Row(icon_frame, block, frame, h=max(56, height + 28), pad=(16, 0, 8, 0),
               on_click=on_click if enabled else None, enabled=enabled)


def switch_pref(title: str, checked: bool, on_toggle: Callable[[], None], summary: str = "",
                *, icon: str | None = None, enabled: bool = True) -> View:
    """A toggle row: the whole row flips the switch, as SwitchPreference does."""
    switch = Switch(checked, None, rid=SWITCH_ID, enabled=enabled)
    return pref(title, summary, icon=icon, on_click=on_toggle, widget=switch, enabled=enabled)


def main_switch(title: str, checked: bool, on_toggle: Callable[[], None], *,
                enabled: bool = True) -> View:
    """The big "Use …" bar at the top of a feature page (MainSwitchPreference)."""
    return Column(
        Row(
            Text(title, size=20, rid=ID + "switch_text", h=40, enabled=enabled,
                 style=None if enabled else "muted"),
            Switch(checked, None, rid=SWITCH_ID, enabled=enabled),
            rid=ID + "frame", h=72, pad=(24, 0, 12, 0), style="card", radius=28,
            on_click=on_toggle if enabled else None, enabled=enabled,
        ),
        pad=(16, 8, 16, 8),
    )


def category(title: str) -> View:
    """A PreferenceCategory header (accent-coloured, small)."""
    return Column(Text(title, size=14, bold=True, fg=ACCENT, rid="android:id/title", h=24),
                  pad=(16, 20, 16, 4))


def footer(text: str, *, icon: str = "info") -> View:
    """The explanatory text at the bottom of a page (FooterPreference)."""
    body = Text(text, size=14, lines=_lines(text, SCREEN_DP - 32, most=6), style="muted",
                rid="android:id/title")
    return Column(Icon(icon, rid="android:id/icon", h=32, w=32, fg=GREY), body,
                  pad=(16, 16, 16, 16), gap=4)


def radio_pref(title: str, checked: bool, on_click: Callable[[], None], summary: str = "") -> View:
    """A single-choice row with a RadioButton at the start (SelectorWithWidgetPreference).
    The renderer has no radio drawing, so a ring (and a dot when chosen) sits under it."""
    block, height = text_block(title, summary, width_dp=SCREEN_DP - 88)
    colour = ACCENT if checked else GREY
    radio = View(FRAME, [
        Icon("circle", h=40, w=40, fg=colour),
        Icon("nav_home", h=40, w=40, fg=colour) if checked else None,
        View(RADIO, rid="android:id/checkbox", checkable=True, checked=checked, h=40, w=40),
    ], orient="z", w=56, h=40)
    return Row(radio, block, h=max(56, height + 24), pad=(8, 0, 16, 0), on_click=on_click)


def slider(title: str, value: int, on_change: Callable[[int], None], *,
           icon: str | None = None) -> View:
    """A SeekBarPreference stand-in: title, a bar filled to ``value`` percent and
    step buttons (taps cannot slide, so "Decrease"/"Increase" move it by 10)."""
    bar = Row(
        View(VIEW, bg=ACCENT, h=4, weight=max(value, 0.01), radius=2),
        View(VIEW, style="divider", h=4, weight=max(100 - value, 0.01)),
        cls=SEEKBAR, rid="android:id/seekbar", desc=title, text=f"{value}%", h=40,
    )
    return Column(
        Text(title, size=TITLE_SP, rid="android:id/title", h=28),
        Row(
            Icon(icon, rid="android:id/icon", h=32, w=32) if icon else None,
            Icon("remove", desc=f"Decrease {title.lower()}", on_click=lambda: on_change(-10),
                 h=40, w=40),
            bar,
            Text(f"{value}%", size=14, style="muted", align="right", w=44, h=24),
            Icon("add", desc=f"Increase {title.lower()}", on_click=lambda: on_change(10),
                 h=40, w=40),
            h=48, gap=4,
        ),
        pad=(16, 12, 16, 8), gap=4,
    )


def buttons(*views: View | None) -> View:
    """A row of action buttons under a header (Open / Uninstall / Force stop)."""
    return Row(*views, h=64, pad=(16, 8, 16, 8), gap=12, rid=ID + "button_bar")


def action_button(label: str, on_click: Callable[[], None] | None, rid: str, *,
                  enabled: bool = True, style: str = "tonal", w: float | None = None) -> View:
    return Button(label, on_click, style=style, rid=ID + rid, enabled=enabled, w=w)


def big_header(value: str, caption: str, *, rid: str, progress: float | None = None) -> View:
    """The large number at the top of Battery, Storage and data usage pages."""
    bar = None
    if progress is not None:
        bar = Row(View(VIEW, bg=ACCENT, h=8, weight=max(progress, 0.001), radius=4),
                  View(VIEW, style="divider", h=8, weight=max(1 - progress, 0.001)), h=8)
    return Column(
        Text(value, size=36, rid=ID + rid, h=56),
        Text(caption, size=14, style="muted", lines=_lines(caption, SCREEN_DP - 48)),
        Spacer(h=8) if bar else None,
        bar,
        pad=(24, 8, 24, 16), gap=2,
    )


def entity_header(title: str, icon: str, color: tuple[int, int, int], summary: str = "") -> View:
    """The header of an app's or a network's page: big icon, name, a status line."""
    return Column(
        Icon(icon, rid=ID + "entity_header_icon", h=72, w=72, align="center", style="appicon",
             bg=color, desc=title),
        Text(title, size=24, align="center", rid=ID + "entity_header_title", h=36),
        Text(summary, size=14, align="center", style="muted", rid=ID + "entity_header_summary")
        if summary else None,
        rid=ID + "entity_header", pad=(16, 16, 16, 8), gap=4,
    )


def empty(text: str) -> View:
    return Text(text, size=16, align="center", style="muted", h=96, rid="android:id/empty")


def scaffold(toolbar: View, rows: list[View | None], *, key: str = "list") -> View:
    """A page: fixed toolbar over the scrolling preference list."""
    return Column(toolbar, Scroll(*rows, Spacer(h=16), key=key, rid=ID + "recycler_view"),
                  cls=LINEAR)


def collapsing_toolbar(bar: View, title: str) -> View:
    """The page title bar; like the real one it carries the title as content-desc."""
    return View(FRAME, [bar], rid=ID + "collapsing_toolbar", desc=title, orient="z", h=64)


def size_text(mb: float) -> str:
    """A size the way Android's Formatter writes it (SI units: 1 GB = 1000 MB)."""
    value, unit = (mb / 1000, "GB") if mb >= 900 else (mb, "MB")
    if value >= 100:
        return f"{value:.0f} {unit}"
    return f"{value:.2f} {unit}"
