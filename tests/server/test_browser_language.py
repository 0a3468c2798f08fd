"""A language chosen on the app's pages holds on the pages the server renders (the rules, the leaderboard, a
player's page), which read it from ``?lang=``: a browser that asks for English still gets the Chinese chosen;
and one switched on a server page holds back in the lobby."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("chosen", ["zh", "en"])
def test_the_lobby_links_carry_the_chosen_language(browser: Browser, live_server: LiveServer, chosen: str) -> None:
    other = "zh-CN" if chosen == "en" else "en-US"  # the browser's own language is the other one
    ctx = browser.new_context(locale=other, extra_http_headers={"Accept-Language": other}, bypass_csp=True)
    page = ctx.new_page()
    page.add_init_script(f"localStorage.setItem('guandan:lang', '{chosen}')")
    try:
        for link, heading in (("Leaderboard", {"zh": "排行榜", "en": "Leaderboard"}),
                              ("Rules", {"zh": "规则", "en": "Rules"})):
            page.goto(f"{live_server.url}/")
            page.wait_for_selector("#quick-play:enabled")  # the page's script has run
            page.locator(f"header a[data-t='{link}']").click()
            page.wait_for_load_state()
            assert page.evaluate("document.documentElement.lang") == ("zh-CN" if chosen == "zh" else "en"), link
            assert heading[chosen] in page.locator("body").inner_text(), link
    finally:
        ctx.close()


def test_a_language_switched_on_a_server_page_holds_back_in_the_lobby(browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(locale="en-US", bypass_csp=True)
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/leaderboard?lang=en")
        page.locator("header #lang[hreflang=zh]").click()  # the server page's switch, a link
        page.wait_for_load_state()
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        page.locator("header .site-name a").click()  # 掼蛋: home
        page.wait_for_selector("#quick-play:enabled")
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        assert page.locator("#quick-play").inner_text() == "对战三个机器人"
        page.goto(f"{live_server.url}/")  # and stays the choice without the parameter
        page.wait_for_selector("#quick-play:enabled")
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        page.goto(f"{live_server.url}/?lang=zh")  # the page's own switch still wins over an address's language
        page.wait_for_selector("#quick-play:enabled")
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert page.locator("#quick-play").inner_text() == "Play against three bots"
        assert "lang=" not in page.url
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [360, 390])
def test_the_lobby_header_keeps_each_item_on_one_line_on_an_upright_phone(browser: Browser, live_server: LiveServer,
                                                                          width: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": 780}, bypass_csp=True)
    page = ctx.new_page()
    page.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    try:
        page.goto(f"{live_server.url}/")
        page.wait_for_selector("#quick-play:enabled")
        # one line box per item: "Log in" over two lines, or 中文 stacked, read as two controls
        lines = page.evaluate("[...document.querySelectorAll('header > :not(.spacer)')].map((n) => [n.textContent, "
                              "new Set([...n.getClientRects(), ...[...n.querySelectorAll('*')].flatMap((c) => "
                              "[...c.getClientRects()])].map((r) => Math.round(r.top))).size])")
        assert all(n == 1 for _text, n in lines), lines
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    finally:
        ctx.close()
