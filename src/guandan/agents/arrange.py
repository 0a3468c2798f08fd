"""理牌: a hand arranged into groups the way players lay their cards out — bombs, then runs (straights,
tubes, plates), triples, pairs and singles — from the engine's own decomposition (拆牌, agents.decompose).

A full house (三带二) is laid out as its triple and its pair: a player keeps them apart until the play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import Card, wild_code
from ..core.reduce import by_init
from ..core.rules import RuleSet
from ..core.vocab import ComboType
from .decompose import Decomposer, Unit

# the order groups are laid out in, left to right
_ORDER: dict[str, int] = {
    ComboType.JOKER_BOMB: 0, ComboType.THREE_JOKERS: 0, ComboType.CHAIN_BOMB: 0, ComboType.STRAIGHT_FLUSH: 0,
    ComboType.BOMB: 0,
    ComboType.STRAIGHT: 1, ComboType.TUBE: 1, ComboType.PLATE: 1, ComboType.PAIR_RUN: 1, ComboType.TRIPLE_RUN: 1,
    ComboType.AIRPLANE: 1,
    ComboType.TRIPLE: 2, ComboType.PAIR: 3, ComboType.SINGLE: 4,
}


@dataclass(frozen=True, slots=True)
class Group:
    """One group of an arranged hand: its cards and the hand type they make (``ComboType`` value)."""

    kind: str
    cards: tuple[Card, ...]
    value: int  # the group's strength within its kind (the combo's value), for the order

    def __reduce__(self) -> tuple[Any, ...]:
        return by_init(self)  # compiled, the default pickling cannot rebuild it


def arrange_hand(hand: Sequence[Card], level: int, rules: RuleSet) -> list[Group]:
    """The hand in groups: every card exactly once, bombs first (strongest first), then runs, triples,
    pairs and singles (each lowest first)."""
    if not hand:
        return []
    units = Decomposer(rules, level).decompose(hand).units
    groups: list[Group] = []
    for unit in units:
        groups.extend(_split(unit, level))
    placed = Counter(c for g in groups for c in g.cards)
    left = list((Counter(hand) - placed).elements())  # the decomposition covers the hand; this guards the rest
    groups.extend(Group(ComboType.SINGLE, (c,), 0) for c in sorted(left))

    def order(g: Group) -> tuple[int, int]:
        rank = _ORDER.get(g.kind, 4)  # a ComboType is its str value: the lookup takes either
        return rank, -g.value if rank == 0 else g.value

    return sorted(groups, key=order)


def _split(unit: Unit, level: int) -> list[Group]:
    if unit.type != ComboType.FULL_HOUSE:
        return [Group(unit.type, tuple(sorted(unit.cards)), unit.value)]
    wild = wild_code(level)
    natural = Counter(c >> 2 for c in unit.cards if c != wild and c < 52)
    if natural:
        top = max(natural, key=lambda r: (natural[r], r))
        triple = [c for c in unit.cards if c != wild and c < 52 and c >> 2 == top][:3]
        rest = list(unit.cards)
        for c in triple:
            rest.remove(c)
        while len(triple) < 3 and wild in rest:  # a wildcard (逢人配) completes the triple first
            rest.remove(wild)
            triple.append(wild)
        if len(triple) == 3 and len(rest) == 2:
            return [Group(ComboType.TRIPLE, tuple(sorted(triple)), unit.value),
                    Group(ComboType.PAIR, tuple(sorted(rest)), 0)]
    return [Group(unit.type, tuple(sorted(unit.cards)), unit.value)]
