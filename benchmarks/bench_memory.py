"""Memory over a long run: one env stepped ``--steps`` times (default 1,000,000), its
process's resident set size (RSS) sampled every ``--every`` steps (issue 16: "flat RSS
over 1,000,000 steps (report the curve)").

The env is ``gym.make`` of ``--task`` with default observations (a 270x600 screenshot, the
dump, the instruction) and default dynamics, reset with the next seed whenever an episode
ends. ``--agent random`` plays the seeded `RandomAgent` (element-aware: it reads each
dump, as a run's agent does); ``--agent actions`` sends random actions from a seeded
generator without reading the screen (taps anywhere, swipes, BACK, HOME, ENTER, short
typed texts): the env alone. RSS is the kernel's VmRSS of this process
(``/proc/self/status``; where there is none, the peak from ``resource``, which can only
grow). The caches that grow by design (the renderer's, bounded in bytes; the task's and
matcher's) fill during the warm-up (``--warmup`` steps, default 10,000), so the baseline
is the RSS after it; growth is the end's RSS minus that, and the slope per 100k steps is
a least-squares fit over the samples after the warm-up.

Each sample prints as a CSV line (``step,rss_mb,python_objects,episodes,elapsed_s``;
``python_objects`` counts what the garbage collector tracks, garbage not yet collected
included: a steady climb there with RSS points at objects kept, RSS alone at buffers);
``--csv PATH`` writes the same curve, ``--plot PATH.png`` draws it (Pillow only, as the
run's charts are). ``--max-growth MB`` exits with code 1 when the slope per 100k steps is
above it.

    python benchmarks/bench_memory.py [--task settings-turn-off-wifi] [--steps 1000000]
        [--every 10000] [--warmup 10000] [--agent random|actions] [--seed 0]
        [--csv memory.csv] [--plot memory.png] [--max-growth 1.0]
"""

from __future__ import annotations

import argparse
import csv
import gc
import os
import resource
import sys
import time
from pathlib import Path
from typing import Callable

import gymnasium as gym
import numpy as np

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import Action
from mobile_gym.agents import RandomAgent

FIELDS = ("step", "rss_mb", "python_objects", "episodes", "elapsed_s")
WORDS = ("wifi", "cart", "alarm", "bestbuy", "hello world", "9")


def rss_mb() -> float:
    """This process's resident set size now, in MB (peak RSS where /proc is missing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux, bytes on macOS
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def random_actions(seed: int) -> Callable[[dict, dict], Action]:
    """Seeded random actions that do not read the screen."""
    rng = np.random.default_rng(seed)

    def act(obs: dict, info: dict) -> Action:
        r = rng.random()
        if r < 0.55:
            return Action.click(float(rng.uniform(0.02, 0.98)), float(rng.uniform(0.03, 0.97)))
        if r < 0.70:
            y0, y1 = (0.75, 0.3) if rng.random() < 0.6 else (0.3, 0.75)
            return Action.swipe(0.5, y0, 0.5, y1)
        if r < 0.80:
            return Action.back()
        if r < 0.84:
            return Action.home()
        if r < 0.90:
            return Action.enter()
        return Action.type_text(str(rng.choice(WORDS)))
    return act


def slope_per_100k(points: list[tuple[int, float]]) -> float:
    """Least-squares MB per 100,000 steps over (step, MB) points (0 with fewer than 2)."""
    if len(points) < 2:
        return 0.0
    steps, mb = np.array(points, dtype=float).T
    if np.ptp(steps) == 0:
        return 0.0
    return float(np.polyfit(steps, mb, 1)[0] * 100_000)


def run(task: str, steps: int, every: int, warmup: int, agent_name: str, seed: int,
        emit: Callable[[dict], None]) -> list[dict]:
    env = gym.make(f"LlamaTouch/{task}-v0")
    agent = RandomAgent(seed=seed, task=task) if agent_name == "random" else None
    act = agent.act if agent is not None else random_actions(seed)
    episode_seed = seed
    obs, info = env.reset(seed=episode_seed)
    if agent is not None:
        agent.reset(episode_seed)
    episodes, samples = 1, []
    start = time.perf_counter()

    def sample(step: int) -> None:
        row = {"step": step, "rss_mb": round(rss_mb(), 2), "python_objects": len(gc.get_objects()),
               "episodes": episodes, "elapsed_s": round(time.perf_counter() - start, 2)}
        samples.append(row)
        emit(row)

    sample(0)
    for step in range(1, steps + 1):
        obs, _, terminated, truncated, info = env.step(act(obs, info))
        if terminated or truncated:
            episode_seed += 1
            obs, info = env.reset(seed=episode_seed)
            if agent is not None:
                agent.reset(episode_seed)
            episodes += 1
        if step % every == 0 or step == steps or step == warmup:
            sample(step)
    env.close()
    return samples


def summary(samples: list[dict], warmup: int) -> dict[str, float]:
    after = [s for s in samples if s["step"] >= warmup] or samples[-1:]
    base, end = after[0], samples[-1]
    measured = end["step"] - base["step"]
    return {
        "warmup_steps": base["step"], "rss_start_mb": samples[0]["rss_mb"], "rss_after_warmup_mb": base["rss_mb"],
        "rss_max_mb": max(s["rss_mb"] for s in after), "rss_end_mb": end["rss_mb"],
        "growth_mb": round(end["rss_mb"] - base["rss_mb"], 2),
        "growth_mb_per_100k_steps": round(slope_per_100k([(s["step"], s["rss_mb"]) for s in after]), 3),
        "python_objects_growth": end["python_objects"] - base["python_objects"],
        "steps_per_s": round(measured / (end["elapsed_s"] - base["elapsed_s"]), 1) if measured else 0.0,
        "episodes": end["episodes"],
    }


def plot(samples: list[dict], warmup: int, title: str, path: Path) -> None:
    """RSS (MB) against steps as a PNG, the warm-up shaded."""
    from PIL import Image, ImageDraw, ImageFont

    from mobile_gym.runner.plots import HEIGHT, INK, MARGIN, WIDTH

    img = Image.new("RGB", (WIDTH, HEIGHT), "white")
    d = ImageDraw.Draw(img)
    font, small = ImageFont.load_default(size=16), ImageFont.load_default(size=11)
    left, upper, right, lower = MARGIN[0], MARGIN[1], WIDTH - MARGIN[2], HEIGHT - MARGIN[3]
    x_max = max(s["step"] for s in samples) or 1
    lo, hi = min(s["rss_mb"] for s in samples), max(s["rss_mb"] for s in samples)
    pad = max(1.0, (hi - lo) * 0.1)
    lo, hi = max(0.0, lo - pad), hi + pad

    def xy(step: float, mb: float) -> tuple[float, float]:
        return left + (right - left) * step / x_max, lower - (lower - upper) * (mb - lo) / (hi - lo)

    d.rectangle((left, upper, xy(min(warmup, x_max), lo)[0], lower), fill=(240, 240, 244))
    d.text((left, 10), title, fill=INK, font=font)
    d.line([(left, upper), (left, lower), (right, lower)], fill=INK)
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        mb = lo + (hi - lo) * frac
        y = xy(0, mb)[1]
        d.line([(left - 4, y), (right, y)], fill=(225, 225, 230))
        d.text((4, y - 7), f"{mb:.0f} MB", fill=INK, font=small)
    for frac in (0.0, 0.5, 1.0):
        label = f"{x_max * frac:,.0f}"
        width = d.textlength(label, font=small)  # centred on its tick, kept inside the picture
        x = min(max(2.0, left + (right - left) * frac - width / 2), WIDTH - 2 - width)
        d.text((x, lower + 6), label, fill=INK, font=small)
    d.text(((left + right) / 2 - 15, lower + 24), "env steps (shaded: warm-up)", fill=INK, font=small)
    points = [xy(s["step"], s["rss_mb"]) for s in samples]
    if len(points) > 1:
        d.line(points, fill=(26, 115, 232), width=2)
    for x, y in points:
        d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=(26, 115, 232))
    img.save(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="settings-turn-off-wifi")
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--every", type=int, default=10_000, help="steps between RSS samples")
    parser.add_argument("--warmup", type=int, default=10_000, help="steps before the baseline sample")
    parser.add_argument("--agent", choices=("random", "actions"), default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--csv", type=Path, help="write the curve here")
    parser.add_argument("--plot", type=Path, help="draw the curve here (PNG)")
    parser.add_argument("--max-growth", type=float, help="exit 1 above this many MB per 100k steps")
    args = parser.parse_args()
    if args.steps < 1 or args.every < 1 or args.warmup < 0:
        parser.error("--steps and --every must be positive, --warmup not negative")
    warmup = min(args.warmup, args.steps)
    print(f"# {args.task}, {args.agent} agent, seed {args.seed}: {args.steps:,} steps, RSS every {args.every:,} "
          f"(warm-up {warmup:,}); pid {os.getpid()}, Python {sys.version.split()[0]}", flush=True)
    print(",".join(FIELDS), flush=True)
    samples = run(args.task, args.steps, args.every, warmup, args.agent, args.seed,
                  lambda row: print(",".join(str(row[k]) for k in FIELDS), flush=True))
    result = summary(samples, warmup)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, FIELDS)
            writer.writeheader()
            writer.writerows(samples)
    if args.plot:
        plot(samples, warmup, f"RSS of {args.task} ({args.agent} agent), {args.steps:,} steps", args.plot)
    print(f"RSS {result['rss_after_warmup_mb']:.1f} MB after {result['warmup_steps']:,} warm-up steps "
          f"({result['rss_start_mb']:.1f} MB at the start), max {result['rss_max_mb']:.1f}, "
          f"end {result['rss_end_mb']:.1f}: growth {result['growth_mb']:+.1f} MB, "
          f"{result['growth_mb_per_100k_steps']:+.2f} MB per 100k steps (fit), "
          f"{result['python_objects_growth']:+,} Python objects; {result['steps_per_s']:.0f} steps/s, "
          f"{result['episodes']:,} episodes")
    if args.max_growth is not None and result["growth_mb_per_100k_steps"] > args.max_growth:
        print(f"growth {result['growth_mb_per_100k_steps']:.2f} MB per 100k steps is above --max-growth "
              f"{args.max_growth:g}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
