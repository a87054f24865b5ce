"""The text a model is shown each step, in one wording for `TextObservation` and
`LLMAgent`: the task, the previous actions with what came of each, the last reply that
could not be used and why, and the screen. A reply can hold any character; the text
holds only those of `mobile_gym.spaces.TEXT_RANGES` (others are spelled as escapes), so
it stays in `TextObservation`'s space and encodes as UTF-8 in a request."""

from __future__ import annotations

import base64
import io
import re
from typing import Sequence

import numpy as np
from PIL import Image

from mobile_gym.actions import _shown
from mobile_gym.spaces import TEXT_RANGES, char_class

_OUTSIDE = re.compile(f"[^{char_class(TEXT_RANGES)}]")


def step_text(instruction: str, past: Sequence[str], keep: int, screen: str, activity: str | None,
              error: str | None = None) -> str:
    """The user's text for one step; ``past`` holds `outcome` lines, the last ``keep`` shown."""
    lines = [f"Task: {instruction}"]
    shown = list(past[-keep:]) if keep else []
    if shown:
        first = len(past) - len(shown) + 1
        lines.append("Previous actions:")
        lines += [f"{first + i}. {entry}" for i, entry in enumerate(shown)]
    if error:
        lines.append(f"Your last reply could not be used: {error}")
    lines.append(f"Current screen ({activity or '?'}):")
    lines.append(screen or "(nothing on screen)")
    return _OUTSIDE.sub(_escaped, "\n".join(lines))


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match[0]):04x}"


def outcome(said: str, error: str | None, changed: bool, activity: str | None) -> str:
    """One line of the history: what was done (or why not) and what came of it."""
    if error:
        return f"{said} - not done: {error}"
    return f"{said} - " + (f"the screen changed ({activity or '?'})" if changed else "nothing changed on screen")


def said(reply: object) -> str:
    """How an unusable reply is named in the history: its last non-empty line, cut short."""
    text = reply if isinstance(reply, str) else _shown(reply, 200)
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return (lines[-1] if lines else "(empty reply)")[:80]


def png_base64(screenshot: np.ndarray) -> str:
    """A screenshot as base64 PNG, for vision models."""
    buffer = io.BytesIO()
    Image.fromarray(screenshot).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")
