"""Ordered checkpoint matching: the online tracker and the offline evaluator.

Checkpoints are walked in order; each must hold on a trace step strictly later than
the step that matched the one before. Matching each checkpoint at the earliest step it
can is optimal for this (any later choice leaves fewer steps for the rest), so one
forward pass decides success.

Online, a checkpoint without action primitives is judged when a state is observed
(success is seen on the step that reaches it); one with ``click``/``type`` is judged
when the action from that state is taken. `evaluate_trace` feeds a recorded trace to
the same tracker, so online and offline verdicts agree by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mobile_gym.actions import Action
from mobile_gym.errors import MobileGymError
from mobile_gym.matcher.annotation import Annotation, Checkpoint
from mobile_gym.matcher.primitives import CheckResult, Matcher
from mobile_gym.trace import Trace, UIState


@dataclass
class _Step:
    state: UIState
    installed: frozenset[str] | None
    action: Action | None = None


class Tracker:
    """Feeds steps one by one: `observe(state)` then `act(action)` for each step.

    It keeps every step for `explain`; with ``history=False`` only the last one (all that
    judging needs), so that an env's memory and pickles do not grow with the episode, and
    `explain` looks at the last step alone.
    """

    def __init__(self, annotation: Annotation, matcher: Matcher, *, history: bool = True):
        self.annotation = annotation
        self.matcher = matcher
        self.history = history
        self.reset()

    def reset(self) -> None:
        self.matched: dict[int, int] = {}  # checkpoint index -> step index
        self._steps: list[_Step] = []  # every step, or the last one without history
        self._observed = 0

    # -- state ----------------------------------------------------------------------------
    @property
    def checkpoints(self) -> list[Checkpoint]:
        return self.annotation.checkpoints

    @property
    def next_checkpoint(self) -> int | None:
        """Index of the checkpoint to match next; None once all are matched."""
        n = len(self.matched)
        return n if n < len(self.checkpoints) else None

    @property
    def success(self) -> bool:
        return len(self.matched) == len(self.checkpoints)

    @property
    def progress(self) -> float:
        return len(self.matched) / len(self.checkpoints) if self.checkpoints else 1.0

    @property
    def step(self) -> int:
        """Index of the step last observed (-1 before the first)."""
        return self._observed - 1

    def _last_matched_step(self) -> int:
        return max(self.matched.values(), default=-1)

    # -- feeding --------------------------------------------------------------------------
    def observe(self, state: UIState, installed: frozenset[str] | None = None) -> bool:
        """A new step's state. Returns True if it matched a checkpoint."""
        record = _Step(state, installed if installed is not None else state.installed_packages)
        if not self.history:
            self._steps.clear()
        self._steps.append(record)
        self._observed += 1
        k = self.next_checkpoint
        if k is None or self.checkpoints[k].has_action:
            return False
        return self._judge(k, record)

    def act(self, action: Action) -> bool:
        """The action taken from the last observed state. Returns True if it completed
        a checkpoint with action primitives."""
        if not self._steps:
            raise RuntimeError("act() before observe(): observe the first state first")
        record = self._steps[-1]
        record.action = action
        k = self.next_checkpoint
        if k is None or not self.checkpoints[k].has_action or self.step <= self._last_matched_step():
            return False
        return self._judge(k, record)

    def _judge(self, k: int, record: _Step) -> bool:
        result = self.matcher.check(
            self.checkpoints[k], record.state, action=record.action, installed=record.installed, step=self.step
        )
        if result.matched:
            self.matched[k] = self.step
        return result.matched

    # -- explanation ----------------------------------------------------------------------
    def explain(self) -> list[str]:
        """Why each unmatched checkpoint failed: for the first, the closest step and the
        primitives that failed there; the rest were never reached."""
        k = self.next_checkpoint
        if k is None:
            return []
        checkpoint = self.checkpoints[k]
        after = self._last_matched_step()
        first = self._observed - len(self._steps)  # index of the oldest step kept
        candidates = [self._explain_step(checkpoint, i, s) for i, s in enumerate(self._steps, first) if i > after]
        lines = [f"checkpoint {k} ({checkpoint}) not matched: " + _closest_text(candidates, after)]
        lines += [
            f"checkpoint {j} ({self.checkpoints[j]}) not reached" for j in range(k + 1, len(self.checkpoints))
        ]
        return lines

    def _explain_step(self, checkpoint: Checkpoint, i: int, s: _Step) -> CheckResult:
        """Every primitive judged on step i, but the costly ones (the embedding model, a
        screenshot) only while the others held: an explanation needs no model work or
        image decoding the verdict did not (re-judging thousands of failed traces would
        otherwise encode every screen). If a primitive needs a file that is broken, only
        those the verdict judged: a file that cannot change the verdict (the dump of a
        step rejected on its activity) is not reported as an error."""
        try:
            return self.matcher.check(
                checkpoint, s.state, action=s.action, installed=s.installed, step=i, exhaustive=True,
                skip_costly=True,
            )
        except MobileGymError:
            return self.matcher.check(checkpoint, s.state, action=s.action, installed=s.installed, step=i)


def _closest_text(candidates: list[CheckResult], after: int) -> str:
    if not candidates:
        where = f"after step {after}" if after >= 0 else "in the trace"
        return f"no step {where} to match it (the trace ended)"
    best = max(candidates, key=lambda r: (r.passed, -r.step))
    failed = "; ".join(str(r) for r in best.results if not r.passed)
    return f"closest step {best.step} ({best.passed}/{len(best.results)} primitives held): {failed}"


@dataclass
class TraceEvaluation:
    """The verdict on one trace."""

    success: bool
    progress: float
    matched: dict[int, int] = field(default_factory=dict)  # checkpoint -> step
    explanations: list[str] = field(default_factory=list)
    steps: int = 0


def evaluate_trace(
    annotation: Annotation, trace: Trace, matcher: Matcher, *, explain: bool = True
) -> TraceEvaluation:
    """Offline evaluation of a recorded trace with the online tracker."""
    tracker = Tracker(annotation, matcher)
    for i, state in enumerate(trace):
        tracker.observe(state, trace.installed_at(i))
        if state.action is not None:
            tracker.act(state.action)
        if tracker.success:
            break
    return TraceEvaluation(
        success=tracker.success,
        progress=tracker.progress,
        matched=dict(tracker.matched),
        explanations=tracker.explain() if explain else [],
        steps=len(trace),
    )
