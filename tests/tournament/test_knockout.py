"""Knockout events (淘汰赛): drawn partners, the bracket and its byes, later rounds, the tie rule, placings
and prizes, through the pure rules, the Desk, the command line and the web page."""

from __future__ import annotations

import copy
import json
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from typer.testing import CliRunner

from guandan.i18n.check import extract_msgids, missing
from guandan.tournament import knockout as ko
from guandan.tournament.bracket import bracket_data, bracket_lines, plan_pairing, width
from guandan.tournament.cli import app
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.model import EventConfig
from guandan.tournament.pagelang import explain
from guandan.tournament.prints import make_print
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.state import Event, TableState, TournamentState, replay
from guandan.tournament.web import create_router

from .conftest import SECRET

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that it prefers httpx2 over the pinned httpx
    from fastapi.testclient import TestClient

SRC = Path(__file__).resolve().parents[2] / "src" / "guandan" / "tournament"
Decide = Callable[[TableState], ResultSlip]


# ---- helpers ---------------------------------------------------------------------------------------------
def fixed_event(desk: Desk, teams: int, *, rated: bool = True, **config: Any) -> int:
    """A fixed-partners knockout with teams T1…Tn (T1 rated highest when ``rated``)."""
    tid = desk.create(EventConfig(name="Cup", format="knockout", **config), secret=SECRET)
    for i in range(1, teams + 1):
        desk.register(tid, f"T{i}", [f"P{i}a", f"P{i}b"], rating=float(100 - i) if rated else None)
    return tid


def random_event(desk: Desk, players: int, seed: int = 2013, ratings: dict[int, float] | None = None) -> int:
    tid = desk.create(EventConfig(name="秉信杯", format="knockout", partners="random", seed=seed), secret=SECRET)
    for i in range(1, players + 1):
        desk.register_player(tid, f"选手{i}", rating=(ratings or {}).get(i))
    return tid


def home_wins(ts: TableState) -> ResultSlip:
    return ResultSlip.parse("A:6", "home", 7)


def play_round(desk: Desk, tid: int, decide: Decide = home_wins) -> None:
    """West (away) enters every table of the current round, North (home) confirms."""
    st = desk.state(tid)
    r = st.current_round
    for n, ts in st.rounds[r].tables.items():
        desk.enter_result(tid, r, n, decide(ts), by=ts.table.away)
        desk.confirm(tid, r, n, by=ts.table.home)


def fingerprint(state: TournamentState) -> str:
    shown = bracket_data(state) if state.is_knockout else None
    return json.dumps([shown, [s.to_dict() for s in state.standings()], state.last_seq, repr(state.rounds)],
                      ensure_ascii=False, sort_keys=True)


def unchanged(desk: Desk, tid: int, action: Callable[[], object], match: str) -> None:
    """Refused with a message matching ``match``; the log does not grow, and a replay of it gives the state
    the desk holds."""
    before = desk.events(tid)
    with pytest.raises(TournamentError, match=match):
        action()
    after = desk.events(tid)
    assert [e.seq for e in after] == [e.seq for e in before]
    assert fingerprint(replay(after, tid)) == fingerprint(desk.state(tid))
    desk.verify(tid)


def names(state: TournamentState, match: ko.Match) -> tuple[str | None, ...]:
    return tuple(None if x is None else state.teams[x].name for x in match)


def apply(state: TournamentState, type_: str, data: dict[str, Any]) -> None:
    state.apply(Event(state.last_seq + 1, type_, data))


# ---- the pure rules: a bracket for every size from 2 to 40 ---------------------------------------------
def _byes_spread(places: list[int | None]) -> bool:
    """At every level of the bracket the two halves of a section differ by at most one bye."""
    if len(places) <= 2:
        return True
    half = len(places) // 2
    top, bottom = places[:half], places[half:]
    return abs(top.count(None) - bottom.count(None)) <= 1 and _byes_spread(top) and _byes_spread(bottom)


@pytest.mark.parametrize("n", range(2, 41))
def test_a_bracket_for_every_size(n: int) -> None:
    order = list(range(1, n + 1))
    places = ko.place_teams(order)
    size = len(places)
    assert size & (size - 1) == 0 and size // 2 < n <= size  # the smallest power of two that holds them
    assert ko.rounds_for(n) == (n - 1).bit_length()
    assert sorted(x for x in places if x is not None) == order  # every team placed once
    matches = ko.pair_places(places)
    assert (None, None) not in matches  # no bye meets a bye
    byes = sorted(a for a, b in matches if b is None)
    assert all(a is not None for a, _ in matches)  # the bye is always the lower place of a match
    assert byes == list(range(1, size - n + 1))  # the best seeds get the byes
    assert _byes_spread(places)
    half = size // 2
    assert (1 in places[:half]) != (2 in places[:half])  # seeds 1 and 2 can only meet in the final
    assert ko.check_slots(places, order) == tuple(places)


@pytest.mark.parametrize("n", range(2, 41))
def test_every_size_plays_to_a_champion(n: int) -> None:
    """Through the state alone: the rounds follow from the teams, every team gets one place, and the places
    are shared as a knockout shares them (1, 2, 3=, 5=, …)."""
    st = TournamentState()
    apply(st, "created", {"config": EventConfig(name="x", format="knockout", rounds=0).to_dict(), "secret": SECRET})
    for i in range(1, n + 1):
        apply(st, "team_registered", {"team": {"name": f"T{i}", "players": ["a", "b"], "rating": None}})
    tables_per_round = []
    while not st.finished:
        for type_, data in plan_pairing(st, seed=n):
            apply(st, type_, data)
        rnd = st.rounds[st.current_round]
        tables_per_round.append(len(rnd.tables))
        for t in rnd.tables:  # a level round at every first table, decided for the lower place
            slip = ResultSlip.parse("10:10", decider="away") if t == 1 else ResultSlip.parse("K:Q")
            apply(st, "result_reported", {"round": rnd.number, "table": t, "result": slip.to_dict()})
    total = ko.rounds_for(n)
    assert st.current_round == total == st.rounds_total
    data = bracket_data(st)
    assert data["champion"] is not None and data["bye_count"] == ko.bracket_size(n) - n
    places = [row["place"] for row in data["placings"]]
    assert len(places) == n and None not in places
    for r, tables in enumerate(tables_per_round, 1):
        assert places.count(ko.place_of_loser(r, total)) == tables
    assert places.count(1) == 1
    byes = st.rounds[1].byes
    assert len(byes) == ko.bracket_size(n) - n
    assert sum(s.byes for s in st.standings()) >= len(byes)  # a bye scores like the Swiss bye


def test_seed_positions_are_the_standard_ones() -> None:
    assert ko.seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert ko.seed_positions(2) == [1, 2]
    with pytest.raises(TournamentError, match="power of two"):
        ko.seed_positions(6)
    assert [ko.stage(r, 5) for r in range(1, 6)] == ["round_of_32", "round_of_16", "quarter_final", "semi_final",
                                                     "final"]


# ---- drawing the partners -------------------------------------------------------------------------------
def test_partners_are_drawn_per_seed_and_recorded(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b, c = random_event(desk, 12, seed=5), random_event(desk, 12, seed=5), random_event(desk, 12, seed=6)
    for tid in (a, b, c):
        desk.pair_next(tid)
    draws = {tid: next(e for e in desk.events(tid) if e.type == "partners_drawn").data for tid in (a, b, c)}
    assert draws[a] == draws[b] and draws[a]["teams"] != draws[c]["teams"]
    first = draws[a]["teams"][0]
    p, q = first["players"]
    state = desk.state(a)
    assert first["name"] == f"{state.players[p].name} / {state.players[q].name}"  # the teams, not only the seed
    assert sorted(x for t in draws[a]["teams"] for x in t["players"]) == list(range(1, 13))
    assert state.teams[1].players == (state.players[p].name, state.players[q].name)
    types = [e.type for e in desk.events(a)]
    assert types[-2:] == ["partners_drawn", "knockout_paired"]

    def no_drawing(*args: object, **kwargs: object) -> None:
        raise AssertionError("a replay must not draw again")

    monkeypatch.setattr(ko, "draw_partners", no_drawing)
    monkeypatch.setattr(ko, "seeding", no_drawing)
    assert fingerprint(replay(desk.events(a), a)) == fingerprint(state)


def test_players_alone_and_the_refusals_before_the_draw(desk: Desk) -> None:
    tid = random_event(desk, 5)
    unchanged(desk, tid, lambda: desk.register(tid, "Pair", ["x", "y"]), "register each player alone")
    unchanged(desk, tid, lambda: desk.register_player(tid, "选手3"), "already registered")
    unchanged(desk, tid, lambda: desk.register_player(tid, "42"), "only digits")
    unchanged(desk, tid, lambda: desk.register_player(tid, "x" * 41), "1…40 characters")
    unchanged(desk, tid, lambda: desk.pair_next(tid), "5 players are registered.*even")
    desk.withdraw_player(tid, "选手5", reason="ill")
    unchanged(desk, tid, lambda: desk.withdraw_player(tid, 5), "already withdrawn")
    assert desk.state(tid).active_players == [1, 2, 3, 4]
    desk.pair_next(tid)  # two teams: a final straight away
    st = desk.state(tid)
    assert st.rounds_total == 1 and len(st.rounds[1].tables) == 1 and "选手5" not in json.dumps(bracket_data(st))
    unchanged(desk, tid, lambda: desk.register_player(tid, "Late"), "registration is closed")
    unchanged(desk, tid, lambda: desk.withdraw_player(tid, 1), "withdraw the team instead")
    few = random_event(desk, 2)
    unchanged(desk, few, lambda: desk.pair_next(few), "at least four players")


def test_fixed_partners_refuse_single_players_and_the_rounds_limit(desk: Desk) -> None:
    tid = fixed_event(desk, 4, rounds=2)
    unchanged(desk, tid, lambda: desk.register_player(tid, "Solo"), "fixed partners: register teams")
    unchanged(desk, tid, lambda: desk.register(tid, "T5", ["a", "b"]), "5 teams need 3 knockout rounds.*at most 2")
    with pytest.raises(TournamentError, match="for knockout events"):
        EventConfig(name="x", partners="random")
    with pytest.raises(TournamentError, match="partners must be one of"):
        EventConfig(name="x", format="knockout", partners="drawn")
    with pytest.raises(TournamentError, match="rounds must be in 1"):
        EventConfig(name="x", rounds=0)  # no limit is for knockouts only
    cfg = EventConfig(name="tiny", format="knockout", partners="random", rounds=1)
    tiny = desk.create(cfg, secret=SECRET)
    for i in range(4):
        desk.register_player(tiny, f"p{i}")
    unchanged(desk, tiny, lambda: desk.register_player(tiny, "p4"), "5 players make 3 teams")


# ---- full events through the desk --------------------------------------------------------------------
def test_an_eight_team_event_to_a_champion(desk: Desk) -> None:
    tid = fixed_event(desk, 8)
    rnd = desk.pair_next(tid)
    st = desk.state(tid)
    assert [names(st, m) for m in rnd.matches] == [("T1", "T8"), ("T4", "T5"), ("T2", "T7"), ("T3", "T6")]
    assert rnd.method == "rating" and rnd.byes == [] and st.rounds_total == 3
    results = {1: ResultSlip.parse("A:6", "home"), 2: ResultSlip.parse("10:10", decider="away"),
               3: ResultSlip.parse("J:Q"), 4: ResultSlip.parse("K:9")}
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 2, ResultSlip.parse("10:10"), by=5),
              r"needs a winner.*\(10:10\).*加赛一副")
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, ResultSlip.parse("A:6", decider="home"), by=8),
              "already has a winner")
    unchanged(desk, tid, lambda: desk.pair_next(tid), "round 2 cannot be paired yet.*result missing")
    play_round(desk, tid, lambda ts: results[ts.table.number])
    rnd = desk.pair_next(tid)
    st = desk.state(tid)
    assert [names(st, m) for m in rnd.matches] == [("T1", "T5"), ("T7", "T3")]  # the winners, in place
    unchanged(desk, tid, lambda: desk.repair(tid, [(1, 3), (5, 7)]), "follow from its bracket")
    play_round(desk, tid, lambda ts: ResultSlip.parse("A:8") if ts.table.number == 1 else ResultSlip(None, forfeit=0))
    desk.pair_next(tid)
    final = desk.state(tid).rounds[3]
    assert names(desk.state(tid), final.matches[0]) == ("T1", "T3")
    desk.enter_result(tid, 3, 1, ResultSlip.parse("8:8", decider="away", deals=8), by=3)
    data = bracket_data(desk.state(tid))
    assert data["champion"] is None and data["prizes"] is None  # entered, not yet confirmed
    desk.confirm(tid, 3, 1, by=1)
    st = desk.state(tid)
    assert st.finished
    unchanged(desk, tid, lambda: desk.pair_next(tid), "the knockout is over")
    data = bracket_data(st)
    assert data["champion"] == {"team": "T3", "team_id": 3, "players": ["P3a", "P3b"]}
    assert data["runner_up"]["team"] == "T1"
    places = {row["team"]: row["place"] for row in data["placings"]}
    assert places == {"T3": 1, "T1": 2, "T5": 3, "T7": 3, "T8": 5, "T4": 5, "T2": 5, "T6": 5}
    prizes = {p["prize"]: [t["team"] for t in p["teams"]] for p in data["prizes"]}
    assert prizes == {"champion": ["T3"], "runner_up": ["T1"], "sunshine": ["T5", "T7", "T2", "T4", "T6", "T8"]}
    m = data["rounds"][0]["matches"][1]
    assert m["result"] == {"levels": ["10", "10"], "text": "10:10", "passed_a": None, "forfeit": None,
                           "decider": "away", "deals": None, "source": "confirmed", "winner": "away"}
    assert m["winner"]["name"] == "T5"
    draw = st.table(1, 2).result
    assert draw is not None and draw.winner is None and draw.match_points == (1, 1)  # 场分 stay a draw
    desk.verify(tid)


def test_a_six_team_event_with_drawn_partners(desk: Desk) -> None:
    tid = random_event(desk, 12, seed=2013, ratings={1: 2000.0, 2: 1900.0})
    rnd = desk.pair_next(tid)
    st = desk.state(tid)
    star = next(t for t, ps in st.partners.items() if 1 in ps)
    second = next(t for t, ps in st.partners.items() if 2 in ps)
    assert star != second  # this seed keeps them apart; each team is rated by its rated player
    assert st.teams[star].rating == 2000.0 and st.teams[second].rating == 1900.0
    assert rnd.method == "rating" and len(st.bracket) == 8 and st.rounds_total == 3
    assert sorted(rnd.byes) == sorted([star, second])  # the two byes go to the two best seeds
    assert len(rnd.tables) == 2 and rnd.matches[0] == (star, None) and rnd.matches[2] == (second, None)
    play_round(desk, tid, lambda ts: ResultSlip.parse("9:9", decider="home") if ts.table.number == 1
               else ResultSlip.parse("Q:A"))
    desk.pair_next(tid)
    assert len(desk.state(tid).rounds[2].tables) == 2
    play_round(desk, tid)
    desk.pair_next(tid)
    play_round(desk, tid)
    st = desk.state(tid)
    data = bracket_data(st)
    assert st.finished and data["champion"]["team"] == st.teams[star].name
    assert data["champion"]["players"] == list(st.teams[star].players)
    assert [row["place"] for row in data["placings"]] == [1, 2, 3, 3, 5, 5]
    standings = {s.team_id: s for s in st.standings()}
    assert standings[star].byes == 1 and standings[star].wins == 3  # the bye scores like the Swiss bye (A:6)
    assert data["partners_draw"]["seed"] == 2013 and len(data["partners_draw"]["teams"]) == 6


def test_a_corrected_winner_re_pairs_the_next_round(desk: Desk) -> None:
    tid = fixed_event(desk, 4)
    desk.pair_next(tid)
    play_round(desk, tid)
    desk.pair_next(tid)
    st = desk.state(tid)
    assert names(st, st.rounds[2].matches[0]) == ("T1", "T2")
    desk.override(tid, 1, 1, ResultSlip.parse("6:A", "away"), reason="the slip was read upside down")
    events = desk.events(tid)
    assert [e.type for e in events[-2:]] == ["result_overridden", "knockout_paired"]
    assert events[-1].data["repair"] is True and "corrected" in events[-1].data["reason"]
    st = desk.state(tid)
    assert names(st, st.rounds[2].matches[0]) == ("T4", "T2")
    desk.override(tid, 1, 2, ResultSlip.parse("K:6"), reason="levels corrected")  # same winner: nothing re-paired
    assert desk.events(tid)[-1].type == "result_overridden"
    desk.enter_result(tid, 2, 1, ResultSlip.parse("A:9"), by=2)
    unchanged(desk, tid, lambda: desk.override(tid, 1, 2, ResultSlip.parse("6:K"), reason="x"),
              "winner can no longer change, round 2 has started")


def test_a_winner_who_withdraws_gives_a_walkover(desk: Desk) -> None:
    tid = fixed_event(desk, 4)
    desk.pair_next(tid)
    play_round(desk, tid)
    desk.withdraw(tid, "T2", reason="left early")
    rnd = desk.pair_next(tid)
    st = desk.state(tid)
    assert rnd.matches == ((1, None),) and rnd.byes == [1] and not rnd.tables
    assert st.finished
    data = bracket_data(st)
    assert data["champion"]["team"] == "T1"
    assert data["rounds"][1]["matches"][0]["status"] == "bye"
    row = next(r for r in data["placings"] if r["team"] == "T2")
    assert (row["place"], row["eliminated_in"]) == (2, 2)


def test_re_pairing_round_one_draws_afresh(desk: Desk) -> None:
    tid = fixed_event(desk, 6, rated=False, seed=3)
    first = desk.pair_next(tid)
    assert first.method == "random" and first.seed == 3
    again = desk.repair(tid, reason="wrong table numbers")
    assert again.seed == 4 and desk.state(tid).bracket != ()
    desk.verify(tid)


def test_hand_written_entries_are_checked() -> None:
    st = TournamentState()
    apply(st, "created", {"config": EventConfig(name="x", format="knockout").to_dict(), "secret": SECRET})
    for i in range(1, 6):
        apply(st, "team_registered", {"team": {"name": f"T{i}", "players": ["a", "b"]}})
    good = plan_pairing(st)[0][1]

    def refused(type_: str, data: dict[str, Any], match: str) -> None:
        before = copy.deepcopy(st)
        with pytest.raises(TournamentError, match=match):
            apply(st, type_, data)
        assert st == before

    refused("knockout_paired", {**good, "slots": [1, 2, 3, 4, 5, None, None, None]}, "bye against a bye")
    refused("knockout_paired", {**good, "slots": [1, 2, 3, 4, 5, None]}, "a bracket of 8 places, not 6")
    refused("knockout_paired", {**good, "slots": [1, None, 1, 5, 2, None, 3, None]}, "more than once")
    refused("knockout_paired", {**good, "matches": [[1, None]] * 4}, "must pair the bracket in place")
    refused("knockout_paired", {**good, "round": 2}, "next round to pair is 1")
    refused("partners_drawn", {"teams": []}, "only in an event with partners drawn")
    refused("player_registered", {"player": {"name": "x"}}, "fixed partners")
    apply(st, "knockout_paired", good)
    for t in st.rounds[1].tables:
        apply(st, "result_reported", {"round": 1, "table": t, "result": ResultSlip.parse("A:6").to_dict()})
    nxt = plan_pairing(st)[0][1]
    refused("knockout_paired", {**nxt, "matches": list(reversed(nxt["matches"]))}, "the winners of round 1")
    refused("knockout_paired", {**nxt, "slots": good["slots"]}, "only round 1 draws")


def test_a_refused_pairing_names_the_expected_matches_in_the_readers_language() -> None:
    """A knockout_paired entry whose matches are not the bracket's is refused with the matches expected, each
    team named as the audit log names it, in English and in Chinese: no bare numbers, no English "bye"."""
    st = TournamentState()
    apply(st, "created", {"config": EventConfig(name="x", format="knockout").to_dict(), "secret": SECRET})
    for name in ("东风队", "南山队", "西湖队", "北斗队", "中原队"):
        apply(st, "team_registered", {"team": {"name": name, "players": ["a", "b"]}})
    good = plan_pairing(st)[0][1]
    assert good["matches"] == [[2, None], [5, 1], [4, None], [3, None]]  # the seeded draw of round 1

    def refusal(data: dict[str, Any]) -> tuple[str, str]:
        with pytest.raises(TournamentError) as e:
            apply(st, "knockout_paired", data)
        zh = explain(e.value, "zh")
        assert zh.detail_lang == "zh" and explain(e.value, "en").detail == str(e.value)
        return str(e.value), zh.detail

    assert refusal({**good, "matches": [[1, None]] * 4}) == (
        "round 1 must pair the bracket in place: team 2 (南山队): bye; team 5 (中原队) v team 1 (东风队); "
        "team 4 (北斗队): bye; team 3 (西湖队): bye",
        "第1轮须按对阵表原位编排：2号队（南山队）轮空；5号队（中原队）对1号队（东风队）；4号队（北斗队）轮空；3号队（西湖队）轮空")
    apply(st, "knockout_paired", good)
    for t in st.rounds[1].tables:
        apply(st, "result_reported", {"round": 1, "table": t, "result": ResultSlip.parse("A:6").to_dict()})
    nxt = plan_pairing(st)[0][1]
    assert refusal({**nxt, "matches": list(reversed(nxt["matches"]))}) == (
        "round 2 must pair the winners of round 1 in place: team 2 (南山队) v team 5 (中原队); "
        "team 4 (北斗队) v team 3 (西湖队)",
        "第2轮须按原位编排第1轮的胜者：2号队（南山队）对5号队（中原队）；4号队（北斗队）对3号队（西湖队）")


def test_the_partners_draw_entry_is_checked() -> None:
    st = TournamentState()
    cfg = EventConfig(name="x", format="knockout", partners="random")
    apply(st, "created", {"config": cfg.to_dict(), "secret": SECRET})
    for i in range(1, 5):
        apply(st, "player_registered", {"player": {"name": f"p{i}"}})

    def refused(teams: list[dict[str, Any]], match: str) -> None:
        before = copy.deepcopy(st)
        with pytest.raises(TournamentError, match=match):
            apply(st, "partners_drawn", {"seed": 1, "teams": teams})
        assert st == before

    refused([{"name": "a", "players": [1, 2]}, {"name": "b", "players": [2, 3]}], "more than once")
    refused([{"name": "a", "players": [1, 2]}], "leaves out player")
    refused([{"name": "a", "players": [1, 2]}, {"name": "b", "players": [3, 9]}], "player 9, who is not entered")
    refused([{"name": "a", "players": [1, 2]}, {"name": "A", "players": [3, 4]}], "already registered")
    refused([{"name": "a", "players": [1]}, {"name": "b", "players": [3, 4]}], "two player numbers")
    apply(st, "partners_drawn", {"seed": 1, "teams": [{"name": "a", "players": [1, 2]}, {"name": "b", "players": [3, 4]}]})
    with pytest.raises(TournamentError, match="already been drawn"):
        apply(st, "partners_drawn", {"seed": 1, "teams": []})


def test_swiss_events_are_unchanged(desk: Desk, new_event: Callable[..., int]) -> None:
    tid = new_event(4, rounds=2)
    rnd = desk.pair_next(tid)
    assert rnd.matches == () and rnd.byes == []
    away = rnd.tables[1].table.away
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, ResultSlip.parse("9:9", decider="home"), by=away),
              "decider.*is for knockout events")
    assert "decider" not in ResultSlip.parse("9:9").to_dict()  # a Swiss log is written as before
    desk.enter_result(tid, 1, 1, ResultSlip.parse("9:9"), by=away)  # a draw stands
    assert desk.state(tid).rounds_total == 2
    with pytest.raises(TournamentError, match="Swiss event"):
        bracket_data(desk.state(tid))


# ---- the command line ------------------------------------------------------------------------------------
runner = CliRunner()


def cli(db: str, *args: str) -> tuple[int, str]:
    res = runner.invoke(app, [*args, "--db", db])
    return res.exit_code, res.output


@pytest.mark.parametrize(("lang", "first", "second"), [
    ("en", "registered player 1: 张三 (人资部); 1 player entered", "registered player 2: 李四; 2 players entered"),
    ("zh", "已报名第1号选手：张三（人资部）；现有1名选手报名", "已报名第2号选手：李四；现有2名选手报名"),
])
def test_registering_a_player_counts_those_entered_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             lang: str, first: str, second: str) -> None:
    monkeypatch.setenv("LANGUAGE", lang)
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    assert cli(db, "new", "秉信杯", "--format", "knockout", "--partners", "random")[0] == 0
    assert cli(db, "register", "1", "--player", "张三", "--club", "人资部") == (0, first + "\n")
    assert cli(db, "register", "1", "--player", "李四") == (0, second + "\n")


def test_the_company_event_through_the_cli(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    code, out = cli(db, "new", "秉信杯", "--format", "knockout", "--partners", "random", "--seed", "2013", "--per-round")
    assert code == 0 and "created tournament 1" in out
    players = ["张三", "李四", "王五", "赵六", "孙七", "周八", "吴九", "郑十", "钱一", "冯二", "陈三"]
    for p in players:
        code, out = cli(db, "register", "1", "--player", p, "--club", "人资部")
        assert code == 0 and f": {p} (人资部)" in out, out
    size = len(Desk.open(db).events(1))
    for args, message in [
        (["register", "1", "Pair", "--players", "a,b"], "register each player alone"),
        (["register", "1", "--player", "张三"], "already registered"),
        (["register", "1", "X", "--player", "Y"], "give no team name"),
        (["register", "1"], "give a team name"),
        (["pair", "1"], "11 players are registered"),
        (["bracket", "1", "--lang", "fr"], "--lang must be one of"),
    ]:
        code, out = cli(db, *args)
        assert code == 2 and "error:" in out and message in out, (args, out)
    assert len(Desk.open(db).events(1)) == size
    code, out = cli(db, "withdraw", "1", "陈三")
    assert code == 0 and "player 陈三 withdrawn" in out
    code, out = cli(db, "bracket", "1", "--lang", "en")
    assert code == 0 and "The bracket has not been drawn yet." in out and "Champion: not decided yet" in out
    code, out = cli(db, "pair", "1")
    assert code == 0 and "partners drawn at random (seed 2013)" in out
    assert "knockout of 5 teams: a bracket of 8, byes: 3, rounds: 3" in out and "bye:" in out
    state = Desk.open(db).state(1)
    with pytest.MonkeyPatch.context() as mp:  # what blocks the next round, in the arbiter's language
        mp.setenv("LANGUAGE", "zh")
        code, out = cli(db, "status", "1")
    assert code == 0 and "下一轮：第1轮第1桌（" in out and "：结果未录入" in out and "result missing" not in out, out
    code, out = cli(db, "result", "1", "-r", "1", "-t", "1", "--levels", "10:10")
    assert code == 2 and "a knockout match needs a winner" in out and "(10:10)" in out
    code, out = cli(db, "result", "1", "-r", "1", "-t", "1", "--levels", "10:10", "--decider", "home")
    assert code == 0
    assert cli(db, "confirm", "1", "-r", "1", "-t", "1")[0] == 0
    code, out = cli(db, "status", "1")
    assert "round 1 of 3" in out
    for r in (2, 3):
        code, out = cli(db, "pair", "1")
        assert code == 0 and f"round {r} of 3" in out, out
        for ts in Desk.open(db).state(1).rounds[r].tables.values():
            assert cli(db, "result", "1", "-r", str(r), "-t", str(ts.table.number), "--levels", "A:J",
                       "--passed-a", "home")[0] == 0
            assert cli(db, "confirm", "1", "-r", str(r), "-t", str(ts.table.number))[0] == 0
    code, out = cli(db, "bracket", "1", "--lang", "zh")
    assert code == 0 and "冠军：" in out and "1/4决赛" in out and "加赛胜" in out and "并列第3名" in out
    assert all(width(line) <= 80 for line in out.splitlines()), max(out.splitlines(), key=width)
    assert re.search(r"\bT\b", out) is None  # 10 is written 10
    code, out = cli(db, "bracket", "1", "--json")
    data = json.loads(out)
    assert data["champion"]["players"] == list(Desk.open(db).state(1).teams[data["champion"]["team_id"]].players)
    code, out = cli(db, "prizes", "1", "--lang", "en")
    assert code == 0 and "Champion (冠军)" in out and "Sunshine prize (阳光普照奖)" in out
    prize = json.loads(cli(db, "prizes", "1", "--json")[1])
    assert [p["prize"] for p in prize["prizes"]] == ["champion", "runner_up", "sunshine"]
    assert sum(len(p["teams"]) for p in prize["prizes"]) == 5
    assert state.cfg.rounds == 0  # no --rounds: as many as the teams need


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "cup"], "format must be one of pairs-swiss, knockout"),
    (["--partners", "random"], "for knockout events"),
    (["--format", "knockout", "--partners", "any"], "partners must be one of fixed, random"),
    (["--format", "knockout", "--rounds", "100"], "rounds must be in 0…99"),
])
def test_bad_knockout_options(tmp_path: Path, args: list[str], message: str) -> None:
    db = f"sqlite:///{tmp_path / 'n.sqlite3'}"
    code, out = cli(db, "new", "X", *args)
    assert code == 2 and message in out, out
    assert Desk.open(db).tournaments() == []


def test_fixed_teams_through_the_cli_and_the_rounds_limit(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'f.sqlite3'}"
    assert cli(db, "new", "Cup", "--format", "knockout", "--rounds", "2", "--seed", "1", "--per-round")[0] == 0
    for i in range(1, 5):
        assert cli(db, "register", "1", f"Team {i}", "--players", f"a{i},b{i}", "--rating", str(2000 - i))[0] == 0
    code, out = cli(db, "register", "1", "Team 5", "--players", "x,y")
    assert code == 2 and "5 teams need 3 knockout rounds" in out
    code, out = cli(db, "register", "1", "--player", "Solo")
    assert code == 2 and "fixed partners" in out
    code, out = cli(db, "pair", "1")
    assert code == 0 and "seeded by rating" in out and "table 1: Team 1 (N–S)  v  Team 4 (E–W)" in out
    code, out = cli(db, "bracket", "1", "--lang", "en")
    assert "Round 1 · Semi-finals" in out and "winner of round 1 match 1" in out
    code, out = cli(db, "pair", "1", "--repair", "--tables", "1-2")
    assert code == 2 and "follow from its bracket" in out


def test_the_bracket_json_shape(desk: Desk) -> None:
    tid = fixed_event(desk, 3)
    assert bracket_data(desk.state(tid))["rounds"] == []  # not drawn yet
    desk.pair_next(tid)
    data = bracket_data(desk.state(tid))
    assert set(data) == {"tournament", "name", "format", "partners", "tie_rule", "team_count", "player_count",
                         "bracket_size", "bye_count", "round_count", "current_round", "finished", "seeding", "seed",
                         "partners_draw", "rounds", "champion", "runner_up", "placings", "prizes"}
    assert (data["team_count"], data["bracket_size"], data["bye_count"], data["round_count"]) == (3, 4, 1, 2)
    assert data["champion"] is None and data["tie_rule"] == "decider_deal"
    first, final = data["rounds"]
    assert (first["stage"], final["stage"], final["paired"]) == ("semi_final", "final", False)
    bye, table = first["matches"]
    assert set(bye) == {"round", "match", "table", "home", "away", "status", "result", "winner"}
    assert (bye["status"], bye["table"], bye["away"], bye["winner"]["name"]) == ("bye", None, None, "T1")
    assert (table["status"], table["table"], table["winner"]) == ("missing", 1, None)
    assert set(table["home"]) == {"id", "name", "players", "club", "withdrawn"}
    assert final["matches"][0]["home"]["name"] == "T1"  # the bye's winner is known before round 2 is paired
    assert final["matches"][0]["status"] == "waiting"


# ---- the web page -----------------------------------------------------------------------------------------
@pytest.fixture
def client(desk: Desk) -> TestClient:
    api = FastAPI()
    api.include_router(create_router(desk, base_url="https://cup.example"))
    return TestClient(api)


def test_the_bracket_page(client: TestClient, desk: Desk, new_event: Callable[..., int]) -> None:
    tid = fixed_event(desk, 6)
    page = client.get(f"/t/{tid}/bracket")
    assert page.status_code == 200 and "对阵尚未抽签" in page.text
    desk.pair_next(tid)
    play_round(desk, tid, lambda ts: ResultSlip.parse("10:10", decider="away"))
    page = client.get(f"/t/{tid}/bracket")
    assert page.status_code == 200 and 'http-equiv="refresh"' in page.text and "@media print" in page.text
    assert "淘汰赛对阵" in page.text and "第1轮" in page.text and "1/4决赛" in page.text and "半决赛" in page.text
    assert "轮空" in page.text and "加赛胜" in page.text and ">10<" in page.text and ">T<" not in page.text
    assert "第1轮第1场胜者" not in page.text and "尚未编排" in page.text
    en = client.get(f"/t/{tid}/bracket?lang=en&refresh=0")
    assert "Quarter-finals" in en.text and ">decider<" in en.text and 'http-equiv="refresh"' not in en.text
    client.cookies.set("lang", "en")
    assert "Semi-finals" in client.get(f"/t/{tid}/bracket").text  # the lang cookie
    client.cookies.clear()
    assert "淘汰赛对阵" in client.get(f"/t/{tid}/bracket?lang=fr").text  # a language we lack: the default
    assert client.get("/t/99/bracket").status_code == 404
    swiss = new_event(4)
    assert client.get(f"/t/{swiss}/bracket").status_code == 400
    assert client.get(f"/api/t/{swiss}/bracket").json()["error"].endswith("see its standings")
    api = client.get(f"/api/t/{tid}/bracket").json()
    assert api == json.loads(json.dumps(bracket_data(desk.state(tid))))
    for _ in range(2):
        desk.pair_next(tid)
        play_round(desk, tid)
    page = client.get(f"/t/{tid}/bracket")
    champion = bracket_data(desk.state(tid))["champion"]["team"]
    assert f"<b>冠军：{champion}</b>" in page.text and "阳光普照奖" in page.text and "并列第3名" in page.text


def test_a_level_round_entered_on_the_table_page(client: TestClient, desk: Desk) -> None:
    tid = fixed_event(desk, 2)
    desk.pair_next(tid)
    st = desk.state(tid)
    away, home = st.team_code(1, 1, 1), st.team_code(1, 1, 0)
    client.post(f"/t/{tid}/table/1/1/code", data={"code": away})
    form = {"home_level": "9", "away_level": "9", "passed_a": "none", "deals": "8"}
    assert 'name="decider"' in client.get(f"/t/{tid}/table/1/1").text
    res = client.post(f"/t/{tid}/table/1/1/result", data=form)
    assert res.status_code == 400 and "淘汰赛须决出胜方，而双方级数相同（9:9）" in res.text
    assert client.post(f"/t/{tid}/table/1/1/result", data={**form, "decider": "away"}).status_code == 200
    assert desk.state(tid).table(1, 1).pending == ResultSlip(("9", "9"), None, 8, None, 1)
    api = f"/api/t/{tid}/table/1/1/result"
    res = client.post(f"{api}/answer", json={"code": home, "action": "reject"})
    assert res.status_code == 200
    res = client.post(api, json={"code": away, "levels": ["9", "9"], "decider": "home"})
    assert res.status_code == 200 and res.json()["pending_result"]["decider"] == "home"
    arbiter = client.get(f"/t/{tid}/arbiter?key={SECRET}&lang=en").text
    assert "Round 1 of 1" in arbiter and f"/t/{tid}/bracket" in arbiter and "won the deciding deal" in arbiter


# ---- the catalogue ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_bracket_string_is_in_the_desk_catalogue(lang: str) -> None:
    ids = extract_msgids([SRC / "bracket.py", SRC / "web_bracket.py"])
    template = (SRC / "templates" / "bracket.html").read_text(encoding="utf-8")
    ids |= set(re.findall(r'_\("((?:[^"\\]|\\.)*)"\)', template))
    assert len(ids) > 40
    assert missing("desk", lang, ids) == []


def test_a_team_that_withdraws_after_the_pairing_forfeits_its_table(desk: Desk) -> None:
    tid = fixed_event(desk, 8)
    desk.pair_next(tid)
    play_round(desk, tid)
    desk.pair_next(tid)  # T1 v T4, T2 v T3
    desk.withdraw(tid, "T4", reason="called away")
    st = desk.state(tid)
    assert not st.knockout_stale(2) and names(st, st.rounds[2].matches[0]) == ("T1", "T4")
    desk.override(tid, 2, 1, ResultSlip(None, forfeit=1), reason="T4 left")  # no re-pair: T4 forfeits
    desk.override(tid, 1, 2, ResultSlip.parse("K:6"), reason="levels corrected")
    assert [e.type for e in desk.events(tid)[-2:]] == ["result_overridden", "result_overridden"]
    desk.override(tid, 2, 2, ResultSlip.parse("A:Q"), reason="slip")
    final = desk.pair_next(tid)
    assert names(desk.state(tid), final.matches[0]) == ("T1", "T2")
    row = next(r for r in bracket_data(desk.state(tid))["placings"] if r["team"] == "T4")
    assert (row["place"], row["eliminated_in"]) == (3, 2)


def test_a_level_final_result_without_a_decider_blocks_the_next_round(desk: Desk) -> None:
    """However a table's result became final (deal by deal, say), a knockout never pairs past a level round."""
    tid = fixed_event(desk, 4)
    desk.pair_next(tid)
    play_round(desk, tid)
    st = desk.state(tid)
    ts = st.table(1, 2)
    ts.final = ResultSlip(("9", "9"))
    ts.result = ts.final.score(st.cfg.match_points, st.cfg.lateness)
    assert st.match_winner(1, 1) is None
    assert st.pairing_blockers() == ["round 1 table 2 (T2 v T3): the round ended level and needs the winner of one "
                                     "more deal (加赛一副); set it with the decider"]


def test_the_bracket_prints(desk: Desk) -> None:
    """The bracket as a PDF for the venue's wall, through the desk's prints and the CLI."""
    tid = fixed_event(desk, 6)
    for _ in range(3):
        desk.pair_next(tid)
        play_round(desk, tid)
    state = desk.state(tid)
    champion = bracket_data(state)["champion"]["team"]
    html = make_print("bracket", state, None, "zh", pdf=False).decode()
    assert f"冠军：{champion}" in html and "阳光普照奖" in html and 'http-equiv="refresh"' not in html
    assert "Semi-finals" in make_print("bracket", state, None, "en", pdf=False).decode()
    pdf = make_print("bracket", state)
    assert pdf.startswith(b"%PDF-") and len(pdf) > 5000


def test_the_bracket_counts_one_and_many_in_words(client: TestClient, desk: Desk) -> None:
    """A count of one reads as one ("1 team entered", "1 bye"), many as many, on the page and in the terminal."""
    def said(tid: int) -> str:
        return " ".join(client.get(f"/t/{tid}/bracket?lang=en&refresh=0").text.split())

    one_team, players = fixed_event(desk, 1), random_event(desk, 1)
    assert "1 team entered." in said(one_team)
    assert "1 player entered; the partners are drawn with the bracket." in said(players)
    desk.register_player(players, "选手2")
    assert "2 players entered;" in said(players)
    three = fixed_event(desk, 3)  # a bracket of 4: one bye, two rounds
    assert "3 teams entered." in said(three)
    desk.pair_next(three)
    page = said(three)
    assert "1 bye" in page and "1 byes" not in page
    assert bracket_lines(bracket_data(desk.state(three)), lambda s: s)[1] == (
        "Knockout: 3 teams, a bracket of 4, byes: 1, rounds: 2")
    five = fixed_event(desk, 5)
    desk.pair_next(five)
    assert "3 byes" in said(five)


def test_the_bracket_counts_one_round_as_one_and_prints_its_byes(client: TestClient, desk: Desk) -> None:
    """The page and its print say "1 round" for a bracket of two, and the print names its byes as the page does."""
    two, three = fixed_event(desk, 2), fixed_event(desk, 3)
    for tid in (two, three):
        desk.pair_next(tid)
    page = " ".join(client.get(f"/t/{two}/bracket?lang=en&refresh=0").text.split())
    assert "· 1 round" in page and "1 rounds" not in page
    assert "· 2 rounds" in " ".join(client.get(f"/t/{three}/bracket?lang=en&refresh=0").text.split())
    printed = " ".join(make_print("bracket", desk.state(three), None, "en", pdf=False).decode().split())
    assert "· 2 rounds · 1 bye" in printed
    assert "共1轮" in make_print("bracket", desk.state(two), None, "zh", pdf=False).decode()
