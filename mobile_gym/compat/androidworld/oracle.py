"""`OracleLLM`: an LLM stand-in whose replies are the task's golden path, in AndroidWorld JSON.

To check that an AndroidWorld agent's whole loop runs on our tasks (its prompts, its
parsing of replies, `execute_action`, the suite's bookkeeping) without a model, give the
agent this in place of its LLM wrapper: each action prompt is answered with the next
action of the task's oracle (`mobile_gym.agents.oracle.OracleAgent`, which reads the
current screen), spelt as T3A's and M3A's prompts ask (``Reason: ...`` then ``Action:
{...}``), and each summary prompt with a short summary. ``pointing="pixels"`` points
with ``x`` and ``y`` in the screen's pixels (M3A's and SeeAct's way); ``"index"`` names
the UI element (T3A's: its own code indexes the element list for every click).

AndroidWorld's ``input_text`` presses Enter after typing, as it does on a phone. Where
the golden path types and then presses Enter, that Enter is not sent twice; where it
types and then taps a dialog's OK, which the Enter may already have done, the oracle
goes on with the step after it when that one's target is on the screen. An oracle lost
after the matcher has seen every essential state answers ``status complete``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import ConfigError

if TYPE_CHECKING:
    from mobile_gym.compat.androidworld.env import AndroidWorldEnv

POINTINGS = ("pixels", "index")
#: What T3A's and M3A's action prompts (and no summary prompt) say.
ACTION_PROMPT = "Now output an action"
_KEYS = {ActionType.BACK: "navigate_back", ActionType.HOME: "navigate_home", ActionType.ENTER: "keyboard_enter",
         ActionType.WAIT: "wait"}


class OracleLLM:
    """Answers an AndroidWorld agent's prompts with the oracle's next action on ``env``
    (an `AndroidWorldEnv`); ``predict`` and ``predict_mm`` as AndroidWorld's
    ``LlmWrapper`` and ``MultimodalLlmWrapper`` have them."""

    def __init__(self, env: AndroidWorldEnv, pointing: str = "pixels") -> None:
        if pointing not in POINTINGS:
            raise ConfigError(f"pointing must be one of {', '.join(POINTINGS)}; got {pointing!r}")
        self.env = env
        self.pointing = pointing
        self._oracle: Any = None
        self._episode = -1
        self._entered = False  # the last action answered was an input_text (which ends with Enter)
        self.replies: list[str] = []  # every reply given, for a test to read

    def predict(self, text_prompt: str) -> tuple[str, bool, str]:
        return self._reply(text_prompt)

    def predict_mm(self, text_prompt: str, images: list[Any]) -> tuple[str, bool, str]:
        del images  # the oracle reads the view hierarchy
        return self._reply(text_prompt)

    def _reply(self, prompt: str) -> tuple[str, bool, str]:
        if ACTION_PROMPT not in prompt and "summar" in prompt.lower():
            reply = "Summary: carried out the golden path's step; the screen changed as expected."
        else:
            action = self.action_json(self.next_action())
            reply = f"Reason: the next step of the task's golden path.\nAction: {json.dumps(action)}"
        self.replies.append(reply)
        return reply, True, reply

    def next_action(self) -> Action:
        """The oracle's action on the screen now (a new oracle for each episode)."""
        from mobile_gym.agents.oracle import OracleAgent

        env = self.env
        if env.task_id is None:
            raise ConfigError("no task is running: a TaskEval's initialize_task starts one")
        if self._episode != env.episode:
            self._oracle, self._episode, self._entered = OracleAgent(env.task_id), env.episode, False
        oracle = self._oracle
        observation = {"view_hierarchy": env.gym_env.device.observe(screenshot=False).xml}
        action = oracle.act(observation, env.info)
        if self._entered and action.action_type is ActionType.ENTER:
            action = oracle.act(observation, env.info)  # AndroidWorld's input_text pressed Enter already
        elif self._entered and oracle.searches:
            action = self._after_enter(observation, action)
        self._entered = action.action_type is ActionType.TYPE
        if env.info.get("success") and (oracle.searches or action.action_type is ActionType.IMPOSSIBLE):
            return Action.complete()  # lost after the matcher saw every essential state
        return action

    def _after_enter(self, observation: dict[str, str], searching: Action) -> Action:
        """The oracle looks for its next step's target right after typing: the Enter
        that ended the typing may have done that step (a dialog's OK), or taken the app
        off the golden path (a search submitted where the path taps a suggestion). The
        action of the first of the next two steps found on the screen; else Back, once,
        to the screen the Enter left; else the search."""
        oracle = self._oracle
        entry = oracle.entry
        for skipped in (1, 2):
            oracle.go_to(entry + skipped)
            candidate = oracle.act(observation, self.env.info)
            if not oracle.searches and candidate.action_type not in (ActionType.IMPOSSIBLE, ActionType.COMPLETE):
                return candidate
            if candidate.action_type is ActionType.COMPLETE and self.env.info.get("success"):
                return candidate
        oracle.go_to(entry)
        return Action.back()

    def action_json(self, action: Action) -> dict[str, Any]:
        """``action`` as AndroidWorld's JSON action on the env's screen."""
        kind = action.action_type
        width, height = self.env.device_screen_size
        if kind in _KEYS:
            return {"action_type": _KEYS[kind]}
        if kind is ActionType.COMPLETE:
            return {"action_type": "status", "goal_status": "complete"}
        if kind is ActionType.IMPOSSIBLE:
            return {"action_type": "status", "goal_status": "infeasible"}
        if kind is ActionType.TYPE:
            return {"action_type": "input_text", "text": action.text}
        if kind is ActionType.OPEN_APP:
            return {"action_type": "open_app", "app_name": action.text}
        if kind is ActionType.ANSWER:
            return {"action_type": "answer", "text": action.text}
        x, y = action.touch  # type: ignore[misc]
        px, py = min(int(round(x * width)), width - 1), min(int(round(y * height)), height - 1)
        # the screen's nodes are its UI elements, in the same order (`ui_elements`): a
        # node's `order` is its element's index
        screen = self.env.gym_env.device.observe(screenshot=False).hierarchy
        if kind is ActionType.SWIPE and not action.is_tap:
            lx, ly = action.lift  # type: ignore[misc]
            dx, dy = lx - x, ly - y
            direction = ("down" if dy < 0 else "up") if abs(dy) >= abs(dx) else ("right" if dx < 0 else "left")
            out: dict[str, Any] = {"action_type": "scroll", "direction": direction}
            scrollable = next((n for n in screen.nodes_at(px, py) if n.flags["scrollable"]), None)
            if scrollable is not None and scrollable.order:
                out["index"] = scrollable.order
            return out
        verb = {ActionType.LONG_PRESS: "long_press", ActionType.DOUBLE_TAP: "double_tap"}.get(kind, "click")
        if self.pointing == "index":
            target = screen.clickable_at(px, py) or screen.node_at(px, py)  # where Android sends the tap
            if target is not None:
                return {"action_type": verb, "index": target.order}
        return {"action_type": verb, "x": px, "y": py}

