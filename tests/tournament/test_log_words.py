"""The audit log as an arbiter reads it: every entry a sentence in the reader's language (logtext.py), the
JSON log unchanged, and an entry this version cannot read still listed."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from typer.testing import CliRunner

from guandan.cliutil import width
from guandan.db import make_engine
from guandan.tournament.cli import app
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError
from guandan.tournament.logtext import SENTENCES, LogReader
from guandan.tournament.model import EventConfig, LatenessRules, RoundLimits
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.state import EVENT_TYPES, Event

KEY = "walk-secret"
START = datetime(2026, 12, 5, 6, 0, tzinfo=UTC)  # 14:00 in Shanghai
CJK = re.compile(r"[\u4e00-\u9fff]")
#: What a person must never read: JSON, a list, Python's None, an identifier such as result_overridden.
RAW = re.compile(r"[{}\[\]]|\bNone\b|\b[a-z]+_[a-z_]+\b")

#: One entry of every type, as the desk writes it (a new type fails the walk below until it is here, and it
#: is here once it has a sentence).
SAMPLES: dict[str, dict[str, Any]] = {
    "created": {"config": EventConfig(name="秋季杯", rounds=5).to_dict(), "secret": KEY},
    "team_registered": {"team": {"name": "北京队", "players": ["张三", "李四"], "club": None, "rating": None}},
    "team_withdrawn": {"team": 1, "reason": "生病"},
    "round_paired": {"round": 1, "method": "swiss", "seed": 3, "tables": [[1, 2]], "bye": 3, "repair": False},
    "result_entered": {"round": 2, "table": 3, "by": 1,
                       "result": {"levels": ["T", "8"], "passed_a": "home", "deals": 9, "forfeit": None}},
    "result_confirmed": {"round": 2, "table": 3, "by": 2},
    "result_disputed": {"round": 2, "table": 3, "by": 2, "reason": "应为 10:9"},
    "result_overridden": {"round": 2, "table": 3, "reason": "迟到",
                          "result": {"levels": None, "passed_a": None, "deals": None, "forfeit": "away"}},
    "result_reported": {"round": 2, "table": 3, "result": {"levels": ["9", "9"], "passed_a": None, "deals": 12,
                                                            "forfeit": None, "decider": "away"}},
    "result_rejected": {"round": 2, "table": 3, "by": 2, "reason": ""},
    "round_started": {"round": 2, "at": "2026-12-05T06:05:00+00:00"},
    "deal_reported": {"round": 2, "table": 3, "deal": 4, "finish": ["N", "E", "S", "W"], "by": 2},
    "deal_confirmed": {"round": 2, "table": 3, "deal": 4, "by": 1},
    "deal_rejected": {"round": 2, "table": 3, "deal": 4, "by": 1, "reason": "三游是西家"},
    "deal_disputed": {"round": 2, "table": 3, "deal": 4, "by": 1, "reason": ""},
    "deals_set": {"round": 2, "table": 3, "deals": [{"award": "home"}, {"finish": ["E", "W", "N", "S"]}],
                  "reason": "看了录像", "end": True},
    "code_refused": {"round": 2, "table": 3},
    "table_locked": {"round": 2, "table": 3, "reason": "5 wrong codes"},
    "table_unlocked": {"round": 2, "table": 3, "reason": ""},
    "player_registered": {"player": {"name": "王五", "club": "淮安", "rating": None}},
    "player_withdrawn": {"player": 1, "reason": "走了"},
    "partners_drawn": {"method": "random", "seed": 7, "teams": [{"name": "王五 / 赵六", "players": [1, 2]}]},
    "knockout_paired": {"round": 2, "method": "bracket", "seed": None, "matches": [[1, 2], [3, None]],
                        "repair": True, "reason": "round 1 table 1 corrected: another team goes through"},
    "table_paused": {"round": 2, "table": 3, "reason": "断网"},
    "table_resumed": {"round": 2, "table": 3, "reason": ""},
    "player_replaced": {"team": 1, "old": "张三", "new": "王五", "reason": "生病"},
    "names_forgotten": {"people": 1, "reason": "account deleted"},
    "time_zone_set": {"time_zone": "Asia/Shanghai", "reason": ""},
}


def test_every_entry_type_has_a_sentence_in_both_languages() -> None:
    assert set(SAMPLES) == set(EVENT_TYPES) == set(SENTENCES)
    for type_ in EVENT_TYPES:
        said = {}
        for lang in ("zh", "en"):
            reader = LogReader(lang)
            reader.sentence(Event(1, "team_registered", SAMPLES["team_registered"]))  # team 1 has a name
            text = reader.sentence(Event(2, type_, SAMPLES[type_]))
            assert "log --json" not in text and not RAW.search(text) and KEY not in text, (type_, text)
            said[lang] = text
        assert CJK.search(said["zh"]) and said["zh"] != said["en"], said
        assert not any(t in said["zh"] for t in EVENT_TYPES), said  # no identifier in a Chinese sentence


def test_the_words_of_an_entry() -> None:
    zh, en = LogReader("zh"), LogReader("en")
    for reader in (zh, en):
        reader.sentence(Event(1, "team_registered", SAMPLES["team_registered"]))
    assert zh.sentence(Event(2, "result_entered", SAMPLES["result_entered"])) == \
        "第2轮第3桌：1号队（北京队）登记成绩为10:8，主队过A，共打9副"
    assert en.sentence(Event(2, "result_entered", SAMPLES["result_entered"])) == \
        "round 2 table 3: team 1 (北京队) entered 10:8, home passed A, 9 deals played"
    assert en.sentence(Event(3, "result_reported", SAMPLES["result_reported"])) == \
        "round 2 table 3: result reported as 9:9, away won the deciding deal, 12 deals played"
    assert zh.sentence(Event(3, "result_overridden", SAMPLES["result_overridden"])) == \
        "第2轮第3桌：裁判裁定成绩为客队弃权；理由：迟到"
    assert zh.sentence(Event(4, "deal_reported", SAMPLES["deal_reported"])) == \
        "第2轮第3桌第4副：2号队报出完顺序 北 东 南 西"  # a team not registered in this log: its number alone
    # how a round was paired is a word, not the stored method: "Swiss" as English writes it, 瑞士制
    assert en.sentence(Event(4, "round_paired", SAMPLES["round_paired"])).startswith("round 1 paired (Swiss, seed 3)")
    assert zh.sentence(Event(4, "round_paired", SAMPLES["round_paired"])).startswith("第1轮编排（瑞士制，种子 3）")
    # a pairing names each team as its registration does; one not registered in this log by its number alone
    assert en.sentence(Event(5, "knockout_paired", SAMPLES["knockout_paired"])) == \
        ("knockout round 2 paired again (by the bracket): team 1 (北京队) v team 2; team 3: bye; reason: round 1 "
         "table 1 corrected: another team goes through")
    assert zh.sentence(Event(5, "knockout_paired", SAMPLES["knockout_paired"])) == \
        "淘汰赛第2轮重新编排（按对阵图）：1号队（北京队）对2号队；3号队轮空；理由：第1轮第1桌成绩更正，晋级队伍改变"
    assert en.sentence(Event(5, "round_paired", SAMPLES["round_paired"])) == \
        "round 1 paired (Swiss, seed 3): table 1: team 1 (北京队) v team 2; bye: team 3"
    # wrong codes are counted per table until it is unlocked; the desk's own lock said in words
    codes = [zh.sentence(Event(6, "code_refused", {"round": 2, "table": 3})) for _ in range(2)]
    assert codes == ["第2轮第3桌：输错代码（第1次，满5次锁定）", "第2轮第3桌：输错代码（第2次，满5次锁定）"]
    assert zh.sentence(Event(7, "table_locked", SAMPLES["table_locked"])) == "第2轮第3桌：输错代码5次，已锁定"
    zh.sentence(Event(8, "table_unlocked", SAMPLES["table_unlocked"]))
    assert zh.sentence(Event(9, "code_refused", {"round": 2, "table": 3})) == "第2轮第3桌：输错代码（第1次，满5次锁定）"
    # a name forgotten is never said, only how many
    assert en.sentence(Event(10, "names_forgotten", SAMPLES["names_forgotten"])) == \
        "names forgotten: 1; reason: account deleted"
    # a reason typed over several lines stays one line
    assert en.sentence(Event(11, "team_withdrawn", {"team": 1, "reason": "sick\nwent home"})) == \
        "team 1 (北京队) withdrew; reason: sick went home"


def test_a_count_of_one_reads_as_one_in_english() -> None:
    zh, en = LogReader("zh"), LogReader("en")
    one_round = {"config": EventConfig(name="Cup", rounds=1).to_dict(), "secret": KEY}
    assert en.sentence(Event(1, "created", one_round)) == "created the Swiss event “Cup” of 1 round"
    assert en.sentence(Event(1, "created", SAMPLES["created"])) == "created the Swiss event “秋季杯” of 5 rounds"
    assert zh.sentence(Event(1, "created", one_round)) == "创建瑞士制比赛“Cup”，共1轮"
    one_deal = {**SAMPLES["result_entered"], "result": {**SAMPLES["result_entered"]["result"], "deals": 1}}
    assert en.sentence(Event(2, "result_entered", one_deal)).endswith("home passed A, 1 deal played")
    assert zh.sentence(Event(2, "result_entered", one_deal)).endswith("主队过A，共打1副")


@pytest.mark.parametrize("entry", [
    Event(1, "table_moved", {"round": 1, "table": 2, "to": 5}),  # a type of a newer version
    Event(1, "result_entered", {"round": 1}),  # a known type with data it does not write
    Event(1, "deal_reported", {"round": 1, "table": 1, "deal": 1, "finish": ["N", "X"], "by": 1}),
    Event(1, "team_withdrawn", [1, 2]),  # type: ignore[arg-type]
    Event(1, "round_paired", {"round": 1, "tables": [[1]], "method": "swiss"}),
    Event(1, "result_overridden", {"round": 1, "table": 1, "result": {"levels": ["Z", "2"]}, "reason": "r"}),
])
def test_an_entry_this_version_cannot_read_is_said_as_such(entry: Event) -> None:
    for lang, words in (("zh", "log --json 可显示其原样"), ("en", "log --json shows it")):
        assert LogReader(lang).sentence(entry).endswith(words)


# ---- the walkthrough: a club event in Chinese, read from the command line -------------------------------
def _walkthrough(url: str) -> None:
    minutes = iter(range(1000))
    desk = Desk(make_engine(url), clock=lambda: START + timedelta(minutes=next(minutes)))
    tid = desk.create(EventConfig(name="秋季杯", rounds=2, per_deal=True, limits=RoundLimits(max_deals=8),
                                  time_zone="Asia/Shanghai"), secret=KEY)
    for name in ("北京队", "上海队", "南京队", "淮安队", "苏州队"):
        desk.register(tid, name, [f"{name}甲", f"{name}乙"], club="淮安棋牌协会" if name == "淮安队" else None)
    desk.withdraw(tid, "苏州队", "因故退赛")
    desk.pair_next(tid)
    desk.start_round(tid, at=START + timedelta(minutes=7, seconds=30))
    tb = desk.state(tid).table(1, 1).table
    desk.report_deal(tid, 1, 1, 1, "N E S", by=tb.away)
    desk.reject_deal(tid, 1, 1, 1, by=tb.home, reason="二游是南家")
    desk.report_deal(tid, 1, 1, 1, "N S E", by=tb.away)
    desk.confirm_deal(tid, 1, 1, 1, by=tb.home)
    desk.report_deal(tid, 1, 1, 2, "E W N", by=tb.away)
    desk.dispute_deal(tid, 1, 1, 2, by=tb.home, reason="末游有争议")
    desk.set_deals(tid, 1, 1, [{"finish": "N S E"}, {"finish": "E W N"}], "看了录像", end=True)
    with pytest.raises(TournamentError):
        desk.check_code(tid, 1, 2, "000000", actor="web")
    desk.override(tid, 1, 2, ResultSlip(("A", "T"), passed_a=0, deals=8), "以记分单为准")
    desk.engine.dispose()


CHINESE = {
    1: "   1 2026-12-05 14:00:00+08:00 裁判     创建瑞士制比赛“秋季杯”，共2轮",
    5: "   5 2026-12-05 14:04:00+08:00 裁判     4号队（淮安队）报名：淮安队甲 / 淮安队乙（淮安棋牌协会）",
    7: "   7 2026-12-05 14:06:00+08:00 裁判     5号队（苏州队）退赛；理由：因故退赛",
    8: "   8 2026-12-05 14:07:00+08:00 裁判     第1轮编排（随机抽签，种子 0）：第1桌：3号队（南京队）对1号队（北京队）；"
       "第2桌：2号队（上海队）对4号队（淮安队）",
    9: "   9 2026-12-05 14:08:00+08:00 裁判     第1轮于 2026-12-05 14:07:30+08:00 开始",
    10: "  10 2026-12-05 14:09:00+08:00 选手     第1轮第1桌第1副：1号队（北京队）报出完顺序 北 东 南 西",
    11: "  11 2026-12-05 14:10:00+08:00 选手     第1轮第1桌第1副：3号队（南京队）退回本副报分；理由：二游是南家",
    16: "  16 2026-12-05 14:15:00+08:00 裁判     第1轮第1桌：裁判设定各副，本轮就此结束：第1副：北 南 东 西；"
        "第2副：东 西 北 南；理由：看了录像",
    17: "  17 2026-12-05 14:16:00+08:00 记分页面 第1轮第2桌：输错代码（第1次，满5次锁定）",
    18: "  18 2026-12-05 14:17:00+08:00 裁判     第1轮第2桌：裁判裁定成绩为A:10，主队过A，共打8副；理由：以记分单为准",
}
ENGLISH = {
    1: "   1 2026-12-05 14:00:00+08:00 arbiter    created the Swiss event “秋季杯” of 2 rounds",
    8: "   8 2026-12-05 14:07:00+08:00 arbiter    round 1 paired (random, seed 0): table 1: team 3 (南京队) v "
       "team 1 (北京队); table 2: team 2 (上海队) v team 4 (淮安队)",
    10: "  10 2026-12-05 14:09:00+08:00 player     round 1 table 1 deal 1: team 1 (北京队) reported the finishing "
        "order North East South West",
    13: "  13 2026-12-05 14:12:00+08:00 player     round 1 table 1 deal 1: team 3 (南京队) confirmed it",
    15: "  15 2026-12-05 14:14:00+08:00 player     round 1 table 1 deal 2: team 3 (南京队) disputed it; reason: 末游有争议",
    17: "  17 2026-12-05 14:16:00+08:00 table page round 1 table 2: a wrong code (1 of 5)",
    18: "  18 2026-12-05 14:17:00+08:00 arbiter    round 1 table 2: the arbiter set the result to A:10, home passed A, "
        "8 deals played; reason: 以记分单为准",
}


def _cli(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.output


def test_the_log_of_a_walkthrough_in_chinese_and_english(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'walk.sqlite3'}"
    _walkthrough(url)
    for lang, expected in (("zh", CHINESE), ("en", ENGLISH)):
        code, out = _cli("log", "1", "--lang", lang, "--db", url)
        lines = out.splitlines()
        assert code == 0 and len(lines) == 18, out
        for seq, line in expected.items():
            assert lines[seq - 1] == line
        assert not RAW.search(out) and KEY not in out and not re.search(r"\bT\b", out), out
        if lang == "zh":
            assert not any(t in out for t in EVENT_TYPES), out
    # the environment's language without --lang (the tests' is English)
    assert _cli("log", "1", "--db", url)[1].splitlines()[16] == ENGLISH[17]
    # the JSON log is the log as stored: the secret redacted, levels and seats as written, times in UTC
    code, out = _cli("log", "1", "--json", "--db", url)
    entries = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and entries[0]["data"]["secret"] == "***" and entries[0]["at"].startswith("2026-12-05T06:00:00")
    assert {k: v for k, v in entries[9].items() if k != "at"} == {
        "seq": 10, "type": "deal_reported", "actor": "player",
        "data": {"round": 1, "table": 1, "deal": 1, "finish": ["N", "E", "S", "W"], "by": 1}}
    assert entries[17]["data"]["result"]["levels"] == ["A", "T"]
    # the spreadsheet: the data as JSON, and each entry in words in the last column, in --lang's language
    assert _cli("export", "1", "--out", str(tmp_path / "walk.xlsx"), "--lang", "zh", "--db", url)[0] == 0
    sheet = list(load_workbook(tmp_path / "walk.xlsx")["审计日志 Audit log"].iter_rows(values_only=True))
    head = sheet.index(("序号 Seq", "类型 Type", "操作人 Actor", "时间 At", "数据 Data", "记录 Entry"))
    rows = sheet[head + 1:]
    assert rows[17][5] == "第1轮第2桌：裁判裁定成绩为A:10，主队过A，共打8副；理由：以记分单为准"
    assert rows[7][5] == CHINESE[8].split("裁判     ", 1)[1]  # the pairing names its teams, as `log` says it
    assert json.loads(rows[17][4])["result"]["levels"] == ["A", "10"]  # the data column as before
    assert _cli("export", "1", "--out", str(tmp_path / "x.xlsx"), "--lang", "fr", "--db", url)[0] == 2


def test_a_log_written_by_a_newer_version_is_still_listed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'walk.sqlite3'}"
    _walkthrough(url)
    with sqlite3.connect(tmp_path / "walk.sqlite3") as conn:  # entries this version does not write
        for seq, type_, data in ((19, "table_moved", '{"round": 1, "table": 2, "to": 5}'),
                                 (20, "result_entered", '{"round": 1, "table": "two"}')):
            conn.execute("INSERT INTO tournament_events (tournament_id, seq, type, data, actor, created_at) "
                         "VALUES (1, ?, ?, ?, 'arbiter', '2026-12-05 06:30:00')", (seq, type_, data))
    code, out = _cli("log", "1", "--lang", "zh", "--db", url)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 20, out
    assert lines[18] == ("  19 2026-12-05 14:30:00+08:00 裁判     本版本的裁判台不认识这类记录（table_moved）；"
                         "log --json 可显示其原样")
    assert lines[19].endswith("本版本的裁判台读不懂这条 result_entered 记录的数据；log --json 可显示其原样")
    assert all(lines[seq - 1] == line for seq, line in CHINESE.items())  # the entries before, as ever
    code, out = _cli("log", "1", "--json", "--db", url)
    assert code == 0 and json.loads(out.splitlines()[18])["data"] == {"round": 1, "table": 2, "to": 5}


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["knockout round 1 paired (random, seed 3):", "team 3 (西湖队): bye", "team 2 (南山队) v team 1 (东风队)",
            "team 5 (中原队): bye", "team 4 (北斗队): bye"]),
    ("zh", ["淘汰赛第1轮编排（随机抽签，种子 3）：", "3号队（西湖队）轮空", "2号队（南山队）对1号队（东风队）",
            "5号队（中原队）轮空", "4号队（北斗队）轮空"]),
])
def test_a_knockout_pairing_names_its_teams_at_80_columns(tmp_path: Path, lang: str, words: list[str]) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    runner = CliRunner()
    teams = ("东风队", "南山队", "西湖队", "北斗队", "中原队")
    for args in (["new", "Knockout demo", "--format", "knockout", "--seed", "3", "--per-round"],
                 *(["register", "1", t, "--players", f"甲{t},乙{t}"] for t in teams), ["pair", "1"]):
        assert runner.invoke(app, [*args, "--db", db]).exit_code == 0
    wrapped = runner.invoke(app, ["log", "1", "--lang", lang, "--db", db], env={"COLUMNS": "80"}).output
    whole = runner.invoke(app, ["log", "1", "--lang", lang, "--db", db], env={"COLUMNS": None}).output
    assert max(width(line) for line in wrapped.splitlines()) <= 80, wrapped
    assert "".join(wrapped.split()) == "".join(whole.split())  # wrapped, not cut
    pairing = whole.splitlines()[6]  # the entry after the five registrations, on one line where not a terminal
    assert pairing.startswith("   7 ") and all(w in pairing for w in words), pairing


def test_the_partners_drawn_name_the_teams_of_a_pairing() -> None:
    """In a random-partners event the teams are named by the draw, not by a registration."""
    reader = LogReader("en")
    reader.sentence(Event(1, "partners_drawn", {"method": "random", "seed": 7, "teams": [
        {"name": "王五 / 赵六", "players": [1, 2]}, {"name": "孙七 / 周八", "players": [3, 4]},
        {"name": "吴九 / 郑十", "players": [5, 6]}]}))
    assert reader.sentence(Event(2, "knockout_paired", {"round": 1, "method": "random", "seed": 7, "repair": False,
                                                        "matches": [[1, 3], [None, 2]]})) == \
        "knockout round 1 paired (random, seed 7): team 1 (王五 / 赵六) v team 3 (吴九 / 郑十); team 2 (孙七 / 周八): bye"


def test_a_forfeit_says_its_score_its_team_and_how_late() -> None:
    """A forfeit's entry says the levels the event's rules scored it at (home first), the team that forfeited,
    as the log paired the table, and how late it was, where the entry says."""
    cfg = EventConfig(name="秋季杯", rounds=3, lateness=LatenessRules(forfeit_score=("K", "T"))).to_dict()
    said: dict[str, list[str]] = {}
    for lang in ("zh", "en"):
        reader = LogReader(lang)
        reader.sentence(Event(1, "created", {"config": cfg, "secret": KEY}))
        for seq, name in enumerate(("北京队", "Shanghai"), 2):
            reader.sentence(Event(seq, "team_registered", {"team": {"name": name, "players": ["甲", "乙"]}}))
        reader.sentence(Event(4, "round_paired", {"round": 1, "method": "random", "seed": 1, "tables": [[2, 1]]}))
        said[lang] = [reader.sentence(Event(5, "result_overridden", {
            "round": 1, "table": 1, "reason": "迟到", "late_minutes": 12,
            "result": {"levels": None, "passed_a": None, "deals": None, "forfeit": "away"}})),
            reader.sentence(Event(6, "result_entered", {
                "round": 1, "table": 1, "by": 1, "late_minutes": 10.5,
                "result": {"levels": None, "passed_a": None, "deals": None, "forfeit": "home"}})),
            reader.sentence(Event(7, "result_reported", {  # the log names no lateness: none is said
                "round": 1, "table": 1, "result": {"levels": None, "passed_a": None, "deals": None, "forfeit": "away"}}))]
        assert not any(RAW.search(s) for s in said[lang]), said[lang]
    assert said["en"] == [
        "round 1 table 1: the arbiter set the result to K:10, a forfeit by the away team, team 1 (北京队), "
        "12 minutes late; reason: 迟到",
        "round 1 table 1: team 1 (北京队) entered 10:K, a forfeit by the home team, team 2 (Shanghai), 10.5 minutes late",
        "round 1 table 1: result reported as K:10, a forfeit by the away team, team 1 (北京队)"]
    assert said["zh"] == [
        "第1轮第1桌：裁判裁定成绩为K:10，客队1号队（北京队）弃权，迟到12分钟；理由：迟到",
        "第1轮第1桌：1号队（北京队）登记成绩为10:K，主队2号队（Shanghai）弃权，迟到10.5分钟",
        "第1轮第1桌：上报成绩为K:10，客队1号队（北京队）弃权"]
    one = LogReader("en")
    one.sentence(Event(1, "created", {"config": cfg, "secret": KEY}))
    assert one.sentence(Event(2, "result_overridden", {  # a table the log did not pair: the side alone
        "round": 2, "table": 4, "reason": "r", "late_minutes": 1,
        "result": {"levels": None, "passed_a": None, "deals": None, "forfeit": "home"}})) == \
        "round 2 table 4: the arbiter set the result to 10:K, a forfeit by the home team, 1 minute late; reason: r"


def test_a_knockouts_forfeit_names_the_team_of_its_table() -> None:
    """A knockout numbers its tables over the matches that have two teams, a bye taking none."""
    reader = LogReader("en")
    reader.sentence(Event(1, "created", SAMPLES["created"]))
    for seq, name in enumerate(("东风队", "南山队", "西湖队"), 2):
        reader.sentence(Event(seq, "team_registered", {"team": {"name": name, "players": ["甲", "乙"]}}))
    reader.sentence(Event(5, "knockout_paired", {"round": 1, "method": "random", "seed": 2,
                                                 "matches": [[1, None], [3, 2]]}))
    assert reader.sentence(Event(6, "result_overridden", {
        "round": 1, "table": 1, "reason": "未到场",
        "result": {"levels": None, "passed_a": None, "deals": None, "forfeit": "home"}})) == \
        "round 1 table 1: the arbiter set the result to 6:A, a forfeit by the home team, team 3 (西湖队); reason: 未到场"


def test_the_lateness_of_a_forfeit_is_kept_in_the_log(tmp_path: Path) -> None:
    """``result --forfeit … --late-minutes N`` keeps N in the log entry (log --json), and ``log`` says it, in
    both languages, within 80 columns."""
    db = f"sqlite:///{tmp_path / 'late.sqlite3'}"
    runner = CliRunner()
    for args in (["new", "Cup", "--rounds", "2", "--seed", "3", "--per-round"],
                 *(["register", "1", t, "--players", f"甲{t},乙{t}"] for t in ("东风队", "南山队", "西湖队", "北斗队")),
                 ["pair", "1"],
                 ["result", "1", "-r", "1", "-t", "1", "--forfeit", "away", "--late-minutes", "12", "--override",
                  "--reason", "未到场"],
                 ["result", "1", "-r", "1", "-t", "2", "--forfeit", "home", "--override", "--reason", "弃权"]):
        assert runner.invoke(app, [*args, "--db", db]).exit_code == 0, args
    entries = [json.loads(line) for line in runner.invoke(app, ["log", "1", "--json", "--db", db]).output.splitlines()]
    assert entries[-2]["data"]["late_minutes"] == 12 and "late_minutes" not in entries[-1]["data"]
    tables = {t["table"]: (t["home"], t["away"]) for t in json.loads(
        runner.invoke(app, ["standings", "1", "--tables", "--json", "--db", db]).output)["tables"]}
    for lang, late, first, second in (
            ("en", "12 minutes late", "A:6, a forfeit by the away team, team {n} ({name})",
             "6:A, a forfeit by the home team, team {n} ({name})"),
            ("zh", "迟到12分钟", "A:6，客队{n}号队（{name}）弃权", "6:A，主队{n}号队（{name}）弃权")):
        number = {name: i for i, name in enumerate(("东风队", "南山队", "西湖队", "北斗队"), 1)}
        away, home = tables[1][1], tables[2][0]
        wrapped = runner.invoke(app, ["log", "1", "--lang", lang, "--db", db], env={"COLUMNS": "80"}).output
        assert max(width(line) for line in wrapped.splitlines()) <= 80, wrapped
        lines = runner.invoke(app, ["log", "1", "--lang", lang, "--db", db], env={"COLUMNS": None}).output.splitlines()
        assert first.format(n=number[away], name=away) in lines[-2] and late in lines[-2], lines[-2]
        assert second.format(n=number[home], name=home) in lines[-1], lines[-1]
        assert late not in lines[-1] and not RAW.search("\n".join(lines[-2:]))


def test_the_desk_keeps_a_forfeits_lateness_and_only_a_forfeits(tmp_path: Path) -> None:
    """A knockout's override goes through its own plan (it may re-pair the next round): the lateness is on the
    result's entry there too. A result that is no forfeit keeps no lateness."""
    desk = Desk(make_engine(f"sqlite:///{tmp_path / 'ko.sqlite3'}"))
    tid = desk.create(EventConfig(name="淘汰赛", format="knockout", per_deal=False), secret=KEY)
    for name in ("东风队", "南山队", "西湖队", "北斗队"):
        desk.register(tid, name, [f"甲{name}", f"乙{name}"])
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip(None, forfeit=1), "未到场", late_minutes=15.0)
    desk.override(tid, 1, 2, ResultSlip(("A", "8"), passed_a=0, deals=8), "记分单", late_minutes=15)
    *_, forfeit, played = desk.events(tid)
    assert forfeit.type == played.type == "result_overridden"
    assert forfeit.data["late_minutes"] == 15 and isinstance(forfeit.data["late_minutes"], int)
    assert "late_minutes" not in played.data
    assert desk.state(tid).table(1, 1).final == ResultSlip(None, forfeit=1)  # scored by the rules, as before
    desk.engine.dispose()
