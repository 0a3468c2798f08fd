"""The values an engine error names, typed so that the error's own text keeps the engine's spelling (seats
0…3, cards in RULES.md notation) while a person reads each as the presentation layer writes it
(guandan.cliutil.said, guandan.present.said)."""

from __future__ import annotations

import errno as _errno

from .cards import card_str

_ETIMEDOUT = _errno.ETIMEDOUT


class SeatNo(int):
    """A seat an error names: its engine number (0…3) in the error's own text, counted from 1 where a
    person reads the error (guandan.cliutil.said)."""

    __slots__ = ()


class CardList(tuple[int, ...]):
    """Cards an error names: in the engine's notation (``S3 HT``) in the error's own text; a person reads
    them as the presentation layer writes cards (``♠3 ♥10``), or at least with 10 written "10"."""

    __slots__ = ()

    def __str__(self) -> str:
        return " ".join(card_str(c) for c in self)


class Listed(tuple[object, ...]):
    """Several values an error names (a play's readings), joined by commas in its own text; a person reads
    each as the presentation layer describes it."""

    __slots__ = ()

    def __str__(self) -> str:
        return ", ".join(map(str, self))


class OsReason(str):
    """Why the operating system refused a file operation: its own words (``strerror``) in the error's own
    text, said in the reader's language where a person reads it (guandan.i18n.reasons)."""

    __slots__ = ("errno",)
    errno: int | None

    def __new__(cls, e: OSError) -> OsReason:
        self = super().__new__(cls, e.strerror or str(e) or type(e).__name__)
        # a socket's timeout is a TimeoutError with no errno of its own
        self.errno = e.errno if e.errno is not None or not isinstance(e, TimeoutError) else _ETIMEDOUT
        return self


class JsonProblem(str):
    """What the JSON reader found wrong (``Expecting value``): its own words in the error's own text, said
    in the reader's language where a person reads it (guandan.i18n.reasons)."""

    __slots__ = ()


class Phrase(str):
    """Words an error names that are themselves a msgid (``a seat 0…3``): the msgid in the error's own text,
    its translation where a person reads the error (from the same catalogue as the error)."""

    __slots__ = ()
