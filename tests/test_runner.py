"""The batch runner: parallel episodes, crash-proof results, resume, broken episodes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from mobile_gym.actions import Action, ActionType
from mobile_gym.agents import Agent
from mobile_gym.errors import FormatError, MobileGymError
from mobile_gym.runner import Job, run_batch
from mobile_gym.runner.batch import EPISODES_FILE, TRACES_DIR, read_episodes, trace_dir_name

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["settings-turn-airplane-mode", "settings-turn-off-wifi"]


class FlakyAgent(Agent):
    """Backs out twice, then crashes on odd seeds (an agent bug mid-episode)."""

    def __init__(self, seed: int):
        self.seed, self.steps = seed, 0

    def act(self, observation, info):
        self.steps += 1
        if self.seed % 2 and self.steps > 2:
            raise RuntimeError("agent blew up")
        return Action.back() if self.steps <= 2 else Action.complete()


def keys(records: list[dict]) -> list[tuple]:
    return sorted((r["task"], r["agent"], r["seed"]) for r in records)


def test_parallel_run_records_every_episode_once(tmp_path) -> None:
    jobs = [Job(t, "oracle", s) for t in TASKS for s in range(3)]
    records = run_batch(jobs, tmp_path, workers=2, env_kwargs={"dynamics": "default"})
    assert keys(records) == keys(read_episodes(tmp_path / EPISODES_FILE)) == sorted(j.key for j in jobs)
    assert all(r["success"] and r["oracle_success"] and r["error"] is None for r in records)
    for field in ("task", "agent", "seed", "success", "oracle_success", "progress", "steps",
                  "terminated_by", "error", "wall_time", "step_latency", "act_latency"):
        assert all(field in r for r in records)
    assert {r["app"] for r in records} == {"Settings"}  # the display name `mobile-gym tasks` shows
    with pytest.raises(MobileGymError, match="--resume"):
        run_batch(jobs, tmp_path)


def test_a_broken_episode_is_an_error_row_and_the_run_goes_on(tmp_path) -> None:
    jobs = [Job(TASKS[0], f"{__name__}:FlakyAgent", s) for s in range(4)]
    records = run_batch(jobs, tmp_path, workers=2)
    errors = [r for r in records if r["error"] is not None]
    assert sorted(r["seed"] for r in errors) == [1, 3]
    assert all(e["error"] == {"kind": "RuntimeError", "message": "agent blew up"} for e in errors)
    fine = [r for r in records if r["error"] is None]
    assert [r["false_finish"] for r in fine] == [True, True] and not any(r["success"] for r in fine)


class NoInterface:
    """Has neither reset() nor act()."""


class BrokenConstructor(Agent):
    def __init__(self, task):
        raise ValueError(f"no model for {task.id}")

    def act(self, observation, info):
        return Action.complete()


@pytest.mark.parametrize("agent, message", [
    ("no.such.module:Agent", "cannot load agent 'no.such.module:Agent': ModuleNotFoundError"),
    (f"{__name__}:Missing", "cannot load agent .*AttributeError"),
    (f"{__name__}:NoInterface", r"has no reset\(\) or act\(\)"),
    (f"{__name__}:BrokenConstructor", "cannot build agent .*ValueError: no model for settings-turn-airplane-mode"),
])
def test_a_bad_agent_stops_the_batch_before_any_episode(tmp_path, agent, message) -> None:
    jobs = [Job(t, agent, s) for t in TASKS for s in range(2)]
    with pytest.raises(MobileGymError, match=message):
        run_batch(jobs, tmp_path / "run")
    assert not (tmp_path / "run").exists()  # not even an empty run folder


class Switchable(Agent):
    """COMPLETE at once, but raises on odd seeds while ``broken`` (a flaky backend)."""

    broken = True

    def __init__(self, seed):
        self.seed = seed

    def act(self, observation, info):
        if Switchable.broken and self.seed % 2:
            raise ConnectionError("model server down")
        return Action.complete()


def test_resume_reruns_error_rows_in_place_unless_they_are_kept(tmp_path, monkeypatch) -> None:
    jobs = [Job(TASKS[0], f"{__name__}:Switchable", s) for s in range(4)]
    first = run_batch(jobs, tmp_path)
    assert sorted(r["seed"] for r in first if r["error"]) == [1, 3]
    fine_lines = [line for line in (tmp_path / EPISODES_FILE).read_text().splitlines() if '"error": null' in line]
    monkeypatch.setattr(Switchable, "broken", False)
    kept = run_batch(jobs, tmp_path, resume=True, retry_errors=False)
    assert kept == first  # nothing ran again
    records = run_batch(jobs, tmp_path, resume=True)
    on_disk = read_episodes(tmp_path / EPISODES_FILE)
    assert keys(records) == keys(on_disk) == sorted(j.key for j in jobs)  # one row per episode, never two
    assert all(r["error"] is None for r in on_disk)
    assert (tmp_path / EPISODES_FILE).read_text().splitlines()[:2] == fine_lines  # untouched, in order
    assert run_batch(jobs, tmp_path, resume=True) == records  # nothing left to do


def test_resume_reruns_an_episode_whose_trace_a_kill_left_half_written(tmp_path) -> None:
    job = Job(TASKS[0], "oracle", 0)
    stale = tmp_path / TRACES_DIR / trace_dir_name(job.task, job.agent, job.seed) / "captured_data"
    stale.mkdir(parents=True)
    (stale / "0.png").write_bytes(b"torn")
    (tmp_path / EPISODES_FILE).write_text("")  # the run was killed before this episode was recorded
    record, = run_batch([job], tmp_path, resume=True, save_traces=True)
    assert record["error"] is None and record["success"]
    assert not (stale / "0.png").exists()


class DictActions(Agent):
    """Returns samples of the env's Dict action space, as a policy trained on it would."""

    def __init__(self):
        self.plan = [ActionType.BACK, ActionType.COMPLETE]

    def act(self, observation, info):
        kind = self.plan.pop(0)
        return {"action_type": int(kind), "touch": np.array([0.5, 0.5], dtype=np.float32),
                "lift": np.array([0.5, 0.5], dtype=np.float32), "text": ""}


def test_gym_action_dicts_are_converted(tmp_path) -> None:
    record, = run_batch([Job(TASKS[0], f"{__name__}:DictActions", 0)], tmp_path)
    assert record["error"] is None
    assert record["steps"] == 2 and record["terminated_by"] == "complete" and record["false_finish"]


class FakeClock:
    """A ``time.perf_counter`` that only the agent below moves."""

    now = 0.0

    def __call__(self) -> float:
        return self.now


CLOCK = FakeClock()


class SlowThinker(Agent):
    """Takes two seconds of the fake clock per decision: BACK, then COMPLETE."""

    def __init__(self):
        self.plan = [Action.back(), Action.complete()]

    def act(self, observation, info):
        CLOCK.now += 2.0
        return self.plan.pop(0)


def test_agent_time_is_recorded_apart_from_env_time(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(time, "perf_counter", CLOCK)
    record, = run_batch([Job(TASKS[0], f"{__name__}:SlowThinker", 0)], tmp_path)
    assert record["error"] is None and record["steps"] == 2
    assert record["act_latency"] == 2.0 and record["step_latency"] == 0.0


def test_a_torn_last_line_is_dropped_and_a_torn_middle_line_is_an_error(tmp_path) -> None:
    path = tmp_path / EPISODES_FILE
    path.write_text('{"task": "a", "agent": "x", "seed": 0}\n{"task": "b", "ag')
    assert [r["task"] for r in read_episodes(path)] == ["a"]
    assert path.read_text() == '{"task": "a", "agent": "x", "seed": 0}\n'
    path.write_text('{"task": "a"\n{"task": "b", "agent": "x", "seed": 0}\n')
    with pytest.raises(MobileGymError, match="line 1 is not JSON"):
        read_episodes(path)


def test_a_record_counts_once_its_line_ends(tmp_path) -> None:
    """A full disk can write a whole record but its line feed: the next append would join
    the two lines into one that is not JSON."""
    path = tmp_path / EPISODES_FILE
    path.write_text('{"task": "a", "agent": "x", "seed": 0}\n{"task": "b", "agent": "x", "seed": 1}')
    assert [r["task"] for r in read_episodes(path)] == ["a"]
    assert path.read_text() == '{"task": "a", "agent": "x", "seed": 0}\n'


@pytest.mark.parametrize("line, problem", [(b"\xff\xfe{}", "is not JSON"), (b"[1, 2]", "is not an episode record"),
                                           (b'{"task": "a"}', "is not an episode record")],
                         ids=["not UTF-8", "a list", "no agent or seed"])
def test_a_line_that_is_no_record_is_a_format_error(tmp_path, line, problem) -> None:
    path = tmp_path / EPISODES_FILE
    path.write_bytes(line + b'\n{"task": "b", "agent": "x", "seed": 0}\n')
    with pytest.raises(FormatError, match=f"line 1 {problem}"):
        read_episodes(path)


@pytest.mark.slow
def test_resume_after_kill_minus_nine_finishes_every_episode_exactly_once(tmp_path) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-m", "mobile_gym", "run", "--agent", "oracle", "--tasks", "settings-*",
               "--seeds", "2", "--workers", "2", "--out", str(out)]
    rng = np.random.default_rng(7)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for attempt in range(3):  # killed at random moments, then resumed
        proc = subprocess.Popen(command + (["--resume"] if attempt else []), cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        wait = float(rng.uniform(0.5, 3.0))
        while time.monotonic() < deadline and proc.poll() is None:
            lines = (out / EPISODES_FILE).read_text().count("\n") if (out / EPISODES_FILE).exists() else 0
            if lines >= 1 and wait <= 0:
                break
            time.sleep(0.05)
            wait -= 0.05
        os.killpg(proc.pid, signal.SIGKILL)  # the runner and its workers
        proc.wait()
    done = subprocess.run(command + ["--resume"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    records = read_episodes(out / EPISODES_FILE)
    assert len(records) == len(set(keys(records))) == 18  # 9 settings tasks x 2 seeds, each once
    assert all(json.loads(line) for line in (out / EPISODES_FILE).read_text().splitlines())


def test_success_step_and_over_execution_when_episodes_go_on_after_success(tmp_path) -> None:
    keep_going = {"terminate_on_success": False}
    oracle, = run_batch([Job(TASKS[0], "oracle", 0)], tmp_path / "o", env_kwargs=keep_going)
    assert oracle["success_step"] == oracle["golden_steps"] and oracle["terminated_by"] == "complete"
    assert not oracle["over_execution"] and not oracle["false_finish"]  # it stopped right away
    busy, = run_batch([Job(TASKS[0], f"{__name__}:KeepsGoing", 0)], tmp_path / "b", env_kwargs=keep_going)
    assert busy["success"] and busy["over_execution"]


class KeepsGoing(Agent):
    """The golden path, then two more BACKs before declaring COMPLETE."""

    def __init__(self, task):
        from mobile_gym.agents import OracleAgent

        self.oracle, self.extra = OracleAgent(task), 0

    def act(self, observation, info):
        action = self.oracle.act(observation, info)
        if action.action_type.name == "COMPLETE" and self.extra < 2:
            self.extra += 1
            return Action.back()
        return action
