"""The desk's arbiter page in Debian's chromium, as an arbiter walking the hall opens it on a phone: held upright
(390×844) and sideways (844×390), and on a desktop, in both languages. The page itself never scrolls sideways;
the round's tables, wider than a phone, scroll inside their own box, which stays within the width, and the
standings fit the width; on a desktop (1280 px and wider) both fit their boxes, the override column in view."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize

from guandan.tournament.model import EventConfig, RoundLimits
from guandan.tournament.rounds import ResultSlip

from .test_browser_venue import Venue

pytestmark = pytest.mark.timeout(300)
KEY = "arbiter-browser-key"
SIZES: list[ViewportSize] = [{"width": 390, "height": 844}, {"width": 844, "height": 390},
                             {"width": 1280, "height": 800}, {"width": 1440, "height": 900}]
#: a Chinese club event's names, a long one and a Latin one without a space among them
TEAMS = ["南京长江队", "扬州瘦西湖", "Alpha", "重庆火锅", "安徽黄山队", "北京烤鸭", "苏州园林队", "无锡太湖",
         "常州恐龙园", "徐州汉城掼蛋俱乐部第一代表队", "SuzhouGardenGuandanClubFirstTeam"]


@pytest.fixture(scope="module")
def arbiter_url() -> Iterator[str]:
    """An event of 11 teams in round 1 (a bye), per-deal reporting: tables final, missing, disputed and locked,
    so that every kind of cell the page has is on it."""
    with tempfile.TemporaryDirectory(prefix="guandan-arbiter-") as folder:
        v = Venue(folder)
        try:
            d = v.desk
            tid = d.create(EventConfig(name="南京市第三届掼蛋俱乐部联赛暨淮安掼蛋公开赛", rounds=5, per_deal=True,
                                       limits=RoundLimits(max_deals=6, max_minutes=None, warning_minutes=0)),
                           secret=KEY)
            for i, name in enumerate(TEAMS, 1):
                d.register(tid, name, [f"张{i}", f"李{i}"], club=f"俱乐部{i % 4}")
            d.pair_next(tid)
            d.override(tid, 1, 1, ResultSlip.parse("A:9", None, 6), "记分单")
            two = d.state(tid).table(1, 2).table
            d.report_deal(tid, 1, 2, 1, "N S E", by=two.away)
            d.dispute_deal(tid, 1, 2, 1, by=two.home, reason="三游应为北家，不是东家；请裁判到场核对")
            d.lock_table(tid, 1, 3, "三次输错队伍码")
            yield f"{v.url}/t/{tid}/arbiter?key={KEY}"
        finally:
            v.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_arbiter_page_never_scrolls_sideways(browser: Browser, arbiter_url: str, lang: str) -> None:
    for size in SIZES:
        ctx = browser.new_context(viewport=size)
        page = ctx.new_page()
        page.goto(f"{arbiter_url}&lang={lang}")
        shown: dict[str, Any] = page.evaluate("""() => ({
          scroll: document.scrollingElement.scrollWidth, width: innerWidth,
          boxes: [...document.querySelectorAll('.wide')].map((b) => {
            const r = b.getBoundingClientRect();
            return [b.dataset.testid, r.left, r.right, b.scrollWidth, b.clientWidth];
          }),
        })""")
        assert shown["scroll"] <= shown["width"], (size, shown)
        assert [b[0] for b in shown["boxes"]] == ["round-tables", "standings"]
        for name, left, right, inner, outer in shown["boxes"]:
            assert left >= 0 and right <= shown["width"], (size, name, left, right)
            if size["width"] == 390 and name == "round-tables":
                assert inner > outer, (name, inner, outer)  # wider than the phone: it scrolls in its box
            if size["width"] >= 1280:  # on a desk's screen every column is in view: the override's ran past the edge
                assert inner <= outer, (size, lang, name, inner, outer)
        ctx.close()


def test_a_reload_after_an_action_reads_the_page_and_sends_nothing_again(browser: Browser) -> None:
    """Post/Redirect/Get: the arbiter sets a table's deals; the browser lands on the arbiter's page (not the
    form's address), the outcome said once and then gone from the address, so that F5 reads the page again:
    no second entry in the log, no "resend the form?" question, no stale outcome."""
    with tempfile.TemporaryDirectory(prefix="guandan-arbiter-prg-") as folder:
        v = Venue(folder)
        try:
            d = v.desk
            tid = d.create(EventConfig(name="刷新测试赛", rounds=3, per_deal=True,
                                       limits=RoundLimits(max_deals=6, max_minutes=None, warning_minutes=0)),
                           secret=KEY)
            for i, name in enumerate(TEAMS[:4], 1):
                d.register(tid, name, [f"张{i}", f"李{i}"])
            d.pair_next(tid)
            complaints: list[str] = []
            for size in (SIZES[0], SIZES[2]):
                ctx = browser.new_context(viewport=size)
                page = ctx.new_page()
                page.on("pageerror", lambda e: complaints.append(str(e)))
                page.goto(f"{v.url}/t/{tid}/arbiter?key={KEY}&lang=zh")
                form = page.locator("[data-testid=set-deals-1]")
                form.locator("input[name=deals]").fill("北 南 东")
                form.locator("input[name=reason]").fill("记分单补录")
                log = len(d.events(tid))
                form.locator("button").click()
                page.wait_for_load_state()
                ok = page.locator("p.ok")
                assert ok.inner_text() == "第1轮第1桌：各副已设定。"
                assert len(d.events(tid)) == log + 1
                # the outcome is gone from the address; the ?lang= the page was opened with stays, so F5 keeps it
                assert page.evaluate("location.pathname + location.search") == f"/t/{tid}/arbiter?key={KEY}&lang=zh"
                page.screenshot(path=f"/tmp/arbiter-after-deals-{size['width']}.png", full_page=size["width"] > 400)
                page.reload()
                assert page.locator("p.ok").count() == 0  # read again: the outcome is not said twice
                assert len(d.events(tid)) == log + 1  # …and nothing was sent again
                assert complaints == []
                ctx.close()
        finally:
            v.close()


def test_a_knockouts_result_in_words_keeps_the_override_in_view(browser: Browser) -> None:
    """A knockout's level round names the winner of its deciding deal beside the levels, and its override has the
    decider's choice too: on a 1280 px desk the result wraps in its column, and the override stays in view."""
    with tempfile.TemporaryDirectory(prefix="guandan-arbiter-ko-") as folder:
        v = Venue(folder)
        try:
            d = v.desk
            tid = d.create(EventConfig(name="淘汰赛杯", format="knockout", per_deal=False), secret=KEY)
            for name in ("丁队", "Epsilon Team"):
                d.register(tid, name, [f"{name}1", f"{name}2"])
            d.pair_next(tid)
            won = "away" if d.state(tid).table(1, 1).table.away == 2 else "home"  # Epsilon Team, the longer name
            d.override(tid, 1, 1, ResultSlip.parse("9:9", None, 8, decider=won), "x")
            for lang in ("en", "zh"):
                ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                page = ctx.new_page()
                page.goto(f"{v.url}/t/{tid}/arbiter?key={KEY}&lang={lang}")
                inner, outer, cell, room = page.evaluate("""() => {
                  const b = document.querySelector('[data-testid=round-tables]'), td = b.querySelector('td.result');
                  return [b.scrollWidth, b.clientWidth, td.scrollWidth, td.clientWidth];
                }""")
                assert inner <= outer, (lang, inner, outer)
                assert cell <= room, (lang, cell, room)  # the result wraps inside its own cell
                ctx.close()
        finally:
            v.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_standings_fit_a_phone_and_keep_every_column_on_a_desk(browser: Browser, arbiter_url: str,
                                                                   lang: str) -> None:
    """On a phone either way up the standings fit the width (no sideways scrolling, not even inside their box):
    the team's number, club and players go under its name (upright, its record and byes instead of its players,
    the figures' shorter heads with a legend), every name whole, its rank and 场分 in view. On a desk every column is
    its own, as before."""
    for size in SIZES:
        ctx = browser.new_context(viewport=size)
        page = ctx.new_page()
        page.goto(f"{arbiter_url}&lang={lang}")
        shown: dict[str, Any] = page.evaluate("""() => {
          const box = document.querySelector('[data-testid=standings]'), r = box.getBoundingClientRect();
          const seen = (el) => el !== null && getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
          const rows = [...box.querySelectorAll('tr[data-team]')].map((tr) => {
            const name = tr.querySelector('td.team .name'), range = document.createRange();
            range.selectNodeContents(name);
            const cells = [tr.cells[0], name, tr.querySelector('td.num:not(.no):not(.byes)')];  // rank, name, MP
            return {name: name.textContent, lines: new Set([...range.getClientRects()].map((q) => Math.round(q.top))).size,
                    inside: cells.every((c) => { const q = c.getBoundingClientRect();
                                                 return q.width > 0 && q.left >= r.left - 1 && q.right <= r.right + 1; }),
                    more: seen(tr.querySelector('.more')) ? tr.querySelector('.more').innerText : null};
          });
          const head = box.querySelector('tr');
          return {inner: box.scrollWidth, outer: box.clientWidth, rows,
                  columns: ['no', 'club', 'players', 'wdl', 'byes'].filter((c) => seen(head.querySelector('th.' + c))),
                  legend: seen(document.querySelector('[data-testid=legend]'))};
        }""")
        assert shown["inner"] <= shown["outer"], (size, lang, shown["inner"], shown["outer"])
        assert [row["name"] for row in shown["rows"]] == TEAMS  # no round final yet: by number, every name whole
        for row in shown["rows"]:
            assert row["inside"], (size, lang, row)
            if len(row["name"]) <= 6:  # a short name is never broken across lines
                assert row["lines"] == 1, (size, lang, row)
        number = "编号" if lang == "zh" else "No."
        if size["width"] >= 1280:
            assert shown["columns"] == ["no", "club", "players", "wdl", "byes"] and not shown["legend"], (size, shown)
            assert all(row["more"] is None for row in shown["rows"])
        elif size["width"] > 600:  # sideways: the record and the byes keep their columns
            assert shown["columns"] == ["wdl", "byes"] and not shown["legend"], (size, shown)
            first = shown["rows"][0]["more"]
            assert first.split() == [number, "1", "俱乐部1", "张1", "/", "李1"], first
        else:
            assert shown["columns"] == [] and shown["legend"] == (lang == "en"), (size, shown)
            first = shown["rows"][0]["more"]
            assert first.split() == [number, "1", "俱乐部1", "胜-平-负" if lang == "zh" else "W-D-L", "0-0-0",
                                     "轮空" if lang == "zh" else "Byes", "0"], first
        ctx.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_minutes_late_box_is_a_forfeits_and_a_bad_value_is_said_in_words(browser: Browser, arbiter_url: str,
                                                                           lang: str) -> None:
    """An override's minutes-late box is hidden while the result is played and shown once a forfeit is picked, inside
    the round's box at every size (in view on a desk, the page never scrolling sideways); a negative number sent is
    refused in the page's language, the forfeit and the number put back, nothing set."""
    bad = ("迟到分钟数须为0或以上的数（如12或12.5），而不是“-3”" if lang == "zh"
           else "Minutes late must be a number of minutes, 0 or more (e.g. 12 or 12.5), not “-3”")
    for size in SIZES:
        ctx = browser.new_context(viewport=size)
        page = ctx.new_page()
        page.goto(f"{arbiter_url}&lang={lang}")
        late = page.get_by_test_id("late-4")
        assert late.count() == 1 and not late.is_visible(), size
        form = page.locator("td.override form").filter(has=late)
        form.locator("select[name=forfeit]").select_option("away")
        assert late.is_visible(), size
        shown: dict[str, Any] = page.evaluate("""() => {
          const box = document.querySelector('[data-testid=round-tables]'), r = box.getBoundingClientRect();
          const q = document.querySelector('[data-testid=late-4]').getBoundingClientRect();
          return {scroll: document.scrollingElement.scrollWidth, width: innerWidth, inner: box.scrollWidth,
                  outer: box.clientWidth, left: q.left - r.left + box.scrollLeft, right: q.right - r.left + box.scrollLeft,
                  height: q.height};
        }""")
        assert shown["scroll"] <= shown["width"] and shown["height"] > 0, (size, shown)
        assert shown["left"] >= 0 and shown["right"] <= shown["inner"], (size, shown)
        if size["width"] >= 1280:
            assert shown["inner"] <= shown["outer"], (size, lang, shown)  # the override's column stays in view
        if size["width"] == 390:
            late.fill("-3")
            form.locator("input[name=reason]").fill("未到场")
            form.locator("button").click()
            page.wait_for_selector("[data-testid=error]")
            assert bad in page.get_by_test_id("error").inner_text()
            again = page.get_by_test_id("late-4")
            assert again.is_visible() and again.input_value() == "-3"
            assert page.locator("td.override form").filter(has=again).locator("select[name=forfeit]").input_value() == "away"
        ctx.close()
