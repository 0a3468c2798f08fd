"""The player's own cards: level order, grouping (理牌) and the card counter (记牌器).

Grouping is a reading aid, not advice: jokers, then bombs (4+ of a rank), straight flushes among
the rest, triples, pairs, singles, and the wildcards (逢人配) apart so they stay visible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum

from ..core.cards import BIG_JOKER, SMALL_JOKER, Card, lv, wild_code
from ..core.events import AntiTribute, CardsReturned, Event, FirstLead, Played, TributeGiven
from ..core.vocab import RANKS
from ..i18n import N_
from ..present import rank_text


class Group(StrEnum):
    """The groups of a grouped hand (理牌), in display order."""

    JOKERS = "jokers"
    BOMB = "bomb"
    STRAIGHT_FLUSH = "straight_flush"
    TRIPLE = "triple"
    PAIR = "pair"
    SINGLE = "single"
    WILD = "wild"


GROUP_NAMES: dict[Group, str] = {
    Group.JOKERS: N_("jokers"),
    Group.WILD: N_("wildcards"),
    Group.BOMB: N_("bombs"),
    Group.STRAIGHT_FLUSH: N_("straight flushes"),
    Group.TRIPLE: N_("triples"),
    Group.PAIR: N_("pairs"),
    Group.SINGLE: N_("singles"),
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


def group_hand(hand: Sequence[Card], level: int) -> list[tuple[Group, list[Card]]]:
    """(group, cards) in display order."""
    wc = wild_code(level)
    rest = [c for c in hand if c != wc and c < SMALL_JOKER]
    groups: list[tuple[Group, list[Card]]] = []
    jokers = [c for c in hand if c in (SMALL_JOKER, BIG_JOKER)]
    if jokers:
        groups.append((Group.JOKERS, sorted(jokers)))
    by_rank = Counter(c >> 2 for c in rest)
    bombs = [r for r, n in by_rank.items() if n >= 4]
    for r in sorted(bombs, key=lambda r: lv(r * 4, level), reverse=True):
        groups.append((Group.BOMB, level_sorted([c for c in rest if c >> 2 == r], level)))
    rest = [c for c in rest if c >> 2 not in bombs]
    for run in _straight_flushes(rest):
        groups.append((Group.STRAIGHT_FLUSH, run))
        for c in run:
            rest.remove(c)
    by_rank = Counter(c >> 2 for c in rest)
    for size, key in ((3, Group.TRIPLE), (2, Group.PAIR), (1, Group.SINGLE)):
        ranks = sorted((r for r, n in by_rank.items() if n == size), key=lambda r: lv(r * 4, level), reverse=True)
        cards = [c for r in ranks for c in level_sorted([x for x in rest if x >> 2 == r], level)]
        if cards:
            groups.append((key, cards))
    wild = [c for c in hand if c == wc]
    if wild:
        groups.append((Group.WILD, wild))
    return groups


def known_elsewhere(seat: int, events: Sequence[Event]) -> Counter[Card]:
    """The cards ``seat`` knows to be in another hand: shown to everyone and not played since — the card
    flipped to find the first leader (明牌), the big jokers of an anti-tribute (抗贡), the tribute (进贡) and
    return (还贡) cards (RULES.md §4.1, §4.2.3, §4.2.6)."""
    held: list[Counter[Card]] = [Counter() for _ in range(4)]
    for e in events:
        match e:
            case FirstLead(leader=s, flipped=c) if c is not None:
                held[s][c] += 1
            case AntiTribute(seats=seats):
                for s in seats:  # a seat named twice holds both
                    held[s][BIG_JOKER] += 1
            case TributeGiven(transfers=ts) | CardsReturned(transfers=ts):
                for t in ts:
                    if held[t.giver][t.card]:
                        held[t.giver][t.card] -= 1
                    held[t.receiver][t.card] += 1
            case Played(player=s, cards=cards):
                held[s].subtract(cards)
                held[s] = +held[s]
    # the seat's own cards are in its hand, counted there
    return sum((held[s] for s in range(4) if s != seat), Counter())


def counter_rows(hand: Sequence[Card], events: Sequence[Event], level: int, seat: int) -> list[tuple[Card | None, str, int]]:
    """记牌器: per rank, high to low at this level, how many cards ``seat`` has not seen — neither in its
    hand, nor played, nor known in another hand (:func:`known_elsewhere`); 8 of each rank, 2 of each
    joker in the 108-card deck. Rows are (the joker, "", n) for the jokers and (None, the rank as people
    write it, n) for the ranks."""
    seen = Counter(hand) + known_elsewhere(seat, events)
    for e in events:
        if isinstance(e, Played):
            seen.update(e.cards)
    rows: list[tuple[Card | None, str, int]] = [(BIG_JOKER, "", 2 - seen[BIG_JOKER]),
                                                (SMALL_JOKER, "", 2 - seen[SMALL_JOKER])]
    for i in [level, *(r for r in reversed(range(len(RANKS))) if r != level)]:
        rows.append((None, rank_text(RANKS[i]), 8 - sum(seen[i * 4 + s] for s in range(4))))
    return rows
