"""The error raised for everything the tournament desk refuses."""

from __future__ import annotations

from typing import Any

from ..core.errors import GuandanError


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
