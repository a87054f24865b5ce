"""`mobile_gym.compat.androidworld`: AndroidWorld's harness and agents on our tasks.

AndroidWorld is not on PyPI, so these tests make the calls its code makes: its agents'
loops (T3A's and M3A's: a prompt, a ``Reason: ... Action: {...}`` reply, a `JSONAction`,
``execute_action``), its suite's task protocol (``initialize_task``, ``is_successful``,
``tear_down``) and its ``adb_utils`` requests as android_env's protos, read back with the
patterns ``adb_utils`` reads them with. `benchmarks/androidworld_check.py` runs
AndroidWorld's own code against the same adapter.
"""

from __future__ import annotations

import json
import pickle
import random
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

pytest.importorskip("android_env", reason="the androidworld extra: pip install 'mobile-gym[androidworld]'")

from android_env.proto import adb_pb2  # noqa: E402

from mobile_gym.compat.androidworld import (  # noqa: E402
    ANDROID_WORLD,
    AndroidWorldEnv,
    BoundingBox,
    JSONAction,
    OracleLLM,
    State,
    UIElement,
    task_registry,
)
from mobile_gym.compat.androidworld.tasks import class_name  # noqa: E402
from mobile_gym.devices.fake import FakePhoneServer  # noqa: E402
from mobile_gym.errors import ConfigError, InvalidActionError, UnknownTaskError  # noqa: E402
from mobile_gym.tasks.suite import simulator_tasks  # noqa: E402

WIFI = "settings-turn-off-wifi"
Request = adb_pb2.AdbRequest


@pytest.fixture(scope="module")
def env():
    env = AndroidWorldEnv(seed=0)  # dynamics="default": popups, loading screens
    yield env
    env.close()


@pytest.fixture(scope="module")
def calm():
    """No popups and no loading screens: each verb's effect is the only change."""
    env = AndroidWorldEnv(seed=0, dynamics="none")
    yield env
    env.close()


def start(env: AndroidWorldEnv, task_id: str, seed: int = 0):
    task = task_registry(task_id)[class_name(task_id)]({"seed": seed})
    task.initialize_task(env)
    return task


def generic(env: AndroidWorldEnv, command: str) -> str:
    """``adb_utils.issue_generic_request(command, env)``'s output."""
    response = env.controller.execute_adb_call(Request(generic=Request.GenericRequest(args=command.split(" "))))
    return response.generic.output.decode()


# ------------------------------------------------------------------ the xml reading
def aw_elements(xml: str) -> list[UIElement]:
    """The UI elements of a dump read as AndroidWorld's uiautomator mode reads them
    (every node but the root, attributes as written), written here from its contract."""
    out = []

    def visit(node: ET.Element, root: bool) -> None:
        if not root:
            bounds = node.get("bounds")
            box = None
            if bounds:
                x0, y0, x1, y1 = map(int, re.findall(r"-?\d+", bounds))
                box = BoundingBox(x0, x1, y0, y1)
            flag = lambda name: node.get(name) == "true"  # noqa: E731
            out.append(UIElement(
                text=node.get("text"), content_description=node.get("content-desc"), class_name=node.get("class"),
                bbox=box, bbox_pixels=box, is_checked=flag("checked"), is_checkable=flag("checkable"),
                is_clickable=flag("clickable"), is_enabled=flag("enabled"), is_focused=flag("focused"),
                is_focusable=flag("focusable"), is_long_clickable=flag("long-clickable"),
                is_scrollable=flag("scrollable"), is_selected=flag("selected"), package_name=node.get("package"),
                resource_id=node.get("resource-id"), is_visible=True))
        for child in node:
            visit(child, False)

    visit(ET.fromstring(xml), True)
    return out


@pytest.mark.skipif(ANDROID_WORLD, reason="AndroidWorld is on the path: its own classes are used")
def test_without_android_world_the_stand_ins_have_its_shape() -> None:
    box = BoundingBox(10, 30, 20, 60)
    assert box.center == (20.0, 40.0) and (box.width, box.height, box.area) == (20, 40, 800)
    action = JSONAction(**{"action_type": "click", "index": "3"})
    assert action.index == 3 and json.loads(action.json_str()) == {"action_type": "click", "index": 3}
    for bad in ({"action_type": "fly"}, {"action_type": "click", "index": 1, "x": 2},
                {"action_type": "scroll", "direction": "sideways"}, {"action_type": "click", "keycode": "ENTER"}):
        with pytest.raises(ValueError):
            JSONAction(**bad)


def test_get_state_is_the_screen_at_full_size_with_androidworlds_elements(env) -> None:
    start(env, WIFI)
    state = env.get_state(wait_to_stabilize=True)
    assert isinstance(state, State) and state.forest is None
    w, h = env.device_screen_size
    assert state.pixels.shape == (h, w, 3) and state.pixels.dtype == np.uint8
    assert not state.pixels.flags.writeable  # shared with the simulator's drawing: agents copy
    xml = env.gym_env.device.observe(screenshot=False).xml
    assert state.ui_elements == aw_elements(xml) and len(state.ui_elements) > 10
    assert env.get_state().ui_elements == state.ui_elements  # stable: nothing changes without input


def test_the_screen_properties_are_what_adb_utils_reads_from_the_phone(calm) -> None:
    start(calm, WIFI)
    size = re.search(r"Physical size: (\d+)x(\d+)", generic(calm, "shell wm size")).groups()
    assert calm.device_screen_size == tuple(map(int, size)) == calm.controller.device_screen_size
    logical = re.findall(r"logicalFrame=\[0, 0, (\d+), (\d+)\]", generic(calm, "shell dumpsys input"))[0]
    assert calm.logical_screen_size == tuple(map(int, logical)) == calm.controller.logical_screen_size
    physical = re.findall(r"physicalFrame=\[(\d+), (\d+), (\d+), (\d+)\]", generic(calm, "shell dumpsys input"))[0]
    assert calm.physical_frame_boundary == tuple(map(int, physical))
    rotation = re.findall(r"mCurrentRotation=ROTATION_(\d+)", generic(calm, "shell dumpsys window"))[0]
    assert calm.orientation == int(rotation) // 90
    assert "launcher" in calm.foreground_activity_name  # the task starts at the home screen
    calm.execute_action(JSONAction(action_type="open_app", app_name="Settings"))
    assert calm.foreground_activity_name == "com.android.settings/com.android.settings.Settings"


# ------------------------------------------------------------------ adb requests
def test_adb_utils_screen_requests_read_back_with_its_patterns(env) -> None:
    start(env, WIFI)
    w, h = env.device_screen_size
    logical = generic(env, "shell dumpsys input | grep logicalFrame")
    assert (str(w), str(h)) in re.findall(r"logicalFrame=\[0, 0, (\d+), (\d+)\]", logical)
    physical = generic(env, "shell dumpsys input | grep physicalFrame")
    assert ("0", "0", str(w), str(h)) in re.findall(r"physicalFrame=\[(\d+), (\d+), (\d+), (\d+)\]", physical)
    rotation = generic(env, "shell dumpsys window | grep mCurrentRotation")
    assert re.findall(r"mCurrentRotation=ROTATION_(\d+)", rotation) == ["0"]
    assert re.search(r"Physical size: (\d+)x(\d+)", generic(env, "shell wm size")).groups() == (str(w), str(h))
    generic(env, "shell uiautomator dump /sdcard/window_dump.xml")
    dumped = generic(env, "shell cat /sdcard/window_dump.xml")
    assert aw_elements(dumped) == env.get_state().ui_elements
    current = env.controller.execute_adb_call(Request(get_current_activity=Request.GetCurrentActivity()))
    assert current.status == adb_pb2.AdbResponse.Status.OK
    assert current.get_current_activity.full_activity == env.foreground_activity_name
    packages = env.controller.execute_adb_call(Request(package_manager=Request.PackageManagerRequest(
        list=Request.PackageManagerRequest.List(packages=Request.PackageManagerRequest.List.Packages()))))
    assert "com.android.settings" in packages.package_manager.list.items


def test_adb_inputs_are_env_steps_the_matcher_sees(calm) -> None:
    env = calm
    start(env, WIFI)
    steps = env.info["steps"]
    home = env.controller.execute_adb_call(Request(press_button=Request.PressButton(button=Request.PressButton.HOME)))
    assert home.status == adb_pb2.AdbResponse.Status.OK
    assert env.info["steps"] == steps + 1 and "launcher" in env.foreground_activity_name
    launched = env.controller.execute_adb_call(Request(start_activity=Request.StartActivity(
        full_activity="com.android.settings/.Settings")))
    assert launched.status == adb_pb2.AdbResponse.Status.OK
    assert env.info["steps"] == steps + 2 and env.foreground_activity_name.startswith("com.android.settings/")
    generic(env, "shell am force-stop com.android.settings")  # set-up, not input: no step
    assert env.info["steps"] == steps + 2 and "launcher" in env.foreground_activity_name
    generic(env, "shell monkey -p com.android.settings 1")
    assert env.info["steps"] == steps + 3 and env.info["activity"].startswith("com.android.settings/")
    recents = generic(env, "shell am stack list")  # adb_utils.close_recents: every task removed
    for task_id in re.findall(r"taskId=(\d+)", recents):
        generic(env, f"shell am stack remove {task_id}")
    assert "launcher" in env.foreground_activity_name and env.info["steps"] == steps + 3


def test_settings_date_and_the_time_zone_are_answered(env) -> None:
    start(env, WIFI)
    put = Request(settings=Request.SettingsRequest(name_space=Request.SettingsRequest.Namespace.SYSTEM,
                                                   put=Request.SettingsRequest.Put(key="time_12_24", value="24")))
    assert env.controller.execute_adb_call(put).status == adb_pb2.AdbResponse.Status.OK
    assert generic(env, "shell settings get system time_12_24").strip() == "24"
    assert "Parcel" in generic(env, "shell service call alarm 3 s16 UTC")
    assert re.fullmatch(r"\w{3} \w{3} \d\d \d\d:\d\d:\d\d \w+ \d{4}\n", generic(env, "shell date"))
    env.hide_automation_ui()
    assert generic(env, "shell settings get system pointer_location").strip() == "0"


def test_files_pushed_are_pulled_back(env) -> None:
    start(env, WIFI)
    pushed = env.controller.execute_adb_call(Request(push=Request.Push(content=b"hello", path="/sdcard/a.txt")))
    assert pushed.status == adb_pb2.AdbResponse.Status.OK
    assert generic(env, "shell cat /sdcard/a.txt") == "hello"
    pulled = env.controller.execute_adb_call(Request(pull=Request.Pull(path="/sdcard/a.txt")))
    assert pulled.status == adb_pb2.AdbResponse.Status.OK and pulled.pull.content == b"hello"
    missing = env.controller.execute_adb_call(Request(pull=Request.Pull(path="/sdcard/none.txt")))
    assert missing.status != adb_pb2.AdbResponse.Status.OK


def test_a_request_the_phone_cannot_carry_out_gets_a_status_not_an_exception(env) -> None:
    start(env, WIFI)
    bad = env.controller.execute_adb_call(Request(generic=Request.GenericRequest(args=["shell", "nonsense"])))
    assert bad.status == adb_pb2.AdbResponse.Status.ADB_ERROR
    assert env.controller.execute_adb_call(Request()).status == adb_pb2.AdbResponse.Status.UNKNOWN_COMMAND
    tap = env.controller.execute_adb_call(Request(tap=Request.Tap(x=-1, y=5)))
    assert tap.status == adb_pb2.AdbResponse.Status.FAILED_PRECONDITION
    with pytest.raises(InvalidActionError, match="AdbRequest"):
        env.controller.execute_adb_call("shell input tap 1 1")


# ------------------------------------------------------------------ JSON actions
def element_index(env: AndroidWorldEnv, **wanted: str) -> int:
    for i, e in enumerate(env.get_state().ui_elements):
        if all(getattr(e, k) == v for k, v in wanted.items()):
            return i
    raise AssertionError(f"no element {wanted}")


def test_clicks_by_index_and_by_pixels_go_where_androidworld_sends_them(calm) -> None:
    start(calm, WIFI)
    calm.execute_action(JSONAction(action_type="open_app", app_name="Settings"))
    i = element_index(calm, text="Network & internet")
    calm.execute_action(JSONAction(action_type="click", index=i))
    assert any(e.text == "Internet" for e in calm.get_state().ui_elements)
    calm.execute_action({"action_type": "navigate_back"})
    x, y = map(int, calm.get_state().ui_elements[i].bbox_pixels.center)
    calm.execute_action(JSONAction(action_type="click", x=x, y=y))
    assert any(e.text == "Internet" for e in calm.get_state().ui_elements)
    with pytest.raises(InvalidActionError, match="Invalid element index"):
        calm.execute_action(JSONAction(action_type="click", index=10_000))
    with pytest.raises(ValueError, match="index or both x and y"):
        calm.execute_action({"action_type": "long_press"})


def test_every_verb_reaches_the_phone(calm) -> None:
    start(calm, WIFI)
    for action in [{"action_type": "navigate_home"}, {"action_type": "swipe", "direction": "up"},
                   {"action_type": "navigate_back"}, {"action_type": "scroll", "direction": "down"},
                   {"action_type": "keyboard_enter"}, {"action_type": "wait"},
                   {"action_type": "long_press", "x": 540, "y": 1200}, {"action_type": "double_tap", "x": 5, "y": 5}]:
        before = calm.info["steps"]
        calm.execute_action(JSONAction(**action))
        assert calm.info["steps"] == before + 1, action
    calm.execute_action(JSONAction(action_type="open_app", app_name="Clock"))
    assert calm.foreground_activity_name.startswith("com.google.android.deskclock/")
    calm.execute_action(JSONAction(action_type="open_app", app_name="No Such App"))
    assert "No Such App" in calm.info["action_error"]
    for silent in ({"action_type": "status", "goal_status": "complete"}, {"action_type": "unknown"},
                   {"action_type": "answer", "text": "42"}):
        before = calm.info["steps"]
        calm.execute_action(JSONAction(**silent))
        assert calm.info["steps"] == before
    assert calm.interaction_cache == "42"
    with pytest.raises(InvalidActionError, match="open_app needs"):
        calm.execute_action({"action_type": "open_app"})
    with pytest.raises(InvalidActionError, match="not one the phone"):
        calm.execute_action({"action_type": "teleport"})


def search_field(env: AndroidWorldEnv) -> int:
    """Gmail open at its search screen; the index of the search box."""
    start(env, "gmail-search-starred-emails")
    env.execute_action(JSONAction(action_type="open_app", app_name="Gmail"))
    env.execute_action(JSONAction(action_type="click", index=element_index(env, text="Search in mail")))
    return next(i for i, e in enumerate(env.get_state().ui_elements) if e.is_focused)


def test_input_text_types_the_phones_text_as_one_action_then_presses_enter(calm) -> None:
    field = search_field(calm)
    steps = calm.info["steps"]
    calm.execute_action(JSONAction(action_type="input_text", text="is:stärred", index=field))
    assert calm.info["steps"] == steps + 3  # the click on the field, the text, Enter
    assert calm.task_success("gmail-search-starred-emails")  # the matcher saw TYPE('is:starred'), then Enter
    assert any(e.text == "is:starred" for e in calm.get_state().ui_elements)  # the accent folded, as adb types


def test_clear_text_selects_all_and_deletes_before_typing(calm) -> None:
    field = search_field(calm)
    surface = calm.gym_env.device.runtime.surface
    surface.fields[surface.focus] = "junk"  # what an earlier attempt left in the box
    calm.execute_action({"action_type": "input_text", "text": "is:starred", "index": field, "clear_text": True})
    assert any(e.text == "is:starred" for e in calm.get_state().ui_elements)
    assert not any("junk" in (e.text or "") for e in calm.get_state().ui_elements)
    generic(calm, "shell input keycombination 113 31")  # Ctrl+C: a shortcut, not the letter c
    assert any(e.text == "is:starred" for e in calm.get_state().ui_elements)


def test_a_scroll_moves_the_list_as_androidworlds_scroll_does(calm) -> None:
    start(calm, WIFI)
    calm.execute_action(JSONAction(action_type="open_app", app_name="Settings"))
    before = [e.text for e in calm.get_state().ui_elements]
    scrollable = next(i for i, e in enumerate(calm.get_state().ui_elements) if e.is_scrollable and i)
    calm.execute_action(JSONAction(action_type="scroll", direction="down", index=scrollable))
    assert [e.text for e in calm.get_state().ui_elements] != before
    calm.execute_action(JSONAction(action_type="scroll", direction="up", index=scrollable))
    assert [e.text for e in calm.get_state().ui_elements] == before


# ------------------------------------------------------------------ tasks and agents' loops
def test_the_registry_is_androidworlds_shape() -> None:
    registry = task_registry()
    assert len(registry) == len(simulator_tasks()) and list(registry) == sorted(registry)
    cls = registry[class_name(WIFI)]
    assert cls is task_registry(WIFI)[cls.__name__]  # made once
    task = cls(cls.generate_random_params())
    assert task.name == "SettingsTurnOffWifi" and task.goal == simulator_tasks()[WIFI].instruction
    assert task.complexity >= 1 and int(10 * task.complexity) >= 2 * len(simulator_tasks()[WIFI].golden_path)
    assert isinstance(task.params["seed"], int) and task.app_names == ("Settings",)
    assert pickle.loads(pickle.dumps(task)).params == task.params  # AndroidWorld's checkpointer pickles
    assert set(task_registry(["clock-*", WIFI])) >= {"SettingsTurnOffWifi", "ClockTraceTokyoTime"}
    with pytest.raises(UnknownTaskError):
        task_registry("no-such-*")


def test_the_task_protocol_is_androidworlds(env) -> None:
    cls = task_registry(WIFI)[class_name(WIFI)]
    task = cls({"seed": 3})
    with pytest.raises(RuntimeError, match="initialize_task"):
        task.is_successful(env)
    task.initialize_task(env)
    with pytest.raises(RuntimeError, match="already called"):
        task.initialize_task(env)
    assert task.is_successful(env) == 0.0
    task.tear_down(env)
    with pytest.raises(ConfigError, match="AndroidWorldEnv"):
        cls({"seed": 3}).initialize_task(object())


def run_like_androidworld(env: AndroidWorldEnv, task_id: str, llm: OracleLLM, seed: int) -> tuple[bool, float]:
    """One task as ``suite_utils.run`` runs it, with an agent loop as T3A's and M3A's:
    prompt, reply, ``Reason``/``Action`` parsed, `JSONAction`, ``execute_action``,
    then a summary prompt; ``status`` ends the episode."""
    cls = task_registry(task_id)[class_name(task_id)]
    task = cls({"seed": seed})
    task.initialize_task(env)
    env.reset(go_home=task.start_on_home_screen)
    done = False
    for _ in range(int(10 * task.complexity)):
        state = env.get_state(wait_to_stabilize=True)
        prompt = f"The goal: {task.goal}\n{len(state.ui_elements)} elements...\nNow output an action ..."
        reply, is_safe, raw = llm.predict_mm(prompt, [state.pixels.copy()])
        action_text = re.search(r"Action:(.*)", reply, flags=re.DOTALL).group(1).strip()
        action = JSONAction(**json.loads(re.search(r"\{.*?\}", action_text).group()))
        if action.action_type == "status":
            done = True
            break
        if action.index is not None:
            assert action.index < len(state.ui_elements)
        env.execute_action(action)
        summary, _, _ = llm.predict("Summarize what the action did ...")
        assert summary.startswith("Summary:")
    successful = task.is_successful(env) if done else 0.0
    task.tear_down(env)
    return done, successful


#: Tasks whose golden path types into a field and goes on without Enter: AndroidWorld's
#: input_text presses Enter, which submits the search or form first (see the README).
TYPED_WITHOUT_ENTER = {"discord-add-status-working", "discord-create-new-private", "reddit-communities-search-openai",
                       "reddit-search-posts-related", "reddit-search-technology-subreddit",
                       "reddit-subscribe-subreddit-r"}
SAMPLE = sorted(random.Random(37).sample(sorted(set(simulator_tasks()) - TYPED_WITHOUT_ENTER), 12))


@pytest.mark.parametrize("pointing", ["index", "pixels"])
def test_agent_loops_with_the_oracles_replies_solve_a_sample_of_tasks(env, pointing) -> None:
    llm = OracleLLM(env, pointing=pointing)
    results = {task_id: run_like_androidworld(env, task_id, llm, seed=5) for task_id in SAMPLE}
    assert all(done and ok == 1.0 for done, ok in results.values()), results


def test_enter_after_typing_is_why_those_tasks_fail(env) -> None:
    done, ok = run_like_androidworld(env, "reddit-search-technology-subreddit", OracleLLM(env), seed=5)
    assert ok == 0.0
    assert env.info["matched"] == {}  # the suggestion is gone: the Enter submitted the search


def test_episodes_are_deterministic_per_seed(env) -> None:
    def trail(seed: int) -> list[str]:
        start(env, "clock-trace-tokyo-time", seed)
        screens = []
        for action in ({"action_type": "click", "x": 540, "y": 1500}, {"action_type": "scroll", "direction": "down"},
                       {"action_type": "wait"}, {"action_type": "navigate_back"}):
            env.execute_action(action)
            screens.append(env.gym_env.device.observe(screenshot=False).xml)
        return screens

    assert trail(11) == trail(11)


def test_pixels_size_draws_smaller_screenshots_of_the_same_screen() -> None:
    small = AndroidWorldEnv(seed=0, pixels_size=(270, 600))
    state = small.get_state()
    assert state.pixels.shape == (600, 270, 3)
    assert state.ui_elements[0].bbox_pixels.x_max == 1080  # elements stay in the screen's pixels
    small.close()
    with pytest.raises(ConfigError, match="pixels_size"):
        AndroidWorldEnv(pixels_size=(5000, 10))


def test_bad_actions_are_invalid_action_errors(calm) -> None:
    start(calm, WIFI)
    for bad in ({"action_type": "click", "x": float("inf"), "y": 3}, {"action_type": "click", "x": "a", "y": 3},
                {"action_type": "click", "x": 2**40, "y": 3}, {"action_type": "drag_and_drop", "touch_xy": 5,
                                                                "lift_xy": (1, 2)}):
        steps = calm.info["steps"]
        with pytest.raises(InvalidActionError):
            calm.execute_action(bad)
        assert calm.info["steps"] == steps
    calm.execute_action({"action_type": "answer", "text": 5})
    assert calm.interaction_cache == "5"


def test_on_a_phone_adb_requests_go_to_it_and_the_next_state_shows_their_effect() -> None:
    with FakePhoneServer(serials=("emulator-5554",)) as fake:
        env = AndroidWorldEnv(WIFI, backend="device", serial="emulator-5554", adb_port=fake.port)
        assert re.search(r"Physical size: (\d+)x(\d+)", generic(env, "shell wm size"))
        before = [e.text for e in env.get_state().ui_elements]
        generic(env, "shell am start -n com.android.settings/.Settings")
        after = [e.text for e in env.get_state().ui_elements]
        assert after != before and "Network & internet" in after
        env.close()


def test_the_adapter_refuses_what_it_sets_itself() -> None:
    with pytest.raises(ConfigError, match="observation"):
        AndroidWorldEnv(observation="both")
    with pytest.raises(ConfigError, match="pointing"):
        OracleLLM(None, pointing="elbow")  # type: ignore[arg-type]
    env = AndroidWorldEnv()
    assert env.task_id is None and "launcher" in env.foreground_activity_name
    assert env.ask_question("Which one?") is None
    with pytest.raises(ConfigError, match="no task is running"):
        OracleLLM(env).next_action()
    env.close()
    asker = AndroidWorldEnv(questions=str.upper)
    assert asker.ask_question("which?") == "WHICH?"
    asker.close()
