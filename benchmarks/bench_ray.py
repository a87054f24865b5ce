"""Episodes per minute of one batch with the local process pool and with Ray on this
machine: Ray's overhead per episode (issue 17).

The batch: the oracle and the random agent on every simulator task, ``--seeds`` seeds
each, ``--workers`` at a time, traces saved (observation-size screenshots). Timed as a user
sees it, a fresh ``mobile-gym run`` process each time: with the process pool; with
``--executor ray`` starting its own Ray; and connected (``--address``) to a Ray this script
keeps running. Then, inside this process with Ray's workers warm, the pool against Ray, and
Ray with every worker taken for one on another node (its trace packed and sent back
through the object store). ``--runs`` of each, alternated.

    python benchmarks/bench_ray.py [--seeds 4] [--workers 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
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


def cli(out: Path, args: argparse.Namespace, *extra: str) -> float:
    """Seconds of the ``mobile-gym run`` processes of the batch (one per agent), start to exit."""
    start = time.perf_counter()
    for agent in ("oracle", "random"):
        subprocess.run([sys.executable, "-m", "mobile_gym", "run", "--agent", agent, "--seeds", str(args.seeds),
                        "--workers", str(args.workers), "--save-traces", "--trace-screenshots", "observation",
                        "--out", str(out / agent), *extra], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    jobs = [Job(t, agent, s) for t in sorted(simulator_tasks()) for agent in ("oracle", "random")
            for s in range(args.seeds)]
    n = len(jobs)
    start = time.perf_counter()
    ray = ray_pool.connect(None)
    print(f"ray.init: {time.perf_counter() - start:.1f} s ({ray.cluster_resources().get('CPU', 0):g} CPUs)")
    address = ray.get_runtime_context().gcs_address
    print(f"batch: {n} episodes ({len(simulator_tasks())} tasks x oracle, random x {args.seeds} seeds), "
          f"{args.workers} workers, traces saved; medians of {args.runs} runs")
    seconds: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        kinds = {
            "mobile-gym run, process pool": lambda out: cli(out, args),
            "mobile-gym run --executor ray, Ray started by the run": lambda out: cli(out, args, "--executor", "ray"),
            "mobile-gym run --executor ray --address (a running Ray)":
                lambda out: cli(out, args, "--executor", "ray", "--address", address),
            "in process, pool": lambda out: timed(jobs, out, args.workers, "process"),
            "in process, Ray (workers warm)": lambda out: timed(jobs, out, args.workers, "ray"),
            "in process, Ray, traces sent back from 'another node'": lambda out: shipped(jobs, out, args.workers),
        }
        for run in range(args.runs + 1):  # the first round warms up (imports, Ray's workers)
            for i, (kind, fn) in enumerate(kinds.items()):
                t = fn(Path(tmp) / f"{i}-{run}")
                if run:
                    seconds.setdefault(kind, []).append(t)
        weight = trace_bytes(Path(tmp) / f"{len(kinds) - 1}-{args.runs}")
    for kind, values in seconds.items():
        pool = "mobile-gym run, process pool" if kind.startswith("mobile-gym") else "in process, pool"
        med, base = statistics.median(values), statistics.median(seconds[pool])
        runs = ", ".join(f"{n / t * 60:.0f}" for t in values)
        print(f"[{kind}] {n / med * 60:.0f} episodes/min ({runs}); {med / base:.2f}x the pool's time, "
              f"{(med - base) / n * 1000:+.0f} ms an episode")
    print(f"a trace sent back: {weight / n / 1024:.0f} KiB an episode")


def shipped(jobs: list[Job], out: Path, workers: int) -> float:
    through_client = ray_pool._through_client
    ray_pool._through_client = lambda ray: True  # every worker on "another node"
    try:
        return timed(jobs, out, workers, "ray")
    finally:
        ray_pool._through_client = through_client


if __name__ == "__main__":
    main()
