"""The web app's tables (migration ``web_0001``): rooms, their append-only action log, finished-match
replays. A table's live state is never stored: it is rebuilt from the room row (RuleSet, seed,
config) and the action log by replaying the engine, so what is stored is exactly what happened.

Declared here with every other table, so that the migration environment sees them all without
``guandan.db`` importing the server (which reaches them through :mod:`guandan.server.models`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base


def _now() -> datetime:
    return datetime.now(UTC)


class WebRoom(Base):
    __tablename__ = "web_rooms"

    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # a practice room's own seed (0 when secret_seed is set)
    # the server-drawn match seed (hex), secret until the match is over (migration 0004_web_secret_seed)
    secret_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    host_hash: Mapped[str] = mapped_column(String(64))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    replay_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)


class WebAction(Base):
    """One applied action (append-only): ``seq`` counts from 1 within the room's match."""

    __tablename__ = "web_actions"
    __table_args__ = (UniqueConstraint("room_code", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("web_rooms.code", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class WebReplay(Base):
    """A finished (or imported) match record in the open record format (docs/record-format.md).

    Private unless one of its owners marked it ``public`` (migration ``0003_web_replay_owners``): its id
    (96 random bits) is the link, and only its owners see it listed."""

    __tablename__ = "web_replays"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    room_code: Mapped[str | None] = mapped_column(String(12), nullable=True, index=True)
    record: Mapped[str] = mapped_column(Text)
    imported: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    public: Mapped[bool] = mapped_column(default=False, server_default=false())
    # what a list of replays tells of it (replay_summary), kept beside the record so that a list reads no record
    # (migration 0010_web_replay_summary); null for a record that says too little
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class WebReplayOwner(Base):
    """Who may list a replay and mark it public: the hash of a seat token of a player who played it (or of
    the token handed to whoever imported the record)."""

    __tablename__ = "web_replay_owners"

    replay_id: Mapped[str] = mapped_column(ForeignKey("web_replays.id", ondelete="CASCADE"), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)


class WebReview(Base):
    """The engine's review (复盘) of one seat of a replay: asked for, worked out in the background, kept.

    ``review`` holds the review's JSON (docs/review-format.md) in each page language once ``status`` is
    ``done`` (migration ``0005_web_reviews``); a review queued or running when the server stopped is
    worked out again at start-up."""

    __tablename__ = "web_reviews"

    replay_id: Mapped[str] = mapped_column(ForeignKey("web_replays.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # queued, running, done, failed
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)  # the review engine's budget and seed
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, onupdate=_now)


SUMMARY_TEXT_MAX = 40  # characters of a name, a tier or a preset a summary keeps (an imported record's are free text)


def replay_summary(data: Any) -> dict[str, Any] | None:
    """What a list of replays tells of a record (docs/record-format.md), without reading the record again:
    ``players`` (the four names played under), ``kinds`` (each seat's ``[kind, tier]`` where a web match's
    ``meta.seats`` says it, else ``[null, null]``), ``preset``, ``ended``, ``winner`` (team 0 or 1, null for a
    match that did not end), ``levels`` (each team's level at the end) and ``deals`` (deals played). None for
    something that is no record."""
    if not isinstance(data, dict):
        return None
    result, meta, rules = data.get("result"), data.get("meta"), data.get("rules")
    if not isinstance(result, dict):
        return None

    def text(v: Any) -> str:
        return v[:SUMMARY_TEXT_MAX] if isinstance(v, str) else ""

    players = data.get("players")
    names = [text(players[i]) if isinstance(players, list) and i < len(players) else "" for i in range(4)]
    seats = meta.get("seats") if isinstance(meta, dict) else None
    kinds: list[list[str | None]] = []
    for i in range(4):
        entry = seats[i] if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], dict) else {}
        kind, tier = entry.get("kind"), entry.get("tier")
        kinds.append([kind if kind in ("bot", "human") else None, text(tier) or None])
    levels = result.get("levels")
    winner, deals = result.get("winner"), result.get("deals_played")
    return {
        "players": names, "kinds": kinds, "preset": text(rules.get("name")) if isinstance(rules, dict) else "",
        "ended": result.get("ended") is True, "winner": winner if type(winner) is int and winner in (0, 1) else None,
        "levels": [text(x) for x in levels[:2]] if isinstance(levels, list) and len(levels) >= 2 else None,
        "deals": deals if isinstance(deals, int) and not isinstance(deals, bool) and deals >= 0 else None,
    }
