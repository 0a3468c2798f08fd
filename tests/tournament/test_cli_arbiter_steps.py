"""An arbiter at the desk's command line, under time pressure: a refusal says what to type next. A team's action at
a table only the arbiter may change now (a dispute, a final result) goes on with the arbiter's command for it; a
forfeit entered without --override, in an event that reports every deal, says to add it (it was told to report
the deals, which a forfeit has none of); --override and --set say they need --reason. In an 80-column terminal
those lines, and `start`'s, wrap with each quoted command whole on its row."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook  # type: ignore[import-untyped]
from typer.testing import CliRunner, Result

from guandan.cliutil import width
from guandan.tournament.cli import app

runner = CliRunner()


def cli(db: str, *args: str, lang: str = "en", columns: int | None = None) -> Result:
    return runner.invoke(app, [*args, "--db", db], env={"LANGUAGE": lang, "COLUMNS": str(columns) if columns else None})


def ok(db: str, *args: str) -> str:
    res = cli(db, *args)
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture
def event(tmp_path: Path) -> str:
    """Four teams, every deal reported (the competition preset's default), round 1 paired with a fixed seed; at
    table 1 a deal is reported and disputed by North's team."""
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    ok(db, "new", "Spring Cup", "--rounds", "2", "--seed", "1", "--time-zone", "Asia/Shanghai")
    for name in ("East Wind", "South Hill", "West Lake", "Big Dipper"):
        ok(db, "register", "1", name, "--players", f"{name} A,{name} B")
    ok(db, "pair", "1")
    ok(db, "deal", "1", "-r", "1", "-t", "1", "--finish", "N,S,E")
    ok(db, "deal", "1", "-r", "1", "-t", "1", "--dispute", "--reason", "North says South was third")
    return db


ARBITER = {"en": "as the arbiter: correct its deals with `deals 1 -r 1 -t 1 --set … --reason …`, or set its result "
                 "with `result 1 -r 1 -t 1 --override … --reason …`",
           "zh": "裁判处理：用 `deals 1 -r 1 -t 1 --set … --reason …` 更正各副，或用 `result 1 -r 1 -t 1 --override … "
                 "--reason …` 裁定成绩"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_disputed_table_tells_the_arbiter_what_to_type(event: str, lang: str) -> None:
    for args in (("deal", "1", "-r", "1", "-t", "1", "--finish", "N,E,S"), ("deal", "1", "-r", "1", "-t", "1", "--confirm")):
        res = cli(event, *args, lang=lang)
        assert res.exit_code == 2
        refusal, step = res.output.strip().splitlines()
        assert refusal == {"en": "error: Round 1 table 1 is disputed: only the arbiter can settle it",
                           "zh": "错误：第1轮第1桌有争议：只有裁判可以裁定"}[lang]
        assert step == ARBITER[lang]
    # the command it names settles it
    out = ok(event, "deals", "1", "-r", "1", "-t", "1", "--set", "N,E,S", "--reason", "asked both teams")
    assert out.splitlines()[0] == "round 1 table 1: deals set by the arbiter"  # said before the deals as they now stand
    assert "North East South" in ok(event, "deals", "1", "-r", "1", "-t", "1")


def test_a_final_table_tells_the_arbiter_what_to_type(event: str) -> None:
    ok(event, "result", "1", "-r", "1", "-t", "2", "--levels", "A:9", "--deals", "8", "--override", "--reason", "slip")
    res = cli(event, "deal", "1", "-r", "1", "-t", "2", "--finish", "N,S,E")
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        "error: Round 1 table 2 already has a final result; only the arbiter can change it",
        ARBITER["en"].replace("-t 1", "-t 2")]


def test_a_table_in_play_is_refused_without_the_arbiters_step(event: str) -> None:
    res = cli(event, "deal", "1", "-r", "1", "-t", "2", "--finish", "N,N,E")
    assert res.exit_code == 2 and "as the arbiter" not in res.output and len(res.output.strip().splitlines()) == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_forfeit_says_it_is_the_arbiters_to_set(event: str, lang: str) -> None:
    res = cli(event, "result", "1", "-r", "1", "-t", "2", "--forfeit", "away", lang=lang)
    assert res.exit_code == 2
    assert res.output.strip() == {
        "en": "error: a forfeit is the arbiter's ruling in an event that reports every deal: add --override and "
              "--reason (round 1 table 2)",
        "zh": "错误：本赛事逐副记分，弃权由裁判裁定：请加上 --override 和 --reason（第1轮第2桌）"}[lang]
    res = cli(event, "result", "1", "-r", "1", "-t", "2", "--forfeit", "away", "--override", lang=lang)
    assert res.exit_code == 2
    assert res.output.strip() == {"en": 'error: --override needs --reason: say why, for the audit log (--reason "…")',
                                  "zh": '错误：--override 须同时给出 --reason：写明理由，以便记入审计日志（--reason "…"）'}[lang]
    res = cli(event, "deals", "1", "-r", "1", "-t", "1", "--set", "N,S,E", lang=lang)
    assert res.exit_code == 2 and "--set" in res.output and "--reason" in res.output
    ok(event, "result", "1", "-r", "1", "-t", "2", "--forfeit", "away", "--override", "--reason", "12 minutes late")
    status = ok(event, "status", "1")
    assert "A:6 forfeit" in status


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_refusals_and_the_start_fit_80_columns_with_each_command_whole(event: str, lang: str) -> None:
    res = cli(event, "deal", "1", "-r", "1", "-t", "1", "--finish", "N,E,S", lang=lang, columns=80)
    assert res.exit_code == 2
    lines = res.output.splitlines()
    assert len(lines) > 2 and [line for line in lines if width(line) > 80] == []
    for command in ("`deals 1 -r 1 -t 1 --set … --reason …`", "`result 1 -r 1 -t 1 --override … --reason …`"):
        assert any(command in line for line in lines), lines
    assert "".join(ARBITER[lang].split()) in "".join(res.output.split())  # wrapped, not cut
    # the start's line, with the venue's zone named twice over (Asia/Shanghai (UTC+08:00)), is wider than 80
    res = cli(event, "start", "1", lang=lang, columns=80)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert len(lines) >= 2 and [line for line in lines if width(line) > 80] == []
    assert "Asia/Shanghai (UTC+08:00)" in res.output


def test_status_drops_the_countdown_once_every_result_is_final(event: str) -> None:
    ok(event, "start", "1")
    assert "round clock: play" in ok(event, "status", "1")
    for table in ("1", "2"):
        ok(event, "result", "1", "-r", "1", "-t", table, "--levels", "A:9", "--deals", "8", "--override", "--reason", "slip")
    status = ok(event, "status", "1")
    assert "round clock" not in status and "next round: ready to pair" in status


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_standings_in_the_middle_of_a_round_say_which_results_they_hold(tmp_path: Path, lang: str) -> None:
    """With every result in, the standings hold a round's final tables before the round is over: the xlsx sheet's
    title said "standings before round 1" above a team's 2 MP of round 1; it and the command's note now say it."""
    db = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    ok(db, "new", "Mid Cup", "--rounds", "2", "--per-round", "--seed", "1")
    for n in "ABCD":
        ok(db, "register", "1", n, "--players", f"{n}1,{n}2")
    ok(db, "pair", "1")
    ok(db, "result", "1", "-r", "1", "-t", "1", "--levels", "A:9", "--deals", "8", "--override", "--reason", "slip")
    said = {"en": "Mid Cup: standings before round 1; round 1 in play: 1 of 2 results in",
            "zh": "Mid Cup：第1轮前的排名；第1轮进行中：已确定1桌成绩（共2桌）"}[lang]
    res = cli(db, "standings", "1", lang=lang)
    assert res.exit_code == 0 and res.output.splitlines()[-1] == said
    assert "2" in res.output.splitlines()[1].split()  # the winner's 场分 of the table already in
    xlsx = tmp_path / "m.xlsx"
    ok(db, "export", "1", "--format", "xlsx", "--out", str(xlsx), "--lang", lang)
    assert load_workbook(xlsx).worksheets[0]["A1"].value == said
    ok(db, "result", "1", "-r", "1", "-t", "2", "--levels", "K:Q", "--deals", "8", "--override", "--reason", "slip")
    res = cli(db, "standings", "1", lang=lang)
    assert res.output.splitlines()[-1].split()[0] == "4"  # the last team's line: no note once the round is over
    ok(db, "export", "1", "--format", "xlsx", "--out", str(xlsx), "--lang", lang)
    assert load_workbook(xlsx).worksheets[0]["A1"].value == {
        "en": "Mid Cup: standings after 1 of 2 rounds", "zh": "Mid Cup：第1轮后的排名（共2轮）"}[lang]
