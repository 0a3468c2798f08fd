"""No-break spaces that do not break: the terminal client's lines are wrapped by Rich (the log) and by
Textual (the other panels), and both split a line at any Unicode whitespace, the no-break spaces
included (Rich issue #4196: their word patterns are ``\\s*\\S+\\s*`` and ``\\S+\\s*|\\s+``, and Python's
``\\s`` matches U+00A0). So a level pair such as ``3 : 2`` (:meth:`guandan.present.Presenter.levels`)
could end one line and start the next. :func:`keep_no_break_spaces` gives both the same patterns with
the no-break spaces (U+00A0, U+2007, U+202F) taken as part of a word, as Unicode line breaking (UAX #14,
class GL) has them. Both also get to break a run of Chinese after the marks that end a phrase (，、：…)
and before an opening bracket, never before a closing mark: they broke only at spaces, so a Chinese line,
whose spaces stand between a place and its seat (末游 下家), was parted there, or folded inside a word. And
neither breaks at a space the plain mode's breaker keeps (:data:`guandan.linebreak.GLUED`): inside a figure
and its error (``0.12 ± 0.07``), between a word and its number or a command and its Chinese word.
"""

from __future__ import annotations

import re

from ..linebreak import BREAK_AFTER, GLUED, NO_BREAK, NO_START, OPENING

_GLUED = f"(?:{GLUED.pattern})"  # a space that joins what a reader takes as one thing (quit 退出, 0.12 ± 0.07)
_BREAKING = rf"(?:(?!{_GLUED})[^\S{NO_BREAK}])"  # whitespace where a line may break
_WORD = rf"(?:[\S{NO_BREAK}]|{_GLUED})"  # what a word is made of: anything else
# a word ends where a space follows, just after a Chinese phrase mark that no closing mark (nor a glued space)
# follows, or just before an opening mark that follows no other
_END = (rf"(?:(?<=[{re.escape(BREAK_AFTER)}])(?![{re.escape(NO_START)}]|{_GLUED})|(?=[{re.escape(OPENING)}])"
        rf"(?<![{re.escape(OPENING)}])|(?!{_WORD}))")

RICH_WORD = re.compile(rf"{_BREAKING}*{_WORD}+?{_END}{_BREAKING}*")
TEXTUAL_CHUNK = re.compile(rf"{_WORD}+?{_END}{_BREAKING}*|{_BREAKING}+")


def keep_no_break_spaces() -> None:
    """Make Rich's and Textual's line wrapping keep no-break spaces inside words (idempotent). A library
    version without the pattern this replaces is left as it is."""
    from rich import _wrap as rich_wrap
    from textual import _wrap as textual_wrap

    if isinstance(getattr(rich_wrap, "re_word", None), re.Pattern):
        rich_wrap.re_word = RICH_WORD
    if isinstance(getattr(textual_wrap, "re_chunk", None), re.Pattern):
        textual_wrap.re_chunk = TEXTUAL_CHUNK


__all__ = ["keep_no_break_spaces"]
