"""On a desktop (1280×800) the table's facts are read whole, in zh and en: a long tribute line was cut at the corner's
215 px ("Anti-tribute: Bot 2 · Gre…", a double tribute's givers cut to "…"), though a desktop has the
room. Each fact wraps in its corner, over neither the top seat nor the plays. Screenshots go to
$TMPDIR/guandan-shots."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from guandan.server.i18n_web import strings
from guandan.server.rooms import Room

from .conftest import LiveServer, resize
from .test_browser_crowded_table import OVERLAPS, at_a_table, each_clipped, seat_held_server

pytestmark = pytest.mark.timeout(300)
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"
DESK: ViewportSize = {"width": 1280, "height": 800}
# seat 1 against three greedy bots (its own 托管 greedy too, so that the first deal is the same every run): with this
# seed the third deal's payer, seat 2, holds both big jokers and refuses the tribute (抗贡)
ANTI_SEED = 8

# every line of the table's facts, and each part of a tribute line, that is drawn: none may be cut by its box or the corner
FACT_NODES = """[...document.querySelectorAll(
  '#info > *, #tribute-info > div, #tribute-info > div > span, #tribute-info .receiver > span')]
  .filter((n) => n.getClientRects().length)"""


def held_server() -> Iterator[LiveServer]:
    """A server whose player's seat, played by a bot (托管) through two deals, is left to the player from the third
    on: the table waits at the player's turn, the third deal's tribute in its facts."""
    with seat_held_server("guandan-desk-facts-") as srv:
        yield srv


@pytest.fixture(scope="module")
def at_a_server() -> Iterator[LiveServer]:
    yield from held_server()


@pytest.fixture(scope="module")
def anti_server() -> Iterator[LiveServer]:
    yield from held_server()


def facts_read_whole(page: Page) -> None:
    assert page.evaluate(OVERLAPS) == []  # the facts, the top seat, the plays: each clear of the others
    assert each_clipped(page, FACT_NODES) == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_double_tribute_is_read_whole_on_a_desktop(browser: Browser, at_a_server: LiveServer, lang: str) -> None:
    page = at_a_table(browser, at_a_server, lang)  # a team at A, a double tribute, both cards returned
    try:
        resize(page, DESK["width"], DESK["height"])
        given = page.locator("#tribute-info > div")
        assert given.count() == 4
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"desk-facts-double-tribute-{lang}.png"))
        # the giver's name is shown (it was cut to "…"), whole
        for k in range(4):
            giver = given.nth(k).locator(".giver")
            expect(giver).to_be_visible()
            assert (giver.text_content() or "").strip()
        facts_read_whole(page)
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_anti_tribute_is_read_whole_on_a_desktop(browser: Browser, anti_server: LiveServer, lang: str) -> None:
    with httpx.Client(base_url=anti_server.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 3,
                                          "seed": ANTI_SEED, "timer": 0, "bot_delay_ms": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        room: Room = anti_server.app.state.service.rooms[code]
        room.seats[0].auto = True
        room.seats[0].tier = "greedy"
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    page = browser.new_context(viewport=DESK, bypass_csp=True, reduced_motion="reduce").new_page()
    try:
        page.goto(f"{anti_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}')")
        page.goto(f"{anti_server.url}/r/{code}")
        page.wait_for_function("document.body.dataset.deal === '2' && document.body.dataset.toMove === '0'", timeout=60_000)
        page.click("#auto-off")
        expect(page.locator("#auto-banner")).to_be_hidden()
        anti = page.locator("#tribute-info > div[data-type=anti_tribute]")
        expect(anti).to_have_count(1)
        words = strings(lang)
        said = anti.text_content() or ""
        # who refused, and why, read on the table (not only in the line's tooltip)
        assert said == anti.get_attribute("title")
        assert words["Bot {n} · {tier}"].format(n=2, tier=words["greedy"]) in said, said
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"desk-facts-anti-tribute-{lang}.png"))
        facts_read_whole(page)
    finally:
        page.context.close()
