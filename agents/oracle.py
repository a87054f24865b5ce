"""`OracleAgent`: follows a simulator task's golden path by its selectors, so it works
under dynamics and on every profile; dismisses popups that get in the way; declares
COMPLETE at the end; waits out an app's loading screen. It is how tests show a task is
solvable and the matcher agrees."""

from __future__ import annotations

from typing import Any, Mapping

from mobile_gym.actions import Action
from mobile_gym.agents.base import Agent
from mobile_gym.errors import ConfigError
from mobile_gym.simulator.runtime import KEYBOARD_PACKAGE, SYSTEMUI
from mobile_gym.tasks.definition import SimTask, Step, scroll
from mobile_gym.ui.hierarchy import Node, ViewHierarchy

#: Buttons that close popups (rating prompts, promo sheets, cookie banners).
DISMISS = ("Not now", "No thanks", "No, thanks", "Skip", "Accept", "Close", "Dismiss",
           "Got it", "Maybe later", "Cancel")
MAX_SEARCH = 8  # swipes while looking for a step's target before giving up
PROGRESS_BAR = "android.widget.ProgressBar"


class OracleAgent(Agent):
    """The golden path of ``task`` (a `SimTask` or its id), step by step.

    >>> from mobile_gym.env import MobileEnv
    >>> env = MobileEnv("settings-turn-airplane-mode", dynamics="default")
    >>> obs, info = env.reset(seed=4)
    >>> agent = OracleAgent(env.task)
    >>> while not info["success"]:
    ...     obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
    >>> info["oracle_success"]
    True
    """

    name = "oracle"

    def __init__(self, task: SimTask | str, path: tuple[Step, ...] | None = None, route: int = 0):
        """``route`` r > 0 plays the task's alternative route r; ``path``, these entries."""
        self.task = task = sim_task(task)
        routes = task.routes
        if isinstance(route, bool) or not isinstance(route, int) or not 0 <= route < len(routes):
            raise ConfigError(f"task {task.id} has routes 0 (its golden path) to {len(routes) - 1}; "
                              f"got route={route!r}")
        self.path = routes[route].golden_path if path is None else path  # the entries to carry out
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        self.entry = 0  # golden-path entry being carried out
        self.searches = 0  # swipes spent looking for the current entry's target

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Action:
        h = ViewHierarchy.of(observation["view_hierarchy"])
        screen = h.screen_bounds
        size = (screen.right, screen.bottom)
        if _loading(h):
            return Action.wait()  # input is swallowed until the app is ready: nothing to find yet
        path = self.path
        while self.entry < len(path):
            step = path[self.entry]
            action = self._act(step, h, size)
            if action is not None:
                return action
            self._advance()  # the entry needs nothing more on this screen
        return Action.complete()

    @property
    def done(self) -> bool:
        """Every entry of the path has been carried out."""
        return self.entry >= len(self.path)

    def _advance(self) -> None:
        self.go_to(self.entry + 1)

    def go_to(self, entry: int, searches: int = 0) -> None:
        """Carry on from golden-path entry ``entry`` (with ``searches`` swipes spent
        looking for it), e.g. when something else did the entries before it."""
        self.entry = entry
        self.searches = searches

    def _act(self, step: Step, h: ViewHierarchy, size: tuple[int, int]) -> Action | None:
        """The action for ``step`` on this screen, or None when the step is done."""
        node = step.selector.find(h) if step.selector is not None else None
        popup = _popup(h)
        if popup is not None and (node is None or (node is not popup and popup not in node.ancestors())):
            # a dialog or sheet the golden path did not open: it takes every tap, close it
            control = _dismiss_control(h, within=popup)
            return _tap(control, size) if control is not None else Action.back()
        if step.selector is None:
            self._advance()
            return next(iter(step.actions_without_device()))
        if step.kind == "scroll_to" and node is not None:
            return None
        if step.kind == "tap_all" and node is None and self.searches == 0:
            return None
        if node is not None and _reachable(h, node, size):
            if step.kind == "tap":
                self._advance()
            return _tap(node, size)
        blocker = _dismiss_control(h)
        if blocker is not None:
            return _tap(blocker, size)
        if self.searches >= MAX_SEARCH:
            return Action.impossible()
        self.searches += 1
        return scroll(up=True)  # look further down


def sim_task(task: SimTask | str) -> SimTask:
    """The simulator task an id or env id names (a `SimTask` is returned as is); a
    task judged by a dataset has no golden path to play: a `ConfigError`."""
    from mobile_gym.env import resolve_task  # lazily: the env module pulls in gymnasium

    resolved = resolve_task(task) if isinstance(task, str) else task
    if not isinstance(resolved, SimTask):
        raise ConfigError(f"the oracle plays a simulator task's golden path; {resolved.id} is judged by a "
                          "LlamaTouch dataset and has none here")
    return resolved


def _tap(node: Node, size: tuple[int, int]) -> Action:
    return Action.click_center(node.bounds, size)


def _reachable(h: ViewHierarchy, node: Node, size: tuple[int, int]) -> bool:
    """A tap on the node's centre reaches it (no dialog or banner on top)."""
    b = node.bounds
    target = node.clickable_target or node
    return h.clickable_at((b.left + b.right) / 2, (b.top + b.bottom) / 2) is target


def _loading(h: ViewHierarchy) -> bool:
    """An app's loading screen: its window shows a progress bar and nothing to touch."""
    app = h.roots[0] if h.roots else None
    if app is None or app.package in (SYSTEMUI, KEYBOARD_PACKAGE):
        return False
    nodes = list(app.iter())
    return (any(n.class_name == PROGRESS_BAR for n in nodes)
            and not any(n.flags["clickable"] or n.flags["long-clickable"] for n in nodes))


def _popup(h: ViewHierarchy) -> Node | None:
    """The topmost window over the app's own (a dialog, sheet or menu), if any."""
    app = h.roots[0] if h.roots else None
    for root in reversed(h.roots[1:]):
        if root.package not in (SYSTEMUI, KEYBOARD_PACKAGE) and app is not None:
            return root
    return None


def _dismiss_control(h: ViewHierarchy, within: Node | None = None) -> Node | None:
    """A popup's close button on top of the screen (inside ``within`` if given)."""
    screen = h.screen_bounds
    size = (screen.right, screen.bottom)
    for label in DISMISS:
        for node in h.find_all(text=label) + h.find_all(content_desc=label):
            inside = within is None or node is within or within in node.ancestors()
            if inside and node.clickable_target is not None and _reachable(h, node, size):
                return node
    return None
