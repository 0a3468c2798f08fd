"""A hostile bot author against ``guandan protocol-server``: crafted frames, floods, names and arguments.

Each test is one attack that once did harm (a room aborted, a frame that could not be sent, the
server's memory or loop taken, a deal known in advance, a traceback). The server runs in-process on
a free loopback port, as in test_websocket.py.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

import async_support
from guandan.agents.base import make_agent
from guandan.cli import _mount, app
from guandan.core.match import new_match
from guandan.core.record import loads
from guandan.core.rules import preset
from guandan.protocol.client import ClientReport, ProtocolPlayer, play
from guandan.protocol.errors import ProtocolError
from guandan.protocol.messages import EngineView, MessageStream, parse_reply
from guandan.protocol.seating import MAX_NAME, Seating, client_name, name_problem, room_key
from guandan.protocol.server import MAX_FRAME, REFUSAL_PAUSE, ProtocolServer

from .conformance_bot import ConformanceBot
from .helpers import bot_client, with_server


async def _until(ws: ClientConnection, kind: str, stages: tuple[str, ...] = ()) -> dict[str, Any]:
    """The next message of type ``kind`` (and one of ``stages``, if given) on ``ws``; others are skipped."""
    while True:
        msg = json.loads(await ws.recv())
        if msg["type"] == kind and (not stages or msg["stage"] in stages):
            return msg


async def _seated(url: str, name: str = "x") -> list[ClientConnection]:
    """Four connections to one room, each read up to its ``beginning`` (each keeps every frame it has
    not read, so that one that stopped reading still closes at once)."""
    conns = [await connect(f"{url}/game/{name}", max_queue=None) for _ in range(4)]
    begins = [await _until(c, "notify", ("beginning",)) for c in conns]
    assert [b["myPos"] for b in begins] == [0, 1, 2, 3]
    return conns


async def _mover(server: ProtocolServer, conns: list[ClientConnection]) -> int:
    """The seat to act, once its act message has reached it."""
    (room,) = server.rooms.values()
    assert room.table is not None
    seat, _ = room.table.act()
    await _until(conns[seat], "act")
    return seat


async def _close(conns: list[ClientConnection]) -> None:
    for c in conns:
        await c.close()


# --- crafted replies ------------------------------------------------------------------------

HUGE_INT = '{"actIndex": ' + "1" * 5000 + "}"  # more digits than Python converts: json.loads raised ValueError
LONE_SURROGATE = '{"actIndex": "\\ud800"}'  # quoted back in the error, it made a frame that is not UTF-8


def test_parse_reply_refuses_a_number_too_long_to_read() -> None:
    with pytest.raises(ProtocolError, match="too long"):
        parse_reply(HUGE_INT, 10)


LONG = "x" * 50_000  # a string about as long as a frame may be, for the refusal to repeat


@pytest.mark.parametrize(("frame", "said"), [
    ('{"actIndex": "' + LONG + '"}', 'actIndex must be an integer, not "' + "x" * 58 + "…"),
    ('{"actIndex": ' + "9" * 4000 + "}", "actIndex " + "9" * 59 + "… is outside 0…10"),
    ('{"actIndex": -1' + "0" * 4000 + "}", "actIndex -" + "1" + "0" * 57 + "… is outside 0…10"),
    ("x" + LONG, 'the reply is not JSON: "x' + "x" * 57 + "…"),
], ids=["long-string", "long-int", "long-negative", "long-text"])
def test_a_wrong_reply_is_quoted_cut_short(frame: str, said: str) -> None:
    """The refusal of a reply repeated what the client sent uncut (actIndex as a string of 50,000 characters, an
    integer of 4,000 digits), back to the client and into the server's log; text that is not JSON was cut at 80
    characters with nothing to show it was cut."""
    with pytest.raises(ProtocolError) as e:
        parse_reply(frame, 10)
    assert str(e.value) == said


@pytest.mark.parametrize(("frame", "said"), [(HUGE_INT, "a number too long to read"),
                                             (LONE_SURROGATE, 'not "\\ud800"'),
                                             ('{"actIndex": "' + LONG + '"}', 'not "' + "x" * 58 + "…; answer again")],
                         ids=["huge-int", "lone-surrogate", "long-string"])
def test_a_crafted_reply_is_refused_and_its_room_plays_on(frame: str, said: str) -> None:
    async def body(url: str, server: ProtocolServer) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
        conns = await _seated(url)
        mover = await _mover(server, conns)
        await conns[mover].send(frame)
        error = await _until(conns[mover], "error")
        await conns[mover].send('{"actIndex": 0}')
        played = await _until(conns[(mover + 1) % 4], "notify", ("play", "tribute", "back"))
        aborted = list(server.aborted)
        await _close(conns)
        return error, played, aborted

    error, played, aborted = async_support.run(with_server(body))
    assert said in error["message"] and error["message"].endswith("answer again"), error
    assert played["type"] == "notify" and aborted == []


@pytest.mark.parametrize(("lang", "logged"), [
    ("en", ['room room-1: seat {n} (myPos {pos}): the reply is not JSON: "x"',
            "room room-1: seat {n} (myPos {pos}): actIndex 9999 is outside 0…{last}",
            'room room-1: seat {n} (myPos {pos}): the reply must be an object {{"actIndex": i}}']),
    ("zh", ['房间 room-1：座位{n}（myPos {pos}）：回复不是 JSON："x"',
            "房间 room-1：座位{n}（myPos {pos}）：actIndex 9999 不在 0…{last} 之内",
            '房间 room-1：座位{n}（myPos {pos}）：回复必须是对象 {{"actIndex": i}}']),
])
def test_the_log_says_why_a_reply_was_refused_in_the_operators_language(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                                        logged: list[str]) -> None:
    """The operator reads why a reply was refused in their language, from the catalogue, as the rest of the line;
    the bot is told in the protocol's English, whatever the server's language."""
    monkeypatch.setenv("LANGUAGE", lang)
    logs: list[str] = []

    async def body(url: str, server: ProtocolServer) -> tuple[int, int, list[str]]:
        conns = await _seated(url)
        mover = await _mover(server, conns)
        (room,) = server.rooms.values()
        assert room.table is not None
        _, act = room.table.act()
        told = []
        for frame in ("x", '{"actIndex": 9999}', "[]"):
            await conns[mover].send(frame)
            told.append((await _until(conns[mover], "error"))["message"])
        await _close(conns)
        return mover, int(act["indexRange"]), told

    mover, last, told = async_support.run(with_server(body, logs=logs))
    said = [line.format(n=mover + 1, pos=mover, last=last) for line in logged]
    seat = said[0].split("：" if lang == "zh" else ": ")[1]
    assert [line for line in logs if seat in line][:3] == said, logs  # the refusals, before the room ended
    assert told == ['the reply is not JSON: "x"; answer again', f"actIndex 9999 is outside 0…{last}; answer again",
                    'the reply must be an object {"actIndex": i}; answer again'], told


# --- names ----------------------------------------------------------------------------------

async def _handshake(url: str, path: bytes) -> bytes:
    """The server's answer to a WebSocket upgrade for ``path``, sent as raw bytes (a client library
    would quote a control character)."""
    host, port = url.removeprefix("ws://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    answer = await reader.read(1000)
    writer.close()
    return answer


@pytest.mark.parametrize("seating", list(Seating))
@pytest.mark.parametrize("name", [b"\x1b[2J\x1b[Hroom-1:done", b"a\rroom-1:aborted", b"a\x00b", b"\x7f",
                                  b"x" * (MAX_NAME + 1)], ids=["escape", "carriage-return", "nul", "del", "long"])
def test_a_name_with_control_characters_or_too_long_is_refused(name: bytes, seating: Seating) -> None:
    """A name reaches the operator's log as it is (an escape sequence clears their terminal, a carriage
    return rewrites the line), and under NAMED a record's file name (a NUL or 300 characters cannot be one)."""
    logs: list[str] = []

    async def body(url: str, server: ProtocolServer) -> bytes:
        return await _handshake(url, b"/game/" + name)

    answer = async_support.run(with_server(body, seating=seating, logs=logs))
    assert answer.startswith(b"HTTP/1.1 400 ") and b"printable characters" in answer, answer
    assert not any("connection 1" in line for line in logs)


def test_names_that_are_served() -> None:
    assert client_name("/game/client1") == "client1" and client_name("/game/gd/0000002?x=1") == "gd/0000002"
    assert client_name("/game/" + "x" * MAX_NAME) == "x" * MAX_NAME and client_name("/game/%E4%B8%AD") == "%E4%B8%AD"
    for bad in ("/game/a\tb", "/game/a\x00", "/game/" + "x" * (MAX_NAME + 1), "/game/.", "/game/"):
        assert client_name(bad) is None and room_key(bad, Seating.NAMED) is None
    assert name_problem("/play/x", Seating.ORDER) == "connect to ws://HOST:PORT/game/{name}"
    assert "may not contain /" in str(name_problem("/game/gd/2", Seating.NAMED))


# --- the deal known in advance --------------------------------------------------------------

def test_without_a_seed_no_client_can_compute_the_hands() -> None:
    """The seed was 0 unless the operator gave one, and rooms are named room-1, room-2, … (or by the
    client): a bot could deal the room's game itself and know every hand before the first play."""

    async def body(url: str, server: ProtocolServer) -> tuple[list[list[str]], list[list[str]]]:
        conns = [await connect(f"{url}/game/x") for _ in range(4)]
        got = [(await _until(c, "notify", ("beginning",)))["handCards"] for c in conns]
        match = new_match(server.rules, "0:room-1:0", server.config)  # what the old default dealt
        stream = MessageStream()
        opening = stream.on_events([match.deal_start_event(), *match.deal.events], EngineView(match))
        predicted = [m["handCards"] for _, m in opening]
        await _close(conns)
        return got, predicted

    got, predicted = async_support.run(with_server(body, seed=None))
    assert all(len(h) == 27 for h in got) and all(g != p for g, p in zip(got, predicted, strict=True))
    servers = [ProtocolServer(preset("competition"), log=lambda _: None) for _ in range(2)]
    assert servers[0].seed != servers[1].seed and len(str(servers[0].seed)) >= 16
    assert ProtocolServer(preset("competition"), seed=5).seed == 5  # a given seed deals the same again


def test_the_log_states_the_seed_to_replay_with() -> None:
    logs: list[str] = []
    server = ProtocolServer(preset("competition"), log=logs.append)

    async def first_line() -> str:
        task = asyncio.create_task(server.run("127.0.0.1", 0))
        while not logs:
            await asyncio.sleep(0.01)
        task.cancel()
        return logs[0]

    assert f"--seed {server.seed}" in async_support.run(first_line())


# --- floods ---------------------------------------------------------------------------------

def test_a_seat_that_floods_and_never_reads_its_errors_holds_up_only_itself() -> None:
    """Every frame used to be queued for the room's table, which answered each refusal itself: a seat
    whose socket was full (it never read) stopped the table, and its frames piled up in the server's
    memory (hundreds of MB in seconds). Its refusals are now sent on its own connection."""

    async def body(url: str, server: ProtocolServer) -> tuple[dict[str, Any], int]:
        conns = await _seated(url)
        mover = await _mover(server, conns)
        flooder = (mover + 1) % 4
        (room,) = server.rooms.values()
        stuck, release = room.conns[flooder], asyncio.Event()
        game_send = stuck.send

        async def full_socket(message: Any, *args: Any, **kwargs: Any) -> None:
            if '"type":"error"' in str(message):  # its errors: as if its socket were full
                await release.wait()
            await game_send(message, *args, **kwargs)

        stuck.send = full_socket  # type: ignore[method-assign]
        for _ in range(50):
            await conns[flooder].send('{"actIndex": 0}')
        await conns[mover].send('{"actIndex": 0}')
        try:
            played = await asyncio.wait_for(_until(conns[(mover + 2) % 4], "notify", ("play", "tribute", "back")), 10)
            queued = room.inbox.qsize()
        finally:
            server.refusal_pause = 0.0  # the rest of the flood is refused at once: the test ends sooner
            release.set()
        await _close(conns)
        return played, queued

    played, queued = async_support.run(with_server(body))
    assert played["type"] == "notify" and queued == 0


def test_each_refused_frame_costs_its_connection_a_pause() -> None:
    """A seat that floods frames and reads the refusals took the event loop all rooms share (another
    room's game slowed from about 800 to 15–70 actions a second); each refusal now pauses the reading
    of that connection alone."""

    async def body(url: str, server: ProtocolServer) -> float:
        conns = await _seated(url)
        mover = await _mover(server, conns)
        flooder = conns[(mover + 1) % 4]
        t0 = time.monotonic()
        for _ in range(6):
            await flooder.send("not json")
        for _ in range(6):
            assert "turn" in (await _until(flooder, "error"))["message"]
        took = time.monotonic() - t0
        await _close(conns)
        return took

    assert async_support.run(with_server(body)) >= 5 * REFUSAL_PAUSE


def test_a_frame_longer_than_any_reply_closes_its_connection() -> None:
    async def body(url: str, server: ProtocolServer) -> tuple[int | None, list[str]]:
        conns = await _seated(url)
        mover = await _mover(server, conns)
        await conns[mover].send('{"actIndex": 0, "pad": "' + "x" * MAX_FRAME + '"}')
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await conns[mover].recv()
        notice = await _until(conns[(mover + 1) % 4], "error")
        await _close(conns)
        return closed.value.rcvd.code if closed.value.rcvd else None, [notice["message"]]

    code, notices = async_support.run(with_server(body))
    assert code == 1009 and "aborted" in notices[0]


# --- records --------------------------------------------------------------------------------

def test_a_room_name_used_again_never_overwrites_an_earlier_record(tmp_path: Path) -> None:
    """Under named seating anyone may fill a room of a name that has played: its game's record took the
    earlier room's file name, and the earlier room's record was lost."""

    async def body(url: str, server: ProtocolServer) -> None:
        for _ in range(2):
            await asyncio.gather(*[bot_client(f"{url}/game/final", ConformanceBot(s)) for s in range(4)])

    async_support.run(with_server(body, out_dir=tmp_path, seating=Seating.NAMED))
    records = sorted(p.name for p in tmp_path.iterdir())
    assert records == ["final-001.json", "final~2-001.json"], records
    first, second = (loads((tmp_path / r).read_text(encoding="utf-8")) for r in records)
    assert first != second and first["meta"]["room"] == second["meta"]["room"] == "final"


def test_a_record_that_cannot_be_written_is_logged_and_the_game_goes_on(tmp_path: Path) -> None:
    """A record that could not be written (here --out is a file) aborted the room, and told the bots the
    server's exception and path: "internal error: FileExistsError: [Errno 17] File exists: '/…'"."""
    not_a_folder = tmp_path / "records"
    not_a_folder.write_text("", encoding="utf-8")
    logs: list[str] = []
    errors: list[str] = []

    async def body(url: str, server: ProtocolServer) -> list[list[dict[str, Any]]]:
        return list(await asyncio.gather(*[bot_client(f"{url}/game/x", ConformanceBot(s), errors) for s in range(4)]))

    seen = async_support.run(with_server(body, out_dir=not_a_folder, logs=logs))
    assert errors == [] and all(s[-1]["stage"] == "gameResult" for s in seen)
    assert any("cannot write" in line and "records" in line for line in logs), logs


@pytest.mark.parametrize(("lang", "logged"), [
    ("en", "room room-1: internal error: KeyError: ('<Card object at 0x7f>', {seat}): the room is aborted"),
    ("zh", "房间 room-1：内部错误：KeyError: ('<Card object at 0x7f>', {seat})，房间中止"),
])
def test_an_internal_error_tells_the_bots_no_python(monkeypatch: pytest.MonkeyPatch, lang: str, logged: str) -> None:
    """The bots are told the room is aborted, with nothing of Python; the operator is told what broke in one line of
    their language, as every other end of a room is."""
    monkeypatch.setenv("LANGUAGE", lang)
    notices: list[str] = []
    movers: list[int] = []

    async def body(url: str, server: ProtocolServer) -> None:
        conns = await _seated(url)
        mover = await _mover(server, conns)
        movers.append(mover)
        (room,) = server.rooms.values()
        assert room.table is not None

        def broken(seat: int, index: Any) -> Any:
            raise KeyError(("<Card object at 0x7f>", seat))

        room.table.answer = broken  # type: ignore[method-assign]
        await conns[mover].send('{"actIndex": 0}')
        notices.extend([(await _until(c, "error"))["message"] for c in conns])
        await _close(conns)

    logs: list[str] = []
    async_support.run(with_server(body, logs=logs))
    assert all(n.startswith("game aborted: internal error") for n in notices), notices
    assert not any("KeyError" in n or "0x7f" in n for n in notices), notices
    ended = logs[logs.index(next(line for line in logs if "KeyError" in line)):]  # the operator is told what broke
    assert ended == [logged.format(seat=movers[0])], logs


# --- command-line arguments -----------------------------------------------------------------

def _cli(*args: str) -> tuple[int, str]:
    _mount()
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_protocol_server_says_why_it_cannot_listen_in_words() -> None:
    """It said "error while attempting to bind on address ('127.0.0.1', PORT): address already in use"."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, said = _cli("protocol-server", "--port", str(port))
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}: the address is already in use" in said, said
    assert "('127.0.0.1'" not in said


def test_protocol_server_refuses_an_out_that_cannot_be_a_folder(tmp_path: Path) -> None:
    """It served, and the first record (a game later) aborted the room with the server's exception."""
    a_file = tmp_path / "records"
    a_file.write_text("", encoding="utf-8")
    with socket.socket() as taken:  # were --out let through, listening fails at once (the test never hangs)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, said = _cli("protocol-server", "--out", str(a_file), "--port", str(taken.getsockname()[1]))
    assert code == 2 and f"{a_file} is a file, not a folder" in said, said


def test_protocol_client_refuses_a_url_it_cannot_use_in_words() -> None:
    """A port out of range or not a number, or an unclosed IPv6 bracket, ended in urllib's ValueError
    traceback; port 0 was read as 80."""
    for url in ("ws://127.0.0.1:99999/game/x", "ws://127.0.0.1:notaport/game/x", "ws://[::1/game/x",
                "ws://127.0.0.1:0/game/x"):
        code, said = _cli("protocol-client", "--url", url)
        assert code == 2 and said.strip() == f"error: {url} is not a ws:// URL", said


def test_protocol_client_refuses_a_time_budget_that_is_no_time() -> None:
    for budget in ("0", "-1", "nan"):
        code, said = _cli("protocol-client", "--url", "ws://127.0.0.1:1/game/x", "--time-budget", budget)
        assert code == 2 and "--time-budget must be a positive number of seconds" in said, said


def test_protocol_client_says_why_it_cannot_connect_in_words() -> None:
    """It said "[Errno 111] Connect call failed ('127.0.0.1', PORT)", and nothing of a refusal's reason."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))  # bound, never listening: connections to it are refused
        url = f"ws://127.0.0.1:{closed.getsockname()[1]}/game/x"
        code, said = _cli("protocol-client", "--url", url)
    assert code == 2 and said.strip() == f"error: cannot connect to {url}: the connection was refused", said

    async def body(url: str, server: ProtocolServer) -> tuple[int, str]:
        return await asyncio.to_thread(_cli, "protocol-client", "--url", f"{url}/game/..")

    code, said = async_support.run(with_server(body))
    assert code == 2 and "HTTP 400: /game/{name} needs a name" in said, said


# --- our client against a hostile server ----------------------------------------------------

BEGINNING = {"type": "notify", "stage": "beginning", "handCards": ["S3"] * 27, "myPos": 0, "curRank": "2",
             "selfRank": "2", "oppoRank": "2"}


@pytest.mark.parametrize(("frame", "said"), [
    ("[" * 100_000, "not JSON"),
    ('{"type": "notify", "stage": "beginning", "myPos": ' + "1" * 5000 + "}", "a number too long"),
    ('{"type": "notify", "stage": "beginning"}', 'no "myPos" field'),
    ('{"type": "notify", "stage": "beginning", "myPos": "x", "curRank": "2"}', 'not "x"'),
    ('{"type": "notify", "stage": "play", "curPos": 9, "curAction": ["PASS", "PASS", "PASS"]}', "not 9"),
    ('{"type": "notify", "stage": "tribute", "result": 5}', "wrong type"),
    ('"x"', "not a message"),
], ids=["deep", "huge-int", "no-mypos", "bad-mypos", "bad-seat", "bad-result", "not-an-object"])
def test_our_client_reports_a_frame_it_cannot_read_and_plays_on(frame: str, said: str) -> None:
    """Each of these ended protocol-client with a traceback (RecursionError, ValueError, KeyError, IndexError,
    TypeError)."""
    player = ProtocolPlayer(make_agent("greedy", 0), preset("competition"))
    player.handle(json.dumps(BEGINNING))
    assert player.handle(frame) is None
    (error,) = player.report.errors
    assert said in error and "Error" not in error, error
    act = {"type": "act", "stage": "play", "handCards": ["S3"], "actionList": 5}  # what it reads next: an act
    assert player.handle(json.dumps(act)) == '{"actIndex":0}' and "cannot be read" in player.report.errors[-1]


def test_our_client_reports_a_connection_cut_mid_game() -> None:
    """A server that dropped the connection without a close frame ended protocol-client with a traceback."""

    async def cut(ws: ServerConnection) -> None:
        await ws.send(json.dumps(BEGINNING))
        await asyncio.sleep(0.1)
        assert ws.transport is not None
        ws.transport.abort()

    async def body() -> ClientReport:
        async with serve(cut, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            return await play(f"ws://127.0.0.1:{port}/game/x", make_agent("greedy", 0), preset("competition"))

    report = async_support.run(body())
    assert report.messages == 1 and report.result is None
    assert report.errors == ["the connection was cut (no close frame received or sent)"], report.errors


def test_a_client_that_pings_and_never_reads_cannot_fill_the_servers_memory() -> None:
    """websockets answers each ping with a pong by itself: a client that sent pings as fast as it could
    and read nothing had the server keep every pong unsent (356 MB of pings in 10 s: 340 MB more memory)."""
    ping = bytes([0x89, 0x80 | 125]) + b"\0\0\0\0" + b"p" * 125  # a masked ping with the largest payload

    async def body(url: str, server: ProtocolServer) -> tuple[int, int]:
        host, port = url.removeprefix("ws://").split(":")
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # its pongs back up soon
        sock.connect((host, int(port)))
        reader, writer = await asyncio.open_connection(sock=sock)
        writer.write(b"GET /game/x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        await reader.readuntil(b"\r\n\r\n")
        sent = 0
        try:
            while sent < 16 * 2**20:  # a server that reads on takes all of it
                writer.write(ping * 256)
                await asyncio.wait_for(writer.drain(), 1)
                sent += 256 * len(ping)
        except TimeoutError:
            pass  # the server stopped reading
        (room,) = server.rooms.values()
        unsent = room.conns[0].transport.get_write_buffer_size()
        writer.transport.abort()
        return sent, unsent

    sent, unsent = async_support.run(with_server(body, seating=Seating.NAMED))
    assert sent < 16 * 2**20 and unsent < 2**20, (sent, unsent)


def test_a_seat_that_never_answers_the_close_does_not_hold_the_others_open() -> None:
    """A room's connections were closed one after another, each waiting up to 10 s for its peer's close
    frame: seat 0 silent, the other seats were held open 10 s after their game had ended."""

    async def body(url: str, server: ProtocolServer) -> float:
        host, port = url.removeprefix("ws://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))  # seat 0: never reads, never closes
        writer.write(b"GET /game/x HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        await reader.readuntil(b"\r\n\r\n")
        conns = [await connect(f"{url}/game/x", max_queue=None) for _ in range(3)]  # seats 1–3
        for c in conns:
            await _until(c, "notify", ("beginning",))
        await conns[0].close()  # seat 1 leaves: the room ends
        assert "aborted" in (await _until(conns[1], "error"))["message"]
        t0 = time.monotonic()
        with pytest.raises(ConnectionClosed):
            while True:
                await conns[1].recv()
        held = time.monotonic() - t0
        writer.transport.abort()
        await _close(conns)
        return held

    assert async_support.run(with_server(body)) < 5


def test_our_client_never_prints_a_servers_control_characters() -> None:
    """A server's error message and close reason reached the terminal as they were: "\\x1b[2J" cleared it."""
    player = ProtocolPlayer(make_agent("greedy", 0), preset("competition"))
    player.handle(json.dumps({"type": "error", "stage": "error", "message": "\x1b[2J\x1b[Hall is well\r"}))
    player.handle(json.dumps({"type": "error", "stage": "error", "message": {"x": None}}))
    assert player.report.errors == ["\\u001b[2J\\u001b[Hall is well\\u000d", '{"x": null}']

    async def close_badly(ws: ServerConnection) -> None:
        await ws.close(1011, "\x1b[31mred")

    async def body() -> ClientReport:
        async with serve(close_badly, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            return await play(f"ws://127.0.0.1:{port}/game/x", make_agent("greedy", 0), preset("competition"))

    (error,) = async_support.run(body()).errors
    assert "\x1b" not in error and "\\u001b[31mred" in error, error
