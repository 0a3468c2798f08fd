"""Persistence of rooms: one row per room, the append-only action log, replays. Synchronous and short:
each call is one small transaction, committed before the matching update is broadcast, so whatever a
client has seen survives a crash.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..db import make_session_factory
from .models import WebAction, WebReplay, WebRoom
from .rooms import Room


@dataclass
class StoredRoom:
    row: WebRoom
    actions: list[dict[str, Any]]


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = make_session_factory(engine)

    def save_room(self, room: Room) -> None:
        with self.sessions.begin() as s:
            row = s.get(WebRoom, room.code)
            if row is None:
                row = WebRoom(code=room.code, config=room.config.model_dump(), seed=room.seed, host_hash=room.host_hash,
                              seats=[], status=room.status)
                s.add(row)
            row.seats = [seat.to_store() for seat in room.seats]
            row.status = room.status
            row.replay_id = room.replay_id

    def append_action(self, room: Room, seq: int, action: dict[str, Any], *, room_changed: bool) -> None:
        """Log one action; also updates the room row when its status or seats changed with it. A Core
        insert, not the ORM: this runs once per action on the event loop, and the unit of work costs
        several times the insert itself."""
        with self.engine.begin() as conn:
            conn.execute(insert(WebAction), {"room_code": room.code, "seq": seq, "action": action,
                                             "created_at": datetime.now(UTC)})
            if room_changed:
                conn.execute(update(WebRoom).where(WebRoom.code == room.code).values(
                    seats=[seat.to_store() for seat in room.seats], status=room.status, replay_id=room.replay_id,
                    updated_at=datetime.now(UTC)))

    def live_rooms(self) -> Iterator[StoredRoom]:
        """Rooms still in the lobby or playing, each with its action log in order."""
        with self.sessions() as s:
            rows = s.scalars(select(WebRoom).where(WebRoom.status != "over")).all()
            for row in rows:
                acts = s.scalars(select(WebAction.action).where(WebAction.room_code == row.code)
                                 .order_by(WebAction.seq)).all()
                yield StoredRoom(row, list(acts))

    def room_row(self, code: str) -> StoredRoom | None:
        with self.sessions() as s:
            row = s.get(WebRoom, code)
            if row is None:
                return None
            acts = s.scalars(select(WebAction.action).where(WebAction.room_code == code).order_by(WebAction.seq)).all()
            return StoredRoom(row, list(acts))

    def code_taken(self, code: str) -> bool:
        with self.sessions() as s:
            return s.get(WebRoom, code) is not None

    def save_replay(self, replay_id: str, record: str, room_code: str | None, *, imported: bool = False) -> None:
        with self.sessions.begin() as s:
            s.add(WebReplay(id=replay_id, room_code=room_code, record=record, imported=imported))

    def replay(self, replay_id: str) -> str | None:
        with self.sessions() as s:
            row = s.get(WebReplay, replay_id)
            return row.record if row else None

    def replays(self, limit: int = 50) -> list[dict[str, Any]]:
        with self.sessions() as s:
            rows = s.scalars(select(WebReplay).order_by(WebReplay.created_at.desc()).limit(limit)).all()
            return [{"id": r.id, "room": r.room_code, "imported": r.imported, "created_at": r.created_at.isoformat()}
                    for r in rows]
