"""Streak bonuses and penalties (连续头游/末游, RULES.md §8.2) under both scopes of the option."""

from __future__ import annotations

from collections.abc import Sequence

from guandan.core.rules import RuleSet, preset
from guandan.core.scoring import StreakCounts, settle_deal
from guandan.core.vocab import SettlementNote

PLAYER = preset("huaian-traditional")
TEAM = preset("huaian-traditional", streaks={"first_threshold": 3, "last_threshold": 3, "scope": "team"})
Notes = list[tuple[SettlementNote, int | None, int | None]]


def play(rules: RuleSet, finishes: Sequence[tuple[int, int, int, int]]) -> tuple[tuple[int, int], Notes]:
    """Levels (rank indices, 0 is "2") after the deals in turn, from 2 each, and every streak note as
    (kind, team, amount)."""
    levels: tuple[int, int] = (0, 0)
    declarer: int | None = None
    streaks, notes = StreakCounts(), Notes()
    for finish in finishes:
        x = settle_deal(levels, declarer, finish, rules, (0, 0), streaks)
        levels, declarer, streaks = x.levels_after, x.declarer_after, x.streaks_after
        notes += [(n.kind, n.team, n.amount) for n in x.notes
                  if n.kind in (SettlementNote.STREAK_BONUS, SettlementNote.STREAK_PENALTY)]
    return levels, notes


# team 1 wins 1-3 (+2) with seat 2 last; then team 0 wins three deals 1-3 (+2 each), partners 0 and 2 going out
# first in turn while seats 3 and 1 finish last in turn
TAKING_TURNS = [(1, 0, 3, 2), (0, 1, 2, 3), (2, 3, 0, 1), (0, 1, 2, 3)]


def test_partners_taking_turns_build_no_streak_of_a_player() -> None:
    assert play(PLAYER, TAKING_TURNS) == ((6, 2), [])


def test_partners_taking_turns_build_a_streak_of_their_team() -> None:
    """The third deal in a row in which a partner of team 0 went out first is its third 头游 in a row (+1), and the
    third in which one of team 1 was last is its third 末游 in a row (−1)."""
    assert play(TEAM, TAKING_TURNS) == ((7, 1), [(SettlementNote.STREAK_BONUS, 0, 1),
                                                (SettlementNote.STREAK_PENALTY, 1, 1)])


def test_a_fourth_deal_in_a_row_is_worth_two_levels_under_team_scope_too() -> None:
    levels, notes = play(TEAM, [*TAKING_TURNS, (2, 3, 0, 1)])
    assert notes[-2:] == [(SettlementNote.STREAK_BONUS, 0, 2), (SettlementNote.STREAK_PENALTY, 1, 2)]
    assert levels == (7 + 2 + 2, 0)  # team 1 never below 2


def test_a_double_down_counts_once_for_the_losing_team() -> None:
    """双下 twice, then a 1-3 with seat 1 last: team 1's third 末游 in a row under team scope (one level), as its
    players' own third under player scope (both losers count one in a 双下), never a fifth."""
    deals = [(1, 3, 0, 2), (0, 2, 1, 3), (0, 2, 3, 1), (2, 3, 0, 1)]
    for rules in (PLAYER, TEAM):
        penalties = [n for n in play(rules, deals)[1] if n[0] == SettlementNote.STREAK_PENALTY]
        assert penalties == [(SettlementNote.STREAK_PENALTY, 1, 1)], rules.streaks
