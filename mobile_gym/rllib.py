"""Training with RLlib: the policy presets as RLlib envs under our env ids, and a PPO config
that runs them on RLlib's (new API stack) env runners.

RLlib's env runners make envs through Ray Tune's registry, not Gymnasium's: `register_rllib_envs`
puts each simulator task there under its Gymnasium id (``LlamaTouch/<id>-v0``), and one name,
`MULTITASK_ENV`, for `policy_env` over any tasks; each env is `policy_env` of the algorithm's
``env_config``. RLlib's default PPO model reads a 1-D or an image ``Box`` of floats: the pixels
preset's bytes become floats; the elements preset's ``Dict`` is flattened by RLlib's
``FlattenObservations`` connector or, with ``action_mask=True`` (its default in `ppo_config`),
by `MaskInObservation`, which puts the slot mask beside the features for
`MaskedPPOTorchRLModule` to apply (RLlib has no built-in action masking, and a connector that
flattens cannot keep the mask apart). Ray is imported only by what needs it.
"""

from __future__ import annotations

import functools
from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np

from mobile_gym.errors import ConfigError, MissingExtraError, whole_number
from mobile_gym.policy_envs import PRESETS, policy_env
from mobile_gym.training import N_ENVS, ppo_kwargs

#: The name under which `policy_env` over any tasks (``env_config["tasks"]``) is registered.
MULTITASK_ENV = "mobile_gym/policy_env"
#: ``env_config`` keys RLlib adds itself (``num_envs`` for vector entry points).
RLLIB_KEYS = ("num_envs",)
#: RLlib's name for each of `ppo_kwargs`' SB3 settings (RLlib's batch, SB3's rollout, and the
#: network are worked out in `rllib_ppo_settings`).
RLLIB_NAMES = {"batch_size": "minibatch_size", "n_epochs": "num_epochs", "gamma": "gamma", "gae_lambda": "lambda_",
               "ent_coef": "entropy_coeff", "learning_rate": "lr", "clip_range": "clip_param"}
#: RLlib's default model per preset, shaped as SB3's policies: for elements (~5,300 features)
#: separate policy and value MLPs of ``net_arch``; for pixels RLlib's 84×84 CNN, shared, then a
#: ``net_arch`` head each (the key the sizes go to, and the rest of the model config).
MODEL_LAYOUT: dict[str, tuple[str, dict[str, Any]]] = {
    "elements": ("fcnet_hiddens", {"vf_share_layers": False}),
    "pixels": ("head_fcnet_hiddens", {"vf_share_layers": True}),
}


def rllib_ppo_settings(preset: str = "elements") -> tuple[dict[str, Any], dict[str, Any]]:
    """`ppo_kwargs` of ``preset`` in RLlib's terms: the arguments of ``PPOConfig.training`` and
    of ``DefaultModelConfig``. RLlib's batch holds what one SB3 rollout does, ``n_steps`` from
    each of the `N_ENVS` envs, so an update sees as many episodes as SB3's."""
    sb3 = ppo_kwargs(preset)
    training = {"train_batch_size_per_learner": sb3.pop("n_steps") * N_ENVS}
    hidden = sb3.pop("policy_kwargs")["net_arch"]
    training.update((RLLIB_NAMES[name], value) for name, value in sb3.items())
    key, model = MODEL_LAYOUT[preset]
    return training, {key: hidden, **model}


def _require_rllib() -> None:
    try:
        import ray.rllib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as e:
        raise MissingExtraError(
            f"training with RLlib needs ray[rllib] and torch ({e}); install them with "
            "pip install 'mobile-gym[rllib]'") from e


# ---------------------------------------------------------------------------- envs
class MaskInObservation(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """The observation as ``{"action_mask": Box(0, 1, (n,)), "observations": ...}``: the env's
    `action_masks()` as 0/1 floats beside its observation, flattened to one vector when it is a
    ``Dict`` (RLlib's default model reads one ``Box``). The mask must be in the observation, as
    RLlib hands only observations to the model, when acting and again when learning.

    >>> import mobile_gym
    >>> from mobile_gym.rllib import MaskInObservation
    >>> env = MaskInObservation(mobile_gym.policy_env("settings-open"))
    >>> obs, info = env.reset(seed=0)
    >>> obs["observations"].shape, int(obs["action_mask"].sum())   # 48 slots × 109 + 64; 11 icons, 6 extras
    ((5296,), 17)
    """

    def __init__(self, env: gym.Env):
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.ObservationWrapper.__init__(self, env)
        if not isinstance(env.action_space, gym.spaces.Discrete):
            raise ConfigError(f"MaskInObservation needs a Discrete action space; got {env.action_space}")
        try:
            env.get_wrapper_attr("action_masks")
        except AttributeError:
            raise ConfigError("MaskInObservation needs an env with action_masks() (the policy presets have it)") from None
        inner = env.observation_space
        self._flatten = isinstance(inner, gym.spaces.Dict)
        self.observation_space = gym.spaces.Dict({
            "action_mask": gym.spaces.Box(0.0, 1.0, (int(env.action_space.n),), np.float32),
            "observations": gym.spaces.flatten_space(inner) if self._flatten else inner,
        })

    def observation(self, observation: Any) -> dict[str, np.ndarray]:
        mask = np.asarray(self.env.get_wrapper_attr("action_masks")(), dtype=np.float32)
        inner = gym.spaces.flatten(self.env.observation_space, observation) if self._flatten else observation
        return {"action_mask": mask, "observations": inner}


def make_rllib_env(env_config: Mapping[str, Any] | None = None, *, tasks: str | Sequence[str] | None = None,
                   preset: str = "elements") -> gym.Env:
    """The env an RLlib env runner makes: `policy_env` of ``env_config`` (``tasks``,
    ``preset``, ``profiles``, ``dynamics``, ``wrapper_kwargs``, gym.make kwargs), in
    `MaskInObservation` when ``env_config["action_mask"]``; images as floats in [0, 1] (RLlib's
    CNN takes nothing else). ``tasks`` and ``preset`` are the
    registered name's; ``env_config`` may name the preset, and the tasks when the name has none."""
    config = {k: v for k, v in dict(env_config or {}).items() if k not in RLLIB_KEYS}
    if "tasks" in config:
        if tasks is not None:
            raise ConfigError(f"env_config names tasks {config['tasks']!r} but the env is the one of {tasks!r}; "
                              f"use {MULTITASK_ENV!r} to choose tasks in env_config")
        tasks = config.pop("tasks")
    if tasks is None:
        raise ConfigError(f"{MULTITASK_ENV!r} needs env_config['tasks']: task ids, env ids or patterns")
    preset = config.pop("preset", preset)
    mask = config.pop("action_mask", False)
    if not isinstance(mask, bool):
        raise ConfigError(f"env_config['action_mask'] must be True or False; got {mask!r}")
    env = _float_images(policy_env(tasks, preset, **config))
    return MaskInObservation(env) if mask else env


def _float_images(env: gym.Env) -> gym.Env:
    """An image of bytes (the pixels preset) as floats in [0, 1]: RLlib's CNN encoder hands
    observations to torch's convolutions as they come, and those take floats only."""
    space = env.observation_space
    if isinstance(space, gym.spaces.Box) and space.dtype == np.uint8 and len(space.shape) == 3:
        env = gym.wrappers.RescaleObservation(gym.wrappers.DtypeObservation(env, np.float32),
                                              np.float32(0.0), np.float32(1.0))
    return env


def env_of(config: Any) -> gym.Env:
    """The env an RLlib ``AlgorithmConfig`` naming one of our envs trains on, made here: for
    loops of your own, e.g. playing the trained module on unseen seeds."""
    name = config.env
    if not isinstance(name, str) or not (name == MULTITASK_ENV or name.startswith("LlamaTouch/")):
        raise ConfigError(f"the config's env is not one of mobile_gym's RLlib envs: {name!r}")
    return make_rllib_env(config.env_config, tasks=None if name == MULTITASK_ENV else name)


def register_rllib_envs(tasks: str | Sequence[str] = "*", preset: str = "elements") -> list[str]:
    """Register the simulator tasks ``tasks`` names (ids, env ids or patterns) with RLlib under
    their Gymnasium ids, and `MULTITASK_ENV`, each made by `make_rllib_env` with ``preset``
    unless ``env_config`` names another; returns the ids. Registrations live in the running
    Ray session (or wait for ``ray.init``): register again after ``ray.shutdown()``."""
    _require_rllib()
    from ray.tune.registry import register_env

    from mobile_gym.tasks.suite import select_simulator_tasks

    if preset not in PRESETS:
        raise ConfigError(f"preset must be one of {', '.join(PRESETS)}; got {preset!r}")
    chosen = select_simulator_tasks(tasks)
    for task in chosen:
        register_env(task.env_id, functools.partial(make_rllib_env, tasks=task.id, preset=preset))
    register_env(MULTITASK_ENV, functools.partial(make_rllib_env, preset=preset))
    return [task.env_id for task in chosen]


# ---------------------------------------------------------------------------- PPO
def ppo_config(tasks: str | Sequence[str], preset: str = "elements", *, action_mask: bool | None = None,
               env_config: Mapping[str, Any] | None = None, num_env_runners: int = 0,
               evaluation_interval: int | None = None, evaluation_episodes: int = 20, seed: int | None = 0):
    """A ``PPOConfig`` for ``preset`` on ``tasks``: the task's own id when it is one task,
    `MULTITASK_ENV` otherwise; the observation made readable by RLlib's default model (see the
    module's docs; ``action_mask`` defaults to True for elements); `rllib_ppo_settings`; episode
    success logged as ``env_runners/success_mean``. With ``evaluation_interval``, every that many
    iterations a local evaluation runner plays ``evaluation_episodes`` greedy episodes
    (``evaluation/env_runners/success_mean``); without, RLlib's ``evaluate()`` would sample the
    training runner, exploring, so play `env_of` yourself. Sized for a small machine:
    ``num_env_runners=0`` samples in the driver. Adjust the returned config before ``build_algo()``."""
    _require_rllib()
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from mobile_gym.tasks.suite import select_simulator_tasks

    if preset not in PRESETS:
        raise ConfigError(f"preset must be one of {', '.join(PRESETS)}; got {preset!r}")
    whole_number("num_env_runners", num_env_runners, 0)
    whole_number("evaluation_episodes", evaluation_episodes, 1)
    if evaluation_interval is not None:
        whole_number("evaluation_interval", evaluation_interval, 1)
    config = dict(env_config or {})
    named = sorted({"tasks", "preset", "action_mask"} & set(config))
    if named:
        raise ConfigError(f"env_config names {', '.join(named)}: give them as ppo_config's arguments")
    mask = preset == "elements" if action_mask is None else action_mask
    config.update(preset=preset, action_mask=mask)
    ids = register_rllib_envs([task.id for task in select_simulator_tasks(tasks)], preset)
    if len(ids) == 1:
        env_name = ids[0]
        probe = make_rllib_env(config, tasks=ids[0])
    else:
        env_name, config["tasks"] = MULTITASK_ENV, ids
        probe = make_rllib_env(config)
    observation_space = probe.observation_space  # made once here: bad env_config fails now, not in a runner
    probe.close()

    training, model = rllib_ppo_settings(preset)
    algo = (PPOConfig()
            .environment(env_name, env_config=config)
            .env_runners(num_env_runners=num_env_runners,
                         env_to_module_connector=_flatten_connector if isinstance(observation_space, gym.spaces.Dict)
                         and not mask else None)
            .training(**training)
            .rl_module(model_config=DefaultModelConfig(**model),
                       rl_module_spec=RLModuleSpec(module_class=masked_module_class()) if mask else None)
            .callbacks(on_episode_end=log_success))
    if evaluation_interval is not None:
        algo = algo.evaluation(evaluation_interval=evaluation_interval, evaluation_duration=evaluation_episodes,
                               evaluation_duration_unit="episodes", evaluation_num_env_runners=0,
                               evaluation_config={"explore": False})
    if seed is not None:
        algo = algo.debugging(seed=seed)
    return algo


def _flatten_connector(env: Any = None, spaces: Any = None, device: Any = None):
    """RLlib's `FlattenObservations` (a module function, so the config pickles by reference)."""
    from ray.rllib.connectors.env_to_module import FlattenObservations

    return FlattenObservations()


def log_success(*, episode: Any, env_runner: Any = None, metrics_logger: Any = None, **kwargs: Any) -> None:
    """An ``on_episode_end`` callback: ``success_mean`` (of the last episodes, as RLlib smooths
    ``episode_return_mean``) from the last step's ``info["is_success"]``."""
    if metrics_logger is None:
        return
    info = episode.get_infos(-1)
    window = getattr(getattr(env_runner, "config", None), "metrics_num_episodes_for_smoothing", 100)
    metrics_logger.log_value("success_mean", float(bool(info.get("is_success", info.get("success", False)))),
                             window=window)


# ---------------------------------------------------------------------------- masking module
_MASKED_MODULE: type | None = None


def masked_module_class() -> type:
    """`MaskedPPOTorchRLModule`, defined on first use (it subclasses RLlib's PPO module)."""
    global _MASKED_MODULE
    if _MASKED_MODULE is None:
        _require_rllib()
        _MASKED_MODULE = _define_masked_module()
    return _MASKED_MODULE


def _define_masked_module() -> type:
    import torch
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
    from ray.rllib.core.columns import Columns

    class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
        """RLlib's default PPO module on ``obs["observations"]``, its action logits set to the
        lowest float where ``obs["action_mask"]`` is 0 (`MaskInObservation`'s layout), so
        masked slots are never sampled, never chosen greedily and carry no entropy."""

        def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any):
            masked = isinstance(observation_space, gym.spaces.Dict) and "action_mask" in observation_space.spaces
            super().__init__(*args, observation_space=observation_space["observations"] if masked
                             else observation_space, **kwargs)
            # The catalog built the networks for the inner space; the module keeps the whole
            # one, so a spec or checkpoint made from it builds the same module again.
            self.observation_space = observation_space

        @staticmethod
        def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
            obs = batch[Columns.OBS]
            if not isinstance(obs, Mapping) or "action_mask" not in obs:
                return None, batch
            return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}

        @staticmethod
        def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
            if mask is not None:
                logits = out[Columns.ACTION_DIST_INPUTS]
                out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask < 0.5, torch.finfo(logits.dtype).min)
            return out

        def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, inner = self._split(batch)
            return self._masked(super()._forward(inner, **kwargs), mask)

        def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, inner = self._split(batch)
            return self._masked(super()._forward_train(inner, **kwargs), mask)

        def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
            return super().compute_values(self._split(batch)[1], embeddings)

    # Pickled by reference (RLlib sends module classes to its runners): `__getattr__` finds it.
    MaskedPPOTorchRLModule.__module__, MaskedPPOTorchRLModule.__qualname__ = __name__, "MaskedPPOTorchRLModule"
    return MaskedPPOTorchRLModule


def __getattr__(name: str) -> Any:
    if name == "MaskedPPOTorchRLModule":
        return masked_module_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MULTITASK_ENV", "MaskInObservation", "env_of",
           "log_success", "make_rllib_env", "masked_module_class", "ppo_config", "register_rllib_envs",
           "rllib_ppo_settings"]
