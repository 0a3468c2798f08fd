"""Persistence on SQLite and on a real PostgreSQL server: a table is rebuilt from its append-only action
log when the app starts again, exactly where it was; the log refuses updates and deletes."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from guandan.db import make_engine
from guandan.server.app import create_app
from guandan.server.table import Settings

from .conftest import join, new_room
from .test_ws import act_frame, my_turn, recv_until

pytestmark = pytest.mark.timeout(90)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'web.sqlite3'}"
        return
    server: str = request.getfixturevalue("postgres_url")
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def play_until(ws: Any, target_seq: int) -> dict[str, Any]:
    """Seat 0 plays its first legal action at each turn until the table has passed ``target_seq``."""
    while True:
        f = recv_until(ws, my_turn(0))
        if f["seq"] >= target_seq:
            return dict(f)
        ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))


def test_a_table_resumes_exactly_after_a_restart(db_url: str) -> None:
    settings = Settings(bot_delay_ms=0, next_deal_s=0)
    with TestClient(create_app(db_url, settings)) as c:
        code = new_room(c, bots=[None, "greedy", "greedy", "greedy"], seed=21)
        tok = join(c, code, 0)
        with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
            assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
            before = play_until(ws, 12)
        host_view = before["view"]
    # a new process: nothing in memory, everything from the database
    with TestClient(create_app(db_url, settings)) as c:
        room = c.get(f"/api/rooms/{code}").json()
        assert room["status"] == "playing" and room["seq"] == before["seq"]
        with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
            assert ws.receive_json()["type"] == "welcome"
            snap = ws.receive_json()
            assert snap["type"] == "snapshot" and snap["seq"] == before["seq"]
            view = snap["view"]
            for key in ("hand", "legal", "to_move", "top", "finish", "levels", "phase"):
                assert view[key] == host_view[key], key
            # finish the deal on the restored table, starting from the snapshot's turn
            ws.send_json(act_frame(view["legal"][0], snap["seq"]))
            while True:
                f = recv_until(ws, lambda g: my_turn(0)(g) or (g["type"] == "room" and g["room"]["status"] == "over"))
                if f["type"] == "room":
                    break
                ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
        final = c.get(f"/api/rooms/{code}", params={"token": tok}).json()
        frames = c.get(f"/api/replays/{final['replay_id']}").json()
        assert len(frames["deals"][0]["steps"]) == final["seq"] + 1  # every action of both runs is in the record


def test_the_action_log_is_append_only(db_url: str) -> None:
    with TestClient(create_app(db_url, Settings(bot_delay_ms=0, next_deal_s=0))) as c:
        code = new_room(c, bots=["greedy"] * 4)
        room = c.get(f"/api/rooms/{code}").json()
        assert room["status"] == "lobby"
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO web_actions (room_code, seq, action, created_at) "
                              "VALUES (:c, 1, '{}', CURRENT_TIMESTAMP)"), {"c": code})
        for sql in ("UPDATE web_actions SET seq = 2", "DELETE FROM web_actions"):
            with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
                conn.execute(text(sql))
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM web_actions")).scalar() == 1
    finally:
        engine.dispose()


def test_the_migrations_build_exactly_the_declared_tables(db_url: str) -> None:
    """Alembic autogenerate against a freshly migrated database proposes nothing: the hand-written
    migrations and the SQLAlchemy models (tournament and web tables) agree, on both databases."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from guandan.db import models  # noqa: F401
    from guandan.db.base import Base
    from guandan.db.migrate import upgrade_to_head
    from guandan.server import models as web_models  # noqa: F401

    engine = make_engine(db_url)
    try:
        upgrade_to_head(engine)
        with engine.connect() as c:
            diff = compare_metadata(MigrationContext.configure(c), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []
    assert {"web_rooms", "web_actions"} <= set(Base.metadata.tables)
