"""Card counting (记牌): what a seat can know from its own hand and the public events alone.

Every play is public, and so are the tribute (进贡), return (还贡) and anti-tribute (抗贡) cards, so
each seat's card count is known exactly, the unseen cards are known as a multiset, and some of them
are known to sit in a particular hand (a tribute card the receiver has not played yet). A tribute
is the payer's highest card apart from the wildcards (§4.2.2), so it also caps what the payer can
still hold. Passes are soft evidence and are kept as the last combo each seat declined to beat.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from ..core.cards import BIG_JOKER, Card, lv, physical_deck
from ..core.combos import Combo
from ..core.events import AntiTribute, CardsReturned, Lead, Passed, Played, RoundWon, TributeGiven
from ..core.match import MatchObservation

FULL_DECK: Counter[Card] = Counter(pc.code for pc in physical_deck())
NO_CEILING: Final = 17  # the big joker's value: a seat that paid no tribute may hold any card


@dataclass
class Knowledge:
    """What ``seat`` knows about the deal in progress."""

    seat: int
    counts: list[int]  # cards held by each seat now
    unseen: Counter[Card]  # cards in the other three hands, as a multiset
    known: list[Counter[Card]]  # cards known to be in a given other hand
    played: Counter[Card] = field(default_factory=Counter)
    declined: list[list[Combo]] = field(default_factory=lambda: [[], [], [], []])  # combos each seat passed on
    level: int = 0  # the deal's level (rank index), which the ceilings' values are taken at
    # per seat, the highest value (lv) of a card it may hold besides wildcards and known cards: a
    # payer's tribute (进贡) was its highest, and hands only shrink after the return
    ceiling: list[int] = field(default_factory=lambda: [NO_CEILING] * 4)


def read(obs: MatchObservation) -> Knowledge:
    """Count the cards from ``obs`` (the seat's own observation: never another seat's hand)."""
    deal = obs.deal
    seat = deal.seat
    counts = [27, 27, 27, 27]
    known: list[Counter[Card]] = [Counter() for _ in range(4)]
    played: Counter[Card] = Counter()
    declined: list[list[Combo]] = [[], [], [], []]
    ceiling = [NO_CEILING] * 4
    top: Combo | None = None
    for e in deal.events:
        if isinstance(e, (TributeGiven, CardsReturned)):
            for t in e.transfers:
                if isinstance(e, TributeGiven):
                    ceiling[t.giver] = lv(t.card, deal.level)
                counts[t.giver] -= 1
                counts[t.receiver] += 1
                if known[t.giver][t.card]:
                    known[t.giver][t.card] -= 1
                known[t.receiver][t.card] += 1
        elif isinstance(e, AntiTribute):
            for s in e.seats:
                known[s][BIG_JOKER] += 1
        elif isinstance(e, Played):
            counts[e.player] -= len(e.cards)
            played.update(e.cards)
            for c in e.cards:
                if known[e.player][c]:
                    known[e.player][c] -= 1
            top = e.combo
        elif isinstance(e, Passed) and top is not None:
            declined[e.player].append(top)
        elif isinstance(e, (RoundWon, Lead)):
            top = None
    counts[seat] = len(deal.hand)
    unseen = FULL_DECK - Counter(deal.hand) - played
    known[seat] = Counter()
    for s in range(4):
        known[s] = +known[s]
    return Knowledge(seat, counts, unseen, known, played, declined, deal.level, ceiling)


__all__ = ["FULL_DECK", "NO_CEILING", "Knowledge", "read"]
