"""Metrics of a batch run, per episode and aggregated, as the seed papers report them:
completion (matcher) and oracle success, progress (ACP), steps, step efficiency,
false-finish and over-execution rates, time, the agent's and the env's latency per step,
errors by kind, agent-reported tokens and cost;
broken down by agent, app, category and LlamaTouch difficulty.

Errors follow one rule, the offline evaluator's: an episode that ended in an error is a
failure in every completion figure, whose denominator is every episode
(``success_rate``, ``oracle_success_rate``; ``progress`` counts it as 0), and is also
counted apart (``errors``, ``error_kinds``). Figures about how the episodes that ran to
their end behaved leave errors out, since an error has no verdict and no full step
count: ``agreement`` (matcher vs oracle), ``steps``, ``false_finish_rate``,
``act_latency`` and ``step_latency``; ``step_efficiency`` and ``over_execution_rate``
are over successes. ``wall_time`` and agent-reported ``tokens`` and ``cost`` cover every
episode. An episode on a phone has no oracle (``oracle_success`` None): the oracle's
figures leave it out, and are None when no episode has one.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from statistics import mean
from typing import Any, Callable, Iterable

from mobile_gym.report_text import printable

BREAKDOWNS = ("agent", "app", "category", "difficulty")
DIFFICULTY_ORDER = ("easy", "medium", "hard")
CSV_FIELDS = ("task", "agent", "agent_name", "seed", "app", "category", "difficulty", "golden_steps", "success",
              "oracle_success", "progress", "steps", "success_step", "terminated_by", "false_finish",
              "over_execution", "answer", "wall_time", "step_latency", "act_latency", "tokens", "tokens_in", "tokens_out", "cost",
              "error_kind", "error")


def difficulty(golden_steps: int) -> str:
    """LlamaTouch's buckets: easy <= 4 golden steps, medium 5-8, hard > 8."""
    return DIFFICULTY_ORDER[0 if golden_steps <= 4 else 1 if golden_steps <= 8 else 2]


def _rate(flags: list[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return mean(present) if present else None


def succeeded(record: dict[str, Any], verdict: str = "success") -> bool:
    """Whether the matcher (``success``) or the oracle (``oracle_success``) judged the
    episode a success; an error is a failure whatever a record says."""
    return bool(record[verdict]) and record.get("error") is None


#: The summary's columns, grouped by what their figures are: (group, ((metric, label), ...)).
#: The report's summary and `markdown_table` both name their columns by these.
SUMMARY_GROUPS = (
    ("episodes", (("episodes", "all"), ("errors", "errors"))),
    ("rate over episodes", (("success_rate", "matcher success"), ("oracle_success_rate", "oracle success"),
                            ("agreement", "agreement"), ("false_finish_rate", "false finish"))),
    ("mean per episode", (("progress", "progress"), ("steps", "steps"), ("step_efficiency", "step efficiency"))),
    ("mean per step, ms", (("act_latency", "agent act"), ("step_latency", "env step"))),
)
#: Columns added when a model was asked (the records carry tokens).
USAGE_GROUP = ("total", (("tokens_in", "tokens in"), ("tokens_out", "tokens out"), ("cost", "cost ($)")))
#: Each group's name in a column of `markdown_table` ("matcher success rate", "steps mean").
SHORT_GROUP = {"rate over episodes": "rate", "mean per episode": "mean", "mean per step, ms": "ms/step",
               "total": "total"}
#: Metrics kept in seconds and shown in milliseconds.
MS_METRICS = ("act_latency", "step_latency")


def has_oracle(record: dict[str, Any]) -> bool:
    """Whether the episode ran where an oracle judged it (the simulator), not on a phone."""
    return record.get("oracle_success") is not None


def shown_agent(record: dict[str, Any]) -> str:
    """The agent as reports name it: its own name (``agent_name``, absent from records of
    older runs), else its spec."""
    return record.get("agent_name") or record["agent"]


def aggregate(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Metrics of a group of episode records; errors count as failures (see the module's
    docstring for each metric's rule)."""
    ok = [r for r in records if r.get("error") is None]
    successes = [r for r in ok if r["success"]]
    def total(key: str) -> float | None:
        values = [r[key] for r in records if r.get(key) is not None]
        return sum(values) if values else None

    return {
        "episodes": len(records),
        "errors": len(records) - len(ok),
        "success_rate": _rate([succeeded(r) for r in records]),
        "oracle_success_rate": _rate([succeeded(r, "oracle_success") for r in records if has_oracle(r)]),
        "agreement": _rate([r["success"] == r["oracle_success"] for r in ok if has_oracle(r)]),
        "progress": _mean(r["progress"] if r.get("error") is None else 0.0 for r in records),
        "steps": _mean(r["steps"] for r in ok),
        "step_efficiency": _mean(r["steps"] / r["golden_steps"] for r in successes if r["golden_steps"]),
        "false_finish_rate": _rate([bool(r.get("false_finish")) for r in ok]),
        "over_execution_rate": _rate([bool(r.get("over_execution")) for r in successes]),
        "wall_time": _mean(r.get("wall_time") for r in records),
        "step_latency": _mean(r.get("step_latency") for r in ok),
        "act_latency": _mean(r.get("act_latency") for r in ok),
        "error_kinds": error_kinds(records),
        "tokens": total("tokens"),
        "tokens_in": total("tokens_in"),
        "tokens_out": total("tokens_out"),
        "cost": total("cost"),
    }


def error_kinds(records: list[dict[str, Any]]) -> dict[str, int]:
    """How many episodes ended in each kind of error, most frequent first."""
    return dict(Counter(r["error"]["kind"] for r in records if r.get("error")).most_common())


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Overall metrics and the breakdowns by agent, app, category and difficulty."""
    rows = [{**r, "difficulty": difficulty(r["golden_steps"])} for r in records]
    out: dict[str, Any] = {"overall": aggregate(rows)}
    for key in BREAKDOWNS:
        groups: dict[str, list] = {}
        for r in rows:
            groups.setdefault(str(shown_agent(r) if key == "agent" else r[key]), []).append(r)
        order = sorted(groups, key=lambda g: (DIFFICULTY_ORDER.index(g), g) if key == "difficulty" else (0, g))
        out[f"by_{key}"] = {name: aggregate(groups[name]) for name in order}
    return out


def write_reports(out: str | Path, records: list[dict[str, Any]], *, dataset: str | Path | None = None,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """``summary.json``, ``episodes.csv``, the PNG charts and ``report.html`` in ``out``
    (``dataset``: the LlamaTouch dataset that judged a phone's tasks; ``progress``: called
    with (episodes done, episodes) as the report is written); returns the summary."""
    out = Path(out)
    summary = summarize(records)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    with open(out / "episodes.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in records:
            error = r.get("error") or {}
            row = {**{k: r.get(k) for k in CSV_FIELDS}, "agent_name": shown_agent(r), "difficulty": difficulty(r["golden_steps"]),
                   "success": succeeded(r), "oracle_success": succeeded(r, "oracle_success") if has_oracle(r) else None,
                   "error_kind": error.get("kind"), "error": error.get("message")}
            writer.writerow({k: printable(v) if isinstance(v, str) else v for k, v in row.items()})
    from mobile_gym.runner.plots import write_plots

    write_plots(out, summary, records)
    from mobile_gym.runner.html_report import write_html_report

    write_html_report(out, records, dataset=dataset, progress=progress)
    return summary


def markdown_table(summary: dict[str, Any], by: str = "agent") -> str:
    """The summary as a Markdown table, one row per group of ``by`` plus the total; each
    column says what its figures are (a count, a rate, a mean per episode, milliseconds per
    step, a run total), as the report's summary does. Latencies and the model's usage
    appear when a model was called."""
    called = summary["overall"].get("tokens") is not None
    groups = [g for g in SUMMARY_GROUPS if called or g[0] != "mean per step, ms"] + ([USAGE_GROUP] if called else [])
    columns = [(metric, metric if group == "episodes" else f"{label} {SHORT_GROUP[group]}")
               for group, pairs in groups for metric, label in pairs]

    def cell(v: Any, metric: str) -> str:
        if v is None:
            return "-"
        if metric in MS_METRICS:
            return f"{v * 1000:.1f}"
        if isinstance(v, float):  # dollars are small
            return f"{v:.3g}" if metric == "cost" else f"{v:.2f}"
        return str(v)

    lines = [f"| {by} | " + " | ".join(label for _, label in columns) + " |", "|---" * (len(columns) + 1) + "|"]
    rows = {**summary[f"by_{by}"], "all": summary["overall"]}
    for name, metrics in rows.items():
        lines.append(f"| {printable(name)} | " + " | ".join(cell(metrics[m], m) for m, _ in columns) + " |")
    return "\n".join(lines)
