"""A hand-checked 8-team, 3-round event, end to end through the CLI (and one server report).

Teams A…H register with ratings 1800…1100 (numbers 1…8); round 1 is seeded by rating, so it folds:
A-E, B-F, C-G, D-H. Results are given home first (home = North–South = better placed).

Round 1: A-E  A:6, A passed A  → A +8 (gained 12, 4)
         B-F  9:9              → draw (7, 7)
         C-G  5:J              → G +6 (3, 9)
         D-H  K:Q              → D +1 (11, 10)   (reported by the game server)
After round 1 (场分, 对手分, 级差分, 升级数):
    A 2,0,+8,12   G 2,0,+6,9   D 2,0,+1,11   B 1,1,0,7 = F 1,1,0,7   H 0,2,-1,10   C 0,2,-6,3   E 0,2,-8,4
    (A, G, D tie on 场分 and 对手分 (each beat a 0-point team) and split on 级差分; B and F are equal on every
    column and share rank 4; among H, C, E 对手分 is 2 each and 级差分 orders them.)
Round 2 pairing: 场分 groups 2,2,2 | 1,1 | 0,0,0. The cheapest score cost is two one-point floats (a 2 meets
a 1, the other 1 meets a 0), and among those the unique all-adjacent pairing in the order above is
A-G, D-B, F-H, C-E (no rematch: B-F, A-E have met but are not adjacent here).
Round 2: A-G  8:Q → G +4 (6, 10)
         D-B  A:K, D passed A → D +1 (12, 11)
         F-H  T:T → draw (8, 8)
         C-E  3:7 → E +4 (1, 5)
After round 2: G 4,2,+10,19   D 4,2,+2,23   A 2,6,+4,18   F 2,2,0,15   E 2,2,-4,9   B 1,6,-1,18 = H 1,6,-1,18
    C 0,6,-10,4
    (对手分 e.g. A met E (2) and G (4) = 6; D met H (1) and B (1) = 2. B and H tie on everything: rank 6 twice.)
Round 3 pairing: G-D (4 v 4), then A, F, E on 2 with A-E already played: A-F, and E floats to B (1);
H meets C. All four pairs are adjacent in the order G, D, A, F, E, B, H, C, so this is the optimum.
Round 3: G-D  J:J → draw (9, 9)
         A-F  F 12 minutes late → forfeit, scored A:6 for A (12, 4)
         E-B  6:9 → B +3 (4, 7)
         H-C  Q:4 → H +8 (10, 2)
Final: D 5,11,+2,32   G 5,9,+10,28   A 4,9,+12,30   B 3,9,+2,25   H 3,7,+7,28   F 2,10,-8,19   E 2,7,-7,13
       C 0,10,-18,6
    (D and G tie on 5 场分; D's opponents H, B, G have 3+3+5 = 11 against G's C, A, D = 0+4+5 = 9.)
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from openpyxl import load_workbook  # type: ignore[import-untyped]
from typer.testing import CliRunner

from guandan.tournament.cli import app
from guandan.tournament.desk import Desk, report_table_result

runner = CliRunner()


def cli(db: str, *args: str, ok: bool = True) -> str:
    res = runner.invoke(app, [*args, "--db", db])
    if ok:
        assert res.exit_code == 0, res.output
    return res.output


def standings(db: str, after: int | None = None) -> list[tuple[object, ...]]:
    extra = ["--after-round", str(after)] if after is not None else []
    rows = json.loads(cli(db, "standings", "1", "--json", *extra))["standings"]
    return [(r["rank"], r["team"], r["match_points"], r["opponents_points"], r["level_diff"], r["levels_gained"])
            for r in rows]


def tables(db: str, round_no: int) -> list[tuple[str, str]]:
    out = json.loads(cli(db, "standings", "1", "--tables", "--json", "--after-round", str(round_no)))
    return [(r["home"], r["away"]) for r in out["tables"] if r["round"] == round_no]


def enter_and_confirm(db: str, r: int, t: int, levels: str, *extra: str) -> None:
    cli(db, "result", "1", "-r", str(r), "-t", str(t), "--levels", levels, *extra)
    cli(db, "confirm", "1", "-r", str(r), "-t", str(t))


def test_eight_teams_three_rounds(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cup.sqlite3'}"
    assert "created tournament 1" in cli(db, "new", "Eight Cup", "--rounds", "3", "--first-round", "rating", "--per-round")
    for i, name in enumerate("ABCDEFGH"):
        cli(db, "register", "1", name, "--players", f"{name}1,{name}2", "--rating", str(1800 - 100 * i))

    assert "rating" in cli(db, "pair", "1")
    assert tables(db, 1) == [("A", "E"), ("B", "F"), ("C", "G"), ("D", "H")]
    enter_and_confirm(db, 1, 1, "A:6", "--passed-a", "home", "--deals", "7")
    cli(db, "result", "1", "-r", "1", "-t", "2", "--levels", "9:9", "--override", "--reason", "slip handed in")
    enter_and_confirm(db, 1, 3, "5:J")
    report_table_result(db, 1, 1, 4, levels=("K", "Q"), passed_a=None, deals_played=8)
    assert standings(db, 1) == [
        (1, "A", 2, 0, 8, 12), (2, "G", 2, 0, 6, 9), (3, "D", 2, 0, 1, 11), (4, "B", 1, 1, 0, 7), (4, "F", 1, 1, 0, 7),
        (6, "H", 0, 2, -1, 10), (7, "C", 0, 2, -6, 3), (8, "E", 0, 2, -8, 4)]

    cli(db, "pair", "1")
    assert tables(db, 2) == [("A", "G"), ("D", "B"), ("F", "H"), ("C", "E")]
    enter_and_confirm(db, 2, 1, "8:Q")
    enter_and_confirm(db, 2, 2, "A:K", "--passed-a", "home")
    enter_and_confirm(db, 2, 3, "10:10")
    enter_and_confirm(db, 2, 4, "3:7")
    assert standings(db, 2) == [
        (1, "G", 4, 2, 10, 19), (2, "D", 4, 2, 2, 23), (3, "A", 2, 6, 4, 18), (4, "F", 2, 2, 0, 15),
        (5, "E", 2, 2, -4, 9), (6, "B", 1, 6, -1, 18), (6, "H", 1, 6, -1, 18), (8, "C", 0, 6, -10, 4)]

    cli(db, "pair", "1")
    assert tables(db, 3) == [("G", "D"), ("A", "F"), ("E", "B"), ("H", "C")]
    enter_and_confirm(db, 3, 1, "J:J")
    cli(db, "result", "1", "-r", "3", "-t", "2", "--forfeit", "away", "--late-minutes", "12", "--override",
        "--reason", "F 12 minutes late")
    enter_and_confirm(db, 3, 3, "6:9")
    enter_and_confirm(db, 3, 4, "Q:4")
    final = [(1, "D", 5, 11, 2, 32), (2, "G", 5, 9, 10, 28), (3, "A", 4, 9, 12, 30), (4, "B", 3, 9, 2, 25),
             (5, "H", 3, 7, 7, 28), (6, "F", 2, 10, -8, 19), (7, "E", 2, 7, -7, 13), (8, "C", 0, 10, -18, 6)]
    assert standings(db) == final
    # the earlier rounds' standings are still reproducible from the log
    assert standings(db, 1)[0] == (1, "A", 2, 0, 8, 12)
    said = cli(db, "status", "1")  # the last round's results are final: the event is over, no "next round"
    assert "The event is finished: every round is played (3 in all) and every result is final" in said
    assert "next round" not in said

    # the stored projection equals a replay of the audit log
    desk = Desk.open(db)
    desk.verify(1)
    assert [(r.rank, r.team_name, r.match_points, r.opponents_points, r.level_diff, r.levels_gained)
            for r in desk.stored_standings(1)] == final

    # exports carry the same numbers
    cli(db, "export", "1", "--out", str(tmp_path / "cup.xlsx"))
    wb = load_workbook(tmp_path / "cup.xlsx")
    assert wb.sheetnames == ["成绩排名 Standings", "第1轮后排名 After R1", "第2轮后排名 After R2", "第3轮后排名 After R3",
                             "按桌号 Tables", "按队名 By team", "交叉表 Cross-table", "审计日志 Audit log"]
    sheet = list(wb["成绩排名 Standings"].iter_rows(values_only=True))
    header = sheet.index(next(r for r in sheet if r[0] == "名次 Rank"))
    assert [(r[0], r[2], r[5], r[6], r[7], r[8]) for r in sheet[header + 1:]] == final
    by_team = list(wb["按队名 By team"].iter_rows(values_only=True))
    assert ("A", 1, 1, 1, "N–S", "E") in by_team
    cli(db, "export", "1", "--format", "csv", "--out", str(tmp_path / "csv"))
    lines = (tmp_path / "csv" / "standings.csv").read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].startswith("名次 Rank,编号 No.,队伍 Team") and lines[1].startswith("1,4,D,")
    # the cross-table: D's three rounds, and the numeric columns of a forfeit
    cross = list(csv.DictReader((tmp_path / "csv" / "cross_table.csv").read_text(encoding="utf-8-sig").splitlines()))
    d = next(r for r in cross if r["队伍 Team"] == "D")
    assert [(d[f"R{n} 对手 Opp"], d[f"R{n} 座位 Seats"], d[f"R{n} 结果 Result"], d[f"R{n} 场分 MP"]) for n in (1, 2, 3)] == [
        ("H", "N–S", "W K:Q", "2"), ("B", "N–S", "W A:K 过A", "2"), ("G", "E–W", "D J:J", "1")]
    assert (d["名次 Rank"], d["场分 MP"]) == ("1", "5")
    round3 = json.loads(cli(db, "standings", "1", "--tables", "--json", "--after-round", "3"))["tables"]
    forfeit = next(t for t in round3 if t["table"] == 2)
    assert (forfeit["home"], forfeit["away"], forfeit["forfeit"], forfeit["winner_team"]) == ("A", "F", "away", "A")
    assert (forfeit["home_level"], forfeit["away_level"], forfeit["level_diff"], forfeit["home_match_points"]) == \
        (14, 6, 8, 2)
