"""Client side: rebuild a :class:`MatchObservation` from the protocol messages alone, so that our
agents can play on any server that speaks the 2020 protocol.

The act message is authoritative for the hand, the card counts (``publicInfo.rest``, public on that
platform) and the play to beat; the events (plays, passes, 进贡/还贡, who went out, round ends) are
reconstructed from the notifies, the round ends with our :class:`TurnTracker` under the client's
rule set. If the server's play ever contradicts that tracker, round-end events stop (the rest of
the observation stays exact) rather than guessing.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import parse_card
from ..core.deal import Action, Observation
from ..core.errors import GuandanError, shown
from ..core.events import AntiTribute, CardsReturned, Event, Passed, Played, RoundWon, Transfer, TributeGiven, WentOut
from ..core.match import MatchObservation
from ..core.rules import RuleSet
from ..core.turns import TurnTracker
from ..core.vocab import RANKS, Phase
from ..i18n import N_
from .errors import ProtocolError
from .notation import PHASE_OF_STAGE, action_from_triple, move_from_triple, parse_protocol_cards

_EXCHANGES: dict[str, type[TributeGiven] | type[CardsReturned]] = {"tribute": TributeGiven, "back": CardsReturned}
"""The notify stages that move cards between seats (进贡, 还贡) → the event they stand for."""


def _rank(text: Any) -> int:
    if not isinstance(text, str) or len(text) != 1 or text not in RANKS:
        raise ProtocolError.said(N_("a rank must be one of {ranks}, not {value}"), ranks=" ".join(RANKS),
                                 value=shown(text))
    return RANKS.index(text)


def _seat(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        raise ProtocolError.said(N_("a seat must be 0, 1, 2 or 3, not {value}"), value=shown(value))
    return value


class ProtocolTracker:
    """Feed every message to :meth:`on_message`; for an act, :meth:`decision_inputs` gives the
    observation, the legal actions it could read, and each one's ``actIndex``."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.seat = -1
        self.deal_index = -1
        self.prev_finish: tuple[int, ...] | None = None
        self.new_game = True  # the next beginning starts a game (agents are reset then)
        self._start_deal()

    def _start_deal(self) -> None:
        self.level = 0
        self.levels = (0, 0)
        self.played = [0, 0, 0, 0]
        self.events: list[Event] = []
        self.finish: list[int] = []
        self.turns: TurnTracker | None = None
        self.turns_ok = True
        self.first_leader: int | None = None
        self.top_owner: int | None = None

    def on_message(self, msg: dict[str, Any]) -> None:
        stage = msg.get("stage")
        if msg.get("type") != "notify":
            return
        if stage == "beginning":
            self._beginning(msg)
        elif stage == "anti-tribute":
            self.events.append(AntiTribute(tuple(_seat(s) for s in msg["antiPos"])))
        elif stage in _EXCHANGES:
            transfers = tuple(Transfer(_seat(a), _seat(b), parse_card(c, "protocol")) for a, b, c in msg["result"])
            self.events.append(_EXCHANGES[stage](transfers))
        elif stage == "play":
            self._play(_seat(msg["curPos"]), msg["curAction"])
        elif stage == "episodeOver":
            self.prev_finish = tuple(_seat(s) for s in msg["order"])
        elif stage == "gameOver":
            self.prev_finish, self.deal_index, self.new_game = None, -1, True

    def _beginning(self, msg: dict[str, Any]) -> None:
        self._start_deal()
        self.deal_index += 1
        self.seat = _seat(msg["myPos"])
        self.level = _rank(msg["curRank"])
        own, other = _rank(msg.get("selfRank", msg["curRank"])), _rank(msg.get("oppoRank", "2"))
        self.levels = (own, other) if self.seat % 2 == 0 else (other, own)

    def _play(self, seat: int, triple: Any) -> None:
        move = move_from_triple(triple, self.level, self.rules)
        if self.first_leader is None:
            self.first_leader = seat
            self.turns = TurnTracker(seat, self.rules)
        if move.combo is None:
            self.events.append(Passed(seat))
        else:
            self.events.append(Played(seat, move.cards, move.combo))
            self.played[seat] += len(move.cards)
            self.top_owner = seat
        out = self.played[seat] >= 27 and seat not in self.finish and move.combo is not None
        leader: int | None = None
        if self.turns is not None and self.turns_ok:
            try:
                leader = self.turns.pass_(seat) if move.combo is None else self.turns.play(seat, goes_out=out)[1]
            except GuandanError:
                self.turns_ok = False  # the server plays other turn rules: stop inferring round ends
        if out:
            self.finish.append(seat)
            self.events.append(WentOut(seat, len(self.finish)))
        if leader is not None and self.top_owner is not None:
            self.events.append(RoundWon(self.top_owner, leader, jiefeng=leader != self.top_owner))
            self.top_owner = None

    def decision_inputs(self, msg: dict[str, Any]) -> tuple[MatchObservation, list[Action], list[int]]:
        """(observation, the actions of ``actionList`` we could read, their indexes in it)."""
        phase = PHASE_OF_STAGE.get(str(msg.get("stage")))
        if phase is None:
            raise ProtocolError.said(N_("an act message with unknown stage {stage}"), stage=shown(msg.get("stage")))
        if self.seat < 0:
            raise ProtocolError.said(N_("an act message before any beginning message"))
        self.level = _rank(msg.get("curRank", RANKS[self.level]))
        legal: list[Action] = []
        indexes: list[int] = []
        for i, entry in enumerate(msg["actionList"]):
            try:
                legal.append(action_from_triple(entry, self.seat, self.level, self.rules))
            except GuandanError:
                continue  # a play our rule set cannot read: we simply never pick it
            indexes.append(i)
        top = None
        if msg.get("greaterPos", -1) != -1 and msg.get("greaterAction"):
            move = move_from_triple(msg["greaterAction"], self.level, self.rules)
            if move.combo is not None:
                top = (_seat(msg["greaterPos"]), move.cards, move.combo)
        rest = [int(p["rest"]) for p in msg["publicInfo"]]
        deal = Observation(
            seat=self.seat, phase=phase, to_move=self.seat, level=self.level,
            hand=parse_protocol_cards(msg["handCards"]),
            reported={s: rest[s] for s in range(4)},  # publicInfo.rest: every count is public there
            played_counts=tuple(self.played), top=top, finish=tuple(self.finish), events=tuple(self.events),
            prev_finish=self.prev_finish, legal=tuple(legal),
            first_leader=self.first_leader if phase is Phase.PLAY else None,
        )
        declarer = None
        if self.levels[0] != self.levels[1]:
            declarer = 0 if self.levels[0] == self.level else 1 if self.levels[1] == self.level else None
        obs = MatchObservation(deal=deal, deal_index=max(self.deal_index, 0), levels=self.levels, declarer=declarer,
                               a_failures=(0, 0), points=(0, 0, 0, 0), winner=None, ended=False)
        return obs, legal, indexes


__all__ = ["ProtocolTracker"]
