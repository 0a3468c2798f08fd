"""Optional accounts: sign-up, log-in and server-side sessions, the wrong-password throttle, password
changes, deletion, and the guest replays an account claims. The tables are :mod:`guandan.db.accounts`.

A session id is 256 random bits that only the browser's cookie holds; the database keeps its SHA-256.
Every log-in and sign-up makes a new id (an id a browser held before is never promoted), and the
CSRF token of a session is derived from its id (:func:`csrf_token`), so a page that did not read it from
this server cannot send it. Wrong passwords are counted per account and per client address in fixed
windows (:class:`AccountSettings`); while either count is at its limit, logging in is refused with the
time it opens again, even with the right password.

Other parts of the web app ask who is calling with :func:`current_user` (a request or a WebSocket) and,
for a change made on the strength of the session cookie, :func:`require_user` with ``write=True``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from argon2 import Parameters, profiles
from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from ..core.errors import shown
from ..db import make_session_factory
from ..db.accounts import LoginThrottle, User, UserReplay, UserSession
from ..db.web import WebReplay, WebReplayOwner, WebRoom, replay_summary
from ..i18n import N_, unprintable
from .passwords import Passwords
from .protocol import say
from .rooms import hash_token
from .table import ServiceError

SESSION_COOKIE = "guandan_session"
CSRF_HEADER = "X-CSRF-Token"
USERNAME_MIN, USERNAME_MAX = 3, 24
DISPLAY_MAX = 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
# names a person could mistake for the server, the arbiter or a bot (the tiers by their wire names)
RESERVED = frozenset({
    "admin", "administrator", "root", "system", "server", "guandan", "arbiter", "referee", "moderator",
    "guest", "anonymous", "deleted", "player", "me", "api", "account", "login", "logout", "signup",
    "bot", "bots", "random", "greedy", "heuristic", "search", "external", "human",
})
RESERVED_PREFIXES = re.compile(r"(bot|player|seat)[\d_-]*")


def _now() -> datetime:
    return datetime.now(UTC)


def aware(t: datetime) -> datetime:
    """SQLite gives back naive datetimes for timezone-aware columns: they were written in UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _text(value: str) -> bool:
    """Whether ``value`` is text UTF-8 can store (JSON may carry a lone surrogate, which it cannot)."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def csrf_token(session_id: str) -> str:
    """The CSRF token of a session: only a page that read it from this server (``/api/me``, the answer to
    log-in or sign-up) knows it, since the session id itself never leaves the HttpOnly cookie."""
    return hashlib.sha256(b"guandan-csrf\0" + session_id.encode()).hexdigest()


@dataclass
class AccountSettings:
    password_parameters: Parameters = field(default_factory=lambda: profiles.RFC_9106_LOW_MEMORY)
    session_idle: timedelta = timedelta(days=30)  # a session unused this long is over
    touch_every: timedelta = timedelta(hours=1)  # how often a used session's last_seen is written
    window: timedelta = timedelta(minutes=15)  # the wrong-password window
    account_failures: int = 5  # wrong passwords for one account per window
    address_failures: int = 20  # wrong passwords from one client address per window (any accounts)
    signups_per_address: int = 10  # accounts made from one address per signup window
    signup_window: timedelta = timedelta(hours=1)


@dataclass
class Me:
    """A logged-in request: its session id (from the cookie) and its account."""

    session_id: str
    user: User


class AccountError(ServiceError):
    """A refused account request; ``retry_after`` (seconds) for a throttled one, sent as Retry-After."""

    def __init__(self, message: str, status: int, code: str, *, words: Any, retry_after: int | None = None) -> None:
        super().__init__(message, status, code, words=words)
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        out = super().body()
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
        return out


def not_logged_in() -> AccountError:
    return AccountError("no session: log in first", 401, "not_logged_in",
                        words=say(N_("You are not logged in: log in first.")))


def check_username(name: str) -> str:
    """The username as typed, or an AccountError saying what is wrong with it."""
    if not name:
        raise AccountError("no username", 422, "bad_username", words=say(N_("Type a username.")))
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise AccountError(f"a username is {USERNAME_MIN} to {USERNAME_MAX} characters long", 422, "bad_username",
                           words=say(N_("A username is {min} to {max} characters long."), min=USERNAME_MIN,
                                     max=USERNAME_MAX))
    if not USERNAME.fullmatch(name):
        raise AccountError("a username holds letters a-z, digits, _ and -, and begins with a letter or digit", 422,
                           "bad_username", words=say(N_(
                               "A username holds only the letters a to z, digits, “_” and “-”, and begins with a "
                               "letter or a digit.")))
    key = name.lower()
    if key in RESERVED or RESERVED_PREFIXES.fullmatch(key):
        raise AccountError(f"the username {shown(name)} is reserved", 422, "reserved_name",
                           words=say(N_("The name “{name}” is reserved: choose another."), name=name))
    return name


def check_display_name(name: str) -> str:
    """A display name trimmed, or an AccountError: 1 to 24 characters, no control characters, not reserved."""
    name = unicodedata.normalize("NFC", name.strip())
    if not 1 <= len(name) <= DISPLAY_MAX or any(unprintable(c) for c in name):
        raise AccountError(f"a display name is 1 to {DISPLAY_MAX} characters, none of them control characters", 422,
                           "bad_display_name", words=say(N_(
                               "A display name is 1 to {max} characters long, with no control characters."),
                               max=DISPLAY_MAX))
    key = name.lower()
    if key in RESERVED or RESERVED_PREFIXES.fullmatch(key.replace(" ", "")):
        raise AccountError(f"the display name {shown(name)} is reserved", 422, "reserved_name",
                           words=say(N_("The name “{name}” is reserved: choose another."), name=name))
    return name


def check_password(password: str, username: str) -> str:
    if len(password) < PASSWORD_MIN:
        raise AccountError(f"a password has at least {PASSWORD_MIN} characters", 422, "weak_password",
                           words=say(N_("A password must be at least {n} characters long."), n=PASSWORD_MIN))
    if len(password) > PASSWORD_MAX:
        raise AccountError(f"a password has at most {PASSWORD_MAX} characters", 422, "bad_password",
                           words=say(N_("A password may be at most {n} characters long."), n=PASSWORD_MAX))
    if password.lower() == username.lower():
        raise AccountError("the password is the username", 422, "weak_password",
                           words=say(N_("The password must not be the username.")))
    return password


class AccountService:
    """Accounts on one database. ``clock`` answers the time (tests set a fake one)."""

    def __init__(self, engine: Engine, settings: AccountSettings | None = None) -> None:
        self.settings = settings or AccountSettings()
        self.sessions = make_session_factory(engine)
        self.passwords = Passwords(self.settings.password_parameters)
        self.clock: Callable[[], datetime] = _now
        # called with (user id, username) once an account is deleted, by the parts that keep its name
        # elsewhere (online events' desks), so that the name goes from there too
        self.on_delete: list[Callable[[int, str], None]] = []

    # --- sessions ---------------------------------------------------------------------------------
    def _new_session(self, s: Session, user_id: int, old_session_id: str | None) -> str:
        """A fresh session for ``user_id``; the session the browser held before (``old_session_id``) ends."""
        now = self.clock()
        if old_session_id:
            s.execute(delete(UserSession).where(UserSession.id_hash == _sha(old_session_id)))
        s.execute(delete(UserSession).where(UserSession.last_seen < now - self.settings.session_idle))
        sid = secrets.token_urlsafe(32)
        s.add(UserSession(id_hash=_sha(sid), user_id=user_id, created_at=now, last_seen=now))
        return sid

    def me(self, session_id: str | None) -> Me | None:
        """The account of a session id (a cookie's value), or None: no such session, expired, or deleted."""
        if not session_id or len(session_id) > 100 or not _text(session_id):
            return None
        now = self.clock()
        with self.sessions.begin() as s:
            row = s.get(UserSession, _sha(session_id))
            if row is None:
                return None
            if aware(row.last_seen) < now - self.settings.session_idle:
                s.delete(row)
                return None
            user = s.get(User, row.user_id)
            if user is None or user.deleted_at is not None:
                return None
            if aware(row.last_seen) < now - self.settings.touch_every:
                row.last_seen = now
            s.flush()
            s.expunge(user)
            return Me(session_id, user)

    def logout(self, me: Me, scope: str = "this") -> int:
        """End this session (``this``), every other one of the account (``others``) or all of them
        (``everywhere``); how many ended."""
        with self.sessions.begin() as s:
            q = delete(UserSession).where(UserSession.user_id == me.user.id)
            if scope == "this":
                q = q.where(UserSession.id_hash == _sha(me.session_id))
            elif scope == "others":
                q = q.where(UserSession.id_hash != _sha(me.session_id))
            return int(s.execute(q).rowcount or 0)  # type: ignore[attr-defined]

    def session_count(self, user_id: int) -> int:
        with self.sessions() as s:
            return len(s.scalars(select(UserSession.id_hash).where(UserSession.user_id == user_id)).all())

    # --- the wrong-password throttle ----------------------------------------------------------------
    def _keys(self, username: str, address: str) -> list[tuple[str, str, int]]:
        st = self.settings
        return [("account", _sha("account:" + username.lower()), st.account_failures),
                ("address", _sha("address:" + address), st.address_failures)]

    def _check_throttle(self, keys: Iterable[tuple[str, str, int]], window: timedelta) -> None:
        now = self.clock()
        with self.sessions() as s:
            for kind, key, limit in keys:
                row = s.get(LoginThrottle, key)
                if row is None or row.failures < limit:
                    continue
                until = aware(row.window_start) + window
                if until <= now:
                    continue
                wait = max(1, math.ceil((until - now).total_seconds()))
                minutes = max(1, math.ceil(wait / 60))
                if kind == "account":
                    words = say(N_("Too many wrong passwords for this account: try again in {n} min."), n=minutes)
                elif kind == "address":
                    words = say(N_("Too many wrong passwords from this address: try again in {n} min."), n=minutes)
                else:
                    words = say(N_("Too many accounts made from this address: try again in {n} min."), n=minutes)
                raise AccountError(f"too many attempts ({kind}); retry after {wait} s", 429, "throttled",
                                   words=words, retry_after=wait)

    def _count(self, keys: Iterable[tuple[str, str, int]], window: timedelta) -> None:
        """One more failure (or sign-up) against each key; windows that are over start again."""
        now = self.clock()
        keys = list(keys)
        for attempt in range(2):  # two first failures at once may both insert: the second try updates
            try:
                with self.sessions.begin() as s:
                    s.execute(delete(LoginThrottle).where(LoginThrottle.window_start < now - max(
                        window, self.settings.window, self.settings.signup_window)))
                    for kind, key, _limit in keys:
                        row = s.get(LoginThrottle, key)
                        if row is None:
                            s.add(LoginThrottle(key_hash=key, kind=kind, failures=1, window_start=now))
                        elif aware(row.window_start) + window <= now:
                            row.failures, row.window_start = 1, now
                        else:
                            row.failures += 1
                return
            except IntegrityError:
                if attempt:
                    raise

    def _forget(self, s: Session, key: str) -> None:
        s.execute(delete(LoginThrottle).where(LoginThrottle.key_hash == key))

    # --- sign-up, log-in, changes, deletion --------------------------------------------------------
    def signup(self, username: str, password: str, display_name: str, address: str,
               old_session_id: str | None = None, tokens: Iterable[str] = ()) -> tuple[str, User]:
        """A new account and its first session: (session id, account)."""
        username = check_username(username)
        display = check_display_name(display_name or username)
        check_password(password, username)
        signups = [("signup", _sha("signup:" + address), self.settings.signups_per_address)]
        self._check_throttle(signups, self.settings.signup_window)
        with self.sessions() as s:
            if s.scalar(select(User.id).where(User.username_key == username.lower())) is not None:
                raise self._taken(username)
        hashed = self.passwords.hash(password)
        try:
            with self.sessions.begin() as s:
                user = User(username=username, username_key=username.lower(), display_name=display,
                            password_hash=hashed, created_at=self.clock())
                s.add(user)
                s.flush()
                sid = self._new_session(s, user.id, old_session_id)
                s.flush()
                s.expunge(user)
        except IntegrityError:  # the same name signed up meanwhile
            raise self._taken(username) from None
        self._count(signups, self.settings.signup_window)
        self.claim(user.id, tokens)
        return sid, user

    @staticmethod
    def _taken(username: str) -> AccountError:
        return AccountError(f"the username {shown(username)} is taken", 409, "username_taken",
                            words=say(N_("The username “{name}” is taken: choose another."), name=username))

    def login(self, username: str, password: str, address: str, old_session_id: str | None = None,
              tokens: Iterable[str] = ()) -> tuple[str, User]:
        """A new session for the account whose password this is: (session id, account)."""
        if not username or not password:
            raise AccountError("username and password are both needed", 422, "bad_login",
                               words=say(N_("Type your username and your password.")))
        keys = self._keys(username, address)
        self._check_throttle(keys, self.settings.window)
        user = None
        if USERNAME.fullmatch(username) and len(username) <= USERNAME_MAX:  # any other name is no account's
            with self.sessions() as s:
                user = s.scalar(select(User).where(User.username_key == username.lower(), User.deleted_at.is_(None)))
        if user is None or not self.passwords.verify(user.password_hash, password[:PASSWORD_MAX]):
            self._count(keys, self.settings.window)
            raise AccountError("wrong username or password", 401, "wrong_login",
                               words=say(N_("Wrong username or password.")))
        rehash = self.passwords.needs_rehash(user.password_hash or "")
        new_hash = self.passwords.hash(password) if rehash else None
        with self.sessions.begin() as s:
            row = s.get(User, user.id)
            assert row is not None
            if new_hash is not None:
                row.password_hash = new_hash
            self._forget(s, keys[0][1])  # the account's count starts again; the address's stays
            sid = self._new_session(s, row.id, old_session_id)
            s.flush()
            s.expunge(row)
        self.claim(row.id, tokens)
        return sid, row

    def _check_current_password(self, me: Me, password: str, address: str) -> None:
        keys = self._keys(me.user.username or "", address)
        self._check_throttle(keys, self.settings.window)
        with self.sessions() as s:
            stored = s.scalar(select(User.password_hash).where(User.id == me.user.id))
        if not password or not self.passwords.verify(stored, password[:PASSWORD_MAX]):
            self._count(keys, self.settings.window)
            raise AccountError("the current password is wrong", 403, "wrong_password",
                               words=say(N_("The current password is wrong.")))

    def change_password(self, me: Me, old: str, new: str, address: str) -> int:
        """A new password: every other session of the account ends (how many did)."""
        self._check_current_password(me, old, address)
        check_password(new, me.user.username or "")
        hashed = self.passwords.hash(new)
        with self.sessions.begin() as s:
            row = s.get(User, me.user.id)
            assert row is not None
            row.password_hash = hashed
            q = delete(UserSession).where(UserSession.user_id == row.id, UserSession.id_hash != _sha(me.session_id))
            return int(s.execute(q).rowcount or 0)  # type: ignore[attr-defined]

    def reset_password(self, username: str) -> str | None:
        """A new random password for the account called ``username``, for the site's operator to give its owner
        (who forgot theirs, and logs in with this one to choose another): every session of the account ends
        and its wrong-password count starts again. None when no account has that name."""
        with self.sessions() as s:
            user_id = s.scalar(select(User.id).where(User.username_key == username.lower(), User.deleted_at.is_(None)))
        if user_id is None:
            return None
        password = secrets.token_urlsafe(12)  # 16 characters, 96 random bits
        hashed = self.passwords.hash(password)
        with self.sessions.begin() as s:
            row = s.get(User, user_id)
            assert row is not None
            row.password_hash = hashed
            s.execute(delete(UserSession).where(UserSession.user_id == row.id))
            self._forget(s, _sha("account:" + username.lower()))
        return password

    def set_organiser(self, username: str, on: bool) -> bool | None:
        """Grant (``on``) or take away the organiser permission of the account called ``username``: whether it
        had it before; None when no account has that name."""
        with self.sessions.begin() as s:
            row = s.scalar(select(User).where(User.username_key == username.strip().lower(), User.deleted_at.is_(None)))
            if row is None:
                return None
            was = bool(row.organiser)
            row.organiser = on
            return was

    def set_display_name(self, me: Me, name: str) -> User:
        display = check_display_name(name)
        with self.sessions.begin() as s:
            row = s.get(User, me.user.id)
            assert row is not None
            row.display_name = display
            s.flush()
            s.expunge(row)
            return row

    def delete(self, me: Me, password: str, address: str) -> None:
        """Delete the account: its name, display name, password hash, sessions and claims go; the row stays
        as an anonymous id so that what points at it (games, ratings) stays whole. The seats it played in
        the replays it claimed lose the name they were played under."""
        self._check_current_password(me, password, address)
        now = self.clock()
        with self.sessions.begin() as s:
            row = s.get(User, me.user.id)
            assert row is not None
            claims = s.execute(select(UserReplay.replay_id, UserReplay.seat).where(UserReplay.user_id == row.id)).all()
            for replay_id, seat in claims:
                if seat is not None:
                    _anonymise_seat(s, str(replay_id), int(seat))
            s.execute(delete(UserReplay).where(UserReplay.user_id == row.id))
            s.execute(delete(UserSession).where(UserSession.user_id == row.id))
            if row.username_key:
                self._forget(s, _sha("account:" + row.username_key))
            username = row.username or ""
            row.username = row.username_key = row.display_name = row.password_hash = None
            row.deleted_at = now
            row.organiser = False
        for forget in self.on_delete:
            forget(me.user.id, username)

    # --- the replays an account played ------------------------------------------------------------
    def claim(self, user_id: int, tokens: Iterable[str]) -> int:
        """Make the account the owner of the replays these seat tokens (or import tokens) played, with the
        seat each played; a seat another account claimed first stays theirs. How many were claimed."""
        hashes = {hash_token(t) for t in tokens if t and _text(t)}
        if not hashes:
            return 0
        with self.sessions.begin() as s:
            owned = s.execute(select(WebReplayOwner.replay_id, WebReplayOwner.token_hash)
                              .where(WebReplayOwner.token_hash.in_(sorted(hashes)))).all()
            done = 0
            for replay_id, token_hash in owned:
                if s.get(UserReplay, (user_id, replay_id)) is not None:
                    continue
                seat = _seat_of(s, str(replay_id), str(token_hash))
                if seat is not None and s.scalar(select(UserReplay.user_id).where(
                        UserReplay.replay_id == replay_id, UserReplay.seat == seat)) is not None:
                    continue
                s.add(UserReplay(user_id=user_id, replay_id=replay_id, seat=seat, claimed_at=self.clock()))
                done += 1
            return done

    def replays(self, user_id: int, limit: int = 200) -> list[dict[str, Any]]:
        """The account's replays, newest first: id, seat (None for an imported record), when, public, and the
        summary its list entry is titled from (guandan.db.web.replay_summary)."""
        with self.sessions() as s:
            rows = s.execute(select(UserReplay.replay_id, UserReplay.seat, WebReplay.created_at, WebReplay.public,
                                    WebReplay.summary)
                             .join(WebReplay, WebReplay.id == UserReplay.replay_id)
                             .where(UserReplay.user_id == user_id)
                             .order_by(WebReplay.created_at.desc(), UserReplay.replay_id).limit(limit)).all()
            return [{"id": r[0], "seat": r[1], "created_at": aware(r[2]).isoformat(), "public": bool(r[3]),
                     "summary": r[4]} for r in rows]


def _seat_of(s: Session, replay_id: str, token_hash: str) -> int | None:
    """The seat a token played in a web match's replay (None: an imported record, or the room is gone)."""
    room_code = s.scalar(select(WebReplay.room_code).where(WebReplay.id == replay_id))
    room = s.get(WebRoom, room_code) if room_code else None
    if room is None:
        return None
    for i, seat in enumerate(room.seats):
        if isinstance(seat, dict) and seat.get("token_hash") == token_hash:
            return i
    return None


def _anonymise_seat(s: Session, replay_id: str, seat: int) -> None:
    """The replay's record (and its room's row) no longer names the player of ``seat``: it reads as a
    player who joined without a name ("Player 2")."""
    replay = s.get(WebReplay, replay_id)
    if replay is None:
        return
    data = json.loads(replay.record)
    players = data.get("players")
    if isinstance(players, list) and seat < len(players):
        players[seat] = ""
        replay.record = json.dumps(data, ensure_ascii=False, indent=1)
        replay.summary = replay_summary(data)  # its list entry no longer names them either
    room = s.get(WebRoom, replay.room_code) if replay.room_code else None
    if room is not None and seat < len(room.seats) and isinstance(room.seats[seat], dict):
        seats = [dict(x) for x in room.seats]
        seats[seat]["name"] = ""
        room.seats = seats


# --- who is calling: for every router of the web app -----------------------------------------------
def accounts_of(conn: HTTPConnection) -> AccountService:
    service: AccountService = conn.app.state.accounts
    return service


def current_me(conn: HTTPConnection) -> Me | None:
    """The session and account of a request or WebSocket, from its session cookie (None: a guest)."""
    return accounts_of(conn).me(conn.cookies.get(SESSION_COOKIE))


def current_user(conn: HTTPConnection) -> User | None:
    """The account of a request or WebSocket (None: a guest). The User is detached: read its columns."""
    me = current_me(conn)
    return me.user if me is not None else None


def check_csrf(conn: HTTPConnection, me: Me) -> None:
    """Refuse a change that relies on the session cookie unless it carries the session's CSRF token."""
    sent = conn.headers.get(CSRF_HEADER, "")
    if not sent or not secrets.compare_digest(sent.encode(), csrf_token(me.session_id).encode()):
        raise AccountError("missing or wrong CSRF token (X-CSRF-Token)", 403, "csrf", words=say(N_(
            "This request lacks the security token of this page: reload the page and try again.")))


def require_user(conn: HTTPConnection, *, write: bool = False) -> Me:
    """The caller's session and account, or a 401; ``write``: a change, which also needs the CSRF token (403)."""
    me = current_me(conn)
    if me is None:
        raise not_logged_in()
    if write:
        check_csrf(conn, me)
    return me
