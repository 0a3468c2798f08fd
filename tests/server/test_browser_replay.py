"""The replay viewer in Debian's chromium, in Chinese on a phone held sideways and in English on a laptop: the
match's result and each deal's result at the top, the seats told apart (three bots of one tier) in team
colours, and at the last step of a deal the deal-end panel — every hand as it remained, the finishing order
with its places, the settlement, both teams' new levels. Only the page's language is on the page (bar the
player's own name), and nothing of the wire: no event type names, no Python or JavaScript values."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from guandan.agents import make_agent
from guandan.agents.runner import run_match
from guandan.core import record
from guandan.core.match import MatchConfig, new_match
from guandan.core.rules import preset
from guandan.server.replays import replay_frames

from .conftest import LiveServer
from .test_browser_site_header import HEADER

pytestmark = pytest.mark.timeout(240)

HUMAN = "Alice"  # the one name on the page that is not in the page's language
SEATS = [{"kind": "human", "tier": None}] + [{"kind": "bot", "tier": "greedy"}] * 3
BOTS = {"zh": ["机器人2·贪心", "机器人3·贪心", "机器人4·贪心"], "en": ["Bot 2 · Greedy", "Bot 3 · Greedy", "Bot 4 · Greedy"]}
PLACES = {"zh": ["头游", "二游", "三游", "末游"], "en": ["1st", "2nd", "3rd", "last"]}
SIZES = {"zh": (844, 390), "en": (1280, 800)}
CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")
REPRS = re.compile(r"deal_start|deal_settled|deal_over|match_over|first_lead|\bNone\b|\bnull\b|\bundefined\b|NaN|"
                   r"\[|\]|\{|\}|\bTrue\b|\bFalse\b|object Object")

# the text a person sees, but what is the same in every language: the site's name (掼蛋, the site header's home
# link), the replay id, the language toggle (it names the other language in that language), the fair-deal
# commitments (hex digests and the seed's formula)
VISIBLE_TEXT = """() => {
  const skip = ".site-name, #replay-id, #lang, .commitment, script, style";
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const p = walk.currentNode.parentElement;
    if (!p || p.closest(skip) || !p.checkVisibility()) continue;
    out.push(walk.currentNode.textContent);
  }
  return out.join("\\n");
}"""


@pytest.fixture(scope="module")
def replay(live_server: LiveServer) -> tuple[str, dict[str, Any]]:
    """A finished 2-deal web match of one person and three greedy bots, as table.py saves it (the bots'
    seat names all alike, the seats' kinds and tiers in meta), and the viewer's data for it."""
    match = new_match(preset("competition"), 11, MatchConfig(max_deals=2))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    text = record.dumps(match, players=[HUMAN, "greedy bot", "greedy bot", "greedy bot"],
                        meta={"room": "ABCDEF", "source": "web", "seats": SEATS})
    r = httpx.post(f"{live_server.url}/api/replays", content=text, headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 201, r.text
    rid = str(r.json()["id"])
    return rid, httpx.get(f"{live_server.url}/api/replays/{rid}", timeout=30).json()


def _corner(page: Page) -> list[str]:
    """The replay's corner, a line each (its no-break spaces, which keep a team's name with its level, as spaces; its
    word joiners, which keep 队 with its number, left out)."""
    return page.locator("#rinfo").inner_text().replace("\u00a0", " ").replace("\u2060", "").split("\n")


def _visible(page: Page) -> str:
    return str(page.evaluate(VISIBLE_TEXT))


def _context(browser: Browser, lang: str, width: int, height: int, touch: bool | None = None) -> BrowserContext:
    """A browser context of that size reading the site in ``lang``, with touch where the screen is a phone's
    (narrower than 1,000 px) unless ``touch`` says otherwise."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=width < 1000 if touch is None else touch, bypass_csp=True)
    context.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    return context


def _check_language(page: Page, lang: str) -> None:
    text = _visible(page)
    assert not REPRS.search(text), REPRS.findall(text)
    rest = re.sub(r"\b[0-9a-f]{12}…", "", text.replace(HUMAN, ""))  # a commitment's prefix in the check's line
    if lang == "en":
        assert not CJK.search(rest), CJK.findall(rest)
    else:  # card ranks are single letters (J Q K A); any word of two letters or more is English left over
        assert not re.search(r"[A-Za-z]{2,}", rest), re.findall(r"[A-Za-z]{2,}", rest)
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width  # nothing runs off the side


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_results_names_and_the_deal_end_panel(page: Page, live_server: LiveServer, replay: tuple[str, dict[str, Any]],
                                             lang: str) -> None:
    rid, data = replay
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.set_viewport_size({"width": SIZES[lang][0], "height": SIZES[lang][1]})
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live_server.url}/replay/{rid}")
    expect(page.locator("[data-hand='0'] .card")).to_have_count(27)

    # the seats: the person by name, the three bots apart, each in its team's colour
    names = page.locator("#teams .seat-name")
    expect(names).to_have_count(4)
    by_seat = {int(names.nth(i).get_attribute("data-seat") or -1): names.nth(i) for i in range(4)}
    assert [by_seat[s].inner_text() for s in range(4)] == [HUMAN, *BOTS[lang]]
    assert all(f"team-{s % 2}" in (by_seat[s].get_attribute("class") or "") for s in range(4))
    assert page.locator("#r1 .name").inner_text().startswith(BOTS[lang][0])

    # the match's end and every deal's result at the top, as the server words them
    summary = page.locator("#match-summary").inner_text()
    assert all(line in summary for line in data["summary"]["text"][lang])
    heads = page.locator("#deals .deal-head")
    expect(heads).to_have_count(len(data["deals"]))
    for i, deal in enumerate(data["deals"]):
        head = heads.nth(i).inner_text()
        assert all(line in head for line in deal["header"][lang]), head
        assert ("结果 1-" if lang == "zh" else "Result 1-") in head
    _check_language(page, lang)

    # the last step of the first deal opens the deal-end panel
    expect(page.locator("#deal-end")).to_be_hidden()
    page.click("#to-end")
    panel = page.locator("#deal-end")
    expect(panel).to_be_visible()
    deal = data["deals"][0]
    last = deal["steps"][-1]
    assert page.evaluate("document.body.dataset.step") == str(len(deal["steps"]) - 1)
    rows = panel.locator("[data-end-hand]")
    expect(rows).to_have_count(4)
    finish = deal["result"]["finish"]
    for place, seat in enumerate(finish):
        row = rows.nth(place)
        assert row.get_attribute("data-end-hand") == str(seat)
        assert row.locator(".place").inner_text() == PLACES[lang][place]
        assert row.locator(".seat-name").inner_text() == ([HUMAN, *BOTS[lang]])[seat]
        assert sorted(c.get_attribute("data-card") or "" for c in row.locator(".card").all()) == sorted(last["hands"][seat])
    assert sum(len(h) for h in last["hands"]) > 0  # the losers' cards are shown, not only counted
    text = panel.inner_text()
    assert all(line in text for line in deal["result"]["text"][lang])
    levels = panel.locator(".team-level")
    expect(levels).to_have_count(2)
    for k in (0, 1):
        assert levels.nth(k).inner_text().endswith(deal["result"]["levels"][k].replace("T", "10"))
        assert data["teams"][k][lang][0] in levels.nth(k).inner_text()
    box, table = panel.bounding_box(), page.locator("#rtable").bounding_box()
    assert box and table and table["x"] <= box["x"] and box["x"] + box["width"] <= table["x"] + table["width"] + 1
    _check_language(page, lang)

    # closed, it stays closed at that step; the next deal starts from its first step without it
    page.click("#deal-end-close")
    expect(panel).to_be_hidden()
    page.click("#prev")
    page.click("#next")
    expect(panel).to_be_visible()
    page.click("#next-deal")
    expect(panel).to_be_hidden()
    assert page.evaluate("[document.body.dataset.deal, document.body.dataset.step]") == ["1", "0"]
    assert page.locator("#deals .deal-head[aria-current='true']").get_attribute("data-deal") == "1"

    # the last deal's panel also says how the match ended
    page.click("#to-end")
    expect(panel).to_be_visible()
    assert all(line in panel.inner_text() for line in data["summary"]["text"][lang])
    expect(panel.locator("#next-deal")).to_have_count(0)
    _check_language(page, lang)
    assert not problems, problems


def test_the_arrow_keys_step_and_the_controls_stay_in_view(page: Page, live_server: LiveServer,
                                                           replay: tuple[str, dict[str, Any]]) -> None:
    """On a phone held sideways the page opens on the step controls and the table (the match's result and the
    deal list follow them); scrolled down the table, the controls stay in view; ← and → step through the deal
    from anywhere on the page, and the slider moves by one as before."""
    rid, _ = replay
    page.set_viewport_size({"width": 844, "height": 390})
    page.goto(f"{live_server.url}/replay/{rid}")
    expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
    table = page.locator("#rtable").bounding_box()
    assert table and table["y"] < 390 / 3, table  # the table starts in the screen's top third, before any scroll
    results = page.locator("#match").bounding_box()
    assert results and results["y"] > table["y"], (results, table)

    def step() -> int:
        return int(page.evaluate("Number(document.body.dataset.step)"))

    assert step() == 0
    page.locator("#rtable").scroll_into_view_if_needed()
    page.mouse.wheel(0, 400)
    page.wait_for_function("window.scrollY > 0")
    controls = page.locator("section.controls").bounding_box()
    assert controls and controls["y"] >= 0 and controls["y"] + controls["height"] <= 390, controls
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step() == 2
    page.keyboard.press("ArrowLeft")
    assert step() == 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # not below the deal's start
    assert step() == 0
    page.focus("#step")
    page.keyboard.press("ArrowRight")  # the slider's own key, not stepped twice
    assert step() == 1


# every word of a seat's name on one line: the lines its characters lie on, word by word (Chinese has no spaces: its
# words are either side of the "·" between the seat and the tier, 机器人2·贪心)
WORDS_SPLIT = """(node) => {
  const text = node.firstChild, split = [];
  for (const m of text.data.matchAll(/[^\\s·]+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size > 1) split.push(m[0]);
  }
  return split;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_upright_phone_breaks_the_side_seats_names_between_words_only(page: Page, live_server: LiveServer,
                                                                         replay: tuple[str, dict[str, Any]],
                                                                         lang: str) -> None:
    """A side seat has a fifth of an upright phone: its name may take two lines ("Bot 4 ·" over "Greedy"), never
    break inside a word ("Gree" over "dy"), and stays inside its seat."""
    rid, _ = replay
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    for width, height in ((390, 844), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/replay/{rid}")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
        for seat in ("#r1", "#r3"):
            name = page.locator(f"{seat} .seat-name")
            assert name.evaluate(WORDS_SPLIT) == [], (width, seat, name.inner_text())
            assert name.evaluate("(n) => n.scrollWidth <= n.clientWidth + 1"), (width, seat)  # no ellipsis either
            box, player = name.bounding_box(), page.locator(seat).bounding_box()
            assert box and player and box["x"] + box["width"] <= player["x"] + player["width"] + 1, (width, seat)
        _check_language(page, lang)


# the lines the replay id's characters lie on
ID_LINES = """(n) => {
  const range = document.createRange();
  range.selectNodeContents(n);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_upright_phone_keeps_the_replay_id_whole_in_its_title(page: Page, live_server: LiveServer,
                                                                 replay: tuple[str, dict[str, Any]], lang: str) -> None:
    """The replay's id is the end of its link, not words: on an upright phone it takes a line of its own beside
    "Replay", whole (it broke anywhere, "Gvjs2o9jOiH1PF" over "OF"), and the export and the language switch keep
    their room."""
    rid, _ = replay
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    for width, height in ((390, 844), (360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/replay/{rid}")
        ident = page.locator("#replay-id")
        expect(ident).to_have_text(rid)
        lines = ident.evaluate(ID_LINES)
        assert lines == 1, (width, lines)
        assert ident.evaluate("(n) => n.scrollWidth <= n.clientWidth + 1"), width  # whole, no ellipsis
        for button in ("#export", "#lang"):
            box = page.locator(button).bounding_box()
            assert box and box["x"] + box["width"] <= width + 1, (width, button)


# every box the selector matches, as [left, top, right, bottom] in the viewport
BOXES = """(sel) => [...document.querySelectorAll(sel)].map((n) => {
  const r = n.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
})"""


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(667, 375), (844, 390)])
def test_a_phone_held_sideways_shows_the_steps_and_all_four_hands_on_one_screen(
        browser: Browser, live_server: LiveServer, replay: tuple[str, dict[str, Any]], lang: str,
        size: tuple[int, int]) -> None:
    """Held sideways, the page opens on the step controls, the four hands (every card of each, at the deal's start
    when each holds 27), the levels and this step's action, without a scroll: the side hands' cards overlap as on the
    table, and the controls are tap targets. Stepping on keeps it so."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, bypass_csp=True)
    page = context.new_page()
    try:
        rid, _ = replay
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
        page.goto(f"{live_server.url}/replay/{rid}")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
        for at in (0, 9):
            for _ in range(at - int(page.evaluate("Number(document.body.dataset.step)"))):
                page.click("#next")
            assert page.evaluate("scrollY") == 0
            for sel in ("#to-start", "#prev", "#step", "#next", "#to-end", "#step-label", "#r0", "#r1", "#r2", "#r3", "#rinfo",
                        "#raction", ".player .card"):
                for left, top, right, bottom in page.evaluate(BOXES, sel):
                    assert left >= 0 and right <= width + 0.5 and top >= 0 and bottom <= height + 0.5, (
                        at, sel, (left, top, right, bottom))
            for button in ("#to-start", "#prev", "#next", "#to-end", "#step"):  # the slider is dragged by a finger too
                box = page.locator(button).bounding_box()
                assert box and box["height"] >= 40, (button, box)
        _check_language(page, lang)
    finally:
        context.close()


def test_the_steps_line_is_said_once_and_the_levels_as_the_table_writes_them(
        page: Page, live_server: LiveServer, replay: tuple[str, dict[str, Any]]) -> None:
    """The centre of the table says the step's play, pass or the deal's opening; the log beside it lists the step's
    other events only (who won the round, who went out), not the same line again. The levels read as the table
    writes them: "级牌：2" in Chinese, "打2" in the deal's title; both teams' Team 1's first (a replay is no seat's),
    each named as the table's badges name it: "队1 2 : 队2 2"."""
    rid, data = replay
    page.goto(f"{live_server.url}/")
    page.evaluate("localStorage.setItem('guandan:lang', 'zh')")
    page.goto(f"{live_server.url}/replay/{rid}")
    expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
    deal = data["deals"][0]
    assert _corner(page) == ["级牌：2", "队1 2 : 队2 2"]
    title = deal["title"]["zh"][0]
    assert title.startswith("第1副 · 打2 · 级数：队\u20601\u00a02\u00a0: 队\u20602\u00a02 · "), title
    assert page.locator("#raction").inner_text() == title
    assert title not in page.locator("#rlog").inner_text()
    others = 0
    for step in range(1, 40):
        page.click("#next")
        said = [line for e in deal["steps"][step]["events"] for line in e["text"]["zh"]]
        own = [line for e in deal["steps"][step]["events"] if e["type"] in ("play", "pass") for line in e["text"]["zh"]]
        log = page.locator("#rlog li").all_inner_texts()
        assert own and not set(own) & set(log), (step, own, log)
        assert log == [line for line in said if line not in own], (step, log)
        others += len(log)
    assert others > 0  # a round won was said in the log in those steps
    page.evaluate("localStorage.setItem('guandan:lang', 'en')")
    page.reload()
    expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
    assert _corner(page) == ["Level: 2", "Team 1 2 : Team 2 2"]


# both teams' levels at deal 2 of the fixture's match (Team 1 at 2, Team 2 at 5): Team 1's first in a replay, which is
# no seat's; a seat's own team first in a deal's review from the table, as the terminal client writes them
CORNER = {"zh": ("级牌：5", "队1 2 : 队2 5", "我方 5 : 对方 2"),
          "en": ("Level: 5", "Team 1 2 : Team 2 5", "Your team 5 : Opponents 2")}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(844, 390), (390, 844), (1280, 800)])
def test_the_corner_names_both_teams_levels_and_a_seats_review_has_its_own_first(
        browser: Browser, live_server: LiveServer, replay: tuple[str, dict[str, Any]], lang: str,
        size: tuple[int, int]) -> None:
    """The replay's corner names each team beside its level, Team 1's first; the review of a deal of a match in play
    (/r/CODE/review/DEAL, the table's deal-end link) is a seat's, here seat 2 of Team 2: its own team's level first.
    A narrow corner breaks the line after the colon only, never between a team and its level."""
    rid, data = replay
    assert [d["levels"] for d in data["deals"]] == [["2", "2"], ["2", "5"]]
    level, spectator, seat = CORNER[lang]
    # the deals so far as the server answers a seat of the room (app.deal_replay), for seat 2 (index 1) of Team 2
    text = httpx.get(f"{live_server.url}/api/replays/{rid}/record", timeout=30).text
    frames = {**replay_frames(text, in_play=True), "room": "ZZZZZZ", "deal": 1, "seat": 1}
    width, height = size
    context = _context(browser, lang, width, height)
    context.route("**/api/rooms/ZZZZZZ/deals/1/replay", lambda route: route.fulfill(json=frames))
    context.route("**/api/rooms/ZZZZZZ/deals/1/review", lambda route: route.fulfill(json={"reviews": []}))
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/replay/{rid}")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
        page.click("[data-deal='1']")
        expect(page.locator("#rinfo")).to_contain_text(level)
        assert _corner(page) == [level, spectator]
        assert page.locator("#rlevels").get_attribute("title") == {"zh": "级数", "en": "Levels"}[lang]
        kept = page.locator("#rlevels").inner_text()
        assert kept.count(" ") == 1 and kept.index(" ") == kept.index(":") + 1, kept  # the one break: after the colon
        _check_language(page, lang)
        page.goto(f"{live_server.url}/r/ZZZZZZ/review/1")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
        assert page.evaluate("document.body.dataset.live") == "true"
        assert _corner(page) == [level, seat]
        for left, top, right, bottom in page.evaluate(BOXES, "#rlevels"):
            assert left >= 0 and right <= width + 0.5 and top >= 0, (left, top, right, bottom)
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_replay_has_the_sites_one_header_and_its_own_title_line(browser: Browser, live_server: LiveServer,
                                                                    replay: tuple[str, dict[str, Any]], lang: str) -> None:
    """The replay page has the header of every other page (掼蛋 home, events, leaderboard, rules, log in, the language
    switch; none of them marked, as the replay is none of those pages), each a 40 px target on one line; the
    replay's title, its id and its record's export follow in a line of its own, the export a tap target too."""
    rid, _ = replay
    for width, height in ((667, 375), (844, 390), (390, 844), (1280, 800)):
        context = _context(browser, lang, width, height)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/replay/{rid}")
            expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
            got = page.evaluate(HEADER)
            where = (width, got)
            assert got["cls"] == "site-header" and got["home"].split("?")[0] == "/", where
            assert got["links"] == ({"zh": ["赛事", "排行榜", "规则", "登录"],
                                     "en": ["Events", "Leaderboard", "Rules", "Log in"]}[lang]), where
            assert got["marked"] == [] and got["switch"] == {"zh": "English", "en": "中文"}[lang], where
            assert all(t["w"] >= 40 and t["h"] >= 40 for t in got["targets"]), where
            assert len({round(t["top"]) for t in got["targets"]}) == 1, where
            assert got["height"] <= 48 and got["wide"] <= width, where
            assert page.locator("body > header").count() == 1  # no header of its own beside the site's
            expect(page.locator("#replay-head h2")).to_contain_text({"zh": "回放", "en": "Replay"}[lang])
            expect(page.locator("#replay-id")).to_have_text(rid)
            export = page.locator("#export").bounding_box()
            assert export and export["height"] >= 40 and export["x"] + export["width"] <= width + 0.5, (width, export)
            assert page.locator("#export").get_attribute("href") == f"/api/replays/{rid}/record"
        finally:
            context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_an_upright_phone_shows_the_steps_and_all_four_hands_on_its_first_screen(
        browser: Browser, live_server: LiveServer, replay: tuple[str, dict[str, Any]], lang: str,
        size: tuple[int, int]) -> None:
    """Upright, the page opens on the step controls and the table, every card of the four hands (27 each at the deal's
    start) and the step's action on the first screen (the hands in columns two cards wide made the table over
    1,000 px tall, the buttons and the last hand a long scroll apart); the match's result and the deal list follow.
    The step's line counts the moves as the review does: the deal's start, then move 1 of N."""
    width, height = size
    context = _context(browser, lang, width, height, touch=True)
    page = context.new_page()
    try:
        rid, data = replay
        page.goto(f"{live_server.url}/replay/{rid}")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
        total = len(data["deals"][0]["steps"]) - 1
        expect(page.locator("#step-label")).to_have_text(
            {"zh": f"开局 · 共{total}手", "en": f"Start · {total} moves"}[lang])
        assert page.evaluate("scrollY") == 0
        for sel in ("#to-start", "#prev", "#step", "#next", "#to-end", "#step-label", "#r0", "#r1", "#r2", "#r3", "#rinfo",
                    "#raction", ".player .card"):
            for left, top, right, bottom in page.evaluate(BOXES, sel):
                assert left >= 0 and right <= width + 0.5 and top >= 0 and bottom <= height + 0.5, (
                    sel, (left, top, right, bottom))
        for button in ("#to-start", "#prev", "#next", "#to-end", "#step"):
            box = page.locator(button).bounding_box()
            assert box and box["height"] >= 40, (button, box)
        table, results = page.locator("#rtable").bounding_box(), page.locator("#match").bounding_box()
        assert table and results and results["y"] > table["y"], (table, results)
        page.click("#next")
        expect(page.locator("#step-label")).to_have_text(
            {"zh": f"第1手/共{total}手", "en": f"Move 1 of {total}"}[lang])
        _check_language(page, lang)
    finally:
        context.close()


# every step of deal 0 in turn (the step slider, as a drag moves it): the play to beat shown in the centre at each,
# and the lowest bottom edge of the table's parts, with the page scrolled to its top
WALK_STEPS = """() => {
  const slider = document.getElementById('step'), out = [];
  for (let n = 0; n <= Number(slider.max); n++) {
    slider.value = n; slider.dispatchEvent(new Event('input'));
    scrollTo(0, 0);
    const beat = document.querySelector('#raction [data-testid=to-beat]');
    const parts = [...document.querySelectorAll('#raction, #rinfo, #r0, #r1, #r2, #r3, .player .card')];
    out.push({ step: Number(document.body.dataset.step), text: beat ? beat.innerText.replace(/\\s+/g, ' ') : null,
      seat: beat ? beat.querySelector('.seat-name').textContent : null,
      cards: beat ? [...beat.querySelectorAll('.card')].filter((c) => c.checkVisibility()).map((c) => c.dataset.card) : null,
      bottom: Math.max(...parts.map((p) => p.getBoundingClientRect().bottom)) });
  }
  return out;
}"""


@pytest.mark.parametrize(("lang", "size"), [("zh", (1280, 800)), ("en", (667, 375)), ("zh", (844, 390))])
def test_a_pass_or_a_play_is_shown_with_the_play_it_answered(browser: Browser, live_server: LiveServer,
                                                             replay: tuple[str, dict[str, Any]], lang: str,
                                                             size: tuple[int, int]) -> None:
    """A step shows its move in the centre and, above it, the play that move had to beat (要压的牌): a pass read alone
    ("小明 不要") said nothing of what was passed on, nor a verdict on it what the seat was answering. The seat that
    played it and its cards on a desktop, in words on a phone held sideways (its cards would push the table past the
    screen's foot); nothing for a lead or the deal's opening."""
    width, height = size
    touch = width < 1000
    context = _context(browser, lang, width, height, touch)
    page = context.new_page()
    try:
        rid, data = replay
        page.goto(f"{live_server.url}/replay/{rid}")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
        steps = data["deals"][0]["steps"]
        shown = page.evaluate(WALK_STEPS)
        assert [s["step"] for s in shown] == list(range(len(steps)))
        answered = 0
        for n, got in enumerate(shown):
            action = steps[n]["action"]
            before = steps[n - 1]["top"] if n else None
            if action is None or action["kind"] not in ("play", "pass") or before is None:
                assert got["text"] is None, (n, got)
                continue
            answered += 1
            top = steps[before]["action"]
            assert got["text"].startswith({"zh": "要压的牌：", "en": "To beat: "}[lang]), got
            assert got["seat"] == data["seats"][top["seat"]]["name"][lang]
            assert sorted(got["cards"]) == ([] if touch else sorted(top["cards"]))
            assert got["bottom"] <= height + 0.5 or not touch, (n, got)
        assert answered > 10
        _check_language(page, lang)
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 844])
def test_the_fair_deal_checks_two_parts_lie_one_under_the_other(browser: Browser, live_server: LiveServer,
                                                                 replay: tuple[str, dict[str, Any]], width: int) -> None:
    """The match's check and the deal's, one under the other: side by side on a desktop, the match's last line (the
    seed's formula) ran on into the deal's commitment with no space between ("…“guandan:11:n−1”Deal commitment")."""
    context = _context(browser, "en", width, 800, touch=False)
    page = context.new_page()
    try:
        rid, _ = replay
        page.goto(f"{live_server.url}/replay/{rid}")
        expect(page.locator("#fair-deal .commitment")).to_have_count(1)
        match, deal = page.locator("#fair-summary").bounding_box(), page.locator("#fair-deal").bounding_box()
        assert match and deal and deal["y"] >= match["y"] + match["height"], (match, deal)
    finally:
        context.close()


LONG_NAMES = ["Maximilian Alexander von Hohenzollern-Sigmaringen", "欧阳诸葛司马长长长名字玩家", "Bartholomew", "d"]
# the short words of the jumps on a phone, the whole ones where there is room
JUMPS = {"zh": {"phone": ("回到开头", "跳到结尾"), "wide": ("回到本副开头", "跳到本副结束")},
         "en": {"phone": ("To the start", "To the end"), "wide": ("To the start of the deal", "To the end of the deal")}}
TEAM_LEVELS = {"zh": "队1 2 : 队2 5", "en": "Team 1 2 : Team 2 5"}


@pytest.fixture(scope="module")
def long_names_replay(live_server: LiveServer) -> str:
    """The fixture's match again, played by four people with a long name among them, a long Chinese one too."""
    match = new_match(preset("competition"), 11, MatchConfig(max_deals=2))
    run_match(match, [make_agent("greedy", seed=s) for s in range(4)])
    r = httpx.post(f"{live_server.url}/api/replays", content=record.dumps(match, players=LONG_NAMES),
                   headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", [(844, 390), (390, 844), (1280, 800)])
def test_the_deals_first_and_last_steps_and_the_teams_levels_named(
        browser: Browser, live_server: LiveServer, long_names_replay: str, lang: str, size: tuple[int, int]) -> None:
    """Beside "previous" and "next", the jumps to the deal's first and last steps, as tall as they (tap-sized on a
    phone, in short words there), each disabled where it would go nowhere; Home and End do the same from the keyboard.
    The deal list and the match's result name each team beside its level ("队1 2 : 队2 5"), and with long names at
    the table nothing runs off the screen."""
    width, height = size
    phone = width < 1000
    context = _context(browser, lang, width, height)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(f"{live_server.url}/replay/{long_names_replay}")
        expect(page.locator("[data-hand='0'] .card")).to_have_count(27)
        last = int(page.locator("#step").get_attribute("max") or 0)
        assert last > 3

        def step() -> int:
            return int(page.evaluate("Number(document.body.dataset.step)"))

        start, end = page.locator("#to-start"), page.locator("#to-end")
        assert (start.inner_text(), end.inner_text()) == JUMPS[lang]["phone" if phone else "wide"]
        expect(start).to_be_disabled()
        boxes = {b: page.locator(b).bounding_box() for b in ("#to-start", "#prev", "#next", "#to-end")}
        heights = {b: box["height"] if box else 0.0 for b, box in boxes.items()}
        assert max(heights.values()) - min(heights.values()) < 1, heights
        if phone:
            assert min(heights.values()) >= 40, heights
        for b in ("#to-start", "#prev", "#step", "#next", "#to-end", "#step-label"):
            for left, top, right, bottom in page.evaluate(BOXES, b):
                assert left >= 0 and right <= width + 0.5 and top >= 0 and bottom <= height + 0.5, (b, left, right)
        page.click("#next")
        page.click("#next")
        page.click("#next")
        assert step() == 3
        page.click("#to-start")
        assert step() == 0
        expect(start).to_be_disabled()
        page.click("#to-end")
        assert step() == last
        expect(end).to_be_disabled()
        expect(start).to_be_enabled()
        page.click("#deal-end-close")
        page.keyboard.press("Home")
        assert step() == 0
        page.keyboard.press("End")
        assert step() == last
        page.click("#deal-end-close")
        page.keyboard.press("ArrowLeft")
        assert step() == last - 1
        page.focus("#step")
        page.keyboard.press("Home")  # the slider's own key: to its start once, not twice
        assert step() == 0

        # each team named beside its level, in the deal list and the match's result
        # read as one reads them: the no-break spaces as spaces, the word joiners (unseen) left out
        second = page.locator("#deals .deal-head").nth(1).inner_text().replace("\u00a0", " ").replace("\u2060", "")
        assert TEAM_LEVELS[lang] in second, second
        summary = page.locator("#match-summary").inner_text().replace("\u00a0", " ").replace("\u2060", "")
        assert ("队1 3 : 队2 5" if lang == "zh" else "Team 1 3 : Team 2 5") in summary, summary
        for sel in ("#match", "#deals .deal-head", "#teams .seat-name", "section.controls", "#rtable"):
            for left, _, right, _ in page.evaluate(BOXES, sel):
                assert left >= 0 and right <= width + 0.5, (sel, left, right)
        assert page.evaluate("[...document.querySelectorAll('.deal-head')].every((n) => n.scrollWidth <= n.clientWidth + 1)")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert not problems, problems
    finally:
        context.close()
