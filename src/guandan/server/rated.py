"""A rated room's finished match, handed to the ratings' tables (guandan.db.ratings).

:func:`rated_result` reads the result off the room — per seat the account or the bot tier, each deal's
winning team (the team of its first finisher), the match's winner — and :func:`record_rated_match`
stores it in the store's writer thread, right after the match's replay. A failure to rate is logged and
never stops the table: the replay is kept either way.
"""

from __future__ import annotations

import logging

from sqlalchemy.orm import Session, sessionmaker

from ..db import ratings as rating_tables
from .rooms import Room

log = logging.getLogger("guandan.server")


def rated_result(room: Room, replay_id: str | None) -> rating_tables.MatchResult | None:
    """The finished match of a rated room as the ratings take it; None (logged) if the room cannot be rated."""
    try:
        return _result(room, replay_id)
    except ValueError:
        log.exception("the match of room %s cannot be rated", room.code)
        return None


def _result(room: Room, replay_id: str | None) -> rating_tables.MatchResult:
    match = room.match
    assert match is not None and match.ended
    users = tuple(s.user_id if s.kind == "human" else None for s in room.seats)
    bots = tuple(s.tier if s.kind == "bot" else None for s in room.seats)
    deal_winners = tuple(d.finish[0] % 2 for d in match.deals if d.finish)
    winner = rating_tables.match_winner(match.winner, match.levels, match.points if any(match.points) else None)
    return rating_tables.MatchResult(preset=room.config.preset, users=(users[0], users[1], users[2], users[3]),
                                     bots=(bots[0], bots[1], bots[2], bots[3]), deal_winners=deal_winners,
                                     winner=winner, replay_id=replay_id, room_code=room.code)


def record_rated_match(sessions: sessionmaker[Session], result: rating_tables.MatchResult | None) -> int | None:
    """Rate and store the match; None (logged) when that failed."""
    if result is None:
        return None
    try:
        return rating_tables.record_rated_match(sessions, result)
    except Exception:  # the table and its replay must not depend on the ratings
        log.exception("could not rate the match of room %s", result.room_code)
        return None
