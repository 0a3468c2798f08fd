"""The learned belief over whole hands (``search:belief``): a hand's features, a seat's public features,
and worlds kept by importance resampling that look more like heuristic players' real hands."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from guandan.agents.base import canonical_spec, make_agent
from guandan.agents.belief import HAND_FEATURES, SEAT_FEATURES, chain, hand_features, resample, seat_features, seat_weights
from guandan.agents.counting import read
from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.search import SearchAgent
from guandan.agents.worlds import pass_evidence, sample_weighted
from guandan.core.cards import parse_cards
from guandan.core.errors import GuandanError
from guandan.core.match import MatchConfig, MatchObservation, MatchState, new_match
from guandan.core.rules import preset
from guandan.core.vocab import Phase
from search_deal import first_deal_moves


def _features(text: str, level: int = 0) -> dict[str, float]:
    names = ["fours", "fives", "joker_bomb", "big", "small", "wilds", "level", "aces", "top", "threes", "twos",
             "ones", "near", "low"]
    phi = hand_features(list(parse_cards(text)), level)
    assert len(phi) == HAND_FEATURES == len(names)
    return dict(zip(names, phi, strict=True))


def test_hand_features_count_bombs_jokers_wildcards_and_groups() -> None:
    # level 2 (index 0): H2 is the wildcard, kept apart from its rank
    f = _features("S9 H9 C9 D9 S9 SA HA LJ BJ BJ H2 S2 S3 S4 S4")
    assert (f["fours"], f["fives"], f["joker_bomb"], f["big"], f["small"]) == (1, 1, 0, 2, 1)
    assert (f["wilds"], f["level"], f["aces"]) == (1, 1, 2)
    assert f["top"] == 5 / 4
    # pairs A and 4, singles 2 (natural) and 3; with the wildcard a pair would need two more: none near
    assert (f["threes"], f["twos"], f["ones"], f["near"]) == (0, 2 / 2, 2 / 3, 0)
    assert f["low"] == 3 / 4  # 3, 4, 4 (the level's 2s count as level cards, not low ones)
    f = _features("LJ LJ BJ BJ S7 H7 C7 H2")
    assert (f["joker_bomb"], f["threes"], f["near"], f["low"]) == (1, 1, 1, 3 / 4)


def _positions(seeds: range) -> Iterator[tuple[MatchState, MatchObservation]]:
    """Seat 1's play decisions in heuristic first deals, while more than 20 cards are left in all hands."""
    rules = preset("competition")
    for seed in seeds:
        m = new_match(rules, seed, MatchConfig(max_deals=1))
        agents = [HeuristicAgent(seed * 10 + s) for s in range(4)]
        for s, a in enumerate(agents):
            a.reset(s, rules)
        while not m.ended:
            seat = m.to_move
            assert seat is not None and m.deal is not None
            obs = m.observation(seat)
            if seat == 1 and obs.deal.phase == Phase.PLAY and sum(len(h) for h in m.deal.hands) > 20:
                yield m, obs
            m.apply(agents[seat].choose(obs, m.legal_actions()))


def test_seat_features_describe_the_other_seats_only() -> None:
    for _m, obs in _positions(range(3)):
        x = seat_features(obs.deal, read(obs))
        assert len(x) == 4 and all(len(row) == SEAT_FEATURES for row in x)
        assert x[1] == [0.0] * SEAT_FEATURES  # the observer's own
        assert [x[s][2] for s in (0, 2, 3)] == [0.0, 0.0, 1.0]  # seat 3 is seat 1's partner
        assert [x[s][3] for s in (0, 2, 3)] == [0.0, 1.0, 0.0]  # seat 2 plays after seat 1
        assert [x[s][1] for s in (0, 2, 3)] == [read(obs).counts[s] / 27 for s in (0, 2, 3)]


def test_resampled_worlds_keep_every_fact_and_are_deterministic() -> None:
    for _m, obs in list(_positions(range(2)))[::5]:
        know = read(obs)
        a = seat_weights(obs.deal, know)
        evidence = pass_evidence(obs.deal)
        worlds = [resample(a, 8, know, obs.deal.hand, random.Random(3), evidence, know.level, 4, None, [])
                  for _ in range(2)]
        assert worlds[0] == worlds[1]
        w = worlds[0]
        assert sorted(w[1]) == sorted(obs.deal.hand)
        assert [len(h) for h in w] == know.counts
        assert Counter(c for s in (0, 2, 3) for c in w[s]) == know.unseen
        swapped = chain(a, 40, [list(h) for h in w], know, random.Random(4))
        assert swapped == chain(a, 40, [list(h) for h in w], know, random.Random(4))
        assert [sorted(h) for h in swapped] != [sorted(h) for h in w]  # some swaps are kept
        assert sorted(swapped[1]) == sorted(obs.deal.hand)
        assert [len(h) for h in swapped] == know.counts
        assert Counter(c for s in (0, 2, 3) for c in swapped[s]) == know.unseen
        assert all(not know.known[s] - Counter(swapped[s]) for s in (0, 2, 3))  # known cards stay


def _loose(hands: list[list[int]], level: int) -> float:
    """The other seats' singles and low cards, by the hand features' measure."""
    return sum(hand_features(hands[s], level)[11] + hand_features(hands[s], level)[13] for s in (0, 2, 3))


def test_the_belief_prefers_worlds_shaped_like_the_real_hands() -> None:
    # Heuristic players lead their loose low cards first, so late in a deal their real hands hold fewer
    # singles and low cards than the sampler's: the kept worlds move towards them.
    rng_plain, rng_kept = random.Random(5), random.Random(5)
    rng_chain = random.Random(5)
    real = plain = kept = chained = 0.0
    n = 0
    for m, obs in list(_positions(range(30)))[::4]:
        assert m.deal is not None
        know = read(obs)
        if sum(know.counts) - know.counts[1] > 45:
            continue  # early in the deal the hands are still close to fresh ones
        a = seat_weights(obs.deal, know)
        evidence = pass_evidence(obs.deal)
        real += _loose([list(h) for h in m.deal.hands], know.level)
        plain += _loose(sample_weighted(know, obs.deal.hand, rng_plain, evidence, know.level, 4), know.level)
        kept += _loose(resample(a, 8, know, obs.deal.hand, rng_kept, evidence, know.level, 4, None, []), know.level)
        world = sample_weighted(know, obs.deal.hand, rng_chain, evidence, know.level, 4)
        chained += _loose(chain(a, 60, world, know, rng_chain), know.level)
        n += 1
    assert n > 40
    assert real < kept < plain
    # one world kept of 8 moves a tenth of the way (the real hands are far from any sampled world)
    assert plain - kept > (plain - real) / 10
    assert real < chained < kept  # the chain moves further than one world kept of 8


def test_belief_is_an_option_of_the_search_tier() -> None:
    assert canonical_spec("search:belief=1") == "search"
    assert canonical_spec("search:belief=8") == "search:belief=8"
    assert canonical_spec("search:belief_steps=0") == "search"
    with pytest.raises(GuandanError):
        make_agent("search:belief=0")
    agents, moves = first_deal_moves("search:belief=4:belief_steps=20:max_worlds=8")
    assert isinstance(agents[0], SearchAgent) and (agents[0].belief, agents[0].belief_steps) == (4, 20)
    assert first_deal_moves("search:belief=4:belief_steps=20:max_worlds=8")[1] == moves
