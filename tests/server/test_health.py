"""/healthz and /readyz: the process answers; ready only while the database answers, the tables are
restored and armed, and a multi-process coordinator (app.state.cluster), where there is one, is ready."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from guandan.server.app import create_app
from guandan.server.table import Settings


class Coordinator:
    """What readiness asks of ``app.state.cluster``: ``await ready()``."""

    def __init__(self, ready: bool) -> None:
        self.is_ready = ready
        self.asked = 0

    async def ready(self) -> bool:
        self.asked += 1
        return self.is_ready


def test_healthz_answers_and_readyz_needs_the_started_tables(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", Settings(workers=0))
    not_started = TestClient(app)  # no lifespan: the restored tables are not armed yet
    assert not_started.get("/healthz").json() == {"status": "ok"}
    r = not_started.get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body["not_ready"] == ["tables"] and body["checks"] == {"database": "ok", "tables": "not_ready"}
    assert "tables" in body["text"]["en"] and body["text"]["zh"].startswith("服务器还不能接待玩家")
    with TestClient(app) as c:
        r = c.get("/readyz")
        assert r.status_code == 200 and r.json() == {"status": "ready", "checks": {"database": "ok", "tables": "ok"}}
        assert c.get("/healthz").status_code == 200


def test_readyz_names_a_database_that_does_not_answer(tmp_path: Path) -> None:
    db = tmp_path / "web.sqlite3"
    app = create_app(f"sqlite:///{db}", Settings(workers=0))
    with TestClient(app) as c:
        assert c.get("/readyz").status_code == 200
        moved = tmp_path / "away.sqlite3"
        db.rename(moved)
        db.mkdir()  # a folder where the database file was: SQLite cannot open it
        app.state.engine.dispose()  # the pooled connections still held the moved file open
        try:
            r = c.get("/readyz")
            assert r.status_code == 503 and r.json()["not_ready"] == ["database"]
            assert r.json()["checks"]["tables"] == "ok"
            assert c.get("/healthz").status_code == 200  # alive, only not ready
        finally:
            db.rmdir()
            moved.rename(db)
        assert c.get("/readyz").status_code == 200


def test_readyz_awaits_the_cluster_coordinator(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", Settings(workers=0))
    with TestClient(app) as c:
        app.state.cluster = Coordinator(ready=False)
        r = c.get("/readyz")
        assert r.status_code == 503 and r.json()["not_ready"] == ["cluster"]
        assert r.json()["checks"] == {"database": "ok", "tables": "ok", "cluster": "not_ready"}
        app.state.cluster.is_ready = True
        r = c.get("/readyz")
        assert r.status_code == 200 and r.json()["checks"]["cluster"] == "ok"
        assert app.state.cluster.asked == 2
        app.state.cluster = None  # none (a single process): not asked
        assert c.get("/readyz").json()["checks"] == {"database": "ok", "tables": "ok"}
