"""`LLMAgent`: a language model behind any OpenAI-compatible chat endpoint (OpenAI, vLLM,
Ollama, LM Studio, ...) as an agent, through the ``openai`` client.

Each step the model is shown the task, its previous actions with what came of each, the
last reply it gave that could not be used and why, and the screen as AutoDroid's compact
HTML (`mobile_gym.ui.screen_text`), optionally with the screenshot; it answers in the
action grammar of `mobile_gym.llm.grammar` as text, or by calling the grammar's tools
(``mode="tools"``). Typing into a field without focus is a tap, then the typing, on the
next step without a new call.

A call has a deadline: it ends within ``timeout × (retries + 1)`` seconds (`LLMConfig.deadline`),
its attempts, each of at most ``timeout``, and the waits between them included. Attempts
after a 408, 409, 429 or 5xx, a timeout or a dropped connection are retried, after the
server's ``Retry-After`` when it gives one (a wait past the deadline ends the call at once),
else with exponential backoff; an endpoint that cannot be reached is an `AgentError` that
says where it looked. The ``openai`` client talks through `mobile_gym.llm.http.BoundedTransport`:
every socket read and write gets what is left of the attempt's time, and an answer longer than
`mobile_gym.llm.http.MAX_RESPONSE_BYTES` once decoded is an `AgentError`. Usage (`usage`):
the API's token counts, or when a server sends none or nonsense (negative, huge, not whole
numbers) an estimate of four characters a token (flagged ``tokens_estimated``), priced from
`LLMConfig.prices`. Each step's reply (each text in it cut to `MAX_KEPT_REPLY` characters, at
most `MAX_KEPT_CALLS` tool calls), reasoning, parsed command, parse error, tokens and latency
are in `steps` (the runner keeps them with the episode).
"""

from __future__ import annotations

import email.utils
import itertools
import logging
import math
import os
import time
from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from mobile_gym.actions import Action, _shown
from mobile_gym.agents.base import Agent
from mobile_gym.errors import AgentError, ConfigError, ReplyError, whole_number
from mobile_gym.llm.coordinates import COORDINATES, CoordinateFrame, coordinate_frame
from mobile_gym.llm.grammar import grammar_help, load_json, message_text, parse_reply, spelled, tool_schema
from mobile_gym.llm.prompt import outcome, png_base64, said, step_text
from mobile_gym.ui.hierarchy import ViewHierarchy
from mobile_gym.ui.screen_text import ScreenElements

MODES = ("text", "tools")
#: Characters per token for the estimate when a server reports no usage.
CHARS_PER_TOKEN = 4
#: Longest text of a reply kept in a step's record (its content, each tool call's arguments).
MAX_KEPT_REPLY = 4000
#: Most tool calls of a reply kept in a step's record.
MAX_KEPT_CALLS = 4
#: Most tokens a call is believed to count, in or out (contexts hold a few million).
MAX_CALL_TOKENS = 10_000_000
#: Statuses after which a call is tried again, with every 5xx (as the ``openai`` client does).
RETRIED_STATUSES = (408, 409, 429)
#: Seconds before the first retry when the server does not say; doubled each time, up to 8.
FIRST_BACKOFF = 0.5

log = logging.getLogger(__name__)

#: US dollars per million tokens (input, output), as listed by the providers in 2026-11;
#: add yours with ``LLMConfig(prices={"my-model": (0.1, 0.4)})``. Unlisted models cost None.
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
}

SYSTEM_PROMPT = """You are an agent that completes tasks on an Android phone by acting on its screen.
Each turn you see the task, your previous actions and what came of them, and the current screen:
its elements as HTML, each with an id. Choose exactly one next action.

Actions:
{grammar}

Think briefly about what the screen shows and what the task still needs, then end your reply
with one line: Action: <one action>. When the task is done, answer complete()."""

TOOLS_SYSTEM_PROMPT = """You are an agent that completes tasks on an Android phone by acting on its screen.
Each turn you see the task, your previous actions and what came of them, and the current screen:
its elements as HTML, each with an id. Think briefly, then call exactly one tool: the next action.
When the task is done, call complete."""


@dataclass
class LLMConfig:
    """How to reach and prompt the model."""

    model: str = "gpt-4o-mini"  # the name the endpoint serves the model under
    base_url: str | None = None  # an OpenAI-compatible endpoint (e.g. http://127.0.0.1:8000/v1); None: OpenAI
    api_key_env: str = "OPENAI_API_KEY"  # the environment variable holding the key (local servers take any)
    mode: str = "text"  # "text": the reply is parsed; "tools": the model calls the grammar's tools
    vision: bool = False  # send the screenshot too (a PNG, for vision models)
    # the frame of the points a reply names (`mobile_gym.llm.coordinates.COORDINATES`); None:
    # "screenshot" with vision (pixels of the image sent), else "device" (the dump's pixels)
    coordinates: str | None = None
    temperature: float = 0.0
    max_tokens: int = 512  # of each reply
    timeout: float = 60.0  # seconds per attempt of a call, connecting and reading included
    retries: int = 3  # retries of a call after 408, 409, 429, 5xx, timeouts or a dropped connection
    history: int = 8  # previous actions shown
    system_prompt: str | None = None  # replaces the default; ``{grammar}`` is filled in
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)  # model -> $ per 1M tokens in, out

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}; got {self.mode!r}")
        if self.coordinates is not None and self.coordinates not in COORDINATES:
            raise ConfigError(f"coordinates must be one of {', '.join(COORDINATES)}; got {self.coordinates!r}")
        for name in ("timeout", "temperature"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or value < 0 or (name == "timeout" and value == 0):
                raise ConfigError(f"{name} must be a positive number, got {value!r}")
        self.max_tokens = whole_number("max_tokens", self.max_tokens, 1)
        self.retries = whole_number("retries", self.retries, 0)
        self.history = whole_number("history", self.history, 0)

    @property
    def points(self) -> bool:
        """Whether the model is offered points (it sees the screenshot, or a frame was set)."""
        return self.vision or self.coordinates is not None

    @property
    def frame_name(self) -> str:
        """The coordinate frame in use: as set, else from what the model is sent."""
        return self.coordinates or ("screenshot" if self.vision else "device")

    @property
    def deadline(self) -> float:
        """Seconds a call may take, its retries and the waits between them included."""
        return self.timeout * (self.retries + 1)


class LLMAgent(Agent):
    """An agent that asks a chat model for each action.

    Options (``mobile-gym run --agent llm --model M --base-url URL ...``) are `LLMConfig`'s
    fields; ``client`` injects an ``openai.OpenAI``-like client (tests, proxies), asked through
    ``chat.completions.with_raw_response.create``: its own transport and retries apply within
    each attempt."""

    name = "llm"

    def __init__(self, task: Any = None, seed: int | None = None, *, client: Any = None,
                 config: LLMConfig | None = None, **options: Any):
        known = {f.name for f in fields(LLMConfig)}
        unknown = set(options) - known
        if unknown:
            raise ConfigError(f"unknown option(s) {', '.join(sorted(unknown))} for {self.name}: "
                              f"known are {', '.join(sorted(known))}")
        self.config = config if config is not None else LLMConfig(**options)
        self.task = task
        self.client = client if client is not None else self._make_client()  # no network yet
        self.reset(seed)

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None) -> None:
        self.steps: list[dict[str, Any]] = []
        self.usage: dict[str, Any] = {"tokens": 0, "tokens_in": 0, "tokens_out": 0, "cost": 0.0, "calls": 0,
                                      "model_time": 0.0, "tokens_estimated": False}
        self._pending: list[Action] = []
        self._past: list[str] = []  # history lines (`mobile_gym.llm.prompt.outcome`)
        self._pending_outcome: str | None = None
        self._last_xml: str | None = None
        self._last_error: str | None = None

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        if info.get("action_error"):  # the device refused the last action: the rest of its reply goes too
            self._pending = []
        if self._pending:  # the rest of a reply (the typing after a tap on the field): no new call
            return self._pending.pop(0)
        xml = observation["view_hierarchy"]
        self._note_outcome(xml, info)
        screen = ScreenElements.of(ViewHierarchy.of(xml))
        messages = self._messages(observation, info, screen)
        record: dict[str, Any] = {"reply": None, "reasoning": "", "command": None, "parse_error": None}
        reply, latency, tokens = self._ask(messages)
        record.update(latency=latency, tokens_in=tokens[0], tokens_out=tokens[1], reply=_kept(reply))
        try:
            command = parse_reply(reply)
            actions = command.actions(screen, self.frame(observation, screen))
        except ReplyError as e:
            self._last_error = self.feedback(str(e))
            record["parse_error"] = str(e)
            self.steps.append(record)
            self._past.append(outcome(said(reply), str(e), False, None))
            # nothing is done; the trace shows the reply as it was (cut to an action's text)
            return Action.invalid(reply)
        self._last_error = None
        record.update(command=spelled(command), reasoning=command.reasoning[:MAX_KEPT_REPLY],
                      actions=[str(a) for a in actions])
        self.steps.append(record)
        self._pending_outcome = spelled(command)  # its line waits for the screen it leads to
        self._pending = actions[1:]
        return actions[0]

    def frame(self, observation: Mapping[str, Any], screen: ScreenElements) -> CoordinateFrame:
        """The frame of this step's points (`LLMConfig.frame_name`): a screenshot's is the
        size of the image sent."""
        shot = observation.get("screenshot")
        size = (shot.shape[1], shot.shape[0]) if shot is not None else None
        name = self.config.frame_name
        if size is None and self.config.coordinates is None:
            name = "device"  # vision asked, but the env observes no screenshot: none is sent
        return coordinate_frame(name, screen.size, size)

    def feedback(self, error: str) -> str:
        """How a reply's error is told to the model (subclasses speak their answer format)."""
        return error

    # ------------------------------------------------------------------ the prompt
    def _note_outcome(self, xml: str, info: Mapping[str, Any]) -> None:
        """Write the last command's history line, now that its screen is known (the screen
        it was given on against this one); an action the device refused (an app not
        installed) is a line saying why, and the error the model is shown next."""
        if self._pending_outcome is not None:
            refused = info.get("action_error")
            if refused:
                self._last_error = self.feedback(refused)
                self.steps[-1]["refused"] = refused  # the record of the reply that asked for it
            self._past.append(outcome(self._pending_outcome, refused, xml != self._last_xml, info.get("activity")))
            self._pending_outcome = None
        self._last_xml = xml

    def prompt(self, observation: Mapping[str, Any], info: Mapping[str, Any],
               screen: ScreenElements) -> tuple[str, str]:
        """The system prompt and the user's text for this step (subclasses change the wording)."""
        config = self.config
        points = config.points
        if config.system_prompt is not None:
            system = config.system_prompt.replace("{grammar}", grammar_help(points))
        else:
            system = (TOOLS_SYSTEM_PROMPT if config.mode == "tools"
                      else SYSTEM_PROMPT.format(grammar=grammar_help(points)))
        if points:  # the model may point: say in what frame
            system += "\n" + points_help(self.frame(observation, screen))
        return system, step_text(observation["instruction"], self._past, config.history, screen.html(),
                                 info.get("activity"), self._last_error)

    def _messages(self, observation: Mapping[str, Any], info: Mapping[str, Any],
                  screen: ScreenElements) -> list[dict[str, Any]]:
        system, text = self.prompt(observation, info, screen)
        content: Any = text
        if self.config.vision and observation.get("screenshot") is not None:
            url = "data:image/png;base64," + png_base64(observation["screenshot"])
            content = [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": url}}]
        return [{"role": "system", "content": system}, {"role": "user", "content": content}]

    # ------------------------------------------------------------------ the call
    def _make_client(self) -> Any:
        """The ``openai`` client, made here so that an act's time is the model's. It does
        not retry (`_call` does, within the deadline) and talks through a
        `mobile_gym.llm.http.BoundedTransport`."""
        import openai

        from mobile_gym.llm.http import bounded_client

        config = self.config
        key = os.environ.get(config.api_key_env) or "not-needed"  # local servers ignore it
        return openai.OpenAI(base_url=config.base_url, api_key=key, timeout=config.timeout, max_retries=0,
                             http_client=bounded_client(config.base_url, config.timeout))

    def _ask(self, messages: list[dict[str, Any]]) -> tuple[Any, float, tuple[int, int]]:
        """The model's reply to ``messages`` (as `parse_reply` takes it), the call's
        time, and its tokens in and out."""
        config = self.config
        kwargs: dict[str, Any] = dict(model=config.model, messages=messages, temperature=config.temperature,
                                      max_tokens=config.max_tokens)
        if config.mode == "tools":
            kwargs.update(tools=tool_schema(config.points), tool_choice="required")
        start = time.perf_counter()
        message, usage = _completion(self._call(kwargs))
        latency = time.perf_counter() - start
        reply = _reply_of(message)
        tokens = self._count(usage, messages, reply)
        self.usage["calls"] += 1
        self.usage["model_time"] += latency
        return reply, latency, tokens

    def _call(self, kwargs: dict[str, Any]) -> bytes:
        """The body of the endpoint's answer to a chat completion request, by the call's
        deadline (`LLMConfig.deadline` from now): each attempt gets at most ``timeout`` of
        what is left, a retry waits as the server's ``Retry-After`` says or backs off, and
        a wait the deadline leaves no time for ends the call at once."""
        import openai

        config = self.config
        deadline = time.monotonic() + config.deadline
        for attempt in itertools.count():
            try:
                left = deadline - time.monotonic()
                return self.client.chat.completions.with_raw_response.create(
                    **kwargs, timeout=max(min(config.timeout, left), 1e-3)).content
            except openai.APIStatusError as e:
                failure = (f"the model endpoint answered {e.status_code} after {attempt} retries: "
                           f"{_short_text(e.message)}")
                if e.status_code not in RETRIED_STATUSES and e.status_code < 500:
                    raise AgentError(failure) from None
                wait = _retry_after(e.response.headers)
            except openai.APIConnectionError as e:  # timeouts included
                failure = (f"cannot reach the model at {config.base_url or 'the OpenAI API'} after {attempt} "
                           f"retries ({type(e).__name__}: {_short_text(e)}); is the server running, and is "
                           "--base-url right?")
                wait = None
            except openai.OpenAIError as e:
                raise AgentError(f"the model endpoint's answer is not a chat completion ({type(e).__name__}: "
                                 f"{_short_text(e)})") from None
            if attempt >= config.retries:
                raise AgentError(failure)
            wait = min(FIRST_BACKOFF * 2 ** attempt, 8.0) if wait is None else wait
            if time.monotonic() + wait >= deadline:
                raise AgentError(f"{failure}; the next try, {wait:.3g} s later, would pass the call's deadline "
                                 f"({config.deadline:g} s: timeout × (retries + 1))")
            time.sleep(wait)  # a time the server asked for, or backoff: no condition to wait on

    def _count(self, usage: Any, messages: list[dict[str, Any]], reply: Any) -> tuple[int, int]:
        """The call's tokens in and out: the server's ``usage`` when it holds token counts
        (whole numbers from 0 to `MAX_CALL_TOKENS`), else an estimate of `CHARS_PER_TOKEN`
        characters a token, flagged ``tokens_estimated``."""
        used_in, used_out = (_token_count(usage.get("prompt_tokens")), _token_count(usage.get("completion_tokens"))) \
            if isinstance(usage, Mapping) else (None, None)
        if used_in is None or used_out is None:
            if usage is not None:
                log.warning("the model endpoint's usage is no token counts, estimated instead: %s", _shown(usage))
            self.usage["tokens_estimated"] = True
            used_in = sum(len(str(m.get("content", ""))) for m in messages) // CHARS_PER_TOKEN
            used_out = len(str(reply)) // CHARS_PER_TOKEN
        self.usage["tokens_in"] += used_in
        self.usage["tokens_out"] += used_out
        self.usage["tokens"] = self.usage["tokens_in"] + self.usage["tokens_out"]
        price = {**DEFAULT_PRICES, **self.config.prices}.get(self.config.model)
        if price is None:
            self.usage["cost"] = None
        elif self.usage["cost"] is not None:
            self.usage["cost"] += (used_in * price[0] + used_out * price[1]) / 1e6
        return used_in, used_out


def points_help(frame: CoordinateFrame) -> str:
    """The prompt's sentence on points: a model may name one instead of an element id."""
    return ("You may name a point instead of an element id, e.g. tap(x, y) or long_press(x, y): x from the left, "
            f"y from the top, in {frame.describe()}.")


class AutoDroidAgent(LLMAgent):
    """AutoDroid's prompt (Wen et al., MobiCom '24, Fig. 4 and §3.4): the role, the task,
    the previous UI actions, the screen as compact HTML, and its fill-in-the-blanks answer
    ``- id=<id> - action=<tap/input> - input text=<text or N/A>`` (id -1: done), after its
    four questions. It replies in text; the other options are `LLMAgent`'s."""

    name = "autodroid"

    def __init__(self, task: Any = None, seed: int | None = None, **kwargs: Any):
        if kwargs.get("mode", "text") != "text":
            raise ConfigError("the autodroid agent answers in text: mode must be 'text'")
        super().__init__(task, seed, **kwargs)

    def prompt(self, observation: Mapping[str, Any], info: Mapping[str, Any],
               screen: ScreenElements) -> tuple[str, str]:
        shown = self._past[-self.config.history:] if self.config.history else []
        lines = [f"Task: {observation['instruction']}", "Previous UI actions:"]
        lines += [f"- {entry}" for entry in shown] or ["- (none)"]
        if self._last_error:
            lines.append(f"(Your last answer could not be used: {self._last_error})")
        lines.append("Current UI state:")
        lines += [f"    {line}" for line in (screen.html() or "(nothing on screen)").splitlines()]
        lines.append(AUTODROID_QUESTIONS)
        return AUTODROID_ROLE, "\n".join(lines)

    def feedback(self, error: str) -> str:
        """The reason, then AutoDroid's own answer format (the grammar's errors suggest
        function-style calls, which this prompt never asks for)."""
        reason = error.split(": answer with", 1)[0].rstrip(". ")
        return f"{reason}. {AUTODROID_ANSWER}"


AUTODROID_ROLE = ("You are a smartphone assistant to help users complete tasks by interacting with mobile apps. "
                  "Given a task, the previous UI actions, and the content of current UI state, your job is to "
                  "decide whether the task is already finished by the previous actions, and if not, decide which "
                  "UI element in current UI state should be interacted.")
#: AutoDroid's fill-in-the-blanks answer, as its prompt asks for it.
AUTODROID_ANSWER = ("Fill in the blanks about the next one interaction: - id=<id number> - action=<tap/input> "
                    "- input text=<text or N/A> (if you think the task has been completed, the id should be -1)")
AUTODROID_QUESTIONS = (
    "Your answer should always use the following format: 1. Completing this task on a smartphone usually involves "
    "these steps: <?>. 2. Analyses of the relations between the task and the previous UI actions and current UI "
    "state: <?>. 3. Based on the previous actions, is the task already finished? <Y/N>. The next step should be "
    "<?/None>. 4. Can the task be proceeded with the current UI state? <Y/N>. " + AUTODROID_ANSWER)


def _completion(body: bytes) -> tuple[Mapping[str, Any], Any]:
    """The message of a chat completion's first choice, and the completion's usage; an
    `AgentError` when ``body`` is no chat completion."""
    from mobile_gym.llm.http import MAX_RESPONSE_BYTES

    try:
        data = load_json(body.decode("utf-8"), "the answer", MAX_RESPONSE_BYTES)
    except (UnicodeDecodeError, ReplyError) as e:
        raise AgentError(f"the model endpoint's answer is not a chat completion ({_short_text(e)})") from None
    choices = data.get("choices") if isinstance(data, Mapping) else None
    if not choices:
        raise AgentError("the model endpoint answered without a choice")
    message = choices[0].get("message") if isinstance(choices, list) and isinstance(choices[0], Mapping) else None
    if not isinstance(message, Mapping):
        raise AgentError(f"the model endpoint's answer is not a chat completion (its choices: {_shown(choices)})")
    return message, data.get("usage")


def _reply_of(message: Mapping[str, Any]) -> Any:
    """A chat message as `parse_reply` takes it: its text (a multi-part content's text
    parts joined), or the message's content and tool calls."""
    calls = message.get("tool_calls")
    text = message_text(message.get("content"))
    if text is not None and not calls:
        return text
    return {"content": message.get("content") if text is None else text, "tool_calls": calls}


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds the server asks to wait before trying again (``Retry-After-Ms``, or
    ``Retry-After`` in seconds or as a date), None when it does not say."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / scale
        except ValueError:
            try:
                seconds = email.utils.parsedate_to_datetime(value).timestamp() - time.time()
            except (TypeError, ValueError, OverflowError, OSError):
                continue
        if not math.isnan(seconds):
            return max(seconds, 0.0)
    return None


def _token_count(value: Any) -> int | None:
    """``value`` as a count of tokens, None when it is none (negative, past
    `MAX_CALL_TOKENS`, not a whole number, a bool)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_CALL_TOKENS:
        return value
    return None


def _kept(reply: Any) -> Any:
    """A reply as a step's record keeps it: each text cut to `MAX_KEPT_REPLY`
    characters, the first `MAX_KEPT_CALLS` tool calls, anything else as a short repr."""
    if not isinstance(reply, Mapping):
        return _kept_text(reply)
    calls = reply.get("tool_calls")
    return {"content": _kept_text(reply.get("content")),
            "tool_calls": [_kept_call(c) for c in calls[:MAX_KEPT_CALLS]] if isinstance(calls, list)
            else _kept_text(calls)}


def _kept_call(call: Any) -> Any:
    function = call.get("function", call) if isinstance(call, Mapping) else None
    if not isinstance(function, Mapping):
        return _kept_text(call)
    return {"function": {"name": _kept_text(function.get("name")), "arguments": _kept_text(function.get("arguments"))}}


def _kept_text(value: Any) -> str | None:
    if value is None:
        return None
    return value[:MAX_KEPT_REPLY] if isinstance(value, str) else _shown(value, MAX_KEPT_REPLY)


def _short_text(text: Any) -> str:
    return str(text)[:200]
