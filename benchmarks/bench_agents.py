"""What the project's own agents and an env reset cost: ``act`` of the random and the
oracle agent, and ``reset`` through ``gym.make`` (issue 16's targets: <= 0.2 ms per
``act``, <= 5 ms per ``reset``).

Each agent plays episodes of every given task from ``reset(seed=s)`` and ``act`` is timed
on each screen as the env hands it over, as in a run: the agent shares the env's
hierarchy of the screen (`ViewHierarchy.of`) and is the first to read its nodes when the
env has not (they are made then); the figure in brackets is ``act`` when the env made
them first (`env.hierarchy`, as the matcher and the policy wrappers read it). ``reset``
is timed over seeds 0..N-1, a new episode each (a fresh simulated phone: seeded content,
the task's setup). Medians over ``--runs``.

    python benchmarks/bench_agents.py [--tasks settings-turn-off-wifi bestbuy-empty-cart]
        [--episodes 5] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.agents import OracleAgent, RandomAgent
from mobile_gym.env import resolve_task

AGENTS = {"random": lambda task, seed: RandomAgent(seed=seed, task=task), "oracle": lambda task, seed: OracleAgent(task)}


def act_ms(task_id: str, name: str, episodes: int, runs: int, made: bool = False) -> tuple[float, int]:
    """Median over runs of the mean ``act`` time (ms), and the acts timed per run; with
    ``made``, the env makes each screen's nodes before the agent acts."""
    task = resolve_task(task_id)
    env = gym.make(task.env_id)
    times = []
    for _ in range(runs):
        elapsed, acts = 0.0, 0
        for seed in range(episodes):
            agent = AGENTS[name](task, seed)
            obs, info = env.reset(seed=seed)
            agent.reset(seed)
            done = False
            while not done:
                if made:
                    env.unwrapped.hierarchy.nodes
                start = time.perf_counter()
                action = agent.act(obs, info)
                elapsed += time.perf_counter() - start
                acts += 1
                obs, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
        times.append(elapsed * 1000 / acts)
    env.close()
    return statistics.median(times), acts


def reset_ms(task_id: str, resets: int, runs: int) -> float:
    env = gym.make(f"LlamaTouch/{task_id}-v0")
    env.reset(seed=0)  # the task's ground truth and caches: loaded once, not timed
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for seed in range(resets):
            env.reset(seed=seed)
        times.append((time.perf_counter() - start) * 1000 / resets)
    env.close()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="+", default=["settings-turn-off-wifi", "bestbuy-empty-cart"])
    parser.add_argument("--episodes", type=int, default=5, help="episodes per task and agent")
    parser.add_argument("--resets", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for task in args.tasks:
        for name in AGENTS:
            ms, acts = act_ms(task, name, args.episodes, args.runs)
            made, _ = act_ms(task, name, args.episodes, args.runs, made=True)
            print(f"{task}: {name} agent act median {ms:.3f} ms ({made:.3f} ms on screens the env read first; "
                  f"{acts} acts, {args.runs} runs)")
        print(f"{task}: reset median {reset_ms(task, args.resets, args.runs):.2f} ms "
              f"({args.resets} seeds, {args.runs} runs)")


if __name__ == "__main__":
    main()
