"""The policy presets on every simulator task (registry-driven), and the element action and
feature wrappers through their public interface: spaces SB3 accepts, masks that say
what a screen allows, taps that land on their element, every task solvable in the
element space, and wrong input refused before anything happens."""

from __future__ import annotations

import copy
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import mobile_gym
from mobile_gym.actions import Action, ActionType
from mobile_gym.agents.oracle import OracleAgent
from mobile_gym.errors import ConfigError, InvalidActionError, UnknownTaskError
from mobile_gym.multitask import TaskSampler
from mobile_gym.policy_envs import PRESETS
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.ui.elements import actionable_elements
from mobile_gym.wrappers import DiscreteElementActions, ElementFeatures, TrimInfo
from mobile_gym.wrappers.element_actions import instruction_phrases

TASKS = sorted(simulator_tasks())


def same(a, b) -> bool:
    return gym.utils.env_checker.data_equivalence(a, b)


def masked_rollout(env: gym.Env, seed: int, steps: int = 15, choice_seed: int = 0) -> list:
    """A seeded episode of random unmasked choices: (obs, reward, terminated, truncated, info)."""
    rng = np.random.default_rng(choice_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, info)]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(env.get_wrapper_attr("action_masks")())))
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            break
    return out


def typed_phrases(task_id: str) -> list[str]:
    """The instruction's spans with the golden path's typed texts first (they must fit)."""
    task = simulator_tasks()[task_id]
    typed = [step.text for step in task.golden_path if step.kind == "type"]
    return list(dict.fromkeys(typed + instruction_phrases(task.instruction)))[:16]


# ---------------------------------------------------------------- every task, the elements preset
@pytest.mark.parametrize("preset", ["elements", "pixels"])
@pytest.mark.parametrize("task", TASKS)
def test_each_preset_passes_gymnasium_and_sb3_checks(task: str, preset: str) -> None:
    env = mobile_gym.policy_env(task, preset)
    with warnings.catch_warnings():  # advice to check `env.unwrapped`: the preset is what is checked here
        warnings.filterwarnings("ignore", message=".*is different from the unwrapped version")
        gymnasium_check_env(env)
    sb3_check_env(env)
    env.close()


@pytest.mark.parametrize("task", TASKS)
def test_the_oracle_solves_every_task_in_the_element_action_space(task: str) -> None:
    """Each golden-path action, expressed as a slot (`index_of`), does what it did: the
    element space can solve every task, on two seeds of the default dynamics."""
    for seed in (0, 1):
        env = DiscreteElementActions(gym.make(f"LlamaTouch/{task}-v0", dynamics="default"),
                                     phrases=typed_phrases(task))
        obs, info = env.reset(seed=seed)
        agent = OracleAgent(task)
        for _ in range(60):
            slot = env.index_of(agent.act(obs, info))
            assert slot is not None and info["action_mask"][slot], env.describe(slot) if slot is not None else slot
            obs, reward, terminated, truncated, info = env.step(slot)
            assert not info["invalid_action"]
            if terminated or truncated:
                break
        assert info["success"] and info["oracle_success"], (task, seed)


@pytest.mark.parametrize("task", TASKS)
def test_seeded_element_rollouts_are_deterministic_and_pickle(task: str) -> None:
    runs = [masked_rollout(mobile_gym.policy_env(task, dynamics="default"), seed=3) for _ in range(2)]
    assert same(runs[0], runs[1])
    env = mobile_gym.policy_env(task, dynamics="default")
    env.reset(seed=3)
    env.step(env.get_wrapper_attr("max_elements") + env.get_wrapper_attr("extras").index("scroll_down"))
    twin = pickle.loads(pickle.dumps(env))
    for copied in (twin, copy.deepcopy(env)):
        mask = env.get_wrapper_attr("action_masks")()
        assert same(mask, copied.get_wrapper_attr("action_masks")())
        action = int(np.flatnonzero(mask)[0])
        assert same(copy.deepcopy(env).step(action), copied.step(action))


# ---------------------------------------------------------------- elements and taps
def walk_screens(task: str, steps: int = 40, seed: int = 0):
    """The screens of a random masked walk, as (hierarchy, elements) pairs."""
    env = mobile_gym.policy_env(task, dynamics="default")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(steps):
        inner = env.unwrapped
        yield inner.hierarchy, inner.elements
        allowed = np.flatnonzero(env.get_wrapper_attr("action_masks")())
        _, _, terminated, truncated, _ = env.step(int(rng.choice(allowed)))
        if terminated or truncated:
            env.reset()


@pytest.mark.parametrize("task", ["bestbuy-empty-cart", "clock-set-alarm-9am", "playstore-install-ebay",
                                  "settings-turn-off-improve", "chrome-clear-history"])
def test_every_element_is_tapped_where_it_shows(task: str) -> None:
    """The tap point is inside the element's visible part, inside its own bounds and every
    ancestor's, under no window drawn above its own, and a tap there reaches the element
    or a node inside it (or, for a node that is not clickable, its clickable ancestor)."""
    for h, elements in walk_screens(task):
        screen = h.screen_bounds
        assert [e.index for e in elements] == list(range(len(elements)))
        for e in elements:
            x, y = e.point[0] * screen.right, e.point[1] * screen.bottom
            assert e.visible.area > 0 and e.visible.contains(x, y)
            for node in (e.node, *e.node.ancestors()):
                assert node.bounds.contains(x, y)
            root = next(iter([e.node, *e.node.ancestors()][::-1]))
            above = h.roots[h.roots.index(root) + 1:]
            assert not any(r.bounds.area and r.bounds.left < x < r.bounds.right and r.bounds.top < y < r.bounds.bottom
                           for r in above)
            reached = h.clickable_at(x, y)
            if reached is not None and e.node.clickable:
                assert reached is e.node or e.node in reached.ancestors(), (e, reached)


def test_a_dialog_puts_its_buttons_first_and_hides_what_it_covers() -> None:
    env = gym.make("LlamaTouch/clock-set-alarm-9am-v0")
    obs, info = env.reset(seed=0)
    agent = OracleAgent("clock-set-alarm-9am")
    while not {"OK", "Cancel"} <= {e.label for e in env.unwrapped.elements}:  # the time picker
        obs, _, terminated, _, info = env.step(agent.act(obs, info))
        assert not terminated
    h, elements = env.unwrapped.hierarchy, env.unwrapped.elements
    dialog = [r for r in h.roots if not r.package.startswith("com.android.systemui")][-1]
    assert dialog is not h.roots[0]
    in_dialog = [any(e.node is n for n in dialog.iter()) for e in elements]
    assert in_dialog[0] and in_dialog == sorted(in_dialog, reverse=True)  # the dialog's elements, then the rest
    for e in elements[in_dialog.count(True):]:  # what is left of the app's own elements shows beside it
        b = dialog.bounds
        assert e.visible.right <= b.left or e.visible.left >= b.right or e.visible.bottom <= b.top \
            or e.visible.top >= b.bottom


def test_elements_are_worked_out_once_per_screen() -> None:
    env = gym.make("LlamaTouch/settings-open-v0")
    env.reset(seed=0)
    assert env.unwrapped.elements is env.unwrapped.elements
    assert actionable_elements(env.unwrapped.hierarchy) is env.unwrapped.elements


# ---------------------------------------------------------------- masks, invalid choices, extras
def test_masked_choices_do_nothing_and_say_so() -> None:
    env = mobile_gym.policy_env("settings-turn-off-wifi")
    obs, info = env.reset(seed=0)
    inner = env.get_wrapper_attr("action_masks")
    mask = inner()
    masked = int(np.flatnonzero(~mask)[0])  # an empty element slot on the launcher
    before = env.unwrapped.hierarchy.to_xml()
    obs2, reward, terminated, truncated, info = env.step(masked)
    assert info["invalid_action"] and reward == 0.0 and not terminated
    assert env.unwrapped.hierarchy.to_xml() == before and same(obs, obs2)
    assert info["steps"] == 1  # it counted
    unmasked = int(np.flatnonzero(mask)[0])
    assert not env.step(unmasked)[4]["invalid_action"]


def test_phrases_are_unmasked_only_when_a_field_has_focus() -> None:
    env = DiscreteElementActions(gym.make("LlamaTouch/playstore-search-vlc-android-v0"))
    obs, info = env.reset(seed=0)
    k, e = env.max_elements, len(env.extras)
    assert not info["action_mask"][k + e:].any()
    agent = OracleAgent("playstore-search-vlc-android")
    for _ in range(10):
        action = agent.act(obs, info)
        if action.action_type is ActionType.TYPE:
            break
        obs, *_, info = env.step(env.index_of(action))
    assert info["action_mask"][k + e:k + e + len(env.phrases)].all()
    assert not info["action_mask"][k + e + len(env.phrases):].any()
    assert env.phrases[0] == "VLC for Android"


@pytest.mark.parametrize("action", [-1, 70, 1.5, "3", True, None, np.array([1, 2]), np.float32(2.0)])
def test_malformed_choices_are_refused_before_anything_happens(action) -> None:
    env = mobile_gym.policy_env("settings-open")
    env.reset(seed=0)
    before = env.unwrapped.hierarchy.to_xml()
    with pytest.raises(InvalidActionError):
        env.step(action)
    assert env.unwrapped.hierarchy.to_xml() == before
    env.step(np.int64(int(np.flatnonzero(env.get_wrapper_attr("action_masks")())[0])))  # numpy ints are fine


def test_extras_act_by_name() -> None:
    env = DiscreteElementActions(gym.make("LlamaTouch/settings-turn-off-improve-v0"), extras=("home", "scroll_down"))
    env.reset(seed=0)
    k = env.max_elements
    assert env.describe(k) == "home" and env.describe(k + 1) == "scroll_down"
    settings = next(e.index for e in env.elements if e.label == "Settings")
    env.step(settings)
    top = [e.label for e in env.elements]
    env.step(k + 1)  # scroll down: new rows come into view
    assert [e.label for e in env.elements] != top
    env.step(k)
    assert env.unwrapped.hierarchy.app_package == "com.google.android.apps.nexuslauncher"
    assert env.action(k + 1).action_type is ActionType.SWIPE
    swipe = env.action(k + 1)
    assert swipe.lift[1] < swipe.touch[1]  # the finger goes up to scroll down


def test_index_of_maps_raw_actions_to_slots() -> None:
    env = DiscreteElementActions(gym.make("LlamaTouch/settings-open-v0"), phrases=["hello"])
    env.reset(seed=0)
    k = env.max_elements
    for e in env.elements:
        assert env.index_of(Action.click(*e.point)) == e.index
    assert env.index_of(Action.back()) == k + env.extras.index("back")
    assert env.index_of(Action.swipe(0.5, 0.8, 0.5, 0.2)) == k + env.extras.index("scroll_down")
    assert env.index_of(Action.swipe(0.5, 0.2, 0.5, 0.8)) == k + env.extras.index("scroll_up")
    assert env.index_of(Action.swipe(0.2, 0.5, 0.8, 0.55)) is None  # sideways
    assert env.index_of(Action.type_text("hello")) == k + len(env.extras)
    assert env.index_of(Action.type_text("other")) is None
    assert env.index_of(Action.impossible()) is None  # not among the default extras
    assert env.index_of(Action.click(0.5, 0.01)) is None  # the status bar


@pytest.mark.parametrize("kwargs", [{"max_elements": -1}, {"max_elements": 1.5}, {"extras": ("back", "jump")},
                                    {"extras": ("back", "back")}, {"phrases": "abc"}, {"phrases": [""]},
                                    {"phrases": ["a"] * 17}, {"max_phrases": True}])
def test_bad_element_action_arguments_are_config_errors(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        DiscreteElementActions(gym.make("LlamaTouch/settings-open-v0"), **kwargs)


def test_instruction_phrases_keep_quoted_text_whole_and_skip_stopwords() -> None:
    phrases = instruction_phrases('Open app "Firefox Browser" (install if not already installed)')
    assert phrases[0] == "Firefox Browser" and "Firefox" in phrases and "Open app" in phrases
    phrases = instruction_phrases("Empty the shopping cart on bestbuy.")
    assert phrases[:4] == ["Empty", "shopping", "cart", "bestbuy"]  # no "the", no full stop
    assert "the shopping" in phrases and "the shopping cart" in phrases
    assert instruction_phrases("") == []
    assert len(instruction_phrases("a b c d e f g h i j k l m n o p q r s t", limit=5)) == 5


# ---------------------------------------------------------------- features
def test_feature_rows_line_up_with_the_action_slots() -> None:
    env = ElementFeatures(DiscreteElementActions(gym.make("LlamaTouch/settings-turn-off-wifi-v0")), flat=False)
    obs, info = env.reset(seed=0)
    names = env.feature_names()
    rows = obs["elements"]
    assert rows.shape == (48, len(names)) and rows.dtype == np.float32
    elements = env.unwrapped.elements
    filled = rows[:, names.index("filled")]
    assert filled[:len(elements)].all() and not filled[len(elements):].any()
    assert same(filled.astype(bool), info["action_mask"][:48])
    for e, row in zip(elements, rows):
        assert row[names.index("clickable")] == e.node.flags["clickable"]
        assert row[names.index("left")] == pytest.approx(e.visible.left / env.unwrapped.hierarchy.screen_bounds.right)
        assert row[[i for i, n in enumerate(names) if n.startswith("class:")]].sum() == 1


def test_the_element_that_reads_as_the_instruction_matches_it() -> None:
    env = ElementFeatures(gym.make("LlamaTouch/settings-set-disturb-v0"), flat=False)
    obs, _ = env.reset(seed=0)
    names = env.feature_names()
    match = obs["elements"][:, names.index("match")]
    labels = [e.label for e in env.unwrapped.elements]
    best = labels[int(np.argmax(match))]
    assert "Do Not Disturb" in best  # "Sound & vibration: Volume, haptics, Do Not Disturb"
    text = [i for i, n in enumerate(names) if n.startswith("text#")]
    row = obs["elements"][labels.index(best), text]
    assert (row * obs["instruction"]).sum() >= 3  # "do", "not", "disturb" in the same buckets
    assert obs["instruction"].sum() >= 4


def test_the_instruction_tells_tasks_apart() -> None:
    a = mobile_gym.policy_env("settings-turn-off-wifi").reset(seed=0)[0]["instruction"]
    b = mobile_gym.policy_env("settings-turn-airplane-mode").reset(seed=0)[0]["instruction"]
    assert not same(a, b)


@pytest.mark.slow
def test_minilm_features_embed_the_instruction_and_score_labels() -> None:
    env = mobile_gym.policy_env("settings-set-disturb", wrapper_kwargs={"ElementFeatures": {"text_encoder": "minilm"}})
    obs, _ = env.reset(seed=0)
    assert obs["instruction"].shape == (384,)
    assert abs(float(np.linalg.norm(obs["instruction"])) - 1.0) < 1e-4
    assert env.observation_space.contains(obs)
    twin = pickle.loads(pickle.dumps(env))
    assert same(twin.reset(seed=0)[0], obs)


@pytest.mark.parametrize("kwargs", [{"text_dims": 0}, {"id_dims": "8"}, {"text_encoder": "bert"},
                                    {"max_elements": 5000}])
def test_bad_feature_arguments_are_config_errors(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        ElementFeatures(gym.make("LlamaTouch/settings-open-v0"), **kwargs)


# ---------------------------------------------------------------- info, tasks, vector envs, SB3
def test_trim_info_keeps_the_named_keys_and_sb3s_success_name() -> None:
    env = TrimInfo(gym.make("LlamaTouch/settings-open-v0"), keys=("success",))
    _, info = env.reset(seed=0)
    assert info == {"success": False, "is_success": False}
    with pytest.raises(ConfigError):
        TrimInfo(gym.make("LlamaTouch/settings-open-v0"), keys="success")


def test_a_task_sampler_draws_every_variant_reproducibly() -> None:
    env = mobile_gym.policy_env("settings-turn-*", profiles=["pixel-6", "pixel-3"])
    drawn = [env.reset(seed=s)[1]["task"] for s in range(40)]
    assert len(set(drawn)) == 8 and drawn == [env.reset(seed=s)[1]["task"] for s in range(40)]
    assert all(t.rsplit("@", 1)[1] in ("pixel-6", "pixel-3") for t in drawn)
    with pytest.raises(ConfigError):
        TaskSampler([gym.make("LlamaTouch/settings-open-v0"), mobile_gym.policy_env("settings-open")])


@pytest.mark.parametrize("kwargs", [{"preset": "voxels"}, {"profiles": []}, {"dynamics": [3]},
                                    {"wrapper_kwargs": {"GridTaps": {}}}])
def test_bad_policy_env_arguments_are_config_errors(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        mobile_gym.policy_env("settings-open", **kwargs)


def test_unknown_tasks_name_the_close_ones() -> None:
    with pytest.raises(UnknownTaskError, match="settings-open"):
        mobile_gym.policy_env("settings-opn")


def test_the_same_wrappers_work_through_gymnasiums_make_vec() -> None:
    envs = gym.make_vec("LlamaTouch/settings-open-v0", num_envs=2, vectorization_mode="sync",
                        wrappers=[DiscreteElementActions, ElementFeatures, TrimInfo])
    obs, info = envs.reset(seed=0)
    assert obs["elements"].shape == (2, 48 * 109)
    settings = next(e.index for e in envs.envs[0].unwrapped.elements if e.label == "Settings")
    obs, reward, terminated, truncated, info = envs.step(np.array([settings, settings]))
    assert reward.tolist() == [1.0, 1.0] and info["is_success"].all()
    envs.close()


@pytest.mark.slow
@pytest.mark.parametrize("vec", ["dummy", "subproc"])
def test_make_vec_env_trains_maskable_ppo(vec: str, tmp_path) -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    venv = mobile_gym.make_vec_env("settings-open", n_envs=2, vec=vec, seed=0, monitor_dir=str(tmp_path))
    venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (2, 70) and masks[:, :11].all() and not masks[:, 11:48].any()
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(128)
    venv.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0.monitor.csv", "1.monitor.csv"]


@pytest.mark.slow
def test_plain_ppo_learns_on_the_preset_without_masks() -> None:
    from stable_baselines3 import PPO

    venv = mobile_gym.make_vec_env("settings-open", n_envs=2, vec="dummy", seed=0)
    PPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0).learn(128)
    venv.close()


@pytest.mark.parametrize("preset", PRESETS)
def test_ppo_kwargs_are_arguments_sb3s_ppo_takes(preset: str) -> None:
    from stable_baselines3 import PPO

    kwargs = mobile_gym.ppo_kwargs(preset)
    venv = mobile_gym.make_vec_env("settings-open", n_envs=1, preset=preset, vec="dummy")
    model = PPO("MultiInputPolicy" if preset == "elements" else "CnnPolicy", venv, **kwargs, device="cpu")
    venv.close()
    assert (model.n_steps, model.batch_size, model.gamma, model.ent_coef) == (
        kwargs["n_steps"], kwargs["batch_size"], kwargs["gamma"], kwargs["ent_coef"])
    arch = list(kwargs["policy_kwargs"]["net_arch"])
    assert model.policy.net_arch == arch
    kwargs["policy_kwargs"]["net_arch"].append(8)  # a copy: the next caller gets the settings again
    assert mobile_gym.ppo_kwargs(preset)["policy_kwargs"]["net_arch"] == arch


def test_ppo_kwargs_of_an_unknown_preset_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="elements, pixels"):
        mobile_gym.ppo_kwargs("voxels")


def test_make_vec_env_checks_its_arguments_in_the_caller() -> None:
    with pytest.raises(ConfigError):
        mobile_gym.make_vec_env("settings-open", n_envs=0)
    with pytest.raises(ConfigError):
        mobile_gym.make_vec_env("settings-open", vec="ray")
    with pytest.raises(ConfigError):
        mobile_gym.make_vec_env("settings-open", preset="voxels", vec="subproc")
