"""Loopback WebSocket plumbing for the protocol tests: a server on a free 127.0.0.1 port and
clients that wrap a ``received_message`` bot or our own player."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from guandan.agents.base import Agent
from guandan.core.deal import Action
from guandan.core.match import MatchConfig, MatchObservation
from guandan.core.rules import RuleSet, preset
from guandan.core.vocab import Phase
from guandan.protocol.client import ClientReport, play
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


class FirstLegal(Agent):
    """Plays the first legal action."""

    name = "first"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return legal[0]


class FaultyLeader(FirstLegal):
    """Answers nothing (None) on its first lead and, where ``raises``, raises RuntimeError("my bug") on its second;
    plays the first legal action otherwise."""

    name = "faulty"

    def __init__(self, raises: bool = False) -> None:
        super().__init__()
        self.raises = raises
        self.leads = 0

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        if obs.deal.phase == Phase.PLAY and obs.deal.top is None:
            self.leads += 1
            if self.leads == 1:
                return None  # type: ignore[return-value]
            if self.leads == 2 and self.raises:
                raise RuntimeError("my bug")
        return legal[0]


def play_seated(agents: Sequence[Agent], **options: Any) -> list[ClientReport]:
    """One game of our protocol client for each of ``agents``, seated in their order at a fresh server: their
    reports. ``options`` are :func:`guandan.protocol.client.play`'s other keyword arguments (lang, …)."""
    async def body(url: str, server: ProtocolServer) -> list[ClientReport]:
        tasks = []
        for a in agents:
            tasks.append(asyncio.create_task(play(f"{url}/game/x", a, preset("competition"), **options)))
            await asyncio.sleep(0.05)  # seats follow connection order
        return list(await asyncio.gather(*tasks))

    reports: list[ClientReport] = asyncio.run(with_server(body))
    return reports
