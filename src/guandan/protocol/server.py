"""The platform's WebSocket server on our engine: ``ws://HOST:PORT/game/{name}``.

Rooms (:mod:`.seating`): by default, as on the platform, the name is ignored and each room takes the
next four connections; with :attr:`Seating.NAMED` each name is a room. Seats go by connection order
within a room (the 1st and 3rd connections are seats 0 and 2); a room's table starts at the fourth
connection and plays ``games`` whole games, then broadcasts ``gameResult``, writes
the records and closes. Replies that are not ``{"actIndex": i}`` with ``0 <= i <= indexRange``, or
that come from a seat with no act message waiting, are answered with an ``error`` message and the
server keeps waiting. A connection's frames are read one at a time, and a refused one is answered
on that connection alone, which then pauses (:data:`REFUSAL_PAUSE`): a client that floods or never
reads slows only itself, and nothing it sends piles up in the server. A client that disconnects
mid-game ends its room only: the others get an ``error`` message, the partial record is written
(``-aborted``), and the server goes on serving other rooms.

Two limits of our own, beyond the protocol (README, "The 2020 competition bot protocol"):

* ``move_timeout`` (off by default: the protocol waits for ever): a seat that has not answered its act
  message within it is answered for (:meth:`.ProtocolTable.stand_in`), and told; ``abort_after``
  such timeouts of one seat in a row abort its room. The protocol's replies carry no reference to the
  act message they answer, so a seat's replies are matched to its act messages in order: the next reply
  of a seat that was answered for is its late answer to that act message, refused, never played on a
  later one.
* ``max_per_address`` connections at once from one client address (an IPv6 client by its /64), the
  handshake of one more refused with HTTP 429. Loopback peers are not counted unless
  ``count_loopback``: four bots on the server's own machine are the usual competition, and a reverse
  proxy on it makes every client a loopback peer.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import secrets
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..cliutil import said
from ..core.match import MatchConfig, MatchState
from ..core.record import dumps
from ..core.rules import RuleSet
from ..i18n import N_, Translator, default_lang, translator
from ..i18n.reasons import reason_text
from .errors import ProtocolError
from .messages import Outgoing, encode, parse_reply
from .notation import check_rules
from .seating import PATH_PREFIX, Seating, client_name, name_problem, room_key
from .table import ProtocolTable

_GONE = object()  # queued when a seat's connection closes
REFUSAL_PAUSE = 0.1  # seconds a connection waits after a refused frame before its next one is read
MAX_FRAME = 2**16  # bytes: a reply is {"actIndex": i}; a longer frame closes its connection (1009)
MAX_PER_ADDRESS = 8  # connections at once from one client address: two rooms' worth of every seat
ABORT_AFTER = 3  # a seat's timeouts in a row that abort its room: a bot that misses three is not coming back


def say(msgid: str, **params: object) -> str:
    """An operator's log line from the ``cli`` catalogue, in the language the environment asks for (as
    the command's own words are)."""
    return said_in().gettext(msgid).format(**params)


def said_in() -> Translator:
    """The ``cli`` catalogue in the language the environment asks for: an operator's log line that counts
    something takes its ``ngettext``."""
    return translator("cli", default_lang())


def seat_name(seat: int) -> str:
    """A seat as the operator's log names it: counted from 1, as every other face of the project counts seats,
    with the protocol's own number beside it (``myPos``, 0…3), which the bots' logs and the server's messages to
    them use: ``seat 2 (myPos 1)``."""
    return say(N_("seat {n} (myPos {pos})"), n=seat + 1, pos=seat)


class AddressCount:
    """Connections at once per client address, counted from the TCP connection (before its handshake)
    to its end, so that one that never completes its handshake counts too. An IPv6 address counts by its
    /64, which one client usually holds whole; an IPv4 address mapped into IPv6 as the IPv4 one."""

    def __init__(self, limit: int, count_loopback: bool = False) -> None:
        self.limit = limit  # 0: no limit
        self.count_loopback = count_loopback
        self.counts: Counter[str] = Counter()
        self.refusing: set[str] = set()  # addresses over the limit whose refusal is logged already

    def key(self, peer: object) -> str | None:
        """The address ``peer`` (a socket's peername) counts under, or None when it is not counted."""
        if self.limit == 0 or not isinstance(peer, tuple) or not peer:
            return None
        try:
            ip = ipaddress.ip_address(str(peer[0]).split("%", 1)[0])  # "%eth0": an IPv6 scope
        except ValueError:
            return None
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if ip.is_loopback and not self.count_loopback:
            return None
        if isinstance(ip, ipaddress.IPv6Address):
            return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
        return str(ip)

    def add(self, peer: object) -> str | None:
        key = self.key(peer)
        if key is not None:
            self.counts[key] += 1
        return key

    def remove(self, key: str | None) -> None:
        if key is None:
            return
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]
        if self.counts[key] < self.limit:  # it may connect again: a refusal then is news again
            self.refusing.discard(key)

    def over(self, key: str | None) -> bool:
        return key is not None and self.counts[key] > self.limit


class HeldConnection(ServerConnection):
    """A connection that reads nothing more while its peer reads nothing: what websockets answers on
    its own (a pong for each ping) would otherwise pile up unsent in the server's memory, hundreds of
    MB in seconds from one client that pings and never reads. It is counted for its address in
    ``addresses`` (set by the server as it makes the connection) while its TCP connection is open."""

    addresses: AddressCount | None = None
    address_key: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if self.addresses is not None:
            self.address_key = self.addresses.add(transport.get_extra_info("peername"))
        self._holds: set[str] = set()  # why reading is paused: "queue" (websockets' own), "writes" (ours)
        self.recv_messages.pause = lambda: self._hold("queue", True)
        self.recv_messages.resume = lambda: self._hold("queue", False)

    def _hold(self, why: str, on: bool) -> None:
        held = bool(self._holds)
        if on:
            self._holds.add(why)
        else:
            self._holds.discard(why)
        if self._holds and not held:
            self.transport.pause_reading()
        elif held and not self._holds:
            self.transport.resume_reading()

    def pause_writing(self) -> None:
        super().pause_writing()
        self._hold("writes", True)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._hold("writes", False)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.addresses is not None:
            self.addresses.remove(self.address_key)
            self.address_key = None
        super().connection_lost(exc)


def _owed(left: int, to_move: bool) -> str:
    """What a seat's next replies answer, said after one of its late answers was refused: the late answers
    it still owes (``left``: act messages answered for it after no answer), else the act message waiting."""
    if left == 1:
        return " Your next reply is taken as the late answer to the next act message answered for you, refused too."
    if left > 1:
        return f" Your next {left} replies are taken as the late answers to the {left} other act messages answered " \
               "for you, refused too."
    return " It is your turn now: answer the act message waiting for you." if to_move else ""


def error_message(text: str) -> dict[str, Any]:
    """Our addition to the protocol: what was wrong with the last frame (bots may ignore it). A lone
    surrogate quoted from the frame (JSON's ``"\\ud800"``) is written as its escape: a text frame must
    be UTF-8, and one that is not cannot be sent."""
    return {"type": "error", "stage": "error", "message": text.encode("utf-8", "backslashreplace").decode("utf-8")}


@dataclass
class Room:
    name: str
    conns: list[ServerConnection] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)  # the name each connection gave in /game/{name}
    # the mover's reply, each with the future its connection waits on (None: accepted, else the refusal),
    # and _GONE for a connection that closed: one entry per connection at most
    inbox: asyncio.Queue[tuple[int, object, asyncio.Future[str | None] | None]] = field(default_factory=asyncio.Queue)
    mover: int | None = None  # the seat whose act message is sent and not yet answered
    table: ProtocolTable | None = None
    task: asyncio.Task[None] | None = None
    written: int = 0  # games whose record is written (or failed to be)
    stem: str | None = None  # its records' file names begin with this, once one is written
    # per seat: the indexRange of each act message the server answered for it whose late answer has not
    # come in yet (its next replies are those answers, in order), and its timeouts in a row
    late: list[deque[int]] = field(default_factory=lambda: [deque() for _ in range(4)])
    missed: list[int] = field(default_factory=lambda: [0, 0, 0, 0])


class ProtocolServer:
    """Serve rooms until stopped; ``rooms_to_play`` (if given) stops after that many rooms ended."""

    def __init__(self, rules: RuleSet, games: int = 1, out_dir: Path | None = None, seed: int | str | None = None,
                 config: MatchConfig | None = None, log: Callable[[str], None] = print,
                 rooms_to_play: int | None = None, seating: Seating = Seating.ORDER,
                 move_timeout: float | None = None, abort_after: int = ABORT_AFTER,
                 max_per_address: int = MAX_PER_ADDRESS, count_loopback: bool = False) -> None:
        check_rules(rules)
        # the command's options by name: `guandan protocol-server` says these in its reader's language
        if games < 1:
            raise ProtocolError.said(N_("{option} must be at least {minimum}, not {value}"), option="--games",
                                     minimum=1, value=games)
        if move_timeout is not None and not (math.isfinite(move_timeout) and move_timeout > 0):
            raise ProtocolError.said(N_("{option} must be a positive number of seconds, not {value}"),
                                     option="--move-timeout", value=move_timeout)
        for option, count in (("--abort-after-timeouts", abort_after), ("--max-connections-per-address", max_per_address)):
            if count < 0:
                raise ProtocolError.said(N_("{option} must be at least {minimum}, not {value}"), option=option,
                                         minimum=0, value=count)
        self.move_timeout, self.abort_after = move_timeout, abort_after
        self.addresses = AddressCount(max_per_address, count_loopback)
        self.rules, self.games, self.out_dir = rules, games, out_dir
        # a known seed is every hand of every room known in advance (room names are public, or
        # room-1, room-2, …): without one, a seed nobody can guess, stated in the operator's log
        self.seed: int | str = secrets.token_hex(8) if seed is None else seed
        self.config = config or MatchConfig()
        self.log = log
        self.seating = Seating(seating)
        self.rooms: dict[str, Room] = {}
        self._filling: Room | None = None  # under ORDER: the room the next connection joins
        self._opened = 0  # under ORDER: rooms opened so far (they are named room-1, room-2, …)
        self.rooms_to_play = rooms_to_play
        self.rooms_ended = 0
        self.aborted: list[str] = []
        self.done = asyncio.Event()
        self.refusal_pause = REFUSAL_PAUSE
        self.records: list[Path] = []

    # --- connections -----------------------------------------------------------------------
    def _check_path(self, connection: ServerConnection, request: Request) -> Response | None:
        key = getattr(connection, "address_key", None)
        if self.addresses.over(key):
            assert key is not None
            if key not in self.addresses.refusing:  # once while it stays over: a flood is not a flood of lines
                self.addresses.refusing.add(key)
                self.log(say(N_("refused connections from {address}: {limit} at once from one address "
                                "(--max-connections-per-address)"), address=key, limit=self.addresses.limit))
            return connection.respond(HTTPStatus.TOO_MANY_REQUESTS,
                                      f"too many connections from {key}: at most {self.addresses.limit} at once "
                                      "from one address\n")
        problem = name_problem(request.path, self.seating)
        if problem is None:
            return None
        status = HTTPStatus.NOT_FOUND if not request.path.startswith(PATH_PREFIX) else HTTPStatus.BAD_REQUEST
        return connection.respond(status, problem + "\n")

    def _room_for(self, key: str) -> Room:
        """The room a connection joins: the one filling now (ORDER, ``key == ""``), or the named one."""
        if self.seating is Seating.NAMED:
            return self.rooms.setdefault(key, Room(key))
        if self._filling is None:
            self._opened += 1
            self._filling = Room(f"room-{self._opened}")
            self.rooms[self._filling.name] = self._filling
        return self._filling

    async def handler(self, ws: ServerConnection) -> None:
        path = ws.request.path if ws.request else ""
        key, label = room_key(path, self.seating), client_name(path)
        assert key is not None and label is not None  # _check_path refused every other path
        room = self._room_for(key)
        name = room.name
        if room.table is not None:  # only a named room can be asked for once it has started
            await ws.send(encode(error_message(f"room {name} is full (its game has started)")))
            await ws.close(1013, "room full")
            return
        room.conns.append(ws)
        room.labels.append(label)
        self.log(say(N_("room {room}: connection {n} ({name}) from {address}"), room=name, n=len(room.conns),
                     name=label, address=address(ws)))
        if len(room.conns) == 4:
            if self._filling is room:
                self._filling = None  # full: the next connection opens a new room
            room.table = ProtocolTable(self.rules, self.games, seed=f"{self.seed}:{name}", config=self.config)
            room.task = asyncio.create_task(self._play(room))
        try:
            async for frame in ws:
                problem = await self._receive(room, ws, frame)
                if problem is not None:
                    # answered here, on this connection alone: a seat that floods, or never reads its
                    # errors, holds up its own connection, never the room's table or the other rooms
                    await ws.send(encode(error_message(problem)))
                    await asyncio.sleep(self.refusal_pause)
        except ConnectionClosed:
            pass
        finally:
            if room.table is None:
                del room.labels[room.conns.index(ws)]
                room.conns.remove(ws)  # left before the start: the seats behind it move up
                if not room.conns:
                    self.rooms.pop(name, None)
                    if self._filling is room:
                        self._filling = None
            elif ws in room.conns:
                room.inbox.put_nowait((room.conns.index(ws), _GONE, None))

    async def _receive(self, room: Room, ws: ServerConnection, frame: object) -> str | None:
        """Hand ``ws``'s frame to its room's table when its seat is to answer, and wait until the table
        has read it: the next frame of a connection is read only then, so no frames pile up in the
        server. None when it was accepted, else the refusal to send back."""
        if room.table is None:
            return "the game has not started: wait for four players"
        seat = room.conns.index(ws)
        if room.late[seat]:
            return self._late(room, seat, frame)
        if room.mover is None:
            return f"no act message is waiting for an answer (you are seat {seat})"
        if room.mover != seat:
            return f"it is seat {room.mover}'s turn, not yours (seat {seat})"
        read: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        room.inbox.put_nowait((seat, frame, read))
        return await read

    def _late(self, room: Room, seat: int, frame: object) -> str:
        """The refusal of a reply from a seat the server answered for: the reply answers the oldest act
        message answered for it (replies name no act message; a seat answers them in order), too late.
        Taken for the act message waiting now, a slow bot's late choice would be played on a list of
        actions it never saw, and each of its answers after would be one act message behind."""
        index_range = room.late[seat][0]
        try:
            parse_reply(frame if isinstance(frame, str | bytes) else str(frame), index_range)
        except ProtocolError as e:  # an invalid answer may be sent again: that act message is still owed one
            return f"{e} (as the late answer to an act message the server answered for you after no answer)"
        room.late[seat].popleft()
        return (f"too late: the server answered that act message for you after {self.move_timeout:g} s "
                f"without an answer; this reply is not played.{_owed(len(room.late[seat]), room.mover == seat)}")

    # --- a room's games --------------------------------------------------------------------
    async def _send(self, room: Room, out: list[Outgoing]) -> None:
        """Send each seat its messages, in order; the seats at once, so that a seat whose socket is full
        holds up no other seat's messages. With ``move_timeout``, a seat that reads nothing for that long
        raises :class:`_Unread` (its room ends): unread, it would hold its room until the WebSocket ping
        gives up on it, about 40 s, whatever the operator's deadline."""
        texts: dict[int, list[str]] = {}
        for seat, msg in out:
            texts.setdefault(seat, []).append(encode(msg))
        if len(texts) == 1:
            [(seat, mine)] = texts.items()
            await self._send_to(room, seat, mine)
            return
        try:
            async with asyncio.TaskGroup() as group:
                for seat, mine in texts.items():
                    group.create_task(self._send_to(room, seat, mine))
        except BaseExceptionGroup as e:  # the first failure says why the room ends; the others were cut short
            raise e.exceptions[0] from None

    async def _send_to(self, room: Room, seat: int, texts: list[str]) -> None:
        ws = room.conns[seat]
        try:
            for text in texts:
                if self.move_timeout is None:
                    await ws.send(text)
                    continue
                try:
                    async with asyncio.timeout(self.move_timeout):
                        await ws.send(text)
                except TimeoutError:
                    raise _Unread(seat) from None
        except ConnectionClosed:  # the seat that left is named to the operator and the others
            raise _Disconnected(seat) from None

    async def _play(self, room: Room) -> None:
        table = room.table
        assert table is not None
        self.log(said_in().ngettext("room {room}: four players, {games} game under preset {preset}",
                                    "room {room}: four players, {games} games under preset {preset}",
                                    self.games).format(room=room.name, games=self.games, preset=self.rules.name))
        try:
            await self._send(room, table.start())
            while not table.over:
                seat, msg = table.act()
                room.mover = seat  # before the send: the answer may come in before send() returns
                await self._send(room, [(seat, msg)])
                # the time to answer counts from here (a seat that does not read its act message is caught
                # by the send, or by the next one when the message still fit its socket's buffers)
                deadline = None if self.move_timeout is None else asyncio.get_running_loop().time() + self.move_timeout
                out = await self._answer(room, table, seat, deadline)
                await self._send(room, out)
                self._write_records(room)
            # partners' counts are equal (a game is won by a team), so one count per team says it all
            wins, draws = table.stream.victories, table.stream.draws
            self.log(say(N_("room {room}: done: seats 1 and 3 (myPos 0, 2) won {first}, seats 2 and 4 (myPos 1, 3) "
                            "won {second}, {draws} drawn"), room=room.name, first=wins[0], second=wins[1],
                         draws=draws[0]))
        except _Disconnected as e:
            self.log(say(N_("room {room}: {seat} disconnected: the room is aborted"), room=room.name,
                         seat=seat_name(e.seat)))
            await self._abort(room, f"a player disconnected (seat {e.seat})")
        except _Unread as e:
            self.log(say(N_("room {room}: {seat} read none of its messages for {seconds} s: the room is aborted"),
                         room=room.name, seat=seat_name(e.seat), seconds=f"{self.move_timeout:g}"))
            room.conns[e.seat].transport.abort()  # no notice or closing handshake would get through either
            await self._abort(room, f"seat {e.seat} read none of its messages for {self.move_timeout:g} s")
        except _Unanswered as e:
            self.log(said_in().ngettext(
                "room {room}: {seat} did not answer {count} act message within {seconds} s "
                "(--abort-after-timeouts): the room is aborted",
                "room {room}: {seat} did not answer {count} act messages in a row within {seconds} s "
                "(--abort-after-timeouts): the room is aborted", e.count).format(
                room=room.name, seat=seat_name(e.seat), count=e.count, seconds=f"{self.move_timeout:g}"))
            missed = "1 act message" if e.count == 1 else f"{e.count} act messages in a row"
            await self._abort(room, f"seat {e.seat} did not answer {missed} within {self.move_timeout:g} s")
        except Exception as e:  # a bug must end this room, never the server; its bots are not told Python
            self.log(say(N_("room {room}: internal error: {error}: the room is aborted"), room=room.name,
                         error=f"{type(e).__name__}: {e}"))
            await self._abort(room, "internal error (the server's log says more)")
        finally:
            await self._close_room(room)

    async def _answer(self, room: Room, table: ProtocolTable, mover: int, deadline: float | None) -> list[Outgoing]:
        """The messages ``mover``'s valid reply causes, or those of the server's answer for it if none came
        in by ``deadline``; every reply read is settled on its future (its connection sends a refusal
        itself, so this never waits on one client's socket). Refused replies do not move the deadline."""
        while True:
            item = await _next(room.inbox, deadline)
            if item is None:
                return self._play_for(room, table, mover)
            seat, frame, read = item
            if frame is _GONE:
                raise _Disconnected(seat)
            assert read is not None
            try:
                _, act = table.act()
                index = parse_reply(frame if isinstance(frame, str | bytes) else str(frame), int(act["indexRange"]))
                out = table.answer(seat, index)  # refuses a seat not to move, too
            except ProtocolError as e:
                self.log(say(N_("room {room}: {seat}: {problem}"), room=room.name, seat=seat_name(seat),
                             problem=said(e, default_lang())))
                _settle(read, f"{e}; answer again")
                continue
            except BaseException:
                _settle(read, None)  # an internal error ends the room; its connection reads on
                raise
            room.mover = None
            room.missed[seat] = 0
            _settle(read, None)
            return out

    def _play_for(self, room: Room, table: ProtocolTable, mover: int) -> list[Outgoing]:
        """Answer ``mover``'s act message for it (no answer came in time): tell it, and the log, what was
        played; its late answer is refused when it comes (:meth:`_late`). Raises :class:`_Unanswered` at
        the ``abort_after``-th timeout of the seat in a row instead."""
        room.missed[mover] += 1
        if self.abort_after and room.missed[mover] >= self.abort_after:
            raise _Unanswered(mover, room.missed[mover])
        _, act = table.act()
        seat, played, out = table.play_for()
        room.mover = None
        room.late[seat].append(int(act["indexRange"]))
        shown = json.dumps(played, ensure_ascii=False)
        seconds = f"{self.move_timeout:g}"
        self.log(say(N_("room {room}: {seat} did not answer within {seconds} s: the server played {action} for it"),
                     room=room.name, seat=seat_name(seat), seconds=seconds, action=shown))
        owed = len(room.late[seat])  # the act messages answered for the seat whose late answers are still to come
        answers = "your next reply is taken as your late answer to that act message and is refused" if owed == 1 else \
            f"your next {owed} replies are taken as your late answers to the {owed} act messages answered for you, " \
            "in order, and are refused"
        notice = error_message(f"no answer within {seconds} s: the server played {shown} for you (seat {seat}); {answers}")
        return [(seat, notice), *out]

    def _write_records(self, room: Room, partial: MatchState | None = None) -> None:
        table = room.table
        if self.out_dir is None or table is None:
            return
        players = [f"seat {s} {label} {address(c)}"
                   for s, (label, c) in enumerate(zip(room.labels, room.conns, strict=True))]
        meta: dict[str, Any] = {"protocol": "2020", "room": room.name}

        def meta_of(game: int) -> dict[str, Any]:  # with --move-timeout: each seat's act messages answered for it
            return meta if self.move_timeout is None else {**meta, "played_for": table.played_for[game]}

        while room.written < len(table.finished):
            self._write(room, f"-{room.written + 1:03d}", dumps(table.finished[room.written], players,
                                                                  meta_of(room.written)))
            room.written += 1
        if partial is not None:
            self._write(room, f"-{room.written + 1:03d}-aborted",
                        dumps(partial, players, {**meta_of(room.written), "aborted": True}))

    def _write(self, room: Room, suffix: str, text: str) -> None:
        """Write one record of ``room`` as ``{stem}{suffix}.json``. A record is never overwritten: a room
        whose name has records already (a name used again, an earlier run into the same folder) writes
        as ``{name}~2``, ``{name}~3``, …. A record that cannot be written is logged: the game goes on."""
        assert self.out_dir is not None
        where = self.out_dir
        try:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            if room.stem is None:
                room.stem = self._free_stem(room.name)
            where = self.out_dir / f"{room.stem}{suffix}.json"
            with where.open("x", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            self.log(say(N_("room {room}: cannot write {path}: {reason}"), room=room.name, path=where,
                         reason=reason_text(e, default_lang())))
            return
        self.records.append(where)

    def _free_stem(self, name: str) -> str:
        """``name``, or ``name~2``, ``name~3``, …: the first that no room's records begin with yet."""
        assert self.out_dir is not None
        n = 1
        while True:
            stem = name if n == 1 else f"{name}~{n}"
            if not any((self.out_dir / f"{stem}-001{end}.json").exists() for end in ("", "-aborted")):
                return stem
            n += 1

    async def _abort(self, room: Room, why: str) -> None:
        """End ``room`` early: its records so far written (the game in play as ``-aborted``) and its seats told
        ``why``, in the protocol's English as every message to a bot is. The operator's log line is the
        caller's, from the catalogue."""
        self.aborted.append(room.name)
        table = room.table
        live = table.match if table and table.match and not table.match.ended else None
        self._write_records(room, partial=live)
        notice = encode(error_message(f"game aborted: {why}"))
        await asyncio.gather(*(_send_quietly(ws, notice) for ws in room.conns))  # none waits on another's socket

    async def _close_room(self, room: Room) -> None:
        room.mover = None
        while not room.inbox.empty():  # replies that came in as the room ended: their connections wait
            _, _, read = room.inbox.get_nowait()
            if read is not None:
                _settle(read, None)
        # all at once: a close waits up to close_timeout (10 s) for a peer's answer, and a silent seat
        # must not keep the others open that long
        await asyncio.gather(*(ws.close(1000, "game over") for ws in room.conns))
        if self.rooms.get(room.name) is room:
            del self.rooms[room.name]
        self.rooms_ended += 1
        if self.rooms_to_play is not None and self.rooms_ended >= self.rooms_to_play:
            self.done.set()

    # --- running ---------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 23456) -> Server:
        counts = self.addresses

        class Counted(HeldConnection):  # this server's connections, counted in its own count
            addresses = counts

        return await serve(self.handler, host, port, process_request=self._check_path, max_size=MAX_FRAME,
                           create_connection=Counted)

    def limits(self) -> list[str]:
        """The operator's lines on the limits of our own this server keeps (none of them is the protocol's)."""
        if self.move_timeout is None:
            lines = [say(N_("no time limit for an answer, as in the protocol (--move-timeout)"))]
        elif self.abort_after:
            lines = [said_in().ngettext(
                "a seat that does not answer within {seconds} s is played for; {count} timeout of one seat aborts its "
                "room",
                "a seat that does not answer within {seconds} s is played for; {count} timeouts of one seat in a row "
                "abort its room", self.abort_after).format(seconds=f"{self.move_timeout:g}", count=self.abort_after)]
        else:
            lines = [say(N_("a seat that does not answer within {seconds} s is played for; its room is never aborted "
                            "for it"), seconds=f"{self.move_timeout:g}")]
        if self.addresses.limit:
            lines.append(say(N_("at most {limit} connections at once from one client address (loopback not counted)")
                             if not self.addresses.count_loopback else
                             N_("at most {limit} connections at once from one client address"),
                             limit=self.addresses.limit))
        else:
            lines.append(say(N_("no limit on connections from one client address")))
        return lines

    async def run(self, host: str = "127.0.0.1", port: int = 23456) -> None:
        server = await self.start(host, port)
        rooms = say(N_("each room takes the next four connections, whatever the name")
                    if self.seating is Seating.ORDER else N_("one room per name"))
        self.log(said_in().ngettext(
            "serving {url} ({rooms}): {games} game per room, preset {preset}, seed {seed} (--seed {seed} deals the "
            "same again)",
            "serving {url} ({rooms}): {games} games per room, preset {preset}, seed {seed} (--seed {seed} deals the "
            "same again)", self.games).format(url=f"ws://{host}:{port}{PATH_PREFIX}{{name}}", rooms=rooms,
                                              games=self.games, preset=self.rules.name, seed=self.seed))
        for line in self.limits():
            self.log(line)
        async with server:
            await self.done.wait()


class _Disconnected(Exception):
    """A seat's connection closed during its room's game: its room ends."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class _Unread(Exception):
    """A seat's connection took none of the server's messages for ``move_timeout``: its room ends."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class _Unanswered(Exception):
    """A seat did not answer ``count`` act messages in a row in time: its room ends."""

    def __init__(self, seat: int, count: int) -> None:
        super().__init__(seat, count)
        self.seat, self.count = seat, count


async def _next(inbox: asyncio.Queue[Any], deadline: float | None) -> Any:
    """The next entry of ``inbox``, or None once ``deadline`` (the loop's clock) has passed with none.
    An entry that came in before the deadline is taken even when this task wakes after it."""
    if deadline is None or not inbox.empty():
        return await inbox.get()
    try:
        async with asyncio.timeout_at(deadline):
            return await inbox.get()
    except TimeoutError:
        return inbox.get_nowait() if not inbox.empty() else None


def address(ws: ServerConnection) -> str:
    """``host:port`` of a connection's peer (``[host]:port`` for IPv6), for logs and records."""
    peer = ws.remote_address
    if not isinstance(peer, tuple) or len(peer) < 2:
        return "unknown address"
    host, port = str(peer[0]), peer[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _settle(read: asyncio.Future[str | None], problem: str | None) -> None:
    """Tell a connection waiting on ``read`` how its frame went (not if it stopped waiting: cancelled)."""
    if not read.done():
        read.set_result(problem)


async def _send_quietly(ws: ServerConnection, text: str) -> None:
    with contextlib.suppress(ConnectionClosed):
        await ws.send(text)


__all__ = ["ABORT_AFTER", "MAX_PER_ADDRESS", "PATH_PREFIX", "AddressCount", "ProtocolServer", "Room", "Seating",
           "error_message", "say"]
