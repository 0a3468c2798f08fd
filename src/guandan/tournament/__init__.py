"""The tournament desk (赛事): seed-style pairs Swiss events as in RULES.md §5.4.

Pure logic lives in :mod:`.model`, :mod:`.rounds`, :mod:`.standings`, :mod:`.pairing` and :mod:`.state`
(event sourcing); :mod:`.desk` stores the audit log in the shared database, :mod:`.export` writes Excel, CSV
and score slips, :mod:`.cli` and :mod:`.web` are the arbiter's and the players' interfaces.
"""

from __future__ import annotations

from .errors import NotFoundError, TournamentError
from .model import EventConfig, LatenessRules, RoundLimits, Table, Team
from .rounds import ResultSlip, RoundResult, lateness_ruling, round_result, round_status
from .standings import Standing, compute_standings

__all__ = [
    "EventConfig", "LatenessRules", "NotFoundError", "ResultSlip", "RoundLimits", "RoundResult", "Standing",
    "Table", "Team", "TournamentError", "compute_standings", "lateness_ruling", "round_result", "round_status",
]
