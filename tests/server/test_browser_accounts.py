"""Accounts in Debian's chromium, on a phone held sideways: a guest plays a match, signs up on the account
page (in Chinese) and finds that match among its games; the lobby's header shows the account's name;
logging out and in again keeps the games."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import Browser, expect
from websockets.sync.client import connect

from .conftest import LiveServer, sign_up

pytestmark = pytest.mark.timeout(180)


def guest_match(live: LiveServer, name: str = "游客") -> tuple[str, str, str]:
    """A one-deal match against three bots played out by 托管 for seat 1: (room code, seat token, replay id)."""
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1,
                                          "timer": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": name}).json()["token"]
        with connect(f"{live.url.replace('http', 'ws')}/ws/{code}?token={token}", open_timeout=30) as ws:
            assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
            ws.send(json.dumps({"type": "auto", "on": True}))
            while True:
                frame: dict[str, Any] = json.loads(ws.recv(timeout=60))
                if frame.get("type") == "room" and frame["room"]["status"] == "over":
                    break
        replay_id = c.get(f"/api/rooms/{code}", params={"token": token}).json()["replay_id"]
    assert replay_id
    return code, token, str(replay_id)


def test_a_guest_signs_up_keeps_its_game_and_logs_in_again(browser: Browser, live_server: LiveServer) -> None:
    code, token, replay_id = guest_match(live_server)
    ctx = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.add_init_script("localStorage.setItem('guandan:lang', 'zh')")
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:token:{code}', '{token}')")  # the guest's seat token
        link = page.locator("[data-testid=account-link]")
        expect(link).to_have_text("登录")  # once the page's words are loaded (before, it reads "登录 / Log in")
        link.click()
        sign_up(page, "browser_player", "short", display="小明")
        page.wait_for_selector("#signup-error:not(:empty)")
        assert page.locator("#signup-error").inner_text() == "密码至少要8个字符。"
        page.fill("#signup-password", "a long enough password")
        page.click("#signup-btn")
        page.wait_for_selector("#member:not(.hidden)")
        assert page.locator("[data-testid=me-username]").inner_text() == "browser_player"
        game = page.locator(f"[data-testid=my-games] [data-replay='{replay_id}']")
        game.wait_for()
        # titled by who played whom (the account's own seat as 你, its team first), the id kept small beside it
        title = game.locator(".replay-title").inner_text()
        assert title.startswith("你 / ") and " 对 " in title and replay_id not in title, title
        assert game.locator(".replay-id").inner_text() == replay_id
        page.wait_for_selector("#sessions:not(:empty)")
        assert page.locator("#sessions").inner_text() == "已登录的会话：1"
        # the session cookie is the server's own, out of the page's reach
        assert "guandan_session" not in page.evaluate("document.cookie")
        cookies = {c["name"]: c for c in ctx.cookies()}
        assert cookies["guandan_session"]["httpOnly"] and cookies["guandan_session"]["sameSite"] == "Lax"
        page.goto(f"{live_server.url}/")
        page.wait_for_selector("[data-testid=account-link].logged-in")
        assert link.inner_text() == "小明"
        link.click()
        page.wait_for_selector("#member:not(.hidden)")
        page.click("[data-testid=logout]")
        page.wait_for_selector("#guest:not(.hidden)")
        assert "guandan_session" not in {c["name"] for c in ctx.cookies()}
        page.fill("#login-username", "Browser_Player")
        page.fill("#login-password", "a wrong password")
        page.click("#login-btn")
        page.wait_for_selector("#login-error:not(:empty)")
        assert page.locator("#login-error").inner_text() == "用户名或密码不对。"
        page.fill("#login-password", "a long enough password")
        page.click("#login-btn")
        page.wait_for_selector("#member:not(.hidden)")
        page.locator(f"[data-testid=my-games] [data-replay='{replay_id}']").wait_for()
        assert problems == []
    finally:
        ctx.close()


def test_the_account_page_runs_under_the_policy(browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context()  # the Content-Security-Policy enforced (the test above bypasses it)
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    try:
        page.goto(f"{live_server.url}/account")
        sign_up(page, "csp_player")  # once account.js ran
        page.wait_for_selector("#member:not(.hidden)")
        page.goto(f"{live_server.url}/")
        page.wait_for_selector("[data-testid=account-link].logged-in")  # account_link.js ran
        assert refused == []
    finally:
        ctx.close()


def test_a_log_in_goes_back_to_the_page_that_asked_for_it_and_only_to_this_site(
        browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    page.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    try:
        # another site's address in ?next= (as a browser reads "//host" and "/\host") is not followed
        for i, elsewhere in enumerate(("//example.com/x", "/\\example.com/x", "https://example.com/")):
            page.goto(f"{live_server.url}/account?next={quote(elsewhere)}")
            sign_up(page, f"next_player{i}")
            page.wait_for_selector("#member:not(.hidden)")
            assert page.url.startswith(f"{live_server.url}/account")
            page.click("[data-testid=logout]")
            page.wait_for_selector("#guest:not(.hidden)")
        # a page of this site is: the log-in lands there
        page.goto(f"{live_server.url}/account?next={quote('/leaderboard?preset=competition')}")
        page.wait_for_selector("#guest:not(.hidden)")
        page.fill("#login-username", "next_player0")
        page.fill("#login-password", "a long enough password")
        page.click("#login-btn")
        page.wait_for_url(f"{live_server.url}/leaderboard?preset=competition")
    finally:
        ctx.close()


def test_the_log_in_form_says_what_a_forgotten_password_takes_and_a_change_says_it_is_done(
        browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    page.add_init_script("localStorage.setItem('guandan:lang', 'zh')")
    try:
        page.goto(f"{live_server.url}/account")
        page.wait_for_selector("#guest:not(.hidden)")
        forgot = page.locator("[data-testid=forgot]")
        expect(forgot.locator("summary")).to_have_text("忘记密码了？")
        forgot.locator("summary").click()
        expect(forgot.locator("p")).to_contain_text("本站不保存电子邮箱")
        box = forgot.locator("summary").bounding_box()
        assert box is not None and box["height"] >= 40  # a thumb's target
        sign_up(page, "forgot_player")
        page.wait_for_selector("#member:not(.hidden)")
        page.fill("#old-password", "a long enough password")
        page.fill("#new-password", "another long password")
        page.click("#password-form button[type=submit]")
        # no other device was logged in: nothing to count
        expect(page.locator("#password-msg")).to_have_text("密码已修改。")
    finally:
        ctx.close()
