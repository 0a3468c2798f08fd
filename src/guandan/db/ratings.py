"""Rated matches and ratings (migration ``0007_ratings``): what the leaderboard and a player's page read.

* ``rated_matches``: one row per finished rated match — its preset, replay, how many deals each team
  won, the match's winner, and per seat the account (``seatN_user``) or the bot tier (``seatN_bot``).
* ``ratings``: one row per account and preset — mu, sigma, the displayed conservative rating (kept as a
  column, indexed with the preset, so that a leaderboard page is one index range), and counts.
* ``rating_history``: one row per account and rated match — the rating after it and the account's
  result, indexed by account and time (a player's page reads its newest rows).

:func:`record_rated_match` rates a finished match and writes all three in one transaction; the rating
arithmetic is :mod:`guandan.ratings`. An account deleted later keeps its rows pointing at its anonymous
``users`` row: the games stay whole, and every query here skips deleted accounts' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    delete,
    event,
    func,
    inspect,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from .. import ratings as rating_model
from .accounts import User, UserReplay
from .base import Base
from .web import WebReplay


def _now() -> datetime:
    return datetime.now(UTC)


class RatedMatch(Base):
    __tablename__ = "rated_matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    replay_id: Mapped[str | None] = mapped_column(ForeignKey("web_replays.id", ondelete="SET NULL"), nullable=True)
    room_code: Mapped[str | None] = mapped_column(String(12), nullable=True)
    preset: Mapped[str] = mapped_column(String(32))
    deals: Mapped[int] = mapped_column(Integer)
    deals_won_0: Mapped[int] = mapped_column(Integer)  # by seats 0 and 2
    deals_won_1: Mapped[int] = mapped_column(Integer)  # by seats 1 and 3
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the team, None for a draw
    seat0_user: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    seat1_user: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    seat2_user: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    seat3_user: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    seat0_bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seat1_bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seat2_bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    seat3_bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class PlayerRating(Base):
    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_preset_display", "preset", "display", "user_id"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RatingHistory(Base):
    __tablename__ = "rating_history"
    __table_args__ = (UniqueConstraint("user_id", "match_id"),
                      Index("ix_rating_history_user_at", "user_id", "at", "id"),
                      Index("ix_rating_history_user_preset_at", "user_id", "preset", "at", "id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    match_id: Mapped[int] = mapped_column(ForeignKey("rated_matches.id", ondelete="CASCADE"), index=True)
    preset: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    result: Mapped[str] = mapped_column(String(8))  # win, loss, draw
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    display: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


RESULTS = ("win", "loss", "draw")


@event.listens_for(Session, "before_flush")
def _forget_deleted_accounts(session: Session, _context: Any, _instances: Any) -> None:
    """When an account is deleted (its ``users`` row gets ``deleted_at``), its ratings and rating history go in
    the same transaction: no page shows them any more, so nothing needs them. The rated matches keep the
    anonymous id in their seats, so the other players' games stay whole."""
    for obj in session.dirty:
        if isinstance(obj, User) and obj.deleted_at is not None and inspect(obj).attrs.deleted_at.history.added:
            session.execute(delete(RatingHistory).where(RatingHistory.user_id == obj.id))
            session.execute(delete(PlayerRating).where(PlayerRating.user_id == obj.id))


@dataclass(frozen=True)
class MatchResult:
    """A finished rated match as the server hands it over: per seat an account id or a bot tier (exactly
    one of the two), each deal's winning team in order, and the match's winner (None: a draw)."""

    preset: str
    users: tuple[int | None, int | None, int | None, int | None]
    bots: tuple[str | None, str | None, str | None, str | None]
    deal_winners: tuple[int, ...]
    winner: int | None
    replay_id: str | None = None
    room_code: str | None = None
    finished_at: datetime | None = None

    def __post_init__(self) -> None:
        for seat, (user, bot) in enumerate(zip(self.users, self.bots, strict=True)):
            if (user is None) == (bot is None):
                raise ValueError(f"seat {seat} must hold either an account or a bot tier")
            if bot is not None:
                rating_model.bot_rating(bot)  # refuses a tier with no fixed rating
        humans = [u for u in self.users if u is not None]
        if not humans:
            raise ValueError("a rated match needs at least one account")
        if len(set(humans)) != len(humans):
            raise ValueError("one account cannot hold two seats of a rated match")
        if self.winner not in (None, 0, 1):
            raise ValueError("the winner is a team, 0 or 1, or None for a draw")


def match_winner(winner: int | None, levels: Sequence[int], points: Sequence[int] | None = None) -> int | None:
    """Who won a match for the ratings' records: the engine's winner; for a match stopped at its deal
    limit, the team at the higher level, then (火拼) the higher points; else a draw (None)."""
    if winner is not None:
        return winner
    if levels[0] != levels[1]:
        return 0 if levels[0] > levels[1] else 1
    if points:
        team = [points[0] + points[2], points[1] + points[3]]
        if team[0] != team[1]:
            return 0 if team[0] > team[1] else 1
    return None


def record_rated_match(sessions: sessionmaker[Session], result: MatchResult) -> int:
    """Rate ``result`` and store it: the match, every account's new rating in the preset, one history row
    per account. One transaction; answers the match's id."""
    with sessions.begin() as s:
        return record_in(s, result)


def record_in(s: Session, result: MatchResult) -> int:
    """:func:`record_rated_match` inside the caller's transaction (a bench loads thousands in one)."""
    at = result.finished_at or _now()
    humans = [u for u in result.users if u is not None]
    rows = {r.user_id: r for r in s.scalars(select(PlayerRating).where(
        PlayerRating.preset == result.preset, PlayerRating.user_id.in_(humans)).with_for_update())}
    seats: list[rating_model.Seat] = []
    for user, bot in zip(result.users, result.bots, strict=True):
        if user is not None:
            row = rows.get(user)
            seats.append(rating_model.Rating(row.mu, row.sigma) if row else rating_model.Rating())
        else:
            assert bot is not None
            seats.append(bot)
    after = rating_model.rate_match(seats, result.deal_winners)
    won = [sum(1 for w in result.deal_winners if w == t) for t in (0, 1)]
    match = RatedMatch(replay_id=result.replay_id, room_code=result.room_code, preset=result.preset,
                       deals=len(result.deal_winners), deals_won_0=won[0], deals_won_1=won[1], winner=result.winner,
                       finished_at=at, **{f"seat{i}_user": result.users[i] for i in range(4)},
                       **{f"seat{i}_bot": result.bots[i] for i in range(4)})
    s.add(match)
    s.flush()
    for seat, user in enumerate(result.users):
        new = after[seat]
        if user is None or new is None:
            continue
        team = seat % 2
        outcome = "draw" if result.winner is None else "win" if result.winner == team else "loss"
        row = rows.get(user)
        if row is None:
            row = PlayerRating(user_id=user, preset=result.preset, matches=0, wins=0, deals=0)
            s.add(row)
        row.mu, row.sigma, row.display = new.mu, new.sigma, new.display
        row.matches += 1
        row.wins += outcome == "win"
        row.deals += len(result.deal_winners)
        row.updated_at = at
        s.add(RatingHistory(user_id=user, match_id=match.id, preset=result.preset, seat=seat, result=outcome,
                            mu=new.mu, sigma=new.sigma, display=new.display, at=at))
        # the account played this replay: it is listed among its games, and anonymised if the account goes
        if result.replay_id is not None and s.get(UserReplay, (user, result.replay_id)) is None:
            s.add(UserReplay(user_id=user, replay_id=result.replay_id, seat=seat, claimed_at=at))
    return int(match.id)


# --- reading ------------------------------------------------------------------------------------------
def _iso(t: datetime) -> str:
    return (t if t.tzinfo else t.replace(tzinfo=UTC)).isoformat()


_LIVE = User.deleted_at.is_(None)
_BOARD_COUNT = (select(func.count()).select_from(PlayerRating).join(User, User.id == PlayerRating.user_id)
                .where(PlayerRating.preset == bindparam("preset"), _LIVE))
_BOARD = (select(PlayerRating.user_id, PlayerRating.mu, PlayerRating.sigma, PlayerRating.matches, PlayerRating.wins,
                 PlayerRating.deals, User.username, User.display_name)
          .join(User, User.id == PlayerRating.user_id)
          .where(PlayerRating.preset == bindparam("preset"), _LIVE)
          .order_by(PlayerRating.display.desc(), PlayerRating.user_id)
          .limit(bindparam("limit", type_=Integer)).offset(bindparam("offset", type_=Integer)))


def leaderboard(s: Session, preset: str, limit: int = 100, offset: int = 0) -> tuple[int, list[dict[str, Any]]]:
    """The preset's accounts by displayed rating (best first; deleted accounts left out), and how many there are."""
    total = s.execute(_BOARD_COUNT, {"preset": preset}).scalar() or 0
    rows = s.execute(_BOARD, {"preset": preset, "limit": limit, "offset": offset}).all()
    out = []
    for rank, (user_id, mu, sigma, matches, wins, deals, username, name) in enumerate(rows, offset + 1):
        out.append({"rank": rank, "user_id": user_id, "username": username, "display_name": name or username,
                    **rating_json(mu, sigma), "matches": matches, "wins": wins, "deals": deals})
    return int(total), out


def rating_json(mu: float, sigma: float) -> dict[str, Any]:
    r = rating_model.Rating(mu, sigma)
    return {"rating": r.display, "estimate": r.estimate, "plus_minus": r.plus_minus, "mu": round(mu, 4),
            "sigma": round(sigma, 4)}


def user_by_name(s: Session, username: str) -> User | None:
    """A live account by its username, whatever the case."""
    return s.scalar(select(User).where(User.username_key == username.strip().lower(), User.deleted_at.is_(None)))


_RATINGS = (select(PlayerRating.preset, PlayerRating.mu, PlayerRating.sigma, PlayerRating.matches, PlayerRating.wins,
                   PlayerRating.deals)
            .where(PlayerRating.user_id == bindparam("user_id"))
            .order_by(PlayerRating.matches.desc(), PlayerRating.preset))
_HISTORY = (select(RatingHistory.mu, RatingHistory.sigma, RatingHistory.at, RatingHistory.result)
            .where(RatingHistory.user_id == bindparam("user_id"), RatingHistory.preset == bindparam("preset"))
            .order_by(RatingHistory.at.desc(), RatingHistory.id.desc()).limit(bindparam("limit", type_=Integer)))


def user_ratings(s: Session, user_id: int) -> list[dict[str, Any]]:
    """An account's rating in each preset it played, the most played first (its favourite presets)."""
    return [{"preset": preset, **rating_json(mu, sigma), "matches": matches, "wins": wins, "deals": deals}
            for preset, mu, sigma, matches, wins, deals in s.execute(_RATINGS, {"user_id": user_id}).all()]


def user_history(s: Session, user_id: int, preset: str, limit: int = 200) -> list[dict[str, Any]]:
    """The account's rating after each of its newest ``limit`` rated matches in ``preset``, oldest first."""
    rows = s.execute(_HISTORY, {"user_id": user_id, "preset": preset, "limit": limit}).all()
    return [{**rating_json(mu, sg), "at": _iso(at), "result": res} for mu, sg, at, res in reversed(rows)]


_NEWEST = func.row_number().over(partition_by=RatingHistory.preset,
                                 order_by=(RatingHistory.at.desc(), RatingHistory.id.desc())).label("newest")
_ALL_HISTORY_INNER = (select(RatingHistory.preset, RatingHistory.mu, RatingHistory.sigma, RatingHistory.at,
                             RatingHistory.result, RatingHistory.id, _NEWEST)
                      .where(RatingHistory.user_id == bindparam("user_id")).subquery())
_ALL_HISTORY = (select(_ALL_HISTORY_INNER.c.preset, _ALL_HISTORY_INNER.c.mu, _ALL_HISTORY_INNER.c.sigma,
                       _ALL_HISTORY_INNER.c.at, _ALL_HISTORY_INNER.c.result)
                .where(_ALL_HISTORY_INNER.c.newest <= bindparam("limit", type_=Integer))
                .order_by(_ALL_HISTORY_INNER.c.preset, _ALL_HISTORY_INNER.c.at, _ALL_HISTORY_INNER.c.id))


def user_histories(s: Session, user_id: int, limit: int = 200) -> dict[str, list[dict[str, Any]]]:
    """:func:`user_history` of every preset the account played, in one query."""
    out: dict[str, list[dict[str, Any]]] = {}
    for preset, mu, sg, at, res in s.execute(_ALL_HISTORY, {"user_id": user_id, "limit": limit}).all():
        out.setdefault(preset, []).append({**rating_json(mu, sg), "at": _iso(at), "result": res})
    return out


_SEAT_USERS = tuple(getattr(RatedMatch, f"seat{i}_user") for i in range(4))
_SEAT_BOTS = tuple(getattr(RatedMatch, f"seat{i}_bot") for i in range(4))
# two plain queries rather than one with four aliased joins of users: PostgreSQL spent five times longer
# planning that join than running it
_MATCHES = (select(RatingHistory.seat, RatingHistory.result, RatingHistory.mu, RatingHistory.sigma, RatedMatch.id,
                   RatedMatch.preset, RatedMatch.finished_at, RatedMatch.deals, RatedMatch.deals_won_0,
                   RatedMatch.deals_won_1, RatedMatch.replay_id, WebReplay.public, *_SEAT_USERS, *_SEAT_BOTS)
            .join(RatedMatch, RatedMatch.id == RatingHistory.match_id)
            .outerjoin(WebReplay, WebReplay.id == RatedMatch.replay_id)
            .where(RatingHistory.user_id == bindparam("user_id"))
            .order_by(RatingHistory.at.desc(), RatingHistory.id.desc()).limit(bindparam("limit", type_=Integer)))
_NAMES = select(User.id, User.username, User.display_name).where(
    User.id.in_(bindparam("ids", expanding=True)), User.deleted_at.is_(None), User.username.is_not(None))


def user_matches(s: Session, user_id: int, limit: int = 30) -> list[dict[str, Any]]:
    """The account's newest rated matches: preset, result, seat, every seat's player (a live account's name,
    a deleted account as ``deleted``, a bot's tier), the replay (with whether it is public) and the rating after."""
    rows: list[Any] = list(s.execute(_MATCHES, {"user_id": user_id, "limit": limit}).all())
    ids = sorted({u for row in rows for u in row[12:16] if u is not None})
    names = {i: (u, d) for i, u, d in s.execute(_NAMES, {"ids": ids}).all()} if ids else {}
    out = []
    for row in rows:
        seat, result, mu, sigma, match_id, preset, finished_at, deals, won0, won1, replay_id, public = row[:12]
        users, bots = row[12:16], row[16:20]
        seats: list[dict[str, Any]] = []
        for i in range(4):
            if bots[i] is not None:
                seats.append({"kind": "bot", "tier": bots[i], "rating": rating_model.bot_rating(bots[i]).display})
            elif users[i] not in names:
                seats.append({"kind": "deleted"})
            else:
                username, display = names[users[i]]
                seats.append({"kind": "user", "username": username, "display_name": display or username})
        out.append({"match_id": match_id, "preset": preset, "finished_at": _iso(finished_at), "seat": seat,
                    "result": result, "deals": deals, "deals_won": (won0, won1)[seat % 2],
                    "deals_lost": (won1, won0)[seat % 2], "replay_id": replay_id, "replay_public": bool(public),
                    "seats": seats, **rating_json(mu, sigma)})
    return out


def bots_json() -> list[dict[str, Any]]:
    """The bot tiers' fixed ratings, strongest first."""
    tiers = sorted(rating_model.BOT_MU, key=lambda t: -rating_model.BOT_MU[t])
    return [{"tier": t, **rating_json(rating_model.BOT_MU[t], 0.0), "fixed": True} for t in tiers]
