"""How many deals a room plays is said where a player decides to sit down: in the room's lobby facts and in
the start page's open-room list, in the page's language: "2 deals" / "2副", or a whole match played until
a team passes A (no max_deals). Checked on a phone held either way."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from .conftest import LiveServer
from .test_browser_open_rooms import phone

pytestmark = pytest.mark.timeout(120)
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"
SAID = {("zh", 2): "2副", ("zh", 1): "1副", ("zh", None): "整场（打到一方过 A）",
        ("en", 2): "2 deals", ("en", 1): "1 deal", ("en", None): "Whole match, to A"}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server of its own: the rooms made here stay out of the other tests' open-room list."""
    with tempfile.TemporaryDirectory(prefix="guandan-deals-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


def room(live: LiveServer, max_deals: int | None) -> str:
    """A listed lobby with seat 1 taken and two bots: it plays ``max_deals`` deals (None: a whole match)."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        r = c.post("/api/rooms", json={"bots": [None, "greedy", None, "greedy"], "timer": 0, "max_deals": max_deals,
                                       "name": f"deals {max_deals or 'all'}"})
        assert r.status_code == 201, r.text
        code = str(r.json()["code"])
        assert c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "host"}).status_code == 200
    return code


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["390x844", "844x390"])
def test_the_lobby_says_how_many_deals_the_room_plays(browser: Browser, server: LiveServer, lang: str,
                                                      size: tuple[int, int]) -> None:
    codes = {n: room(server, n) for n in (2, 1, None)}
    page = phone(browser, server, size, lang=lang)
    try:
        page.goto(f"{server.url}/")
        for n, code in codes.items():  # the start page's open-room list
            entry = page.locator(f"[data-testid=open-rooms] [data-testid=open-room][data-code='{code}']")
            expect(entry.locator(".tag").nth(1)).to_have_text(SAID[lang, n])
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"open-rooms-deals-{lang}-{size[0]}x{size[1]}.png"))
        for n, code in codes.items():  # the room's own lobby
            page.goto(f"{server.url}/r/{code}")
            page.wait_for_function("document.body.dataset.status === 'lobby'")
            expect(page.locator("[data-testid=lobby-deals]")).to_have_text(SAID[lang, n])
            assert SAID[lang, n] in page.locator("[data-testid=lobby-facts]").inner_text()
            if n == 2:
                page.screenshot(path=str(SHOTS / f"lobby-deals-{lang}-{size[0]}x{size[1]}.png"))
        width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
    finally:
        page.context.close()
