"""`MobileEnv`: a task on a device, judged online by the essential-state matcher.

The env is the only place where devices and the matcher meet: each step it performs the
action on the device, observes the screen, and feeds both to a `Tracker`. The reward is
sparse (1.0 on the step the last checkpoint is matched) or, as an option, shaped by
progress (the fraction of checkpoints newly matched). A task with alternative routes is
solved by any one route; ``info["matched"]`` and ``info["route"]`` speak of the route that
got furthest (0: the golden path's). The simulator's oracle is reported in ``info`` for
checking the matcher, never used as reward.

An env is cheap to make, copy and pickle (a few ms, well under 1 MB): the task, its
annotation and the matcher (caches, embedding model) are shared by every env of the
process and are not part of an env's pickle. A task with fuzzy checks loads the
embedding model at ``make`` (once per process, 5-10 s; `warm_up` does it up front), so no
``step`` ever waits for it.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mobile_gym.actions import MAX_TEXT_LENGTH, Action, ActionType
from mobile_gym.errors import (BackendUnavailableError, ConfigError, MobileGymError, ResetNeededError,
                               UnknownTaskError)
from mobile_gym.matcher import Matcher, MatcherConfig, Tracker
from mobile_gym.matcher.embeddings import MAX_SHARED_MODELS, shared_embedder
from mobile_gym.simulator.dynamics import DYNAMICS, Dynamics, get_dynamics
from mobile_gym.simulator.profiles import DEFAULT_PROFILE, PROFILES, DeviceProfile, get_profile
from mobile_gym.simulator.render import check_screenshot_size
from mobile_gym.spaces import ImageBox, UnicodeText
from mobile_gym.tasks.catalogue import llamatouch_catalogue, task_id
from mobile_gym.tasks.definition import SimTask
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.trace import UIState
from mobile_gym.ui.elements import Element, actionable_elements
from mobile_gym.ui.hierarchy import ViewHierarchy

MAX_XML_LENGTH = 2_000_000
REWARD_MODES = ("sparse", "progress")
RENDER_MODES = (None, "rgb_array")


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


def resolve_task(task: str | SimTask, backend: str = "sim") -> SimTask:
    """The task a ``gym.make`` id or name stands for, if ``backend`` can run it."""
    if isinstance(task, SimTask):
        return task
    name = task_id(task)
    sim = simulator_tasks().get(name)
    if sim is not None and backend in sim.backends:
        return sim
    if sim is None and name not in llamatouch_catalogue():
        raise UnknownTaskError(f"unknown task {task!r}; `mobile-gym tasks` lists them")
    if sim is None:
        raise BackendUnavailableError(
            f"task {name!r} cannot run on backend {backend!r}: it has no simulator definition "
            "(tasks/sim/*.yaml) and no other backend exists yet; `mobile-gym tasks --backend sim` "
            "lists the tasks that run")
    raise BackendUnavailableError(
        f"task {name!r} cannot run on backend {backend!r}; backends that can: {', '.join(sim.backends)}")


def make_env(task: str | SimTask, **kwargs: Any) -> MobileEnv:
    """The entry point every id is registered with. A function, not the class, so that
    ``gym.make`` passes ``render_mode`` through as given: for a class it would swap
    ``"human"`` for a `HumanRendering` wrapper (a window, pygame) with only a warning."""
    return MobileEnv(task, **kwargs)


class MobileEnv(gym.Env):
    """A mobile UI task as a Gymnasium env (see DESIGN §3.5 and the README)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(
        self,
        task: str | SimTask,
        *,
        backend: str = "sim",
        dynamics: str | Dynamics = "default",
        profile: str | DeviceProfile = DEFAULT_PROFILE,
        observation_size: tuple[int, int] | None = None,
        reward_mode: str = "sparse",
        terminate_on_success: bool = True,
        embedding_model: str | None = None,
        timings: bool = False,
        render_mode: str | None = None,
    ):
        if reward_mode not in REWARD_MODES:
            raise ConfigError(f"reward_mode must be one of {', '.join(REWARD_MODES)}; got {reward_mode!r}")
        if render_mode not in RENDER_MODES:
            raise ConfigError(
                f"render_mode={render_mode!r} is not supported: use None or 'rgb_array' and wrap the env "
                "for more (gymnasium.wrappers.HumanRendering for a window, with pygame installed; "
                "RenderCollection for a list of frames)")
        self.task = resolve_task(task, backend)
        self.backend = backend
        self.reward_mode = reward_mode
        self.terminate_on_success = terminate_on_success
        self.embedding_model = embedding_model
        self.timings = timings  # wall-clock seconds per phase in info (never deterministic)
        self.render_mode = render_mode
        profile = _argument(get_profile, profile, "profile", PROFILES)
        screen = profile.size
        # width, height of the observed screenshot: a quarter of the screen by default
        self.observation_size = check_screenshot_size(
            default_observation_size(screen) if observation_size is None else observation_size, screen,
            "observation_size")
        self.device = self.task.device(profile=profile, seed=0,
                                       dynamics=_argument(get_dynamics, dynamics, "dynamics", DYNAMICS))
        self._judges_pixels = self.task.annotation.judges_pixels  # then it judges full-size screens
        shared_matcher(embedding_model).warm_up(self.task.annotation)  # the model, if fuzzy: never in a step
        w, h = self.observation_size
        self.observation_space = spaces.Dict({
            "screenshot": ImageBox((h, w, 3)),
            "view_hierarchy": UnicodeText(MAX_XML_LENGTH),
            "instruction": UnicodeText(MAX_TEXT_LENGTH),
        })
        self.action_space = spaces.Dict({
            "action_type": spaces.Discrete(len(ActionType)),
            "touch": spaces.Box(0.0, 1.0, (2,), np.float32),
            "lift": spaces.Box(0.0, 1.0, (2,), np.float32),
            "text": UnicodeText(MAX_TEXT_LENGTH),
        })
        self._tracker: Tracker | None = None
        self._screen = None  # the last observed screenshot, kept for render() only
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
        matcher.warm_up(self.task.annotation)  # e.g. in a fresh worker process: not in its first step
        if self._tracker is not None:
            self._tracker.annotation = self.task.annotation
            self._tracker.matcher = matcher

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if options:  # none are defined yet: a typo must not pass for a setting
            raise ConfigError(f"reset(options=...) takes no options; got {', '.join(map(repr, options))}")
        super().reset(seed=seed)
        self.device.reset(device_seed(self.np_random), self.task.setup)
        # the last step is all judging needs: memory does not grow with the episode
        self._tracker = Tracker(self.task.annotation, shared_matcher(self.embedding_model), history=False)
        self._steps = 0
        self._terminated_by: str | None = None  # set when the episode ends: step needs a reset
        obs, timings = self._observe()
        return obs, self._info(timings)

    def step(self, action: Action | dict):
        if self._tracker is None:
            raise ResetNeededError("call reset() before step()")
        if self._terminated_by is not None:
            raise ResetNeededError(f"the episode ended ({self._terminated_by}): call reset() before step()")
        act = action if isinstance(action, Action) else Action.from_gym(action)
        before = self._tracker.progress
        start = time.perf_counter()
        if not act.ends_episode:
            self.device.perform(act)
        perform = time.perf_counter() - start
        self._tracker.act(act)
        self._steps += 1
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
        if self._screen is None:
            return None
        return np.array(self._screen)

    def close(self) -> None:
        self.device.close()

    # ------------------------------------------------------------------ helpers
    def _observe(self) -> tuple[dict[str, Any], dict[str, float]]:
        start = time.perf_counter()
        state = self.device.observe(screenshot=True, screenshot_size=self.observation_size)
        observed = time.perf_counter()
        # the same screen, as the matcher judges it: its full-size pixels drawn if a check reads them
        judged = self.device.observe(screenshot=False, deferred_screenshot=self._judges_pixels)
        self._tracker.observe(judged, state.installed_packages)  # type: ignore[union-attr]
        matched = time.perf_counter()
        # the user's own writable copy (the state's array is shared and read-only)
        obs = {"screenshot": np.array(state.image), "view_hierarchy": state.xml,
               "instruction": self.task.instruction}
        self._screen = state.image if self.render_mode == "rgb_array" else None
        self._state = judged
        self._activity = state.activity
        return obs, {"observe": observed - start, "match": matched - observed}

    def _info(self, timings: dict[str, float]) -> dict[str, Any]:
        tracker = self._tracker
        assert tracker is not None
        info = {
            "progress": tracker.progress,
            "matched": dict(tracker.matched),
            "route": tracker.route,
            "success": tracker.success,
            "oracle_success": self.task.succeeded(self.device),
            "activity": self._activity,
            "steps": self._steps,
            "terminated_by": self._terminated_by,
        }
        if self.timings:
            info["timings"] = timings
        return info


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

