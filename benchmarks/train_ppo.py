"""Train a PPO policy on mobile_gym tasks and measure it on unseen seeds as it learns.

The training env is `mobile_gym.make_vec_env` (one task, or several / several profiles or
dynamics drawn per episode); the policy is SB3's PPO or sb3-contrib's MaskablePPO (the
default for the ``elements`` preset, whose masks rule out slots the screen does not have).
Every ``--eval-every`` steps each task (× eval profile × eval dynamics) is played on
``--eval-seeds`` seeds from 10,000,000 up, which training never draws, with deterministic
actions (masked for MaskablePPO); success is ``info["is_success"]`` at the episode's end.

Outputs under ``--out``: ``learning_curve.csv`` (steps, wall seconds, task, success rate,
mean episode length, mean reward), ``learning_curve.png``, ``model.zip`` and
``summary.json`` (arguments, hyperparameters, final and best success per task, env steps
per second of training, eval time excluded).

``--bc-demos DIR`` warm-starts the policy by behaviour cloning on a Minari dataset recorded
in the same preset (`mobile_gym.demos.record_demos`): cross-entropy of the policy's action
distribution on the dataset's (observation, action) pairs, masked as recorded, for
``--bc-epochs`` epochs before PPO.

    python benchmarks/train_ppo.py --tasks settings-turn-off-wifi --steps 100000 --stop-at 0.9
    python benchmarks/train_ppo.py --tasks 'settings-*' --steps 300000 --eval-every 20000
    python benchmarks/train_ppo.py --tasks settings-turn-off-wifi --profiles pixel-6 pixel-3 budget-720p \\
        --dynamics none default --eval-profile pixel-6 pixel-3 budget-720p
    python benchmarks/train_ppo.py --tasks settings-turn-off-wifi --eval-model RUN/model.zip \\
        --eval-profile pixel-6 pixel-3 budget-720p --out RUN/eval-profiles
    python benchmarks/train_ppo.py --tasks bestbuy-empty-cart --reward progress --phrases bestbuy.com \\
        --bc-demos /tmp/demos --bc-epochs 20
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from mobile_gym.training import N_ENVS, ppo_kwargs

#: Evaluation seeds start here; training envs are seeded ``--seed``, ``--seed + 1``, ...
#: and draw later episodes from their own generators, so they never meet these.
EVAL_SEED_BASE = 10_000_000

#: Set to 1 (unless set already) for this process and the env workers it starts.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS")

def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tasks", nargs="+", required=True, help="task ids, env ids or fnmatch patterns")
    p.add_argument("--preset", choices=("elements", "pixels"), default="elements")
    p.add_argument("--algo", choices=("ppo", "maskable-ppo"),
                   help="default: maskable-ppo for elements, ppo for pixels")
    p.add_argument("--steps", type=int, default=100_000, help="env steps of training (all envs together)")
    p.add_argument("--n-envs", type=int, default=N_ENVS)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--profiles", nargs="+", help="device profiles, one drawn per episode")
    p.add_argument("--dynamics", nargs="+", help="dynamics, one drawn per episode")
    p.add_argument("--reward", choices=("sparse", "progress"), default="sparse")
    p.add_argument("--phrases", nargs="+", help="the typing vocabulary (default: spans of the instruction)")
    p.add_argument("--eval-every", type=int, default=5_000, help="env steps between evaluations")
    p.add_argument("--eval-seeds", type=int, default=50, help="episodes per task and evaluation")
    p.add_argument("--eval-profile", nargs="+", help="profiles to evaluate on (default: the training ones)")
    p.add_argument("--eval-dynamics", nargs="+",
                   help="dynamics to evaluate on (default: the training one, or 'default' when several)")
    p.add_argument("--stop-at", type=float,
                   help="stop once the mean eval success reaches this twice in a row")
    p.add_argument("--bc-demos", type=Path, help="Minari dataset (or a folder holding one) to clone first")
    p.add_argument("--bc-epochs", type=int, default=10)
    p.add_argument("--out", type=Path, default=Path("train_out"))
    p.add_argument("--eval-model", type=Path,
                   help="evaluate this saved model on the eval rows instead of training (writes the curve "
                        "and summary of that one evaluation)")
    p.add_argument("--vec", choices=("subproc", "dummy"), default="subproc")
    for name, kind in (("n-steps", int), ("batch-size", int), ("n-epochs", int), ("gamma", float),
                       ("ent-coef", float), ("learning-rate", float)):
        p.add_argument(f"--{name}", type=kind, help="override the preset's hyperparameter")
    p.add_argument("--net-arch", type=int, nargs="+", help="hidden layer sizes (override)")
    args = p.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    args.algo = args.algo or ("maskable-ppo" if args.preset == "elements" else "ppo")
    if args.algo == "maskable-ppo" and args.preset != "elements":
        p.error("maskable-ppo needs the elements preset (the only one with action masks)")
    if args.phrases and args.preset != "elements":
        p.error("--phrases is an option of the elements preset")
    for name in ("steps", "n_envs", "eval_every", "eval_seeds", "bc_epochs"):
        if getattr(args, name) < (0 if name == "bc_epochs" else 1):
            p.error(f"--{name.replace('_', '-')} must be positive")
    if args.stop_at is not None and not 0.0 <= args.stop_at <= 1.0:
        p.error("--stop-at is a success rate, from 0 to 1")
    return args


def hyperparameters(args: argparse.Namespace) -> dict[str, Any]:
    """`mobile_gym.ppo_kwargs` of the preset (the README's and RLlib's settings too; with them
    MaskablePPO solves 2-4 step Settings, Clock and Chrome tasks in 5-15k steps, and the nine
    Settings tasks at once in 50k: see RESULTS.md), with the command line's overrides."""
    hp = ppo_kwargs(args.preset)
    for key in ("n_steps", "batch_size", "n_epochs", "gamma", "ent_coef", "learning_rate"):
        if getattr(args, key) is not None:
            hp[key] = getattr(args, key)
    if args.net_arch is not None:
        hp["policy_kwargs"]["net_arch"] = args.net_arch
    return hp


def env_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """What every env of the run (training and evaluation) is made with, besides its task,
    profile and dynamics."""
    wrappers = {"DiscreteElementActions": {"phrases": args.phrases}} if args.phrases else {}
    return {"wrapper_kwargs": wrappers, "reward_mode": args.reward}


# ---------------------------------------------------------------------------- evaluation
def eval_targets(args: argparse.Namespace) -> list[tuple[str, str, str | None, str | None]]:
    """(name, task id, profile, dynamics) of each evaluation row: every task × eval
    profile × eval dynamics, named ``task[@profile][@dynamics]`` when they vary."""
    from mobile_gym.tasks.suite import select_simulator_tasks

    profiles = args.eval_profile or args.profiles or [None]
    dynamics = args.eval_dynamics or (args.dynamics if args.dynamics and len(args.dynamics) == 1 else
                                      ["default"] if args.dynamics else [None])
    rows = []
    for task in select_simulator_tasks(args.tasks):
        for profile in profiles:
            for dyn in dynamics:
                name = "@".join([task.id] + ([profile] if len(profiles) > 1 else [])
                                + ([dyn] if len(dynamics) > 1 else []))
                rows.append((name, task.id, profile, dyn))
    return rows


def evaluate(model: Any, env: Any, seeds: Sequence[int], masked: bool) -> dict[str, float]:
    """Success rate, mean episode length and mean reward of ``model`` playing ``env`` once
    per seed with deterministic actions (masked when ``masked``)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    successes, lengths, returns = [], [], []
    for seed in seeds:
        obs, info = env.reset(seed=int(seed))
        done, length, total = False, 0, 0.0
        while not done:
            if masked:
                action, _ = model.predict(obs, deterministic=True, action_masks=get_action_masks(env))
            else:
                action, _ = model.predict(obs, deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
            length += 1
            total += float(reward)
        successes.append(bool(info["is_success"]))
        lengths.append(length)
        returns.append(total)
    return {"success_rate": float(np.mean(successes)), "mean_length": float(np.mean(lengths)),
            "mean_reward": float(np.mean(returns))}


def make_eval_callback(args: argparse.Namespace, out: Path, start: float):
    """An SB3 callback that evaluates every ``--eval-every`` steps (and at step 0 and at the
    end), writes the curve as it goes and stops training on ``--stop-at``."""
    from stable_baselines3.common.callbacks import BaseCallback

    from mobile_gym.policy_envs import policy_env

    class Evaluation(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            kwargs = env_kwargs(args)
            self.targets = eval_targets(args)
            self.envs = {name: policy_env(task, args.preset, profiles=profile, dynamics=dyn, **kwargs)
                         for name, task, profile, dyn in self.targets}
            self.seeds = [EVAL_SEED_BASE + i for i in range(args.eval_seeds)]
            self.rows: list[dict[str, Any]] = []
            self.next_eval = 0
            self.eval_seconds = 0.0
            self.hits = 0  # evaluations in a row at or above --stop-at
            self.updates = 0  # the policy's gradient updates at the last evaluation
            self.stopped_early = False
            self.train_episodes = self.train_successes = 0
            self.reported = (0, 0)  # training episodes and successes at the last evaluation

        def _on_training_start(self) -> None:
            self.run_eval()

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"]):
                if done:
                    self.train_episodes += 1
                    self.train_successes += bool(info.get("is_success"))
            if self.num_timesteps >= self.next_eval:
                return self.run_eval()
            return True

        def _on_training_end(self) -> None:
            # an evaluation at the last step count, made while the last rollout was collected,
            # saw the policy before its last update: the final figure is the saved model's
            if self.rows and self.rows[-1]["steps"] == self.num_timesteps and self.updates == self._updates():
                return
            self.rows = [row for row in self.rows if row["steps"] != self.num_timesteps]
            self.run_eval()

        def _updates(self) -> int:
            return getattr(self.model, "_n_updates", 0)  # SB3's count of gradient updates so far

        def run_eval(self) -> bool:
            begin = time.perf_counter()
            self.updates = self._updates()
            rates = []
            for name, env in self.envs.items():
                result = evaluate(self.model, env, self.seeds, args.algo == "maskable-ppo")
                self.rows.append({"steps": self.num_timesteps, "wall_seconds": round(time.perf_counter() - start, 2),
                                  "task": name, **{k: round(v, 4) for k, v in result.items()}})
                rates.append(result["success_rate"])
            self.eval_seconds += time.perf_counter() - begin
            self.next_eval = self.num_timesteps + args.eval_every
            write_curve(out, self.rows)
            mean = float(np.mean(rates))
            episodes, successes = (self.train_episodes - self.reported[0], self.train_successes - self.reported[1])
            self.reported = (self.train_episodes, self.train_successes)
            print(f"[{self.num_timesteps:>8} steps {time.perf_counter() - start:7.0f}s] eval success "
                  f"{mean:.2f}" + ("" if len(rates) == 1 else f" (min {min(rates):.2f})")
                  + (f"; training episodes since the last eval {episodes}, {successes / episodes:.0%} successful"
                     if episodes else ""), flush=True)
            self.hits = self.hits + 1 if args.stop_at is not None and mean >= args.stop_at else 0
            if self.hits >= 2 and self.num_timesteps > 0:
                self.stopped_early = True
                return False
            return True

        def close(self) -> None:
            for env in self.envs.values():
                env.close()

    return Evaluation()


# ---------------------------------------------------------------------------- outputs
CURVE_FIELDS = ("steps", "wall_seconds", "task", "success_rate", "mean_length", "mean_reward")
COLOURS = [(26, 115, 232), (217, 48, 37), (30, 142, 62), (249, 171, 0), (161, 66, 244), (0, 172, 193),
           (233, 30, 99), (121, 85, 72), (96, 125, 139), (255, 112, 67)]


def write_curve(out: Path, rows: list[dict[str, Any]]) -> None:
    with open(out / "learning_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, CURVE_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    series: dict[str, list[tuple[float, float]]] = {}
    for row in rows:
        series.setdefault(row["task"], []).append((row["steps"], row["success_rate"]))
    line_chart("Eval success on unseen seeds", "env steps", series).save(out / "learning_curve.png")


def line_chart(title: str, x_label: str, series: dict[str, list[tuple[float, float]]]):
    """Lines of (x, y in 0..1) points, one per series, with a legend (Pillow only; the
    axes and fonts of `mobile_gym.runner.plots`)."""
    from PIL import Image, ImageDraw, ImageFont

    from mobile_gym.report_text import printable
    from mobile_gym.runner.plots import HEIGHT, INK, MARGIN, WIDTH

    legend_width = 190 if len(series) > 1 else 0
    img = Image.new("RGB", (WIDTH + legend_width, HEIGHT), "white")
    d = ImageDraw.Draw(img)
    font, small = ImageFont.load_default(size=16), ImageFont.load_default(size=11)
    left, upper, right, lower = MARGIN[0], MARGIN[1], WIDTH - MARGIN[2], HEIGHT - MARGIN[3]
    d.text((left, 10), title, fill=INK, font=font)
    d.line([(left, upper), (left, lower), (right, lower)], fill=INK)
    x_max = max((x for points in series.values() for x, _ in points), default=0) or 1
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = lower - (lower - upper) * frac
        d.line([(left - 4, y), (right, y)], fill=(225, 225, 230))
        d.text((6, y - 7), f"{frac:.0%}", fill=INK, font=small)
    for frac in (0.0, 0.5, 1.0):
        x = left + (right - left) * frac
        d.text((x - 12, lower + 6), f"{x_max * frac:,.0f}", fill=INK, font=small)
    d.text(((left + right) / 2 - 25, lower + 24), x_label, fill=INK, font=small)
    for i, (name, points) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        xy = [(left + (right - left) * x / x_max, lower - (lower - upper) * min(max(y, 0.0), 1.0))
              for x, y in points]
        if len(xy) > 1:
            d.line(xy, fill=colour, width=2)
        for x, y in xy:
            d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=colour)
        if legend_width:
            y = upper + 14 * i
            if y < HEIGHT - 14:
                d.rectangle((WIDTH + 4, y + 3, WIDTH + 12, y + 11), fill=colour)
                d.text((WIDTH + 16, y), printable(name)[:28], fill=INK, font=small)
    return img


# ---------------------------------------------------------------------------- behaviour cloning
def find_dataset(path: Path):
    """The Minari dataset at ``path``: its ``data`` folder, the dataset's folder, or a
    folder holding exactly one dataset."""
    from minari import MinariDataset

    candidates = [path] if (path / "metadata.json").exists() else sorted(
        p.parent for p in path.glob("**/data/metadata.json"))
    if len(candidates) != 1:
        raise SystemExit(f"--bc-demos {path}: expected one Minari dataset, found {len(candidates)}")
    return MinariDataset(candidates[0])


def behaviour_clone(model: Any, path: Path, epochs: int, masked: bool, seed: int) -> dict[str, Any]:
    """Fit the policy's action distribution to the dataset's actions (cross-entropy with
    the recorded masks) and its value to the demos' discounted returns, for ``epochs``
    epochs with the policy's own optimizer.

    The value matters as much as the actions: with an untrained critic PPO's first update
    sees advantages that are noise (early steps look worse than late ones) and undoes the
    cloning in one rollout (bestbuy-empty-cart: 95% success after cloning, 0% after 512
    steps of PPO). The returns come from the dataset's rewards, so record the demos with
    the reward mode you train with."""
    import gymnasium as gym
    import torch

    dataset = find_dataset(path)
    observations: dict[str, list[np.ndarray]] | list[np.ndarray] = (
        {} if isinstance(dataset.observation_space, gym.spaces.Dict) else [])
    actions, masks, returns = [], [], []
    for episode in dataset.iterate_episodes():
        n = len(episode.actions)
        if isinstance(observations, dict):
            for key, value in episode.observations.items():
                observations.setdefault(key, []).append(np.asarray(value)[:n])
        else:
            observations.append(np.asarray(episode.observations)[:n])
        actions.append(np.asarray(episode.actions))
        if "action_mask" in episode.infos:
            masks.append(np.asarray(episode.infos["action_mask"])[:n])
        g, episode_returns = 0.0, np.zeros(n, np.float32)
        for t in range(n - 1, -1, -1):  # Monte-Carlo: the demos end on success or the step limit
            g = float(episode.rewards[t]) + model.gamma * g
            episode_returns[t] = g
        returns.append(episode_returns)
    if isinstance(observations, dict):
        obs = {k: np.concatenate(v) for k, v in observations.items()}
        space_ok = all(obs[k].shape[1:] == model.observation_space[k].shape for k in obs)
    else:
        obs = np.concatenate(observations)
        space_ok = obs.shape[1:] == model.observation_space.shape
    if not space_ok or dataset.action_space != model.action_space:
        raise SystemExit("--bc-demos: the dataset's spaces differ from the training env's "
                         "(record it with the same preset, phrases and wrapper settings)")
    acts, targets = np.concatenate(actions), np.concatenate(returns)
    mask = np.concatenate(masks) if masked and masks else None
    policy = model.policy
    policy.set_training_mode(True)
    rng = np.random.default_rng(seed)
    batch = 64
    losses, value_losses = [], []
    for _ in range(epochs):
        order = rng.permutation(len(acts))
        epoch_losses, epoch_value_losses = [], []
        for first in range(0, len(order), batch):
            idx = order[first:first + batch]
            obs_t, _ = policy.obs_to_tensor({k: v[idx] for k, v in obs.items()} if isinstance(obs, dict)
                                            else obs[idx])
            act_t = torch.as_tensor(acts[idx], device=policy.device)
            extra = {"action_masks": mask[idx]} if mask is not None else {}
            values, log_prob, _ = policy.evaluate_actions(obs_t, act_t, **extra)
            value_loss = torch.nn.functional.mse_loss(values.flatten(),
                                                      torch.as_tensor(targets[idx], device=policy.device))
            loss = -log_prob.mean()
            policy.optimizer.zero_grad()
            (loss + model.vf_coef * value_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            policy.optimizer.step()
            epoch_losses.append(float(loss.detach()))
            epoch_value_losses.append(float(value_loss.detach()))
        losses.append(float(np.mean(epoch_losses)))
        value_losses.append(float(np.mean(epoch_value_losses)))
    policy.set_training_mode(False)
    with torch.no_grad():
        obs_t, _ = policy.obs_to_tensor(obs)
        dist = policy.get_distribution(obs_t, **({"action_masks": mask} if mask is not None else {}))
        accuracy = float(np.mean(dist.get_actions(deterministic=True).cpu().numpy() == acts))
    recorded = dataset.storage.metadata.get("policy_env", {}).get("reward_mode", "sparse")
    return {"dataset": str(path), "episodes": int(dataset.total_episodes), "pairs": int(len(acts)),
            "epochs": epochs, "loss_first": losses[0] if losses else None,
            "loss_last": losses[-1] if losses else None, "value_loss_last": value_losses[-1] if losses else None,
            "train_accuracy": accuracy, "dataset_reward_mode": recorded}


# ---------------------------------------------------------------------------- main
def results(args: argparse.Namespace, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The arguments, and the last and the best evaluation of each eval row."""
    final = {r["task"]: r["success_rate"] for r in rows if r["steps"] == rows[-1]["steps"]}
    best: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["task"] not in best or r["success_rate"] > best[r["task"]]["success_rate"]:
            best[r["task"]] = {"success_rate": r["success_rate"], "steps": r["steps"]}
    return {"args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
                     if k != "argv"},
            "command": "python benchmarks/train_ppo.py " + " ".join(args.argv),
            "final_success": final, "final_mean_success": float(np.mean(list(final.values()))),
            "best_success": best}


def write_summary(out: Path, summary: dict[str, Any]) -> None:
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")


def evaluate_only(args: argparse.Namespace, model: Any, start: float) -> dict[str, Any]:
    """``--eval-model``: one evaluation of a saved model on the eval rows (e.g. a policy
    trained on one profile, played on every profile)."""
    callback = make_eval_callback(args, args.out, start)
    callback.init_callback(model)
    callback.num_timesteps = model.num_timesteps
    try:
        callback.run_eval()
    finally:
        callback.close()
    summary = {**results(args, callback.rows), "algo": args.algo, "env_steps": int(model.num_timesteps),
               "evaluated_model": str(args.eval_model), "wall_seconds": round(time.perf_counter() - start, 2)}
    write_summary(args.out, summary)
    print(f"eval success {summary['final_mean_success']:.2f}: "
          + ", ".join(f"{k} {v:.2f}" for k, v in summary["final_success"].items()), flush=True)
    return summary


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    # One thread per process for torch's OpenMP, here and in the env workers (they inherit the
    # environment): the networks are small, the cores few, and idle OpenMP threads spin.
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    import torch
    from stable_baselines3 import PPO

    torch.set_num_threads(1)

    import mobile_gym

    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    hp = hyperparameters(args)
    start = time.perf_counter()
    if args.algo == "maskable-ppo":
        from sb3_contrib import MaskablePPO as algo
    else:
        algo = PPO
    if args.eval_model is not None:
        return evaluate_only(args, algo.load(args.eval_model, device="cpu"), start)
    venv = mobile_gym.make_vec_env(args.tasks, n_envs=args.n_envs, preset=args.preset, vec=args.vec,
                                   seed=args.seed, profiles=args.profiles, dynamics=args.dynamics,
                                   **env_kwargs(args))
    policy = "MultiInputPolicy" if hasattr(venv.observation_space, "spaces") else "CnnPolicy"
    model = algo(policy, venv, seed=args.seed, verbose=0, device="cpu", **hp)
    bc = None
    if args.bc_demos is not None and args.bc_epochs > 0:
        begin = time.perf_counter()
        bc = behaviour_clone(model, args.bc_demos, args.bc_epochs, args.algo == "maskable-ppo", args.seed)
        bc["seconds"] = round(time.perf_counter() - begin, 2)
        print(f"behaviour cloning: {bc['pairs']} pairs, loss {bc['loss_first']:.3f} -> {bc['loss_last']:.3f}, "
              f"accuracy {bc['train_accuracy']:.2f}, value loss {bc['value_loss_last']:.4f}", flush=True)
        if bc["dataset_reward_mode"] != args.reward:
            print(f"warning: the demos were recorded with {bc['dataset_reward_mode']!r} rewards, training uses "
                  f"{args.reward!r}: the value warm start learns the other returns", flush=True)
    callback = make_eval_callback(args, out, start)
    learn_start = time.perf_counter()
    try:
        model.learn(total_timesteps=args.steps, callback=callback)
    finally:
        venv.close()
        callback.close()
    learn_seconds = time.perf_counter() - learn_start
    model.save(out / "model.zip")

    train_seconds = learn_seconds - callback.eval_seconds
    summary = {
        **results(args, callback.rows),
        "algo": args.algo, "policy": policy, "hyperparameters": hp,
        "env_steps": int(model.num_timesteps), "stopped_early": callback.stopped_early,
        "train_episodes": callback.train_episodes,
        "train_success_rate": callback.train_successes / callback.train_episodes if callback.train_episodes else None,
        "wall_seconds": round(time.perf_counter() - start, 2), "eval_seconds": round(callback.eval_seconds, 2),
        "train_steps_per_second": round(model.num_timesteps / train_seconds, 1) if train_seconds > 0 else None,
        "behaviour_cloning": bc,
    }
    write_summary(out, summary)
    print(f"final eval success {summary['final_mean_success']:.2f} after {summary['env_steps']} steps, "
          f"{summary['wall_seconds']:.0f}s ({summary['train_steps_per_second']} steps/s training); {out}",
          flush=True)
    return summary


if __name__ == "__main__":
    from mobile_gym.errors import MobileGymError

    try:
        main()
    except MobileGymError as error:  # a bad task pattern, profile, phrase...: the message, not a traceback
        sys.exit(f"error: {error}")
