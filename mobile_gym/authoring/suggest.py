"""Suggested annotations: essential states drawn from the explorer's routes.

Annotating a task by hand means guessing which states every valid route passes through
and no failing one does; the explorer has the routes, so the guess can be measured and
then made. `suggest_annotation` replays every route the explorer found, writes down per
screen the facts the matcher's primitives can test, and picks checkpoints from them:

- **Facts**: the foreground activity (``activity``); each app-window component's exact
  identity as ``exact<n>`` compares it (class, resource-id, text and content-desc without
  case, the state flags), and its absence (``exclude<n>``); the installed packages
  (``check_install`` / ``check_uninstall``). Status and navigation bars and keyboards are
  no part of the task, and a component whose identity changes when only the clock moves
  (a clock face, a countdown, "tomorrow" in another time zone) is no essential state:
  both are left out. Each fact is a bit mask over all the routes' screens, so the
  tracker's verdict on every route is a few bit operations and the search can afford to
  try every fact at every step.
- **Anchors**: a checkpoint refers to components of one reference screen, the screen
  after some golden-path entries (``at:``), so a checkpoint may use only the facts whose
  components are on its screen. An ``exclude`` names a component that is on the
  reference screen but gone from the screen that matches (the switch that was on).
- **The final checkpoint** holds on the last screen of every successful route: from the
  facts true on all of them, the one that rules out most of the remaining screens that
  must not match (every screen of a failing route, every earlier screen of a successful
  one, where a match would credit it too early) is added until none is left, most
  specific first on ties; facts the verdicts turn out not to need are dropped, and the
  activity is added when it changes no verdict (as LlamaTouch annotates). When no such
  fact is left, the one that judges most routes right is taken (recall then drops below
  1: a checkpoint is a conjunction, and routes that end on different screens may share
  too little). The best over all anchors is kept.
- **Earlier checkpoints** are added only while some route is still judged wrong and one
  makes more routes right; the tracker's order semantics are simulated exactly (each
  checkpoint on a later step than the one before, earliest match first).
- **Actions and similar text** come last: only when the states leave routes judged wrong
  (a refreshed page looks as it did) are ``click`` on what the golden path taps,
  ``type`` of what it types (a checkpoint judged on the move, the last move if final)
  and ``fuzzy`` on texts that end some successful routes but not all tried, each judged
  by the matcher itself; they are kept if they judge more routes right.
- **Output**: checkpoints in the task-file format, with ``at:`` the first golden-path
  boundary screen where the checkpoint holds (else where its components are) that keeps
  the order, and selectors made of the node's attributes (text, content_desc,
  resource_id, class_name, ``row`` to pick a switch in a row, ``nth``). The YAML text is
  parsed back and turned into an annotation by the normal task pipeline, and that
  annotation is judged on the exploration's routes with `judge_routes`: the recall and
  precision printed are those of exactly what is printed. They are measured on the
  routes the suggestion was drawn from; judge `Suggestion.annotation` on another
  exploration (another seed) to see how it generalises.
"""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

import yaml

from mobile_gym.actions import Action, ActionType
from mobile_gym.authoring.explorer import Exploration, ExploreConfig, Route, explore, route_states
from mobile_gym.authoring.validate import RouteScore, RouteVerdict, judge_routes, score
from mobile_gym.errors import AnnotationError, ConfigError, MobileGymError
from mobile_gym.matcher.annotation import Keyword
from mobile_gym.ui.components import is_component
from mobile_gym.ui.hierarchy import Node, ViewHierarchy, is_system_window

if TYPE_CHECKING:
    from mobile_gym.matcher import Annotation, Matcher
    from mobile_gym.tasks.definition import CheckpointSpec, SimTask, Step
    from mobile_gym.trace import UIState

#: How far the clock is moved to find components that show the time: every digit of a
#: clock face or countdown changes, and so does "today" / "tomorrow" in some time zone.
CLOCK_SHIFTS = (7 * 3600 + 13 * 60 + 25, 16 * 3600 + 41 * 60 + 35)
#: Longest text tried with ``fuzzy`` (longer ones are paragraphs, not states).
MAX_FUZZY_TEXT = 80
#: Indentation of a task's fields in a task file (``- id: ...`` then two spaces).
FIELD_INDENT = "  "

Identity = tuple  # (class, resource-id, text, content-desc, flags) as exact<n> compares them


@dataclass(frozen=True)
class SuggestConfig:
    """How large a suggestion may grow."""

    max_checkpoints: int = 3  # checkpoints at most
    max_checks: int = 6  # primitives per checkpoint at most
    #: components tried with ``fuzzy`` when exact states leave routes judged wrong (0: none);
    #: each costs a pass of the embedding model over the routes' texts
    fuzzy: int = 8

    def __post_init__(self) -> None:
        for name, low in (("max_checkpoints", 1), ("max_checks", 1), ("fuzzy", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ConfigError(f"SuggestConfig.{name} must be a whole number >= {low}, got {value!r}")


@dataclass(frozen=True)
class Fact:
    """What one primitive tests, whatever screen it is anchored to: ``key`` is the
    canonical activity (activity), a component identity (exact, exclude, fuzzy), a
    package (install, uninstall), the typed text (type), or for a click the boundary
    screen, the component's index there and its identity (click<n> locates the node by
    the component's xpath on that screen)."""

    kind: str  # activity, exact, exclude, fuzzy, install, uninstall, click, type
    key: str | Identity


@dataclass(frozen=True)
class Suggestion:
    """A suggested annotation, and how it fares on the exploration it was drawn from."""

    task: str
    checkpoints: tuple[CheckpointSpec, ...]
    yaml: str  # the ``checkpoints:`` block, indented to paste into a task entry
    score: RouteScore  # measured with `judge_routes` on the annotation the YAML makes
    verdicts: tuple[RouteVerdict, ...]
    exploration: Exploration
    annotation: Annotation = field(repr=False)  # what the YAML makes, to judge other routes with

    @property
    def perfect(self) -> bool:
        """Every successful route credited at its last move, no failing one credited."""
        return self.score.recall == 1 and self.score.precision == 1


# ---------------------------------------------------------------------------- facts

def identity(node: Node, flags: Iterable[str]) -> Identity:
    """A node as ``exact<n>`` compares it with an annotated component."""
    return (node.class_name, node.resource_id, node.text.casefold(), node.content_desc.casefold(),
            tuple(node.flags.get(f, False) for f in flags))


@dataclass
class _Screen:
    """What the primitives can test on one step: its state and the move made from it."""

    state: UIState
    action: Action | None  # the move made from this screen (None on a route's last)
    activity: str | None
    ids: frozenset
    installed: frozenset[str]


def _screen(state: UIState, action: Action | None, flags: tuple[str, ...]) -> _Screen:
    return _Screen(state, action, state.canonical_activity, frozenset(identity(n, flags) for n in state.hierarchy),
                   frozenset(p.lower() for p in state.installed_packages or ()))


@dataclass
class _Reference:
    """A golden-path boundary screen (``at: k``): the components a checkpoint anchored
    there may name, by identity, and the golden path's entry that starts on it."""

    screen: _Screen
    components: dict[Identity, Node]  # first component node of each usable identity
    step: Step | None  # the golden-path entry ``at: k`` is before (None after the last)


def _references(task: SimTask, flags: tuple[str, ...]) -> list[_Reference]:
    """The reference screens ``at: 0..len(golden_path)``, as the task pipeline annotates
    them, with their usable components: app-window ones whose identity the clock leaves
    alone, and which carry a label or a resource-id (a bare image is no state)."""
    trace, starts = task.ground_truth
    volatile = _clock_dependent(task, flags)
    out = []
    for k, start in enumerate(starts):
        state = trace[start]
        components: dict[Identity, Node] = {}
        for node in state.hierarchy:
            if not is_component(node) or is_system_window(node) or not (node.label or node.resource_id):
                continue
            ident = identity(node, flags)
            if ident not in volatile[k]:
                components.setdefault(ident, node)
        step = task.golden_path[k] if k < len(task.golden_path) else None
        out.append(_Reference(_screen(state, state.action, flags), components, step))
    return out


def _clock_dependent(task: SimTask, flags: tuple[str, ...]) -> list[set[Identity]]:
    """Per boundary screen of the golden path, the identities that change when only the
    clock moves: replay the canonical golden path and look at each boundary at other times."""
    phone = task.device(seed=0, dynamics="none")
    out: list[set[Identity]] = []

    def boundary() -> None:
        now = {identity(n, flags) for n in phone.observe(screenshot=False).hierarchy}
        changed: set[Identity] = set()
        for shift in CLOCK_SHIFTS:
            later_phone = pickle.loads(pickle.dumps(phone))
            runtime = later_phone.runtime
            runtime.time = (runtime.time + shift) % 86400
            changed |= now - {identity(n, flags) for n in later_phone.observe(screenshot=False).hierarchy}
        out.append(changed)

    for step in task.golden_path:
        boundary()
        for action in step.actions(phone):
            phone.perform(action)
    boundary()
    return out


# ----------------------------------------------------------------------- the search

ACTION_KINDS = frozenset({"click", "type"})


@dataclass(frozen=True)
class _Tally:
    good: int  # successful routes credited at their last move
    early: int  # successful routes credited before it
    false: int  # failing routes credited
    failures: int

    @property
    def right(self) -> int:
        return self.good + self.failures - self.false


@dataclass
class _Plan:
    """A checkpoint in the making: its facts, where it may be anchored, the screens it
    matches (a bit mask), and whether it is judged on the move made (click, type)."""

    facts: list[Fact]
    anchors: set[int]
    mask: int

    @property
    def action(self) -> bool:
        return any(f.kind in ACTION_KINDS for f in self.facts)


class _Space:
    """Every screen of every route, and each fact as a bit mask over them (bit i: the
    fact holds on screen i), so that a checkpoint is the AND of its facts' masks and the
    tracker's walk over a route is a few bit operations."""

    def __init__(self, routes: list[tuple[Route, list[_Screen]]], references: list[_Reference],
                 packages: Iterable[str]):
        self.routes: list[tuple[int, int, bool]] = []  # (first screen, last screen, success)
        screens: list[_Screen] = []
        for route, seen in routes:
            self.routes.append((len(screens), len(screens) + len(seen) - 1, route.success))
            screens.extend(seen)
        self.screens = screens
        self.all = (1 << len(screens)) - 1
        self.finals = sum(1 << b for _, b, ok in self.routes if ok)  # where successful routes end
        self.before_finals = sum(1 << (b - 1) for a, b, ok in self.routes if ok and b > a)  # their last move's
        self.failures = sum(not ok for *_, ok in self.routes)
        self.references = references
        self.masks: dict[Fact, int] = {}
        self.anchors: dict[Fact, set[int]] = {}
        for k, ref in enumerate(references):
            for ident in ref.components:
                present = self._add(Fact("exact", ident), k, lambda s, i=ident: i in s.ids)
                self._add(Fact("exclude", ident), k, mask=self.all & ~present)
            if ref.screen.activity is not None:
                self._add(Fact("activity", ref.screen.activity), k, lambda s, a=ref.screen.activity: s.activity == a)
        everywhere = range(len(references))
        for package in packages:
            installed = self._add(Fact("install", package), everywhere, lambda s, p=package: p in s.installed)
            self._add(Fact("uninstall", package), everywhere, mask=self.all & ~installed)
        self._drop_useless()

    def _add(self, fact: Fact, anchors: int | Iterable[int], test=None, mask: int | None = None) -> int:
        if fact not in self.masks:
            self.masks[fact] = mask if mask is not None else sum(
                1 << i for i, s in enumerate(self.screens) if test(s))
        self.anchors.setdefault(fact, set()).update([anchors] if isinstance(anchors, int) else anchors)
        return self.masks[fact]

    def _drop_useless(self) -> None:
        """Facts that tell no screen apart are of no use."""
        self.masks = {f: m for f, m in self.masks.items() if m not in (0, self.all)}

    def add_fuzzy_facts(self, matcher: Matcher, limit: int) -> None:
        """``fuzzy`` on labelled components whose exact text holds at the end of some
        successful routes but not all (where a similar text may be the same state):
        judged by the matcher itself, with its embedding model, on every screen; at most
        `limit` components, those at the end of most successful routes first."""
        from mobile_gym.matcher.annotation import Checkpoint, Primitive, ReferenceScreen
        from mobile_gym.ui.components import component_list

        ends = self.finals.bit_count()
        partial = [(f, (m & self.finals).bit_count()) for f, m in self.masks.items()
                   if f.kind == "exact" and 0 < (m & self.finals).bit_count() < ends
                   and (f.key[2] or f.key[3]) and len(f.key[2] or f.key[3]) <= MAX_FUZZY_TEXT]  # type: ignore[index]
        partial.sort(key=lambda p: -p[1])
        for exact, _ in partial[:limit]:
            k = min(self.anchors[exact])
            state = self.references[k].screen.state
            nodes = [n for n in state.hierarchy if is_component(n)]
            node = self.references[k].components[exact.key]  # type: ignore[index]
            checkpoint = Checkpoint(ReferenceScreen(state, component_list(state.hierarchy)),
                                    [Primitive(Keyword.FUZZY, str(nodes.index(node)))])
            self._add(Fact("fuzzy", exact.key), self.anchors[exact],
                      lambda s, c=checkpoint: matcher.check(c, s.state).matched)
        self._drop_useless()

    def add_action_facts(self, matcher: Matcher) -> None:
        """``click`` on what the golden path taps at each boundary screen, ``type`` of what
        it types: judged by the matcher itself on every move of every route."""
        from mobile_gym.matcher.annotation import Checkpoint, Primitive, ReferenceScreen
        from mobile_gym.ui.components import component_list

        for k, ref in enumerate(self.references):
            action, state = ref.screen.action, ref.screen.state
            if ref.step is not None and ref.step.kind == "type" and action is not None \
                    and action.action_type is ActionType.TYPE:
                text = action.text or ""
                self._add(Fact("type", text), k, lambda s, t=text.strip(): s.action is not None
                          and s.action.action_type is ActionType.TYPE and (s.action.text or "").strip() == t)
            if action is None or not action.is_tap:
                continue
            (x, y), (width, height) = action.touch, state.screen_size  # type: ignore[misc]
            target = state.hierarchy.clickable_at(x * width, y * height)
            if target is None:
                continue
            components = component_list(state.hierarchy)
            nodes = [n for n in state.hierarchy if is_component(n)]
            reference = ReferenceScreen(state, components)
            for index, node in enumerate(nodes):
                if node.clickable_target is not target or is_system_window(node):
                    continue
                checkpoint = Checkpoint(reference, [Primitive(Keyword.CLICK, str(index))])
                ident = identity(node, tuple(matcher.config.exact_flags))
                self._add(Fact("click", (k, index, ident)), k, lambda s, c=checkpoint: s.action is not None
                          and s.action.is_tap and matcher.check(c, s.state, action=s.action).matched)
        self._drop_useless()

    def tally(self, plans: list[tuple[int, bool]]) -> _Tally:
        """The tracker's verdict on every route; a checkpoint is (mask, judged on the move)."""
        good = early = false = 0
        for a, b, ok in self.routes:
            moves = _credited(plans, a, b)
            if ok:
                good += moves == b - a
                early += moves is not None and moves < b - a
            else:
                false += moves is not None
        return _Tally(good, early, false, self.failures)


def _credited(plans: list[tuple[int, bool]], a: int, b: int) -> int | None:
    """After how many moves of the route (screens a..b) the tracker says success: each
    checkpoint on the earliest screen after the previous one's, one judged on the move
    made from its screen counting that move; None if some checkpoint never matches."""
    pos, moves = a, None
    for mask, action in plans:
        window = (mask >> pos) & ((1 << (b - pos + 1)) - 1) if pos <= b else 0
        if not window:
            return None
        at = pos + (window & -window).bit_length() - 1
        pos, moves = at + 1, at - a + action
    return moves


def _rank(fact: Fact) -> int:
    """Most specific and robust first: an app installed or not (the state itself), a
    component with text and resource-id, one with a label, the activity, absences,
    similar text, components known by resource-id only (judged by their screenshot
    patch); actions last (a state shows that the task is done whatever way it was done)."""
    if fact.kind in ("install", "uninstall"):
        return 0
    if fact.kind == "activity":
        return 3
    if fact.kind == "fuzzy":
        return 6
    if fact.kind in ACTION_KINDS:
        return 9
    _, rid, text, desc, _ = fact.key  # type: ignore[misc]
    exclude = fact.kind == "exclude"
    if text or desc:
        return (1 if text and rid else 2) + 3 * exclude
    return 7 + exclude


def _and(space: _Space, facts: list[Fact]) -> int:
    mask = space.all
    for f in facts:
        mask &= space.masks[f]
    return mask


def _grow(space: _Space, k: int, rest: list[tuple[int, bool]], config: SuggestConfig, *,
          final: bool, actions: bool, on_move: bool) -> _Plan | None:
    """One checkpoint anchored at boundary screen k, before the checkpoints `rest`
    (mask, judged on the move), grown greedily (see the module docstring). A final checkpoint
    first covers the screens where it must not match with facts true wherever it must;
    then (and for earlier checkpoints) a fact is taken when it judges more routes right.
    `actions` allows click and type; with `on_move` the checkpoint is judged on a move
    (the last one, if final): its first fact is a click or type."""
    wanted = (space.before_finals if on_move else space.finals) if final else 0
    candidates = [f for f, m in space.masks.items() if k in space.anchors[f]
                  and (f.kind not in ACTION_KINDS or actions or on_move) and (not final or m & wanted)]

    def judged(mask: int, facts: list[Fact]) -> _Tally:
        plan = (mask, any(f.kind in ACTION_KINDS for f in facts))
        return space.tally([plan, *rest])

    plan = _Plan([], {k}, space.all)
    tally = judged(plan.mask, [])
    while len(plan.facts) < config.max_checks and tally.right < len(space.routes):
        kept, wrong = plan.mask & wanted, (plan.mask & ~wanted).bit_count()
        options = []
        for f in candidates:
            if f in plan.facts or (on_move and not plan.facts and f.kind not in ACTION_KINDS):
                continue
            mask = plan.mask & space.masks[f]
            t = judged(mask, [*plan.facts, f])
            still_wrong = (mask & ~wanted).bit_count()
            if final and mask & kept == kept and still_wrong < wrong:  # loses no success, rules out screens
                options.append(((1, -still_wrong, t.right, -_rank(f)), f, mask, t))
            elif t.right > tally.right or (on_move and not plan.facts):
                options.append(((0, t.right, -still_wrong, -_rank(f)), f, mask, t))
        if not options:
            break
        _, f, mask, tally = max(options, key=lambda o: o[0])
        plan.facts.append(f)
        plan.mask = mask
    if not plan.facts:
        return None
    plan = _pruned(space, plan, lambda p: [p, *rest])
    plan.anchors = set.intersection(*(space.anchors[f] for f in plan.facts))
    return _with_activity(space, plan, lambda p: [p, *rest], config)


def _pruned(space: _Space, plan: _Plan, annotation) -> _Plan:
    """Drop facts the verdicts do not need, least specific first (an action checkpoint
    keeps an action)."""
    facts = list(plan.facts)
    target = space.tally(annotation((plan.mask, plan.action)))
    for f in sorted(plan.facts, key=_rank, reverse=True):
        rest = [g for g in facts if g != f]
        if not rest or (plan.action and not any(g.kind in ACTION_KINDS for g in rest)):
            continue
        t = space.tally(annotation((_and(space, rest), plan.action)))
        if (t.right, t.good) >= (target.right, target.good):
            facts, target = rest, t
    return _Plan(facts, plan.anchors, _and(space, facts))


def _with_activity(space: _Space, plan: _Plan, annotation, config: SuggestConfig) -> _Plan:
    """Add the activity when the verdicts do not change: it costs nothing to judge (it is
    judged first) and says on which page the state is expected, as LlamaTouch annotates.
    Not to an install check: an app is installed whatever page shows it."""
    if len(plan.facts) >= config.max_checks or any(f.kind in ("activity", "install", "uninstall")
                                                   for f in plan.facts):
        return plan
    target = space.tally(annotation((plan.mask, plan.action)))
    for k in sorted(plan.anchors, key=lambda k: not _holds(plan.facts, space.references[k].screen)):
        fact = Fact("activity", space.references[k].screen.activity)
        if fact not in space.masks:
            continue
        mask = plan.mask & space.masks[fact]
        if space.tally(annotation((mask, plan.action))) == target:
            return _Plan([*plan.facts, fact], plan.anchors & space.anchors[fact], mask)
    return plan


def _key(space: _Space, plans: list[_Plan]) -> tuple:
    """How good an annotation is: routes judged right, then successes credited, then
    fewer and more specific primitives."""
    t = space.tally([(p.mask, p.action) for p in plans])
    return t.right, t.good, -sum(len(p.facts) for p in plans), -sum(_rank(f) for p in plans for f in p.facts)


def _search(space: _Space, config: SuggestConfig, *, actions: bool, on_move: bool) -> list[_Plan] | None:
    """The final checkpoint (the best over anchors), then earlier ones while one makes
    more routes right. `actions` allows click and type; with `on_move` the final
    checkpoint is judged on the last move."""
    finals = [p for k in range(len(space.references))
              if (p := _grow(space, k, [], config, final=True, actions=actions, on_move=on_move)) is not None]
    if not finals:
        return None
    plans = [max(finals, key=lambda p: _key(space, [p]))]
    while len(plans) < config.max_checkpoints:
        tally = space.tally([(p.mask, p.action) for p in plans])
        if tally.right == len(space.routes):
            break
        rest = [(p.mask, p.action) for p in plans]
        latest = max(plans[0].anchors)  # an earlier checkpoint's screen comes before the first one's
        options = [p for k in range(latest)
                   if (p := _grow(space, k, rest, config, final=False, actions=actions, on_move=False))
                   is not None]
        options = [p for p in options if _key(space, [p, *plans])[0] > tally.right]
        if not options:
            break
        best = max(options, key=lambda p: _key(space, [p, *plans]))
        best.anchors = {k for k in best.anchors if k < latest}
        plans = [best, *plans]
    return plans


def _choose(space: _Space, config: SuggestConfig, matcher: Matcher) -> list[_Plan]:
    """Exact states first; click, type and fuzzy only when those leave some route judged
    wrong, and only if they judge more routes right."""
    plans = _search(space, config, actions=False, on_move=False)
    if plans is None or _key(space, plans)[0] < len(space.routes):
        space.add_action_facts(matcher)
        if config.fuzzy:
            space.add_fuzzy_facts(matcher, config.fuzzy)
        for variant in (_search(space, config, actions=True, on_move=True),
                        _search(space, config, actions=True, on_move=False)):
            if variant is not None and (plans is None or _key(space, variant)[:2] > _key(space, plans)[:2]):
                plans = variant
    if plans is None:
        raise ConfigError("no fact the matcher can test tells the successful routes' ends from the rest "
                          "(is the success visible on screen?)")
    return plans


def _place(space: _Space, plans: list[_Plan]) -> list[int]:
    """An anchor per checkpoint, increasing: the first boundary screen where the
    checkpoint holds (else the first where its components are) that leaves room for the
    checkpoints after it."""

    def place(n: int, low: int) -> list[int] | None:
        if n == len(plans):
            return []
        allowed = sorted(k for k in plans[n].anchors if k >= low)
        allowed.sort(key=lambda k: not _holds(plans[n].facts, space.references[k].screen))  # stable: by k
        for k in allowed:
            rest = place(n + 1, k + 1)
            if rest is not None:
                return [k, *rest]
        return None

    anchors = place(0, 0)
    if anchors is None:
        raise ConfigError("the suggested checkpoints cannot be put in golden-path order")
    return anchors


def _holds(facts: list[Fact], screen: _Screen) -> bool:
    """Whether the state facts hold on a screen (action facts are not about screens)."""
    def one(f: Fact) -> bool:
        if f.kind == "activity":
            return screen.activity == f.key
        if f.kind in ("exact", "fuzzy"):  # the same text is similar text
            return f.key in screen.ids
        if f.kind == "exclude":
            return f.key not in screen.ids
        if f.kind in ("install", "uninstall"):
            return (f.key in screen.installed) == (f.kind == "install")
        return True
    return all(one(f) for f in facts)


# ----------------------------------------------------------------------- the output

def selector_for(node: Node, hierarchy: ViewHierarchy, flags: tuple[str, ...], *,
                 same_node: bool = False) -> dict[str, object]:
    """The shortest selector (task-file attributes) that finds `node` on its screen, or
    (unless `same_node`) a component ``exact`` cannot tell from it: text first, then
    content-desc, resource-id and class, then the same with the row's text; a switch by
    its row first (its ON/OFF text names no switch); ``nth`` as the last resort."""
    from mobile_gym.tasks.selectors import Selector

    want = identity(node, flags)
    attrs = {"text": node.text, "resource_id": node.resource_id, "content_desc": node.content_desc,
             "class_name": node.class_name}
    rows = _row_texts(node)
    toggles = node.flags.get("checkable", False)
    shapes: list[tuple[str, ...]] = [("content_desc",), ("content_desc", "resource_id")]
    if not toggles:
        shapes = [("text",), ("text", "resource_id"), *shapes]
    shapes += [("resource_id",), ("class_name",), ("text", "class_name"), ("content_desc", "class_name"),
               ("resource_id", "class_name"), ("text", "resource_id", "content_desc", "class_name")]
    bases = [{a: attrs[a] for a in shape} for shape in shapes if all(attrs[a] for a in shape)]
    rowed = [{**base, "row": r} for base in bases for r in rows]
    for selector in [*rowed, *bases] if toggles else [*bases, *rowed]:
        found = Selector(**selector).find(hierarchy)  # type: ignore[arg-type]
        if found is node or (not same_node and found is not None and node.label and is_component(found)
                             and identity(found, flags) == want):
            return selector
    full = {a: v for a, v in attrs.items() if v}
    matches = hierarchy.find_all(**full)
    return {**full, "nth": next(i for i, n in enumerate(matches) if n is node)}


def _row_texts(node: Node) -> list[str]:
    """Texts that name a clickable row holding `node`, nearest row first (``row:``)."""
    rows = [a for a in [node, *node.ancestors()] if a.clickable]
    out = []
    for row in rows:
        for n in row.iter():
            if n.text and n is not node and n.clickable_target is row and n.text not in out:
                out.append(n.text)
    return out


def _checks(space: _Space, plan: _Plan, at: int, apps: dict[str, str], flags: tuple[str, ...]) -> list:
    """A checkpoint's ``check:`` list, in the order task files write it."""
    reference = space.references[at]
    hierarchy = reference.screen.state.hierarchy
    order = {"activity": 0, "exact": 1, "exclude": 2, "fuzzy": 3, "click": 5, "type": 6}
    out: list = []
    for f in sorted(plan.facts, key=lambda f: (order.get(f.kind, 3), _rank(f))):
        if f.kind == "activity":
            out.append("activity")
        elif f.kind in ("install", "uninstall"):
            out.append({f"check_{f.kind}": apps[f.key]})  # type: ignore[index]
        elif f.kind == "type":
            out.append({"type": f.key})
        else:
            if f.kind == "click":
                _, index, _ = f.key  # type: ignore[misc]
                node = [n for n in hierarchy if is_component(n)][index]
            else:
                node = reference.components[f.key]  # type: ignore[index]
            selector = selector_for(node, hierarchy, flags, same_node=f.kind == "click")
            out.append({f.kind: selector["text"] if set(selector) == {"text"} else _Selector(selector)})
    return out


class _Selector(dict):
    """A selector mapping, written on one line as task files write them."""


class _TaskFileDumper(yaml.SafeDumper):
    """Indents a list under its key (``check:`` then ``  - activity``), as task files do."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


_TaskFileDumper.add_representer(
    _Selector, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True))


def render_yaml(checkpoints: list[dict], comment: str = "") -> str:
    """The ``checkpoints:`` block as a task file spells it (indented as a task's field)."""
    body = yaml.dump({"checkpoints": checkpoints}, Dumper=_TaskFileDumper, allow_unicode=True, sort_keys=False,
                     default_flow_style=False, width=120, indent=2)
    lines = [FIELD_INDENT + line if line else line for line in body.splitlines()]
    head = [FIELD_INDENT + "# " + line for line in comment.splitlines()]
    return "\n".join([*head, *lines]) + "\n"


def parse_checkpoints(text: str, task: SimTask) -> SimTask:
    """`task` with the checkpoints of a ``checkpoints:`` block, read as the task loader
    reads a task file (a malformed block is a `TaskError`)."""
    from mobile_gym.errors import TaskError
    from mobile_gym.tasks.definition import _parse_checkpoint

    try:
        data = yaml.safe_load(text)
        specs = tuple(_parse_checkpoint(c) for c in data["checkpoints"])
    except (yaml.YAMLError, ValueError, TypeError, KeyError) as exc:
        raise TaskError(task.source, f"task {task.id!r}: suggested checkpoints: {exc}") from None
    ats = [s.at for s in specs]
    if ats != sorted(set(ats)):
        raise TaskError(task.source, f"task {task.id!r}: suggested checkpoints: 'at' must increase, got {ats}")
    return dataclasses.replace(task, checkpoints=specs)


def _app_names(packages: Iterable[str], matcher: Matcher) -> dict[str, str]:
    """A display name per package that ``check_install`` resolves to that package alone
    (the store title, as LlamaTouch names apps, else the launcher label), else the
    package name itself."""
    from mobile_gym.simulator.catalogue import BY_PACKAGE, PREINSTALLED

    labels = {p.package: [p.label] for p in PREINSTALLED}
    labels.update({e.package: [e.title.split(":")[0], e.title, e.label] for e in BY_PACKAGE.values()})
    out = {}
    for package in packages:
        name = package
        for candidate in labels.get(package, []):
            try:
                if {p.lower() for p in matcher.apps.packages(candidate)} == {package}:
                    name = candidate
                    break
            except AnnotationError:
                continue
        out[package] = name
    return out


# ------------------------------------------------------------------------ the entry

def route_screens(task: SimTask, exploration: Exploration, route: Route) -> list[UIState]:
    """The states a route passes through, from the start (as `judge_routes` sees them)."""
    return list(route_states(exploration, route))


def suggest_annotation(source: Exploration | SimTask | str, *, seed: int = 0, profile: str | None = None,
                       dynamics: str = "default", config: ExploreConfig | None = None,
                       suggest: SuggestConfig | None = None, matcher: Matcher | None = None) -> Suggestion:
    """Suggest essential states for a simulator task from its explored routes (see the
    module docstring): `source` is an exploration, or a task (id) to explore first with
    `seed`, `profile`, `dynamics` and `config`. Raises `ConfigError` when the exploration
    has no successful route or nothing the matcher tests tells success apart.
    """
    from mobile_gym.agents.oracle import sim_task
    from mobile_gym.env import shared_matcher

    suggest = SuggestConfig() if suggest is None else suggest
    matcher = shared_matcher() if matcher is None else matcher
    exploration = source if isinstance(source, Exploration) else explore(
        source, seed=seed, profile=profile, dynamics=dynamics, config=config)
    task = sim_task(exploration.task)
    if not exploration.successes:
        raise ConfigError(f"the exploration of {task.id} found no successful route to learn from "
                          "(give it a larger budget)")
    flags = tuple(matcher.config.exact_flags)
    routes = []
    for route in [*exploration.successes, *exploration.failures]:
        states = route_screens(task, exploration, route)
        routes.append((route, [_screen(s, a, flags) for s, a in zip(states, [*route.actions, None])]))
    packages = sorted({p for _, screens in routes for s in screens for p in s.installed})
    space = _Space(routes, _references(task, flags), packages)
    plans = _choose(space, suggest, matcher)
    apps = _app_names(packages, matcher)
    checkpoints = [{"at": at, "check": _checks(space, plan, at, apps, flags)}
                   for plan, at in zip(plans, _place(space, plans))]
    suggested = parse_checkpoints(render_yaml(checkpoints), task)
    try:
        annotation = suggested.annotation
    except MobileGymError as exc:  # a selector that resolves elsewhere than it was made: a bug here
        raise ConfigError(f"the suggested checkpoints do not load: {exc}") from exc
    verdicts = judge_routes(exploration, annotation, matcher)
    measured = score(verdicts)
    comment = (f"suggested by `mobile-gym annotate --suggest {task.id}` from {len(exploration.successes)} "
               f"successful and {len(exploration.failures)} failing routes (seed {exploration.seed}, "
               f"{exploration.profile}, dynamics {exploration.dynamics}):\n"
               f"recall {_percent(measured.recall)}, precision {_percent(measured.precision)}")
    return Suggestion(task.id, suggested.checkpoints, render_yaml(checkpoints, comment), measured,
                      tuple(verdicts), exploration, annotation)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


__all__ = ["Fact", "SuggestConfig", "Suggestion", "identity", "parse_checkpoints", "render_yaml",
           "route_screens", "selector_for", "suggest_annotation"]
