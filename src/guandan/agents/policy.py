"""Lead and follow rules on decomposed hands, shared by the heuristic agent and search playouts.

They see a :class:`Table` — card counts, who is out, the top play and its owner — and the seat's
:class:`~guandan.agents.decompose.Unit` s, never a hidden hand. Partnership (配合) rules live here:
do not overtake a partner who is winning the round (不压队友), feed a partner close to going out
(送牌), stop an opponent with few cards (堵牌), and keep bombs for when they decide the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.combos import SINGLE, Combo, beats
from ..core.tribute import partner as partner_of
from .decompose import Unit

DANGER = 6  # an opponent with this many cards or fewer may go out soon: worth a bomb
CONTROL = 15  # singles / pairs of this value (level cards, jokers) are kept as control cards


@dataclass
class Table:
    """The public situation a policy decides on."""

    seat: int
    counts: Sequence[int]  # cards each seat holds (0 once out)
    top: Combo | None  # the play to beat; None when leading
    owner: int | None  # who made it

    def active(self, s: int) -> bool:
        return self.counts[s] > 0

    def opponents(self) -> list[int]:
        return [s for s in ((self.seat + 1) % 4, (self.seat + 3) % 4) if self.active(s)]

    def min_opponent(self) -> int:
        return min((self.counts[s] for s in self.opponents()), default=99)


def lead_key(u: Unit) -> float:
    """Lower leads first: low plays, and among them the ones that shed more cards."""
    n = len(u.cards)
    bonus = 0.0 if n == 1 else 1.5 if n < 5 else 3.0
    value = u.value if n < 5 or u.type not in ("straight", "tube", "plate", "pair_run", "triple_run") else u.value - 2
    return value - bonus


def lead_unit(units: Sequence[Unit], t: Table) -> Unit:
    """Which unit to lead (先出)."""
    normal = [u for u in units if not u.is_bomb]
    bombs = [u for u in units if u.is_bomb]
    if len(units) == 1:
        return units[0]
    if not normal:
        return min(bombs, key=lambda u: u.combo.power)
    if len(normal) == 1:
        return normal[0]  # the bombs win the lead back if someone beats it
    mate = partner_of(t.seat)
    mate_left = t.counts[mate]
    threat = t.min_opponent()
    if 0 < mate_left <= 2 and threat > 2:
        want = [u for u in normal if len(u.cards) == mate_left]
        if want:
            return min(want, key=lambda u: u.value)  # 送牌: a low play the partner can beat
    nxt = (t.seat + 1) % 4
    nxt_left = t.counts[nxt]
    choices = normal
    if 0 < nxt_left <= 2:
        # 堵牌: do not lead what the next opponent can finish on; else lead our strongest of it
        safe = [u for u in normal if len(u.cards) != nxt_left]
        if safe:
            choices = safe
        else:
            return max(normal, key=lambda u: u.value)
    if len(normal) == 2 and len(choices) == 2:
        high = max(choices, key=lambda u: u.value)
        if high.value >= CONTROL and len(high.cards) <= 2:
            return high  # take control with the big one, then go out with the other
    return min(choices, key=lead_key)


def follow_unit(units: Sequence[Unit], t: Table) -> Unit | None:
    """Follow with a whole unit (no breaking) or a bomb, or pass (None). Used by playouts."""
    top = t.top
    assert top is not None
    same = [u for u in units if not u.is_bomb and beats(u.combo, top)]
    if t.owner == partner_of(t.seat):
        if len(units) == 1 and same:
            return same[0]
        return None
    if same:
        u = min(same, key=lambda u: u.value)
        if (u.value >= CONTROL and top.type == SINGLE and top.value < 11 and t.min_opponent() > DANGER
                and len(units) > 4):
            return None  # keep a control card for later
        return u
    return bomb_choice(units, t)


def bomb_choice(units: Sequence[Unit], t: Table) -> Unit | None:
    """Bomb (炸) an opponent's play when it stops them going out or lets us finish soon."""
    top = t.top
    if top is None or t.owner is None or t.owner == partner_of(t.seat):
        return None
    bombs = [u for u in units if u.is_bomb and beats(u.combo, top)]
    if not bombs:
        return None
    normal = sum(1 for u in units if not u.is_bomb)
    owner_left = t.counts[t.owner]
    if owner_left <= DANGER or t.min_opponent() <= DANGER // 2 or normal <= 1 or (normal <= 2 and len(bombs) >= 2):
        return min(bombs, key=lambda u: u.combo.power)
    return None


__all__ = ["CONTROL", "DANGER", "Table", "bomb_choice", "follow_unit", "lead_key", "lead_unit", "partner_of"]
