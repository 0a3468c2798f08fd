"""The arena on a Ray cluster (``guandan arena --ray``): the same chunks the process pool plays, as Ray tasks.

Each task runs the runner's own chunk function (``_pairs_chunk`` / ``_matches_chunk``) on one
chunk, so a pair is played exactly as in one process, from the same seeds; the driver takes each
chunk back with ``ray.wait`` as it finishes, which is when a results file gets its lines.

Ray is imported only here and only when a pool is opened: the other commands never pay its import.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, TypeVar

from ..core.errors import GuandanError, shown
from ..i18n import N_
from ..i18n.reasons import os_reason

S = TypeVar("S")  # what every task is given: the arena's Setup, self-play's SelfplaySetup, …
T = TypeVar("T")
LOCAL = "local"
_HOST_PORT = re.compile(r"(?:ray://)?([A-Za-z0-9.\-]+):(\d{1,5})")


def check_address(value: str) -> str:
    """``value`` if it names a cluster ``ray.init`` can reach (``local``, ``auto``, ``HOST:PORT`` or
    ``ray://HOST:PORT``), else a :class:`GuandanError` that says what is wrong."""
    if value in (LOCAL, "auto"):
        return value
    m = _HOST_PORT.fullmatch(value)
    if m is None:
        if value.startswith("-"):
            raise GuandanError.said(N_("--ray must be local, auto, HOST:PORT or ray://HOST:PORT, not {value} (--ray "
                                       "takes a value: --ray local)"), value=shown(value))
        raise GuandanError.said(N_("--ray must be local, auto, HOST:PORT or ray://HOST:PORT, not {value}"),
                                value=shown(value))
    if not 0 < int(m.group(2)) < 65536:
        raise GuandanError.said(N_("--ray {address}: the port must be between 1 and 65535"), address=value)
    return value


def _answers(address: str, timeout: float = 5.0) -> None:
    """Nothing, if something accepts a connection at ``address`` (``HOST:PORT``, ``ray://HOST:PORT``) within
    ``timeout`` seconds; else a :class:`GuandanError` naming why. Ray itself would retry for minutes."""
    m = _HOST_PORT.fullmatch(address)
    if m is None:
        return
    try:
        socket.create_connection((m.group(1), int(m.group(2))), timeout=timeout).close()
    except OSError as e:
        raise GuandanError.said(N_("--ray {address}: nothing answers there ({reason})"), address=address,
                                reason=os_reason(e)) from None


def check_options(address: str, jobs: int) -> str:
    """:func:`check_address`, and ``--jobs`` only with ``local`` (a running cluster brings its own
    CPUs): the checks every command with ``--ray`` makes, in the arena's words."""
    check_address(address)
    if address != LOCAL and jobs != 1:
        raise GuandanError.said(N_("--jobs sets a local Ray cluster's CPUs; --ray {address} uses that cluster's own "
                                   "CPUs: leave --jobs out"), address=address)
    return address


class RayPool:
    """A Ray cluster to play arena chunks on, used as a context manager.

    ``address`` ``local`` starts a cluster in this process with ``jobs`` CPUs — lean: no dashboard,
    workers' output not echoed, Ray's own logging left alone — and stops it on exit. Any other
    address connects to a running cluster, whose CPUs then decide ``workers``."""

    def __init__(self, address: str = LOCAL, jobs: int = 1) -> None:
        self.address = check_address(address)
        self.jobs = jobs
        self.workers = jobs
        self._ray: Any = None
        self._owned = False  # whether __exit__ stops the cluster: only one this pool started
        self.play_seconds = 0.0  # wall time inside run(): the play, without the cluster's start and stop

    def __enter__(self) -> RayPool:
        try:
            import ray  # here, not at the top: Ray costs a second to import and is optional
        except ImportError:
            raise GuandanError.said(N_("--ray needs Ray: pip install ray (the version pinned in pyproject.toml's dev "
                                       "extra)")) from None
        if ray.is_initialized():
            # a program (or a test) that already has a cluster: play on it, and leave it running
            self._ray, self._owned = ray, False
        else:
            opts: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
            try:
                if self.address == LOCAL:
                    ray.init(num_cpus=self.jobs, include_dashboard=False, **opts)
                else:
                    _answers(self.address)
                    ray.init(address=self.address, **opts)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise GuandanError.said(N_("--ray {address}: cannot reach the cluster ({reason})"), address=self.address,
                                        reason=str(e)) from None
            self._ray, self._owned = ray, True
        if self.address != LOCAL or not self._owned:
            resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]  # Ray leaves it unannotated
            self.workers = max(1, int(resources.get("CPU", 1)))
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._ray is not None and self._owned:
            # also on Ctrl-C: the local cluster's processes must not outlive the run
            self._ray.shutdown()
        self._ray, self._owned = None, False

    def _get(self, ref: Any) -> Any:
        """A finished task's result; its :class:`GuandanError` raised here as itself."""
        ray = self._ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as e:
            if isinstance(e.cause, GuandanError):
                raise e.cause from None
            raise

    def run(self, fn: Callable[[S, list[int]], list[T]], setup: S, chunks: list[list[int]],
            each: Callable[[list[T]], None] | None) -> list[list[T]]:
        """``fn(setup, chunk)`` for every chunk as a Ray task; each result goes to ``each`` as it
        arrives, and all come back in chunk order. A task's :class:`GuandanError` is raised here as
        itself, as the process pool does, so the command reports it in the same words."""
        ray = self._ray
        if ray is None:
            raise RuntimeError("RayPool.run outside its with-block")
        t0 = time.perf_counter()
        task = ray.remote(num_cpus=1)(fn)
        shared = ray.put(setup)  # one copy in the object store, not one per task
        pending = {task.remote(shared, chunk): n for n, chunk in enumerate(chunks)}
        parts: dict[int, list[T]] = {}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    n = pending.pop(ref)
                    parts[n] = self._get(ref)
                    if each is not None:
                        each(parts[n])
        finally:
            for ref in pending:  # a failure or Ctrl-C: the rest is not wanted any more
                ray.cancel(ref)
            self.play_seconds += time.perf_counter() - t0
        return [parts[n] for n in range(len(chunks))]

    def ordered(self, fn: Callable[[S, list[int]], T], setup: S, chunks: list[list[int]],
                ahead: int | None = None) -> Iterator[T]:
        """``fn(setup, chunk)`` for every chunk as a Ray task, yielded in chunk order, with at most
        ``ahead`` (default: twice ``workers``) tasks in flight or done but not yet yielded: a
        driver that writes results in order (self-play's Parquet parts) then holds a bounded
        number of them, not the whole run, while the workers stay busy."""
        ray = self._ray
        if ray is None:
            raise RuntimeError("RayPool.ordered outside its with-block")
        window = max(1, ahead if ahead is not None else 2 * self.workers)
        task = ray.remote(num_cpus=1)(fn)
        shared = ray.put(setup)
        refs: list[Any] = []  # submitted, not yet yielded, in chunk order
        t0 = time.perf_counter()
        try:
            for n in range(len(chunks)):
                while len(refs) < window and n + len(refs) < len(chunks):
                    refs.append(task.remote(shared, chunks[n + len(refs)]))
                result = self._get(refs.pop(0))  # the oldest: later ones keep running meanwhile
                self.play_seconds += time.perf_counter() - t0
                yield result  # the consumer's time (writing) is not play time
                t0 = time.perf_counter()
        finally:
            for ref in refs:  # a failure, Ctrl-C or a consumer that stopped early
                ray.cancel(ref)


__all__ = ["LOCAL", "RayPool", "check_address", "check_options"]
