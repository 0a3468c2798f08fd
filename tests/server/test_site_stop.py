"""A site of several workers as its operator meets it: what the supervisor says of a worker that exited on its
own, and what `guandan serve --workers N` leaves behind once stopped (Ctrl-C or SIGTERM): no metrics folder;
and a single server SIGTERM stops leaves nothing in the temporary folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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
        while not any(tmp.iterdir()):  # the fork server starts before the address answers
            assert proc.poll() is None and time.monotonic() < deadline, "the server never started its fork server"
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in err.decode(), err
    assert list(tmp.iterdir()) == []
