"""`MobileEnv`: a task on a device, judged online by the essential-state matcher.

The env is the only place where devices and the matcher meet: each step it performs the
action on the device, observes the screen, and feeds both to a `Tracker`. The reward is
sparse (1.0 on the step the last checkpoint is matched) or, as an option, shaped by
progress (the fraction of checkpoints newly matched). A task with alternative routes is
solved by any one route; ``info["matched"]`` and ``info["route"]`` speak of the route that
got furthest (0: the golden path's). The simulator's oracle is reported in ``info`` for
checking the matcher, never used as reward.

What is observed is a choice (``observation=``): the screenshot and the dump (the
default), the dump alone or the screenshot alone, with the instruction always. A
screenshot not observed is never drawn (on a phone, never taken): drawing is most of a
simulator step's cost. It is drawn at ``observation_size`` itself, and with
``grayscale=True`` converted to one channel after drawing.

With ``backend="device"`` the same env drives a phone or emulator (`AndroidDevice`), and
a LlamaTouch task without a simulator definition is judged by the annotation of a
LlamaTouch dataset (``dataset=``, `mobile_gym.tasks.dataset`); no oracle reads a phone.

A simulator env is cheap to make, copy and pickle (a few ms, well under 1 MB): the task,
its annotation and the matcher (caches, embedding model) are shared by every env of the
process and are not part of an env's pickle. A task with fuzzy checks loads the
embedding model at ``make`` (once per process, 5-10 s; `warm_up` does it up front), so no
``step`` ever waits for it.
"""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from PIL import Image
from gymnasium import spaces

from mobile_gym.actions import ACTION_SETS, MAX_TEXT_LENGTH, Action, ActionType
from mobile_gym.errors import (AppNotInstalledError, BackendUnavailableError, ConfigError, InvalidActionError, MobileGymError,
                               ResetNeededError, UnknownTaskError)
from mobile_gym.matcher import Matcher, MatcherConfig, Tracker
from mobile_gym.matcher.embeddings import MAX_SHARED_MODELS, shared_embedder
from mobile_gym.simulator.dynamics import DYNAMICS, Dynamics, for_android_world, get_dynamics
from mobile_gym.simulator.profiles import DEFAULT_PROFILE, PROFILES, DeviceProfile, get_profile
from mobile_gym.simulator.render import check_screenshot_size
from mobile_gym.spaces import ImageBox, UnicodeText
from mobile_gym.tasks.catalogue import llamatouch_catalogue, task_id
from mobile_gym.tasks.dataset import DatasetTask, dataset_task
from mobile_gym.tasks.definition import BACKENDS, SimTask
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.trace import UIState
from mobile_gym.ui.elements import Element, actionable_elements
from mobile_gym.ui.hierarchy import ViewHierarchy

if TYPE_CHECKING:  # adbutils and uiautomator2 load when an env first drives a phone
    from mobile_gym.devices.android import AndroidConfig
    from mobile_gym.matcher.annotation import Annotation

#: What an env runs: a simulator task, or a LlamaTouch task judged by a dataset (on a phone).
Task = SimTask | DatasetTask
MAX_XML_LENGTH = 2_000_000
REWARD_MODES = ("sparse", "progress")
RENDER_MODES = (None, "rgb_array")
#: What an env may observe (``observation=``): the screenshot and the dump, the dump
#: (uiautomator XML) alone, or the screenshot alone; the instruction always.
OBSERVATIONS = ("both", "xml", "screenshot")


def observation_keys(observation: str) -> tuple[str, ...]:
    """The keys of the observation Dict in mode ``observation`` (`OBSERVATIONS`)."""
    return {"both": ("screenshot", "view_hierarchy", "instruction"), "xml": ("view_hierarchy", "instruction"),
            "screenshot": ("screenshot", "instruction")}[observation]


def require_observed(env: gym.Env, keys: tuple[str, ...], reader: str) -> None:
    """Refuse, when wrapping, an env whose observation lacks ``keys`` that ``reader`` (a
    wrapper, an adapter) reads, naming the modes that have them."""
    missing = [key for key in keys if key not in getattr(env.observation_space, "spaces", {})]
    if missing:
        modes = " or ".join(repr(m) for m in OBSERVATIONS if set(keys) <= set(observation_keys(m)))
        raise ConfigError(f"{reader} from the observation; the env's has no {', '.join(missing)} "
                          f"(gym.make(..., observation={modes}))")


def shared_matcher(embedding_model: str | None = None) -> Matcher:
    """One matcher per process and model: envs share its caches and the loaded model."""
    return _matcher_for(embedding_model)  # one cache key however the default is spelled


@lru_cache(maxsize=MAX_SHARED_MODELS)  # one per embedding model in use: a handful
def _matcher_for(embedding_model: str | None) -> Matcher:
    return Matcher(MatcherConfig(embedding_model=embedding_model))


def warm_up(embedding_model: str | None = None) -> None:
    """Load the sentence-embedding model into this process now (5-10 s, once), e.g.
    before timing anything; otherwise the first ``make`` of a task with fuzzy checks
    does it. Every env of the process shares it."""
    shared_embedder(embedding_model).load()  # the embedder shared_matcher's matcher uses


def resolve_task(task: str | Task, backend: str = "sim", dataset: str | Path | None = None) -> Task:
    """The task a ``gym.make`` id or name stands for, if ``backend`` can run it: its
    simulator definition, or (``dataset``, a LlamaTouch format-A dataset, on a device)
    the catalogue task judged by the dataset's annotation."""
    if backend not in BACKENDS:
        raise ConfigError(f"backend={backend!r} is unknown; backends: {', '.join(BACKENDS)}")
    if not isinstance(task, str):
        if backend not in task.backends:
            raise BackendUnavailableError(
                f"task {task.id!r} cannot run on backend {backend!r}; backends that can: {', '.join(task.backends)}")
        return task
    name = task_id(task)
    sim = simulator_tasks().get(name)
    catalogued = llamatouch_catalogue().get(name)
    if sim is None and catalogued is None:
        raise UnknownTaskError(f"unknown task {task!r}; `mobile-gym tasks` lists them")
    if dataset is not None:
        if backend != "device":
            raise ConfigError("dataset= gives the annotations a phone is judged by: it goes with backend='device'")
        if catalogued is None:
            raise ConfigError(f"task {name!r} is not one of LlamaTouch's: its annotation is its own, not a dataset's")
        return dataset_task(catalogued, dataset)
    if sim is not None and backend in sim.backends:
        return sim
    if sim is None:
        raise BackendUnavailableError(
            f"task {name!r} has no simulator definition (tasks/sim/*.yaml): it runs on a phone or emulator, "
            "judged by LlamaTouch's dataset: gym.make(..., backend='device', dataset=PATH)"
            + ("" if backend == "device" else "; `mobile-gym tasks --backend sim` lists the simulator's tasks"))
    raise BackendUnavailableError(
        f"task {name!r} cannot run on backend {backend!r}; backends that can: {', '.join(sim.backends)}")


def make_env(task: str | Task, **kwargs: Any) -> MobileEnv:
    """The entry point every id is registered with. A function, not the class, so that
    ``gym.make`` passes ``render_mode`` through as given: for a class it would swap
    ``"human"`` for a `HumanRendering` wrapper (a window, pygame) with only a warning."""
    return MobileEnv(task, **kwargs)


class MobileEnv(gym.Env):
    """A mobile UI task as a Gymnasium env (see DESIGN §3.5 and the README).

    On ``backend="device"``: ``serial``, ``adb_host``, ``adb_port`` name the phone (as
    adb knows it); ``dataset`` a LlamaTouch dataset (format A) whose annotation judges
    the task; ``snapshot`` an emulator snapshot loaded at every reset (its console on
    ``console_port``, default the serial's); ``device_config`` the `AndroidConfig`
    deadlines. ``profile`` and ``dynamics`` are the simulator's. A ``{task}`` in the
    snapshot's name stands for the task's id (one snapshot per task).

    ``observation`` picks the observation's keys (`observation_keys`): ``"both"``
    (screenshot, view_hierarchy, instruction), ``"xml"`` or ``"screenshot"``;
    ``grayscale`` makes the screenshot (h, w, 1), Pillow's "L" of the RGB drawing.
    ``render()`` gives the RGB screen in every mode (drawn on request when the
    observation holds none).

    ``actions`` picks the action space's types (`mobile_gym.actions.ACTION_SETS`):
    ``"basic"``, LlamaTouch's eight (click, swipe, type, back, home, enter, complete,
    impossible), so the ``-v0`` envs, and the policies and results made on them, stay as
    they were; ``"all"`` adds AndroidWorld's long press, double tap, open app, wait and
    answer (the app's name and the answer in ``text``), and with them the dynamics those
    verbs are for: under ``dynamics="default"`` an app opened from the launcher may show a
    loading screen for a step or two, which takes no input (wait, or retry). `step` takes an `Action` of any type either
    way (a text agent's `TextActions` does). An ANSWER does not end the episode: the last
    one given is ``info["answer"]``. An OPEN_APP of an app the device does not have is a
    step that does nothing, never an exception (a sampled action may name any app):
    ``info["action_error"]`` says which apps come nearest.

    >>> import gymnasium as gym, mobile_gym
    >>> env = gym.make("LlamaTouch/settings-open-v0", observation="screenshot", grayscale=True,
    ...                observation_size=(84, 84))
    >>> obs, info = env.reset(seed=0)
    >>> sorted(obs), obs["screenshot"].shape
    (['instruction', 'screenshot'], (84, 84, 1))
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(
        self,
        task: str | Task,
        *,
        backend: str = "sim",
        dynamics: str | Dynamics | None = None,
        profile: str | DeviceProfile | None = None,
        observation_size: tuple[int, int] | None = None,
        observation: str = "both",
        grayscale: bool = False,
        actions: str = "basic",
        reward_mode: str = "sparse",
        terminate_on_success: bool = True,
        embedding_model: str | None = None,
        timings: bool = False,
        render_mode: str | None = None,
        serial: str | None = None,
        adb_host: str = "127.0.0.1",
        adb_port: int | None = None,
        dataset: str | Path | None = None,
        snapshot: str | None = None,
        console_port: int | None = None,
        device_config: AndroidConfig | None = None,
    ):
        if reward_mode not in REWARD_MODES:
            raise ConfigError(f"reward_mode must be one of {', '.join(REWARD_MODES)}; got {reward_mode!r}")
        if render_mode not in RENDER_MODES:
            raise ConfigError(
                f"render_mode={render_mode!r} is not supported: use None or 'rgb_array' and wrap the env "
                "for more (gymnasium.wrappers.HumanRendering for a window, with pygame installed; "
                "RenderCollection for a list of frames)")
        if observation not in OBSERVATIONS:
            raise ConfigError(f"observation must be one of {', '.join(OBSERVATIONS)}; got {observation!r}")
        if actions not in ACTION_SETS:
            raise ConfigError(f"actions must be one of {', '.join(map(repr, ACTION_SETS))}; got {actions!r}")
        if not isinstance(grayscale, (bool, np.bool_)):
            raise ConfigError(f"grayscale must be True or False, got {grayscale!r}")
        if grayscale and observation == "xml":
            raise ConfigError("grayscale=True greys the observed screenshot: it goes with observation='both' "
                              "or 'screenshot', not 'xml'")
        self.task = resolve_task(task, backend, dataset)
        self.backend = backend
        self.observation = observation
        self.grayscale = bool(grayscale)
        self.actions = actions
        self._action_types = ACTION_SETS[actions]
        self._pixels = observation != "xml"  # whether a step draws the screenshot at all
        self.reward_mode = reward_mode
        self.terminate_on_success = terminate_on_success
        self.embedding_model = embedding_model
        self.timings = timings  # wall-clock seconds per phase in info (never deterministic)
        self.render_mode = render_mode
        if backend == "sim":
            phone_only = {"serial": serial, "adb_port": adb_port, "snapshot": snapshot,
                          "console_port": console_port, "device_config": device_config}
            given = [k for k, v in phone_only.items() if v is not None] + (["adb_host"] if adb_host != "127.0.0.1"
                                                                            else [])
            if given:
                raise ConfigError(f"{', '.join(given)} describe a phone: they go with backend='device'")
            profile = _argument(get_profile, DEFAULT_PROFILE if profile is None else profile, "profile", PROFILES)
            dynamics = _argument(get_dynamics, "default" if dynamics is None else dynamics, "dynamics", DYNAMICS)
            if actions == "all":  # what AndroidWorld's verbs are for: long-press UIs, loading screens
                dynamics = for_android_world(dynamics)
            self.device = self.task.device(profile=profile, seed=0, dynamics=dynamics)
            self._setup = self.task.setup
        else:
            if profile is not None or dynamics is not None:
                raise ConfigError("profile= and dynamics= describe the simulated phone; a real one is what it is")
            from mobile_gym.devices.android import AndroidDevice

            snapshot = snapshot_name(snapshot, self.task)
            self._setup = phone_setup(self.task, snapshot)
            self.device = AndroidDevice(serial, adb_host, adb_port, device_config, snapshot=snapshot,
                                        console_port=console_port)
        try:  # a phone connects here: released if the env cannot be made
            screen = self.device.screen_size
            # width, height of the observed screenshot: a quarter of the screen by default
            self.observation_size = check_screenshot_size(
                default_observation_size(screen) if observation_size is None else observation_size, screen,
                "observation_size")
        except BaseException:
            self.device.close()
            raise
        self._judges_pixels = self.annotation.judges_pixels  # then it judges full-size screens
        shared_matcher(embedding_model).warm_up(self.annotation)  # the model, if fuzzy: never in a step
        w, h = self.observation_size
        every = {"screenshot": ImageBox((h, w, 1 if self.grayscale else 3)),
                 "view_hierarchy": UnicodeText(MAX_XML_LENGTH), "instruction": UnicodeText(MAX_TEXT_LENGTH)}
        self.observation_space = spaces.Dict({key: every[key] for key in observation_keys(observation)})
        self.action_space = spaces.Dict({
            "action_type": spaces.Discrete(len(self._action_types)),
            "touch": spaces.Box(0.0, 1.0, (2,), np.float32),
            "lift": spaces.Box(0.0, 1.0, (2,), np.float32),
            "text": UnicodeText(MAX_TEXT_LENGTH),
        })
        self._tracker: Tracker | None = None
        self._screen = None  # the last drawn screenshot (RGB), kept for render() only
        self._state: UIState | None = None  # the last observed screen, as the matcher saw it

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        if self._tracker is not None:  # the task's annotation and the process's matcher: re-attached
            tracker = state["_tracker"] = object.__new__(Tracker)
            tracker.__dict__.update({**self._tracker.__dict__, "annotation": None, "matcher": None})
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        matcher = shared_matcher(self.embedding_model)
        matcher.warm_up(self.annotation)  # e.g. in a fresh worker process: not in its first step
        if self._tracker is not None:
            self._tracker.annotation = self.annotation
            self._tracker.matcher = matcher

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if options:  # none are defined yet: a typo must not pass for a setting
            raise ConfigError(f"reset(options=...) takes no options; got {', '.join(map(repr, options))}")
        super().reset(seed=seed)
        self.device.reset(device_seed(self.np_random), self._setup)
        # the last step is all judging needs: memory does not grow with the episode
        self._tracker = Tracker(self.annotation, shared_matcher(self.embedding_model), history=False)
        self._steps = 0
        self._terminated_by: str | None = None  # set when the episode ends: step needs a reset
        self._answer: str | None = None  # the last ANSWER given this episode
        self._action_error: str | None = None  # why the device refused the last action (an app not installed)
        obs, timings = self._observe()
        return obs, self._info(timings)

    def step(self, action: Action | dict):
        if self._tracker is None:
            raise ResetNeededError("call reset() before step()")
        if self._terminated_by is not None:
            raise ResetNeededError(f"the episode ended ({self._terminated_by}): call reset() before step()")
        act = action if isinstance(action, Action) else self._from_gym(action)
        before = self._tracker.progress
        start = time.perf_counter()
        self._action_error = None
        if not act.ends_episode:
            try:
                self.device.perform(act)
            except AppNotInstalledError as e:  # raised before the device is touched: a step that did nothing
                self._action_error = str(e)
        perform = time.perf_counter() - start
        self._tracker.act(act)
        self._steps += 1
        if act.action_type is ActionType.ANSWER:
            self._answer = act.text
        obs, timings = self._observe()
        timings["perform"] = perform
        tracker = self._tracker
        if self.reward_mode == "sparse":
            reward = 1.0 if tracker.success and before < 1.0 else 0.0
        else:
            reward = tracker.progress - before
        terminated = act.ends_episode or (tracker.success and self.terminate_on_success)
        if terminated:
            self._terminated_by = ("success" if tracker.success and not act.ends_episode
                                   else act.action_type.name.lower())
        return obs, reward, terminated, False, self._info(timings)

    def _from_gym(self, sample: Any) -> Action:
        """A sample of the action space as an `Action`: a type outside the env's action
        set (``actions=``) is refused, as the space would refuse it."""
        act = Action.from_gym(sample)
        if act.action_type not in self._action_types:
            raise InvalidActionError(
                f"action type {act.action_type.value} ({act.action_type.name}) is not in this env's action "
                f"space (actions={self.actions!r}: types 0 to {len(self._action_types) - 1}); "
                "gym.make(..., actions='all') offers it")
        return act

    @property
    def annotation(self) -> Annotation:
        """The task's essential states as this env's phone shows them (`SimTask.annotation_for`:
        recorded with the long-press UIs where ``actions="all"`` turns them on)."""
        long_presses = self.backend == "sim" and self.device.dynamics.long_presses
        return self.task.annotation_for(True) if long_presses else self.task.annotation

    @property
    def hierarchy(self) -> ViewHierarchy:
        """The current screen's parsed dump: the matcher's own parse when it made one,
        so wrappers that read the screen do not parse it again."""
        if self._state is None:
            raise ResetNeededError("call reset() before reading the screen")
        return self._state.hierarchy

    @property
    def elements(self) -> list[Element]:
        """The current screen's actionable elements (`mobile_gym.ui.elements`), worked
        out once per screen and shared by every wrapper that uses them."""
        return actionable_elements(self.hierarchy)

    def render(self) -> np.ndarray | None:
        """The current screen as RGB at ``observation_size``, whatever is observed: drawn
        now (once per screen) when the observation held none."""
        if self.render_mode != "rgb_array" or self._state is None:
            return None
        if self._screen is None:
            self._screen = self.device.observe(screenshot=True, screenshot_size=self.observation_size).screenshot
        return np.array(self._screen)

    def close(self) -> None:
        self.device.close()

    # ------------------------------------------------------------------ helpers
    def _observe(self) -> tuple[dict[str, Any], dict[str, float]]:
        start = time.perf_counter()
        # the screen as the matcher judges it: its full-size pixels drawn if a check reads them
        judged = self.device.observe(screenshot=False, deferred_screenshot=self._judges_pixels)
        obs: dict[str, Any] = {}
        pixels = None
        if self._pixels:  # else nothing is drawn: render() draws on request
            # (h, w, 3) uint8, shared with the device's frame: the user gets a writable copy
            pixels = self.device.observe(screenshot=True, screenshot_size=self.observation_size).screenshot
            obs["screenshot"] = (np.array(Image.fromarray(pixels).convert("L"))[..., None] if self.grayscale
                                 else np.array(pixels))
        if self.observation != "screenshot":
            obs["view_hierarchy"] = judged.xml
        obs["instruction"] = self.task.instruction
        observed = time.perf_counter()
        self._tracker.observe(judged, judged.installed_packages)  # type: ignore[union-attr]
        matched = time.perf_counter()
        self._screen = pixels if self.render_mode == "rgb_array" else None
        self._state = judged
        self._activity = judged.activity
        return obs, {"observe": observed - start, "match": matched - observed}

    def _info(self, timings: dict[str, float]) -> dict[str, Any]:
        tracker = self._tracker
        assert tracker is not None
        info = {
            "progress": tracker.progress,
            "matched": dict(tracker.matched),
            "route": tracker.route,
            "success": tracker.success,
            "oracle_success": self.task.succeeded(self.device) if self.backend == "sim" else None,
            "activity": self._activity,
            "steps": self._steps,
            "terminated_by": self._terminated_by,
            "answer": self._answer,
            "action_error": self._action_error,
        }
        if self.timings:
            info["timings"] = timings
        return info


def phone_setup(task: Task, snapshot: str | None) -> dict[str, Any]:
    """A task's setup as a phone carries it out (`AndroidDevice.reset`): the task's apps
    stopped (unless a snapshot restores the whole phone) and its app launched. The
    simulator's other setup (apps installed, app state) only a snapshot can hold."""
    from mobile_gym.simulator.apps import resolve_package

    held = held_setup(task)
    if held and snapshot is None:
        raise ConfigError(
            f"task {task.id!r} starts from a state adb cannot set up ({held}); give snapshot=NAME, "
            "an emulator snapshot holding it (snapshot='{task}': one per task, named by its id)")
    if isinstance(task, DatasetTask):
        apps = task.packages
    else:
        apps = frozenset({resolve_package(task.app)})
    out: dict[str, Any] = {} if snapshot is not None else {"stop": sorted(apps)}
    if task.setup.get("launch"):
        out["launch"] = resolve_package(str(task.setup["launch"]))
    return out


def held_setup(task: Task) -> dict[str, Any]:
    """The part of a task's setup that only a snapshot can hold on a phone (all but ``launch``)."""
    return {k: v for k, v in task.setup.items() if k != "launch"}


def snapshot_name(snapshot: str | None, task: Task) -> str | None:
    """``snapshot`` with ``{task}`` replaced by the task's id: one snapshot per task."""
    if snapshot is None or "{" not in snapshot:
        return snapshot
    try:
        return snapshot.format(task=task.id)
    except (KeyError, IndexError, ValueError):
        raise ConfigError(f"snapshot={snapshot!r}: the only field a snapshot name takes is {{task}}") from None


def device_seed(np_random: np.random.Generator) -> int:
    """The seed a reset gives the device, drawn from the env's generator: the route
    explorer starts from the very state ``reset(seed=...)`` does."""
    return int(np_random.integers(2**31 - 1))


def default_observation_size(screen: tuple[int, int]) -> tuple[int, int]:
    """The screenshot an env observes unless told: a quarter of the screen each way."""
    return screen[0] // 4, screen[1] // 4


def _argument(resolve, value: Any, name: str, known: dict):
    """``resolve(value)``, or a `ConfigError` naming the ``gym.make`` argument."""
    try:
        return resolve(value)
    except (MobileGymError, TypeError):
        raise ConfigError(f"{name}={value!r} is unknown; known: {', '.join(known)}") from None

