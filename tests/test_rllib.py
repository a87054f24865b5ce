"""RLlib compatibility through `mobile_gym.rllib`'s public interface: our env ids in RLlib's
registry make the policy presets from ``env_config`` (Gymnasium's checks pass, RLlib's own
env runner samples them), the masking module never picks a masked slot, `ppo_config` fails
fast on bad input, and a short PPO run (slow) trains and evaluates on a remote env runner."""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

pytest.importorskip("ray.rllib")

import ray  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402
from ray.rllib.env.env_context import EnvContext  # noqa: E402
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner  # noqa: E402
from ray.tune.registry import ENV_CREATOR, _global_registry  # noqa: E402

import mobile_gym  # noqa: E402
from mobile_gym.errors import ConfigError, MissingExtraError, MobileGymError, UnknownTaskError  # noqa: E402
from mobile_gym.multitask import TaskSampler  # noqa: E402
from mobile_gym.rllib import (  # noqa: E402
    MULTITASK_ENV, MaskInObservation, env_of, make_rllib_env, masked_module_class, ppo_config,
    register_rllib_envs)
from mobile_gym.tasks.catalogue import env_id  # noqa: E402

#: A warning of Ray's own making, nothing of ours (Ray's deprecations are logged, not warned;
#: every other warning stays an error): each env runner registers its env with Gymnasium as
#: ``rllib-single-agent-env-v0``, so a second runner in one process overrides the first's.
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*Overriding environment rllib-single-agent-env-v0 already in registry:UserWarning")

TASK = "settings-turn-off-wifi"
ID = env_id(TASK)


@pytest.fixture(scope="module")
def ray_session():
    """One small local Ray for the module (no dashboard, no usage stats), shut down after it:
    another module starts its own."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            yield
        finally:
            ray.shutdown()


def checked(env: gym.Env) -> None:
    """Gymnasium's checks of the env as RLlib gets it (their advice to check `env.unwrapped`
    instead is not for us: the wrappers are what is checked)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*is different from the unwrapped version")
        check_env(env, skip_render_check=True)


def registered(name: str):
    """What RLlib's env runners find under ``name`` (they look there before Gymnasium's registry)."""
    assert _global_registry.contains(ENV_CREATOR, name)
    return _global_registry.get(ENV_CREATOR, name)


# ---------------------------------------------------------------------------- without Ray
def test_importing_the_module_needs_no_ray() -> None:
    code = "import sys, mobile_gym, mobile_gym.rllib; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_ray_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray.rllib", None)  # `import ray.rllib` now fails
    with pytest.raises(MissingExtraError, match=r"pip install 'mobile-gym\[rllib\]'") as caught:
        register_rllib_envs(TASK)
    assert isinstance(caught.value, MobileGymError) and isinstance(caught.value, ImportError)


def test_mask_in_observation_puts_the_slot_mask_beside_the_flat_features() -> None:
    plain, env = mobile_gym.policy_env(TASK), MaskInObservation(mobile_gym.policy_env(TASK))
    assert env.observation_space["action_mask"].shape == (plain.action_space.n,)
    assert env.observation_space["observations"] == gym.spaces.flatten_space(plain.observation_space)
    checked(env)
    obs, _ = env.reset(seed=3)
    expected, _ = plain.reset(seed=3)
    for action in (0, 1, int(np.flatnonzero(obs["action_mask"])[-1])):
        assert np.array_equal(obs["action_mask"], env.get_wrapper_attr("action_masks")().astype(np.float32))
        assert np.array_equal(obs["observations"], gym.spaces.flatten(plain.observation_space, expected))
        obs, *_ = env.step(action)
        expected, *_ = plain.step(action)
    pixels = MaskInObservation(mobile_gym.policy_env(TASK, "pixels"))  # an image stays an image
    assert pixels.observation_space["observations"].shape == (84, 84, 3)


def test_mask_in_observation_refuses_envs_without_masks() -> None:
    with pytest.raises(ConfigError, match="action_masks"):
        MaskInObservation(gym.make("CartPole-v1"))


# ---------------------------------------------------------------------------- registration
def test_registration_makes_our_ids_rllib_envs(ray_session) -> None:
    ids = register_rllib_envs("settings-*")
    assert ID in ids and all(i.startswith("LlamaTouch/settings-") for i in ids)
    creator = registered(ID)
    context = EnvContext({"profiles": "pixel-3", "num_envs": 1}, worker_index=1, num_workers=1)
    env = creator(context)  # RLlib's own key (num_envs) is not a gym.make argument
    checked(env)
    assert env.action_space == mobile_gym.policy_env(TASK).action_space
    assert isinstance(env.observation_space, gym.spaces.Dict)
    assert env.unwrapped.spec.kwargs["profile"] == "pixel-3"  # env_config reached gym.make
    masked = creator(EnvContext({"action_mask": True}, worker_index=0))
    assert set(masked.observation_space.spaces) == {"action_mask", "observations"}
    pixels = creator(EnvContext({"preset": "pixels"}, worker_index=0))
    assert pixels.observation_space == gym.spaces.Box(0.0, 1.0, (84, 84, 3), np.float32)  # RLlib's CNN: floats
    checked(pixels)


def test_the_multitask_name_draws_a_task_per_episode(ray_session) -> None:
    register_rllib_envs(TASK)
    env = registered(MULTITASK_ENV)(EnvContext({"tasks": "settings-turn-*", "action_mask": True}, worker_index=0))
    assert isinstance(env.unwrapped, TaskSampler)
    assert len({env.reset(seed=s)[1]["task"] for s in range(8)}) > 1


def test_env_config_that_cannot_be_made_is_refused() -> None:
    with pytest.raises(ConfigError, match="env_config\\['tasks'\\]"):
        make_rllib_env({})
    with pytest.raises(ConfigError, match="use 'mobile_gym/policy_env'"):
        make_rllib_env({"tasks": "settings-*"}, tasks=TASK)
    with pytest.raises(ConfigError, match="action_mask"):
        make_rllib_env({"action_mask": "yes"}, tasks=TASK)
    with pytest.raises(ConfigError, match="preset"):
        register_rllib_envs(TASK, preset="text")


def test_rllib_env_runner_samples_our_id(ray_session) -> None:
    """RLlib's own env runner, made from a config naming our id, makes and steps the env."""
    config = ppo_config(TASK, preset="elements")
    runner = SingleAgentEnvRunner(config=config)
    try:
        episodes = runner.sample(num_timesteps=40, random_actions=True)
        assert sum(len(e) for e in episodes) >= 40
        first = episodes[0].get_observations(0)
        assert set(first) == {"action_mask", "observations"} and first["action_mask"].sum() > 0
    finally:
        runner.stop()


# ---------------------------------------------------------------------------- PPO config and module
def test_ppo_config_names_our_id_and_fails_fast() -> None:
    config = ppo_config(TASK)
    assert isinstance(config, PPOConfig) and config.env == ID
    assert config.env_config["action_mask"] is True and config.env_config["preset"] == "elements"
    assert ppo_config(TASK, action_mask=False).build_env_to_module_connector  # flattened by RLlib's connector
    several = ppo_config("settings-turn-*", "pixels")
    assert several.env == MULTITASK_ENV and len(several.env_config["tasks"]) > 1
    assert several.env_config["action_mask"] is False
    assert set(env_of(config).observation_space.spaces) == {"action_mask", "observations"}
    assert isinstance(env_of(several).unwrapped, TaskSampler)
    with pytest.raises(ConfigError, match="not one of mobile_gym's"):
        env_of(PPOConfig().environment("CartPole-v1"))
    with pytest.raises(UnknownTaskError):
        ppo_config("no-such-task")
    with pytest.raises(ConfigError, match="Nope"):
        ppo_config(TASK, env_config={"wrapper_kwargs": {"Nope": {}}})
    with pytest.raises(ConfigError, match="num_env_runners"):
        ppo_config(TASK, num_env_runners=-1)
    with pytest.raises(ConfigError, match="evaluation_interval"):
        ppo_config(TASK, evaluation_interval=0)
    with pytest.raises(ConfigError, match="ppo_config's arguments"):
        ppo_config(TASK, env_config={"preset": "pixels"})


def test_ppo_config_takes_its_settings_from_ppo_kwargs(monkeypatch: pytest.MonkeyPatch) -> None:
    """SB3's settings in RLlib's names: RLlib's batch is SB3's rollout (``n_steps`` of each of
    `N_ENVS` envs), its model's layers SB3's ``net_arch``; a change at the source reaches both."""
    from mobile_gym import training

    monkeypatch.setitem(training.PPO_KWARGS["elements"], "ent_coef", 0.125)  # not RLlib's default, nor ours
    for preset, layers in (("elements", "fcnet_hiddens"), ("pixels", "head_fcnet_hiddens")):
        sb3, config = mobile_gym.ppo_kwargs(preset), ppo_config(TASK, preset)
        assert config.train_batch_size_per_learner == sb3["n_steps"] * training.N_ENVS
        assert (config.minibatch_size, config.num_epochs, config.gamma, config.lambda_, config.entropy_coeff,
                config.lr, config.clip_param) == (sb3["batch_size"], sb3["n_epochs"], sb3["gamma"],
                                                  sb3["gae_lambda"], sb3["ent_coef"], sb3["learning_rate"],
                                                  sb3["clip_range"])
        assert config.model_config[layers] == sb3["policy_kwargs"]["net_arch"]


def test_unmasked_elements_reach_the_model_flattened_by_rllibs_connector() -> None:
    config = ppo_config(TASK, action_mask=False)
    env = make_rllib_env(config.env_config, tasks=TASK)
    connector = config.build_env_to_module_connector(
        spaces={"__env_single__": (env.observation_space, env.action_space)})
    assert connector.observation_space == gym.spaces.Box(-np.inf, np.inf, (5232 + 64,), np.float32)


def test_masked_module_never_picks_a_masked_slot() -> None:
    import torch

    module_class = masked_module_class()
    assert pickle.loads(pickle.dumps(module_class)) is module_class  # remote runners find it by name
    env = MaskInObservation(mobile_gym.policy_env(TASK))
    module = RLModuleSpec(module_class=module_class, observation_space=env.observation_space,
                          action_space=env.action_space, model_config={"fcnet_hiddens": [8]}).build()
    assert module.observation_space == env.observation_space
    rng = np.random.default_rng(0)
    n = env.action_space.n
    mask = np.zeros((16, n), np.float32)
    mask[np.arange(16), rng.integers(0, n, 16)] = 1.0  # one allowed slot per row
    batch = {"obs": {"action_mask": torch.from_numpy(mask),
                     "observations": torch.from_numpy(rng.random((16, 5296), dtype=np.float32))}}
    logits = module.forward_inference(batch)["action_dist_inputs"]
    assert torch.equal(logits.argmax(-1), torch.from_numpy(mask.argmax(-1)))
    assert (logits[torch.from_numpy(mask == 0)] == torch.finfo(logits.dtype).min).all()
    values = module.compute_values(batch)
    assert values.shape == (16,) and torch.isfinite(values).all()
    again = RLModuleSpec.from_module(module).build()  # as RLlib rebuilds modules on runners and restores
    again.set_state(module.get_state())
    assert torch.equal(again.forward_inference(batch)["action_dist_inputs"], logits)


# ---------------------------------------------------------------------------- a PPO run
@pytest.mark.slow
def test_ppo_trains_and_evaluates_on_a_remote_env_runner(ray_session) -> None:
    """Two tiny iterations sampled by a remote runner (our env and masking module reach it by
    name), the second followed by a greedy evaluation on a local one."""
    config = (ppo_config(TASK, num_env_runners=1, evaluation_interval=2, evaluation_episodes=3)
              .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=2))
    algo = config.build_algo()
    try:
        for _ in range(2):
            result = algo.train()
    finally:
        algo.stop()
    runners, learner = result["env_runners"], result["learners"]["default_policy"]
    assert runners["num_env_steps_sampled_lifetime"] >= 256
    assert runners["num_episodes_lifetime"] > 0 and 0.0 <= runners["success_mean"] <= 1.0
    for loss in ("total_loss", "policy_loss", "vf_loss", "entropy"):
        assert math.isfinite(float(learner[loss])), (loss, learner[loss])
    evaluation = result["evaluation"]["env_runners"]
    assert evaluation["num_episodes"] == 3 and 0.0 <= evaluation["success_mean"] <= 1.0
