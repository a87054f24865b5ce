"""`AndroidWorldEnv`: AndroidWorld's environment interface (``AsyncEnv``) over our envs.

AndroidWorld's agents (T3A, M3A, SeeAct, random, and the many built on them) talk to an
``AsyncEnv``: ``get_state`` for the screen (pixels and UI elements), ``execute_action``
for a `JSONAction`, ``controller.execute_adb_call`` for everything else. Here those
calls drive one of our envs (`.gym_env`, a `MobileEnv`, made for each task a `TaskEval`
starts), so every action is an env step judged by LlamaTouch's essential-state matcher,
at simulator speed (about a millisecond a step where an emulator takes a second).

What differs from an emulator, on purpose:

- the screen changes only when something is done to it, so ``get_state`` never waits,
  whatever ``wait_to_stabilize`` says (a loading screen stays until a ``wait``);
- ``forest`` is None: the UI elements are read from the uiautomator dump, as
  AndroidWorld's ``A11yMethod.UIAUTOMATOR`` reads them (no accessibility forwarder app);
- the screen is portrait at the profile's resolution (1080x2400 for the default Pixel 6):
  the logical and physical frames are the whole screen;
- ``ask_question`` asks ``questions`` if given one (a callable: question -> answer),
  else nobody answers (None), as when the user does not reply in time.
"""

from __future__ import annotations

import random
import shlex
from typing import Any, Callable

from mobile_gym.actions import Action
from mobile_gym.compat.adb import AdbCalls
from mobile_gym.compat.androidworld.actuation import ON_ELEMENTS, Actuator
from mobile_gym.compat.androidworld.interface import AsyncEnv, BoundingBox, State, UIElement
from mobile_gym.env import MobileEnv, make_env
from mobile_gym.errors import ConfigError
from mobile_gym.simulator.render import check_screenshot_size
from mobile_gym.trace import normalize_activity
from mobile_gym.simulator.runtime import LAUNCHER_PACKAGE
from mobile_gym.ui.hierarchy import Bounds, ViewHierarchy

#: What the adapter sets on the envs it makes, and why: it draws full-size pixels itself,
#: and AndroidWorld's harness, not the env, ends an episode (the matcher's verdict stays).
ADAPTER_KWARGS = {"observation": "xml", "terminate_on_success": False}


def ui_elements(hierarchy: ViewHierarchy) -> list[UIElement]:
    """The UI elements of a dump as AndroidWorld's uiautomator mode reads them
    (``representation_utils.xml_dump_to_ui_elements``): every node but the root, in
    document order, attributes as the dump writes them, bounds in pixels."""
    elements = []
    for node in hierarchy.nodes:
        get = node.attributes().get
        bounds = get("bounds")
        box = None
        if bounds:
            try:
                b = Bounds.parse(bounds)
                box = BoundingBox(b.left, b.right, b.top, b.bottom)
            except ValueError:
                pass
        elements.append(UIElement(
            text=get("text"), content_description=get("content-desc"), class_name=get("class"), bbox=box,
            bbox_pixels=box, is_checked=get("checked") == "true", is_checkable=get("checkable") == "true",
            is_clickable=get("clickable") == "true", is_enabled=get("enabled") == "true",
            is_focused=get("focused") == "true", is_focusable=get("focusable") == "true",
            is_long_clickable=get("long-clickable") == "true", is_scrollable=get("scrollable") == "true",
            is_selected=get("selected") == "true", package_name=get("package"), resource_id=get("resource-id"),
            is_visible=True))
    return elements


class AndroidWorldController:
    """What AndroidWorld's utilities take as ``env`` (``adb_utils.*(..., env.controller)``):
    ``execute_adb_call`` answered on the env's current phone (`mobile_gym.compat.adb`),
    and the few properties its controller has."""

    def __init__(self, env: AndroidWorldEnv) -> None:
        self._env = env

    def execute_adb_call(self, call: Any) -> Any:
        return self._env._calls.execute(call)

    @property
    def env(self) -> AndroidWorldEnv:
        return self._env

    @property
    def device_screen_size(self) -> tuple[int, int]:
        return self._env.device_screen_size

    @property
    def logical_screen_size(self) -> tuple[int, int]:
        return self._env.logical_screen_size

    def get_ui_elements(self) -> list[UIElement]:
        return self._env.get_state().ui_elements

    def close(self) -> None:
        self._env.close()


class AndroidWorldEnv(AsyncEnv):
    """AndroidWorld's ``AsyncEnv`` over our envs (see the module's docstring).

    ``make_kwargs`` are `gym.make`'s for every task's env (``dynamics``, ``profile``,
    ``backend`` and the phone's address, ``reward_mode`` ...); ``actions`` defaults to
    ``"all"`` (AndroidWorld's verbs, and the loading screens and long-press menus they
    are for). ``task`` is the task the phone starts on before any `TaskEval` starts one
    (default: the first simulator task, at its home screen); ``seed`` seeds the episodes
    `start_task` starts without a seed. ``pixels_size`` (width, height) draws the
    screenshots smaller, for agents that do not look at them or scale them down anyway
    (drawing the full screen is most of a step's cost); the UI elements stay in the
    screen's pixels, as agents point in them.

    >>> from mobile_gym.compat.androidworld import AndroidWorldEnv, JSONAction, task_registry
    >>> env = AndroidWorldEnv()
    >>> task = task_registry("settings-open")["SettingsOpen"]({"seed": 0})
    >>> task.initialize_task(env)
    >>> env.execute_action(JSONAction(action_type="open_app", app_name="Settings"))
    >>> env.foreground_activity_name, task.is_successful(env)
    ('com.android.settings/com.android.settings.Settings', 1.0)
    """

    interaction_cache = ""  # the agent's last answer (AndroidWorld's AsyncEnv declares it)

    def __init__(self, task: str | None = None, *, seed: int | None = None,
                 questions: Callable[[str], str | None] | None = None,
                 pixels_size: tuple[int, int] | None = None, **make_kwargs: Any) -> None:
        fixed = sorted(set(make_kwargs) & set(ADAPTER_KWARGS))
        if fixed:
            raise ConfigError(f"{', '.join(fixed)}: set by the AndroidWorld adapter (it draws full-size pixels and "
                              "lets AndroidWorld's harness end episodes)")
        make_kwargs.setdefault("actions", "all")
        self._make_kwargs = {**make_kwargs, **ADAPTER_KWARGS}
        self._seeds = random.Random(seed)
        self._questions = questions
        self._pixels_size = pixels_size
        self.interaction_cache = ""
        self.gym_env: MobileEnv | None = None
        self.task_id: str | None = None  # the task being judged: None until a TaskEval starts one
        self.info: dict[str, Any] = {}  # the env's info after its last step
        self.episode = 0  # episodes started (an agent's per-episode memory keys on it)
        self._controller = AndroidWorldController(self)
        self._elements: tuple[ViewHierarchy, list[UIElement]] | None = None
        if task is None:
            from mobile_gym.tasks.suite import simulator_tasks

            task = min(simulator_tasks())
        self._start(task, seed)
        if pixels_size is not None:
            try:
                self._pixels_size = check_screenshot_size(pixels_size, self.device_screen_size, "pixels_size")
            except ConfigError:
                self.close()
                raise
        self.task_id = None
        if self._foreground_package() != LAUNCHER_PACKAGE:
            self.gym_env.device.perform(Action.home())  # no task yet: nothing to judge

    # ------------------------------------------------------------------ tasks
    def start_task(self, task: str, seed: int | None = None) -> State:
        """Start an episode of ``task`` (an id or ``gym.make`` name): its env made (kept
        while the task stays the same), reset with ``seed``, the phone's adb state (its
        settings, files) fresh. What a `TaskEval`'s ``initialize_task`` calls."""
        self._start(task, self._seeds.randrange(2**31) if seed is None else seed)
        self.interaction_cache = ""
        return self.get_state()

    def _start(self, task: str, seed: int | None) -> None:
        from mobile_gym.env import resolve_task

        resolved = resolve_task(task, self._make_kwargs.get("backend", "sim"), self._make_kwargs.get("dataset"))
        if self.gym_env is None or self.gym_env.task.id != resolved.id:
            made = make_env(resolved, **self._make_kwargs)  # first: a failure leaves the old env running
            if self.gym_env is not None:
                self.gym_env.close()
            self.gym_env = made
        _, self.info = self.gym_env.reset(seed=seed)
        self.task_id = resolved.id
        self.episode += 1
        self._calls = AdbCalls(self.gym_env, self._step)
        self._actuator = Actuator(self._calls.execute, self._step)
        self._elements = None

    def task_success(self, task: str) -> bool:
        """Whether the matcher judges ``task``'s episode (the one running) a success."""
        if task != self.task_id:
            raise ConfigError(f"the env runs {self.task_id!r}, not {task!r}: a task is judged on the env it started on")
        return bool(self.info.get("success"))

    def _step(self, action: Action) -> None:
        """An env step: how every input reaches the phone."""
        _, _, _, _, self.info = self.gym_env.step(action)

    # ------------------------------------------------------------------ AsyncEnv
    @property
    def controller(self) -> AndroidWorldController:
        return self._controller

    def reset(self, go_home: bool = False) -> State:
        """The screen as it is, after pressing Home if ``go_home`` (unless already home).
        The task's episode goes on: a `TaskEval` started it."""
        if go_home and self._foreground_package() != LAUNCHER_PACKAGE:
            self._step(Action.home())
        self.interaction_cache = ""
        return self.get_state()

    def get_state(self, wait_to_stabilize: bool = False) -> State:
        """The screen now: its pixels at the device's resolution or ``pixels_size``
        (read-only, shared with the simulator's drawing: copy to draw on them) and its UI
        elements."""
        del wait_to_stabilize  # the simulated screen is always stable (see the module's docstring)
        device = self.gym_env.device
        screen = device.observe(screenshot=True, screenshot_size=self._pixels_size or device.screen_size)
        return State(pixels=screen.screenshot, forest=None, ui_elements=self._screen_elements(screen.hierarchy),
                     auxiliaries={})

    def _screen_elements(self, hierarchy: ViewHierarchy | None = None) -> list[UIElement]:
        """The UI elements of the screen now (of ``hierarchy`` if given), made once per screen."""
        if hierarchy is None:
            hierarchy = self.gym_env.device.observe(screenshot=False).hierarchy
        if self._elements is None or self._elements[0] is not hierarchy:
            self._elements = (hierarchy, ui_elements(hierarchy))
        return list(self._elements[1])

    def execute_action(self, action: Any) -> None:
        """Carry out an AndroidWorld `JSONAction` (or its dict) as AndroidWorld does on a
        phone (`mobile_gym.compat.androidworld.actuation`); an ``answer`` is kept in
        `interaction_cache`."""
        kind = action.get("action_type") if isinstance(action, dict) else getattr(action, "action_type", None)
        if kind == "answer":
            text = action.get("text") if isinstance(action, dict) else action.text
            self.interaction_cache = "" if text is None else str(text)
            if self.interaction_cache:
                self.display_message(self.interaction_cache, header="Agent answered:")
            return
        if kind == "status":
            return
        elements = self._screen_elements() if kind in ON_ELEMENTS else []
        self._actuator.execute(action, elements, self.logical_screen_size)

    def display_message(self, message: str, header: str = "") -> None:
        """AndroidWorld's overlay broadcast (the simulated phone has no overlay app: it is received, nothing shows)."""
        self._calls.shell(f"am broadcast -a com.example.ACTION_UPDATE_OVERLAY --es task_type_string "
                          f"{shlex.quote(header)} --es goal_string {shlex.quote(message)}")

    def ask_question(self, question: str, timeout_seconds: float = -1.0) -> str | None:
        del timeout_seconds
        return None if self._questions is None else self._questions(question)

    def hide_automation_ui(self) -> None:
        self._calls.shell("settings put system pointer_location 0")

    @property
    def foreground_activity_name(self) -> str:
        return normalize_activity(self.gym_env.device.foreground_activity())

    @property
    def device_screen_size(self) -> tuple[int, int]:
        return tuple(self.gym_env.device.screen_size)  # type: ignore[return-value]

    @property
    def logical_screen_size(self) -> tuple[int, int]:
        return self.device_screen_size

    @property
    def orientation(self) -> int:
        return 0

    @property
    def physical_frame_boundary(self) -> tuple[int, int, int, int]:
        width, height = self.device_screen_size
        return 0, 0, width, height

    def close(self) -> None:
        if self.gym_env is not None:
            self.gym_env.close()

    def _foreground_package(self) -> str:
        return self.gym_env.device.foreground_activity().partition("/")[0]

