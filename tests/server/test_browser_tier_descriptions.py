"""A player choosing a bot on the start page reads what it is, in the page's language: under Play now's strength a
line on the chosen tier, and under the create form's seats a line on each tier chosen there, both following the
choice. The words are `guandan agents`' (the cli catalogue, sent with the tiers by /api/meta); a plugin tier shows
its docstring's line, or no line at all. Read whole on a phone held sideways (844×390, 667×375) and upright
(390×844) and on a desktop (1280×800), in zh and en: nothing cut by its box or an ancestor, nothing wider than the
page. Screenshots go to $TMPDIR/guandan-shots/tier-about-*.png."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.agents import base
from guandan.agents.base import agent_description
from guandan.core.deal import Action
from guandan.core.match import MatchObservation
from guandan.i18n import translator
from guandan.server.i18n_web import strings

from .conftest import LiveServer
from .test_browser_phone_texts import CLIPPED

pytestmark = pytest.mark.timeout(240)
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"
SIZES = [(844, 390), (667, 375), (390, 844), (1280, 800)]


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-tiers-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


def about(tier: str, lang: str) -> str:
    return agent_description(tier, translator("cli", lang).gettext)


def start_page(browser: Browser, live: LiveServer, size: tuple[int, int], lang: str) -> Page:
    w, h = size
    ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=w < 1000, bypass_csp=True,
                              reduced_motion="reduce")
    page = ctx.new_page()
    page.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live.url}/")
    expect(page.locator("#quick-play")).to_be_enabled()
    return page


def whole(page: Page, selector: str) -> None:
    """The node at ``selector`` is shown and read whole once scrolled into view, and the page is no wider than
    the screen."""
    page.locator(selector).scroll_into_view_if_needed()
    assert page.evaluate(CLIPPED, selector) == [], selector
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page is wider than the screen"


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_chosen_tier_is_described_under_its_select(browser: Browser, server: LiveServer, lang: str,
                                                       size: tuple[int, int]) -> None:
    names = strings(lang)
    page = start_page(browser, server, size, lang)
    try:
        quick = page.locator("[data-testid=quick-tier-about]")
        # Play now: the default strength's line, then the one chosen
        expect(quick).to_have_text(about("heuristic", lang))
        whole(page, "#quick-tier-about")
        page.select_option("#quick-tier", "search")
        expect(quick).to_have_text(about("search", lang))
        whole(page, "#quick-tier-about")
        # the create form: three bots of one tier, one line; a seat given another tier, a line for it too, in
        # seat order; only open seats, none
        seats = page.locator("[data-testid=seat-tiers-about] li")
        sep = "：" if lang == "zh" else ": "
        expect(seats).to_have_text([f"{names['heuristic']}{sep}{about('heuristic', lang)}"])
        page.select_option("#bot-1", "search")
        page.select_option("#bot-3", "random")
        expect(seats).to_have_text([f"{names[t]}{sep}{about(t, lang)}" for t in ("search", "heuristic", "random")])
        for i in range(3):
            whole(page, f"[data-testid=seat-tiers-about] li:nth-child({i + 1})")
        whole(page, "#seat-tiers-about")
        SHOTS.mkdir(exist_ok=True)
        w, h = size
        page.locator("#quick-tier").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"tier-about-quick-{lang}-{w}x{h}.png"))
        page.locator("#seat-tiers-about").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"tier-about-seats-{lang}-{w}x{h}.png"))
        page.screenshot(path=str(SHOTS / f"tier-about-page-{lang}-{w}x{h}.png"), full_page=True)
        for s in range(4):
            page.select_option(f"#bot-{s}", "")
        expect(page.locator("[data-testid=seat-tiers-about]")).to_be_hidden()
        # what the player chose is what is played: the line and the choice stay one
        page.select_option("#quick-tier", "greedy")
        expect(quick).to_have_text(about("greedy", lang))
    finally:
        page.context.close()


class _Documented(base.Agent):
    """Plays the legal action with the fewest cards.

    Nothing below the first paragraph is shown."""

    name = "documented"

    def choose(self, obs: MatchObservation, legal: Sequence[Action]) -> Action:
        return legal[0]


def test_a_plugin_tier_shows_its_docstring_or_nothing(browser: Browser, server: LiveServer,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(base._REGISTRY, "documented", _Documented)
    monkeypatch.setitem(base._REGISTRY, "bare", lambda seed, budget: _Documented(seed, budget))
    page = start_page(browser, server, (390, 844), "zh")
    try:
        quick = page.locator("[data-testid=quick-tier-about]")
        page.select_option("#quick-tier", "documented")
        expect(quick).to_have_text("Plays the legal action with the fewest cards.")
        page.select_option("#quick-tier", "bare")
        expect(quick).to_be_hidden()
        for s in range(4):
            page.select_option(f"#bot-{s}", "bare" if s % 2 else "documented")
        expect(page.locator("[data-testid=seat-tiers-about] li")).to_have_text(
            ["documented：Plays the legal action with the fewest cards."])
    finally:
        page.context.close()
