"""The tournament engine's refusals are catalogued: a person reads them in Chinese on the desk's pages and in the
CLI (``LANGUAGE=zh``), their parts (a pairing blocker, a table's problem, a word such as "home") included,
while the English text, the exception's ``str``, stays as it was written."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from guandan.tournament.cli import app
from guandan.tournament.deals import parse_deal_list, settle_deals
from guandan.tournament.desk import Desk
from guandan.tournament.errors import NotFoundError, Said, TournamentError, joined, said
from guandan.tournament.errors import refused as as_refusal
from guandan.tournament.knockout import result_problem
from guandan.tournament.model import EventConfig
from guandan.tournament.pagelang import explain
from guandan.tournament.pairing import swiss_pairing
from guandan.tournament.rounds import ResultSlip, round_result
from guandan.tournament.web_table import create_table_router

from .conftest import unchanged

SECRET = "refusal-secret"
URL = "/t/1/table/1/1"
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def _event(desk: Desk, per_deal: bool = True) -> int:
    tid = desk.create(EventConfig(name="Cup", rounds=2, per_deal=per_deal), secret=SECRET)
    for name in ("红队", "Blue", "Green", "Gold"):
        desk.register(tid, name, [f"{name} a", f"{name} b"])
    return tid


def refused(action: Callable[[], object]) -> TournamentError:
    with pytest.raises(TournamentError) as e:
        action()
    return e.value


def said_in(e: TournamentError, english: str, chinese: str) -> None:
    """``e`` reads ``english`` (its own text, unchanged) and, on a Chinese page, ``chinese``."""
    assert str(e) == english
    assert explain(e, "en").detail == english
    zh = explain(e, "zh")
    assert (zh.detail, zh.detail_lang) == (chinese, "zh")


# ---- the desk's own API ----------------------------------------------------------------------------
def test_registering_teams(desk: Desk) -> None:
    tid = _event(desk)
    said_in(refused(lambda: desk.register(tid, "blue", ["x", "y"])),
            'a team named "blue" is already registered', '名为"blue"的队伍已经报名')
    said_in(refused(lambda: desk.register(tid, "123", ["x", "y"])),
            'a team name cannot be only digits ("123"): it would read as a team number',
            '队名不能全是数字（"123"）：否则会被当作队伍编号')
    said_in(refused(lambda: desk.register(tid, "Solo", ["x"])),
            'a team is two players: give two names, not ["x"]', '一支队伍由两名选手组成：请给出两个姓名，而不是["x"]')
    desk.pair_next(tid)
    said_in(refused(lambda: desk.register(tid, "Late", ["x", "y"])),
            "registration is closed: round 1 has been paired", "报名已截止：第1轮已编排")


def test_an_unknown_team_is_still_not_found(desk: Desk) -> None:
    tid = _event(desk)
    e = refused(lambda: desk.withdraw(tid, 9))
    assert isinstance(e, NotFoundError)
    said_in(e, "no team number 9; teams are 1…4", "没有编号为9的队伍；队伍编号为1至4")
    assert explain(e, "zh").headline == "找不到"
    said_in(refused(lambda: desk.state(tid).team("Nobody")), 'no team named "Nobody"', '没有名为"Nobody"的队伍')


def test_a_round_that_cannot_be_paired_says_each_reason(desk: Desk) -> None:
    tid = _event(desk)
    desk.pair_next(tid)
    st = desk.state(tid)
    tables = [st.table(1, n).table for n in (1, 2)]
    names = [(st.teams[t.home].name, st.teams[t.away].name) for t in tables]
    e = refused(lambda: desk.pair_next(tid))
    said_in(e, f"round 2 cannot be paired yet: round 1 table 1 ({names[0][0]} v {names[0][1]}): result missing; "
               f"round 1 table 2 ({names[1][0]} v {names[1][1]}): result missing",
            f"第2轮暂不能编排：第1轮第1桌（{names[0][0]} 对 {names[0][1]}）：结果未录入；"
            f"第1轮第2桌（{names[1][0]} 对 {names[1][1]}）：结果未录入")
    unchanged(desk, tid, lambda: desk.pair_next(tid), "round 2 cannot be paired yet")


def test_no_valid_pairing_is_said_in_chinese() -> None:
    everyone = {frozenset(p) for p in itertools.combinations([1, 2, 3, 4], 2)}
    said_in(refused(lambda: swiss_pairing([1, 2, 3, 4], {}, everyone)),
            "no valid pairing exists for this round: teams 1, 2, 3, 4 have already met every other team",
            "本轮无法进行有效编排：队伍 1, 2, 3, 4 均已与其他所有队伍交过手")
    said_in(refused(lambda: swiss_pairing([1, 2, 3], {}, set(), had_bye={1, 2, 3}, round_no=2)),
            "no valid pairing exists for round 2: the number of teams is odd and every team has already had its bye",
            "第2轮无法进行有效编排：队伍数为奇数，而每队都已轮空过")


def test_results_and_deals(desk: Desk) -> None:
    tid = _event(desk)
    desk.pair_next(tid)
    away = desk.state(tid).table(1, 1).table.away
    said_in(refused(lambda: desk.report_deal(tid, 1, 1, 1, "N X E", away)),
            'a seat is N, E, S or W, not "X"', '座位须为北、东、南、西（或 N、E、S、W），而不是"X"')
    said_in(refused(lambda: desk.set_deals(tid, 1, 1, [{"finish": "N S E"}, {"award": "home"}], reason="witness")),
            "round 1 table 1: deal 2: the lateness rule credits the first deal only",
            "第1轮第1桌：第2副：迟到规则只判给第一副")
    said_in(refused(lambda: desk.set_deals(tid, 1, 1, ["N S E"], reason="witness")),
            'round 1 table 1: deal 1: a deal is {"finish": [seats]} or {"award": "home"|"away"}, not "N S E"',
            '第1轮第1桌：第1副：一副牌须写作 {"finish": [座位]} 或 {"award": "home"|"away"}，而不是"N S E"')
    # of an arbiter's list of deals, the refusal names the one that is wrong
    said_in(refused(lambda: desk.set_deals(tid, 1, 1, parse_deal_list("N S E; N N; E W"), reason="witness")),
            "round 1 table 1: deal 2: a finishing order names three or four seats (first out first), not 2",
            "第1轮第1桌：第2副：出完顺序须写三个或四个座位（先出完的在前），而不是2个")
    said_in(refused(lambda: desk.set_deals(tid, 1, 1, ["N S E"], reason=" ")),
            "the arbiter's change of a table's deals needs a reason for the audit log",
            "裁判更改一桌的各副须填写理由，以便记入审计日志")
    said_in(refused(lambda: ResultSlip.parse("Z:6")), 'level "Z" is not one of 2 3 4 5 6 7 8 9 10 J Q K A',
            '级数 "Z" 不是 2 3 4 5 6 7 8 9 10 J Q K A 之一')
    said_in(refused(lambda: ResultSlip.parse("A:6", forfeit="home")),
            "a forfeit is scored by rule: give no levels and no passed_a with it", "弃权按规则计分：不要同时填写级数或过A")


def test_a_catalogued_word_inside_a_clause() -> None:
    from guandan.core.rules import preset

    deals = [{"finish": "N S E W"}] * 20
    e = refused(lambda: settle_deals(deals, preset("competition"), 1))
    assert re.fullmatch(r"deal (\d+): the round was over, (home|away) passed A in deal \d+", str(e)), str(e)
    side = "主队" if " home " in str(e) else "客队"
    assert re.fullmatch(rf"第\d+副：本轮已经结束，{side}在第\d+副已过A", explain(e, "zh").detail)


def test_the_event_config_given_to_new() -> None:
    said_in(refused(lambda: EventConfig(name="X", rounds=0)), "rounds must be in 1…99, not 0",
            "rounds 须在 1…99 范围内，而不是0")
    said_in(refused(lambda: EventConfig(name=" ")), 'the event name must be 1…200 characters, not " "',
            '比赛名称须为1至200个字符，而不是" "')
    said_in(refused(lambda: EventConfig(name="X", partners="random")),
            "partners drawn at random (partners random) are for knockout events; a Swiss event registers fixed teams",
            "随机抽签搭档（partners random）只适用于淘汰赛；瑞士制比赛以固定队伍报名")


def test_knockout_reasons_are_clauses() -> None:
    level = round_result(("9", "9"), None, (2, 1, 0))
    problem = result_problem(1, 2, level, None)
    assert isinstance(problem, Said) and problem.startswith("round 1 table 2: a knockout match needs a winner")
    won = result_problem(3, 1, round_result(("A", "9"), 0, (2, 1, 0)), 1)
    assert won is not None
    e = as_refusal(won)
    assert str(e) == won and "the match already has a winner (A:9, passed A)" in won
    assert explain(e, "zh").detail.startswith("第3轮第1桌：本场已有胜方（A:9，过A）")


def test_joined_reasons() -> None:
    assert joined([]) == "" and joined(["a"]) == "a"
    both = joined([said("round {round}", round=1), "b", "c"])
    assert both == "round 1; b; c" and isinstance(both, Said)


# ---- the table's web page and the CLI ----------------------------------------------------------------
def test_the_table_page_says_a_refusal_in_chinese(desk: Desk) -> None:
    tid = _event(desk)
    desk.pair_next(tid)
    app_ = FastAPI()
    app_.include_router(create_table_router(lambda: desk))
    west = TestClient(app_)
    west.post(f"{URL}/code", data={"code": desk.state(tid).team_code(1, 1, 1)})
    form = {"deal": "1", "first": "N", "second": "N", "third": "E"}
    res = west.post(f"{URL}/deal", data=form)
    assert res.status_code == 400 and '未被受理：<span lang="zh">出完顺序（北、北、东）中有座位重复' in res.text
    res = west.post(f"{URL}/deal?lang=en", data=form)
    assert res.status_code == 400
    assert 'Not accepted: <span lang="en">a seat appears twice in the finishing order North, North, East' in res.text


runner = CliRunner()


@pytest.mark.parametrize(("args", "chinese", "english"), [
    (["register", "1", "red", "--players", "c,d"], '错误：名为"red"的队伍已经报名',
     'error: a team named "red" is already registered'),
    # said as the arbiter typed it, with what to type: the desk's own refusal quotes the list as JSON (["c"])
    (["register", "1", "Solo", "--players", "c"],
     '错误：--players 须给出本队两名选手，用逗号分隔（--players "张伟,王芳"），而不是“c”',
     'error: --players takes the team\'s two players, comma-separated (--players "Zhang Wei,Wang Fang"), not “c”'),
    (["withdraw", "1", "9"], "错误：没有编号为9的队伍；队伍编号为1至1", "error: no team number 9; teams are 1…1"),
    (["pair", "1"], "错误：第1轮暂不能编排：至少需要两支队伍，现有1支",
     "error: round 1 cannot be paired yet: at least two teams are needed, 1 registered"),
])
def test_the_cli_says_engine_refusals_in_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                 chinese: str, english: str) -> None:
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    assert runner.invoke(app, ["new", "Cup", "--rounds", "2", "--per-round", "--db", db]).exit_code == 0
    assert runner.invoke(app, ["register", "1", "Red", "--players", "a,b", "--db", db]).exit_code == 0
    res = runner.invoke(app, [*args, "--db", db])
    assert res.exit_code == 2 and res.output.strip() == english and not CHINESE.search(res.output), res.output
    monkeypatch.setenv("LANGUAGE", "zh")
    res = runner.invoke(app, [*args, "--db", db])
    assert res.exit_code == 2 and res.output.strip() == chinese, res.output
