"""`guandan tournament …`: every command, and bad input → exit 2, a message naming the problem, nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.tournament.cli import app
from guandan.tournament.desk import Desk

runner = CliRunner()


def _event(folder: Path) -> str:
    url = f"sqlite:///{folder / 't.sqlite3'}"
    assert runner.invoke(app, ["new", "CLI Cup", "--rounds", "2", "--seed", "4", "--per-round", "--db", url]).exit_code == 0
    for i in range(1, 6):
        res = runner.invoke(app, ["register", "1", f"Team {i}", "--players", f"p{i},q{i}", "--club", f"C{i % 2}",
                                  "--db", url])
        assert res.exit_code == 0, res.output
    return url


@pytest.fixture
def db(tmp_path: Path) -> str:
    return _event(tmp_path)


@pytest.fixture(scope="module")
def shared_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One event for the refusals: each must leave it as it was, which the test checks."""
    return _event(tmp_path_factory.mktemp("refusals"))


def run(db: str, *args: str) -> tuple[int, str]:
    res = runner.invoke(app, [*args, "--db", db])
    return res.exit_code, res.output


def _log_size(db: str) -> int:
    return len(Desk.open(db).events(1))


@pytest.mark.parametrize(("args", "message"), [
    (["register", "1", "Team 1", "--players", "x,y"], "already registered"),
    (["register", "1", "Solo", "--players", "x"], "two players"),
    (["register", "9", "X", "--players", "x,y"], "no tournament number 9"),
    (["result", "1", "-r", "1", "-t", "1", "--levels", "A:6"], "round 1 has not been paired"),
    (["confirm", "1", "-r", "1", "-t", "1"], "round 1 has not been paired"),
    (["pair", "1", "--tables", "1-2"], "add --repair"),
    (["pair", "1", "--repair"], "nothing to re-pair"),
    (["standings", "1", "--after-round", "3"], "--after-round must be 0…0"),
    (["export", "1", "--format", "pdf", "--out", "x"], "xlsx, csv or json"),
    (["slips", "1", "--out", "x", "--base-url", "example.org"], "http://"),
    (["withdraw", "1", "Nobody"], 'no team named "Nobody"'),
])
def test_bad_input_exits_2_and_changes_nothing(shared_db: str, args: list[str], message: str) -> None:
    before = _log_size(shared_db)
    code, out = run(shared_db, *args)
    assert code == 2, out
    assert "error:" in out and message in out
    assert _log_size(shared_db) == before


@pytest.mark.parametrize(("args", "message"), [
    (["--match-points", "2,x,0"], "three integers"),
    (["--match-points", "2,1"], "three numbers"),
    (["--tiebreaks", "match_points,luck"], "unknown tie-break(s) luck"),
    (["--preset", "poker"], "poker"),
    (["--rules", "{bad json"], "malformed"),
    (["--bye-score", "A-6"], "like A:6"),
    (["--first-round", "swiss"], "first_round"),
    (["--rounds", "0"], "rounds"),
])
def test_bad_new_options(tmp_path: Path, args: list[str], message: str) -> None:
    url = f"sqlite:///{tmp_path / 'n.sqlite3'}"
    res = runner.invoke(app, ["new", "X", *args, "--db", url])
    assert res.exit_code == 2 and message in res.output, res.output
    assert Desk.open(url).tournaments() == []


def test_a_round_through_the_cli(db: str, tmp_path: Path) -> None:
    code, out = run(db, "pair", "1")
    assert code == 0 and "round 1 (random, seed 4)" in out and "bye" in out
    state = Desk.open(db).state(1)
    home = state.teams[state.table(1, 1).table.home].name
    code, out = run(db, "result", "1", "-r", "1", "-t", "1", "--levels", "A:6", "--passed-a", "away")
    assert code == 2 and "recorded at level A" in out
    code, out = run(db, "result", "1", "-r", "1", "-t", "1", "--forfeit", "home", "--late-minutes", "7")
    assert code == 2 and "not a forfeit" in out and "first deal (+3)" in out
    assert run(db, "result", "1", "-r", "1", "-t", "1", "--levels", "A:6", "--passed-a", "home")[0] == 0
    code, out = run(db, "confirm", "1", "-r", "1", "-t", "1", "--by", "away")
    assert code == 2 and "other team" in out
    code, out = run(db, "confirm", "1", "-r", "1", "-t", "1", "--dispute", "--reason", "we won", "--by", home)
    assert code == 0 and "disputed" in out
    code, out = run(db, "status", "1")
    assert "disputed" in out and "result disputed" in out
    code, out = run(db, "pair", "1")
    assert code == 2 and "cannot be paired yet" in out
    assert run(db, "result", "1", "-r", "1", "-t", "1", "--levels", "K:6", "--override", "--reason", "arbiter")[0] == 0
    assert run(db, "result", "1", "-r", "1", "-t", "2", "--levels", "7:7", "--override")[0] == 2  # no reason
    assert run(db, "result", "1", "-r", "1", "-t", "2", "--levels", "7:7", "--override", "--reason", "r")[0] == 0
    code, out = run(db, "standings", "1")
    assert code == 0 and "场分 MP" in out and "对手分 Opp MP" in out and "级差分 Net lvls" in out
    page_file = tmp_path / "slips" / "r1.html"
    code, out = run(db, "slips", "1", "--out", str(page_file), "--png", "--base-url", "https://cup.example")
    assert code == 0, out
    page = page_file.read_text(encoding="utf-8")
    assert page.count("<svg") == 4 and "https://cup.example/t/1/table/1/2?side=away" in page  # a code per team
    assert (tmp_path / "slips" / "table-1-1-home.png").read_bytes()[:4] == b"\x89PNG"
    code, out = run(db, "log", "1", "--json")
    assert code == 0 and '"secret": "***"' in out and "result_disputed" in out
    assert "CLI Cup" in run(db, "list")[1]
    code, out = run(db, "withdraw", "1", "Team 5", "--reason", "left")
    assert code == 0
    code, out = run(db, "pair", "1")
    assert code == 0 and "bye" not in out  # four teams left


def test_mounted_under_the_guandan_command() -> None:
    from guandan import cli

    if not any(g.name == "tournament" for g in cli.app.registered_groups):
        cli._mount()
    res = runner.invoke(cli.app, ["tournament", "--help"])
    assert res.exit_code == 0, res.output
    for command in ("new", "register", "pair", "result", "confirm", "standings", "export", "slips"):
        assert command in res.output
    # what the desk runs, in words an arbiter knows: every kind of event, and no name of the project's sources
    said = " ".join(res.output.split())
    assert "pairs events, Swiss (RULES.md §5.4) or knockout" in said and "Seed" not in said


def test_only_new_creates_a_database(tmp_path: Path) -> None:
    """A mistyped --db must not leave an empty database (or folders) behind."""
    missing = tmp_path / "nowhere" / "events.db"
    code, out = run(f"sqlite:///{missing}", "standings", "1")
    assert code == 2 and "no tournament database" in out and str(missing) in out
    assert not missing.parent.exists()
    code, out = run("notaurl::", "list")
    assert code == 2 and "not a database URL" in out
