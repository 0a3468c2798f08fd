"""Imports every module that declares tables, so that ``Base.metadata`` is complete (Alembic autogenerate).

A subsystem that adds tables declares them in a module of this package, adds that module here and
writes a migration in ``migrations/versions``. ``guandan.db`` imports nothing of the subsystems that
use its tables (the tournament desk, the web server): the import-linter contracts in pyproject.toml
check that.
"""

from __future__ import annotations

from . import accounts, online, ratings, tournament, web  # noqa: F401
