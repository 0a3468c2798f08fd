"""The search's return (还贡): whole deals played out from the hands after the returns."""

from __future__ import annotations

import random

import pytest

from guandan.agents import make_agent
from guandan.agents.search import SearchAgent, tribute_of
from guandan.core.deal import Action
from guandan.core.match import MatchConfig, MatchState, new_match
from guandan.core.rules import RuleSet, preset
from guandan.core.vocab import ActionKind, Phase


def _to_returns(rules: RuleSet, prev: tuple[int, ...], key: str) -> MatchState | None:
    """A one-deal match after the tribute from ``prev``, at its first return (None: 抗贡, no return)."""
    cfg = MatchConfig(max_deals=1, start_prev_finish=prev, start_declarer=prev[0] % 2)
    m = new_match(rules, key, cfg)
    heuristic = [make_agent("heuristic", s) for s in range(4)]
    for s, a in enumerate(heuristic):
        a.reset(s, rules)
    while m.deal.phase in (Phase.TRIBUTE, Phase.CHOOSE):
        seat = m.to_move
        assert seat is not None
        m.apply(heuristic[seat].choose(m.observation(seat), m.legal_actions()))
    return m if m.deal.phase == Phase.RETURN else None


def _situations(rules: RuleSet, n: int) -> list[MatchState]:
    out = []
    for i in range(n):
        prev = tuple(random.Random(f"returns{i}").sample(range(4), 4))
        m = _to_returns(rules, prev, f"returns{i}")
        if m is not None:
            out.append(m)
    return out


def _searcher(seat: int, rules: RuleSet, spec: str = "search:returns=on:max_worlds=40") -> SearchAgent:
    agent = make_agent(spec, seat)
    assert isinstance(agent, SearchAgent)
    agent.reset(seat, rules)
    return agent


@pytest.mark.parametrize("preset_name", ["competition", "huaian-traditional"])
def test_the_leader_a_return_search_assumes_is_the_one_the_engine_seats(preset_name: str) -> None:
    """Single and double tributes, under both rules for who leads after a double one (the payer
    to 头游, or 末游): what the public tribute says matches whom the engine lets lead."""
    rules = preset(preset_name)
    doubles = singles = 0
    for m in _situations(rules, 16):
        seat = m.to_move
        assert seat is not None
        payer_of, received, leader = tribute_of(m.observation(seat).deal, rules)
        assert set(payer_of) == set(received)
        assert all(payer != receiver for receiver, payer in payer_of.items())
        doubles += len(payer_of) == 2
        singles += len(payer_of) == 1
        while m.deal.phase == Phase.RETURN:
            m.apply(m.legal_actions()[0])
        assert m.deal.phase == Phase.PLAY
        assert m.observation(0).deal.first_leader == leader
    assert doubles and singles


def test_a_searched_return_is_legal_deterministic_and_leaves_the_play_worlds_alone() -> None:
    rules = preset("competition")
    changed = searched = 0
    for m in _situations(rules, 12):
        while m.deal.phase == Phase.RETURN:
            seat = m.to_move
            assert seat is not None
            obs, legal = m.observation(seat), m.legal_actions()
            first, second = _searcher(seat, rules), _searcher(seat, rules)
            before = first.rng.getstate()
            choice = first.choose(obs, legal)
            assert choice in legal and choice.kind == ActionKind.RETURN
            assert second.choose(obs, legal) == choice
            # the return draws its worlds from its own stream: the play decisions after it see
            # the very worlds they would have seen had the return not been searched
            assert first.rng.getstate() == before
            assert first.last_worlds >= 32 and first.last_candidates == min(6, len(legal))
            heuristic = make_agent("heuristic", seat)
            heuristic.reset(seat, rules)
            changed += choice != heuristic.choose(obs, legal)
            searched += 1
            m.apply(choice)
    assert searched >= 8
    assert changed < searched  # the prior keeps the heuristic's card unless playouts clearly beat it


def test_without_returns_the_return_is_the_heuristics_and_nothing_is_searched() -> None:
    rules = preset("competition")
    m = _situations(rules, 6)[0]
    seat = m.to_move
    assert seat is not None
    obs, legal = m.observation(seat), m.legal_actions()
    plain = _searcher(seat, rules, "search:max_worlds=40")
    heuristic = make_agent("heuristic", seat)
    heuristic.reset(seat, rules)
    assert plain.choose(obs, legal) == heuristic.choose(obs, legal)
    assert plain.last_worlds == 0


def test_a_return_the_playouts_find_clearly_worse_is_not_kept() -> None:
    """When the heuristic's card is made to look worst (the shortlist reversed), the search's
    playouts move off it: its value is read from the worlds, not from the ranking."""
    rules = preset("competition")
    moved = tried = 0
    for m in _situations(rules, 10):
        seat = m.to_move
        assert seat is not None
        obs, legal = m.observation(seat), m.legal_actions()
        agent = _searcher(seat, rules, "search:returns=on:max_worlds=96")
        ranked = agent.heuristic.ranked(obs, legal, len(legal))
        worst_first = list(reversed(ranked))[:6]
        picked: Action = agent._choose_return(obs, worst_first, agent.clock(), 1.0)
        tried += 1
        moved += picked != worst_first[0].action
    assert tried >= 6
    assert moved >= tried // 2
