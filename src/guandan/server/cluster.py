"""Many server processes, one site: table leases, the relay between processes and shared limits, in Redis.

Each table (room) is owned by one worker process at a time: the worker that holds the room's lease, a
Redis key with an expiry that the owner renews while it lives. Only the owner keeps the room in memory,
applies its actions, runs its bots and timers and writes its log. A request for a table that reaches
another process is relayed to the owner:

- a REST request is run by the owner's own app and its answer sent back;
- a WebSocket stays with the process the client reached (the *front*). Its frames go to the owner, and the
  table's frames to that connection come back, in order, over Redis pub/sub. Each worker listens on one
  channel of its own.

A worker that dies stops renewing: its leases expire (or its supervisor releases them at once), and the
survivors' scan finds the live tables nobody owns and rebuilds them from the action log. The fronts of
the dead worker's relayed sockets close them with 1012 ("service restart"); the page reconnects, to any
process, and resumes from the last update it saw. An action is applied at most once: the log's
``(room, seq)`` is unique, and the new owner starts from what was committed.

Messages on a worker's channel are ``kind \\t id \\t payload`` (a relayed frame's text goes as it is):
``open`` (payload: JSON of the socket's room, token and address), ``msg`` (a client frame, or nothing for
a binary one), ``bye``, ``frame``, ``close`` (payload: the close code), ``moved``, ``http`` and ``reply``
(JSON).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from redis import asyncio as aioredis

from .protocol import say
from .table import MOVING, Connection, ServiceError, TableService

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send
    from starlette.websockets import WebSocket

log = logging.getLogger("guandan.cluster")
JSON = dict[str, Any]
RELAYED = "guandan.relayed"  # an ASGI scope key: this request came from another worker, run it here
SERVICE_RESTART = 1012  # WebSocket close code: the page reconnects (to any process) and resumes
# REST paths that act on one room: the owner answers them (create and the open list are anyone's)
ROOM_PATH = re.compile(r"^/api/rooms/([A-Za-z0-9]{1,12})(?:/(?:join|leave|bots|ready|watch|reclaim))?$")
NOT_ROOM_CODES = frozenset({"OPEN"})
WORKER_FD = "GUANDAN_WORKER_FD"  # set by `serve --workers N` for each worker: the listening socket it accepts on
WORKER_ID = "GUANDAN_WORKER_ID"  # and the worker's id in the site

# KEYS: lease, owned set; ARGV: worker, ttl ms, code. Takes a free lease or refreshes one's own.
ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('SADD', KEYS[2], ARGV[3]) return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
"""
# KEYS: owned set, worker key; ARGV: worker, ttl ms, lease key prefix, process id. Renews the worker's
# heartbeat (which names its process) and every lease it owns; answers the codes whose lease another worker
# holds now (lost).
RENEW = """
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[2])
local lost = {}
for _, code in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local k = ARGV[3] .. code
  local v = redis.call('GET', k)
  if v == ARGV[1] then redis.call('PEXPIRE', k, ARGV[2])
  elseif not v then redis.call('SET', k, ARGV[1], 'PX', ARGV[2])
  else redis.call('SREM', KEYS[1], code) table.insert(lost, code) end
end
return lost
"""
# KEYS: lease, owned set; ARGV: worker, code
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SREM', KEYS[2], ARGV[2])
return 1
"""
# KEYS: owned set, worker key, workers set, open-list key; ARGV: worker, lease key prefix. A worker gone
# for good (shut down, or found dead by its supervisor): its leases are free at once.
RELEASE_WORKER = """
for _, code in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local k = ARGV[2] .. code
  if redis.call('GET', k) == ARGV[1] then redis.call('DEL', k) end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[4])
redis.call('SREM', KEYS[3], ARGV[1])
return 1
"""
# KEYS: bucket; ARGV: rate per s, burst, ttl ms. A token bucket shared by every process; Redis's clock.
TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local b = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(b[1]) or tonumber(ARGV[2])
local stamp = tonumber(b[2]) or now
tokens = math.min(tonumber(ARGV[2]), tokens + (now - stamp) * tonumber(ARGV[1]))
local ok = 0
if tokens >= 1 then tokens = tokens - 1 ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return ok
"""


def new_worker_id() -> str:
    """A worker's id: its host's name, its process id and a random part (a restarted process is another worker)."""
    host = re.sub(r"[^A-Za-z0-9.-]", "-", os.uname().nodename)[:32] or "host"
    return f"{host}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass
class ClusterSettings:
    """How the workers of one site coordinate. ``prefix`` names every key, so several sites (or tests)
    may share one Redis."""

    redis_url: str
    worker_id: str = field(default_factory=new_worker_id)
    prefix: str = "guandan"
    lease_ttl_s: float = 2.0  # a dead worker's tables are free this long after its last renewal
    renew_s: float = 0.5  # leases and the heartbeat are renewed this often
    scan_s: float = 1.0  # how often a worker looks for live tables that nobody owns
    relay_timeout_s: float = 5.0  # a relayed REST request or socket opening waits this long for the owner
    route_wait_s: float = 8.0  # a request for a table whose owner just died waits this long for a new one
    redis_connections: int = 64  # this worker's connections to Redis, at most


class Keys:
    """The Redis keys of one site."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.lease_prefix = f"{prefix}:lease:"
        self.workers = f"{prefix}:workers"

    def lease(self, code: str) -> str:
        return self.lease_prefix + code

    def owned(self, worker: str) -> str:
        return f"{self.prefix}:owned:{worker}"

    def worker(self, worker: str) -> str:
        return f"{self.prefix}:worker:{worker}"

    def channel(self, worker: str) -> str:
        return f"{self.prefix}:ch:{worker}"

    def open_list(self, worker: str) -> str:
        return f"{self.prefix}:open:{worker}"

    def bucket(self, kind: str, who: str) -> str:
        return f"{self.prefix}:bucket:{kind}:{who}"


def shown_redis(redis_url: str) -> str:
    """A Redis URL as a message shows it: its password, if it has one, as ***."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(redis_url)
        if parts.password is None:
            return redis_url
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    except ValueError:
        return redis_url


def redis_problem(redis_url: str) -> str | None:
    """Why Redis at ``redis_url`` cannot be used (it does not answer, refuses the password, has no such
    database…), in the client's words; None when it answers."""
    import redis as sync_redis

    try:
        client = sync_redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
    except ValueError as e:  # a URL redis-py cannot read (a port or database that is not a number…)
        return str(e)
    try:
        client.ping()
    except (sync_redis.RedisError, OSError, ValueError) as e:
        return str(e) or type(e).__name__
    finally:
        client.close()
    return None


def release_worker_sync(redis_url: str, prefix: str, worker: str) -> None:
    """Free a gone worker's leases now (its supervisor saw it exit), instead of when they expire."""
    import redis as sync_redis

    keys = Keys(prefix)
    client = sync_redis.Redis.from_url(redis_url, socket_timeout=2)
    try:
        client.eval(RELEASE_WORKER, 4, keys.owned(worker), keys.worker(worker), keys.workers,
                    keys.open_list(worker), worker, keys.lease_prefix)
    finally:
        client.close()


@contextlib.contextmanager
def migration_lock(settings: ClusterSettings) -> Iterator[None]:
    """Held while one worker migrates the site's database (the others start at the same time)."""
    import redis as sync_redis

    client = sync_redis.Redis.from_url(settings.redis_url, socket_timeout=5)
    try:
        with client.lock(f"{settings.prefix}:migrate", timeout=300, blocking_timeout=300):
            yield
    finally:
        client.close()


@dataclass(eq=False)
class _Relay:
    """A socket this process holds for a table another worker owns."""

    owner: str
    inbox: asyncio.Queue[tuple[str, str]] = field(default_factory=asyncio.Queue)


@dataclass(eq=False)
class _Remote:
    """A connection of a table this worker owns, whose socket another process (the front) holds."""

    conn: Connection
    front: str
    pump: asyncio.Task[None] | None = None


class Cluster:
    """One worker's part in the site: its leases, its channel, and the relays it runs both ways."""

    def __init__(self, service: TableService, settings: ClusterSettings) -> None:
        self.service = service
        self.settings = settings
        self.me = settings.worker_id
        self.keys = Keys(settings.prefix)
        # a bounded pool that waits for a free connection: a burst of relayed frames and routes queues up instead
        # of failing (redis-py's default pool refuses past its limit)
        pool = aioredis.BlockingConnectionPool.from_url(settings.redis_url, decode_responses=True,
                                                        max_connections=settings.redis_connections, timeout=10)
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.owned: dict[str, float] = {}  # code -> when the lease was taken (monotonic)
        self.relays: dict[str, _Relay] = {}  # relayed sockets this process holds, by id
        self.remotes: dict[str, _Remote] = {}  # connections of our tables held by other processes, by id
        self.replies: dict[str, asyncio.Future[JSON]] = {}
        self.app: ASGIApp | None = None  # the app a relayed REST request runs in (set by the app)
        self.draining = False
        self.started = False
        # set by close(): the background loops end at their next turn even when a library they await has
        # swallowed the cancellation meant for them (redis-py can), so a stopping worker never hangs on them
        self._closing = False
        self._tasks: list[asyncio.Task[None]] = []
        self._spawned: set[asyncio.Task[Any]] = set()
        self._pubsub: Any = None
        self._acquire = self.redis.register_script(ACQUIRE)
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._release_worker = self.redis.register_script(RELEASE_WORKER)
        self._take = self.redis.register_script(TAKE)
        import redis as sync_redis

        # a new room's code is claimed from inside the (synchronous) room creation: one round trip on loopback
        self._sync = sync_redis.Redis.from_url(settings.redis_url, decode_responses=True, socket_timeout=2)
        self._sync_acquire = self._sync.register_script(ACQUIRE)
        service.claim = self.claim

    def claim(self, code: str) -> bool:
        """Take the lease of a new room's code before the room exists anywhere (TableService.create_room)."""
        if self.draining:
            raise _unavailable()
        got = self._sync_acquire(keys=[self.keys.lease(code), self.keys.owned(self.me)],
                                 args=[self.me, self._ttl_ms(), code])
        if got:
            self.owned.setdefault(code, time.monotonic())
        return bool(got)

    # --- life ------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Register, listen on this worker's channel, and run the renewal and the orphan scan."""
        await self.redis.sadd(self.keys.workers, self.me)
        await self.redis.set(self.keys.worker(self.me), str(os.getpid()), px=self._ttl_ms())
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.keys.channel(self.me))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._renew_forever()),
                       loop.create_task(self._scan_forever())]
        self.started = True
        log.info("worker %s joined the site", self.me)

    def begin_drain(self) -> None:
        """This worker is stopping: it takes no more tables and turns away sockets relayed to it."""
        self.draining = True

    async def close(self) -> None:
        """Hand every table over: stop its bots and timers, let its queued writes commit, close its sockets
        with 1012, free its leases, leave the site."""
        self.draining = True
        self.service.freeze()
        await asyncio.to_thread(self.service.store.writer.flush)
        for room_conns in list(self.service.conns.values()):
            for c in list(room_conns):
                _end(c, SERVICE_RESTART)
        for cid, remote in list(self.remotes.items()):
            with contextlib.suppress(Exception):
                await self._send(remote.front, "close", cid, str(SERVICE_RESTART))
        await self._stop_tasks()
        with contextlib.suppress(Exception):
            await self._release_worker(keys=[self.keys.owned(self.me), self.keys.worker(self.me), self.keys.workers,
                                             self.keys.open_list(self.me)], args=[self.me, self.keys.lease_prefix])
        self.owned.clear()
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self.redis.aclose(close_connection_pool=True)  # a pool passed in is not closed by default
        self._sync.close()
        log.info("worker %s left the site", self.me)

    async def _stop_tasks(self) -> None:
        """End the background loops: cancel them, and cancel again any that swallowed it and is still
        running after a renewal's time; one that will not end is left behind, with a warning, rather
        than holding the worker's shutdown (and its tables' hand-over) up."""
        self._closing = True
        pending = {t for t in self._tasks if not t.done()}
        for _attempt in range(3):
            if not pending:
                break
            for t in pending:
                t.cancel()
            _done, pending = await asyncio.wait(pending, timeout=2 * self.settings.renew_s + 0.5)
        for t in self._tasks:
            if t.done() and not t.cancelled() and t.exception() is not None:  # retrieved: asyncio stays quiet
                log.debug("a background task of worker %s ended with %r", self.me, t.exception())
        if pending:
            log.warning("worker %s leaves %d background tasks running as it stops", self.me, len(pending))

    async def ready(self) -> bool:
        """Whether Redis answers and this worker has joined the site (the readiness check)."""
        if not self.started or self.draining:
            return False
        try:
            return bool(await self.redis.ping())
        except Exception:
            return False

    def _ttl_ms(self) -> int:
        return int(self.settings.lease_ttl_s * 1000)

    # --- leases -----------------------------------------------------------------------------------
    async def acquire(self, code: str) -> bool:
        if self.draining:
            return False
        got = await self._acquire(keys=[self.keys.lease(code), self.keys.owned(self.me)],
                                  args=[self.me, self._ttl_ms(), code])
        if got:
            self.owned.setdefault(code, time.monotonic())
        return bool(got)

    async def owner(self, code: str) -> str | None:
        value = await self.redis.get(self.keys.lease(code))
        return str(value) if value is not None else None

    async def alive(self, worker: str) -> bool:
        return bool(await self.redis.exists(self.keys.worker(worker)))

    async def route(self, code: str) -> str | None:
        """Who answers for room ``code``: None for this worker (taking the lease if it is free), else the
        owner's id. A request for a table whose owner is gone but whose lease has not yet expired waits
        for the lease (up to ClusterSettings.route_wait_s), then takes it."""
        code = code.upper()
        deadline = time.monotonic() + self.settings.route_wait_s
        while True:
            if code in self.owned:
                return None
            holder = await self.owner(code)
            if holder == self.me:
                self.owned.setdefault(code, time.monotonic())
                return None
            if holder is None:
                if await self.acquire(code):
                    return None
                continue
            if await self.alive(holder):
                return holder
            if time.monotonic() >= deadline:
                raise _unavailable()
            await asyncio.sleep(self.settings.renew_s / 2)

    async def _renew_forever(self) -> None:
        while not self._closing:
            try:
                await self._renew_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the leases failed")
            await asyncio.sleep(self.settings.renew_s)

    async def _renew_once(self) -> None:
        lost = await self._renew(keys=[self.keys.owned(self.me), self.keys.worker(self.me)],
                                 args=[self.me, self._ttl_ms(), self.keys.lease_prefix, os.getpid()])
        for code in lost:
            log.warning("the lease of table %s went to another worker: it leaves this one", code)
            self.owned.pop(code, None)
            self._drop(code)
        # a lease whose room left memory (over, paused, closed, or never found), once its writes are in
        now, rooms, gates = time.monotonic(), self.service.rooms, self.service.gates
        for code, since in list(self.owned.items()):
            gate = gates.get(code)
            if code not in rooms and now - since > 2 * self.settings.renew_s and (gate is None or gate.pending() is None):
                self.owned.pop(code, None)
                await self._release(keys=[self.keys.lease(code), self.keys.owned(self.me)], args=[self.me, code])
        await self._publish_open_rooms()
        await self._check_fronts()

    def _drop(self, code: str) -> None:
        """A table this worker no longer owns leaves it, changing nothing stored: its sockets close with 1012."""
        room = self.service.rooms.get(code)
        for c in list(self.service.conns.get(code, ())):
            _end(c, SERVICE_RESTART)
        if room is not None:
            self.service.forget(room)

    async def _scan_forever(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.settings.scan_s * (0.75 + 0.5 * secrets.randbelow(1000) / 1000))
            try:
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the scan for tables without an owner failed")

    async def scan(self) -> int:
        """Take and rebuild the live tables (lobby or playing) that no worker owns: those of a dead worker
        once its leases expired. Answers how many this worker took."""
        if self.draining:
            return 0
        codes = await asyncio.to_thread(self.service.store.live_codes)
        if not codes:
            return 0
        holders = await self.redis.mget([self.keys.lease(c) for c in codes])
        taken = 0
        for code, holder in zip(codes, holders, strict=True):
            if holder is not None or code in self.service.rooms:
                continue
            if not await self.acquire(code):
                continue
            stored = await asyncio.to_thread(self.service.store.room_row, code)
            if stored is None or code in self.service.rooms:
                continue
            try:
                self.service.adopt(stored)
            except Exception:
                log.exception("table %s could not be rebuilt from its log", code)
                continue
            taken += 1
            log.info("took over table %s", code)
        return taken

    # --- shared limits -----------------------------------------------------------------------------
    async def allow(self, kind: str, who: str, rate: float, burst: float) -> bool:
        """One token from the site-wide bucket ``kind`` of ``who`` (a client address): False when spent."""
        ttl = int(max(1.0, burst / rate if rate > 0 else 60.0) * 1000) + 1000
        return bool(await self._take(keys=[self.keys.bucket(kind, who)], args=[rate, burst, ttl]))

    # --- the open-room list: each worker publishes its own, any worker answers the whole -------------
    async def _publish_open_rooms(self) -> None:
        from .lobby_list import open_rooms

        entries = open_rooms(self.service.rooms, self.service.clock())
        await self.redis.set(self.keys.open_list(self.me), json.dumps(entries, ensure_ascii=False),
                             px=self._ttl_ms() * 2)

    async def open_rooms(self, limit: int) -> list[JSON]:
        """Every worker's open rooms (each list at most a renewal old; this worker's as it is now)."""
        from .lobby_list import open_rooms

        workers = [str(w) for w in await self.redis.smembers(self.keys.workers) if w != self.me]
        found = open_rooms(self.service.rooms, self.service.clock())
        if workers:
            for text in await self.redis.mget([self.keys.open_list(w) for w in workers]):
                if text:
                    found.extend(json.loads(text))
        found.sort(key=lambda e: (e.get("age_s", 0), e.get("code", "")))
        return found[:limit]

    # --- the channel ---------------------------------------------------------------------------------
    async def _send(self, worker: str, kind: str, cid: str, payload: str = "") -> int:
        return int(await self.redis.publish(self.keys.channel(worker), f"{kind}\t{cid}\t{payload}"))

    async def _listen(self) -> None:
        assert self._pubsub is not None
        async for message in self._pubsub.listen():
            if self._closing:
                return
            data = message.get("data")
            if message.get("type") != "message" or not isinstance(data, str):
                continue
            kind, cid, payload = [*data.split("\t", 2), "", ""][:3]
            try:
                self._dispatch(kind, cid, payload)
            except Exception:
                log.exception("a relayed %s message failed", kind)

    def _dispatch(self, kind: str, cid: str, payload: str) -> None:
        if kind in ("frame", "close", "moved"):  # to a socket this process holds
            relay = self.relays.get(cid)
            if relay is not None:
                relay.inbox.put_nowait((kind, payload))
        elif kind == "reply":
            fut = self.replies.pop(cid, None)
            if fut is not None and not fut.done():
                fut.set_result(json.loads(payload))
        elif kind == "open":
            self._open_remote(cid, json.loads(payload))
        elif kind == "msg":
            remote = self.remotes.get(cid)
            if remote is not None:
                self.service.frame_in(remote.conn, payload if payload != "\x00" else None)
        elif kind == "bye":
            remote = self.remotes.pop(cid, None)
            if remote is not None:
                self.service.disconnect(remote.conn)
        elif kind == "http":
            req = json.loads(payload)
            if self.draining:  # its tables are being handed over: a change made now could be lost
                body = json.dumps(_unavailable().body(), ensure_ascii=False).encode("utf-8")
                answer = {"status": 503, "headers": [["content-type", "application/json"]],
                          "body": base64.b64encode(body).decode("ascii")}
                self._spawn(self._send(str(req["from"]), "reply", cid, json.dumps(answer)))
            else:
                self._spawn(self._run_http(cid, req))

    def _spawn(self, work: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(work)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    # --- sockets: the owner's side -------------------------------------------------------------------
    def _open_remote(self, cid: str, req: JSON) -> None:
        front, code = str(req["from"]), str(req["code"]).upper()
        if self.draining or code not in self.owned:
            self._spawn(self._send(front, "moved", cid))
            return
        try:
            conn = self.service.connect(code, req.get("token"), req.get("client"))
        except ServiceError as e:
            self._spawn(self._refuse(front, cid, e))
            return
        remote = self.remotes[cid] = _Remote(conn, front)
        remote.pump = asyncio.get_running_loop().create_task(self._pump(cid, remote))

    async def _refuse(self, front: str, cid: str, e: ServiceError) -> None:
        await self._send(front, "frame", cid, json.dumps(e.frame(), ensure_ascii=False))
        await self._send(front, "close", cid, str({403: 4403, 410: 4410}.get(e.status, 4404)))

    async def _pump(self, cid: str, remote: _Remote) -> None:
        """The connection's frames, in order, to the process holding its socket."""
        conn = remote.conn
        try:
            while True:
                text = await conn.queue.get()
                if text is None:
                    await self._send(remote.front, "close", cid, str(conn.close_code or 1000))
                    return
                await self._send(remote.front, "frame", cid, text)
        finally:
            if self.remotes.get(cid) is remote:
                del self.remotes[cid]
                self.service.disconnect(conn)

    async def _check_fronts(self) -> None:
        """Connections whose socket was held by a process that died are disconnected."""
        fronts = sorted({r.front for r in self.remotes.values()})
        if not fronts:
            return
        alive = await self.redis.mget([self.keys.worker(f) for f in fronts])
        dead = {f for f, a in zip(fronts, alive, strict=True) if a is None}
        for cid, remote in list(self.remotes.items()):
            if remote.front in dead:
                self.remotes.pop(cid, None)
                if remote.pump is not None:
                    remote.pump.cancel()
                self.service.disconnect(remote.conn)

    # --- sockets: the front's side -------------------------------------------------------------------
    async def relay_socket(self, websocket: WebSocket, owner: str, code: str, token: str | None,
                           client: str | None) -> bool:
        """Carry ``websocket`` to the table's owner until either side ends it. False when the owner turned
        it away before it opened (it moved or died): the caller routes again."""
        cid = secrets.token_hex(8)
        relay = self.relays[cid] = _Relay(owner)
        try:
            hello = json.dumps({"from": self.me, "code": code, "token": token, "client": client})
            if await self._send(owner, "open", cid, hello) == 0:
                return False  # nobody listens on the owner's channel: it is gone
            try:
                kind, payload = await asyncio.wait_for(relay.inbox.get(), self.settings.relay_timeout_s)
            except TimeoutError:
                # a late opening must not leave the owner a connection nobody holds (its seat would show as
                # connected, and no 托管 would take over)
                with contextlib.suppress(Exception):
                    await self._send(owner, "bye", cid)
                return False
            if kind == "moved":
                return False
            await self._carry(websocket, cid, relay, code, (kind, payload))
            return True
        finally:
            self.relays.pop(cid, None)

    async def _carry(self, websocket: WebSocket, cid: str, relay: _Relay, code: str, first: tuple[str, str]) -> None:
        owner = relay.owner

        async def to_client() -> None:
            kind, payload = first
            while True:
                if kind == "frame":
                    await websocket.send_text(payload)
                elif kind == "close":
                    with contextlib.suppress(Exception):
                        await websocket.close(code=int(payload or 1000))
                    return
                elif kind == "moved":
                    with contextlib.suppress(Exception):
                        await websocket.close(code=SERVICE_RESTART)
                    return
                kind, payload = await relay.inbox.get()

        async def to_owner() -> None:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                raw = message.get("text")
                await self._send(owner, "msg", cid, raw if raw is not None else "\x00")

        async def watch() -> None:
            """The owner still holds the table: else the socket closes with 1012 and the page reconnects."""
            while True:
                await asyncio.sleep(self.settings.renew_s)
                if await self.owner(code) != owner or not await self.alive(owner):
                    relay.inbox.put_nowait(("moved", ""))
                    return

        tasks = [asyncio.ensure_future(t()) for t in (to_client, to_owner, watch)]
        try:
            await asyncio.wait(tasks[:2], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await t
            with contextlib.suppress(Exception):
                await self._send(owner, "bye", cid)

    # --- REST: relayed to the owner, run by its app ---------------------------------------------------
    async def relay_http(self, owner: str, scope: Scope, body: bytes) -> JSON | None:
        """Run a request on the owner's app; None when nobody listens on the owner's channel (it is gone:
        route again). An owner that listens but does not answer in time is answered 503."""
        rid = secrets.token_hex(8)
        fut: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self.replies[rid] = fut
        req = {"from": self.me, "method": scope["method"], "path": scope["path"],
               "query": scope.get("query_string", b"").decode("latin-1"),
               "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope.get("headers", ())
                           if k != b"x-forwarded-for"],
               "client": (scope.get("client") or ("", 0))[0], "body": base64.b64encode(body).decode("ascii")}
        try:
            if await self._send(owner, "http", rid, json.dumps(req)) == 0:
                return None
            try:
                return await asyncio.wait_for(fut, self.settings.relay_timeout_s)
            except TimeoutError:
                raise _unavailable() from None  # not sent again: the owner may have run it
        finally:
            self.replies.pop(rid, None)

    async def _run_http(self, rid: str, req: JSON) -> None:
        assert self.app is not None
        body = base64.b64decode(req["body"])
        scope: MutableMapping[str, Any] = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": req["method"],
            "scheme": "http", "path": req["path"], "raw_path": req["path"].encode("utf-8"),
            "query_string": req["query"].encode("latin-1"), "root_path": "",
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in req["headers"]],
            "client": (req["client"], 0), "server": ("relay", 0), "state": {}, RELAYED: True}
        answer: JSON = {"status": 500, "headers": [], "body": ""}
        chunks: list[bytes] = []
        sent = False

        async def receive() -> JSON:
            nonlocal sent
            if sent:
                await asyncio.Event().wait()  # a request is read once; the app never waits here for more
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", ())]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        try:
            await self.app(scope, receive, send)
        except Exception:
            log.exception("a relayed request failed")
        answer["body"] = base64.b64encode(b"".join(chunks)).decode("ascii")
        await self._send(str(req["from"]), "reply", rid, json.dumps(answer))


def relayed(scope: Scope | MutableMapping[str, Any]) -> bool:
    """Whether a request came from another worker of the site (it is answered here, never relayed on)."""
    return bool(scope.get(RELAYED))


def _end(conn: Connection, code: int) -> None:
    conn.close_code = code
    conn.queue.put_nowait(None)


def _unavailable() -> ServiceError:
    return ServiceError("the table's server is being replaced; try again in a moment", 503, "unavailable",
                        words=say(MOVING))


class RoutingMiddleware:
    """Relays the REST requests of a room that another worker owns to that worker (ASGI middleware)."""

    def __init__(self, app: ASGIApp, cluster: Callable[[], Cluster | None]) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster = self.cluster()
        if cluster is None or scope["type"] != "http" or scope.get(RELAYED):
            await self.app(scope, receive, send)
            return
        m = ROOM_PATH.match(scope["path"])
        if m is None or m.group(1).upper() in NOT_ROOM_CODES:
            await self.app(scope, receive, send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        replay_done = False

        async def replay() -> Any:
            nonlocal replay_done
            if replay_done:
                return await receive()
            replay_done = True
            return {"type": "http.request", "body": body, "more_body": False}

        deadline = time.monotonic() + cluster.settings.route_wait_s
        try:
            while True:
                owner = await cluster.route(m.group(1))
                if owner is None:
                    await self.app(scope, replay, send)
                    return
                answer = await cluster.relay_http(owner, scope, body)
                if answer is not None:
                    break
                if time.monotonic() >= deadline:
                    raise _unavailable()
                await asyncio.sleep(cluster.settings.renew_s / 2)
        except ServiceError as e:
            answer = {"status": e.status, "headers": [["content-type", "application/json"]],
                      "body": base64.b64encode(json.dumps(e.body(), ensure_ascii=False).encode("utf-8")).decode("ascii")}
        await send({"type": "http.response.start", "status": answer["status"],
                    "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]]})
        await send({"type": "http.response.body", "body": base64.b64decode(answer["body"])})
