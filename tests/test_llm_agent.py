"""`LLMAgent` and `AutoDroidAgent` through the real ``openai`` client against a loopback
chat server (`chat_server.ChatServer`): scripted models solve tasks through the runner;
malformed replies are fed back; 429s are retried; 500s, stalls and a closed port end the
episode with a clear error, never a hang; tokens, cost and latency reach the records."""

from __future__ import annotations

import json
import socket
import time

import pytest

from chat_server import ChatServer
from mobile_gym.agents import LLMAgent
from mobile_gym.errors import ConfigError
from mobile_gym.runner import Job, run_batch, run_episode
from mobile_gym.tasks.suite import select_simulator_tasks
from scripted_models import scripted_reply

FAST = {"timeout": 5.0, "retries": 2}


def prompt_of(request: dict) -> str:
    content = request["messages"][-1]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def text_model(task: str):
    return lambda request: {"content": "Looking at the screen.\n" + scripted_reply(task, prompt_of(request))}


def task_of(name: str):
    return select_simulator_tasks(name)[0]


@pytest.mark.parametrize("task", ["settings-turn-off-wifi", "bestbuy-empty-cart"])
def test_a_scripted_model_solves_tasks_through_the_runner(task: str) -> None:
    with ChatServer(text_model(task)) as server:
        record = run_episode(task_of(task), "llm", 0, env_kwargs={"dynamics": "default"},
                             agent_options={"model": "gpt-4o-mini", "base_url": server.url, **FAST})
    assert record["error"] is None and record["success"], record
    steps = record["agent_steps"]
    assert record["calls"] == len(server.requests) == len(steps)
    assert record["steps"] == sum(len(s["actions"]) for s in steps)  # a call per command: typing follows a tap
    assert all(s["parse_error"] is None and s["reply"].startswith("Looking") for s in steps)
    assert record["tokens_in"] > 0 and record["tokens_out"] > 0
    assert record["tokens"] == record["tokens_in"] + record["tokens_out"]
    expected_cost = (record["tokens_in"] * 0.15 + record["tokens_out"] * 0.60) / 1e6
    assert record["cost"] == pytest.approx(expected_cost)
    assert 0 < record["model_time"] and record["act_latency"] > 0
    last = prompt_of(server.requests[-1])
    assert "Previous actions:" in last and "the screen changed" in last


def test_tool_calls_mode_and_the_schema_sent() -> None:
    def model(request):
        m = next(iter(__import__("re").finditer(r"<button id=(\d+)>Settings</button>", prompt_of(request))), None)
        return {"content": None, "tool_calls": [("tap", {"element": int(m.group(1)) if m else 0})]}

    with ChatServer(model) as server:
        record = run_episode(task_of("settings-open"), "llm", 0,
                             agent_options={"model": "local", "base_url": server.url, "mode": "tools", **FAST})
    assert record["success"] and record["agent_steps"][0]["command"].startswith("tap(")
    sent = server.requests[0]
    assert [t["function"]["name"] for t in sent["tools"]][:3] == ["tap", "type", "scroll"]
    assert sent["tool_choice"] == "required"
    assert record["cost"] is None  # no price for "local"


def test_a_malformed_reply_is_fed_back_and_the_episode_goes_on() -> None:
    replies = iter(["I think tap(3) or tap(4)", "tap(Settings)", "tap(5)"])
    with ChatServer(lambda request: {"content": next(replies)}) as server:
        record = run_episode(task_of("settings-open"), "llm", 0, agent_options={"base_url": server.url, **FAST})
    assert record["success"] and record["steps"] == 3
    errors = [s["parse_error"] for s in record["agent_steps"]]
    assert "several actions" in errors[0] and "Settings" in errors[1] and errors[2] is None
    assert "Your last reply could not be used: the reply names several actions" in prompt_of(server.requests[1])
    assert "1. I think tap(3) or tap(4) - not done" in prompt_of(server.requests[2])


def test_rate_limits_are_retried() -> None:
    answers = iter([{"status": 429}, {"status": 429}, {"content": "tap(5)"}])
    with ChatServer(lambda request: next(answers)) as server:
        record = run_episode(task_of("settings-open"), "llm", 0, agent_options={"base_url": server.url, **FAST})
    assert record["success"] and len(server.requests) == 3 and record["calls"] == 1


@pytest.mark.parametrize("spec, message", [
    ({"status": 500}, "answered 500"),
    ({"delay": 30}, "cannot reach the model"),
    ({"raw": "<html>not json</html>"}, "not a chat completion"),
])
def test_failing_endpoints_end_the_episode_with_a_clear_error(spec: dict, message: str) -> None:
    with ChatServer(lambda request: spec) as server:
        start = time.monotonic()
        record = run_episode(task_of("settings-open"), "llm", 0,
                             agent_options={"base_url": server.url, "timeout": 0.5, "retries": 1})
        elapsed = time.monotonic() - start
    assert record["error"] is not None and not record["success"]
    assert record["error"]["kind"] == "AgentError" and message in record["error"]["message"]
    assert elapsed < 20  # retried once, then given up: nothing hangs


def test_an_endpoint_nobody_listens_on() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again when the block ends: nothing listens there
    url = f"http://127.0.0.1:{port}/v1"
    record = run_episode(task_of("settings-open"), "llm", 0, agent_options={"base_url": url, "retries": 0})
    assert record["error"]["kind"] == "AgentError" and url in record["error"]["message"]


def test_usage_without_counts_is_estimated() -> None:
    with ChatServer(lambda request: {"content": "tap(5)", "usage": False}) as server:
        record = run_episode(task_of("settings-open"), "llm", 0, agent_options={"base_url": server.url, **FAST})
        prompt = json.dumps(server.requests[0]["messages"])
    assert record["tokens_estimated"] is True
    assert abs(record["tokens_in"] - len(prompt) // 4) < len(prompt) // 10  # four characters a token
    assert record["agent_steps"][0]["tokens_in"] == record["tokens_in"]


def test_vision_sends_the_screenshot() -> None:
    with ChatServer(lambda request: {"content": "tap(5)"}) as server:
        record = run_episode(task_of("settings-open"), "llm", 0,
                             agent_options={"base_url": server.url, "vision": True, **FAST})
    content = server.requests[0]["messages"][-1]["content"]
    assert record["success"] and content[1]["image_url"]["url"].startswith("data:image/png;base64,iVBOR")


def test_the_autodroid_agent_uses_its_prompt_and_answer_format() -> None:
    def model(request):
        reply = scripted_reply("settings-turn-off-wifi", prompt_of(request))
        element = __import__("re").search(r"(\d+)", reply).group(1)
        return {"content": "1. Completing this task usually involves: open settings. 2. ... 3. N. The next step "
                           f"should be tap(Settings). 4. Y. - id={element} - action=tap - input text=N/A"}

    with ChatServer(model) as server:
        record = run_episode(task_of("settings-turn-off-wifi"), "autodroid", 0,
                             agent_options={"base_url": server.url, **FAST})
    assert record["success"], record["agent_steps"]
    first = server.requests[0]["messages"]
    assert first[0]["content"].startswith("You are a smartphone assistant")
    assert "Previous UI actions:" in first[1]["content"] and "- id=<id number>" in first[1]["content"]


def test_batch_runs_record_usage_and_bad_options_fail_first(tmp_path) -> None:
    with ChatServer(lambda request: {"content": "tap(5)"}) as server:
        records = run_batch([Job("settings-open", "llm", s) for s in (0, 1)], tmp_path / "run", workers=2,
                            agent_options={"base_url": server.url, **FAST})
    assert all(r["success"] and r["calls"] == 1 and r["tokens"] > 0 for r in records)
    lines = [json.loads(line) for line in (tmp_path / "run" / "episodes.jsonl").read_text().splitlines()]
    assert all(line["agent_steps"][0]["command"] == "tap(5)" for line in lines)
    with pytest.raises(ConfigError, match="unknown option"):
        run_batch([Job("settings-open", "llm", 0)], tmp_path / "bad", agent_options={"modle": "x"})
    with pytest.raises(ConfigError, match="takes no option"):
        run_batch([Job("settings-open", "oracle", 0)], tmp_path / "bad2", agent_options={"model": "x"})
    with pytest.raises(ConfigError, match="mode"):
        LLMAgent(mode="voice")


def test_mobile_gym_run_with_a_local_model_server(tmp_path, capsys) -> None:
    """What an agent builder types: ``mobile-gym run --agent llm --model M --base-url URL``."""
    from mobile_gym.cli import main

    with ChatServer(lambda request: {"content": "Action: tap(5)"}) as server:
        code = main(["run", "--agent", "llm", "--model", "my-local-model", "--base-url", server.url, "--tasks",
                     "settings-open", "--seeds", "2", "--timeout", "5", "--price", "1", "2",
                     "--out", str(tmp_path / "run")])
    printed = capsys.readouterr().out
    assert code == 0
    header = next(line for line in printed.splitlines() if line.startswith("| agent"))
    assert all(c in header for c in ("tokens in total", "tokens out total", "cost ($) total", "agent act ms/step",
                                     "env step ms/step"))
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())["overall"]
    assert summary["success_rate"] == 1.0 and summary["tokens_in"] > 0
    assert summary["cost"] == pytest.approx((summary["tokens_in"] * 1 + summary["tokens_out"] * 2) / 1e6)
    assert server.requests[0]["model"] == "my-local-model"
    assert "tokens_in" in (tmp_path / "run" / "episodes.csv").read_text().splitlines()[0]


def test_saved_traces_keep_the_model_replies(tmp_path) -> None:
    with ChatServer(lambda request: {"content": "Settings is 5.\nAction: tap(5)"}) as server:
        run_batch([Job("settings-open", "llm", 0)], tmp_path, save_traces=True,
                  agent_options={"base_url": server.url, **FAST})
    (steps_file,) = (tmp_path / "traces").glob("*/agent_steps.json")
    steps = json.loads(steps_file.read_text())
    assert steps[0]["reply"] == "Settings is 5.\nAction: tap(5)" and steps[0]["reasoning"] == "Settings is 5."
    assert (steps_file.parent / "captured_data").is_dir()  # beside the AgentEnv trace


def test_the_report_shows_replies_next_to_the_steps_and_flags_parse_errors(tmp_path) -> None:
    import lxml.html

    from mobile_gym.runner.metrics import write_reports

    replies = iter(["Maybe tap(1) or tap(2)?", "The gear.\nAction: tap(5)"])
    with ChatServer(lambda request: {"content": next(replies)}) as server:
        records = run_batch([Job("settings-open", "llm", 0)], tmp_path, save_traces=True,
                            agent_options={"base_url": server.url, **FAST})
    write_reports(tmp_path, records)
    doc = lxml.html.fromstring((tmp_path / "report.html").read_text(encoding="utf-8"))
    steps = doc.xpath("//figure[contains(@class, 'step')]")
    assert len(steps) == 3  # two replies, the last screen
    bad = steps[0].xpath(".//div[contains(@class, 'reply') and contains(@class, 'bad')]")
    assert bad and "several actions" in bad[0].text_content() and "Maybe tap(1)" in bad[0].text_content()
    assert "tap(5)" in steps[1].xpath("string(.//code[@class='command'])")
    assert "The gear." in steps[1].xpath("string(.//pre)")
    assert doc.xpath("//th[text()='tokens in']") and "tokens in" in doc.xpath("string(//span[contains(@class,'usage')])")
