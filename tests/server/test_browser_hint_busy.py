"""A hint refused because the server is busy (its workers' queue full) is told beside the buttons in the
page's language and stays readable through the re-renders that follow (it was overwritten by "Your turn" at
once); the player's next step (another hint, a changed selection) moves on from it."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import LiveServer
from .test_browser_table import seat_me

pytestmark = pytest.mark.timeout(300)
BUSY = {"zh": "服务器正忙，请稍后再试。", "en": "The server is busy: try again in a moment."}
YOUR_TURN = {"zh": "轮到你了", "en": "Your turn"}
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-busy-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_busy_hint_refusal_stays_readable(browser: Browser, server: LiveServer, lang: str) -> None:
    page = seat_me(browser, server, lang)
    page.wait_for_function("document.body.dataset.toMove === '0' && !document.querySelector('[data-testid=hint]').disabled")
    pool = server.app.state.service.pool
    pool.queue_limit = 0  # every hint is refused as busy from now on, as a loaded server refuses it
    try:
        msg = page.locator("#msg")
        expect(msg).to_have_text(YOUR_TURN[lang])
        page.tap("[data-testid=hint]")
        expect(msg).to_have_text(BUSY[lang])
        expect(msg).to_have_class("msg notice")
        page.tap("#sort")  # a re-render (理牌) and a second later: the refusal is still there to read
        page.wait_for_timeout(1500)
        expect(msg).to_have_text(BUSY[lang])
        for size in ({"width": 390, "height": 844}, {"width": 844, "height": 390}):
            page.set_viewport_size(size)
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"hint-busy-{lang}-{size['width']}x{size['height']}.png"))
            expect(msg).to_have_text(BUSY[lang])
        # the player moves on (the server no longer busy): a card tapped leaves the refusal behind
        pool.queue_limit = 32
        page.locator("#hand [data-testid=card]").first.tap()
        expect(msg).not_to_have_text(BUSY[lang])
        expect(msg).not_to_have_class("msg notice")
    finally:
        pool.queue_limit = 32
        page.context.close()
