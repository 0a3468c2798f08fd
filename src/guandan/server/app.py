"""The FastAPI app: pages, the lobby's REST API, replays, translations and the table WebSocket.

``create_app(db_url, data_dir)`` builds everything; the database is migrated to head and every live
table is rebuilt from its action log before the first request (a restart loses nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import event
from starlette.exceptions import HTTPException

from ..core.errors import GuandanError, shown
from ..core.rules import PRESET_NAMES
from ..db import make_engine, upgrade_to_head
from ..i18n import N_, unprintable
from . import health, metrics, talk
from .accounts_service import AccountService, AccountSettings, current_me, require_user
from .auth import install as install_accounts
from .bodies import BodyGuardMiddleware
from .clientaddr import ClientAddressMiddleware, TrustedProxies, client_address
from .cluster import Cluster, ClusterSettings, RoutingMiddleware, migration_lock, relayed
from .deal_reviews import deal_record, reviewable_seat
from .headers import SecurityHeadersMiddleware
from .i18n_web import LANGS, strings
from .lobby_list import OPEN_ROOMS_MAX, open_rooms
from .logs import RequestContextMiddleware
from .players import create_router as create_players_router
from .protocol import invalid, say
from .replays import MAX_RECORD_BYTES, check_record, replay_frames
from .reviews import ReviewError, ReviewService
from .rooms import CreateRoomBody, Room, bot_tier_descriptions, bot_tiers, default_bot_tier, hash_token, new_token
from .rules_page import router as rules_router
from .store import Store, new_replay_id
from .table import REFUSALS, ServiceError, Settings, TableService
from .workers import Busy, Priority

STATIC = Path(__file__).parent / "static"
# what a person is told of a refusal that is none of ours (an address nothing answers at, a wrong method)
HTTP_REFUSALS = {404: ("not_found", N_("There is nothing at this address.")),
                 405: ("method_not_allowed", N_("This address does not take this kind of request."))}
HTTP_REFUSED = N_("The server refused this request.")


def _plain_name(name: str) -> str:
    """A seat's or a room's name as given, or a refusal when it holds a character no name may have."""
    if any(unprintable(c) for c in name):
        raise ServiceError("a name may not hold control characters, line breaks or direction marks", 422, "bad_name",
                           words=say(N_("A name may not hold control characters, line breaks or direction marks.")))
    return name


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, le=3)
    name: str = Field(default="", max_length=24)


class TokenBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(min_length=1, max_length=100)


class BotBody(TokenBody):
    seat: int = Field(ge=0, le=3)
    tier: str | None = None


class ReadyBody(TokenBody):
    ready: bool = True


class TokensBody(BaseModel):
    """The seat tokens (and import tokens) a browser holds: whose replays to list."""
    model_config = ConfigDict(extra="forbid", strict=True)
    tokens: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(max_length=500)


class PublicBody(TokenBody):
    public: bool


class ReviewBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0, le=3)


class DealReviewBody(TokenBody):
    ask: bool = True  # False: only its state (a page polling what it asked for)


def _mount_tournament_desk(app: FastAPI, engine: Any) -> None:
    """The tournament desk's pages (/t/…) on the same database, when that subsystem is installed."""
    try:  # imported here: the desk is an optional part of the web app, which runs without it
        from ..tournament.desk import Desk
        from ..tournament.web import create_router
    except ImportError:
        return
    app.include_router(create_router(Desk(engine, migrate=False)))


def _mount_online_events(app: FastAPI, engine: Any, service: TableService) -> Any:
    """Online events (/events/…) on the game server's own tables, when the desk is installed."""
    try:
        from .events_online import install
    except ImportError:
        return None
    return install(app, engine, service)


def _sqlite_wal(dbapi_connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit survives a killed server process (what a restart must not
    # lose) without an fsync per action, which would cap a whole server at ~50 actions/s on a slow disk.
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


ECHO_MAX = 200  # characters of a wrong input a refusal's detail quotes
REPLAYS_KEPT = 16  # replays whose frames stay in memory once opened (the latest opened)


def create_app(db_url: str | None = None, settings: Settings | None = None, *, dev: bool = False,
               accounts: AccountSettings | None = None, cluster: ClusterSettings | None = None) -> FastAPI:
    """``dev``: also serve the API's OpenAPI schema (/openapi.json) and its pages (/docs, /redoc);
    ``accounts``: the accounts' limits and password-hash cost (server/accounts_service.py); ``cluster``: this
    process is one worker of a site, with the others in Redis (server/cluster.py), and holds only the tables
    it owns, taking over those of a worker that died."""
    engine = make_engine(db_url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_wal)
    if cluster is None:
        upgrade_to_head(engine)
    else:  # the workers of a site start together: one migrates, the others wait for it
        with migration_lock(cluster):
            upgrade_to_head(engine)
    store = Store(engine)
    service = TableService(store, settings)
    site = Cluster(service, cluster) if cluster is not None else None
    if site is None:
        service.restore()  # a worker of a site takes its tables from the scan instead (Cluster.scan)
    st = service.settings
    reviews = ReviewService(store, service.pool, budget=st.review_budget, queue_max=st.review_queue,
                            per_address=st.review_per_address)
    reviews.restore()

    online_events: Any = None  # set once the app exists (_mount_online_events)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if site is not None:
            await site.start()
        service.resume_all()
        served_metrics.start()
        reviews.start()
        if online_events is not None:
            online_events.start()
        yield
        if online_events is not None:
            await online_events.close()
        await reviews.close()
        await served_metrics.close()
        if site is not None:
            await site.close()  # the tables' writes committed and their leases freed: others take them at once
        await service.close()
        engine.dispose()

    app = FastAPI(title="guandan", lifespan=lifespan, openapi_url="/openapi.json" if dev else None,
                  docs_url="/docs" if dev else None, redoc_url="/redoc" if dev else None)
    # innermost: it reads the route the router matched from the scope (server/metrics.py)
    app.add_middleware(metrics.MetricsMiddleware)
    # inside the client-address rewrite: a relayed request carries the address the limits count against
    app.add_middleware(RoutingMiddleware, cluster=lambda: site)
    # a body too large, or with a broken character, is refused before anything parses or relays it
    # (server/bodies.py)
    app.add_middleware(BodyGuardMiddleware)
    # outside the two above: their own answers (a relayed one, a refused body) carry the headers too
    app.add_middleware(SecurityHeadersMiddleware, dev=dev)
    # the client address every limit counts against, for HTTP and WebSocket alike (server/clientaddr.py)
    app.add_middleware(ClientAddressMiddleware, proxies=TrustedProxies(service.settings.forwarded_allow_ips))
    # outermost: every log record of a request names it and its table (server/logs.py)
    app.add_middleware(RequestContextMiddleware)
    app.state.service = service
    app.state.cluster = site
    if site is not None:
        site.app = app
    app.state.engine = engine
    served_metrics = metrics.install(app, service)  # /metrics (server/metrics.py)
    health.install(app, engine, service)  # /healthz, /readyz (server/health.py)
    app.state.reviews = reviews
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # browsers ask for /favicon.ico whatever a page links (a page without a link, a bookmark, a tab strip): the
    # site's one icon, not a 404 in every visitor's console
    @app.get("/favicon.ico", include_in_schema=False)
    async def _favicon() -> RedirectResponse:
        return RedirectResponse("/static/icon.svg", status_code=301)
    _mount_tournament_desk(app, engine)
    # an online event's clock and its tables live in one process: a site of several workers does not run them
    online_events = _mount_online_events(app, engine, service) if site is None else None
    app.include_router(rules_router)  # /rules: the rules document (规则)
    app.include_router(create_players_router(engine))  # /u/{username}, /leaderboard and their JSON (ratings)
    account_service = AccountService(engine, accounts)
    install_accounts(app, account_service)  # optional accounts: /api/auth/…, /api/me, /account
    if online_events is not None:  # a deleted account's name leaves the online events too
        account_service.on_delete.append(online_events.forget_account)

    # every refusal names its code, says why in English (detail) and for people in every page language (text)
    @app.exception_handler(ServiceError)
    async def _service_error(_req: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(_req: Request, exc: RequestValidationError) -> Response:
        """A body or query that does not validate: FastAPI's list of errors (each its place and problem) stays
        the detail; the text names the first one's field and problem (protocol.invalid)."""
        errors = exc.errors()
        # the detail quotes each wrong input: a long one is cut (a request may be up to server/bodies.py's limit)
        detail = [{**e, "input": e["input"][:ECHO_MAX] + "…"} if isinstance(e.get("input"), str)
                  and len(e["input"]) > ECHO_MAX else e for e in errors]
        body = {"error": "bad_request", "detail": jsonable_encoder(detail), "text": invalid(errors).texts()}
        try:
            return JSONResponse(body, status_code=422)
        except UnicodeEncodeError:  # the detail echoes an input with a lone surrogate (JSON allows \ud800)
            return Response(json.dumps(body, ensure_ascii=True), status_code=422, media_type="application/json")

    @app.exception_handler(HTTPException)
    async def _http_error(_req: Request, exc: HTTPException) -> Response:
        code, msgid = HTTP_REFUSALS.get(exc.status_code, ("refused", HTTP_REFUSED))
        return JSONResponse({"error": code, "detail": exc.detail, "text": say(msgid).texts()},
                            status_code=exc.status_code, headers=exc.headers)

    def no_replay(replay_id: str) -> ServiceError:
        return ServiceError(f"no replay {shown(replay_id)}", 404, "no_replay",
                            words=say(N_("There is no replay {id}."), id=replay_id))

    client = client_address  # a Request or a WebSocket: the same rule (server/clientaddr.py)

    async def check_join_rate(req: Request) -> None:
        """Creates, joins and imports per client address: counted across every worker of a site."""
        if site is None:
            service.check_join_rate(client(req))
        elif not await site.allow("join", client(req), st.join_rate_per_min / 60, st.join_burst):
            service.refuse_join_rate()

    # --- pages -----------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/r/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/replay/{replay_id}", include_in_schema=False)
    async def replay_page(replay_id: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/r/{code}/review/{deal}", include_in_schema=False)
    async def deal_review_page(code: str, deal: int) -> FileResponse:
        """The replay page, showing a finished deal of the match in play and its review (server/deal_reviews.py)."""
        return FileResponse(STATIC / "replay.html")

    # --- lobby API ------------------------------------------------------------------------
    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {"presets": list(PRESET_NAMES), "tiers": bot_tiers(), "default_tier": default_bot_tier(),
                # what each tier is, in each language, where a bot is chosen (the start page's selects)
                "tier_descriptions": bot_tier_descriptions(LANGS),
                "langs": list(LANGS), "talk": {"phrases": talk.PHRASES, "emotes": talk.EMOTES},
                # matches of four bots to watch are offered (serve --max-watched-tables 0: not, nor the start page's button)
                "watch": service.settings.watching,
                # online events are played here (the start page links to their list, /events): not in a site of many workers
                "events": online_events is not None}

    @app.post("/api/rooms", status_code=201)
    async def create_room(req: Request, body: CreateRoomBody) -> dict[str, Any]:
        """A room in the lobby, or with ``"watch": true`` a room of four bots started at once as a match to watch
        (TableService.create_room): the start page's one tap, refused whole or made whole."""
        await check_join_rate(req)
        config = body.config()
        _plain_name(config.name)
        if config.award is not None:  # an online event's lateness award is the server's to give
            raise ServiceError("award is set by the server for an online event's table only", 400, "bad_request",
                               words=say(N_("These rule settings are not valid: the room was not created.")))
        room, host_token = service.create_room(config, client(req), watch=body.watch)
        answer = {"code": room.code, "host_token": host_token, "link": f"/r/{room.code}", "room": room.summary()}
        await service.committed(room.code)  # the room is told of once its row is in the database
        return answer

    @app.get("/api/rooms/open")  # before /api/rooms/{code}: routes match in the order they are declared
    async def rooms_open() -> dict[str, Any]:
        """The lobbies with an open seat that their creators listed, newest first (server/lobby_list.py)."""
        if site is not None:
            return {"rooms": await site.open_rooms(OPEN_ROOMS_MAX)}
        return {"rooms": open_rooms(service.rooms, service.clock())}

    @app.get("/api/rooms/{code}")
    async def get_room(code: str, token: Annotated[str | None, Query(max_length=100)] = None) -> dict[str, Any]:
        """``token``: a seat token of this room (or the host token of a match of four bots), which also gets the
        finished match's ``replay_id``."""
        room = await service.find(code)
        return service.summary(room, player=room.owns_replay(token))

    @app.post("/api/rooms/{code}/join")
    async def join(req: Request, code: str, body: JoinBody) -> dict[str, Any]:
        await check_join_rate(req)
        name, user_id, owner_id = _plain_name(body.name.strip()), None, None
        if (await service.find(code)).config.rated:  # a rated seat is an account's: its session, with the CSRF token
            me = require_user(req, write=True)
            name, user_id = me.user.display_name or me.user.username or "", me.user.id
        else:  # a logged-in player's seat is its account's: the match joins its games list, seen from any device
            # (the session cookie is SameSite=Lax and the body JSON: another site cannot seat someone this way)
            joined = current_me(req)
            owner_id = joined.user.id if joined is not None else None
        token = service.join(code, body.seat, name, user_id, owner_id)
        return await committed(code, {"token": token, "seat": body.seat, "room": service.summary(service.room(code))})

    # a lobby change is answered once the room's row holds it: the answer (the room as the change left it)
    # is taken first, and the loop, shared by every table, awaits the commit rather than waits for it
    async def committed(code: str, answer: dict[str, Any]) -> dict[str, Any]:
        await service.committed(code)
        return answer

    @app.post("/api/rooms/{code}/leave")
    async def leave(code: str, body: TokenBody) -> dict[str, Any]:
        await service.find(code)
        service.leave(code, body.token)
        return await committed(code, service.summary(service.room(code)))

    @app.post("/api/rooms/{code}/bots")
    async def bots(code: str, body: BotBody) -> dict[str, Any]:
        await service.find(code)
        service.set_bot(code, body.seat, body.tier, body.token)
        return await committed(code, service.summary(service.room(code)))

    @app.post("/api/rooms/{code}/ready")
    async def ready(code: str, body: ReadyBody) -> dict[str, Any]:
        await service.find(code)
        service.ready(code, body.token, body.ready)
        return await committed(code, service.summary(service.room(code)))

    @app.post("/api/rooms/{code}/watch")
    async def watch(req: Request, code: str, body: TokenBody) -> dict[str, Any]:
        """The creator starts a room of four bots as a match to watch (TableService.watch): the room as it
        started."""
        await service.find(code)
        service.watch(code, body.token, client(req))
        return await committed(code, service.summary(service.room(code)))

    # --- an account's seats, on any device --------------------------------------------------
    @app.get("/api/me/tables")
    def my_tables(req: Request) -> dict[str, Any]:
        """The rooms not over where the caller's account holds a seat it took (Store.account_seats): the start
        page's way back to them from a device that has not the seat's token."""
        return {"tables": store.account_seats(require_user(req).user.id)}

    @app.post("/api/rooms/{code}/reclaim")
    async def reclaim(req: Request, code: str) -> dict[str, Any]:
        """The seat of this room that the caller's account took, for this device: a fresh seat token, and the
        device that held the seat is told and watches from then on (TableService.reclaim). The session and its
        CSRF token: no other account, nor a guest, nor another site's page gets a seat this way."""
        me = require_user(req, write=True)
        await check_join_rate(req)
        room = await service.find(code)
        token, seat = service.reclaim(room.code, me.user.id)
        return await committed(room.code, {"token": token, "seat": seat, "link": f"/r/{room.code}",
                                           "room": service.summary(service.room(room.code))})

    # --- replays --------------------------------------------------------------------------
    # Private by default: a replay is listed to its owners (the seat tokens that played it, the token an
    # import was answered with) and, once one of them marks it public, to everyone. Its id is its link.
    @app.get("/api/replays")
    async def replays() -> list[dict[str, Any]]:
        """The public replays."""
        return store.replays()

    @app.post("/api/replays/mine")
    async def my_replays(body: TokensBody) -> list[dict[str, Any]]:
        """The replays these tokens played (``mine``), and the public ones."""
        return store.replays({hash_token(t) for t in body.tokens})

    @app.post("/api/replays/{replay_id}/public")
    async def mark_public(replay_id: str, body: PublicBody) -> dict[str, Any]:
        # queued behind the tables' writes, and awaited: the loop they share never waits for the writer
        done = await asyncio.wrap_future(store.later(store.set_public, replay_id, hash_token(body.token), body.public))
        if done is None:
            raise no_replay(replay_id)
        if not done:
            raise ServiceError("only a player of this match (with the seat token it played with) may change who "
                               "sees its replay", 403, "forbidden", words=say(
                                   N_("Only a player of this match, with the seat token it was played with, may "
                                      "change who sees its replay.")))
        return {"id": replay_id, "public": body.public}

    @app.get("/api/replays/{replay_id}/record")
    async def export_record(replay_id: str) -> Response:
        text = store.replay(replay_id)
        if text is None:
            raise no_replay(replay_id)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="guandan-{replay_id}.json"'})

    # a replay's frames never change: the latest few opened are kept, the others re-run in a worker
    replayed: OrderedDict[str, dict[str, Any]] = OrderedDict()

    @app.get("/api/replays/{replay_id}")
    async def replay(replay_id: str) -> dict[str, Any]:
        text = store.replay(replay_id)
        if text is None:
            raise no_replay(replay_id)
        frames = replayed.get(replay_id)
        if frames is None:
            try:  # re-running a whole match takes tens of milliseconds: never on the loop the tables share
                frames = await service.pool.run(Priority.HINT, replay_frames, text)
            except Busy:
                raise ServiceError("the server is busy", 503, "busy", words=say(REFUSALS["busy"])) from None
            except GuandanError as e:
                raise ServiceError(f"the stored record does not replay: {e}", 422, "bad_record", words=say(
                    N_("The stored record of this replay does not replay: it cannot be shown."))) from None
            replayed[replay_id] = frames
            while len(replayed) > REPLAYS_KEPT:
                replayed.popitem(last=False)
        replayed.move_to_end(replay_id)
        return {**frames, "id": replay_id, "public": bool(store.replay_public(replay_id))}

    # --- reviews (复盘) of a replay: whoever may open the replay may ask for one and see it ----------
    @app.exception_handler(ReviewError)
    async def _review_error(_req: Request, exc: ReviewError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.get("/api/replays/{replay_id}/reviews")
    async def replay_reviews(replay_id: str) -> dict[str, Any]:
        """Every review of the replay's seats: status and progress, the review once done."""
        if store.replay_public(replay_id) is None:
            raise no_replay(replay_id)
        return {"reviews": await reviews.states(replay_id), "settings": reviews.settings_json()}

    @app.post("/api/replays/{replay_id}/reviews", status_code=202)
    async def ask_review(replay_id: str, req: Request, body: ReviewBody) -> dict[str, Any]:
        """Ask for the review of one seat (0–3); asking again for one that exists answers its state."""
        if store.replay_public(replay_id) is None:
            raise no_replay(replay_id)
        return await reviews.request(replay_id, body.seat, client(req))

    # --- the review of a finished deal of a match in play, for the seat asking (server/deal_reviews.py) ---
    async def reviewable(code: str, deal: int, token: str) -> tuple[Room, int]:
        room = await service.find(code)
        return room, reviewable_seat(room, token, deal, event_table=room.code in service.bound)

    @app.post("/api/rooms/{code}/deals/{deal}/replay")
    async def deal_replay(code: str, deal: int, body: TokenBody) -> dict[str, Any]:
        """The match's deals up to the end of ``deal`` (from 0), step by step with every hand, as the replay page
        shows a replay: for a seat of the room, where it may have that deal reviewed."""
        room, seat = await reviewable(code, deal, body.token)
        text = deal_record(room, deal)
        try:  # re-running the deals: never on the loop the tables share
            frames = await service.pool.run(Priority.HINT, partial(replay_frames, in_play=True), text)
        except Busy:
            raise ServiceError("the server is busy", 503, "busy", words=say(REFUSALS["busy"])) from None
        return {**frames, "room": room.code, "deal": deal, "seat": seat}

    @app.post("/api/rooms/{code}/deals/{deal}/review")
    async def deal_review(code: str, deal: int, req: Request, body: DealReviewBody) -> dict[str, Any]:
        """Ask for (``ask``) or look at the review of the asking seat's decisions in ``deal``, answered as a
        replay's reviews are."""
        room, seat = await reviewable(code, deal, body.token)
        state = reviews.request_live(room.code, deal, seat, partial(deal_record, room, deal), client(req), ask=body.ask)
        return {"reviews": [state], "settings": reviews.settings_json()}

    @app.post("/api/replays", status_code=201)
    async def import_replay(req: Request, body: Annotated[Any, Body()]) -> dict[str, Any]:
        await check_join_rate(req)
        text = json.dumps(body, ensure_ascii=False)
        if len(text) > MAX_RECORD_BYTES:  # within the body's limit, but written out as kept it is longer
            raise ServiceError(f"a record is limited to {MAX_RECORD_BYTES} bytes as kept", 413, "too_large", words=say(
                N_("This record is too large: the server keeps records of at most {n} bytes."),
                n=f"{MAX_RECORD_BYTES:,}"))
        token = new_token()  # the importer's: lists the record and may mark it public
        try:  # a long match takes a second to re-run: never on the loop the tables share
            await service.pool.run(Priority.HINT, check_record, text)
        except Busy:
            raise ServiceError("the server is busy", 503, "busy", words=say(REFUSALS["busy"])) from None
        except GuandanError as e:
            raise ServiceError(str(e), 422, "bad_record", words=say(
                N_("This file is not a game record that this server can replay: {problem}"), problem=e)) from None
        replay_id = new_replay_id()
        await asyncio.wrap_future(store.later(store.save_replay, replay_id, text, None, imported=True,
                                              owners=[hash_token(token)]))
        return {"id": replay_id, "link": f"/replay/{replay_id}", "token": token}

    # --- translations ---------------------------------------------------------------------
    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str) -> dict[str, str]:
        if lang not in LANGS:
            raise ServiceError(f"language must be one of {', '.join(LANGS)}", 404, "no_language",
                               words=say(N_("There is no language {lang} here: the pages speak {langs}."), lang=lang,
                                         langs=", ".join(LANGS)))
        return strings(lang)

    # --- the table ------------------------------------------------------------------------
    @app.websocket("/ws/{code}")
    async def ws(websocket: WebSocket, code: str, token: str | None = None) -> None:
        await websocket.accept()
        if site is not None and not relayed(websocket.scope):
            try:
                while (owner := await site.route(code)) is not None:
                    if await site.relay_socket(websocket, owner, code.upper(), token, client(websocket)):
                        return
                    await asyncio.sleep(site.settings.renew_s / 2)  # the owner is handing it over: soon free
            except ServiceError as e:  # the owner died and no worker took the table in time
                await websocket.send_text(json.dumps(e.frame(), ensure_ascii=False))
                await websocket.close(code=1012)
                return
        try:
            await service.find(code)  # a room that left memory is read without waiting on other rooms' writes
            conn = service.connect(code, token, client(websocket))  # hints and readings are budgeted per address
        except ServiceError as e:
            await websocket.send_text(json.dumps(e.frame(), ensure_ascii=False))
            await websocket.close(code={403: 4403, 410: 4410}.get(e.status, 4404))  # 4410: the room closed
            return

        async def writer() -> None:
            while True:
                text = await conn.queue.get()
                if text is None:
                    if conn.close_code is not None:  # the server ends it (4410: the room closed)
                        with contextlib.suppress(Exception):
                            await websocket.close(code=conn.close_code)
                    return
                await websocket.send_text(text)

        sender = asyncio.create_task(writer())
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                service.frame_in(conn, message.get("text"))
        except (WebSocketDisconnect, RuntimeError, ValidationError):
            pass
        finally:
            service.disconnect(conn)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, timeout=1)
            sender.cancel()

    return app
