"""The shared database package: engines, migrations, and the models matching the migrations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Table, inspect

from guandan.db import Base, alembic_config, current_revision, default_url, make_engine, upgrade_to_head
from guandan.db import models as _models  # noqa: F401


def _head() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _table_of(item: Any) -> str:
    """The table an autogenerate difference is about."""
    obj = item[0] if isinstance(item, list) else item
    for part in obj[1:]:
        if isinstance(part, Table):
            return str(part.name)
        if isinstance(part, str):
            return part
        table = getattr(part, "table", None)
        if table is not None:
            return str(table.name)
    return "?"


def test_default_database_lives_in_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUANDAN_DATA_DIR", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{(tmp_path / 'data' / 'guandan.sqlite3').resolve()}"
    engine = make_engine()
    upgrade_to_head(engine)
    assert (tmp_path / "data" / "guandan.sqlite3").exists()
    assert current_revision(engine) == _head()
    engine.dispose()


def test_migrations_match_the_models_and_downgrade() -> None:
    engine = make_engine("sqlite://")
    upgrade_to_head(engine)
    upgrade_to_head(engine)  # idempotent
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    # Other subsystems' tables are theirs to check; the tournament tables must match exactly.
    mine = [d for d in diff if _table_of(d).startswith("tournament")]
    assert mine == [], f"models and migrations differ: {mine}"
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "base")
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    upgrade_to_head(engine)
    assert {"tournaments", "tournament_events", "tournament_standings"} <= set(inspect(engine).get_table_names())
