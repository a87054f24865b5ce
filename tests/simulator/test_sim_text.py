"""Text on the simulated phone, whatever an agent types: what a field holds (control
characters dropped, line feeds shown as spaces, at most `MAX_FIELD_LENGTH` characters),
dumps that stay valid XML inside the observation space, emoji drawn, drawing cost and
the renderer's caches bounded whatever the text."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from lxml import etree
from PIL import Image, ImageFont

from mobile_gym.actions import MAX_TEXT_LENGTH, Action
from mobile_gym.env import MAX_XML_LENGTH
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.simulator import render
from mobile_gym.simulator.app import Activity, App
from mobile_gym.simulator.memo import BoundedMemo
from mobile_gym.simulator.text import MAX_FIELD_LENGTH
from mobile_gym.simulator.views import Row, Text, View
from mobile_gym.spaces import UnicodeText
from phone import node, tap

URL_BAR = "com.android.chrome:id/url_bar"
DUMPS = UnicodeText(MAX_XML_LENGTH)


def chrome_typing(text: str, seed: int = 0) -> SimulatedDevice:
    """Chrome with ``text`` typed into its focused URL bar."""
    phone = SimulatedDevice(seed=seed, setup={"launch": "chrome"})
    tap(phone, resource_id=URL_BAR)
    phone.perform(Action.type_text(text))
    return phone


def valid_dump(phone: SimulatedDevice) -> str:
    xml = phone.observe(screenshot=False).xml
    etree.fromstring(xml.encode("utf-8"))
    assert DUMPS.contains(xml)
    return xml


def test_typing_drops_control_characters_and_shows_line_feeds_as_spaces():
    phone = chrome_typing("a\x00b\x01c\x7fd\x85e\ufffe\uffff f\r\ng\th\ni")
    assert phone.runtime.surface.fields["url"] == "abcde f g\th i"
    valid_dump(phone)
    assert node(phone, resource_id=URL_BAR).text == "abcde f g\th i"  # the tab survives the dump
    phone.observe(screenshot_size=(270, 600))


def test_emoji_and_astral_characters_are_text_that_renders():
    text = "Ajouter 🔔 à 9:00 𝄞 中文 👩‍👩‍👧"
    phone = chrome_typing(text)
    valid_dump(phone)
    assert node(phone, resource_id=URL_BAR).text == text
    bar = node(phone, resource_id=URL_BAR).bounds
    empty = chrome_typing("")
    crop = lambda p: np.asarray(p.observe().image)[bar.top:bar.bottom, bar.left:bar.right]  # noqa: E731
    assert (crop(phone) != crop(empty)).any(axis=2).mean() > 0.02  # drawn (a fallback box at worst)


def test_text_decoded_from_a_url_is_made_dumpable_like_uiautomator_does():
    phone = chrome_typing("www.bestbuy.com/site/searchpage.jsp?st=a%00b%EF%BF%BEc%1B")
    phone.perform(Action.enter())
    xml = valid_dump(phone)
    assert "a.b.c." in xml and "\x00" not in xml
    phone.observe(screenshot_size=(270, 600))


def test_a_field_holds_at_most_max_field_length_characters():
    phone = chrome_typing("")
    for i in range(3 * MAX_FIELD_LENGTH // MAX_TEXT_LENGTH):
        phone.perform(Action.type_text(str(i % 10) * MAX_TEXT_LENGTH))
        xml = valid_dump(phone)
    field = phone.runtime.surface.fields["url"]
    assert field == "0" * 512 + "1" * 512 + "2" * 512 + "3" * 512 and len(field) == MAX_FIELD_LENGTH
    assert len(xml) < 50 * MAX_FIELD_LENGTH  # a few echoes of the field, not an episode's typing


@pytest.fixture
def measured(monkeypatch) -> list[int]:
    """The number of characters the font measures (every call of ``getlength``)."""
    counts: list[int] = []
    real = ImageFont.FreeTypeFont.getlength

    def getlength(self, text, *args, **kwargs):
        counts.append(len(text))
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getlength", getlength)
    return counts


@pytest.mark.parametrize("word", ["w", "wide words "])
def test_drawing_a_field_measures_what_can_show_not_all_it_holds(measured, word):
    """A frame whose field holds 2,048 characters measures no more text than one whose
    field holds 256: fitting is bounded by the box (it was quadratic in the text)."""
    cost = {}
    for n, mark in ((256, "a"), (MAX_FIELD_LENGTH, "b")):  # a new text each: no cache hits
        phone = chrome_typing("")
        while len(phone.runtime.surface.fields["url"]) < n:
            phone.perform(Action.type_text((mark + word * MAX_TEXT_LENGTH)[:min(MAX_TEXT_LENGTH, n)]))
        measured.clear()
        phone.observe(screenshot_size=(540, 1200))
        cost[n] = sum(measured)
    assert cost[MAX_FIELD_LENGTH] <= 2 * cost[256], cost


class Narrow(App):
    """A test app: a two-line text in a narrow box at the left of an empty row."""

    package = "org.example.narrow"
    label = "Narrow"
    key = "narrow"
    text = ""

    def main(self) -> Activity:
        return NarrowScreen(self)


class NarrowScreen(Activity):
    def build(self) -> View:
        return Row(Text(self.app.text, lines=2, w=120, h=80, fg=(0, 0, 0)), h=200, bg=(255, 255, 255))


@pytest.mark.parametrize("text", ["x" * 300 + " end", "start " + "y" * 300, "z" * 1000])
def test_a_word_longer_than_its_line_breaks_inside_its_box(text):
    phone = SimulatedDevice(seed=0)
    phone.runtime.factories[Narrow.package] = Narrow
    phone.runtime.install(Narrow.package)
    phone.runtime.app(Narrow.package).text = text
    phone.runtime.launch(Narrow.package)
    label = node(phone, class_name="android.widget.TextView", text=text).bounds
    image = np.asarray(phone.observe().image)
    inside = image[label.top:label.bottom, label.left:label.right]
    right = image[label.top:label.bottom, label.right:]
    assert (inside < 128).all(axis=2).any()  # the text is drawn ...
    assert not (right < 250).any()  # ... and nothing of it right of its box


def test_renderer_caches_hold_at_most_their_byte_budgets(monkeypatch):
    """Rendering new text on every frame (a long run's agent typing) keeps the live text
    masks within the mask caches' budgets, here shrunk to 1 MB so a test can exceed them
    (a typeset text holds its lines' masks as Pillow's core images, counted in its memo)."""
    for memo in (render._mask, render._typeset):
        monkeypatch.setattr(memo, "max_bytes", 1 << 20, raising=False)
        memo.cache_clear()
    for i in range(100):
        chrome_typing(f"{i:03d} new words typed").observe()
    gc.collect()
    masks = [o for o in gc.get_objects() if type(o) is Image.Image and o.mode == "L"]  # type(): no hooks
    assert sum(m.width * m.height for m in masks) <= (1 << 20) + (256 << 10)  # budget + one frame's
    memos = [m for m in vars(render).values() if isinstance(m, BoundedMemo)]
    assert {m.__name__ for m in memos} >= {"_mask", "_typeset", "_fit", "_drawable", "_keyboard_keys", "_BODIES",
                                           "_LOOKS", "_LAST_OF_GEOMETRY", "_DIMMED", "_TILES",
                                           "_GLYPH_TILES"}
    for memo in memos:
        assert memo.nbytes <= memo.max_bytes
        assert memo.nbytes == sum(cost for _, cost in memo.entries.values())
