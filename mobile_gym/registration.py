"""Registering every task as a Gymnasium env, ``LlamaTouch/<id>-v0``.

`register_envs` is the one place ids are made: it runs on ``import mobile_gym`` and is
also declared as a ``gymnasium.envs`` entry point. All 495 LlamaTouch tasks are
registered; those without a simulator definition fail at ``make`` (no backend runs them
yet). Each env's step limit is `default_step_limit` of `golden_steps`, read from task
metadata: registering replays nothing. Bump the version when a task's reward or
termination changes.
"""

from __future__ import annotations

import gymnasium as gym

ENTRY_POINT = "mobile_gym.env:make_env"
#: Outermost on every env made by id: a step after the episode ended (terminated, or
#: truncated by the step limit's `TimeLimit`) raises instead of going on.
WRAPPERS = (gym.envs.registration.WrapperSpec(
    "EndOfEpisodeEnforcing", "mobile_gym.wrappers.end_of_episode:EndOfEpisodeEnforcing", {}),)


def default_step_limit(golden_steps: int) -> int:
    """Three times the golden path plus a margin: room for detours and popups."""
    return 3 * golden_steps + 5


def golden_steps() -> dict[str, int]:
    """Actions on each task's golden path, by task id: the simulator's own (declared in
    ``tasks/sim``, checked on replay) where it defines the task, since that is the path
    the limit must leave room for; LlamaTouch's count for the rest."""
    from mobile_gym.tasks.catalogue import llamatouch_catalogue
    from mobile_gym.tasks.suite import simulator_tasks

    steps = {task.id: task.steps for task in llamatouch_catalogue().values()}
    steps.update((task.id, task.steps) for task in simulator_tasks().values())
    return steps


def register_envs() -> None:
    """Register every task once (calling it again changes nothing)."""
    from mobile_gym.tasks.catalogue import env_id

    for task, n in golden_steps().items():
        if env_id(task) not in gym.registry:
            gym.register(env_id(task), entry_point=ENTRY_POINT, max_episode_steps=default_step_limit(n),
                         kwargs={"task": task}, additional_wrappers=WRAPPERS)
