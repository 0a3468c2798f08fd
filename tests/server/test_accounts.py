"""Optional accounts: sign up, log in, who am I, log out (this session, the others, all), password change,
display name, the checks on names and passwords (each refusal told in both languages), and a guest's
finished games claimed by the account made on the same browser. The accounts' clock is a stand-in and
the password hash is argon2id at its cheapest, so nothing here waits."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from argon2 import profiles
from fastapi.testclient import TestClient

from guandan.i18n import translator
from guandan.i18n.check import extract_msgids, missing
from guandan.server.accounts_service import SESSION_COOKIE, AccountService, AccountSettings
from guandan.server.app import create_app
from guandan.server.i18n_web import MESSAGES
from guandan.server.table import Settings

from .conftest import counting_seeds
from .test_error_texts import CJK, refused
from .test_lifecycle import finished_room

pytestmark = pytest.mark.timeout(120)
SERVER = Path(__file__).resolve().parents[2] / "src" / "guandan" / "server"
PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclasses.dataclass
class Site:
    """An app with accounts, its accounts' clock, and a factory of browsers (each its own cookie jar)."""

    app: Any
    client: TestClient
    accounts: AccountService
    clock: Clock
    db_url: str

    def browser(self, **kw: Any) -> TestClient:
        return TestClient(self.app, **kw)


def open_site(db_url: str, **account_settings: Any) -> Iterator[Site]:
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds(), forwarded_allow_ips=("*",))
    app = create_app(db_url, settings, accounts=AccountSettings(password_parameters=profiles.CHEAPEST,
                                                                **account_settings))
    accounts: AccountService = app.state.accounts
    clock = Clock()
    accounts.clock = clock
    with TestClient(app) as c:
        yield Site(app, c, accounts, clock, db_url)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    yield from open_site(f"sqlite:///{tmp_path / 'web.sqlite3'}")


def signup(c: TestClient, username: str = "Alice", password: str = PASSWORD, **extra: Any) -> dict[str, Any]:
    r = c.post("/api/auth/signup", json={"username": username, "password": password, **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def login(c: TestClient, username: str = "Alice", password: str = PASSWORD, **extra: Any) -> dict[str, Any]:
    r = c.post("/api/auth/login", json={"username": username, "password": password, **extra})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def csrf(token: str) -> dict[str, str]:
    return {"X-CSRF-Token": token}


# --- sign up, log in, who am I, log out ------------------------------------------------------------------
def test_signup_me_logout_and_login(site: Site) -> None:
    c = site.client
    refused(c.get("/api/me"), 401, "not_logged_in")
    assert c.get("/api/auth/session").json() == {"user": None}  # a guest, without a refusal
    r = c.post("/api/auth/signup", json={"username": "Alice", "password": PASSWORD, "display_name": " 小红 "})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["user"]["username"] == "Alice" and body["user"]["display_name"] == "小红"
    assert isinstance(body["csrf"], str) and len(body["csrf"]) == 64
    cookie = r.headers["set-cookie"]
    assert f"{SESSION_COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http here
    me = c.get("/api/me").json()
    assert me["user"] == body["user"] and me["csrf"] == body["csrf"] and me["sessions"] == 1
    assert c.get("/api/auth/session").json()["user"] == body["user"]
    assert c.post("/api/auth/logout", headers=csrf(body["csrf"])).json() == {"ended": 1}
    refused(c.get("/api/me"), 401, "not_logged_in")
    assert c.post("/api/auth/logout").json() == {"ended": 0}  # no session: nothing to end, nothing refused
    again = login(c, "ALICE")  # usernames are one name whatever their case
    assert again["user"] == body["user"] and again["csrf"] != body["csrf"]
    assert c.get("/api/me").status_code == 200


def test_the_session_cookie_is_secure_over_https(site: Site) -> None:
    with site.browser(base_url="https://testserver") as c:
        r = c.post("/api/auth/signup", json={"username": "Alice", "password": PASSWORD})
        assert r.status_code == 201
        cookie = r.headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie
    behind = site.browser().post("/api/auth/signup", json={"username": "bob_2", "password": PASSWORD},
                                 headers={"X-Forwarded-Proto": "https"})  # a TLS proxy in front
    assert behind.status_code == 201 and "Secure" in behind.headers["set-cookie"]


def test_logout_of_every_other_session_and_everywhere(site: Site) -> None:
    phone, laptop, tablet = site.client, site.browser(), site.browser()
    first = signup(phone)
    second, third = login(laptop), login(tablet)
    assert phone.get("/api/me").json()["sessions"] == 3
    assert laptop.post("/api/auth/logout", json={"scope": "others"}, headers=csrf(second["csrf"])).json() == {"ended": 2}
    assert laptop.get("/api/me").status_code == 200
    refused(phone.get("/api/me"), 401, "not_logged_in")
    refused(tablet.get("/api/me"), 401, "not_logged_in")
    assert third["csrf"] != second["csrf"] != first["csrf"]
    again = login(phone)
    assert laptop.post("/api/auth/logout", json={"scope": "everywhere"}, headers=csrf(second["csrf"])).json() == {
        "ended": 2}
    refused(laptop.get("/api/me"), 401, "not_logged_in")
    refused(phone.get("/api/me"), 401, "not_logged_in")
    assert again["csrf"]
    refused(laptop.post("/api/auth/logout", json={"scope": "somewhere"}), 422, "bad_request", given=("scope",))


def test_a_password_change_ends_the_other_sessions(site: Site) -> None:
    phone, laptop = site.client, site.browser()
    me = signup(phone)
    login(laptop)
    text = refused(phone.post("/api/auth/password", json={"old_password": "not it at all", "new_password": "another pw 1"},
                              headers=csrf(me["csrf"])), 403, "wrong_password")
    assert text["en"] == "The current password is wrong."
    assert laptop.get("/api/me").status_code == 200  # a refused change changes nothing
    refused(phone.post("/api/auth/password", json={"old_password": PASSWORD, "new_password": "short"},
                       headers=csrf(me["csrf"])), 422, "weak_password")
    r = phone.post("/api/auth/password", json={"old_password": PASSWORD, "new_password": "another pw 1"},
                   headers=csrf(me["csrf"]))
    assert r.status_code == 200 and r.json() == {"ended": 1}
    assert phone.get("/api/me").status_code == 200  # this session stays
    refused(laptop.get("/api/me"), 401, "not_logged_in")
    refused(laptop.post("/api/auth/login", json={"username": "Alice", "password": PASSWORD}), 401, "wrong_login")
    login(laptop, password="another pw 1")


def test_the_display_name_can_be_changed(site: Site) -> None:
    me = signup(site.client)
    r = site.client.post("/api/me/profile", json={"display_name": "  大白  "}, headers=csrf(me["csrf"]))
    assert r.status_code == 200 and r.json()["user"]["display_name"] == "大白"
    refused(site.client.post("/api/me/profile", json={"display_name": ""}, headers=csrf(me["csrf"])), 422,
            "bad_display_name")
    refused(site.client.post("/api/me/profile", json={"display_name": "Greedy"}, headers=csrf(me["csrf"])), 422,
            "reserved_name", given=("Greedy",))
    assert site.client.get("/api/me").json()["user"]["display_name"] == "大白"


def test_a_session_unused_for_its_idle_time_is_over(site: Site) -> None:
    signup(site.client)
    site.clock.advance(days=29)
    assert site.client.get("/api/me").status_code == 200  # used: its last use is now
    site.clock.advance(days=29)
    assert site.client.get("/api/me").status_code == 200
    site.clock.advance(days=31)
    refused(site.client.get("/api/me"), 401, "not_logged_in")


def test_the_cookie_is_renewed_when_the_session_is_used(site: Site) -> None:
    signup(site.client)
    for path in ("/api/me", "/api/auth/session"):
        r = site.client.get(path)
        assert r.status_code == 200 and "Max-Age=2592000" in r.headers["set-cookie"] and "HttpOnly" in r.headers[
            "set-cookie"]
    guest = site.browser().get("/api/auth/session")
    assert guest.json() == {"user": None} and "set-cookie" not in guest.headers


def test_the_cookie_of_a_session_ended_elsewhere_is_cleared(site: Site) -> None:
    phone, laptop = site.client, site.browser()
    me = signup(phone)
    other = login(laptop)
    assert laptop.post("/api/auth/logout", json={"scope": "everywhere"}, headers=csrf(other["csrf"])).json() == {
        "ended": 2}
    assert SESSION_COOKIE in phone.cookies and me["csrf"]
    r = phone.get("/api/auth/session")
    assert r.json() == {"user": None}
    assert f'{SESSION_COOKIE}=""' in r.headers["set-cookie"] and "Max-Age=0" in r.headers["set-cookie"]
    assert SESSION_COOKIE not in phone.cookies
    again = phone.get("/api/auth/session")  # nothing left to clear
    assert again.json() == {"user": None} and "set-cookie" not in again.headers


# --- names and passwords --------------------------------------------------------------------------------
@pytest.mark.parametrize(("body", "status", "code", "given"), [
    ({"username": "", "password": PASSWORD}, 422, "bad_username", ()),
    ({"username": "al", "password": PASSWORD}, 422, "bad_username", ()),
    ({"username": "a" * 25, "password": PASSWORD}, 422, "bad_username", ()),
    ({"username": "al ice", "password": PASSWORD}, 422, "bad_username", ()),
    ({"username": "_alice", "password": PASSWORD}, 422, "bad_username", ()),
    ({"username": "小红红", "password": PASSWORD}, 422, "bad_username", ()),
    ({"username": "greedy", "password": PASSWORD}, 422, "reserved_name", ("greedy",)),
    ({"username": "Heuristic", "password": PASSWORD}, 422, "reserved_name", ("Heuristic",)),
    ({"username": "bot3", "password": PASSWORD}, 422, "reserved_name", ("bot3",)),
    ({"username": "Admin", "password": PASSWORD}, 422, "reserved_name", ("Admin",)),
    ({"username": "alice", "password": "seven77"}, 422, "weak_password", ()),
    ({"username": "alice", "password": "x" * 257}, 422, "bad_password", ()),
    ({"username": "alice12345", "password": "ALICE12345"}, 422, "weak_password", ()),
    ({"username": "alice", "password": PASSWORD, "display_name": "a\u0007b"}, 422, "bad_display_name", ()),
    ({"username": "alice", "password": PASSWORD, "display_name": "x" * 25}, 422, "bad_display_name", ()),
    ({"username": "alice", "password": PASSWORD, "display_name": "Bot 2"}, 422, "reserved_name", ("Bot",)),
])
def test_bad_names_and_passwords_are_refused_and_told(site: Site, body: dict[str, Any], status: int, code: str,
                                                       given: tuple[str, ...]) -> None:
    refused(site.client.post("/api/auth/signup", json=body), status, code, given=given)
    assert site.client.get("/api/auth/session").json() == {"user": None}
    with site.accounts.sessions() as s:
        from guandan.db.accounts import User
        assert s.query(User).count() == 0  # nothing was made


def test_a_taken_username_is_refused_whatever_its_case(site: Site) -> None:
    signup(site.client, "Alice")
    text = refused(site.browser().post("/api/auth/signup", json={"username": "aLiCe", "password": PASSWORD}), 409,
                   "username_taken", given=("aLiCe",))
    assert "aLiCe" in text["zh"] and "占用" in text["zh"]


def test_a_wrong_login_does_not_say_which_part_was_wrong(site: Site) -> None:
    signup(site.client)
    c = site.browser()
    wrong_name = refused(c.post("/api/auth/login", json={"username": "nobody", "password": PASSWORD}), 401, "wrong_login")
    wrong_pw = refused(c.post("/api/auth/login", json={"username": "Alice", "password": "nope nope"}), 401, "wrong_login")
    assert wrong_name == wrong_pw == {"zh": "用户名或密码不对。", "en": "Wrong username or password."}
    refused(c.post("/api/auth/login", json={"username": "", "password": ""}), 422, "bad_login")


def test_every_account_refusal_is_a_translated_browser_string() -> None:
    used = extract_msgids([SERVER / "auth.py", SERVER / "accounts_service.py"])
    assert len(used) > 15
    assert sorted(str(m) for m in used if m not in MESSAGES) == []
    assert missing("web", "zh", used) == [] and missing("web", "en", used) == []
    zh = translator("web", "zh")
    for msgid in used:
        assert isinstance(msgid, str) and CJK.search(zh.gettext(msgid)), msgid


# --- a guest's games, claimed ---------------------------------------------------------------------------
def claimed_once(site: Site, client: Any, me: dict[str, Any], token: str) -> None:
    """``token``'s seat is ``me``'s already: claiming it again claims nothing, and another account (bob_2)
    cannot take it over."""
    r = client.post("/api/me/replays/claim", json={"tokens": [token]}, headers=csrf(me["csrf"]))
    assert r.status_code == 200 and r.json()["claimed"] == 0
    other = site.browser()
    bob = signup(other, "bob_2")
    r = other.post("/api/me/replays/claim", json={"tokens": [token]}, headers=csrf(bob["csrf"]))
    assert r.json() == {"claimed": 0, "replays": []}


def test_a_guests_finished_games_are_claimed_at_signup(site: Site) -> None:
    c = site.client
    code, token, room = finished_room(c)
    replay_id = room["replay_id"]
    imported = c.post("/api/replays", json=json.loads(c.get(f"/api/replays/{replay_id}/record").text)).json()
    me = signup(c, tokens=[token, imported["token"], "not a token of anything"])
    assert {(r["id"], r["seat"]) for r in me["replays"]} == {(replay_id, 0), (imported["id"], None)}
    assert c.get("/api/me/replays").json()["replays"] == me["replays"]
    # claiming again changes nothing; another account on a shared browser cannot take the seat over
    claimed_once(site, c, me, token)
    assert code


def test_a_logged_in_players_games_are_the_accounts_from_any_device(site: Site) -> None:
    """A seat taken while logged in belongs to the account as the match ends: the account's games list on
    another device (no seat token there to claim) has it, with the seat played; a guest's seat stays unclaimed."""
    phone = site.client
    signup(phone)
    _code, token, room = finished_room(phone)  # played logged in; this browser never opens /account
    laptop = site.browser()
    me = login(laptop)  # no tokens: nothing for the laptop to claim
    assert [(r["id"], r["seat"]) for r in me["replays"]] == [(room["replay_id"], 0)]
    assert laptop.get("/api/me/replays").json()["replays"] == me["replays"]
    # the old claim path still answers: nothing more to claim; another account cannot take the seat over
    claimed_once(site, laptop, me, token)
    # a guest's game goes on no account's list
    _code, _token, guest_room = finished_room(site.browser())
    assert guest_room["replay_id"] not in {r["id"] for r in laptop.get("/api/me/replays").json()["replays"]}


def test_a_logged_in_seat_keeps_its_account_across_a_restart() -> None:
    from guandan.server.rooms import Seat
    seat = Seat(kind="human", name="a", token_hash="h", owner_id=7)
    back = Seat.from_store(json.loads(json.dumps(seat.to_store())))
    assert back.credited() == 7 and back.to_json()["account"] is False  # not a rated seat: no account badge
    assert Seat.from_store(Seat(kind="human", name="b", token_hash="h").to_store()).credited() is None


def test_games_are_claimed_at_login_too(site: Site) -> None:
    c = site.client
    me = signup(c)
    c.post("/api/auth/logout", headers=csrf(me["csrf"]))
    _code, token, room = finished_room(c)  # played as a guest, then logged in on the same browser
    again = login(c, tokens=[token])
    assert [(r["id"], r["seat"], r["public"]) for r in again["replays"]] == [(room["replay_id"], 0, False)]
