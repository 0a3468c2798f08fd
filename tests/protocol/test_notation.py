"""Our notation ⇄ the protocol's, for every card and every combo our move generator produces."""

from __future__ import annotations

import random

import pytest

from guandan.core.cards import N_CODES, card_protocol, parse_card
from guandan.core.deal import Action, deal_cards
from guandan.core.moves import legal_moves
from guandan.core.rules import preset
from guandan.core.vocab import ActionKind, EqualTributeAssignment, MoveMode
from guandan.protocol.errors import ProtocolError
from guandan.protocol.notation import action_from_triple, action_triple, check_rules, move_from_triple
from guandan.protocol_names import protocol_action

COMPETITION = preset("competition")


def test_every_card_round_trips() -> None:
    names = [card_protocol(c) for c in range(N_CODES)]
    assert len(set(names)) == N_CODES
    assert names[52:] == ["SB", "HR"] and "SJ" in names  # SJ is the jack of spades, not a joker
    assert [parse_card(n, "protocol") for n in names] == list(range(N_CODES))


@pytest.mark.parametrize("mode", list(MoveMode))
def test_every_combo_from_random_hands_round_trips(mode: MoveMode) -> None:
    rng = random.Random(2020)
    types: set[str] = set()
    for _ in range(6):
        hands, _, _ = deal_cards(rng)
        level = rng.randrange(13)
        for hand in hands:
            seen: set[str] = set()
            for move in legal_moves(hand, None, level, COMPETITION, mode):
                triple = protocol_action(move.cards, move.combo, level)
                text = repr(triple)
                assert text not in seen, f"two moves share the protocol form {text}"
                seen.add(text)
                assert move_from_triple(triple, level, COMPETITION) == move
                assert move.combo is not None
                types.add(triple[0])
    assert {"Single", "Pair", "Trips", "ThreeWithTwo", "Straight", "Bomb"} <= types


@pytest.mark.parametrize(("cards", "level", "expected"), [
    ("H2 D8 D9 CT HQ", 0, ["Straight", "8", ["H2", "D8", "D9", "CT", "HQ"]]),  # PROTOCOL-2020.md's example
    ("SA S2 S3 S4 S5", 7, ["StraightFlush", "A", ["S2", "S3", "S4", "S5", "SA"]]),
    ("LJ LJ BJ BJ", 0, ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]),
    ("LJ LJ", 0, ["Pair", "B", ["SB", "SB"]]),
    ("SA HA S2 H2 S3 H3", 5, ["ThreePair", "A", ["S2", "H2", "S3", "H3", "SA", "HA"]]),
    ("S9 H9 D9 C5 D5", 0, ["ThreeWithTwo", "9", ["C5", "D5", "S9", "H9", "D9"]]),
])
def test_known_protocol_forms(cards: str, level: int, expected: list[object]) -> None:
    from guandan.core.cards import parse_cards

    codes = tuple(sorted(parse_cards(cards)))
    (move,) = [m for m in legal_moves(codes, None, level, COMPETITION) if sorted(m.cards) == list(codes)
               and protocol_action(m.cards, m.combo, level)[0] == expected[0]]
    triple = protocol_action(move.cards, move.combo, level)
    assert triple[:2] == expected[:2] and sorted(triple[2]) == sorted(expected[2])  # type: ignore[arg-type]


def test_pass_tribute_and_back_forms() -> None:
    assert action_triple(Action(ActionKind.PASS, 1), 0) == ["PASS", "PASS", "PASS"]
    assert action_triple(Action(ActionKind.TRIBUTE, 1, (52,)), 0) == ["tribute", "tribute", ["SB"]]
    assert action_triple(Action(ActionKind.RETURN, 2, (0,)), 0) == ["back", "back", ["S2"]]
    assert action_from_triple(["back", "back", ["S2"]], 2, 0, COMPETITION) == Action(ActionKind.RETURN, 2, (0,))
    assert action_from_triple(["tribute", "tribute", ["SB"]], 1, 0, COMPETITION) == Action(ActionKind.TRIBUTE, 1, (52,))
    assert action_from_triple(["PASS", "PASS", "PASS"], 3, 0, COMPETITION) == Action(ActionKind.PASS, 3)
    with pytest.raises(ProtocolError, match="choose"):
        action_triple(Action(ActionKind.CHOOSE, 0, (5,)), 0)


@pytest.mark.parametrize("bad", [
    "Single", ["Single", "3"], ["Single", "4", ["S3"]], ["Pair", "3", ["S3", "X9"]], ["Single", "3", "S3"],
    ["Straight", "3", ["S3", "S4", "S5", "S6", "S8"]], ["PASS", "PASS", []], ["back", "tribute", ["S3"]],
])
def test_bad_triples_are_named(bad: object) -> None:
    with pytest.raises(ProtocolError):
        action_from_triple(bad, 0, 0, COMPETITION)


@pytest.mark.parametrize("name", ["competition", "huaian-traditional", "huaian-2009"])
def test_standard_presets_are_supported(name: str) -> None:
    check_rules(preset(name))


def test_huopin_and_winners_choose_are_refused() -> None:
    with pytest.raises(ProtocolError, match="standard hand types"):
        check_rules(preset("huopin"))
    with pytest.raises(ProtocolError, match="winners_choose"):
        check_rules(preset("competition", equal_tribute_assignment=EqualTributeAssignment.WINNERS_CHOOSE))
