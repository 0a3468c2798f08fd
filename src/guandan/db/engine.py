"""Engines and sessions. SQLite by default, in a file under the data directory."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from ..core.errors import GuandanError, shown
from ..i18n import N_

DB_FILE = "guandan.sqlite3"
# the URL to write for each database this program runs on, with the driver it is installed with
BACKENDS = {"sqlite": "sqlite:///…", "postgresql": "postgresql+psycopg://…"}


class DatabaseUrlError(GuandanError, ValueError):
    """A database URL that cannot be used here (not a URL, a database other than SQLite and PostgreSQL, a
    driver that is not installed); the message names the problem."""


def checked_url(url: str) -> URL:
    """``url`` as SQLAlchemy reads it, when it names a SQLite or PostgreSQL database whose driver is
    installed here; else a :class:`DatabaseUrlError` naming the problem, before any connection is tried."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise DatabaseUrlError.said(N_("--db {url} is not a database URL (e.g. sqlite:///data/guandan.sqlite3 or "
                                       "postgresql+psycopg://user@host/dbname)"), url=shown(url)) from None
    backend = u.get_backend_name()
    if backend == "postgres":  # the short scheme other tools accept, which SQLAlchemy does not
        raise DatabaseUrlError.said(N_("--db {url}: write postgresql+psycopg://… (postgres:// is not read)"),
                                    url=shown(u.render_as_string()))
    if backend not in BACKENDS:
        raise DatabaseUrlError.said(N_("--db {url}: only SQLite and PostgreSQL databases are supported"),
                                    url=shown(u.render_as_string()))
    try:
        u.get_dialect().import_dbapi()
    except (ArgumentError, ImportError):  # a driver SQLAlchemy does not know (NoSuchModuleError), or not installed
        raise DatabaseUrlError.said(N_("--db {url}: the driver {driver} is not installed here (write {example})"),
                                    url=shown(u.render_as_string()), driver=shown(u.get_driver_name()),
                                    example=BACKENDS[backend]) from None
    return u


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
