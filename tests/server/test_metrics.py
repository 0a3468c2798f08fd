"""/metrics: what it counts at the tables and over HTTP and WebSockets, who may read it (the socket's peer,
never X-Forwarded-For), that an action's broadcast is timed until its commit is done, and the sum over
several worker processes (real processes writing into one directory)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from guandan.server import metrics
from guandan.server.app import create_app
from guandan.server.table import Settings

from .conftest import counting_seeds, join, new_room
from .test_ws import recv_until

pytestmark = pytest.mark.timeout(120)
LOCAL = ("127.0.0.1", 40000)
SRC = Path(__file__).resolve().parents[2] / "src"


def samples(exposition: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a text exposition, by name and labels."""
    found = {}
    for family in text_string_to_metric_families(exposition):
        for s in family.samples:
            found[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return found


def value(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def local_value(name: str, **labels: str) -> float:
    """A sample of this process's own registry (the tests' processes keep their metrics in memory)."""
    got = metrics.REGISTRY.get_sample_value(name, labels)
    return 0.0 if got is None else got


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(bot_delay_ms=0, next_deal_s=0, seed_source=counting_seeds(), workers=0)
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", settings)
    with TestClient(app, client=LOCAL) as c:
        yield c


def test_metrics_count_tables_connections_actions_requests_and_frames(app_client: TestClient) -> None:
    c = app_client
    before = samples(c.get("/metrics").text)
    lobby = new_room(c)
    code = new_room(c)
    tok = join(c, code, 0)
    with c.websocket_connect(f"/ws/{code}") as spectator, c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        during = samples(c.get("/metrics").text)
        assert value(during, "guandan_connections", role="player") == 1
        assert value(during, "guandan_connections", role="spectator") == 1
        assert value(during, "guandan_tables", state="lobby") == 1  # the other room
        assert value(during, "guandan_tables", state="playing") == 1
        ws.send_json({"type": "auto", "on": True})  # 托管: bots play the match out, the player's seat too
        recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)
        recv_until(spectator, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)
    after = samples(c.get("/metrics").text)
    assert c.get(f"/api/rooms/{lobby}").status_code == 200
    assert value(after, "guandan_connections", role="player") == 0
    assert value(after, "guandan_tables", state="over") == 1 and value(after, "guandan_tables", state="playing") == 0

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    bots, auto = delta("guandan_actions_total", actor="bot"), delta("guandan_actions_total", actor="auto")
    assert bots > 0 and auto > 0 and delta("guandan_actions_total", actor="human") == 0
    # every action's broadcast was timed, once its commit was done
    assert delta("guandan_action_broadcast_seconds_count") == bots + auto
    assert delta("guandan_ws_frames_total", direction="in") == 1  # the auto frame
    assert delta("guandan_ws_frames_total", direction="out") > bots + auto  # an update per action, per socket
    # requests by route template and status: the room's code is not a label
    assert delta("guandan_http_request_seconds_count", method="POST", route="/api/rooms", status="201") == 2
    assert delta("guandan_http_request_seconds_count", method="POST", route="/api/rooms/{code}/join", status="200") == 1
    assert delta("guandan_http_request_seconds_bucket", method="POST", route="/api/rooms/{code}/join", status="200",
                 le="2.5") == 1
    assert all(code not in v for _, labels in after for _, v in labels)
    assert c.get("/no/such/address").status_code == 404
    assert c.get("/static/no-such-file.js").status_code == 404
    final = samples(c.get("/metrics").text)
    assert value(final, "guandan_http_request_seconds_count", method="GET", route="unmatched", status="404") \
        == value(after, "guandan_http_request_seconds_count", method="GET", route="unmatched", status="404") + 1
    assert value(final, "guandan_http_request_seconds_count", method="GET", route="/static/{path}", status="404") >= 1
    assert value(final, "guandan_worker_queue") == 0
    assert c.get("/metrics").headers["content-type"].startswith("text/plain")


def test_metrics_answer_only_the_allowed_socket_peers(tmp_path: Path) -> None:
    settings = Settings(workers=0, forwarded_allow_ips=("10.0.0.0/8",), metrics_allow=("192.168.7.0/24", "::1"))
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", settings)
    with TestClient(app, client=("10.1.2.3", 5000)) as proxied:
        # the proxy is trusted for X-Forwarded-For (the client is 192.168.7.9), but the socket's peer is not allowed
        r = proxied.get("/metrics", headers={"X-Forwarded-For": "192.168.7.9"})
        assert r.status_code == 403
        body = r.json()
        assert body["error"] == "forbidden" and "10.1.2.3" in body["detail"]
        assert body["text"]["zh"] and body["text"]["en"] and body["text"]["zh"] != body["text"]["en"]
    with TestClient(app, client=("192.168.7.9", 5000)) as allowed:
        assert allowed.get("/metrics").status_code == 200
    with TestClient(app, client=("::ffff:192.168.7.20", 5000)) as mapped:  # an IPv4 peer of a dual-stack socket
        assert mapped.get("/metrics").status_code == 200
    with TestClient(app, client=("127.0.0.1", 5000)) as loopback:  # not in this allow-list
        assert loopback.get("/metrics").status_code == 403


def test_the_default_allow_list_is_loopback(app_client: TestClient, tmp_path: Path) -> None:
    assert Settings().metrics_allow == ("127.0.0.1", "::1")
    assert app_client.get("/metrics").status_code == 200
    app = create_app(f"sqlite:///{tmp_path / 'other.sqlite3'}", Settings(workers=0))
    with TestClient(app, client=("203.0.113.5", 1)) as outside:
        assert outside.get("/metrics").status_code == 403


def test_a_broadcast_is_timed_once_its_commit_is_done(app_client: TestClient) -> None:
    """With the store's writer held up, actions are applied and counted but none of their broadcasts is
    timed (their frames wait for the commits); once the writer goes on, each one is."""
    c = app_client
    service = c.app.state.service  # type: ignore[attr-defined]
    code = new_room(c)
    tok = join(c, code, 0)
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        recv_until(ws, lambda f: f["type"] == "snapshot" and f["view"] is not None)
        acted = local_value("guandan_actions_total", actor="bot") + local_value("guandan_actions_total", actor="auto")
        timed = local_value("guandan_action_broadcast_seconds_count")
        release = threading.Event()
        service.store.later(release.wait, 30)  # the writer thread waits here: nothing after it commits
        try:
            ws.send_json({"type": "auto", "on": True})
            deadline = time.monotonic() + 30
            while local_value("guandan_actions_total", actor="bot") + local_value("guandan_actions_total", actor="auto") \
                    < acted + 3:
                assert time.monotonic() < deadline, "the bots did not play"
                time.sleep(0.01)
            assert local_value("guandan_action_broadcast_seconds_count") == timed
        finally:
            release.set()
        recv_until(ws, lambda f: f["type"] == "room" and f["room"]["status"] == "over", limit=20_000)
    total = local_value("guandan_actions_total", actor="bot") + local_value("guandan_actions_total", actor="auto")
    assert local_value("guandan_action_broadcast_seconds_count") - timed == total - acted


def test_a_failed_commit_of_an_action_is_counted(app_client: TestClient) -> None:
    c = app_client
    app = c.app
    code = new_room(c)
    tok = join(c, code, 0)
    failed = local_value("guandan_errors_total", kind="db_write")
    logged = local_value("guandan_errors_total", kind="logged")
    with c.websocket_connect(f"/ws/{code}?token={tok}") as ws:
        assert c.post(f"/api/rooms/{code}/ready", json={"token": tok}).status_code == 200
        recv_until(ws, lambda f: f["type"] == "snapshot" and f["view"] is not None)
        with app.state.engine.begin() as conn:  # type: ignore[attr-defined]
            conn.execute(text("DROP TABLE web_actions"))  # every action's commit fails from now on
        ws.send_json({"type": "auto", "on": True})
        recv_until(ws, lambda f: f["type"] == "update")  # released although its commit failed
    assert local_value("guandan_errors_total", kind="db_write") > failed
    assert local_value("guandan_errors_total", kind="logged") > logged  # "a write to the database failed"


# --- several worker processes ---------------------------------------------------------------------------
WORKER = textwrap.dedent("""
    import json, sys
    from fastapi.testclient import TestClient
    from guandan.server.app import create_app
    from guandan.server.table import Settings
    rooms = int(sys.argv[2])
    app = create_app(f"sqlite:///{sys.argv[1]}", Settings(workers=0))
    with TestClient(app, client=("127.0.0.1", 1)) as c:
        for _ in range(rooms):
            assert c.post("/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"]}).status_code == 201
        assert c.get("/metrics").status_code == 200  # sets this worker's gauges (its file)
        print(json.dumps({"pid": __import__("os").getpid()}))
""")


def test_several_workers_are_summed_and_a_dead_ones_gauges_leave_the_sum(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    prom = tmp_path / "prom"
    monkeypatch.setenv(metrics.MULTIPROC_ENV, "unset")  # restored after the test: prepare_multiprocess sets it
    metrics.prepare_multiprocess(prom)
    assert os.environ[metrics.MULTIPROC_ENV] == str(prom.resolve())
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path / f"w{i}.sqlite3"), str(n)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i, n in enumerate((2, 3))]
    pids = []
    for p in procs:
        out, err = p.communicate(timeout=90)
        assert p.returncode == 0, err
        pids.append(json.loads(out.strip().splitlines()[-1])["pid"])
    assert {f.name for f in prom.iterdir()} >= {f"counter_{pids[0]}.db", f"gauge_livesum_{pids[1]}.db"}
    summed = samples(metrics.exposition().decode())
    assert value(summed, "guandan_tables", state="lobby") == 5
    assert value(summed, "guandan_http_request_seconds_count", method="POST", route="/api/rooms", status="201") == 5
    metrics.worker_died(pids[0])
    after = samples(metrics.exposition().decode())
    assert value(after, "guandan_tables", state="lobby") == 3  # the dead worker's rooms are no longer held
    assert value(after, "guandan_http_request_seconds_count", method="POST", route="/api/rooms", status="201") == 5


def test_prepare_multiprocess_clears_old_metrics_files_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(metrics.MULTIPROC_ENV, "unset")
    prom = tmp_path / "prom"
    prom.mkdir()
    for name in ("counter_12.db", "gauge_livesum_12.db", "histogram_12.db", "notes.txt", "other.db"):
        (prom / name).write_text("x")
    metrics.prepare_multiprocess(prom)
    assert sorted(f.name for f in prom.iterdir()) == ["notes.txt", "other.db"]
    fresh = tmp_path / "a" / "b"
    metrics.prepare_multiprocess(fresh)
    assert fresh.is_dir() and os.environ[metrics.MULTIPROC_ENV] == str(fresh.resolve())
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="not a directory"):
        metrics.prepare_multiprocess(tmp_path / "file")
    assert os.environ[metrics.MULTIPROC_ENV] == str(fresh.resolve())  # unchanged by the refusal
