"""A result a team enters must be one play could produce under the event's rules (reachable.py).

The check is compared with a plain exploration that keeps every state as the desk's own settlement gives it
(no symmetry, no capped streaks, every finishing order settled), and its answers for every count through 40
deals with the plain layers of its own states (what it proves of every later count, and where layers repeat,
must agree). It accepts every result that random play settles to under each rule set that scores levels, in
rounds of 6–12 deals too (where the streaks of huaian-traditional were once past its budget), and every result
of rounds the engine plays with random players; it refuses hand-picked impossible results in words, in Chinese
and in English, on the desk, its table page and its command line; an arbiter's override of one stands with a
warning, and a log written before the check still replays.
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from guandan.core.rules import RuleSet, preset
from guandan.core.scoring import StreakCounts, settle_deal
from guandan.db import make_engine
from guandan.tournament import reachable
from guandan.tournament.botevent import TableJob, play_table
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


#: Every result a state can hold: home level, away level, the side that passed A (-1: none).
RESULTS = [(home, away, side) for home in range(2, 15) for away in range(2, 15) for side in (-1, 0, 1)]


def found_at(found: reachable._Reach, origin: int, d: int, passes: bool = True) -> set[tuple[int, ...]]:
    """The results the exploration says come from exactly ``d`` deals from start ``origin``."""
    return {o for o in RESULTS if (passes or o[2] < 0) and found.known(origin, o, d)}


@pytest.mark.parametrize(("name", "stop", "award", "depth"), [
    ("competition", True, 3, 9), ("competition", False, 3, 6), ("huaian-2009", True, 2, 9),
    ("huopin-levels", False, 3, 6), ("any-pass", True, 3, 9), ("overshoot", True, 3, 9), ("one-failure", True, 3, 9),
    ("huaian-traditional", True, 3, 3), ("huaian-traditional", False, 3, 3), ("team-streaks", True, 3, 3),
    ("short-streaks", True, 1, 3), ("short-streaks", False, 2, 3),
])
def test_the_exploration_finds_what_every_finishing_order_gives(name: str, stop: bool, award: int, depth: int) -> None:
    """Through as many deals as the plain exploration can settle in about a second: far enough to pass A, fail
    it three times and be reset, overshoot; and to earn each streak variant's bonuses and penalties. A question
    about a result without a pass of A explores no round that passed A, and finds the same."""
    expected = brute(LEVEL_RULES[name], award, stop, depth)
    found = reachable._Reach(LEVEL_RULES[name], award, stop, True)
    unpassed = reachable._Reach(LEVEL_RULES[name], award, stop, False)
    for (origin, d), results in expected.items():
        assert found_at(found, origin, d) == results, (origin, d)
        assert found_at(unpassed, origin, d, passes=False) == {o for o in results if o[2] < 0}, (origin, d)


#: The symmetries of the settlement: seat permutations that keep partners together (the teams' with a flag).
SYMMETRIES = [((0, 1, 2, 3), False), ((2, 1, 0, 3), False), ((0, 3, 2, 1), False), ((2, 3, 0, 1), False),
              ((1, 0, 3, 2), True), ((3, 0, 1, 2), True), ((1, 2, 3, 0), True), ((3, 2, 1, 0), True)]
Pair = tuple[int, int]
Counts = tuple[int, int, int, int]
#: levels, declarer (-1: none), A failures, first-out and last-out streaks per seat, the side that passed A first
Plain = tuple[Pair, int, Pair, Counts, Counts, int]


def symmetric(rules: RuleSet, award_levels: int, stop: bool, depth: int) -> dict[tuple[int, int], set[tuple[int, ...]]]:
    """As :func:`brute` with every state kept up to the symmetries of the settlement only (no capped streaks,
    no settlement shared between states): deeper in the same time, where streaks escalate."""
    def canonical(levels: Pair, declarer: int | None, fails: Pair, st: StreakCounts, first: int) -> Plain:
        images: list[Plain] = []
        for seat, swap in SYMMETRIES:
            f, last = [0] * 4, [0] * 4
            for s in range(4):
                f[seat[s]], last[seat[s]] = st.first[s], st.last[s]
            fc: Counts = (f[0], f[1], f[2], f[3])
            lc: Counts = (last[0], last[1], last[2], last[3])
            if swap:
                images.append(((levels[1], levels[0]), -1 if declarer is None else 1 - declarer, (fails[1], fails[0]),
                               fc, lc, -1 if first < 0 else 1 - first))
            else:
                images.append((levels, -1 if declarer is None else declarer, fails, fc, lc, first))
        return min(images)

    out: dict[tuple[int, int], set[tuple[int, ...]]] = {}
    starts = [Track(), settle_next(Track(), {"award": "home"}, rules, award_levels, stop_on_pass_a=stop)[1]]
    for origin, start in enumerate(starts):
        layer = {canonical(start.levels, start.declarer, start.a_failures, start.streaks, -1)}
        for d in range(depth + 1):
            out[(origin, d)] = set()
            for s in layer:
                o = (s[0][0] + 2, s[0][1] + 2, s[5])
                out[(origin, d)] |= {o, (o[1], o[0], -1 if o[2] < 0 else 1 - o[2])}
            following: set[Plain] = set()
            for levels, declarer, fails, first_out, last_out, first in layer:
                if stop and first >= 0:
                    continue
                streaks = StreakCounts(first_out, last_out)
                for finish in itertools.permutations(range(4)):
                    x = settle_deal(levels, None if declarer < 0 else declarer, finish, rules, fails, streaks)
                    won = -1 if x.match_winner is None else x.match_winner
                    following.add(canonical(x.levels_after, x.declarer_after, x.a_failures_after, x.streaks_after,
                                            first if first >= 0 else won))
            layer = following
    return out


@pytest.mark.parametrize(("name", "stop", "depth"), [
    ("huaian-traditional", True, 5), ("huaian-traditional", False, 4), ("short-streaks", False, 4),
    ("team-streaks", True, 4),
])
def test_escalating_streaks_are_settled_as_every_finishing_order_gives(name: str, stop: bool, depth: int) -> None:
    """Where streaks are worth 2 and 3 levels: the settlement called once per streak bonus and penalties it
    notes, and the capped counts, give what every state settled with every finishing order gives."""
    expected = symmetric(LEVEL_RULES[name], 3, stop, depth)
    found = reachable._Reach(LEVEL_RULES[name], 3, stop, True)
    for (origin, d), results in expected.items():
        assert found_at(found, origin, d) == results, (origin, d)


@pytest.mark.parametrize(("name", "stop", "passes", "depth"), [
    *((name, stop, True, 40) for name in LEVEL_RULES if name not in STREAKY for stop in (True, False)),
    *((name, stop, False, 30) for name in sorted(STREAKY) for stop in (True, False)),
    ("huaian-traditional", False, True, 10),
])
def test_every_count_agrees_with_the_layers(name: str, stop: bool, passes: bool, depth: int) -> None:
    """What the exploration proves of every later count (a set of states each following another of the set),
    and what it takes from layers that repeat, agree with the layers of its states, one deal after another."""
    found = reachable._Reach(LEVEL_RULES[name], 3, stop, passes)
    graph = reachable._Reach(LEVEL_RULES[name], 3, stop, passes)
    for origin in (0, 1):
        layer = set(graph.walks[origin].rest)
        for d in range(depth + 1):
            results: set[tuple[int, int, int]] = set()
            for lp in {s >> reachable._SIG_BITS for s in layer}:
                results.update(graph._outcomes(lp))
            assert found_at(found, origin, d) == results, (origin, d)
            layer = {t for s in layer for t in graph._after(s)}


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


@pytest.mark.parametrize("name", list(LEVEL_RULES))
@settings(derandomize=True, deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_round_of_6_to_12_deals_is_accepted(name: str, data: st.DataObject) -> None:
    """Sound in the rounds events play, 6–12 deals (the streaks of huaian-traditional were once past the
    check's budget from 6 deals on, and such a slip accepted unchecked): whatever the finishing orders, whether
    passing A ends the round, an awarded first deal (counted or not), a deciding deal after a level round
    (counted or not), the result they settle to is accepted."""
    rules = LEVEL_RULES[name]
    stop = data.draw(st.booleans(), "stop_on_pass_a")
    max_deals = data.draw(st.integers(6, 12), "max_deals")
    award = data.draw(st.sampled_from([3, 2, 1]), "award levels")
    cfg = _config(rules, max_deals, stop, award)
    items: list[dict[str, Any]] = []
    if data.draw(st.booleans(), "first deal awarded"):
        items.append({"award": data.draw(st.sampled_from(["home", "away"]), "to")})
    entries, track = settle_deals(items, rules, award, stop_on_pass_a=stop)
    while len(items) < max_deals and not (stop and track.passed_a is not None):
        items.append({"finish": data.draw(st.permutations(range(4)), "finish")})
        entry, track = settle_next(track, items[-1], rules, award, stop_on_pass_a=stop)
        entries.append(entry)
    levels = entries[-1].levels if entries else (2, 2)
    passed = next((e.passed_a for e in entries if e.passed_a is not None), None)
    if passed is not None and levels[passed] != 14:
        return  # passed A, then lost it where the round goes on: no slip can say so (refused by the scoring)
    deals = len(items) - (1 if items and "award" in items[0] and data.draw(st.booleans(), "award uncounted") else 0)
    decider: int | None = None
    if levels[0] == levels[1] and passed is None and data.draw(st.booleans(), "deciding deal"):
        decider = data.draw(st.sampled_from([0, 1]), "decider won by")
        deals += data.draw(st.sampled_from([0, 1]), "decider counted")
    if deals > max_deals:
        return  # the deal limit's own refusal
    slip = ResultSlip((level_name(levels[0]), level_name(levels[1])), passed, deals, decider=decider)
    assert check_result(cfg, 1, 1, slip) is None, (items, slip, check_result(cfg, 1, 1, slip))
    assert check_result(cfg, 1, 1, replace(slip, deals=None)) is None


@pytest.mark.parametrize("name", ["competition", "huaian-traditional", "huaian-2009"])
def test_every_round_the_engine_plays_is_accepted(name: str) -> None:
    """Rounds the engine plays (random players, seeded) to a cap of 6–12 deals or a pass of A, entered as the
    bot event enters a slip, are accepted."""
    rng = random.Random(f"engine:{name}")
    rules = LEVEL_RULES[name]
    for table in range(6):
        cap = rng.randrange(6, 13)
        play = play_table(TableJob(1, table, ("random", "random"), ("random", "random"), rules,
                                   f"reachable:{name}:{table}", cap, False))
        home, away = play.final_levels
        if play.passed_a is not None:  # the engine keeps the winner at A
            home, away = (14, away) if play.passed_a == 0 else (home, 14)
        slip = ResultSlip((level_name(home), level_name(away)), play.passed_a, len(play.finishes))
        assert check_result(_config(rules, cap, True), 1, table, slip) is None, (play, slip)


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


def test_what_cannot_be_told_is_accepted() -> None:
    """Rules that score points, a forfeit and a count past the limit are not this check's."""
    assert check_result(_config(preset("huopin"), 8, True), 1, 1, ResultSlip.parse("K:2", deals=2)) is None
    cfg = _config(preset("competition"), 8, True)
    assert check_result(cfg, 1, 1, ResultSlip.parse(None, forfeit="home")) is None
    assert check_result(cfg, 1, 1, ResultSlip.parse("K:2", deals=9)) is None


@pytest.mark.parametrize("stop", [True, False])
def test_impossible_results_of_long_rounds_are_refused_under_streaks(stop: bool) -> None:
    """huaian-traditional's streaks once took the check past its budget from 6 deals on, and it accepted every
    such slip. Now each count is checked: 2:2, 2:3 and 3:3 (and 3:2) take streak penalties that 6–12 deals
    cannot give (from 2:2 they come back after 13 and 14), and passing A at K or A takes 9 deals (8 after a
    credited first deal); while a result so many deals can give is still accepted."""
    cfg = _config(preset("huaian-traditional"), 12, stop)
    said_in(_refusal(cfg, "2:2", deals=7),
            "round 2 table 3: 2:2 cannot come from 7 deals of play under this event's rules; it can come from 0 deals",
            "第2轮第3桌：按本赛事规则，打7副不可能打成2:2；打0副才可能")
    said_in(_refusal(cfg, "3:3", deals=12),
            "round 2 table 3: 3:3 cannot come from 12 deals of play under this event's rules; it can come from 2 "
            "deals",
            "第2轮第3桌：按本赛事规则，打12副不可能打成3:3；打2副才可能")
    said_in(_refusal(cfg, "2:3", deals=12),
            "round 2 table 3: 2:3 cannot come from 12 deals of play under this event's rules; it can come from one "
            "deal",
            "第2轮第3桌：按本赛事规则，打12副不可能打成2:3；打1副才可能")
    said_in(_refusal(cfg, "K:A", "away", 7),
            "round 2 table 3: K:A with away passing A cannot come from 7 deals of play: from 2:2 it takes at least 9 "
            "deals, or 8 deals after a first deal credited for lateness",
            "第2轮第3桌：打7副不可能打成K:A且客队过A：从2:2起至少要打9副，若第一副因迟到判给一方则另打8副")
    said_in(_refusal(cfg, "A:A", "home", 6),
            "round 2 table 3: A:A with home passing A cannot come from 6 deals of play: from 2:2 it takes at least 9 "
            "deals, or 8 deals after a first deal credited for lateness",
            "第2轮第3桌：打6副不可能打成A:A且主队过A：从2:2起至少要打9副，若第一副因迟到判给一方则另打8副")
    for text, passed, deals in (("3:2", None, 12), ("2:2", None, 6), ("3:3", None, 10), ("K:A", "away", 6)):
        assert check_result(cfg, 2, 3, ResultSlip.parse(text, passed, deals)) is not None, (text, deals)
    fine: list[tuple[str, str | None, int | None]] = [
        ("K:K", None, 7), ("A:A", None, 7), ("Q:Q", None, 6), ("A:K", "home", 8), ("2:2", None, 13),
        ("3:2", None, 1), ("7:5", None, 12), ("2:2", None, None)]  # A:K passed in 8, 2:2 in 13: after a first
    for text, passed, count in fine:  # deal credited for lateness, not counted
        assert check_result(cfg, 2, 3, ResultSlip.parse(text, passed, count)) is None, (text, count)


def test_the_exploration_is_memoised_per_rules() -> None:
    rules = preset("competition")
    assert reachable.reach(rules, 3, True) is reachable.reach(preset("competition"), 3, True)
    assert reachable.reach(rules, 3, True) is not reachable.reach(rules, 3, False)
    assert reachable.reach(rules, 3, False, False) is not reachable.reach(rules, 3, False, True)


def test_the_exploration_stays_small() -> None:
    """Under huaian-traditional no question a slip can ask explores past 14 deals (every result is proved to
    come from every count from then on), nor settles more than 15,100 states (of the 16,110 a round can be in
    where passing A ends it; 15,045 measured); where layers repeat, the states are dropped and only the results
    kept."""
    rules = preset("huaian-traditional")
    for stop, passes in ((True, True), (False, True), (False, False)):
        r = reachable._Reach(rules, 3, stop, passes)
        for o in RESULTS:
            if (o[2] < 0 and (stop or not passes)) or (o[2] >= 0 and o[o[2]] == 14 and passes):
                for origin in (0, 1):
                    assert r.known(origin, o, reachable.HORIZON)
                    assert r.first(origin, o, reachable.HORIZON) is not None
        assert max(w.depth for w in r.walks) <= 14
        assert len(r.succ) <= 15_100
    competition = reachable._Reach(preset("competition"), 3, True, True)
    assert competition.known(0, (14, 9, 0), reachable.HORIZON)
    for origin in (0, 1):  # home passed A and is at 2: no count gives it, so every layer is explored
        assert competition.bits(origin, (2, 14, 0), reachable.HORIZON) == 0
    assert all(w.period is not None and w.depth < 40 for w in competition.walks)
    assert not competition.succ and not competition.moves


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
