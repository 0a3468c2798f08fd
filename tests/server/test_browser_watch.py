"""Watching four bots play (观战) in chromium, in Chinese: the creator's lobby offers the button, anyone else's
says that the match waits for the creator, and the creator's tap starts the table on a spectator's page, which
shows the four seats and the bots' plays, no hand and nothing to press. The start page does it in one tap, and
tells a refusal (the caps on such matches) in the page's language, leaving no room behind."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.server.i18n_web import strings
from guandan.server.table import TableService

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(300)
PHONE: dict[str, Any] = {"viewport": {"width": 844, "height": 390}, "has_touch": True, "bypass_csp": True}
ZH = strings("zh")
EN = strings("en")


def open_room(browser: Browser, live: LiveServer, code: str, host: str | None = None) -> Page:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live.url}/")
    page.evaluate("localStorage.setItem('guandan:lang', 'zh')" +
                  (f"; localStorage.setItem('guandan:host:{code}', '{host}')" if host else ""))
    page.goto(f"{live.url}/r/{code}")
    return page


def bot_room(live: LiveServer) -> tuple[str, str]:
    """A one-deal room of four bots, waiting for its creator: its code and the creator's host token."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        created = c.post("/api/rooms", json={"bots": ["greedy"] * 4, "max_deals": 1, "timer": 0}).json()
    return created["code"], created["host_token"]


def test_the_creators_button_starts_the_bots_match_for_a_spectator(browser: Browser, live_server: LiveServer) -> None:
    code, host = bot_room(live_server)
    creator = open_room(browser, live_server, code, host)
    spectator = open_room(browser, live_server, code)
    try:
        button = creator.locator("[data-testid=watch]")
        expect(button).to_have_text("观看机器人对局")
        expect(button).to_be_visible()
        expect(creator.locator("#lobby-msg")).to_have_text(
            ZH["Every seat is a bot: watch them play a whole match, or remove one and take its seat to play"])
        expect(spectator.locator("[data-testid=watch]")).to_be_hidden()
        expect(spectator.locator("#lobby-msg")).to_have_text(
            ZH["Every seat is a bot: the match begins when the room's creator starts it for everyone to watch"])
        assert spectator.evaluate("document.body.dataset.status") == "lobby"
        button.tap()
        # the spectator's page turns into the table by itself, and the bots play on it
        spectator.wait_for_function("document.body.dataset.status === 'playing' && Number(document.body.dataset.seq) >= 2",
                                    timeout=60000)
        expect(spectator.locator("[data-testid=table]")).to_be_visible()
        for plate in ("#pos-me", "#pos-right", "#pos-top", "#pos-left"):  # four seats, the bottom one too
            expect(spectator.locator(f"{plate} .nm")).to_contain_text("机器人")
        expect(spectator.locator("#hand .card")).to_have_count(0)
        for control in ("#play", "#pass", "#hint"):
            expect(spectator.locator(control)).to_be_hidden()
        expect(spectator.locator("#info")).to_contain_text(ZH["Spectating"])
        expect(creator.locator("[data-testid=table]")).to_be_visible()  # the creator watches it too
    finally:
        creator.context.close()
        spectator.context.close()


@pytest.fixture(scope="module")
def watch_server() -> Iterator[LiveServer]:
    """A server of its own: every page here comes from 127.0.0.1, and one place per address makes the second tap
    a refusal (the session's server keeps its places for the other tests). Its bots play a move each 50 ms, so a
    table is a few plays in at once and a whole match outlasts the test."""
    with tempfile.TemporaryDirectory(prefix="guandan-web-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", max_watched_per_address=1, watch_min_bot_delay_ms=50) as srv:
        yield srv


ONE_PLACE_TAKEN = ("Your address already has a bot match running, as many as it may: close it (a match stops once "
                   "nobody has watched it for {s} s) and try again.")


def start_page(browser: Browser, live: LiveServer, lang: str) -> Page:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live.url}/")
    page.wait_for_selector("#quick-watch:enabled")  # the page's script has run
    return page


def test_one_tap_on_the_start_page_watches_four_bots_and_a_refusal_is_told_there(browser: Browser,
                                                                                 watch_server: LiveServer) -> None:
    service: TableService = watch_server.app.state.service
    watcher = start_page(browser, watch_server, "zh")
    other = start_page(browser, watch_server, "en")
    try:
        button = watcher.locator("[data-testid=quick-watch]")
        expect(button).to_have_text(ZH["Watch four bots play"])
        watcher.select_option("#quick-tier", "greedy")
        button.tap()
        watcher.wait_for_url("**/r/*")
        watcher.wait_for_function("document.body.dataset.status === 'playing' && Number(document.body.dataset.seq) >= 4",
                                  timeout=60000)
        code = watcher.url.rsplit("/", 1)[1]
        room = httpx.get(f"{watch_server.url}/api/rooms/{code}", timeout=30).json()
        assert [(s["kind"], s["tier"]) for s in room["seats"]] == [("bot", "greedy")] * 4
        expect(watcher.locator("[data-testid=table]")).to_be_visible()
        for plate in ("#pos-me", "#pos-right", "#pos-top", "#pos-left"):
            expect(watcher.locator(f"{plate} .nm")).to_contain_text("贪心")
        expect(watcher.locator("#hand .card")).to_have_count(0)
        expect(watcher.locator("#info")).to_contain_text(ZH["Spectating"])
        assert watcher.evaluate(f"localStorage.getItem('guandan:host:{code}')")  # its replay will be this browser's
        # the address's one place is taken: the next tap is refused on the start page, in its language, and the
        # server made nothing for it
        rooms = set(service.rooms)
        other.locator("[data-testid=quick-watch]").tap()
        said = other.locator("#quick-error")
        expect(said).not_to_be_empty()
        assert said.inner_text() == EN[ONE_PLACE_TAKEN].format(s=120)
        assert other.url == f"{watch_server.url}/"
        expect(other.locator("[data-testid=quick-watch]")).to_be_enabled()  # it may be tapped again later
        other.evaluate("localStorage.setItem('guandan:lang', 'zh')")
        other.reload()
        other.wait_for_selector("#quick-watch:enabled")
        other.locator("[data-testid=quick-watch]").tap()
        expect(said).to_have_text(ZH[ONE_PLACE_TAKEN].format(s=120))
        assert set(service.rooms) == rooms
    finally:
        watcher.context.close()
        other.context.close()


def test_a_server_that_runs_no_bot_matches_leaves_the_start_pages_button_out(browser: Browser) -> None:
    """`serve --max-watched-tables 0`: the start page offers no "Watch four bots play" to be refused."""
    with tempfile.TemporaryDirectory(prefix="guandan-web-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", max_watched_tables=0) as srv:
        page = browser.new_context(**PHONE).new_page()
        try:
            page.goto(f"{srv.url}/")
            page.wait_for_selector("#quick-play:enabled")  # the page's script has run
            expect(page.locator("[data-testid=quick-watch]")).to_be_hidden()
            expect(page.locator("[data-testid=quick-play]")).to_be_visible()
        finally:
            page.context.close()


def test_a_server_that_runs_no_bot_matches_offers_no_watch_button_in_the_room(browser: Browser) -> None:
    """`serve --max-watched-tables 0`: the creator of a room of four bots is not offered "Watch the bots play", a tap
    the server would refuse; the room says why it waits, to its creator and to anyone else, in the page's language."""
    with tempfile.TemporaryDirectory(prefix="guandan-web-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", max_watched_tables=0) as srv:
        code, host = bot_room(srv)
        creator = open_room(browser, srv, code, host)
        other = open_room(browser, srv, code)
        try:
            expect(creator.locator("#lobby-msg")).to_have_text(ZH[
                "Every seat is a bot, and this server runs no bot matches to watch: remove one and take its seat to play"])
            expect(creator.locator("[data-testid=watch]")).to_be_hidden()
            expect(creator.locator("#unbot-0")).to_be_visible()  # what the creator may do instead
            expect(other.locator("#lobby-msg")).to_have_text(ZH[
                "Every seat is a bot, and this server runs no bot matches to watch: "
                "the match begins once the room's creator frees a seat"])
            expect(other.locator("[data-testid=watch]")).to_be_hidden()
        finally:
            creator.context.close()
            other.context.close()
