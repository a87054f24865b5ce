"""Judging many traces fast: batched embeddings, a disk cache, shared screens, workers.

A re-judge of a run is dominated by two costs, and this module removes both:

- **The embedding model.** Loading it takes seconds and encoding one screen's HTML about
  0.1 s when texts come a few at a time, as the tracker asks for them. Here every trace
  is first judged with the vectors already known (in memory or in the on-disk cache); a
  trace that needs a text nobody has encoded is set aside, with every text its next
  fuzzy decision may need, whichever way it goes. Then all those texts are encoded in one
  call (the model loads once, only if a text is missing; with workers and a cache known
  to be empty, while they judge), and the traces set aside are judged again. A trace
  moves on by at least one checkpoint each round, so a few rounds finish any run; a cold
  re-judge encodes each distinct text once, a warm one (every text in the cache) never
  imports torch.
- **Repeated screens.** Traces are judged grouped by ground-truth episode, with
  `SharedDumps` and `SharingMatcher` (``shared.py``): each distinct dump is parsed once
  and each checkpoint judged once per distinct screen.

With ``workers > 1`` the traces are judged in that many processes (chunks of jobs of the
same episode); only the parent ever loads the model, and sends the vectors it encodes
with the jobs it sends back. Verdicts are the ones the plain path (`judge_plainly`: one
`Matcher`, trace by trace, the model called as needed) gives: vectors do not depend on
which texts share a batch, beyond float rounding.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from mobile_gym.errors import FormatError, MobileGymError
from mobile_gym.evaluation.baselines import BASELINES
from mobile_gym.evaluation.ground_truth import GroundTruth
from mobile_gym.evaluation.report import EpisodeResult, format_matched
from mobile_gym.evaluation.shared import SharedDumps, SharingMatcher
from mobile_gym.matcher.embeddings import SentenceEmbedder
from mobile_gym.matcher.primitives import Matcher, MatcherConfig
from mobile_gym.report_text import printable

logger = logging.getLogger(__name__)

#: Rounds of encoding before the traces still waiting are judged with the model called
#: as needed (each round moves every waiting trace on by a checkpoint: this is a guard).
MAX_ROUNDS = 8

#: Texts per forward pass of the model when a round's texts are encoded. They are sorted
#: by length first and each batch is padded to its longest (up to 256 tokens), so small
#: batches waste little on a mix of 5-token labels and 256-token screens: 8 encodes such a
#: mix about twice as fast as 64 on 2 cores (benchmarks/RESULTS.md, "Re-judging a run").
ENCODE_BATCH = 8

#: Called after each job with (jobs done, jobs in total, that job's rows).
ProgressCallback = Callable[[int, int, list[EpisodeResult]], None]


@dataclass(frozen=True)
class RunInfo:
    """What a run recorded about the episode a trace is of."""

    task: str
    agent: str
    seed: int
    online: bool | None  # the env's verdict (None: the episode ended in an error)
    oracle: bool | None  # the simulator's oracle (None: likewise)


@dataclass(frozen=True)
class Job:
    """One execution trace to judge against one ground-truth episode.

    `name` is the rows' ``episode``; `trace` the AgentEnv episode folder, read only inside
    `root`, or None with `no_trace` saying why (raised as the trace's load error, after
    the annotation's); `error`, when set, is the rows' error without judging anything
    (an episode that failed in the run). `ended_by_success`: the env ended the episode
    on the matcher's success, which the action baselines count as the agent's COMPLETE.
    """

    name: str
    episode: str | None
    trace: Path | None
    root: Path | None = None
    ended_by_success: bool = False
    error: str | None = None
    no_trace: str | None = None
    run: RunInfo | None = None


class PendingEmbeddings(Exception):
    """Judging needs texts no one has encoded yet. Not a `MobileGymError`: it must get
    past the handlers that turn data errors into rows."""

    def __init__(self, texts: Sequence[str]):
        super().__init__(f"{len(texts)} text(s) to encode")
        self.texts = list(texts)


class _KnownVectors:
    """A `TextEmbedder` that answers from vectors already computed (memory, the disk
    cache, vectors the parent sent) and never loads the model. A text it lacks raises
    `PendingEmbeddings`; while `collecting`, it is recorded instead and stands in as
    `unlike` everything (a zero vector: the checkpoint asking fails, and is tried on the
    next steps too) or, with ``unlike=False``, as like every other missing text (one
    vector for all: the checkpoint passes, and the next one is tried). Collecting once
    each way records the texts a trace needs around its next fuzzy decision, whichever
    way it goes."""

    def __init__(self, store: SentenceEmbedder):
        self.store = store
        self.collecting: set[str] | None = None
        self.unlike = True

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        found = self.store.lookup(texts)
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            if self.collecting is None:
                raise PendingEmbeddings(missing)
            self.collecting.update(missing)
            dim = next(iter(found.values())).shape[0] if found else 1
            stand_in = np.zeros(dim, dtype=np.float32)
            if not self.unlike:
                stand_in[0] = 1.0
            return np.stack([found.get(t, stand_in) for t in texts])
        return np.stack([found[t] for t in texts])


@dataclass
class _Waiting:
    """A job set aside for texts to be encoded; `texts` is every text it asked for."""

    texts: set[str] = field(default_factory=set)


# -- one process's judge --------------------------------------------------------------------
class _Judge:
    """Judges jobs in this process: the ground truth, the dump parses and check results
    shared across jobs, and the vectors known here."""

    def __init__(self, truth: GroundTruth, evaluators: tuple[str, ...], config: MatcherConfig,
                 store: SentenceEmbedder):
        self.truth = truth
        self.evaluators = evaluators
        self.store = store
        self.known = _KnownVectors(store)
        self.dumps = SharedDumps()
        self.matcher = SharingMatcher(config, embedder=self.known)

    def judge(self, job: Job) -> list[EpisodeResult] | _Waiting:
        """The job's rows, or what it waits for."""
        try:
            return _judge_job(job, self.truth, self.evaluators, self.matcher, self.dumps.state)
        except PendingEmbeddings as pending:
            return _Waiting(set(pending.texts) | self._collect(job))

    def _collect(self, job: Job) -> set[str]:
        from mobile_gym.matcher.tracker import evaluate_trace

        self.known.collecting = found = set()
        try:
            assert job.episode is not None
            annotation, trace = self.truth.annotation(job.episode), _load_trace(job, self.dumps.state)
            for unlike in (True, False):
                self.known.unlike = unlike
                evaluate_trace(annotation, trace, Matcher(self.matcher.config, embedder=self.known))
        except Exception:  # noqa: BLE001 - judging proper reports it; here only texts are wanted
            pass
        finally:
            self.known.collecting, self.known.unlike = None, True
        return found


def _judge_job(job: Job, truth: GroundTruth, evaluators: tuple[str, ...], matcher: Matcher,
               make_state: Callable[..., Any]) -> list[EpisodeResult]:
    """One job's rows, one per evaluator. Data errors (`MobileGymError`) become rows with
    the message in ``error``, as does any other `Exception` (``"unexpected <type>: ..."``,
    logged with its traceback); `PendingEmbeddings` and KeyboardInterrupt pass."""
    started = time.perf_counter()
    category: str | None = None
    annotation = trace = None
    load_error = job.error
    if job.episode is not None:
        category = truth.category(job.episode)
    if load_error is None:
        try:
            assert job.episode is not None
            annotation = truth.annotation(job.episode)
            trace = _load_trace(job, make_state)
        except Exception as exc:
            load_error = describe(exc, job.name)
    load_seconds = time.perf_counter() - started

    rows = []
    for evaluator in evaluators:
        row = EpisodeResult(episode=job.name, evaluator=evaluator, success=False, category=category,
                            steps=len(trace) if trace is not None else 0)
        if job.run is not None:
            row.task, row.agent, row.seed = job.run.task, job.run.agent, job.run.seed
            row.online, row.oracle = job.run.online, job.run.oracle
        t0 = time.perf_counter()
        if load_error is not None:
            row.error = load_error
        else:
            try:
                _judge_row(row, evaluator, annotation, trace, matcher, job.ended_by_success)
            except PendingEmbeddings:
                raise
            except Exception as exc:
                row.success, row.progress, row.matched, row.explanation = False, 0.0, "", ""
                row.error = describe(exc, f"{job.name}, {evaluator} evaluator")
        row.seconds = load_seconds + time.perf_counter() - t0
        rows.append(row)
    return rows


def describe(exc: Exception, where: str) -> str:
    """The error cell of a row, logged: a data error's message; anything else with its
    type (and its traceback in the log), since it is a bug or a corruption no reader
    foresaw. The log is a writer too: a name's lone surrogates reach it escaped."""
    if isinstance(exc, MobileGymError):
        logger.warning("episode %s: %s", printable(where), printable(exc))
        return str(exc)
    logger.warning("episode %s: unexpected %s", printable(where), type(exc).__name__, exc_info=exc)
    return f"unexpected {type(exc).__name__}: {exc}"


def _load_trace(job: Job, make_state: Callable[..., Any]):
    from mobile_gym.formats.agentenv import read_trace

    folder = job.trace
    if folder is None:
        raise FormatError(None, job.no_trace or f"episode {job.name} has no execution trace")
    if not folder.is_dir():
        raise FormatError(None, job.no_trace or f"no execution trace at {folder}")
    return read_trace(folder, root=job.root if job.root is not None else folder.parent, make_state=make_state)


def _judge_row(row: EpisodeResult, evaluator: str, annotation, trace, matcher: Matcher,
               ended_by_success: bool) -> None:
    if evaluator == "essential":
        from mobile_gym.matcher.tracker import evaluate_trace

        verdict = evaluate_trace(annotation, trace, matcher)
        row.success, row.progress = bool(verdict.success), float(verdict.progress)
        row.matched = format_matched(verdict.matched, verdict.route)
        row.explanation = "; ".join(verdict.explanations)
        return
    if annotation.ground_truth is None:
        raise FormatError(None, f"episode {annotation.episode}: the annotation has no ground-truth trace")
    result = BASELINES[evaluator](annotation.ground_truth, trace, ended_by_success=ended_by_success)
    row.success, row.progress = result.success, result.progress
    row.matched = format_matched(result.matched)
    row.explanation = result.explanation


# -- the plain path ---------------------------------------------------------------------------
def judge_plainly(jobs: Sequence[Job], truth: GroundTruth, evaluators: Sequence[str], matcher: Matcher,
                  progress: ProgressCallback | None = None) -> list[EpisodeResult]:
    """Each job in turn with `matcher` (its embedder called as the tracker asks, nothing
    shared between traces but what the matcher keeps): the reference the fast path is
    checked against, and the path for a caller's own `Matcher`."""
    from mobile_gym.trace import UIState

    evaluators = tuple(evaluators)
    results: list[EpisodeResult] = []
    for done, job in enumerate(jobs, start=1):
        rows = _judge_job(job, truth, evaluators, matcher, UIState)
        results.extend(rows)
        if progress is not None:
            progress(done, len(jobs), rows)
    return results


# -- the fast path ----------------------------------------------------------------------------
def judge(jobs: Sequence[Job], truth: GroundTruth, evaluators: Sequence[str], *,
          config: MatcherConfig | None = None, workers: int = 1, cache_dir: str | Path | None = None,
          embedder: SentenceEmbedder | None = None,
          progress: ProgressCallback | None = None) -> list[EpisodeResult]:
    """Rows for every job (in the order given), one per evaluator, judged in rounds (see
    the module docstring) in `workers` processes. `cache_dir` keeps vectors on disk across
    runs; `embedder` is the model to encode with (default: ``config.embedding_model``,
    loaded only if a text is missing; its `cache_dir` is then the cache)."""
    config = config or MatcherConfig()
    evaluators = tuple(evaluators)
    if embedder is None:
        embedder = SentenceEmbedder(config.embedding_model, cache_dir=cache_dir, batch_size=ENCODE_BATCH)
    cache_dir = embedder.cache_dir  # the workers read the cache the encoder writes
    order = sorted(range(len(jobs)), key=lambda i: (jobs[i].episode or "", i))  # a task's traces together
    rows: dict[int, list[EpisodeResult]] = {}
    asked: dict[int, set[str]] = defaultdict(set)  # job -> every text it waited for
    encoded: dict[str, np.ndarray] = {}  # by this call: sent with the jobs that wait for them

    def finished(i: int, got: list[EpisodeResult]) -> None:
        rows[i] = got
        if progress is not None:
            progress(len(rows), len(jobs), got)

    pool = _Pool(truth, evaluators, config, embedder, cache_dir, workers) if workers > 1 and len(jobs) > 1 \
        else _Serial(_Judge(truth, evaluators, config, embedder))
    # with workers, this process waits for them: a cache that is surely cold loads the model meanwhile
    early = isinstance(pool, _Pool) and _surely_cold(embedder) \
        and any(truth.may_need_embeddings(e) for e in {job.episode for job in jobs if job.episode is not None})
    try:
        todo = order
        for round_ in range(MAX_ROUNDS + 1):
            waiting: list[int] = []
            stuck = True  # every waiting job asks only for vectors it was sent
            work = [(i, jobs[i], {t: encoded[t] for t in asked[i] if t in encoded}) for i in todo]
            sent = {i: vectors.keys() for i, _, vectors in work}
            meanwhile = (lambda: _load_quietly(embedder)) if early and round_ == 0 else None
            for i, outcome in pool.judge(work, meanwhile):
                if isinstance(outcome, _Waiting):
                    stuck = stuck and outcome.texts <= sent[i]
                    asked[i] |= outcome.texts
                    if not embedder.loaded and len(embedder.lookup(outcome.texts)) < len(outcome.texts):
                        _load_quietly(embedder)  # now, while the workers judge the other traces
                    waiting.append(i)
                else:
                    finished(i, outcome)
            if not waiting:
                break
            texts = sorted(set().union(*(asked[i] for i in waiting)) - encoded.keys())
            failed = None
            if texts and not stuck and round_ < MAX_ROUNDS:
                try:
                    encoded.update(zip(texts, embedder.embed(texts)))  # one call: batched; kept on disk too
                except MobileGymError as exc:  # the model cannot load: each waiting trace says so
                    failed = exc
            if failed is not None or stuck or round_ == MAX_ROUNDS:
                if failed is None:
                    logger.warning("%d trace(s) still wait for embeddings after %d round(s); judging them "
                                   "one by one", len(waiting), round_ + 1)
                plain, dumps = Matcher(config, embedder=embedder), SharedDumps()
                for i in waiting:
                    finished(i, _judge_job(jobs[i], truth, evaluators, plain, dumps.state))
                break
            todo = waiting
    finally:
        pool.close()
    return [row for i in range(len(jobs)) for row in rows[i]]


def _surely_cold(embedder: SentenceEmbedder) -> bool:
    """Whether the embedder knows no vector at all (none in memory, an empty disk cache):
    then any text a verdict needs must be encoded."""
    if embedder.loaded or embedder.cached:
        return False
    return embedder.cache_dir is None or not embedder.disk.stored()  # type: ignore[union-attr]


def _load_quietly(embedder: SentenceEmbedder) -> None:
    """Load the model ahead of its first encode; if it cannot load, the encode says so."""
    try:
        embedder.load()
    except MobileGymError:
        pass


class _Serial:
    def __init__(self, judge_: _Judge):
        self.judge_ = judge_

    def judge(self, work: list[tuple[int, Job, dict[str, np.ndarray]]],
              meanwhile: Callable[[], None] | None = None) -> Iterator[tuple[int, Any]]:
        for i, job, vectors in work:
            if vectors:
                self.judge_.store.remember(vectors)
            yield i, self.judge_.judge(job)

    def close(self) -> None:
        pass


#: The judge of a worker process (made by its initializer).
_WORKER: _Judge | None = None


def _start_worker(truth: GroundTruth, evaluators: tuple[str, ...], config: MatcherConfig,
                  model: str | None, cache_dir: str | Path | None) -> None:
    global _WORKER
    _WORKER = _Judge(truth, evaluators, config, SentenceEmbedder(model, cache_dir=cache_dir))


def _judge_chunk(work: list[tuple[int, Job, dict[str, np.ndarray]]]) -> list[tuple[int, Any]]:
    assert _WORKER is not None
    return list(_Serial(_WORKER).judge(work))


class _Pool:
    """Worker processes, each with its own `_Judge` (forked where the platform can, so
    they start with this process's imports). Work goes in chunks of jobs in episode
    order; outcomes come back as chunks finish."""

    def __init__(self, truth: GroundTruth, evaluators: tuple[str, ...], config: MatcherConfig,
                 embedder: SentenceEmbedder, cache_dir: str | Path | None, workers: int):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        self.workers = workers
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=mp.get_context(method), initializer=_start_worker,
            initargs=(truth, evaluators, config, embedder.model_name, cache_dir),
        )

    def judge(self, work: list[tuple[int, Job, dict[str, np.ndarray]]],
              meanwhile: Callable[[], None] | None = None) -> Iterator[tuple[int, Any]]:
        """Outcomes as chunks finish; `meanwhile` runs here once the work is handed out."""
        from concurrent.futures import as_completed
        from concurrent.futures.process import BrokenProcessPool

        size = max(1, min(32, -(-len(work) // (4 * self.workers))))
        futures = [self.executor.submit(_judge_chunk, work[k : k + size]) for k in range(0, len(work), size)]
        if meanwhile is not None:
            meanwhile()
        try:
            for future in as_completed(futures):
                yield from future.result()
        except BrokenProcessPool as exc:
            raise MobileGymError(
                "a worker process judging traces died (out of memory, or killed); run again with --workers 1"
            ) from exc

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


__all__ = ["ENCODE_BATCH", "Job", "MAX_ROUNDS", "PendingEmbeddings", "ProgressCallback", "RunInfo", "judge", "judge_plainly"]
