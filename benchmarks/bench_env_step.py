"""Env step throughput per task and observation mode: ``env.step`` through ``gym.make``.

A seeded random agent's actions (COMPLETE and IMPOSSIBLE left out) are recorded once per
task, on the default env, and replayed, timed, in each mode from ``reset(seed=0)`` with
``terminate_on_success=False`` and ``timings=False``; choosing actions is not timed. The
figure is the median over ``--runs`` replays. Modes (``--modes``): ``both`` (the default
observation: screenshot at 270x600 on pixel-6, dump, instruction), ``xml`` (no screenshot
drawn) and ``grey84`` (the screenshot alone, drawn at 84x84 and converted to grey).

``--drawn-judged-screens`` also times the replay with the screen the matcher judges drawn
at full size on every step, as it was before those screenshots were deferred: what a task
whose checks compare pixels (``settings-set-system-dark``) would pay otherwise.

    python benchmarks/bench_env_step.py [--tasks settings-set-system-dark ...] [--steps 300]
        [--runs 5] [--modes both xml grey84] [--drawn-judged-screens]
"""

from __future__ import annotations

import argparse
import statistics
import time
from contextlib import contextmanager
from typing import Iterator

import gymnasium as gym

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import Action
from mobile_gym.agents import RandomAgent
from mobile_gym.simulator import SimulatedDevice

#: gym.make arguments of each observation mode timed.
MODES = {
    "both": {},
    "xml": {"observation": "xml"},
    "grey84": {"observation": "screenshot", "grayscale": True, "observation_size": (84, 84)},
}


def recorded_actions(env: gym.Env, steps: int) -> list[Action]:
    agent = RandomAgent(0)
    obs, info = env.reset(seed=0)
    actions = []
    while len(actions) < steps:
        action = agent.act(obs, info)
        if action.ends_episode:
            continue
        actions.append(action)
        obs, *_, info = env.step(action)
    return actions


def steps_per_second(env: gym.Env, actions: list[Action], runs: int) -> float:
    rates = []
    for _ in range(runs):
        env.reset(seed=0)
        start = time.perf_counter()
        for action in actions:
            env.step(action)
        rates.append(len(actions) / (time.perf_counter() - start))
    return statistics.median(rates)


@contextmanager
def judged_screens_drawn() -> Iterator[None]:
    """A deferred screenshot is drawn at once instead."""
    observe = SimulatedDevice.observe

    def drawn(self, *, screenshot=True, screenshot_size=None, deferred_screenshot=False):
        return observe(self, screenshot=screenshot or deferred_screenshot, screenshot_size=screenshot_size)

    SimulatedDevice.observe = drawn
    try:
        yield
    finally:
        SimulatedDevice.observe = observe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="+", default=["settings-set-system-dark", "settings-turn-off-wifi"])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--modes", nargs="+", choices=list(MODES), default=list(MODES))
    parser.add_argument("--drawn-judged-screens", action="store_true")
    args = parser.parse_args()
    for task in args.tasks:
        env_id = f"LlamaTouch/{task}-v0"
        recorder = gym.make(env_id, max_episode_steps=10**6, terminate_on_success=False)
        actions = recorded_actions(recorder, args.steps)  # the random agent reads the default observation
        recorder.close()
        for mode in args.modes:
            env = gym.make(env_id, max_episode_steps=10**6, terminate_on_success=False, **MODES[mode])
            line = f"{task} [{mode}]: median {steps_per_second(env, actions, args.runs):.0f} env steps/s"
            if args.drawn_judged_screens:
                with judged_screens_drawn():
                    line += f"; judged screens drawn every step: {steps_per_second(env, actions, args.runs):.0f}"
            print(f"{line} ({args.runs} runs of {len(actions)} steps)", flush=True)
            env.close()


if __name__ == "__main__":
    main()
