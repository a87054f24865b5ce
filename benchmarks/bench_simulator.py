"""Simulator throughput: steps per second of perform + observe.

A seeded, element-aware random walk through the five modelled apps (launcher, Settings,
Clock, Play Store, Chrome): mostly taps on clickable nodes, some swipes, BACK, HOME,
typing and ENTER; from the launcher it opens one of the five apps. The walk is recorded
once and replayed, timed, with and without screenshots (at 1/4 of 1080x2400 by default,
converted to a numpy array as the env does). Choosing actions is not timed.

Targets on a 2-core machine (issue 16): >= 2,500 steps/s with screenshots, >= 5,000
steps/s without. Each mode replays the walk once untimed first: the renderer's and layout's
memos fill on a process's first frames (a training run's first second), and the steady rate is
what a run of millions of steps sees; that first replay's rate is printed beside the median.
``--reference`` replays on the full-rebuild path (`retained=False`).

    python benchmarks/bench_simulator.py [--steps 3000] [--runs 5] [--size 270x600]
        [--profile pixel-6] [--dynamics default] [--reference]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import numpy as np

from mobile_gym.actions import Action
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.ui.hierarchy import ViewHierarchy

APPS = ("Settings", "Clock", "Play Store", "Chrome")
WORDS = ("wifi", "tokyo", "vlc", "bestbuy.com", "video games", "alarm", "9")


def record_walk(steps: int, seed: int, profile: str, dynamics: str) -> tuple[list[Action], Counter]:
    """The actions of a seeded random walk (chosen from each screen's clickable nodes),
    and how many steps were taken in each app."""
    rng = np.random.default_rng(seed)
    phone = SimulatedDevice(profile=profile, dynamics=dynamics, seed=seed)
    W, H = phone.screen_size
    actions: list[Action] = []
    apps: Counter = Counter()
    for _ in range(steps):
        apps[phone.foreground_activity().split("/")[0]] += 1
        h = ViewHierarchy(phone.observe(screenshot=False).xml)
        on_launcher = phone.foreground_activity().startswith("com.google.android.apps.nexuslauncher")
        r = rng.random()
        icons = [n for n in h.find_all(resource_id="com.google.android.apps.nexuslauncher:id/icon")
                 if n.text in APPS]
        if on_launcher and icons and r < 0.8:
            target = icons[int(rng.integers(len(icons)))]
            action = Action.click_center(target.bounds, (W, H))
        elif r < 0.08:
            action = Action.back()
        elif r < 0.11:
            action = Action.home()
        elif r < 0.21:
            up = rng.random() < 0.7
            action = Action.swipe(0.5, 0.75 if up else 0.35, 0.5, 0.35 if up else 0.75)
        elif r < 0.26:
            action = Action.type_text(str(rng.choice(WORDS)))
        elif r < 0.29:
            action = Action.enter()
        else:
            targets = [n for n in h.find_all(clickable=True) if n.bounds.right > n.bounds.left]
            action = Action.click_center(targets[int(rng.integers(len(targets)))].bounds, (W, H)) if targets else Action.back()
        phone.perform(action)
        actions.append(action)
    return actions, apps



def replay(actions: list[Action], seed: int, profile: str, dynamics: str,
           size: tuple[int, int] | None, retained: bool = True) -> dict[str, list[float]]:
    """Per-step seconds of each phase while replaying the walk."""
    phone = SimulatedDevice(profile=profile, dynamics=dynamics, seed=seed, retained=retained)
    runtime = phone.runtime
    phases: dict[str, list[float]] = {"perform": [], "build+layout": [], "dump": [], "render": [], "step": []}
    clock = time.perf_counter
    for action in actions:
        t0 = clock()
        phone.perform(action)
        t1 = clock()
        frame = runtime.frame()
        t2 = clock()
        xml = frame.xml
        t3 = clock()
        if size is not None:  # the pixels as the env takes them
            np.asarray(phone.observe(screenshot_size=size).screenshot)
        t4 = clock()
        phases["perform"].append(t1 - t0)
        phases["build+layout"].append(t2 - t1)
        phases["dump"].append(t3 - t2)
        phases["render"].append(t4 - t3)
        phases["step"].append(t4 - t0)
        assert xml
    phone.close()  # as an env's close or reset does: the next replay does not collect this phone
    return phases


def summarize(label: str, runs: list[dict[str, list[float]]], cold: dict[str, list[float]]) -> str:
    rates = [len(r["step"]) / sum(r["step"]) for r in runs]
    best = runs[int(np.argsort(rates)[len(rates) // 2])]  # the median run
    steps = np.array(best["step"]) * 1000
    total = sum(sum(v) for k, v in best.items() if k != "step")
    share = ", ".join(f"{k} {100 * sum(v) / total:.0f}%" for k, v in best.items() if k != "step")
    return (f"[{label}] median {statistics.median(rates):.0f} steps/s over {len(runs)} runs "
            f"({', '.join(f'{r:.0f}' for r in rates)}); per step p50 {np.percentile(steps, 50):.2f} ms, "
            f"p99 {np.percentile(steps, 99):.2f} ms; time in {share}; "
            f"first replay (memos cold) {len(cold['step']) / sum(cold['step']):.0f} steps/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", default="270x600", help="screenshot WxH")
    parser.add_argument("--profile", default="pixel-6")
    parser.add_argument("--dynamics", default="default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reference", action="store_true", help="the full-rebuild path (retained=False)")
    args = parser.parse_args()
    size = tuple(int(x) for x in args.size.split("x"))
    actions, apps = record_walk(args.steps, args.seed, args.profile, args.dynamics)
    kinds = Counter(a.action_type.name for a in actions)
    print(f"walk: {len(actions)} actions ({dict(kinds)}), profile {args.profile}, dynamics {args.dynamics}")
    print(f"steps per app: {dict(apps.most_common())}")
    for label, shot in ((f"screenshots {args.size}", size), ("no screenshots", None)):
        runs = [replay(actions, args.seed, args.profile, args.dynamics, shot, not args.reference)
                for _ in range(args.runs + 1)]
        print(summarize(label + (", reference path" if args.reference else ""), runs[1:], runs[0]))


if __name__ == "__main__":
    main()
