"""Online events on the web app's own tables: registration, the rounds' rooms, the server's reports.

The tournament desk (guandan.tournament) keeps the event; this module is the game server's side of it
(the desk's side is :mod:`guandan.tournament.online`):

* Teams of two accounts enter: one account names the team and its partner's username, the partner
  confirms, and the team is registered with the desk under the two usernames (``online_entries``).
* When the arbiter has paired a round and started its clock (the CLI, the desk's pages or this module's
  arbiter page), :meth:`OnlineEvents.reconcile` opens one room per table with the event's rules and deal
  cap and a secret seed. Every seat is bound to its player's account: the seat's token is handed out only
  to that account's session (``POST /api/events/{id}/seat``), and the room takes no one else.
* The server reports every deal (or, for an event reported by round, the table's result) to the desk as
  it is played; no slip and no confirmation. After the round's time warning the deal in progress is the
  table's last. A seat nobody took within the lateness rule's forfeit time loses the round for its team
  by forfeit. A player whose connection drops is played for by a bot (托管) on their turns until they
  are back; their return switches it off.
* The arbiter's pause and replacement of a player are desk entries: whoever writes them, the next
  reconciliation holds the table (or lets it go on), and binds the seat to the new player's account.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import IntegrityError

from ..core.errors import GuandanError
from ..core.events import DealSettled
from ..core.rules import PRESET_NAMES, preset
from ..core.vocab import Scoring
from ..db import make_session_factory
from ..db.accounts import User
from ..db.online import OnlineEntry, OnlineRoom
from ..db.tournament import TournamentEventRow
from ..i18n import translator, unprintable
from ..tournament import online
from ..tournament.bracket import placings
from ..tournament.deals import SEAT_NAMES
from ..tournament.desk import Desk, report_table_result, status_of
from ..tournament.errors import NotFoundError, TournamentError
from ..tournament.model import FORMATS, EventConfig, LatenessRules, RoundLimits
from ..tournament.pagelang import explain
from ..tournament.rounds import ResultSlip
from ..tournament.state import FINAL, TableState, TournamentState, parse_time
from ..tournament.web import blockers_words, result_words
from . import events_text as tx
from .accounts_service import current_user, require_user
from .i18n_web import LANGS
from .protocol import Words, say
from .rooms import Room, RoomConfig, Seat, hash_token, new_token
from .table import ServiceError, TableService

log = logging.getLogger("guandan.server")
STATIC = Path(__file__).parent / "static"
SIDES = ((0, 2), (1, 3))  # the engine seats of the home (North–South) and away (East–West) teams
Text = Annotated[str, Field(max_length=500)]
RECENT_DAYS = 30  # a finished event stays on the site's list of events this long after its last entry
LISTED_MAX = 100  # events on that list at most (the ones being played first, then open, then finished)
WARNING_MINUTES = 5  # a new event's time warning, before its round's time is up (the CLI's default)


class EntryBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    team_name: Text = ""
    partner: Text = ""


class NewEventBody(BaseModel):
    """An organiser's new event: what ``guandan tournament new NAME --online`` takes that the form asks (the
    rest as the command's defaults). A number left empty is null: the command's default."""
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, Field(max_length=1000)] = ""
    format: Annotated[str, Field(max_length=40)] = "pairs-swiss"
    rounds: int | None = None
    max_deals: int | None = None
    max_minutes: int | None = None
    preset: Annotated[str, Field(max_length=40)] = "competition"


class FieldRefusal(ServiceError):
    """A refused form: ``field`` is the form's field at fault, for the page to point at."""

    def __init__(self, field: str, words: Words) -> None:
        super().__init__(words.msgid, 422, "bad_" + field, words=words)
        self.field = field

    def body(self) -> dict[str, Any]:
        return {**super().body(), "field": self.field}


class KeyBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    key: Annotated[str, Field(min_length=1, max_length=100)]


class RoundBody(KeyBody):
    seed: int | None = Field(default=None, ge=0, le=2**31)


class TableBody(KeyBody):
    round: int = Field(ge=1, le=99)
    table: int = Field(ge=1, le=9999)
    reason: Text = ""


class OverrideBody(TableBody):
    levels: Annotated[str | None, Field(max_length=20)] = None  # home:away, e.g. A:6
    passed_a: Annotated[str | None, Field(max_length=10)] = None
    forfeit: Annotated[str | None, Field(max_length=10)] = None


class ReplaceBody(KeyBody):
    team: Annotated[str, Field(min_length=1, max_length=100)]
    old: Annotated[str, Field(min_length=1, max_length=100)]
    new: Annotated[str, Field(min_length=1, max_length=100)]
    reason: Text = ""


def _refused(status: int, code: str, words: Words, message: str | None = None) -> ServiceError:
    return ServiceError(message or words.msgid.format(**{k: str(v) for k, v in words.params.items()}), status, code,
                        words=words)


@dataclass(frozen=True)
class DeskWords(Words):
    """A refusal of the tournament desk in each page language: the web catalogue's sentence round the desk's own
    reason, as the desk's pages say it (its catalogue's words, its English where it has none)."""

    error: Exception | None = None

    def render(self, lang: str) -> str:
        why = explain(self.error, lang).detail if self.error is not None else ""
        return translator("web", lang).gettext(self.msgid).format(why=why)


def _desk_refusal(e: TournamentError) -> ServiceError:
    status = 404 if isinstance(e, NotFoundError) else 409
    return ServiceError(str(e), status, "desk_refused", words=DeskWords(tx.DESK_REFUSED_WHY, error=e))


def _name(user: User) -> str:
    return user.display_name or user.username or ""


class OnlineEvents:
    """The game server's side of every online event in one database. Watches the tables of ``service``."""

    def __init__(self, engine: Engine, service: TableService, desk: Desk | None = None, *,
                 tick_s: float = 1.0) -> None:
        self.service = service
        self.desk = desk or Desk(engine, migrate=False)
        self.sessions = make_session_factory(engine)
        self.tick_s = tick_s
        self.task: asyncio.Task[None] | None = None
        self.codes: dict[str, tuple[int, int, int]] = {}  # room code -> (tournament, round, table)
        self._online: dict[int, bool] = {}
        # when each seat of a table still in its lobby was first taken (the lateness rule's first-deal award);
        # in memory only: after a restart the player who completes the table counts as the late one
        self.taken_at: dict[str, list[datetime | None]] = {}
        with self.sessions() as s:
            for row in s.scalars(select(OnlineRoom)):
                self.codes[row.room_code] = (row.tournament_id, row.round, row.table_no)
        self.tables = {where: code for code, where in self.codes.items()}
        service.bound.update(self.codes)
        service.event_tables.update(self.codes)
        service.watchers.append(self)

    def forget_account(self, user_id: int, username: str) -> None:
        """A deleted account: its username is erased from every online event (``#<id>`` reads in its place,
        which no username can be) and its invitations not yet confirmed go."""
        with self.sessions.begin() as s:
            s.execute(delete(OnlineEntry).where(OnlineEntry.status != "confirmed",
                                                (OnlineEntry.user1_id == user_id) | (OnlineEntry.user2_id == user_id)))
        if not username:
            return
        for row in self.desk.tournaments():
            if online.is_online(self.desk, row.id):
                self.desk.forget_name(row.id, username, f"#{user_id}", "account deleted", "server")

    # ---- reading ---------------------------------------------------------------------------------
    def event(self, tid: int) -> TournamentState:
        """The online event ``tid`` (a 404 when there is none, or it is not online)."""
        if not self._online.get(tid):
            try:
                self.desk.peek(tid, lambda st: st.last_seq)
            except NotFoundError:
                raise _refused(404, "no_event", say(tx.NO_EVENT, id=tid)) from None
            self._online[tid] = online.is_online(self.desk, tid)
            if not self._online[tid]:
                raise _refused(404, "not_online", say(tx.NOT_ONLINE, id=tid))
        return self.desk.state(tid)

    def _user(self, username: str) -> User | None:
        key = username.strip().lower()
        if not key:
            return None
        with self.sessions() as s:
            return s.scalar(select(User).where(User.username_key == key, User.deleted_at.is_(None)))

    def _users(self, names: list[str]) -> dict[str, User]:
        keys = {n.strip().lower() for n in names if n.strip()}
        if not keys:
            return {}
        with self.sessions() as s:
            rows = s.scalars(select(User).where(User.username_key.in_(keys), User.deleted_at.is_(None)))
            return {u.username_key or "": u for u in rows}

    def _entries(self, tid: int) -> list[OnlineEntry]:
        with self.sessions() as s:
            return list(s.scalars(select(OnlineEntry).where(OnlineEntry.tournament_id == tid)
                                  .order_by(OnlineEntry.id)))

    def _room_code(self, tid: int, round_no: int, table_no: int) -> str | None:
        found = self.tables.get((tid, round_no, table_no))
        if found is not None:  # the rooms this process opened or found at start: no query every second
            return found
        with self.sessions() as s:
            row = s.get(OnlineRoom, (tid, round_no, table_no))
            return row.room_code if row is not None else None

    @staticmethod
    def team_of(state: TournamentState, username: str) -> int | None:
        key = username.casefold()
        for t in state.teams.values():
            if t.id not in state.withdrawn and key in (p.casefold() for p in t.players):
                return t.id
        return None

    # ---- the site's list of events -----------------------------------------------------------------
    def listing(self, me: User | None) -> list[dict[str, Any]]:
        """The online events for the site's list (``/events``): those being played, those open for entry and
        those that finished within :data:`RECENT_DAYS`, each with no more than its own page shows anyone
        (never its arbiter key, nor a room's code). ``entered`` (with ``me``): ``me`` plays in one of its
        teams, or has an entry waiting there."""
        ids = set(online.online_ids(self.desk))
        if not ids:
            return []
        ev = TournamentEventRow
        with self.sessions() as s:
            last = dict(s.execute(select(ev.tournament_id, func.max(ev.created_at))
                                  .where(ev.tournament_id.in_(sorted(ids))).group_by(ev.tournament_id)).all())
            waiting = set(s.scalars(select(OnlineEntry.tournament_id).where(
                OnlineEntry.status == "pending", (OnlineEntry.user1_id == me.id) | (OnlineEntry.user2_id == me.id)))
            ) if me is not None else set()
        since = self.desk.now() - timedelta(days=RECENT_DAYS)
        rows = []
        for row in self.desk.tournaments():
            at = last.get(row.id)
            if row.id not in ids or at is None or row.status == "new":
                continue
            at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite gives back naive UTC
            phase = "finished" if row.status == "finished" else "open" if row.status == "registration" else "playing"
            if phase == "finished" and at < since:
                continue
            rows.append((phase, at, row.id))
        order = {"playing": 0, "open": 1, "finished": 2}
        rows.sort(key=lambda x: (order[x[0]], -x[1].timestamp(), -x[2]))
        username = me.username if me is not None else None
        out = []
        for phase, at, tid in rows[:LISTED_MAX]:
            def read(st: TournamentState, phase: str = phase, at: datetime = at, tid: int = tid) -> dict[str, Any]:
                item: dict[str, Any] = {
                    "id": tid, "name": st.cfg.name, "phase": phase, "rounds": st.rounds_total,
                    "current_round": st.current_round, "teams": len(st.active_teams), "preset": st.cfg.rules.name,
                    "updated_at": at.isoformat(), "link": f"/events/{tid}"}
                if username is not None:
                    item["entered"] = tid in waiting or self.team_of(st, username) is not None
                return item
            try:
                out.append(self.desk.peek(tid, read))
            except TournamentError:  # a log that cannot be read back: its own page says so, the list leaves it out
                log.exception("online event %d could not be read for the list of events", tid)
        return out

    # ---- an organiser's new event -----------------------------------------------------------------
    def create(self, me: User, body: NewEventBody) -> dict[str, Any]:
        """A new online event made by the organiser ``me`` from the site's form, checked as the CLI's
        ``tournament new --online`` checks it (each refusal naming the form's field; nothing is made then):
        its page, its arbiter page and its arbiter key."""
        if not me.organiser:
            raise _refused(403, "not_organiser", say(tx.NOT_ORGANISER))
        config = new_event_config(body, self.desk.now())
        try:
            tid = online.create_online(self.desk, config, actor=_organiser_actor(me))
        except TournamentError as e:
            raise _desk_refusal(e) from None
        self._online[tid] = True
        key = self.desk.state(tid).secret
        return {"id": tid, "link": f"/events/{tid}", "arbiter": f"/events/{tid}/arbiter", "key": key}

    def made_by(self, tid: int, me: User) -> bool:
        """Whether the account ``me`` made event ``tid`` from the site's form (its creation entry names the
        account; an event made at the command line names none)."""
        row = TournamentEventRow
        with self.desk.sessions() as s:
            actor = s.scalar(select(row.actor).where(row.tournament_id == tid, row.seq == 1))
        return actor == _organiser_actor(me)

    # ---- registration ----------------------------------------------------------------------------
    def enter(self, tid: int, me: User, team_name: str, partner: str) -> dict[str, Any]:
        """``me`` enters a team named ``team_name`` with the account ``partner``, who must confirm."""
        st = self.event(tid)
        if st.rounds:
            raise _refused(409, "registration_closed", say(tx.REGISTRATION_CLOSED))
        name = team_name.strip()
        if not name or len(name) > 100 or name.isdigit():
            raise _refused(422, "bad_team_name", say(tx.TEAM_NAME))
        mate = self._user(partner)
        if mate is None:
            raise _refused(404, "no_player", say(tx.NO_PARTNER, name=partner.strip()[:40]))
        if mate.id == me.id:
            raise _refused(422, "self_partner", say(tx.SELF_PARTNER))
        entries = self._entries(tid)
        if any(me.id in (e.user1_id, e.user2_id) for e in entries) or self.team_of(st, me.username or ""):
            raise _refused(409, "already_entered", say(tx.ALREADY_ENTERED))
        if any(mate.id in (e.user1_id, e.user2_id) for e in entries) or self.team_of(st, mate.username or ""):
            raise _refused(409, "partner_entered", say(tx.PARTNER_ENTERED, name=_name(mate)))
        taken = [t.name for t in st.teams.values()] + [e.team_name for e in entries]
        if any(x.casefold() == name.casefold() for x in taken):
            raise _refused(409, "team_taken", say(tx.TEAM_TAKEN, name=name))
        try:
            with self.sessions.begin() as s:
                s.add(OnlineEntry(tournament_id=tid, team_name=name, user1_id=me.id, user2_id=mate.id,
                                  status="pending"))
        except IntegrityError:  # another request entered one of them first
            raise _refused(409, "already_entered", say(tx.ALREADY_ENTERED)) from None
        return self.view(tid, me)

    def confirm(self, tid: int, me: User) -> dict[str, Any]:
        """The partner agrees: the team is registered with the desk under both usernames."""
        st = self.event(tid)
        entry = next((e for e in self._entries(tid) if e.user2_id == me.id and e.status == "pending"), None)
        if entry is None:
            raise _refused(404, "no_invitation", say(tx.NO_INVITATION))
        if st.rounds:
            raise _refused(409, "registration_closed", say(tx.REGISTRATION_CLOSED))
        with self.sessions() as s:
            first = s.get(User, entry.user1_id)
        if first is None or first.username is None:  # the account that asked was deleted since
            self._drop(entry.id)
            raise _refused(404, "no_invitation", say(tx.NO_INVITATION))
        try:
            # the log refers to the two players; their names are kept beside it, to be erased with the account
            players = [self.desk.keep_name(tid, first.username), self.desk.keep_name(tid, me.username or "")]
            team = self.desk.register(tid, entry.team_name, players, actor=f"online:#{me.id}")
        except TournamentError as e:
            raise _desk_refusal(e) from None
        with self.sessions.begin() as s:
            row = s.get(OnlineEntry, entry.id)
            assert row is not None
            row.status, row.team_id = "confirmed", team.id
        return self.view(tid, me)

    def decline(self, tid: int, me: User) -> dict[str, Any]:
        """The partner declines, or the account that asked withdraws, an entry still waiting; once the entries
        are closed there is nothing left to decline (the entry is not in the event), and the page says so."""
        st = self.event(tid)
        entry = next((e for e in self._entries(tid) if me.id in (e.user1_id, e.user2_id) and e.status == "pending"),
                     None)
        if entry is None:
            raise _refused(404, "no_entry", say(tx.NO_ENTRY))
        if st.rounds:
            raise _refused(409, "registration_closed", say(tx.REGISTRATION_CLOSED))
        self._drop(entry.id)
        return self.view(tid, me)

    def _drop(self, entry_id: int) -> None:
        with self.sessions.begin() as s:
            row = s.get(OnlineEntry, entry_id)
            if row is not None:
                s.delete(row)

    # ---- what a player sees ----------------------------------------------------------------------
    def view(self, tid: int, me: User | None) -> dict[str, Any]:
        st = self.event(tid)
        cfg = st.cfg
        r = st.current_round
        names = self._users([p for t in st.teams.values() for p in t.players])
        places = final_places(st)

        def shown(p: str) -> str:
            u = names.get(p.lower())
            return _name(u) if u is not None else p

        out: dict[str, Any] = {
            "id": tid, "name": cfg.name, "status": status_of(st), "rounds": st.rounds_total, "current_round": r,
            "finished": st.finished, "registration_open": not st.rounds, "per_deal": cfg.per_deal, "format": cfg.format,
            "preset": cfg.rules.name, "limits": cfg.limits.to_dict(),
            "teams": [{"id": t.id, "name": t.name, "players": [shown(p) for p in t.players],
                       "withdrawn": t.id in st.withdrawn, "place": places.get(t.id)} for t in st.teams.values()],
            "clock": st.round_clock(r, self.desk.now()) if r else None,
            "standings": f"/t/{tid}/standings", "pairings": f"/t/{tid}/pairings", "me": None,
        }
        if places:  # the event is over: the teams in their final order
            out["teams"].sort(key=lambda t: (t["place"] is None, t["place"] or 0))
        if me is None:
            return out
        mine: dict[str, Any] = {"username": me.username, "entry": None, "invitation": None, "table": None}
        if me.organiser and self.made_by(tid, me):  # its arbiter key, to the account that made it alone
            mine["arbiter_key"] = st.secret
        with self.sessions() as s:
            for e in self._entries(tid):
                if me.id not in (e.user1_id, e.user2_id) or e.status != "pending":
                    continue
                other = s.get(User, e.user2_id if e.user1_id == me.id else e.user1_id)
                item = {"team_name": e.team_name, "partner": _name(other) if other else ""}
                mine["entry" if e.user1_id == me.id else "invitation"] = item
        team = self.team_of(st, me.username or "")
        if team is not None:
            t = st.teams[team]
            mine["team"] = {"id": team, "name": t.name, "players": [shown(p) for p in t.players]}
            ts = st.rounds[r].table_of(team) if r else None
            if ts is not None:
                tb = ts.table
                code = self._room_code(tid, r, tb.number)
                mine["table"] = {"round": r, "table": tb.number, "side": "home" if tb.home == team else "away",
                                 "opponents": st.teams[tb.away if tb.home == team else tb.home].name,
                                 "final": ts.status == FINAL, "open": code is not None and ts.status != FINAL,
                                 "room": code, "paused": ts.paused, "result_text": _result_texts(st, ts)}
            elif r and st.rounds[r].bye == team:
                mine["bye"] = r
        out["me"] = mine
        return out

    def take_seat(self, tid: int, me: User) -> dict[str, Any]:
        """A fresh seat token for ``me``'s seat at their table of the current round (the only way to the seat)."""
        st = self.event(tid)
        team = self.team_of(st, me.username or "")
        r = st.current_round
        ts = st.rounds[r].table_of(team) if team is not None and r else None
        if ts is None:
            raise _refused(404, "no_table", say(tx.NO_TABLE))
        code = self._room_code(tid, r, ts.table.number)
        if code is None:
            raise _refused(409, "table_not_open", say(tx.TABLE_NOT_OPEN))
        room = self.service.room(code)
        seat = next((i for i, s in enumerate(room.seats) if s.user_id == me.id), None)
        if seat is None:
            raise _refused(404, "no_table", say(tx.NO_TABLE))
        token = new_token()
        s = room.seats[seat]
        s.token_hash, s.name = hash_token(token), _name(me)
        if room.status == "lobby":
            s.ready = True
            times = self.taken_at.setdefault(room.code, [None] * 4)
            times[seat] = times[seat] or self.desk.now()
            if room.can_start() and not room.held:
                self._begin(tid, st, room, r, ts.table.number, seat)
            else:
                self.service._room_changed(room)
        else:
            self.service.save(room)
        return {"code": room.code, "token": token, "seat": seat, "link": f"/r/{room.code}"}

    # ---- the arbiter -----------------------------------------------------------------------------
    def check_key(self, tid: int, key: str) -> TournamentState:
        st = self.event(tid)
        if not hmac.compare_digest(key.encode(), st.secret.encode()):
            raise _refused(403, "wrong_key", say(tx.WRONG_KEY))
        return st

    def arbiter(self, action: str, tid: int, body: Any) -> dict[str, Any]:
        """One of the arbiter's commands, checked against the event's key; the tables follow at once."""
        self.check_key(tid, body.key)
        actor = "arbiter (web)"
        try:
            if action == "round":
                online.open_round(self.desk, tid, seed=body.seed, actor=actor)
            elif action == "pause":
                online.pause_table(self.desk, tid, body.round, body.table, body.reason, actor)
            elif action == "resume":
                online.resume_table(self.desk, tid, body.round, body.table, body.reason, actor)
            elif action == "override":
                slip = ResultSlip.parse(body.levels, body.passed_a, None, body.forfeit)
                self.desk.override(tid, body.round, body.table, slip, body.reason, actor)
            elif action == "replace":
                if self._user(body.new) is None:
                    raise _refused(404, "no_player", say(tx.NO_PARTNER, name=body.new.strip()[:40]))
                online.replace_player(self.desk, tid, body.team, body.old, body.new.strip().lower(), body.reason,
                                      actor)
        except TournamentError as e:
            raise _desk_refusal(e) from None
        self.reconcile(tid)
        return self.arbiter_view(tid, body.key)

    def arbiter_view(self, tid: int, key: str) -> dict[str, Any]:
        st = self.check_key(tid, key)
        r = st.current_round
        tables = []
        # each seat's name as the desk's table pages say it (North…West), in every page language
        seat_texts = [{lang: translator("desk", lang).gettext(name) for lang in LANGS} for name in SEAT_NAMES]
        for n, ts in sorted(st.rounds[r].tables.items()) if r else []:
            tb = ts.table
            code = self._room_code(tid, r, n)
            room = self.service.rooms.get(code) if code else None
            seats = []
            for i, player in enumerate(online.seats_of(st, r, n)):
                seat = room.seats[i] if room is not None else None
                seats.append({"player": player, "seat": i, "seat_text": seat_texts[i],
                              "present": seat is not None and seat.token_hash is not None,
                              "online": seat is not None and seat.connections > 0,
                              "auto": seat is not None and seat.auto})
            tables.append({"table": n, "home": st.teams[tb.home].name, "away": st.teams[tb.away].name,
                           "status": ts.status, "paused": ts.paused, "room": code, "seats": seats,
                           "room_status": room.status if room is not None else None,
                           "levels": list(ts.levels_now), "deals": len(ts.deals),
                           "result": ts.final.to_dict() if ts.final is not None else None,
                           "result_text": _result_texts(st, ts)})
        blockers = [] if st.finished else st.pairing_blockers()
        # why the next round cannot start, as the desk's own arbiter page says it, in every page language
        said = {lang: blockers_words(st, translator("desk", lang).gettext) for lang in LANGS} if blockers else {}
        # the teams as the desk names their players (usernames, which a replacement names), the account's name
        # beside: what the page offers the arbiter to choose from
        names = self._users([p for t in st.teams.values() for p in t.players])
        roster = [{"id": t.id, "name": t.name, "withdrawn": t.id in st.withdrawn,
                   "players": [{"username": p, "name": _name(u) if (u := names.get(p.lower())) is not None else p}
                               for p in t.players]} for t in st.teams.values()]
        # the round's byes (a Swiss round's one, a knockout's several), after its tables as the desk's page lists them
        rnd = st.rounds.get(r)
        byes = [*([rnd.bye] if rnd.bye is not None else []), *rnd.byes] if rnd is not None else []
        return {**self.view(tid, None), "tables": tables, "blockers": blockers, "roster": roster,
                "byes": [{"id": b, "name": st.teams[b].name} for b in byes],
                "blocker_texts": [{lang: said[lang][i] for lang in LANGS} for i in range(len(blockers))]}

    # ---- keeping the tables in step with the desk ------------------------------------------------
    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_s)
            try:
                self.tick()
            except Exception:  # the loop must outlive any one event's fault
                log.exception("the online events' round-up failed")

    def tick(self) -> None:
        """Bring every online event's tables in step with its desk (run every ``tick_s``)."""
        for tid in online.online_ids(self.desk):
            self._online[tid] = True
            try:
                if self.desk.peek(tid, lambda st: st.config is None or st.finished):
                    continue  # nothing to play: no copy of a long event's state every second
                self.reconcile(tid)
            except (GuandanError, ServiceError):
                log.exception("online event %d could not be brought up to date", tid)

    def reconcile(self, tid: int) -> None:
        """Open the rooms of the started round, bind their seats, hold paused tables, apply the lateness rule
        and the round's clock; stop the tables whose result the arbiter set."""
        st = self.desk.state(tid)
        if st.config is None or st.finished:
            return
        now = self.desk.now()
        r = st.current_round
        tables = online.open_tables(st)
        users = self._users([p for rr, n in tables for p in online.seats_of(st, rr, n)])  # one query a round-up
        for rr, n in tables:
            code = self._room_code(tid, rr, n)
            room = self._open_room(tid, st, rr, n) if code is None else self._live(code)
            if room is None:
                continue
            ts = st.table(rr, n)
            self._bind(st, room, rr, n, users)
            if ts.paused != room.held:
                self._hold(room, ts.paused)
            if room.status == "lobby":
                self._lateness(tid, st, room, rr, n, now)
            elif room.status == "playing":
                self._clock(st, room, rr, now)
        for code, (t, rr, n) in self.codes.items():
            if t != tid or rr != r:
                continue
            room = self.service.rooms.get(code)
            if room is not None and room.status == "playing" and st.table(rr, n).status == FINAL:
                self._end_now(room)  # the arbiter's result ended this table: nothing more is played there

    def _live(self, code: str) -> Room | None:
        try:
            return self.service.room(code)
        except ServiceError:  # closed (a forfeited lobby): nothing to play
            return None

    def _open_room(self, tid: int, st: TournamentState, round_no: int, table_no: int) -> Room:
        cfg = st.cfg
        name = cfg.rules.name if cfg.rules.name in PRESET_NAMES else "competition"
        wanted, base = json.loads(cfg.rules.to_json()), json.loads(preset(name).to_json())
        overrides = {k: v for k, v in wanted.items() if k != "name" and base.get(k) != v}
        cap = cfg.limits.max_deals
        if cap is not None and st.is_knockout:
            cap += 1  # room for the deciding deal of a level round: the desk says when the table is over
        config = RoomConfig(preset=name, rules=overrides, max_deals=cap,
                            name=cfg.name[:40], listed=False)  # the page says the round and table (event_table)
        room, _ = self.service.create_room(config, None)  # the host token is nobody's: the seats are bound
        self._bind(st, room, round_no, table_no)
        with self.sessions.begin() as s:
            s.add(OnlineRoom(tournament_id=tid, round=round_no, table_no=table_no, room_code=room.code))
        self.codes[room.code] = (tid, round_no, table_no)
        self.tables[(tid, round_no, table_no)] = room.code
        self.service.bound.add(room.code)
        self.service.event_tables[room.code] = (tid, round_no, table_no)
        self.service._room_changed(room)
        return room

    def _bind(self, st: TournamentState, room: Room, round_no: int, table_no: int,
              users: dict[str, User] | None = None) -> None:
        """Each seat held for the account of the player the desk has there (a replaced player's seat goes to
        the new account, whose session must take it; the old token and connections are dropped)."""
        players = online.seats_of(st, round_no, table_no)
        users = self._users(list(players)) if users is None else users
        changed = False
        for i, player in enumerate(players):
            user = users.get(player.lower())
            uid = user.id if user is not None else None
            seat = room.seats[i]
            if seat.kind == "human" and seat.user_id == uid and (uid is not None or seat.name == player):
                continue
            room.seats[i] = Seat(kind="human", name=_name(user) if user is not None else player, user_id=uid,
                                 auto=room.status == "playing")
            self.service.drop_seat_connections(room, i)
            changed = True
        if changed and room.code in self.codes:
            self.service._room_changed(room)
            self.service.schedule(room)

    def _hold(self, room: Room, held: bool) -> None:
        room.held = held
        if held:
            if room.status == "playing":
                self.service._pause(room)
            else:
                self.service._room_changed(room)
            return
        room.paused = False
        room.turn_started = self.service.clock()
        if room.status == "lobby" and room.can_start():
            self.service._start(room)
            return
        self.service._room_changed(room)
        self.service.schedule(room)

    def _lateness(self, tid: int, st: TournamentState, room: Room, round_no: int, table_no: int,
                  now: datetime) -> None:
        """A team with a seat nobody took more than the forfeit time after the round began loses the round
        by forfeit (RULES.md §5.4, lateness); when both teams are short the arbiter decides."""
        started = st.rounds[round_no].started_at
        if started is None or room.held:
            return
        late = (now - parse_time(started)).total_seconds() / 60
        if late <= st.cfg.lateness.forfeit_after:
            return
        absent = [side for side, seats in enumerate(SIDES) if any(room.seats[i].token_hash is None for i in seats)]
        if len(absent) != 1:
            return
        try:
            online.report_forfeit(self.desk, tid, round_no, table_no, absent[0])
        except TournamentError:
            log.exception("the forfeit of round %d table %d of event %d was not recorded", round_no, table_no, tid)
            return
        self.service._close_lobby(room)

    def _begin(self, tid: int, st: TournamentState, room: Room, round_no: int, table_no: int, last: int) -> None:
        """Every seat is taken: the match starts, unless the lateness rule says otherwise. A team whose second
        seat was taken more than the forfeit time after the start forfeits; more than the award time, and the
        other team is credited the first deal (it starts that many levels up, as declarer)."""
        cfg = st.cfg
        started = st.rounds[round_no].started_at
        times = self.taken_at.pop(room.code, [None] * 4)
        now = self.desk.now()
        minutes = [((t or now) - parse_time(started)).total_seconds() / 60 if started else 0.0 for t in times]
        if started and not any(times[i] for i in range(4) if i != last):
            minutes = [0.0 if i != last else minutes[i] for i in range(4)]
        late = [max(minutes[i] for i in seats) for seats in SIDES]
        rule = cfg.lateness
        try:
            forfeits = [side for side in (0, 1) if late[side] > rule.forfeit_after]
            if len(forfeits) == 1:
                online.report_forfeit(self.desk, tid, round_no, table_no, forfeits[0])
                self.service._close_lobby(room)
                return
            awarded = [side for side in (0, 1) if late[1 - side] > rule.deal_award_after]
            if len(awarded) == 1 and not forfeits:
                side = awarded[0]
                if cfg.per_deal:
                    team = st.teams[st.table(round_no, table_no).table.teams()[1 - side]].name
                    self.desk.set_deals(tid, round_no, table_no, [{"award": ("home", "away")[side]}],
                                        f"lateness: {team} more than {rule.deal_award_after} minutes late",
                                        actor="server")
                    if self.desk.state(tid).table(round_no, table_no).status == FINAL:  # a one-deal round
                        self.service._close_lobby(room)
                        return
                elif cfg.limits.max_deals == 1:  # reported by round, and the award is the whole round
                    levels = [2, 2]
                    levels[side] = min(14, 2 + rule.deal_award_levels)
                    report_table_result(self.desk, tid, round_no, table_no, levels=(levels[0], levels[1]),
                                        deals_played=1)
                    self.service._close_lobby(room)
                    return
                room.config.award = (side, rule.deal_award_levels)
                if room.config.max_deals is not None:
                    room.config.max_deals = max(1, room.config.max_deals - 1)
        except TournamentError:
            log.exception("the lateness rule could not be applied at round %d table %d of event %d", round_no,
                          table_no, tid)
        self.service._start(room)

    def _clock(self, st: TournamentState, room: Room, round_no: int, now: datetime) -> None:
        """From the round's warning no new deal starts: the deal being played is the table's last."""
        warning = st.warning_time(round_no)
        match = room.match
        if warning is None or now < warning or match is None or match.ended:
            return
        last = match.deal_index + (2 if st.is_knockout else 1)  # a knockout keeps room for its deciding deal
        if match.config.max_deals is not None and match.config.max_deals <= last:
            return
        match.config = replace(match.config, max_deals=last)
        room.config.max_deals = last  # a restarted table is rebuilt with the same end
        self.service.save(room)

    # ---- the tables' own news (TableService.watchers) --------------------------------------------
    def acted(self, room: Room, events: list[Any]) -> None:
        where = self.codes.get(room.code)
        match = room.match
        if where is None or match is None or not any(isinstance(e, DealSettled) for e in events):
            return
        tid, r, t = where
        try:
            st = self.desk.state(tid)
            if st.table(r, t).status == FINAL:
                return  # the arbiter's word came first
            awarded = 1 if room.config.award is not None else 0  # the lateness award is the table's deal 1
            if st.cfg.per_deal:
                after = online.report_deal(self.desk, tid, r, t, len(match.deals) + awarded, match.deals[-1].finish)
                if after.table(r, t).status == FINAL and not match.ended:
                    self._end_now(room)  # the desk ended the round (a knockout's deal cap, say) before the match
            elif st.is_knockout:
                self._knockout_result(tid, st, room, r, t, awarded)
            elif match.ended:
                levels = (match.levels[0] + 2, match.levels[1] + 2)
                report_table_result(self.desk, tid, r, t, levels=levels, passed_a=match.winner,
                                    deals_played=len(match.deals) + awarded)
        except TournamentError:
            log.exception("room %s: the deal was not recorded for round %d table %d of event %d", room.code, r, t, tid)

    def _knockout_result(self, tid: int, st: TournamentState, room: Room, r: int, t: int, awarded: int) -> None:
        """A knockout reported by round: the match's room holds one deal more than the round (its cap, or its
        time cut). At the round's last deal a winner is reported; level, the next deal decides (its first out),
        and the levels stay as the round left them."""
        match = room.match
        assert match is not None
        played = len(match.deals)
        regular = None if room.config.max_deals is None else room.config.max_deals - 1
        last = match.deals[-1]
        if match.winner is not None:  # passed A
            levels = (match.levels[0] + 2, match.levels[1] + 2)
            report_table_result(self.desk, tid, r, t, levels=levels, passed_a=match.winner,
                                deals_played=played + awarded)
            return
        if regular is None or played < regular:
            return
        if played == regular:
            after = last.settlement.levels_after
            if after[0] == after[1]:
                return  # level: the deciding deal is played on
            report_table_result(self.desk, tid, r, t, levels=(after[0] + 2, after[1] + 2),
                                deals_played=played + awarded)
            if not match.ended:
                self._end_now(room)
            return
        before = match.deals[-2].settlement.levels_after
        report_table_result(self.desk, tid, r, t, levels=(before[0] + 2, before[1] + 2),
                            deals_played=regular + awarded, decider=last.finish[0] % 2)

    def _end_now(self, room: Room) -> None:
        """The table's round is over before its match: the match ends with the deals played (the one just
        dealt is not played), its replay is kept, and everyone at the table is told."""
        match = room.match
        if match is None or room.status != "playing":
            return
        svc = self.service
        played = len(match.deals)
        match.config = replace(match.config, max_deals=max(1, played))
        match.ended = True
        room.config.max_deals = max(1, played)
        room.status, room.interval, room.held, room.paused = "over", None, False, False
        room.replay_id = svc._save_replay(room) if played else None
        svc.save(room)
        task = svc.tasks.pop(room.code, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        room.touched = svc.clock()
        svc._drop_agents(room.code)
        svc._broadcast_room(room)

    def seated(self, room: Room, seat: int) -> None:
        """A player of an online table who is back takes their seat over from the bot (托管 ends)."""
        if room.code in self.codes and room.seats[seat].auto and room.status == "playing":
            room.seats[seat].auto = False
            self.service.save(room)


def new_event_config(body: NewEventBody, now: datetime) -> EventConfig:
    """The event a new-event form asks for, with the defaults and the checks of ``guandan tournament new``."""
    name = body.name.strip()
    if not name or len(name) > 200:
        raise FieldRefusal("name", say(tx.EVENT_NAME))
    if any(unprintable(c) for c in name):
        raise FieldRefusal("name", say(tx.EVENT_NAME_PLAIN))
    if body.format not in FORMATS:
        raise FieldRefusal("format", say(tx.EVENT_FORMAT))
    knockout = body.format == "knockout"
    rounds = body.rounds if body.rounds is not None else 0 if knockout else 7
    if not (0 if knockout else 1) <= rounds <= 99:
        raise FieldRefusal("rounds", say(tx.EVENT_ROUNDS_KO if knockout else tx.EVENT_ROUNDS))
    deals = body.max_deals if body.max_deals is not None else 8
    if not 0 <= deals <= 99:
        raise FieldRefusal("max_deals", say(tx.EVENT_DEALS))
    minutes = body.max_minutes if body.max_minutes is not None else 50
    if not (minutes == 0 or WARNING_MINUTES <= minutes <= 24 * 60):
        raise FieldRefusal("max_minutes", say(tx.EVENT_MINUTES))
    if body.preset not in PRESET_NAMES:
        raise FieldRefusal("preset", say(tx.EVENT_PRESET))
    rules = preset(body.preset)
    try:
        return EventConfig(name=name, rounds=rounds, format=body.format, partners="fixed",
                           limits=RoundLimits(deals or None, minutes or None, True, WARNING_MINUTES if minutes else 0),
                           lateness=LatenessRules(), match_points=rules.match_points,
                           seed=secrets.randbelow(10**6), rules=rules,
                           per_deal=rules.name == "competition" and rules.scoring == Scoring.LEVELS)
    except TournamentError as e:
        raise _desk_refusal(e) from None


def create_router(events: OnlineEvents) -> APIRouter:
    router = APIRouter()

    @router.get("/events", include_in_schema=False)
    async def events_page() -> FileResponse:
        return FileResponse(STATIC / "events.html")

    @router.get("/api/events")
    def listing(req: Request) -> dict[str, Any]:
        """The online events being played, open for entry or recently finished (OnlineEvents.listing)."""
        return {"events": events.listing(current_user(req)), "recent_days": RECENT_DAYS}

    @router.get("/events/new", include_in_schema=False)
    async def new_event_page() -> FileResponse:
        return FileResponse(STATIC / "event_new.html")

    @router.post("/api/events", status_code=201)
    def new_event(req: Request, body: NewEventBody) -> dict[str, Any]:
        """An organiser makes an online event (OnlineEvents.create); anyone else is refused (403)."""
        me = require_user(req, write=True)
        return events.create(me.user, body)

    @router.get("/events/{tid}", include_in_schema=False)
    async def event_page(tid: int) -> FileResponse:
        return FileResponse(STATIC / "event.html")

    @router.get("/events/{tid}/arbiter", include_in_schema=False)
    async def arbiter_page(tid: int) -> FileResponse:
        return FileResponse(STATIC / "event_arbiter.html")

    @router.get("/api/events/{tid}")
    async def event(req: Request, tid: int) -> dict[str, Any]:
        return events.view(tid, current_user(req))

    @router.post("/api/events/{tid}/entries")
    async def enter(req: Request, tid: int, body: EntryBody) -> dict[str, Any]:
        me = require_user(req, write=True)
        return events.enter(tid, me.user, body.team_name, body.partner)

    @router.post("/api/events/{tid}/entries/confirm")
    async def confirm(req: Request, tid: int) -> dict[str, Any]:
        return events.confirm(tid, require_user(req, write=True).user)

    @router.post("/api/events/{tid}/entries/decline")
    async def decline(req: Request, tid: int) -> dict[str, Any]:
        return events.decline(tid, require_user(req, write=True).user)

    @router.post("/api/events/{tid}/seat")
    async def seat(req: Request, tid: int) -> dict[str, Any]:
        answer = events.take_seat(tid, require_user(req, write=True).user)
        await events.service.committed(answer["code"])  # the seat's token is told of once its row holds it
        return answer

    @router.post("/api/events/{tid}/arbiter")
    async def arbiter(tid: int, body: KeyBody) -> dict[str, Any]:
        return events.arbiter_view(tid, body.key)

    @router.post("/api/events/{tid}/arbiter/round")
    async def start_round(tid: int, body: RoundBody) -> dict[str, Any]:
        return events.arbiter("round", tid, body)

    @router.post("/api/events/{tid}/arbiter/pause")
    async def pause(tid: int, body: TableBody) -> dict[str, Any]:
        return events.arbiter("pause", tid, body)

    @router.post("/api/events/{tid}/arbiter/resume")
    async def resume(tid: int, body: TableBody) -> dict[str, Any]:
        return events.arbiter("resume", tid, body)

    @router.post("/api/events/{tid}/arbiter/override")
    async def override(tid: int, body: OverrideBody) -> dict[str, Any]:
        return events.arbiter("override", tid, body)

    @router.post("/api/events/{tid}/arbiter/replace")
    async def replace_player(tid: int, body: ReplaceBody) -> dict[str, Any]:
        return events.arbiter("replace", tid, body)

    return router


def install(app: FastAPI, engine: Engine, service: TableService, *, tick_s: float = 1.0) -> OnlineEvents:
    """Online events on ``app``: the router, and :class:`OnlineEvents` at ``app.state.online_events`` (its
    round-up loop is started and stopped with the app)."""
    events = OnlineEvents(engine, service, tick_s=tick_s)
    app.include_router(create_router(events))
    app.state.online_events = events
    return events


def _organiser_actor(me: User) -> str:
    """How an event's entries name the organiser's account that made it from the site's form."""
    return f"organiser:#{me.id}"


def final_places(st: TournamentState) -> dict[int, int]:
    """Each team's final place once the event is over (none before): a Swiss event's final standings (teams
    level on every tie-break share a place), a knockout's bracket (the losers of a round share one)."""
    if not st.finished:
        return {}
    if st.is_knockout:
        return {row["team"]["id"]: row["place"] for row in placings(st) if row["place"] is not None}
    return {s.team_id: s.rank for s in st.standings()}


def _result_texts(st: TournamentState, ts: TableState) -> dict[str, str] | None:
    """A final table's result as the desk writes it (levels home first, who passed A, a forfeit), in every
    page language; None before the result is final."""
    if ts.status != FINAL:
        return None
    return {lang: result_words(st, ts, translator("desk", lang).gettext) for lang in LANGS}
