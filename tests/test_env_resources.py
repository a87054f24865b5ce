"""What envs and tasks hold: shipped tasks are shared, not copied; task data keeps no
screen it does not judge; an env's pickle does not grow with its episode; the caches
shared by a process are bounded."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import textwrap

import gymnasium as gym

import mobile_gym  # noqa: F401 - registers the envs
from mobile_gym.actions import ActionType
from mobile_gym.agents import RandomAgent
from mobile_gym.agents.random_agent import DEFAULT_WEIGHTS
from mobile_gym.env import MobileEnv
from mobile_gym.matcher import evaluate_trace
from mobile_gym.tasks.definition import read_tasks
from mobile_gym.tasks.suite import simulator_tasks

#: A task judged on pixels: the icon of a Settings row has neither text nor description.
ICON_TASK = """
- id: icon-task
  instruction: Open the network settings
  app: settings
  category: general
  setup: {launch: settings}
  steps: 1
  golden_path:
    - tap: "Network & internet"
  checkpoints:
    - at: 0
      check: [activity, {exact: {resource_id: "android:id/icon", row: "Network & internet"}},
              {click: "Network & internet"}]
  oracle: settings.network_page_opened
"""


def test_shipped_tasks_pickle_and_copy_as_references_to_the_process_copy() -> None:
    for task in simulator_tasks().values():
        data = pickle.dumps(task)
        assert len(data) < 1000, task.id
        assert pickle.loads(data) is task and copy.deepcopy(task) is task


def test_task_data_keeps_no_screenshot_it_does_not_judge() -> None:
    judged = []
    for task in simulator_tasks().values():
        # full-size screens made every task's annotation 29-107 MB; dumps are what is judged
        size = len(pickle.dumps(task.annotation))
        for route in [task.annotation, *task.annotation.alternatives]:  # the dumps parsed
            for state in [*route.ground_truth, *(c.screen.state for c in route.checkpoints)]:
                state.hierarchy
        assert len(pickle.dumps(task.annotation)) == size, task.id  # each dump travels once
        if task.annotation.judges_pixels:  # its routes' screens, pickled as PNG (~110 KB each)
            judged.append(task.id)
            assert size < 4 * 2**20, task.id
        else:
            assert size < 2**20, task.id
    assert judged == ["settings-set-system-dark"]  # the dark background shows the theme changed


def test_a_task_judged_on_pixels_keeps_its_screens_and_pickles_without_its_replay(tmp_path) -> None:
    path = tmp_path / "icon.yaml"
    path.write_text(ICON_TASK)
    task, = read_tasks(path)
    annotation = task.annotation
    assert annotation.judges_pixels
    assert annotation.checkpoints[0].screen.state.image.size == (1080, 2400)
    assert evaluate_trace(annotation, task.ground_truth[0], mobile_gym.env.shared_matcher()).success
    env = MobileEnv(task)  # judges full-size screens, not the observed quarter-size ones
    env.reset(seed=0)
    *_, terminated, _, info = env.step(task.ground_truth[0].actions[0])
    assert terminated and info["success"]
    data = pickle.dumps(task)  # not a shipped task: its definition, not its screens
    assert len(data) < 20_000
    clone = pickle.loads(data)
    assert clone == task and [str(c) for c in clone.annotation.checkpoints] == [str(c) for c in annotation.checkpoints]


def test_an_envs_pickle_does_not_grow_with_its_episode() -> None:
    env = gym.make("LlamaTouch/bestbuy-empty-cart-v0", max_episode_steps=100)
    weights = {k: w for k, w in DEFAULT_WEIGHTS.items() if k not in (ActionType.COMPLETE, ActionType.IMPOSSIBLE)}
    agent = RandomAgent(4, weights=weights)
    obs, info = env.reset(seed=4)
    sizes = []
    for step in range(1, 41):
        obs, _, terminated, _, info = env.step(agent.act(obs, info))
        assert not terminated
        if step in (5, 40):
            sizes.append(len(pickle.dumps(env)))
    # the env keeps the last step, not all of them: ~16 KB of dump per step otherwise
    assert sizes[1] - sizes[0] < 100_000, sizes


def test_the_process_wide_matchers_and_embedders_are_few() -> None:
    """One matcher and embedder per model name, however the default is spelled; a handful
    are kept, the least recently used dropped first. In a fresh interpreter, so that this
    process keeps its own (and its loaded model)."""
    code = textwrap.dedent("""
        from mobile_gym.env import shared_matcher
        from mobile_gym.matcher import shared_embedder
        assert shared_matcher() is shared_matcher(None) and shared_embedder() is shared_embedder(None)
        first = shared_matcher("model-0")
        assert shared_matcher("model-0") is first and first.embedder is shared_embedder("model-0")
        for i in range(1, 20):
            shared_matcher(f"model-{i}").embedder  # builds both; loads no model
        print(shared_matcher("model-0") is first, shared_embedder("model-0") is first.embedder)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
