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
    lines = serve.splitlines()
    assert lines[lines.index(_option_line(serve, "--rate-limits")) + 1].split()[1] == "--no-rate-limits"
    assert "INTEGER" in _option_line(serve, "--port")


def _command_at(path: tuple[str, ...]) -> Any:
    cmd = typer.main.get_command(app)
    for name in path:
        cmd = cmd.commands[name]
    return cmd


@pytest.mark.parametrize("path", [p for p in COMMANDS if p], ids=" ".join)
def test_every_option_name_is_whole_in_an_80_column_terminal(path: tuple[str, ...]) -> None:
    """What a reader types is never cut short: at 80 columns (a long option name, a negative flag and a URL
    in one command's help once made Rich cut every column with "…", ``--forwarded-allo…``), each option's
    names stand whole, and the list adds no "…" of its own."""
    cmd = _command_at(path)
    out = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"}).output
    tokens = set(re.findall(r"(?<![\w-])-{1,2}[\w][\w-]*", out))
    names = [n for p in cmd.params if not p.hidden for n in (*p.opts, *p.secondary_opts) if n.startswith("-")]
    assert [n for n in names if n not in tokens] == []
    written = "".join(f"{p.help} {p.metavar} {getattr(p, 'envvar', '')}" for p in cmd.params) + str(cmd.help)
    typed = re.sub(r"(?<![\w-])(?:[A-Z]+…|2…A)(?!\w)", "", out)  # a repeatable value (PATH…), a level (2…A)
    assert typed.count("…") <= written.count("…"), out


def test_a_negative_flag_goes_under_its_name_and_the_help_keeps_its_width() -> None:
    out = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "80"}).output
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if re.search(r"│ --rate-limits\s", line))
    assert re.match(r"│ --no-rate-limits\s", lines[i + 1])
    help_start = lines[i].index("rate-limit joins")
    assert len(lines[i]) - help_start - 2 >= 30  # names and types take what they need; the rest is the help's
    port = next(i for i, line in enumerate(lines) if re.search(r"│ --port\s", line))
    assert "INTEGER " in lines[port] and "[1<=x<=65535]" in lines[port + 1]  # a range goes under its word
    assert "GUANDAN_SIGNUPS_PER_ADDRES" in out  # an environment variable folds at the edge, is not cut with "…"
