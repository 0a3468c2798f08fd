"""A table's own page: the one its slip's QR codes open, where the two teams report and confirm.

Each team signs in with its own 6-digit code (printed on its half of the slip; the QR code carries it in
the address's fragment, which never reaches the server's logs). The server then knows which team acts:
the team that reported a deal or a result cannot confirm it, and wrong codes lock the table after a few
(:meth:`~.desk.Desk.check_code`). The signed-in code is kept in a cookie for this table's address only.

With per-deal reporting (每副牌记分) West's team reports each deal's finishing order and North's team
confirms it; the levels follow from the rules and the round is final by itself at its limits. Otherwise
one team enters the round's final levels and the other confirms. Either way the other team may send an
entry back (to be entered again) or call the arbiter (a dispute: then only the arbiter settles).

* ``/t/{id}/table/{round}/{table}``: the page (``?side=home|away`` names the team the QR code was for).
* ``/api/t/{id}/table/{round}/{table}``: the table as JSON (no codes); POST …/deal, …/answer, …/result and
  …/result/answer with ``{"code": …}`` do what the page's forms do.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Body, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from ..core.errors import GuandanError, shown
from ..i18n import N_
from .deals import SEAT_NAMES, SEATS, DealEntry
from .desk import Desk
from .errors import NotFoundError, TournamentError, refusal
from .levels import level_label, level_name, level_value
from .model import EventConfig, Team
from .online import is_online
from .pagelang import Missing, explain, lang_of, render
from .rounds import ResultSlip
from .state import TableState, TournamentState
from .words import ENDED_WORDS

#: The sides as the page names them (North–South is the home team); seats are deals.SEAT_NAMES.
SIDE_WORDS = {0: N_("North–South"), 1: N_("East–West")}
PLACE_WORDS = (N_("First out"), N_("Second out"), N_("Third out"))
#: What the page says after an action (?done=…), by key.
DONE_WORDS = {
    "signed_in": N_("Signed in. This phone now acts for your team at this table."),
    "signed_out": N_("Signed out."),
    "reported": N_("Deal reported. The other team now confirms it on their phone."),
    "confirmed": N_("Confirmed."),
    "rejected": N_("Sent back: it can be reported again."),
    "disputed": N_("Disputed: the arbiter has been called and settles it."),
    "entered": N_("Result entered. The other team now confirms it on their phone."),
}
ACTIONS = ("confirm", "reject", "dispute")
#: Why an online event's table has no page here (nor a QR code to one).
NO_TABLE_PAGES = N_("An online event has no score-entry pages for its tables: they are played and reported on "
                    "this site")


def cookie_name(tid: int, round_no: int, table_no: int) -> str:
    return f"gd_code_{tid}_{round_no}_{table_no}"


def table_path(tid: int, round_no: int, table_no: int) -> str:
    return f"/t/{tid}/table/{round_no}/{table_no}"


def version(ts: TableState) -> str:
    """Changes whenever anything on the table's page would: the page reloads itself when it does."""
    sig = (ts.status, len(ts.deals), ts.pending_deal.number if ts.pending_deal else 0, ts.pending_by,
           ts.pending_deal_by, ts.locked, ts.wrong_codes, ts.note, ts.source, ts.deciding)
    return hashlib.sha256(repr(sig).encode()).hexdigest()[:16]


def deal_json(e: DealEntry) -> dict[str, Any]:
    out = e.to_dict()
    out["levels"] = [level_label(v) for v in e.levels]
    return out


def table_json(state: TournamentState, ts: TableState, now: datetime) -> dict[str, Any]:
    """Everything public about a table: teams, deals, what is waiting, the result, the round's clock."""
    tb = ts.table
    cfg = state.cfg

    def team(tid: int) -> dict[str, Any]:
        t = state.teams[tid]
        return {"id": t.id, "name": t.name, "players": list(t.players)}

    return {
        "tournament": state.id, "round": tb.round, "table": tb.number, "per_deal": cfg.per_deal,
        "home": team(tb.home), "away": team(tb.away), "status": ts.status, "source": ts.source,
        "ended_by": ts.ended_by, "locked": ts.locked, "note": ts.note, "deciding": ts.deciding,
        "decider_deal": None if ts.decider_deal is None else deal_json(ts.decider_deal),
        "levels": [level_label(v) for v in ts.levels_now],
        "max_deals": cfg.limits.max_deals,
        "deals": [deal_json(x) for x in ts.deals],
        "pending_deal": None if ts.pending_deal is None else deal_json(ts.pending_deal) | {
            "by": "home" if ts.pending_deal_by == tb.home else "away"},
        "pending_result": None if ts.pending is None else ts.pending.to_dict() | {
            "by": "home" if ts.pending_by == tb.home else "away"},
        "result": None if ts.final is None else ts.final.to_dict() | {
            "levels": None if ts.final.levels is None else [level_label(level_value(x)) for x in ts.final.levels]},
        "clock": state.round_clock(tb.round, now),
        "version": version(ts),
    }


def create_table_router(get_desk: Callable[[], Desk]) -> APIRouter:
    r = APIRouter()

    def venue_only(tid: int) -> None:
        """Refuses (404) every page and request of a table of an online event: the site's own tables play
        it and report its results, and it has no slips, codes or phones at a venue's tables."""
        if is_online(get_desk(), tid):
            raise Missing(NO_TABLE_PAGES)

    def signed_side(request: Request, tid: int, round_no: int, table_no: int) -> int | None:
        """The side whose code this browser holds for the table (checked again: a stale or forged cookie
        counts as a wrong code)."""
        code = request.cookies.get(cookie_name(tid, round_no, table_no))
        if not code:
            return None
        return get_desk().check_code(tid, round_no, table_no, code, actor="web")

    def page(request: Request, tid: int, round_no: int, table_no: int, status: int = 200,
             error: BaseException | None = None, sent: dict[str, str] | None = None) -> Response:
        """The table's page; after a refused form, ``sent`` is what it held, which the page's form keeps so that
        the team corrects it rather than entering it all again."""
        lang = lang_of(request)
        try:
            venue_only(tid)
            view = get_desk().peek(tid, lambda st: _view(st, round_no, table_no))
        except GuandanError as e:
            ex = explain(e, lang)
            return render(request, "message.html", 404 if isinstance(e, NotFoundError) else 400, cfg=None,
                          title=ex.headline, message=ex.detail, error=ex)
        side: int | None = None
        signed_error: BaseException | None = None
        try:
            side = signed_side(request, tid, round_no, table_no)
        except TournamentError as e:
            signed_error = e
            view = get_desk().peek(tid, lambda st: _view(st, round_no, table_no))  # the refusal was logged
        cfg, home, away, ts, clock = view
        tb = ts.table
        done = request.query_params.get("done")
        asked_side = request.query_params.get("side")
        shown_error = error or signed_error
        response = render(
            request, "entry.html", status, cfg=cfg, t=ts, tb=tb, home=home,
            away=away, side=side, team_of_side={0: home, 1: away},
            asked_side={"home": 0, "away": 1}.get(asked_side or ""),
            error=None if shown_error is None else explain(shown_error, lang),
            message=DONE_WORDS.get(done or ""), clock=clock, seats=SEATS,
            seat_words=SEAT_NAMES, side_words=SIDE_WORDS, place_words=PLACE_WORDS, ended_words=ENDED_WORDS,
            level=level_label, label_of=lambda name: level_label(level_value(name)), final_levels=_final_levels(ts),
            levels=[(level_name(v), level_label(v)) for v in range(2, 15)],
            base=table_path(tid, round_no, table_no), version=version(ts),
            api=f"/api{table_path(tid, round_no, table_no)}", sent=sent or {})
        if signed_error is not None:
            response.delete_cookie(cookie_name(tid, round_no, table_no), path=table_path(tid, round_no, table_no))
        return response

    def done(request: Request, tid: int, round_no: int, table_no: int, what: str) -> Response:
        """Back to the table's page (Post/Redirect/Get), saying ``what`` was done, in the page's language: the
        forms post with it in their address, and the address a phone reloads keeps it (the cookie may say
        another, set by another page read on the same phone)."""
        query = urlencode({"lang": lang_of(request), "done": what})
        return RedirectResponse(f"{table_path(tid, round_no, table_no)}?{query}", status_code=303)

    def acting_team(request: Request, tid: int, round_no: int, table_no: int) -> int:
        side = signed_side(request, tid, round_no, table_no)
        if side is None:
            raise TournamentError("sign in with your team's code first",
                                  msgid=N_("Sign in with your team's code first."))
        return get_desk().peek(tid, lambda st: st.table(round_no, table_no).table.teams()[side])

    @r.get("/t/{tid}/table/{round_no}/{table_no}")
    def table_get(request: Request, tid: int, round_no: int, table_no: int) -> Response:
        return page(request, tid, round_no, table_no)

    @r.post("/t/{tid}/table/{round_no}/{table_no}/code")
    def sign_in(request: Request, tid: int, round_no: int, table_no: int,
                code: Annotated[str, Form(max_length=40)]) -> Response:
        try:
            venue_only(tid)
            get_desk().check_code(tid, round_no, table_no, code, actor="web")
        except GuandanError as e:
            return page(request, tid, round_no, table_no, 400, e)
        response = done(request, tid, round_no, table_no, "signed_in")
        response.set_cookie(cookie_name(tid, round_no, table_no), "".join(code.split()),
                            path=table_path(tid, round_no, table_no), httponly=True, samesite="strict",
                            max_age=12 * 3600, secure=request.url.scheme == "https")
        return response

    @r.post("/t/{tid}/table/{round_no}/{table_no}/leave")
    def sign_out(request: Request, tid: int, round_no: int, table_no: int) -> Response:
        try:
            venue_only(tid)
        except GuandanError as e:
            return page(request, tid, round_no, table_no, 400, e)
        response = done(request, tid, round_no, table_no, "signed_out")
        response.delete_cookie(cookie_name(tid, round_no, table_no), path=table_path(tid, round_no, table_no))
        return response

    def act(request: Request, tid: int, round_no: int, table_no: int, what: str,
            action: Callable[[Desk, int], None], sent: dict[str, str] | None = None) -> Response:
        try:
            venue_only(tid)
            team = acting_team(request, tid, round_no, table_no)
            action(get_desk(), team)
        except GuandanError as e:
            return page(request, tid, round_no, table_no, 400, e, sent)
        return done(request, tid, round_no, table_no, what)

    @r.post("/t/{tid}/table/{round_no}/{table_no}/deal")
    def report(request: Request, tid: int, round_no: int, table_no: int,
               deal: Annotated[int, Form()], first: Annotated[str, Form(max_length=8)] = "",
               second: Annotated[str, Form(max_length=8)] = "", third: Annotated[str, Form(max_length=8)] = "") -> Response:
        def run(d: Desk, team: int) -> None:
            if not (first and second and third):
                raise TournamentError("choose who went out first, second and third",
                                      msgid=N_("Choose who went out first, second and third."))
            d.report_deal(tid, round_no, table_no, deal, [first, second, third], team, actor="web")
        return act(request, tid, round_no, table_no, "reported", run,
                   {"first": first, "second": second, "third": third})

    @r.post("/t/{tid}/table/{round_no}/{table_no}/answer")
    def answer(request: Request, tid: int, round_no: int, table_no: int, deal: Annotated[int, Form()],
               action: Annotated[str, Form(max_length=10)], reason: Annotated[str, Form(max_length=200)] = "") -> Response:
        def run(d: Desk, team: int) -> None:
            _answer_deal(d, tid, round_no, table_no, deal, action, reason, team)
        return act(request, tid, round_no, table_no, _done_of(action), run)

    @r.post("/t/{tid}/table/{round_no}/{table_no}/result")
    def enter(request: Request, tid: int, round_no: int, table_no: int,
              home_level: Annotated[str, Form(max_length=3)], away_level: Annotated[str, Form(max_length=3)],
              passed_a: Annotated[str, Form(max_length=8)] = "none",
              deals: Annotated[str, Form(max_length=4)] = "", decider: Annotated[str, Form(max_length=8)] = "") -> Response:
        def run(d: Desk, team: int) -> None:
            d.enter_result(tid, round_no, table_no, _slip([home_level, away_level], passed_a, deals, decider), team,
                           actor="web")
        return act(request, tid, round_no, table_no, "entered", run, {
            "home_level": home_level, "away_level": away_level, "passed_a": passed_a, "deals": deals,
            "decider": decider})

    @r.post("/t/{tid}/table/{round_no}/{table_no}/result/answer")
    def answer_result(request: Request, tid: int, round_no: int, table_no: int,
                      action: Annotated[str, Form(max_length=10)],
                      reason: Annotated[str, Form(max_length=200)] = "") -> Response:
        def run(d: Desk, team: int) -> None:
            _answer_result(d, tid, round_no, table_no, action, reason, team)
        return act(request, tid, round_no, table_no, _done_of(action), run)

    # ---- JSON --------------------------------------------------------------------------------------
    def api_error(e: GuandanError) -> Response:
        return JSONResponse({"error": str(e), "msgid": getattr(e, "msgid", None)},
                            status_code=404 if isinstance(e, NotFoundError) else 400)

    def api_team(tid: int, round_no: int, table_no: int, body: dict[str, Any]) -> int:
        code = body.get("code")
        if not isinstance(code, str):
            raise refusal(N_('give your team\'s code as a string: {{"code": "123456"}}'))
        side = get_desk().check_code(tid, round_no, table_no, code, actor="api")
        return get_desk().peek(tid, lambda st: st.table(round_no, table_no).table.teams()[side])

    @r.get("/api/t/{tid}/table/{round_no}/{table_no}")
    def api_table(tid: int, round_no: int, table_no: int) -> Response:
        try:
            venue_only(tid)
            d = get_desk()
            now = d.now()
            return JSONResponse(d.peek(tid, lambda st: table_json(st, st.table(round_no, table_no), now)))
        except GuandanError as e:
            return api_error(e)

    def api_act(tid: int, round_no: int, table_no: int, body: Any, action: Callable[[Desk, int, dict[str, Any]], None]
                ) -> Response:
        try:
            venue_only(tid)
            if not isinstance(body, dict):
                raise refusal(N_("the request body must be a JSON object"))
            team = api_team(tid, round_no, table_no, body)
            d = get_desk()
            action(d, team, body)
            now = d.now()
            return JSONResponse(d.peek(tid, lambda st: table_json(st, st.table(round_no, table_no), now)))
        except GuandanError as e:
            return api_error(e)

    @r.post("/api/t/{tid}/table/{round_no}/{table_no}/deal")
    def api_deal(tid: int, round_no: int, table_no: int, body: Annotated[Any, Body()]) -> Response:
        def run(d: Desk, team: int, b: dict[str, Any]) -> None:
            n = b.get("deal")
            if n is None:
                n = len(d.state(tid).table(round_no, table_no).deals) + 1
            if not isinstance(n, int) or isinstance(n, bool):
                raise refusal(N_("deal must be a deal number, not {value}"), value=shown(n))
            d.report_deal(tid, round_no, table_no, n, b.get("finish"), team, actor="api")
        return api_act(tid, round_no, table_no, body, run)

    @r.post("/api/t/{tid}/table/{round_no}/{table_no}/answer")
    def api_answer(tid: int, round_no: int, table_no: int, body: Annotated[Any, Body()]) -> Response:
        def run(d: Desk, team: int, b: dict[str, Any]) -> None:
            n = b.get("deal")
            if not isinstance(n, int) or isinstance(n, bool):
                raise refusal(N_("deal must be the number of the deal waiting, not {value}"), value=shown(n))
            _answer_deal(d, tid, round_no, table_no, n, str(b.get("action", "")), str(b.get("reason") or ""), team)
        return api_act(tid, round_no, table_no, body, run)

    @r.post("/api/t/{tid}/table/{round_no}/{table_no}/result")
    def api_result(tid: int, round_no: int, table_no: int, body: Annotated[Any, Body()]) -> Response:
        def run(d: Desk, team: int, b: dict[str, Any]) -> None:
            d.enter_result(tid, round_no, table_no, _slip(b.get("levels"), b.get("passed_a"), b.get("deals"),
                                                          b.get("decider")), team, actor="api")
        return api_act(tid, round_no, table_no, body, run)

    @r.post("/api/t/{tid}/table/{round_no}/{table_no}/result/answer")
    def api_result_answer(tid: int, round_no: int, table_no: int, body: Annotated[Any, Body()]) -> Response:
        def run(d: Desk, team: int, b: dict[str, Any]) -> None:
            _answer_result(d, tid, round_no, table_no, str(b.get("action", "")), str(b.get("reason") or ""), team)
        return api_act(tid, round_no, table_no, body, run)

    return r


def _done_of(action: str) -> str:
    return {"confirm": "confirmed", "reject": "rejected", "dispute": "disputed"}.get(action, "confirmed")


def _check_action(action: str) -> None:
    if action not in ACTIONS:
        raise refusal(N_("action must be confirm, reject or dispute, not {value}"), value=shown(action))


def _answer_deal(d: Desk, tid: int, round_no: int, table_no: int, deal: int, action: str, reason: str,
                 team: int) -> None:
    _check_action(action)
    if action == "confirm":
        d.confirm_deal(tid, round_no, table_no, deal, team, actor="web")
    elif action == "reject":
        d.reject_deal(tid, round_no, table_no, deal, team, reason, actor="web")
    else:
        d.dispute_deal(tid, round_no, table_no, deal, team, reason, actor="web")


def _answer_result(d: Desk, tid: int, round_no: int, table_no: int, action: str, reason: str, team: int) -> None:
    _check_action(action)
    if action == "confirm":
        d.confirm(tid, round_no, table_no, team, actor="web")
    elif action == "reject":
        d.reject(tid, round_no, table_no, team, reason, actor="web")
    else:
        d.dispute(tid, round_no, table_no, team, reason, actor="web")


def _slip(levels: Any, passed_a: Any, deals: Any, decider: Any = None) -> ResultSlip:
    try:
        n_deals = None if deals in (None, "") else int(deals)
    except (TypeError, ValueError):
        raise refusal(N_("deals played must be a whole number, not {value}"), value=shown(deals)) from None
    return ResultSlip.from_dict({"levels": levels, "passed_a": None if passed_a in ("none", "", None) else passed_a,
                                 "deals": n_deals, "decider": None if decider in ("none", "", None) else decider})


def _view(state: TournamentState, round_no: int, table_no: int) -> tuple[EventConfig, Team, Team, TableState,
                                                                       dict[str, Any]]:
    """What a table's page shows, taken out of the desk's state: the event's (frozen) configuration and
    teams, a copy of the one table, and the round's clock."""
    ts = state.table(round_no, table_no)
    tb = ts.table
    return state.cfg, state.teams[tb.home], state.teams[tb.away], copy.deepcopy(ts), state.round_clock(round_no)


def _final_levels(ts: TableState) -> tuple[str, str] | None:
    if ts.result is None:
        return None
    return level_label(ts.result.levels[0]), level_label(ts.result.levels[1])
