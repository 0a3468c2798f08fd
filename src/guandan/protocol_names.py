"""Our combos written as the 2020 competition protocol's ``[type, rank, cards]`` triples
(``../shared/PROTOCOL-2020.md``). Shared by the CLI and the protocol adapter."""

from __future__ import annotations

from .core.cards import RANKS, Card, card_protocol
from .core.combos import Combo

PROTOCOL_TYPES = {
    "single": "Single",
    "pair": "Pair",
    "triple": "Trips",
    "full_house": "ThreeWithTwo",
    "tube": "ThreePair",
    "plate": "TwoTrips",
    "straight": "Straight",
    "straight_flush": "StraightFlush",
    "bomb": "Bomb",
    "joker_bomb": "Bomb",
}
_SEQUENCES = {"straight", "straight_flush", "tube", "plate"}


def protocol_rank(combo: Combo) -> str:
    """Rank as the protocol writes it: sequences by their lowest rank, jokers B/R, four jokers JOKER."""
    if combo.type == "joker_bomb":
        return "JOKER"
    if combo.key == "LJ":
        return "B"
    if combo.key == "BJ":
        return "R"
    if combo.type in _SEQUENCES:
        top = RANKS.index(combo.key) + 2
        low = top - {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}[combo.type] + 1
        return "A" if low == 1 else RANKS[low - 2]
    return combo.key


def protocol_action(cards: tuple[Card, ...], combo: Combo | None, level: int) -> list[object]:
    """``["PASS", "PASS", "PASS"]`` or ``[type, rank, [cards]]``."""
    if combo is None:
        return ["PASS", "PASS", "PASS"]
    if combo.type not in PROTOCOL_TYPES:
        raise ValueError(f"{combo.type} has no name in the 2020 protocol (it only knows the standard hand types)")
    return [PROTOCOL_TYPES[combo.type], protocol_rank(combo), [card_protocol(c) for c in cards]]
