"""Our tasks as DeepMind AndroidEnv environments: `load` mirrors ``android_env.loader.load``.

An `android_env.env_interface.AndroidEnvInterface` (a ``dm_env.Environment``) over one
`MobileEnv`, so that RL code written for AndroidEnv runs unchanged, and android_env's own
wrappers (``DiscreteActionWrapper``, ``ImageRescaleWrapper``, ``FloatPixelsWrapper``, ...)
stack on top as they stack on ``loader.load(config)``:

- the action spec is ``specs.base_action_spec()``: one finger, ``action_type`` TOUCH (0),
  LIFT (1) or REPEAT (2) and ``touch_position`` (x, y) in [0, 1]; no key events;
- the observation spec is ``specs.base_observation_spec(h, w)``: ``pixels`` (h, w, 3)
  uint8, ``timedelta`` (int64 microseconds since the previous observation, 0 on the first
  after a reset) and ``orientation`` (one-hot uint8, portrait ``[1, 0, 0, 0]``).

Gestures are read from the raw finger stream, as the phone reads its touchscreen: a TOUCH
puts the finger down or moves it, and only the LIFT that ends a touch steps the gym env,
with the gesture the touch made (below). Every other step changes nothing on the phone
and reports the current screen with reward 0: the env is judged at the end of gestures,
where the screen can have changed. The gym env's reward (the matcher's, sparse by
default) comes on the LIFT's timestep; success ends the episode (``dm_env.termination``,
discount 0), the step limits cut it (``dm_env.truncation``, discount 1).

- TOUCH p, LIFT: ``Action.click(p)``, the finger lifted where it went down (within
  `TAP_DISTANCE`: AITW's rule, and `Action.is_tap`'s);
- TOUCH p held for ``long_press_steps`` TOUCH steps or more, LIFT: ``Action.long_press(p)``;
- TOUCH a, ..., TOUCH b, LIFT with b farther than `TAP_DISTANCE` from a:
  ``Action.swipe(a, b)`` (the first and last points: AITW's touch and lift points);
- LIFT with the finger up: ``Action.wait()`` (``wait_on_idle=True``, the default), nothing
  touched while the phone's clock moves on; or nothing at all;
- REPEAT: the previous action again, as the touchscreen sees it. android_env sends no
  event for it, so a finger down stays down where it was (a TOUCH there: one more step
  held) and a finger up stays up (an idle LIFT). android_env's ``RateLimitWrapper``
  (``AFTER_WITH_REPEAT``) sends one after each step: it lengthens touches and adds a WAIT
  after each LIFT.

Why an idle LIFT is a WAIT: on AndroidEnv's phone every step lets real time pass, and an
agent that keeps its finger up is doing what AndroidWorld's WAIT does: letting the phone
be for a moment (what ends an app's loading screen, `mobile_gym.simulator.runtime`). The
simulated phone's clock moves only with the gym env's steps, so without this a loading
screen could only be waited out by tapping it. A TOUCH that goes on is not a WAIT: the
gesture is judged, and the clock moves, when it ends. The price: idle LIFTs are gym
steps, judged and counted by the gym step limit. ``wait_on_idle=False`` makes them do
nothing (no gym step, nothing counted).

Long presses are counted in steps, and the defaults agree with each other: 3 steps of the
simulated ``step_seconds=0.2`` is 0.6 s, past Android's long-press timeout (0.4-0.5 s).
android_env's ``TapActionWrapper`` holds a tap for ``num_steps=5`` TOUCH steps, which is a
long press under these defaults (as it would be on a phone at 5 steps a second); give
``long_press_steps=6`` (or ``TapActionWrapper(num_steps=1)``) to keep its taps taps. A
long press on a view without a long-click handler is a click (the framework's rule, and
the simulator's), so only long-clickable views and text fields see the difference.

Episodes follow android_env's `AndroidEnv` exactly: ``step`` on a fresh env, or after a
LAST timestep, ignores its action and returns ``reset()``'s FIRST timestep; FIRST carries
reward 0.0 and discount 0.0 (android_env's, not dm_env's None: AndroidEnv code sums
rewards from the first timestep on). Each ``reset`` draws the gym env's seed from
``seed``: a seeded env replays the same episodes for the same actions. Two departures,
both deliberate: `MobileAndroidEnv.task_extras` holds the matcher's verdict at every
timestep (android_env's holds what the task logged since the last step: events, where
ours is a state), and ``max_steps=N`` ends an episode on its N-th step (a task's
``max_episode_steps`` in android_env lets one more in).

Pixels are drawn by the adapter itself (the gym env, made with ``observation="xml"``,
draws none) at the device's resolution, or at ``pixels_size`` directly, which costs a
fraction of drawing the full screen and rescaling it. They are the device's frame,
drawn once per screen and read-only, as android_env's own emulator pixels are (a view of
``np.frombuffer``): no copy of 8 MB each step.

`MobileAndroidEnv.execute_adb_call` answers android_env's ``AdbRequest``s through
`mobile_gym.compat.adb.AdbCalls`: each input it gives the phone (a tap, typed text, a
key) is a judged gym step, whose reward and episode end the next timestep reports.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any, Mapping

import numpy as np

from mobile_gym.actions import TAP_DISTANCE, Action, _shown
from mobile_gym.env import MobileEnv, make_env
from mobile_gym.compat.adb import AdbCalls, require_android_env
from mobile_gym.errors import AppNotInstalledError, ConfigError, InvalidActionError, whole_number
from mobile_gym.registration import default_step_limit
from mobile_gym.simulator.render import check_screenshot_size

require_android_env()  # the optional extra: a MissingExtraError saying which to install

import dm_env  # noqa: E402 - after the check above
from android_env import env_interface  # noqa: E402
from android_env.components import specs as android_specs  # noqa: E402
from android_env.components.action_type import ActionType as TouchType  # noqa: E402

if TYPE_CHECKING:
    from android_env.proto import adb_pb2

__all__ = ["MobileAndroidEnv", "load", "touch_actions", "parse_action", "DEFAULT_STEP_SECONDS",
           "DEFAULT_LONG_PRESS_STEPS"]

#: Simulated seconds a raw step takes (the observation's ``timedelta``): 5 steps a second.
DEFAULT_STEP_SECONDS = 0.2
#: TOUCH steps a touch is held before it is a long press: 0.6 s at the default step.
DEFAULT_LONG_PRESS_STEPS = 3
#: The observation's orientation: portrait, as the simulated phones are.
PORTRAIT = (1, 0, 0, 0)
#: The action spec's keys: one finger, no key events (``base_action_spec()``).
ACTION_KEYS = ("action_type", "touch_position")
#: What task_extras holds, each a stack of one value per judged screen since the last timestep.
EXTRAS = ("progress", "success", "matched", "route", "oracle_success", "gym_steps", "gesture")


def load(task: str, *, seed: int | None = None, long_press_steps: int = DEFAULT_LONG_PRESS_STEPS,
         step_seconds: float = DEFAULT_STEP_SECONDS, max_steps: int | None = None,
         max_episode_steps: int | None = None, pixels_size: tuple[int, int] | None = None,
         wait_on_idle: bool = True, **make_kwargs: Any) -> MobileAndroidEnv:
    """``task`` (an id or ``LlamaTouch/<id>-v0``) as an AndroidEnv, as
    ``android_env.loader.load(config)`` gives one for a task proto.

    The gym env is ``make_env(task, actions="all", observation="xml", **make_kwargs)``:
    every verb the finger can make (long press, wait) and no screenshot, which the adapter
    draws itself (``make_kwargs``: ``profile``, ``dynamics``, ``reward_mode``,
    ``terminate_on_success``, ...). See `MobileAndroidEnv` for the other arguments.

    >>> env = load("settings-open", seed=0, pixels_size=(108, 240))
    >>> timestep = env.reset()
    >>> timestep.observation["pixels"].shape, env.action_spec()["action_type"].num_values
    ((240, 108, 3), 3)
    >>> env.close()
    """
    fixed = [key for key in ("actions", "observation") if key in make_kwargs]
    if fixed:
        raise ConfigError(f"{', '.join(fixed)}: the AndroidEnv adapter makes its gym env with actions='all' "
                          "(every gesture a finger makes) and observation='xml' (it draws the pixels itself)")
    gym_env = make_env(task, actions="all", observation="xml", **make_kwargs)
    try:
        return MobileAndroidEnv(gym_env, seed=seed, long_press_steps=long_press_steps, step_seconds=step_seconds,
                                max_steps=max_steps, max_episode_steps=max_episode_steps,
                                pixels_size=pixels_size, wait_on_idle=wait_on_idle)
    except BaseException:
        gym_env.close()
        raise


class MobileAndroidEnv(env_interface.AndroidEnvInterface):
    """A `MobileEnv` (``gym_env``, unwrapped) behind android_env's AndroidEnv interface
    (see the module docstring for how the finger's steps become gym steps).

    - ``seed``: the generator each ``reset`` draws the gym env's seed from (None: fresh).
    - ``long_press_steps``: TOUCH steps a touch is held for to be a long press.
    - ``step_seconds``: simulated seconds per step, what ``timedelta`` reports.
    - ``max_steps``: at most this many raw steps an episode (None: no cap); the last is a
      truncation unless it succeeded.
    - ``max_episode_steps``: the gym env's step limit, counting its steps (gestures, idle
      WAITs, adb inputs) as ``gym.make``'s ``TimeLimit`` would; None: the registered one
      (three times the golden path plus five).
    - ``pixels_size``: (width, height) the pixels are drawn at; None: the screen's.
    - ``wait_on_idle``: a LIFT with the finger up is a WAIT step (True) or nothing.
    """

    def __init__(self, gym_env: MobileEnv, *, seed: int | None = None,
                 long_press_steps: int = DEFAULT_LONG_PRESS_STEPS, step_seconds: float = DEFAULT_STEP_SECONDS,
                 max_steps: int | None = None, max_episode_steps: int | None = None,
                 pixels_size: tuple[int, int] | None = None, wait_on_idle: bool = True):
        if not isinstance(gym_env, MobileEnv):
            raise ConfigError(f"MobileAndroidEnv drives a MobileEnv, unwrapped (it keeps the step limit itself); "
                              f"got {type(gym_env).__name__}: pass env.unwrapped, or use load(task)")
        self.gym_env = gym_env
        self.long_press_steps = whole_number("long_press_steps", long_press_steps, 1)
        if (not isinstance(step_seconds, numbers.Real) or isinstance(step_seconds, bool)
                or not math.isfinite(step_seconds) or step_seconds <= 0):
            raise ConfigError(f"step_seconds must be a positive number of seconds; got {step_seconds!r}")
        self.step_seconds = float(step_seconds)
        self.max_steps = None if max_steps is None else whole_number("max_steps", max_steps, 1)
        self.max_episode_steps = (default_step_limit(gym_env.task.steps) if max_episode_steps is None
                                  else whole_number("max_episode_steps", max_episode_steps, 1))
        screen = gym_env.device.screen_size
        self.pixels_size = screen if pixels_size is None else check_screenshot_size(pixels_size, screen, "pixels_size")
        if not isinstance(wait_on_idle, (bool, np.bool_)):
            raise ConfigError(f"wait_on_idle must be True or False; got {wait_on_idle!r}")
        self.wait_on_idle = bool(wait_on_idle)
        self._rng = np.random.default_rng(None if seed is None else whole_number("seed", seed, 0))
        # drawn now whether used or not, so that the episodes' seeds never depend on it
        self._boot_seed = int(self._rng.integers(2**31 - 1))
        self._started = False  # the gym env has an episode (reset, or booted for adb calls)
        self._reset_next_step = True  # as android_env's AndroidEnv: step() on a fresh env resets
        self._closed = False
        self._adb = None  # the episode's AdbCalls, made on the first adb call
        self._latest_action: dict[str, Any] = {}
        self._latest_observation: dict[str, Any] = {}
        self._latest_extras: dict[str, np.ndarray] = {}
        self._stats = {"episodes": 0, "total_steps": 0, "total_gym_steps": 0, "reset_count_episode_end": 0,
                       "reset_count_max_duration_reached": 0, "taps": 0, "long_presses": 0, "swipes": 0,
                       "waits": 0, "adb_inputs": 0}
        self._new_episode_state()

    # ------------------------------------------------------------------ dm_env
    def action_spec(self) -> dict[str, dm_env.specs.Array]:
        """android_env's ``base_action_spec()`` (a new dict each call, as android_env's)."""
        return android_specs.base_action_spec()

    def observation_spec(self) -> dict[str, dm_env.specs.Array]:
        """android_env's ``base_observation_spec(h, w)`` at the pixels' size (a new dict each
        call: ``FloatPixelsWrapper`` writes into the one it gets)."""
        w, h = self.pixels_size
        return android_specs.base_observation_spec(height=h, width=w)

    def reset(self) -> dm_env.TimeStep:
        """A new episode of the task, its seed drawn from ``seed``: FIRST, reward 0.0 and
        discount 0.0, as android_env's."""
        seed = int(self._rng.integers(2**31 - 1))
        obs, info = self.gym_env.reset(seed=seed)
        self._started = True
        self._new_episode_state()
        self._gym_observation, self._gym_info = obs, info
        self._judged.append(self._extras_of(info, None))
        self._stats["episodes"] += 1
        self._latest_action = {}
        self._reset_next_step = False
        return dm_env.TimeStep(dm_env.StepType.FIRST, 0.0, 0.0, self._observe(first=True))

    def step(self, action: Mapping[str, Any]) -> dm_env.TimeStep:
        """One step of the finger (see the module docstring). On a fresh env or after a
        LAST timestep: ``reset()``, the action ignored (android_env's AndroidEnv)."""
        if self._reset_next_step:
            return self.reset()
        kind, point = parse_action(action)  # a malformed action changes nothing
        self._episode_steps += 1
        self._stats["total_steps"] += 1
        if self._ended is None:
            self._finger(kind, point)
        if self._ended is None and self.max_steps is not None and self._episode_steps >= self.max_steps:
            self._ended = "truncation"
        reward, self._reward = self._reward, 0.0
        observation = self._observe()
        self._latest_action = dict(action)
        if self._ended == "termination":
            timestep = dm_env.termination(reward=reward, observation=observation)
            self._stats["reset_count_episode_end"] += 1
        elif self._ended == "truncation":
            timestep = dm_env.truncation(reward=reward, observation=observation)
            self._stats["reset_count_max_duration_reached"] += 1
        else:
            timestep = dm_env.transition(reward=reward, observation=observation)
        self._reset_next_step = timestep.last()
        return timestep

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.gym_env.close()

    # ------------------------------------------------------------------ AndroidEnv's extensions
    def task_extras(self, latest_only: bool = True) -> dict[str, np.ndarray]:
        """What the matcher says, as android_env's task extras: name -> the values of each
        screen judged since the previous timestep, stacked (the current one if none
        was), or with ``latest_only`` the last of them. ``progress`` (fraction of
        checkpoints matched), ``success``, ``matched`` (checkpoints matched),
        ``route`` (the leading route), ``oracle_success`` (the simulator's own verdict;
        absent on a phone), ``gym_steps`` and ``gesture`` (the gym action the screen was
        judged after: '' at reset)."""
        extras = {}
        for name, values in self._latest_extras.items():
            values = values.astype(values.dtype)  # a copy, as android_env's
            extras[name] = values[-1] if latest_only else values
        return extras

    @property
    def raw_action(self) -> dict[str, Any]:
        """The latest action as given ({} after a reset)."""
        return self._latest_action.copy()

    @property
    def raw_observation(self) -> dict[str, Any]:
        """The latest observation (pixels, timedelta, orientation)."""
        return self._latest_observation.copy()

    def stats(self) -> dict[str, Any]:
        """Counters, android_env's where they mean the same (``episode_steps``,
        ``reset_count_episode_end`` for terminations, ``reset_count_max_duration_reached``
        for truncations), and the gestures made."""
        return {**self._stats, "episode_steps": self._episode_steps, "episode_gym_steps": self._gym_steps}

    def execute_adb_call(self, call: adb_pb2.AdbRequest) -> adb_pb2.AdbResponse:
        """An android_env adb request, answered by `mobile_gym.compat.adb.AdbCalls` on the
        gym env's phone. The inputs it gives the phone are judged gym steps: their reward
        and the episode's end come with the next timestep. After the episode ended they
        still act on the phone, unjudged (the next step resets it). Before the first
        reset the phone is booted with a seed of its own drawn from ``seed``."""

        if not self._started:
            self.gym_env.reset(seed=self._boot_seed)
            self._started = True
        if self._adb is None:
            self._adb = AdbCalls(self.gym_env, self._adb_step)
        return self._adb.execute(call)

    # ------------------------------------------------------------------ for harnesses
    @property
    def gym_observation(self) -> dict[str, Any]:
        """The gym env's latest observation (the dump, the instruction): what a harness
        such as the oracle reads; an AndroidEnv agent sees the pixels alone."""
        return self._gym_observation

    @property
    def gym_info(self) -> dict[str, Any]:
        """The gym env's latest info (progress, matched, success, oracle_success, ...)."""
        return self._gym_info

    # ------------------------------------------------------------------ internals
    def _new_episode_state(self) -> None:
        self._points: list[tuple[float, float]] = []  # the touch in progress (empty: finger up)
        self._previous: tuple[int, tuple[float, float] | None] = (TouchType.LIFT, None)  # what REPEAT repeats
        self._episode_steps = 0
        self._gym_steps = 0
        self._reward = 0.0  # gym rewards not yet reported
        self._ended: str | None = None  # "termination" / "truncation": the next timestep is LAST
        self._judged: list[dict[str, Any]] = []  # extras of the screens judged since the last timestep
        self._last_judged: dict[str, Any] = {}  # ... and of the last one judged before it
        self._adb = None  # a new episode, a new phone state: made again on the next adb call
        self._gym_observation: dict[str, Any] = {}
        self._gym_info: dict[str, Any] = {}

    def _finger(self, kind: int, point: tuple[float, float] | None) -> None:
        """The touchscreen's step: record the touch, or end it with its gesture."""
        if kind == TouchType.REPEAT:
            kind, point = self._previous
        if kind == TouchType.TOUCH:
            assert point is not None
            self._points.append(point)
            self._previous = (TouchType.TOUCH, point)
            return
        self._previous = (TouchType.LIFT, None)
        if self._points:
            gesture = self._gesture(self._points)
            self._points = []
            self._gym_step(gesture, _COUNTERS[gesture.action_type.name])
        elif self.wait_on_idle:
            self._gym_step(Action.wait(), "waits")

    def _gesture(self, points: list[tuple[float, float]]) -> Action:
        """The gym action a touch made: AITW's rule on its first and last points."""
        first, last = points[0], points[-1]
        if math.dist(first, last) <= TAP_DISTANCE:
            return Action.long_press(*first) if len(points) >= self.long_press_steps else Action.click(*first)
        return Action.swipe(*first, *last)

    def _gym_step(self, action: Action, counter: str) -> None:
        """A judged step of the gym env; its reward and end wait for the next timestep."""
        obs, reward, terminated, truncated, info = self.gym_env.step(action)
        self._gym_steps += 1
        self._stats["total_gym_steps"] += 1
        self._stats[counter] += 1
        self._reward += float(reward)
        self._gym_observation, self._gym_info = obs, info
        self._judged.append(self._extras_of(info, action))
        truncated = truncated or self._gym_steps >= self.max_episode_steps
        if terminated:
            self._ended = "termination"
        elif truncated:
            self._ended = "truncation"

    def _adb_step(self, action: Action) -> None:
        """`AdbCalls`' step: a judged gym step while the episode runs; once it has ended,
        the action on the phone alone (what a phone does; the next step resets it)."""
        if self._ended is None:
            self._gym_step(action, "adb_inputs")
            return
        try:
            self.gym_env.device.perform(action)
        except AppNotInstalledError:  # a step that does nothing, as the gym env takes it
            pass

    def _extras_of(self, info: Mapping[str, Any], action: Action | None) -> dict[str, Any]:
        extras = {"progress": np.float64(info["progress"]), "success": np.bool_(info["success"]),
                  "matched": np.int64(len(info["matched"])), "route": np.int64(info["route"]),
                  "gym_steps": np.int64(info["steps"]), "gesture": np.str_("" if action is None else str(action))}
        if info.get("oracle_success") is not None:
            extras["oracle_success"] = np.bool_(info["oracle_success"])
        return extras

    def _observe(self, first: bool = False) -> dict[str, np.ndarray]:
        """The timestep's observation (a new dict: wrappers write into it), and its extras."""
        pixels = self.gym_env.device.observe(screenshot=True, screenshot_size=self.pixels_size).screenshot
        if not isinstance(pixels, np.ndarray):  # a phone's device may give an image
            pixels = np.asarray(pixels)
        delta = 0 if first else round(self.step_seconds * 1e6)
        observation = {"pixels": pixels, "timedelta": np.array(delta, dtype=np.int64),
                       "orientation": np.array(PORTRAIT, dtype=np.uint8)}
        judged = self._judged or [self._last_judged]  # nothing judged since: the screen as it was
        self._latest_extras = {name: np.stack([values[name] for values in judged]) for name in judged[-1]}
        self._last_judged, self._judged = judged[-1], []
        self._latest_observation = observation.copy()
        return observation


def touch_actions(action: Action, long_press_steps: int = DEFAULT_LONG_PRESS_STEPS) -> list[dict[str, np.ndarray]]:
    """The AndroidEnv actions that make ``action``'s gesture on `MobileAndroidEnv`: a tap
    is TOUCH, LIFT at its point; a swipe TOUCH at its start, TOUCH at its end, LIFT; a long
    press ``long_press_steps`` TOUCHes at its point, LIFT; a double tap two taps (two CLICK
    steps: the finger stream makes no DOUBLE_TAP); a WAIT
    a LIFT with the finger up. What an agent's (or the oracle's) actions are in
    AndroidEnv's action language, e.g. to record demonstrations. Keys, typed text and
    apps are no finger's gestures (AndroidEnv's spec has no key events): an
    `InvalidActionError` (tap the navigation bar's buttons, or use ``execute_adb_call``)."""
    def touch(point: Any) -> dict[str, np.ndarray]:
        return {"action_type": np.array(TouchType.TOUCH, np.int32), "touch_position": np.array(point, np.float32)}

    lift = {"action_type": np.array(TouchType.LIFT, np.int32), "touch_position": np.zeros(2, np.float32)}
    kind = action.action_type.name
    if kind == "CLICK":
        return [touch(action.touch), lift]
    if kind == "SWIPE":
        return [touch(action.touch), touch(action.lift), lift]
    if kind == "LONG_PRESS":
        return [touch(action.touch)] * whole_number("long_press_steps", long_press_steps, 1) + [lift]
    if kind == "DOUBLE_TAP":
        return [touch(action.touch), lift] * 2
    if kind == "WAIT":
        return [lift]
    raise InvalidActionError(f"{action} is no finger gesture: AndroidEnv's action spec has no key events "
                             "(tap the navigation bar's Back and Home, the keyboard's Enter; execute_adb_call "
                             "for typed text)")


#: The stats counter of each gesture's gym action.
_COUNTERS = {"CLICK": "taps", "LONG_PRESS": "long_presses", "SWIPE": "swipes", "WAIT": "waits"}


def parse_action(action: Any) -> tuple[int, tuple[float, float] | None]:
    """An AndroidEnv action (``{"action_type": ..., "touch_position": ...}``) as its type
    (TOUCH, LIFT or REPEAT) and touch point, or an `InvalidActionError` saying what is
    wrong: not a dict, keys outside ``base_action_spec()`` (other fingers, key events),
    a type outside 0-2, a TOUCH without its point, a point not two finite numbers in
    [0, 1] (the spec's bounds). A point is checked whenever given; only a TOUCH needs one."""
    if not isinstance(action, Mapping):
        raise InvalidActionError(f"an AndroidEnv action is a dict with 'action_type' and 'touch_position'; "
                                 f"got {type(action).__name__}")
    unknown = [key for key in action if key not in ACTION_KEYS]
    if unknown:
        raise InvalidActionError(f"action keys {', '.join(map(repr, unknown))} are not in the action spec: "
                                 "one finger, no key events (action_type, touch_position)")
    if "action_type" not in action:
        raise InvalidActionError("the action has no 'action_type' (TOUCH=0, LIFT=1, REPEAT=2)")
    kind = _touch_type(action["action_type"])
    point = action.get("touch_position")
    if point is None:
        if kind == TouchType.TOUCH:
            raise InvalidActionError("a TOUCH needs its 'touch_position' (x, y) in [0, 1]")
        return kind, None
    return kind, _position(point)


def _touch_type(value: Any) -> int:
    try:
        if getattr(value, "shape", None) == ():  # a 0-d array or a numpy scalar
            value = value.item()
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer() \
                and 0 <= value <= TouchType.REPEAT:
            return TouchType(int(value))
    except Exception:  # a user's object may raise anything
        pass
    key_events = isinstance(value, numbers.Integral) and TouchType.REPEAT < value <= max(TouchType)
    raise InvalidActionError(
        f"action_type must be TOUCH (0), LIFT (1) or REPEAT (2); got {_shown(value)}"
        + (" (key events are not in this env's action spec)" if key_events else ""))


def _position(value: Any) -> tuple[float, float]:
    try:
        array = np.asarray(value)
        ok = array.shape == (2,) and array.dtype.kind in "fiu"
    except Exception:
        ok = False
    if not ok:
        raise InvalidActionError(f"touch_position must be two numbers (x, y) of shape (2,); got {_shown(value)}")
    x, y = (float(v) for v in array)
    if not (math.isfinite(x) and math.isfinite(y) and 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        raise InvalidActionError(f"touch_position must be (x, y) in [0, 1] (the spec's bounds); got {_shown(value)}")
    return (x, y)
