"""Screenshot patch comparison for components without text (icons, switches, images).

A patch is summarised by a 64-bit perceptual hash (DCT of a 32x32 grey thumbnail,
low 8x8 frequencies against their median) plus a 16x16 colour thumbnail. The hash
tolerates scaling and compression; the colour check catches what a grey hash misses
(a switch thumb turning blue, an icon recoloured). Patches are compared where the
*matched node* is on each screen, so a component that moved still matches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

from mobile_gym.ui.hierarchy import Bounds

_SIZE = 32
_k = np.arange(_SIZE)
_DCT = np.cos(np.pi * (2 * _k[None, :] + 1) * _k[:, None] / (2 * _SIZE))


@dataclass(frozen=True)
class PatchSignature:
    bits: np.ndarray  # 64 booleans
    colour: np.ndarray  # (16, 16, 3) float


@dataclass(frozen=True)
class PatchComparison:
    matched: bool
    hash_distance: int
    colour_distance: float

    def __str__(self) -> str:
        return f"hash distance {self.hash_distance}, colour distance {self.colour_distance:.1f}"


def patch_signature(image: Image.Image, bounds: Bounds,
                    screen_size: tuple[int, int] | None = None) -> PatchSignature | None:
    """The signature of the patch under `bounds` (clipped to the image); None when the
    patch is empty. Bounds are in the pixels of `screen_size` (default: the image's), so
    a screenshot smaller than the screen (a trace that kept observation-size pictures)
    is cropped where the component is drawn."""
    w, h = image.size
    sx, sy = (w / screen_size[0], h / screen_size[1]) if screen_size else (1.0, 1.0)
    box = (max(0, round(bounds.left * sx)), max(0, round(bounds.top * sy)),
           min(w, round(bounds.right * sx)), min(h, round(bounds.bottom * sy)))
    if box[2] - box[0] < 1 or box[3] - box[1] < 1:
        return None
    patch = image.crop(box)
    grey = np.asarray(patch.convert("L").resize((_SIZE, _SIZE), Image.LANCZOS), dtype=np.float64)
    low = (_DCT @ grey @ _DCT.T)[:8, :8].ravel()
    bits = low > np.median(low[1:])
    colour = np.asarray(patch.convert("RGB").resize((16, 16), Image.BOX), dtype=np.float64)
    return PatchSignature(bits, colour)


def compare_patches(
    a: PatchSignature | None,
    b: PatchSignature | None,
    *,
    max_hash_distance: int,
    max_colour_distance: float,
) -> PatchComparison:
    if a is None or b is None:
        return PatchComparison(False, 64, 255.0)
    hash_distance = int(np.count_nonzero(a.bits != b.bits))
    colour_distance = float(np.abs(a.colour - b.colour).mean())
    matched = hash_distance <= max_hash_distance and colour_distance <= max_colour_distance
    return PatchComparison(matched, hash_distance, colour_distance)
