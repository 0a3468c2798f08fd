"""Engines and sessions. SQLite by default, in a file under the data directory."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

DB_FILE = "guandan.sqlite3"


def driver_problem(e: BaseException) -> str:
    """What a database error says, as its driver says it: the first line only (the rest is SQLAlchemy's
    background link and the statement), never a traceback."""
    text = str(getattr(e, "orig", None) or e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def data_dir() -> Path:
    """``$GUANDAN_DATA_DIR``, or ./data."""
    return Path(os.environ.get("GUANDAN_DATA_DIR") or "data")


def default_url() -> str:
    return f"sqlite:///{(data_dir() / DB_FILE).resolve()}"


def make_engine(url: str | None = None, **kwargs: Any) -> Engine:
    """An engine for ``url`` (default: :func:`default_url`).

    For SQLite the parent folder is created, foreign keys are enforced, and an in-memory database is shared
    by every session of the engine (otherwise each connection would see its own empty database).
    """
    u = make_url(url or default_url())
    if u.get_backend_name() == "sqlite":
        memory = u.database in (None, "", ":memory:")
        if memory:
            kwargs.setdefault("poolclass", StaticPool)
            kwargs.setdefault("connect_args", {"check_same_thread": False})
        elif u.database:
            Path(u.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            kwargs.setdefault("connect_args", {"check_same_thread": False, "timeout": 30})
    engine = create_engine(u, **kwargs)
    if u.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
