"""Train the README's "Train a policy" snippet, as written, on each short task the README claims
it solves, and measure every policy on unseen seeds.

The snippet is README.md's first ``python`` block under "## Train a policy". Its task (the first
argument of ``make_vec_env``, wherever that id appears in the block) becomes each task's id in
turn, and the block runs as a script in a fresh process, as a user would run it, followed by an
evaluation of its ``model``: ``train_ppo.py``'s (deterministic masked actions on ``--seeds``
seeds from 10,000,000 up, which training never draws; success is ``info["is_success"]`` at the
episode's end). Nothing of the snippet is copied here, so the README and this benchmark cannot
drift apart: edit the README and this measures the edit.

    python benchmarks/train_readme.py
    python benchmarks/train_readme.py --tasks settings-set-disturb --readme OLD_README.md
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
#: The six tasks of 2-4 golden steps of the README's training table: the snippet as written solves
#: the first five; chrome-refresh-tabs, which a random walk never solves, needs the progress reward
#: (RESULTS.md, "The README's training snippet").
SHORT_TASKS = ("settings-turn-off-wifi", "settings-turn-airplane-mode", "settings-go-network",
               "settings-set-disturb", "clock-set-stopwatch", "chrome-refresh-tabs")
SECTION = "## Train a policy"
#: The line the evaluation appended to the snippet prints its result on.
RESULT_PREFIX = "TRAIN_README_RESULT "
#: Appended to the snippet: its globals (``model``, ``mobile_gym``) are the script's.
EPILOGUE = """

if __name__ == "__main__":  # appended by benchmarks/train_readme.py
    import json as _json
    import sys as _sys

    _sys.path.insert(0, {benchmarks!r})
    from train_ppo import EVAL_SEED_BASE as _BASE, evaluate as _evaluate

    _env = mobile_gym.policy_env({task!r})
    _result = _evaluate(model, _env, [_BASE + _k for _k in range({seeds})], masked=True)
    print({prefix!r} + _json.dumps(_result), flush=True)
"""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", nargs="+", default=list(SHORT_TASKS), help="task ids (default: the six short ones)")
    p.add_argument("--readme", type=Path, default=ROOT / "README.md", help="the README whose snippet runs")
    p.add_argument("--seeds", type=int, default=20, help="unseen seeds each trained policy plays")
    p.add_argument("--out", type=Path, help="also write the results here as JSON")
    args = p.parse_args(argv)
    if args.seeds < 1:
        p.error("--seeds must be positive")
    return args


def readme_snippet(readme: Path) -> str:
    """The first ``python`` code block of the README's "Train a policy" section."""
    text = readme.read_text(encoding="utf-8")
    start = text.find(f"\n{SECTION}\n")
    if start < 0:
        raise SystemExit(f"{readme}: no {SECTION!r} section")
    end = text.find("\n## ", start + len(SECTION) + 2)
    block = re.search(r"^```python\n(.*?)^```", text[start:end if end >= 0 else None], re.S | re.M)
    if block is None:
        raise SystemExit(f"{readme}: no python block under {SECTION!r}")
    return block.group(1)


def for_task(snippet: str, task: str) -> str:
    """The snippet with its own task (``make_vec_env``'s first argument) replaced by ``task``
    wherever it is quoted."""
    named = re.search(r"make_vec_env\(\s*([\"'])([^\"']+)\1", snippet)
    if named is None:
        raise SystemExit("the README's snippet does not call make_vec_env with a task id")
    quote, own = named.groups()
    return snippet.replace(f"{quote}{own}{quote}", f"{quote}{task}{quote}")


def run_task(snippet: str, task: str, seeds: int) -> dict[str, Any]:
    """Run the snippet on ``task`` as a script, then evaluate its model; the evaluation, the
    seconds it all took and what the snippet printed itself."""
    code = for_task(snippet, task) + EPILOGUE.format(benchmarks=str(ROOT / "benchmarks"), task=task,
                                                     seeds=seeds, prefix=RESULT_PREFIX)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "readme_snippet.py"
        script.write_text(code, encoding="utf-8")
        begin = time.perf_counter()
        done = subprocess.run([sys.executable, str(script)], cwd=tmp, capture_output=True, text=True)
        seconds = time.perf_counter() - begin
    lines = done.stdout.splitlines()
    results = [line[len(RESULT_PREFIX):] for line in lines if line.startswith(RESULT_PREFIX)]
    if done.returncode != 0 or not results:
        raise SystemExit(f"the snippet failed on {task} (exit {done.returncode}):\n{done.stderr[-3000:]}")
    printed = [line for line in lines if not line.startswith(RESULT_PREFIX)]
    return {"task": task, **json.loads(results[-1]), "seconds": round(seconds, 1), "printed": printed}


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    args = parse_args(argv)
    snippet = readme_snippet(args.readme)
    rows = []
    for task in args.tasks:
        row = run_task(snippet, task, args.seeds)
        rows.append(row)
        wins = round(row["success_rate"] * args.seeds)
        print(f"{task:32s} {wins:2d}/{args.seeds} unseen seeds  mean length {row['mean_length']:4.1f}  "
              f"{row['seconds']:5.0f} s", flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps({"readme": str(args.readme), "seeds": args.seeds, "tasks": rows},
                                       indent=2) + "\n")
    return rows


if __name__ == "__main__":
    main()
