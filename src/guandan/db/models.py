"""Imports every module that declares tables, so that ``Base.metadata`` is complete (Alembic autogenerate).

A subsystem that adds tables adds its module here and a migration in ``migrations/versions``.
"""

from __future__ import annotations

from . import tournament  # noqa: F401
