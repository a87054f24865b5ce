"""`TextActions`: the action is a language model's reply, as text (or an OpenAI tool call).

The reply is read by `mobile_gym.llm.grammar.parse_reply` (JSON, tool calls, function
style, AutoDroid's form, AITW coordinates) and carried out on the current screen's
elements (`mobile_gym.ui.screen_text.ScreenElements`: element ids are the same as in
the text the model was shown). A reply that names no action the screen allows does
nothing, counts as a step and says why in ``info["parse_error"]`` — never an exception,
so an agent loop can feed the reason back to the model. Typing into a field without
focus taps it first: one reply, two env steps, their rewards summed.

``info`` also carries ``command`` (the parsed action, spelled as a call), ``reasoning``
(the reply's text before its action) and ``actions`` (what the env did).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from mobile_gym.actions import NO_OP
from mobile_gym.errors import ReplyError
from mobile_gym.llm.grammar import MAX_REPLY, parse_reply, spelled
from mobile_gym.spaces import UnicodeText
from mobile_gym.ui.screen_text import ScreenElements


class TextActions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Act with a model's reply (``UnicodeText`` up to `MAX_REPLY` characters; an OpenAI
    message or tool call as a dict is taken too).

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.wrappers import TextActions
    >>> env = TextActions(gym.make("LlamaTouch/settings-open-v0"))
    >>> _ = env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.step("The gear icon opens Settings. tap(5)")
    >>> info["command"], reward, terminated
    ('tap(5)', 1.0, True)
    >>> _ = env.reset(seed=0)
    >>> info = env.step("tap(99)")[-1]
    >>> info["parse_error"], info["steps"]
    ('no element 99 on this screen (ids: 0 to 10)', 1)
    """

    def __init__(self, env: gym.Env):
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)
        self.action_space = UnicodeText(MAX_REPLY)

    def screen(self) -> ScreenElements:
        """The current screen's elements, as the model is shown them."""
        return ScreenElements.of(self.env.unwrapped.hierarchy)  # type: ignore[attr-defined]

    def step(self, action: Any):
        try:
            command = parse_reply(action)
            actions = command.actions(self.screen())
        except ReplyError as e:
            obs, reward, terminated, truncated, info = self.env.step(NO_OP)
            info.update(parse_error=str(e), command=None, reasoning="", actions=[])
            return obs, reward, terminated, truncated, info
        total = 0.0
        for act in actions:
            obs, reward, terminated, truncated, info = self.env.step(act)
            total += float(reward)
            if terminated or truncated:
                break
        info.update(parse_error=None, command=spelled(command), reasoning=command.reasoning,
                    actions=[str(a) for a in actions])
        return obs, total, terminated, truncated, info
