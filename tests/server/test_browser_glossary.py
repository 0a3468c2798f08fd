"""The words of Guandan a newcomer meets at the table (级牌, 庄家, 进贡, 还贡, 报牌, 逢人配 …) explain themselves: a tap
on one (a hover or the keyboard's focus on a desktop) opens a small popover with a sentence or two of the catalogue,
in zh and en, and a link to the rules page's section in a tab of its own; a second tap, a tap elsewhere or Esc closes
it, and a tap elsewhere still does what it does (a card is selected). It lies in the screen, clear of the hand and
the buttons, held sideways (667×375) and on a desktop (1280×800). The words are marked wherever the table writes
them, the server's lines of the log among them, from one glossary (static/glossary.js)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.server.i18n_web import strings

from .conftest import LiveServer, resize
from .test_browser_crowded_table import at_a_server, at_a_table  # noqa: F401  (the fixture, for the tribute's test)
from .test_browser_phone_texts import clipped

pytestmark = pytest.mark.timeout(300)
PHONE = (667, 375)
DESKTOP = (1280, 800)
LEVEL_TEXT = ("The deal is played at one level, the declarer's. Cards of that rank are the level cards: they rank above "
              "the ace, below only the jokers. Each team climbs its own level from 2 to A.")
TRIBUTE_TEXT = ("From the second deal on, before play, the last player of the previous deal (both losers after a double "
                "win) gives the winners the highest card in hand, never a wildcard.")
RETURN_TEXT = ("Whoever receives a tribute card gives one card back to its payer; under the competition rules a 2 to 10 "
               "that is not a level card.")
# what the popover lies over among the hand's cards and the buttons
UNDER_POPOVER = """() => {
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const pop = document.getElementById('term-pop').getBoundingClientRect();
  return [...document.querySelectorAll('#hand .card, #controls button')].filter((n) => n.offsetParent)
    .filter((n) => meet(pop, n.getBoundingClientRect())).map((n) => n.dataset.card || n.id);
}"""


def open_table(browser: Browser, live: LiveServer, size: tuple[int, int], lang: str) -> Page:
    """Seat 1 against three bots, the player's turn in the first deal: the table stands still while it is looked at."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "seed": 3,
                                          "timer": 0, "bot_delay_ms": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Learner"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    w, h = size
    page = browser.new_context(viewport={"width": w, "height": h}, has_touch=w < 1000, bypass_csp=True,
                               reduced_motion="reduce").new_page()
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}')")
    page.goto(f"{live.url}/r/{code}")
    page.wait_for_function("document.body.dataset.status === 'playing' && document.body.dataset.toMove === '0' && "
                           "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
    return page


def press(page: Page, selector: str) -> None:
    """A finger's tap on a phone, the mouse's click on a desktop."""
    if (page.viewport_size or {"width": 0})["width"] < 1000:
        page.tap(selector)
    else:
        page.click(selector)


def section_of(page: Page, live: LiveServer, lang: str) -> str:
    """The popover's link: to the rules page in the page's language, in a tab of its own; its section's id, checked
    to be a heading of that page."""
    link = page.locator("#term-pop [data-testid=term-rules-link]")
    assert link.get_attribute("target") == "_blank"
    href = urlsplit(link.get_attribute("href") or "")
    assert href.path == "/rules" and href.query == f"lang={lang}", href
    anchor = unquote(href.fragment)
    assert f'id="{anchor}"' in httpx.get(f"{live.url}/rules?lang={lang}", timeout=30).text, anchor
    return anchor


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["667x375", "1280x800"])
def test_a_tap_on_the_level_explains_it_and_esc_a_second_tap_or_a_tap_elsewhere_closes_it(
        browser: Browser, live_server: LiveServer, lang: str, size: tuple[int, int]) -> None:
    words = strings(lang)
    page = open_table(browser, live_server, size, lang)
    try:
        term = "#info [data-term=level]"
        expect(page.locator(term)).to_have_text(words["Level"])  # the facts' 级牌 / Level, as it was written
        pop = page.locator("[data-testid=term-pop]")
        expect(pop).to_be_hidden()
        press(page, term)
        expect(pop).to_be_visible()
        assert pop.locator("strong").text_content() == words["Level card (级牌)"]
        assert pop.locator("p").text_content() == words[LEVEL_TEXT]
        assert words[LEVEL_TEXT] != LEVEL_TEXT or lang == "en"  # said in Chinese
        assert page.locator(term).get_attribute("aria-expanded") == "true"
        assert section_of(page, live_server, lang) == ("31-级数与级牌" if lang == "zh" else "31-levels-and-level-cards")
        # whole in the screen, over none of the hand's cards and none of the buttons
        assert clipped(page, "#term-pop") == []
        assert page.evaluate(UNDER_POPOVER) == []
        page.keyboard.press("Escape")
        expect(pop).to_be_hidden()
        assert page.locator(term).get_attribute("aria-expanded") == "false"
        press(page, term)
        expect(pop).to_be_visible()
        press(page, term)  # a second tap
        expect(pop).to_be_hidden()
        # open, a tap on the hand closes it and selects the card: nothing is held up
        press(page, term)
        expect(pop).to_be_visible()
        assert page.locator("#hand .card.selected").count() == 0
        press(page, "#hand .card >> nth=26")
        expect(pop).to_be_hidden()
        expect(page.locator("#hand .card.selected")).to_have_count(1)
    finally:
        page.context.close()


def test_on_a_desktop_a_hover_or_the_keyboard_opens_it_and_its_link_opens_the_rules_beside_the_table(
        browser: Browser, live_server: LiveServer) -> None:
    words = strings("en")
    page = open_table(browser, live_server, DESKTOP, "en")
    try:
        pop = page.locator("[data-testid=term-pop]")
        page.hover("#info [data-term=declarer]" if page.locator("#info [data-term=declarer]").count() else
                   "#info [data-term=level]")
        expect(pop).to_be_visible()
        page.mouse.move(640, 700)  # away: a hover's popover goes with it
        expect(pop).to_be_hidden()
        page.focus("#info [data-term=level]")  # as a Tab would reach it: the keyboard's focus shows it
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        expect(pop).to_be_visible()
        assert pop.locator("p").text_content() == words[LEVEL_TEXT]
        page.keyboard.press("Escape")
        expect(pop).to_be_hidden()
        page.click("#info [data-term=level]")
        anchor = section_of(page, live_server, "en")
        table = page.url
        with page.context.expect_page() as opened:
            page.click("#term-pop [data-testid=term-rules-link]")
        rules = opened.value
        rules.wait_for_load_state()
        expect(rules.locator(f'[id="{anchor}"]')).to_have_text("3.1 Levels and level cards")
        assert page.url == table  # the seat stays at the table
        expect(pop).to_be_visible()  # and the popover with it, until the player closes it
    finally:
        page.context.close()


def test_every_word_of_the_glossary_links_to_a_section_of_the_rules_in_both_languages(
        browser: Browser, live_server: LiveServer) -> None:
    page = open_table(browser, live_server, DESKTOP, "en")
    try:
        terms: dict[str, Any] = page.evaluate(
            "import('/static/glossary.js').then((m) => Object.fromEntries("
            "Object.entries(m.TERMS).map(([k, v]) => [k, v.section])))")
        assert {"level", "wildcard", "declarer", "report", "tribute", "return", "anti", "double", "jiefeng",
                "commitment"} <= set(terms)
        for lang in ("zh", "en"):
            html = httpx.get(f"{live_server.url}/rules?lang={lang}", timeout=30).text
            ids = set(re.findall(r'<h[23] id="([^"]+)"', html))
            for key, section in terms.items():
                if section is not None:  # the deal commitment is this site's, no rule of the game
                    assert section[lang] in ids, (key, lang, section[lang])
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "size"), [("zh", PHONE), ("en", DESKTOP)])
def test_the_tribute_and_the_return_explain_themselves_in_the_facts_and_in_the_servers_log_lines(
        browser: Browser, at_a_server: LiveServer, lang: str, size: tuple[int, int]) -> None:  # noqa: F811
    words = strings(lang)
    page = at_a_table(browser, at_a_server, lang)
    try:
        resize(page, *size)
        pop = page.locator("[data-testid=term-pop]")
        press(page, "#tribute-info [data-term=tribute]")
        expect(pop).to_be_visible()
        assert pop.locator("p").text_content() == words[TRIBUTE_TEXT]
        assert section_of(page, at_a_server, lang).startswith("6-")
        page.keyboard.press("Escape")
        expect(pop).to_be_hidden()
        # the log's lines are the server's words: their 还贡 / Return explains itself as well
        press(page, "#log-toggle")
        term = page.locator("#log [data-term=return]")
        expect(term).to_have_text(re.compile(rf"^{re.escape(words['Return'])}$", re.I))
        press(page, "#log [data-term=return]")
        expect(pop).to_be_visible()
        assert pop.locator("p").text_content() == words[RETURN_TEXT]
        assert clipped(page, "#term-pop") == []
        press(page, "#term-pop p")  # a tap on the popover itself closes it too
        expect(pop).to_be_hidden()
    finally:
        page.context.close()


COMMITMENT_TEXT = ("A fingerprint of this deal's shuffle, shown before play (the SHA-256 of its secret seed). The replay "
                   "reveals the seed once the match is over: anyone can check that the cards were not changed.")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_deal_commitment_says_what_it_is_in_the_glossarys_words_and_esc_closes_it(
        browser: Browser, live_server: LiveServer, lang: str) -> None:
    words = strings(lang)
    page = open_table(browser, live_server, (844, 390), lang)
    try:
        full = page.locator(".commitment-full")
        page.tap("[data-testid=commitment] > summary")
        expect(full).to_be_visible()
        assert words[COMMITMENT_TEXT] in (full.text_content() or "")
        page.keyboard.press("Escape")
        expect(full).to_be_hidden()
    finally:
        page.context.close()


# the point `dx`, `dy` px from the middle of the facts' level word, in the viewport
NEAR_LEVEL = """([dx, dy]) => {
  const r = document.querySelector('#info [data-term=level]').getBoundingClientRect();
  return [r.left + r.width / 2 + dx, r.top + r.height / 2 + dy, r.width, r.height];
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [PHONE, (844, 390)], ids=["667x375", "844x390"])
def test_on_a_touch_screen_a_tap_within_a_fingers_reach_of_a_word_opens_it(
        browser: Browser, live_server: LiveServer, lang: str, size: tuple[int, int]) -> None:
    """The facts' 级牌 is a word's size (23×13 px held sideways): a tap 19 px beside its middle or 18 px over or under
    it opens it as a tap on it does (a box 40 px wide and tall at least), and a second one there closes it; the word
    keeps its look, and a tap farther off opens nothing."""
    page = open_table(browser, live_server, size, lang)
    try:
        pop = page.locator("[data-testid=term-pop]")
        x, y, w, h = page.evaluate(NEAR_LEVEL, [0, 0])
        assert w < 40 and h <= 16, (w, h)  # the look of a word in its line, not a button's
        for dx, dy in [(19, 0), (0, -18), (0, 18)]:
            x, y, _, _ = page.evaluate(NEAR_LEVEL, [dx, dy])
            page.touchscreen.tap(x, y)
            expect(pop).to_be_visible()
            assert pop.get_attribute("data-term") == "level", (dx, dy)
            page.touchscreen.tap(x, y)  # a second tap there closes it
            expect(pop).to_be_hidden()
        x, y, _, _ = page.evaluate(NEAR_LEVEL, [0, 0])
        page.touchscreen.tap(x + w / 2 + 30, y)  # 30 px past its end: the facts' line, no word's
        page.wait_for_timeout(300)
        expect(pop).to_be_hidden()
    finally:
        page.context.close()
