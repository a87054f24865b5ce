"""`mobile_gym.compat.AgentEnv`: agents written against LlamaTouch's AgentEnv (the paper's
post_*/get_* calls, or the released code's get_state/post_action driver loop) play our
envs unchanged, and the traces they leave are judged as the env judged them online."""

from __future__ import annotations

import base64
import csv
import io
import logging
import math
import xml.etree.ElementTree as ET
from fractions import Fraction

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

from fake_phones import free_port

import mobile_gym
from mobile_gym.actions import Action, ActionType
from mobile_gym.cli import main
from mobile_gym.compat import AgentEnv
from mobile_gym.compat.agentenv import action_from_aitw_string
from mobile_gym.devices.android import AndroidConfig
from mobile_gym.devices.fake import FakePhoneServer
from mobile_gym.env import shared_matcher
from mobile_gym.errors import ConfigError, FormatError, InvalidActionError, ResetNeededError
from mobile_gym.formats.agentenv import read_trace
from mobile_gym.matcher import evaluate_trace
from mobile_gym.tasks.catalogue import llamatouch_catalogue
from mobile_gym.tasks.suite import simulator_tasks

WIFI = "settings-turn-off-wifi"
WIFI_ENV = f"LlamaTouch/{WIFI}-v0"
#: What a person taps to turn wifi off, by the text the screen shows (U+2011 in Wi‑Fi).
WIFI_PLAN = ("Settings", "Network & internet", "Internet", "Wi\u2011Fi")


# ---------------------------------------------------------------------- agents
def xml_agent(agent_env) -> None:
    """An agent of the paper's API alone: it reads the XML dump, taps the centre of the
    first node showing each text of its plan (pixels over the screenshot's size), then
    says it is done."""
    png = base64.b64decode(agent_env.get_screenshot())
    width, height = Image.open(io.BytesIO(png)).size
    for text in WIFI_PLAN:
        root = ET.fromstring(agent_env.get_view_hierarchy())
        node = next(n for n in root.iter("node") if n.get("text") == text)
        left, top, right, bottom = map(int, node.get("bounds").replace("][", ",").strip("[]").split(","))
        agent_env.post_click((left + right) / 2 / width, (top + bottom) / 2 / height)
    agent_env.post_task_complete()


class ViewsAgent:
    """An AutoDroid-style agent of AgentEnv's code API: it reads ``view_hierarchy_json``
    from the state and answers AITW action strings."""

    def __init__(self, size: tuple[int, int]):
        self.size, self.plan = size, list(WIFI_PLAN)

    def get_action(self, state: dict) -> str:
        if not self.plan:
            return "action_type: STATUS_TASK_COMPLETE, touch_point: [-1.0, -1.0], lift_point: [-1.0, -1.0], typed_text: ''"
        text = self.plan.pop(0)
        view = next(v for v in state["view_hierarchy_json"] if v["text"] == text)
        (left, top), (right, bottom) = view["bounds"]
        x, y = (left + right) / 2 / self.size[0], (top + bottom) / 2 / self.size[1]
        return f"action_type: dual_point, touch_point: [{x}, {y}], lift_point: [{x}, {y}], typed_text: ''"


def judged_offline(folder) -> bool:
    task = simulator_tasks()[WIFI]
    return evaluate_trace(task.annotation, read_trace(folder), shared_matcher()).success


# ---------------------------------------------------------------------- solving a task
def test_a_paper_api_agent_turns_wifi_off_and_its_saved_trace_judges_success(tmp_path, capsys):
    traces = tmp_path / "traces"
    agent_env = AgentEnv(WIFI_ENV, seed=0, local_output_path=traces)
    assert agent_env.get_task_instruction() == "Turn off wifi"
    xml_agent(agent_env)

    assert agent_env.episode_done() and agent_env.terminated_by == "complete"
    info = agent_env.info
    assert info["success"] and info["oracle_success"] and info["progress"] == 1.0 and info["steps"] == 5
    assert agent_env.success and agent_env.progress == 1.0 and agent_env.steps == 5
    folder = traces / simulator_tasks()[WIFI].episode  # where `mobile-gym evaluate --traces` looks
    assert agent_env.saved_trace == folder
    trace = read_trace(folder)
    assert [a and a.action_type for a in trace.actions] == [ActionType.CLICK] * 4 + [ActionType.COMPLETE, None]
    assert trace[0].image.size == (1080, 2400)
    assert judged_offline(folder)
    agent_env.tear_down()

    assert main(["export-dataset", str(tmp_path / "gt"), "--tasks", WIFI]) == 0
    assert main(["evaluate", "--dataset", str(tmp_path / "gt"), "--traces", str(traces), "--out", str(tmp_path / "out"),
                 "--embedding-cache", "none"]) == 0
    with (tmp_path / "out" / "episodes.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["episode"], r["evaluator"], r["success"]) for r in rows] == [(folder.name, "essential", "True")]


#: LlamaTouch's AgentEnvConfig (config/config.py), as its MockAgent2AgentEnv.py passes it.
AVD_NAME = "pixel_6a_api31"
EMULATOR_CONTROLLER_ARGS = {"snapshot": "default_boot", "port": "5554", "no-window": "true"}
AIRPLANE = "settings-turn-airplane-mode"


def instruction_file(path, *episodes: str):
    """An instruction file as AgentEnv's docs/instructions/*.tsv: its seven columns, a
    blank line at the end."""
    catalogue = {t.episode: t for t in llamatouch_catalogue().values()}
    rows = [f"{e}\t{catalogue[e].category if e in catalogue else 'general'}\tx/trace_1\t"
            f"{catalogue[e].instruction if e in catalogue else 'Do it'}\t3\tApp\tfree of login" for e in episodes]
    path.write_text("episode\tcategory\tpath\tdescription\tnsteps\tapp\tlogin_category\n"
                    + "\n".join(rows) + "\n\n", encoding="utf-8")
    return path


def mock_agent_2_agent_env(agent_env) -> list[tuple[str, str | None, bool, int]]:
    """MockAgent2AgentEnv.py's loop after its constructor, line for line (its agent: an
    AutoDroid-style one reading the views); per episode, the instruction, how it ended,
    the matcher's verdict and the states it was given."""
    agent_env.set_up()
    agent = ViewsAgent(agent_env.get_device_size())
    played = []
    while True:
        instruction = agent_env.get_instruction()
        if instruction is None:
            break
        agent_env.setup_task(instruction)
        while not agent_env.episode_done():
            state = agent_env.get_state()
            action = agent.get_action(state)
            agent_env.post_action(action=action)
            agent_env.get_state_history()
            agent_env.get_device_size()
        agent_env.get_state()  # the final state
        played.append((instruction, agent_env.terminated_by, agent_env.success, len(agent_env.get_state_history())))
        agent_env.reset_env()
    agent_env.tear_down()
    return played


def test_agentenv_s_own_driver_loop_runs_unchanged(tmp_path):
    """MockAgent2AgentEnv.py's loop, line for line but for the constructor."""
    agent_env = AgentEnv(WIFI_ENV, seed=3, local_output_path=tmp_path)
    assert mock_agent_2_agent_env(agent_env) == [("Turn off wifi", "complete", True, 6)]
    assert judged_offline(tmp_path / simulator_tasks()[WIFI].episode)
    assert sorted(p.name for p in tmp_path.iterdir()) == [simulator_tasks()[WIFI].episode]  # the fresh reset saved nothing


def test_llamatouch_s_constructor_plays_the_tasks_of_its_instruction_file(tmp_path, caplog):
    """AgentEnv(avd_name=..., emulator_controller_args=..., instruction_fp=...) as
    LlamaTouch's config makes it: each listed task the simulator runs, in file order, its
    trace in <local_output_path>/<episode>/ as AgentEnv leaves it; the others skipped."""
    tasks = simulator_tasks()
    wifi, airplane = tasks[WIFI].episode, tasks[AIRPLANE].episode
    unsimulated = llamatouch_catalogue()["contacts-open"].episode
    listed = instruction_file(tmp_path / "tasks.tsv", wifi, unsimulated, "123", airplane)
    with caplog.at_level(logging.WARNING, logger="mobile_gym.compat.agentenv"):
        agent_env = AgentEnv(avd_name=AVD_NAME, emulator_controller_args=EMULATOR_CONTROLLER_ARGS, max_steps=30,
                             local_output_path=tmp_path / "captured", instruction_fp=listed)
    assert "2 of 4 listed tasks skipped" in caplog.text
    played = mock_agent_2_agent_env(agent_env)

    assert played == [("Turn off wifi", "complete", True, 6), (tasks[AIRPLANE].instruction, "complete", False, 2)]
    assert sorted(p.name for p in (tmp_path / "captured").iterdir()) == sorted([wifi, airplane])
    assert judged_offline(tmp_path / "captured" / wifi)
    assert [str(a) for a in read_trace(tmp_path / "captured" / airplane).actions] == ["COMPLETE", "None"]


def test_llamatouch_s_constructor_drives_a_phone_named_by_its_emulator_args(tmp_path):
    """On backend="device", emulator_controller_args' port names the phone (emulator-<port>,
    console on that port) and its snapshot is loaded at each reset: the fake phone here."""
    port = free_port()
    serial = f"emulator-{port}"
    with FakePhoneServer(serials=(serial,), seed=0) as server:
        server.console_port(serial, port=port)
        server.phone(serial).save_snapshot("default_boot")  # the home screen
        emulator = {**EMULATOR_CONTROLLER_ARGS, "port": str(port)}
        agent_env = AgentEnv(avd_name=AVD_NAME, emulator_controller_args=emulator,
                             max_steps=30, local_output_path=tmp_path, backend="device", adb_port=server.port,
                             device_config=AndroidConfig(call_timeout=2.0, connect_timeout=15.0, settle_timeout=1.0,
                                                         poll_interval=0.01, change_timeout=0.05),
                             instruction_fp=instruction_file(tmp_path / "tasks.tsv", simulator_tasks()[WIFI].episode))
        device = agent_env.env.unwrapped.device
        assert (device.serial, device.snapshot) == (serial, "default_boot")
        assert mock_agent_2_agent_env(agent_env) == [("Turn off wifi", "complete", True, 6)]
    assert judged_offline(tmp_path / simulator_tasks()[WIFI].episode)


@pytest.mark.parametrize("kwargs, error, message", [
    ({}, ConfigError, "got neither"),
    ({"env": WIFI_ENV, "instruction_fp": "tasks.tsv"}, ConfigError, "got both"),
    ({"instruction_fp": "none.tsv"}, FormatError, "instruction file is missing"),
    ({"instruction_fp": "unsimulated.tsv"}, ConfigError, "none of its 1 tasks runs on backend 'sim'"),
    ({"instruction_fp": "headless.tsv"}, FormatError, "line 1: the header must name the columns episode"),
    ({"instruction_fp": "twice.tsv"}, FormatError, "line 3: episode .* is listed twice"),
    ({"instruction_fp": "tasks.tsv", "backend": "device", "emulator_controller_args": {"port": "x"}}, ConfigError,
     "emulator_controller_args port must be"),
    ({"instruction_fp": "tasks.tsv", "emulator_controller_args": "emulator-5554"}, ConfigError,
     "emulator_controller_args must be a mapping"),
])
def test_llamatouch_s_constructor_refuses_what_it_cannot_play(tmp_path, monkeypatch, kwargs, error, message):
    monkeypatch.chdir(tmp_path)
    instruction_file(tmp_path / "tasks.tsv", simulator_tasks()[WIFI].episode)
    instruction_file(tmp_path / "unsimulated.tsv", llamatouch_catalogue()["contacts-open"].episode)
    (tmp_path / "headless.tsv").write_text("id\ttext\n1\tOpen it\n", encoding="utf-8")
    instruction_file(tmp_path / "twice.tsv", *[simulator_tasks()[WIFI].episode] * 2)
    with pytest.raises(error, match=message):
        AgentEnv(**kwargs)


def test_state_and_screenshot_are_the_device_s_screen():
    agent_env = AgentEnv(WIFI_ENV, seed=0)
    png = base64.b64decode(agent_env.get_screenshot(), validate=True)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (1080, 2400) == agent_env.get_device_size()
    state = agent_env.get_state()
    assert state["screenshot"].size == (1080, 2400)
    assert np.array_equal(np.asarray(state["screenshot"]), np.asarray(image.convert("RGB")))
    assert state["view_hierarchy"] == agent_env.get_view_hierarchy() \
        == agent_env.env.unwrapped.device.observe(screenshot=False).xml
    views = state["view_hierarchy_json"]
    assert [v["temp_id"] for v in views] == list(range(len(views))) and views[0]["parent"] == -1
    assert any(v["text"] == "Settings" and v["bounds"] == [[291, 651], [540, 945]] for v in views)
    assert agent_env.get_state_history() == [state]


def test_the_screenshot_follows_the_device_profile_not_the_observation():
    agent_env = AgentEnv(WIFI_ENV, profile="budget-720p", observation_size=(90, 200))
    image = Image.open(io.BytesIO(base64.b64decode(agent_env.get_screenshot())))
    assert image.size == (720, 1600) == agent_env.get_device_size()


# ---------------------------------------------------------------------- every action
def test_every_post_is_one_recorded_step():
    agent_env = AgentEnv(WIFI_ENV, seed=0)
    agent_env.post_swipe(0.5, 0.8, 0.5, 0.3, duration=0.2)   # the app drawer
    agent_env.post_swipe(0.5, 0.3, 0.5, 0.8)                  # default duration
    agent_env.post_swipe(0.5, 0.5, 0.51, 0.51, Fraction(1, 4))  # shorter than a tap's reach: a tap
    agent_env.post_type("Hello, World")
    agent_env.post_press_back()
    agent_env.post_press_home()
    agent_env.post_press_enter()
    agent_env.post_action("action_type: PRESS_BACK, touch_point: [-1.0, -1.0], lift_point: [-1.0, -1.0], typed_text:")
    assert not agent_env.episode_done() and agent_env.steps == 8
    agent_env.post_task_complete()
    assert agent_env.episode_done() and agent_env.terminated_by == "complete" and not agent_env.success
    assert [str(a) for a in agent_env.trace.actions] == [
        "SWIPE(0.500, 0.800 -> 0.500, 0.300)", "SWIPE(0.500, 0.300 -> 0.500, 0.800)", "CLICK(0.500, 0.500)",
        "TYPE('Hello, World')", "BACK", "HOME", "ENTER", "BACK", "COMPLETE", "None"]

    agent_env.reset_env(seed=1)
    assert agent_env.steps == 0 and not agent_env.episode_done() and len(agent_env.trace) == 1
    agent_env.post_task_impossible()
    assert agent_env.terminated_by == "impossible" and agent_env.info["terminated_by"] == "impossible"


@pytest.mark.parametrize("finish", ["post_task_complete", "post_task_impossible", "step_limit", "success"])
def test_a_post_after_the_episode_ended_raises_until_reset(finish):
    if finish == "success":  # a made env that ends on success, as registered envs do by default
        agent_env = AgentEnv(gym.make(WIFI_ENV), seed=0)
        plan = list(WIFI_PLAN)
        while not agent_env.episode_done():
            view = next(v for v in agent_env.get_state()["view_hierarchy_json"] if v["text"] == plan[0])
            plan.pop(0)
            (left, top), (right, bottom) = view["bounds"]
            agent_env.post_click((left + right) / 2160, (top + bottom) / 4800)
    elif finish == "step_limit":
        agent_env = AgentEnv(WIFI_ENV, max_steps=2)
        agent_env.post_press_back()
        assert not agent_env.episode_done()
        agent_env.post_press_back()
    else:
        agent_env = AgentEnv(WIFI_ENV)
        getattr(agent_env, finish)()
    ended_by = {"post_task_complete": "complete", "post_task_impossible": "impossible"}.get(finish, finish)
    assert agent_env.episode_done() and agent_env.terminated_by == ended_by
    steps, screens = agent_env.steps, len(agent_env.trace)
    for post in (lambda: agent_env.post_click(0.5, 0.5), agent_env.post_task_complete,
                 lambda: agent_env.post_action("action_type: PRESS_HOME, typed_text:"),
                 lambda: agent_env.post_click(7, 7)):  # the ended episode is named before a bad input
        with pytest.raises(ResetNeededError, match=rf"episode ended \({ended_by}\).*reset_env"):
            post()
    assert agent_env.steps == steps and len(agent_env.trace) == screens
    agent_env.get_screenshot(), agent_env.get_state()  # the last screen stays readable
    agent_env.reset_env()
    agent_env.post_press_back()
    assert agent_env.steps == 1


def test_a_made_env_with_the_default_step_limit_ends_at_it():
    agent_env = AgentEnv(gym.make(WIFI_ENV, max_episode_steps=3))
    for _ in range(3):
        agent_env.post_press_home()
    assert agent_env.terminated_by == "step_limit" and agent_env.info["terminated_by"] == "step_limit"


# ---------------------------------------------------------------------- bad input
BAD_POSTS = [
    ("post_click", (1.5, 0.5), "x must be a number in \\[0, 1\\]"),
    ("post_click", (0.5, -0.01), "y must be"),
    ("post_click", (math.nan, 0.5), "x must be"),
    ("post_click", (0.5, math.inf), "y must be"),
    ("post_click", ("0.5", 0.5), "x must be"),
    ("post_click", (True, 0.5), "x must be"),
    ("post_click", (None, 0.5), "x must be"),
    ("post_click", (10**400, 0.5), "x must be"),
    ("post_click", (np.array([0.5, 0.5]), 0.5), "x must be"),
    ("post_swipe", (0.5, 0.8, 0.5, 1.2), "lift_y must be"),
    ("post_swipe", (0.5, 0.8, 0.5, 0.2, -1), "duration must be"),
    ("post_swipe", (0.5, 0.8, 0.5, 0.2, math.nan), "duration must be"),
    ("post_swipe", (0.5, 0.8, 0.5, 0.2, "fast"), "duration must be"),
    ("post_type", (42,), "text must be a str"),
    ("post_type", (None,), "text must be a str"),
    ("post_type", ("two\nlines",), "line break"),
    ("post_type", ("x" * 513,), "limit is 512"),
    ("post_type", ("\ud800",), "surrogate"),
    ("post_action", (None,), "is a str"),
    ("post_action", ("click the button",), "no action_type"),
    ("post_action", ("action_type: LONG_PRESS, touch_point: [0.5, 0.5]",), "unknown action_type 'LONG_PRESS'"),
    ("post_action", ("action_type: DUAL_POINT, touch_point: [0.5, 0.5], typed_text:",), "needs lift_point"),
    ("post_action", ("action_type: DUAL_POINT, touch_point: [1.5, 0.5], lift_point: [0.5, 0.5]",),
     "touch_point x must be"),
    ("post_action", ("action_type: DUAL_POINT, touch_point: [0.5, nan], lift_point: [0.5, 0.5]",),
     "touch_point y must be"),
    ("post_action", ("action_type: DUAL_POINT, touch_point: [0.5, abc], lift_point: [0.5, 0.5]",),
     "touch_point y must be a number"),
    ("post_action", ("action_type: DUAL_POINT, touch_point: [0.5], lift_point: [0.5, 0.5]",), "needs touch_point"),
    ("post_action", ("action_type: TYPE, touch_point: [-1.0, -1.0]",), "needs typed_text"),
]


@pytest.mark.parametrize("method, args, message", BAD_POSTS, ids=lambda v: repr(v)[:40] if isinstance(v, tuple) else None)
def test_a_bad_post_raises_and_the_episode_goes_on(method, args, message):
    agent_env = AgentEnv(WIFI_ENV, seed=0)
    agent_env.post_press_home()
    before = agent_env.get_view_hierarchy()
    with pytest.raises(InvalidActionError, match=rf"^{method}: .*{message}"):
        getattr(agent_env, method)(*args)
    with pytest.raises(ValueError):  # what agents written for AgentEnv's parser catch
        getattr(agent_env, method)(*args)
    assert agent_env.steps == 1 and len(agent_env.trace) == 2 and agent_env.trace.actions[-1] is None
    assert agent_env.get_view_hierarchy() == before and not agent_env.episode_done()
    agent_env.post_task_complete()
    assert [str(a) for a in agent_env.trace.actions] == ["HOME", "COMPLETE", "None"]


# ---------------------------------------------------------------------- action strings
@pytest.mark.parametrize("text, expected", [
    ("action_type: DUAL_POINT, touch_point: [0.1, 0.9], lift_point: [0.1, 0.9], typed_text:", "CLICK(0.100, 0.900)"),
    ("action_type: dual_point, touch_point: [0.2, 0.5], lift_point: [0.3, 0.6], typed_text: ''",
     "SWIPE(0.200, 0.500 -> 0.300, 0.600)"),  # x before y, as AgentEnv multiplies them
    ("action_type: DUAL_POINT, touch_point: [0.5, 0.5], lift_point: [0.52, 0.52], typed_text:", "CLICK(0.500, 0.500)"),
    ("action_type: TYPE, touch_point: [-1.0, -1.0], lift_point: [-1.0, -1.0], typed_text: best rated coffee maker",
     "TYPE('best rated coffee maker')"),
    ("action_type: type, touch_point: [-1.0, -1.0], lift_point: [-1.0,-1.0], typed_text: \u201dBest Rated, 5\u2605\u201d",
     "TYPE('Best Rated, 5\u2605')"),
    ("action_type: TYPE, typed_text: \"it's\"", "TYPE(\"it's\")"),
    ("action_type: TYPE, typed_text:", "TYPE('')"),
    ("action_type: PRESS_ENTER, touch_point: [-1.0, -1.0], lift_point: [-1.0, -1.0], typed_text:", "ENTER"),
    ("ACTION_TYPE: Status_Task_Impossible", "IMPOSSIBLE"),
])
def test_action_strings_read_as_agentenv_reads_them(text, expected):
    assert str(action_from_aitw_string(text)) == expected


# ---------------------------------------------------------------------- construction
def test_a_made_env_is_played_and_left_open():
    env = gym.make(WIFI_ENV, terminate_on_success=False)
    with AgentEnv(env, seed=5) as agent_env:
        agent_env.post_press_back()
        assert isinstance(agent_env.env.unwrapped, type(env.unwrapped)) and agent_env.task.id == WIFI
    env.reset(seed=0)  # still usable: the caller owns it
    env.step(Action.back())


@pytest.mark.parametrize("make, message", [
    (lambda: AgentEnv(gym.make(WIFI_ENV), profile="pixel-3"), "make arguments go with an env id"),
    (lambda: AgentEnv(42), "env must be an env id or a made gymnasium env"),
    (lambda: AgentEnv("LlamaTouch/no-such-task-v0"), "cannot be made"),
    (lambda: AgentEnv(gym.make("CartPole-v1")), "one of mobile_gym's envs"),
    (lambda: AgentEnv(mobile_gym.policy_env(WIFI, preset="elements")), "action space"),
    (lambda: AgentEnv(WIFI_ENV, seed=-1), "seed must be"),
    (lambda: AgentEnv(WIFI_ENV, max_steps=0), "max_steps must be"),
    (lambda: AgentEnv(WIFI_ENV, profile="nokia"), "profile"),
])
def test_unusable_arguments_are_config_errors(make, message):
    with pytest.raises(ConfigError, match=message):
        make()


def test_setup_task_refuses_another_task_s_instruction():
    agent_env = AgentEnv(WIFI_ENV)
    assert agent_env.get_instruction() == "Turn off wifi" and agent_env.get_instruction() is None
    agent_env.setup_task("Turn off wifi")
    with pytest.raises(ConfigError, match="plays 'settings-turn-off-wifi'"):
        agent_env.setup_task("turn on airplane mode")


# ---------------------------------------------------------------------- saving
def test_an_occupied_trace_folder_is_refused_before_the_first_action(tmp_path):
    first = AgentEnv(WIFI_ENV, local_output_path=tmp_path)
    first.post_task_complete()
    second = AgentEnv(WIFI_ENV, local_output_path=tmp_path)
    with pytest.raises(FormatError, match="already holds a trace"):
        second.post_press_back()
    assert second.steps == 0 and len(second.trace) == 1
    second.local_output_path = tmp_path / "again"
    second.post_press_back()
    assert second.steps == 1


def test_an_episode_left_unfinished_is_saved_at_reset_and_save_trace_writes_anywhere(tmp_path):
    agent_env = AgentEnv(WIFI_ENV, local_output_path=tmp_path / "auto")
    agent_env.post_press_back()
    agent_env.save_trace(tmp_path / "mine")
    assert agent_env.saved_trace is None  # the episode goes on
    agent_env.reset_env()
    folder = tmp_path / "auto" / simulator_tasks()[WIFI].episode
    assert [str(a) for a in read_trace(folder).actions] == ["BACK", "None"]
    assert read_trace(tmp_path / "mine").actions == read_trace(folder).actions
    with pytest.raises(FormatError, match="already holds a trace"):
        agent_env.save_trace(tmp_path / "mine")
