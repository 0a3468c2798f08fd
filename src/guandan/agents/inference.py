"""Inference from play (读牌): how well a sampled world explains what the other seats did.

Every play and pass of the deal is public, and the other seats are modelled as playing the unit
policy of :mod:`guandan.agents.policy` (the heuristic's own lead rule, and the playouts' follow
rule). In a sampled world each seat's hand at an earlier decision is known exactly — its hand now
plus every card it has played since — so the policy can be asked what that seat would have done
there. A world where it would have led or followed differently from what the seat really did is a
less likely world: :func:`guandan.agents.worlds.sample_weighted` redraws it, a few times at most, so
that a wrong model of a player can make a world less likely but never impossible.

Only the most recent decisions of each seat are checked (``per_seat``): they bind its hand now the
most, and each check costs a decomposition of the hand it held then.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import Card
from ..core.combos import Combo
from ..core.deal import Observation
from ..core.events import CardsReturned, Lead, Passed, Played, RoundWon, TributeGiven
from ..core.tribute import partner
from .decompose import Decomposer, Unit
from .policy import Table, follow, lead_unit


class Decision:
    """One earlier decision of another seat: the table it saw and what it did (``combo`` None: a
    pass), with the cards it has played from then on (its hand then is its hand now plus these)."""

    __slots__ = ("combo", "counts", "later", "owner", "seat", "top")

    def __init__(self, seat: int, counts: list[int], top: Combo | None, owner: int | None,
                 combo: Combo | None) -> None:
        self.seat = seat
        self.counts = counts
        self.top = top
        self.owner = owner
        self.combo = combo
        self.later: list[Card] = []


def decisions(obs: Observation, per_seat: int) -> list[Decision]:
    """The last ``per_seat`` telling decisions of every seat but ``obs.seat``, most recent first.

    Telling: every lead, every follow that played, and a pass on an opponent's play (a pass on the
    partner's play is what the policy always does, so it says nothing of the hand)."""
    counts = [27, 27, 27, 27]  # a seat that went out holds 0, as the table shows it
    top: Combo | None = None
    owner: int | None = None
    found: list[Decision] = []
    for e in obs.events:
        if isinstance(e, (TributeGiven, CardsReturned)):
            for t in e.transfers:
                counts[t.giver] -= 1
                counts[t.receiver] += 1
        elif isinstance(e, Played):
            s = e.player
            if s != obs.seat:
                found.append(Decision(s, list(counts), top, owner, e.combo))
            for d in found:
                if d.seat == s:
                    d.later.extend(e.cards)
            counts[s] -= len(e.cards)
            top, owner = e.combo, s
        elif isinstance(e, Passed):
            s = e.player
            if s != obs.seat and top is not None and owner is not None and owner != partner(s):
                found.append(Decision(s, list(counts), top, owner, None))
        elif isinstance(e, (RoundWon, Lead)):
            top, owner = None, None
    kept: list[Decision] = []
    taken = [0, 0, 0, 0]
    for d in reversed(found):
        if taken[d.seat] < per_seat:
            taken[d.seat] += 1
            kept.append(d)
    return kept


def _same(u: Unit | None, combo: Combo | None) -> bool:
    if u is None or combo is None:
        return u is None and combo is None
    c = u.combo
    return c.type == combo.type and c.size == combo.size and c.value == combo.value


def policy_agrees(d: Decision, hand_now: Sequence[Card], dec: Decomposer) -> bool:
    """Whether the unit policy, holding ``hand_now`` plus the cards played since, would have made
    decision ``d`` as the seat did (the same kind of play at the same rank, or a pass)."""
    held = list(hand_now)
    held.extend(d.later)
    units = list(dec(held).units)
    if not units:
        return False
    t = Table(d.seat, d.counts, d.top, d.owner)
    if d.top is None:
        return _same(lead_unit(units, t), d.combo)
    move = follow(units, t, dec)
    return _same(None if move is None else move[0], d.combo)


class PlayEvidence:
    """The decisions a sampled world is checked against, made once per search decision."""

    __slots__ = ("dec", "found")

    def __init__(self, obs: Observation, dec: Decomposer, per_seat: int) -> None:
        self.dec = dec
        self.found = decisions(obs, per_seat) if per_seat > 0 else []

    def __len__(self) -> int:
        return len(self.found)

    def misses(self, hands: Sequence[Sequence[Card]], limit: int) -> int:
        """How many decisions the world ``hands`` leaves unexplained, counting no further than
        ``limit`` (a caller that already holds a world as good needs no exact count past it)."""
        n = 0
        for d in self.found:
            if n >= limit:
                break
            if not policy_agrees(d, hands[d.seat], self.dec):
                n += 1
        return n


__all__ = ["Decision", "PlayEvidence", "decisions", "policy_agrees"]
