"""A trace step's thumbnail: the small JPEG of its screen that ``report.html`` shows.

The worker that saves a trace writes them beside it (`write_thumbnails`), from the screens
the env observed, so that the report reads small files instead of decoding thousands of
device-resolution screenshots; the report makes them itself for a trace without them.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Iterable

from PIL import Image

THUMB_WIDTH = 135  # px; a 1080x2400 screenshot (or 270x600 observation) becomes 135x300, about 5 KB as JPEG
JPEG_QUALITY = 70
#: Beside a trace's captured_data (where no AgentEnv or LlamaTouch reader looks): step i's thumbnail as i.jpg.
THUMBNAILS_DIR = "thumbnails"


def thumbnail_jpeg(image: Image.Image) -> bytes:
    """A JPEG thumbnail THUMB_WIDTH wide (never enlarged). A device-resolution screenshot
    is first reduced by a whole factor (``reducing_gap``): four times faster than Lanczos
    over all its pixels, and the same picture at 135 px."""
    width = min(THUMB_WIDTH, image.width)
    height = max(1, round(image.height * width / image.width))
    small = image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
    buf = io.BytesIO()
    small.save(buf, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return buf.getvalue()


def write_thumbnails(episode_dir: str | Path, pictures: Iterable[Image.Image]) -> None:
    """Write each step's thumbnail beside a trace (``<episode_dir>/thumbnails/i.jpg``), for
    the report to read instead of decoding the screenshots; ``pictures``: the trace's
    screens in order, at any size."""
    folder = Path(episode_dir) / THUMBNAILS_DIR
    folder.mkdir()
    for i, picture in enumerate(pictures):
        (folder / f"{i}.jpg").write_bytes(thumbnail_jpeg(picture))
