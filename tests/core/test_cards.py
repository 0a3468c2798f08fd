"""Card codes, the three notations, physical-hand checks and levels (RULES.md §1.2, §1.3, §2)."""

from __future__ import annotations

from collections import Counter

import pytest

from guandan.core import (
    BIG_JOKER,
    SMALL_JOKER,
    InvalidHandError,
    LevelError,
    NotationError,
    card_display,
    card_protocol,
    card_str,
    classify,
    format_cards,
    legal_moves,
    level_order,
    lv,
    parse_card,
    parse_cards,
    parse_level,
    physical_deck,
    preset,
    wild_code,
)

ALL_CODES = range(54)
NOTATIONS = {"rules": card_str, "protocol": card_protocol, "display": card_display}


# ---------------------------------------------------------------------------------------------
# codes


def test_code_layout_is_rank_times_four_plus_suit() -> None:
    assert parse_card("S2") == 0
    assert parse_card("H2") == 1
    assert parse_card("C2") == 2
    assert parse_card("D2") == 3
    assert parse_card("S3") == 4
    assert parse_card("HT") == 8 * 4 + 1
    assert parse_card("DA") == 12 * 4 + 3 == 51
    assert parse_card("LJ") == SMALL_JOKER == 52
    assert parse_card("BJ") == BIG_JOKER == 53


def test_physical_deck_holds_every_code_exactly_twice() -> None:
    deck = physical_deck()
    assert len(deck) == 108
    assert Counter(c.code for c in deck) == Counter({code: 2 for code in ALL_CODES})
    assert len(set(deck)) == 108  # (suit, rank, copy) identifies a physical card (§1.2)
    assert {c.suit for c in deck if c.rank in ("LJ", "BJ")} == {None}


# ---------------------------------------------------------------------------------------------
# notations


@pytest.mark.parametrize("notation", sorted(NOTATIONS))
def test_every_code_round_trips(notation: str) -> None:
    fmt = NOTATIONS[notation]
    tokens = [fmt(code) for code in ALL_CODES]
    assert len(set(tokens)) == 54, "two codes share a token"
    for code, token in zip(ALL_CODES, tokens, strict=True):
        assert parse_card(token, notation) == code, token


@pytest.mark.parametrize("notation", sorted(NOTATIONS))
def test_the_whole_deck_round_trips_as_a_card_list(notation: str) -> None:
    codes = [c.code for c in physical_deck()]
    text = format_cards(codes, notation)
    assert len(text.split()) == 108
    assert parse_cards(text, notation) == codes
    assert parse_cards(text.split(), notation) == codes  # a list of tokens works too


@pytest.mark.parametrize(
    ("token", "notation", "card"),
    [
        ("S3", "rules", "S3"),
        ("HT", "rules", "HT"),
        ("DQ", "rules", "DQ"),
        ("CA", "rules", "CA"),
        ("LJ", "rules", "LJ"),
        ("BJ", "rules", "BJ"),
        ("SJ", "rules", "SJ"),  # the jack of spades, not a joker (§1.3)
        ("SB", "protocol", "LJ"),
        ("HR", "protocol", "BJ"),
        ("SJ", "protocol", "SJ"),
        ("HT", "protocol", "HT"),
        ("♠3", "display", "S3"),
        ("♥10", "display", "HT"),
        ("♣K", "display", "CK"),
        ("♦A", "display", "DA"),
        ("小王", "display", "LJ"),
        ("大王", "display", "BJ"),
    ],
)
def test_known_tokens(token: str, notation: str, card: str) -> None:
    code = parse_card(token, notation)
    assert card_str(code) == card
    assert NOTATIONS[notation](code) == token


def test_display_and_protocol_forms() -> None:
    assert [card_display(parse_card(t)) for t in ("S3", "HT", "LJ", "BJ")] == ["♠3", "♥10", "小王", "大王"]
    assert [card_protocol(parse_card(t)) for t in ("S3", "HT", "LJ", "BJ")] == ["S3", "HT", "SB", "HR"]
    assert format_cards(parse_cards("S3 HT LJ BJ"), "display") == "♠3 ♥10 小王 大王"


@pytest.mark.parametrize(
    ("text", "notation", "bad", "position"),
    [
        ("S3 X9 H4", "rules", "X9", 2),
        ("Z", "rules", "Z", 1),
        ("S3 H4 D5 S1", "rules", "S1", 4),
        ("S3 S10", "rules", "S10", 2),  # RULES.md writes ten as T
        ("S3 SB", "rules", "SB", 2),  # the protocol's small joker is not RULES.md notation
        ("HR LJ", "protocol", "LJ", 2),  # and RULES.md's joker is not protocol notation
        ("♠3 ♥1", "display", "♥1", 2),
        ("S3 H4 JJ", "protocol", "JJ", 3),
    ],
)
def test_a_bad_token_is_named_with_its_position(text: str, notation: str, bad: str, position: int) -> None:
    with pytest.raises(NotationError) as err:
        parse_cards(text, notation)
    message = str(err.value)
    assert f"\"{bad}\"" in message
    assert f"position {position}" in message


def test_a_bad_token_in_a_token_list_is_named_with_its_position() -> None:
    with pytest.raises(NotationError, match=r'"Q2".*position 3'):
        parse_cards(["S3", "H4", "Q2"])


def test_unknown_notation_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="klingon"):
        parse_cards("S3", "klingon")
    with pytest.raises(NotationError, match="klingon"):
        format_cards([4], "klingon")


@pytest.mark.parametrize("text", ["S3 S3 S3", "BJ LJ BJ BJ", "H7 S2 H7 D9 H7"])
def test_a_card_three_times_is_an_invalid_hand(text: str) -> None:
    with pytest.raises(InvalidHandError):
        parse_cards(text)


def test_two_copies_are_fine() -> None:
    assert parse_cards("S3 S3 BJ BJ") == [4, 4, 53, 53]


def test_engine_entry_points_reject_a_card_three_times() -> None:
    rules = preset("competition")
    with pytest.raises(InvalidHandError):
        legal_moves([4, 4, 4], None, 0, rules)
    with pytest.raises(InvalidHandError):
        legal_moves([54], None, 0, rules)  # not a card code
    with pytest.raises(InvalidHandError):
        classify("S3 S3 S3", 0, rules)


# ---------------------------------------------------------------------------------------------
# levels


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("2", 0),
        ("3", 1),
        ("4", 2),
        ("5", 3),
        ("6", 4),
        ("7", 5),
        ("8", 6),
        ("9", 7),
        ("T", 8),
        ("10", 8),
        ("J", 9),
        ("Q", 10),
        ("K", 11),
        ("A", 12),
    ],
)
def test_parse_level_accepts_every_level(text: str, index: int) -> None:
    assert parse_level(text) == index


@pytest.mark.parametrize("bad", ["1", "0", "11", "14", "B", "", "AA", "LJ", "BJ", "S3", "2A", None, 1, 15, True])
def test_parse_level_rejects_everything_else(bad: object) -> None:
    with pytest.raises(LevelError):
        parse_level(bad)  # type: ignore[arg-type]


def test_wildcard_is_the_heart_of_the_level() -> None:
    assert card_str(wild_code(parse_level("7"))) == "H7"
    assert card_str(wild_code(parse_level("2"))) == "H2"
    assert card_str(wild_code(parse_level("10"))) == "HT"
    assert card_str(wild_code(parse_level("A"))) == "HA"


def test_single_card_order_at_level_ten() -> None:
    """§2.2: BJ > LJ > 10 > A > K > Q > J > 9 > … > 2 at level 10."""
    level = parse_level("T")
    assert level_order(level) == ["BJ", "LJ", "T", "A", "K", "Q", "J", "9", "8", "7", "6", "5", "4", "3", "2"]
    values = [lv(parse_card(t), level) for t in ("BJ", "LJ", "ST", "HT", "SA", "SK", "SJ", "S9", "S2")]
    assert values == [17, 16, 15, 15, 14, 13, 11, 9, 2]
    assert lv(parse_card("HT"), level) == lv(parse_card("DT"), level), "suits never rank (§2.2)"
