"""Online events (migration ``0008_online_events``): the teams of two accounts that entered a tournament
played on the web app's tables, and the room that holds each of its tables.

An entry is made by one account (``user1_id``) naming its partner (``user2_id``); it is ``pending`` until
the partner confirms it, when the team is registered with the tournament desk (``team_id``, the desk's team
number). A room row binds one table of one round to the room that plays it; the room's seats hold the
accounts themselves (guandan.server.rooms.Seat.user_id).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


def _now() -> datetime:
    return datetime.now(UTC)


class OnlineEntry(Base):
    """A team of two accounts entered in an online event."""

    __tablename__ = "online_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "user1_id"), UniqueConstraint("tournament_id", "user2_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    team_name: Mapped[str] = mapped_column(String(100))
    user1_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    user2_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending, confirmed
    team_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class OnlineRoom(Base):
    """The room that plays one table of one round of an online event."""

    __tablename__ = "online_rooms"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_code: Mapped[str] = mapped_column(String(12), unique=True)
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
