"""The error raised for everything the tournament desk refuses."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import GuandanError
from ..i18n import N_


class TournamentError(GuandanError, ValueError):
    """Bad tournament input or an action the event's state does not allow (RULES.md §5.4).

    The message names the problem (the team, the table, the round) so that an arbiter can act on it;
    nothing is changed when one is raised. Refusals a player can meet on a table's page also carry
    ``msgid`` (an English text of the ``desk`` catalogue with ``str.format`` fields) and its ``params``,
    so that a page can say them in the reader's language.
    """

    def __init__(self, message: str, *, msgid: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.msgid = msgid
        self.params = dict(params or {})


class NotFoundError(TournamentError, LookupError):
    """An unknown tournament, round, table or team."""


def refusal(msgid: str, **params: Any) -> TournamentError:
    """A refusal a player may read: its English text is ``msgid`` filled with ``params``."""
    return TournamentError(msgid.format(**params), msgid=msgid, params=params)


def not_found(msgid: str, **params: Any) -> NotFoundError:
    """A catalogued refusal for something that is not there: its English text is ``msgid`` filled with ``params``."""
    return NotFoundError(msgid.format(**params), msgid=msgid, params=params)


class Word(str):
    """A catalogued word given as a refusal's parameter (``field=Word(N_("page number"))``): a page says
    it in its language with the rest of the message."""

    __slots__ = ()


class Said(str):
    """A catalogued clause given as a refusal's parameter, or returned where a reason is a string (a pairing
    blocker): its ``str`` is the English text, and ``msgid`` with ``params`` let a page say it in the reader's
    language, its own parameters (words and clauses) included."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, params: dict[str, Any] | None = None, text: str | None = None) -> Said:
        params = dict(params or {})
        self = super().__new__(cls, msgid.format(**params) if text is None else text)
        self.msgid, self.params = msgid, params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles keep the msgid (str's would drop it)
        return (Said, (self.msgid, self.params, str(self)))


def said(msgid: str, **params: Any) -> Said:
    """A catalogued clause: ``said(N_("round {round} table {table}"), round=2, table=3)``."""
    return Said(msgid, params)


def clause(e: TournamentError) -> str:
    """A refusal as a clause of another one: catalogued (as a :class:`Said`) when it carries a msgid."""
    return Said(e.msgid, e.params, str(e)) if e.msgid else str(e)


def joined(items: Iterable[str]) -> str:
    """Reasons joined by ``; `` (``；`` in Chinese): a clause when there is more than one."""
    return _chained(N_("{first}; {rest}"), items)


def listed(items: Iterable[str]) -> str:
    """Items named in a row, ``North, North, East`` (``北、北、东`` in Chinese): a clause when there is more
    than one, so a page says each catalogued item (a :class:`Word`) in its language."""
    return _chained(N_("{first}, {rest}"), items)


def _chained(msgid: str, items: Iterable[str]) -> str:
    parts = list(items)
    if not parts:
        return ""
    out = parts[-1]
    for x in reversed(parts[:-1]):
        out = said(msgid, first=x, rest=out)
    return out


def refused(reason: str) -> TournamentError:
    """A refusal whose whole text is ``reason``: catalogued when it is a :class:`Said`."""
    if isinstance(reason, Said):
        return TournamentError(str(reason), msgid=reason.msgid, params=reason.params)
    return TournamentError(reason)
