"""Per-step cost of the AndroidWorld adapter: ``get_state`` + ``execute_action``.

An AndroidWorld agent's step on the simulated phone: ``get_state()`` (the screen's
pixels at the device's resolution, 1080x2400, and its UI elements) then
``execute_action(JSONAction)``. The actions are AndroidWorld's random agent's mix
(half clicks at random pixels, then double taps, scrolls, swipes, Home, Back, Enter,
waits, typed text, each 5%), drawn from a seeded generator; a third of the clicks name a
UI element by index instead, as T3A and M3A do. Each run plays ``--steps`` steps on each
of a few tasks (a fresh episode per task, ``dynamics="default"``); the figure is the
median step over all, then the median over runs.

The baseline, timed in the same sitting on the same actions: the gym env's own step
(`MobileEnv.step` with ``observation="both"``, a 270x600 screenshot and the dump), the
work any agent of ours pays.

    python benchmarks/bench_androidworld.py [--steps 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from mobile_gym.actions import Action
from mobile_gym.compat.androidworld import AndroidWorldEnv, JSONAction, task_registry
from mobile_gym.compat.androidworld.tasks import class_name
from mobile_gym.env import make_env

TASKS = ("settings-turn-off-wifi", "clock-trace-tokyo-time", "gmail-search-starred-emails", "trello-add-new-card")
TARGET_MS = 2.0
VERBS = ["click"] * 10 + ["double_tap", "scroll", "swipe", "navigate_home", "navigate_back", "keyboard_enter", "wait",
                         "input_text"]


def random_action(rng: random.Random, size: tuple[int, int], elements: int) -> dict:
    """An action as AndroidWorld's random agent draws it (its weights), a third of the
    clicks by element index."""
    verb = rng.choice(VERBS)
    action: dict = {"action_type": verb}
    if verb == "click" and elements and rng.random() < 1 / 3:
        action["index"] = rng.randrange(elements)
    elif verb in ("click", "double_tap", "input_text"):
        action["x"], action["y"] = rng.randrange(size[0]), rng.randrange(size[1])
        if verb == "input_text":
            action["text"] = "".join(rng.choices("abcdefghij0123456789", k=10))
    elif verb in ("scroll", "swipe"):
        action["direction"] = rng.choice(["up", "down", "left", "right"])
    return action


def adapter_run(env: AndroidWorldEnv, steps: int, seed: int) -> list[float]:
    times = []
    rng = random.Random(seed)
    for task_id in TASKS:
        task = task_registry(task_id)[class_name(task_id)]({"seed": seed})
        task.initialize_task(env)
        for _ in range(steps):
            start = time.perf_counter()
            state = env.get_state()
            env.execute_action(JSONAction(**random_action(rng, env.device_screen_size, len(state.ui_elements))))
            times.append(time.perf_counter() - start)
        task.tear_down(env)
    return times


def baseline_run(steps: int, seed: int) -> list[float]:
    """The gym env's own step on the same number of random actions (our `Action`s)."""
    times = []
    rng = random.Random(seed)
    for task_id in TASKS:
        env = make_env(task_id, actions="all", terminate_on_success=False)
        env.reset(seed=seed)
        for _ in range(steps):
            x, y = rng.random(), rng.random()
            action = rng.choice([Action.click(x, y)] * 10 + [Action.double_tap(x, y), Action.swipe(0.5, 0.5, 0.5, 0.1),
                                Action.swipe(0.5, 0.5, 0.5, 1.0), Action.home(), Action.back(), Action.enter(),
                                Action.wait(), Action.type_text("abcdefghij")])
            start = time.perf_counter()
            env.step(action)
            times.append(time.perf_counter() - start)
        env.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200, help="steps per task per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = AndroidWorldEnv(seed=0)
    adapter_run(env, 20, seed=99)  # warm: the first screens of each app, imports
    ours, base = [], []
    for run in range(args.runs):
        ours.append(statistics.median(adapter_run(env, args.steps, seed=run)) * 1000)
        base.append(statistics.median(baseline_run(args.steps, seed=run)) * 1000)
    env.close()
    median, baseline = statistics.median(ours), statistics.median(base)
    print(f"[androidworld] get_state + execute_action: median {median:.2f} ms per step over {args.runs} runs "
          f"({', '.join(f'{t:.2f}' for t in ours)}); {args.steps} steps x {len(TASKS)} tasks per run, pixels 1080x2400")
    print(f"[baseline] MobileEnv.step (observation both, 270x600): median {baseline:.2f} ms "
          f"({', '.join(f'{t:.2f}' for t in base)}); adapter / baseline {median / baseline:.2f}x")
    print(f"[target] <= {TARGET_MS:g} ms: {'met' if median <= TARGET_MS else 'NOT met'}; about "
          f"{1000 / median:,.0f}x an emulator's second per AndroidWorld step")


if __name__ == "__main__":
    main()
