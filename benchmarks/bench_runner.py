"""Runner throughput: episodes per minute and env steps per second of `run_batch` with 1
and 2 workers, and its overhead against a bare `gym` loop.

Jobs: every simulator task x seeds 0..N-1 with the `random` agent. The runner runs them
with ``run_batch(jobs, out=<temp dir>, workers=K)`` (one fsynced JSON line per episode;
episodes run in worker processes even with K=1, for the episode timeout and dead-worker
recovery, so the overhead includes forking the worker and a pipe round trip per episode);
the bare loop runs the same jobs in this process with ``gym.make``, a `RandomAgent` built
as `load_agent` builds it, ``reset(seed)`` and ``step`` until the episode ends: no
records, no files. Both use the same env kwargs (those of ``mobile-gym run``).

Fairness: before anything is timed, every task's golden path is replayed (its
annotation built) and the bare loop runs once over all jobs, untimed, which fills every
matcher cache the timed runs will touch (the runs are deterministic per seed, so they hit
the same screens). Forked workers inherit these warm caches, so no timed run pays for
them. Each run times bare, 1 worker and 2 workers in a rotating order, so drift on a busy
machine does not always fall on the same one. Step counts of runner and bare loop must
be equal job by job (the script exits 1 if not).

    python benchmarks/bench_runner.py [--seeds 3] [--runs 3] [--workers 1 2] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import gymnasium as gym

from mobile_gym.agents import RandomAgent
from mobile_gym.runner import Job, run_batch
from mobile_gym.tasks.catalogue import env_id
from mobile_gym.tasks.suite import simulator_tasks

#: What ``mobile-gym run`` passes by default, given to the runner and the bare loop alike.
ENV_KWARGS = {"dynamics": "default", "profile": "pixel-6", "terminate_on_success": True}
#: Cheap tasks for ``--quick`` (short golden paths, no embedding model).
QUICK_TASKS = ("settings-turn-airplane-mode", "settings-turn-off-wifi")
AGENT = "random"


def bare_loop(jobs: list[Job]) -> tuple[dict[tuple, int], list[float]]:
    """Steps per job and seconds per episode (``gym.make`` to ``close``, the span of a
    runner record's ``wall_time``) of the plain Gymnasium loop."""
    steps: dict[tuple, int] = {}
    times: list[float] = []
    for job in jobs:
        start = time.perf_counter()
        env = gym.make(env_id(job.task), **ENV_KWARGS)
        agent = RandomAgent(seed=job.seed, task=job.task)  # what load_agent("random", task, seed) builds
        obs, info = env.reset(seed=job.seed)
        agent.reset(job.seed)
        while True:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            if terminated or truncated:
                break
        env.close()
        times.append(time.perf_counter() - start)
        steps[job.key] = info["steps"]
    return steps, times


def cpu_seconds() -> float:
    """CPU time of this process and its reaped children (the pool's workers): it excludes
    time spent waiting for a core, so it swings less than wall time on a shared machine."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(fn):
    """Wall and CPU seconds of ``fn()`` after a collection (so no run inherits another's
    garbage), and its result."""
    gc.collect()
    cpu, start = cpu_seconds(), time.perf_counter()
    result = fn()
    return time.perf_counter() - start, cpu_seconds() - cpu, result


def label(name: str) -> str:
    """``bare`` -> ``bare gym loop``, ``runner-2`` -> ``runner 2 workers``."""
    if name == "bare":
        return "bare gym loop"
    k = int(name.split("-")[1])
    return f"runner {k} worker{'s' if k > 1 else ''}"


def seconds(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def rate_line(title: str, walls: list[float], cpus: list[float], episodes: int, steps: int) -> str:
    wall = statistics.median(walls)
    return (f"[{title}] median {60 * episodes / wall:.0f} episodes/min, {steps / wall:.0f} env steps/s "
            f"over {len(walls)} runs (wall {seconds(walls)} s; CPU {seconds(cpus)} s, "
            f"{statistics.median(cpus) / wall:.2f} cores busy; "
            f"{episodes} episodes, {steps} env steps)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0..N-1 per task")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--quick", action="store_true", help=f"{len(QUICK_TASKS)} tasks, 1 seed, 1 run (a smoke test)")
    args = parser.parse_args(argv)
    tasks = simulator_tasks()
    ids = list(QUICK_TASKS) if args.quick else list(tasks)
    seeds = 1 if args.quick else args.seeds
    runs = 1 if args.quick else args.runs
    jobs = [Job(t, AGENT, s) for t in ids for s in range(seeds)]
    print(f"jobs: {len(ids)} tasks x {seeds} seeds = {len(jobs)} episodes, agent {AGENT}, "
          f"env kwargs {ENV_KWARGS}; {runs} runs of bare, " + ", ".join(f"{k} worker(s)" for k in args.workers))

    # Warm-up, excluded from every timing (see the module docstring).
    golden, _, _ = timed(lambda: [tasks[t].annotation for t in ids])
    warm, _, (bare_steps, _) = timed(lambda: bare_loop(jobs))
    torch = "torch" in sys.modules
    print(f"warm-up (not timed): golden paths + annotations {golden:.2f} s, one bare pass over all jobs "
          f"{warm:.2f} s; embedding model {'loaded' if torch else 'not needed'}; workers fork from this warm process")

    walls: dict[str, list[float]] = {"bare": [], **{f"runner-{k}": [] for k in args.workers}}
    cpus: dict[str, list[float]] = {name: [] for name in walls}
    steps: dict[str, dict[tuple, int]] = {"bare": bare_steps}
    in_episode: dict[str, list[float]] = {}  # per-run sums of episode times, for the overhead split
    errors = []
    with tempfile.TemporaryDirectory(prefix="bench_runner_") as tmp:
        for r in range(runs):
            order = list(walls)
            order = order[r % len(order):] + order[:r % len(order)]
            for name in order:
                if name == "bare":
                    wall, cpu, (got, times) = timed(lambda: bare_loop(jobs))
                    in_episode.setdefault(name, []).append(sum(times))
                else:
                    k = int(name.split("-")[1])
                    out = Path(tmp) / f"{name}-run{r}"
                    wall, cpu, records = timed(lambda: run_batch(jobs, out, workers=k, env_kwargs=ENV_KWARGS))
                    got = {(rec["task"], rec["agent"], rec["seed"]): rec["steps"] for rec in records}
                    errors += [(name, rec["task"], rec["seed"], rec["error"]) for rec in records if rec["error"]]
                    in_episode.setdefault(name, []).append(sum(rec["wall_time"] for rec in records))
                walls[name].append(wall)
                cpus[name].append(cpu)
                if steps.setdefault(name, got) != got:
                    print(f"[steps] {label(name)}: run {r} took other step counts than run 0 (not deterministic)")
                    return 1

    total = {name: sum(s.values()) for name, s in steps.items()}
    for name in walls:
        print(rate_line(label(name), walls[name], cpus[name], len(jobs), total[name]))
    differ = [j.key for j in jobs if len({s[j.key] for s in steps.values()}) != 1]
    print("[steps] env steps: " + ", ".join(f"{label(n)} {t}" for n, t in total.items())
          + ("; equal job by job" if not differ else f"; DIFFER on {len(differ)} jobs, e.g. {differ[0]}"))
    if errors:
        print(f"[errors] {len(errors)} runner episodes failed, e.g. {errors[0]}")
    if 1 in args.workers:
        bare, one = statistics.median(walls["bare"]), statistics.median(walls["runner-1"])
        inside = statistics.median(in_episode["runner-1"]) / statistics.median(in_episode["bare"]) - 1
        outside = statistics.median(w - e for w, e in zip(walls["runner-1"], in_episode["runner-1"]))
        cpu = statistics.median(cpus["runner-1"]) / statistics.median(cpus["bare"]) - 1
        print(f"[overhead] runner 1 worker vs bare loop: {100 * (one / bare - 1):+.1f}% wall time "
              f"({one:.2f} s vs {bare:.2f} s), {100 * cpu:+.1f}% CPU time; inside episodes {100 * inside:+.1f}%, "
              f"outside (JSONL write + fsync, dispatch to the worker process) {1000 * outside / len(jobs):.1f} "
              "ms/episode")
        for k in args.workers:
            if k > 1:
                many = statistics.median(walls[f"runner-{k}"])
                cpu = statistics.median(cpus[f"runner-{k}"]) / statistics.median(cpus["runner-1"])
                print(f"[speed-up] runner {k} workers vs 1 worker: {one / many:.2f}x ({many:.2f} s vs {one:.2f} s "
                      f"wall; CPU x{cpu:.2f})")
    return 1 if differ or errors else 0


if __name__ == "__main__":
    sys.exit(main())
