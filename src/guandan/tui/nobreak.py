"""How the full-screen client breaks its lines. Its lines are wrapped by Rich (the log) and by Textual (the
other panels), and both split a line at any Unicode whitespace, the no-break spaces included (Rich issue
#4196: their word patterns are ``\\s*\\S+\\s*`` and ``\\S+\\s*|\\s+``, and Python's ``\\s`` matches U+00A0). So a
place and its seat such as ``1st Partner`` (:meth:`guandan.present.Presenter.order`) could end one line and start
the next. :func:`keep_no_break_spaces` gives both the same patterns with the no-break spaces (U+00A0, U+2007,
U+202F) taken as part of a word, as Unicode line breaking (UAX #14, class GL) has them. Both also get to break
a run of Chinese after the marks that end a phrase (，、：…) and before an opening bracket, never before a
closing mark: they broke only at spaces, so a Chinese line, whose spaces stand between a place and its seat
(末游 下家), was parted there, or folded inside a word. And neither breaks at a space the plain mode's breaker
keeps (:data:`guandan.linebreak.GLUED`): inside a figure and its error (``0.12 ± 0.07``), between a word and
its number or a command and its Chinese word, nor inside a name given to :func:`keep_no_break_spaces`
(the presenter's :meth:`~guandan.present.Presenter.whole_names`: Big Joker, full house, Previous opponent).

Neither library indents the rows after a line's first, so a long item of a list seems to be several.
:class:`Hanging` is a block of lines broken as the plain mode breaks them (:func:`guandan.linebreak.wrap`),
the rows after the first indented, at whatever width it is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

from ..linebreak import BREAK_AFTER, GLUED, NO_BREAK, NO_START, OPENING, cell_len, wrap

_KEPT: set[str] = set()  # the names with spaces kept whole so far: the patterns serve every client in the process


def _name_glue(names: Iterable[str]) -> str:
    """A pattern for the spaces inside ``names``: each a space with the rest of its name before and after it."""
    spaces = []
    for name in sorted(set(names)):
        for i, ch in enumerate(name):
            if ch != " ":
                continue
            before, after = name[:i], name[i + 1:]
            start = r"\b" if re.match(r"\w", before) else ""  # a whole word, not the end of a longer one
            end = r"\b" if re.search(r"\w$", after) else ""
            spaces.append(f"(?<={start}{re.escape(before)}) (?={re.escape(after)}{end})")
    return "|".join(spaces)


def _patterns(names: Iterable[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Rich's word and Textual's chunk patterns, with the spaces inside ``names`` joining too."""
    glue = "|".join(p for p in (GLUED.pattern, _name_glue(names)) if p)
    glued = f"(?:{glue})"  # a space that joins what a reader takes as one thing (quit 退出, 0.12 ± 0.07, Big Joker)
    breaking = rf"(?:(?!{glued})[^\S{NO_BREAK}])"  # whitespace where a line may break
    word = rf"(?:[\S{NO_BREAK}]|{glued})"  # what a word is made of: anything else
    # a word ends where a space follows, just after a Chinese phrase mark that no closing mark (nor a glued space)
    # follows, or just before an opening mark that follows no other
    end = (rf"(?:(?<=[{re.escape(BREAK_AFTER)}])(?![{re.escape(NO_START)}]|{glued})|(?=[{re.escape(OPENING)}])"
           rf"(?<![{re.escape(OPENING)}])|(?!{word}))")
    return re.compile(rf"{breaking}*{word}+?{end}{breaking}*"), re.compile(rf"{word}+?{end}{breaking}*|{breaking}+")


RICH_WORD, TEXTUAL_CHUNK = _patterns(())


def keep_no_break_spaces(names: Iterable[str] = ()) -> None:
    """Make Rich's and Textual's line wrapping keep no-break spaces inside words, and never break inside one of
    ``names`` (nor inside a name given before: idempotent). A library version without the pattern this replaces
    is left as it is."""
    from rich import _wrap as rich_wrap
    from textual import _wrap as textual_wrap

    _KEPT.update(name for name in names if " " in name)
    rich_word, textual_chunk = _patterns(_KEPT) if _KEPT else (RICH_WORD, TEXTUAL_CHUNK)
    if isinstance(getattr(rich_wrap, "re_word", None), re.Pattern):
        rich_wrap.re_word = rich_word
    if isinstance(getattr(textual_wrap, "re_chunk", None), re.Pattern):
        textual_wrap.re_chunk = textual_chunk


class Hanging:
    """Lines drawn as the plain mode breaks them (:func:`guandan.linebreak.wrap`, ``keep`` names never parted)
    at the width they are given, the rows after a line's first indented under its text: a numbered item's under
    the text after its number, an indented line's two columns deeper. East Asian ambiguous symbols (♠ · ±) take
    one column, as Rich and Textual draw them."""

    def __init__(self, lines: Sequence[str], keep: Sequence[str] = ()) -> None:
        self.lines = list(lines)
        self.keep = list(keep)

    def rows(self, width: int) -> list[str]:
        return [row for line in self.lines for row in wrap(line, max(width, 1), self.keep, wide_ambiguous=False)]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield Text("\n".join(self.rows(options.max_width)), no_wrap=True, overflow="crop")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((cell_len(line) for line in self.lines), default=0)
        return Measurement(min(widest, 1), widest).clamp(max_width=options.max_width)


__all__ = ["Hanging", "keep_no_break_spaces"]
