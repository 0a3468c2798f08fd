"""A level pair joined by no-break spaces ("10 : 2"), a figure and its error, a name such as Previous opponent
are never parted by the full-screen client's line wrapping, in the log (Rich) or in a box or the status line
(Textual), at 80×24; the review box hangs a wrapped line's later rows under its text."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.geometry import Region

import async_support
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.present import Presenter
from guandan.tui.app import GameLog, GuandanApp, SummaryScreen
from guandan.tui.nobreak import keep_no_break_spaces
from guandan.tui.session import Session

from .conftest import finish_first_deal, finished_review

PAIR = "10\u00a0:\u00a02"  # a pair of figures joined by no-break spaces, as a translation may join them
# the pair after every length of words before it, so that some line must wrap right where it stands
LINES = [" ".join(["ab"] * n) + " levels now " + PAIR for n in range(8, 40)]
PARTED = re.compile(r"10$|^\s*:|^\s*2\b")  # a line ending in the pair's first level, or starting with its rest


def parted(rows: list[str]) -> list[str]:
    return [row for row in rows if PARTED.search(row.rstrip())]


def rich_rows(lines: Sequence[str], width: int) -> list[str]:
    """``lines`` as Rich prints them (the log) on a console ``width`` columns wide."""
    console = Console(width=width, record=True, color_system=None)
    for line in lines:
        console.print(Text(line))
    return console.export_text().splitlines()


def textual_rows(lines: Sequence[str], width: int) -> list[str]:
    """``lines`` as Textual wraps its own content (plain strings, markup: a box, the status line) ``width`` columns
    wide."""
    from textual._wrap import compute_wrap_offsets

    rows = []
    for line in lines:
        start = 0
        for end in [*compute_wrap_offsets(line, width, 8), len(line)]:
            rows.append(line[start:end])
            start = end
    return rows


def test_rich_wraps_a_level_pair_as_one_word() -> None:
    keep_no_break_spaces()
    assert not parted(rich_rows(LINES, 30))


def test_textual_wraps_a_level_pair_as_one_word() -> None:
    """Textual wraps its own content (plain strings, markup) with a pattern of its own."""
    keep_no_break_spaces()
    for line in LINES:
        rows = textual_rows([line], 30)
        assert not parted(rows), rows


async def _screen_rows() -> tuple[list[str], list[str]]:
    app = GuandanApp(Session.new(preset("competition"), 7, "greedy", "greedy", MatchConfig(max_deals=1)),
                     "en", bot_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(GameLog)
        for line in LINES:
            log.add(line)
        await pilot.pause()
        logged = [strip.text for strip in log.lines]
        width = 66  # the box's inner width at 80 columns: 90% of the screen, less its border and padding
        # lines whose pair's first level ends each at the box's edge or just inside it
        lines = ["x" * (width - k) + " levels " + PAIR for k in range(8, 14)]
        app.push_screen(SummaryScreen("Deal 1 is over", lines, app))
        await pilot.pause()
        box = app.screen.query_one("#summary")
        assert box.content_size.width == width
        region = Region(0, 0, box.outer_size.width, box.outer_size.height)
        boxed = [strip.text.strip("│║ ") for strip in box.render_lines(region)]
    return logged, boxed


def test_the_log_and_the_summary_box_keep_a_level_pair_on_one_line() -> None:
    logged, boxed = async_support.run(_screen_rows())
    assert any(PAIR in row for row in logged) and any(PAIR in row for row in boxed)
    assert not parted(logged)
    assert not parted(boxed)


ZH = Presenter("zh", viewer=0)
ORDER = "出完顺序：" + ZH.order([0, 3, 2, 1])
SEATS = ("你", "上家", "对家", "下家")
PLACES = ("头游", "二游", "三游", "末游")
SAID = "! 上家（机器人，级别 raiser）出错了，这一步由后备规则代打（第一个合法的出法），之后再出错也这样处理"


def _placed_apart(rows: list[str]) -> list[str]:
    """Rows that end in a place or begin with a seat: a place parted from its seat."""
    return [row for row in rows if row.rstrip().endswith(PLACES) or row.strip().startswith(SEATS[1:])]


def test_chinese_lines_break_after_a_phrase_mark_not_between_a_place_and_its_seat() -> None:
    """Rich and Textual break only at spaces: the finishing order broke between 末游 and 下家 in the log at 80×24;
    with the place and seat joined, they would fold it inside a seat instead. A phrase mark is where it breaks."""
    keep_no_break_spaces()
    assert ORDER == "出完顺序：头游\u00a0你，二游\u00a0上家，三游\u00a0对家，末游\u00a0下家"
    for width in range(12, 48):
        lines = (ORDER, SAID) if width >= 22 else (ORDER,)  # widths where every phrase fits a row
        for rows in (rich_rows(lines, width), textual_rows(lines, width)):
            assert not _placed_apart(rows), (width, rows)
            assert not [row for row in rows if row.strip() and row.strip()[0] in "，。、：）"], (width, rows)
            assert "".join(row.strip() for row in rows).replace(" ", "") == "".join(lines).replace(" ", "")
    # at the log's width at 80 columns the order breaks after a comma, both halves whole
    assert rich_rows([ORDER], 46) == ["出完顺序：头游\u00a0你，二游\u00a0上家，三游\u00a0对家，", "末游\u00a0下家"]


ZH_REVIEW = "    +1.78 · 第1副第10手：你：不要 · 好：与找到的最佳着法相差不显著（0.12 ± 0.07级） · 更好：对子 2：♠2 ♦2"
ZH_PROMPT = "轮到你：输入牌、pass 不要、hint 提示、groups 理牌、table 牌桌、counter 记牌器、quit 退出"
EN_REVIEW = "    +2.07 · Deal 10, move 34: You: pass · good: not clearly worse than the best found (0.01 ± 0.05 level points)"
TOGETHER = ["0.12 ± 0.07级", "对子 2", "pass 不要", "counter 记牌器", "quit 退出", "Deal 10", "0.01 ± 0.05 level points"]


def test_rich_and_textual_keep_what_the_plain_mode_keeps_together() -> None:
    """The review's figures (0.12 ± 0.07) and a command beside its Chinese word are one thing in the full-screen
    client's boxes too: the spaces the plain mode's breaker keeps are no place to break there either."""
    keep_no_break_spaces()
    lines = (ZH_REVIEW, ZH_PROMPT, EN_REVIEW)
    for width in range(30, 80):
        for rows in (rich_rows(lines, width), textual_rows(lines, width)):
            for thing in TOGETHER:
                assert any(thing in row for row in rows), (width, thing, rows)
            assert not [row for row in rows if row.strip().startswith(("·", "±"))], (width, rows)
            assert not [row for row in rows if row.rstrip().endswith("±")], (width, rows)


EN = Presenter("en", viewer=0)
NAMES = EN.whole_names()  # Big Joker, full house, Previous opponent, Your team…


def _names_parted(rows: list[str]) -> list[tuple[str, str]]:
    """Consecutive rows that part a name at one of its spaces: the first ends with its start, the next begins
    with the rest."""
    parted = []
    for row, following in itertools.pairwise(rows):
        for name in NAMES:
            for i, ch in enumerate(name):
                if ch == " " and row.rstrip().endswith(name[:i]) and following.lstrip().startswith(name[i + 1:]):
                    parted.append((row, following))
    return parted


async def _name_rows() -> tuple[list[str], list[list[str]]]:
    app = GuandanApp(Session.new(preset("competition"), 7, "greedy", "greedy", MatchConfig(max_deals=1)),
                     "en", bot_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(GameLog)
        message = app.query_one("#message")
        said: list[list[str]] = []
        for k in range(10, 78):  # every name across the edge of the log (46 columns) and of the status line (78)
            line = "x" * k + " Previous opponent's full house 9 and Big Joker, Your team, Next opponent"
            log.add(line)
            app.say(line)
            await pilot.pause()
            region = Region(0, 0, message.outer_size.width, message.outer_size.height)
            said.append([strip.text for strip in message.render_lines(region)])
        await pilot.pause()
        logged = [strip.text for strip in log.lines]
    return logged, said


def test_the_log_and_the_status_line_keep_the_presenters_names_whole() -> None:
    """Rich (the log) and Textual (the status line) broke Previous opponent, full house and Big Joker at their
    space in the full-screen client; they keep the presenter's whole names as the plain mode does."""
    logged, said = async_support.run(_name_rows())
    assert sum("Previous opponent's" in row for row in logged) == 68
    assert not _names_parted(logged)
    for rows in said:
        assert len(rows) == 2 and not _names_parted(rows), rows


async def _review_rows(lang: str) -> tuple[list[str], list[str], int]:
    s = Session.new(preset("competition"), 13, "greedy", "greedy", MatchConfig(max_deals=2))
    finish_first_deal(s)
    app = GuandanApp(s, lang, bot_delay=3600)
    app.review_budget = 0.02  # a few worlds a decision: the layout, not the quality, is under test
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_review()
        screen = await finished_review(app, pilot)
        await pilot.pause()
        box = screen.query_one("#review-text")
        region = Region(0, 0, box.outer_size.width, box.outer_size.height)
        rows = [strip.text.rstrip() for strip in box.render_lines(region)]
        return [*screen.lines, "", app.tr.gettext("Press Enter to continue")], rows, box.content_size.width


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrapped_review_line_hangs_under_its_first_row(lang: str) -> None:
    """In the review box each row after a line's first is indented deeper than the line, under the text after
    a numbered item's number: the rows of a decision read as one item, not as items of their own. Names stay
    whole and no row is wider than the box."""
    lines, rows, width = async_support.run(_review_rows(lang))
    assert all(cell_len(row) <= width for row in rows)
    assert not _names_parted(rows)
    wrapped = 0
    at = 0
    for line in lines:
        first = rows[at]
        assert line.startswith(first), (line, first)
        rest = line[len(first):].lstrip(" ")
        at += 1
        numbered = re.match(r"\s*\d+\.\s+", line)
        while rest:
            row = rows[at]
            wrapped += 1
            assert _indent(row) == (len(numbered.group(0)) if numbered else _indent(line) + 2), (line, row)
            assert rest.startswith(row.strip()), (rest, row)
            rest = rest[len(row.strip()):].lstrip(" ")
            at += 1
    assert at == len(rows)
    assert wrapped >= 3  # the review has lines wider than the box at 80 columns


ZH_RUN = "上家出了三带二然后对家出了大王接着下家出了小王于是第12副剩下27张牌末游要进贡给头游"
ZH_NAMES = ["大王", "小王", "三带二", "上家", "下家", "对家", "末游", "头游"]  # the presenter's, among others


def _cut_inside(rows: list[str]) -> list[tuple[str, str]]:
    """Consecutive rows parting a Chinese name (大王, 三带二, 上家) or a number and its measure word (27张, 第12副)."""
    cut = []
    for row, following in itertools.pairwise(rows):
        row, following = row.rstrip(), following.lstrip()
        for name in [*ZH_NAMES, "第12副", "27张"]:
            if any(row.endswith(name[:i]) and following.startswith(name[i:]) for i in range(1, len(name))):
                cut.append((row, following))
    return cut


async def _log_and_status_rows(lang: str, lines: list[str]) -> tuple[list[list[str]], list[list[str]]]:
    """Each line as the log (46 columns at 80×24) and the status line (78) draw it."""
    app = GuandanApp(Session.new(preset("competition"), 7, "greedy", "greedy", MatchConfig(max_deals=1)),
                     lang, bot_delay=3600)
    logged, said = [], []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(GameLog)
        message = app.query_one("#message")
        for line in lines:
            log.clear()
            log.add(line)
            app.say(line)
            await pilot.pause()
            logged.append([strip.text.rstrip() for strip in log.lines])
            region = Region(0, 0, message.outer_size.width, message.outer_size.height)
            said.append([strip.text.rstrip() for strip in message.render_lines(region)])
    return logged, said


def test_the_log_and_the_status_line_cut_a_run_of_chinese_outside_names_and_counts() -> None:
    """Rich and Textual fold a run of Chinese at the last column, inside 大王 or 27张; the log and the status line
    break it as the plain mode does, between other characters."""
    lines = ["x" * k + ZH_RUN * 2 for k in range(0, 12)]
    logged, said = async_support.run(_log_and_status_rows("zh", lines))
    for line, log_rows, status_rows in zip(lines, logged, said, strict=True):
        for rows in (log_rows, status_rows):
            assert "".join(row.strip() for row in rows).startswith(line[:60]), rows
            assert not _cut_inside(rows), rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrapped_log_entry_hangs_under_its_first_row(lang: str) -> None:
    """The rows after a log entry's first are indented two columns, so that an entry of two rows does not read as
    two entries; a wider window wraps it again the same way."""
    p = Presenter(lang, viewer=0)
    entry = {"en": "Finishing order: 1st You, 2nd Previous opponent, 3rd Partner, last Next opponent; Your team "
                   "goes up 2 levels",
             "zh": "出完顺序：" + p.order([0, 3, 2, 1]) + "，我方升2级 · 现在级数：4:2，下一副由对方进贡"}[lang]
    logged, _said = async_support.run(_log_and_status_rows(lang, [entry, "short", entry]))
    rows = logged[2]
    assert len(rows) >= 2 and logged[1] == ["short"]
    assert entry.startswith(rows[0])
    assert all(row.startswith("  ") and not row.startswith("   ") for row in rows[1:]), rows
    assert re.sub(r"\s", "", "".join(rows)) == re.sub(r"\s", "", entry)


async def _waiting(lang: str) -> str:
    s = Session.new(preset("competition"), 5, "greedy", "greedy", MatchConfig(max_deals=2))
    finish_first_deal(s)  # the second deal opens with 对家 paying tribute
    app = GuandanApp(s, lang, bot_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        return app.message


@pytest.mark.parametrize(("lang", "said"), [("zh", "等待对家进贡…"), ("en", "Waiting for Partner to pay tribute…")])
def test_the_status_line_says_a_bot_is_awaited_for_its_tribute_not_its_play(lang: str, said: str) -> None:
    """While a bot pays tribute the status line said it was awaited to play (等待对家出牌…), which nobody does yet."""
    assert async_support.run(_waiting(lang)) == said
