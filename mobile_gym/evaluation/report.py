"""Per-episode results of a batch evaluation and the numbers LlamaTouch reports (§5.2).

- Task completion rate (TCR): episodes judged completed / episodes evaluated.
- Accuracy against human labels: the fraction of labelled episodes where the
  evaluator agrees with the human; precision and recall of "completed" are added
  because with ~6% positives accuracy alone hides false negatives (LlamaTouch Table 7).

An episode whose evaluation raised an error counts as *not completed*: bad data is
never a match.
"""

from __future__ import annotations

import csv
import json
import logging
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Any, Iterable, Mapping

from mobile_gym.errors import FormatError
from mobile_gym.formats.files import MAX_TABLE_BYTES, read_utf8
from mobile_gym.report_text import printable

logger = logging.getLogger(__name__)

_TRUE = frozenset({"true", "1", "yes"})
_FALSE = frozenset({"false", "0", "no"})
#: The per-category key of episodes without a category.
NO_CATEGORY = "(none)"


@dataclass
class EpisodeResult:
    """One evaluator's verdict on one episode (one row of ``episodes.csv``).

    `matched` is a readable ``"ref:step ..."`` list (checkpoint or ground-truth step ->
    trace step), after ``"route r:"`` when the checkpoints are alternative route r's;
    `steps` the execution trace's length (0 when it was not loaded); `seconds` the wall
    time of loading and judging. A trace of a ``mobile-gym run`` also names its `task`,
    `agent` and `seed`, and carries what the run recorded: the env's verdict (`online`)
    and the simulator oracle's (`oracle`), None when the episode ended in an error.
    """

    episode: str
    evaluator: str
    success: bool
    progress: float = 0.0
    error: str | None = None
    category: str | None = None
    matched: str = ""
    explanation: str = ""
    steps: int = 0
    seconds: float = 0.0
    task: str | None = None
    agent: str | None = None
    seed: int | None = None
    online: bool | None = None
    oracle: bool | None = None

    @property
    def predicted(self) -> bool:
        """The verdict that counts: an errored episode is never a success."""
        return bool(self.success) and self.error is None


def format_matched(matched: Mapping[int, int], route: int = 0) -> str:
    """``{0: 2, 1: 5}`` -> ``"0:2 1:5"``; on alternative route 1, ``"route 1: 0:2 1:5"``."""
    pairs = " ".join(f"{k}:{v}" for k, v in sorted(matched.items()))
    return f"route {route}: {pairs}" if route else pairs


# -- labels -------------------------------------------------------------------------------
def read_labels(path: str | Path) -> dict[str, bool]:
    """Human verdicts from a CSV with header ``episode,human`` (other columns ignored).

    Values are True/False in any case, or 1/0, yes/no. A missing file, a bad header, an
    unreadable value or an episode labelled twice differently is a `FormatError` naming
    the file and line.
    """
    path = Path(path)
    text = read_utf8(path, "labels file", MAX_TABLE_BYTES)
    rows = csv.reader(text.splitlines())
    header = next(rows, None)
    names = [h.strip().lower() for h in header or []]
    if "episode" not in names or "human" not in names:
        raise FormatError(path, "line 1: the header must name the columns 'episode' and 'human'")
    ep_col, human_col = names.index("episode"), names.index("human")
    labels: dict[str, bool] = {}
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= max(ep_col, human_col):
            raise FormatError(path, f"line {number}: expected {len(names)} columns, got {len(row)}")
        episode, raw = row[ep_col].strip(), row[human_col].strip().lower()
        if not episode:
            raise FormatError(path, f"line {number}: the episode is empty")
        if raw in _TRUE:
            value = True
        elif raw in _FALSE:
            value = False
        else:
            raise FormatError(
                path, f"line {number}: human must be True/False (or 1/0, yes/no), got {row[human_col]!r}"
            )
        if labels.get(episode, value) != value:
            raise FormatError(path, f"line {number}: episode {episode} is labelled both ways")
        labels[episode] = value
    return labels


# -- metrics ------------------------------------------------------------------------------
def _completion(rows: list[EpisodeResult]) -> dict[str, Any]:
    completed = sum(r.predicted for r in rows)
    return {"episodes": len(rows), "completed": completed, "completion_rate": _rate(completed, len(rows))}


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def summarize(
    results: Iterable[EpisodeResult], labels: Mapping[str, bool] | None = None
) -> dict[str, dict[str, Any]]:
    """Per evaluator (in order of first appearance): ``episodes``, ``completed``,
    ``completion_rate`` (TCR), ``errors``, ``per_category`` {category: {episodes,
    completed, completion_rate}}; with `labels`, over the labelled episodes: ``labelled``,
    ``accuracy``, ``precision``, ``recall``, ``tp``, ``fp``, ``tn``, ``fn``.
    Rates are None when undefined (nothing to divide by)."""
    groups: dict[str, list[EpisodeResult]] = {}
    for r in results:
        groups.setdefault(r.evaluator, []).append(r)
    summary: dict[str, dict[str, Any]] = {}
    for evaluator, rows in groups.items():
        completed = sum(r.predicted for r in rows)
        entry: dict[str, Any] = {
            "episodes": len(rows),
            "completed": completed,
            "completion_rate": _rate(completed, len(rows)),
            "errors": sum(r.error is not None for r in rows),
        }
        categories: dict[str, list[EpisodeResult]] = {}
        for r in rows:
            categories.setdefault(r.category or NO_CATEGORY, []).append(r)
        entry["per_category"] = {
            name: _completion(members)
            for name, members in sorted(categories.items())
        }
        if labels is not None:
            entry.update(_agreement(rows, labels))
        summary[evaluator] = entry
    return summary


def _agreement(rows: list[EpisodeResult], labels: Mapping[str, bool]) -> dict[str, Any]:
    tp = fp = tn = fn = 0
    for r in rows:
        if r.episode not in labels:
            continue
        human, predicted = labels[r.episode], r.predicted
        if predicted and human:
            tp += 1
        elif predicted:
            fp += 1
        elif human:
            fn += 1
        else:
            tn += 1
    labelled = tp + fp + tn + fn
    return {
        "labelled": labelled,
        "accuracy": _rate(tp + tn, labelled),
        "precision": _rate(tp, tp + fp),
        "recall": _rate(tp, tp + fn),
        "tp": tp,
        "fp": fp,
        "tn": tn,
        "fn": fn,
    }


# -- runs: agreement with what the run recorded --------------------------------------------
#: The verdicts a run recorded, by the name `summarize_run` gives their agreement.
AGREEMENT = {"online_agreement": "online", "oracle_agreement": "oracle"}


def summarize_run(results: Iterable[EpisodeResult], labels: Mapping[str, bool] | None = None) -> dict[str, dict[str, Any]]:
    """`summarize`, plus for each evaluator its agreement with what the run recorded:
    ``online_agreement`` (with the env's verdict, ``success`` in ``episodes.jsonl``) and
    ``oracle_agreement`` (with the simulator's oracle), each over the episodes that did
    not end in an error during the run (``compared``), with the disagreements counted
    both ways (``online_fp``: completed here, not online; ``online_fn``: the reverse; the
    same for the oracle); and all of it again ``per_agent``."""
    results = list(results)
    summary = summarize(results, labels)
    groups: dict[str, list[EpisodeResult]] = {}
    for r in results:
        groups.setdefault(r.evaluator, []).append(r)
    for evaluator, rows in groups.items():
        entry = summary[evaluator]
        entry.update(_run_agreement(rows))
        agents: dict[str, list[EpisodeResult]] = {}
        for r in rows:
            agents.setdefault(r.agent or NO_CATEGORY, []).append(r)
        entry["per_agent"] = {
            agent: {
                **_completion(members),
                "errors": sum(r.error is not None for r in members),
                **_run_agreement(members),
            }
            for agent, members in agents.items()
        }
    return summary


def _run_agreement(rows: list[EpisodeResult]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    compared = [r for r in rows if r.online is not None]
    out["compared"] = len(compared)
    for name, attribute in AGREEMENT.items():  # only where that verdict exists (a phone has no oracle)
        recorded = [(r.predicted, bool(getattr(r, attribute))) for r in compared if getattr(r, attribute) is not None]
        prefix = name.split("_")[0]
        out[name] = _rate(sum(p == t for p, t in recorded), len(recorded))
        out[f"{prefix}_fp"] = sum(p and not t for p, t in recorded)
        out[f"{prefix}_fn"] = sum(t and not p for p, t in recorded)
    return out


def format_run_table(summary: Mapping[str, Mapping[str, Any]]) -> str:
    """A fixed-width table of `summarize_run`: per evaluator, all agents then each agent:
    episodes, completed, TCR, errors, agreement with the online verdict and the oracle."""
    head = (f"{'evaluator':<11}{'agent':<22}{'episodes':>9}{'completed':>10}{'TCR':>8}{'errors':>8}"
            f"{'vs online':>11}{'vs oracle':>11}")
    lines = [head, "-" * len(head)]
    for name, e in summary.items():
        rows = [("all", e), *e.get("per_agent", {}).items()]
        for i, (agent, a) in enumerate(rows):
            label = printable(name) if i == 0 else ""
            agent = printable(agent)
            if len(agent) > 21:
                agent = agent[:18] + "..."
            lines.append(
                f"{label:<11}{agent:<22}{a['episodes']:>9}{a['completed']:>10}{_pct(a['completion_rate']):>8}"
                f"{a['errors']:>8}{_pct(a.get('online_agreement')):>11}{_pct(a.get('oracle_agreement')):>11}"
            )
    return "\n".join(lines)


# -- output -------------------------------------------------------------------------------
#: The columns of every ``episodes.csv``; a run's traces add `RUN_COLUMNS`.
COLUMNS = tuple(f.name for f in fields(EpisodeResult))[:10]
RUN_COLUMNS = ("task", "agent", "seed", "online_success", "oracle_success")


def write_episodes_csv(path: str | Path, results: Iterable[EpisodeResult]) -> None:
    """One row per episode x evaluator, columns in `EpisodeResult` field order (the run
    columns only when some row is of a run's trace); an empty cell for no error / no
    category."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    results = list(results)
    columns = COLUMNS + RUN_COLUMNS if any(r.task is not None for r in results) else COLUMNS
    with path.open("w", encoding="utf-8", errors="backslashreplace", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(columns)
        for r in results:
            values = astuple(r)[: len(columns)]
            row = dict(zip(columns, values))
            row["progress"] = round(float(r.progress), 4)
            row["seconds"] = round(float(r.seconds), 3)
            writer.writerow("" if v is None else printable(v) if isinstance(v, str) else v for v in row.values())


def write_summary_json(path: str | Path, summary: Mapping[str, Any]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(summary, indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8", errors="backslashreplace")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def format_table(summary: Mapping[str, Mapping[str, Any]]) -> str:
    """A fixed-width table: one row per evaluator, its categories indented below."""
    labelled = any("accuracy" in e for e in summary.values())
    head = f"{'evaluator':<24}{'episodes':>9}{'completed':>10}{'TCR':>8}{'errors':>8}"
    if labelled:
        head += f"{'labelled':>9}{'accuracy':>10}{'precision':>10}{'recall':>8}"
    lines = [head, "-" * len(head)]
    for name, e in summary.items():
        name = printable(name)
        line = (
            f"{name:<24}{e['episodes']:>9}{e['completed']:>10}"
            f"{_pct(e['completion_rate']):>8}{e['errors']:>8}"
        )
        if labelled:
            line += (
                f"{e.get('labelled', 0):>9}{_pct(e.get('accuracy')):>10}"
                f"{_pct(e.get('precision')):>10}{_pct(e.get('recall')):>8}"
            )
        lines.append(line)
        for cat, c in e.get("per_category", {}).items():
            label = f"  {printable(cat)}"
            if len(label) > 23:
                label = label[:20] + "..."
            lines.append(
                f"{label:<24}{c['episodes']:>9}{c['completed']:>10}{_pct(c['completion_rate']):>8}"
            )
    return "\n".join(lines)


__all__ = [
    "AGREEMENT",
    "COLUMNS",
    "EpisodeResult",
    "RUN_COLUMNS",
    "format_matched",
    "format_run_table",
    "format_table",
    "read_labels",
    "summarize",
    "summarize_run",
    "write_episodes_csv",
    "write_summary_json",
]
