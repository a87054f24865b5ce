"""Agents that are almost the oracle: they make the successes and near-failures that test
whether an evaluator is faithful (benchmarks/faithfulness.py). Each follows the task's
golden path with `OracleAgent` and changes it in one way:

- `DetourAgent`: random detours that a careful person would undo — an extra tap and back,
  back-and-forth over a golden tap, a wrong input cleared and retyped.
- `StopShortAgent`: the golden path without its last entry.
- `UndoLastAgent`: the whole path, then its last entry undone (a switch tapped again, else
  BACK).
- `BreakAfterAgent`: the whole path, then a few random taps.
- `SiblingTaskAgent`: the golden path of another task of the same app.
- `ElementCentreAgent`: the golden path with every tap moved to the element it reaches,
  at the tap point every element interface uses (a row's centre, not its switch's).

`RouteAgent` plays a given route instead (one the route explorer found:
`mobile_gym.authoring.explorer`).

All declare COMPLETE when done, so the episode ends where the agent believes it is done.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from mobile_gym.actions import Action, ActionType
from mobile_gym.agents.base import Agent
from mobile_gym.agents.oracle import OracleAgent, sim_task
from mobile_gym.tasks.definition import SimTask, Step
from mobile_gym.ui.elements import actionable_elements
from mobile_gym.ui.hierarchy import Node, ViewHierarchy

#: Controls that clear a search box, so a wrong query can be corrected.
CLEAR_CONTROLS = ("Clear query", "Clear")
#: Android's SearchView text field: its close button (shown once there is text) clears it.
SEARCH_FIELD = ":id/search_src_text"
#: Text typed by mistake before the right text.
WRONG_WORDS = ("wfii", "tokio", "setings", "calcualtor", "asdf")


def _labels(observation: Mapping[str, Any]) -> frozenset[str]:
    """The labels the app's window shows (the status bar's clock changes every step, so
    whole dumps cannot be compared)."""
    h = ViewHierarchy.of(observation["view_hierarchy"])
    return frozenset(n.label for n in h.roots[0].iter() if n.label) if h.roots else frozenset()


def _tap(h: ViewHierarchy, node: Node) -> Action:
    screen = h.screen_bounds
    return Action.click_center(node.bounds, (screen.right, screen.bottom))


def _moved(before: frozenset[str], observation: Mapping[str, Any]) -> bool:
    """Whether a tap opened another screen: most labels changed."""
    now = _labels(observation)
    return len(before & now) < 0.5 * len(before | now)


class DetourAgent(Agent):
    """The oracle with random detours, each taken with probability ``rate`` at a step:

    - an extra tap on a random element of the app, then BACK if it lost the oracle's place
      (the next golden target was on screen and no longer is, or the screen changed);
    - right after a golden tap that left its screen (not the last one), BACK and the same
      tap again;
    - before typing into a search box, a wrong query typed and cleared with its clear
      control.

    Detours can still break a task (an extra tap may toggle a setting): the oracle, not
    the agent, says whether the episode succeeded.
    """

    name = "detour"

    def __init__(self, task: SimTask | str, seed: int | None = None, rate: float = 0.25):
        self.oracle = OracleAgent(sim_task(task))
        self.rate = rate
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.oracle.reset()
        self.pending: str | None = None  # the second half of a detour: "clear" or "return"
        self.before: frozenset[str] = frozenset()  # the screen's labels before the extra tap
        self.target_seen = False  # the next golden target was on screen before the extra tap
        self.redo: int | None = None  # a golden tap that may be undone (BACK) and redone

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        pending, self.pending = self.pending, None
        if pending == "clear":
            control = _clear_control(observation)
            if control is not None:
                return control
        elif pending == "return" and self._lost(observation):
            return Action.back()
        redo, self.redo = self.redo, None
        if redo is not None and not _finds(self.oracle.path[redo], observation) \
                and self.rng.random() < self.rate:
            self.oracle.entry, self.oracle.searches = redo, 0
            return Action.back()
        if not self.oracle.done and self.rng.random() < self.rate:
            entry = self.oracle.path[self.oracle.entry]
            if entry.kind == "type" and _in_search_view(observation):
                self.pending = "clear"
                return Action.type_text(str(self.rng.choice(WRONG_WORDS)))
            if entry.kind in ("tap", "tap_all", "scroll_to"):
                self.pending = "return"
                self.before, self.target_seen = _labels(observation), _finds(entry, observation)
                return _random_tap(observation, self.rng)
        entry = self.oracle.entry
        action = self.oracle.act(observation, info)
        if action.action_type is ActionType.CLICK and self.oracle.entry > entry \
                and self.oracle.path[entry].kind == "tap" and not self.oracle.done:
            self.redo = entry
        return action

    def _lost(self, observation: Mapping[str, Any]) -> bool:
        if self.target_seen:
            return not _finds(self.oracle.path[self.oracle.entry], observation)
        return _moved(self.before, observation)


def _finds(entry: Step, observation: Mapping[str, Any]) -> bool:
    """Whether a golden entry's target is on this screen."""
    selector = entry.selector
    return selector is not None and selector.find(ViewHierarchy.of(observation["view_hierarchy"])) is not None


def _random_tap(observation: Mapping[str, Any], rng: np.random.Generator) -> Action:
    """A tap on a random clickable element of the app's own window (not the status or
    navigation bar: HOME is not a detour a person comes back from with BACK)."""
    h = ViewHierarchy.of(observation["view_hierarchy"])
    targets = [n for n in (h.roots[0].iter() if h.roots else ()) if n.clickable and n.flags["enabled"]
               and n.bounds.area]
    if not targets:
        return Action.back()
    return _tap(h, targets[int(rng.integers(len(targets)))])


def _in_search_view(observation: Mapping[str, Any]) -> bool:
    """Whether the focused field is a SearchView's, which a wrong query can be cleared from."""
    h = ViewHierarchy.of(observation["view_hierarchy"])
    return any(n.flags["focused"] and n.resource_id.endswith(SEARCH_FIELD) for n in h)


def _clear_control(observation: Mapping[str, Any]) -> Action | None:
    h = ViewHierarchy.of(observation["view_hierarchy"])
    for label in CLEAR_CONTROLS:
        node = h.find(content_desc=label)
        if node is not None and node.bounds.area:
            return _tap(h, node)
    return None


class _ScriptedAgent(Agent):
    """Runs an `OracleAgent` over some path, then ``after`` moves, then COMPLETE."""

    def __init__(self, task: SimTask | str, seed: int | None = None):
        self.task = sim_task(task)
        self.oracle = OracleAgent(self.task, path=self.path_for(seed))
        self.reset(seed)

    def path_for(self, seed: int | None) -> tuple[Step, ...]:
        return self.task.golden_path

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.oracle.reset()
        self.moves_after = 0

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        action = self.oracle.act(observation, info)
        if action.action_type is not ActionType.COMPLETE:
            return action
        after = self.after(observation, self.moves_after)
        self.moves_after += 1
        return Action.complete() if after is None else after

    def after(self, observation: Mapping[str, Any], n: int) -> Action | None:
        """The ``n``-th move once the path is done, or None to declare COMPLETE."""
        return None


class StopShortAgent(_ScriptedAgent):
    """Declares COMPLETE one golden entry before the end."""

    name = "stop-short"

    def path_for(self, seed: int | None) -> tuple[Step, ...]:
        return self.task.golden_path[:-1]


class UndoLastAgent(_ScriptedAgent):
    """Does the task, then undoes its last entry: taps a switch or checkbox again if the
    last entry tapped one, else presses BACK."""

    name = "undo-last"

    def after(self, observation: Mapping[str, Any], n: int) -> Action | None:
        if n > 0:
            return None
        last = self.task.golden_path[-1]
        if last.kind == "tap" and last.selector is not None:
            h = ViewHierarchy.of(observation["view_hierarchy"])
            node = last.selector.find(h)
            if node is not None and node.flags["checkable"]:
                return _tap(h, node)
        return Action.back()


class BreakAfterAgent(_ScriptedAgent):
    """Does the task, then taps ``taps`` random clickable elements."""

    name = "break-after"
    taps = 3

    def after(self, observation: Mapping[str, Any], n: int) -> Action | None:
        if n >= self.taps:
            return None
        return _random_tap(observation, self.rng)


class SiblingTaskAgent(_ScriptedAgent):
    """Carries out the golden path of another task of the same app (chosen by the seed):
    a similar but different task."""

    name = "sibling"

    def path_for(self, seed: int | None) -> tuple[Step, ...]:
        from mobile_gym.tasks.suite import simulator_tasks

        tasks = simulator_tasks()
        same_app = sorted(t for t, v in tasks.items() if v.app == self.task.app and t != self.task.id)
        others = same_app or sorted(t for t in tasks if t != self.task.id)
        self.sibling = tasks[others[int(np.random.default_rng(seed).integers(len(others)))]]
        return self.sibling.golden_path


class ElementCentreAgent(_ScriptedAgent):
    """The golden path, each tap moved to the point `mobile_gym.ui.elements` gives the
    element the tap reaches (the centre of its visible part): what an element-level
    policy or an LLM naming element ids does. Another valid route for most tasks."""

    name = "element-centre"

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        action = super().act(observation, info)
        if action.action_type is not ActionType.CLICK:
            return action
        h = ViewHierarchy.of(observation["view_hierarchy"])
        screen = h.screen_bounds
        target = h.clickable_at(action.touch[0] * screen.right, action.touch[1] * screen.bottom)  # type: ignore[index]
        element = next((e for e in actionable_elements(h) if e.node is target), None)
        return action if element is None else Action.click(*element.point)


class RouteAgent(Agent):
    """Plays fixed actions (a route the explorer found), then declares COMPLETE."""

    name = "route"

    def __init__(self, task: SimTask | str | None = None, seed: int | None = None, route: Sequence[Action] = ()):
        self.route = tuple(route)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.done = 0  # actions played so far

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        if self.done >= len(self.route):
            return Action.complete()
        self.done += 1
        return self.route[self.done - 1]
