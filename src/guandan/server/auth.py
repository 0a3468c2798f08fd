"""The accounts' REST API and page: sign-up, log-in, log-out (this session, the others, or all), password
change, deletion, the account's replays, and ``/account`` (the page that does all of it).

Every change made on the strength of the session cookie needs the session's CSRF token in the
``X-CSRF-Token`` header (``/api/me`` and the answers to log-in and sign-up carry it). Log-in and sign-up
have no session yet: they take JSON only (which no cross-site form can send without the browser
asking first) and refuse a request the browser marks as coming from another site (``Sec-Fetch-Site``).
The services are :mod:`guandan.server.accounts_service`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..db.accounts import User
from ..i18n import N_
from .accounts_service import (
    SESSION_COOKIE,
    AccountError,
    AccountService,
    Me,
    aware,
    csrf_token,
    current_me,
    require_user,
)
from .clientaddr import client_address
from .protocol import say

STATIC = Path(__file__).parent / "static"
Token = Annotated[str, Field(min_length=1, max_length=100)]
# generous bounds, only against a hostile body: the real rules are checked with their own messages
Text = Annotated[str, Field(max_length=1000)]


class SignupBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    username: Text = ""
    password: Text = ""
    display_name: Text = ""
    tokens: list[Token] = Field(default_factory=list, max_length=500)  # the guest's seat and import tokens


class LoginBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    username: Text = ""
    password: Text = ""
    tokens: list[Token] = Field(default_factory=list, max_length=500)


class LogoutBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    scope: Literal["this", "others", "everywhere"] = "this"


class PasswordBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    old_password: Text = ""
    new_password: Text = ""


class DeleteBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    password: Text = ""


class ProfileBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    display_name: Text = ""


class ClaimBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    tokens: list[Token] = Field(max_length=500)


def user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "username": user.username, "display_name": user.display_name,
            "created_at": aware(user.created_at).isoformat(), "organiser": bool(user.organiser)}


def _same_site_only(req: Request) -> None:
    if req.headers.get("sec-fetch-site", "") in ("cross-site", "same-site"):
        raise AccountError("log-in and sign-up are taken from this site's own pages only", 403, "cross_site",
                           words=say(N_("Logging in and signing up work only from the pages of this site.")))


def _https(req: Request) -> bool:
    """Whether the browser reached us over https, directly or through a TLS proxy that says so. Believing a
    forged X-Forwarded-Proto costs nothing: a Secure cookie is only withheld from plain http."""
    return req.url.scheme == "https" or req.headers.get("x-forwarded-proto", "").strip().lower() == "https"


def _set_session(req: Request, resp: Response, accounts: AccountService, session_id: str) -> None:
    resp.set_cookie(SESSION_COOKIE, session_id, max_age=int(accounts.settings.session_idle.total_seconds()),
                    path="/", httponly=True, samesite="lax", secure=_https(req))


def _end_session(req: Request, resp: Response) -> None:
    resp.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_https(req))


def create_router(accounts: AccountService) -> APIRouter:
    router = APIRouter()

    def logged_in(user: User, session_id: str, **extra: Any) -> dict[str, Any]:
        return {"user": user_json(user), "csrf": csrf_token(session_id), **extra}

    @router.get("/account", include_in_schema=False)
    def account_page() -> FileResponse:
        return FileResponse(STATIC / "account.html")

    # sync handlers: password hashing and the database run in the thread pool, off the event loop
    @router.post("/api/auth/signup", status_code=201)
    def signup(req: Request, resp: Response, body: SignupBody) -> dict[str, Any]:
        _same_site_only(req)
        sid, user = accounts.signup(body.username.strip(), body.password, body.display_name, client_address(req),
                                    req.cookies.get(SESSION_COOKIE), body.tokens)
        _set_session(req, resp, accounts, sid)
        return logged_in(user, sid, replays=accounts.replays(user.id))

    @router.post("/api/auth/login")
    def login(req: Request, resp: Response, body: LoginBody) -> dict[str, Any]:
        _same_site_only(req)
        sid, user = accounts.login(body.username.strip(), body.password, client_address(req),
                                   req.cookies.get(SESSION_COOKIE), body.tokens)
        _set_session(req, resp, accounts, sid)
        return logged_in(user, sid, replays=accounts.replays(user.id))

    @router.post("/api/auth/logout")
    def logout(req: Request, resp: Response, body: LogoutBody | None = None) -> dict[str, Any]:
        """``scope``: ``this`` session (the default), every ``others`` of the account, or ``everywhere``."""
        scope = body.scope if body is not None else "this"
        me = current_me(req)
        if me is None:  # nothing to end: the browser forgets whatever it held
            _end_session(req, resp)
            return {"ended": 0}
        me = require_user(req, write=True)
        ended = accounts.logout(me, scope)
        if scope != "others":
            _end_session(req, resp)
        return {"ended": ended}

    @router.post("/api/auth/password")
    def change_password(req: Request, body: PasswordBody) -> dict[str, Any]:
        """A new password; every other session of the account ends."""
        me = require_user(req, write=True)
        return {"ended": accounts.change_password(me, body.old_password, body.new_password, client_address(req))}

    @router.get("/api/auth/session")
    def session(req: Request, resp: Response) -> dict[str, Any]:
        """Who this browser is, without a refusal for a guest (``user`` null): what the pages ask on load."""
        mine = current_me(req)
        if mine is None:
            if SESSION_COOKIE in req.cookies:  # a session ended elsewhere (another tab's logout, its idle time)
                _end_session(req, resp)
            return {"user": None}
        _set_session(req, resp, accounts, mine.session_id)  # the cookie lasts as long as the session: from its use
        return logged_in(mine.user, mine.session_id)

    @router.get("/api/me")
    def me(req: Request, resp: Response) -> dict[str, Any]:
        mine = require_user(req)
        _set_session(req, resp, accounts, mine.session_id)
        return logged_in(mine.user, mine.session_id, sessions=accounts.session_count(mine.user.id))

    @router.post("/api/me/profile")
    def profile(req: Request, body: ProfileBody) -> dict[str, Any]:
        mine = require_user(req, write=True)
        return {"user": user_json(accounts.set_display_name(mine, body.display_name))}

    @router.delete("/api/me")
    def delete_me(req: Request, resp: Response, body: DeleteBody) -> dict[str, Any]:
        """Delete the account (its password confirms it): its personal data goes, its games stay, anonymous."""
        mine = require_user(req, write=True)
        accounts.delete(mine, body.password, client_address(req))
        _end_session(req, resp)
        return {"deleted": True}

    @router.get("/api/me/replays")
    def my_replays(req: Request) -> dict[str, Any]:
        mine = require_user(req)
        return {"replays": accounts.replays(mine.user.id)}

    @router.post("/api/me/replays/claim")
    def claim(req: Request, body: ClaimBody) -> dict[str, Any]:
        """Own the replays these seat tokens of this browser played (a guest's games, kept by the account)."""
        mine: Me = require_user(req, write=True)
        n = accounts.claim(mine.user.id, body.tokens)
        return {"claimed": n, "replays": accounts.replays(mine.user.id)}

    return router


def install(app: FastAPI, accounts: AccountService) -> None:
    """Mount the accounts' API and page on ``app`` (``app.state.accounts`` is what :func:`current_user` reads)."""
    app.state.accounts = accounts

    @app.exception_handler(AccountError)
    async def _account_error(_req: Request, exc: AccountError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    app.include_router(create_router(accounts))

