"""Hints carry a reason that is true of the hinted action, whatever rank the action has in the list."""

from __future__ import annotations

import random

import pytest

from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.hints import Hint, HintReason, best_actions, hints, reason_for, simple_rank
from guandan.core.cards import card_str, parse_cards, physical_deck
from guandan.core.combos import beats
from guandan.core.deal import Action
from guandan.core.match import MatchConfig, MatchObservation, MatchState, new_match
from guandan.core.rules import PRESET_NAMES, preset
from guandan.core.tribute import partner
from guandan.core.vocab import ActionKind, ComboType

# seat 1 at level 2: a pair of level cards (♠2♦2, strong) and a pair of 6s both beat a pair of 5s
SEAT1 = "S2 D2 C6 D6 S3 C3 H4 S7 C8 D9 ST HJ CQ DK SA CA H8 D7 S9 CT DJ SQ HK D3 C4 SJ LJ"


def _pairs_position() -> tuple[MatchState, MatchObservation]:
    rules = preset("competition")
    mine = parse_cards(SEAT1)
    lead = parse_cards("S5 H5")
    rest = [pc.code for pc in physical_deck()]
    for c in mine + lead:
        rest.remove(c)
    random.Random(1).shuffle(rest)
    hands = (tuple(lead + rest[:25]), tuple(mine), tuple(rest[25:52]), tuple(rest[52:]))
    m = new_match(rules, "hints", MatchConfig(max_deals=1, first_hands=hands, first_leader=0))
    assert m.level == 0  # level 2: the 2s are level cards
    fives = next(a for a in m.legal_actions() if a.combo is not None and a.combo.type == ComboType.PAIR
                 and sorted(card_str(c) for c in a.cards) == ["H5", "S5"])
    m.apply(fives)
    assert m.to_move == 1
    return m, m.observation(1)


def _pair_of(obs: MatchObservation, cards: str) -> Action:
    want = sorted(parse_cards(cards))
    return next(a for a in obs.deal.legal if a.kind == ActionKind.PLAY and sorted(a.cards) == want)


def test_a_pair_of_level_cards_is_not_the_smallest_beat_when_6s_beat_too() -> None:
    _m, obs = _pairs_position()
    twos, sixes = _pair_of(obs, "S2 D2"), _pair_of(obs, "C6 D6")
    assert twos.combo is not None and sixes.combo is not None and twos.combo.value > sixes.combo.value
    assert reason_for(twos, obs) == HintReason.BEAT
    assert reason_for(sixes, obs) == HintReason.BEAT_SMALLEST
    every = hints(obs, len(obs.deal.legal))
    by_action = {h.action: h.reason for h in every}
    assert by_action[twos] == HintReason.BEAT and by_action[sixes] == HintReason.BEAT_SMALLEST
    smallest = [h for h in every if h.reason == HintReason.BEAT_SMALLEST]
    assert smallest and all(h.action.combo is not None and h.action.combo.value == sixes.combo.value for h in smallest)
    assert hints(obs, len(obs.deal.legal)) == every  # deterministic


def test_leads_are_low_only_when_lowest_of_their_kind() -> None:
    rules = preset("competition")
    m = new_match(rules, "leads", MatchConfig(max_deals=1, first_leader=0))
    obs = m.observation(0)
    singles = [a for a in obs.deal.legal if a.combo is not None and a.combo.type == ComboType.SINGLE]
    low = min(a.combo.value for a in singles if a.combo is not None)
    for a in singles:
        assert a.combo is not None
        assert reason_for(a, obs) == (HintReason.LEAD_LOW if a.combo.value == low else HintReason.LEAD)


def _truth(h: Hint, obs: MatchObservation) -> None:
    """Check ``h.reason`` against its definition, independently of :func:`reason_for`."""
    a, d = h.action, obs.deal
    top = d.top
    r = h.reason
    kinds = {ActionKind.TRIBUTE: HintReason.TRIBUTE_FORCED, ActionKind.CHOOSE: HintReason.CHOOSE_HIGHER,
             ActionKind.RETURN: HintReason.RETURN}
    if a.kind in kinds:
        assert r == kinds[a.kind]
        return
    if a.kind == ActionKind.PASS:
        partner_top = top is not None and top[0] == partner(d.seat)
        assert r == (HintReason.LET_PARTNER_WIN if partner_top else HintReason.PASS)
        return
    c = a.combo
    assert c is not None
    if len(a.cards) == len(d.hand):
        assert r == HintReason.GO_OUT
        return
    if c.is_bomb:
        assert r == HintReason.BOMB
        return
    same = [b.combo.value for b in d.legal if b.kind == ActionKind.PLAY and b.combo is not None
            and not b.combo.is_bomb and b.combo.type == c.type and b.combo.size == c.size]
    if top is None:
        assert r == (HintReason.LEAD_LOW if c.value == min(same) else HintReason.LEAD), (a, r)
    else:
        assert beats(c, top[2]) and r in (HintReason.BEAT_SMALLEST, HintReason.BEAT)
        assert (r == HintReason.BEAT_SMALLEST) == (c.value == min(same)), (a, r)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_every_hint_reason_is_true_along_self_play(preset_name: str) -> None:
    rules = preset(preset_name)
    m = new_match(rules, f"hint-truth:{preset_name}", MatchConfig(max_deals=2))
    players = [HeuristicAgent(s) for s in range(4)]
    for s, p in enumerate(players):
        p.reset(s, rules)
    seen: set[HintReason] = set()
    decisions = 0
    while not m.ended:
        seat = m.to_move
        assert seat is not None
        obs = m.observation(seat)
        got = hints(obs, 4, rules)
        assert got and got == best_actions(obs, 4, rules)
        for h in [*got, *simple_rank(obs, obs.deal.legal, 4)]:
            assert h.action in obs.deal.legal
            _truth(h, obs)
            seen.add(h.reason)
        decisions += 1
        m.apply(players[seat].choose(obs, m.legal_actions()))
    assert decisions > 50
    assert {HintReason.LEAD_LOW, HintReason.BEAT_SMALLEST, HintReason.PASS} <= seen


def test_the_hint_cycle_offers_a_plain_bomb_before_one_that_spends_a_wildcard() -> None:
    """The heuristic tier plans a wildcard into a bomb of its rank and bombs with that (♠6 ♥6 ♦6 ♦6 ♥2*); the
    second hint offered that five-card bomb, the plain four 6s only third. Along self-play the bombs among the
    hints go cheapest first (fewer cards, then no wildcard), and a bomb spending a wildcard comes after a plain
    bomb of no more cards wherever one is legal."""
    from guandan.agents.hints import bomb_cost

    rules = preset("competition")
    applied = 0
    for seed in ("s0", "s1", "s2"):
        m = new_match(rules, seed, MatchConfig(max_deals=1))
        for _ in range(120):
            if m.ended:
                break
            seat = m.to_move
            assert seat is not None
            obs = m.observation(seat)
            level, left, legal = obs.deal.level, len(obs.deal.hand), obs.deal.legal
            offered = [h.action for h in hints(obs, 3, rules)]

            def bomb(a: Action, left: int = left) -> bool:
                return a.combo is not None and a.combo.is_bomb and len(a.cards) < left

            bombs = [a for a in offered if bomb(a)]
            assert bombs == sorted(bombs, key=lambda a: bomb_cost(a, level))
            for i, a in enumerate(offered):
                if bomb(a) and bomb_cost(a, level)[1]:
                    plain = [b for b in legal if bomb(b) and not bomb_cost(b, level)[1] and len(b.cards) <= len(a.cards)]
                    if plain:
                        applied += 1
                        assert any(b in plain for b in offered[:i]), offered
            agent = HeuristicAgent(0)
            agent.reset(seat, rules)
            m.apply(agent.choose(obs, legal))
    assert applied > 0
