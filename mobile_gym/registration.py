"""Registering every task as a Gymnasium env, ``LlamaTouch/<id>-v0``.

`register_envs` is the one place ids are made: it runs on ``import mobile_gym`` and is
also declared as a ``gymnasium.envs`` entry point. All 495 LlamaTouch tasks are
registered; those without a simulator definition fail at ``make`` with a message naming
the backends that can run them. Bump the version when a task's reward or termination
changes.
"""

from __future__ import annotations

import gymnasium as gym

ENTRY_POINT = "mobile_gym.env:MobileEnv"


def default_step_limit(golden_steps: int) -> int:
    """Three times the golden path plus a margin: room for detours and popups."""
    return 3 * golden_steps + 5


def register_envs() -> None:
    """Register every task once (calling it again changes nothing)."""
    from mobile_gym.tasks.catalogue import env_id, llamatouch_catalogue
    from mobile_gym.tasks.suite import simulator_tasks

    steps = {task.id: task.steps for task in llamatouch_catalogue().values()}
    for task in simulator_tasks().values():
        steps.setdefault(task.id, len(task.golden_path))
    for task, n in steps.items():
        if env_id(task) not in gym.registry:
            gym.register(env_id(task), entry_point=ENTRY_POINT, max_episode_steps=default_step_limit(n),
                         kwargs={"task": task})
