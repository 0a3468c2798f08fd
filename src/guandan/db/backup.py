"""Backups of a guandan database and their restore (``guandan backup`` / ``guandan restore``).

* SQLite: sqlite3's online backup API, which copies a consistent snapshot while a server keeps writing
  (WAL mode lets it read beside the writer); the copy is checked with ``PRAGMA integrity_check``, written
  to a temporary name beside the output and renamed into place, so the output is never half-written.
  Restoring goes through the same API into the target, in one transaction.
* PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore --clean --if-exists --no-owner
  --single-transaction``, found on PATH or under /usr/lib/postgresql/*/bin; the password goes to them in
  the environment (PGPASSWORD), never on the command line.

A restore refuses a target that already holds guandan tables unless told to replace them (``force``),
refuses a file of the other kind (a SQLite file into PostgreSQL, a dump into SQLite, anything else), and
migrates the restored schema to head, so an older backup comes up on a newer version. Every refusal and
failure is a :class:`BackupError` that says what is wrong; the refusals are decided before anything is
written, and a failed copy leaves the target as it was (a transaction, or a temporary file removed).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy import inspect
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from ..core.errors import GuandanError
from ..i18n import N_
from ..i18n.reasons import os_reason
from .base import Base
from .engine import DatabaseUrlError, checked_url, default_url, driver_problem, make_engine
from .migrate import SchemaTooNew, check_known, current_revision, upgrade_to_head

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"  # the first bytes of a pg_dump custom-format archive
Kind = Literal["sqlite", "pg_dump"]
TOOL_TIMEOUT_S = 3600.0


class BackupError(GuandanError):
    """A backup or restore that was refused (bad input: nothing was done); the message names the problem."""


class BackupFailed(BackupError):
    """A backup or restore that was tried and failed (a tool, the copy or the migration)."""


@dataclass(frozen=True)
class Done:
    """What a backup wrote or a restore read: the file, its kind, its size and the schema revision."""

    path: Path
    kind: Kind
    size: int
    revision: str | None


def guandan_tables() -> frozenset[str]:
    """The tables a guandan database holds (every subsystem's, and Alembic's own)."""
    from . import models  # noqa: F401  # here: declares every table on Base.metadata

    return frozenset(Base.metadata.tables) | {"alembic_version"}


# --- the database URL -----------------------------------------------------------------------------------
def parse_url(url: str | None) -> URL:
    try:
        u = checked_url(url or default_url())
    except DatabaseUrlError as e:
        raise BackupError.said(e.msgid or str(e), **e.params) from None
    if u.get_backend_name() == "sqlite" and u.database in (None, "", ":memory:"):
        raise BackupError.said(N_("--db names an in-memory SQLite database: there is no file to back up or "
                                  "restore into"))
    return u


def sqlite_path(u: URL) -> Path:
    assert u.database is not None
    return Path(u.database).expanduser()


def libpq(u: URL) -> tuple[str, dict[str, str]]:
    """The libpq connection URI of a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://…``), without its
    password, and the environment that carries the password to pg_dump and pg_restore."""
    env = dict(os.environ)
    if u.password is not None:
        env["PGPASSWORD"] = str(u.password)
    # built anew: URL.set(password=None) leaves the password as it was
    plain = URL.create("postgresql", username=u.username, host=u.host, port=u.port, database=u.database,
                       query=u.query)
    return plain.render_as_string(hide_password=False), env


def file_kind(path: Path) -> Kind | None:
    """What a backup file is, by its first bytes: a SQLite database, a pg_dump custom archive, or neither."""
    with path.open("rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "pg_dump"
    return None


# --- PostgreSQL's tools ------------------------------------------------------------------------------------
def pg_tool(name: str) -> Path:
    """``pg_dump`` or ``pg_restore``: on PATH, else the newest under /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return Path(found)
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=_version_key)
    if candidates:
        return Path(candidates[-1])
    raise BackupError.said(N_("{tool} is not installed (neither on PATH nor under /usr/lib/postgresql/*/bin): "
                              "install PostgreSQL's client tools, e.g. apt-get install postgresql-client"), tool=name)


def _version_key(path: str) -> tuple[int, ...]:
    version = Path(path).parent.parent.name
    return tuple(int(p) for p in version.split(".") if p.isdigit())


def _step(msgid: str, /, **params: object) -> GuandanError:
    """A step of the work, for a failure to name in the reader's language (an error said inside another)."""
    return GuandanError.said(msgid, **params)


def _run_tool(cmd: list[str], env: dict[str, str], what: GuandanError) -> None:
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=TOOL_TIMEOUT_S)
    except OSError as e:
        raise BackupFailed.said(N_("{tool} could not be run: {reason}"), tool=Path(cmd[0]).name,
                                reason=os_reason(e)) from None
    except subprocess.TimeoutExpired:
        raise BackupFailed.said(N_("{step}: {tool} took longer than {seconds} s and was stopped"), step=what,
                                tool=Path(cmd[0]).name, seconds=f"{TOOL_TIMEOUT_S:g}") from None
    if r.returncode != 0:
        output = (r.stderr or r.stdout).strip()
        if not output:
            raise BackupFailed.said(N_("{step}: {tool} failed with exit status {status}"), step=what,
                                    tool=Path(cmd[0]).name, status=r.returncode)
        raise BackupFailed.said(N_("{step}: {tool} failed: {output}"), step=what, tool=Path(cmd[0]).name,
                                output=output)


# --- the output file ---------------------------------------------------------------------------------------
def _check_output(out: Path, force: bool) -> None:
    if out.is_dir():
        raise BackupError.said(N_("{path} is a folder: name the backup file to write"), path=out)
    if not out.parent.is_dir():
        raise BackupError.said(N_("the folder {folder} does not exist: create it first"), folder=out.parent)
    if out.exists() and not force:
        raise BackupError.said(N_("{path} exists already: choose another name, or --force to replace it"), path=out)


@contextlib.contextmanager
def _temporary_beside(out: Path) -> Iterator[Path]:
    """A name in the output's folder to write to (renamed into place at the end); removed if that fails."""
    tmp = out.with_name(f".{out.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        yield tmp
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _publish(tmp: Path, out: Path) -> None:
    """Rename the written file into place, after it and then its folder are on disk."""
    with tmp.open("rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, out)
    with contextlib.suppress(OSError):  # not every filesystem lets a folder be opened to fsync it
        fd = os.open(out.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- SQLite -----------------------------------------------------------------------------------------------
def _sqlite_tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _sqlite_check(conn: sqlite3.Connection, where: Path) -> str | None:
    """Fails unless the database is sound and holds a guandan schema; its revision."""
    verdict = [r[0] for r in conn.execute("PRAGMA integrity_check")]
    if verdict != ["ok"]:
        raise BackupError.said(N_("{path} fails SQLite's integrity check: {verdict}"), path=where,
                               verdict="; ".join(verdict[:5]))
    if "alembic_version" not in _sqlite_tables(conn):
        raise BackupError.said(N_("{path} is a SQLite database but not a guandan one (it has no alembic_version "
                                  "table)"), path=where)
    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return str(row[0]) if row else None


def _open_existing(path: Path, mode: str = "rw") -> sqlite3.Connection:
    try:
        # rw or ro: an existing file only (a missing one is not created)
        return sqlite3.connect(f"file:{path.resolve()}?mode={mode}", uri=True, timeout=30)
    except sqlite3.Error as e:
        raise BackupError.said(N_("cannot open the SQLite database {path}: {reason}"), path=path, reason=str(e)) from None


def _backup_sqlite(src_path: Path, out: Path) -> Done:
    if not src_path.is_file():
        raise BackupError.said(N_("there is no SQLite database at {path}"), path=src_path)
    if file_kind(src_path) != "sqlite":
        raise BackupError.said(N_("{path} is not a SQLite database"), path=src_path)
    with _temporary_beside(out) as tmp:
        src = _open_existing(src_path)
        try:
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)  # one step: a consistent snapshot even while a server writes (WAL)
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
                revision = _sqlite_check(dst, src_path)
            finally:
                dst.close()
        except sqlite3.Error as e:
            raise BackupFailed.said(N_("the backup of {path} failed: {reason}"), path=src_path, reason=str(e)) from None
        finally:
            src.close()
        _publish(tmp, out)
    return Done(out, "sqlite", out.stat().st_size, revision)


def _restore_sqlite(backup_file: Path, target: Path, force: bool) -> Done:
    if target.is_dir():
        raise BackupError.said(N_("--db names {path}, which is a folder"), path=target)
    src = _open_existing(backup_file, "ro")
    try:
        try:
            revision = _sqlite_check(src, backup_file)
        except sqlite3.Error as e:
            raise BackupError.said(N_("{path} cannot be read as a SQLite database: {reason}"), path=backup_file,
                                   reason=str(e)) from None
        _check_revision(backup_file, revision)
        existed = target.exists()
        if existed:
            dst = _open_existing(target)
            try:
                held = _sqlite_tables(dst) & guandan_tables()
            except sqlite3.Error as e:
                dst.close()
                raise BackupError.said(N_("{path} cannot be read as a SQLite database: {reason}"), path=target,
                                       reason=str(e)) from None
            if held and not force:
                dst.close()
                raise BackupError.said(N_("{target} already holds a guandan database ({n} tables): stop the server "
                                          "and use --force to replace it with the backup"), target=target, n=len(held))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # replaces the target's content in one transaction (its WAL included)
        except sqlite3.Error as e:
            raise BackupFailed.said(N_("restoring into {target} failed: {reason}"), target=target, reason=str(e)) from None
        finally:
            dst.close()
            if not existed and not _has_tables(target):
                target.unlink(missing_ok=True)  # nothing was restored: leave no empty file behind
    finally:
        src.close()
    return Done(backup_file, "sqlite", backup_file.stat().st_size, revision)


def _has_tables(path: Path) -> bool:
    if not path.exists():
        return False
    conn = sqlite3.connect(path)
    try:
        return bool(_sqlite_tables(conn))
    except sqlite3.Error:
        return False
    finally:
        conn.close()


# --- PostgreSQL ---------------------------------------------------------------------------------------------
def _pg_tables(u: URL) -> set[str]:
    engine = make_engine(u.render_as_string(hide_password=False))
    try:
        return set(inspect(engine).get_table_names())
    except SQLAlchemyError as e:
        raise BackupError.said(N_("cannot connect to {url}: {reason}"), url=u.render_as_string(),
                               reason=driver_problem(e)) from None
    finally:
        engine.dispose()


def _backup_pg(u: URL, out: Path) -> Done:
    tool = pg_tool("pg_dump")
    if "alembic_version" not in _pg_tables(u):
        raise BackupError.said(N_("{url} holds no guandan database (it has no alembic_version table)"),
                               url=u.render_as_string())
    uri, env = libpq(u)
    with _temporary_beside(out) as tmp:
        _run_tool([str(tool), "--format=custom", f"--file={tmp}", f"--dbname={uri}"], env,
                  _step(N_("the backup of {url}"), url=u.render_as_string()))
        if not tmp.is_file() or file_kind(tmp) != "pg_dump":
            raise BackupFailed.said(N_("pg_dump wrote no custom-format archive for {url}"), url=u.render_as_string())
        _run_tool([str(pg_tool("pg_restore")), "--list", str(tmp)], env, _step(N_("the check of the dump")))  # it reads back
        _publish(tmp, out)
    return Done(out, "pg_dump", out.stat().st_size, _revision(u))


def _restore_pg(backup_file: Path, u: URL, force: bool) -> Done:
    tool = pg_tool("pg_restore")
    uri, env = libpq(u)
    # a readable archive first
    _run_tool([str(tool), "--list", str(backup_file)], env, _step(N_("reading {path}"), path=backup_file))
    _check_revision(backup_file, _dump_revision(tool, backup_file, env))
    held = _pg_tables(u) & guandan_tables()
    if held and not force:
        raise BackupError.said(N_("{target} already holds a guandan database ({n} tables): stop the server "
                                  "and use --force to replace it with the backup"), target=u.render_as_string(),
                               n=len(held))
    _run_tool([str(tool), "--clean", "--if-exists", "--no-owner", "--single-transaction", f"--dbname={uri}",
               str(backup_file)], env, _step(N_("restoring into {url}"), url=u.render_as_string()))
    return Done(backup_file, "pg_dump", backup_file.stat().st_size, None)


def _dump_revision(tool: Path, backup_file: Path, env: dict[str, str]) -> str | None:
    """The schema revision a pg_dump archive holds (its alembic_version row), or None if it holds none."""
    try:
        r = subprocess.run([str(tool), "--data-only", "--table=alembic_version", "--file=-", str(backup_file)],
                           env=env, capture_output=True, text=True, timeout=TOOL_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = r.stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("COPY ") and "alembic_version" in line and i + 1 < len(lines) and lines[i + 1] != "\\.":
            return lines[i + 1].strip()
    return None


def _check_revision(backup_file: Path, revision: str | None) -> None:
    """Refuse, before anything is written, a backup whose schema a newer version of guandan wrote."""
    try:
        check_known(revision)
    except SchemaTooNew as e:
        raise BackupError.said(N_("{path} cannot be restored by this version: {problem}"), path=backup_file,
                               problem=e) from None


def _revision(u: URL) -> str | None:
    engine = make_engine(u.render_as_string(hide_password=False))
    try:
        return current_revision(engine)
    finally:
        engine.dispose()


# --- the commands' work -------------------------------------------------------------------------------------
def backup(url: str | None, out: Path, force: bool = False) -> Done:
    """Write a backup of the database at ``url`` (default: the server's) to ``out``: a SQLite file or a
    pg_dump custom archive. ``force``: replace an existing ``out``."""
    u = parse_url(url)
    _check_output(out, force)
    if u.get_backend_name() == "sqlite":
        return _backup_sqlite(sqlite_path(u), out)
    return _backup_pg(u, out)


def restore(backup_file: Path, url: str | None, force: bool = False) -> Done:
    """Restore ``backup_file`` into the database at ``url`` (default: the server's), then migrate it to the
    newest schema. ``force``: replace the guandan tables the target holds. Stop the server first: a
    running one keeps its tables in memory and would write over what was restored."""
    u = parse_url(url)
    if not backup_file.is_file():
        raise BackupError.said(N_("there is no backup file at {path}"), path=backup_file)
    try:
        kind = file_kind(backup_file)
    except OSError as e:
        raise BackupError.said(N_("cannot read {path}: {reason}"), path=backup_file, reason=os_reason(e)) from None
    backend = u.get_backend_name()
    if kind is None:
        raise BackupError.said(N_("{path} is neither a SQLite backup nor a pg_dump custom-format archive"),
                               path=backup_file)
    if kind == "sqlite" and backend != "sqlite":
        raise BackupError.said(N_("{path} is a SQLite backup: it restores into a SQLite database "
                                  "(--db sqlite:///…), not into PostgreSQL"), path=backup_file)
    if kind == "pg_dump" and backend != "postgresql":
        raise BackupError.said(N_("{path} is a PostgreSQL dump: it restores into a PostgreSQL database "
                                  "(--db postgresql+psycopg://…), not into SQLite"), path=backup_file)
    if backend == "sqlite":
        done = _restore_sqlite(backup_file, sqlite_path(u), force)
    else:
        done = _restore_pg(backup_file, u, force)
    engine = make_engine(u.render_as_string(hide_password=False))
    try:
        upgrade_to_head(engine)
        revision = current_revision(engine)
    except (SQLAlchemyError, SchemaTooNew) as e:
        raise BackupFailed.said(N_("the restored database could not be migrated to the newest schema: {reason}"),
                                reason=driver_problem(e)) from None
    finally:
        engine.dispose()
    return Done(done.path, done.kind, done.size, revision)
