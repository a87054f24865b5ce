"""`AgentEnv`: LlamaTouch's AgentEnv interface over any of our envs, so that agents
written against it run here unchanged and their episodes are judged like any other.

LlamaTouch spells that interface twice, and the spellings differ; both are served, over
the same episode:

- the paper's (UIST '24, Table 11): ``get_task_instruction``, ``get_screenshot`` (base64
  PNG), ``get_view_hierarchy`` (uiautomator XML), ``post_click(x, y)``,
  ``post_swipe(touch_x, touch_y, lift_x, lift_y, duration)``, ``post_type(text)``,
  ``post_press_back``, ``post_press_home``, ``post_task_complete``,
  ``post_task_impossible``; points normalised to [0, 1] of the screen;
- the released code's (github.com/LlamaTouch/AgentEnv, ``environment.py``), which
  drivers such as AutoDroid's call: ``set_up``, ``get_instruction``, ``setup_task``,
  ``episode_done``, ``get_state``, ``post_action`` (an AITW-style action string, see
  `action_from_aitw_string`), ``get_state_history``, ``get_device_size``, ``reset_env``,
  ``tear_down``.

Where AgentEnv drives an emulator, this drives a `MobileEnv`: each post is one ``step``,
the env's matcher judges online (`AgentEnv.info`), and the episode is kept as a trace
that `AgentEnv.save_trace` writes in AgentEnv's own folder layout (format B), which
``mobile-gym evaluate --traces`` and `evaluate_trace` judge offline.

It is made as LlamaTouch's is too, ``AgentEnv(avd_name=..., emulator_controller_args=...,
max_steps=..., local_output_path=..., instruction_fp=...)``: then it plays, one after the
other, the tasks of the instruction file that the backend runs, so that an AgentEnv
driver such as ``MockAgent2AgentEnv.py`` runs with its import changed alone.
"""

from __future__ import annotations

import base64
import logging
import math
import numbers
import re
from pathlib import Path
from typing import Any, Callable, Mapping

import gymnasium as gym
import numpy as np
from PIL import Image

from mobile_gym.actions import TAP_DISTANCE, Action, _shown
from mobile_gym.env import MobileEnv, require_observed, resolve_task
from mobile_gym.errors import (ConfigError, FormatError, InvalidActionError, MobileGymError, ResetNeededError,
                               StorageError, whole_number)
from mobile_gym.formats.agentenv import CAPTURED_DATA, episode_folder, write_trace
from mobile_gym.formats.droidbot import droidbot_views
from mobile_gym.formats.metadata import read_instructions
from mobile_gym.tasks.definition import SimTask
from mobile_gym.trace import Trace, encode_png
from mobile_gym.wrappers.record_trace import RecordTrace

#: zlib level of `AgentEnv.get_screenshot`'s PNG: the agent waits for it (~30 ms at 1080x2400).
SCREENSHOT_COMPRESS_LEVEL = 1
#: Seconds a swipe takes unless told: uiautomator2's default, which AgentEnv's device uses.
DEFAULT_SWIPE_DURATION = 0.5
#: The action types of AgentEnv's action strings (AITW's names).
AITW_ACTION_TYPES = ("TYPE", "DUAL_POINT", "PRESS_BACK", "PRESS_HOME", "PRESS_ENTER", "STATUS_TASK_COMPLETE",
                     "STATUS_TASK_IMPOSSIBLE")
AITW_FORMAT = ("action_type: <type>, touch_point: [x, y], lift_point: [x, y], typed_text: <text>")

logger = logging.getLogger(__name__)


class AgentEnv:
    """A task's episodes behind LlamaTouch's AgentEnv interface (both spellings, see the
    module docstring).

    ``env`` is an env id (made with ``make_kwargs``) or a made env of ours, wrapped or not
    but with its screen actions (policy wrappers that change the action space are
    refused). Construction resets it with ``seed``: the episode is ready to play.

    Or, as LlamaTouch's AgentEnv is made, no ``env`` but ``instruction_fp``: a task list
    (its ``docs/instructions/*.tsv``, or a ``llamatouch_task_metadata.tsv``; the columns
    ``episode`` and ``description`` are read). Each listed task the backend runs is played
    in file order, each made from its id with ``make_kwargs`` and reset with ``seed``
    (the others are skipped, and logged; a list of none is a `ConfigError`).
    `get_instruction` moves to the next task. ``avd_name`` (the emulator to boot) is not
    needed; ``emulator_controller_args`` name a phone on ``backend="device"``: its
    ``port`` the serial ``emulator-<port>`` (whose console is on that port) unless
    ``serial`` is given, its ``snapshot`` the snapshot each reset loads unless
    ``snapshot`` is. The simulator (the default backend) needs neither.

    Episodes end as AgentEnv's do: on COMPLETE, IMPOSSIBLE or the step limit (the env's,
    or ``max_steps`` posts). An env made here from an id is made with
    ``terminate_on_success=False`` (unless given), so reaching the goal does not end the
    episode under an agent that still means to post its COMPLETE; a made env keeps its
    own setting, and if it ends on success, ``episode_done()`` says so. Any post after the
    end raises `ResetNeededError` until `reset_env`. A malformed post raises
    `InvalidActionError` (a ``ValueError``, as AgentEnv's parser raises) before anything
    runs: no step is taken or recorded and the episode goes on.

    With ``local_output_path`` each episode's trace is written, when it ends (or, if it
    never does, at `reset_env` / `tear_down`), to ``<local_output_path>/<episode>/``,
    ``<episode>`` being the task's LlamaTouch episode id (else its id), so that
    ``mobile-gym evaluate --traces <local_output_path>`` finds it as AgentEnv's own. That
    is one trace per task and folder: an episode whose folder already holds a trace is
    refused with a `FormatError` at its first post, before anything runs (set
    ``local_output_path`` to another folder, or save with `save_trace`).

    >>> from mobile_gym.compat import AgentEnv
    >>> agent_env = AgentEnv("LlamaTouch/settings-turn-airplane-mode-v0", seed=0)
    >>> agent_env.get_task_instruction(), agent_env.get_device_size()
    ('Turn on airplane mode', (1080, 2400))
    >>> 'text="Network &amp; internet"' in agent_env.get_view_hierarchy()
    True
    >>> agent_env.post_click(0.5, 1.5)
    Traceback (most recent call last):
    mobile_gym.errors.InvalidActionError: post_click: y must be a number in [0, 1] ..., got 1.5
    >>> agent_env.post_press_back()
    >>> agent_env.post_action("action_type: STATUS_TASK_COMPLETE, touch_point: [-1.0, -1.0], "
    ...                       "lift_point: [-1.0, -1.0], typed_text: ")
    >>> agent_env.episode_done(), agent_env.terminated_by, agent_env.success, len(agent_env.trace)
    (True, 'complete', False, 3)
    >>> agent_env.post_press_home()
    Traceback (most recent call last):
    mobile_gym.errors.ResetNeededError: the episode ended (complete): call reset_env() before posting again
    >>> agent_env.tear_down()
    """

    def __init__(self, env: str | gym.Env | None = None, *, seed: int | None = 0, max_steps: int | None = None,
                 local_output_path: str | Path | None = None, avd_name: str | None = None,
                 emulator_controller_args: Mapping[str, Any] | None = None,
                 instruction_fp: str | Path | None = None, **make_kwargs: Any):
        self._seed = _seed(seed)
        self.max_steps = None if max_steps is None else whole_number("max_steps", max_steps, 1)
        self.local_output_path = None if local_output_path is None else Path(local_output_path)
        if (env is None) == (instruction_fp is None):
            raise ConfigError("give the env (an id or a made env) or, as LlamaTouch's AgentEnv takes them, "
                              f"instruction_fp, a task list; got {'both' if env is not None else 'neither'}")
        if avd_name is not None:
            logger.debug("avd_name=%r: no emulator to boot", avd_name)
        make_kwargs.update(_phone_kwargs(emulator_controller_args, make_kwargs))
        if instruction_fp is not None:
            env, *self._next_tasks = _instruction_tasks(instruction_fp, make_kwargs)
        else:
            self._next_tasks = []
        self._make_kwargs = make_kwargs
        self._instruction_given = False
        self._open(env)

    # ------------------------------------------------------------------ the episode's verdict
    @property
    def env(self) -> gym.Env:
        """The env being played, inside the adapter's trace recorder: read it (``unwrapped``,
        ``render``), step it only through the adapter."""
        return self._recorder

    @property
    def task(self) -> SimTask:
        return self._recorder.unwrapped.task

    @property
    def info(self) -> dict[str, Any]:
        """The env's ``info`` after the last post (or the reset): ``success``,
        ``progress``, ``matched``, ``oracle_success``, ``activity``, ``steps``,
        ``terminated_by`` (``"step_limit"`` when the limit ended it)."""
        return dict(self._info)

    @property
    def success(self) -> bool:
        """The matcher's verdict so far: every essential state of the task reached."""
        return bool(self._info["success"])

    @property
    def progress(self) -> float:
        return float(self._info["progress"])

    @property
    def terminated_by(self) -> str | None:
        """How the episode ended: ``success``, ``complete``, ``impossible``,
        ``step_limit``; None while it runs."""
        return self._ended

    @property
    def steps(self) -> int:
        """Actions posted in this episode."""
        return self._steps

    @property
    def trace(self) -> Trace:
        """The episode so far: each screen at the device's resolution, its dump, activity
        and the action posted from it."""
        return self._recorder.trace

    @property
    def saved_trace(self) -> Path | None:
        """The episode folder this episode's trace was written to under
        ``local_output_path``, once it was."""
        return self._saved

    def save_trace(self, folder: str | Path) -> Path:
        """Write the episode so far as an AgentEnv trace, ``<folder>/captured_data/…``,
        and return ``folder``. A folder that already holds a trace is a `FormatError`;
        a failed write a `StorageError`."""
        try:
            return write_trace(folder, self.trace)
        except OSError as exc:
            raise StorageError(f"cannot write the trace {folder}: {exc.strerror or exc}") from exc

    # ------------------------------------------------------------------ paper API (Table 11)
    def get_task_instruction(self) -> str:
        return self.task.instruction

    def get_screenshot(self) -> str:
        """The screen as AgentEnv gives it: a PNG at the device's resolution (not the env's
        smaller observation), base64-encoded."""
        pixels = np.asarray(_rgb(self._device.observe(screenshot=True).image))
        return base64.b64encode(encode_png(pixels, SCREENSHOT_COMPRESS_LEVEL)).decode("ascii")

    def get_view_hierarchy(self) -> str:
        """The uiautomator XML dump of the screen: the one the matcher judged and the
        trace keeps."""
        return self._obs["view_hierarchy"]

    def post_click(self, x: float, y: float) -> None:
        self._post("post_click", lambda: Action.click(_coordinate("x", x), _coordinate("y", y)))

    def post_swipe(self, touch_x: float, touch_y: float, lift_x: float, lift_y: float,
                   duration: float = DEFAULT_SWIPE_DURATION) -> None:
        """A drag from the touch point to the lift point. ``duration`` (seconds, as
        uiautomator2 takes it) is checked but not simulated, and AgentEnv's own swipe
        drops it too. A drag shorter than AITW's tap distance is a tap, as in AgentEnv."""
        def build() -> Action:
            _duration(duration)
            return _gesture(_coordinate("touch_x", touch_x), _coordinate("touch_y", touch_y),
                            _coordinate("lift_x", lift_x), _coordinate("lift_y", lift_y))

        self._post("post_swipe", build)

    def post_type(self, text: str) -> None:
        self._post("post_type", lambda: _type(text))

    def post_press_back(self) -> None:
        self._post("post_press_back", Action.back)

    def post_press_home(self) -> None:
        self._post("post_press_home", Action.home)

    def post_press_enter(self) -> None:
        """Not in the paper's table, but AgentEnv's PRESS_ENTER."""
        self._post("post_press_enter", Action.enter)

    def post_task_complete(self) -> None:
        self._post("post_task_complete", Action.complete)

    def post_task_impossible(self) -> None:
        self._post("post_task_impossible", Action.impossible)

    # ------------------------------------------------------------------ AgentEnv's code API
    def set_up(self) -> None:
        """Nothing to boot: the env was made and reset with the adapter."""

    def tear_down(self) -> None:
        """End of use: an unsaved episode is saved (with ``local_output_path``) and an env
        the adapter made is closed; an env passed in stays yours to close."""
        self._close()

    close = tear_down

    def __enter__(self) -> AgentEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.tear_down()

    def get_instruction(self) -> str | None:
        """The instruction of the task to play: on the first call the one being played,
        on each later call the next task's (whose env it makes and resets, the
        current one's trace saved and its env closed), None once every task was given.
        Made with an env, that env's task is the list's only one."""
        if self._instruction_given:
            if not self._next_tasks:
                return None
            self._close()
            self._open(self._next_tasks.pop(0))
        self._instruction_given = True
        return self.task.instruction

    def setup_task(self, instruction: str) -> None:
        """The env's reset already set the task up; an instruction of another task is a
        `ConfigError` (the driver would be acting on a task that is not judged)."""
        if instruction != self.task.instruction:
            raise ConfigError(f"setup_task({_shown(instruction)}): this AgentEnv plays {self.task.id!r}, "
                              f"whose instruction is {self.task.instruction!r}")

    def episode_done(self) -> bool:
        return self._ended is not None

    def get_device_size(self) -> tuple[int, int]:
        """(width, height) of the screen in pixels, as the dump's bounds count them."""
        width, height = self._device.screen_size
        return int(width), int(height)

    def get_state(self) -> dict[str, Any]:
        """The screen as AgentEnv's ``get_state`` gives it: ``screenshot`` (a PIL image
        at the device's resolution), ``view_hierarchy`` (the XML), ``view_hierarchy_json``
        (droidbot's list of views, as ``vh/i.vh`` holds it); the ``*_path`` keys are None,
        since files are written with the trace, not per call. Kept in the history."""
        state = {
            "screenshot": _rgb(self._device.observe(screenshot=True).image),
            "screenshot_path": None,
            "view_hierarchy": self._obs["view_hierarchy"],
            "view_hierarchy_path": None,
            "view_hierarchy_json": droidbot_views(self._recorder.unwrapped.hierarchy),
            "view_hierarchy_json_path": None,
        }
        self._history.append(state)
        return state

    def get_state_history(self) -> list[dict[str, Any]]:
        """The states `get_state` returned in this episode, oldest first."""
        return self._history

    def post_action(self, action: str) -> None:
        """An AgentEnv action string (`action_from_aitw_string`), posted."""
        self._post("post_action", lambda: action_from_aitw_string(action))

    def reset_env(self, seed: int | None = None) -> None:
        """Start a new episode of the task (an unsaved one is saved first, with
        ``local_output_path``); ``seed=None`` draws the next from the env's generator.
        The instruction `get_instruction` gave is not given again."""
        seed = _seed(seed)
        self._save_unsaved()
        self._start(seed)

    # ------------------------------------------------------------------ helpers
    @property
    def _device(self) -> Any:
        return self._recorder.unwrapped.device

    def _open(self, env: str | gym.Env) -> None:
        """Play ``env`` (made here from an id), reset with the adapter's seed."""
        self._owns_env = isinstance(env, str)
        if isinstance(env, str):
            kwargs = {"terminate_on_success": False, **self._make_kwargs}
            if self.max_steps is not None:
                kwargs.setdefault("max_episode_steps", self.max_steps)
            try:
                env = gym.make(env, **kwargs)
            except gym.error.Error as exc:  # an unknown or malformed id: Gymnasium's own errors
                raise ConfigError(f"env {env!r} cannot be made: {exc}") from exc
        elif not isinstance(env, gym.Env):
            raise ConfigError(f"env must be an env id or a made gymnasium env; got {_shown(env)}")
        elif self._make_kwargs:
            raise ConfigError(f"{', '.join(self._make_kwargs)}: make arguments go with an env id, not a made env")
        try:
            _check_env(env)
            self._recorder = RecordTrace(env)
            self._start(self._seed)
        except BaseException:
            if self._owns_env:
                env.close()
            raise

    def _close(self) -> None:
        self._save_unsaved()
        if self._owns_env:
            self._recorder.close()

    def _start(self, seed: int | None) -> None:
        obs, info = self._recorder.reset(seed=seed)
        self._obs, self._info = obs, dict(info)
        self._steps = 0
        self._ended: str | None = None
        self._saved: Path | None = None
        self._unsaved = False  # an episode with posts whose trace is still to be written
        self._history: list[dict[str, Any]] = []

    def _post(self, name: str, build: Callable[[], Action]) -> None:
        """Check, then step: nothing runs unless the episode goes on and the action is
        well formed (and, with ``local_output_path``, its trace can be written)."""
        if self._ended is not None:
            raise ResetNeededError(f"the episode ended ({self._ended}): call reset_env() before posting again")
        try:
            action = build()
        except InvalidActionError as exc:
            raise InvalidActionError(f"{name}: {exc}") from exc
        if self.local_output_path is not None and self._steps == 0:
            _check_free(self._episode_folder())
        obs, _, terminated, truncated, info = self._recorder.step(action)
        self._obs, self._info = obs, dict(info)
        self._steps += 1
        self._unsaved = self.local_output_path is not None
        if terminated or truncated or (self.max_steps is not None and self._steps >= self.max_steps):
            self._ended = info["terminated_by"] or "step_limit"
            self._info["terminated_by"] = self._ended
            self._save_unsaved()

    def _episode_folder(self) -> Path:
        assert self.local_output_path is not None
        return episode_folder(self.local_output_path, self.task.episode or self.task.id)

    def _save_unsaved(self) -> None:
        """Write the episode's trace under ``local_output_path`` once (tried once: a
        failure is raised, and the trace stays in `trace` to save elsewhere)."""
        if self._unsaved:
            self._unsaved = False
            self._saved = self.save_trace(self._episode_folder())


# ---------------------------------------------------------------------- action strings
_TYPED_TEXT = re.compile(r"typed_text\s*:", re.IGNORECASE)
_ACTION_TYPE = re.compile(r"action_type\s*:\s*(\w+)", re.IGNORECASE)
_POINTS = {name: re.compile(rf"{name}\s*:\s*\[([^\]]*)\]", re.IGNORECASE) for name in ("touch_point", "lift_point")}
#: Quotes an agent may put around typed text (AutoDroid's '…', AgentEnv's own example's ”…”).
_QUOTES = {("'", "'"), ('"', '"'), ("\u201c", "\u201d"), ("\u201d", "\u201d")}
_KEYS: dict[str, Callable[[], Action]] = {
    "PRESS_BACK": Action.back, "PRESS_HOME": Action.home, "PRESS_ENTER": Action.enter,
    "STATUS_TASK_COMPLETE": Action.complete, "STATUS_TASK_IMPOSSIBLE": Action.impossible,
}


def action_from_aitw_string(text: str) -> Action:
    """An AgentEnv action string as our `Action`:
    ``action_type: <type>, touch_point: [x, y], lift_point: [x, y], typed_text: <text>``.

    As AgentEnv reads it: points are **x before y** (unlike AITW's own records), a
    DUAL_POINT shorter than AITW's tap distance is a tap at the touch point, typed text is
    everything after ``typed_text:`` stripped of surrounding spaces. Unlike AgentEnv's
    parser: the text keeps its case (AgentEnv lowercases the whole string), may hold
    ``", "``, and one pair of quotes around it is removed (AgentEnv would type them).
    Anything malformed is an `InvalidActionError`.

    >>> str(action_from_aitw_string("action_type: dual_point, touch_point: [0.2, 0.5], "
    ...                             "lift_point: [0.2, 0.9], typed_text: ''"))
    'SWIPE(0.200, 0.500 -> 0.200, 0.900)'
    >>> action_from_aitw_string("action_type: TYPE, touch_point: [-1.0, -1.0], "
    ...                         "lift_point: [-1.0, -1.0], typed_text: 'Best rated, cheap'").text
    'Best rated, cheap'
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action string is a str ({AITW_FORMAT}), got {_shown(text)}")
    found = _TYPED_TEXT.search(text)
    head, typed = (text, None) if found is None else (text[:found.start()], text[found.end():])
    kind = _ACTION_TYPE.search(head)
    if kind is None:
        raise InvalidActionError(f"no action_type in {_shown(text)}; expected {AITW_FORMAT}")
    name = kind.group(1).upper()
    if name == "DUAL_POINT":
        (tx, ty), (lx, ly) = (_string_point(head, field) for field in ("touch_point", "lift_point"))
        return _gesture(tx, ty, lx, ly)
    if name == "TYPE":
        if typed is None:
            raise InvalidActionError(f"a TYPE action needs typed_text: {_shown(text)}")
        return _type(_unquote(typed.strip()))
    if name in _KEYS:
        return _KEYS[name]()
    raise InvalidActionError(f"unknown action_type {kind.group(1)!r}; AgentEnv knows {', '.join(AITW_ACTION_TYPES)}")


def _string_point(head: str, field: str) -> tuple[float, float]:
    found = _POINTS[field].search(head)
    parts = [] if found is None else found.group(1).split(",")
    if len(parts) != 2:
        raise InvalidActionError(f"a DUAL_POINT action needs {field}: [x, y]; got {_shown(head)}")
    values = []
    for axis, part in zip("xy", parts):
        try:
            values.append(float(part))
        except ValueError:
            raise InvalidActionError(f"{field} {axis} must be a number in [0, 1], got {part.strip()!r}") from None
    return _coordinate(f"{field} x", values[0]), _coordinate(f"{field} y", values[1])


def _unquote(text: str) -> str:
    if len(text) >= 2 and (text[0], text[-1]) in _QUOTES:
        return text[1:-1]
    return text


# ---------------------------------------------------------------------- task lists
def _instruction_tasks(path: str | Path, make_kwargs: Mapping[str, Any]) -> list[str]:
    """The env ids of the tasks an AgentEnv instruction file lists (by LlamaTouch episode
    id, or by task id for a task of the simulator's own) that the ``backend`` of
    ``make_kwargs`` runs, in file order; the others are logged and skipped."""
    from mobile_gym.tasks.catalogue import env_id, llamatouch_catalogue
    from mobile_gym.tasks.suite import simulator_tasks

    by_episode = {t.episode: t.id for t in llamatouch_catalogue().values()}
    by_episode.update({t.episode or t.id: t.id for t in simulator_tasks().values()})
    backend, dataset = make_kwargs.get("backend", "sim"), make_kwargs.get("dataset")
    runs, skipped = [], []
    for episode, _ in read_instructions(path):
        try:
            name = by_episode.get(episode)
            if name is None:
                raise ConfigError(f"episode {episode} is no task of mobile_gym's")
            runs.append(env_id(resolve_task(name, backend, dataset).id))
        except MobileGymError as exc:
            skipped.append(str(exc))
    if skipped:
        logger.warning("%s: %d of %d listed tasks skipped (backend %s), e.g. %s", path, len(skipped),
                       len(skipped) + len(runs), backend, skipped[0])
    if not runs:
        raise ConfigError(f"{path}: none of its {len(skipped)} tasks runs on backend {backend!r}"
                          + (f" ({skipped[0]})" if skipped else ""))
    return runs


def _phone_kwargs(args: Mapping[str, Any] | None, make_kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """LlamaTouch's ``emulator_controller_args`` as make arguments: on a phone, ``port``
    names the serial ``emulator-<port>`` and ``snapshot`` the snapshot each reset loads
    (unless given themselves); the simulator needs no phone (its ``no-window`` neither)."""
    if args is not None and not isinstance(args, Mapping):
        raise ConfigError(f"emulator_controller_args must be a mapping (port, snapshot, ...); got {_shown(args)}")
    if args is None or make_kwargs.get("backend", "sim") != "device":
        return {}
    out = {}
    if args.get("port") is not None and make_kwargs.get("serial") is None:
        out["serial"] = f"emulator-{whole_number('emulator_controller_args port', _port(args['port']), 1, 65535)}"
    if args.get("snapshot") is not None and make_kwargs.get("snapshot") is None:
        out["snapshot"] = str(args["snapshot"])
    return out


def _port(value: Any) -> Any:
    """A port as LlamaTouch's config spells it: ``"5554"`` or 5554."""
    return int(value) if isinstance(value, str) and value.isdecimal() else value


# ---------------------------------------------------------------------- checks
def _check_env(env: gym.Env) -> None:
    if not isinstance(env.unwrapped, MobileEnv):
        raise ConfigError(f"env must be one of mobile_gym's envs (a MobileEnv, wrapped or not); "
                          f"got {type(env.unwrapped).__name__}")
    if env.action_space != env.unwrapped.action_space:
        raise ConfigError("env takes other actions than the screen's (a policy wrapper changed its action space); "
                          "AgentEnv agents post screen actions: pass the env without that wrapper")
    require_observed(env, ("view_hierarchy",), "AgentEnv serves the screen's dump")


def _seed(seed: Any) -> int | None:
    return None if seed is None else whole_number("seed", seed)


def _coordinate(name: str, value: Any) -> float:
    """A normalised coordinate: a real number (not a bool, not a string) in [0, 1]."""
    number = None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an int beyond any float
            number = math.inf
        except Exception:  # noqa: BLE001 - a user's number whose __float__ may raise anything
            number = None
    if number is None or not (math.isfinite(number) and 0.0 <= number <= 1.0):
        axis = "width" if name.endswith("x") else "height"
        raise InvalidActionError(f"{name} must be a number in [0, 1] (a fraction of the screen's {axis}), "
                                 f"got {_shown(value)}")
    return number


def _duration(value: Any) -> float:
    seconds = None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            seconds = float(value)
        except Exception:  # noqa: BLE001 - overflow, or a user's number whose __float__ raises
            seconds = None
    if seconds is None or not (math.isfinite(seconds) and seconds >= 0.0):
        raise InvalidActionError(f"duration must be a finite, non-negative number of seconds, got {_shown(value)}")
    return seconds


def _gesture(tx: float, ty: float, lx: float, ly: float) -> Action:
    """AgentEnv's DUAL_POINT rule: a tap when the points are within AITW's tap distance."""
    if math.dist((tx, ty), (lx, ly)) <= TAP_DISTANCE:
        return Action.click(tx, ty)
    return Action.swipe(tx, ty, lx, ly)


def _type(text: Any) -> Action:
    if not isinstance(text, str):
        raise InvalidActionError(f"text must be a str, got {_shown(text)}")
    if "\n" in text or "\r" in text:
        raise InvalidActionError("text with a line break does not fit AgentEnv's one-line action file; "
                                 "type the lines apart with post_press_enter() between them")
    return Action.type_text(text)


def _check_free(folder: Path) -> None:
    """Refuse, before the first action, an episode whose trace would land on another's."""
    captured = folder / CAPTURED_DATA
    if captured.is_dir() and any(captured.iterdir()):
        raise FormatError(captured, "already holds a trace; give this AgentEnv another local_output_path")


def _rgb(image: Image.Image) -> Image.Image:
    return image if image.mode == "RGB" else image.convert("RGB")


__all__ = ["AITW_ACTION_TYPES", "DEFAULT_SWIPE_DURATION", "AgentEnv", "action_from_aitw_string"]
