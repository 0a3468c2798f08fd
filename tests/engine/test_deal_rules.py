"""The deal engine on constructed situations: tribute flows, 接风, 报牌, illegal actions."""

from __future__ import annotations

import random

import pytest

from guandan.core.cards import BIG_JOKER, parse_cards, physical_deck
from guandan.core.combos import classify
from guandan.core.deal import Action, DealState, new_deal
from guandan.core.errors import GuandanError, IllegalActionError
from guandan.core.events import AntiTribute, Reported, RoundWon
from guandan.core.rules import preset
from guandan.core.vocab import ActionKind

from .helpers import check_conservation, snapshot


def _hands_with(first: dict[int, str], seed: int = 0) -> list[list[int]]:
    """Four 27-card hands where the given seats hold the given cards (the rest dealt at random)."""
    deck = [pc.code for pc in physical_deck()]
    hands: list[list[int]] = [[], [], [], []]
    for seat, text in first.items():
        for c in parse_cards(text):
            deck.remove(c)
            hands[seat].append(c)
    random.Random(seed).shuffle(deck)
    for seat in range(4):
        while len(hands[seat]) < 27:
            hands[seat].append(deck.pop())
    return hands


def _strip_big_jokers(hands: list[list[int]], keep: dict[int, int]) -> list[list[int]]:
    """Move big jokers so that seat s holds exactly keep.get(s, 0) of them."""
    pool = [s for s in range(4) for c in hands[s] if c == BIG_JOKER]
    assert len(pool) == 2
    for s in range(4):
        hands[s] = [c for c in hands[s] if c != BIG_JOKER]
    need = [s for s, n in keep.items() for _ in range(n)]
    others = [s for s in range(4) if s not in keep]
    for s in need:
        hands[s].append(BIG_JOKER)
    for _ in range(2 - len(need)):
        hands[others[0]].append(BIG_JOKER)
    # rebalance sizes to 27 by moving non-joker cards
    for s in range(4):
        while len(hands[s]) > 27:
            c = next(c for c in hands[s] if c != BIG_JOKER)
            hands[s].remove(c)
            t = next(t for t in range(4) if len(hands[t]) < 27)
            hands[t].append(c)
    return hands


def _pay_and_return(state: DealState) -> None:
    while state.phase in ("tribute", "choose", "return"):
        state.apply(state.legal_actions()[0])


def test_single_tribute_flow_and_leader() -> None:
    rules = preset("competition")
    hands = _strip_big_jokers(_hands_with({}), {0: 1, 1: 1})  # 末游 (seat 3) holds no big joker
    state = new_deal(rules, random.Random(1), 5, (0, 1, 2, 3), hands=hands)
    assert state.phase == "tribute" and state.to_move == 3
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(Action(ActionKind.TRIBUTE, 3, (min(state.hands[3]),)) if min(state.hands[3]) not in
                    [a.cards[0] for a in state.legal_actions()] else Action(ActionKind.TRIBUTE, 2, (state.hands[2][0],)))
    assert snapshot(state) == before
    paid = state.legal_actions()[0].cards[0]
    state.apply(state.legal_actions()[0])
    assert state.phase == "return" and state.to_move == 0
    assert paid in state.hands[0]
    ret = state.legal_actions()[0].cards[0]
    state.apply(state.legal_actions()[0])
    assert state.phase == "play" and state.to_move == 3  # single tribute: the payer (末游) leads
    assert ret in state.hands[3]
    check_conservation(state)
    kinds = [e.type for e in state.events]
    assert kinds.index("tribute") < kinds.index("return") < kinds.index("lead")


@pytest.mark.parametrize("name, leader", [("competition", "payer_to_first"), ("huaian-traditional", "last_place")])
def test_double_tribute_leader(name: str, leader: str) -> None:
    rules = preset(name)
    hands = _strip_big_jokers(_hands_with({}), {0: 1, 2: 1})  # winners hold the big jokers
    state = new_deal(rules, random.Random(2), 4, (0, 2, 1, 3), hands=hands)
    assert state.plan is not None and len(state.plan.payments) == 2
    to_first = state.plan.payments[0].payer
    _pay_and_return(state)
    assert state.to_move == (to_first if leader == "payer_to_first" else 3)


def test_anti_tribute_publishes_big_jokers_and_first_leads() -> None:
    hands = _strip_big_jokers(_hands_with({}), {1: 1, 3: 1})
    state = new_deal(preset("competition"), random.Random(3), 4, (0, 2, 1, 3), hands=hands)
    assert state.phase == "play" and state.to_move == 0
    anti = next(e for e in state.events if isinstance(e, AntiTribute))
    assert sorted(anti.seats) == [1, 3]
    assert anti.revealed == (BIG_JOKER, BIG_JOKER)


@pytest.mark.parametrize("assignment", ["random", "winners_choose"])
def test_equal_tribute_alternatives(assignment: str) -> None:
    rules = preset("competition", equal_tribute_assignment=assignment)
    # both payers' highest card is a small joker: equal tributes
    hands = _hands_with({1: "LJ", 3: "LJ", 0: "BJ BJ"})
    state = new_deal(rules, random.Random(4), 4, (0, 2, 1, 3), hands=hands)
    assert state.phase == "tribute"
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    if assignment == "winners_choose":
        assert state.phase == "choose" and state.to_move == 0
        assert all(a.kind == "choose" for a in state.legal_actions())
        state.apply(state.legal_actions()[0])
    assert state.phase == "return"
    _pay_and_return(state)
    assert state.phase == "play"
    check_conservation(state)


@pytest.mark.parametrize("mode, expected", [("partner", 2), ("next_player", 1)])
def test_jiefeng_in_the_engine(mode: str, expected: int) -> None:
    """Seat 0 goes out with a play nobody beats: the lead goes to the partner (or the next player)."""
    rules = preset("competition", jiefeng=mode)
    state = new_deal(rules, random.Random(11), 0, None, first_leader=0)
    while True:
        assert state.phase == "play"
        if state.to_move == 0:
            last = len(state.hands[0]) == 1
            state.apply_move(next(m for m in state.legal_moves() if m.combo and len(m.cards) == 1))
            if last:
                break
        else:
            state.apply(Action(ActionKind.PASS, state.to_move))  # type: ignore[arg-type]
    assert state.finish == [0]
    for _ in range(3):
        state.apply(Action(ActionKind.PASS, state.to_move))  # type: ignore[arg-type]
    won = [e for e in state.events if isinstance(e, RoundWon)][-1]
    assert won == RoundWon(winner=0, leader=expected, jiefeng=True)
    assert state.to_move == expected and state.top is None


def test_report_threshold_makes_count_public() -> None:
    state = new_deal(preset("competition"), random.Random(6), 0, None, first_leader=0)
    while len(state.hands[0]) > 10:
        if state.to_move == 0:
            state.apply_move(next(m for m in state.legal_moves() if m.combo and len(m.cards) == 1))
        else:
            state.apply(Action(ActionKind.PASS, state.to_move))  # type: ignore[arg-type]
    reports = [e for e in state.events if isinstance(e, Reported)]
    assert reports == [Reported(player=0, count=10)]
    assert state.public_view().reported == {0: 10}
    assert state.observation(1).public_counts[0] == 10
    assert 1 not in state.observation(0).public_counts


def test_illegal_plays_change_nothing() -> None:
    state = new_deal(preset("competition"), random.Random(7), 0, None, first_leader=0)
    before = snapshot(state)
    hand = state.hands[0]
    not_held = next(c for c in range(52) if c not in hand)
    bad = [
        Action(ActionKind.PASS, 0),  # the leader may not pass
        Action(ActionKind.PLAY, 0, (not_held,)),  # a card not in hand
        Action(ActionKind.PLAY, 0, ()),  # no cards
        Action(ActionKind.TRIBUTE, 0, (hand[0],)),  # wrong phase
        Action(ActionKind.PLAY, 1, (state.hands[1][0],)),  # wrong seat
    ]
    pair = next((m for m in state.legal_moves() if m.combo and m.combo.type == "pair"), None)
    if pair is not None:
        bad.append(Action(ActionKind.PLAY, 0, pair.cards, classify([hand[0]], 0, state.rules)[0]))  # wrong declaration
    for action in bad:
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert snapshot(state) == before
    state.apply_move(next(m for m in state.legal_moves() if m.combo and m.combo.type == "single"))
    top = state.top_combo
    assert top is not None
    weaker = next((c for c in state.hands[1] if classify([c], 0, state.rules)[0].value <= top.value), None)
    if weaker is not None:
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="does not beat"):
            state.apply(Action(ActionKind.PLAY, 1, (weaker,)))
        assert snapshot(state) == before


def test_given_hands_are_checked() -> None:
    with pytest.raises(GuandanError, match="108 cards"):
        new_deal(preset("competition"), random.Random(0), 0, None, hands=[[0] * 27] * 4, first_leader=0)
    with pytest.raises(GuandanError, match="finishing order"):
        new_deal(preset("competition"), random.Random(0), 0, (0, 0, 1, 2))
