"""The table at its most crowded, read on a phone held sideways (667×375, 844×390), upright (390×844) and on a laptop
(1280×800), in zh and en, each a fault found there: the hint's play and why, cut to three lines beside the buttons
("straight flush ♠3–7: ♠3 ♠4…"), are shown whole above the hand, over no card, until the next tap; a team at A
during a double tribute ("A attempts" and four lines of cards given among the table's facts) laid the left seat's
plate over the facts' last lines, and at 740×360 scrolled the last one away: nothing on the table overlaps, every fact
is in view; the deal-end panel covered the log's switch until it was closed: the log opens while the panel shows, and
lies beside it, every button of the panel (a deal's end, the match's) in reach; the match's end made the panel taller,
over the player's own plate: it leaves it.
Screenshots go to $TMPDIR/guandan-shots."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.server.i18n_web import strings
from guandan.server.rooms import Room
from guandan.server.table import TableService

from .conftest import LiveServer, resize
from .test_browser_phone_texts import CLIPPED, clipped
from .test_browser_table import MY_TURN_OR_END, PAUSE_S, act_on_hint, ask_hint, play_to_deal_end, seat_me

pytestmark = pytest.mark.timeout(300)
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"
SIZES = [(667, 375), (844, 390), (390, 844), (1280, 800)]
# and a phone 360 px tall held sideways, whose facts corner is the shortest (740×360)
AT_A_SIZES = [*SIZES, (740, 360)]
# two boxes share more than a hair of area
MEET = """(a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
  && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5"""


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def each_clipped(page: Page, nodes: str) -> list[Any]:
    """What of each node is hidden (CLIPPED), as [index, text, what] for each node not read whole: ``nodes`` a
    script's expression for a list of nodes (a null one is no such node). Measured in one script, so that the page
    cannot draw itself anew between two nodes' measures."""
    found: list[Any] = page.evaluate(f"""() => {{
      const clipped = {CLIPPED};
      return ({nodes}).map((n, i) => {{
        if (!n) return [i, null, ['no such node']];
        n.dataset.measured = '';
        const out = clipped('[data-measured]');
        delete n.dataset.measured;
        return [i, n.textContent, out];
      }}).filter(([, , out]) => out.length);
    }}""")
    return found


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-crowded-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


# --- the hint's words, whole -------------------------------------------------------------------------------------
# the words beside the buttons are more than their box holds (three lines, a few words wide at 667 px)
MSG_CUT = "(() => { const m = document.getElementById('msg'); return m.scrollHeight > m.clientHeight + 1; })()"
# what the whole words' box lies over: the hand's cards, the buttons, the seats' plates
UNDER_FULL = f"""() => {{
  const meet = {MEET};
  const full = document.querySelector('[data-testid=msg-full]').getBoundingClientRect();
  return [...document.querySelectorAll('#hand .card, #controls button, .seat-plate')].filter((n) => n.offsetParent)
    .filter((n) => meet(full, n.getBoundingClientRect())).map((n) => n.dataset.card || n.id);
}}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_hints_words_cut_beside_the_buttons_are_read_whole_above_the_hand(browser: Browser, server: LiveServer,
                                                                            lang: str) -> None:
    # seed 6: a deal whose hints run past the row in both languages (seed 5's Chinese ones fit once the seat's plate
    # wrote its team 队1, a space narrower than 队 1)
    page = seat_me(browser, server, lang, seed=6)
    try:
        page.set_viewport_size({"width": 667, "height": 375})
        for _ in range(60):  # the deal's turns by the hint, up to the first whose words the row cuts
            page.wait_for_function(MY_TURN_OR_END, timeout=30000)
            assert not page.locator("[data-testid=continue]").count(), "no hint of the deal was cut"
            before = int(page.evaluate("document.body.dataset.seq"))
            ask_hint(page)
            if page.evaluate(MSG_CUT) and page.locator("#hand .card.selected").count() > 1:
                break
            act_on_hint(page)
            page.wait_for_function(f"Number(document.body.dataset.seq) > {before} || "
                                   "document.querySelector('[data-testid=continue]')")
        said = page.locator("#msg").text_content() or ""
        assert " — " in said  # the play, and why
        full = page.locator("[data-testid=msg-full]")
        # the hint asked for is shown whole at once: every word in view, over no card, button or seat
        expect(full).to_be_visible()
        assert full.text_content() == said
        assert clipped(page, "[data-testid=msg-full]") == []
        assert page.evaluate(UNDER_FULL) == []
        shoot(page, f"hint-whole-{lang}-667x375")
        for w, h in SIZES[1:]:  # wherever the row cuts it, the same
            resize(page, w, h)
            page.tap("#pos-top")  # the table drawn anew at its size: a tap on it closes the words and opens them
            if page.evaluate(MSG_CUT):
                page.tap("#msg")
                expect(full).to_be_visible()
                assert full.text_content() == said and clipped(page, "[data-testid=msg-full]") == []
                assert page.evaluate(UNDER_FULL) == []
            shoot(page, f"hint-whole-{lang}-{w}x{h}")
        resize(page, 667, 375)
        # a tap elsewhere closes it (the cards stay uncovered), a tap on the cut words opens it again
        page.tap("#pos-top")
        expect(full).to_be_hidden()
        assert page.evaluate("document.getElementById('msg').classList.contains('more')")
        page.tap("#msg")
        expect(full).to_be_visible()
        assert full.text_content() == said
        page.tap("#pos-top")
        expect(full).to_be_hidden()
    finally:
        page.context.close()


# --- a team at A, a double tribute: nothing overlaps ---------------------------------------------------------------
# the table's pieces, each against every other
OVERLAPS = f"""() => {{
  const meet = {MEET};
  const parts = ['#info', '#pos-left', '#pos-top', '#pos-right', '.side-toggles', '#hand', '#controls', '#center']
    .map((s) => [s, document.querySelector(s)]).filter(([, n]) => n && n.offsetParent);
  const out = [];
  parts.forEach(([s, n], i) => parts.slice(i + 1).forEach(([t, m]) => {{
    if (s === '#center' && t === '#hand') return;
    if (meet(n.getBoundingClientRect(), m.getBoundingClientRect())) out.push(`${{s}} ~ ${{t}}`);
  }}));
  return out;
}}"""


@contextmanager
def seat_held_server(prefix: str) -> Iterator[LiveServer]:
    """A server whose player's seat (seat 0), played by a bot (托管) while the match's finished deals are fewer than
    two, is then left to the player: the table waits at the player's turn, in the state the test builds, however
    fast the bots are."""
    with tempfile.TemporaryDirectory(prefix=prefix) as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        service: TableService = srv.app.state.service
        bot_move = service._bot_move

        async def held(room: Room, seat: int) -> None:
            if seat == 0 and room.match is not None and len(room.match.deals) >= 2:
                return
            await bot_move(room, seat)

        service._bot_move = held  # type: ignore[method-assign]
        yield srv


@pytest.fixture(scope="module")
def at_a_server() -> Iterator[LiveServer]:
    """Rooms that start a team at A (as an online event's late-team award does: Room.start), the player's seat held
    for the player (seat_held_server)."""
    with seat_held_server("guandan-at-a-") as srv:
        yield srv


# seat 1 against three greedy bots, team 2 at A from the start: with this seed team 2 ends the first two deals third
# and last (双下), refuses the second deal's tribute (抗贡) and pays a double tribute in the third
AT_A_SEED = 1


def at_the_return(browser: Browser, live: LiveServer, lang: str, route: Any = None) -> Page:
    """The third deal's return (还贡) of AT_A_SEED's match: team 2, at A, pays a double tribute, and the player (seat 1,
    team 1, under the competition rules) returns a card, its seat taken back from the bot that played it so far."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 3,
                                          "seed": AT_A_SEED, "timer": 0, "bot_delay_ms": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        room: Room = live.app.state.service.rooms[code]
        room.config = room.config.model_copy(update={"award": (1, 12)})  # team 2 starts at A
        room.seats[0].auto = True
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    page = browser.new_context(viewport={"width": 667, "height": 375}, has_touch=True, bypass_csp=True,
                               reduced_motion="reduce").new_page()
    if route is not None:
        page.route_web_socket(re.compile(r"/ws/"), route)
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}');"
                  "localStorage.setItem('guandan:sort', 'rank')")
    page.goto(f"{live.url}/r/{code}")
    page.wait_for_function("document.body.dataset.deal === '2' && document.body.dataset.phase === 'return' && "
                           "document.body.dataset.toMove === '0'", timeout=60_000)
    page.tap("#auto-off")
    expect(page.locator("#auto-banner")).to_be_hidden()
    return page


def at_a_table(browser: Browser, live: LiveServer, lang: str) -> Page:
    page = at_the_return(browser, live, lang)
    page.locator("#hand .card:not(.ineligible)").first.tap()
    page.tap("[data-testid=play]")
    page.wait_for_function("document.body.dataset.phase === 'play' && document.body.dataset.toMove === '0' && "
                           "!document.getElementById('hint').disabled", timeout=30_000)
    return page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_team_at_a_in_a_double_tribute_lays_nothing_over_anything(browser: Browser, at_a_server: LiveServer,
                                                                    lang: str) -> None:
    words = strings(lang)
    page = at_a_table(browser, at_a_server, lang)
    try:
        facts = page.locator("#info")
        expect(facts).to_contain_text(words["A failures"])
        given: list[Any] = page.evaluate("[...document.querySelectorAll('#tribute-info > div')].map((n) => n.dataset.type)")
        assert given == ["tribute", "tribute", "return", "return"], given  # a double tribute, both cards returned
        for w, h in AT_A_SIZES:
            resize(page, w, h)
            shoot(page, f"at-a-double-tribute-{lang}-{w}x{h}")
            assert page.evaluate(OVERLAPS) == [], (w, h)
            # and every fact is in view, whole (none pushed under the plate, nor scrolled away), each line's card too
            assert each_clipped(page, "[...document.querySelectorAll('#info > *')]") == [], (w, h)
            assert each_clipped(page, "[...document.querySelectorAll('#tribute-info > div')]"
                                      ".map((line) => line.querySelector('.tcard'))") == [], (w, h)
    finally:
        page.context.close()


# each card given, as drawn, then drawn plain (weight 400, no stroke): the same pixels are a name not drawn bold
PLAIN = """(n) => { n.style.fontWeight = '400'; n.style.webkitTextStroke = '0'; }"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_card_given_is_named_in_bold_the_jokers_too(browser: Browser, at_a_server: LiveServer,
                                                          lang: str) -> None:
    """The facts' lines of a tribute draw each card's name bold: 小王 was drawn plain beside a bold ♠A, the CJK font
    having no bold face (an English Small Joker was bold)."""
    page = at_a_table(browser, at_a_server, lang)
    try:
        resize(page, 844, 390)
        cards = page.locator("#tribute-info .tcard")
        assert cards.evaluate_all("(ns) => ns.map((n) => n.dataset.card)") == ["LJ", "SA", "C3", "S2"]
        plain: list[str] = []
        for i in range(cards.count()):
            card = cards.nth(i)
            drawn = card.screenshot(animations="disabled")
            card.evaluate(PLAIN)
            if card.screenshot(animations="disabled") == drawn:
                plain.append(card.text_content() or "")
            card.evaluate("(n) => n.removeAttribute('style')")
        assert plain == []
    finally:
        page.context.close()


# --- a spectator's facts, held sideways -------------------------------------------------------------------------
SIDEWAYS = [(844, 390), (740, 360), (667, 375)]
# what of the facts is not read at ease: each line's glyphs (a text node's boxes) and each badge, measured by the page's
# own boxes: cut by the column (its overflow clips), within 6 px of the felt's rounded edge, or over another line's
FACTS_TIGHT = """() => {
  const info = document.getElementById('info'), felt = document.getElementById('table').getBoundingClientRect();
  const col = info.getBoundingClientRect();
  const boxes = [];
  const walk = document.createTreeWalker(info, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.data.trim() || !n.parentElement.getClientRects().length) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const r of range.getClientRects()) boxes.push([n.data.trim(), r, n.parentElement]);
  }
  for (const b of info.querySelectorAll('.badge')) boxes.push([`[${b.textContent}]`, b.getBoundingClientRect(), b]);
  const out = [];
  const at = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  for (const [text, r] of boxes) {
    if (r.left < col.left - .5 || r.top < col.top - .5 || r.right > col.right + .5 || r.bottom > col.bottom + .5)
      out.push(`cut by the column: ${text} ${at(r)} in ${at(col)}`);
    if (r.left - felt.left < 6 || r.top - felt.top < 6) out.push(`at the felt's edge: ${text} ${at(r)}`);
  }
  boxes.forEach(([text, r, node], i) => boxes.slice(i + 1).forEach(([other, q, on]) => {
    if (node.contains(on) || on.contains(node) || Math.abs(r.top - q.top) < 1) return;  // one box, or one line
    if (Math.min(r.right, q.right) - Math.max(r.left, q.left) > .5 && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > .5)
      out.push(`over each other: ${text} ${at(r)} and ${other} ${at(q)}`);
  }));
  if (info.scrollHeight > info.clientHeight + 1) out.push(`scrolled: ${info.scrollHeight} in ${info.clientHeight}`);
  return out;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_spectators_facts_fit_their_column_held_sideways(browser: Browser, at_a_server: LiveServer,
                                                           lang: str) -> None:
    """A spectator's facts are a line longer (观战中) and a team at A in a double tribute fills them: held sideways
    they ran 4 px from the felt's rounded edge, the column cut the first line's top and each line's glyphs lay over the
    next's; every fact is whole, in view and clear of its neighbours, a Chinese tribute line on one line."""
    page = at_a_table(browser, at_a_server, lang)
    watch = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True,
                                reduced_motion="reduce").new_page()
    try:
        watch.goto(f"{at_a_server.url}/")
        watch.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
        watch.goto(page.url)
        watch.wait_for_function("document.body.dataset.status === 'playing' && document.body.dataset.phase === 'play'",
                                timeout=30_000)
        expect(watch.locator("#info")).to_contain_text(strings(lang)["Spectating"])
        for w, h in SIDEWAYS:
            resize(watch, w, h)
            shoot(watch, f"spectator-facts-{lang}-{w}x{h}")
            assert watch.evaluate(FACTS_TIGHT) == [], (w, h)
            assert each_clipped(watch, "[...document.querySelectorAll('#info > *')]") == [], (w, h)
            # four lines of one height, none wrapped (in English a joker's may be: "Small Joker" over "→ Tester")
            lines: list[int] = watch.evaluate("[...document.querySelectorAll('#tribute-info > div')]"
                                              ".map((n) => Math.round(n.offsetHeight))")
            assert len(lines) == 4 and (lang == "en" or len(set(lines)) == 1), (w, h, lines)
    finally:
        watch.context.close()
        page.context.close()


# --- the deal-end panel leaves the log's switch ------------------------------------------------------------------
@pytest.fixture(scope="module")
def pausing_server() -> Iterator[LiveServer]:
    """A server whose tables pause after each deal until the player taps 继续: the pause outlasts the test (PAUSE_S),
    however slow the machine."""
    with tempfile.TemporaryDirectory(prefix="guandan-end-log-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", next_deal_s=PAUSE_S) as srv:
        yield srv


# each switch's middle is what a finger there touches
COVERED = """() => ['log-toggle', 'last-trick'].filter((id) => {
  const r = document.getElementById(id).getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !hit || !hit.closest('#' + id);
})"""


# the panel's buttons and links that a finger on the middle of each does not touch (the log, or anything, over it)
UNREACHED = """() => [...document.querySelectorAll('#summary button, #summary a')].filter((n) => n.offsetParent)
  .filter((n) => {
    const r = n.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !hit || !n.contains(hit);
  }).map((n) => n.id || n.dataset.testid || n.textContent)"""
# the panel's box and the open log's share no area
BESIDE = f"""() => !({MEET})(document.getElementById('summary').getBoundingClientRect(),
  document.getElementById('side').getBoundingClientRect())"""


def panel_beside_log(page: Page, wanted: list[str], w: int, h: int) -> None:
    """The deal-end panel and the open log both in view, neither over the other: every button and link of the panel
    (``wanted`` the test ids of those that must be there) is touched where a finger taps it."""
    expect(page.locator("[data-testid=deal-end]")).to_be_visible()
    expect(page.locator("#side")).to_be_visible()
    expect(page.locator("#log li").first).to_be_visible()
    for testid in wanted:
        expect(page.locator(f"#summary [data-testid={testid}]")).to_be_visible()
    assert page.evaluate(UNREACHED) == [], (w, h)
    assert page.evaluate(BESIDE), (w, h)
    assert page.evaluate(COVERED) == [], (w, h)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_log_opens_while_the_deal_end_panel_shows(browser: Browser, pausing_server: LiveServer, lang: str) -> None:
    """The log opens while the deal-end panel shows and lies beside it: on a phone it lay over the panel's buttons (a
    spectator's 关闭, the review's link), which could not be tapped until the log was closed."""
    page = seat_me(browser, pausing_server, lang)
    watch = None
    try:
        play_to_deal_end(page)
        panel = page.locator("[data-testid=deal-end]")
        for w, h in SIZES:
            resize(page, w, h)
            expect(panel).to_be_visible()
            assert page.evaluate(COVERED) == [], (w, h)
            page.tap("#log-toggle")
            panel_beside_log(page, ["continue"], w, h)
            shoot(page, f"deal-end-log-{lang}-{w}x{h}")
            page.tap("#log-toggle")
            expect(page.locator("#side")).to_be_hidden()
        expect(page.locator("[data-testid=continue]")).to_be_visible()
        # a spectator's panel, while the player is waited for, has 关闭: the log left open from size to size
        watch = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True,
                                    reduced_motion="reduce").new_page()
        watch.goto(f"{pausing_server.url}/")
        watch.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
        watch.goto(page.url)
        expect(watch.locator("[data-testid=deal-end-close]")).to_be_visible()
        watch.tap("#log-toggle")
        for w, h in SIZES:
            resize(watch, w, h)
            panel_beside_log(watch, ["deal-end-close"], w, h)
            shoot(watch, f"deal-end-log-spectator-{lang}-{w}x{h}")
        watch.locator("[data-testid=deal-end-close]").tap()  # a tap with the log open closes the panel
        expect(watch.locator("[data-testid=deal-end]")).to_be_hidden()
        expect(watch.locator("#side")).to_be_visible()
    finally:
        if watch is not None:
            watch.context.close()
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_match_over_panels_buttons_are_tapped_with_the_log_open(browser: Browser, pausing_server: LiveServer,
                                                                    lang: str) -> None:
    """The match's end with the log open: the panel's 关闭, 再来一局 and the replay's links are each touched where a
    finger taps them, at every size, and so are the links the panel leaves once closed."""
    page = seat_me(browser, pausing_server, lang, max_deals=1)
    try:
        page.tap("#log-toggle")  # open from the deal's start: the match ends under it
        page.click("#auto")
        page.wait_for_function("document.body.dataset.status === 'over'", timeout=120_000)
        expect(page.locator("#side")).to_be_visible()
        for w, h in SIZES:
            resize(page, w, h)
            panel_beside_log(page, ["deal-end-close", "play-again"], w, h)
            assert page.locator("#summary #replay-link, #summary #review-link").count() == 2
            shoot(page, f"match-over-log-{lang}-{w}x{h}")
        page.locator("[data-testid=deal-end-close]").tap()
        expect(page.locator("[data-testid=deal-end-close]")).to_have_count(0)
        for w, h in SIZES:  # the match's line and its links stay, beside the log
            resize(page, w, h)
            expect(page.locator("[data-testid=play-again]")).to_be_visible()
            assert page.evaluate(UNREACHED) == [], (w, h)
            assert page.evaluate(BESIDE), (w, h)
            shoot(page, f"match-over-closed-log-{lang}-{w}x{h}")
    finally:
        page.context.close()


# --- the match's end leaves the player's own plate ------------------------------------------------------------
# the panel's box and the boxes of what it must leave in view: the player's own plate, the right-hand one
PLATES_UNDER = """() => {
  const box = (id) => document.getElementById(id).getBoundingClientRect();
  const panel = box('summary');
  return ['pos-me', 'pos-right'].filter((id) => {
    const b = box(id);
    return b.left < panel.right && panel.left < b.right && b.top < panel.bottom && panel.top < b.bottom;
  }).map((id) => [id, Math.round(panel.bottom), Math.round(box(id).top)]);
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_match_over_panel_leaves_the_players_own_plate(browser: Browser, pausing_server: LiveServer,
                                                            lang: str) -> None:
    """The last deal's panel adds the match's line and its links: held sideways in English that line took two lines
    and the panel lay over the top of the player's own plate (its name), at 740×360 in Chinese too."""
    page = seat_me(browser, pausing_server, lang, max_deals=1)
    try:
        page.click("#auto")  # 托管 plays the deal out, and its badge makes the plate its tallest
        page.wait_for_function("document.body.dataset.status === 'over'", timeout=120_000)
        expect(page.locator("#match-over")).to_be_visible()
        # the corner names the deal the table still shows, the match's only one, not a next deal never dealt
        expect(page.locator("#info")).to_contain_text({"zh": "第1副", "en": "Deal 1"}[lang])
        expect(page.locator("#info")).not_to_contain_text({"zh": "第2副", "en": "Deal 2"}[lang])
        panel = page.locator("[data-testid=deal-end]")
        for w, h in [*SIDEWAYS, (1280, 800)]:
            resize(page, w, h)
            expect(panel).to_be_visible()
            shoot(page, f"match-over-{lang}-{w}x{h}")
            assert page.evaluate(PLATES_UNDER) == [], (w, h)
            assert page.evaluate(COVERED) == [], (w, h)
            assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight"), (w, h)
    finally:
        page.context.close()


# --- the card given, in the middle of the table ----------------------------------------------------------------
# the tops of the lines that the card's name (after the last line's last colon) and the character before that colon
# lie on; the line's text may lie in several nodes (each seat's name a box of its own)
CARD_LINE = """() => {
  const line = [...document.querySelectorAll('.tribute-note .tribute-line')].pop();
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  const s = texts.map((n) => n.data).join('').trimEnd();
  const at = (i) => {  // the text node and offset of the line's i-th character
    for (const n of texts) { if (i < n.data.length) return [n, i]; i -= n.data.length; }
    const last = texts[texts.length - 1];
    return [last, last.data.length];
  };
  const colon = Math.max(s.lastIndexOf(': '), s.lastIndexOf('：'));
  const start = s[colon] === '：' ? colon + 1 : colon + 2;
  const top = (a, b) => {
    const r = document.createRange();
    r.setStart(...at(a));
    r.setEnd(...at(b - 1));
    r.setEnd(r.endContainer, r.endOffset + 1);
    return r.getClientRects()[0].top;
  };
  return [s.slice(start), top(start, s.length), top(colon - 1, colon)];
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_card_given_is_read_with_who_holds_it_in_the_middle_of_the_table(
        browser: Browser, pausing_server: LiveServer, lang: str) -> None:
    """In the return phase the middle of a phone held sideways says who gave which card to whom: in English the line
    wrapped with the card alone on the second ("Big Joker" under "Tribute: Bot 3 · Greedy → Tester:"); its lines are
    of a like length, the card beside whoever holds it."""
    page = seat_me(browser, pausing_server, lang, seed=3)
    try:
        resize(page, 667, 375)
        play_to_deal_end(page)
        page.locator("[data-testid=continue]").tap()
        page.wait_for_function("document.body.dataset.phase === 'return' && document.body.dataset.toMove === '0'",
                               timeout=30_000)
        shoot(page, f"return-note-{lang}-667x375")
        card, card_top, holder_top = page.evaluate(CARD_LINE)
        assert card == {"zh": "大王", "en": "Big Joker"}[lang]  # seed 3: Bot 3 pays the player its Big Joker
        assert card_top == holder_top, (card, card_top, holder_top)
    finally:
        page.context.close()
