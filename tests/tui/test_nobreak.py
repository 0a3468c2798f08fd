"""A level pair joined by no-break spaces ("10 : 2") is never parted by the client's line wrapping, in
the log (Rich) or in a box (Textual), at 80×24."""

from __future__ import annotations

import re

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

PAIR = Presenter("en").levels((8, 0))  # "10 : 2"
# the pair after every length of words before it, so that some line must wrap right where it stands
LINES = [" ".join(["ab"] * n) + " levels now " + PAIR for n in range(8, 40)]
PARTED = re.compile(r"10$|^\s*:|^\s*2\b")  # a line ending in the pair's first level, or starting with its rest


def parted(rows: list[str]) -> list[str]:
    return [row for row in rows if PARTED.search(row.rstrip())]


def test_rich_wraps_a_level_pair_as_one_word() -> None:
    keep_no_break_spaces()
    console = Console(width=30, record=True, color_system=None)
    for line in LINES:
        console.print(Text(line))
    assert not parted(console.export_text().splitlines())


def test_textual_wraps_a_level_pair_as_one_word() -> None:
    """Textual wraps its own content (plain strings, markup) with a pattern of its own."""
    from textual._wrap import compute_wrap_offsets

    keep_no_break_spaces()
    for line in LINES:
        rows, start = [], 0
        for end in [*compute_wrap_offsets(line, 30, 8), len(line)]:
            rows.append(line[start:end])
            start = end
        assert not parted(rows), rows


async def _screen_rows() -> tuple[list[str], list[str]]:
    app = GuandanApp(Session.new(preset("competition"), 7, "greedy", "greedy", MatchConfig(max_deals=1)),
                     "en", bot_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.query_one(GameLog)
        for line in LINES:
            log.add(Text(line))
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
    from textual._wrap import compute_wrap_offsets

    keep_no_break_spaces()
    assert ORDER == "出完顺序：头游\u00a0你，二游\u00a0上家，三游\u00a0对家，末游\u00a0下家"
    for width in range(12, 48):
        lines = (ORDER, SAID) if width >= 22 else (ORDER,)  # widths where every phrase fits a row
        console = Console(width=width, record=True, color_system=None)
        for line in lines:
            console.print(Text(line))
        rich_rows = console.export_text().splitlines()
        textual_rows = []
        for line in lines:
            start = 0
            for end in [*compute_wrap_offsets(line, width, 8), len(line)]:
                textual_rows.append(line[start:end])
                start = end
        for rows in (rich_rows, textual_rows):
            assert not _placed_apart(rows), (width, rows)
            assert not [row for row in rows if row.strip() and row.strip()[0] in "，。、：）"], (width, rows)
            assert "".join(row.strip() for row in rows).replace(" ", "") == "".join(lines).replace(" ", "")
    # at the log's width at 80 columns the order breaks after a comma, both halves whole
    console = Console(width=46, record=True, color_system=None)
    console.print(Text(ORDER))
    assert console.export_text().splitlines() == ["出完顺序：头游\u00a0你，二游\u00a0上家，三游\u00a0对家，", "末游\u00a0下家"]


ZH_REVIEW = "    +1.78 · 第1副第10手：你：不要 · 好：与找到的最佳着法相差不显著（0.12 ± 0.07级） · 更好：对子 2：♠2 ♦2"
ZH_PROMPT = "轮到你：输入牌、pass 不要、hint 提示、groups 理牌、table 牌桌、counter 记牌器、quit 退出"
EN_REVIEW = "    +2.07 · Deal 10, move 34: You: pass · good: not clearly worse than the best found (0.01 ± 0.05 level points)"
TOGETHER = ["0.12 ± 0.07级", "对子 2", "pass 不要", "counter 记牌器", "quit 退出", "Deal 10", "0.01 ± 0.05 level points"]


def test_rich_and_textual_keep_what_the_plain_mode_keeps_together() -> None:
    """The review's figures (0.12 ± 0.07) and a command beside its Chinese word are one thing in the full-screen
    client's boxes too: the spaces the plain mode's breaker keeps are no place to break there either."""
    from textual._wrap import compute_wrap_offsets

    keep_no_break_spaces()
    lines = (ZH_REVIEW, ZH_PROMPT, EN_REVIEW)
    for width in range(30, 80):
        console = Console(width=width, record=True, color_system=None)
        for line in lines:
            console.print(Text(line))
        rich_rows = console.export_text().splitlines()
        textual_rows = []
        for line in lines:
            start = 0
            for end in [*compute_wrap_offsets(line, width, 8), len(line)]:
                textual_rows.append(line[start:end])
                start = end
        for rows in (rich_rows, textual_rows):
            for thing in TOGETHER:
                assert any(thing in row for row in rows), (width, thing, rows)
            assert not [row for row in rows if row.strip().startswith(("·", "±"))], (width, rows)
            assert not [row for row in rows if row.rstrip().endswith("±")], (width, rows)
