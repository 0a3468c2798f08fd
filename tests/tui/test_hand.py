"""理牌 grouping and the 记牌器 counter."""

from __future__ import annotations

import random
from collections import Counter

from guandan.core.cards import parse_cards, physical_deck
from guandan.core.deal import Event
from guandan.tui.hand import counter_rows, group_hand, level_sorted


def test_grouping_is_a_partition_of_the_hand() -> None:
    rng = random.Random(1)
    deck = [pc.code for pc in physical_deck()]
    for _ in range(200):
        hand = rng.sample(deck, 27)
        level = rng.randrange(13)
        groups = group_hand(hand, level)
        assert Counter(c for _, cards in groups for c in cards) == Counter(hand)
        for key, cards in groups:
            if key == "straight_flush":
                assert len(cards) % 5 == 0 and len({c & 3 for c in cards}) == 1


def test_groups_in_order() -> None:
    hand = parse_cards("S3 H3 C3 D3 D3 S9 S8 S7 S6 S5 HK HK CK DQ DQ SA H7 LJ BJ")
    groups = group_hand(hand, 5)  # level 7: H7 is the wildcard
    assert [k for k, _ in groups] == ["jokers", "bomb", "straight_flush", "triple", "pair", "single", "wild"]
    assert dict(groups)["straight_flush"] == parse_cards("S5 S6 S7 S8 S9")
    assert dict(groups)["single"] == parse_cards("SA")


def test_a_low_straight_flush_uses_the_ace() -> None:
    groups = dict(group_hand(parse_cards("DA D2 D3 D4 D5 S9"), 8))
    assert sorted(groups["straight_flush"]) == sorted(parse_cards("DA D2 D3 D4 D5"))


def test_level_order_puts_level_cards_under_the_jokers() -> None:
    assert level_sorted(parse_cards("BJ S9 SA H9 S3 LJ"), 7) == parse_cards("S3 SA S9 H9 LJ BJ")


def test_counter_counts_what_is_neither_held_nor_played() -> None:
    hand = parse_cards("SA SA BJ")
    played = [Event("play", 1, tuple(parse_cards("HA CA"))), Event("pass", 2), Event("play", 3, tuple(parse_cards("BJ")))]
    rows = dict(counter_rows(hand, played, 0))
    assert rows["A"] == 4 and rows["BJ"] == 0 and rows["LJ"] == 2 and rows["10"] == 8
    assert sum(rows.values()) == 108 - 3 - 3
