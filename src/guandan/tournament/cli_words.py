"""How the desk's commands say an error: ``error: …`` in the reader's language, from the ``desk`` catalogue."""

from __future__ import annotations

from typing import NoReturn

import typer

from ..cliutil import Messages, cli_lang, said
from ..core.errors import GuandanError
from .errors import TournamentError

_ = Messages("desk").gettext


def desk_problem(e: GuandanError | str, lang: str | None = None) -> str:
    """An error as a person reads it: in English its own text (an arbiter's, which may say more than the page's
    msgid); in another language a refusal that carries a catalogued ``msgid`` is said in it (the catalogued
    words among its parameters too), and so is an error of the engine core (:func:`~guandan.cliutil.said`);
    any other error keeps its English text."""
    code = cli_lang(lang)
    if isinstance(e, TournamentError) and e.msgid and code != "en":
        from .pagelang import explain  # the web pages' module: loaded only when there is a refusal to explain

        return explain(e, code).detail
    return e if isinstance(e, str) else said(e, lang)  # the engine core's input errors are catalogued too


def desk_fail(problem: GuandanError | str, lang: str | None = None) -> NoReturn:
    """``error: …`` on stderr in the reader's language, exit status 2 (bad input; nothing was changed)."""
    typer.echo(_("error: {problem}", lang).format(problem=desk_problem(problem, lang)), err=True)
    raise typer.Exit(2)
