"""Writing simulator tasks as a LlamaTouch ground-truth dataset (format A), so that
LlamaTouch's own tools, and ours, read them like the original dataset: each screen's
``i.png`` (device resolution), ``i.xml``, ``i.vh`` (droidbot JSON, for LlamaTouch's
``fuzzy<-1>``), ``i.activity`` and ``i.json``, whose clicked components all carry an
xpath that LlamaTouch's evaluator can run on the raw dump (`write_ground_truth`)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from mobile_gym.formats.llamatouch import METADATA_FILE, write_ground_truth
from mobile_gym.formats.metadata import TaskMetadata, write_metadata
from mobile_gym.tasks.definition import SimTask


def dataset_path(task: SimTask) -> str:
    """Where a task's trace goes: LlamaTouch's own path for its tasks, else sim/<id>."""
    from mobile_gym.tasks.catalogue import llamatouch_catalogue

    entry = llamatouch_catalogue().get(task.id)
    return entry.path if entry is not None and entry.episode == task.episode else f"sim/{task.id}"


def export_dataset(root: str | Path, tasks: Iterable[SimTask]) -> list[TaskMetadata]:
    """Write each task's ground-truth trace, screens and annotations under ``root`` and
    the metadata TSV beside them; returns the metadata rows."""
    root = Path(root)
    rows = []
    for task in tasks:
        trace, starts = task.replay_ground_truth()  # with every screenshot
        annotation = task.annotation
        screens = {starts[spec.at]: cp for spec, cp in zip(task.checkpoints, annotation.checkpoints)}
        path = dataset_path(task)
        write_ground_truth(
            root / path, trace, {i: cp.primitives for i, cp in screens.items()},
            episode=task.episode or task.id, instruction=task.instruction,
            components={i: cp.screen.components for i, cp in screens.items()},
        )
        rows.append(TaskMetadata(episode=task.episode or task.id, category=task.category, path=path,
                                 description=task.instruction, nsteps=len(trace) - 1, app=task.app_name))
    write_metadata(root / METADATA_FILE, rows)
    return rows
