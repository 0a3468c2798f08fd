"""Bot events: the desk's Swiss and knockout events played by bots, as the 2020 AI competition played its bots.

A bot event is an ordinary desk tournament whose teams' two "players" are agent specs (``heuristic``,
``search:prior=0.3``, ``external:module:Class`` for a 2020-protocol bot through the adapter); everything
else (pairing, the deal cap and passing A, standings, the knockout's deciding deal, exports, the venue screen
and the bracket) is the desk's own. :func:`run_event` pairs each round with the desk, plays every table's
match on the engine (:func:`guandan.agents.runner.run_match`) and records it through the desk:

* **Per-deal events** (the default wherever the rules score levels): every deal's finishing order is
  reported by the away team and confirmed by the home team (:meth:`Desk.report_deals`), one transaction
  per table, so the desk settles the levels from the orders itself exactly as for a table of people and a
  replay of the log re-derives them. The runner first checks that the desk's levels after every deal are
  the engine's.
* **Per-round events**: the table's final levels are reported once (:meth:`Desk.report`), as the game
  server reports a table it played.

Entries are written by the actor ``bot-event``. The round clock is never started: a bot round ends by its
deals or by a team passing A, so its result does not depend on how fast the machine is.

**Seeds.** Table ``t`` of round ``r`` plays the match seeded ``sha256("bot-event:{seed}:{r}:{t}")`` (128 bits
as hex), ``seed`` being the event's (the one that also draws round 1): the same seed gives the same event.
Each deal's shuffle then follows :mod:`guandan.core.fair` (its commitment is the hash of its deal seed), and
the records written with ``records`` let anyone check every hand. Without a seed, ``bot-event new`` draws
one of 53 bits with :mod:`secrets` (too many for a bot that sees its own hand to search through), kept in the
log: a seed an entrant knows lets them deal every hand, so give one only to repeat an event.

**Seats.** The home team sits North–South (its first bot North), the away team East–West (its first bot
East), and a table plays its deals once: the desk's round is one match from level 2 with one result, and
its rules (RULES.md §5.4) have no way to score the same deals played again with the seats swapped. The 2020
platform did not swap seats either: it seated teams by the order they connected and played whole games.
Seats even out over a Swiss event instead; to compare two bots over duplicate deals, use ``guandan arena``.

**Resume.** A table is written whole or not at all, so a stopped run loses at most the tables in play and
the next run plays only the tables that have nothing in the log. A table with entries the bot event did not
write (a deal reported by hand) is left to the arbiter: the run refuses to go on until it is settled.
"""

from __future__ import annotations

import hashlib
import importlib.util
import multiprocessing
import secrets
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..agents.base import Agent, agent_names, agent_options, canonical_spec, make_agent
from ..agents.runner import RunStats, run_match
from ..core.errors import GuandanError
from ..core.match import MatchConfig, MatchState, new_match
from ..core.record import dumps
from ..core.rules import PRESET_NAMES, RuleSet, preset
from ..core.vocab import Scoring
from ..i18n import N_
from ..protocol.adapter import ExternalAgent, add_bot_path, parse_spec
from ..protocol.errors import ProtocolError
from ..protocol.notation import check_rules
from .deals import settle_deals
from .errors import TournamentError, refusal
from .levels import level_name
from .model import EventConfig, LatenessRules, RoundLimits
from .rounds import ResultSlip
from .state import FINAL, Event, TableState, TournamentState
from .venuetime import check_zone

if TYPE_CHECKING:
    from .desk import Desk  # annotations only: the command line's --help need not load the database

#: Who the bot event's entries are by, in the audit log.
BOT_ACTOR = "bot-event"
#: Where a bot event keeps its own settings in the creation entry (Desk.create's ``notes``).
NOTES_KEY = "bot_event"
#: A round without a deal cap is played until a team passes A; a match that has not got there by now is stopped.
WHOLE_GAME_CAP = 400
FORMATS = {"swiss": "pairs-swiss", "pairs-swiss": "pairs-swiss", "knockout": "knockout"}
SEED_BITS = 53  # a seed drawn for an event stays an exact number in JSON, spreadsheets and browsers
_FAILURES = ("crashes", "timeouts", "invalid", "fallbacks", "illegal")


# ---- entries ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A team of two bots: its name and its two agent specs (North/East first, South/West second)."""

    name: str
    specs: tuple[str, str]


def parse_entry(text: str) -> Entry:
    """``NAME=SPEC,SPEC`` (one ``SPEC`` seats that bot twice); the specs are checked by :func:`check_spec`."""
    name, eq, rest = text.partition("=")
    name = name.strip()
    specs = [x.strip() for x in rest.replace("，", ",").split(",")]
    if not eq or not name or not all(specs):
        raise refusal(N_("An entry is written NAME=SPEC,SPEC (a team name, then its two bots' agent specs), "
                         "not {entry}"), entry=text)
    if len(specs) == 1:
        specs *= 2
    if len(specs) != 2:
        raise refusal(N_("Entry {team}: a team has two bots, not {n}"), team=name, n=len(specs))
    return Entry(name, (specs[0], specs[1]))


def check_spec(team: str, spec: str, rules: RuleSet) -> str:
    """``spec`` written canonically, or a refusal naming the team and what is wrong with its bot."""
    if spec.startswith("external:"):
        try:
            parse_spec(spec)
        except GuandanError:
            raise refusal(N_("Entry {team}: an external bot is written external:MODULE:CLASS[:process]"
                             "[:timeout=SECONDS], not {spec}"), team=team, spec=spec) from None
        try:
            check_rules(rules)
        except ProtocolError:
            raise refusal(N_("Entry {team}: a 2020-protocol bot cannot play the {rules} rules; use competition, "
                             "huaian-traditional or huaian-2009"), team=team, rules=rules.name) from None
        return spec
    tier = spec.split(":")[0]
    tiers = [x for x in agent_names() if x != "external"]
    if tier not in tiers:
        raise refusal(N_("Entry {team}: there is no bot tier called {tier}; the tiers are {tiers}, and "
                         "external:MODULE:CLASS for a 2020-protocol bot"), team=team, tier=tier,
                      tiers=", ".join(tiers))
    try:
        return canonical_spec(spec)
    except GuandanError:
        options = ", ".join(f"{k}=…" for k in sorted(agent_options(tier))) or "—"
        raise refusal(N_("Entry {team}: the options of {spec} are not valid; {tier} takes {options}"),
                      team=team, spec=spec, tier=tier, options=options) from None


def check_entries(entries: Sequence[Entry], rules: RuleSet) -> list[Entry]:
    """The entries with canonical specs; refused when two share a name or a name could not be a team's."""
    out: list[Entry] = []
    seen: set[str] = set()
    for e in entries:
        if len(e.name) > 100 or e.name.isdigit():
            raise refusal(N_("Entry {team}: a team name has 1 to 100 characters and is not only digits"),
                          team=e.name)
        if e.name.casefold() in seen:
            raise refusal(N_("Two entries are named {team}"), team=e.name)
        seen.add(e.name.casefold())
        out.append(Entry(e.name, (check_spec(e.name, e.specs[0], rules), check_spec(e.name, e.specs[1], rules))))
    return out


def check_budget(budget: float | None) -> float | None:
    if budget is not None and not budget > 0:
        raise refusal(N_("The budget is a positive number of seconds per decision, not {budget}"), budget=budget)
    return budget


# ---- creating an event --------------------------------------------------------------------------------------
def event_config(name: str, fmt: str, rounds: int | None, preset_name: str, deals: int, seed: int | None,
                 per_deal: bool | None = None, time_zone: str | None = None) -> EventConfig:
    """The desk's configuration of a bot event: the round ends at ``deals`` deals (0: a whole game) or when a
    team passes A; no minutes (bots are timed per decision, not per round). ``time_zone`` is the venue's, as
    for any event (:func:`~.venuetime.check_zone`); None: this machine's."""
    if fmt not in FORMATS:
        raise refusal(N_("The format is swiss or knockout, not {format}"), format=fmt)
    if preset_name not in PRESET_NAMES:
        raise refusal(N_("There is no preset called {preset}; the presets are {presets}"), preset=preset_name,
                      presets=", ".join(PRESET_NAMES))
    if not 0 <= deals <= 99:
        raise refusal(N_("Deals per round are 1 to 99, or 0 for whole games (until a team passes A), not {n}"),
                      n=deals)
    if seed is not None and seed < 0:
        raise refusal(N_("The seed is a whole number 0 or more, not {seed}"), seed=seed)
    zone = check_zone(time_zone) if time_zone is not None else None
    rules = preset(preset_name)
    levels = rules.scoring == Scoring.LEVELS
    form = FORMATS[fmt]
    return EventConfig(
        name=name, rounds=rounds if rounds is not None else 0 if form == "knockout" else 5, format=form,
        limits=RoundLimits(deals or None, None, True, 0), lateness=LatenessRules(),
        match_points=tuple(rules.match_points),  # type: ignore[arg-type]
        seed=secrets.randbelow(2**SEED_BITS) if seed is None else seed, rules=rules,
        per_deal=levels if per_deal is None else per_deal, time_zone=zone)


def create_event(desk: Desk, config: EventConfig, entries: Sequence[Entry], budget: float | None = None) -> int:
    """Create the event and register its teams, once every part of it has been checked: a refused event
    writes nothing."""
    check_budget(budget)
    checked = check_entries(entries, config.rules)
    if len(checked) < 2:
        raise refusal(N_("A bot event needs at least two entries, not {n}"), n=len(checked))
    n = len(checked)
    most = n if n % 2 else n - 1  # no rematch; with an odd number each round's bye goes to a new team
    if config.format == "pairs-swiss" and config.rounds > most:
        raise refusal(N_("{teams} teams can play at most {most} Swiss rounds without a rematch, not {rounds}"),
                      teams=n, most=most, rounds=config.rounds)
    # the desk's own checks, on a state of its own: the knockout's size, the names, the rules
    trial = TournamentState()
    trial.apply(Event(1, "created", {"config": config.to_dict(), "secret": "trial-secret"}))
    for i, e in enumerate(checked, 2):
        trial.apply(Event(i, "team_registered", {"team": {"name": e.name, "players": list(e.specs)}}))
    notes = {NOTES_KEY: {"budget": budget, "deal_seeds": "sha256 of bot-event:{seed}:{round}:{table}"}}
    tid = desk.create(config, secret=secrets.token_urlsafe(16), actor=BOT_ACTOR, notes=notes)
    for e in checked:
        desk.register(tid, e.name, list(e.specs), actor=BOT_ACTOR)
    return tid


def enter_teams(desk: Desk, tid: int, entries: Sequence[Entry]) -> list[int]:
    """Register bot teams onto an existing event (before round 1), all of them or, if one is refused, none."""
    state = desk.state(tid)
    checked = check_entries(entries, state.cfg.rules)
    trial = desk.state(tid)
    for i, e in enumerate(checked, trial.last_seq + 1):
        trial.apply(Event(i, "team_registered", {"team": {"name": e.name, "players": list(e.specs)}}))
    return [desk.register(tid, e.name, list(e.specs), actor=BOT_ACTOR).id for e in checked]


def settings(desk: Desk, tid: int) -> dict[str, Any]:
    """The bot event's settings from its creation entry (an event made by hand has none: defaults)."""
    first = desk.events(tid)[0]
    notes = first.data.get("notes") or {}
    found = notes.get(NOTES_KEY) if isinstance(notes, dict) else None
    return dict(found) if isinstance(found, dict) else {}


def bot_specs(state: TournamentState) -> dict[int, tuple[str, str]]:
    """Every team's two agent specs; refused when a team's player is not a bot or the event cannot be played
    by bots."""
    cfg = state.cfg
    if not cfg.limits.stop_on_pass_a:
        raise refusal(N_("A bot event's round ends when a team passes A (the engine's match ends there); this "
                         "event plays on after A"))
    if cfg.partners == "random":
        raise refusal(N_("A bot event has fixed teams; this event draws its partners at random"))
    out: dict[int, tuple[str, str]] = {}
    for t in sorted(state.teams):
        team = state.teams[t]
        for p in team.players:
            try:
                check_spec(team.name, p, cfg.rules)
            except TournamentError:
                raise refusal(N_("Team {team} is not a team of bots: its player {player} is not an agent spec "
                                 "that this event's rules can seat (see guandan agents)"),
                              team=team.name, player=p) from None
        out[t] = team.players
    if len(out) < 2:
        raise refusal(N_("A bot event needs at least two entries, not {n}"), n=len(out))
    return out


def check_findable(state: TournamentState, specs: dict[int, tuple[str, str]]) -> None:
    """Every 2020-protocol bot's module can be found (on ``--path`` or ``sys.path``), without importing it:
    a bot that cannot load would only be played for, move after move."""
    for t, pair in specs.items():
        for spec in pair:
            if not spec.startswith("external:"):
                continue
            module = parse_spec(spec)[0]
            try:
                found = importlib.util.find_spec(module) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                raise refusal(N_("Team {team}: the module {module} of its bot {spec} is not found; give the folder "
                                 "it is in with --path"), team=state.teams[t].name, module=module, spec=spec)


def table_seed(event_seed: int, round_no: int, table_no: int) -> str:
    """The match seed of one table: 128 bits of ``sha256("bot-event:{seed}:{round}:{table}")``, as hex."""
    return hashlib.sha256(f"bot-event:{event_seed}:{round_no}:{table_no}".encode()).hexdigest()[:32]


# ---- playing a table (also in worker processes: everything here is picklable) -------------------------------
@dataclass(frozen=True)
class TableJob:
    round: int
    table: int
    home: tuple[str, str]
    away: tuple[str, str]
    rules: RuleSet
    seed: str
    max_deals: int | None
    knockout: bool
    budget: float | None = None
    bot_paths: tuple[str, ...] = ()
    records: str | None = None

    def seats(self) -> list[str]:
        """Agent specs by seat: N, E, S, W (home North–South, away East–West)."""
        return [self.home[0], self.away[0], self.home[1], self.away[1]]


@dataclass
class TablePlay:
    """What the engine played at one table: each deal's finishing order (seats) and the levels after it
    (desk values, home first); the deciding deal of a level knockout round; the bots' failures per side."""

    round: int
    table: int
    finishes: list[tuple[int, int, int, int]]
    levels: list[tuple[int, int]]
    passed_a: int | None
    decider: tuple[int, int, int, int] | None = None
    failures: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])

    @property
    def final_levels(self) -> tuple[int, int]:
        return self.levels[-1] if self.levels else (2, 2)


def _desk_levels(levels: tuple[int, int]) -> tuple[int, int]:
    return (levels[0] + 2, levels[1] + 2)


def _count(play: TablePlay, agents: Sequence[Agent], stats: RunStats) -> None:
    """Adapter failures (crashes, timeouts, invalid replies, moves we played for the bot) and illegal
    actions the runner replaced, per side (0 home, 1 away)."""
    for seat, agent in enumerate(agents):
        side = play.failures[seat % 2]
        if isinstance(agent, ExternalAgent):
            for k, v in agent.stats().items():
                side[k] = side.get(k, 0) + int(v)
        if stats.illegal[seat]:
            side["illegal"] = side.get("illegal", 0) + stats.illegal[seat]


def play_table(job: TableJob) -> TablePlay:
    """Play one table's round on the engine: a match from level 2, to the deal cap or a pass of A; in a
    knockout a round that ends level is followed by one deciding deal from where it ended."""
    for path in job.bot_paths:
        add_bot_path(path)
    names = job.seats()
    agents = [make_agent(spec, f"{job.seed}:seat:{s}", job.budget) for s, spec in enumerate(names)]
    cap = job.max_deals or WHOLE_GAME_CAP
    match = new_match(job.rules, job.seed, MatchConfig(max_deals=cap))
    stats = RunStats()
    decider: MatchState | None = None
    try:
        run_match(match, agents, stats=stats)
        if job.max_deals is None and match.winner is None:
            raise refusal(N_("Round {round} table {table}: nobody passed A in {n} deals; give the event a deal "
                             "limit"), round=job.round, table=job.table, n=cap)
        if job.knockout and match.winner is None and match.levels[0] == match.levels[1]:
            decider = new_match(job.rules, f"{job.seed}:decider", MatchConfig(
                max_deals=1, start_levels=match.levels, start_declarer=match.declarer,
                start_prev_finish=match.prev_finish, start_a_failures=match.a_failures))
            run_match(decider, agents, stats=stats)
    finally:
        play = TablePlay(job.round, job.table, [], [], None)
        _count(play, agents, stats)
        for agent in agents:
            agent.close()
    play.finishes = [(d.finish[0], d.finish[1], d.finish[2], d.finish[3]) for d in match.deals]
    play.levels = [_desk_levels(d.settlement.levels_after) for d in match.deals]
    play.passed_a = match.winner
    if decider is not None:
        f = decider.deals[0].finish
        play.decider = (f[0], f[1], f[2], f[3])
    if job.records:
        folder = Path(job.records)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"round-{job.round}-table-{job.table}.json").write_text(dumps(match, names), encoding="utf-8")
        if decider is not None:
            (folder / f"round-{job.round}-table-{job.table}-decider.json").write_text(dumps(decider, names),
                                                                                   encoding="utf-8")
    return play


# ---- recording a table through the desk --------------------------------------------------------------------
def record_table(desk: Desk, tid: int, play: TablePlay) -> None:
    """Enter one played table through the desk (see the module's doc), after checking that the desk's rules
    settle the engine's finishing orders to the engine's levels."""
    state = desk.state(tid)
    cfg = state.cfg
    if cfg.per_deal:
        settled, _ = settle_deals([{"finish": list(f)} for f in play.finishes], cfg.rules,
                                  cfg.lateness.deal_award_levels, stop_on_pass_a=cfg.limits.stop_on_pass_a)
        if [x.levels for x in settled] != play.levels:
            raise TournamentError(f"round {play.round} table {play.table}: the desk's levels differ from the "
                                  "engine's; nothing was recorded")
        finishes = play.finishes + ([play.decider] if play.decider is not None else [])
        desk.report_deals(tid, play.round, play.table, finishes, actor=BOT_ACTOR)
        return
    home, away = play.final_levels
    if play.passed_a is not None:  # the engine keeps the winner at A: the desk records a pass of A so
        home, away = (14, away) if play.passed_a == 0 else (home, 14)
    slip = ResultSlip((level_name(home), level_name(away)), play.passed_a, len(play.finishes),
                      decider=None if play.decider is None else play.decider[0] % 2)
    desk.report(tid, play.round, play.table, slip, actor=BOT_ACTOR)


# ---- running -------------------------------------------------------------------------------------------------
@dataclass
class Progress:
    """What a run reports as it goes: ``kind`` is ``paired``, ``table`` or ``round``."""

    kind: str
    round: int
    play: TablePlay | None = None


def _foreign(ts: TableState) -> bool:
    """Whether the log holds something at this table that is not a whole result (a part-played table), or the
    table is locked: either way it is the arbiter's to settle."""
    return ts.status != FINAL and (ts.touched or ts.locked)


def _check_round(state: TournamentState, r: int) -> None:
    for n, ts in state.round(r).tables.items():
        if _foreign(ts):
            raise refusal(N_("Round {round} table {table} has entries in the log that the bot event did not "
                             "write: the arbiter settles that table first (deals --set, result --override or "
                             "unlock)"), round=r, table=n)


def _jobs(state: TournamentState, r: int, specs: dict[int, tuple[str, str]], budget: float | None,
          bot_paths: Sequence[str], records: str | None) -> list[TableJob]:
    cfg = state.cfg
    out = []
    for n, ts in sorted(state.round(r).tables.items()):
        if ts.status == FINAL:
            continue
        tb = ts.table
        out.append(TableJob(r, n, specs[tb.home], specs[tb.away], cfg.rules, table_seed(cfg.seed, r, n),
                            cfg.limits.max_deals, state.is_knockout, budget, tuple(bot_paths), records))
    return out


def _play_all(jobs: list[TableJob], workers: int) -> Iterable[TablePlay]:
    """The tables' plays in table order (written in that order, so the log does not depend on ``workers``)."""
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield play_table(job)
        return
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        futures = [pool.submit(play_table, job) for job in jobs]
        for future in futures:
            yield future.result()
    finally:  # stopped (a failed table, Ctrl-C): the tables not started yet are not played for nothing
        pool.shutdown(wait=True, cancel_futures=True)


def next_round(state: TournamentState) -> int | None:
    """The round a run plays next: the current one while a table waits, else the next to pair (None: over)."""
    r = state.current_round
    if r and not state.rounds[r].complete:
        return r
    return None if state.finished else r + 1


def run_event(desk: Desk, tid: int, *, round_no: int | None = None, all_rounds: bool = False, workers: int = 1,
              bot_paths: Sequence[str] = (), records: str | None = None,
              progress: Callable[[Progress], None] | None = None) -> TournamentState:
    """Play the event's next round (or round ``round_no``, or with ``all_rounds`` every round left): pair it
    with the desk when it is not paired yet, play its tables that have no result, record each through the
    desk. Returns the state afterwards."""
    for path in bot_paths:
        add_bot_path(path)
    state = desk.state(tid)
    specs = bot_specs(state)
    check_findable(state, specs)
    budget = check_budget(settings(desk, tid).get("budget"))
    first = next_round(state)
    if round_no is not None and round_no != first:
        if first is None:
            raise refusal(N_("The event is over: all its rounds have been played"))
        raise refusal(N_("Round {round} cannot be played now: the next round to play is {next}"),
                      round=round_no, next=first)
    while True:
        state = desk.state(tid)
        r = next_round(state)
        if r is None:
            break
        if r > state.current_round:
            desk.pair_next(tid, actor=BOT_ACTOR)
            state = desk.state(tid)
            if progress:
                progress(Progress("paired", r))
        _check_round(state, r)
        for play in _play_all(_jobs(state, r, specs, budget, bot_paths, records), workers):
            record_table(desk, tid, play)
            if progress:
                progress(Progress("table", r, play))
        if progress:
            progress(Progress("round", r))
        if not all_rounds:
            break
    return desk.state(tid)


def failure_text(counts: dict[str, int]) -> dict[str, int]:
    """The failure counts a table's side had, every kind present (0 when none)."""
    return {k: int(counts.get(k, 0)) for k in _FAILURES}

