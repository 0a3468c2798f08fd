"""Alembic, run from code: the migrations live in this package (``guandan.db:migrations``)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import GuandanError
from ..i18n import N_

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from sqlalchemy import Engine

# Alembic is imported inside the functions: it takes a large part of a second to load, which the commands
# that import this package only for its URLs and models (and every command's --help) need not pay, nor a
# command that opens a database already at the newest schema (:func:`head_revision`).

SCRIPT_LOCATION = "guandan.db:migrations"
VERSIONS = Path(__file__).resolve().parent / "migrations" / "versions"

_REVISION = re.compile(r"^revision\s*(?::[^=\n]*)?=\s*[\"']([^\"'\n]+)[\"']\s*$", re.MULTILINE)
_DOWN_REVISION = re.compile(r"^down_revision\s*(?::[^=\n]*)?=\s*(?:None|[\"']([^\"'\n]+)[\"'])\s*$", re.MULTILINE)


class SchemaTooNew(GuandanError):
    """A database whose schema a newer version of guandan wrote: this one knows no way to it (nor back)."""


def alembic_config(url: str | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", SCRIPT_LOCATION)
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade_to_head(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest schema (a no-op when it is there already: then without
    loading Alembic, where the migration files make one plain line, :func:`head_revision`)."""
    head = head_revision()
    if head is not None and _stored_revision(engine) == head:
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    cfg = alembic_config()
    script = ScriptDirectory.from_config(cfg)
    current = current_revision(engine)
    if current == script.get_current_head():
        return
    check_known(current, script)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@functools.cache
def head_revision() -> str | None:
    """The newest migration's revision, read from the migration files' own ``revision`` and ``down_revision``
    lines. None (Alembic then reads them itself) unless each file names one of each and together they make one
    unbranched line from the first migration, as they always have here."""
    files = [f for f in VERSIONS.glob("*.py") if f.name != "__init__.py"]
    revisions: set[str] = set()
    downs: set[str] = set()  # "" for the first migration's None
    for f in files:
        text = f.read_text(encoding="utf-8")
        revision, down = _REVISION.findall(text), _DOWN_REVISION.findall(text)
        if len(revision) != 1 or len(down) != 1:
            return None
        revisions.add(revision[0])
        downs.add(down[0])
    if not files or len(revisions) != len(files) or len(downs) != len(files) or "" not in downs \
            or not downs - {""} <= revisions:
        return None
    (head,) = revisions - downs  # n revisions, n-1 of them named as the one before another: one is newest
    return head


def _stored_revision(engine: Engine) -> str | None:
    """The one revision the database's version table holds, read as Alembic reads it; None without that table
    or with more or fewer rows than one."""
    from sqlalchemy import inspect, text

    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        rows = list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    return rows[0] if len(rows) == 1 else None


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def check_known(revision: str | None, script: ScriptDirectory | None = None) -> None:
    """Raise :class:`SchemaTooNew` when ``revision`` is none of this version's migrations (a database or a
    backup that a newer version wrote, which Alembic could neither upgrade nor read)."""
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

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
