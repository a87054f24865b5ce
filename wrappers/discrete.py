"""What the discrete action presets share: the screen-independent actions that follow
their taps, and the check of a chosen index.

`DiscreteElementActions` and `GridTaps` both end their ``Discrete`` space with the
extras, by name, so "back" means the same in every preset. Scrolling swipes over a third of the
list under the screen's centre (the largest visible scrollable element when none is
there; the centre of the screen when the screen has none), so it moves content rather
than a bar or a sheet.
"""

from __future__ import annotations

import numbers
from typing import Any, Callable, Sequence

import numpy as np

from mobile_gym.actions import Action, ActionType, _shown
from mobile_gym.errors import ConfigError, InvalidActionError
from mobile_gym.ui.elements import Element

#: A third of the scrolled area's height: the golden paths' own scroll distance.
SCROLL_FRACTION = 1 / 3


def _scroll(elements: Sequence[Element], screen: tuple[int, int] | None, *, down: bool) -> Action:
    """Move the content so more of what is below (``down``) or above comes into view:
    the finger goes up to scroll down."""
    x, y, span = 0.5, 0.5, SCROLL_FRACTION
    lists = [e for e in elements if e.scrollable]
    if lists and screen:
        w, h = screen
        under = [e for e in lists if e.visible.contains(w / 2, h / 2)]
        target = under[0] if under else max(lists, key=lambda e: e.visible.area)
        (x, y), span = target.point, target.visible.height / h * SCROLL_FRACTION
    top, bottom = max(0.0, y - span / 2), min(1.0, y + span / 2)
    return Action.swipe(x, bottom, x, top) if down else Action.swipe(x, top, x, bottom)


_KEYS = {"back": Action.back(), "home": Action.home(), "enter": Action.enter(), "complete": Action.complete(),
         "impossible": Action.impossible()}  # actions are immutable: one of each serves every screen

#: Each extra by name: the action it sends given the screen's elements and its size in
#: pixels (no elements and None when the caller does not read the screen, as `GridTaps`).
EXTRA_ACTIONS: dict[str, Callable[[Sequence[Element], tuple[int, int] | None], Action]] = {
    "back": lambda *_: _KEYS["back"],
    "home": lambda *_: _KEYS["home"],
    "enter": lambda *_: _KEYS["enter"],
    "scroll_down": lambda elements, screen: _scroll(elements, screen, down=True),
    "scroll_up": lambda elements, screen: _scroll(elements, screen, down=False),
    "complete": lambda *_: _KEYS["complete"],
    "impossible": lambda *_: _KEYS["impossible"],
}

#: The extras a preset has unless told otherwise. IMPOSSIBLE is left out: no simulator
#: task is infeasible, and a policy that learns to give up early would end episodes.
DEFAULT_EXTRAS = ("back", "home", "enter", "scroll_down", "scroll_up", "complete")


def check_extras(extras: Sequence[str]) -> tuple[str, ...]:
    extras = tuple(extras)
    unknown = [e for e in extras if e not in EXTRA_ACTIONS]
    if unknown or len(set(extras)) != len(extras):
        raise ConfigError(f"extras must be distinct names among {', '.join(EXTRA_ACTIONS)}; got {list(extras)}")
    return extras


def extra_for(action: Action) -> str | None:
    """The extra that does what a key or a swipe does: BACK, HOME, ENTER, COMPLETE and
    IMPOSSIBLE by name, a mostly vertical swipe as scroll_down (finger moving up) or
    scroll_up, whatever its length; None for taps, TYPE and sideways swipes."""
    kind = action.action_type
    if action.is_tap or kind is ActionType.TYPE:
        return None
    if kind is ActionType.SWIPE:
        (x1, y1), (x2, y2) = action.touch, action.lift  # type: ignore[misc]
        if abs(y2 - y1) <= abs(x2 - x1):
            return None  # no extra moves a list sideways
        return "scroll_down" if y2 < y1 else "scroll_up"
    return kind.name.lower()


def slot_index(action: Any, n: int, space: str) -> int:
    """``action`` as an index of ``Discrete(n)``: an integer (Python, numpy, or a 0-d
    integer array) in range; anything else is an `InvalidActionError`, raised before
    the env is touched."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, numbers.Integral) and not isinstance(action, (bool, np.bool_)) and 0 <= action < n:
        return int(action)
    raise InvalidActionError(f"a {space} action is an integer from 0 to {n - 1}, got {_shown(action)}")
