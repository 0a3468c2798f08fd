"""Replays are private by default: listed only to the players who played them (by the seat tokens their
browsers keep) and to everyone once one of them marks the replay public; a replay's link keeps working
for whoever has it, and neither a replay id nor a room code leads anyone else to it."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from guandan.server.store import new_replay_id

from .conftest import join, new_room
from .test_api import _finished_record
from .test_lifecycle import play_out
from .test_ws import recv_until

pytestmark = pytest.mark.timeout(60)


def mine(c: TestClient, *tokens: str) -> list[str]:
    r = c.post("/api/replays/mine", json={"tokens": list(tokens)})
    assert r.status_code == 200, r.text
    return [x["id"] for x in r.json()]


def listed(c: TestClient) -> list[str]:
    return [x["id"] for x in c.get("/api/replays").json()]


def test_a_finished_match_is_listed_to_its_players_only(client: TestClient) -> None:
    code = new_room(client, bots=[None, "greedy", None, "greedy"])
    a, b = join(client, code, 0, "a"), join(client, code, 2, "b")
    other = join(client, new_room(client), 0)  # a player of another room
    with client.websocket_connect(f"/ws/{code}?token={a}") as ws, client.websocket_connect(f"/ws/{code}?token={b}") as w2, \
            client.websocket_connect(f"/ws/{code}") as spectator:
        assert client.post(f"/api/rooms/{code}/ready", json={"token": b}).status_code == 200
        assert client.post(f"/api/rooms/{code}/ready", json={"token": a}).status_code == 200
        w2.send_json({"type": "auto", "on": True})
        ws.send_json({"type": "auto", "on": True})
        room = recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)["room"]
        watched = recv_until(spectator, lambda f: f["type"] == "room" and f["room"]["status"] == "over")
    rid = room["replay_id"]
    assert rid and watched["room"]["replay_id"] is None  # the spectator is not given the link
    assert client.get(f"/api/rooms/{code}").json()["replay_id"] is None  # nor is anyone who knows the code
    assert client.get(f"/api/rooms/{code}", params={"token": other}).json()["replay_id"] is None
    assert client.get(f"/api/rooms/{code}", params={"token": b}).json()["replay_id"] == rid
    assert rid not in listed(client)
    assert mine(client, a) == [rid] and mine(client, b) == [rid] and mine(client, "x" * 32, a) == [rid]
    assert rid not in mine(client, other) and mine(client, "nobody") == []
    entry = client.post("/api/replays/mine", json={"tokens": [a]}).json()[0]
    assert entry["mine"] and not entry["public"] and entry["room"] == code
    # the link works for anyone who has it
    frames = client.get(f"/api/replays/{rid}")
    assert frames.status_code == 200 and frames.json()["public"] is False and frames.json()["id"] == rid
    assert client.get(f"/api/replays/{rid}/record").status_code == 200


def test_a_player_marks_a_replay_public_and_private_again(client: TestClient) -> None:
    code = new_room(client)
    tok = join(client, code, 0)
    other = join(client, new_room(client), 0)
    with client.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        rid = play_out(ws, client, code, tok)["room"]["replay_id"]
    for token in (other, "forged-token"):  # not a player of this match: refused, nothing changes
        r = client.post(f"/api/replays/{rid}/public", json={"token": token, "public": True})
        assert r.status_code == 403 and r.json()["error"] == "forbidden"
    assert rid not in listed(client)
    r = client.post(f"/api/replays/{rid}/public", json={"token": tok, "public": True})
    assert r.status_code == 200 and r.json() == {"id": rid, "public": True}
    assert rid in listed(client) and rid in mine(client, other)  # now everyone's
    assert client.get(f"/api/replays/{rid}").json()["public"] is True
    entry = next(x for x in client.post("/api/replays/mine", json={"tokens": [other]}).json() if x["id"] == rid)
    assert entry["public"] and not entry["mine"]
    assert client.post(f"/api/replays/{rid}/public", json={"token": tok, "public": False}).status_code == 200
    assert rid not in listed(client) and rid not in mine(client, other)


def test_bad_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    assert client.post("/api/replays/nope/public", json={"token": "t", "public": True}).status_code == 404
    for body in ({"token": "t"}, {"public": True}, {"token": "", "public": True}, {"token": "t", "public": 3},
                 {"token": "t", "public": True, "extra": 1}):
        assert client.post("/api/replays/nope/public", json=body).status_code == 422, body
    for body in ({}, {"tokens": "abc"}, {"tokens": [""]}, {"tokens": ["x" * 101]}, {"tokens": ["t"] * 501},
                 {"tokens": [], "more": 1}):
        r = client.post("/api/replays/mine", json=body)
        assert r.status_code == 422 and r.json()["detail"], body
    assert listed(client) == []


def test_an_imported_record_is_private_to_whoever_imported_it(client: TestClient) -> None:
    r = client.post("/api/replays", content=_finished_record(), headers={"Content-Type": "application/json"})
    assert r.status_code == 201
    rid, token = r.json()["id"], r.json()["token"]
    assert rid not in listed(client) and mine(client, token) == [rid]
    assert client.post(f"/api/replays/{rid}/public", json={"token": token, "public": True}).status_code == 200
    assert rid in listed(client)


def test_replay_ids_cannot_be_guessed() -> None:
    ids = {new_replay_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", i) for i in ids)  # 96 random bits each (16 base64 characters)

