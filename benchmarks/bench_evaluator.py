"""Offline evaluator throughput, and the cost of `import mobile_gym`.

Generates N synthetic 10-step execution traces (AgentEnv format B) with matching
annotations (LlamaTouch format A) in two suites, and evaluates every trace:
- exact: annotations use only activity / exact / click / type (a fifth of the episodes
  also check a text-less icon by its screenshot patch) -- target >= 50 traces/s;
- fuzzy: fuzzy<n> and fuzzy<-1> on every episode -- bounded by embedding time; the
  model loads once and no text is encoded twice (encodes per trace are reported).

    python benchmarks/bench_evaluator.py [--episodes 500] [--runs 3] [--suites exact fuzzy] [--keep DIR]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synthetic import ScreenPool, make_episode  # noqa: E402

from mobile_gym.evaluation.runner import evaluate_dataset  # noqa: E402
from mobile_gym.formats.llamatouch import GroundTruthDataset  # noqa: E402
from mobile_gym.matcher import Matcher, SentenceEmbedder  # noqa: E402


def import_time(runs: int) -> tuple[float, float]:
    """Median seconds of `import mobile_gym` in a fresh interpreter, minus a bare start."""
    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - start

    bare = statistics.median(run("pass") for _ in range(runs))
    full = statistics.median(run("import mobile_gym, mobile_gym.matcher") for _ in range(runs))
    torch = subprocess.run(
        [sys.executable, "-c", "import sys, mobile_gym, mobile_gym.matcher; print('torch' in sys.modules)"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    assert torch == "False", "import mobile_gym must not import torch"
    return full - bare, full


def build(root: Path, episodes: int, fuzzy: bool) -> int:
    pool = ScreenPool(root / "pool")
    return sum(make_episode(pool, root / "dataset", root / "traces", e, fuzzy=fuzzy) for e in range(episodes))


def bench_suite(root: Path, episodes: int, runs: int, fuzzy: bool) -> None:
    name = "fuzzy" if fuzzy else "exact"
    start = time.perf_counter()
    expected = build(root, episodes, fuzzy)
    print(f"[{name}] generated {episodes} episodes in {time.perf_counter() - start:.1f}s "
          f"({expected} built to succeed)")
    dataset = GroundTruthDataset(root / "dataset")
    embedder = SentenceEmbedder()
    load = 0.0
    if fuzzy:
        start = time.perf_counter()
        embedder.embed(["warm up"])
        load = time.perf_counter() - start
    times, encodes = [], []
    for _ in range(runs):
        embedder.clear_cache()
        before = embedder.encoded
        start = time.perf_counter()
        rows = evaluate_dataset(dataset, root / "traces", matcher=Matcher(embedder=embedder))
        times.append(time.perf_counter() - start)
        encodes.append(embedder.encoded - before)
        errors = [r for r in rows if r.error]
        assert not errors, errors[:3]
        passed = sum(r.success for r in rows)
        assert passed == expected, f"{passed} traces passed, {expected} were built to pass"
    median = statistics.median(times)
    print(f"[{name}] {episodes} traces x 10 steps: median {median:.2f}s over {runs} runs "
          f"({', '.join(f'{t:.2f}' for t in times)}) -> {episodes / median:.0f} traces/s; "
          f"{passed}/{episodes} succeeded")
    if fuzzy:
        print(f"[{name}] model load {load:.2f}s (once); texts encoded per run {encodes} "
              f"-> {statistics.median(encodes) / episodes:.1f} encodes/trace, no text encoded twice")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--suites", nargs="+", choices=("exact", "fuzzy"), default=["exact", "fuzzy"])
    parser.add_argument("--keep", type=Path, help="write the generated data here and keep it")
    args = parser.parse_args()

    delta, full = import_time(5)
    print(f"[import] import mobile_gym: {delta * 1000:.0f} ms over a bare interpreter "
          f"({full * 1000:.0f} ms total, median of 5); torch not imported")
    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        for suite in args.suites:
            bench_suite(base / suite, args.episodes, args.runs, fuzzy=suite == "fuzzy")


if __name__ == "__main__":
    main()
