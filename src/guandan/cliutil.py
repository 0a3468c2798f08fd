"""What every `guandan` sub-command shares: one way to report bad input (a message naming the
problem on stderr, exit status 2, nothing changed), to read a record file and to prepare an output folder."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn

import typer

from .core.errors import GuandanError
from .core.record import loads


def fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def ensure_dir(path: Path) -> Path:
    """Create ``path`` (and parents) or fail with the reason."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot create {path}: {e.strerror}")
    return path


def choices(values: Iterable[str]) -> str:
    """The --help metavar of an option whose values the command checks itself: ``[zh|en]``."""
    return "[" + "|".join(values) + "]"


def cell(value: Any, float_format: str = ".4f", none: str = "—") -> str:
    """One value of a command's plain-text table or message: JSON's spelling for a truth value,
    ``none`` for no value, numbers in ``float_format``, lists bracketed; never a Python repr."""
    if value is None:
        return none
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format(value, float_format)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(cell(v, float_format, none) for v in value) + "]"
    if isinstance(value, dict):
        return ", ".join(f"{k}={cell(v, float_format, none)}" for k, v in value.items())
    return str(value)


def read_record(path: Path) -> dict[str, Any]:
    """A record file (docs/record-format.md), checked as it loads; or fail naming what is wrong."""
    try:
        return loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}: not a text file")
    except GuandanError as e:
        fail(f"{path}: {e}")
