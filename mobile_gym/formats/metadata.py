"""LlamaTouch's task metadata TSV (``llamatouch_task_metadata.tsv``).

The file maps each episode id to its category, trace folder, description, golden-path
length and app. It is read and written byte for byte as LlamaTouch ships it (tab
separated, no quoting, no newline after the last row) so that a round trip leaves the
file untouched and diffs stay readable.
"""

from __future__ import annotations

import re
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Iterable

from mobile_gym.errors import FormatError
from mobile_gym.formats.files import MAX_TABLE_BYTES, read_utf8

#: Column names of the header row, in order.
COLUMNS = ("episode", "category", "path", "description", "nsteps", "app")

_NSTEPS = re.compile(r"\d+")


@dataclass(frozen=True)
class TaskMetadata:
    """One row of the metadata file. Episode ids stay strings: some are 20-digit
    numbers and some have leading zeros, neither of which survives an int."""

    episode: str
    category: str
    path: str
    description: str
    nsteps: int
    app: str


def read_metadata(path: str | Path) -> dict[str, TaskMetadata]:
    """Rows keyed by episode id, in file order. Any bad row is a FormatError naming the
    file and line, because a silently skipped task would change benchmark totals."""
    path = Path(path)
    text = read_utf8(path, "task metadata file", MAX_TABLE_BYTES)
    lines = text.split("\n")
    if lines and lines[-1] == "":  # tolerate a final newline
        lines.pop()
    if not lines:
        raise FormatError(path, "task metadata is empty; expected the header " + "\\t".join(COLUMNS))
    header = tuple(lines[0].rstrip("\r").split("\t"))
    if header != COLUMNS:
        raise FormatError(
            path, f"line 1: header must be {' '.join(COLUMNS)} (tab separated), got {' '.join(header)!r}"
        )

    rows: dict[str, TaskMetadata] = {}
    first_seen: dict[str, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        cells = line.rstrip("\r").split("\t")
        if len(cells) != len(COLUMNS):
            raise FormatError(
                path, f"line {number}: expected {len(COLUMNS)} tab-separated columns, found {len(cells)}"
            )
        episode, category, trace_path, description, nsteps, app = cells
        if not episode.strip():
            raise FormatError(path, f"line {number}: the episode id is empty")
        if not _NSTEPS.fullmatch(nsteps):
            raise FormatError(path, f"line {number}: nsteps must be a non-negative integer, got {nsteps!r}")
        if episode in rows:
            raise FormatError(
                path, f"line {number}: duplicate episode {episode} (first on line {first_seen[episode]})"
            )
        rows[episode] = TaskMetadata(episode, category, trace_path, description, int(nsteps), app)
        first_seen[episode] = number
    return rows


def read_instructions(path: str | Path) -> list[tuple[str, str]]:
    """(episode, description) of each row of a task list, in file order: LlamaTouch's
    AgentEnv reads its instruction file (a metadata TSV, with or without more columns,
    such as its ``login_category``) for those two columns alone, blank lines skipped. A
    row without them, or an episode listed twice (its trace folder would be written
    twice), is a FormatError naming the line."""
    path = Path(path)
    lines = read_utf8(path, "instruction file", MAX_TABLE_BYTES).split("\n")
    header = lines[0].rstrip("\r").split("\t") if lines else []
    if "episode" not in header or "description" not in header:
        raise FormatError(path, "line 1: the header must name the columns episode and description (tab separated)")
    episode_at, description_at = header.index("episode"), header.index("description")
    rows: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = line.rstrip("\r").split("\t")
        if len(cells) != len(header):
            raise FormatError(path, f"line {number}: expected {len(header)} tab-separated columns, found {len(cells)}")
        episode = cells[episode_at].strip()
        if not episode:
            raise FormatError(path, f"line {number}: the episode id is empty")
        if episode in rows:
            raise FormatError(path, f"line {number}: episode {episode} is listed twice")
        rows[episode] = cells[description_at]
    return list(rows.items())


def write_metadata(path: str | Path, rows: Iterable[TaskMetadata]) -> Path:
    """Write rows in the layout `read_metadata` reads (and LlamaTouch ships)."""
    path = Path(path)
    lines = ["\t".join(COLUMNS)]
    seen: set[str] = set()
    for position, row in enumerate(rows):
        if not isinstance(row, TaskMetadata):
            raise FormatError(path, f"row {position}: expected a TaskMetadata, got {type(row).__name__}")
        values = astuple(row)
        for name, value in zip((f.name for f in fields(row)), values):
            if name == "nsteps":
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise FormatError(path, f"episode {row.episode}: nsteps must be a non-negative int")
            elif not isinstance(value, str) or any(c in value for c in "\t\r\n"):
                raise FormatError(
                    path, f"episode {row.episode}: {name} must be a string without tabs or line breaks"
                )
        if not row.episode.strip():
            raise FormatError(path, f"row {position}: the episode id is empty")
        if row.episode in seen:
            raise FormatError(path, f"duplicate episode {row.episode}")
        seen.add(row.episode)
        lines.append("\t".join(str(v) for v in values))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes("\n".join(lines).encode("utf-8"))
    return path


__all__ = ["COLUMNS", "TaskMetadata", "read_instructions", "read_metadata", "write_metadata"]
