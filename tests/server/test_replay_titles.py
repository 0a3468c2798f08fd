"""A replay in a list reads as a title, not as its id: each replay keeps a summary beside its record (who sat where,
how the match ended: guandan.db.web.replay_summary), which the lists answer with — the start page's
(POST /api/replays/mine, with the seat the browser's token played) and the account's games (GET /api/me/replays) —
so that a list reads no record. A deleted account's name leaves the summary as it leaves the record, and
migration 0010 sums up the replays kept before it, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from argon2 import profiles
from fastapi.testclient import TestClient

from guandan.db import alembic_config, make_engine, upgrade_to_head
from guandan.db.web import SUMMARY_TEXT_MAX, replay_summary
from guandan.server.accounts_service import AccountSettings
from guandan.server.app import create_app
from guandan.server.table import Settings

from .conftest import counting_seeds, join, new_room
from .test_api import _finished_record
from .test_lifecycle import play_out
from .test_persistence import db_url  # noqa: F401  (the SQLite and PostgreSQL databases, as a fixture)

pytestmark = pytest.mark.timeout(120)
PASSWORD = "correct horse battery"
AT = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def test_a_summary_says_who_sat_where_and_how_the_match_ended() -> None:
    data = json.loads(_finished_record())  # two deals of four greedy bots, imported: no seat kinds
    s = replay_summary(data)
    assert s is not None
    assert s["players"] == ["a", "b", "c", "d"] and s["kinds"] == [[None, None]] * 4 and s["preset"] == "competition"
    assert s["deals"] == 2 and s["levels"] == data["result"]["levels"]
    assert (s["ended"], s["winner"]) == (True, None)  # the deal cap ended it: no team passed A
    data["meta"] = {"seats": [{"kind": "human", "tier": None}, {"kind": "bot", "tier": "greedy"},
                              {"kind": "human", "tier": None}, {"kind": "bot", "tier": "x" * 100}]}
    data["players"] = ["Ann", "greedy bot", "n" * 100]
    data["result"] |= {"winner": 1}
    s = replay_summary(data)
    assert s is not None and s["winner"] == 1
    assert s["kinds"] == [["human", None], ["bot", "greedy"], ["human", None], ["bot", "x" * SUMMARY_TEXT_MAX]]
    assert s["players"] == ["Ann", "greedy bot", "n" * SUMMARY_TEXT_MAX, ""]  # a name kept short, a missing one empty
    junks: list[Any] = [[], "record", {"players": ["a"]}, {"result": "won"}]
    for junk in junks:
        assert replay_summary(junk) is None
    weird = replay_summary({"result": {"winner": True, "levels": "A", "deals_played": -1, "ended": 1}, "players": [1]})
    assert weird == {"players": ["", "", "", ""], "kinds": [[None, None]] * 4, "preset": "", "ended": False,
                     "winner": None, "levels": None, "deals": None}


def finished(c: TestClient, name: str = "Ann") -> tuple[str, str, str]:
    """A one-deal practice room played out from seat 0: its code, the seat's token and the replay's id."""
    code = new_room(c)
    tok = join(c, code, 0, name)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        rid = play_out(ws, c, code, tok)["room"]["replay_id"]
    return code, tok, rid


def test_the_lists_give_each_replay_its_summary_and_the_seat_it_was_played_from(client: TestClient) -> None:
    _, tok, rid = finished(client)
    entry = client.post("/api/replays/mine", json={"tokens": [tok]}).json()[0]
    assert entry["id"] == rid and entry["mine"] and entry["seat"] == 0
    s = entry["summary"]
    assert s["players"][0] == "Ann" and s["kinds"][0] == ["human", None]
    assert s["kinds"][1:] == [["bot", "greedy"]] * 3 and s["deals"] == 1 and s["ended"] is True
    assert s["preset"] == "competition" and len(s["levels"]) == 2
    # made public, another browser sees it with the same summary, and no seat of its own
    assert client.post(f"/api/replays/{rid}/public", json={"token": tok, "public": True}).status_code == 200
    other = client.post("/api/replays/mine", json={"tokens": ["someone-else"]}).json()[0]
    assert (other["id"], other["mine"], other["seat"], other["summary"]) == (rid, False, None, s)
    assert client.get("/api/replays").json()[0]["summary"] == s
    # an imported record: its players as written, no seat
    r = client.post("/api/replays", content=_finished_record(), headers={"Content-Type": "application/json"})
    imported = next(x for x in client.post("/api/replays/mine", json={"tokens": [r.json()["token"]]}).json()
                    if x["id"] == r.json()["id"])
    assert imported["seat"] is None and imported["summary"]["players"] == ["a", "b", "c", "d"]


def test_the_accounts_games_carry_the_summary_and_a_deleted_name_leaves_it(tmp_path: Path) -> None:
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds("titles"), workers=0)
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", settings,
                     accounts=AccountSettings(password_parameters=profiles.CHEAPEST))
    with TestClient(app) as c:
        r = c.post("/api/auth/signup", json={"username": "ann", "password": PASSWORD})
        csrf = r.json()["csrf"]
        _, tok, rid = finished(c, "Ann")
        games = c.get("/api/me/replays").json()["replays"]
        assert [(g["id"], g["seat"], g["summary"]["players"][0]) for g in games] == [(rid, 0, "Ann")]
        r = c.request("DELETE", "/api/me", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        entry = c.post("/api/replays/mine", json={"tokens": [tok]}).json()[0]
        assert entry["summary"]["players"][0] == "" and entry["summary"]["kinds"][0] == ["human", None]
        assert "Ann" not in json.dumps(entry)


def test_the_migration_sums_up_the_replays_kept_before_it(db_url: str) -> None:  # noqa: F811
    engine = make_engine(db_url)
    try:
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0009_tournament_people")
        text = _finished_record()
        replays = sa.table("web_replays", sa.column("id", sa.String), sa.column("record", sa.Text),
                           sa.column("imported", sa.Boolean), sa.column("created_at", sa.DateTime(timezone=True)),
                           sa.column("public", sa.Boolean))
        with engine.begin() as conn:
            rows: list[dict[str, Any]] = [{"id": "kept-before", "record": text}, {"id": "unreadable", "record": "{"}]
            conn.execute(sa.insert(replays), [{**r, "imported": True, "public": False, "created_at": AT} for r in rows])
        upgrade_to_head(engine)
        with engine.connect() as conn:
            got: dict[str, Any] = dict(conn.execute(sa.text("SELECT id, summary FROM web_replays")).all())
        summary = got["kept-before"]
        summary = json.loads(summary) if isinstance(summary, str) else summary
        assert summary == replay_summary(json.loads(text)) and got["unreadable"] is None
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0009_tournament_people")
        assert "summary" not in {c["name"] for c in sa.inspect(engine).get_columns("web_replays")}
        upgrade_to_head(engine)
    finally:
        engine.dispose()
