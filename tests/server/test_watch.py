"""A match of four bots to watch (观战): the room's creator starts it over REST, anyone watches the public view,
spectators are its attendance (it pauses when nobody watches and resumes when a page comes back), it is
capped in total and per client address, its bots keep a pace a person can follow and think in the
workers after the players' work, and it ends with its replay kept for the creator. The service's clock is
moved by hand and the sweep run on the app's loop, as in test_lifecycle."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guandan.server.table import TableService
from guandan.server.workers import Priority

from .test_error_texts import refused
from .test_lifecycle import App, open_app, stored_status
from .test_ws import recv_until

pytestmark = pytest.mark.timeout(120)
Frame = dict[str, Any]
FROZEN_MS = 3_600_000  # a pace at which no bot moves during a test: the caps and the sweep see a table as it was


@pytest.fixture
def web(tmp_path: Path) -> Iterator[App]:
    """Bots as fast as they go (no least pace): a one-deal match plays out in a moment."""
    yield from open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", watch_min_bot_delay_ms=0)


def bot_room(c: TestClient, tier: str = "greedy", **config: Any) -> tuple[str, str]:
    """A room of four bots: its code and the creator's host token."""
    r = c.post("/api/rooms", json={"bots": [tier] * 4, "max_deals": 1, "timer": 0, **config})
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["host_token"]


def watch(c: TestClient, code: str, token: str, addr: str | None = None) -> Any:
    return c.post(f"/api/rooms/{code}/watch", json={"token": token},
                  headers={"X-Forwarded-For": addr} if addr else None)


def no_cards(frame: Any) -> None:
    """Nothing a spectator receives holds a hand or a legal list."""
    if isinstance(frame, dict):
        assert not {"hand", "legal", "hands"} & set(frame), frame.keys()
        for v in frame.values():
            no_cards(v)
    elif isinstance(frame, list):
        for v in frame:
            no_cards(v)


def test_the_creator_starts_four_bots_and_a_spectator_watches_the_match_to_its_replay(web: App) -> None:
    c = web.client
    code, host = bot_room(c)
    with c.websocket_connect(f"/ws/{code}") as ws:
        assert ws.receive_json() == {"type": "welcome", "role": "spectator", "seat": None}
        assert recv_until(ws, lambda f: f["type"] == "snapshot")["view"] is None  # the lobby
        # only the host token starts it: a made-up token, or none, is refused and changes nothing
        refused(watch(c, code, "not-the-host"), 403, "forbidden")
        assert c.get(f"/api/rooms/{code}").json()["status"] == "lobby"
        r = watch(c, code, host)
        assert r.status_code == 200 and r.json()["status"] == "playing"
        frames = [recv_until(ws, lambda f: f["type"] == "snapshot" and f["view"] is not None)]
        while not (frames[-1]["type"] == "room" and frames[-1]["room"]["status"] == "over"):
            frames.append(ws.receive_json())
    updates = [f for f in frames if f["type"] == "update"]
    assert len(updates) > 20  # the whole deal, move by move
    for f in frames:
        no_cards({k: v for k, v in f.items() if k != "reveal"})  # a deal's end turns every hand up, to everyone
    assert any(e["type"] == "match_over" for f in updates for e in f["events"])
    # started once: a second start is refused as any lobby change after the start is
    refused(watch(c, code, host), 409, "started")
    # the replay is kept, for the creator (no seat token played it): its link, its list, marking it public
    assert c.get(f"/api/rooms/{code}").json()["replay_id"] is None
    replay_id = c.get(f"/api/rooms/{code}", params={"token": host}).json()["replay_id"]
    assert replay_id and c.get(f"/api/replays/{replay_id}").status_code == 200
    assert [r["id"] for r in c.post("/api/replays/mine", json={"tokens": [host]}).json() if r["mine"]] == [replay_id]
    assert c.post(f"/api/replays/{replay_id}/public", json={"token": host, "public": True}).json()["public"] is True


def test_a_room_with_an_open_seat_or_a_player_is_not_started_to_watch(web: App) -> None:
    c = web.client
    r = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "timer": 0})
    code, host = r.json()["code"], r.json()["host_token"]
    refused(watch(c, code, host), 409, "not_all_bots", seats=(0,))
    tok = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "me"}).json()["token"]
    refused(watch(c, code, host), 409, "not_all_bots", seats=(0,))
    refused(watch(c, code, tok), 403, "forbidden")  # a seat token is not the creator's
    assert c.get(f"/api/rooms/{code}").json()["status"] == "lobby"
    # the creator gives the player's seat back to a bot: now it starts
    assert c.post(f"/api/rooms/{code}/leave", json={"token": tok}).status_code == 200
    assert c.post(f"/api/rooms/{code}/bots", json={"token": host, "seat": 0, "tier": "greedy"}).status_code == 200
    assert watch(c, code, host).status_code == 200


def test_watched_tables_are_capped_per_address_and_in_total(tmp_path: Path) -> None:
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", max_watched_tables=2, max_watched_per_address=1,
                        watch_min_bot_delay_ms=FROZEN_MS, forwarded_allow_ips=("*",)):
        c = web.client
        rooms = [bot_room(c, max_deals=None) for _ in range(4)]
        assert watch(c, *rooms[0], addr="192.0.2.1").status_code == 200
        r = watch(c, *rooms[1], addr="192.0.2.1")
        text = refused(r, 429, "too_many_watched")
        assert "limit is 1" in r.json()["detail"] and "120" in text["zh"] and "120" in text["en"]
        assert "a bot match running" in text["en"] and "一场" in text["zh"]  # one, not "1 bot matches"
        assert watch(c, *rooms[1], addr="192.0.2.2").status_code == 200
        r = watch(c, *rooms[2], addr="192.0.2.3")
        text = refused(r, 503, "watch_full")
        assert "limit of 2" in r.json()["detail"] and "2" in text["zh"] and "(2)" in text["en"]
        assert [c.get(f"/api/rooms/{code}").json()["status"] for code, _ in rooms] == ["playing", "playing", "lobby",
                                                                                         "lobby"]
        # nobody watches the first: it pauses, counts for nobody, and frees a place
        web.sweep(web.service.settings.unattended_pause_s)
        assert stored_status(web, rooms[0][0])[0] == "paused"
        assert watch(c, *rooms[2], addr="192.0.2.3").status_code == 200


def test_an_address_with_several_places_is_told_how_many_it_has(tmp_path: Path) -> None:
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", max_watched_per_address=2,
                        watch_min_bot_delay_ms=FROZEN_MS):
        c = web.client
        rooms = [bot_room(c, max_deals=None) for _ in range(3)]
        assert [watch(c, *room).status_code for room in rooms[:2]] == [200, 200]
        text = refused(watch(c, *rooms[2]), 429, "too_many_watched")
        assert "has 2 bot matches running" in text["en"] and "2场" in text["zh"]


def test_spectators_are_the_attendance_of_a_watched_table(tmp_path: Path) -> None:
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", watch_min_bot_delay_ms=FROZEN_MS):
        c, service, pause = web.client, web.service, web.service.settings.unattended_pause_s
        code, host = bot_room(c, max_deals=None)
        with c.websocket_connect(f"/ws/{code}") as ws:
            recv_until(ws, lambda f: f["type"] == "snapshot")
            assert watch(c, code, host).status_code == 200
            recv_until(ws, lambda f: f["type"] == "snapshot" and f["view"] is not None)
            web.sweep(pause * 3)  # watched: it plays on however long
            assert code in service.rooms and not service.rooms[code].paused and code in service.tasks
        # the last page closed: it pauses unattended_pause_s later, as a table nobody is at does…
        web.sweep(pause - 1)
        assert code in service.rooms and not service.rooms[code].paused
        web.sweep(1)
        assert code not in service.rooms and code not in service.tasks and stored_status(web, code)[0] == "paused"
        # …and a spectator's page brings it back, from where it stopped; its bots play on
        service.settings.watch_min_bot_delay_ms = 0
        with c.websocket_connect(f"/ws/{code}") as ws:
            snap = recv_until(ws, lambda f: f["type"] == "snapshot")
            assert not snap["room"]["paused"] and snap["view"] is not None
            assert stored_status(web, code)[0] == "playing"
            assert recv_until(ws, lambda f: f["type"] == "update")["seq"] == snap["seq"] + 1


def test_a_paused_watched_table_waits_for_room_under_the_caps(tmp_path: Path) -> None:
    """A page opened on a paused table of bots while the caps are full leaves it paused (and says so); the sweep
    resumes it once another stops."""
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", max_watched_tables=1,
                        watch_min_bot_delay_ms=FROZEN_MS):
        c, service, pause = web.client, web.service, web.service.settings.unattended_pause_s
        first, host1 = bot_room(c, max_deals=None)
        assert watch(c, first, host1).status_code == 200
        web.sweep(pause)
        assert stored_status(web, first)[0] == "paused"
        second, host2 = bot_room(c, max_deals=None)
        with c.websocket_connect(f"/ws/{second}") as other:
            assert watch(c, second, host2).status_code == 200  # the paused one counts for nobody
            with c.websocket_connect(f"/ws/{first}") as ws:
                snap = recv_until(ws, lambda f: f["type"] == "snapshot")
                assert snap["room"]["paused"] and first not in service.tasks  # the one place is taken
                web.sweep()
                assert service.rooms[first].paused
                other.close()
                # the server drops that socket on its own loop, and its clock then starts the second's pause: the
                # clock moves on only once it has (else the pause starts after the move, and nothing is resumed)
                for _ in range(1000):
                    if second not in service.conns:
                        break
                    time.sleep(0.01)
                assert second not in service.conns
                web.sweep(pause)  # nobody watches the second any more: it pauses, and the first has its place
                back = recv_until(ws, lambda f: f["type"] == "room" and not f["room"]["paused"])
                assert back["room"]["status"] == "playing" and first in service.tasks
                assert stored_status(web, first)[0] == "playing" and stored_status(web, second)[0] == "paused"


def test_a_watched_tables_bots_keep_a_pace_and_think_after_the_players_work(web: App,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot of a watched table waits at least watch_min_bot_delay_ms, whatever the room and the server
    ask (here 0); its thinking tiers run at Priority.WATCHED, where a table with players' bots run at TABLE."""
    c, service = web.client, web.service
    delays: list[float] = []

    async def no_move(_room: Any, _seat: int, delay: float) -> None:
        delays.append(delay)

    monkeypatch.setattr(service, "_bot_turn", no_move)
    service.settings.watch_min_bot_delay_ms = 800
    code, host = bot_room(c, bot_delay_ms=0)
    assert watch(c, code, host).status_code == 200
    assert delays == [0.8]
    monkeypatch.undo()
    service.settings.watch_min_bot_delay_ms = 0
    asked: list[Priority] = []
    run = service.pool.run

    async def spy(priority: Priority, fn: Any, *args: Any) -> Any:
        asked.append(priority)
        return await run(priority, fn, *args)

    monkeypatch.setattr(service.pool, "run", spy)
    code, host = bot_room(c, "heuristic")  # a tier that thinks in the workers
    with c.websocket_connect(f"/ws/{code}") as ws:
        assert watch(c, code, host).status_code == 200
        recv_until(ws, lambda f: f["type"] == "update")
    assert asked and set(asked) == {Priority.WATCHED}


def test_a_watched_deals_end_pauses_for_its_spectators(web: App) -> None:
    """A table of players pauses after a deal only for its players; a watched one pauses the room's next_deal_s
    with nobody awaited, every hand turned up, then deals on by itself."""
    c = web.client
    web.service.settings.next_deal_s = None  # the room's own
    code, host = bot_room(c, max_deals=2, next_deal_s=1)
    with c.websocket_connect(f"/ws/{code}") as ws:
        recv_until(ws, lambda f: f["type"] == "snapshot")
        assert watch(c, code, host).status_code == 200
        ended = recv_until(ws, lambda f: f["type"] == "update" and "reveal" in f)
        assert ended["interval"] == {"deal": 0, "waiting": [], "left": 1.0, "done": False}
        assert len(ended["reveal"]) == 4 and ended["clock"] is None
        done = recv_until(ws, lambda f: f["type"] in ("interval", "update"))
        assert done["type"] == "interval" and done["done"] is True  # no move before the pause is over
        assert recv_until(ws, lambda f: f["type"] == "update")["view"]["deal_index"] == 1


def test_a_spectator_neither_keeps_a_table_of_players_going_nor_puts_its_pause_off(web: App) -> None:
    """At a table with a player's seat spectators are no attendance: one who comes and goes after the players
    left does not move the moment it pauses."""
    c, service, pause = web.client, web.service, web.service.settings.unattended_pause_s
    r = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "timer": 0})
    code = r.json()["code"]
    tok = c.post(f"/api/rooms/{code}/join", json={"seat": 0, "name": "me"}).json()["token"]
    service.settings.bot_delay_ms = FROZEN_MS
    assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200  # nobody connected
    web.sweep(pause - 10)
    with c.websocket_connect(f"/ws/{code}") as ws:
        recv_until(ws, lambda f: f["type"] == "snapshot")
        web.sweep(5)
    assert code in service.rooms and not service.rooms[code].paused
    web.sweep(5)
    assert code not in service.rooms and stored_status(web, code)[0] == "paused"


# --- one request: create a room of four bots and start it to watch (the start page's one tap) -------------
def create_watched(c: TestClient, tier: str = "greedy", addr: str | None = None, **config: Any) -> Any:
    return c.post("/api/rooms", json={"bots": [tier] * 4, "timer": 0, "listed": False, "watch": True, **config},
                  headers={"X-Forwarded-For": addr} if addr else None)


def test_one_request_creates_four_bots_and_starts_them_for_a_spectator(web: App) -> None:
    c = web.client
    r = create_watched(c, max_deals=1)
    assert r.status_code == 201, r.text
    created = r.json()
    code, host = created["code"], created["host_token"]
    assert created["room"]["status"] == "playing" and created["link"] == f"/r/{code}"
    assert [s["kind"] for s in created["room"]["seats"]] == ["bot"] * 4
    # started at once; with no least pace here the bots may already have played the one deal out
    assert c.get(f"/api/rooms/{code}").json()["status"] in ("playing", "over")
    assert stored_status(web, code)[0] in ("playing", "over")
    assert "watch" not in web.service.rooms[code].config.model_dump()  # a request's wish, no setting of the room
    with c.websocket_connect(f"/ws/{code}") as ws:  # the page it lands on: a spectator of the match
        assert ws.receive_json()["role"] == "spectator"
        # the bots (no least pace here) may have played the deal out before the page came: its snapshot says so
        frame = recv_until(ws, lambda f: f["type"] in ("snapshot", "room") and f["room"]["status"] == "over")
    assert frame["room"]["replay_id"] is None  # a spectator is told of no replay
    replay_id = c.get(f"/api/rooms/{code}", params={"token": host}).json()["replay_id"]
    assert replay_id and c.get(f"/api/replays/{replay_id}").status_code == 200  # kept for the creator


def test_a_refused_one_tap_watch_leaves_no_room_behind(tmp_path: Path) -> None:
    """Each refusal of the one request (a seat that is no bot, the caps on matches to watch, a bad field) is
    told in both languages and makes nothing: no room in memory or in the database, no place of the
    address's room cap taken, however often it is asked."""
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", max_watched_tables=2, max_watched_per_address=1,
                        max_rooms_per_address=3, watch_min_bot_delay_ms=FROZEN_MS, forwarded_allow_ips=("*",)):
        c, service = web.client, web.service

        def nothing_made(before: set[str], service: TableService = service) -> None:
            assert set(service.rooms) == before and set(service.store.live_codes()) == before

        assert create_watched(c, addr="192.0.2.1", max_deals=None).status_code == 201
        made = set(service.rooms)
        for _ in range(5):  # more refusals than the address may hold rooms: none of them holds one
            r = create_watched(c, addr="192.0.2.1")
            text = refused(r, 429, "too_many_watched")
            assert "limit is 1" in r.json()["detail"] and "一场" in text["zh"] and "a bot match" in text["en"]
            nothing_made(made)
        r = c.post("/api/rooms", json={"bots": ["greedy", None, "greedy", "greedy"], "watch": True},
                   headers={"X-Forwarded-For": "192.0.2.2"})
        refused(r, 409, "not_all_bots", seats=(1,))
        nothing_made(made)
        refused(create_watched(c, addr="192.0.2.2", watch="yes"), 422, "bad_request")  # strict, as every field
        nothing_made(made)
        assert create_watched(c, addr="192.0.2.2", max_deals=None).status_code == 201
        made = set(service.rooms)
        r = create_watched(c, addr="192.0.2.3")
        text = refused(r, 503, "watch_full")
        assert "limit of 2" in r.json()["detail"] and "2" in text["zh"] and "(2)" in text["en"]
        nothing_made(made)
        # the refused address holds no more rooms than it made: its watched one and two more fill its cap of 3
        for _ in range(2):
            assert c.post("/api/rooms", json={"timer": 0}, headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 201
        refused(c.post("/api/rooms", json={"timer": 0}, headers={"X-Forwarded-For": "192.0.2.1"}), 429, "too_many_rooms")
        # without "watch" a room of four bots waits in the lobby for its creator, as it always did
        code = c.post("/api/rooms", json={"bots": ["greedy"] * 4}, headers={"X-Forwarded-For": "192.0.2.4"}).json()["code"]
        assert c.get(f"/api/rooms/{code}").json()["status"] == "lobby"


@pytest.mark.parametrize("limit", [{"max_watched_tables": 0}, {"max_watched_per_address": 0}])
def test_a_limit_of_0_offers_no_bot_matches_and_refuses_one_in_words(tmp_path: Path, limit: dict[str, int]) -> None:
    """`serve --max-watched-tables 0` (or `--max-watched-per-address 0`): the server runs no match of four bots to
    watch. /api/meta says so (the start page leaves its button out), and a start is refused in words, whichever way
    it comes (the one-tap create or the lobby's watch), with nothing left behind by the one-tap create."""
    for web in open_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", **limit):
        c, service = web.client, web.service
        assert c.get("/api/meta").json()["watch"] is False
        r = c.post("/api/rooms", json={"bots": ["greedy"] * 4, "watch": True})
        text = refused(r, 403, "watch_off")
        assert text["en"] == "This server does not run bot matches to watch." and "机器人" in text["zh"]
        assert service.rooms == {}
        code, host = bot_room(c)
        refused(watch(c, code, host), 403, "watch_off")
        assert c.get(f"/api/rooms/{code}").json()["status"] == "lobby"


def test_the_meta_says_bot_matches_are_offered_by_default(web: App) -> None:
    assert web.client.get("/api/meta").json()["watch"] is True
