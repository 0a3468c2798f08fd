"""A learner at the table met a term (报牌, 逢人配, 进贡) and had no way to the rules but the title's link home,
which leaves the seat mid-deal: the table's header links to the rules, in the page's language, in a tab of their
own, the table staying where it was (found by playing a first deal through as one who never played)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)
PHONE_SIDEWAYS: ViewportSize = {"width": 844, "height": 390}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


@pytest.mark.parametrize(("lang", "label", "heading", "viewport"),
                         [("zh", "规则", "掼蛋规则（中文）", PHONE_SIDEWAYS),
                          ("en", "Rules", "Rules of Guandan (English)", DESKTOP)])
def test_the_table_links_to_the_rules_in_its_language_without_leaving_the_seat(
        browser: Browser, live_server: LiveServer, lang: str, label: str, heading: str,
        viewport: ViewportSize) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1,
                                          "seed": 3, "timer": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Learner"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 1000, bypass_csp=True)
    page = ctx.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}')")
        page.goto(f"{live_server.url}/r/{code}")
        page.wait_for_function("document.body.dataset.status === 'playing'", timeout=30000)
        link = page.locator("header [data-testid=rules-link]")
        expect(link).to_have_text(label)
        expect(link).to_be_in_viewport(ratio=1)  # whole in the header, beside the language switch
        with ctx.expect_page() as opened:
            link.click()
        rules = opened.value
        rules.wait_for_load_state()
        assert rules.url == f"{live_server.url}/rules?lang={lang}"
        expect(rules.locator("article h1").first).to_have_text(heading)
        assert page.url == f"{live_server.url}/r/{code}"  # the seat's page is still the table
        expect(page.locator("[data-testid=hand] [data-testid=card]").first).to_be_visible()
    finally:
        ctx.close()
