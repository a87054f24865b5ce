"""The action-matching baselines LlamaTouch compares itself with (paper §5).

- `step_match`: step-wise exact action match with the AITW rule (Rawles et al. 2023);
  the execution must take, at every step, the action the ground truth took.
- `lcs_match`: AndroidArena's subsequence match (Xing et al. 2024); detours are
  tolerated as long as the ground-truth actions occur in order.

Both judge actions only, never screens: they exist to show how often such evaluators
reject a trace that a person (or the essential-state matcher) accepts. The one place a
screen is read is the AITW tap rule, which needs the element boxes of the ground-truth
screen the tap was made on.

An env that ends the episode on the matcher's success (``terminate_on_success``, the
runner's default) stops it before the agent can say COMPLETE, while the ground truth
ends with COMPLETE: judged as recorded, every such trace would fail both baselines. Only
whoever ran the episode knows why it ended (``terminated_by`` in the run's
``episodes.jsonl``), so the caller says so with ``ended_by_success=True``: the last
screen, which then has no action, counts as taking COMPLETE.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence
from weakref import WeakKeyDictionary

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import FormatError
from mobile_gym.trace import Trace, UIState
from mobile_gym.ui.components import CONTAINER_CLASSES

logger = logging.getLogger(__name__)

#: Normalized element box ``(left, top, right, bottom)``, each in [0, 1].
Box = tuple[float, float, float, float]

#: Two taps closer than this (normalized Euclidean distance) match (AITW).
TAP_MATCH_DISTANCE = 0.14
#: AITW grows each box dimension by this fraction of itself, half on each side: 1.4
#: turns a box into one 2.4x as wide and tall ("augmented to 240%" in AITW's code).
BOX_AUGMENT_FRACTION = 1.4

_DUAL_POINT = (ActionType.CLICK, ActionType.SWIPE)


@dataclass(frozen=True)
class BaselineResult:
    """Outcome of a baseline on one trace; `matched` maps ground-truth step -> trace step."""

    success: bool
    progress: float
    matched: dict[int, int] = field(default_factory=dict)
    explanation: str = ""


# -- element boxes ------------------------------------------------------------------------
def ui_boxes(state: UIState) -> list[Box]:
    """Normalized boxes of the tappable elements of a (ground-truth) screen.

    AITW uses the boxes of detected UI elements; the hierarchy gives us exact ones. Only
    clickable nodes count, and not plain layout containers, whose screen-wide boxes would
    make every pair of taps "the same element". Normalized by `UIState.screen_size`.
    """
    width, height = state.screen_size
    if width <= 0 or height <= 0:
        raise FormatError(state.xml_path, f"step {state.index} has an empty screen size")
    boxes: list[Box] = []
    for node in state.hierarchy:
        if not node.clickable or node.class_name in CONTAINER_CLASSES or not node.bounds.area:
            continue
        b = node.bounds
        boxes.append(
            (
                _clip(b.left / width),
                _clip(b.top / height),
                _clip(b.right / width),
                _clip(b.bottom / height),
            )
        )
    return boxes


def _clip(v: float) -> float:
    return min(1.0, max(0.0, v))


def _enlarge(box: Box) -> Box:
    left, top, right, bottom = box
    dw = (right - left) * BOX_AUGMENT_FRACTION / 2
    dh = (bottom - top) * BOX_AUGMENT_FRACTION / 2
    return (_clip(left - dw), _clip(top - dh), _clip(right + dw), _clip(bottom + dh))


def _inside(point: tuple[float, float], box: Box) -> bool:
    x, y = point
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


# -- one pair of actions ------------------------------------------------------------------
def actions_match(gt: Action, ex: Action, ui_boxes: Sequence[Box] = ()) -> bool:
    """The AITW action-matching rule, with two documented departures.

    - Not both dual-point gestures (CLICK/SWIPE): match iff the types are equal. For
      TYPE the typed text must also be equal after ``strip().casefold()`` — AITW's
      matcher ignores the text, which would accept typing anything at all.
    - A tap (`Action.is_tap`, so a very short swipe counts) never matches a swipe.
    - Two taps match when both fall inside the same element box of the ground-truth
      screen (`ui_boxes`, enlarged as AITW does, clipped to the screen), or when they
      are at most `TAP_MATCH_DISTANCE` apart in normalized coordinates.
    - Two swipes match when their main axis of motion (the larger of |dx|, |dy|; a tie
      counts as vertical, as AITW's argmax over (y, x) does) is the same **and** they
      move the same way along it. AITW compares only the axis, so scrolling up would
      match scrolling down; requiring the same sign is our deliberate fix.
    """
    gt_kind, ex_kind = gt.action_type, ex.action_type
    if gt_kind not in _DUAL_POINT or ex_kind not in _DUAL_POINT:
        if gt_kind is not ex_kind:
            return False
        if gt_kind is ActionType.TYPE:
            return (gt.text or "").strip().casefold() == (ex.text or "").strip().casefold()
        return True
    if gt.is_tap != ex.is_tap:
        return False
    if gt.is_tap:
        return _taps_match(gt.touch, ex.touch, ui_boxes)  # type: ignore[arg-type]
    return _swipe_direction(gt) == _swipe_direction(ex)


def _taps_match(a: tuple[float, float], b: tuple[float, float], boxes: Sequence[Box]) -> bool:
    if math.dist(a, b) <= TAP_MATCH_DISTANCE:
        return True
    return any(_inside(a, big) and _inside(b, big) for big in map(_enlarge, boxes))


def _swipe_direction(action: Action) -> tuple[str, bool]:
    """(main axis, positive?) of a swipe's motion."""
    assert action.touch is not None and action.lift is not None
    dx = action.lift[0] - action.touch[0]
    dy = action.lift[1] - action.touch[1]
    if abs(dy) >= abs(dx):
        return ("y", dy > 0)
    return ("x", dx > 0)


# -- whole traces -------------------------------------------------------------------------
def _gt_actions(gt_trace: Trace) -> list[Action]:
    """The ground truth's action per step; the last screen's missing action is COMPLETE
    (LlamaTouch leaves it implicit), any other missing one is bad data."""
    if not len(gt_trace):
        raise FormatError(gt_trace.source, "the ground-truth trace has no steps")
    actions: list[Action] = []
    last = len(gt_trace) - 1
    for i, state in enumerate(gt_trace):
        if state.action is None:
            if i != last:
                raise FormatError(gt_trace.source, f"ground-truth step {i} has no action")
            actions.append(Action.complete())
        else:
            actions.append(state.action)
    return actions


def _ex_actions(ex_trace: Trace, ended_by_success: bool) -> list[Action | None]:
    """The execution's action per step; with `ended_by_success`, a last screen without
    an action took COMPLETE (see the module docstring)."""
    actions = ex_trace.actions
    if ended_by_success and actions and actions[-1] is None:
        actions[-1] = Action.complete()
    return actions


#: Element boxes of ground-truth screens, as found and enlarged, kept while the screen
#: is: a batch judges many executions against one ground truth.
_BOXES: WeakKeyDictionary[UIState, tuple[list[Box], list[Box]]] = WeakKeyDictionary()


class _Pairs:
    """`actions_match` against a ground-truth trace, reading each screen's boxes only
    when two taps are actually compared (so a bad screen that is never needed is no
    error, and no screenshot is decoded for a trace without taps)."""

    def __init__(self, gt_trace: Trace):
        self.trace = gt_trace
        self.actions = _gt_actions(gt_trace)

    def enlarged(self, i: int) -> list[Box]:
        state = self.trace[i]
        boxes = _BOXES.get(state)
        if boxes is None:
            found = ui_boxes(state)
            boxes = _BOXES[state] = (found, [_enlarge(b) for b in found])
        return boxes[1]

    def match(self, i: int, ex: Action | None) -> bool:
        if ex is None:
            return False
        gt = self.actions[i]
        if gt.is_tap and ex.is_tap and math.dist(gt.touch, ex.touch) > TAP_MATCH_DISTANCE:  # type: ignore[arg-type]
            a, b = gt.touch, ex.touch  # actions_match's rule for far taps, boxes enlarged once
            return any(_inside(a, big) and _inside(b, big) for big in self.enlarged(i))  # type: ignore[arg-type]
        return actions_match(gt, ex)


def step_match(gt_trace: Trace, ex_trace: Trace, *, ended_by_success: bool = False) -> BaselineResult:
    """Step-wise exact action match: step i of the execution must take ground-truth
    action i, for every ground-truth step including the final COMPLETE.

    Progress is the fraction of ground-truth steps whose action the execution took at
    the same step. Execution steps past the ground truth's last are not judged: that
    step's COMPLETE must already have matched. `ended_by_success`: the env ended the
    execution on success, which stands for its final COMPLETE.
    """
    pairs = _Pairs(gt_trace)
    ex_actions = _ex_actions(ex_trace, ended_by_success)
    matched: dict[int, int] = {}
    problems: list[str] = []
    for i, gt in enumerate(pairs.actions):
        if i >= len(ex_actions):
            problems.append(
                f"the execution ends after {len(ex_actions)} steps; ground truth step {i} "
                f"is {gt}"
            )
            break
        if pairs.match(i, ex_actions[i]):
            matched[i] = i
        else:
            problems.append(f"step {i}: expected {gt}, got {_describe(ex_actions[i])}")
    return _result(matched, len(pairs.actions), problems)


def lcs_match(gt_trace: Trace, ex_trace: Trace, *, ended_by_success: bool = False) -> BaselineResult:
    """Subsequence action match (AndroidArena): success when the ground-truth actions
    occur in order within the execution's, whatever else it did in between.

    Progress is LCS length / ground-truth length, from the longest common subsequence
    under `actions_match`. Unlike AndroidArena, traces are not cut at 30 steps.
    `ended_by_success`: the env ended the execution on success, which stands for its
    final COMPLETE.
    """
    pairs = _Pairs(gt_trace)
    ex_actions = _ex_actions(ex_trace, ended_by_success)
    n, m = len(pairs.actions), len(ex_actions)
    memo: dict[tuple[int, int], bool] = {}

    def same(i: int, j: int) -> bool:
        if (i, j) not in memo:
            memo[i, j] = pairs.match(i, ex_actions[j])
        return memo[i, j]

    # table[i][j]: LCS length of gt[i:] and ex[j:] (suffixes, so backtracking runs forward
    # and pairs each ground-truth step with its earliest possible execution step)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if same(i, j):
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    matched: dict[int, int] = {}
    i = j = 0
    while i < n and j < m:
        if same(i, j) and table[i][j] == table[i + 1][j + 1] + 1:
            matched[i] = j
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    problems = [
        f"ground truth step {i} ({a}) has no matching execution action in order"
        for i, a in enumerate(pairs.actions)
        if i not in matched
    ]
    return _result(matched, n, problems)


def _result(matched: dict[int, int], total: int, problems: list[str]) -> BaselineResult:
    success = len(matched) == total
    return BaselineResult(
        success=success,
        progress=len(matched) / total,
        matched=matched,
        explanation="; ".join(problems),
    )


def _describe(action: Action | None) -> str:
    return "no action" if action is None else str(action)


#: Name -> baseline, for runners that pick evaluators by name; each is called as
#: ``baseline(gt_trace, ex_trace, ended_by_success=...)``.
BASELINES: dict[str, Callable[..., BaselineResult]] = {
    "action": step_match,
    "lcs": lcs_match,
}

__all__ = [
    "BASELINES",
    "BOX_AUGMENT_FRACTION",
    "BaselineResult",
    "Box",
    "TAP_MATCH_DISTANCE",
    "actions_match",
    "lcs_match",
    "step_match",
    "ui_boxes",
]
