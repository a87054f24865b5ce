"""AgentEnv execution traces (format B of DESIGN.md §3.2).

An episode folder ``<root>/<episode>/captured_data/`` holds ``screenshot/i.png``,
``xml/i.xml``, ``activity/i.activity``, ``action/i.action`` (the action taken from
screen i, one line), the hierarchy as droidbot's JSON (`mobile_gym.formats.droidbot`)
and, at episode end, ``installed_apps/installed_apps.txt``. AgentEnv also writes a
placeholder ``-1.action`` before the first screen; negative indices are ignored.

The JSON hierarchy has two homes, and `write_trace` writes both (the same text):
``vh/i.vh`` is where AgentEnv puts it, ``view_hierarchy/i.json`` where LlamaTouch's
evaluator reads it for its whole-screen check (without it, that check passes on any
screen). Our reader needs neither. Screenshots should be at the device's resolution, as
AgentEnv's are: action lines carry normalized coordinates and the screen's size, and
LlamaTouch's evaluator places a tap by multiplying them with the screenshot's size.

These are the traces agents produce, so the reader is strict about what the matcher
needs (every screen but the last has an action) and names the file when it is not there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

from mobile_gym.actions import Action
from mobile_gym.errors import FormatError, InvalidActionError
from mobile_gym.formats.files import check_links, inside, read_utf8
from mobile_gym.formats.droidbot import VH_SUFFIX, view_hierarchy_json
from mobile_gym.formats.llamatouch import (
    numbered_files,
    read_activity,
    short_activity,
    state_hierarchy,
    write_text,
)
from mobile_gym.trace import Trace, UIState

CAPTURED_DATA = "captured_data"
INSTALLED_APPS = Path("installed_apps") / "installed_apps.txt"
#: The droidbot JSON of screen i: where AgentEnv writes it, where LlamaTouch reads it.
VH_FOLDER, VH_EVALUATOR_FOLDER = "vh", "view_hierarchy"
#: zlib level of trace screenshots (`mobile_gym.trace.encode_png`): a 1080x2400 screen
#: takes ~27 ms and ~115 KB at level 1, ~66 ms and ~80 KB at 6; a trace is written while
#: the run waits, and disk is the cheaper of the two.
PNG_COMPRESS_LEVEL = 1


def _locate(path: str | Path) -> tuple[Path, str]:
    """(captured_data folder, episode name) for an episode folder or its captured_data."""
    path = Path(path)
    if (path / CAPTURED_DATA).is_dir():
        return path / CAPTURED_DATA, path.name
    if path.name == CAPTURED_DATA and path.is_dir():
        return path, path.parent.name
    if not path.exists():
        raise FormatError(path, "AgentEnv trace folder does not exist")
    raise FormatError(path, f"not an AgentEnv episode folder: it has no {CAPTURED_DATA} folder")


def _screen_count(captured: Path) -> int:
    """Screens 0..n-1 by their screenshots; a hierarchy or activity recorded past the
    last screenshot also means a screenshot is missing."""
    shots = numbered_files(captured / "screenshot", ".png")
    indices = set(shots) | set(numbered_files(captured / "xml", ".xml"))
    indices |= set(numbered_files(captured / "activity", ".activity"))
    if not indices:
        raise FormatError(captured / "screenshot", "no screenshots (0.png, 1.png, ...)")
    for i in range(max(indices) + 1):
        if i not in shots:
            raise FormatError(
                captured / "screenshot" / f"{i}.png",
                "screenshot is missing; screens must be numbered 0..n-1 without gaps "
                f"(found files up to screen {max(indices)})",
            )
    return len(shots)


def _read_action(path: Path) -> tuple[Action, tuple[int, int]]:
    line = read_utf8(path, "action file").rstrip("\r\n")
    try:
        return Action.from_agentenv(line)
    except InvalidActionError as exc:
        raise FormatError(path, f"corrupt action line: {exc}") from exc


def episode_folder(root: str | Path, episode: str) -> Path:
    """The folder ``root/<episode>`` of an episode's trace. An id that is no folder name
    (a path separator, ``..``) is a FormatError: it would lead out of `root`."""
    if episode in ("", ".", "..") or any(c in episode for c in "/\\\0"):
        raise FormatError(
            None, f"episode id {episode!r} is not a folder name; refusing to look for its trace under {root}"
        )
    return Path(root) / episode


_SUBFOLDERS = ("screenshot", "xml", "activity", "action", INSTALLED_APPS.parent.name)


def read_trace(
    path: str | Path, *, root: str | Path | None = None, make_state: Callable[..., UIState] = UIState
) -> Trace:
    """Load an AgentEnv trace from its episode folder or its captured_data folder.

    Hierarchies and screenshots are read lazily; actions, activities and the installed
    packages are read now so that corrupt ones are reported at load time (an activity
    recorded without its package is completed from the hierarchy when first compared).
    Nothing outside `root` (default: the episode folder) is read: a symlink that leads
    out of it is a FormatError. `make_state` builds each screen's state from `UIState`'s
    keyword arguments: a batch evaluator passes one whose states share the parse of
    identical dumps across traces (`mobile_gym.evaluation.shared.SharedDumps.state`).
    """
    captured, episode = _locate(path)
    root = captured.parent if root is None else root
    inside(root, captured, "trace folder")
    for folder in (captured, *(captured / sub for sub in _SUBFOLDERS)):
        check_links(folder, root)
    screens = _screen_count(captured)
    states = []
    xml, shots, activities, actions = (captured / sub for sub in ("xml", "screenshot", "activity", "action"))
    listed_actions, listed_activities = _names(actions), _names(activities)  # one listing, not a stat a file
    size = None  # the screen's size, from the action lines: the last screen has the one before's
    for i in range(screens):
        activity_path = activities / f"{i}.activity"
        action_path = actions / f"{i}.action"
        action = None
        if action_path.name in listed_actions:
            action, size = _read_action(action_path)
        elif i < screens - 1:
            raise FormatError(action_path, "action file is missing; every screen but the last needs one")
        states.append(
            make_state(
                xml_path=xml / f"{i}.xml",
                screenshot_path=shots / f"{i}.png",
                activity=read_activity(activity_path) if activity_path.name in listed_activities else None,
                activity_path=activity_path,
                action=action,
                index=i,
                screen_size=size,
            )
        )
    installed = None
    installed_path = captured / INSTALLED_APPS
    if installed_path.exists():
        lines = read_utf8(installed_path, "installed apps list").splitlines()
        installed = frozenset(line.strip() for line in lines if line.strip())
    return Trace.from_states(states, episode=episode, installed_packages=installed, source=captured)


def _names(folder: Path) -> set[str]:
    """The names in a folder (none if it is missing or cannot be listed)."""
    try:
        with os.scandir(folder) as entries:
            return {entry.name for entry in entries}
    except OSError:
        return set()


def write_trace(episode_dir: str | Path, trace: Trace, *, compress_level: int = PNG_COMPRESS_LEVEL) -> Path:
    """Write a trace as ``<episode_dir>/captured_data``; returns episode_dir.

    Each screen's screenshot is written as it is (a state that draws its screenshot on
    demand draws it now, PNG at zlib level `compress_level`), its dump, activity, the
    action taken from it, and its droidbot JSON in ``vh/i.vh`` and
    ``view_hierarchy/i.json``. Everything is validated (every dump parsed) before the
    first file is written, and an existing captured_data folder is never written into
    (stale screens would join the trace).
    """
    episode_dir = Path(episode_dir)
    captured = episode_dir / CAPTURED_DATA
    if len(trace) == 0:
        raise FormatError(captured, "cannot write an empty trace")
    if captured.exists() and any(captured.iterdir()):
        raise FormatError(captured, "already holds a trace; write to a new episode folder")

    lines: list[str | None] = []
    activities = [state.canonical_activity for state in trace.states]  # resolved before writing
    for i, state in enumerate(trace.states):
        action = state.action
        if action is None:
            if i < len(trace) - 1:
                raise FormatError(
                    captured / "action" / f"{i}.action", f"step {i} has no action; only the last may lack one"
                )
            lines.append(None)
            continue
        if action.text is not None and ("\n" in action.text or "\r" in action.text):
            raise FormatError(
                captured / "action" / f"{i}.action",
                "typed text with line breaks does not fit a one-line action file",
            )
        lines.append(action.to_agentenv(*state.screen_size))
    views = [view_hierarchy_json(state_hierarchy(state, captured / "xml" / f"{i}.xml"))
             for i, state in enumerate(trace.states)]

    for sub in ("screenshot", "xml", "activity", "action", VH_FOLDER, VH_EVALUATOR_FOLDER):
        (captured / sub).mkdir(parents=True, exist_ok=True)
    for i, state in enumerate(trace.states):
        state.save_screenshot(captured / "screenshot" / f"{i}.png", compress_level=compress_level)
        write_text(captured / "xml" / f"{i}.xml", state.xml)
        _write_twice(captured / VH_FOLDER / f"{i}{VH_SUFFIX}", captured / VH_EVALUATOR_FOLDER / f"{i}.json", views[i])
        if activities[i] is not None:
            write_text(captured / "activity" / f"{i}.activity", short_activity(activities[i]))
        line = lines[i]
        if line is not None:
            write_text(captured / "action" / f"{i}.action", line)
    if trace.installed_packages is not None:
        (captured / INSTALLED_APPS).parent.mkdir(parents=True, exist_ok=True)
        write_text(captured / INSTALLED_APPS, "".join(f"{p}\n" for p in sorted(trace.installed_packages)))
    return episode_dir


def _write_twice(path: Path, other: Path, text: str) -> None:
    """The same text at two paths: the second a hard link to the first where the file
    system has them (a screen's views are ~35 KB), else a second copy."""
    write_text(path, text)
    try:
        os.link(path, other)
    except OSError:
        write_text(other, text)


def iter_traces(root: str | Path) -> Iterator[tuple[str, Path]]:
    """(episode, episode folder) for every folder under `root` with a captured_data
    folder, sorted by name."""
    root = Path(root)
    if not root.is_dir():  # checked now, not on the first next()
        raise FormatError(root, "AgentEnv traces folder does not exist")
    found = [(p.name, p) for p in root.iterdir() if (p / CAPTURED_DATA).is_dir()]
    return iter(sorted(found))


__all__ = ["CAPTURED_DATA", "PNG_COMPRESS_LEVEL", "VH_EVALUATOR_FOLDER", "VH_FOLDER", "episode_folder", "iter_traces",
           "read_trace", "write_trace"]
