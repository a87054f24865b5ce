"""Batch report: labels, TCR/accuracy/precision/recall, CSV/JSON output, the table."""

from __future__ import annotations

import csv
import json

import pytest

from mobile_gym.errors import FormatError
from mobile_gym.evaluation.report import (
    EpisodeResult,
    format_matched,
    format_table,
    read_labels,
    summarize,
    write_episodes_csv,
    write_summary_json,
)


def r(episode, success, category="general", error=None, evaluator="essential"):
    return EpisodeResult(
        episode=episode, evaluator=evaluator, success=success, progress=1.0 if success else 0.5,
        error=error, category=category,
    )


# Human labels: a, b, c, d completed; e, f, g not.
LABELS = {"a": True, "b": True, "c": True, "d": True, "e": False, "f": False, "g": False}
RESULTS = [
    r("a", True),  # tp
    r("b", True, category="install"),  # tp
    r("c", False),  # fn
    r("d", True, error="d/3.png: screenshot is missing"),  # an error is never a match: fn
    r("e", True, category="install"),  # fp
    r("f", False),  # tn
    r("g", False, error="no execution trace at g"),  # tn
    r("h", True),  # unlabelled
]


def test_summary_metrics_on_a_known_confusion_matrix():
    s = summarize(RESULTS, LABELS)["essential"]
    assert s["episodes"] == 8
    assert s["completed"] == 4  # a, b, e, h (d errored)
    assert s["completion_rate"] == pytest.approx(0.5)
    assert s["errors"] == 2
    assert (s["tp"], s["fp"], s["tn"], s["fn"]) == (2, 1, 2, 2)
    assert s["labelled"] == 7
    assert s["accuracy"] == pytest.approx(4 / 7)
    assert s["precision"] == pytest.approx(2 / 3)
    assert s["recall"] == pytest.approx(2 / 4)


def test_per_category_completion_rates():
    cats = summarize(RESULTS)["essential"]["per_category"]
    assert cats == {
        "general": {"episodes": 6, "completed": 2, "completion_rate": pytest.approx(2 / 6)},
        "install": {"episodes": 2, "completed": 2, "completion_rate": 1.0},
    }


def test_without_labels_there_are_no_accuracy_fields_and_evaluators_are_separate():
    rows = [r("a", True), r("a", False, evaluator="action"), r("b", False, category=None, evaluator="action")]
    s = summarize(rows)
    assert list(s) == ["essential", "action"]
    assert "accuracy" not in s["essential"]
    assert s["action"]["completion_rate"] == 0.0
    assert "(none)" in s["action"]["per_category"]


def test_undefined_precision_and_recall_are_none():
    s = summarize([r("e", False), r("f", False)], {"e": False, "f": False})["essential"]
    assert s["accuracy"] == 1.0
    assert s["precision"] is None and s["recall"] is None
    none_labelled = summarize([r("x", True)], {"e": False})["essential"]
    assert none_labelled["labelled"] == 0 and none_labelled["accuracy"] is None


# -- labels -------------------------------------------------------------------------------------
def test_read_labels_accepts_spellings(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text(
        "episode,human\n1,True\n2,false\n3,TRUE\n4,0\n5,1\n6,yes\n7,No\n\n", encoding="utf-8"
    )
    assert read_labels(path) == {
        "1": True, "2": False, "3": True, "4": False, "5": True, "6": True, "7": False,
    }


def test_read_labels_ignores_extra_columns_and_a_bom(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("\ufeffagent,Episode,Human\nautodroid,42,True\n", encoding="utf-8")
    assert read_labels(path) == {"42": True}


@pytest.mark.parametrize(
    "content, line",
    [
        ("episode,verdict\n1,True\n", "line 1"),
        ("episode,human\n1,True\n2,maybe\n", "line 3"),
        ("episode,human\n1\n", "line 2"),
        ("episode,human\n,True\n", "line 2"),
        ("episode,human\n1,True\n1,False\n", "line 3"),
        ("", "line 1"),
    ],
)
def test_bad_labels_name_the_file_and_line(tmp_path, content, line):
    path = tmp_path / "labels.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_labels(path)
    assert str(path) in str(info.value) and line in str(info.value)


def test_missing_labels_file_is_a_format_error(tmp_path):
    with pytest.raises(FormatError, match="labels file is missing"):
        read_labels(tmp_path / "nope.csv")


# -- output -------------------------------------------------------------------------------------
def test_episodes_csv_columns_and_values(tmp_path):
    rows = [
        EpisodeResult("a", "essential", True, 1.0, None, "general", format_matched({1: 4, 0: 2}), "", 5, 0.12345),
        EpisodeResult("b", "lcs", False, 0.0, "b/0.xml: bad", None, "", "", 0, 0.0),
    ]
    path = tmp_path / "out" / "episodes.csv"
    write_episodes_csv(path, rows)
    with path.open(encoding="utf-8", newline="") as f:
        got = list(csv.reader(f))
    assert got[0] == [
        "episode", "evaluator", "success", "progress", "error", "category", "matched",
        "explanation", "steps", "seconds",
    ]
    assert got[1] == ["a", "essential", "True", "1.0", "", "general", "0:2 1:4", "", "5", "0.123"]
    assert got[2][:6] == ["b", "lcs", "False", "0.0", "b/0.xml: bad", ""]


def test_summary_json_round_trips(tmp_path):
    summary = summarize(RESULTS, LABELS)
    path = tmp_path / "summary.json"
    write_summary_json(path, summary)
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(summary))


def test_format_table_lists_evaluators_metrics_and_categories():
    rows = RESULTS + [r("a", False, evaluator="lcs")]
    table = format_table(summarize(rows, LABELS))
    lines = table.splitlines()
    assert "TCR" in lines[0] and "accuracy" in lines[0] and "precision" in lines[0] and "recall" in lines[0]
    essential = next(line for line in lines if line.startswith("essential"))
    assert "50.0%" in essential and "57.1%" in essential and "66.7%" in essential
    assert any(line.startswith("  install") and "100.0%" in line for line in lines)
    assert any(line.startswith("lcs") for line in lines)
    # fixed width: every evaluator row is as wide as the header
    assert all(len(line) == len(lines[0]) for line in lines if line.startswith(("essential", "lcs")))
    assert "accuracy" not in format_table(summarize(RESULTS))
