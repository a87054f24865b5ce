"""Writing simulator tasks as a LlamaTouch ground-truth dataset (format A), so that
LlamaTouch's own tools, and ours, read them like the original dataset: each screen's
``i.png`` (device resolution), ``i.xml``, ``i.vh`` (droidbot JSON, for LlamaTouch's
``fuzzy<-1>``), ``i.activity`` and ``i.json``, whose clicked components all carry an
xpath that LlamaTouch's evaluator can run on the raw dump (`write_ground_truth`); a
task's alternative routes go to the trace folder's ``alternatives/<r>/``. An ENTER is the
tap on the simulated keyboard's Enter key, where the replay's phone draws it."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from mobile_gym.actions import Point
from mobile_gym.formats.llamatouch import ALTERNATIVES_DIR, METADATA_FILE, write_ground_truth
from mobile_gym.formats.metadata import TaskMetadata, write_metadata
from mobile_gym.simulator import SimulatedDevice
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
    key = enter_key()
    for task in tasks:
        path = dataset_path(task)
        annotation = task.annotation
        for r, (golden, route) in enumerate(zip(task.routes, [annotation, *annotation.alternatives])):
            trace, starts = task.replay_ground_truth(route=r)  # with every screenshot
            screens = {starts[spec.at]: cp for spec, cp in zip(golden.checkpoints, route.checkpoints)}
            write_ground_truth(
                root / path / (f"{ALTERNATIVES_DIR}/{r}" if r else ""), trace,
                {i: cp.primitives for i, cp in screens.items()},
                episode=task.episode or task.id, instruction=task.instruction,
                components={i: cp.screen.components for i, cp in screens.items()},
                enter_key=key,
            )
        rows.append(TaskMetadata(episode=task.episode or task.id, category=task.category, path=path,
                                 description=task.instruction, nsteps=task.steps, app=task.app_name))
    write_metadata(root / METADATA_FILE, rows)
    return rows


def enter_key() -> Point:
    """Where the phone replays run on (`SimTask.device`'s: the default profile) draws its
    keyboard's Enter key: an ENTER on a screen without the keyboard is a tap there."""
    phone = SimulatedDevice()
    try:
        return phone.enter_key()
    finally:
        phone.close()
