"""A site of several workers as its operator meets it: what the supervisor says of a worker that exited on its
own."""

from __future__ import annotations

import subprocess
import sys

import pytest

from guandan.server.supervisor import Supervisor, Worker

pytestmark = pytest.mark.timeout(240)


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
