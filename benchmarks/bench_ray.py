"""Episodes per minute of one batch with the local process pool and with Ray on this
machine: Ray's overhead per episode (issue 17).

The batch: the oracle and the random agent on every simulator task, ``--seeds`` seeds
each, ``--workers`` at a time, traces saved (observation-size screenshots). Ray is started
once, before the timed runs (its start is printed apart); each executor runs the batch
``--runs`` times into fresh folders, alternated. ``--shipped`` also times the path of a
worker on another node (its trace packed and sent back through the object store), and
prints the bytes a trace weighs.

    python benchmarks/bench_ray.py [--seeds 2] [--workers 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from mobile_gym.runner import Job, run_batch
from mobile_gym.runner import ray_pool
from mobile_gym.runner.batch import TRACES_DIR
from mobile_gym.tasks.suite import simulator_tasks


def timed(jobs: list[Job], out: Path, workers: int, executor: str) -> float:
    start = time.perf_counter()
    records = run_batch(jobs, out, workers=workers, save_traces=True, trace_screenshots="observation",
                        executor=executor)
    seconds = time.perf_counter() - start
    assert len(records) == len(jobs) and not any(r["error"] for r in records), "a batch must run clean to be timed"
    return seconds


def trace_bytes(out: Path) -> int:
    return sum(p.stat().st_size for p in (out / TRACES_DIR).rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--shipped", action="store_true", help="also time traces packed and sent back")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    jobs = [Job(t, agent, s) for t in sorted(simulator_tasks()) for agent in ("oracle", "random")
            for s in range(args.seeds)]
    start = time.perf_counter()
    ray = ray_pool.connect(None)
    print(f"ray.init: {time.perf_counter() - start:.1f} s ({ray.cluster_resources().get('CPU', 0):g} CPUs)")
    kinds = ["process", "ray"] + (["shipped"] if args.shipped else [])
    seconds: dict[str, list[float]] = {k: [] for k in kinds}
    weight, through_client = 0, ray_pool._through_client
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs + 1):  # the first round warms both up (imports, Ray's workers)
            for kind in kinds:
                out = Path(tmp) / f"{kind}{run}"
                if kind == "shipped":
                    ray_pool._through_client = lambda ray: True  # every worker on "another node"
                t = timed(jobs, out, args.workers, "ray" if kind == "shipped" else kind)
                if kind == "shipped":
                    ray_pool._through_client = through_client
                    weight = trace_bytes(out)
                if run:
                    seconds[kind].append(t)
    n = len(jobs)
    base = statistics.median(seconds["process"])
    print(f"batch: {n} episodes ({len(simulator_tasks())} tasks x oracle, random x {args.seeds} seeds), "
          f"{args.workers} workers, traces saved; medians of {args.runs} runs")
    for kind in kinds:
        med = statistics.median(seconds[kind])
        runs = ", ".join(f"{n / t * 60:.0f}" for t in seconds[kind])
        extra = "" if kind == "process" else f"; {med / base:.2f}x the pool's time, {(med - base) / n * 1000:+.0f} ms an episode"
        print(f"[{kind}] {n / med * 60:.0f} episodes/min ({runs}){extra}")
    if args.shipped:
        print(f"traces shipped: {weight / n / 1024:.0f} KiB an episode")


if __name__ == "__main__":
    main()
