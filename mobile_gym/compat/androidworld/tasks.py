"""Our tasks as AndroidWorld ``TaskEval`` classes, and a registry in AndroidWorld's shape.

AndroidWorld's suite code takes a registry (task name -> `TaskEval` subclass), makes
instances with ``suite_utils.create_suite(registry, n_task_combinations, seed)`` and runs
them with ``suite_utils.run(suite, agent)``: ``initialize_task(env)``, an episode of at
most ``int(10 * complexity)`` agent steps, ``is_successful(env)``, ``tear_down(env)``.
`task_registry` makes one class per simulator task, named by its id in CamelCase
(``settings-turn-off-wifi`` -> ``SettingsTurnOffWifi``):

- ``goal``: the task's instruction, word for word (LlamaTouch's);
- ``params``: ``{"seed": ...}``, the seed of the episode's phone (its dynamics: popups,
  loading screens, feeds); our tasks have no other parameters yet;
- ``complexity``: a tenth of the step budget, which is twice the golden path plus the
  final ``status`` step, at least 10 (AndroidWorld's smallest);
- ``start_on_home_screen``: False for a task whose phone starts inside its app (the
  harness would otherwise press Home on it);
- ``initialize_task``: the env starts the task's episode (`AndroidWorldEnv.start_task`);
- ``is_successful``: the essential-state matcher's verdict on the episode, 1.0 or 0.0
  (AndroidWorld counts it only if the agent said the task is complete).

The classes are this module's attributes by name, so AndroidWorld's checkpointer can
pickle their instances.
"""

from __future__ import annotations

import fnmatch
import random
import re
from functools import lru_cache
from typing import Any, ClassVar, Iterable

from mobile_gym.compat.androidworld.interface import TaskEval
from mobile_gym.errors import ConfigError, UnknownTaskError

#: The fewest steps AndroidWorld gives a task (complexity 1).
MIN_BUDGET = 10


class LlamaTouchTask(TaskEval):
    """The base of the classes `task_registry` makes, one per simulator task."""

    task_id: ClassVar[str] = ""
    instruction: ClassVar[str] = ""
    complexity: ClassVar[float] = 1.0  # type: ignore[misc]
    app_names: ClassVar[tuple[str, ...]] = ()  # type: ignore[misc]
    schema: ClassVar[dict[str, Any]] = {  # type: ignore[misc]
        "type": "object", "properties": {"seed": {"type": ["integer", "null"]}}}

    @classmethod
    def generate_random_params(cls) -> dict[str, Any]:
        """A seed for the episode's phone, from Python's ``random`` (which the suite seeds)."""
        return {"seed": random.randrange(2**31)}

    @property
    def goal(self) -> str:
        return self.instruction

    def initialize_task(self, env: Any) -> None:
        if self.initialized:
            raise RuntimeError(f"{self.name}.initialize_task() is already called.")
        if not hasattr(env, "start_task"):
            raise ConfigError(f"{self.name} runs on mobile_gym's AndroidWorldEnv "
                              f"(mobile_gym.compat.androidworld), not on {type(env).__name__}")
        seed = self.params.get("seed")
        env.start_task(self.task_id, seed=seed)
        self.initialized = True
        if seed is not None:  # as AndroidWorld's tasks do: what the agent draws from random repeats too
            random.seed(seed)

    def is_successful(self, env: Any) -> float:
        self._check_is_initialized()
        return 1.0 if env.task_success(self.task_id) else 0.0

    def tear_down(self, env: Any) -> None:
        self.initialized = False


def class_name(task_id: str) -> str:
    """``settings-turn-off-wifi`` -> ``SettingsTurnOffWifi``: a task's AndroidWorld name."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", task_id) if part)


@lru_cache(maxsize=None)
def _names() -> dict[str, str]:
    """AndroidWorld name -> task id, for every simulator task."""
    from mobile_gym.tasks.suite import simulator_tasks

    names: dict[str, str] = {}
    for task_id in sorted(simulator_tasks()):
        name = class_name(task_id)
        if name in names:  # two ids spelled alike: never expected, never silent
            raise ConfigError(f"tasks {names[name]!r} and {task_id!r} both become {name!r}")
        names[name] = task_id
    return names


@lru_cache(maxsize=None)
def task_class(task_id: str) -> type[LlamaTouchTask]:
    """The `TaskEval` class of a simulator task (made once)."""
    from mobile_gym.app_names import launcher_label
    from mobile_gym.simulator.apps import resolve_package
    from mobile_gym.tasks.suite import simulator_tasks

    task = simulator_tasks().get(task_id)
    if task is None:
        raise UnknownTaskError(f"unknown simulator task {task_id!r}; `mobile-gym tasks --backend sim` lists them")
    budget = max(MIN_BUDGET, 2 * (len(task.golden_path) + 1))
    package = resolve_package(task.app)
    name = class_name(task_id)
    return type(name, (LlamaTouchTask,), {
        "__module__": __name__, "__qualname__": name, "__doc__": f"{task.instruction} (LlamaTouch task {task_id})",
        "task_id": task_id, "instruction": task.instruction, "complexity": budget / 10,
        "app_names": (launcher_label(package) or task.app,),
        "start_on_home_screen": not task.setup.get("launch"),
        "template": task.instruction.replace("{", "{{").replace("}", "}}"),
    })


def task_registry(tasks: str | Iterable[str] = "*") -> dict[str, type[LlamaTouchTask]]:
    """Our simulator tasks in AndroidWorld's registry shape (name -> `TaskEval` class),
    sorted by name: ``tasks`` is a pattern of task ids (``"*"``, ``"clock-*"``) or a list
    of ids and patterns; a pattern that matches nothing is an `UnknownTaskError`."""
    patterns = [tasks] if isinstance(tasks, str) else list(tasks)
    ids = sorted(_names().values())
    chosen: set[str] = set()
    for pattern in patterns:
        found = fnmatch.filter(ids, str(pattern))
        if not found:
            raise UnknownTaskError(f"no simulator task matches {pattern!r}; `mobile-gym tasks --backend sim` lists them")
        chosen.update(found)
    return {class_name(task_id): task_class(task_id) for task_id in sorted(chosen, key=class_name)}


def __getattr__(name: str) -> type[LlamaTouchTask]:
    """A task's class by its AndroidWorld name (how pickle finds it)."""
    task_id = _names().get(name)
    if task_id is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return task_class(task_id)
