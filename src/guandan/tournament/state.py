"""Event sourcing: a tournament is the replay of its append-only audit log.

Every change (registration, pairing, result entry, confirmation, dispute, override, server report, re-pair,
withdrawal) is an :class:`Event`. :meth:`TournamentState.apply` validates an event completely before it
changes anything, so a refused command leaves the state (and the log) as it was. Pairing events record the
tables that were drawn, never only a seed: a replay does not depend on the pairing code of the day.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, Protocol, TypeVar

from ..core.errors import GuandanError, shown
from ..i18n import N_, unprintable
from . import knockout as ko
from .deals import DealEntry, Track, parse_finish, settle_deals, settle_next
from .errors import NotFoundError, Said, TournamentError, Word, clause, joined, not_found, refusal, refused, said
from .levels import level_name
from .model import EventConfig, Table, Team
from .pairing import Pairing, random_order, rating_order, swiss_pairing
from .reachable import check_result
from .rounds import ResultSlip, RoundResult, fixed_result
from .standings import Game, Standing, compute_standings
from .venuetime import check_zone, check_zone_form, read_time, shown_time, typing_zone, venue_zone, wall_time
from .words import STATUS_WORDS

EVENT_TYPES: tuple[str, ...] = (
    "created", "team_registered", "team_withdrawn", "round_paired", "result_entered", "result_confirmed",
    "result_disputed", "result_overridden", "result_reported", "result_rejected", "round_started",
    "deal_reported", "deal_confirmed", "deal_rejected", "deal_disputed", "deals_set", "code_refused",
    "table_locked", "table_unlocked",
)
#: Status of a table's result, as shown on the arbiter's dashboard. ``in_play``: deals are being reported.
MISSING, ENTERED, REJECTED, DISPUTED, IN_PLAY, FINAL = "missing", "entered", "rejected", "disputed", "in_play", "final"
#: How far ahead of the desk's clock a round's given start time may be (the arbiter's watch and the desk's
#: clock differ a little).
START_TOLERANCE = timedelta(minutes=2)
#: Wrong team codes a table may see in a round before it is locked until the arbiter unlocks it.
CODE_LIMIT = 5
#: Digits of a team's code: anything typed of another length cannot be one, and is not counted as a wrong code.
CODE_DIGITS = 6
#: How the round at a table ended, once it is final by its deals.
ENDED_BY = ("deals", "pass_a", "time", "arbiter")


def locked_refusal(round_no: int, table_no: int, wrong_codes: int) -> TournamentError:
    """What a team is told at a locked table: the wrong codes that locked it, or (fewer than
    :data:`CODE_LIMIT` of them) that the arbiter locked it."""
    if wrong_codes >= CODE_LIMIT:  # only the desk's own lock comes after so many
        return refusal(N_("Round {round} table {table} is locked after {n} wrong codes: the arbiter must unlock it"),
                       round=round_no, table=table_no, n=wrong_codes)
    return refusal(N_("Round {round} table {table} is locked by the arbiter: the arbiter must unlock it"),
                   round=round_no, table=table_no)


#: What the team that entered (or reported) is told when it tries to answer its own entry.
_NOT_YOURS = {
    ("result", "confirm"): N_("Round {round} table {table}: the other team must confirm the result, not the team "
                              "that entered it"),
    ("result", "reject"): N_("Round {round} table {table}: the other team must reject the result, not the team "
                             "that entered it"),
    ("result", "dispute"): N_("Round {round} table {table}: the other team must dispute the result, not the team "
                              "that entered it"),
    ("deal", "confirm"): N_("Round {round} table {table}: the other team must confirm the deal, not the team that "
                            "reported it"),
    ("deal", "reject"): N_("Round {round} table {table}: the other team must reject the deal, not the team that "
                           "reported it"),
    ("deal", "dispute"): N_("Round {round} table {table}: the other team must dispute the deal, not the team that "
                            "reported it"),
}


def parse_time(value: Any, what: str = "time") -> datetime:
    """An ISO 8601 time from the log; one without a zone (SQLite drops it) is UTC."""
    if not isinstance(value, str):
        raise refusal(N_("{what} must be an ISO 8601 time, not {value}"), what=what, value=shown(value))
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        raise refusal(N_("{what} must be an ISO 8601 time such as 2026-05-01T14:05:00+08:00, not {value}"), what=what,
                      value=shown(value)) from None
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


#: Knockout events (淘汰赛, see knockout.py): players entered alone, the drawn partners, a bracket round.
EVENT_TYPES += ("player_registered", "player_withdrawn", "partners_drawn", "knockout_paired")
#: Online events (tables played on the web app, tournament/online.py): the arbiter holds a table's play and
#: lets it go on, or puts another player in a team's place; each with a reason for the log.
EVENT_TYPES += ("table_paused", "table_resumed", "player_replaced")
#: Names kept beside the log were erased (Desk.forget_name: a deleted account); the entry says how many and
#: why, never the name.
EVENT_TYPES += ("names_forgotten",)
#: The arbiter sets the venue's time zone (venuetime.py): what people type and read wall-clock times in.
EVENT_TYPES += ("time_zone_set",)


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
    deals: list[DealEntry] = field(default_factory=list)  # confirmed deals, in order (per-deal reporting)
    pending_deal: DealEntry | None = None  # reported, waiting for the other team
    pending_deal_by: int | None = None
    # the deal the other team last sent back (deal_rejected), and that team: the reporting team's page says so
    # until the deal is reported again or the arbiter sets the deals
    sent_back: int | None = None
    sent_back_by: int | None = None
    ended_by: str | None = None  # one of ENDED_BY once the deals made the result final
    locked: bool = False  # too many wrong codes: only the arbiter can unlock
    paused: bool = False  # an online table the arbiter holds: nothing is played until it is resumed
    wrong_codes: int = 0
    # a knockout round that ended level waits for its deciding deal (加赛一副), reported like any other
    deciding: bool = False
    decider_deal: DealEntry | None = None
    # what the next deal is settled from: after the confirmed deals, and after the pending one
    track: Track = field(default_factory=Track, repr=False)
    pending_track: Track | None = field(default=None, repr=False)
    # the log entry that last named this table (or paired its round): a form the arbiter sends with the number it
    # was shown is refused once the table has moved on, so a form sent twice is applied once (Desk.set_deals)
    seq: int = 0

    @property
    def touched(self) -> bool:
        return self.status != MISSING or bool(self.deals) or self.pending_deal is not None

    @property
    def levels_now(self) -> tuple[int, int]:
        """Both sides' levels after the confirmed deals (2 and 2 before the first)."""
        return self.deals[-1].levels if self.deals else (2, 2)


@dataclass
class RoundState:
    number: int
    method: str
    seed: int | None
    tables: dict[int, TableState] = field(default_factory=dict)
    bye: int | None = None
    started_at: str | None = None  # when the arbiter started the round's clock (ISO 8601)
    paired_at: str | None = None  # when the round was first paired (its entry's time; a re-pair keeps it)
    # A knockout round: every match in bracket order, a team or None (empty) per place; the matches with
    # two teams are the tables, numbered in this order, and those with one are byes.
    matches: tuple[ko.Match, ...] = ()
    seq: int = 0  # the log entry that last paired or started the round (TableState.seq, for the round's forms)

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
    withdrawn_in: dict[int, int] = field(default_factory=dict)  # team -> the current round when it withdrew
    rounds: dict[int, RoundState] = field(default_factory=dict)
    last_seq: int = 0
    _at: str | None = field(default=None, repr=False, compare=False)  # the time of the entry being applied
    # Knockout events (see the knockout section below).
    players: dict[int, ko.Player] = field(default_factory=dict)  # players entered alone, partners drawn
    players_withdrawn: set[int] = field(default_factory=set)
    partners: dict[int, tuple[int, int]] = field(default_factory=dict)  # drawn team -> its two players
    partners_seed: int | None = None
    bracket: tuple[int | None, ...] = ()  # round 1's places, top to bottom (None: a bye)
    time_zone: str | None = None  # the venue's (an IANA name), set when the event was made or since; None: the machine's

    # ---- reading -------------------------------------------------------------------------------
    @property
    def cfg(self) -> EventConfig:
        if self.config is None:
            raise TournamentError("the tournament has not been created")
        return self.config

    @property
    def zone(self) -> tzinfo:
        """The zone wall-clock times are shown to people in: the venue's (see venuetime.py)."""
        return venue_zone(self.time_zone)

    def typed_time(self, value: Any, now: datetime, what: str) -> datetime:
        """A time a person typed (``what`` names where, ``--at``): without an offset it is the venue's time
        (``14:05`` is today's at the venue at ``now``); an offset given is honoured."""
        return read_time(value, lambda: typing_zone(self.time_zone), now, what)

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
        return _by_ref(self.teams, ref, N_("no team number {number}; teams are 1…{last}"), N_("no team named {name}"))

    def round(self, number: int) -> RoundState:
        if number not in self.rounds:
            paired = f"rounds 1…{self.current_round} are paired" if self.rounds else "no round is paired yet"
            raise NotFoundError(f"round {number} has not been paired ({paired})",
                                msgid=N_("Round {n} has not been paired yet"), params={"n": number})
        return self.rounds[number]

    def table(self, round_no: int, table_no: int) -> TableState:
        rnd = self.round(round_no)
        if table_no not in rnd.tables:
            raise NotFoundError(f"round {round_no} has no table {table_no}; its tables are 1…{len(rnd.tables)}",
                                msgid=N_("Round {round} has no table {table}; its tables are 1 to {last}"),
                                params={"round": round_no, "table": table_no, "last": len(rnd.tables)})
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
            raise refusal(N_("side must be 0 (home) or 1 (away), not {side}"), side=shown(side))
        mac = hmac.new(self.secret.encode(), f"code/{round_no}/{table_no}/{side}".encode(), hashlib.sha256)
        return f"{int(mac.hexdigest(), 16) % 10**CODE_DIGITS:0{CODE_DIGITS}d}"

    def side_of_code(self, round_no: int, table_no: int, code: str) -> int | None:
        """Which team's code ``code`` is at this table (0 home, 1 away), or None; compared in constant time."""
        given = "".join(code.split()).encode()
        found = None
        for side in (0, 1):
            if hmac.compare_digest(given, self.team_code(round_no, table_no, side).encode()):
                found = side
        return found

    def pairing_blockers(self) -> list[str]:
        """Why the next round cannot be paired yet (empty when it can)."""
        if self.is_knockout:
            return self.knockout_blockers()
        cfg = self.cfg
        nxt = self.current_round + 1
        if nxt > cfg.rounds:
            return [said(N_("every round has been paired ({n} in all)"), n=cfg.rounds)]
        if len(self.active_teams) < 2:
            return [said(N_("at least two teams are needed, {n} registered"), n=len(self.active_teams))]
        if nxt == 1:
            return []
        return [self._unfinished(t) for t in self.rounds[nxt - 1].tables.values() if t.status != FINAL]

    def _unfinished(self, t: TableState) -> str:
        """Why a table that has no final result holds up the next round, as :meth:`pairing_blockers` says it."""
        tb = t.table
        where = dict(round=tb.round, table=tb.number, home=self.teams[tb.home].name, away=self.teams[tb.away].name)
        if t.status == IN_PLAY:  # deals reported one by one and the round not over: "result in play" said nothing
            return said(N_("round {round} table {table} ({home} v {away}): still reporting deals one by one"), **where)
        return said(N_("round {round} table {table} ({home} v {away}): result {status}"), **where,
                    status=Word(STATUS_WORDS[t.status]))

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
    def check_new(self, ev: Event) -> None:
        """Refuse a new entry that :meth:`apply` would take but the desk no longer records: names with control
        characters, a rating that is not a finite number of 0 or more, one person in two teams (or twice in
        one), a round's start in the future or before its pairing, a withdrawal after the event is over, a result
        a team enters that no play could produce under the event's rules (reachable.py). Logs
        written before these checks may hold such entries and must still replay, so they are made only on
        entries being added, never on a replay. A malformed entry is left for :meth:`apply` to refuse."""
        d = ev.data
        if ev.type == "created":
            config = d.get("config")
            if isinstance(config, dict):
                check_plain(config.get("name"), Word(N_("the event's name")))
        elif ev.type == "team_registered" and isinstance(d.get("team"), dict):
            team = d["team"]
            check_plain(team.get("name"), Word(N_("a team's name")))
            check_plain(team.get("club"), Word(N_("a club's name")))
            check_rating(team.get("rating"))
            players = team.get("players")
            if isinstance(players, list | tuple) and all(isinstance(p, str) for p in players):
                for p in players:
                    check_plain(p, Word(N_("a player's name")))
                self._check_people(players)
        elif ev.type == "player_registered" and isinstance(d.get("player"), dict):
            player = d["player"]
            check_plain(player.get("name"), Word(N_("a player's name")))
            check_plain(player.get("club"), Word(N_("a club's name")))
            check_rating(player.get("rating"))
        elif ev.type == "player_replaced":
            check_plain(d.get("new"), Word(N_("a player's name")))
        elif ev.type == "team_withdrawn" and self.config is not None and self.finished:
            raise refusal(N_("the event is over: a team can no longer withdraw"))
        elif ev.type == "round_started" and isinstance(d.get("at"), str) and ev.at:
            self._check_start(d, parse_time(ev.at))
        elif ev.type == "result_entered" and self.config is not None:
            self._check_playable(d)
        if ev.type == "created" and isinstance(d.get("config"), dict) and d["config"].get("time_zone") is not None:
            check_zone(d["config"]["time_zone"])
        elif ev.type == "time_zone_set":
            check_zone(d.get("time_zone"))

    def _check_start(self, d: dict[str, Any], now: datetime) -> None:
        """A round's clock given a start time (``--at``) starts neither in the future, which could not be
        undone (a started clock is not started again), nor before the round was paired."""
        at = parse_time(d["at"], Word(N_("the round's start")))
        zone = self.zone  # both times on the venue's clocks, the zone named once
        if at > now + START_TOLERANCE:
            raise refusal(N_("the round's start {at} is in the future (it is now {now}): start the round when its "
                             "play begins, without a start time"), at=shown_time(at, zone), now=wall_time(now, zone))
        r = d.get("round")
        rnd = self.rounds.get(r) if isinstance(r, int) else None
        if rnd is not None and rnd.paired_at is not None and at < parse_time(rnd.paired_at):
            raise refusal(N_("the round's start {at} is before round {round} was paired ({paired})"),
                          at=shown_time(at, zone), round=rnd.number, paired=wall_time(parse_time(rnd.paired_at), zone))

    def _check_playable(self, d: dict[str, Any]) -> None:
        """A result a team enters could come from play under the event's rules (levels, deals played, a pass of
        A). An arbiter's override may rule otherwise (the CLI warns), and an entry the state refuses anyway (a
        per-deal event, a table that is not there, a malformed slip) is left to say its own problem."""
        if self.cfg.per_deal:
            return
        try:
            r, t = int(d["round"]), int(d["table"])
            slip = ResultSlip.from_dict(d["result"])
        except (TournamentError, KeyError, TypeError, ValueError):
            return
        if r not in self.rounds or t not in self.rounds[r].tables:
            return
        problem = check_result(self.cfg, r, t, slip)
        if problem is not None:
            raise refused(problem)

    def _check_people(self, players: list[str] | tuple[str, ...]) -> None:
        """A new team's players are two people, neither of them in a team already entered (one that has
        withdrawn aside), as :meth:`_on_player_replaced` has it. A bot is no person: the same agent spec
        ("greedy") may sit twice in a team and in many teams (bot events, and events of bots made by hand)."""
        keys = [p.strip().casefold() for p in players]
        if len(keys) == 2 and keys[0] == keys[1] and keys[0] and not _is_bot(players[1]):
            raise refusal(N_("a team is two different players, not {name} twice"), name=shown(players[1].strip()))
        for t in self.teams.values():
            if t.id in self.withdrawn:
                continue
            for p, key in zip(players, keys, strict=True):
                if key in (x.casefold() for x in t.players) and not _is_bot(p):
                    raise refusal(N_("{name} already plays in team {team}"), name=shown(p.strip()), team=t.name)

    def apply(self, ev: Event) -> None:
        """Validate ``ev`` against the current state and apply it; raises without changing anything."""
        if ev.type not in EVENT_TYPES:
            raise TournamentError(f"unknown event type {shown(ev.type)}")
        if ev.seq != self.last_seq + 1:
            raise TournamentError(f"audit log out of order: entry {ev.seq} after {self.last_seq}")
        if (ev.type == "created") != (self.config is None):
            raise TournamentError("the log must start with exactly one 'created' entry")
        handler: Callable[[dict[str, Any]], None] = getattr(self, "_on_" + ev.type)
        # SQLite gives the stamps back without their zone: normalise so a replay matches the live state
        self._at = parse_time(ev.at, "an entry's time").isoformat() if ev.at else None
        try:
            handler(ev.data)
        except TournamentError:
            raise
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            # Python's own words ("'int' object is not subscriptable") tell an arbiter nothing
            raise refusal(N_("malformed {type} entry: a field is missing or of the wrong kind"),
                          type=shown(ev.type)) from None
        finally:
            self._at = None
        self.last_seq = ev.seq
        self._mark(ev)

    def _mark(self, ev: Event) -> None:
        """Stamp the round or table ``ev`` changed with its number (``seq`` of :class:`RoundState`, :class:`TableState`)."""
        r, t = ev.data.get("round"), ev.data.get("table")
        rnd = self.rounds.get(r) if isinstance(r, int) else None
        if rnd is None:
            return
        if ev.type in ("round_paired", "knockout_paired"):
            # new tables: a form of the old pairing's table of the same number must not pass for one of them
            rnd.seq = ev.seq
            for ts in rnd.tables.values():
                ts.seq = ev.seq
        elif t is None:
            rnd.seq = ev.seq
        elif isinstance(t, int) and t in rnd.tables:
            rnd.tables[t].seq = ev.seq

    def _on_created(self, d: dict[str, Any]) -> None:
        config = EventConfig.from_dict(d["config"])
        secret = d["secret"]
        if not isinstance(secret, str) or len(secret) < 8:
            raise TournamentError("a tournament secret must be a string of 8 or more characters")
        self.config, self.secret, self.time_zone = config, secret, config.time_zone

    def _on_time_zone_set(self, d: dict[str, Any]) -> None:
        zone = d["time_zone"]
        if zone is None:
            raise refusal(N_("the venue's time zone must be an IANA name such as Asia/Shanghai, not {zone}"),
                          zone=shown(zone))
        check_zone_form(zone)
        if zone == self.time_zone:
            raise refusal(N_("the venue's time zone is already {zone}"), zone=zone)
        self.time_zone = zone

    def _on_team_registered(self, d: dict[str, Any]) -> None:
        self._check_team_entry()
        t = d["team"]
        if self.rounds:
            raise refusal(N_("registration is closed: round 1 has been paired"))
        name = str(t["name"]).strip()
        if not name or len(name) > 100:
            raise refusal(N_("a team name must be 1…100 characters, not {name}"), name=shown(t["name"]))
        if name.isdigit():
            raise refusal(N_("a team name cannot be only digits ({name}): it would read as a team number"),
                          name=shown(name))
        if any(x.name.casefold() == name.casefold() for x in self.teams.values()):
            raise refusal(N_("a team named {name} is already registered"), name=shown(name))
        players = t["players"]
        if not (isinstance(players, list | tuple) and len(players) == 2
                and all(isinstance(p, str) and p.strip() for p in players)):
            raise refusal(N_("a team is two players: give two names, not {players}"), players=shown(players))
        rating = t.get("rating")
        if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int | float)):
            raise refusal(N_("a rating must be a number, not {rating}"), rating=shown(rating))
        club = (t.get("club") or "").strip() or None
        tid = len(self.teams) + 1
        self.teams[tid] = Team(tid, name, (players[0].strip(), players[1].strip()), club,
                               None if rating is None else float(rating))

    def _on_team_withdrawn(self, d: dict[str, Any]) -> None:
        tid = self.team(d["team"]).id
        if tid in self.withdrawn:
            raise refusal(N_("team {team} has already withdrawn"), team=tid)
        self.withdrawn.add(tid)
        self.withdrawn_in[tid] = self.current_round

    def withdrawn_by(self, team_id: int, through_round: int | None = None) -> bool:
        """Whether the team had withdrawn in the standings after ``through_round`` (None: now): a team that
        withdrew while round R was the current one is withdrawn from the standings after round R on."""
        if team_id not in self.withdrawn:
            return False
        return through_round is None or self.withdrawn_in.get(team_id, 0) <= through_round

    def _check_pairable(self, r: int, repair: bool) -> None:
        """Round ``r`` may be paired now: the next one once the current one is final, or the current one
        again before any of its results is in (Swiss and knockout alike)."""
        if repair:
            if r != self.current_round or r == 0:
                raise refusal(N_("only the current round ({current}) can be re-paired, not {round}"),
                              current=self.current_round, round=r)
            if self.rounds[r].started:
                raise refusal(N_("round {round} has started (a result is in): it can no longer be re-paired"), round=r)
            return
        if r != self.current_round + 1:
            raise refusal(N_("the next round to pair is {next}, not {round}"), next=self.current_round + 1, round=r)
        blockers = self.pairing_blockers()
        if blockers:
            raise refusal(N_("round {round} cannot be paired yet: {reasons}"), round=r, reasons=joined(blockers))

    def _on_round_paired(self, d: dict[str, Any]) -> None:
        r = int(d["round"])
        repair = bool(d.get("repair"))
        self._check_pairable(r, repair)
        tables = [(int(h), int(a)) for h, a in d["tables"]]
        bye = d.get("bye")
        bye = None if bye is None else int(bye)
        seen = [x for p in tables for x in p] + ([bye] if bye is not None else [])
        for x in seen:
            if x not in self.teams:
                raise refusal(N_("round {round}: no team number {team}"), round=r, team=x)
            if x in self.withdrawn:
                raise refusal(N_("round {round}: team {team} has withdrawn"), round=r, team=x)
        dup = sorted({x for x in seen if seen.count(x) > 1})
        if dup:
            raise refusal(N_("round {round}: team(s) {teams} placed more than once"), round=r,
                          teams=", ".join(map(str, dup)))
        missing = sorted(set(self.active_teams) - set(seen))
        if missing:
            raise refusal(N_("round {round}: team(s) {teams} not placed"), round=r, teams=", ".join(map(str, missing)))
        if (bye is not None) != (len(seen) % 2 == 1):
            raise refusal(N_("round {round}: a bye is given only when the number of teams is odd"), round=r)
        met = self.met(r)
        for h, a in tables:
            if frozenset((h, a)) in met:
                raise refusal(N_("round {round}: {home} and {away} have already met"), round=r,
                              home=self.teams[h].name, away=self.teams[a].name)
        if bye is not None and bye in self.had_bye(r):
            raise refusal(N_("round {round}: {team} has already had a bye"), round=r, team=self.teams[bye].name)
        seed = d.get("seed")
        rnd = RoundState(r, str(d.get("method", "manual")), None if seed is None else int(seed), bye=bye)
        for i, (h, a) in enumerate(tables, 1):
            rnd.tables[i] = TableState(Table(r, i, h, a))
        rnd.paired_at = self.rounds[r].paired_at if r in self.rounds else self._at
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

    def _where(self, ts: TableState) -> str:
        return f"round {ts.table.round} table {ts.table.number}"

    def _open_for_teams(self, ts: TableState) -> None:
        """A team may act at this table: it is not locked and its result is not final."""
        tb = ts.table
        if ts.locked:
            raise locked_refusal(tb.round, tb.number, ts.wrong_codes)
        if ts.status == FINAL:
            raise refusal(N_("Round {round} table {table} already has a final result; only the arbiter can "
                             "change it"), round=tb.round, table=tb.number)
        if ts.status == DISPUTED:
            raise refusal(N_("Round {round} table {table} is disputed: only the arbiter can settle it"),
                          round=tb.round, table=tb.number)

    def _on_result_entered(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        by = self._by(ts, d)
        slip, _ = self._slip(d)
        tb = ts.table
        self._open_for_teams(ts)
        if self.cfg.per_deal:
            raise refusal(N_("This event reports every deal: report the deals of round {round} table {table}, "
                             "not only the result"), round=tb.round, table=tb.number)
        if ts.status == ENTERED:
            other = self.teams[tb.teams()[1 - tb.side_of(ts.pending_by or tb.away)]].name
            raise refusal(N_("A result of round {round} table {table} is waiting for {team} to confirm or "
                             "reject it: it can be entered again only after they reject it"),
                          round=tb.round, table=tb.number, team=other)
        ts.status, ts.pending, ts.pending_by, ts.note = ENTERED, slip, by, None

    def _awaiting(self, d: dict[str, Any], verb: str) -> tuple[TableState, int]:
        ts = self.table(int(d["round"]), int(d["table"]))
        by = self._by(ts, d)
        tb = ts.table
        if ts.locked:
            self._open_for_teams(ts)
        if ts.status != ENTERED:
            raise refusal(N_("Round {round} table {table}: there is no result waiting to be confirmed"),
                          round=tb.round, table=tb.number)
        if by == ts.pending_by:
            raise refusal(_NOT_YOURS[("result", verb)], round=tb.round, table=tb.number)
        return ts, by

    def _on_result_confirmed(self, d: dict[str, Any]) -> None:
        ts, _ = self._awaiting(d, "confirm")
        assert ts.pending is not None
        cfg = self.cfg
        self._finalise(ts, ts.pending, ts.pending.score(cfg.match_points, cfg.lateness, cfg.limits), "confirmed")

    def _on_result_rejected(self, d: dict[str, Any]) -> None:
        ts, _ = self._awaiting(d, "reject")
        ts.status, ts.pending, ts.pending_by, ts.note = REJECTED, None, None, str(d.get("reason") or "") or None

    def _on_result_disputed(self, d: dict[str, Any]) -> None:
        ts, _ = self._awaiting(d, "dispute")
        ts.status, ts.note = DISPUTED, str(d.get("reason") or "") or None

    # ---- per-deal reporting ----------------------------------------------------------------------
    def _deal_table(self, d: dict[str, Any]) -> tuple[TableState, int]:
        ts = self.table(int(d["round"]), int(d["table"]))
        by = self._by(ts, d)
        if not self.cfg.per_deal:
            raise refusal(N_("round {round} table {table}: this event reports each round's result, not every deal"),
                          round=ts.table.round, table=ts.table.number)
        self._open_for_teams(ts)
        return ts, by

    def _score_deals(self, ts: TableState, items: list[Any], times: list[str | None]) -> tuple[list[DealEntry], Track]:
        cfg = self.cfg
        try:
            return settle_deals(items, cfg.rules, cfg.lateness.deal_award_levels, times,
                                stop_on_pass_a=cfg.limits.stop_on_pass_a)
        except TournamentError as e:
            raise refusal(N_("round {round} table {table}: {problem}"), round=ts.table.round, table=ts.table.number,
                          problem=clause(e)) from None

    def round_over_by(self, ts: TableState, deals: list[DealEntry], at: str | None) -> str | None:
        """Why the round at ``ts`` is over after ``deals`` (confirmed at ``at``), or None if it goes on.

        After the time warning no new deal is started (RULES.md §5.4), so the deal confirmed after it is
        the round's last.
        """
        lim = self.cfg.limits
        if not deals:
            return None
        if lim.stop_on_pass_a and deals[-1].passed_a is not None:
            return "pass_a"
        if lim.max_deals is not None and len(deals) >= lim.max_deals:
            return "deals"
        warning = self.warning_time(ts.table.round)
        if at is not None and warning is not None and parse_time(at) >= warning:
            return "time"
        return None

    def warning_time(self, round_no: int) -> datetime | None:
        """When no new deal may start any more in the round (None: not timed, or its clock not started)."""
        rnd = self.round(round_no)
        lim = self.cfg.limits
        if lim.max_minutes is None or rnd.started_at is None:
            return None
        return parse_time(rnd.started_at) + timedelta(minutes=lim.max_minutes - lim.warning_minutes)

    def _deal_result(self, deals: list[DealEntry], decider: int | None = None) -> ResultSlip:
        levels = deals[-1].levels if deals else (2, 2)
        passed = next((x.passed_a for x in deals if x.passed_a is not None), None)
        return ResultSlip((level_name(levels[0]), level_name(levels[1])), passed, len(deals), None, decider)

    def _finish_by_deals(self, ts: TableState, ended_by: str, source: str, decider: int | None = None) -> None:
        """The round at ``ts`` is over: final from its deals, unless a knockout round ended level, which
        then waits for its deciding deal (the tie rule of knockout.py)."""
        ts.ended_by = ended_by
        level = ts.levels_now[0] == ts.levels_now[1] and not any(x.passed_a is not None for x in ts.deals)
        if self.is_knockout and level and decider is None:
            ts.deciding = True
            return
        slip = self._deal_result(ts.deals, decider)
        cfg = self.cfg
        self._finalise(ts, slip, slip.score(cfg.match_points, cfg.lateness, cfg.limits), source)
        ts.ended_by, ts.deciding = ended_by, False

    def _on_deal_reported(self, d: dict[str, Any]) -> None:
        ts, by = self._deal_table(d)
        tb = ts.table
        n = int(d["deal"])
        if ts.pending_deal is not None:
            other = self.teams[tb.teams()[1 - tb.side_of(ts.pending_deal_by or tb.away)]].name
            raise refusal(N_("Deal {deal} of round {round} table {table} is waiting for {team} to confirm or "
                             "reject it"), deal=ts.pending_deal.number, round=tb.round, table=tb.number, team=other)
        if n != len(ts.deals) + 1:
            raise refusal(N_("The next deal to report at round {round} table {table} is deal {next}, not {deal}"),
                          round=tb.round, table=tb.number, next=len(ts.deals) + 1, deal=n)
        cfg = self.cfg
        if ts.deciding:  # played on at the levels reached: its first out decides, the levels stay
            finish = parse_finish(d["finish"])
            entry = DealEntry(n, finish, None, ts.levels_now, finish[0] % 2, 0, None, self._at)
            ts.pending_deal, ts.pending_deal_by, ts.pending_track, ts.note = entry, by, ts.track, None
            ts.sent_back = ts.sent_back_by = None
            return
        try:  # from where the confirmed deals left the table: a long round is not settled again per report
            entry, track = settle_next(ts.track, {"finish": d["finish"]}, cfg.rules, cfg.lateness.deal_award_levels,
                                       self._at, stop_on_pass_a=cfg.limits.stop_on_pass_a)
        except TournamentError as e:
            raise refusal(N_("round {round} table {table}: {problem}"), round=ts.table.round, table=ts.table.number,
                          problem=clause(e)) from None
        ts.pending_deal, ts.pending_deal_by, ts.pending_track, ts.note = entry, by, track, None
        ts.sent_back = ts.sent_back_by = None
        if ts.status == MISSING:
            ts.status = IN_PLAY

    def _pending_deal(self, d: dict[str, Any], verb: str) -> tuple[TableState, int]:
        ts, by = self._deal_table(d)
        tb = ts.table
        if ts.pending_deal is None or ts.pending_deal.number != int(d["deal"]):
            raise refusal(N_("Round {round} table {table}: deal {deal} is not waiting to be confirmed"),
                          round=tb.round, table=tb.number, deal=int(d["deal"]))
        if by == ts.pending_deal_by:
            raise refusal(_NOT_YOURS[("deal", verb)], round=tb.round, table=tb.number)
        return ts, by

    def _on_deal_confirmed(self, d: dict[str, Any]) -> None:
        ts, _ = self._pending_deal(d, "confirm")
        assert ts.pending_deal is not None
        deal = ts.pending_deal
        if ts.deciding:
            ts.decider_deal, ts.pending_deal, ts.pending_deal_by, ts.pending_track = deal, None, None, None
            self._finish_by_deals(ts, ts.ended_by or "deals", "deals", decider=deal.winner)
            return
        at = self._at or deal.at
        ended = self.round_over_by(ts, [*ts.deals, deal], at)
        ts.deals.append(deal)
        assert ts.pending_track is not None
        ts.track, ts.pending_track = ts.pending_track, None
        ts.pending_deal, ts.pending_deal_by = None, None
        if ended is not None:
            self._finish_by_deals(ts, ended, "deals")

    def _on_deal_rejected(self, d: dict[str, Any]) -> None:
        ts, by = self._pending_deal(d, "reject")
        assert ts.pending_deal is not None
        ts.sent_back, ts.sent_back_by = ts.pending_deal.number, by
        ts.pending_deal, ts.pending_deal_by, ts.pending_track = None, None, None
        ts.note = str(d.get("reason") or "") or None
        if not ts.deals:
            ts.status = MISSING

    def _on_deal_disputed(self, d: dict[str, Any]) -> None:
        self._pending_deal(d, "dispute")
        ts = self.table(int(d["round"]), int(d["table"]))
        ts.status, ts.note = DISPUTED, str(d.get("reason") or "") or None

    def _on_deals_set(self, d: dict[str, Any]) -> None:
        """The arbiter sets a table's deals (a correction, a dispute settled, a lateness award)."""
        ts = self.table(int(d["round"]), int(d["table"]))
        if not self.cfg.per_deal:
            raise refusal(N_("round {round} table {table}: this event reports each round's result, not every deal"),
                          round=ts.table.round, table=ts.table.number)
        if ts.status == FINAL:
            raise refusal(N_("round {round} table {table} already has a final result; override the round's result "
                             "instead"), round=ts.table.round, table=ts.table.number)
        reason = str(d.get("reason") or "").strip()
        if not reason:
            raise refusal(N_("the arbiter's change of a table's deals needs a reason for the audit log"))
        items = d["deals"]
        if not isinstance(items, list):
            raise refusal(N_("deals must be a list, not {deals}"), deals=shown(items))
        lim = self.cfg.limits
        if lim.max_deals is not None and len(items) > lim.max_deals:
            raise refusal(N_("round {round} table {table}: {n} deals is more than this event's limit of {limit}"),
                          round=ts.table.round, table=ts.table.number, n=len(items), limit=lim.max_deals)
        old = {x.number: x.at for x in ts.deals}
        entries, track = self._score_deals(ts, items, [old.get(i + 1, self._at) for i in range(len(items))])
        end = bool(d.get("end"))
        if end and not entries:
            raise refusal(N_("round {round} table {table}: no deal was played, so the round cannot end on its deals; "
                             "score it by an override (a forfeit, say)"), round=ts.table.round, table=ts.table.number)
        ended = "arbiter" if end else self.round_over_by(ts, entries, None)
        ts.deals, ts.track, ts.pending_deal, ts.pending_deal_by, ts.pending_track = entries, track, None, None, None
        ts.deciding, ts.decider_deal = False, None
        ts.sent_back = ts.sent_back_by = None
        ts.status, ts.note = (IN_PLAY if entries else MISSING), reason
        if ended is not None:
            self._finish_by_deals(ts, ended, "arbiter")
            ts.note = reason

    def _on_round_started(self, d: dict[str, Any]) -> None:
        r = int(d["round"])
        rnd = self.round(r)
        if r != self.current_round:
            raise refusal(N_("only the current round ({current}) can be started, not {round}"),
                          current=self.current_round, round=r)
        if rnd.started_at is not None:
            raise refusal(N_("round {round}'s clock has been running since {since}"), round=r,
                          since=shown_time(parse_time(rnd.started_at), self.zone))
        at = d.get("at") or self._at
        parse_time(at, Word(N_("the round's start")))
        rnd.started_at = at

    def round_clock(self, round_no: int, now: datetime | None = None) -> dict[str, Any]:
        """The round's clock at ``now`` (default: the present): its phase and the seconds left.

        ``phase``: ``not_started``, ``play``, ``warning`` (no new deal is started) or ``over`` (time is up:
        only the deals in progress are finished); ``untimed`` for an event without a time limit.
        """
        rnd = self.round(round_no)
        lim = self.cfg.limits
        out: dict[str, Any] = {"round": round_no, "started_at": rnd.started_at, "ends_at": None,
                               "warning_at": None, "seconds_left": None, "complete": rnd.complete}
        if lim.max_minutes is None:
            return out | {"phase": "untimed"}
        if rnd.started_at is None:
            return out | {"phase": "not_started", "seconds_left": lim.max_minutes * 60}
        start = parse_time(rnd.started_at)
        ends = start + timedelta(minutes=lim.max_minutes)
        warn = ends - timedelta(minutes=lim.warning_minutes)
        now = now or datetime.now(UTC)
        left = max(0.0, (ends - now).total_seconds())
        phase = "over" if now >= ends else "warning" if now >= warn else "play"
        return out | {"phase": phase, "ends_at": ends.isoformat(), "warning_at": warn.isoformat(),
                      "seconds_left": round(left)}

    # ---- codes and lock-out ----------------------------------------------------------------------
    def _on_code_refused(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        if ts.locked:
            raise refusal(N_("round {round} table {table} is locked: a wrong code is not even counted"),
                          round=ts.table.round, table=ts.table.number)
        ts.wrong_codes += 1

    def _on_table_locked(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        if ts.locked:
            raise refusal(N_("round {round} table {table} is already locked"), round=ts.table.round, table=ts.table.number)
        ts.locked = True

    def _on_table_unlocked(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        if not ts.locked:
            raise refusal(N_("round {round} table {table} is not locked"), round=ts.table.round, table=ts.table.number)
        ts.locked, ts.wrong_codes = False, 0

    def _on_result_overridden(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        slip, res = self._slip(d)
        reason = str(d.get("reason") or "").strip()
        if not reason:
            raise refusal(N_("an arbiter's override needs a reason for the audit log"))
        self._finalise(ts, slip, res, "override")
        ts.note = reason

    def _on_result_reported(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        slip, res = self._slip(d)
        if ts.status == FINAL:
            raise refusal(N_("round {round} table {table} already has a final result ({source}); the server's report "
                             "was not applied"), round=ts.table.round, table=ts.table.number, source=ts.source)
        self._finalise(ts, slip, res, "server")

    @staticmethod
    def _finalise(ts: TableState, slip: ResultSlip, res: RoundResult, source: str) -> None:
        ts.status, ts.final, ts.result, ts.source = FINAL, slip, res, source
        ts.pending, ts.pending_by, ts.note = None, None, None
        ts.pending_deal, ts.pending_deal_by, ts.pending_track = None, None, None

    # ---- online tables: the arbiter's pause and a player replaced ---------------------------------
    def _on_table_paused(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        if not str(d.get("reason") or "").strip():
            raise refusal(N_("pausing a table needs a reason for the audit log"))
        if ts.status == FINAL:
            raise refusal(N_("round {round} table {table} already has a final result: there is nothing to pause"),
                          round=ts.table.round, table=ts.table.number)
        if ts.paused:
            raise refusal(N_("round {round} table {table} is already paused"), round=ts.table.round, table=ts.table.number)
        ts.paused = True

    def _on_table_resumed(self, d: dict[str, Any]) -> None:
        ts = self.table(int(d["round"]), int(d["table"]))
        if not ts.paused:
            raise refusal(N_("round {round} table {table} is not paused"), round=ts.table.round, table=ts.table.number)
        ts.paused = False

    def _on_names_forgotten(self, d: dict[str, Any]) -> None:
        people = d.get("people")
        if not isinstance(people, int) or isinstance(people, bool) or people < 1:
            raise refusal(N_("forgetting names forgets at least one, not {people}"), people=shown(people))
        if not str(d.get("reason") or "").strip():
            raise refusal(N_("forgetting a name needs a reason for the audit log"))

    def _on_player_replaced(self, d: dict[str, Any]) -> None:
        team = self.team(d["team"])
        old, new = str(d["old"]).strip(), str(d["new"]).strip()
        reason = str(d.get("reason") or "").strip()
        if not reason:
            raise refusal(N_("replacing a player needs a reason for the audit log"))
        keys = [p.casefold() for p in team.players]
        if old.casefold() not in keys:
            raise refusal(N_("{old} is not a player of team {team} ({players})"), old=shown(old), team=team.name,
                          players=" / ".join(team.players))
        if not new or len(new) > 100:
            raise refusal(N_("a player's name must be 1…100 characters, not {name}"), name=shown(d["new"]))
        for t in self.teams.values():
            if t.id not in self.withdrawn and new.casefold() in (p.casefold() for p in t.players):
                raise refusal(N_("{name} already plays in team {team}"), name=shown(new), team=t.name)
        players = [new if p.casefold() == old.casefold() else p for p in team.players]
        self.teams[team.id] = Team(team.id, team.name, (players[0], players[1]), team.club, team.rating)

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
        return _by_ref(self.players, ref, N_("no player number {number}; players are 1…{last}"),
                       N_("no player named {name}"))

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
                return [said(N_("at least two teams are needed, {n} registered"), n=len(self.active_teams))]
            room = ko.room_problem(self.knockout_entries(), self.cfg.rounds)
            return [room] if room else []
        if nxt > self.rounds_total:
            return [said(N_("the knockout is over: every round has been paired ({n} in all)"), n=self.rounds_total)]
        out: list[str] = []
        for t in self.rounds[nxt - 1].tables.values():
            tb = t.table
            where = dict(round=tb.round, table=tb.number, home=self.teams[tb.home].name, away=self.teams[tb.away].name)
            if t.status != FINAL:
                out.append(self._unfinished(t))
            elif t.result is not None and t.final is not None and ko.winning_side(t.result, t.final.decider) is None:
                # A final result reached some other way than the checked entry (a round scored deal by deal,
                # say) may still be level: nobody would go through.
                out.append(said(N_("round {round} table {table} ({home} v {away}): the round ended level and needs "
                                   "the winner of one more deal (加赛一副); set it with the decider"), **where))
        if not out and nxt > 2 and self.knockout_stale(nxt - 1):
            out.append(said(N_("round {round} no longer pairs the winners of round {previous} (a result was "
                               "corrected): re-pair round {round}"), round=nxt - 1, previous=nxt - 2))
        return out

    def _check_team_entry(self) -> None:
        if self.cfg.partners == "random":
            raise refusal(N_("this event draws the partners at random: register each player alone "
                             "(register TID --player NAME), not a team"))
        if self.is_knockout:
            room = ko.room_problem(len(self.active_teams) + 1, self.cfg.rounds)
            if room:
                raise refusal(N_("no more teams: {problem}"), problem=room)

    def _check_knockout_result(self, d: dict[str, Any], slip: ResultSlip, res: RoundResult) -> None:
        """A knockout result needs a winner (a decider on equal levels); a Swiss one takes no decider."""
        r, t = int(d["round"]), int(d["table"])
        if not self.is_knockout:
            if slip.decider is not None:
                raise refusal(N_("round {round} table {table}: a deciding deal (decider) is for knockout events; in "
                                 "a Swiss event a round that ends level is a draw"), round=r, table=t)
            return
        problem = ko.result_problem(r, t, res, slip.decider)
        if problem:
            raise refused(problem)
        ts = self.table(r, t)
        if ts.result is None or ts.final is None or r == self.current_round:
            return
        before = ko.winning_side(ts.result, ts.final.decider)
        if before == ko.winning_side(res, slip.decider):
            return
        later = [x for x in sorted(self.rounds) if x > r]
        started = [x for x in later if self.rounds[x].started]
        if started or len(later) > 1:
            why = (said(N_("round {round} has started"), round=started[0]) if started
                   else said(N_("round {round} has been paired"), round=later[-1]))
            raise refusal(N_("round {round} table {table}: the winner can no longer change, {why} with {team} through"),
                          round=r, table=t, why=why, team=self.teams[ts.table.teams()[before or 0]].name)

    def _on_player_registered(self, d: dict[str, Any]) -> None:
        if self.cfg.partners != "random":
            raise refusal(N_("this event has fixed partners: register teams of two "
                             "(register TID NAME --players A,B), not single players"))
        if self.teams or self.rounds:
            raise refusal(N_("registration is closed: the partners have been drawn"))
        player = ko.new_player(d["player"], len(self.players) + 1, self.players.values())
        teams = (len(self.active_players) + 2) // 2  # with this player, rounded up to a whole team
        room = ko.room_problem(teams, self.cfg.rounds)
        if room:
            raise refusal(N_("no more players: {players} players make {teams} teams, and {problem}"),
                          players=len(self.active_players) + 1, teams=teams, problem=room)
        self.players[player.id] = player

    def _on_player_withdrawn(self, d: dict[str, Any]) -> None:
        pid = self.player(d["player"]).id
        if self.teams:
            raise refusal(N_("the partners have been drawn: withdraw the team instead (its player cannot "
                             "be taken out of it)"))
        if pid in self.players_withdrawn:
            raise refusal(N_("player {player} has already withdrawn"), player=pid)
        self.players_withdrawn.add(pid)

    def _on_partners_drawn(self, d: dict[str, Any]) -> None:
        if self.cfg.partners != "random":
            raise refusal(N_("partners are drawn only in an event with partners drawn at random"))
        if self.teams:
            raise refusal(N_("the partners have already been drawn"))
        problem = ko.partners_problem(len(self.active_players))
        if problem:
            raise refused(problem)
        rows = d["teams"]
        if not isinstance(rows, list):
            raise refusal(N_("a draw of partners is a list of teams, not {rows}"), rows=shown(rows))
        active = set(self.active_players)
        teams: dict[int, Team] = {}
        partners: dict[int, tuple[int, int]] = {}
        placed: list[int] = []
        for i, row in enumerate(rows, 1):
            ids = row["players"]
            if not (isinstance(ids, list | tuple) and len(ids) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in ids)):
                raise refusal(N_("a drawn team is two player numbers, not {ids}"), ids=shown(ids))
            for x in ids:
                if x not in active:
                    raise refusal(N_("the draw places player {player}, who is not entered (or has withdrawn)"), player=x)
            placed += ids
            teams[i] = ko.drawn_team(row["name"], [self.players[x] for x in ids], teams.values(), i)
            partners[i] = (ids[0], ids[1])
        dup = sorted({x for x in placed if placed.count(x) > 1})
        if dup:
            raise refusal(N_("the draw places player(s) {players} more than once"), players=", ".join(map(str, dup)))
        missing = sorted(active - set(placed))
        if missing:
            raise refusal(N_("the draw leaves out player(s) {players}"), players=", ".join(map(str, missing)))
        seed = d.get("seed")
        self.teams, self.partners = teams, partners
        self.partners_seed = None if seed is None else int(seed)

    def _team_words(self, team: int) -> Said:
        """A team as the audit log names it: "team 2 (南山队)", "2号队（南山队）"."""
        if team in self.teams:
            return said(N_("team {n} ({name})"), n=team, name=self.teams[team].name)
        return said(N_("team {n}"), n=team)

    def _match_words(self, match: ko.Match) -> str:
        """A knockout match as the audit log's pairing entry says it: "team 2 (南山队) v team 1 (东风队)", "team 3
        (西湖队): bye", or the bracket's "empty" where neither place holds a team."""
        a, b = match
        if a is not None and b is not None:
            return said(N_("{home} v {away}"), home=self._team_words(a), away=self._team_words(b))
        team = a if a is not None else b
        if team is None:
            return Word(N_("empty"))
        return said(N_("{team}: bye"), team=self._team_words(team))

    def _on_knockout_paired(self, d: dict[str, Any]) -> None:
        if not self.is_knockout:
            raise refusal(N_("a knockout round cannot be paired in a Swiss event"))
        r = int(d["round"])
        self._check_pairable(r, bool(d.get("repair")))
        matches = ko.check_matches(d["matches"])
        bracket = self.bracket
        if r == 1:
            if self.cfg.partners == "random" and not self.teams:
                raise refusal(N_("the partners have not been drawn yet"))
            bracket = ko.check_slots(d["slots"], self.active_teams)
            room = ko.room_problem(len(self.active_teams), self.cfg.rounds)
            if room:
                raise refused(room)
            expected = ko.pair_places(bracket)
        else:
            if "slots" in d:
                raise refusal(N_("only round 1 draws the bracket's places"))
            expected = self.knockout_expected(r)
        if matches != expected:
            shown = joined(self._match_words(m) for m in expected)
            if r == 1:
                raise refusal(N_("round {round} must pair the bracket in place: {matches}"), round=r, matches=shown)
            raise refusal(N_("round {round} must pair the winners of round {previous} in place: {matches}"),
                          round=r, previous=r - 1, matches=shown)
        seed = d.get("seed")
        rnd = RoundState(r, str(d.get("method", "bracket")), None if seed is None else int(seed), matches=matches)
        for a, b in matches:
            if a is not None and b is not None:
                n = len(rnd.tables) + 1
                rnd.tables[n] = TableState(Table(r, n, a, b))
        self.bracket = bracket
        rnd.paired_at = self.rounds[r].paired_at if r in self.rounds else self._at
        self.rounds[r] = rnd


class _Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def _by_ref(entries: dict[int, N], ref: int | str, no_number: str, no_name: str) -> N:
    """A registered team or player by number, or by name (case-insensitive); else the refusal ``no_number``
    (fields ``number`` and ``last``) or ``no_name`` (field ``name``)."""
    if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isdigit()):
        number = int(ref)
        if number in entries:
            return entries[number]
        raise not_found(no_number, number=number, last=len(entries))
    key = ref.strip().casefold()
    for x in entries.values():
        if x.name.casefold() == key:
            return x
    raise not_found(no_name, name=shown(ref))


def _is_bot(player: str) -> bool:
    """Whether a player's name is an agent spec (``greedy``, ``search:max_worlds=4``): a bot, not a person."""
    from ..agents.base import parse_spec  # the agents load only when a name repeats

    try:
        parse_spec(player.strip())
    except GuandanError:
        return False
    return True


def check_plain(value: Any, what: str) -> None:
    """Refuse a name (``what`` says which) that holds a character that would break the desk's tables and
    prints; it is quoted with such characters written as ``\\uXXXX``, so the message cannot be broken by
    them either. Anything that is not a string is left to the entry's own checks."""
    if not isinstance(value, str) or not any(unprintable(c) for c in value):
        return
    quoted = "".join(f"\\u{ord(c):04x}" if unprintable(c) else c for c in value)
    raise refusal(N_("{what} cannot hold control characters (tabs, line breaks, direction marks): “{name}”"),
                  what=what, name=quoted)


def check_rating(rating: Any) -> None:
    """Refuse a rating that is a number but not a finite one of 0 or more (NaN and infinity would also make
    the JSON exports invalid); anything that is not a number is left to the entry's own checks."""
    if isinstance(rating, int | float) and not isinstance(rating, bool) and not (math.isfinite(rating) and rating >= 0):
        raise refusal(N_("a rating must be a finite number, 0 or more, not {rating}"), rating=format(rating, "g"))


def damaged(tournament_id: int | None, seq: int, problem: str) -> TournamentError:
    """The refusal of a log that cannot be read back: it names the tournament and the entry."""
    if tournament_id is None:
        return refusal(N_("the audit log is damaged at entry {seq}: {problem}"), seq=seq, problem=problem)
    return refusal(N_("the audit log of tournament {id} is damaged at entry {seq}: {problem}"), id=tournament_id,
                   seq=seq, problem=problem)


def apply_stored(state: TournamentState, ev: Event) -> None:
    """Apply an entry read back from the log: an entry the state refuses means the log is damaged there (it was
    accepted when it was written), and the refusal says where."""
    try:
        state.apply(ev)
    except TournamentError as e:
        raise damaged(state.id, ev.seq, clause(e)) from None


def replay(events: list[Event], tournament_id: int | None = None) -> TournamentState:
    state = TournamentState(id=tournament_id)
    for ev in events:
        apply_stored(state, ev)
    return state
