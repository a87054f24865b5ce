"""The reply grammar on adversarial input: reading takes work linear in the reply's length
(counted, not timed), a fuzz over random and hostile replies up to `MAX_REPLY` finds no
error but `ReplyError`, and through `TextActions` / `TextObservation` no reply raises from
``env.step`` or takes an observation out of its space."""

from __future__ import annotations

import json
import sys
import time

import gymnasium as gym
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mobile_gym.errors import ReplyError
from mobile_gym.llm.grammar import MAX_REPLY, parse_reply
from mobile_gym.ui.screen_text import ScreenElements
from mobile_gym.wrappers import TextActions, TextObservation

#: Replies of ``n`` characters that made a parser do quadratic work (or worse).
HOSTILE = {
    "tap(tap(tap(": lambda n: "tap(" * (n // 4),
    "tap(1) tap(1)": lambda n: "tap(1) " * (n // 7),
    "a-a-a-": lambda n: "a-" * (n // 2),
    "``` and spaces": lambda n: "```" + " " * (n - 4) + "x",
    "id=1 and spaces": lambda n: "id=1" + " " * (n - 5) + "y",
    "input_text= and spaces": lambda n: "id=1 action=input input_text=" + " " * (n - 30) + "y",
    "{\"a\": {\"a\":": lambda n: '{"a": ' * (n // 6),
    "[[[": lambda n: "{" + "[" * (n - 1),
    "{}{}": lambda n: "{}" * (n // 2),
    "quotes in braces": lambda n: '{"' + '\\"' * (n // 2),
    "type(3, \"": lambda n: 'type(3, "' * (n // 9),
    "Action: lines": lambda n: "Action:\n" * (n // 8),
    "newlines": lambda n: "\n" * n,
    "tap(---1)": lambda n: "tap(" + "-" * (n - 6) + "1)",
    "tap(1+1+1)": lambda n: "tap(" + "1+" * (n // 2 - 3) + "1)",
    "tap(not not 1)": lambda n: "tap(" + "not " * (n // 4 - 2) + "1)",
    "AutoDroid lines": lambda n: "- id=3 - action=input - input_text=x\n" * (n // 37),
    "click(start_box='(1,": lambda n: "click(start_box='(1," * (n // 20),
    "tap(1, 2) points": lambda n: "tap(1, 2) " * (n // 10),
    "mobile_use in mobile_use": lambda n: '{"name": "mobile_use", "arguments": ' * (n // 36),
    "<tool_call> tags": lambda n: '<tool_call>{"name": "mobile_use", "arguments": {"action": "click", ' * (n // 68),
}


def lines_run(reply: str) -> int:
    """Python lines executed to read ``reply``: the parser's work, as a count."""
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        count += event == "line"
        return trace

    sys.settrace(trace)
    try:
        parse_reply(reply)
    except ReplyError:
        pass
    finally:
        sys.settrace(None)
    return count


def cpu_time(reply: str) -> float:
    """The least processor time of five reads of ``reply``."""
    times = []
    for _ in range(5):
        start = time.process_time()
        try:
            parse_reply(reply)
        except ReplyError:
            pass
        times.append(time.process_time() - start)
    return min(times)


@pytest.mark.parametrize("make", HOSTILE.values(), ids=HOSTILE.keys())
def test_reading_a_reply_takes_linear_work(make) -> None:
    """Eight times the reply, at most about eight times the work: Python lines counted
    (quadratic would be 64 times); the regular expressions' and the JSON decoder's work
    in C, which no count sees, compared in processor time with a wide margin."""
    small, large = make(2048), make(16384)
    assert len(large) <= MAX_REPLY
    assert lines_run(large) <= 12 * max(lines_run(small), 50)
    assert cpu_time(large) <= 32 * max(cpu_time(small), 1e-4)


# -- the fuzz ---------------------------------------------------------------------------------
PIECES = ["tap(", "type(", "scroll(", "back()", ")", "(", ",", "=", '"', "'", "\\", "{", "}", "[", "]", ":", "\n",
          " ", "-", "+", ".", "e", "1", "0", "9", "id=", "action=", "input_text=", "```", "```json", "Action:",
          "element", '"action"', '"action_type"', '"function"', '"arguments"', '"name"', '"touch_point"',
          "dual_point", "status", "\ud800", "\x00", "not ", "True", "None", "complete()", "tap", "type", "text=",
          "down", "1e999", "-1", "0.5", "\\u00e9", "\\x", "\\U0010ffff", "\\Uffffffff", '"typed_text"', "4",
          "click", "input", "long_press(", "N/A", "9" * 5000, "[" * 40, "{" * 40, "<tool_call>", '"mobile_use"',
          '"coordinate"', "start_box='(", "<|box_start|>", "open_app(", "terminate", '"key"', "swipe(", "1080"]
KEYS = ["action", "action_type", "element", "index", "text", "direction", "function", "name", "arguments",
        "touch_point", "lift_point", "typed_text", "goal_status", "tool_calls", "content", "x", "y", "coordinate",
        "coordinate2", "start_coordinate", "status", "button", "app_name", "input"]
pieces = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=5)), max_size=60).map("".join)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10)
    | st.sampled_from(["tap", "type", "scroll", "dual_point", "status", "click", "4", "long_press", "mobile_use",
                       "swipe", "key", "terminate", "open", "Return"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=20)
tool_calls = st.builds(lambda name, args: {"content": None, "tool_calls": [{"function": {
    "name": name, "arguments": json.dumps(args) if not isinstance(args, str) else args}}]},
    st.one_of(st.sampled_from(["tap", "type", "scroll", "back"]), json_values), st.one_of(json_values, pieces))


def repeated(most: int):
    """A piece of the grammar repeated up to ``most`` characters, in prose or not."""
    return st.builds(lambda piece, n, before: before + piece * max(1, n // len(piece)),
                     st.sampled_from(PIECES[:40]), st.integers(1, most), st.sampled_from(["", "Action: ", "x "]))


def replies(most: int):
    return st.one_of(pieces, json_values, json_values.map(json.dumps), json_values.map(lambda v: f"Action: "
                     f"{json.dumps(v)}"), tool_calls, repeated(most))


@pytest.fixture(scope="module")
def screen() -> ScreenElements:
    env = gym.make("LlamaTouch/settings-open-v0")
    env.reset(seed=0)
    yield ScreenElements.of(env.unwrapped.hierarchy)
    env.close()


def read_or_refuse(reply, screen: ScreenElements) -> None:
    """A reply is read as actions on ``screen``, or refused with a `ReplyError`."""
    try:
        actions = parse_reply(reply).actions(screen)
    except ReplyError as e:
        assert str(e) and len(str(e)) < 1000
    else:
        assert actions


@settings(max_examples=300)
@given(reply=replies(4096))
def test_fuzz_reading_replies_finds_no_untyped_error(screen, reply) -> None:
    read_or_refuse(reply, screen)


@pytest.mark.slow
@settings(max_examples=5000)
@given(reply=replies(MAX_REPLY))
def test_fuzz_reading_replies_up_to_the_longest_finds_no_untyped_error(screen, reply) -> None:
    read_or_refuse(reply, screen)


@pytest.mark.parametrize("make", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_replies_of_the_longest_length_are_refused_or_read(screen, make) -> None:
    read_or_refuse(make(MAX_REPLY), screen)


def nested(depth: int, leaf: dict, wrap) -> dict:
    """``leaf`` wrapped ``depth`` times by ``wrap``: a reply given as objects, not JSON text
    (which `MAX_JSON_DEPTH` bounds)."""
    for _ in range(depth):
        leaf = wrap(leaf)
    return leaf


@pytest.mark.parametrize("reply", [
    {"function": nested(5000, {"name": "tap", "arguments": {"element": 1}},
                        lambda inner: {"name": "tap", "arguments": {"function": inner}})},
    nested(5000, {"action": "tap", "element": 1}, lambda inner: {"action": "tap", "arguments": inner}),
    {"tool_calls": nested(100_000, [], lambda inner: [inner])},
], ids=["a call in a call's arguments", "arguments in arguments", "lists in lists"])
def test_replies_nested_as_objects_are_refused_or_read(screen, reply) -> None:
    read_or_refuse(reply, screen)


@pytest.mark.parametrize("typed, text", [(None, ""), (42, "42"), ("hi", "hi"), (["hi"], None), ({"a": 1}, None)])
def test_an_aitw_type_types_its_text_never_a_repr_of_something_else(typed, text) -> None:
    """``typed_text: null`` types nothing (as no typed_text does), not "None"; a list is no text."""
    reply = json.dumps({"action_type": 3, "typed_text": typed})  # AITW's code for TYPE
    if text is None:
        with pytest.raises(ReplyError, match="text to type must be text"):
            parse_reply(reply)
    else:
        assert parse_reply(reply).text == text


# -- through the wrappers -----------------------------------------------------------------------
ODD = [
    {"content": [{"type": "text", "text": "The gear."}, {"type": "text", "text": "tap(0)"}]},
    {"content": {"text": "tap(5)"}}, {"content": None, "tool_calls": "tap(5)"},
    {"tool_calls": [{"function": {"name": None, "arguments": "{}"}}]},
    {"tool_calls": [{"function": {"name": ["tap"], "arguments": "{}"}}]},
    {"function": {"name": "tap", "arguments": '{"element": ' + "9" * 5000 + "}"}},
    '{"action": "tap", "element": ' + "[" * 20_000 + "]" * 20_000 + "}",
    "tap(" + "1+" * 5000 + "1)", "tap(" + "-" * 30_000 + "1)", "tap(" + "not " * 8000 + "1)",
    'type(3, "caf\ud800")', "tap(\x00)", "\x00\x1b[2J\r\ufffe nothing", "Action: tap(\x00\ud800)",
    "tap(" * 8000, {"tool_calls": [[[[]]]]}, [[[]]], {"content": "x" * 100_000},
]


def test_odd_replies_never_raise_from_step_and_observations_stay_in_their_space() -> None:
    env = TextObservation(TextActions(gym.make("LlamaTouch/settings-open-v0", max_episode_steps=100)), history=50)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    for i, reply in enumerate(ODD, start=1):
        obs, reward, terminated, truncated, info = env.step(reply)
        assert env.observation_space.contains(obs), (reply, obs[-300:])
        assert info["steps"] == i and not terminated
        assert (info["parse_error"] is None) == (i == 1), (i, info["parse_error"])  # the first reads as tap(0)
    assert "\\u0000" in obs and "\\ud800" in obs  # what the space cannot hold is spelled out
