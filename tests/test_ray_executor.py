"""`mobile-gym run --executor ray`: episodes on a Ray cluster (one started here, two CPUs,
declaring two loopback fake phones as ``phone:SERIAL`` resources) record what the process
pool records, job by job; a worker killed mid-episode costs a retry, then an error row;
a driver killed mid-run is finished by ``--resume``; phones are driven by actors placed on
the node that declares them. The agents the workers run are in ``tests/`` (this module's,
and ``test_runner_faults:Hangs``), which is on the cluster's workers' path."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from mobile_gym.agents import Agent, OracleAgent  # noqa: E402
from mobile_gym.cli import main  # noqa: E402
from mobile_gym.devices.fake import FakePhoneServer  # noqa: E402
from mobile_gym.errors import ConfigError  # noqa: E402
from mobile_gym.runner import Job, run_batch  # noqa: E402
from mobile_gym.runner import ray_pool  # noqa: E402
from mobile_gym.runner.batch import EPISODES_FILE, TRACES_DIR, read_episodes  # noqa: E402
from mobile_gym.tasks.suite import simulator_tasks  # noqa: E402
from fake_phones import count_actions  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.*")]

TESTS = Path(__file__).resolve().parent
SERIAL, OTHER = "emulator-5554", "emulator-5556"
TIMING = ("wall_time", "step_latency", "act_latency")  # what differs between any two runs


@pytest.fixture(scope="module")
def cluster():
    """A local Ray of two CPUs whose node has two phones; its address, for drivers in
    other processes."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"  # nothing leaves the machine
    context = ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING",
                       resources=ray_pool.phone_resources([SERIAL, OTHER]),
                       runtime_env={"env_vars": {"PYTHONPATH": str(TESTS)}})  # this module's agents
    try:
        yield context.address_info["gcs_address"]
    finally:
        ray.shutdown()


def same_records(records: list[dict]) -> dict[tuple, dict]:
    return {(r["task"], r["agent"], r["seed"]): {k: v for k, v in r.items() if k not in TIMING} for r in records}


def trace_files(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((out / TRACES_DIR).rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_the_simulator_suite_on_ray_equals_the_process_pool_job_by_job(cluster, tmp_path) -> None:
    jobs = [Job(task, agent, 0) for task in sorted(simulator_tasks()) for agent in ("oracle", "random")]
    pooled = run_batch(jobs, tmp_path / "pool", workers=2, save_traces=True, trace_screenshots="observation")
    on_ray = run_batch(jobs, tmp_path / "ray", workers=2, save_traces=True, trace_screenshots="observation",
                       executor="ray")
    assert len(on_ray) == len(jobs) and same_records(on_ray) == same_records(pooled)
    assert sum(r["success"] for r in on_ray) >= len(jobs) // 2  # the oracle's episodes succeed
    assert trace_files(tmp_path / "ray") == trace_files(tmp_path / "pool")


def test_traces_written_on_another_node_come_back_whole(cluster, tmp_path, monkeypatch) -> None:
    """A worker on another node than the driver's writes its trace there and sends it back
    packed: the run's records and trace files are the process pool's."""
    jobs = [Job(task, "oracle", seed) for task in ("settings-turn-off-wifi", "bestbuy-empty-cart")
            for seed in (0, 1)]
    pooled = run_batch(jobs, tmp_path / "pool", workers=2, save_traces=True, trace_screenshots="observation")
    monkeypatch.setattr(ray_pool, "_through_client", lambda ray: True)  # the driver on no node of the cluster
    shipped = run_batch(jobs, tmp_path / "shipped", workers=2, save_traces=True, trace_screenshots="observation",
                        executor="ray")
    assert same_records(shipped) == same_records(pooled) and all(r["success"] for r in shipped)
    assert trace_files(tmp_path / "shipped") == trace_files(tmp_path / "pool")
    assert len({p.name for p in (tmp_path / "shipped" / TRACES_DIR).iterdir()}) == len(jobs)


class DiesMidEpisode(Agent):
    """Kills its own worker process at its second action: on seed 1 only the first time
    (a marker file remembers), on seed 2 every time."""

    def __init__(self, task, seed, marks: str = ""):
        self.task, self.seed, self.marks, self.acts = task, seed, Path(marks), 0
        self.oracle = OracleAgent(task)

    def reset(self, seed):
        self.oracle.reset(seed)

    def act(self, observation, info):
        self.acts += 1
        if self.acts == 2 and self.seed in (1, 2):
            mark = self.marks / f"seed{self.seed}"
            if self.seed == 2 or not mark.exists():
                mark.touch()
                os.kill(os.getpid(), signal.SIGKILL)
        return self.oracle.act(observation, info)


def test_a_killed_worker_costs_a_retry_then_an_error_row_and_nothing_is_lost_or_doubled(cluster, tmp_path) -> None:
    jobs = [Job("settings-turn-off-wifi", "test_ray_executor:DiesMidEpisode", seed) for seed in range(4)]
    records = run_batch(jobs, tmp_path / "out", workers=2, executor="ray", agent_options={"marks": str(tmp_path)})
    on_file = read_episodes(tmp_path / "out" / EPISODES_FILE)
    assert sorted(r["seed"] for r in on_file) == [0, 1, 2, 3] and len(records) == 4
    by_seed = {r["seed"]: r for r in on_file}
    assert all(by_seed[s]["error"] is None and by_seed[s]["success"] for s in (0, 1, 3))  # seed 1 on its retry
    error = by_seed[2]["error"]
    assert error["kind"] == "WorkerDied" and "on each of 2 tries" in error["message"]
    assert not by_seed[2]["success"]


@pytest.mark.slow
def test_an_episode_past_its_timeout_on_ray_is_an_error_row_and_the_run_goes_on(cluster, tmp_path) -> None:
    jobs = [Job("settings-turn-off-wifi", "test_runner_faults:Hangs", seed) for seed in range(3)]
    records = run_batch(jobs, tmp_path, workers=2, executor="ray", episode_timeout=5)
    errors = {r["seed"]: r["error"] for r in records if r["error"] is not None}
    assert list(errors) == [1] and errors[1]["kind"] == "EpisodeTimeout" and "no result after 5 s" in errors[1]["message"]
    assert len(read_episodes(tmp_path / EPISODES_FILE)) == 3


def launch(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mobile_gym", *args], cwd=TESTS, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(TESTS.parent)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_resume_finishes_a_run_whose_driver_was_killed(cluster, tmp_path) -> None:
    """The driver (``mobile-gym run`` connected to the cluster) killed with SIGKILL after a
    few episodes; ``--resume`` runs the rest, and every episode is on file once."""
    argv = ["run", "--agent", "random", "--tasks", "settings-*", "--seeds", "2", "--executor", "ray",
            "--address", cluster, "--workers", "2", "--out", str(tmp_path), "--save-traces"]
    proc = launch(*argv)
    path = tmp_path / EPISODES_FILE
    while proc.poll() is None and (not path.exists() or path.read_bytes().count(b"\n") < 3):
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    proc.kill()
    proc.communicate()
    before = read_episodes(path)
    proc = launch(*argv, "--resume")
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    after = read_episodes(path)
    expected = {(t, s) for t in simulator_tasks() if t.startswith("settings-") for s in (0, 1)}
    assert sorted((r["task"].split("/")[1][:-3], r["seed"]) for r in after) == sorted(expected)
    assert [r for r in after[:len(before)]] == before  # what was on file stays as it was
    traces = {p.name for p in (tmp_path / TRACES_DIR).iterdir() if not p.name.startswith(".")}
    assert len(traces) == len(expected)


def test_phones_are_driven_by_actors_on_the_node_that_declares_them(cluster, tmp_path, capsys) -> None:
    jobs = [Job("settings-turn-off-wifi", "oracle", seed) for seed in range(4)]
    with FakePhoneServer(serials=(SERIAL, OTHER), dynamics="default") as fake:
        taps = count_actions(fake, (SERIAL, OTHER))
        # no serial named: every phone the cluster declares, through the command line (one
        # episode each, from the phone as it is)
        code = main(["run", "--agent", "oracle", "--tasks", "settings-turn-off-wifi", "--seeds", "2", "--backend",
                     "device", "--adb-port", str(fake.port), "--executor", "ray", "--out", str(tmp_path / "cli")])
        assert code == 0, capsys.readouterr().err
        assert all(r["success"] for r in read_episodes(tmp_path / "cli" / EPISODES_FILE))
        assert taps[SERIAL] > 0 and taps[OTHER] > 0

        taps.update({SERIAL: 0, OTHER: 0})
        for serial in taps:
            fake.device(serial).reset(0, {})
            fake.phone(serial).save_snapshot("start")  # the episodes all start here: Wi-Fi on
        env_kwargs = {"backend": "device", "adb_port": fake.port, "snapshot": "start"}
        devices = [{"serial": s, "console_port": fake.console_port(s)} for s in (SERIAL, OTHER)]
        records = run_batch(jobs, tmp_path / "named", env_kwargs=env_kwargs, devices=devices, executor="ray")
        assert [r["error"] for r in records] == [None] * 4 and all(r["success"] for r in records)
        assert taps[SERIAL] > 0 and taps[OTHER] > 0  # both phones worked

    with pytest.raises(ConfigError, match="no node of the Ray cluster declares phone:emulator-9999"):
        run_batch(jobs, tmp_path / "missing", env_kwargs=env_kwargs, devices=[{"serial": "emulator-9999"}],
                  executor="ray")


def test_ray_options_that_do_not_fit_are_usage_errors(tmp_path, capsys) -> None:
    assert main(["run", "--agent", "oracle", "--address", "auto", "--out", str(tmp_path)]) == 2
    assert "goes with executor='ray'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit:
        main(["run", "--agent", "oracle", "--executor", "dask", "--out", str(tmp_path)])
    assert exit.value.code == 2 and "invalid choice: 'dask'" in capsys.readouterr().err


def test_without_ray_the_executor_says_how_to_install_it(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails
    assert main(["run", "--agent", "oracle", "--tasks", "settings-turn-off-wifi", "--executor", "ray",
                 "--out", str(tmp_path)]) == 2
    assert "the Ray executor needs Ray: pip install 'mobile-gym[ray]'" in capsys.readouterr().err
