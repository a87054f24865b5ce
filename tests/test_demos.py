"""Demonstrations as Minari datasets (`mobile_gym.demos`, ``mobile-gym demos``): written in
the preset's spaces, loaded back with ``minari.load_dataset``, and replayed in a fresh
preset env to the same rewards and successes; episodes no slot can express are skipped
and reported, never written with a stand-in action."""

from __future__ import annotations

from pathlib import Path

import minari
import numpy as np
import pytest

from mobile_gym.actions import Action
from mobile_gym.agents import Agent
from mobile_gym.cli import main
from mobile_gym.demos import record_demos
from mobile_gym.errors import ConfigError
from mobile_gym.policy_envs import policy_env

TASKS = ["settings-open", "settings-turn-airplane-mode"]
EPISODES = 2
DATASET_ID = "tests/oracle-v0"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demos")
    record_demos(TASKS, EPISODES, out, dataset_id=DATASET_ID, seed=3)
    return out


@pytest.fixture
def dataset(recorded: Path, monkeypatch) -> minari.MinariDataset:
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(recorded))
    return minari.load_dataset(DATASET_ID)


def _task_of(dataset: minari.MinariDataset, episode: int) -> tuple[str, int]:
    meta = next(iter(dataset.storage.get_episode_metadata([episode])))
    return str(meta["task_id"]), int(meta["seed"])


def test_dataset_loads_with_the_preset_spaces_and_metadata(dataset: minari.MinariDataset) -> None:
    assert dataset.total_episodes == len(TASKS) * EPISODES
    reference = policy_env(TASKS[0])
    assert dataset.observation_space == reference.observation_space
    assert dataset.action_space == reference.action_space
    meta = dataset.storage.metadata
    assert meta["task_ids"] == TASKS
    assert meta["seeds"] == [3, 4]
    assert meta["agent"] == meta["algorithm_name"] == "oracle"
    assert meta["preset"] == "elements" and meta["skipped"] == []
    assert [s["episodes"] for s in meta["summary"]] == [EPISODES] * len(TASKS)
    assert [_task_of(dataset, i) for i in range(dataset.total_episodes)] == [
        (t, s) for t in TASKS for s in (3, 4)]
    assert policy_env(**meta["policy_env"]).observation_space == dataset.observation_space
    assert dataset.total_steps == sum(len(e) for e in dataset)


def test_actions_are_slots_unmasked_at_their_step(dataset: minari.MinariDataset) -> None:
    for episode in dataset:
        masks = episode.infos["action_mask"]
        assert masks.shape == (len(episode) + 1, dataset.action_space.n)
        for t, action in enumerate(episode.actions):
            assert dataset.action_space.contains(action)
            assert masks[t][action], f"episode {episode.id} step {t}: slot {action} was masked"


def test_replaying_the_actions_reproduces_the_episode(dataset: minari.MinariDataset) -> None:
    for episode in dataset:
        task, seed = _task_of(dataset, episode.id)
        env = policy_env(task)
        obs, info = env.reset(seed=seed)
        for key, value in obs.items():
            np.testing.assert_array_equal(value, episode.observations[key][0])
        rewards = []
        for t, action in enumerate(episode.actions):
            obs, reward, terminated, truncated, info = env.step(int(action))
            rewards.append(reward)
            for key, value in obs.items():
                np.testing.assert_array_equal(value, episode.observations[key][t + 1])
            assert (terminated, truncated) == (episode.terminations[t], episode.truncations[t])
        np.testing.assert_array_equal(rewards, episode.rewards)
        assert info["success"] and episode.infos["success"][-1], f"{task} seed {seed} did not succeed"
        assert episode.rewards.sum() == 1.0


def test_pixels_preset_is_stored_lossless_and_replays(tmp_path: Path) -> None:
    grid = {"GridTaps": {"rows": 40, "cols": 20}}  # fine enough that a cell centre hits the icon
    dataset = record_demos("settings-open", 1, tmp_path, preset="pixels", wrapper_kwargs=grid)
    episode = dataset[0]
    env = policy_env("settings-open", "pixels", wrapper_kwargs=grid)
    assert dataset.observation_space == env.observation_space and dataset.action_space == env.action_space
    obs, _ = env.reset(seed=0)
    np.testing.assert_array_equal(obs, episode.observations[0])  # no JPEG: exactly what was seen
    obs, reward, *_ , info = env.step(int(episode.actions[0]))
    np.testing.assert_array_equal(obs, episode.observations[1])
    assert reward == episode.rewards[0] == 1.0 and info["success"]
    masks = episode.infos.get("action_mask")  # the grid's, if it masks
    assert masks is None or masks[0][episode.actions[0]]


def test_an_episode_no_slot_can_express_is_skipped_and_reported(tmp_path: Path) -> None:
    # the oracle types "VLC for Android"; this vocabulary cannot
    phrases = {"DiscreteElementActions": {"phrases": ["Firefox", "eBay"]}}
    dataset = record_demos(["settings-open", "playstore-search-vlc-android"], 1, tmp_path,
                           wrapper_kwargs=phrases)
    assert dataset.total_episodes == 1
    assert _task_of(dataset, 0) == ("settings-open", 0)
    meta = dataset.storage.metadata
    [skip] = meta["skipped"]
    assert skip["task"] == "playstore-search-vlc-android" and skip["seed"] == 0 and skip["step"] > 0
    assert "'VLC for Android'" in skip["reason"]
    assert [(s["task"], s["episodes"], s["skipped"]) for s in meta["summary"]] == [
        ("settings-open", 1, 0), ("playstore-search-vlc-android", 0, 1)]
    assert meta["policy_env"]["wrapper_kwargs"] == phrases


def test_a_slot_that_does_something_else_is_never_written(tmp_path: Path, monkeypatch) -> None:
    # a translation that is wrong (every tap becomes slot 0, the first icon) must be caught
    # by playing the raw action on a copy of the env, not written
    from mobile_gym.wrappers import DiscreteElementActions

    monkeypatch.setattr(DiscreteElementActions, "index_of", lambda self, action: 0)
    dataset = record_demos("settings-open", 1, tmp_path)
    assert dataset.total_episodes == 0
    [skip] = dataset.storage.metadata["skipped"]
    assert skip["slot"] == 0 and skip["step"] == 0
    assert "reward 0.0" in skip["reason"]


class SwipeSideways(Agent):
    name = "sideways"

    def act(self, observation, info) -> Action:
        return Action.swipe(0.9, 0.5, 0.1, 0.5)


def test_a_sideways_swipe_is_not_written_as_a_scroll(tmp_path: Path) -> None:
    dataset = record_demos("settings-open", 1, tmp_path, agent=f"{__name__}:SwipeSideways",
                           dataset_id="sideways-v0")
    [skip] = dataset.storage.metadata["skipped"]
    assert dataset.total_episodes == 0 and skip["action"] == str(SwipeSideways().act({}, {}))
    assert skip["reason"] == "no slot of the preset does SWIPE" or skip["reason"].endswith(f"not {skip['action']}")


@pytest.mark.parametrize("kwargs, message", [
    ({"episodes": 0}, "episodes must be a positive integer"),
    ({"seed": -1}, "seed must be"),
    ({"dataset_id": "no spaces allowed"}, "dataset_id must be"),
    ({"preset": "voxels"}, "preset must be one of"),
    ({"agent": "nobody"}, "unknown agent"),
    ({"wrapper_kwargs": {"GridTaps": {}}}, "does not have: GridTaps"),
])
def test_bad_arguments_are_config_errors_and_write_nothing(tmp_path: Path, kwargs, message) -> None:
    arguments = {"episodes": 1, **kwargs}
    with pytest.raises(ConfigError, match=message):
        record_demos("settings-open", out=tmp_path, **arguments)
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_cli_records_reports_and_refuses_to_overwrite(tmp_path: Path, capsys, monkeypatch) -> None:
    args = ["demos", "--tasks", "settings-open", "bestbuy-empty-cart", "--episodes", "2", "--out", str(tmp_path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "settings-open" in out and "success 2/2" in out
    assert "skipped 2: no slot of the preset does TYPE 'bestbuy.com'" in out
    assert f"load with MINARI_DATASETS_PATH={tmp_path} and minari.load_dataset('mobile-gym/oracle-elements-v0')" in out
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    dataset = minari.load_dataset("mobile-gym/oracle-elements-v0")
    assert dataset.total_episodes == 2 and len(dataset.storage.metadata["skipped"]) == 2
    assert main(args) == 2
    assert "already exists" in capsys.readouterr().err


def test_cli_exit_codes(tmp_path: Path, capsys) -> None:
    base = ["demos", "--episodes", "1", "--out", str(tmp_path)]
    assert main([*base, "--tasks", "bestbuy-empty-cart", "--dataset-id", "empty-v0"]) == 1
    assert "no episode could be expressed" in capsys.readouterr().err
    assert main([*base, "--tasks", "settings-open", "--preset", "pixels", "--phrases", "wifi"]) == 2
    assert main([*base, "--tasks", "no-such-task"]) == 2
    assert "no simulator task no-such-task" in capsys.readouterr().err
