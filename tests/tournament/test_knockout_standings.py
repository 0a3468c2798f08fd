"""A knockout's standings say who is still in: ordered by the knockout (champion, runner-up, the teams still in,
then the teams out, later out better, shared places by name), each team's place and where it stands in words, a
round won on the deciding deal (加赛一副) told apart from the one it knocked out; on every face: the command line (at
80 columns, in Chinese and English), the venue screen and its API, the exports and the print."""

from __future__ import annotations

import csv
import io
import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from openpyxl import load_workbook  # type: ignore[import-untyped]
from typer.testing import CliRunner

from guandan.cliutil import width
from guandan.i18n import translator
from guandan.tournament.bracket import placings, standing_order
from guandan.tournament.cli import app
from guandan.tournament.cli_botevent import summary_rows
from guandan.tournament.desk import Desk
from guandan.tournament.export import (
    cross_rows,
    export_json,
    standing_export_rows,
    standing_records,
    status_json,
    write_csv,
    write_xlsx,
)
from guandan.tournament.model import EventConfig
from guandan.tournament.prints import make_print
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router

from .conftest import SECRET

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that it prefers httpx2 over the pinned httpx
    from fastapi.testclient import TestClient

runner = CliRunner()
KNOCKOUT_KEYS = {"place", "place_shared", "status", "eliminated_in", "decider"}


def event(desk: Desk, teams: int) -> int:
    """A fixed-partners knockout of teams T1…Tn, seeded by rating (T1 best): 5 teams meet in round 1 as T1 bye,
    T4 v T5, T2 bye, T3 bye; 8 teams as T1 v T8, T4 v T5, T2 v T7, T3 v T6."""
    tid = desk.create(EventConfig(name="Cup", format="knockout", seed=3), secret=SECRET)
    for i in range(1, teams + 1):
        desk.register(tid, f"T{i}", [f"P{i}a", f"P{i}b"], rating=float(100 - i))
    return tid


def play(desk: Desk, tid: int, slips: dict[int, ResultSlip]) -> None:
    """Pair the next round and enter and confirm each table's slip (by table number; home wins A:6 otherwise)."""
    rnd = desk.pair_next(tid)
    for n, ts in desk.state(tid).rounds[rnd.number].tables.items():
        desk.enter_result(tid, rnd.number, n, slips.get(n, ResultSlip.parse("A:6", "home", 7)), by=ts.table.away)
        desk.confirm(tid, rnd.number, n, by=ts.table.home)


LEVEL = ResultSlip.parse("9:9", None, 8, decider="away")  # the away team goes out first in the deciding deal


def rows(desk: Desk, tid: int, after: int | None = None) -> list[tuple[str, int, str, int | None, str | None]]:
    st = desk.state(tid)
    return [(st.teams[r["team_id"]].name, r["rank"], r["status"], r["place"], r["decider"])
            for r in standing_order(st, after)]


# ---- the order ---------------------------------------------------------------------------------------------
def test_the_decider_sends_one_team_on_and_the_other_out(desk: Desk) -> None:
    tid = event(desk, 5)
    play(desk, tid, {1: LEVEL})  # T4 v T5, level: T5 wins the deciding deal
    st = desk.state(tid)
    swiss = {s.team_id: s for s in st.standings()}
    assert (swiss[4].rank, swiss[4].draws) == (swiss[5].rank, swiss[5].draws) == (4, 1)  # alike to the Swiss table
    # still in, in bracket order (T1 bye, T4 v T5, T2 bye, T3 bye), then the team knocked out
    assert rows(desk, tid) == [("T1", 1, "in", None, None), ("T5", 1, "in", None, "won"), ("T2", 1, "in", None, None),
                               ("T3", 1, "in", None, None), ("T4", 5, "out", 5, "lost")]
    assert standing_order(st)[-1]["eliminated_in"] == 1
    # before round 1: every team in, nobody placed, no decider yet
    assert [(r[1], r[2], r[4]) for r in rows(desk, tid, 0)] == [(1, "in", None)] * 5


def test_a_finished_event_is_ordered_by_its_places(desk: Desk) -> None:
    tid = event(desk, 8)
    play(desk, tid, {2: LEVEL})  # T4 v T5: T5 through on the decider
    play(desk, tid, {})  # T1 v T5, T2 v T3: T1 and T2 win
    after_two = rows(desk, tid)
    play(desk, tid, {1: ResultSlip.parse("8:8", None, 8, decider="home")})  # the final, T1 v T2, on the decider
    st = desk.state(tid)
    assert rows(desk, tid) == [
        ("T1", 1, "champion", 1, "won"), ("T2", 2, "runner_up", 2, "lost"),
        ("T3", 3, "out", 3, None), ("T5", 3, "out", 3, None),  # out in the semi-finals: one place, by name
        ("T4", 5, "out", 5, "lost"), ("T6", 5, "out", 5, None), ("T7", 5, "out", 5, None), ("T8", 5, "out", 5, None)]
    assert [r["place_shared"] for r in standing_order(st)] == [False, False] + [True] * 6
    # the places are placings' own, as the bracket page and the prize list have them
    assert {r["team"]["id"]: r["place"] for r in placings(st)} == {r["team_id"]: r["place"] for r in standing_order(st)}
    # after an earlier round, the event as it stood then: the later rounds' results do not count
    assert rows(desk, tid, 2) == after_two == [
        ("T1", 1, "in", None, None), ("T2", 1, "in", None, None), ("T3", 3, "out", 3, None),
        ("T5", 3, "out", 3, None), ("T4", 5, "out", 5, "lost"), ("T6", 5, "out", 5, None), ("T7", 5, "out", 5, None),
        ("T8", 5, "out", 5, None)]
    assert [r[2] for r in rows(desk, tid, 1)] == ["in", "in", "in", "in", "out", "out", "out", "out"]
    assert rows(desk, tid, 1)[1] == ("T5", 1, "in", None, "won")


def test_withdrawn_teams_stand_after_those_still_in(desk: Desk) -> None:
    tid = event(desk, 5)
    desk.withdraw(tid, "T3", reason="never came")  # before the draw: it never enters the bracket
    assert rows(desk, tid)[-1] == ("T3", 5, "withdrawn", None, None)
    play(desk, tid, {})  # 4 teams: T1 v T4, T2 v T5
    desk.withdraw(tid, "T1", reason="left early")  # a winner, before round 2 is paired
    assert rows(desk, tid) == [("T2", 1, "in", None, None), ("T1", 2, "withdrawn", None, None),
                               ("T4", 3, "out", 3, None), ("T5", 3, "out", 3, None),
                               ("T3", 5, "withdrawn", None, None)]
    # the desk's rule for every event: a team that left while round 1 was current is withdrawn after round 1 on
    assert rows(desk, tid, 1)[1] == ("T1", 2, "withdrawn", None, None)
    assert rows(desk, tid, 0)[0] == ("T1", 1, "in", None, None)
    desk.pair_next(tid)  # the final: T2 goes through on a walkover
    assert rows(desk, tid)[:2] == [("T2", 1, "champion", 1, None), ("T1", 2, "runner_up", 2, None)]


def test_a_swiss_event_keeps_its_records(desk: Desk) -> None:
    tid = desk.create(EventConfig(name="Swiss Cup", rounds=2), secret=SECRET)
    for i in range(1, 5):
        desk.register(tid, f"T{i}", [f"P{i}a", f"P{i}b"])
    desk.pair_next(tid)
    st = desk.state(tid)
    recs = standing_records(st)
    assert all(KNOCKOUT_KEYS.isdisjoint(r) for r in recs)
    assert [(r["rank"], r["team_id"]) for r in recs] == [(s.rank, s.team_id) for s in st.standings()]
    assert "Status" not in standing_export_rows(st, lang="en")[0]


# ---- the command line --------------------------------------------------------------------------------------
def cli(db: str, *args: str, env: dict[str, str | None] | None = None) -> str:
    res = runner.invoke(app, [*args, "--db", db], env=env)
    assert res.exit_code == 0, res.output
    return res.output


LONG = ("东风队", "南山掼蛋俱乐部联合代表队", "Northern Lights Bridge and Guandan Club", "北斗队", "中原队")


@pytest.fixture
def demo(tmp_path: Path) -> str:
    """Five teams: round 1's one table (南山… v 东风队) ends 9:9 and the away team wins the deciding deal."""
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    cli(db, "new", "Knockout demo", "--format", "knockout", "--seed", "3")
    for name in LONG:
        cli(db, "register", "1", name, "--players", f"甲{name[:2]},乙{name[:2]}")
    cli(db, "pair", "1")
    cli(db, "result", "1", "-r", "1", "-t", "1", "--levels", "9:9", "--passed-a", "none", "--deals", "8",
        "--decider", "away", "--override", "--reason", "demo")
    cli(db, "pair", "1")
    return db


def _who(db: str) -> tuple[str, str]:
    """The names of round 1's table: (home, away)."""
    table = json.loads(cli(db, "standings", "1", "--tables", "--json"))["tables"][0]
    return table["home"], table["away"]


@pytest.mark.parametrize(("lang", "through", "out"), [("en", "still in, won the decider", "out in round 1, lost the decider"),
                                                       ("zh", "仍在比赛（加赛胜）", "第1轮出局（加赛负）")])
def test_the_cli_says_who_is_still_in_at_80_columns(demo: str, lang: str, through: str, out: str) -> None:
    home, away = _who(demo)
    text = cli(demo, "standings", "1", env={"LANGUAGE": lang, "COLUMNS": "80"})
    lines = text.splitlines()
    assert [line for line in lines if width(line) > 80] == []
    head = re.split(r"\s{2,}", lines[0])
    assert head[:4] == (["Rank", "No.", "Team", "Status"] if lang == "en" else ["名次", "编号", "队伍", "状态"])
    flat = "".join(text.split())
    assert through.replace(" ", "") in flat and out.replace(" ", "") in flat
    # the winner of the deciding deal among the teams still in, the team it knocked out last, in 5th place
    assert flat.index(away.replace(" ", "")[:6]) < flat.index(home.replace(" ", "")[:6])
    assert [line.split()[0] for line in lines[1:] if not line.startswith(" ")] == ["5"]  # only the team out is placed
    whole = cli(demo, "standings", "1", env={"LANGUAGE": lang, "COLUMNS": None})
    assert len(whole.splitlines()) == 1 + len(LONG)  # a file gets every column, a line a team


def test_the_cli_json_has_the_knockout_fields(demo: str) -> None:
    home, away = _who(demo)
    data = json.loads(cli(demo, "standings", "1", "--json"))
    by_name = {r["team"]: r for r in data["standings"]}
    assert {k: by_name[away][k] for k in KNOCKOUT_KEYS | {"rank"}} == {
        "rank": 1, "place": None, "place_shared": False, "status": "in", "eliminated_in": None, "decider": "won"}
    assert {k: by_name[home][k] for k in KNOCKOUT_KEYS | {"rank"}} == {
        "rank": 5, "place": 5, "place_shared": False, "status": "out", "eliminated_in": 1, "decider": "lost"}
    assert data["standings"][-1]["team"] == home
    assert (by_name[home]["draws"], by_name[away]["draws"]) == (1, 1)  # the round itself stays a draw
    after0 = json.loads(cli(demo, "standings", "1", "--json", "--after-round", "0"))["standings"]
    assert {r["status"] for r in after0} == {"in"}


# ---- the venue screen and its API ---------------------------------------------------------------------------
@pytest.fixture
def client(desk: Desk) -> TestClient:
    api = FastAPI()
    api.include_router(create_router(desk, base_url="https://cup.example"))
    return TestClient(api)


def test_the_venue_screen_and_the_api(client: TestClient, desk: Desk) -> None:
    tid = event(desk, 5)
    play(desk, tid, {1: LEVEL})
    desk.pair_next(tid)
    page = client.get(f"/t/{tid}/standings?lang=zh").text
    cells = re.findall(r'<td class="rank">([^<]*)</td>\s*<td class="name"><span[^>]*>([^<]*)</span>.*?'
                       r'<td class="status status-(\w+)" data-testid="status">([^<]*)</td>', page, re.S)
    assert cells == [("–", "T1", "in", "仍在比赛"), ("–", "T5", "in", "仍在比赛（加赛胜）"), ("–", "T2", "in", "仍在比赛"),
                     ("–", "T3", "in", "仍在比赛"), ("5", "T4", "out", "第1轮出局（加赛负）")]
    assert "排名依据：冠军、亚军、仍在比赛的队" in page
    en = client.get(f"/t/{tid}/standings?lang=en").text
    assert "still in, won the decider" in en and "out in round 1, lost the decider" in en
    assert "Order: the champion, the runner-up" in en
    api = client.get(f"/api/t/{tid}/standings").json()["standings"]
    assert [(r["team"], r["rank"], r["place"], r["status"], r["decider"]) for r in api] == [
        ("T1", 1, None, "in", None), ("T5", 1, None, "in", "won"), ("T2", 1, None, "in", None),
        ("T3", 1, None, "in", None), ("T4", 5, 5, "out", "lost")]
    assert {"match_points", "draws", "withdrawn", "place_shared", "eliminated_in"} <= set(api[0])
    arbiter = client.get(f"/t/{tid}/arbiter?key={SECRET}&lang=zh").text
    assert "仍在比赛（加赛胜）" in arbiter and "第1轮出局（加赛负）" in arbiter


def test_a_swiss_venue_screen_has_no_status_column(client: TestClient, desk: Desk) -> None:
    tid = desk.create(EventConfig(name="Swiss Cup", rounds=2), secret=SECRET)
    for i in range(1, 5):
        desk.register(tid, f"T{i}", [f"P{i}a", f"P{i}b"])
    page = client.get(f"/t/{tid}/standings").text
    assert 'data-testid="status"' not in page and "淘汰" not in page
    assert KNOCKOUT_KEYS.isdisjoint(client.get(f"/api/t/{tid}/standings").json()["standings"][0])


# ---- the exports and the print ------------------------------------------------------------------------------
def finished(desk: Desk) -> int:
    tid = event(desk, 8)
    play(desk, tid, {2: LEVEL})
    play(desk, tid, {})
    play(desk, tid, {})
    return tid


def test_the_exports_write_the_place_and_the_status(desk: Desk, tmp_path: Path) -> None:
    tid = finished(desk)
    st = desk.state(tid)
    write_csv(st, tmp_path / "csv", lang="zh")
    table = list(csv.reader(io.StringIO((tmp_path / "csv" / "standings.csv").read_text(encoding="utf-8-sig"))))
    assert table[0][:4] == ["名次 Rank", "编号 No.", "队伍 Team", "状态 Status"]
    assert [row[:4] for row in table[1:4]] == [["1", "1", "T1", "冠军"], ["2", "2", "T2", "亚军"], ["3=", "3", "T3", "第2轮出局"]]
    assert table[5][:4] == ["5=", "4", "T4", "第1轮出局（加赛负）"]
    write_xlsx(st, tmp_path / "k.xlsx", lang="en")
    wb = load_workbook(tmp_path / "k.xlsx")
    sheet = [list(r) for r in wb.worksheets[0].iter_rows(values_only=True)]
    assert "standings after 3 of 3 rounds" in sheet[0][0] and sheet[1][0].startswith("Order: the champion")
    assert sheet[2][:4] == ["名次 Rank", "编号 No.", "队伍 Team", "状态 Status"]
    assert sheet[3][:4] == ["1", 1, "T1", "champion"] and sheet[7][:4] == ["5=", 4, "T4", "out in round 1, lost the decider"]
    after1 = [list(r) for r in wb.worksheets[1].iter_rows(values_only=True)]  # 第1轮后排名 After R1
    head = next(i for i, r in enumerate(after1) if r[3] == "状态 Status")
    assert [r[3] for r in after1[head:]] == ["状态 Status", "still in", "still in, won the decider", "still in", "still in",
                                          "out in round 1, lost the decider", "out in round 1", "out in round 1",
                                          "out in round 1"]
    data = export_json(st)
    assert [(r["team"], r["place"], r["status"]) for r in data["standings"][:3]] == [
        ("T1", 1, "champion"), ("T2", 2, "runner_up"), ("T3", 3, "out")]
    assert [r["名次 Rank"] for r in cross_rows(st, "en")] == ["1", "2", "3=", "3=", "5=", "5=", "5=", "5="]


def test_the_print_has_the_status_column(desk: Desk) -> None:
    tid = finished(desk)
    html = make_print("standings", desk.state(tid), 1, "zh", pdf=False).decode()
    assert "状态" in html and "仍在比赛（加赛胜）" in html and "第1轮出局（加赛负）" in html
    assert "第1轮后排名 · 共3轮" in html and "排名依据：冠军、亚军" in html
    cells: list[Any] = re.findall(r'<td class="num">(\S*)</td>\s*<td class="num">(\d+)</td>\s*<td class="team">(T\d)</td>',
                                  html)
    assert [c[2] for c in cells] == ["T1", "T5", "T2", "T3", "T4", "T6", "T7", "T8"]
    assert [c[0] for c in cells] == ["", "", "", "", "5=", "5=", "5=", "5="]


# ---- the cross-table, the JSON export's rounds, the bot event's summary ---------------------------------------
def test_the_cross_table_says_who_went_through_on_the_decider(desk: Desk, tmp_path: Path) -> None:
    """T4 v T5 ends 9:9 and T5 wins the deciding deal: the round stays a draw, marked for each side."""
    st = desk.state(finished(desk))
    for lang, won, lost, plain in (("en", "D 9:9, won the decider", "D 9:9, lost the decider", "W A:6 过A"),
                                   ("zh", "平 9:9（加赛胜）", "平 9:9（加赛负）", "胜 A:6 过A")):
        by_team = {r["Team"]: r for r in cross_rows(st, lang)}
        assert (by_team["T5"]["R1 结果 Result"], by_team["T4"]["R1 结果 Result"]) == (won, lost)
        assert by_team["T1"]["R1 结果 Result"] == by_team["T1"]["R3 结果 Result"] == plain  # no decider, no mark
        assert by_team["T4"]["R1 场分 MP"] == by_team["T5"]["R1 场分 MP"] == 1  # the 场分 of a draw
    cross = {c["team"]: c for c in export_json(st)["cross_table"]}
    assert [g["decider"] for g in cross["T5"]["rounds"]] == ["won", None, None]
    assert [g["decider"] for g in cross["T4"]["rounds"]] == ["lost", None, None]
    assert (cross["T5"]["rounds"][0]["outcome"], cross["T5"]["rounds"][0]["score"]) == ("draw", "9:9")
    assert {g["decider"] for t in ("T1", "T2", "T3", "T6", "T7", "T8") for g in cross[t]["rounds"]} == {None}
    write_csv(st, tmp_path / "csv", lang="zh")
    text = (tmp_path / "csv" / "cross_table.csv").read_text(encoding="utf-8-sig")
    assert "平 9:9（加赛胜）" in text and "平 9:9（加赛负）" in text
    write_xlsx(st, tmp_path / "k.xlsx", lang="en")
    sheet = [c for r in load_workbook(tmp_path / "k.xlsx")["交叉表 Cross-table"].iter_rows(values_only=True) for c in r]
    assert "D 9:9, won the decider" in sheet and "D 9:9, lost the decider" in sheet


def test_a_swiss_cross_table_keeps_its_draws(desk: Desk) -> None:
    tid = desk.create(EventConfig(name="Swiss Cup", rounds=2), secret=SECRET)
    for i in range(1, 5):
        desk.register(tid, f"T{i}", [f"P{i}a", f"P{i}b"])
    play(desk, tid, {1: ResultSlip.parse("9:9", None, 8)})
    st = desk.state(tid)
    assert "decider" not in {k for c in export_json(st)["cross_table"] for g in c["rounds"] for k in g}
    results = {r["R1 结果 Result"] for r in cross_rows(st, "en")}
    assert "D 9:9" in results and not any("decider" in x for x in results)
    assert {r["R1 结果 Result"] for r in cross_rows(st, "zh")} >= {"平 9:9"}
    data = export_json(st)
    assert (data["rounds"], data["rounds_total"]) == (2, 2)


def test_the_json_export_says_the_rounds_the_bracket_plays(desk: Desk) -> None:
    """``rounds`` stays the configured limit (7 here, as before); ``rounds_total`` is what 8 teams play: 3."""
    tid = event(desk, 8)
    assert (export_json(desk.state(tid))["rounds"], export_json(desk.state(tid))["rounds_total"]) == (7, 3)
    play(desk, tid, {})
    st = desk.state(tid)
    data, status = export_json(st), status_json(st)
    assert (data["rounds"], data["rounds_total"], data["completed_rounds"]) == (7, 3, 1)
    assert (status["rounds"], status["rounds_total"]) == (7, 3)
    six = event(desk, 6)  # before the draw, from the teams entered: 6 teams play 3 rounds, 4 teams 2
    assert export_json(desk.state(six))["rounds_total"] == 3
    small = event(desk, 4)
    assert export_json(desk.state(small))["rounds_total"] == 2


@pytest.mark.parametrize(("lang", "heads", "statuses"), [
    ("en", ["Rank", "Team", "Status", "Bots", "MP"],
     ["champion", "runner-up", "out in round 2", "out in round 2", "out in round 1, lost the decider"]),
    ("zh", ["名次", "队伍", "状态", "机器人", "场分"], ["冠军", "亚军", "第2轮出局", "第2轮出局", "第1轮出局（加赛负）"])])
def test_the_bot_event_summary_of_a_knockout(desk: Desk, lang: str, heads: list[str], statuses: list[str]) -> None:
    """The run's summary ranks a knockout as the desk's standings do: its place (3=, 5=) and its status."""
    st = desk.state(finished(desk))
    head, body = summary_rows(translator("desk", lang).gettext, st)
    assert head[:5] == heads
    assert [r[:3] for r in body[:5]] == [[rank, team, status] for rank, team, status in zip(
        ["1", "2", "3=", "3=", "5="], ["T1", "T2", "T3", "T5", "T4"], statuses, strict=True)]
    assert [r[1] for r in body] == [r["team"] for r in standing_records(st)]
    # a Swiss event's summary keeps its columns and its numbered ranks
    swiss = desk.create(EventConfig(name="Swiss Cup", rounds=2), secret=SECRET)
    for i in range(1, 5):
        desk.register(swiss, f"T{i}", [f"P{i}a", f"P{i}b"])
    play(desk, swiss, {})
    head, body = summary_rows(translator("desk", lang).gettext, desk.state(swiss))
    assert len(head) == 9 and heads[2] not in head and [r[0] for r in body] == ["1", "1", "3", "3"]
