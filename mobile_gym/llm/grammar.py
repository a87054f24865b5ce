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
  "lift_point": [y, x]}`` (y first, as AITW writes them), or ``tap(0.42, 0.61)`` with
  two fractions of the screen (x, y).

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

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from mobile_gym.actions import KEY_ACTIONS, AITWAction, AITWActionType, Action, ActionType, _shown
from mobile_gym.errors import InvalidActionError, ReplyError
from mobile_gym.ui.elements import DIRECTIONS, main_list, scroll_action
from mobile_gym.ui.screen_text import ScreenElements

#: Longest reply read, in characters (a reply past it is cut, never a crash).
MAX_REPLY = 32_768


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "element" (an id of the screen), "text", "direction"
    description: str
    required: bool = True


@dataclass(frozen=True)
class Verb:
    name: str
    params: tuple[Param, ...]
    description: str
    synonyms: tuple[str, ...] = ()


_ELEMENT = Param("element", "element", "The id of the element, as the screen lists it.")
_FIELD = Param("element", "element", "The id of the text field; leave out to type into the focused one.",
               required=False)
_TEXT = Param("text", "text", "The text to type.")
_DIRECTION = Param("direction", "direction", "Where the content to bring into view is: up, down, left or right.")
_LIST = Param("element", "element", "The id of the list to scroll; leave out for the screen's main list.",
              required=False)

#: Every verb a reply may use, with its arguments: the tool schema and the parser both read this.
VERBS: tuple[Verb, ...] = (
    Verb("tap", (_ELEMENT,), "Tap an element.", ("click", "press", "touch", "select", "tap_element", "click_element")),
    Verb("type", (_FIELD, _TEXT), "Type text into a text field (tapped first if it has no focus).",
         ("input", "input_text", "type_text", "enter_text", "write", "set_text", "fill")),
    Verb("scroll", (_LIST, _DIRECTION), "Scroll a list to bring what is in a direction into view.",
         ("swipe", "scroll_to")),
    Verb("back", (), "Press the system Back button.", ("navigate_back", "go_back", "press_back")),
    Verb("home", (), "Press the system Home button.", ("navigate_home", "go_home", "press_home")),
    Verb("enter", (), "Press Enter on the keyboard (submits a search or a form).",
         ("keyboard_enter", "press_enter", "submit")),
    Verb("complete", (), "Say the task is done.", ("done", "finish", "finished", "task_complete", "stop")),
    Verb("impossible", (), "Say the task cannot be done here.",
         ("infeasible", "give_up", "not_possible", "task_impossible")),
)
_BY_NAME = {name: verb for verb in VERBS for name in (verb.name, *verb.synonyms)}
#: Verbs named the way models name them but that no action of the env does.
_UNSUPPORTED = {"long_press": "a long press is not an action of this env",
                "open_app": "apps are opened from the home screen: go home() and tap the app's icon",
                "wait": "there is no waiting: the screen is settled after every action"}


@dataclass(frozen=True)
class Command:
    """One parsed reply: a verb and its arguments (or a raw `Action` for coordinates)."""

    verb: str
    element: int | None = None
    text: str | None = None
    direction: str | None = None
    action: Action | None = None  # given by coordinates (AITW style), not by element
    reasoning: str = field(default="", compare=False)

    def actions(self, screen: ScreenElements) -> list[Action]:
        """The env actions that carry it out on ``screen``; a `ReplyError` when it
        names what the screen does not have."""
        if self.action is not None:
            return [self.action]
        try:
            if self.verb in ("tap", "type", "scroll") and self.element is not None:
                return screen.actions_for(self.element, self.verb, self.text, self.direction)
            if self.verb == "type":
                return [Action.type_text(self.text or "")]
            if self.verb == "scroll":  # the list under the screen's centre, else the middle of the screen
                main = main_list(screen.elements, screen.size)
                if main is not None:
                    return screen.actions_for(main.index, "scroll", direction=self.direction)
                return [scroll_action(None, self.direction or "down", screen.size)]
        except InvalidActionError as e:
            raise ReplyError(str(e)) from None
        return [KEY_ACTIONS[self.verb]]


def tool_schema() -> list[dict[str, Any]]:
    """`VERBS` as OpenAI tools (``tools=`` of a chat completion)."""
    tools = []
    for verb in VERBS:
        properties: dict[str, Any] = {}
        for p in verb.params:
            spec: dict[str, Any] = {"description": p.description}
            if p.kind == "element":
                spec["type"] = "integer"
            elif p.kind == "direction":
                spec.update(type="string", enum=list(DIRECTIONS))
            else:
                spec["type"] = "string"
            properties[p.name] = spec
        tools.append({"type": "function", "function": {
            "name": verb.name, "description": verb.description,
            "parameters": {"type": "object", "properties": properties,
                           "required": [p.name for p in verb.params if p.required],
                           "additionalProperties": False}}})
    return tools


def grammar_help() -> str:
    """The function-style grammar, one verb a line, for a prompt (``[element, ]``: an
    argument that may be left out)."""
    lines = []
    for verb in VERBS:
        args = "".join(f"{p.name}, " if p.required else f"[{p.name}, ]" for p in verb.params).rstrip(", ")
        lines.append(f"{verb.name}({args}) - {verb.description}")
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
        found = _commands(text[last.end():])
        if found:
            return _one(found, text[:last.start()])
    fences = _FENCE.findall(text)
    if fences:
        found = _commands(fences[-1])
        if found:
            return _one(found, text[:text.rfind("```", 0, text.rfind("```"))])
    found = _commands(text)
    if not found:
        raise ReplyError("no action found in the reply: answer with one action, e.g. tap(3), "
                         'type(2, "text"), scroll(down), back(), complete()')
    return _one(found, text[:found[0][0]])


# Possessive quantifiers (``*+``) and atomic choices keep every pattern linear: a match
# that fails gives nothing back to try again from.
_ACTION_LINE = re.compile(r"(?im)^(?:[^\S\n]|[>*#-])*+(?:final\s++answer|final\s++action|next\s++action|action|answer)"
                          r"\**+\s*+[:=]")
_FENCE = re.compile(r"```(?:json|python|text)?+\s*+(.*?)```", re.S | re.I)


def _one(found: list[tuple[int, Command]], reasoning: str) -> Command:
    commands = list(dict.fromkeys(c for _, c in found))
    if len(commands) > 1:
        raise ReplyError("the reply names several actions (" + ", ".join(spelled(c) for c in commands[:4])
                         + "): answer with exactly one")
    command = commands[0]
    return Command(command.verb, command.element, command.text, command.direction, command.action,
                   reasoning.strip()[:4000])


def spelled(c: Command) -> str:
    """A command as the function-style call that names it (``type(3, 'hi')``)."""
    if c.action is not None:
        return str(c.action)
    args = [repr(a) for a in (c.element, c.text, c.direction) if a is not None]
    return f"{c.verb}({', '.join(args)})"


def _commands(text: str) -> list[tuple[int, Command]]:
    """Every action ``text`` names, with where it starts; JSON first, then AutoDroid's
    form, then calls (a call inside a JSON string is not counted twice). An action that
    is named wrong is an error only when nothing else in ``text`` reads as an action (a
    "tap(Settings)" in the reasoning does not spoil the answer after it)."""
    found: list[tuple[int, Command]] = []
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
            found.append((start, command))
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
    return _key(name) in _BY_NAME


def _verb(name: Any) -> Verb:
    if not isinstance(name, str) or not name.strip():
        raise ReplyError(f"the action's name must be a word, got {_shown(name)}")
    key = _key(name)
    if key in _UNSUPPORTED:
        raise ReplyError(f"{_shown(name)}: {_UNSUPPORTED[key]}")
    verb = _BY_NAME.get(key)
    if verb is None:
        raise ReplyError(f"unknown action {_shown(name)}: use one of {', '.join(v.name for v in VERBS)}")
    return verb


def _command(verb: Verb, element: Any = None, text: Any = None, direction: Any = None) -> Command:
    """A checked command: the verb's required arguments present and of the right kind."""
    if element is not None:
        element = _element_id(element)
    if text is not None and verb.name == "type":
        text = _typed(text)
    if direction is not None:
        if not isinstance(direction, str) or direction.strip().lower() not in DIRECTIONS:
            raise ReplyError(f"scroll direction must be one of {', '.join(DIRECTIONS)}, got {_shown(direction)}")
        direction = direction.strip().lower()
    given = {"element": element, "text": text, "direction": direction}
    missing = [p.name for p in verb.params if p.required and given[p.name] is None]
    if missing:
        raise ReplyError(f"{verb.name} needs {' and '.join(missing)}")
    return Command(verb.name, element if any(p.name == "element" for p in verb.params) else None,
                   text if verb.name == "type" else None, direction if verb.name == "scroll" else None)


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
    the objects in it are tried: a character is decoded at most ``MAX_JSON_DEPTH + 1``
    times, so the time is linear."""
    todo = _bracket_tree(text)[::-1]
    while todo:
        start, end, height, children = todo.pop()
        if text[start] == "{" and height <= MAX_JSON_DEPTH:
            try:
                obj = json.loads(text[start:end])
            except ValueError:  # not JSON, or a number of thousands of digits
                obj = None
            if isinstance(obj, dict):
                yield start, end, obj
                continue
        todo.extend(children[::-1])


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


def _from_json(obj: Mapping[str, Any]) -> Command | None:
    """The command a JSON object spells, None when it is no action (e.g. a nested
    "arguments" object); a `ReplyError` when it is one, but wrong."""
    lower = _lower_keys(obj)
    if isinstance(lower.get("function"), Mapping):  # a tool call
        return _from_call_object(lower["function"])
    name = next((lower[k] for k in _VERB_KEYS if isinstance(lower.get(k), (str, int))
                 and not isinstance(lower[k], bool)), None)
    if name is None:
        name = next((lower[k] for k in _NAME_KEYS if isinstance(lower.get(k), str) and _known(lower[k])), None)
    if name is None:
        return None  # not an action (e.g. {"element": 3} in the reasoning)
    if "touch_point" in lower or isinstance(name, int) or name.lower() in ("dual_point", "4"):
        return _from_aitw(lower, name)
    if name.lower() == "status":  # AndroidWorld: {"action_type": "status", "goal_status": ...}
        status = lower.get("goal_status")
        status = status.lower() if isinstance(status, str) else ""
        return _command(_verb("impossible" if status in ("infeasible", "impossible") else "complete"))
    verb = _verb(name)
    args = lower.get("arguments") or lower.get("args") or lower.get("parameters")
    if isinstance(args, str):
        args = load_json(args)
    if isinstance(args, Mapping):
        lower = {**lower, **_lower_keys(args)}
    element = next((lower[k] for k in _ELEMENT_KEYS if k in lower and lower[k] is not None), None)
    text = next((lower[k] for k in _TEXT_KEYS if k in lower and lower[k] is not None), None)
    direction = lower.get("direction")
    return _command(verb, element, text if verb.name == "type" else None, direction)


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
    args = function.get("arguments") or {}
    if isinstance(args, str):
        args = load_json(args) if args.strip() else {}
    if not isinstance(args, Mapping):
        raise ReplyError("a tool call's arguments must be a JSON object")
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
        function = call.get("function", call) if isinstance(call, Mapping) else None
        if not isinstance(function, Mapping):
            raise ReplyError("a tool call is an object with a function name and arguments")
        commands.append((0, _from_call_object(function)))
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
        if not _known(name) and _key(name) not in _UNSUPPORTED:
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


def _from_call(name: str, arguments: str | None) -> Command:
    """``name(arguments)`` as a command."""
    verb = _verb(name)
    if arguments is None:
        raise ReplyError(f"cannot read the arguments of {name}(...): they are numbers, quoted text or a direction")
    values, named = [], {}
    for m in _ARG.finditer(arguments):
        if m[1]:
            named[m[1].lower()] = _value(m[2])
        else:
            values.append(_value(m[2]))
    numbers_ = [v for v in values if isinstance(v, (int, float))]
    if verb.name == "tap" and len(values) == 2 and len(numbers_) == 2 and any(isinstance(v, float) for v in values):
        x, y = values
        try:
            return Command("tap", action=Action.click(float(x), float(y)))
        except InvalidActionError as e:
            raise ReplyError(f"tap({x}, {y}): coordinates are fractions of the screen from 0 to 1 ({e})") from None
    element = named.get("element", named.get("index", named.get("id")))
    text = named.get("text")
    direction = named.get("direction")
    for v in values:
        if isinstance(v, int) and element is None:
            element = v
        elif isinstance(v, str) and v.strip().lower() in DIRECTIONS and verb.name == "scroll" and direction is None:
            direction = v
        elif isinstance(v, str) and verb.name == "type" and text is None:
            text = v
        elif isinstance(v, str) and _INTEGER.fullmatch(v.strip()) and element is None:
            element = _integer(v.strip())
        else:
            raise ReplyError(f"{verb.name} does not take {_shown(v)} there")
    return _command(verb, element, text, direction)


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
