"""`UnicodeText`: a Gymnasium `Text` space over Unicode, as a phone's text is; and
`ImageBox`, a screenshot's `Box` without image-sized bounds.

Gymnasium's `Text` keeps its character set as a sorted list, a set and an index dict,
and prints all of it: over Unicode that is a million characters per space, built per env
and printed in full by ``repr``. This subclass describes its characters as code-point
ranges instead: membership is one regular-expression match, sampling draws code points
arithmetically, the character tables are never built, and ``repr`` is one line. It is
still a `Text` to Gymnasium's utilities (``flatten``, ``batch_space``).

Vector envs are the exception, and `UnicodeText` registers its own versions of three
Gymnasium utilities. Shared memory (`AsyncVectorEnv`'s default): Gymnasium 1.4 reads a
`Text` out of it once, when the vector env is built, as fixed strings, so every later
observation read back as the empty buffer (tabs, index 0), after seconds of decoding;
here each env's slot holds a length and the code points, and the read returns
`SharedTexts`, a view that decodes the buffer whenever it is read, as a `Box`'s arrays
do. And an empty batch (`create_empty_array`, both vector envs) no longer joins a million
characters to take the first.
"""

from __future__ import annotations

import multiprocessing
import re
from bisect import bisect_right
from collections.abc import Sequence, Set
from functools import cached_property
from typing import Any, Iterator

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import (create_empty_array, create_shared_memory, read_from_shared_memory,
                                    write_to_shared_memory)

#: What a text field, a typed text, an instruction or a dump may hold: every character
#: XML 1.0 allows except control characters (C0, DEL, C1) and surrogates, plus tab and
#: line feed. Ranges of code points, inclusive.
TEXT_RANGES: tuple[tuple[int, int], ...] = (
    (0x09, 0x0A), (0x20, 0x7E), (0xA0, 0xD7FF), (0xE000, 0xFFFD), (0x10000, 0x10FFFF),
)


def char_class(ranges: tuple[tuple[int, int], ...] = TEXT_RANGES) -> str:
    """Code-point ranges as the inside of a regular expression's ``[...]``."""
    return "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges)


class _CodePoints(Sequence, Set):
    """The characters of some code-point ranges, in order, without listing them."""

    def __init__(self, ranges: tuple[tuple[int, int], ...]):
        self.starts = [lo for lo, _ in ranges]
        self.offsets = np.cumsum([0] + [hi - lo + 1 for lo, hi in ranges])  # index of each range's first
        self.pattern = re.compile(f"[{char_class(ranges)}]*")

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        k = int(np.searchsorted(self.offsets, i, side="right")) - 1
        return chr(self.starts[k] + i - int(self.offsets[k]))

    def __contains__(self, c: object) -> bool:
        return isinstance(c, str) and len(c) == 1 and self.pattern.fullmatch(c) is not None

    def __iter__(self) -> Iterator[str]:
        for lo, count in zip(self.starts, np.diff(self.offsets)):
            yield from map(chr, range(lo, lo + int(count)))

    def index(self, c: str, *_: Any) -> int:  # type: ignore[override]
        if c not in self:
            raise KeyError(c)
        k = bisect_right(self.starts, ord(c)) - 1
        return int(self.offsets[k]) + ord(c) - self.starts[k]

    def holds(self, text: str) -> bool:
        """Whether every character of ``text`` is one of these."""
        return self.pattern.fullmatch(text) is not None

    def draw(self, rng: np.random.Generator, n: int) -> str:
        """``n`` characters drawn uniformly."""
        i = rng.integers(0, len(self), size=n)
        k = np.searchsorted(self.offsets, i, side="right") - 1
        return "".join(map(chr, (np.asarray(self.starts)[k] + i - self.offsets[k]).tolist()))


class UnicodeText(spaces.Text):
    """Strings of ``min_length`` to ``max_length`` characters from code-point ``ranges``
    (default `TEXT_RANGES`: printable Unicode, tab and line feed).

    >>> space = UnicodeText(64, seed=0)
    >>> space
    UnicodeText(0, 64, printable Unicode)
    >>> "Ajouter « Wi‑Fi » 🔔 à 9:00" in space, "a\\x00b" in space, "\\ud800" in space
    (True, False, False)
    >>> space.sample() in space
    True
    """

    def __init__(self, max_length: int, *, min_length: int = 0,
                 ranges: tuple[tuple[int, int], ...] = TEXT_RANGES, name: str = "printable Unicode",
                 seed: int | np.random.Generator | None = None):
        super().__init__(max_length, min_length=min_length, charset=" ", seed=seed)  # checks the lengths
        self.ranges = tuple((int(lo), int(hi)) for lo, hi in ranges)
        self.name = name  # what repr calls the ranges

    @cached_property
    def _chars(self) -> _CodePoints:
        return _CodePoints(self.ranges)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_chars", None)  # rebuilt on demand: spaces pickle small
        return state

    # -- what Gymnasium's Text offers, without building the tables ------------------------
    @property
    def character_set(self) -> _CodePoints:  # type: ignore[override]
        return self._chars

    @property
    def character_list(self) -> _CodePoints:  # type: ignore[override]
        return self._chars

    def character_index(self, char: str) -> np.int32:
        return np.int32(self._chars.index(char))

    @property
    def characters(self) -> str:
        return "".join(self._chars)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length and self._chars.holds(x)

    def sample(self, mask=None, probability=None) -> str:
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        n = int(self.np_random.integers(self.min_length, self.max_length + 1))
        return self._chars.draw(self.np_random, n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UnicodeText):
            return (self.min_length, self.max_length, self.ranges) == (other.min_length, other.max_length, other.ranges)
        return super().__eq__(other)

    def __repr__(self) -> str:
        return f"UnicodeText({self.min_length}, {self.max_length}, {self.name})"


# -- vector envs ------------------------------------------------------------------------------
@create_empty_array.register(UnicodeText)
def _empty_texts(space: UnicodeText, n: int = 1, fn: Any = None) -> tuple[str, ...]:
    return (space.character_list[0] * space.min_length,) * n  # Gymnasium's joins all characters


@create_shared_memory.register(UnicodeText)
def _create_shared_texts(space: UnicodeText, n: int = 1, ctx: Any = multiprocessing):
    return ctx.Array("i", n * (space.max_length + 1))  # per env: the length, then the code points


@read_from_shared_memory.register(UnicodeText)
def _read_shared_texts(space: UnicodeText, shared_memory, n: int = 1) -> SharedTexts:
    return SharedTexts(np.frombuffer(shared_memory.get_obj(), np.int32).reshape(n, space.max_length + 1))


@write_to_shared_memory.register(UnicodeText)
def _write_shared_text(space: UnicodeText, index: int, value: str, shared_memory) -> None:
    codes = np.frombuffer(value.encode("utf-32-le", "surrogatepass"), np.int32)
    if len(codes) > space.max_length:
        raise ValueError(f"a text of {len(codes)} characters does not fit {space}")
    row = np.frombuffer(shared_memory.get_obj(), np.int32).reshape(-1, space.max_length + 1)[index]
    row[0] = len(codes)
    row[1:1 + len(codes)] = codes


class SharedTexts(Sequence):
    """The texts of a vector env's observations, decoded from shared memory when read;
    a copy (``deepcopy``, as `AsyncVectorEnv` returns by default) is a tuple of str."""

    def __init__(self, codes: np.ndarray):
        self._codes = codes  # (n, 1 + max_length): length, then code points

    def __len__(self) -> int:
        return len(self._codes)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        row = self._codes[i]
        return row[1:1 + row[0]].tobytes().decode("utf-32-le", "surrogatepass")

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return f"SharedTexts{tuple(self)!r}"


class ImageBox(spaces.Box):
    """uint8 images of one shape, 0 to 255 everywhere.

    Gymnasium's `Box` holds its bounds as four arrays the size of the image (1.9 MB for a
    270x600 screenshot, in every env and every pickle of one); here they are read-only
    views of one value, and a pickle holds that value.

    >>> import pickle
    >>> space = ImageBox((600, 270, 3))
    >>> space, space.low.strides, len(pickle.dumps(space)) < 2000
    (Box(0, 255, (600, 270, 3), uint8), (0, 0, 0), True)
    >>> space.sample().shape, pickle.loads(pickle.dumps(space)) == space
    ((600, 270, 3), True)
    """

    BOUNDS = ("low", "high", "bounded_below", "bounded_above")

    def __init__(self, shape: tuple[int, ...], *, seed: int | np.random.Generator | None = None):
        super().__init__(0, 255, shape, np.uint8, seed=seed)
        self._broadcast_bounds()

    def _broadcast_bounds(self) -> None:
        for name in self.BOUNDS:
            setattr(self, name, np.broadcast_to(getattr(self, name).flat[0], self.shape))

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.update((name, state[name].flat[0]) for name in self.BOUNDS)
        return state

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        self._broadcast_bounds()
