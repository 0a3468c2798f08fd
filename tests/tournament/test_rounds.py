"""Round limits, round results, lateness and forfeits (RULES.md §5.4)."""

from __future__ import annotations

import pytest

from guandan.tournament.errors import TournamentError
from guandan.tournament.model import EventConfig, LatenessRules, RoundLimits
from guandan.tournament.rounds import ResultSlip, fixed_result, lateness_ruling, level_value, round_result, round_status

LIMITS = RoundLimits()


def test_round_limits() -> None:
    assert round_status(LIMITS, 3, 20).round_over is False
    assert round_status(LIMITS, 3, 20).start_new_deal is True
    # before the warning a deal may start; at minute 45 none may, and the round ends once no deal is in progress
    assert round_status(LIMITS, 3, 44.9).start_new_deal is True
    assert round_status(LIMITS, 3, 45).round_over is True
    assert round_status(LIMITS, 3, 45, deal_in_progress=True).round_over is False
    # the deal in progress is played to its end even past minute 50
    assert round_status(LIMITS, 3, 53, deal_in_progress=True).round_over is False
    assert round_status(LIMITS, 8, 30).round_over is True
    assert round_status(LIMITS, 2, 10, passed_a=1).winner == 1


def test_configurable_limits() -> None:
    no_clock = RoundLimits(max_deals=6, max_minutes=None, stop_on_pass_a=False, warning_minutes=0)
    assert round_status(no_clock, 5, 500).round_over is False
    assert round_status(no_clock, 6, 1).round_over is True
    assert round_status(no_clock, 2, 1, passed_a=0).round_over is False  # passing A does not end this event's rounds
    with pytest.raises(TournamentError, match="at least one limit"):
        RoundLimits(None, None, False)
    with pytest.raises(TournamentError, match="max_deals"):
        RoundLimits(max_deals=0)


def test_round_result() -> None:
    r = round_result(("A", "6"), 0)
    assert (r.winner, r.level_diff, r.levels_gained, r.match_points) == (0, 8, (12, 4), (2, 0))
    # both at A: only the team that passed wins, by 0 levels
    both = round_result(("A", "A"), 1)
    assert (both.winner, both.level_diff, both.match_points) == (1, 0, (0, 2))
    assert round_result(("T", "J"), None, (3, 1, 0)).match_points == (0, 3)
    assert round_result(("10", "10"), None).winner is None
    assert round_result(("K", "Q"), None).signed_diff(1) == -1
    with pytest.raises(TournamentError, match="recorded at level A"):
        round_result(("K", "6"), 0)
    with pytest.raises(TournamentError, match="level"):
        round_result(("1", "6"), None)


def test_lateness() -> None:
    rules = LatenessRules()
    assert lateness_ruling(5, rules).first_deal_awarded is False  # "more than 5 minutes"
    assert lateness_ruling(5.5, rules).first_deal_awarded is True
    assert lateness_ruling(10, rules).present_level_after == 5
    assert lateness_ruling(10.1, rules).forfeit is True
    f = fixed_result(1, rules.forfeit_score, (2, 1, 0), forfeit=True)
    assert (f.levels, f.winner, f.forfeit, f.level_diff) == ((6, 14), 1, 0, 8)
    with pytest.raises(TournamentError):
        lateness_ruling(-1, rules)


def test_result_slip() -> None:
    slip = ResultSlip.parse("A：6", "home", 7)
    assert slip.levels == ("A", "6") and slip.passed_a == 0
    assert ResultSlip.from_dict(slip.to_dict()) == slip
    assert ResultSlip.parse("10:9").levels == ("T", "9")
    cfg = EventConfig(name="x")
    forfeit = ResultSlip.parse(None, forfeit="away").score(cfg.match_points, cfg.lateness)
    assert forfeit.winner == 0 and forfeit.levels == (14, 6)
    with pytest.raises(TournamentError, match="home:away"):
        ResultSlip.parse("A-6")
    with pytest.raises(TournamentError, match="final levels"):
        ResultSlip.parse(None)
    with pytest.raises(TournamentError, match="passed_a"):
        ResultSlip.parse("A:6", "north-south")
    with pytest.raises(TournamentError, match="scored by rule"):
        ResultSlip.parse("A:6", forfeit="home")
    with pytest.raises(TournamentError, match="limit of 8"):
        ResultSlip.parse("9:7", deals=9).score(cfg.match_points, cfg.lateness, cfg.limits)
    with pytest.raises(TournamentError, match="unknown result key"):
        ResultSlip.from_dict({"levels": ["A", "6"], "winner": "home"})


def test_event_config_round_trip_and_validation() -> None:
    cfg = EventConfig(name="杯", rounds=5, tiebreaks=("match_points", "head_to_head", "level_diff"), seed=9)
    assert EventConfig.from_dict(cfg.to_dict()) == cfg
    assert level_value("A") == 14
    for bad, msg in [({"rounds": 0}, "rounds"), ({"tiebreaks": ("points",)}, "unknown tie-break"),
                     ({"match_points": (0, 1, 2)}, "win >= draw"), ({"first_round": "seeded"}, "first_round"),
                     ({"bye_score": ("6", "A")}, "higher"), ({"name": " "}, "name")]:
        with pytest.raises(TournamentError, match=msg):
            EventConfig(**{"name": "x", **bad})  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="unknown event config key"):
        EventConfig.from_dict({"name": "x", "colour": "red"})
    with pytest.raises(TournamentError, match="rules"):
        EventConfig.from_dict({"name": "x", "rules": {"max_bomb": 99}})
