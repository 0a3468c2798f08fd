"""`guandan play` offers the engine's review (复盘) of the last deal: plain mode prints it on `review`,
the full-screen client opens it from the end-of-deal box with `r`."""

from __future__ import annotations

import io
import re

from textual.widgets import Footer

import async_support
from guandan.agents import make_agent
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.core.vocab import Phase
from guandan.i18n import translator
from guandan.tui.app import GuandanApp, SummaryScreen
from guandan.tui.plain import run_plain
from guandan.tui.review import ReviewScreen, ReviewText, progress_line, review_last_deal
from guandan.tui.session import Session

from .conftest import finish_first_deal, finished_review

INTRO = "Engine review (复盘): each decision against the best move the engine found, in level points"
TINY = 0.02  # a few worlds a decision: the words, not the quality, are under test here
LEAKS = re.compile(r"None|True|False|\{|\}|\bT\b|jkr|_|Action")


class Script(io.StringIO):
    """Input that asks for the review before any deal ended, right after the first one, and at the end."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.s = session
        self.asked_early = False
        self.reviewed = False
        self.queue: list[str] = []

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.s.ended:
            return "r\n"  # the last offer, once the match is over
        if not self.asked_early:
            self.asked_early = True
            return "review\n"
        if self.s.match.deals and not self.reviewed:
            self.reviewed = True
            return "review\n"
        if not self.queue:
            self.queue = ["hint\n", "1\n"]
        return self.queue.pop(0)


def test_plain_mode_offers_and_prints_the_review_of_the_last_deal() -> None:
    s = Session.new(preset("competition"), 11, "greedy", "greedy", MatchConfig(max_deals=2))
    out = io.StringIO()
    assert run_plain(s, "en", Script(s), out, review_budget=TINY) == 0
    lines = out.getvalue().splitlines()
    assert s.ended and len(s.match.deals) == 2
    assert "! No deal has finished yet: the review comes after the first deal" in lines
    offers = [i for i, line in enumerate(lines)
              if line == "Type review (r) at your next turn for the engine's review of this deal (复盘)"]
    assert len(offers) == 1  # after deal 1; the last deal is offered once the match is over
    assert "Reviewing deal 1… (about a minute)" in lines and "Reviewing deal 2… (about a minute)" in lines
    first = lines.index("Reviewing deal 1… (about a minute)")
    assert first > offers[0] and lines[first + 1] == INTRO
    assert lines[first + 2].startswith("Review of deal 1: You: accuracy ")
    assert "> The match is over: review (r) for the engine's review of the last deal, or quit" in lines
    review = [line for line in lines if line.startswith(("Review of deal", "    "))]
    assert review and not [line for line in review if LEAKS.search(line)]


def test_the_review_speaks_chinese_from_the_human_seat() -> None:
    s = Session.new(preset("competition"), 12, "greedy", "greedy", MatchConfig(max_deals=2))
    finish_first_deal(s)
    lines = review_last_deal(s, "zh", TINY)
    assert lines[1].startswith("第1副复盘：你：准确度 ")


def test_the_review_stars_the_wildcards_as_the_table_does() -> None:
    """Each decision is told with its deal's level (guandan.review.words): a wildcard played is starred, in the
    place its combination reads it. With seed 14 the player's tube of deal 1 holds ♥2, the wildcard of level 2."""
    s = Session.new(preset("competition"), 14, "greedy", "heuristic", MatchConfig(max_deals=2))
    finish_first_deal(s)
    lines = review_last_deal(s, "en", TINY)
    assert any(": You: tube 4–6: ♠4 ♥4 ♥5 ♥5 ♥6 ♥2* · " in line for line in lines), lines


async def _open_review(app: GuandanApp) -> list[str]:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.paused = True  # as after a deal: the bots wait while the box is open
        app.push_screen(SummaryScreen("Deal 1 is over", ["Result"], app))
        await pilot.pause()
        await pilot.press("r")
        screen = await finished_review(app, pilot)
        lines = screen.lines
        # the key bar on the screen's last line is the review's own (the summary's offered r and q there)
        bar = screen.query(Footer)
        assert bar and bar.first().region.y == 23 and bar.first().region.height == 1
        assert [b.binding.description for b in screen.active_bindings.values() if b.binding.show] == ["scroll", "continue"]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        return lines


def test_the_end_of_deal_box_opens_the_review_with_r() -> None:
    s = Session.new(preset("competition"), 13, "greedy", "greedy", MatchConfig(max_deals=2))
    finish_first_deal(s)
    app = GuandanApp(s, "en", bot_delay=0)
    app.review_budget = TINY
    lines = async_support.run(_open_review(app))
    assert lines[0] == INTRO
    assert lines[1].startswith("Review of deal 1: You: accuracy ")


def test_the_key_bar_names_the_keys_that_scroll_a_review_longer_than_its_box() -> None:
    """A deal's review is longer than the box at 80×24: the key bar names ↑/↓ (滚动) beside Enter, and ↓ scrolls."""
    s = Session.new(preset("competition"), 13, "greedy", "greedy", MatchConfig(max_deals=2))
    finish_first_deal(s)
    app = GuandanApp(s, "zh", bot_delay=0)
    app.review_budget = TINY

    async def scroll() -> tuple[list[tuple[str, str]], float, float]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            screen = await finished_review(app, pilot)
            await pilot.pause()
            shown = [(b.binding.key_display or b.binding.key, b.binding.description)
                     for b in screen.active_bindings.values() if b.binding.show]
            box = screen.query_one(ReviewText)
            assert box.max_scroll_y > 0  # the review does not fit: there is something to scroll
            before = box.scroll_y
            await pilot.press("down", "down", "down")
            await pilot.pause(0.3)
            return shown, before, box.scroll_y

    shown, before, after = async_support.run(scroll())
    assert shown == [("↑/↓", "滚动"), ("enter", "继续")]
    assert after > before


def test_plain_tribute_and_return_prompts_name_the_review_they_can_be_answered_with() -> None:
    """The deal's end says "type review (r) at your next turn"; when the next deal opens with a tribute that turn
    is the tribute's (or the return's), so its prompt names the review among the other commands, and review works."""
    prompts = {}
    for seed, lang in ((1, "en"), (2, "zh")):  # deal 2 opens with the human paying tribute (1) and returning a card (2)
        s = Session.new(preset("competition"), seed, "greedy", "greedy", MatchConfig(max_deals=2))
        finish_first_deal(s, make_agent("greedy", "human"))  # greedy: a human who loses deal 1 with seed 1
        s.run_bots()
        out = io.StringIO()
        assert run_plain(s, lang, io.StringIO("review\nquit\n"), out, review_budget=TINY) == 0
        lines = out.getvalue().splitlines()
        asked = [line for line in lines if line.startswith("> ")]
        assert len(asked) == 2 and asked[0] == asked[1]  # the same prompt before and after the review
        prompts[lang] = asked[0]
        assert any(line.startswith(("Review of deal 1: You: accuracy ", "第1副复盘：你：准确度 ")) for line in lines)
        assert s.observation().deal.phase in (Phase.TRIBUTE, Phase.RETURN)  # nothing was given meanwhile
    assert prompts["en"].startswith("> Tribute: give ")
    assert prompts["en"].endswith(" (or hint, groups, table, counter, review, quit)")
    assert prompts["zh"].startswith("> 还贡：给出 ")
    assert prompts["zh"].endswith("（或输入 hint 提示、groups 理牌、table 牌桌、counter 记牌器、review 复盘、quit 退出）")


async def _review_from_the_table(app: GuandanApp) -> tuple[str, bool, list[str], bool]:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        if not isinstance(app.screen, ReviewScreen):  # no deal has finished: the status line says so
            return app.message, False, [], app.paused
        screen = app.screen
        waiting = app.paused  # the bots wait while the review reads the record
        for _ in range(400):
            await pilot.pause(0.05)
            if screen.done:
                break
        await pilot.press("enter")
        await pilot.pause()
        return app.message, waiting, screen.lines, app.paused or isinstance(app.screen, ReviewScreen)


def test_r_on_the_table_opens_the_review_once_the_end_of_deal_box_is_closed() -> None:
    """The box offered the review with r; once it was closed the review was gone until the next deal's end (plain
    mode offers it at every turn): r on the table opens it, and says why not before the first deal has ended."""
    fresh = Session.new(preset("competition"), 13, "greedy", "greedy", MatchConfig(max_deals=2))
    message, _waiting, lines, _open = async_support.run(_review_from_the_table(GuandanApp(fresh, "en", bot_delay=0)))
    assert message == "No deal has finished yet: the review comes after the first deal" and not lines
    s = Session.new(preset("competition"), 13, "greedy", "greedy", MatchConfig(max_deals=2))
    finish_first_deal(s)
    app = GuandanApp(s, "en", bot_delay=0)
    app.review_budget = TINY
    _message, waiting, lines, still_open = async_support.run(_review_from_the_table(app))
    assert waiting and not still_open
    assert lines[1].startswith("Review of deal 1: You: accuracy ")


def test_the_end_of_the_match_names_r_for_the_review() -> None:
    s = Session.new(preset("competition"), 13, "greedy", "greedy", MatchConfig(max_deals=1))
    finish_first_deal(s)
    assert s.ended
    app = GuandanApp(s, "zh", bot_delay=0)

    async def status() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return app.message

    assert async_support.run(status()) == "比赛结束。按 r 查看最后一副的引擎复盘，按 q 退出。"


def test_the_reviews_progress_counts_one_decision_as_one() -> None:
    en, zh = translator("tui", "en"), translator("tui", "zh")
    assert progress_line(en, 0, 1) == "Reviewing the deal… 0 of 1 decision"
    assert progress_line(en, 3, 12) == "Reviewing the deal… 3 of 12 decisions"
    assert progress_line(zh, 0, 1) == "正在复盘……0/1手"
