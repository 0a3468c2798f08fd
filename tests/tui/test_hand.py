"""理牌 grouping and the 记牌器 counter."""

from __future__ import annotations

import random
from collections import Counter

from guandan.core.cards import BIG_JOKER, SMALL_JOKER, parse_cards, physical_deck
from guandan.core.combos import classify
from guandan.core.events import Passed, Played
from guandan.core.rules import preset
from guandan.present import Presenter
from guandan.tui.hand import Group, counter_rows, group_hand, level_sorted
from guandan.tui.text import counter_entries, counter_lines


def test_grouping_is_a_partition_of_the_hand() -> None:
    rng = random.Random(1)
    deck = [pc.code for pc in physical_deck()]
    for _ in range(200):
        hand = rng.sample(deck, 27)
        level = rng.randrange(13)
        groups = group_hand(hand, level)
        assert Counter(c for _, cards in groups for c in cards) == Counter(hand)
        for key, cards in groups:
            if key == Group.STRAIGHT_FLUSH:
                assert len(cards) % 5 == 0 and len({c & 3 for c in cards}) == 1


def test_groups_in_order() -> None:
    hand = parse_cards("S3 H3 C3 D3 D3 S9 S8 S7 S6 S5 HK HK CK DQ DQ SA H7 LJ BJ")
    groups = group_hand(hand, 5)  # level 7: H7 is the wildcard
    assert [k for k, _ in groups] == [Group.JOKERS, Group.BOMB, Group.STRAIGHT_FLUSH, Group.TRIPLE, Group.PAIR,
                                      Group.SINGLE, Group.WILD]
    assert dict(groups)[Group.STRAIGHT_FLUSH] == parse_cards("S5 S6 S7 S8 S9")
    assert dict(groups)[Group.SINGLE] == parse_cards("SA")


def test_a_low_straight_flush_uses_the_ace() -> None:
    groups = dict(group_hand(parse_cards("DA D2 D3 D4 D5 S9"), 8))
    assert sorted(groups[Group.STRAIGHT_FLUSH]) == sorted(parse_cards("DA D2 D3 D4 D5"))


def test_level_order_puts_level_cards_under_the_jokers() -> None:
    assert level_sorted(parse_cards("BJ S9 SA H9 S3 LJ"), 7) == parse_cards("S3 SA S9 H9 LJ BJ")


def test_counter_counts_what_is_neither_held_nor_played() -> None:
    rules = preset("competition")
    hand = parse_cards("SA SA BJ")

    def play(seat: int, text: str) -> Played:
        cards = tuple(sorted(parse_cards(text)))
        return Played(seat, cards, classify(cards, 0, rules)[0])

    rows = counter_rows(hand, [play(1, "HA CA"), Passed(2), play(3, "BJ")], 0)
    assert rows[:3] == [(BIG_JOKER, "", 0), (SMALL_JOKER, "", 2), (None, "2", 8)]  # level 2 right under the jokers
    left = {label: n for _, label, n in rows[2:]}
    assert left["A"] == 4 and left["10"] == 8 and "T" not in left
    assert sum(n for _, _, n in rows) == 108 - 3 - 3
    assert counter_entries(rows, Presenter("zh"))[:4] == ["大王×0", "小王×2", "2×8", "A×4"]
    lines = counter_lines(rows, Presenter("en"))
    assert lines[0] == "Big Joker×0  Small Joker×2"
    assert lines[1].split() == ["2×8", "A×4", "K×8", "Q×8"] and len(lines) == 5
