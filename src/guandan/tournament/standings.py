"""Standings with a configurable tie-break chain (RULES.md §5.4, "Final ranking", S003 rule 5).

Default chain: 场分 (match points), then 对手分 (opponents' points), then 级差分 (level difference), then
升级数 (levels gained). Teams equal on the whole chain share a rank and are listed by registration number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .model import check_tiebreaks
from .rounds import RoundResult


@dataclass(frozen=True)
class Game:
    """A scored round of one team pair; ``away`` is None for a bye, whose result is side 0's."""

    round: int
    home: int
    away: int | None
    result: RoundResult


@dataclass
class TeamRecord:
    """Running totals of one team."""

    team_id: int
    match_points: int = 0  # 场分
    opponents_points: int = 0  # 对手分: filled in once every game is counted
    level_diff: int = 0  # 级差分
    levels_gained: int = 0  # 升级数
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    vs: dict[int, int] = field(default_factory=dict)  # 场分 earned against each opponent, for head-to-head

    def value(self, key: str) -> int:
        return int(getattr(self, key))


@dataclass(frozen=True)
class Standing:
    """One line of the standings table, with every tie-break column."""

    rank: int
    team_id: int
    match_points: int
    opponents_points: int
    level_diff: int
    levels_gained: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


COLUMNS: tuple[str, ...] = ("rank", "team_id", "match_points", "opponents_points", "level_diff", "levels_gained",
                            "played", "wins", "draws", "losses", "byes")


def tally(team_ids: Iterable[int], games: Iterable[Game]) -> dict[int, TeamRecord]:
    recs = {t: TeamRecord(t) for t in team_ids}
    for g in games:
        sides = (g.home, g.away)
        for side, team in enumerate(sides):
            if team is None or team not in recs:
                continue
            r, res = recs[team], g.result
            r.match_points += res.match_points[side]
            r.level_diff += res.signed_diff(side)
            r.levels_gained += res.levels_gained[side]
            r.played += 1
            if res.winner is None:
                r.draws += 1
            elif res.winner == side:
                r.wins += 1
            else:
                r.losses += 1
            opp = sides[1 - side]
            if opp is None:
                r.byes += 1
            else:
                r.opponents.append(opp)
                r.vs[opp] = r.vs.get(opp, 0) + res.match_points[side]
    for r in recs.values():
        # Buchholz: the opponents' *current* totals, so earlier opponents' later games count too.
        r.opponents_points = sum(recs[o].match_points for o in r.opponents if o in recs)
    return recs


def _criterion(key: str, rec: TeamRecord, group: Sequence[TeamRecord]) -> int:
    if key != "head_to_head":
        return rec.value(key)
    ids = [g.team_id for g in group]
    # A mini-league only means something when every tied team has met every other one;
    # otherwise the criterion is skipped (everyone gets the same value).
    if not all(b in g.vs for g in group for b in ids if b != g.team_id):
        return 0
    return sum(rec.vs[b] for b in ids if b != rec.team_id)


def _split(group: list[TeamRecord], chain: Sequence[str], i: int) -> list[list[TeamRecord]]:
    if len(group) <= 1 or i == len(chain):
        return [sorted(group, key=lambda r: r.team_id)]
    values = {r.team_id: _criterion(chain[i], r, group) for r in group}
    out: list[list[TeamRecord]] = []
    for v in sorted(set(values.values()), reverse=True):
        out.extend(_split([r for r in group if values[r.team_id] == v], chain, i + 1))
    return out


def rank_records(records: Iterable[TeamRecord], chain: Sequence[str] = ("match_points",)) -> list[Standing]:
    """Order by the tie-break chain; teams equal on every criterion share a rank (1, 2, 2, 4, …)."""
    check_tiebreaks(tuple(chain))
    out: list[Standing] = []
    for tied in _split(list(records), chain, 0):
        rank = len(out) + 1
        for r in tied:
            out.append(Standing(rank, r.team_id, r.match_points, r.opponents_points, r.level_diff, r.levels_gained,
                                r.played, r.wins, r.draws, r.losses, r.byes))
    return out


def compute_standings(team_ids: Iterable[int], games: Iterable[Game], chain: Sequence[str]) -> list[Standing]:
    return rank_records(tally(team_ids, games).values(), chain)
