"""A phone player's steps around the deal, held sideways (844×390, 667×375), in zh and en: the room's lobby has tap-sized
controls (its "Sit here" was 32 px tall, the name's field 21) and its share line the language's colon; a note in the
table's middle keeps each seat's name on one line (a double tribute's return read "机" over "器人3·启发式"); a hint to
pass says why without saying "pass" twice; and a match against bots ends with 再来一局 / Play again, which starts the
next match in one tap: a new room of the same rules and bots, the player in the same seat, the deal begun. A
spectator, and a room with other people, get no such button."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.server.i18n_web import strings

from .conftest import LiveServer, resize
from .test_browser_crowded_table import at_the_return, seat_held_server
from .test_browser_table import MY_TURN_OR_END, act_on_hint, ask_hint

pytestmark = pytest.mark.timeout(300)
SIDEWAYS = [(844, 390), (667, 375)]

# Each seat's name inside a note of the middle of the table: its text and how many lines it takes.
NAMES_IN_NOTE = """() => [...document.querySelectorAll('#center-note .whole-name')].map((n) => {
  const r = document.createRange(); r.selectNodeContents(n);
  const lines = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
  return [n.textContent, lines.size];
})"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-next-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


@pytest.fixture(scope="module")
def held_server() -> Iterator[LiveServer]:
    """The player's seat played by a bot for two deals, then left to the player (seat_held_server)."""
    with seat_held_server("guandan-next-held-") as srv:
        yield srv


def phone(browser: Browser, live: LiveServer, lang: str, storage: dict[str, str] | None = None) -> Page:
    page = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True,
                               reduced_motion="reduce").new_page()
    page.goto(f"{live.url}/")
    values = {"guandan:lang": lang, "guandan:sort": "rank", **(storage or {})}
    page.evaluate("(v) => { for (const [k, x] of Object.entries(v)) localStorage.setItem(k, x); }", values)
    return page


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_rooms_lobby_controls_are_tap_sized(browser: Browser, server: LiveServer, lang: str) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", None, "greedy"]}).json()["code"]
    page = phone(browser, server, lang)
    try:
        page.goto(f"{server.url}/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'lobby' && document.getElementById('sit-0')")
        # the share line in the language's punctuation ("分享链接: " had the English colon)
        share = strings(lang)["Share this link"]
        assert page.locator("#share-label").text_content() == {"zh": f"{share}：", "en": f"{share}: "}[lang]
        for w, h in SIDEWAYS:
            resize(page, w, h)
            for target in ("#sit-0", "#sit-2", "#name"):
                box = page.locator(target).bounding_box()
                assert box and box["height"] >= 40 and box["width"] >= 40, (target, box, w, h)
        page.fill("#name", "Tester")
        page.tap("#sit-0")
        expect(page.locator("#ready")).to_be_visible()
        for target in ("#ready", "#leave"):
            box = page.locator(target).bounding_box()
            assert box and box["height"] >= 40, (target, box)
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_double_tributes_return_keeps_each_name_on_one_line(browser: Browser, held_server: LiveServer,
                                                               lang: str) -> None:
    page = at_the_return(browser, held_server, lang)
    try:
        for w, h in [(667, 375), (844, 390), (390, 844)]:
            resize(page, w, h)
            names = page.evaluate(NAMES_IN_NOTE)
            # two givings, each naming its giver and its receiver
            assert len(names) == 4, names
            assert all(lines == 1 for _, lines in names), (names, w, h)
            said = page.locator("#center-note .tribute-note").inner_text()
            for name, _ in names:
                assert name in said.replace("\n", ""), (name, said)
    finally:
        page.context.close()


def play_by_hints(page: Page, lang: str) -> int:
    """The player's turns by the hint to the match's end; checks every hint to pass says "pass" once. The passes hinted."""
    passes = 0
    pass_word = strings(lang)["Pass"]
    for _ in range(200):
        page.wait_for_function(MY_TURN_OR_END, timeout=30_000)
        if page.evaluate("document.body.dataset.status") == "over":
            return passes
        assert not page.locator("[data-testid=continue]").count(), "a match of one deal has no pause"
        before = int(page.evaluate("document.body.dataset.seq"))
        ask_hint(page)
        if page.locator("#hand .card.selected").count() == 0:
            said = page.locator("#msg").text_content() or ""
            assert said and not said.startswith(f"{pass_word} — "), said
            assert said.lower().count(pass_word.lower()) == 1, said
            passes += 1
        act_on_hint(page)
        page.wait_for_function(f"Number(document.body.dataset.seq) > {before} || document.body.dataset.status === 'over'")
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_match_against_bots_ends_with_play_again(browser: Browser, server: LiveServer, lang: str) -> None:
    words = strings(lang)
    body = {"bots": [None, "greedy", "greedy", "greedy"], "preset": "huaian-traditional", "max_deals": 1, "seed": 5,
            "timer": 0, "first_timer": 0, "next_deal_s": 0, "counter": False, "bot_delay_ms": 0}
    with httpx.Client(base_url=server.url, timeout=30) as c:
        code = c.post("/api/rooms", json=body).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    page = phone(browser, server, lang, {f"guandan:token:{code}": token})
    watcher = phone(browser, server, lang)
    try:
        page.goto(f"{server.url}/r/{code}")
        watcher.goto(f"{server.url}/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'playing' && "
                               "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
        assert play_by_hints(page, lang) > 0, "no hint to pass was seen"
        again = page.locator("[data-testid=play-again]")
        expect(again).to_have_text(words["Play again"])
        box = again.bounding_box()
        assert box and box["height"] >= 40 and box["width"] >= 40, box
        # the spectator's page ends the match with no such button: the next match is not a spectator's to start
        watcher.wait_for_function("document.body.dataset.status === 'over'")
        expect(watcher.locator("#match-over")).to_be_visible()
        expect(watcher.locator("[data-testid=play-again]")).to_have_count(0)
        again.tap()
        page.wait_for_url(re.compile(r"/r/(?!" + code + r")[A-Z0-9]+$"))
        page.wait_for_function("document.body.dataset.status === 'playing' && "
                               "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
        new = page.url.rsplit("/", 1)[1]
        with httpx.Client(base_url=server.url, timeout=30) as c:
            room = c.get(f"/api/rooms/{new}").json()
        assert room["status"] == "playing"
        assert (room["preset"], room["max_deals"], room["timer"], room["first_timer"], room["next_deal_s"],
                room["counter"]) == ("huaian-traditional", 1, 0, 0, 0, False)
        assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot", "bot"]
        assert [s["tier"] for s in room["seats"][1:]] == ["greedy"] * 3
        assert room["seats"][0]["name"] == "Tester"
        assert room["practice"] is False  # new cards: the practice room's seed stays with it
        expect(page.locator("#pos-me .nm")).to_have_text("Tester")
    finally:
        page.context.close()
        watcher.context.close()


def test_a_room_with_another_player_offers_no_play_again(browser: Browser, server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", None, "greedy"], "max_deals": 1, "timer": 0,
                                          "bot_delay_ms": 0}).json()["code"]  # the server's seed: a test's counting one
        tokens = [c.post(f"/api/rooms/{code}/join", json={"seat": s, "name": f"P{s}"}).json()["token"] for s in (0, 2)]
        # the other player's seat is played by a bot (托管): the match runs on, but that seat is a person's
        server.app.state.service.rooms[code].seats[2].auto = True
        for token in tokens:
            assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    page = phone(browser, server, "en", {f"guandan:token:{code}": tokens[0]})
    try:
        page.goto(f"{server.url}/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'playing'")
        play_by_hints(page, "en")
        expect(page.locator("#match-over")).to_be_visible()
        expect(page.locator("[data-testid=play-again]")).to_have_count(0)
    finally:
        page.context.close()
