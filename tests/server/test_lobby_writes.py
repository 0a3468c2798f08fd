"""No client slows down another: a lobby request over REST (create, join, ready, leave, bots) queues its
room's write to the store's writer thread and awaits it, so while the writer is busy with other tables'
commits the event loop goes on answering every other table; and nothing is lost: the answer leaves only
once the room's row holds what it reports, and a restart after it finds the room as the answer said.

The writer is held here by a write of the test's own that waits on an Event (the writer runs its jobs in
order: nothing queued after it commits until the test lets it go)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from async_support import call
from guandan.db import make_engine
from guandan.server.app import create_app
from guandan.server.reviews import ReviewService
from guandan.server.rooms import Room, RoomConfig, hash_token
from guandan.server.store import Store
from guandan.server.table import Settings, TableService

from .conftest import counting_seeds, join, new_room
from .test_api import _finished_record
from .test_ws import recv_until

pytestmark = pytest.mark.timeout(120)
Response = Any  # what TestClient answers (its own HTTP client's)
ANSWERED_S = 10.0  # what "at once" may take here: the loop answers a ping in milliseconds when nothing holds it


class Background:
    """A call in a thread of its own: a TestClient request (or socket frame) waits on the app's event loop,
    and the test must see whether that loop is held without being held itself."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = threading.Event()
        threading.Thread(target=self._run, args=(fn,), daemon=True).start()

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self.result = fn()
        except BaseException as e:  # handed to the test thread by wait()
            self.error = e
        finally:
            self.done.set()

    def wait(self, seconds: float, what: str) -> Any:
        assert self.done.wait(seconds), what
        if self.error is not None:
            raise self.error
        return self.result


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def c(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds(),
                                            workers=0))) as client:
        yield client


def service_of(c: TestClient) -> TableService:
    service: TableService = c.app.state.service  # type: ignore[attr-defined]
    return service


@contextmanager
def writer_held(store: Store) -> Iterator[threading.Event]:
    """The writer thread busy (another table's slow commit, say) until the Event yielded is set: every
    write queued before is committed, none queued after."""
    release, busy = threading.Event(), threading.Event()

    def slow_write() -> None:
        busy.set()
        release.wait(60)

    store.later(slow_write)
    assert busy.wait(10)
    try:
        yield release
    finally:
        release.set()  # whatever the test found, nothing stays stuck behind it


def wait_for(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + ANSWERED_S
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def ping(ws: WebSocketTestSession) -> int:
    ws.send_json({"type": "ping"})
    return int(recv_until(ws, lambda f: f["type"] == "pong")["seq"])


def row(db: str, code: str) -> Any:
    """The room's row as committed now, read on a connection of its own (a second process would see this)."""
    store = Store(make_engine(db))
    try:
        found = store.peek_room_status(code)
        return None if found is None else found[0]
    finally:
        store.engine.dispose()


def restarted(db: str, code: str) -> Room:
    """Room ``code`` in a server started again on the database as it is now (every live table rebuilt from
    what is committed)."""
    service = TableService(Store(make_engine(db)), Settings(workers=0))
    try:
        service.restore()
        return service.rooms[code]
    finally:
        service.store.close()
        service.pool.close()
        service.store.engine.dispose()


def answered_after_commit(c: TestClient, elsewhere: WebSocketTestSession, request: Callable[[], Response],
                          applied: Callable[[], bool], stored: Callable[[], bool]) -> Response:
    """Send ``request`` while the writer is held: once its change is made in memory (``applied``) another
    table's socket (``elsewhere``) is still answered at once, the request's answer waits, and the row
    (``stored``) does not hold the change yet. Then the writer goes on: the answer comes, and the row holds it."""
    with writer_held(service_of(c).store) as release:
        answer = Background(request)
        wait_for(applied, "the request's change was not made while the writer was busy: the loop waited for it")
        other = Background(lambda: ping(elsewhere))
        other.wait(ANSWERED_S, "another table's ping was not answered: the event loop waited for the writer")
        assert not answer.done.is_set(), "answered before the room's row was committed"
        assert not stored(), "committed while the writer was held?"
        release.set()
        response: Response = answer.wait(30, "the request was not answered once the writer went on")
    assert stored(), "answered, and the row does not hold what the answer said"
    return response


@contextmanager
def another_table(c: TestClient) -> Iterator[WebSocketTestSession]:
    """A table somebody else is watching: its socket's pings measure whether the loop is free."""
    code = new_room(c)
    with c.websocket_connect(f"/ws/{code}") as ws:
        ping(ws)
        yield ws


def test_creating_a_room_waits_for_its_row_and_no_other_table_waits(c: TestClient, db: str) -> None:
    service = service_of(c)
    with another_table(c) as ws:
        before = set(service.rooms)
        created = answered_after_commit(
            c, ws, lambda: c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "timer": 0}),
            applied=lambda: len(service.rooms) > len(before),
            stored=lambda: all(row(db, code) is not None for code in set(service.rooms) - before))
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    found = restarted(db, code)
    assert found.host_hash == hash_token(created.json()["host_token"]) and found.status == "lobby"


def test_joining_waits_for_the_seat_to_be_committed_and_no_other_table_waits(c: TestClient, db: str) -> None:
    service = service_of(c)
    code = new_room(c, bots=[None, None, "greedy", "greedy"])
    with another_table(c) as ws:
        joined = answered_after_commit(
            c, ws, lambda: c.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "late"}),
            applied=lambda: service.rooms[code].seats[1].kind == "human",
            stored=lambda: row(db, code).seats[1]["kind"] == "human")
    assert joined.status_code == 200, joined.text
    seat = restarted(db, code).seats[1]
    assert seat.name == "late" and seat.token_hash == hash_token(joined.json()["token"])


def test_the_ready_that_starts_the_match_waits_for_it_to_be_committed(c: TestClient, db: str) -> None:
    service = service_of(c)
    code = new_room(c)
    tok = join(c, code, 0)
    with another_table(c) as ws:
        ready = answered_after_commit(
            c, ws, lambda: c.post(f"/api/rooms/{code}/ready", json={"token": tok}),
            applied=lambda: service.rooms[code].status == "playing",
            stored=lambda: row(db, code).status == "playing")
    assert ready.status_code == 200 and ready.json()["status"] == "playing", ready.text
    again = restarted(db, code)
    assert again.status == "playing" and again.match is not None and again.seats[0].ready


def test_leaving_and_changing_bots_wait_for_their_commit_and_no_other_table_waits(c: TestClient, db: str) -> None:
    service = service_of(c)
    code = new_room(c, bots=[None, None, "greedy", "greedy"])
    tok = join(c, code, 0)
    with another_table(c) as ws:
        bot = answered_after_commit(
            c, ws, lambda: c.post(f"/api/rooms/{code}/bots", json={"token": tok, "seat": 1, "tier": "random"}),
            applied=lambda: service.rooms[code].seats[1].kind == "bot",
            stored=lambda: row(db, code).seats[1]["kind"] == "bot")
        assert bot.status_code == 200, bot.text
        left = answered_after_commit(
            c, ws, lambda: c.post(f"/api/rooms/{code}/leave", json={"token": tok}),
            applied=lambda: service.rooms[code].seats[0].kind == "empty",
            stored=lambda: row(db, code).seats[0]["kind"] == "empty")
        assert left.status_code == 200, left.text
    assert [s.kind for s in restarted(db, code).seats] == ["empty", "bot", "bot", "bot"]


def test_a_room_read_back_from_the_database_does_not_wait_for_other_tables_writes(c: TestClient, db: str) -> None:
    """A lobby that left memory (a paused table does too) is read back as committed: its own writes are
    all in, so the other tables' queued ones are not waited for, by a page's GET nor by its socket."""
    service = service_of(c)
    code = new_room(c, bots=[None, None, "greedy", "greedy"])
    assert c.portal is not None
    c.portal.call(lambda: service.forget(service.rooms[code]))
    with another_table(c) as ws, writer_held(service.store):
        got = Background(lambda: c.get(f"/api/rooms/{code}"))
        answer: Response = got.wait(ANSWERED_S, "the room was read after every table's queued write")
        assert answer.status_code == 200 and answer.json()["code"] == code
        ping(ws)
        c.portal.call(lambda: service.forget(service.rooms[code]))

        def connect() -> str:
            with c.websocket_connect(f"/ws/{code}") as page:
                return str(page.receive_json()["type"])

        assert Background(connect).wait(ANSWERED_S, "the socket's room was read after every table's queued write") \
            == "welcome"


def test_a_room_that_left_memory_with_a_write_queued_is_read_once_it_is_committed(c: TestClient, db: str) -> None:
    """A lobby closed for being idle leaves memory at once, its row's "closed" still queued: a request for it
    waits for that write (and only for the writes before it), and is told the room closed."""
    service = service_of(c)
    code = new_room(c, bots=[None, None, "greedy", "greedy"])
    assert c.portal is not None
    with another_table(c) as ws, writer_held(service.store) as release:
        c.portal.call(lambda: service._close_lobby(service.rooms[code]))
        got = Background(lambda: c.get(f"/api/rooms/{code}"))
        assert not got.done.wait(0.5), "the room was read back before its own write was committed"
        Background(lambda: ping(ws)).wait(ANSWERED_S, "another table's ping was not answered: the loop waited")
        release.set()
        answer: Response = got.wait(30, "the request was not answered once the writer went on")
    assert answer.status_code == 410 and answer.json()["error"] == "room_closed", answer.text
    assert code not in service.rooms and row(db, code).status == "closed"


def test_importing_a_replay_and_asking_for_a_review_await_their_commit(c: TestClient, db: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ReviewService, "start", lambda self: None)  # queued, not worked out: only its row matters
    service = service_of(c)
    text = _finished_record()
    with another_table(c) as ws:
        with writer_held(service.store) as release:
            imported = Background(lambda: c.post("/api/replays", content=text,
                                                  headers={"Content-Type": "application/json"}))
            wait_for(lambda: service.store.writer.pending >= 2, "the replay's write was never asked for")
            Background(lambda: ping(ws)).wait(ANSWERED_S, "another table waited for the import's write")
            assert not imported.done.is_set(), "the import was answered before its replay was committed"
            release.set()
            answer: Response = imported.wait(30, "the import was not answered once the writer went on")
        assert answer.status_code == 201, answer.text
        rid = answer.json()["id"]
        stored = service.store.replay(rid)
        assert stored is not None and json.loads(stored) == json.loads(text)
        with writer_held(service.store) as release:
            asked = Background(lambda: c.post(f"/api/replays/{rid}/reviews", json={"seat": 1}))
            wait_for(lambda: service.store.writer.pending >= 2, "the review's rows were never read")
            Background(lambda: ping(ws)).wait(ANSWERED_S, "another table waited for the review's write")
            release.set()
            review: Response = asked.wait(30, "the review request was not answered once the writer went on")
        assert review.status_code == 202, review.text
        assert [r.seat for r in service.store.reviews(rid)] == [1]


def test_without_an_event_loop_the_lobby_calls_commit_before_they_return(db: str) -> None:
    """The service called directly (a script, the command line, a test) waits for each write itself. Run in a
    thread of its own: in an xdist worker that ran a browser test first, pytest-playwright leaves its loop
    running in the main thread (tests/async_support.py), where the service rightly queues its writes instead."""
    create_app(db)  # the database at its latest schema
    store = Store(make_engine(db))
    service = TableService(store, Settings(workers=0))

    def lobby() -> None:
        room, _host = service.create_room(RoomConfig(bots=[None, None, "greedy", "greedy"], timer=0))
        assert row(db, room.code) is not None
        tok = service.join(room.code, 0, "me")
        assert row(db, room.code).seats[0]["kind"] == "human"
        service.ready(room.code, tok, True)
        assert row(db, room.code).seats[0]["ready"]
        assert store.writer.pending == 0 and not service.gates

    try:
        call(lobby)
    finally:
        store.close()
        service.pool.close()
