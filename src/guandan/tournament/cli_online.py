"""``guandan tournament online …``: the arbiter's commands of an online event (tournament/online.py).

The event is made by ``guandan tournament new NAME --online``; teams register on the web app. These
commands write to the desk's log; the game server follows them within a second: it opens the tables of
a started round, holds a paused table, and gives a replaced player's seat to the new account.

Everything printed comes from the ``desk`` catalogue in the language the environment asks for (``LANGUAGE``,
``LC_ALL``, ``LANG``; English when none we have).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ..cliutil import Messages
from ..core.errors import GuandanError
from ..i18n import N_
from . import online
from .cli_words import database_refusal, desk_fail, open_desk
from .errors import refusal
from .state import parse_time
from .venuetime import shown_time

if TYPE_CHECKING:
    from .desk import Desk

#: The desk's catalogue, in the language of ``--lang`` where a command has one, else the environment's.
_messages = Messages("desk")
_ = _messages.gettext

app = typer.Typer(help="Online events, played on the web app's tables (new NAME --online makes one).",
                  no_args_is_help=True, pretty_exceptions_enable=False)

DbOpt = Annotated[str | None, typer.Option("--db", envvar="GUANDAN_DB_URL",
                                           help="database URL (default: SQLite under $GUANDAN_DATA_DIR or ./data)")]
TidArg = Annotated[int, typer.Argument(help="the tournament number printed by `new`")]
RoundOpt = Annotated[int, typer.Option("--round", "-r", help="round number")]
TableOpt = Annotated[int, typer.Option("--table", "-t", help="table number")]
ReasonOpt = Annotated[str, typer.Option(help="why, for the audit log")]


def _desk(db: str | None, tid: int) -> Desk:
    desk = open_desk(db)
    if not online.is_online(desk, tid):
        raise refusal(N_("tournament {id} is not an online event (make one with new NAME --online)"), id=tid)
    return desk


def _run(action: object, db: str | None) -> None:
    from sqlalchemy.exc import SQLAlchemyError  # here: --help need not load it

    try:
        assert callable(action)
        action()
    except GuandanError as e:
        desk_fail(e)
    except SQLAlchemyError as e:  # the database failed during the command (a file damaged, a server gone)
        desk_fail(database_refusal(db, e))


@app.command("round")
def round_(tid: TidArg, seed: Annotated[int | None, typer.Option(help="seed of a random first-round draw")] = None,
           db: DbOpt = None) -> None:
    """Pair the next round and start its clock: the server opens one room per table."""
    def act() -> None:
        desk = _desk(db, tid)
        rnd = online.open_round(desk, tid, seed=seed)
        started = shown_time(parse_time(rnd.started_at), desk.state(tid).zone) if rnd.started_at else "-"
        typer.echo(_messages.ngettext("round {round} started at {time}: {tables} table open on the server",
                                      "round {round} started at {time}: {tables} tables open on the server",
                                      len(rnd.tables)).format(round=rnd.number, time=started, tables=len(rnd.tables)))
    _run(act, db)


@app.command()
def pause(tid: TidArg, round_no: RoundOpt, table_no: TableOpt, reason: ReasonOpt, db: DbOpt = None) -> None:
    """Hold a table: nothing is played there until it is resumed."""
    _run(lambda: online.pause_table(_desk(db, tid), tid, round_no, table_no, reason), db)


@app.command()
def resume(tid: TidArg, round_no: RoundOpt, table_no: TableOpt, reason: ReasonOpt = "", db: DbOpt = None) -> None:
    """Let a paused table play on."""
    _run(lambda: online.resume_table(_desk(db, tid), tid, round_no, table_no, reason), db)


@app.command()
def replace(tid: TidArg, team: Annotated[str, typer.Argument(help="team name or number")],
            old: Annotated[str, typer.Argument(help="the player's username")],
            new: Annotated[str, typer.Argument(help="the new player's username (an account)")],
            reason: ReasonOpt, db: DbOpt = None) -> None:
    """Put another account in a player's place from now on (the team's results stay)."""
    _run(lambda: online.replace_player(_desk(db, tid), tid, team, old, new.strip().lower(), reason), db)
