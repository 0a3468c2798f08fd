"""The event model of a seed-style pairs tournament (RULES.md §5.4): configuration, teams, tables.

Pure data: no I/O. Everything here serialises to plain JSON for the audit log, and the ``from_dict``
constructors validate, so a log entry written by hand or by an older version is checked on replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GuandanError, shown
from ..core.rules import RuleSet, preset
from ..core.vocab import Scoring
from ..i18n import N_
from .errors import TournamentError, refusal
from .levels import level_name, level_value
from .venuetime import check_zone_form

#: Tie-break criteria an event may chain (RULES.md §5.4, "Final ranking").
TIEBREAKS: dict[str, str] = {
    "match_points": "场分 (match points)",
    "opponents_points": "对手分 (opponents' points, Buchholz)",
    "level_diff": "级差分 (sum of signed level differences)",
    "levels_gained": "升级数 (levels gained)",
    "head_to_head": "head-to-head (match points between the tied teams, when all of them have met)",
    "wins": "number of rounds won",
}
DEFAULT_TIEBREAKS: tuple[str, ...] = ("match_points", "opponents_points", "level_diff", "levels_gained")
FIRST_ROUND_METHODS = ("random", "rating")
FORMATS = ("pairs-swiss", "knockout")
#: How the pairs are formed: registered as teams ("fixed"), or drawn from individual players ("random", 随机搭档).
PARTNERS = ("fixed", "random")
SIDES = ("home", "away")


def _int(value: Any, what: str, lo: int | None = None, hi: int | None = None, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise refusal(N_("{what} must be an integer, not {value}"), what=what, value=shown(value))
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo if lo is not None else '…'}…{hi if hi is not None else '…'}"
        raise refusal(N_("{what} must be in {bounds}, not {value}"), what=what, bounds=bounds, value=value)
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise refusal(N_("{what} must be true or false, not {value}"), what=what, value=shown(value))
    return value


def _known(data: dict[str, Any], keys: set[str], what: str) -> None:
    if not isinstance(data, dict):
        raise refusal(N_("{what} must be an object, not {kind}"), what=what, kind=type(data).__name__)
    unknown = sorted(set(data) - keys)
    if unknown:
        raise refusal(N_("unknown {what} key(s): {keys}; known: {known}"), what=what, keys=", ".join(unknown),
                      known=", ".join(sorted(keys)))


@dataclass(frozen=True)
class RoundLimits:
    """When a round (轮) ends: deals (副), minutes, or a team passing A (过A); RULES.md §5.4."""

    max_deals: int | None = 8
    max_minutes: int | None = 50
    stop_on_pass_a: bool = True
    warning_minutes: int = 5  # before max_minutes; from then on no new deal is started

    def __post_init__(self) -> None:
        _int(self.max_deals, "max_deals", 1, 99, optional=True)
        _int(self.max_minutes, "max_minutes", 1, 24 * 60, optional=True)
        _bool(self.stop_on_pass_a, "stop_on_pass_a")
        _int(self.warning_minutes, "warning_minutes", 0, self.max_minutes or 24 * 60)
        if self.max_deals is None and self.max_minutes is None and not self.stop_on_pass_a:
            raise refusal(N_("a round needs at least one limit: max_deals, max_minutes or stop_on_pass_a"))

    def to_dict(self) -> dict[str, Any]:
        return {"max_deals": self.max_deals, "max_minutes": self.max_minutes,
                "stop_on_pass_a": self.stop_on_pass_a, "warning_minutes": self.warning_minutes}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RoundLimits:
        _known(d, {"max_deals", "max_minutes", "stop_on_pass_a", "warning_minutes"}, "round limits")
        return cls(**d)


@dataclass(frozen=True)
class LatenessRules:
    """Lateness (迟到) rules of S003 rule 3, RULES.md §5.4: minutes are 'more than', never 'at least'."""

    deal_award_after: int = 5  # more than this: the opponents are credited the first deal
    deal_award_levels: int = 3  # …at this many levels (a 双上)
    forfeit_after: int = 10  # more than this: the round is lost and scored as forfeit_score
    forfeit_score: tuple[str, str] = ("A", "6")  # (present team, late team)

    def __post_init__(self) -> None:
        _int(self.deal_award_after, "deal_award_after", 0)
        _int(self.deal_award_levels, "deal_award_levels", 1, 12)
        _int(self.forfeit_after, "forfeit_after", self.deal_award_after)
        _score(self.forfeit_score, "forfeit_score")

    def to_dict(self) -> dict[str, Any]:
        return {"deal_award_after": self.deal_award_after, "deal_award_levels": self.deal_award_levels,
                "forfeit_after": self.forfeit_after, "forfeit_score": list(self.forfeit_score)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LatenessRules:
        _known(d, {"deal_award_after", "deal_award_levels", "forfeit_after", "forfeit_score"}, "lateness")
        d = dict(d)
        if "forfeit_score" in d:
            d["forfeit_score"] = _score(d["forfeit_score"], "forfeit_score")
        return cls(**d)


def _score(value: Any, what: str) -> tuple[str, str]:
    """A fixed score such as A:6, winner first; both levels must be valid and the first higher."""
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise refusal(N_('{what} must be two levels (winner, loser) such as ["A", "6"], not {value}'), what=what,
                      value=shown(value))
    w, loser = level_value(value[0]), level_value(value[1])
    if w <= loser:
        raise refusal(N_("{what}: the winner's level must be higher than the loser's, not {value}"), what=what,
                      value=shown(value))
    return (level_name(w), level_name(loser))


@dataclass(frozen=True)
class EventConfig:
    """Everything an arbiter fixes before round 1: format, rounds, limits, 场分 table, tie-breaks, rules."""

    name: str
    rounds: int = 7  # a knockout plays ⌈log2 teams⌉ rounds: this is then the most it may have, 0 for no limit
    format: str = "pairs-swiss"
    limits: RoundLimits = field(default_factory=RoundLimits)
    lateness: LatenessRules = field(default_factory=LatenessRules)
    match_points: tuple[int, int, int] = (2, 1, 0)  # 场分 for win, draw, loss (RULES.md §5.4 ASSUMPTION)
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    first_round: str = "random"  # "random" (seeded, recorded) or "rating"
    avoid_same_club: bool = True  # a soft wish: a pairing weight, never a reason to fail
    bye_score: tuple[str, str] = ("A", "6")  # RULES.md §5.4 ASSUMPTION: a bye is a win like a forfeit
    seed: int = 0
    rules: RuleSet = field(default_factory=lambda: preset("competition"))
    # 每副牌记分: West reports every deal and North confirms; the round's result follows from the deals.
    # Off for logs written before it existed; `guandan tournament new` turns it on for the competition preset.
    per_deal: bool = False
    partners: str = "fixed"  # "random": players register alone and the desk draws the pairs (knockout only)
    # The venue's time zone (an IANA name such as Asia/Shanghai): what people type and read wall-clock times in
    # (venuetime.py). None: the zone of the machine the desk runs on. Written to the log only when set, so an
    # event made without it records what events made before it existed did.
    time_zone: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 200:
            raise refusal(N_("the event name must be 1…200 characters, not {name}"), name=shown(self.name))
        if self.format not in FORMATS:
            raise refusal(N_("format must be one of {formats}, not {value}"), formats=", ".join(FORMATS),
                          value=shown(self.format))
        _int(self.rounds, "rounds", 0 if self.format == "knockout" else 1, 99)
        mp = self.match_points
        if not (isinstance(mp, tuple) and len(mp) == 3 and all(isinstance(x, int) and not isinstance(x, bool) for x in mp)):
            raise refusal(N_("match_points must be three integers (win, draw, loss), not {value}"), value=shown(mp))
        if not mp[0] >= mp[1] >= mp[2]:
            raise refusal(N_("match_points must satisfy win >= draw >= loss, not {value}"), value=list(mp))
        check_tiebreaks(self.tiebreaks)
        if self.first_round not in FIRST_ROUND_METHODS:
            raise refusal(N_("first_round must be one of {methods}, not {value}"), methods=", ".join(FIRST_ROUND_METHODS),
                          value=shown(self.first_round))
        _bool(self.avoid_same_club, "avoid_same_club")
        _score(self.bye_score, "bye_score")
        _int(self.seed, "seed", 0)
        if not isinstance(self.rules, RuleSet):
            raise TournamentError("rules must be a RuleSet")
        _bool(self.per_deal, "per_deal")
        if self.per_deal and self.rules.scoring != Scoring.LEVELS:
            raise refusal(N_("per-deal reporting follows the levels (升级); the {rules} rules score points instead: "
                             "report each round's result"), rules=self.rules.name)
        if self.partners not in PARTNERS:
            raise refusal(N_("partners must be one of {choices}, not {value}"), choices=", ".join(PARTNERS),
                          value=shown(self.partners))
        if self.partners == "random" and self.format != "knockout":
            raise refusal(N_("partners drawn at random (partners random) are for knockout events; "
                             "a Swiss event registers fixed teams"))
        check_zone_form(self.time_zone)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "rounds": self.rounds, "format": self.format,
            "limits": self.limits.to_dict(), "lateness": self.lateness.to_dict(),
            "match_points": list(self.match_points), "tiebreaks": list(self.tiebreaks),
            "first_round": self.first_round, "avoid_same_club": self.avoid_same_club,
            "bye_score": list(self.bye_score), "seed": self.seed, "rules": self.rules.to_dict(),
            "per_deal": self.per_deal, "partners": self.partners,
        } | ({"time_zone": self.time_zone} if self.time_zone is not None else {})

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EventConfig:
        keys = {"name", "rounds", "format", "limits", "lateness", "match_points", "tiebreaks", "first_round",
                "avoid_same_club", "bye_score", "seed", "rules", "per_deal", "partners", "time_zone"}
        _known(d, keys, "event config")
        kw = dict(d)
        if "limits" in kw:
            kw["limits"] = RoundLimits.from_dict(kw["limits"])
        if "lateness" in kw:
            kw["lateness"] = LatenessRules.from_dict(kw["lateness"])
        if "match_points" in kw:
            mp = kw["match_points"]
            kw["match_points"] = tuple(mp) if isinstance(mp, list | tuple) else mp
        if "tiebreaks" in kw:
            tb = kw["tiebreaks"]
            kw["tiebreaks"] = tuple(tb) if isinstance(tb, list | tuple) else tb
        if "bye_score" in kw:
            kw["bye_score"] = _score(kw["bye_score"], "bye_score")
        if "rules" in kw:
            try:
                kw["rules"] = RuleSet.from_dict(kw["rules"])
            except GuandanError as e:
                raise refusal(N_("rules: {problem}"), problem=str(e)) from None
        return cls(**kw)


def check_tiebreaks(chain: Any) -> tuple[str, ...]:
    if not isinstance(chain, tuple) or not chain or not all(isinstance(c, str) for c in chain):
        raise refusal(N_("tiebreaks must be a non-empty list of names, not {value}"), value=shown(chain))
    unknown = [c for c in chain if c not in TIEBREAKS]
    if unknown:
        raise refusal(N_("unknown tie-break(s) {names}; known: {known}"), names=", ".join(unknown),
                      known=", ".join(TIEBREAKS))
    if len(set(chain)) != len(chain):
        raise refusal(N_("a tie-break appears twice in {chain}"), chain=", ".join(chain))
    return chain


@dataclass(frozen=True)
class Team:
    """A pair (two players) entered in the event; ``id`` is its registration number, 1, 2, …"""

    id: int
    name: str
    players: tuple[str, str]
    club: str | None = None
    rating: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "players": list(self.players), "club": self.club, "rating": self.rating}


@dataclass(frozen=True)
class Table:
    """One match of a round: the home team sits North–South (engine seats 0 and 2), the away team East–West.

    On the result-entry page the away team (West) enters and the home team (North) confirms.
    """

    round: int
    number: int
    home: int
    away: int

    def side_of(self, team_id: int) -> int:
        if team_id == self.home:
            return 0
        if team_id == self.away:
            return 1
        raise refusal(N_("team {team} does not play at round {round} table {table}"), team=team_id, round=self.round,
                      table=self.number)

    def teams(self) -> tuple[int, int]:
        return (self.home, self.away)
