"""Image-patch comparison on LlamaTouch's own cases, and robustness to moved layouts."""

from __future__ import annotations

import json

import pytest
from PIL import Image
from screens import FIXTURES, N, dump

from mobile_gym.matcher import Checkpoint, Matcher, ReferenceScreen, parse_ess
from mobile_gym.matcher.images import compare_patches, patch_signature
from mobile_gym.trace import UIState
from mobile_gym.ui import Bounds, component_list, dumps_components, load_components
from mobile_gym.ui.components import COMPONENT_FLAGS

CASES = FIXTURES / "img_test_case"


def same_place(case: str, reference: str, other: str, component_file: str, component: int) -> bool:
    """Compare the annotated component's patch with the same place on another screen."""
    bounds = load_components(CASES / case / component_file)[component].bounds
    a = patch_signature(Image.open(CASES / case / reference).convert("RGB"), bounds)
    b = patch_signature(Image.open(CASES / case / other).convert("RGB"), bounds)
    m = Matcher().config
    return compare_patches(a, b, max_hash_distance=m.max_hash_distance, max_colour_distance=m.max_colour_distance).matched


@pytest.mark.parametrize(
    "case, reference, other, component_file, component, expected",
    [
        ("case1", "2.png", "2.png", "2.json", 0, True),
        ("case1", "2.png", "3.png", "2.json", 0, True),  # same screen, popup elsewhere
        ("case1", "2.png", "0.png", "2.json", 0, False),  # another app
        ("case2", "1.png", "1.png", "1.json", 16, True),
        ("case2", "1.png", "2.png", "1.json", 16, False),  # the Gmail icon's cell now shows Google
        ("case3", "1.png", "1.png", "1.json", 22, True),
        ("case3", "1.png", "2.png", "1.json", 22, False),  # another feed item
    ],
)
def test_llamatouch_image_cases(case, reference, other, component_file, component, expected):
    assert same_place(case, reference, other, component_file, component) is expected


# The app drawer of case2 is a 4-column grid; in 2.png an app is missing, so icons moved.
_COLS = [57, 298, 540, 781, 1023]
_ROWS = [273, 609, 945, 1281, 1617, 1953, 2289]


def _drawer_dump() -> str:
    """A text-less app grid (every cell an ImageView) for the drawer screenshots."""
    cells = []
    for r in range(len(_ROWS) - 1):
        for c in range(4):
            cells.append(N("android.widget.ImageView", rid="com.google.android.apps.nexuslauncher:id/icon",
                           bounds=(_COLS[c], _ROWS[r], _COLS[c + 1], _ROWS[r + 1])))
    return dump(*cells, package="com.google.android.apps.nexuslauncher")


def test_textless_component_is_found_where_it_moved_to():
    reference = UIState(xml=_drawer_dump(), screenshot_path=CASES / "case2" / "1.png")
    gmail_bounds = Bounds(540, 1281, 781, 1617)  # Gmail in 1.png
    components = component_list(reference.hierarchy)
    index = next(c.id for c in components if c.bounds == gmail_bounds)
    cp = Checkpoint(ReferenceScreen(reference, components), parse_ess(f"exact<{index}>"))
    matcher = Matcher()
    moved = UIState(xml=_drawer_dump(), screenshot_path=CASES / "case2" / "2.png")  # Gmail now at [298,1281]
    result = matcher.check(cp, moved)
    assert result.matched
    assert "[298,1281][540,1617]" in result.results[0].detail
    # a screen where no cell shows Gmail: the Duolingo home screen with the same grid of nodes
    absent = UIState(xml=_drawer_dump(), screenshot_path=CASES / "case1" / "2.png")
    assert not matcher.check(cp, absent).matched


def test_shipped_component_lists_load_and_round_trip():
    for path in sorted(CASES.glob("*/*.json")):
        components = load_components(path)
        raw = json.loads(path.read_text())
        assert [c.to_dict() for c in components] == raw
        assert dumps_components(components) == path.read_text(encoding="utf-8")  # byte-identical
        assert list(raw[0]) == ["id", "class", "text", "resource-id", "content-desc", "bounds", *COMPONENT_FLAGS]


def test_a_screenshot_smaller_than_the_screen_is_cropped_where_the_component_is_drawn() -> None:
    """Bounds are in the screen's pixels; a trace may keep a smaller picture of it."""
    full = Image.open(CASES / "case2" / "1.png").convert("RGB")
    bounds = load_components(CASES / "case2" / "1.json")[16].bounds
    half = full.resize((full.width // 2, full.height // 2), Image.Resampling.LANCZOS)
    m = Matcher().config

    def matched(a, b) -> bool:
        return compare_patches(a, b, max_hash_distance=m.max_hash_distance,
                               max_colour_distance=m.max_colour_distance).matched

    reference = patch_signature(full, bounds)
    assert matched(reference, patch_signature(half, bounds, full.size))
    assert not matched(reference, patch_signature(half, bounds))  # read as if it were the screen
