"""Buttons that a page's script handles start disabled and are enabled only once the script has attached their
handlers: a tap while the page is still loading (the catalogue's request held back here) must not be lost, nor
submit a form the browser's own way and reload the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from guandan.server.events_online import OnlineEvents
from guandan.tournament import online
from guandan.tournament.model import EventConfig

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)
KEY = "browser-ready-key"


def _hold_catalogue(page: Page) -> list[Route]:
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/api/i18n/**", hold)
    return held


def _release(page: Page, held: list[Route]) -> None:
    for _ in range(200):  # the request is made once the module runs; handlers are called while Playwright waits
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the page never asked for its catalogue"
    for route in held:
        route.continue_()
    page.unroute("**/api/i18n/**")


def test_the_lobby_buttons_wait_for_their_handlers(live_server: LiveServer, page: Page) -> None:
    held = _hold_catalogue(page)
    page.goto(live_server.url + "/", wait_until="domcontentloaded")
    buttons = [page.locator(s) for s in ("#quick-play", "#quick-watch", "#create-btn", "#join-btn")]
    for b in buttons:
        expect(b).to_be_disabled()
    _release(page, held)
    for b in buttons:
        expect(b).to_be_enabled()
    page.click("#join-btn")  # handled by the script: an empty code is named, and the page stays
    expect(page.locator("#join-error")).not_to_be_empty()
    assert page.url == live_server.url + "/"


def test_the_arbiter_can_start_a_round_only_once_the_page_holds_the_event(live_server: LiveServer,
                                                                          page: Page) -> None:
    events: OnlineEvents = live_server.app.state.online_events
    tid = online.create_online(events.desk, EventConfig(name="Ready Cup", rounds=1), secret=KEY)
    held = _hold_catalogue(page)
    page.goto(f"{live_server.url}/events/{tid}/arbiter?key={KEY}", wait_until="domcontentloaded")
    for s in ("#start-round", "#key-btn", "#replace-btn"):
        expect(page.locator(s)).to_be_disabled()
    _release(page, held)
    expect(page.locator("#event-name")).to_have_text("Ready Cup")
    expect(page.locator("#key-btn")).to_be_enabled()
    expect(page.locator("#replace-btn")).to_be_enabled()
    # no team has entered: the button stays disabled and the page says why, as the desk words it
    expect(page.locator("#start-round")).to_be_disabled()
    expect(page.locator("[data-testid=round-blockers] li")).to_have_text(["At least two teams are needed; 0 registered"])
