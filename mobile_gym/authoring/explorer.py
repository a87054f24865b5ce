"""The route explorer: every way a simulator task can be done, as ground truth for the matcher.

LlamaTouch's premise is that a task has many valid routes, and a matcher that credits
only the annotated one is unfaithful. The explorer finds those routes by searching the
simulated phone's state space from the very state ``env.reset(seed=...)`` starts in:

- **Moves** are element-level, as policies and LLM agents act: a tap at the visible
  point of each actionable element (`mobile_gym.ui.elements`), a scroll each way on each
  list, BACK and HOME, and, while a text field has focus, ENTER and typing each of the
  task's own texts and a few spans of its instruction.
- **Branching** copies the device (it pickles). States are de-duplicated by the phone's
  state (apps, screens, fields, scroll offsets, popups, keyboard) without the clock:
  two routes to the same state share everything after it. The key is a hash of the
  pickle, which is not fully canonical (what objects share can differ between equal
  states): a few percent of states are found twice, which costs time, never a route.
- **Search** is breadth-first outwards from the golden route (the oracle agent's own
  actions, popups dismissed), so states near it come first: every state within reach of
  the golden route is expanded before any state farther out. Routes are at most the
  golden length plus a margin; the search stops at a state or time budget and says so.
- **Routes** are paths through the explored graph from the start to a state where the
  task's oracle holds, passing no such state earlier (the env ends an episode there) and
  no state twice. Two routes are distinct when their moves differ: tapping a row and
  tapping its switch are two routes even if both lead to the same state. Failing routes
  are paths that never reach success: prefixes of successful routes (one move short) and
  walks drawn towards near-success states.

Every returned route is replayed from the start and kept only if the oracle agrees
(success at its last move only, or never): state de-duplication ignores the random
generator, so a merged path could in principle behave otherwise.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import pickle
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import ConfigError, FormatError
from mobile_gym.ui.elements import Element, actionable_elements, focused_field, label_texts, scroll_action
from mobile_gym.ui.hierarchy import ViewHierarchy

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice
    from mobile_gym.tasks.definition import SimTask
    from mobile_gym.trace import UIState


@dataclass(frozen=True)
class ExploreConfig:
    """How far and how long the explorer searches."""

    margin: int = 2  # moves a route may take beyond the golden route's length
    max_states: int = 3000  # states expanded at most
    time_budget: float = 60.0  # seconds of search at most; the graph found so far is used
    max_routes: int = 30  # successful routes returned (a seeded sample when more exist)
    max_failures: int = 30  # failing routes returned
    max_phrases: int = 3  # instruction spans offered for typing, besides the task's own texts
    enumeration_limit: int = 5000  # successful routes listed before sampling takes over

    def __post_init__(self) -> None:
        for name in ("margin", "max_states", "max_routes", "max_failures", "max_phrases", "enumeration_limit"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"ExploreConfig.{name} must be a whole number >= 0, got {value!r}")
        if not self.time_budget > 0:
            raise ConfigError(f"ExploreConfig.time_budget must be > 0 seconds, got {self.time_budget!r}")


@dataclass(frozen=True)
class Route:
    """A sequence of moves from the task's start state."""

    actions: tuple[Action, ...]
    steps: tuple[str, ...]  # what each move does, for people ("tap 'Wi-Fi'")
    success: bool  # the oracle holds after the last move (and after no earlier one)

    def __len__(self) -> int:
        return len(self.actions)

    def to_json(self) -> dict[str, Any]:
        return {"success": self.success, "steps": list(self.steps),
                "actions": [_action_json(a) for a in self.actions]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Route:
        return cls(tuple(_action_from_json(a) for a in data["actions"]), tuple(data["steps"]),
                   bool(data["success"]))


@dataclass
class Exploration:
    """What `explore` found for one task, seed, profile and dynamics."""

    task: str
    seed: int
    profile: str
    dynamics: str
    golden: Route  # the oracle agent's route
    successes: list[Route]  # distinct successful routes (the golden one first when found)
    failures: list[Route]  # distinct failing routes
    depth: int  # the longest route looked for
    states: int  # distinct states found
    expanded: int  # states whose moves were all tried
    transitions: int  # moves tried
    exhausted: bool  # every state within the depth was expanded: no budget cut the search
    routes_found: int  # distinct successful routes in the explored graph (at least; see `routes_exact`)
    routes_exact: bool  # routes_found counts them all (below `ExploreConfig.enumeration_limit`)
    unreproduced: int  # sampled routes the replay did not confirm (dropped)
    seconds: float

    def to_json(self) -> dict[str, Any]:
        data = {k: v for k, v in self.__dict__.items() if k not in ("golden", "successes", "failures")}
        return {**data, "golden": self.golden.to_json(), "successes": [r.to_json() for r in self.successes],
                "failures": [r.to_json() for r in self.failures]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Exploration:
        """The exploration `to_json` wrote (e.g. ``mobile-gym explore --out``); anything
        else is a FormatError."""
        try:
            routes = {k: [Route.from_json(r) for r in data[k]] for k in ("successes", "failures")}
            rest = {k: v for k, v in data.items() if k not in ("golden", "successes", "failures")}
            return cls(golden=Route.from_json(data["golden"]), **routes, **rest)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FormatError(None, f"not an exploration as explore --out writes it ({type(exc).__name__}: "
                                    f"{exc})") from None


def start_device(task: SimTask, seed: int, profile: str, dynamics: str) -> SimulatedDevice:
    """The phone as ``MobileEnv.reset(seed=seed)`` leaves it (same device seed, same setup)."""
    from gymnasium.utils import seeding

    from mobile_gym.env import device_seed

    device = task.device(profile=profile, dynamics=dynamics, seed=0)
    device.reset(device_seed(seeding.np_random(seed)[0]), task.setup)
    return device


def route_states(exploration: Exploration, route: Route, *, screenshots: bool = False) -> Iterator[UIState]:
    """The screens a route passes through, replayed from the exploration's start: the
    first before any move, then one after each."""
    from mobile_gym.agents.oracle import sim_task

    device = start_device(sim_task(exploration.task), exploration.seed, exploration.profile, exploration.dynamics)
    yield device.observe(screenshot=screenshots)
    for action in route.actions:
        device.perform(action)
        yield device.observe(screenshot=screenshots)


def state_key(device: SimulatedDevice) -> bytes:
    """The phone's state without the clock, the step count and the random generator:
    what the screen shows and what the apps hold."""
    return _snapshot(device)[0]


def _snapshot(device: SimulatedDevice) -> tuple[bytes, tuple[bytes, Any]]:
    """(state key, a copy of the phone): one pickle serves both, the clock, step count
    and generator kept beside it."""
    runtime = device.runtime
    runtime.frame()  # lays the screen out, which clamps scroll offsets: an overscroll is no new state
    saved = runtime.time, runtime.steps, runtime.rng
    runtime.time = runtime.steps = 0
    runtime.rng = None
    try:
        blob = pickle.dumps(device, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        runtime.time, runtime.steps, runtime.rng = saved
    return hashlib.blake2b(blob, digest_size=16).digest(), (blob, (saved[0], saved[1], saved[2].bit_generator.state))


def _restore(copy: tuple[bytes, Any]) -> SimulatedDevice:
    blob, (clock, steps, generator) = copy
    device = pickle.loads(blob)
    runtime = device.runtime
    runtime.time, runtime.steps = clock, steps
    runtime.rng = np.random.default_rng()
    runtime.rng.bit_generator.state = generator
    return device


@dataclass(frozen=True)
class Move:
    """One move out of a state: ``ident`` tells moves of one screen apart."""

    ident: tuple
    label: str
    action: Action


def moves(hierarchy: ViewHierarchy, phrases: tuple[str, ...]) -> list[Move]:
    """The element-level moves a screen offers (see the module docstring)."""
    screen = hierarchy.screen_bounds
    size = (screen.right, screen.bottom)
    elements = actionable_elements(hierarchy)
    out: list[Move] = []
    for e in elements:
        name = _name(e)
        if e.scrollable:
            sideways = e.visible.width > 2 * e.visible.height
            for direction in ("right", "left") if sideways else ("down", "up"):
                out.append(Move(("scroll", e.index, direction), f"scroll {direction} {name}",
                                scroll_action(e, direction, size)))
        else:
            out.append(Move(("tap", e.index), f"tap {name}", Action.click(*e.point)))
    if focused_field(elements) is not None:
        out += [Move(("type", p), f"type {p!r}", Action.type_text(p)) for p in phrases]
        out.append(Move(("enter",), "enter", Action.enter()))
    out += [Move(("back",), "back", Action.back()), Move(("home",), "home", Action.home())]
    return out


def describe(action: Action, hierarchy: ViewHierarchy) -> Move:
    """A move for any action: a tap is named after the smallest element under it (the
    switch of a row, not the row), so it merges with the explorer's own tap on it."""
    kind = action.action_type
    if kind is ActionType.CLICK:
        screen = hierarchy.screen_bounds
        x, y = action.touch[0] * screen.right, action.touch[1] * screen.bottom  # type: ignore[index]
        under = [e for e in actionable_elements(hierarchy) if not e.scrollable and e.visible.contains(x, y)]
        if under:
            e = min(under, key=lambda e: e.visible.area)
            return Move(("tap", e.index), f"tap {_name(e)}", action)
        return Move(("point", round(x), round(y)), f"tap ({round(x)}, {round(y)})", action)
    if kind is ActionType.TYPE:
        return Move(("type", action.text), f"type {action.text!r}", action)
    if kind is ActionType.SWIPE:
        (x0, y0), (x1, y1) = action.touch, action.lift  # type: ignore[misc]
        direction = ("down" if y1 < y0 else "up") if abs(y1 - y0) >= abs(x1 - x0) else ("right" if x1 < x0 else "left")
        return Move(("swipe", direction), f"scroll {direction}", action)
    return Move((kind.name.lower(),), kind.name.lower(), action)


def _name(e: Element) -> str:
    """An element as people name it: its label, a switch with its row's title."""
    def short(text: str) -> str:
        return text if len(text) <= 40 else text[:39] + "…"

    name = repr(short(e.label)) if e.label else f"<{e.node.class_name.rsplit('.', 1)[-1]} #{e.index}>"
    row = e.node.clickable_target
    if e.node.flags["checkable"] and row is not None and row is not e.node:
        title = next(iter(label_texts(row)), "")
        if title and title != e.label:
            name += f" of {short(title)!r}"
    return name


def typed_phrases(task: SimTask, limit: int) -> tuple[str, ...]:
    """What the explorer may type: the task's own texts, then spans of its instruction."""
    from mobile_gym.wrappers.element_actions import instruction_phrases

    own = [s.text for s in task.golden_path if s.kind == "type"]
    return tuple(dict.fromkeys([*own, *instruction_phrases(task.instruction, limit)]))[:len(set(own)) + limit]


@dataclass
class _State:
    copy: tuple[bytes, Any] | None  # the phone (`_snapshot`), until its moves have been tried
    depth: int  # fewest moves from the start found so far
    radius: int  # fewest moves from the golden route
    success: bool
    edges: list[tuple[Move, bytes]] = field(default_factory=list)  # (move, next state's key)
    expanded: bool = False


class _Search:
    def __init__(self, task: SimTask, seed: int, profile: str, dynamics: str, config: ExploreConfig):
        self.task, self.seed, self.profile, self.dynamics, self.config = task, seed, profile, dynamics, config
        self.phrases = typed_phrases(task, config.max_phrases)
        self.states: dict[bytes, _State] = {}
        self.queue: list[tuple[int, int, int, bytes]] = []
        self.order = itertools.count()
        self.transitions = 0
        self.golden_moves: tuple[Move, ...] = ()  # the oracle agent's route, once walked
        # keys are pickles, so a state must be pickled as its copies will be: after one round
        # trip (unpickling interns attribute names, and with them changes what is shared)
        self.start = _restore(_snapshot(start_device(task, seed, profile, dynamics))[1])
        self.root = self._add(self.start, depth=0, radius=0)

    def _add(self, device: SimulatedDevice, depth: int, radius: int) -> bytes:
        key, copy = _snapshot(device)
        state = self.states.get(key)
        if state is None:
            state = self.states[key] = _State(copy, depth, radius, self.task.succeeded(device))
        elif depth >= state.depth and radius >= state.radius:
            return key
        state.depth, state.radius = min(depth, state.depth), min(radius, state.radius)
        if not state.expanded and not state.success:
            heapq.heappush(self.queue, (state.radius, state.depth, next(self.order), key))
        return key

    def golden(self) -> Route:
        """Walk the oracle agent's route, adding its states at radius 0."""
        from mobile_gym.agents.oracle import OracleAgent
        from mobile_gym.registration import default_step_limit

        agent, device, key = OracleAgent(self.task), pickle.loads(pickle.dumps(self.start)), self.root
        moves_: list[Move] = []
        for _ in range(default_step_limit(len(self.task.golden_path))):
            if self.states[key].success:
                break
            state = device.observe(screenshot=False)
            action = agent.act({"view_hierarchy": state.xml}, {})
            if action.ends_episode:
                break
            move = describe(action, state.hierarchy)
            device.perform(action)
            child = self._add(device, len(moves_) + 1, 0)
            self._link(key, move, child)
            moves_.append(move)
            key = child
        self.golden_moves = tuple(moves_)
        return Route(tuple(m.action for m in moves_), tuple(m.label for m in moves_), self.states[key].success)

    def _link(self, key: bytes, move: Move, child: bytes) -> None:
        edges = self.states[key].edges
        if all(m.ident != move.ident for m, _ in edges):
            edges.append((move, child))

    def run(self, depth: int) -> bool:
        """Expand states nearest the golden route first; True when nothing within `depth`
        is left unexpanded."""
        deadline = time.perf_counter() + self.config.time_budget
        expanded = 0
        while self.queue:
            if expanded >= self.config.max_states or time.perf_counter() > deadline:
                return False
            _, _, _, key = heapq.heappop(self.queue)
            state = self.states[key]
            if state.expanded or state.success or state.depth >= depth:
                continue
            self._expand(key, state)
            expanded += 1
        return True

    def _expand(self, key: bytes, state: _State) -> None:
        assert state.copy is not None
        device = _restore(state.copy)
        for move in moves(device.observe(screenshot=False).hierarchy, self.phrases):
            if any(m.ident == move.ident for m, _ in state.edges):
                continue
            branch = _restore(state.copy)
            branch.perform(move.action)
            self.transitions += 1
            self._link(key, move, self._add(branch, state.depth + 1, state.radius + 1))
        state.expanded, state.copy = True, None

    # ------------------------------------------------------------------ routes
    def distances(self) -> dict[bytes, int]:
        """Fewest moves from each state to a success state (states that reach none are absent)."""
        parents: dict[bytes, list[bytes]] = {}
        for key, state in self.states.items():
            for _, child in state.edges:
                parents.setdefault(child, []).append(key)
        dist = {k: 0 for k, s in self.states.items() if s.success}
        frontier = list(dist)
        while frontier:
            nxt = []
            for child in frontier:
                for parent in parents.get(child, ()):
                    if parent not in dist:
                        dist[parent] = dist[child] + 1
                        nxt.append(parent)
            frontier = nxt
        return dist

    def successful_paths(self, depth: int, dist: dict[bytes, int], rng: np.random.Generator
                         ) -> tuple[list[tuple[Move, ...]], bool]:
        """Every simple path to success of at most `depth` moves, up to the enumeration
        limit (then a sample drawn uniformly by path counts), and whether that is all."""
        limit, found = self.config.enumeration_limit, []
        on_path = {self.root}
        path: list[Move] = []

        def dfs(key: bytes) -> None:
            edges = self.states[key].edges
            for i in rng.permutation(len(edges)):
                if len(found) > limit:
                    return
                move, child = edges[i]
                if child in on_path or len(path) + 1 + dist.get(child, depth + 1) > depth:
                    continue
                path.append(move)
                if self.states[child].success:
                    found.append(tuple(path))
                else:
                    on_path.add(child)
                    dfs(child)
                    on_path.discard(child)
                path.pop()

        if self.root in dist:
            dfs(self.root)
        if len(found) <= limit:
            return found, True
        return self._sampled_paths(depth, rng), False

    def _sampled_paths(self, depth: int, rng: np.random.Generator) -> list[tuple[Move, ...]]:
        """Paths to success drawn uniformly among walks of at most `depth` moves, walks
        that visit a state twice rejected: uniform among the simple paths."""
        memo: dict[tuple[bytes, int], int] = {}

        def walks(key: bytes, left: int) -> int:  # walks from key to success within `left` moves
            if self.states[key].success:
                return 1
            if left == 0:
                return 0
            if (key, left) not in memo:
                memo[(key, left)] = sum(walks(c, left - 1) for _, c in self.states[key].edges)
            return memo[(key, left)]

        paths: set[tuple[Move, ...]] = set()
        for _ in range(20 * self.config.max_routes):
            if len(paths) >= self.config.max_routes:
                break
            key, left, seen, path = self.root, depth, {self.root}, []
            while not self.states[key].success:
                edges = self.states[key].edges
                weights = np.array([walks(c, left - 1) for _, c in edges], dtype=float)
                move, key = edges[int(rng.choice(len(edges), p=weights / weights.sum()))]
                path.append(move)
                left -= 1
                if key in seen:
                    break
                seen.add(key)
            else:
                paths.add(tuple(path))
        return sorted(paths, key=lambda p: [m.label for m in p])

    def failing_paths(self, successes: list[tuple[Move, ...]], depth: int, dist: dict[bytes, int],
                      rng: np.random.Generator) -> list[tuple[Move, ...]]:
        """One move short of successful routes, then walks that never pass success,
        drawn towards the states nearest it."""
        wanted = self.config.max_failures
        out = list(dict.fromkeys(p[:-1] for p in successes if len(p) > 1))[: wanted // 2]
        seen = set(out)
        for _ in range(20 * wanted):
            if len(out) >= wanted:
                break
            key, path, length = self.root, [], int(rng.integers(1, depth + 1))
            while len(path) < length:
                edges = [(m, c) for m, c in self.states[key].edges if not self.states[c].success and c != key]
                if not edges:
                    break
                weights = np.array([1.0 / (1 + dist.get(c, depth)) for _, c in edges])
                move, key = edges[int(rng.choice(len(edges), p=weights / weights.sum()))]
                path.append(move)
            walk = tuple(path)
            if walk and walk not in seen:
                seen.add(walk)
                out.append(walk)
        return out

    def confirmed(self, path: tuple[Move, ...]) -> bool | None:
        """Replay a path from the start: True if the oracle first holds after its last
        move, False if it never holds, None if the replay disagrees with the graph."""
        device = pickle.loads(pickle.dumps(self.start))
        for i, move in enumerate(path):
            device.perform(move.action)
            if self.task.succeeded(device):
                return True if i == len(path) - 1 else None
        return False


def explore(task: SimTask | str, *, seed: int = 0, profile: str | None = None, dynamics: str = "default",
            config: ExploreConfig | None = None) -> Exploration:
    """Search a simulator task's routes from ``reset(seed=seed)`` (see the module docstring).

    >>> found = explore("settings-turn-airplane-mode", config=ExploreConfig(max_states=40))
    >>> for route in found.successes:  # the golden route first
    ...     print(" | ".join(route.steps))
    tap 'Network & internet Mobile, Wi‑Fi, hotsp…' | tap 'OFF' of 'Airplane mode'
    tap 'Network & internet Mobile, Wi‑Fi, hotsp…' | tap 'Airplane mode OFF'
    >>> len(found.failures), any(route.success for route in found.failures)
    (30, False)
    """
    from mobile_gym.agents.oracle import sim_task
    from mobile_gym.simulator.profiles import DEFAULT_PROFILE

    config = ExploreConfig() if config is None else config
    task = sim_task(task)
    profile = DEFAULT_PROFILE if profile is None else profile
    began = time.perf_counter()
    search = _Search(task, seed, profile, dynamics, config)
    golden = search.golden()
    depth = len(golden) + config.margin
    exhausted = search.run(depth)
    dist = search.distances()
    rng = np.random.default_rng(seed)
    paths, exact = search.successful_paths(depth, dist, rng)
    chosen = _sample(paths, config.max_routes, rng, first=search.golden_moves if golden.success else None)
    failing = search.failing_paths(paths, depth, dist, rng)
    unreproduced = 0
    successes, failures = [], []
    for path, wanted, out in [*((p, True, successes) for p in chosen), *((p, False, failures) for p in failing)]:
        verdict = search.confirmed(path)
        if verdict is not wanted:
            unreproduced += 1
            continue
        out.append(Route(tuple(m.action for m in path), tuple(m.label for m in path), wanted))
    return Exploration(
        task=task.id, seed=seed, profile=profile, dynamics=dynamics, golden=golden, successes=successes,
        failures=failures, depth=depth, states=len(search.states),
        expanded=sum(s.expanded for s in search.states.values()), transitions=search.transitions,
        exhausted=exhausted, routes_found=len(paths) if exact else config.enumeration_limit, routes_exact=exact,
        unreproduced=unreproduced, seconds=time.perf_counter() - began)


def _sample(paths: list[tuple[Move, ...]], n: int, rng: np.random.Generator,
            first: tuple[Move, ...] | None) -> list[tuple[Move, ...]]:
    """Up to `n` paths, `first` (the golden route) among them when given."""
    rest = [p for p in paths if p != first]
    picked = [rest[int(i)] for i in sorted(rng.choice(len(rest), size=min(n, len(rest)), replace=False))] \
        if rest else []
    return ([first] if first is not None else []) + picked[: n - (first is not None)]


def _action_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"type": action.action_type.name}
    if action.touch is not None:
        data["touch"] = list(action.touch)
    if action.lift is not None:
        data["lift"] = list(action.lift)
    if action.text is not None:
        data["text"] = action.text
    return data


def _action_from_json(data: dict[str, Any]) -> Action:
    return Action(ActionType[data["type"]], touch=data.get("touch"), lift=data.get("lift"), text=data.get("text"))


__all__ = ["ExploreConfig", "Exploration", "Route", "explore", "moves", "route_states", "start_device", "state_key"]
