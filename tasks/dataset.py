"""LlamaTouch tasks judged by a ground-truth dataset: what a phone runs.

A real phone or emulator can run any of LlamaTouch's 495 tasks, but only 30 have a
simulator definition with its own annotation. For the others (and for those, when the
user asks) the instruction and the essential states come from LlamaTouch's dataset
(format A, `GroundTruthDataset`), found by the catalogue's episode id. Such a task
starts where LlamaTouch's AgentEnv starts one: the phone's home screen, the task's
apps stopped. It has no oracle (nothing reads a phone's app state), so the env's
``info["oracle_success"]`` is None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from mobile_gym.errors import AnnotationError, ConfigError, MobileGymError
from mobile_gym.matcher.annotation import Annotation
from mobile_gym.tasks.catalogue import CatalogueTask, app_name, env_id


@dataclass(frozen=True)
class DatasetTask:
    """A catalogue task with its annotation read from a dataset."""

    id: str
    instruction: str
    app: str  # the first app the task uses, as LlamaTouch names it
    category: str
    steps: int  # actions on LlamaTouch's golden path
    episode: str
    annotation: Annotation = field(repr=False, compare=False)
    dataset: Path = field(compare=False)
    apps: tuple[str, ...] = ()  # every app the task uses, as LlamaTouch names them
    setup: Mapping[str, Any] = field(default_factory=dict)  # none: the home screen
    backends: tuple[str, ...] = ("device",)

    @property
    def env_id(self) -> str:
        return env_id(self.id)

    @property
    def app_name(self) -> str:
        return app_name(self.app)

    @property
    def packages(self) -> frozenset[str]:
        """The packages of the task's apps (stopped at reset); names the app table does
        not know are left out."""
        from mobile_gym.matcher.apps import AppRegistry

        registry = AppRegistry.bundled()
        found: set[str] = set()
        for name in self.apps:
            try:
                found |= registry.packages(name)
            except AnnotationError:
                continue
        return frozenset(found)

    def succeeded(self, device: Any) -> None:
        """No oracle: a phone's app state is not readable."""
        return None


def dataset_task(task: CatalogueTask, dataset: str | Path) -> DatasetTask:
    """``task`` with its annotation and instruction from the dataset at ``dataset``;
    read once per process and dataset."""
    return _load(task, Path(dataset).resolve())


@lru_cache(maxsize=512)
def _load(task: CatalogueTask, root: Path) -> DatasetTask:
    try:
        annotation = open_dataset(root).load(task.episode)
    except MobileGymError as exc:
        raise ConfigError(f"task {task.id!r} (LlamaTouch episode {task.episode}) cannot be read from the "
                          f"dataset at {root}: {exc}") from exc
    return DatasetTask(id=task.id, instruction=annotation.instruction or task.instruction, app=task.apps[0],
                       category=task.category, steps=task.steps, episode=task.episode, annotation=annotation,
                       dataset=root, apps=task.apps)


@lru_cache(maxsize=8)
def open_dataset(root: str | Path):
    """The `GroundTruthDataset` at ``root``, its index scanned once per process (a full
    dataset has 495 trace folders)."""
    from mobile_gym.formats.llamatouch import GroundTruthDataset

    return GroundTruthDataset(root)
