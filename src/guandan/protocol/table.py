"""One protocol table: N games (whole matches) on our engine, as the platform's message sequence.

Transport-free, so the WebSocket server and the in-process tests drive the very same thing:
:meth:`ProtocolTable.start` gives the opening messages, :meth:`act` the message for the seat to move,
:meth:`answer` applies that seat's index and gives every message it causes, in order.
"""

from __future__ import annotations

from typing import Any

from ..agents import agent_names
from ..agents.base import Agent, make_agent
from ..core.deal import Action
from ..core.errors import GuandanError
from ..core.match import MatchConfig, MatchState, new_match
from ..core.rules import RuleSet
from ..core.vocab import ActionKind
from .errors import ProtocolError
from .messages import EngineView, Message, MessageStream, Outgoing, check_index
from .notation import check_rules


class ProtocolTable:
    """``games`` matches in a row under ``rules``; game ``g`` uses the seed ``f"{seed}:{g}"``."""

    def __init__(self, rules: RuleSet, games: int = 1, seed: int | str = 0, config: MatchConfig | None = None) -> None:
        check_rules(rules)
        if games < 1:
            raise ProtocolError(f"a table plays at least one game, not {games}")
        self.rules = rules
        self.games = games
        self.seed = seed
        self.config = config or MatchConfig()
        self.stream = MessageStream(games=games)
        self.finished: list[MatchState] = []  # every completed game, for records
        self.match: MatchState | None = None
        self.over = False
        self.played_for: list[list[int]] = []  # per game, per seat: act messages answered by play_for()
        self._pending: tuple[int, Message, list[Action]] | None = None
        self._stand_in: Agent | None = None

    def _new_game(self) -> list[Outgoing]:
        self.match = new_match(self.rules, f"{self.seed}:{len(self.finished)}", self.config)
        self.played_for.append([0, 0, 0, 0])
        view = EngineView(self.match)
        opening = [self.match.deal_start_event(), *(self.match.deal.events if self.match.deal else [])]
        return self.stream.on_events(opening, view)

    def start(self) -> list[Outgoing]:
        if self.match is not None:
            raise ProtocolError("the table has already started")
        return self._new_game()

    def act(self) -> tuple[int, Message]:
        """The seat to move and its act message (the same one again until it is answered)."""
        if self._pending is None:
            if self.match is None or self.over:
                raise ProtocolError("nobody is to move: the table has not started or is over")
            seat = self.match.to_move
            assert seat is not None
            msg, legal = self.stream.act(self.match.observation(seat))
            self._pending = (seat, msg, legal)
        return self._pending[0], self._pending[1]

    def answer(self, seat: int, index: Any) -> list[Outgoing]:
        """Apply ``seat``'s answer to its act message; raises :class:`ProtocolError` (and changes nothing)
        if it is not that seat's turn or the index is out of range."""
        if self._pending is None:
            self.act()
        assert self._pending is not None and self.match is not None
        mover, msg, legal = self._pending
        if seat != mover:
            raise ProtocolError(f"it is seat {mover}'s turn, not seat {seat}'s")
        action = legal[check_index(index, int(msg["indexRange"]))]
        self._pending = None
        events = self.match.apply(action)
        out = self.stream.on_events(events, EngineView(self.match))
        if self.match.ended:
            self.finished.append(self.match)
            if len(self.finished) < self.games:
                out.extend(self._new_game())
            else:
                self.over = True
                out.extend(self.stream.game_result())
        return out

    def stand_in(self) -> int:
        """The index to answer for the seat to move when it does not answer (the server's --move-timeout):
        PASS when passing is legal, since it keeps every card of the seat's hand for the seat's own plan;
        else (a lead, a tribute, a return) the choice of the bot that plays a seat on 托管 in the web app;
        index 0 should that bot fail."""
        seat, _ = self.act()
        assert self._pending is not None and self.match is not None
        legal = self._pending[2]
        for i, action in enumerate(legal):
            if action.kind is ActionKind.PASS:
                return i
        try:
            agent = self._stand_in_agent()
            agent.reset(seat, self.rules)
            return legal.index(agent.choose(self.match.observation(seat), legal))
        except (GuandanError, ValueError):  # ValueError: a choice that is not in the list
            return 0

    def _stand_in_agent(self) -> Agent:
        if self._stand_in is None:
            self._stand_in = make_agent(stand_in_tier(), seed=f"{self.seed}:stand-in")
        return self._stand_in

    def play_for(self) -> tuple[int, Any, list[Outgoing]]:
        """Answer the act message waiting for its seat with :meth:`stand_in`, and count it for the game's
        record. Returns the seat, the action played as its act message lists it, and the messages it causes."""
        seat, msg = self.act()
        index = self.stand_in()
        self.played_for[len(self.finished)][seat] += 1  # before answer(): the answer may begin the next game
        return seat, msg["actionList"][index], self.answer(seat, index)


def stand_in_tier() -> str:
    """The bot tier that answers for a seat: the one the web app's 托管 uses (``server.rooms.default_bot_tier``,
    a layer above this one, so its rule is repeated here and a test keeps the two the same): the strongest
    quick tier, heuristic when it is registered, else greedy."""
    return "heuristic" if "heuristic" in agent_names() else "greedy"


__all__ = ["ProtocolTable", "stand_in_tier"]
