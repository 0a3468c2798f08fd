"""Optional player accounts (migration ``0006_accounts``): users, their server-side sessions, the
wrong-password throttle and the replays an account has claimed.

Only what the features need is kept. A session row holds the SHA-256 of the session id (the id itself
lives only in the browser's cookie). The throttle holds a SHA-256 of what it counts against (an account's
username key or a client address), a count and when its window opened; windows expire and their rows
are purged. Deleting an account clears its name, display name and password hash (the row stays as an
anonymous tombstone, so that games and ratings that point at it stay whole), and drops its sessions
and claims.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


def _now() -> datetime:
    return datetime.now(UTC)


class User(Base):
    """An account. ``username`` as the player typed it, ``username_key`` its lowercase form (unique, so
    that names differing only in case are one name). All three personal columns and the hash are NULL
    once the account is deleted (``deleted_at`` set)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str | None] = mapped_column(String(32), nullable=True)
    username_key: Mapped[str | None] = mapped_column(String(32), unique=True, nullable=True)
    display_name: Mapped[str | None] = mapped_column(String(32), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # may create online events from the site's pages (migration 0011; the operator's `guandan organiser`)
    organiser: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class UserSession(Base):
    """A logged-in browser: the SHA-256 (hex) of its random session id."""

    __tablename__ = "user_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class LoginThrottle(Base):
    """Wrong passwords counted against one key (``kind`` ``account`` or ``address``; ``key_hash`` the
    SHA-256 of the username key or the client address) since ``window_start``."""

    __tablename__ = "login_throttle"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    failures: Mapped[int] = mapped_column(Integer, default=0)
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class UserReplay(Base):
    """A replay an account played (or claimed from the guest seat tokens of the browser it signed up
    on): ``seat`` the seat it played (None for an imported record)."""

    __tablename__ = "user_replays"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    replay_id: Mapped[str] = mapped_column(ForeignKey("web_replays.id", ondelete="CASCADE"), primary_key=True,
                                           index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
