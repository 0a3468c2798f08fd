"""Swiss pairing as a maximum-weight matching: validity, order, byes, soft wishes, explanations."""

from __future__ import annotations

import itertools
import random
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from guandan.tournament import pairing
from guandan.tournament.errors import TournamentError
from guandan.tournament.pairing import random_order, rating_order, swiss_pairing, window_pairs

from .brute import pairable
from .pairing_cost import lex_cost


def _pairs(*pairs: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


def test_high_against_high_within_score_groups() -> None:
    order = [1, 2, 3, 4, 5, 6]
    p = swiss_pairing(order, {1: 4, 2: 4, 3: 2, 4: 2, 5: 0, 6: 0}, set())
    assert p.pairs == ((1, 2), (3, 4), (5, 6)) and p.bye is None


def test_floats_one_team_when_a_group_is_odd_and_avoids_rematches() -> None:
    # 1,2,3 on 4 points; 1-2 already met: 1 plays 3, and 2 floats down to the best 2-point team
    order = [1, 2, 3, 4, 5, 6]
    p = swiss_pairing(order, {1: 4, 2: 4, 3: 4, 4: 2, 5: 2, 6: 0}, _pairs((1, 2)))
    assert p.pairs == ((1, 3), (2, 4), (5, 6))


def test_bye_to_lowest_team_without_one_and_never_twice() -> None:
    order = [1, 2, 3, 4, 5]
    pts = {1: 4, 2: 2, 3: 2, 4: 0, 5: 0}
    assert swiss_pairing(order, pts, set()).bye == 5
    p = swiss_pairing(order, pts, set(), had_bye={5})
    assert p.bye == 4 and len(p.pairs) == 2


def test_same_club_kept_apart_when_the_score_allows() -> None:
    order = [1, 2, 3, 4]
    pts = dict.fromkeys(order, 2)
    clubs = {1: "X", 2: "X", 3: "Y", 4: "Z"}
    assert _pairs(*swiss_pairing(order, pts, set(), clubs=clubs).pairs) == _pairs((1, 3), (2, 4))
    assert swiss_pairing(order, pts, set(), clubs=clubs, avoid_same_club=False).pairs == ((1, 2), (3, 4))
    # a soft wish never costs score fidelity: 1 and 2 are alone on 4 points and must meet
    assert swiss_pairing(order, {1: 4, 2: 4, 3: 0, 4: 0}, set(), clubs=clubs).pairs[0] == (1, 2)


def test_seeded_first_round_folds() -> None:
    order = rating_order({1: 1500.0, 2: 1900.0, 3: None, 4: 1700.0, 5: 1600.0, 6: 1800.0})
    assert order == [2, 6, 4, 5, 1, 3]
    assert swiss_pairing(order, {}, set(), fold=True).pairs == ((2, 5), (6, 1), (4, 3))
    odd = swiss_pairing([1, 2, 3, 4, 5, 6, 7], {}, set(), fold=True)
    assert odd.bye == 7 and odd.pairs == ((1, 4), (2, 5), (3, 6))


def test_random_order_is_seeded() -> None:
    assert random_order([3, 1, 2, 4], 7) == random_order([1, 2, 3, 4], 7)
    assert len({tuple(random_order(range(1, 9), s)) for s in range(5)}) > 1


def test_impossible_pairing_is_explained() -> None:
    everyone = _pairs(*itertools.combinations([1, 2, 3, 4], 2))
    with pytest.raises(TournamentError, match="teams 1, 2, 3, 4 have already met every other team"):
        swiss_pairing([1, 2, 3, 4], {}, everyone, round_no=4)
    # 1, 2 and 3 have met everyone but 4: each has an opponent left, yet no pairing places them all
    met = _pairs(*itertools.combinations([1, 2, 3], 2), *itertools.product([1, 2, 3], [5, 6]))
    with pytest.raises(TournamentError, match="at most 4 of 6 teams can be placed") as e:
        swiss_pairing([1, 2, 3, 4, 5, 6], {}, met, round_no=3)
    assert "round 3" in str(e.value)
    with pytest.raises(TournamentError, match="every team has already had its bye"):
        swiss_pairing([1, 2, 3], {}, set(), had_bye={1, 2, 3})
    with pytest.raises(TournamentError, match="at least two"):
        swiss_pairing([1], {}, set())




@pytest.mark.parametrize("seed", range(40))
def test_finds_a_pairing_whenever_one_exists(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(3, 9)
    teams = list(range(1, n + 1))
    met = {frozenset(p) for p in itertools.combinations(teams, 2) if rng.random() < 0.55}
    had_bye = {t for t in teams if rng.random() < 0.4}
    pts = {t: rng.randrange(0, 7) for t in teams}
    exists = pairable(teams, met, had_bye)
    try:
        p = swiss_pairing(teams, pts, met, had_bye)
    except TournamentError:
        assert not exists
        return
    assert exists
    placed = [x for pair in p.pairs for x in pair] + ([p.bye] if p.bye is not None else [])
    assert sorted(placed) == teams
    assert not any(frozenset(pair) in met for pair in p.pairs)
    assert p.bye is None or p.bye not in had_bye


# ---- the window of candidate pairs keeps the cheapest cost ------------------------------------------

def _history(rng: random.Random, n: int, rounds: int, clubs: int) -> tuple[
        list[int], dict[int, int], set[frozenset[int]], set[int], dict[int, str]]:
    """A plausible event after ``rounds`` rounds: random pairings without rematches, wins, draws, byes;
    the order by 场分 with random ties; a club per team."""
    teams = list(range(1, n + 1))
    pts, met, had_bye = dict.fromkeys(teams, 0), set[frozenset[int]](), set[int]()
    for _ in range(rounds):
        for _attempt in range(50):
            rest = teams[:]
            rng.shuffle(rest)
            if len(rest) % 2:
                free = [t for t in rest if t not in had_bye]
                if not free:
                    break
                bye = rng.choice(free)
                rest.remove(bye)
            pairs = list(zip(rest[::2], rest[1::2], strict=True))
            if not any(frozenset(x) in met for x in pairs):
                break
        else:
            continue
        if len(teams) % 2:
            had_bye.add(bye)
            pts[bye] += 2
        for a, b in pairs:
            met.add(frozenset((a, b)))
            w = rng.random()
            pts[a] += 2 if w < 0.45 else 1 if w < 0.55 else 0
            pts[b] += 0 if w < 0.45 else 1 if w < 0.55 else 2
    order = sorted(teams, key=lambda t: (-pts[t], rng.random()))
    return order, pts, met, had_bye, {t: f"C{rng.randrange(clubs)}" for t in teams}


@settings(derandomize=True, deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(20, 80), rounds=st.integers(0, 8), clubs=st.integers(1, 30), avoid=st.booleans(),
       seed=st.integers(0, 2**16))
@example(n=80, rounds=8, clubs=4, avoid=True, seed=1)
@example(n=79, rounds=8, clubs=20, avoid=True, seed=2)
@example(n=21, rounds=8, clubs=2, avoid=True, seed=3)
def test_window_keeps_the_cheapest_cost(n: int, rounds: int, clubs: int, avoid: bool, seed: int) -> None:
    order, pts, met, had_bye, club = _history(random.Random(seed), n, rounds, clubs)
    window = window_pairs(order, pts, met, club if avoid else {})
    assert window is not None
    fast = swiss_pairing(order, pts, met, had_bye, club, avoid_same_club=avoid)
    with patch.object(pairing, "window_pairs", return_value=None):
        full = swiss_pairing(order, pts, met, had_bye, club, avoid_same_club=avoid)
    assert lex_cost(fast, order, pts, club, avoid) == lex_cost(full, order, pts, club, avoid)
    # stronger: every pair of a cheapest pairing found on the full graph is one the window keeps
    assert set(full.pairs) <= set(window) and set(fast.pairs) <= set(window)
    assert not any(frozenset(x) in met for x in fast.pairs)
    assert fast.bye is None or fast.bye not in had_bye


def test_window_only_when_points_never_rise() -> None:
    assert window_pairs([1, 2, 3, 4], {1: 2, 2: 4, 3: 0, 4: 0}, set(), {}) is None
    assert window_pairs([1, 2, 3, 4], {1: 4, 2: 4, 3: 0, 4: 0}, set(), {}) == [(1, 2), (2, 3), (3, 4)]
    # a rematch is never a candidate; 1 has met 2, so 1-3 and 2-... widen the window
    kept = window_pairs([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0), _pairs((1, 2)), {})
    assert kept is not None and (1, 2) not in kept and {(1, 3), (2, 3), (3, 4)} <= set(kept)


def test_window_falls_back_to_the_full_graph_when_a_tie_of_points_is_not_ranked() -> None:
    """Ranked by wins before 场分, the order may let points rise: the full graph is matched."""
    order = [1, 2, 3, 4, 5, 6]
    pts = {1: 2, 2: 4, 3: 4, 4: 2, 5: 0, 6: 0}
    assert swiss_pairing(order, pts, set()).pairs == ((1, 4), (2, 3), (5, 6))
