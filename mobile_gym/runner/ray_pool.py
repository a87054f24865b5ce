"""`WorkerPool`'s contract on a Ray cluster: jobs run as Ray tasks on any node (or, with
``slots``, on one Ray actor per phone, placed by custom resources on the node that has
it), and come back as ``(job, result)`` in the driver, ``result`` being a `Lost` when the
job's worker died twice or ran past the timeout.

The driver keeps at most ``workers`` jobs in flight, so a job's timeout counts from about
when a worker takes it and a kill of the driver loses at most those. A job whose worker
process or node dies is submitted once more (``retries``); Ray's own task retries are off,
so that a second death is seen here and recorded, not retried without end. An exception
the job raises is raised again in the driver, as `WorkerPool` does.

Ray is an optional extra (``pip install 'mobile-gym[ray]'``): this module imports it
when a pool is made.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Iterator, Sequence

from mobile_gym.errors import ConfigError, MissingExtraError
from mobile_gym.runner.pool import Lost

#: Resource name prefix of a phone: a node that has the phone with serial S starts with
#: ``ray start --resources '{"phone:S": 1}'`` (`phone_resources` writes it).
PHONE_RESOURCE = "phone:"


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("the Ray executor needs Ray: pip install 'mobile-gym[ray]'") from None
    return ray


def phone_resources(serials: Iterable[str]) -> dict[str, float]:
    """The custom resources a Ray node declares for the phones it has."""
    return {PHONE_RESOURCE + serial: 1.0 for serial in serials}


def cluster_phones(ray: Any) -> list[str]:
    """The serials of the phones the cluster's nodes declare, sorted."""
    return sorted(name[len(PHONE_RESOURCE):] for name in ray.cluster_resources() if name.startswith(PHONE_RESOURCE))


def connect(address: str | None) -> Any:
    """Ray, connected: to ``address`` ("auto": the cluster `ray start` runs on this machine;
    "ray://host:10001": a remote cluster through Ray Client), or when None to the Ray this
    process already started, else a new local one."""
    ray = import_ray()
    if not ray.is_initialized():
        try:
            ray.init(address=address, logging_level="WARNING")
        except ConnectionError as e:
            raise ConfigError(f"cannot connect to the Ray cluster at {address}: {e}") from None
    return ray


def _call(fn: Callable[[Any], Any], job: Any) -> Any:
    return fn(job)


class _Phone:
    """A Ray actor driving one phone: its jobs run one at a time in its process."""

    def __init__(self, fn: Callable[..., Any], slot: Any):
        self.fn, self.slot = fn, slot

    def run(self, job: Any) -> Any:
        return self.fn(job, self.slot)


class RayPool:
    """``workers`` jobs at a time as Ray tasks calling ``fn(job)``; with ``slots``, one actor
    per slot calling ``fn(job, slot)``, placed with ``slot_resources[i]`` (e.g.
    ``{"phone:SERIAL": 1}``: on the node that declares it). ``timeout`` as `WorkerPool`'s;
    ``retries``: how many more times a job whose worker died is run."""

    def __init__(self, fn: Callable[..., Any], workers: int = 1, *, timeout: float | None = None,
                 slots: Sequence[Any] | None = None, slot_resources: Sequence[dict[str, float]] | None = None,
                 address: str | None = None, retries: int = 1):
        self._ray = ray = connect(address)
        self._fn, self._timeout, self._retries = fn, timeout, retries
        self._slots = list(slots) if slots is not None else None
        if self._slots == []:
            raise ValueError("slots=[]: a pool of no worker would never run a job")
        self._size = len(self._slots) if self._slots is not None else max(1, workers)
        self._task = ray.remote(max_retries=0)(_call)
        self._actors: list[Any] = []
        if self._slots is not None:
            resources = list(slot_resources or [{}] * len(self._slots))
            _check_resources(ray, resources)
            actor = ray.remote(max_restarts=-1, max_task_retries=0)(_Phone)
            self._actors = [actor.options(resources=r or None).remote(fn, slot)
                            for slot, r in zip(self._slots, resources)]
        self._running: dict[Any, tuple[Any, int, float, int | None]] = {}  # ref -> (job, attempt, started, actor)
        # the node this driver's files are on; None through Ray Client (the driver's
        # machine is no node of the cluster)
        self.node_id = None if _through_client(ray) else ray.get_runtime_context().get_node_id()

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def imap_unordered(self, jobs: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
        ray = self._ray
        pending = [(job, 0) for job in jobs][::-1]
        while pending or self._running:
            self._dispatch(pending)
            deadlines = [started + self._timeout for _, _, started, _ in self._running.values()
                         if self._timeout is not None]
            wait = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            ready, _ = ray.wait(list(self._running), num_returns=1, timeout=wait)
            for ref in ready:
                job, attempt, started, actor = self._running.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as e:  # the job's own exception
                    raise (e.cause or e) from None
                except _deaths(ray) as e:
                    if attempt < self._retries:
                        pending.append((job, attempt + 1))
                        continue
                    result = Lost(False, f"the worker died ({_first_line(e)}), on each of "
                                         f"{attempt + 1} tries", time.monotonic() - started)
                self._dispatch(pending)  # the workers go on while the caller takes the result
                yield job, result
            now = time.monotonic()
            for ref, (job, _, started, actor) in list(self._running.items()):
                if self._timeout is not None and now - started >= self._timeout and not ray.wait([ref], timeout=0)[0]:
                    del self._running[ref]
                    self._stop(ref, actor)
                    yield job, Lost(True, f"no result after {self._timeout:g} s: the worker was killed",
                                    now - started)

    def close(self) -> None:
        """Stop the jobs in flight and the actors."""
        for ref, (_, _, _, actor) in list(self._running.items()):
            self._stop(ref, actor)
        self._running.clear()
        for actor in self._actors:
            self._ray.kill(actor, no_restart=True)
        self._actors = []

    def _stop(self, ref: Any, actor: int | None) -> None:
        if actor is None:
            self._ray.cancel(ref, force=True)
        else:  # an actor's process is killed and made again, its phone kept
            self._ray.kill(self._actors[actor], no_restart=False)

    def _dispatch(self, pending: list[tuple[Any, int]]) -> None:
        while pending and len(self._running) < self._size:
            job, attempt = pending.pop()
            if self._actors:
                busy = {a for _, _, _, a in self._running.values()}
                actor = min(set(range(len(self._actors))) - busy)
                ref = self._actors[actor].run.remote(job)
            else:
                actor, ref = None, self._task.remote(self._fn, job)
            self._running[ref] = (job, attempt, time.monotonic(), actor)


def _check_resources(ray: Any, resources: list[dict[str, float]]) -> None:
    """Every custom resource asked for is declared by some node (else its actor would wait
    for ever)."""
    have = ray.cluster_resources()
    missing = sorted({name for r in resources for name in r if name not in have})
    if missing:
        raise ConfigError(f"no node of the Ray cluster declares {', '.join(missing)}: start the node that has "
                          f"the phone with ray start --resources '{{\"{missing[0]}\": 1}}'")


def _through_client(ray: Any) -> bool:
    from ray.util.client import ray as client

    return client.is_connected()


def _deaths(ray: Any) -> tuple[type[BaseException], ...]:
    """Ray's errors for a job whose worker process, actor or node went away."""
    x = ray.exceptions
    return (x.WorkerCrashedError, x.RayActorError, x.NodeDiedError, x.ObjectLostError, x.OutOfMemoryError,
            x.LocalRayletDiedError)


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]
