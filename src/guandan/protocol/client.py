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
from websockets.exceptions import ConnectionClosedError

from ..agents.base import Agent
from ..agents.fallback import failed_answer, is_legal
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
        """A frame from the server in, our reply out. A frame we cannot read is reported and skipped:
        the server, not this client, decides when the game ends."""
        self.report.messages += 1
        try:
            msg = json.loads(text)
        except (json.JSONDecodeError, RecursionError):  # RecursionError: nested deeper than Python reads
            self.report.errors.append(f"the server sent a frame that is not JSON: {_start(text)}")
            return None
        except ValueError:  # an integer of more digits than Python converts
            self.report.errors.append(f"the server sent a frame with a number too long to read: {_start(text)}")
            return None
        if not isinstance(msg, dict):
            self.report.errors.append(f"the server sent a frame that is not a message (a JSON object): {_start(text)}")
            return None
        kind = msg.get("type")
        if kind == "error":
            said = msg.get("message")
            self.report.errors.append(printable(said if isinstance(said, str) else shown(said)))
            return None
        if kind == "notify":
            try:
                self.notify(msg)
            except _UNREADABLE as e:
                self.report.errors.append(f"the server's {shown(msg.get('stage'))} message cannot be read "
                                          f"({_why(e)}); skipped")
            return None
        if kind == "act":
            self.report.acts += 1
            return encode({"actIndex": self.choose(msg)})
        return None

    def notify(self, msg: dict[str, Any]) -> None:
        new_game = self.tracker.new_game
        self.tracker.on_message(msg)
        if msg.get("stage") == "beginning" and new_game:
            self.agent.reset(self.tracker.seat, self.rules)
            self.tracker.new_game = False
        if msg.get("stage") == "gameResult":
            self.report.result = msg

    def choose(self, msg: dict[str, Any]) -> int:
        try:
            obs, legal, indexes = self.tracker.decision_inputs(msg)
        except _UNREADABLE as e:
            self.report.errors.append(f"the server's act message cannot be read ({_why(e)}); answered 0")
        else:
            if legal:
                # the agent's own failures are told apart from an unreadable message: a tier's bug (any
                # exception) or an illegal answer once read as "a field holds a value of the wrong type"
                try:
                    answer: object = self.agent.choose(obs, legal)
                except Exception as e:
                    self.report.errors.append(f"our agent raised {type(e).__name__}: {e}; answered 0")
                else:
                    if is_legal(answer, legal):
                        return indexes[legal.index(answer)]
                    self.report.errors.append(f"our agent {failed_answer(answer, obs)}, which is not one of the "
                                              "offered actions; answered 0")
        self.report.fallbacks += 1
        return 0


_UNREADABLE = (GuandanError, ValueError, KeyError, TypeError, IndexError, AttributeError)
"""What a message of the wrong shape raises on its way through the tracker (and a failing agent)."""


def printable(text: str) -> str:
    """``text`` with each control character written as its escape (``\\u001b``): a server's words reach
    a terminal, where an escape sequence could clear the screen or rewrite what was printed."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def _start(frame: str | bytes) -> str:
    """A frame's first 80 characters, quoted as JSON writes them (control characters escaped)."""
    return shown((frame if isinstance(frame, str) else frame.decode("utf-8", "replace"))[:80])


def _why(e: Exception) -> str:
    """An error as words, never Python's: its own text, the field a message lacks, or its kind."""
    if isinstance(e, GuandanError):
        return str(e)
    if isinstance(e, KeyError) and e.args:
        return f"it has no {shown(e.args[0])} field"
    return "a field holds a value of the wrong type or shape"


async def play(url: str, agent: Agent, rules: RuleSet, log: Callable[[str], None] | None = None) -> ClientReport:
    """Play until the server closes the connection; returns what happened (a connection cut without
    a close, or closed for an error, is one of the report's errors)."""
    player = ProtocolPlayer(agent, rules)
    async with connect(url, max_size=2**22) as ws:
        if log:
            log(f"connected to {url}")
        try:
            async for frame in ws:
                reply = player.handle(frame)
                if reply is not None:
                    await ws.send(reply)
        except ConnectionClosedError as e:
            player.report.errors.append(printable(f"the connection was cut ({e})"))  # e: the server's close reason
    return player.report


__all__ = ["ClientReport", "ProtocolPlayer", "play", "printable"]
