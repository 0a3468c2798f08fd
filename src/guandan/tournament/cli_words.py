"""How the desk's commands say an error: ``error: …`` in the reader's language, from the ``desk`` catalogue."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from ..cliutil import Messages, cli_lang, said
from ..core.errors import GuandanError
from ..i18n import N_
from ..i18n.reasons import os_reason
from ..linebreak import wrap
from .cli_table import commands, terminal_columns
from .errors import TournamentError, refusal

if TYPE_CHECKING:
    from .desk import Desk

# SQLAlchemy (and the desk, which stands on it) is imported inside the functions that open or name a database:
# loading it takes a large part of a second, which --help and the commands' own input checks need not wait for.

_ = Messages("desk").gettext

#: The help of ``--time-zone`` wherever an event is made (`new`, `bot-event new`): one text, one translation.
TIME_ZONE_HELP = ("the venue's time zone, an IANA name such as Asia/Shanghai: times typed without an offset are read "
                  "in it, and times are shown in it (default: this machine's zone)")


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
    """``error: …`` on stderr in the reader's language, exit status 2 (bad input; nothing was changed); each of
    its lines wrapped at the terminal's width as the desk's other output is, whole where it goes to a file."""
    text = _("error: {problem}", lang).format(problem=desk_problem(problem, lang))
    for line in text.splitlines():
        for row in wrap(line, terminal_columns(), commands(line)):
            typer.echo(row, err=True)
    raise typer.Exit(2)


def database_errors() -> tuple[type[BaseException], ...]:
    """What opening or using a database may raise that is no fault of the desk: the driver's errors, a driver
    that is not installed, a folder that cannot be made."""
    from sqlalchemy.exc import SQLAlchemyError

    return (SQLAlchemyError, ImportError, OSError)


def database_name(db: str | None) -> str:
    """The database a command uses, as a person reads it: ``--db``'s URL (its password hidden), else the
    default SQLite file."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from ..db.engine import default_url

    try:
        return make_url(db or default_url()).render_as_string(hide_password=True)
    except ArgumentError:
        return db or default_url()


def database_refusal(db: str | None, e: BaseException) -> TournamentError:
    """A database that cannot be opened or used (a file that is no database, a server that does not answer, a
    driver that is not installed, a data folder that is a file) as a refusal naming it; the driver's own first
    line is the detail, never a traceback."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from ..db.engine import driver_problem

    name = database_name(db)
    if isinstance(e, NoSuchModuleError):
        return refusal(N_("cannot use the tournament database {db}: no kind of database called {kind} is known"),
                       db=name, kind=make_url(name).get_backend_name())
    if isinstance(e, ArgumentError):  # SQLAlchemy's "Could not parse SQLAlchemy URL …" says less
        return refusal(N_("--db {db} is not a database URL"), db=name)
    if isinstance(e, ImportError):
        return refusal(N_("cannot use the tournament database {db}: its driver {module} is not installed"),
                       db=name, module=e.name or str(e))
    if isinstance(e, OSError):
        return refusal(N_("cannot use the tournament database {db}: {problem}"), db=name, problem=os_reason(e))
    return refusal(N_("cannot use the tournament database {db}: {problem}"), db=name, problem=driver_problem(e))


def folder_problem(db: str | None) -> TournamentError | None:
    """Why a SQLite database cannot be kept where ``db`` (or ``$GUANDAN_DATA_DIR``) puts it: a part of its
    folder's path is a file. None when there is no such problem (or it is no SQLite file)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from ..db.engine import default_url

    try:
        url = make_url(db or default_url())
    except ArgumentError:
        return None
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    for folder in Path(url.database).expanduser().parents:
        if folder.exists() or folder.is_symlink():
            if folder.is_dir():
                return None
            return refusal(N_("cannot use the tournament database {db}: {folder} is a file, not a folder (check "
                              "--db and GUANDAN_DATA_DIR)"), db=database_name(db), folder=str(folder))
    return None


def open_desk(db: str | None) -> Desk:
    """The desk on ``db``, or a :class:`TournamentError` naming the database when it cannot be opened."""
    from .desk import Desk

    problem = folder_problem(db)
    if problem is not None:
        raise problem
    try:
        return Desk.open(db)
    except database_errors() as e:
        raise database_refusal(db, e) from None
