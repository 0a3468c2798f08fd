"""The arbiter's forms, Post/Redirect/Get: every action answers with a 303 back to the arbiter's page, its outcome
in the address (?done=…); a reload reads the page again instead of sending the form a second time, and a form
sent twice (the back button, a double click) is applied once: the second is refused in words, the log unchanged.
On a table's page the pending entry is said from the reader's side (本队 / 对方)."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

from fastapi import FastAPI
from fastapi.testclient import TestClient

from guandan.tournament.desk import Desk
from guandan.tournament.model import EventConfig
from guandan.tournament.rounds import ResultSlip
from guandan.tournament.web import create_router

KEY = "prg-secret-key"
URL = "/t/1/table/1/1"


def _event(desk: Desk, per_deal: bool = True) -> int:
    tid = desk.create(EventConfig(name="PRG Cup", rounds=3, per_deal=per_deal), secret=KEY)
    for name in ("东风队", "西湖队", "Green", "Gold"):
        desk.register(tid, name, [f"{name} a", f"{name} b"])
    desk.pair_next(tid)
    return tid


def _client(desk: Desk, lang: str = "zh") -> TestClient:
    app = FastAPI()
    app.include_router(create_router(desk))
    return TestClient(app, cookies={"lang": lang}, follow_redirects=False)


def _form(page: str, testid: str) -> dict[str, str]:
    """The hidden fields of a form on the page, as the browser would send them."""
    body = page.split(f'data-testid="{testid}"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', body))


def _error(page: str) -> str:
    m = re.search(r'data-testid="error">(.*?)</p>', page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1))) if m else ""


def _override_form(page: str, table: int) -> dict[str, str]:
    row = page.split(f'<a href="/t/1/table/1/{table}">', 1)[1].split("</tr>", 1)[0]
    body = row.split('action="/t/1/arbiter/override?lang=', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', body))


def test_setting_deals_redirects_back_and_the_same_form_twice_is_applied_once(desk: Desk) -> None:
    _event(desk)
    arbiter = _client(desk)
    page = arbiter.get(f"/t/1/arbiter?key={KEY}").text
    form = _form(page, "set-deals-1") | {"deals": "北 南 东; 东 西 北", "reason": "记分单补录"}
    assert form["seen"].isdigit()
    res = arbiter.post("/t/1/arbiter/deals", data=form)
    assert res.status_code == 303
    where = urlsplit(res.headers["location"])
    assert where.path == "/t/1/arbiter"
    assert parse_qs(where.query) == {"key": [KEY], "lang": ["zh"], "done": ["deals"], "round": ["1"], "table": ["1"]}
    shown = arbiter.get(res.headers["location"]).text
    assert '<p class="ok">第1轮第1桌：各副已设定。</p>' in shown
    assert 'class="ok"' not in arbiter.get(f"/t/1/arbiter?key={KEY}").text  # the plain address says nothing
    log = len(desk.events(1))
    deals = [d.source() for d in desk.state(1).table(1, 1).deals]
    again = arbiter.post("/t/1/arbiter/deals", data=form)  # the back button, and the form sent again
    assert again.status_code == 400
    said = _error(again.text)
    assert "第1轮第1桌在本页显示之后已有变化" in said and "本次未作任何更改" in said and said.count("第1桌") == 1, said
    assert len(desk.events(1)) == log and [d.source() for d in desk.state(1).table(1, 1).deals] == deals
    typed = again.text.split('data-testid="set-deals-1"', 1)[1].split("</form>", 1)[0]
    assert 'value="北 南 东; 东 西 北"' in typed and 'value="记分单补录"' in typed  # what was typed is kept
    # the page it shows carries the table as it is now: sent from there, the form applies
    assert arbiter.post("/t/1/arbiter/deals", data={**form, "seen": _form(again.text, "set-deals-1")["seen"],
                                                    "deals": "北 南 东"}).status_code == 303
    assert len(desk.events(1)) == log + 1 and len(desk.state(1).table(1, 1).deals) == 1


def test_a_deal_a_team_reported_meanwhile_is_not_erased_by_the_arbiters_older_page(desk: Desk) -> None:
    _event(desk)
    arbiter = _client(desk, "en")
    page = arbiter.get(f"/t/1/arbiter?key={KEY}").text
    form = _form(page, "set-deals-1") | {"deals": "N S E", "reason": "slip"}
    tb = desk.state(1).table(1, 1).table
    desk.report_deal(1, 1, 1, 1, "E W N", by=tb.away)  # West's phone, after the arbiter's page was shown
    res = arbiter.post("/t/1/arbiter/deals", data=form)
    assert res.status_code == 400 and "has changed since this page was shown" in _error(res.text)
    ts = desk.state(1).table(1, 1)
    assert ts.pending_deal is not None and ts.pending_deal.source() == {"finish": ["E", "W", "N", "S"]}  # North to confirm


def test_an_override_sent_twice_is_logged_once_and_its_warning_survives_the_redirect(desk: Desk) -> None:
    _event(desk, per_deal=False)
    arbiter = _client(desk, "en")
    page = arbiter.get(f"/t/1/arbiter?key={KEY}").text
    form = _override_form(page, 1) | {"levels": "K:2", "deals": "2", "passed_a": "none", "reason": "penalty"}
    res = arbiter.post("/t/1/arbiter/override", data=form)
    assert res.status_code == 303 and "done=override" in res.headers["location"]
    shown = arbiter.get(res.headers["location"]).text
    assert "Round 1 table 1: result set. warning: " in shown and "at least 4 deals" in shown
    log = len(desk.events(1))
    again = arbiter.post("/t/1/arbiter/override", data=form)
    assert again.status_code == 400 and "Round 1 table 1 has changed since" in _error(again.text)
    assert len(desk.events(1)) == log
    assert 'value="K:2"' in again.text and 'value="penalty"' in again.text


def test_a_repair_sent_twice_repairs_once(desk: Desk) -> None:
    _event(desk)
    arbiter = _client(desk)
    page = arbiter.get(f"/t/1/arbiter?key={KEY}").text
    body = page.split('action="/t/1/arbiter/repair?lang=', 1)[1].split("</form>", 1)[0]
    form = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', body)) | {"reason": "换桌"}
    res = arbiter.post("/t/1/arbiter/repair", data=form)
    assert res.status_code == 303 and "done=repaired" in res.headers["location"] and "n=1" in res.headers["location"]
    assert "第1轮已重新编排。" in arbiter.get(res.headers["location"]).text
    log, tables = len(desk.events(1)), desk.state(1).rounds[1].tables
    again = arbiter.post("/t/1/arbiter/repair", data=form)
    assert again.status_code == 400 and "第1轮在本页显示之后已有变化" in _error(again.text)
    assert len(desk.events(1)) == log and desk.state(1).rounds[1].tables == tables


def test_pair_and_start_sent_twice_are_refused_by_the_state_itself(desk: Desk) -> None:
    _event(desk, per_deal=False)
    arbiter = _client(desk, "en")
    start = arbiter.post("/t/1/arbiter/start", data={"key": KEY})
    assert start.status_code == 303 and "done=started" in start.headers["location"]
    assert "Round 1: the clock is running." in arbiter.get(start.headers["location"]).text
    log = len(desk.events(1))
    assert arbiter.post("/t/1/arbiter/start", data={"key": KEY}).status_code == 400
    for n in (1, 2):
        desk.override(1, 1, n, ResultSlip.parse("A:9", None, 8), "slip")
    log = len(desk.events(1))
    pair = arbiter.post("/t/1/arbiter/pair", data={"key": KEY})
    assert pair.status_code == 303 and "done=paired" in pair.headers["location"]
    assert "Round 2 paired." in arbiter.get(pair.headers["location"]).text
    assert arbiter.post("/t/1/arbiter/pair", data={"key": KEY}).status_code == 400
    assert len(desk.events(1)) == log + 1 and desk.state(1).current_round == 2


def test_the_redirect_keeps_the_pages_language_in_the_address(desk: Desk) -> None:
    """An arbiter reading the page in English (?lang=en in the address) is sent back to it in English, the language
    still in the address (a bookmark, a reload, the address copied to another computer); each form posts in the
    language of the page it is on, whatever the cookie says meanwhile."""
    _event(desk, per_deal=False)
    arbiter = _client(desk, "zh")
    page = arbiter.get(f"/t/1/arbiter?key={KEY}&lang=en").text
    assert 'action="/t/1/arbiter/start?lang=en"' in page
    arbiter.cookies.set("lang", "zh")  # another tab of the desk in Chinese
    start = arbiter.post("/t/1/arbiter/start?lang=en", data={"key": KEY})
    where = urlsplit(start.headers["location"])
    assert start.status_code == 303 and parse_qs(where.query)["lang"] == ["en"]
    assert "Round 1: the clock is running." in arbiter.get(start.headers["location"]).text
    # an override refused (no reason) stays on the page, in its language; one accepted comes back in it
    form = _override_form(arbiter.get(f"/t/1/arbiter?key={KEY}&lang=en").text, 1) | {"levels": "A:9", "deals": "8"}
    refused = arbiter.post("/t/1/arbiter/override?lang=en", data=form | {"reason": ""})
    assert refused.status_code == 400 and 'action="/t/1/arbiter/override?lang=en"' in refused.text
    done = arbiter.post("/t/1/arbiter/override?lang=en", data=form | {"reason": "slip"})
    assert parse_qs(urlsplit(done.headers["location"]).query)["lang"] == ["en"]
    assert "Round 1 table 1: result set." in arbiter.get(done.headers["location"]).text
    # a Chinese page's forms send the arbiter back to Chinese
    desk.lock_table(1, 1, 2, "too many wrong codes")
    zh = arbiter.post("/t/1/arbiter/unlock?lang=zh", data={"key": KEY, "round": "1", "table": "2"})
    assert parse_qs(urlsplit(zh.headers["location"]).query)["lang"] == ["zh"]


def test_the_outcome_in_the_address_is_read_as_numbers_only(desk: Desk) -> None:
    _event(desk)
    arbiter = _client(desk, "en")
    for query in ("done=deals&round=1&table=x", "done=nonsense&round=1&table=1", "done=deals&round=1",
                  "done=deals&round=1&table=<b>1</b>"):
        page = arbiter.get(f"/t/1/arbiter?key={KEY}&{query}")
        assert page.status_code == 200 and 'class="ok"' not in page.text, query
    assert arbiter.get("/t/1/arbiter?key=wrong&done=deals&round=1&table=1").status_code == 403
    bad = arbiter.post("/t/1/arbiter/deals", data={"key": KEY, "round": "1", "table": "1", "deals": "N S E",
                                                   "reason": "x", "seen": "yesterday"})
    assert bad.status_code == 400 and "page's version" in _error(bad.text) and not desk.state(1).table(1, 1).deals


def test_the_arbiters_page_names_the_team_codes_as_the_slips_and_phones_do(desk: Desk) -> None:
    _event(desk)
    page = _client(desk).get(f"/t/1/arbiter?key={KEY}").text
    assert "<th>队伍代码</th>" in page and "验证码" not in page


def test_a_pending_deal_is_said_from_the_readers_side(desk: Desk) -> None:
    """West (西湖队) reports; on North's phone (东风队) it is their own confirmation that is awaited, on West's the
    other team's; a phone not signed in names the team."""
    _event(desk)
    app = _client(desk).app
    phones = {}
    for side in (0, 1):
        phone = TestClient(app, cookies={"lang": "zh"})
        assert phone.post(f"{URL}/code", data={"code": desk.state(1).team_code(1, 1, side)}).status_code == 200
        phones[side] = phone
    tb = desk.state(1).table(1, 1).table
    home, away = (desk.state(1).teams[t].name for t in tb.teams())
    desk.report_deal(1, 1, 1, 1, "N S E", by=tb.away)

    def head(client: TestClient, lang: str = "zh") -> str:
        page = client.get(f"{URL}?lang={lang}").text
        m = re.search(r'data-testid="pending-deal-head">(.*?)</h2>', page, re.S)
        assert m is not None
        return m.group(1).strip()

    assert head(phones[0]) == "第1副：等待本队确认"
    assert head(phones[1]) == f"第1副：等待对方（{home}）确认"
    assert head(TestClient(app)) == f"第1副：等待{home}确认"
    assert head(phones[0], "en") == "Deal 1: waiting for your team to confirm"
    assert head(phones[1], "en") == f"Deal 1: waiting for the other team ({home}) to confirm"
    assert away not in head(phones[1])


def test_a_pending_result_is_said_from_the_readers_side(desk: Desk) -> None:
    _event(desk, per_deal=False)
    app = _client(desk).app
    phones = {}
    for side in (0, 1):
        phone = TestClient(app, cookies={"lang": "en"})
        phone.post(f"{URL}/code", data={"code": desk.state(1).team_code(1, 1, side)})
        phones[side] = phone
    tb = desk.state(1).table(1, 1).table
    away = desk.state(1).teams[tb.away].name
    desk.enter_result(1, 1, 1, ResultSlip.parse("A:9", None, 8), by=tb.home)  # North enters this time

    def head(client: TestClient) -> str:
        m = re.search(r'data-testid="pending-result-head">(.*?)</h2>', client.get(URL).text, re.S)
        assert m is not None
        return m.group(1).strip()

    assert head(phones[1]) == "Result entered: waiting for your team to confirm"
    assert head(phones[0]) == f"Result entered: waiting for the other team ({away}) to confirm"
    phones[1].cookies.delete("lang")  # the English the sign-in's redirect address set too: the reader turns to Chinese
    phones[1].cookies.set("lang", "zh")
    assert head(phones[1]) == "已提交结果：等待本队确认"
