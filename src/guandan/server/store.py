"""Persistence of rooms: one row per room, the append-only action log, replays and their reviews. Each call is one small
transaction, committed before the matching update is broadcast, so whatever a client has seen survives
a crash.

Every write runs in the store's one writer thread (:class:`Writer`), in the order it was asked for. Code on
the event loop queues its writes with :meth:`Store.later` and never waits on the thread: the table service
holds a room's frames until the room's writes are committed, and an HTTP answer awaits the commit of what
it reports (``asyncio.wrap_future``), so no client's request stalls another's table behind the queue.
Called directly (start-up, the command line, tests) a write is queued all the same and waited for. Reads
that rebuild a room wait until the writes queued before them are done; the ``peek_`` ones read what is
committed now, for a caller that knows nothing of that room is still queued.
"""

from __future__ import annotations

import functools
import json
import queue
import secrets
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Engine, Text, cast, func, insert, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..db import make_session_factory
from ..db.accounts import User, UserReplay
from ..db.online import OnlineRoom
from ..db.web import replay_summary
from .models import WebAction, WebReplay, WebReplayOwner, WebReview, WebRoom
from .rooms import Room

P = ParamSpec("P")
R = TypeVar("R")
LIVE = ("lobby", "playing")  # the row statuses rebuilt at start-up; "paused" rows wait for a player, "closed"
# lobbies and "over" matches are never played again


def new_replay_id() -> str:
    """A replay's id, which is also its link: 96 random bits (16 URL-safe characters), not guessable."""
    return secrets.token_urlsafe(12)


def row_status(room: Room) -> str:
    return "paused" if room.paused and room.status == "playing" else room.status


class Writer:
    """The one thread that writes to the database: jobs run one at a time, in the order they were
    submitted, each answering a Future. Started on the first job; :meth:`close` drains and stops it (a
    later job starts it again)."""

    def __init__(self, name: str = "guandan-db-writer") -> None:
        self.name = name
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._stopped: threading.Thread | None = None  # the thread close() stopped, maybe still finishing
        self._lock = threading.Lock()
        self._pending = 0  # submitted and not yet done
        self._inside = threading.local()  # set in the writer thread: its own writes run at once

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        future: Future[R] = Future()
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                # a new thread starts only once the stopped one has finished its jobs: one writer at a time
                self._thread = threading.Thread(target=self._run, args=(self._stopped,), name=self.name, daemon=True)
                self._stopped = None
                self._thread.start()
            self._pending += 1
            self._jobs.put((functools.partial(fn, *args, **kwargs), future))
        return future

    def in_writer(self) -> bool:
        return bool(getattr(self._inside, "writer", False))

    @property
    def pending(self) -> int:
        return self._pending

    def flush(self) -> None:
        """Wait until every job submitted so far is done."""
        if self._pending and not self.in_writer():
            self.submit(lambda: None).result()

    def close(self) -> None:
        """Finish every job submitted so far, then stop the thread."""
        with self._lock:
            thread = self._thread
            if thread is None:
                return
            self._jobs.put(None)
            self._thread, self._stopped = None, thread
        if thread is not threading.current_thread():
            thread.join()

    def _run(self, previous: threading.Thread | None) -> None:
        self._inside.writer = True
        if previous is not None and previous is not threading.current_thread():
            previous.join()
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, future = job
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(fn())
                    except BaseException as e:  # the caller (or its done-callback) reports it
                        future.set_exception(e)
            finally:
                with self._lock:
                    self._pending -= 1


def _written(method: Callable[Concatenate[Store, P], R]) -> Callable[Concatenate[Store, P], R]:
    """A write: it runs in the writer thread after every write asked for before it; the caller waits (so
    code on the event loop queues it with :meth:`Store.later` instead, and awaits that if it must)."""

    @functools.wraps(method)
    def write(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        if self.writer.in_writer():
            return method(self, *args, **kwargs)
        return self.writer.submit(method, self, *args, **kwargs).result()

    return write


def _after_writes(method: Callable[Concatenate[Store, P], R]) -> Callable[Concatenate[Store, P], R]:
    """A read that must see every write asked for before it (a room rebuilt from its log)."""

    @functools.wraps(method)
    def read(self: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        self.writer.flush()
        return method(self, *args, **kwargs)

    return read


def _utc(t: datetime) -> datetime:
    """SQLite gives back naive datetimes for timezone-aware columns: they were written in UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


@dataclass
class StoredRoom:
    row: WebRoom
    actions: list[dict[str, Any]]

    @property
    def seed(self) -> int | str:
        """The room's match seed: a server-drawn secret one (text) or a practice room's own (integer)."""
        return self.row.secret_seed if self.row.secret_seed is not None else self.row.seed


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = make_session_factory(engine)
        self.writer = Writer()

    def later(self, write: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        """Queue one of this store's writes (``store.append_action`` …) without waiting for it: it runs
        after every write asked for before it. The Future answers its result once it is committed (or its
        error); on the event loop, await it with ``asyncio.wrap_future``. The write reads its arguments
        when it runs: pass values that no longer change (a room row is written as the room is then, never
        older than when it was asked for)."""
        return self.writer.submit(write, *args, **kwargs)

    def close(self) -> None:
        """Commit everything queued, stop the writer thread."""
        self.writer.close()

    @_written
    def save_room(self, room: Room) -> None:
        with self.sessions.begin() as s:
            row = s.get(WebRoom, room.code)
            if row is None:
                secret = isinstance(room.seed, str)
                row = WebRoom(code=room.code, config=room.config.model_dump(), seed=0 if secret else room.seed,
                              secret_seed=room.seed if secret else None, host_hash=room.host_hash, seats=[],
                              status=room.status)
                s.add(row)
            row.seats = [seat.to_store() for seat in room.seats]
            row.status = row_status(room)
            row.replay_id = room.replay_id
            if row.config != (config := room.config.model_dump()):  # an online table's deal cap cut at the warning
                row.config = config

    @_written
    def append_action(self, room: Room, seq: int, action: dict[str, Any], *, room_changed: bool) -> None:
        """Log one action; also updates the room row when its status or seats changed with it. A Core
        insert, not the ORM: this runs once per action, and the unit of work costs several times the
        insert itself."""
        with self.engine.begin() as conn:
            conn.execute(insert(WebAction), {"room_code": room.code, "seq": seq, "action": action,
                                             "created_at": datetime.now(UTC)})
            if room_changed:
                conn.execute(update(WebRoom).where(WebRoom.code == room.code).values(
                    seats=[seat.to_store() for seat in room.seats], status=row_status(room), replay_id=room.replay_id,
                    updated_at=datetime.now(UTC)))

    @_after_writes
    def live_rooms(self) -> Iterator[StoredRoom]:
        """Rooms still in the lobby or playing, each with its action log in order."""
        with self.sessions() as s:
            rows = s.scalars(select(WebRoom).where(WebRoom.status.in_(LIVE))).all()
            for row in rows:
                acts = s.scalars(select(WebAction.action).where(WebAction.room_code == row.code)
                                 .order_by(WebAction.seq)).all()
                yield StoredRoom(row, list(acts))

    @_after_writes
    def live_codes(self) -> list[str]:
        """The codes of the rooms in the lobby or playing (the tables some worker should hold)."""
        with self.sessions() as s:
            return list(s.scalars(select(WebRoom.code).where(WebRoom.status.in_(LIVE))).all())

    @_after_writes
    def room_row(self, code: str) -> StoredRoom | None:
        return self.peek_room_row(code)

    def peek_room_row(self, code: str) -> StoredRoom | None:
        """:meth:`room_row` as committed now, without waiting for the queued writes (which may hold this
        room's: the caller knows they do not)."""
        with self.sessions() as s:
            row = s.get(WebRoom, code)
            if row is None:
                return None
            acts = s.scalars(select(WebAction.action).where(WebAction.room_code == code).order_by(WebAction.seq)).all()
            return StoredRoom(row, list(acts))

    def account_seats(self, user_id: int, limit: int = 10) -> list[dict[str, Any]]:
        """The rooms not over where the account ``user_id`` holds a seat it took (its own seat of an unrated
        room, or its rated seat: Seat.credited), newest first, as committed now: ``code``, ``status`` (``lobby``,
        ``playing`` or ``paused``), ``seat``, ``name`` (the room's). An online event's tables are left out: their
        seats are handed out by the event's page."""
        r = WebRoom
        seats_text = cast(r.seats, Text)  # a narrowing of the rows to read; each is checked below
        near = or_(seats_text.like(f'%_id": {int(user_id)},%'), seats_text.like(f'%_id": {int(user_id)}}}%'))
        with self.sessions() as s:
            rows = s.execute(select(r.code, r.status, r.seats, r.config)
                             .where(r.status.in_(("lobby", "playing", "paused")), near)
                             .order_by(r.updated_at.desc(), r.code)).all()
            found = []
            for code, status, seats, config in rows:
                for i, seat in enumerate(seats if isinstance(seats, list) else []):
                    if not isinstance(seat, dict) or seat.get("kind") != "human":
                        continue
                    owner = seat.get("owner_id") if seat.get("owner_id") is not None else seat.get("user_id")
                    if owner == user_id:
                        name = config.get("name") if isinstance(config, dict) else ""
                        found.append({"code": code, "status": status, "seat": i, "name": name or ""})
                        break
            events = set(s.scalars(select(OnlineRoom.room_code).where(
                OnlineRoom.room_code.in_([x["code"] for x in found])))) if found else set()
        return [x for x in found if x["code"] not in events][:limit]

    def code_taken(self, code: str) -> bool:
        """Whether a room row holds ``code``, as committed now: a room whose row is still queued is in its
        table service's memory or gates, and in a site under another worker's lease (TableService.create_room)."""
        with self.sessions() as s:
            return s.get(WebRoom, code) is not None

    @_written
    def close_room(self, code: str) -> None:
        """A lobby closed for being idle: its row stays (the code is never handed out again), marked closed."""
        with self.engine.begin() as conn:
            conn.execute(update(WebRoom).where(WebRoom.code == code).values(status="closed", updated_at=datetime.now(UTC)))

    @_after_writes
    def room_status(self, code: str) -> tuple[WebRoom, int] | None:
        """A room's row without its log, and how many actions it holds (a finished room's ``seq``)."""
        return self.peek_room_status(code)

    def peek_room_status(self, code: str) -> tuple[WebRoom, int] | None:
        """:meth:`room_status` as committed now, without waiting for the queued writes (which may hold this
        room's: the caller knows they do not)."""
        with self.sessions() as s:
            row = s.get(WebRoom, code)
            if row is None:
                return None
            n = s.scalar(select(func.count()).select_from(WebAction).where(WebAction.room_code == code))
            s.expunge(row)
            return row, int(n or 0)

    # --- replays: private unless an owner marks one public ------------------------------------
    @_written
    def save_replay(self, replay_id: str, record: str, room_code: str | None, *, imported: bool = False,
                    owners: Iterable[str] = (), accounts: Mapping[int, int] | None = None) -> None:
        """Keep a record; ``owners`` are the token hashes that may list it and mark it public; ``accounts``
        (account id: the seat it played) the logged-in players, whose games list gets it in the same
        transaction (an account deleted since it took the seat is left out)."""
        try:  # what a list of replays says of it, kept beside it (in this writer thread, off the event loop)
            summary = replay_summary(json.loads(record))
        except ValueError:
            summary = None
        with self.sessions.begin() as s:
            s.add(WebReplay(id=replay_id, room_code=room_code, record=record, imported=imported, summary=summary))
            s.flush()
            s.add_all(WebReplayOwner(replay_id=replay_id, token_hash=h) for h in sorted(set(owners)))
            if accounts:
                live = set(s.scalars(select(User.id).where(User.id.in_(sorted(accounts)), User.deleted_at.is_(None))))
                s.add_all(UserReplay(user_id=uid, replay_id=replay_id, seat=seat)
                          for uid, seat in sorted(accounts.items()) if uid in live)

    def replay(self, replay_id: str) -> str | None:
        with self.sessions() as s:
            row = s.get(WebReplay, replay_id)
            return row.record if row else None

    def replay_public(self, replay_id: str) -> bool | None:
        """Whether a replay is public (None: no such replay)."""
        with self.sessions() as s:
            row = s.get(WebReplay, replay_id)
            return row.public if row else None

    def replays(self, owner_hashes: Collection[str] = (), limit: int = 50) -> list[dict[str, Any]]:
        """The newest replays that are public or owned by one of ``owner_hashes``, each saying which, with its
        ``summary`` (replay_summary: its list entry's title) and, for one of a web match that these tokens
        played, the ``seat`` they played it from (None: imported, or a match of four bots they started)."""
        hashes = list(owner_hashes)
        r = WebReplay
        with self.sessions() as s:
            mine = set(s.scalars(select(WebReplayOwner.replay_id).where(
                WebReplayOwner.token_hash.in_(hashes)))) if hashes else set()
            rows = s.execute(select(r.id, r.room_code, r.imported, r.created_at, r.public, r.summary)
                             .where(or_(r.public, r.id.in_(mine)))
                             .order_by(r.created_at.desc(), r.id).limit(limit)).all()
            # the seat a token played: the room's row names each seat's token hash (the record does not)
            codes = sorted({row.room_code for row in rows if row.id in mine and row.room_code})
            rooms: dict[str, Any] = dict(s.execute(select(WebRoom.code, WebRoom.seats)
                                                  .where(WebRoom.code.in_(codes))).all()) if codes else {}
        held = set(hashes)

        def seat_of(code: str | None) -> int | None:
            seats = rooms.get(code) if code else None
            for i, seat in enumerate(seats if isinstance(seats, list) else []):
                if isinstance(seat, dict) and seat.get("kind") == "human" and seat.get("token_hash") in held:
                    return i
            return None

        return [{"id": row.id, "room": row.room_code, "imported": row.imported,
                 "created_at": _utc(row.created_at).isoformat(), "public": row.public, "mine": row.id in mine,
                 "seat": seat_of(row.room_code) if row.id in mine else None, "summary": row.summary} for row in rows]

    @_written
    def set_public(self, replay_id: str, owner_hash: str, public: bool) -> bool | None:
        """Mark a replay public or private again: True done, False the token owns no part of it, None no
        such replay."""
        with self.sessions.begin() as s:
            row = s.get(WebReplay, replay_id)
            if row is None:
                return None
            if s.get(WebReplayOwner, (replay_id, owner_hash)) is None:
                return False
            row.public = public
            return True

    # --- reviews (复盘) of replays: one per replay and seat ------------------------------------
    @_written
    def save_review(self, replay_id: str, seat: int, status: str, settings: dict[str, Any],
                    review: dict[str, Any] | None = None, error: str | None = None) -> None:
        """Create or update the review of ``seat`` in a replay."""
        with self.sessions.begin() as s:
            row = s.get(WebReview, (replay_id, seat))
            if row is None:
                row = WebReview(replay_id=replay_id, seat=seat, status=status, settings=settings)
                s.add(row)
            row.status, row.settings, row.review, row.error = status, settings, review, error

    @_after_writes
    def reviews(self, replay_id: str) -> list[WebReview]:
        """A replay's reviews, by seat."""
        with self.sessions() as s:
            rows = list(s.scalars(select(WebReview).where(WebReview.replay_id == replay_id).order_by(WebReview.seat)))
            s.expunge_all()
            return rows

    @_after_writes
    def unfinished_reviews(self) -> list[tuple[str, int]]:
        """The reviews asked for and not yet done (the server stopped meanwhile), oldest first."""
        with self.sessions() as s:
            rows = s.execute(select(WebReview.replay_id, WebReview.seat)
                             .where(WebReview.status.in_(("queued", "running")))
                             .order_by(WebReview.created_at, WebReview.replay_id, WebReview.seat)).all()
            return [(r[0], int(r[1])) for r in rows]
