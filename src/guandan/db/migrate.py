"""Alembic, run from code: the migrations live in this package (``guandan.db:migrations``)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Engine

from ..core.errors import GuandanError
from ..i18n import N_

SCRIPT_LOCATION = "guandan.db:migrations"


class SchemaTooNew(GuandanError):
    """A database whose schema a newer version of guandan wrote: this one knows no way to it (nor back)."""


def alembic_config(url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", SCRIPT_LOCATION)
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade_to_head(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest schema (a no-op when it is there already)."""
    cfg = alembic_config()
    script = ScriptDirectory.from_config(cfg)
    current = current_revision(engine)
    if current == script.get_current_head():
        return
    check_known(current, script)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def check_known(revision: str | None, script: ScriptDirectory | None = None) -> None:
    """Raise :class:`SchemaTooNew` when ``revision`` is none of this version's migrations (a database or a
    backup that a newer version wrote, which Alembic could neither upgrade nor read)."""
    script = script or ScriptDirectory.from_config(alembic_config())
    if revision is None:
        return
    try:
        script.get_revision(revision)
    except CommandError:
        raise SchemaTooNew.said(N_("its schema is {revision}, which this version of guandan does not know (its newest "
                                   "is {head}): a newer version wrote it; run that version, or restore a backup "
                                   "taken before the upgrade"), revision=revision,
                                head=script.get_current_head()) from None
