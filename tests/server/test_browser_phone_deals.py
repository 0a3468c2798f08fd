"""What a player on a phone held sideways meets while playing deals through from the start page, each a fault found
by playing them: the header's links are tap targets of 40×40 px as its switches are (the rules link and the way back
to the start page were a word's height, the start page's links a word's width)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .conftest import LiveServer, resize
from .test_browser_table import seat_me

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
