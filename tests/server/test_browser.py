"""The web app in Debian's chromium through Playwright: a whole match of two deals against bots through
the UI (lobby form, sitting, ready, plays, the tribute flow, the end and the replay), a refresh mid-deal,
and a spectator whose page and WebSocket frames hold no hidden card."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from .conftest import LiveServer
from .test_ws import _cards_in

pytestmark = pytest.mark.timeout(240)
SEED = "1"
SHOTS = Path(__file__).resolve().parents[2] / "data" / "screenshots"


@pytest.fixture
def errors(page: Page) -> list[str]:
    found: list[str] = []
    page.on("pageerror", lambda e: found.append(str(e)))
    return found


def seq(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.seq || '-1'"))


def wait_turn_or_over(page: Page) -> str:
    page.wait_for_function(
        "document.body.dataset.status === 'over' || (document.body.dataset.toMove === '0' && "
        "!document.getElementById('hint').disabled)", timeout=30_000)
    return str(page.evaluate("document.body.dataset.status"))


def take_turn(page: Page, prefer_pass: bool) -> str:
    """One turn through the controls; returns the phase it was taken in."""
    phase = str(page.evaluate("document.body.dataset.phase"))
    before = seq(page)
    if page.locator("button.choose").count():
        page.locator("button.choose").first.click()
    elif prefer_pass and page.locator("#pass").is_enabled():
        page.click("#pass")
    else:
        shown = page.evaluate("Number(document.body.dataset.hints || 0)")
        page.click("#hint")
        page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {shown}")
        if page.locator("#hand .card.selected").count() == 0:
            page.click("#pass")
        elif page.locator("#play").is_enabled():
            page.click("#play")
        else:
            page.locator("button.reading").first.click()  # several readings: pick one
    page.wait_for_function(f"Number(document.body.dataset.seq) > {before} || document.body.dataset.status === 'over'")
    return phase


def tribute_cards_in_view(page: Page) -> None:
    """A double tribute (this seat's team paid both): one line a card given, and on a phone held sideways
    each line's card in view, whatever the names leave, and who holds it now after it (the giver gives way)."""
    expect(page.locator("#tribute-info [data-type=tribute]")).to_have_count(2)
    expect(page.locator("#tribute-info [data-type=return]")).to_have_count(2)
    page.set_viewport_size({"width": 844, "height": 390})
    try:
        info = page.locator("#info").bounding_box()
        for card in page.locator("#tribute-info .tcard").all():
            assert re.fullmatch(r"[♠♥♣♦](10|[2-9JQKA])|[^\x00-\x7f]+", card.inner_text()), card.inner_text()
            box = card.bounding_box()
            assert info and box and box["x"] + box["width"] <= info["x"] + info["width"], (box, info)
        for line in page.locator("#tribute-info > div").all():
            assert not line.locator(".giver").is_visible()
            # "→" and the receiver's first characters are in view: the ellipsis, if any, comes after them
            arrow = line.locator(".receiver").bounding_box()
            assert info and arrow and arrow["x"] + 40 <= info["x"] + info["width"], (arrow, info)
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})


def sit_and_ready(page: Page, url: str) -> None:
    page.goto(url)
    page.fill("#name", "Tester")
    page.click("#sit-0")
    expect(page.locator("#ready")).to_be_visible()
    page.click("#ready")
    expect(page.locator("#table")).to_be_visible()


def test_play_a_match_against_bots_with_the_tribute_flow(live_server: LiveServer, page: Page, errors: list[str]) -> None:
    page.goto(live_server.url + "/")
    page.fill("#deals", "2")
    page.fill("#seed", SEED)  # fixed deals: with this seed the player finishes last and pays tribute
    for s in (1, 2, 3):
        page.select_option(f"#bot-{s}", "greedy")  # the quickest tier keeps the test short
    page.fill("#timer", "0")
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    page.fill("#name", "Tester")
    page.click("#sit-0")
    page.click("#ready")
    phases: list[str] = []
    checked_tribute_lines = False
    while wait_turn_or_over(page) != "over":
        deal = int(page.evaluate("document.body.dataset.deal"))
        if deal == 1 and page.evaluate("document.body.dataset.phase") == "play" and not checked_tribute_lines:
            expect(page.locator("#info")).to_contain_text("Deal 2")
            expect(page.locator("#info")).to_contain_text("Declarer: Team")  # the first deal's winners
            tribute_cards_in_view(page)
            checked_tribute_lines = True
        # passing whenever allowed in the first deal makes this seat finish last and pay tribute (进贡) in the second
        phases.append(take_turn(page, prefer_pass=deal == 0))
        if len(phases) == 3:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "table.png"))
    assert "tribute" in phases, phases  # this seat paid its tribute through the UI
    assert checked_tribute_lines
    expect(page.locator("#match-over")).to_be_visible()
    # the last deal's panel stays up: the match's end reads above its Close, the links on Close's row
    close = page.locator("[data-testid=deal-end-close]").bounding_box()
    said = page.locator("#match-over").bounding_box()
    link = page.locator("#replay-link").bounding_box()
    assert close and said and link and said["y"] + said["height"] <= close["y"] + 1, (said, close)
    assert abs((link["y"] + link["height"] / 2) - (close["y"] + close["height"] / 2)) < 4, (link, close)
    page.click("#replay-link")
    page.wait_for_url("**/replay/*")
    expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
    page.click("#next")
    page.click("#next")
    assert page.evaluate("document.body.dataset.step") == "2"
    assert errors == []


def test_refresh_mid_deal_lands_back_in_the_game(live_server: LiveServer, page: Page, errors: list[str]) -> None:
    code = httpx.post(live_server.url + "/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "timer": 0,
                                                            "max_deals": 1, "seed": 9}).json()["code"]
    # a phone held in landscape, in Chinese
    page.set_viewport_size({"width": 844, "height": 390})
    page.add_init_script("localStorage.setItem('guandan:lang', 'zh')")
    sit_and_ready(page, f"{live_server.url}/r/{code}")
    expect(page.locator("#pass")).to_have_text("不要")
    # a deal is 副 here as in the deal-end panel and the rules; the first deal has no declarer (庄家) to name
    expect(page.locator("#info")).to_contain_text("第1副")
    expect(page.locator("#info")).not_to_contain_text("庄家")
    for _ in range(3):
        wait_turn_or_over(page)
        take_turn(page, prefer_pass=False)
    wait_turn_or_over(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "table-zh-phone.png"))
    hand = sorted(page.locator("#hand .card").evaluate_all("n => n.map(x => x.dataset.card)"))
    at = seq(page)
    page.reload()
    page.wait_for_function(f"document.body.dataset.seq === '{at}'")
    assert sorted(page.locator("#hand .card").evaluate_all("n => n.map(x => x.dataset.card)")) == hand
    wait_turn_or_over(page)
    take_turn(page, prefer_pass=False)
    assert seq(page) > at
    assert errors == []


def test_a_spectator_never_receives_a_hidden_card(live_server: LiveServer, page: Page, browser: Any,
                                                  errors: list[str]) -> None:
    code = httpx.post(live_server.url + "/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "timer": 0,
                                                            "max_deals": 1, "seed": 4}).json()["code"]
    watcher_ctx = browser.new_context()
    watcher = watcher_ctx.new_page()
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    watcher.goto(f"{live_server.url}/r/{code}")
    sit_and_ready(page, f"{live_server.url}/r/{code}")
    for _ in range(4):
        wait_turn_or_over(page)
        take_turn(page, prefer_pass=False)
    watcher.wait_for_function(f"Number(document.body.dataset.seq) >= {seq(page)}")
    expect(watcher.locator("#hand .card")).to_have_count(0)
    for control in ("#play", "#pass", "#hint", "#auto", "#talk"):  # nothing to press…
        expect(watcher.locator(control)).to_be_hidden()
    expect(watcher.locator("#pos-me .nm")).to_be_visible()  # …and the bottom seat shown as the others are
    public: set[str] = set()
    checked = 0
    for raw in frames:
        f = json.loads(raw)
        view = f.get("view")
        for e in f.get("events", []) + (view.get("events", []) if view else []):
            _cards_in(e, public)
        if view:
            assert "hand" not in view and "legal" not in view
            if view.get("top"):
                _cards_in(view["top"], public)
        seen: set[str] = set()
        _cards_in(f, seen)
        assert seen <= public, seen - public
        checked += 1
    assert checked >= 5
    watcher_ctx.close()
    assert errors == []
