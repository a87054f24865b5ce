"""Always-on counters of a fake phone server, for benchmarks and tests.

A benchmark of a client (our `AndroidDevice`) on the fake wants two things the client
cannot see: how many round trips it made (adb connections, shell commands,
uiautomator2 HTTP requests) and how much of its time the fake spent simulating the
phone (inside the `SimulatedDevice` calls a step makes: perform, the dump, the render,
the foreground activity, the packages), so that the client's own overhead is the total
minus that. The fake's JPEG encoding of screenshots is timed apart: a phone does that
work too. Counting costs a lock and two clock reads per event, so it is never
switched off.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from types import TracebackType

#: The counters, in the order `Stats.snapshot` lists them.
COUNTERS = (
    "adb_connections",  # connections accepted (the adb server's port and forwarded ports)
    "host_requests",    # host services answered on them (host:version, host:devices, ...)
    "shell_commands",   # shell:/exec: services run
    "u2_connections",   # tcp: device services (a uiautomator2 HTTP connection)
    "u2_requests",      # HTTP requests the uiautomator2 servers answered
    "sim_calls",        # calls into the simulator (SimulatedDevice)
)


#: The timers, each reported as ``<name>_seconds``.
TIMERS = ("sim", "encode")


class Stats:
    """Thread-safe event counts and the seconds spent inside the simulator and encoding."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()
        self._seconds = dict.fromkeys(TIMERS, 0.0)

    def count(self, name: str, n: int = 1) -> None:
        if name not in COUNTERS:
            raise KeyError(f"no counter {name!r}; counters: {', '.join(COUNTERS)}")
        with self._lock:
            self._counts[name] += n

    def simulating(self) -> _Timer:
        """``with stats.simulating(): device.perform(...)``: the block's time is
        simulation time (one ``sim_calls``)."""
        return _Timer(self, "sim")

    def encoding(self) -> _Timer:
        """``with stats.encoding(): ...``: the block's time is spent encoding a screenshot."""
        return _Timer(self, "encode")

    def snapshot(self) -> dict[str, float]:
        """Every counter and timer (0 if nothing happened), as of now."""
        with self._lock:
            return {**{name: self._counts[name] for name in COUNTERS},
                    **{f"{name}_seconds": self._seconds[name] for name in TIMERS}}

    def _add(self, timer: str, seconds: float) -> None:
        with self._lock:
            if timer == "sim":
                self._counts["sim_calls"] += 1
            self._seconds[timer] += seconds


class _Timer:
    """A context manager, not a generator: it is entered on every simulator call."""

    __slots__ = ("_stats", "_name", "_start")

    def __init__(self, stats: Stats, name: str) -> None:
        self._stats = stats
        self._name = name
        self._start = 0.0

    def __enter__(self) -> None:
        self._start = time.perf_counter()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stats._add(self._name, time.perf_counter() - self._start)


def total(stats: list[dict[str, float]]) -> dict[str, float]:
    """Snapshots added up (a server's own and each phone's)."""
    out: dict[str, float] = {name: 0 for name in (*COUNTERS, *(f"{t}_seconds" for t in TIMERS))}
    for snap in stats:
        for name, value in snap.items():
            out[name] += value
    return out
