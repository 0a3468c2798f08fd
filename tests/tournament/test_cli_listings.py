"""The desk's listings as an arbiter reads them at the venue: `status`, `standings`, `standings --tables`, `pair`,
`deals`, `list` and `log` say every coded value in the reader's words, the ones the exports write (轮空, 南北,
已确认, 弃权, 平局, 已退赛; bye, N–S, final, forfeit, draw, withdrawn), never a raw identifier or a Python value;
`--json` keeps the raw values. A bot event's exports are in the run's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from typer.testing import CliRunner

from guandan.tournament.cli import app

runner = CliRunner()

#: What a raw identifier or a Python value leaves in text, in any language.
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|\bTrue\b|\bFalse\b|[{}\[\]]|'")
#: What a Chinese reader must not meet: the records' own values and the English words for them.
RAW_ZH = re.compile(r"\bbye\b|N–S|E–W|\bforfeit\b|\bwithdrawn\b|\bdraw\b|\bin play\b|\bfinal\b|\bmissing\b|"
                    r"\bentered\b|\bdisputed\b|\bset by the arbiter\b|\bby the rules\b|\bhome\b|\baway\b|"
                    r"\byes\b|\bswiss\b|\brandom\b")
#: An ASCII bracket next to Chinese text (Chinese text takes full-width ones).
ASCII_BRACKET_ZH = re.compile(r"[\u4e00-\u9fff][()]|[()][\u4e00-\u9fff]")


def cli(db: str, *args: str) -> str:
    res = runner.invoke(app, [*args, "--db", db])
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture
def event(tmp_path: Path) -> str:
    """Seven teams (a bye each round), reported deal by deal: round 1 with a deal confirmed and one waiting (table
    1), a forfeit set by the arbiter (table 2), a disputed deal (table 3) and the bye."""
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    cli(db, "new", "Cup", "--rounds", "3", "--seed", "1", "--per-deal")
    for i in range(1, 6):
        cli(db, "register", "1", f"队{i}", "--players", f"甲{i},乙{i}")
    cli(db, "register", "1", "Team Six", "--players", "A,B", "--club", "北京")
    cli(db, "register", "1", "第七队", "--players", "C,D")
    cli(db, "pair", "1")
    cli(db, "deal", "1", "-r", "1", "-t", "1", "--finish", "N,S,E")
    cli(db, "deal", "1", "-r", "1", "-t", "1", "--confirm")
    cli(db, "deal", "1", "-r", "1", "-t", "1", "--finish", "E,W,N")
    cli(db, "result", "1", "-r", "1", "-t", "2", "--forfeit", "home", "--override", "--reason", "缺席")
    cli(db, "deal", "1", "-r", "1", "-t", "3", "--finish", "N,S,E")
    cli(db, "deal", "1", "-r", "1", "-t", "3", "--dispute", "--reason", "记错了")
    return db


def _finish_round_1(db: str) -> None:
    """Round 1 settled (tables 1 and 3 drawn by the arbiter's deals), team 5 withdrawn, round 2 paired with a
    draw set by the arbiter at table 1."""
    cli(db, "deal", "1", "-r", "1", "-t", "1", "--confirm")
    cli(db, "deals", "1", "-r", "1", "-t", "3", "--set", "N,S,E; E,W,N", "--end", "--reason", "裁定")
    cli(db, "deals", "1", "-r", "1", "-t", "1", "--set", "N,S,E; E,W,N", "--end", "--reason", "时间")
    cli(db, "withdraw", "1", "5", "--reason", "生病")
    cli(db, "pair", "1")
    cli(db, "result", "1", "-r", "2", "-t", "1", "--levels", "8:8", "--deals", "6", "--override", "--reason", "平")


def _lines(text: str) -> list[str]:
    return text.splitlines()


def test_status_in_chinese(event: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    assert _lines(cli(event, "status", "1"))[:6] == [
        "Cup：7队，第1轮（共3轮）",
        "桌号  主队（南北）  客队（东西）  结果      胜方  状态    来源",
        "1     队4           第七队                        进行中",
        "2     Team Six      队3           6:A 弃权  队3   已确认  裁判裁定",
        "3     队1           队5                           有争议",
        "轮空  队2                         轮空      队2   已确认  按规则",
    ]


def test_status_in_english(event: str) -> None:
    assert _lines(cli(event, "status", "1"))[:6] == [
        "Cup: 7 teams, round 1 of 3",
        "Table  Home (N–S)  Away (E–W)  Result       Winner  Status    Source",
        "1      队4         第七队                           in play",
        "2      Team Six    队3         6:A forfeit  队3     final     set by the arbiter",
        "3      队1         队5                              disputed",
        "bye    队2                     bye          队2     final     by the rules",
    ]


def test_standings_and_tables_in_chinese(event: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _finish_round_1(event)
    monkeypatch.setenv("LANGUAGE", "zh")
    standings = _lines(cli(event, "standings", "1"))
    assert standings[0].split() == ["名次", "编号", "队伍", "单位", "队员", "场分", "对手分", "级差分", "升级数",
                                    "场次", "胜", "平", "负", "轮空"]
    assert "3     5     队5（已退赛）        甲5 / 乙5  1     1       0       3       1     0   1   0   0" in standings
    assert _lines(cli(event, "standings", "1", "--tables")) == [
        "轮次  桌号  主队（南北）  客队（东西）  结果      胜方  状态    来源",
        "1     1     队4           第七队        5:5       平局  已确认  裁判裁定",
        "1     2     Team Six      队3           6:A 弃权  队3   已确认  裁判裁定",
        "1     3     队1           队5           5:5       平局  已确认  裁判裁定",
        "1     轮空  队2                         轮空      队2   已确认  按规则",
        "2     1     队2           队3           8:8       平局  已确认  裁判裁定",
        "2     2     队1           队4                           未录入",
        "2     3     第七队        Team Six                      未录入",
        "",
        "队伍      编号  轮次  桌号  座位  对手",
        "第七队    7     1     1     东西  队4",
        "队1       1     1     3     南北  队5",
        "队2       2     1     轮空",
        "队3       3     1     2     东西  Team Six",
        "队4       4     1     1     南北  第七队",
        "队5       5     1     3     东西  队1",
        "Team Six  6     1     2     南北  队3",
        "第七队    7     2     3     南北  Team Six",
        "队1       1     2     2     南北  队4",
        "队2       2     2     1     南北  队3",
        "队3       3     2     1     东西  队2",
        "队4       4     2     2     东西  队1",
        "Team Six  6     2     3     东西  第七队",
    ]


def test_tables_in_english(event: str) -> None:
    _finish_round_1(event)
    standings = _lines(cli(event, "standings", "1"))
    assert "3     5    队5 (withdrawn)        甲5 / 乙5  1        1              0                3" \
        "               1       0  1  0  0" in standings
    assert _lines(cli(event, "standings", "1", "--tables"))[:6] == [
        "Round  Table  Home (N–S)  Away (E–W)  Result       Winner  Status   Source",
        "1      1      队4         第七队      5:5          draw    final    set by the arbiter",
        "1      2      Team Six    队3         6:A forfeit  队3     final    set by the arbiter",
        "1      3      队1         队5         5:5          draw    final    set by the arbiter",
        "1      bye    队2                     bye          队2     final    by the rules",
        "2      1      队2         队3         8:8          draw    final    set by the arbiter",
    ]


def _listings(db: str) -> list[str]:
    """Every listing the desk prints for this event, as it stands: round 1 open, then round 2 paired."""
    outs = [cli(db, "status", "1"), cli(db, "standings", "1"), cli(db, "standings", "1", "--tables"),
            cli(db, "deals", "1", "-r", "1", "-t", "1"), cli(db, "deals", "1", "-r", "1", "-t", "3"),
            cli(db, "list"), cli(db, "log", "1")]
    runner.invoke(app, ["deal", "1", "-r", "1", "-t", "1", "--confirm", "--db", db])
    for args in (["deals", "1", "-r", "1", "-t", "3", "--set", "N,S,E; E,W,N", "--end", "--reason", "裁定"],
                 ["deals", "1", "-r", "1", "-t", "1", "--set", "N,S,E; E,W,N", "--end", "--reason", "时间"],
                 ["withdraw", "1", "5", "--reason", "生病"], ["pair", "1"],
                 ["result", "1", "-r", "2", "-t", "1", "--levels", "8:8", "--deals", "6", "--override", "--reason",
                  "平"]):
        outs.append(cli(db, *args))
    outs += [cli(db, "status", "1"), cli(db, "standings", "1"), cli(db, "standings", "1", "--after-round", "1"),
             cli(db, "standings", "1", "--tables"), cli(db, "deals", "1", "-r", "1", "-t", "3"),
             cli(db, "list"), cli(db, "log", "1")]
    return outs


def test_no_raw_value_in_any_chinese_listing(event: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    for out in _listings(event):
        # the command names an arbiter types (`deals --set`, `start`) are the commands themselves
        text = re.sub(r"`[^`]*`|--set", "", out)
        assert not RAW.search(text), out
        assert not RAW_ZH.search(text), out
        assert not ASCII_BRACKET_ZH.search(text), out


def test_no_raw_value_in_any_english_listing(event: str) -> None:
    for out in _listings(event):
        text = re.sub(r"`[^`]*`", "", out)
        assert not RAW.search(text), out
        assert not re.search(r"\bin_play\b|\bpass_a\b", text), out


def test_json_keeps_the_raw_values(event: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    tables = json.loads(cli(event, "standings", "1", "--tables", "--json"))
    assert [(t["table"], t["result"], t["status"], t["source"]) for t in tables["tables"]] == [
        (1, "", "in_play", None), (2, "6:A forfeit", "final", "override"), (3, "", "disputed", None),
        (None, "bye", "final", "rule")]
    assert {t["seats"] for t in tables["by_team"]} == {"N–S", "E–W", None}
    status = json.loads(cli(event, "status", "1", "--json"))
    assert [t["status"] for t in status["tables"]] == ["in_play", "final", "disputed"]


@pytest.mark.parametrize(("lang", "status", "bye"), [("zh", "已确认", "轮空"), ("en", "final", "bye")])
def test_bot_event_exports_follow_the_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                               status: str, bye: str) -> None:
    db = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    monkeypatch.setenv("LANGUAGE", lang)  # the session's language; --lang says the same
    for args in (["new", "机器人赛", "--entry", "甲=random", "--entry", "乙=greedy", "--entry", "丙=random",
                  "--deals", "1", "--rounds", "1", "--seed", "3"],
                 ["run", "1", "--all", "--out", str(tmp_path / "out")]):
        res = runner.invoke(app, ["bot-event", *args, "--db", db])
        assert res.exit_code == 0, res.output
    sheet = load_workbook(tmp_path / "out" / "event.xlsx")["按桌号 Tables"]
    cells = {c.value for row in sheet.iter_rows() for c in row}
    assert status in cells and bye in cells
    tables_csv = (tmp_path / "out" / "tables.csv").read_text(encoding="utf-8-sig")
    assert f",{bye}," in tables_csv and f",{status}," in tables_csv
    # --lang wins over the environment, as `export --lang` does
    other = "en" if lang == "zh" else "zh"
    res = runner.invoke(app, ["bot-event", "run", "1", "--all", "--out", str(tmp_path / "again"), "--lang", other,
                              "--db", db])
    assert res.exit_code == 0, res.output
    again = (tmp_path / "again" / "tables.csv").read_text(encoding="utf-8-sig")
    assert (",轮空," if other == "zh" else ",bye,") in again


@pytest.mark.parametrize(("lang", "expected"), [
    # a result waiting for confirmation is marked 过A as a final one is, in either language, in the language's
    # brackets: the Chinese listing's are full-width, as all of its others are
    ("zh", ["桌号  主队（南北）  客队（东西）  结果         胜方  状态    来源",
            "1     T4            T5            （A:6 过A）        待确认",
            "2     T1            T3                               已退回",
            "轮空  T2                          轮空         T2    已确认  按规则"]),
    ("en", ["Table  Home (N–S)  Away (E–W)  Result     Winner  Status    Source",
            "1      T4          T5          (A:6 过A)          entered",
            "2      T1          T3                             rejected",
            "bye    T2                      bye        T2      final     by the rules"]),
])
def test_a_result_waiting_and_one_sent_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str,
                                            expected: list[str]) -> None:
    db = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    monkeypatch.setenv("LANGUAGE", lang)
    cli(db, "new", "杯", "--rounds", "2", "--seed", "4", "--per-round")
    for i in range(1, 6):
        cli(db, "register", "1", f"T{i}", "--players", f"a{i},b{i}")
    cli(db, "pair", "1")
    cli(db, "result", "1", "-r", "1", "-t", "1", "--levels", "A:6", "--passed-a", "home", "--deals", "8")
    cli(db, "result", "1", "-r", "1", "-t", "2", "--levels", "9:7", "--deals", "8")
    cli(db, "confirm", "1", "-r", "1", "-t", "2", "--reject", "--reason", "不对")
    out = cli(db, "status", "1")
    assert _lines(out)[1:5] == expected
    assert not RAW.search(re.sub(r"`[^`]*`", "", out)), out
    if lang == "zh":
        assert not RAW_ZH.search(out) and not ASCII_BRACKET_ZH.search(out), out
