"""Exports and JSON: numeric table columns, the cross-table, the audit log as JSON, stable snake_case keys."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]

from guandan.cliutil import width
from guandan.i18n import translator
from guandan.tournament.desk import Desk
from guandan.tournament.export import (
    EXPORT_ZH,
    STANDING_FIELDS,
    TABLE_FIELDS,
    TEAM_COLUMNS,
    cross_columns,
    cross_records,
    cross_rows,
    export_header,
    export_json,
    log_json,
    marked,
    readable_data,
    sheet_title,
    standing_records,
    standings_json,
    status_json,
    table_export_rows,
    table_records,
    tables_json,
    write_csv,
    write_xlsx,
)
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.state import Event

SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")

STANDING_KEYS = {"rank", "team_id", "team", "club", "players", "match_points", "opponents_points", "level_diff",
                 "levels_gained", "played", "wins", "draws", "losses", "byes", "withdrawn"}
TABLE_KEYS = {"round", "table", "home_id", "home", "away_id", "away", "result", "home_level", "home_level_text",
              "away_level", "away_level_text", "deals", "level_diff", "home_levels_gained", "away_levels_gained",
              "home_match_points", "away_match_points", "passed_a", "forfeit", "winner", "winner_team", "status",
              "source", "bye", "deals_reported", "ended_by", "locked"}
TEAM_KEYS = {"team", "team_id", "round", "table", "side", "seats", "opponent_id", "opponent", "bye"}
CROSS_KEYS = {"rank", "team_id", "team", "withdrawn", "match_points", "rounds"}
CROSS_ROUND_KEYS = {"round", "table", "opponent_id", "opponent", "side", "bye", "outcome", "score", "match_points"}


def snake_keys(value: Any, path: str = "") -> list[str]:
    """Every dict key anywhere in ``value`` that is not snake_case (with where it is)."""
    bad = []
    if isinstance(value, dict):
        for k, v in value.items():
            if not (isinstance(k, str) and SNAKE.match(k)):
                bad.append(f"{path}/{k}")
            bad += snake_keys(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            bad += snake_keys(v, f"{path}[{i}]")
    return bad


@pytest.fixture
def played(desk: Desk, new_event: Callable[..., int]) -> int:
    """Seven teams, two rounds, tables set by hand so every number below is known.

    Round 1: T1–T2 A:9, T1 passed A (7 deals); T3–T4 10:10 entered by T4, confirmed by T3; T5 forfeits to
    T6 (A:6); T7 has the bye. Round 2: T7–T1 J:Q entered by T1, not confirmed; T2–T3 K:5 (arbiter);
    T4–T5 no result. T5 then withdraws.
    """
    tid = new_event(7, rounds=3)
    desk.pair_next(tid)
    desk.repair(tid, [(1, 2), (3, 4), (5, 6)], bye=7, reason="by hand")
    desk.override(tid, 1, 1, ResultSlip.parse("A:9", "home", 7), "slip")
    desk.enter_result(tid, 1, 2, ResultSlip.parse("10:10"), 4)
    desk.confirm(tid, 1, 2, 3)
    desk.override(tid, 1, 3, ResultSlip.parse(None, forfeit="home"), "T5 late")
    desk.pair_next(tid)
    desk.repair(tid, [(7, 1), (2, 3), (4, 5)], bye=6, reason="by hand")
    desk.enter_result(tid, 2, 1, ResultSlip.parse("J:Q"), 1)
    desk.override(tid, 2, 2, ResultSlip.parse("K:5"), "slip")
    desk.withdraw(tid, 5, "went home")
    return tid


def test_table_records_carry_the_numbers(desk: Desk, played: int) -> None:
    state = desk.state(played)
    rows = {(r["round"], r["table"]): r for r in table_records(state)}
    assert set(rows) == {(1, 1), (1, 2), (1, 3), (1, None), (2, 1), (2, 2), (2, 3), (2, None)}
    a = rows[1, 1]
    assert (a["home"], a["away"], a["home_id"], a["away_id"]) == ("T1", "T2", 1, 2)
    assert (a["home_level"], a["home_level_text"], a["away_level"], a["away_level_text"]) == (14, "A", 9, "9")
    assert (a["deals"], a["level_diff"], a["home_levels_gained"], a["away_levels_gained"]) == (7, 5, 12, 7)
    assert (a["home_match_points"], a["away_match_points"], a["winner"], a["winner_team"]) == (2, 0, "home", "T1")
    assert (a["passed_a"], a["forfeit"], a["status"], a["source"], a["result"]) == ("home", None, "final", "override",
                                                                                  "A:9 过A")
    draw = rows[1, 2]
    assert (draw["home_level"], draw["home_level_text"], draw["away_level_text"]) == (10, "10", "10")  # never "T"
    assert (draw["level_diff"], draw["home_match_points"], draw["away_match_points"]) == (0, 1, 1)
    assert (draw["winner"], draw["winner_team"], draw["source"], draw["deals"]) == ("draw", "draw", "confirmed", None)
    forfeit = rows[1, 3]
    assert (forfeit["home_level"], forfeit["away_level"], forfeit["forfeit"], forfeit["winner"]) == (6, 14, "home", "away")
    bye = rows[1, None]
    assert bye["bye"] and (bye["home"], bye["away"], bye["home_level"], bye["home_match_points"]) == ("T7", None, 14, 2)
    pending = rows[2, 1]
    assert pending["status"] == "entered" and pending["result"] == "(J:Q)"
    assert all(pending[k] is None for k in ("home_level", "away_level", "level_diff", "home_match_points", "winner"))
    assert rows[2, 3]["status"] == "missing" and rows[2, 3]["result"] == ""
    for r in rows.values():
        assert set(r) == TABLE_KEYS
        assert r["bye"] or (r["home_level"] is None) == (r["status"] != "final")


def test_a_pending_result_is_in_the_brackets_of_the_readers_language(desk: Desk, played: int, tmp_path: Path) -> None:
    """Round 2 table 1's J:Q waits for T7 to confirm: the records and --json keep "(J:Q)", but where a Chinese
    reader reads it (the exports, the CLI's listings, the arbiter's page) it is in full-width brackets, "（J:Q）",
    as every other bracket of the desk's Chinese is ("T5（已退赛）"); English keeps "(J:Q)"."""
    from guandan.tournament.web import result_words

    state = desk.state(played)
    zh = next(r for r in table_export_rows(state, 2, "zh") if r["Table"] == 1)
    en = next(r for r in table_export_rows(state, 2, "en") if r["Table"] == 1)
    assert (zh["Result"], en["Result"]) == ("（J:Q）", "(J:Q)")
    write_csv(state, tmp_path / "out")
    tables = list(csv.DictReader((tmp_path / "out" / "tables.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert [t["结果 Result"] for t in tables if t["轮次 Round"] == "2" and t["桌号 Table"] == "1"] == ["（J:Q）"]
    ts = state.table(2, 1)
    said = {lang: result_words(state, ts, translator("desk", lang).gettext) for lang in ("zh", "en")}
    assert said == {"zh": "（J : Q）", "en": "(J : Q)"}
    assert marked("(Q:J 过A)", translator("desk", "zh").gettext) == "（Q:J 过A）"


def test_standing_records(desk: Desk, played: int) -> None:
    state = desk.state(played)
    recs = standing_records(state)
    assert all(set(r) == STANDING_KEYS for r in recs)
    by_id = {r["team_id"]: r for r in recs}
    assert by_id[5]["withdrawn"] is True and by_id[5]["team"] == "T5"  # its own field, not a marker in the name
    assert sum(r["withdrawn"] for r in recs) == 1
    assert by_id[1]["players"] == ["P1a", "P1b"] and by_id[1]["club"] == "C1"


def test_cross_table(desk: Desk, played: int) -> None:
    state = desk.state(played)
    cross = {c["team_id"]: c for c in cross_records(state)}
    assert [c["team_id"] for c in cross_records(state)] == [s.team_id for s in state.standings()]
    for c in cross.values():
        assert set(c) == CROSS_KEYS and [g["round"] for g in c["rounds"]] == [1, 2]
        assert all(set(g) == CROSS_ROUND_KEYS for g in c["rounds"])
        # the round's 场分 add up to the total, and every game is seen from both sides alike
        assert sum(g["match_points"] or 0 for g in c["rounds"]) == c["match_points"]
        for g in c["rounds"]:
            if g["opponent_id"] is not None:
                back = cross[g["opponent_id"]]["rounds"][g["round"] - 1]
                assert back["opponent_id"] == c["team_id"] and back["table"] == g["table"]
                assert {g["side"], back["side"]} == {"home", "away"}
    t1 = cross[1]["rounds"]
    assert t1[0] | {} == {"round": 1, "table": 1, "opponent_id": 2, "opponent": "T2", "side": "home", "bye": False,
                          "outcome": "win", "score": "A:9 过A", "match_points": 2}
    assert (t1[1]["opponent"], t1[1]["side"], t1[1]["outcome"], t1[1]["match_points"]) == ("T7", "away", None, None)
    assert (cross[2]["rounds"][0]["outcome"], cross[2]["rounds"][0]["score"]) == ("loss", "9:A")
    assert cross[7]["rounds"][0] | {} == {"round": 1, "table": None, "opponent_id": None, "opponent": None,
                                          "side": None, "bye": True, "outcome": "win", "score": "bye",
                                          "match_points": 2}
    assert (cross[5]["rounds"][0]["score"], cross[5]["rounds"][0]["outcome"]) == ("6:A forfeit", "loss")
    assert cross[3]["rounds"][0]["outcome"] == "draw" and cross[3]["rounds"][0]["score"] == "10:10"
    # the spreadsheet's form: a column per round for opponent, side, result, 场分
    row = next(r for r in cross_rows(state, "en") if r["No."] == 1)
    assert (row["R1 对手 Opp"], row["R1 座位 Seats"], row["R1 结果 Result"], row["R1 场分 MP"]) == ("T2", "N–S", "W A:9 过A", 2)
    assert (row["R2 对手 Opp"], row["R2 座位 Seats"], row["R2 结果 Result"], row["R2 场分 MP"]) == ("T7", "E–W", "", "")
    bye_row = next(r for r in cross_rows(state, "en") if r["No."] == 7)
    assert (bye_row["R1 对手 Opp"], bye_row["R1 结果 Result"]) == ("bye", "W bye")
    # in Chinese (the default) as a Chinese arbiter writes it: seats, 胜/平/负, a bye, a forfeit, a withdrawal
    zh = {r["No."]: r for r in cross_rows(state)}
    assert (zh[1]["R1 座位 Seats"], zh[1]["R1 结果 Result"], zh[1]["R2 座位 Seats"]) == ("南北", "胜 A:9 过A", "东西")
    assert (zh[7]["R1 对手 Opp"], zh[7]["R1 结果 Result"], zh[3]["R1 结果 Result"]) == ("轮空", "胜 轮空", "平 10:10")
    assert (zh[5]["Team"], zh[5]["R1 结果 Result"]) == ("T5（已退赛）", "负 6:A 弃权")


def test_json_shapes_are_snake_case_and_stable(desk: Desk, played: int) -> None:
    state = desk.state(played)
    events = desk.events(played)
    docs = {"standings": standings_json(state), "tables": tables_json(state), "status": status_json(state),
            "export": export_json(state, events)}
    for name, doc in docs.items():
        assert snake_keys({k: v for k, v in doc.items() if k != "log"}) == [], name
        json.dumps(doc)  # plain JSON values only
    s = docs["standings"]
    assert set(s) == {"tournament", "name", "after_round", "completed_rounds", "tiebreaks", "standings"}
    assert s["tiebreaks"] == ["match_points", "opponents_points", "level_diff", "levels_gained"]
    t = docs["tables"]
    assert set(t) == {"tournament", "name", "round", "tables", "by_team"}
    assert all(set(r) == TEAM_KEYS for r in t["by_team"])
    st = docs["status"]
    assert set(st) == {"tournament", "name", "teams", "active_teams", "rounds", "rounds_total", "current_round",
                       "completed_rounds", "finished", "tables", "bye", "clock", "time_zone", "ready_to_pair",
                       "pairing_blockers"}
    assert (st["current_round"], st["teams"], st["active_teams"], st["ready_to_pair"]) == (2, 7, 6, False)
    assert st["bye"] == {"team_id": 6, "team": "T6"}
    assert [(x["table"], x["home"], x["away"], x["status"], x["result"], x["source"]) for x in st["tables"]] == [
        (1, "T7", "T1", "entered", "(J:Q)", None), (2, "T2", "T3", "final", "K:5", "override"),
        (3, "T4", "T5", "missing", "", None)]
    assert st["clock"]["phase"] == "not_started" and len(st["pairing_blockers"]) == 2
    assert st["time_zone"] is None  # the event names no zone: its times are the machine's
    e = docs["export"]
    assert set(e) == {"tournament", "name", "rounds", "rounds_total", "current_round", "completed_rounds", "tiebreaks",
                      "standings", "tables", "by_team", "cross_table", "log"}
    assert st["rounds"] == st["rounds_total"] == e["rounds"] == e["rounds_total"] == state.cfg.rounds  # Swiss: one


def test_log_json_round_trips(desk: Desk, played: int) -> None:
    events = desk.events(played)
    back = json.loads(log_json(events))
    assert back == [json.loads(json.dumps(e.to_dict())) for e in events]
    assert back[0]["type"] == "created" and back[0]["data"]["secret"] == "***"
    assert [d["seq"] for d in back] == list(range(1, len(events) + 1))
    assert json.loads(log_json([])) == []


def test_xlsx_numbers_cross_table_and_log(desk: Desk, played: int, tmp_path: Path) -> None:
    state = desk.state(played)
    events = desk.events(played)
    wb = load_workbook(write_xlsx(state, tmp_path / "cup.xlsx", events))
    assert wb.sheetnames == ["成绩排名 Standings", "第1轮后排名 After R1", "按桌号 Tables", "按队名 By team",
                             "交叉表 Cross-table", "审计日志 Audit log"]
    sheet = list(wb["按桌号 Tables"].iter_rows(values_only=True))
    header = sheet.index(next(r for r in sheet if r[0] == "轮次 Round"))
    cols = sheet[header]
    assert cols == tuple(export_header(label) for _key, label in TABLE_FIELDS)
    first = dict(zip(cols, sheet[header + 1], strict=True))
    assert (first["主队级数 Home level"], first["主队级数（写法） Home level (written)"],
            first["客队级数 Away level"]) == (14, "A", 9)
    assert (first["副数 Deals"], first["级差 Winning margin"], first["主队升级数 Home levels gained"]) == (7, 5, 12)
    assert (first["主队场分 Home MP"], first["客队场分 Away MP"], first["胜方 Winner"]) == (2, 0, "T1")
    assert all(isinstance(first[c], int) for c in ("主队级数 Home level", "级差 Winning margin", "客队场分 Away MP"))
    standings = list(wb["成绩排名 Standings"].iter_rows(values_only=True))
    h = standings.index(next(r for r in standings if r[0] == "名次 Rank"))
    assert standings[h][-1] == "退赛 Withdrawn"
    assert [r[-1] for r in standings[h + 1:] if r[1] == 5] == ["已退赛"]
    cross = list(wb["交叉表 Cross-table"].iter_rows(values_only=True))
    ch = cross.index(next(r for r in cross if r[0] == "名次 Rank"))
    assert cross[ch][3:7] == ("R1 对手 Opp", "R1 座位 Seats", "R1 结果 Result", "R1 场分 MP")
    assert len(cross) - ch - 1 == 7
    log = list(wb["审计日志 Audit log"].iter_rows(values_only=True))
    lh = log.index(("序号 Seq", "类型 Type", "操作人 Actor", "时间 At", "数据 Data", "记录 Entry"))
    # JSON, never repr; levels as people write them (the sheet is read, not replayed)
    assert [json.loads(r[4]) for r in log[lh + 1:]] == [readable_data(e.to_dict()["data"]) for e in events]
    assert any('"levels": ["10", "10"]' in r[4] for r in log[lh + 1:]) and not any('"T"' in r[4] for r in log[lh + 1:])
    # and each entry in words, last, in the language asked for (Chinese by default)
    said = [r[5] for r in log[lh + 1:]]
    assert said[0] == "创建瑞士制比赛“Test Cup”，共3轮"
    assert "第1轮第2桌：4号队（T4）登记成绩为10:10" in said and said[-1] == "5号队（T5）退赛；理由：went home"
    english = list(load_workbook(write_xlsx(state, tmp_path / "en.xlsx", events, "en"))["审计日志 Audit log"].iter_rows(
        values_only=True))
    assert english[lh + 1:][-1][5] == "team 5 (T5) withdrew; reason: went home"
    assert "secret" not in " ".join(said) and not any("{" in x or "[" in x for x in said)


def test_csv_folder_has_the_cross_table_and_the_log(desk: Desk, played: int, tmp_path: Path) -> None:
    state = desk.state(played)
    events = desk.events(played)
    written = write_csv(state, tmp_path / "out", events)
    assert [p.name for p in written] == ["standings.csv", "tables.csv", "by_team.csv", "cross_table.csv", "log.json"]
    rows = list(csv.DictReader((tmp_path / "out" / "cross_table.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert [r["队伍 Team"] for r in rows] == [c["team"] + ("（已退赛）" if c["withdrawn"] else "")
                                           for c in cross_records(state)]
    tables = list(csv.DictReader((tmp_path / "out" / "tables.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert (tables[0]["主队级数 Home level"], tables[0]["客队级数（写法） Away level (written)"]) == ("14", "9")
    assert json.loads((tmp_path / "out" / "log.json").read_text(encoding="utf-8")) == \
        [json.loads(json.dumps(e.to_dict())) for e in events]


def _bilingual(header: str) -> bool:
    """Chinese and English both: a CJK character and a Latin letter."""
    return re.search(r"[\u4e00-\u9fff]", header) is not None and re.search(r"[A-Za-z]", header) is not None


def test_every_exported_header_is_in_both_languages_in_the_old_order(desk: Desk, played: int, tmp_path: Path) -> None:
    """README: headers people read are bilingual ("场分 MP"); "No., Team, Club, Players, Played, W, D, L, Byes"
    were English only. The columns keep their order, each header its English word last."""
    state = desk.state(played)
    events = desk.events(played)
    write_csv(state, tmp_path / "out", events)
    expected = {"standings.csv": [label for _key, label in STANDING_FIELDS],
                "tables.csv": [label for _key, label in TABLE_FIELDS], "by_team.csv": list(TEAM_COLUMNS),
                "cross_table.csv": cross_columns(state)}
    for name, labels in expected.items():
        head = next(csv.reader((tmp_path / "out" / name).read_text(encoding="utf-8-sig").splitlines()))
        assert all(_bilingual(h) for h in head), (name, [h for h in head if not _bilingual(h)])
        assert [h.endswith(label.split(" ", 1)[-1] if _bilingual(label) else label) for h, label in
                zip(head, labels, strict=True)] == [True] * len(labels)
    standings = next(csv.reader((tmp_path / "out" / "standings.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert standings[:5] == ["名次 Rank", "编号 No.", "队伍 Team", "单位 Club", "队员 Players"]
    assert standings[9:14] == ["场次 Played", "胜 W", "平 D", "负 L", "轮空 Byes"]
    wb = load_workbook(write_xlsx(state, tmp_path / "cup.xlsx", events))
    for sheet in wb.worksheets:
        rows = list(sheet.iter_rows(values_only=True))
        head = next(r for r in rows if len([c for c in r if c is not None]) > 2)
        assert all(_bilingual(str(h)) for h in head), (sheet.title, head)
    # the Chinese words are the desk catalogue's, where it has the word
    zh = translator("desk", "zh")
    for label, word in EXPORT_ZH.items():
        said = zh.gettext(label)
        assert said in (label, word), (label, said, word)
    assert export_header("场分 MP") == "场分 MP"


def _halves(header: str) -> tuple[str, str]:
    """A bilingual header's Chinese and its English ("R1 座位 Seats" -> ("R1 座位", "R1 Seats"))."""
    words = header.split()
    han = [w for w in words if re.search(r"[\u4e00-\u9fff]", w)]
    latin = [w for w in words if w not in han and not re.fullmatch(r"R\d+", w)]
    prefix = [w for w in words if re.fullmatch(r"R\d+", w)]
    return " ".join(prefix + han), " ".join(prefix + latin)


def test_each_header_names_one_column_and_a_side_is_one_word(desk: Desk, played: int, tmp_path: Path) -> None:
    """The tables sheet had 南北级 over both "Home level" and "Home level (written)", said a side 主队 in one header
    and 南北 in the next, and the cross-table's "座 Side" was the by-team sheet's "座位 Seats": in every CSV file
    (and the workbook's sheets, which have the same headers) each header's Chinese and its English name one
    column, a side is 主队/客队 wherever a header says Home/Away, and the seats are 座位 Seats in both sheets."""
    state = desk.state(played)
    write_csv(state, tmp_path / "out", desk.events(played))
    heads = {name: next(csv.reader((tmp_path / "out" / name).read_text(encoding="utf-8-sig").splitlines()))
             for name in ("standings.csv", "tables.csv", "by_team.csv", "cross_table.csv")}
    for name, head in heads.items():
        for half in (0, 1):
            said = [_halves(h)[half] for h in head]
            assert len(set(said)) == len(said), (name, sorted({w for w in said if said.count(w) > 1}))
    for h in heads["tables.csv"]:
        zh, en = _halves(h)
        if re.match(r"(Home|Away)\b", en):
            assert zh.startswith("主队" if en.startswith("Home") else "客队"), h
        assert not re.match(r"(南北|东西)", zh), h  # seats only in brackets after the side: 主队（南北）
    assert "主队级数（写法） Home level (written)" in heads["tables.csv"]
    seats = export_header("Seats")
    assert seats in heads["by_team.csv"] and [h for h in heads["cross_table.csv"] if "Seat" in h or "座" in h] == [
        f"R{n} {seats}" for n in sorted(state.rounds)]
    wb = load_workbook(write_xlsx(state, tmp_path / "cup.xlsx", desk.events(played)))
    for sheet, name in (("按桌号 Tables", "tables.csv"), ("按队名 By team", "by_team.csv"),
                        ("交叉表 Cross-table", "cross_table.csv")):
        header, rows = _sheet_rows(wb[sheet])
        assert list(rows[header - 1]) == heads[name], sheet


#: What a person must not find in a cell of the xlsx or CSV files (outside the Audit log's JSON data column): the
#: records' coded values and the log's raw authors and entry types.
RAW = {"in_play", "final", "entered", "missing", "rejected", "disputed", "bye", "home", "away", "draw", "yes",
       "override", "confirmed", "rule", "server", "arbiter", "player", "web", "online:#7", "forfeit", "withdrawn",
       "N–S", "E–W", "W", "D", "L", "(withdrawn)", "None", "True", "False"}


def _words(value: object) -> set[str]:
    return set(re.split(r"[\s()（）]+", str(value))) - {""}


def _extra_entries(events: list[Event]) -> list[Event]:
    """The log with entries by the other authors: the table page, a player's account, an author and an entry
    type this version does not know (a newer version's)."""
    n = len(events)
    at = events[-1].at
    return [*events, Event(n + 1, "code_refused", {"round": 2, "table": 3, "side": "home"}, "web", at),
            Event(n + 2, "result_entered", {"round": 2, "table": 3, "by": 4, "result": {"levels": ["T", "8"]}},
                  "online:#7", at),
            Event(n + 3, "future_thing", {"x": 1}, "some_new_tool", at)]


def _sheet_rows(sheet: object) -> tuple[int, list[tuple[object, ...]]]:
    """A sheet's header row (1-based) and all its rows."""
    rows = list(sheet.iter_rows(values_only=True))  # type: ignore[attr-defined]
    head = next(i for i, r in enumerate(rows) if len([c for c in r if c is not None]) > 2)
    return head + 1, rows


def test_the_workbook_reads_as_a_chinese_arbiter_writes_it(desk: Desk, played: int, tmp_path: Path) -> None:
    """Every sheet opened and read: the sheets' names in Chinese and English as the headers are; in the cells
    no coded value, raw author or entry type, repr or English word of the desk's own (teams, players and clubs
    keep their names); the actor and the kind of each log entry in words; the header row and the columns
    that name a row frozen; every column wide enough for its text, a Chinese character counting two."""
    state = desk.state(played)
    events = _extra_entries(desk.events(played))
    wb = load_workbook(write_xlsx(state, tmp_path / "cup.xlsx", events))
    for sheet in wb.worksheets:
        assert _bilingual(sheet.title) and len(sheet.title) <= 31 and not re.search(r"[][:*?/\\]", sheet.title)
        head, rows = _sheet_rows(sheet)
        header = rows[head - 1]
        assert sheet.freeze_panes is not None and sheet.freeze_panes.endswith(str(head + 1)), sheet.title
        assert sheet.freeze_panes[0] != "A", sheet.title  # the rank, number or team stays beside the numbers
        # the titles above the header are in the export's language (Chinese)
        assert all(re.search(r"[\u4e00-\u9fff]", str(r[0])) for r in rows[:head - 1]), rows[:head - 1]
        data_col = header.index("数据 Data") if "数据 Data" in header else None
        for r in rows[head:]:
            if "future_thing" in r:  # a newer version's entry: its type and author as written (below)
                continue
            for i, value in enumerate(r):
                if i == data_col or value is None or isinstance(value, int):
                    continue
                if header[i] != "记录 Entry":  # (its sentences quote the reasons typed: "理由：went home")
                    assert not _words(value) & RAW, (sheet.title, header[i], value)
                assert not re.search(r"[\[{]|\b[a-z]+_[a-z_]+\b", str(value)), (sheet.title, header[i], value)
        for i, col in enumerate(header, 1):
            letter = sheet.cell(row=head, column=i).column_letter
            need = max([width(str(r[i - 1])) for r in rows[head:] if r[i - 1] is not None], default=0)
            chinese = width(str(col).split()[0])
            got = sheet.column_dimensions[letter].width
            assert got >= min(need, 40) and got >= chinese + 2, (sheet.title, col, got, need)
    log_head, log = _sheet_rows(wb["审计日志 Audit log"])
    entries = [dict(zip(log[log_head - 1], r, strict=True)) for r in log[log_head:]]
    assert [e["操作人 Actor"] for e in entries[-3:]] == ["记分页面", "账号 #7", "some_new_tool"]
    assert {e["操作人 Actor"] for e in entries[:-3]} == {"裁判", "选手"}
    assert [e["类型 Type"] for e in entries[:2]] == ["创建比赛", "队伍报名"]
    assert [e["类型 Type"] for e in entries[-3:]] == ["代码错误", "登记成绩", "future_thing"]  # a newer type as written
    assert "裁判裁定成绩" in {e["类型 Type"] for e in entries}
    # the raw entry stays in the JSON exports (log.json, --log, --format json) and the data as JSON here
    assert json.loads(str(entries[-2]["数据 Data"]))["result"]["levels"] == ["10", "8"]
    assert json.loads(log_json(events))[-2]["actor"] == "online:#7"
    # every value a person reads, as Chinese writes it
    tables_head, tables = _sheet_rows(wb["按桌号 Tables"])
    t = {(r[0], r[1]): dict(zip(tables[tables_head - 1], r, strict=True)) for r in tables[tables_head:]}
    assert (t[1, 1]["过A Passed A"], t[1, 1]["状态 Status"], t[1, 1]["来源 Source"]) == ("主队", "已确认", "裁判裁定")
    assert (t[1, 2]["胜方 Winner"], t[1, 2]["来源 Source"], t[1, 3]["结果 Result"]) == ("平局", "双方确认", "6:A 弃权")
    assert (t[1, 3]["弃权 Forfeit"], t[1, "轮空"]["结果 Result"], t[1, "轮空"]["来源 Source"]) == ("主队", "轮空", "按规则")
    assert (t[2, 1]["状态 Status"], t[2, 3]["状态 Status"]) == ("待确认", "未录入")
    team_head, by_team = _sheet_rows(wb["按队名 By team"])
    assert {r[4] for r in by_team[team_head:]} == {"南北", "东西", None}
    assert next(r[3] for r in by_team[team_head:] if r[0] == "T7") == "轮空"
    standings = list(wb["成绩排名 Standings"].iter_rows(values_only=True))
    # round 2's final table (T2–T3 K:5) is among the figures: the title says so
    assert standings[0][0] == "Test Cup：第1轮后的排名（共3轮）；第2轮进行中：已确定1桌成绩（共3桌）"
    assert standings[1][0] == "排名依据：场分、对手分、级差分、升级数"


def test_sheet_names_fit_excel(desk: Desk, played: int, tmp_path: Path) -> None:
    """Excel allows 31 characters and none of []:*?/\\ in a sheet's name: so do the names of a long event's."""
    assert sheet_title("After R{n}", 999) == "第999轮后排名 After R999"
    assert all(len(sheet_title(name, 999)) <= 31 for name in
               ("Standings", "After R{n}", "Tables", "By team", "Cross-table", "Audit log"))
    zh = translator("desk", "zh")
    for name, word in (("Standings", "成绩排名"), ("Tables by number", "按桌号")):
        assert zh.gettext(name) == word  # the pages' words


def test_the_english_export_says_its_words_in_english(desk: Desk, played: int, tmp_path: Path) -> None:
    """``export --lang en``: the same sheets and headers, the titles and words in English."""
    state = desk.state(played)
    events = _extra_entries(desk.events(played))
    wb = load_workbook(write_xlsx(state, tmp_path / "en.xlsx", events, "en"))
    zh = load_workbook(write_xlsx(state, tmp_path / "zh.xlsx", events))
    assert wb.sheetnames == zh.sheetnames
    for en_sheet, zh_sheet in zip(wb.worksheets, zh.worksheets, strict=True):
        (en_head, en_rows), (zh_head, zh_rows) = _sheet_rows(en_sheet), _sheet_rows(zh_sheet)
        assert en_rows[en_head - 1] == zh_rows[zh_head - 1]  # the bilingual headers, whichever the language
    assert next(wb["成绩排名 Standings"].iter_rows(values_only=True))[0] == \
        "Test Cup: standings after 1 of 3 rounds; round 2 in play: 1 of 3 results in"
    log = list(wb["审计日志 Audit log"].iter_rows(values_only=True))
    assert [r[1:3] for r in log[-3:]] == [("wrong code", "table page"), ("result entered", "account #7"),
                                          ("future_thing", "some_new_tool")]
    tables_head, tables = _sheet_rows(wb["按桌号 Tables"])
    first = dict(zip(tables[tables_head - 1], tables[tables_head], strict=True))
    assert (first["过A Passed A"], first["状态 Status"], first["来源 Source"]) == ("home", "final", "set by the arbiter")


def test_the_csv_files_say_what_the_workbook_says(desk: Desk, played: int, tmp_path: Path) -> None:
    """The CSV files are read in Excel too: the same words as the workbook's sheets, in the export's language."""
    state = desk.state(played)
    events = desk.events(played)
    wb = load_workbook(write_xlsx(state, tmp_path / "cup.xlsx", events))
    write_csv(state, tmp_path / "zh", events)
    write_csv(state, tmp_path / "en", events, "en")
    for name, sheet in (("standings.csv", "成绩排名 Standings"), ("tables.csv", "按桌号 Tables"),
                        ("by_team.csv", "按队名 By team"), ("cross_table.csv", "交叉表 Cross-table")):
        rows = list(csv.reader((tmp_path / "zh" / name).read_text(encoding="utf-8-sig").splitlines()))
        head, book = _sheet_rows(wb[sheet])
        assert rows == [["" if v is None else str(v) for v in r] for r in book[head - 1:]], name
        for r in rows[1:]:
            assert not set().union(*(_words(v) for v in r)) & RAW, (name, r)
    tables = list(csv.DictReader((tmp_path / "en" / "tables.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert (tables[3]["桌号 Table"], tables[3]["来源 Source"], tables[1]["胜方 Winner"]) == ("bye", "by the rules", "draw")


def test_the_export_counts_one_round_as_one(desk: Desk, new_event: Callable[..., int], tmp_path: Path) -> None:
    """The standings' title of an event of one round says "1 round" in English; Chinese says it as before."""
    tid = new_event(2, rounds=1)
    desk.pair_next(tid)
    desk.override(tid, 1, 1, ResultSlip.parse("7:5"), "slip")
    state = desk.state(tid)
    titles = {lang: next(load_workbook(write_xlsx(state, tmp_path / f"{lang}.xlsx", [], lang))["成绩排名 Standings"]
                         .iter_rows(values_only=True))[0] for lang in ("en", "zh")}
    assert titles == {"en": "Test Cup: standings after 1 of 1 round", "zh": "Test Cup：第1轮后的排名（共1轮）"}
