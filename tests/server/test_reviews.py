"""Reviews (复盘) in the web app: asked for on a replay, worked out in the background by the worker pool,
kept with the replay in both page languages, identical to `guandan review --json` with the same budget
and seed; limited per address and in total; nothing asked for is lost across a restart."""

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
from guandan.server.reviews import ReviewService
from guandan.server.table import Settings

from .conftest import counting_seeds
from .test_api import _finished_record

pytestmark = pytest.mark.timeout(180)
BUDGET = 0.02  # the fewest worlds (8) a decision is valued over: the verdicts are as deterministic, only noisier


def _settings(**kw: Any) -> Settings:
    return Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds(), workers=0, review_budget=BUDGET, **kw)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture(scope="module")
def record_text() -> str:
    return _finished_record()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Reviews are queued but not worked out (the service's runner never starts)."""
    monkeypatch.setattr(ReviewService, "start", lambda self: None)
    yield


def _import(c: TestClient, text: str) -> str:
    r = c.post("/api/replays", content=text, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _wait_done(c: TestClient, rid: str, seat: int, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    seen: list[tuple[str, int, int]] = []
    while time.monotonic() < deadline:
        states = {s["seat"]: s for s in c.get(f"/api/replays/{rid}/reviews").json()["reviews"]}
        state = states[seat]
        seen.append((state["status"], state.get("done", 0), state.get("total", 0)))
        if state["status"] in ("done", "failed"):
            assert state["status"] == "done", state
            return state
        time.sleep(0.05)
    raise AssertionError(f"the review did not finish: {seen[-5:]}")


def test_a_review_is_worked_out_in_the_background_and_equals_the_cli_one(db: str, record_text: str) -> None:
    with TestClient(create_app(db, _settings())) as c:
        rid = _import(c, record_text)
        assert c.get(f"/api/replays/{rid}/reviews").json()["reviews"] == []
        asked = c.post(f"/api/replays/{rid}/reviews", json={"seat": 1})
        assert asked.status_code == 202, asked.text
        assert asked.json()["seat"] == 1 and asked.json()["status"] in ("queued", "running", "done")
        state = _wait_done(c, rid, 1)
        # asking again answers what exists, and nothing runs again
        again = c.post(f"/api/replays/{rid}/reviews", json={"seat": 1})
        assert again.status_code == 202 and again.json()["status"] == "done"
    review = state["review"]
    assert set(review) == {"zh", "en"}
    data = record.loads(record_text)
    expected = review_record(data, [1], settings=ReviewSettings(budget=BUDGET, seed=0))
    for lang in ("zh", "en"):
        want = review_json(Presenter(lang, names=seat_names(data, lang)), expected, single=True)
        assert review[lang] == json.loads(json.dumps(want))
    en = review["en"]
    assert en["seat"] == 1 and 0 <= en["accuracy"] <= 100 and en["decisions"]
    assert all(d["loss"] >= 0 and d["label"] in ("good", "inaccuracy", "mistake", "blunder") for d in en["decisions"])
    assert state["settings"]["budget"] == BUDGET and state["settings"]["seed"] == 0
    # the Chinese one speaks Chinese
    assert any("\u4e00" <= ch <= "\u9fff" for ch in review["zh"]["decisions"][0]["label_text"])


def test_bad_requests_are_refused_and_change_nothing(db: str, record_text: str, held: None) -> None:
    with TestClient(create_app(db, _settings())) as c:
        rid = _import(c, record_text)
        for body in ({"seat": 4}, {"seat": -1}, {"seat": "north"}, {}, {"seat": 0, "budget": 99}):
            r = c.post(f"/api/replays/{rid}/reviews", json=body)
            assert r.status_code == 422, (body, r.text)
        assert c.post("/api/replays/nosuchreplay0000/reviews", json={"seat": 0}).status_code == 404
        assert c.get("/api/replays/nosuchreplay0000/reviews").status_code == 404
        assert c.get(f"/api/replays/{rid}/reviews").json()["reviews"] == []


def test_reviews_are_limited_per_address_and_in_total(db: str, record_text: str, held: None) -> None:
    with TestClient(create_app(db, _settings(review_per_address=2, review_queue=3))) as c:
        rid = _import(c, record_text)
        assert [c.post(f"/api/replays/{rid}/reviews", json={"seat": s}).status_code for s in (0, 1)] == [202, 202]
        assert c.post(f"/api/replays/{rid}/reviews", json={"seat": 0}).status_code == 202  # the same one again
        third = c.post(f"/api/replays/{rid}/reviews", json={"seat": 2})
        assert third.status_code == 429 and third.json()["error"] == "rate_limited" and "address" in third.json()["detail"]
        service: ReviewService = c.app.state.reviews  # type: ignore[attr-defined]
        assert c.portal is not None
        c.portal.call(service.request, rid, 2, "198.51.100.7")  # another address: queued (3 in all now)
        full = c.post(f"/api/replays/{rid}/reviews", json={"seat": 3})
        assert full.status_code == 503 and full.json()["error"] == "busy"
        states = c.get(f"/api/replays/{rid}/reviews").json()["reviews"]
        assert [(s["seat"], s["status"]) for s in states] == [(0, "queued"), (1, "queued"), (2, "queued")]
        assert [s["ahead"] for s in states] == [0, 1, 2]


def test_a_review_asked_for_before_a_restart_is_made_after_it(db: str, record_text: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(ReviewService, "start", lambda self: None)
        with TestClient(create_app(db, _settings())) as c:
            rid = _import(c, record_text)
            assert c.post(f"/api/replays/{rid}/reviews", json={"seat": 2}).status_code == 202
    with TestClient(create_app(db, _settings())) as c:
        state = _wait_done(c, rid, 2)
        assert state["review"]["en"]["seat"] == 2
