"""The run's charts, drawn with Pillow (no plotting dependency): completion rate by app
and by difficulty (errors count as failures), and the distribution of progress, with
errors in a bar of their own. Each is written as a PNG and shown in report.html.

Bars are horizontal, one row per group with its label in full on the left: the chart
grows a row per group, so the full suite's 25 apps read as well as three difficulties
(vertical bars would share 580 px among 25 labels and overlap them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from mobile_gym.report_text import printable

WIDTH, HEIGHT = 640, 360  # the other charts' size (learning curves, memory): bar charts take WIDTH and grow
MARGIN = (60, 40, 20, 70)  # left, top, right, bottom
BAR = (26, 115, 232)
INK = (40, 40, 48)
GRID = (225, 225, 230)
ROW = 22  # px a bar takes, label included
MAX_LABEL = 200  # px of the label column at most; a longer label is cut with an ellipsis
VALUE_ROOM = 48  # px right of the longest bar for its value


def _fit(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` as it fits ``width`` pixels: whole, or cut with an ellipsis."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def bar_chart(title: str, labels: list[str], values: list[float], *, top: float = 1.0,
              value_format: str = "{:.0%}") -> Image.Image:
    """One horizontal bar per label for ``values`` (0..top), the label left of it and the
    value at its end; WIDTH wide and ROW px taller for each bar."""
    font, small = ImageFont.load_default(size=16), ImageFont.load_default(size=12)
    names = [_fit(printable(label), small, MAX_LABEL) for label in labels]
    left = max(MARGIN[0], 12 + max((small.getlength(n) for n in names), default=0))
    right, upper = WIDTH - MARGIN[2] - VALUE_ROOM, MARGIN[1]
    lower = upper + ROW * max(len(values), 1)
    img = Image.new("RGB", (WIDTH, lower + 28), "white")
    d = ImageDraw.Draw(img)
    d.text((10, 10), title, fill=INK, font=font)
    for frac in (0.0, 0.5, 1.0):
        x = left + (right - left) * frac
        d.line([(x, upper), (x, lower + 4)], fill=GRID if frac else INK)
        d.text((x, lower + 8), value_format.format(top * frac), fill=INK, font=small, anchor="ma")
    for i, (name, value) in enumerate(zip(names, values)):
        y0, y1 = upper + i * ROW + 4, upper + (i + 1) * ROW - 4
        x = left + (right - left) * (min(max(value, 0.0), top) / top if top else 0)
        if x > left:  # a zero has no bar
            d.rectangle((left, y0, x, y1), fill=BAR)
        middle = (y0 + y1) / 2
        d.text((left - 6, middle), name, fill=INK, font=small, anchor="rm")
        d.text((x + 5, middle), value_format.format(value), fill=INK, font=small, anchor="lm")
    return img


def charts(summary: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Image.Image]:
    """The run's charts by file name: ``completion_by_app.png``,
    ``completion_by_difficulty.png`` and ``progress.png``."""
    out = {}
    for key in ("app", "difficulty"):
        groups = summary[f"by_{key}"]
        labels = list(groups)
        out[f"completion_by_{key}.png"] = bar_chart(f"Completion rate by {key}", labels,
                                                    [groups[g]["success_rate"] or 0.0 for g in labels])
    bins = ["0", "(0, .25]", "(.25, .5]", "(.5, .75]", "(.75, 1)", "1", "error"]
    counts = [0] * len(bins)
    for r in records:
        p = r["progress"]
        i = 6 if r.get("error") is not None else 0 if p <= 0 else 5 if p >= 1 else 1 + min(3, int((p - 1e-9) // 0.25))
        counts[i] += 1
    out["progress.png"] = bar_chart("Episodes by progress (fraction of checkpoints matched)", bins, counts,
                                    top=float(max(counts + [1])), value_format="{:.0f}")
    return out


def write_plots(out: str | Path, summary: dict[str, Any], records: list[dict[str, Any]]) -> list[Path]:
    """Save `charts` in ``out``; returns their paths."""
    paths = []
    for name, image in charts(summary, records).items():
        paths.append(Path(out) / name)
        image.save(paths[-1])
    return paths
