"""`guandan play --plain` on a terminal breaks a line wider than the window between cards and words, never
inside a card (the terminal itself would fold ``♥10`` into ``♥1`` and ``0``), measuring Chinese characters as
two cells; written to a pipe, its lines stay whole."""

from __future__ import annotations

import fcntl
import io
import itertools
import os
import re
import struct
import sys
import termios
import unicodedata
from collections import Counter

import pytest
from rich.cells import cell_len
from rich.cells import cell_len as rich_cell_len

from guandan.cliutil import pad
from guandan.core.match import MatchConfig
from guandan.core.rules import preset
from guandan.linebreak import AMBIGUOUS_WIDE, NO_START, wrap
from guandan.linebreak import cell_len as linebreak_cells
from guandan.present import Presenter
from guandan.tui.cli import terminal_columns
from guandan.tui.plain import run_plain
from guandan.tui.session import Session

CARD = re.compile(r"[♠♥♣♦](?:10|[2-9JQKA])|[SHCD](?:10|[2-9JQKA])\*?|大王|小王|Big Joker|Small Joker")
HAND = "hand (27): S3 S4 H4 S6 C6 C6 D6 S7 C7 S8 S9 H9 C10 HJ DJ DJ SK SK CK HA HA CA DA S2 H2* H2* D2"
PLAY = "Previous opponent: straight flush 10: ♥10 ♥J ♥Q ♥K ♥A — the smallest play of this kind that beats the table"
COUNTER = "unseen cards: Big Joker×2  Small Joker×2  2×4  A×4  K×5  Q×7  J×5  10×7  9×6  8×7  7×6  6×4  5×8"
ZH_PROMPT = "> 轮到你：输入牌、pass 不要、hint 提示、groups 理牌、table 牌桌、counter 记牌器、quit 退出"
ZH_COUNTER = "未出现的牌：大王×1  小王×2  2×5  A×6  K×7  Q×7  J×5  10×4  9×6  8×6  7×8  6×3  5×5  4×4  3×7"
ZH_SAID = "! 上家（机器人，级别 raiser）出错了，这一步由后备规则代打（第一个合法的出法），之后再出错也这样处理"


def cards(rows: list[str]) -> Counter[str]:
    return Counter(c for row in rows for c in CARD.findall(row))


@pytest.mark.parametrize("line", [HAND, PLAY, COUNTER, ZH_PROMPT, ZH_COUNTER, ZH_SAID])
@pytest.mark.parametrize("width", [80, 61, 40, 33, 24])
def test_rows_fit_the_width_and_keep_every_card_whole(line: str, width: int) -> None:
    rows = wrap(line, width, ["Big Joker", "Small Joker"])
    assert len(rows) > 1  # each line is wider than each width
    assert all(cell_len(row) <= width for row in rows), rows
    assert cards(rows) == cards([line])  # a card parted across rows would no longer be read as one
    assert all(row.startswith("  ") and row.lstrip()[0] not in NO_START for row in rows[1:]), rows
    # nothing lost or added but the spaces at the breaks and the rows' indent
    assert "".join(row.strip() for row in rows).replace(" ", "") == line.replace(" ", "")


def test_the_rows_break_at_spaces_and_after_chinese_punctuation() -> None:
    assert wrap(HAND, 80) == [HAND[:HAND.index(" S2 ")], "  S2 H2* H2* D2"]
    assert wrap(ZH_PROMPT, 80) == ["> 轮到你：输入牌、pass 不要、hint 提示、groups 理牌、table 牌桌、",
                                   "  counter 记牌器、quit 退出"]
    # the comma stays with its phrase; the rows after the first start under the text after "! "
    assert wrap(ZH_SAID, 40) == ["! 上家（机器人，级别 raiser）出错了，", "  这一步由后备规则代打",
                                 "  （第一个合法的出法），", "  之后再出错也这样处理"]
    assert wrap("  1. " + PLAY, 60)[1].startswith("     ") and wrap(PLAY, 80)[1].startswith("  ")
    assert wrap(COUNTER, 30, ["Big Joker", "Small Joker"])[:2] == ["unseen cards: Big Joker×2",
                                                                "  Small Joker×2  2×4  A×4  K×5"]


def test_a_run_of_chinese_wider_than_a_row_breaks_between_characters() -> None:
    run = "这一步由后备规则代打" * 3
    assert wrap(run, 24) == ["这一步由后备规则代打这一", "  步由后备规则代打这一步", "  由后备规则代打"]
    assert wrap("对家：" + run, 24)[:2] == ["对家：这一步由后备规则代", "  打这一步由后备规则代打"]
    assert wrap("3 : 2 " * 20, 30)[0].endswith("2")  # no-break spaces (a level pair) are not places to break


ZH_REVIEW = "    +2.11 · 第1副第2手：你：不要 · 好：与找到的最佳着法相差不显著（0.04 ± 0.10级） · 更好：对子 2：♠2 ♦2"
EN_REVIEW = ("    +2.07 · Deal 1, move 34: You: bomb A ×4: ♥A ♥A ♣A ♦A · good: not clearly worse than the best found "
             "(0.01 ± 0.05 level points) · better: full house J: ♥J ♦J ♦J ♣6 ♣6")
EN_TABLE = "  Deal 10 · playing level 10 · Your team 10 : Opponents 2 · declarer Your team · 27 cards · to play"
# what a reader takes as one thing: a command and its Chinese word, a figure and its error, a word and its
# number, a number and its unit, a name with a space
WHOLE = {ZH_PROMPT: ["pass 不要", "hint 提示", "groups 理牌", "table 牌桌", "counter 记牌器", "quit 退出"],
         ZH_REVIEW: ["0.04 ± 0.10级", "对子 2"],
         EN_REVIEW: ["0.01 ± 0.05 level points", "bomb A ×4", "move 34", "full house J"],
         EN_TABLE: ["Deal 10", "level 10", "Your team 10", "27 cards", "Your team"]}


@pytest.mark.parametrize("line", list(WHOLE))
@pytest.mark.parametrize("wide", [False, True])
def test_no_row_ends_inside_what_reads_as_one_thing(line: str, wide: bool) -> None:
    names = [*Presenter("en", viewer=0).whole_names(), *Presenter("zh", viewer=0).whole_names()]
    for width in range(24, cell_len(line) + 1):
        rows = wrap(line, width, names, wide)
        assert all(cells(row, wide) <= width for row in rows), rows
        for thing in WHOLE[line]:
            if cells(" " * 10 + thing + " · ", wide) <= width:  # it fits a row with the indent and marks beside it
                assert any(thing in row for row in rows), (width, thing, rows)
        # a separator ends a row, never starts one; a row never ends with ± or inside a figure
        assert not any(row.lstrip().startswith(("·", "—", "±", ":")) for row in rows[1:]), rows
        assert not any(row.endswith(("±", "×")) or row != row.rstrip() for row in rows), rows


def test_a_glued_run_wider_than_a_row_is_parted_at_its_spaces_not_inside_a_word() -> None:
    # "(0.01 ± 0.05 level points) ·" is wider than a row of 24 under its indent: parted, but at a space, the
    # figure with its error and the separator with the word before it
    assert wrap(EN_REVIEW, 24, ["full house"])[5:8] == ["      the best found", "      (0.01 ± 0.05 level",
                                                        "      points) · better:"]


def cells(text: str, wide: bool) -> int:
    """Columns in a terminal that draws East Asian ambiguous symbols (♠ · × — ±) wide when ``wide``."""
    return sum(2 if unicodedata.east_asian_width(c) in ("WFA" if wide else "WF") else 1 for c in text)


SUITED = " ".join(f"{s}{r}" for s in "♠♥♣♦" for r in ("10", "J", "Q", "K", "A", "2", "3"))  # 28 cards, 87 columns


def test_ambiguous_symbols_take_one_column_unless_the_terminal_says_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(AMBIGUOUS_WIDE, raising=False)
    assert linebreak_cells("♠10 · ×4 — ±") == rich_cell_len("♠10 · ×4 — ±") == 12  # as wcwidth and Rich count them
    assert linebreak_cells("♠10 · ×4 — ±", wide_ambiguous=True) == 17
    assert linebreak_cells("大王×2") == 6 and linebreak_cells("大王×2", wide_ambiguous=True) == 7
    narrow = wrap(SUITED, 80)
    assert [cell_len(row) for row in narrow] == [78, 10]
    monkeypatch.setenv(AMBIGUOUS_WIDE, "1")
    wide = wrap(SUITED, 80)
    assert wide == wrap(SUITED, 80, wide_ambiguous=True) != narrow
    assert all(cells(row, True) <= 80 for row in wide) and cells(wide[0], True) > 80 - 5
    assert cards(wide) == cards([SUITED])
    for off in ("0", "", "no"):
        monkeypatch.setenv(AMBIGUOUS_WIDE, off)
        assert wrap(SUITED, 80) == narrow


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_whole_deal_in_a_terminal_that_draws_ambiguous_symbols_wide(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(AMBIGUOUS_WIDE, raising=False)
    narrow = _play(lang, 80)
    assert max(cells(row, True) for row in narrow) > 80  # each symbol counted one column: too wide for such a terminal
    monkeypatch.setenv(AMBIGUOUS_WIDE, "1")
    rows = _play(lang, 80)
    assert all(cells(row, True) <= 80 for row in rows)
    assert cards(rows) == cards(narrow)


def test_a_line_that_fits_or_no_width_leaves_the_line_as_it_is() -> None:
    assert wrap(HAND, None) == [HAND]
    assert wrap(ZH_PROMPT, cell_len(ZH_PROMPT)) == [ZH_PROMPT]


def _play(lang: str, columns: int | None) -> list[str]:
    s = Session.new(preset("competition"), 5, "greedy", "greedy", MatchConfig(max_deals=1))
    out = io.StringIO()
    assert run_plain(s, lang, io.StringIO("counter\ntable\ngroups\nhint\n1\n" * 400), out, columns=lambda: columns) == 0
    assert s.ended
    return out.getvalue().splitlines()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_whole_deal_at_80_columns(lang: str) -> None:
    whole, rows = _play(lang, None), _play(lang, 80)
    assert max(cell_len(line) for line in whole) > 80  # there was something to break
    assert all(cell_len(row) <= 80 for row in rows)
    assert len(rows) > len(whole)
    assert cards(rows) == cards(whole)
    if lang == "en":  # every break is at a space: the same words in the same order
        assert " ".join(rows).split() == " ".join(whole).split()


def test_the_terminal_width_is_the_windows_and_a_pipe_has_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert terminal_columns() is None
    leader, follower = os.openpty()
    try:
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 57, 0, 0))
        with os.fdopen(os.dup(follower), "w") as tty:
            monkeypatch.setattr(sys, "stdout", tty)
            assert terminal_columns() == 57
            fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
            assert terminal_columns() == 100  # a resized window is measured again
    finally:
        os.close(leader)
        os.close(follower)


ZH_NAMES = ["大王", "小王", "三带二", "上家", "下家", "对家", "末游", "头游"]  # the presenter's, among others
ZH_RUN = "上家出了三带二然后对家出了大王接着下家出了小王于是第12副剩下27张牌末游要进贡给头游"


def cut_inside(rows: list[str], names: list[str]) -> list[tuple[str, str]]:
    """Consecutive rows that part a name, or a number and its measure word (27张, 第12副), between them."""
    counts = [m.group(0) for m in re.finditer(r"第?\d+[\u4e00-\u9fff]", "".join(r.strip() for r in rows))]
    cut = []
    for row, following in itertools.pairwise(rows):
        row, following = row.rstrip(), following.lstrip()
        for name in [*names, *counts]:
            if any(row.endswith(name[:i]) and following.startswith(name[i:]) for i in range(1, len(name))):
                cut.append((row, following))
    return cut


def test_a_run_of_chinese_wider_than_a_row_is_not_cut_inside_a_name_or_a_count() -> None:
    """Between Chinese characters a row may end anywhere, but not inside a card, a combination, a seat or a
    place (大王, 三带二, 上家, 头游), nor between a number and its measure word (27张, 第12副)."""
    for width in range(16, 60):
        for k in range(0, 12):
            line = "x" * k + ZH_RUN
            rows = wrap(line, width, Presenter("zh", viewer=0).whole_names())
            assert all(rich_cell_len(row) <= width for row in rows), (width, rows)
            assert "".join(row.strip() for row in rows) == line
            assert not cut_inside(rows, ZH_NAMES), (width, k, rows)
    assert cut_inside(["xx大", "  王"], ZH_NAMES) and cut_inside(["第12", "  副"], ZH_NAMES)  # the check sees a cut


def test_zero_width_characters_take_no_column() -> None:
    """A zero-width space, a combining accent or a variation selector in a name takes no cell, as Rich and the
    terminal draw it: padding and wrapping count it so, and a row never starts with a combining mark."""
    assert linebreak_cells("A\u200bB") == 2 and linebreak_cells("e\u0301") == 1 and linebreak_cells("大\u200b王") == 4
    assert linebreak_cells("\u263a\ufe0e") == 1 and linebreak_cells("\u200d\ufeff\u2060") == 0
    assert linebreak_cells("♠\u0301", wide_ambiguous=True) == 2  # the mark is not widened with its symbol
    for name in ("Zoë\u200b", "Jose\u0301", "李\u200c四", "Anna\ufe0f"):
        assert rich_cell_len(pad(name, 12)) == 12, name  # a column of names stays aligned
    run = "大\u0301王" * 20
    for width in range(10, 30):
        rows = wrap(run, width)
        assert all(rich_cell_len(row) <= width for row in rows)
        assert not [row for row in rows if unicodedata.combining(row.lstrip()[0])], rows
    assert wrap("x" * 30 + "\u200b", 30) == ["x" * 30 + "\u200b"]  # it fits: the space takes no column
