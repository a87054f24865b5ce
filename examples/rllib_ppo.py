"""Train RLlib's PPO on a mobile_gym task, then play the trained policy greedily.

`mobile_gym.rllib.ppo_config` registers the task with RLlib under its Gymnasium id
(``LlamaTouch/<task>-v0``) and returns a ``PPOConfig`` for a policy preset: for ``elements``
the screen's slots are masked (`MaskInObservation` + `MaskedPPOTorchRLModule`), for
``pixels`` RLlib's CNN reads the 84×84 screenshot. Each iteration prints the env steps so far,
the mean return and success of the last training episodes; then the trained module picks the
highest-scoring allowed action on episodes seeded from 10,000,000 up (far from the seeds RLlib
trains with, as in ``benchmarks/train_ppo.py``) and the success rate is read from
``info["is_success"]`` at each episode's end.

    python examples/rllib_ppo.py --task settings-go-network --iterations 10
    python examples/rllib_ppo.py --task 'settings-*' --iterations 100 --num-env-runners 1
"""

from __future__ import annotations

import argparse
import os
import time

EVAL_SEED_BASE = 10_000_000


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--task", default="settings-go-network", help="task id, env id or pattern (several: one per episode)")
    p.add_argument("--preset", choices=("elements", "pixels"), default="elements")
    p.add_argument("--iterations", type=int, default=10, help="PPO iterations (512 env steps each by default)")
    p.add_argument("--num-env-runners", type=int, default=0,
                   help="remote env runners (0: sample in this process, best on 2 cores)")
    p.add_argument("--eval-episodes", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def greedy_episode(module, env, seed: int) -> tuple[bool, int]:
    """One episode of the module's highest-scoring action; (success, steps)."""
    import numpy as np
    import torch

    obs, info = env.reset(seed=seed)
    done, steps = False, 0
    while not done:
        batch = {"obs": {k: torch.from_numpy(v[None]) for k, v in obs.items()} if isinstance(obs, dict)
                 else torch.from_numpy(np.asarray(obs)[None])}
        with torch.no_grad():
            logits = module.forward_inference(batch)["action_dist_inputs"]  # masked slots: lowest float
        obs, _reward, terminated, truncated, info = env.step(int(logits.argmax(-1)[0]))
        done, steps = terminated or truncated, steps + 1
    return bool(info["is_success"]), steps


def main() -> None:
    args = parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    from mobile_gym.rllib import env_of, ppo_config

    ray.init(num_cpus=max(2, args.num_env_runners + 1), include_dashboard=False, log_to_driver=False)
    try:
        config = ppo_config(args.task, args.preset, num_env_runners=args.num_env_runners, seed=args.seed)
        algo = config.build_algo()
        start = time.perf_counter()
        for i in range(1, args.iterations + 1):
            runners = algo.train()["env_runners"]
            print(f"iter {i:3d}  env steps {int(runners['num_env_steps_sampled_lifetime']):7d}  "
                  f"return mean {runners.get('episode_return_mean', float('nan')):6.3f}  "
                  f"success {runners.get('success_mean', float('nan')):5.2f}  "
                  f"({time.perf_counter() - start:.0f}s)", flush=True)

        module = algo.get_module()
        env = env_of(config)  # the training env, made here
        results = [greedy_episode(module, env, EVAL_SEED_BASE + k) for k in range(args.eval_episodes)]
        env.close()
        successes = sum(ok for ok, _ in results)
        print(f"greedy evaluation on {args.eval_episodes} unseen seeds: success rate "
              f"{successes / args.eval_episodes:.2f}, mean length {sum(n for _, n in results) / len(results):.1f}")
        algo.stop()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
