"""AndroidWorld's own harness and agents on our tasks: the held-out check of the adapter.

AndroidWorld is not on PyPI, so this is not part of the test suite: point it at a
checkout (``git clone https://github.com/google-research/android_world``; its
requirements installed, the information-retrieval protos generated as its setup.py
does) and it runs, unchanged:

- T3A and M3A through ``suite_utils.run`` on every simulator task, their LLM an
  `OracleLLM` (the task's golden path as AndroidWorld JSON: T3A names elements by
  index, as its own code requires; M3A points in pixels);
- AndroidWorld's random agent through ``suite_utils.run`` for ``--random-episodes``;
- AndroidWorld's ``representation_utils.xml_dump_to_ui_elements`` against the adapter's
  UI elements on every screen the agents saw, and AndroidWorld's own
  ``actuation.execute_adb_action`` through our controller against ``execute_action``.

    python benchmarks/androidworld_check.py --android-world ~/src/android_world

Prints one ``[androidworld]`` line per check; exits non-zero if a check fails its bar.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--android-world", type=Path, required=True, help="a checkout of google-research/android_world")
    parser.add_argument("--tasks", default="*", help="task ids or a pattern (default: every simulator task)")
    parser.add_argument("--random-episodes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="hide AndroidWorld's own printing (its tables too)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.android_world.expanduser().resolve()))

    from android_world import suite_utils
    from android_world.agents import m3a, random_agent, t3a
    from android_world.env import actuation, interface, json_action, representation_utils

    from mobile_gym.compat.androidworld import ANDROID_WORLD, AndroidWorldEnv, OracleLLM, task_registry

    if not ANDROID_WORLD:
        raise SystemExit("android_world is not importable from --android-world")
    registry = task_registry(args.tasks)
    env = AndroidWorldEnv(seed=args.seed)
    assert isinstance(env, interface.AsyncEnv)
    failures = 0
    out = io.StringIO()
    quiet = contextlib.redirect_stdout(out) if args.quiet else contextlib.nullcontext()

    # the adapter's UI elements are AndroidWorld's, screen by screen
    seen: list[tuple[str, list]] = []
    get_state = env.get_state

    def recording_get_state(wait_to_stabilize: bool = False):
        state = get_state(wait_to_stabilize)
        seen.append((env.gym_env.device.observe(screenshot=False).xml, state.ui_elements))
        return state

    env.get_state = recording_get_state  # type: ignore[method-assign]

    agents = (("T3A", lambda llm: t3a.T3A(env, llm), "index"),
              # M3A sleeps 2 s after each action for the screen to settle: ours is settled
              ("M3A", lambda llm: m3a.M3A(env, llm, wait_after_action_seconds=0.0), "pixels"))
    for name, make_agent, pointing in agents:
        llm = OracleLLM(env, pointing=pointing)
        agent = make_agent(llm)
        agent.transition_pause = None  # AndroidWorld's "auto": get_state(wait_to_stabilize=True), at once here
        suite = suite_utils.create_suite(registry, n_task_combinations=1, seed=args.seed)
        start = time.perf_counter()
        with quiet:
            episodes = suite_utils.run(suite, agent)
        seconds = time.perf_counter() - start
        solved = sum(1 for e in episodes if e["is_successful"] == 1.0)
        errors = [e["task_template"] for e in episodes if e.get("exception_info")]
        steps = sum(e["episode_length"] for e in episodes if not e.get("exception_info"))
        rate = solved / len(episodes)
        failed = sorted(e["task_template"] for e in episodes if e["is_successful"] != 1.0)
        print(f"[androidworld] {name} (unchanged) + OracleLLM({pointing}) via suite_utils.run: {solved}/{len(episodes)} "
              f"successful ({100 * rate:.1f}%), {len(errors)} exceptions, {steps} agent steps in {seconds:.1f} s"
              + (f"; not solved: {', '.join(failed)}" if failed else ""))
        failures += rate < 0.99 or bool(errors)

    mismatched = sum(1 for xml, elements in seen if representation_utils.xml_dump_to_ui_elements(xml) != elements)
    print(f"[androidworld] ui_elements == AndroidWorld's xml_dump_to_ui_elements on {len(seen) - mismatched}/"
          f"{len(seen)} screens")
    failures += bool(mismatched)

    # AndroidWorld's random agent, its own episodes
    env.get_state = get_state  # type: ignore[method-assign]
    random.seed(args.seed)
    agent = random_agent.RandomAgent(env)
    agent.transition_pause = None
    names = list(registry)
    picked = {n: registry[n] for n in sorted(random.Random(args.seed).choices(names, k=args.random_episodes))}
    suite = suite_utils.create_suite(picked, n_task_combinations=1, seed=args.seed)
    while sum(len(v) for v in suite.values()) < args.random_episodes:  # repeated names: more instances
        name = random.choice(names)
        suite.setdefault(name, []).append(registry[name]({"seed": random.randrange(2**31)}))
    start = time.perf_counter()
    with quiet:
        episodes = suite_utils.run(suite, agent)
    errors = [e for e in episodes if e.get("exception_info")]
    steps = sum(e["episode_length"] for e in episodes if not e.get("exception_info"))
    print(f"[androidworld] RandomAgent (unchanged) via suite_utils.run: {len(episodes)} episodes, {steps} steps, "
          f"{len(errors)} exceptions in {time.perf_counter() - start:.1f} s")
    failures += bool(errors) or len(episodes) < args.random_episodes
    for e in errors[:3]:
        print(e["exception_info"])

    # AndroidWorld's own actuation through our controller reaches the same screens as execute_action
    differing = 0
    rng = random.Random(args.seed)
    probes = 0
    for name in sorted(rng.sample(names, min(20, len(names)))):
        task = registry[name]({"seed": 7})
        screens = []
        for route in ("ours", "theirs"):
            task.initialize_task(env)
            rng_actions = random.Random(name)
            trail = []
            for _ in range(8):
                state = env.get_state()
                action = random_agent._generate_random_action(env.device_screen_size)  # noqa: SLF001
                if rng_actions.random() < 0.3 and state.ui_elements:
                    action = json_action.JSONAction(action_type="click", index=rng_actions.randrange(len(state.ui_elements)))
                if action.action_type == "wait":
                    continue  # AndroidWorld's own wait sleeps a second; ours is a step: not comparable
                if route == "ours":
                    env.execute_action(action)
                else:
                    actuation.execute_adb_action(action, state.ui_elements, env.logical_screen_size, env.controller)
                trail.append(env.gym_env.device.observe(screenshot=False).xml)
            screens.append(trail)
            task.tear_down(env)
        probes += 1
        differing += screens[0] != screens[1]
    print(f"[androidworld] AndroidWorld's actuation.execute_adb_action through env.controller == execute_action: "
          f"{probes - differing}/{probes} random episodes reach the same screens")
    failures += bool(differing)
    env.close()

    # AndroidWorld's own AsyncAndroidEnv and controller, over our android_env adapter
    from android_world.env import android_world_controller as awc

    from mobile_gym.compat import androidenv

    own = interface.AsyncAndroidEnv(awc.AndroidWorldController(
        androidenv.load("settings-turn-off-wifi", seed=args.seed), a11y_method=awc.A11yMethod.UIAUTOMATOR))
    own.reset(go_home=True)
    own.execute_action(json_action.JSONAction(action_type="open_app", app_name="settings"))
    opened = own.foreground_activity_name
    agent = random_agent.RandomAgent(own)
    agent.transition_pause = 0
    errors = 0
    with quiet:
        for _ in range(200):
            try:
                agent.step("Turn off wifi")
            except Exception:  # noqa: BLE001 - counted: the check is that none happens
                errors += 1
    print(f"[androidworld] AndroidWorld's own AsyncAndroidEnv + AndroidWorldController(UIAUTOMATOR) over "
          f"mobile_gym.compat.androidenv: open_app('settings') -> {opened}; RandomAgent 200 steps, {errors} exceptions")
    failures += errors > 0 or not opened.startswith("com.android.settings/")
    own.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
