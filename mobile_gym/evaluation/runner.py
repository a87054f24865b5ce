"""Judge a folder of recorded execution traces against a LlamaTouch dataset.

One row per episode and evaluator. Bad data (a missing trace, a truncated screenshot,
an annotation that refers to nothing) turns into an error row naming the file, and the
batch goes on: one corrupt episode must not cost a 495-task run. So does any other
exception an episode raises (a corruption no reader foresaw, or a bug): its row names
the exception's type and the traceback is logged. KeyboardInterrupt and SystemExit are
not caught.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from mobile_gym.errors import FormatError, MobileGymError
from mobile_gym.evaluation.baselines import BASELINES
from mobile_gym.evaluation.report import EpisodeResult, format_matched

if TYPE_CHECKING:
    from mobile_gym.formats.llamatouch import GroundTruthDataset
    from mobile_gym.matcher import Matcher
    from mobile_gym.matcher.annotation import Annotation
    from mobile_gym.trace import Trace

logger = logging.getLogger(__name__)

#: "essential": LlamaTouch's essential-state matcher; "action": step-wise AITW action
#: match; "lcs": AndroidArena's subsequence action match.
EVALUATORS = ("essential", "action", "lcs")

#: Called after each episode with (episodes done, episodes in total, that episode's rows).
ProgressCallback = Callable[[int, int, list[EpisodeResult]], None]


def evaluate_dataset(
    dataset: GroundTruthDataset,
    traces_root: str | Path,
    *,
    evaluators: Sequence[str] = ("essential",),
    episodes: Iterable[str] | None = None,
    matcher: Matcher | None = None,
    progress_callback: ProgressCallback | None = None,
) -> list[EpisodeResult]:
    """Evaluate the execution trace ``traces_root/<episode>`` (AgentEnv layout) of each
    episode of `dataset` (in dataset order, or the given `episodes` in their order) with
    each of `evaluators`.

    The annotation and trace of an episode are loaded once and shared by the
    evaluators. One `Matcher` serves the whole batch, so the embedding model loads at
    most once. Errors of the data (`MobileGymError`) become rows with ``success=False``
    and the message in ``error``, as does any other `Exception` (``"unexpected
    <type>: ..."``); an unknown evaluator name is a ValueError up front.
    """
    evaluators = tuple(dict.fromkeys(evaluators))
    unknown = [e for e in evaluators if e not in EVALUATORS]
    if unknown or not evaluators:
        raise ValueError(
            f"unknown evaluator(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
            f"choose from {', '.join(EVALUATORS)}"
        )
    if "essential" in evaluators and matcher is None:
        from mobile_gym.matcher import Matcher

        matcher = Matcher()
    wanted = list(dict.fromkeys(episodes)) if episodes is not None else list(dataset.episodes())
    root = Path(traces_root)
    results: list[EpisodeResult] = []
    for done, episode in enumerate(wanted, start=1):
        rows = _evaluate_episode(dataset, root, episode, evaluators, matcher)
        results.extend(rows)
        if progress_callback is not None:
            progress_callback(done, len(wanted), rows)
    return results


def _evaluate_episode(
    dataset: GroundTruthDataset,
    root: Path,
    episode: str,
    evaluators: tuple[str, ...],
    matcher: Matcher | None,
) -> list[EpisodeResult]:
    started = time.perf_counter()
    try:
        category: str | None = dataset.category(episode)
    except MobileGymError:
        category = None
    annotation: Annotation | None = None
    trace: Trace | None = None
    load_error: str | None = None
    try:
        annotation = dataset.load(episode)
        trace = _load_trace(root, episode)
    except Exception as exc:
        load_error = _describe(exc, episode)
    load_seconds = time.perf_counter() - started

    rows = []
    for evaluator in evaluators:
        row = EpisodeResult(
            episode=episode,
            evaluator=evaluator,
            success=False,
            category=category,
            steps=len(trace) if trace is not None else 0,
        )
        t0 = time.perf_counter()
        if load_error is not None:
            row.error = load_error
        else:
            assert annotation is not None and trace is not None
            try:
                _judge(row, evaluator, annotation, trace, matcher)
            except Exception as exc:
                row.success, row.progress, row.matched, row.explanation = False, 0.0, "", ""
                row.error = _describe(exc, f"{episode}, {evaluator} evaluator")
        row.seconds = load_seconds + time.perf_counter() - t0
        rows.append(row)
    return rows


def _describe(exc: Exception, where: str) -> str:
    """The error cell of a row, logged: a data error's message; anything else with its
    type (and its traceback in the log), since it is a bug or a corruption no reader
    foresaw."""
    if isinstance(exc, MobileGymError):
        logger.warning("episode %s: %s", where, exc)
        return str(exc)
    logger.warning("episode %s: unexpected %s", where, type(exc).__name__, exc_info=exc)
    return f"unexpected {type(exc).__name__}: {exc}"


def _load_trace(root: Path, episode: str) -> Trace:
    from mobile_gym.formats.agentenv import episode_folder, read_trace

    folder = episode_folder(root, episode)
    if not folder.is_dir():
        raise FormatError(None, f"no execution trace at {folder}")
    return read_trace(folder, root=root)


def _judge(
    row: EpisodeResult, evaluator: str, annotation: Annotation, trace: Trace, matcher: Matcher | None
) -> None:
    if evaluator == "essential":
        from mobile_gym.matcher import evaluate_trace

        assert matcher is not None
        verdict = evaluate_trace(annotation, trace, matcher)
        row.success, row.progress = bool(verdict.success), float(verdict.progress)
        row.matched = format_matched(verdict.matched)
        row.explanation = "; ".join(verdict.explanations)
        return
    if annotation.ground_truth is None:
        raise FormatError(None, f"episode {annotation.episode}: the annotation has no ground-truth trace")
    result = BASELINES[evaluator](annotation.ground_truth, trace)
    row.success, row.progress = result.success, result.progress
    row.matched = format_matched(result.matched)
    row.explanation = result.explanation


__all__ = ["EVALUATORS", "ProgressCallback", "evaluate_dataset"]
