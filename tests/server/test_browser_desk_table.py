"""A round reported deal by deal from two phones at a venue: West's team reports, North's team confirms.

Each phone opens the table's page from its team's QR code (the code rides in the address's fragment), a
wrong code is refused with the tries left, the other phone's page updates by itself, and the round is
final by itself when its deal limit is reached."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.tournament.desk import Desk
from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.rounds import ResultSlip

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(180)
SHOTS = Path(tempfile.gettempdir()) / "guandan-desk-table"


@pytest.fixture(scope="module")
def venue() -> Iterator[tuple[LiveServer, Desk]]:
    with tempfile.TemporaryDirectory(prefix="guandan-desk-") as d:
        url = f"sqlite:///{d}/web.sqlite3"
        with LiveServer(url) as live:
            desk = Desk.open(url)
            deal_by_deal(desk, "春季联赛", "venue-test-secret", {"红队": ["张三", "李四"], "蓝队": ["王五", "赵六"]})
            yield live, desk


def deal_by_deal(desk: Desk, name: str, secret: str, teams: dict[str, list[str]]) -> int:
    """A one-round event reported deal by deal, three deals at the most, of ``teams`` (name -> players), paired
    and its round started: its number."""
    tid = desk.create(EventConfig(name=name, rounds=1, per_deal=True, limits=RoundLimits(max_deals=3)), secret=secret)
    for team, players in teams.items():
        desk.register(tid, team, players)
    desk.pair_next(tid)
    desk.start_round(tid)
    return tid


def phone(browser: Browser, size: tuple[int, int]) -> Page:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True, bypass_csp=True)
    return ctx.new_page()


def away_phone(browser: Browser, live: LiveServer, tid: int, code: str, english: bool = False) -> Page:
    """West's phone, held upright, signing in with the away team's ``code`` at table 1 of round 1 of event
    ``tid``: the page in English (``lang=en`` in its address) where ``english``, else in Chinese."""
    page = phone(browser, (390, 844))
    page.goto(f"{live.url}/t/{tid}/table/1/1?side=away{'&lang=en' if english else ''}#code={code}")
    page.get_by_role("button", name="Sign in" if english else "登录").tap()
    return page


def test_a_round_deal_by_deal_from_two_phones(browser: Browser, venue: tuple[LiveServer, Desk]) -> None:
    live, desk = venue
    state = desk.state(1)
    tb = state.table(1, 1).table
    url = f"{live.url}/t/1/table/1/1"
    west, north = phone(browser, (390, 844)), phone(browser, (844, 390))
    SHOTS.mkdir(exist_ok=True)

    # West's team scans its QR code: the code is filled in from the fragment and leaves the address bar
    west.goto(f"{url}?side=away#code={state.team_code(1, 1, 1)}")
    expect(west.get_by_test_id("code")).to_have_value(state.team_code(1, 1, 1))
    assert "#code" not in west.url
    west.get_by_role("button", name="登录").tap()
    expect(west.get_by_test_id("signed-in")).to_contain_text(state.teams[tb.away].name)

    # North types a wrong code first: refused, with the tries left; then its own
    north.goto(f"{url}?side=home")
    north.get_by_test_id("code").fill("000000" if state.side_of_code(1, 1, "000000") is None else "999999")
    north.get_by_role("button", name="登录").click()
    expect(north.get_by_test_id("error")).to_contain_text("代码错误")
    expect(north.get_by_test_id("error")).to_contain_text("再错4次")
    north.get_by_test_id("code").fill(state.team_code(1, 1, 0))
    north.get_by_role("button", name="登录").click()
    expect(north.get_by_test_id("signed-in")).to_be_visible()

    orders = [("N", "S", "E"), ("E", "N", "W"), ("N", "E", "S")]
    levels = [("5", "2"), ("5", "4"), ("7", "4")]
    for n, (order, (home_lv, away_lv)) in enumerate(zip(orders, levels, strict=True), 1):
        expect(west.get_by_test_id("report")).to_contain_text(f"报第{n}副")
        for place, seat in zip(("first", "second", "third"), order, strict=True):
            west.get_by_test_id(f"{place}-{seat}").dispatch_event("click")
        # a seat taken in one place cannot be chosen in another
        assert west.get_by_test_id(f"second-{order[0]}").is_disabled()
        if n == 1:
            west.screenshot(path=str(SHOTS / "west-report-390x844.png"), full_page=True)
        west.get_by_test_id("send-deal").tap()
        expect(west.get_by_test_id("pending-deal")).to_be_visible()
        expect(west.get_by_test_id("confirm")).to_have_count(0)  # the reporting team cannot confirm
        # North's page notices by itself (it polls the table) and offers to confirm
        expect(north.get_by_test_id("confirm")).to_be_visible(timeout=15_000)
        if n == 1:
            north.screenshot(path=str(SHOTS / "north-confirm-844x390.png"), full_page=True)
        north.get_by_test_id("confirm").click()
        if n < len(orders):
            expect(north.get_by_test_id("level-home")).to_have_text(home_lv)
            expect(north.get_by_test_id("level-away")).to_have_text(away_lv)
    # the deal limit ends the round: both phones show the final result, nothing more to enter
    expect(north.get_by_test_id("final")).to_contain_text("7 : 4")
    expect(west.get_by_test_id("final")).to_be_visible(timeout=15_000)
    expect(west.get_by_test_id("report")).to_have_count(0)
    west.screenshot(path=str(SHOTS / "west-final-390x844.png"), full_page=True)
    ts = desk.state(1).table(1, 1)
    assert ts.status == "final" and ts.ended_by == "deals" and len(ts.deals) == 3
    assert ts.result is not None and ts.result.levels == (7, 4) and ts.result.winner == 0


def test_a_reload_does_not_repeat_what_the_phone_did_last(browser: Browser, venue: tuple[LiveServer, Desk]) -> None:
    """West reports a deal and North sends it back: West's player pulls the page to refresh it, and it must not
    say "deal reported" again in green above North's note that the deal came back."""
    live, desk = venue
    tid = deal_by_deal(desk, "秋季联赛", "reload-test-secret", {"黄队": ["钱一", "孙二"], "绿队": ["周三", "吴四"]})
    state = desk.state(tid)
    tb = state.table(1, 1).table
    west = away_phone(browser, live, tid, state.team_code(1, 1, 1))
    expect(west.get_by_test_id("signed-in")).to_be_visible()
    for place, seat in zip(("first", "second", "third"), ("E", "W", "N"), strict=True):
        west.get_by_test_id(f"{place}-{seat}").dispatch_event("click")
    west.get_by_test_id("send-deal").tap()
    expect(west.get_by_test_id("message")).to_have_text("已报这一副。请对方在手机上确认。")
    assert "done=" not in west.url  # the answer leaves the address once it is shown

    desk.reject_deal(tid, 1, 1, 1, tb.home, "头游是北家")
    west.reload()
    expect(west.get_by_test_id("sent-back")).to_contain_text("头游是北家")
    expect(west.get_by_test_id("message")).to_have_count(0)


def test_the_page_reloading_itself_stays_in_its_language(browser: Browser, venue: tuple[LiveServer, Desk]) -> None:
    """A player reads the table's page in English on a phone whose cookie turns to Chinese meanwhile (another page
    of the desk read in Chinese on it): when the other team's phone changes the table, the page reloads itself in
    English, the language still in its address."""
    live, desk = venue
    tid = deal_by_deal(desk, "Winter Cup", "lang-test-secret", {"Reds": ["A", "B"], "Blues": ["C", "D"]})
    state = desk.state(tid)
    tb = state.table(1, 1).table
    west = away_phone(browser, live, tid, state.team_code(1, 1, 1), english=True)
    expect(west.get_by_test_id("message")).to_have_text("Signed in. This phone now acts for your team at this table.")
    assert "lang=en" in west.url and "done=" not in west.url
    west.context.add_cookies([{"name": "lang", "value": "zh", "url": live.url}])
    desk.report_deal(tid, 1, 1, 1, ["N", "S", "E"], tb.home, actor="test")  # the other team reports a deal
    expect(west.get_by_test_id("pending-deal")).to_be_visible(timeout=15_000)
    expect(west.get_by_test_id("confirm")).to_have_text("Confirm")
    assert "lang=en" in west.url
    west.context.close()


def test_the_big_result_breaks_a_chinese_name_only_round_it(browser: Browser, venue: tuple[LiveServer, Desk]) -> None:
    """The result waiting for the other team, in big type on a phone held upright: a line breaks at the spaces
    round a Chinese name, never between two of its characters."""
    live, desk = venue
    tid = desk.create(EventConfig(name="按轮记分赛", rounds=1, per_deal=False), secret="big-result-secret")
    desk.register(tid, "Westwind", ["C", "D"])
    desk.register(tid, "东方红", ["甲", "乙"])
    desk.pair_next(tid)
    state = desk.state(tid)
    tb = state.table(1, 1).table
    desk.enter_result(tid, 1, 1, ResultSlip.parse("A:6", "home", 7), tb.away)
    page = phone(browser, (390, 844))
    page.goto(f"{live.url}/t/{tid}/table/1/1?side=home#code={state.team_code(1, 1, 0)}")
    page.get_by_role("button", name="登录").click()
    expect(page.locator(".big-result")).to_be_visible()
    lines = page.evaluate("""(names) => {
      const box = document.querySelector('.big-result'), text = box.firstChild;
      return names.map((name) => {
        const at = text.textContent.indexOf(name), range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + name.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
    }""", [state.teams[tb.home].name, state.teams[tb.away].name])
    assert lines == [1, 1]
    page.screenshot(path=str(SHOTS / "big-result-390x844.png"))
    page.context.close()
