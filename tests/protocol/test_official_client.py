"""Regression tests of issue #14's protocol part: the platform's official example clients, unmodified,
play whole games against ``guandan protocol-server``'s defaults (rooms by connection order, whatever
the name), and ``gameResult.draws`` is four per-seat counts that they can format with ``*draws``."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.asyncio.client import ClientConnection, connect

import async_support
from guandan.cli import _mount, app
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.protocol.messages import encode
from guandan.protocol.seating import Seating, client_name, parse_seating, room_key
from guandan.protocol.server import ProtocolServer
from guandan.protocol.table import ProtocolTable

from .helpers import SHORT, with_server
from .official_client import OfficialExampleClient, UnknownMessage


def _seated(server: ProtocolServer) -> int:
    """Connections the server has seated so far (those of ended rooms included)."""
    return sum(len(r.conns) for r in server.rooms.values()) + 4 * server.rooms_ended


async def _registered(server: ProtocolServer, n: int) -> None:
    """Wait until the server has seated ``n`` connections (the official clients are started one after
    another: each is connected before the next one starts)."""
    for _ in range(2000):
        if _seated(server) >= n:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the server never seated connection {n}")


async def _play(ws: ClientConnection, client: OfficialExampleClient) -> None:
    async for frame in ws:
        reply = client.received_message(frame)
        if reply is not None:
            await ws.send(reply)


async def _official_game(url: str, server: ProtocolServer, clients: list[OfficialExampleClient],
                         paths: list[str] | None = None) -> None:
    conns: list[ClientConnection] = []
    base = _seated(server)
    try:
        for i, c in enumerate(clients):
            conns.append(await connect(url + (paths[i] if paths else c.path), max_size=2**22))
            await _registered(server, base + i + 1)
        await asyncio.gather(*[_play(ws, c) for ws, c in zip(conns, clients, strict=True)])
    finally:
        for ws in conns:
            await ws.close()


def test_official_example_clients_play_whole_games_on_the_defaults() -> None:
    """client1 … client4 connect to /game/client1 … /game/client4 in order: one room, seats 0…3, two
    whole games from level 2, every message parsed by the example's parser, gameResult formatted."""
    clients = [OfficialExampleClient(n, seed=n) for n in (1, 2, 3, 4)]

    async def body(url: str, server: ProtocolServer) -> ProtocolServer:
        await _official_game(url, server, clients)
        return server

    server = async_support.run(with_server(body, games=2, config=None))
    assert server.rooms_ended == 1 and server.aborted == [] and server.rooms == {}
    for seat, c in enumerate(clients):
        seen = c.state.seen
        assert seen[0] == ("beginning", "notify") and seen[-1] == ("gameResult", "notify")
        assert seen.count(("gameOver", "notify")) == 2 and c.acts > 0
        assert c.state.lines[0].startswith(f"游戏开始, 我是{seat}号位")  # seats by connection order
        assert c.state.lines[-1] == "其中平局次数：0号位平局0次，1号位平局0次，2号位平局0次，3号位平局0次"
    wins = [int(n) for n in re.findall(r"胜利(\d+)次", clients[0].state.lines[-2])]
    assert sum(wins) == 4 and wins[0] == wins[2] and wins[1] == wins[3]  # two games, two winners each


def test_any_names_and_the_fifth_connection_opens_the_next_room() -> None:
    """The name is ignored: eight connections with mixed names (one nested, as some clients use) fill
    two rooms in order; both play to the end."""
    first = [OfficialExampleClient(n, seed=10 + n) for n in (1, 2, 3, 4)]
    second = [OfficialExampleClient(n, seed=20 + n) for n in (1, 2, 3, 4)]
    names = ["/game/client1", "/game/x", "/game/client1", "/game/gd/0000002"]

    async def body(url: str, server: ProtocolServer) -> ProtocolServer:
        t1 = asyncio.create_task(_official_game(url, server, first, names))
        await _registered(server, 4)
        assert [r.name for r in server.rooms.values()] == ["room-1"]
        t2 = asyncio.create_task(_official_game(url, server, second, list(reversed(names))))
        await asyncio.gather(t1, t2)
        return server

    server = async_support.run(with_server(body, config=SHORT))
    assert server.rooms_ended == 2 and server.aborted == []
    for group in (first, second):
        assert [c.state.lines[0].split("号位")[0][-1] for c in group] == ["0", "1", "2", "3"]
        assert all(c.state.seen[-1] == ("gameResult", "notify") for c in group)


def test_a_client_leaving_before_the_start_frees_its_seat() -> None:
    clients = [OfficialExampleClient(n, seed=n) for n in (1, 2, 3, 4)]

    async def body(url: str, server: ProtocolServer) -> ProtocolServer:
        early = await connect(url + "/game/early")
        await _registered(server, 1)
        await early.close()
        for _ in range(2000):
            if not server.rooms:
                break
            await asyncio.sleep(0.005)
        assert server.rooms == {}
        await _official_game(url, server, clients)
        return server

    server = async_support.run(with_server(body, config=SHORT))
    assert server.rooms_ended == 1
    assert [c.state.lines[0].split("号位")[0][-1] for c in clients] == ["0", "1", "2", "3"]


def test_named_rooms_stay_available() -> None:
    """--seating named: two rooms filled at once, interleaved, by name."""
    async def body(url: str, server: ProtocolServer) -> ProtocolServer:
        a = [OfficialExampleClient(n, seed=n) for n in (1, 2, 3, 4)]
        b = [OfficialExampleClient(n, seed=5 + n) for n in (1, 2, 3, 4)]
        conns = []
        for ca, cb in zip(a, b, strict=True):
            conns.append((await connect(f"{url}/game/left", max_size=2**22), ca))
            conns.append((await connect(f"{url}/game/right", max_size=2**22), cb))
        await asyncio.gather(*[_play(ws, c) for ws, c in conns])
        for group in (a, b):
            assert [c.state.lines[0].split("号位")[0][-1] for c in group] == ["0", "1", "2", "3"]
        return server

    logs: list[str] = []
    server = async_support.run(with_server(body, seed=3, seating=Seating.NAMED, logs=logs))
    assert server.rooms_ended == 2 and sorted(server.aborted) == []
    assert any(line.startswith("room left: connection 4") for line in logs)


def test_draws_are_four_per_seat_counts() -> None:
    """A game cut short by max_deals is a draw: gameResult says [1, 1, 1, 1], and the example's
    ``*draws`` formatting reads it."""
    table = ProtocolTable(preset("competition"), games=2, seed=5, config=MatchConfig(max_deals=1))
    clients = [OfficialExampleClient(n, seed=n) for n in (1, 2, 3, 4)]

    def deliver(out: list[tuple[int, dict[str, Any]]]) -> None:
        for seat, msg in out:
            assert clients[seat].received_message(encode(msg)) is None

    deliver(table.start())
    while not table.over:
        seat, msg = table.act()
        reply = clients[seat].received_message(encode(msg))
        assert reply is not None
        deliver(table.answer(seat, json.loads(reply)["actIndex"]))
    assert all(m.winner is None for m in table.finished)
    for c in clients:
        assert c.state.lines[-2] == "达到设定场次, 其中0号位胜利0次，1号位胜利0次，2号位胜利0次，3号位胜利0次"
        assert c.state.lines[-1] == "其中平局次数：0号位平局2次，1号位平局2次，2号位平局2次，3号位平局2次"


def test_the_example_parser_refuses_what_the_protocol_does_not_have() -> None:
    """The test client is as strict as the example: a message outside the protocol, or draws as one
    number (what our server sent before), breaks it."""
    client = OfficialExampleClient(1)
    with pytest.raises(UnknownMessage):
        client.received_message('{"type": "error", "stage": "error", "message": "x"}')
    with pytest.raises(TypeError):
        client.received_message('{"type": "notify", "stage": "gameResult", "victoryNum": [1, 0, 1, 0], "draws": 0}')


def test_seating_paths() -> None:
    assert room_key("/game/client3", Seating.ORDER) == "" and room_key("/game/gd/7?x=1", Seating.ORDER) == ""
    assert room_key("/game/client3", Seating.NAMED) == "client3" and room_key("/game/gd/7", Seating.NAMED) is None
    for bad in ("/play/x", "/game/", "/game/..", "/", "/gamex"):
        assert room_key(bad, Seating.ORDER) is None and room_key(bad, Seating.NAMED) is None
    assert client_name("/game/client2?token=1") == "client2"
    assert parse_seating("named") is Seating.NAMED
    with pytest.raises(ValueError, match="order, named"):
        parse_seating("rooms")


def test_cli_seating_option() -> None:
    _mount()
    runner = CliRunner()
    out = runner.invoke(app, ["protocol-server", "--help"], env={"COLUMNS": "160"}).output
    assert "[order|named]" in out and "client1.py" in out
    bad = runner.invoke(app, ["protocol-server", "--seating", "rooms"])
    assert bad.exit_code == 2 and "--seating must be one of order, named" in bad.output
    bad = runner.invoke(app, ["protocol-server", "--rooms", "0"])
    assert bad.exit_code == 2 and "--rooms must be at least 1" in bad.output
