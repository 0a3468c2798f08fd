"""Web pages and JSON endpoints of the tournament desk, as a FastAPI ``APIRouter`` for the web app.

* ``/t/{id}/standings``: public standings for the venue screen (refreshes itself).
* ``/t/{id}/arbiter?key=…``: the arbiter's dashboard: tables still missing, pair the next round (blocked until
  every result is final), re-pair, override. The key is the tournament's secret printed by ``new``.
* ``/t/{id}/table/{round}/{table}``: the page a slip's QR code opens: West enters, North confirms; both need
  the PIN printed on the slip.
* ``/api/t/{id}/…``: the same data as JSON.

``router`` uses the default database (see :func:`guandan.db.make_engine`); ``create_router(desk)`` binds one.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Body, Form, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from ..core.errors import GuandanError
from ..present import rank_text
from .desk import Desk, status_of
from .errors import NotFoundError, TournamentError
from .export import STANDING_COLUMNS, qr_svg, result_text, slips_html, standings_rows, table_rows, templates
from .levels import level_name
from .rounds import ResultSlip
from .standings import describe_chain
from .state import FINAL, TournamentState
from .web_bracket import bracket_router

LEVELS = [(level_name(v), rank_text(level_name(v))) for v in range(2, 15)]  # (value, what people read)
_pages = Jinja2Templates(env=templates)


@cache
def default_desk() -> Desk:
    return Desk.open()


def create_router(desk: Desk | Callable[[], Desk] = default_desk, *, base_url: str | None = None) -> APIRouter:
    """The desk's routes; ``base_url`` is the address players' phones reach (default: the request's own)."""
    get_desk: Callable[[], Desk] = (lambda: desk) if isinstance(desk, Desk) else desk
    r = APIRouter()

    def page(request: Request, name: str, code: int = 200, **ctx: Any) -> HTMLResponse:
        return _pages.TemplateResponse(request, name, ctx, status_code=code)

    def problem(request: Request, e: GuandanError, json: bool = False) -> Response:
        status = 404 if isinstance(e, NotFoundError) else 400
        if json:
            return JSONResponse({"error": str(e)}, status_code=status)
        return page(request, "message.html", status, cfg=None, title="Not found" if status == 404 else "Refused",
                    message=str(e))

    def load(tid: int) -> TournamentState:
        return get_desk().state(tid)

    def keyed(state: TournamentState, key: str | None) -> None:
        # compared as UTF-8 bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500)
        if not key or not hmac.compare_digest(key.encode(), state.secret.encode()):
            raise _Forbidden("the arbiter key is missing or wrong")

    def pin_ok(state: TournamentState, round_no: int, table_no: int, pin: str) -> None:
        if not hmac.compare_digest(pin.strip().encode(), state.pin(round_no, table_no).encode()):
            raise TournamentError("wrong PIN: use the 4-digit code printed on this table's score slip")

    # ---- public -------------------------------------------------------------------------------
    @r.get("/t/{tid}/standings", response_class=HTMLResponse)
    def standings_page(request: Request, tid: int, after_round: int | None = None,
                       refresh: Annotated[int, Query(ge=5, le=3600)] = 30) -> Response:
        try:
            state = load(tid)
            # The venue screen shows complete rounds only: half a round of results would mislead the room.
            through = after_round if after_round is not None else state.completed_rounds
            rows = standings_rows(state, through)
        except GuandanError as e:
            return problem(request, e)
        rnd = state.current_round
        in_play = rnd if rnd and not state.rounds[rnd].complete else None
        return page(request, "standings.html", cfg=state.cfg, rows=rows, columns=STANDING_COLUMNS,
                    through=through, in_play=in_play,
                    chain=describe_chain(state.cfg.tiebreaks), refresh=refresh)

    # ---- one table: West enters, North confirms -------------------------------------------------
    def table_page(request: Request, tid: int, round_no: int, table_no: int, status: int = 200,
                   error: str | None = None, message: str | None = None) -> Response:
        try:
            state = load(tid)
            ts = state.table(round_no, table_no)
        except GuandanError as e:
            return problem(request, e)
        return page(request, "table.html", status, cfg=state.cfg, t=ts, home=state.teams[ts.table.home],
                    away=state.teams[ts.table.away], levels=LEVELS, result_text=result_text(ts), error=error,
                    message=message, base=f"/t/{tid}/table/{round_no}/{table_no}")

    @r.get("/t/{tid}/table/{round_no}/{table_no}", response_class=HTMLResponse)
    def table_get(request: Request, tid: int, round_no: int, table_no: int) -> Response:
        return table_page(request, tid, round_no, table_no)

    @r.post("/t/{tid}/table/{round_no}/{table_no}/enter", response_class=HTMLResponse)
    def table_enter(request: Request, tid: int, round_no: int, table_no: int, pin: Annotated[str, Form()],
                    home_level: Annotated[str, Form()], away_level: Annotated[str, Form()],
                    passed_a: Annotated[str, Form()] = "none", deals: Annotated[str, Form()] = "",
                    decider: Annotated[str, Form()] = "") -> Response:
        try:
            enter(tid, round_no, table_no, pin, [home_level, away_level], passed_a, deals or None, decider or None)
        except GuandanError as e:
            return table_page(request, tid, round_no, table_no, 400, error=str(e))
        return table_page(request, tid, round_no, table_no, message="Entered. North (南北) now confirms on this page.")

    @r.post("/t/{tid}/table/{round_no}/{table_no}/confirm", response_class=HTMLResponse)
    def table_confirm(request: Request, tid: int, round_no: int, table_no: int, pin: Annotated[str, Form()],
                      action: Annotated[str, Form()] = "confirm", reason: Annotated[str, Form()] = "") -> Response:
        try:
            confirm(tid, round_no, table_no, pin, action, reason)
        except GuandanError as e:
            return table_page(request, tid, round_no, table_no, 400, error=str(e))
        done = "Confirmed. Thank you." if action == "confirm" else "Disputed: the arbiter has been told."
        return table_page(request, tid, round_no, table_no, message=done)

    def enter(tid: int, round_no: int, table_no: int, pin: str, levels: Any, passed_a: Any, deals: Any,
              decider: Any = None) -> None:
        state = load(tid)
        ts = state.table(round_no, table_no)
        pin_ok(state, round_no, table_no, pin)
        try:
            n_deals = None if deals in (None, "") else int(deals)
        except (TypeError, ValueError):
            raise TournamentError(f"deals played must be a whole number, not {deals!r}") from None
        slip = ResultSlip.from_dict({"levels": levels, "passed_a": None if passed_a in ("none", "", None) else passed_a,
                                     "deals": n_deals, "decider": None if decider in ("none", "", None) else decider})
        get_desk().enter_result(tid, round_no, table_no, slip, ts.table.away, actor="web:west")

    def confirm(tid: int, round_no: int, table_no: int, pin: str, action: str, reason: str) -> None:
        state = load(tid)
        ts = state.table(round_no, table_no)
        pin_ok(state, round_no, table_no, pin)
        if action == "confirm":
            get_desk().confirm(tid, round_no, table_no, ts.table.home, actor="web:north")
        elif action == "dispute":
            get_desk().dispute(tid, round_no, table_no, ts.table.home, reason, actor="web:north")
        else:
            raise TournamentError(f"action must be confirm or dispute, not {action!r}")

    @r.get("/t/{tid}/table/{round_no}/{table_no}/qr.svg")
    def table_qr(request: Request, tid: int, round_no: int, table_no: int) -> Response:
        url = f"{(base_url or str(request.base_url)).rstrip('/')}/t/{tid}/table/{round_no}/{table_no}"
        return Response(qr_svg(url), media_type="image/svg+xml")

    # ---- arbiter ---------------------------------------------------------------------------------
    def arbiter_page(request: Request, tid: int, key: str | None, status: int = 200, error: str | None = None,
                     message: str | None = None) -> Response:
        try:
            state = load(tid)
            keyed(state, key)
        except _Forbidden as e:
            return page(request, "message.html", 403, cfg=None, title="Forbidden", message=str(e))
        except GuandanError as e:
            return problem(request, e)
        cur = state.current_round
        rnd = state.rounds.get(cur)
        return page(request, "arbiter.html", status, cfg=state.cfg, teams=state.teams, current=cur, rnd=rnd,
                    status=status_of(state), blockers=state.pairing_blockers(), can_repair=bool(rnd and not rnd.started),
                    rounds_total=state.rounds_total,
                    rows=standings_rows(state), columns=STANDING_COLUMNS, error=error, message=message, key=key,
                    base=f"/t/{tid}/arbiter", public=f"/t/{tid}/standings",
                    key_q=lambda path: f"/t/{tid}/arbiter/{path}?key={key}",
                    table_url=lambda n: f"/t/{tid}/table/{cur}/{n}", result_of=result_text,
                    pin=lambda n: state.pin(cur, n))

    @r.get("/t/{tid}/arbiter", response_class=HTMLResponse)
    def arbiter_get(request: Request, tid: int, key: str | None = None) -> Response:
        return arbiter_page(request, tid, key)

    def arbiter_action(request: Request, tid: int, key: str, action: Callable[[Desk], str]) -> Response:
        try:
            keyed(load(tid), key)
            done = action(get_desk())
        except _Forbidden as e:
            return page(request, "message.html", 403, cfg=None, title="Forbidden", message=str(e))
        except NotFoundError as e:
            return problem(request, e)
        except GuandanError as e:
            return arbiter_page(request, tid, key, 400, error=str(e))
        return arbiter_page(request, tid, key, message=done)

    @r.post("/t/{tid}/arbiter/pair", response_class=HTMLResponse)
    def arbiter_pair(request: Request, tid: int, key: Annotated[str, Form()]) -> Response:
        return arbiter_action(request, tid, key, lambda d: f"Round {d.pair_next(tid, actor='web:arbiter').number} paired.")

    @r.post("/t/{tid}/arbiter/repair", response_class=HTMLResponse)
    def arbiter_repair(request: Request, tid: int, key: Annotated[str, Form()],
                       reason: Annotated[str, Form()] = "") -> Response:
        return arbiter_action(request, tid, key,
                              lambda d: f"Round {d.repair(tid, reason=reason, actor='web:arbiter').number} re-paired.")

    @r.post("/t/{tid}/arbiter/override", response_class=HTMLResponse)
    def arbiter_override(request: Request, tid: int, key: Annotated[str, Form()], round: Annotated[int, Form()],
                         table: Annotated[int, Form()], reason: Annotated[str, Form()] = "",
                         levels: Annotated[str, Form()] = "", passed_a: Annotated[str, Form()] = "none",
                         forfeit: Annotated[str, Form()] = "", deals: Annotated[str, Form()] = "",
                         decider: Annotated[str, Form()] = "") -> Response:
        def act(d: Desk) -> str:
            try:
                n_deals = int(deals) if deals.strip() else None
            except ValueError:
                raise TournamentError(f"deals played must be a whole number, not {deals!r}") from None
            slip = ResultSlip.parse(levels or None, None if forfeit else passed_a, n_deals, forfeit or None, decider or None)
            d.override(tid, round, table, slip, reason, actor="web:arbiter")
            return f"Round {round} table {table}: result set."
        return arbiter_action(request, tid, key, act)

    @r.get("/t/{tid}/arbiter/slips/{round_no}", response_class=HTMLResponse)
    def arbiter_slips(request: Request, tid: int, round_no: int, key: str | None = None) -> Response:
        try:
            state = load(tid)
            keyed(state, key)
            return HTMLResponse(slips_html(state, round_no, base_url or str(request.base_url)))
        except _Forbidden as e:
            return page(request, "message.html", 403, cfg=None, title="Forbidden", message=str(e))
        except GuandanError as e:
            return problem(request, e)

    # ---- JSON ------------------------------------------------------------------------------------
    @r.get("/api/t/{tid}/standings")
    def api_standings(request: Request, tid: int, after_round: int | None = None) -> Response:
        try:
            state = load(tid)
            out = [s.to_dict() | {"team": state.teams[s.team_id].name} for s in state.standings(after_round)]
        except GuandanError as e:
            return problem(request, e, json=True)
        return JSONResponse({"tournament": tid, "name": state.cfg.name, "tiebreaks": list(state.cfg.tiebreaks),
                             "completed_rounds": state.completed_rounds, "standings": out})

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
            rnd = state.round(round_no)
        except GuandanError as e:
            return problem(request, e, json=True)
        tables = [{"table": t.table.number, "home": t.table.home, "away": t.table.away, "status": t.status,
                   "source": t.source, "result": t.final.to_dict() if t.final else None,
                   "pending": t.pending.to_dict() if t.pending else None} for t in rnd.tables.values()]
        return JSONResponse({"round": round_no, "method": rnd.method, "seed": rnd.seed, "bye": rnd.bye,
                             "tables": tables, "rows": table_rows(state, round_no)})

    @r.post("/api/t/{tid}/table/{round_no}/{table_no}/result")
    def api_enter(request: Request, tid: int, round_no: int, table_no: int,
                  body: Annotated[dict[str, Any], Body()]) -> Response:
        try:
            enter(tid, round_no, table_no, str(body.get("pin", "")), body.get("levels"), body.get("passed_a"),
                  body.get("deals"), body.get("decider"))
        except GuandanError as e:
            return problem(request, e, json=True)
        return JSONResponse({"status": "entered"})

    @r.post("/api/t/{tid}/table/{round_no}/{table_no}/confirm")
    def api_confirm(request: Request, tid: int, round_no: int, table_no: int,
                    body: Annotated[dict[str, Any], Body()]) -> Response:
        try:
            confirm(tid, round_no, table_no, str(body.get("pin", "")), str(body.get("action", "confirm")),
                    str(body.get("reason", "")))
        except GuandanError as e:
            return problem(request, e, json=True)
        return JSONResponse({"status": "confirmed" if body.get("action", "confirm") == "confirm" else "disputed"})

    @r.get("/api/t/{tid}/log")
    def api_log(request: Request, tid: int, key: str | None = None) -> Response:
        try:
            keyed(load(tid), key)
            events = get_desk().events(tid)
        except _Forbidden as e:
            return JSONResponse({"error": str(e)}, status_code=403)
        except GuandanError as e:
            return problem(request, e, json=True)
        return JSONResponse([e.to_dict() for e in events])

    r.include_router(bracket_router(get_desk))
    return r


class _Forbidden(Exception):
    pass


router = create_router()
