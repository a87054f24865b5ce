"""Kill/resume soak of the batch runner: ``kill -9`` at random moments, then ``--resume``,
until the run finishes; nothing may be lost, duplicated or wrong.

For each configuration (the oracle and the random agent, each with and without
``--save-traces``, and an oracle that thinks 0.3 s per move with ``--save-traces``)
the script first runs ``mobile-gym run`` once without interruption:
the reference. It then runs the same command in a fresh folder in its own process group
and SIGKILLs the whole group (the runner and its workers) at a seeded random moment:
either at a random time after launch (start-up, cleanup, the first episodes) or a
random time after the attempt's first new record (episodes in flight, traces being
renamed, records being appended). Each kill is followed by ``--resume``, until
``--kills`` kills were made; a last ``--resume`` runs to the end (a run that ends before
its kills are made is done again in a new folder: another round). One attempt in four
kills the runner alone (its workers then finish their episodes beside the resumed run);
these kills come on top. Then:

- errors: episodes recorded as an error at some point (no kill may cause one; the
  oracle and random agents never error); orphans: runners killed alone whose workers
  were still alive a minute later;
- lost: jobs with no record; duplicated: records of a job beyond its first;
- wrong: records that differ from the reference's record for the same job (timing
  fields aside), and lines of ``episodes.jsonl`` that are not one whole record;
- bad traces (with ``--save-traces``): a record whose trace is missing, unreadable by
  `read_trace`, or differs from the reference's trace file by file, byte by byte; a
  trace folder with no record; a ``traces/.partial`` left behind.

Prints one row per configuration and exits 1 unless every count is 0.

    python benchmarks/soak_kill_resume.py [--kills 10] [--seeds 20] [--workers 2] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import numpy as np

from mobile_gym.agents import OracleAgent
from mobile_gym.formats.agentenv import CAPTURED_DATA, iter_traces, read_trace
from mobile_gym.runner.batch import EPISODES_FILE, PARTIAL_DIR, TRACES_DIR, read_episodes, trace_dir_name

#: Tasks of four apps whose checkpoints need no embedding model (a random agent on a
#: fuzzy<n> checkpoint would load it in every attempt's start-up).
TASKS = ("settings-turn-off-wifi", "settings-turn-airplane-mode", "clock-set-timer", "amazon-view-cart",
         "playstore-install-calculator", "chrome-clear-history")
TIMING = ("wall_time", "step_latency", "act_latency")
FAILURES = ("errors", "orphans", "lost", "duplicated", "wrong", "bad traces")
ORPHAN_WAIT = 60.0  # seconds the workers of a runner killed alone may take to end
ROOT = Path(__file__).resolve().parents[1]


THINKING = "benchmarks.soak_kill_resume:ThinkingOracle"  # imported by the runner from ROOT


class ThinkingOracle(OracleAgent):
    """The oracle taking 0.3 s per move, as a model would: a kill finds episodes in
    flight, and workers orphaned by a kill of the runner alone run long enough to
    write their traces while the resumed run reruns the same episodes."""

    def act(self, observation, info):
        time.sleep(0.3)
        return super().act(observation, info)


#: (agent, --save-traces, share of --seeds): the thinking oracle runs fewer episodes.
CONFIGURATIONS = (("oracle", False, 1), ("random", False, 1), ("oracle", True, 1), ("random", True, 1),
                  (THINKING, True, 0.2))


def command(agent: str, seeds: int, workers: int, traces: bool, out: Path) -> list[str]:
    return ([sys.executable, "-m", "mobile_gym", "run", "--agent", agent, "--tasks", *TASKS,
             "--seeds", str(seeds), "--workers", str(workers), "--out", str(out)]
            + (["--save-traces"] if traces else []))


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def finish(cmd: list[str]) -> None:
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited with {done.returncode}:\n{done.stderr}")


def soak(cmd: list[str], out: Path, kills: int, rng: np.random.Generator) -> dict[str, int]:
    """Kill ``cmd`` at random moments, resuming after each kill, until ``kills`` kills of
    the whole process group were made, then let it finish. One attempt in four kills
    the runner alone instead, as ``kill -9 <pid>`` or the OOM killer do: its workers
    live on for a while, finishing their episodes beside the resumed run."""
    counts = {"kills": 0, "runner kills": 0, "attempts": 0, "errors": 0, "orphans": 0}
    errors: set[tuple] = set()  # episodes recorded as errors at some point: a kill must not cause one
    orphaned: list[int] = []  # process groups whose runner alone was killed
    while counts["kills"] < kills:
        counts["attempts"] += 1
        resume = ["--resume"] if (out / EPISODES_FILE).exists() else []
        before = lines(out / EPISODES_FILE)
        proc = subprocess.Popen(cmd + resume, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        if rng.random() < 0.3:  # anywhere from start-up on
            wait, after_record = float(rng.uniform(0.2, 2.5)), False
        else:  # while episodes are being recorded
            wait, after_record = float(rng.uniform(0.0, 1.0)), True
        runner_only = rng.random() < 0.25
        start = time.monotonic()
        while proc.poll() is None:
            if after_record and lines(out / EPISODES_FILE) > before:
                after_record, start = False, time.monotonic()
            if not after_record and time.monotonic() - start >= wait:
                break
            time.sleep(0.01)
        if proc.poll() is not None:  # the run ended first: no more work to kill
            break
        if runner_only:
            proc.kill()
            orphaned.append(proc.pid)
            counts["runner kills"] += 1
        else:
            os.killpg(proc.pid, signal.SIGKILL)
            counts["kills"] += 1
        proc.wait()
        errors |= {(r["task"], r["seed"]) for r in read_episodes(out / EPISODES_FILE) if r["error"] is not None}
    counts["errors"] = len(errors)
    counts["orphans"] = sum(not group_ends(pgid, ORPHAN_WAIT) for pgid in orphaned)
    finish(cmd + ["--resume"])
    return counts


def group_ends(pgid: int, timeout: float) -> bool:
    """Whether process group ``pgid`` is empty within ``timeout`` seconds (orphaned
    workers end after their episode)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    os.killpg(pgid, signal.SIGKILL)
    return False


def same_files(a: Path, b: Path) -> bool:
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    return files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file()) and all(
        (a / f).read_bytes() == (b / f).read_bytes() for f in files)


def check(out: Path, reference: Path, traces: bool) -> dict[str, int]:
    def key(r: dict) -> tuple:
        return (r["task"], r["agent"], r["seed"])

    expected = {key(r): r for r in read_episodes(reference / EPISODES_FILE)}
    records = read_episodes(out / EPISODES_FILE)
    got: dict[tuple, dict] = {}
    duplicated = wrong = 0
    for r in records:
        if key(r) in got:
            duplicated += 1
            continue
        got[key(r)] = r
        ref = expected.get(key(r))
        if ref is None or {k: v for k, v in r.items() if k not in TIMING} != {
                k: v for k, v in ref.items() if k not in TIMING}:
            wrong += 1
    wrong += lines(out / EPISODES_FILE) - len(records)  # blank or torn lines
    counts = {"episodes": len(expected), "lost": len(expected.keys() - got.keys()), "duplicated": duplicated,
              "wrong": wrong, "bad traces": 0}
    if traces:
        names = {trace_dir_name(*k): k for k in got}
        folders = dict(iter_traces(out / TRACES_DIR))
        bad = len(folders.keys() - names.keys()) + (out / TRACES_DIR / PARTIAL_DIR).exists()
        for name, k in names.items():
            try:
                trace = read_trace(folders[name])
                ok = len(trace) == got[k]["steps"] + 1 and same_files(
                    folders[name] / CAPTURED_DATA, reference / TRACES_DIR / name / CAPTURED_DATA)
            except Exception:  # noqa: BLE001 - missing or unreadable: counted, not raised
                ok = False
            bad += not ok
        counts["bad traces"] = bad
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=10, help=f"kills per configuration ({len(CONFIGURATIONS)})")
    parser.add_argument("--seeds", type=int, default=20,
                        help=f"seeds per task ({len(TASKS)} tasks; the thinking oracle a fifth of them)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="seeds the kill moments")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    columns = ("configuration", "rounds", "episodes", "kills", "runner kills", "attempts", "errors", "orphans", "lost",
               "duplicated", "wrong", "bad traces", "seconds")
    rows = []
    with tempfile.TemporaryDirectory(prefix="soak_") as tmp:
        for n, (agent, traces, share) in enumerate(CONFIGURATIONS):
            name = ("thinking oracle" if agent == THINKING else agent) + (" --save-traces" if traces else "")
            run = partial(command, agent, max(2, round(args.seeds * share)), args.workers, traces)
            reference = Path(tmp) / f"{n}-reference"
            finish(run(reference))
            start, rounds = time.monotonic(), []
            while not rounds or 0 < rounds[-1]["kills"] and sum(r["kills"] for r in rounds) < args.kills:
                out = Path(tmp) / f"{n}-killed-{len(rounds)}"  # a run that ended before its kills: again
                counts = soak(run(out), out, args.kills - sum(r["kills"] for r in rounds), rng)
                rounds.append({**counts, **check(out, reference, traces)})
            rows.append({"configuration": name, "rounds": len(rounds),
                         **{k: sum(r[k] for r in rounds) for k in rounds[0]},
                         "seconds": f"{time.monotonic() - start:.0f}"})
            print(" ".join(f"{c}={rows[-1][c]}" for c in columns), flush=True)
    print()
    print("| " + " | ".join(columns) + " |")
    print("|---" * len(columns) + "|")
    for row in rows:
        print("| " + " | ".join(str(row[c]) for c in columns) + " |")
    failures = sum(row[c] for row in rows for c in FAILURES)
    kills = sum(row["kills"] for row in rows)
    short = [row["configuration"] for row in rows if row["kills"] < args.kills]
    print(f"\n{kills} kills of the process group ({sum(r['kills'] for r in rows if 'traces' in r['configuration'])} "
          f"with --save-traces) and {sum(row['runner kills'] for row in rows)} of the runner alone; "
          f"{failures} failures ({', '.join(FAILURES)})" + (f"; too few kills in {', '.join(short)}" if short else ""))
    return 1 if failures or short else 0


if __name__ == "__main__":
    sys.exit(main())
