"""The error raised for everything the tournament desk refuses."""

from __future__ import annotations

from ..core.errors import GuandanError


class TournamentError(GuandanError, ValueError):
    """Bad tournament input or an action the event's state does not allow (RULES.md §5.4).

    The message names the problem (the team, the table, the round) so that an arbiter can act on it;
    nothing is changed when one is raised.
    """


class NotFoundError(TournamentError, LookupError):
    """An unknown tournament, round, table or team."""
