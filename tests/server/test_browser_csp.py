"""Every page works in Debian's chromium with the Content-Security-Policy enforced (the other browser tests
bypass it: Playwright's wait_for_function needs eval): the lobby's form, a table over its WebSocket, the
replay viewer and the rules page run their scripts, and the browser refuses nothing of the app's own."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import LiveServer
from .test_api import _finished_record

pytestmark = pytest.mark.timeout(120)


def test_every_page_runs_under_the_policy(live_server: LiveServer, browser: Any) -> None:
    ctx = browser.new_context()  # the policy enforced
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    url = live_server.url
    page.goto(url + "/")
    assert "script-src 'self';" in httpx.get(url + "/").headers["content-security-policy"]
    expect(page.locator("#preset option").first).to_be_attached()  # lobby.js ran
    page.fill("#deals", "1")
    page.fill("#timer", "0")
    page.fill("#seed", "2")
    for s in (1, 2, 3):
        page.select_option(f"#bot-{s}", "greedy")
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    page.fill("#name", "csp")
    page.click("#sit-0")
    page.click("#ready")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-online", "1")  # the table's WebSocket: connect-src 'self'
    expect(page.locator("#hand .card").first).to_be_visible()

    rid = httpx.post(url + "/api/replays", content=_finished_record(),
                     headers={"Content-Type": "application/json"}).json()["id"]
    page.goto(f"{url}/replay/{rid}")
    expect(page.locator("[data-hand='0'] .card").first).to_be_visible()  # replay.js ran
    expect(page.locator("#visibility")).not_to_be_empty()

    page.evaluate("localStorage.setItem('guandan:lang', 'zh')")
    page.goto(url + "/rules")
    page.wait_for_url("**/rules?lang=zh")  # rules.js followed the lobby's language
    assert refused == []
    ctx.close()
