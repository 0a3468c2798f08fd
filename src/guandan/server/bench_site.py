"""`guandan bench server --workers N --redis URL --db URL`: the bot tables of `bench server` played against a
site of N worker processes behind one address (``serve --workers N``), for each N asked, in one run; and,
with ``--failover``, a worker killed (SIGKILL) halfway through: how long its tables went without service,
and whether any action a client saw acknowledged was lost.

Each bot client here reconnects as a page does (to the same address, which a live worker answers) and
resumes from the last update it saw. A table's outage is, for each of its clients, the time from the
socket dropping to the snapshot that resumes it; lost actions are those a client saw whose table's log
does not hold them at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..i18n import N_
from .bench import ServerFailed, check_terminated, client_turn, free_port, next_frame, open_tables, play_one, run_loop, time_reply

SITE_START_S = 120.0  # every worker joined and the address answering within this, or the bench gives up
LOG_TAIL = 2000  # how much of the end of the site's log a failure carries


class SiteFailed(ServerFailed):
    """The bench's site (its supervisor) exited (``status``, as subprocess gives it: a negative one is the signal
    that ended it) or, with ``status`` None, did not start within :data:`SITE_START_S`; ``log`` is the end of
    the site's log."""

    def __init__(self, status: int | None, log: str) -> None:
        RuntimeError.__init__(self, f"the site {'did not start' if status is None else f'exited ({status})'}: {log}")
        self.status, self.log = status, log


def _site_log(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-LOG_TAIL:]
    except OSError:
        return ""


@dataclass
class SiteTally:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    outages: list[float] = field(default_factory=list)
    reconnects: int = 0
    seen: dict[str, int] = field(default_factory=dict)  # table -> the highest seq a client of it saw


async def site_client(url: str, code: str, seat: int, rng: random.Random, think: float, tally: SiteTally,
                      stop: asyncio.Event) -> None:
    sent: dict[int, float] = {}
    last = -1
    dropped: float | None = None
    while not stop.is_set():
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=10) as ws:
                if last >= 0:
                    await ws.send(json.dumps({"type": "resume", "since": last}))
                pending: asyncio.Task[None] | None = None
                while (frame := await next_frame(ws, stop)) is not None:
                    kind = frame["type"]
                    if kind == "error":
                        tally.errors.append(f"{frame.get('code')}: {frame.get('message')}")
                        continue
                    if kind not in ("update", "snapshot") or frame.get("view") is None:
                        continue
                    seq = frame["seq"]
                    if kind == "snapshot" and dropped is not None:
                        tally.outages.append(time.perf_counter() - dropped)
                        dropped = None
                    last = max(last, seq)
                    tally.seen[code] = max(tally.seen.get(code, 0), seq)
                    time_reply(frame, seat, sent, tally)
                    view = frame["view"]
                    if client_turn(view, seat):
                        pending = asyncio.create_task(_play(ws, view, seq, rng, think, sent))
                if pending is not None:
                    pending.cancel()
                return
        except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
            if stop.is_set():
                return
            if dropped is None:
                dropped = time.perf_counter()
                tally.reconnects += 1
            sent.clear()  # an act the dead socket carried is acted again from the snapshot
            await asyncio.sleep(0.05)


async def _play(ws: Any, view: dict[str, Any], seq: int, rng: random.Random, think: float,
                sent: dict[int, float]) -> None:
    """A turn on a socket that may die meanwhile (the failover drill): the snapshot after it is acted on."""
    with contextlib.suppress(ConnectionClosed):
        await play_one(ws, view, seq, rng, think, sent)


async def _run_site(base: str, tables: int, seconds: float, think: float, seed: int, kill: Any = None,
                    owners: Any = None) -> tuple[SiteTally, float, dict[str, int], float | None, list[int]]:
    tally = SiteTally()
    stop = asyncio.Event()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        setups = await open_tables(http, base, tables, spread=True)
        ws_base = base.replace("http", "ws")
        clients = [asyncio.create_task(site_client(f"{ws_base}/ws/{code}?token={tok}", code, s,
                                                   random.Random(f"bench:{seed}:{t}:{s}"), think, tally, stop))
                   for t, (code, tokens) in enumerate(setups) for s, tok in enumerate(tokens)]
        await asyncio.sleep(1.0)
        for code, tokens in setups:
            for tok in tokens:
                (await http.post(f"/api/rooms/{code}/ready", json={"token": tok})).raise_for_status()
        t0 = time.perf_counter()
        spread = owners() if owners is not None else []
        killed_at: float | None = None
        if kill is not None:
            await asyncio.sleep(seconds / 2)
            killed_at = time.perf_counter() - t0
            kill()
            await asyncio.sleep(seconds / 2)
        else:
            await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        stop.set()
        results = await asyncio.gather(*clients, return_exceptions=True)
        tally.errors.extend(f"client failed: {r!r}" for r in results if isinstance(r, BaseException))
        stored = {}
        for code, _ in setups:
            stored[code] = int((await http.get(f"/api/rooms/{code}")).json()["seq"])
    return tally, elapsed, stored, killed_at, spread


def _start_site(port: int, workers: int, redis_url: str, db_url: str, site: str, log: Path,
                started: list[subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """Start a site (its supervisor, added to ``started`` at once, for the caller to stop whatever happens
    next) and wait until every worker has joined it and its address answers."""
    cmd = [sys.executable, "-c", "from guandan.cli import main; main()", "serve", "--port", str(port),
           "--workers", str(workers), "--redis", redis_url, "--db", db_url, "--site", site, "--no-rate-limits",
           "--bot-delay-ms", "0", "--max-rooms", "100000", "--max-rooms-per-address", "100000"]
    # the workers' log goes to a file: a pipe nobody reads would fill up and stall them
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=out)
    started.append(proc)
    import redis

    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + SITE_START_S
    try:
        while time.monotonic() < deadline:
            check_terminated()
            if proc.poll() is not None:
                raise SiteFailed(proc.returncode, _site_log(log))
            ids = [w.decode() for w in client.smembers(f"{site}:workers")]  # type: ignore[union-attr]
            if sum(1 for w in ids if client.exists(f"{site}:worker:{w}")) >= workers:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1).raise_for_status()
                    return proc
                except httpx.HTTPError:
                    pass
            time.sleep(0.2)
    finally:
        client.close()
    raise SiteFailed(None, _site_log(log))


def _stop_site(started: list[subprocess.Popen[bytes]]) -> None:
    """Stop a site's supervisor as an operator does (SIGTERM: its workers hand their tables over and stop, and
    it removes its metrics folder); one that has not stopped after a minute is killed."""
    for proc in started:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _forget_site(redis_url: str, site: str) -> None:
    """Delete what a site left in Redis: its keys all begin with its name, which only this run used."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{site}:*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class DatabaseRefused(RuntimeError):
    """The database server would not create the run's database ``name`` (the bench's user lacks CREATEDB, most
    often); ``reason`` is the server's first line."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"cannot create the database {name}: {reason}")
        self.name, self.reason = name, reason


def _create_database(db_url: str, name: str) -> str:
    """A new database beside ``db_url``'s (the bench's user needs CREATEDB), and its URL; :class:`DatabaseRefused`
    where the server will not create it."""
    import psycopg

    from ..db.engine import driver_problem

    try:
        with psycopg.connect(_libpq(db_url), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as e:
        raise DatabaseRefused(name, driver_problem(e)) from None
    base, _, _ = db_url.rpartition("/")
    return f"{base}/{name}"


def _drop_database(db_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_libpq(db_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _tables_per_worker(redis_url: str, site: str) -> list[int]:
    """How many tables each worker owns, most first."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        ids = [w.decode() for w in client.smembers(f"{site}:workers")]  # type: ignore[union-attr]
        return sorted((int(client.scard(f"{site}:owned:{w}")) for w in ids), reverse=True)
    finally:
        client.close()


def _kill_busiest(redis_url: str, site: str) -> None:
    """SIGKILL the worker that owns the most tables."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        ids = [w.decode() for w in client.smembers(f"{site}:workers")]  # type: ignore[union-attr]
        owned = {w: client.scard(f"{site}:owned:{w}") for w in ids}
        victim = max(owned, key=lambda w: owned[w])
        pid = client.get(f"{site}:worker:{victim}")
        if pid is not None:
            os.kill(int(pid), signal.SIGKILL)
    finally:
        client.close()


def _figures(tally: SiteTally, elapsed: float, stored: dict[str, int]) -> dict[str, Any]:
    lat = sorted(tally.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else float("nan")

    lost = sum(max(0, seen - stored.get(code, 0)) for code, seen in tally.seen.items())
    return {"seconds": round(elapsed, 2), "actions": tally.actions,
            "actions_per_s": round(tally.actions / elapsed, 1) if elapsed else 0.0,
            "p50_ms": pct(0.50), "p99_ms": pct(0.99),
            "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else float("nan"),
            "errors": len(tally.errors), "first_errors": tally.errors[:5], "lost_actions": lost,
            "reconnects": tally.reconnects}


def run_site_bench(workers: list[int], redis_url: str, db_url: str, tables: int, seconds: float, think_ms: int,
                   seed: int = 1, failover: bool = False) -> dict[str, Any]:
    """One run per worker count, then the failover drill on the largest count: each run a site of its own
    (its name in Redis, and a new database created beside ``db_url``'s and dropped after it)."""
    runs: list[dict[str, Any]] = []
    tag = secrets.token_hex(3)
    plan = [(n, False) for n in workers] + ([(max(workers), True)] if failover else [])
    for i, (n, drill) in enumerate(plan):
        site = f"bench{tag}{i}"
        port = free_port()
        # each step's undoing is registered before the step, so that an interruption anywhere (Ctrl-C, or a
        # SIGTERM, bench.Terminated) leaves no database, process, key or file behind;
        # they run last registered first: the site stops before its database is dropped
        with contextlib.ExitStack() as undo:
            undo.callback(_forget_site, redis_url, site)
            undo.callback(_drop_database, db_url, site)  # DROP … IF EXISTS: harmless before it is created
            run_db = _create_database(db_url, site)  # each run its own: a site takes over every live table it finds
            fd, name = tempfile.mkstemp(prefix=f"guandan-{site}-", suffix=".log")
            os.close(fd)
            log = Path(name)
            undo.callback(log.unlink, missing_ok=True)
            started: list[subprocess.Popen[bytes]] = []
            undo.callback(_stop_site, started)
            _start_site(port, n, redis_url, run_db, site, log, started)
            kill = (lambda site=site: _kill_busiest(redis_url, site)) if drill else None
            try:
                tally, elapsed, stored, killed_at, spread = run_loop(
                    _run_site, f"http://127.0.0.1:{port}", tables, seconds, think_ms / 1000, seed, kill,
                    lambda site=site: _tables_per_worker(redis_url, site))
            except (httpx.HTTPError, OSError):  # what the run met may be its site gone: then why, in its log
                if started[0].poll() is not None:
                    raise SiteFailed(started[0].returncode, _site_log(log)) from None
                raise
        fig = {"workers": n, "tables_per_worker": spread, **_figures(tally, elapsed, stored)}
        if drill:
            fig["failover"] = {"killed_at_s": round(killed_at or 0.0, 2),
                               "outage_max_s": round(max(tally.outages), 2) if tally.outages else 0.0,
                               "outage_median_s": round(statistics.median(tally.outages), 2) if tally.outages else 0.0,
                               "clients_resumed": len(tally.outages)}
        runs.append(fig)
    check_terminated()  # one that came as the last site stopped: no report
    base = next((r["actions_per_s"] for r in runs if r["workers"] == min(workers) and "failover" not in r), None)
    for r in runs:
        if base and "failover" not in r:
            r["ratio_to_fewest"] = round(r["actions_per_s"] / base, 2)
    return {"mode": "site", "tables": tables, "think_ms": think_ms, "runs": runs}


def format_site_report(report: dict[str, Any], gettext: Callable[[str], str] = str) -> str:
    """The site bench's figures as a person reads them, in the language of ``gettext`` (a catalogue's)."""
    _ = gettext
    lines = [_(N_("{tables} tables of 4 bot clients (think {think} ms), one address:")).format(
        tables=report["tables"], think=report["think_ms"])]
    for r in report["runs"]:
        if "failover" in r:
            f = r["failover"]
            # "a 2-worker site" and "errors: 1": figures that need no plural whatever the count
            line = _(N_("failover drill, {workers}-worker site, the busiest worker killed at {killed} s: longest "
                        "without service {longest} s (median {median} s); clients resumed: {resumed}, actions lost: "
                        "{lost}, error frames: {errors}")).format(
                workers=r["workers"], killed=f["killed_at_s"], resumed=f["clients_resumed"],
                longest=f["outage_max_s"], median=f["outage_median_s"], lost=r["lost_actions"], errors=r["errors"])
        else:
            line = _(N_("{workers}-worker site: {rate} actions/s (×{ratio}), p50 {p50} ms, p99 {p99} ms; errors: "
                        "{errors}, actions lost: {lost}; tables per worker: {spread}")).format(
                workers=r["workers"], rate=f"{r['actions_per_s']:,.1f}", ratio=f"{r.get('ratio_to_fewest', 1.0):.2f}",
                p50=r["p50_ms"], p99=r["p99_ms"], errors=r["errors"], lost=r["lost_actions"],
                spread="/".join(str(n) for n in r["tables_per_worker"]))
        lines.append("  " + line)
    return "\n".join(lines)
