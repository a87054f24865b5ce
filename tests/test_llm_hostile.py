"""`LLMAgent` against a hostile endpoint (the loopback `chat_server.ChatServer`, through the
real ``openai`` client): a call ends by its deadline, ``timeout × (retries + 1)``, however
slowly the server sends or long it asks to wait; an answer is read no further than its size
limit once decoded; odd but legal-looking completions are read or refused with a typed
error; huge replies are kept short in the records; nonsense token counts are not believed."""

from __future__ import annotations

import base64
import json
import time
import tracemalloc

import gymnasium as gym
import pytest

from chat_server import TLS_CERT, ChatServer, gzip_bomb
from mobile_gym.actions import ActionType
from mobile_gym.agents import LLMAgent
from mobile_gym.agents.llm import MAX_CALL_TOKENS, MAX_KEPT_CALLS, MAX_KEPT_REPLY
from mobile_gym.errors import AgentError, ConfigError
from mobile_gym.llm.http import MAX_RESPONSE_BYTES
from mobile_gym.runner import Job, run_batch
from mobile_gym.runner.metrics import write_reports

#: Seconds an attempt may take and retries after it: a call's deadline is 2 s.
HOSTILE = {"timeout": 1.0, "retries": 1}
DEADLINE = 2.0


@pytest.fixture(scope="module")
def screen():
    """An observation and info of the settings-open task, for `LLMAgent.act`."""
    env = gym.make("LlamaTouch/settings-open-v0")
    yield env.reset(seed=0)
    env.close()


def act_on(server: ChatServer, screen, **options):
    agent = LLMAgent(base_url=server.url, **{**HOSTILE, **options})
    return agent, agent.act(*screen)


@pytest.mark.parametrize("spec, tls", [
    ({"content": "tap(5)", "trickle": "head"}, False),
    ({"content": "tap(5)", "trickle": "body"}, False),
    ({"content": "tap(5)", "trickle": "body"}, True),
    ({"status": 429, "headers": {"Retry-After": "50"}}, False),
    ({"status": 503, "headers": {"Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT"}}, False),
], ids=["trickled headers", "trickled body", "trickled body over TLS", "Retry-After 50 s", "Retry-After a date"])
def test_a_call_ends_by_its_deadline_whatever_the_server_does(monkeypatch, screen, spec: dict, tls: bool) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(TLS_CERT))
    with ChatServer(lambda request: spec, tls=tls) as server:
        agent = LLMAgent(base_url=server.url, **HOSTILE)
        start = time.monotonic()
        with pytest.raises(AgentError) as raised:
            agent.act(*screen)
        elapsed = time.monotonic() - start
    assert elapsed < 5 * DEADLINE  # a hang guard: it ends near 2 s (unbounded, a trickled answer takes 14 to 50 s)
    assert agent.config.deadline == DEADLINE and len(server.requests) <= 2
    if "status" in spec:  # a wait past the deadline is not waited for
        assert len(server.requests) == 1 and "deadline" in str(raised.value)


def test_https_is_spoken(monkeypatch, screen) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(TLS_CERT))
    with ChatServer(lambda request: {"content": "tap(5)"}, tls=True) as server:
        agent, action = act_on(server, screen)
    assert server.url.startswith("https:") and agent.steps[0]["command"] == "tap(5)"


def test_a_retry_after_within_the_deadline_is_waited_for(screen) -> None:
    answers = iter([{"status": 429, "headers": {"Retry-After": "0.3"}}, {"content": "tap(5)"}])
    with ChatServer(lambda request: next(answers)) as server:
        agent, action = act_on(server, screen, timeout=2.0)
    assert action.action_type is ActionType.CLICK and agent.steps[0]["command"] == "tap(5)"
    assert len(server.requests) == 2


def test_a_gzip_bomb_is_read_no_further_than_the_limit(screen) -> None:
    bomb = gzip_bomb(128 << 20)  # 128 MiB of zeros in 130 kB
    with ChatServer(lambda request: {"raw": bomb, "headers": {"Content-Encoding": "gzip"}}) as server:
        tracemalloc.start()
        try:
            with pytest.raises(AgentError, match="longer than .* once decoded"):
                act_on(server, screen)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 8 * MAX_RESPONSE_BYTES  # not the 128 MiB it expands to


@pytest.mark.parametrize("headers, message", [
    ({"Content-Length": str(10 ** 8)}, "bytes long"),
    ({"Content-Encoding": "br"}, "encoded as 'br'"),
], ids=["declared too long", "an encoding not asked for"])
def test_answers_refused_before_their_body(screen, headers: dict, message: str) -> None:
    with ChatServer(lambda request: {"content": "tap(5)", "headers": headers}) as server:
        with pytest.raises(AgentError, match=message):
            act_on(server, screen)


def test_a_redirect_is_not_followed(screen) -> None:
    """Each request a redirect makes would have a deadline of its own."""
    with ChatServer(lambda request: {"status": 307, "headers": {"Location": "/v1/chat/completions"}}) as server:
        with pytest.raises(AgentError, match="answered 307"):
            act_on(server, screen)
    assert len(server.requests) == 1


def test_an_answer_that_is_valid_gzip_is_read(screen) -> None:
    import gzip

    body = gzip.compress(json.dumps({"choices": [{"message": {"content": "tap(5)"}}]}).encode())
    with ChatServer(lambda request: {"raw": body, "headers": {"Content-Encoding": "gzip"}}) as server:
        agent, action = act_on(server, screen)
    assert agent.steps[0]["command"] == "tap(5)"


def completion(message: dict) -> dict:
    return {"body": {"choices": [{"index": 0, "message": message}]}}


def call(name, arguments) -> dict:
    return {"id": "c", "type": "function", "function": {"name": name, "arguments": arguments}}


@pytest.mark.parametrize("message, command", [
    ({"content": [{"type": "text", "text": "The gear."}, {"type": "text", "text": "Action: tap(5)"}]}, "tap(5)"),
    ({"content": None, "tool_calls": [call("tap", '{"element": 5}')]}, "tap(5)"),
], ids=["content as parts", "a tool call"])
def test_legal_completions_are_read(screen, message: dict, command: str) -> None:
    with ChatServer(lambda request: completion(message)) as server:
        agent, action = act_on(server, screen)
    assert agent.steps[0]["parse_error"] is None and agent.steps[0]["command"] == command


@pytest.mark.parametrize("message", [
    {"content": {"type": "text", "text": "tap(5)"}},
    {"content": None, "tool_calls": "tap(5)"},
    {"content": None, "tool_calls": [call(None, '{"element": 5}')]},
    {"content": None, "tool_calls": [call(["tap"], '{"element": 5}')]},
    {"content": None, "tool_calls": [call("tap", '{"element": ' + "9" * 5000 + "}")]},
    {"content": None, "tool_calls": [call("tap", '{"element": ' + "[" * 5000 + "]" * 5000 + "}")]},
    {"content": None, "tool_calls": [call("type", json.dumps({"element": 3, "text": "caf\ud800"}))]},
    {"content": 'type(3, "caf\ud800")'},
    {"content": "tap(" + "1+" * 5000 + "1)"},
    {"content": "tap(" + "-" * 30000 + "1)"},
    {"content": "tap(" + "not " * 8000 + "1)"},
], ids=["content a dict", "tool_calls a string", "a null tool name", "a list as tool name", "a 5,000-digit id",
        "deep JSON arguments", "a lone surrogate in arguments", "a lone surrogate in text", "tap(1+1+...)",
        "tap(---...1)", "tap(not not ...)"])
def test_odd_replies_are_parse_errors_fed_back(screen, message: dict) -> None:
    answers = iter([completion(message), {"content": "tap(5)"}])
    with ChatServer(lambda request: next(answers)) as server:
        agent = LLMAgent(base_url=server.url, **HOSTILE)
        unused = agent.act(*screen)  # nothing done, the reply kept as it was (cut) for the trace
        assert unused.action_type is ActionType.INVALID and len(unused.text) <= 512
        assert agent.steps[0]["parse_error"] and len(agent.steps[0]["parse_error"]) < 300
        agent.act(*screen)  # the next request carries the reply back, whatever it held
        sent = json.dumps(server.requests[1]["messages"], ensure_ascii=False)
    assert agent.steps[1]["command"] == "tap(5)" and "Your last reply could not be used" in sent
    sent.encode("utf-8")  # no lone surrogate reached the request


@pytest.mark.parametrize("body", [
    {"choices": "tap(5)"},
    {"choices": ["tap(5)"]},
    {"choices": [{"message": "tap(5)"}]},
    {"choices": []},
    [1, 2],
    {"choices": [{"message": {"content": "tap(5)"}}], "x": json.loads("[" * 25 + "]" * 25)},
], ids=["choices a string", "a choice a string", "a message a string", "no choice", "not an object", "deep JSON"])
def test_what_is_no_chat_completion_ends_the_call_with_a_typed_error(screen, body) -> None:
    with ChatServer(lambda request: {"body": body}) as server:
        with pytest.raises(AgentError, match="not a chat completion|without a choice"):
            act_on(server, screen)


def test_a_deeply_nested_body_is_a_typed_error(screen) -> None:
    with ChatServer(lambda request: {"raw": "[" * 200_000 + "]" * 200_000}) as server:
        with pytest.raises(AgentError, match="nested deeper"):
            act_on(server, screen)


@pytest.mark.parametrize("usage", [
    {"prompt_tokens": 10 ** 400, "completion_tokens": 5},
    {"prompt_tokens": -3, "completion_tokens": 5},
    {"prompt_tokens": True, "completion_tokens": 5},
    {"prompt_tokens": float("nan"), "completion_tokens": 5},
    {"prompt_tokens": 1e300, "completion_tokens": 5},
    {"prompt_tokens": "12", "completion_tokens": 5},
    {"prompt_tokens": MAX_CALL_TOKENS + 1, "completion_tokens": 5},
    [12, 5],
], ids=["10**400", "negative", "a bool", "NaN", "1e300", "a string", "past the bound", "a list"])
def test_token_counts_that_are_not_believed_are_estimated(screen, usage) -> None:
    with ChatServer(lambda request: {"content": "tap(5)", "usage": usage}) as server:
        agent, _ = act_on(server, screen)
        prompt = sum(len(str(m["content"])) for m in server.requests[0]["messages"])
    assert agent.usage["tokens_estimated"] is True
    assert agent.usage["tokens_in"] == agent.steps[0]["tokens_in"] == prompt // 4
    assert type(agent.usage["tokens"]) is int and agent.usage["tokens"] < MAX_CALL_TOKENS


def test_token_counts_that_are_counts_are_believed(screen) -> None:
    with ChatServer(lambda request: {"content": "tap(5)", "usage": {"prompt_tokens": 7.0, "completion_tokens": 2}}) \
            as server:
        agent, _ = act_on(server, screen)
    assert agent.usage["tokens_in"] == 7 and agent.usage["tokens_out"] == 2 and not agent.usage["tokens_estimated"]


def test_huge_tool_calls_are_kept_short_in_every_record(tmp_path) -> None:
    calls = [call("type", json.dumps({"element": 3, "text": "x" * 400_000}))] * 6  # 2.6 MB in all
    answers = iter([completion({"content": "y" * 200_000, "tool_calls": calls}), {"content": "tap(5)"}])
    with ChatServer(lambda request: next(answers)) as server:
        records = run_batch([Job("settings-open", "llm", 0)], tmp_path, save_traces=True,
                            agent_options={"base_url": server.url, "timeout": 5.0, "retries": 0})
    write_reports(tmp_path, records)
    kept = records[0]["agent_steps"][0]["reply"]
    assert len(kept["tool_calls"]) == MAX_KEPT_CALLS and len(kept["content"]) == MAX_KEPT_REPLY
    assert all(len(c["function"]["arguments"]) == MAX_KEPT_REPLY for c in kept["tool_calls"])
    assert records[0]["success"] and "characters, more than" in records[0]["agent_steps"][0]["parse_error"]
    (steps_file,) = (tmp_path / "traces").glob("*/agent_steps.json")
    for written in (tmp_path / "episodes.jsonl", steps_file, tmp_path / "report.html"):
        assert "x" * (MAX_KEPT_REPLY + 1) not in written.read_text(encoding="utf-8"), written
    assert (tmp_path / "episodes.jsonl").stat().st_size < 100_000


def test_the_environment_proxy_is_used_with_its_credentials(monkeypatch, screen) -> None:
    with ChatServer(lambda request: {"content": "tap(5)"}) as proxy:
        for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "http_proxy"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HTTP_PROXY", proxy.url.removesuffix("/v1").replace("://", "://user:p%40ss@"))
        agent = LLMAgent(base_url="http://model.invalid/v1", **HOSTILE)  # reached through the proxy only
        agent.act(*screen)
    assert agent.steps[0]["command"] == "tap(5)" and len(proxy.requests) == 1
    assert proxy.headers[0]["Proxy-Authorization"] == "Basic " + base64.b64encode(b"user:p@ss").decode()
    monkeypatch.setenv("HTTP_PROXY", "socks5://127.0.0.1:1")
    with pytest.raises(ConfigError, match="HTTP"):
        LLMAgent(base_url="http://model.invalid/v1")


@pytest.mark.parametrize("options", [{"timeout": float("inf")}, {"timeout": float("nan")}, {"retries": 1.5},
                                     {"retries": -1}, {"max_tokens": 0}])
def test_options_a_deadline_cannot_be_made_of(options: dict) -> None:
    with pytest.raises(ConfigError):
        LLMAgent(**options)
