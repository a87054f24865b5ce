"""The primitive tests: does one trace step satisfy one annotated essential state?

`Matcher.check` judges a checkpoint (all its primitives) on one step and says, for each
primitive, whether it held and why not. Semantics are DESIGN §3.3; where LlamaTouch's
public evaluator is lax (substring activity match, exact string equality for "fuzzy"
textboxes, a missing hierarchy counting as a match) this module is strict: missing or
corrupt data raises, it never matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable
from weakref import WeakKeyDictionary

from mobile_gym.actions import Action, ActionType
from mobile_gym.errors import AnnotationError, FormatError, ViewHierarchyError
from mobile_gym.matcher.annotation import INSTALL_MARKER, SCREEN, Annotation, Checkpoint, Keyword, Primitive
from mobile_gym.matcher.apps import AppRegistry
from mobile_gym.matcher.embeddings import TextEmbedder, shared_embedder, similarities
from mobile_gym.matcher.images import PatchSignature, compare_patches, patch_signature
from mobile_gym.trace import UIState
from mobile_gym.ui.components import COMPONENT_FLAGS, Component
from mobile_gym.ui.hierarchy import Bounds, Node
from mobile_gym.ui.html import screen_html

#: The state flags `exact<n>` compares, as LlamaTouch does (every component flag but
#: `visible`, which a dump does not have; bounds are never compared).
LLAMATOUCH_FLAGS = tuple(f for f in COMPONENT_FLAGS if f != "visible")


@dataclass(frozen=True)
class MatcherConfig:
    """Knobs of the matcher; the defaults reproduce the paper's settings."""

    #: fuzzy<n>: cosine similarity at or above which two texts say the same thing.
    text_threshold: float = 0.75
    #: fuzzy<-1>: cosine similarity of two screens' compact HTML (0.85 in the paper).
    screen_threshold: float = 0.85
    #: Image patches: largest Hamming distance of the 64-bit perceptual hashes.
    max_hash_distance: int = 10
    #: Image patches: largest mean absolute RGB difference of 16x16 thumbnails (0-255).
    max_colour_distance: float = 12.0
    #: State flags that exact<n>/exclude<n> require to be equal.
    exact_flags: tuple[str, ...] = LLAMATOUCH_FLAGS
    #: Sentence-embedding model: local folder or hub name; None = bundled all-MiniLM-L6-v2.
    embedding_model: str | None = None


@dataclass(frozen=True)
class PrimitiveResult:
    primitive: Primitive
    passed: bool
    detail: str = ""
    score: float | None = None

    def __str__(self) -> str:
        verdict = "ok" if self.passed else "FAILED"
        return f"{self.primitive} {verdict}" + (f": {self.detail}" if self.detail else "")


@dataclass(frozen=True)
class CheckResult:
    """A checkpoint judged on one step."""

    step: int
    results: tuple[PrimitiveResult, ...] = field(default_factory=tuple)

    @property
    def matched(self) -> bool:
        return all(r.passed for r in self.results)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)


#: The order primitives are judged in: cheap tests first, so that a failing step is
#: rejected before any image or model work.
JUDGING_ORDER = _ORDER = {
    Keyword.ACTIVITY: 0,
    Keyword.CHECK_INSTALL: 1,
    Keyword.CHECK_UNINSTALL: 1,
    Keyword.TYPE: 2,
    Keyword.CLICK: 3,
    Keyword.EXACT: 4,
    Keyword.EXCLUDE: 4,
    Keyword.FUZZY: 5,
}


class Matcher:
    """Judges checkpoints on trace steps. Holds the caches (image signatures, screen
    HTML, embeddings) and the injected embedding model."""

    def __init__(
        self,
        config: MatcherConfig | None = None,
        *,
        embedder: TextEmbedder | None = None,
        apps: AppRegistry | None = None,
    ):
        self.config = config or MatcherConfig()
        self._embedder = embedder
        self.apps = apps or AppRegistry.bundled()
        self._signatures: WeakKeyDictionary[UIState, dict[Bounds, PatchSignature | None]] = WeakKeyDictionary()
        self._html: WeakKeyDictionary[UIState, str] = WeakKeyDictionary()

    @property
    def embedder(self) -> TextEmbedder:
        """The embedding model, created on first use (never for exact-only tasks)."""
        if self._embedder is None:
            self._embedder = shared_embedder(self.config.embedding_model)
        return self._embedder

    # -- public ---------------------------------------------------------------------------
    def warm_up(self, annotation: Annotation) -> None:
        """Load what judging `annotation` needs before the first step does: the embedding
        model (5-10 s, once per process) when it has fuzzy checks. An embedder without a
        ``load`` method loads on its first encode."""
        if annotation.needs_embeddings:
            load = getattr(self.embedder, "load", None)
            if load is not None:
                load()

    def check(
        self,
        checkpoint: Checkpoint,
        state: UIState,
        *,
        action: Action | None = None,
        installed: frozenset[str] | None = None,
        step: int | None = None,
        exhaustive: bool = False,
        skip_costly: bool = False,
    ) -> CheckResult:
        """Judge every primitive of `checkpoint` on `state` (and the action taken from
        it). Stops at the first failure unless `exhaustive` (for explanations).

        With `skip_costly` too, a primitive that needs the embedding model or a
        screenshot (`costly`) after a failure is reported as not judged instead of
        judged: the verdict (which stops at the first failure) never needed it, so an
        explanation then costs no encode and no decode the verdict did not."""
        results = []
        failed = False
        for primitive in sorted(checkpoint.primitives, key=lambda p: _ORDER[p.keyword]):
            if failed and skip_costly and costly(checkpoint, primitive):
                results.append(PrimitiveResult(primitive, False, NOT_JUDGED))
                continue
            result = self._check_one(checkpoint, primitive, state, action, installed)
            results.append(result)
            if not result.passed:
                if not exhaustive:
                    break
                failed = True
        return CheckResult(state.index if step is None else step, tuple(results))

    # -- dispatch -------------------------------------------------------------------------
    def _check_one(
        self,
        checkpoint: Checkpoint,
        p: Primitive,
        state: UIState,
        action: Action | None,
        installed: frozenset[str] | None,
    ) -> PrimitiveResult:
        k = p.keyword
        try:
            if k is Keyword.ACTIVITY:
                return self._activity(checkpoint, p, state)
            if k in (Keyword.CHECK_INSTALL, Keyword.CHECK_UNINSTALL):
                return self._install(p, state, installed)
            if k is Keyword.TYPE:
                return self._type(p, action)
            if k is Keyword.CLICK:
                return self._click(checkpoint, p, state, action)
            if k is Keyword.FUZZY and p.index == INSTALL_MARKER:
                return PrimitiveResult(p, True, "marker of an install check")
            if k is Keyword.FUZZY and p.index == SCREEN:
                return self._screen(checkpoint, p, state)
            component = checkpoint.screen.component(p.index, p)  # type: ignore[arg-type]
            if k is Keyword.FUZZY:
                return self._fuzzy_text(p, component, state)
            found = self._exact(checkpoint, p, component, state)
            if k is Keyword.EXCLUDE:
                if found.passed:
                    return PrimitiveResult(p, False, f"the excluded component is present ({found.detail})")
                return PrimitiveResult(p, True, "absent")
            return found
        except ViewHierarchyError as exc:
            raise FormatError(state.xml_path, f"step {state.index}: {exc}") from exc

    # -- primitives -------------------------------------------------------------------------
    def _activity(self, checkpoint: Checkpoint, p: Primitive, state: UIState) -> PrimitiveResult:
        """Canonical names compared exactly; a name without its package takes the app
        window's from its own step's dump (`UIState.canonical_activity`)."""
        wanted = checkpoint.screen.state.canonical_activity
        if wanted is None:
            raise AnnotationError(
                checkpoint.screen.source, f"{p}: the annotated screen has no recorded activity"
            )
        got = state.canonical_activity
        if got == wanted:
            return PrimitiveResult(p, True)
        return PrimitiveResult(p, False, f"activity is {got or 'unknown'}, wanted {wanted}")

    def _install(self, p: Primitive, state: UIState, installed: frozenset[str] | None) -> PrimitiveResult:
        if installed is None:
            raise FormatError(
                state.xml_path.parent if state.xml_path else None,
                f"{p} needs the installed apps, but step {state.index} has no record of them "
                "(AgentEnv traces keep it in installed_apps/installed_apps.txt)",
            )
        packages = self.apps.packages(p.content)
        present = {q.lower() for q in installed} & {q.lower() for q in packages}
        want_installed = p.keyword is Keyword.CHECK_INSTALL
        ok = bool(present) == want_installed
        state_text = f"{', '.join(sorted(present))} installed" if present else f"{p.content} not installed"
        return PrimitiveResult(p, ok, "" if ok else state_text)

    def _type(self, p: Primitive, action: Action | None) -> PrimitiveResult:
        if action is None or action.action_type is not ActionType.TYPE:
            return PrimitiveResult(p, False, f"the action was {action or 'none'}, not typing")
        if (action.text or "").strip() == p.content.strip():
            return PrimitiveResult(p, True)
        return PrimitiveResult(p, False, f"typed {action.text!r}")

    def _click(
        self, checkpoint: Checkpoint, p: Primitive, state: UIState, action: Action | None
    ) -> PrimitiveResult:
        if action is None or not action.is_tap:
            return PrimitiveResult(p, False, f"the action was {action or 'none'}, not a tap")
        hierarchy = state.hierarchy
        if p.index is None:
            nodes = hierarchy.xpath(p.content)
            what = "the xpath"
        else:
            component = checkpoint.screen.component(p.index, p)
            nodes = hierarchy.xpath(component.xpath) if component.xpath else []
            if not nodes:
                nodes = [n for n in hierarchy if _same_identity(component, n)]
            what = f"component {p.index} ({_describe_component(component)})"
        if not nodes:
            return PrimitiveResult(p, False, f"{what} is not on this screen")
        width, height = state.screen_size
        x, y = action.touch[0] * width, action.touch[1] * height  # type: ignore[index]
        hits = [n for n in nodes if n.bounds.contains(x, y)]
        if not hits:
            return PrimitiveResult(p, False, f"tap at ({x:.0f}, {y:.0f}) is outside {nodes[0].bounds}")
        dialogs = hierarchy.dialog_windows
        if dialogs and not any(n.window in dialogs for n in hits):
            return PrimitiveResult(p, False, f"tap at ({x:.0f}, {y:.0f}) went to the dialog over {what}")
        return PrimitiveResult(p, True)

    def _exact(self, checkpoint: Checkpoint, p: Primitive, c: Component, state: UIState) -> PrimitiveResult:
        nodes = state.hierarchy.nodes
        candidates = self._equal_nodes(c, nodes)
        if candidates and c.has_label:
            return PrimitiveResult(p, True, f"{_describe_node(candidates[0])}")
        if candidates:  # an icon/switch: it must also look the same
            reference = self._signature(checkpoint.screen.state, c.bounds)
            best = None
            for node in candidates:
                comparison = compare_patches(
                    reference,
                    self._signature(state, node.bounds),
                    max_hash_distance=self.config.max_hash_distance,
                    max_colour_distance=self.config.max_colour_distance,
                )
                if comparison.matched:
                    return PrimitiveResult(p, True, f"{_describe_node(node)} looks the same ({comparison})")
                if best is None or comparison.hash_distance < best[1].hash_distance:
                    best = (node, comparison)
            assert best is not None
            return PrimitiveResult(
                p, False, f"closest {_describe_node(best[0])} looks different ({best[1]})"
            )
        closest, differences = self._closest(c, nodes)
        hint = f"; closest {_describe_node(closest)} differs in {', '.join(differences)}" if closest else ""
        return PrimitiveResult(p, False, f"no node equals component {p.index} ({_describe_component(c)}){hint}")

    def _fuzzy_text(self, p: Primitive, c: Component, state: UIState) -> PrimitiveResult:
        query = c.text or c.content_desc
        candidates = [
            n
            for n in state.hierarchy
            if n.label and (n.class_name == c.class_name or (c.resource_id and n.resource_id == c.resource_id))
        ]
        if not candidates:
            return PrimitiveResult(p, False, f"no {c.class_name} or {c.resource_id or 'same-id'} node with text")
        texts = [n.label for n in candidates]
        exact = next((n for n in candidates if n.label.casefold() == query.casefold()), None)
        if exact is not None:
            return PrimitiveResult(p, True, f"{_describe_node(exact)}", 1.0)
        scores = similarities(self.embedder, query, texts)
        best = int(scores.argmax())
        score = float(scores[best])
        ok = score >= self.config.text_threshold
        detail = f"closest {texts[best]!r} vs {query!r}: similarity {score:.2f} (threshold {self.config.text_threshold})"
        return PrimitiveResult(p, ok, detail, score)

    def _screen(self, checkpoint: Checkpoint, p: Primitive, state: UIState) -> PrimitiveResult:
        reference, current = self.html(checkpoint.screen.state), self.html(state)
        if reference == current:
            return PrimitiveResult(p, True, "identical screens", 1.0)
        score = float(similarities(self.embedder, reference, [current])[0])
        ok = score >= self.config.screen_threshold
        return PrimitiveResult(
            p, ok, f"screen similarity {score:.2f} (threshold {self.config.screen_threshold})", score
        )

    # -- helpers ----------------------------------------------------------------------------
    def html(self, state: UIState) -> str:
        """The compact HTML of a state without ids (ids shift with any new element)."""
        text = self._html.get(state)
        if text is None:
            text = self._html[state] = screen_html(state.hierarchy, with_ids=False)
        return text

    def _signature(self, state: UIState, bounds: Bounds) -> PatchSignature | None:
        per_state = self._signatures.setdefault(state, {})
        if bounds not in per_state:
            per_state[bounds] = patch_signature(state.image, bounds, state.screen_size)
        return per_state[bounds]

    def _attributes_equal(self, c: Component, n: Node) -> bool:
        return _same_identity(c, n) and all(n.flags.get(f, False) == c.flag(f) for f in self.config.exact_flags)

    def _equal_nodes(self, c: Component, nodes: Iterable[Node]) -> list[Node]:
        """The nodes `_attributes_equal` accepts, in order; the component's side is
        worked out once, and the cheapest tests go first (a dump has hundreds of nodes)."""
        cls, rid, text, desc = c.class_name, c.resource_id, c.text.casefold(), c.content_desc.casefold()
        wanted = [(f, c.flag(f)) for f in self.config.exact_flags]
        return [
            n for n in nodes
            if n.class_name == cls and n.resource_id == rid and n.text.casefold() == text
            and n.content_desc.casefold() == desc and all(n.flags.get(f, False) == v for f, v in wanted)
        ]

    def _closest(self, c: Component, nodes: Iterable[Node]) -> tuple[Node | None, list[str]]:
        """The node that differs least from `c` (the first of equals) and how it differs."""
        cls, rid, text, desc = c.class_name, c.resource_id, c.text.casefold(), c.content_desc.casefold()
        wanted = [(f, c.flag(f)) for f in self.config.exact_flags]
        best: tuple[int, Node] | None = None
        for n in nodes:
            # text and content-desc weigh most: they are what identifies a component
            weight = ((n.class_name != cls) + (n.resource_id != rid) + 3 * (n.text.casefold() != text)
                      + 3 * (n.content_desc.casefold() != desc))
            if best is not None and weight >= best[0]:
                continue  # the flags only add to it
            flags = n.flags
            weight += sum(flags.get(f, False) != v for f, v in wanted)
            if best is None or weight < best[0]:
                best = (weight, n)
        if best is None:
            return None, []
        return best[1], _differences(c, best[1], self.config.exact_flags)


#: The detail of a costly primitive an explanation did not judge (`Matcher.check`).
NOT_JUDGED = "not judged (an earlier check failed on this step)"


def costly(checkpoint: Checkpoint, p: Primitive) -> bool:
    """Whether judging `p` may need the embedding model (``fuzzy``, but for the install
    marker) or a screenshot (``exact``/``exclude`` of a component without text)."""
    if p.keyword is Keyword.FUZZY:
        return p.index != INSTALL_MARKER
    if p.keyword in (Keyword.EXACT, Keyword.EXCLUDE) and p.index is not None:
        try:
            return not checkpoint.screen.component(p.index, p).has_label
        except AnnotationError:
            return False  # judging it reports the bad index, cheaply
    return False


def _identity_pairs(c: Component, n: Node) -> tuple[tuple[str, bool], ...]:
    """What identifies a component, compared with a node (text case-insensitively)."""
    return (
        ("class", n.class_name == c.class_name),
        ("resource-id", n.resource_id == c.resource_id),
        ("text", n.text.casefold() == c.text.casefold()),
        ("content-desc", n.content_desc.casefold() == c.content_desc.casefold()),
    )


def _same_identity(c: Component, n: Node) -> bool:
    return all(same for _, same in _identity_pairs(c, n))


def _differences(c: Component, n: Node, flags: tuple[str, ...]) -> list[str]:
    out = [name for name, same in _identity_pairs(c, n) if not same]
    return out + [f for f in flags if n.flags.get(f, False) != c.flag(f)]


def _describe_component(c: Component) -> str:
    label = c.text or c.content_desc or c.resource_id
    return f"{c.class_name.rsplit('.', 1)[-1]} {label!r}"


def _describe_node(n: Node) -> str:
    label = n.text or n.content_desc or n.resource_id
    return f"{n.class_name.rsplit('.', 1)[-1]} {label!r} at {n.bounds}"
