"""Levels as a tournament writes them: "2"…"10", "J", "Q", "K", "A" for the values 2…14 (A = 14).

Below both :mod:`.model` (which validates fixed scores such as A:6) and :mod:`.rounds` (which scores
rounds with them), so that neither has to import the other.
"""

from __future__ import annotations

from ..core.cards import level_str, parse_level
from ..core.errors import LevelError
from ..i18n import N_
from .errors import TournamentError

#: The core's refusals of a level, in the desk's catalogue too (a level is refused in the desk's words).
LEVEL_MSGIDS = (N_("level {level} is outside 2…A (2…14)"), N_("level {level} is not one of 2 3 4 5 6 7 8 9 10 J Q K A"))

LEVEL_A = 14


def level_value(level: str | int) -> int:
    """A level written "2"…"A" (or "10") as its value 2…14."""
    try:
        return parse_level(level) + 2
    except LevelError as e:
        raise TournamentError(str(e), msgid=e.msgid if e.msgid in LEVEL_MSGIDS else None, params=e.params) from None


def level_name(value: int) -> str:
    return level_str(value - 2)


def level_label(value: int) -> str:
    """A level value as people write it: 2…10, J, Q, K, A (the stored form writes 10 as "T")."""
    name = level_name(value)
    return "10" if name == "T" else name
