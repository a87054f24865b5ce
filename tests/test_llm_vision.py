"""A vision model that answers only in points of the screenshot it is sent, through
``mobile-gym run --agent llm --vision`` end to end, on two phones of different sizes;
and what the agent says back when a reply or an action cannot be used.

The scripted model behind the loopback chat server sees what a real one would: the
request's PNG and text. To know where to point it keeps its own simulated phone in step
with the run's (same task, seed, profile and dynamics: the simulator is deterministic),
asks the task's oracle for the next move there, and answers it in pixels of the image it
was sent — in AndroidWorld's JSON, Qwen's ``mobile_use`` tool call or UI-TARS' calls by
turns — then plays the move as the env will read it back, so both phones stay alike."""

from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from chat_server import ChatServer
from mobile_gym.actions import Action, ActionType
from mobile_gym.agents import OracleAgent
from mobile_gym.cli import main
from mobile_gym.env import MobileEnv
from mobile_gym.runner import run_episode
from mobile_gym.tasks.suite import select_simulator_tasks

FAST = {"timeout": 5.0, "retries": 2}


class PointingModel:
    """The script of a vision model that names points in the screenshot's pixels."""

    def __init__(self, task: str, profile: str, seed: int = 0, dynamics: str = "default"):
        self.env = MobileEnv(task, profile=profile, dynamics=dynamics)
        self.obs, self.info = self.env.reset(seed=seed)
        self.oracle = OracleAgent(self.env.task)
        self.sizes: list[tuple[int, int]] = []

    def __call__(self, request: dict) -> dict:
        parts = request["messages"][-1]["content"]
        url = next(p["image_url"]["url"] for p in parts if p["type"] == "image_url")
        w, h = Image.open(io.BytesIO(base64.b64decode(url.partition(",")[2]))).size
        self.sizes.append((w, h))
        action = self.oracle.act(self.obs, self.info)
        reply, played = self.spell(action, w, h, len(self.sizes))
        self.obs, _, _, _, self.info = self.env.step(played)
        return {"content": reply}

    @staticmethod
    def spell(action: Action, w: int, h: int, turn: int) -> tuple[str, Action]:
        """The reply naming ``action`` in pixels of a w×h image, and the action it reads as."""
        kind = action.action_type
        if kind is ActionType.CLICK:
            x, y = round(action.touch[0] * w), round(action.touch[1] * h)
            form = turn % 3
            if form == 0:
                reply = f'The target is there.\n{{"action_type": "click", "x": {x}, "y": {y}}}'
            elif form == 1:
                call = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}
                reply = f"<tool_call>\n{json.dumps(call)}\n</tool_call>"
            else:
                reply = f"Thought: tap it.\nAction: click(start_box='({x},{y})')"
            return reply, Action.click(x / w, y / h)
        if kind is ActionType.SWIPE:
            (x1, y1), (x2, y2) = ((round(p[0] * w), round(p[1] * h)) for p in (action.touch, action.lift))
            call = {"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [x1, y1],
                                                        "coordinate2": [x2, y2]}}
            return f"<tool_call>{json.dumps(call)}</tool_call>", Action.swipe(x1 / w, y1 / h, x2 / w, y2 / h)
        if kind is ActionType.TYPE:
            return json.dumps({"action_type": "input_text", "text": action.text}), action
        names = {ActionType.BACK: "navigate_back", ActionType.HOME: "navigate_home",
                 ActionType.ENTER: "keyboard_enter", ActionType.WAIT: "wait"}
        if kind in names:
            return json.dumps({"action_type": names[kind]}), action
        if kind is ActionType.COMPLETE:
            return json.dumps({"action_type": "status", "goal_status": "complete"}), action
        raise AssertionError(f"the oracle chose {action}")


@pytest.mark.parametrize("task, profile", [("settings-turn-off-wifi", "pixel-6"),
                                           ("bestbuy-empty-cart", "budget-720p")])
def test_mobile_gym_run_with_a_model_pointing_in_screenshot_pixels(task: str, profile: str, tmp_path) -> None:
    model = PointingModel(task, profile)
    out = tmp_path / "run"
    with ChatServer(model) as server:
        code = main(["run", "--agent", "llm", "--tasks", task, "--profile", profile, "--vision",
                     "--model", "vlm", "--base-url", server.url, "--timeout", "5", "--out", str(out), "--save-traces"])
    assert code == 0
    record = json.loads((out / "episodes.jsonl").read_text().splitlines()[0])
    assert record["error"] is None and record["success"], record
    assert all(s["parse_error"] is None for s in record["agent_steps"])
    screen = MobileEnv(task, profile=profile).observation_size
    assert set(model.sizes) == {screen}  # the image sent is the observation: a quarter of the phone
    system = server.requests[0]["messages"][0]["content"]
    assert f"the screenshot ({screen[0]}×{screen[1]} pixels)" in system  # the frame is said


def test_points_outside_the_frame_are_fed_back_naming_it() -> None:
    replies = iter(['{"action_type": "click", "x": 900, "y": 2000}', "complete()"])
    with ChatServer(lambda request: {"content": next(replies)}) as server:
        record = run_episode(select_simulator_tasks("settings-open")[0], "llm", 0,
                             agent_options={"model": "vlm", "base_url": server.url, "vision": True, **FAST})
    first = record["agent_steps"][0]
    assert first["parse_error"] == "point (900, 2000) is outside the screenshot (270×600 pixels)"
    assert "outside the screenshot (270×600 pixels)" in server.requests[1]["messages"][-1]["content"][0]["text"]


def test_the_device_frame_and_an_override() -> None:
    """Without vision the points are the device's pixels; ``coordinates`` overrides."""
    settings = select_simulator_tasks("settings-open")[0]
    env = MobileEnv(settings.id)
    env.reset(seed=0)
    target = next(e for e in env.elements if e.label == "Settings")
    x, y = target.point
    for options, point in [({}, (x * 1080, y * 2400)), ({"coordinates": "permille"}, (x * 1000, y * 1000))]:
        reply = f'{{"action_type": "click", "x": {point[0]:.0f}, "y": {point[1]:.0f}}}'
        with ChatServer(lambda request, reply=reply: {"content": reply}) as server:
            record = run_episode(settings, "llm", 0, agent_options={"model": "m", "base_url": server.url,
                                                                      **options, **FAST})
        assert record["success"], (options, record["agent_steps"])


def test_autodroid_is_told_its_own_answer_format() -> None:
    replies = iter(["I would tap the gear.", "- id=-1 - action=tap - input text=N/A"])
    with ChatServer(lambda request: {"content": next(replies)}) as server:
        record = run_episode(select_simulator_tasks("settings-open")[0], "autodroid", 0,
                             agent_options={"model": "m", "base_url": server.url, **FAST})
    assert record["agent_steps"][0]["parse_error"].startswith("no action found in the reply")
    second = server.requests[1]["messages"][-1]["content"]
    told = next(line for line in second.splitlines() if "could not be used" in line)
    assert "id=<id number>" in told and "tap(3)" not in told


def test_an_unusable_reply_is_recorded_as_what_it_was(tmp_path) -> None:
    from mobile_gym.formats.agentenv import read_trace

    replies = iter(["Let me think about the gear icon.", "complete()"])
    with ChatServer(lambda request: {"content": next(replies)}) as server:
        record = run_episode(select_simulator_tasks("settings-open")[0], "llm", 0, trace_dir=tmp_path / "t",
                             agent_options={"model": "m", "base_url": server.url, **FAST})
    assert record["steps"] == 2 and server.requests
    first = read_trace(tmp_path / "t").states[0].action
    assert first == Action.invalid("Let me think about the gear icon.")


def test_an_app_that_is_not_installed_is_told_to_the_model() -> None:
    replies = iter(['{"action_type": "open_app", "app_name": "Gmial"}', '{"action_type": "open_app", '
                    '"app_name": "settings"}', "complete()"])
    with ChatServer(lambda request: {"content": next(replies)}) as server:
        record = run_episode(select_simulator_tasks("settings-open")[0], "llm", 0,
                             agent_options={"model": "m", "base_url": server.url, **FAST})
    told = server.requests[1]["messages"][-1]["content"]
    assert "not done" in told and "Gmial" in told and "Gmail" in told
    assert record["success"] and "nearest installed: Gmail" in record["agent_steps"][0]["refused"]
    assert "refused" not in record["agent_steps"][1]
