"""Demonstrations as Minari datasets, in a policy preset's own action space, so behaviour
cloning and offline RL read them as they are.

An agent (the oracle by default, or any agent ``mobile-gym run --agent`` takes) plays each
task on the raw screen; each of its actions is written as the preset's slot that does the
same thing on that screen (`DiscreteElementActions.index_of`, `GridTaps.index_of`), and
the preset env is stepped with that slot, so the dataset holds exactly the preset's
observations, actions and rewards. "The same thing" is checked, not assumed: when the
slot sends another action than the agent's (a tap elsewhere on the element, a scroll of
another length), the agent's action is played on a copy of the env and the slot's step
must give the same reward, end and verdict (progress, checkpoints matched) and, after a
tap, the same screen. An action no slot does — text outside the phrase vocabulary, a
tap on no element, a sideways swipe — makes the episode impossible to express: it is
skipped, never written with a stand-in action, and the dataset metadata says which and
why.

The agent reads the raw observation from a pass-through wrapper under the preset
(``_LastRawStep``): the preset's observation is what the policy learns from, the raw one is
what the agent was written for, and the wrapper is the one place where both exist.

Episodes are buffered as Minari ``EpisodeBuffer``s and written with
``minari.create_dataset_from_buffers`` (``minari.DataCollector`` would need jax to buffer
steps). Datasets go to ``out``: Minari's ``MINARI_DATASETS_PATH`` is set to it only while
writing (not thread-safe: one recording per process at a time). Load one with
``MINARI_DATASETS_PATH=out`` and ``minari.load_dataset(id)``, or with ``minari.MinariDataset(f"{out}/{id}/data")``; ``mobile_gym.policy_env(
**dataset.storage.metadata["policy_env"])`` makes the env the episodes were recorded in.

>>> import tempfile, mobile_gym
>>> from mobile_gym.demos import record_demos
>>> out = tempfile.TemporaryDirectory()
>>> dataset = record_demos("settings-open", 2, out.name)
>>> dataset.total_episodes, dataset[0].actions   # slot 5 taps Settings on the launcher
(2, array([5]))
>>> dataset.action_space == mobile_gym.policy_env("settings-open").action_space
True
>>> dataset.storage.metadata["task_ids"], dataset.storage.metadata["algorithm_name"]
(['settings-open'], 'oracle')
>>> out.cleanup()
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

import gymnasium as gym
import numpy as np

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import ConfigError, whole_number
from mobile_gym.wrappers.discrete import extra_for

if TYPE_CHECKING:
    import minari

    from mobile_gym.tasks.definition import SimTask

#: The per-step infos every dataset has (plus ``action_mask`` when the preset masks):
#: the same keys at every step, as Minari requires, and small.
INFO_KEYS = ("success", "progress", "steps")
_NOT_NAME = re.compile(r"[^-\w]+")  # characters a Minari dataset name cannot have


class _LastRawStep(gym.Wrapper):
    """Passes everything through and keeps the last observation and info it passed up,
    for an agent that reads the raw screen while a preset wraps the env above it."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.observation: Any = None
        self.info: dict[str, Any] = {}

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self.observation, self.info = obs, dict(info)  # a copy: wrappers above add keys to theirs
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.observation, self.info = obs, dict(info)
        return obs, reward, terminated, truncated, info


@dataclass
class TaskSummary:
    """What recording one task gave: episodes written and skipped, steps, successes."""

    task: str
    episodes: int = 0
    steps: int = 0
    successes: int = 0
    skipped: list[dict[str, Any]] = field(default_factory=list)  # task, seed, step, action, reason


def record_demos(
    tasks: str | Sequence[str],
    episodes: int,
    out: str | os.PathLike,
    *,
    dataset_id: str | None = None,
    preset: str = "elements",
    agent: str = "oracle",
    seed: int = 0,
    profile: str | None = None,
    dynamics: str | None = None,
    wrapper_kwargs: Mapping[str, Mapping[str, Any]] | None = None,
    author: str | None = None,
    author_email: str | None = None,
    code_permalink: str | None = None,
    description: str | None = None,
    on_task: Callable[[TaskSummary], None] | None = None,
    **make_kwargs: Any,
) -> minari.MinariDataset:
    """Record ``episodes`` episodes (seeds ``seed``, ``seed + 1``, ...) of ``agent`` on each
    task ``tasks`` names (ids, env ids or fnmatch patterns) as the Minari dataset
    ``dataset_id`` (default ``mobile-gym/<agent>-<preset>-v0``) under ``out``.

    ``preset``, ``profile``, ``dynamics``, ``wrapper_kwargs`` and ``make_kwargs`` are
    `mobile_gym.policy_env`'s; the dataset's metadata holds them as ``policy_env``, and
    ``task_ids``, ``seeds``, ``agent``, ``summary`` (per task) and ``skipped`` (each
    episode no slot could express, with the step and the reason). Each episode's own
    metadata (``dataset.storage.get_episode_metadata``) has its ``seed``, ``task_id`` and
    ``success``. ``on_task`` is called with each task's `TaskSummary` as it finishes.
    Episodes that could not be expressed are not in the dataset, which may be empty."""
    from minari import create_dataset_from_buffers
    from minari.dataset.minari_dataset import parse_dataset_id

    from mobile_gym import __version__
    from mobile_gym.policy_envs import policy_env
    from mobile_gym.runner.episode import check_agent
    from mobile_gym.tasks.suite import select_simulator_tasks

    episodes, seed = whole_number("episodes", episodes, 1), whole_number("seed", seed, 0)
    chosen = select_simulator_tasks(tasks)
    dataset_id = dataset_id or f"mobile-gym/{_NOT_NAME.sub('_', agent)}-{preset}-v0"
    try:
        parse_dataset_id(dataset_id)
    except ValueError:
        raise ConfigError(f"dataset_id must be Minari's (namespace/)name-v<version>; got {dataset_id!r}") from None
    root = Path(out)
    if (root / dataset_id).exists():
        raise ConfigError(f"{root / dataset_id} already exists: choose another dataset_id or out folder")
    check_agent(agent, chosen[0], seed)
    env_kwargs = {"profiles": profile, "dynamics": dynamics, "wrapper_kwargs": dict(wrapper_kwargs or {}),
                  **make_kwargs}
    recipe = {"tasks": [t.id for t in chosen], "preset": preset, **env_kwargs}
    seeds = [seed + i for i in range(episodes)]

    dataset = None
    summaries: list[TaskSummary] = []
    root.mkdir(parents=True, exist_ok=True)
    with _datasets_root(root):
        try:
            for task in chosen:
                reference = policy_env(task.id, preset, **env_kwargs)  # the env a user trains in
                try:
                    summary, buffers = _record_task(task, seeds, agent, preset, env_kwargs)
                    first = 0 if dataset is None else dataset.storage.total_episodes
                    if dataset is None:
                        dataset = _create(create_dataset_from_buffers, dataset_id, buffers, reference,
                                          single_task=len(chosen) == 1, algorithm_name=agent, author=author,
                                          author_email=author_email, code_permalink=code_permalink,
                                          description=description or _description(agent, preset, chosen))
                    elif buffers:
                        dataset.update_dataset_from_buffer(buffers)
                finally:
                    reference.close()
                if buffers:
                    dataset.storage.update_episode_metadata(
                        [{"task_id": task.id, "success": bool(b.infos["success"][-1])} for b in buffers],
                        range(first, first + len(buffers)))
                summaries.append(summary)
                if on_task is not None:
                    on_task(summary)
            assert dataset is not None
            dataset.storage.update_metadata({
                "mobile_gym_version": __version__, "policy_env": recipe, "task_ids": recipe["tasks"],
                "seeds": seeds, "agent": agent, "preset": preset,
                "summary": [{**vars(s), "skipped": len(s.skipped)} for s in summaries],
                "skipped": [skip for s in summaries for skip in s.skipped],
            })
        except BaseException:
            shutil.rmtree(root / dataset_id, ignore_errors=True)  # never leave half a dataset
            raise
    from minari import MinariDataset

    return MinariDataset(root / dataset_id / "data")


def _record_task(task: SimTask, seeds: list[int], agent: str, preset: str,
                 env_kwargs: dict[str, Any]) -> tuple[TaskSummary, list]:
    """A task's episodes that could be expressed, and its summary."""
    summary, buffers = TaskSummary(task.id), []
    for seed in seeds:
        buffer, skip = _record_episode(task, seed, agent, preset, env_kwargs)
        if skip is not None:
            summary.skipped.append(skip)
            continue
        buffers.append(buffer)
        summary.episodes += 1
        summary.steps += len(buffer.rewards)
        summary.successes += bool(buffer.infos["success"][-1])
    return summary, buffers


def _record_episode(task: SimTask, seed: int, agent_spec: str, preset: str, env_kwargs: dict[str, Any]):
    """One episode as a Minari `EpisodeBuffer`, or None and why it cannot be expressed."""
    from minari.data_collector import EpisodeBuffer

    from mobile_gym.policy_envs import policy_env
    from mobile_gym.runner.episode import load_agent

    env = policy_env(task.id, preset, trim_info=False, under=[_LastRawStep], **env_kwargs)
    raw = _layer(env, lambda e: isinstance(e, _LastRawStep), "the raw step is not kept under the preset")
    slots = _slot_wrapper(env)
    try:
        obs, info = env.reset(seed=seed)
        agent = load_agent(agent_spec, task, seed)
        agent.reset(seed)
        observations, infos, actions, rewards, terminations, truncations = [obs], [_info(info, slots)], [], [], [], []
        while True:
            action = agent.act(raw.observation, raw.info)
            if isinstance(action, Mapping):  # a sample of the raw env's Dict action space
                action = Action.from_gym(action)
            index, sent, reason = _slot_for(slots, action)
            # the raw action played on a copy, to check that the slot does the same
            expected = None if index is None or sent == action else copy.deepcopy(raw.env).step(action)
            if index is not None:
                obs, reward, terminated, truncated, info = env.step(index)
                if expected is not None:
                    reason = _difference(action, (reward, terminated, truncated, raw.observation, raw.info), expected)
            if reason:
                return None, {"task": task.id, "seed": seed, "step": len(actions), "action": str(action),
                              "slot": index, "reason": reason}
            observations.append(obs)
            infos.append(_info(info, slots))
            actions.append(index)
            rewards.append(float(reward))
            terminations.append(bool(terminated))
            truncations.append(bool(truncated))
            if terminated or truncated:
                break
    finally:
        env.close()
    return EpisodeBuffer(seed=seed, observations=_stacked(observations), actions=np.array(actions, np.int64),
                         rewards=rewards, terminations=terminations, truncations=truncations,
                         infos=_stacked(infos)), None


def _layer(env: gym.Env, found: Callable[[gym.Env], bool], missing: str) -> Any:
    """The outermost wrapper of ``env`` for which ``found`` holds (a `ConfigError` saying
    ``missing`` when none does)."""
    while isinstance(env, gym.Wrapper):
        if found(env):
            return env
        env = env.env
    raise ConfigError(missing)


def _slot_wrapper(env: gym.Env) -> gym.Wrapper:
    """The preset wrapper that turns slots into raw actions (the one with ``index_of``)."""
    return _layer(env, lambda e: callable(getattr(type(e), "index_of", None)),
                  "the preset has no wrapper with index_of(action): its actions cannot be recorded")


def _slot_for(slots: Any, action: Action) -> tuple[int | None, Action | None, str]:
    """The slot `index_of` gives for ``action``, the action it sends, or why no slot does
    the same thing: none, a masked one, or one of another kind (a tap for a tap, a
    scroll the same way for a swipe, the same text or key)."""
    index = slots.index_of(action)
    what = f"{action.action_type.name}{_what(action)}"
    if index is None:
        typed = action.action_type is ActionType.TYPE
        hint = " (not one of the phrases: add it to them, e.g. --phrases)" if typed else ""
        return None, None, f"no slot of the preset does {what}{hint}"
    masks = getattr(slots, "action_masks", None)
    if masks is not None and not masks()[index]:
        return None, None, f"slot {index} does {what} but is masked on this screen"
    sent = slots.action(index)
    if not _same_kind(action, sent):
        return None, None, f"slot {index} sends {sent}, not {action}"
    return index, sent, ""


def _what(action: Action) -> str:
    return f" {action.text!r}" if action.action_type is ActionType.TYPE else ""


def _same_kind(action: Action, sent: Action) -> bool:
    if action.is_tap or sent.is_tap:
        return action.is_tap and sent.is_tap
    if action.action_type is not sent.action_type:
        return False
    if action.action_type is ActionType.SWIPE:
        return extra_for(action) == extra_for(sent) is not None  # a scroll the same way
    return action.text == sent.text


def _difference(action: Action, got: tuple, expected: tuple) -> str:
    """Why the slot's step did not do what the raw action did on a copy of the env, or
    "" when it did: the same reward, end and verdict (progress, checkpoints matched) and,
    after a tap, the same screen. (A scroll of another length shows other rows: the
    agent sees that screen and acts on it.)"""
    reward, terminated, truncated, obs, info = got
    e_obs, e_reward, e_terminated, e_truncated, e_info = expected
    for name, a, b in (("reward", reward, e_reward), ("end", (terminated, truncated), (e_terminated, e_truncated)),
                       ("progress", info["progress"], e_info["progress"]),
                       ("checkpoints matched", info["matched"], e_info["matched"])):
        if a != b:
            return f"the slot's step gave {name} {a}, {action} gives {b}"
    if action.is_tap and obs["view_hierarchy"] != e_obs["view_hierarchy"]:
        return f"the slot's tap led to another screen than {action}"
    return ""


def _info(info: Mapping[str, Any], slots: Any) -> dict[str, Any]:
    kept = {k: info[k] for k in INFO_KEYS}
    masks = getattr(slots, "action_masks", None)
    if masks is not None:
        kept["action_mask"] = masks()  # of the screen the same step's observation shows
    return kept


def _stacked(items: list[Any]) -> Any:
    """A list of (dicts of) values as (a dict of) arrays, step first."""
    if isinstance(items[0], Mapping):
        return {k: _stacked([item[k] for item in items]) for k in items[0]}
    if isinstance(items[0], tuple):
        return tuple(_stacked([item[i] for item in items]) for i in range(len(items[0])))
    return np.stack([np.asarray(item) for item in items])


def _create(create: Callable[..., Any], dataset_id: str, buffers: list, reference: gym.Env, *,
            single_task: bool, **metadata: Any):
    """The dataset, with the env spec only when it stands for every episode (one task);
    Minari's warnings about optional metadata left empty are expected, not shown."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"`(author|author_email|code_permalink|eval_env)` is set to None",
                                UserWarning)
        warnings.filterwarnings("ignore", "env_spec is None", UserWarning)
        return create(dataset_id, buffers, env=reference if single_task else None,
                      observation_space=reference.observation_space, action_space=reference.action_space,
                      jpeg_encoding=False, **metadata)  # lossless: a replay sees what was recorded


def _description(agent: str, preset: str, tasks: Sequence[SimTask]) -> str:
    names = ", ".join(t.id for t in tasks[:5]) + (f" and {len(tasks) - 5} more" if len(tasks) > 5 else "")
    return (f"mobile_gym {agent} demonstrations in the {preset!r} policy preset's spaces: {names}. "
            "mobile_gym.policy_env(**metadata['policy_env']) makes the env.")


@contextmanager
def _datasets_root(root: Path) -> Iterator[None]:
    """Minari writes under ``MINARI_DATASETS_PATH``: point it at ``root`` for a while."""
    before = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(root)
    try:
        yield
    finally:
        if before is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = before
