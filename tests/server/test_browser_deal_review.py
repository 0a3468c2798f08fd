"""A learner reviews the deal just played without waiting for the match's end, in Debian's chromium: the deal-end
panel offers the review of that deal (复盘第1副 / Review deal 1), which opens in a tab of its own as the replay page
shows a review — the deal step by step, the accuracy, the costliest decisions — for the player's own seat; while
the next deal is played the table still offers it. On a phone held sideways and a desktop, in zh and en."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from .conftest import LiveServer
from .test_browser_table import CJK, PAUSE_S, play_to_deal_end

pytestmark = pytest.mark.timeout(300)
SIZES: dict[str, ViewportSize] = {"phone": {"width": 844, "height": 390}, "desktop": {"width": 1280, "height": 800}}
SHOTS = os.environ.get("GUANDAN_SHOTS")  # a folder: the screenshots are kept there to be looked at


@pytest.fixture(scope="module")
def pausing_server() -> Iterator[LiveServer]:
    """A server whose tables pause after each deal until the player taps 继续 (PAUSE_S): the deal-end panel stays
    while the review is worked out, however long a loaded machine takes (a room's 15 s can run out first)."""
    with tempfile.TemporaryDirectory(prefix="guandan-deal-review-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", next_deal_s=PAUSE_S) as srv:
        yield srv


def _seat_me(browser: Browser, live: LiveServer, lang: str, size: str) -> Page:
    body = {"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 2, "seed": 5, "timer": 0}
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json=body).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    # touch at both sizes: the turns are played by taps (test_browser_table.take_turn)
    ctx = browser.new_context(viewport=SIZES[size], has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}')")
    page.goto(f"{live.url}/r/{code}")
    page.wait_for_function("document.body.dataset.status === 'playing' && "
                           "document.querySelectorAll('[data-testid=hand] [data-testid=card]').length === 27")
    return page


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png")


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_deal_end_panel_opens_the_review_of_the_deal_just_played(browser: Browser, pausing_server: LiveServer,
                                                                     lang: str, size: str) -> None:
    page = _seat_me(browser, pausing_server, lang, size)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    play_to_deal_end(page)
    link = page.locator("#deal-review-link")
    assert link.is_visible()
    assert link.inner_text() == ("复盘第1副" if lang == "zh" else "Review deal 1")
    box, panel = link.bounding_box(), page.locator("[data-testid=deal-end]").bounding_box()
    assert box and panel and box["y"] + box["height"] <= SIZES[size]["height"] and box["x"] >= panel["x"]
    _shot(page, f"table-{size}-{lang}")
    with page.context.expect_page() as opened:
        link.click()
    review = opened.value
    review.on("pageerror", lambda e: problems.append(str(e)))
    # the tab may still be loading, with no body yet: the predicate must wait for one, not fail on it
    review.wait_for_function("document.body?.dataset.review === 'done'", timeout=120_000)
    assert review.evaluate("document.body.dataset.live") == "true"
    assert review.locator("#deals .deal-head").count() == 1  # the finished deal, nothing of the next
    assert review.locator("#review-seat").is_disabled() and review.locator("#review-seat").input_value() == "0"
    assert review.locator("#fair").is_hidden() and review.locator("#export").is_hidden()
    # the player's seat's review: both teams' levels as the terminal client writes them, its own team first
    levels = review.locator("#rlevels").inner_text().replace("\u00a0", " ")
    assert levels == ("我方 2 : 对方 2" if lang == "zh" else "Your team 2 : Opponents 2"), levels
    summary = review.locator("#review-summary").inner_text()
    assert ("准确度" if lang == "zh" else "Accuracy") in summary
    # the page is the deal's review, not the match's replay, and the match has no result yet
    assert review.locator("#replay-head h2 span").first.inner_text() == ("引擎复盘" if lang == "zh" else "Engine review")
    assert review.locator("#match > strong").is_hidden()
    heading = review.locator("#match-summary .live-deal").inner_text()
    assert heading.startswith("进行中比赛的第1副" if lang == "zh" else "Deal 1 of a match in play")
    review.locator("#review").scroll_into_view_if_needed()
    _shot(review, f"review-{size}-{lang}")
    text = review.locator("body").inner_text()
    for bad in ("None", "null", "undefined", "[object"):
        assert bad not in text
    if lang == "en":
        assert not CJK.search(text.replace("掼蛋", "").replace("复盘", "").replace("中文", "")), text  # the language switch
    # the table goes on to the next deal; the last deal's review is still offered
    page.locator("[data-testid=continue]").tap()
    page.wait_for_function("document.body.dataset.deal === '1'")
    last = page.locator("#last-deal-review")
    assert last.inner_text() == ("复盘第1副" if lang == "zh" else "Review deal 1")
    # among the facts on a desktop; atop the log on a phone held sideways, whose corner has no line to spare
    assert page.locator(f"{'#log' if size == 'phone' else '#info'} #last-deal-review").count() == 1
    assert last.get_attribute("href", timeout=1000) == review.url.removeprefix(pausing_server.url).split("#")[0]\
        .split("?")[0] + f"?lang={lang}#review"
    _shot(page, f"table-next-{size}-{lang}")
    assert not problems, problems
    page.context.close()
