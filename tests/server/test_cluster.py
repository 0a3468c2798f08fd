"""A site of several worker processes on real PostgreSQL and Redis: clients on different processes play
one table; a worker killed mid-deal and its table resumed on another; a rolling restart; nothing lost, no
action applied twice."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from guandan.server.app import create_app
from guandan.server.cluster import Cluster, ClusterSettings
from guandan.server.table import Settings

from .conftest import free_port
from .site import Player, Site, fresh_database

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def site(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[Site]:
    s = Site(fresh_database(postgres_url), redis_url, log_dir=str(tmp_path))
    try:
        yield s
    finally:
        s.stop()


def play(players: list[Player], stop_at: int | None = None) -> None:
    """Every player in its own thread until the match is over (or every player has seen ``stop_at``)."""
    errors: list[BaseException] = []

    def run(p: Player) -> None:
        try:
            for f in p.frames():
                if stop_at is not None and p.seq >= stop_at:
                    return
                p.respond(f)
        except BaseException as e:  # reported by the test's thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(p,), daemon=True) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=200)
    if errors:
        raise AssertionError(f"{errors[0]!r}: {players}") from errors[0]
    assert not any(t.is_alive() for t in threads), f"a player never saw the end: {players}"


def steps_of(base: str, code: str, token: str) -> int:
    room = httpx.get(f"{base}/api/rooms/{code}", params={"token": token}).json()
    assert room["status"] == "over"
    deals = httpx.get(f"{base}/api/replays/{room['replay_id']}").json()["deals"]
    return sum(len(d["steps"]) - 1 for d in deals)


def test_clients_on_different_processes_play_one_table(site: Site) -> None:
    a, b, c = free_port(), free_port(), free_port()
    for p in (a, b, c):
        site.start_worker(p)
    for p in (a, b, c):  # a worker joins the site before its address answers: each one used is waited for
        site.wait_ready(p, 3)
    room = httpx.post(f"http://127.0.0.1:{a}/api/rooms",
                      json={"bots": [None, None, "greedy", "greedy"], "max_deals": 1, "timer": 0}).json()
    code = room["code"]
    # the joins reach the owner (a) from the other two processes, and their answers come back
    t0 = httpx.post(f"http://127.0.0.1:{b}/api/rooms/{code}/join", json={"seat": 0, "name": "B"}).json()["token"]
    t1 = httpx.post(f"http://127.0.0.1:{c}/api/rooms/{code}/join", json={"seat": 1, "name": "C"}).json()["token"]
    summary = httpx.get(f"http://127.0.0.1:{c}/api/rooms/{code}").json()
    assert [s["name"] for s in summary["seats"][:2]] == ["B", "C"]
    taken = httpx.post(f"http://127.0.0.1:{c}/api/rooms/{code}/join", json={"seat": 0, "name": "X"})
    assert taken.status_code == 409 or taken.status_code == 400, taken.text  # refused by the owner, told to c
    players = [Player([b], code, t0, 0), Player([c], code, t1, 1), Player([a], code, None, None),
               Player([c], code, None, None)]
    for p in players:
        p.open()
    for port, tok in ((b, t0), (c, t1)):
        httpx.post(f"http://127.0.0.1:{port}/api/rooms/{code}/ready", json={"token": tok}).raise_for_status()
    play(players)
    final = steps_of(f"http://127.0.0.1:{b}", code, t0)
    for p in players:  # every page, local or relayed, saw every update once, in order
        assert p.seen == list(range(1, final + 1))
        assert p.reconnects == 0
        p.close()


def test_a_stopping_worker_is_not_held_up_by_a_loop_that_swallowed_its_cancellation(
        postgres_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A library awaited inside a background loop may catch the cancellation meant for the loop (redis-py
    did, now and then, at shutdown): the worker still stops at once instead of waiting to be killed."""
    swallowed: list[bool] = []

    async def stubborn(self: Cluster) -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            swallowed.append(True)

    monkeypatch.setattr(Cluster, "_renew_once", stubborn)
    cluster = ClusterSettings(redis_url, prefix=f"t{secrets.token_hex(3)}")
    app = create_app(fresh_database(postgres_url), Settings(bot_delay_ms=0), cluster=cluster)
    stopped: list[float] = []

    def serve_then_stop() -> None:
        with TestClient(app) as c:
            assert c.get("/api/meta").status_code == 200
            time.sleep(0.3)  # the renewal loop is inside its stubborn call by now
            start = time.monotonic()
        stopped.append(time.monotonic() - start)

    t = threading.Thread(target=serve_then_stop, daemon=True)
    t.start()
    t.join(timeout=30)
    assert not t.is_alive(), "the worker's shutdown hung on its renewal loop"
    assert swallowed and stopped and stopped[0] < 5.0, (swallowed, stopped)


def test_a_killed_worker_s_table_resumes_on_another(site: Site) -> None:
    a, b = free_port(), free_port()
    pa = site.start_worker(a)
    site.start_worker(b)
    for p in (a, b):  # a worker joins the site before its address answers: each one used is waited for
        site.wait_ready(p, 2)
    code = httpx.post(f"http://127.0.0.1:{a}/api/rooms",
                      json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": 1, "timer": 0}).json()["code"]
    tok = httpx.post(f"http://127.0.0.1:{a}/api/rooms/{code}/join", json={"seat": 0, "name": "me"}).json()["token"]
    me = Player([a, b], code, tok, 0)  # on the owner itself: its socket dies with it
    watcher = Player([b, a], code, None, None)  # relayed through b: b closes it when a's table moves
    me.open()
    watcher.open()
    httpx.post(f"http://127.0.0.1:{a}/api/rooms/{code}/ready", json={"token": tok}).raise_for_status()
    play([me, watcher], stop_at=12)
    seen = me.seq
    os.kill(pa.pid, signal.SIGKILL)  # mid-deal, nothing handed over
    pa.wait(timeout=10)
    play([me, watcher])
    final = steps_of(f"http://127.0.0.1:{b}", code, tok)
    assert me.seq == watcher.seq == final > seen
    assert me.seen == list(range(1, final + 1)) and watcher.seen == list(range(1, final + 1))
    assert me.reconnects >= 1 and watcher.reconnects >= 1
    assert me.outage_s < 5.0, f"{me.outage_s:.1f} s without the table"


def start_tables(base: str, n: int, deals: int) -> list[tuple[str, str]]:
    rooms = []
    for _ in range(n):
        code = httpx.post(f"{base}/api/rooms", json={"bots": [None, "greedy", "greedy", "greedy"], "max_deals": deals,
                                                      "timer": 0}).json()["code"]
        tok = httpx.post(f"{base}/api/rooms/{code}/join", json={"seat": 0, "name": "me"}).json()["token"]
        rooms.append((code, tok))
    return rooms


def owner_pid(site: Site, code: str) -> int:
    import redis

    client = redis.Redis.from_url(site.redis_url)
    try:
        owner = client.get(f"{site.name}:lease:{code}")
        assert owner is not None
        pid = client.get(f"{site.name}:worker:{owner.decode()}")  # type: ignore[union-attr]
        assert pid is not None
        return int(pid)
    finally:
        client.close()


def test_a_rolling_restart_loses_nothing(site: Site) -> None:
    port = free_port()
    sup = site.start_worker(port, "--workers", "2", "--bot-delay-ms", "120")  # the last --bot-delay-ms counts
    site.wait_ready(port, 2)
    assert site.log_dir is not None
    (said,) = [p.read_text(encoding="utf-8") for p in Path(site.log_dir).glob(f"worker-{port}-*.log")]
    # the supervisor says, as a single process does, that only this machine can open it
    assert f"serving on http://127.0.0.1:{port} with 2 workers\nguandan: only this computer can open it" in said, said
    base = f"http://127.0.0.1:{port}"
    rooms = start_tables(base, 3, deals=2)
    players = [Player([port], code, tok, 0) for code, tok in rooms]
    for p, (code, tok) in zip(players, rooms, strict=True):
        p.open()
        httpx.post(f"{base}/api/rooms/{code}/ready", json={"token": tok}).raise_for_status()
    play(players, stop_at=4)
    sup.send_signal(signal.SIGHUP)  # every worker replaced, one at a time, while the tables play
    play(players)
    for p, (code, tok) in zip(players, rooms, strict=True):
        final = steps_of(base, code, tok)
        assert p.seen == list(range(1, final + 1)), "an update was lost or repeated"
        p.close()
    assert sum(p.reconnects for p in players) >= 3, "the restart happened after the tables were over"
    assert site.workers() == 2


def test_a_worker_killed_under_the_supervisor_is_replaced(site: Site) -> None:
    port = free_port()
    site.start_worker(port, "--workers", "2", "--bot-delay-ms", "60")
    site.wait_ready(port, 2)
    base = f"http://127.0.0.1:{port}"
    (code, tok), = start_tables(base, 1, deals=1)
    me = Player([port], code, tok, 0)
    me.open()
    httpx.post(f"{base}/api/rooms/{code}/ready", json={"token": tok}).raise_for_status()
    play([me], stop_at=8)
    os.kill(owner_pid(site, code), signal.SIGKILL)
    killed = time.monotonic()
    play([me])
    final = steps_of(base, code, tok)
    assert me.seen == list(range(1, final + 1))
    assert me.reconnects >= 1 and me.outage_s < 5.0, f"{me.outage_s:.1f} s without the table"
    while site.workers() < 2:  # the supervisor started another
        assert time.monotonic() - killed < 60
        time.sleep(0.2)


def test_the_site_benchmark_and_its_failover_drill(postgres_url: str, redis_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from guandan.server.bench_site import format_site_report, run_site_bench

    # in a thread of its own: the bench runs its own event loop, and a browser test before this one in the same
    # process may leave one running in the main thread (Playwright's sync API)
    with ThreadPoolExecutor(1) as pool:
        report = pool.submit(run_site_bench, [1, 2], redis_url, fresh_database(postgres_url), tables=4, seconds=6,
                             think_ms=50, failover=True).result()
    plain, two, drill = report["runs"]
    assert [plain["workers"], two["workers"], drill["workers"]] == [1, 2, 2]
    for r in (plain, two):
        assert r["actions"] > 50 and r["errors"] == 0 and r["lost_actions"] == 0 and r["reconnects"] == 0
    f = drill["failover"]
    assert drill["lost_actions"] == 0 and drill["reconnects"] >= 1 and f["clients_resumed"] >= 1
    assert f["outage_max_s"] < 5.0, format_site_report(report)
    assert "failover drill" in format_site_report(report)


def test_bench_server_refuses_bad_site_options() -> None:
    from typer.testing import CliRunner

    from guandan.cli import _mount, app

    _mount()
    runner = CliRunner()
    for args, words in ((["--workers", "0"], "worker counts"), (["--workers", "2"], "--redis"),
                        (["--workers", "2", "--redis", "redis://x", "--db", "sqlite:///x"], "PostgreSQL"),
                        (["--failover"], "go with --workers")):
        r = runner.invoke(app, ["bench", "server", *args])
        assert r.exit_code == 2 and words in r.output, (args, r.output)
    r = runner.invoke(app, ["serve", "--workers", "3"])
    assert r.exit_code == 2 and "--redis" in r.output
    r = runner.invoke(app, ["serve", "--redis", "nonsense", "--db", "postgresql+psycopg://x/y"])
    assert r.exit_code == 2 and "Redis URL" in r.output
