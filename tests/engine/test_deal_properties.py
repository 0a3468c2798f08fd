"""Property tests of the deal state machine over random play in every preset (RULES.md §4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guandan.core.deal import Action, new_deal
from guandan.core.errors import IllegalActionError
from guandan.core.rules import PRESET_NAMES, preset

from .helpers import check_conservation, check_observation, snapshot

SETTINGS = settings(derandomize=True, deadline=None, max_examples=12, suppress_health_check=[HealthCheck.too_slow])
FINISHES = [None, (0, 2, 1, 3), (1, 0, 2, 3), (2, 1, 3, 0), (3, 0, 2, 1)]  # 双下, 1-3, 1-4, ...


def _wrong_seat(state: object, legal: list[Action]) -> Action:
    a = legal[0]
    return a._replace(seat=(a.seat + 1) % 4)


@pytest.mark.parametrize("name", PRESET_NAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), level=st.integers(0, 12), prev=st.sampled_from(FINISHES))
def test_random_deal_invariants(name: str, seed: int, level: int, prev: tuple[int, ...] | None) -> None:
    rules = preset(name)
    rng = random.Random(seed)
    mode = "canonical" if name == "huopin" else "complete"
    state = new_deal(rules, rng, level if prev else 0, prev, move_mode=mode)
    check_conservation(state)
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 2000, "a deal must end"
        legal = state.legal_actions()
        assert legal, "the seat to move always has an action"
        assert all(a.seat == state.to_move for a in legal)
        # nobody acts out of turn: the wrong seat is refused and nothing changes
        before = snapshot(state)
        with pytest.raises(IllegalActionError):
            state.apply(_wrong_seat(state, legal))
        assert snapshot(state) == before
        if steps % 7 == 0:
            for seat in range(4):
                check_observation(state, seat)
        state.apply(rng.choice(legal))
        check_conservation(state)
    assert sorted(state.finish) == [0, 1, 2, 3]
    with pytest.raises(IllegalActionError):
        state.apply(Action("pass", 0))
