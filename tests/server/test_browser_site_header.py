"""The site's one header in Debian's chromium, on every page a player moves between (the start page, the events,
a new event, the account, the leaderboard, a player's page, the rules): 掼蛋 leading home, the same four links
with the current page's marked, the language switch; each a 40 px tap target on a phone, the whole on one line
with nothing scrolling sideways, in Chinese and in English, a guest's and an account's. The leaderboard's rule
sets are tabs of the same size. A guest sent from the new-event page to log in comes back to it."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import LiveServer, sign_up

pytestmark = pytest.mark.timeout(300)
PASSWORD = "a long enough password"
# (the address, the header link it marks; the start page marks 掼蛋, its home link)
PAGES = [("/", "home"), ("/events", "events"), ("/events/new", "events"), ("/account", "account"),
         ("/leaderboard", "leaderboard"), ("/u/head_ann", "leaderboard"), ("/rules", "rules")]
LINKS = {"zh": ["赛事", "排行榜", "规则"], "en": ["Events", "Leaderboard", "Rules"]}
LOG_IN = {"zh": "登录", "en": "Log in"}
SWITCH = {"zh": "English", "en": "中文"}

HEADER = """() => {
  const header = document.querySelector('body > header');
  const box = (n) => { const r = n.getBoundingClientRect(); return {w: r.width, h: r.height, top: r.top}; };
  const nav = [...header.querySelectorAll('nav a')];
  const targets = [header.querySelector('h1 a'), ...nav, header.querySelector('#lang')];
  return {cls: header.className, height: box(header).h, home: header.querySelector('h1 a').getAttribute('href'),
    links: nav.map((a) => a.textContent.trim()), marked: [...header.querySelectorAll('[aria-current=page]')].map(
      (a) => a.dataset.nav), targets: targets.map((n) => ({text: n.textContent.trim(), ...box(n)})),
    switch: header.querySelector('#lang').textContent.trim(), wide: document.scrollingElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def head_ann(live_server: LiveServer) -> str:
    """An account, "Head Ann" by its display name."""
    r = httpx.post(f"{live_server.url}/api/auth/signup",
                   json={"username": "head_ann", "password": PASSWORD, "display_name": "Head Ann"})
    assert r.status_code == 201, r.text
    return "head_ann"


def _log_in(page: Page, live_server: LiveServer, username: str) -> None:
    page.goto(f"{live_server.url}/account")
    page.fill("#login-username", username)
    page.fill("#login-password", PASSWORD)
    page.click("#login-btn")
    page.wait_for_selector("#member:not(.hidden)")


def _header(page: Page, url: str, lang: str) -> None:
    """Open ``url`` once its header speaks ``lang`` (common.js init has run on a scripted page)."""
    # the server-rendered pages read the language from the address, as every header link gives it them
    page.goto(url + (f"?lang={lang}" if url.endswith(("/leaderboard", "/rules")) or "/u/" in url else ""))
    expect(page.locator("body > header #lang")).to_have_text(SWITCH[lang])


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(390, 844), (667, 375)])
def test_every_page_has_the_one_header_with_its_own_link_marked(browser: Browser, live_server: LiveServer, lang: str,
                                                                 size: tuple[int, int], head_ann: str) -> None:
    width, height = size
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True,
                              bypass_csp=True, locale="en-US")
    ctx.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        for signed_in in (False, True):
            if signed_in:
                _log_in(page, live_server, head_ann)
            account = "Head Ann" if signed_in else LOG_IN[lang]
            for path, here in PAGES:
                _header(page, f"{live_server.url}{path}", lang)
                # the scripted pages fill the name in from the session; the server's pages write it
                expect(page.locator("#account-link")).to_have_text(account)
                got = page.evaluate(HEADER)
                where = (path, signed_in, got)
                assert got["cls"] == "site-header", where
                assert got["home"].split("?")[0] == "/", where
                assert got["links"] == [*LINKS[lang], account], where
                # one's own player page is the account's
                mark = "account" if signed_in and path == "/u/head_ann" else here
                assert got["marked"] == [mark], where
                assert got["switch"] == SWITCH[lang], where
                # each a thumb's target, all on the one line, and the page no wider than the phone
                assert all(t["w"] >= 40 and t["h"] >= 40 for t in got["targets"]), where
                assert len({round(t["top"]) for t in got["targets"]}) == 1, where
                assert got["height"] <= 48 and got["wide"] <= width, where
        assert problems == []
    finally:
        ctx.close()


@pytest.mark.parametrize("path", ["/events", "/rules"])
def test_the_headers_switch_changes_the_language(browser: Browser, live_server: LiveServer, path: str) -> None:
    ctx = browser.new_context(viewport={"width": 667, "height": 375}, has_touch=True, bypass_csp=True, locale="en-US")
    ctx.add_init_script("if (!sessionStorage.getItem('seen')) { sessionStorage.setItem('seen', '1');"
                        " localStorage.setItem('guandan:lang', 'zh'); }")
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}{path}?lang=zh")
        expect(page.locator("header #lang")).to_have_text("English")
        expect(page.locator("header nav a").first).to_have_text("赛事")
        page.locator("header #lang").click()
        expect(page.locator("header #lang")).to_have_text("中文")
        expect(page.locator("header nav a").first).to_have_text("Events")
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.evaluate("localStorage.getItem('guandan:lang')") == "en"  # the choice holds on the other pages
    finally:
        ctx.close()


def test_a_guest_asked_for_an_account_on_the_new_event_page_comes_back_to_it(browser: Browser,
                                                                             live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True)
    ctx.add_init_script("localStorage.setItem('guandan:lang', 'zh')")
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/events/new")
        note = page.locator("[data-testid=guest-note]")
        expect(note).to_contain_text("创建赛事需要账号：登录或注册后会回到本页。")
        button = page.locator("[data-testid=guest-login]")
        expect(button).to_have_text("登录或注册")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 40
        expect(page.locator("[data-testid=new-event-form]")).to_be_hidden()
        button.click()
        sign_up(page, "head_bea", PASSWORD)
        page.wait_for_url(f"{live_server.url}/events/new")
        expect(page.locator("#account-link")).to_have_text("head_bea")
        expect(note).to_be_hidden()
        expect(page.locator("[data-testid=not-organiser]")).to_be_visible()  # an account, but not an organiser's
    finally:
        ctx.close()


def test_the_leaderboards_rule_sets_are_thumb_sized_tabs_that_wrap_on_an_upright_phone(
        browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    try:
        for lang in ("zh", "en"):
            page.goto(f"{live_server.url}/leaderboard?preset=huaian-traditional&lang={lang}")
            tabs = page.evaluate("""() => [...document.querySelectorAll('main .tabs > *')].map((n) => {
              const r = n.getBoundingClientRect();
              return {w: r.width, h: r.height, right: r.right, current: n.getAttribute('aria-current'),
                      text: n.textContent};
            })""")
            assert len(tabs) >= 3, tabs
            assert all(t["w"] >= 40 and t["h"] >= 40 and t["right"] <= 390 for t in tabs), (lang, tabs)
            assert [t["text"] for t in tabs if t["current"]] == [{"zh": "淮安传统规则", "en": "Huai'an traditional"}[lang]]
            assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    finally:
        ctx.close()
