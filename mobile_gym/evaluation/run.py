"""Re-judging the traces of a ``mobile-gym run`` (``mobile-gym evaluate --run DIR``).

A run folder holds ``episodes.jsonl`` (one record per episode: task, agent, seed, the
env's verdict ``success``, the simulator oracle's ``oracle_success``, ``terminated_by``,
``error``) and, with ``--save-traces``, ``traces/<task>__<agent>__<seed>/`` in AgentEnv's
format. Each record's trace is judged against its task's ground truth: a LlamaTouch
dataset (``export-dataset`` writes one for the simulator tasks), or, by default, the
simulator tasks' own (`SimulatorTruth`), so a simulator run needs nothing else.

The run folder is only read: a record cut short by a kill at the end of the file is
skipped, not cut off as ``mobile-gym run --resume`` does.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Iterable, Sequence

from mobile_gym.errors import FormatError, MobileGymError
from mobile_gym.evaluation.engine import Job, ProgressCallback, RunInfo, judge
from mobile_gym.evaluation.ground_truth import DatasetTruth, GroundTruth, SimulatorTruth
from mobile_gym.evaluation.report import EpisodeResult
from mobile_gym.evaluation.runner import EVALUATORS, check_evaluators
from mobile_gym.formats.files import MAX_TABLE_BYTES, read_bytes

logger = logging.getLogger(__name__)


def read_run_records(run_dir: str | Path) -> list[dict[str, Any]]:
    """The episode records of a run folder, in file order, without changing the file.

    A folder that is not a run (no ``episodes.jsonl``), a file without records, a line
    that is not a record (JSON with ``task``, ``agent`` and integer ``seed``) or an
    episode recorded twice is a `FormatError` naming the file (and line). A last line
    without its line feed (the run was killed mid-write, or is still running) is
    skipped with a warning.
    """
    from mobile_gym.runner.batch import EPISODES_FILE, episode_lines

    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise FormatError(run_dir, "run folder does not exist")
    path = run_dir / EPISODES_FILE
    if not path.exists():
        raise FormatError(path, f"is missing: {run_dir} is not the output folder of `mobile-gym run`")
    lines = read_bytes(path, "episode records", MAX_TABLE_BYTES).split(b"\n")
    if lines[-1].strip():
        logger.warning("%s: the last line is cut short (a run killed mid-write, or still running); skipped", path)
    records: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, int], int] = {}
    for number, record in episode_lines(lines[:-1], path):
        key = (record["task"], record["agent"], record["seed"])
        if key in seen:
            raise FormatError(path, f"line {number} records {key[0]} / {key[1]} / seed {key[2]} again "
                                    f"(line {seen[key]} did already)")
        seen[key] = number
        records.append(record)
    if not records:
        raise FormatError(path, "records no episodes")
    return records


def check_run(run_dir: str | Path) -> list[dict[str, Any]]:
    """The records of a run folder that has traces to judge; else a `FormatError`
    (see `read_run_records`; a run saved without ``--save-traces`` has no traces)."""
    from mobile_gym.runner.batch import TRACES_DIR

    records = read_run_records(run_dir)
    traces = Path(run_dir) / TRACES_DIR
    if not traces.is_dir():
        raise FormatError(traces, "does not exist: the run saved no traces (run it with --save-traces)")
    return records


def run_jobs(run_dir: str | Path, truth: GroundTruth) -> list[Job]:
    """One job per record of the run (`check_run`): its trace, its task's ground-truth
    episode in `truth`, and whether the env ended it on success. A record without its
    trace (the episode ended in an error, which leaves none) is a job with that error."""
    from mobile_gym.runner.batch import TRACES_DIR, trace_dir_name

    run_dir = Path(run_dir)
    records = check_run(run_dir)
    traces = run_dir / TRACES_DIR
    jobs = []
    for r in records:
        name = trace_dir_name(r["task"], r["agent"], r["seed"])
        failed = r.get("error")
        info = RunInfo(task=r["task"], agent=r["agent"], seed=r["seed"],
                       online=None if failed is not None else bool(r.get("success")),
                       oracle=None if failed is not None or r.get("oracle_success") is None  # a phone's: none
                       else bool(r["oracle_success"]))
        try:
            episode: str | None = truth.episode_of(r["task"])
            unknown = None
        except MobileGymError as exc:
            episode, unknown = None, str(exc)
        folder = traces / name
        error = unknown
        if error is None and failed is not None:
            kind = failed.get("kind", "error") if isinstance(failed, dict) else "error"
            message = failed.get("message", "") if isinstance(failed, dict) else str(failed)
            error = f"the episode ended in an error during the run ({kind}: {message}), which leaves no trace"
        jobs.append(Job(
            name=name, episode=episode, trace=folder, root=traces, error=error, run=info,
            ended_by_success=r.get("terminated_by") == "success",
            no_trace=f"no trace at {folder}: the run has none for this episode",
        ))
    return jobs


def evaluate_run(
    run_dir: str | Path,
    *,
    dataset: Any | None = None,
    evaluators: Sequence[str] = EVALUATORS,
    episodes: Iterable[str] | None = None,
    config: Any | None = None,
    workers: int = 1,
    embedding_cache: str | Path | None = None,
    progress_callback: ProgressCallback | None = None,
) -> list[EpisodeResult]:
    """Judge every trace of a run folder with each of `evaluators` (default: all), in
    the order the run recorded them; rows carry the task, agent, seed and the run's
    verdicts (see `EpisodeResult`). `dataset` (a `GroundTruthDataset`) gives the ground
    truth; without it, the simulator tasks do. `episodes` keeps only those traces (by
    folder name); one not in the run is an error row. `config`, `workers` and
    `embedding_cache` are the batch engine's (`engine.judge`). A folder that is not a
    run with traces is a `FormatError` before anything is judged.
    """
    evaluators = check_evaluators(evaluators)
    truth: GroundTruth = SimulatorTruth() if dataset is None else DatasetTruth(dataset)
    jobs = run_jobs(run_dir, truth)
    if episodes is not None:
        by_name = {job.name: job for job in jobs}
        jobs = [by_name.get(name) or Job(name=name, episode=None, trace=None,
                                         error=f"episode {name} is not in the run {run_dir}")
                for name in dict.fromkeys(episodes)]
    return judge(jobs, truth, evaluators, config=config, workers=workers, cache_dir=embedding_cache,
                 progress=progress_callback)


__all__ = ["check_run", "evaluate_run", "read_run_records", "run_jobs"]
