"""A seat's play lies clear of every seat's plate on a phone held sideways (844×390, 667×375), in zh and en, from the
first frame of its way in to where it rests: a learner's walkthrough found the left seat's plays (a straight, a
plate) drawn small and faded over that seat's avatar at the player's turn. The play flew in from the middle of its
seat's plate, and the left seat plays just before the player, so its play was on the way in whenever the player's
turn began. The motion is looked at frame by frame: the page's flights are held at their start (an init script) and
stepped through by the test, whatever the machine's speed. Screenshots go to $TMPDIR/guandan-shots."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .conftest import LiveServer
from .test_browser_table import MY_TURN_OR_END, take_turn

pytestmark = pytest.mark.timeout(300)
SHOTS = Path(tempfile.gettempdir()) / "guandan-shots"
SIZES = [(844, 390), (667, 375)]
# greedy bots dealt from this seed: the left seat (seat 4) leads a six-card play at its first turn and plays other
# long combinations later in the deal
SEED = 3
FLY_MS = 240  # table_fx.js: every flight ends within it

# each play's flight (table_fx.js animates a trick's fan) is kept, paused at its start, for the test to step through;
# any other motion runs as it would
HOLD_FLIGHTS = """
window.__flights = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const anim = animate.apply(this, args);
  if (this.classList.contains('cards-fan')) { anim.pause(); window.__flights.push([this, anim]); }
  return anim;
};
"""

# every frame of the flights shown now (a fan drawn anew since is not on the page): where the play is against each
# seat's plate, then the flight ended; and where every play on the table rests
OVER_PLATES = """(flyMs) => {
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const plates = [...document.querySelectorAll('#table .seat-plate')].filter((n) => n.offsetParent);
  const over = (fan, when) => plates.filter((p) => meet(fan.getBoundingClientRect(), p.getBoundingClientRect()))
    .map((p) => `${fan.parentElement.id} (${fan.querySelectorAll('.card').length} cards) ~ #${p.id} ${when}`);
  const out = [];
  let seen = 0;
  for (const [fan, anim] of window.__flights.splice(0)) {
    if (!fan.isConnected) { anim.finish(); continue; }
    seen += 1;
    for (let t = 0; t <= flyMs; t += 20) { anim.currentTime = t; out.push(...over(fan, `at ${t} ms`)); }
    anim.finish();
  }
  for (const fan of document.querySelectorAll('#center .cards-fan')) out.push(...over(fan, 'at rest'));
  return { out: [...new Set(out)], seen };
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory(prefix="guandan-clear-") as d, LiveServer(f"sqlite:///{d}/web.sqlite3") as srv:
        yield srv


def seat_me(browser: Browser, live: LiveServer, size: tuple[int, int], lang: str) -> Page:
    with httpx.Client(base_url=live.url, timeout=30) as c:
        code = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "seed": SEED,
                                          "timer": 0, "bot_delay_ms": 0}).json()["code"]
        token = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Tester"}).json()["token"]
        assert c.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    w, h = size
    # motion on (the learner's phone): the flights are what is looked at
    context = browser.new_context(viewport={"width": w, "height": h}, has_touch=True, bypass_csp=True,
                                  reduced_motion="no-preference")
    context.add_init_script(HOLD_FLIGHTS)
    page = context.new_page()
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}'); localStorage.setItem('guandan:token:{code}', '{token}');"
                  "localStorage.setItem('guandan:sort', 'rank')")
    page.goto(f"{live.url}/r/{code}")
    page.wait_for_function("document.body.dataset.status === 'playing'")
    return page


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_play_lies_over_a_seats_plate_on_its_way_in_or_at_rest(browser: Browser, server: LiveServer,
                                                                  size: tuple[int, int], lang: str) -> None:
    page = seat_me(browser, server, size, lang)
    try:
        found: list[str] = []
        flights = 0
        longest = 0  # the left seat's longest play looked at
        for turn in range(80):  # the deal, turn by turn by the hint, looked at at each of the player's turns
            page.wait_for_function(MY_TURN_OR_END, timeout=30_000)
            if page.locator("[data-testid=continue]").count() or page.evaluate("document.body.dataset.status") == "over":
                break
            looked: dict[str, Any] = page.evaluate(OVER_PLATES, FLY_MS)
            found += looked["out"]
            flights += looked["seen"]
            left = page.locator("#trick-left .card").count()
            if left > longest:
                longest = left
                shoot = SHOTS / f"plays-clear-{lang}-{size[0]}x{size[1]}-turn{turn}.png"
                SHOTS.mkdir(exist_ok=True)
                page.screenshot(path=str(shoot))
            take_turn(page)
        else:
            raise AssertionError("the deal did not end")
        assert longest >= 5, longest  # the deal had the left seat's long plays in it
        assert flights >= 5, flights  # and the flights were looked at
        assert found == [], found
    finally:
        page.context.close()
