"""Deal specs for duplicate play (复式): everything that fixes a deal except who sits where.

A spec is drawn from the arena seed and its index only — never from the agents — so both halves
of a pair, and every run with the same seed, play exactly the same deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..core.cards import Card
from ..core.deal import deal_cards
from ..core.match import MatchConfig
from ..core.vocab import MoveMode


@dataclass(frozen=True)
class DealSpec:
    index: int
    hands: tuple[tuple[Card, ...], ...]
    levels: tuple[int, int]  # per team, rank indices
    declarer: int | None  # team; None for a first deal
    prev_finish: tuple[int, ...] | None  # drives the tribute (进贡); None: first deal, flip leader
    first_leader: int | None

    def config(self, move_mode: MoveMode = MoveMode.COMPLETE) -> MatchConfig:
        """A one-deal match that starts exactly in this situation."""
        return MatchConfig(max_deals=1, start_levels=self.levels, start_declarer=self.declarer,
                           start_prev_finish=self.prev_finish, first_hands=self.hands,
                           first_leader=self.first_leader, move_mode=move_mode)


def draw_spec(seed: int | str, index: int) -> DealSpec:
    """Spec ``index`` of the arena run ``seed``: random hands, team levels, declarer and (half the
    time) a tribute situation from a previous result."""
    rng = random.Random(f"arena-spec:{seed}:{index}")
    levels = (rng.randrange(13), rng.randrange(13))
    if rng.random() < 0.5:
        hands, _, _ = deal_cards(rng, 0)
        return DealSpec(index, tuple(tuple(h) for h in hands), (0, 0), None, None, rng.randrange(4))
    order = [0, 1, 2, 3]
    rng.shuffle(order)
    declarer = order[0] % 2
    level = levels[declarer]
    hands, _, _ = deal_cards(rng, level)
    return DealSpec(index, tuple(tuple(h) for h in hands), levels, declarer, tuple(order), None)


__all__ = ["DealSpec", "draw_spec"]
