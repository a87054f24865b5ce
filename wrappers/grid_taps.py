"""`GridTaps`: a ``Discrete`` action space for policies that see only pixels.

A pixel policy has no element list to choose from, so it chooses where to tap: the
screen is cut into ``rows`` x ``cols`` cells and action ``r * cols + c`` taps the centre
of cell (r, c). The screen-independent extras (`wrappers.discrete`: back, home,
scrolling, ...) follow, in order; they are sent without reading the screen, so scrolling
swipes over a third of the screen at its centre. Every action is a fixed `Action`,
worked out once.

`GridTaps.index_of` goes the other way, turning a raw action (an oracle's, a person's)
into the index that does the same on the current screen, for demonstrations.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mobile_gym.actions import Action, _shown
from mobile_gym.errors import InvalidActionError, whole_number
from mobile_gym.ui.hierarchy import ViewHierarchy
from mobile_gym.wrappers.discrete import EXTRA_ACTIONS, check_extras, default_extras, extra_for, slot_index

#: Most rows or columns: 256 rows on a 2,400-pixel screen are cells of 9 pixels, finer
#: than any widget.
MAX_GRID_SIDE = 256


class GridTaps(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Act with ``Discrete(rows * cols + len(extras))``: index ``r * cols + c`` taps the
    centre of grid cell (r, c) (row 0 at the top), the rest are ``extras`` in order.
    Anything but an integer in range (Python, numpy, or a 0-d integer array) is an
    `InvalidActionError`, raised before the env is touched.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.actions import Action
    >>> from mobile_gym.wrappers import GridTaps
    >>> env = GridTaps(gym.make("LlamaTouch/settings-open-v0"), rows=8, cols=4)
    >>> env.action_space, env.action_names()[9], env.action_names()[32:]
    (Discrete(38), 'tap r2c1', ['back', 'home', 'enter', 'scroll_down', 'scroll_up', 'complete'])
    >>> obs, info = env.reset(seed=0)
    >>> settings = next(e for e in env.unwrapped.elements if e.label == "Settings")
    >>> env.index_of(Action.click(*settings.point))   # the cell whose centre is on the icon
    9
    >>> obs, reward, terminated, truncated, info = env.step(9)
    >>> reward, terminated, info["activity"]
    (1.0, True, 'com.android.settings/com.android.settings.Settings')
    """

    def __init__(self, env: gym.Env, rows: int = 8, cols: int = 4, extras: Sequence[str] | None = None):
        """``extras`` default to `mobile_gym.wrappers.discrete.default_extras` of the env."""
        rows, cols = whole_number("rows", rows, 1, MAX_GRID_SIDE), whole_number("cols", cols, 1, MAX_GRID_SIDE)
        extras = check_extras(default_extras(env) if extras is None else extras)
        gym.utils.RecordConstructorArgs.__init__(self, rows=rows, cols=cols, extras=extras)
        gym.ActionWrapper.__init__(self, env)
        self.rows, self.cols, self.extras = rows, cols, extras
        self._actions = tuple(Action.click((c + 0.5) / cols, (r + 0.5) / rows)
                              for r in range(rows) for c in range(cols)
                              ) + tuple(EXTRA_ACTIONS[name]([], None) for name in extras)
        self.action_space = spaces.Discrete(len(self._actions))

    def action(self, action: Any) -> Action:
        return self._actions[self._index(action)]

    def action_masks(self) -> np.ndarray:
        """Every index is always allowed (so sb3-contrib's `MaskablePPO` runs on either preset)."""
        return np.ones(len(self._actions), dtype=bool)

    def action_names(self) -> list[str]:
        """A readable name per index, for logs: ``tap r2c1`` (row 2, column 1), then the extras."""
        return [f"tap r{r}c{c}" for r in range(self.rows) for c in range(self.cols)] + list(self.extras)

    def index_of(self, action: Action) -> int | None:
        """The index that does what ``action`` does on the current screen, or None when
        none does: a tap (or a swipe short enough to be one) maps to the cell containing
        its point if a tap on the cell's centre reaches the same element (or the same
        window, on nothing clickable); BACK, HOME, ENTER, COMPLETE and IMPOSSIBLE to
        their extra; a vertical swipe to scroll_down (finger moving up) or scroll_up,
        whatever its length; TYPE and sideways swipes to None, as do extras not in
        this space."""
        if not isinstance(action, Action):
            raise InvalidActionError(f"index_of takes an Action, got {_shown(action)}")
        if action.is_tap:
            x, y = action.touch  # type: ignore[misc]
            r, c = min(int(y * self.rows), self.rows - 1), min(int(x * self.cols), self.cols - 1)
            index = r * self.cols + c
            hierarchy = self.env.unwrapped.hierarchy
            centre = self._actions[index].touch
            return index if _tap_target(hierarchy, x, y) is _tap_target(hierarchy, *centre) else None
        name = extra_for(action)
        return self.rows * self.cols + self.extras.index(name) if name in self.extras else None

    def _index(self, action: Any) -> int:
        return slot_index(action, len(self._actions), "GridTaps")


def _tap_target(hierarchy: ViewHierarchy, x: float, y: float) -> Any:
    """What a tap at normalised (x, y) reaches: its clickable node, else the topmost
    window there (a tap outside a dialog cancels it), else None."""
    screen = hierarchy.screen_bounds
    px, py = x * screen.right, y * screen.bottom
    target = hierarchy.clickable_at(px, py)
    if target is None:
        target = next((root for root in reversed(hierarchy.roots) if root.bounds.contains(px, py)), None)
    return target
