"""An account's seat, back on another device: a logged-in player who took a seat of a casual (or rated) room finds
it from any device logged in to the same account (GET /api/me/tables) and takes it there
(POST /api/rooms/{code}/reclaim): a fresh seat token, and the device that held the seat is told and watches
from then on — the newest device plays. Nobody else gets the seat this way: not another account, not a guest,
not a page without the session's CSRF token, not at an online event's table (whose page hands its seats out),
and not once the match is over.

The service's clock is a stand-in moved by hand and the sweep is run on the app's loop: nothing waits for time."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import profiles
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from guandan.db import make_engine, upgrade_to_head
from guandan.server.accounts_service import AccountSettings
from guandan.server.app import create_app
from guandan.server.store import Store
from guandan.server.table import Settings, TableService

from .conftest import counting_seeds
from .test_events_online import Site, site, start_round, take_seats, two_teams  # noqa: F401  (site: the fixture)
from .test_lifecycle import Clock
from .test_persistence import db_url  # noqa: F401  (the SQLite and PostgreSQL databases, as a fixture)
from .test_ws import act_frame, my_turn, recv_until

pytestmark = pytest.mark.timeout(120)
PASSWORD = "correct horse battery"
BOTS = [None, "greedy", "greedy", "greedy"]
AT = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


@dataclasses.dataclass
class Device:
    """One browser: its own cookies (a session, or none: a guest) and the session's CSRF token."""

    client: TestClient
    csrf: str = ""

    def post(self, path: str, body: dict[str, Any] | None = None, *, csrf: bool = True) -> Any:
        return self.client.post(path, json=body if body is not None else {},
                                headers={"X-CSRF-Token": self.csrf} if csrf and self.csrf else {})


@dataclasses.dataclass
class Web:
    app: Any
    client: TestClient
    service: TableService
    clock: Clock

    def device(self, username: str | None = None, *, signup: bool = False) -> Device:
        d = Device(TestClient(self.app))
        if username is not None:
            path = "/api/auth/signup" if signup else "/api/auth/login"
            r = d.client.post(path, json={"username": username, "password": PASSWORD})
            assert r.status_code in (200, 201), r.text
            d.csrf = r.json()["csrf"]
        return d

    def sweep(self, advance: float = 0.0) -> None:
        self.clock.now += advance
        portal = self.client.portal
        assert portal is not None
        portal.call(self.service.sweep)
        self.service.store.writer.flush()  # what the sweep changed is committed


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Web]:
    yield from _web(tmp_path, next_deal_s=0)


@pytest.fixture
def pausing(tmp_path: Path) -> Iterator[Web]:
    """The same, with a deal-end pause that outlasts the test: it ends only when nobody is waited for any more."""
    yield from _web(tmp_path, next_deal_s=600)


def _web(tmp_path: Path, *, next_deal_s: float) -> Iterator[Web]:
    # nobody is played for (no grace runs out, no turn timer): a seat waits for its player
    settings = Settings(bot_delay_ms=0, next_deal_s=next_deal_s, seed_source=counting_seeds("reclaim"),
                        sweep_interval_s=10_000, disconnect_grace_s=3600, workers=0)
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", settings,
                     accounts=AccountSettings(password_parameters=profiles.CHEAPEST, signups_per_address=1000))
    clock = Clock()
    service: TableService = app.state.service
    service.clock = clock
    with TestClient(app) as c:
        w = Web(app, c, service, clock)
        w.device("ann", signup=True)
        w.device("bob", signup=True)
        yield w


def room_with_seat(d: Device, *, ready: bool = True, name: str = "Ann") -> tuple[str, str]:
    """A room of three bots and seat 0 taken by this device (as its account when it is logged in)."""
    r = d.client.post("/api/rooms", json={"bots": BOTS, "timer": 0, "first_timer": 0, "name": "Friday"})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    r = d.client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": name})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    if ready:
        assert d.client.post(f"/api/rooms/{code}/ready", json={"token": token}).status_code == 200
    return code, token


def refused(r: Any, status: int, code: str) -> None:
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    text = r.json()["text"]
    assert text["zh"] and text["en"] and text["zh"] != text["en"]


def welcome(c: TestClient, code: str, token: str) -> dict[str, Any]:
    with c.websocket_connect(f"/ws/{code}?token={token}") as ws:
        frame: dict[str, Any] = ws.receive_json()
        return frame


def closed_with(ws: WebSocketTestSession) -> int:
    with pytest.raises(WebSocketDisconnect) as e:
        while True:
            ws.receive_json()
    return int(e.value.code)


# --- allowed ---------------------------------------------------------------------------------------------------
def test_the_same_account_takes_its_seat_back_on_another_device_and_the_old_device_watches(web: Web) -> None:
    phone, laptop = web.device("ann"), web.device("ann")
    code, old = room_with_seat(phone)
    assert web.service.rooms[code].status == "playing"
    assert laptop.client.get("/api/me/tables").json() == {
        "tables": [{"code": code, "status": "playing", "seat": 0, "name": "Friday"}]}
    with phone.client.websocket_connect(f"/ws/{code}?token={old}") as ws:
        assert ws.receive_json() == {"type": "welcome", "role": "player", "seat": 0}
        r = laptop.post(f"/api/rooms/{code}/reclaim")
        assert r.status_code == 200, r.text
        body = r.json()
        assert (body["seat"], body["link"], body["room"]["code"]) == (0, f"/r/{code}", code)
        new = body["token"]
        assert new != old
        # the phone is told in both languages, then its socket closes as one whose token holds no seat
        moved = recv_until(ws, lambda f: f["type"] == "error")
        assert moved["code"] == "seat_moved"
        assert moved["text"]["zh"] and moved["text"]["en"] and moved["text"]["zh"] != moved["text"]["en"]
        assert closed_with(ws) == 4403
    room = web.service.rooms[code]
    assert room.seats[0].name == "Ann" and room.seats[0].connections == 0 and room.status == "playing"
    assert welcome(web.client, code, new) == {"type": "welcome", "role": "player", "seat": 0}
    with phone.client.websocket_connect(f"/ws/{code}?token={old}") as ws:  # the phone's token holds nothing now
        assert ws.receive_json()["code"] == "forbidden"
        assert closed_with(ws) == 4403
    # the laptop plays the match out; its replay is the account's, seen from either device
    with laptop.client.websocket_connect(f"/ws/{code}?token={new}") as ws:
        ws.send_json({"type": "auto", "on": True})
        over = recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)
    rid = over["room"]["replay_id"]
    assert rid and [g["id"] for g in phone.client.get("/api/me/replays").json()["replays"]] == [rid]
    assert phone.client.get("/api/me/tables").json() == {"tables": []}


def test_a_lobby_seat_and_a_paused_table_come_back_too(web: Web) -> None:
    phone, laptop = web.device("ann"), web.device("ann")
    lobby, _ = room_with_seat(phone, ready=False)
    played, _ = room_with_seat(phone)
    web.sweep(web.service.settings.unattended_pause_s + 1)  # nobody at the table: it pauses…
    web.sweep()  # …and leaves memory, kept in the database as paused
    assert played not in web.service.rooms
    tables = laptop.client.get("/api/me/tables").json()["tables"]
    assert {(t["code"], t["status"]) for t in tables} == {(lobby, "lobby"), (played, "paused")}
    for code in (lobby, played):
        r = laptop.post(f"/api/rooms/{code}/reclaim")
        assert r.status_code == 200, r.text
        assert welcome(web.client, code, r.json()["token"])["role"] == "player"
    assert web.service.rooms[lobby].seats[0].ready is False  # a lobby seat comes back as it was
    assert web.service.rooms[played].status == "playing" and not web.service.rooms[played].paused  # back: it plays on


def test_a_rated_seat_is_its_accounts_on_every_device(web: Web) -> None:
    phone, laptop = web.device("ann"), web.device("ann")
    r = phone.client.post("/api/rooms", json={"bots": BOTS, "rated": True, "timer": 0, "first_timer": 0})
    code = r.json()["code"]
    r = phone.post(f"/api/rooms/{code}/join", {"seat": 0})
    assert r.status_code == 200, r.text
    assert [t["code"] for t in laptop.client.get("/api/me/tables").json()["tables"]] == [code]
    assert laptop.post(f"/api/rooms/{code}/reclaim").status_code == 200


def _turn_at(seat: int, seq: int) -> Callable[[dict[str, Any]], bool]:
    return lambda f: my_turn(seat)(f) and f["seq"] == seq


def _to_the_deal_end(socks: dict[int, WebSocketTestSession]) -> dict[str, Any]:
    """Each seat of ``socks`` plays its first legal action on its turn (the bots play theirs) until an update ends
    the deal: that update, as the first socket saw it. The sockets are the app's client's (one event loop: a frame
    sent to one socket while another's is being read wakes the loop that serves it)."""
    first = next(iter(socks))
    while True:
        f = recv_until(socks[first], lambda f: f["type"] in ("update", "snapshot") and f["view"] is not None)
        if f["type"] == "update" and "reveal" in f:
            return f
        mover = f["view"]["to_move"]
        if mover in socks:
            g = f if mover == first else recv_until(socks[mover], _turn_at(mover, f["seq"]))
            if g["view"]["legal"]:
                socks[mover].send_json(act_frame(g["view"]["legal"][0], g["seq"]))


def test_the_deal_end_pause_waits_for_the_moved_seat_no_longer_as_for_a_player_who_reconnected(pausing: Web) -> None:
    """At the end of a deal the pause waits for each player at the table to tap Continue. The account's seat moving
    to a new device is its old device leaving: the pause no longer waits for that seat (as when a player's
    connection drops, whose page, back, finds the pause going on without it) — not until its time runs out."""
    web = pausing
    phone, laptop, mate = web.device("ann"), web.device("ann"), web.device("bob")
    r = phone.client.post("/api/rooms", json={"bots": [None, "greedy", None, "greedy"], "timer": 0, "first_timer": 0,
                                              "max_deals": 2})
    code = r.json()["code"]
    ann = phone.client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
    bob = mate.client.post(f"/api/rooms/{code}/join", json={"seat": 2, "name": "Bob"}).json()["token"]
    with web.client.websocket_connect(f"/ws/{code}?token={ann}") as ws0, \
            web.client.websocket_connect(f"/ws/{code}?token={bob}") as ws2:
        for tok in (ann, bob):
            assert web.client.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        end = _to_the_deal_end({0: ws0, 2: ws2})
        assert end["interval"]["waiting"] == [0, 2]
        recv_until(ws2, lambda f: f["type"] == "update" and f["seq"] == end["seq"])
        r = laptop.post(f"/api/rooms/{code}/reclaim")
        assert r.status_code == 200, r.text
        interval = web.service.rooms[code].interval
        assert interval is not None and interval.waiting == {2}  # Bob is still waited for, Ann's seat no longer
        told = recv_until(ws2, lambda f: f["type"] == "interval")
        assert (told["waiting"], told["done"]) == ([2], False)
        assert recv_until(ws0, lambda f: f["type"] == "error")["code"] == "seat_moved"
        # the new device comes in to the pause with the hands turned up, as a player who reconnected: Bob is awaited
        with web.client.websocket_connect(f"/ws/{code}?token={r.json()['token']}") as ws:
            assert ws.receive_json() == {"type": "welcome", "role": "player", "seat": 0}
            snap = recv_until(ws, lambda f: f["type"] == "snapshot")
            assert snap["interval"]["waiting"] == [2] and snap["interval"]["reveal"] == end["reveal"]
            ws2.send_json({"type": "continue"})  # Bob taps Continue: the next deal begins
            done = recv_until(ws, lambda f: f["type"] == "interval")
            assert (done["done"], done["waiting"]) == (True, [])
    assert web.service.rooms[code].interval is None


def test_the_pause_ends_when_the_moved_seat_was_the_last_one_awaited(pausing: Web) -> None:
    web = pausing
    phone, laptop = web.device("ann"), web.device("ann")
    code, old = room_with_seat(phone, ready=False)
    with web.client.websocket_connect(f"/ws/{code}?token={old}") as ws:
        assert phone.client.post(f"/api/rooms/{code}/ready", json={"token": old}).status_code == 200
        end = _to_the_deal_end({0: ws})
        assert end["interval"]["waiting"] == [0]
        assert laptop.post(f"/api/rooms/{code}/reclaim").status_code == 200
        assert web.service.rooms[code].interval is None  # nobody is left to wait for: the next deal is on
        done = recv_until(ws, lambda f: f["type"] in ("interval", "error"))
        assert done["code"] == "seat_moved"  # the old device is told first, and hears nothing of the seat after


# --- refused -------------------------------------------------------------------------------------------------
def test_nobody_but_the_account_gets_the_seat(web: Web) -> None:
    phone = web.device("ann")
    code, token = room_with_seat(phone)
    bob, guest, ann_elsewhere = web.device("bob"), web.device(), web.device("ann")
    seat = web.service.rooms[code].seats[0]
    held = seat.token_hash
    with phone.client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        assert ws.receive_json()["role"] == "player"
        refused(bob.post(f"/api/rooms/{code}/reclaim"), 403, "not_your_seat")
        refused(guest.post(f"/api/rooms/{code}/reclaim"), 401, "not_logged_in")
        refused(ann_elsewhere.post(f"/api/rooms/{code}/reclaim", csrf=False), 403, "csrf")  # another site's page
        refused(ann_elsewhere.client.post(f"/api/rooms/{code}/reclaim", json={}, headers={"X-CSRF-Token": bob.csrf}),
                403, "csrf")  # another session's token
        refused(ann_elsewhere.post("/api/rooms/NOSUCH/reclaim"), 404, "no_room")
        assert seat.token_hash == held and seat.connections == 1  # nothing changed, the phone still plays
        ws.send_json({"type": "ping"})
        assert recv_until(ws, lambda f: f["type"] == "pong")["type"] == "pong"
    assert bob.client.get("/api/me/tables").json() == {"tables": []}
    refused(guest.client.get("/api/me/tables"), 401, "not_logged_in")


def test_an_account_holds_one_seat_of_an_unrated_room_on_every_device(web: Web) -> None:
    """The account that took seat 1 of a lobby, on a second device, is refused a second seat (it was given one: the
    same player on both sides, and two seats for "Take your seat here" to give back); it takes its own seat back
    instead. Other accounts and guests still sit."""
    phone = web.device("ann")
    code = phone.client.post("/api/rooms", json={"bots": [None, None, "greedy", "greedy"], "timer": 0}).json()["code"]
    assert phone.client.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "Ann"}).status_code == 200
    laptop, bob, guest = web.device("ann"), web.device("bob"), web.device()
    refused(laptop.client.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Ann again"}), 409, "already_seated")
    assert web.service.rooms[code].seats[1].kind == "empty"
    assert laptop.client.get("/api/me/tables").json()["tables"] == [
        {"code": code, "status": "lobby", "seat": 0, "name": ""}]
    assert laptop.post(f"/api/rooms/{code}/reclaim").json()["seat"] == 0
    r = bob.client.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Bob"})
    assert r.status_code == 200, r.text
    assert bob.post(f"/api/rooms/{code}/leave", {"token": r.json()["token"]}).status_code == 200
    assert guest.client.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Guest"}).status_code == 200


def test_a_seat_taken_as_a_guest_is_no_accounts(web: Web) -> None:
    guest = web.device()
    code, _ = room_with_seat(guest)  # a guest's seat: the token alone holds it
    ann = web.device("ann")
    assert ann.client.get("/api/me/tables").json() == {"tables": []}
    refused(ann.post(f"/api/rooms/{code}/reclaim"), 403, "not_your_seat")


def test_a_finished_match_gives_no_seat_back(web: Web) -> None:
    phone, laptop = web.device("ann"), web.device("ann")
    code, token = room_with_seat(phone)
    with phone.client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        ws.send_json({"type": "auto", "on": True})
        recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)
    web.service.store.writer.flush()
    assert laptop.client.get("/api/me/tables").json() == {"tables": []}
    refused(laptop.post(f"/api/rooms/{code}/reclaim"), 409, "not_playing")


def test_an_event_tables_seat_is_taken_from_the_events_page_only(site: Site) -> None:  # noqa: F811
    tid = two_teams(site)
    code = start_round(site, tid)["tables"][0]["room"]
    take_seats(site, tid, "ann")
    ann = site.players["ann"]
    assert ann.client.get("/api/me/tables").json() == {"tables": []}  # the event's page shows the way to it
    refused(ann.post(f"/api/rooms/{code}/reclaim"), 409, "seats_bound")


# --- finding an account's seats, on SQLite and PostgreSQL ----------------------------------------------------
def test_an_accounts_seats_are_found_on_sqlite_and_postgresql(db_url: str) -> None:  # noqa: F811
    """Store.account_seats narrows the rows in SQL (the seats' JSON as text), then checks each: on either database
    the account's seat is found, and an id that merely begins the same (7 in 71) or another account's is not."""
    engine = make_engine(db_url)
    upgrade_to_head(engine)
    store = Store(engine)
    try:
        def seat(**kw: Any) -> dict[str, Any]:
            return {"kind": "human", "name": "x", "tier": None, "token_hash": "h", "ready": True, "auto": False, **kw}

        rooms = sa.table("web_rooms", sa.column("code", sa.String), sa.column("config", sa.JSON),
                         sa.column("seed", sa.BigInteger), sa.column("host_hash", sa.String),
                         sa.column("seats", sa.JSON), sa.column("status", sa.String),
                         sa.column("created_at", sa.DateTime(timezone=True)),
                         sa.column("updated_at", sa.DateTime(timezone=True)))
        empty = {"kind": "empty", "name": "", "tier": None, "token_hash": None, "ready": False, "auto": False}
        made = [("MINE01", "playing", [empty, seat(owner_id=7), empty, empty]),
                ("RATED1", "paused", [seat(user_id=7), empty, empty, empty]),
                ("OTHER1", "playing", [seat(owner_id=71), seat(user_id=17), empty, empty]),
                ("OVER01", "over", [seat(owner_id=7), empty, empty, empty])]
        with engine.begin() as conn:
            conn.execute(sa.insert(rooms), [{"code": code, "config": {"name": code.lower()}, "seed": 0, "host_hash": "h",
                                             "seats": seats, "status": status, "created_at": AT, "updated_at": AT}
                                            for code, status, seats in made])
        found = store.account_seats(7)
        assert sorted((x["code"], x["status"], x["seat"], x["name"]) for x in found) == [
            ("MINE01", "playing", 1, "mine01"), ("RATED1", "paused", 0, "rated1")]
        assert store.account_seats(8) == []
    finally:
        store.close()
        engine.dispose()
