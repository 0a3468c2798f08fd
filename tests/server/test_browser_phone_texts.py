"""What the table says is read whole on a phone, held sideways (844×390, 667×375) and upright (390×844), in zh
and en: every seat's name with its bot's tier (a side seat read "Bot 4 · Heuri…"), a practice room's badge (cut,
then left out held sideways), and the deal commitment, whose whole SHA-256 a player checking the deal can open
with a tap (the table showed its first ten digits, themselves cut to "c612db…"). Nothing of these is clipped by
its box or an ancestor's, nor off the screen; a side seat's plate lies clear of the hand and the controls; the
commitment's chip is a touch target of 40×40 px at least."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from guandan.server.i18n_web import strings

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(240)
SIZES = [(844, 390), (667, 375), (390, 844)]
# the longest tier's name at the side seats ("Bot 2 · Search (strongest)", "机器人2·搜索（最强）")
BOTS = [None, "search", "heuristic", "search"]

# A node's text that is hidden: cut by its own box (an ellipsis, a clamp, overflow hidden) or by an ancestor that
# clips, or off the screen; [] when all of it is in view.
CLIPPED = """(selector) => {
  const node = document.querySelector(selector);
  if (!node) return ['no such node'];
  const out = [];
  const r = node.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return ['not shown'];
  if (node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1)
    out.push(`its own box: ${node.scrollWidth}×${node.scrollHeight} in ${node.clientWidth}×${node.clientHeight}`);
  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    out.push(`off the screen: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
  // an ancestor that clips, unless the node (or a box on the way up) is positioned out of it: an absolute box is clipped
  // by its containing block and what holds that, not by the boxes between
  let out_of = null;
  for (let c = node, a = node.parentElement; a; c = a, a = a.parentElement) {
    if (!out_of && getComputedStyle(c).position === 'absolute') out_of = c.offsetParent;
    if (out_of && a !== out_of) continue;
    out_of = null;
    const cs = getComputedStyle(a);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect();
    if (r.left < b.left - 0.5 || r.top < b.top - 0.5 || r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5)
      out.push(`cut by ${a.tagName.toLowerCase()}#${a.id}.${a.className}`);
  }
  return out;
}"""


def open_table(browser: Browser, live: LiveServer, size: tuple[int, int], lang: str) -> Page:
    """Seat 1 of a practice room (a chosen seed) against three bots, the deal begun, the bots' first plays made."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        created = c.post("/api/rooms", json={"bots": BOTS, "max_deals": 1, "seed": 3, "timer": 0,
                                             "bot_delay_ms": 0}).json()
        code = created["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
        assert c.get(f"/api/rooms/{code}").json()["practice"] is True
    w, h = size
    page = browser.new_context(viewport={"width": w, "height": h}, has_touch=True, bypass_csp=True,
                               reduced_motion="reduce").new_page()
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}')")
    page.goto(f"{live.url}/r/{code}")
    # the player's turn: the table stands still while it is looked at
    page.wait_for_function("document.body.dataset.status === 'playing' && document.body.dataset.toMove === '0' && "
                           "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
    return page


# The cards and buttons that a side seat's plate lies over (the bots' plays draw the table anew: every look at it is
# one script, so that no node is replaced while it is measured)
UNDER_PLATES = """() => {
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const others = [...document.querySelectorAll('#hand .card, #controls button')].filter((n) => n.offsetParent);
  return ['#pos-left', '#pos-right'].flatMap((id) => {
    const plate = document.querySelector(id).getBoundingClientRect();
    return others.filter((n) => meet(plate, n.getBoundingClientRect())).map((n) => `${id} ~ ${n.dataset.card || n.id}`);
  });
}"""


def clipped(page: Page, selector: str) -> list[str]:
    found: list[str] = page.evaluate(CLIPPED, selector)
    return found


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_seat_names_the_practice_badge_and_the_whole_commitment_are_read_on_a_phone(
        browser: Browser, live_server: LiveServer, size: tuple[int, int], lang: str) -> None:
    words = strings(lang)
    page = open_table(browser, live_server, size, lang)
    try:
        # every seat's name, the bot's tier with it, whole
        for plate, seat in (("#pos-right", 1), ("#pos-top", 2), ("#pos-left", 3), ("#pos-me", 0)):
            tier = BOTS[seat]
            name = words["Bot {n} · {tier}"].format(n=seat + 1, tier=words[tier]) if tier else "Tester"
            if plate == "#pos-me" and size[0] < size[1]:
                continue  # upright, the player's own plate is its avatar and team (its name is the player's)
            assert page.locator(f"{plate} .nm").text_content() == name
            assert clipped(page, f"{plate} .nm") == [], (plate, name)
        assert page.evaluate(UNDER_PLATES) == []  # the side seats' plates lie clear of the cards and the buttons
        # the practice badge, whole
        assert page.locator("#practice").text_content() == words["Practice"]
        assert clipped(page, "#practice") == []
        # the commitment's chip: whole, a touch target; a tap opens the whole hash, whole, another closes it
        chip = "[data-testid=commitment] > summary"
        assert clipped(page, chip) == []
        chip_box: dict[str, Any] = page.evaluate(f"() => document.querySelector('{chip}').getBoundingClientRect().toJSON()")
        assert chip_box["width"] >= 40 and chip_box["height"] >= 40, chip_box
        full = page.locator("[data-testid=commitment-hash]")
        assert not full.is_visible()
        page.tap(chip)
        commitment = page.locator("[data-testid=commitment]").get_attribute("data-commitment") or ""
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        assert full.is_visible() and full.text_content() == commitment
        assert clipped(page, "[data-testid=commitment-hash]") == []
        page.tap(chip)
        assert not full.is_visible()
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def watch_server() -> Iterator[LiveServer]:
    """A server of its own for the matches of four bots watched here (the session's keeps its places for the other
    tests), whose bots play at the room's own pace (the live server's default of 0 ms is lifted): a deal lasts
    about a minute, so the match is still being played when a slow machine has opened the page."""
    with tempfile.TemporaryDirectory(prefix="guandan-web-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", max_watched_per_address=4, bot_delay_ms=None,
                       watch_min_bot_delay_ms=50) as srv:
        yield srv


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_watched_practice_match_shows_its_badge_and_its_whole_commitment_through_the_bots_plays(
        browser: Browser, watch_server: LiveServer, lang: str) -> None:
    """Four bots dealt from a chosen seed, watched on a phone held sideways: the badge says it is practice, and the
    whole hash, once opened, stays open as the bots play (the table is drawn anew at each play) until a tap
    elsewhere closes it."""
    with httpx.Client(base_url=watch_server.url, timeout=30) as c:
        created = c.post("/api/rooms", json={"bots": ["heuristic"] * 4, "max_deals": 2, "seed": 3, "timer": 0,
                                             "bot_delay_ms": 800, "watch": True}).json()
    page = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True,
                               reduced_motion="reduce").new_page()
    try:
        page.goto(f"{watch_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
        page.goto(f"{watch_server.url}/r/{created['code']}")
        page.wait_for_function("document.body.dataset.status === 'playing' && document.body.dataset.seq")
        assert page.locator("#practice").text_content() == strings(lang)["Practice"]
        assert clipped(page, "#practice") == []
        for plate in ("#pos-left", "#pos-right", "#pos-top", "#pos-me"):
            assert clipped(page, f"{plate} .nm") == [], plate
        full = page.locator("[data-testid=commitment-hash]")
        page.tap("[data-testid=commitment] > summary")
        assert full.is_visible() and clipped(page, "[data-testid=commitment-hash]") == []
        seq = int(page.evaluate("document.body.dataset.seq"))
        # the table drawn anew by the next play, at most 0.8 s away (the room's pace), on a loaded machine later
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=60_000)
        assert page.evaluate("document.body.dataset.status") == "playing"
        assert full.is_visible()
        page.tap("#pos-top")  # elsewhere on the table
        assert not full.is_visible()
    finally:
        page.context.close()


def test_the_message_beside_the_buttons_keeps_its_words_when_the_players_plate_is_wide(
        browser: Browser, live_server: LiveServer) -> None:
    """At 667×375 in English the buttons leave the message little room; a "Reported 6" badge on the player's own plate
    (as table.js marks a seat with few cards) took the rest, and "Your turn" was 2 px wide. The plate gives way,
    its marks on two lines, every one of them whole."""
    page = open_table(browser, live_server, (667, 375), "en")
    try:
        page.evaluate("""() => {
          const badge = document.createElement('span');
          badge.className = 'badge warn report';
          badge.textContent = 'Reported 6';
          document.querySelector('#pos-me .marks').append(badge);
        }""")
        assert page.locator("#msg").text_content() == strings("en")["Your turn"]
        assert clipped(page, "#msg") == []
        for mark in range(page.locator("#pos-me .marks .badge").count()):
            assert clipped(page, f"#pos-me .marks .badge:nth-child({mark + 1})") == [], mark
        assert clipped(page, "#controls") == []
    finally:
        page.context.close()
