"""The table's top-left and the tribute as a phone player meets them, held sideways (667×375, 844×390), in zh and en:
the facts and the countdowns read in the language's punctuation ("级牌：3", "继续（15）"; "Level: 3", "Continue (15)");
上一轮 and 记录 are 40 px tall tap targets on a touch screen; the player's own name ("Player 1") keeps to one line; a
return under the competition rule says its limit (a card from 2 to 10 that is not a level card), and names the card
where only one may go; the card the player was given in the tribute is marked in the hand until the player's first
play; the glossary's words stacked in the facts each take the taps nearest them; the words beside the buttons begin
as a sentence in English ("Single 3: …", not "single 3: …")."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from guandan.server.i18n_web import strings

from .conftest import LiveServer, resize
from .test_browser_crowded_table import MSG_CUT, OVERLAPS, at_the_return, seat_held_server
from .test_browser_phone_texts import clipped
from .test_browser_table import MY_TURN_OR_END, PAUSE_S, act_on_hint, ask_hint, play_to_deal_end, seat_me

pytestmark = pytest.mark.timeout(300)
SIDEWAYS = [(667, 375), (844, 390)]
FACTS = {"zh": (r"级牌：\w+ · 第3副", "庄家：队1"), "en": (r"Level: \w+ · Deal 3", "Declarer: Team 1")}
COUNTDOWN = {"zh": r"继续（\d+）", "en": r"Continue \(\d+\)"}
LOW = set("23456789T")  # the ranks a return may be under the competition rule (the level's aside)


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """Tables that pause after each deal until the player taps 继续 (PAUSE_S)."""
    with tempfile.TemporaryDirectory(prefix="guandan-corner-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", next_deal_s=PAUSE_S) as srv:
        yield srv


@pytest.fixture(scope="module")
def held_server() -> Iterator[LiveServer]:
    """The player's seat played by a bot for two deals, then left to the player (seat_held_server)."""
    with seat_held_server("guandan-corner-held-") as srv:
        yield srv


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_deal_ends_countdown_and_the_facts_read_in_the_languages_punctuation(
        browser: Browser, server: LiveServer, lang: str) -> None:
    words = strings(lang)
    page = seat_me(browser, server, lang)
    try:
        resize(page, 667, 375)
        level = page.locator("#info > div").nth(1).text_content() or ""
        assert re.fullmatch({"zh": r"级牌：\d+ · 第1副", "en": r"Level: \d+ · Deal 1"}[lang], level), level
        play_to_deal_end(page)
        go = page.locator("[data-testid=continue]")
        expect(go).to_have_text(re.compile(f"^{COUNTDOWN[lang]}$"))
        page.wait_for_timeout(600)  # the countdown's own ticks (table.js renderTimer) write it as the panel did
        expect(go).to_have_text(re.compile(f"^{COUNTDOWN[lang]}$"))
        # and where another player is waited for, the same brackets
        waiting = page.evaluate("""async () => {
            const { dealEndPanel } = await import("/static/dealend.js");
            const end = { deal: 0, reveal: [[], [], [], []], events: [], waiting: [0], deadline: Date.now() + 14500,
                          level: "2" };
            const view = { level: "2", levels: ["3", "2"], a_failures: [0, 0], declarer: 0, tribute_payers: [] };
            const box = document.createElement("div");
            box.append(...dealEndPanel(end, { view, events: [], seatName: () => "Tester", me: 1,
                                               onContinue: () => {}, onClose: () => {} }));
            return box.querySelector(".waiting").textContent;
        }""")
        said = words["Waiting for {who}"].format(who="Tester")
        assert waiting == {"zh": f"{said}（15）", "en": f"{said} (15)"}[lang], waiting
    finally:
        page.context.close()


def terms_taken(page: Page) -> list[Any]:
    """For each glossary word of the facts: its key, and the words that taps at its middle, 6 px over its top and 6 px
    under its bottom open (the popover closed again after each)."""
    found: list[Any] = []
    boxes = page.evaluate("[...document.querySelectorAll('#info .term')].map((n) => { const r = n.getBoundingClientRect();"
                          " return [n.dataset.term, r.left + r.width / 2, r.top, r.bottom]; })")
    pop = page.locator("[data-testid=term-pop]")
    for key, x, top, bottom in boxes:
        opened = []
        for y in ((top + bottom) / 2, top - 6, bottom + 6):
            page.touchscreen.tap(x, y)
            page.wait_for_timeout(150)
            opened.append(pop.get_attribute("data-term") if pop.is_visible() else None)
            if pop.is_visible():
                page.keyboard.press("Escape")
                expect(pop).to_be_hidden()
        found.append([key, *opened])
    return found


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_return_says_its_limit_and_the_card_given_is_marked_until_the_first_play(
        browser: Browser, held_server: LiveServer, lang: str) -> None:
    words = strings(lang)
    page = at_the_return(browser, held_server, lang)
    try:
        level, declarer = [page.locator("#info > div").nth(k).text_content() for k in (1, 2)]
        assert re.fullmatch(FACTS[lang][0], level or ""), level
        assert declarer == FACTS[lang][1]
        # what the prompt says is what the table allows: the 2s to 10s that are not level cards
        msg = page.locator("#msg")
        expect(msg).to_have_text(words["Return a card from 2 to 10, not a level card"])
        # read whole as the turn begins (the page opened at it), where the row beside the buttons cuts it
        page.reload()
        page.wait_for_function("document.body.dataset.phase === 'return' && document.body.dataset.toMove === '0' && "
                               "!document.getElementById('hint').disabled")
        full = page.locator("[data-testid=msg-full]")
        if lang == "en" or page.evaluate(MSG_CUT):
            assert page.evaluate(MSG_CUT)  # "Return a card from 2 to 10,…" at 667 px
            expect(full).to_have_text(words["Return a card from 2 to 10, not a level card"])
            assert clipped(page, "[data-testid=msg-full]") == []
        at = page.evaluate("document.querySelector('#info > div:nth-child(2)').textContent.match(/\\d+|[JQKA]/)[0]")
        eligible = page.evaluate("[...document.querySelectorAll('#hand .card:not(.ineligible)')].map((n) => n.dataset.card)")
        assert eligible and all(c[1] in LOW and c[1] != at.replace("10", "T") for c in eligible), (at, eligible)
        # the card the player was paid, marked (one card of the hand), and said so to a screen reader
        paid = page.evaluate("[...document.querySelectorAll('#tribute-info .tcard')].map((n) => n.dataset.card)")
        given = page.locator("#hand .card.received")
        expect(given).to_have_count(1)
        assert given.get_attribute("data-card") in paid, paid
        assert given.get_attribute("data-received") == "tribute"
        assert (given.get_attribute("aria-label") or "").endswith(f" · {words['Received in tribute']}")
        page.locator("#hand .card:not(.ineligible)").first.tap()
        page.tap("[data-testid=play]")
        page.wait_for_function("document.body.dataset.phase === 'play'", timeout=30_000)
        expect(given).to_have_count(1)  # still, until the player's first play
        if lang == "zh":  # 级牌 and 庄家 on two lines 13 px apart, 进贡 and 还贡 under them: each takes the taps nearest it
            taken = terms_taken(page)
            assert [k for k, *_ in taken] == ["level", "declarer", "tribute", "return"], taken
            assert taken[0] == ["level", "level", "level", "declarer"], taken
            assert taken[1][:3] == ["declarer", "declarer", "level"], taken
            assert all(mid == key for key, mid, _, _ in taken), taken
        for _ in range(30):  # the player's turns, by the hint, up to the first play of a card
            page.wait_for_function(MY_TURN_OR_END, timeout=30_000)
            held = page.locator("#hand .card").count()
            ask_hint(page)
            said = msg.text_content() or ""
            if lang == "en":  # the hint's play and why begin as a sentence
                assert said[:1].isupper(), said
            before = int(page.evaluate("document.body.dataset.seq"))
            act_on_hint(page)
            page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")
            if page.locator("#hand .card").count() < held:
                break
        else:
            raise AssertionError("the player never played")
        expect(given).to_have_count(0)
    finally:
        page.context.close()


def keep_one_return(mode: dict[str, str | None]) -> Any:
    """A socket route that passes every frame on, but cuts a return turn's legal actions to one, of the card
    ``mode["card"]`` (a low card; or one of the highest, as if the player held no low one)."""
    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            frame = json.loads(message)
            view = frame.get("view") or {}
            legal = view.get("legal") or []
            if mode["card"] and legal and legal[0]["kind"] == "return":
                view["legal"] = [{**legal[0], "cards": [mode["card"]]}]
            ws.send(json.dumps(frame))
        server.on_message(down)
        ws.on_message(server.send)
    return route


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_return_that_may_be_one_card_names_it(browser: Browser, held_server: LiveServer, lang: str) -> None:
    words = strings(lang)
    mode: dict[str, str | None] = {"card": None}
    page = at_the_return(browser, held_server, lang, keep_one_return(mode))
    try:
        def text(card: str) -> str:
            return str(page.evaluate(f"import('/static/common.js').then((m) => m.cardText('{card}'))"))

        hand = page.evaluate("[...document.querySelectorAll('#hand .card')].map((n) => n.dataset.card)")
        low = page.evaluate("document.querySelector('#hand .card:not(.ineligible)').dataset.card")
        mode["card"] = low
        page.reload()  # the snapshot's view, through the route
        page.wait_for_function("document.body.dataset.phase === 'return' && document.querySelectorAll("
                               "'#hand .card:not(.ineligible)').length === 1")
        expect(page.locator("#msg")).to_have_text(
            words["Return a card from 2 to 10, not a level card: {card}, the only one you hold"].format(card=text(low)))
        high = hand[-1]  # the hand in rank order: its highest card, no 2 to 10
        mode["card"] = high
        page.reload()
        page.wait_for_function(f"document.body.dataset.phase === 'return' && document.querySelector("
                               f"'#hand .card:not(.ineligible)').dataset.card === '{high}'")
        expect(page.locator("#msg")).to_have_text(words[
            "Return your smallest card, {card}: you hold no card from 2 to 10 that is not a level card"].format(card=text(high)))
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tables_switches_are_tap_sized_and_the_players_name_keeps_to_one_line(
        browser: Browser, server: LiveServer, lang: str) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "seed": 3,
                                          "timer": 0, "bot_delay_ms": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": ""}).json()["token"]  # named "Player 1"
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    page = browser.new_context(viewport={"width": 667, "height": 375}, has_touch=True, bypass_csp=True,
                               reduced_motion="reduce").new_page()
    try:
        page.goto(f"{server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}')")
        page.goto(f"{server.url}/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'playing' && document.body.dataset.toMove === '0'")
        name = "#pos-me .nm"
        expect(page.locator(name)).to_have_text({"zh": "玩家1", "en": "Player 1"}[lang])
        for w, h in SIDEWAYS:
            resize(page, w, h)
            for switch in ("#last-trick", "#log-toggle"):
                box = page.locator(switch).bounding_box()
                assert box and box["height"] >= 40, (switch, box, w, h)
            lines = page.evaluate(f"(() => {{ const r = document.createRange(); r.selectNodeContents("
                                  f"document.querySelector('{name}')); return r.getClientRects().length; }})()")
            assert lines == 1, (lang, w, h)
            assert page.evaluate(f"(() => {{ const n = document.querySelector('{name}'); "
                                 "return n.scrollWidth <= n.clientWidth; })()"), (w, h)  # and whole
            assert page.evaluate(OVERLAPS) == [], (w, h)
            # the corner's facts in the language's punctuation
            level = page.locator("#info > div").nth(1).text_content() or ""
            assert re.fullmatch({"zh": r"级牌：\d+ · 第1副", "en": r"Level: \d+ · Deal 1"}[lang], level), level
    finally:
        page.context.close()


def one_tribute(ws: WebSocketRoute) -> None:
    """A socket route that passes every frame on, a tribute turn's legal actions cut to the first (the tribute is the
    highest card: several where the player holds it twice, or in two suits)."""
    server = ws.connect_to_server()

    def down(message: str | bytes) -> None:
        frame = json.loads(message)
        view = frame.get("view") or {}
        legal = view.get("legal") or []
        if legal and legal[0]["kind"] == "tribute":
            view["legal"] = legal[:1]
        ws.send(json.dumps(frame))
    server.on_message(down)
    ws.on_message(server.send)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tribute_that_may_be_one_card_names_it(browser: Browser, server: LiveServer, lang: str) -> None:
    words = strings(lang)
    # heuristic bots, seat 0 playing the first deal by the hint with seed 2: it pays tribute in the second
    page = seat_me(browser, server, lang, seed=2, bots=[None, "heuristic", "heuristic", "heuristic"])
    try:
        page.route_web_socket(re.compile(r"/ws/"), one_tribute)
        page.reload()
        page.wait_for_function("document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
        resize(page, 667, 375)
        play_to_deal_end(page)
        page.tap("[data-testid=continue]")
        page.wait_for_function("document.body.dataset.phase === 'tribute' && document.body.dataset.toMove === '0' && "
                               "!document.getElementById('hint').disabled", timeout=30_000)
        card = page.evaluate("document.querySelector('#hand .card:not(.ineligible)').dataset.card")
        expect(page.locator("#hand .card:not(.ineligible)")).to_have_count(1)
        said = page.evaluate(f"import('/static/common.js').then((m) => m.cardText('{card}'))")
        expect(page.locator("#msg")).to_have_text(words["Pay tribute: {card}, the only card you may pay"].format(card=said))
    finally:
        page.context.close()
