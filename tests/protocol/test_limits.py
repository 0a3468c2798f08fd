"""The server's limits of its own, beyond the 2020 protocol: a time to answer an act message
(``--move-timeout``, with ``--abort-after-timeouts``) and connections at once per client address
(``--max-connections-per-address``).

Timeouts here are short but generous (the bots that answer do so in milliseconds): every assertion is
about a seat that does not answer at all, or answers when the test says, never about a race.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import async_support
from guandan.agents.base import make_agent
from guandan.cli import _mount, app
from guandan.cliutil import said
from guandan.core.match import MatchConfig
from guandan.core.record import loads
from guandan.core.rules import preset
from guandan.i18n.check import extract_msgids, missing
from guandan.protocol import cli as protocol_cli
from guandan.protocol import messages as protocol_messages
from guandan.protocol import server as protocol_server
from guandan.protocol.errors import ProtocolError
from guandan.protocol.notation import PASS_TRIPLE, action_triple
from guandan.protocol.seating import Seating
from guandan.protocol.server import MAX_PER_ADDRESS, AddressCount, ProtocolServer, Room
from guandan.protocol.table import ProtocolTable, stand_in_tier
from guandan.server.rooms import default_bot_tier

from .conformance_bot import ConformanceBot
from .helpers import with_server


async def _until(ws: ClientConnection, kind: str, stages: tuple[str, ...] = ()) -> dict[str, Any]:
    """The next message of type ``kind`` (and one of ``stages``, if given) on ``ws``; others are skipped."""
    while True:
        msg: dict[str, Any] = json.loads(await ws.recv())
        if msg["type"] == kind and (not stages or msg["stage"] in stages):
            return msg


async def _answering(ws: ClientConnection, bot: Any = None) -> list[dict[str, Any]]:
    """Read every frame until the connection closes, answering each act message at once: with ``bot``'s
    index, or 0. Returns the messages."""
    seen: list[dict[str, Any]] = []
    try:
        async for frame in ws:
            msg = json.loads(frame)
            seen.append(msg)
            if msg["type"] == "error":
                continue
            index = bot.received_message(frame) if bot is not None else 0
            if msg["type"] == "act":
                await ws.send(json.dumps({"actIndex": index}))
    except ConnectionClosed:
        pass
    return seen


async def _silent(ws: ClientConnection) -> list[dict[str, Any]]:
    """Read every frame until the connection closes and never answer. Returns the messages."""
    seen: list[dict[str, Any]] = []
    try:
        async for frame in ws:
            seen.append(json.loads(frame))
    except ConnectionClosed:
        pass
    return seen


async def _room_of_four(url: str) -> list[ClientConnection]:
    """Four connections, one after another, so that the n-th is seat n."""
    return [await connect(f"{url}/game/x", max_queue=None) for _ in range(4)]


SILENT = 1  # the seat that never answers
LOGGED = f"seat {SILENT + 1} (myPos {SILENT})"  # the operator's log counts seats from 1, as the project does
ONE_DEAL = MatchConfig(max_deals=1, start_levels=(12, 12), start_declarer=0)  # a game of one deal: a few seconds


def _plays(seen: list[dict[str, Any]]) -> list[str]:
    return [m["message"] for m in seen if m["type"] == "error" and "the server played" in m["message"]]


# --- --move-timeout -------------------------------------------------------------------------------

def test_the_stand_in_passes_when_it_may_and_else_plays_the_auto_play_bots_choice() -> None:
    table = ProtocolTable(preset("competition"), seed=3)
    table.start()
    seat, act = table.act()
    assert act["curPos"] == -1 and PASS_TRIPLE not in act["actionList"]  # a lead: no PASS to play
    assert table.match is not None
    assert stand_in_tier() == default_bot_tier()  # the web app's 托管 bot
    bot = make_agent(default_bot_tier(), seed=0)
    bot.reset(seat, table.rules)
    expected = action_triple(bot.choose(table.match.observation(seat), table.match.legal_actions()), table.stream.level)
    assert act["actionList"][table.stand_in()] == expected
    played_seat, played, _ = table.play_for()
    assert played_seat == seat and played == expected
    follower, act = table.act()
    assert act["actionList"][0] == PASS_TRIPLE and table.stand_in() == 0  # following: PASS
    table.play_for()
    assert table.played_for == [[1 if s in (seat, follower) else 0 for s in range(4)]]


async def _one_seat_silent(url: str, server: ProtocolServer) -> list[list[dict[str, Any]]]:
    """A room whose seat SILENT reads and never answers, the others playing: what each seat was sent."""
    conns = await _room_of_four(url)
    return list(await asyncio.gather(*(_silent(ws) if s == SILENT else _answering(ws, ConformanceBot(s))
                                       for s, ws in enumerate(conns))))


def test_a_seat_that_never_answers_is_played_for_and_its_game_finishes(tmp_path: Path) -> None:
    logs: list[str] = []

    seen = async_support.run(with_server(_one_seat_silent, out_dir=tmp_path, logs=logs, config=ONE_DEAL, move_timeout=0.2,
                                         abort_after=0))
    assert all(s[-1]["stage"] == "gameResult" for s in seen), [s[-1] for s in seen]
    acts = [m for m in seen[SILENT] if m["type"] == "act"]
    plays = _plays(seen[SILENT])
    assert len(acts) == len(plays) > 0  # every act message it got was answered for it, and it was told each time
    assert all(p.startswith("no answer within 0.2 s: the server played [") for p in plays), plays[:3]
    logged = [line for line in logs if line.startswith(f"room room-1: {LOGGED} did not answer within 0.2 s")]
    assert len(logged) == len(acts) and '"PASS"' in "".join(logged)  # the action as the protocol writes it
    (record,) = tmp_path.iterdir()
    data = loads(record.read_text(encoding="utf-8"))
    assert data["result"]["ended"] and data["meta"]["played_for"][SILENT] == len(acts)


def test_a_late_answer_is_refused_and_never_played_on_the_next_act_message() -> None:
    """The protocol's replies do not say which act message they answer. A late answer to an act message
    already answered for the seat, arriving once the seat's next act message waits, would have been
    played on that one: a choice from a list the bot never saw, and every answer after one behind."""
    logs: list[str] = []

    async def body(url: str, server: ProtocolServer) -> tuple[str, str, str, dict[str, Any], list[int], str]:
        server.refusal_pause = 0.0
        conns = await _room_of_four(url)
        for ws in conns:
            await _until(ws, "notify", ("beginning",))  # the room's table has started
        (room,) = server.rooms.values()
        assert room.table is not None
        mover, _ = room.table.act()
        others = [asyncio.create_task(_answering(ws)) for s, ws in enumerate(conns) if s != mover]
        me = conns[mover]
        first = await _until(me, "act")
        timed_out = (await _until(me, "error"))["message"]  # 1 s without an answer: played for
        second = await _until(me, "act")  # the others answered: its next act message waits
        await me.send(json.dumps({"actIndex": first["indexRange"] + 1}))  # not even an answer to the first
        invalid = (await _until(me, "error"))["message"]
        await me.send('{"actIndex": 0}')  # the late answer to the first, while the second waits
        late = (await _until(me, "error"))["message"]
        played_for = list(room.table.played_for[0])
        choice = second["indexRange"]
        await me.send(json.dumps({"actIndex": choice}))  # its answer to the second: played
        notify = await _until(me, "notify", ("play",))
        assert notify["curPos"] == mover and notify["curAction"] == second["actionList"][choice], notify
        again = (await _until(me, "error"))["message"]  # silent again: played for, not aborted (the count restarted)
        for task in others:
            task.cancel()
        for ws in conns:
            await ws.close()
        return timed_out, invalid, late, first, played_for, again

    timed_out, invalid, late, first, played_for, again = async_support.run(
        with_server(body, logs=logs, move_timeout=1.0, abort_after=2))
    assert timed_out.startswith("no answer within 1 s: the server played")
    assert f"outside 0…{first['indexRange']}" in invalid and "late answer" in invalid, invalid
    assert late.startswith("too late: the server answered that act message for you") and "your turn now" in late, late
    assert sum(played_for) == 1  # the late answer played nothing
    assert again.startswith("no answer within 1 s: the server played"), again
    assert not any("in a row" in line for line in logs), logs


def test_a_seat_answered_for_twice_is_told_that_its_next_replies_are_both_late() -> None:
    """A bot that slept through two of its act messages has two late answers to give before one counts: each
    refusal says so, rather than 'it is your turn now' while its next reply would be refused as late too."""
    server = ProtocolServer(preset("competition"), log=lambda line: None, move_timeout=1.0, abort_after=0)
    table = ProtocolTable(preset("competition"), seed=3)
    table.start()
    room = Room("r", table=table)
    notices: dict[int, list[str]] = {}
    while True:  # every seat answered for in turn, until one of them is answered for a second time
        mover, _ = table.act()
        (seat, notice), *_ = server._play_for(room, table, mover)
        notices.setdefault(seat, []).append(notice["message"])
        if len(notices[seat]) == 2:
            break
    first, second = notices[seat]
    assert first.endswith("your next reply is taken as your late answer to that act message and is refused"), first
    assert second.endswith("your next 2 replies are taken as your late answers to the 2 act messages answered for "
                           "you, in order, and are refused"), second
    room.mover = seat  # its third act message waits
    late = server._late(room, seat, '{"actIndex": 0}')
    assert late.startswith("too late:") and "your turn now" not in late, late
    assert late.endswith("Your next reply is taken as the late answer to the next act message answered for you, "
                         "refused too."), late
    last = server._late(room, seat, '{"actIndex": 0}')
    assert last.endswith("It is your turn now: answer the act message waiting for you."), last
    assert not room.late[seat]


@pytest.mark.parametrize(("lang", "logged"), [
    ("en", "room r: seat {n} (myPos {pos}) did not answer within 1 s: the server played "),
    ("zh", "房间 r：座位{n}（myPos {pos}）在1秒内没有应答，服务器替它出了 "),
])
def test_the_log_counts_seats_from_1_and_the_messages_keep_the_protocols_number(
        monkeypatch: pytest.MonkeyPatch, lang: str, logged: str) -> None:
    """The operator's log names a seat as every other face of the project does, counted from 1, with the protocol's
    number beside it; what the seat itself is told keeps the protocol's number (its myPos), as on the wire."""
    monkeypatch.setenv("LANGUAGE", lang)
    logs: list[str] = []
    server = ProtocolServer(preset("competition"), log=logs.append, move_timeout=1.0, abort_after=0)
    table = ProtocolTable(preset("competition"), seed=3)
    table.start()
    room = Room("r", table=table)
    movers = []
    for _ in range(4):
        mover, _ = table.act()
        (seat, notice), *_ = server._play_for(room, table, mover)
        assert seat == mover and logs[-1].startswith(logged.format(n=mover + 1, pos=mover)), logs[-1]
        assert f"for you (seat {mover});" in notice["message"], notice
        movers.append(mover)
    assert len(set(movers)) > 1, movers  # several seats, each named by its own number


def test_a_seat_that_misses_k_act_messages_in_a_row_ends_its_room(tmp_path: Path) -> None:
    logs: list[str] = []

    seen = async_support.run(with_server(_one_seat_silent, out_dir=tmp_path, logs=logs, move_timeout=0.3, abort_after=2))
    reason = f"game aborted: seat {SILENT} did not answer 2 act messages in a row within 0.3 s"  # its myPos
    for messages in seen:
        errors = [m["message"] for m in messages if m["type"] == "error"]
        assert errors[-1] == reason and messages[-1]["type"] == "error", errors
    assert len(_plays(seen[SILENT])) == 1  # the first was played for it, the second ended the room
    assert f"room room-1: {LOGGED} did not answer 2 act messages in a row within 0.3 s (--abort-after-timeouts): " \
           "the room is aborted" in logs
    (record,) = tmp_path.iterdir()
    assert record.name == "room-1-001-aborted.json"
    meta = loads(record.read_text(encoding="utf-8"))["meta"]
    assert meta["aborted"] and meta["played_for"][SILENT] == 1



def test_a_room_that_ends_on_its_first_timeout_says_one_act_message(tmp_path: Path) -> None:
    """With --abort-after-timeouts 1 the first unanswered act message ends the room, and the words count one."""
    logs: list[str] = []
    seen = async_support.run(with_server(_one_seat_silent, out_dir=tmp_path, logs=logs, move_timeout=0.3, abort_after=1))
    reason = f"game aborted: seat {SILENT} did not answer 1 act message within 0.3 s"
    assert [m["message"] for m in seen[SILENT] if m["type"] == "error"][-1] == reason
    assert f"room room-1: {LOGGED} did not answer 1 act message within 0.3 s (--abort-after-timeouts): " \
           "the room is aborted" in logs

def test_a_seat_that_reads_nothing_ends_its_room_within_the_move_timeout(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that stops reading fills its socket, and then a send to it waits; the others must not wait
    with it until the WebSocket ping gives up on it (about 40 s). The full socket is stood in for by a send
    to that seat that never completes: the other seats get their messages, and the room ends once that
    seat has taken nothing for the move timeout."""
    logs: list[str] = []
    stuck: set[int] = set()  # the client port of the seat whose socket is full
    send = protocol_server.HeldConnection.send

    async def full_socket(self: Any, message: Any, *args: Any, **kwargs: Any) -> None:
        if self.remote_address[1] in stuck:  # as a full socket: the send waits until the connection is gone
            await self.wait_closed()
        await send(self, message, *args, **kwargs)

    monkeypatch.setattr(protocol_server.HeldConnection, "send", full_socket)

    async def body(url: str, server: ProtocolServer) -> list[list[dict[str, Any]]]:
        conns = [await connect(f"{url}/game/x", max_queue=None) for _ in range(SILENT + 1)]
        stuck.add(conns[SILENT].local_address[1])  # before the room's fourth seat starts its table
        conns += [await connect(f"{url}/game/x", max_queue=None) for _ in range(SILENT + 1, 4)]
        return list(await asyncio.gather(*(_silent(ws) if s == SILENT else _answering(ws, ConformanceBot(s))
                                           for s, ws in enumerate(conns))))

    seen = async_support.run(with_server(body, out_dir=tmp_path, logs=logs, move_timeout=0.3))
    assert seen[SILENT] == []  # nothing reached it, and its connection was dropped
    reason = f"game aborted: seat {SILENT} read none of its messages for 0.3 s"
    for seat, messages in enumerate(seen):
        if seat != SILENT:
            assert messages[0]["stage"] == "beginning" and messages[-1]["type"] == "error"
            assert messages[-1]["message"] == reason
    assert f"room room-1: {LOGGED} read none of its messages for 0.3 s: the room is aborted" in logs
    (record,) = tmp_path.iterdir()
    assert record.name == "room-1-001-aborted.json" and loads(record.read_text(encoding="utf-8"))["meta"]["aborted"]


# --- --max-connections-per-address ----------------------------------------------------------------

def test_addresses_are_counted_by_host_an_ipv6_client_by_its_64() -> None:
    count = AddressCount(8, count_loopback=False)
    assert count.key(("203.0.113.5", 4000)) == "203.0.113.5"
    assert count.key(("::ffff:203.0.113.5", 4000, 0, 0)) == "203.0.113.5"  # IPv4 mapped into IPv6
    assert count.key(("2001:db8:1:2:aaaa::1", 4000, 0, 0)) == count.key(("2001:db8:1:2:bbbb::9", 1, 0, 0)) \
        == "2001:db8:1:2::/64"
    assert count.key(("fe80::1%eth0", 1, 0, 2)) == "fe80::/64"
    for uncounted in (("127.0.0.1", 1), ("127.3.2.1", 1), ("::1", 1, 0, 0), ("::ffff:127.0.0.1", 1, 0, 0),
                      "/run/socket", ("not an address", 1), ()):
        assert count.key(uncounted) is None, uncounted
    assert AddressCount(8, count_loopback=True).key(("127.0.0.1", 1)) == "127.0.0.1"
    assert AddressCount(0, count_loopback=True).key(("203.0.113.5", 1)) is None  # 0: no limit, nothing counted
    key = count.add(("203.0.113.5", 1))
    count.remove(key)
    assert count.counts == {}


async def _refusal(url: str, source: str) -> tuple[int, str]:
    with pytest.raises(InvalidStatus) as refused:
        await connect(url, local_addr=(source, 0))
    response = refused.value.response
    return response.status_code, bytes(response.body or b"").decode()


def test_the_ninth_connection_from_one_address_is_refused_while_another_address_connects() -> None:
    logs: list[str] = []

    async def body(url: str, server: ProtocolServer) -> list[tuple[int, str]]:
        mine = [await connect(f"{url}/game/r{i}", local_addr=("127.0.0.1", 0)) for i in range(MAX_PER_ADDRESS)]
        refusals = [await _refusal(f"{url}/game/r9", "127.0.0.1") for _ in range(2)]
        other = await connect(f"{url}/game/r9", local_addr=("127.0.0.2", 0))  # another address: served
        await mine.pop().close()
        while server.addresses.counts["127.0.0.1"] >= MAX_PER_ADDRESS:  # its TCP connection ends a moment later
            await asyncio.sleep(0.01)
        mine.append(await connect(f"{url}/game/r10", local_addr=("127.0.0.1", 0)))  # one left: one more
        for ws in [*mine, other]:
            await ws.close()
        return refusals

    refusals = async_support.run(with_server(body, seating=Seating.NAMED, logs=logs, count_loopback=True))
    for status, text in refusals:
        assert status == 429 and text == f"too many connections from 127.0.0.1: at most {MAX_PER_ADDRESS} at once " \
                                          "from one address\n", text
    refused = [line for line in logs if line.startswith("refused connections from 127.0.0.1")]
    assert refused == [f"refused connections from 127.0.0.1: {MAX_PER_ADDRESS} at once from one address "
                       "(--max-connections-per-address)"]  # once, however many are refused
    assert sum("connection 1 " in line for line in logs) == MAX_PER_ADDRESS + 2  # each room's first and only


def test_connections_that_never_finish_their_handshake_count_too() -> None:
    async def body(url: str, server: ProtocolServer) -> tuple[int, str]:
        host, port = url.removeprefix("ws://").split(":")
        raw = [socket.create_connection((host, int(port))) for _ in range(2)]  # say nothing
        try:
            while server.addresses.counts["127.0.0.1"] < 2:
                await asyncio.sleep(0.01)
            return await _refusal(f"{url}/game/x", "127.0.0.1")
        finally:
            for sock in raw:
                sock.close()

    status, _ = async_support.run(with_server(body, max_per_address=2, count_loopback=True))
    assert status == 429


def test_our_client_says_why_it_was_refused() -> None:
    async def body(url: str, server: ProtocolServer) -> tuple[int, str]:
        async with connect(f"{url}/game/x"):
            return await asyncio.to_thread(_cli_client, "--url", f"{url}/game/x")

    code, said = async_support.run(with_server(body, max_per_address=1, count_loopback=True))
    assert code == 2 and "HTTP 429: too many connections from 127.0.0.1: at most 1 at once from one address" in said, said


def test_loopback_is_not_counted_by_default() -> None:
    """A competition on one machine runs every bot from 127.0.0.1 (and a reverse proxy on the server's
    machine makes every client a loopback one): the default limit leaves loopback alone."""

    async def body(url: str, server: ProtocolServer) -> int:
        conns = [await connect(f"{url}/game/x", local_addr=("127.0.0.1", 0)) for _ in range(3 * MAX_PER_ADDRESS)]
        rooms = len(server.rooms)
        for ws in conns:
            await ws.close()
        return rooms

    assert async_support.run(with_server(body)) == 3 * MAX_PER_ADDRESS // 4  # rooms of four, all started


# --- the operator's words and the command line ----------------------------------------------------

def test_the_operator_is_told_the_limits_in_their_language(monkeypatch: pytest.MonkeyPatch) -> None:
    server = ProtocolServer(preset("competition"), move_timeout=30, log=lambda _: None)
    assert server.limits() == [
        "a seat that does not answer within 30 s is played for; 3 timeouts of one seat in a row abort its room",
        f"at most {MAX_PER_ADDRESS} connections at once from one client address (loopback not counted)"]
    assert ProtocolServer(preset("competition"), max_per_address=0, log=lambda _: None).limits() == [
        "no time limit for an answer, as in the protocol (--move-timeout)",
        "no limit on connections from one client address"]
    one = ProtocolServer(preset("competition"), move_timeout=30, abort_after=1, log=lambda _: None)
    assert one.limits()[0] == "a seat that does not answer within 30 s is played for; 1 timeout of one seat aborts its room"
    monkeypatch.setenv("LANGUAGE", "zh")
    assert server.limits()[0] == "座位在30秒内没有应答时由服务器代为出牌；同一座位连续超时3次则中止其房间"
    assert one.limits()[0] == "座位在30秒内没有应答时由服务器代为出牌；同一座位连续超时1次则中止其房间"


@pytest.mark.parametrize(("lang", "games", "said"), [
    ("en", 1, "(each room takes the next four connections, whatever the name): 1 game per room, preset competition"),
    ("en", 3, "(each room takes the next four connections, whatever the name): 3 games per room, preset competition"),
    ("zh", 1, "（每个房间接收接下来的四个连接，不论名字）：每个房间1场，预设规则 competition"),
])
def test_the_serving_line_counts_the_games_in_words(monkeypatch: pytest.MonkeyPatch, lang: str, games: int,
                                                    said: str) -> None:
    monkeypatch.setenv("LANGUAGE", lang)
    logs: list[str] = []
    server = ProtocolServer(preset("competition"), games=games, seed=7, log=logs.append)

    async def serve_until_said() -> None:
        running = asyncio.create_task(server.run("127.0.0.1", 0))
        while not logs:
            await asyncio.sleep(0.01)
        server.done.set()
        await running

    async_support.run(serve_until_said())
    assert said in logs[0], logs


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_operator_line_of_the_server_is_in_the_catalogue(lang: str) -> None:
    # messages.py: why a reply is refused, which the log says in the operator's language
    ids = extract_msgids([Path(protocol_server.__file__), Path(protocol_cli.__file__), Path(protocol_messages.__file__)])
    assert len(ids) >= 16
    assert missing("cli", lang, ids) == []


def _cli_client(*args: str) -> tuple[int, str]:
    _mount()
    result = CliRunner().invoke(app, ["protocol-client", *args])
    return result.exit_code, result.output


def _cli(*args: str) -> tuple[int, str]:
    _mount()
    with socket.socket() as taken:  # were an argument let through, listening fails at once (the test never hangs)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = CliRunner().invoke(app, ["protocol-server", "--port", str(taken.getsockname()[1]), *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("args", "said"), [
    (["--move-timeout", "0"], "--move-timeout must be a positive number of seconds, not 0.0"),
    (["--move-timeout", "-1"], "--move-timeout must be a positive number of seconds, not -1.0"),
    (["--move-timeout", "nan"], "--move-timeout must be a positive number of seconds, not nan"),
    (["--move-timeout", "inf"], "--move-timeout must be a positive number of seconds, not inf"),
    (["--abort-after-timeouts", "2"], "--abort-after-timeouts needs --move-timeout (without it no seat times out)"),
    (["--move-timeout", "5", "--abort-after-timeouts", "-1"], "--abort-after-timeouts must be at least 0, not -1"),
    (["--max-connections-per-address", "-1"], "--max-connections-per-address must be at least 0, not -1"),
], ids=["zero", "negative", "nan", "inf", "abort-alone", "abort-negative", "connections-negative"])
def test_protocol_server_refuses_limits_it_cannot_use_in_words(args: list[str], said: str) -> None:
    code, output = _cli(*args)
    assert code == 2 and output.strip() == f"error: {said}", output


@pytest.mark.parametrize(("lang", "args", "said"), [
    ("en", ["--games", "0"], "error: --games must be at least 1, not 0"),
    ("zh", ["--games", "0"], "错误：--games 至少为 1，而不是 0"),
    ("en", ["--seating", "rooms"], 'error: --seating must be one of order, named, not "rooms"'),
    ("zh", ["--seating", "rooms"], '错误：--seating 须为 order, named 之一，而不是 "rooms"'),
], ids=["games-en", "games-zh", "seating-en", "seating-zh"])
def test_protocol_server_refuses_its_options_in_the_readers_language(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                                    args: list[str], said: str) -> None:
    monkeypatch.setenv("LANGUAGE", lang)
    code, output = _cli(*args)
    assert code == 2 and output.strip() == said, output


def test_the_server_refuses_limits_it_cannot_use_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"games": 0}, "--games 至少为 1，而不是 0"),
        ({"move_timeout": -1.0}, "--move-timeout 须为正的秒数，而不是 -1.0"),
        ({"abort_after": -1}, "--abort-after-timeouts 至少为 0，而不是 -1"),
        ({"max_per_address": -2}, "--max-connections-per-address 至少为 0，而不是 -2")]
    for kwargs, words in cases:
        with pytest.raises(ProtocolError) as refused:
            ProtocolServer(preset("competition"), log=lambda _: None, **kwargs)
        assert said(refused.value) == words


def test_protocol_server_takes_the_limits() -> None:
    code, output = _cli("--move-timeout", "2.5", "--abort-after-timeouts", "0", "--max-connections-per-address", "0")
    assert code == 2 and "cannot listen on" in output, output  # every argument was taken: it went on to listen


def test_the_commands_default_is_the_servers() -> None:
    default = inspect.signature(protocol_cli.protocol_server).parameters["max_connections_per_address"].default
    assert default == MAX_PER_ADDRESS
