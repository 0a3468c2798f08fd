"""`guandan …` starts without loading what its command does not use: --help and the desk's everyday commands
leave the terminal UI (Textual), the web stack, the spreadsheet and QR writers, the pairing's graph library
and, for --help, the database, unloaded. Each case runs in a fresh interpreter, as a person's command does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from guandan.tournament.cli import app as desk_app

#: Libraries no command's start-up needs: each loads inside the command that uses it.
HEAVY = ("textual", "fastapi", "starlette", "uvicorn", "networkx", "openpyxl", "numpy", "segno", "pyarrow",
         "weasyprint")
#: The database: loaded when a command opens one, never for --help.
DATABASE = ("sqlalchemy", "alembic")

PROBE = """
import json, os, sys
from guandan.cli import main
try:
    main(sys.argv[1:])
    code = 0
except SystemExit as e:
    code = e.code
with open(os.environ["PROBE_OUT"], "w", encoding="utf-8") as f:
    json.dump({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}, f)
"""


def _run(args: list[str], folder: Path) -> tuple[int, set[str], str]:
    """Run ``guandan ARGS`` in a new interpreter: its exit status, the top-level packages it loaded, its output."""
    out = folder / "probe.json"
    env = dict(os.environ, GUANDAN_DATA_DIR=str(folder / "data"), PROBE_OUT=str(out), COLUMNS="80", LANG="C.UTF-8")
    env.pop("LANGUAGE", None)
    env.pop("LC_ALL", None)
    done = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, capture_output=True, text=True, timeout=120)
    probe = json.loads(out.read_text(encoding="utf-8"))
    return probe["code"], set(probe["modules"]), done.stdout


@pytest.mark.parametrize("args", [["--help"], ["tournament", "--help"], ["tournament", "standings", "--help"],
                                  ["tournament", "bot-event", "--help"], ["play", "--help"], ["serve", "--help"]],
                         ids=" ".join)
def test_help_loads_neither_the_heavy_libraries_nor_the_database(args: list[str], tmp_path: Path) -> None:
    code, modules, out = _run(args, tmp_path)
    assert code == 0
    assert "Usage: guandan" in out  # the help itself, as before
    assert modules.isdisjoint(HEAVY + DATABASE), sorted(modules & set(HEAVY + DATABASE))


def test_a_desk_command_loads_the_database_and_nothing_it_does_not_use(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'desk.sqlite3'}"
    runner = CliRunner()
    assert runner.invoke(desk_app, ["new", "Start Cup", "--rounds", "2", "--seed", "3", "--db", url]).exit_code == 0
    for i in range(1, 5):
        res = runner.invoke(desk_app, ["register", "1", f"Team {i}", "--players", f"p{i},q{i}", "--db", url])
        assert res.exit_code == 0, res.output
    code, modules, out = _run(["tournament", "standings", "1", "--db", url], tmp_path)
    assert code == 0
    assert all(f"Team {i}" in out for i in range(1, 5))
    assert "sqlalchemy" in modules
    # nor Alembic, the database being at the newest schema already (guandan.db.migrate.head_revision)
    assert modules.isdisjoint((*HEAVY, "alembic")), sorted(modules & {*HEAVY, "alembic"})

