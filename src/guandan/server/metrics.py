"""The server's metrics, in Prometheus's text format at ``GET /metrics``.

* ``guandan_tables{state}``: rooms in memory, by state (lobby, playing, paused, over);
* ``guandan_connections{role}``: open table WebSockets, by role (player, spectator);
* ``guandan_worker_queue``: jobs waiting for the worker processes (hints, thinking bots, readings, reviews);
* ``guandan_actions_total{actor}``: actions applied at the tables, by who acted: ``human``, ``bot``, or
  ``auto`` (托管: a bot playing a player's seat, switched on or after a timeout);
* ``guandan_action_broadcast_seconds``: from an action entering ``TableService.act`` until its frames are
  released to the connections, which is once its database commit is done;
* ``guandan_http_request_seconds{method,route,status}``: HTTP requests, by route template
  (``/api/rooms/{code}``, ``unmatched`` for an address nothing answers at): the labels stay few;
* ``guandan_ws_frames_total{direction}``: WebSocket frames, ``in`` (from clients) and ``out``;
* ``guandan_errors_total{kind}``: ``http_5xx`` (answers of status 500 and up), ``unhandled`` (an exception
  out of an HTTP or WebSocket handler), ``db_write`` (the commit an action's frames waited for failed) and
  ``logged`` (every ERROR record of a ``guandan`` logger: a failed bot, worker, sweep or write, whether or
  not it is one of the others too).

The gauges are read from the service's state (:func:`observe`) each time /metrics is answered.

Several worker processes (``guandan serve --workers N``): the parent calls :func:`prepare_multiprocess`
before it starts them. prometheus_client decides, when it is first imported, whether a process keeps its
values in memory or in files under ``PROMETHEUS_MULTIPROC_DIR``; the workers are fresh processes (spawned,
not forked), so they import it with the variable already set and write their files there. /metrics then
answers, from whichever worker the request reaches, the sum over every live worker; each worker also sets
its gauges once a second, so that the others' are current. The parent calls :func:`worker_died` for a worker
that is gone: its gauges leave the sum, its counts stay in it (a counter never goes back).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import re
import tempfile
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client import multiprocess as prom_multiprocess
from prometheus_client.process_collector import ProcessCollector
from starlette.routing import Mount

from ..core.deal import Action
from ..i18n import N_
from .clientaddr import TrustedProxies, socket_peer
from .protocol import say
from .rooms import Room
from .table import ServiceError, TableService

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# a game server's latencies: a millisecond (an action on a quiet table) to seconds (a stalled disk)
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
TABLE_STATES = ("lobby", "playing", "paused", "over")
ROLES = ("player", "spectator")
ACTORS = ("human", "bot", "auto")
ERROR_KINDS = ("http_5xx", "unhandled", "db_write", "logged")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})  # any other: "other"
REFRESH_S = 1.0  # how often each worker sets its gauges when several serve together
REFUSED = N_("Only the addresses the operator allows may read this server's metrics.")

# no *_created series: start times that no query of ours reads, doubling the output
disable_created_metrics()  # type: ignore[no-untyped-call]
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # this process's memory, CPU and open files (one process only)
# the gauges' "livesum": with several workers, the sum over the workers that are alive
TABLES = Gauge("guandan_tables", "Rooms in memory, by state", ["state"], registry=REGISTRY,
               multiprocess_mode="livesum")
CONNECTIONS = Gauge("guandan_connections", "Open table WebSockets, by role", ["role"], registry=REGISTRY,
                    multiprocess_mode="livesum")
WORKER_QUEUE = Gauge("guandan_worker_queue", "Jobs waiting for the worker processes", registry=REGISTRY,
                     multiprocess_mode="livesum")
ACTIONS = Counter("guandan_actions", "Actions applied at the tables, by who acted", ["actor"], registry=REGISTRY)
BROADCAST = Histogram("guandan_action_broadcast_seconds",
                      "From an action entering the table service until its frames are released (after its commit)",
                      registry=REGISTRY, buckets=BUCKETS)
HTTP = Histogram("guandan_http_request_seconds", "HTTP requests, by method, route template and status",
                 ["method", "route", "status"], registry=REGISTRY, buckets=BUCKETS)
WS_FRAMES = Counter("guandan_ws_frames", "WebSocket frames, by direction", ["direction"], registry=REGISTRY)
ERRORS = Counter("guandan_errors", "Errors, by kind", ["kind"], registry=REGISTRY)
# every series that is known in advance is there from the start, at 0, so that rates over it are defined
for _state in TABLE_STATES:
    TABLES.labels(_state)
for _role in ROLES:
    CONNECTIONS.labels(_role)
for _actor in ACTORS:
    ACTIONS.labels(_actor)
for _kind in ERROR_KINDS:
    ERRORS.labels(_kind)
for _direction in ("in", "out"):
    WS_FRAMES.labels(_direction)

# the files prometheus_client writes in multiprocess mode (counter_123.db, gauge_livesum_123.db, …)
_PROM_FILE = re.compile(r"(counter|histogram|summary|gauge_[a-z]+)_[^/]+\.db")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Any]]
Send = Callable[[Any], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# --- several worker processes ---------------------------------------------------------------------------
def multiprocess_dir() -> str | None:
    """The directory the worker processes write their metrics into, when several serve together."""
    return os.environ.get(MULTIPROC_ENV) or None


def prepare_multiprocess(directory: Path) -> None:
    """Make ``directory`` the place where the worker processes about to be started keep their metrics: it is
    created if need be, the metrics files an earlier run left there are removed (other files are left
    alone), and ``PROMETHEUS_MULTIPROC_DIR`` is set in this process's environment, which the workers inherit.
    It must run before the workers import prometheus_client (it decides where values go at import).
    Raises ValueError when ``directory`` is something else than a directory, OSError when it cannot be made."""
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"{directory} is not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    for path in directory.iterdir():
        if _PROM_FILE.fullmatch(path.name) and path.is_file():
            path.unlink()
    os.environ[MULTIPROC_ENV] = str(directory.resolve())


OWN_DIR_PREFIX = "guandan-metrics-"  # and the supervisor's pid: the folder it makes when none is named


def own_multiprocess_dir(pid: int) -> Path:
    """The folder the supervisor of process ``pid`` makes for its workers' metrics when
    ``PROMETHEUS_MULTIPROC_DIR`` names none (and removes when it stops: :func:`remove_multiprocess_dir`)."""
    return Path(tempfile.gettempdir()) / f"{OWN_DIR_PREFIX}{pid}"


def remove_multiprocess_dir(directory: Path) -> None:
    """Remove the metrics files prometheus_client wrote in ``directory``, then the folder if that left it
    empty: anything else put there stays, and so does the folder holding it."""
    with contextlib.suppress(OSError):
        for path in directory.iterdir():
            if _PROM_FILE.fullmatch(path.name) and path.is_file():
                path.unlink(missing_ok=True)
        directory.rmdir()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_stale_dirs(parent: Path | None = None) -> list[Path]:
    """Remove the folders :func:`own_multiprocess_dir` names (in ``parent``, by default the temporary
    folder) whose supervisor no longer runs, killed before it could remove its own; a running server's
    folder stays, as does another user's. The folders removed, for the record."""
    parent = parent or Path(tempfile.gettempdir())
    removed: list[Path] = []
    uid = os.getuid()
    for path in parent.glob(f"{OWN_DIR_PREFIX}*"):
        pid = path.name[len(OWN_DIR_PREFIX):]
        try:
            if not pid.isdigit() or _running(int(pid)) or path.is_symlink() or not path.is_dir() \
                    or path.stat().st_uid != uid:
                continue
        except OSError:
            continue
        remove_multiprocess_dir(path)
        if not path.exists():
            removed.append(path)
    return removed


def worker_died(pid: int) -> None:
    """A worker process has ended: its gauges leave the sum /metrics answers (its counts stay)."""
    directory = multiprocess_dir()
    if directory is not None:
        prom_multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]  # (unannotated there)


def exposition() -> bytes:
    """The metrics in Prometheus's text format: every live worker's summed when several serve together
    (read from their files), else this process's."""
    directory = multiprocess_dir()
    if directory is None:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    prom_multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


# --- what the service holds -------------------------------------------------------------------------------
def room_state(room: Room) -> str:
    return "paused" if room.paused else room.status


def observe(service: TableService) -> None:
    """Set the gauges from the service's rooms, connections and worker queue."""
    tables = dict.fromkeys(TABLE_STATES, 0)
    for room in service.rooms.values():
        state = room_state(room)
        tables[state] = tables.get(state, 0) + 1
    for state, n in tables.items():
        TABLES.labels(state).set(n)
    roles = dict.fromkeys(ROLES, 0)
    for conns in service.conns.values():
        for conn in conns:
            roles["player" if conn.seat is not None else "spectator"] += 1
    for role, n in roles.items():
        CONNECTIONS.labels(role).set(n)
    WORKER_QUEUE.set(service.pool.waiting())


def actor(room: Room, seat: int) -> str:
    s = room.seats[seat]
    if s.kind == "bot":
        return "bot"
    return "auto" if s.auto else "human"


class ErrorLogCounter(logging.Handler):
    """Counts the ERROR records of the ``guandan`` loggers (``guandan_errors_total{kind="logged"}``)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        ERRORS.labels("logged").inc()


def _count_logged_errors() -> None:
    root = logging.getLogger("guandan")
    if not any(isinstance(h, ErrorLogCounter) for h in root.handlers):
        root.addHandler(ErrorLogCounter())


class ServiceMetrics:
    """One app's part in the metrics: its table service's actions and gauges, and its /metrics route."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.task: asyncio.Task[None] | None = None
        service.action_hooks.append(self.acted)

    def acted(self, room: Room, action: Action, started: float) -> None:
        """An action was applied (TableService.act took it up at ``started``): count it, and time it until
        the commit its frames wait for is done (Connection.send releases them in that commit's callbacks,
        which were added before this one)."""
        ACTIONS.labels(actor(room, action.seat)).inc()
        gate = self.service.gates.get(room.code)
        pending = gate.pending() if gate is not None else None
        if pending is None:
            BROADCAST.observe(time.perf_counter() - started)
            return

        def released(done: asyncio.Future[Any]) -> None:
            BROADCAST.observe(time.perf_counter() - started)
            if not done.cancelled() and done.exception() is not None:
                ERRORS.labels("db_write").inc()

        pending.add_done_callback(released)

    def start(self) -> None:
        """With several workers, set the gauges once a second (the scrape reaches only one of them)."""
        if multiprocess_dir() is not None and self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._refresh_forever())

    async def _refresh_forever(self) -> None:
        while True:
            observe(self.service)
            await asyncio.sleep(REFRESH_S)

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None


def peer_allowed(allow: TrustedProxies, host: str | None) -> bool:
    """Whether the socket peer ``host`` is in the allow-list (an IPv4 peer of a dual-stack socket, written
    ``::ffff:a.b.c.d``, counts as ``a.b.c.d``)."""
    if host is None:
        return False
    if allow.trusts(host):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return mapped is not None and allow.trusts(str(mapped))


def install(app: FastAPI, service: TableService) -> ServiceMetrics:
    """``GET /metrics`` for the peers of ``service.settings.metrics_allow``, and the service's counts.
    The app's lifespan calls ``start()`` and ``close()`` of what this returns."""
    _count_logged_errors()
    allow = TrustedProxies(service.settings.metrics_allow)
    found = ServiceMetrics(service)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        peer = socket_peer(request)
        if not peer_allowed(allow, peer):
            raise ServiceError(f"metrics are answered only to the allowed addresses, not to {peer}", 403, "forbidden",
                               words=say(REFUSED))
        observe(service)
        return Response(exposition(), media_type=CONTENT_TYPE_LATEST)

    return found


# --- HTTP requests and WebSocket frames -------------------------------------------------------------------
def route_template(scope: Scope, root_path: str = "") -> str:
    """The template of the route a request matched (``/api/rooms/{code}``), ``/static/{path}`` for a
    mounted app (``root_path``: the scope's before routing; a mount extends it by its own path), or
    ``unmatched``."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(route, Mount) and isinstance(path, str):
        return path.rstrip("/") + "/{path}"
    if isinstance(path, str):
        return path
    mounted = str(scope.get("root_path", ""))
    if mounted != root_path and mounted.startswith(root_path):  # FastAPI's router names no route for a mount
        return mounted[len(root_path):].rstrip("/") + "/{path}"
    return "unmatched"


ACCESS = logging.getLogger("guandan.access")


class MetricsMiddleware:
    """Times every HTTP request by route template and status, counts WebSocket frames, and writes the
    access log (one line per request, ``guandan serve --access-log``). It must be the innermost
    middleware: the router records the matched route in the scope it is handed, and only this one's."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        root_path = str(scope.get("root_path", ""))
        status = 500  # what the client gets if the handler raises before answering

        async def sending(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            ERRORS.labels("unhandled").inc()
            status = 500
            raise
        finally:
            seconds = time.perf_counter() - started
            method = scope.get("method", "GET")
            method = method if method in METHODS else "other"
            route = route_template(scope, root_path)
            HTTP.labels(method, route, str(status)).observe(seconds)
            if status >= 500:
                ERRORS.labels("http_5xx").inc()
            if ACCESS.isEnabledFor(logging.INFO):
                ms = round(seconds * 1000, 1)
                ACCESS.info("%s %s %d %.1f ms", method, route, status, ms,
                            extra={"method": method, "route": route, "status": status, "duration_ms": ms})

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        frames_in, frames_out = WS_FRAMES.labels("in"), WS_FRAMES.labels("out")

        async def receiving() -> Any:
            message = await receive()
            if message["type"] == "websocket.receive":
                frames_in.inc()
            return message

        async def sending(message: Any) -> None:
            await send(message)
            if message["type"] == "websocket.send":
                frames_out.inc()

        try:
            await self.app(scope, receiving, sending)
        except Exception:
            ERRORS.labels("unhandled").inc()
            raise
