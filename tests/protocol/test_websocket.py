"""The protocol over real loopback WebSockets: whole games with four conformance clients, our own
client, malformed frames, out-of-range indexes, a disconnect mid-game, and bad connections."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import async_support
from guandan.agents.base import make_agent
from guandan.core.record import loads, replay
from guandan.core.rules import preset
from guandan.protocol.cli import _tally
from guandan.protocol.client import play
from guandan.protocol.seating import Seating
from guandan.protocol.server import ProtocolServer

from .conformance_bot import ConformanceBot
from .helpers import bot_client, with_server


def test_whole_game_four_conformance_clients(tmp_path: Path) -> None:
    bots = [ConformanceBot(s) for s in range(4)]

    async def body(url: str, server: ProtocolServer) -> list[list[dict[str, Any]]]:
        return list(await asyncio.gather(*[bot_client(f"{url}/game/full", b) for b in bots]))

    seen = async_support.run(with_server(body, out_dir=tmp_path, config=None))
    assert all(b.acts > 0 for b in bots)
    assert [m["myPos"] for s in seen for m in s[:1]] == [0, 1, 2, 3]  # seats by connection order
    last = seen[0][-1]
    assert last["stage"] == "gameResult" and sum(last["victoryNum"]) == 2 and last["draws"] == [0, 0, 0, 0]
    (record,) = sorted(tmp_path.iterdir())
    assert record.name == "room-1-001.json"  # rooms by connection order are numbered
    data = loads(record.read_text(encoding="utf-8"))
    assert data["result"]["ended"] and data["meta"]["protocol"] == "2020" and data["meta"]["room"] == "room-1"
    assert [p.split(" 127.0.0.1:")[0] for p in data["players"]] == [f"seat {s} full" for s in range(4)]
    *_, (_, _, match) = list(replay(data))
    assert match.ended and len(match.deals) == sum(1 for m in seen[0] if m["stage"] == "episodeOver")


def test_our_client_plays_with_three_conformance_bots() -> None:
    async def body(url: str, server: ProtocolServer) -> Any:
        bots = [bot_client(f"{url}/game/mixed", ConformanceBot(s)) for s in range(3)]
        ours = play(f"{url}/game/mixed", make_agent("greedy", 1), preset("competition"))
        return await asyncio.gather(*bots, ours)

    logs: list[str] = []
    *_, report = async_support.run(with_server(body, games=2, logs=logs))
    assert report.fallbacks == 0 and report.errors == [] and report.acts > 0
    assert report.result is not None and report.result["stage"] == "gameResult"
    draws = report.result["draws"]
    assert len(draws) == 4 and len(set(draws)) == 1  # a drawn game counts one for every seat
    wins = report.result["victoryNum"]
    assert sum(wins) + 2 * draws[0] == 4  # two games, two winners each
    assert report.seat == 3  # ours connected last
    assert _tally(report.result, report.seat) == (wins[1], wins[0], draws[0])
    # the operator's log counts them per team in words, not as the wire's lists
    done = [line for line in logs if ": done" in line]
    assert done == [f"room room-1: done: seats 1 and 3 (myPos 0, 2) won {wins[0]}, seats 2 and 4 (myPos 1, 3) "
                    f"won {wins[1]}, {draws[0]} drawn"], logs
    assert not any("[" in line or "{" in line for line in logs), logs


@pytest.mark.parametrize(("result", "seat"), [
    ({"victoryNum": [1, 0, 1, 0]}, 0),  # no draws
    ({"victoryNum": [1, 0, 1], "draws": [0, 0, 0, 0]}, 0),  # three seats
    ({"victoryNum": [True, 0, 1, 0], "draws": [0, 0, 0, 0]}, 0),  # not a count
    ({"victoryNum": [1, 0, 1, 0], "draws": [0, 0, 0, 0]}, None),  # no seat known
    ({"victoryNum": "1,0,1,0", "draws": [0, 0, 0, 0]}, 2),
])
def test_a_result_the_client_cannot_count_from_is_shown_as_sent(result: dict[str, Any], seat: int | None) -> None:
    assert _tally(result, seat) is None


BAD_FRAMES: list[str | bytes] = [b"\xff\xfe", "not json", "[1, 2]", '{"x": 1}', '{"actIndex": -1}', '{"actIndex": "0"}',
                                 '{"actIndex": true}', '{"actIndex": 1.5}']


async def unruly_client(url: str, bot: ConformanceBot, errors: list[str]) -> None:
    """On its first act, sends every bad frame and an out-of-range index, each answered by an error."""
    first = True
    async with connect(url) as ws:
        try:
            async for frame in ws:
                msg = json.loads(frame)
                if msg["type"] == "error":
                    errors.append(msg["message"])
                    continue
                reply = bot.received_message(frame)
                if msg["type"] != "act":
                    continue
                if first:
                    first = False
                    for bad in [*BAD_FRAMES, json.dumps({"actIndex": msg["indexRange"] + 1})]:
                        await ws.send(bad)
                        errors.append(f"sent {bad!r} -> " + json.loads(await ws.recv())["message"])
                await ws.send(json.dumps({"actIndex": reply}))
        except ConnectionClosed:
            pass


def test_malformed_frames_and_out_of_range_are_answered_and_waited_on(tmp_path: Path) -> None:
    errors: list[str] = []
    other: list[str] = []

    async def body(url: str, server: ProtocolServer) -> Any:
        bots = [ConformanceBot(s) for s in range(4)]
        tasks = [unruly_client(f"{url}/game/bad", bots[0], errors)]
        tasks += [bot_client(f"{url}/game/bad", b, other) for b in bots[1:]]
        await asyncio.gather(*tasks)
        return bots

    bots = async_support.run(with_server(body, out_dir=tmp_path))
    assert len(errors) == len(BAD_FRAMES) + 1 and all("answer again" in e for e in errors), errors
    assert "not UTF-8" in errors[0] and "not JSON" in errors[1] and "outside 0…" in errors[-1]
    assert other == []
    assert all(b.stages["notify:gameResult"] == 1 for b in bots)
    assert [p.name for p in tmp_path.iterdir()] == ["room-1-001.json"]


def test_frame_out_of_turn_gets_an_error() -> None:
    async def body(url: str, server: ProtocolServer) -> list[str]:
        errors: list[str] = []
        conns = [await connect(f"{url}/game/turn") for _ in range(4)]
        beginnings = [json.loads(await c.recv()) for c in conns]
        assert [b["myPos"] for b in beginnings] == [0, 1, 2, 3]
        room = server.rooms["room-1"]
        assert room.table is not None
        mover, _ = room.table.act()
        idle = conns[(mover + 1) % 4]
        await idle.send('{"actIndex": 0}')
        while True:
            msg = json.loads(await idle.recv())
            if msg["type"] == "error":
                errors.append(msg["message"])
                break
        for c in conns:
            await c.close()
        return errors

    (error,) = async_support.run(with_server(body))
    assert "turn" in error


def test_disconnect_mid_game_aborts_only_that_room(tmp_path: Path) -> None:
    logs: list[str] = []
    gone: list[int] = []  # the quitter's seat, as the protocol numbers it (myPos)

    async def quitter(url: str, bot: ConformanceBot, after_acts: int) -> None:
        async with connect(url) as ws:
            async for frame in ws:
                reply = bot.received_message(frame)
                msg = json.loads(frame)
                if not gone and "myPos" in msg:
                    gone.append(msg["myPos"])
                if msg["type"] == "act":
                    if bot.acts >= after_acts:
                        return  # leaves without a word, in the middle of a deal
                    await ws.send(json.dumps({"actIndex": reply}))

    async def body(url: str, server: ProtocolServer) -> Any:
        notices: list[list[str]] = [[], [], []]
        tasks = [quitter(f"{url}/game/q", ConformanceBot(0), 3)]
        tasks += [bot_client(f"{url}/game/q", ConformanceBot(s), notices[s - 1]) for s in (1, 2, 3)]
        await asyncio.gather(*tasks)
        # the server still serves: the next four connections (same name) fill a fresh room, played to the end
        bots = [ConformanceBot(s) for s in range(4)]
        await asyncio.gather(*[bot_client(f"{url}/game/q", b) for b in bots])
        return notices, bots, server

    notices, bots, server = async_support.run(with_server(body, out_dir=tmp_path, logs=logs))
    assert all(len(n) == 1 and "aborted" in n[0] and "disconnected" in n[0] for n in notices), notices
    (pos,) = gone
    assert all(n[0] == f"game aborted: a player disconnected (seat {pos})" for n in notices), notices  # its myPos
    # the operator's log counts seats from 1 and says it in its own words, once
    aborted = [line for line in logs if line.startswith("room room-1: ") and "abort" in line]
    assert aborted == [f"room room-1: seat {pos + 1} (myPos {pos}) disconnected: the room is aborted"], logs
    assert server.aborted == ["room-1"]
    assert all(b.stages["notify:gameResult"] == 1 for b in bots)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["room-1-001-aborted.json", "room-2-001.json"]
    partial = loads((tmp_path / "room-1-001-aborted.json").read_text(encoding="utf-8"))
    assert partial["meta"]["aborted"] and not partial["result"]["ended"]
    list(replay(partial))  # the partial record is intact: it replays without error


def test_bad_path_and_full_named_room_are_refused() -> None:
    async def body(url: str, server: ProtocolServer) -> str:
        with pytest.raises(InvalidStatus) as info:
            await connect(f"{url}/play/x")
        assert info.value.response.status_code == 404
        conns = [await connect(f"{url}/game/full") for _ in range(4)]
        async with connect(f"{url}/game/full") as fifth:
            msg = json.loads(await fifth.recv())
            with pytest.raises(ConnectionClosed):
                await fifth.recv()
        for c in conns:
            await c.close()
        return str(msg["message"])

    assert "full" in async_support.run(with_server(body, seating=Seating.NAMED))


def test_server_refuses_huopin() -> None:
    from guandan.protocol.errors import ProtocolError

    with pytest.raises(ProtocolError, match="standard hand types"):
        ProtocolServer(preset("huopin"))
