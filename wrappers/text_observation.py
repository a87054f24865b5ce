"""`TextObservation`: the observation as prompt-ready text for a language model.

The text holds the task, the last ``history`` actions with what came of each (the screen
changed, nothing changed, or the reply could not be used and why), and the current
screen's elements (`mobile_gym.ui.screen_text.ScreenElements`: AutoDroid's compact HTML
with the element ids `TextActions` takes, or a plain list):

    Task: Open the settings
    Previous actions:
    1. tap(4) - the screen changed (com.google.android.deskclock/...DeskClock)
    2. back() - the screen changed (...NexusLauncherActivity)
    Current screen (com.google.android.apps.nexuslauncher/...NexusLauncherActivity):
    <button id=0>Gmail</button>
    ...

With ``screenshot=True`` the observation is ``{"text": ..., "screenshot": PNG as
base64}`` for vision models (grey if the env observes grey). It needs the env's
``view_hierarchy`` (and ``screenshot``) in the observation. It reads ``info`` as
`TextActions` writes it, so wrap `TextActions` first; over raw actions the history
spells the env's actions. The text stays in the observation space whatever a reply held:
characters the space has no room for (NUL and other controls, lone surrogates) are spelled
as escapes (``\\u0000``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from mobile_gym.actions import Action
from mobile_gym.env import require_observed
from mobile_gym.errors import ConfigError, whole_number
from mobile_gym.llm.prompt import outcome, png_base64, said, step_text
from mobile_gym.spaces import UnicodeText
from mobile_gym.ui.screen_text import ScreenElements

#: Longest observation text, in characters (a screen's HTML is a few thousand).
MAX_TEXT = 65_536
#: Longest base64 screenshot (a full-size PNG of a 1080x2400 screen fits).
MAX_IMAGE = 16 * 1024 * 1024
FORMATS = ("html", "list")


class TextObservation(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Observe text: task, recent actions and their outcome, the last parse error, the screen.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.wrappers import TextActions, TextObservation
    >>> env = TextObservation(TextActions(gym.make("LlamaTouch/settings-open-v0")))
    >>> obs, info = env.reset(seed=0)
    >>> print(obs.splitlines()[0]); "<button id=5>Settings</button>" in obs
    Task: Open the settings
    True
    >>> obs, *_ = env.step("tap(42)")
    >>> print(obs.splitlines()[2])
    1. tap(42) - not done: no element 42 on this screen (ids: 0 to 10)
    """

    def __init__(self, env: gym.Env, history: int = 8, format: str = "html", screenshot: bool = False):
        gym.utils.RecordConstructorArgs.__init__(self, history=history, format=format, screenshot=screenshot)
        gym.Wrapper.__init__(self, env)
        self.history = whole_number("history", history, 0, 1000)
        if format not in FORMATS:
            raise ConfigError(f"format must be one of {', '.join(FORMATS)}; got {format!r}")
        if not isinstance(screenshot, bool):
            raise ConfigError(f"screenshot must be True or False, got {screenshot!r}")
        needed = ("view_hierarchy", "instruction") + (("screenshot",) if screenshot else ())
        require_observed(env, needed, f"TextObservation reads {', '.join(needed)}")
        self.format, self.screenshot = format, screenshot
        text = UnicodeText(MAX_TEXT)
        self.observation_space = (gym.spaces.Dict({"text": text, "screenshot": UnicodeText(MAX_IMAGE)})
                                  if screenshot else text)
        self._past: list[str] = []
        self._last_xml: str | None = None

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._past = []
        return self._observe(obs, info), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._past.append(self._outcome(action, obs, info))
        return self._observe(obs, info), reward, terminated, truncated, info

    def _outcome(self, action: Any, obs: dict[str, Any], info: dict[str, Any]) -> str:
        command = info.get("command") or (str(action) if isinstance(action, Action) else said(action))
        return outcome(command, info.get("parse_error"), obs["view_hierarchy"] != self._last_xml, info.get("activity"))

    def _observe(self, obs: dict[str, Any], info: dict[str, Any]) -> Any:
        self._last_xml = obs["view_hierarchy"]
        screen = ScreenElements.of(self.env.unwrapped.hierarchy)  # type: ignore[attr-defined]
        text = step_text(obs["instruction"], self._past, self.history,
                         screen.html() if self.format == "html" else screen.listing(), info.get("activity"),
                         info.get("parse_error"))[:MAX_TEXT]
        if not self.screenshot:
            return text
        pixels = obs["screenshot"]
        return {"text": text, "screenshot": png_base64(pixels[..., 0] if pixels.shape[-1] == 1 else pixels)}
