"""One round (轮) at one table, RULES.md §5.4: when it ends, who won, by how much, lateness and forfeits.

Sides are 0 and 1 (home and away at a table; team "0" and "1" in the vectors). Level values run 2…14, A = 14.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.errors import shown
from ..i18n import N_
from .errors import refusal
from .levels import LEVEL_A
from .levels import level_name as level_name  # re-exported: older callers find them here
from .levels import level_value as level_value
from .model import SIDES, LatenessRules, RoundLimits


def side_index(side: str | int | None, what: str = "side") -> int | None:
    """"home"/"away", 0/1 or None; anything else is an error naming ``what``."""
    if side is None:
        return None
    if side in (0, 1) and not isinstance(side, bool):
        return int(side)
    if isinstance(side, str) and side.lower() in SIDES:
        return SIDES.index(side.lower())
    raise refusal(N_("{what} must be home, away or none, not {value}"), what=what, value=shown(side))


@dataclass(frozen=True)
class RoundStatus:
    """Where a round stands against its limits."""

    round_over: bool
    start_new_deal: bool  # may another deal be started once the current one (if any) is over?
    warning: bool  # the pre-time warning has been given
    winner: int | None  # known only when a team passed A

    def to_dict(self) -> dict[str, Any]:
        return {"round_over": self.round_over, "start_new_deal_after_current": self.start_new_deal,
                "warning": self.warning, "winner": self.winner}


def round_status(limits: RoundLimits, deals_played: int, elapsed_min: float, passed_a: int | None = None,
                 deal_in_progress: bool = False) -> RoundStatus:
    """The earliest of max_deals, max_minutes or a pass of A ends the round (TRN-001…003).

    After the warning no new deal is started, but the deal in progress is played to its end, even past the
    time limit: the round is over only when no deal is in progress.
    """
    if deals_played < 0 or elapsed_min < 0:
        raise refusal(N_("deals played and elapsed minutes cannot be negative"))
    if passed_a is not None and limits.stop_on_pass_a:
        return RoundStatus(True, False, False, passed_a)
    warning = limits.max_minutes is not None and elapsed_min >= limits.max_minutes - limits.warning_minutes
    deals_done = limits.max_deals is not None and deals_played >= limits.max_deals
    no_new_deal = warning or deals_done
    return RoundStatus(no_new_deal and not deal_in_progress, not no_new_deal, warning, passed_a)


@dataclass(frozen=True)
class RoundResult:
    """The scored result of one round: winner, 级差 (level difference), 升级数 (levels gained), 场分."""

    levels: tuple[int, int]  # level values 2…14; a team that passed A is recorded as A
    winner: int | None  # side 0 or 1, None for a draw
    level_diff: int  # winner's level − loser's level, 0 for a draw
    levels_gained: tuple[int, int]  # level − 2 per side
    match_points: tuple[int, int]  # 场分 per side
    passed_a: int | None = None
    forfeit: int | None = None  # the side that lost by forfeit, if any

    def signed_diff(self, side: int) -> int:
        """The side's own level minus its opponent's: its contribution to 级差分."""
        return self.levels[side] - self.levels[1 - side]

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner, "level_diff": self.level_diff,
            "levels_gained": {"0": self.levels_gained[0], "1": self.levels_gained[1]},
            "match_points": {"0": self.match_points[0], "1": self.match_points[1]},
        }


def round_result(levels: tuple[str | int, str | int], passed_a: int | None,
                 match_points: tuple[int, int, int] = (2, 1, 0)) -> RoundResult:
    """Score a played round: a team that passed A wins; otherwise the higher level; equal levels draw."""
    values = (level_value(levels[0]), level_value(levels[1]))
    if passed_a is not None:
        if passed_a not in (0, 1):
            raise refusal(N_("passed_a must be side 0 or 1, not {value}"), value=shown(passed_a))
        if values[passed_a] != LEVEL_A:
            raise refusal(N_("the team that passed A must be recorded at level A, not {level}"),
                          level=level_name(values[passed_a]))
        winner: int | None = passed_a
    elif values[0] != values[1]:
        winner = 0 if values[0] > values[1] else 1
    else:
        winner = None
    return _scored(values, winner, match_points, passed_a=passed_a)


def fixed_result(winner: int, score: tuple[str, str], match_points: tuple[int, int, int], *,
                 forfeit: bool) -> RoundResult:
    """A round scored by rule rather than by play: a forfeit or a bye, ``score`` = (winner's, loser's level)."""
    w, lose = level_value(score[0]), level_value(score[1])
    values = (w, lose) if winner == 0 else (lose, w)
    return _scored(values, winner, match_points, forfeit=(1 - winner) if forfeit else None)


def _scored(values: tuple[int, int], winner: int | None, mp: tuple[int, int, int], *,
            passed_a: int | None = None, forfeit: int | None = None) -> RoundResult:
    if winner is None:
        points = (mp[1], mp[1])
        diff = 0
    else:
        points = (mp[0], mp[2]) if winner == 0 else (mp[2], mp[0])
        diff = values[winner] - values[1 - winner]
    return RoundResult(values, winner, diff, (values[0] - 2, values[1] - 2), points, passed_a, forfeit)


@dataclass(frozen=True)
class LatenessRuling:
    """What S003 rule 3 does to a table where one team is late."""

    forfeit: bool  # more than forfeit_after minutes: round lost, scored as forfeit_score
    first_deal_awarded: bool  # more than deal_award_after minutes: the present team wins deal 1
    present_level_after: int | None  # the present team's level once deal 1 is credited

    def to_dict(self) -> dict[str, Any]:
        return {"forfeit": self.forfeit, "first_deal_awarded": self.first_deal_awarded,
                "present_level_after": self.present_level_after}


def lateness_ruling(minutes_late: float, rules: LatenessRules) -> LatenessRuling:
    if not math.isfinite(minutes_late):  # NaN compares false with every limit, infinity is no time at all
        raise refusal(N_("minutes late must be a finite number, not {minutes}"), minutes=format(minutes_late, "g"))
    if minutes_late < 0:
        raise refusal(N_("minutes late cannot be negative, not {minutes}"), minutes=minutes_late)
    if minutes_late > rules.forfeit_after:
        return LatenessRuling(True, False, None)
    if minutes_late > rules.deal_award_after:
        # Levels stop at A (RULES.md §5.2), so the award can never overshoot.
        return LatenessRuling(False, True, min(2 + rules.deal_award_levels, LEVEL_A))
    return LatenessRuling(False, False, None)


@dataclass(frozen=True)
class ResultSlip:
    """What a table reports: final levels (home, away), who passed A, deals played, or a forfeit.

    ``decider`` is for knockout events only: the side that won the one extra deal (加赛一副) played when the
    round ended level; the levels (and so 级差 and 场分) stay as played.
    """

    levels: tuple[str, str] | None
    passed_a: int | None = None
    deals: int | None = None
    forfeit: int | None = None  # the side that forfeited
    decider: int | None = None  # knockout: the side that won the deciding deal of a drawn round

    def __post_init__(self) -> None:
        if self.decider is not None and self.decider not in (0, 1):
            raise refusal(N_("decider must name side home or away, not {value}"), value=shown(self.decider))
        if self.forfeit is not None:
            if self.forfeit not in (0, 1):
                raise refusal(N_("forfeit must name side home or away, not {value}"), value=shown(self.forfeit))
            if self.levels is not None or self.passed_a is not None:
                raise refusal(N_("a forfeit is scored by rule: give no levels and no passed_a with it"))
            if self.decider is not None:
                raise refusal(N_("a forfeit already has a winner: give no decider with it"))
            return
        if self.levels is None:
            raise refusal(N_("a result needs the final levels of both teams (e.g. A:6), or a forfeit"))
        if self.deals is not None and (not isinstance(self.deals, int) or isinstance(self.deals, bool) or self.deals < 0):
            raise refusal(N_("deals played must be a non-negative integer, not {value}"), value=shown(self.deals))

    def score(self, match_points: tuple[int, int, int], lateness: LatenessRules,
              limits: RoundLimits | None = None) -> RoundResult:
        if self.forfeit is not None:
            return fixed_result(1 - self.forfeit, lateness.forfeit_score, match_points, forfeit=True)
        assert self.levels is not None
        if limits is not None and limits.max_deals is not None and self.deals is not None and self.deals > limits.max_deals:
            raise refusal(N_("{n} deals played is more than this event's limit of {limit}"), n=self.deals,
                          limit=limits.max_deals)
        return round_result(self.levels, self.passed_a, match_points)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"levels": list(self.levels) if self.levels else None,
                             "passed_a": None if self.passed_a is None else SIDES[self.passed_a],
                             "deals": self.deals, "forfeit": None if self.forfeit is None else SIDES[self.forfeit]}
        if self.decider is not None:  # only knockouts have one: a Swiss log stays as it was
            d["decider"] = SIDES[self.decider]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ResultSlip:
        if not isinstance(d, dict):
            raise refusal(N_("a result must be an object, not {value}"), value=shown(d))
        unknown = sorted(set(d) - {"levels", "passed_a", "deals", "forfeit", "decider"})
        if unknown:
            raise refusal(N_("unknown result key(s): {keys}"), keys=", ".join(unknown))
        levels = d.get("levels")
        if levels is not None:
            if not (isinstance(levels, list | tuple) and len(levels) == 2):
                raise refusal(N_("levels must be two levels (home, away), not {value}"), value=shown(levels))
            levels = (level_name(level_value(levels[0])), level_name(level_value(levels[1])))
        return cls(levels, side_index(d.get("passed_a"), "passed_a"), d.get("deals"),
                   side_index(d.get("forfeit"), "forfeit"), side_index(d.get("decider"), "decider"))

    @classmethod
    def parse(cls, levels: str | None, passed_a: str | None = None, deals: int | None = None,
              forfeit: str | None = None, decider: str | None = None) -> ResultSlip:
        """From the short form on a score slip: ``levels`` as "home:away", e.g. "A:6"; ``decider`` home/away."""
        pair: tuple[str, str] | None = None
        if levels is not None and levels.strip():
            parts = levels.replace("：", ":").split(":")
            if len(parts) != 2:
                raise refusal(N_("levels must be written home:away such as A:6, not {value}"), value=shown(levels))
            pair = (level_name(level_value(parts[0])), level_name(level_value(parts[1])))
        pa = None if passed_a in (None, "", "none", "no") else passed_a
        dec = None if decider in (None, "", "none", "no") else decider
        return cls(pair, side_index(pa, "passed_a"), deals, side_index(forfeit or None, "forfeit"),
                   side_index(dec, "decider"))
