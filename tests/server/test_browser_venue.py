"""The venue screen in Debian's chromium at 1920×1080, with the app's Content-Security-Policy enforced: all 16
teams of a 16-team event on one screen in big type, the round's clock counting down and turning to the warning
by itself, a 300-team event's every team across the pages, which turn by themselves, and the same page on a
phone held upright, read without sideways scrolling; long names alike told apart in two columns; the round's
pairings on the screen in big type."""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from guandan.db import make_engine
from guandan.server.app import create_app
from guandan.server.live import free_port
from guandan.tournament.desk import Desk
from guandan.tournament.model import EventConfig
from guandan.tournament.rounds import ResultSlip

pytestmark = pytest.mark.timeout(300)
SCREEN: ViewportSize = {"width": 1920, "height": 1080}


class Venue:
    """The whole web app (the desk's pages mounted as `guandan serve` mounts them) on a temporary SQLite file,
    and the desk on the same file to set the events up."""

    def __init__(self, folder: str) -> None:
        import uvicorn

        url = f"sqlite:///{folder}/venue.sqlite3"
        self.app = create_app(url)
        self.engine = make_engine(url)
        self.desk = Desk(self.engine, migrate=False)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the live server did not start")
            time.sleep(0.05)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.engine.dispose()

    def event(self, teams: int, rounds_done: int, started: timedelta | None, names: tuple[str, ...] = ()) -> int:
        """An event of ``teams`` teams (the first ``names``, then 第N队) with ``rounds_done`` rounds final (each
        table's levels varied) and the next round paired and its clock started ``started`` ago (None: no round
        paired after them)."""
        d = self.desk
        tid = d.create(EventConfig(name="淮安掼蛋公开赛", rounds=7), secret="browser-secret")
        for i in range(1, teams + 1):
            d.register(tid, names[i - 1] if i <= len(names) else f"第{i}队", [f"张{i}", f"李{i}"], club=f"俱乐部{i % 4}")
        for r in range(1, rounds_done + 1):
            for n in d.pair_next(tid).tables:
                levels = ["A:9", "T:8", "K:Q", "5:J", "7:7"][(n + r) % 5]
                d.override(tid, r, n, ResultSlip.parse(levels, None, 8), "记分单")
        if started is not None:
            at = datetime.now(UTC) - started
            now, d.now = d.now, lambda: at - timedelta(minutes=1)  # paired a minute before its clock started
            try:
                d.pair_next(tid)
            finally:
                d.now = now
            d.start_round(tid, at=at)
        return tid


@pytest.fixture(scope="module")
def venue() -> Iterator[Venue]:
    with tempfile.TemporaryDirectory(prefix="guandan-venue-") as folder:
        v = Venue(folder)
        try:
            yield v
        finally:
            v.close()


def screen(browser: Browser, complaints: list[str], size: ViewportSize = SCREEN) -> Page:
    ctx = browser.new_context(viewport=size)  # the policy enforced: venue.js must run under it
    page = ctx.new_page()
    page.on("console", lambda m: complaints.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: complaints.append(str(e)))
    return page


def rows_on_screen(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate("""() => ({
      rows: [...document.querySelectorAll('tr[data-team]')].map((tr) => {
        const b = tr.getBoundingClientRect();
        return {team: Number(tr.dataset.team), box: [b.left, b.top, b.right, b.bottom],
                font: parseFloat(getComputedStyle(tr.querySelector('td.name')).fontSize)};
      }),
      scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
      view: [innerWidth, innerHeight],
    })""")
    return shown


def assert_all_inside(shown: dict[str, Any]) -> None:
    w, h = shown["view"]
    assert shown["scroll"][0] <= w and shown["scroll"][1] <= h  # nothing to scroll to
    for row in shown["rows"]:
        left, top, right, bottom = row["box"]
        assert left >= 0 and top >= 0 and right <= w and bottom <= h, row
        assert row["font"] >= 28, row  # read from the back of a hall


def test_sixteen_teams_on_one_screen_with_the_clock_counting_down(venue: Venue, browser: Browser) -> None:
    tid = venue.event(16, 2, started=timedelta(minutes=11, seconds=48))
    complaints: list[str] = []
    page = screen(browser, complaints)
    page.goto(f"{venue.url}/t/{tid}/standings")
    shown = rows_on_screen(page)
    assert sorted(r["team"] for r in shown["rows"]) == list(range(1, 17))
    assert_all_inside(shown)
    # each team's table in round 3, whole and in the rows' big type: the room reads it to find where to sit
    cells = page.evaluate("""() => [...document.querySelectorAll('tr[data-team] td.seat')].map((td) => ({
      text: td.textContent, font: parseFloat(getComputedStyle(td).fontSize), cut: td.scrollWidth > td.clientWidth}))""")
    assert sorted(int(c["text"]) for c in cells) == sorted([*range(1, 9)] * 2)
    assert all(c["font"] >= 28 and not c["cut"] for c in cells), cells
    expect(page.locator("th.seat")).to_have_text("桌号")  # the round is the header's 第3轮进行中
    expect(page.locator("[data-clock]")).to_have_attribute("data-phase", "play")
    time_box = page.locator("[data-phase-text=play] [data-clock-time]")
    first = time_box.inner_text()
    assert first.startswith(("38:", "37:"))
    expect(time_box).not_to_have_text(first, timeout=5000)  # venue.js counts down between page loads
    expect(page.locator("[data-phase-text=play]")).to_contain_text("第3轮：剩余")
    assert complaints == []
    page.context.close()


#: Long names alike, that a cut at the end made read the same, and short ones.
ALIKE = ("淮安市清江浦区第一代表队", "淮安市清江浦区第二代表队", "淮安市清江浦区第三代表队", "淮安市淮阴区老干部局代表队",
         "Huai'an Qingjiangpu District Team One", "Huai'an Qingjiangpu District Team Two",
         "Nanjing Gulou Community Card Club A", "Nanjing Gulou Community Card Club B")


def names_shown(page: Page) -> list[dict[str, Any]]:
    """Every name a venue page cut to fit ([data-fit]): its whole name, what is shown, the end that tells it from
    the others, whether its cell still overflows, and its font's size."""
    shown: list[dict[str, Any]] = page.evaluate("""() => [...document.querySelectorAll('[data-fit]')].map((el) => ({
      name: el.title, text: el.textContent, keep: Number(el.dataset.keep),
      cut: el.parentElement.scrollWidth > el.parentElement.clientWidth,
      font: parseFloat(getComputedStyle(el).fontSize)}))""")
    return shown


def assert_told_apart(shown: list[dict[str, Any]]) -> None:
    """Each name whole, or cut in its middle keeping the end that tells it from the others; none overflows its
    cell, and no two different names read the same."""
    for s in shown:
        assert not s["cut"], s
        if s["text"] != s["name"]:
            head, dots, tail = s["text"].partition("…")
            assert dots and s["name"].startswith(head) and s["name"].endswith(tail), s
            assert s["keep"] > len(head) + len(tail) or len(tail) >= s["keep"], s  # the telling end, when it fits
    texts = {s["name"]: s["text"] for s in shown}
    assert len(set(texts.values())) == len(texts), texts


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_two_columns_of_teams_keep_the_heads_on_one_line_and_long_names_apart(venue: Venue, browser: Browser,
                                                                               lang: str) -> None:
    """More than 16 teams: two columns side by side. The heads over their narrow columns are one line, whole (the
    table column's 第3轮桌号, English "Opp. MP" and "Lvl diff." wrapped onto two); long names alike, cut at their
    end, read the same (淮安市清江浦… twice): each is cut in its middle, keeping the end that tells it apart, its
    whole name in its title. On the venue's 1920×1080, a 1280×720 projector and a 4:3 one."""
    tid = venue.event(20, 2, started=timedelta(minutes=3), names=ALIKE)
    projector: ViewportSize = {"width": 1280, "height": 720}
    old: ViewportSize = {"width": 1024, "height": 768}
    for size in (SCREEN, projector, old):
        ctx = browser.new_context(viewport=size)
        page = ctx.new_page()
        page.goto(f"{venue.url}/t/{tid}/standings?lang={lang}")
        heads = page.evaluate("""() => [...document.querySelectorAll('thead th')].map((th) => {
          const r = document.createRange(); r.selectNodeContents(th);
          const tops = new Set([...r.getClientRects()].filter((x) => x.width).map((x) => Math.round(x.top)));
          return {text: th.innerText.trim(), lines: tops.size, cut: th.scrollWidth > th.clientWidth};
        })""")
        assert page.locator("main.board > table").count() == 2
        seat = [h for h in heads if h["text"] == ("桌号" if lang == "zh" else "Table")]
        assert len(seat) == 2, heads
        for h in heads:
            assert h["lines"] == 1 and not h["cut"], (size, h)
        shown = names_shown(page)
        assert len(shown) == 20 and sum(s["text"] != s["name"] for s in shown) >= 4, shown  # the long ones cut
        assert_told_apart(shown)
        assert min(s["font"] for s in shown) >= size["width"] * .015, shown  # 28.8 px at 1920, 15.4 at 1024
        expect(page.locator("header .sub")).to_contain_text("第3轮进行中" if lang == "zh" else "Round 3 in play")
        page.screenshot(path=f"/tmp/venue-two-columns-{lang}-{size['width']}x{size['height']}.png")
        ctx.close()


def test_the_clock_turns_to_the_warning_by_itself(venue: Venue, browser: Browser) -> None:
    tid = venue.event(16, 1, started=timedelta(minutes=44, seconds=58))  # 5:02 left: the warning in 2 s
    complaints: list[str] = []
    page = screen(browser, complaints)
    page.goto(f"{venue.url}/t/{tid}/standings?lang=en")
    clock = page.locator("[data-clock]")
    expect(clock).to_have_attribute("data-phase", "warning", timeout=15_000)
    expect(page.locator("[data-phase-text=warning]")).to_be_visible()
    expect(page.locator("[data-phase-text=warning]")).to_contain_text("no new deal")
    expect(page.locator("[data-phase-text=play]")).to_be_hidden()
    assert page.evaluate("getComputedStyle(document.querySelector('[data-clock]')).backgroundColor") == "rgb(204, 0, 0)"
    assert complaints == []
    page.context.close()


def test_three_hundred_teams_across_the_pages(venue: Venue, browser: Browser) -> None:
    tid = venue.event(300, 0, started=None)
    complaints: list[str] = []
    page = screen(browser, complaints)
    seen: list[int] = []
    for k in range(1, 11):
        page.goto(f"{venue.url}/t/{tid}/standings?page={k}")
        shown = rows_on_screen(page)
        assert_all_inside(shown)
        seen += [r["team"] for r in shown["rows"]]
        expect(page.locator(".pager")).to_have_text(f"第{k}页，共10页")
    assert sorted(seen) == list(range(1, 301))
    # the screen turns its pages by itself (here every 5 seconds), and after the last comes the first
    page.goto(f"{venue.url}/t/{tid}/standings?refresh=5&page=10")
    page.wait_for_url(f"**/t/{tid}/standings?refresh=5", timeout=20_000)
    page.wait_for_url(f"**/t/{tid}/standings?refresh=5&page=2", timeout=20_000)
    expect(page.locator(".pager")).to_have_text("第2页，共10页")
    assert complaints == []
    page.context.close()


def test_a_phone_held_upright_reads_the_standings_without_sideways_scrolling(venue: Venue, browser: Browser) -> None:
    """A player follows the event on a phone: every column within the width, each team's name readable, the
    order of the tie-breaks inside the footer (the page may scroll down, not sideways)."""
    tid = venue.event(16, 2, started=None)
    ctx = browser.new_context(viewport={"width": 360, "height": 780})
    page = ctx.new_page()
    page.goto(f"{venue.url}/t/{tid}/standings?lang=en")
    shown = page.evaluate("""() => ({
      scroll: document.scrollingElement.scrollWidth, width: innerWidth,
      cells: [...document.querySelectorAll('thead th:not(.players), tr[data-team] td:not(.players)')]
        .map((c) => { const b = c.getBoundingClientRect(); return [c.textContent.trim(), b.left, b.right]; }),
      names: [...document.querySelectorAll('tr[data-team] td.name')].map((c) => [c.scrollWidth, c.clientWidth]),
      footer: (({scrollHeight, clientHeight}) => [scrollHeight, clientHeight])(document.querySelector('footer')),
    })""")
    assert shown["scroll"] <= shown["width"], shown["scroll"]
    assert len(shown["names"]) == 16
    for text, left, right in shown["cells"]:
        assert left >= 0 and right <= shown["width"] and right - left > 0, (text, left, right)
    for full, box in shown["names"]:
        assert full <= box, (full, box)  # 第N队 and its club, not cut
    assert shown["footer"][0] <= shown["footer"][1], shown["footer"]
    ctx.close()


PHONES: tuple[ViewportSize, ...] = ({"width": 390, "height": 844}, {"width": 360, "height": 780},
                                    {"width": 844, "height": 390}, {"width": 667, "height": 375})


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_phone_reads_every_head_on_one_line_and_a_legend_of_them(venue: Venue, browser: Browser, lang: str) -> None:
    """A player follows the event on a phone, held upright or sideways: every head on one line, whole, inside the
    width (English "Opp MP", "Net lvls" wrapped onto two upright, where the shorter Opp, Net, Up stand for them);
    the names told apart, whole or cut in their middle; the rows in type read at arm's length (sideways it was the
    venue's, sized to fit 16 rows in the height), none under the footer; in English a legend under the table names
    each head in full, as a head's title never shows on a touch screen."""
    tid = venue.event(20, 2, started=timedelta(minutes=3), names=ALIKE)
    for size in PHONES:
        ctx = browser.new_context(viewport=size, has_touch=True)
        page = ctx.new_page()
        page.goto(f"{venue.url}/t/{tid}/standings?lang={lang}")
        shown = page.evaluate("""() => ({
          width: innerWidth, scroll: document.scrollingElement.scrollWidth,
          heads: [...document.querySelectorAll('thead th')].filter((th) => th.offsetParent).map((th) => {
            const r = document.createRange(); r.selectNodeContents(th);
            const b = th.getBoundingClientRect();
            const tops = new Set([...r.getClientRects()].filter((x) => x.width).map((x) => Math.round(x.top)));
            return {text: th.innerText.trim(), lines: tops.size,
                    cut: th.scrollWidth > th.clientWidth, left: b.left, right: b.right};
          }),
          last: Math.max(...[...document.querySelectorAll('tr[data-team]')].map((tr) => tr.getBoundingClientRect().bottom)),
          footer: document.querySelector('footer').getBoundingClientRect().top,
          legend: [...document.querySelectorAll('[data-testid=legend] div')].filter((d) => d.offsetParent)
            .map((d) => [d.querySelector('dt').innerText.trim(), d.querySelector('dd').innerText.trim()]),
        })""")
        where = f"{lang} {size['width']}×{size['height']}"
        assert shown["scroll"] <= shown["width"], where
        assert len(shown["heads"]) == 2 * 7, (where, shown["heads"])  # two tables (16 teams, then 4), no players
        for h in shown["heads"]:
            assert h["lines"] == 1 and not h["cut"] and h["left"] >= 0 and h["right"] <= shown["width"], (where, h)
        names = names_shown(page)
        assert len(names) == 20 and min(n["font"] for n in names) >= 15, (where, names)
        assert_told_apart(names)
        assert shown["last"] <= shown["footer"], where
        upright = size["height"] > size["width"]
        figures = [h["text"] for h in shown["heads"][3:7]]
        if lang == "zh":
            assert figures == ["场分", "对手分", "级差分", "升级数"] and shown["legend"] == [], where
        else:
            assert figures == (["MP", "Opp", "Net", "Up"] if upright else ["MP", "Opp MP", "Net lvls", "Lvls up"]), where
            assert shown["legend"] == [[f, n] for f, n in zip(figures, ["Match points", "Opponents' points",
                                                                           "Net level difference", "Levels gained"],
                                                                  strict=True)], where
        page.screenshot(path=f"/tmp/venue-phone-{lang}-{size['width']}x{size['height']}.png", full_page=True)
        ctx.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_pairings_on_the_venue_screen_in_big_type(venue: Venue, browser: Browser, lang: str) -> None:
    """The round's pairings for a TV or a projector: each table's number, home team and away team read from across
    a hall (big type, every line inside the screen, names alike told apart), a page at a time, turning by itself;
    a phone held upright scrolls down, never sideways."""
    tid = venue.event(51, 1, started=timedelta(minutes=3), names=ALIKE)  # 25 tables and a bye: two pages
    projector: ViewportSize = {"width": 1280, "height": 720}
    for size in (SCREEN, projector):
        complaints: list[str] = []
        page = screen(browser, complaints, size)
        page.goto(f"{venue.url}/t/{tid}/pairings/screen?lang={lang}&refresh=5")
        lines: dict[str, Any] = page.evaluate("""() => ({
          rows: [...document.querySelectorAll('tr[data-table]')].map((tr) => {
            const b = tr.getBoundingClientRect();
            return {table: tr.dataset.table, box: [b.left, b.top, b.right, b.bottom],
                    font: parseFloat(getComputedStyle(tr.querySelector('td.tno')).fontSize)};
          }),
          scroll: [document.scrollingElement.scrollWidth, document.scrollingElement.scrollHeight],
          view: [innerWidth, innerHeight],
        })""")
        assert [r["table"] for r in lines["rows"]] == [str(n) for n in range(1, 21)]  # two columns of ten
        w, h = lines["view"]
        assert lines["scroll"][0] <= w and lines["scroll"][1] <= h
        for row in lines["rows"]:
            left, top, right, bottom = row["box"]
            assert left >= 0 and top >= 0 and right <= w and bottom <= h, (size, row)
            assert row["font"] >= h * .04, (size, row)  # 43 px on 1080 lines, 29 on 720
        shown = names_shown(page)
        assert len(shown) == 40 and min(s["font"] for s in shown) >= h * .04
        assert_told_apart(shown)
        expect(page.locator("[data-clock]")).to_have_attribute("data-phase", "play")
        expect(page.locator(".pager")).to_have_text("第1页，共2页" if lang == "zh" else "Page 1 of 2")
        # the screen turns to its second page by itself, and back to the first
        page.wait_for_url(f"**/t/{tid}/pairings/screen?refresh=5&page=2", timeout=20_000)
        assert [r.get_attribute("data-table") for r in page.locator("tr[data-table]").all()] == \
            [str(n) for n in range(21, 26)]
        expect(page.locator("[data-testid=bye]")).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == ("zh-CN" if lang == "zh" else "en")
        page.wait_for_url(f"**/t/{tid}/pairings/screen?refresh=5", timeout=20_000)
        assert complaints == []
        page.context.close()
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(f"{venue.url}/t/{tid}/pairings/screen?lang={lang}")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert_told_apart(names_shown(page))
    ctx.close()


def test_a_brackets_places_not_yet_drawn_are_read_whole(venue: Venue, browser: Browser) -> None:
    """A knockout's later matches name where their teams come from ("winner of round 2 match 1"): on a phone held
    sideways the column is narrow, and the words wrap rather than end in an ellipsis."""
    d = venue.desk
    tid = d.create(EventConfig(name="Knockout Cup", format="knockout", per_deal=False), secret="bracket-secret")
    for i in range(1, 6):
        d.register(tid, f"Team {i}", [f"A{i}", f"B{i}"])
    d.pair_next(tid)
    complaints: list[str] = []
    page = screen(browser, complaints, {"width": 844, "height": 390})
    page.goto(f"{venue.url}/t/{tid}/bracket?lang=en")
    cut = page.evaluate("""() => [...document.querySelectorAll('.side.empty .name')].map((n) => ({
      text: n.textContent, cut: n.scrollWidth > n.clientWidth}))""")
    places = [c["text"] for c in cut if c["text"] != "bye"]  # the draw is seeded at random: the final's two at least
    assert {"winner of round 2 match 1", "winner of round 2 match 2"} <= set(places)
    assert all(p.startswith("winner of round ") for p in places), places
    assert not any(c["cut"] for c in cut), cut
    assert complaints == []
    page.context.close()
