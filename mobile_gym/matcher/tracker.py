"""Ordered checkpoint matching: the online tracker and the offline evaluator.

Checkpoints are walked in order; each must hold on a trace step strictly later than
the step that matched the one before. Matching each checkpoint at the earliest step it
can is optimal for this (any later choice leaves fewer steps for the rest), so one
forward pass decides success. An annotation with alternative routes has each route
walked so, side by side; the first route matched in full decides success.

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

    Each of the annotation's routes is matched on its own; the task succeeds when one is
    matched in full. `matched`, `checkpoints` and `next_checkpoint` speak of the leading
    `route` (the primary one unless another got further).

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
        self._routes = self.annotation.routes  # as `_matched` is sized (a step asks for them many times)
        self._matched: list[dict[int, int]] = [{} for _ in self._routes]  # per route: checkpoint -> step
        self._steps: list[_Step] = []  # every step, or the last one without history
        self._observed = 0

    # -- state ----------------------------------------------------------------------------
    @property
    def routes(self) -> list[list[Checkpoint]]:
        return self._routes

    def _done(self, r: int) -> bool:
        return len(self._matched[r]) == len(self.routes[r])

    def _progress(self, r: int) -> float:
        return len(self._matched[r]) / len(self.routes[r]) if self.routes[r] else 1.0

    @property
    def route(self) -> int:
        """The leading route: the first matched in full, else the one with the largest
        fraction of its checkpoints matched (the earliest on a tie); 0 is the primary."""
        return max(range(len(self.routes)), key=lambda r: (self._done(r), self._progress(r), -r))

    @property
    def matched(self) -> dict[int, int]:
        """The leading route's matches: checkpoint index -> step index."""
        return self._matched[self.route]

    @property
    def checkpoints(self) -> list[Checkpoint]:
        """The leading route's checkpoints."""
        return self.routes[self.route]

    @property
    def next_checkpoint(self) -> int | None:
        """Index of the leading route's checkpoint to match next; None once all are matched."""
        n = len(self.matched)
        return n if n < len(self.checkpoints) else None

    @property
    def success(self) -> bool:
        return any(self._done(r) for r in range(len(self.routes)))

    @property
    def progress(self) -> float:
        return max(self._progress(r) for r in range(len(self.routes)))

    @property
    def step(self) -> int:
        """Index of the step last observed (-1 before the first)."""
        return self._observed - 1

    def _last_matched_step(self, r: int) -> int:
        return max(self._matched[r].values(), default=-1)

    # -- feeding --------------------------------------------------------------------------
    def observe(self, state: UIState, installed: frozenset[str] | None = None) -> bool:
        """A new step's state. Returns True if it matched a checkpoint."""
        record = _Step(state, installed if installed is not None else state.installed_packages)
        if not self.history:
            self._steps.clear()
        self._steps.append(record)
        self._observed += 1
        if self.success:
            return False
        hit = False
        for r, route in enumerate(self.routes):
            if not route[len(self._matched[r])].has_action:
                hit |= self._judge(r, record)
        return hit

    def act(self, action: Action) -> bool:
        """The action taken from the last observed state. Returns True if it completed
        a checkpoint with action primitives."""
        if not self._steps:
            raise RuntimeError("act() before observe(): observe the first state first")
        record = self._steps[-1]
        record.action = action
        if self.success:
            return False
        hit = False
        for r, route in enumerate(self.routes):
            if route[len(self._matched[r])].has_action and self.step > self._last_matched_step(r):
                hit |= self._judge(r, record)
        return hit

    def _judge(self, r: int, record: _Step) -> bool:
        k = len(self._matched[r])
        result = self.matcher.check(
            self.routes[r][k], record.state, action=record.action, installed=record.installed, step=self.step
        )
        if result.matched:
            self._matched[r][k] = self.step
        return result.matched

    # -- explanation ----------------------------------------------------------------------
    def explain(self) -> list[str]:
        """Why each unmatched checkpoint failed: for the first, the closest step and the
        primitives that failed there; the rest were never reached. With several routes,
        each route unmatched, the leading one first."""
        if self.success:
            return []
        if len(self.routes) == 1:
            return self._explain_route(0)
        leading = self.route
        order = [leading, *(r for r in range(len(self.routes)) if r != leading)]
        return [f"{'alternative route ' + str(r) if r else 'main route'}: {line}"
                for r in order for line in self._explain_route(r)]

    def _explain_route(self, r: int) -> list[str]:
        route, k = self.routes[r], len(self._matched[r])
        checkpoint = route[k]
        after = self._last_matched_step(r)
        first = self._observed - len(self._steps)  # index of the oldest step kept
        candidates = [self._explain_step(checkpoint, i, s) for i, s in enumerate(self._steps, first) if i > after]
        lines = [f"checkpoint {k} ({checkpoint}) not matched: " + _closest_text(candidates, after)]
        lines += [f"checkpoint {j} ({route[j]}) not reached" for j in range(k + 1, len(route))]
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
    matched: dict[int, int] = field(default_factory=dict)  # checkpoint of `route` -> step
    explanations: list[str] = field(default_factory=list)
    steps: int = 0
    route: int = 0  # the route `matched` speaks of (`Tracker.route`)


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
        route=tracker.route,
    )
