"""Per-deal reporting, the round clock and the lock-out after wrong codes, through the desk and the CLI."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.core.rules import preset
from guandan.core.scoring import settle_deal
from guandan.db import make_engine
from guandan.tournament.cli import app
from guandan.tournament.deals import parse_finish, settle_deals
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.pagelang import explain
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.state import CODE_LIMIT, DISPUTED, FINAL, IN_PLAY, MISSING, replay

from .conftest import unchanged

T0 = datetime(2026, 5, 1, 6, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> datetime:
        return self.t

    def at(self, minutes: float) -> None:
        self.t = T0 + timedelta(minutes=minutes)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def desk(clock: Clock) -> Iterator[Desk]:
    engine = make_engine("sqlite://")
    yield Desk(engine, clock=clock)
    engine.dispose()


def _event(desk: Desk, teams: int = 4, **limits: object) -> int:
    cfg = EventConfig(name="Per-deal Cup", rounds=2, per_deal=True, limits=RoundLimits(**limits))  # type: ignore[arg-type]
    tid = desk.create(cfg, secret="per-deal-secret")
    for i in range(1, teams + 1):
        desk.register(tid, f"T{i}", [f"P{i}a", f"P{i}b"])
    desk.pair_next(tid)
    return tid


def _play(desk: Desk, tid: int, finish: str, table: int = 1) -> None:
    tb = desk.state(tid).table(1, table).table
    n = len(desk.state(tid).table(1, table).deals) + 1
    desk.report_deal(tid, 1, table, n, finish, by=tb.away)
    desk.confirm_deal(tid, 1, table, n, by=tb.home)


def test_finishing_orders() -> None:
    assert parse_finish("NSE") == (0, 2, 1, 3)
    assert parse_finish("N, S, E, W") == (0, 2, 1, 3)
    assert parse_finish(["west", "北", "E"]) == (3, 0, 1, 2)
    for bad, why in (("NS", "three or four"), ("NNE", "twice"), ("NXE", "N, E, S or W"), (7, "three or four seats")):
        with pytest.raises(TournamentError, match=why):
            parse_finish(bad)


def test_levels_follow_the_core_rules() -> None:
    rules = preset("competition")
    orders = ["NSE", "EWN", "NES", "WEN", "NWS", "SNE", "SNW", "ENW"]
    got, _ = settle_deals([{"finish": f} for f in orders], rules, 3)
    levels, declarer, fails = (0, 0), None, (0, 0)
    streaks = None
    for entry, f in zip(got, orders, strict=True):
        s = settle_deal(levels, declarer, parse_finish(f), rules, fails, streaks)
        levels, declarer, fails, streaks = s.levels_after, s.declarer_after, s.a_failures_after, s.streaks_after
        assert entry.levels == (levels[0] + 2, levels[1] + 2)
        assert entry.winner == parse_finish(f)[0] % 2
    assert [e.upgrade for e in got[:3]] == [3, 3, 2]  # 双上, 双上, 1-3


def test_report_confirm_reject_dispute(desk: Desk) -> None:
    tid = _event(desk)
    tb = desk.state(tid).table(1, 1).table
    home, away = tb.home, tb.away
    unchanged(desk, tid, lambda: desk.enter_result(tid, 1, 1, ResultSlip.parse("A:6"), by=away),
               "reports every deal")
    unchanged(desk, tid, lambda: desk.report_deal(tid, 1, 1, 2, "NSE", by=away), "is deal 1, not 2")
    e = desk.report_deal(tid, 1, 1, 1, "N S E", by=away)
    assert (e.levels, e.upgrade, e.winner) == ((5, 2), 3, 0)
    ts = desk.state(tid).table(1, 1)
    assert ts.status == IN_PLAY and ts.deals == [] and ts.pending_deal is not None
    unchanged(desk, tid, lambda: desk.confirm_deal(tid, 1, 1, 1, by=away), "other team must confirm the deal")
    unchanged(desk, tid, lambda: desk.report_deal(tid, 1, 1, 1, "EWN", by=away), "waiting for")
    unchanged(desk, tid, lambda: desk.report_deal(tid, 1, 1, 1, "EWN", by=home), "waiting for")
    desk.reject_deal(tid, 1, 1, 1, by=home, reason="East went out first")
    ts = desk.state(tid).table(1, 1)
    assert (ts.status, ts.pending_deal, ts.note) == (MISSING, None, "East went out first")
    desk.report_deal(tid, 1, 1, 1, "E W N", by=away)
    desk.confirm_deal(tid, 1, 1, 1, by=home)
    assert desk.state(tid).table(1, 1).levels_now == (2, 5)
    desk.report_deal(tid, 1, 1, 2, "NSE", by=away)
    desk.dispute_deal(tid, 1, 1, 2, by=home, reason="we played 3 of spades last")
    assert desk.state(tid).table(1, 1).status == DISPUTED
    # after a dispute neither team can go on: the arbiter sets the deals
    unchanged(desk, tid, lambda: desk.confirm_deal(tid, 1, 1, 2, by=home), "disputed")
    unchanged(desk, tid, lambda: desk.report_deal(tid, 1, 1, 2, "NSE", by=away), "disputed")
    unchanged(desk, tid, lambda: desk.set_deals(tid, 1, 1, [{"finish": "EWN"}], reason=""), "needs a reason")
    desk.set_deals(tid, 1, 1, [{"finish": "EWN"}, {"finish": "NES"}], reason="witness at the table")
    ts = desk.state(tid).table(1, 1)
    assert ts.status == IN_PLAY and ts.levels_now == (4, 5) and len(ts.deals) == 2
    assert replay(desk.events(tid)).table(1, 1).deals == ts.deals


def test_deal_cap_and_passing_a_end_the_round(desk: Desk) -> None:
    tid = _event(desk, max_deals=3, max_minutes=None, warning_minutes=0)
    for f in ("NSE", "ENW", "NES"):
        _play(desk, tid, f)
    ts = desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.ended_by == "deals" and ts.source == "deals"
    assert ts.final is not None and ts.final.deals == 3 and ts.result is not None
    assert ts.result.levels == (7, 4) and ts.result.winner == 0
    unchanged(desk, tid, lambda: desk.report_deal(tid, 1, 1, 4, "NSE", by=ts.table.away), "final result")
    # home goes up 3 a deal to A, then passes A with a 双上 as the declarer
    tid2 = _event(desk, max_deals=None, max_minutes=None, warning_minutes=0)
    for _ in range(4):
        _play(desk, tid2, "NSE")
    ts2 = desk.state(tid2).table(1, 1)
    assert ts2.levels_now == (14, 2) and ts2.status == IN_PLAY
    _play(desk, tid2, "NSE")
    ts2 = desk.state(tid2).table(1, 1)
    assert ts2.status == FINAL and ts2.ended_by == "pass_a"
    assert ts2.result is not None and ts2.result.passed_a == 0 and ts2.final is not None and ts2.final.passed_a == 0


def test_no_new_deal_after_the_warning(desk: Desk, clock: Clock) -> None:
    tid = _event(desk)  # 8 deals, 50 minutes, warning 5 minutes before
    st = desk.state(tid)
    assert st.round_clock(1)["phase"] == "not_started"
    desk.start_round(tid)
    st = desk.state(tid)
    assert st.rounds[1].started_at == T0.isoformat()
    assert st.round_clock(1, T0 + timedelta(minutes=44))["phase"] == "play"
    assert st.round_clock(1, T0 + timedelta(minutes=44))["seconds_left"] == 6 * 60
    assert st.round_clock(1, T0 + timedelta(minutes=45))["phase"] == "warning"
    assert st.round_clock(1, T0 + timedelta(minutes=51))["phase"] == "over"
    unchanged(desk, tid, lambda: desk.start_round(tid), "running since")
    clock.at(20)
    _play(desk, tid, "NSE")
    clock.at(44.9)
    _play(desk, tid, "NES")
    assert desk.state(tid).table(1, 1).status == IN_PLAY
    clock.at(52)  # the deal in progress at the warning is played to its end, then the round is over
    _play(desk, tid, "EWN")
    ts = desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.ended_by == "time" and ts.final is not None and ts.final.deals == 3
    # the replay reads the entries' own times: the same result whenever it runs
    assert replay(desk.events(tid)).table(1, 1).ended_by == "time"


def test_lateness_award_and_arbiter_end(desk: Desk) -> None:
    tid = _event(desk)
    unchanged(desk, tid, lambda: desk.set_deals(tid, 1, 2, [], reason="time", end=True), "no deal was played")
    unchanged(desk, tid, lambda: desk.set_deals(tid, 1, 2, [{"finish": "NSE"}, {"award": "home"}], reason="late"),
               "first deal only")
    desk.set_deals(tid, 1, 2, [{"award": "away"}], reason="home 7 minutes late")
    ts = desk.state(tid).table(1, 2)
    assert ts.levels_now == (2, 5) and ts.deals[0].finish is None
    _play(desk, tid, "NSE", table=2)
    assert desk.state(tid).table(1, 2).levels_now == (5, 5)
    desk.set_deals(tid, 1, 2, [{"award": "away"}, {"finish": "NSE"}], reason="time", end=True)
    ts = desk.state(tid).table(1, 2)
    assert ts.status == FINAL and ts.ended_by == "arbiter" and ts.result is not None and ts.result.winner is None


def test_wrong_codes_lock_the_table(desk: Desk) -> None:
    tid = _event(desk)
    st = desk.state(tid)
    home_code, away_code = st.team_code(1, 1, 0), st.team_code(1, 1, 1)
    assert home_code != away_code and len(home_code) == 6 and home_code.isdigit()
    assert desk.check_code(tid, 1, 1, away_code) == 1 and desk.check_code(tid, 1, 1, f" {home_code} ") == 0
    wrong = next(c for c in ("000000", "111111", "222222") if c not in (home_code, away_code))
    for n in range(1, CODE_LIMIT):
        with pytest.raises(TournamentError, match=f"Tries left before the table is locked: {CODE_LIMIT - n}"):
            desk.check_code(tid, 1, 1, wrong)
        # a right code in between does not reset the count: a team knowing its own code cannot keep guessing
        desk.check_code(tid, 1, 1, away_code)
    with pytest.raises(TournamentError, match="now locked"):
        desk.check_code(tid, 1, 1, wrong)
    kinds = [e.type for e in desk.events(tid)]
    assert kinds.count("code_refused") == CODE_LIMIT and kinds[-1] == "table_locked"
    n_events = len(kinds)
    for code in (wrong, away_code):  # nothing more is counted, and even a right code is refused
        with pytest.raises(TournamentError, match="locked after 5 wrong codes") as e:
            desk.check_code(tid, 1, 1, code)
        assert e.value.msgid is not None and e.value.params["n"] == CODE_LIMIT
    assert len(desk.events(tid)) == n_events
    tb = desk.state(tid).table(1, 1).table
    unchanged(desk, tid, lambda: desk.report_deal(tid, 1, 1, 1, "NSE", by=tb.away), "locked")
    desk.unlock_table(tid, 1, 1, reason="checked the players")
    assert desk.check_code(tid, 1, 1, home_code) == 0
    assert desk.state(tid).table(1, 1).wrong_codes == 0
    unchanged(desk, tid, lambda: desk.unlock_table(tid, 1, 1), "not locked")
    # other tables were never affected
    assert not desk.state(tid).table(1, 2).locked


def test_cli_per_deal_round(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    run = CliRunner()

    def ok(*args: str) -> str:
        res = run.invoke(app, [*args, "--db", db])
        assert res.exit_code == 0, res.output
        return res.output

    def refused(match: str, *args: str) -> None:
        before = run.invoke(app, ["log", "1", "--json", "--db", db]).output
        res = run.invoke(app, [*args, "--db", db])
        assert res.exit_code == 2 and match in res.output, res.output
        assert run.invoke(app, ["log", "1", "--json", "--db", db]).output == before

    ok("new", "CLI Cup", "--rounds", "1", "--seed", "5", "--max-deals", "2")
    for i in (1, 2):
        ok("register", "1", f"T{i}", "--players", f"a{i},b{i}")
    ok("pair", "1")
    ok("start", "1")
    assert "deal 1: reported" in ok("deal", "1", "-r", "1", "-t", "1", "--finish", "N,S,E")
    assert "deals waiting for the other team: table 1 (deal 1)" in ok("status", "1")
    assert "round clock: play" in ok("status", "1")
    refused("other team must confirm", "deal", "1", "-r", "1", "-t", "1", "--confirm", "--by", "east")
    ok("deal", "1", "-r", "1", "-t", "1", "--confirm", "--by", "south")
    ok("deal", "1", "-r", "1", "-t", "1", "--finish", "W E N", "--by", "东西")
    out = ok("deal", "1", "-r", "1", "-t", "1", "--confirm", "--by", "北")
    assert "10" not in out or "T" not in out.split("confirmed", 1)[1]
    assert "the result is final" in out
    listing = ok("deals", "1", "-r", "1", "-t", "1")
    assert "deal 1: North South East West " in listing and "status: final (the deal limit was reached)" in listing
    refused("give --finish", "deal", "1", "-r", "1", "-t", "1")
    refused("a seat is N, E, S or W", "deal", "1", "-r", "1", "-t", "1", "--finish", "NXE")
    refused("ISO 8601", "start", "1", "--at", "half past two")


@pytest.mark.parametrize(("lang", "lines"), [
    ("zh_CN.UTF-8", ["第1副：判给主队    5:2", "第2副：东 西 南 北 5:5", "第3副：北 南 西 东 8:5",
                     "第4副：西 北 东 南，有争议；用 --set 裁定", "状态：有争议（三游应为南家）"]),
    ("en", ["deal 1: award home            5:2", "deal 2: East West South North 5:5",
            "deal 3: North South West East 8:5", "deal 4: West North East South disputed; settle it with --set",
            "status: disputed (三游应为南家)"]),
])
def test_the_deals_listing_names_the_seats_in_the_readers_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, lines: list[str]) -> None:
    """The seats are the catalogue's seat names (北 东 南 西 in Chinese, as the table's page has them), never
    the letters N/E/S/W in Chinese; the listing's words go back into --set as they are."""
    monkeypatch.delenv("LANGUAGE")
    monkeypatch.setenv("LANG", lang)
    db = f"sqlite:///{tmp_path / 'seats.db'}"
    run = CliRunner()

    def ok(*args: str) -> str:
        res = run.invoke(app, [*args, "--db", db])
        assert res.exit_code == 0, res.output
        return res.output

    ok("new", "Seats Cup", "--rounds", "1", "--seed", "5", "--max-deals", "6")
    for i in (1, 2):
        ok("register", "1", f"T{i}", "--players", f"a{i},b{i}")
    ok("pair", "1")
    ok("deals", "1", "-r", "1", "-t", "1", "--set", "award:home; E W S; N S W", "--reason", "late")
    ok("deal", "1", "-r", "1", "-t", "1", "--finish", "W N E")
    ok("deal", "1", "-r", "1", "-t", "1", "--dispute", "--reason", "三游应为南家")
    listing = ok("deals", "1", "-r", "1", "-t", "1")
    assert listing.splitlines() == lines, listing
    if lang.startswith("zh"):
        assert not set("NESW") & set(listing), listing
    # what the listing says of the settled deals, the lateness award included, typed back with --set, stands
    said = "; ".join(line.split(maxsplit=2)[2].rsplit(" ", 1)[0].strip() if lang == "en"
                     else line.split("：", 1)[1].rsplit(" ", 1)[0].strip() for line in lines[:3])
    assert said.startswith("判给主队; " if lang.startswith("zh") else "award home; "), said
    ok("deals", "1", "-r", "1", "-t", "1", "--set", said, "--reason", "as listed")
    assert ok("deals", "1", "-r", "1", "-t", "1").splitlines()[:3] == lines[:3]


def test_cli_round_result_words(tmp_path: Path) -> None:
    """--by takes every seat and both team names; a result waiting is not replaced by entering again."""
    db = f"sqlite:///{tmp_path / 'r.db'}"
    run = CliRunner()

    def cli(*args: str) -> tuple[int, str]:
        res = run.invoke(app, [*args, "--db", db])
        return res.exit_code, res.output

    assert cli("new", "Round Cup", "--rounds", "1", "--per-round", "--seed", "2")[0] == 0
    for name in ("Red", "Blue"):
        cli("register", "1", name, "--players", f"{name} 1,{name} 2")
    cli("pair", "1")
    code, out = cli("result", "1", "-r", "1", "-t", "1", "--levels", "A:6", "--deals", "0", "--by", "east")
    assert code == 2 and "deals played must be 1 or more" in out
    code, out = cli("result", "1", "-r", "1", "-t", "1", "--levels", "A:6", "--by", "east")
    assert code == 0, out
    code, out = cli("result", "1", "-r", "1", "-t", "1", "--levels", "K:6", "--by", "west")
    assert code == 2 and "waiting for" in out
    code, out = cli("confirm", "1", "-r", "1", "-t", "1", "--by", "west")
    assert code == 2 and "other team must confirm" in out
    code, out = cli("confirm", "1", "-r", "1", "-t", "1", "--reject", "--by", "south", "--reason", "K:6")
    assert code == 0, out
    assert cli("result", "1", "-r", "1", "-t", "1", "--levels", "K:6", "--by", "east")[0] == 0
    state = Desk.open(db).state(1)
    home = state.teams[state.table(1, 1).table.home].name
    code, out = cli("confirm", "1", "-r", "1", "-t", "1", "--by", home)
    assert code == 0 and "confirmed" in out


def test_a_level_knockout_round_waits_for_its_deciding_deal(desk: Desk) -> None:
    """Per-deal reporting in a knockout: a round that ends level is decided by one more deal, reported and
    confirmed like the others; its first out wins the match and the levels stay."""
    from guandan.tournament.bracket import bracket_data

    cfg = EventConfig(name="KO Cup", format="knockout", per_deal=True, limits=RoundLimits(max_deals=2))
    tid = desk.create(cfg, secret="knockout-secret")
    for name in ("Red", "Blue"):
        desk.register(tid, name, [f"{name} a", f"{name} b"])
    desk.pair_next(tid)
    _play(desk, tid, "NSE")
    _play(desk, tid, "EWN")
    ts = desk.state(tid).table(1, 1)
    assert ts.levels_now == (5, 5) and ts.deciding and ts.status == IN_PLAY and ts.ended_by == "deals"
    tb = ts.table
    e = desk.report_deal(tid, 1, 1, 3, "W N E", by=tb.away)
    assert (e.levels, e.winner, e.upgrade) == ((5, 5), 1, 0)
    unchanged(desk, tid, lambda: desk.confirm_deal(tid, 1, 1, 3, by=tb.away), "other team must confirm")
    desk.confirm_deal(tid, 1, 1, 3, by=tb.home)
    ts = desk.state(tid).table(1, 1)
    assert ts.status == FINAL and not ts.deciding and ts.final is not None and ts.final.decider == 1
    assert ts.final.deals == 2 and ts.result is not None and ts.result.levels == (5, 5)
    champion = bracket_data(desk.state(tid))["champion"]
    assert champion is not None and champion["team"] == desk.state(tid).teams[tb.away].name
    assert replay(desk.events(tid)).table(1, 1).final == ts.final


def test_a_table_the_arbiter_locked_says_so_and_counts_no_wrong_codes(desk: Desk) -> None:
    """A lock the arbiter set after one wrong code is the arbiter's, not "locked after 1 wrong codes"."""
    tid = _event(desk)
    st = desk.state(tid)
    wrong = next(c for c in ("000000", "111111", "222222") if c not in (st.team_code(1, 1, 0), st.team_code(1, 1, 1)))
    with pytest.raises(TournamentError, match="Tries left"):
        desk.check_code(tid, 1, 1, wrong)
    desk.lock_table(tid, 1, 1, "the players argued")
    with pytest.raises(TournamentError) as e:
        desk.check_code(tid, 1, 1, st.team_code(1, 1, 1))
    assert str(e.value) == "Round 1 table 1 is locked by the arbiter: the arbiter must unlock it"
    assert explain(e.value, "zh").detail == "第1轮第1桌已被裁判锁定：需裁判解锁"
    tb = desk.state(tid).table(1, 1).table
    unchanged(desk, tid, lambda: desk.report_deal(tid, 1, 1, 1, "NSE", by=tb.away), "^Round 1 table 1 is locked by the arbiter")
