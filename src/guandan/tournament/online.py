"""Online events: a desk event whose tables are played on the web app's own tables.

The desk stays the one record. An online event is an ordinary event whose creation entry carries the note
``{"online": true}``; its teams are two accounts each (the players' names are the accounts' usernames),
registered by the web app once both partners agreed. The arbiter pairs a round and starts its clock as for
any event (here, the CLI, or the web app's arbiter page); the game server sees the started round, opens a
room per table and reports every deal (or, for an event reported by round, the table's result) itself,
as the server's own report: no slip and no confirmation. The arbiter's pause and a player replaced are
entries of the log too, so that the server follows them whoever wrote them.

Swiss and knockout events alike (with fixed partners: the teams register as pairs of accounts); a knockout
table that ends level plays its deciding deal (加赛一副) on at the same table.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..i18n import N_
from .deals import SEATS, parse_finish
from .errors import refusal
from .model import EventConfig
from .rounds import ResultSlip
from .state import FINAL, RoundState, TournamentState

if TYPE_CHECKING:
    from .desk import Desk

# The two reads below import the database's models when they run: the desk's command line imports this module
# for its commands' --help too, which need not load SQLAlchemy.

#: The creation entry's note that makes an event an online one.
ONLINE_NOTE = "online"


def create_online(desk: Desk, config: EventConfig, *, secret: str | None = None, actor: str = "arbiter") -> int:
    """Create an online event (a Swiss event whose tables the game server plays and reports)."""
    check_online_config(config)
    return desk.create(config, secret=secret, actor=actor, notes={ONLINE_NOTE: True})


def check_online_config(config: EventConfig) -> None:
    if config.partners != "fixed":
        raise refusal(N_("an online event's teams register as pairs of accounts: partners drawn at random "
                         "are for events at the venue"))


def is_online(desk: Desk, tid: int) -> bool:
    """Whether tournament ``tid`` was created as an online event (read from its creation entry alone)."""
    if not 0 < tid < 2**31:  # no such event (ids are SQL INTEGERs): the desk's own read then says so
        return False
    from sqlalchemy import select

    from ..db.tournament import TournamentEventRow

    row = TournamentEventRow
    with desk.sessions() as s:
        data = s.scalar(select(row.data).where(row.tournament_id == tid, row.seq == 1))
    notes = data.get("notes") if isinstance(data, dict) else None
    return isinstance(notes, dict) and notes.get(ONLINE_NOTE) is True


def online_ids(desk: Desk) -> list[int]:
    """Every online event's number, oldest first."""
    from sqlalchemy import select

    from ..db.tournament import TournamentEventRow

    row = TournamentEventRow
    with desk.sessions() as s:
        rows = s.execute(select(row.tournament_id, row.data).where(row.seq == 1).order_by(row.tournament_id))
        return [tid for tid, data in rows
                if isinstance(data, dict) and isinstance(data.get("notes"), dict)
                and data["notes"].get(ONLINE_NOTE) is True]


def open_round(desk: Desk, tid: int, *, seed: int | None = None, at: datetime | None = None,
               actor: str = "arbiter") -> RoundState:
    """Pair the next round (unless the current one is paired and its clock not started yet) and start its
    clock: the game server then opens its tables."""
    st = desk.state(tid)
    r = st.current_round
    if r == 0 or st.rounds[r].started_at is not None:
        desk.pair_next(tid, seed=seed, actor=actor)
    return desk.start_round(tid, at=at, actor=actor)


def report_deal(desk: Desk, tid: int, round_no: int, table_no: int, deal: int, finish: Any,
                actor: str = "server") -> TournamentState:
    """One deal played at an online table, as the server saw it: reported (by the away team's seats) and
    confirmed (by the home team's) in one transaction, as :meth:`Desk.report_deals` does for a whole table."""
    tb = desk.state(tid).table(round_no, table_no).table
    where: dict[str, Any] = {"round": round_no, "table": table_no, "deal": deal}
    seats = [SEATS[x] for x in parse_finish(finish)]
    entries: list[tuple[str, dict[str, Any]]] = [("deal_reported", {**where, "finish": seats, "by": tb.away}),
                                                 ("deal_confirmed", {**where, "by": tb.home})]
    return copy.deepcopy(desk._append_all(tid, entries, actor))


def report_forfeit(desk: Desk, tid: int, round_no: int, table_no: int, side: int, actor: str = "server") -> None:
    """The table's ``side`` (0 home, 1 away) did not come in time: the round is scored by the lateness rule."""
    desk.report(tid, round_no, table_no, ResultSlip(None, forfeit=side), actor=actor)


def pause_table(desk: Desk, tid: int, round_no: int, table_no: int, reason: str, actor: str = "arbiter") -> None:
    desk._append(tid, "table_paused", {"round": round_no, "table": table_no, "reason": reason}, actor)


def resume_table(desk: Desk, tid: int, round_no: int, table_no: int, reason: str = "",
                 actor: str = "arbiter") -> None:
    desk._append(tid, "table_resumed", {"round": round_no, "table": table_no, "reason": reason}, actor)


def replace_player(desk: Desk, tid: int, team: int | str, old: str, new: str, reason: str,
                   actor: str = "arbiter") -> None:
    """Put player ``new`` (a username) in ``old``'s place in ``team``, from now on (results stay the team's)."""
    team_id = desk.state(tid).team(team).id
    # names kept beside the log (Desk.keep_name), so that a deleted account's name can be erased
    entry = {"team": team_id, "old": desk.keep_name(tid, old), "new": desk.keep_name(tid, new), "reason": reason}
    desk._append(tid, "player_replaced", entry, actor)


def open_tables(state: TournamentState) -> list[tuple[int, int]]:
    """The (round, table) pairs the server should be playing now: the current round's tables that are not
    final, once its clock has started."""
    r = state.current_round
    if r == 0 or state.rounds[r].started_at is None:
        return []
    return [(r, n) for n, ts in sorted(state.rounds[r].tables.items()) if ts.status != FINAL]


def seats_of(state: TournamentState, round_no: int, table_no: int) -> Sequence[str]:
    """The four players of a table by engine seat: the home team North (0) and South (2), the away team
    East (1) and West (3); each team's first player takes the first of its two seats."""
    tb = state.table(round_no, table_no).table
    home, away = state.teams[tb.home].players, state.teams[tb.away].players
    return (home[0], away[0], home[1], away[1])
