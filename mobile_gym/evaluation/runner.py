"""Judge a folder of recorded execution traces against a LlamaTouch dataset (and, in
``run.py``, the traces of a ``mobile-gym run``).

One row per episode and evaluator. Bad data (a missing trace, a truncated screenshot,
an annotation that refers to nothing) turns into an error row naming the file, and the
batch goes on: one corrupt episode must not cost a 495-task run. So does any other
exception an episode raises (a corruption no reader foresaw, or a bug): its row names
the exception's type and the traceback is logged. KeyboardInterrupt and SystemExit are
not caught.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from mobile_gym.errors import MobileGymError
from mobile_gym.evaluation.engine import Job, ProgressCallback, judge, judge_plainly
from mobile_gym.evaluation.ground_truth import DatasetTruth
from mobile_gym.evaluation.report import EpisodeResult

if TYPE_CHECKING:
    from mobile_gym.formats.llamatouch import GroundTruthDataset
    from mobile_gym.matcher import Matcher, MatcherConfig

logger = logging.getLogger(__name__)

#: "essential": LlamaTouch's essential-state matcher; "action": step-wise AITW action
#: match; "lcs": AndroidArena's subsequence action match.
EVALUATORS = ("essential", "action", "lcs")


def evaluate_dataset(
    dataset: GroundTruthDataset,
    traces_root: str | Path,
    *,
    evaluators: Sequence[str] = ("essential",),
    episodes: Iterable[str] | None = None,
    matcher: Matcher | None = None,
    config: MatcherConfig | None = None,
    workers: int = 1,
    embedding_cache: str | Path | None = None,
    progress_callback: ProgressCallback | None = None,
) -> list[EpisodeResult]:
    """Evaluate the execution trace ``traces_root/<episode>`` (AgentEnv layout) of each
    episode of `dataset` (in dataset order, or the given `episodes` in their order) with
    each of `evaluators`.

    The annotation and trace of an episode are loaded once and shared by the
    evaluators. Errors of the data (`MobileGymError`) become rows with ``success=False``
    and the message in ``error``, as does any other `Exception` (``"unexpected
    <type>: ..."``); an unknown evaluator name is a ValueError up front.

    Without a `matcher`, traces are judged by the batch engine (`engine.judge`): texts
    encoded in batches, vectors kept in `embedding_cache` across runs, identical screens
    judged once, `workers` processes; `config` sets thresholds and the model. With a
    `matcher`, each trace is judged in turn by it (`engine.judge_plainly`).
    """
    evaluators = check_evaluators(evaluators)
    wanted = list(dict.fromkeys(episodes)) if episodes is not None else list(dataset.episodes())
    root = Path(traces_root)
    jobs = [_dataset_job(root, episode) for episode in wanted]
    truth = DatasetTruth(dataset)
    if matcher is not None:
        return judge_plainly(jobs, truth, evaluators, matcher, progress_callback)
    return judge(jobs, truth, evaluators, config=config, workers=workers, cache_dir=embedding_cache,
                 progress=progress_callback)


def check_evaluators(evaluators: Sequence[str]) -> tuple[str, ...]:
    """The evaluators asked for, once each, in order; an unknown one is a ValueError."""
    chosen = tuple(dict.fromkeys(evaluators))
    unknown = [e for e in chosen if e not in EVALUATORS]
    if unknown or not chosen:
        raise ValueError(
            f"unknown evaluator(s) {', '.join(map(repr, unknown)) or '(none given)'}; "
            f"choose from {', '.join(EVALUATORS)}"
        )
    return chosen


def _dataset_job(root: Path, episode: str) -> Job:
    from mobile_gym.formats.agentenv import episode_folder

    try:
        return Job(name=episode, episode=episode, trace=episode_folder(root, episode), root=root)
    except MobileGymError as exc:
        return Job(name=episode, episode=episode, trace=None, root=root, no_trace=str(exc))


__all__ = ["EVALUATORS", "ProgressCallback", "check_evaluators", "evaluate_dataset"]
