"""The player's own cards: level order, grouping (理牌) and the card counter (记牌器).

Grouping is a reading aid, not advice: jokers, then bombs (4+ of a rank), straight flushes among
the rest, triples, pairs, singles, and the wildcards (逢人配) apart so they stay visible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..core.cards import BIG_JOKER, RANKS, SMALL_JOKER, Card, lv, wild_code
from ..core.deal import Event
from ..i18n import N_

GROUP_NAMES = {
    "jokers": N_("jokers"),
    "wild": N_("wildcards (逢人配)"),
    "bomb": N_("bombs"),
    "straight_flush": N_("straight flushes"),
    "triple": N_("triples"),
    "pair": N_("pairs"),
    "single": N_("singles"),
}


def level_sorted(cards: Iterable[Card], level: int) -> list[Card]:
    """Low to high in single-card order at the level (the level rank just below the jokers)."""
    return sorted(cards, key=lambda c: (lv(c, level), c))


def _straight_flushes(cards: list[Card]) -> list[list[Card]]:
    """Greedy 5-card same-suit runs among natural cards, highest first (A plays low in A-2-3-4-5)."""
    def code(position: int, suit: int) -> Card:  # positions 1 (A low) … 14 (A high)
        return (12 if position == 1 else position - 2) * 4 + suit

    found: list[list[Card]] = []
    pool = Counter(cards)
    for suit in range(4):
        for top in range(14, 4, -1):
            run = [code(p, suit) for p in range(top - 4, top + 1)]
            while all(pool[c] > 0 for c in run):
                pool.subtract(run)
                found.append(run)
    return found


def group_hand(hand: Sequence[Card], level: int) -> list[tuple[str, list[Card]]]:
    """(group key, cards) in display order; keys are those of :data:`GROUP_NAMES`."""
    wc = wild_code(level)
    rest = [c for c in hand if c != wc and c < 52]
    groups: list[tuple[str, list[Card]]] = []
    jokers = [c for c in hand if c in (SMALL_JOKER, BIG_JOKER)]
    if jokers:
        groups.append(("jokers", sorted(jokers)))
    by_rank = Counter(c >> 2 for c in rest)
    bombs = [r for r, n in by_rank.items() if n >= 4]
    for r in sorted(bombs, key=lambda r: lv(r * 4, level), reverse=True):
        groups.append(("bomb", level_sorted([c for c in rest if c >> 2 == r], level)))
    rest = [c for c in rest if c >> 2 not in bombs]
    for run in _straight_flushes(rest):
        groups.append(("straight_flush", run))
        for c in run:
            rest.remove(c)
    by_rank = Counter(c >> 2 for c in rest)
    for size, key in ((3, "triple"), (2, "pair"), (1, "single")):
        ranks = sorted((r for r, n in by_rank.items() if n == size), key=lambda r: lv(r * 4, level), reverse=True)
        cards = [c for r in ranks for c in level_sorted([x for x in rest if x >> 2 == r], level)]
        if cards:
            groups.append((key, cards))
    wild = [c for c in hand if c == wc]
    if wild:
        groups.append(("wild", wild))
    return groups


def counter_rows(hand: Sequence[Card], events: Sequence[Event], level: int) -> list[tuple[str, int]]:
    """记牌器: per rank, high to low at this level, how many cards are neither in the player's hand
    nor played yet (8 of each rank, 2 of each joker in the 108-card deck)."""
    seen = Counter(hand)
    for e in events:
        if e.type == "play":
            seen.update(e.cards)
    order = ["BJ", "LJ", RANKS[level], *[r for r in reversed(RANKS) if r != RANKS[level]]]
    rows: list[tuple[str, int]] = []
    for r in order:
        if r == "BJ":
            left = 2 - seen[BIG_JOKER]
        elif r == "LJ":
            left = 2 - seen[SMALL_JOKER]
        else:
            i = RANKS.index(r)
            left = 8 - sum(seen[i * 4 + s] for s in range(4))
        rows.append(("10" if r == "T" else r, left))
    return rows
