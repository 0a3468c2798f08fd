"""Lifecycle and caps: idle lobbies close, a finished match leaves memory once its replay is saved, a table
nobody is at pauses (no 托管 bot plays it to the end) and resumes when a player returns, rooms are capped in
total and per address, and rate buckets and bots are forgotten when nothing needs them. The service's
clock is a stand-in moved by hand and the sweep is run on the app's loop: nothing here waits for time."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from guandan.server.app import create_app
from guandan.server.table import Settings, TableService

from .conftest import counting_seeds, join, new_room
from .test_ws import act_frame, recv_until

pytestmark = pytest.mark.timeout(120)
ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclasses.dataclass
class App:
    client: TestClient
    service: TableService
    clock: Clock
    db_url: str

    def sweep(self, advance: float = 0.0) -> None:
        """Move the clock on and run one sweep on the app's event loop (where the sweeper runs it)."""
        self.clock.now += advance
        portal = self.client.portal
        assert portal is not None
        portal.call(self.service.sweep)

    def on_loop(self, fn: Any, *args: Any) -> Any:
        portal = self.client.portal
        assert portal is not None
        return portal.call(fn, *args)


def open_app(db_url: str, **kw: Any) -> Iterator[App]:
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds(), sweep_interval_s=10_000, **kw)
    app = create_app(db_url, settings)
    clock = Clock()
    service: TableService = app.state.service
    service.clock = clock
    with TestClient(app) as c:
        yield App(c, service, clock, db_url)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[App]:
    yield from open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", disconnect_grace_s=0.05)


def play_out(ws: WebSocketTestSession, c: TestClient, code: str, tok: str) -> dict[str, Any]:
    """Seat 0 hands itself to 托管 and the bots play the one-deal match out; the final room frame."""
    assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
    ws.send_json({"type": "auto", "on": True})
    return recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)


def finished_room(c: TestClient) -> tuple[str, str, dict[str, Any]]:
    code = new_room(c)
    tok = join(c, code, 0)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        final = play_out(ws, c, code, tok)
    return code, tok, final["room"]


# --- lobbies --------------------------------------------------------------------------------------------
def test_an_idle_lobby_closes_and_stays_closed(web: App) -> None:
    c, idle = web.client, web.service.settings.lobby_idle_s
    code = new_room(c)
    tok = join(c, code, 0)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert recv_until(ws, lambda f: f["type"] == "snapshot")["room"]["status"] == "lobby"
        web.sweep(idle - 1)
        assert code in web.service.rooms  # not yet
        assert c.post(f"/api/rooms/{code}/ready", json={"token": tok, "ready": False}).status_code == 200  # a change…
        web.sweep(idle - 1)
        assert code in web.service.rooms  # …starts the count again
        web.sweep(1)
        closed = recv_until(ws, lambda f: f["type"] == "error")
        assert closed["code"] == "room_closed" and code in closed["message"]
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4410
    assert code not in web.service.rooms and code not in web.service.conns
    r = c.get(f"/api/rooms/{code}")
    assert r.status_code == 410 and r.json()["error"] == "room_closed"
    assert c.post(f"/api/rooms/{code}/join", json={"seat": 2, "name": "c"}).status_code == 410
    with c.websocket_connect(f"/ws/{code}") as ws:
        assert ws.receive_json()["code"] == "room_closed"
    # a restart does not bring it back
    for again in open_app(web.db_url):
        assert code not in again.service.rooms
        assert again.client.get(f"/api/rooms/{code}").status_code == 410


# --- finished matches -----------------------------------------------------------------------------------
def test_a_finished_match_leaves_memory_once_its_replay_is_saved(web: App) -> None:
    c, service = web.client, web.service
    code, tok, room = finished_room(c)
    assert room["replay_id"] and c.get(f"/api/replays/{room['replay_id']}").status_code == 200  # saved
    assert not [k for k in service.agents if k[0] == code]  # its bots are gone at once
    web.sweep(service.settings.finished_linger_s - 1)
    assert code in service.rooms  # the players' pages still show the end for a while
    web.sweep(1)
    assert code not in service.rooms and code not in service.tasks and code not in service.conns
    # the database answers for it from now on: the room, the replay link for its players, a page that opens
    again = c.get(f"/api/rooms/{code}", params={"token": tok}).json()
    assert again["status"] == "over" and again["replay_id"] == room["replay_id"] and again["seq"] == room["seq"]
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert ws.receive_json()["type"] == "welcome"
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["view"] is None and snap["room"]["status"] == "over"
        assert snap["room"]["replay_id"] == room["replay_id"]
        ws.send_json({"type": "auto", "on": True})
        assert recv_until(ws, lambda f: f["type"] == "error")["code"] == "not_playing"
    assert code not in service.rooms and code not in service.conns  # looking did not bring it back


# --- unattended tables ----------------------------------------------------------------------------------
def stored_status(web: App, code: str) -> tuple[str, int]:
    found = web.service.store.room_status(code)
    assert found is not None
    return found[0].status, found[1]


def test_a_table_nobody_is_at_pauses_and_resumes_when_a_player_returns(web: App) -> None:
    c, service = web.client, web.service
    code = new_room(c, max_deals=None)  # a whole match: far longer than this test
    tok = join(c, code, 0)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        recv_until(ws, lambda f: f["type"] == "snapshot" and f["view"] is not None)
    # the player has gone: after the grace period 托管 plays the seat, the bots play on…
    web.sweep(service.settings.unattended_pause_s - 1)
    assert code in service.rooms and not service.rooms[code].paused
    # …until nobody has been there for unattended_pause_s: then it pauses, and leaves memory
    web.sweep(1)
    assert code not in service.rooms and code not in service.tasks
    assert not [k for k in service.agents if k[0] == code]
    status, at_pause = stored_status(web, code)
    assert status == "paused"
    # a spectator looks in: the table is paused and stays so
    with c.websocket_connect(f"/ws/{code}") as spectator:
        recv_until(spectator, lambda f: f["type"] == "welcome")
        snap = recv_until(spectator, lambda f: f["type"] == "snapshot")
        assert snap["room"]["paused"] and snap["seq"] == at_pause
        assert code not in service.tasks  # nothing armed: no bot moves
        spectator.send_json({"type": "ping"})
        assert recv_until(spectator, lambda f: f["type"] == "pong")["seq"] == at_pause
    web.sweep()
    assert code not in service.rooms and stored_status(web, code) == ("paused", at_pause)
    # a restart does not wake it either
    for again in open_app(web.db_url, disconnect_grace_s=0.05):
        assert code not in again.service.rooms
        assert again.client.get(f"/api/rooms/{code}").json()["paused"]
    # the player returns: the table plays on from exactly where it stopped
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        snap = recv_until(ws, lambda f: f["type"] == "snapshot")
        assert snap["seq"] == at_pause and not snap["room"]["paused"]
        assert stored_status(web, code)[0] == "playing"
        view = snap["view"]
        if view["to_move"] == 0 and not snap["room"]["seats"][0]["auto"]:  # it paused on the player's own turn
            ws.send_json(act_frame(view["legal"][0], snap["seq"]))
        moved = recv_until(ws, lambda f: f["type"] == "update")  # the bots (and 托管, if it took over) play on
        assert moved["seq"] == at_pause + 1


def test_a_table_started_with_nobody_connected_pauses_too(web: App) -> None:
    c, service = web.client, web.service
    code = new_room(c, max_deals=None)
    tok = join(c, code, 0)
    assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200  # over REST, no socket
    web.sweep(service.settings.unattended_pause_s)
    assert code not in service.rooms and stored_status(web, code)[0] == "paused"


# --- caps -----------------------------------------------------------------------------------------------
def test_rooms_are_capped_in_total_and_per_address(tmp_path: Path) -> None:
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", max_rooms=4, max_rooms_per_address=2,
                        forwarded_allow_ips=("*",)):  # the test client stands for a proxy: X-Forwarded-For names
        def create(addr: str, c: TestClient = web.client) -> Any:
            return c.post("/api/rooms", json={"timer": 0}, headers={"X-Forwarded-For": addr})

        assert [create("192.0.2.1").status_code for _ in range(2)] == [201, 201]
        r = create("192.0.2.1")
        assert r.status_code == 429 and r.json()["error"] == "too_many_rooms" and "limit is 2" in r.json()["detail"]
        assert r.json()["text"]["en"] == "This address has 2 open rooms, as many as it may have: finish or leave one first."
        assert [create("192.0.2.2").status_code for _ in range(2)] == [201, 201]
        r = create("192.0.2.3")
        assert r.status_code == 503 and r.json()["error"] == "server_full" and "4 rooms" in r.json()["detail"]
        assert len(web.service.rooms) == 4  # a refusal creates nothing
        # an idle lobby closing frees its place
        web.sweep(web.service.settings.lobby_idle_s)
        assert create("192.0.2.3").status_code == 201


def test_a_limit_of_one_room_per_address_says_one_room(tmp_path: Path) -> None:
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", max_rooms_per_address=1, forwarded_allow_ips=("*",)):
        def create(c: TestClient = web.client) -> Any:
            return c.post("/api/rooms", json={"timer": 0}, headers={"X-Forwarded-For": "192.0.2.1"})

        assert create().status_code == 201
        r = create()
        assert r.status_code == 429 and r.json()["error"] == "too_many_rooms"
        assert r.json()["detail"].startswith("this address already has 1 open room (the limit is 1)")
        assert r.json()["text"] == {
            "en": "This address has 1 open room, as many as it may have: finish or leave it first.",
            "zh": "这个地址已有1个未结束的房间，已达上限：请先打完或离开一个。"}


def test_rate_buckets_and_bots_are_forgotten_when_nothing_needs_them(web: App) -> None:
    c, service = web.client, web.service
    for _ in range(3):
        assert c.post("/api/rooms", json={"timer": 0}).status_code == 201
    assert list(service.join_buckets) == ["testclient"]
    web.sweep(1)
    assert list(service.join_buckets) == ["testclient"]  # 3 of its 30 still spent
    web.sweep(3 * 60 / service.settings.join_rate_per_min)
    assert service.join_buckets == {}
    service.agents[("GONE00", 1)] = object()  # type: ignore[assignment]  # a bot whose room is not in memory
    web.sweep()
    assert ("GONE00", 1) not in service.agents


# --- the settings ---------------------------------------------------------------------------------------
LIMITS = ["max_rooms", "max_rooms_per_address", "lobby_idle_s", "unattended_pause_s", "max_watched_tables",
          "max_watched_per_address", "watch_min_bot_delay_ms"]


def test_the_serve_options_state_the_settings_defaults() -> None:
    from guandan.server import cli

    defaults = Settings()
    src = Path(cli.__file__).read_text(encoding="utf-8")
    for name in LIMITS:
        value = getattr(defaults, name)
        option = src[src.index(f"    {name}: Annotated"):]
        option = option[:option.index("= None")]
        assert f"(default {value:g})" in option, name



def test_the_sweep_collects_the_garbage_of_finished_matches_once_a_minute(web: App,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`guandan serve` raises the collector's thresholds; reference cycles left by finished matches are
    collected by the sweep, at most every gc_interval_s (60 s)."""
    import gc

    full: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: full.append(generation) or 0)
    web.service.last_gc = web.clock.now
    web.sweep(30)
    assert full == []
    web.sweep(31)
    assert full == [2]
    web.sweep(5)
    assert full == [2]  # not again before another minute
    web.sweep(60)
    assert full == [2, 2]
