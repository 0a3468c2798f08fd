"""Agents cross process boundaries (the server's bot workers, Ray): every tier pickles after it has
decided, compiled or not (guandan.native), and the copy decides the same."""

from __future__ import annotations

import pickle

import pytest

from guandan.agents.base import make_agent
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic", "search:max_worlds=8"])
def test_an_agent_pickles_midgame_and_decides_the_same(spec: str) -> None:
    rules = preset("competition")
    m = new_match(rules, "agent-pickling", MatchConfig(max_deals=1, first_leader=0))
    agents = [make_agent(spec, s, None) for s in range(4)]
    for s, a in enumerate(agents):
        a.reset(s, rules)
    for _ in range(12):  # a few decisions, so the agents hold their per-deal state (decomposers, caches)
        seat = m.to_move
        assert seat is not None
        m.apply(agents[seat].choose(m.observation(seat), m.legal_actions()))
    seat = m.to_move
    assert seat is not None
    copy = pickle.loads(pickle.dumps(agents[seat]))
    assert type(copy) is type(agents[seat])
    obs, legal = m.observation(seat), m.legal_actions()
    assert copy.choose(obs, legal) == agents[seat].choose(obs, legal)
