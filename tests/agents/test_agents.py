"""Agents never act illegally, in any preset, from many random states; decomposition is sound."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from guandan.agents import make_agent
from guandan.agents.counting import read
from guandan.agents.decompose import Decomposer, checked_combo
from guandan.agents.hints import best_actions
from guandan.agents.search import SearchAgent
from guandan.agents.worlds import sample_hands, tracker_from
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import PRESET_NAMES, preset
from guandan.core.vocab import ComboType, MoveMode

TIERS = ["random", "greedy", "heuristic", "search"]


def _agent(name: str, seed: int) -> object:
    if name == "search":
        return SearchAgent(seed, 0.01, max_worlds=2)  # tiny, fixed effort: deterministic and fast
    return make_agent(name, seed)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_no_illegal_action_from_random_states(preset_name: str) -> None:
    rules = preset(preset_name)
    rng = random.Random(f"states:{preset_name}")
    checked = 0
    for deal in range(2):
        prev = None if deal == 0 else tuple(rng.sample(range(4), 4))
        cfg = MatchConfig(max_deals=1, start_prev_finish=prev, start_declarer=None if prev is None else prev[0] % 2,
                          first_leader=None if prev else rng.randrange(4), move_mode=MoveMode.CANONICAL)
        m = new_match(rules, f"p{preset_name}{deal}", cfg)
        tiers = [_agent(TIERS[(deal + s) % 4], deal * 4 + s) for s in range(4)]
        for s, a in enumerate(tiers):
            a.reset(s, rules)  # type: ignore[attr-defined]
        while not m.ended:
            seat = m.to_move
            assert seat is not None
            legal = m.legal_actions()
            obs = m.observation(seat)
            # every tier is asked at every state (random states along a random-ish game)
            for a in tiers:
                a.seat = seat  # type: ignore[attr-defined]
                assert a.choose(obs, legal) in legal  # type: ignore[attr-defined]
                checked += 1
            for s, a in enumerate(tiers):
                a.seat = s  # type: ignore[attr-defined]
            m.apply(rng.choice(legal) if rng.random() < 0.3 else tiers[seat].choose(obs, legal))  # type: ignore[attr-defined]
    assert checked > 100


def test_decomposition_covers_the_hand_with_legal_plays() -> None:
    rules = preset("competition")
    for seed in range(15):
        m = new_match(rules, f"d{seed}")
        level = m.deal.level  # type: ignore[union-attr]
        dec = Decomposer(rules, level)
        for hand in m.deal.hands:  # type: ignore[union-attr]
            d = dec(hand)
            assert Counter(c for u in d.units for c in u.cards) == Counter(hand)
            for u in d.units:
                assert checked_combo(u, level, rules) == u.combo


def test_decomposition_prefers_fewer_plays() -> None:
    from guandan.core.cards import parse_cards

    rules = preset("competition")
    dec = Decomposer(rules, 12)  # level A: the 2s are ordinary
    d = dec(parse_cards("S3 H4 C5 D6 S7 S9 H9 C9 DJ SJ"))
    types = sorted(u.type for u in d.units)
    assert types == [ComboType.FULL_HOUSE, ComboType.STRAIGHT]
    assert d.plays == 2


def test_sampled_worlds_respect_public_information() -> None:
    rules = preset("competition")
    cfg = MatchConfig(max_deals=1, start_prev_finish=(0, 1, 3, 2), start_declarer=0)
    m = new_match(rules, "w", cfg)
    agents = [make_agent("heuristic", s) for s in range(4)]
    for s, a in enumerate(agents):
        a.reset(s, rules)
    for _ in range(40):
        seat = m.to_move
        assert seat is not None
        m.apply(agents[seat].choose(m.observation(seat), m.legal_actions()))
    seat = m.to_move
    assert seat is not None
    obs = m.observation(seat)
    know = read(obs)
    true_counts = [len(h) for h in m.deal.hands]  # type: ignore[union-attr]
    assert know.counts == true_counts
    hands = sample_hands(know, obs.deal.hand, random.Random(1))
    assert [len(h) for h in hands] == true_counts
    assert Counter(c for h in hands for c in h) == Counter(c for h in m.deal.hands for c in h)  # type: ignore[union-attr]
    for s in range(4):
        assert not (know.known[s] - Counter(hands[s]))
    t = tracker_from(obs.deal, rules)
    assert t.turn == seat and t.finish == list(obs.deal.finish)


def test_agents_are_deterministic_for_a_seed() -> None:
    rules = preset("competition")

    def run(name: str) -> list[object]:
        m = new_match(rules, "det", MatchConfig(max_deals=1, first_leader=0))
        agents = [SearchAgent(7, None, 3) if name == "search" else make_agent(name, 7) for _ in range(4)]
        for s, a in enumerate(agents):
            a.reset(s, rules)
        while not m.ended:
            seat = m.to_move
            assert seat is not None
            m.apply(agents[seat].choose(m.observation(seat), m.legal_actions()))
        return m.deals[0].state.actions  # type: ignore[return-value]

    assert run("heuristic") == run("heuristic")
    assert run("search") == run("search")


class _Clock:
    """A stand-in for the search's clock: every reading moves on by ``step`` seconds, as if each world took
    that long, so the budget logic is checked without depending on the machine's speed or load."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("budget", [0.05, 0.2, 1.0])
def test_search_stops_within_its_time_budget(budget: float) -> None:
    from guandan.agents.search import SAFETY, SearchAgent

    rules = preset("competition")
    m = new_match(rules, "t", MatchConfig(max_deals=1, first_leader=0))
    agent = make_agent("search:settle=off", 1, budget)  # settling would stop it early: here it must use the clock
    assert isinstance(agent, SearchAgent)
    agent.reset(0, rules)
    clock = _Clock(0.003)
    agent.clock = clock.perf_counter
    action = agent.choose(m.observation(0), m.legal_actions())
    assert action in m.legal_actions()
    assert clock.now <= budget  # it answered inside its budget …
    # … after using most of it: each world reads the clock twice, so it costs 2 steps
    assert agent.last_worlds >= (SAFETY * budget - 3 * clock.step) / (2 * clock.step) - 1


def test_hints_give_k_distinct_legal_actions_with_reasons() -> None:
    rules = preset("competition")
    m = new_match(rules, "h", MatchConfig(max_deals=1, first_leader=0))
    legal = m.legal_actions()
    hints = best_actions(m.observation(0), 3)  # the legal actions come from the observation
    assert len(hints) == 3
    assert len({h.action for h in hints}) == 3
    assert all(h.action in legal and h.reason for h in hints)
    assert best_actions(m.observation(0), 3, legal=legal) == hints
    assert best_actions(m.observation(1), 3) == []  # not this seat's turn: nothing to suggest
