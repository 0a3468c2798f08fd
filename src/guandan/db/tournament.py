"""Tables of the tournament desk: the append-only audit log, and projections rebuilt from it.

``tournament_events`` is the source of truth. ``tournaments`` and ``tournament_standings`` are projections
the desk rewrites after each entry, so that web pages and reports can read them with plain SQL.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


class TournamentRow(Base):
    """One event (赛事). ``status`` and ``current_round`` are projections of the log."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(40), default="registration")
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    last_seq: Mapped[int] = mapped_column(Integer, default=0)


class TournamentEventRow(Base):
    """One audit-log entry. Never updated or deleted (database triggers refuse it on SQLite and PostgreSQL)."""

    __tablename__ = "tournament_events"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(40))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentPerson(Base):
    """A person's name kept beside the append-only log, not in it: an entry names them as
    ``{"person": id}``, resolved whenever the log is read, so that erasing the name (a deleted account)
    leaves every entry as it was written."""

    __tablename__ = "tournament_people"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(100))


class StandingRow(Base):
    """The current standings of a tournament, one row per team, with every tie-break column."""

    __tablename__ = "tournament_standings"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    team_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rank: Mapped[int] = mapped_column(Integer)
    team_name: Mapped[str] = mapped_column(String(100))
    club: Mapped[str | None] = mapped_column(String(100), nullable=True)
    match_points: Mapped[int] = mapped_column(Integer)  # 场分
    opponents_points: Mapped[int] = mapped_column(Integer)  # 对手分
    level_diff: Mapped[int] = mapped_column(Integer)  # 级差分
    levels_gained: Mapped[int] = mapped_column(Integer)  # 升级数
    played: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    draws: Mapped[int] = mapped_column(Integer)
    losses: Mapped[int] = mapped_column(Integer)
    byes: Mapped[int] = mapped_column(Integer)
    as_of_seq: Mapped[int] = mapped_column(Integer)
