"""UIState and Trace: what a device shows at one step, and a run of such steps.

A state loaded from disk keeps only its file paths until a field is read, so that an
evaluator that needs just activities and actions never decodes a screenshot. Reading a
missing or corrupt file raises `FormatError` naming that file. A state may also draw
its screenshot on demand (``screenshot_source``): a simulator's frame draws at any
size, and a full-resolution screenshot is worth drawing only for a trace being written.
A state pickles its screenshot as PNG (a full-size screen is 7.7 MB of pixels, about
130 KB of PNG), decoded again when it is first read.
"""

from __future__ import annotations

import io
import re
import shutil
import struct
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import numpy as np
from PIL import Image

from mobile_gym.actions import Action
from mobile_gym.errors import ConfigError, FormatError, ViewHierarchyError
from mobile_gym.formats.files import (
    MAX_DUMP_BYTES,
    MAX_IMAGE_BYTES,
    MAX_IMAGE_PIXELS,
    open_regular,
    read_bytes,
)
from mobile_gym.ui.hierarchy import PARSES, ViewHierarchy, parsed_screen


_IDENTIFIER = r"[^\W\d][\w$]*"
_QUALIFIED = rf"{_IDENTIFIER}(?:\.{_IDENTIFIER})*"
#: ``pkg/.Cls``, ``pkg/full.Cls``, ``pkg/Cls``; or a class alone: ``.Cls``, ``full.Cls``.
_NAME = re.compile(rf"(?:(?P<package>{_QUALIFIED})/)?(?P<cls>\.?{_QUALIFIED})")
#: dumpsys records: ``ActivityRecord{hash u0 pkg/.Cls t12}``, ``Window{hash u0 title}``.
_RECORD = re.compile(r"\b(ActivityRecord|Window)\{\S+ (?:u\d+ )?([^{}]*)\}")
#: ``mCurrentFocus=``, ``mResumedActivity:`` ... before the value of a dumpsys line.
_KEY = re.compile(r"\w+\s*[=:]\s*")
_FORMS = (
    "pkg/.Cls, pkg/full.Cls, .Cls, full.Cls, or a dumpsys line with an ActivityRecord{…} "
    "or Window{…} (mResumedActivity, mFocusedApp, mCurrentFocus, mObscuringWindow)"
)


def normalize_activity(activity: str | None, package: str | None = None) -> str:
    """Canonical ``package/fully.qualified.Class`` form of an activity name.

    Accepts ``package/.Activity``, ``package/Activity`` (relative to the package, as a
    manifest reads it) and ``package/full.Class``; a class alone (``.Activity``,
    ``full.Class``) takes `package`, and without one it is a `FormatError`: a name that
    cannot be made canonical must never be compared. ``""`` for no activity.
    """
    activity = (activity or "").strip()
    if not activity:
        return ""
    own, cls = _split_name(activity)
    package = own or package
    if not package:
        raise FormatError(None, f"activity {activity!r} does not name its package")
    if cls.startswith("."):
        cls = package + cls
    elif "." not in cls:
        cls = f"{package}.{cls}"
    return f"{package}/{cls}"


def _split_name(name: str) -> tuple[str | None, str]:
    """(package or None, class) of an activity name; a class alone needs a dot."""
    m = _NAME.fullmatch(name)
    if not m or not (m["package"] or "." in m["cls"]):
        raise FormatError(None, f"{name!r} is not an activity name in a known form ({_FORMS})")
    return m["package"], m["cls"]


def parse_activity_text(text: str | None, source: str | Path | None = None) -> str | None:
    """The activity an ``.activity`` file (or a device) names: canonical when the text
    gives the package, else the class as written (``.Cls``, ``full.Cls``), which
    `UIState.canonical_activity` completes from the view hierarchy.

    Each non-empty line is a name, ``null``, or a dumpsys line (``mCurrentFocus=Window{…}``,
    ``mResumedActivity: ActivityRecord{…}`` ...); the first activity named wins. ``null``
    and windows that are no activity (``Window{… StatusBar}``, ``InputMethod``,
    ``PopupWindow:…``) name none, so a text with nothing else means *no activity* (None),
    which never matches an annotated one. Anything else is a `FormatError` naming `source`.
    """
    for number, line in enumerate((text or "").splitlines(), start=1):
        line = line.strip()
        records = _RECORD.findall(line)
        if records:
            firsts = [(kind, (body.split() or [""])[0]) for kind, body in records]
            names = [name for kind, name in firsts if kind == "ActivityRecord" or "/" in name]
        else:
            key = _KEY.match(line)
            value = line[key.end() :] if key else line
            names = [] if value in ("", "null") else [value]
        if names:
            name = names[0]
            try:
                package, _ = _split_name(name)
            except FormatError as exc:
                raise FormatError(source, f"line {number}: {exc.problem}") from None
            return normalize_activity(name) if package else name
    return None


class UIState:
    """One step of a trace: the screen, its hierarchy, foreground activity, the action
    taken from it (None for the last state) and, where recorded, installed packages."""

    def __init__(
        self,
        *,
        xml: str | None = None,
        xml_path: str | Path | None = None,
        screenshot: np.ndarray | Image.Image | None = None,
        screenshot_path: str | Path | None = None,
        screenshot_source: Callable[[], Image.Image] | None = None,
        activity: str | None = None,
        activity_path: str | Path | None = None,
        action: Action | None = None,
        installed_packages: Iterable[str] | None = None,
        index: int = 0,
        timing: dict[str, float] | None = None,
        screen_size: tuple[int, int] | None = None,
        tree: Callable[[], ViewHierarchy] | None = None,
    ):
        self._xml = xml
        self.xml_path = None if xml_path is None else Path(xml_path)
        self._given_pixels = screenshot is not None or screenshot_source is not None
        self._image = screenshot if isinstance(screenshot, Image.Image) else None
        self._array = screenshot if isinstance(screenshot, np.ndarray) else None
        self.screenshot_path = None if screenshot_path is None else Path(screenshot_path)
        #: draws the screenshot when it is first needed (used only if no pixels were given)
        self._source = screenshot_source
        self.activity = activity
        self.activity_path = None if activity_path is None else Path(activity_path)
        self.action = action
        self.installed_packages = None if installed_packages is None else frozenset(installed_packages)
        self.index = index
        self.timing = dict(timing or {})
        self._screen_size = None if screen_size is None else (int(screen_size[0]), int(screen_size[1]))
        self._hierarchy: ViewHierarchy | None = None
        self._tree = tree  # makes `hierarchy` without parsing `xml` (a simulator's frame)
        if tree is not None and xml is not None:
            PARSES.promise(xml, tree)  # so does `ViewHierarchy.of(xml)`, for an agent handed the dump

    def __getstate__(self) -> dict:
        # a frame's builder holds its views: parse instead; a parsed dump travels once, as
        # its XML, not again as the hierarchy made from it
        state = {**self.__dict__, "_tree": None}
        if self._xml is not None:
            state["_hierarchy"] = None
        if self._image is not None or self._array is not None or self._source is not None:
            # pixels, or a drawing function (which does not pickle): PNG bytes instead
            encoded = self._source
            if not isinstance(encoded, _EncodedScreenshot):
                encoded = _EncodedScreenshot(self._pixels())
            state.update(_image=None, _array=None, _source=encoded)
        return state

    def __repr__(self) -> str:
        return f"<UIState {self.index} {self.activity or '?'} action={self.action}>"

    # -- activity -------------------------------------------------------------------------
    @property
    def activity(self) -> str | None:
        """The foreground activity as recorded: any form `parse_activity_text` reads."""
        return self._activity

    @activity.setter
    def activity(self, value: str | None) -> None:
        self._activity = value
        self._canonical: tuple[str | None] | None = None  # (canonical,) once resolved

    @property
    def canonical_activity(self) -> str | None:
        """``package/fully.qualified.Class``, or None for no activity. A class recorded
        without its package takes the app window's package from this step's hierarchy
        (parsed only then); a name that cannot be made canonical is a `FormatError`
        naming the activity file."""
        if self._canonical is None:
            name = parse_activity_text(self._activity, self.activity_path)
            if name is not None and "/" not in name:
                package = self.hierarchy.app_package
                if package is None:
                    raise FormatError(
                        self.activity_path,
                        f"step {self.index}: activity {name!r} does not name its package and the view "
                        "hierarchy shows no app window to take it from",
                    )
                name = normalize_activity(name, package)
            self._canonical = (name,)
        return self._canonical[0]

    # -- view hierarchy -----------------------------------------------------------------
    @property
    def xml(self) -> str:
        if self._xml is None:
            if self.xml_path is None:
                raise FormatError(None, f"step {self.index} has no view hierarchy")
            data = read_bytes(self.xml_path, "view hierarchy", MAX_DUMP_BYTES)
            self._xml = data.decode("utf-8", errors="replace")
        return self._xml

    @property
    def hierarchy(self) -> ViewHierarchy:
        if self._hierarchy is None:
            if self._xml is None and self.xml_path is not None:
                self._hierarchy = ViewHierarchy.from_file(self.xml_path)
            else:
                try:
                    self._hierarchy = parsed_screen(self.xml, self._tree)
                except ViewHierarchyError as exc:
                    raise FormatError(None, f"step {self.index}: {str(exc).split(': ', 1)[-1]}") from exc
        return self._hierarchy

    # -- screenshot ---------------------------------------------------------------------
    @property
    def image(self) -> Image.Image:
        """The screenshot as an RGB PIL image (decoded or drawn once)."""
        if self._image is None:
            self._image = self._picture()
        return self._image

    def _picture(self) -> Image.Image:
        """The screenshot from wherever it is, without keeping it."""
        if self._image is not None:
            return self._image
        if self._array is not None:
            return Image.fromarray(np.asarray(self._array, dtype=np.uint8)[..., :3])
        if self._source is not None:
            image = self._source()
            return image if image.mode == "RGB" else image.convert("RGB")
        if self.screenshot_path is not None:
            return _load_image(self.screenshot_path)
        raise FormatError(None, f"step {self.index} has no screenshot")

    @property
    def screenshot(self) -> np.ndarray:
        """The screenshot as a uint8 (H, W, 3) array."""
        if self._array is None:
            self._array = np.asarray(self.image, dtype=np.uint8)
        return self._array

    def save_screenshot(self, path: str | Path, *, compress_level: int = 6) -> None:
        """Write the screenshot as PNG (`encode_png`, zlib `compress_level` 0-9). A state
        read from a PNG file copies that file instead of decoding and re-encoding it; one
        that draws its screenshot draws it for this write only, so a trace of
        full-resolution screens is never all in memory at once."""
        if self.screenshot_path is not None and not self._given_pixels and self.screenshot_path.suffix == ".png":
            try:
                shutil.copyfile(self.screenshot_path, path)
                return
            except OSError as exc:
                raise FormatError(self.screenshot_path, f"cannot copy screenshot ({exc.strerror or exc})") from exc
        Path(path).write_bytes(encode_png(self._pixels(), compress_level))

    def _pixels(self) -> np.ndarray:
        """The screenshot's RGB pixels, without keeping them."""
        if self._image is None and self._array is not None and self._array.ndim == 3:
            return np.asarray(self._array[..., :3], dtype=np.uint8)
        image = self._picture()
        return np.asarray(image if image.mode == "RGB" else image.convert("RGB"))

    @property
    def screen_size(self) -> tuple[int, int]:
        """(width, height) of the device screen in hierarchy pixels: as recorded (e.g.
        with the action), else the screenshot's, else the hierarchy's extent."""
        if self._screen_size is not None:
            return self._screen_size
        if self._image is not None or self._array is not None:
            return self.image.size
        if self.screenshot_path is not None:  # read the header only, not the pixels
            with _open_image(self.screenshot_path) as img:
                return img.size
        b = self.hierarchy.screen_bounds
        return (b.right, b.bottom)


class _EncodedScreenshot:
    """A screenshot kept as PNG: what a pickled state holds instead of its pixels."""

    def __init__(self, pixels: np.ndarray):
        self.png = encode_png(pixels, compress_level=1)

    def __call__(self) -> Image.Image:
        with Image.open(io.BytesIO(self.png)) as image:
            return image.convert("RGB")


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(pixels: np.ndarray, compress_level: int = 6) -> bytes:
    """An RGB uint8 (H, W, 3) array as an 8-bit RGB PNG, every row unfiltered.

    Pillow picks one of PNG's five row filters per row by trying them all, which is most
    of its time on a phone screen (~45 ms of ~65 at zlib level 1 for 1080x2400). Screens
    are runs of flat colour and text, which deflate as well without a filter: the same
    size in less than half the time (~27 ms and ~128 KB at level 1; ~66 ms and ~89 KB at
    level 6, where Pillow takes ~97 ms for ~102 KB). Any PNG reader reads it."""
    if isinstance(compress_level, bool) or compress_level not in range(10):
        raise ConfigError(f"compress_level must be a zlib level from 0 to 9; got {compress_level!r}")
    pixels = np.asarray(pixels)
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 3 or 0 in pixels.shape:
        raise ConfigError(f"expected an RGB image as a uint8 (H, W, 3) array; got {pixels.dtype} {pixels.shape}")
    height, width, _ = pixels.shape
    rows = np.zeros((height, 1 + 3 * width), dtype=np.uint8)  # each row: filter type 0, then its pixels
    rows[:, 1:] = pixels.reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour, no interlace
    return (_PNG_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, compress_level))
            + _chunk(b"IEND", b""))


#: What decoding a corrupt image can raise (Pillow's UnidentifiedImageError is an
#: OSError; a bomb warning is an exception where warnings are errors).
_DECODE_ERRORS = (
    OSError, SyntaxError, ValueError, EOFError, struct.error, zlib.error,
    Image.DecompressionBombError, Image.DecompressionBombWarning,
)


@contextmanager
def _open_image(path: Path) -> Iterator[Image.Image]:
    """A screenshot opened (header read, pixels not yet decoded): a PNG or JPEG file
    within the byte and pixel limits, else a FormatError naming it."""
    with open_regular(path, "screenshot", MAX_IMAGE_BYTES) as f:
        try:
            img = Image.open(f, formats=("PNG", "JPEG"))
        except _DECODE_ERRORS as exc:
            raise FormatError(path, f"screenshot is not a readable PNG or JPEG image ({exc})") from exc
        with img:
            width, height = img.size
            if width * height > MAX_IMAGE_PIXELS:
                raise FormatError(
                    path, f"screenshot claims {width}x{height} pixels; the limit is {MAX_IMAGE_PIXELS:,} pixels"
                )
            yield img


def _load_image(path: Path) -> Image.Image:
    with _open_image(path) as img:
        try:
            img.load()
            return img.convert("RGB")
        except _DECODE_ERRORS as exc:
            raise FormatError(path, f"screenshot is not a readable image ({exc})") from exc


@dataclass
class Trace:
    """The states of one episode in order; `installed_packages` is the record taken at
    episode end (AgentEnv keeps one per trace, not per step)."""

    states: list[UIState]
    episode: str | None = None
    instruction: str | None = None
    installed_packages: frozenset[str] | None = None
    source: Path | None = field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.states)

    def __iter__(self) -> Iterator[UIState]:
        return iter(self.states)

    def __getitem__(self, i: int) -> UIState:
        return self.states[i]

    @property
    def actions(self) -> list[Action | None]:
        return [s.action for s in self.states]

    def installed_at(self, step: int) -> frozenset[str] | None:
        """Installed packages at a step: its own record, else the trace's final one."""
        own = self.states[step].installed_packages
        return own if own is not None else self.installed_packages

    @classmethod
    def from_states(cls, states: Sequence[UIState], **kwargs) -> Trace:
        states = list(states)
        for i, s in enumerate(states):
            s.index = i
        return cls(states=states, **kwargs)
