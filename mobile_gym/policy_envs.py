"""Envs ready for stable-baselines3 in one call: a preset of policy wrappers over one task
or many, one device profile and dynamics or several drawn per episode.

Presets (the wrappers, innermost first, then `TrimInfo`):

- ``"elements"``: `DiscreteElementActions` + `ElementFeatures` — a masked ``Discrete``
  action space and a ``Dict`` of ``Box`` features; SB3 ``"MultiInputPolicy"``, or
  sb3-contrib's ``MaskablePPO`` with the masks. They read the screen's elements and the
  instruction only, so the env observes ``observation="xml"``: no screenshot is drawn.
- ``"pixels"``: `ScreenPixels` + `GridTaps` — an 84×84 screenshot and taps on a grid;
  SB3 ``"CnnPolicy"``. The env draws at a whole multiple of 84×84 (`_pixels_drawing`).

Several tasks, profiles or dynamics make a `TaskSampler` that draws a variant per
episode; with the elements preset the instruction is in the observation, so one
policy can learn them all.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Mapping, Sequence

import gymnasium as gym

from mobile_gym.errors import ConfigError, whole_number
from mobile_gym.multitask import TaskSampler
from mobile_gym.tasks.suite import select_simulator_tasks
from mobile_gym.training import N_ENVS

PRESETS = ("elements", "pixels")
VECTORIZATION = ("subproc", "dummy")


def preset_wrappers(preset: str) -> list[Callable[..., gym.Env]]:
    """The wrapper classes of a preset, innermost first (`TrimInfo` not included)."""
    if preset == "elements":
        from mobile_gym.wrappers import DiscreteElementActions, ElementFeatures

        return [DiscreteElementActions, ElementFeatures]
    if preset == "pixels":
        from mobile_gym.wrappers import GridTaps, ScreenPixels

        return [ScreenPixels, GridTaps]
    raise ConfigError(f"preset must be one of {', '.join(PRESETS)}; got {preset!r}")


def policy_env(
    tasks: str | Sequence[str],
    preset: str = "elements",
    *,
    profiles: str | Sequence[str] | None = None,
    dynamics: str | Sequence[str] | None = None,
    wrapper_kwargs: Mapping[str, Mapping[str, Any]] | None = None,
    trim_info: bool = True,
    under: Sequence[Callable[[gym.Env], gym.Env]] = (),
    **make_kwargs: Any,
) -> gym.Env:
    """One env of ``preset`` over the tasks ``tasks`` names (task ids, env ids or fnmatch
    patterns, as ``mobile-gym run --tasks``), each episode a task × profile × dynamics
    drawn at random when there are several. ``wrapper_kwargs`` maps a wrapper's class
    name to its arguments (e.g. ``{"DiscreteElementActions": {"max_elements": 16}}``);
    ``under`` wraps each made env before the preset does (e.g. to keep the raw
    observation for an agent that reads it); the rest goes to ``gym.make`` (the elements
    preset's env observes ``observation="xml"`` unless told otherwise).

    >>> import mobile_gym
    >>> env = mobile_gym.policy_env("settings-*", profiles=["pixel-6", "pixel-3"])
    >>> env.action_space, env.observation_space["elements"].shape
    (Discrete(70), (5232,))
    >>> obs, info = env.reset(seed=1); info["task"]
    'settings-check-android-version@pixel-6'
    """
    wrappers = preset_wrappers(preset)
    kwargs = dict(wrapper_kwargs or {})
    unknown = set(kwargs) - {w.__name__ for w in wrappers}
    if unknown:
        raise ConfigError(f"wrapper_kwargs names wrappers the {preset!r} preset does not have: "
                          f"{', '.join(sorted(unknown))} (it has {', '.join(w.__name__ for w in wrappers)})")
    chosen = select_simulator_tasks(tasks)
    profile_list, dynamics_list = _choices(profiles, "profiles"), _choices(dynamics, "dynamics")
    envs, names = [], []
    for task in chosen:
        for profile in profile_list:
            for dyn in dynamics_list:
                settings = {k: v for k, v in (("profile", profile), ("dynamics", dyn)) if v is not None}
                if preset == "pixels" and "observation_size" not in make_kwargs:
                    settings.update(_pixels_drawing(profile, kwargs.get("ScreenPixels", {})))
                if preset == "elements" and "observation" not in make_kwargs:
                    settings["observation"] = "xml"  # the wrappers read elements and instruction: nothing drawn
                env = gym.make(task.env_id, **settings, **make_kwargs)
                for wrapper in under:
                    env = wrapper(env)
                for wrapper in wrappers:
                    env = wrapper(env, **kwargs.get(wrapper.__name__, {}))
                envs.append(env)
                varied = [v for v, options in ((profile, profile_list), (dyn, dynamics_list)) if len(options) > 1]
                names.append("@".join([task.id, *varied]))
    env = envs[0] if len(envs) == 1 else TaskSampler(envs, names)
    if trim_info:
        from mobile_gym.wrappers import TrimInfo

        env = TrimInfo(env)
    return env


def make_vec_env(
    tasks: str | Sequence[str],
    n_envs: int = N_ENVS,
    preset: str = "elements",
    *,
    vec: str = "subproc",
    seed: int | None = 0,
    monitor_dir: str | None = None,
    start_method: str | None = None,
    **policy_env_kwargs: Any,
):
    """An SB3 ``VecEnv`` of ``n_envs`` `policy_env` copies, each in a ``Monitor`` (episode
    reward, length and ``is_success`` reach SB3's logger as ``rollout/success_rate``),
    seeded ``seed``, ``seed + 1``, ...; ``vec="subproc"`` runs each in its own process.

    >>> import mobile_gym
    >>> venv = mobile_gym.make_vec_env("settings-open", n_envs=2, vec="dummy")
    >>> venv.reset().keys(), venv.num_envs
    (odict_keys(['elements', 'instruction']), 2)
    >>> venv.env_method("action_masks")[0].sum()   # the launcher's 11 icons and 6 extras
    np.int64(17)
    >>> venv.close()
    """
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    if vec not in VECTORIZATION:
        raise ConfigError(f"vec must be one of {', '.join(VECTORIZATION)}; got {vec!r}")
    whole_number("n_envs", n_envs, 1)
    policy_env(tasks, preset, **policy_env_kwargs).close()  # bad arguments fail here, not in a worker

    def make(rank: int) -> Callable[[], gym.Env]:
        def thunk() -> gym.Env:
            if vec == "subproc":
                _one_torch_thread()
            env = policy_env(tasks, preset, **policy_env_kwargs)
            path = None if monitor_dir is None else f"{monitor_dir}/{rank}"
            return Monitor(env, path, info_keywords=("is_success",) if path else ())
        return thunk

    fns = [make(i) for i in range(n_envs)]
    venv = SubprocVecEnv(fns, start_method=start_method) if vec == "subproc" else DummyVecEnv(fns)
    if seed is not None:
        venv.seed(seed)
    return venv


def _one_torch_thread() -> None:
    """In a worker: torch (loaded for fuzzy checks) on one thread. A worker shares the
    cores with the learner and the other workers; with more threads, OpenMP's idle ones
    spin between the worker's small encodes and training slowed ~10× on 2 cores."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # read when torch loads, if it has not yet
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _pixels_drawing(profile: str | None, screen_pixels: Mapping[str, Any]) -> dict[str, Any]:
    """``observation_size`` for the pixel preset: a whole multiple of the pixels' size,
    so that `ScreenPixels` averages blocks rather than resamples (see its docs)."""
    from mobile_gym.simulator.profiles import DEFAULT_PROFILE, PROFILES
    from mobile_gym.wrappers.screen_pixels import DEFAULT_SIZE, drawing_size

    known = PROFILES.get(profile or DEFAULT_PROFILE)
    size = drawing_size(screen_pixels.get("size", DEFAULT_SIZE), known.size) if known else None
    return {} if size is None else {"observation_size": size}  # an unknown profile: gym.make says so


def _choices(value: str | Sequence[str] | None, name: str) -> list[str | None]:
    if value is None or isinstance(value, str):
        return [value]
    values = list(value)
    if not values or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{name} must be a name or a non-empty list of names; got {value!r}")
    return values
