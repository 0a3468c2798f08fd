"""`guandan tournament bot-event …`: create, enter and run an event played by bots (see :mod:`.botevent`).

Everything printed comes from the ``desk`` catalogue in the language of ``--lang``. Bad input prints
``error: …`` and exits 2, changing nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES
from ..i18n import LANGUAGES, N_, default_lang, translator
from .botevent import (
    Entry,
    Progress,
    TablePlay,
    create_event,
    enter_teams,
    event_config,
    failure_text,
    parse_entry,
    run_event,
)
from .bracket import Gettext, bracket_data, placing_lines
from .cli_table import print_table, say
from .cli_words import TIME_ZONE_HELP, database_refusal, desk_fail, folder_problem, open_desk
from .errors import Said, TournamentError
from .export import export_json, standing_records, write_csv, write_xlsx
from .levels import level_label, level_value
from .state import TournamentState
from .venuetime import zone_label
from .words import STANDING_HEADS, knockout_standing

if TYPE_CHECKING:
    from .desk import Desk

app = typer.Typer(help="Events played by bots (our tiers, 2020-protocol bots): Swiss or knockout, from the CLI.",
                  no_args_is_help=True, pretty_exceptions_enable=False)

DbOpt = Annotated[str | None, typer.Option("--db", envvar="GUANDAN_DB_URL",
                                           help="database URL (default: SQLite under $GUANDAN_DATA_DIR or ./data)")]
LangOpt = Annotated[str | None, typer.Option("--lang", help=f"language of the output: {', '.join(LANGUAGES)} "
                                                            "(default: from LANG, else en)")]
EntryOpt = Annotated[list[str], typer.Option("--entry", help="a team: NAME=SPEC,SPEC (its two bots; one SPEC seats "
                                                             "it twice), e.g. \"B=search:prior=0.3,search\"")]


def bots_text(players: Sequence[str]) -> str:
    """A team's two bots as the run shows them: ``a + b``, or ``a ×2`` when both are the same."""
    return f"{players[0]} ×2" if players[0] == players[1] else " + ".join(players)


def _gettext(lang: str | None) -> Gettext:
    code = lang or default_lang()
    if code not in LANGUAGES:
        desk_fail(translator("desk", default_lang()).gettext("--lang must be one of {languages}, not “{value}”").format(
            languages=", ".join(LANGUAGES), value=code))
    return translator("desk", code).gettext


def _fail(_: Gettext, e: GuandanError | str) -> NoReturn:
    """``error: …`` in the reader's language where the refusal is catalogued, its catalogued words and clauses
    (a team's problem inside an event's) too."""
    if isinstance(e, TournamentError) and e.msgid:
        from .pagelang import in_words  # the web pages' module: loaded only when there is a refusal to say

        text = in_words(Said(e.msgid, e.params, str(e)), _)
    else:
        text = str(e)
    typer.echo(_("error: {problem}").format(problem=text), err=True)
    raise typer.Exit(2)


@contextmanager
def _desk(_: Gettext, db: str | None, create: bool = False) -> Iterator[Desk]:
    """The desk on ``db``; only `new` may create a SQLite file (a mistyped --db is refused, not created)."""
    # SQLAlchemy loads here, when a command opens the database, not for --help
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from ..db.engine import default_url

    try:
        url = make_url(db or default_url())
    except ArgumentError:
        _fail(_, _("--db {db} is not a database URL").format(db=db))
    folder = folder_problem(db)
    if folder is not None:
        _fail(_, folder)
    if not create and url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:") and \
            not Path(url.database).expanduser().exists():
        _fail(_, _("There is no tournament database at {path}; `bot-event new` creates one").format(path=url.database))
    try:
        yield open_desk(db)
    except GuandanError as e:
        _fail(_, e)
    except SQLAlchemyError as e:  # the database failed during the command (a file damaged, a server gone)
        _fail(_, database_refusal(db, e))


def _entries(_: Gettext, texts: list[str]) -> list[Entry]:
    try:
        return [parse_entry(t) for t in texts]
    except GuandanError as e:
        _fail(_, e)


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="the event's name")],
    entry: EntryOpt,
    fmt: Annotated[str, typer.Option("--format", help="swiss or knockout")] = "swiss",
    rounds: Annotated[int | None, typer.Option(help="Swiss rounds (default: enough to sort the teams, ⌈log2 "
                                                    "teams⌉); a knockout plays as many as its teams need")] = None,
    preset_name: Annotated[str, typer.Option("--preset", help=f"the tables' rules: {', '.join(PRESET_NAMES)}")] = "competition",
    deals: Annotated[int, typer.Option(help="deals per round (a round also ends when a team passes A); 0 for "
                                            "whole games")] = 8,
    seed: Annotated[int | None, typer.Option(help="the event's seed: it draws round 1 and every deal, so the same "
                                                  "seed gives the same event (default: drawn at random, 53 bits)")] = None,
    budget: Annotated[float | None, typer.Option(help="seconds per decision for every bot (the search tiers)")] = None,
    per_deal: Annotated[bool | None, typer.Option(
        "--per-deal/--per-round", help="record every deal (default wherever the rules score levels) or only each "
                                       "round's result")] = None,
    time_zone: Annotated[str | None, typer.Option("--time-zone", help=TIME_ZONE_HELP)] = None,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Create a bot event and register its teams, once all of it has been checked."""
    _ = _gettext(lang)
    entries = _entries(_, entry)
    try:
        swiss_rounds = rounds if rounds is not None or fmt == "knockout" else max(1, (len(entries) - 1).bit_length())
        config = event_config(name, fmt, swiss_rounds, preset_name, deals, seed, per_deal, time_zone)
    except GuandanError as e:
        _fail(_, e)
    with _desk(_, db, create=True) as desk:
        try:
            tid = create_event(desk, config, entries, budget)
        except GuandanError as e:
            _fail(_, e)
        state = desk.state(tid)
    form = _("knockout") if state.is_knockout else _("Swiss")
    say(_("created bot event {id}: {name}, {format} of {teams} teams, rounds: {rounds}, seed {seed}").format(
        id=tid, name=config.name, format=form, teams=len(state.teams), rounds=state.rounds_total, seed=config.seed))
    for t in state.teams.values():
        say(_("  team {n}: {team} ({bots})").format(n=t.id, team=t.name, bots=bots_text(t.players)))
    if state.time_zone is not None:  # said when asked for: without it the event keeps to the machine's, as before
        say(_("times are in {zone}, the venue's time zone").format(zone=zone_label(state.zone, desk.now())))


@app.command()
def enter(
    tid: Annotated[int, typer.Argument(help="the tournament number")],
    entry: EntryOpt,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Register bot teams onto an event before round 1: all of them, or none if one is refused."""
    _ = _gettext(lang)
    entries = _entries(_, entry)
    with _desk(_, db) as desk:
        try:
            ids = enter_teams(desk, tid, entries)
        except GuandanError as e:
            _fail(_, e)
        state = desk.state(tid)
    for i in ids:
        t = state.teams[i]
        say(_("  team {n}: {team} ({bots})").format(n=t.id, team=t.name, bots=bots_text(t.players)))


def _result_line(_: Gettext, ngettext: Callable[[str, str, int], str], state: TournamentState, play: TablePlay) -> str:
    ts = state.table(play.round, play.table)
    home, away = (state.teams[x].name for x in ts.table.teams())
    levels = ts.final.levels if ts.final and ts.final.levels else ("2", "2")
    shown = ":".join(level_label(level_value(x)) for x in levels)
    line = ngettext("round {round} table {table}: {home} v {away} {levels} in {deals} deal",
                    "round {round} table {table}: {home} v {away} {levels} in {deals} deals", len(play.finishes)).format(
        round=play.round, table=play.table, home=home, away=away, levels=shown, deals=len(play.finishes))
    if play.passed_a is not None:
        line += _(", {team} passed A").format(team=(home, away)[play.passed_a])
    if play.decider is not None:
        line += _(", {team} won the deciding deal").format(team=(home, away)[play.decider[0] % 2])
    return line


def _failure_lines(_: Gettext, state: TournamentState, play: TablePlay) -> list[str]:
    ts = state.table(play.round, play.table)
    out = []
    for side, counts in enumerate(play.failures):
        c = failure_text(counts)
        if any(c.values()):
            out.append(_("  {team}'s bots: crashes: {crashes}, timeouts: {timeouts}, invalid replies: {invalid}, "
                         "moves played for them: {fallbacks}, illegal moves replaced: {illegal}").format(
                team=state.teams[ts.table.teams()[side]].name, **c))
    return out


#: The standings' columns as the run prints them (their heads' msgids): rank, team, its bots, 场分, 对手分, 级差分,
#: 升级数, W-D-L, byes.
SUMMARY_COLUMNS = (STANDING_HEADS["rank"], STANDING_HEADS["team"], N_("Bots"), STANDING_HEADS["match_points"],
                   STANDING_HEADS["opponents_points"], STANDING_HEADS["level_diff"], STANDING_HEADS["levels_gained"],
                   N_("W-D-L"), STANDING_HEADS["byes"])
#: A knockout's: where each team stands (the desk's standings' Status) after its name, the rank its place.
KNOCKOUT_SUMMARY_COLUMNS = (*SUMMARY_COLUMNS[:2], N_("Status"), *SUMMARY_COLUMNS[2:])
#: The column an 80-column terminal goes without: the count of byes (the desk's standings drop it too); the
#: team's name and its bots wrap instead.
SUMMARY_DROP = (STANDING_HEADS["byes"],)
#: A knockout's, as the desk's knockout standings: the Swiss figures that order nothing there go first, the
#: status (up to 32 columns in English) keeping its room.
KNOCKOUT_SUMMARY_DROP = (*SUMMARY_DROP, STANDING_HEADS["levels_gained"], STANDING_HEADS["opponents_points"],
                         STANDING_HEADS["level_diff"])


def summary_columns(state: TournamentState) -> tuple[str, ...]:
    """The summary's columns (their heads' msgids): :data:`KNOCKOUT_SUMMARY_COLUMNS` for a knockout."""
    return KNOCKOUT_SUMMARY_COLUMNS if state.is_knockout else SUMMARY_COLUMNS


def summary_records(state: TournamentState, _: Gettext | None = None) -> list[dict[str, str]]:
    """The standings as the run prints them, a row a team keyed by :func:`summary_columns`; a knockout's rank as
    its place ("3=": shared, blank while the team is in) and its status in ``_``'s language (the environment's
    where None), as the desk's ``standings`` says them."""
    words = _ or translator("desk", default_lang()).gettext
    out = []
    for r in standing_records(state):
        if state.is_knockout:
            r = knockout_standing(r, words)
        out.append(dict(zip(summary_columns(state), (
            str(r["rank"]), r["team"], *([r["status"]] if state.is_knockout else []), bots_text(r["players"]),
            str(r["match_points"]), str(r["opponents_points"]), str(r["level_diff"]), str(r["levels_gained"]),
            f"{r['wins']}-{r['draws']}-{r['losses']}", str(r["byes"])), strict=True)))
    return out


def summary_rows(_: Gettext, state: TournamentState) -> tuple[list[str], list[list[str]]]:
    """The standings as the run prints them: the heads in ``_``'s language, then a row of cells a team."""
    columns = summary_columns(state)
    return [_(c) for c in columns], [[r[c] for c in columns] for r in summary_records(state, _)]


def write_exports(state: TournamentState, events: list[Any], out: Path, lang: str) -> list[Path]:
    """The desk's exports of the event in ``out``: event.xlsx, event.json, and the CSV files with log.json; the
    xlsx and CSV files in words in ``lang`` (the run's language), as `export --lang` writes them."""
    out.mkdir(parents=True, exist_ok=True)
    written = [write_xlsx(state, out / "event.xlsx", events, lang)]
    (out / "event.json").write_text(json.dumps(export_json(state, events), ensure_ascii=False, indent=1) + "\n",
                                    encoding="utf-8")
    written.append(out / "event.json")
    return written + write_csv(state, out, events, lang)


@app.command()
def run(
    tid: Annotated[int, typer.Argument(help="the tournament number")],
    round_no: Annotated[int | None, typer.Option("--round", "-r", help="play this round (the next one to play)")] = None,
    all_rounds: Annotated[bool, typer.Option("--all", help="play every round left")] = False,
    jobs: Annotated[int, typer.Option(min=1, help="tables played at once, in worker processes")] = 1,
    path: Annotated[list[Path] | None, typer.Option("--path", help="a folder where external:module:Class bots "
                                                                   "are found")] = None,
    records: Annotated[Path | None, typer.Option(help="write each table's match record here (replay, verify-deal)")] = None,
    out: Annotated[Path | None, typer.Option(help="write the standings as the desk's exports here: event.xlsx, "
                                                  "event.json, the CSV files and log.json (the xlsx and CSV "
                                                  "files in the language of --lang)")] = None,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Play the next round (pairing it with the desk), a given one, or --all; then print the standings. A
    stopped run goes on where the log leaves it."""
    _ = _gettext(lang)
    ngettext = translator("desk", lang or default_lang()).ngettext
    if round_no is not None and all_rounds:
        _fail(_, _("--round and --all exclude each other"))
    paths = [str(p.resolve()) for p in path or []]

    def show(p: Progress, desk: Desk) -> None:
        state = desk.state(tid)
        if p.kind == "paired":
            rnd = state.round(p.round)
            say(ngettext("round {round}: {tables} table", "round {round}: {tables} tables", len(rnd.tables)).format(
                round=p.round, tables=len(rnd.tables)))
            for b in ([rnd.bye] if rnd.bye is not None else []) + rnd.byes:
                say(_("  bye: {team}").format(team=state.teams[b].name))
        elif p.kind == "table" and p.play is not None:
            say("  " + _result_line(_, ngettext, state, p.play))
            for line in _failure_lines(_, state, p.play):
                say(line)

    with _desk(_, db) as desk:
        try:
            state = run_event(desk, tid, round_no=round_no, all_rounds=all_rounds, workers=jobs, bot_paths=paths,
                              records=str(records) if records else None, progress=lambda p: show(p, desk))
        except GuandanError as e:
            _fail(_, e)
        events = desk.events(tid)
    typer.echo("")
    if state.finished:
        say(_("{name}: the event is over").format(name=state.cfg.name))
    else:
        say(ngettext(
            "{name}: standings after {done} of {total} round", "{name}: standings after {done} of {total} rounds",
            state.rounds_total).format(name=state.cfg.name, done=state.completed_rounds, total=state.rounds_total))
    print_table(summary_columns(state), summary_records(state, _), KNOCKOUT_SUMMARY_DROP if state.is_knockout
                else SUMMARY_DROP, lang)
    if state.is_knockout:
        typer.echo("")
        for line in placing_lines(bracket_data(state), _):
            say(line)
    if out is not None:
        try:
            for p in write_exports(state, events, out, lang or default_lang()):
                typer.echo(_("wrote {path}").format(path=p))  # whole, as the desk's export says it: a path to copy
        except OSError as e:
            _fail(_, _("cannot write {path}: {problem}").format(path=out, problem=e.strerror))
