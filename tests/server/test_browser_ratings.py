"""Ratings in Debian's chromium, on a phone held sideways: a player signs up, creates a rated room against three
bots from the lobby's form, sits (the seat goes to the account), plays the one-deal match to its end (the
first plays by hand, then 托管), and finds the rating, the match and its replay on the player page; the
leaderboard lists them beside the bots' fixed ratings."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from .conftest import LiveServer, sign_up
from .test_browser import take_turn, wait_turn_or_over

pytestmark = pytest.mark.timeout(240)


def test_a_logged_in_player_plays_a_rated_match_and_sees_it_on_the_player_page(
        browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 844, "height": 390}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.add_init_script("localStorage.setItem('guandan:lang', 'en')")
    try:
        page.goto(f"{live_server.url}/account")
        sign_up(page, "rated_player", display="Rated Rita")
        page.wait_for_selector("#member:not(.hidden)")

        page.goto(f"{live_server.url}/")
        page.wait_for_selector("[data-testid=account-link].logged-in")
        page.check("[data-testid=rated]")
        page.fill("#deals", "1")
        page.fill("#timer", "0")
        page.select_option("#bot-0", "")
        for s in (1, 2, 3):
            page.select_option(f"#bot-{s}", "greedy")
        page.click("#create-btn")
        page.wait_for_url("**/r/*")
        code = page.url.rsplit("/", 1)[1]
        expect(page.locator("#sit-0")).to_be_enabled()
        page.click("#sit-0")
        expect(page.locator("#ready")).to_be_visible()
        page.click("#ready")
        expect(page.locator("#rated")).to_be_visible()  # the table says the match is rated
        for _ in range(2):  # a couple of turns by hand, then 托管 plays the rest
            if wait_turn_or_over(page) == "over":
                break
            take_turn(page, prefer_pass=False)
        if page.evaluate("document.body.dataset.status") != "over":
            page.click("#auto")
        page.wait_for_function("document.body.dataset.status === 'over'", timeout=120_000)
        expect(page.locator("#match-over")).to_be_visible()
        replay_href = page.locator("#replay-link").get_attribute("href")
        assert replay_href and replay_href.startswith("/replay/")

        # the account's page: the rating, the match, its replay; the rating is stored right after the replay
        page.goto(f"{live_server.url}/u/rated_player?lang=en")
        for _ in range(20):
            if page.locator(".matches .match").count():
                break
            page.wait_for_timeout(250)
            page.reload()
        expect(page.locator("h2")).to_have_text("Rated Rita")
        expect(page.locator(".matches .match")).to_have_count(1)
        expect(page.locator(f".matches a[href='{replay_href}']")).to_have_count(1)
        expect(page.locator("svg.chart circle")).to_have_count(1)
        rating = page.locator("table.board tbody tr td.strong").first.inner_text()
        assert rating.isdigit() and 0 < int(rating) < 3000
        assert "Greedy" in page.locator(".matches .with").inner_text()
        page.locator(f".matches a[href='{replay_href}']").click()
        page.wait_for_url(f"**{replay_href}")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)

        page.goto(f"{live_server.url}/leaderboard?preset=competition&lang=en")
        expect(page.locator("a[href^='/u/rated_player']")).to_have_count(1)
        expect(page.locator(".bots tr")).to_have_count(4)
        assert code and problems == []
    finally:
        ctx.close()


def test_the_leaderboard_and_a_player_page_run_under_the_policy(browser: Browser, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})  # the Content-Security-Policy enforced
    page = ctx.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(str(e)))
    try:
        page.goto(f"{live_server.url}/account")
        sign_up(page, "policy_player")
        page.wait_for_selector("#member:not(.hidden)")
        for path in ("/leaderboard?lang=zh", "/u/policy_player?lang=zh", "/u/policy_player/avatar.svg"):
            page.goto(live_server.url + path)
        page.goto(f"{live_server.url}/u/policy_player?lang=zh")
        expect(page.locator(".who svg.identicon")).to_have_count(1)
        # the page is no wider than the phone
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert refused == []
    finally:
        ctx.close()


def test_a_guest_at_a_rated_room_is_led_to_log_in_and_back_to_the_room(browser: Browser, live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as host:
        csrf = host.post("/api/auth/signup", json={"username": "rated_host", "password": "a long enough password"}
                         ).json()["csrf"]
        r = host.post("/api/rooms", json={"bots": [None, "greedy", None, "greedy"], "rated": True, "max_deals": 1,
                                          "timer": 0}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.add_init_script("localStorage.setItem('guandan:lang', 'zh')")
    try:
        page.goto(f"{live_server.url}/r/{code}")
        expect(page.locator("#sit-0")).to_be_enabled()
        expect(page.locator("#name")).to_be_hidden()  # a rated seat is an account's, under its own name
        page.click("#sit-0")
        expect(page.locator("#lobby-error")).to_contain_text("你还没有登录")
        login = page.locator("[data-testid=lobby-login]")
        expect(login).to_have_text("登录或注册")
        login.click()
        sign_up(page, "rated_guest")
        page.wait_for_url(f"{live_server.url}/r/{code}")  # back at the room, logged in: the seat is taken
        expect(page.locator("#sit-0")).to_be_enabled()
        page.click("#sit-0")
        expect(page.locator("#ready")).to_be_visible()
        assert problems == []
    finally:
        ctx.close()
