"""The desk's web pages and JSON endpoints, through FastAPI's TestClient."""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Callable

import pytest
from fastapi import FastAPI

from guandan.tournament import online
from guandan.tournament.desk import Desk
from guandan.tournament.model import EventConfig
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router

from .conftest import SECRET

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette's notice that it prefers httpx2 over the pinned httpx
    from fastapi.testclient import TestClient


@pytest.fixture
def client(desk: Desk) -> TestClient:
    app = FastAPI()
    app.include_router(create_router(desk, base_url="https://cup.example"))
    return TestClient(app, cookies={"lang": "en"})  # the pages' English (they are Chinese by default)


@pytest.fixture
def tid(desk: Desk, new_event: Callable[..., int]) -> int:
    tid = new_event(5, rounds=2, first_round="rating")
    desk.pair_next(tid)  # 1v3, 2v4, bye 5
    return tid


def _sign_in(client: TestClient, desk: Desk, tid: int, table: int, side: int) -> None:
    code = desk.state(tid).team_code(1, table, side)
    assert client.post(f"/t/{tid}/table/1/{table}/code", data={"code": code}).status_code == 200


def test_away_enters_home_confirms(client: TestClient, desk: Desk, tid: int) -> None:
    """The round-result flow on the table's page (per-deal reporting off): each team with its own code."""
    page = client.get(f"/t/{tid}/table/1/1")
    assert page.status_code == 200 and "T1" in page.text and "Your team&#39;s code" in page.text
    west, north = TestClient(client.app, cookies={"lang": "en"}), TestClient(client.app, cookies={"lang": "en"})
    _sign_in(west, desk, tid, 1, 1)
    _sign_in(north, desk, tid, 1, 0)
    form = {"home_level": "A", "away_level": "6", "passed_a": "home", "deals": "7"}
    bad = west.post(f"/t/{tid}/table/1/1/result", data={**form, "passed_a": "away"})
    assert bad.status_code == 400 and "recorded at level A" in bad.text
    assert desk.state(tid).table(1, 1).status == "missing"
    ok = west.post(f"/t/{tid}/table/1/1/result", data=form)
    assert ok.status_code == 200 and "The other team now confirms it" in ok.text
    assert desk.events(tid)[-1].actor == "web"
    assert north.post(f"/t/{tid}/table/1/1/result/answer", data={"action": "confirm"}).status_code == 200
    st = desk.state(tid)
    assert st.table(1, 1).status == "final" and st.table(1, 1).source == "confirmed"
    again = west.post(f"/t/{tid}/table/1/1/result", data=form)
    assert again.status_code == 400 and "only the arbiter" in again.text


def test_an_override_play_could_not_give_stands_with_a_warning(client: TestClient, desk: Desk, tid: int) -> None:
    form = {"key": SECRET, "round": "1", "reason": "penalty"}
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "levels": "K:2", "deals": "2"})
    assert res.status_code == 200 and "Round 1 table 1: result set." in res.text
    assert "warning: " in res.text and "K:2" in res.text and "at least 4 deals" in res.text
    assert desk.state(tid).table(1, 1).status == "final"  # the arbiter's ruling stands
    client.cookies.clear()  # the English the redirect's address set too: the reader turns to Chinese
    client.cookies.set("lang", "zh")
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "2", "levels": "K:2", "deals": "2"})
    assert res.status_code == 200 and "至少要打4副" in res.text and "警告" in res.text and "warning: " not in res.text
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "levels": "5:2", "deals": "1"})
    assert res.status_code == 200 and "警告" not in res.text and "warning: " not in res.text  # a possible score


def test_arbiter_dashboard(client: TestClient, desk: Desk, tid: int) -> None:
    assert client.get(f"/t/{tid}/arbiter").status_code == 403
    assert client.get(f"/t/{tid}/arbiter?key=wrong").status_code == 403
    assert client.post(f"/t/{tid}/arbiter/pair", data={"key": "wrong"}).status_code == 403
    page = client.get(f"/t/{tid}/arbiter?key={SECRET}")
    assert page.status_code == 200
    assert "Round 2 cannot be paired yet" in page.text and "result missing" in page.text
    assert "Re-pair round 1" in page.text  # nothing entered yet
    blocked = client.post(f"/t/{tid}/arbiter/pair", data={"key": SECRET})
    assert blocked.status_code == 400 and "cannot be paired yet" in blocked.text
    res = client.post(f"/t/{tid}/arbiter/repair", data={"key": SECRET, "reason": "swap"})
    assert res.status_code == 200 and "re-paired" in res.text
    form = {"key": SECRET, "round": "1", "reason": "slip"}
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "levels": "K:7"})
    assert res.status_code == 200 and "result set" in res.text and "Re-pair" not in res.text
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "2", "levels": "", "forfeit": "home"})
    assert res.status_code == 200
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "9", "levels": "K:7"})
    assert res.status_code == 404
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "levels": "K:7", "deals": "many"})
    assert res.status_code == 400 and "whole number" in res.text
    res = client.post(f"/t/{tid}/arbiter/pair", data={"key": SECRET})
    assert res.status_code == 200 and "Round 2 paired" in res.text
    slips = client.get(f"/t/{tid}/arbiter/slips/2?key={SECRET}")
    assert slips.status_code == 200 and slips.text.count("<svg") == 4  # each team's own code
    assert f"https://cup.example/t/{tid}/table/2/1?side=away" in slips.text and "First out" in slips.text
    state = desk.state(tid)
    assert state.team_code(2, 1, 0) in slips.text and state.team_code(2, 1, 1) in slips.text
    pdf = client.get(f"/t/{tid}/arbiter/slips/2?key={SECRET}&pdf=1")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-") and "pdf=1" in slips.text
    assert client.get(f"/t/{tid}/arbiter/slips/2?key=no").status_code == 403
    assert client.get(f"/t/{tid}/arbiter/slips/2?key=no&pdf=1").status_code == 403
    screen = client.get(f"/t/{tid}/standings").text
    assert "after round 1" in screen and "Round 2 in play" in screen


def test_public_standings_and_json(client: TestClient, desk: Desk, tid: int) -> None:
    page = client.get(f"/t/{tid}/standings")
    assert page.status_code == 200 and 'http-equiv="refresh"' in page.text and ">MP<" in page.text
    assert "Round 1 in play" in page.text
    assert client.get("/t/404/standings").status_code == 404
    data = client.get(f"/api/t/{tid}/standings").json()
    assert data["tiebreaks"] == ["match_points", "opponents_points", "level_diff", "levels_gained"]
    assert data["standings"][0]["team"] == "T5" and data["standings"][0]["byes"] == 1
    status = client.get(f"/api/t/{tid}/status").json()
    assert status["tables_not_final"] == [1, 2] and len(status["pairing_blockers"]) == 2
    state = desk.state(tid)
    home, away = state.team_code(1, 1, 0), state.team_code(1, 1, 1)
    api = f"/api/t/{tid}/table/1/1"
    assert client.post(f"{api}/result", json={"code": away, "levels": ["J", "Q"]}).status_code == 200
    res = client.post(f"{api}/result/answer", json={"code": "0", "action": "confirm"})
    assert res.status_code == 400 and "6 digits" in res.json()["error"]  # no code at all: not even a guess
    wrong = next(c for c in ("000000", "000001", "000002") if c not in (home, away))
    res = client.post(f"{api}/result/answer", json={"code": wrong, "action": "confirm"})
    assert res.status_code == 400 and "Wrong code" in res.json()["error"]
    assert client.post(f"{api}/result/answer", json={"code": home, "action": "confirm"}).json()["status"] == "final"
    res = client.post(f"/api/t/{tid}/table/1/2/result", json={"code": state.team_code(1, 2, 1), "levels": ["J"]})
    assert res.status_code == 400 and "two levels" in res.json()["error"]
    rnd = client.get(f"/api/t/{tid}/rounds/1").json()
    assert rnd["bye"] == 5 and rnd["tables"][0]["status"] == "final"
    assert client.get(f"/api/t/{tid}/rounds/7").status_code == 404
    assert client.get(f"/api/t/{tid}/log").status_code == 403
    log = client.get(f"/api/t/{tid}/log?key={SECRET}").json()
    assert log[0]["data"]["secret"] == "***" and log[-1]["type"] == "result_confirmed"
    assert "code_refused" in [e["type"] for e in log]
    qr = client.get(f"/t/{tid}/table/1/1/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")


def test_levels_are_written_for_people(client: TestClient, desk: Desk, tid: int) -> None:
    """The level selector and the results say 10, not the stored notation T."""
    _sign_in(client, desk, tid, 1, 1)
    page = client.get(f"/t/{tid}/table/1/1").text
    assert '<option value="T">10</option>' in page and ">T<" not in page
    form = {"home_level": "K", "away_level": "T", "passed_a": "none", "deals": "8"}
    assert client.post(f"/t/{tid}/table/1/1/result", data=form).status_code == 200
    pending = client.get(f"/t/{tid}/table/1/1").text
    assert "K : 10" in pending and " T " not in pending


def test_an_online_events_arbiter_page_links_its_public_event_page(client: TestClient, desk: Desk, tid: int) -> None:
    """An event played on the site's own tables has a public page (/events/{id}): the desk's arbiter page links
    it, in the page's language; an event at a venue has none, and no link."""
    cup = online.create_online(desk, EventConfig(name="Online Cup", rounds=2), secret=SECRET)
    page = client.get(f"/t/{cup}/arbiter?key={SECRET}").text
    assert f'<a href="/events/{cup}" data-testid="event-page">Online event page</a>' in page
    zh = client.get(f"/t/{cup}/arbiter?key={SECRET}&lang=zh").text
    assert f'<a href="/events/{cup}" data-testid="event-page">线上赛事页面</a>' in zh
    venue = client.get(f"/t/{tid}/arbiter?key={SECRET}").text
    assert "/events/" not in venue and 'data-testid="event-page"' not in venue


def test_a_knockouts_level_round_names_who_won_the_deciding_deal(client: TestClient, desk: Desk) -> None:
    """A knockout round that ended level (9 : 9) was won by one more deal: the arbiter's table row says by whom,
    since the levels alone name no winner."""
    cup = desk.create(EventConfig(name="Knockout Cup", format="knockout", per_deal=False), secret=SECRET)
    desk.register(cup, "Red", ["a", "b"])
    desk.register(cup, "Blue", ["c", "d"])
    desk.pair_next(cup)
    tb = desk.state(cup).table(1, 1).table
    away = desk.state(cup).teams[tb.away].name
    desk.override(cup, 1, 1, ResultSlip.parse("9:9", None, 8, decider="away"), "scored at the venue")
    assert f"9 : 9 · {away} won the deciding deal" in client.get(f"/t/{cup}/arbiter?key={SECRET}&lang=en").text
    assert f"9 : 9 · {away}加赛胜" in client.get(f"/t/{cup}/arbiter?key={SECRET}&lang=zh").text


def test_an_online_events_standings_and_pairings_lead_back_to_its_event_page(client: TestClient, desk: Desk,
                                                                           tid: int) -> None:
    """A player who opens an online event's standings or pairings from its page (/events/{id}) on a phone finds the
    way back to it there, in the page's language; an event at a venue has no such page, and no link."""
    cup = online.create_online(desk, EventConfig(name="Online Cup", rounds=2), secret=SECRET)
    for a, b in (("on_a", "on_b"), ("on_c", "on_d")):
        desk.register(cup, f"Team {a}", [a, b])
    online.open_round(desk, cup)
    for path in (f"/t/{cup}/standings", f"/t/{cup}/pairings", f"/t/{cup}/pairings/1"):
        assert f'<a href="/events/{cup}" data-testid="event-page">Online event page</a>' in client.get(
            f"{path}?lang=en").text, path
        assert f'<a href="/events/{cup}" data-testid="event-page">线上赛事页面</a>' in client.get(
            f"{path}?lang=zh").text, path
    for path in (f"/t/{tid}/standings", f"/t/{tid}/pairings"):
        venue = client.get(path).text
        assert "/events/" not in venue and 'data-testid="event-page"' not in venue, path


def test_an_online_events_arbiter_page_shows_nothing_of_a_venue(desk: Desk, new_event: Callable[..., int]) -> None:
    """The site's own tables play an online event and report it: its arbiter page offers no score slips, no team
    codes, no table page to open on a phone and no warning that the venue's phones cannot reach this computer;
    an event at a venue keeps them all. A bye's row spans the tables' columns either way."""
    app = FastAPI()
    app.include_router(create_router(desk))  # no public address: the page is open at 127.0.0.1
    local = TestClient(app, base_url="http://127.0.0.1:8000", cookies={"lang": "en"})
    cup = online.create_online(desk, EventConfig(name="Online Cup", rounds=2, per_deal=True), secret=SECRET)
    for name, players in (("Red", ["ann", "bob"]), ("Blue", ["cat", "dan"]), ("Green", ["eve", "fay"])):
        desk.register(cup, name, players)
    desk.pair_next(cup)
    venue = new_event(3, rounds=2, per_deal=True)
    desk.pair_next(venue)
    for lang in ("en", "zh"):
        at_venue = local.get(f"/t/{venue}/arbiter?key={SECRET}&lang={lang}").text
        there = local.get(f"/t/{cup}/arbiter?key={SECRET}&lang={lang}").text
        for mark in ("/arbiter/slips/1?key=", 'data-testid="local-url"', 'class="codes"', "队伍代码" if lang == "zh"
                     else "Team codes"):
            assert mark in at_venue and mark not in there, mark
        assert f'href="/t/{venue}/table/1/1"' in at_venue and f'href="/t/{cup}/table/' not in there
        assert '<td colspan="7">' in at_venue and '<td colspan="6">' in there  # the bye's row
        assert 'data-testid="round-tables"' in there and 'name="deals"' in there  # the arbiter still sets deals


def _online_cup(desk: Desk) -> int:
    """An online event of three teams, round 1 paired and in play."""
    cup = online.create_online(desk, EventConfig(name="Online Cup", rounds=2), secret=SECRET)
    for name, players in (("Red", ["ann", "bob"]), ("Blue", ["cat", "dan"]), ("Green", ["eve", "fay"])):
        desk.register(cup, name, players)
    desk.pair_next(cup)
    return cup


def test_an_online_event_has_no_score_slips_even_by_address(client: TestClient, desk: Desk, tid: int) -> None:
    """The slips' address typed for an online event, key and all, is a page that says in the reader's language
    that such an event has none (404), in HTML and as the PDF; an event at a venue still prints them."""
    cup = _online_cup(desk)
    for lang, said in (("en", "An online event has no score slips"), ("zh", "线上赛事没有记分单")):
        for pdf in ("", "&pdf=1"):
            page = client.get(f"/t/{cup}/arbiter/slips/1?key={SECRET}&lang={lang}{pdf}")
            assert page.status_code == 404 and said in page.text, (lang, pdf)
            assert page.headers["content-type"].startswith("text/html") and "<svg" not in page.text
    assert client.get(f"/t/{tid}/arbiter/slips/1?key={SECRET}").status_code == 200


def test_an_online_events_table_has_no_page_even_by_address(client: TestClient, desk: Desk, tid: int) -> None:
    """A venue table's page, its QR code and its JSON typed for an online event are refused (404, in the
    reader's language), and a result sent there with the right team code changes nothing; an event at a
    venue keeps them."""
    cup = _online_cup(desk)
    before = [e.to_dict() for e in desk.events(cup)]
    home, away = (desk.state(cup).team_code(1, 1, side) for side in (0, 1))
    base = f"/t/{cup}/table/1/1"
    for lang, said in (("en", "An online event has no score-entry pages"), ("zh", "线上赛事的各桌没有记分页面")):
        for page in (client.get(f"{base}?lang={lang}"), client.get(f"{base}/qr.svg?lang={lang}"),
                     client.post(f"{base}/code?lang={lang}", data={"code": away}),
                     client.post(f"{base}/leave?lang={lang}"),
                     client.post(f"{base}/result?lang={lang}", data={"home_level": "A", "away_level": "6",
                                                                      "passed_a": "home", "deals": "7"}),
                     client.post(f"{base}/result/answer?lang={lang}", data={"action": "confirm"})):
            assert page.status_code == 404 and said in page.text, (lang, page.request.url)
            assert "gd_code_" not in page.headers.get("set-cookie", "")
    api = f"/api{base}"
    assert client.get(api).status_code == 404
    entered = client.post(f"{api}/result", json={"code": away, "levels": ["A", "6"], "passed_a": "home", "deals": 7})
    assert entered.status_code == 404 and "online event" in entered.json()["error"]
    assert client.post(f"{api}/result/answer", json={"code": home, "action": "confirm"}).status_code == 404
    assert client.post(f"{api}/deal", json={"code": away, "finish": ["W", "E", "N"]}).status_code == 404
    assert [e.to_dict() for e in desk.events(cup)] == before and desk.state(cup).table(1, 1).status == "missing"
    for path in (f"/t/{tid}/table/1/1", f"/t/{tid}/table/1/1/qr.svg", f"/api/t/{tid}/table/1/1"):
        assert client.get(path).status_code == 200, path


def test_a_table_page_of_an_event_number_no_database_can_hold_is_not_found(client: TestClient) -> None:
    """The online check before a table's page read its event by a number past SQL's INTEGER (an OverflowError,
    a 500); such a number names no event, and the desk says so as for any other unknown number."""
    big = 2**64
    for path in (f"/t/{big}/table/1/1", f"/t/-{big}/table/1/1", f"/api/t/{big}/table/1/1", f"/t/{big}/arbiter/slips/1"):
        assert client.get(path).status_code == 404, path
    assert client.get(f"/t/{big}/table/1/1/qr.svg").status_code == 200  # a code of the address, whatever it names
    assert client.post(f"/t/{big}/table/1/1/code", data={"code": "246253"}).status_code in (400, 404)


def test_the_pairings_screen_is_linked_for_an_event_at_a_venue_only(client: TestClient, desk: Desk,
                                                                     tid: int) -> None:
    """The pairings' venue screen is a hall's TV: the arbiter's page, the pairings and the standings link it for
    an event at a venue, never for an online event (whose standings page is its public standings, and stays)."""
    cup = _online_cup(desk)
    for lang, word in (("en", "Pairings screen"), ("zh", "对阵大屏")):
        for event, linked in ((tid, True), (cup, False)):
            for page in (f"/t/{event}/arbiter?key={SECRET}", f"/t/{event}/pairings", f"/t/{event}/pairings/1",
                         f"/t/{event}/standings"):
                text = client.get(f"{page}{'&' if '?' in page else '?'}lang={lang}").text
                assert (word in text) is linked and ("/screen" in text) is linked, (lang, page)


def test_an_online_events_pairings_screen_is_not_found_even_by_address(client: TestClient, desk: Desk,
                                                                        tid: int) -> None:
    """The pairings' venue screen typed for an online event, current round or a numbered one, is refused (404)
    in the reader's language, as its venue tables' pages are; an event at a venue keeps it."""
    cup = _online_cup(desk)
    for lang, said in (("en", "An online event has no venue screen for its pairings"), ("zh", "线上赛事没有对阵大屏")):
        for path in (f"/t/{cup}/pairings/screen", f"/t/{cup}/pairings/1/screen?rows=4"):
            page = client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}")
            assert page.status_code == 404 and said in page.text, (lang, path)
            assert "next-page" not in page.text
    for path in (f"/t/{tid}/pairings/screen", f"/t/{tid}/pairings/1/screen"):
        assert client.get(path).status_code == 200, path
    assert client.get(f"/t/{cup}/pairings").status_code == 200  # its public pairings stay


def test_a_result_waiting_on_the_arbiters_page_says_who_passed_a(client: TestClient, desk: Desk, tid: int) -> None:
    """A result not yet confirmed reads as a final one does, in brackets (full-width in Chinese, as the page's
    other brackets are): the pass of A is not left out."""
    _sign_in(client, desk, tid, 1, 1)
    form = {"home_level": "A", "away_level": "6", "passed_a": "home", "deals": "7"}
    assert client.post(f"/t/{tid}/table/1/1/result", data=form).status_code == 200
    home = desk.state(tid).teams[desk.state(tid).table(1, 1).table.home].name

    def result(lang: str) -> str:
        page = client.get(f"/t/{tid}/arbiter?key={SECRET}&lang={lang}").text
        return page.split('<td class="result">', 1)[1].split("</td>", 1)[0]

    assert result("en") == f"(A : 6 · {home} passed A)"
    assert result("zh") == f"（A : 6 · {home}过A）"


def test_the_arbiters_standings_show_each_teams_byes_beside_its_record(client: TestClient, desk: Desk, tid: int) -> None:
    """A bye counts as a win (W), so the record alone would read a bye as a match won: the Byes column says which."""
    form = {"key": SECRET, "round": "1", "reason": "slip"}
    for table in (1, 2):
        assert client.post(f"/t/{tid}/arbiter/override", data={**form, "table": str(table), "levels": "K:7"}).status_code == 200
    page = client.get(f"/t/{tid}/arbiter?key={SECRET}").text
    standings = page.split('data-testid="standings"', 1)[1].split("</table>", 1)[0]
    assert ">Byes</th>" in standings
    byes = re.findall(r'data-testid="byes">(\d+)<', standings)
    assert sorted(byes) == ["0", "0", "0", "0", "1"]  # team 5 sat out round 1
    row = next(r for r in standings.split("<tr")[1:] if 'data-testid="byes">1<' in r)
    assert "1-0-0" in row  # its bye, counted as a win


def test_the_arbiters_override_keeps_how_late_a_forfeiting_team_was(client: TestClient, desk: Desk, tid: int) -> None:
    """The override's minutes-late box: read beside a forfeit and kept in its log entry as the command keeps it (a
    whole number as an integer); a value that is no number of minutes, 0 or more, or too few minutes for a forfeit
    is refused in words in the page's language, the arbiter's typing put back and nothing logged; beside a result
    that was played it is not read."""
    page = client.get(f"/t/{tid}/arbiter?key={SECRET}").text
    assert page.count('name="late"') == 2 and 'placeholder="minutes late"' in page
    assert 'aria-label="Minutes late (a forfeit)"' in page
    form = {"key": SECRET, "round": "1", "reason": "no-show", "levels": "", "forfeit": "away"}
    for late, said in (("-3", "Minutes late must be a number of minutes, 0 or more (e.g. 12 or 12.5), not “-3”"),
                       ("soon", "not “soon”"), ("1e3", "not “1e3”"), ("nan", "not “nan”"),
                       ("8", "8 minutes late is not a forfeit (more than 10 needed); the opponents are credited the "
                             "first deal (+3)"),
                       ("4.5", "4.5 minutes late is not a forfeit (more than 10 needed); play the round")):
        before = len(desk.events(tid))
        res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "late": late})
        assert res.status_code == 400 and said in html.unescape(res.text), (late, res.text)
        assert f'name="late" class="late" inputmode="decimal" value="{html.escape(late)}"' in res.text
        assert len(desk.events(tid)) == before and desk.state(tid).table(1, 1).status == "missing"
    client.cookies.set("lang", "zh")
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "late": "-3"})
    assert res.status_code == 400 and "迟到分钟数须为0或以上的数（如12或12.5），而不是“-3”" in html.unescape(res.text)
    assert 'placeholder="迟到分钟数"' in res.text
    client.cookies.set("lang", "en")
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "late": " 12 "})
    assert res.status_code == 200 and "Round 1 table 1: result set." in res.text
    entry = desk.events(tid)[-1]
    assert entry.type == "result_overridden" and entry.data["late_minutes"] == 12
    assert isinstance(entry.data["late_minutes"], int) and desk.state(tid).table(1, 1).final == ResultSlip(None, forfeit=1)
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "2", "forfeit": "home", "late": "10.5"})
    assert res.status_code == 200 and desk.events(tid)[-1].data["late_minutes"] == 10.5
    res = client.post(f"/t/{tid}/arbiter/override", data={**form, "table": "1", "forfeit": "", "levels": "K:7",
                                                             "late": "-3"})  # a played result: the box is not read
    assert res.status_code == 200 and "late_minutes" not in desk.events(tid)[-1].data
