"""A site of several workers as its operator meets it: what the supervisor says of a worker that exited on its
own, and what `guandan serve --workers N` and `guandan bench server --workers N` leave behind once stopped
(Ctrl-C or SIGTERM): no metrics folder, no process, no database, no Redis key, no file; and a single server
SIGTERM stops leaves nothing in the temporary folder."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

import async_support
from guandan.server import bench, bench_site, metrics
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
def short_tmp() -> Iterator[Path]:
    """A temporary folder for a server to take as its TMPDIR, checked empty once it stops. Its path is short: the
    worker pool's fork server listens on a socket in it (pymp-…/listener-…), and a socket's path has at most 107
    bytes, which pytest's own folders (deeper under xdist) come within a few bytes of: a server given one
    exited as it started (AF_UNIX path too long)."""
    path = Path(tempfile.mkdtemp(prefix="gd-", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _tail(path: Path, limit: int = 4000) -> str:
    try:
        return path.read_text(errors="replace")[-limit:]
    except OSError as e:
        return f"({path}: {e})"


def _wait_answering(proc: subprocess.Popen[bytes], port: int, err: Path, what: str, timeout: float = 90) -> None:
    """Until ``proc`` answers /healthz on ``port``; it exiting or not answering in time fails the test with the end
    of its standard error (``err``)."""
    deadline = time.monotonic() + timeout
    while True:
        code = proc.poll()
        assert code is None, f"{what} exited with status {code} as it started:\n{_tail(err)}"
        assert time.monotonic() < deadline, f"{what} did not answer within {timeout:g} s:\n{_tail(err)}"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


def _stopped(proc: subprocess.Popen[bytes], err: Path, what: str, timeout: float) -> int:
    """``proc``'s return code once it has exited, told to stop; one still running after ``timeout`` seconds is
    killed, and the test fails with where it stood (PYTHONFAULTHANDLER in its environment: SIGABRT makes it
    write every thread's stack on its standard error, ``err``) and the end of that."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)
        raise AssertionError(f"{what} had not stopped {timeout:g} s after SIGTERM:\n{_tail(err, 12000)}") from None


@pytest.fixture
def site(postgres_url: str, redis_url: str, tmp_path: Path, short_tmp: Path,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    monkeypatch.setenv("TMPDIR", str(short_tmp))  # the workers' fork servers' folders, and the metrics folder
    monkeypatch.delenv(metrics.MULTIPROC_ENV, raising=False)
    s = Site(fresh_database(postgres_url), redis_url, log_dir=str(tmp_path))
    try:
        yield s
    finally:
        s.stop()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_site_leaves_nothing_in_the_temporary_folder(site: Site, stop: signal.Signals, short_tmp: Path,
                                                               tmp_path: Path) -> None:
    """`serve --workers 2`: the metrics folder its supervisor made (guandan-metrics-PID) and its workers' fork
    servers' folders go as it stops; it exits 0."""
    port = free_port()
    sup = site.start_worker(port, "--workers", "2")
    err = tmp_path / f"worker-{port}-0.log"
    try:
        site.wait_ready(port, 2, timeout=150)  # two workers starting on a CI machine busy with the suite
    except RuntimeError as e:
        raise AssertionError(f"{e} (status {sup.poll()}):\n{_tail(err)}") from None
    folder = short_tmp / f"guandan-metrics-{sup.pid}"
    assert folder.is_dir() and any(folder.iterdir())  # the workers write their metrics there
    sup.send_signal(stop)
    assert _stopped(sup, err, "the supervisor", 60) == 0, _tail(err)
    assert "Traceback" not in _tail(err, 100_000), _tail(err)
    assert sorted(p.name for p in short_tmp.iterdir()) == []


def test_a_server_stopped_with_sigterm_leaves_nothing_in_the_temporary_folder(tmp_path: Path, short_tmp: Path) -> None:
    """The worker pool's fork server keeps its socket in a folder of the server's (pymp-…), removed as the
    interpreter exits: a SIGTERM ends the server through that exit (status 143, as a shell gives a process
    SIGTERM ended), not outright once uvicorn has shut down."""
    data, err, port = tmp_path / "data", tmp_path / "stderr", free_port()
    with err.open("wb") as out:
        proc = subprocess.Popen([*GUANDAN, "serve", "--port", str(port), "--data", str(data)], stderr=out,
                                stdout=subprocess.DEVNULL, start_new_session=True,
                                env={**os.environ, "TMPDIR": str(short_tmp), "PYTHONFAULTHANDLER": "1"})
    try:
        _wait_answering(proc, port, err, "the server")
        assert any(short_tmp.iterdir())  # the fork server's folder, made before the address answers
        proc.send_signal(signal.SIGTERM)
        assert _stopped(proc, err, "the server", 60) == 128 + signal.SIGTERM, _tail(err)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in _tail(err, 100_000), _tail(err)
    assert sorted(p.name for p in short_tmp.iterdir()) == []


def _serve_with(short_folders: list[Path]) -> list[str]:
    """`guandan serve`'s command, its fork server's fallback folders (workers.SHORT_FOLDERS) being these."""
    set_them = f"import guandan.server.workers as w; w.SHORT_FOLDERS = {tuple(str(p) for p in short_folders)!r}; "
    return [sys.executable, "-c", set_them + "from guandan.cli import main; main()", "serve"]


def test_a_server_whose_temporary_folder_is_too_long_for_a_socket_starts(tmp_path: Path, short_tmp: Path) -> None:
    """A TMPDIR whose path leaves the fork server's socket (pymp-…/listener-…) over 107 bytes: the server puts
    that folder in a shorter one, answers, and removes it as a SIGTERM stops it."""
    long, short = short_tmp / ("x" * 90), short_tmp / "s"
    long.mkdir()
    short.mkdir()
    data, err, port = tmp_path / "data", tmp_path / "stderr", free_port()
    with err.open("wb") as out:
        proc = subprocess.Popen([*_serve_with([short]), "--port", str(port), "--data", str(data)], stderr=out,
                                stdout=subprocess.DEVNULL, start_new_session=True,
                                env={**os.environ, "TMPDIR": str(long), "PYTHONFAULTHANDLER": "1"})
    try:
        _wait_answering(proc, port, err, "the server")
        assert [p.name[:5] for p in short.iterdir()] == ["pymp-"]
        proc.send_signal(signal.SIGTERM)
        assert _stopped(proc, err, "the server", 60) == 128 + signal.SIGTERM, _tail(err)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in _tail(err, 100_000), _tail(err)
    assert sorted(p.name for p in short.iterdir()) == [] and sorted(p.name for p in long.iterdir()) == []


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "error: the temporary folder {path} (TMPDIR) is too long: the worker processes' socket inside it would "
           "pass the 107 bytes a Unix socket's path may hold"),
    ("zh", "错误：临时文件夹 {path}（TMPDIR）的路径太长：工作进程在其中的套接字路径会超过 Unix 套接字路径最多容纳的107字节")])
def test_a_server_with_no_folder_short_enough_for_a_socket_says_so(tmp_path: Path, short_tmp: Path, lang: str,
                                                                  words: str) -> None:
    """With no shorter folder to write to, the server refuses to start, in words naming TMPDIR and the limit."""
    long = short_tmp / ("x" * 90)
    long.mkdir()
    done = subprocess.run([*_serve_with([]), "--port", str(free_port()), "--data", str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(long), "LANGUAGE": lang})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(words.format(path=long)), done.stderr


def test_a_supervisor_with_no_folder_short_enough_for_a_socket_starts_no_worker(
        short_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A temporary folder too long for the workers' fork server's socket, and no shorter one to write to: the
    supervisor refuses before it binds the address or starts a worker, which would refuse in turn and be started
    again and again."""
    from guandan.server import workers

    long = short_tmp / ("x" * 90)
    long.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long))
    monkeypatch.setattr(workers, "SHORT_FOLDERS", ())
    sup = Supervisor("127.0.0.1", free_port(), 2, "redis://127.0.0.1:1/0", "t", None, say=lambda _line: None)
    started: list[int] = []
    monkeypatch.setattr(sup, "_start", lambda index: started.append(index))
    with pytest.raises(workers.TempDirTooLong) as refused:
        sup.run()
    assert refused.value.tempdir == str(long) and started == [] and sup.sock is None
    monkeypatch.setattr(workers, "SHORT_FOLDERS", (str(short_tmp),))  # a short folder to write to: it may start
    workers.check_fork_server_folder()
    assert [p.name for p in short_tmp.iterdir()] == [long.name]  # the folder it tried is gone


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "error: the temporary folder {path} (TMPDIR) is too long: the worker processes' socket inside it would "
           "pass the 107 bytes a Unix socket's path may hold"),
    ("zh", "错误：临时文件夹 {path}（TMPDIR）的路径太长：工作进程在其中的套接字路径会超过 Unix 套接字路径最多容纳的107字节")])
def test_a_site_with_no_folder_short_enough_for_a_socket_says_so_once(postgres_url: str, redis_url: str,
                                                                      tmp_path: Path, short_tmp: Path, lang: str,
                                                                      words: str) -> None:
    """`serve --workers 2` with no folder short enough for its workers' fork server's socket: the supervisor
    says so once, in the reader's language, and exits 1, where it started workers that each refused, again and
    again, until it was stopped."""
    long = short_tmp / ("x" * 90)
    long.mkdir()
    try:
        done = subprocess.run([*_serve_with([]), "--port", str(free_port()), "--workers", "2", "--redis", redis_url,
                               "--db", postgres_url, "--site", f"tmp{lang}"], capture_output=True, text=True,
                              timeout=90, env={**os.environ, "TMPDIR": str(long), "LANGUAGE": lang})
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"the supervisor was still running after 90 s:\n{e.stderr!r}") from None
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(words.format(path=long)), done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr


# --- the benchmarks, stopped with SIGTERM ----------------------------------------------------------------
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


def _child_args(parent: int, option: str) -> list[str] | None:
    """The arguments of ``parent``'s child whose command line holds ``option`` (None while it has none): the
    bench's own server or site, not one in the shared Redis or another test's."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            args = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == parent and option in args[:-1]:
            return args
    return None


def _bench(args: list[str], err: Path, short_tmp: Path) -> subprocess.Popen[bytes]:
    with err.open("wb") as out:
        return subprocess.Popen([*GUANDAN, "bench", "server", *args, "--tables", "2", "--seconds", "60",
                                 "--think-ms", "50"], stdout=subprocess.DEVNULL, stderr=out, start_new_session=True,
                                env={**os.environ, "TMPDIR": str(short_tmp), "PYTHONFAULTHANDLER": "1"})


def _await_child(bench: subprocess.Popen[bytes], option: str, err: Path, deadline: float) -> list[str]:
    while (args := _child_args(bench.pid, option)) is None:
        code = bench.poll()
        assert code is None, f"the bench exited with status {code} before it started its server:\n{_tail(err)}"
        assert time.monotonic() < deadline, f"the bench started no server within 120 s:\n{_tail(err)}"
        time.sleep(0.05)
    return args


def _stop_bench(bench: subprocess.Popen[bytes], err: Path) -> None:
    """SIGTERM: the bench stops within a minute (it played 60 s on when the signal was lost), with 143."""
    bench.send_signal(signal.SIGTERM)
    code = _stopped(bench, err, "the bench", 60)
    assert code == 128 + signal.SIGTERM, f"status {code}:\n{_tail(err)}"
    assert "Traceback" not in _tail(err, 100_000), _tail(err)


@pytest.mark.parametrize("when", ["starting", "playing"])
def test_a_bench_stopped_with_sigterm_leaves_nothing_behind(tmp_path: Path, short_tmp: Path, when: str) -> None:
    """Stopped as its server starts or as its tables play, `bench server` stops its server, removes its
    data folder (the SQLite database) and what the server made, and exits with 143, as Ctrl-C leaves it."""
    err = tmp_path / "stderr"
    bench = _bench([], err, short_tmp)
    server: list[str] = []
    try:
        server = _await_child(bench, "serve", err, time.monotonic() + 120)
        if when == "playing":
            port = server[server.index("--port") + 1]
            _wait_answering(bench, int(port), err, "the bench", 120)
            time.sleep(3)  # its tables open and play
        _stop_bench(bench, err)
        assert _pids_with(f"--data {server[server.index('--data') + 1]} ") == []  # its server
        assert sorted(p.name for p in short_tmp.iterdir()) == []  # guandan-bench-…, the server's pymp-…
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()


@pytest.mark.parametrize("when", ["starting", "playing"])
def test_a_site_bench_stopped_with_sigterm_leaves_nothing_behind(postgres_url: str, redis_url: str, tmp_path: Path,
                                                                 short_tmp: Path, when: str) -> None:
    """Stopped as its site starts or as its tables play, `bench server --workers 1` stops the site (supervisor
    and worker), drops its database, deletes its Redis keys and removes its log and the site's folders, then
    exits with 143."""
    client = redis.Redis.from_url(redis_url)
    before = _databases(postgres_url)
    err = tmp_path / "stderr"
    bench = _bench(["--workers", "1", "--redis", redis_url, "--db", postgres_url], err, short_tmp)
    site: str | None = None
    try:
        deadline = time.monotonic() + 120
        args = _await_child(bench, "--site", err, deadline)
        site = args[args.index("--site") + 1]
        if when == "playing":
            logs = lambda: "".join(_tail(p) for p in short_tmp.glob("*.log"))  # noqa: E731
            while not list(client.scan_iter(match=f"{site}:owned:*")):  # the worker owns a table: they are open
                code = bench.poll()
                assert code is None, f"the bench exited with status {code}:\n{_tail(err)}\n{logs()}"
                assert time.monotonic() < deadline, f"the bench's tables were not open within 120 s:\n{logs()}"
                time.sleep(0.2)
            time.sleep(2)  # the tables playing
        assert site in _databases(postgres_url)
        _stop_bench(bench, err)
        assert _pids_with(f"--site {site} ") == []  # the supervisor and its worker
        assert _databases(postgres_url) == before
        assert list(client.scan_iter(match=f"{site}:*")) == []
        assert sorted(p.name for p in short_tmp.iterdir()) == []  # the site's log, the metrics and pymp folders
    finally:
        if bench.poll() is None:
            os.killpg(bench.pid, signal.SIGKILL)
            bench.wait()
        for pid in _pids_with(f"--site {site} ") if site else []:  # what a bench that failed here left: ended
            os.kill(pid, signal.SIGKILL)
        client.close()


# --- the site benchmark, failing -------------------------------------------------------------------------
def _databases(postgres_url: str) -> set[str]:
    import psycopg

    with psycopg.connect(postgres_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        return {r[0] for r in conn.execute("SELECT datname FROM pg_database")}


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["error: the bench's site exited with status 2", "the end of its log:"]),
    ("zh", ["错误：基准测试的站点已退出，退出状态为 2", "其日志的末尾："])])
def test_a_site_that_exits_as_it_starts_is_said_with_the_end_of_its_log(postgres_url: str, redis_url: str,
                                                                       tmp_path: Path, short_tmp: Path, lang: str,
                                                                       words: list[str]) -> None:
    """`bench server --workers 1` whose site refuses to start: said in the reader's language, the end of the
    site's log quoted as it is, status 1, and nothing left behind."""
    before = _databases(postgres_url)
    hook = tmp_path / "hook"  # the site's supervisor (a serve given --site, which the bench is not) refuses
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import sys\nimport guandan.server.cli as c\n"
        "c.site_problem = lambda *a: 'refused, as the test asks' if '--site' in sys.argv else None\n")
    path = os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run([*GUANDAN, "bench", "server", "--workers", "1", "--redis", redis_url, "--db", postgres_url,
                           "--tables", "1", "--seconds", "1"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(short_tmp), "LANGUAGE": lang, "PYTHONPATH": path})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    ours, said, log = done.stderr.partition(words[1])
    assert ours.strip() == words[0] and said, done.stderr
    assert "refused, as the test asks" in log, done.stderr
    assert _databases(postgres_url) == before
    assert sorted(p.name for p in short_tmp.iterdir()) == []


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["error: the database server refused to create the bench's database bench", " beside "
            "postgresql+psycopg://nocreate@", ": permission denied to create database; each run creates a database of "
            "its own and drops it after: give the user of --db the right to create databases (ALTER ROLE … "
            "CREATEDB), or name a database whose user has it\n"]),
    ("zh", ["错误：数据库服务器拒绝在 postgresql+psycopg://nocreate@", " 旁创建基准测试的数据库 bench",
            "：permission denied to create database；每次运行都会创建自己的数据库，结束后删除：请授予 --db 的用户"
            "创建数据库的权限（ALTER ROLE … CREATEDB），或改用其用户有此权限的数据库\n"])])
def test_a_user_who_may_not_create_the_runs_database_is_told_what_to_do(postgres_url: str, redis_url: str,
                                                                         short_tmp: Path, lang: str,
                                                                         words: list[str]) -> None:
    """`bench server --workers 1 --db URL` whose user lacks CREATEDB: the server's refusal of the run's database
    is said in the reader's language with the way out (status 1), no traceback, and nothing left behind."""
    import psycopg

    with psycopg.connect(postgres_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'nocreate'").fetchone() is None:
            conn.execute("CREATE ROLE nocreate LOGIN NOCREATEDB")
    db = postgres_url.replace("//postgres@", "//nocreate@")
    before = _databases(postgres_url)
    done = subprocess.run([*GUANDAN, "bench", "server", "--workers", "1", "--redis", redis_url, "--db", db,
                           "--tables", "1", "--seconds", "1"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TMPDIR": str(short_tmp), "LANGUAGE": lang})
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    at = 0
    for part in words:  # in this order: the port and the run's name vary
        found = done.stderr.find(part, at)
        assert found >= at, (part, done.stderr)
        at = found + len(part)
    assert done.stderr.startswith(words[0]) and done.stderr.endswith(words[-1]), done.stderr
    assert _databases(postgres_url) == before
    assert sorted(p.name for p in short_tmp.iterdir()) == []


def test_a_site_that_did_not_start_or_was_killed_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from guandan.server.cli import _server_failed

    monkeypatch.setenv("LANGUAGE", "en")
    assert _server_failed(bench_site.SiteFailed(None, "")) == "the bench's site did not start within 120 s"
    assert _server_failed(bench_site.SiteFailed(-signal.SIGKILL, " last line\n")) == (
        "the bench's site was killed by signal SIGKILL\nthe end of its log:\nlast line")
    monkeypatch.setenv("LANGUAGE", "zh")
    assert _server_failed(bench_site.SiteFailed(None, "")) == "基准测试的站点在120秒内没有启动"
    assert _server_failed(bench_site.SiteFailed(-signal.SIGKILL, "")) == "基准测试的站点被信号 SIGKILL 终止"


# --- the bench's clients, stopped --------------------------------------------------------------------------
class _Chatty:
    """A socket with a frame of no interest to a bench client ready at every receive, as on a busy table."""

    async def recv(self) -> str:
        await asyncio.sleep(0)
        return '{"type": "chat"}'

    async def send(self, _message: str) -> None:
        pass

    async def __aenter__(self) -> _Chatty:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        pass


def _stuck_when_cancelled(client: Callable[[asyncio.Event], Coroutine[Any, Any, None]]) -> list[int]:
    """Cancel a client after 0 to 29 turns of the event loop, a new one each time: the turns after which it was
    still running two seconds later. A bench SIGTERM or Ctrl-C stops ends its clients by cancelling them."""
    async def main() -> list[int]:
        stuck = []
        for turns in range(30):
            stop = asyncio.Event()
            task = asyncio.create_task(client(stop))
            for _ in range(turns):
                await asyncio.sleep(0)
            task.cancel()
            done, _ = await asyncio.wait([task], timeout=2)
            if not done:
                stuck.append(turns)
                stop.set()  # what ends it: this run only, a cancelled bench has nobody left to set it
                await asyncio.wait([task], timeout=2)
        return stuck

    return async_support.run(main())


def test_the_bench_clients_stop_when_cancelled_with_a_frame_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cancellation that comes as a receive completes is not lost (asyncio.wait_for of Python 3.11 loses it,
    and the client played on: a stopped bench waited for it for ever)."""
    monkeypatch.setattr(bench.websockets, "connect", lambda *_a, **_k: _Chatty())
    rng = random.Random(1)
    assert _stuck_when_cancelled(lambda stop: bench_site.site_client(
        "ws://x", "c", 0, rng, 0.0, bench_site.SiteTally(), stop)) == []
    assert _stuck_when_cancelled(lambda stop: bench.bot_client("ws://x", 0, rng, 0.0, bench.Tally(), stop)) == []
    assert _stuck_when_cancelled(lambda stop: bench.soak_client(
        "ws://x", 0, rng, 0.0, bench.Tally(), stop, asyncio.Event())) == []
