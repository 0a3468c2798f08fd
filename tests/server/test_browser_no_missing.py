"""A page of the site asks the server for nothing it lacks: the rules page and the player pages had no icon
link, so a browser asked for /favicon.ico and every visitor's console showed a 404."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)

PAGES = ["/", "/rules", "/leaderboard", "/events", "/events/new", "/account"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_sites_pages_load_without_a_missing_resource(browser: Browser, live_server: LiveServer, lang: str) -> None:
    context = browser.new_context(viewport={"width": 844, "height": 390})
    missing: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and missing.append(f"{m.text} {m.location.get('url')}"))
        page.on("response", lambda r: r.status >= 400 and missing.append(f"{r.status} {r.url}"))
        for path in PAGES:
            page.goto(f"{live_server.url}{path}?lang={lang}")
            page.wait_for_load_state("networkidle")
        assert missing == []
    finally:
        context.close()


def test_favicon_ico_leads_to_the_sites_icon(live_server: LiveServer) -> None:
    r = httpx.get(f"{live_server.url}/favicon.ico", follow_redirects=True, timeout=30)
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.history and r.history[0].status_code == 301
