"""Action validation (every malformed action an `InvalidActionError`, through `Action`,
`Action.from_gym` and ``env.step``) and lossless conversions to AITW, AgentEnv and
eventStructs."""

from __future__ import annotations

import math
from decimal import Decimal

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import ACTION_SETS, MAX_TEXT_LENGTH, Action, ActionType, AITWAction, AITWActionType
from mobile_gym.errors import InvalidActionError, MobileGymError

coord = st.floats(0, 1, allow_nan=False)
texts = st.text(max_size=60)


@st.composite
def actions(draw):
    kind = draw(st.sampled_from(list(ActionType)))
    if kind is ActionType.CLICK:
        return Action.click(draw(coord), draw(coord))
    if kind is ActionType.SWIPE:
        x1, y1, x2, y2 = (draw(coord) for _ in range(4))
        if (x1, y1) == (x2, y2):
            x2 = 1.0 - x2 if x2 != 0.5 else 0.0
        return Action.swipe(x1, y1, x2, y2)
    if kind in (ActionType.LONG_PRESS, ActionType.DOUBLE_TAP):
        return Action(kind, touch=(draw(coord), draw(coord)))
    if kind is ActionType.OPEN_APP:
        return Action.open_app(draw(texts.filter(str.strip)))
    if kind in (ActionType.TYPE, ActionType.ANSWER, ActionType.INVALID):
        return Action(kind, text=draw(texts))
    return Action(kind)


basic_actions = actions().filter(lambda a: a.action_type in ACTION_SETS["basic"])


def test_action_types_are_contiguous_from_zero():
    assert [int(t) for t in ActionType] == list(range(14))
    # LlamaTouch's eight first, in AITW's order: the -v0 envs' space is these, as it always was
    assert [t.name for t in ACTION_SETS["basic"]] == ["CLICK", "SWIPE", "TYPE", "BACK", "HOME", "ENTER", "COMPLETE",
                                                      "IMPOSSIBLE"]
    assert [t.name for t in ACTION_SETS["all"]][8:] == ["LONG_PRESS", "DOUBLE_TAP", "OPEN_APP", "WAIT", "ANSWER"]
    assert ActionType.INVALID not in ACTION_SETS["all"]  # a record of a reply, never an action to choose


def test_the_new_verbs_carry_what_they_need():
    assert Action.long_press(0.2, 0.3).touch == (0.2, 0.3) and not Action.long_press(0.2, 0.3).is_tap
    assert not Action.double_tap(0.2, 0.3).is_tap  # LlamaTouch's click is one tap
    assert Action.open_app("Gmail").text == "Gmail" and Action.answer("42").text == "42"
    assert not Action.answer("42").ends_episode and not Action.wait().ends_episode
    assert str(Action.long_press(0.25, 0.5)) == "LONG_PRESS(0.250, 0.500)"
    assert str(Action.open_app("Gmail")) == "OPEN_APP('Gmail')" and str(Action.wait()) == "WAIT"
    assert str(Action.type_text("x" * 100)) == f"TYPE({'x' * 100!r})"  # typed text whole, as before
    with pytest.raises(InvalidActionError, match="touch point"):
        Action(ActionType.LONG_PRESS)
    assert Action.invalid("x" * 5000).text == "x" * MAX_TEXT_LENGTH  # a reply is kept, cut
    assert Action.invalid("half \ud83d emoji").text == "half \ufffd emoji"
    with pytest.raises(InvalidActionError, match="no action to take"):
        Action.from_gym({"action_type": int(ActionType.INVALID), "text": "x"})


def test_new_verbs_in_agentenv_lines_read_by_llamatouch_and_by_us():
    """A type AgentEnv does not know is written as the line LlamaTouch's evaluator reads
    (a click at the point, or an empty TYPE) with the action itself in a field it skips."""
    line = Action.long_press(0.25, 0.5).to_agentenv(1080, 2400)
    assert line == "CLICK|[0.25, 0.5]|NULL|LONG_PRESS|1080|2400"
    assert line.split("|")[0] == "CLICK" and line.split("|")[-2:] == ["1080", "2400"]  # what the evaluator reads
    assert Action.open_app("Gmail").to_agentenv(1, 2) == "TYPE|''|NULL|OPEN_APP 'Gmail'|1|2"
    assert Action.wait().to_agentenv(1, 2) == "TYPE|''|NULL|WAIT|1|2"
    answer = Action.answer("a | b \"it's\"")
    assert Action.from_agentenv(answer.to_agentenv(1, 2)) == (answer, (1, 2))
    assert answer.to_agentenv(1, 2).count("|") == 5  # the text's bar is escaped
    assert Action.from_agentenv("TYPE|'a|b'|NULL|1|2")[0] == Action.type_text("a|b")  # older lines still read


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Action(42), "unknown action type"),
        (lambda: Action(ActionType.CLICK), "needs a touch point"),
        (lambda: Action.click(math.nan, 0.5), r"\[0, 1\]"),
        (lambda: Action.click(0.5, math.inf), r"\[0, 1\]"),
        (lambda: Action.click(1.2, 0.5), r"\[0, 1\]"),
        (lambda: Action(ActionType.CLICK, touch=(0.5,)), "two numbers"),
        (lambda: Action(ActionType.SWIPE, touch=(0.1, 0.1)), "lift point"),
        (lambda: Action.swipe(0.1, 0.1, 0.1, 0.1), "distinct"),
        (lambda: Action(ActionType.TYPE, text=None), "needs text"),
        (lambda: Action.type_text("x" * (MAX_TEXT_LENGTH + 1)), "limit"),
    ],
)
def test_bad_actions_raise_one_clear_error_type(make, message):
    with pytest.raises(InvalidActionError, match=message) as info:
        make()
    assert isinstance(info.value, ValueError) and isinstance(info.value, MobileGymError)


def test_unused_fields_are_dropped():
    assert Action(ActionType.BACK, touch=(0.2, 0.2), text="x") == Action.back()
    assert Action(ActionType.CLICK, touch=(0.2, 0.3), lift=(0.9, 0.9)).lift is None


def test_from_gym_sample():
    sample = {"action_type": np.int64(1), "touch": np.array([0.1, 0.2], np.float32),
              "lift": np.array([0.1, 0.9], np.float32), "text": "ignored"}
    a = Action.from_gym(sample)
    assert a.action_type is ActionType.SWIPE and a.text is None
    assert a.touch == pytest.approx((0.1, 0.2))
    with pytest.raises(InvalidActionError, match="shape"):
        Action.from_gym({"action_type": 0, "touch": np.zeros(3, np.float32)})
    with pytest.raises(InvalidActionError, match="unknown action type"):
        Action.from_gym({"action_type": 14})
    with pytest.raises(InvalidActionError, match="unknown action type"):
        Action.from_gym({"action_type": 1.5})
    with pytest.raises(InvalidActionError, match="dict"):
        Action.from_gym([0, 0.5, 0.5])


def test_aitw_puts_y_before_x():
    record = Action.click(0.25, 0.75).to_aitw()
    assert record == AITWAction(AITWActionType.DUAL_POINT, (0.75, 0.25), (0.75, 0.25), "")
    swipe = Action.swipe(0.1, 0.9, 0.1, 0.2).to_aitw()
    assert swipe.touch_point_yx == (0.9, 0.1) and swipe.lift_point_yx == (0.2, 0.1)
    assert Action.type_text("hi").to_aitw().action_type == AITWActionType.TYPE == 3
    with pytest.raises(InvalidActionError, match="AITW has no LONG_PRESS"):
        Action.long_press(0.5, 0.5).to_aitw()


@given(basic_actions)
def test_aitw_round_trip(action):
    assert Action.from_aitw(action.to_aitw()) == action


@given(actions(), st.integers(1, 4000), st.integers(1, 4000))
def test_agentenv_round_trip_is_exact(action, w, h):
    line = action.to_agentenv(w, h)
    back, size = Action.from_agentenv(line)
    assert back == action and size == (w, h)


def test_agentenv_lines_as_written_by_agentenv():
    assert Action.from_agentenv("CLICK|[0.0879 0.9069]|NULL|1080|2400")[0] == Action.click(0.0879, 0.9069)
    assert Action.from_agentenv("SWIPE|[0.8, 0.5]|[0.2 0.5]|1080|2400")[0] == Action.swipe(0.8, 0.5, 0.2, 0.5)
    assert Action.from_agentenv("TYPE|good burger place|NULL|1080|2400")[0] == Action.type_text("good burger place")
    assert Action.from_agentenv("TYPE|a|b|NULL|1080|2400")[0] == Action.type_text("a|b")
    assert Action.from_agentenv("STATUS_TASK_COMPLETE|NULL|NULL|1080|2400\n")[0] == Action.complete()
    for bad in ["JUMP|NULL|NULL|1|1", "CLICK|[0.5]|NULL|1080|2400", "CLICK|[0.5, 7]|NULL|1080|2400", "CLICK",
                "CLICK|[0.5, 0.5]|NULL|0|0", "CLICK|[0.5, 0.5]|NULL|-1080|2400", "BACK|NULL|NULL|1080|10000000"]:
        with pytest.raises(InvalidActionError):
            Action.from_agentenv(bad)


def test_enter_is_written_as_a_click_on_the_enter_key_and_read_back():
    line = Action.enter().to_event_line(1080, 2400, enter_key=(0.9, 0.9))
    assert line == "[Click] Screen Resolution (1080, 2400), Click Position (972, 2160) (Enter)"
    assert Action.parse_event_line(line) == (Action.enter(), (1080, 2400))
    with pytest.raises(InvalidActionError, match="Enter key"):  # LlamaTouch's loader knows no [Enter]
        Action.enter().to_event_line(1080, 2400)
    assert Action.parse_event_line("[Enter]") == (Action.enter(), None)  # as our older files hold it


@pytest.mark.parametrize(
    "line",
    [
        "[Home]",
        "[Back]",
        "[Input] bestbuy",
        "[Click] Screen Resolution (320, 720), Click Position (204, 170)",
        "[Swipe] Screen Resolution (1080, 2400), Start Position (540, 1800), End Position (540, 600)",
    ],
)
def test_event_lines_round_trip(line):
    w, h = (320, 720) if "320" in line else (1080, 2400)
    assert Action.from_event_line(line).to_event_line(w, h) == line


def test_event_lines_in_the_original_chinese_spelling():
    assert Action.from_event_line("【Home键】") == Action.home()
    assert Action.from_event_line("【键盘输入】bestbuy") == Action.type_text("bestbuy")
    assert Action.from_event_line("【点击事件】屏幕大小：（w320，h720），触摸位置：（x160，y360）") == Action.click(0.5, 0.5)
    swipe = Action.from_event_line("【滑动事件】屏幕大小：（w100，h200），起始位置：（x50，y150），结束位置：（x50，y50）")
    assert swipe == Action.swipe(0.5, 0.75, 0.5, 0.25)
    with pytest.raises(InvalidActionError):
        Action.from_event_line("[Fly] somewhere")
    with pytest.raises(InvalidActionError, match="outside the screen"):
        Action.from_event_line("[Click] Screen Resolution (320, 720), Click Position (400, 170)")
    with pytest.raises(InvalidActionError, match="implicit"):
        Action.complete().to_event_line(1, 1)


def test_is_tap():
    assert Action.click(0.5, 0.5).is_tap
    assert Action.swipe(0.5, 0.5, 0.5, 0.52).is_tap
    assert not Action.swipe(0.5, 0.5, 0.5, 0.7).is_tap
    assert not Action.back().is_tap


def test_agentenv_typed_text_is_quoted_like_agentenv_writes_it():
    assert Action.type_text("expedia").to_agentenv(1080, 2400) == "TYPE|'expedia'|NULL|1080|2400"
    assert Action.from_agentenv("TYPE|'expedia'|NULL|1080|2400")[0] == Action.type_text("expedia")
    assert Action.from_agentenv("TYPE|'it\\'s'|NULL|1080|2400")[0] == Action.type_text("it's")
    assert Action.from_agentenv("TYPE|'unbalanced|NULL|1080|2400")[0] == Action.type_text("'unbalanced")
    multi = Action.type_text("two\nlines")
    assert "\n" not in multi.to_agentenv(1, 1)
    assert Action.from_agentenv(multi.to_agentenv(1, 1))[0] == multi
    assert Action.from_event_line("[Input]") == Action.type_text("")


# -- malformed input: every one an InvalidActionError, through every entry point -------------

class _Hostile:
    """A user's number-like object whose every conversion raises something unexpected."""

    def __float__(self):
        raise RuntimeError("no float for you")

    __int__ = __index__ = __float__

    def __len__(self):
        raise KeyError("no len")

    def __iter__(self):
        raise OSError("no iteration")

    def __repr__(self):
        raise ZeroDivisionError("no repr either")


def _gym(kind, **fields):
    return {"action_type": kind, **fields}


def _click(touch):
    return _gym(0, touch=touch)


#: name -> a factory of a malformed gym action (fresh each time: some are iterators)
MALFORMED = {
    "type inf": lambda: _gym(math.inf),
    "type -inf": lambda: _gym(-math.inf),
    "type nan": lambda: _gym(math.nan),
    "type huge int": lambda: _gym(10**400),
    "type 5000-digit int": lambda: _gym(10**5000),  # its repr alone raises ValueError
    "type 1.5": lambda: _gym(1.5),
    "type -1": lambda: _gym(-1),
    "type 8": lambda: _gym(len(ActionType)),
    "type bool": lambda: _gym(True),
    "type numpy bool": lambda: _gym(np.bool_(True)),
    "type str number": lambda: _gym("1"),
    "type bytes": lambda: _gym(b"\x01"),
    "type None": lambda: _gym(None),
    "type complex": lambda: _gym(1 + 0j),
    "type Decimal": lambda: _gym(Decimal(1)),
    "type array (2,)": lambda: _gym(np.array([0, 1])),
    "type float32 inf": lambda: _gym(np.float32("inf")),
    "type hostile object": lambda: _gym(_Hostile()),
    "touch missing": lambda: _gym(0),
    "touch huge int": lambda: _click((10**400, 0.5)),
    "touch -huge int": lambda: _click((0.5, -(10**400))),
    "touch inf": lambda: _click((math.inf, 0.5)),
    "touch -inf": lambda: _click((0.5, -math.inf)),
    "touch nan": lambda: _click((math.nan, math.nan)),
    "touch outside": lambda: _click((1.0000001, 0.5)),
    "touch str numbers": lambda: _click(("0.5", "0.5")),
    "touch a str": lambda: _click("ab"),
    "touch bools": lambda: _click((True, False)),
    "touch complex": lambda: _click((0.5j, 0.5)),
    "touch one number": lambda: _click((0.5,)),
    "touch three numbers": lambda: _click((0.1, 0.2, 0.3)),
    "touch nested lists": lambda: _click([[0.5], [0.5]]),
    "touch a dict": lambda: _click({0.5: 0, 0.2: 0}),
    "touch an iterator": lambda: _click(iter((0.5, 0.5))),
    "touch a scalar": lambda: _click(0.5),
    "touch numpy scalar": lambda: _click(np.float32(0.5)),
    "touch array (2, 1)": lambda: _click(np.full((2, 1), 0.5)),
    "touch array (1, 2)": lambda: _click(np.full((1, 2), 0.5)),
    "touch array (3,)": lambda: _click(np.full(3, 0.5, np.float32)),
    "touch empty array": lambda: _click(np.zeros(0)),
    "touch float16 inf": lambda: _click(np.array([np.inf, 0.5], np.float16)),
    "touch complex array": lambda: _click(np.array([0.5, 0.5], complex)),
    "touch str array": lambda: _click(np.array(["0.5", "0.5"])),
    "touch bool array": lambda: _click(np.array([True, False])),
    "touch datetime array": lambda: _click(np.array([1, 0], "datetime64[s]")),
    "touch object array, hostile": lambda: _click(np.array([_Hostile(), 0.5], dtype=object)),
    "touch hostile pair": lambda: _click((_Hostile(), 0.5)),
    "touch hostile sequence": lambda: _click(_Hostile()),
    "swipe lift missing": lambda: _gym(1, touch=(0.1, 0.1)),
    "swipe lift nan": lambda: _gym(1, touch=(0.1, 0.1), lift=(math.nan, 0.5)),
    "swipe lift huge": lambda: _gym(1, touch=(0.1, 0.1), lift=(0.5, 10**400)),
    "swipe in place": lambda: _gym(1, touch=(0.3, 0.3), lift=np.array([0.3, 0.3])),
    "text missing": lambda: _gym(2),
    "text bytes": lambda: _gym(2, text=b"bestbuy"),
    "text int": lambda: _gym(2, text=5),
    "text list of str": lambda: _gym(2, text=["a"]),
    "text str array": lambda: _gym(2, text=np.array(["a"])),
    "text hostile": lambda: _gym(2, text=_Hostile()),
    "text too long": lambda: _gym(2, text="x" * (MAX_TEXT_LENGTH + 1)),
    "text lone high surrogate": lambda: _gym(2, text="ok\ud83d"),
    "text lone low surrogate": lambda: _gym(2, text="\ude00ok"),
    "text surrogate pair as two code points": lambda: _gym(2, text="\ud83d\ude00"),
}
NOT_DICTS = {"a list": [0, 0.5, 0.5], "None": None, "a str": "CLICK", "an Action's tuple": (0, (0.5, 0.5))}


@pytest.mark.parametrize("name", list(MALFORMED) + list(NOT_DICTS))
def test_malformed_gym_actions_raise_invalid_action_error(name):
    sample = MALFORMED[name]() if name in MALFORMED else NOT_DICTS[name]
    with pytest.raises(InvalidActionError) as info:
        Action.from_gym(sample)
    assert len(str(info.value)) < 400  # a readable message, whatever the value's repr


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_fields_raise_invalid_action_error_from_the_constructor(name):
    fields = MALFORMED[name]()
    with pytest.raises(InvalidActionError):
        Action(**fields)


def test_what_is_accepted_is_normalized():
    """Integers of any kind (and integral floats) are action types; coordinates become
    Python floats; text becomes a plain str."""
    assert Action(np.int8(3)).action_type is ActionType.BACK
    assert Action.from_gym({"action_type": np.array(4)}).action_type is ActionType.HOME
    assert Action.from_gym({"action_type": 5.0}).action_type is ActionType.ENTER
    click = Action.from_gym(_click(np.array([0.25, 1], np.float16)))
    assert click.touch == (0.25, 1.0) and all(type(v) is float for v in click.touch)
    assert Action(ActionType.CLICK, touch=[np.float64(0), 1]).touch == (0.0, 1.0)
    typed = Action.from_gym(_gym(2, text=np.str_("Ajouter 🔔 à 9:00")))
    assert type(typed.text) is str and typed.text == "Ajouter 🔔 à 9:00"
    assert Action.type_text("tab\tnew line\nNUL\x00").text == "tab\tnew line\nNUL\x00"  # the field decides


_numbers = st.one_of(  # what an agent's number may be, good or bad
    st.floats(), st.integers(), st.integers(10**308, 10**400), st.integers(-(10**400), -(10**308)),
    st.booleans(), st.decimals(), st.fractions(), st.complex_numbers(), st.text(max_size=4),
    st.builds(_Hostile),
)
_texts = st.text(st.characters(codec=None, categories=None), max_size=8)  # surrogates too
_junk = st.deferred(lambda: st.one_of(
    st.none(), _numbers, _texts, st.binary(max_size=4), st.lists(_junk, max_size=3),
    st.tuples(_numbers, _numbers), hnp.arrays(hnp.scalar_dtypes(), hnp.array_shapes(min_dims=0, max_dims=2, max_side=3)),
    hnp.arrays(hnp.scalar_dtypes(), 2),
))


@given(st.fixed_dictionaries({}, optional={"action_type": st.one_of(st.integers(0, 13), _junk),
                                           "touch": _junk, "lift": _junk, "text": _junk}))
def test_any_junk_is_a_valid_action_or_an_invalid_action_error(sample):
    try:
        action = Action.from_gym(sample)
    except InvalidActionError:
        return
    if action.touch is not None:
        assert all(type(v) is float and 0 <= v <= 1 for v in action.touch)
    if action.text is not None:
        assert type(action.text) is str and len(action.text) <= MAX_TEXT_LENGTH
        action.text.encode("utf-8")  # no surrogates


def test_env_step_refuses_every_malformed_action_and_runs_nothing():
    """Through ``env.step`` (and gym.make's wrappers): each one an InvalidActionError
    before anything runs; the env then steps on, having counted none of them."""
    env = gym.make("LlamaTouch/settings-turn-off-wifi-v0")
    obs, _ = env.reset(seed=0)
    for sample in [make() for make in MALFORMED.values()] + list(NOT_DICTS.values()):
        with pytest.raises(InvalidActionError):
            env.step(sample)
    assert env.unwrapped.device.observe(screenshot=False).xml == obs["view_hierarchy"]
    obs, _, terminated, truncated, info = env.step({"action_type": 3})  # BACK
    assert info["steps"] == 1 and not (terminated or truncated)
    with pytest.raises(InvalidActionError, match=r"not in this env's action space \(actions='basic'"):
        env.step({"action_type": 11})  # WAIT: a type of actions="all" only
    assert env.step(Action.wait())[-1]["steps"] == 2  # an Action of any type is taken
