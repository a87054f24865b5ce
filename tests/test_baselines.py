"""The §5 baselines: AITW action matching, step-wise and subsequence (LCS) match."""

from __future__ import annotations

import pytest

from screens import DIALOG_XML

from mobile_gym.actions import Action
from mobile_gym.errors import FormatError, MobileGymError
from mobile_gym.evaluation.baselines import (
    BaselineResult,
    actions_match,
    lcs_match,
    step_match,
    ui_boxes,
)
from mobile_gym.trace import Trace, UIState

# The dialog dump's screen is 1080x1918 (its screenshot); "Done" is [224,988][855,1114]
# and "Go to Web & App Activity" [224,1114][855,1240].
DIALOG_SIZE = (1080, 1918)


def dialog_state(action: Action | None = None) -> UIState:
    return UIState(xml=DIALOG_XML.read_text(encoding="utf-8"), screen_size=DIALOG_SIZE, action=action)


def trace(*actions: Action | None) -> Trace:
    return Trace.from_states([UIState(xml="<hierarchy/>", action=a) for a in actions])


def gt_trace(*actions: Action) -> Trace:
    """A ground-truth trace whose every screen is the real dialog dump."""
    return Trace.from_states([dialog_state(a) for a in actions])


BOX = [(0.4, 0.4, 0.6, 0.6)]


# -- element boxes --------------------------------------------------------------------------
def test_ui_boxes_are_clickable_non_container_nodes_normalized():
    boxes = ui_boxes(dialog_state())
    assert len(boxes) == 2  # the two buttons; layouts and the unclickable texts are not elements
    left, top, right, bottom = boxes[0]
    assert left == pytest.approx(224 / 1080) and right == pytest.approx(855 / 1080)
    assert top == pytest.approx(988 / 1918) and bottom == pytest.approx(1114 / 1918)


# -- non dual-point actions -----------------------------------------------------------------
@pytest.mark.parametrize(
    "a, b, expected",
    [
        (Action.back(), Action.back(), True),
        (Action.back(), Action.home(), False),
        (Action.complete(), Action.complete(), True),
        (Action.complete(), Action.impossible(), False),
        (Action.enter(), Action.click(0.5, 0.5), False),
        (Action.type_text("Microsoft Excel"), Action.type_text("  microsoft EXCEL "), True),
        (Action.type_text("excel"), Action.type_text("word"), False),
        (Action.type_text("excel"), Action.enter(), False),
    ],
)
def test_non_dual_point_actions_match_on_type_and_typed_text(a, b, expected):
    assert actions_match(a, b) is expected


# -- taps -------------------------------------------------------------------------------------
def test_taps_within_distance_threshold_match_without_boxes():
    assert actions_match(Action.click(0.5, 0.5), Action.click(0.5, 0.63))
    assert not actions_match(Action.click(0.5, 0.5), Action.click(0.5, 0.65))


def test_far_taps_inside_the_same_enlarged_box_match():
    # The box is 0.2 wide; AITW grows it by 1.4x its size (0.14 per side): x in [0.26, 0.74].
    a, b = Action.click(0.27, 0.5), Action.click(0.73, 0.5)
    assert not actions_match(a, b)  # 0.46 apart, no boxes
    assert actions_match(a, b, BOX)
    assert not actions_match(Action.click(0.25, 0.5), Action.click(0.73, 0.5), BOX)


def test_taps_in_different_boxes_do_not_match():
    boxes = [(0.0, 0.0, 0.1, 0.1), (0.9, 0.9, 1.0, 1.0)]
    assert not actions_match(Action.click(0.05, 0.05), Action.click(0.95, 0.95), boxes)


def test_enlarged_boxes_are_clipped_to_the_screen():
    box = [(0.0, 0.45, 0.5, 0.55)]  # enlarges to x in [0, 0.85] (clipped at 0)
    assert actions_match(Action.click(0.0, 0.5), Action.click(0.84, 0.5), box)
    assert not actions_match(Action.click(0.0, 0.5), Action.click(0.86, 0.5), box)


def test_taps_on_the_real_dialog_same_button_vs_neighbour():
    boxes = ui_boxes(dialog_state())
    # Both ends of the "Done" button: half a screen apart, same element.
    assert actions_match(Action.click(0.25, 0.55), Action.click(0.75, 0.55), boxes)
    # "Done" vs "Go to Web & App Activity": 0.16 apart, different elements.
    assert not actions_match(Action.click(0.5, 0.50), Action.click(0.5, 0.66), boxes)


def test_a_very_short_swipe_is_a_tap():
    assert actions_match(Action.click(0.5, 0.5), Action.swipe(0.5, 0.5, 0.5, 0.52))


# -- taps vs swipes, swipes -------------------------------------------------------------------
def test_tap_never_matches_a_swipe():
    assert not actions_match(Action.click(0.5, 0.5), Action.swipe(0.5, 0.5, 0.5, 0.2))
    assert not actions_match(Action.swipe(0.5, 0.5, 0.5, 0.2), Action.click(0.5, 0.5), BOX)


def test_swipes_match_on_main_axis_and_direction():
    up = Action.swipe(0.5, 0.8, 0.5, 0.2)
    assert actions_match(up, Action.swipe(0.1, 0.9, 0.2, 0.5))  # also mostly upwards
    assert not actions_match(up, Action.swipe(0.5, 0.2, 0.5, 0.8))  # same axis, opposite way
    assert not actions_match(up, Action.swipe(0.8, 0.5, 0.2, 0.5))  # horizontal
    left = Action.swipe(0.9, 0.5, 0.1, 0.5)
    assert actions_match(left, Action.swipe(0.7, 0.4, 0.3, 0.45))
    assert not actions_match(left, Action.swipe(0.1, 0.5, 0.9, 0.5))


# -- whole traces -----------------------------------------------------------------------------
GT = (
    Action.click(0.5, 0.55),  # "Done"
    Action.swipe(0.5, 0.8, 0.5, 0.2),
    Action.type_text("excel"),
    Action.complete(),
)


def test_step_match_accepts_the_same_actions():
    ex = trace(Action.click(0.7, 0.56), Action.swipe(0.4, 0.9, 0.4, 0.3), Action.type_text("Excel"), Action.complete())
    result = step_match(gt_trace(*GT), ex)
    assert isinstance(result, BaselineResult)
    assert result.success and result.progress == 1.0
    assert result.matched == {0: 0, 1: 1, 2: 2, 3: 3}
    assert result.explanation == ""


def test_extra_detour_fails_step_match_but_lcs_tolerates_it():
    ex = trace(
        Action.click(0.5, 0.55),
        Action.back(),  # detour
        Action.click(0.5, 0.55),
        Action.swipe(0.5, 0.8, 0.5, 0.2),
        Action.type_text("excel"),
        Action.complete(),
    )
    step = step_match(gt_trace(*GT), ex)
    assert not step.success
    assert step.matched == {0: 0}
    assert step.progress == pytest.approx(0.25)
    assert "step 1" in step.explanation

    lcs = lcs_match(gt_trace(*GT), ex)
    assert lcs.success and lcs.progress == 1.0
    assert lcs.matched == {0: 0, 1: 3, 2: 4, 3: 5}


def test_lcs_fails_when_a_ground_truth_step_is_missing():
    ex = trace(Action.click(0.5, 0.55), Action.back(), Action.type_text("excel"), Action.complete())
    lcs = lcs_match(gt_trace(*GT), ex)
    assert not lcs.success
    assert lcs.progress == pytest.approx(0.75)
    assert lcs.matched == {0: 0, 2: 2, 3: 3}
    assert "step 1" in lcs.explanation


def test_lcs_keeps_order():
    ex = trace(Action.complete(), Action.type_text("excel"), Action.swipe(0.5, 0.8, 0.5, 0.2), Action.click(0.5, 0.55))
    assert lcs_match(gt_trace(*GT), ex).progress == pytest.approx(0.25)


def test_step_match_fails_on_a_short_execution_and_a_missing_action():
    short = step_match(gt_trace(*GT), trace(Action.click(0.5, 0.55), Action.swipe(0.5, 0.8, 0.5, 0.2)))
    assert not short.success and short.progress == pytest.approx(0.5)
    assert "ends after 2 steps" in short.explanation
    # An execution state without an action never matches (here: the final COMPLETE).
    no_action = step_match(
        gt_trace(*GT),
        trace(Action.click(0.5, 0.55), Action.swipe(0.5, 0.8, 0.5, 0.2), Action.type_text("excel"), None),
    )
    assert not no_action.success and no_action.matched == {0: 0, 1: 1, 2: 2}
    assert "no action" in no_action.explanation


def test_ground_truth_last_screen_without_action_is_complete():
    gt = gt_trace(Action.back(), Action.complete())
    gt.states[-1].action = None
    assert step_match(gt, trace(Action.back(), Action.complete())).success


def test_ground_truth_with_a_missing_action_in_the_middle_is_bad_data():
    gt = gt_trace(Action.back(), Action.home(), Action.complete())
    gt.states[1].action = None
    with pytest.raises(FormatError, match="step 1 has no action"):
        step_match(gt, trace(Action.back()))
    with pytest.raises(MobileGymError):
        lcs_match(Trace(states=[]), trace(Action.back()))


def test_boxes_are_read_only_when_two_far_taps_are_compared():
    # A ground-truth screen with a corrupt hierarchy is no problem until its boxes matter.
    gt = Trace.from_states([UIState(xml="not xml", action=Action.click(0.5, 0.5)), UIState(action=Action.complete())])
    assert step_match(gt, trace(Action.click(0.52, 0.5), Action.complete())).success
    with pytest.raises(MobileGymError):
        step_match(gt, trace(Action.click(0.9, 0.9), Action.complete()))


# -- an episode the env ended on success --------------------------------------------------------
def test_an_episode_ended_by_success_takes_its_final_complete_from_the_env():
    """The runner's env ends an episode on the matcher's success, before the agent's
    COMPLETE: the last screen has no action. Told so, both baselines count it as COMPLETE."""
    ended = trace(*GT[:-1], None)
    for baseline in (step_match, lcs_match):
        plain = baseline(gt_trace(*GT), ended)
        assert not plain.success and plain.matched == {0: 0, 1: 1, 2: 2}
        fair = baseline(gt_trace(*GT), ended, ended_by_success=True)
        assert fair.success and fair.matched == {0: 0, 1: 1, 2: 2, 3: 3}


def test_ended_by_success_does_not_excuse_a_short_or_wrong_execution():
    # one golden step short: the success stands for COMPLETE, but typing is still missing
    short = trace(*GT[:2], None)
    for baseline in (step_match, lcs_match):
        result = baseline(gt_trace(*GT), short, ended_by_success=True)
        assert not result.success and 2 not in result.matched
    # the last screen's own action stays what it was (a step limit, not a success)
    acted = trace(*GT[:-1], Action.back())
    assert not step_match(gt_trace(*GT), acted, ended_by_success=True).success
    # only the last screen: a screen without action earlier is still no action
    gap = trace(GT[0], None, GT[2], None)
    assert step_match(gt_trace(*GT), gap, ended_by_success=True).matched == {0: 0, 2: 2, 3: 3}


def test_ground_truth_boxes_are_computed_once_per_screen():
    """A batch judges many executions against one ground truth: its element boxes are
    found and enlarged once (and still only when two far taps are compared)."""
    from mobile_gym.evaluation import baselines

    gt = gt_trace(*GT)
    far = trace(Action.click(0.25, 0.55), *GT[1:])  # the "Done" button's other end
    calls = []
    real = baselines.ui_boxes

    def counting(state):
        calls.append(state.index)
        return real(state)

    baselines.ui_boxes = counting
    try:
        for _ in range(3):
            assert step_match(gt, far).success and lcs_match(gt, far).success
    finally:
        baselines.ui_boxes = real
    assert calls == [0]
