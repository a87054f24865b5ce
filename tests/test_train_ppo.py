"""``benchmarks/train_ppo.py`` in miniature: a few hundred steps of MaskablePPO on
settings-open must write a sane learning curve, chart, model and summary (and PPO on the
pixels preset must run), a saved model must evaluate alone, and a behaviour-cloning warm
start on the oracle's demos must already solve the task. The script and the README's training
snippet take their settings from `mobile_gym.ppo_kwargs`, and ``benchmarks/train_readme.py``
runs that snippet as written."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str = "train_ppo"):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TINY = ["--tasks", "settings-open", "--steps", "256", "--n-steps", "64", "--batch-size", "64", "--vec", "dummy",
        "--eval-every", "128", "--eval-seeds", "3"]


@pytest.mark.slow  # ~7 s: two runs of main()
def test_tiny_run_writes_curve_chart_model_and_summary(tmp_path: Path) -> None:
    from PIL import Image
    from sb3_contrib import MaskablePPO

    import mobile_gym

    train_ppo = load_script()
    summary = train_ppo.main([*TINY, "--out", str(tmp_path)])

    with open(tmp_path / "learning_curve.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(train_ppo.CURVE_FIELDS)
    steps = [int(r["steps"]) for r in rows]
    assert steps[0] == 0 and steps == sorted(steps) and steps[-1] == summary["env_steps"] >= 256
    assert {r["task"] for r in rows} == {"settings-open"}
    for r in rows:
        assert 0.0 <= float(r["success_rate"]) <= 1.0
        assert 1 <= float(r["mean_length"]) <= 8  # settings-open's step limit: 3 * 1 + 5
        assert float(r["wall_seconds"]) >= 0

    with Image.open(tmp_path / "learning_curve.png") as img:
        assert img.size[0] >= 640 and img.getcolors(1 << 16) and len(img.getcolors(1 << 16)) > 2

    assert summary == json.loads((tmp_path / "summary.json").read_text())
    assert summary["algo"] == "maskable-ppo" and summary["policy"] == "MultiInputPolicy"
    assert set(summary["final_success"]) == {"settings-open"}
    assert summary["final_success"]["settings-open"] == float(rows[-1]["success_rate"])
    assert summary["train_steps_per_second"] > 0 and summary["args"]["tasks"] == ["settings-open"]

    model = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    env = mobile_gym.policy_env("settings-open")
    obs, _ = env.reset(seed=3)
    action, _ = model.predict(obs, action_masks=env.get_wrapper_attr("action_masks")(), deterministic=True)
    assert env.get_wrapper_attr("action_masks")()[int(action)]
    env.close()

    # the saved model, evaluated alone on two profiles: one row each, at the model's step count
    again = train_ppo.main(["--tasks", "settings-open", "--eval-model", str(tmp_path / "model.zip"),
                            "--eval-profile", "pixel-6", "pixel-3", "--eval-seeds", "3",
                            "--out", str(tmp_path / "eval")])
    assert set(again["final_success"]) == {"settings-open@pixel-6", "settings-open@pixel-3"}
    assert again["env_steps"] == summary["env_steps"]
    assert again["final_success"]["settings-open@pixel-6"] == summary["final_success"]["settings-open"]


def test_behaviour_cloning_on_oracle_demos_solves_settings_open(tmp_path: Path) -> None:
    from mobile_gym.demos import record_demos

    record_demos("settings-open", 4, tmp_path / "demos")
    train_ppo = load_script()
    summary = train_ppo.main([*TINY, "--steps", "128", "--bc-demos", str(tmp_path / "demos"),
                              "--bc-epochs", "40", "--out", str(tmp_path / "run")])
    bc = summary["behaviour_cloning"]
    assert bc["pairs"] == 4 and bc["loss_last"] < bc["loss_first"] and bc["train_accuracy"] == 1.0
    with open(tmp_path / "run" / "learning_curve.csv", newline="") as f:
        first = next(csv.DictReader(f))
    assert first["steps"] == "0" and float(first["success_rate"]) == 1.0  # before any PPO update


def test_pixels_preset_trains_a_cnn_with_plain_ppo(tmp_path: Path) -> None:
    summary = load_script().main([*TINY, "--steps", "128", "--preset", "pixels", "--eval-seeds", "2",
                                  "--out", str(tmp_path)])
    assert (summary["algo"], summary["policy"]) == ("ppo", "CnnPolicy")
    assert summary["env_steps"] >= 128 and (tmp_path / "model.zip").stat().st_size > 0


def test_bad_arguments_are_refused() -> None:
    train_ppo = load_script()
    with pytest.raises(SystemExit):
        train_ppo.parse_args(["--tasks", "settings-open", "--preset", "pixels", "--algo", "maskable-ppo"])
    with pytest.raises(SystemExit):
        train_ppo.parse_args(["--tasks", "settings-open", "--steps", "0"])
    args = train_ppo.parse_args(["--tasks", "settings-open", "--preset", "pixels"])
    assert args.algo == "ppo"


# ---------------------------------------------------------------------------- one source of settings
def test_the_script_trains_with_ppo_kwargs_and_its_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    from mobile_gym import training

    train_ppo = load_script()
    monkeypatch.setitem(training.PPO_KWARGS["elements"], "gamma", 0.5)  # the source changes: so does the script
    hp = train_ppo.hyperparameters(train_ppo.parse_args(["--tasks", "settings-open"]))
    assert hp == training.ppo_kwargs("elements") and hp["gamma"] == 0.5
    hp = train_ppo.hyperparameters(train_ppo.parse_args(["--tasks", "settings-open", "--preset", "pixels",
                                                         "--ent-coef", "0", "--net-arch", "32", "32"]))
    assert hp == {**training.ppo_kwargs("pixels"), "ent_coef": 0.0, "policy_kwargs": {"net_arch": [32, 32]}}
    assert training.ppo_kwargs("pixels")["policy_kwargs"] == {"net_arch": [256]}  # the overrides changed a copy


def test_the_readme_snippet_trains_with_ppo_kwargs() -> None:
    import mobile_gym

    train_readme = load_script("train_readme")
    snippet = train_readme.readme_snippet(ROOT / "README.md")
    assert 'mobile_gym.ppo_kwargs("elements")' in snippet and "MaskablePPO(" in snippet
    spelled = [name for name in mobile_gym.ppo_kwargs() if re.search(rf"\b{name}\s*=", snippet)]
    assert not spelled, f"the README's snippet sets {spelled} itself instead of taking ppo_kwargs'"
    moved = train_readme.for_task(snippet, "settings-open")
    assert "settings-turn-off-wifi" in snippet and "settings-turn-off-wifi" not in moved
    assert moved.count('"settings-open"') == snippet.count('"settings-turn-off-wifi"') == 2


def test_the_readme_section_must_hold_a_snippet(tmp_path: Path) -> None:
    train_readme = load_script("train_readme")
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n## Train a policy\n\nprose only\n\n## Next\n\n```python\nprint()\n```\n")
    with pytest.raises(SystemExit, match="no python block"):
        train_readme.readme_snippet(readme)
    with pytest.raises(SystemExit, match="make_vec_env"):
        train_readme.for_task("print()\n", "settings-open")


@pytest.mark.slow  # ~20 s: a fresh process, two env workers, 512 steps
def test_the_readme_snippet_runs_and_is_evaluated_on_unseen_seeds(tmp_path: Path) -> None:
    train_readme = load_script("train_readme")
    readme = tmp_path / "README.md"
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    short, n = re.subn(r"model\.learn\([\d_]+\)", "model.learn(512)", text)  # one rollout, not 30k steps
    assert n == 1
    readme.write_text(short, encoding="utf-8")
    rows = train_readme.main(["--tasks", "settings-open", "--readme", str(readme), "--seeds", "3",
                              "--out", str(tmp_path / "out.json")])
    [row] = rows
    assert row["task"] == "settings-open" and 0.0 <= row["success_rate"] <= 1.0
    assert 1 <= row["mean_length"] <= 8  # settings-open's step limit
    assert row["printed"][-1] in ("success: True", "success: False")  # the snippet's own episode
    assert json.loads((tmp_path / "out.json").read_text())["tasks"] == rows
