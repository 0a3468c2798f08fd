"""What a player on a phone held sideways (844×390, touch) meets while playing a match through, each a fault found
by playing one: the turn's timer and ring stay drawn when a card is tapped (they were blank until the clock's next
tick, a flicker on every tap); the deal-end panel says that the next deal has no tribute (抗贡) as it says who pays
(its line came from the view, which an update does not carry), and says nothing of the kind after the last deal;
the hint's play and why are read whole beside the buttons (one line cut them to "full house 8: … —…"); the log opens
under its switch and closes with it (upright it lay over the switch, and stayed open); on a tribute or return turn the
cards that may not be given are dimmed and not picked (one lifted, and Tribute stayed off with nothing said why); a
tribute line of the table's facts too long for its corner cuts the giver's name, not who holds the card now."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from .conftest import LiveServer
from .test_browser_table import (
    MY_TURN_OR_END,
    act_on_hint,
    ask_hint,
    one_language,
    play_to_deal_end,
    seat_me,
    take_turn,
    visible_text,
)

pytestmark = pytest.mark.timeout(300)

# greedy bots, seat 0 playing the hint's play every turn: the second deal's payers hold both big jokers (抗贡)
ANTI_TRIBUTE_SEED = 17


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """A server whose tables pause after each deal as rooms ask."""
    with tempfile.TemporaryDirectory(prefix="guandan-play-") as d, \
            LiveServer(f"sqlite:///{d}/web.sqlite3", next_deal_s=None) as srv:
        yield srv


# Records the player's own timer and ring each time the page changes the seat's plate (a mutation observer runs
# right after the change, before the clock's next tick could draw them)
WATCH_TIMER = """() => {
  window.timerSeen = [];
  const read = () => {
    const text = document.querySelector('#pos-me [data-testid=timer]');
    const ring = document.querySelector('#pos-me .ring:not(.hidden)');
    window.timerSeen.push([text ? text.textContent : null, ring ? ring.style.getPropertyValue('--p') : null]);
  };
  new MutationObserver(read).observe(document.getElementById('pos-me'), { childList: true, subtree: true });
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_turn_timer_stays_drawn_when_a_card_is_tapped(browser: Browser, server: LiveServer, lang: str) -> None:
    page = seat_me(browser, server, lang, timer=15, first_timer=40)
    try:
        page.wait_for_function("document.body.dataset.toMove === '0' && !document.getElementById('hint').disabled && "
                               "/^\\d+s$/.test(document.querySelector('#pos-me [data-testid=timer]').textContent)",
                               timeout=30000)
        page.evaluate(WATCH_TIMER)
        for k in range(3):  # select, select, unselect: each a render of the whole table
            card = page.locator("#hand .card").nth(k % 2)
            selected = page.locator("#hand .card.selected").count()
            card.tap(position={"x": 5, "y": 14})  # the strip of an overlapped card that shows
            page.wait_for_function(f"document.querySelectorAll('#hand .card.selected').length !== {selected}")
        seen = page.evaluate("window.timerSeen")
        assert len(seen) >= 3, seen
        for text, ring in seen:  # never blank, never an empty ring, between two ticks
            assert text is not None and text.endswith("s") and text[:-1].isdigit(), seen
            assert ring not in (None, ""), seen
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_deal_end_says_the_next_deal_has_no_tribute_and_the_last_one_says_nothing_of_it(
        browser: Browser, server: LiveServer, lang: str) -> None:
    page = seat_me(browser, server, lang, seed=ANTI_TRIBUTE_SEED, next_deal_s=120)
    try:
        play_to_deal_end(page)
        # the next deal opened with its 抗贡: the table's facts say so, and so does the panel, in the same words
        page.wait_for_function("document.querySelector(\"#tribute-info [data-type='anti_tribute']\")")
        said = page.evaluate("document.querySelector(\"#tribute-info [data-type='anti_tribute']\").textContent")
        line = page.locator("[data-testid=deal-end] .tribute-next")
        expect(line).to_have_count(1)
        assert line.inner_text() == said and said
        one_language(visible_text(page, "[data-testid=deal-end]"), lang)
        page.tap("[data-testid=continue]")
        page.wait_for_function("document.querySelector('[data-testid=deal-end]').classList.contains('hidden')")
        # the second deal is the match's last: its panel has no next deal to speak of, though the deal began with 抗贡
        for _ in range(200):
            page.wait_for_function(MY_TURN_OR_END, timeout=30000)
            if page.evaluate("document.body.dataset.status") == "over":
                break
            take_turn(page)
        page.wait_for_function("document.getElementById('match-over')")
        expect(page.locator("[data-testid=deal-end] .tribute-next")).to_have_count(0)
        one_language(visible_text(page, "[data-testid=deal-end]"), lang)
    finally:
        page.context.close()


MSG_BOX = """() => {
  const m = document.getElementById('msg'), r = m.getBoundingClientRect();
  const row = document.getElementById('controls').getBoundingClientRect();
  return { cut: m.scrollHeight > m.clientHeight + 1 || m.scrollWidth > m.clientWidth + 1,
           lines: Math.round(r.height / parseFloat(getComputedStyle(m).lineHeight)), top: r.top, bottom: r.bottom,
           rowTop: row.top, rowBottom: row.bottom, view: innerHeight };
}"""


@pytest.mark.parametrize("size", [(844, 390), (667, 375)], ids=["844x390", "667x375"])
def test_the_hints_words_are_read_whole_beside_the_buttons_held_sideways(browser: Browser, server: LiveServer,
                                                                           size: tuple[int, int]) -> None:
    page = seat_me(browser, server, "en")
    try:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        for _ in range(60):  # the turns of the deal, by the hint, up to the first whose words take more than a line
            page.wait_for_function(MY_TURN_OR_END, timeout=30000)
            assert not page.locator("[data-testid=continue]").count(), "no hint of the deal was longer than a line"
            before = int(page.evaluate("document.body.dataset.seq"))
            ask_hint(page)
            box = page.evaluate(MSG_BOX)
            if box["lines"] >= 2 or box["cut"]:
                break
            act_on_hint(page)
            page.wait_for_function(f"Number(document.body.dataset.seq) > {before} || "
                                   "document.querySelector('[data-testid=continue]')")
        msg = page.locator("#msg")
        if page.locator("#hand .card.selected").count():
            expect(msg).to_contain_text(" — ")  # the play, and why
        else:  # a pass says why alone ("Pass and keep your cards"), the pass once
            expect(msg).to_have_text(re.compile(r"^Pass\b(?!.* — )"))
        assert not box["cut"], (msg.inner_text(), box)
        # in the buttons' own row: the hand and the table above keep their room
        assert box["top"] >= box["rowTop"] - 1 and box["bottom"] <= box["rowBottom"] + 1 <= box["view"] + 1, box
    finally:
        page.context.close()


@pytest.mark.parametrize("size", [(390, 844), (360, 780), (844, 390), (1280, 800)],
                         ids=["390x844", "360x780", "844x390", "1280x800"])
def test_the_log_opens_under_its_switch_and_closes_with_it(browser: Browser, server: LiveServer,
                                                           size: tuple[int, int]) -> None:
    page = seat_me(browser, server, "en", counter=True)
    try:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_function(MY_TURN_OR_END, timeout=30000)
        page.tap("#log-toggle")
        expect(page.locator("#side")).to_be_visible()
        expect(page.locator("#log li").first).to_be_visible()
        # both switches are still what a finger there touches (upright, the log lay over them and stayed open)
        covered = page.evaluate("""() => ['log-toggle', 'last-trick'].filter((id) => {
          const r = document.getElementById(id).getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return !hit || !hit.closest('#' + id);
        })""")
        assert covered == []
        side = page.locator("#side").bounding_box()
        toggle = page.locator("#log-toggle").bounding_box()
        assert side and toggle and side["y"] >= toggle["y"] + toggle["height"] - 1, (side, toggle)
        page.tap("#log-toggle")
        expect(page.locator("#side")).to_be_hidden()
    finally:
        page.context.close()


GIVING_TURN = ("document.body.dataset.deal === '1' && ['tribute', 'return'].includes(document.body.dataset.phase) && "
               "document.body.dataset.toMove === '0' && !document.getElementById('hint').disabled")


# seat 0 playing the first deal by the hint: against heuristic bots with seed 2 it pays tribute in the second, against
# greedy bots with seed 6 it returns one
@pytest.mark.parametrize(("phase", "seed", "tier", "lang"),
                         [("tribute", 2, "heuristic", "en"), ("return", 6, "greedy", "zh")], ids=["tribute", "return"])
def test_on_a_tribute_or_return_turn_only_the_cards_that_may_be_given_are_bright_and_picked(
        browser: Browser, server: LiveServer, phase: str, seed: int, tier: str, lang: str) -> None:
    page = seat_me(browser, server, lang, seed=seed, bots=[None, tier, tier, tier], next_deal_s=120)
    try:
        play_to_deal_end(page)
        page.tap("[data-testid=continue]")
        page.wait_for_function(GIVING_TURN, timeout=30000)
        assert page.evaluate("document.body.dataset.phase") == phase
        cards = page.locator("#hand .card")
        dim = page.locator("#hand .card.ineligible")
        assert 0 < dim.count() < cards.count()
        play = page.locator("[data-testid=play]")
        dim.first.tap(position={"x": 5, "y": 14})  # not one to give: not picked, and the button stays off
        expect(page.locator("#hand .card.selected")).to_have_count(0)
        expect(play).to_be_disabled()
        bright = page.locator("#hand .card:not(.ineligible)")
        bright.first.tap(position={"x": 5, "y": 14})
        expect(page.locator("#hand .card.selected")).to_have_count(1)
        expect(play).to_be_enabled()
        hints = page.evaluate("Number(document.body.dataset.hints || 0)")
        page.tap("[data-testid=hint]")  # the hint's card is one of the bright ones
        page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {hints}")
        expect(page.locator("#hand .card.selected:not(.ineligible)")).to_have_count(1)
        before = int(page.evaluate("document.body.dataset.seq"))
        play.tap()
        page.wait_for_function(f"Number(document.body.dataset.seq) > {before}")
        expect(page.locator("#hand .card.ineligible")).to_have_count(0)  # given: the hand is all bright again
        one_language(visible_text(page, "#table"), lang)
    finally:
        page.context.close()


# each tribute line of the table's facts: the receiver ends inside its line, and is cut only once the giver has no room
TRIBUTE_LINES = """() => [...document.querySelectorAll('#tribute-info > div')].filter((d) => d.querySelector('.giver'))
  .map((d) => {
    const line = d.getBoundingClientRect(), giver = d.querySelector('.giver'), receiver = d.querySelector('.receiver');
    const r = receiver.getBoundingClientRect();
    return { text: d.textContent, inside: r.right <= line.right + 1,
             whole: receiver.scrollWidth <= receiver.clientWidth + 1, giver: giver.getBoundingClientRect().width,
             shown: receiver.innerText };
  })"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_tribute_line_cuts_the_givers_name_before_the_receivers(browser: Browser, server: LiveServer,
                                                                   lang: str) -> None:
    page = seat_me(browser, server, lang, seed=2, bots=[None, "heuristic", "heuristic", "heuristic"], next_deal_s=120)
    try:
        play_to_deal_end(page)
        page.tap("[data-testid=continue]")
        page.wait_for_function(GIVING_TURN, timeout=30000)
        hints = page.evaluate("Number(document.body.dataset.hints || 0)")
        page.tap("[data-testid=hint]")
        page.wait_for_function(f"Number(document.body.dataset.hints || 0) > {hints}")
        page.tap("[data-testid=play]")
        page.wait_for_function("document.body.dataset.phase === 'play' && "
                               "document.querySelectorAll('#tribute-info .receiver').length === 4", timeout=30000)
        for width, height in ((1280, 800), (390, 844)):  # where the giver is shown (a phone held sideways leaves it out)
            page.set_viewport_size({"width": width, "height": height})
            lines = page.evaluate(TRIBUTE_LINES)
            assert len(lines) == 4, lines
            for line in lines:
                assert line["inside"] and (line["whole"] or line["giver"] < 1), (width, line)
        # a phone held sideways leaves the giver out, and names a bot receiver by its seat alone ("Bot 3", "机器人3"):
        # who holds the card now is read whole in the narrow column of facts, English included ("♣5 → Bot 2 · He…")
        for width, height in ((844, 390), (667, 375)):
            page.set_viewport_size({"width": width, "height": height})
            lines = page.evaluate(TRIBUTE_LINES)
            assert len(lines) == 4, lines
            for line in lines:
                assert line["inside"] and line["whole"] and line["giver"] < 1, (width, line)
                assert re.fullmatch(r" → \S.*", line["shown"]) and "·" not in line["shown"], (width, line)
            one_language(visible_text(page, "#info"), lang)  # "机器人2", never "Bot 2" on a Chinese page
    finally:
        page.context.close()
