"""The order in which a play's cards are shown: the order its combination reads.

The engine keeps a play's cards sorted by code, which says nothing of what the wildcards (逢人配) stand
for. Shown in reading order, a straight 10-J-Q-K-A whose K is a wildcard has the wildcard in the K's
place, a full house shows its triple and then its pair, a tube or plate runs rank by rank (A-2-3 starts
with the ace), an airplane shows its triples and then its pairs. The combination (its type, key and
size; a chain bomb's ranks and cards per rank) says where every card goes; the natural cards take the
places of their own rank, and the wildcards — or, under 火拼, a big joker played as any card — fill the
places left, in rank order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core.cards import Card, rank_index, wild_code
from ..core.combos import Combo
from ..core.vocab import RANKS, ComboKey, ComboType

_SAME_RANK = frozenset({ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPLE, ComboType.BOMB})
_CARDS_PER_RANK = {ComboType.STRAIGHT: 1, ComboType.STRAIGHT_FLUSH: 1, ComboType.TUBE: 2, ComboType.PAIR_RUN: 2,
                   ComboType.PLATE: 3, ComboType.TRIPLE_RUN: 3}
_JOKER_RANKS: dict[str, int] = {ComboKey.SMALL_JOKER: 13, ComboKey.BIG_JOKER: 14}  # rank_index of the jokers


def _rank_at(position: int) -> int:
    """The rank index at a sequence position (1 is the ace below 2, 2…14 are 2…A)."""
    return 12 if position == 1 else position - 2


def _run(top: int, span: int) -> list[int]:
    """The rank indexes of ``span`` sequence positions ending at ``top``, low to high."""
    return [_rank_at(p) for p in range(top - span + 1, top + 1)]


def _places(cards: Sequence[Card], combo: Combo, wild: Card | None) -> list[int | None] | None:
    """The rank of each place of the combination in reading order (``None``: a place any card may take),
    or ``None`` when the plain card order already reads right (the joker bombs)."""
    n = len(cards)
    if combo.key == ComboKey.JOKERS:
        return None
    if combo.type in _SAME_RANK:
        rank = _JOKER_RANKS[combo.key] if combo.key in _JOKER_RANKS else RANKS.index(combo.key)
        return [rank] * n
    if combo.type == ComboType.FULL_HOUSE:
        triple = RANKS.index(combo.key)
        pair = [rank_index(c) for c in cards if c != wild and rank_index(c) != triple]
        return [triple] * 3 + [pair[0] if pair else None] * 2
    top = RANKS.index(combo.key) + 2
    if combo.type == ComboType.CHAIN_BOMB:
        if combo.x is None or combo.y is None:
            return None
        return [r for r in _run(top, combo.y) for _ in range(combo.x)]
    if combo.type == ComboType.AIRPLANE:
        k = n // 5
        triples = _run(top, k)
        rest = Counter(rank_index(c) for c in cards if c != wild)
        rest.subtract({r: 3 for r in triples})
        pairs: list[int | None] = [None] * k
        for pair_top in range(k, 15):  # the pairs' run: the one the natural cards left over fit in
            window = _run(pair_top, k)
            if not set(window) & set(triples) and all(r in window and c <= 2 for r, c in rest.items() if c > 0):
                pairs = list(window)
                break
        return [r for r in triples for _ in range(3)] + [r for r in pairs for _ in range(2)]
    per = _CARDS_PER_RANK.get(combo.type)
    if per is None:
        return None
    return [r for r in _run(top, n // per) for _ in range(per)]


def play_order(cards: Sequence[Card], combo: Combo, level: int | None = None) -> list[Card]:
    """``cards`` (read as ``combo``) in the order the combination reads. ``level`` (a rank index) tells the
    wildcards apart; without it every card is taken for what it shows."""
    ordered = sorted(cards)
    wild = wild_code(level) if level is not None else None
    places = _places(ordered, combo, wild)
    if places is None or len(places) != len(ordered):
        return ordered
    pool = list(ordered)
    placed: list[Card | None] = []
    for rank in places:
        natural = next((c for c in pool if c != wild and rank_index(c) == rank), None) if rank is not None else None
        if natural is not None:
            pool.remove(natural)
        placed.append(natural)
    # what is left stands for the ranks still missing: the wildcards first, in the order of the places
    stand_ins = iter(sorted(pool, key=lambda c: (c != wild, c)))
    return [c if c is not None else next(stand_ins) for c in placed]


__all__ = ["play_order"]
