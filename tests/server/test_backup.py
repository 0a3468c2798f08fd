"""`guandan backup` and `guandan restore`: restore drills against a live server (a backup taken while bots
play, restored into a new database, a new server carries the table on from the backup's point) on SQLite
and on a real PostgreSQL, and the refusals that change nothing."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from typer.testing import CliRunner
from websockets.sync.client import ClientConnection, connect

from guandan.cli import _mount, app
from guandan.db import alembic_config, current_revision, make_engine
from guandan.db.backup import PG_DUMP_MAGIC, SQLITE_MAGIC, libpq

from .conftest import LiveServer

pytestmark = pytest.mark.timeout(120)
runner = CliRunner()
_mount()
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


def frames_until_seq(ws: ClientConnection, seq: int) -> int:
    """Read the table's frames until one at ``seq`` or later has come (its actions are committed)."""
    while True:
        f = json.loads(ws.recv(timeout=30))
        if f["type"] in ("update", "snapshot", "catchup") and f.get("seq", 0) >= seq:
            return int(f["seq"])
        assert not (f["type"] == "room" and f["room"]["status"] == "over"), "the match ended before the backup"


def play_and_back_up(db_url: str, out: Path) -> tuple[str, int, int]:
    """A live server where bots play a room out (the player's seat on 托管); a backup taken while they play.
    The room's code, the last sequence a client saw before the backup, and the last one after it."""
    with LiveServer(db_url, bot_delay_ms=25, workers=0) as srv:
        base = srv.url
        code = httpx.post(f"{base}/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1,
                                                     "seed": 5, "timer": 0}).json()["code"]
        tok = httpx.post(f"{base}/api/rooms/{code}/join", json={"seat": 0, "name": "me"}).json()["token"]
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{code}?token={tok}") as ws:
            httpx.post(f"{base}/api/rooms/{code}/ready", json={"token": tok}).raise_for_status()
            ws.send(json.dumps({"type": "auto", "on": True}))
            seen = frames_until_seq(ws, 12)
            done = cli("backup", str(out), "--db", db_url)  # the bots keep playing meanwhile
            assert done.exit_code == 0, done.output
            assert f"backed up to {out}" in done.output
            later = frames_until_seq(ws, seen + 3)  # the server played on
    return code, seen, later


def check_restored(db_url: str, code: str, seq: int) -> None:
    """A server on the restored database has the room, its action log up to ``seq`` and nothing after."""
    with LiveServer(db_url, bot_delay_ms=600_000, workers=0) as srv:  # the bots wait: the table stays where it was
        room = httpx.get(f"{srv.url}/api/rooms/{code}").json()
        assert room["status"] == "playing" and room["seq"] == seq
        assert httpx.get(f"{srv.url}/r/{code}").status_code == 200
        with connect(f"ws://127.0.0.1:{srv.port}/ws/{code}") as ws:  # a spectator catches up from the start
            ws.send(json.dumps({"type": "resume", "since": 0}))
            while (f := json.loads(ws.recv(timeout=30)))["type"] != "catchup":
                pass
            assert [u["seq"] for u in f["updates"]] == list(range(1, seq + 1))


def test_sqlite_restore_drill(tmp_path: Path) -> None:
    live = tmp_path / "live" / "guandan.sqlite3"
    url = f"sqlite:///{live}"
    out = tmp_path / "backups" / "site.sqlite3"
    out.parent.mkdir()
    code, seen, later = play_and_back_up(url, out)
    assert out.read_bytes().startswith(SQLITE_MAGIC)
    assert not list(out.parent.glob(".*.tmp"))  # the temporary name is gone
    with sqlite3.connect(out) as conn:
        (backed_up,) = conn.execute("SELECT max(seq) FROM web_actions WHERE room_code = ?", (code,)).fetchone()
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file, no -wal beside it
    # every action a client had seen before the backup is in it; the bots played on while it was taken
    assert seen <= backed_up and later >= seen + 3
    target = tmp_path / "restored" / "guandan.sqlite3"
    done = cli("restore", str(out), "--db", f"sqlite:///{target}")
    assert done.exit_code == 0, done.output
    assert f"the schema is at {HEAD}" in done.output
    check_restored(f"sqlite:///{target}", code, backed_up)
    # a second restore into the same database is refused unless --force; with it, it replaces the tables
    again = cli("restore", str(out), "--db", f"sqlite:///{target}")
    assert again.exit_code == 2 and "already holds a guandan database" in again.output and "--force" in again.output
    assert cli("restore", str(out), "--db", f"sqlite:///{target}", "--force").exit_code == 0


@pytest.fixture
def pg_databases(postgres_url: str) -> Iterator[tuple[str, str]]:
    """Two new databases in the test server: the live one and the restore target."""
    names = [f"guandan_{kind}_{uuid.uuid4().hex[:8]}" for kind in ("live", "restored")]
    admin = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        for name in names:
            conn.execute(f'CREATE DATABASE "{name}"')
    base = postgres_url.rsplit("/", 1)[0]
    try:
        yield f"{base}/{names[0]}", f"{base}/{names[1]}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            for name in names:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_postgresql_restore_drill(pg_databases: tuple[str, str], tmp_path: Path) -> None:
    live, restored = pg_databases
    out = tmp_path / "site.dump"
    code, seen, later = play_and_back_up(live, out)
    assert out.read_bytes().startswith(PG_DUMP_MAGIC)
    done = cli("restore", str(out), "--db", restored)
    assert done.exit_code == 0, done.output
    engine = make_engine(restored)
    try:
        with engine.connect() as conn:
            backed_up = conn.execute(text("SELECT max(seq) FROM web_actions WHERE room_code = :c"), {"c": code}).scalar()
        assert current_revision(engine) == HEAD
    finally:
        engine.dispose()
    assert backed_up is not None and seen <= backed_up and later >= seen + 3
    check_restored(restored, code, backed_up)
    again = cli("restore", str(out), "--db", restored)
    assert again.exit_code == 2 and "already holds a guandan database" in again.output
    # the wrong kinds are refused before anything is read from them
    sqlite_file = tmp_path / "x.sqlite3"
    sqlite_file.write_bytes(SQLITE_MAGIC + b"\0" * 100)
    wrong = cli("restore", str(sqlite_file), "--db", restored, "--force")
    assert wrong.exit_code == 2 and "is a SQLite backup: it restores into a SQLite database" in wrong.output
    into_sqlite = cli("restore", str(out), "--db", f"sqlite:///{tmp_path / 'new.sqlite3'}")
    assert into_sqlite.exit_code == 2 and "is a PostgreSQL dump" in into_sqlite.output
    assert not (tmp_path / "new.sqlite3").exists()


def test_the_password_goes_in_the_environment_not_in_the_command_line() -> None:
    from sqlalchemy.engine import make_url

    uri, env = libpq(make_url("postgresql+psycopg://site:s3cr%40t@db.example:5433/guandan?sslmode=require"))
    assert uri == "postgresql://site@db.example:5433/guandan?sslmode=require"
    assert env["PGPASSWORD"] == "s3cr@t"


def test_a_postgresql_server_that_does_not_answer_is_named(tmp_path: Path) -> None:
    from .conftest import free_port

    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nothing"
    done = cli("backup", str(tmp_path / "x.dump"), "--db", url)
    assert done.exit_code != 0 and "cannot connect to postgresql+psycopg://postgres@127.0.0.1" in done.output
    assert not list(tmp_path.iterdir())


# --- SQLite refusals, and an older backup on a newer version -------------------------------------------------
def guandan_sqlite(path: Path, revision: str = "head") -> str:
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    try:
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
    finally:
        engine.dispose()
    return url


def test_an_older_backup_comes_up_migrated_to_head(tmp_path: Path) -> None:
    url = guandan_sqlite(tmp_path / "old.sqlite3", "0005_web_reviews")
    out = tmp_path / "old-backup.sqlite3"
    done = cli("backup", str(out), "--db", url)
    assert done.exit_code == 0 and "schema 0005_web_reviews" in done.output
    target = tmp_path / "new.sqlite3"
    done = cli("restore", str(out), "--db", f"sqlite:///{target}")
    assert done.exit_code == 0, done.output
    engine = make_engine(f"sqlite:///{target}")
    try:
        assert current_revision(engine) == HEAD
    finally:
        engine.dispose()


def test_backup_refusals_change_nothing(tmp_path: Path) -> None:
    url = guandan_sqlite(tmp_path / "site.sqlite3")
    out = tmp_path / "b.sqlite3"
    out.write_text("an earlier backup")
    done = cli("backup", str(out), "--db", url)
    assert done.exit_code == 2 and f"{out} exists already" in done.output and "--force" in done.output
    assert out.read_text() == "an earlier backup"
    assert cli("backup", str(out), "--db", url, "--force").exit_code == 0
    assert out.read_bytes().startswith(SQLITE_MAGIC)
    missing = tmp_path / "nowhere.sqlite3"
    done = cli("backup", str(tmp_path / "c.sqlite3"), "--db", f"sqlite:///{missing}")
    assert done.exit_code == 2 and f"there is no SQLite database at {missing}" in done.output
    assert not missing.exists()  # not created by looking
    done = cli("backup", str(tmp_path / "no" / "dir" / "c.sqlite3"), "--db", url)
    assert done.exit_code == 2 and "does not exist: create it first" in done.output
    done = cli("backup", str(tmp_path), "--db", url)
    assert done.exit_code == 2 and "is a folder" in done.output
    done = cli("backup", str(tmp_path / "d.sqlite3"), "--db", "not a url")
    assert done.exit_code == 2 and "--db \"not a url\" is not a database URL" in done.output
    done = cli("backup", str(tmp_path / "d.sqlite3"), "--db", "mysql://site@db/guandan")
    assert done.exit_code == 2 and "only SQLite and PostgreSQL databases are supported" in done.output
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    done = cli("backup", str(tmp_path / "e.sqlite3"), "--db", f"sqlite:///{other}")
    assert done.exit_code == 2 and "not a guandan one" in done.output
    assert not (tmp_path / "e.sqlite3").exists() and not list(tmp_path.glob(".*.tmp"))


def test_restore_refuses_what_is_not_a_backup(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"hello, not a backup")
    target = tmp_path / "t.sqlite3"
    done = cli("restore", str(junk), "--db", f"sqlite:///{target}")
    assert done.exit_code == 2 and "neither a SQLite backup nor a pg_dump" in done.output
    done = cli("restore", str(tmp_path / "absent.sqlite3"), "--db", f"sqlite:///{target}")
    assert done.exit_code == 2 and "there is no backup file at" in done.output
    plain = tmp_path / "plain.sqlite3"
    with sqlite3.connect(plain) as conn:
        conn.execute("CREATE TABLE notes (x)")
    done = cli("restore", str(plain), "--db", f"sqlite:///{target}")
    assert done.exit_code == 2 and "not a guandan one" in done.output
    assert not target.exists()


def test_a_missing_postgresql_tool_is_named() -> None:
    from guandan.db.backup import BackupError, pg_tool

    assert pg_tool("pg_dump").name == "pg_dump"
    with pytest.raises(BackupError, match=r"pg_nothing is not installed .* postgresql-client"):
        pg_tool("pg_nothing")


def test_a_tool_that_fails_is_named_with_its_step_in_the_readers_language(tmp_path: Path) -> None:
    from guandan.cliutil import said
    from guandan.db.backup import BackupFailed, _run_tool, _step
    from guandan.i18n import N_

    with pytest.raises(BackupFailed) as caught:
        _run_tool(["false"], {}, _step(N_("the check of the dump")))
    assert said(caught.value, "en") == "the check of the dump: false failed with exit status 1"
    assert said(caught.value, "zh") == "检查导出文件：false 失败，退出状态 1"
    with pytest.raises(BackupFailed) as caught:
        _run_tool([str(tmp_path / "pg_gone")], {}, _step(N_("reading {path}"), path=tmp_path / "b.dump"))
    assert said(caught.value, "zh") == "无法运行 pg_gone：没有这个文件或文件夹"
    assert str(caught.value) == "pg_gone could not be run: No such file or directory"  # for programs


# --- what an operator's configuration may get wrong ----------------------------------------------------------
def test_backup_and_restore_read_the_database_from_guandan_db_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    """The environment that names the server's database (GUANDAN_DB_URL) names it to backup and restore too:
    never the default SQLite file in ./data instead."""
    url = guandan_sqlite(tmp_path / "site.sqlite3")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GUANDAN_DB_URL", url)
    out = tmp_path / "b.sqlite3"
    done = cli("backup", str(out))
    assert done.exit_code == 0, done.output
    assert f"backed up to {out}" in done.output
    target = tmp_path / "restored.sqlite3"
    monkeypatch.setenv("GUANDAN_DB_URL", f"sqlite:///{target}")
    done = cli("restore", str(out))
    assert done.exit_code == 0, done.output
    assert target.exists() and not (tmp_path / "data").exists()


def with_revision(path: Path, revision: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (revision,))


def test_a_backup_a_newer_version_wrote_is_refused_before_anything_is_written(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    newer = tmp_path / "newer.sqlite3"
    guandan_sqlite(newer)
    with_revision(newer, "0099_from_the_future")
    target = tmp_path / "t.sqlite3"
    done = cli("restore", str(newer), "--db", f"sqlite:///{target}")
    assert done.exit_code == 2, done.output
    assert done.output.strip() == (
        f"error: {newer} cannot be restored by this version: its schema is 0099_from_the_future, which this version "
        f"of guandan does not know (its newest is {HEAD}): a newer version wrote it; run that version, or restore a "
        "backup taken before the upgrade")
    assert not target.exists()
    monkeypatch.setenv("LANGUAGE", "zh")
    done = cli("restore", str(newer), "--db", f"sqlite:///{target}")
    assert done.output.startswith(f"错误：本版本无法恢复 {newer}：其结构版本为 0099_from_the_future，本版 guandan 不认识")
    assert "Traceback" not in done.output and not target.exists()


def test_a_postgresql_dump_a_newer_version_wrote_is_refused(pg_databases: tuple[str, str], tmp_path: Path) -> None:
    live, restored = pg_databases
    engine = make_engine(live)
    try:
        from guandan.db import upgrade_to_head

        upgrade_to_head(engine)
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '0099_from_the_future'"))
    finally:
        engine.dispose()
    out = tmp_path / "newer.dump"
    assert cli("backup", str(out), "--db", live).exit_code == 0
    done = cli("restore", str(out), "--db", restored)
    assert done.exit_code == 2 and "its schema is 0099_from_the_future" in done.output, done.output
    engine = make_engine(restored)
    try:
        assert inspect(engine).get_table_names() == []  # nothing restored
    finally:
        engine.dispose()


def test_a_database_this_program_cannot_drive_is_named_before_anything_is_done(tmp_path: Path) -> None:
    for url, words in (("postgresql+pg8000://site:s3cret@db/guandan",
                        '--db "postgresql+pg8000://site:***@db/guandan": the driver "pg8000" is not installed here '
                        "(write postgresql+psycopg://…)"),
                       ("postgres://site@db/guandan",
                        '--db "postgres://site@db/guandan": write postgresql+psycopg://… (postgres:// is not read)')):
        done = cli("backup", str(tmp_path / "x.dump"), "--db", url)
        assert done.exit_code == 2 and done.output.strip() == f"error: {words}", done.output
    assert not list(tmp_path.iterdir())
