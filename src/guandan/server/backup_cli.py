"""`guandan backup OUT` and `guandan restore IN`: a copy of the server's database (SQLite or
PostgreSQL) and its return (guandan/db/backup.py does the work). `guandan reset-password NAME`: the site's
operator gives an account whose owner forgot the password a new one (the site keeps no e-mail address).
`guandan organiser grant NAME` / `revoke NAME`: the operator lets an account create online events on the site,
or stops it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..cliutil import Messages, fail, said

if TYPE_CHECKING:
    from sqlalchemy import Engine

_ = Messages("cli").gettext

DbOpt = Annotated[str | None, typer.Option(
    "--db", metavar="URL", envvar="GUANDAN_DB_URL",
    help="database URL, as for `guandan serve` (default: SQLite in the data directory)")]
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


def _accounts_engine(db: str | None, data: Path | None) -> Engine:
    """The server's database, as ``guandan serve`` finds it, brought to the newest schema (what the server does
    at its start: an older database gets the accounts' tables and columns); refused when it is not there."""
    from sqlalchemy.engine import make_url  # here: SQLAlchemy loads only for these commands
    from sqlalchemy.exc import ArgumentError

    from ..db import default_url, make_engine, upgrade_to_head

    _default_data(data)
    url = db or default_url()
    try:
        parsed = make_url(url)
    except ArgumentError:
        fail(_("--db {url} is not a database URL (e.g. sqlite:///data/guandan.sqlite3 or "
               "postgresql+psycopg://user@host/dbname)").format(url=url))
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:") and \
            not Path(parsed.database).expanduser().exists():
        fail(_("no database at {path}: name the server's with --db or --data, as for `guandan serve`").format(
            path=parsed.database))
    engine = make_engine(url)
    try:
        upgrade_to_head(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine


def reset_password_cmd(
    username: Annotated[str, typer.Argument(metavar="NAME", help="the account's username")],
    db: DbOpt = None,
    data: DataOpt = None,
) -> None:
    """Give an account a new password when its owner has forgotten theirs: a random one, printed once, which
    the owner logs in with and then changes; every session of the account ends."""
    from .accounts_service import AccountService

    engine = _accounts_engine(db, data)
    try:
        password = AccountService(engine).reset_password(username)
    finally:
        engine.dispose()
    if password is None:
        fail(_("there is no account called {name}").format(name=username), 1)
    typer.echo(_("new password of {name}: {password}").format(name=username, password=password))
    typer.echo(_("Every session of the account has ended. Give the password to its owner, who logs in with it "
                 "and chooses another on the account page."), err=True)


organiser_app = typer.Typer(help="Organisers: the accounts that may create online events from the site's pages.",
                            no_args_is_help=True, pretty_exceptions_enable=False)
NameArg = Annotated[str, typer.Argument(metavar="NAME", help="the account's username")]


def _set_organiser(username: str, on: bool, db: str | None, data: Path | None) -> bool:
    from .accounts_service import AccountService

    engine = _accounts_engine(db, data)
    try:
        was = AccountService(engine).set_organiser(username, on)
    finally:
        engine.dispose()
    if was is None:
        fail(_("there is no account called {name}").format(name=username), 1)
    return was


@organiser_app.command("grant")
def organiser_grant(username: NameArg, db: DbOpt = None, data: DataOpt = None) -> None:
    """Make an account an organiser: its owner may create online events on the site (the events list's New event)."""
    was = _set_organiser(username, True, db, data)
    typer.echo((_("{name} is an organiser already") if was else
                _("{name} is now an organiser: they can create online events on the site")).format(name=username))


@organiser_app.command("revoke")
def organiser_revoke(username: NameArg, db: DbOpt = None, data: DataOpt = None) -> None:
    """Take the organiser permission away: the account creates no more events (those it made go on)."""
    was = _set_organiser(username, False, db, data)
    typer.echo((_("{name} is no longer an organiser") if was else
                _("{name} was not an organiser")).format(name=username))


def mount(app: typer.Typer) -> None:
    app.command("backup")(backup_cmd)
    app.command("restore")(restore_cmd)
    app.command("reset-password")(reset_password_cmd)
    app.add_typer(organiser_app, name="organiser")
