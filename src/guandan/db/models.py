"""Imports every module that declares tables, so that ``Base.metadata`` is complete (Alembic autogenerate).

A subsystem that adds tables adds its module here and a migration in ``migrations/versions``; the web
app's tables (``guandan.server.models``) are imported by the migration environment instead, since
``guandan.db`` must not depend on the server.
"""

from __future__ import annotations

from . import tournament  # noqa: F401
