"""A site of several workers as its operator meets it: what the supervisor says of a worker that exited on its
own, and what `guandan serve --workers N` and `guandan bench server --workers N` leave behind once stopped
(Ctrl-C or SIGTERM): no metrics folder, no process, no database, no Redis key, no file; and a single server
SIGTERM stops leaves nothing in the temporary folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from guandan.server import metrics
from guandan.server.supervisor import Supervisor, Worker

from .conftest import free_port
from .site import Site, fresh_database

pytestmark = pytest.mark.timeout(240)
GUANDAN = [sys.executable, "-c", "from guandan.cli import main; main()"]


# --- what the supervisor says -----------------------------------------------------------------------------
def _said_of_exit(monkeypatch: pytest.MonkeyPatch, proc: subprocess.Popen[bytes]) -> list[str]:
    """The lines the supervisor says on finding ``proc``, one of its workers, exited."""
    said: list[str] = []
    sup = Supervisor("127.0.0.1", 1, 2, "redis://127.0.0.1:1/0", "t", None, say=said.append)
    monkeypatch.setattr(sup, "_gone", lambda _w: None)
    monkeypatch.setattr(sup, "_start", lambda index: Worker(index, "next", proc))
    sup.workers = [Worker(0, "host-w0-g1-ab12", proc)]
    sup._reap()
    return said


def test_a_killed_worker_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    proc = subprocess.Popen(["sleep", "60"])
    proc.kill()
    proc.wait()
    assert _said_of_exit(monkeypatch, proc) == [
        "guandan: worker host-w0-g1-ab12 was killed by signal SIGKILL; starting another"]
    monkeypatch.setenv("LANGUAGE", "zh")
    assert _said_of_exit(monkeypatch, proc) == ["guandan：工作进程 host-w0-g1-ab12 被信号 SIGKILL 终止；正在启动新的"]


def test_a_worker_that_exited_with_a_status_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    proc = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    proc.wait()
    assert _said_of_exit(monkeypatch, proc) == [
        "guandan: worker host-w0-g1-ab12 exited with status 3; starting another"]
    monkeypatch.setenv("LANGUAGE", "zh")
    assert _said_of_exit(monkeypatch, proc) == ["guandan：工作进程 host-w0-g1-ab12 已退出，退出状态为 3；正在启动新的"]


# --- the workers' metrics folder --------------------------------------------------------------------------
def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_only_the_folders_of_supervisors_no_longer_running_are_swept(tmp_path: Path) -> None:
    dead, alive = _dead_pid(), os.getpid()
    gone = tmp_path / f"guandan-metrics-{dead}"
    running = tmp_path / f"guandan-metrics-{alive}"
    for d in (gone, running):
        d.mkdir()
        (d / "counter_123.db").write_bytes(b"x")
    kept = tmp_path / f"guandan-metrics-{_dead_pid()}"  # a dead one's, holding a file that is not a metric
    kept.mkdir()
    (kept / "gauge_livesum_9.db").write_bytes(b"x")
    (kept / "notes.txt").write_text("mine")
    assert metrics.remove_stale_dirs(tmp_path) == [gone]
    assert not gone.exists()
    assert sorted(p.name for p in running.iterdir()) == ["counter_123.db"]  # a running server's stays whole
    assert sorted(p.name for p in kept.iterdir()) == ["notes.txt"]


@pytest.fixture
def site(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[Site]:
    s = Site(fresh_database(postgres_url), redis_url, log_dir=str(tmp_path))
    try:
        yield s
    finally:
        s.stop()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_site_leaves_no_metrics_folder(site: Site, stop: signal.Signals,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(metrics.MULTIPROC_ENV, raising=False)
    port = free_port()
    sup = site.start_worker(port, "--workers", "2")
    site.wait_ready(port, 2)
    folder = Path(tempfile.gettempdir()) / f"guandan-metrics-{sup.pid}"
    assert folder.is_dir() and any(folder.iterdir())  # the workers write their metrics there
    sup.send_signal(stop)
    assert sup.wait(timeout=60) == 0
    assert not folder.exists()


def test_a_server_stopped_with_sigterm_leaves_nothing_in_the_temporary_folder(tmp_path: Path) -> None:
    """The worker pool's fork server keeps its socket in a folder of the server's (pymp-…), removed as the
    interpreter exits: a SIGTERM must end it through that exit, not outright once uvicorn has shut down."""
    tmp, data, port = tmp_path / "tmp", tmp_path / "data", free_port()
    tmp.mkdir()
    proc = subprocess.Popen([*GUANDAN, "serve", "--port", str(port), "--data", str(data)], stderr=subprocess.PIPE,
                            env={**os.environ, "TMPDIR": str(tmp)}, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "the server never answered"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert any(tmp.iterdir())  # the fork server's folder, made before the address answers
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in err.decode(), err
    assert list(tmp.iterdir()) == []


# --- the site benchmark, stopped -------------------------------------------------------------------------
def _pids_with(words: str) -> list[int]:
    """The processes whose command line holds ``words`` (arguments joined by spaces)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if words in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def _databases(postgres_url: str) -> set[str]:
    import psycopg

    with psycopg.connect(postgres_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        return {r[0] for r in conn.execute("SELECT datname FROM pg_database")}


def test_a_site_bench_stopped_with_sigterm_leaves_nothing_behind(postgres_url: str, redis_url: str,
                                                                 tmp_path: Path) -> None:
    client = redis.Redis.from_url(redis_url)
    before = _databases(postgres_url)
    site = ""
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # its log file and its site's metrics folder go there
    bench = subprocess.Popen([*GUANDAN, "bench", "server", "--workers", "2", "--redis", redis_url, "--db",
                              postgres_url, "--tables", "2", "--seconds", "60", "--think-ms", "50"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not any(k.decode().endswith(":workers") for k in client.scan_iter(match="bench*")):
            assert bench.poll() is None and time.monotonic() < deadline, "the bench's site never started"
            time.sleep(0.2)
        site = next(k.decode() for k in client.scan_iter(match="bench*:workers")).split(":")[0]
        time.sleep(3)  # the tables playing
        assert _pids_with(f"--site {site} "), "no supervisor of the site was found"
        assert site in _databases(postgres_url)
        bench.send_signal(signal.SIGTERM)
        _, err = bench.communicate(timeout=120)
        assert bench.returncode == 128 + signal.SIGTERM, err
        assert "Traceback" not in err.decode(), err
        assert _pids_with(f"--site {site} ") == []  # the supervisor and its workers
        assert _databases(postgres_url) == before
        assert list(client.scan_iter(match=f"{site}:*")) == []
        assert list(tmp_path.iterdir()) == []  # neither the workers' log nor the metrics folder
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
        for pid in _pids_with(f"--site {site} ") if site else []:  # what the old code left: ended here
            os.kill(pid, signal.SIGKILL)
        client.close()

