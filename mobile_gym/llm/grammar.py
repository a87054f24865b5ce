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
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from mobile_gym.actions import KEY_ACTIONS, AITWAction, AITWActionType, Action, ActionType
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
    as a dict); a `ReplyError` otherwise."""
    if isinstance(reply, Mapping) or isinstance(reply, list):
        return _from_tool_calls(reply)
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


_ACTION_LINE = re.compile(r"(?im)^[\s>*#-]*(?:final\s+answer|final\s+action|next\s+action|action|answer)\**\s*[:=]")
_FENCE = re.compile(r"```(?:json|python|text)?\s*(.*?)```", re.S | re.I)


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
    errors: list[ReplyError] = []
    taken: list[tuple[int, int]] = []

    def read(start: int, end: int, make, *args) -> None:
        try:
            command = make(*args)
        except ReplyError as e:
            errors.append(e)
            taken.append((start, end))
            return
        if command is not None:
            found.append((start, command))
            taken.append((start, end))

    for start, end, obj in _json_objects(text):
        read(start, end, _from_json, obj)
    for m in _AUTODROID.finditer(text):
        if not _within(m.start(), taken):
            read(m.start(), m.end(), _from_autodroid, m)
    for start, end, name, args in _calls(text):
        if not _within(start, taken):
            read(start, end, _from_call, name, args)
    if not found and errors:
        raise errors[-1]
    found.sort(key=lambda item: item[0])
    return found


def _within(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= position < b for a, b in spans)


def _json_objects(text: str):
    """(start, end, object) of each JSON object in ``text`` (outermost only)."""
    decoder = json.JSONDecoder()
    i = text.find("{")
    while i >= 0:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            yield i, end, obj
        i = text.find("{", end)


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def _known(name: str) -> bool:
    return _key(name) in _BY_NAME


def _verb(name: Any) -> Verb:
    if not isinstance(name, str) or not name.strip():
        raise ReplyError(f"the action's name must be a word, got {name!r}")
    key = _key(name)
    if key in _UNSUPPORTED:
        raise ReplyError(f"{name}: {_UNSUPPORTED[key]}")
    verb = _BY_NAME.get(key)
    if verb is None:
        raise ReplyError(f"unknown action {name!r}: use one of {', '.join(v.name for v in VERBS)}")
    return verb


def _command(verb: Verb, element: Any = None, text: Any = None, direction: Any = None) -> Command:
    """A checked command: the verb's required arguments present and of the right kind."""
    if element is not None:
        element = _element_id(element)
    if text is not None and not isinstance(text, str):
        text = str(text)
    if direction is not None:
        direction = str(direction).strip().lower()
        if direction not in DIRECTIONS:
            raise ReplyError(f"scroll direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    given = {"element": element, "text": text, "direction": direction}
    missing = [p.name for p in verb.params if p.required and given[p.name] is None]
    if missing:
        raise ReplyError(f"{verb.name} needs {' and '.join(missing)}")
    return Command(verb.name, element if any(p.name == "element" for p in verb.params) else None,
                   text if verb.name == "type" else None, direction if verb.name == "scroll" else None)


def _element_id(value: Any) -> int:
    if isinstance(value, bool):
        raise ReplyError(f"an element id is a whole number, got {value!r}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        value = int(value)
    if not isinstance(value, int):
        raise ReplyError(f"an element id is a whole number, got {value!r}")
    return value


# -- JSON and tool calls -----------------------------------------------------------------
_VERB_KEYS = ("action", "action_type")  # an unknown verb under these is an error
_NAME_KEYS = ("name", "function", "tool", "command", "type")  # these name an action only with a verb
_ELEMENT_KEYS = ("element", "index", "id", "element_id", "elementid", "target")
_TEXT_KEYS = ("text", "input_text", "typed_text", "value", "content")


def _from_json(obj: Mapping[str, Any]) -> Command | None:
    """The command a JSON object spells, None when it is no action (e.g. a nested
    "arguments" object); a `ReplyError` when it is one, but wrong."""
    lower = {str(k).lower(): v for k, v in obj.items()}
    if "function" in lower and isinstance(lower["function"], Mapping):  # a tool call
        return _from_call_object(lower["function"])
    name = next((lower[k] for k in _VERB_KEYS if isinstance(lower.get(k), (str, int))), None)
    if name is None:
        name = next((lower[k] for k in _NAME_KEYS if isinstance(lower.get(k), str) and _known(lower[k])), None)
    if name is None:
        return None  # not an action (e.g. {"element": 3} in the reasoning)
    if "touch_point" in lower or isinstance(name, int) or str(name).lower() in ("dual_point", "4"):
        return _from_aitw(lower, name)
    if str(name).lower() == "status":  # AndroidWorld: {"action_type": "status", "goal_status": ...}
        status = str(lower.get("goal_status", "")).lower()
        return _command(_verb("impossible" if status in ("infeasible", "impossible") else "complete"))
    verb = _verb(name)
    args = lower.get("arguments") or lower.get("args") or lower.get("parameters")
    if isinstance(args, str):
        args = _loads(args)
    if isinstance(args, Mapping):
        lower = {**lower, **{str(k).lower(): v for k, v in args.items()}}
    element = next((lower[k] for k in _ELEMENT_KEYS if k in lower and lower[k] is not None), None)
    text = next((lower[k] for k in _TEXT_KEYS if k in lower and lower[k] is not None), None)
    direction = lower.get("direction")
    return _command(verb, element, text if verb.name == "type" else None, direction)


def _from_aitw(lower: Mapping[str, Any], name: Any) -> Command:
    codes = {"dual_point": 4, "type": 3, "press_back": 5, "press_home": 6, "press_enter": 7,
             "status_task_complete": 10, "status_task_impossible": 11}
    code = name if isinstance(name, int) else codes.get(str(name).lower(), None)
    if code is None and str(name).isdigit():
        code = int(name)
    try:
        touch = tuple(lower.get("touch_point", (-1.0, -1.0)))
        lift = tuple(lower.get("lift_point", touch))
        action = Action.from_aitw(AITWAction(AITWActionType(code), touch, lift,  # type: ignore[arg-type]
                                             str(lower.get("typed_text", ""))))
    except (InvalidActionError, ValueError, TypeError) as e:
        raise ReplyError(f"not an AITW action: {e}") from None
    kind = action.action_type
    if kind in (ActionType.CLICK, ActionType.SWIPE):
        return Command("tap" if action.is_tap else "scroll", action=action)
    if kind is ActionType.TYPE:
        return Command("type", text=action.text)
    return Command(kind.name.lower())


def _from_call_object(function: Mapping[str, Any]) -> Command:
    args = function.get("arguments") or {}
    if isinstance(args, str):
        args = _loads(args) if args.strip() else {}
    if not isinstance(args, Mapping):
        raise ReplyError("a tool call's arguments must be a JSON object")
    return _from_json({"action": function.get("name"), **{str(k): v for k, v in args.items() if k != "action"}})


def _from_tool_calls(reply: Any) -> Command:
    calls: Any = reply
    if isinstance(reply, Mapping):
        if reply.get("tool_calls"):
            calls = reply["tool_calls"]
        elif "function" in reply:
            calls = [reply]
        elif isinstance(reply.get("content"), str):
            return parse_reply(reply["content"])
        else:
            calls = [reply]
    commands = []
    for call in calls if isinstance(calls, list) else [calls]:
        if not isinstance(call, Mapping):
            raise ReplyError("a tool call is an object with a function name and arguments")
        function = call.get("function", call)
        if not isinstance(function, Mapping):
            raise ReplyError("a tool call is an object with a function name and arguments")
        commands.append((0, _from_call_object(function)))
    if not commands:
        raise ReplyError("the reply has no tool call: call one of the action tools")
    content = reply.get("content") if isinstance(reply, Mapping) else None
    return _one(commands, content if isinstance(content, str) else "")


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as e:
        raise ReplyError(f"the arguments are not JSON ({e.msg})") from None


# -- function style and AutoDroid ------------------------------------------------------------
_CALL = re.compile(r"\b([A-Za-z_][\w\-]*)\(")  # no space before "(": prose has one


def _calls(text: str):
    """(start, end, name, arguments) of each ``name(...)`` in ``text``, the closing
    parenthesis found past quoted text (``type(3, "Wi-Fi (5 GHz)")``)."""
    for m in _CALL.finditer(text):
        depth, quote, i = 1, "", m.end()
        while i < len(text) and depth:
            c = text[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = ""
            elif c in "'\"":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        if depth == 0:
            yield m.start(), i, m.group(1), text[m.end():i - 1]
_AUTODROID = re.compile(
    r"id\s*=\s*(?P<id>-?\d+)\s*[-,;]?\s*action\s*=\s*(?P<action>[A-Za-z_/]+)"
    r"(?:\s*[-,;]?\s*input[_ ]text\s*=\s*(?P<text>.*?))?\s*(?:$|\n)", re.I)


def _from_autodroid(m: re.Match) -> Command:
    element = int(m.group("id"))
    if element == -1:
        return _command(_verb("complete"))
    text = (m.group("text") or "").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":  # a quoted text: its quotes go
        text = text[1:-1]
    verb = _verb(m.group("action"))
    if verb.name == "type":
        if not text or text.upper() == "N/A":
            raise ReplyError("action=input needs input_text")
        return _command(verb, element, text)
    return _command(verb, element)


def _from_call(name: str, args: str) -> Command | None:
    """``name(args)`` as a command, None when ``name`` is no verb (prose like "the
    settings (gear) icon")."""
    if not _known(name) and _key(name) not in _UNSUPPORTED:
        return None
    verb = _verb(name)
    try:
        call = ast.parse(f"f({args})", mode="eval").body
    except SyntaxError:
        raise ReplyError(f"cannot read the arguments of {name}({args})") from None
    assert isinstance(call, ast.Call)
    values = [_literal(a) for a in call.args]
    named = {k.arg.lower(): _literal(k.value) for k in call.keywords if k.arg}
    numbers_ = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
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
        if isinstance(v, int) and not isinstance(v, bool) and element is None:
            element = v
        elif isinstance(v, str) and v.strip().lower() in DIRECTIONS and verb.name == "scroll" and direction is None:
            direction = v
        elif isinstance(v, str) and verb.name == "type" and text is None:
            text = v
        elif isinstance(v, str) and re.fullmatch(r"-?\d+", v.strip()) and element is None:
            element = int(v)
        else:
            raise ReplyError(f"{verb.name} does not take {v!r} there")
    return _command(verb, element, text, direction)


def _literal(node: ast.expr) -> Any:
    if isinstance(node, ast.Name):
        return node.id  # scroll(down): a bare word
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise ReplyError("arguments are numbers, quoted text or a direction") from None
