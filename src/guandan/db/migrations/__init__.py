"""Alembic migrations of the shared database (script location ``guandan.db:migrations``)."""
