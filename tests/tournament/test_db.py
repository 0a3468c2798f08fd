"""The shared database package: engines, migrations, and the models matching the migrations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Table, inspect, text

from guandan.db import Base, alembic_config, current_revision, default_url, make_engine, migrate, upgrade_to_head
from guandan.db import models as _models  # noqa: F401
from guandan.db.migrate import SchemaTooNew, head_revision


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


def test_the_newest_revision_read_from_the_files_is_alembics() -> None:
    """A database already at it opens without loading Alembic (tests/test_cli_startup.py): the two must agree."""
    assert head_revision() == _head()


def test_an_older_database_is_still_upgraded_and_a_newer_one_refused(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0009_tournament_people")
    upgrade_to_head(engine)
    assert current_revision(engine) == _head()
    assert "users" in inspect(engine).get_table_names()
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099_from_the_future'"))
    with pytest.raises(SchemaTooNew, match="0099_from_the_future"):
        upgrade_to_head(engine)
    engine.dispose()


def _migration(folder: Path, name: str, revision: str, down: str | None) -> None:
    (folder / f"{name}.py").write_text(f'"""A migration."""\n\nrevision: str = "{revision}"\n'
                                       f"down_revision: str | None = {down!r}\n", encoding="utf-8")


@pytest.mark.parametrize("case", ["branch", "unreadable", "none"])
def test_migration_files_that_are_not_one_line_leave_the_head_to_alembic(
        case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _migration(tmp_path, "0001_a", "a", None)
    _migration(tmp_path, "0002_b", "b", "a")
    monkeypatch.setattr(migrate, "VERSIONS", tmp_path)
    head_revision.cache_clear()
    try:
        assert head_revision() == "b"
        if case == "branch":
            _migration(tmp_path, "0003_c", "c", "a")  # b and c both follow a: two heads
        elif case == "unreadable":
            (tmp_path / "0003_c.py").write_text('revision = make_id()\ndown_revision = "b"\n', encoding="utf-8")
        else:
            for f in tmp_path.glob("*.py"):
                f.unlink()
        head_revision.cache_clear()
        assert head_revision() is None
    finally:
        head_revision.cache_clear()
