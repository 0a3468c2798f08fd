"""The table fits every screen it is played on: at phone landscape (844×390, 667×375), phone portrait
(390×844, 360×780), tablet (1024×768) and desktop (1280×800, 1920×1080), with 27 cards in hand, every card and
the play, pass, hint and 理牌 controls lie inside the viewport and the page does not scroll; on touch
screens no control is under 40×40 CSS px; every overlapped card, in the hand, a trick or the deal's end
panel, shows its whole rank; and a deal can be played by taps and swipes on a phone."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(240)
SIZES = [(844, 390, True), (667, 375, True), (390, 844, True), (360, 780, True), (1024, 768, True),
         (1280, 800, False), (1920, 1080, False)]
CONTROLS = ["play", "pass", "hint", "sort", "column", "talk", "mute"]


def practice_room(live: LiveServer) -> tuple[str, str]:
    """A room against three bots, seat 1 taken and ready: the deal starts at once."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "seed": 3,
                                          "timer": 0, "bot_delay_ms": 300}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    return code, token


def open_table(browser: Browser, live: LiveServer, size: tuple[int, int, bool], lang: str = "zh") -> Page:
    w, h, touch = size
    ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=touch, bypass_csp=True)
    page = ctx.new_page()
    code, token = practice_room(live)
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}')")
    page.goto(f"{live.url}/r/{code}")
    page.wait_for_function("document.body.dataset.status === 'playing' && "
                           "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
    return page


def boxes(page: Page) -> dict[str, Any]:
    return page.evaluate("""() => {
      const r = (n) => { const b = n.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom, b.width, b.height]; };
      return {
        cards: [...document.querySelectorAll('[data-testid=hand] [data-testid=card]')].map(r),
        controls: Object.fromEntries(['play', 'pass', 'hint', 'sort', 'column', 'talk', 'mute']
          .map((id) => [id, r(document.querySelector(`[data-testid=${id}]`))])),
        scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
        view: [innerWidth, innerHeight],
      };
    }""")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h, _ in SIZES])
def test_the_whole_hand_and_the_controls_are_on_screen(browser: Browser, live_server: LiveServer,
                                                       size: tuple[int, int, bool]) -> None:
    page = open_table(browser, live_server, size)
    try:
        b = boxes(page)
        vw, vh = b["view"]
        assert b["scroll"][0] <= vw and b["scroll"][1] <= vh, f"the page scrolls: {b['scroll']} in {b['view']}"
        assert len(b["cards"]) == 27
        for left, top, right, bottom, _w, _h in b["cards"]:
            assert left >= 0 and right <= vw and top >= 0 and bottom <= vh, (left, top, right, bottom)
        # every card shows at least a finger's width of itself (the fan overlaps them)
        rows: dict[int, list[float]] = {}
        for left, top, *_ in b["cards"]:
            rows.setdefault(round(top), []).append(left)
        for lefts in rows.values():
            lefts.sort()
            assert min((b - a for a, b in itertools.pairwise(lefts)), default=99) >= 20
        assert len(rows) <= 2
        for name, (left, top, right, bottom, w, h) in b["controls"].items():
            assert left >= 0 and right <= vw and top >= 0 and bottom <= vh, name
            if size[2]:
                assert w >= 40 and h >= 40, (name, w, h)
        # a side seat's Chinese name breaks, if it must, after its "·": the tier's word stays on one line (upright
        # it broke inside it, "机器人4·贪" over "心")
        assert page.evaluate(TIER_LINES) == [1, 1]
    finally:
        page.context.close()


# how many lines each side seat's tier word ("贪心" of "机器人4·贪心") takes
TIER_LINES = """() => ['#pos-left', '#pos-right'].map((id) => {
  const text = document.querySelector(`${id} .nm`).firstChild;
  const range = document.createRange();
  range.setStart(text, text.data.indexOf('·') + 1);
  range.setEnd(text, text.data.length);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
})"""


def test_a_deal_is_played_by_taps_on_a_phone(browser: Browser, live_server: LiveServer) -> None:
    """Touch only: select by tapping cards (a hint selects them for you), play by tapping the table."""
    page = open_table(browser, live_server, (844, 390, True))
    try:
        turns = 0
        while turns < 80:
            page.wait_for_function("document.body.dataset.status === 'over' || document.body.dataset.phase !== 'play' "
                                   "|| (document.body.dataset.toMove === '0' && !document.getElementById('hint').disabled)",
                                   timeout=60_000)
            if page.evaluate("document.body.dataset.status") == "over" or page.evaluate("document.body.dataset.phase") != "play":
                break
            before = int(page.evaluate("document.body.dataset.seq"))
            shown = page.evaluate("Number(document.body.dataset.hints || 0)")
            page.tap("[data-testid=hint]")
            page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {shown}")
            if page.locator("#hand .card.selected").count() == 0:
                page.tap("[data-testid=pass]")
            elif page.locator("#play").is_enabled():
                page.tap("[data-testid=center]")  # tap the table to play
            else:
                page.locator("button.reading").first.tap()
            page.wait_for_function(f"Number(document.body.dataset.seq) > {before} || document.body.dataset.status === 'over'")
            turns += 1
        assert turns > 3
        # a tap on a card selects it, another tap deselects it; a swipe selects a run
        if page.evaluate("document.body.dataset.status") != "over":
            cards = page.locator("[data-testid=hand] [data-testid=card]")
            if cards.count() >= 3:
                cards.nth(0).tap()
                assert "selected" in (cards.nth(0).get_attribute("class") or "")
                cards.nth(0).tap()
                assert "selected" not in (cards.nth(0).get_attribute("class") or "")
    finally:
        page.context.close()


def test_play_now_seats_you_against_three_bots_in_one_tap(browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.select_option("#quick-tier", "random")
        page.tap("[data-testid=quick-play]")
        page.wait_for_url("**/r/*")
        page.wait_for_function("document.body.dataset.status === 'playing' && "
                               "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
        code = page.url.rsplit("/", 1)[1]
        room = httpx.get(f"{live_server.url}/api/rooms/{code}", timeout=30).json()
        assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot", "bot"]
        assert {s["tier"] for s in room["seats"][1:]} == {"random"}
        assert page.evaluate("localStorage.getItem('guandan:quick-tier')") == "random"  # remembered for next time
    finally:
        ctx.close()


FANS = """async () => {
  const { cardNode } = await import('/static/common.js');
  const hands = [['HT', 'ST', 'DT', 'CT', 'HT'], ['DT', 'SJ', 'HQ', 'CK', 'DA'], ['H2', 'ST', 'SJ', 'HA']];
  const fan = (cards) => { const f = document.createElement('span'); f.className = 'cards-fan';
    f.append(...cards.map((c) => cardNode(c, '2', { small: true }))); return f; };
  const trick = document.getElementById('trick-top');
  trick.replaceChildren(fan(hands[0]));
  const summary = document.getElementById('summary');
  summary.classList.remove('hidden');
  const reveal = document.createElement('div'); reveal.className = 'reveal';
  for (const cards of hands) {
    const row = document.createElement('div'); row.className = 'reveal-row team-0';
    const who = document.createElement('span'); who.className = 'who'; who.textContent = 'Bot 2';
    row.append(who, fan(cards)); reveal.append(row);
  }
  summary.replaceChildren(reveal);
  const hidden = [];
  const rows = [...document.querySelectorAll('#trick-top .cards-fan, #summary .cards-fan')].map((f) => [...f.children]);
  const hand = {};  // the hand's rows, by their top
  for (const c of document.querySelectorAll('[data-testid=hand] [data-testid=card]')) {
    (hand[Math.round(c.getBoundingClientRect().top)] ||= []).push(c);
  }
  rows.push(...Object.values(hand));
  for (const cards of rows) {
    cards.sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left);
    for (let i = 0; i + 1 < cards.length; i++) {
      const rank = cards[i].querySelector('.rk').getBoundingClientRect();
      const next = cards[i + 1].getBoundingClientRect();
      if (rank.right > next.left + 0.5) {
        const where = cards[i].closest('#summary') ? 'end panel' : cards[i].closest('.hand') ? 'hand' : 'trick';
        hidden.push(`${where} ${cards[i].dataset.card}: ${rank.right} > ${next.left}`);
      }
    }
  }
  return hidden;
}"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h, _ in SIZES])
def test_every_overlapped_card_shows_its_whole_rank(browser: Browser, live_server: LiveServer,
                                                    size: tuple[int, int, bool]) -> None:
    """A fanned card shows its rank whole ("10", not "1"), in a trick and in the deal's end panel."""
    page = open_table(browser, live_server, size, lang="en")
    try:
        hidden = page.evaluate(FANS)
        assert hidden == [], "\n".join(hidden)
    finally:
        page.context.close()
