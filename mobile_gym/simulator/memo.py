"""`lru_bytes`: a least-recently-used memo bounded by the memory it holds.

`functools.lru_cache` bounds the number of entries, but the renderer's entries range
from a word's fit to a screen-wide text mask keyed by a field's text: a count is no
memory bound (8,192 masks a full-size screen wide are 460 MB, and a long run with new text
on screen fills any count). These memos bound the sum of their entries' sizes instead,
evicting the least recently used.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Any, Callable

#: Bytes a memo spends on an entry besides its key and value (dict slot, tuples).
ENTRY_OVERHEAD = 200


class BoundedMemo:
    """``fn`` memoized on its positional arguments, holding at most ``max_bytes`` as
    measured by ``size(args, value)`` plus `ENTRY_OVERHEAD` per entry. Without ``fn``, a
    store of values made elsewhere (`lookup`, `store`)."""

    def __init__(self, fn: Callable | None, max_bytes: int, size: Callable[[tuple, Any], int], name: str = ""):
        if fn is not None:
            functools.update_wrapper(self, fn)
        else:  # a store filled with `store`, not a function's memo
            self.__name__ = name
        self.fn, self.max_bytes, self.size = fn, max_bytes, size
        self.entries: OrderedDict[tuple, tuple[Any, int]] = OrderedDict()  # args -> (value, bytes)
        self.nbytes = 0
        self._lock = threading.Lock()  # phones of one fake-device server draw in several threads

    def __call__(self, *args: Any) -> Any:
        value = self.lookup(args)
        if value is None:
            value = self.fn(*args)
            self.store(args, value)
        return value

    def lookup(self, key: tuple) -> Any:
        """The value memoized under ``key``, or None."""
        with self._lock:
            hit = self.entries.get(key)
            if hit is None:
                return None
            self.entries.move_to_end(key)
            return hit[0]

    def store(self, key: tuple, value: Any) -> None:
        """Memoize ``value`` (never None) under ``key``, evicting the least recently used
        entries beyond the bound; an entry larger than the bound is not kept."""
        cost = self.size(key, value) + ENTRY_OVERHEAD
        if cost > self.max_bytes:
            return
        with self._lock:
            old = self.entries.pop(key, None)
            if old is not None:
                self.nbytes -= old[1]
            self.entries[key] = (value, cost)
            self.nbytes += cost
            while self.nbytes > self.max_bytes:
                _, (_, freed) = self.entries.popitem(last=False)
                self.nbytes -= freed

    def cache_clear(self) -> None:
        with self._lock:
            self.entries.clear()
            self.nbytes = 0


def lru_bytes(max_bytes: int, size: Callable[[tuple, Any], int]) -> Callable[[Callable], BoundedMemo]:
    """Decorator: memoize a function in at most ``max_bytes`` (see `BoundedMemo`)."""
    return lambda fn: BoundedMemo(fn, max_bytes, size)
