"""`DiscreteElementActions`: the action space a policy learns in — tap the k-th element of
the screen, a few extras, or type a phrase — with a mask of what the screen allows.

Coordinates are a poor action space for learning: almost every point does nothing, and
the same button moves between screens, profiles and seeds. An element slot is "the k-th
actionable element" (`mobile_gym.ui.elements`: the ids the LLM interfaces and the report
use), tapped at a point of it that shows. Slots are laid out as

    [0, K)            tap element k
    [K, K+E)          the extras: back, home, enter, scroll down/up, complete (by name)
    [K+E, K+E+V)      type phrase v into the focused field
    [K+E+V, 2K+E+V)   long press element k (with ``long_press``)

Phrases are spans of the instruction by default (words and short n-grams, quoted text
whole, as MiniWoB's typing actions), or the user's own list. A slot is masked when its
element or phrase does not exist or, for phrases, when no text field has focus:
`action_masks()` serves sb3-contrib's `MaskablePPO` and ``info["action_mask"]`` the rest.
A masked choice performs nothing — it sends an empty TYPE, so the step still counts
toward the step limit — and sets ``info["invalid_action"]``; it never raises.

Long presses and the ``wait`` extra are offered by default when the env offers them
(``gym.make(..., actions="all")``) and never otherwise, so a ``-v0`` env's space, and the
policies trained in it, are as they were.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

import gymnasium as gym
import numpy as np

from mobile_gym.actions import NO_OP, Action, ActionType
from mobile_gym.errors import ConfigError, InvalidActionError, whole_number
from mobile_gym.ui.elements import Element, focused_field
from mobile_gym.wrappers.discrete import (EXTRA_ACTIONS, check_extras, default_extras, extra_for, offers_all,
                                          slot_index)

#: Elements a screen may offer before the rest are dropped (the simulator's busiest
#: screens have about 35; the dropped ones are those of the lowest window).
MAX_ELEMENTS = 48
#: Phrase slots, and the longest instruction span offered as a phrase (in words).
MAX_PHRASES = 16
MAX_SPAN_WORDS = 3
#: Most element or phrase slots a space may be given (far above any screen).
MAX_SLOTS = 4096


_QUOTED = re.compile(r"[\"“”']([^\"“”']+)[\"“”']")
_WORD = re.compile(r"[\w@][\w@.\-:/]*[\w]|[\w@]", re.UNICODE)
#: Words too common to be worth typing on their own.
_STOPWORDS = frozenset(
    "a an and are as at be by for from go in into is it of on or the to up with".split())


def instruction_phrases(instruction: str, limit: int = MAX_PHRASES, max_words: int = MAX_SPAN_WORDS) -> list[str]:
    """Spans of an instruction a task may need typed: quoted text whole, then the words,
    then longer spans (two words, three, ...), each once, in reading order, up to ``limit``.

    >>> instruction_phrases('Search app "VLC for Android" in Google Play Store', limit=6)
    ['VLC for Android', 'Search', 'app', 'VLC', 'Android', 'Google']
    """
    words = _WORD.findall(instruction)
    spans = [m.group(1).strip() for m in _QUOTED.finditer(instruction)]
    spans += [w for w in words if w.lower() not in _STOPWORDS]
    for n in range(2, max_words + 1):
        spans += [" ".join(words[i:i + n]) for i in range(len(words) - n + 1)]
    return list(dict.fromkeys(s for s in spans if s))[:limit]


class DiscreteElementActions(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Actions as ``Discrete(max_elements + len(extras) + max_phrases)`` slots, masked.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.wrappers import DiscreteElementActions
    >>> env = DiscreteElementActions(gym.make("LlamaTouch/settings-open-v0"))
    >>> obs, info = env.reset(seed=0)
    >>> env.action_space
    Discrete(70)
    >>> [env.describe(i) for i in range(5)]
    ['tap 0 Gmail', 'tap 1 Photos', 'tap 2 YouTube', 'tap 3 Maps', 'tap 4 Clock']
    >>> env.describe(5)
    'tap 5 Settings'
    >>> obs, reward, terminated, truncated, info = env.step(5)
    >>> reward, terminated, info["activity"]
    (1.0, True, 'com.android.settings/com.android.settings.Settings')
    """

    def __init__(self, env: gym.Env, *, max_elements: int = MAX_ELEMENTS, extras: Sequence[str] | None = None,
                 phrases: Sequence[str] | None = None, max_phrases: int = MAX_PHRASES, long_press: bool | None = None):
        """``extras`` default to `default_extras` of the env, ``long_press`` (a slot per
        element) to whether the env offers long presses (``actions="all"``)."""
        gym.utils.RecordConstructorArgs.__init__(self, max_elements=max_elements, extras=extras, phrases=phrases,
                                                 max_phrases=max_phrases, long_press=long_press)
        gym.ActionWrapper.__init__(self, env)
        self.max_elements = whole_number("max_elements", max_elements, 0, MAX_SLOTS)
        self.extras = check_extras(default_extras(env) if extras is None else extras)
        if long_press is not None and not isinstance(long_press, bool):
            raise ConfigError(f"long_press must be True, False or None, got {long_press!r}")
        self.long_press = offers_all(env) if long_press is None else long_press
        self.max_phrases = whole_number("max_phrases", max_phrases, 0, MAX_SLOTS)
        if phrases is None:
            instruction = getattr(env.unwrapped, "task").instruction
            self.phrases = instruction_phrases(instruction, self.max_phrases)
        else:
            if isinstance(phrases, str) or not all(isinstance(p, str) and p for p in phrases):
                raise ConfigError("phrases must be a list of non-empty strings")
            if len(phrases) > self.max_phrases:
                raise ConfigError(f"{len(phrases)} phrases do not fit in max_phrases={self.max_phrases}")
            self.phrases = [Action.type_text(p).text for p in phrases]  # as the action would check them
        self._pressed = self.max_elements + len(self.extras) + self.max_phrases  # the first long-press slot
        self.action_space = gym.spaces.Discrete(self._pressed + (self.max_elements if self.long_press else 0))

    # ------------------------------------------------------------------ screen
    @property
    def elements(self) -> list[Element]:
        """The current screen's elements that have a slot."""
        return self.env.unwrapped.elements[:self.max_elements]  # type: ignore[attr-defined]

    def action_masks(self) -> np.ndarray:
        """Which slots do something on the current screen (sb3-contrib's hook)."""
        return self._slots()[0].copy()

    def _slots(self) -> tuple[np.ndarray, list[tuple[float, float]], list[Action]]:
        """The current screen's mask, its elements' tap points and the extras' actions,
        worked out once for screens with the same app windows."""
        hierarchy = self.env.unwrapped.hierarchy  # type: ignore[attr-defined]
        key = (__name__, self.max_elements, self.extras, len(self.phrases), self.max_phrases)
        slots = hierarchy.shared.get(key)
        if slots is None:
            elements = self.elements
            screen = hierarchy.screen_bounds
            extras = [EXTRA_ACTIONS[name](elements, (screen.right, screen.bottom)) for name in self.extras]
            slots = hierarchy.shared[key] = (self._mask(elements), [e.point for e in elements], extras)
        return slots

    def _mask(self, elements: list[Element]) -> np.ndarray:
        mask = np.zeros(self.action_space.n, dtype=bool)
        mask[:len(elements)] = True
        k = self.max_elements
        mask[k:k + len(self.extras)] = True
        if focused_field(elements) is not None:
            start = k + len(self.extras)
            mask[start:start + len(self.phrases)] = True
        if self.long_press:
            mask[self._pressed:self._pressed + len(elements)] = True
        return mask

    # ------------------------------------------------------------------ slots and actions
    def describe(self, index: int) -> str:
        """What a slot does on the current screen, for logs and debugging."""
        index = self._index(index)
        k, e = self.max_elements, len(self.extras)
        if index < k:
            elements = self.elements
            return f"tap {index} {elements[index].label}" if index < len(elements) else f"tap {index} (no element)"
        if index < k + e:
            return self.extras[index - k]
        if index >= self._pressed:
            elements, j = self.elements, index - self._pressed
            return f"long press {j} {elements[j].label}" if j < len(elements) else f"long press {j} (no element)"
        v = index - k - e
        return f"type {self.phrases[v]!r}" if v < len(self.phrases) else f"type {v} (no phrase)"

    def action(self, index: Any) -> Action:
        index = self._index(index)
        mask, points, extras = self._slots()
        if not mask[index]:
            return NO_OP
        k, e = self.max_elements, len(self.extras)
        if index < k:
            return Action.click(*points[index])
        if index < k + e:
            return extras[index - k]
        if index >= self._pressed:
            return Action.long_press(*points[index - self._pressed])
        return Action.type_text(self.phrases[index - k - e])

    def index_of(self, action: Action) -> int | None:
        """The slot that does what ``action`` does on the current screen (to express a
        raw agent's demonstrations in this space), or None when no slot does."""
        if not isinstance(action, Action):
            raise InvalidActionError(f"index_of takes an Action, got {type(action).__name__}")
        k, e = self.max_elements, len(self.extras)
        if action.is_tap:
            return self._element_at(action.touch)  # type: ignore[arg-type]
        if action.action_type is ActionType.LONG_PRESS:
            j = self._element_at(action.touch) if self.long_press else None  # type: ignore[arg-type]
            return None if j is None else self._pressed + j
        if action.action_type is ActionType.TYPE:
            return k + e + self.phrases.index(action.text) if action.text in self.phrases else None
        name = extra_for(action)
        return k + self.extras.index(name) if name in self.extras else None

    def _element_at(self, point: tuple[float, float]) -> int | None:
        """The innermost element whose visible part holds ``point``, whose own tap lands
        closest to where the raw tap did (a switch inside its row, not the row)."""
        screen = self.env.unwrapped.hierarchy.screen_bounds  # type: ignore[attr-defined]
        x, y = point[0] * screen.right, point[1] * screen.bottom
        inside = [e for e in self.elements if e.visible.contains(x, y)]
        # windows do not overlap in visible parts; within one, later nodes are children
        # of earlier ones or drawn over them
        return max(inside, key=lambda e: e.node.order).index if inside else None

    def _index(self, index: Any) -> int:
        return slot_index(index, int(self.action_space.n), "DiscreteElementActions")

    # ------------------------------------------------------------------ gym API
    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        info["action_mask"] = self.action_masks()
        return obs, info

    def step(self, action: Any):
        act = self.action(action)
        obs, reward, terminated, truncated, info = self.env.step(act)
        info["invalid_action"] = act is NO_OP
        info["action_mask"] = self.action_masks()
        return obs, reward, terminated, truncated, info
