"""The desk's side of online events: the creation note, the CLI's --online and its online commands, the
arbiter's pause, resume and replacement of a player as log entries (refused without a reason), the
server's deal report (reported and confirmed in one go) and its forfeit, and a replay of it all."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.tournament import online
from guandan.tournament.cli import app
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.state import FINAL, replay

runner = CliRunner()


@pytest.fixture
def desk(tmp_path: Path) -> Desk:
    return Desk.open(f"sqlite:///{tmp_path / 'desk.sqlite3'}")


def _event(desk: Desk, **kw: object) -> int:
    config = EventConfig(name="Online night", rounds=2, limits=RoundLimits(max_deals=2), per_deal=True, seed=1)
    tid = online.create_online(desk, config)
    desk.register(tid, "Red", ["ann", "bob"])
    desk.register(tid, "Blue", ["cat", "dan"])
    return tid


def test_an_online_event_is_marked_in_its_creation_entry(desk: Desk) -> None:
    tid = _event(desk)
    plain = desk.create(EventConfig(name="At the venue"))
    assert online.is_online(desk, tid) and not online.is_online(desk, plain)
    assert online.online_ids(desk) == [tid]
    assert online.is_online(desk, online.create_online(desk, EventConfig(name="Cup", format="knockout", rounds=0)))
    with pytest.raises(TournamentError, match="random"):
        online.create_online(desk, EventConfig(name="Draw", format="knockout", rounds=0, partners="random"))


def test_open_round_pairs_and_starts_the_clock_and_the_server_reports_deals(desk: Desk) -> None:
    tid = _event(desk)
    assert online.open_tables(desk.state(tid)) == []
    rnd = online.open_round(desk, tid)
    assert rnd.number == 1 and rnd.started_at is not None
    st = desk.state(tid)
    assert online.open_tables(st) == [(1, 1)]
    tb = st.table(1, 1).table
    assert online.seats_of(st, 1, 1) == (st.teams[tb.home].players[0], st.teams[tb.away].players[0],
                                         st.teams[tb.home].players[1], st.teams[tb.away].players[1])
    online.report_deal(desk, tid, 1, 1, 1, [0, 2, 1, 3])  # a 双上 for North–South
    after = online.report_deal(desk, tid, 1, 1, 2, "ESNW")
    ts = after.table(1, 1)
    assert ts.status == FINAL and ts.ended_by == "deals" and len(ts.deals) == 2
    assert [e.actor for e in desk.events(tid)[-4:]] == ["server"] * 4
    assert online.open_tables(desk.state(tid)) == []
    assert replay(desk.events(tid), tid).standings() == desk.state(tid).standings()


def test_the_arbiter_pauses_resumes_and_replaces_with_reasons(desk: Desk) -> None:
    tid = _event(desk)
    online.open_round(desk, tid)
    with pytest.raises(TournamentError, match="reason"):
        online.pause_table(desk, tid, 1, 1, "  ")
    online.pause_table(desk, tid, 1, 1, "a player lost the connection")
    assert desk.state(tid).table(1, 1).paused
    with pytest.raises(TournamentError, match="already paused"):
        online.pause_table(desk, tid, 1, 1, "again")
    online.resume_table(desk, tid, 1, 1)
    assert not desk.state(tid).table(1, 1).paused
    with pytest.raises(TournamentError, match="not paused"):
        online.resume_table(desk, tid, 1, 1)
    with pytest.raises(TournamentError, match="reason"):
        online.replace_player(desk, tid, "Red", "bob", "eve", "")
    with pytest.raises(TournamentError, match="not a player"):
        online.replace_player(desk, tid, "Red", "cat", "eve", "ill")
    with pytest.raises(TournamentError, match="already plays"):
        online.replace_player(desk, tid, "Red", "bob", "DAN", "ill")
    online.replace_player(desk, tid, "Red", "BOB", "eve", "bob is ill")
    assert desk.state(tid).team("Red").players == ("ann", "eve")
    assert replay(desk.events(tid), tid).team("Red").players == ("ann", "eve")


def test_a_forfeit_reported_by_the_server(desk: Desk) -> None:
    tid = _event(desk)
    online.open_round(desk, tid)
    online.report_forfeit(desk, tid, 1, 1, 1)
    ts = desk.state(tid).table(1, 1)
    assert ts.status == FINAL and ts.source == "server" and ts.result is not None and ts.result.winner == 0
    with pytest.raises(TournamentError, match="final"):
        online.pause_table(desk, tid, 1, 1, "too late")


@pytest.mark.parametrize(("lang", "teams", "said"), [
    ("en", 2, ": 1 table open on the server"), ("en", 4, ": 2 tables open on the server"),
    ("zh", 2, "：服务器上已开1桌"), ("zh", 4, "：服务器上已开2桌"),
])
def test_opening_a_round_counts_its_tables_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                                   teams: int, said: str) -> None:
    monkeypatch.setenv("LANGUAGE", lang)
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    assert runner.invoke(app, ["new", "Web Cup", "--rounds", "2", "--seed", "2", "--online", "--db", url]).exit_code == 0
    desk = Desk.open(url)
    for t in range(teams):
        desk.register(1, f"T{t}", [f"a{t}", f"b{t}"])
    res = runner.invoke(app, ["online", "round", "1", "--db", url])
    assert res.exit_code == 0 and res.output.strip().endswith(said), res.output


def test_the_cli_makes_an_online_event_and_runs_its_rounds(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    res = runner.invoke(app, ["new", "Web Cup", "--rounds", "2", "--seed", "2", "--online", "--db", url])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["new", "KO", "--format", "knockout", "--partners", "random", "--online", "--db", url])
    assert res.exit_code == 2 and "random" in res.output
    desk = Desk.open(url)
    assert online.online_ids(desk) == [1]
    desk.register(1, "Red", ["ann", "bob"])
    desk.register(1, "Blue", ["cat", "dan"])
    res = runner.invoke(app, ["online", "round", "1", "--db", url])
    assert res.exit_code == 0 and "round 1 started" in res.output, res.output
    res = runner.invoke(app, ["online", "pause", "1", "-r", "1", "-t", "1", "--reason", "a fault", "--db", url])
    assert res.exit_code == 0, res.output
    assert Desk.open(url).state(1).table(1, 1).paused
    res = runner.invoke(app, ["online", "resume", "1", "-r", "1", "-t", "1", "--db", url])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["online", "replace", "1", "Red", "bob", "Eve", "--reason", "ill", "--db", url])
    assert res.exit_code == 0, res.output
    assert Desk.open(url).state(1).team("Red").players == ("ann", "eve")
    res = runner.invoke(app, ["online", "pause", "1", "-r", "1", "-t", "9", "--reason", "x", "--db", url])
    assert res.exit_code == 2 and "no table 9" in res.output
    plain = desk.create(EventConfig(name="Venue"))
    res = runner.invoke(app, ["online", "round", str(plain), "--db", url])
    assert res.exit_code == 2 and "not an online event" in res.output
