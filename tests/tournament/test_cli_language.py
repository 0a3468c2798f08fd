"""`guandan tournament …` speaks the reader's language: the ``desk`` catalogue in the language the environment
asks for (LANGUAGE, …), or a command's ``--lang``; exit codes and ``--json`` do not change with it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.tournament.cli import app

runner = CliRunner()
CHINESE = re.compile(r"[\u4e00-\u9fff]")
REPR = re.compile(r"'[^']*'|\bNone\b|\[\s*'")  # what a Python repr leaves in text


def cli(db: str, *args: str) -> tuple[int, str]:
    res = runner.invoke(app, [*args, "--db", db])
    return res.exit_code, res.output


@pytest.fixture
def db(tmp_path: Path) -> str:
    """An empty database file (the commands other than `new` refuse one that does not exist)."""
    url = f"sqlite:///{tmp_path / 't.sqlite3'}"
    assert cli(url, "list")[0] == 2  # no database yet
    return url


def _event(db: str) -> None:
    assert cli(db, "new", "Cup", "--rounds", "2", "--seed", "4", "--per-round")[0] == 0
    for i in (1, 2, 3):
        assert cli(db, "register", "1", f"Team {i}", "--players", f"p{i},q{i}")[0] == 0


def test_chinese_from_the_environment(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli(db, "new", "春季杯", "--rounds", "2", "--seed", "4", "--per-round")
    assert code == 0 and "已创建比赛 1：春季杯" in out and "裁判密钥：" in out, out
    code, out = cli(db, "register", "1", "红队", "--players", "张三,李四")
    assert code == 0 and "已报名第1队：红队（张三 / 李四）" in out, out
    assert cli(db, "register", "1", "蓝队", "--players", "王五,赵六")[0] == 0
    code, out = cli(db, "pair", "1")
    assert code == 0 and "第1轮（随机抽签，种子 4）：" in out and "主队（南北）" in out, out
    code, out = cli(db, "result", "1", "-r", "1", "-t", "1", "--levels", "A:6", "--passed-a", "home")
    assert code == 0 and "第1轮第1桌：成绩已提交，等待对方确认" in out, out
    code, out = cli(db, "status", "1")
    assert code == 0 and "春季杯：2队，第1轮（共2轮）" in out and "待确认" in out, out
    assert "下一轮：第1轮第1桌（" in out and "：结果待确认" in out, out
    code, out = cli(db, "confirm", "1", "-r", "1", "-t", "1")
    assert code == 0 and "第1轮第1桌：成绩已确认" in out, out
    code, out = cli(db, "standings", "1")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["名次", "编号", "队伍"] and "场分" in out, out
    assert "MP" not in out and "Rank" not in out


@pytest.mark.parametrize(("args", "chinese", "english"), [
    (["register", "9", "X", "--players", "a,b"], "错误：没有编号为9的比赛", "error: no tournament number 9"),
    (["result", "1", "-r", "5", "-t", "1", "--levels", "A:6"], "错误：第5轮尚未编排", "error: round 5 has not been paired"),
    (["pair", "1", "--repair", "--tables", "1-x"], "错误：--tables 须列出成对的队号，如 1-4,2-3，而不是“1-x”",
     "error: --tables lists pairs of team numbers like 1-4,2-3, not “1-x”"),
    (["pair", "1", "--tables", "1-2"], "错误：--tables 和 --bye 用于重新编排：请加上 --repair",
     "error: --tables and --bye are for re-pairing: add --repair"),
    (["export", "1", "--format", "yaml", "--out", "x"], "错误：--format 须为 xlsx、csv 或 json，而不是“yaml”",
     "error: --format must be xlsx, csv or json, not “yaml”"),
    (["online", "round", "1"], "错误：编号为1的比赛不是线上赛事", "error: tournament 1 is not an online event"),
    (["bracket", "1", "--lang", "fr"], "错误：--lang 须为 zh, en 之一，而不是“fr”",
     "error: --lang must be one of zh, en, not “fr”"),
])
def test_refusals_in_either_language(db: str, monkeypatch: pytest.MonkeyPatch, args: list[str], chinese: str,
                                     english: str) -> None:
    _event(db)
    code, out = cli(db, *args)
    assert code == 2 and english in out and not CHINESE.search(out) and not REPR.search(out), out
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli(db, *args)
    assert code == 2 and chinese in out and "error:" not in out, out


def test_a_bad_new_option_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'n.sqlite3'}"
    code, out = cli(url, "new", "X", "--match-points", "2,x,0")
    assert code == 2 and out.strip() == "error: --match-points must be three integers win,draw,loss, not “2,x,0”"
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli(url, "new", "X", "--match-points", "2,x,0")
    assert code == 2 and out.strip() == "错误：--match-points 须为三个整数（胜,平,负），而不是“2,x,0”"
    code, out = cli(url, "new", "X", "--bye-score", "A-6")
    assert code == 2 and out.strip() == "错误：--bye-score 须写成 A:6 这样的形式，而不是“A-6”"


def test_a_catalogued_refusal_is_translated_and_english_keeps_the_arbiters_text(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _event(db)
    assert cli(db, "pair", "1")[0] == 0
    code, out = cli(db, "confirm", "1", "-r", "1", "-t", "1")
    assert code == 2 and out.startswith("error: ") and "no result waiting to be confirmed" in out, out
    monkeypatch.setenv("LANGUAGE", "zh_CN.UTF-8")
    code, out = cli(db, "confirm", "1", "-r", "1", "-t", "1")
    assert code == 2 and out.strip() == "错误：第1轮第1桌：没有待确认的成绩", out


def test_lang_option_wins_over_the_environment(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _event(db)
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli(db, "bracket", "1", "--lang", "en")
    assert code == 2 and out.startswith("error: ") and "no bracket" in out, out
    code, out = cli(db, "bracket", "1")
    assert code == 2 and out.startswith("错误："), out


def test_english_by_default_and_json_unchanged(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = cli(db, "new", "Cup", "--rounds", "2", "--seed", "4", "--per-round")
    assert code == 0 and "created tournament 1: Cup" in out and "arbiter key: " in out and not CHINESE.search(out)
    code, out = cli(db, "register", "1", "Red", "--players", "a,b")
    assert code == 0 and out.strip() == "registered team 1: Red (a / b)"
    english = cli(db, "status", "1", "--json")[1]
    monkeypatch.setenv("LANGUAGE", "zh")
    assert json.loads(cli(db, "status", "1", "--json")[1]) == json.loads(english)
    code, out = cli(db, "withdraw", "1", "Red")
    assert code == 0 and out.strip() == "队伍 Red 已退赛"


def test_bot_event_says_a_refusal_with_its_clauses_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    """A refusal made of other reasons (joined clauses, catalogued words) is said whole, at any depth."""
    import typer

    from guandan.i18n import N_, translator
    from guandan.tournament.cli_botevent import _fail
    from guandan.tournament.errors import Word, joined, refused, said

    seats = said(N_("a seat appears twice in the finishing order {seats}"), seats=Word(N_("North")))
    reason = joined([said(N_("round {round} table {table}: {problem}"), round=2, table=3, problem=seats),
                     said(N_("round {round}: team(s) {teams} not placed"), round=2, teams="7")])
    for lang, expected in (("zh", "错误：第2轮第3桌：出完顺序（北）中有座位重复；第2轮：队伍 7 未被编排"),
                           ("en", "error: round 2 table 3: a seat appears twice in the finishing order North; "
                                  "round 2: team(s) 7 not placed")):
        with pytest.raises(typer.Exit):
            _fail(translator("desk", lang).gettext, refused(reason))
        assert capsys.readouterr().err.strip() == expected


def test_status_counts_one_team_and_one_round_as_one(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the first pairing, the status line says "1 team, 1 round" in English; Chinese says it as before."""
    monkeypatch.setenv("LANGUAGE", "en")
    assert cli(db, "new", "Cup", "--rounds", "1", "--seed", "4", "--per-round")[0] == 0
    assert cli(db, "register", "1", "Team 1", "--players", "p1,q1")[0] == 0
    code, out = cli(db, "status", "1")
    assert code == 0 and "Cup: 1 team, 1 round, not paired yet" in out, out
    assert cli(db, "register", "1", "Team 2", "--players", "p2,q2")[0] == 0
    assert "Cup: 2 teams, 1 round, not paired yet" in cli(db, "status", "1")[1]
    monkeypatch.setenv("LANGUAGE", "zh")
    assert "Cup：2队，共1轮，尚未编排" in cli(db, "status", "1")[1]


def test_status_counts_one_team_with_a_withdrawal_as_one(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An event of one team, withdrawn: "1 team (1 withdrawn)"; of two, "2 teams (1 withdrawn)"."""
    monkeypatch.setenv("LANGUAGE", "en")
    assert cli(db, "new", "Cup", "--rounds", "1", "--seed", "4", "--per-round")[0] == 0
    assert cli(db, "register", "1", "Team 1", "--players", "p1,q1")[0] == 0
    assert cli(db, "withdraw", "1", "Team 1")[0] == 0
    code, out = cli(db, "status", "1")
    assert code == 0 and "Cup: 1 team (1 withdrawn), 1 round, not paired yet" in out, out
    assert cli(db, "register", "1", "Team 2", "--players", "p2,q2")[0] == 0
    assert "Cup: 2 teams (1 withdrawn), 1 round, not paired yet" in cli(db, "status", "1")[1]
    monkeypatch.setenv("LANGUAGE", "zh")
    assert "Cup：2队（1队已退赛），共1轮，尚未编排" in cli(db, "status", "1")[1]
