"""The simulator task suite: every task file under ``tasks/sim/``, by id."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from mobile_gym.errors import TaskError, UnknownTaskError
from mobile_gym.tasks.definition import SimTask, read_tasks


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
