"""The table says what its "*" means, in zh and en: a wildcard (逢人配, the ♥ card of the level) is written "♥2*" in the
log and in a play's words, and a learner never met the mark explained. The log says it once, above its lines, as
soon as one of them has it; a play with a wildcard says it under its words (its tooltip); a wildcard card's own label
names it."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from guandan.server.i18n_web import strings

from .conftest import LiveServer
from .test_browser_table import MY_TURN_OR_END, seat_me, take_turn

pytestmark = pytest.mark.timeout(300)
LEGEND = "* marks a wildcard: the ♥ card of the level, which stands in for any card but a joker"
WILD_MARKED = re.compile(r"[♠♥♣♦](?:10|[2-9JQKA])\*")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-wild-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_log_and_a_plays_words_say_what_the_wildcards_star_means(browser: Browser, server: LiveServer,
                                                                     lang: str) -> None:
    words = strings(lang)
    legend = words[LEGEND]
    assert legend != LEGEND or lang == "en"  # the catalogue says it in Chinese
    page = seat_me(browser, server, lang, reduced=True)  # greedy bots, a seeded deal, level 2: ♥2 is the wildcard
    try:
        page.tap("#log-toggle")
        starred = False
        for _ in range(200):  # the deal by the hint, up to the first line of the log with a starred card
            page.wait_for_function(MY_TURN_OR_END, timeout=30_000)
            lines = page.locator("#log li:not(.legend)").all_text_contents()
            if any(WILD_MARKED.search(line) for line in lines):
                starred = True
                break
            # no "*" in the log yet: nothing to explain
            assert page.locator("[data-testid=wild-legend]").count() == 0
            if page.locator("[data-testid=continue]").count():
                break
            take_turn(page)
        assert starred, "no wildcard was written in the deal"
        # said once, first, in the page's language
        assert page.locator("#log li").first.get_attribute("data-testid") == "wild-legend"
        assert page.locator("#log li.legend").all_text_contents() == [legend]
        # a play on the table with a wildcard in its words says it under them; the wildcard card names itself
        fans = page.evaluate("[...document.querySelectorAll('#center .cards-fan')].map((f) => f.title)")
        for title in fans:
            assert (legend in title) == bool(WILD_MARKED.search(title.replace(legend, ""))), title
        for label in page.evaluate("[...document.querySelectorAll('.card.wild')].map((c) => c.getAttribute('aria-label'))"):
            assert label.endswith(f" · {words['wildcard']}"), label
    finally:
        page.context.close()
