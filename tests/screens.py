"""Builders for small hand-made screens used across the tests."""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

from PIL import Image

from mobile_gym.matcher.annotation import Checkpoint, ReferenceScreen, parse_ess
from mobile_gym.trace import UIState
from mobile_gym.ui.components import component_list
from mobile_gym.ui.hierarchy import FLAG_NAMES, ViewHierarchy

#: Real LlamaTouch data shipped with the tests (see tests/data/llamatouch/README.md).
LLAMATOUCH_DATA = Path(__file__).resolve().parent / "data" / "llamatouch"
FIXTURES = LLAMATOUCH_DATA / "fixtures"
METADATA_TSV = LLAMATOUCH_DATA / "llamatouch_task_metadata.tsv"
DIALOG_XML = FIXTURES / "click_test_case" / "case1" / "10.xml"
_SCREENSHOTS = tempfile.TemporaryDirectory()  # removed at exit
WIDTH, HEIGHT = 1080, 2400



@dataclass
class N:
    """A node of a hand-made dump."""

    cls: str = "android.widget.TextView"
    text: str = ""
    rid: str = ""
    desc: str = ""
    bounds: tuple[int, int, int, int] = (0, 0, 100, 50)
    children: list[N] = field(default_factory=list)
    flags: dict[str, bool] = field(default_factory=dict)

    def xml(self, index: int, package: str) -> str:
        flags = {"enabled": True, **self.flags}
        attrs = [
            ("index", str(index)),
            ("text", self.text),
            ("resource-id", self.rid),
            ("class", self.cls),
            ("package", package),
            ("content-desc", self.desc),
            *((f, "true" if flags.get(f, False) else "false") for f in FLAG_NAMES),
            ("bounds", "[{},{}][{},{}]".format(*self.bounds)),
        ]
        head = "<node " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs)
        if not self.children:
            return head + " />"
        inner = "".join(c.xml(i, package) for i, c in enumerate(self.children))
        return head + ">" + inner + "</node>"


def button(text: str, bounds, rid: str = "", **flags) -> N:
    return N("android.widget.Button", text, rid, bounds=bounds, flags={"clickable": True, **flags})


def dump(*nodes: N, package: str = "com.example.shop") -> str:
    root = N("android.widget.FrameLayout", bounds=(0, 0, WIDTH, HEIGHT), children=list(nodes))
    return windows((root, package))


def windows(*roots: tuple[N, str]) -> str:
    """A dump of several windows, each a root node with its package, bottom to top."""
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">" + "".join(
        root.xml(i, package) for i, (root, package) in enumerate(roots)) + "</hierarchy>"


def state(xml: str, activity: str | None = "com.example.shop/.MainActivity", **kwargs) -> UIState:
    return UIState(xml=xml, activity=activity, **kwargs)


def checkpoint(ref: UIState, ess: str) -> Checkpoint:
    """A checkpoint on `ref` with components taken from its own dump."""
    components = component_list(ViewHierarchy(ref.xml))
    return Checkpoint(ReferenceScreen(ref, components), parse_ess(ess))


def component_index(ref: UIState, **attrs) -> int:
    """Index of the component whose attributes equal `attrs` (text=..., cls=...)."""
    for c in component_list(ViewHierarchy(ref.xml)):
        if all(getattr(c, k) == v for k, v in attrs.items()):
            return c.id
    raise LookupError(attrs)


def blank(colour=(250, 250, 250)) -> Image.Image:
    return Image.new("RGB", (WIDTH, HEIGHT), colour)


@functools.lru_cache(maxsize=None)
def screenshot_file(size: tuple[int, int], grey: int = 250) -> Path:
    """A one-colour screenshot of ``size`` as a PNG file, made once per test process: a
    writer copies a state's screenshot file instead of encoding full-size pixels again
    (a dataset keeps screens at the screen's resolution)."""
    path = Path(_SCREENSHOTS.name) / f"{size[0]}x{size[1]}-{grey}.png"
    Image.new("RGB", size, (grey,) * 3).save(path, compress_level=1)
    return path
