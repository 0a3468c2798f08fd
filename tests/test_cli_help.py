"""`--help` of every command says what to type after each option: nothing after a flag, the values of
a choice, a word (TEXT, INTEGER, PATH…) otherwise — never a Python type such as ``<bool>`` or ``<str>``."""

from __future__ import annotations

import re
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from guandan.cli import _mount, app

_mount()
runner = CliRunner()
PYTHON_TYPE = re.compile(r"<(?:bool|str|int|float|path|list\[|[a-z]+ range)[^>]*>")


def _paths(cmd: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [prefix]
    if hasattr(cmd, "commands"):  # a group (Typer's own click)
        for name in sorted(cmd.commands):
            out += _paths(cmd.commands[name], (*prefix, name))
    return out


COMMANDS = _paths(typer.main.get_command(app))


def test_every_command_is_listed() -> None:
    names = {p[0] for p in COMMANDS if p}
    assert {"play", "moves", "simulate", "replay", "arena", "serve", "bench", "tournament"} <= names
    assert any(len(p) == 2 for p in COMMANDS)  # the sub-commands of bench and tournament too


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "guandan")
def test_help_shows_values_not_python_types(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert not PYTHON_TYPE.search(result.output), PYTHON_TYPE.findall(result.output)


def _option_line(output: str, option: str) -> str:
    return next(line for line in output.splitlines() if re.search(rf"│\s*{re.escape(option)}\b", line))


def test_flags_show_no_value_and_choices_show_their_values() -> None:
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "160"}).output
    assert re.search(r"--plain\s+line mode", _option_line(out, "--plain"))  # nothing between flag and help
    assert re.search(r"--help\s+Show this", _option_line(out, "--help"))
    assert "[competition|huaian-traditional|huaian-2009|huopin]" in _option_line(out, "--preset")
    assert "[zh|en]" in _option_line(out, "--lang")
    assert "[greedy|heuristic|random|search]" in _option_line(out, "--partner")
    moves = runner.invoke(app, ["moves", "--help"], env={"COLUMNS": "160"}).output
    assert "[complete|canonical]" in _option_line(moves, "--mode")
    assert "[json|protocol]" in _option_line(moves, "--format")
    serve = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "160"}).output
    assert "--no-rate-limits" in _option_line(serve, "--rate-limits")
    assert "INTEGER" in _option_line(serve, "--port")
