"""One episode of one agent on one task, as a flat record for ``episodes.jsonl``."""

from __future__ import annotations

import importlib
import inspect
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import gymnasium as gym

from mobile_gym.actions import Action, ActionType
from mobile_gym.agents import AGENTS, Agent
from mobile_gym.errors import ConfigError, MobileGymError
from mobile_gym.tasks.definition import SimTask


AGENT_METHODS = ("reset", "act")  # what the runner calls on an agent


def resolve_agent(spec: str) -> Callable[..., Agent]:
    """The class (or factory) an agent spec names: a name of `AGENTS` or ``module:Class``.

    The current directory is put on ``sys.path`` (at the end, so it never shadows an
    installed package) before importing, as ``python -m`` would: the ``mobile-gym`` console
    script does not, and ``--agent my_agent:MyAgent`` should find ``./my_agent.py``."""
    if spec in AGENTS:
        return AGENTS[spec]
    module, _, name = spec.partition(":")
    if not module or not name:
        raise ConfigError(f"unknown agent {spec!r}: use {', '.join(AGENTS)} or module:Class")
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)
    try:
        factory = getattr(importlib.import_module(module), name)
    except Exception as e:  # noqa: BLE001 - importing user code can raise anything (SyntaxError, ...)
        raise ConfigError(f"cannot load agent {spec!r}: {type(e).__name__}: {e}") from None
    if not callable(factory):
        raise ConfigError(f"agent {spec!r} is a {type(factory).__name__}, not a class")
    if isinstance(factory, type):
        _check_interface(factory, spec)
    return factory


def _check_interface(obj: Any, spec: str) -> None:
    missing = [m for m in AGENT_METHODS if not callable(getattr(obj, m, None))]
    if missing:
        raise ConfigError(f"agent {spec!r} has no {' or '.join(f'{m}()' for m in missing)}: "
                             "implement mobile_gym.agents.Agent (reset(seed), act(observation, info))")


def load_agent(spec: str, task: SimTask, seed: int) -> Agent:
    """An agent by name (``oracle``, ``random``, ... see `AGENTS`) or import path (``package.module:Class``).
    A class whose constructor takes ``task`` gets the task; one taking ``seed`` the seed."""
    factory = resolve_agent(spec)
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or C type without a signature: pass nothing
        params = {}  # type: ignore[assignment]
    kwargs = {k: v for k, v in (("task", task), ("seed", seed)) if k in params}
    agent = factory(**kwargs)
    _check_interface(agent, spec)
    return agent


def check_agent(spec: str, task: SimTask, seed: int) -> None:
    """Build the agent once, for ``task`` and ``seed``, before a batch starts: a bad spec,
    a class without the `Agent` interface or a constructor that raises is one clear
    `ConfigError`, not the same error row for every episode."""
    try:
        load_agent(spec, task, seed)
    except MobileGymError:
        raise
    except Exception as e:  # noqa: BLE001 - the agent's constructor is user code
        raise ConfigError(f"cannot build agent {spec!r} (for {task.id}, seed {seed}): "
                             f"{type(e).__name__}: {e}") from e


def run_episode(task: SimTask, agent_spec: str, seed: int, *, env_kwargs: dict[str, Any] | None = None,
                trace_dir: Path | None = None) -> dict[str, Any]:
    """Run one episode; errors in the env or the agent become an ``error`` record."""
    record: dict[str, Any] = {
        "task": task.env_id, "agent": agent_spec, "seed": seed, "app": task.app_name,
        "category": task.category, "golden_steps": task.steps,
        "success": False, "oracle_success": False, "progress": 0.0, "steps": 0,
        "terminated_by": None, "false_finish": False, "success_step": None,
        "over_execution": False, "matched": {}, "error": None,
    }
    start = time.perf_counter()
    step_times: list[float] = []  # env.step alone
    act_times: list[float] = []  # agent.act alone: the model's latency, what agent builders tune
    try:
        env = gym.make(task.env_id, **(env_kwargs or {}))
        if trace_dir is not None:
            from mobile_gym.wrappers import RecordTrace

            env = RecordTrace(env)
        agent = load_agent(agent_spec, task, seed)
        obs, info = env.reset(seed=seed)
        agent.reset(seed)
        while True:
            t0 = time.perf_counter()
            action = agent.act(obs, info)
            act_times.append(time.perf_counter() - t0)
            if isinstance(action, Mapping):  # a sample of the env's Dict action space
                action = Action.from_gym(action)
            t0 = time.perf_counter()
            obs, _, terminated, truncated, info = env.step(action)
            step_times.append(time.perf_counter() - t0)
            if action.action_type is ActionType.COMPLETE and not info["success"]:
                record["false_finish"] = True
            if info["success"] and record["success_step"] is None:
                record["success_step"] = info["steps"]
            elif record["success_step"] is not None and not action.ends_episode:
                record["over_execution"] = True  # kept acting after success
            if terminated or truncated:
                break
        record.update(
            success=info["success"], oracle_success=info["oracle_success"], progress=info["progress"],
            steps=info["steps"], matched={str(k): v for k, v in info["matched"].items()},
            terminated_by=info["terminated_by"] or ("step_limit" if truncated else None),
        )
        usage = getattr(agent, "usage", None)
        if isinstance(usage, dict):
            record["tokens"] = usage.get("tokens")
            record["cost"] = usage.get("cost")
        if trace_dir is not None:
            from mobile_gym.formats.agentenv import write_trace

            write_trace(trace_dir, env.trace)
        env.close()
    except Exception as e:  # noqa: BLE001 - a broken env or agent costs one episode, not the run
        record["error"] = {"kind": type(e).__name__, "message": str(e)}
    record["wall_time"] = time.perf_counter() - start
    record["step_latency"] = sum(step_times) / len(step_times) if step_times else None
    record["act_latency"] = sum(act_times) / len(act_times) if act_times else None
    return record
