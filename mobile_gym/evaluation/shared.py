"""What judging many traces can share: the parse of each distinct dump, and each
checkpoint's result on each distinct screen.

A batch re-judges many traces of the same tasks: the agents and seeds of a run pass
through the same screens (on the simulator about one dump in six is new). Parsing a dump
costs about a millisecond, checking a checkpoint on it as much again, and both are pure
functions of the screen. `SharedDumps` keeps one parse per distinct dump (by a digest of
its bytes) for the states it makes, and `SharingMatcher` one `CheckResult` per
checkpoint and distinct (dump, activity, and what else the checkpoint reads). Results are
only ever reused for identical inputs, so verdicts and explanations are the ones
`Matcher` gives; errors are never cached (they name the file they came from).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Hashable

from mobile_gym.actions import Action
from mobile_gym.errors import FormatError, ViewHierarchyError
from mobile_gym.formats.files import MAX_DUMP_BYTES, read_bytes
from mobile_gym.matcher.annotation import Annotation, Checkpoint, Keyword, Primitive
from mobile_gym.matcher.primitives import JUDGING_ORDER, CheckResult, Matcher
from mobile_gym.trace import UIState
from mobile_gym.ui.hierarchy import ViewHierarchy

#: Distinct dumps whose parse `SharedDumps` keeps (least recently used dropped first); a
#: parse of a 20 KB dump holds a few hundred KB. Jobs are judged grouped by task, so the
#: screens that come back are recent ones.
MAX_SHARED_DUMPS = 256
#: Check results `SharingMatcher` keeps before it starts over (each is a few hundred bytes).
MAX_SHARED_RESULTS = 100_000


class SharedDumps:
    """Parses of dump files by content: `state` makes `UIState`s (for `read_trace`'s
    ``make_state``) whose hierarchy is parsed once per distinct dump."""

    def __init__(self, max_dumps: int = MAX_SHARED_DUMPS):
        self.max_dumps = max_dumps
        self._parses: OrderedDict[bytes, ViewHierarchy] = OrderedDict()
        self.parsed = 0  # dumps actually parsed (the misses)

    def state(self, **kwargs: Any) -> SharedDumpState:
        return SharedDumpState(self, **kwargs)

    def hierarchy(self, digest: bytes, data: bytes, path: Any) -> ViewHierarchy:
        hit = self._parses.get(digest)
        if hit is not None:
            self._parses.move_to_end(digest)
            return hit
        try:  # as ViewHierarchy.from_file does: the error names the file
            parsed = ViewHierarchy(data, source=path)
        except ViewHierarchyError as exc:
            raise FormatError(path, str(exc).split(": ", 1)[-1]) from exc
        self.parsed += 1
        self._parses[digest] = parsed
        if len(self._parses) > self.max_dumps:
            self._parses.popitem(last=False)
        return parsed


class SharedDumpState(UIState):
    """A state read from files whose hierarchy comes from `SharedDumps`, and whose
    `dump_digest` identifies its dump's content (reading the file, not parsing it)."""

    def __init__(self, dumps: SharedDumps | None, **kwargs: Any):
        super().__init__(**kwargs)
        self._dumps = dumps
        self._digest: bytes | None = None
        self._data: bytes | None = None  # the dump's bytes, from the digest until the parse
        self._shared: ViewHierarchy | None = None

    def __getstate__(self) -> dict:
        return {**super().__getstate__(), "_dumps": None, "_data": None, "_shared": None}

    @property
    def dump_digest(self) -> bytes | None:
        """A digest of the dump file's bytes; None for a state whose dump is not a file.
        A missing or oversized file is a FormatError naming it, as when parsing."""
        if self.xml_path is None:
            return None
        if self._digest is None:
            data = read_bytes(self.xml_path, "view hierarchy", MAX_DUMP_BYTES)
            self._digest = hashlib.blake2b(data, digest_size=20).digest()
            self._data = data
        return self._digest

    @property
    def hierarchy(self) -> ViewHierarchy:
        if self.xml_path is None or self._dumps is None:
            return super().hierarchy
        if self._shared is None:
            digest = self.dump_digest
            assert digest is not None
            self._shared = self._dumps.hierarchy(digest, self._data or b"", self.xml_path)
            self._data = None
        return self._shared


@dataclass(frozen=True)
class _Reads:
    """What a checkpoint's result depends on besides the dump and the activity."""

    pixels: bool  # compares screenshot patches: not shared (screenshots are not digested)
    action: bool  # click / type
    installed: bool  # check_install / check_uninstall
    click: bool  # click: also the screen size the tap is scaled by
    activity: Primitive | None  # the primitive judged first, when it is an activity test


class SharingMatcher(Matcher):
    """A `Matcher` that judges a checkpoint once per distinct screen of `SharedDumpState`s:
    the same dump, activity and, where the checkpoint reads them, action, installed
    packages and screen size. Other states (and checkpoints that compare pixels) are
    judged as `Matcher` does. A non-exhaustive result is also read off an exhaustive one
    (the primitives up to the first failure), as the tracker asks for both; and a
    checkpoint that starts with an activity test is rejected on it before the dump is
    read, as `Matcher.check` would."""

    def __init__(self, *args: Any, max_results: int = MAX_SHARED_RESULTS, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.max_results = max_results
        self._results: dict[tuple, tuple] = {}
        self._reads: dict[int, tuple[Checkpoint, _Reads]] = {}  # id -> (kept alive, reads)
        self.shared = 0  # checks answered from the results of earlier ones

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
        step = state.index if step is None else step
        if not exhaustive and isinstance(state, SharedDumpState):
            first = self._reads_of(checkpoint).activity
            if first is not None:  # the usual rejection, without reading the dump
                judged = self._check_one(checkpoint, first, state, action, installed)
                if not judged.passed:
                    return CheckResult(step, (judged,))
        key = self._key(checkpoint, state, action, installed)
        if key is None:
            return super().check(checkpoint, state, action=action, installed=installed, step=step,
                                 exhaustive=exhaustive, skip_costly=skip_costly)
        mode = (exhaustive, exhaustive and skip_costly)
        results = self._results.get((key, mode))
        if results is None and not exhaustive:
            results = _first_failure(self._results.get((key, (True, True)))
                                     or self._results.get((key, (True, False))))
        if results is None and exhaustive:
            quick = self._results.get((key, (False, False)))
            if quick is not None and all(r.passed for r in quick):
                results = quick  # nothing failed: exhaustive judges the same primitives
        if results is not None:
            self.shared += 1
            return CheckResult(step, results)
        judged = super().check(checkpoint, state, action=action, installed=installed, step=step,
                               exhaustive=exhaustive, skip_costly=skip_costly)
        if len(self._results) >= self.max_results:
            self._results.clear()
        self._results[key, mode] = judged.results
        return judged

    def _key(self, checkpoint: Checkpoint, state: UIState, action: Action | None,
             installed: frozenset[str] | None) -> Hashable | None:
        if not isinstance(state, SharedDumpState):
            return None
        reads = self._reads_of(checkpoint)
        if reads.pixels:
            return None
        digest = state.dump_digest
        if digest is None:
            return None
        size = state.screen_size if reads.click and action is not None and action.is_tap else None
        return (id(checkpoint), digest, state.activity, action if reads.action else None,
                installed if reads.installed else None, size)

    def _reads_of(self, checkpoint: Checkpoint) -> _Reads:
        known = self._reads.get(id(checkpoint))
        if known is None or known[0] is not checkpoint:
            keywords = {p.keyword for p in checkpoint.primitives}
            order = sorted(checkpoint.primitives, key=lambda p: JUDGING_ORDER[p.keyword])
            reads = _Reads(
                pixels=Annotation([checkpoint]).judges_pixels,
                action=checkpoint.has_action,
                installed=bool(keywords & {Keyword.CHECK_INSTALL, Keyword.CHECK_UNINSTALL}),
                click=Keyword.CLICK in keywords,
                activity=order[0] if order and order[0].keyword is Keyword.ACTIVITY else None,
            )
            known = self._reads[id(checkpoint)] = (checkpoint, reads)
        return known[1]


def _first_failure(results: tuple | None) -> tuple | None:
    """The results a non-exhaustive check gives: up to and including the first failure."""
    if results is None:
        return None
    for i, r in enumerate(results):
        if not r.passed:
            return results[: i + 1]
    return results


__all__ = ["MAX_SHARED_DUMPS", "SharedDumpState", "SharedDumps", "SharingMatcher"]
