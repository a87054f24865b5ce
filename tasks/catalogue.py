"""The LlamaTouch task catalogue: every task of LlamaTouch's dataset under a stable id.

``llamatouch.yaml`` mirrors ``llamatouch_task_metadata.tsv`` (episode, category, dataset
path, instruction, golden-path steps, apps) and adds the id each task is registered
under, ``LlamaTouch/<id>-v0``: app first, kebab-case, at most 40 characters, unique.
Ids never change once shipped; a task that needs a new meaning gets a new id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from mobile_gym.errors import FormatError

#: the C implementation of the safe loader when libyaml is there (10x faster)
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
NAMESPACE = "LlamaTouch"
ID_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_ID_LENGTH = 40
FIELDS = {"id": str, "episode": str, "category": str, "path": str, "instruction": str,
          "steps": int, "app": str}
#: One display name per app, by the lowercased names it also goes by: the simulator's app
#: ids (``app:`` in ``tasks/sim``) and LlamaTouch's other spellings of the same name.
APP_NAMES = {"chrome": "Google Chrome", "playstore": "Google Play Store", "clock": "Clock",
             "settings": "Settings", "youtube": "YouTube", "google maps": "Google Maps",
             "instagram": "Instagram", "pinterest": "Pinterest", "trello": "Trello",
             "evernote": "Evernote", "calender": "Google Calendar"}


def env_id(task_id: str) -> str:
    """The Gymnasium id a task is registered under."""
    return f"{NAMESPACE}/{task_id}-v0"


def app_name(name: str) -> str:
    """The display name of an app named by LlamaTouch or by its simulator id, so that
    listings and reports show each app once."""
    return APP_NAMES.get(name.lower(), name)


def task_id(name: str) -> str:
    """A task id from an env id (``LlamaTouch/<id>-v0``) or from the id itself."""
    name = name.removeprefix(f"{NAMESPACE}/")
    return name[: -len("-v0")] if name.endswith("-v0") else name


@dataclass(frozen=True)
class CatalogueTask:
    id: str  # stable slug, e.g. "bestbuy-empty-cart"
    episode: str  # LlamaTouch episode id (a long number, kept as text)
    category: str  # LlamaTouch category: general, googleapps, install, webshopping, ...
    path: str  # the task's folder in LlamaTouch's dataset, e.g. "webshopping/trace_12"
    instruction: str  # the task as given to the agent
    steps: int  # actions on the golden path (LlamaTouch's difficulty measure)
    apps: tuple[str, ...]  # apps the task uses, as LlamaTouch names them

    @property
    def env_id(self) -> str:
        return env_id(self.id)

    @property
    def app_names(self) -> tuple[str, ...]:
        """The apps' display names (`app_name`)."""
        return tuple(app_name(a) for a in self.apps)

    @property
    def difficulty(self) -> str:
        """LlamaTouch's buckets: easy (<= 4 steps), medium (5-8), hard (> 8)."""
        return "easy" if self.steps <= 4 else "medium" if self.steps <= 8 else "hard"


def _task(entry: Any, index: int, path: Path) -> CatalogueTask:
    where = f"entry {index}" + (f" ({entry.get('id')})" if isinstance(entry, dict) and "id" in entry else "")
    if not isinstance(entry, dict):
        raise FormatError(path, f"{where}: expected a mapping of fields, got {type(entry).__name__}")
    missing = [f for f in FIELDS if f not in entry]
    unknown = sorted(set(entry) - set(FIELDS))
    if missing or unknown:
        raise FormatError(path, f"{where}: " + "; ".join(
            ([f"missing field(s) {', '.join(missing)}"] if missing else [])
            + ([f"unknown field(s) {', '.join(unknown)}"] if unknown else [])))
    for name, kind in FIELDS.items():
        value = entry[name]
        if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and not value.strip()):
            raise FormatError(path, f"{where}: field {name!r} must be a non-empty {kind.__name__}, got {value!r}")
    if not ID_PATTERN.fullmatch(entry["id"]) or len(entry["id"]) > MAX_ID_LENGTH:
        raise FormatError(path, f"{where}: field 'id' must be kebab-case of at most "
                                f"{MAX_ID_LENGTH} characters, got {entry['id']!r}")
    if entry["steps"] < 1:
        raise FormatError(path, f"{where}: field 'steps' must be positive, got {entry['steps']}")
    apps = tuple(a.strip() for a in entry["app"].split(",") if a.strip())
    fields = {k: v for k, v in entry.items() if k != "app"}
    return CatalogueTask(apps=apps, **fields)


def read_task_list(path: Path, error: type[FormatError] = FormatError) -> list:
    """The list of task entries a YAML file holds (read safely); a missing, unreadable
    or non-list file raises ``error`` naming it."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    except OSError as e:
        raise error(path, f"cannot read: {e.strerror or e}") from None
    except yaml.YAMLError as e:
        raise error(path, f"not valid YAML: {e}") from None
    if not isinstance(data, list):
        raise error(path, f"expected a list of tasks, got {type(data).__name__}")
    return data


def read_catalogue(path: str | Path) -> dict[str, CatalogueTask]:
    """Tasks by id from a catalogue file; a malformed file raises `FormatError` naming
    the file, the entry and the field."""
    path = Path(path)
    data = read_task_list(path)
    tasks: dict[str, CatalogueTask] = {}
    episodes: dict[str, str] = {}
    for i, entry in enumerate(data):
        task = _task(entry, i, path)
        if task.id in tasks:
            raise FormatError(path, f"entry {i}: duplicate id {task.id!r}")
        if task.episode in episodes:
            raise FormatError(path, f"entry {i} ({task.id}): episode {task.episode} is also "
                                    f"task {episodes[task.episode]!r}")
        tasks[task.id] = task
        episodes[task.episode] = task.id
    return tasks


@lru_cache(maxsize=1)
def llamatouch_catalogue() -> dict[str, CatalogueTask]:
    """The shipped catalogue of LlamaTouch's 495 tasks, by id."""
    with resources.as_file(resources.files(__package__) / "llamatouch.yaml") as path:
        return read_catalogue(path)
