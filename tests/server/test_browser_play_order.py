"""A played wildcard (逢人配) in chromium: the table's trick and the replay's step show a play's cards in the order
its combination reads — the server's reading (a play event's ``order``), the terminal's — each wildcard in the
place of the card it stands for and marked as the hand marks its own (the accent ring, and here a tinted face)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import record
from guandan.core.cards import parse_card
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.present import Presenter

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(240)
PHONE: dict[str, Any] = {"viewport": {"width": 844, "height": 390}, "has_touch": True, "bypass_csp": True}
SEED = 4  # greedy bots at this seed play a wildcard in a full house in the first deal's first tricks


def starred(cards: list[str], wild: list[bool]) -> str:
    """Cards as the terminal writes a play's: ``♥10 ♣10 ♥2* ♥4 ♦4``."""
    p = Presenter("en")
    return " ".join(p.card(parse_card(c)) + ("*" if w else "") for c, w in zip(cards, wild, strict=True))


# the first fan on the table holding a marked card: its cards (and which are marked) and its title, the play's
# line as the server wrote it; read at once, as the bots play on
MARKED_FAN = """() => {
  const card = document.querySelector('.trick .cards-fan .card.wild');
  if (!card) return null;
  const fan = card.closest('.cards-fan');
  const cards = [...fan.querySelectorAll('.card')];
  return {cards: cards.map((c) => c.dataset.card), wild: cards.map((c) => c.classList.contains('wild')), title: fan.title,
          label: card.getAttribute('aria-label'), ring: getComputedStyle(card).boxShadow,
          background: getComputedStyle(card).backgroundColor,
          plain: getComputedStyle(cards.find((c) => c !== card)).backgroundColor};
}"""


@pytest.fixture(scope="module")
def watch_server() -> Iterator[LiveServer]:
    """Bots that play a move each 150 ms: a trick stays on the table long enough to be read."""
    with tempfile.TemporaryDirectory(prefix="guandan-web-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", watch_min_bot_delay_ms=150) as srv:
        yield srv


def test_a_played_wildcard_shows_marked_in_the_place_it_stands_for_on_the_table(browser: Browser,
                                                                                 watch_server: LiveServer) -> None:
    with httpx.Client(base_url=watch_server.url, timeout=30) as c:
        created = c.post("/api/rooms", json={"bots": ["greedy"] * 4, "max_deals": 1, "timer": 0, "seed": SEED}).json()
    code, host = created["code"], created["host_token"]
    page = browser.new_context(**PHONE).new_page()
    try:
        page.goto(f"{watch_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', 'en'); localStorage.setItem('guandan:host:{code}', '{host}')")
        page.goto(f"{watch_server.url}/r/{code}")
        page.locator("[data-testid=watch]").tap()
        fan = page.wait_for_function(MARKED_FAN, timeout=120_000, polling=20).json_value()
        # the fan reads as the play's line (the presenter's: play_order, wildcards starred), not in the engine's order
        # (its line, then the line that says once what the "*" means)
        assert fan["title"].split("\n")[0].endswith(": " + starred(fan["cards"], fan["wild"])), fan
        assert fan["cards"] != sorted(fan["cards"], key=parse_card)  # a full house: its triple, then its pair
        marked = [c for c, w in zip(fan["cards"], fan["wild"], strict=True) if w]
        assert marked and all(c[0] == "H" for c in marked), fan
        assert fan["label"].endswith(" · wildcard"), fan
        assert "3px" in fan["ring"] and fan["background"] != fan["plain"], fan  # the ring, and the tinted face
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def replay(live_server: LiveServer) -> tuple[str, dict[str, Any]]:
    match = new_match(preset("competition"), SEED, MatchConfig(max_deals=3))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    text = record.dumps(match, players=["Ann", "greedy bot", "greedy bot", "greedy bot"])
    r = httpx.post(f"{live_server.url}/api/replays", content=text, headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 201, r.text
    rid = str(r.json()["id"])
    return rid, httpx.get(f"{live_server.url}/api/replays/{rid}", timeout=30).json()


def test_a_replays_step_shows_its_play_as_the_combination_reads(page: Page, live_server: LiveServer,
                                                               replay: tuple[str, dict[str, Any]]) -> None:
    rid, data = replay
    # the first play of two wildcards whose reading differs from the engine's order (a plate A–2 with both ♥5)
    deal, step, play = next((i, j, e) for i, d in enumerate(data["deals"]) for j, st in enumerate(d["steps"])
                            for e in st["events"] if e["type"] == "play" and len(e["wild"]) > 1 and e["order"] != e["cards"])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/")
    page.evaluate("localStorage.setItem('guandan:lang', 'en')")
    page.goto(f"{live_server.url}/replay/{rid}")
    page.locator(f".deal-head[data-deal='{deal}']").click()
    for _ in range(step):
        page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-step", str(step))
    cards = page.locator("[data-testid=action-cards] .card")
    assert [c.get_attribute("data-card") for c in cards.all()] == play["order"]
    wild = [i for i, c in enumerate(cards.all()) if "wild" in (c.get_attribute("class") or "").split()]
    assert wild == play["wild"]
    assert play["text"]["en"][0].endswith(starred(play["order"], [i in wild for i in range(len(play["order"]))]))
