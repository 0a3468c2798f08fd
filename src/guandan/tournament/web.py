"""Web pages and JSON endpoints of the tournament desk, as a FastAPI ``APIRouter`` for the web app.

Every page is in Chinese unless the reader chose English (``?lang=en``, remembered in the ``lang`` cookie;
:mod:`.pagelang`), and every string on it comes from the ``desk`` catalogue.

* ``/t/{id}/standings``: the venue screen: every team, in big type, a page of the table at a time (page
  *k* of *n*, turning by itself), with the current round's clock; complete rounds only.
* ``/t/{id}/pairings[/{round}]``: who plays where: each table's North–South and East–West teams and players,
  and an index by team name, for the venue's wall and the players' phones.
* ``/t/{id}/pairings[/{round}]/screen``: the same round on the venue screen: each table's number, home team and
  away team in big type, a page of tables at a time, turning by itself (without a round, the current one, so a
  screen left on shows the next round once it is paired); an online event has none (404).
* ``/t/{id}/table/{round}/{table}``: the page a slip's QR code opens: West enters, North confirms.
* ``/t/{id}/arbiter?key=…``: the arbiter's dashboard: tables still missing, pair the next round (blocked until
  every result is final), re-pair, override. The key is the tournament's secret printed by ``new``.
* ``/api/t/{id}/…``: the same data as JSON (English, snake_case keys).

``router`` uses the default database (see :func:`guandan.db.make_engine`); ``create_router(desk)`` binds one.
"""

from __future__ import annotations

import contextlib
import hmac
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from math import ceil
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from ..core.errors import GuandanError
from ..i18n import N_
from ..present import rank_text
from .deals import deal_list_text, parse_deal_list
from .desk import Desk
from .errors import Word, refused
from .export import PENDING, loopback, qr_svg, slips_html, standing_records, table_rows
from .levels import level_name
from .model import LatenessRules, Team
from .names import name_key
from .online import is_online
from .pagelang import Explained, Forbidden, Missing, Refusal, explain, gettext_of, in_words, lang_of, render, status_of
from .prints import slips_pdf
from .reachable import check_result
from .rounds import ResultSlip, lateness_ruling
from .standings import Standing
from .state import FINAL, IN_PLAY, RoundState, TableState, TournamentState
from .web_bracket import bracket_router
from .web_table import NO_TABLE_PAGES, create_table_router
from .words import (
    KNOCKOUT_ORDER,
    STANDING_COMPACT,
    STANDING_HEADS,
    STANDING_NAMES,
    STATUS_WORDS,
    knockout_rank,
    knockout_status,
    last_round_words,
    order_line,
)

NO_PAIRINGS_SCREEN = N_("An online event has no venue screen for its pairings: each team sees its own table on "
                        "this site")
LEVELS = [(level_name(v), rank_text(level_name(v))) for v in range(2, 15)]  # (value, what people read)
STATIC = Path(__file__).parent / "static"
MEDIA = {".js": "text/javascript", ".css": "text/css"}

#: The venue screen: rows per column (a 1080-pixel screen reads 16 rows from the back of a hall), seconds a
#: page stays up when the table needs several, and when it fits on one.
SCREEN_ROWS, PAGE_SECONDS, STILL_SECONDS = 16, 12, 30
#: The pairings on the venue screen: tables per column (a line holds two teams' names, in bigger type than the
#: standings' rows: a team looks for its name across the hall before it sits down).
PAIRING_ROWS = 10


@cache
def default_desk() -> Desk:
    return Desk.open()


# ---- what the pages show, in the reader's language -------------------------------------------------
Gettext = Callable[[str], str]


def level_text(level: str | int) -> str:
    """A level as people write it: "10", never "T"; values 2…14 or names "2"…"A"."""
    return rank_text(level_name(level) if isinstance(level, int) else level)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def result_words(state: TournamentState, ts: TableState, _: Gettext) -> str:
    """A table's result, home first, e.g. "A : 9 · 甲队过A" (a knockout's level round: "9 : 9 · 甲队加赛胜"); a
    pending entry in brackets, worded alike; "" when none."""
    tb = ts.table
    names = (state.teams[tb.home].name, state.teams[tb.away].name)
    if ts.result is None or ts.final is None:
        p = ts.pending
        if p is not None and p.levels is not None:
            text = f"{level_text(p.levels[0])} : {level_text(p.levels[1])}"
            if p.passed_a is not None:
                text += " · " + _("{team} passed A").format(team=names[p.passed_a])
            if p.decider is not None:
                text += " · " + _("{team} won the deciding deal").format(team=names[p.decider])
            return _(PENDING).format(result=text)
        return ""
    r = ts.result
    if ts.final.forfeit is not None:
        return _("{team} forfeited").format(team=names[ts.final.forfeit]) + \
            f" · {level_text(r.levels[0])} : {level_text(r.levels[1])}"
    text = f"{level_text(r.levels[0])} : {level_text(r.levels[1])}"
    if r.passed_a is not None:
        text += " · " + _("{team} passed A").format(team=names[r.passed_a])
    if ts.final.decider is not None:  # a knockout's level round: the levels alone name no winner
        text += " · " + _("{team} won the deciding deal").format(team=names[ts.final.decider])
    return text


@dataclass(frozen=True)
class Line:
    """One team's line of the standings, ready to show."""

    rank: str
    number: int
    name: str
    club: str
    players: str
    withdrawn: bool
    values: dict[str, str]
    wdl: str
    #: A knockout's: where the team stands (:func:`~.bracket.standing_order`'s ``status``, ``eliminated_in``,
    #: ``decider``), for :func:`~.words.knockout_status` to say in the page's language; None in a Swiss event.
    standing: dict[str, Any] | None = None
    #: The rounds the team had a bye in: each counts as a win (W), which the arbiter's page shows beside it.
    byes: int = 0


def screen_keys(chain: Sequence[str]) -> list[str]:
    """The criteria the standings show as columns: match points, then the event's chain (head-to-head has
    no column of its own)."""
    return ["match_points"] + [c for c in chain if c not in ("match_points", "head_to_head")]


@dataclass(frozen=True)
class Head:
    """A figure's column head on the standings page, in the page's language: the head, the shorter one a phone
    held upright shows (the same where there is none shorter), and the figure's name in full."""

    head: str
    compact: str
    name: str


def figure_heads(keys: Sequence[str], _: Gettext) -> dict[str, Head]:
    """The heads of the figures ``keys``, each with its compact form and its name."""
    out = {}
    for k in keys:
        head = _(STANDING_HEADS[k])
        out[k] = Head(head, _(STANDING_COMPACT[k]) if k in STANDING_COMPACT else head, _(STANDING_NAMES[k]))
    return out


def standing_lines(state: TournamentState, through: int) -> list[Line]:
    """The standings after ``through`` complete rounds (0: the teams before round 1, without ranks); a knockout's
    in the knockout's order, its place as the rank ("3=": shared; "–" while the team is in)."""
    if state.is_knockout:
        return [Line(knockout_rank(r) or "–", r["team_id"],
                     r["team"], r["club"] or "", " / ".join(r["players"]), r["withdrawn"], _figures(r),
                     f"{r['wins']}-{r['draws']}-{r['losses']}",
                     {k: r[k] for k in ("status", "eliminated_in", "decider")}, r["byes"])
                for r in standing_records(state, through)]
    out = []
    for s in state.standings(through):
        t = state.teams[s.team_id]
        values = _figures(s.to_dict())
        out.append(Line(str(s.rank) if through else "–", t.id, t.name, t.club or "", " / ".join(t.players),
                        state.withdrawn_by(t.id, through), values, f"{s.wins}-{s.draws}-{s.losses}", byes=s.byes))
    return out


def _figures(rec: dict[str, Any]) -> dict[str, str]:
    return {"match_points": str(rec["match_points"]), "opponents_points": str(rec["opponents_points"]),
            "level_diff": signed(rec["level_diff"]), "levels_gained": str(rec["levels_gained"]), "wins": str(rec["wins"])}


#: The figures a knockout's venue screen leaves out on a phone held upright, for where each team stands: they
#: order nothing in a knockout, and 场分 and 级差分 stay.
KNOCKOUT_MINOR = frozenset({"opponents_points", "levels_gained"})


def standings_order(state: TournamentState, _: Gettext) -> str:
    """The line under the standings that says their order: the tie-breaks', or the knockout's."""
    return _(KNOCKOUT_ORDER) if state.is_knockout else order_line(state.cfg.tiebreaks, _)


def telling_ends(names: Iterable[str]) -> dict[str, int]:
    """Each name's shortest end (in characters) that no other of the names ends with: what a venue screen keeps of
    a name it cuts in the middle, so that names alike are told apart (淮安市清江浦区第一代表队 beside …第二代表队
    keeps 一代表队: 4). A name that ends another whole keeps all of itself."""
    backwards = sorted({name[::-1] for name in names})
    out: dict[str, int] = {}
    for i, name in enumerate(backwards):
        # names sorted backwards: the one sharing the longest end with this one is next to it
        shared = max((_shared_start(name, backwards[j]) for j in (i - 1, i + 1) if 0 <= j < len(backwards)),
                     default=0)
        out[name[::-1]] = min(len(name), shared + 1)
    return out


def _shared_start(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def round_seats(state: TournamentState, round_no: int, _: Gettext) -> dict[int, str]:
    """Each team's table in a round (its number; the bye in words): the venue screen is what a room reads to
    find where to sit, and the standings alone never said it."""
    rnd = state.rounds[round_no]
    out = {team: str(ts.table.number) for ts in rnd.tables.values() for team in ts.table.teams()}
    if rnd.bye is not None:
        out[rnd.bye] = _("Bye")
    return out


T = TypeVar("T")


@dataclass(frozen=True)
class ScreenPage(Generic[T]):
    """One page of the venue screen: ``columns`` of at most ``rows`` lines each."""

    number: int
    count: int
    rows: int
    columns: list[list[T]]
    width: int  # columns side by side on every page (the last may fill fewer)


def screen_page(lines: list[T], rows: int, number: int) -> ScreenPage[T]:
    """Page ``number`` (1-based; past the last it wraps round) of the lines, ``rows`` to a column: one
    column while every team fits in it, else two side by side."""
    cols = 1 if len(lines) <= rows else 2
    per_page = rows * cols
    count = max(1, ceil(len(lines) / per_page))
    number = (number - 1) % count + 1
    shown = lines[(number - 1) * per_page:number * per_page]
    columns = [shown[i:i + rows] for i in range(0, len(shown), rows)] or [[]]
    return ScreenPage(number, count, rows, columns, cols)


def clock_text(seconds: int) -> str:
    """38:12, or 1:05:00 from an hour up (the venue screen's script writes it the same way)."""
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


CLOCK_SENTENCES = {"not_started": N_("Round {n}: the clock has not started"), "play": N_("Round {n}: {time} left"),
                   "warning": N_("Round {n}: {time} left · no new deal"), "over": N_("Round {n}: time is up")}


def clock_view(state: TournamentState, round_no: int, now: datetime, _: Gettext) -> dict[str, Any] | None:
    """The round's clock for a page: its phase, the seconds left (to the round's end) and to the warning,
    and the sentence of each phase split round the time, so that the page's script can count down."""
    clock = state.round_clock(round_no, now)
    if clock["phase"] not in CLOCK_SENTENCES or clock.get("complete"):
        return None
    left = int(clock["seconds_left"] or 0)
    sentences = {}
    for phase, msgid in CLOCK_SENTENCES.items():
        before, _sep, after = _(msgid).format(n=round_no, time="\0").partition("\0")
        sentences[phase] = (before, after, bool(_sep))
    return {"phase": clock["phase"], "seconds_left": left, "time": clock_text(left),
            "warning_left": state.cfg.limits.warning_minutes * 60, "sentences": sentences}


def seat_words(side: int, _: Gettext) -> str:
    return _("North–South") if side == 0 else _("East–West")


def team_json(team: Team) -> dict[str, Any]:
    return {"team_id": team.id, "team": team.name, "players": list(team.players), "club": team.club}


def pairings_json(state: TournamentState, rnd: RoundState) -> dict[str, Any]:
    """A round's tables and the index by team, with stable snake_case keys."""
    tables = [{"table": ts.table.number, "north_south": team_json(state.teams[ts.table.home]),
               "east_west": team_json(state.teams[ts.table.away]), "status": ts.status}
              for ts in sorted(rnd.tables.values(), key=lambda ts: ts.table.number)]
    return {"tournament": state.id, "name": state.cfg.name, "round": rnd.number, "rounds": state.rounds_total,
            "tables": tables, "bye": team_json(state.teams[rnd.bye]) if rnd.bye is not None else None,
            "teams": team_index(state, rnd)}


def team_index(state: TournamentState, rnd: RoundState) -> list[dict[str, Any]]:
    """Every team of the round by name (:func:`~.names.name_key`: Chinese names by pinyin): its table and seat
    ("north_south", "east_west" or "bye")."""
    out: list[dict[str, Any]] = []
    for ts in rnd.tables.values():
        for side, team_id in enumerate(ts.table.teams()):
            out.append({"team_id": team_id, "team": state.teams[team_id].name, "table": ts.table.number,
                        "seat": ("north_south", "east_west")[side]})
    if rnd.bye is not None:
        out.append({"team_id": rnd.bye, "team": state.teams[rnd.bye].name, "table": None, "seat": "bye"})
    return sorted(out, key=lambda x: (name_key(x["team"]), x["team_id"]))



def status_line(state: TournamentState, _: Gettext) -> str:
    if not state.rounds:
        return _("Registration")
    if state.finished:
        return _("Finished")
    r = state.current_round
    return (_("Round {n} complete") if state.rounds[r].complete else _("Round {n} in play")).format(n=r)


def blockers_words(state: TournamentState, _: Gettext) -> list[str]:
    """Why the next round cannot be paired yet, in the reader's language."""
    theirs = state.pairing_blockers()
    nxt = state.current_round + 1
    mine: list[str] = []
    if nxt > state.rounds_total:
        mine = [_("Every round has been paired ({n} in all)").format(n=state.rounds_total)]
    elif len(state.active_teams) < 2:
        mine = [_("At least two teams are needed; {n} registered").format(n=len(state.active_teams))]
    elif nxt > 1:
        for t in state.rounds[nxt - 1].tables.values():
            if t.status != FINAL:
                tb = t.table
                where = dict(round=tb.round, table=tb.number, home=state.teams[tb.home].name,
                             away=state.teams[tb.away].name)
                if t.status == IN_PLAY:  # as the state says it: deals still coming, not a "result in play"
                    mine.append(_("Round {round} table {table} ({home} v {away}): still reporting deals one by one")
                                .format(**where))
                else:
                    mine.append(_("Round {round} table {table} ({home} v {away}): result {status}").format(
                        **where, status=_(STATUS_WORDS.get(t.status, t.status))))
    # the state's own list decides; a reason written here for none of its kinds is shown as the state says it
    return mine if len(mine) == len(theirs) else [in_words(b, _) for b in theirs]


# ---- the routes -------------------------------------------------------------------------------------
def create_router(desk: Desk | Callable[[], Desk] = default_desk, *, base_url: str | None = None,
                  now: Callable[[], datetime] | None = None) -> APIRouter:
    """The desk's routes; ``base_url`` is the address players' phones reach (default: the request's own);
    ``now`` the clock the pages read the round's clock by (default: the desk's own)."""
    get_desk: Callable[[], Desk] = (lambda: desk) if isinstance(desk, Desk) else desk
    r = APIRouter()

    def clock_now() -> datetime:
        if now is not None:
            return now()
        desk_now: Callable[[], datetime] | None = getattr(get_desk(), "now", None)
        return desk_now() if desk_now is not None else datetime.now(UTC)

    def problem(request: Request, e: Exception, json: bool = False) -> Response:
        status = status_of(e)
        if json:
            return JSONResponse({"error": str(e)}, status_code=status)
        return render(request, "message.html", status, cfg=None, problem=explain(e, lang_of(request)))

    def load(tid: int) -> TournamentState:
        try:
            return get_desk().state(tid)
        except GuandanError as e:
            if isinstance(e, LookupError):
                raise Missing(N_("There is no tournament number {id}"), id=tid) from None
            raise

    def round_of(state: TournamentState, round_no: int) -> RoundState:
        if round_no not in state.rounds:
            if not 1 <= round_no <= max(state.rounds_total, state.current_round):
                raise Missing(N_("This event has rounds 1 to {last}; there is no round {n}"),
                              n=round_no, last=max(state.rounds_total, state.current_round))
            raise Missing(N_("Round {n} has not been paired yet"), n=round_no)
        return state.rounds[round_no]

    def table_of(state: TournamentState, round_no: int, table_no: int) -> TableState:
        rnd = round_of(state, round_no)
        if table_no not in rnd.tables:
            raise Missing(N_("Round {round} has no table {table}; its tables are 1 to {last}"),
                          round=round_no, table=table_no, last=len(rnd.tables))
        return rnd.tables[table_no]

    def keyed(state: TournamentState, key: str | None) -> None:
        # compared as UTF-8 bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500)
        if not key or not hmac.compare_digest(key.encode(), state.secret.encode()):
            raise Forbidden(N_("The arbiter's key is missing or wrong"))

    # ---- the pages' scripts: files, as the Content-Security-Policy allows no inline script -----------
    # what /t/static/ serves: the folder's scripts and style sheets as installed, and nothing else
    assets = {p.name: MEDIA[p.suffix] for p in STATIC.iterdir() if p.suffix in MEDIA} if STATIC.is_dir() else {}

    @r.get("/t/static/{name}")
    def asset(name: str) -> Response:
        if name not in assets:
            return JSONResponse({"error": f"no file {name}"}, status_code=404)
        return FileResponse(STATIC / name, media_type=assets[name], headers={"Cache-Control": "max-age=300"})

    # ---- public: the venue screen, the pairings --------------------------------------------------
    @r.get("/t/{tid}/standings", response_class=HTMLResponse)
    def standings_page(request: Request, tid: int, after_round: str | None = None, page: str | None = None,
                       rows: str | None = None, refresh: str | None = None) -> Response:
        try:
            state = load(tid)
            # The venue screen shows complete rounds only: half a round of results would mislead the room.
            done = state.completed_rounds
            through = whole(after_round, N_("round to show the standings after"), 0, done, done)
            n_rows = whole(rows, N_("number of rows"), 4, 60, SCREEN_ROWS)
            number = whole(page, N_("page number"), 1, 10_000, 1)
            lines = standing_lines(state, through)
            shown = screen_page(lines, n_rows, number)
            seconds = whole(refresh, N_("seconds a page is shown"), 5, 3600, PAGE_SECONDS if shown.count > 1 else STILL_SECONDS)
        except GuandanError as e:
            return problem(request, e)
        _ = gettext_of(request)
        rnd = state.current_round
        in_play = rnd if rnd and not state.rounds[rnd].complete else None
        keys = screen_keys(state.cfg.tiebreaks)
        figures = figure_heads(keys, _)
        minor = KNOCKOUT_MINOR if state.is_knockout else frozenset()
        return render(request, "standings.html", cfg=state.cfg, shown=shown, through=through, in_play=in_play,
                    seats=round_seats(state, in_play, _) if in_play else None,
                    keys=keys, heads=STANDING_HEADS, figures=figures, teams=len(lines),
                    legend=[f for f in figures.values() if f.name != f.head or f.name != f.compact],
                    withdrawn=sum(1 for line in lines if line.withdrawn),
                    order=standings_order(state, _), refresh=seconds, knockout=state.is_knockout,
                    minor=minor, minor_names={figures[k].name for k in minor if k in figures},
                    status_of_line=lambda line: knockout_status(line.standing, _),
                    next_url=next_page_url(request, shown), wide=shown.width == 1,
                    keep=telling_ends(t.name for t in state.teams.values()),
                    clock=clock_view(state, in_play, clock_now(), _) if in_play else None,
                    pairings=f"/t/{tid}/pairings", pairings_screen=venue_screen(tid, f"/t/{tid}/pairings/screen"),
                    event_page=event_page(tid))

    def venue_screen(tid: int, url: str) -> str | None:
        """``url``, a venue screen's address to link, or None for an online event: its players are each at
        their own screen, with no hall's TV to put the tables up on."""
        return None if is_online(get_desk(), tid) else url

    def event_page(tid: int) -> str | None:
        """An online event's own page on the site (/events/ID), where its players enter and find their tables: its
        standings and pairings lead back to it. None for an event at a venue, which has no such page."""
        return f"/events/{tid}" if is_online(get_desk(), tid) else None

    def next_page_url(request: Request, shown: ScreenPage[Any]) -> str:
        """The address a venue screen turns to next: its next page (after the last, the first), its settings
        kept; the language is the cookie's, set by the first address."""
        nxt = shown.number % shown.count + 1
        kept = [(k, v) for k, v in request.query_params.multi_items() if k not in ("page", "lang")]
        return request.url.path + "?" + urlencode(kept + ([("page", str(nxt))] if nxt > 1 else []))

    def pairings_screen(request: Request, tid: int, round_no: int | None, page: str | None, rows: str | None,
                        refresh: str | None) -> Response:
        """The round's tables on the venue screen, ``rows`` to a column, two columns side by side once they
        do not fit in one; ``round_no`` None: the current round, whichever it is when the page loads."""
        try:
            if is_online(get_desk(), tid):  # no hall's TV: its players each see their own table
                raise Missing(NO_PAIRINGS_SCREEN)
            state = load(tid)
            rnd = None if round_no is None and not state.rounds else \
                round_of(state, state.current_round if round_no is None else round_no)
            n_rows = whole(rows, N_("number of rows"), 4, 60, PAIRING_ROWS)
            number = whole(page, N_("page number"), 1, 10_000, 1)
            data = pairings_json(state, rnd) if rnd is not None else None
            shown = screen_page(data["tables"] if data else [], n_rows, number)
            seconds = whole(refresh, N_("seconds a page is shown"), 5, 3600,
                            PAGE_SECONDS if shown.count > 1 else STILL_SECONDS)
        except GuandanError as e:
            return problem(request, e)
        _ = gettext_of(request)
        clock = None
        if rnd is not None and rnd.number == state.current_round and not rnd.complete:
            clock = clock_view(state, rnd.number, clock_now(), _)
        return render(request, "pairings_screen.html", cfg=state.cfg, rnd=rnd, data=data, shown=shown,
                      refresh=seconds, next_url=next_page_url(request, shown), clock=clock,
                      keep=telling_ends(t.name for t in state.teams.values()),
                      standings=f"/t/{tid}/standings",
                      pairings=f"/t/{tid}/pairings" + (f"/{round_no}" if round_no is not None else ""))

    def pairings(request: Request, tid: int, round_no: int | None) -> Response:
        try:
            state = load(tid)
            rnd = None if round_no is None and not state.rounds else \
                round_of(state, state.current_round if round_no is None else round_no)
        except GuandanError as e:
            return problem(request, e)
        _ = gettext_of(request)
        clock = None
        if rnd is not None and rnd.number == state.current_round and not rnd.complete:
            clock = clock_view(state, rnd.number, clock_now(), _)
        return render(request, "pairings.html", cfg=state.cfg, rnd=rnd, data=pairings_json(state, rnd) if rnd else None,
                    rounds=sorted(state.rounds), tid=tid, standings=f"/t/{tid}/standings",
                    screen=venue_screen(tid, f"/t/{tid}/pairings" + (f"/{round_no}" if round_no is not None else "")
                                        + "/screen"),
                    seat=lambda key: _("North–South") if key == "north_south" else _("East–West"), clock=clock,
                    event_page=event_page(tid))

    @r.get("/t/{tid}/pairings", response_class=HTMLResponse)
    def pairings_current(request: Request, tid: int) -> Response:
        return pairings(request, tid, None)

    # before /pairings/{round_no}, which would take "screen" for a round's number and refuse it
    @r.get("/t/{tid}/pairings/screen", response_class=HTMLResponse)
    def pairings_screen_current(request: Request, tid: int, page: str | None = None, rows: str | None = None,
                                refresh: str | None = None) -> Response:
        return pairings_screen(request, tid, None, page, rows, refresh)

    @r.get("/t/{tid}/pairings/{round_no}/screen", response_class=HTMLResponse)
    def pairings_screen_round(request: Request, tid: int, round_no: int, page: str | None = None,
                              rows: str | None = None, refresh: str | None = None) -> Response:
        return pairings_screen(request, tid, round_no, page, rows, refresh)

    @r.get("/t/{tid}/pairings/{round_no}", response_class=HTMLResponse)
    def pairings_round(request: Request, tid: int, round_no: int) -> Response:
        return pairings(request, tid, round_no)

    # ---- one table: each team signs in with its own code; West reports, North confirms ------------
    r.include_router(create_table_router(get_desk))

    @r.get("/t/{tid}/table/{round_no}/{table_no}/qr.svg")
    def table_qr(request: Request, tid: int, round_no: int, table_no: int) -> Response:
        if is_online(get_desk(), tid):  # nothing at its tables to open
            return problem(request, Missing(NO_TABLE_PAGES))
        url = f"{(base_url or str(request.base_url)).rstrip('/')}/t/{tid}/table/{round_no}/{table_no}"
        return Response(qr_svg(url), media_type="image/svg+xml")

    # ---- arbiter ---------------------------------------------------------------------------------
    def arbiter_page(request: Request, tid: int, key: str | None, status: int = 200, error: Explained | None = None,
                     message: str | None = None, at: tuple[int, int] | None = None,
                     typed: dict[str, str] | None = None, named: bool = False) -> Response:
        """The arbiter's page; after a refusal of a table's form ``at`` (round, table), ``typed`` is what the
        arbiter typed in it (form field → text), put back in that form, and the message names the table
        unless the refusal ``named`` it already."""
        try:
            state = load(tid)
            keyed(state, key)
        except GuandanError as e:
            return problem(request, e)
        _ = gettext_of(request)
        cur = state.current_round
        rnd = state.rounds.get(cur)
        # the site's own tables play an online event and report it: no slips, team codes or table phones
        venue = not is_online(get_desk(), tid)
        keys = screen_keys(state.cfg.tiebreaks)
        figures = figure_heads(keys, _)
        minor = KNOCKOUT_MINOR if state.is_knockout else frozenset()
        return render(request, "arbiter.html", status, cfg=state.cfg, teams=state.teams, withdrawn=len(state.withdrawn),
                    current=cur, rnd=rnd,
                    status_text=status_line(state, _), blockers=blockers_words(state, _),
                    can_repair=bool(rnd and not rnd.started), lines=standing_lines(state, state.completed_rounds),
                    keys=keys, heads=STANDING_HEADS, figures=figures, error=error,
                    legend=[f for f in figures.values() if f.name != f.compact],
                    minor=minor, minor_names={figures[k].name for k in minor if k in figures},
                    order=standings_order(state, _), knockout=state.is_knockout,
                    status_of_line=lambda line: knockout_status(line.standing, _),
                    message=message,
                    error_at=None if named else at, typed=typed or {}, typed_table=at[1] if at and at[0] == cur else None,
                    key=key, base=f"/t/{tid}/arbiter", public=f"/t/{tid}/standings",
                    pairings=f"/t/{tid}/pairings", pairings_screen=f"/t/{tid}/pairings/screen",
                    key_q=lambda path: f"/t/{tid}/arbiter/{path}?key={key}",
                    table_url=lambda n: f"/t/{tid}/table/{cur}/{n}",
                    result_of=lambda ts: result_words(state, ts, _), status_words=STATUS_WORDS,
                    codes=lambda n: (state.team_code(cur, n, 0), state.team_code(cur, n, 1)),
                    clock=clock_view(state, cur, clock_now(), _) if rnd is not None and not rnd.complete else None,
                    can_start=bool(rnd is not None and rnd.started_at is None and not rnd.complete),
                    per_deal=state.cfg.per_deal, rounds_total=state.rounds_total,
                    last_round_words=last_round_words(state.finished),
                    local_url=None if (not venue or base_url or not loopback(str(request.base_url)))
                    else str(request.base_url),
                    bracket=f"/t/{tid}/bracket" if state.cfg.format == "knockout" else None,
                    venue=venue, event_page=None if venue else f"/events/{tid}",
                    deal_text=lambda ts: deal_list_text([*ts.deals, *([ts.pending_deal] if ts.pending_deal else [])], _))

    @r.get("/t/{tid}/arbiter", response_class=HTMLResponse)
    def arbiter_get(request: Request, tid: int, key: str | None = None) -> Response:
        message = None
        if request.query_params.get("done"):
            with contextlib.suppress(GuandanError):  # the page itself says what is wrong (no such tournament)
                message = done_message(get_desk().state(tid), request.query_params, gettext_of(request),
                                       lang_of(request))
        return arbiter_page(request, tid, key, message=message)

    def arbiter_action(request: Request, tid: int, key: str, done: str, action: Callable[[Desk], dict[str, int]],
                       at: tuple[int, int] | None = None, typed: dict[str, str] | None = None) -> Response:
        """Do ``action``; then (Post/Redirect/Get) send the browser back to the arbiter's page, its outcome
        (``done``, with the numbers the action returns) in the address, so that a reload reads the page again
        instead of sending the form a second time, in the page's language (``lang``, kept in the address as the
        arbiter's page has it). A refusal is shown here, the arbiter's typing kept."""
        try:
            keyed(load(tid), key)
            said = action(get_desk())
        except GuandanError as e:
            if isinstance(e, Forbidden | LookupError):
                return problem(request, e)
            params = getattr(e, "params", None)
            return arbiter_page(request, tid, key, 400, error=explain(e, lang_of(request)), at=at, typed=typed,
                                named=isinstance(params, dict) and "table" in params)
        query = urlencode({"key": key, "lang": lang_of(request), "done": done, **said})
        return RedirectResponse(f"/t/{tid}/arbiter?{query}", status_code=303)

    def seen_of(value: str) -> int | None:
        seen: int | None = whole(value, N_("page's version"), 0, 10**9, None)
        return seen

    @r.post("/t/{tid}/arbiter/pair", response_class=HTMLResponse)
    def arbiter_pair(request: Request, tid: int, key: Annotated[str, Form()]) -> Response:
        # sent twice, the second finds the round just paired in play and is refused (pairing_blockers)
        return arbiter_action(request, tid, key, "paired", lambda d: {"n": d.pair_next(tid, actor="web:arbiter").number})

    @r.post("/t/{tid}/arbiter/repair", response_class=HTMLResponse)
    def arbiter_repair(request: Request, tid: int, key: Annotated[str, Form()],
                       reason: Annotated[str, Form()] = "", seen: Annotated[str, Form()] = "") -> Response:
        return arbiter_action(request, tid, key, "repaired", lambda d: {
            "n": d.repair(tid, reason=reason, actor="web:arbiter", seen=seen_of(seen)).number})

    @r.post("/t/{tid}/arbiter/start", response_class=HTMLResponse)
    def arbiter_start(request: Request, tid: int, key: Annotated[str, Form()]) -> Response:
        # sent twice, the second is refused: the round's clock is already running
        return arbiter_action(request, tid, key, "started", lambda d: {
            "n": d.start_round(tid, actor="web:arbiter").number})

    @r.post("/t/{tid}/arbiter/unlock", response_class=HTMLResponse)
    def arbiter_unlock(request: Request, tid: int, key: Annotated[str, Form()], round: Annotated[int, Form()],
                       table: Annotated[int, Form()], seen: Annotated[str, Form()] = "") -> Response:
        def act(d: Desk) -> dict[str, int]:
            d.unlock_table(tid, round, table, reason="arbiter's page", actor="web:arbiter", seen=seen_of(seen))
            return {"round": round, "table": table}
        return arbiter_action(request, tid, key, "unlocked", act, at=(round, table))

    @r.post("/t/{tid}/arbiter/deals", response_class=HTMLResponse)
    def arbiter_deals(request: Request, tid: int, key: Annotated[str, Form()], round: Annotated[int, Form()],
                      table: Annotated[int, Form()], deals: Annotated[str, Form(max_length=2000)] = "",
                      reason: Annotated[str, Form(max_length=200)] = "", end: Annotated[str, Form()] = "",
                      seen: Annotated[str, Form()] = "") -> Response:
        def act(d: Desk) -> dict[str, int]:
            d.set_deals(tid, round, table, parse_deal_list(deals), reason, bool(end), actor="web:arbiter",
                        seen=seen_of(seen))
            return {"round": round, "table": table}
        return arbiter_action(request, tid, key, "deals", act, at=(round, table),
                              typed={"form": "deals", "deals": deals, "reason": reason, "end": end})

    @r.post("/t/{tid}/arbiter/override", response_class=HTMLResponse)
    def arbiter_override(request: Request, tid: int, key: Annotated[str, Form()], round: Annotated[int, Form()],
                         table: Annotated[int, Form()], reason: Annotated[str, Form()] = "",
                         levels: Annotated[str, Form()] = "", passed_a: Annotated[str, Form()] = "none",
                         forfeit: Annotated[str, Form()] = "", deals: Annotated[str, Form()] = "",
                         decider: Annotated[str, Form()] = "", seen: Annotated[str, Form()] = "",
                         late: Annotated[str, Form(max_length=100)] = "") -> Response:
        def act(d: Desk) -> dict[str, int]:
            n_deals = whole(deals, N_("number of deals played"), 0, 99, None)
            minutes = minutes_late(late, bool(forfeit), d.state(tid).cfg.lateness)
            slip = ResultSlip.parse(levels or None, None if forfeit else passed_a, n_deals, forfeit or None,
                                    decider or None)
            d.override(tid, round, table, slip, reason, actor="web:arbiter", seen=seen_of(seen), late_minutes=minutes)
            return {"round": round, "table": table}
        return arbiter_action(request, tid, key, "override", act, at=(round, table),
                              typed={"form": "override", "levels": levels, "passed_a": passed_a, "forfeit": forfeit,
                                     "deals": deals, "reason": reason, "decider": decider, "late": late})

    @r.get("/t/{tid}/arbiter/slips/{round_no}", response_class=HTMLResponse)
    def arbiter_slips(request: Request, tid: int, round_no: int, key: str | None = None, pdf: bool = False) -> Response:
        """The round's score slips to print (Chinese unless ?lang=en); ``?pdf=1`` as a PDF, a page per table."""
        try:
            state = load(tid)
            if is_online(get_desk(), tid):  # the site's own tables play and report it: nothing to print
                raise Missing(N_("An online event has no score slips: its tables are played and reported on this "
                                 "site"))
            keyed(state, key)
            round_of(state, round_no)
            base, lang = base_url or str(request.base_url), lang_of(request)
            if pdf:
                return Response(slips_pdf(state, round_no, base, lang), media_type="application/pdf", headers={
                    "Content-Disposition": f'inline; filename="slips-{tid}-{round_no}.pdf"'})
            pdf_url = f"?{urlencode({'key': key or '', 'lang': lang, 'pdf': 1})}"
            return HTMLResponse(slips_html(state, round_no, base, lang, pdf_url=pdf_url))
        except GuandanError as e:
            return problem(request, e)

    # ---- JSON ------------------------------------------------------------------------------------
    @r.get("/api/t/{tid}/standings")
    def api_standings(request: Request, tid: int, after_round: int | None = None) -> Response:
        try:
            state = load(tid)
            if state.is_knockout:  # the knockout's order, and where each team stands
                keys = (*Standing.__dataclass_fields__, "team", "withdrawn", "place", "place_shared", "status",
                        "eliminated_in", "decider")
                out = [{k: r[k] for k in keys} for r in standing_records(state, after_round)]
            else:
                out = [s.to_dict() | {"team": state.teams[s.team_id].name,
                                      "withdrawn": state.withdrawn_by(s.team_id, after_round)}
                       for s in state.standings(after_round)]
        except GuandanError as e:
            return problem(request, e, json=True)
        return JSONResponse({"tournament": tid, "name": state.cfg.name, "tiebreaks": list(state.cfg.tiebreaks),
                             "completed_rounds": state.completed_rounds, "standings": out})

    @r.get("/api/t/{tid}/pairings")
    def api_pairings_current(request: Request, tid: int) -> Response:
        try:
            state = load(tid)
            return JSONResponse(pairings_json(state, round_of(state, max(state.current_round, 1))))
        except GuandanError as e:
            return problem(request, e, json=True)

    @r.get("/api/t/{tid}/pairings/{round_no}")
    def api_pairings(request: Request, tid: int, round_no: int) -> Response:
        try:
            state = load(tid)
            return JSONResponse(pairings_json(state, round_of(state, round_no)))
        except GuandanError as e:
            return problem(request, e, json=True)

    @r.get("/api/t/{tid}/status")
    def api_status(request: Request, tid: int) -> Response:
        try:
            state = load(tid)
        except GuandanError as e:
            return problem(request, e, json=True)
        cur = state.current_round
        missing = [] if not cur else [t.table.number for t in state.rounds[cur].tables.values() if t.status != FINAL]
        return JSONResponse({"tournament": tid, "current_round": cur, "rounds": state.rounds_total,
                             "completed_rounds": state.completed_rounds, "tables_not_final": missing,
                             "pairing_blockers": state.pairing_blockers()})

    @r.get("/api/t/{tid}/rounds/{round_no}")
    def api_round(request: Request, tid: int, round_no: int) -> Response:
        try:
            state = load(tid)
            rnd = round_of(state, round_no)
        except GuandanError as e:
            return problem(request, e, json=True)
        tables = [{"table": t.table.number, "home": t.table.home, "away": t.table.away, "status": t.status,
                   "source": t.source, "result": t.final.to_dict() if t.final else None,
                   "pending": t.pending.to_dict() if t.pending else None} for t in rnd.tables.values()]
        return JSONResponse({"round": round_no, "method": rnd.method, "seed": rnd.seed, "bye": rnd.bye,
                             "tables": tables, "rows": table_rows(state, round_no)})

    @r.get("/api/t/{tid}/log")
    def api_log(request: Request, tid: int, key: str | None = None) -> Response:
        try:
            keyed(load(tid), key)
            events = get_desk().events(tid)
        except GuandanError as e:
            return problem(request, e, json=True)
        return JSONResponse([e.to_dict() for e in events])

    r.include_router(bracket_router(get_desk))
    return r


#: What the arbiter's page says after an action (?done=…, with the numbers it names).
ARBITER_DONE = {"paired": N_("Round {n} paired."), "repaired": N_("Round {n} re-paired."),
                "started": N_("Round {n}: the clock is running."),
                "unlocked": N_("Round {round} table {table} is unlocked."),
                "deals": N_("Round {round} table {table}: deals set."),
                "override": N_("Round {round} table {table}: result set.")}


def done_message(state: TournamentState, query: Any, _: Gettext, lang: str) -> str | None:
    """The sentence for the arbiter's last action, from the address it was sent back to (None when the address
    names none, or not in numbers). An override's warning is read from the result as it stands."""
    done = query.get("done") or ""
    if done not in ARBITER_DONE:
        return None
    nums: dict[str, int] = {}
    for name in ("n", "round", "table"):
        text = query.get(name) or ""
        if text:
            if not (text.isascii() and text.isdigit() and len(text) <= 6):
                return None
            nums[name] = int(text)
    try:
        said = _(ARBITER_DONE[done]).format(**nums)
    except KeyError:
        return None
    if done == "override":
        rnd = state.rounds.get(nums["round"])
        ts = rnd.tables.get(nums["table"]) if rnd is not None else None
        if ts is not None and ts.final is not None and ts.source == "override":
            # a ruling play could not give stands (a penalty, say), but not unremarked: as the command says it
            impossible = check_result(state.cfg, nums["round"], nums["table"], ts.final)
            if impossible is not None:
                why = explain(refused(impossible), lang).detail
                said += " " + _("warning: {problem}; the arbiter's result stands").format(problem=why)
    return said


#: Minutes late as the arbiter's form takes them: digits, with a decimal point if need be; no sign, no exponent.
LATE_MINUTES = re.compile(r"[0-9]{1,6}(?:\.[0-9]{1,2})?")


def minutes_late(value: str, forfeit: bool, rules: LatenessRules) -> float | None:
    """How late the forfeiting team was, as the arbiter typed it beside a forfeit: None when the box is empty or the
    result is no forfeit (the box is the forfeit's alone). Refused in words when it is not a number of minutes, 0 or
    more, or is too few minutes for a forfeit under the event's rules, as ``tournament result --late-minutes`` is."""
    text = value.strip()
    if not forfeit or not text:
        return None
    if not LATE_MINUTES.fullmatch(text):
        raise Refusal(N_("Minutes late must be a number of minutes, 0 or more (e.g. 12 or 12.5), not “{value}”"),
                      value=text[:40])
    minutes = float(text)
    ruling = lateness_ruling(minutes, rules)
    if not ruling.forfeit:
        late = {"minutes": format(minutes, "g"), "limit": format(rules.forfeit_after, "g"),
                "levels": rules.deal_award_levels}
        if ruling.first_deal_awarded:
            raise Refusal(N_("{minutes} minutes late is not a forfeit (more than {limit} needed); the opponents are "
                             "credited the first deal (+{levels}): play the round and enter its result"), **late)
        raise Refusal(N_("{minutes} minutes late is not a forfeit (more than {limit} needed); play the round and "
                         "enter its result"), **late)
    return minutes


def whole(value: str | None, what: str, lo: int, hi: int, default: Any) -> Any:
    """A whole-number query or form field in lo…hi (``default`` when absent or empty); else a refusal that
    names the field."""
    if value is None or not value.strip():
        return default
    text = value.strip()
    if not (text.isascii() and text.lstrip("-").isdigit()) or not lo <= int(text) <= hi:
        raise Refusal(N_("The {field} must be a whole number from {lo} to {hi}, not “{value}”"),
                      field=Word(what), lo=lo, hi=hi, value=text[:40])
    return int(text)


router = create_router()
