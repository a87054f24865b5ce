"""What text the simulated phone holds: what typing puts in a field, what a dump carries.

Text reaches the phone from agents (TYPE actions) and from URLs (a query string decodes
to anything); both must leave every dump valid XML and inside the observation space
(`mobile_gym.spaces.TEXT_RANGES`: printable Unicode, tab and line feed).
"""

from __future__ import annotations

import re

from mobile_gym.spaces import char_class

#: The most characters a text field holds, as a field with ``android:maxLength`` does
#: (Google's search box takes 2,048): later keystrokes are dropped, so however long an
#: episode types, a screen's text and its dump stay small.
MAX_FIELD_LENGTH = 2048

_OUTSIDE = re.compile(f"[^{char_class()}]")


def typed(text: str) -> str:
    """What typing ``text`` puts in a single-line field (every field of the simulator).

    A line feed becomes a space: Android's single-line EditText shows it as one
    (``SingleLineTransformationMethod``) and its dump reports the text as shown, so the
    field holds what the agent sees and what ENTER submits. A tab stays, as on Android.
    Control characters (NUL, CR, DEL, C1) and non-characters (U+FFFE, U+FFFF) have no
    key on a keyboard: they are dropped. Emoji and other astral characters are text.
    """
    return _OUTSIDE.sub("", text.replace("\n", " "))


def dumpable(text: str) -> str:
    """``text`` with every character a dump cannot carry replaced by ".", as
    uiautomator's dumper does (a page may show a NUL decoded from a URL's ``%00``)."""
    if text.isascii() and text.isprintable():  # most texts: nothing to replace, found fast
        return text
    return _OUTSIDE.sub(".", text)
