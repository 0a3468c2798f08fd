"""Watching four bots play (观战) in chromium, in Chinese: the creator's lobby offers the button, anyone else's
says that the match waits for the creator, and the creator's tap starts the table on a spectator's page, which
shows the four seats and the bots' plays, no hand and nothing to press."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.server.i18n_web import strings

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(300)
PHONE = {"viewport": {"width": 844, "height": 390}, "has_touch": True, "bypass_csp": True}
ZH = strings("zh")


def open_room(browser: Browser, live: LiveServer, code: str, host: str | None = None) -> Page:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live.url}/")
    page.evaluate("localStorage.setItem('guandan:lang', 'zh')" +
                  (f"; localStorage.setItem('guandan:host:{code}', '{host}')" if host else ""))
    page.goto(f"{live.url}/r/{code}")
    return page


def test_the_creators_button_starts_the_bots_match_for_a_spectator(browser: Browser, live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as c:
        created = c.post("/api/rooms", json={"bots": ["greedy"] * 4, "max_deals": 1, "timer": 0}).json()
    code, host = created["code"], created["host_token"]
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
