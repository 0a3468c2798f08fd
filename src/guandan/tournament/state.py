"""Event sourcing: a tournament is the replay of its append-only audit log.

Every change (registration, pairing, result entry, confirmation, dispute, override, server report, re-pair,
withdrawal) is an :class:`Event`. :meth:`TournamentState.apply` validates an event completely before it
changes anything, so a refused command leaves the state (and the log) as it was. Pairing events record the
tables that were drawn, never only a seed: a replay does not depend on the pairing code of the day.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import knockout as ko
from .errors import NotFoundError, TournamentError
from .model import EventConfig, Table, Team
from .pairing import Pairing, random_order, rating_order, swiss_pairing
from .rounds import ResultSlip, RoundResult, fixed_result
from .standings import Game, Standing, compute_standings

EVENT_TYPES: tuple[str, ...] = (
    "created", "team_registered", "team_withdrawn", "round_paired", "result_entered", "result_confirmed",
    "result_disputed", "result_overridden", "result_reported",
)
#: Knockout events (淘汰赛, see knockout.py): players entered alone, the drawn partners, a bracket round.
EVENT_TYPES += ("player_registered", "player_withdrawn", "partners_drawn", "knockout_paired")
#: Status of a table's result, as shown on the arbiter's dashboard.
MISSING, ENTERED, DISPUTED, FINAL = "missing", "entered", "disputed", "final"


@dataclass(frozen=True)
class Event:
    """One audit-log entry. ``seq`` numbers a tournament's entries 1, 2, … without gaps."""

    seq: int
    type: str
    data: dict[str, Any]
    actor: str = "arbiter"
    at: str | None = None  # ISO time, filled in by the store

    def to_dict(self, redact: bool = True) -> dict[str, Any]:
        data = dict(self.data)
        if redact and "secret" in data:
            data["secret"] = "***"
        return {"seq": self.seq, "type": self.type, "data": data, "actor": self.actor, "at": self.at}


@dataclass
class TableState:
    table: Table
    status: str = MISSING
    pending: ResultSlip | None = None
    pending_by: int | None = None
    final: ResultSlip | None = None
    source: str | None = None  # how the final result came: confirmed, override or server
    result: RoundResult | None = None
    note: str | None = None  # the last dispute's reason or override's reason

    @property
    def touched(self) -> bool:
        return self.status != MISSING


@dataclass
class RoundState:
    number: int
    method: str
    seed: int | None
    tables: dict[int, TableState] = field(default_factory=dict)
    bye: int | None = None
    # A knockout round: every match in bracket order, a team or None (empty) per place; the matches with
    # two teams are the tables, numbered in this order, and those with one are byes.
    matches: tuple[ko.Match, ...] = ()

    @property
    def byes(self) -> list[int]:
        """A knockout round's byes (the Swiss bye is ``bye``)."""
        return [x for m in self.matches for x in m if x is not None and None in m]

    @property
    def complete(self) -> bool:
        return all(t.status == FINAL for t in self.tables.values())

    @property
    def started(self) -> bool:
        return any(t.touched for t in self.tables.values())

    def table_of(self, team_id: int) -> TableState | None:
        return next((t for t in self.tables.values() if team_id in t.table.teams()), None)


@dataclass
class TournamentState:
    """The whole event as of its last applied log entry."""

    id: int | None = None
    config: EventConfig | None = None
    secret: str = ""
    teams: dict[int, Team] = field(default_factory=dict)
    withdrawn: set[int] = field(default_factory=set)
    rounds: dict[int, RoundState] = field(default_factory=dict)
    last_seq: int = 0
    # Knockout events (see the knockout section below).
    players: dict[int, ko.Player] = field(default_factory=dict)  # players entered alone, partners drawn
    players_withdrawn: set[int] = field(default_factory=set)
    partners: dict[int, tuple[int, int]] = field(default_factory=dict)  # drawn team -> its two players
    partners_seed: int | None = None
    bracket: tuple[int | None, ...] = ()  # round 1's places, top to bottom (None: a bye)

    # ---- reading -------------------------------------------------------------------------------
    @property
    def cfg(self) -> EventConfig:
        if self.config is None:
            raise TournamentError("the tournament has not been created")
        return self.config

    @property
    def current_round(self) -> int:
        """The highest round paired so far (0 before round 1)."""
        return max(self.rounds, default=0)

    @property
    def completed_rounds(self) -> int:
        n = 0
        while n + 1 in self.rounds and self.rounds[n + 1].complete:
            n += 1
        return n

    @property
    def finished(self) -> bool:
        if self.is_knockout and not self.bracket:
            return False
        return self.completed_rounds >= self.rounds_total

    @property
    def active_teams(self) -> list[int]:
        return [t for t in sorted(self.teams) if t not in self.withdrawn]

    def team(self, ref: int | str) -> Team:
        """A team by registration number or by name (case-insensitive)."""
        if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isdigit()):
            tid = int(ref)
            if tid in self.teams:
                return self.teams[tid]
            raise NotFoundError(f"no team number {tid}; teams are 1…{len(self.teams)}")
        key = ref.strip().casefold()
        for t in self.teams.values():
            if t.name.casefold() == key:
                return t
        raise NotFoundError(f"no team named {ref!r}")

    def round(self, number: int) -> RoundState:
        if number not in self.rounds:
            paired = f"rounds 1…{self.current_round} are paired" if self.rounds else "no round is paired yet"
            raise NotFoundError(f"round {number} has not been paired ({paired})")
        return self.rounds[number]

    def table(self, round_no: int, table_no: int) -> TableState:
        rnd = self.round(round_no)
        if table_no not in rnd.tables:
            raise NotFoundError(f"round {round_no} has no table {table_no}; its tables are 1…{len(rnd.tables)}")
        return rnd.tables[table_no]

    def met(self, before_round: int | None = None) -> set[frozenset[int]]:
        return {frozenset(t.table.teams()) for r in self.rounds.values()
                if before_round is None or r.number < before_round for t in r.tables.values()}

    def had_bye(self, before_round: int | None = None) -> set[int]:
        return {r.bye for r in self.rounds.values() if r.bye is not None
                and (before_round is None or r.number < before_round)}

    def games(self, through_round: int | None = None) -> list[Game]:
        """Every final result (and bye) up to ``through_round``; pending entries do not count."""
        out: list[Game] = []
        for r in sorted(self.rounds.values(), key=lambda r: r.number):
            if through_round is not None and r.number > through_round:
                break
            if r.bye is not None:
                bye = fixed_result(0, self.cfg.bye_score, self.cfg.match_points, forfeit=False)
                out.append(Game(r.number, r.bye, None, bye))
            for b in r.byes:  # a knockout's byes score like the Swiss bye
                out.append(Game(r.number, b, None, fixed_result(0, self.cfg.bye_score, self.cfg.match_points,
                                                                forfeit=False)))
            for t in r.tables.values():
                if t.result is not None:
                    out.append(Game(r.number, t.table.home, t.table.away, t.result))
        return out

    def standings(self, through_round: int | None = None) -> list[Standing]:
        """场分, 对手分, 级差分, 升级数 … for every team (withdrawn ones included: their games count)."""
        return compute_standings(sorted(self.teams), self.games(through_round), self.cfg.tiebreaks)

    def team_code(self, round_no: int, table_no: int, side: int) -> str:
        """The 6-digit code of one team (side 0 home, 1 away) at one table in one round.

        Each team has its own code, printed on its half of the table's slip, so the server can tell which
        team entered a result and refuse the same team's confirmation. Derived from the tournament's secret,
        so nothing extra is stored and a replay gives the same codes.
        """
        if side not in (0, 1):
            raise TournamentError(f"side must be 0 (home) or 1 (away), not {side!r}")
        mac = hmac.new(self.secret.encode(), f"code/{round_no}/{table_no}/{side}".encode(), hashlib.sha256)
        return f"{int(mac.hexdigest(), 16) % 1_000_000:06d}"

    def side_of_code(self, round_no: int, table_no: int, code: str) -> int | None:
        """Which team's code ``code`` is at this table (0 home, 1 away), or None; compared in constant time."""
        given = "".join(code.split()).encode()
        found = None
        for side in (0, 1):
            if hmac.compare_digest(given, self.team_code(round_no, table_no, side).encode()):
                found = side
        return found

    def pin(self, round_no: int, table_no: int) -> str:
        """The 4-digit code printed on a table's slip; entering or confirming on the web needs it."""
        mac = hmac.new(self.secret.encode(), f"{round_no}/{table_no}".encode(), hashlib.sha256)
        return f"{int(mac.hexdigest(), 16) % 10000:04d}"

    def pairing_blockers(self) -> list[str]:
        """Why the next round cannot be paired yet (empty when it can)."""
        if self.is_knockout:
            return self.knockout_blockers()
        cfg = self.cfg
        nxt = self.current_round + 1
        if nxt > cfg.rounds:
            return [f"all {cfg.rounds} rounds have been paired"]
        if len(self.active_teams) < 2:
            return [f"at least two teams are needed, {len(self.active_teams)} registered"]
        if nxt == 1:
            return []
        out = []
        for t in self.rounds[nxt - 1].tables.values():
            if t.status != FINAL:
                tb = t.table
                out.append(f"round {tb.round} table {tb.number} ({self.teams[tb.home].name} v "
                           f"{self.teams[tb.away].name}): result {t.status}")
        return out

    def propose_pairing(self, round_no: int, seed: int | None = None) -> tuple[Pairing, str, int | None]:
        """The pairing the desk would make for ``round_no`` (the next one, or the current one to re-pair).

        Returns the pairing, the method and the seed used. Pure: nothing is recorded.
        """
        cfg = self.cfg
        active = self.active_teams
        clubs = {t: self.teams[t].club for t in active}
        names = {t: self.teams[t].name for t in active}
        if round_no == 1:
            if cfg.first_round == "rating":
                order = rating_order({t: self.teams[t].rating for t in active})
                return (swiss_pairing(order, {}, set(), (), clubs, fold=True, avoid_same_club=cfg.avoid_same_club,
                                      round_no=1), "rating", None)
            used = cfg.seed if seed is None else seed
            order = random_order(active, used)
            return (swiss_pairing(order, {}, set(), (), clubs, avoid_same_club=cfg.avoid_same_club, round_no=1),
                    "random", used)
        table = [s for s in self.standings(round_no - 1) if s.team_id in set(active)]
        order = [s.team_id for s in table]
        points = {s.team_id: s.match_points for s in table}
        pairing = swiss_pairing(order, points, self.met(round_no), self.had_bye(round_no), clubs,
                                avoid_same_club=cfg.avoid_same_club, round_no=round_no, names=names)
        return pairing, "swiss", None

    # ---- changing ------------------------------------------------------------------------------
    def apply(self, ev: Event) -> None:
        """Validate ``ev`` against the current state and apply it; raises without changing anything."""
        if ev.type not in EVENT_TYPES:
            raise TournamentError(f"unknown event type {ev.type!r}")
        if ev.seq != self.last_seq + 1:
            raise TournamentError(f"audit log out of order: entry {ev.seq} after {self.last_seq}")
        if (ev.type == "created") != (self.config is None):
            raise TournamentError("the log must start with exactly one 'created' entry")
        handler: Callable[[dict[str, Any]], None] = getattr(self, "_on_" + ev.type)
        try:
            handler(ev.data)
        except (KeyError, TypeError) as e:
            raise TournamentError(f"malformed {ev.type} entry: {e!r}") from None
        self.last_seq = ev.seq

    def _on_created(self, d: dict[str, Any]) -> None:
        config = EventConfig.from_dict(d["config"])
        secret = d["secret"]
        if not isinstance(secret, str) or len(secret) < 8:
            raise TournamentError("a tournament secret must be a string of 8 or more characters")
        self.config, self.secret = config, secret

    def _on_team_registered(self, d: dict[str, Any]) -> None:
        self._check_team_entry()
        t = d["team"]
        if self.rounds:
            raise TournamentError("registration is closed: round 1 has been paired")
        name = str(t["name"]).strip()
        if not name or len(name) > 100:
            raise TournamentError(f"a team name must be 1…100 characters, not {t['name']!r}")
        if name.isdigit():
            raise TournamentError(f"a team name cannot be only digits ({name!r}): it would read as a team number")
        if any(x.name.casefold() == name.casefold() for x in self.teams.values()):
            raise TournamentError(f"a team named {name!r} is already registered")
        players = t["players"]
        if not (isinstance(players, list | tuple) and len(players) == 2
                and all(isinstance(p, str) and p.strip() for p in players)):
            raise TournamentError(f"a team is two players: give two names, not {players!r}")
        rating = t.get("rating")
        if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int | float)):
            raise TournamentError(f"a rating must be a number, not {rating!r}")
        club = (t.get("club") or "").strip() or None
        tid = len(self.teams) + 1
        self.teams[tid] = Team(tid, name, (players[0].strip(), players[1].strip()), club,
                               None if rating is None else float(rating))

    def _on_team_withdrawn(self, d: dict[str, Any]) -> None:
        tid = self.team(d["team"]).id
        if tid in self.withdrawn:
            raise TournamentError(f"team {tid} has already withdrawn")
        self.withdrawn.add(tid)

    def _on_round_paired(self, d: dict[str, Any]) -> None:
        r = int(d["round"])
        repair = bool(d.get("repair"))
        if repair:
            if r != self.current_round or r == 0:
                raise TournamentError(f"only the current round ({self.current_round}) can be re-paired, not {r}")
            if self.rounds[r].started:
                raise TournamentError(f"round {r} has started (a result is in): it can no longer be re-paired")
        else:
            if r != self.current_round + 1:
                raise TournamentError(f"the next round to pair is {self.current_round + 1}, not {r}")
            blockers = self.pairing_blockers()
            if blockers:
                raise TournamentError(f"round {r} cannot be paired yet: " + "; ".join(blockers))
        tables = [(int(h), int(a)) for h, a in d["tables"]]
        bye = d.get("bye")
        bye = None if bye is None else int(bye)
        seen = [x for p in tables for x in p] + ([bye] if bye is not None else [])
        for x in seen:
            if x not in self.teams:
                raise TournamentError(f"round {r}: no team number {x}")
            if x in self.withdrawn:
                raise TournamentError(f"round {r}: team {x} has withdrawn")
        dup = sorted({x for x in seen if seen.count(x) > 1})
        if dup:
            raise TournamentError(f"round {r}: team(s) {', '.join(map(str, dup))} placed more than once")
        missing = sorted(set(self.active_teams) - set(seen))
        if missing:
            raise TournamentError(f"round {r}: team(s) {', '.join(map(str, missing))} not placed")
        if (bye is not None) != (len(seen) % 2 == 1):
            raise TournamentError(f"round {r}: a bye is given only when the number of teams is odd")
        met = self.met(r)
        for h, a in tables:
            if frozenset((h, a)) in met:
                raise TournamentError(f"round {r}: {self.teams[h].name} and {self.teams[a].name} have already met")
        if bye is not None and bye in self.had_bye(r):
            raise TournamentError(f"round {r}: {self.teams[bye].name} has already had a bye")
        seed = d.get("seed")
        rnd = RoundState(r, str(d.get("method", "manual")), None if seed is None else int(seed), bye=bye)
        for i, (h, a) in enumerate(tables, 1):
            rnd.tables[i] = TableState(Table(r, i, h, a))
        self.rounds[r] = rnd

    def _slip(self, d: dict[str, Any]) -> tuple[ResultSlip, RoundResult]:
        slip = ResultSlip.from_dict(d["result"])
        cfg = self.cfg
        res = slip.score(cfg.match_points, cfg.lateness, cfg.limits)
        self._check_knockout_result(d, slip, res)
        return slip, res

    def _by(self, ts: TableState, d: dict[str, Any]) -> int:
        tid = self.team(d["by"]).id
        ts.table.side_of(tid)
        return tid

    def _on_result_entered(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        by = self._by(ts, d)
        slip, _ = self._slip(d)
        if ts.status == FINAL:
            raise TournamentError(f"round {ts.table.round} table {ts.table.number} already has a final result; "
                                  "only the arbiter can change it (override)")
        ts.status, ts.pending, ts.pending_by, ts.note = ENTERED, slip, by, None

    def _awaiting(self, d: dict[str, Any], verb: str) -> tuple[TableState, int]:
        ts = self.table(int(d["round"]), int(d["table"]))
        by = self._by(ts, d)
        where = f"round {ts.table.round} table {ts.table.number}"
        if ts.status != ENTERED:
            raise TournamentError(f"{where}: nothing to {verb} (the result is {ts.status})")
        if by == ts.pending_by:
            raise TournamentError(f"{where}: the result must be {verb}ed by the other team, not by the team that entered it")
        return ts, by

    def _on_result_confirmed(self, d: dict[str, Any]) -> None:
        ts, _ = self._awaiting(d, "confirm")
        assert ts.pending is not None
        cfg = self.cfg
        self._finalise(ts, ts.pending, ts.pending.score(cfg.match_points, cfg.lateness, cfg.limits), "confirmed")

    def _on_result_disputed(self, d: dict[str, Any]) -> None:
        ts, _ = self._awaiting(d, "dispute")
        ts.status, ts.note = DISPUTED, str(d.get("reason") or "") or None

    def _on_result_overridden(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        slip, res = self._slip(d)
        reason = str(d.get("reason") or "").strip()
        if not reason:
            raise TournamentError("an arbiter's override needs a reason for the audit log")
        self._finalise(ts, slip, res, "override")
        ts.note = reason

    def _on_result_reported(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        slip, res = self._slip(d)
        if ts.status == FINAL:
            raise TournamentError(f"round {ts.table.round} table {ts.table.number} already has a final result "
                                  f"({ts.source}); the server's report was not applied")
        self._finalise(ts, slip, res, "server")

    @staticmethod
    def _finalise(ts: TableState, slip: ResultSlip, res: RoundResult, source: str) -> None:
        ts.status, ts.final, ts.result, ts.source = FINAL, slip, res, source
        ts.pending, ts.pending_by, ts.note = None, None, None

    # ---- knockout (淘汰赛): the rules are in knockout.py, the presentation in bracket.py ----------------
    @property
    def is_knockout(self) -> bool:
        return self.cfg.format == "knockout"

    @property
    def rounds_total(self) -> int:
        """The rounds the event plays: the configured number (Swiss), or what the bracket needs (knockout:
        ⌈log2 teams⌉, from the teams or players entered until the bracket is drawn)."""
        if not self.is_knockout:
            return self.cfg.rounds
        if self.bracket:
            return len(self.bracket).bit_length() - 1
        return ko.rounds_for(self.knockout_entries())

    def knockout_entries(self) -> int:
        """Teams entered, or to be drawn from the players entered."""
        if self.cfg.partners == "random" and not self.teams:
            return len(self.active_players) // 2
        return len(self.active_teams)

    @property
    def active_players(self) -> list[int]:
        return [p for p in sorted(self.players) if p not in self.players_withdrawn]

    def player(self, ref: int | str) -> ko.Player:
        """A player entered alone, by registration number or by name (case-insensitive)."""
        if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isdigit()):
            pid = int(ref)
            if pid in self.players:
                return self.players[pid]
            raise NotFoundError(f"no player number {pid}; players are 1…{len(self.players)}")
        key = ref.strip().casefold()
        for p in self.players.values():
            if p.name.casefold() == key:
                return p
        raise NotFoundError(f"no player named {ref!r}")

    def match_table(self, round_no: int, match: int) -> TableState | None:
        """The table of a knockout round's match (numbered from 0), or None for a bye or an empty match."""
        rnd = self.round(round_no)
        if None in rnd.matches[match]:
            return None
        return rnd.tables[1 + sum(None not in m for m in rnd.matches[:match])]

    def match_winner(self, round_no: int, match: int) -> int | None:
        """Who goes through from a knockout match: None while its result is not final, or when it is empty."""
        a, b = self.round(round_no).matches[match]
        if a is None or b is None:
            return a if b is None else b
        ts = self.match_table(round_no, match)
        if ts is None or ts.result is None or ts.final is None:
            return None
        side = ko.winning_side(ts.result, ts.final.decider)
        return None if side is None else (a, b)[side]

    def knockout_expected(self, round_no: int) -> tuple[ko.Match, ...]:
        """The matches round ``round_no`` (2 or later) must have: the winners of the round before, in place."""
        prev = self.round(round_no - 1)
        winners = [self.match_winner(round_no - 1, m) for m in range(len(prev.matches))]
        return ko.pair_places(ko.next_places(winners, self.withdrawn))

    def knockout_stale(self, round_no: int) -> bool:
        """Whether a paired round (2 or later) no longer holds the winners of the round before: a corrected
        result sent another team through. A place left empty for a winner who withdrew is right, and so is a
        winner who withdrew after the round was paired (that team forfeits its table)."""
        winners = [self.match_winner(round_no - 1, m) for m in range(len(self.round(round_no - 1).matches))]
        places = [x for m in self.round(round_no).matches for x in m]
        return any(x != w and not (x is None and w in self.withdrawn) for x, w in zip(places, winners, strict=True))

    def knockout_blockers(self) -> list[str]:
        nxt = self.current_round + 1
        if nxt == 1:
            if self.cfg.partners == "random" and not self.teams:
                problem = ko.partners_problem(len(self.active_players))
                if problem:
                    return [problem]
            elif len(self.active_teams) < 2:
                return [f"at least two teams are needed, {len(self.active_teams)} registered"]
            room = ko.room_problem(self.knockout_entries(), self.cfg.rounds)
            return [room] if room else []
        if nxt > self.rounds_total:
            return [f"the knockout is over: all {self.rounds_total} rounds have been paired"]
        out = []
        for t in self.rounds[nxt - 1].tables.values():
            tb = t.table
            where = f"round {tb.round} table {tb.number} ({self.teams[tb.home].name} v {self.teams[tb.away].name})"
            if t.status != FINAL:
                out.append(f"{where}: result {t.status}")
            elif t.result is not None and t.final is not None and ko.winning_side(t.result, t.final.decider) is None:
                # A final result reached some other way than the checked entry (a round scored deal by deal,
                # say) may still be level: nobody would go through.
                out.append(f"{where}: the round ended level and needs the winner of one more deal (加赛一副); "
                           "set it with the decider")
        if not out and nxt > 2 and self.knockout_stale(nxt - 1):
            out.append(f"round {nxt - 1} no longer pairs the winners of round {nxt - 2} (a result was corrected): "
                       f"re-pair round {nxt - 1}")
        return out

    def _check_team_entry(self) -> None:
        if self.cfg.partners == "random":
            raise TournamentError("this event draws the partners at random: register each player alone "
                                  "(register TID --player NAME), not a team")
        if self.is_knockout:
            room = ko.room_problem(len(self.active_teams) + 1, self.cfg.rounds)
            if room:
                raise TournamentError(f"no more teams: {room}")

    def _check_knockout_result(self, d: dict[str, Any], slip: ResultSlip, res: RoundResult) -> None:
        """A knockout result needs a winner (a decider on equal levels); a Swiss one takes no decider."""
        r, t = int(d["round"]), int(d["table"])
        where = f"round {r} table {t}"
        if not self.is_knockout:
            if slip.decider is not None:
                raise TournamentError(f"{where}: a deciding deal (decider) is for knockout events; in a Swiss "
                                      "event a round that ends level is a draw")
            return
        problem = ko.result_problem(where, res, slip.decider)
        if problem:
            raise TournamentError(problem)
        ts = self.table(r, t)
        if ts.result is None or ts.final is None or r == self.current_round:
            return
        before = ko.winning_side(ts.result, ts.final.decider)
        if before == ko.winning_side(res, slip.decider):
            return
        later = [x for x in sorted(self.rounds) if x > r]
        started = [x for x in later if self.rounds[x].started]
        if started or len(later) > 1:
            why = f"round {started[0]} has started" if started else f"round {later[-1]} has been paired"
            raise TournamentError(f"{where}: the winner can no longer change, {why} with "
                                  f"{self.teams[ts.table.teams()[before or 0]].name} through")

    def _on_player_registered(self, d: dict[str, Any]) -> None:
        if self.cfg.partners != "random":
            raise TournamentError("this event has fixed partners: register teams of two "
                                  "(register TID NAME --players A,B), not single players")
        if self.teams or self.rounds:
            raise TournamentError("registration is closed: the partners have been drawn")
        player = ko.new_player(d["player"], len(self.players) + 1, self.players.values())
        teams = (len(self.active_players) + 2) // 2  # with this player, rounded up to a whole team
        room = ko.room_problem(teams, self.cfg.rounds)
        if room:
            raise TournamentError(f"no more players: {len(self.active_players) + 1} players make {teams} teams, and {room}")
        self.players[player.id] = player

    def _on_player_withdrawn(self, d: dict[str, Any]) -> None:
        pid = self.player(d["player"]).id
        if self.teams:
            raise TournamentError("the partners have been drawn: withdraw the team instead (its player cannot "
                                  "be taken out of it)")
        if pid in self.players_withdrawn:
            raise TournamentError(f"player {pid} has already withdrawn")
        self.players_withdrawn.add(pid)

    def _on_partners_drawn(self, d: dict[str, Any]) -> None:
        if self.cfg.partners != "random":
            raise TournamentError("partners are drawn only in an event with partners drawn at random")
        if self.teams:
            raise TournamentError("the partners have already been drawn")
        problem = ko.partners_problem(len(self.active_players))
        if problem:
            raise TournamentError(problem)
        rows = d["teams"]
        if not isinstance(rows, list):
            raise TournamentError(f"a draw of partners is a list of teams, not {rows!r}")
        active = set(self.active_players)
        teams: dict[int, Team] = {}
        partners: dict[int, tuple[int, int]] = {}
        placed: list[int] = []
        for i, row in enumerate(rows, 1):
            ids = row["players"]
            if not (isinstance(ids, list | tuple) and len(ids) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in ids)):
                raise TournamentError(f"a drawn team is two player numbers, not {ids!r}")
            for x in ids:
                if x not in active:
                    raise TournamentError(f"the draw places player {x}, who is not entered (or has withdrawn)")
            placed += ids
            teams[i] = ko.drawn_team(row["name"], [self.players[x] for x in ids], teams.values(), i)
            partners[i] = (ids[0], ids[1])
        dup = sorted({x for x in placed if placed.count(x) > 1})
        if dup:
            raise TournamentError(f"the draw places player(s) {', '.join(map(str, dup))} more than once")
        missing = sorted(active - set(placed))
        if missing:
            raise TournamentError(f"the draw leaves out player(s) {', '.join(map(str, missing))}")
        seed = d.get("seed")
        self.teams, self.partners = teams, partners
        self.partners_seed = None if seed is None else int(seed)

    def _on_knockout_paired(self, d: dict[str, Any]) -> None:
        if not self.is_knockout:
            raise TournamentError("a knockout round cannot be paired in a Swiss event")
        r = int(d["round"])
        if d.get("repair"):
            if r != self.current_round or r == 0:
                raise TournamentError(f"only the current round ({self.current_round}) can be re-paired, not {r}")
            if self.rounds[r].started:
                raise TournamentError(f"round {r} has started (a result is in): it can no longer be re-paired")
        else:
            if r != self.current_round + 1:
                raise TournamentError(f"the next round to pair is {self.current_round + 1}, not {r}")
            blockers = self.knockout_blockers()
            if blockers:
                raise TournamentError(f"round {r} cannot be paired yet: " + "; ".join(blockers))
        matches = ko.check_matches(d["matches"])
        bracket = self.bracket
        if r == 1:
            if self.cfg.partners == "random" and not self.teams:
                raise TournamentError("the partners have not been drawn yet")
            bracket = ko.check_slots(d["slots"], self.active_teams)
            room = ko.room_problem(len(self.active_teams), self.cfg.rounds)
            if room:
                raise TournamentError(room)
            expected = ko.pair_places(bracket)
        else:
            if "slots" in d:
                raise TournamentError("only round 1 draws the bracket's places")
            expected = self.knockout_expected(r)
        if matches != expected:
            shown = ", ".join(f"{a or 'bye'} v {b or 'bye'}" for a, b in expected)
            raise TournamentError(f"round {r} must pair {'the bracket' if r == 1 else f'the winners of round {r - 1}'}"
                                  f" in place: {shown}")
        seed = d.get("seed")
        rnd = RoundState(r, str(d.get("method", "bracket")), None if seed is None else int(seed), matches=matches)
        for a, b in matches:
            if a is not None and b is not None:
                n = len(rnd.tables) + 1
                rnd.tables[n] = TableState(Table(r, n, a, b))
        self.bracket = bracket
        self.rounds[r] = rnd


def replay(events: list[Event], tournament_id: int | None = None) -> TournamentState:
    state = TournamentState(id=tournament_id)
    for ev in events:
        state.apply(ev)
    return state
