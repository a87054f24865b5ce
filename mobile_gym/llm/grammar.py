"""The actions a language model may reply with: one definition, read by the parser and
written out as an OpenAI tool schema, so what the prompt offers is what is understood.

`parse_reply` reads a reply in any of the grammars agents use, with prose, code fences
or wrong case around it:

- JSON: ``{"action": "tap", "element": 6}``, AndroidWorld's ``{"action_type": "click",
  "index": 6}``, ``{"action_type": "input_text", "text": "hi", "index": 3}``,
  ``{"action_type": "status", "goal_status": "complete"}``;
- OpenAI tool calls (a message, its ``tool_calls``, or one call):
  ``{"function": {"name": "type", "arguments": "{\\"element\\": 3, \\"text\\": \\"hi\\"}"}}``;
- function style: ``tap(6)``, ``type(3, "hello world")``, ``type("hi")`` (the focused
  field), ``scroll(down)``, ``scroll(2, "up")``, ``back()``, ``home()``, ``enter()``,
  ``complete()``, ``impossible()``;
- AutoDroid's ``- id=6 - action=tap - input_text=N/A`` (``id=-1``: the task is done);
- AITW coordinates: ``{"action_type": "dual_point", "touch_point": [y, x],
  "lift_point": [y, x]}`` (y first, as AITW writes them: fractions in every frame);
- points (issue 36), kept as written and read in a `CoordinateFrame` by
  `Command.actions`: AndroidWorld's ``{"action_type": "click", "x": 334, "y": 2269}``
  (also long_press, double_tap, input_text, scroll at x, y), the ``mobile_use`` tool
  (``<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate":
  [x, y]}}</tool_call>``, swipe with ``coordinate2`` or a direction, drag, type,
  system_button, open, wait, terminate, answer), UI-TARS (``click(start_box='(x,y)')``,
  ``'<|box_start|>(x,y)<|box_end|>'``, a box ``[x1,y1,x2,y2]`` is its centre, drag,
  scroll, open_app, press_home, finished), Claude's computer use (left_click,
  double_click, left_click_drag, scroll, key "Return"/"Back"/"Home", wait) and function
  style (``tap(540, 1200)``, ``swipe(x1, y1, x2, y2)``, ``type(x, y, "hi")``);
- the other verbs: ``open_app("Gmail")``, ``wait()``, ``answer("42")`` (does not end
  the task), goal statuses (complete, successful, success / infeasible, failure, ...).
  ``swipe`` names the finger's way (AndroidWorld: the inverse of scroll): ``swipe(up)``
  is ``scroll(down)``. An element wins over a point when a reply gives both.

A reply is read as one `Command`, or it is a `ReplyError` saying why not: nothing that
reads as an action, an unknown verb, a missing argument, or several different actions
(a reply that names two is not guessed at). An explicit ``Action:`` line wins over
actions mentioned in the reasoning before it.

Whatever a reply holds, reading it ends in one of those two, in time linear in its
length: a reply is cut at `MAX_REPLY` characters (a tool call's arguments past it are
refused), JSON nested past `MAX_JSON_DEPTH` and numbers past `MAX_DIGITS` digits are not
read, and the text to type is checked as the env checks it (its length, no lone
surrogates). A call's arguments are a list of values (numbers, quoted text, bare words,
``name=value``), not expressions.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping

from mobile_gym.actions import KEY_ACTIONS, AITWAction, AITWActionType, Action, ActionType, _shown
from mobile_gym.errors import InvalidActionError, ReplyError
from mobile_gym.llm.coordinates import COORDINATES, CoordinateFrame
from mobile_gym.ui.elements import DIRECTIONS, SCROLL_FRACTION, main_list, scroll_action
from mobile_gym.ui.screen_text import ScreenElements

#: Longest reply read, in characters (a reply past it is cut, never a crash).
MAX_REPLY = 32_768


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "element" (an id of the screen), "text", "direction", "coordinate" (of a point)
    description: str
    required: bool = True


@dataclass(frozen=True)
class Verb:
    name: str
    params: tuple[Param, ...]
    description: str
    synonyms: tuple[str, ...] = ()
    #: how `grammar_help` writes it: by element, then (with points) by point
    forms: tuple[str, ...] = ()


_ELEMENT = Param("element", "element", "The id of the element, as the screen lists it (or give x and y instead).",
                 required=False)
_FIELD = Param("element", "element", "The id of the text field; leave out to type into the focused one.",
               required=False)
_TEXT = Param("text", "text", "The text to type.")
_DIRECTION = Param("direction", "direction", "Where the content to bring into view is: up, down, left or right.")
_LIST = Param("element", "element", "The id of the list to scroll; leave out for the screen's main list.",
              required=False)
_X = Param("x", "coordinate", "The point's x, from the left, in the frame the prompt gives (instead of an element).",
           required=False)
_Y = Param("y", "coordinate", "The point's y, from the top, in the frame the prompt gives.", required=False)
_X2 = Param("x2", "coordinate", "Where the finger lifts: x.", required=False)
_Y2 = Param("y2", "coordinate", "Where the finger lifts: y.", required=False)
_FINGER = Param("direction", "direction", "The way the finger moves: up, down, left or right (swiping up shows "
                "what is below); or give x, y, x2, y2.", required=False)
_APP = Param("app", "text", "The app's name, as the launcher shows it.")
_ANSWER = Param("text", "text", "The answer.")

#: Every verb a reply may use, with its arguments: the tool schema and the parser both read this.
VERBS: tuple[Verb, ...] = (
    Verb("tap", (_ELEMENT, _X, _Y), "Tap an element (or a point).",
         ("click", "press", "touch", "select", "tap_element", "click_element", "left_click"),
         ("tap(element)", "tap(x, y)")),
    Verb("type", (_FIELD, _TEXT, _X, _Y), "Type text into a text field (tapped first if it has no focus).",
         ("input", "input_text", "type_text", "enter_text", "write", "set_text", "fill"),
         ("type([element, ]text)", "type(x, y, text)")),
    Verb("scroll", (_LIST, _DIRECTION, _X, _Y), "Scroll a list to bring what is in a direction into view.",
         ("scroll_to",), ("scroll([element, ]direction)", "scroll(x, y, direction)")),
    Verb("swipe", (_FINGER, _X, _Y, _X2, _Y2), "Move a finger across the screen (swipe(up) scrolls down).",
         ("drag", "left_click_drag", "fling"), ("swipe(direction)", "swipe(x, y, x2, y2)")),
    Verb("long_press", (_ELEMENT, _X, _Y), "Touch an element (or a point) and hold.",
         ("long_click", "long_tap", "press_and_hold"), ("long_press(element)", "long_press(x, y)")),
    Verb("double_tap", (_ELEMENT, _X, _Y), "Tap an element (or a point) twice quickly.", ("double_click",),
         ("double_tap(element)", "double_tap(x, y)")),
    Verb("back", (), "Press the system Back button.", ("navigate_back", "go_back", "press_back")),
    Verb("home", (), "Press the system Home button.", ("navigate_home", "go_home", "press_home")),
    Verb("enter", (), "Press Enter on the keyboard (submits a search or a form).",
         ("keyboard_enter", "press_enter", "submit")),
    Verb("open_app", (_APP,), "Open an app by its name.", ("open", "launch", "launch_app", "start_app")),
    Verb("wait", (), "Wait for the screen to change (a page still loading).", ("sleep", "pause")),
    Verb("answer", (_ANSWER,), "Give the answer the task asks for (then say complete()).", ("give_answer",)),
    Verb("complete", (), "Say the task is done.", ("done", "finish", "finished", "task_complete", "stop")),
    Verb("impossible", (), "Say the task cannot be done here.",
         ("infeasible", "give_up", "not_possible", "task_impossible")),
)
_BY_NAME = {name: verb for verb in VERBS for name in (verb.name, *verb.synonyms)}
#: Verbs whose argument names the action: a goal status (AndroidWorld's ``status``, the
#: ``mobile_use`` tool's ``terminate``) or a key (Claude's ``key``, ``system_button``).
_STATUS_VERBS = frozenset({"status", "terminate"})
_KEY_VERBS = frozenset({"key", "system_button", "press_key", "keyevent", "key_event", "press_button", "hotkey"})
_DONE = frozenset({"complete", "completed", "success", "successful", "succeeded", "succeed", "done", "finished",
                   "finish", "true", "task_complete", "satisfied"})
_FAILED = frozenset({"infeasible", "impossible", "failure", "failed", "fail", "unsuccessful", "not_possible",
                     "false", "task_impossible", "unfeasible", "not_feasible"})
_KEYS = {"return": "enter", "enter": "enter", "kp_enter": "enter", "keycode_enter": "enter", "back": "back",
         "keycode_back": "back", "home": "home", "keycode_home": "home"}
#: Names of a tool whose arguments carry the action (``{"name": "mobile_use", "arguments":
#: {"action": "click", ...}}``, Claude's ``computer``).
_TOOLS = frozenset({"mobile_use", "computer_use", "computer", "mobile"})
#: Verbs that act on an element or a point; verbs that take text.
_POINTED = frozenset({"tap", "long_press", "double_tap", "type", "scroll", "swipe"})
_TEXTUAL = frozenset({"type", "open_app", "answer", "complete"})

Point = tuple[float, float]  # as the reply wrote it (ints stay ints): read in a `CoordinateFrame`


@dataclass(frozen=True)
class Command:
    """One parsed reply: a verb and its arguments. A point (``point``, and ``end`` for a
    swipe) is kept as the reply wrote it, in no frame: `actions` reads it in the frame it
    is given. ``action`` is an AITW action, whose points are fractions by definition."""

    verb: str
    element: int | None = None
    text: str | None = None  # typed text, the app's name, the answer
    direction: str | None = None
    action: Action | None = None  # given by coordinates (AITW style), not by element
    point: Point | None = None
    end: Point | None = None
    then: tuple[Command, ...] = ()  # what follows it, as the reply chains them ("click(...) then wait()")
    reasoning: str = field(default="", compare=False)

    def actions(self, screen: ScreenElements, frame: CoordinateFrame | None = None) -> list[Action]:
        """The env actions that carry it out on ``screen``, its points read in ``frame``;
        a `ReplyError` when it names what the screen does not have, or a point outside
        the frame. With no frame, only a point written in fractions (``tap(0.42, 0.61)``:
        a decimal point, both in [0, 1]) is read, as before frames existed; any other point
        asks for a frame (a pixel read as a fraction would tap a corner). A chain's
        commands are all read on ``screen`` (the one the model saw)."""
        return [a for command in (self, *self.then) for a in command._own_actions(screen, frame)]

    def _own_actions(self, screen: ScreenElements, frame: CoordinateFrame | None) -> list[Action]:
        if self.action is not None:
            return [self.action]
        verb = self.verb
        try:
            at = None if self.point is None else _fraction(self.point, frame)
            if self.element is not None:
                if verb in ("tap", "type", "scroll"):
                    return screen.actions_for(self.element, verb, self.text, self.direction)
                at = screen.element(self.element).point
            if verb == "tap":
                return [Action.click(*at)]  # type: ignore[misc]
            if verb == "long_press":
                return [Action.long_press(*at)]  # type: ignore[misc]
            if verb == "double_tap":
                return [Action.double_tap(*at)]  # type: ignore[misc]
            if verb == "type":  # at a point: tapped first, as AndroidWorld does
                return ([Action.click(*at)] if at else []) + [Action.type_text(self.text or "")]
            if verb == "swipe" and self.end is not None:
                lift = _fraction(self.end, frame)
                if lift == at:
                    raise ReplyError(f"swipe from {_pair(self.point)} to {_pair(self.end)}: the two points are "
                                     "the same (a tap is tap(x, y))")
                return [Action.swipe(*at, *lift)]  # type: ignore[misc]
            if verb in ("scroll", "swipe"):
                direction = self.direction or "down"
                if verb == "swipe":  # the finger's way: the content comes from the other side
                    direction = _OPPOSITE[direction]
                if at is not None:
                    return [_scroll_at(screen, at, direction)]
                main = main_list(screen.elements, screen.size)  # the list under the screen's centre
                if main is not None:
                    return screen.actions_for(main.index, "scroll", direction=direction)
                return [scroll_action(None, direction, screen.size)]
            if verb == "open_app":
                return [Action.open_app(self.text or "")]
            if verb == "wait":
                return [Action.wait()]
            if verb == "answer":
                return [Action.answer(self.text or "")]
            if verb == "complete" and self.text:  # UI-TARS's finished(content=...): the answer, then done
                return [Action.answer(self.text), KEY_ACTIONS["complete"]]
        except InvalidActionError as e:
            raise ReplyError(str(e)) from None
        return [KEY_ACTIONS[verb]]


_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def _fraction(point: Point, frame: CoordinateFrame | None) -> tuple[float, float]:
    """``point`` as fractions of the screen: read in ``frame``; with none, only a point
    written in fractions."""
    x, y = point
    if frame is not None:
        if frame.name != "fraction" and all(isinstance(v, float) and 0.0 < v < 1.0 for v in point):
            raise ReplyError(f"point {_pair(point)} looks like fractions of the screen, but points are in "
                             f"{frame.describe()}")
        return frame.to_fraction(x, y)
    if any(isinstance(v, float) for v in point) and 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0:
        return float(x), float(y)
    if any(isinstance(v, float) for v in point):
        raise ReplyError(f"point {_pair(point)}: coordinates are fractions of the screen from 0 to 1 "
                         f"(or need a frame: {', '.join(COORDINATES)})")
    raise ReplyError(f"point {_pair(point)} is in no coordinate frame: coordinates need a frame "
                     f"({', '.join(COORDINATES)}: e.g. TextActions(env, coordinates='device'))")


def _scroll_at(screen: ScreenElements, at: tuple[float, float], direction: str) -> Action:
    """A scroll at a point: a swipe that starts there, the finger going against
    ``direction`` over `SCROLL_FRACTION` of the list under the point (the screen if
    none), as `scroll_action` moves a list; near an edge the swipe is moved back onto
    the screen, its length and way kept."""
    w, h = screen.size
    px, py = at[0] * w, at[1] * h
    under = [e for e in screen.elements if e.scrollable and e.visible.contains(px, py)]
    box = min(under, key=lambda e: e.visible.area).visible if under else None
    dx = (box.width / w if box else 1.0) * SCROLL_FRACTION
    dy = (box.height / h if box else 1.0) * SCROLL_FRACTION
    mx, my = {"down": (0.0, -dy), "up": (0.0, dy), "right": (-dx, 0.0), "left": (dx, 0.0)}[direction]
    (x, y), (ex, ey) = at, (at[0] + mx, at[1] + my)
    shift_x = -ex if ex < 0 else 1.0 - ex if ex > 1 else 0.0
    shift_y = -ey if ey < 0 else 1.0 - ey if ey > 1 else 0.0
    return Action.swipe(min(max(x + shift_x, 0.0), 1.0), min(max(y + shift_y, 0.0), 1.0),
                        ex + shift_x, ey + shift_y)


#: What a tool schema without points leaves out of a description, and the arguments it
#: then requires (a verb that takes an element or a point, a swipe's direction).
_WITHOUT_POINTS = re.compile(r" \(or give x and y instead\)|; or give x, y, x2, y2")
_UNLESS_POINTED = (_ELEMENT, _FINGER)


def tool_schema(points: bool = True) -> list[dict[str, Any]]:
    """`VERBS` as OpenAI tools (``tools=`` of a chat completion); ``points=False`` leaves
    out the coordinates (x, y) of the verbs that take an element or a point, for a model
    that sees no screenshot."""
    tools = []
    for verb in VERBS:
        properties: dict[str, Any] = {}
        for p in verb.params:
            spec: dict[str, Any] = {"description": p.description}
            if p.kind == "element":
                spec["type"] = "integer"
            elif p.kind == "coordinate":
                if not points:
                    continue
                spec["type"] = "number"
            if not points:  # an element or a direction is then the only way: required, and said so
                spec["description"] = _WITHOUT_POINTS.sub("", p.description)
            elif p.kind == "direction":
                spec.update(type="string", enum=list(DIRECTIONS))
            else:
                spec["type"] = "string"
            properties[p.name] = spec
        tools.append({"type": "function", "function": {
            "name": verb.name, "description": verb.description,
            "parameters": {"type": "object", "properties": properties,
                           "required": [p.name for p in verb.params
                                        if p.required or (not points and p in _UNLESS_POINTED)],
                           "additionalProperties": False}}})
    return tools


def grammar_help(points: bool = False) -> str:
    """The function-style grammar, one verb a line, for a prompt (``[element, ]``: an
    argument that may be left out); ``points=True`` adds each verb's form with a point
    (``tap(element) or tap(x, y)``), for a model that sees the screen."""
    lines = []
    for verb in VERBS:
        if verb.forms:
            call = " or ".join(verb.forms if points else verb.forms[:1])
        else:
            call = f"{verb.name}(" + ", ".join(p.name for p in verb.params) + ")"
        lines.append(f"{call} - {verb.description}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- parsing
def parse_reply(reply: Any) -> Command:
    """The one action a model's reply names (a string, or an OpenAI message / tool call
    as a dict); a `ReplyError` otherwise, whatever the reply holds. The time taken is
    linear in the reply's length (cut to `MAX_REPLY`)."""
    if isinstance(reply, (Mapping, list)):
        return _from_message(reply)
    if not isinstance(reply, str):
        raise ReplyError(f"a reply is text or a tool call, got {type(reply).__name__}")
    text = reply[:MAX_REPLY]
    if not text.strip():
        raise ReplyError("the reply is empty: answer with one action")
    # what follows an explicit "Action:" (the last one) is the answer; before it, reasoning
    marked = list(_ACTION_LINE.finditer(text))
    if marked:
        last = marked[-1]
        answer = text[last.end():]
        found = _commands(answer)
        if found:
            return _one(found, text[:last.start()], answer)
    fences = _FENCE.findall(text)
    if fences:
        found = _commands(fences[-1])
        if found:
            return _one(found, text[:text.rfind("```", 0, text.rfind("```"))], fences[-1])
    found = _commands(text)
    if not found:
        raise ReplyError("no action found in the reply: answer with one action, e.g. tap(3), "
                         'type(2, "text"), scroll(down), back(), complete()')
    return _one(found, text[:found[0][0]], text)


# Possessive quantifiers (``*+``) and atomic choices keep every pattern linear: a match
# that fails gives nothing back to try again from.
_ACTION_LINE = re.compile(r"(?im)^(?:[^\S\n]|[>*#-])*+(?:final\s++answer|final\s++action|next\s++action|action|answer)"
                          r"\**+\s*+[:=]")
_FENCE = re.compile(r"```(?:json|python|text)?+\s*+(.*?)```", re.S | re.I)


#: Most commands a reply may chain with "then" (UI-TARS writes ``click(...) then wait()``).
MAX_CHAIN = 4
_THEN = re.compile(r"\s*+,?+\s*+(?:and\s++)?+then\s++", re.I)


def _one(found: list[tuple[int, int, Command]], reasoning: str, text: str | None = None) -> Command:
    """The one command ``found`` in ``text`` holds; several different ones are an error,
    unless each follows the one before with a "then" (``tap(3) then wait()``: a chain,
    carried out in order, of at most `MAX_CHAIN`; ``back() then back()`` is two). The same
    command named twice otherwise (in the reasoning, then as the answer) is one."""
    if len(found) > 1 and text is not None and all(_THEN.fullmatch(text, end, start) for (_, end, _), (start, _, _)
                                                   in zip(found, found[1:])):
        if len(found) > MAX_CHAIN:
            raise ReplyError(f"the reply chains {len(found)} actions: answer with one (at most {MAX_CHAIN} "
                             "joined by 'then')")
        return replace(found[0][2], then=tuple(c for _, _, c in found[1:]), reasoning=reasoning.strip()[:4000])
    commands = list(dict.fromkeys(c for _, _, c in found))
    if len(commands) > 1:
        raise ReplyError("the reply names several actions (" + ", ".join(spelled(c) for c in commands[:4])
                         + "): answer with exactly one")
    return replace(commands[0], reasoning=reasoning.strip()[:4000])


def spelled(c: Command) -> str:
    """A command as the function-style call that names it (``type(3, 'hi')``, a point as
    written: ``tap((540, 1200))``)."""
    if c.then:
        return " then ".join(spelled(part) for part in (replace(c, then=()), *c.then))
    if c.action is not None:
        return str(c.action)
    args = [repr(c.element)] if c.element is not None else []
    args += [_pair(p) for p in (c.point, c.end) if p is not None]
    args += [repr(a) for a in (c.text, c.direction) if a is not None]
    return f"{c.verb}({', '.join(args)})"


def _pair(point: Point | None) -> str:
    return "(" + ", ".join(_shown(v, 24) for v in point or ()) + ")"


def _commands(text: str) -> list[tuple[int, int, Command]]:
    """Every action ``text`` names, with where it starts and ends; JSON first, then AutoDroid's
    form, then calls (a call inside a JSON string is not counted twice). An action that
    is named wrong is an error only when nothing else in ``text`` reads as an action (a
    "tap(Settings)" in the reasoning does not spoil the answer after it)."""
    found: list[tuple[int, int, Command]] = []
    errors: list[str] = []
    taken = bytearray(len(text))  # 1 where an action, right or wrong, was read

    def read(start: int, end: int, make, *args) -> None:
        try:
            command = make(*args)
        except ReplyError as e:
            errors.append(str(e))
        else:
            if command is None:
                return
            found.append((start, end, command))
        taken[start:end] = b"\x01" * (end - start)

    for start, end, obj in _json_objects(text):
        read(start, end, _from_json, obj)
    for m in _AUTODROID.finditer(text):
        if not taken[m.start()]:
            read(m.start(), m.end(), _from_autodroid, m)
    for start, end, name, args in _calls(text):
        if not taken[start]:
            read(start, end, _from_call, name, args)
    if not found and errors:
        raise ReplyError(errors[-1])
    found.sort(key=lambda item: item[0])
    return found


_SEPARATORS = re.compile(r"[\s\-]+")


def _key(name: str) -> str:
    return _SEPARATORS.sub("_", name.strip().lower())


def _known(name: str) -> bool:
    key = _key(name)
    return key in _BY_NAME or key in _STATUS_VERBS or key in _KEY_VERBS


def _verb(name: Any, argument: Any = None) -> Verb:
    """The verb ``name`` names; for a status or a key (``terminate``, ``key``), the one
    its ``argument`` names (``success``, ``Return``)."""
    if not isinstance(name, str) or not name.strip():
        raise ReplyError(f"the action's name must be a word, got {_shown(name)}")
    key = _key(name)
    if key in _STATUS_VERBS:
        return _BY_NAME[_status(argument)]
    if key in _KEY_VERBS:
        return _BY_NAME[_pressed(argument)]
    verb = _BY_NAME.get(key)
    if verb is None:
        raise ReplyError(f"unknown action {_shown(name)}: use one of {', '.join(v.name for v in VERBS)}")
    return verb


def _status(value: Any) -> str:
    """``complete`` or ``impossible``, as a goal status says (none given: complete)."""
    if value is None:
        return "complete"
    key = _key(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else None
    if key in _DONE:
        return "complete"
    if key in _FAILED:
        return "impossible"
    raise ReplyError(f"unknown goal status {_shown(value)}: use complete (success) or infeasible (failure)")


def _pressed(value: Any) -> str:
    """The verb of a key or a system button: Return/Enter, Back or Home."""
    key = _key(value) if isinstance(value, str) and value.strip() else None
    if key is None:
        raise ReplyError(f"a key press names its key (Return, Back or Home), got {_shown(value)}")
    if key in _KEYS:
        return _KEYS[key]
    raise ReplyError(f"the key {_shown(value, 40)} is no action of this env: press Return (enter()), Back (back()) "
                     "or Home (home())")


def _command(verb: Verb, element: Any = None, text: Any = None, direction: Any = None,
             point: Any = None, end: Any = None) -> Command:
    """A checked command: the verb's required arguments present and of the right kind,
    the others dropped. An element wins over a point (AndroidWorld's index over x, y)."""
    name = verb.name
    element = _element_id(element) if element is not None and name in _POINTED and name != "swipe" else None
    point = _point(point) if point is not None and name in _POINTED and element is None else None
    end = _point(end) if end is not None and name == "swipe" and point is not None else None
    direction = _direction(direction) if direction is not None and name in ("scroll", "swipe") else None
    if name == "swipe" and end is not None:
        direction = None
    text = _text_of(name, text) if text is not None and name in _TEXTUAL else None
    if name in ("tap", "long_press", "double_tap") and element is None and point is None:
        raise ReplyError(f"{name} needs an element (or a point: x and y)")
    if name == "swipe" and direction is None and end is None:
        raise ReplyError("swipe needs a direction, or a start and an end point")
    if name == "open_app" and text is not None and not text.strip():
        raise ReplyError("open_app needs the app's name, as the launcher shows it")
    given = {"element": element, "text": text, "app": text, "direction": direction}
    missing = [p.name for p in verb.params if p.required and given.get(p.name) is None]
    if missing:
        raise ReplyError(f"{name} needs {' and '.join(missing)}")
    return Command(name, element, text, direction, point=point, end=end)


def _direction(value: Any) -> str:
    if not isinstance(value, str) or value.strip().lower() not in DIRECTIONS:
        raise ReplyError(f"scroll direction must be one of {', '.join(DIRECTIONS)}, got {_shown(value)}")
    return value.strip().lower()


def _text_of(verb: str, value: Any) -> str:
    """The text a verb carries, checked as the env will check it."""
    if verb == "type":
        return _typed(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 10 ** MAX_DIGITS:
        value = str(value)  # answer(42)
    try:
        if verb == "open_app":
            return Action.open_app(value).text or ""
        return Action.answer(value).text or ""
    except InvalidActionError as e:
        raise ReplyError(str(e)) from None


#: Longest text read as one point (UI-TARS's ``'<|box_start|>(x1,y1,x2,y2)<|box_end|>'``).
MAX_POINT_TEXT = 200
_NUMBERS = re.compile(r"[-+]?+(?:\d++(?:\.\d*+)?+|\.\d++)(?:[eE][-+]?+\d++)?+")


def _point(value: Any) -> Point:
    """A point as a reply writes it: [x, y], a box [x1, y1, x2, y2] (its centre), or text
    holding one (``'(x,y)'``, ``'<|box_start|>(x,y)<|box_end|>'``, ``'<point>x y</point>'``),
    or {"x": .., "y": ..}; numbers kept as written (ints stay ints) for the frame to read."""
    if isinstance(value, Mapping):
        value = [_lower_keys(value).get("x"), _lower_keys(value).get("y")]
    if isinstance(value, str):
        if len(value) > MAX_POINT_TEXT:
            raise ReplyError(f"a point is (x, y), got {len(value)} characters")
        value = [_number_text(m[0]) for m in _NUMBERS.finditer(value)]
    if not isinstance(value, (list, tuple)) or len(value) not in (2, 4):
        raise ReplyError(f"a point is (x, y) or a box [x1, y1, x2, y2], got {_shown(value)}")
    numbers = [_coordinate(v) for v in value]
    if len(numbers) == 4:
        x1, y1, x2, y2 = numbers
        return (x1 + x2) / 2, (y1 + y2) / 2
    return numbers[0], numbers[1]


def _coordinate(value: Any) -> float:
    if isinstance(value, str) and _NUMBERS.fullmatch(value.strip()):
        value = _number_text(value.strip())
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) < 10 ** MAX_DIGITS:
        raise ReplyError(f"a point's coordinates are numbers, got {_shown(value)}")
    return value


def _number_text(token: str) -> float:
    if len(token) > MAX_DIGITS + 8:
        raise ReplyError(f"the number {token[:12]}... is too long for a coordinate")
    return _integer(token) if _INTEGER.fullmatch(token) else float(token)


#: Most digits of a number read from a reply (an element id has one or two).
MAX_DIGITS = 18
_INTEGER = re.compile(r"[-+]?\d++")


def _integer(digits: str) -> int:
    """``digits`` (an optional sign, then digits) as an int; a `ReplyError` past
    `MAX_DIGITS` (Python refuses to convert 4,300 and more)."""
    if len(digits.lstrip("+-")) > MAX_DIGITS:
        raise ReplyError(f"the number {digits[:12]}... has {len(digits)} digits: element ids are small numbers")
    return int(digits)


def _element_id(value: Any) -> int:
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        value = _integer(value.strip())
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 10 ** MAX_DIGITS:
        raise ReplyError(f"an element id is a whole number, got {_shown(value)}")
    return value


def _typed(value: Any) -> str:
    """The text of a type action, checked as the env will check it (length, no lone
    surrogates); a number written for it (``{"action": "type", "text": 42}``) is its digits."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 10 ** MAX_DIGITS:
        value = str(value)
    if not isinstance(value, str):
        raise ReplyError(f"the text to type must be text, got {_shown(value)}")
    try:
        return Action.type_text(value).text or ""
    except InvalidActionError as e:
        raise ReplyError(str(e)) from None


# -- JSON and tool calls -----------------------------------------------------------------
#: Deepest nesting of brackets decoded as JSON (an action's JSON nests two or three deep;
#: a deeper one would exhaust the decoder's recursion).
MAX_JSON_DEPTH = 16
_VERB_KEYS = ("action", "action_type")  # an unknown verb under these is an error
_NAME_KEYS = ("name", "function", "tool", "command", "type")  # these name an action only with a verb
_ELEMENT_KEYS = ("element", "index", "id", "element_id", "elementid", "target")
_TEXT_KEYS = ("text", "input_text", "typed_text", "value", "content")
_APP_KEYS = ("app_name", "app", "application", "package_name", "package", "text", "content", "value")
_ANSWER_KEYS = ("text", "answer", "content", "value", "response")
_ARGUMENTS_KEYS = ("key", "button", "keys", "text", "value", "goal_status", "status")
_DIRECTION_KEYS = ("direction", "scroll_direction")
# where a gesture starts and ends: AndroidWorld's x, y; the mobile_use tool's coordinate
# and coordinate2; Claude's start_coordinate and coordinate; UI-TARS's start_box, end_box
_START_KEYS = ("start_coordinate", "start_box", "start_point", "coordinate", "point", "box", "position")
_END_KEYS = ("end_coordinate", "coordinate2", "end_box", "end_point")
# outside brackets, prose: only brackets count; inside, JSON strings too (a string ends
# at its line's end if it is not closed before: JSON strings hold no line breaks)
_BRACKET = re.compile(r"[\[\]{}]")
_JSON_TOKEN = re.compile(r'"[^"\\\n]*+(?:\\.?[^"\\\n]*+)*+"?|[\[\]{}]')
_OPENER = {"}": "{", "]": "["}
_OPENERS = frozenset(_OPENER.values())


def _brackets(text: str) -> Iterator[tuple[int, str, int]]:
    """(position, bracket, depth before it) of each bracket of ``text`` outside JSON strings."""
    depth, pos = 0, 0
    while True:
        m = (_JSON_TOKEN if depth else _BRACKET).search(text, pos)
        if m is None:
            return
        pos, c = m.end(), m[0]
        if c in _OPENERS:
            yield m.start(), c, depth
            depth += 1
        elif c in _OPENER:
            yield m.start(), c, depth
            depth = max(depth - 1, 0)


def _json_objects(text: str) -> Iterator[tuple[int, int, dict]]:
    """(start, end, object) of each outermost JSON object in ``text`` that decodes, in
    order. One pass pairs the brackets into a tree; an object is decoded only if it
    nests at most `MAX_JSON_DEPTH` deep, and when it does not decode (prose in braces)
    the objects in it are tried: a character is decoded at most ``2 (MAX_JSON_DEPTH + 1)``
    times, so the time is linear. An object in Python's spelling (``{'action_type':
    'click', 'index': 3}``, as AndroidWorld's agents print theirs and read them back with
    ``ast.literal_eval``) decodes too."""
    todo = _bracket_tree(text)[::-1]
    while todo:
        start, end, height, children = todo.pop()
        if text[start] == "{" and height <= MAX_JSON_DEPTH:
            try:
                obj = json.loads(text[start:end])
            except ValueError:  # not JSON, or a number of thousands of digits
                obj = _python_literal(text[start:end])
            if isinstance(obj, dict):
                yield start, end, obj
                continue
        todo.extend(children[::-1])


#: Longest Python-spelled object read (an action's is well under a hundred characters).
MAX_LITERAL = 2048


def _python_literal(text: str) -> Any:
    """``text`` read as a Python literal (quoted in ``'``, ``True``/``None``), None when
    it is none: only a text holding a ``'`` is tried (a JSON object would have decoded),
    and `ast.literal_eval` evaluates no expression, so prose in braces costs a failed
    parse and nothing else."""
    if "'" not in text or len(text) > MAX_LITERAL or "action" not in text.lower():
        return None  # JSON that failed, or prose in braces: not an action's object
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _bracket_tree(text: str) -> list[tuple[int, int, int, list]]:
    """The balanced bracket pairs of ``text``, as a tree: (start, end, height, children)
    of each outermost pair, in order; a pair inside one never closed stands alone."""
    roots: list[tuple[int, int, int, list]] = []
    open_: list[list] = []  # [start, bracket, height, children]
    for position, c, _ in _brackets(text):
        if c in _OPENERS:
            open_.append([position, c, 0, []])
        elif open_ and open_[-1][1] == _OPENER[c]:  # a closer that matches nothing is prose
            start, _, height, children = open_.pop()
            node = (start, position + 1, height + 1, children)
            if open_:
                open_[-1][3].append(node)
                open_[-1][2] = max(open_[-1][2], height + 1)
            else:
                roots.append(node)
    for entry in open_:
        roots.extend(entry[3])
    return roots


def load_json(text: str, what: str = "a tool call's arguments", limit: int = MAX_REPLY) -> Any:
    """``text`` decoded as JSON; a `ReplyError` naming ``what`` when it is not JSON, is
    longer than ``limit`` characters or nests deeper than `MAX_JSON_DEPTH` (which would
    exhaust the decoder's recursion)."""
    if len(text) > limit:
        raise ReplyError(f"{what}: {len(text)} characters, more than {limit}")
    if max((depth for _, _, depth in _brackets(text)), default=0) >= MAX_JSON_DEPTH:
        raise ReplyError(f"{what}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text)
    except ValueError as e:  # JSONDecodeError, or a number too long to convert
        raise ReplyError(f"{what}: not JSON ({getattr(e, 'msg', None) or str(e).partition(':')[0]})") from None


def _from_json(obj: Mapping[str, Any], wrapped: bool = False) -> Command | None:
    """The command a JSON object spells, None when it is no action (e.g. a nested
    "arguments" object); a `ReplyError` when it is one, but wrong. ``wrapped``: the
    object is a call's arguments, which hold no call (read as one, arguments nested
    thousands deep would exhaust the recursion)."""
    lower = _lower_keys(obj)
    if not wrapped and isinstance(lower.get("function"), Mapping):  # a tool call
        return _from_call_object(lower["function"])
    name = next((lower[k] for k in _VERB_KEYS if isinstance(lower.get(k), (str, int))
                 and not isinstance(lower[k], bool)), None)
    if name is None:
        tool = lower.get("name")
        if not wrapped and isinstance(tool, str) and _key(tool) in _TOOLS:  # {"name": "mobile_use", ...}
            args = _arguments(lower)
            return _from_json(args, wrapped=True) if isinstance(args, Mapping) else None
        name = next((lower[k] for k in _NAME_KEYS if isinstance(lower.get(k), str) and _known(lower[k])), None)
    if name is None:
        return None  # not an action (e.g. {"element": 3} in the reasoning)
    if "touch_point" in lower or isinstance(name, int) or name.lower() in ("dual_point", "4"):
        return _from_aitw(lower, name)
    args = _arguments(lower)
    if isinstance(args, Mapping):
        lower = {**lower, **_lower_keys(args)}
    verb = _verb(name, next((lower[k] for k in _ARGUMENTS_KEYS if lower.get(k) is not None), None))
    keys = {"type": _TEXT_KEYS, "open_app": _APP_KEYS}.get(verb.name, _ANSWER_KEYS)
    text = next((lower[k] for k in keys if lower.get(k) is not None), None)
    if verb.name == "complete" and not isinstance(text, str):
        text = None  # a status's "value", a flag: no answer
    element = next((lower[k] for k in _ELEMENT_KEYS if lower.get(k) is not None), None)
    direction = next((lower[k] for k in _DIRECTION_KEYS if lower.get(k) is not None), None)
    point = next((lower[k] for k in _START_KEYS if lower.get(k) is not None), None)
    end = next((lower[k] for k in _END_KEYS if lower.get(k) is not None), None)
    if end is None and lower.get("start_coordinate") is not None:  # Claude's drag: it ends at "coordinate"
        end = lower.get("coordinate")
    if point is None and lower.get("x") is not None and lower.get("y") is not None:
        point = [lower["x"], lower["y"]]
    elif point is None and lower.get("x1") is not None and lower.get("y1") is not None:
        point = [lower["x1"], lower["y1"]]
    if end is None and lower.get("x2") is not None and lower.get("y2") is not None:
        end = [lower["x2"], lower["y2"]]
    return _command(verb, element, text, direction, point, end)


def _arguments(lower: Mapping[str, Any]) -> Any:
    """An object's arguments (a call's, or Anthropic's ``input``), decoded if a JSON string."""
    args = lower.get("arguments") or lower.get("args") or lower.get("parameters")
    if isinstance(args, str):
        return load_json(args)
    if args is None and isinstance(lower.get("input"), Mapping):
        return lower["input"]
    return args


def _lower_keys(obj: Mapping[Any, Any]) -> dict[str, Any]:
    return {k.lower(): v for k, v in obj.items() if isinstance(k, str)}


def _from_aitw(lower: Mapping[str, Any], name: str | int) -> Command:
    codes = {"dual_point": 4, "type": 3, "press_back": 5, "press_home": 6, "press_enter": 7,
             "status_task_complete": 10, "status_task_impossible": 11}
    try:
        code = name if isinstance(name, int) else codes.get(name.lower())
        if code is None:
            code = _integer(name.strip()) if isinstance(name, str) and _INTEGER.fullmatch(name.strip()) else name
        touch = tuple(lower.get("touch_point", (-1.0, -1.0)))
        lift = tuple(lower.get("lift_point", touch))
        aitw = AITWActionType(code)
        typed = lower.get("typed_text")  # read for a TYPE only (others write "" or nothing)
        text = _typed(typed) if aitw is AITWActionType.TYPE and typed is not None else ""
        action = Action.from_aitw(AITWAction(aitw, touch, lift, text))  # type: ignore[arg-type]
    except (InvalidActionError, ValueError, TypeError, ArithmeticError) as e:
        raise ReplyError(f"not an AITW action: {_shown(str(e), 200)}") from None
    kind = action.action_type
    if kind in (ActionType.CLICK, ActionType.SWIPE):
        return Command("tap" if action.is_tap else "scroll", action=action)
    if kind is ActionType.TYPE:
        return Command("type", text=action.text)
    return Command(kind.name.lower())


def _from_call_object(function: Mapping[str, Any]) -> Command:
    name = function.get("name")
    if not isinstance(name, str):
        raise ReplyError(f"a tool call names its function with a word, got {_shown(name)}")
    args = function.get("arguments") or function.get("input") or {}
    if isinstance(args, str):
        args = load_json(args) if args.strip() else {}
    if not isinstance(args, Mapping):
        raise ReplyError("a tool call's arguments must be a JSON object")
    if _key(name) in _TOOLS:  # mobile_use, computer: the action is among the arguments
        command = _from_json({k: v for k, v in _lower_keys(args).items() if k != "function"}, wrapped=True)
        if command is None:
            raise ReplyError(f"a {name} call names its action: {{\"action\": \"click\", ...}}")
        return command
    # the name is the action; a "function" among the arguments is no call within the call
    # (read as one, arguments nested thousands deep would exhaust the recursion)
    command = _from_json({"action": name, **{k: v for k, v in _lower_keys(args).items()
                                             if k not in ("action", "function")}})
    assert command is not None  # it has an action: a command or an error
    return command


def _from_message(reply: Mapping[str, Any] | list) -> Command:
    """An OpenAI message (its tool calls, else its content: text or a list of text
    parts), a list of tool calls, or one call."""
    calls: Any = reply
    if isinstance(reply, Mapping):
        if reply.get("tool_calls"):
            calls = reply["tool_calls"]
        elif "function" in reply:
            calls = [reply]
        elif isinstance(reply.get("content"), list) and any(
                isinstance(part, Mapping) and part.get("type") == "tool_use" for part in reply["content"]):
            calls = [part for part in reply["content"] if isinstance(part, Mapping) and part.get("type") == "tool_use"]
        elif "content" in reply:
            text = message_text(reply["content"])
            if text is None:
                raise ReplyError("a message's content is text or a list of text parts, "
                                 f"got {type(reply['content']).__name__}")
            return parse_reply(text)
        else:
            calls = [reply]
    commands = []
    for call in calls if isinstance(calls, list) else [calls]:
        if isinstance(call, Mapping) and call.get("type") == "tool_use":  # Anthropic's: name and input
            call = {"name": call.get("name"), "arguments": call.get("input")}
        function = call.get("function", call) if isinstance(call, Mapping) else None
        if not isinstance(function, Mapping):
            raise ReplyError("a tool call is an object with a function name and arguments")
        commands.append((0, 0, _from_call_object(function)))
    if not commands:
        raise ReplyError("the reply has no tool call: call one of the action tools")
    content = message_text(reply.get("content")) if isinstance(reply, Mapping) else None
    return _one(commands, content or "")


def message_text(content: Any) -> str | None:
    """A message's content as text: the text, or its text parts joined (OpenAI's
    multi-part content, read up to `MAX_REPLY` characters); None when it is neither."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        return None
    parts, length = [], 0
    for part in content:
        text = part if isinstance(part, str) else part.get("text") if isinstance(part, Mapping) else None
        if isinstance(text, str):
            parts.append(text)
            length += len(text) + 1
            if length > MAX_REPLY:
                break
    return "\n".join(parts)


# -- function style and AutoDroid ------------------------------------------------------------
# a name right before "(" (prose puts a space there), not starting inside a longer word
_CALL = re.compile(r"(?<![\w-])-*+([A-Za-z_][\w-]*+)\(")
_NUMBER = r"[-+]?+(?:\d++(?:\.\d*+)?+|\.\d++)(?:[eE][-+]?+\d++)?+"
_QUOTED = r""""[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'"""
_VALUE = rf"(?:{_QUOTED}|{_NUMBER}|[A-Za-z_]\w*+)"  # a quoted text, a number or a bare word
_ARG = re.compile(rf"(?:(\w++)\s*+=\s*+)?({_VALUE})")  # positional, or name=value
_ARGUMENTS = re.compile(rf"\s*+(?:(?:\w++\s*+=\s*+)?{_VALUE}(?:\s*+,\s*+(?:\w++\s*+=\s*+)?{_VALUE})*+)?+"
                        r"\s*+,?+\s*+\)")
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|(.))", re.S)
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"'}


def _calls(text: str) -> Iterator[tuple[int, int, str, str | None]]:
    """(start, end, name, arguments) of each ``verb(...)`` in ``text``; the arguments
    (quoted text may hold parentheses: ``type(3, "Wi-Fi (5 GHz)")``) are None when they
    are not a list of values, e.g. ``tap(the gear)``. Other names are prose."""
    for m in _CALL.finditer(text):
        name = m[1]
        if not _known(name):
            continue
        args = _ARGUMENTS.match(text, m.end())
        if args is None:
            yield m.start(1), m.end(), name, None
        else:
            yield m.start(1), args.end(), name, text[m.end():args.end() - 1]


_AUTODROID = re.compile(
    r"id\s*+=\s*+(?P<id>-?\d++)\s*+[-,;]?+\s*+action\s*+=\s*+(?P<action>[A-Za-z_/]++)"
    r"(?:\s*+[-,;]?+\s*+input[_ ]text\s*+=\s*+(?P<text>[^\n]*+))?+[^\S\n]*+(?:\n|\Z)", re.I)


def _from_autodroid(m: re.Match) -> Command:
    element = _element_id(m["id"])
    if element == -1:
        return _command(_verb("complete"))
    text = (m["text"] or "").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":  # a quoted text: its quotes go
        text = text[1:-1]
    verb = _verb(m["action"])
    if verb.name == "type":
        if not text or text.upper() == "N/A":
            raise ReplyError("action=input needs input_text")
        return _command(verb, element, text)
    return _command(verb, element)


#: A call's named arguments that hold a point, and what each is read as.
_CALL_POINTS = {**{k: "point" for k in _START_KEYS}, **{k: "end" for k in _END_KEYS}}
#: Verbs whose positional words are read already (a status, a key) or are nothing to read
#: (a wait's seconds).
_NO_VALUES = frozenset({"complete", "impossible", "back", "home", "enter", "wait"})


def _from_call(name: str, arguments: str | None) -> Command:
    """``name(arguments)`` as a command: ``tap(6)``, ``tap(540, 1200)``, ``swipe(x1, y1,
    x2, y2)``, ``type(540, 1200, "hi")``, UI-TARS's ``click(start_box='(x,y)')``."""
    if arguments is None:
        raise ReplyError(f"cannot read the arguments of {name}(...): they are numbers, quoted text or a direction")
    values, named = [], {}
    for m in _ARG.finditer(arguments):
        if m[1]:
            named[m[1].lower()] = _value(m[2])
        else:
            values.append(_value(m[2]))
    verb = _verb(name, next((named[k] for k in _ARGUMENTS_KEYS if k in named), values[0] if values else None))
    vname = verb.name
    element = named.get("element", named.get("index", named.get("id")))
    keys = {"type": _TEXT_KEYS, "open_app": _APP_KEYS}.get(vname, _ANSWER_KEYS)
    text = next((named[k] for k in keys if k in named), None)
    direction = next((named[k] for k in _DIRECTION_KEYS if k in named), None)
    points: dict[str, Any] = {"point": None, "end": None}
    for key, which in _CALL_POINTS.items():
        if key in named and points[which] is None:
            points[which] = named[key]
    for first, second, which in (("x", "y", "point"), ("x1", "y1", "point"), ("x2", "y2", "end")):
        if first in named and second in named and points[which] is None:
            points[which] = [named[first], named[second]]
    numbers = [v for v in values if isinstance(v, (int, float))]
    if len(numbers) >= 2 and vname in _POINTED and points["point"] is None:
        if len(numbers) != 2 and (len(numbers) != 4 or vname != "swipe"):
            raise ReplyError(f"{vname} takes an element or a point (x, y), got {len(numbers)} numbers")
        points["point"] = numbers[:2]
        if len(numbers) == 4:
            points["end"] = numbers[2:]
        values = [v for v in values if not isinstance(v, (int, float))]
    if vname in _NO_VALUES or _key(name) in _STATUS_VERBS or _key(name) in _KEY_VERBS:
        values = []
    for v in values:
        if isinstance(v, int) and element is None and vname in _POINTED and vname != "swipe":
            element = v
        elif isinstance(v, str) and v.strip().lower() in DIRECTIONS and vname in ("scroll", "swipe") \
                and direction is None:
            direction = v
        elif vname in ("type", "open_app", "answer") and text is None and (isinstance(v, str) or vname == "answer"):
            text = v
        elif isinstance(v, str) and _INTEGER.fullmatch(v.strip()) and element is None and vname in _POINTED:
            element = _integer(v.strip())
        else:
            raise ReplyError(f"{vname} does not take {_shown(v)} there")
    return _command(verb, element, text, direction, points["point"], points["end"])


def _value(token: str) -> Any:
    """A value of a call's arguments: quoted text (its escapes read), a number, or a bare word."""
    if token[0] in "\"'":
        return _ESCAPE.sub(_unescaped, token[1:-1])
    if token[0] not in "+-.0123456789":
        return token  # scroll(down)
    return _integer(token) if _INTEGER.fullmatch(token) else float(token)


def _unescaped(m: re.Match) -> str:
    code = m[1] or m[2] or m[3]
    if code:
        value = int(code, 16)
        return chr(value) if value <= 0x10FFFF else m[0]
    return _ESCAPED.get(m[4], m[0])
