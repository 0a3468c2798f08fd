"""The start page's open rooms on a phone: a listed room shows (in Chinese, no English word of ours in the
list), fits the width held either way with a thumb-sized Join, a tap on Join opens the room, whose lobby
names its rules and each seat's team and fits the width too; the list says so when it is empty, and
refreshes every 5 s only while the page is visible."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)
PHONES = [(844, 390), (390, 844)]


def listed_room(live: LiveServer, name: str, player: str) -> str:
    """A listed lobby: seat 1 held by ``player``, two bots, one seat open."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        r = c.post("/api/rooms", json={"bots": [None, "greedy", None, "greedy"], "name": name, "timer": 0})
        assert r.status_code == 201, r.text
        code = str(r.json()["code"])
        assert c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": player}).status_code == 200
    return code


def phone(browser: Browser, live: LiveServer, size: tuple[int, int], lang: str = "zh", clock: bool = False) -> Page:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    page.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    if clock:
        page.clock.install()  # the page's timers run when the test says: the 5 s refresh without waiting 5 s
    return page


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_a_listed_room_is_shown_and_joined_by_a_tap(browser: Browser, live_server: LiveServer,
                                                    size: tuple[int, int]) -> None:
    code = listed_room(live_server, "周末牌局", "小红")
    page = phone(browser, live_server, size)
    try:
        page.goto(f"{live_server.url}/")
        entry = page.locator(f"[data-testid=open-rooms] [data-testid=open-room][data-code='{code}']")
        entry.wait_for()
        text = entry.inner_text()
        for shown in ("周末牌局", "比赛规则", "不限时", "3/4", "小红", "机器人: 贪心", "加入"):
            assert shown in text, (shown, text)
        # no English of ours anywhere in the list: what is left once the codes and the players' own names are out
        rooms: list[dict[str, Any]] = httpx.get(f"{live_server.url}/api/rooms/open", timeout=30).json()["rooms"]
        words = {r["code"] for r in rooms} | {r["name"] for r in rooms} | {
            s["name"] for r in rooms for s in r["seats"] if s["kind"] == "human"}
        texts: list[str] = page.locator("[data-testid=open-rooms] [data-testid=open-room]").all_inner_texts()
        for t in texts:
            for word in sorted(words, key=len, reverse=True):
                t = t.replace(word, "")
            t = re.sub(r"(?<![A-Za-z])A(?![A-Za-z])", "", t)  # the rank A, written so in Chinese too (打过 A)
            assert not re.search(r"[A-Za-z]", t), t
        geometry = page.evaluate("""(code) => {
          const b = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.right, r.width, r.height]; };
          return { scroll: document.scrollingElement.scrollWidth, width: innerWidth,
                   entries: [...document.querySelectorAll('[data-testid=open-room]')].map(b),
                   joins: [...document.querySelectorAll('[data-testid=open-room-join]')].map(b) };
        }""", code)
        assert geometry["scroll"] <= geometry["width"], geometry  # the page does not scroll sideways
        for left, right, *_ in geometry["entries"]:
            assert left >= 0 and right <= geometry["width"], geometry
        for left, right, w, h in geometry["joins"]:
            assert left >= 0 and right <= geometry["width"] and w >= 40 and h >= 40, geometry
        entry.locator("[data-testid=open-room-join]").tap()
        page.wait_for_url(f"**/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'lobby'")  # the room's page, showing its lobby
        # the room's own lobby: its name and rules, each seat's team, the bots by their catalogued names
        facts = page.locator("[data-testid=lobby-facts]").inner_text()
        assert "周末牌局" in facts and "比赛规则" in facts and "不限时" in facts, facts
        seats = page.locator("#lobby-seats .seat-box").all_inner_texts()
        assert [("队1" in t, "队2" in t) for t in seats] == [(True, False), (False, True)] * 2, seats
        assert "机器人2·贪心" in seats[1] and "机器人4·贪心" in seats[3], seats
        assert not re.search(r"[A-Za-z]", "".join(seats)), seats  # no "greedy bot" of the server's
        width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
    finally:
        page.context.close()


def test_an_empty_list_says_so(browser: Browser, live_server: LiveServer) -> None:
    page = phone(browser, live_server, (844, 390))
    try:
        page.route("**/api/rooms/open", lambda route: route.fulfill(json={"rooms": []}))
        page.goto(f"{live_server.url}/")
        none = page.locator("[data-testid=open-rooms] li")
        none.wait_for()
        assert none.inner_text() == "现在没有可加入的房间"
        assert page.locator("[data-testid=open-room]").count() == 0
    finally:
        page.context.close()


def test_the_list_refreshes_every_5_s_while_visible_and_not_while_hidden(browser: Browser,
                                                                        live_server: LiveServer) -> None:
    page = phone(browser, live_server, (390, 844), lang="en", clock=True)
    # the page's visibility as the test sets it (a headless page is always visible)
    page.add_init_script("window.__vis = 'visible'; "
                         "Object.defineProperty(document, 'visibilityState', { get: () => window.__vis });")
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url) if req.url.endswith("/api/rooms/open") else None)
    try:
        page.goto(f"{live_server.url}/")
        page.locator("[data-testid=open-rooms] li").first.wait_for()
        assert len(asked) == 1
        code = listed_room(live_server, "later", "Bo")
        page.clock.run_for(5_000)
        page.locator(f"[data-testid=open-room][data-code='{code}']").wait_for()  # appeared without a reload
        assert len(asked) == 2
        page.evaluate("window.__vis = 'hidden'; document.dispatchEvent(new Event('visibilitychange'))")
        page.clock.run_for(30_000)  # six ticks of the refresh while hidden
        with page.expect_request("**/api/rooms/open"):  # shown again: it asks at once, not at the next tick
            page.evaluate("window.__vis = 'visible'; document.dispatchEvent(new Event('visibilitychange'))")
        # requests are seen in the order they are made: one made while hidden would be counted before this one
        assert len(asked) == 3, f"{len(asked) - 3} requests while hidden"
    finally:
        page.context.close()
