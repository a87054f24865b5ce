"""Suggested annotations (issue 14): drawn from the explorer's routes, printed in the task
format, and measured on the routes exactly as printed."""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np
import pytest
import yaml

from mobile_gym.authoring.explorer import Exploration, ExploreConfig, explore
from mobile_gym.authoring import suggest as suggest_module
from mobile_gym.authoring.suggest import (Fact, SuggestConfig, Suggestion, _credited, parse_checkpoints, render_yaml,
                                          selector_for, suggest_annotation)
from mobile_gym.authoring.validate import judge_routes, score
from mobile_gym.cli import main
from mobile_gym.errors import ConfigError, TaskError
from mobile_gym.matcher import Matcher
from mobile_gym.matcher.annotation import Keyword
from mobile_gym.tasks.definition import read_tasks
from mobile_gym.tasks.selectors import Selector
from mobile_gym.tasks.suite import simulator_tasks

#: Bounded by states, not time, so that runs repeat exactly; a few seconds each.
SMALL = ExploreConfig(max_states=30, time_budget=600, max_routes=10, max_failures=10)


@pytest.fixture(scope="module")
def airplane() -> Suggestion:
    return suggest_annotation(explore("settings-turn-airplane-mode", seed=3, config=SMALL))


def _as_task_file(task_id: str, block: str, folder) -> list:
    """The task's entry from its shipped file with the checkpoints block pasted in, read by
    the task loader."""
    task = simulator_tasks()[task_id]
    entries = yaml.safe_load(task.source.read_text(encoding="utf-8"))
    entry = next(e for e in entries if e["id"] == task_id)
    entry["checkpoints"] = yaml.safe_load(block)["checkpoints"]
    path = folder / "suggested.yaml"
    path.write_text(yaml.safe_dump([entry], allow_unicode=True, sort_keys=False), encoding="utf-8")
    return read_tasks(path)


def test_suggestion_credits_every_route_right(airplane: Suggestion) -> None:
    found = airplane.exploration
    assert len(found.successes) >= 2 and len(found.failures) >= 5  # the switch, the row; near misses
    assert airplane.score.recall == 1 and airplane.score.precision == 1 and airplane.perfect
    assert all(v.right for v in airplane.verdicts)
    last = airplane.checkpoints[-1]
    assert any(c.keyword is Keyword.ACTIVITY for c in last.checks)
    assert all(c.keyword in (Keyword.ACTIVITY, Keyword.EXACT, Keyword.EXCLUDE) for c in last.checks)


def test_printed_yaml_loads_back_as_a_task_that_scores_the_same(airplane: Suggestion, tmp_path) -> None:
    assert "checkpoints:" in airplane.yaml and "recall 100.0%, precision 100.0%" in airplane.yaml
    [task] = _as_task_file("settings-turn-airplane-mode", airplane.yaml, tmp_path)
    assert task.checkpoints == airplane.checkpoints
    again = score(judge_routes(airplane.exploration, task.annotation))
    assert again == airplane.score == score(judge_routes(airplane.exploration, airplane.annotation))


def test_yaml_is_indented_as_a_task_field(airplane: Suggestion) -> None:
    body = [line for line in airplane.yaml.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert body[0] == "  checkpoints:" and body[1].startswith("    - at: ") and body[2] == "      check:"
    assert all(line.startswith("        - ") for line in body[3:] if "at:" not in line and "check:" not in line)


@pytest.mark.slow
def test_wifi_suggestion_says_wifi_is_off_and_scores_like_the_hand_written_one() -> None:
    found = explore("settings-turn-off-wifi", seed=0, config=ExploreConfig(max_states=120, time_budget=600,
                                                                            max_routes=20, max_failures=10))
    suggestion = suggest_annotation(found)
    assert suggestion.perfect, suggestion.yaml
    assert suggestion.checkpoints[-1].at == len(simulator_tasks()["settings-turn-off-wifi"].golden_path)
    assert len(suggestion.checkpoints) <= 2


def test_suggestion_from_a_task_id_explores_first() -> None:
    suggestion = suggest_annotation("settings-open", config=ExploreConfig(max_states=30, time_budget=600,
                                                                          max_routes=5, max_failures=5),
                                    suggest=SuggestConfig(max_checkpoints=1, max_checks=2))
    assert suggestion.task == "settings-open" and suggestion.perfect
    assert len(suggestion.checkpoints) == 1 and len(suggestion.checkpoints[0].checks) <= 2


class HashEmbedder:
    """A stand-in for the sentence model: a pseudo-random unit vector per text, so that
    only equal texts are similar (no model to load)."""

    def embed(self, texts):
        rows = [np.random.default_rng(int.from_bytes(hashlib.sha256(t.encode()).digest()[:8], "big"))
                .normal(size=384) for t in texts]
        return np.array([r / np.linalg.norm(r) for r in rows])


def test_fuzzy_facts_hold_wherever_the_exact_ones_do(airplane: Suggestion) -> None:
    """Fuzzy candidates are judged by the matcher itself; the same text is similar text,
    so a fuzzy fact holds at least where its exact fact does. Some failing routes are
    called successful here so that the routes end on different screens."""
    found, matcher = airplane.exploration, Matcher(embedder=HashEmbedder())
    task = simulator_tasks()[found.task]
    flags = tuple(matcher.config.exact_flags)
    routes = [*found.successes, *(dataclasses.replace(r, success=True) for r in found.failures[:4]),
              *found.failures[4:]]
    screens = [(r, [suggest_module._screen(s, a, flags)
                    for s, a in zip(suggest_module.route_screens(task, found, r), [*r.actions, None])])
               for r in routes]
    space = suggest_module._Space(screens, suggest_module._references(task, flags), [])
    space.add_fuzzy_facts(matcher, limit=5)
    fuzzy = [f for f in space.masks if f.kind == "fuzzy"]
    assert 0 < len(fuzzy) <= 5
    for f in fuzzy:
        exact = space.masks[Fact("exact", f.key)]
        assert space.masks[f] & exact == exact and space.anchors[f] == space.anchors[Fact("exact", f.key)]


def test_no_successful_route_is_a_config_error(airplane: Suggestion) -> None:
    empty = dataclasses.replace(airplane.exploration, successes=[])
    with pytest.raises(ConfigError, match="no successful route"):
        suggest_annotation(empty)


@pytest.mark.parametrize("field, value", [("max_checkpoints", 0), ("max_checks", -1), ("max_checks", True),
                                         ("fuzzy", -1), ("fuzzy", 1.5)])
def test_bad_suggest_config(field: str, value) -> None:
    with pytest.raises(ConfigError, match=field):
        SuggestConfig(**{field: value})


def test_credited_follows_the_trackers_order_and_moves() -> None:
    """Screens 0..3 of one route; checkpoints as (mask, judged on the move)."""
    assert _credited([(0b1000, False)], 0, 3) == 3
    assert _credited([(0b0110, False), (0b1100, False)], 0, 3) == 2  # second on a later screen than the first
    assert _credited([(0b0100, False), (0b0100, False)], 0, 3) is None  # never on the same screen
    assert _credited([(0b0100, True)], 0, 3) == 3  # a click on screen 2 is the third move
    assert _credited([(0b0001, False)], 0, 3) == 0  # holds on the start screen: credited at once
    assert _credited([(0b1 << 5, False)], 4, 6) == 1  # a route that starts at screen 4


def test_selector_for_a_switch_names_its_row() -> None:
    task = simulator_tasks()["settings-turn-airplane-mode"]
    trace, starts = task.ground_truth
    hierarchy = trace[starts[-1]].hierarchy
    switch = Selector(class_name="android.widget.Switch", row="Airplane mode").find(hierarchy)
    flags = ("checked", "checkable", "enabled")
    selector = selector_for(switch, hierarchy, flags)
    assert selector.get("row") == "Airplane mode" and "text" not in selector
    assert Selector(**selector).find(hierarchy) is switch
    title = hierarchy.find(text="Airplane mode")
    assert selector_for(title, hierarchy, flags) == {"text": "Airplane mode"}


def test_render_yaml_round_trips_awkward_texts() -> None:
    task = simulator_tasks()["settings-turn-airplane-mode"]
    checks = ["activity", {"exact": "OFF"}, {"exact": {"text": "a: b # 'c' \"d\"", "nth": 1}},
              {"exclude": "Wi‑Fi"}, {"check_install": "NewsBreak: Local News & Alerts"}, {"type": "yes"}]
    text = render_yaml([{"at": 1, "check": checks}], comment="two\nlines")
    assert text.startswith("  # two\n  # lines\n  checkpoints:")
    assert yaml.safe_load(text)["checkpoints"] == [{"at": 1, "check": checks}]
    specs = parse_checkpoints(text, task).checkpoints
    assert [c.keyword for c in specs[0].checks] == [Keyword.ACTIVITY, Keyword.EXACT, Keyword.EXACT,
                                                    Keyword.EXCLUDE, Keyword.CHECK_INSTALL, Keyword.TYPE]
    assert specs[0].checks[2].selector == Selector(text="a: b # 'c' \"d\"", nth=1)


def test_parse_checkpoints_rejects_malformed_blocks() -> None:
    task = simulator_tasks()["settings-open"]
    for text in ("checkpoints: [{at: 1}]", "checkpoints:\n  - at: 2\n    check: [activity]\n  - at: 1\n"
                 "    check: [activity]\n", "nothing: here", "[unclosed"):
        with pytest.raises(TaskError):
            parse_checkpoints(text, task)


def test_cli_annotate_suggest(capsys) -> None:
    code = main(["annotate", "--suggest", "LlamaTouch/settings-turn-airplane-mode-v0", "--max-states", "30",
                 "--routes", "10", "--failures", "10", "--seed", "3", "--compare"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "recall 100.0%, precision 100.0%" in out and "the task's own annotation: recall" in out
    assert "routes the suggestion judges wrong" not in out
    block = yaml.safe_load(out)  # everything but the block is a comment: it pastes as it is
    assert set(block) == {"checkpoints"} and block["checkpoints"][-1]["at"] == 2


@pytest.mark.parametrize("argv, message", [
    (["annotate", "--suggest", "no-such-task"], "no-such-task"),
    (["annotate", "--suggest", "settings-*"], "name one"),
    (["annotate", "settings-open"], "--suggest"),
])
def test_cli_annotate_rejects_bad_input(argv, message, capsys) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_refresh_is_annotated_by_the_tap_when_no_screen_shows_it() -> None:
    """Refreshing a page leaves it as it was: only the tap on Refresh tells the routes
    apart, so the suggestion falls back on ``click``."""
    found: Exploration = explore("chrome-refresh-tabs", seed=0, config=ExploreConfig(
        max_states=300, time_budget=600, max_routes=15, max_failures=15))
    suggestion = suggest_annotation(found)
    assert suggestion.perfect, suggestion.yaml
    assert any(c.keyword is Keyword.CLICK for c in suggestion.checkpoints[-1].checks)
