"""A table's page: each team signs in with its own code; one reports, the other confirms; wrong codes lock."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from guandan.tournament.desk import Desk
from guandan.tournament.model import EventConfig
from guandan.tournament.state import CODE_LIMIT, DISPUTED, FINAL
from guandan.tournament.web import create_router
from guandan.tournament.web_table import create_table_router

URL = "/t/1/table/1/1"


def _event(desk: Desk, per_deal: bool = True) -> int:
    tid = desk.create(EventConfig(name="Table Cup", rounds=2, per_deal=per_deal), secret="table-secret")
    for name in ("红队", "Blue", "Green", "Gold"):
        desk.register(tid, name, [f"{name} a", f"{name} b"])
    desk.pair_next(tid)
    return tid


def _app(desk: Desk) -> FastAPI:
    app = FastAPI()
    app.include_router(create_table_router(lambda: desk))
    app.include_router(create_router(desk))
    return app


def _phone(desk: Desk, side: int | None = None) -> TestClient:
    client = TestClient(_app(desk))
    if side is not None:
        code = desk.state(1).team_code(1, 1, side)
        res = client.post(f"{URL}/code", data={"code": code}, follow_redirects=False)
        assert res.status_code == 303 and res.headers["location"] == f"{URL}?lang=zh&done=signed_in"
        cookie = res.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and f"Path={URL}" in cookie
    return client


def _error(html: str) -> str:
    m = re.search(r'data-testid="error">(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", m.group(1)) if m else ""


def test_report_and_confirm_deals(desk: Desk) -> None:
    _event(desk)
    west, north = _phone(desk, 1), _phone(desk, 0)
    page = west.get(URL).text
    assert 'data-testid="report"' in page and 'data-testid="signed-in"' in page
    res = west.post(f"{URL}/deal", data={"deal": "1", "first": "N", "second": "S", "third": "E"})
    assert res.status_code == 200 and 'data-testid="pending-deal"' in res.text
    assert 'data-testid="confirm"' not in res.text  # the reporting team gets no confirm button…
    res = west.post(f"{URL}/answer", data={"deal": "1", "action": "confirm"})
    assert res.status_code == 400 and "须由对方确认" in _error(res.text)  # …nor can it confirm by posting
    page = north.get(URL).text
    assert 'data-testid="confirm"' in page
    assert north.post(f"{URL}/answer", data={"deal": "1", "action": "confirm"}).status_code == 200
    assert desk.state(1).table(1, 1).levels_now == (5, 2)
    for first, second, third in (("N", "S", "E"), ("S", "E", "N")):  # 5 → 8 (双上), 8 → 10 (1-3)
        west.post(f"{URL}/deal", data={"deal": str(len(desk.state(1).table(1, 1).deals) + 1),
                                       "first": first, "second": second, "third": third})
        north.post(f"{URL}/answer", data={"deal": str(len(desk.state(1).table(1, 1).deals) + 1), "action": "confirm"})
    page = north.get(URL).text
    assert re.search(r'data-testid="level-home">10<', page) and ">T<" not in page
    assert "已打3副，共8副" in page
    data = north.get(f"/api{URL}").json()
    assert data["levels"] == ["10", "2"] and len(data["deals"]) == 3 and data["deals"][2]["finish"] == ["S", "E", "N", "W"]
    assert "code" not in str(data).lower().replace("gd_code", "")  # no team code in what anyone can read


def test_send_back_and_dispute(desk: Desk) -> None:
    _event(desk)
    west, north = _phone(desk, 1), _phone(desk, 0)
    west.post(f"{URL}/deal", data={"deal": "1", "first": "E", "second": "W", "third": "N"})
    assert "已退回" in north.post(f"{URL}/answer", data={"deal": "1", "action": "reject", "reason": "typo"}).text
    note = re.search(r'data-testid="sent-back">(.*?)</p>', west.get(URL).text, re.S)
    assert note is not None and note.group(1).endswith("。理由：typo"), note  # no space in Chinese
    note = re.search(r'data-testid="sent-back">(.*?)</p>', west.get(f"{URL}?lang=en").text, re.S)
    assert note is not None and note.group(1).endswith("again. Reason: typo"), note
    west.get(f"{URL}?lang=zh")
    assert desk.state(1).table(1, 1).pending_deal is None
    west.post(f"{URL}/deal", data={"deal": "1", "first": "N", "second": "E", "third": "S"})
    north.post(f"{URL}/answer", data={"deal": "1", "action": "dispute", "reason": "revoke"})
    ts = desk.state(1).table(1, 1)
    assert ts.status == DISPUTED
    for phone in (west, north):
        page = phone.get(URL).text
        assert 'data-testid="disputed"' in page and 'data-testid="report"' not in page
        assert 'data-testid="confirm"' not in page
    res = west.post(f"{URL}/deal", data={"deal": "1", "first": "N", "second": "S", "third": "E"})
    assert res.status_code == 400 and "只有裁判" in _error(res.text)


def test_wrong_codes_lock_the_table(desk: Desk) -> None:
    _event(desk)
    phone = _phone(desk)
    state = desk.state(1)
    wrong = next(c for c in ("000000", "999999", "123456") if state.side_of_code(1, 1, c) is None)
    for left in range(CODE_LIMIT - 1, 0, -1):
        res = phone.post(f"{URL}/code", data={"code": wrong})
        assert res.status_code == 400 and f"再错{left}次" in _error(res.text)
        assert "set-cookie" not in res.headers
    res = phone.post(f"{URL}/code", data={"code": wrong})
    assert "输错代码锁定" in _error(res.text)
    assert 'data-testid="locked"' in phone.get(URL).text
    res = phone.post(f"{URL}/code", data={"code": state.team_code(1, 1, 1)})  # even the right code now
    assert res.status_code == 400 and "需裁判解锁" in _error(res.text)
    assert desk.events(1)[-1].type == "table_locked"
    desk.unlock_table(1, 1, 1, "checked")
    _phone(desk, 1)


def test_a_code_of_the_wrong_length_is_refused_in_words_and_not_counted(desk: Desk) -> None:
    """Three digits for a six-digit code cannot be a guess: it is refused, and the five tries stay five."""
    _event(desk)
    phone = _phone(desk)
    before = len(desk.events(1))
    for typed in ("123", "1234567", "12 34", "12345a"):
        res = phone.post(f"{URL}/code", data={"code": typed})
        said = _error(res.text)
        assert res.status_code == 400 and "6位数字" in said and "不计入" in said, said
        assert "再错" not in said and "set-cookie" not in res.headers
    assert desk.state(1).table(1, 1).wrong_codes == 0 and len(desk.events(1)) == before
    res = phone.post(f"{URL}/code", data={"code": "12 34 56" if desk.state(1).side_of_code(1, 1, "123456") is None
                                              else "000000"})
    assert "再错4次" in _error(res.text)  # a real six-digit guess still counts
    en = phone.post(f"{URL}/code?lang=en", data={"code": "123"})
    assert "is 6 digits" in _error(en.text) and "not counted" in _error(en.text)
    assert desk.state(1).table(1, 1).wrong_codes == 1


def test_a_refused_sign_in_keeps_the_line_naming_the_code_cards_team(desk: Desk) -> None:
    _event(desk)
    phone = _phone(desk)
    page = phone.get(f"{URL}?side=away").text
    away = desk.state(1).teams[desk.state(1).table(1, 1).table.away].name
    line = f"这张代码卡属于{away}"
    assert line in page and f'action="{URL}/code?side=away&amp;lang=zh"' in page
    res = phone.post(f"{URL}/code?side=away", data={"code": "000000" if desk.state(1).side_of_code(1, 1, "000000")
                                                                   is None else "999999"})
    assert res.status_code == 400 and "代码错误" in _error(res.text)
    assert line in res.text and f'action="{URL}/code?side=away&amp;lang=zh"' in res.text
    home = phone.get(URL).text  # no side asked, no line and a plain form
    assert "这张代码卡属于" not in home and f'action="{URL}/code?lang=zh"' in home


def test_a_forged_cookie_is_a_wrong_code(desk: Desk) -> None:
    _event(desk)
    phone = _phone(desk)
    phone.cookies.set("gd_code_1_1_1", "111111", path=URL)
    page = phone.get(URL).text
    assert 'data-testid="sign-in"' in page and "代码错误" in _error(page)
    assert desk.state(1).table(1, 1).wrong_codes == 1


def test_round_result_entry(desk: Desk) -> None:
    _event(desk, per_deal=False)
    west, north = _phone(desk, 1), _phone(desk, 0)
    res = west.post(f"{URL}/result", data={"home_level": "T", "away_level": "6", "passed_a": "none", "deals": "8"})
    assert 'data-testid="pending-result"' in res.text and "10 : 6" in res.text
    res = west.post(f"{URL}/result", data={"home_level": "K", "away_level": "6"})
    assert res.status_code == 400 and "退回后才能重新提交" in _error(res.text)
    assert west.post(f"{URL}/result/answer", data={"action": "confirm"}).status_code == 400
    north.post(f"{URL}/result/answer", data={"action": "reject", "reason": "K:6"})
    west.post(f"{URL}/result", data={"home_level": "K", "away_level": "6", "deals": "8"})
    north.post(f"{URL}/result/answer", data={"action": "confirm"})
    ts = desk.state(1).table(1, 1)
    assert ts.status == FINAL and ts.result is not None and ts.result.levels == (13, 6)
    assert 'data-testid="final"' in north.get(URL).text


def _actions(page: str) -> list[str]:
    return re.findall(r'<form method="post" action="([^"]*)"', page)


def test_a_phone_reading_english_is_sent_back_to_english(desk: Desk) -> None:
    """A player reads the table's page in English (?lang=en in the address) on a phone whose cookie says Chinese
    (another page of the desk read in Chinese on it): each form posts in the page's language and the page after
    every action (signed in, deal reported, confirmed, signed out) is in English, the language still in its
    address, so that the phone's reload reads it in English too."""
    _event(desk)
    state = desk.state(1)
    west = TestClient(_app(desk))
    west.cookies.set("lang", "zh")
    page = west.get(f"{URL}?side=away&lang=en").text
    assert _actions(page) == [f"{URL}/code?side=away&amp;lang=en"]

    def back_in_english(path: str, data: dict[str, str], done: str) -> str:
        res = west.post(path, data=data, follow_redirects=False)
        where = urlsplit(res.headers["location"])
        assert res.status_code == 303 and where.path == URL, (res.status_code, res.text[:200])
        assert parse_qs(where.query) == {"lang": ["en"], "done": [done]}
        west.cookies.set("lang", "zh")  # the Chinese page again in another tab, meanwhile
        shown = west.get(res.headers["location"]).text
        assert '<html lang="en">' in shown and 'data-testid="message"' in shown
        return shown

    page = back_in_english(f"{URL}/code?side=away&lang=en", {"code": state.team_code(1, 1, 1)}, "signed_in")
    assert "Signed in. This phone now acts for your team" in page
    assert f"{URL}/deal?lang=en" in _actions(page) and f"{URL}/leave?lang=en" in _actions(page)
    page = back_in_english(f"{URL}/deal?lang=en", {"deal": "1", "first": "N", "second": "S", "third": "E"},
                           "reported")
    assert "Deal reported." in page
    page = back_in_english(f"{URL}/leave?lang=en", {}, "signed_out")
    assert "Signed out." in page
    # North's phone, its page in English too, answers the deal
    west.cookies.clear()
    west.post(f"{URL}/code?lang=en", data={"code": state.team_code(1, 1, 0)})
    assert f"{URL}/answer?lang=en" in _actions(west.get(f"{URL}?lang=en").text)
    page = back_in_english(f"{URL}/answer?lang=en", {"deal": "1", "action": "confirm"}, "confirmed")
    assert "Confirmed." in page
    # a page in Chinese sends its phone back to Chinese, whatever the cookie says
    west.cookies.set("lang", "en")
    res = west.post(f"{URL}/leave?lang=zh", follow_redirects=False)
    assert parse_qs(urlsplit(res.headers["location"]).query) == {"lang": ["zh"], "done": ["signed_out"]}
    assert "已退出。" in west.get(res.headers["location"]).text


def test_the_round_result_forms_keep_the_pages_language(desk: Desk) -> None:
    _event(desk, per_deal=False)
    state = desk.state(1)
    phones = [TestClient(_app(desk)) for _side in (0, 1)]
    for side, phone in enumerate(phones):
        phone.cookies.set("lang", "zh")
        phone.post(f"{URL}/code?lang=en", data={"code": state.team_code(1, 1, side)})
    assert f"{URL}/result?lang=en" in _actions(phones[1].get(f"{URL}?lang=en").text)
    res = phones[1].post(f"{URL}/result?lang=en", data={"home_level": "T", "away_level": "6", "deals": "8"},
                         follow_redirects=False)
    assert parse_qs(urlsplit(res.headers["location"]).query) == {"lang": ["en"], "done": ["entered"]}
    assert f"{URL}/result/answer?lang=en" in _actions(phones[0].get(f"{URL}?lang=en").text)
    res = phones[0].post(f"{URL}/result/answer?lang=en", data={"action": "confirm"}, follow_redirects=False)
    assert parse_qs(urlsplit(res.headers["location"]).query) == {"lang": ["en"], "done": ["confirmed"]}
    assert "Final result" in phones[0].get(res.headers["location"]).text


def test_english_and_the_json_api(desk: Desk) -> None:
    _event(desk)
    client = _phone(desk)
    page = client.get(f"{URL}?lang=en&side=away").text
    assert "Your team&#39;s code" in page and "This code card is for" in page
    state = desk.state(1)
    home, away = state.team_code(1, 1, 0), state.team_code(1, 1, 1)
    api = f"/api{URL}"
    assert client.post(f"{api}/deal", json={"code": away, "finish": "NSE"}).json()["pending_deal"]["deal"] == 1
    res = client.post(f"{api}/answer", json={"code": away, "deal": 1, "action": "confirm"})
    assert res.status_code == 400 and res.json()["msgid"]
    for bad in ([1, 2], {"finish": "NSE"}, {"code": 123456, "finish": "NSE"}, {"code": home, "deal": "one", "action": "confirm"},
                {"code": home, "deal": 1, "action": "maybe"}):
        before = len(desk.events(1))
        res = client.post(f"{api}/answer", json=bad)
        assert res.status_code == 400 and res.json()["error"]
        assert len(desk.events(1)) == before
    assert client.post(f"{api}/answer", json={"code": home, "deal": 1, "action": "confirm"}).json()["levels"] == ["5", "2"]
    assert client.get("/api/t/1/table/9/9").status_code == 404


def test_the_arbiter_settles_a_dispute_on_the_web(desk: Desk) -> None:
    _event(desk)
    west, north, arbiter = _phone(desk, 1), _phone(desk, 0), _phone(desk)
    west.post(f"{URL}/deal", data={"deal": "1", "first": "N", "second": "S", "third": "E"})
    north.post(f"{URL}/answer", data={"deal": "1", "action": "dispute", "reason": "E went out first"})
    page = arbiter.get("/t/1/arbiter?key=table-secret").text
    assert 'value="北 南 东 西"' in page and "有争议：第1副" in page  # the disputed order, in the page's seat names
    form = {"key": "table-secret", "round": "1", "table": "1", "deals": "E W N", "reason": ""}
    before = len(desk.events(1))
    assert arbiter.post("/t/1/arbiter/deals", data=form).status_code == 400  # a reason is needed
    assert len(desk.events(1)) == before
    res = arbiter.post("/t/1/arbiter/deals", data={**form, "reason": "witness"})
    assert res.status_code == 200 and "各副已设定" in res.text
    ts = desk.state(1).table(1, 1)
    assert ts.levels_now == (2, 5) and ts.status == "in_play" and ts.pending_deal is None
    assert 'data-testid="report"' in west.get(URL).text  # the table goes on with deal 2
    res = arbiter.post("/t/1/arbiter/deals", data={**form, "deals": "E W N; award:home", "reason": "x"})
    assert res.status_code == 400 and "迟到规则只判给第一副" in res.text  # the lateness rule credits deal 1
    assert desk.state(1).table(1, 1).levels_now == (2, 5)


def test_the_arbiters_list_of_deals_is_in_the_pages_language_and_reads_back(desk: Desk) -> None:
    """The form a Chinese arbiter corrects shows 北 东 南 西 and 判给主队, not letters and award:home, and
    posting it back as it stands sets the same deals; in English it stays N S E W and award:home."""
    _event(desk)
    desk.set_deals(1, 1, 1, [{"award": "away"}, {"finish": "N S E"}, {"finish": "E W N"}], "late")
    arbiter = _phone(desk)

    def form(lang: str) -> tuple[str, str, str]:
        page = arbiter.get(f"/t/1/arbiter?key=table-secret&lang={lang}").text
        shown = page.split('data-testid="set-deals-1"', 1)[1].split("</form>", 1)[0]
        other = page.split('data-testid="set-deals-2"', 1)[1].split("</form>", 1)[0]
        help_text = re.sub(r"<[^>]+>", "", page.split('data-testid="deals-help">', 1)[1].split("</p>", 1)[0])
        value = re.search(r'name="deals" class="deal-list" value="([^"]*)"', shown)
        placeholder = re.search(r'placeholder="([^"]*)"', other)
        assert value and placeholder
        return value.group(1), placeholder.group(1), help_text

    value, placeholder, help_text = form("zh")
    assert value == "判给客队; 北 南 东 西; 东 西 北 南"
    assert placeholder == "例：判给主队; 北 南 东; 东 西 北"
    assert "例如 北 南 东; 东 西 北" in help_text and "“判给主队”或“判给客队”" in help_text
    assert not re.search(r"\b[NESW]\b|award", value + placeholder)
    before = [d.source() for d in desk.state(1).table(1, 1).deals]
    res = arbiter.post("/t/1/arbiter/deals", data={"key": "table-secret", "round": "1", "table": "1",
                                                   "deals": value, "reason": "as shown"})
    assert res.status_code == 200 and "各副已设定" in res.text
    assert [d.source() for d in desk.state(1).table(1, 1).deals] == before
    value, placeholder, help_text = form("en")
    assert (value, placeholder) == ("award:away; N S E W; E W N S", "e.g. award:home; N S E; E W N")
    assert "e.g. N S E; E W N" in help_text and not re.search(r"[\u4e00-\u9fff]", value + placeholder)


def test_a_refused_arbiter_form_keeps_what_was_typed_and_names_the_table(desk: Desk) -> None:
    _event(desk)
    arbiter = _phone(desk)
    typed = "N S E; award:home; E W N"  # the lateness award is for deal 1 only: refused
    res = arbiter.post("/t/1/arbiter/deals", data={"key": "table-secret", "round": "1", "table": "2",
                                                   "deals": typed, "reason": "slip lost", "end": "1"})
    assert res.status_code == 400
    said = re.sub(r"<[^>]+>", "", re.search(r'data-testid="error">(.*?)</p>', res.text, re.S).group(1))
    # the refusal names its table itself: once, not twice
    assert said.startswith("未被受理：第1轮第2桌：") and "迟到规则" in said and said.count("第2桌") == 1, said
    form = res.text.split('data-testid="set-deals-2"', 1)[1].split("</form>", 1)[0]
    assert f'value="{typed}"' in form and 'value="slip lost"' in form and " checked" in form
    other = res.text.split('data-testid="set-deals-1"', 1)[1].split("</form>", 1)[0]
    assert f'value="{typed}"' not in other and 'value="slip lost"' not in other and " checked" not in other
    res = arbiter.post("/t/1/arbiter/override", data={"key": "table-secret", "round": "1", "table": "1",
                                                      "levels": "Z:6", "forfeit": "", "passed_a": "home",
                                                      "deals": "8", "reason": "agreed"})
    assert res.status_code == 400 and "（第1轮第1桌）" in res.text
    row = res.text.split('data-testid="set-deals-1"', 1)[1].split("</tr>", 1)[0]
    assert 'value="Z:6"' in row and 'value="agreed"' in row and '<option value="home" selected>' in row
    en = arbiter.post("/t/1/arbiter/override?lang=en", data={"key": "table-secret", "round": "1", "table": "1",
                                                             "levels": "Z:6", "reason": "agreed"})
    assert "Not accepted (round 1, table 1):" in en.text
    plain = arbiter.get("/t/1/arbiter?key=table-secret&lang=zh").text
    assert 'data-testid="error"' not in plain and 'value="Z:6"' not in plain


def test_the_deciding_deal_on_the_page(desk: Desk) -> None:
    from guandan.tournament.model import RoundLimits

    cfg = EventConfig(name="KO Cup", format="knockout", per_deal=True, limits=RoundLimits(max_deals=2))
    desk.create(cfg, secret="ko-secret-1")
    desk.register(1, "Red", ["a", "b"])
    desk.register(1, "Blue", ["c", "d"])
    desk.pair_next(1)
    west, north = _phone(desk, 1), _phone(desk, 0)
    for n, (first, second, third) in enumerate((("N", "S", "E"), ("E", "W", "N")), 1):  # 5:2, then 5:5
        west.post(f"{URL}/deal", data={"deal": str(n), "first": first, "second": second, "third": third})
        north.post(f"{URL}/answer", data={"deal": str(n), "action": "confirm"})
    page = west.get(URL).text
    assert 'data-testid="deciding"' in page and "本轮打平：加赛一副" in page
    west.post(f"{URL}/deal", data={"deal": "3", "first": "S", "second": "W", "third": "E"})
    assert "加赛一副：等待" in north.get(URL).text
    north.post(f"{URL}/answer", data={"deal": "3", "action": "confirm"})
    page = north.get(URL).text
    assert 'data-testid="final"' in page and "赢得加赛" in page and "5 : 5" in page
    assert north.get(f"/api{URL}").json()["decider_deal"]["winner"] == "home"


def test_the_pages_phones_poll_never_copy_the_whole_event(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    """A venue's phones poll their table every few seconds: those reads look at the desk's state in place
    (Desk.peek) instead of copying a whole, possibly long, per-deal event each time."""
    _event(desk)
    west = _phone(desk, 1)

    def no_copy(self: Desk, tid: int) -> None:
        raise AssertionError("Desk.state copies the whole event")

    monkeypatch.setattr(Desk, "state", no_copy)
    assert west.get(f"/api{URL}").status_code == 200
    assert 'data-testid="report"' in west.get(URL).text
    res = west.post(f"{URL}/deal", data={"deal": "1", "first": "N", "second": "S", "third": "E"})
    assert res.status_code == 200 and 'data-testid="pending-deal"' in res.text


def test_a_refused_form_keeps_what_the_team_entered(desk: Desk) -> None:
    """A result or a deal the desk refuses comes back with the form as the team filled it in, to correct one
    box, where the page offered 2:2, nobody passing A and no deals again (or no seats chosen)."""
    _event(desk, per_deal=False)
    west = _phone(desk, 1)
    res = west.post(f"{URL}/result", data={"home_level": "A", "away_level": "T", "passed_a": "away", "deals": "3"})
    assert res.status_code == 400 and _error(res.text)
    assert '<select name="home_level">' in res.text
    form = res.text[res.text.index('<select name="home_level">'):]
    assert re.search(r'name="home_level">.*?<option value="A" selected>A</option>', form, re.S)
    assert re.search(r'name="away_level">.*?<option value="T" selected>10</option>', form, re.S)
    assert '<option value="away" selected>' in form and 'value="3"' in form
    assert form.count(" selected") == 3
    fresh = west.get(URL).text  # a page read afresh offers nothing chosen
    assert " selected" not in fresh[fresh.index('<select name="home_level">'):]


def test_a_refused_deal_keeps_the_seats_chosen(desk: Desk) -> None:
    _event(desk)
    west = _phone(desk, 1)
    res = west.post(f"{URL}/deal", data={"deal": "1", "first": "N", "second": "N", "third": "E"})
    assert res.status_code == 400 and _error(res.text)
    checked = re.findall(r'data-testid="(\w+-[NESW])" required checked', res.text)
    assert checked == ["first-N", "second-N", "third-E"]
    assert " checked" not in west.get(URL).text
