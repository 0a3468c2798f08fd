"""Heavy work off the event loop (issue #14): hints and readings are budgeted per connection, per seat
and per client address, and a spent budget is answered with an error frame in zh and en; a hint that
comes back after its table moved on is dropped; under 火拼 rules a seat's legal actions and the bots'
moves come from the worker processes; and an action's broadcast leaves only once its commit (done in
the store's writer thread, not on the loop) is in the database."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from starlette.testclient import WebSocketTestSession

from guandan.server import workers
from guandan.server.app import create_app
from guandan.server.table import LEGAL_LATER, Settings, TableService
from guandan.server.wire import legal_fields

from .conftest import counting_seeds, join, new_room
from .test_ws import act_frame, my_turn, recv_until, start

pytestmark = pytest.mark.timeout(120)
Frame = dict[str, Any]
BURST = 6.0  # work units a connection and a seat may spend at once in these tests (a hint costs 1)
HINTS_PER_BURST = 6


def _app(tmp_path: Path, **settings: Any) -> TestClient:
    settings = {"work_burst": BURST, **settings}
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}",
                     Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds(), **settings))
    service: TableService = app.state.service
    service.clock = lambda: 1000.0  # budgets never refill: what they allow is exact
    return TestClient(app)


@pytest.fixture
def frozen(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path) as c:
        yield c


def service_of(c: TestClient) -> TableService:
    service: TableService = c.app.state.service  # type: ignore[attr-defined]
    return service


def ask(ws: WebSocketTestSession, frame: Frame) -> Frame:
    """Send a hint or readings request and read its answer (the answer or an error)."""
    ws.send_json(frame)
    return recv_until(ws, lambda f: f["type"] in (frame["type"], "error"))


def refused_as(f: Frame, who: str) -> None:
    assert f["type"] == "error" and f["code"] == "rate_limited", f
    assert who in f["message"] and f["text"]["en"] == f["message"]
    assert f["text"]["zh"] and f["text"]["zh"] != f["message"]  # said in Chinese too (web catalogue)


def test_a_connection_over_its_budget_is_told_so(frozen: TestClient) -> None:
    code = new_room(frozen)
    tok = join(frozen, code, 0)
    with frozen.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(frozen, code, tok)
        f = recv_until(ws, my_turn(0))
        answers = [ask(ws, {"type": "hint"}) for _ in range(HINTS_PER_BURST + 2)]
        assert [a["type"] for a in answers] == ["hint"] * HINTS_PER_BURST + ["error"] * 2
        refused_as(answers[-1], "connection")
        refused_as(ask(ws, {"type": "readings", "cards": [f["view"]["hand"][0]]}), "connection")
        # refused requests changed nothing: the turn is still ours and the move goes through
        ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
        assert recv_until(ws, lambda g: g["type"] == "update")["seq"] == f["seq"] + 1


def test_every_socket_of_a_seat_shares_its_budget_and_other_seats_keep_theirs(frozen: TestClient) -> None:
    code = new_room(frozen, bots=[None, "greedy", None, "greedy"])
    tok0, tok2 = join(frozen, code, 0), join(frozen, code, 2)
    with frozen.websocket_connect(f"/ws/{code}?token={tok0}") as a, \
            frozen.websocket_connect(f"/ws/{code}?token={tok0}") as b, \
            frozen.websocket_connect(f"/ws/{code}?token={tok2}") as other:
        start(frozen, code, tok0, tok2)
        f = recv_until(a, lambda g: g["type"] in ("update", "snapshot") and g["view"] is not None
                       and g["view"]["to_move"] in (0, 2))  # a person's turn: the table waits for them
        mover = f["view"]["to_move"]
        socks, waiting = ((a, b), other) if mover == 0 else ((other,), a)
        answers = [ask(socks[i % len(socks)], {"type": "hint"}) for i in range(HINTS_PER_BURST + 1)]
        assert [x["type"] for x in answers] == ["hint"] * HINTS_PER_BURST + ["error"]
        refused_as(answers[-1], "seat" if len(socks) == 2 else "connection")
        # the other seat is not to move: it is told so, not refused for a budget it never spent
        assert ask(waiting, {"type": "hint"})["code"] == "not_your_turn"


def test_a_client_address_has_a_budget_across_rooms(tmp_path: Path) -> None:
    with _app(tmp_path, address_work_burst=2.0) as c:  # two hints' worth for everything from one address
        rooms = [new_room(c) for _ in range(2)]
        toks = [join(c, code, 0) for code in rooms]
        with c.websocket_connect(f"/ws/{rooms[0]}?token={toks[0]}") as w0, \
                c.websocket_connect(f"/ws/{rooms[1]}?token={toks[1]}") as w1:
            for code, tok in zip(rooms, toks, strict=True):
                start(c, code, tok)
            recv_until(w0, my_turn(0))
            recv_until(w1, my_turn(0))
            assert ask(w0, {"type": "hint"})["type"] == "hint"
            assert ask(w1, {"type": "hint"})["type"] == "hint"
            refused_as(ask(w1, {"type": "hint"}), "address")
            refused_as(ask(w0, {"type": "hint"}), "address")


def test_a_huopin_hint_costs_more(tmp_path: Path) -> None:
    """Under 火拼 rules a hint lists thousands of plays (seed 8: seat 0 leads with 5,929): it costs 5 units
    of the 6, so a second is refused while readings (1 unit) still go through."""
    with _app(tmp_path) as c:
        code = new_room(c, preset="huopin", seed=8)
        tok = join(c, code, 0)
        with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
            start(c, code, tok)
            f = recv_until(ws, lambda g: g["type"] in ("update", "snapshot") and g["view"] is not None
                           and g["view"]["to_move"] == 0)
            hint = ask(ws, {"type": "hint", "k": 1})
            assert hint["type"] == "hint" and len(hint["hints"]) == 1
            refused_as(ask(ws, {"type": "hint"}), "connection")
            card = f["view"]["hand"][0]
            readings = ask(ws, {"type": "readings", "cards": [card]})
            assert readings["type"] == "readings" and [a["combo"]["type"] for a in readings["actions"]] == ["single"]


def test_one_hint_at_a_time_in_order_and_a_late_one_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker (a thread here, so that the test can hold it) is still on socket A's hint: A's next frame
    waits its turn; another socket of the same seat asking for a hint is refused as busy, but it may move;
    the hint that comes back after that move is dropped, and A's waiting frame is answered after it."""
    release = threading.Event()
    real = workers.hint_job

    def slow_hint(pos: workers.Position, k: int) -> Any:
        release.wait(30)
        return real(pos, k)

    monkeypatch.setattr(workers, "hint_job", slow_hint)
    with _app(tmp_path, workers=0) as c:
        service = service_of(c)
        code = new_room(c)
        tok = join(c, code, 0)
        with c.websocket_connect(f"/ws/{code}?token={tok}") as a, c.websocket_connect(f"/ws/{code}?token={tok}") as b:
            start(c, code, tok)
            f = recv_until(b, my_turn(0))
            a.send_json({"type": "hint"})
            _wait_for(lambda: (code, 0) in service.hinting)
            a.send_json({"type": "ping"})  # waits behind the hint
            busy = ask(b, {"type": "hint"})
            assert busy["code"] == "busy" and "still being worked out" in busy["message"] and busy["text"]["zh"]
            b.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
            assert recv_until(b, lambda g: g["type"] == "update")["seq"] == f["seq"] + 1
            release.set()
            seen = []
            while (g := a.receive_json())["type"] != "pong":
                seen.append(g["type"])
            assert "hint" not in seen  # it was about the position before the move


def test_answers_come_in_the_order_of_the_requests(frozen: TestClient) -> None:
    code = new_room(frozen)
    tok = join(frozen, code, 0)
    with frozen.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(frozen, code, tok)
        f = recv_until(ws, my_turn(0))
        card = f["view"]["hand"][0]
        for frame in ({"type": "hint"}, {"type": "ping"}, {"type": "readings", "cards": [card]}, {"type": "ping"}):
            ws.send_json(frame)
        answers = []
        while len(answers) < 4:
            g = ws.receive_json()
            if g["type"] in ("hint", "pong", "readings"):
                answers.append(g["type"])
        assert answers == ["hint", "pong", "readings", "pong"]


def _wait_for(done: Callable[[], bool]) -> None:
    for _ in range(3000):
        if done():
            return
        time.sleep(0.01)
    raise AssertionError("it never happened")


@pytest.mark.parametrize(("seed", "complete"), [(37, True), (8, False)])
def test_huopin_views_and_bots_come_from_the_workers(tmp_path: Path, seed: int, complete: bool) -> None:
    """Under 火拼 rules seat 0 leads first (seeds 37: 518 plays, 8: 5,929 — too many to send): its view's
    legal fields are the worker's, equal to what the match lists, and the bots' moves (in the workers
    too) follow the player's."""
    with _app(tmp_path) as c:
        code = new_room(c, preset="huopin", seed=seed)
        tok = join(c, code, 0)
        with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
            start(c, code, tok)
            f = recv_until(ws, my_turn(0) if complete else (lambda g: g["type"] in ("update", "snapshot")
                                                            and g["view"] is not None and g["view"]["to_move"] == 0))
            view = f["view"]
            assert LEGAL_LATER not in view
            match = service_of(c).rooms[code].match
            assert match is not None
            want = legal_fields(match.legal_actions())
            assert {k: view[k] for k in want} == want and view["legal_complete"] is complete
            lead = {"type": "act", "kind": "play", "cards": [view["hand"][0]], "seq": f["seq"]}
            ws.send_json(lead)
            movers = [recv_until(ws, lambda g: g["type"] == "update")["action"]["seat"] for _ in range(4)]
            assert movers == [0, 1, 2, 3]
            assert service_of(c).pool.done >= 4  # the view and the three bots' decisions


def test_thinking_bots_decide_in_a_worker(tmp_path: Path) -> None:
    with _app(tmp_path) as c:
        code = new_room(c, bots=[None, "heuristic", "heuristic", "heuristic"])
        tok = join(c, code, 0)
        with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
            start(c, code, tok)
            f = recv_until(ws, my_turn(0))
            ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
            seats = [recv_until(ws, lambda g: g["type"] == "update")["action"]["seat"] for _ in range(4)]
            assert seats == [0, 1, 2, 3]
            assert service_of(c).pool.done >= 3


def test_an_update_leaves_only_once_its_commit_is_in_the_database(frozen: TestClient,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_of(frozen)
    store = service.store
    release = threading.Event()
    real = store.append_action

    def held(*args: Any, **kwargs: Any) -> None:
        release.wait(30)  # the writer thread waits; the event loop does not
        real(*args, **kwargs)

    code = new_room(frozen)
    tok = join(frozen, code, 0)
    with frozen.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        start(frozen, code, tok)
        f = recv_until(ws, my_turn(0))
        conn = next(x for x in service.conns[code] if x.seat == 0)
        monkeypatch.setattr(store, "append_action", held)
        ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
        _wait_for(lambda: service.rooms[code].seq > f["seq"])  # applied in memory …
        _wait_for(lambda: len(conn.held) > 0)  # … its update held
        with store.engine.connect() as db:  # … and not yet committed
            n = db.execute(text("SELECT count(*) FROM web_actions WHERE room_code = :c"), {"c": code}).scalar()
        assert n == f["seq"]
        ws.send_json({"type": "ping"})  # the room's other frames wait their turn too
        release.set()
        upd = recv_until(ws, lambda g: g["type"] in ("update", "pong"))
        assert upd["type"] == "update" and upd["seq"] == f["seq"] + 1
        with store.engine.connect() as db:
            n = db.execute(text("SELECT count(*) FROM web_actions WHERE room_code = :c"), {"c": code}).scalar()
        assert n is not None and n >= f["seq"] + 1
