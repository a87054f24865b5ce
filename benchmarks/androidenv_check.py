"""Our tasks as AndroidEnv environments (`mobile_gym.compat.androidenv`), checked end to end.

(a) The oracle on every simulator task, its actions sent in AndroidEnv's action language
    (`touch_actions`): a tap is TOUCH, LIFT; a swipe TOUCH, TOUCH, LIFT; a long press
    TOUCHes held, LIFT; a WAIT (an app's loading screen) a LIFT with the finger up. BACK
    and HOME are taps on the navigation bar's buttons and ENTER a tap on the keyboard's
    Enter key, as a pixel agent makes them; typed text, which no finger makes on the
    simulated keyboard (it has no letter keys), goes through ``execute_adb_call``
    (``AdbRequest.input_text``), as AndroidWorld types on AndroidEnv. A task is solved
    when an episode ends LAST with discount 0 (success) and reward 1.0.
(b) android_env's random agent (``examples/run_random_agent.py``: a random action per
    action spec each step) for ``--random-steps`` steps over ``--random-tasks``, at the
    device's resolution as AndroidEnv observes it; episodes end and restart by
    themselves (android_env's auto-reset). Any exception is counted, and the env reset.

    python benchmarks/androidenv_check.py [--tasks 'settings-*' ...] [--random-steps 10000]
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import Any

import numpy as np
from dm_env import specs

from mobile_gym.actions import Action
from mobile_gym.agents import OracleAgent
from mobile_gym.compat.androidenv import MobileAndroidEnv, load, touch_actions
from mobile_gym.simulator.runtime import ENTER_KEY
from mobile_gym.tasks.suite import select_simulator_tasks
from mobile_gym.ui.hierarchy import ViewHierarchy

#: What a pixel agent taps for the keys: the navigation bar's buttons, the keyboard's Enter.
KEY_BUTTONS = {"BACK": "com.android.systemui:id/back", "HOME": "com.android.systemui:id/home", "ENTER": ENTER_KEY}
RANDOM_TASKS = ("settings-open", "clock-change-alarm-snooze", "tasks-star-task2", "calendar-show-week-events",
                "amazon-view-cart")
#: Raw steps an oracle episode may take before it is given up (a golden path is a few dozen).
ORACLE_STEP_CAP = 2_000


def oracle_raw_actions(env: MobileAndroidEnv, action: Action) -> list[dict[str, np.ndarray]]:
    """The oracle's ``action`` in AndroidEnv's action language on the current screen: the
    raw actions to step, none when it went through ``execute_adb_call`` (typed text, or a
    key with no button on screen)."""
    from android_env.proto import adb_pb2

    kind = action.action_type.name
    if kind in KEY_BUTTONS:
        h = ViewHierarchy.of(env.gym_observation["view_hierarchy"])
        node = h.find(resource_id=KEY_BUTTONS[kind])
        if node is not None:
            screen = h.screen_bounds
            return touch_actions(Action.click_center(node.bounds, (screen.right, screen.bottom)),
                                 env.long_press_steps)
        button = adb_pb2.AdbRequest.PressButton.Button.Value(kind)
        env.execute_adb_call(adb_pb2.AdbRequest(press_button=adb_pb2.AdbRequest.PressButton(button=button)))
        return []
    if kind == "TYPE":  # `input text` takes one word: spaces spelled %s, as AndroidWorld sends them
        text = shlex.quote(action.text.replace(" ", "%s"))
        env.execute_adb_call(adb_pb2.AdbRequest(input_text=adb_pb2.AdbRequest.InputText(text=text)))
        return []
    return touch_actions(action, env.long_press_steps)


def oracle_episode(env: MobileAndroidEnv, task_id: str) -> dict[str, Any]:
    """One episode of the oracle through ``env``: whether it succeeded (LAST, discount 0,
    reward 1.0), the raw steps, and the oracle's action types that went over adb."""
    timestep = env.reset()
    agent = OracleAgent(task_id)
    total, steps, adb = 0.0, 0, set()
    while not timestep.last() and steps < ORACLE_STEP_CAP:
        action = agent.act(env.gym_observation, env.gym_info)
        if action.ends_episode:
            # the oracle is done: one idle step shows what is pending (LAST if an adb input
            # ended the episode); the oracle's COMPLETE itself is no finger's gesture
            timestep = env.step(touch_actions(Action.wait())[0])
            total += timestep.reward
            steps += 1
            break
        raws = oracle_raw_actions(env, action)
        if not raws:
            adb.add(action.action_type.name)
        for raw in raws:
            timestep = env.step(raw)
            total += timestep.reward
            steps += 1
            if timestep.last():
                break
    solved = bool(timestep.last() and timestep.discount == 0.0 and total == 1.0)
    return {"solved": solved, "steps": steps, "reward": total, "adb": adb, "info": env.gym_info}


def random_action(action_spec: dict[str, specs.Array], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """android_env's ``run_random_agent.py``: each key drawn from its spec."""
    action = {}
    for key, spec in action_spec.items():
        if isinstance(spec, specs.DiscreteArray):
            action[key] = rng.integers(0, spec.num_values, dtype=spec.dtype)
        else:
            action[key] = rng.random(size=spec.shape).astype(spec.dtype)
    return action


def random_agent(tasks: list[str], steps: int, seed: int = 0, **load_kwargs: Any) -> dict[str, Any]:
    """``steps`` random steps split over ``tasks``: episodes, exceptions, steps per second."""
    rng = np.random.default_rng(seed)
    episodes = exceptions = done = 0
    errors: list[str] = []
    start = time.perf_counter()
    for i, task in enumerate(tasks):
        share = steps // len(tasks) + (i < steps % len(tasks))
        with load(task, seed=seed + i, **load_kwargs) as env:
            action_spec = env.action_spec()
            env.reset()
            for _ in range(share):
                try:
                    timestep = env.step(random_action(action_spec, rng))
                    episodes += timestep.last()
                except Exception as exc:  # counted, not raised: the sweep goes on
                    exceptions += 1
                    errors.append(f"{task}: {type(exc).__name__}: {exc}")
                    env.reset()
                done += 1
    seconds = time.perf_counter() - start
    return {"steps": done, "episodes": episodes, "exceptions": exceptions, "errors": errors,
            "steps_per_second": done / seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", nargs="*", default=None, help="the oracle's tasks (default: every simulator task)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--oracle-pixels", type=int, nargs=2, default=(270, 600), metavar=("W", "H"),
                        help="pixels drawn in the oracle's episodes (it reads the dump, not them)")
    parser.add_argument("--random-steps", type=int, default=10_000)
    parser.add_argument("--random-tasks", nargs="*", default=list(RANDOM_TASKS))
    args = parser.parse_args(argv)

    tasks = [t.id for t in select_simulator_tasks(args.tasks)]
    failed, over_adb, adb_kinds = [], 0, set()
    start = time.perf_counter()
    for task in tasks:
        with load(task, seed=args.seed, pixels_size=tuple(args.oracle_pixels)) as env:
            result = oracle_episode(env, task)
        over_adb += bool(result["adb"])
        adb_kinds |= result["adb"]
        if not result["solved"]:
            info = result["info"]
            failed.append(f"{task} (progress {info.get('progress')}, oracle_success {info.get('oracle_success')})")
    solved = len(tasks) - len(failed)
    print(f"[androidenv] oracle via TOUCH/LIFT: {solved}/{len(tasks)} tasks solved "
          f"({len(tasks) - over_adb} by the finger alone, {over_adb} with {'/'.join(sorted(adb_kinds)) or 'nothing'} "
          f"over execute_adb_call; "
          f"{time.perf_counter() - start:.0f} s)")
    for line in failed:
        print(f"[androidenv]   not solved: {line}")

    if args.random_steps > 0:
        result = random_agent(args.random_tasks, args.random_steps, args.seed)
        print(f"[androidenv] random agent: {result['steps']} steps, {result['episodes']} episodes, "
              f"{result['exceptions']} exceptions, {result['steps_per_second']:.0f} steps/s "
              f"({len(args.random_tasks)} tasks, pixels at the device's resolution)")
        for line in result["errors"][:10]:
            print(f"[androidenv]   {line}")
        return 1 if result["exceptions"] else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
