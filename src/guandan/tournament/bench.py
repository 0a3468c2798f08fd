"""`guandan tournament bench`: how fast the desk pairs, ranks and replays a large Swiss event.

One seeded event (default 300 teams, 9 rounds) is run twice side by side through the real code: as pure
:class:`~.state.TournamentState` events, and through the :class:`~.desk.Desk` on a temporary SQLite
file. Results are plausible rounds: deals won by one side or the other, the winner going up by the rules'
upgrade table, passing A ending the round, draws on equal levels, a few arbiter overrides, two forfeits
and one withdrawal half way. Each round's result is entered by West's team and confirmed by North's, or
with ``per_deal`` every deal is (a random finishing order, the levels settled by the rules, the round
ending at 8 deals or when A is passed) after the round's clock is started. Both paths must draw the same
tables and rank alike; a difference is a bug and stops the run.

Per round it measures CPU time of this process (``time.process_time``) and wall time of

* ``pair``: :meth:`TournamentState.propose_pairing` (the Swiss matching itself);
* ``desk_pair``: :meth:`Desk.pair_next` (state copy, matching, one logged event, projections);
* ``standings``: :meth:`TournamentState.standings` on the state in memory;
* ``replay``: standings from the audit log: every event replayed from scratch, then the standings;
* ``desk_replay``: :meth:`Desk.verify` on a desk with nothing cached (the log read from the database,
  replayed, checked against the stored standings);
* ``desk_report`` and ``desk_confirm``: each of the desk's result commands, mean and max: the entering
  team's (a round's result or a deal), and the other team's confirmation or the arbiter's override (the
  one that finishes a table rewrites the standings projection).
"""

from __future__ import annotations

import platform
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from ..cliutil import width
from ..db import make_engine
from ..i18n import N_
from .deals import SEATS
from .desk import Desk
from .errors import TournamentError
from .levels import LEVEL_A, level_name
from .model import EventConfig
from .rounds import ResultSlip
from .standings import Standing
from .state import FINAL, Event, TournamentState, replay

#: The issue's figures for 300 teams and 9 rounds, one core: seconds.
TARGETS = {"pair_cpu_s": 2.0, "replay_cpu_s": 1.0}
SECRET = "bench-secret"
T = TypeVar("T")


@dataclass
class Clock:
    """CPU and wall seconds of the calls timed with it."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def time(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn(*args, **kwargs)
        self.cpu.append(time.process_time() - c0)
        self.wall.append(time.perf_counter() - w0)
        return out

    def total(self) -> dict[str, float]:
        return {"cpu_s": sum(self.cpu), "wall_s": sum(self.wall)}

    def spread(self) -> dict[str, float]:
        n = max(len(self.cpu), 1)
        return {"mean_cpu_ms": sum(self.cpu) / n * 1e3, "max_cpu_ms": max(self.cpu, default=0.0) * 1e3,
                "mean_wall_ms": sum(self.wall) / n * 1e3, "max_wall_ms": max(self.wall, default=0.0) * 1e3}


def check_options(teams: int, rounds: int, seed: int, gettext: Callable[[str], str] = str) -> str | None:
    """Why these options cannot run, in the language of ``gettext`` (None when they can)."""
    if not 4 <= teams <= 2000:
        return gettext(N_("{option} must be {low}…{high}, not {value}")).format(
            option="--teams", low=4, high=2000, value=teams)
    # With fewer rounds behind than half the teams, the graph of unplayed pairs always has a perfect
    # matching (Dirac), so every round can be paired without a rematch; one team withdraws on the way.
    most = min(99, (teams - 1) // 2 - 1)
    if not 1 <= rounds <= most:
        return gettext(N_("--rounds must be 1…{most} for {teams} teams, not {rounds}")).format(
            most=most, teams=teams, rounds=rounds)
    if seed < 0:
        return gettext(N_("{option} must be 0 or more, not {value}")).format(option="--seed", value=seed)
    return None


def play_slip(rng: random.Random, upgrades: tuple[int, int, int], max_deals: int) -> ResultSlip:
    """A round as a table might play it: each deal's winners go up by the upgrade table; at A, a win that
    is not a 1-4 finish passes A and ends the round."""
    levels = [2, 2]
    for deal in range(1, max_deals + 1):
        side = rng.randrange(2)
        up = rng.choices(upgrades, weights=(2, 3, 4))[0]
        if levels[side] == LEVEL_A and up != upgrades[2]:
            return ResultSlip((level_name(levels[0]), level_name(levels[1])), side, deal)
        levels[side] = min(LEVEL_A, levels[side] + up)
    return ResultSlip((level_name(levels[0]), level_name(levels[1])), None, max_deals)


class EventLog:
    """The pure path: a state and its audit log, each event applied as the desk would."""

    def __init__(self, config: EventConfig) -> None:
        self.state = TournamentState()
        self.events: list[Event] = []
        self.add("created", {"config": config.to_dict(), "secret": SECRET})

    def add(self, type_: str, data: dict[str, Any]) -> None:
        ev = Event(len(self.events) + 1, type_, data)
        self.state.apply(ev)
        self.events.append(ev)


def _standings_from_log(events: list[Event]) -> list[Standing]:
    return replay(events).standings()


@contextmanager
def _temp_desk() -> Iterator[Desk]:
    with tempfile.TemporaryDirectory(prefix="guandan-bench-") as tmp:
        desk = Desk(make_engine(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"))
        try:
            yield desk
        finally:
            desk.engine.dispose()


@dataclass
class _Run:
    """One bench event on both paths, and the clocks of the desk's result commands in this round."""

    log: EventLog
    desk: Desk
    tid: int
    rng: random.Random
    config: EventConfig
    report: Clock = field(default_factory=Clock)
    confirm: Clock = field(default_factory=Clock)

    def override(self, r: int, n: int, slip: ResultSlip) -> None:
        reason = "bench: set by the arbiter"
        self.log.add("result_overridden", {"round": r, "table": n, "result": slip.to_dict(), "reason": reason})
        self.confirm.time(self.desk.override, self.tid, r, n, slip, reason)

    def result(self, r: int, n: int, home: int, away: int) -> None:
        """West (the away team) enters the round's final levels, North (home) confirms."""
        limits = self.config.limits
        slip = play_slip(self.rng, self.config.rules.upgrade_table, limits.max_deals or 8)
        self.log.add("result_entered", {"round": r, "table": n, "result": slip.to_dict(), "by": away})
        self.log.add("result_confirmed", {"round": r, "table": n, "by": home})
        self.report.time(self.desk.enter_result, self.tid, r, n, slip, by=away)
        self.confirm.time(self.desk.confirm, self.tid, r, n, by=home)

    def deals(self, r: int, n: int, home: int, away: int) -> None:
        """West reports each deal's finishing order, North confirms, until the round ends at the table."""
        deal = 0
        while self.log.state.rounds[r].tables[n].status != FINAL:
            deal += 1
            if deal > 99:
                raise TournamentError(f"round {r} table {n}: the round did not end after 99 deals")
            finish = list(SEATS)
            self.rng.shuffle(finish)
            self.log.add("deal_reported", {"round": r, "table": n, "deal": deal, "finish": finish, "by": away})
            self.log.add("deal_confirmed", {"round": r, "table": n, "deal": deal, "by": home})
            self.report.time(self.desk.report_deal, self.tid, r, n, deal, finish, by=away)
            self.confirm.time(self.desk.confirm_deal, self.tid, r, n, deal, by=home)


def bench_figures(teams: int = 300, rounds: int = 9, seed: int = 1, per_deal: bool = False,
                  progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run the event and return the figures (see the module's docstring); ``progress`` gets each round's row."""
    problem = check_options(teams, rounds, seed)
    if problem:
        raise TournamentError(problem)
    rng = random.Random(seed)
    config = EventConfig(name="Bench Open", rounds=rounds, seed=seed, per_deal=per_deal)
    withdraw_after = max(1, rounds // 2) if rounds > 1 else None
    forfeits = {(1, 1 + rng.randrange(teams // 2)), (rounds, 1)}
    log = EventLog(config)
    rows: list[dict[str, Any]] = []
    with _temp_desk() as desk:
        run = _Run(log, desk, desk.create(config, secret=SECRET), rng, config)
        tid = run.tid
        for i in range(1, teams + 1):
            name, players, club = f"Team {i}", [f"P{i}a", f"P{i}b"], f"Club {rng.randrange(40)}"
            log.add("team_registered", {"team": {"name": name, "players": players, "club": club, "rating": None}})
            desk.register(tid, name, players, club)
        for r in range(1, rounds + 1):
            row: dict[str, Any] = {"round": r, "teams": len(log.state.active_teams)}
            pair_clock, desk_pair_clock = Clock(), Clock()
            pairing, method, used = pair_clock.time(log.state.propose_pairing, r)
            log.add("round_paired", {"round": r, "method": method, "seed": used,
                                     "tables": [list(p) for p in pairing.pairs], "bye": pairing.bye, "repair": False})
            rnd = desk_pair_clock.time(desk.pair_next, tid)
            drawn = [ts.table.teams() for ts in rnd.tables.values()]
            if drawn != list(pairing.pairs) or rnd.bye != pairing.bye:
                raise TournamentError(f"round {r}: the desk drew other tables than the pure state")
            if per_deal:
                now = datetime.now(UTC)
                log.add("round_started", {"round": r, "at": now.isoformat()})
                desk.start_round(tid, r, at=now)
            run.report, run.confirm = Clock(), Clock()
            for n, ts in log.state.rounds[r].tables.items():
                home, away = ts.table.teams()
                if (r, n) in forfeits:
                    run.override(r, n, ResultSlip(None, forfeit=rng.randrange(2)))
                elif rng.random() < 0.03:
                    run.override(r, n, play_slip(rng, config.rules.upgrade_table, config.limits.max_deals or 8))
                elif per_deal:
                    run.deals(r, n, home, away)
                else:
                    run.result(r, n, home, away)
            if r == withdraw_after:
                gone = log.state.standings()[-1].team_id
                log.add("team_withdrawn", {"team": gone, "reason": "bench: left the venue"})
                desk.withdraw(tid, gone, "bench: left the venue")
            standings_clock, replay_clock, desk_replay_clock = Clock(), Clock(), Clock()
            table = standings_clock.time(log.state.standings)
            fresh = replay_clock.time(_standings_from_log, log.events)
            desk_replay_clock.time(Desk(desk.engine, migrate=False).verify, tid)
            if fresh != table or desk.state(tid).standings() != table:
                raise TournamentError(f"round {r}: a replay of the log gave other standings")
            row.update({
                "tables": len(rnd.tables), "bye": rnd.bye is not None, "events": len(log.events),
                "pair": pair_clock.total(), "desk_pair": desk_pair_clock.total(),
                "standings": standings_clock.total(), "replay": replay_clock.total(),
                "desk_replay": desk_replay_clock.total(),
                "desk_report": run.report.spread(), "desk_confirm": run.confirm.spread(),
            })
            rows.append(row)
            if progress is not None:
                progress(row)
    worst = {
        "pair_cpu_s": max(x["pair"]["cpu_s"] for x in rows),
        "desk_pair_cpu_s": max(x["desk_pair"]["cpu_s"] for x in rows),
        "standings_cpu_s": max(x["standings"]["cpu_s"] for x in rows),
        "replay_cpu_s": max(x["replay"]["cpu_s"] for x in rows),
        "desk_replay_cpu_s": max(x["desk_replay"]["cpu_s"] for x in rows),
        "desk_confirm_max_cpu_ms": max(x["desk_confirm"]["max_cpu_ms"] for x in rows),
    }
    return {
        "parameters": {"teams": teams, "rounds": rounds, "seed": seed, "per_deal": per_deal},
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "rounds": rows,
        "worst": worst,
        "targets": dict(TARGETS),
        "met": {k: worst[k] <= v for k, v in TARGETS.items()},
    }


#: The printed table: a column heading and how to read it from a round's row.
COLUMNS: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
    (N_("round"), lambda x: str(x["round"])),
    (N_("teams"), lambda x: str(x["teams"])),
    (N_("pair s"), lambda x: f"{x['pair']['cpu_s']:.3f}"),
    (N_("desk pair s"), lambda x: f"{x['desk_pair']['cpu_s']:.3f}"),
    (N_("standings ms"), lambda x: f"{x['standings']['cpu_s'] * 1e3:.1f}"),
    (N_("replay s"), lambda x: f"{x['replay']['cpu_s']:.3f}"),
    (N_("desk replay s"), lambda x: f"{x['desk_replay']['cpu_s']:.3f}"),
    (N_("report ms"), lambda x: f"{x['desk_report']['mean_cpu_ms']:.1f}"),
    (N_("confirm ms (max)"), lambda x: f"{x['desk_confirm']['mean_cpu_ms']:.1f} ({x['desk_confirm']['max_cpu_ms']:.1f})"),
    (N_("wall pair/replay s"), lambda x: f"{x['pair']['wall_s']:.3f}/{x['replay']['wall_s']:.3f}"),
)


def header(gettext: Callable[[str], str] = str) -> str:
    return "  ".join(gettext(c) for c, _ in COLUMNS)


def format_row(row: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    return "  ".join(" " * max(0, width(gettext(c)) - len(f(row))) + f(row) for c, f in COLUMNS)


def summary_lines(figures: dict[str, Any], gettext: Callable[[str], str] = str) -> list[str]:
    w, t, met = figures["worst"], figures["targets"], figures["met"]
    p = figures["parameters"]
    _ = gettext

    def verdict(key: str) -> str:
        return _(N_("met")) if met[key] else _(N_("NOT met"))

    return [
        _(N_("{teams} teams, {rounds} rounds, seed {seed}, {reporting}; Python {python}; CPU seconds of one process"))
        .format(teams=p["teams"], rounds=p["rounds"], seed=p["seed"], python=figures["python"],
                reporting=_(N_("every deal reported")) if p["per_deal"] else _(N_("round results"))),
        _(N_("pairing a round, worst: {worst} s (target ≤ {target} s: {verdict}); through the desk {desk} s")).format(
            worst=f"{w['pair_cpu_s']:.3f}", target=f"{t['pair_cpu_s']:g}", verdict=verdict("pair_cpu_s"),
            desk=f"{w['desk_pair_cpu_s']:.3f}"),
        _(N_("standings from the log, worst: {worst} s (target ≤ {target} s: {verdict}); through the desk {desk} s"))
        .format(worst=f"{w['replay_cpu_s']:.3f}", target=f"{t['replay_cpu_s']:g}", verdict=verdict("replay_cpu_s"),
                desk=f"{w['desk_replay_cpu_s']:.3f}"),
        _(N_("standings in memory, worst: {standings} ms; a confirmation through the desk, worst: {confirm} ms"))
        .format(standings=f"{w['standings_cpu_s'] * 1e3:.1f}", confirm=f"{w['desk_confirm_max_cpu_ms']:.1f}"),
    ]
