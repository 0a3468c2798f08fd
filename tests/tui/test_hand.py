"""理牌 grouping and the 记牌器 counter."""

from __future__ import annotations

import random
from collections import Counter

from guandan.core.cards import BIG_JOKER, SMALL_JOKER, parse_cards, physical_deck, rank_index
from guandan.core.combos import classify
from guandan.core.events import AntiTribute, CardsReturned, FirstLead, Passed, Played, Transfer, TributeGiven
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.core.vocab import RANKS, Phase
from guandan.present import Presenter, rank_text
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

    rows = counter_rows(hand, [play(1, "HA CA"), Passed(2), play(3, "BJ")], 0, 0)
    assert rows[:3] == [(BIG_JOKER, "", 0), (SMALL_JOKER, "", 2), (None, "2", 8)]  # level 2 right under the jokers
    left = {label: n for _, label, n in rows[2:]}
    assert left["A"] == 4 and left["10"] == 8 and "T" not in left
    assert sum(n for _, _, n in rows) == 108 - 3 - 3
    assert counter_entries(rows, Presenter("zh"))[:4] == ["大王×0", "小王×2", "2×8", "A×4"]
    lines = counter_lines(rows, Presenter("en"))
    assert lines[0] == "Big Joker×0  Small Joker×2"
    assert lines[1].split() == ["2×8", "A×4", "K×8", "Q×8"] and len(lines) == 5


def _unseen(rows: list[tuple[int | None, str, int]]) -> dict[str, int]:
    return {label or ("BJ" if card == BIG_JOKER else "LJ"): n for card, label, n in rows}


def test_the_counter_knows_the_tribute_and_return_cards_it_was_shown() -> None:
    rules = preset("competition")
    hand = parse_cards("S3 S4")  # after paying ♠A to seat 1 and getting ♠3 back from it

    def play(seat: int, text: str) -> Played:
        cards = tuple(sorted(parse_cards(text)))
        return Played(seat, cards, classify(cards, 0, rules)[0])

    ace, three, king, seven = parse_cards("SA S3 CK D7")
    events = [TributeGiven((Transfer(0, 1, ace), Transfer(2, 3, king))),
              CardsReturned((Transfer(1, 0, three), Transfer(3, 2, seven)))]
    left = _unseen(counter_rows(hand, events, 0, 0))
    # the ace went to seat 1, the king to seat 3, the 7 to the partner: all seen; the 3 came into the hand
    assert left["A"] == 7 and left["K"] == 7 and left["7"] == 7 and left["3"] == 7 and left["4"] == 7
    # a known card played later is counted once; a second ace from the same seat is news
    left = _unseen(counter_rows(hand, [*events, play(1, "SA")], 0, 0))
    assert left["A"] == 7
    left = _unseen(counter_rows(hand, [*events, play(1, "SA"), play(1, "DA")], 0, 0))
    assert left["A"] == 6
    # seen from seat 1, the ace it received is in its own hand: counted there only
    assert _unseen(counter_rows(parse_cards("SA"), events, 0, 1))["A"] == 7


def test_the_counter_knows_the_anti_tribute_jokers_and_the_flipped_card() -> None:
    assert _unseen(counter_rows(parse_cards("S3"), [AntiTribute((1, 3))], 0, 0))["BJ"] == 0
    assert _unseen(counter_rows(parse_cards("BJ"), [AntiTribute((0, 2))], 0, 0))["BJ"] == 0  # one is in the hand
    assert _unseen(counter_rows(parse_cards("S3"), [FirstLead(2, parse_cards("C9")[0])], 0, 0))["9"] == 7
    assert _unseen(counter_rows(parse_cards("C9"), [FirstLead(0, parse_cards("C9")[0])], 0, 0))["9"] == 7


def test_the_payer_of_a_real_tribute_no_longer_counts_its_card_unseen() -> None:
    """In a seeded match, once play starts after a tribute, each seat that paid or returned a card
    counts it as seen: its counter row is what the other hands hold of that rank, less the cards it knows."""
    match = new_match(preset("competition"), 5, MatchConfig(max_deals=3))
    rng = random.Random(5)
    checked = 0
    while not match.ended and not checked:
        assert match.deal is not None
        events = match.deal.events
        if match.deal.phase == Phase.PLAY and any(isinstance(e, TributeGiven) for e in events):
            shown = [t for e in events if isinstance(e, (TributeGiven, CardsReturned)) for t in e.transfers]
            for t in shown:
                d = match.observation(t.giver).deal
                rows = {rank_index(card) if card is not None else [rank_text(r) for r in RANKS].index(label): n
                        for card, label, n in counter_rows(d.hand, d.events, d.level, t.giver)}
                rank = rank_index(t.card)
                others = sum(1 for s in range(4) if s != t.giver for c in match.deal.hands[s] if rank_index(c) == rank)
                known = sum(1 for u in shown if rank_index(u.card) == rank and u.receiver != t.giver)
                assert known and rows[rank] == others - known
                checked += 1
        match.apply(rng.choice(match.legal_actions()))
    assert checked
