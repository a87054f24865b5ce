"""The simulator task suite: every task file under ``tasks/sim/``, by id."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from difflib import get_close_matches
from fnmatch import fnmatchcase
from functools import lru_cache
from importlib import resources
from typing import TypeVar

from mobile_gym.errors import TaskError, UnknownTaskError
from mobile_gym.tasks.definition import SimTask, read_tasks

T = TypeVar("T")


@lru_cache(maxsize=1)
def simulator_tasks() -> dict[str, SimTask]:
    """All shipped simulator tasks (golden paths are replayed on first use)."""
    tasks: dict[str, SimTask] = {}
    folder = resources.files(__package__) / "sim"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yaml"):
            continue
        with resources.as_file(entry) as path:
            for task in read_tasks(path):
                if task.id in tasks:
                    raise TaskError(path, f"task {task.id!r} is also defined in {tasks[task.id].source}")
                tasks[task.id] = task
    return tasks


def shipped_task(task_id: str) -> SimTask:
    """The shipped task with this id: what a pickled shipped task unpickles to."""
    try:
        return simulator_tasks()[task_id]
    except KeyError:
        raise UnknownTaskError(f"no simulator task {task_id!r} in this version of mobile_gym") from None


def select_simulator_tasks(patterns: Sequence[str] | None = None) -> list[SimTask]:
    """The simulator tasks some names stand for (all when none), in the order named:
    task ids, env ids (``LlamaTouch/<id>-v0``) or fnmatch patterns of either. A name that
    matches nothing is an `UnknownTaskError` that suggests the closest names."""
    return select_tasks(patterns, simulator_tasks(), "simulator task", "see `mobile-gym tasks --backend sim`")


def select_tasks(patterns: Sequence[str] | str | None, tasks: Mapping[str, T], kind: str = "task",
                 listing: str = "see `mobile-gym tasks`") -> list[T]:
    """The ``tasks`` (by id, each with an ``env_id``) some names stand for, as
    `select_simulator_tasks` picks them; ``kind`` and ``listing`` word the error."""
    chosen: dict[str, None] = {}
    for pattern in [patterns] if isinstance(patterns, str) else patterns or ["*"]:
        hits = [t for t, task in tasks.items() if fnmatchcase(t, pattern) or fnmatchcase(task.env_id, pattern)]
        if not hits:
            names = ([t.env_id for t in tasks.values()] if "/" in pattern
                     else [*tasks, *sorted({t.split("-")[0] + "-*" for t in tasks})])
            close = get_close_matches(pattern, names, n=5)
            hint = f"; close matches: {', '.join(close)}" if close else ""
            raise UnknownTaskError(f"no {kind} {pattern}{hint} ({listing})")
        chosen.update(dict.fromkeys(hits))
    return [tasks[t] for t in chosen]
