"""The start page's list of open rooms (``GET /api/rooms/open``, server/lobby_list.py): which rooms are in it,
what an entry says and never says, its order and its cap, and the route beside ``GET /api/rooms/{code}``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from guandan.db import make_engine
from guandan.db.web import WebRoom
from guandan.server.app import create_app
from guandan.server.lobby_list import OPEN_ROOMS_MAX, open_rooms
from guandan.server.rooms import CODE_ALPHABET, RoomConfig, hash_token
from guandan.server.table import Settings, TableService

from .conftest import counting_seeds, join, new_room

ENTRY_KEYS = {"code", "name", "preset", "timer", "max_deals", "seats", "open_seats", "age_s"}
SEAT_KEYS = {"kind", "name", "tier", "ready"}


class Clock:
    """The service clock, set by the test: the order and the ages of the list are read on it."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(client: TestClient) -> Clock:
    c = Clock()
    service(client).clock = c
    return c


def service(c: TestClient) -> TableService:
    svc: TableService = c.app.state.service  # type: ignore[attr-defined]
    return svc


def listed(c: TestClient) -> list[dict[str, Any]]:
    r = c.get("/api/rooms/open")
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"rooms"}
    rooms: list[dict[str, Any]] = body["rooms"]
    return rooms


def codes(c: TestClient) -> list[str]:
    return [r["code"] for r in listed(c)]


def test_only_listed_lobbies_with_an_open_seat_are_listed(client: TestClient, clock: Clock) -> None:
    open_one = new_room(client, bots=[None, "greedy", None, "greedy"])
    seated = new_room(client, bots=[None, None, None, None])
    join(client, seated, 2, "小红")
    full = new_room(client, bots=[None, "greedy", "greedy", "greedy"])
    join(client, full, 0)  # every seat filled, nobody ready: still a lobby
    started = new_room(client, bots=[None, "greedy", "greedy", "greedy"])
    tok = join(client, started, 0)
    assert client.post(f"/api/rooms/{started}/ready", json={"token": tok}).json()["status"] == "playing"
    practice = new_room(client, bots=[None, "greedy", "greedy", "greedy"], seed=7)  # its seat 0 is open
    unlisted = new_room(client, bots=[None, "greedy", None, "greedy"], listed=False)
    assert {s["kind"] for s in client.get(f"/api/rooms/{unlisted}").json()["seats"]} == {"empty", "bot"}

    assert sorted(codes(client)) == sorted([open_one, seated])
    for code in (full, started, practice, unlisted):
        assert code not in codes(client)
    by_code = {r["code"]: r for r in listed(client)}
    assert by_code[open_one]["open_seats"] == 2 and by_code[seated]["open_seats"] == 3
    assert by_code[seated]["seats"][2] == {"kind": "human", "name": "小红", "tier": None, "ready": False}
    bot = by_code[open_one]["seats"][1]
    assert (bot["kind"], bot["tier"], bot["ready"]) == ("bot", "greedy", False) and isinstance(bot["name"], str)
    assert by_code[open_one]["preset"] == "competition" and by_code[open_one]["timer"] == 0


def test_a_room_leaves_the_list_when_its_last_seat_fills_and_comes_back_when_one_frees(client: TestClient,
                                                                                      clock: Clock) -> None:
    code = new_room(client, bots=[None, "greedy", None, "greedy"], listed=True)
    join(client, code, 0)
    assert codes(client) == [code]
    tok = join(client, code, 2)
    assert codes(client) == []
    assert client.post(f"/api/rooms/{code}/leave", json={"token": tok}).status_code == 200
    assert codes(client) == [code]


def test_an_entry_carries_no_token_seed_or_replay_id(client: TestClient, clock: Clock) -> None:
    r = client.post("/api/rooms", json={"bots": [None, "greedy", None, None], "name": "周五的牌局", "timer": 20})
    code, host = r.json()["code"], r.json()["host_token"]
    seat_token = join(client, code, 0, "阿明")
    room = service(client).rooms[code]
    room.replay_id = "must-not-leak"  # a lobby has none: planted here so that a leak would show
    secrets = [host, seat_token, hash_token(host), hash_token(seat_token), room.host_hash, str(room.seed),
               "must-not-leak"]
    text = client.get("/api/rooms/open").text
    for secret in secrets:
        assert secret not in text, secret
    (entry,) = listed(client)
    assert set(entry) == ENTRY_KEYS
    for seat in entry["seats"]:
        assert set(seat) == SEAT_KEYS
    assert entry["name"] == "周五的牌局" and entry["timer"] == 20 and entry["open_seats"] == 2
    for word in ("token", "seed", "replay", "hash", "online", "auto"):
        assert word not in json.dumps(entry), word


def test_newest_first_with_each_rooms_age(client: TestClient, clock: Clock) -> None:
    made = []
    for t in (100.0, 110.0, 120.0):
        clock.now = t
        made.append(new_room(client, bots=[None, None, "greedy", "greedy"]))
    a, b, c = made
    clock.now = 130.0
    join(client, a, 0)  # a change in the lobby counts as fresh as a new room
    clock.now = 135.5
    assert [(r["code"], r["age_s"]) for r in listed(client)] == [(a, 5), (c, 15), (b, 25)]


def test_at_most_fifty_the_newest(client: TestClient, clock: Clock) -> None:
    svc = service(client)
    made = []
    for i in range(OPEN_ROOMS_MAX + 7):
        clock.now = 1000.0 + i
        room, _host = svc.create_room(RoomConfig())  # no client address: the per-address cap does not apply
        made.append(room.code)
    assert codes(client) == list(reversed(made))[:OPEN_ROOMS_MAX]
    assert len(open_rooms(svc.rooms, clock.now, limit=3)) == 3


def test_the_list_route_does_not_shadow_a_rooms_own(client: TestClient, clock: Clock) -> None:
    code = new_room(client, bots=[None, None, "greedy", "greedy"])
    one = client.get(f"/api/rooms/{code}")
    assert one.status_code == 200 and one.json()["code"] == code and one.json()["status"] == "lobby"
    assert codes(client) == [code]  # /api/rooms/open is the list, not a room called "open"
    assert "O" not in CODE_ALPHABET  # so no room can ever be called OPEN either
    other = client.get("/api/rooms/OPEN")  # any other word still reaches the lookup of a room
    assert other.status_code == 404 and other.json()["error"] == "no_room"


def test_a_bad_listed_value_is_refused_and_creates_nothing(client: TestClient, clock: Clock) -> None:
    before = dict(service(client).rooms)
    r = client.post("/api/rooms", json={"bots": [None, None, None, None], "listed": "perhaps"})
    assert r.status_code == 422 and "listed" in r.text
    assert service(client).rooms == before and codes(client) == []


@pytest.fixture
def db_url(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'web.sqlite3'}"


def test_a_room_stored_before_listed_existed_loads_as_listed(db_url: str) -> None:
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds())
    with TestClient(create_app(db_url, settings)) as c:
        code = new_room(c, bots=[None, None, "greedy", "greedy"])
    engine = make_engine(db_url)
    with engine.begin() as conn:  # the row as an older server wrote it: a config without the field
        config = dict(conn.execute(select(WebRoom.config).where(WebRoom.code == code)).scalar_one())
        assert config.pop("listed") is True
        conn.execute(update(WebRoom).where(WebRoom.code == code).values(config=config))
    engine.dispose()
    assert RoomConfig.model_validate(config).listed is True
    with TestClient(create_app(db_url, settings)) as c:
        assert codes(c) == [code]
