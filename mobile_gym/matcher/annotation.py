"""Essential-state annotations: primitives, checkpoints and the ``.ess`` syntax.

A task's annotation is an ordered list of checkpoints. A checkpoint belongs to one
reference (ground-truth) screen and holds the primitives annotated on it, all of which
must hold on a single step of an agent's trace.

Beyond LlamaTouch, which annotates one ground-truth trace per task, an annotation may
carry alternative routes: other ground-truth traces with their own checkpoints, for a
task whose valid routes end on screens that share no essential state (dark theme turned
on from Display or from Wallpaper & style). The task is done when every checkpoint of
any one route holds, in order.

``.ess`` syntax: items separated by ``|``, each ``keyword<content>``, e.g.
``activity<1>|exact<13>|click<//*[@resource-id="x"]/android.widget.Button[1]>``. The
older spellings of LlamaTouch's tools (``textbox``, ``fuzzy_match``, ``installed``,
``uninstalled``) are read as their current keywords.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Iterator, Sequence

from mobile_gym.errors import AnnotationError
from mobile_gym.trace import Trace, UIState
from mobile_gym.ui.components import Component


class Keyword(str, Enum):
    ACTIVITY = "activity"
    EXACT = "exact"
    EXCLUDE = "exclude"
    FUZZY = "fuzzy"
    CLICK = "click"
    TYPE = "type"
    CHECK_INSTALL = "check_install"
    CHECK_UNINSTALL = "check_uninstall"


KEYWORD_ALIASES = {
    "textbox": Keyword.EXACT,
    "fuzzy_match": Keyword.FUZZY,
    "installed": Keyword.CHECK_INSTALL,
    "uninstalled": Keyword.CHECK_UNINSTALL,
}

#: Keywords judged on the action taken from a step rather than on the step's screen.
ACTION_KEYWORDS = frozenset({Keyword.CLICK, Keyword.TYPE})
#: Keywords whose content is a component index of the reference screen.
INDEX_KEYWORDS = frozenset({Keyword.EXACT, Keyword.EXCLUDE, Keyword.FUZZY})
#: ``fuzzy<-1>``: the whole screen; ``fuzzy<-2>``: marker next to install checks.
SCREEN = -1
INSTALL_MARKER = -2

_ITEM = re.compile(r"\s*([A-Za-z_]+)<(.*)>\s*", re.DOTALL)
_ITEM_START = re.compile(r"\|(?=\s*[A-Za-z_]+<)")


@dataclass(frozen=True)
class Primitive:
    """One annotated essential state, e.g. ``exact<13>``."""

    keyword: Keyword
    content: str

    def __str__(self) -> str:
        return f"{self.keyword.value}<{self.content}>"

    @property
    def index(self) -> int | None:
        """The component index the content names, if it is an integer."""
        try:
            return int(self.content)
        except ValueError:
            return None

    @property
    def is_action(self) -> bool:
        return self.keyword in ACTION_KEYWORDS


def parse_ess(text: str, *, source: str | Path | None = None) -> list[Primitive]:
    """Parse the content of an ``.ess`` file."""
    if not text.strip():
        raise AnnotationError(source, "the annotation is empty")
    primitives = []
    for item in _ITEM_START.split(text.strip()):
        m = _ITEM.fullmatch(item)
        if not m:
            raise AnnotationError(source, f"cannot read annotation item {item.strip()!r}")
        word, content = m.group(1).lower(), m.group(2)
        try:
            keyword = KEYWORD_ALIASES.get(word) or Keyword(word)
        except ValueError:
            known = ", ".join(k.value for k in Keyword)
            raise AnnotationError(source, f"unknown keyword {word!r} (known: {known})") from None
        primitive = Primitive(keyword, content)
        if keyword in INDEX_KEYWORDS and primitive.index is None:
            raise AnnotationError(source, f"{primitive}: the content must be a component index")
        if keyword in (Keyword.EXACT, Keyword.EXCLUDE) and primitive.index < 0:  # type: ignore[operator]
            raise AnnotationError(source, f"{primitive}: negative indices are only for fuzzy")
        primitives.append(primitive)
    return primitives


def format_ess(primitives: Sequence[Primitive]) -> str:
    return "|".join(str(p) for p in primitives)


@dataclass
class ReferenceScreen:
    """An annotated screen of the ground-truth trace and its component list."""

    state: UIState
    components: list[Component]
    source: Path | None = None  # the screen's .ess file, named in error messages

    @property
    def index(self) -> int:
        return self.state.index

    def component(self, index: int, primitive: Primitive | None = None) -> Component:
        if not 0 <= index < len(self.components):
            what = f"{primitive}: " if primitive else ""
            raise AnnotationError(
                self.source,
                f"{what}component {index} is out of range (screen {self.index} has "
                f"{len(self.components)} components)",
            )
        return self.components[index]


@dataclass
class Checkpoint:
    """The primitives of one reference screen; all must hold on one trace step."""

    screen: ReferenceScreen
    primitives: list[Primitive]

    def __post_init__(self) -> None:
        if not self.primitives:
            raise AnnotationError(self.screen.source, "a checkpoint needs at least one primitive")
        for p in self.primitives:
            if p.keyword in INDEX_KEYWORDS and p.index is not None and p.index >= 0:
                component = self.screen.component(p.index, p)
                if p.keyword is Keyword.FUZZY and not component.has_label:
                    raise AnnotationError(
                        self.screen.source, f"{p}: component {p.index} has no text to compare"
                    )
            elif p.keyword is Keyword.FUZZY and p.index not in (SCREEN, INSTALL_MARKER):
                raise AnnotationError(self.screen.source, f"{p}: only -1 and -2 are special indices")
            elif p.keyword is Keyword.CLICK and p.index is not None:
                self.screen.component(p.index, p)

    @property
    def has_action(self) -> bool:
        return any(p.is_action for p in self.primitives)

    def __str__(self) -> str:
        return f"screen {self.screen.index}: {format_ess(self.primitives)}"


@dataclass
class Annotation:
    """A task's ordered checkpoints, with the ground-truth trace they were taken from,
    and the annotations of its alternative routes, if any."""

    checkpoints: list[Checkpoint]
    episode: str | None = None
    instruction: str | None = None
    category: str | None = None
    ground_truth: Trace | None = field(default=None, repr=False)
    #: Other routes, each an annotation of its own ground-truth trace (without
    #: alternatives of its own); any one route matched in full solves the task.
    alternatives: list[Annotation] = field(default_factory=list)

    def __post_init__(self) -> None:
        if any(a.alternatives for a in self.alternatives):
            raise AnnotationError(None, "an alternative route cannot have alternatives of its own")

    def __len__(self) -> int:
        return len(self.checkpoints)

    @property
    def routes(self) -> list[list[Checkpoint]]:
        """Each route's checkpoints: this annotation's first, then its alternatives'."""
        return [self.checkpoints, *(a.checkpoints for a in self.alternatives)]

    def _all_checkpoints(self) -> Iterator[Checkpoint]:
        return (c for route in self.routes for c in route)

    @property
    def keywords(self) -> set[Keyword]:
        return {p.keyword for c in self._all_checkpoints() for p in c.primitives}

    @property
    def judges_pixels(self) -> bool:
        """Whether judging compares screenshot patches: an exact or exclude on a component
        without text (an icon, a switch). Only then do states need full-size screenshots."""
        return any(p.keyword in (Keyword.EXACT, Keyword.EXCLUDE) and p.index is not None
                   and not c.screen.component(p.index).has_label
                   for c in self._all_checkpoints() for p in c.primitives)

    @property
    def needs_embeddings(self) -> bool:
        """Whether judging may need the sentence-embedding model: a fuzzy text or screen
        check (``fuzzy<-2>`` is a marker that always holds)."""
        return any(p.keyword is Keyword.FUZZY and p.index != INSTALL_MARKER
                   for c in self._all_checkpoints() for p in c.primitives)
