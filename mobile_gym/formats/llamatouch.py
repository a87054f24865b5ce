"""LlamaTouch ground-truth dataset (format A of DESIGN.md §3.2).

A trace folder ``<root>/<category>/trace_<n>/`` holds, per screen i, ``i.png``,
``i.xml``, ``i.activity``, ``i.json`` (the component list annotations index into),
``i.vh`` (the hierarchy as droidbot's JSON, `mobile_gym.formats.droidbot`: LlamaTouch's
``fuzzy<-1>`` reads it; our reader does not need it), and ``i.ess`` on annotated
screens; plus ``eventStructs.txt`` (the action from screen i on line i) and
``instruction.txt`` (episode id, then description).

A screen's size is its screenshot's (and dump's), whatever resolution an
``eventStructs.txt`` line speaks: LlamaTouch's recorder wrote 320×720 for phones of
1080×2400, and that resolution only scales the line's own coordinates.

A task with alternative routes (`Annotation.alternatives`, our extension) keeps each in
``<trace folder>/alternatives/<r>/``, a trace folder of the same form for the same
episode. LlamaTouch's tools read the files of the trace folder itself and so see the
primary route alone; ours read all of them.

The writer makes every xpath of a component list one that LlamaTouch's evaluator can
run: it evaluates them with lxml on the raw dump, whose elements are all ``node``, so
our class-name spelling (``.../android.widget.TextView[2]``, `ViewHierarchy.xpath`)
is written with class predicates instead (``.../*[@class="android.widget.TextView"][2]``,
the same nodes in either tree); and every component a ``click<n>`` names gets one.
Everything else it writes is in the spellings LlamaTouch's loader and evaluator know: an
ENTER is the tap on the keyboard's Enter key that LlamaTouch records (`Action.to_event_line`),
and ``check_install<app>`` names the app as LlamaTouch's app table does where it has the
app (`llamatouch_app_name`).

Loading checks up front that every file an annotation depends on exists, so a broken
dataset fails when it is loaded, naming the file, instead of half-way through an
evaluation. Screenshots and hierarchies stay on disk until a matcher reads them.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from mobile_gym.actions import Action, ActionType, Point
from mobile_gym.errors import AnnotationError, FormatError, InvalidActionError, UnknownEpisodeError
from mobile_gym.formats.droidbot import VH_SUFFIX, view_hierarchy_json
from mobile_gym.formats.files import check_links, inside, read_utf8
from mobile_gym.formats.metadata import TaskMetadata, read_metadata
from mobile_gym.matcher.annotation import (
    Annotation,
    Checkpoint,
    Keyword,
    Primitive,
    ReferenceScreen,
    format_ess,
    parse_ess,
)
from mobile_gym.matcher.apps import AppRegistry
from mobile_gym.trace import Trace, UIState, normalize_activity, parse_activity_text
from mobile_gym.ui.components import Component, component_list, dumps_components, load_components
from mobile_gym.ui.hierarchy import Node, ViewHierarchy

INSTRUCTION_FILE = "instruction.txt"
EVENTS_FILE = "eventStructs.txt"
METADATA_FILE = "llamatouch_task_metadata.tsv"
#: The folder, inside a trace folder, of its alternative routes' trace folders 1, 2, ...
ALTERNATIVES_DIR = "alternatives"

# Any per-screen file; used to notice a screenshot missing at the end of a trace.
_SCREEN_FILE = re.compile(r"(\d+)(?:_drawed)?\.(?:png|xml|json|activity|vh|ess)")


# -- helpers shared with the AgentEnv format --------------------------------------------
def numbered_files(folder: Path, suffix: str) -> dict[int, Path]:
    """Files ``<i><suffix>`` in a folder by their index i >= 0 (``0_drawed.png`` and
    AgentEnv's ``-1.action`` are not numbered files)."""
    pattern = re.compile(r"(\d+)" + re.escape(suffix))
    if not folder.is_dir():
        return {}
    found = {}
    for path in folder.iterdir():
        m = pattern.fullmatch(path.name)
        if m:
            found[int(m.group(1))] = path
    return found


def read_activity(path: Path) -> str | None:
    """The activity an ``.activity`` file names (`parse_activity_text`); None when the
    file is missing or names none. Read at load time, so a corrupt one fails the load."""
    if not path.exists():
        return None
    return parse_activity_text(read_utf8(path, "activity file"), path)


def short_activity(activity: str) -> str:
    """``package/.Activity`` when the class lives in the package, else ``package/Class``:
    the form LlamaTouch's ``.activity`` files use (`activity` names its package)."""
    canonical = normalize_activity(activity)
    package, sep, cls = canonical.partition("/")
    if not sep:
        return canonical
    if cls.startswith(package + "."):
        cls = cls[len(package) :]
    return f"{package}/{cls}"


def write_text(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8"))


def state_hierarchy(state: UIState, path: Path) -> ViewHierarchy:
    """The state's parsed dump; one held in memory that cannot be parsed is a
    FormatError naming the file it was going to be written to."""
    try:
        return state.hierarchy
    except FormatError as exc:
        if exc.path is not None:
            raise
        raise FormatError(path, exc.problem) from exc


# -- loading --------------------------------------------------------------------------
def read_instruction(trace_dir: str | Path) -> tuple[str, str]:
    """(episode id, description) from a trace folder's ``instruction.txt``."""
    path = Path(trace_dir) / INSTRUCTION_FILE
    lines = read_utf8(path, "instruction file").split("\n")
    episode = lines[0].strip()
    if not episode:
        raise FormatError(path, "the first line must be the episode id")
    return episode, "\n".join(lines[1:]).strip()


def _screen_count(trace_dir: Path) -> int:
    """Number of screens: ``0.png .. n-1.png`` with no gap, and no other per-screen
    file past the last screenshot (that would be a screenshot missing at the end)."""
    pngs = numbered_files(trace_dir, ".png")
    indices = set(pngs)
    for path in trace_dir.iterdir():
        m = _SCREEN_FILE.fullmatch(path.name)
        if m:
            indices.add(int(m.group(1)))
    if not indices:
        raise FormatError(trace_dir, "no screenshots (0.png, 1.png, ...) in the trace folder")
    for i in range(max(indices) + 1):
        if i not in pngs:
            raise FormatError(
                trace_dir / f"{i}.png",
                "screenshot is missing; screens must be numbered 0..n-1 without gaps "
                f"(found files up to screen {max(indices)})",
            )
    return len(pngs)


def _read_events(trace_dir: Path, screens: int) -> list[Action]:
    path = trace_dir / EVENTS_FILE
    lines = read_utf8(path, "action record").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != screens - 1:
        raise FormatError(
            path,
            f"has {len(lines)} action line(s) but the trace has {screens} screen(s); expected "
            f"{screens - 1} (one per screen, the last screen's action is implicit)",
        )
    events = []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        try:
            events.append(Action.parse_event_line(line)[0])
        except InvalidActionError as exc:
            raise FormatError(path, f"line {number}: {exc}") from exc
    return events


def load_ground_truth(trace_dir: str | Path, *, root: str | Path | None = None) -> Annotation:
    """Load one trace folder as an Annotation whose `ground_truth` is the Trace, with the
    alternative routes under its ``alternatives/`` folder.

    Raises FormatError (or its subclass AnnotationError) naming the offending file when
    a required file is missing or a file is corrupt, or when a file is a symlink that
    leads out of `root` (default: the trace folder).
    """
    trace_dir = Path(trace_dir)
    if not trace_dir.is_dir():
        raise FormatError(trace_dir, "ground-truth trace folder does not exist")
    check_links(trace_dir, trace_dir if root is None else root)
    annotation = _load_route(trace_dir)
    folder = trace_dir / ALTERNATIVES_DIR
    routes = sorted((p for p in folder.iterdir() if p.is_dir()), key=_route_number) if folder.is_dir() else []
    for n, route_dir in enumerate(routes, 1):
        if route_dir.name != str(n):
            raise FormatError(route_dir, f"alternative routes are folders 1, 2, ... in order; expected {n}")
        alternative = _load_route(route_dir)
        if alternative.episode != annotation.episode:
            raise FormatError(route_dir / INSTRUCTION_FILE, f"names episode {alternative.episode}, but "
                                                            f"its main route is episode {annotation.episode}")
        annotation.alternatives.append(alternative)
    return annotation


def _route_number(folder: Path) -> tuple[int, str]:
    return (int(folder.name) if folder.name.isdecimal() else -1, folder.name)


def _load_route(trace_dir: Path) -> Annotation:
    episode, instruction = read_instruction(trace_dir)
    screens = _screen_count(trace_dir)
    events = _read_events(trace_dir, screens)

    states = []
    for i in range(screens):
        action = events[i] if i < len(events) else Action.complete()
        activity_path = trace_dir / f"{i}.activity"
        states.append(
            UIState(
                xml_path=trace_dir / f"{i}.xml",
                screenshot_path=trace_dir / f"{i}.png",
                activity=read_activity(activity_path),
                activity_path=activity_path,
                action=action,
                index=i,
            )
        )
    trace = Trace.from_states(states, episode=episode, instruction=instruction, source=trace_dir)

    checkpoints = []
    for i, ess_path in sorted(numbered_files(trace_dir, ".ess").items()):
        checkpoints.append(_checkpoint(trace_dir, states[i], ess_path))
    if not checkpoints:
        raise AnnotationError(trace_dir, "no screen is annotated (no i.ess file); nothing to match")
    return Annotation(checkpoints, episode=episode, instruction=instruction, ground_truth=trace)


def _checkpoint(trace_dir: Path, state: UIState, ess_path: Path) -> Checkpoint:
    i = state.index
    xml_path = trace_dir / f"{i}.xml"
    if not xml_path.exists():
        raise AnnotationError(xml_path, f"view hierarchy of annotated screen {i} is missing")
    json_path = trace_dir / f"{i}.json"
    if not json_path.exists():
        raise AnnotationError(json_path, f"component list of annotated screen {i} is missing")
    primitives = parse_ess(read_utf8(ess_path, "annotation"), source=ess_path)
    if any(p.keyword is Keyword.ACTIVITY for p in primitives):
        activity_path = trace_dir / f"{i}.activity"
        if not activity_path.exists():
            raise AnnotationError(
                activity_path, f"screen {i} is annotated with activity<> but its activity file is missing"
            )
        if state.canonical_activity is None:  # a class without its package is resolved now
            raise AnnotationError(
                activity_path, f"names no activity, but screen {i} is annotated with activity<>"
            )
    screen = ReferenceScreen(state, load_components(json_path), source=ess_path)
    return Checkpoint(screen, primitives)


# -- writing --------------------------------------------------------------------------
def write_ground_truth(
    trace_dir: str | Path,
    trace: Trace,
    annotations: Mapping[int, Sequence[Primitive]],
    *,
    episode: str,
    instruction: str,
    components: Mapping[int, list[Component]] | None = None,
    enter_key: Point | None = None,
) -> Path:
    """Write a trace and its annotations as a LlamaTouch trace folder.

    `annotations` maps screen index to that screen's primitives; `components` overrides
    the component list of a screen (default: derived from its hierarchy). Component
    xpaths are written in the dump's spelling and a component that ``click<n>`` names
    gets one if it has none (`dump_xpaths`); apps are named as LlamaTouch's evaluator
    names them (`llamatouch_app_name`). An ENTER is written as the tap on the keyboard's
    Enter key: where the screen shows it, else at `enter_key` (normalised; where the
    device draws it, e.g. `SimulatedDevice.enter_key`); an ENTER with neither is a
    FormatError. Screenshots must be at the screen's resolution, as LlamaTouch's are:
    a screen's size is read back from its screenshot. Everything else is validated
    (every dump parsed) before the first file is written (a screenshot of another size
    removes the ones written before it), and the folder must not already hold a trace
    (stale ``.ess`` files would silently join the annotation).
    """
    trace_dir = Path(trace_dir)
    n = len(trace)
    if n == 0:
        raise FormatError(trace_dir, "cannot write an empty trace")
    if not episode.strip() or "\n" in episode or "\r" in episode:
        raise FormatError(trace_dir / INSTRUCTION_FILE, f"bad episode id {episode!r}")
    if not annotations:
        raise AnnotationError(trace_dir, "no screen is annotated; a ground-truth trace needs checkpoints")
    if (trace_dir / EVENTS_FILE).exists() or (
        trace_dir.is_dir() and any(_SCREEN_FILE.fullmatch(p.name) for p in trace_dir.iterdir())
    ):
        raise FormatError(trace_dir, "already holds a trace; write to a new folder")

    events = []
    for i, state in enumerate(trace.states[:-1]):
        if state.action is None:
            raise FormatError(
                trace_dir / EVENTS_FILE, f"screen {i} has no action; only the last may lack one"
            )
        try:
            key = (_enter_key(state) or enter_key) if state.action.action_type is ActionType.ENTER else None
            events.append(state.action.to_event_line(*state.screen_size, enter_key=key))
        except InvalidActionError as exc:
            raise FormatError(trace_dir / EVENTS_FILE, f"screen {i}: {exc}") from exc

    activities = [state.canonical_activity for state in trace.states]
    lists = []
    views = []
    for i, state in enumerate(trace.states):
        given = components.get(i) if components is not None else None
        hierarchy = state_hierarchy(state, trace_dir / f"{i}.xml")
        listed = list(given) if given is not None else component_list(hierarchy)
        lists.append(dump_xpaths(listed, hierarchy, _clicked(annotations.get(i, ()))))
        views.append(view_hierarchy_json(hierarchy))

    annotations = {i: [_llamatouch_spelling(p) for p in primitives] for i, primitives in annotations.items()}
    for i, primitives in annotations.items():
        ess_path = trace_dir / f"{i}.ess"
        if not isinstance(i, int) or not 0 <= i < n:
            raise AnnotationError(ess_path, f"annotates screen {i!r}, but the trace has {n} screens")
        text = format_ess(primitives)
        if parse_ess(text, source=ess_path) != primitives:
            raise AnnotationError(ess_path, f"{text!r} does not read back as the same primitives")
        state = trace.states[i]
        if any(p.keyword is Keyword.ACTIVITY for p in primitives) and activities[i] is None:
            raise AnnotationError(ess_path, f"screen {i} is annotated with activity<> but has no activity")
        Checkpoint(ReferenceScreen(state, lists[i], source=ess_path), primitives)

    trace_dir.mkdir(parents=True, exist_ok=True)
    _write_screenshots(trace_dir, trace)
    for i, state in enumerate(trace.states):
        write_text(trace_dir / f"{i}.xml", state.xml)
        write_text(trace_dir / f"{i}{VH_SUFFIX}", views[i])
        if activities[i] is not None:
            write_text(trace_dir / f"{i}.activity", short_activity(activities[i]) + "\n")
        write_text(trace_dir / f"{i}.json", dumps_components(lists[i]))
        if i in annotations:
            write_text(trace_dir / f"{i}.ess", format_ess(annotations[i]) + "\n")
    write_text(trace_dir / EVENTS_FILE, "\n".join(events))
    write_text(trace_dir / INSTRUCTION_FILE, f"{episode}\n{instruction}")
    return trace_dir


def _write_screenshots(trace_dir: Path, trace: Trace) -> None:
    """``i.png`` of every screen, each checked to be at its screen's size (read from the
    file's header, as the reader does); if one is not (or cannot be written), the ones
    written are removed: the folder holds no trace."""
    written: list[Path] = []
    try:
        for i, state in enumerate(trace.states):
            path = trace_dir / f"{i}.png"
            written.append(path)
            state.save_screenshot(path)
            size = UIState(screenshot_path=path).screen_size
            if size != state.screen_size:
                raise FormatError(path, f"screenshot {i} is {size[0]}x{size[1]} pixels for a screen of "
                                        f"{state.screen_size[0]}x{state.screen_size[1]}: a LlamaTouch dataset keeps "
                                        "screenshots at the screen's resolution (a screen's size is read from them)")
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise


def _clicked(primitives: Sequence[Primitive]) -> set[int]:
    """The components a screen's ``click<n>`` primitives name."""
    return {p.index for p in primitives if p.keyword is Keyword.CLICK and p.index is not None}


def xpath_literal(text: str) -> str:
    """``text`` as an XPath 1.0 string literal (``concat`` when it holds both quotes)."""
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return "concat(" + ", '\"', ".join(f'"{part}"' for part in text.split('"')) + ")"


def dump_xpath(node: Node, hierarchy: ViewHierarchy) -> str:
    """`Node.xpath` in the spelling a raw uiautomator dump answers too: anchored at the
    nearest ancestor-or-self whose resource-id is unique in the dump, each step a class
    predicate, numbered among the siblings of that class when there are several
    (``//*[@resource-id="x"]/*[@class="android.widget.TextView"][2]``)."""
    counts: dict[str, int] = {}
    for n in hierarchy.nodes:
        if n.resource_id:
            counts[n.resource_id] = counts.get(n.resource_id, 0) + 1
    steps = []
    current: Node | None = node
    while current is not None:
        rid = current.resource_id
        if rid and counts[rid] == 1 and '"' not in rid:
            return f"//*[@resource-id={xpath_literal(rid)}]" + "".join(reversed(steps))
        parent = current.parent
        siblings = hierarchy.roots if parent is None else parent.children
        same = [s for s in siblings if s.class_name == current.class_name]
        position = f"[{next(k for k, s in enumerate(same, 1) if s is current)}]" if len(same) > 1 else ""
        steps.append(f"/*[@class={xpath_literal(current.class_name)}]{position}")
        current = parent
    return "/hierarchy" + "".join(reversed(steps))


def identity_xpath(component: Component) -> str:
    """The nodes that equal a component on class, resource-id, text and content-desc,
    as an xpath: the nodes our matcher's ``click<n>`` falls back to without one."""
    return "//*" + "".join(
        f"[@{name}={xpath_literal(value)}]"
        for name, value in (("class", component.class_name), ("resource-id", component.resource_id),
                            ("text", component.text), ("content-desc", component.content_desc))
    )


def dump_xpaths(components: Sequence[Component], hierarchy: ViewHierarchy, clicked: set[int]) -> list[Component]:
    """The components with xpaths LlamaTouch's evaluator can run on a raw dump.

    An xpath our hierarchy made for the component's node (`Node.xpath`, class-name
    spelling) becomes the same path in the dump's spelling (`dump_xpath`); any other
    xpath is kept as given. A component in ``clicked`` without one gets `identity_xpath`
    (a label inside a clickable row: what a tap on it must land in, whatever the row's
    position in a list that varies), as LlamaTouch reads ``xpath`` of every clicked
    component and fails the episode without one.
    """
    out = []
    for c in components:
        xpath = c.xpath
        if xpath:
            node = next((n for n in hierarchy.nodes if n.bounds == c.bounds and n.class_name == c.class_name
                         and n.text == c.text and n.resource_id == c.resource_id
                         and n.content_desc == c.content_desc and n.xpath == xpath), None)
            if node is not None:
                xpath = dump_xpath(node, hierarchy)
        elif c.id in clicked:
            xpath = identity_xpath(c)
        out.append(c if xpath == c.xpath else dataclasses.replace(c, xpath=xpath))
    return out


# -- the dataset ------------------------------------------------------------------------
@dataclass(frozen=True)
class _Entry:
    trace_dir: Path
    category: str | None
    description: str | None


class GroundTruthDataset:
    """A LlamaTouch ground-truth dataset: episode ids → trace folders, loaded on demand.

    With metadata (a TSV path, rows from `read_metadata`, or ``<root>/llamatouch_task_
    metadata.tsv`` when present) each row's ``path`` locates the trace folder; without,
    episodes are found from ``<root>/*/trace_*/instruction.txt``. Nothing outside the
    root is read: a path that leaves it (``..``, absolute, a symlink) is a FormatError.
    """

    def __init__(self, root: str | Path, metadata: str | Path | Mapping[str, TaskMetadata] | None = None):
        self.root = Path(root)
        if not self.root.is_dir():
            raise FormatError(self.root, "ground-truth dataset folder does not exist")
        if metadata is None and (self.root / METADATA_FILE).exists():
            metadata = self.root / METADATA_FILE
        self.metadata_path: Path | None = None
        self._entries: dict[str, _Entry] | None = None
        if isinstance(metadata, (str, Path)):
            self.metadata_path = Path(metadata)
            metadata = read_metadata(self.metadata_path)
        if metadata is not None:
            self._entries = {
                row.episode: _Entry(self.root / row.path, row.category, row.description)
                for row in metadata.values()
            }

    def __repr__(self) -> str:
        return f"<GroundTruthDataset {self._name()}>"

    def _name(self) -> str:
        return str(self.root) + (f" (metadata {self.metadata_path})" if self.metadata_path else "")

    @property
    def _index(self) -> dict[str, _Entry]:
        if self._entries is None:
            self._entries = self._scan()
        return self._entries

    def _scan(self) -> dict[str, _Entry]:
        def key(path: Path) -> tuple[str, int, str]:
            folder = path.parent
            number = folder.name.removeprefix("trace_")
            return (folder.parent.name, int(number) if number.isdecimal() else -1, folder.name)

        entries: dict[str, _Entry] = {}
        for path in sorted(self.root.glob(f"*/trace_*/{INSTRUCTION_FILE}"), key=key):
            inside(self.root, path, "instruction file")
            episode, description = read_instruction(path.parent)
            if episode in entries:
                raise FormatError(
                    path,
                    f"episode {episode} is also in {entries[episode].trace_dir}; "
                    "episode ids must be unique",
                )
            entries[episode] = _Entry(path.parent, path.parent.parent.name, description)
        return entries

    def _entry(self, episode: str) -> _Entry:
        try:
            return self._index[str(episode)]
        except KeyError:
            raise UnknownEpisodeError(
                f"episode {episode!r} is not in the ground-truth dataset at {self._name()}; "
                "see GroundTruthDataset.episodes() for the known ones"
            ) from None

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, episode: object) -> bool:
        return str(episode) in self._index

    def episodes(self) -> list[str]:
        return list(self._index)

    def category(self, episode: str) -> str | None:
        return self._entry(episode).category

    def description(self, episode: str) -> str | None:
        return self._entry(episode).description

    def trace_dir(self, episode: str) -> Path:
        return self._entry(episode).trace_dir

    def load(self, episode: str) -> Annotation:
        """The episode's annotation (reads its folder now; nothing is cached)."""
        episode = str(episode)
        entry = self._entry(episode)
        inside(self.root, entry.trace_dir, f"trace folder of episode {episode}")
        if not entry.trace_dir.is_dir():
            raise FormatError(entry.trace_dir, f"trace folder of episode {episode} does not exist")
        annotation = load_ground_truth(entry.trace_dir, root=self.root)
        if annotation.episode != episode:
            raise FormatError(
                entry.trace_dir / INSTRUCTION_FILE,
                f"names episode {annotation.episode}, but {self.metadata_path or 'the metadata'} "
                f"places episode {episode} in this folder; fix the metadata path or the file",
            )
        if not annotation.instruction and entry.description:
            annotation.instruction = entry.description
        annotation.category = entry.category
        return annotation


__all__ = [
    "EVENTS_FILE",
    "INSTRUCTION_FILE",
    "METADATA_FILE",
    "GroundTruthDataset",
    "load_ground_truth",
    "read_activity",
    "read_instruction",
    "dump_xpath",
    "dump_xpaths",
    "identity_xpath",
    "llamatouch_app_name",
    "short_activity",
    "write_ground_truth",
    "xpath_literal",
]


#: The keyboard's Enter (IME action) key, as Gboard and the simulator's keyboard name it.
ENTER_KEY_ID = ":id/key_pos_ime_action"


def _enter_key(state: UIState) -> tuple[float, float] | None:
    """Where the screen shows the keyboard's Enter key (normalised), if it does."""
    hierarchy = state.hierarchy
    key = next((n for n in hierarchy if n.resource_id.endswith(ENTER_KEY_ID) and n.bounds.area), None)
    if key is None:
        return None
    screen = hierarchy.screen_bounds
    x, y = key.bounds.center
    return x / screen.right, y / screen.bottom


#: The name LlamaTouch's evaluator looks an app up by (its ``app_to_package_name``: any
#: other name is a KeyError there), by package, where our app table spells it otherwise.
LLAMATOUCH_APP_NAMES = {
    "com.ebay.mobile": "ebay",
    "org.mozilla.firefox": "firefox",
    "com.duolingo": "Duolingo",
    "com.microsoft.office.excel": "Microsoft Excel",
    "com.google.android.calendar": "calendar",
    "com.android.chrome": "chrome",
    "com.instagram.android": "instagram",
}


def llamatouch_app_name(app: str, apps: AppRegistry | None = None) -> str:
    """The app as LlamaTouch's evaluator names it (``eBay`` -> ``ebay``, ``Duolingo:
    language lessons`` -> ``Duolingo``), else `app` itself: a name its table has already
    (``Calculator``), or an app `LLAMATOUCH_APP_NAMES` has no name for, which LlamaTouch's
    evaluator cannot look up (its ``mcdonalds`` our table does not read; its ``Booking.com``
    is Expedia's package there, ``com.booking`` here). `apps` resolves the name (default:
    the bundled table). Our matcher reads either name as the same packages."""
    try:
        packages = (apps or AppRegistry.bundled()).packages(app)
    except AnnotationError:  # an app of no table: nothing to rename it to
        return app
    names = {LLAMATOUCH_APP_NAMES[p] for p in packages if p in LLAMATOUCH_APP_NAMES}
    return names.pop() if len(names) == 1 else app


def _llamatouch_spelling(p: Primitive) -> Primitive:
    if p.keyword in (Keyword.CHECK_INSTALL, Keyword.CHECK_UNINSTALL):
        return Primitive(p.keyword, llamatouch_app_name(p.content))
    return p
