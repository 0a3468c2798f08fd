"""In Debian's chromium, in both languages: the room's link opened on a second device logged in to the account that
holds a seat there (a device without the seat's token) offers "Take your seat here" over the table; a tap takes the
seat for that device (the reclaim endpoint, with the session's CSRF token), which then plays it with its own hand,
while the first device is told, watches, and is offered the seat back in turn. Another account's page and a guest's
are offered nothing. Screenshots at 390×844 and 844×390 go to $TMPDIR/guandan-shots."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import LiveServer, resize
from .test_browser_site_lists import SHOTS, SIZES, _log_in, _page, _sign_up

pytestmark = pytest.mark.timeout(240)
PHONE, SIDEWAYS, LAPTOP = SIZES
SMALL_SIDEWAYS: ViewportSize = {"width": 667, "height": 375}


def _answered(page: Page) -> None:
    """The page is in as a spectator and has asked whether the account holds a seat here."""
    page.wait_for_function("document.body.dataset.status === 'playing' && document.body.dataset.claim !== undefined",
                           timeout=30_000)


@pytest.mark.parametrize(("lang", "offer", "button", "moved"), [
    ("zh", "你的账号在这个房间有座位：座位1。", "在此设备接回座位", "你的座位已在另一台登录了你账号的设备上接回"),
    ("en", "Your account holds seat 1 in this room.", "Take your seat here",
     "Your seat was taken on another device logged in to your account")])
def test_the_rooms_link_on_a_second_device_offers_the_accounts_seat_and_takes_it(
        browser: Browser, live_server: LiveServer, lang: str, offer: str, button: str, moved: str) -> None:
    url, user = live_server.url, f"take_here_{lang}"
    problems: list[str] = []
    phone = _page(browser, lang, LAPTOP, problems)
    second = _page(browser, lang, PHONE, problems)
    other = _page(browser, lang, SIDEWAYS, problems)
    guest = _page(browser, lang, PHONE, problems)
    try:
        _sign_up(phone, url, user)
        phone.goto(f"{url}/")
        phone.locator("[data-testid=account-link].logged-in").wait_for()
        phone.select_option("#quick-tier", "greedy")
        phone.fill("#timer", "0")  # no turn timer: the seat waits for its player while it moves
        phone.click("[data-testid=quick-play]")  # seat 1 against three bots, as the account's seat
        phone.wait_for_url("**/r/*")
        code = phone.url.rsplit("/", 1)[1]
        phone.wait_for_function("document.body.dataset.status === 'playing'", timeout=30_000)
        _answered(phone)
        expect(phone.locator("[data-testid=claim]")).to_be_hidden()  # it plays the seat: nothing to offer

        # another account, and a guest, open the room's link: they watch, and are offered no seat
        _sign_up(other, url, f"not_the_owner_{lang}")
        for page in (other, guest):
            page.goto(f"{url}/r/{code}")
            _answered(page)
            assert page.evaluate("document.body.dataset.claim") == "none"
            expect(page.locator("[data-testid=claim]")).to_be_hidden()
            expect(page.locator("#info .badge").filter(has_text="观战中" if lang == "zh" else "Spectating")).to_be_visible()
        other.screenshot(path=str(SHOTS / f"claim-none-{lang}-844x390.png"))

        # the same account on a second device, by the room's link alone: it is offered the seat
        _log_in(second, url, user)
        second.goto(f"{url}/r/{code}")
        _answered(second)
        claim = second.locator("[data-testid=claim]")
        expect(claim).to_be_visible()
        expect(claim).to_contain_text(offer)
        take = claim.get_by_role("button", name=button)
        expect(take).to_be_visible()
        expect(second.locator("[data-testid=hand] [data-testid=card]")).to_have_count(0)  # a spectator sees no hand
        assert second.evaluate(f"localStorage.getItem('guandan:token:{code}')") is None
        for size in (PHONE, SIDEWAYS):
            resize(second, size["width"], size["height"])
            box, table = claim.bounding_box(), second.locator("[data-testid=table]").bounding_box()
            assert box is not None and table is not None and box["y"] + box["height"] <= table["y"] + 1  # over the table
            assert second.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            second.screenshot(path=str(SHOTS / f"claim-{lang}-{size['width']}x{size['height']}.png"))
        resize(second, PHONE["width"], PHONE["height"])

        take.click()
        expect(second.locator("[data-testid=hand] [data-testid=card]").first).to_be_visible(timeout=30_000)
        expect(claim).to_be_hidden()
        assert second.evaluate(f"localStorage.getItem('guandan:token:{code}')")  # kept as a seat taken here is
        second.screenshot(path=str(SHOTS / f"claim-taken-{lang}-390x844.png"))
        # the first device is told and watches; its account's seat is offered back to it in turn
        expect(phone.locator("#notice-text")).to_contain_text(moved, timeout=10_000)
        expect(phone.locator("[data-testid=claim]")).to_contain_text(offer, timeout=10_000)
        expect(phone.locator("[data-testid=hand] [data-testid=card]")).to_have_count(0)
        phone.screenshot(path=str(SHOTS / f"claim-back-{lang}-1280x800.png"))
        # the other account's page still offers nothing (it never held the seat's token, nor its account the seat)
        other.reload()
        _answered(other)
        assert other.evaluate("document.body.dataset.claim") == "none"
        assert problems == []
    finally:
        for p in (phone, second, other, guest):
            p.context.close()


@pytest.mark.parametrize(("lang", "offer", "sit"), [("zh", "你的账号在这个房间有座位：座位1。", "坐这里"),
                                                    ("en", "Your account holds seat 1 in this room.", "Sit here")])
def test_a_lobby_offers_the_accounts_own_seat_not_a_second_one(browser: Browser, live_server: LiveServer, lang: str,
                                                                offer: str, sit: str) -> None:
    """A lobby opened on a second device logged in to the account that took seat 1 there: "Sit here" was offered on
    every open seat (and the server gave the account a second seat); the page offers the account's own seat back
    instead, and no other. Another account's page is offered the open seats as before."""
    url, user = live_server.url, f"lobby_seat_{lang}"
    problems: list[str] = []
    phone = _page(browser, lang, LAPTOP, problems)
    second = _page(browser, lang, SIDEWAYS, problems)
    other = _page(browser, lang, PHONE, problems)
    try:
        _sign_up(phone, url, user)
        _sign_up(other, url, f"lobby_other_{lang}")
        made = phone.request.post(f"{url}/api/rooms", data={"bots": [None, None, "greedy", None], "timer": 0})
        code = made.json()["code"]
        assert phone.request.post(f"{url}/api/rooms/{code}/join", data={"seat": 0, "name": "Ann"}).ok  # as the account
        _log_in(second, url, user)
        for page in (second, other):
            page.goto(f"{url}/r/{code}")
            page.wait_for_function("document.body.dataset.status === 'lobby' && document.body.dataset.claim !== undefined",
                                   timeout=30_000)
        # the other account: the open seats (2 and 4), as before
        expect(other.locator("#lobby-seats button").filter(has_text=sit)).to_have_count(2)
        assert other.evaluate("document.body.dataset.claim") == "none"
        # the same account: its own seat, and no second one
        claim = second.locator("[data-testid=claim]")
        expect(claim).to_contain_text(offer)
        expect(second.locator("#lobby-seats .seat-box[data-seat='1']")).to_be_visible()
        expect(second.locator("#lobby-seats button").filter(has_text=sit)).to_have_count(0)
        for size in (PHONE, SIDEWAYS, LAPTOP, SMALL_SIDEWAYS):
            resize(second, size["width"], size["height"])
            second.screenshot(path=str(SHOTS / f"claim-lobby-{lang}-{size['width']}x{size['height']}.png"))
        claim.get_by_role("button").click()
        expect(second.locator("#ready")).to_be_visible(timeout=10_000)  # seat 1 is this device's now, in the lobby
        expect(claim).to_be_hidden()
        expect(second.locator("#lobby-seats button").filter(has_text=sit)).to_have_count(0)
        assert problems == []
    finally:
        for p in (phone, second, other):
            p.context.close()
