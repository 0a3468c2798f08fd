"""Bad input to `guandan tournament …` that once slipped through: every case exits 2 with ``error: …`` naming the
problem (in Chinese too), shows no traceback or Python repr, and changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.tournament.cli import app
from guandan.tournament.desk import Desk

runner = CliRunner()
CHINESE = re.compile(r"[\u4e00-\u9fff]")
PYTHON = re.compile(r"Traceback|Error\b|'[^']*'|\bNone\b")  # what Python's own error text leaves


def cli(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.output


def refused(args: list[str], *words: str) -> str:
    """Run the command, which must be refused naming ``words``; the message."""
    code, out = cli(*args)
    assert code == 2 and out.startswith("error: ") and not PYTHON.search(out), out
    for w in words:
        assert w in out, out
    return out


# ---- the database --------------------------------------------------------------------------------------
def test_a_file_that_is_no_database_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notadb.sqlite3"
    path.write_text("hello\n")
    for command in (["status", "1"], ["new", "Cup"], ["bot-event", "run", "1"], ["online", "round", "1"]):
        refused([*command, "--db", f"sqlite:///{path}"], "cannot use the tournament database", str(path),
                "file is not a database")
    assert path.read_text() == "hello\n"
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli("status", "1", "--db", f"sqlite:///{path}")
    assert code == 2 and out.startswith("错误：无法使用比赛数据库 ") and str(path) in out, out


def test_a_server_that_does_not_answer_is_named_without_its_password() -> None:
    out = refused(["list", "--db", "postgresql+psycopg://nobody:hunter2@127.0.0.1:1/cup"],
                  "cannot use the tournament database postgresql+psycopg://nobody:***@127.0.0.1:1/cup")
    assert "hunter2" not in out


def test_a_database_without_its_driver_or_of_no_known_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "MySQLdb", None)  # not installed, wherever the tests run
    refused(["status", "1", "--db", "mysql://a/b"], "mysql://a/b", "its driver MySQLdb is not installed")
    refused(["status", "1", "--db", "nosuchdb://a/b"], "no kind of database called nosuchdb")


def test_a_db_that_is_no_url_is_named_by_every_command(monkeypatch: pytest.MonkeyPatch) -> None:
    for command in (["new", "Cup"], ["status", "1"], ["bot-event", "new", "Cup", "--entry", "A=random"]):
        refused([*command, "--db", "nope"], "--db nope is not a database URL")
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli("new", "Cup", "--db", "nope")
    assert code == 2 and out.strip() == "错误：--db nope 不是数据库地址", out  # not SQLAlchemy's English


def test_a_data_folder_that_is_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder\n")
    monkeypatch.delenv("GUANDAN_DB_URL", raising=False)
    monkeypatch.setenv("GUANDAN_DATA_DIR", str(data))
    for command in (["new", "Cup"], ["status", "1"], ["bot-event", "new", "Cup", "--entry", "A=random"]):
        refused(command, f"{data} is a file, not a folder", "GUANDAN_DATA_DIR")
    monkeypatch.setenv("GUANDAN_DATA_DIR", str(data / "deeper"))
    refused(["new", "Cup"], f"{data} is a file, not a folder")
    assert data.read_text() == "not a folder\n"


def test_a_working_database_still_opens(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cup.sqlite3'}"
    assert cli("new", "Cup", "--db", url)[0] == 0
    assert [t.name for t in Desk.open(url).tournaments()] == ["Cup"]


# ---- registration --------------------------------------------------------------------------------------
@pytest.fixture
def cup(tmp_path: Path) -> str:
    """A Swiss event (per round) with team 队1 of 甲1 and 乙1 registered."""
    url = f"sqlite:///{tmp_path / 'cup.sqlite3'}"
    assert cli("new", "Cup", "--rounds", "3", "--seed", "1", "--per-round", "--db", url)[0] == 0
    assert cli("register", "1", "队1", "--players", "甲1,乙1", "--db", url)[0] == 0
    return url


def log_size(url: str) -> int:
    return len(Desk.open(url).events(1))


@pytest.mark.parametrize(("rating", "shown"), [("nan", "nan"), ("inf", "inf"), ("-inf", "-inf"), ("-5", "-5")])
def test_a_rating_must_be_a_finite_number_of_0_or_more(cup: str, rating: str, shown: str) -> None:
    refused(["register", "1", "N", "--players", "a,b", f"--rating={rating}", "--db", cup],
            f"a rating must be a finite number, 0 or more, not {shown}")
    assert log_size(cup) == 2
    assert cli("register", "1", "N", "--players", "a,b", "--rating=0", "--db", cup)[0] == 0


def test_a_random_partners_player_rating_too(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ko.sqlite3'}"
    assert cli("new", "KO", "--format", "knockout", "--partners", "random", "--db", url)[0] == 0
    refused(["register", "1", "--player", "Ann", "--rating=nan", "--db", url], "not nan")
    assert log_size(url) == 1


@pytest.mark.parametrize("minutes", ["nan", "inf"])
def test_late_minutes_must_be_finite(cup: str, minutes: str) -> None:
    assert cli("register", "1", "队2", "--players", "丙,丁", "--db", cup)[0] == 0
    assert cli("pair", "1", "--db", cup)[0] == 0
    before = log_size(cup)
    refused(["result", "1", "-r", "1", "-t", "1", "--forfeit", "home", f"--late-minutes={minutes}", "--db", cup],
            f"minutes late must be a finite number, not {minutes}")
    assert log_size(cup) == before


@pytest.mark.parametrize(("players", "message"), [
    ("x,X", 'a team is two different players, not "X" twice'),
    ("甲1,丙", '"甲1" already plays in team 队1'),
    ("丙,乙1", '"乙1" already plays in team 队1'),
])
def test_one_person_plays_in_one_team(cup: str, players: str, message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    refused(["register", "1", "V", "--players", players, "--db", cup], message)
    assert log_size(cup) == 2
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli("register", "1", "V", "--players", players, "--db", cup)
    assert code == 2 and out.startswith("错误：") and CHINESE.search(out.split("：", 1)[1]), out


def test_a_withdrawn_teams_player_may_join_another(cup: str) -> None:
    assert cli("withdraw", "1", "队1", "--db", cup)[0] == 0
    assert cli("register", "1", "队3", "--players", "甲1,丁", "--db", cup)[0] == 0


@pytest.mark.parametrize(("args", "what", "quoted"), [
    (["register", "1", "A\tB", "--players", "p,q"], "a team's name", "“A\\u0009B”"),
    (["register", "1", "A\u202eB", "--players", "p,q"], "a team's name", "“A\\u202eB”"),
    (["register", "1", "W", "--players", "p\nq,r"], "a player's name", "“p\\u000aq”"),
    (["register", "1", "W", "--players", "p,r\x00"], "a player's name", "“r\\u0000”"),
    (["register", "1", "W", "--players", "p,r", "--club", "C\u2028D"], "a club's name", "“C\\u2028D”"),
])
def test_names_hold_no_control_characters(cup: str, args: list[str], what: str, quoted: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out = refused([*args, "--db", cup], f"{what} cannot hold control characters", quoted)
    assert "\u202e" not in out and "\t" not in out
    assert log_size(cup) == 2
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli(*args, "--db", cup)
    assert code == 2 and "不能含控制字符" in out and quoted in out, out


def test_an_event_name_and_a_random_partners_player_too(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ko.sqlite3'}"
    refused(["new", "Cup\n2", "--db", url], "the event's name cannot hold control characters", "“Cup\\u000a2”")
    assert cli("new", "KO", "--format", "knockout", "--partners", "random", "--db", url)[0] == 0
    refused(["register", "1", "--player", "A\u202eB", "--db", url], "a player's name cannot hold control characters")
    assert log_size(url) == 1


# ---- what the tables and reasons say ---------------------------------------------------------------------
@pytest.fixture
def per_deal(tmp_path: Path) -> str:
    """A per-deal event of four teams, round 1 paired, one deal reported at table 1."""
    url = f"sqlite:///{tmp_path / 'deals.sqlite3'}"
    assert cli("new", "Deal Cup", "--rounds", "3", "--seed", "1", "--per-deal", "--db", url)[0] == 0
    for i in range(1, 5):
        assert cli("register", "1", f"T{i}", "--players", f"a{i},b{i}", "--db", url)[0] == 0
    assert cli("pair", "1", "--db", url)[0] == 0
    assert cli("deal", "1", "-r", "1", "-t", "1", "--finish", "N,S,E", "--db", url)[0] == 0
    return url


def test_a_table_in_play_is_said_in_words(per_deal: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table reporting its deals holds up the next round as an arbiter says it: "仍在逐副报分" (still reporting
    deals one by one), not "结果进行中" (result in play), which no arbiter says."""
    code, out = cli("status", "1", "--db", per_deal)
    assert code == 0 and "): still reporting deals one by one;" in out and "in_play" not in out, out
    out = refused(["pair", "1", "--db", per_deal], "): still reporting deals one by one;")
    assert "in_play" not in out and "result in play" not in out
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli("status", "1", "--db", per_deal)
    assert code == 0 and "：仍在逐副报分，本轮未打完；" in out and "结果进行中" not in out, out


def test_a_drawn_table_is_said_in_the_readers_language(cup: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("register", "1", "draw", "--players", "丙,丁", "--db", cup)[0] == 0  # a team may be called so
    for name, players in (("队3", "戊,己"), ("队4", "庚,辛")):
        assert cli("register", "1", name, "--players", players, "--db", cup)[0] == 0
    assert cli("pair", "1", "--db", cup)[0] == 0
    state = Desk.open(cup).state(1)
    drawn = next(ts.table.number for ts in state.rounds[1].tables.values() if state.teams[ts.table.home].name != "draw"
                 and state.teams[ts.table.away].name != "draw")
    won = 3 - drawn
    assert cli("result", "1", "-r", "1", "-t", str(drawn), "--levels", "7:7", "--override", "--reason", "r",
               "--db", cup)[0] == 0
    side = "home" if state.teams[state.table(1, won).table.home].name == "draw" else "away"
    levels = "A:5" if side == "home" else "5:A"
    assert cli("result", "1", "-r", "1", "-t", str(won), "--levels", levels, "--passed-a", side, "--override",
               "--reason", "r", "--db", cup)[0] == 0
    monkeypatch.setenv("LANGUAGE", "zh")
    for command in (["status", "1"], ["standings", "1", "--tables"]):
        code, out = cli(*command, "--db", cup)
        lines = {line.split()[0 if command[0] == "status" else 1]: line.split() for line in out.splitlines()
                 if line[:1].isdigit()}
        assert code == 0 and "平局" in lines[str(drawn)] and "draw" in lines[str(won)], out
        assert "draw" not in lines[str(drawn)], out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_placings_show_every_label_whole_and_the_teams_in_one_column(lang: str) -> None:
    from guandan.cliutil import width
    from guandan.i18n import translator
    from guandan.tournament.bracket import place_text, placing_lines

    _ = translator("desk", lang).gettext
    rows = [{"place": 1, "team": "Red"}, {"place": 2, "team": "Blue"}, {"place": 3, "team": "Green"},
            {"place": 3, "team": "红队"}, {"place": None, "team": "Late"}]
    lines = placing_lines({"placings": rows}, _)[1:]
    labels = [place_text(1, False, _), place_text(2, False, _), place_text(3, True, _), place_text(3, True, _),
              place_text(None, False, _)]
    assert "…" not in "".join(lines) and all(line.startswith("  " + label) for line, label in zip(lines, labels, strict=True))
    starts = {width(line[:line.index(row["team"])]) for line, row in zip(lines, rows, strict=True)}
    assert len(starts) == 1, lines


def test_the_log_a_person_reads_writes_10_and_the_json_log_reads_back(tmp_path: Path) -> None:
    import json

    from openpyxl import load_workbook  # type: ignore[import-untyped]

    from guandan.tournament.state import Event, replay

    url = f"sqlite:///{tmp_path / 'ten.sqlite3'}"
    assert cli("new", "Ten Cup", "--rounds", "2", "--seed", "1", "--per-round", "--bye-score", "A:10", "--db", url)[0] == 0
    for i in range(1, 4):
        assert cli("register", "1", f"T{i}", "--players", f"a{i},b{i}", "--db", url)[0] == 0
    assert cli("pair", "1", "--db", url)[0] == 0
    assert cli("result", "1", "-r", "1", "-t", "1", "--levels", "J:10", "--override", "--reason", "r", "--db", url)[0] == 0
    code, out = cli("log", "1", "--db", url)
    assert code == 0 and "round 1 table 1: the arbiter set the result to J:10; reason: r" in out, out
    assert not re.search(r"\bT\b", out), out
    assert cli("export", "1", "--format", "xlsx", "--out", str(tmp_path / "cup.xlsx"), "--db", url)[0] == 0
    sheet = load_workbook(tmp_path / "cup.xlsx")["审计日志 Audit log"]
    data = [str(row[4]) for row in sheet.iter_rows(min_row=3, values_only=True)]
    assert any('"levels": ["J", "10"]' in d for d in data) and not any('"T"' in d for d in data), data
    # the JSON log is the log as stored: it replays to the same event
    code, out = cli("log", "1", "--json", "--db", url)
    entries = [json.loads(line) for line in out.splitlines()]
    entries[0]["data"]["secret"] = "a-secret-of-the-test"
    state = replay([Event(e["seq"], e["type"], e["data"], e["actor"], e["at"]) for e in entries], 1)
    assert state.table(1, 1).final is not None and state.table(1, 1).final.levels == ("J", "T")


# ---- a damaged log -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("data", "english", "chinese"), [
    ("{not json", "its data or its time cannot be read", "其数据或时间无法读取"),
    ('{"team": 3}', 'malformed "team_registered" entry: a field is missing or of the wrong kind',
     '"team_registered" 条目格式有误'),
    ('{"team": {"name": "队1", "players": ["x", "y"]}}', "a team named \"队1\" is already registered",
     "名为\"队1\"的队伍已经报名"),
])
def test_a_damaged_log_names_the_tournament_and_the_entry(cup: str, data: str, english: str, chinese: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    path = cup.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:  # the log refuses changes, not a new row: a hand-made entry 3
        conn.execute("INSERT INTO tournament_events (tournament_id, seq, type, data, actor, created_at) "
                     "SELECT tournament_id, 3, 'team_registered', ?, actor, created_at FROM tournament_events "
                     "WHERE seq = 2", (data,))
        conn.execute("UPDATE tournaments SET last_seq = 3")
    for command in (["status", "1"], ["standings", "1"], ["pair", "1"]):
        refused([*command, "--db", cup], "the audit log of tournament 1 is damaged at entry 3: " + english)
    monkeypatch.delenv("LANGUAGE")  # the suite's English, so that LANG speaks
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out = cli("status", "1", "--db", cup)
    assert code == 2 and out.startswith("错误：比赛 1 的审计日志第3条已损坏：") and chinese in out, out
