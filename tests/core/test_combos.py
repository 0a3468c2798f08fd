"""classify, beats, resolve_combo and default_choice on hand-checked cases (RULES.md §2–§3, §8.4).

The cards here are chosen for these tests; the shared vectors are run elsewhere.
"""

from __future__ import annotations

import pytest

from guandan.core import (
    Combo,
    ComboError,
    RuleSet,
    beats,
    classify,
    default_choice,
    parse_cards,
    parse_level,
    preset,
    resolve_combo,
)

COMPETITION = preset("competition")
HUOPIN = preset("huopin")


def readings(cards: str, level: str, rules: RuleSet = COMPETITION) -> set[tuple[object, ...]]:
    """classify as a set of (type, key, size[, suit])."""
    found = classify(parse_cards(cards), parse_level(level), rules)
    return {(c.type, c.key, c.size, c.suit) if c.suit else (c.type, c.key, c.size) for c in found}


def combo(cards: str, level: str, rules: RuleSet = COMPETITION, **spec: object) -> Combo:
    return resolve_combo(parse_cards(cards), parse_level(level), rules, spec or None)


# ---------------------------------------------------------------------------------------------
# classify: the ten hand types (§3.1)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        # singles and pairs; a joker pair is two equal jokers
        ("DK", "5", {("single", "K", 1)}),
        ("LJ", "5", {("single", "LJ", 1)}),
        ("CK SK", "5", {("pair", "K", 2)}),
        ("BJ BJ", "5", {("pair", "BJ", 2)}),
        ("LJ BJ", "5", set()),
        ("LJ LJ BJ", "5", set()),  # three jokers are a type only in huopin
        ("S8 C9", "5", set()),
        # triples, full houses (the pair may be a joker pair, §3.1 [ASSUMPTION]), no triple + single
        ("SQ DQ CQ", "5", {("triple", "Q", 3)}),
        ("SQ DQ CQ S6", "5", set()),
        ("S4 D4 C4 SA DA", "9", {("full_house", "4", 5)}),
        ("S4 D4 C4 BJ BJ", "9", {("full_house", "4", 5)}),
        ("S4 D4 C4 LJ BJ", "9", set()),
        ("S4 D4 S8 D8", "9", set()),  # two pairs
        # five of one rank are a bomb, never a full house
        ("S8 D8 C8 S8 D8", "3", {("bomb", "8", 5)}),
        # straights: exactly five, A at one end only, no wrap, level cards at their natural place
        ("DA S2 C3 H4 S5", "9", {("straight", "5", 5)}),
        ("DT SJ CQ DK HA", "9", {("straight", "A", 5)}),
        ("SK DA S2 C3 S4", "7", set()),
        ("C2 D3 S4 H5 C6", "4", {("straight", "6", 5)}),
        ("C3 D4 S5 H6 C7 D8", "2", set()),  # six cards
        ("C4 D5 S6 H7 LJ", "2", set()),
        # straight flush: the plain reading is not offered (sf_forced)
        ("C9 CT CJ CQ CK", "2", {("straight_flush", "K", 5, "C")}),
        # tubes and plates: exactly three pairs / two triples, natural order
        ("CA DA C2 D2 C3 D3", "8", {("tube", "3", 6)}),
        ("CQ DQ CK DK CA DA", "8", {("tube", "A", 6)}),
        ("CK DK CA DA C2 D2", "8", set()),
        ("C4 D4 C5 D5 C6 D6", "5", {("tube", "6", 6)}),
        ("C5 D5 C6 D6 C7 D7 C8 D8", "2", set()),
        ("CA CA DA C2 C2 D2", "8", {("plate", "2", 6)}),
        ("SK SK DK SA SA DA", "8", {("plate", "A", 6)}),
        ("S6 D6 C6 S7 D7 C7 S8 D8 C8", "3", set()),
        # bombs of 4 to 10 cards and four jokers
        ("S6 D6 C6 H6", "2", {("bomb", "6", 4)}),
        ("S6 S6 D6 D6 C6 C6 H6 H6 H2 H2", "2", {("bomb", "6", 10)}),
        ("LJ LJ BJ BJ", "2", {("joker_bomb", "JOKERS", 4)}),
        ("LJ LJ BJ BJ S3", "2", set()),
    ],
)
def test_classify_hand_types(cards: str, level: str, expected: set[tuple[object, ...]]) -> None:
    assert readings(cards, level) == expected


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        # §2.4: a wildcard alone is a level card, two are a pair of level cards
        ("H9", "9", {("single", "9", 1)}),
        ("H9 H9", "9", {("pair", "9", 2)}),
        # a wildcard never stands for a joker nor joins jokers
        ("H9 LJ", "9", set()),
        ("H9 H9 LJ LJ", "9", set()),
        ("H9 LJ LJ BJ BJ", "9", set()),
        ("S3 D3 C3 H9 LJ", "9", set()),
        # with a joker pair as the pair, a wildcard may complete the triple
        ("S3 D3 H9 BJ BJ", "9", {("full_house", "3", 5)}),
        # a wildcard beside naturals takes any rank the play needs
        ("S5 H9", "9", {("pair", "5", 2)}),
        ("S5 D5 H9", "9", {("triple", "5", 3)}),
        ("S5 D5 C5 H9", "9", {("bomb", "5", 4)}),
        # level-rank bombs: the wildcards are two of the eight level cards
        ("ST DT CT HT", "T", {("bomb", "T", 4)}),
        # ambiguous: a 5-card bomb or a triple with a pair of wildcards
        ("SJ DJ CJ H4 H4", "4", {("bomb", "J", 5), ("full_house", "J", 5)}),
        # ambiguous full house: which rank the wildcard joins
        ("C6 D6 S7 D7 H2", "2", {("full_house", "6", 5), ("full_house", "7", 5)}),
        # straights with a wildcard in any free slot, mixed suits
        ("S9 DT CJ SQ H5", "5", {("straight", "Q", 5), ("straight", "K", 5)}),
        ("S3 D4 C6 H2 H2", "2", {("straight", "6", 5), ("straight", "7", 5)}),
        # a wildcard completes a straight flush; then only flush readings exist
        ("D9 DT DJ DQ H5", "5", {("straight_flush", "Q", 5, "D"), ("straight_flush", "K", 5, "D")}),
        # tubes and plates with two wildcards
        ("S7 D7 S8 D8 H3 H3", "3", {("tube", "8", 6), ("tube", "9", 6), ("plate", "8", 6)}),
        ("SA DA S2 D2 HK HK", "K", {("tube", "3", 6), ("plate", "2", 6)}),  # the ace is low here
    ],
)
def test_classify_with_wildcards(cards: str, level: str, expected: set[tuple[object, ...]]) -> None:
    assert readings(cards, level) == expected


def test_a_tube_never_wraps_past_the_ace() -> None:
    # SK SK can only sit at K: QQ KK AA (the wildcards are the aces), never KK AA 22
    assert readings("SK DK S2 D2 H5 H5", "5") == set()
    assert readings("SK DK SQ DQ H5 H5", "5") == {("tube", "A", 6), ("tube", "K", 6), ("plate", "K", 6)}


def test_sf_forced_off_adds_the_plain_straight_readings() -> None:
    rules = preset("competition", sf_forced=False)
    assert readings("D9 DT DJ DQ H5", "5", rules) == {
        ("straight_flush", "Q", 5, "D"),
        ("straight_flush", "K", 5, "D"),
        ("straight", "Q", 5),
        ("straight", "K", 5),
    }


def test_underdeclared_wildcard_is_off_by_default_and_configurable() -> None:
    assert readings("H9", "9") == {("single", "9", 1)}
    rules = preset("competition", allow_wild_underdeclare=True)
    assert ("single", "3", 1) in readings("H9", "9", rules)


def test_classify_returns_distinct_readings_strongest_first() -> None:
    found = classify(parse_cards("SJ DJ CJ H4 H4"), parse_level("4"), COMPETITION)
    assert len(found) == len(set(found))
    assert [c.type for c in found] == ["bomb", "full_house"]
    assert classify([], 0, COMPETITION) == []


# ---------------------------------------------------------------------------------------------
# huopin (§8.4)


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("C3 D4 S5 H6 C7 D8 S9", "2", {("straight", "9", 7)}),
        ("C5 D5 C6 D6 C7 D7 C8 D8", "2", {("pair_run", "8", 8)}),
        ("S9 D9 C9 ST DT CT", "2", {("triple_run", "T", 6)}),
        ("LJ LJ BJ", "2", {("three_jokers", "JOKERS", 3)}),
        ("LJ BJ BJ", "2", {("three_jokers", "JOKERS", 3)}),
        ("LJ BJ", "2", {("pair", "LJ", 2)}),  # the big joker as a small joker
        ("BJ", "2", {("single", "BJ", 1)}),
        ("BJ BJ", "2", {("pair", "BJ", 2)}),
        ("S8 BJ", "2", {("pair", "8", 2)}),  # a big joker with other cards is a wildcard
        ("S4 D4 C4 LJ BJ", "2", {("full_house", "4", 5)}),
        ("S4 D4 C4 BJ BJ", "2", {("bomb", "4", 5)}),  # strongest reading, not the full house
        ("S9 DT CJ SQ H2", "2", {("straight", "K", 5)}),  # the higher straight only
        ("S3 S4 S5 S6 BJ", "2", {("straight_flush", "7", 5, "S")}),
        ("S3 S4 S5 S6 LJ", "2", set()),  # a small joker never sits in a sequence
        ("S5 D5 S6 D6 H4 H4", "4", {("pair_run", "7", 6), ("triple_run", "6", 6)}),  # two non-bomb types
        ("S7 S7 D7 D7 S8 S8 D8 D8 S9 S9 D9 D9", "2", {("chain_bomb", "9", 12)}),
        ("S7 S7 D7 D7 S8 S8 D8 D8", "2", set()),  # two ranks are no chain
    ],
)
def test_classify_huopin(cards: str, level: str, expected: set[tuple[object, ...]]) -> None:
    assert readings(cards, level, HUOPIN) == expected


def test_huopin_stars() -> None:
    assert combo("S5 D5 C5 H5 S5 D5", "2", HUOPIN).stars == 6
    chain = combo("S7 S7 D7 D7 C7 S8 S8 D8 D8 C8 S9 S9 D9 D9 C9", "2", HUOPIN)
    assert (chain.type, chain.x, chain.y, chain.stars) == ("chain_bomb", 5, 3, 8)
    assert combo("LJ LJ BJ", "2", HUOPIN).stars == 6
    assert combo("LJ LJ BJ BJ", "2", HUOPIN).stars == 7


# ---------------------------------------------------------------------------------------------
# beats (§3.2)

# strictly increasing, at level 6 (the wildcard is H6)
SIZE_LADDER = [
    "S7 D7 C7 H7",  # 4-card bomb
    "SA SA DA CA",
    "S6 S6 D6 C6",  # level-rank bomb beats every other bomb of its size
    "S3 S3 D3 C3 H3",  # 5 cards
    "S6 S6 D6 D6 C6",
    "CA C2 C3 C4 C5",  # lowest straight flush, above every 5-card bomb
    "DT DJ DQ DK DA",
    "S4 S4 D4 D4 C4 C4",  # 6 cards
    "S4 S4 D4 D4 C4 C4 H4",
    "S4 S4 D4 D4 C4 C4 H4 H4",
    "S9 S9 D9 D9 C9 C9 H9 H9 H6",
    "S9 S9 D9 D9 C9 C9 H9 H9 H6 H6",  # 10 cards
    "LJ LJ BJ BJ",
]

# strictly increasing under bomb_order = "stars", at level 6
STAR_LADDER = [
    "S7 D7 C7 H7",  # 4★
    "S3 S3 D3 C3 H3",  # 5★
    "CA C2 C3 C4 C5",  # straight flush, between 5★ and 6★ [ASSUMPTION]
    "LJ LJ BJ",  # the lowest 6★
    "S4 S4 D4 D4 C4 C4",  # 6★
    "S7 S7 D7 D7 S8 S8 D8 D8 S9 S9 D9 D9",  # 4相3连环: 7★ in 12 cards
    "S4 S4 D4 D4 C4 C4 H4",  # 7★ in 7 cards: fewer cards wins
    "S5 S5 D5 D5 C5 C5 H5",
    "LJ LJ BJ BJ",  # the highest 7★
    "S7 S7 D7 D7 S8 S8 D8 D8 S9 S9 D9 D9 ST ST DT DT",  # 4相4连环: 8★ in 16 cards
    "S7 S7 D7 D7 C7 S8 S8 D8 D8 C8 S9 S9 D9 D9 C9",  # 5相3连环: 8★ in 15 cards
    "S4 S4 D4 D4 C4 C4 H4 H4",  # 8★ in 8 cards
    "SK SK DK DK CK CK HK HK H6 H6 BJ BJ",  # 12★ beats four jokers
]


@pytest.mark.parametrize(("ladder", "rules"), [(SIZE_LADDER, COMPETITION), (STAR_LADDER, HUOPIN)])
def test_bomb_ladder(ladder: list[str], rules: RuleSet) -> None:
    combos = [combo(cards, "6", rules) for cards in ladder]
    assert all(c.is_bomb for c in combos)
    plain = combo("SA", "6", rules)
    for i, low in enumerate(combos):
        assert beats(low, plain, rules)
        assert not beats(plain, low, rules)
        assert not beats(low, low, rules), f"{low} beats itself"
        for high in combos[i + 1 :]:
            assert beats(high, low, rules), f"{high} should beat {low}"
            assert not beats(low, high, rules), f"{low} should not beat {high}"


@pytest.mark.parametrize(
    ("a", "b", "level", "expected"),
    [
        ("SA", "SK", "5", True),
        ("D5", "SA", "5", True),  # a level card is above the ace
        ("H5", "D5", "5", False),  # equal never beats; suits never rank
        ("LJ", "D5", "5", True),
        ("BJ", "LJ", "5", True),
        ("S3 D3", "SA", "5", False),  # different type
        ("SA", "S3 D3", "5", False),
        ("S4 D4 C4 S2 D2", "S3 D3 C3 SA DA", "9", True),  # full house: the pair is ignored
        ("S4 D4 C4 S2 D2", "S4 D4 C4 SA DA", "9", False),
        ("C9 DT CJ SQ DK", "S8 D9 CT SJ DQ", "5", True),
        ("DA S2 C3 H4 S5", "C2 S3 D4 H5 C6", "9", False),  # A-2-3-4-5 is the lowest straight
        ("H4 D4 H5 D5 H6 D6", "CA HA C2 H2 C3 H3", "9", True),
        ("S4 D4 C4 S5 D5 C5", "H4 D4 H5 D5 H6 D6", "9", False),  # plate vs tube
        ("H4 H5 H6 H7 H8", "C4 C5 C6 C7 C8", "9", False),  # equal straight flushes, other suit
    ],
)
def test_beats_non_bombs_and_singles(a: str, b: str, level: str, expected: bool) -> None:
    assert beats(combo(a, level), combo(b, level), COMPETITION) is expected


def test_huopin_compares_non_bombs_of_one_size_only() -> None:
    five = combo("C3 D4 S5 H6 C7", "2", HUOPIN)
    six = combo("C3 D4 S5 H6 C7 D8", "2", HUOPIN)
    low_six = combo("S2 D3 C4 H5 S6 D7", "9", HUOPIN)
    assert not beats(six, five, HUOPIN) and not beats(five, six, HUOPIN)
    assert beats(six, low_six, HUOPIN)


def test_leading_beats_nothing_in_particular() -> None:
    assert beats(combo("S3", "2"), None, COMPETITION)


# ---------------------------------------------------------------------------------------------
# resolve_combo and default_choice (§3.3)


def test_resolve_combo_requires_a_declaration_when_ambiguous() -> None:
    cards, level = parse_cards("SJ DJ CJ H4 H4"), parse_level("4")
    with pytest.raises(ComboError, match="several readings"):
        resolve_combo(cards, level, COMPETITION)
    with pytest.raises(ComboError, match="several readings"):
        resolve_combo(cards, level, COMPETITION, {"size": 5})  # still two
    assert resolve_combo(cards, level, COMPETITION, {"type": "bomb"}).type == "bomb"
    assert resolve_combo(cards, level, COMPETITION, {"type": "full_house", "key": "J"}).type == "full_house"


@pytest.mark.parametrize(
    "spec",
    [{"type": "straight"}, {"type": "bomb", "key": "Q"}, {"type": "bomb", "size": 4}, {"type": "full_house", "key": "4"}],
)
def test_resolve_combo_rejects_a_reading_the_cards_do_not_have(spec: dict[str, object]) -> None:
    with pytest.raises(ComboError, match="cannot be declared"):
        resolve_combo(parse_cards("SJ DJ CJ H4 H4"), parse_level("4"), COMPETITION, spec)


def test_resolve_combo_rejects_no_play() -> None:
    with pytest.raises(ComboError, match="not a legal play"):
        resolve_combo(parse_cards("S3 D4"), 0, COMPETITION)
    with pytest.raises(ComboError, match="not a legal play"):
        resolve_combo(parse_cards("S3 D4"), 0, COMPETITION, {"type": "pair"})


def test_resolve_combo_picks_the_only_reading() -> None:
    got = resolve_combo(parse_cards("S3 D3"), 0, COMPETITION)
    assert (got.type, got.key, got.size) == ("pair", "3", 2)
    assert resolve_combo(parse_cards("S3 D3"), 0, COMPETITION, {"type": "pair", "key": "3"}) == got


def test_huopin_resolves_to_the_strongest_reading_itself() -> None:
    cards, level = parse_cards("SJ DJ CJ H4 H4"), parse_level("4")
    assert resolve_combo(cards, level, HUOPIN).type == "bomb"
    with pytest.raises(ComboError, match="cannot be declared"):
        resolve_combo(cards, level, HUOPIN, {"type": "full_house"})
    # two non-bomb types remain: the player declares one (§8.4 [ASSUMPTION]); keys are fixed
    run = parse_cards("S5 D5 S6 D6 H4 H4")
    with pytest.raises(ComboError, match="several readings"):
        resolve_combo(run, level, HUOPIN)
    assert resolve_combo(run, level, HUOPIN, {"type": "pair_run"}).key == "7"
    with pytest.raises(ComboError):
        resolve_combo(run, level, HUOPIN, {"type": "pair_run", "key": "6"})


def test_default_choice_is_the_strongest_reading() -> None:
    assert default_choice(parse_cards("SJ DJ CJ H4 H4"), parse_level("4"), COMPETITION).type == "bomb"
    choice = default_choice(parse_cards("S9 DT CJ SQ H5"), parse_level("5"), COMPETITION)
    assert (choice.type, choice.key) == ("straight", "K")
    with pytest.raises(ComboError):
        default_choice(parse_cards("S3 D4"), 0, COMPETITION)
