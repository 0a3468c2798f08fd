"""The project's database package: one declarative ``Base``, engines, sessions and Alembic migrations.

* ``make_engine(url)``: SQLite under ``$GUANDAN_DATA_DIR`` (default ./data) unless a URL is given.
* ``make_session_factory(engine)``: a ``sessionmaker`` for it.
* ``upgrade_to_head(engine)``: applies the migrations kept in ``guandan/db/migrations`` (script location
  ``guandan.db:migrations``).

To add tables: declare them on :class:`Base` in a new module of this package, import that module in
``models.py``, then write a migration on top of the current head, e.g.
``alembic -c src/guandan/db/alembic.ini -x url=sqlite:///data/dev.sqlite3 revision --autogenerate -m "..."``.
"""

from __future__ import annotations

from .base import Base
from .engine import data_dir, default_url, make_engine, make_session_factory
from .migrate import SCRIPT_LOCATION, alembic_config, current_revision, upgrade_to_head

__all__ = [
    "SCRIPT_LOCATION", "Base", "alembic_config", "current_revision", "data_dir", "default_url", "make_engine",
    "make_session_factory", "upgrade_to_head",
]
