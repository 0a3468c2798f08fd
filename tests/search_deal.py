"""One first deal played with a search spec on seats 0 and 2 and the heuristic on 1 and 3: the moves, each
checked legal (a fixed ``max_worlds`` makes the search deterministic, so two plays give the same moves)."""

from __future__ import annotations

from guandan.agents.base import Agent, make_agent
from guandan.agents.heuristic import HeuristicAgent
from guandan.core.deal import Action
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset


def first_deal_moves(spec: str, seed: int = 5) -> tuple[list[Agent], list[Action]]:
    rules = preset("competition")
    m = new_match(rules, seed, MatchConfig(max_deals=1))
    agents = [make_agent(spec, seed=s) if s % 2 == 0 else HeuristicAgent(s) for s in range(4)]
    for s, a in enumerate(agents):
        a.reset(s, rules)
    moves = []
    while not m.ended:
        seat = m.to_move
        assert seat is not None
        legal = m.legal_actions()
        action = agents[seat].choose(m.observation(seat), legal)
        assert action in legal
        moves.append(action)
        m.apply(action)
    return agents, moves
