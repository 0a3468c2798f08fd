"""The option list of ``--help`` laid out so that nothing a reader has to type is cut short.

Typer lays an option out in six columns — long name, short name, negative long name (``--no-dev``),
negative short name, the value's type, the help — and lets Rich share the width among them. At 80
columns a command with a long option name, a negative flag and a long word in some help (a URL, an
environment variable) no longer fits, and Rich then cuts *every* column short with "…": an operator reads
``--forwarded-allo…`` and cannot type it. :func:`lay_out_options` gives the names one column, a flag's
negative form on the line under it, never wrapped or cut, and lets the help take the width that is left,
folding a word longer than its column rather than cutting it.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.table import Table
from rich.text import Text

#: Typer's option rows: long, short, negative long, negative short, type, help (and a leading "required"
#: marker column when some option of the panel is required).
_OPTION_CELLS = 6
#: The narrowest the type column is made when the help needs its width (``INTEGER``, ``[x>=1]``), and where a type may break.
_TYPE_WIDTH = 10
#: A help column narrower than this gets the type column's spare width.
_HELP_WIDTH = 40
_PIECE = re.compile(r"[^\s|]+\|?")


def _text(cell: RenderableType | None) -> Text:
    if isinstance(cell, Text):
        return cell
    return Text(cell if isinstance(cell, str) else "")


def names(long: Text, short: Text, negative_long: Text, negative_short: Text) -> Text:
    """One cell for an option's names: ``--jobs -j`` on a line, the negative form (``--no-dev``) under it."""
    out = Text()
    for line in ((long, short), (negative_long, negative_short)):
        parts = [part for part in line if part.plain]
        if not parts:
            continue
        if out.plain:
            out.append("\n")
        for i, part in enumerate(parts):
            if i:
                out.append(" ")
            out.append_text(part)
    return out


class OptionTable(Table):
    """Rich's table, which regroups the rows Typer gives its option panels (it builds those with
    ``highlight=True`` and no declared columns; its command panels declare theirs, and pass through)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._regrouped = False
        self._type_piece = _TYPE_WIDTH

    def add_row(self, *renderables: RenderableType | None, style: Any = None, end_section: bool = False) -> None:
        lead = len(renderables) - _OPTION_CELLS
        first = self.row_count == 0 and not self.columns
        if not (self.highlight and lead in (0, 1) and (first or self._regrouped)):
            super().add_row(*renderables, style=style, end_section=end_section)
            return
        long, short, negative_long, negative_short, kind = (_text(c) for c in renderables[lead:-1])
        helps = renderables[-1]
        for part in getattr(helps, "renderables", [helps]):  # Typer's Columns: the help, env var, default…
            if isinstance(part, Text):
                part.overflow = "fold"  # a URL or an environment variable longer than the column folds, not "…"
        super().add_row(*renderables[:lead], names(long, short, negative_long, negative_short), kind, helps,
                        style=style, end_section=end_section)
        if first:
            self._regrouped = True
            self.columns[lead].no_wrap = True  # the names are what is typed: whole, on their lines
            self.columns[-1].ratio = 1  # the help takes what the names and the types leave
        self._type_piece = max([self._type_piece, *(len(p) for p in _PIECE.findall(kind.plain))])

    def _calculate_column_widths(self, console: Console, options: ConsoleOptions) -> list[int]:
        """Widths as Rich gives them; but where that leaves the help narrow, the type column is made as
        narrow as its longest unbreakable piece: a range goes under its word, a list of choices breaks after
        a "|" (:func:`guandan.clihelp.wrap_cjk`), and the help gets the width."""
        widths = super()._calculate_column_widths(console, options)
        if not self._regrouped or widths[-1] >= _HELP_WIDTH or widths[-2] <= self._type_piece + 2:  # + padding
            return widths
        types = self.columns[-2]
        types.max_width = self._type_piece
        try:
            return super()._calculate_column_widths(console, options)
        finally:
            types.max_width = None


_installed = False


def lay_out_options() -> None:
    """Make Typer's ``--help`` build its option panels with :class:`OptionTable` (once per process)."""
    global _installed
    if _installed:
        return
    from typer import rich_utils

    rich_utils.Table = OptionTable  # type: ignore[attr-defined]  # the name its panels look up when they print
    _installed = True


__all__ = ["OptionTable", "lay_out_options", "names"]
