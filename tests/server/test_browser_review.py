"""The review (复盘) on the replay page in Debian's chromium: asked for with one click, its progress shown
while the server works it out, then the accuracy, the evaluation graph (a click on a point goes to that
position), the label of the seat's move there, the better move marked in the hand, the costliest
decisions listed — in Chinese and in English."""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from guandan.review.words import points

from .conftest import LiveServer
from .test_api import _finished_record

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def replay_id(live_server: LiveServer) -> str:
    r = httpx.post(f"{live_server.url}/api/replays", content=_finished_record(),
                   headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def data_deal_steps(live_server: LiveServer, rid: str, deal: int) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = httpx.get(f"{live_server.url}/api/replays/{rid}", timeout=30).json()["deals"][deal]["steps"]
    return steps


def _review(live_server: LiveServer, rid: str, seat: int) -> dict[str, Any]:
    states = httpx.get(f"{live_server.url}/api/replays/{rid}/reviews", timeout=30).json()["reviews"]
    return next(s for s in states if s["seat"] == seat)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ask_for_a_review_and_go_through_it(page: Page, live_server: LiveServer, replay_id: str, lang: str) -> None:
    seat = 1 if lang == "en" else 2
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live_server.url}/replay/{replay_id}?review={seat}")  # a seat chosen, not yet asked for
    page.wait_for_function("document.body.dataset.review === 'none'")
    assert page.locator("#review-seat").input_value() == str(seat)
    assert page.locator("#review-btn").inner_text() == ("复盘此座位" if lang == "zh" else "Review this seat")
    page.click("#review-btn")
    page.wait_for_function("['queued', 'running', 'done'].includes(document.body.dataset.review)")
    page.wait_for_function("document.body.dataset.review === 'done'", timeout=180_000)
    review = _review(live_server, replay_id, seat)["review"][lang]
    summary = page.locator("#review-summary").inner_text()
    assert f"{round(review['accuracy'])}%" in summary and ("准确度" if lang == "zh" else "Accuracy") in summary
    first_deal = [d for d in review["decisions"] if d["deal"] == 0]
    assert page.locator("#review-graph circle").count() == len(first_deal) > 0
    # a point of the graph goes to the step of that decision: the review's "move n" of the deal (its action n − 1)
    # is step n, which shows that move in the centre, and the step's line says "move n" too; with its verdict
    target = first_deal[len(first_deal) // 2]
    move = target["action"] + 1
    page.locator(f"#review-graph circle[data-step='{move}']").click(force=True)
    assert page.evaluate("document.body.dataset.step") == str(move)
    total = len(data_deal_steps(live_server, replay_id, 0)) - 1
    assert page.locator("#step-label").inner_text() == (f"第{move}手/共{total}手" if lang == "zh" else f"Move {move} of {total}")
    assert data_deal_steps(live_server, replay_id, 0)[move]["action"]["seat"] == seat  # the seat's move, in the centre
    # the move's seat, under the play it answered (the centre names that play's seat too)
    move = page.locator("#raction [data-testid=move] .seat-name").inner_text()
    assert move == page.locator(f"#r{seat} .seat-name").inner_text()
    assert page.evaluate("document.body.dataset.verdict") == target["label"]
    assert target["label_text"] in page.locator("#review-move").inner_text()
    # the costliest decision of the deal on screen (of the match when none of the deal's lost anything):
    # listed, and the better move is marked on the seat's hand
    costly = review["deals"][0]["costliest"] or review["costliest"]
    if costly:
        page.locator("#review-costly a").first.click()
        worst = next(d for d in review["decisions"] if (d["deal"], d["action"]) == (costly[0]["deal"], costly[0]["action"]))
        assert page.evaluate("document.body.dataset.step") == str(worst["action"] + 1)
        # the list and the step's line number the move alike: "第1副第5手" is step 第5手
        number = worst["action"] + 1
        assert (f"第{worst['deal'] + 1}副第{number}手" if lang == "zh" else f"Deal {worst['deal'] + 1}, move {number}:") in \
            page.locator("#review-costly a").first.inner_text()
        assert page.locator("#step-label").inner_text().startswith(f"第{number}手" if lang == "zh" else f"Move {number} of")
        move = page.locator("#review-move").inner_text()
        assert worst["best"]["text"] in move
        # its cost in words and in level points, in the review's own words (cost_text), as the list says it: not
        # a bare negative number beside the better move's value, nor "loss 0.75" with no unit
        cost = worst["cost_text"]
        assert cost.startswith(worst["label_text"]) and (("级（± " in cost) if lang == "zh" else (" level points" in cost))
        assert cost in move and "(+" not in move, move
        listed = page.locator("#review-costly a").first.inner_text()
        assert cost in listed, listed
        # the better move's cards marked where they are now, in the hand or among the cards played in the centre
        best_cards = worst["best"]["action"].get("cards", [])
        assert page.locator(f"[data-hand='{seat}'] .card.better, #raction .card.better").count() == len(best_cards)
        assert all(c["label"] != "good" for c in costly)
    else:
        assert page.locator("#review-costly li").count() == 1
    assert not problems, problems


def test_the_tables_link_to_a_review_asks_for_it_in_one_tap(browser: Browser, live_server: LiveServer) -> None:
    """The deal end's "Review (复盘)" link (?review=SEAT#review) is the player's one tap: on a phone the replay page
    asks for that seat's review at once and shows its progress, with no second tap on "Review this seat"; opened
    again, it asks nothing more."""
    r = httpx.post(f"{live_server.url}/api/replays", content=_finished_record(),
                   headers={"Content-Type": "application/json"}, timeout=30)
    rid = str(r.json()["id"])
    page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True).new_page()
    try:
        page.goto(f"{live_server.url}/replay/{rid}?review=3#review")
        page.wait_for_function("['queued', 'running', 'done'].includes(document.body.dataset.review)")
        assert page.locator("#review-seat").input_value() == "3"
        assert not page.locator("#review-btn").is_visible()
        assert page.locator("#review-error").inner_text() == ""
        assert _review(live_server, rid, 3)["status"] in ("queued", "running", "done")
        page.wait_for_function("document.body.dataset.review === 'done'", timeout=180_000)
        asked = len(httpx.get(f"{live_server.url}/api/replays/{rid}/reviews", timeout=30).json()["reviews"])
        page.reload()
        page.wait_for_function("document.body.dataset.review === 'done'")
        assert len(httpx.get(f"{live_server.url}/api/replays/{rid}/reviews", timeout=30).json()["reviews"]) == asked == 1
    finally:
        page.context.close()


@pytest.mark.parametrize(("lang", "state", "said"), [
    ("en", {"status": "queued", "ahead": 1}, "Queued; reviews ahead: 1"),
    ("en", {"status": "queued", "ahead": 3}, "Queued; reviews ahead: 3"),
    ("zh", {"status": "queued", "ahead": 1}, "排队中：前面还有1个复盘"),
    ("en", {"status": "running", "done": 0, "total": 1}, "Reviewing… decisions: 0 / 1"),
])
def test_a_review_under_way_counts_one_as_one(page: Page, live_server: LiveServer, replay_id: str, lang: str,
                                               state: dict[str, Any], said: str) -> None:
    """The reviews ahead and the decisions done read right for one and for many (the state given by the route)."""
    reviews = {"reviews": [{"seat": 1, **state}]}
    page.route(f"**/api/replays/{replay_id}/reviews", lambda route: route.fulfill(json=reviews))
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live_server.url}/replay/{replay_id}?review=1")
    page.wait_for_function(f"document.body.dataset.review === '{state['status']}'")
    assert page.locator("#review-status").inner_text() == said


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_review_on_a_phone_is_read_and_tapped(browser: Browser, live_server: LiveServer, replay_id: str,
                                                lang: str) -> None:
    """On a phone (upright and held sideways) the review's line for the move at this step ("这一手：…") and its
    verdict wrap inside the page, never running off its side; the seat's choice, the costliest decisions are tap
    targets (40 px high at least); and a tap on the graph between two points goes to the decision nearest it."""
    seat = 0 if lang == "zh" else 3
    r = httpx.post(f"{live_server.url}/api/replays/{replay_id}/reviews", json={"seat": seat}, timeout=30)
    assert r.status_code in (200, 202), r.text
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
        page.goto(f"{live_server.url}/replay/{replay_id}?review={seat}")
        page.wait_for_function("document.body.dataset.review === 'done'", timeout=180_000)
        review = _review(live_server, replay_id, seat)["review"][lang]
        points = [d["action"] for d in review["decisions"] if d["deal"] == 0]
        assert len(points) > 2
        for width, height in ((390, 844), (667, 375)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(f"innerWidth === {width}")
            # the costliest decision: its verdict in the move's line, which wraps inside the page
            costly = page.locator("#review-costly a")
            assert costly.count() > 0
            costly.first.click()
            move = page.locator("#review-move")
            expect(move.locator(".verdict")).to_be_visible()
            # in the language's punctuation, and not "下一步" (the step button's word) for the seat's move
            assert move.inner_text().startswith("这一手：" if lang == "zh" else "This move: "), move.inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            box = move.locator(".verdict").bounding_box()
            assert box and box["x"] + box["width"] <= width, box
            for target in [*costly.all(), page.locator("#review-seat")]:
                tap = target.bounding_box()
                assert tap and tap["height"] >= 40, (width, tap)
            # a tap on the graph between the second and third points, nearer the third
            graph = page.locator("#review-graph")
            graph.evaluate("(n) => n.scrollIntoView({ block: 'end' })")  # clear of the sticky step controls
            second = page.locator(f"#review-graph circle[data-step='{points[1] + 1}']").bounding_box()
            third = page.locator(f"#review-graph circle[data-step='{points[2] + 1}']").bounding_box()
            frame = graph.bounding_box()
            assert second and third and frame
            x = second["x"] + second["width"] / 2 + (third["x"] - second["x"]) * 0.7
            page.touchscreen.tap(x, frame["y"] + frame["height"] - 3)  # at the graph's foot, on no point
            page.wait_for_function(f"document.body.dataset.step === '{points[2] + 1}'")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_costliest_list_shows_no_move_labelled_good(page: Page, live_server: LiveServer, replay_id: str,
                                                        lang: str) -> None:
    """A review stored before the server left the moves labelled good out of its costliest decisions still lists
    none of them: a learner told "costliest decisions" never reads "good" there; with nothing left, one line says
    that no decision was an inaccuracy, a mistake or a blunder."""
    r = httpx.post(f"{live_server.url}/api/replays/{replay_id}/reviews", json={"seat": 2}, timeout=30)
    assert r.status_code in (200, 202), r.text
    for _ in range(180):
        state = _review(live_server, replay_id, 2)
        if state["status"] == "done":
            break
        page.wait_for_timeout(1000)
    review = state["review"][lang]
    good = [{"deal": d["deal"], "action": d["action"], "loss": 0.1, "label": "good", "text": d["text"]}
            for d in review["decisions"] if d["label"] == "good"][:2]
    assert good
    review["costliest"] = good
    for row in review["deals"]:
        row["costliest"] = [c for c in good if c["deal"] == row["deal"]]
    page.route(f"**/api/replays/{replay_id}/reviews", lambda route: route.fulfill(json={"reviews": [state]}))
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live_server.url}/replay/{replay_id}?review=2")
    page.wait_for_function("document.body.dataset.review === 'done'")
    expect(page.locator("#review-costly a")).to_have_count(0)
    expect(page.locator("#review-costly li")).to_have_text(
        ["没有一手是欠佳、失误或大错" if lang == "zh" else "No decision was an inaccuracy, a mistake or a blunder"])


def _done_review(live_server: LiveServer, rid: str, seat: int) -> dict[str, Any]:
    """The seat's review, asked for and waited on: the state as the server lists it, done."""
    r = httpx.post(f"{live_server.url}/api/replays/{rid}/reviews", json={"seat": seat}, timeout=30)
    assert r.status_code in (200, 202), r.text
    for _ in range(180):
        state = _review(live_server, rid, seat)
        if state["status"] == "done":
            return state
        time.sleep(1)
    raise AssertionError(f"seat {seat}'s review is not done: {state}")


# the table's box against what the sticky step controls leave of the window: whether the whole table is in view
TABLE_IN_VIEW = """() => { const t = document.getElementById('rtable').getBoundingClientRect();
  const clear = Math.max(0, document.querySelector('.replay-page .controls').getBoundingClientRect().bottom);
  return t.top >= clear - 1 && t.bottom <= innerHeight + 1; }"""
TABLE_TO_TOP = """() => scrollBy(0, document.getElementById('rtable').getBoundingClientRect().top -
  document.querySelector('.replay-page .controls').getBoundingClientRect().height)"""


@pytest.mark.parametrize(("lang", "width", "height"), [("zh", 390, 844), ("en", 1280, 800)])
def test_a_costliest_decisions_link_shows_the_table(browser: Browser, live_server: LiveServer, replay_id: str,
                                                    lang: str, width: int, height: int) -> None:
    """A tap on one of the costliest decisions goes to its step and brings the table into view under the step
    controls: on an upright phone the list lies a screen below the table, and the step changed out of sight. A table
    already in view (a desktop) stays where it is: the page does not move."""
    _done_review(live_server, replay_id, 1)
    touch = width < height
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
        page.goto(f"{live_server.url}/replay/{replay_id}?review=1")
        page.wait_for_function("document.body.dataset.review === 'done'")
        link = page.locator("#review-costly a").first
        if touch:  # upright, the list lies a screen below the table
            link.scroll_into_view_if_needed()
            assert not page.evaluate(TABLE_IN_VIEW)
        else:  # the table just under the step controls, the list under it in view too
            page.evaluate(TABLE_TO_TOP)
            assert page.evaluate(TABLE_IN_VIEW)
            box = link.bounding_box()
            assert box and box["y"] + box["height"] <= height, box
        before = page.evaluate("scrollY")
        if touch:
            link.tap()
        else:
            link.click()
        page.wait_for_function("document.body.dataset.step !== '0'")
        assert page.evaluate(TABLE_IN_VIEW)
        if not touch:
            assert page.evaluate("scrollY") == before
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_deal_without_costly_decisions_says_so_and_lists_the_matchs(page: Page, live_server: LiveServer,
                                                                     replay_id: str, lang: str) -> None:
    """On a deal where the seat made no costly decision, the review says so of the deal and lists the match's costliest
    decisions under the match's title: under "Costliest decisions" beside the deal on screen they read as its own. A
    deal with some lists them under the deal's title, and no line says it has none."""
    state = _done_review(live_server, replay_id, 1)
    for words in state["review"].values():  # the first deal's costly decisions left out, the match's kept
        words["deals"][0]["costliest"] = []
    review = state["review"][lang]
    match = [c for c in review["costliest"] if c["label"] != "good"]
    second = [c for c in review["deals"][1]["costliest"] if c["label"] != "good"]
    assert match and second
    page.route(f"**/api/replays/{replay_id}/reviews", lambda route: route.fulfill(json={"reviews": [state]}))
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live_server.url}/replay/{replay_id}?review=1")
    page.wait_for_function("document.body.dataset.review === 'done'")
    none = {"zh": "本副没有一手是欠佳、失误或大错",
            "en": "No decision of this deal was an inaccuracy, a mistake or a blunder"}[lang]
    expect(page.locator("#review-costly-deal")).to_have_text(none)
    expect(page.locator("#review-costly-title")).to_have_text(
        "全场代价最大的几手" if lang == "zh" else "Costliest decisions of the match")
    expect(page.locator("#review-costly a")).to_have_text([c["text"] for c in match])
    page.locator("[data-deal='1']").click()
    expect(page.locator("#review-costly-deal")).to_be_hidden()
    expect(page.locator("#review-costly-title")).to_have_text(
        "本副代价最大的几手" if lang == "zh" else "Costliest decisions of this deal")
    expect(page.locator("#review-costly a")).to_have_text([c["text"] for c in second])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_verdict_says_what_both_moves_were_worth_and_the_numbers_are_explained(page: Page, live_server: LiveServer,
                                                                                 replay_id: str, lang: str) -> None:
    """A costly move's verdict gives the level points the team could expect after it and after the better move (its
    cost is the gap between them), and the review says under its lists what a level point is, what accuracy 100% is,
    how many deals the engine drew for each decision from what the seat could see, and what the ± is: "costs about
    0.50 level points (± 0.08)" alone left a learner to guess the unit and the sign's meaning."""
    state = _done_review(live_server, replay_id, 1)
    review = state["review"][lang]
    costly = [d for d in review["decisions"] if d["loss"] > 0 and d["best"]["action"] != d["played"]]
    assert costly
    target = costly[0]
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live_server.url}/replay/{replay_id}?review=1")
    page.wait_for_function("document.body.dataset.review === 'done'")
    page.locator(f"#deals [data-deal='{target['deal']}']").click()
    page.evaluate("(n) => { const s = document.getElementById('step'); s.value = n; s.dispatchEvent(new Event('input')); }",
                  target["action"] + 1)
    move = page.locator("#review-move .expected").inner_text()
    played, best = points(target["value"]), points(target["best"]["value"])
    assert move == ({"zh": f"本方预计所得级数：这一手之后{played}，更好的打法之后{best}",
                     "en": f"Expected level points for the team: {played} after this move, {best} after the better one"}
                    [lang]), move
    notes = page.locator("#review-notes").inner_text()
    worlds = str(review["settings"]["worlds"])
    if lang == "zh":
        assert "升级点数" in notes and "+3（本方双上）" in notes and f"{worlds}种可能" in notes and "± 是" in notes, notes
    else:
        assert "Level points:" in notes and "+3 (a 1-2 finish)" in notes and f"{worlds} ways" in notes, notes
        assert "± is the margin" in notes, notes


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_deal_the_review_has_no_row_for_shows_no_accuracy_of_its_own(page: Page, live_server: LiveServer,
                                                                       replay_id: str, lang: str) -> None:
    """A finished deal's review from the table covers that deal alone, while its page lists the deals before it too:
    on one of those the summary leaves the deal's accuracy out, where it wrote a bare "null"."""
    state = _done_review(live_server, replay_id, 1)
    for words in state["review"].values():  # the review of the second deal only, as the table's link asks for it
        words["deals"] = [row for row in words["deals"] if row["deal"] == 1]
    page.route(f"**/api/replays/{replay_id}/reviews", lambda route: route.fulfill(json={"reviews": [state]}))
    page.goto(f"{live_server.url}/")
    page.evaluate(f"localStorage.setItem('guandan:lang', '{lang}')")
    page.goto(f"{live_server.url}/replay/{replay_id}?review=1")
    page.wait_for_function("document.body.dataset.review === 'done'")
    this_deal = {"zh": "本副", "en": "This deal"}[lang]
    summary = page.locator("#review-summary").inner_text()
    assert "null" not in summary and this_deal not in summary, summary
    page.locator("#deals [data-deal='1']").click()
    expect(page.locator("#review-summary")).to_contain_text(this_deal)


@pytest.mark.parametrize(("lang", "width", "height"), [("zh", 390, 844), ("en", 844, 390)])
def test_on_a_phone_the_verdict_lies_just_under_the_table(browser: Browser, live_server: LiveServer, replay_id: str,
                                                          lang: str, width: int, height: int) -> None:
    """On a phone the review follows the table, before the match's result and the deal list, and in it the verdict of
    the move on screen comes before the graph: a costliest decision tapped showed its position with its verdict a
    screen and more below it, past the match's result and every deal's."""
    _done_review(live_server, replay_id, 1)
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, bypass_csp=True)
    context.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/replay/{replay_id}?review=1")
        page.wait_for_function("document.body.dataset.review === 'done'")
        link = page.locator("#review-costly a").first
        link.scroll_into_view_if_needed()
        link.tap()
        page.wait_for_function("document.body.dataset.verdict && document.body.dataset.verdict !== 'good'")
        box = {sel: page.locator(sel).bounding_box() for sel in ("#rtable", "#review", "#review-move", "#review-graph",
                                                                  "#match", "#deals")}
        assert all(box.values()), box
        table, review, move, graph, match, deals = (box[s] for s in ("#rtable", "#review", "#review-move",
                                                                     "#review-graph", "#match", "#deals"))
        assert table and review and move and graph and match and deals
        assert table["y"] + table["height"] <= review["y"] < match["y"] < deals["y"], box
        assert move["y"] + move["height"] <= graph["y"], box
        # the verdict's first line within the screen under the table as the tap left it
        assert move["y"] < height, box
    finally:
        context.close()


# the review graph's y-axis as drawn: each gridline's label (its value, words, box) and the zero line's height, the
# axis's name and its box, the points of the played line (their step and height), in the graph's own pixels
GRAPH_AXIS = """() => {
  const g = document.getElementById('review-graph');
  const box = (n) => { const b = n.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const ticks = [...g.querySelectorAll('text.tick')].map((n) => ({ value: Number(n.dataset.value), text: n.textContent,
    box: box(n), size: parseFloat(getComputedStyle(n).fontSize) }));
  const name = g.querySelector('text.axis-name');
  const lines = [...g.querySelectorAll('line.grid, line.zero')].map((n) => ({ zero: n.classList.contains('zero'),
    y: Number(n.getAttribute('y1')) }));
  const dots = [...g.querySelectorAll('circle.dot')].map((n) => ({ step: Number(n.dataset.step),
    cx: Number(n.getAttribute('cx')), cy: Number(n.getAttribute('cy')), r: Number(n.getAttribute('r')) }));
  return { width: g.clientWidth, height: g.clientHeight, ticks, lines, dots,
    name: { text: name && name.textContent, box: name && box(name) } };
}"""


@pytest.mark.parametrize(("lang", "width", "height"), [("zh", 844, 390), ("en", 390, 844), ("en", 1280, 800)])
def test_the_graphs_y_axis_says_what_a_height_is_worth(browser: Browser, live_server: LiveServer, replay_id: str,
                                                         lang: str, width: int, height: int) -> None:
    """The evaluation graph's y-axis has a few gridlines, 0 among them, each labelled in level points as the review
    writes them (signed, a true minus) at the left of the plot, and the axis's name above them: a point of the
    graph lies at the height its value has on that axis, and no label covers another, the name or a point."""
    state = _done_review(live_server, replay_id, 3)
    graph = state["review"][lang]["deals"][0]["graph"]
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=width < 1000, bypass_csp=True)
    context.add_init_script(f"localStorage.setItem('guandan:lang', '{lang}')")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/replay/{replay_id}?review=3")
        page.wait_for_function("document.body.dataset.review === 'done'")
        axis = page.evaluate(GRAPH_AXIS)
        ticks, dots = axis["ticks"], axis["dots"]
        assert axis["name"]["text"] == ("期望升级点数" if lang == "zh" else "Expected level points")
        assert 2 <= len(ticks) <= 5 and 0 in [t["value"] for t in ticks], ticks
        for t in ticks:
            assert re.fullmatch(r"0|[+−]\d+(\.\d+)?", t["text"]), t
            assert float(t["text"].replace("−", "-")) == t["value"], t
            assert t["size"] >= 11, t
        # upward in value, upward on the screen, far enough apart that no label covers the next, all under the name
        ordered = sorted(ticks, key=lambda t: t["value"])
        for low, high in itertools.pairwise(ordered):
            assert high["box"][3] <= low["box"][1], (low, high)
        assert axis["name"]["box"][3] <= ordered[-1]["box"][1] + 1, (axis["name"], ordered[-1])
        # every label inside the graph and left of every point
        leftmost = min(d["cx"] - d["r"] for d in dots)
        for t in ticks:
            left, top, right, bottom = t["box"]
            assert left >= 0 and top >= 0 and bottom <= axis["height"] and right <= leftmost, (t, leftmost)
        # a point lies at its value's height on the labelled axis: between the zero line and another gridline
        zero = next(line["y"] for line in axis["lines"] if line["zero"])
        other = next(t for t in ordered if t["value"] != 0)
        at = next(line["y"] for line in axis["lines"] if not line["zero"] and abs(line["y"] - (
            other["box"][1] + other["box"][3]) / 2) < 6)
        per_point = (at - zero) / other["value"]
        by_step = {d["step"]: d for d in dots}
        assert len(by_step) == len(graph)
        for action, played, _best in graph:
            assert abs(by_step[action + 1]["cy"] - (zero + played * per_point)) < 0.5, (action, played)
    finally:
        context.close()
