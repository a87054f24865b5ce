"""Re-judging a saved run: ``mobile-gym evaluate --run DIR`` throughput, cold and warm.

Makes the run first, with ``mobile-gym run --save-traces``: every simulator task x the
seven non-LLM built-in agents (oracle, random, detour, stop-short, undo-last,
break-after, sibling) x seeds 0..N-1, default dynamics. Then re-judges it with all three
evaluators (essential states, step-wise action match, LCS action match) against the
simulator tasks' built-in ground truth (or ``--dataset``: an exported dataset), each time
in a fresh process:

- **cold**: an empty embedding cache; the embedding model loads (once, in the parent) and
  encodes every text the verdicts need;
- **warm**: the same cache again: every text is on disk, so the model never loads.

Two timings per case: ``judge`` is `mobile_gym.evaluation.run`'s work inside the
process (reading the run, building the ground truth, reading and judging every trace,
loading the model and encoding if needed, the worker processes' start; not the
interpreter start or the imports the CLI does before it judges); ``command`` is the whole ``python -m
mobile_gym evaluate --run DIR --workers K`` process, start-up and report writing
included. Throughput is traces / median seconds. Every re-judge must give the same
verdicts (the script exits 1 if not).

    python benchmarks/bench_rejudge.py [--seeds 2] [--runs 5] [--workers 2] [--tasks '*']
        [--agents ...] [--dataset] [--keep DIR]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

AGENTS = ("oracle", "random", "detour", "stop-short", "undo-last", "break-after", "sibling")


def make_run(run: Path, agents: list[str], tasks: list[str], seeds: int, workers: int) -> float:
    start = time.perf_counter()
    for agent in agents:
        resume = ["--resume"] if (run / "episodes.jsonl").exists() else []
        subprocess.run([sys.executable, "-m", "mobile_gym", "run", "--agent", agent, "--tasks", *tasks,
                        "--seeds", str(seeds), "--workers", str(workers), "--save-traces", "--out", str(run),
                        *resume], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def judge_once(run: Path, cache: Path, workers: int, dataset: Path | None) -> dict:
    """In this (fresh) process: time the re-judge alone; report verdicts and encodes."""
    from mobile_gym.evaluation.engine import ENCODE_BATCH, judge
    from mobile_gym.evaluation.ground_truth import DatasetTruth, SimulatorTruth
    from mobile_gym.evaluation.run import run_jobs
    from mobile_gym.evaluation.runner import EVALUATORS
    from mobile_gym.formats.llamatouch import GroundTruthDataset
    from mobile_gym.matcher.embeddings import SentenceEmbedder
    from mobile_gym.runner import batch  # noqa: F401 - imported by the CLI before it judges, as here

    start = time.perf_counter()
    truth = DatasetTruth(GroundTruthDataset(dataset)) if dataset is not None else SimulatorTruth()
    embedder = SentenceEmbedder(cache_dir=cache, batch_size=ENCODE_BATCH)  # as evaluate_run makes it
    jobs = run_jobs(run, truth)
    rows = judge(jobs, truth, EVALUATORS, workers=workers, embedder=embedder)
    seconds = time.perf_counter() - start
    verdicts = sorted((r.episode, r.evaluator, r.predicted, round(r.progress, 4), r.matched) for r in rows)
    return {"seconds": seconds, "traces": len(jobs), "errors": sum(r.error is not None for r in rows),
            "model_loaded": embedder.loaded, "encoded": embedder.encoded,
            "verdicts": hashlib.sha256(repr(verdicts).encode()).hexdigest()[:16],
            "completed": {e: sum(r.predicted for r in rows if r.evaluator == e) for e in EVALUATORS},
            "online_agreement": sum(r.predicted == r.online for r in rows if r.evaluator == "essential"
                                    and r.online is not None)}


def timed_judge(run: Path, cache: Path, workers: int, dataset: Path | None) -> dict:
    args = [sys.executable, __file__, "--judge-once", str(run), str(cache), str(workers), str(dataset or "")]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def timed_command(run: Path, cache: Path, workers: int, dataset: Path | None, out: Path) -> tuple[float, str]:
    args = [sys.executable, "-m", "mobile_gym", "evaluate", "--run", str(run), "--out", str(out),
            "--embedding-cache", str(cache), "--workers", str(workers)]
    if dataset is not None:
        args += ["--dataset", str(dataset)]
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    with (out / "episodes.csv").open(encoding="utf-8", newline="") as f:
        verdicts = sorted((r["episode"], r["evaluator"], r["success"] == "True" and not r["error"],
                           round(float(r["progress"]), 4), r["matched"]) for r in csv.DictReader(f))
    return seconds, hashlib.sha256(repr(verdicts).encode()).hexdigest()[:16]


def line(name: str, times: list[float], traces: int) -> str:
    median = statistics.median(times)
    return (f"{name}: median {median:.2f}s over {len(times)} runs ({', '.join(f'{t:.2f}' for t in times)}) "
            f"-> {traces / median:.0f} traces/s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2, help="of the re-judge (and of the run that is judged)")
    parser.add_argument("--tasks", nargs="+", default=["*"])
    parser.add_argument("--agents", nargs="+", default=list(AGENTS))
    parser.add_argument("--dataset", action="store_true",
                        help="judge against an exported dataset (export-dataset) instead of the built-in ground truth")
    parser.add_argument("--keep", type=Path, help="make (or reuse) the run in this folder and keep it")
    parser.add_argument("--judge-once", nargs=4, metavar=("RUN", "CACHE", "WORKERS", "DATASET"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.judge_once:
        run, cache, workers, dataset = args.judge_once
        print(json.dumps(judge_once(Path(run), Path(cache), int(workers), Path(dataset) if dataset else None)))
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        base = args.keep or Path(tmp)
        run = base / "run"
        if not (run / "episodes.jsonl").exists():
            made = make_run(run, args.agents, args.tasks, args.seeds, args.workers)
            print(f"[run] {len(args.agents)} agents x {args.tasks} x {args.seeds} seeds with --save-traces "
                  f"in {made:.1f}s")
        dataset = None
        if args.dataset:
            dataset = base / "dataset"
            if not dataset.exists():
                subprocess.run([sys.executable, "-m", "mobile_gym", "export-dataset", str(dataset)], check=True,
                               stdout=subprocess.DEVNULL)
        truth = "exported dataset" if dataset else "built-in ground truth"
        judged: dict[str, list[dict]] = {"cold": [], "warm": []}
        command: dict[str, list[float]] = {"cold": [], "warm": []}
        digests = set()
        for i in range(args.runs):
            cache = base / f"cache-judge-{i}"
            shutil.rmtree(cache, ignore_errors=True)  # cold means cold, also in a kept folder
            for case in ("cold", "warm"):
                result = timed_judge(run, cache, args.workers, dataset)
                judged[case].append(result)
                digests.add(result["verdicts"])
            cache = base / f"cache-command-{i}"
            shutil.rmtree(cache, ignore_errors=True)
            for case in ("cold", "warm"):
                seconds, digest = timed_command(run, cache, args.workers, dataset, base / f"out-{i}-{case}")
                command[case].append(seconds)
                digests.add(("csv", digest))
        traces = judged["cold"][0]["traces"]
        first = judged["cold"][0]
        print(f"[rejudge] {traces} traces x 3 evaluators against the {truth}, --workers {args.workers}; "
              f"errors {first['errors']}; completed {first['completed']}; essential agrees with the online "
              f"verdict on {first['online_agreement']}/{traces}")
        for case in ("cold", "warm"):
            loaded = {r["model_loaded"] for r in judged[case]}
            encoded = sorted({r["encoded"] for r in judged[case]})
            print(f"[{case}] " + line("judge", [r["seconds"] for r in judged[case]], traces)
                  + f"; model loaded {sorted(loaded)}, texts encoded {encoded}")
            print(f"[{case}] " + line("command", command[case], traces))
        if len({d for d in digests if not isinstance(d, tuple)}) != 1 or len({d for d in digests if isinstance(d, tuple)}) != 1:
            print(f"verdicts differ between re-judges: {digests}", file=sys.stderr)
            return 1
        print("[rejudge] every re-judge gave the same verdicts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
