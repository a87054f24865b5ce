"""Vector envs as Gymnasium builds them: ``gym.make_vec`` in ``async`` mode (workers,
shared memory by default) steps exactly as ``sync`` mode does, texts included, also
across autoresets and with envs sent to spawned workers as pickles."""

from __future__ import annotations

import pickle
from functools import partial

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import Action
from mobile_gym.agents import RandomAgent

N = 2
#: Tasks without fuzzy checks: their workers need not load the embedding model.
IDS = ["LlamaTouch/settings-turn-off-wifi-v0", "LlamaTouch/amazon-view-cart-v0"]


def batched(actions: list[Action]) -> dict:
    """One action per env as a batch of the vector env's ``Dict`` action space."""
    return {"action_type": np.array([int(a.action_type) for a in actions]),
            "touch": np.array([a.touch or (0, 0) for a in actions], np.float32),
            "lift": np.array([a.lift or (0, 0) for a in actions], np.float32),
            "text": tuple(a.text or "" for a in actions)}


def run(envs: gym.vector.VectorEnv, steps: int, seed: int = 0) -> list:
    """Everything a vector env returns over a seeded random-agent run, one agent per env
    acting on that env's observation (so both modes get the same actions if they return
    the same observations)."""
    agents = [RandomAgent(seed + i) for i in range(envs.num_envs)]
    obs, info = envs.reset(seed=seed)
    out = [(obs, info)]
    for _ in range(steps):
        mine = [{k: v[i] for k, v in obs.items()} for i in range(envs.num_envs)]
        obs, *rest = envs.step(batched([a.act(o, {}) for a, o in zip(agents, mine)]))
        out.append((obs, *rest))
    envs.close()
    return out


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")  # Python >= 3.12: fork
def test_async_steps_as_sync_does_texts_included(env_id: str) -> None:
    # a step limit of 4 makes both envs truncate and autoreset within the run
    sync, async_ = (run(gym.make_vec(env_id, num_envs=N, vectorization_mode=mode, max_episode_steps=4), steps=9)
                    for mode in ("sync", "async"))
    assert data_equivalence(sync, async_)
    obs = async_[-1][0]
    assert all(xml.startswith("<?xml") for xml in obs["view_hierarchy"])
    assert obs["instruction"] == (gym.make(env_id).unwrapped.task.instruction,) * N
    assert any(step[3].any() for step in async_[1:])  # truncated at least once


@pytest.mark.slow
def test_spawned_workers_run_pickled_envs() -> None:
    """Each worker of a ``spawn`` vector env starts a fresh interpreter and unpickles its
    env (a reference to its task, resolved there): steps equal the sync env's."""
    env = gym.make(IDS[1])
    env.reset(seed=3)
    env.step(Action.back())
    make = partial(pickle.loads, pickle.dumps(env))
    sync = run(gym.vector.SyncVectorEnv([make] * N), steps=4, seed=1)
    spawned = run(gym.vector.AsyncVectorEnv([make] * N, context="spawn"), steps=4, seed=1)
    assert data_equivalence(sync, spawned)
