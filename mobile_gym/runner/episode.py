"""One episode of one agent on one task, as a flat record for ``episodes.jsonl``."""

from __future__ import annotations

import importlib
import inspect
import json
import math
import numbers
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import gymnasium as gym

from mobile_gym.actions import Action, ActionType
from mobile_gym.agents import AGENTS, Agent
from mobile_gym.errors import ConfigError, MobileGymError, StorageError
from mobile_gym.report_text import clipped
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


def load_agent(spec: str, task: SimTask, seed: int, options: Mapping[str, Any] | None = None) -> Agent:
    """An agent by name (``oracle``, ``random``, ... see `AGENTS`) or import path (``package.module:Class``).
    A class whose constructor takes ``task`` gets the task; one taking ``seed`` the seed;
    ``options`` (e.g. an LLM agent's ``model`` and ``base_url``) go to the constructor as
    they are, and one it does not take is a `ConfigError`."""
    factory = resolve_agent(spec)
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or C type without a signature: pass nothing
        params = {}  # type: ignore[assignment]
    kwargs = {k: v for k, v in (("task", task), ("seed", seed)) if k in params}
    options = dict(options or {})
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    refused = [k for k in options if k not in params and not takes_any]
    if refused:
        raise ConfigError(f"agent {spec!r} takes no option {', '.join(map(repr, refused))}")
    agent = factory(**kwargs, **options)
    _check_interface(agent, spec)
    return agent


def check_agent(spec: str, task: SimTask, seed: int, options: Mapping[str, Any] | None = None) -> None:
    """Build the agent once, for ``task`` and ``seed``, before a batch starts: a bad spec,
    a class without the `Agent` interface or a constructor that raises is one clear
    `ConfigError`, not the same error row for every episode."""
    try:
        load_agent(spec, task, seed, options)
    except MobileGymError:
        raise
    except Exception as e:  # noqa: BLE001 - the agent's constructor is user code
        raise ConfigError(f"cannot build agent {spec!r} (for {task.id}, seed {seed}): "
                             f"{type(e).__name__}: {e}") from e


def base_record(task: SimTask, agent_spec: str, seed: int, *, oracle: bool = True) -> dict[str, Any]:
    """A record of an episode that has not (or not successfully) run: no success, no
    progress, and no oracle verdict where none judges (``oracle`` False: on a phone)."""
    return {
        "task": task.env_id, "agent": agent_spec, "seed": seed, "app": task.app_name,
        "category": task.category, "golden_steps": task.steps,
        "success": False, "oracle_success": False if oracle else None, "progress": 0.0, "steps": 0,
        "terminated_by": None, "false_finish": False, "success_step": None,
        "over_execution": False, "matched": {}, "route": 0, "error": None,
    }


def error_info(kind: str, message: Any) -> dict[str, str]:
    """A record's ``error``: the message cut to `MAX_MESSAGE` characters."""
    return {"kind": kind, "message": clipped(str(message))}


def _describe(e: BaseException) -> dict[str, str]:
    try:
        message = str(e)
    except Exception:  # noqa: BLE001 - an agent's exception whose __str__ itself raises
        message = f"(unprintable {type(e).__name__})"
    return error_info(type(e).__name__, message)


def _number(value: Any) -> int | float | None:
    """An agent-reported count or cost as a plain number (numpy scalars included), else None."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Real) and math.isfinite(value):
        return float(value)
    return None


def run_episode(task: SimTask, agent_spec: str, seed: int, *, env_kwargs: dict[str, Any] | None = None,
                trace_dir: Path | None = None, agent_options: Mapping[str, Any] | None = None,
                trace_screenshots: str = "device") -> dict[str, Any]:
    """Run one episode; errors in the env or the agent become an ``error`` record, which
    keeps the no-success defaults of `base_record` whatever the episode reached. Failing
    to write the trace (``trace_dir``) is not the episode's fault: it raises `StorageError`.
    ``trace_screenshots`` says which screenshots the trace holds (`TRACE_SCREENSHOTS`)."""
    from mobile_gym.wrappers.record_trace import check_trace_screenshots

    check_trace_screenshots(trace_screenshots)
    record = base_record(task, agent_spec, seed, oracle=(env_kwargs or {}).get("backend", "sim") == "sim")
    start = time.perf_counter()
    step_times: list[float] = []  # env.step alone
    act_times: list[float] = []  # agent.act alone: the model's latency, what agent builders tune
    try:
        env = gym.make(task.env_id, **(env_kwargs or {}))
        try:
            if trace_dir is not None:
                from mobile_gym.wrappers import RecordTrace

                recorder = env = RecordTrace(env, trace_screenshots)
            agent = load_agent(agent_spec, task, seed, agent_options)
            outcome = _play(env, agent, seed, step_times, act_times)
            if trace_dir is not None:
                _save_trace(trace_dir, recorder.trace, outcome.get("agent_steps"))
        finally:
            env.close()
        record.update(outcome)
    except StorageError:
        raise
    except Exception as e:  # noqa: BLE001 - a broken env or agent costs one episode, not the run
        record["error"] = _describe(e)
    record["wall_time"] = time.perf_counter() - start
    record["step_latency"] = sum(step_times) / len(step_times) if step_times else None
    record["act_latency"] = sum(act_times) / len(act_times) if act_times else None
    return record


def _play(env: gym.Env, agent: Agent, seed: int, step_times: list[float], act_times: list[float]) -> dict[str, Any]:
    """The episode's loop; returns the record's outcome fields and appends to the timings."""
    obs, info = env.reset(seed=seed)
    agent.reset(seed)
    false_finish = over_execution = False
    success_step = None
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
            false_finish = True
        if info["success"] and success_step is None:
            success_step = info["steps"]
        elif success_step is not None and not action.ends_episode:
            over_execution = True  # kept acting after success
        if terminated or truncated:
            break
    outcome = dict(
        success=info["success"], oracle_success=info["oracle_success"], progress=info["progress"],
        steps=info["steps"], matched={str(k): v for k, v in info["matched"].items()}, route=info["route"],
        terminated_by=info["terminated_by"] or ("step_limit" if truncated else None),
        false_finish=false_finish, success_step=success_step, over_execution=over_execution,
    )
    outcome.update(agent_usage(agent))
    return outcome


def agent_usage(agent: Agent) -> dict[str, Any]:
    """What an agent reports of its model (``agent.usage``: ``tokens``, ``tokens_in``,
    ``tokens_out``, ``cost``, ``model_time``, ``calls``, ``tokens_estimated``) and its steps' records
    (``agent.steps``: each reply, reasoning, parsed command, parse error), for the record."""
    fields: dict[str, Any] = {}
    usage = getattr(agent, "usage", None)
    if isinstance(usage, Mapping):
        for key in USAGE_FIELDS:
            if key in usage:
                fields[key] = _number(usage.get(key))
        if usage.get("tokens_estimated") is True:
            fields["tokens_estimated"] = True  # the server sent no counts: estimated from characters
    steps = getattr(agent, "steps", None)
    if isinstance(steps, list) and all(isinstance(step, Mapping) for step in steps):
        fields["agent_steps"] = [dict(step) for step in steps]
    return fields


#: The usage an agent may report, as the record names it.
USAGE_FIELDS = ("tokens", "tokens_in", "tokens_out", "cost", "model_time", "calls")


#: Beside a trace, each step's model reply, reasoning and parsed command (an LLM agent's).
AGENT_STEPS_FILE = "agent_steps.json"

def _save_trace(trace_dir: Path, trace: Any, agent_steps: list[dict[str, Any]] | None = None) -> None:
    from mobile_gym.formats.agentenv import write_trace

    try:
        write_trace(trace_dir, trace)
        if agent_steps is not None:
            (Path(trace_dir) / AGENT_STEPS_FILE).write_text(json.dumps(agent_steps, indent=1, ensure_ascii=False)
                                                            + "\n", encoding="utf-8")
    except OSError as e:
        raise StorageError(f"cannot write the trace {trace_dir}: {e.strerror or e}") from e
