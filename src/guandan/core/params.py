"""The values an engine error names, typed so that the error's own text keeps the engine's spelling (seats
0…3, cards in RULES.md notation) while a person reads each as the presentation layer writes it
(guandan.cliutil.said, guandan.present.said)."""

from __future__ import annotations

from .cards import card_str


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
