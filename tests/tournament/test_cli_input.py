"""Bad input to `guandan tournament …` that once slipped through: every case exits 2 with ``error: …`` naming the
problem (in Chinese too), shows no traceback or Python repr, and changes nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.tournament.cli import app
from guandan.tournament.desk import Desk

runner = CliRunner()
CHINESE = re.compile(r"[\u4e00-\u9fff]")
PYTHON = re.compile(r"Traceback|Error\b|'[^']*'|\bNone\b")  # what Python's own error text leaves


def cli(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.output


def refused(args: list[str], *words: str) -> str:
    """Run the command, which must be refused naming ``words``; the message."""
    code, out = cli(*args)
    assert code == 2 and out.startswith("error: ") and not PYTHON.search(out), out
    for w in words:
        assert w in out, out
    return out


# ---- the database --------------------------------------------------------------------------------------
def test_a_file_that_is_no_database_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notadb.sqlite3"
    path.write_text("hello\n")
    for command in (["status", "1"], ["new", "Cup"], ["bot-event", "run", "1"], ["online", "round", "1"]):
        refused([*command, "--db", f"sqlite:///{path}"], "cannot use the tournament database", str(path),
                "file is not a database")
    assert path.read_text() == "hello\n"
    monkeypatch.setenv("LANGUAGE", "zh")
    code, out = cli("status", "1", "--db", f"sqlite:///{path}")
    assert code == 2 and out.startswith("错误：无法使用比赛数据库 ") and str(path) in out, out


def test_a_server_that_does_not_answer_is_named_without_its_password() -> None:
    out = refused(["list", "--db", "postgresql+psycopg://nobody:hunter2@127.0.0.1:1/cup"],
                  "cannot use the tournament database postgresql+psycopg://nobody:***@127.0.0.1:1/cup")
    assert "hunter2" not in out


def test_a_database_without_its_driver_or_of_no_known_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "MySQLdb", None)  # not installed, wherever the tests run
    refused(["status", "1", "--db", "mysql://a/b"], "mysql://a/b", "its driver MySQLdb is not installed")
    refused(["status", "1", "--db", "nosuchdb://a/b"], "no kind of database called nosuchdb")


def test_a_data_folder_that_is_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder\n")
    monkeypatch.delenv("GUANDAN_DB_URL", raising=False)
    monkeypatch.setenv("GUANDAN_DATA_DIR", str(data))
    for command in (["new", "Cup"], ["status", "1"], ["bot-event", "new", "Cup", "--entry", "A=random"]):
        refused(command, f"{data} is a file, not a folder", "GUANDAN_DATA_DIR")
    monkeypatch.setenv("GUANDAN_DATA_DIR", str(data / "deeper"))
    refused(["new", "Cup"], f"{data} is a file, not a folder")
    assert data.read_text() == "not a folder\n"


def test_a_working_database_still_opens(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cup.sqlite3'}"
    assert cli("new", "Cup", "--db", url)[0] == 0
    assert [t.name for t in Desk.open(url).tournaments()] == ["Cup"]
