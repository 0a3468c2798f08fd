"""`guandan backup OUT` and `guandan restore IN`: a copy of the server's database (SQLite or
PostgreSQL) and its return (guandan/db/backup.py does the work)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from ..cliutil import Messages, fail, said

_ = Messages("cli").gettext

DbOpt = Annotated[str | None, typer.Option(
    "--db", metavar="URL", help="database URL, as for `guandan serve` (default: SQLite in the data directory)")]
DataOpt = Annotated[Path | None, typer.Option(help="data directory of the default SQLite database, as for "
                                                   "`guandan serve` (default: $GUANDAN_DATA_DIR, else ./data)")]


def _default_data(data: Path | None) -> None:
    if data is not None:
        os.environ["GUANDAN_DATA_DIR"] = str(data)


def backup_cmd(
    out: Annotated[Path, typer.Argument(metavar="OUT", help="the backup file to write")],
    db: DbOpt = None,
    data: DataOpt = None,
    force: Annotated[bool, typer.Option("--force", help="replace OUT if it exists")] = False,
) -> None:
    """Back up the database while the server runs: a checked copy of a SQLite file, or a pg_dump archive."""
    from ..db.backup import BackupError, BackupFailed, backup  # here: SQLAlchemy loads only for this command

    _default_data(data)
    try:
        done = backup(db, out, force)
    except BackupError as e:
        fail(said(e), 1 if isinstance(e, BackupFailed) else 2)  # 2: refused, nothing done
    if done.revision:
        typer.echo(_("backed up to {path} ({kind}, {size} bytes, schema {revision})").format(
            path=done.path, kind=done.kind, size=f"{done.size:,}", revision=done.revision))
    else:
        typer.echo(_("backed up to {path} ({kind}, {size} bytes, no schema)").format(
            path=done.path, kind=done.kind, size=f"{done.size:,}"))


def restore_cmd(
    backup_file: Annotated[Path, typer.Argument(metavar="IN", help="a file `guandan backup` wrote")],
    db: DbOpt = None,
    data: DataOpt = None,
    force: Annotated[bool, typer.Option("--force", help="replace the guandan tables the target database holds")] = False,
) -> None:
    """Restore a backup into a database (stop the server first), then bring its schema up to this version."""
    from ..db.backup import BackupError, BackupFailed, restore

    _default_data(data)
    try:
        done = restore(backup_file, db, force)
    except BackupError as e:
        fail(said(e), 1 if isinstance(e, BackupFailed) else 2)  # 2: refused, nothing done
    if done.revision:
        typer.echo(_("restored {path} ({kind}); the schema is at {revision}").format(
            path=done.path, kind=done.kind, revision=done.revision))
    else:
        typer.echo(_("restored {path} ({kind})").format(path=done.path, kind=done.kind))


def mount(app: typer.Typer) -> None:
    app.command("backup")(backup_cmd)
    app.command("restore")(restore_cmd)
