"""`greedy`: leads its lowest play, follows with the smallest play that beats, bombs reluctantly.

"Lowest" is by the combo's value, preferring plays that shed more cards at equal value. A bomb is
used only to stop an opponent close to going out (or when the bot itself can then finish).
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from ..core.cards import lv
from ..core.deal import Action
from ..core.match import MatchObservation
from ..core.tribute import partner
from ..core.vocab import ActionKind
from .base import Agent, register

DANGER = 6  # an opponent with this many cards or fewer is worth a bomb


def opponent_close(obs: MatchObservation, seat: int) -> bool:
    counts = obs.deal.public_counts
    return any(counts.get(s, 99) <= DANGER for s in ((seat + 1) % 4, (seat + 3) % 4) if s not in obs.deal.finish)


@mypyc_attr(allow_interpreted_subclasses=True)  # an agent is an extension point: tests and plugins subclass it
class GreedyAgent(Agent):
    name = "greedy"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        first = legal[0]
        level = obs.deal.level
        if first.kind == ActionKind.TRIBUTE:
            return first
        if first.kind in (ActionKind.RETURN, ActionKind.CHOOSE):
            return min(legal, key=lambda a: (lv(a.cards[0], level), a.cards[0]))
        plays = [a for a in legal if a.kind == ActionKind.PLAY]
        passing = next((a for a in legal if a.kind == ActionKind.PASS), None)
        if not plays:
            assert passing is not None
            return passing
        normal = [a for a in plays if a.combo is not None and not a.combo.is_bomb]
        bombs = [a for a in plays if a.combo is not None and a.combo.is_bomb]
        hand_size = len(obs.deal.hand)
        if normal:
            if passing is not None and obs.deal.top is not None and obs.deal.top[0] == partner(self.seat):
                return passing  # never overtake the partner
            return min(normal, key=lambda a: (a.combo.value if a.combo else 0, -len(a.cards), a.cards))
        top_seat = obs.deal.top[0] if obs.deal.top else None
        partner_top = top_seat == partner(self.seat)
        finishing = [a for a in bombs if len(a.cards) == hand_size]
        if finishing:
            return finishing[0]
        if passing is None or (not partner_top and opponent_close(obs, self.seat)):
            return min(bombs, key=lambda a: (a.combo.power if a.combo else 0, a.cards))
        return passing


register("greedy")(lambda seed, budget: GreedyAgent(seed, budget))
