"""Action validation and lossless conversions to AITW, AgentEnv and eventStructs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mobile_gym.actions import MAX_TEXT_LENGTH, Action, ActionType, AITWAction, AITWActionType
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
    if kind is ActionType.TYPE:
        return Action.type_text(draw(texts))
    return Action(kind)


def test_action_types_are_contiguous_from_zero():
    assert [int(t) for t in ActionType] == list(range(8))
    assert [t.name for t in ActionType] == ["CLICK", "SWIPE", "TYPE", "BACK", "HOME", "ENTER", "COMPLETE", "IMPOSSIBLE"]


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
        Action.from_gym({"action_type": 9})
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


@given(actions())
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
    for bad in ["JUMP|NULL|NULL|1|1", "CLICK|[0.5]|NULL|1080|2400", "CLICK|[0.5, 7]|NULL|1080|2400", "CLICK"]:
        with pytest.raises(InvalidActionError):
            Action.from_agentenv(bad)


@pytest.mark.parametrize(
    "line",
    [
        "[Home]",
        "[Back]",
        "[Enter]",
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
