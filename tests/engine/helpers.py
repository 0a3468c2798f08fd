"""Shared invariant checks for the deal and match engine tests."""

from __future__ import annotations

from collections import Counter

from guandan.core.cards import physical_deck
from guandan.core.deal import DealState
from guandan.core.events import Played
from guandan.core.vocab import ActionKind, Phase

FULL_DECK = Counter(pc.code for pc in physical_deck())


def played_cards(deal: DealState) -> Counter[int]:
    return Counter(c for e in deal.events if isinstance(e, Played) for c in e.cards)


def check_conservation(deal: DealState) -> None:
    """Hands + played cards + tribute cards in transit are always the 108 cards."""
    in_hands = Counter(c for h in deal.hands for c in h)
    in_transit = Counter(deal._paid.values()) if deal.phase in (Phase.TRIBUTE, Phase.CHOOSE) else Counter()
    assert in_hands + played_cards(deal) + in_transit == FULL_DECK


def snapshot(deal: DealState) -> tuple[object, ...]:
    """Everything an illegal action must leave unchanged."""
    return (
        tuple(tuple(h) for h in deal.hands), deal.phase, deal.to_move, len(deal.events), len(deal.actions),
        deal.top, tuple(deal.finish), tuple(deal.reported), dict(deal._paid), dict(deal._returned),
    )


def check_observation(deal: DealState, seat: int) -> None:
    """observation(seat) holds the seat's own hand and nothing of any other hidden hand."""
    obs = deal.observation(seat)
    assert sorted(obs.hand) == sorted(deal.hands[seat])
    public = Counter(c for e in obs.events for c in e.revealed)
    visible = Counter(obs.hand) + public
    if obs.top is not None:
        visible += Counter(obs.top[1])
    allowed = Counter(deal.hands[seat]) + played_cards(deal) + public
    # every card the seat can see is its own, played, or publicly revealed
    assert not (visible - allowed - public), "observation reveals a hidden card"
    for a in obs.legal:
        assert a.seat == seat
        assert all(c in deal.hands[seat] for c in a.cards) or a.kind == ActionKind.CHOOSE
    if deal.to_move != seat:
        assert obs.legal == ()
    for s in range(4):
        if s != seat and not deal.reported[s]:
            assert s not in obs.public_counts
