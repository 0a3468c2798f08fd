"""`guandan bench server` end to end on a tiny load: a real server process, bot clients over loopback
WebSockets, figures that add up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import async_support
from guandan.server import bench
from guandan.server.bench import format_report, run_bench

pytestmark = pytest.mark.timeout(120)


def test_bench_server_plays_over_real_websockets() -> None:
    r = async_support.call(run_bench, tables=2, seconds=3, think_ms=20, seed=3)
    assert r["errors"] == 0, r["first_errors"]
    assert r["actions"] > 20
    assert 0 < r["p50_ms"] <= r["p99_ms"]
    assert r["actions_per_s"] == pytest.approx(r["actions"] / r["seconds"], rel=0.05)
    text = format_report(r)
    assert "actions/s" in text and "p50/p99" in text


def test_a_refused_bench_command_leaves_the_process_as_it_was() -> None:
    """`bench server` takes SIGTERM only while it runs: a command refused for its options, run in a process that goes
    on (this test's, as the catalogue tests run it), gives the process's SIGTERM handling back, and a bench run after
    it in a thread of its own, which can take no signal, plays. The handler was left behind, and the next bench run
    in a thread of that process failed (an event loop outside the main thread cannot take a signal)."""
    from typer.testing import CliRunner

    from guandan.cli import _mount, app

    _mount()
    before = signal.getsignal(signal.SIGTERM)
    refused = CliRunner().invoke(app, ["bench", "server", "--warmup", "5"])
    assert refused.exit_code == 2 and "--warmup" in refused.output, refused.output
    assert signal.getsignal(signal.SIGTERM) is before
    r = async_support.call(run_bench, tables=1, seconds=2, think_ms=20, seed=3)
    assert r["errors"] == 0 and r["actions"] > 0, r["first_errors"]


def test_bench_clients_lead_from_a_view_too_long_to_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lead of more than LEGAL_INLINE_MAX plays (27 ordinary cards reach it now and then) lists no play:
    a client still leads, with a single the engine accepts, and when following it passes."""
    from guandan.core.match import new_match
    from guandan.core.rules import preset
    from guandan.core.vocab import ActionKind
    from guandan.server import wire
    from guandan.server.bench import client_actions, client_turn

    monkeypatch.setattr(wire, "LEGAL_INLINE_MAX", 1)
    match = new_match(preset("competition"), "long-lead")
    match.start_deal()
    for step in ("lead", "follow"):
        seat = match.to_move
        view = wire.seat_view(match.observation(seat), with_events=False)
        assert view["legal_complete"] is False and not any(a["kind"] == ActionKind.PLAY for a in view["legal"])
        assert client_turn(view, seat) and not client_turn(view, (seat + 1) % 4)
        actions = client_actions(view)
        if step == "lead":
            assert actions == [{"kind": ActionKind.PLAY, "cards": [view["hand"][0]], "combo": None}]
        else:
            assert [a["kind"] for a in actions] == [ActionKind.PASS]
        a = actions[0]
        match.apply(wire.parse_action(match, seat, a["kind"], a["cards"], a.get("combo")))


def test_a_server_that_dies_as_it_starts_is_said_with_the_end_of_its_log(tmp_path: Path) -> None:
    """A server that exits as it starts (here: a temporary folder whose path is too long for the worker pool's
    socket) is said in the reader's language, with the end of its log, and the bench exits with 1."""
    deep = tmp_path / ("t" * 100)
    deep.mkdir()
    # a TMPDIR too long for the worker pool's fork server's socket, and no shorter folder to put it in: the server
    # refuses to start (status 1)
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text("import guandan.server.workers as w\nw.SHORT_FOLDERS = ()\n")
    path = os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH")) if p)
    for lang, words in (("en", ["error: the bench's server exited with status 1", "the end of its log:"]),
                        ("zh", ["基准测试的服务器已退出，退出状态为 1", "其日志的末尾："])):
        r = subprocess.run([sys.executable, "-c", "from guandan.cli import main; main()", "bench", "server",
                            "--tables", "1", "--seconds", "1"], capture_output=True, text=True, timeout=90,
                           env={**os.environ, "TMPDIR": str(deep), "LANGUAGE": lang, "PYTHONPATH": path})
        assert r.returncode == 1, r.stderr
        assert all(w in r.stderr for w in words), r.stderr
        ours, _, log = r.stderr.partition(words[1])
        assert "Traceback" not in ours, r.stderr  # the bench says it in words; a traceback is the server's, in its log
        assert "TMPDIR" in log and "Traceback" not in log, r.stderr
    assert list(deep.iterdir()) == []  # the bench's data folder and the log in it are gone


def test_a_server_that_dies_meanwhile_is_said_with_the_end_of_its_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's standard error goes to a file in the bench's data folder, which nothing has to read while the
    bench runs (a pipe would fill up and stall a chatty server); a server that dies during the run is a
    ServerFailed that carries the end of that file."""
    started: list[tuple[subprocess.Popen[bytes], str]] = []
    start_server = bench.start_server

    def start(port: int, data: str) -> subprocess.Popen[bytes]:
        proc = start_server(port, data)
        started.append((proc, data))
        threading.Timer(1.0, proc.kill).start()
        return proc

    monkeypatch.setattr(bench, "start_server", start)
    with pytest.raises(bench.ServerFailed) as failed:
        async_support.call(bench.run_bench, tables=1, seconds=4, think_ms=20, seed=3)
    (_proc, data), = started
    assert failed.value.status == -signal.SIGKILL
    assert "serving on" in failed.value.log
    assert not Path(data).exists()
