"""`TextActions`: the action is a language model's reply, as text (or an OpenAI tool call).

The reply is read by `mobile_gym.llm.grammar.parse_reply` (JSON, tool calls, the
``mobile_use`` and computer-use tools, UI-TARS's calls, function style, AutoDroid's
form, AITW coordinates) and carried out on the current screen's elements
(`mobile_gym.ui.screen_text.ScreenElements`: element ids are the same as in the text the
model was shown), or at the point it names, read in the wrapper's coordinate frame
(`mobile_gym.llm.coordinates`). A reply that names no action the screen allows does
nothing, counts as a step (an INVALID action that carries the reply, so a trace shows
what it was) and says why in ``info["parse_error"]`` — never an exception, so an agent
loop can feed the reason back to the model. So does an action the env refuses (an app
that is not installed). Typing into a field without focus, or at a point, taps it
first: one reply, two env steps, their rewards summed.

``info`` also carries ``command`` (the parsed action, spelled as a call), ``reasoning``
(the reply's text before its action) and ``actions`` (what the env did).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from mobile_gym.actions import Action
from mobile_gym.errors import InvalidActionError, ReplyError
from mobile_gym.llm.coordinates import CoordinateFrame, coordinate_frame
from mobile_gym.llm.grammar import MAX_REPLY, parse_reply, spelled
from mobile_gym.spaces import UnicodeText
from mobile_gym.ui.screen_text import ScreenElements


class TextActions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Act with a model's reply (``UnicodeText`` up to `MAX_REPLY` characters; an OpenAI
    message or tool call as a dict is taken too).

    ``coordinates`` is the frame of the points a reply names (`COORDINATES`):
    ``"device"`` (pixels of the phone's screen), ``"screenshot"`` (pixels of the
    observed screenshot, ``observation_size``), ``"fraction"`` (0 to 1) or
    ``"permille"`` (the 0-1000 grid of Qwen-VL and UI-TARS). The default is
    ``"fraction"``: ``tap(0.42, 0.61)`` keeps the meaning it had before frames, and a
    reply in pixels (``tap(540, 1200)``) is refused with an error naming the frame
    instead of tapping wherever its numbers happen to fall; say the frame the model is
    told to use. AITW's dual points are fractions in every frame.

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
    >>> info = env.step("tap(540, 1200)")[-1]
    >>> info["parse_error"]
    'point (540, 1200) is outside the screen in fractions (0 to 1)'
    """

    def __init__(self, env: gym.Env, coordinates: str = "fraction"):
        gym.utils.RecordConstructorArgs.__init__(self, coordinates=coordinates)
        gym.Wrapper.__init__(self, env)
        self.action_space = UnicodeText(MAX_REPLY)
        base = env.unwrapped
        device = tuple(base.device.screen_size) if coordinates == "device" else (1, 1)  # type: ignore[attr-defined]
        shot = getattr(base, "observation_size", None) if coordinates == "screenshot" else None
        self.coordinates = coordinates
        self.frame: CoordinateFrame = coordinate_frame(coordinates, device, shot)

    def screen(self) -> ScreenElements:
        """The current screen's elements, as the model is shown them."""
        return ScreenElements.of(self.env.unwrapped.hierarchy)  # type: ignore[attr-defined]

    def step(self, action: Any):
        try:
            command = parse_reply(action)
            actions = command.actions(self.screen(), self.frame)
        except ReplyError as e:
            return self._refused(action, str(e), None, "")
        total, done = 0.0, []
        for i, act in enumerate(actions):
            try:
                obs, reward, terminated, truncated, info = self.env.step(act)
            except InvalidActionError as e:  # refused by the env, which changed nothing
                if i == 0:
                    return self._refused(action, str(e), spelled(command), command.reasoning)
                info.update(parse_error=str(e), command=spelled(command), reasoning=command.reasoning,
                            actions=done)
                return obs, total, terminated, truncated, info
            total += float(reward)
            done.append(str(act))
            if terminated or truncated or info.get("action_error"):  # refused: the rest is not done
                break
        # an app to open that is not installed: a step that did nothing, and why
        info.update(parse_error=info.get("action_error"), command=spelled(command), reasoning=command.reasoning,
                    actions=done)
        return obs, total, terminated, truncated, info

    def _refused(self, reply: Any, error: str, command: str | None, reasoning: str):
        """A step that does nothing but record the reply (an INVALID action) and why."""
        obs, reward, terminated, truncated, info = self.env.step(Action.invalid(reply))
        info.update(parse_error=error, command=command, reasoning=reasoning, actions=[])
        return obs, reward, terminated, truncated, info
