"""Alembic environment: uses the connection handed over by ``upgrade_to_head``, else makes an engine."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from guandan.db import models  # noqa: F401  (fills Base.metadata with every table: autogenerate sees them all)
from guandan.db.base import Base
from guandan.db.engine import make_engine

config = context.config
target_metadata = Base.metadata


def _url() -> str | None:
    return context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
    else:
        with make_engine(_url()).begin() as conn:
            _run(conn)
