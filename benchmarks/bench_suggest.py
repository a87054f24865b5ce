"""Suggested annotations (issue 14) against the hand-written ones, on every simulator task.

For each task: explore its routes (seed 0, the default profile, dynamics ``default``, a
modest time budget), suggest an annotation from them (`mobile_gym.authoring.suggest`), and
judge both the suggestion and the task's own annotation on the same routes with
`judge_routes`, as the env judges an episode. A suggestion is fitted to those routes, so
both are also judged on held-out routes: an exploration at another seed (another clock,
other content and popups under the dynamics), which the suggestion never saw.

Printed per task: routes found (successful+failing, on the exploration and the held-out
one), recall and precision of each annotation on the
exploration and on the held-out one, and how many checkpoints / primitives each has; then
how often each is perfect (recall and precision 100%), pooled recall and precision, and
on how many tasks the suggestion judges more (or fewer) routes right.

    python benchmarks/bench_suggest.py [--budget 12] [--holdout-seed 1 | --no-holdout]
        [--tasks PATTERN ...] [--yaml]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from mobile_gym.authoring.explorer import ExploreConfig, explore
from mobile_gym.authoring.suggest import Suggestion, suggest_annotation
from mobile_gym.authoring.validate import RouteScore, judge_routes, score
from mobile_gym.errors import MobileGymError
from mobile_gym.tasks.suite import select_simulator_tasks


@dataclass
class Row:
    task: str
    routes: str  # successful + failing routes found, on the exploration / the held-out one
    suggestion: Suggestion | None
    mine: RouteScore | None  # the suggestion on its own exploration
    hand: RouteScore
    mine_out: RouteScore | None  # on the held-out exploration
    hand_out: RouteScore | None
    hand_size: str
    seconds: float


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def _rp(s: RouteScore | None) -> str:
    return "n/a" if s is None else f"{_pct(s.recall)}/{_pct(s.precision)}"


def _perfect(s: RouteScore | None) -> bool:
    return s is not None and s.recall == 1 and s.false_credits == 0 and s.early == 0


def _right(s: RouteScore) -> int:
    """Routes judged right: successes credited at their last move, failures never."""
    return s.credited - s.early + s.failures - s.false_credits


def _pooled(scores: list[RouteScore]) -> str:
    credited = sum(x.credited for x in scores)
    said = credited + sum(x.false_credits for x in scores)
    recall = credited / max(1, sum(x.successes for x in scores))
    precision = (credited - sum(x.early for x in scores)) / said if said else 1.0
    return f"recall {100 * recall:.1f}% precision {100 * precision:.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=12.0, help="exploration seconds per task (default: 12)")
    parser.add_argument("--holdout-seed", type=int, default=1, metavar="S",
                        help="seed of the held-out exploration (default: 1)")
    parser.add_argument("--no-holdout", action="store_true", help="skip the held-out exploration")
    parser.add_argument("--tasks", nargs="+", metavar="PATTERN", help="simulator tasks (default: all)")
    parser.add_argument("--yaml", action="store_true", help="print each suggestion's YAML too")
    args = parser.parse_args(argv)

    config = ExploreConfig(time_budget=args.budget)
    rows: list[Row] = []
    began = time.perf_counter()
    header = (f"{'task':<36} {'routes':>12} | {'suggested':>9} {'held-out':>9} {'cp/chk':>6} | "
              f"{'hand':>9} {'held-out':>9} {'cp/chk':>6} | {'secs':>4}")
    print(header)
    print("-" * len(header))
    for task in select_simulator_tasks(args.tasks):
        t0 = time.perf_counter()
        found = explore(task, seed=0, config=config)
        hand = score(judge_routes(found))
        try:
            suggestion = suggest_annotation(found)
        except MobileGymError as exc:
            suggestion = None
            print(f"{task.id}: no suggestion: {exc}", file=sys.stderr)
        mine_out = hand_out = None
        routes = f"{len(found.successes)}+{len(found.failures)}"
        if not args.no_holdout:
            held = explore(task, seed=args.holdout_seed, config=config)
            routes += f" {len(held.successes)}+{len(held.failures)}"
            hand_out = score(judge_routes(held))
            if suggestion is not None:
                mine_out = score(judge_routes(held, suggestion.annotation))
        size = f"{len(task.checkpoints)}/{sum(len(c.checks) for c in task.checkpoints)}"
        row = Row(task.id, routes, suggestion,
                  suggestion.score if suggestion is not None else None, hand, mine_out, hand_out, size,
                  time.perf_counter() - t0)
        rows.append(row)
        mine_size = "-" if suggestion is None else \
            f"{len(suggestion.checkpoints)}/{sum(len(c.checks) for c in suggestion.checkpoints)}"
        print(f"{row.task:<36} {row.routes:>12} | {_rp(row.mine):>9} {_rp(row.mine_out):>9} {mine_size:>6} | "
              f"{_rp(row.hand):>9} {_rp(row.hand_out):>9} {size:>6} | {row.seconds:>4.0f}", flush=True)

    n = len(rows)
    fitted = [r for r in rows if r.mine is not None]
    print()
    print(f"{n} tasks in {time.perf_counter() - began:.0f} s (exploration budget {args.budget:g} s per exploration; "
          f"seed 0{'' if args.no_holdout else f', held-out seed {args.holdout_seed}'})")
    print(f"100% recall and precision on the exploration: suggestion {sum(_perfect(r.mine) for r in rows)}/{n}, "
          f"hand-written {sum(_perfect(r.hand) for r in rows)}/{n}")
    if not args.no_holdout:
        print(f"100% recall and precision on the held-out routes: suggestion "
              f"{sum(_perfect(r.mine_out) for r in rows)}/{n}, "
              f"hand-written {sum(_perfect(r.hand_out) for r in rows)}/{n}")
    print(f"pooled on the exploration: suggestion {_pooled([r.mine for r in fitted])}; "
          f"hand-written {_pooled([r.hand for r in fitted])}")
    if not args.no_holdout:
        print(f"pooled on the held-out routes: suggestion {_pooled([r.mine_out for r in fitted])}; "
              f"hand-written {_pooled([r.hand_out for r in fitted])}")
    for name, mine, hand in (("exploration", "mine", "hand"), ("held-out routes", "mine_out", "hand_out")):
        pairs = [(getattr(r, mine), getattr(r, hand)) for r in fitted if getattr(r, mine) is not None]
        if pairs:
            better = sum(_right(m) > _right(h) for m, h in pairs)
            worse = sum(_right(m) < _right(h) for m, h in pairs)
            print(f"routes judged right on the {name}: suggestion better on {better} tasks, worse on {worse}, "
                  f"equal on {len(pairs) - better - worse}")
    if fitted:
        made = [r.suggestion for r in fitted if r.suggestion is not None]
        cps = sum(len(m.checkpoints) for m in made) / len(made)
        checks = sum(sum(len(c.checks) for c in m.checkpoints) for m in made) / len(made)
        hand_cps = sum(int(r.hand_size.split("/")[0]) for r in fitted) / len(fitted)
        hand_checks = sum(int(r.hand_size.split("/")[1]) for r in fitted) / len(fitted)
        print(f"size: suggestion {cps:.1f} checkpoints / {checks:.1f} primitives per task; "
              f"hand-written {hand_cps:.1f} / {hand_checks:.1f}")
    if args.yaml:
        print()
        for r in fitted:
            print(f"# {r.task}\n{r.suggestion.yaml}")  # type: ignore[union-attr]
    return 0


if __name__ == "__main__":
    sys.exit(main())
