"""Running many episodes in worker processes, with a crash-proof results file.

Each finished episode is appended to ``episodes.jsonl`` as one line, flushed and
fsynced before the next is taken, so killing the run at any moment (even ``kill -9``)
loses at most the episodes in flight. ``resume`` skips the episodes already recorded
and drops a last line cut short by the kill: nothing is lost and nothing counted twice.

Resuming also reruns the episodes that ended in an error (``retry_errors``). Their old
rows are dropped first by replacing the file atomically (write a copy, fsync, rename),
so the file keeps one row per episode at every moment: readers never see an episode
twice, and a kill leaves either the old file or the new one.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from mobile_gym.errors import MobileGymError
from mobile_gym.tasks.catalogue import env_id, task_id

EPISODES_FILE = "episodes.jsonl"
TRACES_DIR = "traces"  # with save_traces: one AgentEnv trace per episode, named by trace_dir_name


@dataclass(frozen=True)
class Job:
    task: str  # simulator task id
    agent: str  # agent name or module:Class
    seed: int

    @property
    def key(self) -> tuple[str, str, int]:
        return (env_id(self.task), self.agent, self.seed)


def trace_dir_name(task: str, agent: str, seed: int) -> str:
    """The folder under ``traces/`` of one episode; ``task`` may be the id or the env id,
    so a job and its record name the same folder (the HTML report finds traces by it)."""
    return f"{task_id(task)}__{agent.replace(':', '.')}__{seed}"


def read_episodes(path: Path) -> list[dict[str, Any]]:
    """The records of an ``episodes.jsonl``; a torn last line (a kill mid-write) is cut
    off the file. A torn line anywhere else is corruption and raises."""
    if not path.exists():
        return []
    data = path.read_bytes()
    lines = data.split(b"\n")
    records = []
    good = 0  # bytes of whole, parseable lines
    for i, line in enumerate(lines):
        if not line.strip():
            good += len(line) + (1 if i < len(lines) - 1 else 0)
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if i == len(lines) - 1 or all(not rest.strip() for rest in lines[i + 1:]):
                with open(path, "r+b") as f:  # the kill tore the last line: drop it
                    f.truncate(good)
                break
            raise MobileGymError(f"{path}: line {i + 1} is not JSON") from None
        good += len(line) + 1
    return records


def _rewrite(path: Path, records: list[dict[str, Any]]) -> None:
    """Replace ``path`` by ``records`` atomically: a kill leaves the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in records)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    if os.name == "posix":  # make the rename itself durable
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _key(record: dict[str, Any]) -> tuple[str, str, int]:
    return (record["task"], record["agent"], record["seed"])


def _worker(args: tuple[Job, dict, str | None]) -> dict[str, Any]:
    job, env_kwargs, traces = args
    from mobile_gym.env import resolve_task
    from mobile_gym.runner.episode import run_episode

    trace_dir = None if traces is None else Path(traces) / trace_dir_name(job.task, job.agent, job.seed)
    if trace_dir is not None and trace_dir.exists():
        shutil.rmtree(trace_dir)  # left by a killed or failed attempt: this episode is not recorded
    return run_episode(resolve_task(job.task), job.agent, job.seed, env_kwargs=env_kwargs, trace_dir=trace_dir)


def run_batch(jobs: Iterable[Job], out: str | Path, *, workers: int = 1, resume: bool = False,
              retry_errors: bool = True, env_kwargs: dict[str, Any] | None = None, save_traces: bool = False,
              progress: Callable[[int, int, list[dict]], None] | None = None) -> list[dict[str, Any]]:
    """Run ``jobs`` and return every record of ``out/episodes.jsonl``, one per episode.

    Resuming skips the episodes already recorded, except those that ended in an error,
    which run again unless ``retry_errors`` is False. Each agent is built once before any
    episode runs, so a bad agent raises `MobileGymError` instead of filling the file with
    error rows. Ctrl-C stops the workers; finished episodes stay."""
    from mobile_gym.env import resolve_task
    from mobile_gym.runner.episode import check_agent

    out = Path(out)
    path = out / EPISODES_FILE
    if path.exists() and not resume:
        raise MobileGymError(f"{path} exists: pass resume=True (--resume) to finish that run, or use a new folder")
    jobs = list(jobs)
    done = read_episodes(path)
    wanted = {j.key for j in jobs}
    retry = {_key(r) for r in done if retry_errors and r.get("error") is not None and _key(r) in wanted}
    seen = {_key(r) for r in done} - retry
    todo = [j for j in jobs if j.key not in seen]
    first: dict[str, Job] = {}  # agent -> its first job
    for j in todo:
        first.setdefault(j.agent, j)
    for j in first.values():
        check_agent(j.agent, resolve_task(j.task), j.seed)
    out.mkdir(parents=True, exist_ok=True)
    if retry:
        done = [r for r in done if _key(r) not in retry]
        _rewrite(path, done)
    traces = str(out / TRACES_DIR) if save_traces else None
    args = [(j, dict(env_kwargs or {}), traces) for j in todo]
    results: list[dict[str, Any]] = []
    with open(path, "a", encoding="utf-8") as f:
        def record(r: dict[str, Any]) -> None:
            f.write(json.dumps(r, sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())
            results.append(r)
            if progress is not None:
                progress(len(results), len(todo), results)

        if workers <= 1:
            for a in args:
                record(_worker(a))
        else:
            pool = mp.get_context("fork" if sys.platform != "win32" else "spawn").Pool(workers)
            try:
                for r in pool.imap_unordered(_worker, args):
                    record(r)
                pool.close()
            except BaseException:
                pool.terminate()
                raise
            finally:
                pool.join()
    return done + results


def progress_printer(stream=None) -> Callable[[int, int, list[dict]], None]:
    """A one-line progress bar with ETA and the running completion rate, on ``stream``
    (default: ``sys.stderr`` as it is when called, not when this module was imported)."""
    stream = sys.stderr if stream is None else stream
    start = time.monotonic()

    def show(n: int, total: int, results: list[dict]) -> None:
        elapsed = time.monotonic() - start
        eta = elapsed / n * (total - n) if n else 0.0
        ok = sum(bool(r["success"]) for r in results)
        errors = sum(r["error"] is not None for r in results)
        width = 30
        bar = "#" * int(width * n / max(total, 1))
        stream.write(f"\r[{bar:<{width}}] {n}/{total}  success {ok / n:.0%}  errors {errors}  "
                     f"ETA {eta:4.0f}s ")
        if n == total:
            stream.write("\n")
        stream.flush()

    return show
