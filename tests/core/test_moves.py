"""legal_moves on small hands whose moves were counted by hand (RULES.md §3.3, §4.3)."""

from __future__ import annotations

import pytest

from guandan.core import (
    PASS,
    Combo,
    GuandanError,
    Move,
    RuleSet,
    format_cards,
    legal_moves,
    parse_cards,
    parse_level,
    preset,
    resolve_combo,
)

COMPETITION = preset("competition")
HUOPIN = preset("huopin")


def moves(hand: str, level: str, rules: RuleSet = COMPETITION, top: str | None = None, mode: str = "complete") -> list[Move]:
    lvl = parse_level(level)
    top_combo = resolve_combo(parse_cards(top), lvl, rules) if top else None
    return legal_moves(parse_cards(hand), top_combo, lvl, rules, mode=mode)


def listing(ms: list[Move]) -> set[tuple[str, str, str]]:
    """(cards, type, key) of each play."""
    return {(format_cards(m.cards), m.combo.type, m.combo.key) for m in ms if m.combo is not None}


def test_three_threes() -> None:
    # S3 S3 H3 at level 2: singles S3, H3 (2); pairs S3 S3, S3 H3 (2); the triple (1) = 5.
    # Canonical: one single, one pair, one triple = 3 (no wildcard in any of them).
    assert len(moves("S3 S3 H3", "2")) == 5
    assert len(moves("S3 S3 H3", "2", mode="canonical")) == 3
    # Following a pair of 3s: an equal pair never beats, so only PASS.
    assert moves("S3 S3 H3", "2", top="D3 C3") == [PASS]
    # Following a single 2 (level 5): S3 and H3, then PASS = 3.
    assert len(moves("S3 S3 H3", "5", top="D2")) == 3


def test_four_eights() -> None:
    # S8 S8 D8 C8 at level 2: every distinct sub-multiset is a play:
    # 3 singles + 4 pairs (S8S8, S8D8, S8C8, D8C8) + 3 triples + 1 bomb = 11 = 3*2*2 - 1.
    assert len(moves("S8 S8 D8 C8", "2")) == 11
    # On a straight only the bomb, then PASS.
    assert listing(moves("S8 S8 D8 C8", "2", top="C3 D4 S5 H6 C7")) == {("S8 S8 C8 D8", "bomb", "8")}
    # On a 5-card bomb nothing: PASS only.
    assert moves("S8 S8 D8 C8", "2", top="S3 S3 D3 C3 H3") == [PASS]


def test_a_natural_card_and_a_wildcard() -> None:
    # S5 H2 at level 2: H2 alone (single level 2), S5 alone, S5+H2 as a pair of 5s = 3.
    assert listing(moves("S5 H2", "2")) == {("H2", "single", "2"), ("S5", "single", "5"), ("H2 S5", "pair", "5")}
    # On a single 6 only the wildcard (a level card beats a 6), then PASS.
    assert moves("S5 H2", "2", top="D6")[-1] == PASS
    assert listing(moves("S5 H2", "2", top="D6")) == {("H2", "single", "2")}
    # On a pair of 4s the wildcard pair of 5s.
    assert listing(moves("S5 H2", "2", top="D4 C4")) == {("H2 S5", "pair", "5")}


def test_two_wildcards_alone() -> None:
    # H6 H6 at level 6: a single level card and a pair of level cards (§2.4) = 2.
    assert listing(moves("H6 H6", "6")) == {("H6", "single", "6"), ("H6 H6", "pair", "6")}


def test_four_diamonds_and_the_wildcard() -> None:
    # D4 D5 D6 D7 H8 at level 8: 5 singles (H8 is a single 8) + 4 wildcard pairs (4, 5, 6, 7)
    # + the five cards as straight flush 4-8 or 3-7 (never a plain straight) = 11.
    # Canonical: every one of these combos is made in one way only, so also 11.
    ms = moves("D4 D5 D6 D7 H8", "8")
    assert len(ms) == 11
    assert {(t, k) for c, t, k in listing(ms) if len(c.split()) == 5} == {("straight_flush", "8"), ("straight_flush", "7")}
    assert len(moves("D4 D5 D6 D7 H8", "8", mode="canonical")) == 11


def test_a_broken_straight_and_a_wildcard() -> None:
    # S3 D4 C5 H6 D7 + H2 at level 2, mixed suits:
    # singles: 5 naturals + H2 = 6; pairs: each natural + H2 = 5;
    # straights (exactly 5 cards): 3-7 natural; H2+3456 as 2-6 or 3-7; H2+4567 as 3-7 or 4-8;
    # H2 replacing the 4, the 5 or the 6 in 3-7 (3 more) = 8. Total 6 + 5 + 8 = 19.
    # Canonical: 6 singles + 5 pairs + straights 6/1 wildcard, 7/0, 7/1, 8/1 = 15.
    assert len(moves("S3 D4 C5 H6 D7 H2", "2")) == 19
    assert len(moves("S3 D4 C5 H6 D7 H2", "2", mode="canonical")) == 15
    # On a straight to 6: the six straights to 7 and the one to 8, then PASS = 8.
    following = moves("S3 D4 C5 H6 D7 H2", "2", top="S2 D3 C4 H5 D6")
    assert len(following) == 8 and following[-1] == PASS
    assert sum(m.combo is not None and m.combo.key == "7" for m in following) == 6


def test_two_pairs_and_a_wildcard() -> None:
    # C6 D6 S7 D7 H2 at level 2: 5 singles; pairs C6D6, S7D7 and four wildcard pairs = 6;
    # triples C6D6H2, S7D7H2 = 2; the five cards as a full house of 6s or of 7s = 2. Total 15.
    ms = moves("C6 D6 S7 D7 H2", "2")
    assert len(ms) == 15
    assert {(c, t, k) for c, t, k in listing(ms) if t == "full_house"} == {
        ("H2 C6 D6 S7 D7", "full_house", "6"),
        ("H2 C6 D6 S7 D7", "full_house", "7"),
    }


def test_jokers() -> None:
    # LJ LJ BJ BJ, competition: singles LJ, BJ; pairs LJLJ, BJBJ; four jokers = 5 (LJ BJ is no pair).
    assert len(moves("LJ LJ BJ BJ", "2")) == 5
    # huopin: also LJ BJ as a pair of small jokers and two three-joker bombs (LJLJBJ, LJBJBJ) = 8.
    assert listing(moves("LJ LJ BJ BJ", "2", HUOPIN)) == {
        ("LJ", "single", "LJ"),
        ("BJ", "single", "BJ"),
        ("LJ LJ", "pair", "LJ"),
        ("BJ BJ", "pair", "BJ"),
        ("LJ BJ", "pair", "LJ"),
        ("LJ LJ BJ", "three_jokers", "JOKERS"),
        ("LJ BJ BJ", "three_jokers", "JOKERS"),
        ("LJ LJ BJ BJ", "joker_bomb", "JOKERS"),
    }
    # On a 10-card bomb only four jokers beat (competition), then PASS.
    top = "S9 S9 D9 D9 C9 C9 H9 H9 H2 H2"
    assert listing(moves("LJ LJ BJ BJ", "2", top=top)) == {("LJ LJ BJ BJ", "joker_bomb", "JOKERS")}


def test_a_big_joker_with_a_card_in_huopin() -> None:
    # S5 BJ: competition has only the two singles; huopin adds the pair of 5s (BJ as wildcard).
    assert len(moves("S5 BJ", "2")) == 2
    assert listing(moves("S5 BJ", "2", HUOPIN)) == {("S5", "single", "5"), ("BJ", "single", "BJ"), ("S5 BJ", "pair", "5")}


def test_pass_only_when_following() -> None:
    assert PASS not in moves("S3 D4", "2")
    following = moves("S3 D4", "2", top="S2")
    assert following.count(PASS) == 1 and following[-1] == PASS
    assert PASS.is_pass and PASS.cards == () and PASS.combo is None
    assert legal_moves([], None, 0, COMPETITION) == []
    assert legal_moves([], resolve_combo(parse_cards("S3"), 0, COMPETITION), 0, COMPETITION) == [PASS]


def test_moves_have_sorted_card_codes_and_a_combo() -> None:
    for m in moves("SA D2 C3 H4 S5 S5 H9", "9"):
        assert list(m.cards) == sorted(m.cards)
        assert isinstance(m.combo, Combo)
        assert not m.is_pass


def test_unknown_mode() -> None:
    with pytest.raises(GuandanError, match="fastest"):
        legal_moves(parse_cards("S3"), None, 0, COMPETITION, mode="fastest")


def test_does_not_mutate_the_hand() -> None:
    hand = parse_cards("S3 S3 D4 H2 LJ")
    copy = list(hand)
    legal_moves(hand, None, 0, COMPETITION)
    legal_moves(hand, None, 0, HUOPIN)
    assert hand == copy
