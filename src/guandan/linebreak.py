"""Lines broken to fit a terminal as a person reads them: the terminal client's plain mode (``guandan play
--plain``), the environments' ``render()``, the desk's listings' widths.

A terminal folds a line that is too long at its last column, wherever that falls: inside a card (``♥1`` at
the end of one row, ``0`` at the start of the next), inside ``8×7`` of the card counter, or before a Chinese
comma. Rich's and Textual's wrapping, which the full-screen client uses, is no help here: it breaks only at
spaces and cuts a run of Chinese (which has none) at the column. :func:`wrap` breaks where a person would:

* at spaces, but not at the no-break spaces :data:`NO_BREAK` (which join a level pair such as ``10 : 2``)
  nor at a space that joins what a reader takes as one thing (:data:`GLUED`): a command and the Chinese word
  the prompt pairs with it (``quit 退出``), a figure and its error (``0.23 ± 0.14``), a word and its number
  (``level 10``, ``pair Q``, ``打 2``), a number and its unit (``27 cards``), Chinese words a space joins
  (``末游 下家``), a separator and the word before it (``27张 ·``); only a run of those wider than a whole row
  is parted at such a space;
* after Chinese punctuation that ends a phrase (，、：…) and before an opening bracket (（「…), never
  leaving a closing mark at the start of a row;
* between two Chinese characters only when a run without any of those is wider than a whole row, so that
  a card name (大王, 小王) or a seat (对家) is not parted whenever a phrase fits; and even then neither inside a
  name given to keep (大王, 上家, 头游, 三带二) nor between a number and its measure word (27张, 2级, 第1轮:
  :data:`JOINED`), nor before a zero-width character (a combining accent) that belongs to the one before;

measuring text in terminal cells (a Chinese character takes two), and indenting the rows after the first
so that they read as one line. A card (``♥10``, ``S10``, ``H2*``) has no space inside, so it is never parted.

The symbols Unicode calls East Asian ambiguous (♠ ♥ ♣ · × — ± …) take one column in the terminals as they
come: glibc's ``wcwidth`` (and so tmux), Rich and Textual, Windows Terminal, and GNOME Terminal, iTerm2 and
WezTerm by default. A terminal set to draw them wide (an option of iTerm2, GNOME Terminal and PuTTY, xterm's
``-cjk_width``, mintty's ``Charwidth=ambig-wide``) gives them two, and nothing in the environment says so but
:data:`AMBIGUOUS_WIDE`: ``GUANDAN_AMBIGUOUS_WIDE=1`` has the rows measured with those symbols two columns wide.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence

from rich.cells import cell_len as rich_cell_len
from rich.cells import get_character_cell_size

NO_BREAK = "\u00a0\u2007\u202f"
#: Marks no row may begin with (UAX #14's closing and non-starter classes among those the clients write).
NO_START = "，。、：；！？）」』】》〉〕］｝〗…,.:;!?)]}%"
#: Chinese marks after which a line may break; before the opening ones it may break too.
BREAK_AFTER = "，。、：；！？）」』】》〉〕］｝〗"
OPENING = "（「『【《〈〔［｛〖"

_CJK = "\u3400-\u9fff\uf900-\ufaff"  # Chinese characters (the unified ideographs, extension A, compatibility)
#: Where a space (one, between two words) joins what a reader takes as one thing, so that no row ends there.
GLUED = re.compile(
    rf"(?<=[{_CJK}]) (?=\w)|(?<=\w) (?=[{_CJK}])"  # Chinese beside a word: quit 退出, 级别 raiser, 打 2, 末游 下家
    r"|(?<=\S) (?=±)|(?<=±) (?=\S)|(?<=\S) (?=×\d)"  # a figure and its error, a bomb's size: 0.23 ± 0.14, A ×4
    r"|(?<=\S) (?=[·—→:] )"  # a separator ends its row, never starts one: 27张 · 该出牌, ♠8 — 领出, 2 : 对方
    r"|(?<=[^\W\d_]) (?=[+−-]?\d)"  # a word and its number: level 10, deal 1, accuracy 94.9, from +3
    r"|(?<=[^\W\d_]) (?=[JQKA]\b|[♠♥♣♦]\w+–)"  # a combo and its rank: pair Q, bomb A, 同花顺 ♠3–7
    # a number and its unit: 27 cards, 0.14 level points, 3 forced decisions
    r"|(?<=\d) (?=(?:cards?|deals?|decisions?|forced|levels?|worlds|times|s|ms|KB)\b)"
    r"|(?<=\blevel) (?=points?\b)|(?<=\bforced) (?=decisions?\b)"
)
#: Where a run of Chinese wider than a row is not cut: between a number and its measure word (27张, 升2级, 第1副).
JOINED = re.compile(rf"(?<=\d)(?=[{_CJK}])|(?<=第)(?=\d)")
#: The environment variable that says the terminal draws East Asian ambiguous symbols two columns wide.
AMBIGUOUS_WIDE = "GUANDAN_AMBIGUOUS_WIDE"

_GLUE = "\ue000"  # stands for a space inside a kept name while the line is broken (a private-use character, one cell)
_JOIN = "\ue001"  # marks, while the line is broken, a place inside a kept name or a count a cut must not fall on
_LOOSE = re.compile(f"(?<!±){_GLUE}(?![·—→:±])")  # the glue given up in a piece wider than a row
_SPACES = re.compile(rf"([^\S{NO_BREAK}]+)")  # where a line may break, the spaces themselves dropped there
# a row's hanging indent: its own indent and a leading marker ("> " of the prompt, "! " of a complaint,
# "1. " of a numbered choice), so that the rows after the first start under its text
_LEAD = re.compile(r"^(\s*)((?:[>!]|\d+\.)\s+)?")


def ambiguous_wide() -> bool:
    """Whether the environment says the terminal draws East Asian ambiguous symbols (♠ · × — ±) two columns
    wide: :data:`AMBIGUOUS_WIDE` set to ``1`` (or ``true``, ``yes``, ``on``)."""
    return os.environ.get(AMBIGUOUS_WIDE, "").strip().lower() in ("1", "true", "yes", "on")


def cell_len(text: str, wide_ambiguous: bool = False) -> int:
    """Columns ``text`` takes in a terminal, as Rich (and so Textual) counts them, which is ``wcwidth``'s count:
    a wide or full-width (CJK) character takes two, a zero-width one none (U+200B, a joiner, a combining accent,
    a variation selector: a name may hold them), an emoji sequence two; an East Asian ambiguous symbol
    (♠ ♥ ♣ · × — ± …) one, or two with ``wide_ambiguous``."""
    cells = rich_cell_len(text)
    if wide_ambiguous:
        cells += sum(1 for c in text if unicodedata.east_asian_width(c) == "A" and get_character_cell_size(c) == 1)
    return cells


def _measure(wide_ambiguous: bool) -> Callable[[str], int]:
    # the glue stands for a space: one column, though a private-use character is ambiguous to Unicode; the join
    # stands for nothing
    return lambda text: cell_len(text.replace(_GLUE, " ").replace(_JOIN, ""), wide_ambiguous)


def _chinese(ch: str) -> bool:
    """A character a run of Chinese may be broken beside (a wide one: an ambiguous symbol is no such place)."""
    return cell_len(ch) == 2


def _phrases(word: str) -> list[str]:
    """A word without spaces cut where Chinese punctuation allows a break (the pieces joined give it back)."""
    pieces: list[str] = []
    start = 0
    for i in range(1, len(word)):
        before, after = word[i - 1], word[i]
        if after in NO_START or before in OPENING or _GLUE in (before, after):
            continue
        if before in BREAK_AFTER or after in OPENING:
            pieces.append(word[start:i])
            start = i
    pieces.append(word[start:])
    return pieces


def _cut(piece: str, room: int, row: int, measure: Callable[[str], int]) -> list[str]:
    """A piece wider than a whole row, in parts: the first fits ``room`` cells, the others ``row``. It breaks
    between Chinese characters where it can (never before a closing mark or after an opening one, nor before a
    zero-width character), not inside a kept name or a count where another such place is found, else at the
    row's edge."""
    parts: list[str] = []
    rest = piece
    while measure(rest) > room:
        fit, width = 0, 0  # how many characters fit in the room
        for ch in rest:
            width += measure(ch)
            if width > room:
                break
            fit += 1

        def beside_chinese(i: int, text: str = rest) -> bool:
            return (text[i] not in NO_START and text[i - 1] not in OPENING and _GLUE not in text[i - 1:i + 1]
                    and measure(text[i]) > 0 and (_chinese(text[i - 1]) or _chinese(text[i])))

        # the last place within the room beside a Chinese character, outside a kept name or count if there is one
        places = [i for i in range(fit, 0, -1) if beside_chinese(i)]
        cut = next((i for i in places if _JOIN not in rest[i - 1:i + 1]), 0) or next(iter(places), 0)
        if cut == 0:  # no such place: fold at the edge, at least one character a row
            cut = max(fit, 1)
        parts.append(rest[:cut])
        rest = rest[cut:]
        room = row
    parts.append(rest)
    return parts


def wrap(line: str, width: int | None, keep: Sequence[str] = (), wide_ambiguous: bool | None = None) -> list[str]:
    """``line`` as rows of at most ``width`` terminal cells (``[line]`` when it fits or ``width`` is None).
    ``keep``: names that are one thing to a reader (``Big Joker``, ``大王``, ``上家``), never parted at their spaces
    nor, in a run of Chinese wider than a row, between their characters.
    ``wide_ambiguous``: whether the terminal draws East Asian ambiguous symbols two columns wide (None: as
    :func:`ambiguous_wide` reads the environment)."""
    measure = _measure(ambiguous_wide() if wide_ambiguous is None else wide_ambiguous)
    if width is None or measure(line) <= width:
        return [line]
    glued = line
    for name in sorted(keep, key=len, reverse=True):  # the longest first: 三带二 is not taken for 三带 and 二
        # only a Chinese name can be cut between its characters: a Latin word is folded only at the row's edge
        joint = _JOIN if any(_chinese(ch) for ch in name) else ""
        glued = glued.replace(name, joint.join(name.replace(" ", _GLUE)))
    glued = JOINED.sub(_JOIN, GLUED.sub(_GLUE, glued))
    return [row.replace(_GLUE, " ").replace(_JOIN, "") for row in _rows(glued, width, measure)]


def _pieces(body: str, row: int, measure: Callable[[str], int]) -> Iterator[tuple[str, str]]:
    """The pieces of ``body`` a row may end after, each with the spaces before it (empty after a Chinese mark).
    A glued piece wider than a whole ``row`` comes in its words, a separator still with the word before it and
    ± with the figures beside it: better parted at its spaces than cut inside a word at the row's edge."""
    chunks = _SPACES.split(body)  # words at even places, the spaces between them at odd ones
    for n in range(0, len(chunks), 2):
        space = chunks[n - 1] if n else ""
        for k, piece in enumerate(_phrases(chunks[n])):
            if not piece:
                continue
            joint = space if k == 0 else ""
            if _GLUE not in piece or measure(piece) <= row:
                yield joint, piece
                continue
            for j, word in enumerate(_LOOSE.split(piece)):
                yield (joint if j == 0 else " "), word


def _rows(line: str, width: int, measure: Callable[[str], int]) -> list[str]:
    lead = _LEAD.match(line)
    assert lead is not None  # the pattern matches every string
    hang = " " * measure(lead.group(0)) if lead.group(2) else lead.group(1) + "  "
    if measure(hang) > width // 2:  # a deep indent in a narrow window would leave no room for the text
        hang = "  "
    head, body = lead.group(1), line[len(lead.group(1)):]
    rows: list[str] = []
    row = head
    fresh = True  # nothing but the indent on the row yet
    for joint, piece in _pieces(body, width - measure(hang), measure):
        if fresh:
            joint = ""
        if measure(row + joint + piece) <= width:
            row += joint + piece
            fresh = False
            continue
        if not fresh and measure(hang + piece) <= width:  # it fits a row of its own: the next one
            rows.append(row.rstrip())
            row, fresh = hang + piece, False
            continue
        # wider than a whole row: begin it here when some of it fits, and go on in the next rows
        room = width - measure(row + joint)
        if room < 2 and not fresh:
            rows.append(row.rstrip())
            row, joint = hang, ""
            room = width - measure(row)
        parts = _cut(piece, room, width - measure(hang), measure)
        rows.append(row + joint + parts[0])
        rows.extend(hang + p for p in parts[1:-1])
        row, fresh = hang + parts[-1], False
    rows.append(row.rstrip())
    return rows


__all__ = ["AMBIGUOUS_WIDE", "BREAK_AFTER", "GLUED", "JOINED", "NO_BREAK", "NO_START", "OPENING", "ambiguous_wide", "cell_len",
           "wrap"]
