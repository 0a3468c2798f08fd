"""Accounts under attack: session fixation, CSRF without (or with someone else's) token, another account's
private data, wrong passwords throttled per account and per client address (the clock is a stand-in),
what is stored of a session and of the throttle, a deleted account's data gone from every table while
its games still replay (anonymous), and the migration on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text

from guandan.db import make_engine
from guandan.db.accounts import LoginThrottle, User, UserReplay, UserSession
from guandan.db.migrate import alembic_config, upgrade_to_head
from guandan.server.accounts_service import SESSION_COOKIE

from .test_accounts import PASSWORD, Site, csrf, login, open_site, signup
from .test_error_texts import refused
from .test_lifecycle import finished_room
from .test_persistence import db_url  # noqa: F401  (the SQLite and PostgreSQL databases, as a fixture)

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from open_site(f"sqlite:///{tmp_path / 'web.sqlite3'}", account_failures=3, address_failures=5)


def cookie(c: TestClient) -> str | None:
    value = c.cookies.get(SESSION_COOKIE)
    return str(value) if value is not None else None


def plant(c: TestClient, value: str) -> None:
    """A session cookie the browser holds before it logs in (as the server's own cookie would be scoped)."""
    c.cookies.set(SESSION_COOKIE, value, domain="testserver.local", path="/")


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}  # the site trusts every proxy here: each address is its own client


# --- session fixation -----------------------------------------------------------------------------------
def test_a_session_id_set_before_login_is_never_the_session_after(site: Site) -> None:
    signup(site.browser(), "Alice")
    victim = site.browser()
    planted = "attacker-chosen-session-id"
    plant(victim, planted)
    login(victim, "Alice")
    assert cookie(victim) not in (None, planted)
    attacker = site.browser()
    plant(attacker, planted)
    refused(attacker.get("/api/me"), 401, "not_logged_in")
    # a real session is not promoted either: logging in again (or signing up) replaces it
    before = cookie(victim)
    login(victim, "Alice")
    assert cookie(victim) != before
    stale = site.browser()
    plant(stale, str(before))
    refused(stale.get("/api/me"), 401, "not_logged_in")
    newcomer = site.browser()
    plant(newcomer, planted)
    signup(newcomer, "bob_2")
    assert cookie(newcomer) != planted
    with site.accounts.sessions() as s:
        assert s.get(UserSession, hashlib.sha256(planted.encode()).hexdigest()) is None


def test_only_a_hash_of_the_session_id_is_stored(site: Site) -> None:
    c = site.client
    signup(c)
    sid = cookie(c)
    assert sid and len(sid) >= 40
    with site.accounts.sessions() as s:
        rows = s.scalars(select(UserSession)).all()
    assert [r.id_hash for r in rows] == [hashlib.sha256(sid.encode()).hexdigest()]
    assert set(inspect(make_engine(site.db_url)).get_columns("user_sessions")[i]["name"] for i in range(4)) == {
        "id_hash", "user_id", "created_at", "last_seen"}


# --- CSRF -----------------------------------------------------------------------------------------------
CHANGES: list[tuple[str, str, dict[str, Any]]] = [
    ("POST", "/api/auth/logout", {"scope": "everywhere"}),
    ("POST", "/api/auth/password", {"old_password": PASSWORD, "new_password": "a new password"}),
    ("POST", "/api/me/profile", {"display_name": "Mallory"}),
    ("POST", "/api/me/replays/claim", {"tokens": ["x"]}),
    ("DELETE", "/api/me", {"password": PASSWORD}),
]


@pytest.mark.parametrize(("method", "path", "body"), CHANGES, ids=[f"{m} {p}" for m, p, _ in CHANGES])
@pytest.mark.parametrize("token", ["missing", "wrong", "another session's"])
def test_a_change_without_the_sessions_csrf_token_is_refused_and_changes_nothing(
        site: Site, method: str, path: str, body: dict[str, Any], token: str) -> None:
    c = site.client
    me = signup(c, "Alice", display_name="Alice A")
    other = signup(site.browser(), "bob_2")
    second = login(site.browser(), "Alice")  # a second session of the same account: its token is not this one's
    headers = {"missing": {}, "wrong": csrf("0" * 64), "another session's": csrf(second["csrf"])}[token]
    if token == "another session's":
        assert second["csrf"] != me["csrf"] and other["csrf"] != me["csrf"]
    text = refused(c.request(method, path, json=body, headers=headers), 403, "csrf")
    assert "刷新" in text["zh"]
    now = c.get("/api/me").json()  # still logged in, the same name
    assert now["user"]["display_name"] == "Alice A" and now["sessions"] == 2
    login(site.browser(), "Alice", PASSWORD)  # the password is the old one
    assert c.request(method, path, json=body, headers=csrf(me["csrf"])).status_code == 200  # with it: done


def test_login_and_signup_from_another_site_are_refused(site: Site) -> None:
    c = site.browser()
    body = {"username": "Alice", "password": PASSWORD}
    refused(c.post("/api/auth/signup", json=body, headers={"Sec-Fetch-Site": "cross-site"}), 403, "cross_site")
    assert cookie(c) is None
    signup(c)
    c2 = site.browser()
    refused(c2.post("/api/auth/login", json=body, headers={"Sec-Fetch-Site": "cross-site"}), 403, "cross_site")
    # a cross-site form can only post form or plain text: neither is read as a log-in
    r = c2.post("/api/auth/login", content="username=Alice&password=x", headers={
        "Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 422 and cookie(c2) is None
    r = c2.post("/api/auth/login", content=json.dumps(body), headers={"Content-Type": "text/plain"})
    assert r.status_code == 422 and cookie(c2) is None
    assert c2.post("/api/auth/login", json=body, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200


# --- another account's private data ---------------------------------------------------------------------
def test_another_accounts_private_data_is_not_readable(site: Site) -> None:
    alice = site.client
    _code, token, room = finished_room(alice)
    a = signup(alice, "Alice", tokens=[token])
    assert [r["id"] for r in a["replays"]] == [room["replay_id"]]
    bob = site.browser()
    b = signup(bob, "bob_2")
    me = bob.get("/api/me").json()
    assert me["user"]["username"] == "bob_2" and me["user"]["id"] != a["user"]["id"]
    assert bob.get("/api/me/replays").json() == {"replays": []}
    assert room["replay_id"] not in json.dumps(bob.get("/api/me").json())
    # Alice's token with Bob's cookie does nothing for either
    refused(bob.post("/api/auth/logout", json={"scope": "everywhere"}, headers=csrf(a["csrf"])), 403, "csrf")
    refused(bob.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=csrf(a["csrf"])), 403, "csrf")
    assert alice.get("/api/me").status_code == 200 and bob.get("/api/me").status_code == 200
    # what answers with a user never carries a password hash or a session id
    for body in (a, b, me, alice.get("/api/auth/session").json()):
        dumped = json.dumps(body)
        assert "argon2" not in dumped and str(cookie(alice)) not in dumped and str(cookie(bob)) not in dumped


# --- wrong passwords, throttled ---------------------------------------------------------------------------
def test_wrong_passwords_are_throttled_per_account(site: Site) -> None:
    signup(site.browser(), "Alice")
    signup(site.browser(), "bob_2")
    c = site.browser()
    for n in range(3):  # the account's limit here
        refused(c.post("/api/auth/login", json={"username": "alice", "password": f"guess {n}!"},
                       headers=from_address(f"10.0.0.{n}")), 401, "wrong_login")
    r = c.post("/api/auth/login", json={"username": "Alice", "password": PASSWORD}, headers=from_address("10.9.9.9"))
    text = refused(r, 429, "throttled")  # even the right password, from anywhere
    assert r.headers["Retry-After"] == "900" and r.json()["retry_after"] == 900
    assert text == {"zh": "这个账号的密码错误次数太多：请15分钟后再试。",
                    "en": "Too many wrong passwords for this account: try again in 15 min."}
    assert cookie(c) is None
    login(c, "bob_2")  # another account is not held back
    site.clock.advance(minutes=10)
    r = c.post("/api/auth/login", json={"username": "Alice", "password": PASSWORD})
    assert refused(r, 429, "throttled")["en"].endswith("in 5 min.") and r.headers["Retry-After"] == "300"
    site.clock.advance(minutes=5)
    login(c, "Alice")  # the window is over
    # a success starts the account's count again
    for n in range(2):
        refused(c.post("/api/auth/login", json={"username": "alice", "password": f"again {n}!"},
                       headers=from_address("10.1.0.1")), 401, "wrong_login")
    login(c, "Alice")
    refused(c.post("/api/auth/login", json={"username": "alice", "password": "once more"}, headers=from_address(
        "10.1.0.2")), 401, "wrong_login")


def test_wrong_passwords_are_throttled_per_address(site: Site) -> None:
    for name in ("Alice", "bob_2", "carol"):
        signup(site.browser(), name)
    c = site.browser()
    here = from_address("203.0.113.7")
    for n in range(5):  # the address's limit, over many names (none reaching its account's limit)
        refused(c.post("/api/auth/login", json={"username": ("Alice", "bob_2", "nobody")[n % 3],
                                                "password": "wrong wrong"}, headers=here), 401, "wrong_login")
    r = c.post("/api/auth/login", json={"username": "carol", "password": PASSWORD}, headers=here)
    text = refused(r, 429, "throttled")
    assert text["en"] == "Too many wrong passwords from this address: try again in 15 min." and "地址" in text["zh"]
    elsewhere = c.post("/api/auth/login", json={"username": "carol", "password": PASSWORD},
                       headers=from_address("198.51.100.9"))
    assert elsewhere.status_code == 200  # another address is not held back
    site.clock.advance(minutes=15)
    assert c.post("/api/auth/login", json={"username": "carol", "password": PASSWORD}, headers=here).status_code == 200


def test_a_wrong_current_password_counts_as_a_wrong_password(site: Site) -> None:
    c = site.client
    me = signup(c)
    for _ in range(3):
        refused(c.post("/api/auth/password", json={"old_password": "guess guess", "new_password": "new password"},
                       headers=csrf(me["csrf"])), 403, "wrong_password")
    refused(c.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=csrf(me["csrf"])), 429, "throttled")
    assert c.get("/api/me").status_code == 200  # not deleted


def test_the_throttle_stores_hashes_and_forgets_windows_that_are_over(site: Site) -> None:
    signup(site.browser(), "Alice")
    c = site.browser()
    refused(c.post("/api/auth/login", json={"username": "Alice", "password": "wrong wrong"},
                   headers=from_address("198.51.100.4")), 401, "wrong_login")
    engine = make_engine(site.db_url)
    with engine.connect() as conn:
        rows = conn.execute(select(LoginThrottle.key_hash, LoginThrottle.kind, LoginThrottle.failures)).all()
    assert sorted((k, f) for _h, k, f in rows) == [("account", 1), ("address", 1), ("signup", 1)]
    assert hashlib.sha256(b"address:198.51.100.4").hexdigest() in {h for h, _k, _f in rows}
    dumped = "\n".join(str(tuple(r)) for r in rows)
    assert "198.51.100.4" not in dumped and "alice" not in dumped.lower()
    site.clock.advance(hours=2)
    refused(c.post("/api/auth/login", json={"username": "nobody", "password": "wrong wrong"},
                   headers=from_address("198.51.100.5")), 401, "wrong_login")
    with engine.connect() as conn:
        kinds = sorted(conn.execute(select(LoginThrottle.kind)).scalars())
    engine.dispose()
    assert kinds == ["account", "address"]  # only the new window's rows: the old ones were purged


def test_signups_are_limited_per_address(tmp_path: Path) -> None:
    for site in open_site(f"sqlite:///{tmp_path / 'w.sqlite3'}", signups_per_address=2):
        for n in range(2):
            signup(site.browser(), f"user{n}x")
        text = refused(site.browser().post("/api/auth/signup", json={"username": "user9x", "password": PASSWORD}),
                       429, "throttled")
        assert "注册" in text["zh"] or "账号" in text["zh"]
        r = site.browser().post("/api/auth/signup", json={"username": "user9x", "password": PASSWORD},
                                headers=from_address("192.0.2.1"))
        assert r.status_code == 201


# --- deleting an account ----------------------------------------------------------------------------------
def _every_text_in_the_database(url: str) -> str:
    engine = make_engine(url)
    out: list[str] = []
    try:
        with engine.connect() as conn:
            for table in inspect(conn).get_table_names():
                for row in conn.execute(text(f'SELECT * FROM "{table}"')):
                    out.append(repr(tuple(row)))
    finally:
        engine.dispose()
    return "\n".join(out)


def test_a_deleted_accounts_data_is_gone_and_its_games_replay_anonymised(site: Site) -> None:
    c = site.client
    _code, token, room = finished_room(c)
    replay_id = room["replay_id"]
    me = signup(c, "Zelda_77", display_name="Zelda Q", tokens=[token])
    login(site.browser(), "Zelda_77")  # a second session
    refused(c.post("/api/auth/login", json={"username": "zelda_77", "password": "wrong wrong"}), 401, "wrong_login")
    # the seat was played under the account's name (as a logged-in player's seat is)
    with site.accounts.sessions.begin() as s:
        from guandan.db.web import WebReplay, WebRoom
        replay = s.get(WebReplay, replay_id)
        assert replay is not None and replay.room_code is not None
        data = json.loads(replay.record)
        data["players"][0] = "Zelda Q"
        replay.record = json.dumps(data, ensure_ascii=False)
        room_row = s.get(WebRoom, replay.room_code)
        assert room_row is not None
        room_row.seats = [{**room_row.seats[0], "name": "Zelda Q"}, *room_row.seats[1:]]
    refused(c.request("DELETE", "/api/me", json={"password": "not the password"}, headers=csrf(me["csrf"])), 403,
            "wrong_password")
    assert c.get("/api/me").status_code == 200
    r = c.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=csrf(me["csrf"]))
    assert r.status_code == 200 and r.json() == {"deleted": True}
    refused(c.get("/api/me"), 401, "not_logged_in")
    with site.accounts.sessions() as s:
        user = s.get(User, me["user"]["id"])
        assert user is not None and user.deleted_at is not None
        assert (user.username, user.username_key, user.display_name, user.password_hash) == (None, None, None, None)
        assert s.scalars(select(UserSession)).all() == []  # both sessions
        assert s.scalars(select(UserReplay)).all() == []
        assert s.scalar(select(LoginThrottle).where(LoginThrottle.kind == "account")) is None
    everything = _every_text_in_the_database(site.db_url)
    for personal in ("Zelda", "zelda", "argon2"):
        assert personal not in everything, personal
    # the game stays, and replays with the seat anonymous
    shown = c.get(f"/api/replays/{replay_id}")
    assert shown.status_code == 200
    assert shown.json()["seats"][0]["name"] == {"zh": "玩家1", "en": "Player 1"}
    refused(c.post("/api/auth/login", json={"username": "Zelda_77", "password": PASSWORD}), 401, "wrong_login")
    signup(site.browser(), "zelda_77")  # the name is free again


# --- the migration, on SQLite and PostgreSQL -----------------------------------------------------------
def test_the_accounts_migration_upgrades_and_downgrades(db_url: str) -> None:  # noqa: F811
    from alembic import command

    engine = make_engine(db_url)
    try:
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0005_web_reviews")
        names = set(inspect(engine).get_table_names())
        assert "users" not in names and "web_replays" in names
        upgrade_to_head(engine)
        names = set(inspect(engine).get_table_names())
        assert {"users", "user_sessions", "login_throttle", "user_replays"} <= names
        uniques = {tuple(u["column_names"]) for u in inspect(engine).get_unique_constraints("users")}
        assert ("username_key",) in uniques
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0005_web_reviews")
        assert "users" not in set(inspect(engine).get_table_names())
        upgrade_to_head(engine)
    finally:
        engine.dispose()


def test_accounts_work_on_postgresql_and_sqlite(db_url: str) -> None:  # noqa: F811
    for site in open_site(db_url, account_failures=2):
        c = site.client
        _code, token, room = finished_room(c)
        me = signup(c, "Alice", tokens=[token])
        assert [r["id"] for r in me["replays"]] == [room["replay_id"]]
        refused(site.browser().post("/api/auth/signup", json={"username": "ALICE", "password": PASSWORD}), 409,
                "username_taken", given=("ALICE",))
        for _ in range(2):
            refused(site.browser().post("/api/auth/login", json={"username": "alice", "password": "wrong wrong"}),
                    401, "wrong_login")
        refused(site.browser().post("/api/auth/login", json={"username": "alice", "password": PASSWORD}), 429,
                "throttled")
        site.clock.advance(minutes=16)
        login(site.browser(), "alice")
        assert c.get("/api/me").json()["sessions"] == 2
        assert c.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=csrf(me["csrf"])).status_code == 200
        assert "Alice" not in _every_text_in_the_database(db_url)


def test_text_utf8_cannot_hold_is_refused_without_a_crash(site: Site) -> None:
    """JSON may carry a lone surrogate (\\ud800), which no database column or hash input takes as text: the
    request is refused as not valid (422, the field named), and nothing is made."""
    c = site.client
    signup(c, "Alice")
    raw = {"Content-Type": "application/json"}
    bodies = [("/api/auth/login", '{"username": "Alice", "password": "x\\ud800yyyyyy"}', "password"),
              ("/api/auth/login", '{"username": "Al\\ud800ice", "password": "whatever!"}', "username"),
              ("/api/auth/signup", '{"username": "bob_2", "password": "pass\\ud800word"}', "password")]
    for path, body, field in bodies:
        r = c.post(path, content=body, headers=raw)
        assert r.status_code == 422 and r.json()["error"] == "bad_request", r.text
        assert field in r.json()["text"]["en"]
    with site.accounts.sessions() as s:
        assert [u.username for u in s.scalars(select(User))] == ["Alice"]
    me = c.get("/api/me").json()
    r = c.post("/api/me/replays/claim", content='{"tokens": ["t\\ud800"]}', headers={**raw, **csrf(me["csrf"])})
    assert r.status_code == 422 and r.json()["error"] == "bad_request"
