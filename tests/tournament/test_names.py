"""Team names in the order people look them up (guandan.tournament.names): Chinese names by pinyin, Latin
names by their letters whatever the case, the two interleaved, numbers by value; and every list of teams by
name follows it: the pairings page's index and its JSON, the printed pairings and the exports' rows by team,
the teams sharing a place in a knockout. The standings keep their own order."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from guandan.tournament.bracket import bracket_data
from guandan.tournament.desk import Desk
from guandan.tournament.export import team_records
from guandan.tournament.model import EventConfig
from guandan.tournament.names import name_key
from guandan.tournament.prints import pairings_html
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router

from .conftest import SECRET

#: A Chinese club event's teams, as registered. By code point 北 (U+5317) < 南 < 安 < 常 < 徐 < 扬 < 无 < 苏 <
#: 重 < 长: nothing like the order a Chinese reader looks for.
CLUB_TEAMS = ["北京烤鸭", "南京长江队", "安徽黄山队", "常州恐龙园", "徐州汉城", "扬州瘦西湖", "无锡太湖", "苏州园林队",
              "重庆火锅", "长沙湘江队"]
#: By pinyin: an hui, bei jing, chang sha (长 read chang beside 沙, not zhang), chang zhou, chong qing (重 read
#: chong beside 庆, not zhong), nan jing, su zhou, wu xi, xu zhou, yang zhou.
CLUB_ORDER = ["安徽黄山队", "北京烤鸭", "长沙湘江队", "常州恐龙园", "重庆火锅", "南京长江队", "苏州园林队", "无锡太湖",
              "徐州汉城", "扬州瘦西湖"]


def test_chinese_names_by_pinyin_not_by_code_point() -> None:
    assert sorted(CLUB_TEAMS) != CLUB_ORDER
    assert sorted(CLUB_TEAMS, key=name_key) == CLUB_ORDER


def test_latin_names_by_letter_whatever_the_case_among_the_chinese_by_their_pinyin() -> None:
    names = ["Dragons", "北京烤鸭", "bravo", "重庆火锅", "Alpha", "安徽黄山队", "ECHO", "Bei Jing"]
    assert sorted(names) == ["Alpha", "Bei Jing", "Dragons", "ECHO", "bravo", "北京烤鸭", "安徽黄山队", "重庆火锅"]
    assert sorted(names, key=name_key) == ["Alpha", "安徽黄山队", "Bei Jing", "北京烤鸭", "bravo", "重庆火锅", "Dragons",
                                           "ECHO"]


@pytest.mark.parametrize(("names", "order"), [
    (["南京16队", "南京长江队", "南京8队"], ["南京8队", "南京16队", "南京长江队"]),  # numbers by value, before letters
    (["A队", "1队", "１０队", "2队"], ["1队", "2队", "１０队", "A队"]),  # full-width digits count as digits
    (["先锋队", "西安队"], ["西安队", "先锋队"]),  # syllable by syllable: xi before xian
    (["绿洲队", "路遥队"], ["路遥队", "绿洲队"]),  # lu before lü
    (["马队", "妈妈队", "麻将队"], ["马队", "麻将队", "妈妈队"]),  # ma dui < ma jiang < ma ma, tones only then
    (["骂队", "马队", "妈队", "麻队"], ["妈队", "麻队", "马队", "骂队"]),  # same syllables: by the tones, 1 to 4
    (["章队", "张队"], ["张队", "章队"]),  # alike in sound and tone: one fixed order all the same
    (["alpha", "Alpha", "ALPHA"], ["ALPHA", "Alpha", "alpha"]),
    (["Ｂ队", "A队", "c队"], ["A队", "Ｂ队", "c队"]),  # full-width letters count as letters
])
def test_the_finer_points(names: list[str], order: list[str]) -> None:
    assert sorted(names, key=name_key) == order
    assert sorted(reversed(order), key=name_key) == order  # whatever order they came in


def _club_event(desk: Desk) -> int:
    tid = desk.create(EventConfig(name="淮安掼蛋俱乐部联赛", rounds=3, seed=11), secret=SECRET)
    for i, name in enumerate(CLUB_TEAMS, 1):
        desk.register(tid, name, [f"张{i}", f"李{i}"])
    desk.register(tid, "Alpha", ["Ann", "Bob"])  # 11 teams: one has the bye
    desk.pair_next(tid)
    return tid


def test_the_pairings_index_lists_the_teams_by_pinyin(desk: Desk) -> None:
    tid = _club_event(desk)
    app = FastAPI()
    app.include_router(create_router(desk))
    expected = ["Alpha", *CLUB_ORDER]
    with TestClient(app) as c:
        page = c.get(f"/t/{tid}/pairings/1").text
        index = re.findall(r'<li data-team="(\d+)">', page.split('id="by-team"')[1])
        state = desk.state(tid)
        assert [state.teams[int(x)].name for x in index] == expected
        assert [x["team"] for x in c.get(f"/api/t/{tid}/pairings/1").json()["teams"]] == expected


def test_the_printed_pairings_and_the_exports_list_the_teams_by_pinyin(desk: Desk) -> None:
    tid = _club_event(desk)
    state = desk.state(tid)
    expected = ["Alpha", *CLUB_ORDER]
    assert [r["team"] for r in team_records(state, 1)] == expected
    page = pairings_html(state, 1)
    by_team = page.split("</table>")[1]  # the tables by number first, then every team by name
    assert re.findall(r"<tr><td>([^<]+)</td>", by_team) == expected


def test_the_standings_keep_their_order(desk: Desk) -> None:
    tid = desk.create(EventConfig(name="淮安掼蛋俱乐部联赛", rounds=3), secret=SECRET)
    for i, name in enumerate(CLUB_TEAMS, 1):
        desk.register(tid, name, [f"张{i}", f"李{i}"])
    assert [x.team_id for x in desk.state(tid).standings()] == list(range(1, 11))  # all tied: by number, not name


def test_teams_sharing_a_place_in_a_knockout_by_pinyin(desk: Desk) -> None:
    tid = desk.create(EventConfig(name="淮安杯", format="knockout"), secret=SECRET)
    for i, name in enumerate(CLUB_TEAMS[:8], 1):
        desk.register(tid, name, [f"张{i}", f"李{i}"], rating=float(100 - i))
    desk.pair_next(tid)
    st = desk.state(tid)
    for n, ts in st.rounds[1].tables.items():  # the home team wins every table
        desk.enter_result(tid, 1, n, ResultSlip.parse("A:6", "home", 7), by=ts.table.away)
        desk.confirm(tid, 1, n, by=ts.table.home)
    fifth = [row["team"] for row in bracket_data(desk.state(tid))["placings"] if row["place"] == 5]
    assert len(fifth) == 4 and fifth == sorted(fifth, key=name_key) and fifth != sorted(fifth)
