"""`mobile-gym export-dataset`: simulator tasks written in LlamaTouch's format A read
back with the dataset reader and judge their own golden paths as successes."""

from __future__ import annotations

from mobile_gym.cli import main
from mobile_gym.env import shared_matcher
from mobile_gym.formats.llamatouch import GroundTruthDataset
from mobile_gym.matcher import evaluate_trace
from mobile_gym.tasks.suite import simulator_tasks


def test_exported_tasks_load_as_a_llamatouch_dataset_and_match_their_golden_paths(tmp_path, capsys) -> None:
    assert main(["export-dataset", str(tmp_path)]) == 0
    tasks = simulator_tasks()
    assert f"wrote {len(tasks)} task(s)" in capsys.readouterr().out
    dataset = GroundTruthDataset(tmp_path)
    assert sorted(dataset.episodes()) == sorted(t.episode or t.id for t in tasks.values())
    for task in tasks.values():
        loaded = dataset.load(task.episode or task.id)
        assert loaded.instruction == task.instruction
        assert [str(c) for c in loaded.checkpoints] == [str(c) for c in task.annotation.checkpoints]
        golden = task.ground_truth[0]
        assert len(loaded.ground_truth) == len(golden)
        for ours, theirs in zip(golden.actions, loaded.ground_truth.actions):
            assert (ours is None) == (theirs is None) or theirs.action_type.name == "COMPLETE"
            if ours is not None:
                assert ours.action_type is theirs.action_type  # ENTER too: written as a click, read back
            if ours is not None and ours.touch is not None:
                assert abs(ours.touch[0] - theirs.touch[0]) < 0.01
        result = evaluate_trace(loaded, golden, shared_matcher())
        assert result.success, "\n".join(result.explanations)


def test_export_refuses_unknown_tasks_and_overwrites(tmp_path, capsys) -> None:
    assert main(["export-dataset", str(tmp_path), "--tasks", "no-such-task"]) == 2
    assert "no simulator task no-such-task" in capsys.readouterr().err
    first = sorted(simulator_tasks())[0]
    assert main(["export-dataset", str(tmp_path), "--tasks", first]) == 0
    assert main(["export-dataset", str(tmp_path), "--tasks", first]) == 2
    assert "already holds a trace" in capsys.readouterr().err


def test_enter_is_a_click_on_the_keyboard_key_that_llamatouch_reads(tmp_path) -> None:
    """LlamaTouch's loader knows Home, Back, Click, Swipe and Input lines only (it raises on
    anything else): an ENTER is the tap on the keyboard's Enter key, marked for our reader."""
    import re

    assert main(["export-dataset", str(tmp_path), "--tasks", "bestbuy-empty-cart"]) == 0
    (events,) = tmp_path.glob("**/eventStructs.txt")
    lines = events.read_text(encoding="utf-8").splitlines()
    assert any(line.endswith(" (Enter)") for line in lines)
    for line in lines:  # what LlamaTouch's loader takes: the first bracketed word names the action
        assert re.search(r"\[(?P<kind>.+)\]", line).group("kind") in ("Home", "Back", "Click", "Swipe", "Input")
