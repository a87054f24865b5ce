"""Actions: the one action model of the project and its on-disk spellings.

Coordinates are resolution-free: `(x, y)` in [0, 1], x to the right, y down. The
spellings other tools use are converted here and nowhere else:

- AITW / LlamaTouch `Action(action_type, touch_point_yx, lift_point_yx, typed_text)`:
  note AITW puts **y before x** and folds taps and swipes into one DUAL_POINT type.
- AgentEnv action files: ``CLICK|[x, y]|NULL|W|H`` and friends.
- LlamaTouch ``eventStructs.txt`` lines: ``[Click] Screen Resolution (W, H), Click
  Position (x, y)`` (pixels), and the Chinese spelling of the original recorder.
"""

from __future__ import annotations

import ast
import math
import numbers
import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Mapping, NamedTuple

from mobile_gym.errors import InvalidActionError

#: Longest text a TYPE action may carry (also the gym `Text` space's max length).
MAX_TEXT_LENGTH = 512

#: Largest screen side, in pixels, an action file may name (phones are under 4,000).
MAX_SCREEN_SIDE = 100_000

#: A dual-point gesture shorter than this (fraction of the screen) is a tap, as in AITW.
TAP_DISTANCE = 0.04


class ActionType(IntEnum):
    """Action types; contiguous from 0 so they index a `Discrete` space. The first eight
    are LlamaTouch's (AITW's) and the whole space of the ``-v0`` envs; the next five are
    AndroidWorld's other verbs, offered by ``gym.make(..., actions="all")``. INVALID is
    what an unusable model reply did (nothing), kept so a trace shows it: no gym space
    holds it."""

    CLICK = 0
    SWIPE = 1
    TYPE = 2
    BACK = 3
    HOME = 4
    ENTER = 5
    COMPLETE = 6
    IMPOSSIBLE = 7
    LONG_PRESS = 8  # touch, held past the long-press timeout
    DOUBLE_TAP = 9  # touch, tapped twice
    OPEN_APP = 10  # text: the app's name as the launcher shows it
    WAIT = 11  # nothing touched: the device's clock moves on
    ANSWER = 12  # text: the answer an information task asks for (does not end the episode)
    INVALID = 13  # text: a reply that names no action (nothing done; a trace shows the reply)


#: The action types each ``gym.make(..., actions=...)`` offers in its action space:
#: LlamaTouch's eight (the default, so every ``-v0`` env and policy is as it was) or all
#: of AndroidWorld's set.
ACTION_SETS: dict[str, tuple[ActionType, ...]] = {
    "basic": tuple(ActionType)[:8],
    "all": tuple(ActionType)[:13],
}
#: Types that act at a point (``touch``), and types that carry ``text``.
POINTED = (ActionType.CLICK, ActionType.SWIPE, ActionType.LONG_PRESS, ActionType.DOUBLE_TAP)
TEXTUAL = (ActionType.TYPE, ActionType.OPEN_APP, ActionType.ANSWER, ActionType.INVALID)


Point = tuple[float, float]


def _point(value: Any, field: str) -> Point:
    """Two real numbers in [0, 1]: a pair, a list or an array of shape (2,). Anything else
    (strings, bools, complex numbers, nested or odd-shaped arrays, objects whose
    conversion raises) is an `InvalidActionError`."""
    if type(value) is tuple and len(value) == 2:  # the commonest: a pair of floats in range
        x, y = value
        if type(x) is float and type(y) is float and 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0:
            return value
    try:
        shape = getattr(value, "shape", None)
        if shape is not None:  # a numpy array or alike: its shape first, then Python numbers
            if tuple(shape) != (2,):
                raise InvalidActionError(f"{field} must have shape (2,), got {tuple(shape)}")
            value = value.tolist()
        if not isinstance(value, (tuple, list)) or len(value) != 2 or not all(map(_is_real, value)):
            raise InvalidActionError(f"{field} must be two numbers (x, y), got {_shown(value)}")
        x, y = (_float(v) for v in value)
    except InvalidActionError:
        raise
    except Exception as exc:  # a user's object may raise anything from __float__, __len__, ...
        raise InvalidActionError(f"{field} must be two numbers (x, y), got {_shown(value)}") from exc
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in (x, y)):
        raise InvalidActionError(
            f"{field} must be normalized coordinates in [0, 1], got {_shown(value)}"
        )
    return (x, y)


def _float(v: numbers.Real) -> float:
    try:
        return float(v)
    except OverflowError:  # an int beyond any float: out of range, like inf
        return math.inf


def _is_real(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _action_type(value: Any) -> ActionType:
    """An `ActionType` from an integer (Python or numpy, or a 0-d array) or a float
    with an integral value; bools, strings and anything else are refused."""
    if type(value) is ActionType:
        return value
    try:
        if getattr(value, "shape", None) == ():  # a 0-d array
            value = value.item()
        if _is_real(value) and float(value).is_integer():
            return ActionType(int(value))
    except Exception:  # a user's object may raise anything; an out-of-range int raises too
        pass
    raise InvalidActionError(
        f"unknown action type {_shown(value)}; expected one of "
        + ", ".join(f"{t.name} ({t.value})" for t in ActionType)
    )


def _text(value: Any, kind: str = "TYPE") -> str:
    """Typed text: a str without surrogates. A lone surrogate (from a broken decode or a
    half emoji) is no character: no keyboard types it and no dump can encode it."""
    if not isinstance(value, str):
        raise InvalidActionError(f"{kind} needs text (a str), got {_shown(value)}")
    if len(value) > MAX_TEXT_LENGTH:
        raise InvalidActionError(
            f"{kind} text is {len(value)} characters; the limit is {MAX_TEXT_LENGTH}"
        )
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise InvalidActionError(
            f"{kind} text holds a lone surrogate U+{ord(bad.group()):04X} at {bad.start()}; "
            "text must be valid Unicode"
        )
    return str(value)  # a str subclass (numpy's str_) becomes a plain str


_SURROGATE = re.compile("[\ud800-\udfff]")


def _shown(value: Any, limit: int = 80) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters; never raises
    (a 5,000-digit int or a user's ``__repr__`` may)."""
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Action:
    """One agent action. Fields a type does not use are stored as None."""

    action_type: ActionType
    touch: Point | None = None
    lift: Point | None = None
    text: str | None = None

    def __post_init__(self) -> None:
        kind = _action_type(self.action_type)
        touch = lift = text = None
        if kind in POINTED:
            if self.touch is None:
                raise InvalidActionError(f"{kind.name} needs a touch point")
            touch = _point(self.touch, "touch")
        if kind is ActionType.SWIPE:
            if self.lift is None:
                raise InvalidActionError("SWIPE needs a lift point")
            lift = _point(self.lift, "lift")
            if lift == touch:
                raise InvalidActionError(
                    "a SWIPE needs distinct touch and lift points; use CLICK for a tap"
                )
        if kind in TEXTUAL:
            text = _text(self.text, kind.name)
        object.__setattr__(self, "action_type", kind)
        object.__setattr__(self, "touch", touch)
        object.__setattr__(self, "lift", lift)
        object.__setattr__(self, "text", text)

    # -- constructors -------------------------------------------------------------
    @classmethod
    def click(cls, x: float, y: float) -> Action:
        return cls(ActionType.CLICK, touch=(x, y))

    @classmethod
    def click_center(cls, bounds: Any, screen_size: tuple[int, int]) -> Action:
        """A tap on the centre of a pixel box (anything with left/top/right/bottom)."""
        return cls.click((bounds.left + bounds.right) / 2 / screen_size[0],
                         (bounds.top + bounds.bottom) / 2 / screen_size[1])

    @classmethod
    def swipe(cls, x1: float, y1: float, x2: float, y2: float) -> Action:
        return cls(ActionType.SWIPE, touch=(x1, y1), lift=(x2, y2))

    @classmethod
    def type_text(cls, text: str) -> Action:
        return cls(ActionType.TYPE, text=text)

    @classmethod
    def long_press(cls, x: float, y: float) -> Action:
        return cls(ActionType.LONG_PRESS, touch=(x, y))

    @classmethod
    def double_tap(cls, x: float, y: float) -> Action:
        return cls(ActionType.DOUBLE_TAP, touch=(x, y))

    @classmethod
    def open_app(cls, name: str) -> Action:
        return cls(ActionType.OPEN_APP, text=name)

    @classmethod
    def wait(cls) -> Action:
        return cls(ActionType.WAIT)

    @classmethod
    def answer(cls, text: str) -> Action:
        return cls(ActionType.ANSWER, text=text)

    @classmethod
    def invalid(cls, reply: Any) -> Action:
        """What an unusable reply does (nothing), carrying the reply as it was: text cut to
        the text limit, a tool call or anything else as its short ``repr``."""
        text = reply[:MAX_TEXT_LENGTH] if isinstance(reply, str) else _shown(reply, MAX_TEXT_LENGTH)
        return cls(ActionType.INVALID, text=_SURROGATE.sub("\ufffd", text))

    @classmethod
    def back(cls) -> Action:
        return cls(ActionType.BACK)

    @classmethod
    def home(cls) -> Action:
        return cls(ActionType.HOME)

    @classmethod
    def enter(cls) -> Action:
        return cls(ActionType.ENTER)

    @classmethod
    def complete(cls) -> Action:
        return cls(ActionType.COMPLETE)

    @classmethod
    def impossible(cls) -> Action:
        return cls(ActionType.IMPOSSIBLE)

    # -- properties -----------------------------------------------------------------
    @property
    def is_tap(self) -> bool:
        """A click, or a swipe so short that Android sees a tap (AITW's rule)."""
        if self.action_type is ActionType.CLICK:
            return True
        if self.action_type is ActionType.SWIPE:
            assert self.touch is not None and self.lift is not None
            return math.dist(self.touch, self.lift) <= TAP_DISTANCE
        return False

    @property
    def ends_episode(self) -> bool:
        return self.action_type in (ActionType.COMPLETE, ActionType.IMPOSSIBLE)

    def __str__(self) -> str:
        t = self.action_type.name
        if self.action_type is ActionType.CLICK:
            return f"CLICK({self.touch[0]:.3f}, {self.touch[1]:.3f})"  # type: ignore[index]
        if self.action_type is ActionType.SWIPE:
            (x1, y1), (x2, y2) = self.touch, self.lift  # type: ignore[misc]
            return f"SWIPE({x1:.3f}, {y1:.3f} -> {x2:.3f}, {y2:.3f})"
        if self.action_type in (ActionType.LONG_PRESS, ActionType.DOUBLE_TAP):
            return f"{t}({self.touch[0]:.3f}, {self.touch[1]:.3f})"  # type: ignore[index]
        if self.action_type is ActionType.TYPE:
            return f"TYPE({self.text!r})"
        if self.action_type in TEXTUAL:  # an app's name, an answer, a reply: cut to a line
            return f"{t}({_shown(self.text)})"
        return t

    # -- gym ----------------------------------------------------------------------------
    @classmethod
    def from_gym(cls, sample: Mapping[str, Any]) -> Action:
        """Build from a sample of the env's `Dict` action space (unused fields ignored)."""
        if not isinstance(sample, Mapping) or "action_type" not in sample:
            raise InvalidActionError(
                "a gym action is a dict with 'action_type' (and 'touch', 'lift', 'text'), "
                f"got {type(sample).__name__}"
            )
        kind = _action_type(sample["action_type"])
        if kind is ActionType.INVALID:
            raise InvalidActionError("INVALID is no action to take: it records a reply that named none")
        if kind is ActionType.SWIPE:
            return cls(kind, touch=sample.get("touch"), lift=sample.get("lift"))
        if kind in POINTED:
            return cls(kind, touch=sample.get("touch"))
        if kind in TEXTUAL:
            return cls(kind, text=sample.get("text"))
        return cls(kind)

    # -- AITW / LlamaTouch ------------------------------------------------------------
    def to_aitw(self) -> AITWAction:
        kind = self.action_type
        if kind not in _TO_AITW and kind not in (ActionType.CLICK, ActionType.SWIPE):
            raise InvalidActionError(f"AITW has no {kind.name} action")
        if kind in (ActionType.CLICK, ActionType.SWIPE):
            touch = self.touch
            lift = self.lift if kind is ActionType.SWIPE else self.touch
            assert touch is not None and lift is not None
            return AITWAction(
                AITWActionType.DUAL_POINT, (touch[1], touch[0]), (lift[1], lift[0]), ""
            )
        return AITWAction(_TO_AITW[kind], (-1.0, -1.0), (-1.0, -1.0), self.text or "")

    @classmethod
    def from_aitw(cls, action: Any) -> Action:
        """From an AITW/LlamaTouch Action (any object with its four fields)."""
        try:
            raw = action.action_type
            code = AITWActionType(int(getattr(raw, "value", raw)))
        except (AttributeError, TypeError, ValueError) as exc:
            raise InvalidActionError(f"not an AITW action: {action!r}") from exc
        if code is AITWActionType.DUAL_POINT:
            (ty, tx), (ly, lx) = action.touch_point_yx, action.lift_point_yx
            if (tx, ty) == (lx, ly):
                return cls.click(tx, ty)
            return cls.swipe(tx, ty, lx, ly)
        if code is AITWActionType.TYPE:
            return cls.type_text(action.typed_text)
        return cls(_FROM_AITW[code])

    # -- AgentEnv action files ------------------------------------------------------
    def to_agentenv(self, width: int, height: int) -> str:
        """One line of an AgentEnv ``i.action`` file (no trailing newline).

        AgentEnv (and LlamaTouch's evaluator, which reads these files) knows LlamaTouch's
        eight types only. The others are written as the nearest line it reads — a long
        press or a double tap as a CLICK at its point, the rest as an empty TYPE — with
        the action itself in a field before the screen's size, which that reader skips
        and ours reads back: ``CLICK|[x, y]|NULL|LONG_PRESS|W|H``,
        ``TYPE|''|NULL|OPEN_APP 'Gmail'|W|H``. Texts are written with ``|`` escaped, so
        the fields split unambiguously."""
        kind = self.action_type
        exact = ""
        if kind not in _AGENTENV_NAMES:
            exact = kind.name + (f" {_quoted(self.text or '')}" if kind in TEXTUAL else "") + "|"
            kind = ActionType.CLICK if kind in POINTED else ActionType.TYPE
        if kind is ActionType.CLICK:
            first, second = _agentenv_point(self.touch), "NULL"
        elif kind is ActionType.SWIPE:
            first, second = _agentenv_point(self.touch), _agentenv_point(self.lift)
        elif kind is ActionType.TYPE:
            # quoted, as AgentEnv writes it
            first, second = repr(self.text or "" if not exact else ""), "NULL"
        else:
            first = second = "NULL"
        return f"{_AGENTENV_NAMES[kind]}|{first}|{second}|{exact}{int(width)}|{int(height)}"

    @classmethod
    def from_agentenv(cls, line: str) -> tuple[Action, tuple[int, int]]:
        """Parse an AgentEnv action line; returns the action and the screen (W, H)."""
        head, sep, rest = line.rstrip("\r\n").partition("|")
        exact = None
        m = _AGENTENV_EXACT.fullmatch(rest)
        if m is not None:  # one of our types, after the line AgentEnv reads
            rest, exact, text = f"{m['first']}|{m['second']}|{m['size']}", m["exact"], m["text"]
        parts = rest.rsplit("|", 3)
        if not sep or len(parts) != 4:
            raise InvalidActionError(f"not an AgentEnv action line: {line!r}")
        first, second, w, h = parts
        try:
            kind = _AGENTENV_TYPES[head]
            size = (int(w), int(h))
        except (KeyError, ValueError) as exc:
            raise InvalidActionError(f"not an AgentEnv action line: {line!r}") from exc
        if not all(0 < side <= MAX_SCREEN_SIDE for side in size):
            raise InvalidActionError(f"an AgentEnv action line with a screen of {size[0]}x{size[1]} pixels: {line!r}")
        if exact is not None:
            kind = ActionType[exact]
            if kind in POINTED:
                return cls(kind, touch=_parse_agentenv_point(first, line)), size
            return cls(kind, text=_unquote(text) if kind in TEXTUAL else None), size
        if kind is ActionType.TYPE:
            return cls.type_text(_unquote(first)), size
        if kind is ActionType.CLICK:
            return cls(kind, touch=_parse_agentenv_point(first, line)), size
        if kind is ActionType.SWIPE:
            touch = _parse_agentenv_point(first, line)
            lift = _parse_agentenv_point(second, line)
            return cls(kind, touch=touch, lift=lift), size
        return cls(kind), size

    # -- LlamaTouch eventStructs.txt ----------------------------------------------------
    def to_event_line(self, width: int, height: int, enter_key: Point | None = None) -> str:
        """One line of ``eventStructs.txt``; coordinates become pixels of (W, H).

        LlamaTouch's loader knows no Enter key (Home, Back, Click, Swipe, Input; anything
        else fails the whole category it loads): an ENTER is written as LlamaTouch records
        it, the tap on the keyboard's Enter key, at ``enter_key`` (where the device draws
        that key), marked ``(Enter)`` after the click, which its loader ignores and ours
        reads back as ENTER. Without ``enter_key`` an ENTER has no line. Our reader still
        reads the ``[Enter]`` lines older files hold."""
        kind = self.action_type
        if kind is ActionType.ENTER:
            if enter_key is None:
                raise InvalidActionError("an ENTER is written as the tap on the keyboard's Enter key, "
                                         "but where that key is was not given (enter_key)")
            x, y = _pixels(_point(enter_key, "enter_key"), width, height)
            return f"[Click] Screen Resolution ({width}, {height}), Click Position ({x}, {y}){ENTER_MARK}"
        if kind is ActionType.CLICK:
            x, y = _pixels(self.touch, width, height)
            return f"[Click] Screen Resolution ({width}, {height}), Click Position ({x}, {y})"
        if kind is ActionType.SWIPE:
            x1, y1 = _pixels(self.touch, width, height)
            x2, y2 = _pixels(self.lift, width, height)
            return (
                f"[Swipe] Screen Resolution ({width}, {height}), "
                f"Start Position ({x1}, {y1}), End Position ({x2}, {y2})"
            )
        if kind is ActionType.TYPE:
            if "\n" in (self.text or "") or "\r" in (self.text or ""):
                raise InvalidActionError("eventStructs.txt cannot hold typed text with newlines")
            return f"[Input] {self.text}"
        if kind in _EVENT_NAMES:
            return f"[{_EVENT_NAMES[kind]}]"
        if kind in (ActionType.COMPLETE, ActionType.IMPOSSIBLE):
            raise InvalidActionError(
                f"{kind.name} has no eventStructs.txt line (the last screen's action is implicit)"
            )
        raise InvalidActionError(f"{kind.name} has no eventStructs.txt line: LlamaTouch records taps, "
                                 "swipes, typing, Back and Home")

    @classmethod
    def from_event_line(cls, line: str) -> Action:
        return cls.parse_event_line(line)[0]

    @classmethod
    def parse_event_line(cls, line: str) -> tuple[Action, tuple[int, int] | None]:
        """An ``eventStructs.txt`` line: the action and, for gestures, the screen (W, H)."""
        line = line.rstrip("\r\n")
        if line.endswith(ENTER_MARK) and _EVENT_CLICK.fullmatch(line[:-len(ENTER_MARK)]):
            w, h = (int(g) for g in _EVENT_CLICK.fullmatch(line[:-len(ENTER_MARK)]).groups()[:2])
            return cls.enter(), (w, h)
        m = _EVENT_CLICK.fullmatch(line) or _EVENT_CLICK_ZH.fullmatch(line)
        if m:
            w, h, x, y = (int(g) for g in m.groups())
            return cls.click(*_normalized(x, y, w, h)), (w, h)
        m = _EVENT_SWIPE.fullmatch(line) or _EVENT_SWIPE_ZH.fullmatch(line)
        if m:
            w, h, x1, y1, x2, y2 = (int(g) for g in m.groups())
            start, end = _normalized(x1, y1, w, h), _normalized(x2, y2, w, h)
            return (cls.click(*start) if start == end else cls.swipe(*start, *end)), (w, h)
        if line in ("[Input]", "[Input] "):  # an empty text, trailing space trimmed or not
            return cls.type_text(""), None
        for prefix in ("[Input] ", "【键盘输入】"):
            if line.startswith(prefix):
                return cls.type_text(line[len(prefix) :]), None
        kind = _EVENT_KEYS.get(line.strip())
        if kind is not None:
            return cls(kind), None
        raise InvalidActionError(f"not an eventStructs.txt line: {line!r}")


class AITWActionType(IntEnum):
    """Action type codes of Android-in-the-Wild, which LlamaTouch reuses."""

    TYPE = 3
    DUAL_POINT = 4
    PRESS_BACK = 5
    PRESS_HOME = 6
    PRESS_ENTER = 7
    STATUS_TASK_COMPLETE = 10
    STATUS_TASK_IMPOSSIBLE = 11


class AITWAction(NamedTuple):
    """AITW / LlamaTouch action record; points are **(y, x)**, unused ones (-1, -1)."""

    action_type: AITWActionType
    touch_point_yx: tuple[float, float] = (-1.0, -1.0)
    lift_point_yx: tuple[float, float] = (-1.0, -1.0)
    typed_text: str = ""


_TO_AITW = {
    ActionType.TYPE: AITWActionType.TYPE,
    ActionType.BACK: AITWActionType.PRESS_BACK,
    ActionType.HOME: AITWActionType.PRESS_HOME,
    ActionType.ENTER: AITWActionType.PRESS_ENTER,
    ActionType.COMPLETE: AITWActionType.STATUS_TASK_COMPLETE,
    ActionType.IMPOSSIBLE: AITWActionType.STATUS_TASK_IMPOSSIBLE,
}
_FROM_AITW = {v: k for k, v in _TO_AITW.items()}

_AGENTENV_NAMES = {
    ActionType.CLICK: "CLICK",
    ActionType.SWIPE: "SWIPE",
    ActionType.TYPE: "TYPE",
    ActionType.BACK: "PRESS_BACK",
    ActionType.HOME: "PRESS_HOME",
    ActionType.ENTER: "PRESS_ENTER",
    ActionType.COMPLETE: "STATUS_TASK_COMPLETE",
    ActionType.IMPOSSIBLE: "STATUS_TASK_IMPOSSIBLE",
}
_AGENTENV_TYPES = {v: k for k, v in _AGENTENV_NAMES.items()}


_AGENTENV_EXACT = re.compile(
    r"(?P<first>[^|]*+)\|(?P<second>[^|]*+)\|(?P<exact>LONG_PRESS|DOUBLE_TAP|WAIT|(?:OPEN_APP|ANSWER|INVALID)(?= ))"
    r"""(?: (?P<text>'(?:[^'\\|]|\\.)*+'|"(?:[^"\\|]|\\.)*+"))?+\|(?P<size>\d++\|\d++)""")


def _quoted(text: str) -> str:
    """``text`` as a Python literal with ``|`` escaped (the field separator of the line)."""
    return repr(text).replace("|", "\\x7c")


def _agentenv_point(p: Point | None) -> str:
    assert p is not None
    return f"[{p[0]!r}, {p[1]!r}]"


def _unquote(text: str) -> str:
    """AgentEnv writes typed text as a Python string literal ('expedia'); older files
    hold it bare."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return text
        if isinstance(value, str):
            return value
    return text


def _parse_agentenv_point(text: str, line: str) -> Point:
    inner = text.strip()
    parts = inner[1:-1].replace(",", " ").split() if inner[:1] + inner[-1:] == "[]" else []
    if len(parts) != 2:
        raise InvalidActionError(f"bad point {text!r} in AgentEnv action line {line!r}")
    try:
        return _point([float(p) for p in parts], "point")
    except ValueError as exc:  # InvalidActionError is one
        raise InvalidActionError(f"{exc} in AgentEnv action line {line!r}") from exc


_EVENT_NAMES = {ActionType.HOME: "Home", ActionType.BACK: "Back"}
_EVENT_KEYS = {f"[{v}]": k for k, v in _EVENT_NAMES.items()}
# [Enter]: what our writer wrote for an ENTER before it wrote the key's tap
_EVENT_KEYS.update({"[Enter]": ActionType.ENTER, "【Home键】": ActionType.HOME, "【Back键】": ActionType.BACK})
#: What follows the click on the keyboard's Enter key that an ENTER is written as.
ENTER_MARK = " (Enter)"
_EVENT_CLICK = re.compile(
    r"\[Click\] Screen Resolution \((\d+), (\d+)\), Click Position \((\d+), (\d+)\)"
)
_EVENT_SWIPE = re.compile(
    r"\[Swipe\] Screen Resolution \((\d+), (\d+)\), Start Position \((\d+), (\d+)\), "
    r"End Position \((\d+), (\d+)\)"
)
_EVENT_CLICK_ZH = re.compile(r"【点击事件】屏幕大小：（w(\d+)，h(\d+)），触摸位置：（x(\d+)，y(\d+)）")
_EVENT_SWIPE_ZH = re.compile(
    r"【滑动事件】屏幕大小：（w(\d+)，h(\d+)），起始位置：（x(\d+)，y(\d+)），结束位置：（x(\d+)，y(\d+)）"
)


def _pixels(p: Point | None, width: int, height: int) -> tuple[int, int]:
    assert p is not None
    return round(p[0] * width), round(p[1] * height)


def _normalized(x: int, y: int, width: int, height: int) -> Point:
    if width <= 0 or height <= 0 or not (0 <= x <= width and 0 <= y <= height):
        raise InvalidActionError(f"position ({x}, {y}) is outside the screen {width}x{height}")
    return (x / width, y / height)


#: What a choice that cannot be carried out sends (a masked slot, an unusable model reply):
#: an empty TYPE, which changes nothing on screen and counts a step.
NO_OP = Action.type_text("")

#: The keys and verdicts by name, one action each (actions are immutable: shared freely).
KEY_ACTIONS = {"back": Action.back(), "home": Action.home(), "enter": Action.enter(),
               "complete": Action.complete(), "impossible": Action.impossible()}
