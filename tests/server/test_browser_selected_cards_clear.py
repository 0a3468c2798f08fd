"""A selected card rises out of the hand, and a card pressed and pulled up (to move the selection into a group, 理牌)
rises further: on a phone held sideways (667×375, 740×360, 844×390), upright (390×844) and on a laptop (1280×800), in
zh and en, with 27 cards in hand and with a few, neither lies over a seat's plate (its ring when the seat is to move
too), a played card, a button, the words beside the buttons or those words shown whole. Held sideways the side seats'
plates sit just above the hand's two ends, and a card pulled up covered the right seat's marks. The cards keep their
size. Screenshots go to $TMPDIR/guandan-shots."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, CDPSession, Page

from .conftest import LiveServer, resize
from .test_browser_table import MY_TURN_OR_END, take_turn

pytestmark = pytest.mark.timeout(300)
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"
SIZES = [(667, 375), (740, 360), (844, 390), (390, 844), (1280, 800)]
SHORT = 8  # a short hand: this many cards or fewer
# greedy bots dealt from this seed: the player, playing the hint, has a turn with a short hand before the deal ends
SEED = 5

# what a selected card may not lie over: each seat's plate with its to-move ring (a 2 px box-shadow round it), the plays
# on the table, the buttons, the words beside them and those words shown whole above the hand
OVER = """() => {
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const ring = (r) => ({ left: r.left - 2, top: r.top - 2, right: r.right + 2, bottom: r.bottom + 2 });
  const shown = (s) => [...document.querySelectorAll(s)].filter((n) => n.offsetParent);
  const others = [
    ...shown('#table .seat-plate').map((n) => [`#${n.id}`, ring(n.getBoundingClientRect())]),
    ...shown('#center .cards-fan, #controls button, .side-toggles button, #msg, #msg-full')
      .map((n) => [n.id ? `#${n.id}` : n.closest('[id]').id, n.getBoundingClientRect()]),
  ];
  return shown('#hand .card.selected').flatMap((c) => others.filter(([, r]) => meet(c.getBoundingClientRect(), r))
    .map(([what]) => `${c.dataset.card} ~ ${what}`));
}"""

# the hand's cards to select, by index: each row's two ends and the hand's middle card
ENDS = """() => {
  const rows = {};
  [...document.querySelectorAll('#hand .card')].forEach((c, k) => {
    (rows[Math.round(c.getBoundingClientRect().top)] ||= []).push(k); });
  const n = document.querySelectorAll('#hand .card').length;
  return [...new Set([...Object.values(rows).flatMap((ks) => [ks[0], ks[ks.length - 1]]), Math.floor(n / 2)])]
    .sort((a, b) => a - b);
}"""
# each card's size, and how much of it shows to the right of the card before it (what a finger taps)
SIZES_SHOWN = """() => [...document.querySelectorAll('#hand .card')].map((c, k, all) => {
  const r = c.getBoundingClientRect();
  const prev = k && all[k - 1].getBoundingClientRect();
  return [Math.round(r.width), Math.round(r.height), prev && Math.abs(prev.top - r.top) < 2 ? r.left - prev.left : r.width];
})"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-selected-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


def seat_me(browser: Browser, live: LiveServer, lang: str) -> Page:
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "seed": SEED,
                                          "timer": 0, "bot_delay_ms": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    page = browser.new_context(viewport={"width": 667, "height": 375}, has_touch=True, bypass_csp=True,
                               reduced_motion="reduce").new_page()
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}');"
                  "localStorage.setItem('guandan:sort', 'rank')")
    page.goto(f"{live.url}/r/{code}")
    page.wait_for_function("document.body.dataset.status === 'playing' && "
                           "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
    page.wait_for_function(MY_TURN_OR_END, timeout=30_000)
    return page


def tap_cards(page: Page, picks: list[int]) -> None:
    for k in picks:  # on the strip of each that shows (the next card lies over the rest)
        page.locator("#hand .card").nth(k).tap(position={"x": 5, "y": 14})


def touch(cdp: CDPSession, kind: str, x: float, y: float) -> None:
    points = [] if kind in ("touchEnd", "touchCancel") else [{"x": x, "y": y}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def look(page: Page, where: str) -> list[str]:
    """The overlaps at each size, with the selection at rest and pulled up by a finger; screenshots of both."""
    found: list[str] = []
    cdp = page.context.new_cdp_session(page)
    for w, h in SIZES:
        resize(page, w, h)  # the page's resize handlers lay the hand out anew
        picks: list[int] = page.evaluate(ENDS)
        tap_cards(page, picks)
        assert page.locator("#hand .card.selected").count() == len(picks)
        if page.evaluate("document.getElementById('msg').classList.contains('more')"):
            page.tap("#msg")  # the words, cut beside the buttons, shown whole above the hand
            assert page.locator("#msg-full").is_visible()
        name = f"{page.evaluate('document.documentElement.lang')[:2]}-{w}x{h}-{where}"
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"selected-clear-{name}.png"))
        found += [f"{w}x{h} at rest: {o}" for o in page.evaluate(OVER)]
        # a finger presses the right end's selected card and pulls it up: the selection is lifted, and held there
        box: Any = page.locator("#hand .card.selected").last.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * .7
        touch(cdp, "touchStart", x, y)
        for dy in (10, 20, 30, 40):
            touch(cdp, "touchMove", x, y - dy)
        assert page.evaluate("document.getElementById('hand').classList.contains('lifting')")
        page.screenshot(path=str(SHOTS / f"selected-clear-{name}-lifted.png"))
        found += [f"{w}x{h} pulled up: {o}" for o in page.evaluate(OVER)]
        touch(cdp, "touchCancel", x, y - 40)  # let go without a drop: the hand as it was
        assert not page.evaluate("document.getElementById('hand').classList.contains('lifting')")
        page.tap("#pos-top")  # the words shown whole close
        tap_cards(page, picks)
        assert page.locator("#hand .card.selected").count() == 0
    cdp.detach()
    return found


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_selected_card_lies_over_no_plate_play_button_or_words(browser: Browser, server: LiveServer,
                                                                 lang: str) -> None:
    page = seat_me(browser, server, lang)
    try:
        # the cards keep their size and the strip a finger taps (a phone held sideways: 41.6×56.8, 22 px and more)
        resize(page, 667, 375)
        sizes: list[list[float]] = page.evaluate(SIZES_SHOWN)
        assert {(cw, ch) for cw, ch, _ in sizes} == {(42, 57)}, sizes
        assert min(strip for *_, strip in sizes) >= 22, sizes
        found = look(page, "27")
        for _ in range(80):  # the deal by the hint, to the player's first turn with a short hand
            page.wait_for_function(MY_TURN_OR_END, timeout=30_000)
            assert not page.locator("[data-testid=continue]").count(), "the deal ended before the hand was short"
            if page.locator("#hand .card").count() <= SHORT:
                break
            take_turn(page)
        found += look(page, "short")
        assert found == [], "\n".join(found)
    finally:
        page.context.close()
