"""Simulator tasks, driven by the suite: each loads, replays, is annotated on its own
golden path, starts unsolved and is solved by its golden path (matcher and oracle)."""

from __future__ import annotations

import pytest

from mobile_gym.errors import TaskError
from mobile_gym.matcher import Matcher, evaluate_trace
from mobile_gym.tasks.catalogue import llamatouch_catalogue
from mobile_gym.tasks.definition import read_tasks
from mobile_gym.tasks.suite import simulator_tasks
from mobile_gym.trace import Trace

TASKS = sorted(simulator_tasks())


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher()


@pytest.mark.parametrize("task_id", TASKS)
def test_task_matches_its_llamatouch_entry(task_id: str) -> None:
    task = simulator_tasks()[task_id]
    entry = llamatouch_catalogue().get(task_id)
    if task.episode is not None:
        assert entry is not None, f"{task_id} names episode {task.episode} but is not in the catalogue"
        assert (task.instruction, task.episode, task.category) == (entry.instruction, entry.episode, entry.category)


@pytest.mark.parametrize("task_id", TASKS)
def test_golden_path_solves_the_task_and_the_start_does_not(task_id: str, matcher: Matcher) -> None:
    task = simulator_tasks()[task_id]
    trace, _ = task.ground_truth
    result = evaluate_trace(task.annotation, trace, matcher)
    assert result.success, "\n".join(result.explanations)
    start = evaluate_trace(task.annotation, Trace.from_states([trace[0]]), matcher)
    assert not start.success and start.progress < 1
    phone = task.device(seed=0, dynamics="none")
    assert not task.succeeded(phone), "the oracle holds before the agent acts"
    task.replay(phone, screenshots=False)
    assert task.succeeded(phone)


GOOD = """
- id: demo-task
  instruction: Turn on airplane mode
  app: settings
  category: general
  setup: {launch: settings}
  steps: 2
  golden_path:
    - tap: "Network & internet"
    - tap: {class_name: android.widget.Switch, row: "Airplane mode"}
  checkpoints:
    - at: 2
      check: [activity, {exact: {class_name: android.widget.Switch, row: "Airplane mode"}}]
  oracle: settings.airplane_on
"""


@pytest.mark.parametrize("change, problem", [
    (("oracle: settings.airplane_on", "oracle: nope"), "field 'oracle': unknown oracle 'nope'"),
    (("  app: settings\n", ""), "missing field(s) app"),
    (("category: general", "category: general\n  colour: red"), "unknown field(s) colour"),
    (("- tap: \"Network & internet\"", "- jump: 3"), "field 'golden_path': unknown or malformed step"),
    (("- tap: \"Network & internet\"", "- fly"), "unknown step 'fly'"),
    (("- at: 2", "- at: -1"), "'at' must be a non-negative integer"),
    (("      check: [activity, ", "      check: [activity]\n    - at: 2\n      check: [activity, "),
     "'at' must increase from one checkpoint to the next"),
    (("[activity, ", "[colour, "), "a check is 'activity' or a one-key mapping, got 'colour'"),
    (("[activity, ", "[{colour: 1}, "), "unknown or malformed check"),
    (("{exact: {class_name", "{exact: {colour"), "unknown selector attribute(s) colour"),
    (("  steps: 2\n", ""), "missing field(s) steps"),
    (("steps: 2", "steps: 0"), "field 'steps': must be a positive integer, got 0"),
    (("steps: 2", "steps: two"), "field 'steps': must be a positive integer, got 'two'"),
    (("steps: 2", "steps: 2\n  backends: [sim, cloud]"), "field 'backends': unknown backend 'cloud' (backends: sim, device)"),
])
def test_malformed_task_files_name_the_task_and_field(tmp_path, change, problem) -> None:
    path = tmp_path / "tasks.yaml"
    path.write_text(GOOD.replace(*change))
    with pytest.raises(TaskError, match=problem.replace("(", r"\(").replace(")", r"\)")) as err:
        read_tasks(path)
    assert err.value.path == path and "demo-task" in str(err.value)


@pytest.mark.parametrize("change, problem", [
    (('- tap: "Network & internet"', '- tap: "Network and internet"'),
     "golden-path step 1 (tap text='Network and internet')"),
    (('- at: 2', '- at: 7'), "checkpoint 1: 'at' must be 0..2"),
    (('{exact: {class_name: android.widget.Switch, row: "Airplane mode"}}', '{exact: "Bluetooth"}'),
     "checkpoint 1 exact: no node with text='Bluetooth'"),
    (('[activity, ', '[{click: "Data Saver"}, '), "checkpoint 1 click: the golden path does not tap"),
    (('setup: {launch: settings}', 'setup: {launch: nowhere}'), "setup: unknown app 'nowhere'"),
    (('steps: 2', 'steps: 3'), "golden path takes 2 actions (steps says 3); set steps: 2"),
])
def test_a_task_that_does_not_resolve_fails_loudly(tmp_path, change, problem) -> None:
    path = tmp_path / "tasks.yaml"
    path.write_text(GOOD.replace(*change))
    task, = read_tasks(path)
    with pytest.raises(TaskError) as err:
        task.annotation  # noqa: B018 - replays the golden path
    assert problem in str(err.value) and "demo-task" in str(err.value)


# the same switch, by tapping its row: an alternative route (the task file's form)
ALTERNATIVE = GOOD + """\
  alternatives:
    - golden_path:
        - tap: "Network & internet"
        - tap: "Airplane mode"
      checkpoints:
        - at: 2
          check: [activity, {exact: "Airplane mode"}, {exact: {class_name: android.widget.Switch, row: "Airplane mode"}}]
"""


def test_an_alternative_route_is_annotated_on_its_own_replay(matcher: Matcher, tmp_path) -> None:
    path = tmp_path / "tasks.yaml"
    path.write_text(ALTERNATIVE)
    task, = read_tasks(path)
    annotation = task.annotation
    assert len(annotation.routes) == 2 and [len(r) for r in annotation.routes] == [1, 1]
    alternative = annotation.alternatives[0]
    assert alternative.ground_truth is not None and len(alternative.ground_truth) == 3
    assert str(alternative.checkpoints[0]).startswith("screen 2: activity<")
    assert evaluate_trace(alternative, alternative.ground_truth, matcher).success
    # the switch is on at the end of both: the task's own route, first, is the one credited
    assert evaluate_trace(annotation, alternative.ground_truth, matcher).route == 0


def changed_alternative(folder, change: tuple[str, str]):
    """A task file: `ALTERNATIVE` with one change made."""
    text = ALTERNATIVE.replace(*change)
    assert text != ALTERNATIVE
    path = folder / "tasks.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("change, problem", [
    (("  alternatives:\n    - golden_path:", "  alternatives: yes\n  x:\n    - golden_path:"),
     "unknown field(s) x"),
    (("  alternatives:\n    - golden_path:", "  alternatives:\n      golden_path:"),
     "field 'alternatives': must be a list of routes"),
    ((ALTERNATIVE.split("      checkpoints:")[1], "\n"), "field 'alternatives': route 1: checkpoints: must be a non-empty list"),
    (("      checkpoints:\n        - at: 2\n          check: [activity, {exact: \"Air", "      checks:\n        - at: 2\n          check: [activity, {exact: \"Air"),
     "field 'alternatives': route 1: must be a mapping with exactly golden_path and checkpoints"),
    (('        - tap: "Airplane mode"', "        - fly"), "field 'alternatives': route 1: golden_path: unknown step 'fly'"),
    (("          check: [activity, {exact", "          check: [{colour: 1}, {exact"),
     "field 'alternatives': route 1: checkpoints: unknown or malformed check"),
])
def test_malformed_alternative_routes_name_the_route(tmp_path, change, problem) -> None:
    with pytest.raises(TaskError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        read_tasks(changed_alternative(tmp_path, change))


@pytest.mark.parametrize("change, problem", [
    (('        - tap: "Airplane mode"', '        - tap: "Airplane"'),
     "alternative route 1: golden-path step 2 (tap text='Airplane')"),
    (("        - at: 2\n          check: [activity, {exact: \"Airplane", "        - at: 5\n          check: [activity, {exact: \"Airplane"),
     "alternative route 1: checkpoint 1: 'at' must be 0..2"),
    (('{exact: "Airplane mode"}, {exact: {class', '{exact: "Bluetooth"}, {exact: {class'),
     "alternative route 1: checkpoint 1 exact: no node"),
])
def test_an_alternative_route_that_does_not_resolve_fails_loudly(tmp_path, change, problem) -> None:
    task, = read_tasks(changed_alternative(tmp_path, change))
    with pytest.raises(TaskError) as err:
        task.annotation  # noqa: B018 - replays every route
    assert problem in str(err.value) and "demo-task" in str(err.value)


@pytest.mark.parametrize("task_id", TASKS)
def test_declared_steps_are_the_golden_path_length(task_id: str) -> None:
    """Registration reads ``steps`` instead of replaying; the replay keeps it honest."""
    task = simulator_tasks()[task_id]
    trace, _ = task.ground_truth  # raises TaskError "golden path takes N actions (steps says M); set steps: N"
    assert task.steps == len(trace) - 1


@pytest.mark.parametrize("task_id", TASKS)
def test_app_name_is_the_catalogue_spelling(task_id: str) -> None:
    task = simulator_tasks()[task_id]
    entry = llamatouch_catalogue().get(task_id)
    assert entry is None or task.app_name in entry.app_names, (task.app_name, entry.app_names)
    assert task.app_name[0].isupper()


def test_the_suite_uses_every_keyword_five_times_and_multi_checkpoint_tasks() -> None:
    """Every keyword is used by at least five tasks, but check_uninstall: LlamaTouch has
    three uninstall tasks, and the suite holds them all."""
    from collections import Counter

    from mobile_gym.matcher.annotation import Keyword

    uses: Counter = Counter()
    sizes: Counter = Counter()
    for task in simulator_tasks().values():
        kinds = set()
        for spec in task.checkpoints:
            for check in spec.checks:
                kind = check.keyword.value
                if check.keyword is Keyword.FUZZY:
                    kind = "fuzzy<-1>" if check.selector is None else "fuzzy<n>"
                kinds.add(kind)
        uses.update(kinds)
        sizes[len(task.checkpoints)] += 1
    assert len(simulator_tasks()) >= 130
    expected = {"activity", "exact", "exclude", "fuzzy<n>", "fuzzy<-1>", "click", "type", "check_install"}
    assert {k for k, n in uses.items() if n >= 5} >= expected, uses
    uninstall = {t.id for t in llamatouch_catalogue().values() if t.instruction.startswith("Uninstall")}
    assert len(uninstall) == 3 and uninstall <= set(simulator_tasks()) and uses["check_uninstall"] == 3, uses
    assert sizes[2] and sizes[3], sizes


def test_a_click_named_by_its_row_is_judged_on_that_row_wherever_it_stands(matcher: Matcher) -> None:
    # tasks-mark-task2-complete: the tap on Task2's checkbox, annotated with Task1 above it.
    # Swapped, Task1's checkbox stands where Task2's stood: a tap there is not the click
    from mobile_gym.actions import Action
    from mobile_gym.simulator import SimulatedDevice
    from mobile_gym.tasks.selectors import Selector
    from mobile_gym.ui.hierarchy import ViewHierarchy

    task = simulator_tasks()["tasks-mark-task2-complete"]
    checkpoint = task.annotation.checkpoints[0]
    click = next(p for p in checkpoint.primitives if p.keyword.value == "click")
    assert "Task2" in checkpoint.screen.component(click.index, click).xpath
    phone = SimulatedDevice(seed=0, dynamics="none", setup={
        "launch": "googletasks", "apps": {"googletasks": {"lists": [{"name": "My Tasks", "tasks": ["Task2", "Task1"]}]}}})
    state = phone.observe(screenshot=False)
    hierarchy = ViewHierarchy(state.xml)
    width, height = state.screen_size

    def tap(row: str) -> Action:
        box = Selector(content_desc="Mark as complete", row=row).find(hierarchy).bounds
        return Action.click(box.center[0] / width, box.center[1] / height)

    annotated = task.ground_truth[0][task.ground_truth[1][2]].hierarchy
    task2_box = Selector(content_desc="Mark as complete", row="Task2").find(annotated).bounds
    task1_box = Selector(content_desc="Mark as complete", row="Task1").find(hierarchy).bounds
    assert task1_box == task2_box  # Task1's checkbox is where the annotated tap landed
    assert matcher.check(checkpoint, state, action=tap("Task2")).matched
    assert not matcher.check(checkpoint, state, action=tap("Task1")).matched


def test_every_keyword_is_used_by_five_tasks_of_the_suite() -> None:
    # what the faithfulness benchmark measures each keyword on; fuzzy<-1> is the whole
    # screen (a check without a selector). LlamaTouch has three uninstall tasks in all,
    # and the suite has all three (each with a second route, through Settings)
    from mobile_gym.matcher.annotation import Keyword

    users: dict[str, set[str]] = {}
    for task in simulator_tasks().values():
        for route in task.routes:
            for spec in route.checkpoints:
                for check in spec.checks:
                    word = check.keyword.value
                    if check.keyword is Keyword.FUZZY and check.selector is None:
                        word = "fuzzy<-1>"
                    users.setdefault(word, set()).add(task.id)
    wanted = {k.value: 5 for k in Keyword} | {"fuzzy<-1>": 5, "check_uninstall": 3}
    counts = {word: len(users.get(word, ())) for word in wanted}
    assert all(counts[word] >= n for word, n in wanted.items()), counts
    catalogue = llamatouch_catalogue().values()
    assert users["check_uninstall"] == {e.id for e in catalogue if e.instruction.startswith("Uninstall")}
