"""Every engine object that crosses a process boundary (worker pools, Ray) pickles and comes back
equal, compiled or not (guandan.native): matches mid-deal, observations, legal actions, plans."""

from __future__ import annotations

import pickle
import random

import pytest

from guandan.agents.decompose import Decomposer
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import PRESET_NAMES, preset
from guandan.core.turns import TurnTracker


def _played(preset_name: str, seed: int, steps: int):  # type: ignore[no-untyped-def]
    rules = preset(preset_name)
    m = new_match(rules, f"pickle:{seed}", MatchConfig(max_deals=3))
    rng = random.Random(seed)
    for _ in range(steps):
        if m.ended:
            break
        m.apply(rng.choice(m.legal_actions()))
    return m


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("steps", [0, 7, 60, 400])
def test_a_match_pickles_whole_and_plays_on_identically(preset_name: str, steps: int) -> None:
    m = _played(preset_name, steps, steps)
    copy = pickle.loads(pickle.dumps(m))
    if m.ended:
        assert copy.ended
        return
    seat = m.to_move
    assert seat is not None and copy.to_move == seat
    assert copy.observation(seat) == m.observation(seat)
    assert copy.legal_actions() == m.legal_actions()
    action = m.legal_actions()[0]
    assert copy.apply(action) == m.apply(action)  # the same events follow
    assert pickle.loads(pickle.dumps(m.observation(seat))) == m.observation(seat)


def test_a_turn_tracker_keeps_its_round_state() -> None:
    t = TurnTracker(1, preset("competition"), already_out=[3])
    t.play(1, goes_out=False)
    t.pass_(2)
    back = pickle.loads(pickle.dumps(t))
    assert (back.turn, back.owner, back.finish, back.waiting) == (t.turn, t.owner, t.finish, t.waiting)
    assert back.pass_(0) == t.pass_(0)


def test_a_decomposition_pickles() -> None:
    m = _played("competition", 3, 0)
    seat = m.to_move
    assert seat is not None
    obs = m.observation(seat)
    dec = Decomposer(preset("competition"), obs.deal.level)(list(obs.deal.hand))
    assert pickle.loads(pickle.dumps(dec)) == dec
