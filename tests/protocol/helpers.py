"""Loopback WebSocket plumbing for the protocol tests: a server on a free 127.0.0.1 port and
clients that wrap a ``received_message`` bot or our own player."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from guandan.core.match import MatchConfig
from guandan.core.rules import RuleSet, preset
from guandan.protocol.seating import Seating
from guandan.protocol.server import ProtocolServer

SHORT = MatchConfig(start_levels=(12, 12), start_declarer=0)  # both teams at A: a game of a few deals


async def bot_client(url: str, bot: Any, errors: list[str] | None = None) -> list[dict[str, Any]]:
    """Feed every frame to ``bot.received_message``; send its index for acts. Returns the frames."""
    seen: list[dict[str, Any]] = []
    async with connect(url, max_size=2**22) as ws:
        try:
            async for frame in ws:
                msg = json.loads(frame)
                seen.append(msg)
                if msg.get("type") == "error":
                    if errors is not None:
                        errors.append(msg["message"])
                    continue
                reply = bot.received_message(frame)
                if msg["type"] == "act":
                    await ws.send(json.dumps({"actIndex": reply}))
        except ConnectionClosed:
            pass
    return seen


async def with_server(body: Callable[[str, ProtocolServer], Awaitable[Any]], rules: RuleSet | None = None,
                      games: int = 1, out_dir: Path | None = None, config: MatchConfig | None = SHORT,
                      seating: Seating = Seating.ORDER, logs: list[str] | None = None,
                      seed: int | str | None = 7, **options: Any) -> Any:
    """Run ``body(url, server)`` against a fresh server on a free port; its log lines go to ``logs``;
    ``options`` are the server's other keyword arguments (move_timeout, max_per_address, …)."""
    logs = [] if logs is None else logs
    server = ProtocolServer(rules or preset("competition"), games=games, out_dir=out_dir, seed=seed, config=config,
                            log=logs.append, seating=seating, **options)
    ws_server = await server.start("127.0.0.1", 0)
    port = ws_server.sockets[0].getsockname()[1]
    try:
        return await asyncio.wait_for(body(f"ws://127.0.0.1:{port}", server), timeout=120)
    finally:
        ws_server.close()
        await ws_server.wait_closed()
