"""Reading bombs from passes (``search:read_bombs``): a seat that passed on an opponent's play while that
opponent was close to going out held no bomb over it, since the heuristic bombs then."""

from __future__ import annotations

import random
from collections.abc import Iterator

from guandan.agents.base import canonical_spec, make_agent
from guandan.agents.counting import read
from guandan.agents.heuristic import HeuristicAgent
from guandan.agents.search import SearchAgent
from guandan.agents.worlds import bomb_pass_evidence, bomb_violations, sample_weighted
from guandan.core.cards import parse_cards
from guandan.core.combos import Combo, classify
from guandan.core.events import Played
from guandan.core.match import MatchConfig, MatchObservation, MatchState, new_match
from guandan.core.rules import preset
from search_deal import first_deal_moves

LEVEL = 0  # level 2


def _combo(text: str) -> Combo:
    return classify(list(parse_cards(text)), LEVEL, preset("competition"))[0]


def _positions(seeds: range) -> Iterator[tuple[MatchState, MatchObservation, list[tuple[int, Combo]]]]:
    """Every position of heuristic first deals, with its bomb evidence at the heuristic's danger (6); the
    heuristic plays each position's move once the caller is done with it."""
    rules = preset("competition")
    for seed in seeds:
        m = new_match(rules, seed, MatchConfig(max_deals=1))
        agents = [HeuristicAgent(seed * 10 + s) for s in range(4)]
        for s, a in enumerate(agents):
            a.reset(s, rules)
        while not m.ended:
            seat = m.to_move
            assert seat is not None
            obs = m.observation(seat)
            yield m, obs, bomb_pass_evidence(obs.deal, [6] * 4)
            m.apply(agents[seat].choose(obs, m.legal_actions()))


def test_bomb_violations_count_a_bomb_that_beats_the_play() -> None:
    single = _combo("SA")
    five_bomb = _combo("S9 H9 C9 D9 S9")
    evidence = [(1, single), (3, five_bomb)]
    assert bomb_violations([[], list(parse_cards("S3 H3 C3 D3 SK")), [], []], evidence[:1], LEVEL) == 1
    assert bomb_violations([[], list(parse_cards("S3 H3 C3 SK")), [], []], evidence[:1], LEVEL) == 0
    assert bomb_violations([[], list(parse_cards("LJ LJ BJ BJ")), [], []], evidence[:1], LEVEL) == 1
    assert bomb_violations([[], list(parse_cards("LJ BJ BJ")), [], []], evidence[:1], LEVEL) == 0
    # a bomb beats a bomb by size, then by value
    assert bomb_violations([[], [], [], list(parse_cards("ST HT CT DT"))], evidence[1:], LEVEL) == 0
    assert bomb_violations([[], [], [], list(parse_cards("S8 H8 C8 D8 S8"))], evidence[1:], LEVEL) == 0
    assert bomb_violations([[], [], [], list(parse_cards("ST HT CT DT ST"))], evidence[1:], LEVEL) == 1
    assert bomb_violations([[], [], [], list(parse_cards("S3 H3 C3 D3 S3 H3"))], evidence[1:], LEVEL) == 1
    # the level's cards (15) make the highest bomb of their size
    assert bomb_violations([[], [], [], list(parse_cards("S2 H2 C2 D2 S2"))], evidence[1:], LEVEL) == 1


def test_the_evidence_is_passes_on_plays_made_and_grows_with_danger() -> None:
    positions_with_evidence = 0
    for _m, obs, evidence in _positions(range(12)):
        plays = {e.combo for e in obs.deal.events if isinstance(e, Played)}
        assert all(passer != obs.deal.seat and top in plays for passer, top in evidence)
        # the seat's own passes say nothing it does not know; a wider danger reads more passes
        assert set(evidence) <= set(bomb_pass_evidence(obs.deal, [10] * 4))
        assert set(bomb_pass_evidence(obs.deal, [2] * 4)) <= set(evidence)
        positions_with_evidence += bool(evidence)
    assert positions_with_evidence > 100


def test_heuristic_players_true_hands_rarely_contradict_their_passes() -> None:
    # The heuristic bombs an opponent close to going out whenever its plan holds a bomb over the play,
    # so its true hand almost never holds four of a rank after such a pass (its plan may use one in a
    # straight flush or keep the wildcards elsewhere: rare).
    positions = contradicted = 0
    for m, obs, evidence in _positions(range(40)):
        if evidence:
            assert m.deal is not None
            positions += 1
            contradicted += bomb_violations([list(h) for h in m.deal.hands], evidence, obs.deal.level) > 0
    assert positions > 500
    assert contradicted <= positions // 50


def test_worlds_that_read_bombs_seldom_give_a_passer_a_bomb() -> None:
    rng_plain, rng_read = random.Random(7), random.Random(7)
    plain = read_ = worlds = 0
    for _m, obs, evidence in _positions(range(40)):
        if evidence and len(obs.deal.events) % 3 == 0:
            know, level = read(obs), obs.deal.level
            for _ in range(4):
                worlds += 1
                w = sample_weighted(know, obs.deal.hand, rng_plain, [], level, 4)
                plain += bomb_violations(w, evidence, level) > 0
                w = sample_weighted(know, obs.deal.hand, rng_read, [], level, 4, None, evidence)
                read_ += bomb_violations(w, evidence, level) > 0
    assert worlds > 200 and plain > 10
    assert read_ * 4 < plain


def test_read_bombs_is_an_option_of_the_search_tier() -> None:
    assert canonical_spec("search:read_bombs=off") == "search"
    assert canonical_spec("search:read_bombs=on") == "search:read_bombs=on"
    agent = make_agent("search:read_bombs=on:max_worlds=8", seed=3)
    assert isinstance(agent, SearchAgent) and agent.read_bombs
    # a deal played out with it: legal moves only, the same moves twice (fixed worlds)
    assert first_deal_moves("search:read_bombs=on:max_worlds=8")[1] == first_deal_moves("search:read_bombs=on:max_worlds=8")[1]
