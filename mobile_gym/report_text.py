"""Text made safe to write and print, for every report writer of the project.

An agent's error message, a file name or a corrupt file's content can hold anything:
lone surrogates (a file name's undecodable bytes; no UTF-8 file or terminal accepts
them), NUL and other control characters (which break CSV readers, HTML and terminals)
and megabytes of text. Records keep a message as raised, cut to `MAX_MESSAGE`
characters; every writer and printer passes text through `printable` on its way out.
"""

from __future__ import annotations

import re
from typing import Any

MAX_MESSAGE = 2000  # characters of an error message kept in a record

_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    char = match[0]
    return f"\\u{ord(char):04x}" if "\ud800" <= char <= "\udfff" else f"\\x{ord(char):02x}"


def printable(text: Any) -> str:
    """``str(text)`` with lone surrogates and control characters other than tab and line
    feed spelled as backslash escapes (``\\udce9``, ``\\x00``, ``\\x1b``): nothing is lost,
    and the result encodes as UTF-8 and prints harmlessly.

    >>> printable("caf\\udce9\\x00\\x1b[2J\\tok")
    'caf\\\\udce9\\\\x00\\\\x1b[2J\\tok'
    """
    return _UNPRINTABLE.sub(_escape, str(text))


def clipped(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"
