"""A hostile bot author against ``guandan protocol-server``: crafted frames, floods, names and arguments.

Each test is one attack that once did harm (a room aborted, a frame that could not be sent, the
server's memory or loop taken, a deal known in advance, a traceback). The server runs in-process on
a free loopback port, as in test_websocket.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

import async_support
from guandan.protocol.errors import ProtocolError
from guandan.protocol.messages import parse_reply
from guandan.protocol.server import ProtocolServer

from .helpers import with_server


async def _until(ws: ClientConnection, kind: str, stages: tuple[str, ...] = ()) -> dict[str, Any]:
    """The next message of type ``kind`` (and one of ``stages``, if given) on ``ws``; others are skipped."""
    while True:
        msg = json.loads(await ws.recv())
        if msg["type"] == kind and (not stages or msg["stage"] in stages):
            return msg


async def _seated(url: str, name: str = "x") -> list[ClientConnection]:
    """Four connections to one room, each read up to its ``beginning``."""
    conns = [await connect(f"{url}/game/{name}") for _ in range(4)]
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


@pytest.mark.parametrize(("frame", "said"), [(HUGE_INT, "a number too long to read"),
                                             (LONE_SURROGATE, 'not "\\ud800"')], ids=["huge-int", "lone-surrogate"])
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
