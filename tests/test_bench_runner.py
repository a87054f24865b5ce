"""The runner benchmark's smoke run: it must keep working (the issue's acceptance asks for
its numbers) and its runner and bare loop must take the same steps. Times are never
asserted: they depend on the machine."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_benchmark_prints_rates_and_equal_step_counts() -> None:
    # A subprocess: the 2-worker run forks, which is safest from a fresh interpreter.
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_runner.py"), "--quick"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for label in ("bare gym loop", "runner 1 worker", "runner 2 workers"):
        assert re.search(rf"^\[{label}\] median [\d.]+ episodes/min, [\d.]+ env steps/s over 1 runs ", out, re.M), out
    steps = re.search(r"^\[steps\] env steps: bare gym loop (\d+), runner 1 worker (\d+), "
                      r"runner 2 workers (\d+); equal job by job$", out, re.M)
    assert steps, out
    assert len(set(steps.groups())) == 1 and int(steps[1]) > 0
    assert re.search(r"^\[overhead\] runner 1 worker vs bare loop: [+-][\d.]+% wall time", out, re.M), out
    assert re.search(r"^\[speed-up\] runner 2 workers vs 1 worker: [\d.]+x", out, re.M), out
    assert "[errors]" not in out
