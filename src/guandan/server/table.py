"""The table service: the one authoritative place where rooms change.

Every action — a human's frame, a bot's choice, a 托管 takeover — goes through :meth:`TableService.act`:
validate against the engine, apply, log (committed), then broadcast. Frames to a seat are built only
from ``match.observation(seat)``; spectators get the public projection. Bots and turn timers are
asyncio tasks, one per room, rescheduled after every change.

The event loop never waits: every write of a room (an action, a seat, a pause) is queued to the store's
writer thread and the room's frames leave once it is committed (:class:`Gate`, :meth:`Connection.send`),
so what a client has seen survives a crash; an HTTP answer awaits the same commit
(:meth:`TableService.committed`), so nothing a client was told is lost either. Hints, thinking bots,
``readings`` and the legal lists of 火拼 views run in the worker processes (server/workers.py), each hint
and readings request charged to the connection, the seat and the client address (a spent budget is
answered with an error frame, and nobody else waits). A result that arrives after its table moved on is dropped.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..agents import hints as hinting
from ..agents import make_agent
from ..agents.arrange import arrange_hand
from ..agents.base import Agent
from ..agents.fallback import fallback_action
from ..core import record
from ..core.deal import Action
from ..core.errors import GuandanError, RuleSetError, shown
from ..core.events import DealOver, DealSettled, Passed, Played
from ..core.match import MatchState
from ..core.vocab import RANKS, Phase
from ..i18n import N_
from ..present import Presenter
from . import talk, workers
from .events_text import HELD, SEATS_BOUND
from .protocol import (
    Arrange,
    Auto,
    ClientFrame,
    Continue,
    Hint,
    Ping,
    ProtocolError,
    Readings,
    Resume,
    SeatNo,
    Talk,
    Words,
    error_frame,
    parse_message,
    say,
)
from .rated import rated_result, record_rated_match
from .rooms import (
    Interval,
    Room,
    RoomConfig,
    Seat,
    bot_tiers,
    default_bot_tier,
    hash_token,
    new_code,
    new_token,
    seat_names,
    secret_seed,
)
from .store import Store, StoredRoom, new_replay_id
from .wire import (
    Texts,
    action_json,
    cards_json,
    event_json,
    parse_action,
    public_view,
    seat_view,
    selection_of,
    selection_verdict,
    texts_for,
)
from .workers import Busy, Priority, WorkerPool, default_workers

log = logging.getLogger("guandan.server")
CLOSE_GRACE_S = 5.0  # how long a cancelled room task may take to stop at shutdown
FAST_TIERS = frozenset({"random", "greedy"})  # decide in microseconds: on the event loop (but not under 火拼 rules)
JSON = dict[str, Any]
# work units charged to the budgets (Settings.work_rate …): a hint under 火拼 rules lists tens of thousands of
# plays (about half a second of a worker), elsewhere a few hundred (milliseconds); readings classify one selection
HEAVY_HINT_COST, HINT_COST, READINGS_COST = 5.0, 1.0, 1.0
# a catch-up (resume) is built on the loop: charged by the updates it carries (a whole match's log, 600 and more
# updates, about 6 units), so a page reconnecting now and then never notices and a flood of them is refused
RESUME_UPDATES_PER_UNIT, RESUME_MIN_COST = 100, 0.1
BACKLOG_MAX = 64  # a connection's frames that may wait behind its hint or readings request
LEGAL_LATER = "legal_later"  # in a seat view: the legal fields a worker is listing (Connection.send waits for them)
_NO_LEGAL: JSON = {"legal": [], "legal_complete": False, "can_play": True}  # if that work was abandoned
# what a refused CPU-heavy request is told, in the page's languages (web catalogue)
REFUSALS = {
    "connection": N_("Too many hints and readings from this connection: wait a moment."),
    "seat": N_("Too many hints and readings for this seat: wait a moment."),
    "address": N_("Too many hints and readings from this address: wait a moment."),
    "hint_in_flight": N_("A hint for your seat is still being worked out."),
    "busy": N_("The server is busy: try again in a moment."),
    "resume": N_("This page asked to catch up with the table too often: wait a moment."),
}
# an action the engine refuses (GuandanError), with its reason in the catalogue's words (the core's msgid and
# parameters, said by guandan.present): the page offers only legal ones, so a person meets this from a frame
# of their own making or a page that lost track of the table. Only the seat that acted is told, and the
# parameters are what it sent, its own hand, or public facts (the play on the table, whose turn it is)
ENGINE_REFUSAL = N_("This move is not allowed: {reason}.")
READINGS_REFUSAL = N_("No plays can be listed for these cards: {reason}.")  # the same for a readings request
RULES_REFUSAL = N_("These rule settings are not valid, so the room was not created: {reason}.")
NOT_PLAYING = N_("No match is being played in this room.")
NO_SEAT = N_("Your seat token holds no seat in this room.")
ROOM_CLOSED = N_("This room closed after a long time without activity")
MOVING = N_("The table is moving to another server: try again in a moment.")
RATED_REFUSAL = N_("A rated room plays its preset's own rules with a secret seed, and needs at least one seat for a player.")
RATED_NEEDS_ACCOUNT = N_("The seats of a rated room are for logged-in accounts: log in first.")
ALREADY_SEATED = N_("Your account holds a seat of this room already.")
# an account's seat taken back on another device (TableService.reclaim): the refusal to any other account, and what
# the page of the device that held it is told as its socket closes
NOT_YOUR_SEAT = N_("Your account holds no seat in this room.")
SEAT_MOVED = N_("Your seat was taken on another device logged in to your account: this page now watches the table.")
# a match of four bots to watch (TableService.watch)
WATCH_HOST_ONLY = N_("Only the creator of the room may start a match of four bots.")
WATCH_NOT_ALL_BOTS = N_("Seat {seat} is not a bot: a match to watch needs a bot in every seat.")
# --max-watched-tables 0 or --max-watched-per-address 0: the server offers none (the start page hides its button)
WATCH_OFF = N_("This server does not run bot matches to watch.")
WATCH_FULL = N_("The server is running as many bot matches as it may at once ({n}): try again later.")
WATCH_PER_ADDRESS = N_("Your address already has {n} bot matches running, as many as it may: close one (a match "
                       "stops once nobody has watched it for {s} s) and try again.")
# the same for an address that may have one (--max-watched-per-address 1): "1 bot matches" is no English
WATCH_PER_ADDRESS_ONE = N_("Your address already has a bot match running, as many as it may: close it (a match stops "
                           "once nobody has watched it for {s} s) and try again.")


class ServiceError(Exception):
    """A refused request: ``status`` is the HTTP status a REST caller gets, ``code`` the machine-readable
    reason, the message says why in English (``detail``, ``message``) and ``words`` for people (``text``)."""

    def __init__(self, message: str, status: int = 400, code: str = "bad_request", *, words: Words) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.words = words

    def body(self) -> JSON:
        """The REST answer."""
        return {"error": self.code, "detail": str(self), "text": self.words.texts()}

    def frame(self) -> JSON:
        """The WebSocket answer."""
        return error_frame(self.code, str(self), self.words)


def _not_all_bots(seat: int) -> ServiceError:
    """The refusal to start a match to watch while ``seat`` (0-based) is not a bot."""
    return ServiceError(f"seat {seat} is not a bot: a match to watch needs a bot in every seat", 409,
                        "not_all_bots", words=say(WATCH_NOT_ALL_BOTS, seat=SeatNo(seat)))


@dataclass
class Settings:
    bot_delay_ms: int | None = None  # overrides every room's bot delay (tests and benchmarks use 0)
    seed_source: Callable[[], str] = secret_seed  # a match's secret seed (tests pass a deterministic one)
    disconnect_grace_s: float = 10.0  # a disconnected player's turn is taken over (托管) after this
    msg_rate: float = 30.0  # frames per second per connection (token bucket)
    msg_burst: float = 60.0
    join_rate_per_min: float = 60.0  # creates and joins per client address
    join_burst: float = 30.0
    # --- who the client is (server/clientaddr.py) ---
    forwarded_allow_ips: tuple[str, ...] = ()  # proxies whose X-Forwarded-For is believed: none by default
    # socket peers (addresses or networks) that may read /metrics (server/metrics.py); never X-Forwarded-For
    metrics_allow: tuple[str, ...] = ("127.0.0.1", "::1")
    # --- lifecycle and caps (TableService.sweep) ---
    max_rooms: int = 1000  # rooms in memory in the lobby or playing (paused tables leave memory)
    max_rooms_per_address: int = 20  # of those, created from one client address
    lobby_idle_s: float = 1800.0  # a lobby with no change (join, leave, bot, ready, a page opened) closes
    unattended_pause_s: float = 120.0  # a table with no human connected pauses (no 托管 plays it out)
    # --- matches of four bots to watch (观战: TableService.watch) ---
    max_watched_tables: int = 20  # tables of four bots playing at once, in all (paused ones do not count)
    max_watched_per_address: int = 2  # of those, kept going for one client address
    watch_min_bot_delay_ms: int = 500  # the least pause before a bot of such a table acts, whatever else asks less
    finished_linger_s: float = 60.0  # a finished match stays in memory this long for its players' pages
    sweep_interval_s: float = 5.0  # how often idle lobbies, unattended tables and idle buckets are looked at
    # a full garbage collection at most this often (0: never), from the sweep: `guandan serve` raises the
    # collector's thresholds to keep its pauses out of the broadcast tail, and the reference cycles of
    # finished matches would otherwise pile up (a million objects after twelve minutes of 100 tables)
    gc_interval_s: float = 60.0
    # --- CPU-heavy work: hints, thinking bots, readings, 火拼 legal lists (server/workers.py) ---
    workers: int = field(default_factory=default_workers)  # worker processes (0: one thread, for tests)
    work_rate: float = 10.0  # work units a second per connection and per seat (a hint 1, under 火拼 5; readings 1)
    work_burst: float = 30.0
    address_work_rate: float = 40.0  # the same per client address (several players may share one)
    address_work_burst: float = 120.0
    # --- reviews (复盘) of replays (server/reviews.py), in the workers after everything else ---
    review_budget: float = 1.0  # the review engine's effort per decision (guandan review --budget)
    review_queue: int = 16  # reviews waiting (or running) in all; more are refused as busy
    review_per_address: int = 2  # of those, asked for from one client address
    # --- the table ---
    next_deal_s: float | None = None  # overrides every room's deal-end pause (tests and benchmarks use 0)
    talk_rate: float = 0.3  # quick phrases and emotes a second per seat (table talk)
    talk_burst: float = 3.0
    auto_rate: float = 0.5  # switches of 托管 a second per seat (each is a commit and a frame to every socket)
    auto_burst: float = 6.0

    @property
    def watching(self) -> bool:
        """Whether matches of four bots to watch are offered at all (a limit of 0 in either: none)."""
        return self.max_watched_tables > 0 and self.max_watched_per_address > 0


class Bucket:
    """A token bucket: ``allow()`` is False once the caller exceeds its rate."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.stamp = burst, clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def idle(self) -> bool:
        """Full again: forgetting this bucket changes nothing for its caller."""
        return self.tokens + (self.clock() - self.stamp) * self.rate >= self.burst

    def has(self, cost: float) -> bool:
        """Whether ``cost`` tokens are there (refilled up to now); :meth:`take` spends them."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= cost

    def take(self, cost: float) -> None:
        self.tokens -= cost


class Gate:
    """A room's writes not yet committed — the last one queued: the writer commits in order, so when it
    is done every earlier one is. The room's frames wait here (Connection.send)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: asyncio.Future[Any] | None = None

    def pending(self) -> asyncio.Future[Any] | None:
        last = self.last
        if last is not None and last.done():
            self.last = last = None
        return last


@dataclass(eq=False)
class Connection:
    """One WebSocket client: a seat's player or a spectator (seat None). Frames queue up here and a
    writer task sends them, so one slow client never holds a table up."""

    room: Room
    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    bucket: Bucket | None = None
    close_code: int | None = None  # set when the server ends the socket (4410: the room closed)
    client: str | None = None  # the client address (hints and readings are budgeted per address too)
    gate: Gate | None = None  # the room's uncommitted writes: frames leave once they are committed
    work: Bucket | None = None  # this connection's budget of CPU-heavy requests (hints, readings)
    # frames held back, each with what it waits for (None: the socket's end, after the frames before it)
    held: deque[tuple[JSON | None, tuple[asyncio.Future[Any], ...]]] = field(default_factory=deque)
    working: bool = False  # a hint or readings request of this connection is with the workers
    backlog: deque[ClientFrame] = field(default_factory=deque)  # its frames since: answered in order after it

    def send(self, frame: JSON) -> None:
        """Queue a frame for the socket. It is held, and every later frame behind it, while the room has
        writes not yet committed (whatever a client sees survives a crash) and while its view's legal
        actions are still being listed by a worker; frames keep their order."""
        waits: list[asyncio.Future[Any]] = []
        pending = self.gate.pending() if self.gate is not None else None
        if pending is not None:
            waits.append(pending)
        view = frame.get("view")
        later = view.get(LEGAL_LATER) if isinstance(view, dict) else None
        if later is not None and not later.done():
            waits.append(later)
        if not waits and not self.held:
            self.queue.put_nowait(_frame_text(frame))
            return
        self.held.append((frame, tuple(waits)))
        for w in waits:
            w.add_done_callback(self._release)

    def end(self, close_code: int) -> None:
        """Close the socket with ``close_code`` once the frames queued for it (those held too) are sent."""
        self.close_code = close_code
        if self.held:
            self.held.append((None, ()))
        else:
            self.queue.put_nowait(None)

    def _release(self, _done: object = None) -> None:
        while self.held and all(w.done() for w in self.held[0][1]):
            frame, _ = self.held.popleft()
            self.queue.put_nowait(None if frame is None else _frame_text(frame))


def _frame_text(frame: JSON) -> str:
    view = frame.get("view")
    if isinstance(view, dict) and LEGAL_LATER in view:
        later: asyncio.Future[JSON] = view[LEGAL_LATER]
        listed = later.result() if later.done() and not later.cancelled() and later.exception() is None else _NO_LEGAL
        frame = {**frame, "view": {**{k: v for k, v in view.items() if k != LEGAL_LATER}, **listed}}
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


class TableWatcher(Protocol):
    """Told of what happens at the tables (an online event's rooms, server/events_online.py)."""

    def acted(self, room: Room, events: list[Any]) -> None:
        """An action was applied (``events``: the engine's); the room's frames for it are queued."""

    def seated(self, room: Room, seat: int) -> None:
        """A player's connection for ``seat`` came in."""


class TableService:
    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.rooms: dict[str, Room] = {}
        self.conns: dict[str, list[Connection]] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.agents: dict[tuple[str, int], Agent] = {}
        self.join_buckets: dict[str, Bucket] = {}
        self.clock: Callable[[], float] = _monotonic
        self.sweeper: asyncio.Task[None] | None = None
        self.last_gc = self.clock()
        self.pool = WorkerPool(self.settings.workers)
        self.gates: dict[str, Gate] = {}
        self.jobs: set[asyncio.Task[Any]] = set()  # hints and readings being worked out
        self.work_buckets: dict[tuple[str, ...], Bucket] = {}  # per seat and per client address
        self.hinting: set[tuple[str, int]] = set()  # (room, seat) with a hint in flight
        self.legal_jobs: dict[int, tuple[MatchState, tuple[int, int], asyncio.Future[JSON]]] = {}
        self.watchers: list[TableWatcher] = []
        self.bound: set[str] = set()  # rooms whose seats the server gave to accounts (online events): fixed seats
        self.event_tables: dict[str, tuple[int, int, int]] = {}  # of those, each one's (event, round, table)
        # many workers (server/cluster.py): a new room's code is taken only once its lease is this worker's
        self.claim: Callable[[str], bool] = lambda _code: True
        self.frozen = False  # handing its tables over (shutting down): no bot, timer or frame changes a room
        # told of every applied action and of when act() took it up (server/metrics.py)
        self.action_hooks: list[Callable[[Room, Action, float], None]] = []

    # --- lobby ----------------------------------------------------------------------------
    def check_join_rate(self, client: str) -> None:
        b = self.join_buckets.get(client)
        if b is None:
            b = self.join_buckets[client] = Bucket(self.settings.join_rate_per_min / 60, self.settings.join_burst, self.clock)
        if not b.allow():
            self.refuse_join_rate()

    @staticmethod
    def refuse_join_rate() -> None:
        raise ServiceError("too many rooms created or joined from this address; wait a minute", 429, "rate_limited",
                           words=say(N_("Too many rooms created or joined from this address: wait a minute.")))

    def create_room(self, config: RoomConfig, client: str | None = None, *, watch: bool = False) -> tuple[Room, str]:
        """A new room in the lobby; ``watch``: a room of four bots that its creator starts at once as a match to
        watch (:meth:`watch`). Every refusal, the watch's caps included, comes before anything is made: a
        refused request leaves no room behind."""
        self._check_room_caps(client)
        try:
            rules = config.ruleset()
        except RuleSetError as e:  # the core's words name the setting and the values it may take
            raise ServiceError(f"rules: {e}", words=say(RULES_REFUSAL, reason=e)) from None
        except ValueError as e:
            raise ServiceError(str(e), words=say(N_("These rule settings are not valid: the room was not created."))) \
                from None
        refusal = config.seed_refusal()
        if refusal is not None:
            raise ServiceError(refusal, 400, "seed_not_practice", words=say(
                N_("A seed is only accepted for a practice room: every seat but yours must be a bot")))
        refusal = config.rated_refusal()
        if refusal is not None:
            raise ServiceError(refusal, 400, "not_ratable", words=say(RATED_REFUSAL))
        if watch:
            seat = next((i for i, tier in enumerate(config.bots) if tier is None), None)
            if seat is not None:
                raise _not_all_bots(seat)
            if (full := self._watch_refusal(client)) is not None:
                raise full
        code = new_code()
        # a code whose row is still queued is in memory or has a write pending (_writing), so the database
        # is read as it is, without waiting on the writer; in a site the lease comes first: another worker
        # holds it while that room's row may be queued there, and lets it go only once the row is in
        while code in self.rooms or self._writing(code) or not self.claim(code) or self.store.code_taken(code):
            code = new_code()
        host_token = new_token()
        seed = config.seed if config.seed is not None else self.settings.seed_source()
        room = Room(code=code, config=config, rules=rules, seed=seed, host_hash=hash_token(host_token))
        for i, tier in enumerate(config.bots):
            if tier is not None:
                room.seats[i] = Seat(kind="bot", name=f"{tier} bot", tier=tier)
        room.creator, room.touched = client, self.clock()
        self.rooms[code] = room
        self.save(room)  # an HTTP answer awaits its commit (committed)
        if watch:  # no await since the caps were read: nothing else started a table in between
            room.runs_for = client
            self._start(room)
        return room, host_token

    def _check_room_caps(self, client: str | None) -> None:
        live = [r for r in self.rooms.values() if r.status in ("lobby", "playing")]
        if len(live) >= self.settings.max_rooms:
            raise ServiceError(f"the server holds its limit of {self.settings.max_rooms} rooms; try again later",
                               503, "server_full",
                               words=say(N_("The server holds as many rooms as it can: try again later.")))
        mine = sum(1 for r in live if r.creator == client and not r.paused)
        if client is not None and mine >= self.settings.max_rooms_per_address:
            one = mine == 1  # the catalogue's own words for one room: a refusal's Words have no plural forms
            raise ServiceError(f"this address already has {mine} open {'room' if one else 'rooms'} (the limit is "
                               f"{self.settings.max_rooms_per_address}); finish or leave one first", 429, "too_many_rooms",
                               words=say(N_("This address has 1 open room, as many as it may have: finish or leave it "
                                            "first.") if one else
                                         N_("This address has {n} open rooms, as many as it may have: finish or leave "
                                            "one first."), n=mine))

    def room(self, code: str) -> Room:
        """The room with ``code``, from memory or from the database (_load). On the event loop :meth:`find`
        reads a room that left memory without waiting on other rooms' writes."""
        room = self.rooms.get(code.upper())
        if room is None:
            room = self._load(code.upper())
        if room is None:
            raise ServiceError(f"no room with code {shown(code)}", 404, "no_room",
                               words=say(N_("There is no room with the code {code}."), code=code.upper()))
        return room

    def join(self, code: str, seat: int, name: str, user_id: int | None = None, owner_id: int | None = None) -> str:
        """Seat a player; ``user_id``: the logged-in account taking the seat (required in a rated room);
        ``owner_id``: the logged-in account taking a seat of an unrated room, whose games list gets the match."""
        room = self.room(code)
        self._lobby_only(room)
        s = self._seat(room, seat)
        if s.kind != "empty":
            raise ServiceError(f"seat {seat} is taken", 409, "seat_taken", words=_seat_taken(seat))
        if room.config.rated and user_id is None:
            raise ServiceError("a rated room's seats are for logged-in accounts: log in first", 401, "rated_needs_account",
                               words=say(RATED_NEEDS_ACCOUNT))
        # one seat an account, rated or not: a second would be one player holding two hands, and "Take your seat
        # here" (reclaim) could give back either
        account = user_id if user_id is not None else owner_id
        if account is not None and any(x.credited() == account for x in room.seats):
            raise ServiceError("this account holds a seat of this room already", 409, "already_seated",
                               words=say(ALREADY_SEATED))
        token = new_token()
        # no name: the seat keeps none, and is named "Player N" in the reader's language (rooms.seat_names)
        room.seats[seat] = Seat(kind="human", name=name, token_hash=hash_token(token), user_id=user_id,
                                owner_id=owner_id if user_id is None else None)
        self._room_changed(room)
        return token

    def leave(self, code: str, token: str) -> None:
        room = self.room(code)
        self._lobby_only(room)
        self._unbound(room)
        seat = self._require_seat(room, token)
        room.seats[seat] = Seat()
        self.drop_seat_connections(room, seat)
        self._room_changed(room)

    def reclaim(self, code: str, user_id: int) -> tuple[str, int]:
        """The seat that the account ``user_id`` took (``Seat.credited``: its own seat of an unrated room, or its
        rated seat) for a new device: a fresh token, which alone holds the seat from now on. The sockets opened
        with the former token are told so and closed (4403; their page comes back as a spectator): the newest
        device plays; a deal-end pause no longer waits for the seat, as for a player whose connection dropped (the
        new device comes in as one who reconnected). An online event's table is refused (its seats are handed out by
        the event's page), and so is any room where this account holds no seat, or whose match is over."""
        room = self.room(code)
        if room.code in self.bound:
            raise ServiceError("this table's seats belong to an event's players: take yours from the event's page",
                               409, "seats_bound", words=say(SEATS_BOUND))
        seat = next((i for i, s in enumerate(room.seats) if s.kind == "human" and s.credited() == user_id), None)
        if seat is None:
            raise ServiceError("this account holds no seat in this room", 403, "not_your_seat", words=say(NOT_YOUR_SEAT))
        if room.status == "over":
            raise ServiceError("the match is over: its replay is on the account's games list", 409, "not_playing",
                               words=say(NOT_PLAYING))
        token = new_token()
        s = room.seats[seat]
        s.token_hash = hash_token(token)
        for c in self.conns.get(room.code, []):
            if c.seat == seat:
                c.seat = None  # its frames from now on are a spectator's, and it acts for nobody
                c.send(error_frame("seat_moved", "the seat was taken with a new token on another device", say(SEAT_MOVED)))
                c.end(4403)  # after that frame
        s.connections = 0  # those sockets no longer count for the seat (disconnect sees no seat on them)
        if room.status == "lobby":
            self._room_changed(room)
            return token, seat
        if not self._attended(room):
            room.unattended_since = self.clock()  # nobody at the table until the new device connects
        self.save(room)
        self._broadcast_room(room)
        if room.interval is not None and seat in room.interval.waiting:
            # the device that held the seat left: the deal-end pause no longer waits for it, as for a player whose
            # connection dropped (disconnect), and the new device comes in as one who reconnected
            self._continue(room, seat)
        self.schedule(room)  # the seat's turn runs on the grace for a player who is away, until they are back
        return token, seat

    def drop_seat_connections(self, room: Room, seat: int) -> None:
        """End the sockets opened with a seat's former token (4403: the page forgets the token and comes back
        as a spectator), so none of them sees or plays the hand of whoever sits there next."""
        for c in self.conns.get(room.code, []):
            if c.seat == seat:
                c.seat = None
                c.close_code = 4403
                c.queue.put_nowait(None)

    def set_bot(self, code: str, seat: int, tier: str | None, token: str) -> None:
        """Add a bot to an empty seat or remove one (tier None): host or a seated player only."""
        room = self.room(code)
        self._lobby_only(room)
        self._unbound(room)
        if not room.is_host(token) and room.seat_of(token) is None:
            raise ServiceError("only the host or a seated player may change bots", 403, "forbidden",
                               words=say(N_("Only the host or a seated player may add or remove bots.")))
        s = self._seat(room, seat)
        if tier is None:
            if s.kind != "bot":
                raise ServiceError(f"seat {seat} holds no bot", 409, "not_a_bot",
                                   words=say(N_("Seat {seat} holds no bot."), seat=SeatNo(seat)))
            if room.config.seed is not None and sum(x.kind != "bot" for x in room.seats) >= 1:
                raise ServiceError("a practice room with a chosen seed keeps its bots: every seat but one stays a bot",
                                   409, "practice_keeps_bots",
                                   words=say(N_("A practice room with a chosen seed keeps its bots")))
            room.seats[seat] = Seat()
        else:
            if tier not in bot_tiers():
                raise ServiceError(f"unknown bot tier {shown(tier)}; known: {', '.join(bot_tiers())}",
                                   words=say(N_("There is no bot strength called {tier}."), tier=tier))
            if s.kind != "empty":
                raise ServiceError(f"seat {seat} is taken", 409, "seat_taken", words=_seat_taken(seat))
            if room.config.rated and sum(x.kind != "bot" for x in room.seats) <= 1:
                raise ServiceError("a rated room keeps at least one seat for a player", 409, "not_ratable",
                                   words=say(RATED_REFUSAL))
            room.seats[seat] = Seat(kind="bot", name=f"{tier} bot", tier=tier)
        self.drop_seat_connections(room, seat)
        self._room_changed(room)

    def ready(self, code: str, token: str, ready: bool) -> None:
        room = self.room(code)
        self._lobby_only(room)
        self._unbound(room)  # a bound seat is ready once its player takes it: the match starts with the fourth
        seat = self._require_seat(room, token)
        room.seats[seat].ready = ready
        if room.can_start():
            self._start(room)
        else:
            self._room_changed(room)

    def watch(self, code: str, token: str, client: str | None = None) -> None:
        """Start a room whose four seats are bots as a match to watch (观战): its creator only (the host token),
        in the lobby. Anyone may open the table and watch; nobody acts, and every page gets the public view.

        What it may cost is bounded, so that no client slows another down:

        * **Attendance**: it plays on only while someone watches. With no page open on it for
          Settings.unattended_pause_s it pauses like any table nobody is at, and leaves memory; a spectator's
          page resumes it (a table of players is resumed only by a player).
        * **Caps**: at most Settings.max_watched_tables such tables play at once, and
          Settings.max_watched_per_address of them for one client address (the one that started it, or the
          spectator whose page resumed it); a paused one counts for nobody. A start beyond either is refused
          (503 ``watch_full``, 429 ``too_many_watched``, each naming its cap); a resume beyond either leaves
          the table paused until the sweep finds room for it.
        * **Tiers**: every tier the lobby offers may play, the search tier included: learners want to watch
          the strongest bots. A thinking bot's decision (the search tier's takes about a second of a worker)
          runs in the worker pool at Priority.WATCHED, after the work of every table with a player, readings
          and hints, and within the share that hints and reviews have (every worker but one), so a watched
          match never takes a worker from a table where people play and adds no queue they wait in: under
          load it only goes slower. The instant tiers decide on the event loop in microseconds.
        * **Pace**: every bot of such a table waits at least Settings.watch_min_bot_delay_ms before it acts
          (whatever the room or Settings.bot_delay_ms asks), so a person can follow the match and a table
          makes a few moves a second at most, each one frame to each spectator; between deals it pauses
          for the room's next_deal_s with every hand turned up, as a table of players does.

        The match ends as any other: its replay is saved, owned by the host token (no seat token played it)."""
        room = self.room(code)
        self._lobby_only(room)
        self._unbound(room)
        if not room.is_host(token):
            raise ServiceError("only the room's creator (its host token) may start a match of four bots", 403,
                               "forbidden", words=say(WATCH_HOST_ONLY))
        seat = next((i for i, s in enumerate(room.seats) if s.kind != "bot"), None)
        if seat is not None:
            raise _not_all_bots(seat)
        refusal = self._watch_refusal(client)
        if refusal is not None:
            raise refusal
        room.runs_for = client
        self._start(room)

    def _watch_refusal(self, client: str | None) -> ServiceError | None:
        """Why one more table of four bots may not play for ``client`` now (Settings.max_watched_tables,
        Settings.max_watched_per_address), or None."""
        st = self.settings
        if not st.watching:
            return ServiceError("this server runs no tables of four bots to watch (its limit is 0)", 403, "watch_off",
                                words=say(WATCH_OFF))
        playing = [r for r in self.rooms.values() if r.status == "playing" and not r.paused and r.all_bots()]
        if len(playing) >= st.max_watched_tables:
            return ServiceError(f"the server plays its limit of {st.max_watched_tables} tables of four bots at once; "
                                "try again later", 503, "watch_full", words=say(WATCH_FULL, n=st.max_watched_tables))
        mine = sum(1 for r in playing if r.runs_for == client)
        if client is not None and mine >= st.max_watched_per_address:
            return ServiceError(f"this address already has {mine} tables of four bots playing (the limit is "
                                f"{st.max_watched_per_address}); one stops once nobody has watched it for "
                                f"{st.unattended_pause_s:g} s", 429, "too_many_watched",
                                words=say(WATCH_PER_ADDRESS_ONE, s=f"{st.unattended_pause_s:g}") if mine == 1
                                else say(WATCH_PER_ADDRESS, n=mine, s=f"{st.unattended_pause_s:g}"))
        return None

    def _resume_watched(self, room: Room, clients: list[str | None]) -> bool:
        """A paused table of four bots that someone watches plays on, for the first of ``clients`` (the watching
        pages' addresses) within the caps; False, and it stays paused, when none is."""
        for client in clients:
            if self._watch_refusal(client) is None:
                room.paused, room.runs_for, room.unattended_since = False, client, None
                room.turn_started = self.clock()
                self.save(room)  # the frames from now on leave once it is committed
                return True
        return False

    def _unbound(self, room: Room) -> None:
        if room.code in self.bound:
            raise ServiceError("this table's seats belong to an event's players: they are not left, given to bots or un-readied",
                               409, "seats_bound", words=say(SEATS_BOUND))

    def _lobby_only(self, room: Room) -> None:
        if room.status != "lobby":
            raise ServiceError("the match has started: seats are fixed", 409, "started",
                               words=say(N_("The match has started: seats are fixed.")))

    def _seat(self, room: Room, seat: int) -> Seat:
        if seat not in range(4):
            raise ServiceError(f"seat must be 0…3, not {seat}",
                               words=say(N_("There is no seat {seat}: a table has seats 1 to 4."), seat=SeatNo(seat)))
        return room.seats[seat]

    def _require_seat(self, room: Room, token: str) -> int:
        seat = room.seat_of(token)
        if seat is None:
            raise ServiceError("this token holds no seat in this room", 403, "forbidden", words=say(NO_SEAT))
        return seat

    def _room_changed(self, room: Room) -> None:
        room.touched = self.clock()
        self.save(room)
        self._broadcast_room(room)

    def summary(self, room: Room, player: bool = False) -> JSON:
        """:meth:`Room.summary`, saying whether ``room`` is an online event's table, and which (only the service
        knows)."""
        return room.summary(player=player, event=room.code in self.bound, event_table=self.event_tables.get(room.code))

    def _broadcast_room(self, room: Room) -> None:
        frames = {p: {"type": "room", "room": self.summary(room, player=p)} for p in (False, True)}
        for c in self.conns.get(room.code, ()):
            c.send(frames[c.seat is not None])

    def _start(self, room: Room) -> None:
        room.start()
        room.seq, room.log = 0, []
        room.turn_started = self.clock()
        # readied over REST with nobody at the table: it pauses unless a player (a spectator, at a table of four
        # bots) connects in time
        room.unattended_since = None if self._attended(room) else self.clock()
        self.save(room)
        self._broadcast_room(room)
        for c in self.conns.get(room.code, ()):
            c.send(self.snapshot(c))
        self.schedule(room)

    # --- the table ------------------------------------------------------------------------
    def snapshot(self, conn: Connection) -> JSON:
        room = conn.room
        frame: JSON = {"type": "snapshot", "seq": room.seq, "room": self.summary(room, player=conn.seat is not None),
                       "view": None}
        if room.match is not None and room.match.deal is not None:
            frame["view"] = self._view(room.match, conn.seat, with_events=True, texts=self._texts(room))
            frame["clock"] = self._turn_clock(room)
            if room.interval is not None:
                frame["interval"] = self._interval_json(room, room.interval, full=True)
        return frame

    def _view(self, match: MatchState, seat: int | None, *, with_events: bool, texts: Texts | None = None) -> JSON:
        """A spectator's frame is built from the core's public view, a player's from its own observation.
        Under 火拼 rules the seat to move gets its observation without the legal actions, and a worker lists
        them: the view holds that job (LEGAL_LATER) and Connection.send waits for it."""
        if seat is None:
            return public_view(match.public_view(), with_events=with_events, texts=texts)
        deal = match.deal
        if seat == match.to_move and deal is not None and deal.phase == Phase.PLAY and workers.heavy_rules(match.rules):
            view = seat_view(workers.observation_without_legal(match, seat), with_events=with_events, texts=texts)
            view[LEGAL_LATER] = self._legal_later(match, seat)
            return view
        return seat_view(match.observation(seat), with_events=with_events, texts=texts)

    def _legal_later(self, match: MatchState, seat: int) -> asyncio.Future[JSON]:
        """The legal fields of the seat to move's view, listed by a worker: one job per position."""
        deal = match.deal
        assert deal is not None
        key = (match.deal_index, len(deal.events))  # every action adds an event: this names the position
        found = self.legal_jobs.get(id(match))
        if found is not None and found[0] is match and found[1] == key:
            return found[2]
        if len(self.legal_jobs) > 2 * len(self.rooms) + 64:
            live = {id(r.match) for r in self.rooms.values()}
            for k in [k for k in self.legal_jobs if k not in live]:
                del self.legal_jobs[k]
        pos = workers.position(match, seat)
        job = asyncio.get_running_loop().create_task(self._view_legal(pos))
        self.legal_jobs[id(match)] = (match, key, job)
        return job

    async def _view_legal(self, pos: workers.Position) -> JSON:
        try:
            return await self.pool.run(Priority.TABLE, workers.view_legal_job, pos)
        except Exception:  # a worker died: the view lists no plays and the client asks for readings
            log.exception("a worker failed to list the legal actions of a view")
            return workers.fallback_legal_fields(pos)

    @staticmethod
    def _texts(room: Room) -> Texts:
        """Seat names as the page shows them (rooms.seat_names), in the page's language, for what happens
        from the table's position now on (the deal in play tells the wildcards)."""
        deal = room.match.deal if room.match is not None else None
        return texts_for(lambda lang: seat_names(room.seats, lang), deal.level if deal is not None else None)

    def act(self, room: Room, action: Action) -> None:
        """Apply one action for its seat (validated by the engine), log it, broadcast it."""
        started = time.perf_counter()
        match = room.match
        if room.status != "playing" or match is None:
            raise ServiceError("no match is being played in this room", 409, "not_playing", words=say(NOT_PLAYING))
        texts = self._texts(room)  # before the action: its deal's level, should it start the next deal
        events = match.apply(action)  # IllegalActionError leaves everything unchanged
        room.seq += 1
        aj = action_json(action)
        entry = _log_entry(room.seq, aj, events, match, texts)
        room.log.append(entry)
        ended = match.ended
        if "reveal" in entry and not ended:
            self._begin_interval(room, entry)
        if ended:
            room.status = "over"
            room.replay_id = self._save_replay(room)
        self._commit(room, self.store.append_action, room, room.seq, aj, room_changed=ended)
        room.turn_started = self.clock()
        self._broadcast_update(room, entry)  # held until that commit is done (Connection.send)
        if ended:
            self._broadcast_room(room)
            room.touched = self.clock()  # it leaves memory Settings.finished_linger_s later (sweep)
            self._drop_agents(room.code)
        for w in self.watchers:
            w.acted(room, events)
        for hook in self.action_hooks:
            hook(room, action, started)
        self.schedule(room)

    def _broadcast_update(self, room: Room, entry: JSON) -> None:
        match = room.match
        assert match is not None
        views: dict[int | None, JSON] = {}
        clock = self._turn_clock(room)
        interval = self._interval_json(room, room.interval) if room.interval is not None else None
        for c in self.conns.get(room.code, ()):
            if c.seat not in views:
                views[c.seat] = self._view(match, c.seat, with_events=False)
            frame = {"type": "update", **entry, "view": views[c.seat], "clock": clock}
            if interval is not None:
                frame["interval"] = interval
            c.send(frame)

    # --- timers and the pause between deals ----------------------------------------------
    def turn_seconds(self, room: Room) -> int:
        """The seconds the seat to move has for this turn: Room.first_timer for the first play of a deal (and
        for tribute and return), Room.timer after; 0 when the room has no timer."""
        match, cfg = room.match, room.config
        deal = match.deal if match is not None else None
        if cfg.timer <= 0 or deal is None:
            return 0
        first = deal.phase != Phase.PLAY or not any(isinstance(e, (Played, Passed)) for e in deal.events)
        return (cfg.first_timer or cfg.timer) if first else cfg.timer

    def _turn_clock(self, room: Room) -> JSON | None:
        """The running turn timer as the table shows it — whose, of how many seconds, how many left — or None
        (no timer, a bot's turn, a paused table, the pause between deals)."""
        match = room.match
        if room.status != "playing" or match is None or match.to_move is None or room.paused or room.interval:
            return None
        seat = match.to_move
        total = self.turn_seconds(room)
        if total <= 0 or room.bot_for(seat):
            return None
        left = max(0.0, total - (self.clock() - room.turn_started))
        return {"seat": seat, "seconds": total, "left": round(left, 1)}

    def _next_deal_wait(self, room: Room) -> float:
        override = self.settings.next_deal_s
        return float(room.config.next_deal_s if override is None else override)

    def _begin_interval(self, room: Room, entry: JSON) -> None:
        """After a deal the table pauses for the humans at it: each sees every hand and the result, and the
        next deal begins once each has tapped 继续 or the wait runs out. Nobody is waited for at a table of
        bots, for a seat on 托管, or for a player who is not connected; a table of four bots that people watch
        pauses the whole time, so that they see the hands and the result."""
        wait = self._next_deal_wait(room)
        waiting = {i for i, s in enumerate(room.seats) if s.kind == "human" and not s.auto and s.connections > 0}
        if wait <= 0 or not (waiting or room.all_bots()):
            return
        ending = [e for e in entry["events"] if e["type"] in (DealOver.type, DealSettled.type)]
        assert room.match is not None
        ended = room.match.deals[-1]
        room.interval = Interval(ended.index, self.clock() + wait, waiting, entry["reveal"], ending, RANKS[ended.level])

    def _interval_json(self, room: Room, interval: Interval, *, full: bool = False) -> JSON:
        """The pause between deals as a frame field: who is still awaited and how long it may last; ``full``
        (a snapshot, when the page did not see the deal end) adds the hands and the result."""
        d: JSON = {"deal": interval.deal, "waiting": sorted(interval.waiting),
                   "left": round(max(0.0, interval.until - self.clock()), 1), "done": False}
        if full:
            d["reveal"], d["events"], d["level"] = interval.reveal, interval.events, interval.level
        return d

    def _continue(self, room: Room, seat: int) -> None:
        interval = room.interval
        if interval is None:
            return  # the next deal has begun already: nothing to wait for
        interval.waiting.discard(seat)
        if interval.waiting:
            self._broadcast(room, {"type": "interval", **self._interval_json(room, interval)})
        else:
            self._end_interval(room)

    def _end_interval(self, room: Room) -> None:
        interval, room.interval = room.interval, None
        if interval is None:
            return
        room.turn_started = self.clock()
        self._broadcast(room, {"type": "interval", "deal": interval.deal, "waiting": [], "left": 0, "done": True,
                               "clock": self._turn_clock(room)})
        self.schedule(room)

    async def _interval_timeout(self, room: Room, wait: float) -> None:
        await asyncio.sleep(wait)
        self._end_interval(room)

    def _broadcast(self, room: Room, frame: JSON) -> None:
        for c in self.conns.get(room.code, ()):
            c.send(frame)

    def _save_replay(self, room: Room) -> str:
        assert room.match is not None
        replay_id = new_replay_id()
        players = [s.name for s in room.seats]
        seats = [{"kind": s.kind, "tier": s.tier} for s in room.seats]  # the replay tells bots apart by seat and tier
        text = record.dumps(room.match, players=players, meta={"room": room.code, "source": "web", "seats": seats})
        # private: listed only to the players who played it (their seat tokens), until one marks it public
        owners = [s.token_hash for s in room.seats if s.kind == "human" and s.token_hash is not None]
        if room.all_bots():  # a match to watch: no seat token played it, the creator's host token started it
            owners = [room.host_hash]
        accounts: dict[int, int] = {}  # the logged-in players' accounts get it on their games list now (first seat)
        for i, s in enumerate(room.seats):
            uid = s.credited()
            if uid is not None:
                accounts.setdefault(uid, i)
        self._commit(room, self.store.save_replay, replay_id, text, room.code, owners=owners, accounts=accounts)
        if room.config.rated:  # after the replay, in the same writer thread: the result points at it
            self._commit(room, record_rated_match, self.store.sessions, rated_result(room, replay_id))
        return replay_id

    def schedule(self, room: Room) -> None:
        """(Re)arm the room's one task: a bot's move after its delay, or a human's turn timer."""
        old = self.tasks.pop(room.code, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if self.frozen:
            return
        match = room.match
        if room.status != "playing" or match is None or match.to_move is None or room.paused:
            return
        if room.interval is not None:
            wait_s = max(0.0, room.interval.until - self.clock())
            self.tasks[room.code] = asyncio.get_running_loop().create_task(self._interval_timeout(room, wait_s))
            return
        seat = match.to_move
        s = room.seats[seat]
        if room.bot_for(seat):
            delay = self.settings.bot_delay_ms if self.settings.bot_delay_ms is not None else room.config.bot_delay_ms
            if room.all_bots():  # a match to watch: slow enough to follow, and to bound its CPU (watch)
                delay = max(delay, self.settings.watch_min_bot_delay_ms)
            self.tasks[room.code] = asyncio.get_running_loop().create_task(self._bot_turn(room, seat, delay / 1000))
            return
        wait = None if s.connections > 0 else self.settings.disconnect_grace_s
        total = self.turn_seconds(room)
        if total > 0:
            left = max(0.0, total - (self.clock() - room.turn_started))
            wait = left if wait is None else min(wait, left)
        if wait is not None:
            self.tasks[room.code] = asyncio.get_running_loop().create_task(self._takeover(room, seat, wait))

    async def _bot_turn(self, room: Room, seat: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            await asyncio.sleep(0)  # let the broadcast go out before the next move
        await self._bot_move(room, seat)

    async def _takeover(self, room: Room, seat: int, wait: float) -> None:
        await asyncio.sleep(wait)
        if room.paused:
            return
        room.seats[seat].auto = True  # 托管: the player switches it off on return
        self.save(room)
        self._broadcast_room(room)
        await self._bot_move(room, seat)

    async def _bot_move(self, room: Room, seat: int) -> None:
        match = room.match
        if match is None or match.to_move != seat or room.status != "playing" or room.paused:
            return
        seq, key = room.seq, (room.code, seat)
        action: Action | None = None
        try:
            agent = self._agent(room, seat)
            if agent.name in FAST_TIERS and not workers.heavy_rules(match.rules):
                action = agent.choose(match.observation(seat), match.legal_actions())
            else:  # a thinking tier (search: ~1 s), or any bot under 火拼 rules: in a worker process
                # (a table of four bots that people watch: after the work of tables with players, see watch)
                priority = Priority.WATCHED if room.all_bots() else Priority.TABLE
                action, thought = await self.pool.run(priority, workers.bot_job, agent, workers.position(match, seat))
                if room.seq == seq and self.agents.get(key) is agent:
                    self.agents[key] = thought  # the bot as it is after choosing (its random generator moved on)
        except Exception:  # a faulty bot, or one that cannot be built, must not stall the table
            log.exception("the bot at seat %d failed in room %s", seat, room.code)
        if room.seq != seq or match.to_move != seat or room.status != "playing" or room.paused:
            return  # the table moved on (or paused) while the bot thought: its answer is dropped
        if action is not None:
            try:
                self.act(room, action)
                return
            except GuandanError:  # not legal after all: the first legal action instead
                log.error("the bot at seat %d chose an illegal action in room %s", seat, room.code)
        self.act(room, self._fallback(match, seat))

    @staticmethod
    def _fallback(match: MatchState, seat: int) -> Action:
        """A legal action for a bot that failed, found without a worker (the rule ``guandan play`` uses too):
        the first legal one, or under 火拼 rules one found without listing every play."""
        return fallback_action(match, seat, list_plays=not workers.heavy_rules(match.rules))

    def _agent(self, room: Room, seat: int) -> Agent:
        key = (room.code, seat)
        agent = self.agents.get(key)
        if agent is None:
            tier = room.seats[seat].tier or default_bot_tier()
            agent = make_agent(tier, seed=f"{room.seed}:{seat}")
            agent.reset(seat, room.rules)
            self.agents[key] = agent
        return agent

    # --- connections ----------------------------------------------------------------------
    def connect(self, code: str, token: str | None, client: str | None = None) -> Connection:
        room = self.room(code)
        seat = room.seat_of(token) if token else None
        if token and seat is None:
            raise ServiceError("this token holds no seat in this room", 403, "forbidden", words=say(NO_SEAT))
        conn = Connection(room, seat, bucket=Bucket(self.settings.msg_rate, self.settings.msg_burst, self.clock),
                          client=client, gate=self._gate(room.code),
                          work=Bucket(self.settings.work_rate, self.settings.work_burst, self.clock))
        self.conns.setdefault(room.code, []).append(conn)
        if room.status == "lobby":
            room.touched = self.clock()  # a page opened on a lobby keeps it open
        resumed = False
        if seat is not None:
            room.unattended_since = None
            if room.paused and not room.held:  # a player is back: the table plays on, the turn's timer from the start
                room.paused = False
                room.turn_started = self.clock()
                self.save(room)  # the frames below leave once it is committed
        elif room.status == "playing" and room.all_bots():  # a match to watch: a spectator is who attends it
            room.unattended_since = None
            if room.paused and not room.held:  # it plays on for this page's address, within the caps (watch)
                resumed = self._resume_watched(room, [client])
        conn.send({"type": "welcome", "role": "player" if seat is not None else "spectator", "seat": seat})
        conn.send(self.snapshot(conn))
        if resumed:
            self._broadcast_room(room)  # the other pages that waited for it
            self.schedule(room)
        if seat is not None:
            room.seats[seat].connections += 1
            for w in self.watchers:
                w.seated(room, seat)
            self._broadcast_room(room)
            self.schedule(room)  # a returning player's turn runs on the normal timer again
        return conn

    def disconnect(self, conn: Connection) -> None:
        room = conn.room
        conns = self.conns.get(room.code, [])
        if conn in conns:
            conns.remove(conn)
        if not conns:
            self.conns.pop(room.code, None)
        conn.queue.put_nowait(None)
        if conn.seat is None and room.status == "playing" and room.all_bots() and not self._attended(room):
            room.unattended_since = self.clock()  # the last page on a match of four bots: it pauses in time (sweep)
        if conn.seat is not None:
            room.seats[conn.seat].connections -= 1
            if room.status == "playing" and not self._attended(room):
                room.unattended_since = self.clock()  # it pauses Settings.unattended_pause_s from now (sweep)
            self._broadcast_room(room)
            if room.interval is not None and room.seats[conn.seat].connections <= 0:
                self._continue(room, conn.seat)  # the deal-end pause does not wait for a player who left
            self.schedule(room)

    def frame_in(self, conn: Connection, raw: str | None) -> None:
        """One message from a socket, as text (None: a binary one). Refusals answer an error frame."""
        if conn.bucket is not None and not conn.bucket.allow():
            conn.send(error_frame("rate_limited", "too many messages; slow down",
                                  say(N_("Too many messages from this page: slow down."))))
            return
        if raw is None:
            conn.send(error_frame("bad_message", "frames must be JSON text, not binary",
                                  say(N_("Messages to the table must be JSON text, not binary."))))
            return
        if self.frozen:
            conn.send(error_frame("unavailable", "the table is moving to another server", say(MOVING)))
            return
        try:
            msg = parse_message(raw)
        except ProtocolError as e:
            conn.send(e.frame())
            return
        try:
            self.handle(conn, msg)
        except ServiceError as e:
            conn.send(e.frame())

    def handle(self, conn: Connection, msg: ClientFrame) -> None:
        """One validated client frame. Refusals answer an error frame and change nothing. A connection's
        frames are handled, and answered, in the order they came: while its hint or readings request is
        with the workers, the frames after it wait (up to BACKLOG_MAX; beyond that they are refused)."""
        if conn.working:
            if len(conn.backlog) >= BACKLOG_MAX:
                conn.send(self._refusal("busy", "busy"))
            else:
                conn.backlog.append(msg)
            return
        room = conn.room
        if isinstance(msg, Ping):
            conn.send({"type": "pong", "seq": room.seq})
            return
        if isinstance(msg, Resume):
            self._resume(conn, msg.since)
            return
        if conn.seat is None:
            conn.send(error_frame("spectator", "spectators cannot act", say(N_("Spectators cannot act."))))
            return
        seat = conn.seat
        if isinstance(msg, Talk):
            self._talk(conn, room, seat, msg.phrase)
            return
        if isinstance(msg, Continue):
            self._continue(room, seat)
            return
        if isinstance(msg, Arrange):
            self._arrange(conn, room, seat)
            return
        if isinstance(msg, Auto):
            if room.status != "playing":
                conn.send(error_frame("not_playing", "托管 is only for a match in progress",
                                      say(N_("Auto-play is only for a match in progress."))))
                return
            if room.seats[seat].auto == msg.on:  # already so: nothing to write; the asker is told how it is
                conn.send({"type": "room", "room": self.summary(room, player=True)})
                return
            st = self.settings
            if not self._work_bucket(("auto", room.code, str(seat)), st.auto_rate, st.auto_burst).allow():
                conn.send(error_frame("rate_limited", "托管 switched too often from this seat: wait a moment",
                                      say(N_("Auto-play was switched on and off too often from your seat: wait a "
                                             "moment."))))
                return
            room.seats[seat].auto = msg.on
            self.save(room)
            self._broadcast_room(room)
            if msg.on and room.interval is not None:
                self._continue(room, seat)  # a bot plays this seat now: the pause does not wait for it
            self.schedule(room)
            return
        match = room.match
        if room.status != "playing" or match is None:
            conn.send(error_frame("not_playing", "no match is being played in this room", say(NOT_PLAYING)))
            return
        if room.held:
            conn.send(error_frame("held", "the arbiter has paused this table", say(HELD)))
            return
        if room.interval is not None:
            left = max(0.0, room.interval.until - self.clock())
            conn.send(error_frame("interval", f"the next deal begins when every player has tapped continue, or in "
                                              f"{left:.0f} s",
                                  say(N_("The next deal begins when every player has tapped Continue, or in {n} s."),
                                      n=round(left))))
            return
        if match.to_move != seat:
            turn = "nobody's" if match.to_move is None else f"seat {match.to_move}'s"
            words = say(N_("Nobody is to move now.")) if match.to_move is None else \
                say(N_("It is the turn of seat {seat}, not yours: you are at seat {you}."), seat=SeatNo(match.to_move),
                    you=SeatNo(seat))
            conn.send(error_frame("not_your_turn", f"it is {turn} turn, not yours (seat {seat})", words))
            return
        if isinstance(msg, Readings):
            if self._over_budget(conn, READINGS_COST):
                return
            try:
                codes = selection_of(match, seat, msg.cards)
            except GuandanError as e:
                conn.send(error_frame("illegal", str(e), say(READINGS_REFUSAL, reason=e)))
                return
            self._spawn(self._readings(conn, room, seat, msg.cards, codes), conn)
            return
        if isinstance(msg, Hint):
            if (room.code, seat) in self.hinting:
                conn.send(self._refusal("busy", "hint_in_flight"))
                return
            if self._over_budget(conn, HEAVY_HINT_COST if workers.heavy_rules(match.rules) else HINT_COST):
                return
            self.hinting.add((room.code, seat))
            self._spawn(self._hint(conn, room, seat, msg.k), conn)
            return
        if msg.seq is not None and msg.seq != room.seq:
            conn.send(error_frame("stale", f"the table is at sequence {room.seq}, not {msg.seq}; refresh", say(
                N_("The table moved on before your move arrived: look at the current position and play again."))))
            return
        try:
            action = parse_action(match, seat, msg.kind, msg.cards, None if msg.combo is None else msg.combo.spec())
            self.act(room, action)
        except GuandanError as e:
            conn.send(error_frame("illegal", str(e), say(ENGINE_REFUSAL, reason=e)))

    def _talk(self, conn: Connection, room: Room, seat: int, phrase: str) -> None:
        """A quick phrase or emote from a seat, to everyone at the table: one of the fixed set, and at most
        Settings.talk_burst at once (refilled at Settings.talk_rate a second) per seat."""
        if not talk.known(phrase):
            conn.send(error_frame("bad_phrase", f"unknown phrase {shown(phrase)}: table talk is one of the listed phrases "
                                                "and emotes",
                                  say(N_("Table talk is one of the listed phrases and emotes, and this is none of them."))))
            return
        st = self.settings
        bucket = self._work_bucket(("talk", room.code, str(seat)), st.talk_rate, st.talk_burst)
        if not bucket.allow():
            conn.send(error_frame("rate_limited", "too much table talk from this seat: wait a moment",
                                  say(N_("Too much table talk from your seat: wait a moment."))))
            return
        self._broadcast(room, {"type": "talk", "seat": seat, "phrase": phrase})

    def _arrange(self, conn: Connection, room: Room, seat: int) -> None:
        """理牌: the seat's own hand in groups from the engine's decomposition (a millisecond or so: on the
        loop, charged like a readings request)."""
        match = room.match
        if room.status != "playing" or match is None or match.deal is None:
            conn.send(error_frame("not_playing", "no match is being played in this room", say(NOT_PLAYING)))
            return
        if self._over_budget(conn, READINGS_COST):
            return
        deal = match.deal
        groups = arrange_hand(deal.hands[seat], deal.level, match.rules)  # the requester's own hand only
        conn.send({"type": "arrangement", "seq": room.seq, "deal": match.deal_index,
                   "groups": [{"kind": g.kind, "cards": cards_json(g.cards)} for g in groups]})

    def _resume(self, conn: Connection, since: int) -> None:
        room = conn.room
        if since > room.seq:
            conn.send(error_frame("bad_seq", f"sequence {since} is ahead of the table ({room.seq})",
                                  say(N_("Your page was ahead of the table: it now shows the table as it is."))))
            return
        first = room.log[0]["seq"] if room.log else room.seq + 1
        too_old = since + 1 < first or room.match is None
        updates = [] if too_old else [e for e in room.log if e["seq"] > since]
        carried = len(room.log) if too_old else len(updates)  # a snapshot carries the deal's events
        if self._over_budget(conn, max(RESUME_MIN_COST, carried / RESUME_UPDATES_PER_UNIT), "resume"):
            return
        if too_old or room.match is None:
            conn.send(self.snapshot(conn))  # too old to catch up event by event
            return
        frame: JSON = {"type": "catchup", "seq": room.seq, "updates": updates,
                       "view": self._view(room.match, conn.seat, with_events=False), "clock": self._turn_clock(room)}
        if room.interval is not None:
            frame["interval"] = self._interval_json(room, room.interval, full=True)
        conn.send(frame)

    # --- CPU-heavy requests (worker processes) and commits (the store's writer thread) ---------
    def _spawn(self, work: Coroutine[Any, Any, None], conn: Connection) -> None:
        """Work out a request of ``conn``'s; its later frames wait for the answer (handle)."""
        task = asyncio.get_running_loop().create_task(work)
        self.jobs.add(task)
        conn.working = True

        def finished(_task: asyncio.Task[None]) -> None:
            self.jobs.discard(task)
            conn.working = False
            self._drain(conn)

        task.add_done_callback(finished)

    def _drain(self, conn: Connection) -> None:
        """Handle the frames that waited behind a request, until one is sent to the workers again."""
        if conn not in self.conns.get(conn.room.code, ()):
            conn.backlog.clear()  # the socket is gone
            return
        while conn.backlog and not conn.working:
            msg = conn.backlog.popleft()
            try:
                self.handle(conn, msg)
            except ServiceError as e:
                conn.send(e.frame())

    def _refusal(self, code: str, why: str) -> JSON:
        """An error frame for a refused CPU-heavy request (its English message is the msgid itself)."""
        msgid = REFUSALS[why]
        return error_frame(code, msgid, say(msgid))

    def _work_bucket(self, key: tuple[str, ...], rate: float, burst: float) -> Bucket:
        b = self.work_buckets.get(key)
        if b is None:
            if len(self.work_buckets) > 4096:  # forget the full ones: nobody is charged for them any more
                for k in [k for k, v in self.work_buckets.items() if v.idle()]:
                    del self.work_buckets[k]
            b = self.work_buckets[key] = Bucket(rate, burst, self.clock)
        return b

    def _over_budget(self, conn: Connection, cost: float, why: str | None = None) -> bool:
        """Charge a hint, readings or catch-up request to the connection, its seat (every socket of one
        token; a spectator has none) and its client address. When one of them is spent the request is
        answered with an error frame saying which (or ``why``, a key of REFUSALS), nothing is charged, and
        nothing else is slowed."""
        st = self.settings
        budgets: list[tuple[str, Bucket | None]] = [("connection", conn.work)]
        if conn.seat is not None:
            budgets.append(("seat", self._work_bucket(("seat", conn.room.code, str(conn.seat)), st.work_rate,
                                                      st.work_burst)))
        if conn.client is not None:
            budgets.append(("address", self._work_bucket(("address", conn.client), st.address_work_rate,
                                                         st.address_work_burst)))
        for who, bucket in budgets:
            if bucket is not None and not bucket.has(cost):
                conn.send(self._refusal("rate_limited", why or who))
                return True
        for _, bucket in budgets:
            if bucket is not None:
                bucket.take(cost)
        return False

    async def _readings(self, conn: Connection, room: Room, seat: int, cards: list[str], codes: tuple[int, ...]) -> None:
        match, seq = room.match, room.seq
        assert match is not None and match.deal is not None
        deal = match.deal
        try:
            found = await self.pool.run(Priority.READINGS, workers.readings_job, seat, codes, deal.top_combo, deal.level,
                                        match.rules)
        except Exception as e:  # the queue is full (Busy), or a worker died
            if not isinstance(e, Busy):
                log.exception("a worker failed to answer a readings request")
            conn.send(self._refusal("busy", "busy"))
            return
        if room.seq != seq or room.match is not match:
            return  # the table moved on: the answer is about a position that is gone
        frame: JSON = {"type": "readings", "seq": seq, "cards": cards, "actions": [action_json(a) for a in found]}
        if not found:  # why not, in words, for the page to show before anything is sent
            frame["why"] = selection_verdict(codes, deal.top_combo, deal.level, match.rules)
        conn.send(frame)

    async def _hint(self, conn: Connection, room: Room, seat: int, k: int) -> None:
        match, seq = room.match, room.seq
        assert match is not None
        try:
            found = await self.pool.run(Priority.HINT, workers.hint_job, workers.position(match, seat), k)
        except Exception as e:  # the queue is full (Busy), or a worker died
            if not isinstance(e, Busy):
                log.exception("a worker failed to work out a hint")
            self.hinting.discard((room.code, seat))
            conn.send(self._refusal("busy", "busy"))
            return
        self.hinting.discard((room.code, seat))
        if room.seq != seq or room.match is not match:
            return  # the table moved on: the hint is about a position that is gone
        texts = self._texts(room)

        def told(hint: hinting.Hint) -> JSON:
            def describe(p: Presenter) -> list[str]:
                return [p.action(hint.action), p.hint_reason(hint.reason)]

            return {"action": action_json(hint.action), "reason": hint.reason, "text": texts(describe)}

        conn.send({"type": "hint", "seq": seq, "hints": [told(h) for h in found]})

    def _gate(self, code: str) -> Gate:
        gate = self.gates.get(code)
        if gate is None:
            if len(self.gates) > 2 * len(self.rooms) + 64:  # the gates of rooms nobody watches, all committed
                for c in [c for c, g in self.gates.items() if c not in self.conns and g.pending() is None]:
                    del self.gates[c]
            gate = self.gates[code] = Gate()
        return gate

    def _writing(self, code: str) -> bool:
        """Whether a write of room ``code`` is queued and not yet committed."""
        gate = self.gates.get(code)
        return gate is not None and gate.pending() is not None

    def save(self, room: Room) -> None:
        """Queue the write of the room's row (its seats, status, config) as the room is when it runs: the
        room's frames from now on leave once it is committed; an HTTP answer awaits :meth:`committed`.
        Without a running loop it is waited for here."""
        self._commit(room, self.store.save_room, room)

    async def committed(self, code: str) -> None:
        """Wait until every write queued so far for room ``code`` is committed (at once when none is),
        without holding the event loop: an answer that tells a client of a change awaits this before it
        leaves. Raises the error of the last of those writes (the caller's own, when it just asked for one:
        each write is its own transaction, and one that failed is logged besides). Cancelling the wait
        leaves the writes and the room's frames as they were."""
        gate = self.gates.get(code.upper())
        pending = gate.pending() if gate is not None else None
        if pending is not None:
            await asyncio.shield(pending)

    async def find(self, code: str) -> Room:
        """:meth:`room` for a caller on the event loop: a room that left memory is read back once its own
        queued writes are committed, never waiting on other rooms' writes."""
        if code.upper() not in self.rooms:
            await self.committed(code)
        return self.room(code)

    def _commit(self, room: Room, write: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Queue one of the store's writes for ``room`` in the writer thread; the room's frames from now on
        leave once it is committed. Without a running loop (start-up) it is waited for here."""
        done = self.store.later(write, *args, **kwargs)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            done.result()
            return
        committed = asyncio.wrap_future(done, loop=loop)
        committed.add_done_callback(_report_write)
        self._gate(room.code).last = committed

    # --- start-up: rebuild every live table from its log ------------------------------------
    def restore(self) -> int:
        n = 0
        for stored in self.store.live_rooms():
            room = self._rebuild(stored)
            self.rooms[room.code] = room
            n += 1
        return n

    def _rebuild(self, stored: StoredRoom) -> Room:
        """A room as it was, from its row and its action log. A table comes back unattended (it pauses
        unless a player connects within Settings.unattended_pause_s), a lobby as freshly touched."""
        row = stored.row
        config = RoomConfig.model_validate(row.config)
        room = Room(code=row.code, config=config, rules=config.ruleset(), seed=stored.seed, host_hash=row.host_hash,
                    seats=[Seat.from_store(d) for d in row.seats])
        room.status = "lobby" if row.status == "lobby" else "playing"
        room.paused = row.status == "paused"
        room.touched = self.clock()
        if room.status == "playing":
            room.unattended_since = self.clock()
            room.start()
            room.turn_started = self.clock()
            match = room.match
            assert match is not None
            texts = self._texts(room)
            for aj in stored.actions:
                action = parse_action(match, aj["seat"], aj["kind"], aj["cards"], aj.get("combo"))
                events = match.apply(action)
                room.seq += 1
                room.log.append(_log_entry(room.seq, aj, events, match, texts))
            if match.ended:  # the process died between the last action and the room row
                room.status, room.paused = "over", False
                room.replay_id = self._save_replay(room)
                self.save(room)
        return room

    def _load(self, code: str) -> Room | None:
        """A room that is not in memory, from the database: a paused table is rebuilt (and stays paused until
        a player connects); a finished match is answered from its row (its page shows the end and the
        replay link), without being kept; a closed lobby is refused. Read as committed, unless a write of
        this room is still queued (it just left memory): then after the writer's queue, which only a caller
        off the event loop, or one that did not await :meth:`committed` (see :meth:`find`), waits for."""
        writing = self._writing(code)
        found = (self.store.room_status if writing else self.store.peek_room_status)(code)
        if found is None:
            return None
        row, seq = found
        if row.status == "closed":
            raise ServiceError(f"room {code} closed after {self.settings.lobby_idle_s:g} s without activity", 410,
                               "room_closed", words=say(ROOM_CLOSED))
        if row.status == "over":
            config = RoomConfig.model_validate(row.config)
            return Room(code=row.code, config=config, rules=config.ruleset(), seed=0, host_hash=row.host_hash,
                        seats=[Seat.from_store(d) for d in row.seats], status="over", seq=seq, replay_id=row.replay_id)
        stored = (self.store.room_row if writing else self.store.peek_room_row)(code)
        assert stored is not None
        room = self._rebuild(stored)
        self.rooms[room.code] = room
        return room

    def adopt(self, stored: StoredRoom) -> Room:
        """A live table another worker left (server/cluster.py): rebuilt from its log, armed, kept."""
        room = self._rebuild(stored)
        self.rooms[room.code] = room
        if room.status != "over":
            self.schedule(room)
        return room

    def freeze(self) -> None:
        """Stop every bot, timer and frame from changing a room: the tables are being handed over."""
        self.frozen = True
        for t in list(self.tasks.values()):
            t.cancel()
        self.tasks.clear()

    def forget(self, room: Room) -> None:
        """The room leaves this process's memory, its row and log as they are (another worker owns it now)."""
        self._forget(room)
        self.conns.pop(room.code, None)

    def resume_all(self) -> None:
        """Arm the bots and timers of every restored table, and the sweeper (needs the running event loop)."""
        for room in self.rooms.values():
            self.schedule(room)
        if self.sweeper is None:
            self.sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    # --- lifecycle: what leaves memory, and when --------------------------------------------
    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval_s)
            try:
                self.sweep()
            except Exception:  # the sweeper must outlive any one room's fault
                log.exception("the lifecycle sweep failed")

    def sweep(self) -> None:
        """Close idle lobbies, pause unattended tables, let finished matches and paused tables leave memory,
        forget full rate buckets and the bots of rooms that are gone. Run every Settings.sweep_interval_s."""
        now, st = self.clock(), self.settings
        for room in list(self.rooms.values()):
            if room.status == "lobby" and now - room.touched >= st.lobby_idle_s:
                self._close_lobby(room)
            elif room.status == "playing" and not room.paused and room.unattended_since is not None \
                    and now - room.unattended_since >= st.unattended_pause_s:
                self._pause(room)
            elif room.status == "over" and now - room.touched >= st.finished_linger_s:
                self._forget(room)
            if room.paused and not room.held and not self.conns.get(room.code):
                self._forget(room)  # in the database as "paused": loaded again when someone asks for it
            elif room.paused and not room.held and room.status == "playing" and room.all_bots() and \
                    self._resume_watched(room, [c.client for c in self.conns.get(room.code, ())]):
                # a match of four bots that pages watch, paused until the caps had room for it (watch)
                self._broadcast_room(room)
                self.schedule(room)
        for client in [k for k, b in self.join_buckets.items() if b.idle()]:
            del self.join_buckets[client]
        for who in [k for k, b in self.work_buckets.items() if b.idle()]:
            del self.work_buckets[who]
        for key in [k for k in self.agents if k[0] not in self.rooms]:
            del self.agents[key]
        if st.gc_interval_s > 0 and now - self.last_gc >= st.gc_interval_s:
            self.last_gc = now
            gc.collect()

    def _humans_connected(self, room: Room) -> bool:
        return any(s.kind == "human" and s.connections > 0 for s in room.seats)

    def _attended(self, room: Room) -> bool:
        """Someone is at the table: a player connected, or at a table of four bots (a match to watch) any page,
        a spectator's; at a table of players, spectators alone do not keep it going."""
        if room.all_bots():
            return bool(self.conns.get(room.code))
        return self._humans_connected(room)

    def _pause(self, room: Room) -> None:
        task = self.tasks.pop(room.code, None)
        if task is not None:
            task.cancel()
        room.paused = True
        self.save(room)
        self._broadcast_room(room)
        self._drop_agents(room.code)

    def _close_lobby(self, room: Room) -> None:
        self._commit(room, self.store.close_room, room.code)
        self._forget(room)
        for c in self.conns.pop(room.code, []):
            c.send(error_frame("room_closed", f"room {room.code} closed after {self.settings.lobby_idle_s:g} s "
                                              "without activity", say(ROOM_CLOSED)))
            c.end(4410)  # after that frame, which waits for the commit

    def _forget(self, room: Room) -> None:
        """The room leaves memory (its row and log stay): connections still open keep their own reference."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        task = self.tasks.pop(room.code, None)
        if task is not None:
            task.cancel()
        self._drop_agents(room.code)

    def _drop_agents(self, code: str) -> None:
        for key in [k for k in self.agents if k[0] == code]:
            del self.agents[key]

    async def close(self) -> None:
        """Stop the sweeper and every room's task, then commit what is queued. A task that does not stop within
        ``CLOSE_GRACE_S`` of its cancellation is left behind (and logged): the queued commits are written all the
        same, so a stuck task never keeps a shutdown from saving the tables."""
        # only this loop's tasks can be cancelled and waited for: a test's earlier loop may have left some behind
        loop = asyncio.get_running_loop()
        tasks = [t for t in (self.sweeper, *self.tasks.values()) if t is not None]
        running = [t for t in tasks if not t.done() and t.get_loop() is loop]
        for t in running:
            t.cancel()
        if running:
            _done, stuck = await asyncio.wait(running, timeout=CLOSE_GRACE_S)
            if stuck:
                log.warning("%d room task(s) had not stopped %.0f s after shutdown began", len(stuck), CLOSE_GRACE_S)
        for t in tasks:
            if t.done() and not t.cancelled():
                t.exception()  # retrieved: asyncio would otherwise report it as never retrieved
        self.sweeper = None
        self.tasks.clear()
        for job in list(self.jobs) + [j for _, _, j in self.legal_jobs.values()]:
            job.cancel()
        self.pool.close()
        await asyncio.to_thread(self.store.close)  # every queued commit is in the database


def _seat_taken(seat: int) -> Words:
    return say(N_("Seat {seat} is taken."), seat=SeatNo(seat))


def _log_entry(seq: int, aj: JSON, events: list[Any], match: MatchState, texts: Texts) -> JSON:
    """One action as the table's log keeps and broadcasts it: the action, its events as told in every
    language and, when it ended a deal, every hand as the deal left it (摊牌: public once a deal is over)."""
    entry: JSON = {"seq": seq, "action": aj, "events": [event_json(e, texts) for e in events]}
    if any(isinstance(e, DealSettled) for e in events):
        entry["reveal"] = [cards_json(h) for h in match.final_hands(match.deals[-1].index)]
    return entry


def _report_write(done: asyncio.Future[Any]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("a write to the database failed", exc_info=done.exception())


def _monotonic() -> float:
    return time.monotonic()
