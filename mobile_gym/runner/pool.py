"""Worker processes that outlive their jobs: a job that runs past its deadline or takes
its worker down (``sys.exit``, ``os._exit``, a signal, a segfault) comes back as `Lost`,
the worker is replaced and the other jobs go on.

``multiprocessing.Pool`` silently replaces a dead worker and loses its task (the caller
waits for it forever), and ``ProcessPoolExecutor`` breaks as a whole. Here each worker
has its own pipe and one job at a time; the parent waits on every pipe and every
worker's sentinel at once (`multiprocessing.connection.wait`) until the earliest
deadline. Workers ignore SIGINT: Ctrl-C in a terminal reaches the whole process group,
and stopping is the parent's call (leaving the pool's ``with`` block kills the workers).

With ``slots`` (e.g. one phone each), worker i calls ``fn(job, slots[i])``, and the worker
that replaces it gets the same slot: a phone is never driven by two workers at once.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterable, Iterator, Sequence

EXIT_GRACE = 5.0  # seconds a worker that said it is ending, or closed its pipe, gets to exit


@dataclass(frozen=True)
class Lost:
    """A job that came back without a result: its worker ran past the deadline (and was
    killed) or died."""

    timed_out: bool
    message: str
    seconds: float  # from dispatch to loss


def _serve(conn: Connection, fn: Callable[..., Any], inherited: list[Connection], extra: tuple) -> None:
    """A worker: one job in, one outcome out, until the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for c in inherited:  # the parent's ends: holding them would hide the parent's exit
        c.close()
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        try:
            outcome = ("done", fn(job, *extra))
        except Exception as e:  # noqa: BLE001 - fn's own failure, raised again in the parent
            outcome = ("raised", e)
        except BaseException as e:  # noqa: BLE001 - the job's own sys.exit or KeyboardInterrupt: this worker ends
            conn.send(("ending", f"{type(e).__name__}: {e}" if str(e) else type(e).__name__))
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
            os._exit(e.code if isinstance(e, SystemExit) and isinstance(e.code, int) else 1)
        conn.send(outcome)


class _Worker:
    def __init__(self, context: Any, fn: Callable[..., Any], others: list[Connection], slot: int | None,
                 extra: tuple):
        self.slot = slot  # index into the pool's slots, None without
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, fn, [self.conn, *others], extra), daemon=True)
        self.process.start()
        child.close()
        self.job: Any = None
        self.started: float | None = None  # None: idle
        self.deadline: float | None = None

    def start(self, job: Any, timeout: float | None) -> None:
        self.job, self.started = job, time.monotonic()
        self.deadline = None if timeout is None else self.started + timeout
        try:
            self.conn.send(job)
        except OSError:
            pass  # it died while idle: its sentinel reports the job lost

    def finish(self) -> None:
        self.job = self.started = self.deadline = None

    def stop(self, kill: bool) -> int | None:
        """Close its pipe (an idle worker then exits), kill it first if ``kill``, reap it;
        returns its exit code (minus the signal that killed it)."""
        if kill:
            self.process.kill()
        self.conn.close()
        self.process.join(EXIT_GRACE)
        if self.process.exitcode is None:
            self.process.kill()
            self.process.join()
        code = self.process.exitcode
        self.process.close()
        return code


class WorkerPool:
    """``workers`` processes calling ``fn(job)`` (with ``slots``: one worker per slot,
    calling ``fn(job, slot)``); a job's ``timeout`` (seconds, None for none) counts from
    when a worker takes it."""

    def __init__(self, fn: Callable[..., Any], workers: int = 1, *, timeout: float | None = None,
                 slots: Sequence[Any] | None = None):
        self._slots = list(slots) if slots is not None else None
        if self._slots == []:
            raise ValueError("slots=[]: a pool of no worker would never run a job")
        size = len(self._slots) if self._slots is not None else workers
        self._fn, self._size, self._timeout = fn, max(1, size), timeout
        self._context = mp.get_context("fork" if sys.platform != "win32" else "spawn")
        self._workers: list[_Worker] = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def imap_unordered(self, jobs: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        """``(job, result)`` as each job ends, ``result`` being a `Lost` when its worker
        died or ran past the timeout. An exception ``fn`` raises is raised here."""
        pending = list(jobs)[::-1]
        while pending or any(w.started is not None for w in self._workers):
            self._dispatch(pending)
            for worker, overdue in self._ended():
                job, outcome = worker.job, self._outcome(worker, overdue)
                self._dispatch(pending)  # the worker goes on while the caller takes the outcome
                yield job, outcome

    def close(self) -> None:
        """Stop every worker; jobs in flight are dropped."""
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop(kill=worker.started is not None)

    def _dispatch(self, pending: list[Any]) -> None:
        while pending and (worker := self._idle_worker()) is not None:
            worker.start(pending.pop(), self._timeout)

    def _idle_worker(self) -> _Worker | None:
        for worker in self._workers:
            if worker.started is None:
                return worker
        if len(self._workers) < self._size:
            slot = None
            if self._slots is not None:  # the first slot no worker holds
                slot = min(set(range(len(self._slots))) - {w.slot for w in self._workers})
            extra = () if slot is None else (self._slots[slot],)  # type: ignore[index]
            self._workers.append(_Worker(self._context, self._fn, [w.conn for w in self._workers], slot, extra))
            return self._workers[-1]
        return None

    def _ended(self) -> list[tuple[_Worker, bool]]:
        """The busy workers that answered or died, and those past their deadline (True)."""
        busy = [w for w in self._workers if w.started is not None]
        deadlines = [w.deadline for w in busy if w.deadline is not None]
        timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
        ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout))
        now = time.monotonic()
        ended = []
        for w in busy:
            if w.conn in ready or w.process.sentinel in ready:
                ended.append((w, False))
            elif w.deadline is not None and now >= w.deadline:
                ended.append((w, True))
        return ended

    def _outcome(self, worker: _Worker, overdue: bool) -> Any:
        seconds = time.monotonic() - (worker.started or 0.0)
        ending = None
        if not overdue:
            kind, value = "died", None  # unless it answered before it ended
            if worker.conn.poll():  # an answer, or the end of the pipe
                try:
                    kind, value = worker.conn.recv()
                except (EOFError, OSError):  # it died before answering, or in mid-answer
                    pass
            if kind == "done":
                worker.finish()
                return value
            if kind == "raised":
                worker.finish()
                raise value
            ending = value
        self._workers.remove(worker)
        code = worker.stop(kill=overdue)
        if overdue:
            return Lost(True, f"no result after {self._timeout:g} s: the worker was killed", seconds)
        return Lost(False, _death(code, ending), seconds)


def _death(code: int | None, ending: str | None) -> str:
    if code is not None and code < 0:
        try:
            how = f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"was killed by signal {-code}"
    else:
        how = f"exited with code {code}"
    return f"the worker {how}" + (f" ({ending} raised in the job)" if ending else "")
