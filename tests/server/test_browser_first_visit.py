"""What a first-time player on a phone met (found by playing the site through as one, in Chinese and English):
the start page's list of replays said when a match was played as the server's raw UTC clock with its ISO "T"
("2026-12-06T03:05": eight hours off in Shanghai); it says it on the reader's clock, in the page's language. A
phone's back gesture on the table left the match with no way back but the forward button: the start page now
offers the way back to a table the browser holds a seat at that is not over. The event's standings (a venue
screen that reloads itself) added every reload to the history: the back button stepped through them all, never
back to the event page; each reload now takes the place of the last."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import record
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.server.events_online import OnlineEvents
from guandan.tournament import online
from guandan.tournament.model import EventConfig

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(180)
PHONE: ViewportSize = {"width": 390, "height": 844}
SHANGHAI = timezone(timedelta(hours=8))


def _imported_replay(live: LiveServer) -> tuple[str, str, str]:
    """A finished one-deal match imported as a record: (replay id, its import token, its created_at)."""
    match = new_match(preset("competition"), 11, MatchConfig(max_deals=1))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    with httpx.Client(base_url=live.url, timeout=30) as c:
        made = c.post("/api/replays", content=record.dumps(match, players=["a", "b", "c", "d"]),
                      headers={"Content-Type": "application/json"})
        assert made.status_code == 201, made.text
        rid, token = made.json()["id"], made.json()["token"]
        listed = next(r for r in c.post("/api/replays/mine", json={"tokens": [token]}).json() if r["id"] == rid)
    return rid, token, listed["created_at"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_start_page_says_when_a_replay_was_played_on_the_readers_clock(browser: Browser, live_server: LiveServer,
                                                                          lang: str) -> None:
    rid, token, created = _imported_replay(live_server)
    when = datetime.fromisoformat(created)
    assert when.utcoffset() == timedelta(0), created  # the server says it is UTC (SQLite gave it back naive)
    local = when.astimezone(SHANGHAI)
    ctx = browser.new_context(viewport=PHONE, timezone_id="Asia/Shanghai")
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:replay:{rid}', '{token}')")
        page.goto(f"{live_server.url}/")
        item = page.locator(f"#replays [data-replay='{rid}']")
        item.wait_for()
        # an imported record's title cannot say "You" (no seat of this browser's played it): a tag says it is its own
        expect(item.locator("[data-testid=replay-yours]")).to_have_text("我的" if lang == "zh" else "yours")
        text = item.inner_text()
        # no ISO timestamp (the item also shows the replay's random id, which may hold a digit, a T and a digit)
        assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", text), text
        assert f"{local:%H}:{local:%M}" in text or f"{local:%I}:{local:%M}".lstrip("0") in text, (text, local)
        assert str(local.day) in text and str(local.year) in text, (text, local)
    finally:
        ctx.close()


@pytest.mark.parametrize(("lang", "says", "button"), [("zh", "的对局还在进行", "回到牌桌"),
                                                      ("en", "is still being played", "Back to the table")])
def test_a_player_who_went_back_from_a_running_match_finds_the_way_back_on_the_start_page(
        browser: Browser, live_server: LiveServer, lang: str, says: str, button: str) -> None:
    # the page's policy ignored, as in the other browser tests: wait_for_function polls with eval, which it forbids
    # (the predicate passed only when it held at its first look, as the table was quick enough)
    ctx = browser.new_context(viewport=PHONE, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
        page.goto(f"{live_server.url}/")
        expect(page.locator("[data-testid=my-tables]")).to_be_hidden()  # a first visit holds no seat
        page.select_option("#quick-tier", "random")
        page.fill("#timer", "0")  # no turn timer: the seat stays the player's while the page is away
        page.tap("[data-testid=quick-play]")
        page.wait_for_url("**/r/*")
        code = page.url.rsplit("/", 1)[1]
        page.wait_for_function("document.body.dataset.status === 'playing'", timeout=30000)
        page.go_back()  # the browser's back button, mid-deal
        page.wait_for_url(f"{live_server.url}/")
        way = page.locator(f"[data-testid=my-tables] [data-room='{code}']")
        expect(way).to_contain_text(code)
        expect(way).to_contain_text(says)
        way.get_by_role("button", name=button).tap()
        page.wait_for_url(f"**/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'playing' && "
                               "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length > 0",
                               timeout=30000)
        expect(page.locator("#room-code")).to_contain_text(code)
    finally:
        ctx.close()


def test_the_back_button_leaves_the_self_reloading_standings_for_the_event_page(browser: Browser,
                                                                                live_server: LiveServer) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name="Back Cup", rounds=1), secret="back-cup-key")
    ctx = browser.new_context(viewport=PHONE, has_touch=True)
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/events/{tid}?lang=en")
        page.goto(f"{live_server.url}/t/{tid}/standings?lang=en&refresh=5")
        page.wait_for_url(f"**/t/{tid}/standings?refresh=5", timeout=15_000)  # its first reload
        with page.expect_event("load", timeout=15_000):  # and another
            pass
        # the new tab's blank page, the event page and the screen, however often it reloaded
        assert page.evaluate("history.length") == 3
        page.go_back()
        page.wait_for_url(f"**/events/{tid}?lang=en")
    finally:
        ctx.close()
