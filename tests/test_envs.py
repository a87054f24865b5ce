"""Every registered simulator env, driven by the registry (as Minigrid tests its envs):
check_env, seeded determinism, pickling and copying, step limits; plus the golden path
through the env, reward modes and the errors ``make`` gives. Vector envs: test_vector.py."""

from __future__ import annotations

import copy
import pickle
import warnings
from importlib.metadata import entry_points

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import Action, ActionType
from mobile_gym.agents import RandomAgent
from mobile_gym.env import MobileEnv
from mobile_gym.errors import BackendUnavailableError, ConfigError, ResetNeededError, UnknownTaskError
from mobile_gym.tasks.suite import simulator_tasks

SIM_IDS = sorted(task.env_id for task in simulator_tasks().values())


def rollout(env: gym.Env, seed: int, steps: int = 12, agent_seed: int = 0) -> list:
    """Observations, rewards, flags and infos of a seeded random-agent episode."""
    agent = RandomAgent(agent_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, info)]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        out.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            break
    return out


def same(a, b) -> bool:
    return gym.utils.env_checker.data_equivalence(a, b)


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_check_env(env_id: str) -> None:
    env = gym.make(env_id)  # default arguments, as a user makes it
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_seeded_rollouts_are_deterministic(env_id: str) -> None:
    runs = [rollout(gym.make(env_id), seed=5) for _ in range(2)]
    assert same(runs[0], runs[1])
    other = rollout(gym.make(env_id), seed=6)
    assert not same(runs[0][0][0], other[0][0]) or not same(runs[0], other)


#: An env mid-episode pickles in less than this: its task, annotation and matcher are
#: shared by the process, not part of it (whole screens were 29-107 MB before).
MAX_PICKLE_BYTES = 2**20


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_env_pickles_and_copies_mid_episode_small_and_sharing_its_task(env_id: str) -> None:
    env = gym.make(env_id)
    agent = RandomAgent(1)
    obs, info = env.reset(seed=2)
    for _ in range(3):
        obs, *_rest, info = env.step(agent.act(obs, info))
    data = pickle.dumps(env)
    assert len(data) < MAX_PICKLE_BYTES
    clones = [pickle.loads(data), copy.deepcopy(env)]
    assert all(c.unwrapped.task is env.unwrapped.task for c in clones)  # one annotation per process
    actions = [RandomAgent(9).act(obs, info) for _ in range(4)]
    for action in actions:
        a, *b = [e.step(action) for e in (env, *clones)]
        assert all(same(a, other) for other in b)
        if a[2]:
            break


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_step_limit_defaults_from_the_golden_path_and_can_be_overridden(env_id: str) -> None:
    from mobile_gym.registration import default_step_limit

    assert gym.spec(env_id).max_episode_steps == default_step_limit(simulator_tasks()[env_id[11:-3]].steps)
    env = gym.make(env_id, max_episode_steps=2)
    env.reset(seed=0)
    swipe = Action.swipe(0.5, 0.2, 0.5, 0.25)  # a short swipe down: changes nothing
    assert env.step(swipe)[3] is False
    assert env.step(swipe)[3] is True


@pytest.mark.parametrize("env_id", SIM_IDS)
@pytest.mark.parametrize("reward_mode", ["sparse", "progress"])
def test_the_golden_path_earns_the_reward(env_id: str, reward_mode: str) -> None:
    task = simulator_tasks()[env_id[11:-3]]
    env = gym.make(env_id, dynamics="none", reward_mode=reward_mode)
    obs, info = env.reset(seed=0)
    assert info["progress"] == 0 and not info["success"] and not info["oracle_success"]
    rewards = []
    for action in task.ground_truth[0].actions[:-1]:
        obs, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
    assert terminated and info["success"] and info["oracle_success"] and info["terminated_by"] == "success"
    assert sum(rewards) == pytest.approx(1.0)
    if reward_mode == "sparse":
        assert rewards[-1] == 1.0 and set(rewards[:-1]) <= {0.0}
    assert "timings" not in info  # wall-clock times are opt-in: info stays deterministic


def test_timings_are_reported_when_asked() -> None:
    env = gym.make(SIM_IDS[0], timings=True)
    _, info = env.reset(seed=0)
    _, *_, info = env.step(Action.back())
    assert set(info["timings"]) == {"observe", "match", "perform"}


@pytest.mark.parametrize("env_id", SIM_IDS)
def test_the_action_space_holds_every_text_the_golden_path_types(env_id: str) -> None:
    env = gym.make(env_id)
    typed = [a.text for a in simulator_tasks()[env_id[11:-3]].ground_truth[0].actions if a and a.text]
    for text in typed + ["bluetooth scan", "Café au lait, 9:00 — ok?", "東京の天気", "Wi\u2011Fi 🔔"]:
        action = {"action_type": ActionType.TYPE, "touch": np.zeros(2, np.float32),
                  "lift": np.zeros(2, np.float32), "text": text}
        assert action in env.action_space, text
    assert {"action_type": 2, "touch": np.zeros(2, np.float32), "lift": np.zeros(2, np.float32),
            "text": "a\x00b"} not in env.action_space  # control characters are not text


def test_spaces_print_in_a_line() -> None:
    env = gym.make(SIM_IDS[0])
    assert len(repr(env.observation_space)) < 250 and len(repr(env.action_space)) < 250
    assert "UnicodeText(0, 512, printable Unicode)" in repr(env.action_space)


def test_screenshots_are_the_users_to_write() -> None:
    env = gym.make(SIM_IDS[0])
    obs, _ = env.reset(seed=0)
    first = obs["screenshot"]
    first[:10] = 0  # e.g. normalising in place, as SB3 and users do
    obs, *_ = env.step(Action.back())
    assert obs["screenshot"].flags.writeable and not np.shares_memory(first, obs["screenshot"])


def test_complete_ends_the_episode_without_success() -> None:
    env = gym.make(SIM_IDS[0])
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(Action.complete())
    assert terminated and reward == 0 and not info["success"] and info["terminated_by"] == "complete"


def test_render_returns_the_screen() -> None:
    env = gym.make(SIM_IDS[0], render_mode="rgb_array", observation_size=(180, 400))
    obs, _ = env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (400, 180, 3) and np.array_equal(frame, obs["screenshot"])


def test_making_a_task_the_backend_cannot_run_says_what_can() -> None:
    assert "LlamaTouch/zoom-start-quick-meeting-v0" in gym.registry  # all 495
    for backend in ("sim", "device"):  # on a phone without the dataset, nothing judges it
        with pytest.raises(BackendUnavailableError, match=r"no simulator definition.*backend='device', dataset=PATH"):
            gym.make("LlamaTouch/zoom-start-quick-meeting-v0", backend=backend)
    with pytest.raises(ConfigError, match=r"backend='cloud' is unknown; backends: sim, device"):
        gym.make(SIM_IDS[0], backend="cloud")
    with pytest.raises(ConfigError, match=r"serial, snapshot describe a phone: they go with backend='device'"):
        gym.make(SIM_IDS[0], serial="emulator-5554", snapshot="clean")
    with pytest.raises(ConfigError, match=r"dataset= .* goes with backend='device'"):
        gym.make(SIM_IDS[0], dataset=".")
    with pytest.raises(UnknownTaskError):
        mobile_gym.env.resolve_task("no-such-task")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"reward_mode": "dense"}, r"reward_mode must be one of sparse, progress; got 'dense'"),
    ({"render_mode": "human"}, r"render_mode='human' is not supported.*HumanRendering"),
    ({"render_mode": "rgb_array_list"}, r"render_mode='rgb_array_list' is not supported.*RenderCollection"),
    ({"dynamics": "chaos"}, r"dynamics='chaos' is unknown; known: none, default"),
    ({"profile": "iphone-15"}, r"profile='iphone-15' is unknown; known: pixel-6"),
    ({"observation_size": (4, 300)}, r"observation_size=\(4, 300\) is outside"),
])
def test_bad_make_arguments_are_named_at_make(kwargs: dict, message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning first: the error is the whole answer
        with pytest.raises(ConfigError, match=message):
            gym.make(SIM_IDS[0], **kwargs)


def test_unknown_reset_options_are_refused() -> None:
    env = gym.make(SIM_IDS[0])
    env.reset(seed=0, options={})  # empty is fine (check_env passes it)
    with pytest.raises(ConfigError, match=r"reset\(options=...\) takes no options; got 'sed'"):
        env.reset(options={"sed": 3})


@pytest.mark.parametrize(("how", "unwrapped"), [  # the step limit is gym.make's: a bare env has none
    ("complete", False), ("success", False), ("step_limit", False), ("complete", True), ("success", True)])
def test_a_step_after_the_episode_ended_needs_a_reset(how: str, unwrapped: bool) -> None:
    task = simulator_tasks()["settings-turn-airplane-mode"]
    env = MobileEnv(task) if unwrapped else gym.make(task.env_id, max_episode_steps=1 if how == "step_limit" else None)
    env.reset(seed=0)
    actions = {"complete": [Action.complete()], "success": task.ground_truth[0].actions[:-1],
               "step_limit": [Action.back()]}[how]
    for action in actions:
        *_, terminated, truncated, info = env.step(action)
    assert terminated or truncated
    with pytest.raises(ResetNeededError, match=r"call reset\(\) before step\(\)"):
        env.step(Action.back())
    env.reset(seed=1)
    env.step(Action.back())  # a reset starts the next episode


def test_registration_is_a_gymnasium_entry_point() -> None:
    found = [e for e in entry_points(group="gymnasium.envs") if e.value == "mobile_gym.registration:register_envs"]
    assert found
    found[0].load()()  # idempotent
    assert sum(k.startswith("LlamaTouch/") for k in gym.registry) == 495
