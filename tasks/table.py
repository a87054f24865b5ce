"""The task tables of the README, made from the registry so that they cannot drift.

``python -m mobile_gym.tasks.table README.md`` rewrites the block between the README's
``<!-- tasks:begin -->`` and ``<!-- tasks:end -->`` markers; a test fails while the
README's block differs from what this module makes. `mobile-gym tasks --markdown` prints
the same full table for any selection.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Sequence

from mobile_gym.errors import FormatError

BEGIN, END = "<!-- tasks:begin -->", "<!-- tasks:end -->"


def task_rows() -> list[dict[str, str]]:
    """One row per registered task: apps by display name (the catalogue's when it has
    the task), golden-path steps and step limit as registered, the backends that run it
    today ("-" for none)."""
    from mobile_gym.registration import default_step_limit, golden_steps
    from mobile_gym.tasks.catalogue import llamatouch_catalogue
    from mobile_gym.tasks.suite import simulator_tasks

    sim, catalogue, steps = simulator_tasks(), llamatouch_catalogue(), golden_steps()

    def row(task, apps: str) -> dict[str, str]:
        backends = sim[task.id].backends if task.id in sim else ("device",)  # judged by LlamaTouch's dataset
        return {"id": task.env_id, "app": apps, "category": task.category, "steps": str(steps[task.id]),
                "limit": str(default_step_limit(steps[task.id])), "backends": ",".join(backends) or "-",
                "instruction": task.instruction}

    return ([row(task, ", ".join(task.app_names)) for task in catalogue.values()]
            + [row(task, task.app_name) for task in sim.values() if task.id not in catalogue])


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(rows: Sequence[dict[str, str]]) -> str:
    """Every row: env id, apps, golden-path steps, step limit, instruction."""
    lines = ["| env id | app | steps | limit | instruction |", "|---|---|---:|---:|---|"]
    lines += [f"| `{r['id']}` | {_cell(r['app'])} | {r['steps']} | {r['limit']} | {_cell(r['instruction'])} |"
              for r in rows]
    return "\n".join(lines)


def app_table(rows: Sequence[dict[str, str]]) -> str:
    """One row per app (the first app a task names), most tasks first."""
    by_app: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        by_app[r["app"].split(", ")[0]].append(int(r["steps"]))
    lines = ["| app | tasks | golden-path steps |", "|---|---:|---|"]
    for app, steps in sorted(by_app.items(), key=lambda item: (-len(item[1]), item[0])):
        lines.append(f"| {_cell(app)} | {len(steps)} | {min(steps)}-{max(steps)} |")
    return "\n".join(lines)


def readme_block() -> str:
    """What the README holds between its markers: the simulator tasks by app, then all of
    them in a folded table."""
    rows = [r for r in task_rows() if "sim" in r["backends"].split(",")]
    apps = {a for r in rows for a in r["app"].split(", ")}
    return "\n".join([
        BEGIN,
        f"{len(rows)} tasks run on the simulated phone, over {len(apps)} apps (a task's first app "
        "below; the others are apps a task installs or opens). Made from the registry by "
        "`python -m mobile_gym.tasks.table README.md`.",
        "",
        app_table(rows),
        "",
        f"<details><summary>All {len(rows)} simulator tasks</summary>",
        "",
        markdown_table(rows),
        "",
        "</details>",
        END,
    ])


def update_readme(path: str | Path) -> bool:
    """Rewrite the block between the markers; True if the file changed."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise FormatError(path, f"needs the markers {BEGIN} and {END}, in that order")
    new = text[:start] + readme_block() + text[end + len(END):]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":
    for name in sys.argv[1:] or ["README.md"]:
        print(f"{name}: {'updated' if update_readme(name) else 'up to date'}")
