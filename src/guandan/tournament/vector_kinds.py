"""Vector checkers for the tournament kinds of RULES.md §9: round_end, round_result, forfeit, swiss_pairing, ranking."""

from __future__ import annotations

from typing import Any

from ..core.rules import preset
from ..vectors import checker
from .levels import level_name
from .model import DEFAULT_TIEBREAKS, LatenessRules, RoundLimits
from .pairing import swiss_pairing
from .rounds import lateness_ruling, round_result, round_status
from .standings import TeamRecord, rank_records


def _subset(expected: Any, actual: Any) -> bool:
    """Every key the vector names must match (recursively); keys it leaves out are not checked."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    return bool(expected == actual)


@checker("round_end", _subset)
def _round_end(v: dict[str, Any]) -> dict[str, Any]:
    s = v["state"]
    status = round_status(RoundLimits(), s["deals_played"], s["elapsed_min"], s.get("passed_a"),
                          bool(s.get("deal_in_progress", False)))
    return status.to_dict()


@checker("round_result")
def _round_result(v: dict[str, Any]) -> dict[str, Any]:
    res = round_result((v["levels"]["0"], v["levels"]["1"]), v.get("passed_a"), preset(v["preset"]).match_points)
    return res.to_dict()


@checker("forfeit", _subset)
def _forfeit(v: dict[str, Any]) -> dict[str, Any]:
    rules = LatenessRules()
    ruling = lateness_ruling(v["late_minutes"], rules)
    out: dict[str, Any] = {}
    if ruling.forfeit:
        present, late = rules.forfeit_score
        out["round_result"] = {"levels": {"present": present, "late": late}, "winner": "present"}
    elif ruling.first_deal_awarded:
        assert ruling.present_level_after is not None
        out["first_deal_awarded_to"] = "present"
        out["present_level_after"] = level_name(ruling.present_level_after)
    return out


@checker("swiss_pairing")
def _swiss_pairing(v: dict[str, Any]) -> dict[str, Any]:
    names = sorted(v["standings"], key=lambda t: (-v["standings"][t], t))
    ids = {name: i for i, name in enumerate(names, 1)}
    met = {frozenset((ids[a], ids[b])) for a, b in v["history"]}
    pairing = swiss_pairing([ids[n] for n in names], {ids[n]: p for n, p in v["standings"].items()}, met)
    out: dict[str, Any] = {"pairs": [[names[h - 1], names[a - 1]] for h, a in pairing.pairs]}
    if pairing.bye is not None:
        out["bye"] = names[pairing.bye - 1]
    return out


@checker("ranking")
def _ranking(v: dict[str, Any]) -> dict[str, Any]:
    names = sorted(v["teams"])
    recs = [TeamRecord(i, match_points=t["mp"], opponents_points=t["opp_mp"], level_diff=t["diff"],
                       levels_gained=t["gained"]) for i, t in ((i, v["teams"][n]) for i, n in enumerate(names))]
    return {"order": [names[s.team_id] for s in rank_records(recs, DEFAULT_TIEBREAKS)]}
