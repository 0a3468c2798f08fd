"""Leaving the table by the title's link (掼蛋, the way to the start page) on a phone held sideways: mid-deal the page
asks first, in the page's language, saying what becomes of the seat, and stays where it is unless the player confirms;
with no deal in play (the room's lobby) the link leaves at once."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from guandan.server.i18n_web import strings

from .conftest import LiveServer, resize
from .test_browser_table import PHONE, one_language, seat_me

pytestmark = pytest.mark.timeout(300)
TITLE = "body > header h1 a[href='/']"
SAID = ("The deal goes on without you. Your seat stays yours: on your turns a bot plays for you after a few seconds "
        "(auto-play), and a table no player is at pauses. Open this room's link again in this browser to come back "
        "and take back control.")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_title_link_asks_before_leaving_a_deal_in_play(browser: Browser, live_server: LiveServer,
                                                           lang: str) -> None:
    words = strings(lang)
    page = seat_me(browser, live_server, lang)
    room = page.url
    try:
        for w, h in ((667, 375), (844, 390)):
            resize(page, w, h)
            page.tap(TITLE)
            ask = page.locator("[data-testid=leave-ask]")
            expect(ask).to_be_visible()
            assert ask.locator("h3").inner_text() == words["Leave the table?"]
            assert ask.locator("p").inner_text() == words[SAID]
            one_language(ask.inner_text(), lang)
            # the whole box and both its buttons are in the window, the buttons tap targets
            for part in (ask, page.locator("[data-testid=leave-go]"), page.locator("[data-testid=leave-stay]")):
                box = part.bounding_box()
                assert box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= w \
                    and box["y"] + box["height"] <= h, (w, h, box)
            assert (page.locator("[data-testid=leave-stay]").bounding_box() or {"height": 0})["height"] >= 40
            page.tap("[data-testid=leave-stay]")
            expect(ask).to_have_count(0)
            assert page.url == room
        page.tap(TITLE)
        page.tap("[data-testid=leave-go]")
        page.wait_for_url(f"{live_server.url}/")
    finally:
        page.context.close()


def test_the_title_link_leaves_the_rooms_lobby_at_once(browser: Browser, live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, None, "greedy", "greedy"], "max_deals": 1, "timer": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
    page = browser.new_context(**PHONE).new_page()
    try:
        resize(page, 667, 375)
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:token:{code}', '{token}')")
        page.goto(f"{live_server.url}/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'lobby' && document.body.dataset.online === '1'")
        page.tap(TITLE)
        page.wait_for_url(f"{live_server.url}/")
        expect(page.locator("[data-testid=leave-ask]")).to_have_count(0)
    finally:
        page.context.close()
