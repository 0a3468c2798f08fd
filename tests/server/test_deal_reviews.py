"""The review (复盘) of a finished deal of a match still in play (server/deal_reviews.py): a seat asks for its own
decisions of a finished deal, the review is worked out by the replays' review machinery under its limits and equals
`guandan review` of the match's record up to that deal; its frames never carry the match seed; spectators, a deal
not finished, rated and online events' tables are refused, each saying why."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from guandan.core import record
from guandan.present import Presenter
from guandan.review.cli import seat_names
from guandan.review.engine import Settings as ReviewSettings
from guandan.review.report import review_record
from guandan.review.words import review_json
from guandan.server.app import create_app
from guandan.server.deal_reviews import deal_record
from guandan.server.reviews import ReviewService
from guandan.server.table import Settings, TableService

from .conftest import counting_seeds, join
from .test_ws import act_frame, my_turn, recv_until

pytestmark = pytest.mark.timeout(180)
BUDGET = 0.02


def _app(tmp_path: Path, **kw: Any) -> TestClient:
    # the deal-end pause is long: the match waits between deal 1 and deal 2 while the test asks
    settings = Settings(bot_delay_ms=0, next_deal_s=600, seed_source=counting_seeds(), workers=0,
                        review_budget=BUDGET, **kw)
    return TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", settings))


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Reviews are queued but not worked out (the service's runner never starts)."""
    monkeypatch.setattr(ReviewService, "start", lambda self: None)
    yield


def _after_deal_1(c: TestClient) -> tuple[str, str]:
    """A room of three deals whose first its player played (each turn the first legal move), paused before the
    second: the room's code and the player's token."""
    # no seed chosen: the server's secret one (test:N here), which a page must never see mid-match
    r = c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 3, "timer": 0})
    assert r.status_code == 201, r.text
    code = str(r.json()["code"])
    tok = join(c, code)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        while True:
            f = recv_until(ws, lambda f: my_turn(0)(f) or (f["type"] == "update" and f.get("interval") is not None))
            if f.get("interval") is not None:
                break
            ws.send_json(act_frame(f["view"]["legal"][0], f["seq"]))
    return code, tok


def _service(c: TestClient) -> TableService:
    return c.app.state.service  # type: ignore[attr-defined,no-any-return]


def _wait_done(c: TestClient, code: str, tok: str, deal: int) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r = c.post(f"/api/rooms/{code}/deals/{deal}/review", json={"token": tok, "ask": False})
        assert r.status_code == 200, r.text
        state: dict[str, Any] = r.json()["reviews"][0]
        if state["status"] in ("done", "failed"):
            assert state["status"] == "done", state
            return state
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_a_seat_has_its_own_decisions_of_a_finished_deal_reviewed_as_the_cli_would(tmp_path: Path) -> None:
    with _app(tmp_path) as c:
        code, tok = _after_deal_1(c)
        none = c.post(f"/api/rooms/{code}/deals/0/review", json={"token": tok, "ask": False})
        assert none.status_code == 200 and none.json()["reviews"][0]["status"] == "none"  # looking asks nothing
        asked = c.post(f"/api/rooms/{code}/deals/0/review", json={"token": tok})
        assert asked.status_code == 200, asked.text
        first = asked.json()["reviews"][0]
        assert first["seat"] == 0 and first["deal"] == 0 and first["status"] in ("queued", "running", "done")
        state = _wait_done(c, code, tok, 0)
        again = c.post(f"/api/rooms/{code}/deals/0/review", json={"token": tok})  # asking again runs nothing
        assert again.json()["reviews"][0] == state
        text = deal_record(_service(c).room(code), 0)
        frames = c.post(f"/api/rooms/{code}/deals/0/replay", json={"token": tok})
        assert frames.status_code == 200, frames.text
        assert c.get(f"/r/{code}/review/0").status_code == 200  # the page that shows them
    data = record.loads(text)
    assert len(data["deals"]) == 1 and "finish" in data["deals"][0]  # the finished deal, nothing of the next
    expected = review_record(data, [0], deals=[0], settings=ReviewSettings(budget=BUDGET, seed=0))
    review = state["review"]
    assert set(review) == {"zh", "en"}
    for lang in ("zh", "en"):
        want = review_json(Presenter(lang, names=seat_names(data, lang)), expected, single=True)
        assert review[lang] == json.loads(json.dumps(want))
    assert review["en"]["seat"] == 0 and review["en"]["decisions"]
    assert {d["deal"] for d in review["en"]["decisions"]} == {0}
    # the frames show the finished deal, every hand, and never the seed that deals the ones still to come
    got = frames.json()
    assert got["seat"] == 0 and got["deal"] == 0 and len(got["deals"]) == 1 and got["deals"][0]["result"]
    assert got["fair"] is None and "seed" not in got and "commitment" not in got["deals"][0]
    seed = data["seed"]
    assert str(seed).startswith("test:") and str(seed) not in frames.text and str(seed) not in json.dumps(state)


def test_who_may_not_ask_and_which_deals_are_refused_saying_why(tmp_path: Path, held: None) -> None:
    with _app(tmp_path) as c:
        code, tok = _after_deal_1(c)

        def refused(deal: int, token: str, status: int, error: str) -> None:
            for what in ("review", "replay"):
                r = c.post(f"/api/rooms/{code}/deals/{deal}/{what}", json={"token": token})
                assert r.status_code == status and r.json()["error"] == error, (what, r.text)
                text = r.json()["text"]
                assert text["zh"] and text["en"] and text["zh"] != text["en"]

        refused(0, "not-a-seat-token", 403, "not_a_player")  # a spectator reviews no seat
        refused(1, tok, 409, "deal_not_finished")  # the deal in play
        refused(2, tok, 409, "deal_not_finished")
        refused(-1, tok, 409, "deal_not_finished")
        assert "Deal 2" in c.post(f"/api/rooms/{code}/deals/1/review", json={"token": tok}).json()["text"]["en"]
        room = _service(c).room(code)
        assert c.get(f"/api/rooms/{code}").json()["event"] is False
        _service(c).bound.add(code)  # an online event's table
        refused(0, tok, 403, "event_table")
        # its page is told, and offers no review (table.js dealReviewLink)
        assert c.get(f"/api/rooms/{code}").json()["event"] is True
        _service(c).bound.discard(code)
        config = room.config
        room.config = config.model_copy(update={"rated": True})
        refused(0, tok, 403, "rated")
        room.config = config
        assert c.post(f"/api/rooms/{code}/deals/0/review", json={"token": tok}).status_code == 200
        assert c.post("/api/rooms/NOSUCH/deals/0/review", json={"token": tok}).status_code == 404


def test_the_replays_review_limits_count_these_reviews_too(tmp_path: Path, held: None) -> None:
    with _app(tmp_path, review_per_address=1, review_queue=2) as c:
        code, tok = _after_deal_1(c)
        first = c.post(f"/api/rooms/{code}/deals/0/review", json={"token": tok})
        assert first.status_code == 200 and first.json()["reviews"][0]["status"] == "queued"
        assert c.post(f"/api/rooms/{code}/deals/0/review", json={"token": tok}).status_code == 200  # the same one
        service: ReviewService = c.app.state.reviews  # type: ignore[attr-defined]
        assert len(service.queue) == 1
        # a seat of another table from the same address: this address has one waiting already
        code2, tok3 = _after_deal_1(c)
        more = c.post(f"/api/rooms/{code2}/deals/0/review", json={"token": tok3})
        assert more.status_code == 429 and more.json()["error"] == "rate_limited"
        assert c.portal is not None
        c.portal.call(lambda: service.request_live("ELSEWHERE", 0, 1, lambda: "{}", "198.51.100.7"))
        full = c.post(f"/api/rooms/{code2}/deals/0/review", json={"token": tok3})
        assert full.status_code == 503 and full.json()["error"] == "busy"
