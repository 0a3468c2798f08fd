"""Our agents on any server that speaks the 2020 protocol: connect, follow the notifies, answer
every act with ``{"actIndex": i}`` chosen by an :class:`Agent` over a rebuilt observation.

If the agent fails or none of the offered actions can be read under our rule set, the client
answers index 0 (PASS when following, by the platform's convention) and counts a fallback.

What goes wrong is reported in the reader's language (``lang``, by default the environment's) from the
``cli`` catalogue; the server's own error messages are reported as it wrote them.
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
from ..cliutil import cli_lang, said
from ..core.errors import GuandanError, shown
from ..core.rules import RuleSet
from ..i18n import N_
from .messages import encode
from .tracker import ProtocolTracker


@dataclass
class ClientReport:
    messages: int = 0
    acts: int = 0
    fallbacks: int = 0
    errors: list[str] = field(default_factory=list)  # the server's error messages and ours, in words
    result: dict[str, Any] | None = None  # the gameResult message
    seat: int | None = None  # our myPos when it came


class ProtocolPlayer:
    """Transport-free: one seat's message handling (``handle`` returns the reply frame or None); what goes
    wrong is reported in ``lang`` (by default the environment's language)."""

    def __init__(self, agent: Agent, rules: RuleSet, lang: str | None = None) -> None:
        self.agent = agent
        self.rules = rules
        self.lang = cli_lang(lang)
        self.tracker = ProtocolTracker(rules)
        self.report = ClientReport()

    def _report(self, msgid: str, /, **params: object) -> None:
        """Report ``msgid`` (marked with N_) filled with ``params`` in the player's language."""
        self.report.errors.append(said(GuandanError.said(msgid, **params), self.lang))

    def handle(self, text: str | bytes) -> str | None:
        """A frame from the server in, our reply out. A frame we cannot read is reported and skipped:
        the server, not this client, decides when the game ends."""
        self.report.messages += 1
        try:
            msg = json.loads(text)
        except (json.JSONDecodeError, RecursionError):  # RecursionError: nested deeper than Python reads
            self._report(N_("the server sent a frame that is not JSON: {start}"), start=_start(text))
            return None
        except ValueError:  # an integer of more digits than Python converts
            self._report(N_("the server sent a frame with a number too long to read: {start}"), start=_start(text))
            return None
        if not isinstance(msg, dict):
            self._report(N_("the server sent a frame that is not a message (a JSON object): {start}"),
                         start=_start(text))
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
                self._report(N_("the server's {stage} message cannot be read ({why}); skipped"),
                             stage=shown(msg.get("stage")), why=_why(e))
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
            self.report.result, self.report.seat = msg, self.tracker.seat

    def choose(self, msg: dict[str, Any]) -> int:
        try:
            obs, legal, indexes = self.tracker.decision_inputs(msg)
        except _UNREADABLE as e:
            self._report(N_("the server's act message cannot be read ({why}); answered 0"), why=_why(e))
        else:
            if legal:
                # the agent's own failures are told apart from an unreadable message: a tier's bug (any
                # exception) or an illegal answer once read as "a field holds a value of the wrong type"
                try:
                    answer: object = self.agent.choose(obs, legal)
                except Exception as e:
                    self._report(N_("our agent raised {error}; answered 0"), error=f"{type(e).__name__}: {e}")
                else:
                    if is_legal(answer, legal):
                        return indexes[legal.index(answer)]
                    self._report(N_("our agent {answer}, which is not one of the offered actions; answered 0"),
                                 answer=failed_answer(answer, obs))
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


def _why(e: Exception) -> GuandanError:
    """An error as words, never Python's: its own (catalogued where it is ours), the field a message lacks,
    or its kind."""
    if isinstance(e, GuandanError):
        return e
    if isinstance(e, KeyError) and e.args:
        return GuandanError.said(N_("it has no {field} field"), field=shown(e.args[0]))
    return GuandanError.said(N_("a field holds a value of the wrong type or shape"))


async def play(url: str, agent: Agent, rules: RuleSet, log: Callable[[str], None] | None = None,
               lang: str | None = None) -> ClientReport:
    """Play until the server closes the connection; returns what happened (a connection cut without
    a close, or closed for an error, is one of the report's errors), in ``lang`` (by default the
    environment's language)."""
    player = ProtocolPlayer(agent, rules, lang)
    async with connect(url, max_size=2**22) as ws:
        if log:
            log(said(GuandanError.said(N_("connected to {url}"), url=url), player.lang))
        try:
            async for frame in ws:
                reply = player.handle(frame)
                if reply is not None:
                    await ws.send(reply)
        except ConnectionClosedError as e:
            # e: websockets' words for the close (its code and the server's reason), which it has in English only
            player._report(N_("the connection was cut ({reason})"), reason=printable(str(e)))
    return player.report


__all__ = ["ClientReport", "ProtocolPlayer", "play", "printable"]
