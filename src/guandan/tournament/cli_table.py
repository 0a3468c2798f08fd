"""The desk's command-line tables and prose, fitted to the terminal: a table's columns padded by display width,
its least needed columns dropped and its names wrapped where the terminal is narrow, a line of prose wrapped at
its width; whole where the output is not a terminal. Shared by the desk's commands and the bot events'."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import typer

from ..cliutil import Messages, pad, width
from ..linebreak import wrap
from .words import STANDING_HEADS, STANDING_TERMS, standing_label

_ = Messages("desk").gettext

#: A standings figure's head where the terminal is too narrow for the bilingual one ("对手分 Opp MP": "Opp MP").
_SHORT_HEADS = {standing_label(key): STANDING_HEADS[key] for key in STANDING_TERMS}
#: The columns holding a team's name, which wrap onto more lines where the terminal is too narrow for them (a bot
#: event's team has its bots for players).
_NAME_COLUMNS = ("Team", "Home (N–S)", "Away (E–W)", "Winner", "Opponent", "Club", "Players", "Bots")
#: The narrowest a name column is wrapped to: a few characters of a name on each line stay readable.
_NAME_MIN = 10


def terminal_columns() -> int | None:
    """How wide the printed lines may be: ``COLUMNS`` where set, else the terminal's width; None when the output
    is not a terminal (a pipe, a file: a script reads it line by line, so its lines stay whole)."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else None
    except (OSError, ValueError, AttributeError):  # no file descriptor (a replaced stdout), or no size to tell
        return None


def say(line: str, err: bool = False) -> None:
    """A line of prose, wrapped at the terminal's width (its next rows indented) rather than where the terminal
    cuts it; whole where the output is not a terminal. ``err``: on stderr (a warning)."""
    for row in wrap(line, terminal_columns(), commands(line)):
        typer.echo(row, err=err)


def commands(line: str) -> list[str]:
    """The commands a line quotes (`deals --set`), each kept on one row where it wraps: it is typed whole."""
    return re.findall(r"`[^`]+`", line)


def print_table(columns: Sequence[str], rows: list[dict[str, Any]], drop: Sequence[str] = (), lang: str | None = None) -> None:
    """``rows`` as a table of ``columns``, its columns padded by display width (a Chinese character takes two),
    the heads in ``lang`` (a command's ``--lang``; the environment's language where None). Where the lines would
    be wider than the terminal: the standings' figures take their short heads, then the ``drop`` columns go, the
    least needed first, until the lines fit; then the names wrap onto more lines."""
    limit = terminal_columns()
    shown = list(columns)
    head = {c: _(c, lang) for c in columns}
    cells = [{c: str(r[c]) for c in columns} for r in rows]
    widths = {c: max(width(x) for x in (head[c], *(line[c] for line in cells))) for c in columns}

    def total() -> int:
        return sum(widths[c] for c in shown) + 2 * (len(shown) - 1)

    if limit is not None and total() > limit:
        for c in shown:
            if c in _SHORT_HEADS:
                head[c] = _(_SHORT_HEADS[c], lang)
                widths[c] = max(width(x) for x in (head[c], *(line[c] for line in cells)))
        for c in drop:
            if total() <= limit:
                break
            shown.remove(c)
        names = [c for c in shown if c in _NAME_COLUMNS]
        while total() > limit:
            room = [c for c in names if widths[c] > max(_NAME_MIN, width(head[c]))]
            if not room:
                break  # a terminal too narrow for even this: the lines wrap there, but nothing is lost
            widths[max(room, key=lambda c: widths[c])] -= 1
    for line in (head, *cells):
        parts = [wrap(line[c], widths[c]) if c in _NAME_COLUMNS else [line[c]] for c in shown]
        for k in range(max(map(len, parts))):
            typer.echo("  ".join(pad(p[k] if k < len(p) else "", widths[c])
                                 for p, c in zip(parts, shown, strict=True)).rstrip())
