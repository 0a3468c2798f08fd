"""The table as a player meets it in chromium, on a touch phone held sideways: a deal played by taps to its
end, where every hand is turned up with the result, the level board and 继续 with its countdown; 理牌 into
the engine's groups and a selection moved to a group of its own, kept across a refresh; the turn timer;
table talk; the mute switch, remembered; motion that stays short and disappears under prefers-reduced-motion;
and a table standing still, left as it is by the socket's keep-alive. Each in zh and en, with no text of the other
language on the table."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer, resize

pytestmark = pytest.mark.timeout(300)
PHONE = {"viewport": {"width": 844, "height": 390}, "has_touch": True, "bypass_csp": True}
CJK = re.compile(r"[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
# a deal-end pause longer than any test (pytest's timeout): the panel stays until the player taps 继续. A room's own
# pause (15 s) ran out on a loaded machine while a test still read the panel, which then closed under it
PAUSE_S = 3600


@pytest.fixture(scope="module")
def pausing_server() -> Iterator[LiveServer]:
    """A server whose tables pause after each deal until the player taps 继续 (PAUSE_S)."""
    with tempfile.TemporaryDirectory(prefix="guandan-pause-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", next_deal_s=PAUSE_S) as srv:
        yield srv


def seat_me(browser: Browser, live: LiveServer, lang: str, reduced: bool = False, **config: object) -> Page:
    body = {"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 2, "seed": 5, "timer": 0, "bot_delay_ms": 0,
            **config}
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json=body).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    ctx = browser.new_context(**PHONE, reduced_motion="reduce" if reduced else "no-preference")
    page = ctx.new_page()
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}');"
                  "localStorage.setItem('guandan:sort', 'rank')")
    page.goto(f"{live.url}/r/{code}")
    page.wait_for_function("document.body.dataset.status === 'playing' && "
                           "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
    return page


MY_TURN_OR_END = ("document.querySelector('[data-testid=continue]') || document.body.dataset.status === 'over' || "
                  "(document.body.dataset.toMove === '0' && !document.querySelector('[data-testid=hint]').disabled)")


def take_turn(page: Page) -> None:
    """One turn by taps: ask for a hint, then tap the table to play it (or pass when it says pass)."""
    before = int(page.evaluate("document.body.dataset.seq"))
    if page.locator("button.choose").count():
        page.locator("button.choose").first.tap()
    else:
        ask_hint(page)
        if page.locator("#hand .card.selected").count() == 0:
            page.tap("[data-testid=pass]")
        elif page.locator("[data-testid=play]").is_enabled():
            page.tap("[data-testid=center]", position={"x": 20, "y": 20})  # the table itself plays the selection
        else:
            page.locator("button.reading").first.tap()
    page.wait_for_function(f"Number(document.body.dataset.seq) > {before} || document.querySelector('[data-testid=continue]')")


def ask_hint(page: Page) -> None:
    """Tap the hint button, and wait until its hint is shown (its cards selected, its words said)."""
    hints = page.evaluate("Number(document.body.dataset.hints || 0)")
    page.tap("[data-testid=hint]")
    page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {hints}")


def act_on_hint(page: Page) -> None:
    """Tap what the hint shown asks for: pass where it selected nothing, else play its selection (the first of its
    readings, where it reads more than one way)."""
    if page.locator("#hand .card.selected").count() == 0:
        page.tap("[data-testid=pass]")
    elif page.locator("[data-testid=play]").is_enabled():
        page.tap("[data-testid=play]")
    else:
        page.locator("button.reading").first.tap()


def play_to_deal_end(page: Page) -> None:
    for _ in range(200):
        page.wait_for_function(MY_TURN_OR_END, timeout=30000)
        if page.locator("[data-testid=continue]").count():
            return
        take_turn(page)
    raise AssertionError("the deal did not end")


def one_language(text: str, lang: str) -> None:
    """No repr and no word of the other language (the player's own name and the game's name aside)."""
    for bad in ("None", "null", "undefined", "[object", "deal_settled", "{"):
        assert bad not in text, bad
    if lang == "zh":
        words = set(LATIN_WORD.findall(text)) - {"Tester"}
        assert not words, words
    else:
        assert not CJK.search(text.replace("掼蛋", "")), text


def visible_text(page: Page, selector: str) -> str:
    return str(page.evaluate(f"document.querySelector('{selector}').innerText"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_deal_played_by_taps_ends_with_every_hand_shown_and_continue(browser: Browser, pausing_server: LiveServer,
                                                                       lang: str) -> None:
    page = seat_me(browser, pausing_server, lang)
    try:
        page.wait_for_function(MY_TURN_OR_END, timeout=30000)
        take_turn(page)
        page.wait_for_function(MY_TURN_OR_END, timeout=30000)
        one_language(visible_text(page, "#table"), lang)  # mid-deal: seats, plays, hand, controls, the facts
        play_to_deal_end(page)
        panel = page.locator("[data-testid=deal-end]")
        assert panel.is_visible()
        rows = page.locator("[data-testid=reveal] .reveal-row")
        assert rows.count() == 4
        # listed by finishing place, 头游 first, as players read a result (not by seat), each under its seat's name
        places = {"zh": ["头游", "二游", "三游", "末游"], "en": ["1st", "2nd", "3rd", "last"]}[lang]
        badges = [r.locator(".who .badge").inner_text() for r in rows.all()]
        assert badges == places[:len(badges)] and len(badges) >= 3, badges
        assert sorted(int(r.get_attribute("data-seat") or "") for r in rows.all()) == [0, 1, 2, 3]
        assert page.locator("[data-testid=reveal] .card").count() > 0  # the losers' cards, face up
        assert page.locator("[data-testid=level-board] .lv-row").count() == 2
        assert page.locator("[data-testid=level-board] .lv.here").count() == 2
        # the declarer (庄家) of the next deal is marked in its own team's cell, and both tracks line up
        declarer = page.locator("[data-testid=level-board] .lv-team [data-testid=declarer]")
        assert declarer.count() == 1
        boxes = [t.bounding_box() for t in page.locator("[data-testid=level-board] .lv-track").all()]
        tracks = [box["x"] for box in boxes if box]
        assert len(tracks) == 2 and abs(tracks[0] - tracks[1]) < 1, tracks
        result = visible_text(page, "[data-testid=deal-result]")
        assert re.search(r"1-[234]", result) and "+" not in result.split("·")[0]
        button = page.locator("[data-testid=continue]")
        label = button.inner_text()
        left = re.search(r"[(（](\d+)[)）]$", label)  # 继续（15） in Chinese
        assert left and PAUSE_S - 300 < int(left[1]) <= PAUSE_S, label  # the pause counting down (this test: 300 s)
        one_language(visible_text(page, "#table"), lang)
        button.tap()
        page.wait_for_function("document.querySelector('[data-testid=deal-end]').classList.contains('hidden')")
        page.wait_for_function("document.body.dataset.deal === '1'")
        page.wait_for_function("Number(document.body.dataset.seq) > 0")  # the next deal goes on
    finally:
        page.context.close()


def test_a_lead_too_long_to_list_is_played_by_selection(browser: Browser, pausing_server: LiveServer) -> None:
    """Seed 258 gives seat 0 a first lead of 3,127 plays, more than a view lists: the page asks the server
    for the plays of the selection, and a hint and a tapped single are played all the same."""
    page = seat_me(browser, pausing_server, "en", seed=258)
    try:
        page.wait_for_function(MY_TURN_OR_END, timeout=30000)
        assert page.evaluate("document.body.dataset.toMove") == "0"
        hints = page.evaluate("Number(document.body.dataset.hints || 0)")
        page.tap("[data-testid=hint]")
        page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {hints}")
        assert page.locator("#hand .card.selected").count() > 0  # the hint: a play, though none was listed
        # its cards (a full house with the ♥2 wildcard) read two ways: Play sends the reading the hint named
        expect(page.locator("button.reading")).to_have_count(2)
        expect(page.locator("button.reading.chosen")).to_have_count(1)
        expect(page.locator("[data-testid=play]")).to_be_enabled()
        expect(page.locator("#msg")).to_contain_text("Full house 3: ")  # the hint's words outlive the answer
        expect(page.locator("#msg")).to_contain_text(" — ")
        # the reading buttons take the message's room beside the controls: it has a line of its own under them, whole
        # (held sideways it was cut to "full…"), and on the smallest phone held sideways no button is cut either
        for width, height in ((844, 390), (667, 375)):
            resize(page, width, height)
            assert page.evaluate(WHOLE_CONTROLS) == [], (width, height)
        page.set_viewport_size({"width": 844, "height": 390})
        picked = page.locator("#hand .card.selected")
        for _ in range(picked.count()):  # a single of one's own instead
            picked.first.tap()
        expect(page.locator("#hand .card.selected")).to_have_count(0)
        before = card_order(page)
        page.locator("#hand .card").last.tap()
        expect(page.locator("[data-testid=play]")).to_be_enabled()
        page.tap("[data-testid=play]")
        page.wait_for_function("Number(document.body.dataset.seq) > 0")
        expect(page.locator("#hand .card")).to_have_count(26)
        after = card_order(page)
        assert len(before) - len(after) == 1 and all(before.count(c) >= after.count(c) for c in after)
    finally:
        page.context.close()


# what of the controls is cut or out of place: the message under the buttons, and every button and the message whole
# and on the screen
WHOLE_CONTROLS = """() => {
  const bad = [];
  const msg = document.getElementById('msg');
  const lowest = Math.max(...[...document.querySelectorAll('#controls button')].map((b) => b.getBoundingClientRect().bottom));
  if (msg.getBoundingClientRect().top < lowest - 1) bad.push('the message is beside the buttons');
  for (const n of [...document.querySelectorAll('#controls button'), msg]) {
    const r = n.getBoundingClientRect();
    if (n.scrollWidth > n.clientWidth + 1) bad.push(`${n.id || n.textContent} is cut`);
    if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1) bad.push(`${n.id || n.textContent} is off the screen`);
  }
  return bad;
}"""


def card_order(page: Page) -> list[str]:
    return list(page.evaluate("[...document.querySelectorAll('#hand .card')].map((n) => n.dataset.card)"))


def test_arranging_the_hand_into_groups_and_a_group_of_ones_own_survives_a_refresh(browser: Browser,
                                                                                 pausing_server: LiveServer) -> None:
    page = seat_me(browser, pausing_server, "zh")
    try:
        hand = sorted(card_order(page))
        page.tap("[data-testid=sort]")  # rank -> suit
        page.tap("[data-testid=sort]")  # suit -> groups: the engine's decomposition
        page.wait_for_function("document.querySelector('#hand.grouped')")
        assert sorted(card_order(page)) == hand  # every card, once
        starts = page.locator("#hand .card.group-start").count()
        assert starts >= 3
        cards = page.locator("#hand [data-testid=card]")
        picked = [cards.nth(1).get_attribute("data-card"), cards.nth(4).get_attribute("data-card")]
        cards.nth(1).tap()
        cards.nth(4).tap()
        page.tap("[data-testid=column]")
        order = card_order(page)
        assert sorted(order[-2:]) == sorted(picked)  # the selection is a group of its own, at the end
        assert page.locator("#hand .card.selected").count() == 0
        page.reload()
        page.wait_for_function("document.querySelectorAll('#hand [data-testid=card]').length === 27")
        assert card_order(page) == order  # the arrangement is kept through a refresh during the deal
    finally:
        page.context.close()


def test_turn_timer_talk_and_the_mute_switch(browser: Browser, pausing_server: LiveServer) -> None:
    page = seat_me(browser, pausing_server, "en", timer=15, first_timer=40)
    try:
        page.wait_for_function("document.body.dataset.toMove === '0'", timeout=30000)
        page.wait_for_selector("[data-testid=timer]")
        left = int(page.inner_text("[data-testid=timer]").rstrip("s"))
        first = page.evaluate("document.body.dataset.phase") != "play" or page.evaluate(
            "![...document.querySelectorAll('#log li')].some((n) => ['play', 'pass'].includes(n.dataset.type))")
        assert 0 < left <= (40 if first else 15)
        assert page.locator(".seat-plate.to-move .ring:not(.hidden)").count() == 1
        # table talk: a fixed phrase, shown by the seat that said it
        page.tap("[data-testid=talk]")
        page.locator("#talk-panel .phrase[data-phrase=nice]").tap()
        bubble = page.locator("#pos-me [data-testid=talk-bubble]")
        bubble.wait_for()
        assert bubble.inner_text() == "Nice play!"
        page.tap("[data-testid=talk]")
        for _ in range(2):
            page.locator("#talk-panel .phrase[data-phrase=luck]").tap()
            page.tap("[data-testid=talk]")
        assert page.locator("#talk-panel .phrase[data-phrase=luck]").is_disabled()  # three in ten seconds at most
        # the mute switch is remembered
        assert page.get_attribute("[data-testid=mute]", "aria-pressed") == "false"
        page.tap("[data-testid=mute]")
        assert page.evaluate("localStorage.getItem('guandan:mute')") == "1"
        page.reload()
        page.wait_for_selector("[data-testid=mute][aria-pressed=true]")
    finally:
        page.context.close()


@pytest.mark.parametrize("reduced", [False, True])
def test_motion_is_short_and_off_under_reduced_motion(browser: Browser, pausing_server: LiveServer,
                                                      reduced: bool) -> None:
    page = seat_me(browser, pausing_server, "zh", reduced=reduced, bot_delay_ms=400)
    try:
        page.evaluate("""() => { window.__anims = []; const orig = Element.prototype.animate;
          Element.prototype.animate = function (k, o) {
            window.__anims.push(typeof o === 'number' ? o : (o.duration || 0) + (o.delay || 0));
            return orig.call(this, k, o); }; }""")
        for _ in range(3):
            page.wait_for_function(MY_TURN_OR_END, timeout=30000)
            take_turn(page)
        durations = page.evaluate("window.__anims")
        if reduced:
            assert durations == []
        else:
            assert durations and max(durations) <= 300, durations
    finally:
        page.context.close()


# the page's sockets, kept where a test reaches them, and the pong frames they received (counted before the page's own
# handler runs, which is in the same dispatch)
KEEP_SOCKETS = """(() => {
  window.__sockets = []; window.__pongs = 0;
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
      this.addEventListener("message", (ev) => { if (JSON.parse(ev.data).type === "pong") window.__pongs += 1; });
    }
  };
})()"""


def test_the_socket_keeping_alive_leaves_a_table_that_stands_still_as_it_is(browser: Browser,
                                                                           pausing_server: LiveServer) -> None:
    """The page pings its socket every 10 s; the pong that answers changes nothing, and the table waiting for the
    player is left as it is: its facts, the seats and the hand are not drawn anew under a finger, a hover, a reader's
    selection or a script measuring them."""
    page = seat_me(browser, pausing_server, "en")
    try:
        page.add_init_script(KEEP_SOCKETS)
        page.reload()
        page.wait_for_function(MY_TURN_OR_END, timeout=30000)  # the player's turn, no timer: nothing moves
        kept = page.evaluate("""() => {
          const nodes = document.querySelectorAll('#info > *, #pos-top > *, #hand .card');
          nodes.forEach((n) => { n.dataset.kept = ''; });
          return nodes.length;
        }""")
        assert kept > 27
        page.evaluate("window.__sockets.at(-1).send(JSON.stringify({ type: 'ping' }))")  # as the page's timer does
        page.wait_for_function("window.__pongs > 0")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        assert page.evaluate("document.querySelectorAll('[data-kept]').length") == kept
    finally:
        page.context.close()


def test_a_room_of_four_bots_says_how_it_starts(browser: Browser, live_server: LiveServer) -> None:
    """Four bots never start by themselves: the creator is offered to watch them or to make a seat, anyone else
    is told that it waits for the creator; once the creator sits in a seat a bot made way for and is ready, the
    match begins."""
    with httpx.Client(base_url=live_server.url, timeout=30) as c:
        created = c.post("/api/rooms", json={"bots": ["greedy"] * 4, "max_deals": 1, "timer": 0}).json()
    code, host = created["code"], created["host_token"]
    pages = []
    try:
        for who in ("host", "visitor"):
            page = browser.new_context(**PHONE).new_page()
            pages.append(page)
            page.goto(f"{live_server.url}/")
            page.evaluate("localStorage.setItem('guandan:lang', 'en')" +
                          (f"; localStorage.setItem('guandan:host:{code}', '{host}')" if who == "host" else ""))
            page.goto(f"{live_server.url}/r/{code}")
        host_page, visitor = pages
        expect(host_page.locator("#lobby-msg")).to_have_text(
            "Every seat is a bot: watch them play a whole match, or remove one and take its seat to play")
        expect(host_page.locator("[data-testid=watch]")).to_have_text("Watch the bots play")
        expect(visitor.locator("#lobby-msg")).to_have_text(
            "Every seat is a bot: the match begins when the room's creator starts it for everyone to watch")
        expect(visitor.locator("[data-testid=watch]")).to_be_hidden()
        host_page.tap("#unbot-0")
        expect(host_page.locator("#lobby-msg")).to_have_text("Waiting for players")
        expect(host_page.locator("[data-testid=watch]")).to_be_hidden()  # a seat to take: no match to watch
        expect(visitor.locator("#lobby-msg")).to_have_text("Waiting for players")  # told as the room changes
        host_page.tap("#sit-0")
        host_page.locator("#ready").tap()
        host_page.wait_for_function("document.body.dataset.status === 'playing'")
    finally:
        for page in pages:
            page.context.close()


def test_the_hands_turned_up_mark_the_wildcard_of_the_deal_that_ended(browser: Browser, live_server: LiveServer) -> None:
    """The view at a deal's end is often the next deal's already (dealt in the same update): the panel marks
    the ♥ card of the level the ended deal was played at, which the table keeps from before the update (and
    a snapshot's interval says), not the next deal's."""
    page = browser.new_context(**PHONE).new_page()
    try:
        page.goto(f"{live_server.url}/")
        marked = page.evaluate("""async () => {
            const { dealEndPanel } = await import("/static/dealend.js");
            const end = { deal: 0, reveal: [["H2", "H5", "S5"], ["H2"], [], ["H5"]], events: [], waiting: [],
                          deadline: null, level: "2" };
            const view = { level: "5", levels: ["5", "2"], a_failures: [0, 0], declarer: 0, tribute_payers: [] };
            const box = document.createElement("div");
            box.append(...dealEndPanel(end, { view, events: [], seatName: (s) => `Seat ${s + 1}`, me: null,
                                               onContinue: () => {}, onClose: () => {} }));
            return [...box.querySelectorAll(".reveal .card.wild")].map((n) => n.dataset.card);
        }""")
        assert marked == ["H2", "H2"], marked
    finally:
        page.context.close()
