"""`RandomAgent`: the floor every other agent must beat, and a source of failures for
testing evaluators. Blind mode taps and swipes anywhere; element-aware mode taps the
clickable nodes of the current dump, as a monkey tester that reads the screen would."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping
from zlib import crc32

import numpy as np

from mobile_gym.actions import Action, ActionType
from mobile_gym.agents.base import Agent
from mobile_gym.tasks.catalogue import task_id
from mobile_gym.ui.hierarchy import ViewHierarchy

if TYPE_CHECKING:
    from mobile_gym.tasks.definition import SimTask

#: How often each kind of action is drawn (COMPLETE and IMPOSSIBLE end the episode, so
#: they are rare by default).
DEFAULT_WEIGHTS: dict[ActionType, float] = {
    ActionType.CLICK: 0.62, ActionType.SWIPE: 0.14, ActionType.TYPE: 0.06,
    ActionType.BACK: 0.08, ActionType.HOME: 0.03, ActionType.ENTER: 0.05,
    ActionType.COMPLETE: 0.01, ActionType.IMPOSSIBLE: 0.01,
}
WORDS = ("settings", "wifi", "alarm", "tokyo", "cart", "bestbuy.com", "video games", "vlc", "9")


class RandomAgent(Agent):
    """Random actions, seeded by ``seed`` and ``task`` together.

    With a task (a `SimTask`, a task id or an env id) the stream depends on both, so one
    seed does not replay the same actions (an IMPOSSIBLE at the same step) on every task.

    >>> agent = RandomAgent(seed=3, task="settings-turn-off-wifi")
    >>> obs = {"view_hierarchy": '<hierarchy><node class="android.widget.Button" '
    ...        'clickable="true" bounds="[0,0][100,200]" /></hierarchy>', "instruction": ""}
    >>> agent.act(obs, {}) == RandomAgent(seed=3, task="settings-turn-off-wifi").act(obs, {})
    True
    """

    name = "random"

    def __init__(self, seed: int | None = None, *, task: SimTask | str | None = None, element_aware: bool = True,
                 weights: Mapping[ActionType, float] | None = None,
                 words: tuple[str, ...] = WORDS):
        self.task = None if task is None else task_id(task if isinstance(task, str) else task.id)
        self.element_aware = element_aware
        kinds = dict(DEFAULT_WEIGHTS if weights is None else weights)
        total = sum(kinds.values())
        if total <= 0 or any(w < 0 for w in kinds.values()):
            raise ValueError("action weights must be non-negative and not all zero")
        self.kinds = list(kinds)
        self.probabilities = np.array([kinds[k] / total for k in self.kinds])
        self.words = words
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed for a new episode of the same task (a stable hash of its id, never
        Python's salted ``hash``, so runs reproduce across processes)."""
        if seed is None or self.task is None:
            self.rng = np.random.default_rng(seed)
        else:
            self.rng = np.random.default_rng(np.random.SeedSequence([seed, crc32(self.task.encode())]))

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        kind = self.kinds[int(self.rng.choice(len(self.kinds), p=self.probabilities))]
        if kind == ActionType.CLICK:
            return self._tap(observation)
        if kind == ActionType.SWIPE:
            up = self.rng.random() < 0.7  # mostly scrolling down the content
            x = float(self.rng.uniform(0.2, 0.8))
            return Action.swipe(x, 0.75 if up else 0.35, x, 0.35 if up else 0.75)
        if kind == ActionType.TYPE:
            return Action.type_text(str(self.words[int(self.rng.integers(len(self.words)))]))
        return {
            ActionType.BACK: Action.back, ActionType.HOME: Action.home,
            ActionType.ENTER: Action.enter, ActionType.COMPLETE: Action.complete,
            ActionType.IMPOSSIBLE: Action.impossible,
        }[kind]()

    def _tap(self, observation: Mapping[str, Any]) -> Action:
        if self.element_aware and observation.get("view_hierarchy"):
            h = ViewHierarchy.of(observation["view_hierarchy"])
            screen = h.screen_bounds
            targets = [n for n in h.find_all(clickable=True, enabled=True)
                       if n.bounds.right > n.bounds.left and n.bounds.bottom > n.bounds.top]
            if targets and screen.right > 0 and screen.bottom > 0:
                target = targets[int(self.rng.integers(len(targets)))]
                return Action.click_center(target.bounds, (screen.right, screen.bottom))
        return Action.click(float(self.rng.uniform(0.02, 0.98)), float(self.rng.uniform(0.02, 0.98)))
