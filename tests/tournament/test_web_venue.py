"""The venue's pages through FastAPI's TestClient: the language (Chinese by default, English by ?lang=, kept in a
cookie), every page in both languages with nothing left in English on a Chinese page (and no T for 10, no
Python repr), the standings screen's pages for 16 and 300 teams, the round's clock, and the pairings page."""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI

from guandan.db import make_engine
from guandan.i18n import N_
from guandan.tournament.desk import Desk
from guandan.tournament.errors import TournamentError, refusal
from guandan.tournament.model import EventConfig
from guandan.tournament.names import name_key
from guandan.tournament.pagelang import Missing, explain
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router, screen_page, standing_lines, telling_ends

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that it prefers httpx2 over the pinned httpx
    from fastapi.testclient import TestClient

SECRET = "venue-secret-key"
T0 = datetime(2026, 5, 1, 6, 0, tzinfo=UTC)  # round 3's clock starts here
CITIES = ("南京", "苏州", "无锡", "常州", "淮安")
EVENT = "淮安掼蛋公开赛"


def team_name(i: int) -> str:
    return f"{CITIES[i % len(CITIES)]}{i}队"


def register(desk: Desk, tid: int, n: int) -> None:
    for i in range(1, n + 1):
        desk.register(tid, team_name(i), [f"张{i}", f"李{i}"], club=f"{CITIES[i % len(CITIES)]}协会")


class Venue:
    """Ten teams, four rounds: rounds 1 and 2 final (a 10 in a result, a pass of A, a forfeit), a team
    withdrawn after round 2, round 3 paired with nine teams (a bye) and its clock started at T0."""

    def __init__(self) -> None:
        self.engine = make_engine("sqlite://")
        self.desk = Desk(self.engine, clock=lambda: T0)
        self.tid = self.desk.create(EventConfig(name=EVENT, rounds=4, first_round="rating"), secret=SECRET)
        register(self.desk, self.tid, 10)
        scores = ["T:8", "A:9", "K:Q", "5:T", "J:J"]
        for r in (1, 2):
            rnd = self.desk.pair_next(self.tid)
            for n in rnd.tables:
                if r == 2 and n == 5:
                    slip = ResultSlip.parse(None, None, None, "away")
                else:
                    slip = ResultSlip.parse(scores[n - 1], "home" if scores[n - 1].startswith("A") else None, 8)
                self.desk.override(self.tid, r, n, slip, "记分单")
        self.desk.withdraw(self.tid, 10)
        self.desk.pair_next(self.tid)
        self.desk.start_round(self.tid, at=T0)
        self.desk.override(self.tid, 3, 1, ResultSlip.parse("T:8", None, 8), "记分单")
        self.now = T0 + timedelta(minutes=11, seconds=48)

    def client(self, **cookies: str) -> TestClient:
        app = FastAPI()
        app.include_router(create_router(self.desk, base_url="https://cup.example", now=lambda: self.now))
        return TestClient(app, cookies=cookies)


@pytest.fixture(scope="module")
def venue() -> Iterator[Venue]:
    v = Venue()
    yield v
    v.engine.dispose()


def visible(page: str) -> str:
    """What a reader sees of a page: its text and the words in placeholders, titles and labels; no markup,
    no script, no style, nothing of the head but the title."""
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page.split("</head>", 1)[-1], flags=re.S)
    attrs = re.findall(r'\b(?:placeholder|title|aria-label)="([^"]*)"', body)
    text = re.sub(r"<[^>]+>", " ", body)
    return html.unescape(" ".join([title.group(1) if title else "", text, *attrs]))


def names(venue: Venue) -> list[str]:
    state = venue.desk.state(venue.tid)
    out = [EVENT, "记分单"]  # and the arbiter's reason, as typed
    for t in state.teams.values():
        out += [t.name, *t.players, t.club or ""]
    return sorted(out, key=len, reverse=True)


def assert_for_people(text: str) -> None:
    assert not re.search(r"(?<![A-Za-z])T(?![A-Za-z])", text), "a level written T"
    assert not re.search(r"\bNone\b|\bTrue\b|\bFalse\b|[\[\]{}]|\\u|\\x", text), "a Python repr"


def assert_chinese(text: str) -> None:
    """No English word on a Chinese page but the language switch's own name of English."""
    words = set(re.findall(r"[A-Za-z]{2,}", text)) - {"English"}
    assert not words, words


def assert_english(text: str, venue: Venue) -> None:
    for n in names(venue):
        text = text.replace(n, " ")
    cjk = set(re.findall(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]+", text)) - {"中文"}
    assert not cjk, cjk


def pages(tid: int) -> dict[str, int]:
    """Every page of the desk a player, the venue or the arbiter can open, and its status."""
    return {
        f"/t/{tid}/standings": 200, f"/t/{tid}/standings?after_round=1": 200, f"/t/{tid}/pairings": 200,
        f"/t/{tid}/pairings/1": 200, f"/t/{tid}/pairings/3": 200, f"/t/{tid}/table/3/1": 200,
        f"/t/{tid}/pairings/screen": 200, f"/t/{tid}/pairings/1/screen?rows=4": 200,
        f"/t/{tid}/pairings/4/screen": 404, f"/t/{tid}/pairings/screen?page=x": 400,
        f"/t/{tid}/table/3/2": 200, f"/t/{tid}/arbiter?key={SECRET}": 200,
        "/t/999/standings": 404, "/t/999/pairings": 404, f"/t/{tid}/pairings/4": 404, f"/t/{tid}/pairings/9": 404,
        f"/t/{tid}/table/3/99": 404, f"/t/{tid}/table/7/1": 404, f"/t/{tid}/arbiter?key=wrong": 403,
        f"/t/{tid}/arbiter": 403, f"/t/{tid}/standings?page=x": 400, f"/t/{tid}/standings?rows=2": 400,
        f"/t/{tid}/standings?after_round=3": 400,
    }


# ---- the language ---------------------------------------------------------------------------------
def test_chinese_by_default_english_by_asking_and_the_cookie_keeps_it(venue: Venue) -> None:
    c = venue.client()
    page = c.get(f"/t/{venue.tid}/standings")
    assert page.status_code == 200 and '<html lang="zh-CN">' in page.text and "成绩排名" in page.text
    assert "set-cookie" not in page.headers
    en = c.get(f"/t/{venue.tid}/standings?lang=en")
    assert '<html lang="en">' in en.text and "Standings after round 2" in en.text
    assert re.match(r"lang=en;.*Path=/", en.headers["set-cookie"]) and "SameSite=lax" in en.headers["set-cookie"]
    again = c.get(f"/t/{venue.tid}/pairings")  # no ?lang= now: the cookie's
    assert '<html lang="en">' in again.text and "Round 3 pairings" in again.text
    post = c.post(f"/t/{venue.tid}/arbiter/pair", data={"key": "wrong"})  # a form follows the cookie too
    assert post.status_code == 403 and "Not allowed" in post.text
    zh = c.get(f"/t/{venue.tid}/pairings?lang=zh")
    assert '<html lang="zh-CN">' in zh.text and "第3轮对阵" in zh.text and zh.headers["set-cookie"].startswith("lang=zh;")
    assert "第3轮对阵" in c.get(f"/t/{venue.tid}/pairings").text


def test_an_unknown_language_is_ignored(venue: Venue) -> None:
    page = venue.client().get(f"/t/{venue.tid}/standings?lang=fr")
    assert '<html lang="zh-CN">' in page.text and "set-cookie" not in page.headers
    assert '<html lang="en">' in venue.client(lang="en").get(f"/t/{venue.tid}/standings?lang=xx").text
    assert '<html lang="en">' in venue.client().get(f"/t/{venue.tid}/standings?lang=en-GB").text
    assert '<html lang="zh-CN">' in venue.client(lang="klingon").get(f"/t/{venue.tid}/pairings").text


@pytest.mark.parametrize("path", ["/t/{tid}/standings?page=1&rows=8", "/t/{tid}/pairings/1",
                                  "/t/{tid}/arbiter?key=" + SECRET, "/t/{tid}/table/3/1", "/t/999/standings"])
def test_every_page_has_the_switch_to_the_other_language_here(venue: Venue, path: str) -> None:
    path = path.format(tid=venue.tid)
    zh = venue.client().get(path).text
    switch = re.search(r'<span class="langs"[^>]*>(.*?)</span>', zh, re.S)
    assert switch is not None
    base, _sep, query = path.partition("?")
    link = html.unescape(re.search(r'href="([^"]*)" hreflang="en"', switch.group(1)).group(1))  # type: ignore[union-attr]
    assert link.startswith(base + "?") and link.endswith("lang=en") and all(p in link for p in query.split("&"))
    assert '<b aria-current="true" lang="zh">中文</b>' in switch.group(1)
    en = venue.client().get(link).text
    assert 'hreflang="zh"' in en and '<b aria-current="true" lang="en">English</b>' in en


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_page_in_both_languages_is_written_for_people(venue: Venue, lang: str) -> None:
    c = venue.client(lang=lang)
    for path, status in pages(venue.tid).items():
        res = c.get(path)
        assert res.status_code == status, (path, res.text[:300])
        text = visible(res.text)
        assert_for_people(text)
        if lang == "zh":
            # an uncatalogued error's detail is English, marked as such; the headline above it is Chinese
            text = re.sub(r'<span lang="en">.*?</span>', " ", text, flags=re.S)
            assert_chinese(visible(re.sub(r'<span lang="en">.*?</span>', " ", res.text, flags=re.S)))
        else:
            assert_english(text, venue)


def test_refusals_are_told_in_the_page_language(venue: Venue) -> None:
    zh, en = venue.client(), venue.client(lang="en")
    t = venue.tid
    assert "没有编号为999的比赛" in zh.get("/t/999/standings").text
    assert "There is no tournament number 999" in en.get("/t/999/standings").text
    assert "第4轮尚未编排" in zh.get(f"/t/{t}/pairings/4").text
    assert "本次比赛共4轮，没有第9轮" in zh.get(f"/t/{t}/pairings/9").text
    assert "第3轮没有第99桌；本轮共4桌" in zh.get(f"/t/{t}/table/3/99").text
    assert "裁判密钥缺失或错误" in zh.get(f"/t/{t}/arbiter?key=nope").text
    bad = zh.get(f"/t/{t}/standings?page=x").text
    assert "未被受理" in bad and "页码须为 1 到 10000 之间的整数，而不是“x”" in bad
    assert "The page number must be a whole number from 1 to 10000, not “x”" in venue.client(lang="en").get(
        f"/t/{t}/standings?page=x").text
    # an action the desk refuses: the reasons, each a catalogued clause, are said in Chinese too
    blocked = zh.post(f"/t/{t}/arbiter/pair", data={"key": SECRET})
    assert blocked.status_code == 400 and "未被受理" in blocked.text and '<span lang="en">' not in blocked.text
    assert "第4轮暂不能编排：第3轮第2桌（" in blocked.text and "）：结果未录入；第3轮第3桌" in blocked.text
    assert "round 4 cannot be paired yet: round 3 table 2 (" in en.post(f"/t/{t}/arbiter/pair", data={"key": SECRET}).text


def test_explain_translates_a_catalogued_refusal() -> None:
    e = refusal(N_("Round {round} table {table} is disputed: only the arbiter can settle it"), round=2, table=3)
    zh = explain(e, "zh")
    assert zh.headline == "未被受理" and zh.detail_lang == "zh" and "2" in zh.detail and "3" in zh.detail
    assert re.search(r"[\u4e00-\u9fff]", zh.detail)
    assert explain(e, "en").detail == str(e) == "Round 2 table 3 is disputed: only the arbiter can settle it"
    plain = explain(TournamentError("something English"), "zh")
    assert (plain.headline, plain.detail, plain.detail_lang) == ("未被受理", "something English", "en")
    gone = explain(Missing(N_("Round {n} has not been paired yet"), n=5), "zh")
    assert (gone.headline, gone.detail, gone.detail_lang) == ("找不到", "第5轮尚未编排", "zh")


# ---- levels and results as people write them -------------------------------------------------------
def test_ten_is_written_10_everywhere(venue: Venue) -> None:
    c = venue.client(lang="en")
    arbiter = c.get(f"/t/{venue.tid}/arbiter?key={SECRET}").text
    assert "10 : 8" in arbiter
    zh = venue.client().get(f"/t/{venue.tid}/arbiter?key={SECRET}").text
    assert "10 : 8" in zh and "弃权" not in visible(zh).split("第3轮各桌")[0]
    for text in (arbiter, zh, c.get(f"/t/{venue.tid}/table/3/1").text):
        assert_for_people(visible(text))


# ---- the standings screen --------------------------------------------------------------------------
def test_the_screen_shows_complete_rounds_only_with_withdrawn_teams_marked(venue: Venue) -> None:
    page = venue.client().get(f"/t/{venue.tid}/standings").text
    state = venue.desk.state(venue.tid)
    assert "第2轮后排名" in page and "第3轮进行中" in page and "共10队" in page
    order = [int(x) for x in re.findall(r'<tr data-team="(\d+)"', page)]
    assert order == [s.team_id for s in state.standings(2)]  # round 3's final table does not count yet
    row = re.search(r'<tr data-team="10" class="withdrawn">(.*?)</tr>', page, re.S)
    assert row is not None and "已退赛" in row.group(1)
    assert "排名依据：场分、对手分、级差分、升级数" in page
    first = re.search(r'<tr data-team="(\d+)"[^>]*>(.*?)</tr>', page, re.S)
    assert first is not None
    top = state.standings(2)[0]
    cells = re.findall(r'<td class="num">([^<]*)</td>', first.group(2))
    assert cells == [str(top.match_points), str(top.opponents_points), f"{top.level_diff:+d}" if top.level_diff else "0",
                     str(top.levels_gained)]
    before = venue.client().get(f"/t/{venue.tid}/standings?after_round=0").text
    assert "尚无完成的轮次" in before and "<td class=\"rank\">–</td>" in before


def test_the_screen_says_where_each_team_sits_in_the_round_in_play(venue: Venue) -> None:
    """Between rounds a room reads the screen to find its table: every team's row carries its table in the round
    in play, the bye in words, nothing for a withdrawn team; in English too."""
    state = venue.desk.state(venue.tid)
    rnd = state.rounds[3]
    where = {team: str(ts.table.number) for ts in rnd.tables.values() for team in ts.table.teams()}
    assert rnd.bye is not None
    for lang, bye in (("zh", "轮空"), ("en", "Bye")):
        page = venue.client().get(f"/t/{venue.tid}/standings?lang={lang}").text
        # the column's head is one short word (第3轮桌号 wrapped onto two lines in two columns); the round is
        # the header's 第3轮进行中
        head = re.search(r'<th class="seat" data-testid="seat-head">([^<]*)</th>', page)
        assert head is not None and head.group(1) == ("桌号" if lang == "zh" else "Table")
        assert ("第3轮进行中" if lang == "zh" else "Round 3 in play") in page
        rows = dict(re.findall(r'<tr data-team="(\d+)"[^>]*>.*?<td class="seat"[^>]*>([^<]*)</td>', page, re.S))
        assert rows == {str(t): where.get(t, bye if t == rnd.bye else "") for t in state.teams}
        assert rows["10"] == ""  # withdrawn after round 2: not paired


def test_the_round_clock_counts_down_and_warns(venue: Venue) -> None:
    c = venue.client()
    path = f"/t/{venue.tid}/standings"

    def clock(at: timedelta, client: TestClient = c) -> tuple[str, str, str]:
        venue.now = T0 + at
        page = client.get(path).text
        box = re.search(r'<div class="clock" data-clock data-phase="(\w+)" data-seconds-left="(\d+)"(.*?)</div>', page, re.S)
        assert box is not None
        shown = re.search(r'<span data-phase-text="\w+">(.*?)</span>', box.group(3), re.S)
        assert shown is not None
        return box.group(1), box.group(2), re.sub(r"<[^>]+>", "", shown.group(1))

    try:
        assert clock(timedelta(minutes=11, seconds=48)) == ("play", "2292", "第3轮：剩余 38:12")
        assert clock(timedelta(minutes=11, seconds=48), venue.client(lang="en")) == ("play", "2292", "Round 3: 38:12 left")
        assert clock(timedelta(minutes=46, seconds=30)) == ("warning", "210", "第3轮：剩余 3:30 · 不再开新牌")
        assert clock(timedelta(minutes=50)) == ("over", "0", "第3轮：时间到")
        assert clock(timedelta(hours=3)) == ("over", "0", "第3轮：时间到")
        page = c.get(path).text
        assert 'data-warning-left="300"' in page and '<script src="/t/static/venue.js" defer></script>' in page
        # the pairings page of the round in play shows the clock too
        venue.now = T0 + timedelta(minutes=1)
        assert "第3轮：剩余 <b data-clock-time>49:00</b>" in c.get(f"/t/{venue.tid}/pairings").text
        assert "data-clock" not in c.get(f"/t/{venue.tid}/pairings/2").text
    finally:
        venue.now = T0 + timedelta(minutes=11, seconds=48)


def test_a_round_whose_clock_has_not_started(desk: Desk) -> None:
    tid = desk.create(EventConfig(name=EVENT, rounds=2), secret=SECRET)
    register(desk, tid, 4)
    desk.pair_next(tid)
    app = FastAPI()
    app.include_router(create_router(desk))
    page = TestClient(app).get(f"/t/{tid}/standings").text
    assert 'data-phase="not_started"' in page and '<span data-phase-text="not_started">第1轮：尚未开始计时</span>' in page
    untimed = desk.create(EventConfig.from_dict({"name": EVENT, "rounds": 2,
                                                 "limits": {"max_minutes": None, "warning_minutes": 0}}), secret=SECRET)
    register(desk, untimed, 4)
    desk.pair_next(untimed)
    page = TestClient(app).get(f"/t/{untimed}/standings").text
    assert "data-clock" not in page and "第1轮进行中" in page


def test_the_screens_line_under_the_name_says_teams_once(desk: Desk) -> None:
    """Before any round is complete the line under the event's name says so and counts the teams, naming them
    once (it read "Teams · No round is complete yet · Teams: 3"), in either language."""
    tid = desk.create(EventConfig(name=EVENT, rounds=2), secret=SECRET)
    register(desk, tid, 3)
    desk.pair_next(tid)
    app = FastAPI()
    app.include_router(create_router(desk))
    for lang, line in (("en", "No round is complete yet · Teams: 3 · Round 1 in play"),
                       ("zh", "尚无完成的轮次 · 共3队 · 第1轮进行中")):
        page = TestClient(app).get(f"/t/{tid}/standings?lang={lang}").text
        sub = re.search(r'<div class="sub">(.*?)</div>', page, re.S)
        assert sub is not None and " ".join(sub.group(1).split()) == line, lang


def test_sixteen_teams_fit_one_page(desk: Desk) -> None:
    tid = desk.create(EventConfig(name=EVENT, rounds=3), secret=SECRET)
    register(desk, tid, 16)
    app = FastAPI()
    app.include_router(create_router(desk))
    page = TestClient(app).get(f"/t/{tid}/standings").text
    assert page.count("<table>") == 1 and len(re.findall(r'<tr data-team="\d+"', page)) == 16
    assert 'class="board wide"' in page and "class=\"pager\"" not in page
    assert 'class="seat"' not in page  # no round paired: no table to go to
    assert f'content="30; url=/t/{tid}/standings?"' in page  # one page: it reloads itself every 30 s


def test_three_hundred_teams_are_shown_a_page_at_a_time(desk: Desk) -> None:
    tid = desk.create(EventConfig(name=EVENT, rounds=9), secret=SECRET)
    register(desk, tid, 300)
    desk.withdraw(tid, 77)
    app = FastAPI()
    app.include_router(create_router(desk))
    c = TestClient(app)
    seen: list[int] = []
    for k in range(1, 11):
        page = c.get(f"/t/{tid}/standings?page={k}").text
        rows = [int(x) for x in re.findall(r'<tr data-team="(\d+)"', page)]
        assert len(rows) == (32 if k < 10 else 300 - 9 * 32)
        assert page.count("<table>") == (2 if k < 10 else 1) and 'class="board"' in page  # two columns of 16
        assert "grid-template-columns: repeat(2, 1fr)" in page  # the last page too: the same layout throughout
        assert f"第{k}页，共10页" in page
        nxt = f"/t/{tid}/standings?page={k + 1}" if k < 10 else f"/t/{tid}/standings?"
        assert f'<meta http-equiv="refresh" content="12; url={nxt}">' in page
        seen += rows
    assert seen == list(range(1, 301))  # every team once, in order (no round played: registration order)
    assert re.findall(r'<tr data-team="(\d+)"', c.get(f"/t/{tid}/standings?page=11").text)[0] == "1"  # wraps
    page = c.get(f"/t/{tid}/standings?page=2&rows=20&refresh=8&lang=en").text  # teams 41…80
    assert "Page 2 of 8" in page and re.search(r'<tr data-team="77" class="withdrawn">.*?withdrawn', page, re.S)
    assert f'content="8; url=/t/{tid}/standings?rows=20&amp;refresh=8&amp;page=3"' in page  # its settings kept
    assert c.get(f"/t/{tid}/standings?page=0").status_code == 400


def test_screen_page_splits_lines_into_columns(venue: Venue) -> None:
    lines = standing_lines(venue.desk.state(venue.tid), 2)
    one = screen_page(lines, 16, 1)
    assert (one.count, len(one.columns), len(one.columns[0])) == (1, 1, 10)
    two = screen_page(lines, 4, 2)
    assert (two.count, [len(c) for c in two.columns]) == (2, [2])
    assert [x.number for c in screen_page(lines, 4, 1).columns for x in c] == [x.number for x in lines[:8]]
    assert screen_page([], 16, 1).count == 1


# ---- the pairings page -----------------------------------------------------------------------------
def test_the_pairings_page_lists_tables_and_teams(venue: Venue) -> None:
    state = venue.desk.state(venue.tid)
    rnd = state.rounds[3]
    page = venue.client().get(f"/t/{venue.tid}/pairings/3").text
    cards = re.findall(r'<li class="tcard" id="table-(\d+)">(.*?)</li>', page, re.S)
    assert [int(n) for n, _ in cards] == list(range(1, len(rnd.tables) + 1))
    for n, card in cards:
        tb = rnd.tables[int(n)].table
        home, away = state.teams[tb.home], state.teams[tb.away]
        text = " ".join(re.sub(r"<[^>]+>", " ", card).split())
        assert text == f"桌号 {n} 南北 {home.name} {home.players[0]} / {home.players[1]} " \
                       f"东西 {away.name} {away.players[0]} / {away.players[1]}"
    assert rnd.bye is not None and f"轮空：{state.teams[rnd.bye].name}" in page
    index = re.findall(r'<li data-team="(\d+)">(.*?)</li>', page.split('id="by-team"')[1], re.S)
    assert len(index) == 9 and 10 not in [int(x) for x, _ in index]  # the withdrawn team plays no more
    listed = [state.teams[int(x)].name for x, _ in index]
    assert listed == sorted(listed, key=name_key)
    for x, entry in index:
        ts = rnd.table_of(int(x))
        words = " ".join(re.sub(r"<[^>]+>", " ", entry).split())
        if ts is None:
            assert words == f"{state.teams[int(x)].name} 轮空"
        else:
            seat = "南北" if ts.table.home == int(x) else "东西"
            assert words == f"{state.teams[int(x)].name} 第{ts.table.number}桌 · {seat}"
            assert f'href="#table-{ts.table.number}"' in entry
    def no_switch(text: str) -> str:  # nor the link to the screen: of the round shown, or of the current round
        return re.sub(r'<span class="langs".*?</span>|<a href="[^"]*/screen">', "", text, flags=re.S)

    assert no_switch(venue.client().get(f"/t/{venue.tid}/pairings").text) == no_switch(page)  # the current round


def test_pairings_as_json(venue: Venue) -> None:
    c = venue.client()
    data = c.get(f"/api/t/{venue.tid}/pairings/3").json()
    state = venue.desk.state(venue.tid)
    rnd = state.rounds[3]
    assert set(data) == {"tournament", "name", "round", "rounds", "tables", "bye", "teams"}
    assert (data["tournament"], data["name"], data["round"], data["rounds"]) == (venue.tid, EVENT, 3, 4)
    first = rnd.tables[1].table
    assert data["tables"][0] == {
        "table": 1, "status": "final",
        "north_south": {"team_id": first.home, "team": state.teams[first.home].name,
                        "players": list(state.teams[first.home].players), "club": state.teams[first.home].club},
        "east_west": {"team_id": first.away, "team": state.teams[first.away].name,
                      "players": list(state.teams[first.away].players), "club": state.teams[first.away].club}}
    assert [t["table"] for t in data["tables"]] == [1, 2, 3, 4]
    assert data["bye"]["team_id"] == rnd.bye
    seats = {x["team_id"]: (x["table"], x["seat"]) for x in data["teams"]}
    assert seats[first.home] == (1, "north_south") and seats[first.away] == (1, "east_west")
    assert seats[rnd.bye] == (None, "bye") and len(seats) == 9
    assert c.get(f"/api/t/{venue.tid}/pairings").json() == data
    assert c.get(f"/api/t/{venue.tid}/pairings/4").status_code == 404
    assert c.get("/api/t/999/pairings/1").json() == {"error": "There is no tournament number 999"}


def test_pairings_before_round_one(desk: Desk) -> None:
    tid = desk.create(EventConfig(name=EVENT, rounds=2), secret=SECRET)
    register(desk, tid, 4)
    app = FastAPI()
    app.include_router(create_router(desk))
    c = TestClient(app)
    page = c.get(f"/t/{tid}/pairings")
    assert page.status_code == 200 and "尚未编排任何一轮" in page.text
    assert c.get(f"/api/t/{tid}/pairings").status_code == 404


# ---- the pairings on the venue screen --------------------------------------------------------------
def screen_rows(page: str) -> list[tuple[str, ...]]:
    """The tables of a pairings screen's page: (table, home team, away team, home's title, away's title)."""
    rows = []
    for number, cells in re.findall(r'<tr data-table="(\d+)">(.*?)</tr>', page, re.S):
        names = re.findall(r'<span data-fit data-keep="\d+" title="([^"]*)">([^<]*)</span>', cells)
        assert len(names) == 2, cells
        assert f'<td class="tno">{number}</td>' in cells
        rows.append((number, names[0][1], names[1][1], names[0][0], names[1][0]))
    return rows


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_pairings_screen_shows_every_table_home_and_away(venue: Venue, lang: str) -> None:
    """For a venue's TV or projector: each table's number, home team and away team, the round's clock, the bye; a
    page at a time, turning by itself; the current round when the address names none."""
    state = venue.desk.state(venue.tid)
    rnd = state.rounds[3]
    c = venue.client(lang=lang)
    page = c.get(f"/t/{venue.tid}/pairings/screen").text
    assert screen_rows(page) == [(str(n), state.teams[ts.table.home].name, state.teams[ts.table.away].name,
                                  state.teams[ts.table.home].name, state.teams[ts.table.away].name)
                                 for n, ts in sorted(rnd.tables.items())]
    heads = re.findall(r"<th class=\w+>([^<]*)</th>", page.replace('"', ""))
    assert heads == (["桌号", "主队（南北）", "客队（东西）"] if lang == "zh" else ["Table", "Home (N–S)", "Away (E–W)"])
    sub = "第3轮对阵 · 共4桌" if lang == "zh" else "Round 3 pairings · Tables: 4"
    assert f'<div class="sub">{sub}</div>' in page and "data-clock" in page and 'class="board"' in page
    assert rnd.bye is not None
    bye = state.teams[rnd.bye].name
    assert f'<span class="bye" data-testid="bye">{"轮空：" if lang == "zh" else "Bye: "}{bye}</span>' in page
    # one page: it loads itself again every 30 s (the next round, once paired, shows by itself)
    assert f'<meta name="next-page" content="30; url=/t/{venue.tid}/pairings/screen?">' in page
    assert 'class="pager"' not in page
    assert c.get(f"/t/{venue.tid}/pairings/3/screen").text.replace("/pairings/3", "/pairings") == page
    # a round that is over: no clock; five tables at four rows a column: two columns side by side, the settings kept
    first = c.get(f"/t/{venue.tid}/pairings/1/screen?rows=4&refresh=7").text
    assert [r[0] for r in screen_rows(first)] == ["1", "2", "3", "4", "5"] and "data-clock" not in first
    assert first.count("<table>") == 2 and "grid-template-columns: repeat(2, minmax(0, 1fr))" in first
    assert f'content="7; url=/t/{venue.tid}/pairings/1/screen?rows=4&amp;refresh=7"' in first
    assert c.get(f"/t/{venue.tid}/pairings/3/screen?rows=4").text.count("<table>") == 1  # four fit one column
    assert c.get(f"/t/{venue.tid}/pairings/3/screen?rows=1").status_code == 400


def test_the_pairings_screen_turns_its_pages(desk: Desk) -> None:
    tid = desk.create(EventConfig(name=EVENT, rounds=3), secret=SECRET)
    register(desk, tid, 50)  # 25 tables: two columns of 10, two pages
    desk.pair_next(tid)
    app = FastAPI()
    app.include_router(create_router(desk))
    c = TestClient(app)
    seen: list[str] = []
    for k, (count, nxt) in enumerate([(20, "?page=2"), (5, "?")], start=1):
        page = c.get(f"/t/{tid}/pairings/screen?page={k}").text
        rows = screen_rows(page)
        assert len(rows) == count and f"第{k}页，共2页" in page
        assert page.count("<table>") == (2 if k == 1 else 1) and "repeat(2, minmax(0, 1fr))" in page
        assert f'content="12; url=/t/{tid}/pairings/screen{nxt}"' in page
        seen += [r[0] for r in rows]
    assert seen == [str(n) for n in range(1, 26)]
    before = desk.create(EventConfig(name=EVENT, rounds=3), secret=SECRET)
    empty = c.get(f"/t/{before}/pairings/screen")
    assert empty.status_code == 200 and "尚未编排任何一轮" in empty.text and 'name="next-page"' in empty.text


def test_names_alike_keep_the_end_that_tells_them_apart() -> None:
    names = ["淮安市清江浦区第一代表队", "淮安市清江浦区第二代表队", "淮安市淮阴区老干部局代表队", "第9队", "第19队",
             "Huai'an Qingjiangpu District Team One", "Huai'an Qingjiangpu District Team Two", "队"]
    ends = telling_ends(names)
    assert ends["淮安市清江浦区第一代表队"] == len("一代表队") and ends["淮安市淮阴区老干部局代表队"] == len("局代表队")
    assert ends["第9队"] == len("第9队") and ends["第19队"] == len("19队")  # 第19队 ends with 9队 too
    assert ends["Huai'an Qingjiangpu District Team One"] == 1 and ends["队"] == 1
    assert telling_ends(["A"]) == {"A": 1} and telling_ends([]) == {}


def test_the_venue_screens_carry_each_names_telling_end(venue: Venue) -> None:
    page = venue.client().get(f"/t/{venue.tid}/standings").text
    state = venue.desk.state(venue.tid)
    ends = telling_ends(t.name for t in state.teams.values())
    cells = re.findall(r'<td class="name"><span data-fit data-keep="(\d+)" title="([^"]*)">([^<]*)</span>', page)
    assert len(cells) == len(state.teams) and all(int(k) == ends[name] and name == text for k, name, text in cells)


def test_the_standings_and_the_arbiter_link_the_pairings(venue: Venue) -> None:
    c = venue.client()
    assert f'<a href="/t/{venue.tid}/pairings">对阵表</a>' in c.get(f"/t/{venue.tid}/standings").text
    arbiter = c.get(f"/t/{venue.tid}/arbiter?key={SECRET}").text
    assert f'<a href="/t/{venue.tid}/pairings/3">对阵表</a>' in arbiter
    assert f'<a href="/t/{venue.tid}/standings">成绩排名</a>' in c.get(f"/t/{venue.tid}/pairings").text
    # the pairings on the venue screen, where the arbiter finds the standings' screen, and beside it; the
    # standings' screen links it while a round is in play
    screen = f'<a href="/t/{venue.tid}/pairings/screen" data-testid="pairings-screen">对阵大屏</a>'
    assert screen in arbiter and f'<a href="/t/{venue.tid}/pairings/screen">对阵大屏</a>' in arbiter
    assert f'<a href="/t/{venue.tid}/pairings/screen">对阵大屏</a>' in c.get(f"/t/{venue.tid}/standings").text
    assert f'<a href="/t/{venue.tid}/pairings/2/screen">对阵大屏</a>' in c.get(f"/t/{venue.tid}/pairings/2").text
    assert "Pairings screen" in venue.client(lang="en").get(f"/t/{venue.tid}/pairings").text


def test_the_pages_script_is_served_and_nothing_else(venue: Venue) -> None:
    c = venue.client()
    js = c.get("/t/static/venue.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript") and "data-clock" in js.text
    assert c.get("/t/static/nothing.js").status_code == 404
    assert c.get("/t/static/..%2Fweb.py").status_code == 404


# ---- the arbiter's page ------------------------------------------------------------------------------
def test_the_arbiter_starts_the_clock_sees_the_codes_and_unlocks_a_table(desk: Desk) -> None:
    tid = desk.create(EventConfig(name=EVENT, rounds=2), secret=SECRET)
    register(desk, tid, 4)
    desk.pair_next(tid)
    app = FastAPI()
    app.include_router(create_router(desk))
    c = TestClient(app)
    page = c.get(f"/t/{tid}/arbiter?key={SECRET}").text
    state = desk.state(tid)
    for n in (1, 2):
        assert f"南北 {state.team_code(1, n, 0)}<br>东西 {state.team_code(1, n, 1)}" in page
    assert "开始第1轮计时" in page and 'data-phase="not_started"' in page
    started = c.post(f"/t/{tid}/arbiter/start", data={"key": SECRET}).text
    assert "第1轮已开始计时。" in started and "开始第1轮计时" not in started and 'data-phase="play"' in started
    assert desk.state(tid).rounds[1].started_at is not None
    again = c.post(f"/t/{tid}/arbiter/start", data={"key": SECRET})
    assert again.status_code == 400 and "未被受理" in again.text  # the clock runs once
    desk.lock_table(tid, 1, 2, "too many wrong codes")
    locked = c.get(f"/t/{tid}/arbiter?key={SECRET}").text
    assert locked.count("已锁定") == 1 and "解锁" in locked
    done = c.post(f"/t/{tid}/arbiter/unlock", data={"key": SECRET, "round": "1", "table": "2"}).text
    assert "第1轮第2桌已解锁。" in done and "已锁定" not in done and not desk.state(tid).table(1, 2).locked
    assert c.post(f"/t/{tid}/arbiter/unlock", data={"key": "no", "round": "1", "table": "2"}).status_code == 403
    assert c.post(f"/t/{tid}/arbiter/start", data={"key": "no"}).status_code == 403
