"""The run's charts as PNGs, drawn with Pillow (no plotting dependency): completion
rate by app and by difficulty (errors count as failures), and the distribution of
progress, with errors in a bar of their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from mobile_gym.report_text import printable

WIDTH, HEIGHT = 640, 360
MARGIN = (60, 40, 20, 70)  # left, top, right, bottom
BAR = (26, 115, 232)
INK = (40, 40, 48)


def bar_chart(title: str, labels: list[str], values: list[float], *, top: float = 1.0,
              value_format: str = "{:.0%}") -> Image.Image:
    """Vertical bars of ``values`` (0..top) with their labels below and values above."""
    img = Image.new("RGB", (WIDTH, HEIGHT), "white")
    d = ImageDraw.Draw(img)
    font, small = ImageFont.load_default(size=16), ImageFont.load_default(size=11)
    left, upper, right, lower = MARGIN[0], MARGIN[1], WIDTH - MARGIN[2], HEIGHT - MARGIN[3]
    d.text((left, 10), title, fill=INK, font=font)
    d.line([(left, upper), (left, lower), (right, lower)], fill=INK)
    for frac in (0.5, 1.0):
        y = lower - (lower - upper) * frac
        d.line([(left - 4, y), (right, y)], fill=(225, 225, 230))
        d.text((6, y - 7), value_format.format(top * frac), fill=INK, font=small)
    n = max(len(values), 1)
    slot = (right - left) / n
    for i, (label, value) in enumerate(zip(labels, values)):
        x0 = left + i * slot + slot * 0.15
        x1 = left + (i + 1) * slot - slot * 0.15
        y = lower - (lower - upper) * (min(max(value, 0.0), top) / top if top else 0)
        d.rectangle((x0, y, x1, lower), fill=BAR)
        d.text((x0, y - 14), value_format.format(value), fill=INK, font=small)
        d.text((x0, lower + 6), printable(label)[:14], fill=INK, font=small)
    return img


def write_plots(out: str | Path, summary: dict[str, Any], records: list[dict[str, Any]]) -> list[Path]:
    """``completion_by_app.png``, ``completion_by_difficulty.png`` and ``progress.png``."""
    out = Path(out)
    paths = []
    for key, name in (("app", "completion_by_app.png"), ("difficulty", "completion_by_difficulty.png")):
        groups = summary[f"by_{key}"]
        labels = list(groups)
        values = [groups[g]["success_rate"] or 0.0 for g in labels]
        paths.append(out / name)
        bar_chart(f"Completion rate by {key}", labels, values).save(paths[-1])
    bins = ["0", "(0, .25]", "(.25, .5]", "(.5, .75]", "(.75, 1)", "1", "error"]
    counts = [0] * len(bins)
    for r in records:
        p = r["progress"]
        i = 6 if r.get("error") is not None else 0 if p <= 0 else 5 if p >= 1 else 1 + min(3, int((p - 1e-9) // 0.25))
        counts[i] += 1
    paths.append(out / "progress.png")
    bar_chart("Episodes by progress (fraction of checkpoints matched)", bins, counts,
              top=float(max(counts + [1])), value_format="{:.0f}").save(paths[-1])
    return paths
