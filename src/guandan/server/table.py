"""The table service: the one authoritative place where rooms change.

Every action — a human's frame, a bot's choice, a 托管 takeover — goes through :meth:`TableService.act`:
validate against the engine, apply, log (committed), then broadcast. Frames to a seat are built only
from ``match.observation(seat)``; spectators get the public projection. Bots and turn timers are
asyncio tasks, one per room, rescheduled after every change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents import hints as hinting
from ..agents import make_agent
from ..agents.base import Agent
from ..agents.hints import best_actions
from ..core import record
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.match import MatchState
from ..i18n import translator
from ..present import Presenter
from .protocol import Auto, ClientFrame, Hint, Ping, Readings, Resume, error_frame
from .rooms import Room, RoomConfig, Seat, bot_tiers, default_bot_tier, hash_token, new_code, new_token
from .store import Store
from .wire import Texts, action_json, event_json, parse_action, public_view, readings_of, seat_view, texts_for

log = logging.getLogger("guandan.server")
FAST_TIERS = frozenset({"random", "greedy"})  # decide in microseconds: called on the event loop directly
JSON = dict[str, Any]


class ServiceError(Exception):
    """A refused request: ``status`` is the HTTP status a REST caller gets, the text says why."""

    def __init__(self, message: str, status: int = 400, code: str = "bad_request") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


@dataclass
class Settings:
    bot_delay_ms: int | None = None  # overrides every room's bot delay (tests and benchmarks use 0)
    disconnect_grace_s: float = 10.0  # a disconnected player's turn is taken over (托管) after this
    msg_rate: float = 30.0  # frames per second per connection (token bucket)
    msg_burst: float = 60.0
    join_rate_per_min: float = 60.0  # creates and joins per client address
    join_burst: float = 30.0


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


@dataclass(eq=False)
class Connection:
    """One WebSocket client: a seat's player or a spectator (seat None). Frames queue up here and a
    writer task sends them, so one slow client never holds a table up."""

    room: Room
    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    bucket: Bucket | None = None

    def send(self, frame: JSON) -> None:
        self.queue.put_nowait(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))


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

    # --- lobby ----------------------------------------------------------------------------
    def check_join_rate(self, client: str) -> None:
        b = self.join_buckets.get(client)
        if b is None:
            b = self.join_buckets[client] = Bucket(self.settings.join_rate_per_min / 60, self.settings.join_burst, self.clock)
        if not b.allow():
            raise ServiceError("too many rooms created or joined from this address; wait a minute", 429, "rate_limited")

    def create_room(self, config: RoomConfig) -> tuple[Room, str]:
        try:
            rules = config.ruleset()
        except ValueError as e:
            raise ServiceError(str(e)) from None
        code = new_code()
        while code in self.rooms or self.store.code_taken(code):
            code = new_code()
        host_token = new_token()
        seed = config.seed if config.seed is not None else random.SystemRandom().randrange(2**31)
        room = Room(code=code, config=config, rules=rules, seed=seed, host_hash=hash_token(host_token))
        for i, tier in enumerate(config.bots):
            if tier is not None:
                room.seats[i] = Seat(kind="bot", name=f"{tier} bot", tier=tier)
        self.rooms[code] = room
        self.store.save_room(room)
        return room, host_token

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise ServiceError(f"no room with code {code!r}", 404, "no_room")
        return room

    def join(self, code: str, seat: int, name: str) -> str:
        room = self.room(code)
        self._lobby_only(room)
        s = self._seat(room, seat)
        if s.kind != "empty":
            raise ServiceError(f"seat {seat} is taken", 409, "seat_taken")
        token = new_token()
        room.seats[seat] = Seat(kind="human", name=name or f"player {seat + 1}", token_hash=hash_token(token))
        self._room_changed(room)
        return token

    def leave(self, code: str, token: str) -> None:
        room = self.room(code)
        self._lobby_only(room)
        seat = self._require_seat(room, token)
        room.seats[seat] = Seat()
        self._room_changed(room)

    def set_bot(self, code: str, seat: int, tier: str | None, token: str) -> None:
        """Add a bot to an empty seat or remove one (tier None): host or a seated player only."""
        room = self.room(code)
        self._lobby_only(room)
        if not room.is_host(token) and room.seat_of(token) is None:
            raise ServiceError("only the host or a seated player may change bots", 403, "forbidden")
        s = self._seat(room, seat)
        if tier is None:
            if s.kind != "bot":
                raise ServiceError(f"seat {seat} holds no bot", 409, "not_a_bot")
            room.seats[seat] = Seat()
        else:
            if tier not in bot_tiers():
                raise ServiceError(f"unknown bot tier {tier!r}; known: {', '.join(bot_tiers())}")
            if s.kind != "empty":
                raise ServiceError(f"seat {seat} is taken", 409, "seat_taken")
            room.seats[seat] = Seat(kind="bot", name=f"{tier} bot", tier=tier)
        self._room_changed(room)

    def ready(self, code: str, token: str, ready: bool) -> None:
        room = self.room(code)
        self._lobby_only(room)
        seat = self._require_seat(room, token)
        room.seats[seat].ready = ready
        if room.can_start():
            self._start(room)
        else:
            self._room_changed(room)

    def _lobby_only(self, room: Room) -> None:
        if room.status != "lobby":
            raise ServiceError("the match has started: seats are fixed", 409, "started")

    def _seat(self, room: Room, seat: int) -> Seat:
        if seat not in range(4):
            raise ServiceError(f"seat must be 0…3, not {seat}")
        return room.seats[seat]

    def _require_seat(self, room: Room, token: str) -> int:
        seat = room.seat_of(token)
        if seat is None:
            raise ServiceError("this token holds no seat in this room", 403, "forbidden")
        return seat

    def _room_changed(self, room: Room) -> None:
        self.store.save_room(room)
        self._broadcast_room(room)

    def _broadcast_room(self, room: Room) -> None:
        frame = {"type": "room", "room": room.summary()}
        for c in self.conns.get(room.code, ()):
            c.send(frame)

    def _start(self, room: Room) -> None:
        room.start()
        room.seq, room.log = 0, []
        self.store.save_room(room)
        self._broadcast_room(room)
        for c in self.conns.get(room.code, ()):
            c.send(self.snapshot(c))
        self.schedule(room)

    # --- the table ------------------------------------------------------------------------
    def snapshot(self, conn: Connection) -> JSON:
        room = conn.room
        frame: JSON = {"type": "snapshot", "seq": room.seq, "room": room.summary(), "view": None}
        if room.match is not None and room.match.deal is not None:
            frame["view"] = self._view(room.match, conn.seat, with_events=True, texts=self._texts(room))
        return frame

    def _view(self, match: MatchState, seat: int | None, *, with_events: bool, texts: Texts | None = None) -> JSON:
        """A spectator's frame is built from the core's public view, a player's from its own observation."""
        if seat is None:
            return public_view(match.public_view(), with_events=with_events, texts=texts)
        return seat_view(match.observation(seat), with_events=with_events, texts=texts)

    @staticmethod
    def _texts(room: Room) -> Texts:
        """Seat names as the page shows them: a player's name, or "bot N (tier)" in the page's language."""
        def names(lang: str) -> list[str]:
            bot = translator("web", lang).gettext("bot")
            return [s.name if s.kind == "human" else f"{bot} {i + 1} ({s.tier})" if s.kind == "bot" else ""
                    for i, s in enumerate(room.seats)]

        return texts_for(names)

    def act(self, room: Room, action: Action) -> None:
        """Apply one action for its seat (validated by the engine), log it, broadcast it."""
        match = room.match
        if room.status != "playing" or match is None:
            raise ServiceError("no match is being played in this room", 409, "not_playing")
        events = match.apply(action)  # IllegalActionError leaves everything unchanged
        room.seq += 1
        aj = action_json(action)
        texts = self._texts(room)
        entry = {"seq": room.seq, "action": aj, "events": [event_json(e, texts) for e in events]}
        room.log.append(entry)
        ended = match.ended
        if ended:
            room.status = "over"
            room.replay_id = self._save_replay(room)
        self.store.append_action(room, room.seq, aj, room_changed=ended)
        self._broadcast_update(room, entry)
        if ended:
            self._broadcast_room(room)
        self.schedule(room)

    def _broadcast_update(self, room: Room, entry: JSON) -> None:
        match = room.match
        assert match is not None
        views: dict[int | None, JSON] = {}
        for c in self.conns.get(room.code, ()):
            if c.seat not in views:
                views[c.seat] = self._view(match, c.seat, with_events=False)
            c.send({"type": "update", **entry, "view": views[c.seat]})

    def _save_replay(self, room: Room) -> str:
        assert room.match is not None
        replay_id = secrets.token_urlsafe(8)[:10]
        players = [s.name for s in room.seats]
        text = record.dumps(room.match, players=players, meta={"room": room.code, "source": "web"})
        self.store.save_replay(replay_id, text, room.code)
        return replay_id

    def schedule(self, room: Room) -> None:
        """(Re)arm the room's one task: a bot's move after its delay, or a human's turn timer."""
        old = self.tasks.pop(room.code, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        match = room.match
        if room.status != "playing" or match is None or match.to_move is None:
            return
        seat = match.to_move
        s = room.seats[seat]
        if room.bot_for(seat):
            delay = self.settings.bot_delay_ms if self.settings.bot_delay_ms is not None else room.config.bot_delay_ms
            self.tasks[room.code] = asyncio.get_running_loop().create_task(self._bot_turn(room, seat, delay / 1000))
            return
        wait = None if s.connections > 0 else self.settings.disconnect_grace_s
        if room.config.timer > 0:
            wait = room.config.timer if wait is None else min(wait, room.config.timer)
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
        room.seats[seat].auto = True  # 托管: the player switches it off on return
        self.store.save_room(room)
        self._broadcast_room(room)
        await self._bot_move(room, seat)

    async def _bot_move(self, room: Room, seat: int) -> None:
        match = room.match
        if match is None or match.to_move != seat or room.status != "playing":
            return
        legal = match.legal_actions()
        obs, seq = match.observation(seat), room.seq
        try:
            agent = self._agent(room, seat)
            if agent.name in FAST_TIERS:
                action = agent.choose(obs, legal)
            else:  # a thinking tier (search: ~1 s) must not hold every other table's event loop
                action = await asyncio.to_thread(agent.choose, obs, legal)
        except Exception:  # a faulty bot, or one that cannot be built, must not stall the table
            log.exception("the bot at seat %d failed in room %s", seat, room.code)
            action = legal[0]
        if room.seq != seq or match.to_move != seat or room.status != "playing":
            return  # the table moved on while the bot thought
        if action not in legal:
            action = legal[0]
        self.act(room, action)

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
    def connect(self, code: str, token: str | None) -> Connection:
        room = self.room(code)
        seat = room.seat_of(token) if token else None
        if token and seat is None:
            raise ServiceError("this token holds no seat in this room", 403, "forbidden")
        conn = Connection(room, seat, bucket=Bucket(self.settings.msg_rate, self.settings.msg_burst, self.clock))
        self.conns.setdefault(room.code, []).append(conn)
        conn.send({"type": "welcome", "role": "player" if seat is not None else "spectator", "seat": seat})
        conn.send(self.snapshot(conn))
        if seat is not None:
            room.seats[seat].connections += 1
            self._broadcast_room(room)
            self.schedule(room)  # a returning player's turn runs on the normal timer again
        return conn

    def disconnect(self, conn: Connection) -> None:
        room = conn.room
        conns = self.conns.get(room.code, [])
        if conn in conns:
            conns.remove(conn)
        conn.queue.put_nowait(None)
        if conn.seat is not None:
            room.seats[conn.seat].connections -= 1
            self._broadcast_room(room)
            self.schedule(room)

    def handle(self, conn: Connection, msg: ClientFrame) -> None:
        """One validated client frame. Refusals answer an error frame and change nothing."""
        room = conn.room
        if isinstance(msg, Ping):
            conn.send({"type": "pong", "seq": room.seq})
            return
        if isinstance(msg, Resume):
            self._resume(conn, msg.since)
            return
        if conn.seat is None:
            conn.send(error_frame("spectator", "spectators cannot act"))
            return
        seat = conn.seat
        if isinstance(msg, Auto):
            if room.status != "playing":
                conn.send(error_frame("not_playing", "托管 is only for a match in progress"))
                return
            room.seats[seat].auto = msg.on
            self.store.save_room(room)
            self._broadcast_room(room)
            self.schedule(room)
            return
        match = room.match
        if room.status != "playing" or match is None:
            conn.send(error_frame("not_playing", "no match is being played in this room"))
            return
        if match.to_move != seat:
            conn.send(error_frame("not_your_turn", f"it is seat {match.to_move}'s turn, not yours (seat {seat})"))
            return
        if isinstance(msg, Readings):
            try:
                actions = readings_of(match, seat, msg.cards)
            except GuandanError as e:
                conn.send(error_frame("illegal", str(e)))
                return
            conn.send({"type": "readings", "seq": room.seq, "cards": msg.cards, "actions": actions})
            return
        if isinstance(msg, Hint):
            obs = match.observation(seat)
            hints = best_actions(obs, msg.k, match.rules)
            texts = self._texts(room)

            def told(hint: hinting.Hint) -> JSON:
                def describe(p: Presenter) -> list[str]:
                    return [p.action(hint.action), p.hint_reason(hint.reason)]

                return {"action": action_json(hint.action), "reason": hint.reason, "text": texts(describe)}

            conn.send({"type": "hint", "seq": room.seq, "hints": [told(h) for h in hints]})
            return
        if msg.seq is not None and msg.seq != room.seq:
            conn.send(error_frame("stale", f"the table is at sequence {room.seq}, not {msg.seq}; refresh"))
            return
        try:
            action = parse_action(match, seat, msg.kind, msg.cards, msg.combo)
            self.act(room, action)
        except GuandanError as e:
            conn.send(error_frame("illegal", str(e)))

    def _resume(self, conn: Connection, since: int) -> None:
        room = conn.room
        if since > room.seq:
            conn.send(error_frame("bad_seq", f"sequence {since} is ahead of the table ({room.seq})"))
            return
        first = room.log[0]["seq"] if room.log else room.seq + 1
        if since + 1 < first or room.match is None:
            conn.send(self.snapshot(conn))  # too old to catch up event by event
            return
        updates = [e for e in room.log if e["seq"] > since]
        conn.send({"type": "catchup", "seq": room.seq, "updates": updates,
                   "view": self._view(room.match, conn.seat, with_events=False)})

    # --- start-up: rebuild every live table from its log ------------------------------------
    def restore(self) -> int:
        n = 0
        for stored in self.store.live_rooms():
            row = stored.row
            config = RoomConfig.model_validate(row.config)
            room = Room(code=row.code, config=config, rules=config.ruleset(), seed=row.seed, host_hash=row.host_hash,
                        seats=[Seat.from_store(d) for d in row.seats])
            room.status = "lobby" if row.status == "lobby" else "playing"
            if room.status == "playing":
                room.start()
                match = room.match
                assert match is not None
                texts = self._texts(room)
                for aj in stored.actions:
                    action = parse_action(match, aj["seat"], aj["kind"], aj["cards"], aj.get("combo"))
                    events = match.apply(action)
                    room.seq += 1
                    room.log.append({"seq": room.seq, "action": aj, "events": [event_json(e, texts) for e in events]})
                if match.ended:  # the process died between the last action and the room row
                    room.status = "over"
                    room.replay_id = self._save_replay(room)
                    self.store.save_room(room)
            self.rooms[room.code] = room
            n += 1
        return n

    def resume_all(self) -> None:
        """Arm the bots and timers of every restored table (needs the running event loop)."""
        for room in self.rooms.values():
            self.schedule(room)

    async def close(self) -> None:
        for t in list(self.tasks.values()):
            t.cancel()
        for t in list(self.tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self.tasks.clear()


def _monotonic() -> float:
    return time.monotonic()
