"""Our combos written as the 2020 competition protocol's ``[type, rank, cards]`` triples
(``../shared/PROTOCOL-2020.md``). Shared by the CLI and the protocol adapter."""

from __future__ import annotations

from .core.cards import Card, card_protocol
from .core.combos import Combo
from .core.vocab import RANKS, ComboKey, ComboType

PROTOCOL_TYPES: dict[ComboType, str] = {
    ComboType.SINGLE: "Single",
    ComboType.PAIR: "Pair",
    ComboType.TRIPLE: "Trips",
    ComboType.FULL_HOUSE: "ThreeWithTwo",
    ComboType.TUBE: "ThreePair",
    ComboType.PLATE: "TwoTrips",
    ComboType.STRAIGHT: "Straight",
    ComboType.STRAIGHT_FLUSH: "StraightFlush",
    ComboType.BOMB: "Bomb",
    ComboType.JOKER_BOMB: "Bomb",
}
_SEQUENCE_LENGTH: dict[ComboType, int] = {  # a sequence's number of ranks (its key is the top rank)
    ComboType.STRAIGHT: 5,
    ComboType.STRAIGHT_FLUSH: 5,
    ComboType.TUBE: 3,
    ComboType.PLATE: 2,
}


def protocol_rank(combo: Combo) -> str:
    """Rank as the protocol writes it: sequences by their lowest rank, jokers B/R, four jokers JOKER."""
    if combo.type is ComboType.JOKER_BOMB:
        return "JOKER"
    if combo.key == ComboKey.SMALL_JOKER:
        return "B"
    if combo.key == ComboKey.BIG_JOKER:
        return "R"
    if combo.type in _SEQUENCE_LENGTH:
        top = RANKS.index(combo.key) + 2
        low = top - _SEQUENCE_LENGTH[combo.type] + 1
        return "A" if low == 1 else RANKS[low - 2]
    return combo.key


def protocol_action(cards: tuple[Card, ...], combo: Combo | None, level: int) -> list[object]:
    """``["PASS", "PASS", "PASS"]`` or ``[type, rank, [cards]]``."""
    if combo is None:
        return ["PASS", "PASS", "PASS"]
    if combo.type not in PROTOCOL_TYPES:
        raise ValueError(f"{combo.type} has no name in the 2020 protocol (it only knows the standard hand types)")
    return [PROTOCOL_TYPES[combo.type], protocol_rank(combo), [card_protocol(c) for c in cards]]
