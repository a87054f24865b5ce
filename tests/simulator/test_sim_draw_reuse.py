"""Retained mode's pixel reuse: windows that draw alike share a `Look` and its pixels; a
window that differs from one of the same geometry only in some views is drawn again only
near them. The pixels must be the full rebuild's (the walks in test_sim_retained.py
compare every step; these check that the reuse happens and what it relies on). The
renderer's shortcuts, which both paths take, are checked against plain drawing here:
glyphs, text lines and rounded rectangles pasted from memos equal drawing them whole."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from mobile_gym.actions import Action
from mobile_gym.simulator import SimulatedDevice, render, retained
from mobile_gym.simulator.glyphs import GLYPHS, draw_glyph
from mobile_gym.simulator.render import DRAWN_FIELDS, Renderer, look
from mobile_gym.simulator.runtime import Frame, Window
from mobile_gym.simulator.views import Button, Column, Text, View

from phone import ReadingView, swipe_up, tap

SCREEN, SIZE = (1080, 2400), (270, 600)


def test_drawing_reads_only_the_fields_a_look_holds():
    # a field drawing reads but `DRAWN_FIELDS` lacks would let two windows that draw
    # differently share their pixels
    rng = np.random.default_rng(0)
    read: set[str] = set()
    for app in ("settings", "clock", "playstore", "chrome", None):
        phone = SimulatedDevice(seed=1, setup={"launch": app} if app else {}, retained=False)
        for _ in range(40):
            frame = phone.runtime.frame()
            views = [v for window in frame.windows for v in window.root.walk()]
            for v in views:
                v.__class__ = ReadingView
            ReadingView.reads.clear()
            Renderer(SCREEN, SIZE).render(frame)
            read |= ReadingView.reads
            for v in views:
                v.__class__ = View
            targets = phone.observe(screenshot=False).hierarchy.find_all(clickable=True)
            action = Action.click_center(targets[int(rng.integers(len(targets)))].bounds, SCREEN) \
                if targets and rng.random() < 0.85 else Action.type_text("tokyo") if rng.random() < 0.5 \
                else Action.back()
            phone.perform(action)
    assert {"bounds", "clip", "text", "cls"} <= read
    assert read - {"children"} <= set(DRAWN_FIELDS)


def _window(*views: View) -> Window:
    root = Column(*views)
    placed = retained.place(retained.Tree(root), (0, 0, *SCREEN), (0, 0, *SCREEN), 2.625, {})
    return Window(root, "com.example", None, "app", placed)


def test_windows_that_draw_alike_share_a_look_and_their_pixels():
    a = _window(Text("Hello", rid="com.example:id/a"), Button("OK", None))
    b = _window(Text("Hello", rid="com.example:id/b"), Button("OK", None))  # not drawn: another layout, one look
    c = _window(Text("Hello!"), Button("OK", None))
    assert a.placed is not b.placed and look(a) is look(b)
    assert look(c) is not look(a) and look(c).geometry == look(a).geometry
    renderer = Renderer(SCREEN, SIZE)
    frame = lambda window: Frame([window], "com.example/.Main", False, 2.625)  # noqa: E731
    shot = renderer.pixels(frame(a))
    assert renderer.pixels(frame(b)) is shot  # the very array: screenshots are read-only
    assert not shot.flags.writeable
    assert not np.array_equal(renderer.pixels(frame(c)), shot)


@pytest.fixture
def draws(monkeypatch) -> list:
    """The box each drawing of a window was limited to (None: drawn whole)."""
    seen = []
    draw = Renderer._draw

    def noted(self, windows, img=None, within=None):
        seen.append(within)
        return draw(self, windows, img, within)
    monkeypatch.setattr(Renderer, "_draw", noted)
    return seen


@pytest.mark.parametrize("kept", [True, False])
def test_a_window_that_changed_in_part_is_drawn_again_in_that_part(draws, kept):
    shots = {}
    for retained_mode in (True, False):
        phone = SimulatedDevice(seed=0, setup={"launch": "settings"}, retained=retained_mode)
        tap(phone, text="Network & internet")
        before = phone.observe(screenshot_size=SIZE).screenshot
        if not kept:
            render._BODIES.cache_clear()  # the pixels to start from are gone: drawn whole
        draws.clear()
        tap(phone, text="OFF")  # airplane mode: the switch and a few rows change
        after = phone.observe(screenshot_size=SIZE).screenshot
        shots[retained_mode] = np.asarray(before), np.asarray(after)
        if retained_mode:
            boxes = [box for box in draws if box is not None]
            if kept:
                assert len(boxes) == 1
                l, t, r, b = boxes[0]
                assert 0 < (r - l) * (b - t) < SIZE[0] * SIZE[1] / 2
            else:
                assert not boxes
    assert np.array_equal(shots[True][0], shots[False][0])
    assert np.array_equal(shots[True][1], shots[False][1])
    assert not np.array_equal(shots[True][0], shots[True][1])


def test_a_modal_dialog_is_drawn_over_the_screen_under_it_dimmed_once(monkeypatch):
    dims = []
    dim = Renderer._dim
    monkeypatch.setattr(Renderer, "_dim", lambda self, img: dims.append(img.size) or dim(self, img))
    shots = {}
    for retained_mode in (True, False):
        phone = SimulatedDevice(seed=0, setup={"launch": "settings"}, retained=retained_mode)
        while phone.observe(screenshot=False).hierarchy.find(text="About phone") is None:
            swipe_up(phone, 0.5)
        tap(phone, text="About phone")
        seen = [phone.observe(screenshot_size=SIZE).screenshot]
        dims.clear()
        tap(phone, text="Device name")  # a dialog and the keyboard over the page, which dims
        seen.append(phone.observe(screenshot_size=SIZE).screenshot)
        for word in ("Tab", "let"):  # the dialog's field changes, the page under it not
            phone.perform(Action.type_text(word))
            seen.append(phone.observe(screenshot_size=SIZE).screenshot)
        shots[retained_mode] = seen
        # retained: the page's kept pixels dimmed once for the three dialogs; reference: every frame
        assert len(dims) == (1 if retained_mode else 3)
    for kept, drawn in zip(shots[True], shots[False]):
        assert np.array_equal(kept, drawn)
    assert len({a.tobytes() for a in shots[True]}) == 4


def test_a_glyph_pasted_from_the_memo_is_the_glyph_drawn():
    """Glyphs are drawn once per place and colour and pasted after: every glyph at
    fractional boxes (partly off the screen too), in any colour, over any background,
    pasted the first and the second time, equals drawing it."""
    rng = np.random.default_rng(0)
    renderer = Renderer(SCREEN, SIZE)
    for name in [*GLYPHS, None]:
        for _ in range(12):
            side = float(rng.uniform(4, 60))
            left, top = float(rng.uniform(-20, SIZE[0])), float(rng.uniform(-20, SIZE[1]))
            box = (left, top, left + side, top + side * float(rng.uniform(0.8, 1.2)))
            colour = tuple(int(c) for c in rng.integers(0, 256, 3))
            background = tuple(int(c) for c in rng.integers(0, 256, 3))
            drawn = Image.new("RGB", SIZE, background)
            draw_glyph(ImageDraw.Draw(drawn), name, box, colour)
            for _ in range(2):
                pasted = Image.new("RGB", SIZE, background)
                renderer.img, renderer.core = pasted, pasted.im
                renderer._glyph(name, box, colour)
                assert np.array_equal(np.asarray(pasted), np.asarray(drawn)), (name, box)


def test_a_text_pasted_where_it_inks_is_the_whole_line_pasted():
    """A text's lines are pasted only where their masks ink: every kind of line (wrapped,
    bold, cut with an ellipsis, spaces alone, look-alikes, emoji), in every alignment, at
    random places (partly off the screen too) and colours over any background, equals
    pasting each line's whole mask."""
    rng = np.random.default_rng(1)
    renderer = Renderer(SCREEN, SIZE)
    renderer.theme, renderer.dp = render.LIGHT, 2.625
    texts = ["Wi\u2011Fi", "   ", "Network & internet", "a very long line of typed text that wraps " * 3,
             "Caf\u00e9 \U0001F600 \u2014 50%", "g", "|"]
    for text in texts:
        for _ in range(8):
            left, top = float(rng.uniform(-200, SCREEN[0])), float(rng.uniform(-100, SCREEN[1]))
            box = (left, top, left + float(rng.uniform(20, 900)), top + float(rng.uniform(30, 300)))
            view = Text(text, size=float(rng.uniform(8, 30)), lines=int(rng.integers(1, 4)),
                        bold=bool(rng.integers(2)), align=str(rng.choice(["left", "center", "right"])))
            view.bounds = view.clip = box
            colour = tuple(int(c) for c in rng.integers(0, 256, 3))
            background = tuple(int(c) for c in rng.integers(0, 256, 3))
            pasted = Image.new("RGB", SIZE, background)
            renderer.img, renderer.core = pasted, pasted.im
            end = renderer._text(view, text, colour)
            whole = Image.new("RGB", SIZE, background)
            l, t, r, b = renderer._box(box)
            px, pad = renderer._px(view.size), renderer._px(2)
            lines = render._fit(render._drawable(text), px, max(1, r - l - 2 * pad), view.lines)
            line_h, last = int(px * 1.3), None
            y = t + (b - t - line_h * len(lines)) // 2
            for line in lines:
                mask = render._mask(line, px, view.bold)
                x = {"left": l + pad, "center": l + (r - l - mask.width) // 2, "right": r - pad - mask.width}[view.align]
                if y >= t - 1 and y + line_h <= b + 1:  # whole lines of the box alone
                    whole.paste(colour, (x, y, x + mask.width, y + mask.height), mask)
                    last = x + mask.width
                y += line_h
            assert np.array_equal(np.asarray(pasted), np.asarray(whole)), (text, box)
            assert end == last  # where a cursor goes


def test_a_rounded_rectangle_pasted_in_parts_is_the_one_pil_draws():
    """Filled rounded rectangles are pasted from memoized parts (solid middle and edges,
    masked corners): at every size and radius, at random places (partly off the screen
    too) and colours over any background, equal to PIL's drawing."""
    rng = np.random.default_rng(2)
    renderer = Renderer(SCREEN, SIZE)
    renderer.theme, renderer.dp = render.LIGHT, 2.625
    for _ in range(400):
        w, h = int(rng.integers(1, 300)), int(rng.integers(1, 120))
        left, top = int(rng.integers(-60, SIZE[0])), int(rng.integers(-60, SIZE[1]))
        radius_dp = float(rng.choice([1, 3, 8, 12, 16, 22, 28, 200]))
        box = (left, top, left + w, top + h)  # in output px: the renderer's scale set to 1
        renderer.sx = renderer.sy = renderer.k = 1.0
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        background = tuple(int(c) for c in rng.integers(0, 256, 3))
        pasted = Image.new("RGB", SIZE, background)
        renderer.img, renderer.draw, renderer.core = pasted, ImageDraw.Draw(pasted), pasted.im
        renderer._rect(box, colour, radius_dp)
        drawn = Image.new("RGB", SIZE, background)
        r = min(renderer._px(radius_dp), w // 2, h // 2)
        ImageDraw.Draw(drawn).rounded_rectangle(box, radius=r, fill=colour)
        assert np.array_equal(np.asarray(pasted), np.asarray(drawn)), (box, r)
