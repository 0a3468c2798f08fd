"""Standings and the tie-break chain (RULES.md §5.4, "Final ranking")."""

from __future__ import annotations

import pytest

from guandan.tournament.errors import TournamentError
from guandan.tournament.rounds import fixed_result, round_result
from guandan.tournament.standings import Game, TeamRecord, compute_standings, rank_records, tally


def test_tally_counts_every_column() -> None:
    games = [
        Game(1, 1, 2, round_result(("A", "6"), 0)),  # 1 beats 2 by 8
        Game(1, 3, None, fixed_result(0, ("A", "6"), (2, 1, 0), forfeit=False)),  # bye for 3
        Game(2, 3, 1, round_result(("9", "9"), None)),  # draw
        Game(2, 2, 4, round_result(("5", "8"), None)),  # 4 beats 2 by 3
    ]
    recs = tally([1, 2, 3, 4], games)
    one, two, three, four = (recs[i] for i in (1, 2, 3, 4))
    assert (one.match_points, one.level_diff, one.levels_gained, one.wins, one.draws) == (3, 8, 19, 1, 1)
    assert (two.match_points, two.level_diff, two.levels_gained, two.losses) == (0, -11, 7, 2)
    assert (three.match_points, three.byes, three.played, three.opponents) == (3, 1, 2, [1])
    # 对手分 is the opponents' current 场分: team 1 met 2 (0) and 3 (3); a bye adds nothing
    assert (one.opponents_points, two.opponents_points, three.opponents_points, four.opponents_points) == (3, 5, 3, 0)


def _rec(tid: int, mp: int, opp: int = 0, diff: int = 0, gained: int = 0, vs: dict[int, int] | None = None) -> TeamRecord:
    return TeamRecord(tid, match_points=mp, opponents_points=opp, level_diff=diff, levels_gained=gained, vs=vs or {})


def test_default_chain_and_shared_ranks() -> None:
    recs = [_rec(1, 4, 6, 2), _rec(2, 4, 6, 2), _rec(3, 6), _rec(4, 4, 6, 3), _rec(5, 4, 7, -9)]
    table = rank_records(recs, ("match_points", "opponents_points", "level_diff", "levels_gained"))
    assert [(s.rank, s.team_id) for s in table] == [(1, 3), (2, 5), (3, 4), (4, 1), (4, 2)]


def test_head_to_head_only_when_all_tied_teams_met() -> None:
    # 1 and 2 tied on 场分; 2 beat 1: head-to-head puts 2 first, before 对手分 is looked at
    recs = [_rec(1, 4, opp=9, vs={2: 0}), _rec(2, 4, opp=1, vs={1: 2})]
    chain = ("match_points", "head_to_head", "opponents_points")
    assert [s.team_id for s in rank_records(recs, chain)] == [2, 1]
    # three tied teams, 3 never met 1: the mini-league is skipped and 对手分 decides
    recs = [_rec(1, 4, opp=5, vs={2: 2}), _rec(2, 4, opp=6, vs={1: 0, 3: 2}), _rec(3, 4, opp=7, vs={2: 0})]
    assert [s.team_id for s in rank_records(recs, chain)] == [3, 2, 1]


def test_chain_is_validated() -> None:
    with pytest.raises(TournamentError, match="unknown tie-break"):
        rank_records([_rec(1, 0)], ("buchholz",))
    with pytest.raises(TournamentError, match="twice"):
        rank_records([_rec(1, 0)], ("wins", "wins"))


def test_compute_standings_includes_teams_without_games() -> None:
    table = compute_standings([1, 2, 3], [Game(1, 1, 2, round_result(("7", "3"), None))], ("match_points", "wins"))
    assert [(s.rank, s.team_id, s.match_points) for s in table] == [(1, 1, 2), (2, 2, 0), (2, 3, 0)]
