"""Simple drawn icons (Material-like line glyphs) for the renderer.

Each glyph draws into a square box with one colour; an unknown name draws a dot, so a
typo shows on screen instead of failing a run.
"""

from __future__ import annotations

import math
from typing import Callable

from PIL import ImageDraw

Box = tuple[float, float, float, float]
Colour = tuple[int, int, int]


def _unit(box: Box):
    l, t, r, b = box
    s = min(r - l, b - t) * 0.6
    cx, cy = (l + r) / 2, (t + b) / 2

    def p(x: float, y: float) -> tuple[float, float]:
        """Point in glyph space [-1, 1] -> pixels."""
        return (cx + x * s / 2, cy + y * s / 2)

    return p, max(1, round(s / 10))


def _lines(*segments):
    def draw(d: ImageDraw.ImageDraw, box: Box, c: Colour) -> None:
        p, w = _unit(box)
        for seg in segments:
            d.line([p(*pt) for pt in seg], fill=c, width=w)
    return draw


def _circle(d, p, r, c, w, fill=False, x=0.0, y=0.0):
    (x0, y0), (x1, y1) = p(x - r, y - r), p(x + r, y + r)
    if fill:
        d.ellipse((x0, y0, x1, y1), fill=c)
    else:
        d.ellipse((x0, y0, x1, y1), outline=c, width=w)


def _search(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.55, c, w, x=-0.2, y=-0.2)
    d.line([p(0.2, 0.2), p(0.9, 0.9)], fill=c, width=w + 1)


def _more(d, box, c):
    p, w = _unit(box)
    for y in (-0.7, 0, 0.7):
        _circle(d, p, 0.13, c, w, fill=True, y=y)


def _clock(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.9, c, w)
    d.line([p(0, 0), p(0, -0.6)], fill=c, width=w)
    d.line([p(0, 0), p(0.45, 0.2)], fill=c, width=w)


def _alarm(d, box, c):
    _clock(d, box, c)
    p, w = _unit(box)
    d.line([p(-0.95, -0.6), p(-0.6, -0.95)], fill=c, width=w)
    d.line([p(0.95, -0.6), p(0.6, -0.95)], fill=c, width=w)


def _wifi(d, box, c):
    p, w = _unit(box)
    for r in (0.35, 0.7, 1.05):
        (x0, y0), (x1, y1) = p(-r, 0.6 - r), p(r, 0.6 + r)
        d.arc((x0, y0, x1, y1), 225, 315, fill=c, width=w)
    _circle(d, p, 0.12, c, w, fill=True, y=0.55)


def _refresh(d, box, c):
    p, w = _unit(box)
    (x0, y0), (x1, y1) = p(-0.75, -0.75), p(0.75, 0.75)
    d.arc((x0, y0, x1, y1), 40, 340, fill=c, width=w)
    d.polygon([p(0.85, -0.75), p(0.85, -0.15), p(0.3, -0.35)], fill=c)


def _star(d, box, c):
    p, _ = _unit(box)
    pts = []
    for i in range(10):
        r = 0.95 if i % 2 == 0 else 0.4
        a = -math.pi / 2 + i * math.pi / 5
        pts.append(p(r * math.cos(a), r * math.sin(a)))
    d.polygon(pts, fill=c)


def _gear(d, box, c):
    p, w = _unit(box)
    for i in range(8):
        a = i * math.pi / 4
        d.line([p(0.5 * math.cos(a), 0.5 * math.sin(a)), p(0.95 * math.cos(a), 0.95 * math.sin(a))],
               fill=c, width=w + 2)
    _circle(d, p, 0.6, c, w, fill=True)
    _circle(d, p, 0.25, (255, 255, 255), w, fill=True)


def _filled(shape: str):
    def draw(d, box, c):
        p, w = _unit(box)
        if shape == "square":
            d.rectangle((*p(-0.7, -0.7), *p(0.7, 0.7)), outline=c, width=w)
        elif shape == "circle":
            _circle(d, p, 0.75, c, w)
        elif shape == "dot":
            _circle(d, p, 0.35, c, w, fill=True)
        elif shape == "triangle":
            d.polygon([p(0.7, -0.8), p(0.7, 0.8), p(-0.7, 0)], fill=c)
        elif shape == "play":
            d.polygon([p(-0.5, -0.8), p(-0.5, 0.8), p(0.8, 0)], fill=c)
    return draw


def _battery(d, box, c):
    p, w = _unit(box)
    d.rectangle((*p(-0.4, -0.8), *p(0.4, 0.95)), fill=c)
    d.rectangle((*p(-0.15, -1.0), *p(0.15, -0.8)), fill=c)


def _cart(d, box, c):
    p, w = _unit(box)
    d.line([p(-1, -0.8), p(-0.65, -0.8), p(-0.35, 0.4), p(0.7, 0.4), p(0.9, -0.4), p(-0.5, -0.4)],
           fill=c, width=w)
    _circle(d, p, 0.14, c, w, fill=True, x=-0.25, y=0.75)
    _circle(d, p, 0.14, c, w, fill=True, x=0.55, y=0.75)


def _bell(d, box, c):
    p, w = _unit(box)
    d.polygon([p(-0.7, 0.5), p(-0.5, -0.3), p(0, -0.8), p(0.5, -0.3), p(0.7, 0.5)], fill=c)
    _circle(d, p, 0.15, c, w, fill=True, y=0.7)


def _pin(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.55, c, w, fill=True, y=-0.3)
    d.polygon([p(-0.45, -0.05), p(0.45, -0.05), p(0, 0.9)], fill=c)
    _circle(d, p, 0.2, (255, 255, 255), w, fill=True, y=-0.3)


def _moon(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.8, c, w, fill=True)
    _circle(d, p, 0.65, (255, 255, 255), w, fill=True, x=0.45, y=-0.35)


def _person(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.38, c, w, fill=True, y=-0.45)
    d.pieslice((*p(-0.8, 0.1), *p(0.8, 1.6)), 180, 360, fill=c)


def _trash(d, box, c):
    p, w = _unit(box)
    d.rectangle((*p(-0.55, -0.45), *p(0.55, 0.9)), outline=c, width=w)
    d.line([p(-0.8, -0.6), p(0.8, -0.6)], fill=c, width=w)
    d.line([p(-0.2, -0.85), p(0.2, -0.85)], fill=c, width=w)


def _letter_box(d, box, c):
    p, w = _unit(box)
    d.rounded_rectangle((*p(-0.8, -0.8), *p(0.8, 0.8)), radius=max(1, w * 2), outline=c, width=w)


def _apps(d, box, c):
    p, w = _unit(box)
    for x in (-0.6, 0, 0.6):
        for y in (-0.6, 0, 0.6):
            _circle(d, p, 0.15, c, w, fill=True, x=x, y=y)


def _speaker(d, box, c):
    p, w = _unit(box)
    d.polygon([p(-0.8, -0.3), p(-0.4, -0.3), p(0.1, -0.8), p(0.1, 0.8), p(-0.4, 0.3), p(-0.8, 0.3)], fill=c)
    d.arc((*p(-0.3, -0.6), *p(0.6, 0.6)), 300, 60, fill=c, width=w)


def _stopwatch(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.75, c, w, y=0.15)
    d.line([p(0, 0.15), p(0, -0.3)], fill=c, width=w)
    d.line([p(-0.25, -0.9), p(0.25, -0.9)], fill=c, width=w)


def _timer(d, box, c):
    p, w = _unit(box)
    d.polygon([p(-0.6, -0.9), p(0.6, -0.9), p(0, 0)], outline=c, width=w)
    d.polygon([p(-0.6, 0.9), p(0.6, 0.9), p(0, 0)], fill=c)


def _globe(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.9, c, w)
    d.ellipse((*p(-0.4, -0.9), *p(0.4, 0.9)), outline=c, width=w)
    d.line([p(-0.9, 0), p(0.9, 0)], fill=c, width=w)


def _bluetooth(d, box, c):
    p, w = _unit(box)
    d.line([p(-0.5, -0.45), p(0.45, 0.45), p(0, 0.9), p(0, -0.9), p(0.45, -0.45), p(-0.5, 0.45)],
           fill=c, width=w)


def _airplane(d, box, c):
    p, w = _unit(box)
    d.polygon([p(0, -0.95), p(0.12, -0.2), p(0.9, 0.25), p(0.9, 0.4), p(0.12, 0.15), p(0.1, 0.65),
               p(0.35, 0.85), p(-0.35, 0.85), p(-0.1, 0.65), p(-0.12, 0.15), p(-0.9, 0.4),
               p(-0.9, 0.25), p(-0.12, -0.2)], fill=c)


def _tabs(d, box, c):
    p, w = _unit(box)
    d.rounded_rectangle((*p(-0.75, -0.75), *p(0.75, 0.75)), radius=max(1, w * 2), outline=c, width=w + 1)


def _lock(d, box, c):
    p, w = _unit(box)
    d.rounded_rectangle((*p(-0.65, -0.1), *p(0.65, 0.9)), radius=max(1, w), fill=c)
    d.arc((*p(-0.42, -0.85), *p(0.42, 0.3)), 180, 360, fill=c, width=w + 1)


def _mic(d, box, c):
    p, w = _unit(box)
    d.rounded_rectangle((*p(-0.3, -0.9), *p(0.3, 0.25)), radius=max(1, int(w * 2)), fill=c)
    d.arc((*p(-0.6, -0.5), *p(0.6, 0.5)), 0, 180, fill=c, width=w)
    d.line([p(0, 0.5), p(0, 0.9)], fill=c, width=w)


def _pause(d, box, c):
    p, _ = _unit(box)
    d.rectangle((*p(-0.6, -0.7), *p(-0.2, 0.7)), fill=c)
    d.rectangle((*p(0.2, -0.7), *p(0.6, 0.7)), fill=c)


def _stop(d, box, c):
    p, _ = _unit(box)
    d.rectangle((*p(-0.6, -0.6), *p(0.6, 0.6)), fill=c)


def _copy(d, box, c):
    p, w = _unit(box)
    d.rectangle((*p(-0.7, -0.4), *p(0.3, 0.9)), outline=c, width=w)
    d.line([p(-0.35, -0.75), p(0.7, -0.75), p(0.7, 0.55)], fill=c, width=w)


def _radio(d, box, c):
    p, w = _unit(box)
    _circle(d, p, 0.8, c, w + 1)
    _circle(d, p, 0.4, c, w, fill=True)


GLYPHS: dict[str, Callable] = {
    "back": _lines([(0.8, 0), (-0.8, 0)], [(-0.1, -0.7), (-0.8, 0), (-0.1, 0.7)]),
    "forward": _lines([(-0.8, 0), (0.8, 0)], [(0.1, -0.7), (0.8, 0), (0.1, 0.7)]),
    "close": _lines([(-0.7, -0.7), (0.7, 0.7)], [(-0.7, 0.7), (0.7, -0.7)]),
    "add": _lines([(0, -0.8), (0, 0.8)], [(-0.8, 0), (0.8, 0)]),
    "remove": _lines([(-0.8, 0), (0.8, 0)]),
    "check": _lines([(-0.75, 0), (-0.2, 0.55), (0.8, -0.55)]),
    "menu": _lines([(-0.8, -0.6), (0.8, -0.6)], [(-0.8, 0), (0.8, 0)], [(-0.8, 0.6), (0.8, 0.6)]),
    "chevron": _lines([(-0.3, -0.7), (0.35, 0), (-0.3, 0.7)]),
    "expand": _lines([(-0.7, -0.3), (0, 0.35), (0.7, -0.3)]),
    "enter": _lines([(0.7, -0.7), (0.7, 0.2), (-0.7, 0.2)], [(-0.3, -0.2), (-0.7, 0.2), (-0.3, 0.6)]),
    "edit": _lines([(-0.7, 0.7), (-0.6, 0.3), (0.5, -0.8), (0.8, -0.5), (-0.3, 0.6), (-0.7, 0.7)]),
    "home": _lines([(-0.8, 0), (0, -0.8), (0.8, 0)], [(-0.55, -0.2), (-0.55, 0.8), (0.55, 0.8), (0.55, -0.2)]),
    "share": _lines([(0.6, -0.7), (-0.6, 0), (0.6, 0.7)]),
    "download": _lines([(0, -0.8), (0, 0.4)], [(-0.5, -0.1), (0, 0.4), (0.5, -0.1)], [(-0.8, 0.8), (0.8, 0.8)]),
    "bookmark": _lines([(-0.5, -0.9), (0.5, -0.9), (0.5, 0.9), (0, 0.4), (-0.5, 0.9), (-0.5, -0.9)]),
    "history": _clock,
    "info": _lines([(0, -0.1), (0, 0.8)], [(0, -0.55), (0, -0.45)]),
    "lock": _lock,
    "pause": _pause,
    "stop": _stop,
    "copy": _copy,
    "radio_on": _radio,
    "radio_off": _filled("circle"),
    "flag": _lines([(-0.6, 0.9), (-0.6, -0.8), (0.7, -0.45), (-0.6, -0.1)]),
    "backspace": _lines([(-0.9, 0), (-0.4, -0.6), (0.9, -0.6), (0.9, 0.6), (-0.4, 0.6), (-0.9, 0)],
                        [(-0.05, -0.25), (0.45, 0.25)], [(-0.05, 0.25), (0.45, -0.25)]),
    "search": _search,
    "more": _more,
    "clock": _clock,
    "alarm": _alarm,
    "timer": _timer,
    "stopwatch": _stopwatch,
    "wifi": _wifi,
    "refresh": _refresh,
    "star": _star,
    "settings": _gear,
    "battery": _battery,
    "cart": _cart,
    "bell": _bell,
    "notifications": _bell,
    "location": _pin,
    "dark": _moon,
    "display": _moon,
    "person": _person,
    "trash": _trash,
    "apps": _apps,
    "sound": _speaker,
    "globe": _globe,
    "bluetooth": _bluetooth,
    "airplane": _airplane,
    "tabs": _tabs,
    "mic": _mic,
    "play": _filled("play"),
    "nav_back": _filled("triangle"),
    "nav_home": _filled("dot"),
    "nav_recents": _filled("square"),
    "circle": _filled("circle"),
    "app": _letter_box,
}


def draw_glyph(d: ImageDraw.ImageDraw, name: str | None, box: Box, colour: Colour) -> None:
    GLYPHS.get(name or "", _filled("dot"))(d, box, colour)
