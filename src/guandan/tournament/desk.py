"""The tournament desk: commands that append to the audit log in the shared database.

Each command runs in one transaction: the tournament's state is brought up to date from the log, the new
entry is validated by applying it, then the entry and the projections (the ``tournaments`` row and the
standings rows) are written together. A refused command writes nothing.
"""

from __future__ import annotations

import copy
import secrets as _secrets
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from ..core.errors import shown
from ..db import make_engine, make_session_factory, upgrade_to_head
from ..db.tournament import StandingRow, TournamentEventRow, TournamentPerson, TournamentRow
from ..i18n import N_
from .bracket import plan_override, plan_pairing, plan_repair
from .deals import SEATS, DealEntry, parse_finish
from .errors import NotFoundError, TournamentError, clause, joined, refusal, said
from .knockout import Player
from .levels import level_name, level_value
from .model import EventConfig, Team
from .rounds import ResultSlip
from .standings import Standing
from .state import CODE_DIGITS, CODE_LIMIT, Event, RoundState, TournamentState, apply_stored, damaged, locked_refusal, replay
from .venuetime import check_zone, localized, typing_zone

T = TypeVar("T")


class Desk:
    """Tournament commands over one database. Safe to share between requests of one process."""

    def __init__(self, engine: Engine, *, migrate: bool = True,
                 clock: Callable[[], datetime] | None = None) -> None:
        self.engine = engine
        # Every entry is stamped with this clock; the round clock's rules (no new deal after the warning)
        # read those stamps, so tests and replays never depend on the time they run at.
        self.now: Callable[[], datetime] = clock or (lambda: datetime.now(UTC))
        if migrate:
            upgrade_to_head(engine)
        self.sessions: sessionmaker[Session] = make_session_factory(engine)
        # Replaying the whole log for every command would make a long event quadratic; a cached state is
        # reused only while its last entry is still the newest one in the database.
        self._cache: dict[int, TournamentState] = {}
        self._written: dict[int, list[Standing]] = {}
        self._lock = threading.RLock()  # web requests run in threads and share the cache

    @classmethod
    def open(cls, url: str | None = None) -> Desk:
        return cls(make_engine(url))

    # ---- reading -------------------------------------------------------------------------------
    def tournaments(self) -> list[TournamentRow]:
        with self.sessions() as s:
            return list(s.scalars(select(TournamentRow).order_by(TournamentRow.id)))

    def state(self, tid: int) -> TournamentState:
        """The tournament as of its newest log entry (a copy: changing it changes nothing stored)."""
        with self._lock, self.sessions() as s:
            return copy.deepcopy(self._load(s, tid))

    def peek(self, tid: int, read: Callable[[TournamentState], T]) -> T:
        """``read`` applied to the newest state itself, under the desk's lock, without the copy that
        :meth:`state` makes: for the reads every phone at a venue repeats (a table's page polls every few
        seconds, and copying a long per-deal event each time would cost the server more than the read).
        ``read`` must not change the state and should return plain data."""
        with self._lock, self.sessions() as s:
            return read(self._load(s, tid))

    def events(self, tid: int) -> list[Event]:
        with self.sessions() as s:
            self._row(s, tid)
            return self._events(s, tid, 0)

    def stored_standings(self, tid: int) -> list[StandingRow]:
        with self.sessions() as s:
            self._row(s, tid)
            q = select(StandingRow).where(StandingRow.tournament_id == tid).order_by(StandingRow.rank, StandingRow.team_id)
            return list(s.scalars(q))

    def verify(self, tid: int) -> TournamentState:
        """Replay the log from scratch and check the stored projections against it."""
        with self.sessions() as s:
            row = self._row(s, tid)
            state = replay(self._events(s, tid, 0), tid)
        stored = [(r.rank, r.team_id, r.match_points, r.opponents_points, r.level_diff, r.levels_gained, r.played,
                   r.wins, r.draws, r.losses, r.byes) for r in self.stored_standings(tid)]
        fresh = [(x.rank, x.team_id, x.match_points, x.opponents_points, x.level_diff, x.levels_gained, x.played,
                  x.wins, x.draws, x.losses, x.byes) for x in state.standings()]
        if stored != fresh or row.last_seq != state.last_seq or row.current_round != state.current_round:
            raise TournamentError(f"tournament {tid}: the stored standings differ from a replay of the audit log")
        return state

    # ---- commands ------------------------------------------------------------------------------
    def create(self, config: EventConfig, *, secret: str | None = None, actor: str = "arbiter",
               notes: dict[str, Any] | None = None) -> int:
        """``notes``: more of the event's settings for its own tooling (a bot event's), kept in the creation
        entry beside the config so that the log holds them too; the desk itself reads none of them."""
        data: dict[str, Any] = {"config": config.to_dict(), "secret": secret or _secrets.token_urlsafe(12)}
        if notes:
            data["notes"] = dict(notes)
        state = TournamentState()
        now = self.now()
        with self._lock, self.sessions.begin() as s:
            row = TournamentRow(name=config.name, created_at=now, status="registration", current_round=0, last_seq=0)
            s.add(row)
            s.flush()
            state.id = row.id
            self._write(s, row, state, Event(1, "created", data, actor, now.isoformat()), now)
        self._cache[row.id] = state
        return row.id

    def register(self, tid: int, name: str, players: Sequence[str | dict[str, int]], club: str | None = None,
                 rating: float | None = None, actor: str = "arbiter") -> Team:
        """Register a team; a player is a name or a :meth:`keep_name` reference (a name that may be erased)."""
        team = {"name": name, "players": list(players), "club": club, "rating": rating}
        state = self._append(tid, "team_registered", {"team": team}, actor)
        return state.teams[max(state.teams)]

    def register_player(self, tid: int, name: str, club: str | None = None, rating: float | None = None,
                        actor: str = "arbiter") -> Player:
        """Enter one player in an event whose partners are drawn at random (the first ``pair`` draws them)."""
        data = {"player": {"name": name, "club": club, "rating": rating}}
        state = self._append(tid, "player_registered", data, actor)
        return state.players[max(state.players)]

    def withdraw_player(self, tid: int, player: int | str, reason: str = "", actor: str = "arbiter") -> None:
        """Take a player out before the partners are drawn."""
        st = self.state(tid)
        self._append(tid, "player_withdrawn", {"player": st.player(player).id, "reason": reason}, actor)

    def withdraw(self, tid: int, team: int | str, reason: str = "", actor: str = "arbiter") -> None:
        st = self.state(tid)
        self._append(tid, "team_withdrawn", {"team": st.team(team).id, "reason": reason}, actor)

    def pair_next(self, tid: int, seed: int | None = None, actor: str = "arbiter") -> RoundState:
        """Pair the next round (blocked until every result of the current round is final)."""
        st = self.state(tid)
        if st.is_knockout:  # draws the partners first where they are drawn at random
            return copy.deepcopy(self._append_all(tid, plan_pairing(st, seed), actor).rounds[st.current_round + 1])
        blockers = st.pairing_blockers()
        if blockers:
            raise refusal(N_("round {round} cannot be paired yet: {reasons}"), round=st.current_round + 1,
                          reasons=joined(blockers))
        r = st.current_round + 1
        pairing, method, used = st.propose_pairing(r, seed)
        data = {"round": r, "method": method, "seed": used, "tables": [list(p) for p in pairing.pairs],
                "bye": pairing.bye, "repair": False}
        return copy.deepcopy(self._append(tid, "round_paired", data, actor).rounds[r])

    def repair(self, tid: int, tables: Sequence[tuple[int, int]] | None = None, bye: int | None = None,
               seed: int | None = None, reason: str = "", actor: str = "arbiter", seen: int | None = None) -> RoundState:
        """Re-pair the current round before any of its results is in: by hand (``tables``) or anew. ``seen``: the
        round's :attr:`~.state.RoundState.seq` the arbiter's page showed (refused if it has moved on since)."""
        st = self.state(tid)
        r = st.current_round
        expect = None if seen is None else _round_unchanged(r, seen)
        if st.is_knockout:
            if tables is not None or bye is not None:
                raise refusal(N_("a knockout's tables follow from its bracket: re-pair without tables and byes"))
            return copy.deepcopy(self._append_all(tid, plan_repair(st, seed, reason), actor, expect).rounds[r])
        if r == 0:
            raise refusal(N_("no round has been paired yet: there is nothing to re-pair"))
        if tables is None:
            if r == 1 and st.cfg.first_round == "random" and seed is None:
                seed = (st.rounds[1].seed or 0) + 1  # a fresh draw, not the same one again
            pairing, method, used = st.propose_pairing(r, seed)
            rows, bye, seed = [list(p) for p in pairing.pairs], pairing.bye, used
        else:
            rows, method = [list(p) for p in tables], "manual"
        data = {"round": r, "method": method, "seed": seed, "tables": rows, "bye": bye, "repair": True,
                "reason": reason}
        return copy.deepcopy(self._append_all(tid, [("round_paired", data)], actor, expect).rounds[r])

    def enter_result(self, tid: int, round_no: int, table_no: int, slip: ResultSlip, by: int | str,
                     actor: str = "player", late_minutes: float | None = None) -> None:
        """``by``: the entering team (number or name); the other team of the table must confirm. With a forfeit,
        ``late_minutes`` (how late the forfeiting team was) goes into the log beside it."""
        data = self._result(round_no, table_no, slip, by=self._team_id(tid, by), **_lateness(slip, late_minutes))
        self._append(tid, "result_entered", data, actor)

    def confirm(self, tid: int, round_no: int, table_no: int, by: int | str, actor: str = "player") -> None:
        data = {"round": round_no, "table": table_no, "by": self._team_id(tid, by)}
        self._append(tid, "result_confirmed", data, actor)

    def dispute(self, tid: int, round_no: int, table_no: int, by: int | str, reason: str = "",
                actor: str = "player") -> None:
        data = {"round": round_no, "table": table_no, "by": self._team_id(tid, by), "reason": reason}
        self._append(tid, "result_disputed", data, actor)

    def reject(self, tid: int, round_no: int, table_no: int, by: int | str, reason: str = "",
               actor: str = "player") -> None:
        """The other team sends an entered result back: it can then be entered again."""
        data = {"round": round_no, "table": table_no, "by": self._team_id(tid, by), "reason": reason}
        self._append(tid, "result_rejected", data, actor)

    # ---- per-deal reporting and the round clock ---------------------------------------------------
    def start_round(self, tid: int, round_no: int | None = None, at: datetime | None = None,
                    actor: str = "arbiter") -> RoundState:
        """Start the round's clock (by default the current round, now). ``at`` without a zone is the venue's
        time (:attr:`TournamentState.zone`); the log keeps it in UTC."""
        st = self.state(tid)
        r = st.current_round if round_no is None else round_no
        data: dict[str, Any] = {"round": r}
        if at is not None:
            if at.tzinfo is None:
                at = localized(at, typing_zone(st.time_zone), "at")
            data["at"] = at.astimezone(UTC).isoformat()
        return copy.deepcopy(self._append(tid, "round_started", data, actor).rounds[r])

    def report_deal(self, tid: int, round_no: int, table_no: int, deal: int, finish: Any, by: int | str,
                    actor: str = "player") -> DealEntry:
        """Report deal ``deal``'s finishing order (seats N/E/S/W, first out first); the other team confirms."""
        data = {"round": round_no, "table": table_no, "deal": deal, "finish": [SEATS[x] for x in parse_finish(finish)],
                "by": self._team_id(tid, by)}
        entry = self._append(tid, "deal_reported", data, actor).table(round_no, table_no).pending_deal
        assert entry is not None
        return entry

    def confirm_deal(self, tid: int, round_no: int, table_no: int, deal: int, by: int | str,
                     actor: str = "player") -> None:
        data = {"round": round_no, "table": table_no, "deal": deal, "by": self._team_id(tid, by)}
        self._append(tid, "deal_confirmed", data, actor)

    def reject_deal(self, tid: int, round_no: int, table_no: int, deal: int, by: int | str, reason: str = "",
                    actor: str = "player") -> None:
        """Send a reported deal back to be reported again."""
        data = {"round": round_no, "table": table_no, "deal": deal, "by": self._team_id(tid, by), "reason": reason}
        self._append(tid, "deal_rejected", data, actor)

    def dispute_deal(self, tid: int, round_no: int, table_no: int, deal: int, by: int | str, reason: str = "",
                     actor: str = "player") -> None:
        """Call the arbiter: the table is held until the arbiter sets its deals."""
        data = {"round": round_no, "table": table_no, "deal": deal, "by": self._team_id(tid, by), "reason": reason}
        self._append(tid, "deal_disputed", data, actor)

    def set_deals(self, tid: int, round_no: int, table_no: int, deals: Sequence[Any], reason: str,
                  end: bool = False, actor: str = "arbiter", seen: int | None = None) -> None:
        """The arbiter's word on a table's deals: each ``{"finish": seats}`` or ``{"award": "home"|"away"}``.

        ``end`` ends the round at the table there (time, say); it also ends by itself at the limits. ``seen``:
        the table's :attr:`~.state.TableState.seq` the arbiter's page showed; refused if the table has moved on
        since (the same form sent twice, or a deal a team reported meanwhile that these deals would erase).
        """
        items = []
        for n, x in enumerate(deals, 1):
            try:
                items.append({"finish": [SEATS[s] for s in parse_finish(x["finish"])]}
                             if isinstance(x, dict) and "finish" in x else x)
            except TournamentError as e:  # of a list of eight deals, the refusal says which is wrong
                raise refusal(N_("round {round} table {table}: {problem}"), round=round_no, table=table_no,
                              problem=said(N_("deal {deal}: {problem}"), deal=n, problem=clause(e))) from None
        data = {"round": round_no, "table": table_no, "deals": items, "reason": reason, "end": end}
        self._append_all(tid, [("deals_set", data)], actor, _table_unchanged(round_no, table_no, seen))

    def set_time_zone(self, tid: int, zone: str, reason: str = "", actor: str = "arbiter") -> str:
        """Set the venue's time zone (an IANA name this machine knows, such as ``Asia/Shanghai``): the zone
        people's times are typed and shown in from now on. The log's times do not change (they are UTC)."""
        name = check_zone(zone)
        self._append(tid, "time_zone_set", {"time_zone": name, "reason": reason}, actor)
        return name

    # ---- codes -----------------------------------------------------------------------------------
    def check_code(self, tid: int, round_no: int, table_no: int, code: str, actor: str = "web") -> int:
        """The side (0 home, 1 away) whose code ``code`` is at this table.

        A wrong code is logged; after :data:`CODE_LIMIT` of them in a round the table is locked (logged too)
        and no code is accepted until the arbiter unlocks it. Raises a :class:`TournamentError` saying so.
        """
        def look(st: TournamentState) -> tuple[bool, int, int | None]:
            ts = st.table(round_no, table_no)
            return ts.locked, ts.wrong_codes, st.side_of_code(round_no, table_no, code)

        locked, wrong_before, side = self.peek(tid, look)
        where = {"round": round_no, "table": table_no}
        if locked:
            raise locked_refusal(round_no, table_no, wrong_before)
        typed = "".join(code.split())
        if not (len(typed) == CODE_DIGITS and typed.isascii() and typed.isdigit()):
            # not a guess at any code (a mistyped length, a letter): said in words, never counted or logged
            raise refusal(N_("A team's code is {digits} digits (0–9); what was typed is not. This try was not "
                             "counted: type the code on your team's half of the slip again"),
                          digits=CODE_DIGITS, **where)
        if side is not None:
            return side
        st = self._append(tid, "code_refused", dict(where), actor)
        wrong = st.table(round_no, table_no).wrong_codes
        if wrong >= CODE_LIMIT:
            self._append(tid, "table_locked", {**where, "reason": f"{wrong} wrong codes"}, actor)
            raise refusal(N_("Wrong code. Round {round} table {table} is now locked after {n} wrong codes: the "
                             "arbiter must unlock it"), n=wrong, **where)
        raise refusal(N_("Wrong code: use the 6-digit code on your team's half of the slip. Tries left before "
                         "the table is locked: {left}"), left=CODE_LIMIT - wrong, **where)

    def lock_table(self, tid: int, round_no: int, table_no: int, reason: str, actor: str = "arbiter") -> None:
        self._append(tid, "table_locked", {"round": round_no, "table": table_no, "reason": reason}, actor)

    def unlock_table(self, tid: int, round_no: int, table_no: int, reason: str = "", actor: str = "arbiter",
                     seen: int | None = None) -> None:
        self._append_all(tid, [("table_unlocked", {"round": round_no, "table": table_no, "reason": reason})], actor,
                         _table_unchanged(round_no, table_no, seen))

    def _team_id(self, tid: int, ref: int | str) -> int:
        """Names are resolved before logging, so the log always holds team numbers."""
        with self._lock, self.sessions() as s:
            return self._load(s, tid).team(ref).id

    def override(self, tid: int, round_no: int, table_no: int, slip: ResultSlip, reason: str,
                 actor: str = "arbiter", seen: int | None = None, late_minutes: float | None = None) -> None:
        """The arbiter's final result. In a knockout, a correction that sends another team through to a round
        already paired (and not started) re-pairs that round in the same transaction. ``seen`` as for
        :meth:`set_deals`; ``late_minutes`` as for :meth:`enter_result`."""
        st = self.state(tid)
        expect = _table_unchanged(round_no, table_no, seen)
        late = _lateness(slip, late_minutes)
        if st.is_knockout:
            entries = plan_override(st, round_no, table_no, slip, reason)
            entries[0][1].update(late)  # the result's own entry, before any re-pairing it brings
            self._append_all(tid, entries, actor, expect)
            return
        self._append_all(tid, [("result_overridden", self._result(round_no, table_no, slip, reason=reason, **late))],
                         actor, expect)

    def report(self, tid: int, round_no: int, table_no: int, slip: ResultSlip, actor: str = "server") -> None:
        self._append(tid, "result_reported", self._result(round_no, table_no, slip), actor)

    def report_deals(self, tid: int, round_no: int, table_no: int, finishes: Sequence[Any],
                     actor: str = "server") -> None:
        """A per-deal table played where nobody reports by hand (bots, the game server): every deal's finishing
        order, each reported by the away team and confirmed by the home team, in one transaction, so the log
        holds the whole table or none of it. The desk settles the levels from the orders as for any table."""
        tb = self.state(tid).table(round_no, table_no).table
        entries: list[tuple[str, dict[str, Any]]] = []
        for n, finish in enumerate(finishes, 1):
            where = {"round": round_no, "table": table_no, "deal": n}
            entries.append(("deal_reported", {**where, "finish": [SEATS[x] for x in parse_finish(finish)],
                                              "by": tb.away}))
            entries.append(("deal_confirmed", {**where, "by": tb.home}))
        self._append_all(tid, entries, actor)

    @staticmethod
    def _result(round_no: int, table_no: int, slip: ResultSlip, **extra: Any) -> dict[str, Any]:
        # Checked here rather than in ResultSlip, which older logs (that took 0) must still replay through.
        if slip.deals == 0:
            raise refusal(N_("deals played must be 1 or more: a round with no deal played is scored as a "
                             "forfeit (or by the arbiter's override)"))
        return {"round": round_no, "table": table_no, "result": slip.to_dict(), **extra}

    # ---- storage -------------------------------------------------------------------------------
    def _row(self, s: Session, tid: int) -> TournamentRow:
        missing = NotFoundError(f"no tournament number {tid}", msgid=N_("There is no tournament number {id}"),
                                params={"id": tid})
        if not 0 < tid < 2**31:  # ids are SQL INTEGERs: a larger number names none, and would not even bind
            raise missing
        row = s.get(TournamentRow, tid)
        if row is None:
            raise missing
        return row

    @staticmethod
    def _events(s: Session, tid: int, after: int) -> list[Event]:
        # plain columns, not ORM objects: a per-deal event's log runs to tens of thousands of entries
        row = TournamentEventRow
        q = (select(row.seq, row.type, row.data, row.actor, row.created_at)
             .where(row.tournament_id == tid, row.seq > after).order_by(row.seq))
        try:
            events = [Event(seq, type_, data, actor, at.isoformat()) for seq, type_, data, actor, at in s.execute(q)]
        except (ValueError, TypeError, AttributeError):  # an entry edited by hand: its data no JSON, its time none
            raise _unreadable(s, tid, q) from None
        # one small query rather than a walk through every entry: most events keep no names beside the log
        people = _people(s, tid)
        if not people:
            return events
        out = []
        for e in events:
            try:
                out.append(Event(e.seq, e.type, _resolved(e.data, people), e.actor, e.at) if _names_someone(e.data)
                           else e)
            except TournamentError as problem:
                raise damaged(tid, e.seq, clause(problem)) from None
        return out

    # ---- names kept beside the log (people who may ask to be forgotten: online events' accounts) ----------
    def keep_name(self, tid: int, name: str) -> dict[str, int]:
        """A reference to ``name`` for log entries, ``{"person": id}``: the entry holds the reference and
        the name is kept beside the log, where :meth:`forget_name` can erase it. One name (compared
        case-blind) has one reference in a tournament."""
        name = name.strip()
        if not name or len(name) > 100:
            raise refusal(N_("a player's name must be 1…100 characters, not {name}"), name=shown(name))
        with self._lock, self.sessions.begin() as s:
            self._row(s, tid)
            people = _people(s, tid)
            for pid, known in people.items():
                if known.casefold() == name.casefold():
                    return {"person": pid}
            pid = max(people, default=0) + 1
            s.add(TournamentPerson(tournament_id=tid, id=pid, name=name))
        return {"person": pid}

    def forget_name(self, tid: int, name: str, pseudonym: str, reason: str, actor: str) -> int:
        """Erase ``name`` (case-blind) from tournament ``tid``: the people of that name read as ``pseudonym``
        from now on, in every entry that referred to them, and a ``names_forgotten`` entry (without the
        name) makes every desk reading this log replay it. Returns how many were forgotten (0: none of
        that name, nothing changes). A name written into the log itself (not through :meth:`keep_name`)
        stays: the log is append-only."""
        key = name.strip().casefold()
        if not key or not pseudonym.strip() or not reason.strip():
            raise refusal(N_("forgetting a name needs the name, what to show instead and a reason"))
        with self._lock:
            try:
                with self.sessions.begin() as s:
                    row = self._row(s, tid)
                    people = s.scalars(select(TournamentPerson).where(TournamentPerson.tournament_id == tid))
                    forgotten = [p for p in people if p.name.casefold() == key]
                    for p in forgotten:
                        p.name = pseudonym.strip()
                    if not forgotten:
                        return 0
                    s.flush()
                    state = replay(self._events(s, tid, 0), tid)  # the log must read whole with the new names
                    now = self.now()
                    self._write(s, row, state, Event(state.last_seq + 1, "names_forgotten",
                                                     {"people": len(forgotten), "reason": reason.strip()}, actor,
                                                     now.isoformat()), now)
            finally:
                self._cache.pop(tid, None)
                self._written.pop(tid, None)
        return len(forgotten)

    def _load(self, s: Session, tid: int) -> TournamentState:
        row = self._row(s, tid)
        state = self._cache.get(tid)
        if state is None or state.last_seq > row.last_seq:
            state = TournamentState(id=tid)
            self._written.pop(tid, None)
        if state.last_seq < row.last_seq:
            try:
                news = self._events(s, tid, state.last_seq)
                if any(ev.type == "names_forgotten" for ev in news):  # names changed in entries already read
                    state, news = TournamentState(id=tid), self._events(s, tid, 0)
                    self._written.pop(tid, None)
                for ev in news:
                    apply_stored(state, ev)
            except TournamentError:
                self._cache.pop(tid, None)
                raise
        self._cache[tid] = state
        return state

    def _append(self, tid: int, type_: str, data: dict[str, Any], actor: str) -> TournamentState:
        return self._append_all(tid, [(type_, data)], actor)

    def _append_all(self, tid: int, entries: Sequence[tuple[str, dict[str, Any]]], actor: str,
                    expect: Callable[[TournamentState], None] | None = None) -> TournamentState:
        """Append ``entries`` in one transaction: all of them, or (when one is refused) none. ``expect`` is
        called on the state first, in the same transaction, and refuses (raises) when it is not the one the
        entries were meant for."""
        for attempt in (1, 2):
            try:
                with self._lock, self.sessions.begin() as s:
                    row = self._row(s, tid)
                    state = self._load(s, tid)
                    if expect is not None:
                        expect(state)
                    now = self.now()
                    for type_, data in entries:
                        self._write(s, row, state, Event(state.last_seq + 1, type_, data, actor, now.isoformat()), now)
                return state
            except (IntegrityError, OperationalError) as e:
                if isinstance(e, OperationalError) and "locked" not in str(e):
                    raise
                # Another writer got the same sequence number first (or held the lock too long):
                # forget what we cached and try once more against the newer log.
                self._cache.pop(tid, None)
                self._written.pop(tid, None)
                if attempt == 2:
                    raise refusal(N_("another change to this tournament was being recorded; try again")) from None
            except BaseException:
                self._cache.pop(tid, None)
                self._written.pop(tid, None)
                raise
        raise AssertionError("unreachable")

    def _write(self, s: Session, row: TournamentRow, state: TournamentState, ev: Event, now: datetime) -> None:
        # validates first: raises before anything is added to the session; the state reads the names an
        # entry refers to, the log keeps the references
        read = Event(ev.seq, ev.type, _resolved(ev.data, _people(s, row.id)), ev.actor, ev.at) \
            if _names_someone(ev.data) else ev
        state.check_new(read)
        state.apply(read)
        s.add(TournamentEventRow(tournament_id=row.id, seq=ev.seq, type=ev.type, data=ev.data, actor=ev.actor[:80],
                                 created_at=now))
        row.last_seq, row.current_round, row.status = ev.seq, state.current_round, status_of(state)
        table = state.standings()
        if self._written.get(row.id) != table:
            s.execute(delete(StandingRow).where(StandingRow.tournament_id == row.id))
            if table:  # Core bulk insert: one statement per change, not one ORM object per team
                s.execute(insert(StandingRow), [
                    {"tournament_id": row.id, "team_id": x.team_id, "rank": x.rank,
                     "team_name": state.teams[x.team_id].name, "club": state.teams[x.team_id].club,
                     "match_points": x.match_points, "opponents_points": x.opponents_points, "level_diff": x.level_diff,
                     "levels_gained": x.levels_gained, "played": x.played, "wins": x.wins, "draws": x.draws,
                     "losses": x.losses, "byes": x.byes, "as_of_seq": ev.seq}
                    for x in table])
            self._written[row.id] = table


def _lateness(slip: ResultSlip, minutes: float | None) -> dict[str, Any]:
    """A forfeit's lateness for its log entry (a whole number of minutes as an integer); nothing for a result that
    is not a forfeit, or without one. The state does not read it: the forfeit is scored by the event's rules."""
    if minutes is None or slip.forfeit is None:
        return {}
    return {"late_minutes": int(minutes) if float(minutes).is_integer() else float(minutes)}


def _table_unchanged(round_no: int, table_no: int, seen: int | None) -> Callable[[TournamentState], None] | None:
    """Refuses when the table has changed since the arbiter's page showed it at ``seen`` (None: no check)."""
    if seen is None:
        return None

    def check(st: TournamentState) -> None:
        if st.table(round_no, table_no).seq != seen:
            raise refusal(N_("Round {round} table {table} has changed since this page was shown (the form was sent "
                             "before, or a team reported meanwhile): nothing was changed. Check the table as it is "
                             "now and send the form again if it still applies"), round=round_no, table=table_no)
    return check


def _round_unchanged(round_no: int, seen: int) -> Callable[[TournamentState], None]:
    def check(st: TournamentState) -> None:
        if st.current_round != round_no or st.round(round_no).seq != seen:
            raise refusal(N_("Round {round} has changed since this page was shown (it was re-paired, or its clock "
                             "started): nothing was changed. Check the round as it is now and send the form "
                             "again if it still applies"), round=round_no)
    return check


def _unreadable(s: Session, tid: int, q: Any) -> TournamentError:
    """The refusal of a log whose entries cannot all be read back, naming the first that cannot. Reads them
    one by one, which only a damaged log pays for."""
    row = TournamentEventRow
    for seq in s.scalars(q.with_only_columns(row.seq)):
        try:
            s.execute(q.where(row.seq == seq)).one()[4].isoformat()
        except (ValueError, TypeError, AttributeError):
            return damaged(tid, seq, said(N_("its data or its time cannot be read")))
    return refusal(N_("the audit log of tournament {id} cannot be read back"), id=tid)


def status_of(state: TournamentState) -> str:
    if state.config is None:
        return "new"
    if not state.rounds:
        return "registration"
    if state.finished:
        return "finished"
    r = state.current_round
    return f"round {r} complete" if state.rounds[r].complete else f"round {r} in play"


def _names_someone(value: Any) -> bool:
    if isinstance(value, dict):
        return (len(value) == 1 and "person" in value) or any(_names_someone(v) for v in value.values())
    if isinstance(value, list):
        return any(_names_someone(v) for v in value)
    return False


def _people(s: Session, tid: int) -> dict[int, str]:
    q = select(TournamentPerson.id, TournamentPerson.name).where(TournamentPerson.tournament_id == tid)
    return {pid: name for pid, name in s.execute(q)}


def _resolved(value: Any, people: dict[int, str]) -> Any:
    """``value`` with every ``{"person": id}`` replaced by that person's name (kept beside the log)."""
    if isinstance(value, dict):
        if len(value) == 1 and "person" in value:
            pid = value["person"]
            if not isinstance(pid, int) or pid not in people:
                raise TournamentError(f"an entry refers to person {shown(pid)}, whom this tournament does not know")
            return people[pid]
        return {k: _resolved(v, people) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolved(v, people) for v in value]
    return value


def report_table_result(desk: Desk | str | None, tournament_id: int, round_no: int, table_no: int, *,
                        levels: tuple[str | int, str | int], passed_a: int | None = None,
                        deals_played: int | None = None, decider: int | None = None) -> None:
    """Called by the game server when a tournament table played on it is over.

    ``levels`` and ``passed_a`` use the engine's teams: team 0 (seats 0 and 2) is the table's home team
    (North–South), team 1 the away team. The report is final, like a confirmed result; if the table already
    has a final result (an arbiter's override, say) it is refused with a :class:`TournamentError`. In a
    knockout a round that ended level needs ``decider``: the team that won the one extra deal.
    """
    d = desk if isinstance(desk, Desk) else Desk.open(desk)
    slip = ResultSlip((level_name(level_value(levels[0])), level_name(level_value(levels[1]))), passed_a, deals_played,
                      decider=decider)
    d.report(tournament_id, round_no, table_no, slip)
