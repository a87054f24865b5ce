"""The batch runner under faults: hung episodes, dead workers, kills, Ctrl-C, a full disk
and hostile text. Whatever happens, a run ends, records every episode once, and an
error is never a success. Subprocess tests play the user at a terminal; the agents they
use are in this module (imported from ``tests/``, the subprocess's working directory)."""

from __future__ import annotations

import csv
import faulthandler
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import lxml.html
import numpy as np
import pytest

from mobile_gym.actions import Action
from mobile_gym.agents import Agent, OracleAgent
from mobile_gym.cli import main
from mobile_gym.formats.agentenv import iter_traces, read_trace
from mobile_gym.runner import Job, run_batch
from mobile_gym.runner.batch import EPISODES_FILE, PARTIAL_DIR, TRACES_DIR, read_episodes, trace_dir_name
from mobile_gym.runner.metrics import summarize
from mobile_gym.report_text import MAX_MESSAGE

TESTS = Path(__file__).resolve().parent
TASK = "settings-turn-off-wifi"


def keys(records: list[dict]) -> list[tuple]:
    return sorted((r["task"], r["agent"], r["seed"]) for r in records)


def errors(records: list[dict]) -> dict[int, tuple[str, str]]:
    return {r["seed"]: (r["error"]["kind"], r["error"]["message"]) for r in records if r["error"] is not None}


def launch(*args: str, output: int = subprocess.PIPE) -> subprocess.Popen:
    """``mobile-gym`` in its own process group, from ``tests/`` (so ``module:Class`` finds this file).

    It starts with SIGINT as a terminal's programs have it: a suite run as a background job
    (``make test &``, many CI runners) inherits SIGINT ignored, and so would the run."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen([sys.executable, "-m", "mobile_gym", *args], cwd=TESTS, start_new_session=True,
                                env={**os.environ, "PYTHONPATH": str(TESTS.parent)},
                                stdout=output, stderr=output, text=True)
    finally:
        signal.signal(signal.SIGINT, previous)


def wait_for_records(out: Path, n: int, proc: subprocess.Popen) -> None:
    path = out / EPISODES_FILE
    while proc.poll() is None and (not path.exists() or path.read_bytes().count(b"\n") < n):
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate() if proc.stdout else proc.returncode


# -- hangs and dead workers -------------------------------------------------------------------

class Hangs(Agent):
    """Sleeps for an hour on seed 1 (an agent stuck in a call that never returns)."""

    def __init__(self, seed):
        self.seed = seed

    def act(self, observation, info):
        if self.seed == 1:
            time.sleep(3600)
        return Action.complete()


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_a_hung_episode_times_out_and_the_run_goes_on(tmp_path, workers) -> None:
    jobs = [Job(TASK, f"{__name__}:Hangs", s) for s in range(4)]
    records = run_batch(jobs, tmp_path, workers=workers, episode_timeout=5)
    assert keys(records) == keys(read_episodes(tmp_path / EPISODES_FILE)) == sorted(j.key for j in jobs)
    assert errors(records) == {1: ("EpisodeTimeout", "no result after 5 s: the worker was killed")}
    assert all(r["terminated_by"] == "complete" for r in records if r["seed"] != 1)
    assert mp.active_children() == []  # the hung worker was killed, the others stopped


def interrupt():
    raise KeyboardInterrupt  # as the agent's own code may (the user's Ctrl-C is the runner's)


def segfault():
    faulthandler.disable()  # pytest's, inherited: it would print every thread's stack first
    os.kill(os.getpid(), signal.SIGSEGV)


DEATHS = {
    1: (lambda: sys.exit(3), "the worker exited with code 3 (SystemExit: 3 raised in the job)"),
    2: (lambda: os._exit(5), "the worker exited with code 5"),
    3: (lambda: interrupt(), "the worker exited with code 1 (KeyboardInterrupt raised in the job)"),
    4: (lambda: os.kill(os.getpid(), signal.SIGKILL), "the worker was killed by SIGKILL"),
    5: (lambda: segfault(), "the worker was killed by SIGSEGV"),
}


class Dies(Agent):
    """Takes its worker down, each seed in its own way (seeds 0 and 6 finish)."""

    def __init__(self, seed):
        self.seed = seed

    def act(self, observation, info):
        if self.seed in DEATHS:
            DEATHS[self.seed][0]()
        return Action.complete()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_dead_worker_costs_its_episode_and_is_replaced(tmp_path, workers) -> None:
    jobs = [Job(TASK, f"{__name__}:Dies", s) for s in range(7)]
    records = run_batch(jobs, tmp_path, workers=workers)
    assert keys(records) == keys(read_episodes(tmp_path / EPISODES_FILE)) == sorted(j.key for j in jobs)
    assert errors(records) == {seed: ("WorkerDied", message) for seed, (_, message) in DEATHS.items()}
    assert not any(r["success"] for r in records) and mp.active_children() == []


@pytest.mark.slow
def test_ctrl_c_stops_the_workers_and_keeps_finished_episodes(tmp_path) -> None:
    """A terminal's Ctrl-C goes to the whole process group: the workers must leave it to the runner."""
    out = tmp_path / "run"
    run = ["run", "--agent", f"{__name__}:SlowOracle", "--tasks", TASK, "--seeds", "6", "--workers", "2",
           "--out", str(out)]
    proc = launch(*run)
    wait_for_records(out, 1, proc)
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted: finished episodes are kept" in stderr
    assert "Traceback" not in stderr, stderr
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # no worker left behind
    kept = read_episodes(out / EPISODES_FILE)
    assert 1 <= len(kept) < 6 and all(r["success"] for r in kept)
    assert main(run + ["--resume"]) == 0
    assert keys(read_episodes(out / EPISODES_FILE)) == sorted(Job(TASK, run[2], s).key for s in range(6))


# -- kills with traces ------------------------------------------------------------------------

class SlowOracle(Agent):
    """The oracle, thinking 0.4 s per move (so that a kill finds episodes in flight)."""

    def __init__(self, task):
        self.oracle = OracleAgent(task)

    def act(self, observation, info):
        time.sleep(0.4)
        return self.oracle.act(observation, info)


@pytest.mark.slow
def test_resume_after_the_runner_alone_is_killed_leaves_one_complete_trace_per_episode(tmp_path) -> None:
    """kill -9 of the runner alone: its workers live on, finish their episodes and write
    their traces while the resumed run reruns the same episodes."""
    out = tmp_path / "run"
    run = ["run", "--agent", f"{__name__}:SlowOracle", "--tasks", TASK, "--seeds", "4", "--workers", "2",
           "--save-traces", "--out", str(out)]
    proc = launch(*run, output=subprocess.DEVNULL)  # the orphaned workers would hold a pipe open
    wait_for_records(out, 1, proc)
    proc.kill()
    proc.wait()
    assert main(run + ["--resume"]) == 0
    records = read_episodes(out / EPISODES_FILE)
    assert keys(records) == sorted(Job(TASK, run[2], s).key for s in range(4))
    assert all(r["error"] is None and r["success"] for r in records), errors(records)
    traces = out / TRACES_DIR
    names = sorted(trace_dir_name(r["task"], r["agent"], r["seed"]) for r in records)
    assert [name for name, _ in iter_traces(traces)] == names
    for r in records:
        trace = read_trace(traces / trace_dir_name(r["task"], r["agent"], r["seed"]))
        assert len(trace) == r["steps"] + 1 and trace.states[-1].action is None


def test_resume_drops_traces_of_unrecorded_episodes_and_half_written_ones(tmp_path) -> None:
    """What a kill can leave: a trace renamed into place whose record was never written,
    and a trace still being written."""
    jobs = [Job(TASK, "oracle", s) for s in range(2)]
    first = run_batch(jobs, tmp_path, save_traces=True)
    lines = (tmp_path / EPISODES_FILE).read_text().splitlines(keepends=True)
    (tmp_path / EPISODES_FILE).write_text(lines[0])  # the second record was never written ...
    traces = tmp_path / TRACES_DIR
    unrecorded = traces / trace_dir_name(TASK, "oracle", 1)
    (unrecorded / "captured_data" / "xml" / "99.xml").write_text("<hierarchy/>")  # ... and its trace is stale
    half = traces / PARTIAL_DIR / f"{trace_dir_name(TASK, 'oracle', 1)}.x1" / "captured_data" / "screenshot"
    half.mkdir(parents=True)
    (half / "0.png").write_bytes(b"\x89PNG torn")
    records = run_batch(jobs, tmp_path, resume=True, save_traces=True)
    assert keys(records) == keys(first) and all(r["success"] for r in records)
    assert not (unrecorded / "captured_data" / "xml" / "99.xml").exists()
    assert len(read_trace(unrecorded)) == records[1]["steps"] + 1
    assert not (traces / PARTIAL_DIR).exists()


# -- errors are never successes; a full disk stops the run cleanly ----------------------------

class MetersBroken(Agent):
    """Completes the task, then fails when the runner reads its usage (after the verdicts)."""

    def __init__(self, task):
        self.oracle = OracleAgent(task)

    def act(self, observation, info):
        return self.oracle.act(observation, info)

    @property
    def usage(self):
        raise RuntimeError("usage meter down")


def test_an_error_after_success_is_not_a_success(tmp_path) -> None:
    record, = run_batch([Job(TASK, f"{__name__}:MetersBroken", 0)], tmp_path)
    assert record["error"] == {"kind": "RuntimeError", "message": "usage meter down"}
    verdicts = (record["success"], record["oracle_success"], record["progress"], record["matched"])
    assert verdicts == (False, False, 0.0, {})
    assert record["steps"] == 0 and record["act_latency"] is not None  # what it did is timed, not judged


LIMITED_RUN = """\
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG instead
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from mobile_gym.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("traces, limit, culprit", [
    (False, 2000, "cannot append to .*episodes.jsonl: File too large"),  # a few records fit
    (True, 4000, r"cannot write the trace .*\.partial.*: File too large"),  # no screenshot fits
], ids=["episodes.jsonl", "traces"])
def test_a_full_disk_stops_the_run_cleanly_and_resume_finishes_it(tmp_path, traces, limit, culprit) -> None:
    import re

    out = tmp_path / "run"
    run = ["run", "--agent", "oracle", "--tasks", TASK, "--seeds", "6", "--out", str(out)]
    run += ["--save-traces"] if traces else []
    done = subprocess.run([sys.executable, "-c", LIMITED_RUN, str(limit), *run], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert re.search(f"mobile-gym run: stopped, {culprit}; .* then run again with --resume", done.stderr), done.stderr
    kept = read_episodes(out / EPISODES_FILE)  # drops the line the limit cut short
    assert len(kept) < 6 and all(r["error"] is None and r["success"] for r in kept)
    assert main(run + ["--resume"]) == 0
    records = read_episodes(out / EPISODES_FILE)
    assert keys(records) == sorted(Job(TASK, "oracle", s).key for s in range(6))
    assert all(r["error"] is None and r["success"] for r in records)
    if traces:
        assert len(list(iter_traces(out / TRACES_DIR))) == 6 and not (out / TRACES_DIR / PARTIAL_DIR).exists()


# -- any text -----------------------------------------------------------------------------------

HOSTILE = "lone \ud800 surrogate, NUL \x00, bell \x07, escape \x1b[2J, CR \r" + "x" * 100_000


class Hostile(Agent):
    """Raises with a message no file or terminal accepts as is, on odd seeds."""

    def __init__(self, seed):
        self.seed = seed

    def act(self, observation, info):
        if self.seed % 2:
            raise ValueError(HOSTILE)
        return Action.complete()


def test_any_error_text_survives_every_report_and_resume(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    run = ["run", "--agent", f"{__name__}:Hostile", "--tasks", TASK, "--seeds", "2", "--out", str(out)]
    for args in (run, run + ["--resume", "--keep-errors"], run + ["--resume"]):
        assert main(args) == 0
        printed = capsys.readouterr().out
        assert "1 x ValueError: lone \\ud800 surrogate, NUL \\x00, bell \\x07, escape \\x1b[2J, CR" in printed
        assert "| all | 2 | 1 | 0.00 |" in printed  # errors count as failures
    error, = [r["error"] for r in read_episodes(out / EPISODES_FILE) if r["error"]]
    assert error["message"].startswith(HOSTILE[:50])  # kept as raised in the record ...
    assert len(error["message"]) < MAX_MESSAGE + 40  # ... up to a length
    with open(out / "episodes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows[1]["error"].startswith("lone \\ud800 surrogate, NUL \\x00") and rows[1]["success"] == "False"
    doc = lxml.html.fromstring((out / "report.html").read_text(encoding="utf-8"))
    assert "lone \\ud800 surrogate" in doc.xpath("string(//pre[@class='error'])")
    assert json.loads((out / "summary.json").read_text())["overall"]["error_kinds"] == {"ValueError": 1}


class OddUsage(Agent):
    """Reports its usage in numpy numbers and objects no JSON holds."""

    usage = {"tokens": np.int64(7), "cost": object()}

    def act(self, observation, info):
        return Action.complete()


def test_agent_usage_of_any_type_is_recorded_as_plain_numbers(tmp_path) -> None:
    record, = run_batch([Job(TASK, f"{__name__}:OddUsage", 0)], tmp_path)
    assert record["error"] is None and (record["tokens"], record["cost"]) == (7, None)
    assert read_episodes(tmp_path / EPISODES_FILE) == [record]


@pytest.mark.parametrize("option", [["--episode-timeout", "-1"], ["--episode-timeout", "soon"],
                                    ["--workers", "0"], ["--seeds", "-2"]])
def test_bad_numbers_are_usage_errors(tmp_path, capsys, option) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["run", "--agent", "oracle", "--tasks", TASK, "--out", str(tmp_path / "run"), *option])
    assert exit_.value.code == 2 and f"argument {option[0]}" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_the_episode_timeout_option_reaches_the_runner(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    assert main(["run", "--agent", f"{__name__}:Hangs", "--tasks", TASK, "--seeds", "2", "--episode-timeout", "4",
                 "--out", str(out)]) == 0
    assert "1 x EpisodeTimeout: no result after 4 s: the worker was killed" in capsys.readouterr().out


@pytest.mark.slow
def test_the_runner_loads_the_embedding_model_once_before_forking_its_workers(tmp_path):
    """A fuzzy task's model loads in the runner, so workers inherit it instead of each
    spending 5-10 s of its first episode's timeout on it (and again after every restart)."""
    code = (
        "from mobile_gym.runner import Job, run_batch\n"
        "from mobile_gym.matcher import shared_embedder\n"
        f"run_batch([Job('clock-trace-tokyo-time', 'oracle', 0)], {str(tmp_path)!r})\n"
        "print(shared_embedder().loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True"]


# -- whatever an agent records ----------------------------------------------------------------

class RecordsAnything(Agent):
    """Keeps steps no JSON encoder takes as they are (numpy numbers and arrays, bytes, sets,
    a huge integer, NaN, objects, a lone surrogate) and usage far out of any range."""

    name = "keeps-anything"

    def __init__(self):
        self.steps = []
        self.usage = {"tokens_in": 10**400, "tokens_out": np.int64(3), "cost": float("inf"), "calls": -1,
                      "model_time": True}

    def act(self, observation, info):
        self.steps.append({"score": np.float32(0.5), "index": np.int64(4), "raw": b"\xff\x00ok", "seen": {"b", "a"},
                           "pixels": observation["screenshot"], "big": 10**5000, "nan": float("nan"),
                           "obj": object(), (1, 2): "tuple key", "reply": "caf\udce9", "long": "x" * 50_000})
        return Action.complete()


def test_anything_an_agent_records_is_stored_and_never_loses_the_run(tmp_path) -> None:
    record, = run_batch([Job(TASK, f"{__name__}:RecordsAnything", 0)], tmp_path, save_traces=True)
    assert record["error"] is None and record["agent_name"] == "keeps-anything"
    step, = record["agent_steps"]
    assert step["score"] == 0.5 and step["index"] == 4 and step["raw"] == "\\xff\x00ok" and step["seen"] == ["a", "b"]
    assert step["big"] is None and step["nan"] is None and step["obj"].startswith("<object object")
    assert step["pixels"].startswith("(array of shape") and step["[1, 2]"] == "tuple key"
    assert len(step["long"]) < 10_100 and step["long"].endswith("(40000 more characters)")
    assert (record["tokens_in"], record["tokens_out"], record["cost"], record["calls"]) == (None, 3, None, None)
    assert record.get("model_time") is None
    assert read_episodes(tmp_path / EPISODES_FILE) == [record]  # the line is plain JSON, read back the same
    kept = json.loads((tmp_path / TRACES_DIR / trace_dir_name(TASK, record["agent"], 0) / "agent_steps.json")
                      .read_bytes())
    assert kept == record["agent_steps"] and kept[0]["reply"] == "caf\udce9"
    summary = summarize([record])  # the reports call the agent by its own name
    assert list(summary["by_agent"]) == ["keeps-anything"]


class MovesAway(Agent):
    """Changes the working directory, as an agent that saves files of its own might."""

    def __init__(self, seed):
        self.seed = seed
        os.chdir(os.environ["MOVE_TO"])

    def act(self, observation, info):
        os.chdir(os.environ["MOVE_TO"])
        return Action.complete()


def test_a_relative_out_holds_every_trace_when_the_agent_changes_directory(tmp_path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "start").mkdir()
    env = {**os.environ, "PYTHONPATH": f"{TESTS}{os.pathsep}{TESTS.parent}", "MOVE_TO": str(tmp_path / "elsewhere")}
    done = subprocess.run([sys.executable, "-m", "mobile_gym", "run", "--agent", f"{__name__}:MovesAway",
                           "--tasks", TASK, "--seeds", "2", "--save-traces", "--out", "run"],
                          cwd=tmp_path / "start", env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = tmp_path / "start" / "run"
    assert len(read_episodes(out / EPISODES_FILE)) == 2 and (out / "report.html").exists()
    assert sorted(p.name for p in (out / TRACES_DIR).iterdir()) == sorted(
        trace_dir_name(TASK, f"{__name__}:MovesAway", s) for s in range(2))
    assert list((tmp_path / "elsewhere").iterdir()) == []  # nothing written where the agent went
