"""In Debian's chromium, at 390×844, 844×390 and 1280×800, in both languages: the start page's header links to the
site's list of online events, which lists an event made here (linking to its page); the start page's replays read
as titles — who played whom and how it ended — with the id kept small; and a logged-in player's seat, taken on one
device, is taken back from another device's start page ("Back to the table"), while the first device is told
and watches. Screenshots go to $TMPDIR/guandan-shots."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from guandan.server.events_online import OnlineEvents
from guandan.tournament import online
from guandan.tournament.model import EventConfig
from guandan.tournament.rounds import ResultSlip

from .conftest import LiveServer, sign_up
from .test_browser_accounts import guest_match

pytestmark = pytest.mark.timeout(240)
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"
SIZES: list[ViewportSize] = [{"width": 390, "height": 844}, {"width": 844, "height": 390}, {"width": 1280, "height": 800}]
PASSWORD = "a long enough password"


def _page(browser: Browser, lang: str, size: ViewportSize, problems: list[str]) -> Page:
    ctx = browser.new_context(viewport=size, has_touch=size["width"] < 1000, bypass_csp=True)
    page = ctx.new_page()
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    return page


def _fits(page: Page) -> None:
    """Nothing is wider than the page: no sideways scrolling on a phone."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def _sign_up(page: Page, url: str, username: str) -> None:
    page.goto(f"{url}/account")
    sign_up(page, username, PASSWORD)
    page.wait_for_selector("#member:not(.hidden)")


def _log_in(page: Page, url: str, username: str) -> None:
    page.goto(f"{url}/account")
    page.wait_for_selector("#guest:not(.hidden)")
    page.fill("#login-username", username)
    page.fill("#login-password", PASSWORD)
    page.click("#login-btn")
    page.wait_for_selector("#member:not(.hidden)")


@pytest.mark.parametrize(("lang", "link", "heading", "open_for_entry"), [("zh", "赛事", "线上赛事", "报名中"),
                                                                       ("en", "Events", "Online events", "Open for entry")])
def test_the_start_page_links_to_the_list_of_events_which_lists_an_event_made_here(
        browser: Browser, live_server: LiveServer, lang: str, link: str, heading: str, open_for_entry: str) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    name = f"Lantern Cup ({lang})"
    tid = online.create_online(events.desk, EventConfig(name=name, rounds=3), secret=f"lantern-key-{lang}")
    over = online.create_online(events.desk, EventConfig(name=f"Dragon Boat Cup ({lang})", rounds=1), secret="boat-key")
    events.desk.register(over, "East", ["e1", "e2"])
    events.desk.register(over, "West", ["w1", "w2"])
    online.open_round(events.desk, over)
    events.desk.override(over, 1, 1, ResultSlip.parse("A:9"), "scored by the arbiter")
    problems: list[str] = []
    SHOTS.mkdir(exist_ok=True)
    for size in SIZES:
        page = _page(browser, lang, size, problems)
        try:
            page.goto(f"{live_server.url}/")
            to_list = page.locator("[data-testid=events-link]")
            expect(to_list).to_have_text(link)
            expect(to_list).to_be_visible()
            _fits(page)
            page.screenshot(path=str(SHOTS / f"start-{lang}-{size['width']}x{size['height']}.png"))
            to_list.click()
            page.wait_for_url("**/events")
            expect(page.locator("main h2").first).to_have_text(heading)
            entry = page.locator(f"[data-testid=events-open] [data-event='{tid}']")
            expect(entry).to_be_visible()
            expect(page.locator("[data-testid=events-open] h2")).to_have_text(open_for_entry)
            expect(entry.locator("a")).to_have_text(name)
            expect(entry).not_to_contain_text(f"lantern-key-{lang}")
            expect(page.locator(f"[data-testid=events-finished] [data-event='{over}']")).to_be_visible()
            _fits(page)
            page.screenshot(path=str(SHOTS / f"events-{lang}-{size['width']}x{size['height']}.png"), full_page=True)
            entry.locator("a").click()
            page.wait_for_url(f"**/events/{tid}")
            expect(page.locator("[data-testid=event-name]")).to_have_text(name)
        finally:
            page.context.close()
    ctx = browser.new_context()  # the Content-Security-Policy enforced: the list's script runs under it
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        page.goto(f"{live_server.url}/events")
        expect(page.locator(f"[data-event='{tid}']")).to_be_visible()
        assert refused == []
    finally:
        ctx.close()
    assert problems == []


@pytest.mark.parametrize(("lang", "title", "bot"), [("zh", "你 / 机器人3", " 对 机器人2"), ("en", "You / Bot 3", " vs Bot 2")])
def test_the_start_pages_replays_read_as_titles_with_the_id_small(browser: Browser, live_server: LiveServer,
                                                                   lang: str, title: str, bot: str) -> None:
    problems: list[str] = []
    for size in SIZES:
        _, token, rid = guest_match(live_server, "Mei")  # one each: a seat is claimed by one account
        page = _page(browser, lang, size, problems)
        try:
            page.goto(f"{live_server.url}/")
            page.evaluate(f"localStorage.setItem('guandan:token:ZZZZZZ', '{token}')")  # the seat token this browser kept
            page.reload()
            item = page.locator(f"#replays [data-replay='{rid}']")
            expect(item.locator(".replay-title")).to_contain_text(title)
            expect(item.locator(".replay-title")).to_contain_text(bot)
            expect(item.locator(".replay-title")).not_to_contain_text(rid)
            assert item.locator(".replay-title").get_attribute("href") == f"/replay/{rid}"
            expect(item.locator(".replay-id")).to_have_text(rid)
            expect(item.locator(".replay-result")).not_to_be_empty()
            # this browser's own seat: its team's level first, each team named as the replay's corner names it
            expect(item.locator(".replay-result")).to_contain_text("我方" if lang == "zh" else "Your team")
            expect(item.locator("[data-testid=replay-yours]")).to_have_count(0)  # its "You" says whose it is
            item.scroll_into_view_if_needed()
            _fits(page)
            page.screenshot(path=str(SHOTS / f"replays-{lang}-{size['width']}x{size['height']}.png"))
            # signed up on this browser, the account keeps the game: its games list titles it the same way
            _sign_up(page, live_server.url, f"titles_{lang}_{size['width']}")
            game = page.locator(f"[data-testid=my-games] [data-replay='{rid}']")
            expect(game.locator(".replay-title")).to_contain_text(title)
            expect(game.locator(".replay-id")).to_have_text(rid)
            _fits(page)
            page.screenshot(path=str(SHOTS / f"games-{lang}-{size['width']}x{size['height']}.png"), full_page=True)
        finally:
            page.context.close()
    assert problems == []


@pytest.mark.parametrize(("lang", "words"), [
    ("zh", ["胜 · 我方 A : 对方 3 · 1副", "负 · 我方 3 : 对方 A · 1副", "队2 胜 · 队1 10 : 队2 A",
            "级数：队1 3 : 队2 5 · 2副", "级数：我方 5 : 对方 3", "胜"]),
    ("en", ["Won · Your team A : Opponents 3 · 1 deal", "Lost · Your team 3 : Opponents A · 1 deal",
            "Team 2 won · Team 1 10 : Team 2 A", "Levels: Team 1 3 : Team 2 5 · 2 deals",
            "Levels: Your team 5 : Opponents 3", "Won"])])
def test_a_replays_result_names_both_teams_levels_as_the_replay_does(browser: Browser, live_server: LiveServer,
                                                                       lang: str, words: list[str]) -> None:
    """How a replay in a list ended: with the reader's seat known, their team's level first ("Your team" /
    "Opponents"); with none, Team 1's first, both named as the table's badges name them, and the winner by its team's
    number; a match not won says the levels alone. 10 is written "10", never the record's T."""
    problems: list[str] = []
    page = _page(browser, lang, SIZES[0], problems)
    summary: dict[str, Any] = {"players": ["Ann", "", "Cat", ""], "preset": "competition",
                               "kinds": [["human", None], ["bot", "greedy"], ["human", None], ["bot", "greedy"]]}
    cases: list[tuple[dict[str, Any], int | None]] = [  # (how the match ended, the reader's seat)
        ({"ended": True, "winner": 1, "levels": ["3", "A"], "deals": 1}, 1),
        ({"ended": True, "winner": 1, "levels": ["3", "A"], "deals": 1}, 2),
        ({"ended": True, "winner": 1, "levels": ["T", "A"], "deals": None}, None),
        ({"ended": True, "winner": None, "levels": ["3", "5"], "deals": 2}, None),  # the deal cap: no winner
        ({"ended": False, "winner": None, "levels": ["5", "3"], "deals": 0}, 0),
        ({"ended": True, "winner": 0, "levels": None, "deals": 0}, 0)]  # a summary that could not read the levels
    try:
        page.goto(f"{live_server.url}/")
        expect(page.locator("[data-testid=events-link]")).to_have_text("赛事" if lang == "zh" else "Events")
        got = page.evaluate("""async (cases) => {
          const { replayTitle } = await import("/static/replay_title.js");
          return cases.map(([summary, seat]) => replayTitle(summary, seat));
        }""", [[summary | extra, seat] for extra, seat in cases])
        assert [g["result"].replace("\u00a0", " ").replace("\u2060", "") for g in got] == words
        # a team's name is never parted from its level: only the space after the colon may break a line
        mine, ones = ("我方", "对方") if lang == "zh" else ("Your\u00a0team", "Opponents")
        assert f"{mine}\u00a0A\u00a0: {ones}\u00a03" in got[0]["result"]
        team = "队\u2060" if lang == "zh" else "Team\u00a0"  # a word joiner: 队 is never parted from its number
        assert f"{team}1\u00a010\u00a0: {team}2\u00a0A" in got[2]["result"]
        assert got[0]["title"].startswith("你 / " if lang == "zh" else "You / ")  # the reader's team first
        assert got[2]["title"].startswith("Ann / Cat ")  # no seat: Team 1 (North–South) first, as the levels
        assert all(bad not in g["title"] + g["result"] for g in got for bad in ("null", "undefined", "None", "[", "{"))
    finally:
        page.context.close()
    assert problems == []


@pytest.mark.parametrize(("lang", "back", "moved"), [
    ("zh", "回到牌桌", "你的座位已在另一台登录了你账号的设备上接回"),
    ("en", "Back to the table", "Your seat was taken on another device logged in to your account")])
def test_an_accounts_seat_comes_back_on_another_device_and_the_first_one_watches(
        browser: Browser, live_server: LiveServer, lang: str, back: str, moved: str) -> None:
    url, user = live_server.url, f"two_devices_{lang}"
    problems: list[str] = []
    phone = _page(browser, lang, SIZES[0], problems)
    laptop = _page(browser, lang, SIZES[2], problems)
    other = _page(browser, lang, SIZES[1], problems)
    try:
        _sign_up(phone, url, user)
        phone.goto(f"{url}/")
        phone.locator("[data-testid=account-link].logged-in").wait_for()
        phone.select_option("#quick-tier", "greedy")
        phone.click("[data-testid=quick-play]")  # seat 1 against three bots, as the account's seat
        phone.wait_for_url("**/r/*")
        code = phone.url.rsplit("/", 1)[1]
        phone.wait_for_function("document.body.dataset.status === 'playing'", timeout=30_000)
        # another account sees no way to that seat
        _sign_up(other, url, f"someone_else_{lang}")
        other.goto(f"{url}/")
        other.locator("[data-testid=account-link].logged-in").wait_for()
        other.wait_for_timeout(500)
        expect(other.locator(f"[data-testid=my-tables] [data-room='{code}']")).to_have_count(0)

        _log_in(laptop, url, user)
        laptop.goto(f"{url}/")
        way_back = laptop.locator(f"[data-testid=my-tables] [data-room='{code}'][data-account=yes]")
        expect(way_back).to_be_visible()
        laptop.screenshot(path=str(SHOTS / f"back-{lang}-1280x800.png"))
        way_back.get_by_role("button", name=back).click()
        laptop.wait_for_url(f"**/r/{code}")
        laptop.wait_for_function("document.body.dataset.status === 'playing'", timeout=30_000)
        expect(laptop.locator("[data-testid=hand] [data-testid=card]").first).to_be_visible()  # the seat's own hand
        # the phone is told, forgets its token and watches
        expect(phone.locator("#notice-text")).to_contain_text(moved, timeout=10_000)
        phone.screenshot(path=str(SHOTS / f"moved-{lang}-390x844.png"))
        phone.wait_for_function(f"localStorage.getItem('guandan:token:{code}') === null")
        expect(phone.locator("#info .badge").filter(has_text="观战中" if lang == "zh" else "Spectating")).to_be_visible(
            timeout=15_000)
        expect(phone.locator("[data-testid=hand] [data-testid=card]")).to_have_count(0)
        assert problems == []
    finally:
        for p in (phone, laptop, other):
            p.context.close()
