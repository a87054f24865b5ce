"""Per-step cost of the real-device backend (`AndroidDevice`) on the loopback fake phone.

One step is what `MobileEnv.step` asks of its device: ``perform(action)`` (the action,
then settling: dumps until two agree), ``observe(screenshot=True,
screenshot_size=<observation size>)`` for the agent, and ``observe(screenshot=False,
deferred_screenshot=<task judges pixels>)`` for the matcher. The actions are a seeded
random agent's, recorded once on the simulator from the task's start (``dynamics
none``; COMPLETE and IMPOSSIBLE left out) and replayed on the phone.

The fake (`FakePhoneServer`, the same seed and setup) runs in a child process, as a
phone is another machine: the client and the fake do not share a GIL. (Not as
``mobile-gym fake-device``: a client could not read its counters.) Its always-on
counters (`FakePhoneServer.stats`) are read over a pipe before and after every step,
outside the timed window: the seconds it spent inside the simulator (``sim``) and
encoding screenshots as JPEG (``encode``, work a phone does too), and the round trips
(adb connections, shell commands, uiautomator2 HTTP requests). ``overhead`` = step
time - sim: the client libraries, the protocols and the fake's own serving (shell,
dumpsys, HTTP, JPEG). Each run starts a fresh fake (at the task's start, where the
actions were recorded) and a fresh backend, and connects before timing (uiautomator2's
first connect pushes and starts its server); the figures are medians over steps, then
the median over runs.

    python benchmarks/bench_device_step.py [--task settings-turn-off-wifi] [--steps 100]
        [--runs 5] [--poll-interval S]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_env_step import recorded_actions as random_actions  # noqa: E402

import mobile_gym  # noqa: E402, F401 - registers the envs
from mobile_gym.actions import Action  # noqa: E402

SERIAL = "emulator-5554"
#: Counters reported per step (see `mobile_gym.devices.fake.stats`).
TRIPS = ("adb_connections", "shell_commands", "u2_requests")


def recorded_actions(task: str, steps: int) -> tuple[list[Action], Any]:
    """The random agent's actions on the simulator, and the env (for its task and sizes)."""
    env = gym.make(f"LlamaTouch/{task}-v0", max_episode_steps=10**6, terminate_on_success=False, dynamics="none")
    return random_actions(env, steps), env.unwrapped


def serve(conn, seed: int, setup: dict) -> None:
    """The child process: a fake phone server answering ``"stats"`` until ``"close"``."""
    from mobile_gym.devices.fake import FakePhoneServer

    with FakePhoneServer(serials=(SERIAL,), seed=seed, setup=setup) as server:
        conn.send(server.port)
        while conn.recv() == "stats":
            conn.send(server.stats())


def one_run(actions: list[Action], env: Any, poll_interval: float | None) -> dict[str, float]:
    """Median per-step figures of one replay on a fresh fake phone."""
    from mobile_gym.devices.android import AndroidConfig, AndroidDevice

    task = env.task
    parent, child = multiprocessing.get_context("spawn").Pipe()
    process = multiprocessing.get_context("spawn").Process(target=serve, args=(child, 0, dict(task.setup)),
                                                          daemon=True)
    process.start()
    config = AndroidConfig() if poll_interval is None else AndroidConfig(poll_interval=poll_interval)
    device = AndroidDevice(SERIAL, adb_port=parent.recv(), config=config)
    size, judges_pixels = env.observation_size, task.annotation.judges_pixels

    def stats() -> dict[str, float]:
        parent.send("stats")
        return parent.recv()

    rows: dict[str, list[float]] = {"step": [], "sim": [], "encode": [], "overhead": [], **{k: [] for k in TRIPS}}
    try:
        device.observe(screenshot=False)  # connect: uiautomator2 pushes and starts its server
        for action in actions:
            before = stats()
            start = time.perf_counter()
            device.perform(action)
            device.observe(screenshot=True, screenshot_size=size)
            device.observe(screenshot=False, deferred_screenshot=judges_pixels)
            elapsed = time.perf_counter() - start
            after = stats()
            sim = after["sim_seconds"] - before["sim_seconds"]
            rows["step"].append(elapsed)
            rows["sim"].append(sim)
            rows["encode"].append(after["encode_seconds"] - before["encode_seconds"])
            rows["overhead"].append(elapsed - sim)
            for k in TRIPS:
                rows[k].append(after[k] - before[k])
    finally:
        device.close()
        parent.send("close")
        process.join(10)
    # a step whose screen did not change is watched change_timeout for a late change: a
    # wait by design, not overhead, counted apart; the medians are of the other steps
    waited = [t >= config.change_timeout for t in rows["step"]]
    out = {k: statistics.median(x for x, w in zip(v, waited) if not w) for k, v in rows.items()}
    out["waited"] = sum(waited)
    out["mean_step"] = statistics.fmean(rows["step"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", default="settings-turn-off-wifi")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--poll-interval", type=float, default=None,
                        help="AndroidConfig.poll_interval (default: the config's default)")
    args = parser.parse_args()
    actions, env = recorded_actions(args.task, args.steps)
    runs = [one_run(actions, env, args.poll_interval) for _ in range(args.runs)]

    def ms(key: str) -> str:
        values = [r[key] * 1000 for r in runs]
        return f"{statistics.median(values):.1f} ms ({', '.join(f'{v:.1f}' for v in values)})"

    from mobile_gym.devices.android import AndroidConfig

    poll = AndroidConfig().poll_interval if args.poll_interval is None else args.poll_interval
    print(f"[{args.task}] {args.runs} runs of {len(actions)} steps, poll_interval {poll:g} s, "
          f"observation {env.observation_size[0]}x{env.observation_size[1]}")
    print(f"  step:     median {ms('step')}")
    print(f"  sim:      median {ms('sim')}")
    print(f"  overhead: median {ms('overhead')} = step - sim; of it, the fake encoding JPEGs: {ms('encode')}")
    print("  round trips per step (median): " + ", ".join(
        f"{k} {statistics.median(r[k] for r in runs):g}" for k in TRIPS))
    print(f"  (medians of the steps that changed the screen; the ones that changed nothing were watched "
          f"change_timeout = {AndroidConfig().change_timeout:g} s for a late change: median "
          f"{statistics.median(r['waited'] for r in runs):g} of {len(actions)}; mean of all steps {ms('mean_step')})")
    env.close()


if __name__ == "__main__":
    main()
