"""Positions for the review's tests, from seeded heuristic self-play (deterministic), and reshuffles of
the hidden cards that leave a seat's observation as it was."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from guandan.agents.heuristic import HeuristicAgent
from guandan.core.cards import Card
from guandan.core.deal import Action, deal_cards
from guandan.core.match import MatchConfig, MatchObservation, MatchState, new_match
from guandan.core.rules import RuleSet, preset


@dataclass
class Position:
    match: MatchState  # the live match just before the seat acts: the truth, for the tests' own checks
    seat: int
    obs: MatchObservation
    legal: list[Action]
    name: str  # a public key for the decision (deal:action)
    actions: list[Action]  # every action of the match so far


def positions(rules: RuleSet | None = None, seeds: Sequence[int] = range(40), max_deals: int = 1,
              config: Callable[[int], MatchConfig] | None = None) -> Iterator[Position]:
    """Every decision of heuristic self-play matches, seed by seed (the match is live: copy what you keep)."""
    rules = rules or preset("competition")
    for seed in seeds:
        m = new_match(rules, f"review-test:{seed}", config(seed) if config else MatchConfig(max_deals=max_deals))
        agents = [HeuristicAgent(s) for s in range(4)]
        for s, a in enumerate(agents):
            a.reset(s, rules)
        done: list[Action] = []
        while not m.ended:
            seat = m.to_move
            assert seat is not None and m.deal is not None
            obs = m.observation(seat)
            legal = m.legal_actions()
            yield Position(m, seat, obs, legal, f"{m.deal_index}:{len(m.deal.actions)}", list(done))
            action = agents[seat].choose(obs, legal)
            done.append(action)
            m.apply(action)


def fixed_config(seed: int, prev_finish: tuple[int, ...] | None = None) -> MatchConfig:
    """One deal from hands dealt by ``seed``, its first leader named (so that a reshuffled copy of the
    hands starts the same way: no card flip)."""
    hands, _leader, _card = deal_cards(random.Random(f"review-hands:{seed}"))
    return MatchConfig(max_deals=1, first_hands=tuple(tuple(h) for h in hands),
                       first_leader=None if prev_finish else seed % 4, start_prev_finish=prev_finish,
                       start_declarer=None if prev_finish is None else prev_finish[0] % 2)


def reshuffle(match: MatchState, seat: int, rng: random.Random, keep: Sequence[int] = ()) -> tuple[tuple[Card, ...], ...]:
    """New first hands for the deal in progress: the cards the other seats (but ``keep``) still hold are
    dealt again among them at random, each keeping its count; what everyone played stays where it was."""
    deal = match.deal
    assert deal is not None
    movers = [s for s in range(4) if s != seat and s not in keep]
    pool = [c for s in movers for c in deal.hands[s]]
    rng.shuffle(pool)
    initial = [list(h) for h in deal.initial_hands]
    for s in movers:
        now = deal.hands[s]
        fresh, pool = pool[:len(now)], pool[len(now):]
        left = Counter(initial[s])
        left.subtract(Counter(now))
        initial[s] = sorted(list((+left).elements()) + fresh)
    return tuple(tuple(h) for h in initial)


def replayed(rules: RuleSet, config: MatchConfig, actions: Sequence[Action]) -> MatchState:
    m = new_match(rules, "review-test:replayed", config)
    for a in actions:
        m.apply(a)
    return m
