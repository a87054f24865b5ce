"""`LLMAgent`: a language model behind any OpenAI-compatible chat endpoint (OpenAI, vLLM,
Ollama, LM Studio, ...) as an agent, through the ``openai`` client.

Each step the model is shown the task, its previous actions with what came of each, the
last reply it gave that could not be used and why, and the screen as AutoDroid's compact
HTML (`mobile_gym.ui.screen_text`), optionally with the screenshot; it answers in the
action grammar of `mobile_gym.llm.grammar` as text, or by calling the grammar's tools
(``mode="tools"``). Typing into a field without focus is a tap, then the typing, on the
next step without a new call.

Calls have a timeout and are retried by the client with exponential backoff on 429, 5xx
and timeouts; an endpoint that cannot be reached is an `AgentError` that says where it
looked. Usage (`usage`): the API's token counts, or when a server sends none an estimate
of four characters a token (flagged ``tokens_estimated``), priced from `LLMConfig.prices`.
Each step's raw reply, reasoning, parsed command, parse error, tokens and latency are in
`steps` (the runner keeps them with the episode).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, fields
from typing import Any, Mapping

from mobile_gym.actions import NO_OP, Action
from mobile_gym.agents.base import Agent
from mobile_gym.errors import AgentError, ConfigError, ReplyError
from mobile_gym.llm.grammar import grammar_help, parse_reply, spelled, tool_schema
from mobile_gym.llm.prompt import outcome, png_base64, said, step_text
from mobile_gym.ui.hierarchy import ViewHierarchy
from mobile_gym.ui.screen_text import ScreenElements

MODES = ("text", "tools")
#: Characters per token for the estimate when a server reports no usage.
CHARS_PER_TOKEN = 4
#: Longest reply kept in a step's record.
MAX_KEPT_REPLY = 4000

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
    temperature: float = 0.0
    max_tokens: int = 512  # of each reply
    timeout: float = 60.0  # seconds per call, connecting included
    retries: int = 3  # retries of a call after 429, 5xx, timeouts or a dropped connection
    history: int = 8  # previous actions shown
    system_prompt: str | None = None  # replaces the default; ``{grammar}`` is filled in
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)  # model -> $ per 1M tokens in, out

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}; got {self.mode!r}")
        for name in ("timeout", "max_tokens", "retries", "history", "temperature"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or (
                    name in ("timeout", "max_tokens") and value == 0):
                raise ConfigError(f"{name} must be a positive number, got {value!r}")


class LLMAgent(Agent):
    """An agent that asks a chat model for each action.

    Options (``mobile-gym run --agent llm --model M --base-url URL ...``) are `LLMConfig`'s
    fields; ``client`` injects an ``openai.OpenAI``-like client (tests, proxies)."""

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
        if self._pending:  # the typing after a tap on the field: no new call
            return self._pending.pop(0)
        xml = observation["view_hierarchy"]
        self._note_outcome(xml, info)
        screen = ScreenElements.of(ViewHierarchy.of(xml))
        messages = self._messages(observation, info, screen)
        record: dict[str, Any] = {"reply": None, "reasoning": "", "command": None, "parse_error": None}
        message, latency, tokens = self._ask(messages)
        record.update(latency=latency, tokens_in=tokens[0], tokens_out=tokens[1])
        reply = _reply_of(message)
        record["reply"] = _kept(reply)
        try:
            command = parse_reply(reply)
            actions = command.actions(screen)
        except ReplyError as e:
            self._last_error = str(e)
            record["parse_error"] = str(e)
            self.steps.append(record)
            self._past.append(outcome(said(reply), str(e), False, None))
            return NO_OP
        self._last_error = None
        record.update(command=spelled(command), reasoning=command.reasoning[:MAX_KEPT_REPLY],
                      actions=[str(a) for a in actions])
        self.steps.append(record)
        self._pending_outcome = spelled(command)  # its line waits for the screen it leads to
        self._pending = actions[1:]
        return actions[0]

    # ------------------------------------------------------------------ the prompt
    def _note_outcome(self, xml: str, info: Mapping[str, Any]) -> None:
        """Write the last command's history line, now that its screen is known (the screen
        it was given on against this one)."""
        if self._pending_outcome is not None:
            self._past.append(outcome(self._pending_outcome, None, xml != self._last_xml, info.get("activity")))
            self._pending_outcome = None
        self._last_xml = xml

    def prompt(self, observation: Mapping[str, Any], info: Mapping[str, Any],
               screen: ScreenElements) -> tuple[str, str]:
        """The system prompt and the user's text for this step (subclasses change the wording)."""
        config = self.config
        if config.system_prompt is not None:
            system = config.system_prompt.replace("{grammar}", grammar_help())
        else:
            system = TOOLS_SYSTEM_PROMPT if config.mode == "tools" else SYSTEM_PROMPT.format(grammar=grammar_help())
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
        """The ``openai`` client, made here so that an act's time is the model's."""
        import openai

        key = os.environ.get(self.config.api_key_env) or "not-needed"  # local servers ignore it
        return openai.OpenAI(base_url=self.config.base_url, api_key=key, timeout=self.config.timeout,
                             max_retries=self.config.retries)

    def _ask(self, messages: list[dict[str, Any]]) -> tuple[Any, float, tuple[int, int]]:
        import openai

        config = self.config
        kwargs: dict[str, Any] = dict(model=config.model, messages=messages, temperature=config.temperature,
                                      max_tokens=config.max_tokens)
        if config.mode == "tools":
            kwargs.update(tools=tool_schema(), tool_choice="required")
        start = time.perf_counter()
        try:
            response = self.client.chat.completions.create(**kwargs)
        except openai.APIConnectionError as e:  # includes timeouts, after the retries
            where = config.base_url or "the OpenAI API"
            raise AgentError(f"cannot reach the model at {where} ({type(e).__name__}: {e}); is the server "
                             f"running, and is --base-url right?") from None
        except openai.APIStatusError as e:
            raise AgentError(f"the model endpoint answered {e.status_code} after {config.retries} retries: "
                             f"{_short_text(e.message)}") from None
        except (openai.OpenAIError, ValueError) as e:  # e.g. a body that is not JSON
            raise AgentError(f"the model endpoint's answer is not a chat completion ({type(e).__name__}: "
                             f"{_short_text(e)})") from None
        latency = time.perf_counter() - start
        choices = getattr(response, "choices", None) or []
        if not choices:
            raise AgentError("the model endpoint answered without a choice")
        message = choices[0].message
        tokens = self._count(response, messages, message)
        self.usage["calls"] += 1
        self.usage["model_time"] += latency
        return message, latency, tokens

    def _count(self, response: Any, messages: list[dict[str, Any]], message: Any) -> tuple[int, int]:
        usage = getattr(response, "usage", None)
        used_in = getattr(usage, "prompt_tokens", None)
        used_out = getattr(usage, "completion_tokens", None)
        if not isinstance(used_in, int) or not isinstance(used_out, int):
            self.usage["tokens_estimated"] = True
            used_in = sum(len(str(m.get("content", ""))) for m in messages) // CHARS_PER_TOKEN
            used_out = len(str(_reply_of(message))) // CHARS_PER_TOKEN
        self.usage["tokens_in"] += used_in
        self.usage["tokens_out"] += used_out
        self.usage["tokens"] = self.usage["tokens_in"] + self.usage["tokens_out"]
        price = {**DEFAULT_PRICES, **self.config.prices}.get(self.config.model)
        if price is None:
            self.usage["cost"] = None
        elif self.usage["cost"] is not None:
            self.usage["cost"] += (used_in * price[0] + used_out * price[1]) / 1e6
        return used_in, used_out


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


AUTODROID_ROLE = ("You are a smartphone assistant to help users complete tasks by interacting with mobile apps. "
                  "Given a task, the previous UI actions, and the content of current UI state, your job is to "
                  "decide whether the task is already finished by the previous actions, and if not, decide which "
                  "UI element in current UI state should be interacted.")
AUTODROID_QUESTIONS = (
    "Your answer should always use the following format: 1. Completing this task on a smartphone usually involves "
    "these steps: <?>. 2. Analyses of the relations between the task and the previous UI actions and current UI "
    "state: <?>. 3. Based on the previous actions, is the task already finished? <Y/N>. The next step should be "
    "<?/None>. 4. Can the task be proceeded with the current UI state? <Y/N>. Fill in the blanks about the next "
    "one interaction: - id=<id number> - action=<tap/input> - input text=<text or N/A> (if you think the task "
    "has been completed, the id should be -1)")


def _reply_of(message: Any) -> Any:
    """A chat message as `parse_reply` takes it: the text, or the tool calls as dicts."""
    calls = getattr(message, "tool_calls", None)
    if calls:
        return {"content": getattr(message, "content", None),
                "tool_calls": [{"function": {"name": c.function.name, "arguments": c.function.arguments}}
                               for c in calls]}
    return getattr(message, "content", None) or ""


def _kept(reply: Any) -> Any:
    return reply[:MAX_KEPT_REPLY] if isinstance(reply, str) else reply


def _short_text(text: Any) -> str:
    return str(text)[:200]
