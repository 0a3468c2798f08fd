"""A result a team enters must be one play could produce under the event's rules (reachable.py).

The check is compared with a plain exploration that keeps every state as the desk's own settlement gives it
(no symmetry, no capped streaks), it accepts every result that random play settles to under each rule set that
scores levels, and it refuses hand-picked impossible results in words, in Chinese and in English, on the desk,
its table page and its command line; an arbiter's override of one stands with a warning, and a log written
before the check still replays.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from guandan.core.rules import RuleSet, preset
from guandan.db import make_engine
from guandan.tournament import reachable
from guandan.tournament.cli import app
from guandan.tournament.deals import Track, settle_deals, settle_next
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.levels import level_name
from guandan.tournament.model import EventConfig, LatenessRules, RoundLimits
from guandan.tournament.pagelang import explain
from guandan.tournament.reachable import check_result
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.state import Event, replay
from guandan.tournament.web_table import create_table_router

from .conftest import SECRET, unchanged

#: Every rule set that scores levels: the three presets that do, huopin's scored by levels, and variants
#: that reach each branch of the settlement (passing A as a non-declarer, overshooting, an A-failure reset to
#: 5 after one failure, streaks counted per team and flat, short thresholds).
LEVEL_RULES: dict[str, RuleSet] = {
    "competition": preset("competition"),
    "huaian-traditional": preset("huaian-traditional"),
    "huaian-2009": preset("huaian-2009"),
    "huopin-levels": preset("huopin", scoring="levels"),
    "any-pass": preset("competition", a_pass_requires_declarer=False, a_pass_results=[2, 3, 4]),
    "overshoot": preset("competition", overshoot_wins=True, upgrade_table=[4, 2, 1]),
    "one-failure": preset("competition", a_max_failures=1, a_fail_reset_to="5"),
    "team-streaks": preset("huaian-traditional",
                           streaks={"first_threshold": 1, "last_threshold": 2, "mode": "flat", "scope": "team"}),
    "short-streaks": preset("huaian-traditional", streaks={"first_threshold": 2, "last_threshold": 1}),
}
STREAKY = {"huaian-traditional", "team-streaks", "short-streaks"}


def brute(rules: RuleSet, award_levels: int, stop: bool, depth: int) -> dict[tuple[int, int], set[tuple[int, ...]]]:
    """The results (home, away, side that passed A first or -1) after each number of deals, from the start
    (origin 0) and from a first deal awarded to either side (origin 1), by every finishing order of every deal
    settled with :func:`settle_next`, every state kept as it is."""
    origins: list[set[tuple[Track, int]]] = [{(Track(), -1)}, set()]
    for side in ("home", "away"):
        origins[1].add((settle_next(Track(), {"award": side}, rules, award_levels, stop_on_pass_a=stop)[1], -1))
    out: dict[tuple[int, int], set[tuple[int, ...]]] = {}
    for origin, layer in enumerate(origins):
        for d in range(depth + 1):
            out[(origin, d)] = {(t.levels[0] + 2, t.levels[1] + 2, first) for t, first in layer}
            following: set[tuple[Track, int]] = set()
            for t, first in layer:
                if stop and t.passed_a is not None:
                    continue
                for finish in itertools.permutations(range(4)):
                    _, u = settle_next(t, {"finish": list(finish)}, rules, award_levels, stop_on_pass_a=stop)
                    passed = -1 if u.passed_a is None else u.passed_a
                    following.add((replace(u, deals=0), first if first >= 0 else passed))
            layer = following
    return out


@pytest.mark.parametrize(("name", "stop", "award", "depth"), [
    ("competition", True, 3, 9), ("competition", False, 3, 6), ("huaian-2009", True, 2, 9),
    ("huopin-levels", False, 3, 6), ("any-pass", True, 3, 9), ("overshoot", True, 3, 9), ("one-failure", True, 3, 9),
    ("huaian-traditional", True, 3, 3), ("team-streaks", True, 3, 3), ("short-streaks", True, 1, 3),
])
def test_the_exploration_finds_what_every_finishing_order_gives(name: str, stop: bool, award: int, depth: int) -> None:
    """Through as many deals as the plain exploration can settle in about a second: far enough to pass A, fail
    it three times and be reset, overshoot; and to earn each streak variant's bonuses and penalties."""
    expected = brute(LEVEL_RULES[name], award, stop, depth)
    found = reachable._Reach(LEVEL_RULES[name], award, stop)
    assert found.extend(depth)
    for (origin, d), results in expected.items():
        assert {o for o, bits in found.masks[origin].items() if bits >> d & 1} == results, (origin, d)


def _config(rules: RuleSet, max_deals: int | None, stop: bool, award: int = 3) -> EventConfig:
    return EventConfig(name="Reach Cup", rules=rules, limits=RoundLimits(max_deals, 50, stop),
                       lateness=LatenessRules(deal_award_levels=award))


@pytest.mark.parametrize("name", list(LEVEL_RULES))
def test_every_result_of_play_is_accepted(name: str) -> None:
    """Sound: a result settled from random finishing orders (an awarded first deal now and then, counted or
    not; a level round's deciding deal counted or not; no count at all) is never refused."""
    rng = random.Random(f"reachable:{name}")
    rules = LEVEL_RULES[name]
    for max_deals, stop in ((8, True), (6, False), (None, True), (12, False)):
        cfg = _config(rules, max_deals, stop, award=rng.choice((3, 2)))
        for _ in range(150):
            items: list[dict[str, Any]] = []
            if rng.random() < 0.2:
                items.append({"award": rng.choice(("home", "away"))})
            entries, track = settle_deals(items, rules, cfg.lateness.deal_award_levels, stop_on_pass_a=stop)
            for _deal in range(rng.randrange(len(items), (max_deals or 14) + 1) - len(items)):
                if stop and track.passed_a is not None:
                    break  # a pass of A ends the round
                items.append({"finish": rng.sample(range(4), 4)})
                entry, track = settle_next(track, items[-1], rules, cfg.lateness.deal_award_levels,
                                           stop_on_pass_a=stop)
                entries.append(entry)
            levels = entries[-1].levels if entries else (2, 2)
            passed = next((e.passed_a for e in entries if e.passed_a is not None), None)
            if passed is not None and levels[passed] != 14:
                continue  # passed A, then reset by failing it again: no slip can say so (refused by the scoring)
            deals = len(items) - (1 if items and "award" in items[0] and rng.random() < 0.5 else 0)
            decider = rng.randrange(2) if levels[0] == levels[1] and passed is None and rng.random() < 0.5 else None
            if decider is not None and rng.random() < 0.5:
                deals += 1
            if max_deals is not None and deals > max_deals:
                continue  # the deal limit's own refusal
            slip = ResultSlip((level_name(levels[0]), level_name(levels[1])), passed,
                              None if rng.random() < 0.15 else deals, decider=decider)
            assert check_result(cfg, 1, 1, slip) is None, (items, slip, check_result(cfg, 1, 1, slip))


def _refusal(cfg: EventConfig, text: str, passed: str | None = None, deals: int | None = None) -> TournamentError:
    problem = check_result(cfg, 2, 3, ResultSlip.parse(text, passed, deals))
    assert problem is not None
    return TournamentError(str(problem), msgid=problem.msgid, params=problem.params)


def said_in(e: TournamentError, english: str, chinese: str) -> None:
    assert str(e) == english
    assert explain(e, "en").detail == english
    assert explain(e, "zh").detail == chinese


def test_impossible_results_are_said_with_the_fewest_deals() -> None:
    cfg = _config(preset("competition"), 8, True)
    said_in(_refusal(cfg, "K:2", deals=2),
            "round 2 table 3: K:2 cannot come from 2 deals of play: from 2:2 it takes at least 4 deals, or 3 deals "
            "after a first deal credited for lateness",
            "第2轮第3桌：打2副不可能打成K:2：从2:2起至少要打4副，若第一副因迟到判给一方则另打3副")
    said_in(_refusal(cfg, "A:A", "home", 3),
            "round 2 table 3: A:A with home passing A cannot come from 3 deals of play: from 2:2 it takes at least 9 "
            "deals, or 8 deals after a first deal credited for lateness",
            "第2轮第3桌：打3副不可能打成A:A且主队过A：从2:2起至少要打9副，若第一副因迟到判给一方则另打8副")
    said_in(_refusal(cfg, "10:2", deals=1),
            "round 2 table 3: 10:2 cannot come from one deal of play: from 2:2 it takes at least 3 deals, or 2 deals "
            "after a first deal credited for lateness",
            "第2轮第3桌：打1副不可能打成10:2：从2:2起至少要打3副，若第一副因迟到判给一方则另打2副")
    said_in(_refusal(cfg, "2:2", deals=2),
            "round 2 table 3: 2:2 cannot come from 2 deals of play under this event's rules; it can come from 0 deals",
            "第2轮第3桌：按本赛事规则，打2副不可能打成2:2；打0副才可能")
    short = _config(preset("huaian-2009"), 3, True)
    said_in(_refusal(short, "2:A", "away"),
            "round 2 table 3: 2:A with away passing A cannot come from play in this event's rounds of at most 3 "
            "deals: from 2:2 it takes at least 4 deals",
            "第2轮第3桌：本赛事每轮至多3副，不可能打成2:A且客队过A：从2:2起至少要打4副")
    thirds = _config(preset("competition", upgrade_table=[3, 3, 3]), None, True)
    said_in(_refusal(thirds, "3:2"),
            "round 2 table 3: 3:2 cannot come from play under this event's rules, in any number of deals",
            "第2轮第3桌：按本赛事规则，无论打多少副都不可能打成3:2")


def test_what_cannot_be_told_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules that score points, a forfeit and a count past the limit are not this check's; past its budget
    the check refuses only what it found impossible, and says no fewest count it did not find."""
    assert check_result(_config(preset("huopin"), 8, True), 1, 1, ResultSlip.parse("K:2", deals=2)) is None
    cfg = _config(preset("competition"), 8, True)
    assert check_result(cfg, 1, 1, ResultSlip.parse(None, forfeit="home")) is None
    assert check_result(cfg, 1, 1, ResultSlip.parse("K:2", deals=9)) is None
    traditional = _config(preset("huaian-traditional"), 8, True)
    assert check_result(traditional, 1, 1, ResultSlip.parse("2:2", deals=7)) is None  # past the budget: accepted
    said_in(_refusal(traditional, "A:A", "home", 3),
            "round 2 table 3: A:A with home passing A cannot come from 3 deals of play under this event's rules",
            "第2轮第3桌：按本赛事规则，打3副不可能打成A:A且主队过A")
    monkeypatch.setattr(reachable, "BUDGET", 10)
    reachable.reach.cache_clear()
    try:
        assert check_result(cfg, 1, 1, ResultSlip.parse("K:2", deals=2)) is not None  # 2 deals: 3 states
        assert check_result(cfg, 1, 1, ResultSlip.parse("A:A", "home", 6)) is None
    finally:
        reachable.reach.cache_clear()


def test_the_exploration_is_memoised_per_rules() -> None:
    rules = preset("competition")
    assert reachable.reach(rules, 3, True) is reachable.reach(preset("competition"), 3, True)
    assert reachable.reach(rules, 3, True) is not reachable.reach(rules, 3, False)


# ---- through the desk, its table page, its command line ---------------------------------------------------
def _table_event(desk: Desk) -> tuple[int, int, int]:
    tid = desk.create(EventConfig(name="Slip Cup", rounds=2), secret=SECRET)
    for name in ("Red", "Blue"):
        desk.register(tid, name, [f"{name} a", f"{name} b"])
    desk.pair_next(tid)
    tb = desk.state(tid).table(1, 1).table
    return tid, tb.home, tb.away


K2 = ("round 1 table 1: K:2 cannot come from 2 deals of play: from 2:2 it takes at least 4 deals, or 3 deals after "
      "a first deal credited for lateness")
K2_ZH = "第1轮第1桌：打2副不可能打成K:2：从2:2起至少要打4副，若第一副因迟到判给一方则另打3副"


def test_a_team_cannot_enter_an_impossible_result(desk: Desk) -> None:
    tid, home, away = _table_event(desk)
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, ResultSlip.parse("K:2", deals=2), by=away),
              re.escape(K2))
    desk.enter_result(tid, 1, 1, ResultSlip.parse("K:2", deals=4), by=away)
    desk.confirm(tid, 1, 1, by=home)
    assert desk.state(tid).table(1, 1).result is not None


def test_a_log_written_before_the_check_still_replays(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    tid, home, away = _table_event(desk)
    monkeypatch.setattr("guandan.tournament.state.check_result", lambda *a: None)  # a desk from before the check
    desk.enter_result(tid, 1, 1, ResultSlip.parse("K:2", deals=2), by=away)
    desk.confirm(tid, 1, 1, by=home)
    monkeypatch.undo()
    fresh = Desk(desk.engine)
    assert fresh.verify(tid).table(1, 1).result is not None
    assert replay(fresh.events(tid), tid).table(1, 1).final == ResultSlip(("K", "2"), None, 2)
    config = EventConfig(name="Old Cup", rounds=1).to_dict()
    old = [Event(1, "created", {"config": config, "secret": SECRET}),
           Event(2, "team_registered", {"team": {"name": "A", "players": ["a", "b"]}}),
           Event(3, "team_registered", {"team": {"name": "B", "players": ["c", "d"]}}),
           Event(4, "round_paired", {"round": 1, "tables": [[1, 2]], "bye": None}),
           Event(5, "result_entered", {"round": 1, "table": 1, "by": 2,
                                       "result": {"levels": ["A", "A"], "passed_a": "home", "deals": 3}}),
           Event(6, "result_confirmed", {"round": 1, "table": 1, "by": 1})]
    state = replay(old, 1)
    assert state.table(1, 1).status == "final"
    with pytest.raises(TournamentError, match="cannot come from 3 deals of play"):
        state.check_new(Event(7, "result_entered", {"round": 1, "table": 1, "by": 2,
                                                    "result": {"levels": ["A", "A"], "passed_a": "home",
                                                               "deals": 3}}))


def test_the_table_page_says_the_refusal_in_its_language(desk: Desk) -> None:
    tid, _home, _away = _table_event(desk)
    app_ = FastAPI()
    app_.include_router(create_table_router(lambda: desk))
    west = TestClient(app_)
    url = "/t/1/table/1/1"
    west.post(f"{url}/code", data={"code": desk.state(tid).team_code(1, 1, 1)})
    form = {"home_level": "K", "away_level": "2", "passed_a": "none", "deals": "2"}
    res = west.post(f"{url}/result", data=form)
    assert res.status_code == 400 and f'未被受理：<span lang="zh">{K2_ZH}' in res.text
    res = west.post(f"{url}/result?lang=en", data=form)
    assert res.status_code == 400 and f'Not accepted: <span lang="en">{K2}' in res.text
    assert desk.state(tid).table(1, 1).status == "missing"


runner = CliRunner()


def test_the_cli_refuses_an_entry_and_warns_of_an_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    monkeypatch.setenv("LANGUAGE", "en")
    assert runner.invoke(app, ["new", "Cup", "--rounds", "2", "--per-round", "--db", db]).exit_code == 0
    for name in ("Red", "Blue"):
        assert runner.invoke(app, ["register", "1", name, "--players", f"{name}1,{name}2", "--db", db]).exit_code == 0
    assert runner.invoke(app, ["pair", "1", "--db", db]).exit_code == 0
    where = ["-r", "1", "-t", "1", "--db", db]
    res = runner.invoke(app, ["result", "1", *where, "--levels", "K:2", "--deals", "2"])
    assert res.exit_code == 2 and res.output.strip() == f"error: {K2}", res.output
    res = runner.invoke(app, ["result", "1", *where, "--levels", "K:2", "--deals", "2", "--override", "--reason",
                              "penalty"])
    assert res.exit_code == 0 and res.output.splitlines() == [
        "round 1 table 1: result set by the arbiter", f"warning: {K2}; the arbiter's result stands"], res.output
    assert Desk(make_engine(db)).state(1).table(1, 1).final == ResultSlip(("K", "2"), None, 2)
    monkeypatch.setenv("LANGUAGE", "zh")
    res = runner.invoke(app, ["result", "1", *where, "--levels", "K:2", "--deals", "2", "--override", "--reason",
                              "penalty"])
    assert res.exit_code == 0 and res.output.splitlines()[-1] == f"警告：{K2_ZH}；裁判判定的成绩仍然有效", res.output
    res = runner.invoke(app, ["result", "1", *where, "--levels", "K:2", "--deals", "4", "--override", "--reason",
                              "corrected"])
    assert res.exit_code == 0 and "警告" not in res.output, res.output
