"""The desk's tables in an 80-column terminal (a laptop's split screen, an SSH session): `status`, `standings`,
`standings --tables`, `pair`, `log`, `list` and `bot-event run` print no line wider than the terminal, a Chinese
character counted two columns, whatever the length of the teams' names; they say every name whole (wrapped onto
more lines) and keep the columns an arbiter acts on. A wide terminal, or output to a file, still gets every column."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.cliutil import width
from guandan.tournament.cli import app

runner = CliRunner()

TEAMS = ("Northern Lights Bridge and Guandan Club", "东方明珠掼蛋俱乐部一队", "Pacific Coast Aces",
         "江南水乡掼蛋爱好者联队", "Team Five With A Long Name")
#: Every column's head, at a width with room for all of them.
WIDE_HEADS = {
    "en": {"standings": ["Rank", "No.", "Team", "Club", "Players", "场分 MP", "对手分 Opp MP", "级差分 Net lvls",
                         "升级数 Lvls up", "Played", "W", "D", "L", "Byes"],
           "status": ["Table", "Home (N–S)", "Away (E–W)", "Result", "Winner", "Status", "Source"]},
    "zh": {"standings": ["名次", "编号", "队伍", "单位", "队员", "场分", "对手分", "级差分", "升级数", "场次", "胜", "平",
                         "负", "轮空"],
           "status": ["桌号", "主队（南北）", "客队（东西）", "结果", "胜方", "状态", "来源"]},
}
#: The heads an 80-column terminal keeps: the tie-break figures, the byes once a team has had one (the event below
#: has), the result and its status.
NARROW_HEADS = {
    "en": {"standings": ["Rank", "No.", "Team", "MP", "Opp MP", "Net lvls", "Lvls up", "W", "D", "L", "Byes"],
           "status": ["Table", "Home (N–S)", "Away (E–W)", "Result", "Status"]},
    "zh": {"standings": ["名次", "编号", "队伍", "场分", "对手分", "级差分", "升级数", "胜", "平", "负", "轮空"],
           "status": ["桌号", "主队（南北）", "客队（东西）", "结果", "状态"]},
}


def cli(db: str, *args: str, env: dict[str, str | None] | None = None) -> str:
    res = runner.invoke(app, [*args, "--db", db], env=env)
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture
def event(tmp_path: Path) -> str:
    """Five teams with long names, a club and players each: round 1 with a result set by the arbiter, a forfeit
    and a bye."""
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    cli(db, "new", "Spring Cup of the Municipal Card Association", "--rounds", "3", "--seed", "1")
    for i, name in enumerate(TEAMS, 1):
        cli(db, "register", "1", name, "--players", f"Alexander Hamilton {i},Benjamin Franklin {i}",
            "--club", "Beijing Municipal Sports Centre")
    cli(db, "pair", "1")
    cli(db, "result", "1", "-r", "1", "-t", "1", "--levels", "10:A", "--deals", "7", "--override", "--reason", "r")
    cli(db, "result", "1", "-r", "1", "-t", "2", "--forfeit", "home", "--override", "--reason", "absent")
    return db


def _env(lang: str, columns: int | None) -> dict[str, str | None]:
    """The environment of a terminal ``columns`` wide; with no COLUMNS where None (the output is not a terminal)."""
    return {"LANGUAGE": lang, "COLUMNS": str(columns) if columns else None}


def _column(lines: list[str], head: str) -> str:
    """What the lines under ``head`` (the first line) hold in its column, read down the column with the spaces
    gone: a name wrapped onto more lines reads whole again."""
    def cells(line: str) -> list[str]:  # a character a column, a wide one followed by an empty one
        return [part for ch in line for part in ((ch, "") if width(ch) == 2 else (ch,))]
    top = cells(lines[0])
    start = len(cells(lines[0][:lines[0].index(head)]))
    end = start + len(cells(head))
    while end < len(top) and top[end] == " ":
        end += 1
    return "".join("".join(cells(line)[start:end]).replace(" ", "") for line in lines[1:])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_line_fits_80_columns(event: str, lang: str) -> None:
    status = cli(event, "status", "1", env=_env(lang, 80))
    standings = cli(event, "standings", "1", env=_env(lang, 80))
    tables = cli(event, "standings", "1", "--tables", env=_env(lang, 80))
    paired = cli(event, "pair", "1", env=_env(lang, 80))
    waiting = cli(event, "status", "1", env=_env(lang, 80))  # what blocks round 3, table by table
    log = cli(event, "log", "1", env=_env(lang, 80))
    listed = cli(event, "list", env=_env(lang, 80))
    for out in (status, standings, tables, paired, waiting, log, listed):
        assert [line for line in out.splitlines() if width(line) > 80] == []
    heads = NARROW_HEADS[lang]
    teams = _column(standings.splitlines(), heads["standings"][2])
    # the table, then one note: the round is over, so no round clock, and the next round is ready to pair
    home = _column(status.splitlines()[1:-1], heads["status"][1])
    away = _column(status.splitlines()[1:-1], heads["status"][2])
    for name in TEAMS:  # every name whole, in its column
        assert name.replace(" ", "") in teams
        assert name.replace(" ", "") in home + away
    assert "".join(log.split()) == "".join(cli(event, "log", "1", env=_env(lang, None)).split())  # wrapped, not cut


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_narrow_terminal_keeps_the_columns_an_arbiter_acts_on(event: str, lang: str) -> None:
    standings = cli(event, "standings", "1", env=_env(lang, 80)).splitlines()
    assert re.split(r"\s{2,}", standings[0]) == NARROW_HEADS[lang]["standings"]
    status = cli(event, "status", "1", env=_env(lang, 80)).splitlines()
    assert re.split(r"\s{2,}", status[1]) == NARROW_HEADS[lang]["status"]


@pytest.mark.parametrize("columns", [250, None])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_wide_terminal_or_a_file_gets_every_column(event: str, lang: str, columns: int | None) -> None:
    standings = cli(event, "standings", "1", env=_env(lang, columns)).splitlines()
    heads = WIDE_HEADS[lang]["standings"]
    assert [h for h in heads if h not in standings[0]] == []
    assert len(standings) == 1 + len(TEAMS)  # a line a team: no name wrapped
    status = cli(event, "status", "1", env=_env(lang, columns)).splitlines()
    assert [h for h in WIDE_HEADS[lang]["status"] if h not in status[1]] == []
    assert "Northern Lights Bridge and Guandan Club" in "".join(status)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_knockout_fits_80_columns(tmp_path: Path, lang: str) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    cli(db, "new", "Knockout Cup of the Municipal Card Association", "--format", "knockout", "--seed", "2")
    for i, name in enumerate(TEAMS, 1):
        cli(db, "register", "1", name, "--players", f"P{i} a,P{i} b")
    outs = [cli(db, "pair", "1", env=_env(lang, 80))]
    outs += [cli(db, what, "1", env=_env(lang, 80)) for what in ("bracket", "prizes", "status")]
    for out in outs:
        assert [line for line in out.splitlines() if width(line) > 80] == []
    whole = cli(db, "bracket", "1", env=_env(lang, None))
    assert "".join(outs[1].split()) == "".join(whole.split())  # wrapped, not cut


#: A bot event's standings heads (bot-event run), in a wide terminal and in an 80-column one (the byes go).
BOT_HEADS = {"en": ["Rank", "Team", "Bots", "MP", "Opp MP", "Net lvls", "Lvls up", "W-D-L", "Byes"],
             "zh": ["名次", "队伍", "机器人", "场分", "对手分", "级差分", "升级数", "胜-平-负", "轮空"]}
BOTS = ("random", "greedy,random", "random,heuristic", "greedy", "heuristic,greedy")


def _bot_event(db: str, lang: str) -> None:
    entries = [arg for name, bots in zip(TEAMS, BOTS, strict=True) for arg in ("--entry", f"{name}={bots}")]
    cli(db, "bot-event", "new", "Bot Cup of the Municipal Card Association", "--rounds", "2", "--deals", "1",
        "--seed", "7", "--lang", lang, *entries, env=_env(lang, 80))


def _split_at_standings(out: str, lang: str) -> tuple[str, list[str]]:
    """A run's output as what comes before its standings (the rounds' lines) and the standings' lines."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(BOT_HEADS[lang][0] + " "))
    return "\n".join(lines[:at]), lines[at:]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bot_event_run_fits_80_columns(tmp_path: Path, lang: str) -> None:
    """`bot-event run` prints its rounds' lines and its standings as the desk's commands do: in 80 columns the
    lines wrap, the byes' column goes and the teams' names and bots wrap in theirs; printed to a file, the same
    event (the same seed) gets every column and whole lines."""
    narrow, whole = f"sqlite:///{tmp_path / 'narrow.sqlite3'}", f"sqlite:///{tmp_path / 'whole.sqlite3'}"
    _bot_event(narrow, lang)
    _bot_event(whole, lang)
    out = cli(narrow, "bot-event", "run", "1", "--all", "--lang", lang, env=_env(lang, 80))
    wide = cli(whole, "bot-event", "run", "1", "--all", "--lang", lang, env=_env(lang, None))
    assert [line for line in out.splitlines() if width(line) > 80] == []
    assert max(width(line) for line in wide.splitlines()) > 80  # the names are long: there was something to fit
    rounds, table = _split_at_standings(out, lang)
    wide_rounds, wide_table = _split_at_standings(wide, lang)
    assert "".join(rounds.split()) == "".join(wide_rounds.split())  # wrapped, not cut
    assert re.split(r"\s{2,}", table[0]) == BOT_HEADS[lang][:-1]
    assert re.split(r"\s{2,}", wide_table[0]) == BOT_HEADS[lang] and len(wide_table) == 1 + len(TEAMS)
    teams, bots = _column(table, BOT_HEADS[lang][1]), _column(table, BOT_HEADS[lang][2])
    for name, spec in zip(TEAMS, BOTS, strict=True):  # every name and every team's bots whole, in its column
        assert name.replace(" ", "") in teams
        first, _comma, second = spec.partition(",")
        assert (f"{first}+{second}" if second else f"{first}×2") in bots


#: A knockout bot event's standings heads: its place and where each team stands, as the desk's `standings` has
#: them; an 80-column terminal keeps the status and drops the Swiss figures that order nothing in a knockout.
KNOCKOUT_BOT_HEADS = {"en": ["Rank", "Team", "Status", "Bots", "MP", "Opp MP", "Net lvls", "Lvls up", "W-D-L", "Byes"],
                      "zh": ["名次", "队伍", "状态", "机器人", "场分", "对手分", "级差分", "升级数", "胜-平-负", "轮空"]}
#: Where the five teams of a knockout stand once it is over (round 1's loser may have lost on the deciding deal).
KNOCKOUT_STATUSES = {"en": ("champion", "runner-up", "out in round 2", "out in round 1"),
                     "zh": ("冠军", "亚军", "第2轮出局", "第1轮出局")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_knockout_bot_event_run_ranks_as_the_desk_does(tmp_path: Path, lang: str) -> None:
    """`bot-event run` of a knockout prints its standings as `standings` does: the rank the team's place (3=:
    shared) and a Status column, in the run's language, in 80 columns; to a file, every column."""
    narrow, whole = f"sqlite:///{tmp_path / 'narrow.sqlite3'}", f"sqlite:///{tmp_path / 'whole.sqlite3'}"
    for db in (narrow, whole):
        entries = [arg for name, bots in zip(TEAMS, BOTS, strict=True) for arg in ("--entry", f"{name}={bots}")]
        cli(db, "bot-event", "new", "Knockout Bot Cup of the Municipal Card Association", "--format", "knockout",
            "--deals", "1", "--seed", "7", "--lang", lang, *entries, env=_env(lang, 80))
    out = cli(narrow, "bot-event", "run", "1", "--all", "--lang", lang, env=_env(lang, 80))
    wide = cli(whole, "bot-event", "run", "1", "--all", "--lang", lang, env=_env(lang, None))
    assert [line for line in out.splitlines() if width(line) > 80] == []
    _rounds, table = _split_at_standings(out, lang)
    table = table[:next(i for i, line in enumerate(table) if not line)]  # the placings' list follows
    heads = re.split(r"\s{2,}", table[0])
    assert heads[:4] == KNOCKOUT_BOT_HEADS[lang][:4] and set(heads) <= set(KNOCKOUT_BOT_HEADS[lang])
    rows = [line for line in table[1:] if not line.startswith(" ")]  # a name's next lines start with spaces
    assert [line.split()[0] for line in rows] == ["1", "2", "3=", "3=", "5"]
    status = _column(table, KNOCKOUT_BOT_HEADS[lang][2])
    champion, runner_up, semi, first = KNOCKOUT_STATUSES[lang]
    assert status.startswith(f"{champion}{runner_up}{semi}{semi}{first}".replace(" ", ""))
    _wide_rounds, wide_table = _split_at_standings(wide, lang)
    assert re.split(r"\s{2,}", wide_table[0]) == KNOCKOUT_BOT_HEADS[lang]
    assert [line.split()[0] for line in wide_table[1:6]] == ["1", "2", "3=", "3=", "5"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_narrow_terminal_says_which_win_was_a_bye(tmp_path: Path, lang: str) -> None:
    """A bye counts as a win (W 1): once a team has had one, the byes column stays in 80 columns, the names
    wrapping for it, so that the bye is told apart from a win played; before any bye it goes with the others."""
    db = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    cli(db, "new", "Cup", "--rounds", "3", "--seed", "1", "--per-round")
    for i, name in enumerate(["Purple Mountain Bridge Club Seniors", "East Wind", "South Hill"], 1):
        cli(db, "register", "1", name, "--players", f"P{i} a,P{i} b", "--club", "Nanjing")
    before = cli(db, "standings", "1", env=_env(lang, 80)).splitlines()
    assert NARROW_HEADS[lang]["standings"][-1] not in before[0]  # no bye yet: the column goes, the names stay whole
    cli(db, "pair", "1")
    cli(db, "result", "1", "-r", "1", "-t", "1", "--levels", "A:9", "--deals", "8", "--override", "--reason", "r")
    lines = cli(db, "standings", "1", env=_env(lang, 80)).splitlines()
    assert [line for line in lines if width(line) > 80] == []
    assert re.split(r"\s{2,}", lines[0]) == NARROW_HEADS[lang]["standings"]
    byes = _column(lines, NARROW_HEADS[lang]["standings"][-1])
    assert sorted(byes) == ["0", "0", "1"]
