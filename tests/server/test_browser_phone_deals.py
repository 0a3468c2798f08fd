"""What a player on a phone held sideways meets while playing deals through from the start page, each a fault found
by playing them: the header's links are tap targets of 40×40 px as its switches are (the rules link and the way back
to the start page were a word's height, the start page's links a word's width); and in the return phase of a double
tribute the middle of the table gives each tribute a line of its own (run together, a narrow centre broke them
mid-sentence, "· Tribute: Bot 2 · Heuristic" starting a line and "→ Player 1: Small Joker" the next)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .conftest import LiveServer, resize
from .test_browser_table import one_language, play_to_deal_end, seat_me

pytestmark = pytest.mark.timeout(300)
SIDEWAYS = [(667, 375), (844, 390)]

# every header link and switch that is drawn, with its size
HEADER_TARGETS = """() => [...document.querySelectorAll('body > header a, body > header button')]
  .filter((n) => n.getClientRects().length && getComputedStyle(n).visibility !== 'hidden')
  .map((n) => { const b = n.getBoundingClientRect(); return [n.id || n.textContent.trim(), b.width, b.height]; })"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server whose tables pause after each deal as rooms ask."""
    with tempfile.TemporaryDirectory(prefix="guandan-deals-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", next_deal_s=None) as srv:
        yield srv


def small(targets: list[list[object]]) -> list[list[object]]:
    return [t for t in targets if float(str(t[1])) < 39.5 or float(str(t[2])) < 39.5]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_header_links_are_tap_targets_at_the_table_and_on_the_start_page(browser: Browser, server: LiveServer,
                                                                              lang: str) -> None:
    page = seat_me(browser, server, lang)
    try:
        for w, h in SIDEWAYS:
            resize(page, w, h)
            targets = page.evaluate(HEADER_TARGETS)
            assert any(t[0] == "rules-link" for t in targets), targets
            assert small(targets) == [], (w, h, targets)
        page.goto(f"{server.url}/")
        page.wait_for_function("!document.getElementById('quick-play').disabled")
        for w, h in SIDEWAYS:
            resize(page, w, h)
            targets = page.evaluate(HEADER_TARGETS)
            assert len(targets) >= 5, targets  # log in, events, leaderboard, rules, language
            assert small(targets) == [], (w, h, targets)
    finally:
        page.context.close()


# the middle of the table's note in the return phase, line by line as its text breaks them (a line the width wraps
# stays one), or null until it is there; read in the same poll that finds it, as the bots' returns soon end the phase
NOTE_LINES = """() => {
  const note = document.querySelector('#center-note .tribute-note');
  return document.body.dataset.phase === 'return' && note
    ? note.innerText.split('\\n').map((s) => s.trim()).filter(Boolean) : null;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_double_tributes_givings_are_each_read_on_a_line_of_their_own(browser: Browser, server: LiveServer,
                                                                         lang: str) -> None:
    # heuristic bots, seat 0 playing the first deal by the hint with seed 2: it and its partner pay in the second; the
    # bots' pause leaves the return phase on the table long enough to be read
    page = seat_me(browser, server, lang, seed=2, bots=[None, "heuristic", "heuristic", "heuristic"], next_deal_s=120,
                   bot_delay_ms=300)
    try:
        resize(page, 667, 375)
        play_to_deal_end(page)
        page.tap("[data-testid=continue]")
        page.wait_for_function("document.body.dataset.phase === 'tribute' && document.body.dataset.toMove === '0' && "
                               "!document.getElementById('hint').disabled", timeout=30000)
        page.tap("[data-testid=hint]")
        page.wait_for_function("document.querySelectorAll('#hand .card.selected').length === 1")
        page.tap("[data-testid=play]")
        lines = page.wait_for_function(NOTE_LINES, timeout=30000).json_value()
        label = {"zh": "进贡", "en": "Tribute"}[lang]
        assert lines is not None and len(lines) == 2, lines  # two givings, each whole on one line
        for line in lines:
            assert line.startswith(label) and "→" in line, lines
        one_language("\n".join(lines), lang)
    finally:
        page.context.close()


# the deal-end panel's rows, each as [its left edge, its place's left edge, its cards' (or "no cards left") left edge]
REVEAL_COLUMNS = """() => [...document.querySelectorAll('[data-testid=reveal] .reveal-row')].map((row) => [
  row.getBoundingClientRect().left, row.querySelector('.badge').getBoundingClientRect().left,
  row.querySelector('.cards-fan, .none').getBoundingClientRect().left])"""
# the deal-end panel's names, each as [its text, the lines it takes, whether its end is cut off]
REVEAL_NAMES = """() => [...document.querySelectorAll('[data-testid=reveal] .reveal-row .name')].map((n) => [n.innerText,
  n.getClientRects().length === 1 ? Math.round(n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight))
    : n.getClientRects().length, n.scrollWidth > n.clientWidth])"""
# the table's facts: whether any is scrolled out of the column, and each tribute line's height in lines of its type
FACTS = """() => {
  const info = document.getElementById('info');
  return { scrolled: info.scrollHeight > info.clientHeight + 1,
           lines: [...document.querySelectorAll('#tribute-info > div')].map((d) =>
             d.getBoundingClientRect().height / parseFloat(getComputedStyle(d).lineHeight)) };
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_double_tributes_deal_end_and_facts_are_read_without_scrolling(browser: Browser, server: LiveServer,
                                                                         lang: str) -> None:
    """The deal-end panel's places and hands start at one edge in every row of a column, whatever the names' lengths
    (each began where its row's name ended: "Tester 末游" beside "机器人2·启发式 二游"), and held sideways each
    name is whole on one line ("机器人4·" over "启发式" took two); and once the double tribute is
    paid and returned, the table's facts show its four cards whole in the column, none scrolled away under the left
    seat (English's last return was), each of them on one line in Chinese (a line of its own for who holds the card
    made eight lines of four cards, the glyphs of each over the next's)."""
    page = seat_me(browser, server, lang, seed=2, bots=[None, "heuristic", "heuristic", "heuristic"], next_deal_s=120,
                   bot_delay_ms=300)
    try:
        resize(page, 667, 375)
        play_to_deal_end(page)
        for w, h in (*SIDEWAYS, (390, 844), (1280, 800)):
            resize(page, w, h)
            rows = page.evaluate(REVEAL_COLUMNS)
            assert len(rows) == 4, rows
            for left in {round(r[0]) for r in rows}:  # the rows of one column of the panel (two abreast when wide)
                same = [r for r in rows if round(r[0]) == left]
                assert max(r[1] for r in same) - min(r[1] for r in same) < 1, (w, h, rows)
                assert max(r[2] for r in same) - min(r[2] for r in same) < 1, (w, h, rows)
            if (w, h) in SIDEWAYS:  # two rows abreast: each name whole on one line ("机器人4·" over "启发式" was two)
                names = page.evaluate(REVEAL_NAMES)
                assert all(n[1] == 1 and not n[2] for n in names), (w, h, names)
        resize(page, 667, 375)
        page.tap("[data-testid=continue]")
        page.wait_for_function("document.body.dataset.phase === 'tribute' && document.body.dataset.toMove === '0' && "
                               "!document.getElementById('hint').disabled", timeout=60000)
        page.tap("[data-testid=hint]")
        page.wait_for_function("document.querySelectorAll('#hand .card.selected').length === 1")
        page.tap("[data-testid=play]")
        page.wait_for_function("document.body.dataset.phase === 'play' && "
                               "document.querySelectorAll('#tribute-info > div').length === 4", timeout=60000)
        for w, h in SIDEWAYS:
            resize(page, w, h)
            facts = page.evaluate(FACTS)
            assert not facts["scrolled"], (w, h, facts)
            if lang == "zh":
                assert all(n < 1.5 for n in facts["lines"]), (w, h, facts)
    finally:
        page.context.close()
