"""Layout pass: dp sizes in a widget tree -> pixel bounds for one device profile.

Columns stack children top to bottom (a ``fill`` child takes the leftover height), rows
share their width between fixed-width children and weighted ones, stacks overlay their
children. Scrollers lay out all their content and shift it by the offset the activity
keeps; every node gets ``bounds`` (where it would be) and ``clip`` (the part on screen,
``None`` when nothing is), which is what dumps, drawing and hit-testing use.
"""

from __future__ import annotations

from typing import MutableMapping

from mobile_gym.simulator.views import View

Box = tuple[int, int, int, int]
NO_PAD = (0.0, 0.0, 0.0, 0.0)


def _intersect(a: Box, b: Box | None) -> Box | None:
    if b is None:
        return None
    l, t, r, bt = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (l, t, r, bt) if l < r and t < bt else None


class Layout:
    """Lays out trees for one density; ``scroll`` maps scroll keys to pixel offsets and
    is clamped in place to each scroller's range."""

    def __init__(self, density: float, scroll: MutableMapping[str, int]):
        self.density = density
        self.scroll = scroll
        self._px: dict[float, int] = {}  # dp -> px (a screen uses few distinct sizes)
        self._heights: dict[int, int] = {}  # id(view) -> natural height, for this pass

    def px(self, dp: float) -> int:
        try:
            return self._px[dp]
        except KeyError:
            value = self._px[dp] = int(round(dp * self.density))
            return value

    def measure(self, v: View) -> int:
        """Natural height in px (each view is measured once per pass: parents measure
        their children, then place them, which measures the grandchildren)."""
        if v.h is not None:
            return self.px(v.h)
        height = self._heights.get(id(v))
        if height is None:
            height = self._heights[id(v)] = self._measure(v)
        return height

    def _measure(self, v: View) -> int:
        pads = self.px(v.pad[1]) + self.px(v.pad[3])
        kids = v.children
        if not kids:
            return pads
        if v.orient == "v":
            # a child that fills the column (a scroller) asks for no height of its own
            return (pads + sum(0 if c.fill else self.measure(c) for c in kids)
                    + self.px(v.gap) * (len(kids) - 1))
        return pads + max(self.measure(c) for c in kids)

    def place(self, v: View, box: Box, clip: Box | None) -> None:
        v.bounds = box
        v.clip = _intersect(box, clip)
        if not v.children:
            return
        l, t, r, b = box
        if v.pad == NO_PAD:
            inner = box
        else:
            pl, pt, pr, pb = (self.px(p) for p in v.pad)
            inner = (l + pl, t + pt, r - pr, b - pb)
        if v.scroll_key is not None:
            clip = v.clip and _intersect(inner, v.clip)
        if v.orient == "v":
            self._column(v, inner, clip)
        elif v.orient == "h":
            self._row(v, inner, clip)
        else:
            self._stack(v, inner, clip)

    def _column(self, v: View, inner: Box, clip: Box | None) -> None:
        l, t, r, b = inner
        gap = self.px(v.gap)
        scrolls = v.scroll_key is not None
        heights = [0 if c.fill and not scrolls else self.measure(c) for c in v.children]
        fills = [i for i, c in enumerate(v.children) if c.fill]
        used = sum(heights) + gap * (len(heights) - 1)
        if fills and not scrolls:
            spare = max(0, (b - t) - used)
            for n, i in enumerate(fills):
                share = spare // len(fills) + (1 if n < spare % len(fills) else 0)
                heights[i] += share
            used += spare
        y = t
        if scrolls:
            extent = max(0, used - (b - t))
            offset = min(max(0, self.scroll.get(v.scroll_key, 0)), extent)
            self.scroll[v.scroll_key] = offset
            y -= offset
        for child, h in zip(v.children, heights):
            cl, cr = self._span(child, l, r)
            self.place(child, (cl, y, cr, y + h), clip)
            y += h + gap

    def _span(self, child: View, l: int, r: int) -> tuple[int, int]:
        if child.w is None:
            return l, r
        w = min(self.px(child.w), r - l)
        if child.align == "center":
            l += (r - l - w) // 2
        elif child.align == "right":
            l = r - w
        return l, l + w

    def _row(self, v: View, inner: Box, clip: Box | None) -> None:
        l, t, r, b = inner
        gap = self.px(v.gap)
        kids = v.children
        fixed = [self.px(c.w) if c.w is not None else None for c in kids]
        weights = [0.0 if f is not None else (c.weight or 1.0) for c, f in zip(kids, fixed)]
        spare = max(0, (r - l) - sum(f for f in fixed if f) - gap * (len(kids) - 1))
        total_w = sum(weights)
        x = l
        for child, f, wt in zip(kids, fixed, weights):
            w = f if f is not None else int(spare * wt / total_w)
            h = self.measure(child) if child.h is not None else b - t
            h = min(h, b - t)
            y = t + (b - t - h) // 2
            self.place(child, (x, y, min(x + w, r), y + h), clip)
            x += w + gap

    def _stack(self, v: View, inner: Box, clip: Box | None) -> None:
        l, t, r, b = inner
        for child in v.children:
            # A child fills the stack unless it has a height or is anchored ("bottom",
            # "center", "top_right", ...: bottom sheets, dialogs, menus, floating buttons).
            a = child.align
            anchored = child.h is not None or a != "left"
            h = min(self.measure(child) if anchored else b - t, b - t)
            w = min(self.px(child.w), r - l) if child.w is not None else r - l
            if "right" in a:
                x = r - w
            elif a in ("center", "bottom"):
                x = l + (r - l - w) // 2
            else:
                x = l
            if "bottom" in a:
                y = b - h
            elif a == "center":
                y = t + (b - t - h) // 2
            else:
                y = t
            self.place(child, (x, y, x + w, y + h), clip)
