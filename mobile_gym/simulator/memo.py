"""`lru_bytes`: a least-recently-used memo bounded by the memory it holds.

`functools.lru_cache` bounds the number of entries, but the renderer's entries range
from a word's fit to a screen-wide text mask keyed by a field's text: a count is no
memory bound (8,192 masks a full-size screen wide are 460 MB, and a long run with new text
on screen fills any count). These memos bound the sum of their entries' sizes instead,
evicting the least recently used.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from typing import Any, Callable

#: Bytes a memo spends on an entry besides its key and value (dict slot, tuples).
ENTRY_OVERHEAD = 200


class BoundedMemo:
    """``fn`` memoized on its positional arguments, holding at most ``max_bytes`` as
    measured by ``size(args, value)`` plus `ENTRY_OVERHEAD` per entry."""

    def __init__(self, fn: Callable, max_bytes: int, size: Callable[[tuple, Any], int]):
        functools.update_wrapper(self, fn)
        self.fn, self.max_bytes, self.size = fn, max_bytes, size
        self.entries: OrderedDict[tuple, tuple[Any, int]] = OrderedDict()  # args -> (value, bytes)
        self.nbytes = 0

    def __call__(self, *args: Any) -> Any:
        hit = self.entries.get(args)
        if hit is not None:
            self.entries.move_to_end(args)
            return hit[0]
        value = self.fn(*args)
        cost = self.size(args, value) + ENTRY_OVERHEAD
        if cost <= self.max_bytes:
            self.entries[args] = (value, cost)
            self.nbytes += cost
            while self.nbytes > self.max_bytes:
                _, (_, freed) = self.entries.popitem(last=False)
                self.nbytes -= freed
        return value

    def cache_clear(self) -> None:
        self.entries.clear()
        self.nbytes = 0


def lru_bytes(max_bytes: int, size: Callable[[tuple, Any], int]) -> Callable[[Callable], BoundedMemo]:
    """Decorator: memoize a function in at most ``max_bytes`` (see `BoundedMemo`)."""
    return lambda fn: BoundedMemo(fn, max_bytes, size)
