"""Screenshots of a laid-out frame, drawn straight at the requested size.

Nodes are drawn in tree order by routines chosen from their ``style`` or Android class:
backgrounds clipped to the visible part (rounded ones from a cache of their corners), text
from a cache of line masks (rasterising text is most of the cost of a frame; every cache
is bounded in memory), icons from a cache of drawn glyphs, widgets in their state (switch
thumbs, check marks, a cursor in the focused field), dialogs over a dimmed screen and a
keyboard. What is pasted through a mask is cropped to where it inks: Pillow's masked
paste costs by the pixel.
"""

from __future__ import annotations

import itertools
import math
import sys
import unicodedata
from functools import lru_cache
from operator import attrgetter

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from mobile_gym.errors import ConfigError
from mobile_gym.simulator import views as V
from mobile_gym.simulator.glyphs import draw_glyph
from mobile_gym.simulator.memo import BoundedMemo, lru_bytes
from mobile_gym.simulator.retained import Key
from mobile_gym.simulator.runtime import Frame, Window
from mobile_gym.simulator.views import View

Colour = tuple[int, int, int]

LIGHT = {
    "bg": (255, 255, 255), "surface": (243, 240, 247), "text": (28, 27, 31),
    "muted": (95, 95, 105), "primary": (26, 115, 232), "on_primary": (255, 255, 255),
    "tonal": (211, 227, 253), "divider": (225, 225, 230), "field": (236, 235, 242),
    "nav": (240, 240, 244), "keyboard": (232, 234, 237), "key": (255, 255, 255),
    "track": (200, 200, 208),
}
DARK = {
    "bg": (18, 18, 20), "surface": (43, 41, 48), "text": (230, 228, 234),
    "muted": (165, 163, 172), "primary": (138, 180, 248), "on_primary": (8, 40, 90),
    "tonal": (40, 60, 96), "divider": (60, 60, 66), "field": (50, 49, 56),
    "nav": (10, 10, 12), "keyboard": (38, 40, 44), "key": (70, 72, 78),
    "track": (90, 90, 98),
}


@lru_cache(maxsize=64)
def _font(px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=max(6, px))


@lru_bytes(8 << 20, lambda args, mask: mask.width * mask.height + sys.getsizeof(args[0]))
def _mask(text: str, px: int, bold: bool) -> Image.Image:
    """The alpha mask of one line of text (bold drawn twice, one pixel apart)."""
    font = _font(px)
    l, t, r, b = font.getbbox(text or " ")
    w, h = max(1, r + (1 if bold else 0)), max(1, int(px * 1.25))
    mask = Image.new("L", (w, h))
    d = ImageDraw.Draw(mask)
    d.text((0, 0), text, fill=255, font=font)
    if bold:
        d.text((1, 0), text, fill=255, font=font)
    return mask


_LOOKALIKES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2013": "-", "\u2014": "-",
                             "\u2212": "-", "\u00a0": " ", "\u2022": "\u00b7", "\u2605": "*"})


def _strings_size(args: tuple, value) -> int:
    """Bytes of a memo entry made of strings: the key's text and the result's."""
    return sys.getsizeof(args[0]) + sum(map(sys.getsizeof, (value,) if isinstance(value, str) else value))


@lru_bytes(2 << 20, _strings_size)
def _drawable(text: str) -> str:
    """What the bundled font can draw: it lacks Android's non-breaking hyphen (Wi‑Fi),
    dashes, bullets and accented letters, so those become look-alikes (dumps keep the
    real text; only pixels change)."""
    if text.isascii():
        return text
    out = []
    for ch in text.translate(_LOOKALIKES):
        parts = unicodedata.normalize("NFD", ch)
        out.append(parts[0] if len(parts) > 1 and all(unicodedata.combining(c) for c in parts[1:]) else ch)
    return "".join(out)


def _narrowest(px: int) -> float:
    """A lower bound of any glyph's advance in the bundled font at ``px``: its narrowest
    (quote, space) are about 0.2 em, hinted to at least a pixel; a missing glyph draws a
    0.5 em box."""
    return max(1.0, px / 10)


@lru_bytes(2 << 20, _strings_size)
def _fit(text: str, px: int, width: int, lines: int) -> tuple[str, ...]:
    """Wrap into at most ``lines`` lines of ``width`` px, as a TextView does: a line
    breaks after the last word that fits, a word longer than a line breaks anywhere, and
    an ellipsis ends the last line when text is cut.

    Only the characters that can show are measured, each line by a binary search, so
    the cost is bounded by the box, not by the text (a field may hold 2,048 characters)."""
    font = _font(px)
    shown = text[: lines * (int(width / _narrowest(px)) + 1) + 1]  # one more: is it cut?
    if shown == text and font.getlength(text) <= width:
        return (text,)
    out: list[str] = []
    rest = shown
    while rest and len(out) < lines:
        n = max(1, _longest_fitting(font, rest, width))  # a glyph wider than the box still shows
        if n < len(rest):
            space = rest.rfind(" ", 0, n + 1)
            n = space if space > 0 else n
        out.append(rest[:n])
        rest = rest[n + 1:] if rest[n:n + 1] == " " else rest[n:]
    if rest or len(shown) < len(text) or font.getlength(out[-1]) > width:
        last = out[-1]
        out[-1] = last[:_longest_fitting(font, last, width, "…")].rstrip() + "…"
    return tuple(out)


def _inked_size(args: tuple, lines: tuple) -> int:
    return sys.getsizeof(args[0]) + sum((r - l) * (b - t) for _, _, (l, t, r, b) in lines)


@lru_bytes(8 << 20, _inked_size)
def _typeset(text: str, px: int, width: int, lines: int, bold: bool) -> tuple[tuple[int, object, tuple], ...]:
    """``text`` as a TextView ``width`` px wide shows it: each line's width, and the part
    of its mask that has ink with its box in the line (None and an empty box if none). The
    masks are Pillow's core images, pasted without `Image.paste`'s checks (a text is the
    commonest thing drawn), and only where they ink: a paste through a mask costs by the
    pixel, and one of mask 0 changes nothing."""
    out = []
    for line in _fit(_drawable(text), px, width, lines):
        mask = _mask(line, px, bold)
        ink = mask.getbbox()
        out.append((mask.width, mask.crop(ink).im, ink) if ink else (mask.width, None, (0, 0, 0, 0)))
    return tuple(out)


def _parts_size(args: tuple, parts: tuple) -> int:
    return sum(64 + (0 if mask is None else (r - l) * (b - t)) for (l, t, r, b), mask in parts)


@lru_bytes(2 << 20, _parts_size)
def _rounded_parts(w: int, h: int, radius: int) -> tuple[tuple[tuple[int, int, int, int], object], ...]:
    """PIL's filled rounded rectangle ``w`` x ``h`` px as parts to fill (mask None) and
    parts to paste through their mask (Pillow's core images): the middle and the edges
    are solid, only the corners need a mask (PIL draws one from four pie slices and three
    rectangles in Python, three times the cost of pasting)."""
    mask = Image.new("L", (w, h))
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
    inked = np.asarray(mask) == 255
    cols, rows = np.flatnonzero(inked.all(axis=0)), np.flatnonzero(inked.all(axis=1))
    xs = (0, int(cols[0]), int(cols[-1]) + 1, w) if len(cols) else (0, w)
    ys = (0, int(rows[0]), int(rows[-1]) + 1, h) if len(rows) else (0, h)
    parts = []
    for t, b in zip(ys, ys[1:]):
        for l, r in zip(xs, xs[1:]):
            cell = inked[t:b, l:r]
            if cell.all():
                parts.append(((l, t, r, b), None))
            elif cell.any():
                parts.append(((l, t, r, b), mask.crop((l, t, r, b)).im))
    return tuple(parts)


def _longest_fitting(font: ImageFont.FreeTypeFont, text: str, width: int, suffix: str = "") -> int:
    """The longest prefix of ``text`` that, followed by ``suffix``, is at most ``width`` px."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.getlength(text[:mid] + suffix) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


#: The smallest side of a screenshot: below it no element can be told from another.
MIN_SCREENSHOT_SIDE = 8


def check_screenshot_size(size, screen: tuple[int, int], name: str = "screenshot_size") -> tuple[int, int]:
    """``size`` as (width, height) if it can be drawn: whole pixels, each side from
    `MIN_SCREENSHOT_SIDE` to the ``screen``'s (a screenshot never has more pixels than the
    screen); otherwise a `ConfigError` naming the argument ``name``."""
    try:
        w, h = size
        if any(isinstance(v, bool) or int(v) != v for v in (w, h)):
            raise TypeError
        w, h = int(w), int(h)
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(f"{name} must be (width, height) in whole pixels, got {size!r}") from None
    if not (MIN_SCREENSHOT_SIDE <= w <= screen[0] and MIN_SCREENSHOT_SIDE <= h <= screen[1]):
        raise ConfigError(f"{name}={size!r} is outside what the screen can show: width "
                          f"{MIN_SCREENSHOT_SIDE}..{screen[0]} and height {MIN_SCREENSHOT_SIDE}..{screen[1]} px")
    return w, h


#: Windows drawn over everything, each filling its box first.
BARS = ("status", "nav")


def _shades_below(window: Window) -> bool:
    """A modal alert or sheet dims what is under it."""
    return window.kind in ("alert", "sheet") and window.surface is not None and window.surface.modal


#: Every field of a view that drawing reads. Windows whose drawn views (in drawing order)
#: agree on these look alike, whatever else differs: a row scrolled out of sight, a
#: content description, a scroll offset that layout clamped back.
DRAWN_FIELDS = ("bounds", "clip", "cls", "style", "text", "desc", "bg", "fg", "size", "bold", "align",
                "icon", "radius", "lines", "hint", "password", "focused", "checked", "enabled", "selected")
_drawn = attrgetter(*DRAWN_FIELDS)
#: Bytes a look holds per drawn view (a tuple of its fields; the values are the view's).
BYTES_PER_DRAWN_VIEW = 240

#: How far (dp) drawing may reach past a view's bounds, across and down: sideways a
#: glyph wider than its box; up and down PIL's inclusive last row, a text line one pixel
#: over its clip, a switch's track or a cursor in a field lower than usual.
REACH_DP = (32, 8)


class Look:
    """How a window draws: its drawn views' fields in drawing order, ``geometry`` (their
    boxes alone) and ``id``, a name never reused (a look forgotten and met again gets a
    new one)."""

    __slots__ = ("id", "drawn", "geometry")
    _ids = itertools.count(1)

    def __init__(self, drawn: tuple):
        self.id, self.drawn = next(Look._ids), drawn
        self.geometry = Key(tuple([view[:2] for view in drawn]))


_LOOKS = BoundedMemo(None, 8 << 20, lambda key, look: BYTES_PER_DRAWN_VIEW * len(key.value), "_LOOKS")
#: (geometry, how drawn) -> the look of the app window last drawn alone with that geometry
_LAST_OF_GEOMETRY = BoundedMemo(None, 4 << 20, lambda key, look: (80 + BYTES_PER_DRAWN_VIEW) * len(look.drawn),
                                "_LAST_OF_GEOMETRY")
_BODIES = BoundedMemo(None, 64 << 20, lambda key, kept: kept[0].nbytes, "_BODIES")
#: an app window's pixels dimmed under a modal dialog (as an image: a dialog is drawn on it)
_DIMMED = BoundedMemo(None, 4 << 20, lambda key, img: img.width * img.height * 4, "_DIMMED")
_TILES = BoundedMemo(None, 8 << 20, lambda key, tile: 2 * tile[0].nbytes, "_TILES")
#: (glyph, box, colour, output size) -> its drawn pixels, their alpha and where they go
#: (nothing for a glyph that draws no pixel)
_GLYPH_TILES = BoundedMemo(None, 4 << 20,
                           lambda key, tile: 5 * (tile[2][2] - tile[2][0]) * (tile[2][3] - tile[2][1]) if tile else 0,
                           "_GLYPH_TILES")
#: How far (px) a glyph's tile reaches past its box: room to spare (glyphs draw within
#: their box, strokes at 0.6 of its side).
GLYPH_MARGIN = 8


def look(window: Window) -> Look:
    """How a retained window draws, one `Look` shared by the windows that draw alike."""
    placed = window.placed
    if placed.look is None:
        drawn = []
        stack = [window.root]
        while stack:  # the views `Renderer._window` draws, in its order
            v = stack.pop()
            if v.clip is not None:
                drawn.append(_drawn(v))
                stack.extend(reversed(v.children))
        key = Key(tuple(drawn))
        placed.look = _LOOKS.lookup(key)
        if placed.look is None:
            placed.look = Look(key.value)
            _LOOKS.store(key, placed.look)
    return placed.look


def _array(img: Image.Image) -> np.ndarray:
    """An RGB image's pixels as a read-only array over its packed bytes (`np.array` would
    copy them once more)."""
    return np.frombuffer(img.tobytes(), np.uint8).reshape(img.height, img.width, 3)


def _alone(body: list[Window]) -> Look | None:
    """The look of a body that is one app window alone (what partial redraws work on)."""
    return look(body[0]) if len(body) == 1 and body[0].kind == "app" else None


class Renderer:
    """Draws frames of one device profile at an output size."""

    def __init__(self, screen: tuple[int, int], size: tuple[int, int]):
        self.sx = size[0] / screen[0]
        self.sy = size[1] / screen[1]
        self.size = size
        self.k = min(self.sx, self.sy)

    def render(self, frame: Frame) -> Image.Image:
        if frame.retained:
            return Image.fromarray(self.pixels(frame))
        self.theme, self.dp = DARK if frame.dark else LIGHT, frame.scale_dp
        return self._draw(frame.windows)  # the reference path

    def pixels(self, frame: Frame) -> np.ndarray:
        """A retained frame's screenshot as a read-only (H, W, 3) uint8 array.

        What is under the bars (the body) is drawn once per look and kept with the bars
        it was last shown with: a frame with the same bars gets the very array, other bars
        are pasted over a copy (a bar first fills its box, so what is under it never
        shows)."""
        self.theme, self.dp = DARK if frame.dark else LIGHT, frame.scale_dp
        how = (frame.dark, frame.scale_dp, self.size, self.sx, self.sy)  # how any window is drawn here
        windows = frame.in_place().windows  # its views where this frame shows them
        body = [w for w in windows if w.kind not in BARS]
        bars = [w for w in windows if w.kind in BARS]
        looks = tuple((look(w).id, w.kind, _shades_below(w)) for w in body)
        shown = tuple((look(w).id, w.kind) for w in bars)
        kept = _BODIES.lookup((looks, *how))
        if kept is not None and kept[1] == shown:
            out = kept[0]
        else:
            # bars go on the image a body was drawn on before it becomes an array, else
            # on a writable array (a copy of what is kept, or a partial redraw's)
            out = kept[0].copy() if kept is not None else self._body(body, looks, how)
            for window, name in zip(bars, shown):
                pixels, image, t, l = self._tile(window, name, how)
                if isinstance(out, Image.Image):
                    out.paste(image, (l, t))
                else:
                    out[t:t + pixels.shape[0], l:l + pixels.shape[1]] = pixels
            out = _array(out) if isinstance(out, Image.Image) else out
            out.flags.writeable = False
            _BODIES.store((looks, *how), (out, shown))
        app = _alone(body)
        if app is not None:  # the look of its geometry shown last
            _LAST_OF_GEOMETRY.store((app.geometry, *how), app)
        return out

    def _tile(self, window: Window, name: tuple, how: tuple) -> tuple[np.ndarray, Image.Image, int, int]:
        """A bar's pixels (as an array and an image) and where they go (top, left)."""
        key = (*name, *how)
        tile = _TILES.lookup(key)
        if tile is None:
            l, t, r, b = self._box(window.root.clip)  # PIL fills a box's last row and column too
            r, b = min(r + 1, self.size[0]), min(b + 1, self.size[1])
            image = self._draw([window]).crop((l, t, r, b))
            tile = (np.asarray(image), image, t, l)
            _TILES.store(key, tile)
        return tile

    def _body(self, body: list[Window], looks: tuple, how: tuple) -> np.ndarray | Image.Image:
        """Draw a body not kept: an app window alone again only where it differs from the
        last one of its geometry shown (a writable array); windows over an app window
        (dialogs, menus, the keyboard) over its kept pixels, dimmed once under modal ones,
        and anything else from scratch (the image drawn on)."""
        app = _alone(body)
        if app is not None:
            old = _LAST_OF_GEOMETRY.lookup((app.geometry, *how))
            out = self._redraw(body[0], how, old) if old is not None else None
            return self._draw(body) if out is None else out
        base = _BODIES.lookup((looks[:1], *how)) if len(looks) > 1 else None
        if base is None:
            return self._draw(body)
        if not _shades_below(body[1]):
            return self._draw(body[1:], Image.fromarray(base[0]))
        dimmed = _DIMMED.lookup((looks[:1], *how))
        if dimmed is None:
            dimmed = self._dim(Image.fromarray(base[0]))
            _DIMMED.store((looks[:1], *how), dimmed)
        return self._draw(body[1:], dimmed.copy(), dimmed=True)

    def _redraw(self, window: Window, how: tuple, old: Look) -> np.ndarray | None:
        """An app window's pixels made from those of ``old``, a look of the same geometry
        drawn before: only what lies near the views that differ is drawn again (each view
        draws within `REACH_DP` of its bounds, so nothing else can differ). None if
        ``old``'s pixels are gone or most of the window changed."""
        kept = _BODIES.lookup((((old.id, "app", False),), *how))  # `pixels`' key of an app window alone
        if kept is None:
            return None
        W, H = self.size
        across, down = self._reach()
        l, t, r, b = math.inf, math.inf, -math.inf, -math.inf  # screen px
        for was, now in zip(old.drawn, look(window).drawn):
            if was != now:
                (x0, y0, x1, y1) = now[0]
                l, t = min(l, x0 - across), min(t, y0 - down)
                r, b = max(r, x1 + across), max(b, y1 + down)
        if r < l:  # nothing differs: a look forgotten and made again
            return kept[0].copy()
        l, t, r, b = self._box((l, t, r, b))
        l, t, r, b = max(0, l), max(0, t), min(W, r + 1), min(H, b + 1)
        if (r - l) * (b - t) * 2 > W * H:
            return None
        self._draw([window], within=(l, t, r, b))
        out = kept[0].copy()
        out[t:b, l:r] = np.asarray(self.img.crop((l, t, r, b)))
        return out

    def _draw(self, windows: list[Window], img: Image.Image | None = None,
              within: tuple[int, int, int, int] | None = None, dimmed: bool = False) -> Image.Image:
        """Draw ``windows`` bottom to top on ``img`` (default the theme's background;
        ``dimmed``: already dimmed for the first window); ``within`` a box (px): only the
        views that may draw in it."""
        img = img or Image.new("RGB", self.size, self.theme["bg"])
        self.img, self.draw, self.core = img, ImageDraw.Draw(img), img.im
        for i, window in enumerate(windows):
            if _shades_below(window) and not (dimmed and i == 0):
                self.img = img = self._dim(img)
                self.draw, self.core = ImageDraw.Draw(img), img.im
            self._window(window, within)
        return self.img

    def _dim(self, img: Image.Image) -> Image.Image:
        """What is under a modal window, dimmed."""
        return Image.blend(img, Image.new("RGB", self.size, (0, 0, 0)), 0.42)

    # ------------------------------------------------------------------ helpers
    def _box(self, b) -> tuple[int, int, int, int]:
        return (int(b[0] * self.sx), int(b[1] * self.sy), int(b[2] * self.sx), int(b[3] * self.sy))

    def _reach(self) -> tuple[float, float]:
        """`REACH_DP` in screen px (across, down)."""
        return REACH_DP[0] * self.dp, REACH_DP[1] * self.dp

    def _px(self, dp: float) -> int:
        return max(1, int(dp * self.dp * self.k))

    def _rect(self, clip, colour: Colour, radius_dp: float = 0.0, outline: Colour | None = None) -> None:
        box = self._box(clip)
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        if radius_dp:
            r = min(self._px(radius_dp), (box[2] - box[0]) // 2, (box[3] - box[1]) // 2)
            if outline is not None:
                self.draw.rounded_rectangle(box, radius=r, outline=outline, width=max(1, self._px(1)))
            else:  # PIL's fill, which includes the box's last row and column
                x, y = box[0], box[1]
                for (pl, pt, pr, pb), mask in _rounded_parts(box[2] - x + 1, box[3] - y + 1, r):
                    if mask is None:
                        self.core.paste(colour, (x + pl, y + pt, x + pr, y + pb))
                    else:
                        self.core.paste(colour, (x + pl, y + pt, x + pr, y + pb), mask)
        elif outline is not None:
            self.draw.rectangle(box, outline=outline, width=max(1, self._px(1)))
        else:
            self.draw.rectangle(box, fill=colour)

    def _text(self, v: View, text: str, colour: Colour, box=None, align: str | None = None,
              size: float | None = None, bold: bool | None = None) -> int | None:
        """Draw ``text`` fitted into the box; returns where its last drawn line ends
        (x in px, for a cursor), None if no line shows."""
        if not text:
            return None
        l, t, r, b = self._box(box or v.bounds)
        cl, ct, cr, cb = self._box(v.clip)
        px = self._px(size or v.size)
        pad = self._px(2)
        lines = _typeset(text, px, max(1, r - l - 2 * pad), v.lines, v.bold if bold is None else bold)
        line_h = int(px * 1.3)
        y = t + (b - t - line_h * len(lines)) // 2
        align = align or v.align
        end = None
        for w, ink, (il, it, ir, ib) in lines:
            if y >= ct - 1 and y + line_h <= cb + 1:  # only whole lines of the visible part
                if align == "center":
                    x = l + (r - l - w) // 2
                elif align == "right":
                    x = r - pad - w
                else:
                    x = l + pad
                if ink is not None:
                    self.core.paste(colour, (x + il, y + it, x + ir, y + ib), ink)
                end = x + w
            y += line_h
        return end

    def _glyph(self, name: str | None, box, colour: Colour) -> None:
        """`draw_glyph`, pasted from a memo of drawn glyphs: an icon is drawn in the same
        place on many screens (a toolbar's, a list's), and drawing its strokes costs ten
        times pasting them. The pixels are the drawing's own: drawn at the same place on a
        clear canvas, pasted through their alpha (every pixel drawn or not)."""
        key = (name, tuple(box), colour, self.size)
        tile = _GLYPH_TILES.lookup(key)
        if tile is None:
            (W, H), (l, t, r, b) = self.size, box
            x0, y0 = max(0, math.floor(l) - GLYPH_MARGIN), max(0, math.floor(t) - GLYPH_MARGIN)
            x1, y1 = min(W, math.ceil(r) + GLYPH_MARGIN), min(H, math.ceil(b) + GLYPH_MARGIN)
            if x1 <= x0 or y1 <= y0:
                return  # off the screen
            canvas = Image.new("RGBA", (x1, y1))
            draw_glyph(ImageDraw.Draw(canvas), name, box, colour)
            # only the drawn pixels' box: a paste through alpha costs by the pixel, and
            # one of alpha 0 changes nothing
            drawn = canvas.crop((x0, y0, x1, y1))
            inked = drawn.getchannel("A").getbbox()
            if inked is None:
                tile = ()
            else:
                drawn, (dx0, dy0, dx1, dy1) = drawn.crop(inked), inked
                tile = (drawn.convert("RGB").im, drawn.getchannel("A").im,
                        (x0 + dx0, y0 + dy0, x0 + dx1, y0 + dy1))  # Pillow's core images
            _GLYPH_TILES.store(key, tile)
        if tile:
            pixels, alpha, where = tile
            self.core.paste(pixels, where, alpha)

    def _visible(self, v: View) -> bool:
        return v.clip is not None and v.clip == v.bounds

    # ------------------------------------------------------------------ drawing
    def _window(self, window: Window, within: tuple[int, int, int, int] | None = None) -> None:
        th = self.theme
        kind = window.kind
        if kind == "status":
            self._rect(window.root.clip, th["bg"])
        elif kind == "nav":
            self._rect(window.root.clip, th["nav"])
        elif kind == "keyboard":
            self._keyboard(window.root)
        if within is not None:  # in screen px, grown by the reach of any view's drawing
            across, down = self._reach()
            l, t = (within[0] - 1) / self.sx - across, (within[1] - 1) / self.sy - down
            r, b = (within[2] + 1) / self.sx + across, (within[3] + 1) / self.sy + down
        stack = [window.root]
        while stack:
            v = stack.pop()
            if v.clip is None:
                continue
            if within is None:
                self._node(v)
            else:
                x0, y0, x1, y1 = v.bounds
                if x0 < r and x1 > l and y0 < b and y1 > t:
                    self._node(v)
            stack.extend(reversed(v.children))

    def _node(self, v: View) -> None:
        th = self.theme
        style = v.style
        if v.bg is not None and style not in ("launcher_icon", "appicon"):
            self._rect(v.clip, v.bg, v.radius)
        elif style == "dialog":
            self._rect(v.clip, th["surface"], v.radius or 28)
        elif style == "toast":
            self._rect(v.clip, (50, 50, 54), v.radius or 24)
        elif style == "card":
            self._rect(v.clip, th["surface"], v.radius or 12)
        elif style == "divider":
            self._rect(v.clip, th["divider"])
        elif style in ("searchbar", "chip"):
            self._rect(v.clip, th["field"], v.radius or 28)
        if v.selected and style == "tab":
            l, t, r, b = v.clip
            self._rect((l, b - 3 * self.dp, r, b), th["primary"])
        cls = v.cls
        fg = v.fg or th["text"]
        if style == "launcher_icon":
            self._launcher_icon(v)
        elif cls == V.TEXT:
            colour = v.fg or (th["muted"] if style == "muted" else th["text"])
            self._text(v, v.text, colour)
        elif cls == V.BUTTON:
            self._button(v)
        elif cls in (V.IMAGE, V.IMAGE_BUTTON):
            self._image(v, fg)
        elif cls == V.EDIT:
            self._edit(v)
        elif cls == V.SWITCH:
            self._switch(v)
        elif cls == V.CHECKBOX:
            self._checkbox(v)
        elif cls == V.PROGRESS:  # a spinner, drawn still
            self._image(v, v.fg or th["primary"])

    def _launcher_icon(self, v: View) -> None:
        """An app icon: a coloured disc with a glyph or the label's initial, label below."""
        if not self._visible(v):
            return
        l, t, r, b = v.bounds
        d = min(56 * self.dp, (b - t) * 0.55)
        cx, cy = (l + r) / 2, t + 12 * self.dp + d / 2
        box = self._box((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2))
        self.draw.ellipse(box, fill=v.bg or self.theme["primary"])
        if v.icon and v.icon != "app":
            g = d * 0.32
            self._glyph(v.icon, self._box((cx - g, cy - g, cx + g, cy + g)), (255, 255, 255))
        else:
            px = max(6, int(d * 0.45 * self.sy))
            mask = _mask((v.text or "?")[:1].upper(), px, True)
            x, y = int(cx * self.sx - mask.width / 2), int(cy * self.sy - px * 0.62)
            self.img.paste((255, 255, 255), (x, y, x + mask.width, y + mask.height), mask)
        label_top = cy + d / 2 + 4 * self.dp
        self._text(v, v.text, v.fg or self.theme["text"], box=(l, label_top, r, label_top + 20 * self.dp),
                   align="center")

    def _button(self, v: View) -> None:
        th = self.theme
        style = v.style or "filled"
        if style == "filled":
            self._rect(v.clip, v.bg or th["primary"], v.radius)
            colour = v.fg or th["on_primary"]
        elif style == "tonal":
            self._rect(v.clip, v.bg or th["tonal"], v.radius)
            colour = v.fg or th["text"]
        elif style == "outlined":
            self._rect(v.clip, th["bg"], v.radius, outline=th["divider"])
            colour = v.fg or th["primary"]
        else:
            colour = v.fg or th["primary"]
        if not v.enabled:
            colour = th["muted"]
        self._text(v, v.text, colour, align=v.align, bold=True)

    def _image(self, v: View, fg: Colour) -> None:
        if not self._visible(v):
            return
        l, t, r, b = self._box(v.bounds)
        if v.style == "appicon":
            d = min(r - l, b - t) * 0.86
            cx, cy = (l + r) / 2, (t + b) / 2
            self.draw.ellipse((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2), fill=v.bg or self.theme["primary"])
            if v.icon == "app":
                letter = (v.desc or v.text or "?")[:1].upper()
                px = int(d * 0.5)
                mask = _mask(letter, px, True)
                x, y = int(cx - mask.width / 2), int(cy - px * 0.62)
                self.img.paste(v.fg or (255, 255, 255), (x, y, x + mask.width, y + mask.height), mask)
            else:
                self._glyph(v.icon, (cx - d / 3, cy - d / 3, cx + d / 3, cy + d / 3),
                           v.fg or (255, 255, 255))
            return
        if v.icon:
            s = min(r - l, b - t, self._px(40))
            cx, cy = (l + r) / 2, (t + b) / 2
            self._glyph(v.icon, (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2),
                       fg if v.enabled else self.theme["muted"])

    def _edit(self, v: View) -> None:
        th = self.theme
        if v.style == "search":
            self._rect(v.clip, v.bg or th["field"], v.radius or 28)
        elif v.bg is None:
            l, t, r, b = v.clip
            self._rect((l, b - max(1, int(2 * self.dp)), r, b),
                       th["primary"] if v.focused else th["muted"])
        showing_hint = bool(v.hint) and v.text == v.hint
        text = v.text if not v.password or showing_hint else "•" * len(v.text)
        l, t, r, b = v.bounds
        pad = 16 * self.dp if v.style == "search" else 4 * self.dp
        box = (l + pad, t, r - pad / 2, b)
        end = self._text(v, text, th["muted"] if showing_hint else (v.fg or th["text"]), box=box,
                         size=v.size if v.size != 14.0 else 16)
        if v.focused and self._visible(v):
            px = self._px(16)
            x = int((l + pad) * self.sx) + self._px(2) if showing_hint or end is None else end
            cy = int((t + b) / 2 * self.sy)
            self.draw.line([(x, cy - px * 0.6), (x, cy + px * 0.6)], fill=th["primary"],
                           width=max(1, self._px(2)))

    def _switch(self, v: View) -> None:
        if not self._visible(v):
            return
        th = self.theme
        l, t, r, b = v.bounds
        cx, cy = (l + r) / 2, (t + b) / 2
        w, h = 52 * self.dp, 32 * self.dp
        track = self._box((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        on = v.checked
        self.draw.rounded_rectangle(track, radius=(track[3] - track[1]) // 2,
                                    fill=th["primary"] if on else th["track"])
        d = (h - 8 * self.dp) if on else (h - 14 * self.dp)
        tx = cx + w / 2 - h / 2 if on else cx - w / 2 + h / 2
        thumb = self._box((tx - d / 2, cy - d / 2, tx + d / 2, cy + d / 2))
        self.draw.ellipse(thumb, fill=th["on_primary"] if on else th["bg"])

    def _checkbox(self, v: View) -> None:
        if not self._visible(v):
            return
        th = self.theme
        l, t, r, b = v.bounds
        s = 20 * self.dp
        x0, cy = l + 14 * self.dp, (t + b) / 2
        box = (x0, cy - s / 2, x0 + s, cy + s / 2)
        if v.checked:
            self._rect(box, th["primary"], 3)
            self._glyph("check", self._box(box), th["on_primary"])
        else:
            self._rect(box, th["bg"], 3, outline=th["muted"])
        if v.text:
            self._text(v, v.text, v.fg or th["text"], box=(x0 + s + 8 * self.dp, t, r, b))

    def _keyboard(self, root: View) -> None:
        th = self.theme
        img = _keyboard_keys(self._box(root.clip), th["keyboard"], th["key"], th["text"], self._px(18))
        l, t = self._box(root.clip)[:2]
        self.img.paste(img, (l, t))


@lru_bytes(16 << 20, lambda args, img: img.width * img.height * 3)
def _keyboard_keys(box, bg: Colour, key: Colour, text: Colour, px: int) -> Image.Image:
    """The letter keys, drawn once per size and theme (the keyboard never changes)."""
    l, t, r, b = box
    w, h = r - l, b - t
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    rows = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
    kw, kh = w / 10, h / 4.6
    gap = min(3.0, kw / 6, kh / 6)  # between keys; shrinks with the keyboard so keys never invert
    for i, keys in enumerate(rows):
        x0 = (w - kw * len(keys)) / 2
        for j, ch in enumerate(keys):
            x, y = x0 + j * kw, 0.3 * kh + i * kh
            d.rounded_rectangle((x + gap, y + gap, x + kw - gap, y + kh - gap), radius=max(1, int(kw / 8)), fill=key)
            mask = _mask(ch, px, False)
            cx, cy = int(x + kw / 2 - mask.width / 2), int(y + kh / 2 - px * 0.6)
            img.paste(text, (cx, cy, cx + mask.width, cy + mask.height), mask)
    y = 0.3 * kh + 3 * kh
    d.rounded_rectangle((w * 0.25, y + gap, w * 0.72, y + kh - gap), radius=max(1, int(kw / 8)), fill=key)
    return img
