"""Every simulator task is solvable under dynamics on every profile, and the matcher's
verdict agrees with the simulator's oracle: online in the env, offline on the recorded
trace written as an AgentEnv trace, and on random-agent episodes."""

from __future__ import annotations

import gymnasium as gym
import pytest

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.agents import Agent, OracleAgent, RandomAgent
from mobile_gym.formats.agentenv import read_trace, write_trace
from mobile_gym.matcher import evaluate_trace
from mobile_gym.env import shared_matcher
from mobile_gym.simulator import PROFILES
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.wrappers import RecordTrace

TASKS = sorted(simulator_tasks())
#: (task, r) for each alternative route r of a task
ROUTES = [(t, r) for t in TASKS for r in range(1, len(simulator_tasks()[t].alternatives) + 1)]
#: The seed of the ten whose trace the sweeps also write and judge offline: writing a trace
#: draws and encodes every full-size screen, nine tenths of a sweep's time if done for each.
OFFLINE_SEED = 0


def run(task_id: str, agent: Agent, *, seed: int, profile: str = "pixel-6",
        dynamics: str = "default", **kwargs) -> tuple[dict, RecordTrace]:
    """One episode; the final info also says whether the oracle held at any step."""
    env = RecordTrace(gym.make(simulator_tasks()[task_id].env_id, dynamics=dynamics,
                               profile=profile, **kwargs))
    obs, info = env.reset(seed=seed)
    agent.reset(seed)
    oracle_ever = info["oracle_success"]
    while True:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        oracle_ever |= info["oracle_success"]
        if terminated or truncated:
            return {**info, "oracle_ever": oracle_ever}, env


def check_offline(task_id: str, env: RecordTrace, tmp_path, expected: bool) -> None:
    """The recorded trace, written in format B and read back, gets the same verdict."""
    folder = write_trace(tmp_path / "run", env.trace)
    result = evaluate_trace(simulator_tasks()[task_id].annotation, read_trace(folder), shared_matcher())
    assert result.success == expected, "\n".join(result.explanations)


@pytest.mark.parametrize("task_id", TASKS)
def test_oracle_agent_solves_the_task(task_id: str, tmp_path) -> None:
    info, env = run(task_id, OracleAgent(task_id), seed=3)
    assert info["success"] and info["oracle_success"], info
    check_offline(task_id, env, tmp_path, True)


@pytest.mark.slow
@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("task_id", TASKS)
def test_oracle_agent_solves_the_task_on_ten_seeds(task_id: str, profile: str, tmp_path) -> None:
    for seed in range(10):
        info, env = run(task_id, OracleAgent(task_id), seed=seed, profile=profile)
        assert info["success"] and info["oracle_success"], (seed, info)
        if seed == OFFLINE_SEED:
            check_offline(task_id, env, tmp_path / str(seed), True)


@pytest.mark.parametrize("task_id, route", ROUTES)
def test_oracle_agent_on_an_alternative_route_solves_the_task_by_that_route(task_id: str, route: int,
                                                                           tmp_path) -> None:
    info, env = run(task_id, OracleAgent(task_id, route=route), seed=3)
    assert info["success"] and info["oracle_success"] and info["route"] == route, info
    check_offline(task_id, env, tmp_path, True)


@pytest.mark.slow
@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("task_id, route", ROUTES)
def test_each_alternative_route_solves_the_task_on_ten_seeds(task_id: str, route: int, profile: str,
                                                             tmp_path) -> None:
    for seed in range(10):
        info, env = run(task_id, OracleAgent(task_id, route=route), seed=seed, profile=profile)
        assert info["success"] and info["oracle_success"] and info["route"] == route, (seed, info)
        if seed == OFFLINE_SEED:
            check_offline(task_id, env, tmp_path / str(seed), True)


@pytest.mark.parametrize("task_id", TASKS)
def test_matcher_agrees_with_the_oracle_on_random_episodes(task_id: str) -> None:
    disagreements = []
    for seed in range(8):  # the episode ends when the matcher sees success
        info, _ = run(task_id, RandomAgent(seed), seed=seed, max_episode_steps=25)
        if info["success"] != info["oracle_ever"] or info["success"] and not info["oracle_success"]:
            disagreements.append((seed, info["success"], info["oracle_ever"], info["matched"]))
    assert not disagreements, f"matcher and oracle disagree on {task_id}: {disagreements}"
