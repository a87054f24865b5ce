"""`make run` as a new user meets it: wall time, disk under the run folder, and the share
of the time spent writing the reports after the last episode, for two trees side by side.

Each tree's commands are its own Makefile's ``run`` target, read with ``make -n`` (so a
tree measures what its Makefile runs), run with that tree's Python and a run folder of
this script's. Rounds alternate base and new, so drift on a shared machine falls on both;
the load average is printed with each. Per command: the wall time; the report time, from
the last line appended to ``episodes.jsonl`` to ``report.html`` written (what the user
waits once the episodes' bar is full: summary, CSV, charts and the HTML report); and the
disk the run folder takes, each inode counted once, as ``du`` counts (a run's traces
share identical files as hard links).

    python benchmarks/bench_make_run.py --base-tree /tmp/base --base-python /tmp/basevenv/bin/python \\
        --new-tree . --new-python .venv/bin/python [--rounds 3] [--tasks 'settings-*'] [--out DIR]

The base tree needs a Python where it is installed (e.g. ``git archive HEAD | tar -x -C
/tmp/base``, then a venv with ``pip install --no-deps /tmp/base`` whose other packages
come from this project's venv through a ``.pth`` file). Commands run from the output
folder, so neither tree's source folder shadows the installed package.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STAMP = ".venv/.installed"  # the Makefile's set-up target: taken as done (-o), never run


def commands(tree: Path, python: str, run: Path, tasks: str | None) -> list[list[str]]:
    """The ``run`` target's command lines of ``tree``'s Makefile, for ``python`` and ``run``."""
    listed = subprocess.run(["make", "-s", "-n", "-C", str(tree), "run", f"PY={python}", f"RUN={run}", "-o", STAMP],
                            capture_output=True, text=True, check=True).stdout
    lines = [shlex.split(line) for line in listed.splitlines() if line.strip()]
    return [line + (["--tasks", tasks] if tasks else []) for line in lines]


def disk_bytes(folder: Path) -> int:
    """Bytes of disk under ``folder``, each inode once (``du``'s count)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            st = os.lstat(os.path.join(root, name))
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total + os.lstat(folder).st_blocks * 512


def out_folder(command: list[str]) -> Path:
    return Path(command[command.index("--out") + 1])


def measure(side: str, tree: Path, python: str, run: Path, tasks: str | None) -> dict[str, float]:
    """Run one side's ``make run`` commands; their times and the run folder's disk."""
    run.mkdir(parents=True)
    figures = {"wall": 0.0, "report": 0.0, "disk": 0.0, "load": os.getloadavg()[0]}
    for command in commands(tree, python, run, tasks):
        out = out_folder(command)
        start = time.perf_counter()
        with open(run / f"{out.name}.log", "w", encoding="utf-8") as log:
            subprocess.run(command, cwd=run, stdout=log, stderr=subprocess.STDOUT, check=True)
        wall = time.perf_counter() - start
        report = (out / "report.html").stat().st_mtime - (out / "episodes.jsonl").stat().st_mtime
        disk = disk_bytes(out)
        print(f"  {side} {out.name}: {wall:7.1f} s, report {report:6.1f} s ({report / wall:5.1%}), "
              f"{disk / 1e6:7.1f} MB (report.html {(out / 'report.html').stat().st_size / 1e6:.1f} MB)", flush=True)
        figures["wall"] += wall
        figures["report"] += report
        figures["disk"] += disk
    figures["load"] = (figures["load"] + os.getloadavg()[0]) / 2
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-tree", type=Path, required=True)
    parser.add_argument("--base-python", required=True)
    parser.add_argument("--new-tree", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--new-python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tasks", help="only these tasks (a pattern of --tasks), for a quick look")
    parser.add_argument("--out", type=Path, help="keep the runs here (default: a temporary folder, removed)")
    args = parser.parse_args()
    root = args.out or Path(tempfile.mkdtemp(prefix="bench-make-run."))
    sides = {"base": (args.base_tree.resolve(), args.base_python), "new": (args.new_tree.resolve(), args.new_python)}
    results: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    try:
        for n in range(args.rounds):
            for side, (tree, python) in sides.items():
                print(f"round {n + 1}, {side} (load {os.getloadavg()[0]:.1f}):", flush=True)
                results[side].append(measure(side, tree, python, root / f"{n}-{side}", args.tasks))
                if args.out is None:
                    shutil.rmtree(root / f"{n}-{side}")
    finally:
        if args.out is None:
            shutil.rmtree(root, ignore_errors=True)
    print("\n| tree | wall (s) | report after the last episode (s) | report share | disk (MB) | load |")
    print("|---|---|---|---|---|---|")
    medians = {}
    for side, rows in results.items():
        medians[side] = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        m = medians[side]
        print(f"| {side} | {m['wall']:.0f} | {m['report']:.1f} | {m['report'] / m['wall']:.1%} | "
              f"{m['disk'] / 1e6:.0f} | {m['load']:.1f} |")
    base, new = medians["base"], medians["new"]
    print(f"\nnew/base: wall {new['wall'] / base['wall']:.2f}, report time {new['report'] / base['report']:.2f}, "
          f"disk {new['disk'] / base['disk']:.2f} (medians of {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
