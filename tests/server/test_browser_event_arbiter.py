"""An online event's arbiter page in Debian's chromium, as the arbiter first opens it on a phone: the heading
names the page and the event before the key is given (and after a wrong one), with a line saying what the page
needs; once the key is taken, the tables panel says why it is empty before round 1 and which button pairs the
round; the replacement offers the teams and the chosen team's players; the page links the event's public page."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.server.events_online import OnlineEvents
from guandan.tournament import online
from guandan.tournament.model import EventConfig, RoundLimits

from .conftest import LiveServer
from .test_browser_crowded_table import shoot

pytestmark = pytest.mark.timeout(300)
KEY = "browser-arbiter-key"


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """A server of this module's own: its events are on no other test's list of the site's events."""
    with tempfile.TemporaryDirectory(prefix="guandan-arbiter-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


def _page(browser: Browser, lang: str, **kw: Any) -> Page:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, **kw)
    page = ctx.new_page()
    page.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    return page


def _event(live_server: LiveServer, name: str) -> int:
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name=name, rounds=2, per_deal=True, limits=RoundLimits(
        max_deals=1, max_minutes=None, warning_minutes=0)), secret=KEY)
    for team, players in (("Red", ["arb_ann", "arb_bob"]), ("Blue", ["arb_cat", "arb_dan"])):
        events.desk.register(tid, team, players)
    return tid


def test_the_arbiter_page_says_what_it_is_and_what_it_needs(browser: Browser, live_server: LiveServer) -> None:
    tid = _event(live_server, "Arbiter Cup")
    url = f"{live_server.url}/events/{tid}/arbiter"
    page = _page(browser, "en")
    try:
        page.goto(url)
        title = page.locator("[data-testid=arbiter-title]")
        expect(title).to_have_text("Arbiter's page · Arbiter Cup")
        expect(page.locator("[data-testid=key-needed]")).to_have_text(
            "Enter the event's arbiter key (given when the event was made) to see its tables and run its rounds.")
        expect(page.locator("[data-testid=tables]")).to_be_hidden()
        expect(page.locator("#replace-form")).to_be_hidden()
        expect(page.locator("[data-testid=event-link]")).to_have_attribute("href", f"/events/{tid}")

        page.fill("#key", "not-the-key")
        page.click("#key-btn")
        expect(page.locator("[data-testid=arbiter-error]")).to_have_text("The arbiter key is wrong.")
        expect(title).to_have_text("Arbiter's page · Arbiter Cup")
        expect(page.locator("[data-testid=key-needed]")).to_be_visible()
        expect(page.locator("[data-testid=tables]")).to_be_hidden()

        page.fill("#key", KEY)
        page.click("#key-btn")
        expect(page.locator("[data-testid=key-needed]")).to_be_hidden()
        expect(page.locator("[data-testid=arbiter-error]")).to_be_empty()
        expect(page.locator("[data-testid=no-tables]")).to_have_text(
            "No tables yet: round 1 is not paired. “Start the next round” above pairs it and opens its tables.")

        page.click("[data-testid=start-round]")
        expect(page.locator("[data-testid=tables] tr")).to_have_count(1)
        expect(page.locator("[data-testid=no-tables]")).to_be_hidden()
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_override_link_comes_with_the_key_and_each_seat_says_where_it_sits(
        browser: Browser, live_server: LiveServer, lang: str) -> None:
    """The link to the desk's page (where a result is overridden) needs the key in its address: before the key
    is given, and after a wrong one, there is no link to press; once the key is taken it leads there. Each table's
    seats say where each player sits (北/North … 西/West, as the desk's table pages name the seats)."""
    tid = _event(live_server, f"Seat Cup {lang}")
    page = _page(browser, lang)
    link = page.locator("[data-testid=desk-link]")
    try:
        page.goto(f"{live_server.url}/events/{tid}/arbiter")
        expect(page.locator("#event-name")).to_have_text(f"Seat Cup {lang}")
        expect(link).to_be_hidden()
        assert link.get_attribute("href") is None
        page.fill("#key", "not-the-key")
        page.click("#key-btn")
        expect(page.locator("[data-testid=arbiter-error]")).not_to_be_empty()
        expect(link).to_be_hidden()
        page.fill("#key", KEY)
        page.click("#key-btn")
        expect(link).to_be_visible()
        expect(link).to_have_text({"zh": "改判", "en": "Override"}[lang])
        expect(link).to_have_attribute("href", f"/t/{tid}/arbiter?key={KEY}&lang={lang}")
        page.click("[data-testid=start-round]")
        seats = page.locator("[data-testid=tables] tr .seat")
        absent = {"zh": "未到", "en": "absent"}[lang]
        names = {"zh": ["北", "东", "南", "西"], "en": ["North", "East", "South", "West"]}[lang]
        expect(page.locator("[data-testid=tables] tr")).to_have_count(1)
        events: OnlineEvents = live_server.app.state.online_events
        players = online.seats_of(events.desk.state(tid), 1, 1)  # the home team North and South
        expect(seats).to_have_text([f"{n} {p} · {absent}" for n, p in zip(names, players, strict=True)])
        for width, height in ((844, 390), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            shoot(page, f"event-arbiter-seats-{lang}-{width}")
    finally:
        page.context.close()


def test_the_replacement_chooses_among_the_teams_players(browser: Browser, live_server: LiveServer) -> None:
    tid = _event(live_server, "Replace Cup")
    page = _page(browser, "en")
    try:
        page.goto(f"{live_server.url}/events/{tid}/arbiter?key={KEY}")
        team, player = page.locator("#replace-team"), page.locator("#replace-old")
        expect(page.locator("label:has(#replace-old) span")).to_have_text("Player to replace")
        expect(team.locator("option")).to_have_text(["Red", "Blue"])
        expect(player.locator("option")).to_have_text(["arb_ann", "arb_bob"])
        team.select_option(label="Blue")
        expect(player.locator("option")).to_have_text(["arb_cat", "arb_dan"])
        player.select_option("arb_dan")
        page.wait_for_timeout(3500)  # the page reads the event again every 3 s: what is chosen stays chosen
        expect(team).to_have_value("2")
        expect(player).to_have_value("arb_dan")
        # a refusal is said under the form, where the arbiter is looking, and the teams are as they were
        page.fill("#replace-new", "arb_nobody")
        page.fill("#replace-reason", "ill")
        page.click("#replace-btn")
        expect(page.locator("[data-testid=replace-error]")).to_have_text("There is no player called arb_nobody.")
        expect(page.locator("[data-testid=arbiter-error]")).to_be_empty()
        expect(player.locator("option")).to_have_text(["arb_cat", "arb_dan"])
    finally:
        page.context.close()


def test_the_page_in_chinese(browser: Browser, live_server: LiveServer) -> None:
    tid = _event(live_server, "南京线上赛")
    page = _page(browser, "zh")
    try:
        page.goto(f"{live_server.url}/events/{tid}/arbiter")
        expect(page.locator("[data-testid=arbiter-title]")).to_have_text("裁判页 · 南京线上赛")
        expect(page.locator("[data-testid=key-needed]")).to_contain_text("请输入本赛事的裁判密钥")
        expect(page.locator("[data-testid=event-link]")).to_have_text("赛事页面")
        page.goto(f"{live_server.url}/events/{tid}/arbiter?key={KEY}")
        expect(page.locator("[data-testid=no-tables]")).to_have_text(
            "还没有牌桌：第1轮尚未编排。点击上方的“开始下一轮”即可编排该轮并开放各桌。")
        # an event's competitors are 选手, as everywhere on the desk (the leaderboard's site users are 玩家)
        expect(page.locator("label:has(#replace-old) span")).to_have_text("被替换的选手")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tables_say_which_team_has_the_bye(browser: Browser, live_server: LiveServer, lang: str) -> None:
    """Three teams: round 1 has one table, and the team left out has a row of its own under it, "Bye" (轮空) and
    its name, as the desk's arbiter page lists a bye."""
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name=f"Bye Cup {lang}", rounds=2, seed=5),
                               secret=f"{KEY}-bye-{lang}")
    for team in ("Red", "Blue", "Green"):
        events.desk.register(tid, team, [f"arb_{lang}_{team}_a", f"arb_{lang}_{team}_b"])
    page = _page(browser, lang)
    try:
        page.goto(f"{live_server.url}/events/{tid}/arbiter?key={KEY}-bye-{lang}")
        expect(page.locator("[data-testid=no-tables]")).to_be_visible()  # the page holds the event: no round yet
        expect(page.locator("[data-testid=bye]")).to_have_count(0)  # and so no bye
        page.click("[data-testid=start-round]")
        rows = page.locator("[data-testid=tables] tr")
        expect(rows).to_have_count(2)  # the round paired: its one table, then the bye
        bye = events.desk.state(tid).rounds[1].bye
        assert bye is not None
        expect(rows.nth(1)).to_have_attribute("data-testid", "bye")
        expect(rows.nth(1).locator("td")).to_have_text([{"zh": "轮空", "en": "Bye"}[lang],
                                                         ("Red", "Blue", "Green")[bye - 1]])
        for width, height in ((390, 844), (844, 390), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            # the bye's row in sight (a phone held sideways shows a few lines), the page scrolled down only
            rows.nth(1).evaluate("(row) => window.scrollTo(0, row.getBoundingClientRect().top + window.scrollY - 200)")
            shoot(page, f"event-arbiter-bye-{lang}-{width}")
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tables_fit_an_upright_phone_with_long_usernames(browser: Browser, live_server: LiveServer,
                                                              lang: str) -> None:
    """Usernames as long as an account's may be (24 characters) and a long team name: at 390 px wide no panel
    scrolls sideways and nothing is wider than the page (a table's seats go under its match, a long name wraps);
    held sideways and on a desktop the seats keep their own column, one line each."""
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name=f"Long Names Cup {lang}", rounds=2),
                               secret=f"{KEY}-long-{lang}")
    players = {"Red Dragons of the East": [f"alexandra_montgomery_{lang}", f"bartholomew_fitzgera_{lang}"],
               "Blue": [f"constantinople_play_{lang}", f"d_{lang}"]}
    for team, names in players.items():
        events.desk.register(tid, team, names)
    online.open_round(events.desk, tid)
    page = _page(browser, lang)
    try:
        page.goto(f"{live_server.url}/events/{tid}/arbiter?key={KEY}-long-{lang}")
        seats = page.locator("[data-testid=tables] tr .seat")
        expect(seats).to_have_count(4)
        for name in online.seats_of(events.desk.state(tid), 1, 1):
            expect(seats.filter(has_text=name)).to_have_count(1)  # every name shown whole
        for width, height in ((390, 844), (844, 390), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.locator(".tables").scroll_into_view_if_needed()
            wide: list[Any] = page.evaluate("""() => [document.documentElement, ...document.querySelectorAll('.panel')]
              .filter((e) => e.scrollWidth > e.clientWidth).map((e) => [e.className, e.scrollWidth, e.clientWidth])""")
            assert wide == [], (width, wide)
            tops = [seats.nth(i).bounding_box() for i in range(4)]
            match = page.locator("[data-testid=tables] tr td").nth(1).bounding_box()
            assert all(b is not None for b in [*tops, match])
            if width > 560:  # the seats' own column, right of the match, a line each
                assert all(b["x"] >= match["x"] + match["width"] for b in tops if b and match), width
                assert len({round(b["height"]) for b in tops if b}) == 1, width
            else:  # under the match
                assert all(b["y"] >= match["y"] + match["height"] - 1 for b in tops if b and match), width
            # a seat's state stays on the line of its player's name (or the name's last line)
            apart = page.evaluate("""() => [...document.querySelectorAll('[data-testid=tables] .seat')].filter((s) => {
              const name = [...s.querySelector('.seat-player').getClientRects()].pop();
              const state = [...s.querySelector('.seat-state').getClientRects()];
              return state.some((line) => Math.abs(name.top - line.top) > 1);
            }).map((s) => s.textContent)""")
            assert apart == [], (width, apart)
            shoot(page, f"event-arbiter-long-names-{lang}-{width}")
    finally:
        page.context.close()
