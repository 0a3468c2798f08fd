"""What an operator's configuration of `guandan serve` and `guandan bench accounts` may get wrong, each named
in one line before anything starts (no traceback, no "serving on", no worker started, nothing written): a
database this program cannot drive, a Redis that does not answer, a database that does not answer a site's
supervisor, a database a newer version wrote, a bench database already filled or filled otherwise; and with
JSON logs, no plain line among the records."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from alembic import command
from alembic.script import ScriptDirectory
from typer.testing import CliRunner

from guandan.cli import _mount, app
from guandan.db import alembic_config, make_engine

from .conftest import free_port

pytestmark = pytest.mark.timeout(120)
runner = CliRunner()
_mount()
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def serve(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["serve", "--port", str(free_port()), *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("url", "words"), [
    ("mysql://site:s3cret@db/guandan", '--db "mysql://site:***@db/guandan": only SQLite and PostgreSQL databases '
                                       "are supported"),
    ("postgresql+pg8000://site:s3cret@db/guandan", '--db "postgresql+pg8000://site:***@db/guandan": the driver '
                                                   '"pg8000" is not installed here (write postgresql+psycopg://…)'),
    ("postgres://site@db/guandan", '--db "postgres://site@db/guandan": write postgresql+psycopg://… (postgres:// is '
                                   "not read)"),
])
def test_a_database_serve_cannot_drive_is_named(url: str, words: str) -> None:
    code, output = serve("--db", url)
    assert (code, output.strip()) == (2, f"error: {words}")


def test_the_drivers_words_are_said_in_chinese(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "zh")
    code, output = serve("--db", "postgresql+pg8000://site@db/guandan")
    assert (code, output.strip()) == (2, '错误：--db "postgresql+pg8000://site@db/guandan"：本机没有安装驱动 "pg8000"'
                                         "（请写成 postgresql+psycopg://…）")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_redis_that_does_not_answer_is_named_before_serving(workers: str) -> None:
    port = free_port()  # nothing listens there
    code, output = serve("--workers", workers, "--redis", f"redis://:s3cret@127.0.0.1:{port}/0",
                         "--db", "postgresql+psycopg://site@127.0.0.1:1/guandan")
    assert code == 1, output
    assert output.startswith(f"error: cannot use Redis at redis://:***@127.0.0.1:{port}/0: ")
    assert "Connection refused" in output and "serving on" not in output and "s3cret" not in output


def test_a_site_whose_database_does_not_answer_starts_no_worker(redis_url: str) -> None:
    """The supervisor checks the database before it takes the address: its workers would each fail the same
    way, be started again and again, and the site would say it serves."""
    port = free_port()
    db = f"postgresql+psycopg://site:s3cret@127.0.0.1:{free_port()}/guandan"
    proc = subprocess.Popen([sys.executable, "-c", "from guandan.cli import main; main()", "serve", "--port", str(port),
                             "--workers", "2", "--redis", redis_url, "--db", db], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "LANGUAGE": "en"},
                            start_new_session=True)
    try:
        _, stderr = proc.communicate(timeout=90)
    finally:  # a supervisor that did start: it and its workers go
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 1, stderr
    assert stderr.startswith("error: cannot use the database postgresql+psycopg://site:***@127.0.0.1:")
    assert "serving on" not in stderr and "exited" not in stderr and "Traceback" not in stderr


def tables_and_revision(path: Path) -> tuple[list[str], str]:
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return tables, revision


def test_a_database_a_newer_version_wrote_is_named_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    try:
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    finally:
        engine.dispose()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    before = tables_and_revision(path)
    code, output = serve("--db", f"sqlite:///{path}")
    assert code == 1, output
    assert output.strip() == (
        f"error: cannot use the database sqlite:///{path}: its schema is 0099_from_the_future, which this version of "
        f"guandan does not know (its newest is {HEAD}): a newer version wrote it; run that version, or restore a "
        "backup taken before the upgrade")
    assert tables_and_revision(path) == before


def bench(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["bench", "accounts", "--requests", "1", *args])
    return result.exit_code, result.output


def test_bench_accounts_refuses_a_database_it_cannot_fill_or_time_as_asked(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    code, output = bench("--db", f"sqlite:///{empty}", "--no-fill")
    assert (code, output.strip()) == (2, f"error: --no-fill: sqlite:///{empty} holds no bench accounts: fill it "
                                         "first (without --no-fill)")
    assert not empty.exists() or empty.stat().st_size == 0  # not even a schema written
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    code, output = bench("--db", url, "--accounts", "6", "--matches", "8")
    assert code == 0, output
    assert "6 accounts, 8 rated matches" in output
    # filled once: a second fill would clash with the accounts already there
    code, output = bench("--db", url, "--accounts", "6", "--matches", "8")
    assert (code, output.strip()) == (2, f"error: {url} holds 6 bench accounts already: time them as they are with "
                                         "--no-fill --accounts 6, or give an empty database")
    code, output = bench("--db", url, "--no-fill")  # the default --accounts, 1000
    assert (code, output.strip()) == (2, f"error: --no-fill: {url} holds 6 bench accounts, not 1000: give "
                                         "--accounts 6")
    # timed as it is: the matches it holds, not --matches' default
    code, output = bench("--db", url, "--no-fill", "--accounts", "6")
    assert code == 0, output
    assert "6 accounts, 8 rated matches" in output
    code, output = bench("--db", "not a url")
    assert (code, output.strip()) == (2, 'error: --db "not a url" is not a database URL (e.g. '
                                         "sqlite:///data/guandan.sqlite3 or postgresql+psycopg://user@host/dbname)")


def test_with_json_logs_every_line_serve_writes_is_one_json_object(tmp_path: Path) -> None:
    """"serving on" and the note after it are records too: a log collector reading stderr as JSON lines
    meets no plain line."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", "from guandan.cli import main; main()", "serve", "--port", str(port),
                             "--data", str(tmp_path), "--log-format", "json"], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "LANGUAGE": "en"}, start_new_session=True)
    assert proc.stderr is not None
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    records = [json.loads(line) for line in stderr.splitlines()]  # each line parses, or this fails
    assert records[0]["message"] == f"guandan: serving on http://127.0.0.1:{port}"
    assert records[0]["logger"] == "guandan.serve" and records[0]["level"] == "INFO"
    assert records[1]["message"].startswith("guandan: only this computer can open it")
