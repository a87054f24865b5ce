"""Does an annotation credit the routes the explorer found? Recall over the successful
routes, precision over the failing ones, judged exactly as the env judges an episode
(the online tracker, one step at a time)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mobile_gym.authoring.explorer import Exploration, Route, route_states
from mobile_gym.matcher.tracker import Tracker

if TYPE_CHECKING:
    from mobile_gym.matcher import Matcher
    from mobile_gym.matcher.annotation import Annotation


@dataclass(frozen=True)
class RouteVerdict:
    route: Route
    credited_at: int | None  # moves after which the matcher first said success; None: never
    matched: int  # checkpoints matched by the route's end

    @property
    def right(self) -> bool:
        """A successful route credited at its last move, a failing one never."""
        return self.credited_at == len(self.route) if self.route.success else self.credited_at is None


@dataclass(frozen=True)
class RouteScore:
    """How an annotation fares on an exploration's routes."""

    successes: int
    credited: int  # successful routes the matcher credited (at any move)
    failures: int
    false_credits: int  # failing routes the matcher credited
    early: int  # successful routes credited before their last move (a failing prefix credited)

    @property
    def recall(self) -> float | None:
        return self.credited / self.successes if self.successes else None

    @property
    def precision(self) -> float | None:
        said = self.credited + self.false_credits
        return (self.credited - self.early) / said if said else None


def judge_routes(exploration: Exploration, annotation: Annotation | None = None,
                 matcher: Matcher | None = None) -> list[RouteVerdict]:
    """Replay every route of `exploration` (successful ones first) and judge it with
    `annotation` (default: the task's own) as the env would."""
    from mobile_gym.agents.oracle import sim_task
    from mobile_gym.env import shared_matcher

    task = sim_task(exploration.task)
    annotation = task.annotation if annotation is None else annotation
    matcher = shared_matcher() if matcher is None else matcher
    matcher.warm_up(annotation)
    verdicts = []
    for route in [*exploration.successes, *exploration.failures]:
        tracker = Tracker(annotation, matcher, history=False)
        credited = None
        for n, state in enumerate(route_states(exploration, route, screenshots=annotation.judges_pixels)):
            if n:
                tracker.act(route.actions[n - 1])  # the move from the screen before
            tracker.observe(state, state.installed_packages)
            if credited is None and tracker.success:
                credited = n
        verdicts.append(RouteVerdict(route, credited, len(tracker.matched)))
    return verdicts


def score(verdicts: list[RouteVerdict]) -> RouteScore:
    good = [v for v in verdicts if v.route.success]
    bad = [v for v in verdicts if not v.route.success]
    return RouteScore(
        successes=len(good), credited=sum(v.credited_at is not None for v in good), failures=len(bad),
        false_credits=sum(v.credited_at is not None for v in bad),
        early=sum(v.credited_at is not None and v.credited_at < len(v.route) for v in good))


__all__ = ["RouteScore", "RouteVerdict", "judge_routes", "score"]
