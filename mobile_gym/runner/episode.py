"""One episode of one agent on one task, as a flat record for ``episodes.jsonl``."""

from __future__ import annotations

import errno
import hashlib
import importlib
import inspect
import itertools
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


def check_agent(spec: str, task: SimTask, seed: int, options: Mapping[str, Any] | None = None) -> str:
    """Build the agent once, for ``task`` and ``seed``, before a batch starts: a bad spec,
    a class without the `Agent` interface or a constructor that raises is one clear
    `ConfigError`, not the same error row for every episode. Returns the agent's name
    for reports (`agent_name`)."""
    try:
        return agent_name(load_agent(spec, task, seed, options), spec)
    except MobileGymError:
        raise
    except Exception as e:  # noqa: BLE001 - the agent's constructor is user code
        raise ConfigError(f"cannot build agent {spec!r} (for {task.id}, seed {seed}): "
                             f"{type(e).__name__}: {e}") from e


def agent_name(agent: Any, spec: str) -> str:
    """What reports call an agent: its own ``name`` (a class attribute, as `Agent` has),
    else the spec it was loaded by (``module:Class``). The record's ``agent`` stays the
    spec, which names the episode's trace and keys ``--resume``."""
    name = getattr(agent, "name", None)
    if isinstance(name, str) and name.strip() and name != Agent.name:  # Agent.name: a subclass that named none
        return clipped(name.strip(), MAX_NAME)
    return spec


MAX_NAME = 100  # characters of an agent's name kept in a record


def base_record(task: SimTask, agent_spec: str, seed: int, *, oracle: bool = True) -> dict[str, Any]:
    """A record of an episode that has not (or not successfully) run: no success, no
    progress, and no oracle verdict where none judges (``oracle`` False: on a phone)."""
    return {
        "task": task.env_id, "agent": agent_spec, "seed": seed, "app": task.app_name,
        "category": task.category, "golden_steps": task.steps,
        "success": False, "oracle_success": False if oracle else None, "progress": 0.0, "steps": 0,
        "terminated_by": None, "false_finish": False, "success_step": None,
        "over_execution": False, "matched": {}, "route": 0, "answer": None, "error": None,
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


MAX_USAGE = 10**12  # an agent-reported count, cost or time at or past this (or below 0) is unknown: None


def _number(value: Any) -> int | float | None:
    """An agent-reported count or cost as a plain number (numpy scalars included) within
    [0, `MAX_USAGE`), else None: a server's ``prompt_tokens`` of 10**400 is no count."""
    try:
        if isinstance(value, bool):  # a flag, not a count
            return None
        if isinstance(value, numbers.Integral):
            number: int | float = int(value)
        elif isinstance(value, numbers.Real):
            number = float(value)
        else:
            return None
    except (ValueError, OverflowError, TypeError):  # a float of 10**400, an odd Real subclass
        return None
    return number if 0 <= number < MAX_USAGE else None  # NaN fails both comparisons


#: Bounds of what an agent's ``steps`` records keep (`json_safe`): characters of one text,
#: items of one list or mapping, levels of nesting, and characters of the whole episode's.
MAX_STEP_TEXT, MAX_STEP_ITEMS, MAX_STEP_DEPTH, MAX_STEPS_CHARS = 10_000, 1_000, 20, 2_000_000


def json_safe(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """``value`` as plain JSON (what ``episodes.jsonl`` and ``agent_steps.json`` can hold):
    numpy scalars and arrays as numbers and lists, bytes decoded (bad bytes as ``\\xNN``),
    sets and tuples as lists, keys as strings, anything else as its ``repr``. Numbers JSON
    cannot hold (NaN, infinities, integers of thousands of digits) become None, and texts,
    lists and depth are cut at the bounds above, saying so: whatever an agent records is
    stored, and never stops the run. ``budget`` (one count for a whole episode) caps the
    characters of all texts together."""
    budget = [MAX_STEPS_CHARS] if budget is None else budget
    if value is None or isinstance(value, (bool, str)):
        return _text(value, budget) if isinstance(value, str) else value
    if isinstance(value, (numbers.Integral, numbers.Real)) and not hasattr(value, "shape"):
        return _finite(value)
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # a numpy scalar of another kind
        return json_safe(value.item(), budget, depth)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _text(bytes(value[:MAX_STEP_TEXT * 4]).decode("utf-8", "backslashreplace"), budget)
    if depth >= MAX_STEP_DEPTH:
        return f"({type(value).__name__} nested deeper than {MAX_STEP_DEPTH} levels: left out)"
    if isinstance(value, Mapping):
        items = list(itertools.islice(value.items(), MAX_STEP_ITEMS))
        kept = {str(json_safe(k, budget, depth + 1)): json_safe(v, budget, depth + 1) for k, v in items}
        if len(value) > MAX_STEP_ITEMS:
            kept["..."] = f"{len(value) - MAX_STEP_ITEMS} more items left out"
        return kept
    if hasattr(value, "tolist") and hasattr(value, "size"):  # a numpy array: never its megabytes of pixels
        if value.size > MAX_STEP_ITEMS:
            return f"(array of shape {tuple(value.shape)}, {value.dtype}: left out)"
        return json_safe(value.tolist(), budget, depth)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        kept = [json_safe(v, budget, depth + 1) for v in itertools.islice(items, MAX_STEP_ITEMS)]
        if len(value) > MAX_STEP_ITEMS:
            kept.append(f"... {len(value) - MAX_STEP_ITEMS} more items left out")
        return kept
    try:
        shown = repr(value)
    except Exception:  # noqa: BLE001 - an agent's object whose __repr__ itself raises
        shown = f"(unprintable {type(value).__name__})"
    return _text(shown, budget)


def _finite(value: Any) -> int | float | None:
    """A number JSON holds as written: an int of at most 18 digits, else a finite float."""
    try:
        if isinstance(value, numbers.Integral) and -10**18 < value < 10**18:
            return int(value)
        number = float(value)
    except (ValueError, OverflowError, TypeError):
        return None
    return number if math.isfinite(number) else None


def _text(text: str, budget: list[int]) -> str:
    """``text`` cut to `MAX_STEP_TEXT` and to what is left of the episode's ``budget``."""
    limit = max(0, min(MAX_STEP_TEXT, budget[0]))
    budget[0] -= min(len(text), limit)
    return clipped(text, limit)


def run_episode(task: SimTask, agent_spec: str, seed: int, *, env_kwargs: dict[str, Any] | None = None,
                trace_dir: Path | None = None, agent_options: Mapping[str, Any] | None = None,
                trace_screenshots: str = "device", shared_files: Path | None = None) -> dict[str, Any]:
    """Run one episode; errors in the env or the agent become an ``error`` record, which
    keeps the no-success defaults of `base_record` whatever the episode reached. Failing
    to write the trace (``trace_dir``) is not the episode's fault: it raises `StorageError`.
    ``trace_screenshots`` says which screenshots the trace holds (`TRACE_SCREENSHOTS`);
    ``shared_files``, where a run's traces meet: a file of the trace whose content is
    already there becomes a hard link to it (`share_files`)."""
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
                _save_trace(trace_dir, recorder.trace, outcome.get("agent_steps"), recorder.observed_screens,
                            shared_files)
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
        answer=info.get("answer"),
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
        fields["agent_steps"] = json_safe(steps)
    return fields


#: The usage an agent may report, as the record names it.
USAGE_FIELDS = ("tokens", "tokens_in", "tokens_out", "cost", "model_time", "calls")


#: Beside a trace, each step's model reply, reasoning and parsed command (an LLM agent's).
AGENT_STEPS_FILE = "agent_steps.json"

def _save_trace(trace_dir: Path, trace: Any, agent_steps: list[dict[str, Any]] | None = None,
                screens: list[Any] | None = None, shared_files: Path | None = None) -> None:
    """The trace, the agent's steps and, from the observed ``screens`` (each state's, when
    the env observes them in colour), the report's thumbnails: made here, in the worker,
    once, not by the report from the trace's screenshots. With ``shared_files``, each
    file already written by the run is stored once (`share_files`)."""
    from PIL import Image

    from mobile_gym.formats.agentenv import write_trace
    from mobile_gym.runner.thumbnails import write_thumbnails

    try:
        write_trace(trace_dir, trace)
        if screens is not None:
            write_thumbnails(trace_dir, (Image.fromarray(screen) for screen in screens))
        if agent_steps is not None:
            # a lone surrogate in a reply is written as its JSON escape (\udce9), which reads back the same
            (Path(trace_dir) / AGENT_STEPS_FILE).write_bytes(
                (json.dumps(agent_steps, indent=1, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace"))
        if shared_files is not None:
            share_files(Path(trace_dir), shared_files)
    except OSError as e:
        raise StorageError(f"cannot write the trace {trace_dir}: {e.strerror or e}") from e


def share_files(folder: Path, store: Path) -> None:
    """Make each file under ``folder`` whose content a file in ``store`` has a hard link to
    that file, and link the others into ``store``. A run's traces repeat themselves: both
    seeds of a task, each app's first screens, a random agent's taps on nothing (in ``make
    run``, one file of four is distinct for the oracle, one of six for the random agent).
    Files are named in ``store`` by a hash of their content; linking is atomic, so workers
    share one store. On a file system without hard links every copy stays."""
    store.mkdir(parents=True, exist_ok=True)
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
        try:
            _share(path, store / (hashlib.blake2b(path.read_bytes(), digest_size=20).hexdigest() + path.suffix))
        except OSError as e:
            if e.errno == errno.EMLINK:  # the kept file has as many links as it may: this copy stays
                continue
            if e.errno in (errno.EPERM, errno.EXDEV, errno.ENOTSUP):  # no hard links here
                return
            raise


def _share(path: Path, kept: Path) -> None:
    """Keep ``path`` as ``kept``, or if a file is kept there already, make ``path`` it."""
    try:
        os.link(path, kept)
    except FileExistsError:
        if not os.path.samefile(path, kept):
            link = path.with_name(path.name + ".link")
            os.link(kept, link)
            os.replace(link, path)
