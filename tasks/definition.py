"""Simulator tasks as data, authored the way LlamaTouch authored its dataset.

A task file (``tasks/sim/<app>.yaml``) holds a list of tasks. Each has a golden path of
actions against elements (selectors, see `selectors.py`), replayed in the simulator
(seed 0, dynamics ``none``) to produce the ground-truth trace; its checkpoints are
annotated on that trace's screens by selecting nodes, with LlamaTouch's keywords:

.. code-block:: yaml

    - id: settings-turn-off-wifi
      instruction: Turn off wifi
      app: settings
      category: general
      episode: "84143002711104077"        # LlamaTouch episode, when the task is theirs
      setup: {launch: settings}            # SimulatedDevice setup
      steps: 4                             # actions the golden path takes (see below)
      golden_path:
        - tap: "Network & internet"
        - tap: {text: "Wi‑Fi", row: "Wi‑Fi"}
        - scroll_to: "About phone"         # swipes until the node is on screen
        - tap_all: "Remove"                # taps while such a node is on screen
        - type: "tokyo"
        - enter                            # also: back, home, swipe: up|down
      checkpoints:
        - at: 2                            # the screen after 2 golden-path entries
          check:
            - activity
            - exact: {resource_id: "com.android.settings:id/switch_widget", row: "Wi‑Fi"}
            - click: "Internet"            # the tap taken from this screen
            - fuzzy: screen                # or a selector; also exclude, type, check_install
      oracle: settings.wifi_off
      alternatives:                        # other routes (optional), see below
        - golden_path: [...]
          checkpoints: [...]

``steps`` is the number of actions of the golden-path replay (an entry such as
``scroll_to`` or ``tap_all`` may take several, or none): declared, like LlamaTouch's
``nsteps``, so that registering the envs and listing the tasks (step limit, difficulty)
need not replay anything. Optional ``backends`` names the backends that run the task
(default: ``[sim, device]``; on a device, a setup other than ``launch`` needs an
emulator snapshot holding it, see `mobile_gym.env.phone_setup`).

``alternatives`` lists other routes, each a golden path with checkpoints annotated on
its own replay, for a task whose valid routes end on screens that share no essential
state: the task is done when any one route's checkpoints all match (`Annotation.routes`).
LlamaTouch annotates one route per task; ``export-dataset`` writes the others beside it.

A ``click`` whose selector names a ``row`` is annotated with an xpath through that row's
text (`Selector.row_xpath`), not the annotated screen's positional one: the tap must land
in that row's node wherever the row stands (a list whose other items vary).

Loading replays the golden path: a step or selector that does not resolve raises
`TaskError` naming the file, the task and the step, and so does a replay whose length is
not ``steps``.

A task is cheap to hold, copy and pickle: its ground truth keeps screenshots only when a
checkpoint compares pixels (a full-size screen is 7.7 MB), and a shipped task pickles
as its id, resolved on unpickling to the process's own copy, so every env of a task
shares one annotation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from mobile_gym.actions import Action
from mobile_gym.errors import SimulatorError, TaskError
from mobile_gym.matcher.annotation import Annotation, Checkpoint, Keyword, Primitive, ReferenceScreen
from mobile_gym.tasks.catalogue import app_name, env_id, read_task_list
from mobile_gym.tasks.oracles import ORACLES
from mobile_gym.tasks.selectors import Selector
from mobile_gym.trace import Trace, UIState
from mobile_gym.ui.components import Component, component_list
from mobile_gym.ui.hierarchy import ViewHierarchy

if TYPE_CHECKING:  # the simulator loads when a task first runs, not when tasks are listed
    from mobile_gym.simulator import SimulatedDevice

KEYS = {"id", "instruction", "app", "category", "episode", "setup", "steps", "golden_path",
        "checkpoints", "oracle", "backends", "alternatives"}
ROUTE_KEYS = {"golden_path", "checkpoints"}
REQUIRED = ("id", "instruction", "app", "category", "steps", "golden_path", "checkpoints", "oracle")
#: The backends: the simulated phone, and a real phone or emulator over adb.
BACKENDS = ("sim", "device")
BARE_STEPS = {"enter": Action.enter, "back": Action.back, "home": Action.home}
MAX_SCROLLS = 12
MAX_REPEATS = 20
#: What each check keyword takes: a selector, text, or nothing.
SELECTOR_CHECKS = {"exact": Keyword.EXACT, "exclude": Keyword.EXCLUDE, "fuzzy": Keyword.FUZZY,
                   "click": Keyword.CLICK}
TEXT_CHECKS = {"type": Keyword.TYPE, "check_install": Keyword.CHECK_INSTALL,
               "check_uninstall": Keyword.CHECK_UNINSTALL}


@dataclass(frozen=True)
class Step:
    """One golden-path entry: ``tap``, ``tap_all``, ``scroll_to`` (a selector), ``type``
    (text), ``swipe`` (up/down), ``enter``, ``back`` or ``home``."""

    kind: str
    selector: Selector | None = None
    text: str = ""

    def __str__(self) -> str:
        return f"{self.kind} {self.selector or self.text}".strip()

    def actions_without_device(self) -> Iterator[Action]:
        """The action of a step that needs no screen (type, enter, back, home, swipe)."""
        if self.kind in BARE_STEPS:
            yield BARE_STEPS[self.kind]()
        elif self.kind == "type":
            yield Action.type_text(self.text)
        elif self.kind == "swipe":
            yield scroll(self.text == "up")
        else:
            raise ValueError(f"step {self} needs the screen")

    def actions(self, phone: SimulatedDevice) -> Iterator[Action]:
        """The actions for this entry on the current screen (the caller performs each
        before asking for the next); raises LookupError if the selector finds nothing."""
        if self.kind not in ("tap", "tap_all", "scroll_to"):
            yield from self.actions_without_device()
        elif self.kind == "tap":
            node = self.selector.find(_screen(phone))  # type: ignore[union-attr]
            if node is None:
                raise LookupError(f"no node with {self.selector}")
            yield Action.click_center(node.bounds, phone.screen_size)
        elif self.kind == "tap_all":  # as many as there are (carts vary with dynamics)
            for _ in range(MAX_REPEATS):
                node = self.selector.find(_screen(phone))  # type: ignore[union-attr]
                if node is None:
                    return
                yield Action.click_center(node.bounds, phone.screen_size)
            raise LookupError(f"still a node with {self.selector} after {MAX_REPEATS} taps")
        else:  # scroll_to
            for _ in range(MAX_SCROLLS):
                if self.selector.find(_screen(phone)) is not None:  # type: ignore[union-attr]
                    return
                yield scroll(True)
            raise LookupError(f"no node with {self.selector} after {MAX_SCROLLS} swipes")


def _screen(phone: SimulatedDevice) -> ViewHierarchy:
    return phone.observe(screenshot=False).hierarchy


def scroll(up: bool) -> Action:
    """Move the content by a third of the screen (finger up scrolls down the page)."""
    return Action.swipe(0.5, 0.7, 0.5, 0.37) if up else Action.swipe(0.5, 0.37, 0.5, 0.7)



@dataclass(frozen=True)
class Check:
    keyword: Keyword
    selector: Selector | None = None  # exact / exclude / fuzzy / click
    content: str = ""  # type text, app name; "screen" for fuzzy over the whole screen


@dataclass(frozen=True)
class CheckpointSpec:
    at: int  # golden-path entries done before the annotated screen
    checks: tuple[Check, ...]


@dataclass(frozen=True)
class GoldenRoute:
    """A way to do a task: its golden path, and checkpoints annotated on its replay."""

    golden_path: tuple[Step, ...]
    checkpoints: tuple[CheckpointSpec, ...]


@dataclass(frozen=True)
class SimTask:
    id: str
    instruction: str
    app: str
    category: str
    golden_path: tuple[Step, ...]
    checkpoints: tuple[CheckpointSpec, ...]
    oracle: str
    steps: int  # actions on the golden path (LlamaTouch's difficulty measure); checked on replay
    episode: str | None = None
    setup: Mapping[str, Any] = field(default_factory=dict)
    backends: tuple[str, ...] = BACKENDS
    alternatives: tuple[GoldenRoute, ...] = ()
    source: Path | None = field(default=None, compare=False)

    def error(self, problem: str) -> TaskError:
        return TaskError(self.source, f"task {self.id!r}: {problem}")

    @property
    def env_id(self) -> str:
        return env_id(self.id)

    @property
    def app_name(self) -> str:
        """The app's display name, as LlamaTouch's catalogue spells it (``app`` is the
        simulator's id)."""
        return app_name(self.app)

    def device(self, **kwargs) -> SimulatedDevice:
        """A simulated phone set up for this task (``profile``, ``dynamics``, ``seed``)."""
        from mobile_gym.simulator import SimulatedDevice

        try:
            return SimulatedDevice(setup=self.setup, **kwargs)
        except SimulatorError as e:
            raise self.error(f"setup: {e}") from None

    def succeeded(self, phone: SimulatedDevice) -> bool:
        """The oracle's verdict on the phone's state."""
        return bool(ORACLES[self.oracle](phone))

    @property
    def routes(self) -> list[GoldenRoute]:
        """The task's own route first, then its alternatives (route r > 0 is
        ``alternatives[r - 1]``)."""
        return [GoldenRoute(self.golden_path, self.checkpoints), *self.alternatives]

    @staticmethod
    def _route_name(route: int) -> str:
        return f"alternative route {route}: " if route else ""

    def replay(self, phone: SimulatedDevice, *, screenshots: bool = True, route: int = 0) -> tuple[Trace, list[int]]:
        """Run a route's golden path (the task's own by default) on ``phone``: the trace
        (every screen with the action taken from it) and, per golden-path entry, the
        index of the screen it starts on."""
        states: list[UIState] = []
        starts: list[int] = []
        for n, step in enumerate(self.routes[route].golden_path):
            starts.append(len(states))
            try:
                for action in step.actions(phone):
                    states.append(self._observe(phone, action, screenshots))
                    phone.perform(action)
            except LookupError as e:
                raise self.error(f"{self._route_name(route)}golden-path step {n + 1} ({step}) on "
                                 f"{phone.foreground_activity()}: {e}") from None
        starts.append(len(states))
        states.append(self._observe(phone, None, screenshots))
        trace = Trace.from_states(states, episode=self.episode, instruction=self.instruction,
                                  installed_packages=phone.installed_packages())
        return trace, starts

    @staticmethod
    def _observe(phone: SimulatedDevice, action: Action | None, screenshots: bool) -> UIState:
        state = phone.observe(screenshot=screenshots)
        state.action = action
        return state

    def __reduce_ex__(self, protocol):
        from mobile_gym.tasks.suite import shipped_task, simulator_tasks

        if simulator_tasks().get(self.id) is self:  # shared, not copied (see the module docstring)
            return shipped_task, (self.id,)
        return super().__reduce_ex__(protocol)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_canonical", None)  # replayed again on first use
        state.pop("_long_press_annotation", None)
        return state

    @cached_property
    def _canonical(self) -> tuple[Trace, list[int], Annotation]:
        """The canonical replay and the annotation made on it (with its alternative
        routes'), together: the replays keep screenshots only if the annotation compares
        pixels (`Annotation.judges_pixels`)."""
        return self._canonical_on(long_presses=False)

    @cached_property
    def _long_press_annotation(self) -> Annotation:
        return self._canonical_on(long_presses=True)[2]

    def _canonical_on(self, *, long_presses: bool) -> tuple[Trace, list[int], Annotation]:
        trace, starts = self.replay_ground_truth(screenshots=False, long_presses=long_presses)
        annotation = self._annotate_routes(trace, starts, screenshots=False, long_presses=long_presses)
        if annotation.judges_pixels:
            trace, starts = self.replay_ground_truth(long_presses=long_presses)
            annotation = self._annotate_routes(trace, starts, screenshots=True, long_presses=long_presses)
        return trace, starts, annotation

    def _annotate_routes(self, trace: Trace, starts: list[int], *, screenshots: bool,
                         long_presses: bool = False) -> Annotation:
        alternatives = [self._annotate(*self.replay_ground_truth(screenshots=screenshots, route=r,
                                                                 long_presses=long_presses), route=r)
                        for r in range(1, len(self.alternatives) + 1)]
        annotation = self._annotate(trace, starts)
        annotation.alternatives = alternatives
        return annotation

    @property
    def ground_truth(self) -> tuple[Trace, list[int]]:
        """The canonical replay (seed 0, dynamics ``none``); its length must be ``steps``.
        Its states have screenshots only if the annotation compares pixels;
        `replay_ground_truth` renders them all."""
        trace, starts, _ = self._canonical
        return trace, starts

    def replay_ground_truth(self, *, screenshots: bool = True, route: int = 0,
                            long_presses: bool = False) -> tuple[Trace, list[int]]:
        """A fresh canonical replay of a route (for exporting a dataset: every screenshot),
        on a phone with the long-press UIs if ``long_presses``."""
        from mobile_gym.simulator.dynamics import get_dynamics

        dynamics = replace(get_dynamics("none"), long_presses=long_presses)
        trace, starts = self.replay(self.device(seed=0, dynamics=dynamics), screenshots=screenshots, route=route)
        taken = len(trace) - 1
        if route == 0 and taken != self.steps:
            raise self.error(f"golden path takes {taken} action{'s' * (taken != 1)} "
                             f"(steps says {self.steps}); set steps: {taken}")
        return trace, starts

    @property
    def annotation(self) -> Annotation:
        """The essential states, annotated on the ground-truth trace."""
        return self._canonical[2]

    def annotation_for(self, long_presses: bool) -> Annotation:
        """The essential states as a phone with the long-press UIs shows them
        (`Dynamics.long_presses`: ``gym.make(..., actions="all")``), if ``long_presses``:
        those UIs make some views long-clickable, a flag ``exact`` checks compare, so the
        same golden path is annotated on such a phone too. Else `annotation`."""
        return self._long_press_annotation if long_presses else self.annotation

    def _annotate(self, trace: Trace, starts: list[int], *, route: int = 0) -> Annotation:
        checkpoints = []
        for n, spec in enumerate(self.routes[route].checkpoints):
            where = f"{self._route_name(route)}checkpoint {n + 1}"
            if not 0 <= spec.at < len(starts):
                raise self.error(f"{where}: 'at' must be 0..{len(starts) - 1}, got {spec.at}")
            state = trace[starts[spec.at]]
            components = component_list(state.hierarchy)
            primitives = [self._primitive(where, c, state, components) for c in spec.checks]
            checkpoints.append(Checkpoint(ReferenceScreen(state, components, source=self.source), primitives))
        return Annotation(checkpoints, episode=self.episode, instruction=self.instruction,
                          category=self.category, ground_truth=trace)

    def _primitive(self, checkpoint: str, check: Check, state: UIState, components: list[Component]) -> Primitive:
        where = f"{checkpoint} {check.keyword.value}"
        if check.keyword is Keyword.ACTIVITY:
            return Primitive(Keyword.ACTIVITY, state.activity or "")
        if check.selector is None:
            if check.keyword is Keyword.FUZZY:
                return Primitive(Keyword.FUZZY, "-1")
            return Primitive(check.keyword, check.content)
        node = check.selector.find(state.hierarchy)
        if node is None:
            raise self.error(f"{where}: no node with {check.selector} on {state.activity}")
        if check.keyword is Keyword.CLICK:
            action = state.action
            if action is None or not action.is_tap or state.hierarchy.clickable_at(
                    action.touch[0] * state.screen_size[0], action.touch[1] * state.screen_size[1]
            ) is not node.clickable_target:
                raise self.error(f"{where}: the golden path does not tap {check.selector} here")
        index = next((c.id for c in components if c.bounds == node.bounds
                      and c.class_name == node.class_name and c.text == node.text), None)
        if index is None:
            raise self.error(f"{where}: {check.selector} selects a node that is not a component "
                             "(components are widgets, and nodes with text or a description)")
        if check.keyword is Keyword.CLICK and check.selector.row is not None:
            # the tap must land in the node of that row, wherever the row stands
            components[index] = replace(components[index], xpath=check.selector.row_xpath())
        return Primitive(check.keyword, str(index))


# ---------------------------------------------------------------------- loading

def read_tasks(path: str | Path) -> list[SimTask]:
    """The tasks of one task file, validated (golden paths are replayed lazily, on first
    use of `SimTask.ground_truth` / `annotation`)."""
    path = Path(path)
    return [_parse_task(entry, i, path) for i, entry in enumerate(read_task_list(path, TaskError))]


def _parse_task(entry: Any, i: int, path: Path) -> SimTask:
    if not isinstance(entry, Mapping):
        raise TaskError(path, f"entry {i}: expected a mapping, got {type(entry).__name__}")
    name = f"task {entry.get('id', i)!r}"

    def fail(field_name: str, problem: str) -> TaskError:
        return TaskError(path, f"{name}: field {field_name!r}: {problem}")

    missing = [k for k in REQUIRED if k not in entry]
    if missing:
        raise TaskError(path, f"{name}: missing field(s) {', '.join(missing)}")
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise TaskError(path, f"{name}: unknown field(s) {', '.join(unknown)}")
    for key in ("id", "instruction", "app", "category", "oracle"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise fail(key, f"must be a non-empty string, got {entry[key]!r}")
    if entry["oracle"] not in ORACLES:
        raise fail("oracle", f"unknown oracle {entry['oracle']!r}")
    setup = entry.get("setup") or {}
    if not isinstance(setup, Mapping):
        raise fail("setup", "must be a mapping")
    episode = entry.get("episode")
    if episode is not None and not isinstance(episode, str):
        raise fail("episode", "must be a string (quote the number)")
    backends = entry.get("backends", list(BACKENDS))
    if not isinstance(backends, list) or not all(isinstance(b, str) for b in backends):
        raise fail("backends", "must be a list of backend names")
    unknown = [b for b in backends if b not in BACKENDS]
    if unknown:
        raise fail("backends", f"unknown backend {unknown[0]!r} (backends: {', '.join(BACKENDS)})")
    n_steps = entry["steps"]
    if not isinstance(n_steps, int) or isinstance(n_steps, bool) or n_steps < 1:
        raise fail("steps", f"must be a positive integer, got {n_steps!r}")
    primary = _parse_route(entry, fail)
    alternatives = entry.get("alternatives", [])
    if not isinstance(alternatives, list):
        raise fail("alternatives", "must be a list of routes (golden_path and checkpoints)")
    routes = []
    for r, alternative in enumerate(alternatives, 1):
        if not isinstance(alternative, Mapping) or set(alternative) != ROUTE_KEYS:
            raise fail("alternatives", f"route {r}: must be a mapping with exactly golden_path and checkpoints")
        routes.append(_parse_route(
            alternative, lambda key, problem, r=r: fail("alternatives", f"route {r}: {key}: {problem}")))
    return SimTask(id=entry["id"], instruction=entry["instruction"], app=entry["app"],
                   category=entry["category"], golden_path=primary.golden_path, checkpoints=primary.checkpoints,
                   oracle=entry["oracle"], steps=n_steps, episode=episode, setup=dict(setup),
                   backends=tuple(backends), alternatives=tuple(routes), source=path)


def _parse_route(entry: Mapping, fail: Callable[[str, str], TaskError]) -> GoldenRoute:
    """A golden path and its checkpoints (a task's own or an alternative route's)."""
    steps = entry["golden_path"]
    if not isinstance(steps, list) or not steps:
        raise fail("golden_path", "must be a non-empty list")
    checkpoints = entry["checkpoints"]
    if not isinstance(checkpoints, list) or not checkpoints:
        raise fail("checkpoints", "must be a non-empty list")
    try:
        golden = tuple(_parse_step(s) for s in steps)
    except ValueError as e:
        raise fail("golden_path", str(e)) from None
    try:
        specs = tuple(_parse_checkpoint(c) for c in checkpoints)
    except ValueError as e:
        raise fail("checkpoints", str(e)) from None
    ats = [spec.at for spec in specs]
    if ats != sorted(set(ats)):
        raise fail("checkpoints", f"'at' must increase from one checkpoint to the next (LlamaTouch "
                                  f"stores one annotation per screen), got {ats}")
    return GoldenRoute(golden, specs)


def _parse_step(value: Any) -> Step:
    if isinstance(value, str):
        if value not in BARE_STEPS:
            raise ValueError(f"unknown step {value!r} (bare steps: {', '.join(BARE_STEPS)})")
        return Step(value)
    if not isinstance(value, Mapping) or len(value) != 1:
        raise ValueError(f"a step is a word or a one-key mapping, got {value!r}")
    (kind, arg), = value.items()
    if kind in ("tap", "tap_all", "scroll_to"):
        return Step(kind, Selector.parse(arg))
    if kind == "type" and isinstance(arg, str):
        return Step(kind, text=arg)
    if kind == "swipe" and arg in ("up", "down"):
        return Step(kind, text=arg)
    raise ValueError(f"unknown or malformed step {value!r}")


def _parse_checkpoint(value: Any) -> CheckpointSpec:
    if not isinstance(value, Mapping) or set(value) != {"at", "check"}:
        raise ValueError(f"a checkpoint is a mapping with 'at' and 'check', got {value!r}")
    at, checks = value["at"], value["check"]
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise ValueError(f"'at' must be a non-negative integer, got {at!r}")
    if not isinstance(checks, list) or not checks:
        raise ValueError("'check' must be a non-empty list")
    return CheckpointSpec(at, tuple(_parse_check(c) for c in checks))


def _parse_check(value: Any) -> Check:
    if value == "activity":
        return Check(Keyword.ACTIVITY)
    if not isinstance(value, Mapping) or len(value) != 1:
        raise ValueError(f"a check is 'activity' or a one-key mapping, got {value!r}")
    (word, arg), = value.items()
    if word == "fuzzy" and arg == "screen":
        return Check(Keyword.FUZZY)
    if word in SELECTOR_CHECKS:
        return Check(SELECTOR_CHECKS[word], Selector.parse(arg))
    if word in TEXT_CHECKS and isinstance(arg, str) and arg:
        return Check(TEXT_CHECKS[word], content=arg)
    raise ValueError(f"unknown or malformed check {value!r}")
