"""Our agents on any server that speaks the 2020 protocol: connect, follow the notifies, answer
every act with ``{"actIndex": i}`` chosen by an :class:`Agent` over a rebuilt observation.

If the agent fails or none of the offered actions can be read under our rule set, the client
answers index 0 (PASS when following, by the platform's convention) and counts a fallback.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect

from ..agents.base import Agent
from ..core.errors import GuandanError, shown
from ..core.rules import RuleSet
from .messages import encode
from .tracker import ProtocolTracker


@dataclass
class ClientReport:
    messages: int = 0
    acts: int = 0
    fallbacks: int = 0
    errors: list[str] = field(default_factory=list)  # the server's error messages
    result: dict[str, Any] | None = None  # the gameResult message


class ProtocolPlayer:
    """Transport-free: one seat's message handling (``handle`` returns the reply frame or None)."""

    def __init__(self, agent: Agent, rules: RuleSet) -> None:
        self.agent = agent
        self.rules = rules
        self.tracker = ProtocolTracker(rules)
        self.report = ClientReport()

    def handle(self, text: str | bytes) -> str | None:
        self.report.messages += 1
        try:
            msg = json.loads(text)
        except json.JSONDecodeError:
            self.report.errors.append(f"the server sent a frame that is not JSON: {shown(str(text)[:80])}")
            return None
        if not isinstance(msg, dict):
            return None
        kind = msg.get("type")
        if kind == "error":
            self.report.errors.append(str(msg.get("message")))
            return None
        if kind == "notify":
            if msg.get("stage") == "beginning" and self.tracker.new_game:
                self.agent.reset(int(msg["myPos"]), self.rules)
                self.tracker.new_game = False
            if msg.get("stage") == "gameResult":
                self.report.result = msg
            self.tracker.on_message(msg)
            return None
        if kind == "act":
            self.report.acts += 1
            return encode({"actIndex": self.choose(msg)})
        return None

    def choose(self, msg: dict[str, Any]) -> int:
        try:
            obs, legal, indexes = self.tracker.decision_inputs(msg)
            if legal:
                action = self.agent.choose(obs, legal)
                return indexes[legal.index(action)]
        except (GuandanError, ValueError, KeyError, TypeError) as e:
            self.report.errors.append(f"could not decide ({type(e).__name__}: {e}); answered 0")
        self.report.fallbacks += 1
        return 0


async def play(url: str, agent: Agent, rules: RuleSet, log: Callable[[str], None] | None = None) -> ClientReport:
    """Play until the server closes the connection; returns what happened."""
    player = ProtocolPlayer(agent, rules)
    async with connect(url, max_size=2**22) as ws:
        if log:
            log(f"connected to {url}")
        async for frame in ws:
            reply = player.handle(frame)
            if reply is not None:
                await ws.send(reply)
    return player.report


__all__ = ["ClientReport", "ProtocolPlayer", "play"]
