"""What an env costs: time to make, reset, copy and pickle one, and memory per env.

Every simulator task is made, reset (seed 0) and stepped by a seeded random agent; the
figures are medians over the tasks and over ``--runs`` runs:

- make: ``gym.make(id)`` once the task has been made before in the process (the first
  make of a task builds its annotation: reported apart, in a fresh interpreter, for a
  task without fuzzy checks and for one whose first make loads the embedding model);
- reset, ``copy.deepcopy`` and ``pickle.dumps`` / ``loads`` of an env mid-episode (after
  ``--steps`` steps), and the pickle's size (the largest over the tasks too);
- vector envs: ``gym.make_vec(id, num_envs=2)`` in ``sync`` and ``async`` mode (shared
  memory, Gymnasium's default): time to build one, and per ``step`` of a scroll;
- memory: resident-set growth (``/proc/self/statm``) per env, in a fresh interpreter
  with the embedding model already loaded, for 30 envs of one task, one env of each of
  the 30 tasks (each task's annotation included), and 30 unpickled copies of one env;
  every env reset and stepped ``--steps`` times (a copy: once after unpickling).

    python benchmarks/bench_env_resources.py [--runs 3] [--steps 5]
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import pickle
import statistics
import subprocess
import sys
import time

import gymnasium as gym
import numpy as np

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import Action
from mobile_gym.agents import RandomAgent
from mobile_gym.tasks.suite import simulator_tasks

TARGETS = {"make_ms": 10.0, "pickle_mb": 1.0, "copy_ms": 20.0, "mb_per_env": 10.0}
PLAIN_TASK = "settings-turn-off-wifi"  # no fuzzy check: its first make loads no model
FUZZY_TASK = "clock-trace-tokyo-time"  # fuzzy<n>: its first make loads the embedding model
MEMORY_TASK = "bestbuy-empty-cart"
SCROLL = Action.swipe(0.5, 0.7, 0.5, 0.4)


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def played(env_id: str, steps: int, seed: int = 0) -> gym.Env:
    """An env made, reset and stepped ``steps`` times by a seeded random agent (fewer if
    the episode ends first)."""
    env = gym.make(env_id)
    agent = RandomAgent(seed, task=env_id)
    obs, info = env.reset(seed=seed)
    for _ in range(steps):
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        if terminated or truncated:
            obs, info = env.reset(seed=seed + 1)
    return env


def ms(fn) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return 1000 * (time.perf_counter() - start), result


def per_task(steps: int) -> dict[str, list[float]]:
    """Times (ms) and pickle sizes (MB) of every task's env, warm."""
    out: dict[str, list[float]] = {k: [] for k in ("make", "reset", "deepcopy", "dumps", "loads", "pickle_mb")}
    for task in simulator_tasks().values():
        gym.make(task.env_id).reset(seed=0)  # the task's first make and reset: not timed
        out["make"].append(ms(lambda: gym.make(task.env_id))[0])
        env = gym.make(task.env_id)
        out["reset"].append(ms(lambda: env.reset(seed=1))[0])
        env = played(task.env_id, steps)
        out["deepcopy"].append(ms(lambda: copy.deepcopy(env))[0])
        took, data = ms(lambda: pickle.dumps(env))
        out["dumps"].append(took)
        out["loads"].append(ms(lambda: pickle.loads(data))[0])
        out["pickle_mb"].append(len(data) / 2**20)
    return out


def vector(mode: str, steps: int = 20) -> tuple[float, float]:
    """ms to build a 2-env vector env of `PLAIN_TASK`, and median ms per step."""
    env_id = simulator_tasks()[PLAIN_TASK].env_id
    built, envs = ms(lambda: gym.make_vec(env_id, num_envs=2, vectorization_mode=mode))
    envs.reset(seed=0)
    action = {"action_type": np.full(2, int(SCROLL.action_type)), "touch": np.tile(SCROLL.touch, (2, 1)),
              "lift": np.tile(SCROLL.lift, (2, 1)), "text": ("", "")}
    took = [ms(lambda: envs.step(action))[0] for _ in range(steps)]
    envs.close()
    return built, statistics.median(took)


def first_make(task: str) -> float:
    """ms of the first ``gym.make`` + ``reset`` of ``task`` in this (fresh) process."""
    env_id = simulator_tasks()[task].env_id
    return ms(lambda: gym.make(env_id).reset(seed=0))[0]


def memory(kind: str, steps: int) -> float:
    """MB of resident memory per env for 30 envs (see the module docstring)."""
    from mobile_gym.matcher import shared_embedder

    tasks = simulator_tasks()
    shared_embedder().embed(["warm"])  # the model is loaded once per process: not an env's cost
    if kind == "tasks":
        ids = [t.env_id for t in tasks.values()]
    else:
        ids = [tasks[MEMORY_TASK].env_id] * 30
        played(ids[0], steps)  # the task's annotation exists before the baseline
    original = played(ids[0], steps) if kind == "copies" else None
    gc.collect()
    before = rss_mb()
    if kind == "copies":
        data = pickle.dumps(original)
        envs = [pickle.loads(data) for _ in ids]
        for env in envs:  # each draws its own screen
            env.step(SCROLL)
        del data
    else:
        envs = [played(env_id, steps, seed=i) for i, env_id in enumerate(ids)]
    gc.collect()
    return (rss_mb() - before) / len(envs)


def child(args: list[str]) -> float:
    """Run one measurement in a fresh interpreter (first-time costs, clean memory)."""
    out = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def fmt(values: list[float], unit: str, digits: int = 1) -> str:
    return f"{statistics.median(values):.{digits}f} {unit} ({', '.join(f'{v:.{digits}f}' for v in values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=5, help="random-agent steps before copying or pickling")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        what, *rest = args.child
        print(json.dumps(first_make(rest[0]) if what == "first" else memory(rest[0], args.steps)))
        return 0

    n = len(simulator_tasks())
    print(f"{n} simulator tasks, {args.runs} runs, {args.steps} random-agent steps before copy/pickle")
    runs = [per_task(args.steps) for _ in range(args.runs)]
    medians = {k: [statistics.median(r[k]) for r in runs] for k in runs[0]}
    largest = max(max(r["pickle_mb"]) for r in runs)
    for key, label in (("make", "gym.make, warm"), ("reset", "reset"), ("deepcopy", "copy.deepcopy mid-episode"),
                       ("dumps", "pickle.dumps mid-episode"), ("loads", "pickle.loads mid-episode")):
        print(f"[time] {label}: median over tasks {fmt(medians[key], 'ms', 2)}")
    print(f"[pickle] size mid-episode: median over tasks {fmt(medians['pickle_mb'], 'MB', 3)}; "
          f"largest {largest:.3f} MB")
    for mode in ("sync", "async"):
        built, stepped = zip(*(vector(mode) for _ in range(args.runs)))
        print(f"[vector] make_vec {mode}, 2 envs: build {fmt(list(built), 'ms', 0)}; "
              f"step {fmt(list(stepped), 'ms', 2)}")
    for task in (PLAIN_TASK, FUZZY_TASK):
        firsts = [child(["first", task]) for _ in range(args.runs)]
        print(f"[first] first make + reset of {task} in a fresh process: {fmt(firsts, 'ms', 0)}")
    per_env = {}
    for kind, label in (("same", f"30 envs of {MEMORY_TASK}"), ("tasks", f"one env of each of the {n} tasks"),
                        ("copies", f"30 unpickled copies of one {MEMORY_TASK} env")):
        values = [child(["memory", kind]) for _ in range(args.runs)]
        per_env[kind] = statistics.median(values)
        print(f"[memory] {label}: {fmt(values, 'MB per env')}")
    checks = {"make_ms": statistics.median(medians["make"]), "pickle_mb": largest,
              "copy_ms": statistics.median(medians["deepcopy"]), "mb_per_env": max(per_env.values())}
    print("[targets] " + "; ".join(f"{k} {v:.3g} <= {TARGETS[k]:g}: {'met' if v <= TARGETS[k] else 'MISSED'}"
                                   for k, v in checks.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
