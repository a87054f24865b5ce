"""One episode of one agent on one task, as a flat record for ``episodes.jsonl``."""

from __future__ import annotations

import importlib
import inspect
import time
from pathlib import Path
from typing import Any

import gymnasium as gym

from mobile_gym.actions import ActionType
from mobile_gym.agents import AGENTS, Agent
from mobile_gym.errors import MobileGymError
from mobile_gym.tasks.definition import SimTask


def load_agent(spec: str, task: SimTask, seed: int) -> Agent:
    """An agent by name (``oracle``, ``random``, ... see `AGENTS`) or import path (``package.module:Class``).
    A class whose constructor takes ``task`` gets the task; one taking ``seed`` the seed."""
    if spec in AGENTS:
        cls = AGENTS[spec]
    else:
        module, _, name = spec.partition(":")
        if not module or not name:
            raise MobileGymError(f"unknown agent {spec!r}: use {', '.join(AGENTS)} or module:Class")
        try:
            cls = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as e:
            raise MobileGymError(f"cannot load agent {spec!r}: {e}") from None
    params = inspect.signature(cls).parameters
    kwargs = {k: v for k, v in (("task", task), ("seed", seed)) if k in params}
    agent = cls(**kwargs)
    if not isinstance(agent, Agent) and not callable(getattr(agent, "act", None)):
        raise MobileGymError(f"agent {spec!r} has no act(observation, info) method")
    return agent


def run_episode(task: SimTask, agent_spec: str, seed: int, *, env_kwargs: dict[str, Any] | None = None,
                trace_dir: Path | None = None) -> dict[str, Any]:
    """Run one episode; errors in the env or the agent become an ``error`` record."""
    record: dict[str, Any] = {
        "task": task.env_id, "agent": agent_spec, "seed": seed, "app": task.app,
        "category": task.category, "golden_steps": task.steps,
        "success": False, "oracle_success": False, "progress": 0.0, "steps": 0,
        "terminated_by": None, "false_finish": False, "success_step": None,
        "over_execution": False, "matched": {}, "error": None,
    }
    start = time.perf_counter()
    step_times: list[float] = []
    try:
        env = gym.make(task.env_id, **(env_kwargs or {}))
        if trace_dir is not None:
            from mobile_gym.wrappers import RecordTrace

            env = RecordTrace(env)
        agent = load_agent(agent_spec, task, seed)
        obs, info = env.reset(seed=seed)
        agent.reset(seed)
        while True:
            action = agent.act(obs, info)
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
    return record
