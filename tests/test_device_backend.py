"""Envs on phones: ``gym.make(..., backend="device")`` driving the real adbutils and
uiautomator2 against the loopback fake phone.

The fake phone is the simulator behind an adb server, so a task on it must be judged
exactly as on ``backend="sim"``: every simulator task, with the oracle agent and a seeded
random agent, gives the same screens, rewards and verdicts. The phone starts each episode
from an emulator snapshot holding the state ``reset(seed)`` starts the simulator in, as a
user would save one for a task. Also here: tasks judged by a LlamaTouch dataset (those
without a simulator definition run this way), the emulator console, and the runner on
several phones, a phone that stalls costing one error row.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shlex
import socket
import xml.etree.ElementTree as ET

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env
from PIL import Image

from mobile_gym.actions import Action
from mobile_gym.agents import OracleAgent, RandomAgent
from mobile_gym.cli import main
from mobile_gym.compat import AgentEnv
from mobile_gym.devices.android import AndroidConfig, AndroidDevice
from mobile_gym.devices.emulator_console import EmulatorConsole, console_port, load_snapshot
from mobile_gym.devices.fake import FakePhoneServer
from mobile_gym.env import MobileEnv, device_seed, phone_setup, resolve_task, shared_matcher
from mobile_gym.errors import BackendUnavailableError, ConfigError, DeviceError
from mobile_gym.formats.agentenv import read_trace
from mobile_gym.formats.llamatouch import write_ground_truth
from mobile_gym.matcher import evaluate_trace
from mobile_gym.matcher.annotation import Keyword, Primitive
from mobile_gym.runner import Job, run_batch
from mobile_gym.simulator import SimulatedDevice
from mobile_gym.tasks.catalogue import llamatouch_catalogue
from mobile_gym.tasks.export import export_dataset
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.trace import Trace
from fake_phones import count_actions, fake_device, free_port

pytestmark = [pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]

SERIAL, OTHER = "emulator-5554", "emulator-5556"
FAST = AndroidConfig(call_timeout=2.0, connect_timeout=15.0, settle_timeout=1.0, poll_interval=0.01,
                    change_timeout=0.05)  # the fake shows every action at once
#: Two tasks for the quick subset: one launched by its setup, one from the home screen.
QUICK = ("settings-turn-off-wifi", "bestbuy-empty-cart")
#: Those and the first task of each app: the backend's equivalence is the device's, not the
#: task's (every task's own checks run on the simulator: test_oracle_runs, test_envs).
FIRST_OF_EACH_APP = {t.app_name: t.id for t in sorted(simulator_tasks().values(), key=lambda t: t.id, reverse=True)}
TASKS = sorted({*QUICK, *FIRST_OF_EACH_APP.values()})


@pytest.fixture(scope="module")
def server():
    with FakePhoneServer(serials=(SERIAL, OTHER), dynamics="default") as fake:
        yield fake


def save_start(server: FakePhoneServer, serial: str, task, seed: int, name: str = "start") -> None:
    """Save a snapshot of the state the simulator's ``reset(seed=seed)`` starts the task
    in, bar what the backend does itself at reset (launching the task's app)."""
    rng, _ = seeding.np_random(seed)
    held = {k: v for k, v in task.setup.items() if k != "launch"}
    server.device(serial).reset(device_seed(rng), held)
    server.phone(serial).save_snapshot(name)


def device_env(server: FakePhoneServer, task_id: str, serial: str = SERIAL, snapshot: str = "start",
               **kwargs) -> gym.Env:
    return gym.make(task_id, backend="device", serial=serial, adb_port=server.port, snapshot=snapshot,
                    console_port=server.console_port(serial), device_config=FAST, **kwargs)


def same_info(sim: dict, device: dict) -> None:
    assert device["oracle_success"] is None  # nothing reads a phone's app state
    assert {k: v for k, v in device.items() if k != "oracle_success"} == \
           {k: v for k, v in sim.items() if k != "oracle_success"}


def side_by_side(server: FakePhoneServer, task_id: str, seed: int, make_agent, **kwargs) -> tuple[dict, int]:
    """One episode on each backend, each with its own agent; everything compared step by
    step. Returns the simulator's last info and the steps taken."""
    task = simulator_tasks()[task_id]
    save_start(server, SERIAL, task, seed)
    sim, device = gym.make(task.env_id, **kwargs), device_env(server, task.env_id, **kwargs)
    try:
        (obs_s, info_s), (obs_d, info_d) = sim.reset(seed=seed), device.reset(seed=seed)
        agents = make_agent(task, seed), make_agent(task, seed)
        for agent in agents:
            agent.reset(seed)
        steps = 0
        while True:
            assert obs_d["view_hierarchy"] == obs_s["view_hierarchy"], f"step {steps}"
            # the phone's screenshot comes as a JPEG: the same picture, within its loss (up
            # to ~9 levels on average on the shops' busy pages; another screen is 30 and more)
            assert np.abs(obs_d["screenshot"].astype(int) - obs_s["screenshot"]).mean() < 16
            same_info(info_s, info_d)
            action = agents[0].act(obs_s, info_s)
            assert agents[1].act(obs_d, info_d) == action
            obs_s, reward_s, term_s, trunc_s, info_s = sim.step(action)
            obs_d, reward_d, term_d, trunc_d, info_d = device.step(action)
            steps += 1
            assert (reward_d, term_d, trunc_d) == (reward_s, term_s, trunc_s), f"step {steps}: {action}"
            if term_s or trunc_s:
                same_info(info_s, info_d)
                return info_s, steps
    finally:
        sim.close()
        device.close()


def oracle(task, seed):
    return OracleAgent(task)


def random_agent(task, seed):
    return RandomAgent(seed=seed, task=task)


# -- every simulator task: the same episode on the fake phone as on the simulator -----------

def _marks(task_id: str):
    return pytest.param(task_id, marks=() if task_id in QUICK else pytest.mark.slow)


@pytest.mark.parametrize("task_id", [_marks(t) for t in TASKS])
def test_the_oracle_solves_the_task_on_the_fake_phone_as_on_the_simulator(server, task_id: str) -> None:
    info, _ = side_by_side(server, task_id, TASKS.index(task_id), oracle)
    assert info["success"] and info["oracle_success"]


@pytest.mark.parametrize("task_id", [_marks(t) for t in TASKS])
def test_a_seeded_random_agent_gets_the_same_verdicts_on_the_fake_phone(server, task_id: str) -> None:
    _, steps = side_by_side(server, task_id, 100 + TASKS.index(task_id), random_agent)
    assert steps >= 1


def test_a_device_env_passes_the_env_checker(server) -> None:
    save_start(server, SERIAL, simulator_tasks()["settings-turn-off-wifi"], 0)
    env = device_env(server, "LlamaTouch/settings-turn-off-wifi-v0")
    try:
        check_env(env.unwrapped, skip_render_check=True)
    finally:
        env.close()


# -- set-up: what a phone can do at reset, and what needs a snapshot -------------------------

def test_without_a_snapshot_reset_stops_the_task_app_and_starts_it_again(server) -> None:
    env = gym.make("LlamaTouch/settings-turn-airplane-mode-v0", backend="device", serial=OTHER, adb_port=server.port,
                   device_config=FAST)  # its setup launches Settings
    try:
        first, info = env.reset(seed=0)
        assert info["activity"] == "com.android.settings/com.android.settings.Settings"
        deeper, *_ = env.step(Action.click(0.5, 0.3))  # into some page of Settings
        assert untimed(deeper) != untimed(first)
        again, info = env.reset(seed=1)  # Settings again, from its first page
        assert untimed(again) == untimed(first)
        env.step(Action.home())
        again, info = env.reset(seed=2)
        assert untimed(again) == untimed(first) and env.unwrapped.device.snapshot is None
    finally:
        env.close()
    wifi = gym.make("LlamaTouch/settings-turn-off-wifi-v0", backend="device", serial=OTHER, adb_port=server.port,
                    device_config=FAST)  # no setup: the home screen, Settings stopped
    try:
        _, info = wifi.reset(seed=0)
        assert info["activity"].startswith("com.google.android.apps.nexuslauncher/")
        assert "com.android.settings" not in server.phone(OTHER).running_packages()
    finally:
        wifi.close()


def untimed(obs: dict) -> str:
    """The dump without the status bar's clock: a phone's time goes on."""
    return re.sub(r'text="\d\d?:\d\d"', "", obs["view_hierarchy"])


def test_a_task_whose_start_adb_cannot_set_up_needs_a_snapshot(server) -> None:
    task = next(t for t in simulator_tasks().values() if "apps" in t.setup)
    with pytest.raises(ConfigError, match=r"starts from a state adb cannot set up \({'apps'.*snapshot=NAME"):
        gym.make(task.env_id, backend="device", serial=SERIAL, adb_port=server.port)
    assert phone_setup(task, "start") == {}  # the snapshot holds it all
    airplane = simulator_tasks()["settings-turn-airplane-mode"]
    assert phone_setup(airplane, None) == {"stop": ["com.android.settings"], "launch": "com.android.settings"}
    assert phone_setup(airplane, "start") == {"launch": "com.android.settings"}
    with pytest.raises(ConfigError, match="describe the simulated phone"):
        gym.make("LlamaTouch/settings-turn-off-wifi-v0", backend="device", adb_port=server.port, profile="pixel-3")


def test_each_reset_loads_the_snapshot_and_starts_uiautomator2_again(server) -> None:
    """A loaded snapshot holds no uiautomator2 server (the fake's load kills it, as the
    emulator's does): the backend starts one, and the episode goes on."""
    task = simulator_tasks()["settings-turn-off-wifi"]
    save_start(server, OTHER, task, 0, name="start-settings-turn-off-wifi")
    env = device_env(server, task.env_id, serial=OTHER, snapshot="start-{task}")  # one snapshot per task
    try:
        assert env.unwrapped.device.snapshot == "start-settings-turn-off-wifi"
        first, _ = env.reset(seed=0)
        servers = [server.phone(OTHER).u2_at(9008)]
        for seed in (1, 2):
            env.step(Action.click(0.5, 0.5))
            again, info = env.reset(seed=seed)
            assert again["view_hierarchy"] == first["view_hierarchy"] and info["steps"] == 0
            servers.append(server.phone(OTHER).u2_at(9008))
        assert len({id(s) for s in servers}) == 3 and all(s is not None for s in servers)
    finally:
        env.close()


def test_a_snapshot_that_is_not_there_fails_the_reset_with_a_device_error(server) -> None:
    env = device_env(server, "LlamaTouch/settings-turn-off-wifi-v0", serial=OTHER)
    env.unwrapped.device.snapshot = "never-saved"
    try:
        with pytest.raises(DeviceError, match=r"refused 'avd snapshot load never-saved': snapshot 'never-saved' "
                                              "does not exist"):
            env.reset(seed=0)
    finally:
        env.close()


# -- the emulator console ---------------------------------------------------------------------

def test_the_console_asks_for_the_token_and_loads_saved_snapshots() -> None:
    with FakePhoneServer(serials=(SERIAL,)) as fake:
        port = fake.console_port(SERIAL, token="s3cret")
        phone = fake.phone(SERIAL)
        phone.perform(Action.home())
        phone.save_snapshot("home")
        home = phone.xml()
        phone.launch("com.android.settings")
        assert phone.xml() != home
        load_snapshot("127.0.0.1", port, "home", timeout=5, token="s3cret")
        assert phone.xml() == home
        with EmulatorConsole("127.0.0.1", port, timeout=5, token="s3cret") as console:
            assert console.command("avd snapshot list")[1:] == ["home"]
        with pytest.raises(DeviceError, match=r"refused 'auth': authentication token does not match"):
            load_snapshot("127.0.0.1", port, "home", timeout=5, token="wrong")


def test_console_failures_are_device_errors_within_the_deadline() -> None:
    silent = socket.create_server(("127.0.0.1", 0))  # accepts, never answers
    try:
        with pytest.raises(DeviceError, match="did not answer 'connect' in time"):
            load_snapshot("127.0.0.1", silent.getsockname()[1], "x", timeout=0.5)
    finally:
        silent.close()
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(DeviceError, match="cannot reach the emulator console"):
        load_snapshot("127.0.0.1", port, "x", timeout=2)
    with pytest.raises(ConfigError, match="not a snapshot name"):
        AndroidDevice(SERIAL, snapshot="a b; reboot")
    assert console_port("emulator-5580") == 5580 and console_port("R58M123") is None
    assert console_port("emulator-99999") is None and console_port("emulator-" + "9" * 5000) is None


def test_snapshots_on_a_phone_that_is_no_emulator_are_refused(server) -> None:
    fake = FakePhoneServer(serials=("R58M41ABCDE",))
    try:
        device = AndroidDevice("R58M41ABCDE", adb_port=fake.port, config=FAST, snapshot="start")
        with pytest.raises(ConfigError, match="is not an emulator"):
            device.reset(0, {})
        device.close()
    finally:
        fake.close()


# -- tasks judged by a LlamaTouch dataset ----------------------------------------------------

@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The quick tasks written as a LlamaTouch dataset (format A) by export-dataset."""
    root = tmp_path_factory.mktemp("dataset")
    export_dataset(root, [simulator_tasks()[t] for t in QUICK])
    return root


def test_an_exported_dataset_drives_the_device_backend_end_to_end(server, exported) -> None:
    task = simulator_tasks()["settings-turn-off-wifi"]
    save_start(server, SERIAL, task, 5)
    env = device_env(server, task.env_id, dataset=exported)
    try:
        judged = env.unwrapped.task
        assert type(judged).__name__ == "DatasetTask" and judged.dataset == exported.resolve()
        assert [str(c) for c in judged.annotation.checkpoints] == [str(c) for c in task.annotation.checkpoints]
        obs, info = env.reset(seed=5)
        agent = OracleAgent(task)
        agent.reset(5)
        terminated = truncated = False
        while not (terminated or truncated):
            obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        assert info["success"] and reward == 1.0 and info["oracle_success"] is None
    finally:
        env.close()


def test_a_task_without_a_simulator_definition_runs_on_a_phone_judged_by_the_dataset(server, tmp_path) -> None:
    """One of the tasks the simulator does not define: its annotation (written here for the fake phone's screens: open
    Settings from the home screen) comes from the dataset, as LlamaTouch's would."""
    task = llamatouch_catalogue()["zoom-start-quick-meeting"]
    with pytest.raises(BackendUnavailableError, match="dataset=PATH"):
        resolve_task(task.id, "device")
    phone = SimulatedDevice(seed=0)
    first = phone.observe()
    icon = next(n for n in first.hierarchy if n.text == "Settings" and n.bounds.area)
    first.action = Action.click_center(icon.bounds, phone.screen_size)
    phone.perform(first.action)
    trace = Trace.from_states([first, phone.observe()], episode=task.episode, instruction=task.instruction)
    write_ground_truth(tmp_path / task.path, trace, {1: [Primitive(Keyword.ACTIVITY, "")]}, episode=task.episode,
                       instruction=task.instruction)

    server.device(OTHER).reset(0, {})
    server.phone(OTHER).save_snapshot("start")
    env = device_env(server, task.env_id, serial=OTHER, dataset=tmp_path)
    try:
        _, info = env.reset(seed=0)
        assert env.unwrapped.task.packages == frozenset({"us.zoom.videomeetings"})
        with pytest.raises(ConfigError, match="judged by a LlamaTouch dataset and has none here"):
            OracleAgent(env.unwrapped.task)  # no golden path to play
        with pytest.raises(BackendUnavailableError, match="backends that can: device"):
            MobileEnv(env.unwrapped.task)  # the simulator has no such app
        _, reward, terminated, _, info = env.step(first.action)
        assert (reward, terminated, info["success"], info["oracle_success"]) == (1.0, True, True, None)
    finally:
        env.close()
    with pytest.raises(ConfigError, match=r"cannot be read from the dataset .*not in the ground-truth dataset"):
        gym.make("LlamaTouch/settings-open-v0", backend="device", dataset=tmp_path, adb_port=server.port)


# -- the adb server ------------------------------------------------------------------------------

def test_an_adb_server_that_dies_mid_episode_is_a_device_error_and_no_adb_is_started(tmp_path,
                                                                                       monkeypatch) -> None:
    """adbutils answers a refused connection by running ``adb start-server``, which starts
    a server on the default port (not the configured one) and leaves it running. An
    ``adb`` that records being run and fails stands first on the PATH and where adbutils
    looks first (``ADBUTILS_ADB_PATH``): the backend never runs it."""
    ran = tmp_path / "adb-ran"
    adb = tmp_path / "bin" / "adb"
    adb.parent.mkdir()
    adb.write_text(f'#!/bin/sh\necho "$@" >> {shlex.quote(str(ran))}\nexit 1\n')
    adb.chmod(0o755)
    monkeypatch.setenv("PATH", f"{adb.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("ADBUTILS_ADB_PATH", str(adb))
    with FakePhoneServer(serials=(SERIAL,)) as fake:
        env = gym.make("LlamaTouch/settings-turn-off-wifi-v0", backend="device", serial=SERIAL,
                       adb_port=fake.port, device_config=FAST)
        try:
            env.reset(seed=0)
            env.step(Action.swipe(0.5, 0.8, 0.5, 0.3))
            fake.kill_adb()
            with pytest.raises(DeviceError, match=rf"{SERIAL}: could not .*no adb server answers at "
                                                  rf"127\.0\.0\.1:{fake.port}"):
                env.step(Action.back())
        finally:
            env.close()
    assert not ran.exists(), f"adb was run: {ran.read_text()!r}"


# -- the runner on phones ------------------------------------------------------------------------

def test_the_runner_drives_each_phone_from_its_own_worker_and_a_stalled_phone_costs_error_rows(tmp_path) -> None:
    jobs = [Job("settings-turn-off-wifi", "oracle", seed) for seed in range(4)]
    with FakePhoneServer(serials=(SERIAL, OTHER), dynamics="default") as fake:
        taps = count_actions(fake, (SERIAL, OTHER))
        for serial in taps:
            fake.phone(serial).save_snapshot("start")  # the episodes all start here: Wi-Fi on
        env_kwargs = {"backend": "device", "adb_port": fake.port, "device_config": FAST, "snapshot": "start"}
        devices = [{"serial": s, "console_port": fake.console_port(s)} for s in (SERIAL, OTHER)]
        records = run_batch(jobs, tmp_path / "ok", env_kwargs=env_kwargs, devices=devices)
        assert [r["error"] for r in records] == [None] * 4
        assert all(r["success"] and r["oracle_success"] is None for r in records)
        assert taps[SERIAL] > 0 and taps[OTHER] > 0  # both phones worked

        fake.faults(OTHER).stall = True  # it stops answering, for good
        records = run_batch(jobs, tmp_path / "stalled", env_kwargs=env_kwargs, devices=devices, episode_timeout=120)
        fake.faults(OTHER).stall = False
    errors = [r for r in records if r["error"] is not None]
    assert 1 <= len(errors) < 4 and len(records) == 4  # the other phone did the rest
    assert {r["error"]["kind"] for r in errors} == {"DeviceError"}
    assert all("did not answer within" in r["error"]["message"] for r in errors)
    assert all(r["oracle_success"] is None and not r["success"] for r in errors)


def test_mobile_gym_run_on_two_phones(tmp_path, capsys) -> None:
    with FakePhoneServer(serials=(SERIAL, OTHER), dynamics="default") as fake:
        code = main(["run", "--agent", "oracle", "--tasks", "settings-turn-off-wifi", "--seeds", "2",
                     "--backend", "device", "--serial", SERIAL, "--serial", OTHER, "--adb-port", str(fake.port),
                     "--out", str(tmp_path), "--save-traces"])
    assert code == 0, capsys.readouterr().err
    records = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert sorted(r["seed"] for r in records) == [0, 1] and all(r["success"] for r in records)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["overall"]["success_rate"] == 1.0 and summary["overall"]["oracle_success_rate"] is None
    assert "oracle" not in (tmp_path / "report.html").read_text().split("<h2>Tasks</h2>")[1].split("</table>")[0] \
        .split("<tr>")[2]  # no oracle verdict where none judged: "-"
    capsys.readouterr()
    # judged again offline from the saved traces: agreement with the run, none with an oracle it lacks
    assert main(["evaluate", "--run", str(tmp_path), "--out", str(tmp_path / "again"), "--embedding-cache", "none"]) == 0
    rejudged = json.loads((tmp_path / "again" / "summary.json").read_text())["essential"]
    assert (rejudged["online_agreement"], rejudged["oracle_agreement"], rejudged["oracle_fn"]) == (1.0, None, 0)


@pytest.mark.slow
def test_mobile_gym_run_loads_a_snapshot_on_mobile_gym_fake_device(tmp_path, capsys) -> None:
    """The pair of commands as a user runs them: the fake's emulator-PORT phone has its
    console on PORT, as an emulator has, so ``run --snapshot`` finds it by the serial."""
    serial = f"emulator-{free_port()}"
    with fake_device(serial) as (adb_port, _):
        with EmulatorConsole("127.0.0.1", console_port(serial), timeout=5) as console:
            console.command("avd snapshot save clean")  # adb -s SERIAL emu avd snapshot save clean
        code = main(["run", "--agent", "oracle", "--tasks", "settings-turn-off-wifi", "--backend", "device",
                     "--adb-port", str(adb_port), "--serial", serial, "--snapshot", "clean", "--out", str(tmp_path)])
    assert code == 0, capsys.readouterr().err
    [record] = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert record["error"] is None and record["success"], record


@pytest.mark.slow
def test_run_takes_the_console_port_of_a_phone_whose_serial_names_none(tmp_path, capsys) -> None:
    """A serial that is no emulator-PORT: fake-device prints its console's port, run takes it."""
    with fake_device("phone-a") as (adb_port, lines):
        port = int(re.search(r"--console-port (\d+)", "".join(lines)).group(1))
        with EmulatorConsole("127.0.0.1", port, timeout=5) as console:
            console.command("avd snapshot save clean")
        argv = ["run", "--agent", "oracle", "--tasks", "settings-turn-off-wifi", "--backend", "device",
                "--adb-port", str(adb_port), "--serial", "phone-a", "--snapshot", "clean", "--out"]
        assert main([*argv, str(tmp_path / "unnamed")]) == 1  # the episode's error: every one failed
        assert "give console_port= (--console-port)" in capsys.readouterr().out
        assert main([*argv, str(tmp_path / "named"), "--console-port", str(port)]) == 0, capsys.readouterr().err
    [record] = [json.loads(line) for line in (tmp_path / "named" / "episodes.jsonl").read_text().splitlines()]
    assert record["error"] is None and record["success"], record


@pytest.mark.parametrize(("argv", "message"), [
    (["--serial", SERIAL], "--serial go with --backend device"),
    (["--backend", "device", "--snapshot", "clean", "--tasks", "clock-*"],
     "one snapshot (clean) cannot hold every task's; save one per task, named by its id, and give --snapshot '{task}'"),
    (["--backend", "device", "--snapshot", "{tsak}"], "the only field a snapshot name takes is {task}"),
    (["--backend", "device", "--profile", "pixel-3"], "describe the simulated phone"),
    (["--backend", "device", "--serial", "A", "--serial", "B", "--workers", "3"], "one worker per --serial"),
    (["--backend", "device", "--dataset", "/no/such/folder"], "does not exist"),
    (["--console-port", "5554"], "--console-port go with --backend device"),
    (["--backend", "device", "--serial", "A", "--serial", "B", "--console-port", "5554"], "exactly one --serial"),
])
def test_run_refuses_phone_options_that_do_not_fit(argv: list, message: str, tmp_path, capsys) -> None:
    assert main(["run", "--agent", "oracle", "--out", str(tmp_path), *argv]) == 2
    assert message in capsys.readouterr().err


def test_run_with_a_dataset_picks_among_the_tasks_it_holds(exported, tmp_path, capsys) -> None:
    argv = ["run", "--agent", "random", "--backend", "device", "--dataset", str(exported), "--out", str(tmp_path)]
    assert main([*argv, "--tasks", "zoom-*"]) == 2  # LlamaTouch's, but not in this dataset
    assert f"no LlamaTouch task zoom-* (the dataset at {exported} holds {len(QUICK)} of them)" \
        in capsys.readouterr().err


def test_an_agent_written_for_agentenv_runs_on_a_phone_and_its_trace_is_judged(server, tmp_path) -> None:
    """LlamaTouch's AgentEnv API over a device env: the paper's calls, a trace of the
    phone's screens (at its resolution) that the offline evaluator judges a success."""


    task = simulator_tasks()["settings-turn-off-wifi"]
    save_start(server, SERIAL, task, 0)
    agent_env = AgentEnv(task.env_id, seed=0, local_output_path=tmp_path, backend="device", serial=SERIAL,
                         adb_port=server.port, snapshot="start", console_port=server.console_port(SERIAL),
                         device_config=FAST)
    width, height = Image.open(io.BytesIO(base64.b64decode(agent_env.get_screenshot()))).size
    assert (width, height) == (1080, 2400)
    for text in ("Settings", "Network & internet", "Internet", "Wi‑Fi"):
        root = ET.fromstring(agent_env.get_view_hierarchy())
        node = next(n for n in root.iter("node") if n.get("text") == text)
        left, top, right, bottom = map(int, node.get("bounds").replace("][", ",").strip("[]").split(","))
        agent_env.post_click((left + right) / 2 / width, (top + bottom) / 2 / height)
    agent_env.post_task_complete()
    assert agent_env.episode_done() and agent_env.success and agent_env.info["oracle_success"] is None
    trace = read_trace(agent_env.saved_trace)
    assert trace[0].image.size == (1080, 2400)
    assert evaluate_trace(task.annotation, trace, shared_matcher()).success
    agent_env.tear_down()
