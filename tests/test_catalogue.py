"""The LlamaTouch task catalogue: complete, faithful to the metadata, ids well formed."""

from __future__ import annotations

import csv
import re

import pytest
from screens import METADATA_TSV

from mobile_gym.errors import FormatError
from mobile_gym.tasks.catalogue import CatalogueTask, llamatouch_catalogue, read_catalogue


def test_every_llamatouch_task_is_in_the_catalogue_as_in_the_metadata() -> None:
    with open(METADATA_TSV, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    catalogue = llamatouch_catalogue()
    assert len(rows) == len(catalogue) == 495
    by_episode = {t.episode: t for t in catalogue.values()}
    for row in rows:
        task = by_episode[row["episode"]]
        assert (task.instruction, task.category, task.path, task.steps) == (
            row["description"], row["category"], row["path"], int(row["nsteps"]))
        assert ", ".join(task.apps) == row["app"]


def test_ids_are_app_first_kebab_case_short_and_unique() -> None:
    catalogue = llamatouch_catalogue()
    for task in catalogue.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", task.id) and len(task.id) <= 40, task.id
        assert task.env_id == f"LlamaTouch/{task.id}-v0"
    assert len({t.env_id for t in catalogue.values()}) == 495
    examples = {
        "bestbuy-empty-cart": "Empty the shopping cart on bestbuy.",
        "newegg-empty-cart": "Empty the shopping cart on newegg.com.",
        "amazon-view-cart": "View the shopping cart on amazon.",
        "settings-turn-off-wifi": "Turn off wifi",
        "clock-set-alarm-9am": "Set an alarm for 9am",
    }
    for task_id, instruction in examples.items():
        assert catalogue[task_id].instruction == instruction


def test_difficulty_buckets_follow_llamatouch() -> None:
    task = next(iter(llamatouch_catalogue().values()))
    make = lambda steps: CatalogueTask(**{**task.__dict__, "steps": steps})  # noqa: E731
    assert [make(s).difficulty for s in (1, 4, 5, 8, 9, 30)] == ["easy", "easy", "medium", "medium", "hard", "hard"]


GOOD = '''- id: demo-task
  episode: "1"
  category: general
  path: general/trace_1
  instruction: "Do it"
  steps: 3
  app: "Settings"
'''


@pytest.mark.parametrize("text, problem", [
    ("{not: [a list", "not valid YAML"),
    ("id: x\n", "expected a list of tasks"),
    ("- 3\n", "entry 0: expected a mapping"),
    (GOOD.replace("  steps: 3\n", ""), "entry 0 (demo-task): missing field(s) steps"),
    (GOOD + "  colour: red\n", "unknown field(s) colour"),
    (GOOD.replace("steps: 3", "steps: three"), "field 'steps' must be a non-empty int"),
    (GOOD.replace("id: demo-task", "id: Demo_Task"), "field 'id' must be kebab-case"),
    (GOOD.replace('instruction: "Do it"', 'instruction: ""'), "field 'instruction'"),
    (GOOD + GOOD, "entry 1: duplicate id 'demo-task'"),
    (GOOD + GOOD.replace("demo-task", "other-task"), "episode 1 is also task 'demo-task'"),
])
def test_a_malformed_catalogue_names_file_entry_and_field(tmp_path, text, problem) -> None:
    path = tmp_path / "tasks.yaml"
    path.write_text(text)
    with pytest.raises(FormatError, match=re.escape(problem)) as err:
        read_catalogue(path)
    assert err.value.path == path


def test_a_missing_catalogue_file_is_a_format_error(tmp_path) -> None:
    with pytest.raises(FormatError, match="cannot read"):
        read_catalogue(tmp_path / "nope.yaml")


def test_each_app_goes_by_one_name() -> None:
    from mobile_gym.tasks.catalogue import app_name

    tasks = llamatouch_catalogue().values()
    names = {name for task in tasks for name in task.app_names}
    assert len({n.lower() for n in names}) == len(names), sorted(names)
    assert {"Google Chrome", "Google Play Store", "Clock", "Settings", "YouTube"} <= names
    assert "chrome" not in names and app_name("chrome") == app_name("Google Chrome") == "Google Chrome"
    assert app_name("playstore") == "Google Play Store" and app_name("Pinterest") == "Pinterest"
    assert all(task.apps for task in tasks)  # LlamaTouch's own spelling stays in `apps`
