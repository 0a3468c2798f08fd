"""Determinization (确定化) for search: hidden hands consistent with everything public, and a
fast unit-level playout of the rest of the deal.

A sampled world gives each other seat exactly its known card count, puts the cards known to be in a
hand (tribute and return cards not played since, big jokers revealed by 抗贡) there, and deals the
other unseen cards at random. Playouts then run the decomposition policy of
:mod:`guandan.agents.policy` for all four seats on whole units — no move generation, so thousands
fit in a second — on a copy of the real :class:`~guandan.core.turns.TurnTracker`, which keeps the
turn order, 接风 and the end of the deal exactly as the engine does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.cards import Card
from ..core.combos import Combo
from ..core.deal import Observation
from ..core.rules import RuleSet
from ..core.turns import TurnTracker
from .counting import Knowledge
from .decompose import Unit
from .policy import Table, follow_unit, lead_unit


def sample_hands(know: Knowledge, hand: Sequence[Card], rng: random.Random) -> list[list[Card]]:
    """One world: the four hands now (``hand`` for the observing seat)."""
    me = know.seat
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[me] = list(hand)
    pool = know.unseen.copy()
    for s in range(4):
        if s == me:
            continue
        for card, n in know.known[s].items():
            take = min(n, pool[card], know.counts[s] - len(hands[s]))
            hands[s].extend([card] * take)
            pool[card] -= take
    rest = list(pool.elements())
    rng.shuffle(rest)
    for s in range(4):
        if s == me:
            continue
        need = max(0, know.counts[s] - len(hands[s]))
        hands[s].extend(rest[:need])
        del rest[:need]
    return hands


def tracker_from(obs: Observation, rules: RuleSet) -> TurnTracker:
    """Rebuild the engine's turn tracker by replaying the public plays and passes of this deal."""
    assert obs.first_leader is not None, "only during play"
    t = TurnTracker(obs.first_leader, rules)
    events = obs.events
    for i, e in enumerate(events):
        if e.seat is None:
            continue
        if e.type == "play":
            goes_out = False
            for f in events[i + 1 : i + 4]:
                if f.type == "out" and f.seat == e.seat:
                    goes_out = True
                elif f.type in ("play", "pass"):
                    break
            t.play(e.seat, goes_out)
        elif e.type == "pass":
            t.pass_(e.seat)
    return t


def playout(units: list[list[Unit]], tracker: TurnTracker, top: Combo | None, owner: int | None,
            max_steps: int = 600) -> list[int]:
    """Play the deal to its end with the unit policy; returns the finishing order. Mutates its inputs."""
    counts = [sum(len(u.cards) for u in us) for us in units]
    for _ in range(max_steps):
        if tracker.over:
            return tracker.finish
        s = tracker.turn
        mine = units[s]
        if not mine:  # inconsistent world (should not happen): end the seat to keep going
            return tracker.finish + [x for x in range(4) if x not in tracker.finish]
        table = Table(s, counts, top if not tracker.leading else None, owner)
        u = lead_unit(mine, table) if tracker.leading else follow_unit(mine, table)
        if u is None:
            if tracker.pass_(s) is not None:
                top, owner = None, None
            continue
        mine.remove(u)
        counts[s] -= len(u.cards)
        _place, leader = tracker.play(s, goes_out=not mine)
        top, owner = u.combo, s
        if leader is not None:
            top, owner = None, None
    return tracker.finish + [x for x in range(4) if x not in tracker.finish]


def level_points(finish: Sequence[int], seat: int, rules: RuleSet) -> float:
    """Signed levels for ``seat``'s team: + the upgrade when it won the deal, − when it lost (§5.2)."""
    winner = finish[0]
    mate_place = list(finish).index((winner + 2) % 4) + 1
    up = rules.upgrade(mate_place)
    return float(up if winner % 2 == seat % 2 else -up)


__all__ = ["level_points", "playout", "sample_hands", "tracker_from"]
