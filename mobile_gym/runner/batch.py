"""Running many episodes in worker processes, with a crash-proof results file.

Each finished episode is appended to ``episodes.jsonl`` as one line, fsynced before the
next is taken, so killing the run at any moment (even ``kill -9``) loses at most the
episodes in flight. A record counts once its line ends: ``resume`` skips the episodes
already recorded and drops a last line cut short by a kill or a full disk, so nothing
is lost and nothing counted twice.

Resuming also reruns the episodes that ended in an error (``retry_errors``). Their old
rows are dropped first by replacing the file atomically (write a copy, fsync, rename),
so the file keeps one row per episode at every moment: readers never see an episode
twice, and a kill leaves either the old file or the new one.

Traces (``save_traces``) are written by the worker into a fresh folder under
``traces/.partial`` and renamed to ``traces/<episode>`` by the parent just before it
appends the record. A trace in place is therefore always complete, and every record's
trace is in place; a kill between the rename and the record leaves a trace of an
episode that is not recorded, which the rerun replaces (``.partial`` is emptied on
resume). Episodes run in worker processes (`WorkerPool`) even with one worker, so that
an episode that hangs past ``episode_timeout`` or kills its worker becomes an error row
(``EpisodeTimeout``, ``WorkerDied``) and the run goes on. A results file or trace that
cannot be written (disk full) stops the run with `StorageError`.

With ``executor="ray"`` the episodes run on a Ray cluster (`RayPool`) and everything
above holds: the driver writes the file and places the traces. A worker on another node
writes its trace to a folder of its own and sends it back packed (`_run_job_anywhere`).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tarfile
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from mobile_gym.errors import FormatError, MobileGymError, StorageError
from mobile_gym.runner.metrics import succeeded
from mobile_gym.runner.pool import Lost, WorkerPool
from mobile_gym.tasks.catalogue import env_id, task_id

EPISODES_FILE = "episodes.jsonl"
TRACES_DIR = "traces"  # with save_traces: one AgentEnv trace per episode, named by trace_dir_name
PARTIAL_DIR = ".partial"  # under TRACES_DIR: traces being written, not yet recorded
SHARED_DIR = ".shared"  # under PARTIAL_DIR: one link to each file content the run's traces hold (`share_files`)
EPISODE_TIMEOUT = 600.0  # seconds; generous: a simulator episode takes well under one
EXECUTORS = ("process", "ray")  # where episodes run: worker processes here, or a Ray cluster


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
    """The records of an ``episodes.jsonl``. A last line without its line feed (torn by a
    kill or a full disk) is cut off the file; a bad line anywhere else is a `FormatError`."""
    if not path.exists():
        return []
    data = path.read_bytes()
    lines = data.split(b"\n")  # the last item is what follows the last line feed
    if lines[-1]:
        with open(path, "r+b") as f:
            f.truncate(len(data) - len(lines[-1]))
    return [record for _, record in episode_lines(lines[:-1], path)]


def episode_lines(lines: list[bytes], path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) of whole ``episodes.jsonl`` lines (blank ones skipped); a
    line that is no episode record is a `FormatError` naming its number."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:  # not JSON, or not UTF-8
            raise FormatError(path, f"line {number} is not JSON") from None
        if not (isinstance(record, dict) and isinstance(record.get("task"), str)
                and isinstance(record.get("agent"), str) and type(record.get("seed")) is int):
            raise FormatError(path, f"line {number} is not an episode record (task, agent, integer seed)")
        yield number, record


def _rewrite(path: Path, records: list[dict[str, Any]]) -> None:
    """Replace ``path`` by ``records`` atomically: a kill leaves the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in records)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _sync_dir(path.parent)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise StorageError(f"cannot rewrite {path}: {e.strerror or e}") from e


def _sync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    if os.name == "posix":
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class _EpisodeLog:
    """``episodes.jsonl`` open for appending whole lines. Raw ``os.write`` calls, so that
    a failed write leaves no buffer behind to fail again on close."""

    def __init__(self, path: Path):
        self.path = path
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as e:
            raise StorageError(f"cannot open {path}: {e.strerror or e}") from e

    def append(self, record: dict[str, Any]) -> None:
        data = memoryview((json.dumps(record, sort_keys=True) + "\n").encode("ascii"))
        try:
            while data:
                data = data[os.write(self._fd, data):]
            os.fsync(self._fd)
        except OSError as e:
            raise StorageError(f"cannot append to {self.path}: {e.strerror or e}") from e

    def close(self) -> None:
        os.close(self._fd)


def _key(record: dict[str, Any]) -> tuple[str, str, int]:
    return (record["task"], record["agent"], record["seed"])


def _task(name: str, env_kwargs: dict[str, Any]) -> Any:
    """The task a job names, as the env will run it (``backend``, ``dataset``)."""
    from mobile_gym.env import resolve_task

    return resolve_task(name, env_kwargs.get("backend", "sim"), env_kwargs.get("dataset"))


def _run_job(args: tuple[Job, dict, str | None, dict, str],
             device: dict[str, Any] | None = None) -> tuple[dict[str, Any], str | None]:
    """A worker's episode (on the worker's own ``device``: its env keyword arguments):
    its record and, with traces, the folder (under ``partial``) it wrote the trace to; an
    errored episode's half-written trace is removed."""
    job, env_kwargs, partial, agent_options, trace_screenshots = args
    from mobile_gym.runner.episode import run_episode

    env_kwargs = {**env_kwargs, **(device or {})}

    trace_dir = None
    if partial is not None:
        try:
            os.makedirs(partial, exist_ok=True)
            trace_dir = Path(tempfile.mkdtemp(prefix=trace_dir_name(job.task, job.agent, job.seed) + ".", dir=partial))
        except OSError as e:
            raise StorageError(f"cannot create a trace folder in {partial}: {e.strerror or e}") from e
    record = run_episode(_task(job.task, env_kwargs), job.agent, job.seed, env_kwargs=env_kwargs, trace_dir=trace_dir,
                         agent_options=agent_options, trace_screenshots=trace_screenshots,
                         shared_files=None if partial is None else Path(partial) / SHARED_DIR)
    if trace_dir is not None and record["error"] is not None:
        shutil.rmtree(trace_dir, ignore_errors=True)
        trace_dir = None
    return record, None if trace_dir is None else str(trace_dir)


def _run_job_anywhere(args: tuple[Job, dict, str | None, dict, str, str],
                      device: dict[str, Any] | None = None) -> tuple[dict[str, Any], str | bytes | None]:
    """`_run_job` on any node of a Ray cluster (``args`` end with the driver's node id): on
    the driver's node as it is; elsewhere the trace is written to a folder of this node
    and returned packed (an uncompressed tar: its screenshots are PNGs already)."""
    from mobile_gym.runner.ray_pool import import_ray

    *job_args, driver = args
    partial = job_args[2]
    if partial is None or import_ray().get_runtime_context().get_node_id() == driver:
        return _run_job(tuple(job_args), device)  # type: ignore[arg-type]
    local = tempfile.mkdtemp(prefix="mobile-gym-trace.")
    try:
        job_args[2] = local
        record, written = _run_job(tuple(job_args), device)  # type: ignore[arg-type]
        if written is None:
            return record, None
        packed = io.BytesIO()
        with tarfile.open(fileobj=packed, mode="w") as tar:
            tar.add(written, arcname=".")
        return record, packed.getvalue()
    finally:
        shutil.rmtree(local, ignore_errors=True)


def _unpack_trace(packed: bytes, partial: Path, job: Job) -> str:
    """A trace sent back packed, written under ``partial`` (the driver's) as a worker of
    this machine would have."""
    try:
        partial.mkdir(parents=True, exist_ok=True)
        folder = tempfile.mkdtemp(prefix=trace_dir_name(job.task, job.agent, job.seed) + ".", dir=partial)
        with tarfile.open(fileobj=io.BytesIO(packed), mode="r") as tar:
            tar.extractall(folder, filter="data")
    except OSError as e:
        raise StorageError(f"cannot write a trace in {partial}: {e.strerror or e}") from e
    return folder


def _lost_record(job: Job, lost: Lost, env_kwargs: dict[str, Any]) -> dict[str, Any]:
    """The error row of an episode whose worker died or ran past the timeout."""
    from mobile_gym.runner.episode import base_record, error_info

    record = base_record(_task(job.task, env_kwargs), job.agent, job.seed,
                         oracle=env_kwargs.get("backend", "sim") == "sim")
    record["error"] = error_info("EpisodeTimeout" if lost.timed_out else "WorkerDied", lost.message)
    record.update(wall_time=lost.seconds, step_latency=None, act_latency=None)
    return record


def _place_trace(written: str, final: Path) -> None:
    """Rename a finished trace into place, replacing what an unrecorded attempt left."""
    try:
        if final.exists():
            shutil.rmtree(final)
        os.replace(written, final)
    except OSError as e:
        raise StorageError(f"cannot move the trace {written} to {final}: {e.strerror or e}") from e


def run_batch(jobs: Iterable[Job], out: str | Path, *, workers: int = 1, resume: bool = False,
              retry_errors: bool = True, env_kwargs: dict[str, Any] | None = None, save_traces: bool = False,
              episode_timeout: float | None = EPISODE_TIMEOUT,
              progress: Callable[[int, int, list[dict]], None] | None = None,
              agent_options: dict[str, Any] | None = None, trace_screenshots: str = "device",
              devices: Sequence[dict[str, Any]] | None = None, executor: str = "process",
              address: str | None = None) -> list[dict[str, Any]]:
    """Run ``jobs`` and return every record of ``out/episodes.jsonl``, one per episode.

    Resuming skips the episodes already recorded, except those that ended in an error,
    which run again unless ``retry_errors`` is False. Each agent is built once before any
    episode runs, so a bad agent raises `MobileGymError` instead of filling the file with
    error rows. An episode that takes longer than ``episode_timeout`` seconds (None or 0:
    no limit) is killed and recorded as an ``EpisodeTimeout`` error; one whose worker dies
    as ``WorkerDied``. A full disk raises `StorageError`; Ctrl-C stops the workers. Either
    way the episodes recorded so far stay, for ``resume``. ``agent_options`` go to each
    agent's constructor (e.g. an LLM agent's ``model``). ``trace_screenshots`` (with
    ``save_traces``): ``"device"`` saves screenshots at the device's resolution, as AgentEnv
    does and LlamaTouch's evaluator needs; ``"observation"`` the env's smaller ones
    (`mobile_gym.wrappers.record_trace.TRACE_SCREENSHOTS`). ``devices`` (phones, with
    ``env_kwargs`` ``backend="device"``): one worker per entry, whose envs get that entry's
    keyword arguments (e.g. ``{"serial": "emulator-5554"}``) on top of ``env_kwargs``;
    ``workers`` is then their number. ``executor="ray"`` runs the episodes on a Ray cluster
    (``address`` as `ray_pool.connect` takes it), a job whose worker dies run once more;
    there a phone's worker is an actor on the node declaring the resource ``phone:SERIAL``."""
    from mobile_gym.env import shared_matcher
    from mobile_gym.runner.episode import check_agent
    from mobile_gym.wrappers.record_trace import check_trace_screenshots

    check_trace_screenshots(trace_screenshots)
    if executor not in EXECUTORS:
        raise MobileGymError(f"executor must be one of {', '.join(EXECUTORS)}; got {executor!r}")
    if address is not None and executor != "ray":
        raise MobileGymError("an address is a Ray cluster's: it goes with executor='ray'")

    # paths made absolute once: an agent may change the working directory (in its
    # constructor, run here, or in a worker), and every trace must still land in ``out``
    out = Path(os.path.abspath(out))
    env_kwargs = dict(env_kwargs or {})
    if env_kwargs.get("dataset") is not None:
        env_kwargs["dataset"] = os.path.abspath(env_kwargs["dataset"])
    path = out / EPISODES_FILE
    if path.exists() and not resume:
        raise MobileGymError(f"{path} exists: pass resume=True (--resume) to finish that run, or use a new folder")
    jobs = list(jobs)
    done = read_episodes(path)
    wanted = {j.key for j in jobs}
    retry = {_key(r) for r in done if retry_errors and r.get("error") is not None and _key(r) in wanted}
    seen = {_key(r) for r in done} - retry
    todo = list(dict.fromkeys(j for j in jobs if j.key not in seen))  # each job once, in order
    first: dict[str, Job] = {}  # agent -> its first job
    for j in todo:
        first.setdefault(j.agent, j)
    names = {j.agent: check_agent(j.agent, _task(j.task, env_kwargs), j.seed, agent_options)
             for j in first.values()}
    named = Counter(names.values())
    names = {spec: name if named[name] == 1 else spec for spec, name in names.items()}  # two agents, one name
    # the embedding model, if a task needs it, loads here once: forked workers inherit it
    # instead of each loading it (5-10 s) inside its first episode's timeout
    matcher = shared_matcher(env_kwargs.get("embedding_model"))
    for task in dict.fromkeys(j.task for j in todo):
        matcher.warm_up(_task(task, env_kwargs).annotation)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StorageError(f"cannot create {out}: {e.strerror or e}") from e
    if retry:
        done = [r for r in done if _key(r) not in retry]
        _rewrite(path, done)
    traces = out / TRACES_DIR
    partial = traces / PARTIAL_DIR
    if save_traces:  # what a killed attempt left: half-written traces, traces of unrecorded episodes
        shutil.rmtree(partial, ignore_errors=True)
        for j in todo:
            shutil.rmtree(traces / trace_dir_name(j.task, j.agent, j.seed), ignore_errors=True)
    args = [(j, dict(env_kwargs), str(partial) if save_traces else None, dict(agent_options or {}),
             trace_screenshots) for j in todo]
    results: list[dict[str, Any]] = []
    log = _EpisodeLog(path)
    try:
        with _pool(executor, address, workers, episode_timeout or None, devices) as pool:
            if executor == "ray":
                driver = pool.node_id
                args = [(*a, driver) for a in args]  # type: ignore[misc]
            for (job, *_), outcome in pool.imap_unordered(args):
                record, written = ((_lost_record(job, outcome, env_kwargs), None) if isinstance(outcome, Lost)
                                   else outcome)
                if isinstance(written, bytes):
                    written = _unpack_trace(written, partial, job)
                if written is not None:
                    _place_trace(written, traces / trace_dir_name(job.task, job.agent, job.seed))
                record["agent_name"] = names[job.agent]
                log.append(record)
                results.append(record)
                if progress is not None:
                    progress(len(results), len(todo), results)
    finally:
        log.close()
    shutil.rmtree(partial, ignore_errors=True)
    return done + results


def _pool(executor: str, address: str | None, workers: int, timeout: float | None,
          devices: Sequence[dict[str, Any]] | None) -> WorkerPool | Any:
    """Where the episodes run: worker processes of this machine, or a Ray cluster (a
    phone's worker placed on the node declaring ``phone:SERIAL``)."""
    if executor == "process":
        return WorkerPool(_run_job, workers, timeout=timeout, slots=devices)
    from mobile_gym.runner.ray_pool import RayPool, cluster_phones, connect, phone_resources

    if devices is not None and [d.get("serial") for d in devices] == [None]:  # no serial named
        serials = cluster_phones(connect(address))
        devices = [{**devices[0], "serial": s} for s in serials] or devices  # every phone the cluster declares
    resources = None if devices is None else [phone_resources([d["serial"]] if d.get("serial") else [])
                                              for d in devices]
    return RayPool(_run_job_anywhere, workers, timeout=timeout, slots=devices, slot_resources=resources,
                   address=address)


def progress_printer(stream=None) -> Callable[[int, int, list[dict]], None]:
    """A run's progress (`ProgressLine`): episodes done, the running completion rate and
    errors, on ``stream`` (default: ``sys.stderr`` as it is when called)."""
    from mobile_gym.progress import ProgressLine

    line = ProgressLine("episodes", stream)

    def show(n: int, total: int, results: list[dict]) -> None:
        errors = sum(r["error"] is not None for r in results)
        ok = sum(map(succeeded, results))
        line.update(n, total, f"success {ok / n:.0%}  errors {errors}")

    return show
