"""The language-model side without a model: a screen as text and back, the reply grammar
on a corpus of realistic replies, the tool schema, and the text wrappers driven by
scripted "models" that read the screen text."""

from __future__ import annotations

import json
import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mobile_gym.actions import Action
from mobile_gym.errors import InvalidActionError
from mobile_gym.errors import ReplyError
from mobile_gym.llm.grammar import VERBS, parse_reply, spelled, tool_schema
from mobile_gym.tasks.suite import select_simulator_tasks
from mobile_gym.ui.screen_text import ScreenElements
from mobile_gym.wrappers import TextActions, TextObservation
from scripted_models import RULES, scripted_reply

# reply -> the command it names (spelled as a call), or None: a parse error
CORPUS = [
    ("tap(6)", "tap(6)"),
    ("TAP(6)", "tap(6)"),
    ("Click(6)", "tap(6)"),
    ("The Settings icon is element 5.\nAction: tap(5)", "tap(5)"),
    ("I should open Chrome first, not tap(2) which is Maps.\nAction: tap(7)", "tap(7)"),
    ("Thought: the list continues below.\n**Action:** scroll(down)", "scroll('down')"),
    ('```json\n{"action": "tap", "element": 6}\n```', "tap(6)"),
    ('Sure! Here is my answer:\n```\n{"action": "TAP", "element": "6"}\n```\nLet me know.', "tap(6)"),
    ('{"action_type": "click", "index": 6}', "tap(6)"),
    ('Reason: the search box is at the top.\nAction: {"action_type": "input_text", "text": "bestbuy.com", "index": 1}',
     "type(1, 'bestbuy.com')"),
    ('{"action_type": "scroll", "direction": "down"}', "scroll('down')"),
    ('{"action_type": "scroll", "direction": "up", "index": 0}', "scroll(0, 'up')"),
    ('{"action_type": "navigate_back"}', "back()"),
    ('{"action_type": "navigate_home"}', "home()"),
    ('{"action_type": "keyboard_enter"}', "enter()"),
    ('{"action_type": "status", "goal_status": "complete"}', "complete()"),
    ('{"action_type": "status", "goal_status": "infeasible"}', "impossible()"),
    ('type(3, "hello world")', "type(3, 'hello world')"),
    ("type('hello')", "type('hello')"),
    ('type(element=3, text="a, b (c)")', "type(3, 'a, b (c)')"),  # parentheses inside quoted text
    ("- id=3 - action=input - input_text=it's \"quoted\"", "type(3, 'it\\'s \"quoted\"')"),
    ("The next step should be tap(Settings).\n- id=5 - action=tap - input text=N/A", "tap(5)"),
    ('type(element=3, text="a, b")', "type(3, 'a, b')"),
    ("scroll(down)", "scroll('down')"),
    ('scroll(2, "UP")', "scroll(2, 'up')"),
    ("back()", "back()"), ("Home()", "home()"), ("press_enter()", "enter()"),
    ("The cart is empty now, so the task is done. complete()", "complete()"),
    ("This app has no such setting. impossible()", "impossible()"),
    ("- id=6 - action=tap - input_text=N/A", "tap(6)"),
    ("Fill in the blanks:\n- id=3 - action=input - input_text=bestbuy.com", "type(3, 'bestbuy.com')"),
    ("- id=-1 - action=N/A - input_text=N/A", "complete()"),
    ("id=4, action=TAP, input text=N/A", "tap(4)"),
    ('{"action_type": "dual_point", "touch_point": [0.3, 0.4], "lift_point": [0.3, 0.4], "typed_text": ""}',
     str(Action.click(0.4, 0.3))),
    ('{"action_type": 4, "touch_point": [0.8, 0.5], "lift_point": [0.3, 0.5], "typed_text": ""}',
     str(Action.swipe(0.5, 0.8, 0.5, 0.3))),
    ('{"action_type": 5, "touch_point": [-1, -1], "lift_point": [-1, -1], "typed_text": ""}', "back()"),
    ("tap(0.42, 0.61)", "tap((0.42, 0.61))"),  # a point, as written: its frame reads it (test_llm_coordinates)
    ("long_press(3)", "long_press(3)"), ("open_app('Chrome')", "open_app('Chrome')"), ("wait()", "wait()"),
    ('{"action_type": "open_app", "app_name": "Chrome"}', "open_app('Chrome')"),
    ('{"action_type": "answer", "text": "42"}', "answer('42')"), ("double_tap(2)", "double_tap(2)"),
    ('I will press (the gear icon) now: tap(4)', "tap(4)"),
    ('{"name": "John"} is not an action; tap(4) is.', "tap(4)"),
    # not one action: a parse error, never a guess
    ("I could tap(2) or tap(3).", None),
    ('{"action": "tap", "element": 2} or {"action": "tap", "element": 3}', None),
    ("hello", None), ("", None), ("   \n ", None),
    ("tap(Settings)", None), ("tap()", None), ("tap(1, 2, 3)", None), ("long_press()", None),
    ("open_app('')", None), ('{"action": "fly", "element": 3}', None), ("scroll(sideways)", None),
    ('{"action_type": "dismiss", "x": 540, "y": 1200}', None), ('{"action_type": "status", "goal_status": "maybe"}', None),
    ('{"action": "type", "element": 3}', None), ("- id=3 - action=input - input_text=N/A", None),
    ('{"action_type": "dual_point", "touch_point": [3, 4], "lift_point": [3, 4]}', None),
    ('{"action": "tap", "element": true}', None), ("tap(True)", None),
]


@pytest.mark.parametrize("reply, expected", CORPUS)
def test_reply_corpus(reply: str, expected: str | None) -> None:
    if expected is None:
        with pytest.raises(ReplyError):
            parse_reply(reply)
    else:
        assert spelled(parse_reply(reply)) == expected


def test_tool_calls_in_every_shape() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "type",
                                                         "arguments": json.dumps({"element": 3, "text": "hi"})}}
    message = {"role": "assistant", "content": "The field is 3.", "tool_calls": [call]}
    for reply in (message, [call], call, call["function"]):
        command = parse_reply(reply)
        assert spelled(command) == "type(3, 'hi')"
    assert parse_reply(message).reasoning == "The field is 3."
    assert spelled(parse_reply({"role": "assistant", "content": "back()"})) == "back()"
    for bad in ({"tool_calls": [call, {**call, "function": {"name": "back", "arguments": "{}"}}]},
                {"function": {"name": "tap", "arguments": "{not json"}}, [], 42, None):
        with pytest.raises(ReplyError):
            parse_reply(bad)


def test_the_tool_schema_is_the_grammar() -> None:
    """Every verb is a tool; a call made from a tool's own schema parses back to it."""
    tools = tool_schema()
    assert [t["function"]["name"] for t in tools] == [v.name for v in VERBS]
    json.dumps(tools)  # plain JSON
    examples = {"element": 2, "text": "hello", "app": "Clock", "direction": "up"}
    points = {"x": 540, "y": 1200, "x2": 540, "y2": 600}
    for tool in tools:
        f = tool["function"]
        params = f["parameters"]
        assert params["type"] == "object" and set(params["required"]) <= set(params["properties"])
        # by element (and the other arguments), then by point where the verb takes one
        args = {name: examples[name] for name in params["properties"] if name in examples}
        command = parse_reply({"function": {"name": f["name"], "arguments": json.dumps(args)}})
        assert command.verb == f["name"]
        assert command.element == args.get("element") and command.direction == args.get("direction")
        assert command.text == args.get("text", args.get("app"))
        if "x" in params["properties"]:
            args = {**{k: v for k, v in args.items() if k not in ("element", "direction")},
                    **{k: v for k, v in points.items() if k in params["properties"]}}
            args.setdefault("direction", "up") if f["name"] == "scroll" else None
            command = parse_reply({"function": {"name": f["name"], "arguments": json.dumps(args)}})
            assert command.verb == f["name"] and command.element is None and command.point == (540, 1200)
            assert command.end == ((540, 600) if "x2" in params["properties"] else None)
    for tool in tool_schema(points=False):  # for a model that sees no screenshot: elements only
        assert not {"x", "y", "x2", "y2"} & set(tool["function"]["parameters"]["properties"])


def walk_screens(steps: int = 20):
    """Screens of every simulator task along a seeded random walk."""
    for task in select_simulator_tasks("*"):
        env = gym.make(task.env_id, dynamics="default").unwrapped
        rng = np.random.default_rng(1)
        env.reset(seed=1)
        for _ in range(steps):
            yield env.hierarchy
            _, _, terminated, truncated, _ = env.step(Action.click(*rng.uniform(0.03, 0.97, 2)))
            if terminated or truncated:
                env.reset()


def test_every_id_of_the_text_taps_inside_its_element() -> None:
    """For every element of every walked screen, ``tap(id)`` lands inside the element, on
    a part of it no other window covers, and Android routes it to that element."""
    screens = 0
    for hierarchy in walk_screens():
        screen = ScreenElements(hierarchy)
        html = screen.html()
        assert [int(i) for i in re.findall(r" id=(\d+)", html)] == list(range(len(screen)))
        w, h = screen.size
        for e in screen.elements:
            (tap,) = screen.actions_for(e.index, "tap")
            x, y = tap.touch[0] * w, tap.touch[1] * h
            assert e.visible.contains(x, y) and e.node.bounds.contains(x, y)
            top = next(r for r in reversed(hierarchy.roots) if r.bounds.contains(x, y))
            assert top is next(a for a in [e.node, *e.node.ancestors()] if a.parent is None)
            if e.node.flags["clickable"]:  # the tap goes to it, or to a control inside it
                target = hierarchy.clickable_at(x, y)
                assert target is e.node or e.node in target.ancestors(), (e, target)
        screens += 1
    assert screens >= 30 * 20


def test_element_ids_outside_the_screen_are_clear_errors() -> None:
    env = gym.make("LlamaTouch/settings-open-v0")
    env.reset(seed=0)
    screen = ScreenElements(env.unwrapped.hierarchy)
    for bad in (-1, len(screen), "x", 1.5, True, None):
        with pytest.raises(InvalidActionError, match="no element"):
            screen.actions_for(bad, "tap")
    with pytest.raises(InvalidActionError, match="not a text field"):
        screen.actions_for(0, "type", "hi")
    with pytest.raises(InvalidActionError, match="verb"):
        screen.actions_for(0, "long_press")


def test_typing_into_a_field_without_focus_taps_it_first() -> None:
    env = TextActions(gym.make("LlamaTouch/bestbuy-empty-cart-v0"))
    env.reset(seed=0)
    env.step("tap(7)")  # Chrome
    env.step("tap(0)")  # No thanks
    screen = env.screen()
    field = next(e for e in screen.elements if e.editable)
    assert not field.node.flags["focused"]
    _, _, _, _, info = env.step(f'type({field.index}, "bestbuy.com")')
    assert info["actions"] == [str(Action.click(*field.point)), "TYPE('bestbuy.com')"] and info["steps"] == 4
    focused = next(e for e in env.screen().elements if e.editable)
    assert focused.node.flags["focused"] and focused.node.text == "bestbuy.com"
    _, _, _, _, info = env.step(f'type({focused.index}, ".")')  # focused: typed at once
    assert info["actions"] == ["TYPE('.')"] and info["steps"] == 5


@pytest.mark.parametrize("task", sorted(RULES))
@pytest.mark.parametrize("seed", [0, 7])
def test_a_scripted_model_reading_the_text_solves_the_task(task: str, seed: int) -> None:
    env = TextObservation(TextActions(gym.make(f"LlamaTouch/{task}-v0", dynamics="default")))
    obs, info = env.reset(seed=seed)
    for _ in range(20):
        obs, reward, terminated, truncated, info = env.step(scripted_reply(task, obs))
        assert info["parse_error"] is None, info["parse_error"]
        if terminated or truncated:
            break
    assert info["success"] and terminated
    assert "Previous actions:" in obs


def test_unusable_replies_count_a_step_and_come_back_in_the_text() -> None:
    env = TextObservation(TextActions(gym.make("LlamaTouch/settings-open-v0")), history=2)
    env.reset(seed=0)
    replies = ["tap(5) or tap(6)", "", "x" * 40_000, {"tool_calls": "nope"}, None, 3, "scroll(3, 'down')"]
    for i, reply in enumerate(replies, start=1):
        obs, reward, terminated, truncated, info = env.step(reply)
        assert info["steps"] == i and reward == 0.0 and not terminated
        assert info["parse_error"] and info["parse_error"] in obs
        assert obs.count("\n1. ") + obs.count("\n2. ") + obs.count(f"\n{i - 1}. ") + obs.count(f"\n{i}. ") >= 1
    assert "6. " in obs and "7. " in obs and "5. " not in obs  # the last two only


def test_text_observation_options_and_checkers() -> None:
    env = TextObservation(TextActions(gym.make("LlamaTouch/settings-open-v0")), format="list", screenshot=True)
    obs, _ = env.reset(seed=0)
    assert "5. button: Settings" in obs["text"] and obs["screenshot"].startswith("iVBOR")  # a PNG
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env warns that it is given a wrapped env
        check_env(TextObservation(TextActions(gym.make("LlamaTouch/settings-open-v0"))), skip_render_check=True)
    for kwargs in ({"history": -1}, {"format": "xml"}, {"screenshot": "yes"}):
        with pytest.raises(Exception, match="history|format|screenshot"):
            TextObservation(gym.make("LlamaTouch/settings-open-v0"), **kwargs)
