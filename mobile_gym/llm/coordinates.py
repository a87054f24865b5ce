"""The frame a model's points are in, made explicit: a reply's ``tap(540, 1200)`` means
nothing until it is known whether 540 is a pixel of the phone, a pixel of the smaller
screenshot the model was shown, or a step of the 0-1000 grid Qwen-VL and UI-TARS are
trained on. An `Action`'s points are fractions of the screen; `CoordinateFrame.to_fraction`
is the one conversion, and a point outside the frame is an error that names the frame and
its size (never clamped: a point past the edge means the model is in another frame, and
tapping the nearest edge would hide that).

- ``device``: pixels of the device's screen (AndroidWorld, AndroidControl);
- ``screenshot``: pixels of the screenshot the model was shown (Qwen2.5-VL, Claude's
  computer use), whose size differs from the device's;
- ``fraction``: fractions of the screen's width and height, 0 to 1 (AITW);
- ``permille``: the 0-1000 grid (Qwen3-VL, UI-TARS).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mobile_gym.errors import ConfigError, ReplyError

#: The frames a reply's points may be in.
COORDINATES = ("device", "screenshot", "fraction", "permille")

_SIZES = {"fraction": (1.0, 1.0), "permille": (1000.0, 1000.0)}


@dataclass(frozen=True)
class CoordinateFrame:
    """A frame of points: its name (one of `COORDINATES`) and its (width, height)."""

    name: str
    size: tuple[float, float]

    def to_fraction(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) of this frame as fractions of the screen; a `ReplyError` naming the frame
        and its size when the point is outside [0, width] × [0, height] (or no number)."""
        w, h = self.size
        try:
            fx, fy = float(x) / w, float(y) / h
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            fx = fy = math.nan
        if not (0.0 <= fx <= 1.0 and 0.0 <= fy <= 1.0):  # nan fails both
            raise ReplyError(f"point ({_number(x)}, {_number(y)}) is outside {self.describe()}")
        return fx, fy

    def describe(self) -> str:
        """The frame in words, with its size (``the device screen (1080×2400 pixels)``)."""
        w, h = (_number(v) for v in self.size)
        if self.name == "device":
            return f"the device screen ({w}×{h} pixels)"
        if self.name == "screenshot":
            return f"the screenshot ({w}×{h} pixels)"
        if self.name == "permille":
            return "the 0-1000 grid (1000×1000)"
        return "the screen in fractions (0 to 1)"


def coordinate_frame(name: str, device_size: tuple[float, float],
                     screenshot_size: tuple[float, float] | None = None) -> CoordinateFrame:
    """The frame called ``name``: ``device`` is ``device_size`` (width, height) in pixels,
    ``screenshot`` is ``screenshot_size`` (required for it); a `ConfigError` otherwise."""
    if name not in COORDINATES:
        raise ConfigError(f"coordinates must be one of {', '.join(COORDINATES)}; got {name!r}")
    if name in _SIZES:
        return CoordinateFrame(name, _SIZES[name])
    size = device_size if name == "device" else screenshot_size
    if size is None:
        raise ConfigError("coordinates='screenshot' needs the size of the screenshot the model is shown")
    try:
        w, h = (float(v) for v in size)
    except (TypeError, ValueError):
        raise ConfigError(f"a {name} size is (width, height), got {size!r}") from None
    if not (0 < w < math.inf and 0 < h < math.inf):
        raise ConfigError(f"a {name} size is two positive numbers, got {size!r}")
    return CoordinateFrame(name, (w, h))


def _number(v: object) -> str:
    """A coordinate as a reply would write it: 1080, not 1080.0; 0.42 as 0.42."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)[:40]
