"""`guandan tournament …`: the arbiter's command line. Bad input prints ``error: …`` and exits 2, changing nothing.

Everything printed for a person comes from the ``desk`` catalogue: in the language of ``--lang`` where a command
has one, else in the one the environment asks for (``LANGUAGE``, ``LC_ALL``, ``LANG``; English when none we
have). A refusal that carries a catalogued ``msgid`` is said in that language too; any other engine error keeps
its English text as the detail. ``--json`` output is for machines and stays as it is.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..cliutil import Messages, cli_lang, pad, width
from ..core.errors import GuandanError
from ..core.rules import PRESET_NAMES, RuleSet, preset
from ..core.vocab import Scoring
from ..i18n import LANGUAGES, N_, default_lang, translator
from .bracket import Gettext, bracket_data, bracket_lines, placing_lines, prize_lines
from .cli_botevent import app as bot_event_app
from .cli_online import app as online_app
from .cli_table import print_table as _print
from .cli_table import say as _say
from .cli_words import TIME_ZONE_HELP, database_refusal, desk_problem, folder_problem, open_desk
from .cli_words import desk_fail as _fail  # error: … in the reader's language, exit 2
from .deals import SEAT_NAMES, parse_deal_list
from .errors import refused
from .export import (
    TABLE_COLUMNS,
    TEAM_COLUMNS,
    cell,
    entry_url,
    export_json,
    log_json,
    loopback,
    slips_html,
    standing_fields,
    standing_records,
    standings_heading,
    standings_json,
    status_json,
    table_export_rows,
    tables_json,
    team_export_rows,
    write_csv,
    write_qr_png,
    write_xlsx,
)
from .levels import level_label as level_text
from .levels import level_name, level_value
from .logtext import log_lines, log_zone
from .model import DEFAULT_TIEBREAKS, SIDES, EventConfig, LatenessRules, RoundLimits
from .prints import PRINTS, make_print, pdf_from_html
from .reachable import check_result
from .rounds import ResultSlip, lateness_ruling
from .state import DISPUTED, FINAL, TournamentState, parse_time
from .venuetime import check_zone, clock_time, shown_time, zone_label
from .words import (
    ENDED_WORDS,
    METHOD_WORDS,
    STATUS_WORDS,
    knockout_standing,
    last_round_words,
    standing_label,
)

if TYPE_CHECKING:
    from .desk import Desk

# The database (SQLAlchemy, the desk that stands on it) loads in _desk, when a command opens it: --help and a
# refusal of bad input need not wait the large part of a second that it takes.

#: The desk's catalogue: ``_(msgid)`` in the environment's language, ``_(msgid, lang)`` in ``--lang``'s.
_messages = Messages("desk")
_ = _messages.gettext

app = typer.Typer(help="The arbiter's desk for pairs events, Swiss (RULES.md §5.4) or knockout: at a venue, "
                       "played by bots or online.",
                  no_args_is_help=True, pretty_exceptions_enable=False)
app.add_typer(bot_event_app, name="bot-event")
app.add_typer(online_app, name="online")

DbOpt = Annotated[str | None, typer.Option("--db", envvar="GUANDAN_DB_URL",
                                           help="database URL (default: SQLite under $GUANDAN_DATA_DIR or ./data)")]
TidArg = Annotated[int, typer.Argument(help="the tournament number printed by `new`")]
RoundOpt = Annotated[int, typer.Option("--round", "-r", help="round number")]
TableOpt = Annotated[int, typer.Option("--table", "-t", help="table number")]


@contextmanager
def _desk(db: str | None, create: bool = False, lang: str | None = None) -> Iterator[Desk]:
    """The desk on ``db``. Only `new` may create a database: any other command on a SQLite file that
    does not exist (a mistyped --db, say) is refused rather than leaving an empty database behind."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from ..db.engine import default_url

    if not create:
        try:
            url = make_url(db or default_url())
        except ArgumentError:
            _fail(_("--db {db} is not a database URL", lang).format(db=db), lang)
        folder = folder_problem(db)
        if folder is not None:
            _fail(folder, lang)
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:") and \
                not Path(url.database).expanduser().exists():
            _fail(_("no tournament database at {path}; `guandan tournament new` creates one", lang).format(
                path=url.database), lang)
    try:
        yield open_desk(db)
    except GuandanError as e:
        _fail(e, lang)
    except SQLAlchemyError as e:  # the database failed during the command (a file damaged, a server gone)
        _fail(database_refusal(db, e), lang)
    except ValueError as e:  # a malformed URL, say
        _fail(str(e), lang)


def _split(text: str, what: str) -> list[str]:
    items = [x.strip() for x in text.replace("，", ",").split(",") if x.strip()]
    if not items:
        _fail(_("{option} is empty").format(option=what))
    return items


#: The plain tables' column headers (export's labels, the keys of its rows), marked for the catalogue: the
#: English keeps the exports' own labels, bilingual ones included.
_HEADERS = (
    N_("Rank"), N_("No."), N_("Team"), N_("Club"), N_("Players"), N_("场分 MP"), N_("对手分 Opp MP"),
    N_("级差分 Net lvls"), N_("升级数 Lvls up"), N_("Played"), N_("W"), N_("D"), N_("L"), N_("Byes"),
    N_("Round"), N_("Table"), N_("Home (N–S)"), N_("Away (E–W)"), N_("Result"), N_("Winner"), N_("Status"),
    N_("Source"), N_("Seats"), N_("Opponent"))
#: The round clock's phase; an event's status in `list` (how a round was paired: words.METHOD_WORDS).
_PHASE_WORDS = {"play": N_("play"), "warning": N_("warning"), "over": N_("over")}
_EVENT_STATUS = {"new": N_("new"), "registration": N_("registration"), "finished": N_("finished")}


def _word(words: dict[str, str], value: Any, lang: str | None = None) -> str:
    """A coded value (a status, a method…) in the reader's language; one we have no word for as it is."""
    text = str(value)
    return _(words[text], lang) if text in words else text


def _table_rows(state: TournamentState, round_no: int | None) -> list[dict[str, Any]]:
    """The tables (of one round, or of all) as the exported files write them, in the reader's language: a bye,
    a forfeit, a draw, the status and where the result came from in the export's words (one set of words)."""
    return table_export_rows(state, round_no, cli_lang())


def _team_rows(state: TournamentState, round_no: int | None) -> list[dict[str, Any]]:
    """Where every team plays, as the exported files write it: the seats and a bye in the reader's language."""
    return team_export_rows(state, round_no, cli_lang())


#: The columns a narrow terminal goes without, the least needed first: where a result came from, and its winner
#: (the result says it: the home team's levels come first); a team's players, its club, then its matches played
#: (its wins, draws and losses add up to them) before its byes, which stay where a team has had one (a bye is
#: counted among the wins: without the column nothing tells a bye from a win played).
_TABLE_DROP = ("Source", "Winner")
_STANDING_DROP = ("Players", "Club", "Played", "Byes")
#: A knockout's standings keep where each team stands; the Swiss figures that order nothing there go first.
_KNOCKOUT_DROP = (*_STANDING_DROP, standing_label("levels_gained"), standing_label("opponents_points"))



#: How --by names a side: every seat, both partnerships, home/away, in English and Chinese.
_SIDE_WORDS = {
    **dict.fromkeys(("home", "north", "south", "n", "s", "ns", "north-south", "北", "南", "南北", "北家", "南家"), 0),
    **dict.fromkeys(("away", "east", "west", "e", "w", "ew", "east-west", "东", "西", "东西", "东家", "西家"), 1),
}


def _team_side(state: TournamentState, round_no: int, table_no: int, ref: str) -> int:
    """--by as a team number at this table: a seat or partnership (north, W, 南北…), home/away, or a team's
    name or number."""
    tb = state.table(round_no, table_no).table
    side = _SIDE_WORDS.get(ref.strip().lower())
    if side is not None:
        return tb.teams()[side]
    team = state.team(ref).id
    tb.side_of(team)
    return team


@contextmanager
def _teams_action(desk: Desk, tid: int, round_no: int, table_no: int) -> Iterator[None]:
    """A team's action at a table (a result, a deal, an answer): refused where only the arbiter may act now (a
    dispute, a final result), the refusal goes on with the arbiter's command for it, whose desk this is."""
    try:
        yield
    except GuandanError as e:
        try:
            ts = desk.state(tid).table(round_no, table_no)
        except GuandanError:
            raise e from None
        if ts.status not in (DISPUTED, FINAL):
            raise
        _fail(desk_problem(e) + "\n" + _arbiters_step(desk.state(tid), tid, round_no, table_no))


def _arbiters_step(state: TournamentState, tid: int, round_no: int, table_no: int) -> str:
    """The arbiter's command that settles or changes a table's result: its deals where every deal is reported."""
    where = {"tid": tid, "round": round_no, "table": table_no}
    if state.cfg.per_deal:
        return _("as the arbiter: correct its deals with `deals {tid} -r {round} -t {table} --set … --reason …`, "
                 "or set its result with `result {tid} -r {round} -t {table} --override … --reason …`").format(**where)
    return _("as the arbiter: set its result with `result {tid} -r {round} -t {table} --override … --reason …`").format(
        **where)


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="the event's name")],
    rounds: Annotated[int | None, typer.Option(
        help="number of rounds (Swiss, default 7); a knockout plays as many as its teams need: "
             "this is then the most it may have (default: no limit)")] = None,
    fmt: Annotated[str, typer.Option("--format", help="pairs-swiss or knockout (淘汰赛)")] = "pairs-swiss",
    partners: Annotated[str, typer.Option(help="knockout: fixed (teams register) or random "
                                               "(players register alone; the first pair draws the partners)")] = "fixed",
    preset_name: Annotated[str, typer.Option("--preset", help=f"the tables' rules: {', '.join(PRESET_NAMES)}")] = "competition",
    rules_json: Annotated[str | None, typer.Option("--rules", help="RuleSet as JSON (overrides --preset)")] = None,
    max_deals: Annotated[int, typer.Option(help="deals per round; 0 for no limit")] = 8,
    max_minutes: Annotated[int, typer.Option(help="minutes per round; 0 for no limit")] = 50,
    pass_a_ends: Annotated[bool, typer.Option("--pass-a-ends/--pass-a-continues", help="passing A ends the round")] = True,
    warning: Annotated[int, typer.Option(help="warning this many minutes before time")] = 5,
    match_points: Annotated[str | None, typer.Option(help="场分 win,draw,loss (default: the RuleSet's)")] = None,
    tiebreaks: Annotated[str, typer.Option(help="tie-break chain, comma-separated")] = ",".join(DEFAULT_TIEBREAKS),
    first_round: Annotated[str, typer.Option(help="random (seeded) or rating")] = "random",
    seed: Annotated[int | None, typer.Option(help="seed of the random first-round draw (default: random; recorded)")] = None,
    club_wish: Annotated[bool, typer.Option("--club-apart/--club-any", help="avoid pairing teams of one club")] = True,
    bye_score: Annotated[str, typer.Option(help="a bye is scored as this win")] = "A:6",
    per_deal: Annotated[bool | None, typer.Option(
        "--per-deal/--per-round",
        help="teams report every deal (default for the competition preset) or only each round's result")] = None,
    online_event: Annotated[bool, typer.Option(
        "--online", help="played on the web app's tables: teams of two accounts register there, the server "
                         "opens each round's rooms and reports every result (see `online --help`)")] = False,
    time_zone: Annotated[str | None, typer.Option("--time-zone", help=TIME_ZONE_HELP)] = None,
    db: DbOpt = None,
) -> None:
    """Create an event and print its number and arbiter key."""
    try:
        zone = check_zone(time_zone) if time_zone is not None else None
        rules = RuleSet.from_json(rules_json) if rules_json else preset(preset_name)
        try:
            mp = [int(x) for x in _split(match_points, "--match-points")] if match_points else list(rules.match_points)
        except ValueError:
            _fail(_("--match-points must be three integers win,draw,loss, not “{value}”").format(value=match_points))
        if len(mp) != 3:
            _fail(_("--match-points needs three numbers win,draw,loss, not “{value}”").format(value=match_points))
        bye = bye_score.replace("：", ":").split(":")
        if len(bye) != 2:
            _fail(_("--bye-score must be written like A:6, not “{value}”").format(value=bye_score))
        config = EventConfig(
            name=name, rounds=rounds if rounds is not None else 0 if fmt == "knockout" else 7, format=fmt,
            partners=partners,
            limits=RoundLimits(max_deals or None, max_minutes or None, pass_a_ends, warning if max_minutes else 0),
            lateness=LatenessRules(), match_points=(mp[0], mp[1], mp[2]),
            tiebreaks=tuple(_split(tiebreaks, "--tiebreaks")), first_round=first_round, avoid_same_club=club_wish,
            bye_score=(level_name(level_value(bye[0])), level_name(level_value(bye[1]))),
            seed=secrets.randbelow(10**6) if seed is None else seed, rules=rules,
            per_deal=(rules.name == "competition" and rules.scoring == Scoring.LEVELS) if per_deal is None
            else per_deal, time_zone=zone)
    except GuandanError as e:
        _fail(e)
    from .online import create_online

    with _desk(db, create=True) as desk:
        try:
            tid = create_online(desk, config) if online_event else desk.create(config)
        except GuandanError as e:
            _fail(e)
        state = desk.state(tid)
    typer.echo(_("created tournament {id}: {name}").format(id=tid, name=config.name))
    typer.echo(_("arbiter key: {key}  (needed on the web arbiter page; keep it private)").format(key=state.secret))
    typer.echo(_zone_line(state, desk.now()))


def _zone_line(state: TournamentState, now: datetime) -> str:
    """Which zone the event's times are typed and shown in, and whether the event or the machine says so."""
    label = zone_label(state.zone, now)
    if state.time_zone is None:
        return _("times are in {zone}, this machine's time zone (set the venue's with `time-zone`)").format(zone=label)
    return _("times are in {zone}, the venue's time zone").format(zone=label)


@app.command("time-zone")
def time_zone_(
    tid: TidArg,
    zone: Annotated[str | None, typer.Argument(
        help="an IANA name such as Asia/Shanghai (without it: say which zone the event's times are in)")] = None,
    reason: Annotated[str, typer.Option(help="for the audit log")] = "",
    db: DbOpt = None,
) -> None:
    """The venue's time zone: times typed without an offset (start --at 14:05) are read in it, and the
    desk shows times in it. The log's own times stay in UTC."""
    if zone is not None:
        try:
            check_zone(zone)  # before the database: a wrong name changes nothing wherever --db points
        except GuandanError as e:
            _fail(e)

    def act(desk: Desk) -> None:
        if zone is not None:
            desk.set_time_zone(tid, zone, reason)
        typer.echo(_zone_line(desk.state(tid), desk.now()))
    _run(db, act)


def _run(db: str | None, action: Callable[[Desk], None], lang: str | None = None) -> None:
    with _desk(db, lang=lang) as desk:
        try:
            action(desk)
        except GuandanError as e:
            _fail(e, lang)


@app.command()
def register(
    tid: TidArg,
    name: Annotated[str | None, typer.Argument(help="team name")] = None,
    players: Annotated[str | None, typer.Option(help="the two players, comma-separated")] = None,
    club: Annotated[str | None, typer.Option(help="club (teams of one club are kept apart where possible)")] = None,
    rating: Annotated[float | None, typer.Option(help="rating, for a seeded first round")] = None,
    player: Annotated[str | None, typer.Option(help="one player, in an event whose partners are drawn at random")] = None,
    db: DbOpt = None,
) -> None:
    """Register a team (two players) before round 1 is paired, or with --player one player alone."""
    if player is not None:
        if name is not None or players is not None:
            _fail(_("--player registers one player alone: give no team name and no --players with it"))
        _run(db, lambda desk: _register_player(desk, tid, player, club, rating))
        return
    if name is None or players is None:
        _fail(_("give a team name and --players A,B (or --player NAME in an event whose partners are drawn)"))

    two = _split(players, "--players")
    if len(two) != 2:  # said as typed: the desk's own refusal quotes the list as JSON (["a"]), for the web's API
        _fail(_("--players takes the team's two players, comma-separated (--players \"Zhang Wei,Wang Fang\"), "
                "not “{value}”").format(value=players))

    def act(desk: Desk) -> None:
        assert name is not None
        team = desk.register(tid, name, two, club, rating)
        typer.echo(_("registered team {n}: {team} ({players})").format(
            n=team.id, team=team.name, players=" / ".join(team.players)))
    _run(db, act)


@app.command()
def withdraw(tid: TidArg, team: Annotated[str, typer.Argument(help="team name or number")],
             reason: Annotated[str, typer.Option(help="for the audit log")] = "", db: DbOpt = None) -> None:
    """Withdraw a team: it is not paired again; its games so far still count. Before the partners of a
    random-partners event are drawn, withdraw a player by name or number."""
    def act(desk: Desk) -> None:
        state = desk.state(tid)
        if state.cfg.partners == "random" and not state.teams:
            desk.withdraw_player(tid, team, reason)
            typer.echo(_("player {name} withdrawn").format(name=state.player(team).name))
            return
        desk.withdraw(tid, team, reason)
        typer.echo(_("team {team} withdrawn").format(team=team))
    _run(db, act)


def _parse_tables(text: str) -> list[tuple[int, int]]:
    out = []
    for item in _split(text, "--tables"):
        parts = item.replace("v", "-").split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            _fail(_("--tables lists pairs of team numbers like 1-4,2-3, not “{value}”").format(value=item))
        out.append((int(parts[0]), int(parts[1])))
    return out


@app.command()
def pair(
    tid: TidArg,
    repair: Annotated[bool, typer.Option("--repair", help="re-pair the current round (before any result is in)")] = False,
    tables: Annotated[str | None, typer.Option(help="with --repair: pairs by hand, home-away, e.g. 1-4,2-3")] = None,
    bye: Annotated[int | None, typer.Option(help="with --tables: the team that gets the bye")] = None,
    seed: Annotated[int | None, typer.Option(help="override the seed of a random first round")] = None,
    reason: Annotated[str, typer.Option(help="with --repair: why, for the audit log")] = "",
    db: DbOpt = None,
) -> None:
    """Pair the next round (Swiss, no rematch), or re-pair the current one."""
    if (tables or bye is not None) and not repair:
        _fail(_("--tables and --bye are for re-pairing: add --repair"))

    def act(desk: Desk) -> None:
        if repair:
            rnd = desk.repair(tid, _parse_tables(tables) if tables else None, bye, seed, reason)
        else:
            rnd = desk.pair_next(tid, seed)
        state = desk.state(tid)
        if state.is_knockout:
            _print_knockout_round(state, rnd.number)
            return
        method = _word(METHOD_WORDS, rnd.method)
        if rnd.seed is not None:
            typer.echo(_("round {n} ({method}, seed {seed}):").format(n=rnd.number, method=method, seed=rnd.seed))
        else:
            typer.echo(_("round {n} ({method}):").format(n=rnd.number, method=method))
        _print(TABLE_COLUMNS[1:4], _table_rows(state, rnd.number))
    _run(db, act)


@app.command()
def result(
    tid: TidArg, round_no: RoundOpt, table_no: TableOpt,
    levels: Annotated[str | None, typer.Option(help="final levels home:away, e.g. A:6")] = None,
    passed_a: Annotated[str | None, typer.Option(help="home, away or none: who passed A")] = None,
    deals: Annotated[int | None, typer.Option(help="deals played")] = None,
    forfeit: Annotated[str | None, typer.Option(help="home or away: that team forfeits (scored A:6 to the other)")] = None,
    decider: Annotated[str | None, typer.Option(help="knockout, levels equal: home or away won the one extra deal")] = None,
    late_minutes: Annotated[float | None, typer.Option(help="with --forfeit: how late the team was")] = None,
    by: Annotated[str, typer.Option(help="who enters: away (West, default), home, or a team")] = "away",
    override: Annotated[bool, typer.Option("--override", help="arbiter's final result, no confirmation needed")] = False,
    reason: Annotated[str, typer.Option(help="with --override: why, for the audit log")] = "",
    db: DbOpt = None,
) -> None:
    """Enter a table's result (the other team confirms), or set it as the arbiter with --override."""
    if override and not reason.strip():
        _fail(_("{option} needs --reason: say why, for the audit log (--reason \"…\")").format(option="--override"))

    def act(desk: Desk) -> None:
        state = desk.state(tid)
        if late_minutes is not None:
            if forfeit is None:
                _fail(_("--late-minutes goes with --forfeit SIDE"))
            ruling = lateness_ruling(late_minutes, state.cfg.lateness)
            if not ruling.forfeit:
                lr = state.cfg.lateness
                late = {"minutes": format(late_minutes, "g"), "limit": format(lr.forfeit_after, "g"),
                        "levels": lr.deal_award_levels}
                if ruling.first_deal_awarded:
                    _fail(_("{minutes} minutes late is not a forfeit (more than {limit} needed); the opponents are "
                            "credited the first deal (+{levels}): play the round and enter its result").format(**late))
                _fail(_("{minutes} minutes late is not a forfeit (more than {limit} needed); play the round and "
                        "enter its result").format(**late))
        if forfeit is not None and not override and state.cfg.per_deal:
            # a team enters no result in such an event: it would be told to report deals, which a forfeit has none of
            _fail(_("a forfeit is the arbiter's ruling in an event that reports every deal: add --override and "
                    "--reason (round {round} table {table})").format(round=round_no, table=table_no))
        slip = ResultSlip.parse(levels, passed_a, deals, forfeit, decider)
        if override:
            desk.override(tid, round_no, table_no, slip, reason, late_minutes=late_minutes)
            typer.echo(_("round {round} table {table}: result set by the arbiter").format(round=round_no, table=table_no))
            # an arbiter may rule a score play could not give (a penalty, say): it stands, but not unremarked
            problem = check_result(state.cfg, round_no, table_no, slip)
            if problem is not None:
                _say(_("warning: {problem}; the arbiter's result stands").format(
                    problem=desk_problem(refused(problem))), err=True)
        else:
            with _teams_action(desk, tid, round_no, table_no):
                desk.enter_result(tid, round_no, table_no, slip, _team_side(state, round_no, table_no, by),
                                  late_minutes=late_minutes)
            typer.echo(_("round {round} table {table}: result entered, waiting for the other team to confirm").format(
                round=round_no, table=table_no))
    _run(db, act)


@app.command()
def confirm(
    tid: TidArg, round_no: RoundOpt, table_no: TableOpt,
    by: Annotated[str, typer.Option(help="who confirms: home (North, default), away, or a team")] = "home",
    dispute: Annotated[bool, typer.Option("--dispute", help="call the arbiter instead: only they settle it")] = False,
    reject: Annotated[bool, typer.Option("--reject", help="send the result back to be entered again")] = False,
    reason: Annotated[str, typer.Option(help="with --dispute or --reject: why")] = "",
    db: DbOpt = None,
) -> None:
    """Confirm, reject (to be entered again) or dispute (for the arbiter) the result the other team entered."""
    if dispute and reject:
        _fail(_("--dispute and --reject exclude each other"))

    def act(desk: Desk) -> None:
        with _teams_action(desk, tid, round_no, table_no):
            answer(desk)

    def answer(desk: Desk) -> None:
        team = _team_side(desk.state(tid), round_no, table_no, by)
        if reject:
            desk.reject(tid, round_no, table_no, team, reason)
            typer.echo(_("round {round} table {table}: result sent back; it can be entered again").format(
                round=round_no, table=table_no))
        elif dispute:
            desk.dispute(tid, round_no, table_no, team, reason)
            typer.echo(_("round {round} table {table}: result disputed; the arbiter decides").format(
                round=round_no, table=table_no))
        else:
            desk.confirm(tid, round_no, table_no, team)
            typer.echo(_("round {round} table {table}: result confirmed").format(round=round_no, table=table_no))
    _run(db, act)


@app.command()
def start(
    tid: TidArg,
    round_no: Annotated[int | None, typer.Option("--round", "-r", help="round (default: the current one)")] = None,
    at: Annotated[str | None, typer.Option(
        help="when it started (default: now): 14:05 or 2026-12-05 14:05 on the venue's clocks (see `time-zone`), "
             "or with an offset, 2026-12-05 14:05+08:00")] = None,
    db: DbOpt = None,
) -> None:
    """Start the round's clock: after the warning no new deal is started, and a deal confirmed then ends it."""
    def act(desk: Desk) -> None:
        when = None if at is None else desk.state(tid).typed_time(at, desk.now(), "--at")
        rnd = desk.start_round(tid, round_no, when)
        state = desk.state(tid)
        clock = state.round_clock(rnd.number)
        assert rnd.started_at is not None
        started, zone = parse_time(rnd.started_at), state.zone
        if clock["ends_at"]:
            _say(_("round {n} started at {time}; it ends at {end}, no new deal from {warning}").format(
                n=rnd.number, time=shown_time(started, zone), end=clock_time(parse_time(clock["ends_at"]), zone, started),
                warning=clock_time(parse_time(clock["warning_at"]), zone, started)))
        else:
            _say(_("round {n} started at {time}").format(n=rnd.number, time=shown_time(started, zone)))
    _run(db, act)


@app.command()
def deal(
    tid: TidArg, round_no: RoundOpt, table_no: TableOpt,
    finish: Annotated[str | None, typer.Option(help="report: the finishing order, first out first, e.g. N,S,E")] = None,
    number: Annotated[int | None, typer.Option(
        "--deal", "-d", help="the deal's number (default: the next, or the one waiting)")] = None,
    confirm_: Annotated[bool, typer.Option("--confirm", help="confirm the deal the other team reported")] = False,
    reject: Annotated[bool, typer.Option("--reject", help="send the reported deal back")] = False,
    dispute: Annotated[bool, typer.Option("--dispute", help="call the arbiter about the reported deal")] = False,
    by: Annotated[str | None, typer.Option(help="who acts: a seat (west…), home/away or a team; "
                                                "default west to report, north to answer")] = None,
    reason: Annotated[str, typer.Option(help="with --reject or --dispute: why")] = "",
    db: DbOpt = None,
) -> None:
    """Report one deal (West, by default) or answer the reported one (North): per-deal reporting."""
    answers = [x for x, on in (("confirm", confirm_), ("reject", reject), ("dispute", dispute)) if on]
    if len(answers) > 1:
        _fail(_("give one of --confirm, --reject and --dispute"))
    if bool(finish) == bool(answers):
        _fail(_("give --finish to report a deal, or one of --confirm, --reject, --dispute to answer one"))

    def act(desk: Desk) -> None:
        with _teams_action(desk, tid, round_no, table_no):
            report_or_answer(desk)

    def report_or_answer(desk: Desk) -> None:
        state = desk.state(tid)
        ts = state.table(round_no, table_no)
        team = _team_side(state, round_no, table_no, by or ("west" if finish else "north"))
        if finish:
            n = number if number is not None else len(ts.deals) + 1
            entry = desk.report_deal(tid, round_no, table_no, n, finish, team)
            home, away = (level_text(v) for v in entry.levels)
            typer.echo(_("round {round} table {table} deal {deal}: reported; it would make it {home}:{away}; the "
                         "other team confirms").format(round=round_no, table=table_no, deal=n, home=home, away=away))
            return
        pending = ts.pending_deal
        n = number if number is not None else (pending.number if pending else len(ts.deals) + 1)
        if answers == ["confirm"]:
            desk.confirm_deal(tid, round_no, table_no, n, team)
            after = desk.state(tid).table(round_no, table_no)
            home, away = (level_text(v) for v in after.levels_now)
            where = {"round": round_no, "table": table_no, "deal": n, "home": home, "away": away}
            if after.status == FINAL:
                typer.echo(_("round {round} table {table} deal {deal}: confirmed, {home}:{away}; the round is over "
                             "({why}): the result is final").format(**where, why=_word(ENDED_WORDS, after.ended_by)))
            else:
                typer.echo(_("round {round} table {table} deal {deal}: confirmed, {home}:{away}").format(**where))
        elif answers == ["reject"]:
            desk.reject_deal(tid, round_no, table_no, n, team, reason)
            typer.echo(_("round {round} table {table} deal {deal}: sent back to be reported again").format(
                round=round_no, table=table_no, deal=n))
        else:
            desk.dispute_deal(tid, round_no, table_no, n, team, reason)
            typer.echo(_("round {round} table {table} deal {deal}: disputed; the arbiter decides").format(
                round=round_no, table=table_no, deal=n))
    _run(db, act)


def _seat_words(finish: Sequence[int]) -> str:
    """A finishing order as the reader's seat names, first out first (北 南 东 西; North South East West): the
    catalogue's seat names, as the table's page shows them, and what --finish and --set take back."""
    return " ".join(_(SEAT_NAMES[s]) for s in finish)


@app.command()
def deals(
    tid: TidArg, round_no: RoundOpt, table_no: TableOpt,
    set_: Annotated[str | None, typer.Option("--set", help="the arbiter's list of the table's deals, e.g. "
                                                            "\"award:home; N,S,E; E,W,N\"")] = None,
    end: Annotated[bool, typer.Option("--end", help="with --set: the round at this table is over (time)")] = False,
    reason: Annotated[str, typer.Option(help="with --set: why, for the audit log")] = "",
    db: DbOpt = None,
) -> None:
    """A table's deals so far; with --set the arbiter corrects them (a dispute, a lateness award, time)."""
    if end and set_ is None:
        _fail(_("--end goes with --set (give the deals as they stand)"))
    if set_ is not None and not reason.strip():
        _fail(_("{option} needs --reason: say why, for the audit log (--reason \"…\")").format(option="--set"))

    def act(desk: Desk) -> None:
        if set_ is not None:
            desk.set_deals(tid, round_no, table_no, parse_deal_list(set_), reason, end)
            typer.echo(_("round {round} table {table}: deals set by the arbiter").format(round=round_no, table=table_no))
        ts = desk.state(tid).table(round_no, table_no)
        hows = [(_("award home") if x.award == 0 else _("award away")) if x.finish is None else _seat_words(x.finish)
                for x in ts.deals]
        cols = max(map(width, hows), default=0)
        for x, how in zip(ts.deals, hows, strict=True):
            typer.echo(_("deal {n}: {how} {home}:{away}").format(
                n=x.number, how=pad(how, cols), home=level_text(x.levels[0]), away=level_text(x.levels[1])))
        if ts.pending_deal is not None and ts.status == DISPUTED:
            typer.echo(_("deal {n}: {how} disputed; settle it with --set").format(
                n=ts.pending_deal.number, how=_seat_words(ts.pending_deal.finish or ())))
        elif ts.pending_deal is not None:
            typer.echo(_("deal {n}: waiting for the other team").format(n=ts.pending_deal.number))
        shown = _word(STATUS_WORDS, ts.status)
        if ts.ended_by:
            shown = _("{status} ({why})").format(status=shown, why=_word(ENDED_WORDS, ts.ended_by))
        if ts.locked:
            shown = _("{status} — locked").format(status=shown)
        if ts.status == DISPUTED and ts.note:
            shown = _("{status} ({why})").format(status=shown, why=ts.note)
        typer.echo(_("status: {status}").format(status=shown))
    _run(db, act)


@app.command()
def unlock(tid: TidArg, round_no: RoundOpt, table_no: TableOpt,
           reason: Annotated[str, typer.Option(help="for the audit log")] = "", db: DbOpt = None) -> None:
    """Unlock a table locked after too many wrong codes (the count starts again)."""
    def act(desk: Desk) -> None:
        desk.unlock_table(tid, round_no, table_no, reason)
        typer.echo(_("round {round} table {table}: unlocked").format(round=round_no, table=table_no))
    _run(db, act)


@app.command()
def status(tid: TidArg, as_json: Annotated[bool, typer.Option("--json", help="print JSON (keys in the README)")] = False,
           db: DbOpt = None) -> None:
    """The current round's tables and what still blocks the next pairing."""
    def act(desk: Desk) -> None:
        state = desk.state(tid)
        if as_json:
            typer.echo(json.dumps(status_json(state), ensure_ascii=False))
            return
        cfg = state.cfg
        out = len(state.withdrawn)  # withdrawn teams stay in the standings, but play no more
        teams = (_messages.ngettext("{n} team ({w} withdrawn)", "{n} teams ({w} withdrawn)", len(state.teams)).format(
                     n=len(state.teams), w=out) if out
                 else _messages.ngettext("{n} team", "{n} teams", len(state.teams)).format(n=len(state.teams)))
        if state.current_round:
            _say(_("{name}: {teams}, round {round} of {total}").format(
                name=cfg.name, teams=teams, round=state.current_round, total=state.rounds_total))
        else:
            _say(_messages.ngettext("{name}: {teams}, {total} round, not paired yet",
                                    "{name}: {teams}, {total} rounds, not paired yet", state.rounds_total).format(
                name=cfg.name, teams=teams, total=state.rounds_total))
        if state.current_round:
            _print(TABLE_COLUMNS[1:], _table_rows(state, state.current_round), _TABLE_DROP)
            for line in _table_notes(state):
                _say(line)
        blockers = _blockers(state)
        if state.rounds_total and state.current_round >= state.rounds_total:  # no next round: say where it stands
            _say(_(last_round_words(state.finished)).format(n=state.rounds_total))
        elif blockers:
            _say(_("next round: {blockers}").format(blockers=_("; ").join(blockers)))
        else:
            typer.echo(_("next round: ready to pair"))
    _run(db, act)


def _blockers(state: TournamentState) -> list[str]:
    """Why the next round cannot be paired yet: the state's own words in English; in another language as the
    arbiter's web page says them."""
    if cli_lang() == "en":
        return state.pairing_blockers()
    from .web import blockers_words  # the web pages' module: loaded only when there is something to translate

    return blockers_words(state, _)


def _table_notes(state: TournamentState) -> list[str]:
    """What an arbiter acts on in the current round: locked tables, deals waiting, the clock."""
    rnd = state.rounds[state.current_round]
    out = []
    sep = _(", ")  # between the items of a list
    locked = [str(n) for n, ts in rnd.tables.items() if ts.locked]
    if locked:
        out.append(_("locked (too many wrong codes; `unlock`): table {tables}").format(tables=sep.join(locked)))
    how = "`deals --set` / `result --override`" if state.cfg.per_deal else "`result --override`"
    for n, ts in rnd.tables.items():
        if ts.status == DISPUTED:
            line = _("table {table} disputed, for the arbiter to settle ({how})").format(table=n, how=how)
            out.append(line + _(": ") + ts.note if ts.note else line)
    waiting = [_("{table} (deal {deal})").format(table=n, deal=ts.pending_deal.number)
               for n, ts in rnd.tables.items() if ts.pending_deal is not None and ts.status != DISPUTED]
    if waiting:
        out.append(_("deals waiting for the other team: table {tables}").format(tables=sep.join(waiting)))
    deciding = [str(n) for n, ts in rnd.tables.items() if ts.deciding and ts.pending_deal is None]
    if deciding:
        out.append(_("level, waiting for the deciding deal: table {tables}").format(tables=sep.join(deciding)))
    clock = state.round_clock(rnd.number)
    clock_phase = clock["phase"]  # the round clock's own phases (not_started, play, warning, over, untimed)
    if rnd.complete and clock_phase != "over":
        return out  # every result is final: a countdown still running, or a clock never started, would mislead
    if clock_phase == "not_started":
        out.append(_("round clock: not started (`start`)"))
    elif clock_phase != "untimed":
        left = int(clock["seconds_left"])
        words = {"phase": _word(_PHASE_WORDS, clock_phase), "time": f"{left // 60}:{left % 60:02d}",
                 "end": shown_time(parse_time(clock["ends_at"]), state.zone)}
        if clock_phase == "over":
            out.append(_("round clock: {phase}, {time} left; time was up at {end}").format(**words))
        else:
            out.append(_("round clock: {phase}, {time} left; it ends at {end}").format(**words))
    return out


@app.command()
def standings(
    tid: TidArg,
    after_round: Annotated[int | None, typer.Option(help="standings after this round (default: all results in)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON (keys in the README)")] = False,
    by_team: Annotated[bool, typer.Option("--tables", help="print the table lists (by table and by team) instead")] = False,
    db: DbOpt = None,
) -> None:
    """Standings with every tie-break column (场分, 对手分, 级差分, 升级数)."""
    def act(desk: Desk) -> None:
        state = desk.state(tid)
        if after_round is not None and not 0 <= after_round <= state.current_round:
            _fail(_("--after-round must be 0…{last}, not {value}").format(last=state.current_round, value=after_round))
        if by_team:
            if as_json:
                typer.echo(json.dumps(tables_json(state, after_round), ensure_ascii=False))
                return
            _print(TABLE_COLUMNS, _table_rows(state, after_round), _TABLE_DROP)
            typer.echo()
            _print(TEAM_COLUMNS, _team_rows(state, after_round))
            return
        if as_json:
            typer.echo(json.dumps(standings_json(state, after_round), ensure_ascii=False))
        else:
            columns = [label for key, label in standing_fields(state) if key != "withdrawn"]
            rows = _standing_rows(state, after_round)
            drop: tuple[str, ...] = _KNOCKOUT_DROP if state.is_knockout else _STANDING_DROP
            # a Swiss bye counts as a win: the names wrap rather than it go unsaid (a knockout's status says it)
            if not state.is_knockout and any(str(row.get("Byes", 0)) != "0" for row in rows):
                drop = tuple(c for c in drop if c != "Byes")
            _print(columns, rows, drop)
            rnd = state.rounds.get(state.current_round)
            if after_round is None and rnd is not None and not rnd.complete and not state.is_knockout:
                # a round's final tables are among the figures before it is over: said as the xlsx sheet says it
                _say(standings_heading(state, cli_lang()))
    _run(db, act)


def _standing_rows(state: TournamentState, after_round: int | None) -> list[dict[str, Any]]:
    """export's standings lines (keyed by the labels of :func:`~.export.standing_fields`), a withdrawn team marked
    in the reader's language; a knockout's place as its rank ("3=": shared) and where the team stands in words."""
    rows = []
    for rec in standing_records(state, after_round):
        if rec["withdrawn"]:
            rec = rec | {"team": _("{team} (withdrawn)").format(team=rec["team"])}
        if state.is_knockout:
            rec = knockout_standing(rec, _)
        rows.append({label: cell(rec[key]) for key, label in standing_fields(state) if key != "withdrawn"})
    return rows


EXPORT_FORMATS = ("xlsx", "csv", "json")


def _write(path: Path, data: bytes | str, lang: str | None = None) -> Path:
    """Write ``data`` to ``path`` whole or not at all: a failed write leaves no half file behind."""
    tmp = path.with_name(f".{path.name}.part")
    try:
        if isinstance(data, str):
            tmp.write_text(data, encoding="utf-8")
        else:
            tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        _fail(_("cannot write {path}: {problem}", lang).format(path=path, problem=e.strerror), lang)
    return path


def _wrote(path: Path, lang: str | None = None) -> None:
    typer.echo(_("wrote {path}", lang).format(path=path))


@app.command()
def export(
    tid: TidArg,
    out: Annotated[Path, typer.Option(help="the .xlsx or .json file, or the folder for CSV files")],
    fmt: Annotated[str, typer.Option("--format", help="xlsx, csv (a folder, with log.json) or json (one file)")] = "xlsx",
    log_file: Annotated[Path | None, typer.Option("--log", help="also write the audit log as JSON to this file")] = None,
    lang: TextLangOpt = None,
    db: DbOpt = None,
) -> None:
    """Export standings (every tie-break column, after each round), the tables with their numbers, the
    tables by team, the cross-table and the audit log (as JSON; the xlsx file also says each entry in words, in
    the language of --lang) to Excel, CSV or JSON."""
    _check_lang(lang)
    if fmt not in EXPORT_FORMATS:
        _fail(_("--format must be xlsx, csv or json, not “{value}”", lang).format(value=fmt), lang)

    def act(desk: Desk) -> None:
        state = desk.state(tid)
        events = desk.events(tid)
        try:
            if fmt == "xlsx":
                _wrote(write_xlsx(state, out, events, cli_lang(lang)), lang)
            elif fmt == "csv":
                for p in write_csv(state, out, events, cli_lang(lang)):
                    _wrote(p, lang)
            else:
                text = json.dumps(export_json(state, events), ensure_ascii=False, indent=1)
                _wrote(_write(out, text + chr(10), lang), lang)
            if log_file is not None:
                _wrote(_write(log_file, log_json(events), lang), lang)
        except OSError as e:
            _fail(_("cannot write {path}: {problem}", lang).format(path=out, problem=e.strerror), lang)
    _run(db, act, lang)


LangOpt = Annotated[str | None, typer.Option("--lang", help="language of the print, and of what the command says: "
                                                            "zh (the print's default) or en")]


def _check_base_url(base_url: str, lang: str | None) -> None:
    if not base_url.startswith(("http://", "https://")):
        _fail(_("--base-url must start with http:// or https://, not “{value}”", lang).format(value=base_url), lang)
    if loopback(base_url):
        # a QR code a phone cannot open is found out at the tables, with the slips already cut
        _say(_("warning: the QR codes lead to {url}, which no player's phone can reach; give --base-url the "
               "address of the web server on the venue's network, e.g. http://192.168.1.10:8000", lang).format(
            url=base_url), err=True)


def _print_lang(lang: str | None) -> str:
    """The language of a print: ``--lang``'s (checked), Chinese when none is given."""
    _check_lang(lang)
    return lang or "zh"


def _check_lang(lang: str | None) -> None:
    if lang is not None and lang not in LANGUAGES:
        _fail(_("--lang must be one of {languages}, not “{value}”").format(languages=", ".join(LANGUAGES), value=lang))


@app.command()
def slips(
    tid: TidArg,
    out: Annotated[Path, typer.Option(help="FILE.pdf, FILE.html, or a folder for slips-R.pdf and slips-R.html")],
    round_no: Annotated[int | None, typer.Option("--round", "-r", help="round (default: the current one)")] = None,
    base_url: Annotated[str, typer.Option(help="the web server's address as players' phones reach it")] = "http://localhost:8000",
    lang: LangOpt = None,
    png: Annotated[bool, typer.Option("--png", help="also write each team's QR code as a PNG beside them")] = False,
    db: DbOpt = None,
) -> None:
    """Score slips, one A4 page per table: a box per deal, lateness, a round ended by time, the final
    levels and signatures; cut off below, one half per team with its own code and QR code."""
    page_lang = _print_lang(lang)
    _check_base_url(base_url, lang)
    suffix = out.suffix.lower()

    def act(desk: Desk) -> None:
        state = desk.state(tid)
        r = round_no if round_no is not None else state.current_round
        html = slips_html(state, r, base_url, page_lang)
        if suffix == ".pdf":
            files = [(out, pdf_from_html(html))]
        elif suffix in (".html", ".htm"):
            files = [(out, html.encode())]
        else:
            files = [(out / f"slips-{r}.pdf", pdf_from_html(html)), (out / f"slips-{r}.html", html.encode())]
        folder = files[0][0].parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            _fail(_("cannot write to {folder}: {problem}", lang).format(folder=folder, problem=e.strerror), lang)
        for path, data in files:
            _wrote(_write(path, data, lang), lang)
        if png:
            for n in state.round(r).tables:
                for side, name in enumerate(SIDES):
                    url = entry_url(base_url, tid, r, n, side, state.team_code(r, n, side))
                    try:
                        _wrote(write_qr_png(url, folder / f"table-{r}-{n}-{name}.png"), lang)
                    except OSError as e:
                        _fail(_("cannot write to {folder}: {problem}", lang).format(
                            folder=folder, problem=e.strerror), lang)
    _run(db, act, lang)


@app.command("print")
def print_(
    tid: TidArg,
    what: Annotated[str, typer.Argument(help=f"what to print: {', '.join(PRINTS)}")],
    out: Annotated[Path, typer.Option(help="FILE.pdf (or FILE.html: the same page for a browser)")],
    after_round: Annotated[int | None, typer.Option(help="standings: after this round (default: the rounds complete)")] = None,
    round_no: Annotated[int | None, typer.Option("--round", "-r", help="pairings: this round (default: the current one)")] = None,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Print the standings (every tie-break column), a round's pairings (tables by number, teams by name) or
    a knockout's bracket (with its placings and prizes) as a PDF for the venue."""
    page_lang = _print_lang(lang)
    if what not in PRINTS:
        _fail(_("there is no print called “{what}”; the prints are {prints}", lang).format(
            what=what, prints=", ".join(PRINTS)), lang)
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".html", ".htm"):
        _fail(_("--out must name a .pdf or .html file, not “{value}”", lang).format(value=out), lang)
    if round_no is not None and what == "standings":
        _fail(_("standings take --after-round, not --round", lang), lang)
    if after_round is not None and what != "standings":
        _fail(_("--after-round is for the standings; {what} take --round", lang).format(what=what), lang)

    def act(desk: Desk) -> None:
        state = desk.state(tid)
        data = make_print(what, state, after_round if what == "standings" else round_no, page_lang,
                          pdf=suffix == ".pdf")
        _wrote(_write(out, data, lang), lang)
    _run(db, act, lang)


@app.command()
def log(tid: TidArg, as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
        lang: TextLangOpt = None, db: DbOpt = None) -> None:
    """The audit log (secrets redacted): each entry's number, time, author and what it did, in words; --json
    gives the entries as stored."""
    _check_lang(lang)

    def act(desk: Desk) -> None:
        events = desk.events(tid)
        if as_json:  # for machines: as stored, times in UTC
            for e in events:
                typer.echo(json.dumps(e.to_dict(), ensure_ascii=False))
            return
        # people read the venue's clocks; the log is listed as it is, even one this version cannot replay
        for line in log_lines(events, cli_lang(lang), log_zone(events)):
            _say(line)
    _run(db, act, lang)


def _event_status(status: str) -> str:
    """An event's status as `list` shows it (the desk stores new, registration, finished, round N complete,
    round N in play)."""
    words = status.split(" ", 2)
    if len(words) == 3 and words[0] == "round" and words[1].isdigit():
        if words[2] == "complete":
            return _("round {n} complete").format(n=words[1])
        if words[2] == "in play":
            return _("round {n} in play").format(n=words[1])
    return _word(_EVENT_STATUS, status)


@app.command("list")
def list_(db: DbOpt = None) -> None:
    """Every tournament in the database."""
    def act(desk: Desk) -> None:
        for row in desk.tournaments():
            _say(_("{id}  {name}  ({status})").format(id=f"{row.id:4d}", name=row.name,
                                                      status=_event_status(row.status)))
    _run(db, act)


@app.command()
def bench(
    teams: Annotated[int, typer.Option(help="teams registered (one withdraws half way)")] = 300,
    rounds: Annotated[int, typer.Option(help="Swiss rounds to pair and play")] = 9,
    seed: Annotated[int, typer.Option(help="seed of the draw and of the results")] = 1,
    per_deal: Annotated[bool, typer.Option("--per-deal/--per-round",
                                           help="report every deal (slower) or each round's result")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
) -> None:
    """Time pairing, standings and a replay of the log for a seeded event (CPU seconds, one core)."""
    # a developer's command: the desk's other commands need not load it
    from .bench import bench_figures, check_options, format_row, header, summary_lines

    problem = check_options(teams, rounds, seed, _)
    if problem:
        _fail(problem)
    if as_json:
        typer.echo(json.dumps(bench_figures(teams, rounds, seed, per_deal)))
        return
    typer.echo(header(_))
    figures = bench_figures(teams, rounds, seed, per_deal, progress=lambda row: typer.echo(format_row(row, _)))
    for line in summary_lines(figures, _):
        typer.echo(line)
# ---- knockout events (淘汰赛) ------------------------------------------------------------------------------
TextLangOpt = Annotated[str | None, typer.Option("--lang", help=f"language of the text: {', '.join(LANGUAGES)} "
                                                            "(default: from LANG, else en)")]


def _gettext(lang: str | None) -> Gettext:
    """The ``desk`` catalogue in ``--lang``'s language (checked), else the environment's."""
    _check_lang(lang)
    return translator("desk", lang or default_lang()).gettext


def _register_player(desk: Desk, tid: int, name: str, club: str | None, rating: float | None) -> None:
    p = desk.register_player(tid, name, club, rating)
    n = len(desk.state(tid).active_players)
    if p.club:
        typer.echo(_messages.ngettext("registered player {n}: {name} ({club}); {count} player entered",
                                      "registered player {n}: {name} ({club}); {count} players entered", n).format(
            n=p.id, name=p.name, club=p.club, count=n))
    else:
        typer.echo(_messages.ngettext("registered player {n}: {name}; {count} player entered",
                                      "registered player {n}: {name}; {count} players entered", n).format(
            n=p.id, name=p.name, count=n))


def _print_knockout_round(state: TournamentState, round_no: int) -> None:
    """What `pair` says for a knockout round: the drawn partners (round 1), the bracket's size, the tables."""
    rnd = state.round(round_no)
    total = state.rounds_total
    if round_no == 1:
        if state.partners:
            _say(_("partners drawn at random (seed {seed}):").format(seed=state.partners_seed))
            for t in sorted(state.partners):
                _say(_("  team {n}: {team}").format(n=t, team=state.teams[t].name))
        size = len(state.bracket)
        teams = sum(x is not None for x in state.bracket)
        how = _("seeded by rating") if rnd.method == "rating" else \
            _("drawn at random, seed {seed}").format(seed=rnd.seed)
        shape = {"teams": teams, "rounds": total, "size": size, "byes": size - teams, "how": how}
        if state.cfg.rounds > total:
            _say(_("knockout of {teams} teams: a bracket of {size}, byes: {byes}, rounds: {rounds} (this event "
                   "allows up to {most}); {how}").format(**shape, most=state.cfg.rounds))
        else:
            _say(_("knockout of {teams} teams: a bracket of {size}, byes: {byes}, rounds: {rounds}; "
                   "{how}").format(**shape))
    _say(_("round {n} of {total}:").format(n=round_no, total=total))
    for m, pair in enumerate(rnd.matches):
        ts = state.match_table(round_no, m)
        through = [x for x in pair if x is not None]
        if ts is not None:
            _say(_("  table {n}: {home} (N–S)  v  {away} (E–W)").format(
                n=ts.table.number, home=state.teams[ts.table.home].name, away=state.teams[ts.table.away].name))
        elif through:
            _say(_("  bye: {team} goes through").format(team=state.teams[through[0]].name))


@app.command()
def bracket(
    tid: TidArg,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON (stable snake_case keys)")] = False,
    lang: TextLangOpt = None,
    db: DbOpt = None,
) -> None:
    """A knockout's bracket: every match (round, table, teams, result, winner), placings and the champion."""
    def text(data: dict[str, Any], _: Gettext) -> list[str]:
        lines = bracket_lines(data, _)
        if any(row["place"] for row in data["placings"]):
            lines += ["", *placing_lines(data, _)]
        return lines
    _print_bracket(db, tid, lang, as_json, lambda data: data, text)


@app.command()
def prizes(
    tid: TidArg,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    lang: TextLangOpt = None,
    db: DbOpt = None,
) -> None:
    """A knockout's placings and prizes: 冠军 (champion), 亚军 (runner-up), 阳光普照奖 (everyone else)."""
    _print_bracket(db, tid, lang, as_json,
                   lambda data: {"tournament": tid, "name": data["name"], "finished": data["finished"],
                                 "champion": data["champion"], "runner_up": data["runner_up"],
                                 "placings": data["placings"], "prizes": data["prizes"]},
                   lambda data, _: [data["name"], *placing_lines(data, _), "", *prize_lines(data, _)])


def _print_bracket(db: str | None, tid: int, lang: str | None, as_json: bool,
                   as_data: Callable[[dict[str, Any]], dict[str, Any]],
                   as_text: Callable[[dict[str, Any], Gettext], list[str]]) -> None:
    """Print what a command makes of a knockout's :func:`bracket_data`: ``as_data``'s JSON with ``--json``, else
    ``as_text``'s lines in ``--lang``'s language."""
    _ = _gettext(lang)

    def act(desk: Desk) -> None:
        data = bracket_data(desk.state(tid))
        if as_json:
            typer.echo(json.dumps(as_data(data), ensure_ascii=False))
            return
        for line in as_text(data, _):
            _say(line)
    _run(db, act, lang)
