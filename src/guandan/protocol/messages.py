"""The server→client messages of the 2020 protocol, made from our engine's events and per-seat
observations only (PROTOCOL-2020.md, "Server → client messages").

:class:`MessageStream` follows the public events in order and keeps what the protocol repeats in
every message (the round's ``curPos``/``greaterPos``, each seat's ``playArea``, the game tallies).
It never reads a hand except through :meth:`View.observation` — with one marked exception: the
``episodeOver`` message's ``restCards``, which the protocol broadcasts once the deal is over.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, Protocol

from ..core.cards import Card, card_protocol, sort_cards
from ..core.deal import Action
from ..core.errors import shown
from ..core.events import (
    AntiTribute,
    CardsReturned,
    DealOver,
    DealStart,
    Event,
    Lead,
    MatchOver,
    Passed,
    Played,
    RoundWon,
    TributeGiven,
    TributePaid,
)
from ..core.match import MatchObservation, MatchState
from ..core.vocab import ActionKind, Phase
from ..i18n import N_
from .errors import ProtocolError
from .notation import PASS_TRIPLE, STAGE_OF_PHASE, action_list, action_triple, rank_str
from .worker import quoted

Message = dict[str, Any]
Outgoing = tuple[int, Message]
"""(seat, message): notifies go to every seat the stream serves, in the same order."""

DEAL_SIZE = 27


class View(Protocol):
    """What the stream may look at: one seat's observation, and the end-of-deal reveal."""

    def observation(self, seat: int) -> MatchObservation: ...

    def rest_cards(self) -> list[list[Any]]: ...


class EngineView:
    """The host's view of a live match (server, in-process arena)."""

    def __init__(self, match: MatchState) -> None:
        self.match = match

    def observation(self, seat: int) -> MatchObservation:
        return self.match.observation(seat)

    def rest_cards(self) -> list[list[Any]]:
        # PUBLIC AT THIS POINT: episodeOver shows every seat the cards still held when the deal ended,
        # so the finished deal's hands may be read here, and only here, after it is settled.
        if not self.match.deals:
            raise ProtocolError("restCards asked for before any deal finished")
        hands = self.match.deals[-1].state.hands
        return [[s, [card_protocol(c) for c in sorted(hands[s])]] for s in range(4) if hands[s]]


def dealt_hand(obs: MatchObservation) -> list[Card]:
    """The seat's 27 dealt cards: its hand now with its own plays, tribute (进贡) and return (还贡)
    of this deal undone — all of them facts the seat knows."""
    seat = obs.deal.seat
    hand = Counter(obs.deal.hand)
    for e in obs.deal.events:
        match e:
            case Played(player=player, cards=cards) if player == seat:
                hand.update(cards)
            case TributeGiven(transfers=transfers) | CardsReturned(transfers=transfers):
                for t in transfers:
                    if t.receiver == seat:
                        hand[t.card] -= 1
                    if t.giver == seat:
                        hand[t.card] += 1
    return sorted(hand.elements())


def deal_start_event(obs: MatchObservation) -> DealStart:
    """The :class:`DealStart` of ``obs``'s deal (the engine emits it only from :meth:`MatchState.apply`)."""
    return DealStart(obs.deal_index, obs.deal.level, obs.declarer, obs.levels)


class MessageStream:
    """Events in, protocol messages out, for the seats in ``seats`` (all four on a server, one in an adapter).

    ``games`` is the number of games (whole matches) the table will play: ``settingTimes``.
    """

    def __init__(self, seats: Sequence[int] = (0, 1, 2, 3), games: int = 1) -> None:
        self.seats = tuple(seats)
        self.games = games
        self.played_games = 0
        self.victories = [0, 0, 0, 0]  # games won, per seat (both seats of the winning team count one)
        self.draws = [0, 0, 0, 0]  # drawn games, per seat (every seat counts one), as the platform sends them
        self.level = 0
        self.levels = [0, 0]
        self._new_round()

    def _new_round(self) -> None:
        self.cur: tuple[int, list[Any]] | None = None  # the last play or pass of this round
        self.greater: tuple[int, list[Any]] | None = None  # the play winning this round
        self.play_area: list[list[Any] | None] = [None, None, None, None]

    # --- notifies ---------------------------------------------------------------------------
    def on_events(self, events: Sequence[Event], view: View) -> list[Outgoing]:
        out: list[Outgoing] = []
        for e in events:
            out.extend(self._on_event(e, view))
        return out

    def _broadcast(self, stage: str, **fields: Any) -> list[Outgoing]:
        return [(s, {"type": "notify", "stage": stage, **fields}) for s in self.seats]

    def _on_event(self, e: Event, view: View) -> list[Outgoing]:
        match e:
            case DealStart(level=level, levels=levels):
                self.level, self.levels = level, list(levels)
                self._new_round()
                return [(s, self.beginning(view.observation(s))) for s in self.seats]
            case AntiTribute(seats=seats):
                return self._broadcast("anti-tribute", antiNums=len(seats), antiPos=list(seats))
            case TributeGiven(transfers=transfers) | CardsReturned(transfers=transfers):
                result = [[t.giver, t.receiver, card_protocol(t.card)] for t in transfers]
                return self._broadcast("tribute" if isinstance(e, TributeGiven) else "back", result=result)
            case TributePaid():
                raise ProtocolError("the 2020 protocol has no 头游-chooses-the-tribute step (winners_choose)")
            case Lead() | RoundWon():
                self._new_round()
                return []
            case Played(player=seat, cards=cards, combo=combo):
                triple = action_triple(Action(ActionKind.PLAY, seat, cards, combo), self.level)
                self.greater = (seat, triple)
                return self._played(seat, triple)
            case Passed(player=seat):
                return self._played(seat, list(PASS_TRIPLE))
            case DealOver(finish=finish):
                return self._broadcast("episodeOver", order=list(finish), curRank=rank_str(self.level),
                                       restCards=view.rest_cards())
            case MatchOver(winner=winner):
                self.played_games += 1
                if winner is None:
                    self.draws = [n + 1 for n in self.draws]
                else:
                    for s in (winner, winner + 2):
                        self.victories[s] += 1
                return self._broadcast("gameOver", curTimes=self.played_games, settingTimes=self.games)
        # FirstLead, Reported, WentOut, DealSettled: the protocol has no message for them (the order
        # and the new levels reach the bots through episodeOver and the next beginning)
        return []

    def _played(self, seat: int, triple: list[Any]) -> list[Outgoing]:
        """A play or a pass: it is the round's latest action and ``seat``'s play area."""
        self.cur = (seat, triple)
        self.play_area[seat] = triple
        return self._broadcast("play", **self._round_fields())

    def _round_fields(self) -> Message:
        cur, greater = self.cur, self.greater
        return {
            "curPos": cur[0] if cur else -1,
            "curAction": cur[1] if cur else None,
            "greaterPos": greater[0] if greater else -1,
            "greaterAction": greater[1] if greater else None,
        }

    def _ranks(self, seat: int) -> Message:
        return {"curRank": rank_str(self.level), "selfRank": rank_str(self.levels[seat % 2]),
                "oppoRank": rank_str(self.levels[1 - seat % 2])}

    def beginning(self, obs: MatchObservation) -> Message:
        seat = obs.deal.seat
        hand = [card_protocol(c) for c in sort_cards(dealt_hand(obs), obs.deal.level)]
        return {"type": "notify", "stage": "beginning", "handCards": hand, "myPos": seat, **self._ranks(seat)}

    def game_result(self) -> list[Outgoing]:
        """The last message of a table: wins and draws per seat over all its games. Both are lists of
        four counts, as the platform sends them (bots format them with ``*draws``)."""
        return self._broadcast("gameResult", victoryNum=list(self.victories), draws=list(self.draws))

    # --- act --------------------------------------------------------------------------------
    def act(self, obs: MatchObservation, legal: Sequence[Action] | None = None) -> tuple[Message, list[Action]]:
        """The act message for the seat to move, and the actions its indexes stand for: ``legal``
        (default: the observation's) with PASS moved to the front, where the platform put it."""
        deal = obs.deal
        legal = sorted(deal.legal if legal is None else legal, key=lambda a: a.kind is not ActionKind.PASS)
        if not legal:
            raise ProtocolError(f"seat {deal.seat} is not to move")
        stage = STAGE_OF_PHASE.get(deal.phase)
        if stage is None:
            raise ProtocolError(f"the 2020 protocol has no act message for the {shown(deal.phase.value)} phase")
        rest = [len(deal.hand) if s == deal.seat else DEAL_SIZE - deal.played_counts[s] for s in range(4)]
        actions = action_list(legal, deal.level)
        leading = deal.phase is not Phase.PLAY
        msg: Message = {
            "type": "act",
            "stage": stage,
            "handCards": [card_protocol(c) for c in sort_cards(deal.hand, deal.level)],
            "myPos": deal.seat,
            "publicInfo": [{"rest": rest[s], "playArea": None if leading else self.play_area[s]} for s in range(4)],
            **self._ranks(deal.seat),
            **({"curPos": -1, "curAction": None, "greaterPos": -1, "greaterAction": None} if leading else self._round_fields()),
            "actionList": actions,
            "indexRange": len(actions) - 1,
        }
        return msg, legal


def encode(message: Message) -> str:
    """One JSON text frame (UTF-8, compact, like the platform's)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def parse_reply(text: str | bytes, index_range: int) -> int:
    """The index of a client's ``{"actIndex": i}`` reply; :class:`ProtocolError` says what is wrong."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError.said(N_("the reply is not UTF-8 text")) from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError.said(N_("the reply is not JSON: {text}"), text=quoted(text)) from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise ProtocolError.said(N_("the reply holds a number too long to read; actIndex is a small integer")) from None
    if not isinstance(data, dict) or "actIndex" not in data:
        raise ProtocolError.said(N_("the reply must be an object {shape}"), shape='{"actIndex": i}')
    return check_index(data["actIndex"], index_range)


def check_index(index: Any, index_range: int) -> int:
    """``index`` if it is an integer in 0…``index_range``; else a :class:`ProtocolError` quoting it cut short: a
    client's reply may hold a string as long as a frame allows, or an integer of thousands of digits, which the
    refusal sent back to it and the server's log would repeat whole."""
    if not isinstance(index, int) or isinstance(index, bool):
        raise ProtocolError.said(N_("actIndex must be an integer, not {index}"), index=quoted(index))
    if not 0 <= index <= index_range:
        raise ProtocolError.said(N_("actIndex {index} is outside 0…{last}"), index=quoted(index), last=index_range)
    return index


__all__ = [
    "EngineView",
    "Message",
    "MessageStream",
    "Outgoing",
    "View",
    "check_index",
    "deal_start_event",
    "dealt_hand",
    "encode",
    "parse_reply",
]
