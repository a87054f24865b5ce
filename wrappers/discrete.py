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

from mobile_gym.actions import KEY_ACTIONS, Action, ActionType, _shown
from mobile_gym.errors import ConfigError, InvalidActionError
from mobile_gym.ui.elements import Element, main_list, scroll_action


def _scroll(elements: Sequence[Element], screen: tuple[int, int] | None, *, down: bool) -> Action:
    target = main_list(list(elements), screen) if screen else None
    return scroll_action(target, "down" if down else "up", screen or (1, 1))


#: Each extra by name: the action it sends given the screen's elements and its size in
#: pixels (no elements and None when the caller does not read the screen, as `GridTaps`).
EXTRA_ACTIONS: dict[str, Callable[[Sequence[Element], tuple[int, int] | None], Action]] = {
    "back": lambda *_: KEY_ACTIONS["back"],
    "home": lambda *_: KEY_ACTIONS["home"],
    "enter": lambda *_: KEY_ACTIONS["enter"],
    "scroll_down": lambda elements, screen: _scroll(elements, screen, down=True),
    "scroll_up": lambda elements, screen: _scroll(elements, screen, down=False),
    "complete": lambda *_: KEY_ACTIONS["complete"],
    "impossible": lambda *_: KEY_ACTIONS["impossible"],
    "wait": lambda *_: Action.wait(),  # an env made with actions="all" has it
}

#: The extras a preset has unless told otherwise. IMPOSSIBLE is left out: no simulator
#: task is infeasible, and a policy that learns to give up early would end episodes.
DEFAULT_EXTRAS = ("back", "home", "enter", "scroll_down", "scroll_up", "complete")


def default_extras(env: Any) -> tuple[str, ...]:
    """`DEFAULT_EXTRAS`, and ``wait`` when the env offers AndroidWorld's verbs
    (``gym.make(..., actions="all")``): a loading screen settles by waiting."""
    return DEFAULT_EXTRAS + (("wait",) if offers_all(env) else ())


def offers_all(env: Any) -> bool:
    """Whether the env was made with ``actions="all"`` (long press, wait, ... in its space)."""
    return getattr(env.unwrapped, "actions", "basic") == "all"


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
