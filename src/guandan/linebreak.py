"""Lines broken to fit a terminal as a person reads them: the terminal client's plain mode (``guandan play
--plain``), the environments' ``render()``, the desk's listings' widths.

A terminal folds a line that is too long at its last column, wherever that falls: inside a card (``♥1`` at
the end of one row, ``0`` at the start of the next), inside ``8×7`` of the card counter, or before a Chinese
comma. Rich's and Textual's wrapping, which the full-screen client uses, is no help here: it breaks only at
spaces and cuts a run of Chinese (which has none) at the column. :func:`wrap` breaks where a person would:

* at spaces (not at the no-break spaces :data:`NO_BREAK`, which join a level pair such as ``10 : 2``);
* after Chinese punctuation that ends a phrase (，、：…) and before an opening bracket (（「…), never
  leaving a closing mark at the start of a row;
* between two Chinese characters only when a run without any of those is wider than a whole row, so that
  a card name (大王, 小王) or a seat (对家) is not parted whenever a phrase fits;

measuring text in terminal cells (a Chinese character takes two), and indenting the rows after the first
so that they read as one line. A card (``♥10``, ``S10``, ``H2*``) has no space inside, so it is never parted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

NO_BREAK = "\u00a0\u2007\u202f"
#: Marks no row may begin with (UAX #14's closing and non-starter classes among those the clients write).
NO_START = "，。、：；！？）」』】》〉〕］｝〗…,.:;!?)]}%"
#: Chinese marks after which a line may break; before the opening ones it may break too.
BREAK_AFTER = "，。、：；！？）」』】》〉〕］｝〗"
OPENING = "（「『【《〈〔［｛〖"

_GLUE = "\ue000"  # stands for a space inside a kept name while the line is broken (a private-use character, one cell)
_SPACES = re.compile(rf"([^\S{NO_BREAK}]+)")  # where a line may break, the spaces themselves dropped there
# a row's hanging indent: its own indent and a leading marker ("> " of the prompt, "! " of a complaint,
# "1. " of a numbered choice), so that the rows after the first start under its text
_LEAD = re.compile(r"^(\s*)((?:[>!]|\d+\.)\s+)?")


def cell_len(text: str) -> int:
    """Columns ``text`` takes in a terminal: a wide or full-width (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _wide(ch: str) -> bool:
    return cell_len(ch) == 2


def _phrases(word: str) -> list[str]:
    """A word without spaces cut where Chinese punctuation allows a break (the pieces joined give it back)."""
    pieces: list[str] = []
    start = 0
    for i in range(1, len(word)):
        before, after = word[i - 1], word[i]
        if after in NO_START or before in OPENING:
            continue
        if before in BREAK_AFTER or after in OPENING:
            pieces.append(word[start:i])
            start = i
    pieces.append(word[start:])
    return pieces


def _cut(piece: str, room: int, row: int) -> list[str]:
    """A piece wider than a whole row, in parts: the first fits ``room`` cells, the others ``row``. It breaks
    between Chinese characters where it can (never before a closing mark), else at the row's edge."""
    parts: list[str] = []
    rest = piece
    while cell_len(rest) > room:
        fit, width = 0, 0  # how many characters fit in the room
        for ch in rest:
            width += cell_len(ch)
            if width > room:
                break
            fit += 1
        # the last place within the room beside a Chinese character, not before a closing mark
        cut = next((i for i in range(fit, 0, -1) if rest[i] not in NO_START and (_wide(rest[i - 1]) or _wide(rest[i]))),
                   0)
        if cut == 0:  # no such place: fold at the edge, at least one character a row
            cut = max(fit, 1)
        parts.append(rest[:cut])
        rest = rest[cut:]
        room = row
    parts.append(rest)
    return parts


def wrap(line: str, width: int | None, keep: Sequence[str] = ()) -> list[str]:
    """``line`` as rows of at most ``width`` terminal cells (``[line]`` when it fits or ``width`` is None).
    ``keep``: names with spaces that are one thing to a reader (``Big Joker``), never parted at their spaces."""
    if width is None or cell_len(line) <= width:
        return [line]
    glued = line
    for name in keep:
        glued = glued.replace(name, name.replace(" ", _GLUE))
    return [row.replace(_GLUE, " ") for row in _rows(glued, width)]


def _rows(line: str, width: int) -> list[str]:
    lead = _LEAD.match(line)
    assert lead is not None  # the pattern matches every string
    hang = " " * cell_len(lead.group(0)) if lead.group(2) else lead.group(1) + "  "
    if cell_len(hang) > width // 2:  # a deep indent in a narrow window would leave no room for the text
        hang = "  "
    head, body = lead.group(1), line[len(lead.group(1)):]
    rows: list[str] = []
    row = head
    fresh = True  # nothing but the indent on the row yet
    chunks = _SPACES.split(body)  # words at even places, the spaces between them at odd ones
    for n, chunk in enumerate(chunks):
        if n % 2:
            continue
        space = chunks[n - 1] if n else ""
        for k, piece in enumerate(_phrases(chunk)):
            joint = space if k == 0 else ""
            if not piece:
                continue
            if fresh:
                joint = ""
            if cell_len(row + joint + piece) <= width:
                row += joint + piece
                fresh = False
                continue
            if not fresh and cell_len(hang + piece) <= width:  # it fits a row of its own: the next one
                rows.append(row.rstrip())
                row, fresh = hang + piece, False
                continue
            # wider than a whole row: begin it here when some of it fits, and go on in the next rows
            room = width - cell_len(row + joint)
            if room < 2 and not fresh:
                rows.append(row.rstrip())
                row, joint = hang, ""
                room = width - cell_len(row)
            parts = _cut(piece, room, width - cell_len(hang))
            rows.append(row + joint + parts[0])
            rows.extend(hang + p for p in parts[1:-1])
            row, fresh = hang + parts[-1], False
    rows.append(row.rstrip())
    return rows


__all__ = ["BREAK_AFTER", "NO_BREAK", "NO_START", "OPENING", "cell_len", "wrap"]
