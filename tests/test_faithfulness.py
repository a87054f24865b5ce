"""The faithfulness benchmark's bookkeeping: labels come from the oracle, the confusion
counts add up, every disagreement is listed. Its target numbers are for the full run
(benchmarks/RESULTS.md), not for this small one."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load():
    spec = importlib.util.spec_from_file_location("faithfulness", ROOT / "benchmarks" / "faithfulness.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


faithfulness = _load()


def record(agent: str, reached: bool, final: bool, es: bool, step: bool = False, lcs: bool = False) -> dict:
    return {"task": "t", "agent": agent, "profile": "pixel-6", "seed": 0, "error": None, "reached": reached,
            "final": final, "oracle_step": 3 if reached else None, "online": es, "online_step": 3 if es else None,
            "matched": {}, "verdicts": {"essential-state": es, "step-match": step, "lcs-match": lcs}}


def test_confusion_on_hand_made_records() -> None:
    records = [record("a", True, True, True), record("a", True, False, True), record("a", False, False, True),
               record("b", True, True, False), record("b", False, False, False, step=True)]
    c = faithfulness.confusion(records, "essential-state", "reached")
    assert (c["tp"], c["fp"], c["tn"], c["fn"]) == (2, 1, 1, 1)
    assert c["accuracy"] == 3 / 5 and c["precision"] == 2 / 3 and c["recall"] == 2 / 3
    assert c["completion_rate"] == 3 / 5 and c["truth_rate"] == 3 / 5
    final = faithfulness.confusion(records, "essential-state", "final")
    assert (final["tp"], final["fp"], final["tn"], final["fn"]) == (1, 2, 1, 1)
    step = faithfulness.confusion(records, "step-match", "reached")
    assert (step["tp"], step["fp"], step["tn"], step["fn"]) == (0, 1, 1, 3) and step["precision"] == 0.0
    summary = faithfulness.summarize(records + [{**record("b", False, False, False), "error": "Boom: x"}])
    assert summary["errors"] == 1 and summary["episodes"] == 6
    assert summary["labels"]["reached"]["a"]["essential-state"]["episodes"] == 3
    assert summary["labels"]["reached"]["all"]["essential-state"]["episodes"] == 5
    assert len(faithfulness.disagreements(records, "reached")) == 2
    assert len(faithfulness.disagreements(records, "final")) == 3


@pytest.mark.slow
def test_small_run_keeps_its_books(tmp_path: Path, capsys) -> None:
    assert faithfulness.main(["--small", "--workers", "1", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    records = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    summary = json.loads((tmp_path / "summary.json").read_text())
    small = faithfulness.SMALL
    jobs = faithfulness.jobs_for(small["tasks"], faithfulness.AGENTS, small["profiles"], small["seeds"])
    # every episode exactly once, none failed
    assert Counter((r["task"], r["agent"], r["profile"], r["seed"]) for r in records) == \
        Counter((j.task, j.agent, j.profile, j.seed) for j in jobs)
    assert summary["errors"] == 0 and all(r["error"] is None for r in records)
    # labels are the oracle's: held at some step / at the end
    for r in records:
        assert r["reached"] == (r["oracle_step"] is not None)
        assert not r["final"] or r["reached"]
        assert set(r["verdicts"]) == set(faithfulness.EVALUATORS)
    by_agent = {a: [r for r in records if r["agent"] == a] for a in faithfulness.AGENTS}
    assert all(r["reached"] for r in by_agent["oracle"])
    assert not any(r["reached"] for r in by_agent["stop-short"])
    # the online tracker and the offline evaluator judged every trace alike
    assert summary["online_offline_mismatches"] == 0
    assert all(r["online"] == r["verdicts"]["essential-state"] for r in records)
    # confusion counts add up per agent and overall, and match the records
    for label in faithfulness.LABELS:
        groups = summary["labels"][label]
        assert set(groups) == set(faithfulness.AGENTS) | {"all"}
        for evaluator in faithfulness.EVALUATORS:
            total = groups["all"][evaluator]
            assert total["episodes"] == len(records)
            for key in ("tp", "fp", "tn", "fn"):
                assert total[key] == sum(groups[a][evaluator][key] for a in faithfulness.AGENTS)
            tp = sum(r["verdicts"][evaluator] and r[label] for r in records)
            fn = sum(r[label] and not r["verdicts"][evaluator] for r in records)
            assert (total["tp"], total["fn"]) == (tp, fn)
        es = groups["all"]["essential-state"]
        # every disagreement is listed, in the printout and the saved report
        listed = faithfulness.disagreements(records, label)
        assert len(listed) == es["fp"] + es["fn"]
        assert f"Matcher disagreements with ground truth ({label}): {len(listed)}" in printed
    assert (tmp_path / "report.md").read_text().strip() == printed.strip()
    assert "small mode: bookkeeping only" in printed
    # each alternative-route episode played one of its exploration's routes and judged them all
    for r in by_agent["alternative-route"]:
        routes = r["routes"]
        assert r["route"] and routes["successes"] >= 1 and routes["failures"] >= 1
        assert routes["credited"] <= routes["successes"] and len(routes["wrong"]) <= routes["successes"] + \
            routes["failures"]
        assert f"| {r['task']} | 1 |" in printed
    assert "Route check:" in printed and f"Routes judged wrongly: {len(faithfulness.route_misses(records))}" in printed


def test_route_table_flags_missed_and_false_credits() -> None:
    def routes(task: str, credited: int, false: int, early: int = 0) -> dict:
        return {"task": task, "profile": "pixel-6", "seed": 0, "routes": {
            "successes": 10, "credited": credited, "early": early, "failures": 5, "false_credits": false,
            "found": 12, "exact": True, "exhausted": False,
            "wrong": [{"success": True, "credited_at": None, "matched": 1, "steps": ["back", f"tap {n}"]}
                      for n in range(10 - credited)]}}

    table, met = faithfulness.route_table([routes("a", 10, 0), routes("b", 10, 0)])
    assert met and "| a | 1 | 12-12 | 10 | 10 | 0 | 100.0 | 5 | 0 | 1 |" in table
    assert not faithfulness.route_table([routes("a", 10, 0), routes("b", 9, 0)])[1]
    assert not faithfulness.route_table([routes("a", 10, 1)])[1]
    assert not faithfulness.route_table([routes("a", 10, 0, early=1)])[1]
    assert not faithfulness.route_table([])[1]
    misses = faithfulness.route_misses([routes("b", 8, 0), routes("b", 8, 0)])
    assert len(misses) == 2 and "successful route not credited" in misses[0]


def test_per_task_table() -> None:
    rows = [{**record("element-centre", True, True, True), "task": "a"},
            {**record("element-centre", True, True, False), "task": "a"},
            {**record("element-centre", False, False, False), "task": "b"},
            {**record("oracle", True, True, False), "task": "b"}]
    table = faithfulness.per_task_table(rows, "element-centre")
    assert "| a | 2 | 2 | 1 | 50.0 | 100.0 |" in table and "| b | 1 | 0 | 0 | - | - |" in table


def test_merge_reports_runs_of_parts_as_one(tmp_path: Path, capsys) -> None:
    parts = [[record("oracle", True, True, True), record("random", False, False, False)],
             [{**record("oracle", True, True, False), "task": "u"}, {**record("random", False, False, True),
                                                                      "task": "u", "profile": "pixel-3"}]]
    folders = []
    for n, records in enumerate(parts):
        folders.append(tmp_path / f"run{n}")
        folders[-1].mkdir()
        (folders[-1] / "episodes.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    assert faithfulness.main(["--merge", *map(str, folders), "--out", str(tmp_path / "all")]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("4 episodes (2 tasks x 2 agents x 2 profiles x 1 seeds), dynamics default, "
                              "merged from 2 runs;")
    summary = json.loads((tmp_path / "all" / "summary.json").read_text())
    c = summary["labels"]["reached"]["all"]["essential-state"]
    assert (c["tp"], c["fp"], c["tn"], c["fn"]) == (1, 1, 1, 1)
    assert "targets (accuracy >= 99.5%, recall >= 99%, >= 2000 episodes): NOT met" in printed
    assert len((tmp_path / "all" / "episodes.jsonl").read_text().splitlines()) == 4
